"""Compare / what-if: the current design next to examples of any architecture
(hyperconverged, disaggregated file server, split provisioning, single server)
and a what-if variant, under the current workload or the IO a database
description asks for; a tornado of which input moves IOPS and latency most."""

from __future__ import annotations

import functools
import json
import math
from typing import Any

import streamlit as st
from pydantic import ValidationError

from hciplan_ui import charts, chrome, costs, database_inputs, export, fmt, inputs, part_picker, sizing_rows, state
from planner.commercial.database import database_warnings
from planner.commercial.licensing import licences_counted
from planner.commercial.tco import TCO_YEARS
from planner.core.errors import PlannerError, format_validation_error
from planner.core.text import count, first_upper, sentence
from planner.engine.architectures import TOPOLOGY_LABELS
from planner.engine.performance import LATENCY_NAMES, station_words, unbounded_latency
from planner.models.database import (
    ASSUMED_LOG_WRITE_LATENCY_MS,
    ASSUMPTION_FIELDS,
    SOURCES,
    Database,
    as_workload,
    io_demand,
)
from planner.models.demand import Demand
from planner.models.design import MAX_DESIGN_FILE_BYTES, Design, DriveSet, parse_design
from planner.models.examples import example_designs, example_stacks
from planner.models.stacks import MAX_NODES as STACK_MAX_NODES
from planner.models.stacks import STACK_LABELS, resiliencies
from planner.results.report import bottleneck_words, network_traffic_words
from planner.sizing.compare import DOES_NOT_FIT, unless_it_fits
from planner.sizing.verdict import report_against_demand
from planner.sizing.words import (
    customer_words,
    design_resiliency_words,
    example_words,
    server_count_words,
    transport_words,
)

#: the database assumptions' choices in words: row access patterns, the model's checkpoint mode (the values
#: stay the file's)
CHOICE_WORDS = {
    "hammerdb": "HammerDB's (uniform items)",
    "tpcc": "TPC-C's NURand",
    "model": "the model's (from the version)",
}


def arch_label(topology: str, stack: str | None = "s2d") -> str:
    """The architecture as a person names it: a Ceph or vSAN design says its stack (None: a system that runs no
    HCI stack, a single server, a SAN, a file-server cluster, as their reports say)."""
    if stack not in (None, "s2d"):
        where = "clients on their own servers" if topology == "disaggregated" else "hyperconverged"
        return f"{STACK_LABELS[stack]}, {where}"
    if topology == "hyperconverged":
        # named by its stack as Ceph and vSAN are: "Hyperconverged (HCI)" beside "Ceph RBD, hyperconverged" did not
        # say which column was Storage Spaces Direct (browser review 2026-11-30); not "(Azure Local)": it may run
        # on Windows Server
        return "Storage Spaces Direct, hyperconverged"
    # it begins the caption under a column's name and fills a table cell: "Disaggregated file-server cluster"
    return first_upper(TOPOLOGY_LABELS.get(topology, ""))


def shown_name(name: str) -> str:
    """A scenario as the page names it to a customer: an example by what it is (its file name,
    "seed-dl580-san-raid5", is kept in the CSV); the current design, the what-if and the system today in
    words that head a column (they were headed "current", "what-if", "today")."""
    words = example_words()
    # an example's words begin a heading ("A single server, RAID-5 on a SAN"); a name a user gave stays as given
    return OWN_NAMES.get(name) or (first_upper(words[name]) if name in words else name)


#: the page's own scenarios as a column heads them (the CSV keeps the short names)
def _unpriced_words(exc: PlannerError) -> str:
    """Why a system has no cost, in the page's words: the part by name and where its price goes on this app (the
    column read "part_prices_usd.hp-dl580-g7: no list_price_usd ... in the cost assumptions' part_prices_usd";
    migration walk 2026-11-30)."""
    from planner.commercial.pricing import UnbuiltRamError

    if isinstance(exc, UnbuiltRamError):
        # after "not priced: ", the verdict's one sentence (the memory rule, among the verdict's, says the totals)
        return costs.refused_words(exc).removeprefix("not priced: ")
    if exc.field and exc.field.startswith("part_prices_usd."):
        part = customer_words(exc.field.removeprefix("part_prices_usd."))
        return (
            f"{part} has no list price: give its price in your quotes (the Size page's Prices and licences), or "
            "choose it as the customer's system today, which is costed without its purchase"
        )
    return customer_words(exc.message)


OWN_NAMES = {"current": "Current design", "what-if": "What-if", "today": "System today"}


chrome.header("Compare / what-if")
# the demand's own load follows the design's node count whichever page is opened first (a shared link)
if moved := costs.follow_demand(state.design_json()):
    st.caption(fmt.md(moved))
ss = st.session_state
dj = state.design_json()
cur = json.loads(dj)

#: where the page's database gets its VM's vCPUs (this page has no box for them): the database warnings' words
VCPUS_ON_THE_SLA_PAGE = "the SLA page sets them"


def _sla_vcpus() -> dict:
    """The database VM's vCPUs as the SLA page sets them (``vcpus``), or none where it has not (the model's default
    then, said as one): the page's warning said "the default 16 vCPUs" after the SLA page was set to 8, beside the
    SLA page's figures for 8 (DBA walk 2026-11-30)."""
    v = st.session_state.get("sla_vcpus")
    low, high, _ = inputs.model_bounds(Database, "vcpus")
    if not isinstance(v, (int, float)) or not float(v).is_integer() or not (low or 1) <= v <= (high or v):
        return {}
    return {"vcpus": int(v)}


# ------------------------------------------------------------------ workload
source = st.radio(
    "Workload",
    [f"current ({state.workload_name()})", state.CMP_DATABASE],
    key="cmp_wsource",
    horizontal=True,
    help="The current workload is chosen on the Performance page. A database description is "
    "translated into its IO (page reads, read-ahead, checkpoints, lazy writer, log; each with its rule and "
    "source below) and evaluated as an open load.",
)
wj = state.workload_json()
db_demand = None
#: the described database and whether its peak is sized: each system's column takes its IO on that system
db_load: tuple[Database, bool] | None = None
if source.startswith("from"):
    with st.expander("Database → IO demand (every assumption can be overridden)", expanded=True):
        B = lambda f: inputs.model_bounds(Database, f)
        basic, problems = database_inputs.basics("db_")
        inputs.keep("db_peak")
        st.session_state.setdefault("db_peak", True)  # seeded, not value=: a kept value would clash with it
        peak = st.toggle("Size for the peak (checkpoint bursts) rather than the mean", key="db_peak")
        overrides = {}
        st.caption("Assumptions: the value used and where it comes from (0 or 'model' = the model's own).")
        choices: dict[str, list[Any]] = {
            "access": ["hammerdb", "tpcc"],
            "checkpoint_mode": ["model", "indirect", "automatic"],
            "sql_server_version": [2019, 2022, 2017, 2016, 2014, 2012],
        }
        for field in ASSUMPTION_FIELDS:
            cols = st.columns([1, 3])
            label = fmt.label(field)
            if field in choices:
                v = cols[0].selectbox(
                    label, choices[field], key=f"db_{field}", format_func=lambda x: CHOICE_WORDS.get(x, str(x))
                )
                overrides[field] = None if v == "model" else v
            elif field == "all_warehouses":
                overrides[field] = cols[0].checkbox(label, key=f"db_{field}")
            else:
                integer = field == "virtual_users"
                v, e = inputs.number(
                    cols[0],
                    label + " (0 = model)",
                    f"db_{field}",
                    (0, B(field)[1], False),
                    integer=integer,
                    step=1 if integer else None,
                    default=0,
                )
                problems.append((cols[0], e))
                if v:  # 0: the model's own value (the field's default)
                    overrides[field] = int(v) if integer else v
            cols[1].caption(state.plain(customer_words(SOURCES[field])))  # no file paths (browser review 2026-11-30)
        c = st.columns(2)
        overrides["scan_mb_s"], e = inputs.number(
            c[0], "Scans (read-ahead), MB/s", "db_scan_mb_s", B("scan_mb_s"), unit="MB/s", default=0.0
        )
        problems.append((c[0], e))
        overrides["backup_mb_s"], e = inputs.number(
            c[1], "Backup running, MB/s", "db_backup_mb_s", B("backup_mb_s"), unit="MB/s", default=0.0
        )
        problems.append((c[1], e))
        for col, e in problems:
            inputs.show(col, e)
        if not any(e for _, e in problems):
            try:
                db = Database(name="database", **basic, **overrides, **_sla_vcpus())
                db_demand = io_demand(db)
                w = as_workload(db_demand, peak=peak)
            except (PlannerError, ValueError) as exc:  # no st.stop: the page goes on with the current workload
                db_demand = None  # a demand the page cannot evaluate is none
                # one line: pydantic's own text ("1 validation error for Database ... [type=value_error, ...] For
                # further information visit https://errors.pydantic.dev/...") is not a customer's (DBA walk 2026-11-30)
                why = format_validation_error(exc) if isinstance(exc, ValidationError) else str(exc)
                st.error(fmt.md(f"database: {why}"))
        if db_demand is not None:
            db_load = (db, peak)
            if st.button(
                "Guarantee this database on the SLA page",
                key="db_to_sla",
                help="carries the description with every assumption set here",
            ):
                database_inputs.send_to_sla(db, peak)
                st.success(
                    "On the SLA & tiers page: this database, with these assumptions"
                    # the page guarantees on either system, as the user chooses there: the hand-off led to the
                    # design here's guarantee alone, whatever system today was compared (browser walk 2026-12-01)
                    + (
                        "; choose there whether to guarantee it on the design here or on the customer's system today."
                        if state.existing_json()
                        else "."
                    )
                )
            wj = state.canonical(w.model_dump(mode="json"))
            rows = [
                {
                    "IO type": s.name,
                    "Size, KiB": fmt.num(s.block_size_kib, 1),
                    "Read": "yes" if s.read else "no",
                    "Random": "yes" if s.random else "no",
                    "IOPS (mean)": fmt.iops(s.iops),
                    "IOPS (peak)": fmt.iops(s.peak_iops),
                    "MB/s (mean)": fmt.num(s.bandwidth_mb_s, 1),
                    "Rule": s.rule,
                    "Source": s.source,
                }
                for s in db_demand.streams
            ]
            st.dataframe(rows, hide_index=True, width="stretch", key="db_streams")
            st.caption(
                # with the digits a miss stream needs: "hit 100%" stood beside 491 page reads a second (0.9968; DBA
                # walk 2026-11-30)
                f"{db_demand.transactions_per_s:,.0f} transactions/s, buffer-pool hit "
                f"{fmt.used(db_demand.buffer_hit_ratio)}: **{db_demand.iops:,.0f} IOPS mean, "
                f"{db_demand.peak_iops:,.0f} peak**, {fmt.pct(db_demand.read_fraction)} reads, "
                f"{db_demand.block_size_kib:.1f} KiB mean size, its log flushed at an assumed "
                f"{ASSUMED_LOG_WRITE_LATENCY_MS:g} ms. Each system below takes it as an open load with the log "
                "flushed at that system's predicted write latency, as `sla --database` does (said under each column)."
            )
            # every warning `db-io` gives of the same database (the library's list): the page showed the hit ratio's
            # alone beside 1 virtual user at 7,744 transactions a second (DBA walk 2026-11-30)
            for warned in database_warnings(db, db_demand, unset_vcpus=VCPUS_ON_THE_SLA_PAGE):
                st.warning(fmt.md(sentence(warned)), icon=":material/warning:")
else:
    st.caption(f"Workload **{fmt.md(state.workload_name())}** (change it on the Performance page).")

# ------------------------------------------------------------------ designs
examples = example_designs()
stacks = example_stacks()
others = st.multiselect(
    "Compare the current design with (up to 3)",
    list(examples),
    max_selections=3,
    key="cmp_examples",
    default=None,
    format_func=lambda n: f"{shown_name(n)} — {arch_label(examples[n], stacks.get(n, 's2d'))}",
)
with st.expander("What-if variant of the current design", expanded=True):
    c = st.columns(4)
    # seeded from the current design, again whenever that changes: "Use this design" of a 12-node design left
    # the what-if at the 9 nodes seeded from the design before (browser review 2026-11-30)
    if "wi_nodes" not in ss or ss.get(state.WHATIF_SEEDED_FROM) != dj:
        ss[state.WHATIF_SEEDED_FROM] = dj
        ss["wi_nodes"] = state.whatif_nodes(cur)
        ss["wi_drives"] = cur["node"]["capacity_drives"]["count"]
        ss["wi_cap"] = float(cur["cpu_utilization_cap"])
        # the parts and policies a sales call changes (the product's what-if: drives, resiliency, network,
        # oversubscription), each the current design's until changed
        ss["wi_drive_model"] = part_picker.ref(cur["node"]["capacity_drives"]["model"])
        ss["wi_resiliency"] = cur["resiliency"]
        ss["wi_nic"] = part_picker.ref(cur["node"]["nics"]["model"])
        ss["wi_transport"] = cur.get("transport", "rdma")
        ss["wi_oversub"] = float(cur.get("vcpu_oversubscription", 4.0))
    inputs.keep("wi_on", "wi_cap", "wi_drive_model", "wi_resiliency", "wi_nic", "wi_transport")
    ss.setdefault("wi_on", True)
    on = c[0].checkbox("Include what-if", key="wi_on")
    # the current design's stack's own limit (verification walk 2026-12-01: "1-256" on an S2D design, whose own
    # message then said 16)
    low, _, excl = inputs.model_bounds(Design, "nodes")
    wi_nodes, e_nodes = inputs.number(
        c[1], "Nodes", "wi_nodes", (low, STACK_MAX_NODES.get(cur.get("stack", "s2d")), excl), integer=True, step=1
    )
    wi_drives, e_drives = inputs.number(
        c[2], "Drives per node", "wi_drives", inputs.model_bounds(DriveSet, "count"), integer=True, step=1
    )
    inputs.cap_slider(c[3], "CPU cap", "wi_cap")
    inputs.show(c[1], e_nodes)
    inputs.show(c[2], e_drives)
    c = st.columns(4)
    wi_stack = cur.get("stack") or "s2d"
    wi_drive = part_picker.select(
        c[0],
        "Capacity drive",
        "capacity_drive",
        "wi_drive_model",
        part_picker.ref(cur["node"]["capacity_drives"]["model"]),
    )
    # the resiliencies the what-if's nodes can hold, by the validator's rule (the Design page's list); the current
    # design's stays offered, marked, where the what-if's nodes cannot hold it, so the reason is said, not hidden
    res_nodes = int(wi_nodes) if not e_nodes else int(cur["nodes"])
    res_options = list(resiliencies(wi_stack))
    if cur["resiliency"] not in res_options:
        res_options.insert(0, cur["resiliency"])  # a Ceph erasure code from a loaded file
    if ss.get("wi_resiliency") not in res_options:  # a link's value this stack does not take
        ss["wi_resiliency"] = cur["resiliency"]
    misfit = part_picker.misfits(wi_stack, res_options, res_nodes, cur)
    res_options = [r for r in res_options if misfit.get(r) is None or r in (ss["wi_resiliency"], cur["resiliency"])]
    res_words = functools.partial(
        part_picker.resiliency_option,
        stack=wi_stack,
        nodes=res_nodes,
        architecture=str((cur.get("vsan") or {}).get("architecture") or "esa"),
        misfit=frozenset(r for r, why in misfit.items() if why),
    )
    part_picker.resend_if_relabelled("wi_resiliency", tuple(res_words(r) for r in res_options))
    c[1].selectbox(part_picker.RESILIENCY_LABELS[wi_stack], res_options, key="wi_resiliency", format_func=res_words)
    wi_nic = part_picker.select(c[2], "NIC", "nic", "wi_nic", part_picker.ref(cur["node"]["nics"]["model"]))
    part_picker.transport_radio(c[3], "wi_transport", wi_stack)
    wi_oversub, e_oversub = inputs.number(
        c[3],
        "vCPU oversubscription",
        "wi_oversub",
        inputs.model_bounds(Design, "vcpu_oversubscription"),
        step=0.5,
        help="vCPUs per logical processor",
    )
    inputs.show(c[3], e_oversub)

with st.expander("The customer's system today (its cost and TCO beside the proposal)", expanded=False):
    # any architecture: a bundled example, or the customer's own design file
    ex_src = st.radio(
        "System today",
        ["none", "an example", "my design file"],
        key="cmp_existing_src",
        horizontal=True,
        help="costed as owned (its purchase is sunk: running costs only) and evaluated under the same workload",
    )
    inputs.keep("cmp_existing_src", "cmp_existing_example")
    if ex_src == "an example":
        ex_name = st.selectbox(
            "Example",
            list(examples),
            key="cmp_existing_example",
            format_func=lambda n: f"{shown_name(n)} — {arch_label(examples[n], stacks.get(n, 's2d'))}",
        )
        state.set_existing(state.example_json(ex_name))
    elif ex_src == "my design file":
        up = inputs.file_box(
            st,
            "The system today as a design file",
            "cmp_existing_upload",
            MAX_DESIGN_FILE_BYTES // 1_000_000,
            "JSON, any architecture",
            ["json"],
        )
        if up is not None and ss.get("cmp_existing_seen") != up.file_id:
            ss["cmp_existing_seen"] = up.file_id
            try:
                if up.size > MAX_DESIGN_FILE_BYTES:
                    raise PlannerError(f"{up.name} is larger than 1 MB", "design")
                ej = state.design_to_json(parse_design(up.getvalue()))
                state.report(ej, wj)  # its parts resolve and it evaluates, or one line says why not
                costs.whole(ej, owned=True)
            except PlannerError as exc:
                state.set_existing(None)
                st.error(f"Could not use {fmt.md(up.name)}: {fmt.md(fmt.screen_error(str(exc)))}")
            else:
                state.set_existing(ej)
        elif up is None and ss.get("cmp_existing_seen"):
            st.caption("Showing the file loaded before; load another to replace it.")
    else:
        state.set_existing(None)

scenarios = [("current", dj)]
errors = []
if on and len(others) < 3 and not (e_nodes or e_drives or e_oversub):
    wi = json.loads(dj)
    wi["name"] = "what-if"
    wi["nodes"] = int(wi_nodes)
    wi["node"]["capacity_drives"] = {
        "model": part_picker.part_value("capacity_drive", wi_drive, wi["node"]["capacity_drives"]["model"]),
        "count": int(wi_drives),
    }
    wi["node"]["nics"]["model"] = part_picker.part_value("nic", wi_nic, wi["node"]["nics"]["model"])
    wi["resiliency"] = ss["wi_resiliency"]  # mirror-accelerated parity at the design's mirror share (its default)
    wi["transport"] = ss["wi_transport"]
    wi["vcpu_oversubscription"] = float(wi_oversub)
    wi["cpu_utilization_cap"] = float(ss["wi_cap"])
    try:
        scenarios.append(("what-if", state.validate_design(wi)))
    except PlannerError as exc:
        # the sentence alone, as the Design page says it: "what-if: Node.capacity drives.count: 30 drives per node
        # ..." put the design file's field path on the page (architect walk)
        errors.append(f"what-if: {fmt.screen_error(exc.message)}")
for name in others:
    scenarios.append((name, state.example_json(name)))
existing = state.existing_json()
if existing:
    scenarios.append(("today", existing))
if on and len(others) >= 3:
    st.info(
        "The what-if is left out: the comparison holds four designs, the current one and three examples. "
        "Remove an example to see the what-if."
    )
for e in errors:
    st.error(fmt.md(customer_words(e)))  # ids in words: "resiliency 'three-way mirror' needs ..."
# the what-if the customer chose becomes the design every page, the proposal and the share link show (it was retyped
# on the Design page, box by box); under the current design's name, which follows its parts when the parts made it,
# and a new what-if is seeded from it
adopt = dict(scenarios).get("what-if")
if (
    adopt
    and state.design_changes(dj, adopt, "current design")
    and st.button(
        "Make the what-if the design",
        key="wi_use",
        help="Every page, the proposal and the share link then show the what-if; the design before it is kept "
        "for the Design page's note on what changed.",
    )
):
    state.set_design(state.validate_design(json.loads(adopt) | {"name": cur["name"]}))
    st.rerun()


def bottleneck_label(r: dict) -> str:
    """The Design and Performance pages' words (the busiest station below saturation), another
    architecture's stations by its model's own names; none where the database does not fit (it read "none yet"
    beside the DL580's 0.24 TB for a 1.5 TB database; browser walk 2026-12-01)."""
    if not fits(r):
        return f"none: the database {DOES_NOT_FIT}"
    return bottleneck_words(r, station_words(r))


def fits(r: dict) -> bool:
    """Whether the described database fits the system (:func:`planner.sizing.compare.unless_it_fits`); a workload
    that is no database always does."""
    return r.get("database_fits") is not False


def uncalibrated(r: dict) -> list[str]:
    """Each way the design lies outside what the model was validated on, in customer words
    (node count, processor family, architecture...): a design with any is not calibrated."""
    from planner.sizing.document import extrapolation_text

    return extrapolation_text(r, widened="")


@st.cache_data(show_spinner=False, max_entries=64)
def _database_load(design_json: str, db_json: str, peak: bool) -> tuple[str, str]:
    """(workload JSON, note) of the database's IO on one design (:func:`planner.sizing.compare.database_load`: its log
    flushed at that design's predicted write latency, the rule of `compare --database` and `sla --database`)."""
    from planner.models.design import parse_design
    from planner.sizing.compare import database_load

    w, note = database_load(parse_design(design_json), Database.model_validate_json(db_json), peak)
    return state.canonical(w.model_dump(mode="json")), note


def workload_for(name: str, design_json: str) -> tuple[str, str | None]:
    """(workload JSON, note or None) a scenario is evaluated under: the demand's own load follows a scenario's
    node count (the same databases on more or fewer nodes), any other workload stays; a described database's IO
    comes with its note on the log flush latency it was taken at (returned, not kept aside: a module dict had
    carried it from here to the column, filled as a side effect)."""
    if db_load is not None:
        # the page's workload was the database's IO at an assumed 1 ms log flush, on every system alike, where the
        # CLI's `compare --database` flushes it at each design's predicted write latency (performance walk 2026-12-01)
        try:
            return _database_load(design_json, db_load[0].model_dump_json(), db_load[1])
        except PlannerError:
            return wj, None
    if name == "current" or source.startswith("from"):
        return wj, None
    try:
        return state.demand_load_on(wj, design_json, costs.demand_json()), None
    except PlannerError:
        return wj, None


def failed_rules(v: dict, name: str) -> list[str]:
    """The titles of the other rules a judged design fails (vendor rules, parity, the budget...): the
    Compare card said only "demand not met: N+1" of a design the Design page showed failing Microsoft's
    RDMA rule (browser review 2026-11-29). The system today's purchase is sunk: no budget rule for it."""
    return [f["title"] for f in v.get("other_fails") or [] if not (name == "today" and f["rule"] == "budget")]


def demand_not_met(v: dict, name: str) -> str | None:
    """What a judged design misses of the demand, in one phrase for the card and the table ("not met: IOPS;
    fails 1 rule: “…”"), or None when it meets it: the parts missed and the other rules failed, one verdict.
    The card read "demand met · fails 1 rule, not met: …" of a dual-parity design the table called "not met"
    with no reason (presales walk 2026-11-30)."""
    missed = [d["label"] for d in v["dimensions"] if not d["met"]]
    rules = failed_rules(v, name)
    parts = ([", ".join(missed)] if missed else []) + (
        # each rule is what it requires, quoted: "fails 2 rules: the capacity drives' rated writes outlast the
        # amortisation period" read as a pass (browser review 2026-11-29)
        [f"fails {count(len(rules), 'rule')}: " + "; ".join(f"“{r}”" for r in rules)] if rules else []
    )
    return "not met: " + "; ".join(parts) if parts else None


# (key, label, formatter, smaller is better)
METRICS = [
    ("usable_capacity_tb", "Usable capacity", fmt.tb, False),
    ("iops", "IOPS", fmt.iops, False),
    # what each system carries at most: under an open load every design that is not saturated carries the
    # same IOPS (browser review 2026-11-28: "582,000 / 582,000 / 582,000, +0.0 %")
    ("iops_capacity", "IOPS at saturation", fmt.iops, False),
    *(
        (k, LATENCY_NAMES[k], fmt.ms, True)
        for k in ("read_latency_ms", "write_latency_ms", "vm_latency_ms", "p99_read_latency_ms")
    ),
]
SHOWN = ("usable_capacity_tb", "iops", "read_latency_ms", "vm_latency_ms", "p99_read_latency_ms")
reports = []
designs = dict(scenarios)
flush_notes: dict[str, str] = {}  # each scenario's note on the log flush latency its database IO was taken at
for n, d in scenarios:
    try:
        load, note = workload_for(n, d)
        rep = state.report(d, load)
        if db_load is not None:
            # a database the system cannot hold runs no load there: its column says so, its load's figures are null
            # (the DL580's 0.24 TB showed 15,443 IOPS at 0.607 ms for a 1.5 TB database, where `sla` guarantees it 0;
            # browser walk 2026-12-01), as `compare --database` has it; a system that holds it keeps the report as it was
            fit = unless_it_fits(rep, db_load[0].capacity_tb, db_load[0].beside_data())
            rep = rep if fit["database_fits"] else fit
        reports.append((n, rep))
        if note:
            flush_notes[n] = note
    except PlannerError as exc:
        st.error(fmt.md(f"{n}: {customer_words(str(exc))}"))
# the system today is judged as any design (browser review 2026-11-29: a Ceph example read "not met: RAM, N+1"
# as a proposal and "met (IOPS, Capacity)" as the system today, with the same figures); a SAN or a single
# server is not judged by the sizing rules and says what it carries instead (``unjudged`` below)
verdicts = {n: costs.verdict(designs[n]) for n, _ in reports}
demand = Demand.model_validate_json(dem_json) if (dem_json := costs.demand_json()) else None
wholes: dict[str, dict | None] = {}
unpriced: dict[str, str] = {}
for n, _ in reports:
    try:
        wholes[n] = costs.whole(designs[n], owned=n == "today")
    except PlannerError as exc:  # a part without a price: its figures stand, its cost is a dash with why
        wholes[n], unpriced[n] = None, f"not priced: {_unpriced_words(exc)}"
# each priced system's TCOs against the demand's growth (a system the sizing rules do not judge has no growth search)
tco_said: dict[str, dict[int, list[str]]] = {
    n: {t["years"]: costs.tco_caveats(designs[n], t["years"]) for t in wc["tco"]} if (wc := wholes[n]) else {}
    for n, _ in reports
}
# a system the sizing rules do not judge (the system today, a SAN, a single server): the two parts of
# the demand its figures answer, said in its column and in the table
unjudged: dict[str, list[dict]] = {
    n: report_against_demand(r, demand)
    for n, r in reports
    if demand is not None and not ((v := verdicts.get(n)) and ("error" in v or v["judged"]))
}
base = reports[0][1]
cols = st.columns(len(reports))


def _metric(name: str, key: str, label: str, value: str, delta: str | None = None, **kw) -> None:
    """A figure of a system's column. Beside other columns, one without a change badge keeps the badge's room,
    unseen (BASE_CSS, ``cmp_flat_``): a what-if's badges pushed its figures below the current design's, row after
    row out of line (pricing-call walk, stop 63)."""
    if delta is None and len(reports) > 1:
        kw.pop("delta_color", None)
        with st.container(key=f"cmp_flat_{name}_{key}"):
            st.metric(label, value, delta="+0.0 %", delta_color="off", delta_arrow="off", **kw)
    else:
        st.metric(label, value, delta=delta, **kw)


for col, (name, r) in zip(cols, reports):
    with col:
        st.header(fmt.md(shown_name(name)))
        arch = arch_label(r.get("topology", "hyperconverged"), r.get("stack"))
        # in words: the report's ids read "raid5 · fc-4g x1"
        # a Ceph design's release after its resiliency, as the Design and Performance pages name it
        # (sizing_rows.release_said; the Compare page named none, pre-sales Ceph walk 2026-12-03)
        st.caption(
            f"{arch} · {server_count_words(json.loads(designs[name]), r['nodes'])} · {design_resiliency_words(json.loads(designs[name]) | {'nodes': r['nodes'], 'resiliency': r['resiliency']})}"
            f"{sizing_rows.release_said(json.loads(designs[name]))} · {transport_words(r['transport'])}"
        )
        if not fits(r):
            # said first, plainly: no figure of its load stands below
            st.caption(f":red[{fmt.said(r['database_fits_note'])}.]")
        for key, label, f, lower_better in METRICS:
            if key not in SHOWN:
                continue
            delta = None
            if not fits(r) and r.get(key) is None and r.get(f"{key}_note"):
                _metric(name, key, label, DOES_NOT_FIT, help=fmt.said(r[f"{key}_note"]) + ".")
                continue
            if key.endswith("latency_ms") and (unbounded := unbounded_latency(r)):
                # past saturation the latency is the capacity's, not this load's: "VM latency 28.1 ms" for 2.3 M
                # IOPS asked of a SAN that carries 16,752 (browser review 2026-11-30); a load a CPU cap throttles
                # never reaches its rate, and its figure was the IOs' let through (known gap, stop 51)
                _metric(name, key, label, unbounded["cell"], help=fmt.md(first_upper(unbounded["why"]) + "."))
                continue
            # no latency of the base to compare with
            if r.get(key) is None and (absent := r.get(f"{key}_note")):  # no such IO in the workload: said
                _metric(name, key, label, "none", help=fmt.md(first_upper(absent) + "."))
                continue
            past = key.endswith("latency_ms") and unbounded_latency(base) is not None
            if name != "current" and base.get(key) and r.get(key) is not None and not past:
                delta = fmt.metric_delta(r[key] / base[key])
            _metric(name, key, label, f(r.get(key)), delta, delta_color="inverse" if lower_better else "normal")
            # the report's band, at its figure's precision (as every page gives it)
            if band_line := fmt.band_text(r.get(f"{key}_low"), r.get(f"{key}_high"), f, r.get(key)):
                st.caption(band_line)
        st.caption(f"Bottleneck: {fmt.md(bottleneck_label(r))}")
        # the network's load as `compare` gives it, in MB/s against the link (the page showed none; network walk
        # 2026-12-01), and the round trip between rooms its latencies include
        if east_west := network_traffic_words(r.get("network_mb_s_per_node"), r.get("network_link_mb_s_per_node")):
            busy = (r.get("utilization") or {}).get("network")
            st.caption(
                "Network between servers: "
                + (f"{fmt.pct(busy)} busy, " if isinstance(busy, (int, float)) else "")
                + east_west
                + (
                    f" · rooms {fmt.ms(r['fault_domain_rtt_ms'])} round trip apart"
                    if r.get("fault_domain_rtt_ms")
                    else ""
                )
            )
        wc = wholes[name]
        st.metric(
            "Running cost/month" if name == "today" else "Whole cost/month",
            fmt.usd(wc["monthly"]["total_usd_per_month"] if wc else None),
            help=fmt.md(unpriced[name])
            if name in unpriced
            else "owned: support, power, rack space and subscriptions (its purchase is sunk)"
            if name == "today"
            else "servers, switches, optics and cables, licences, SQL Server when counted, support, power, rack",
        )
        # each TCO with what it leaves out of the demand's growth, as the Size page and the proposal say it
        said = (
            [
                f"TCO {t['years']} years {fmt.usd(t['total_usd'])}"
                + (f" ({fmt.md('; '.join(c))})" if (c := tco_said[name].get(t["years"])) else "")
                for t in wc["tco"]
            ]
            if wc
            else []
        )
        if name in unpriced:
            said.append(f"not priced: {fmt.md(unpriced[name].removeprefix('not priced: '))}")
        if gap := costs.network_gaps(wc):
            said.append(f":orange[{fmt.md(gap)}]")
        v = verdicts.get(name)
        if v and "error" not in v and v["judged"]:
            # a failed vendor rule turns the verdict as a missed part of the demand does
            said.append(
                ":red[demand " + fmt.md(short) + "]" if (short := demand_not_met(v, name)) else ":green[demand met]"
            )
        elif v and "error" in v:
            said.append(f":red[not judged against the demand: {fmt.md(v['error'])}]")
        elif name in unjudged:
            # what it carries of the demand, so its running cost never stands alone
            for g in unjudged[name]:
                if g["met"]:
                    said.append(f":green[{g['label']} met]")
                else:
                    # "at saturation": the IOPS metric above is the one at the workload's own load, another figure
                    # the capacity metric's own decimals (0.16 TB above read "0.2 TB" here; walk 2026-12-02)
                    f = (lambda x: fmt.iops(x) + " IOPS") if g["unit"] == "IOPS" else fmt.tb
                    said.append(
                        f":red[{g['label']}: {f(g['have'])}"
                        + (" at saturation" if g["key"] == "iops" else "")
                        + f" of the {f(g['need'])} the demand needs]"
                    )
        # one caption (a what-if redraws every element of every column)
        st.caption(" · ".join(said), help=fmt.md(v["summary"]) if v and v.get("summary") else None)
        if name == "what-if":
            # what the what-if changes, every part and policy in the sizer's words: beside the column's figures the
            # customer sees what moved them
            changed = state.design_changes(dj, dict(scenarios)["what-if"], "current design")
            st.caption(fmt.md(f"Changes: {changed}." if changed else "No change from the current design."))
        if name == "what-if" and (note := state.node_note(dj, dict(scenarios)["what-if"], wj)):
            st.info(state.plain(note), icon=":material/info:")
        if flush := flush_notes.get(name):
            st.caption(fmt.md(sentence(flush)))
        if why := uncalibrated(r):
            st.caption(f":orange[Outside the calibrated domain] — {state.plain(' '.join(why))}")
        if no_down := (r.get("model") or {}).get("degraded"):
            # beside an S2D column sized for N+1, a SAN server or a file-server pair said nothing of a failure
            # (SRE walk 2026-11-30): the report's own words
            st.caption(f":orange[One node down:] {state.plain(no_down)}")

table, csv_rows = [], []
absent_notes: set[str] = set()  # why a latency is none: no reads, or no writes, in the workload
row: dict[str, Any]
raw: dict[str, Any]
for name, r in reports:
    arch = arch_label(r.get("topology", "hyperconverged"), r.get("stack"))
    row, raw = {"Scenario": shown_name(name), "Architecture": arch}, {"scenario": name, "architecture": arch}
    unbounded, base_unbounded = unbounded_latency(r), unbounded_latency(base)
    for key, label, f, _ in METRICS:
        if not fits(r) and r.get(key) is None and r.get(f"{key}_note"):
            # the card's rule: no figure of a load that does not run there, nor a change against one
            row[label], raw[key], raw[f"{key}_note"] = DOES_NOT_FIT, None, r[f"{key}_note"]
            row[f"{label}, change"], raw[f"{key}_change_pct"] = fmt.DASH, None
            continue
        if key.endswith("latency_ms") and (unbounded or base_unbounded):
            # the card's rule: past saturation or throttled no latency holds, nor a change against one (the table
            # said "VM latency 21.0 ms, 40x" under a card saying none; browser review 2026-11-30)
            row[label] = unbounded["cell"] if unbounded else f(r.get(key))
            raw[key] = None if unbounded or r.get(key) is None else round(r[key], 4)
            if unbounded:
                raw[f"{key}_note"] = unbounded["note"]
            row[f"{label}, change"], raw[f"{key}_change_pct"] = fmt.DASH, None
            continue
        row[label] = f(r.get(key))
        raw[key] = None if r.get(key) is None else round(r[key], 4)
        if r.get(key) is None and (absent := r.get(f"{key}_note")):
            # a class the workload does not issue: "none" and why, as the Performance page says (a bare dash said
            # nothing; stop 55 walk)
            row[label], raw[f"{key}_note"] = "none", absent
            absent_notes.add(absent)
        ratio = r[key] / base[key] if name != "current" and base.get(key) and r.get(key) is not None else None
        row[f"{label}, change"] = fmt.DASH if ratio is None else fmt.change(ratio)
        raw[f"{key}_change_pct"] = None if ratio is None else round((ratio - 1) * 100, 2)
    row["Bottleneck"] = raw["bottleneck"] = bottleneck_label(r)
    why = uncalibrated(r)
    row["Calibrated"] = "yes" if not why else "no"
    raw["calibrated"] = not why
    raw["calibration_note"] = " ".join(why)
    wc = wholes[name]
    # one row holds a proposal's whole cost and the system today's running cost (its purchase is sunk):
    # each figure says which it is (stop 35's note: the column mixed them without a word)
    owned = " running (owned)" if name == "today" and wc else ""
    row["Whole cost, USD/month"] = fmt.usd(wc["monthly"]["total_usd_per_month"] if wc else None) + owned
    raw["usd_per_month"] = round(wc["monthly"]["total_usd_per_month"], 2) if wc else None
    raw["usd_per_month_note"] = unpriced.get(name, "")
    raw["owned"] = name == "today"
    for y in TCO_YEARS:
        t = next((t for t in wc["tco"] if t["years"] == y), None) if wc else None
        caveats = tco_said[name].get(y, []) if t else []
        row[f"TCO {y} years"] = (
            fmt.usd(t["total_usd"] if t else None)
            + (owned if t else "")
            + (f" ({'; '.join(caveats)})" if caveats else "")
        )
        raw[f"tco_{y}_years_usd"] = round(t["total_usd"], 2) if t else None
        raw[f"tco_{y}_years_caveats"] = "; ".join(caveats)
    # what each cost counts of licences: a Ceph column without Windows licences stood beside an S2D one with
    # Datacenter on every core, and the page said neither (Ceph operator walk 2026-11-30)
    raw["licences_counted"] = licences_counted(wc) if wc else None
    row["Licences counted"] = raw["licences_counted"] or fmt.DASH
    v = verdicts.get(name)
    # the card's verdict, with the parts missed and the rules failed (an owned system's purchase is no budget
    # question: failed_rules leaves it out); a bare "not met" stood beside "not met: IOPS, Capacity" of another
    # system (browser review 2026-11-30)
    short = demand_not_met(v, name) if v and "error" not in v and v["judged"] else None
    met = None if not (v and "error" not in v and v["judged"]) else short is None
    row["Demand"] = fmt.DASH if met is None else "met" if met else str(short)
    raw["demand_met"] = met
    if gaps := unjudged.get(name):
        # the same parts its column above says, not a dash
        missed = [g["label"] for g in gaps if not g["met"]]
        row["Demand"] = (
            "not met: " + ", ".join(missed) if missed else "met (" + ", ".join(g["label"] for g in gaps) + ")"
        )
        raw["demand_met"] = not missed
        raw["demand_judged_on"] = ", ".join(g["key"] for g in gaps)
    # whether a failure is modelled at all: the report's own words where it is not (SRE walk 2026-11-30)
    no_down = (r.get("model") or {}).get("degraded")
    # the figure where it is modelled (a bare "modelled" stood beside the SAN's reason; verification walk)
    deg = r.get("degraded") or {}
    # an erasure code Ceph recovers below min_size: "0 IOPS" alone read as for good, where the Performance page says
    # IO resumes once recovery rebuilds the lost chunks (Ceph walk 2026-12-03)
    resumes = (
        f" until recovery rebuilds the lost chunks ({'at least ' if deg.get('repair_time_is_lower_bound') else ''}"
        # from the loss: Ceph's wait before it marks the host's OSDs out, then the rebuild (the proposal's sum)
        f"{fmt.num(deg['repair_time_hours'] + (deg.get('repair_starts_after_hours') or 0.0), 1, 'h')} from the loss), "
        "then resumes"
        if deg.get("io_stops") and deg.get("io_resumes_after_recovery") and deg.get("repair_time_hours") is not None
        else ""
    )
    row["One node down"] = (
        no_down
        or (f"{fmt.iops(deg['iops'])} IOPS{resumes}" if deg.get("iops") is not None else None)
        or (state.plain(deg["note"]) if deg.get("note") else "modelled (the Performance page)")
    )
    raw["one_node_down_note"] = no_down or ""
    table.append(row)
    csv_rows.append(raw)
if not state.presenter():
    # the systems side by side, a figure per row: a few columns that fit the page, as a static table (the
    # data grid's 16 columns scrolled the costs out of sight, and its first drawing was the browser's
    # heaviest work on a page switch); the CSV keeps a row per system
    st.markdown(
        fmt.table([{"Figure": label} | {r["Scenario"]: r[label] for r in table} for label in list(table[0])[1:]])
    )
    if absent_notes:
        st.caption(f"None: {state.plain('; '.join(sorted(absent_notes)))}.")
    st.download_button("Comparison CSV", export.to_csv(csv_rows), file_name="comparison.csv", mime="text/csv")
if source.startswith("from") and demand is not None:
    # which demand the row judges: one database's 130,208 IOPS stood beside "not met: IOPS ... 2,810,969 IOPS the
    # demand needs", the 72-database estate sized on the Size page (DBA walk 2026-11-30)
    need_iops, _, _ = demand.totals()
    st.caption(
        f"The Demand row judges each system against the demand sized on the Size page "
        f"({count(math.ceil(demand.database_count() - 1e-9), 'database')}, {fmt.iops(need_iops)} IOPS at once), "
        "not against the one database described above."
    )

names = [shown_name(n) for n, _ in reports]
# the same figures as the metrics and the table above, as bars: drawn only while their section is open
# (closed, it holds nothing; opening it reruns the page with it). Two plotly charts cost the Compare
# page about 95 ms on every what-if and page switch in chromium (median 294 -> 198 ms, 352 -> 259 ms;
# review 2026-11-29)
bars = st.expander("IOPS and usable capacity as bars", key="cmp_bars", on_change="rerun")
if bars.open:
    c1, c2 = bars.columns(2)
    c1.plotly_chart(
        charts.compare_bars(
            names,
            [r["iops"] or 0 for _, r in reports],
            "IOPS",
            "IOPS",
            low=[r.get("iops_low") or r["iops"] or 0 for _, r in reports],
            high=[r.get("iops_high") or r["iops"] or 0 for _, r in reports],
            text=[fmt.iops(r["iops"]) for _, r in reports],
        ),
        width="stretch",
        key="cmp_iops",
    )
    c2.plotly_chart(
        charts.compare_bars(
            names,
            [r["usable_capacity_tb"] for _, r in reports],
            "Usable capacity",
            "TB",
            text=[fmt.tb(r["usable_capacity_tb"]) for _, r in reports],
        ),
        width="stretch",
        key="cmp_cap",
    )

for name, r in reports:
    if r.get("scaling"):
        st.header(f"{fmt.md(shown_name(name))}: more database servers on the same file servers")
        st.plotly_chart(
            charts.compare_bars(
                [count(s["db_servers"], "server") for s in r["scaling"]],
                [s["iops"] for s in r["scaling"]],
                "IOPS by database servers",
                "IOPS",
                text=[fmt.iops(s["iops"]) for s in r["scaling"]],
            ),
            width="stretch",
            key=f"cmp_scaling_{name}",
        )
        st.caption(
            " · ".join(
                f"{s['db_servers']}: {bottleneck_label({**r, 'bottleneck': s['bottleneck']})}" for s in r["scaling"]
            )
        )
if any("model" in r for _, r in reports) and not state.presenter():
    # closed, it holds nothing (opening it reruns the page with it): a what-if does not redraw its tables
    stations = st.expander("How each architecture is modelled (stations)", key="cmp_stations", on_change="rerun")
    if stations.open:
        with stations:
            for name, r in reports:
                if "model" not in r:
                    continue
                st.markdown(f"**{state.plain(shown_name(name))}** ({TOPOLOGY_LABELS[r['topology']]})")
                st.dataframe(
                    [
                        {"Station": s["label"], "What": s["what"], "What raises it": s["raises"]}
                        for s in r["model"]["stations"]
                    ],
                    hide_index=True,
                    width="stretch",
                )
                for note in r.get("notes", []):
                    st.caption(state.plain(customer_words(note)))  # parts by name, not "hp-p2000-g3-fc"

st.header("Which input matters most (current design)")
# priced as every cost: the whole cost, with the session's demand (its platform, its SQL Server VMs)
rows = state.tornado(dj, state.workload_json(), costs.assumptions_json(), costs.demand_json())
# one chart at a time, the page's full width: in a third of a 1024 px window the inputs' names were cut
# only the open tab's chart is built (a tab switch reruns the page): two charts fewer on every what-if
t1, t2, t3 = st.tabs(["IOPS", "VM latency", "Cost"], key="cmp_tornado", on_change="rerun")
for tab, key, (metric, unit) in (
    (t1, "tor_iops", charts.iops_tornado_metric(rows)),
    (t2, "tor_lat", ("vm_latency_ms", "VM latency, ms")),
    (t3, "tor_cost", ("whole_usd_per_month", "whole cost, USD/month")),
):
    if tab.open:
        tab.plotly_chart(charts.tornado(rows, metric, unit), width="stretch", key=key)
        base = rows[0][f"base_{metric}"] if rows else None
        chrome.chart_table(
            tab,
            key,
            charts.tornado_table(rows, metric, unit),
            note=f"The current design's {unit}: "
            + (fmt.bare(fmt.ms(base)) if metric.endswith("_ms") else fmt.num(base, 0))
            + f". {fmt.DASH}: the setting is not a valid design.",
        )
st.caption(
    "Each bar changes one input (the other inputs stay) and shows the change against the current "
    "design; a setting that is not a valid design has no bar, and one that changes nothing a bar of zero width "
    "(its row still named)."
)
