"""SLA & tiers page: guaranteed IOPS for one database at its latency target
next to the other tenants, how many DBs of each tier fit, and what each tier
costs per month under editable assumptions (planner.commercial.sla, planner.commercial.tiers,
planner.commercial.pricing)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Literal, get_args

import streamlit as st
from pydantic import ValidationError

from hciplan_ui import chrome, database_inputs, export, fmt, inputs, sizing_rows, state
from hciplan_ui import costs as cost_state
from hciplan_ui.database_inputs import SLA_DBA_MODE, SLA_IO_MODE, SLA_PREFIX, basics
from planner.commercial.licensing import LICENCE_PRICE_FIELDS, OPTION_NAMES, licence_words
from planner.commercial.pricing import COST_DEFAULT_SOURCES, CostAssumptions, echo_hidden
from planner.commercial.sla import BOUND_LABELS, CAPACITY_CLAUSE, demand_fills_note
from planner.commercial.tco import tier_cost_base, tier_revenue
from planner.commercial.tiers import limit_words, mix_words
from planner.core import jsonio
from planner.core.errors import PlannerError, format_validation_error
from planner.core.text import count, first_upper, sentence
from planner.engine.architectures import TOPOLOGY_LABELS
from planner.engine.loads import demand_others_as_workload, is_demand_database
from planner.engine.performance import LATENCY_NAMES
from planner.models.database import Database
from planner.models.demand import Demand
from planner.models.design import Design, parse_design
from planner.models.stacks import STACK_LABELS
from planner.models.tiers import TierSet, mix_list
from planner.physics.capacity import one_node_down_words
from planner.results.uncertainty import UNBOUNDED_AT_BAND_LOW_NOTE, band_short_of
from planner.sizing.document import latency_band_sentence
from planner.sizing.names import example_words, system_words
from planner.sizing.words import band_note_words

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SLA_LABELS = BOUND_LABELS  # the library's words for each bound (its notes use them too)


@st.cache_data(show_spinner=False, max_entries=64)
def _guarantee(
    design_json: str, db_json: str, background_json: str | None, n_plus_one: bool, calibration_json: str | None
) -> dict:
    from planner.commercial.sla import guarantee, guarantee_model
    from planner.models.design import parse_design
    from planner.models.workload import parse_workload

    # any architecture, as `sla` takes it (the customer's system today; browser walk 2026-12-01)
    rd = guarantee_model(parse_design(design_json))
    bg = parse_workload(background_json) if background_json else None
    params, boot = state.calibration_params(calibration_json)
    return guarantee(
        rd, Database.model_validate_json(db_json), bg, n_plus_one=n_plus_one, params=params, bootstrap=boot
    ).model_dump(mode="json")


@st.cache_data(show_spinner=False, max_entries=64)
def _db_guarantee(
    design_json: str,
    database_json: str,
    background_json: str | None,
    n_plus_one: bool,
    peak: bool,
    calibration_json: str | None,
) -> dict:
    from planner.commercial.sla import database_guarantee, guarantee_model
    from planner.models.design import parse_design
    from planner.models.workload import parse_workload

    rd = guarantee_model(parse_design(design_json))
    bg = parse_workload(background_json) if background_json else None
    params, boot = state.calibration_params(calibration_json)
    return database_guarantee(
        rd,
        Database.model_validate_json(database_json),
        background=bg,
        n_plus_one=n_plus_one,
        peak=peak,
        params=params,
        bootstrap=boot,
    )


@st.cache_data(show_spinner=False, max_entries=64)
def _extrapolation(design_json: str, db_json: str, peak: bool) -> list[dict]:
    """The calibrated domain's flags of the guarantee (planner.commercial.sla.guarantee_extrapolation)."""
    from planner.commercial.sla import guarantee_extrapolation
    from planner.models.catalog import load_catalog
    from planner.models.design import parse_design

    return guarantee_extrapolation(
        parse_design(design_json), Database.model_validate_json(db_json), peak=peak, catalog=load_catalog()
    )


@st.cache_data(show_spinner=False, max_entries=32)
def _by_vm_size(
    design_json: str, db_json: str, background_json: str | None, n_plus_one: bool, calibration_json: str | None
) -> dict:
    from planner.commercial.sla import guarantee_by_vm_size, guarantee_model
    from planner.models.design import parse_design
    from planner.models.workload import parse_workload

    rd = guarantee_model(parse_design(design_json))
    bg = parse_workload(background_json) if background_json else None
    params, _ = state.calibration_params(calibration_json)
    return guarantee_by_vm_size(rd, Database.model_validate_json(db_json), bg, n_plus_one=n_plus_one, params=params)


@st.cache_data(show_spinner=False, max_entries=16)
def _capacity(design_json: str, db_json: str, calibration_json: str | None) -> dict:
    from planner.commercial.database import database_capacity
    from planner.models.design import parse_design

    params, _ = state.calibration_params(calibration_json)
    return database_capacity(parse_design(design_json), Database.model_validate_json(db_json), params=params)


@st.cache_data(show_spinner=False, max_entries=64)
def _tiers(
    design_json: str,
    costs_json: str,
    n_plus_one: bool,
    tiers_json: str,
    calibration_json: str | None,
    demand_json: str | None = None,
) -> dict:
    """Tier prices with the licences of the session's platform (a sized Azure Local demand
    adds the host fee, as the sizer and the proposal do)."""
    from planner.commercial.licensing import for_platform
    from planner.commercial.pricing import tier_prices
    from planner.models.catalog import load_catalog
    from planner.models.demand import Demand
    from planner.models.design import parse_design, resolve

    rd = resolve(parse_design(design_json), load_catalog())
    demand = Demand.model_validate_json(demand_json) if demand_json else None
    return tier_prices(
        rd,
        TierSet.model_validate_json(tiers_json),
        for_platform(CostAssumptions.model_validate_json(costs_json), demand),
        n_plus_one=n_plus_one,
        params=state.calibration_params(calibration_json)[0],
    )


@st.cache_data(show_spinner=False, max_entries=64)
def _mix(design_json: str, counts_json: str, n_plus_one: bool, tiers_json: str, calibration_json: str | None) -> dict:
    from planner.commercial.tiers import fit_mix
    from planner.models.catalog import load_catalog
    from planner.models.design import parse_design, resolve

    rd = resolve(parse_design(design_json), load_catalog())
    return fit_mix(
        rd,
        TierSet.model_validate_json(tiers_json),
        json.loads(counts_json),
        n_plus_one,
        state.calibration_params(calibration_json)[0],
    )


def today_words(today: Design) -> str:
    """The customer's system today as the choice of where to guarantee names it: its name and what it is."""
    d = today.model_dump(mode="json")
    kind = TOPOLOGY_LABELS.get(today.topology, today.topology)
    # a bundled example's name is its file name ("seed-dataon-sofs-4db"), which the Compare page and the proposal
    # never show a customer; a name the user's own file gives is theirs and stays (browser walk, stop 61)
    named = "" if today.name in example_words() else f"{fmt.md(today.name)}: "
    return f"the customer's system today ({named}{fmt.md(kind)}, {fmt.md(system_words(d))})"


def tenant_nodes(chosen_json: str) -> int:
    """The servers the sized demand's databases run on on the chosen system
    (:attr:`planner.models.design.Design.database_servers`), as the Compare page rehosts them
    (:func:`planner.engine.loads.load_on`)."""
    from planner.models.design import Design

    return Design.model_validate_json(chosen_json).database_servers


def without_n1_clause(note: str | None, topology: str) -> str | None:
    """A guarantee's note without the library's clause that N+1 is not applied
    (:func:`planner.commercial.sla.n1_not_applied_note`; the page says it in words)."""
    from planner.commercial.sla import n1_not_applied_note

    if not note:
        return note
    # the clause holds "; " itself ("...topology 'split'; not applied"): taken out whole, a bare "Not applied." was
    # left under the figures (verification walk 2026-12-01)
    kept = re.sub(r"(^|; )" + re.escape(n1_not_applied_note(topology)), "", note)
    return kept.removeprefix("; ") or None


#: the tier editor's columns, without bounds: a grid's bound clamps what is typed without a word (-1 TB became 0.001,
#: a read share of 70 became 1; pricing-call walk, stop 63); the tier model refuses it by row and column instead
TIER_COLUMNS = {
    "name": st.column_config.TextColumn("Tier", required=True),
    "guaranteed_iops": st.column_config.NumberColumn("Guaranteed IOPS", required=True, format="localized"),
    "burst_iops": st.column_config.NumberColumn("Burst IOPS", required=True, format="localized"),
    "latency_target_ms": st.column_config.NumberColumn("Latency target, ms", format="%.3f", required=True),
    "latency_statistic": st.column_config.SelectboxColumn("Statistic", options=["mean", "p90", "p99"], required=True),
    "capacity_tb_per_db": st.column_config.NumberColumn("Size, TB", required=True),
    "block_size_kib": st.column_config.NumberColumn("Block, KiB", required=True),
    "read_fraction": st.column_config.NumberColumn("Read share", required=True),
    "vcpus_per_db": st.column_config.NumberColumn("vCPUs", step=1, required=True),
    "ram_gb_per_db": st.column_config.NumberColumn("RAM, GB", required=True),
}


def _tier_cell(field: str, v: Any) -> str:
    """A tier's figure as the static table shows it, as the editor does: the latency target with 3
    decimals, whole numbers with separators, other figures as they are (0.5 TB, 0.7 reads)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return str(v)
    if field == "latency_target_ms":
        return fmt.num(v, 3)
    return fmt.typed(v)


def _tier_editor() -> None:
    """The tier set, editable: a valid edit becomes the scenario's tiers (shared
    in the link, used by pricing here and by the Size page); an invalid one is
    reported naming the tier and field, and the last valid set stays in use."""
    import hashlib

    import pandas as pd

    # the tiers in use, as a static table, until the user asks to edit them: the editing grid's first
    # drawing was 0.3 s of the page's 1.0-1.4 s in the browser on every visit; the reset and the files
    # go with the editor
    if not st.toggle("Edit the tiers", key="tier_editing", help="change, add or remove tiers; reset; tiers JSON"):
        # through the model: a link's or a saved scenario's tiers may leave out a field that has a default
        shown = TierSet.model_validate_json(state.tiers_json()).model_dump(mode="json")["tiers"]
        st.markdown(fmt.table([{v["label"]: _tier_cell(k, t[k]) for k, v in TIER_COLUMNS.items()} for t in shown]))
        # the next editor starts from the tiers in use (an editor's own edits went with it when it closed)
        st.session_state["tier_editor_base"] = state.tiers_json()
        return
    base = st.session_state.setdefault("tier_editor_base", state.tiers_json())
    df = pd.DataFrame(TierSet.model_validate_json(base).model_dump(mode="json")["tiers"])[list(TIER_COLUMNS)]
    key = f"tier_editor_{hashlib.sha1(base.encode()).hexdigest()[:10]}_{st.session_state.get('tier_editor_gen', 0)}"
    # in a form: the page (prices, the tier mix) reruns once per set of edits, when applied, not on every cell
    with st.form("tier_form", border=False):
        edited = st.data_editor(
            df, key=key, num_rows="dynamic", hide_index=True, column_config=TIER_COLUMNS, width="stretch"
        )
        st.form_submit_button("Apply the tiers", help="the prices below and the Size page use the tiers once applied")
    records = [
        {k: (None if pd.isna(v) else (int(v) if k == "vcpus_per_db" else v)) for k, v in row.items()}
        for row in edited.to_dict("records")
    ]
    try:
        new = TierSet.model_validate({"tiers": records})
    except ValidationError as exc:
        # the reset, download and upload below stay: they are the way out of a bad edit
        st.error(
            "Tiers not applied, the last valid ones stay in use. "
            + fmt.md(fmt.row_errors(exc, records, "tiers", {k: v["label"] for k, v in TIER_COLUMNS.items()}))
        )
        new = None
    if new is not None:
        new_json = state.canonical(new.model_dump(mode="json"))
        if new_json != state.tiers_json():
            state.set_tiers(new_json, reseed_editor=False)
    c = st.columns(3)
    if c[0].button("Reset to the shipped tiers", key="tiers_reset"):
        state.set_tiers(None)
        st.rerun()
    in_use = json.loads(state.tiers_json()) if new is None else new.model_dump(mode="json")
    c[1].download_button(
        "Tiers JSON" if new is not None else "Tiers JSON (the last valid)",
        json.dumps(in_use, indent=1),
        file_name="tiers.json",
        mime="application/json",
    )
    up = inputs.file_box(c[2], "Load tiers", "tiers_upload", 1, "JSON", ["json"])
    if up is not None:
        refused = f"{up.name} not loaded, the tiers in use stay. "

        def said(exc: ValidationError, data: dict) -> str:
            # each error by its row and column, as the editor says them: the file's read
            # "tiers.tiers.0.guaranteed_iops: ..." (UI review 2026-11-29)
            rows = data.get("tiers")
            records = [r if isinstance(r, dict) else {} for r in rows] if isinstance(rows, list) else []
            labels = {k: v["label"] for k, v in TIER_COLUMNS.items()}
            return refused + fmt.row_errors(exc, records, "tiers", labels)

        try:  # the same safe reader as every file (size, depth, finite numbers), errors naming row and column
            t = jsonio.parse_json_model(
                up.getvalue(), TierSet, PlannerError, "tiers file", prefix="tiers", describe=said
            )
        except PlannerError as exc:
            # every refusal says the file was not taken: a number written as a string, or a file that is no JSON,
            # read only the reason (hostile-input walk)
            st.error(fmt.md(str(exc) if str(exc).startswith(refused) else refused + first_upper(str(exc))))
        else:
            tj = state.canonical(t.model_dump(mode="json"))
            if tj != state.tiers_json():
                state.set_tiers(tj)
                # said once, on the run after it (as the Design page says a design file it took)
                st.session_state["_tiers_taken"] = (
                    f"Loaded {up.name}: {count(len(t.tiers), 'tier')} ({', '.join(x.name for x in t.tiers)}). "
                    "The prices below and the Size page use them."
                )
                st.rerun()
    if taken := st.session_state.pop("_tiers_taken", None):
        st.success(fmt.md(taken), icon=":material/check_circle:")


chrome.header("SLA & tiers")
# taken at once: a run that stops early (a value out of range) does not carry it to a later visit
to_tiers = st.session_state.pop(chrome.TO_TIERS, False)
# the demand's own load (the "current workload" tenants) follows the design's node count
if moved := cost_state.follow_demand(state.design_json()):
    st.caption(fmt.md(moved))
dj = state.design_json()
# selects, radios, toggles and sliders keep their values across page visits; their defaults are
# seeded in the state, not passed to the widget, so a kept value never clashes with one
inputs.keep("sla_n1", "sla_by", "sla_stat", "sla_bs", "cost_lic_opt", "sla_bg", "sla_rf")
st.session_state.setdefault("sla_bg", state.OTHER_TENANTS[2])
st.session_state.setdefault("sla_rf", 1.0)
n1 = st.toggle("Plan for N+1 (one node down)", key="sla_n1")
# held in place whether said or not: a note appearing above the page moved every element after it (the what-if
# test's rule)
n1_slot = st.empty()
# the sized demand, read once for the page's notes (the N+1 note here, the tier mix's below)
sized_demand = Demand.model_validate_json(sj) if (sj := cost_state.demand_json()) else None
if sized_demand is not None and sized_demand.n_plus_one != n1:
    # the proposal prices with the failures the demand plans for: the Performance page's document priced 470
    # databases a tier beside "A server can fail: met" where 368 fit with one node down (pricing review 2026-11-30)
    n1_slot.caption(
        "The proposal prices the tiers as the sized demand plans: "
        + ("with one node down." if not n1 else "with every node up (its demand does not plan for a failure).")
    )

st.header("Guarantee for one database")
# the customer's system today (the Design page's "Compare it as the customer's system today", or the Compare page's
# choice) is guaranteed on as `sla` guarantees on it: the page guaranteed the design here alone, whatever system was
# loaded, and the Compare page's hand-off led to the reference design's figure (browser walk 2026-12-01)
existing = state.existing_json()
on_today = False
# the design here as the sidebar heads it, by its parts: its generated name ("5x dell-ax-660 2xintel-...") read as a
# file name beside the system today's words (browser walk 2026-12-02)
here_words = fmt.md(sizing_rows.design_label(json.loads(dj)))
today = None
if existing:
    today = parse_design(existing)
    inputs.keep("sla_on")
    st.session_state.setdefault("sla_on", "here")
    systems = {"here": f"the design here ({here_words})", "today": today_words(today)}
    on_today = (
        st.radio("Guarantee on", list(systems), format_func=systems.__getitem__, key="sla_on", horizontal=True)
        == "today"
    )
#: the design the guarantee and its sections are on: the design here, or the customer's system today
gj = existing if on_today and existing else dj
# the stack the guarantee's band is named in (a Ceph node's "DB/WAL devices", not "cache devices")
g_stack = json.loads(gj).get("stack")
# named as the Design and Performance pages name it, with a Ceph design's release: the page guaranteed a Ceph design
# with no word of the release its figures model (DBA walk 2026-12-03)
# the system today by what it is (today_words: a seed's parts are not all catalog ids, which design_label reads)
on_words = today_words(today) if on_today and today else f"the design **{here_words}**"
st.caption(f"Guaranteed on {on_words}{sizing_rows.release_said(json.loads(gj))}")
# "the cluster" of the customer's single server read wrong (walk 2026-12-02)
bg_choice = st.radio(
    "Other tenants on the server"
    if on_today and today and today.topology == "single-server"
    else "Other tenants on the cluster",
    state.OTHER_TENANTS,
    horizontal=True,
    key="sla_bg",
)
# the page's default since its first version (0ea6344, no reason recorded) differs from the command line's: said, so
# that the page's guarantee and `sla`'s are not read as one figure that disagrees (stop 55 DBA walk). Kept: a first
# guarantee read off an otherwise empty cluster promises more than a shared one gives
st.caption(
    "This page starts with 25 VMs a node at 1,000 IOPS each as the other tenants (examples/background-25vms.json), "
    "so that a first guarantee is not read off an otherwise empty cluster; `hciplan sla` starts with no other "
    "tenants (give them with --background): choose none for its figure. After Use this design the tenants are the "
    "sized demand's load."
)
background = {
    "none": None,
    "current workload": state.workload_json(),
    "25 VMs/node at 1,000 IOPS each": (EXAMPLES / "background-25vms.json").read_text(),
}[bg_choice]
if on_today and background is not None and bg_choice == "current workload":
    # the tenants the Compare page runs the system today's column under: the sized demand's databases on the
    # system's own database servers, any other load as it is
    background = state.demand_load_on(background, gj, cost_state.demand_json())
by = st.radio("Describe the database by", [SLA_IO_MODE, SLA_DBA_MODE], horizontal=True, key="sla_by")
dba = by == SLA_DBA_MODE
# held in place whether said or not (the what-if test's rule): a database guaranteed beside the sized demand's own
# load, which holds its databases already, is counted twice ("needs 14,905: not met" beside the Size page's "every
# part of the demand is met"; verification walk 2026-11-30)
twice_slot = st.empty()
B = inputs.model_bounds
dba_errors: list[tuple[Any, str | None]] = []
#: the other tenants are the sized demand's load without this database (it is one of them)
beside_own = False
if dba:
    st.caption(fmt.md(database_inputs.SLA_ENGINE_CAPTION))
    basic, dba_errors = basics(SLA_PREFIX)
    # the CLI's hit-ratio override, which this page lacked (DBA review 2026-11-30); 0 keeps the model's (or the
    # Compare page's, carried)
    hit_col = st.columns(4)
    hit, hit_error = database_inputs.hit_ratio(SLA_PREFIX, hit_col[0])
    hit_col[1].caption(fmt.md(database_inputs.TPROC_C_WORDS))
    dba_errors.append((hit_col[0], hit_error))
    if hit is not None:
        basic["buffer_hit_ratio"] = hit
    for col, e in dba_errors:
        inputs.show(col, e)
    if (
        bg_choice == "current workload"
        and state.workload_name() == state.SIZED
        and sized_demand is not None
        and is_demand_database(sized_demand, basic)
        and (others := demand_others_as_workload(sized_demand, hosts := tenant_nodes(gj))) is not None
    ):
        # the sized demand's load holds this database already: beside it, it was counted twice (account-manager
        # walk 2026-11-30: 20,977 IOPS guaranteed beside all 208 databases, this one among them)
        background, beside_own = state.canonical(others.model_dump(mode="json")), True
        # where they run, so the node bound below (a server's share of them) is not read against all of them (stop 57
        # left the caption naming every database beside a bound that counts one server's share)
        where = (
            "all on its one server"
            if hosts == 1
            else f"spread over the {hosts} servers they run on (the node bound counts one server's share)"
        )
        twice_slot.caption(
            f"The other tenants are the sized demand's other {count(others.vms_total or 0, 'database')}, {where}: "
            "this database is one of its own, counted once."
        )
    # seeded, not value=: the Compare page's hand-off sets it, and a widget default beside a session value
    # makes Streamlit print a warning on the page (DBA review)
    st.session_state.setdefault(f"{SLA_PREFIX}peak", True)
    peak = st.toggle(
        "Needs its peak (checkpoint bursts), not only its mean",
        key=f"{SLA_PREFIX}peak",
        help="SQL Server 2014's automatic checkpoints write in bursts above the mean; indirect checkpoints (SQL Server "
        "2016 and later) write steadily, so peak and mean agree. SQL Server 2019 is assumed unless the Compare page's "
        "description names another version",
    )
    carried = state.sla_database()
    if carried:
        a = st.columns([4, 1])
        # the Size page's Use this design carries its database here too: "as set on the Compare / what-if page"
        # named a page the DBA never opened (DBA walk 2026-12-03)
        a[0].caption(
            "Reads per transaction, log and checkpoint writes and the sizes SQL Server uses: as the database brought "
            "here from the Size or Compare page sets them (the Compare / what-if page shows and changes them)."
        )
        if a[1].button("Use the default assumptions", key="sla_dbio_reset"):
            state.set_sla_database(None)
            carried = None
            st.rerun()
    else:
        st.caption(
            "Reads per transaction, log and checkpoint writes and the sizes SQL Server uses come from stated "
            "assumptions (each with its source and an override on the Compare / what-if page, or in a "
            "database file)."
        )
# five boxes and the statistic's select box in a row: at 1,280 px each column left a number box 33 px for its value,
# and a value was cut; the statistic starts the second row (with the block size and read share) unless the DBA's
# size above leaves the first row four boxes
c: list[Any] = list(st.columns(5))
c2 = c if dba else st.columns(3)
if dba:
    c = [None, *c]  # no size field: the DBA's size above
    size_tb, e1 = 1.0, None
else:
    size_tb, e1 = inputs.number(c[0], "Size, TB", "sla_size", B(Database, "size_tb"), unit="TB", default=4.0)
vcpus, e2 = inputs.number(c[1], "vCPUs", "sla_vcpus", B(Database, "vcpus"), integer=True, step=1, default=16)
threads, e3 = inputs.number(c[2], "IO threads", "sla_threads", B(Database, "threads"), integer=True, step=1, default=4)
qd, e4 = inputs.number(
    c[3], "Outstanding per thread", "sla_qd", B(Database, "outstanding_per_thread"), integer=True, step=1, default=16
)
target, e5 = inputs.number(
    c[4], "Latency target, ms", "sla_target", B(Database, "latency_target_ms"), unit="ms", format="%.3f", default=1.0
)
for col, e in zip(c, (e1, e2, e3, e4, e5)):
    if col is not None:
        inputs.show(col, e)
stat = c2[-1 if dba else 0].selectbox("Statistic", ["mean", "p90", "p99"], key="sla_stat")
if not dba:
    bs = c2[1].selectbox("Block size, KiB", [4, 8, 16, 32, 64], index=0, key="sla_bs")
    rf = c2[2].slider("Read share", 0.0, 1.0, step=0.05, key="sla_rf")
# one container for the guarantee, whatever it holds (an error, or the figures with or without their
# notes): the sections below keep their places in the page, and a what-if updates them in the browser
# instead of building them anew (a latency target that added two notes moved the tier editor's grid)
#: the system the guarantee is on, as its sections name it
system = "customer's system today" if on_today else "design"
most_words = "The most the customer's system today sustains" if on_today else "The most this design sustains"
# N+1 asked of an architecture with no one-node-down model (split provisioning, a single server, a Scale-Out File
# Server, a SAN): the library notes it and guarantees with every server up; said here in words, not as its
# "n_plus_one: ..." clause (browser walk 2026-12-01)
n1_not_applied = bool(n1 and on_today and today is not None and not today.cluster_engine)
n1_today_slot = st.empty()  # held in place whether said or not (the what-if test's rule)
if n1_not_applied and today is not None:
    n1_today_slot.caption(
        "N+1 is noted, not applied, on the customer's system today: hciplan has no one-node-down model of its "
        f"architecture ({TOPOLOGY_LABELS.get(today.topology, today.topology)}), so its guarantee is with every server "
        "up."
    )
with st.container():
    # a slot for the note that the sized demand fills the design, drawn or left empty: a warning that appeared
    # above the figures moved every element after it (tests/test_ui_polish.py)
    fills_slot = st.empty()
    if not any((e1, e2, e3, e4, e5)) and not any(e for _, e in dba_errors):
        need = None
        try:
            if dba:
                base = json.loads(carried) if carried else {"name": "database"}  # the Compare page's assumptions
                sizing = {
                    "vcpus": int(vcpus),
                    "threads": int(threads),
                    "outstanding_per_thread": int(qd),
                    "latency_target_ms": target,
                    "latency_statistic": stat,
                }
                dbio = Database.model_validate(base | basic | sizing)
                res = _db_guarantee(gj, dbio.model_dump_json(), background, n1, peak, state.session_calibration())
                g, need = res["guarantee"], res
            else:
                db = Database(
                    name="db",
                    size_tb=size_tb,
                    vcpus=int(vcpus),
                    threads=int(threads),
                    outstanding_per_thread=int(qd),
                    block_size_kib=bs,
                    read_fraction=rf,
                    latency_target_ms=target,
                    latency_statistic=stat,
                )
                g = _guarantee(gj, db.model_dump_json(), background, n1, state.session_calibration())
        except ValidationError as exc:
            st.error(fmt.md(format_validation_error(exc)))
        except PlannerError as exc:
            st.error(fmt.md(exc))
        else:
            if (
                bg_choice == "current workload"
                and not beside_own
                and state.workload_name() == state.SIZED
                and sized_demand is not None
                and (full := demand_fills_note(g, sized_demand))
            ):
                # up front, not as a note under a headline of 0 (what-if call 2026-11-30)
                fills_slot.warning(fmt.md(sentence(full)), icon=":material/database:")
            if need is not None:
                dem = need["demand"]
                # the shape the guarantee is judged at: the peak's when the peak is needed (the caption said "mean IO
                # shape" beside bounds at the peak's 22 % reads; DBA walk 2026-11-30)
                at, rf, bs = (
                    ("peak", dem["peak_read_fraction"], dem["peak_block_size_kib"])
                    if peak
                    else ("mean", dem["read_fraction"], dem["block_size_kib"])
                )
                st.caption(
                    f"This database asks for **{fmt.iops(dem['iops'])} IOPS mean, {fmt.iops(dem['peak_iops'])} "
                    f"peak** ({fmt.num(dem['transactions_per_s'], 0)} transactions/s, buffer-pool hit "
                    f"{fmt.used(dem['buffer_hit_ratio'])}, its log flushed at {fmt.ms(dem['log_write_latency_ms'])}: "
                    # the flush latency the log writes are taken at: `db-io` and the Compare page's inputs assume 1
                    # ms where this page's figure is the design's prediction (DBA walk 2026-12-03)
                    f"{fmt.md(dem['log_write_latency_note'])}); guaranteed below as one VM of that size at the IO mix "
                    f"of its {at}: {fmt.pct(rf)} reads, {fmt.num(bs, 1)} KiB mean size."
                    # the peak toggle changes nothing then: say why (browser review 2026-11-28)
                    + (
                        " Its peak is its mean: indirect checkpoints (SQL Server 2016 and later) write dirty pages "
                        "steadily, with no bursts."
                        if dem["peak_iops"] <= dem["iops"] * (1 + 1e-9)
                        else ""
                    )
                )
            if need is not None:
                # the model's central assumption, which only the CLI said (DBA review 2026-11-30)
                st.caption(fmt.md(database_inputs.reads_words(need["demand"]["buffer_hit_note"])))
            if need is not None and need["demand"].get("buffer_hit_warning"):
                st.warning(
                    fmt.md(first_upper(database_inputs.page_words(need["demand"]["buffer_hit_warning"])) + "."),
                    icon=":material/memory:",
                )
            # outside the calibrated domain, said as the Performance and Size pages say it of the same design (the
            # guarantee had no word of it; migration walk 2026-11-30)
            shown_db = dbio if need is not None else db
            flags = _extrapolation(gj, shown_db.model_dump_json(), need is not None and need["needed"] == "peak")
            if outside := fmt.extrapolation_note(
                {"extrapolation": flags}, lead="This guarantee is outside the calibrated domain"
            ):
                # what the band under the guarantee is, said after the flags, so the two read as one (verification
                # walk); the library's band_note says how it is widened outside the domain (honesty audit 2026-12-01)
                band_is = (
                    band_note_words(g["band_note"], g_stack)
                    if g.get("guaranteed_iops_low") is not None and g.get("band_note")
                    else None
                )
                st.warning(
                    outside + (f" The band under the guarantee is {fmt.md(band_is)}." if band_is else ""),
                    icon=":material/explore:",
                )
            m = st.columns(4 if need is None else 5)
            # the band under a guarantee: its unit, and what its low end means for a promise (UI review
            # 2026-11-29: "88,533 / band 87,453–106,056" read as a guarantee that may not hold)
            m[0].metric(
                "Guaranteed IOPS per DB",
                fmt.iops(g["guaranteed_iops"]),
                # what the band is, the library's words (honesty audit 2026-12-01: the help said the refits' spread,
                # which is not how far a cluster the model has not seen may fall; the band is now that, too)
                help="the model's figure at the latency target. The band under it is "
                + (band_note_words(g["band_note"], g_stack) if g.get("band_note") else "not known")
                + ". To promise with margin, promise its low end or less",
            )
            if band_line := fmt.band_text(g["guaranteed_iops_low"], g["guaranteed_iops_high"]):
                m[0].caption(f"{band_line} IOPS")
                if g.get("guaranteed_iops_low_note"):
                    # a band from 0 says why (regression walk 2026-12-01)
                    m[0].caption(fmt.md(sentence(g["guaranteed_iops_low_note"])))
            elif g.get("band_note") and g["guaranteed_iops"] > 0:
                m[0].caption(fmt.md(sentence(band_note_words(g["band_note"], g_stack))))
            if g.get("guarantee_note"):
                # 0 at the prediction, more within the band: said plainly, not as "0 / 0 / 0" (honesty audit)
                m[0].caption(fmt.md(sentence(g["guarantee_note"])))
            m[1].metric(
                # the VM's, as every label says which (DBA review 2026-11-30); upper case, as its neighbours
                f"VM latency at that load ({g['latency_statistic']})",
                fmt.ms(g["latency_ms"]),
                help=g.get("latency_note") or None,
            )
            # its band, as the Design and Size pages band theirs (account-manager walk 2026-11-30: 0.503 ms and "the
            # promise holds" here, "up to 1.009 ms" there)
            if lat_band := fmt.band_text(g.get("latency_ms_low"), g.get("latency_ms_high"), fmt.ms, g["latency_ms"]):
                m[1].caption(lat_band)
            if g.get("latency_ms_one_node_down") is not None:
                # with N+1 asked, the latency the promise holds at with one node down (CLI review 2026-11-30)
                # and why, where it is lower than with every node up (Ceph architect's walk 2026-12-01)
                why = g.get("latency_ms_one_node_down_note")
                m[1].caption(
                    f"{fmt.ms(g['latency_ms_one_node_down'])} with one node down" + (f": {fmt.md(why)}" if why else "")
                )
            chrome.word_metric(
                m[2], "Binding constraint", SLA_LABELS.get(g["binding_constraint"], fmt.label(g["binding_constraint"]))
            )
            m[3].metric("IOPS per GB", fmt.num(g["iops_per_gb"], 2))
            if need is not None:
                head = need["headroom_pct"]
                m[4].metric(
                    f"Needs ({need['needed']})",
                    fmt.iops(need["needed_iops"]),
                    delta=None
                    if head is None
                    # short enough for a fifth of a 1024 px page ("-74 % short: n..." was cut; the help says more)
                    else f"{head:+,.0f} %: "
                    + (("met" if need["meets"] else "rate not carried") if need["io_meets"] else "not met"),
                    delta_color="normal" if need["meets"] or not need["io_meets"] else "inverse",
                    help="Guaranteed IOPS over the IOPS the database needs (its peak, or its mean); met when the "
                    "database's own vCPUs and users also carry its rate.",
                )
                if (low := band_short_of(g, "guaranteed_iops", need["needed_iops"])) is not None:
                    # "met" at the prediction beside a band reaching below the need (browser review 2026-11-29:
                    # "band 9,988-126,752 IOPS" and "needs 14,905: met")
                    st.caption(
                        f":orange[Met at the prediction, not across its band: the band's low end, "
                        f"{fmt.iops(low)} IOPS, is under the {fmt.iops(need['needed_iops'])} IOPS needed.]"
                    )
                if not need["rate"]["carried"]:
                    r = need["rate"]
                    st.warning(
                        # what the resource that binds needs (the library's words): "it needs at least 13 vCPUs"
                        # beside 16 vCPUs its one virtual user held back (DBA walk 2026-11-30)
                        fmt.md(first_upper(r["note"]) + f"; at this rate it needs {r['needs']}."),
                        icon=":material/warning:",
                    )
                # what "met" asks against the most the design sustains below (one database per server, its vCPUs
                # its own): "not met" beside a maximum above the rate asked read as a contradiction
                asks = need["meets_note"].removesuffix(CAPACITY_CLAUSE)
                st.caption(
                    fmt.md(
                        sentence(
                            asks + f"'{most_words}' below gives the most the {system} sustains of this "
                            "database, at whatever latency that takes"
                        )
                    )
                )
            if not state.presenter():
                # a static table, not the data grid: the grid's canvas was a third of each SLA what-if's time in
                # the browser (a few rows, nothing to sort or scroll; docs/development.md)
                st.markdown(
                    fmt.table(
                        [
                            {
                                "Bound": SLA_LABELS.get(k, fmt.label(k)),
                                "IOPS": fmt.iops(v),
                                "Binding": "yes" if k == g["binding_constraint"] else "",
                            }
                            for k, v in g["bounds_iops"].items()
                        ]
                    )
                )
            with st.container():  # the notes come and go with the figures: the sections below stay put
                for note in (
                    without_n1_clause(g.get("note"), today.topology) if n1_not_applied and today else g.get("note"),
                    g.get("latency_note"),
                ):
                    if note:  # the library's notes are clauses: a sentence here
                        st.caption(fmt.md(first_upper(note) + ("" if note.endswith(".") else ".")))
                # the same check and sentence as the Design and Size pages and the proposal: a latency target met at
                # the prediction while its band reaches past it
                if lat_sentence := latency_band_sentence(
                    g.get("latency_figures") or {},
                    [
                        {
                            "name": "this database",
                            "latency_statistic": g["latency_statistic"],
                            "read_fraction": g.get("read_fraction", 1.0),
                            "latency_target_ms": target,
                        }
                    ],
                    "band",
                ):
                    st.caption(f":orange[{fmt.md(lat_sentence)}]")
            the_db = dbio if dba else db
            # closed sections hold nothing (opening one reruns the page with it): what-ifs stay quick
            by_size = st.expander("The guarantee by the database VM's size", key="sla_by_size", on_change="rerun")
            if by_size.open:
                with by_size:
                    # the VM decides the guarantee long before the cluster does (its IOs in flight, its vCPUs)
                    t = _by_vm_size(gj, the_db.model_dump_json(), background, n1, state.session_calibration())
                    st.dataframe(
                        [
                            {
                                # the database's own VM, marked: it stands among the standard sizes
                                # text in every row: a column of numbers and one "16 (this database's VM)" failed
                                # Arrow's conversion (logged on every run)
                                "vCPUs": f"{r['vcpus']} (this database's VM)"
                                if r.get("the_databases_vm")
                                else str(r["vcpus"]),
                                "IO threads x outstanding": f"{r['threads']} x {r['outstanding_per_thread']}",
                                "Guaranteed IOPS": fmt.iops(r["guaranteed_iops"]),
                                "Binding": SLA_LABELS.get(r["binding_constraint"], fmt.label(r["binding_constraint"])),
                                # the rate beside the IO: the smallest VM below is the first with both
                                **(
                                    {"Carries its TPM": "yes" if r["carries_rate"] else "no"}
                                    if r["carries_rate"] is not None
                                    else {}
                                ),
                            }
                            for r in t["sizes"]
                        ],
                        hide_index=True,
                        # "16 (this database's VM)" was cut to "16 (this database's VI" (browser walk 2026-12-03)
                        column_config={"vCPUs": st.column_config.TextColumn(width="medium")},
                    )
                    small = t["smallest_vm_meeting_target"]
                    if small:
                        # its IO and its transaction rate, as the library picks it: "the smallest VM ... 32 vCPUs"
                        # beside "no VM size carries this rate" read as a contradiction (browser review 2026-11-29)
                        st.caption(
                            f"The smallest VM guaranteed the database's {fmt.iops(t['target_iops'])} IOPS"
                            + (" that also carries its transaction rate" if dba else "")
                            + f": {count(small['vcpus'], 'vCPU')}, {count(small['threads'], 'IO thread')} x "
                            f"{small['outstanding_per_thread']} outstanding."
                        )
                    elif t["target_iops"] is None:
                        # this mode has no IOPS to reach: the library's "give ... a target IOPS" pointed at a field
                        # this page does not have (browser review 2026-11-29)
                        st.caption(
                            "What each VM size is guaranteed. Describe the database by what a DBA knows (above) to "
                            "see the smallest VM that meets its need."
                        )
                    elif t["smallest_vm_note"]:
                        st.caption(fmt.md(t["smallest_vm_note"]))
            most = st.expander(f"{most_words} of this database", key="sla_capacity", on_change="rerun") if dba else None
            if most is not None and most.open:
                with most:
                    try:
                        cap = _capacity(gj, the_db.model_dump_json(), state.session_calibration())
                    except (
                        PlannerError
                    ) as exc:  # one line, not a traceback (a design that carries no trickle of its IO)
                        cap = None
                        st.warning(fmt.md(f"{most_words}: {exc}"))
                    if cap is not None:
                        k = st.columns(4)
                        k[0].metric("Most NOPM (all database servers)", fmt.iops(cap["max_nopm"]))
                        if band_line := fmt.band_text(
                            cap["max_nopm_low"], cap["max_nopm_high"], lambda x: fmt.num(x, 0, "NOPM")
                        ):
                            k[0].caption(band_line)
                        k[1].metric("TPM", fmt.iops(cap["max_tpm"]))
                        # which latency each is, by its one name, with the band where the model gives one: the VM's
                        # reads and writes have none, the storage's do (DBA review 2026-11-30: "Read latency then" was
                        # the VM's 0.463 ms, the CLI's read_latency_ms the storage's 0.153 ms with its band)
                        for col, side in ((k[2], "read"), (k[3], "write")):
                            col.metric(
                                f"{LATENCY_NAMES[f'vm_{side}_latency_ms']} then",
                                fmt.ms(cap[f"vm_{side}_latency_ms"]),
                                help=f"what the database's {side}s wait for at that rate, the guest IO stack included; "
                                "no band of its own (the model bands the VM's mean, VM latency, and the storage's "
                                f"{side} latency)",
                            )
                            if cap.get(f"{side}_latency_ms") is not None:
                                col.caption(
                                    f"{LATENCY_NAMES[f'{side}_latency_ms']} "
                                    + fmt.band(
                                        cap[f"{side}_latency_ms"],
                                        cap.get(f"{side}_latency_ms_low"),
                                        cap.get(f"{side}_latency_ms_high"),
                                        fmt.ms,
                                    )
                                )
                        # a band's "unbounded" end said in words once ("0.122 ms–unbounded" stood alone; pricing-call
                        # walk, stop 63): at the most the design sustains, the band's slower end is past saturation
                        if any(
                            cap.get(f"{k}_low") is not None and cap.get(f"{k}_high") is None
                            for k in ("read_latency_ms", "write_latency_ms", "vm_latency_ms")
                        ):
                            st.caption(
                                first_upper(UNBOUNDED_AT_BAND_LOW_NOTE)
                                + ": the most it sustains is the model's prediction, and the band reaches below it."
                            )
                        if cap.get("vm_latency_ms") is not None:
                            st.caption(
                                f"{LATENCY_NAMES['vm_latency_ms']} then, reads and writes together: "
                                + fmt.band(
                                    cap["vm_latency_ms"],
                                    cap.get("vm_latency_ms_low"),
                                    cap.get("vm_latency_ms_high"),
                                    fmt.ms,
                                )
                                + "."
                            )
                        st.caption(
                            fmt.md(
                                # the maximum has the design to itself: beside a guarantee of 0 under other tenants it
                                # read as the opposite answer (browser review 2026-11-29)
                                (
                                    "With no other tenants, unlike the guarantee above: "
                                    if background is not None
                                    else ""
                                )
                                + f"{count(cap['servers'], 'database server')}, one such database each"
                                # fewer than the design's when the storage holds fewer (DBA walk 2026-11-30)
                                + (f" ({cap['servers_note']})" if cap.get("servers_note") else "")
                                + "; "
                                # the binding note is a sentence of its own ("Binds: the nodes run out ... (...): the ..."
                                # stacked two colons; browser review 2026-11-29)
                                f"{cap['vcpus_note']}"
                                # a VM given more vCPUs than its server runs at once (DBA walk 2026-11-30)
                                + (f" ({cap['vcpus_capped_note']})" if cap.get("vcpus_capped_note") else "")
                                + f". {first_upper(cap['binding_note'])}; raised by "
                                # what to buy, cores or drives (DBA walk 2026-11-30: the note alone did not say)
                                f"{cap['raises_it']}."
                                + (f" {first_upper(cap['ram_note'])}." if cap.get("ram_note") else "")
                                + (
                                    f" Latency: {cap['vm_read_latency_ms_note']}."
                                    if cap.get("vm_read_latency_ms_note")
                                    else ""
                                )
                            )
                        )


st.header("Service tiers")
# held in place whether said or not (the what-if test's rule)
tiers_on_slot = st.empty()
if on_today:
    # pricing tiers refuses another topology: the tiers stay the hyperconverged design's while the guarantee above is
    # on the customer's system (browser walk 2026-12-01)
    tiers_on_slot.caption(
        f"The tiers and their prices below are the design here's ({here_words}), "
        "not the customer's system today that the guarantee above is on: tiers are priced on a hyperconverged design."
    )
st.caption(
    "Edit, add or remove tiers: they travel with the scenario and its share link, and drive the prices "
    "below and the Size page."
)
_tier_editor()
tiers_json = state.tiers_json()

st.header("Tiers on this design")


@st.cache_data(show_spinner=False, max_entries=32)
def _licence_choices(design_json: str, demand_json: str | None, chosen: str) -> tuple[list[str], str]:
    """This platform's licence options and the one ``chosen`` becomes on it (the library's rule)."""
    from planner.commercial.licensing import for_platform, licence_choices
    from planner.models.demand import Demand

    design = json.loads(design_json)
    if design.get("stack", "s2d") != "s2d":
        return list(OPTION_NAMES), chosen  # a Ceph or vSAN cluster's own licence: the caption below says so
    demand = Demand.model_validate_json(demand_json) if demand_json else None
    a = CostAssumptions(licence_option=chosen)
    on = SimpleNamespace(platform=design.get("platform"))  # platform_of reads the design's platform alone
    return licence_choices(a, demand, on), for_platform(a, demand, on).licence_option


# drawn only while open (closed, it holds nothing; opening it reruns the page with it): its eleven inputs
# cost the page about 40 ms in chromium on every what-if and page switch (SLA page switch median 291-321
# -> 256-272 ms, 8 each, review 2026-11-29). Closed, the figures are the ones last typed (inputs.keep holds
# them across runs), or the ones a scenario or share link set, checked by the same bounds as the boxes.
cost_box = st.expander("Cost assumptions (editable)", key="sla_costs_open", on_change="rerun")
d = CostAssumptions()
C = lambda f: inputs.model_bounds(CostAssumptions, f)
# the boxes this design's cost uses, four a row: a Ceph or vSAN design's stack boxes (vSAN's subscription and its two
# prices, the guests' licence) and not the Azure Local host fee, the Windows Server add-on or S2D's licensing choice
# (Ceph operator walk 2026-11-30: they stood on a Ceph design and changed nothing); the Datacenter price not where the
# guests are not counted. The library's rule (pricing.echo_hidden), as the cost's echo leaves them out. A VMware
# subscription could not be edited (browser review 2026-11-30). All None: the section is closed, nothing is drawn
_stack = json.loads(dj).get("stack", "s2d")
_hidden = echo_hidden(
    _stack, CostAssumptions(guest_os_licence=st.session_state.get(cost_state.GUEST_OS, d.guest_os_licence))
)
COST_BOX_ORDER = (
    "amortisation_months",
    "power_usd_per_kwh",
    "pue",
    "rack_unit_usd_per_month",
    "windows_datacenter_usd_per_core",
    "support_share_per_year",
    "target_margin",
    "target_fill",
    "licence_option",
    "azure_local_usd_per_core_month",
    "windows_subscription_usd_per_core_month",
    "vsan_licence",
    "vcf_usd_per_core_year",
    "vvf_usd_per_core_year",
    "guest_os_licence",
)
col_of: dict[str, Any] = dict.fromkeys(COST_BOX_ORDER)
if cost_box.open:
    _shown = [f for f in COST_BOX_ORDER if f not in _hidden]
    for i in range(0, len(_shown), 4):
        col_of.update(zip(_shown[i : i + 4], cost_box.columns(4)))
spec = [  # (column, label, key, field, unit, integer, format)
    (col_of["amortisation_months"], "Amortisation, months", "cost_months", "amortisation_months", "months", True, None),
    (col_of["power_usd_per_kwh"], "Power, USD/kWh", "cost_kwh", "power_usd_per_kwh", "USD/kWh", False, "%.3f"),
    (col_of["pue"], "PUE", "cost_pue", "pue", "", False, None),
    (
        col_of["rack_unit_usd_per_month"],
        "Rack unit, USD/month",
        "cost_ru",
        "rack_unit_usd_per_month",
        "USD/month",
        False,
        None,
    ),
    (
        col_of["windows_datacenter_usd_per_core"],
        "Windows Datacenter, USD/core",
        "cost_lic",
        "windows_datacenter_usd_per_core",
        "USD",
        False,
        None,
    ),
    # shares, as the tables show them in percent: the label says how to type them (pricing review 2026-11-30: 0.40
    # typed, "40% margin" read in the document)
    (
        col_of["support_share_per_year"],
        "Support a year, share of capex (0.10 = 10 %)",
        "cost_sup",
        "support_share_per_year",
        "",
        False,
        None,
    ),
    (col_of["target_margin"], "Target margin, share (0.30 = 30 %)", "cost_margin", "target_margin", "", False, None),
    (col_of["target_fill"], "Target fill, share (0.70 = 70 %)", "cost_fill", "target_fill", "", False, None),
    (
        col_of["azure_local_usd_per_core_month"],
        "Azure Local host fee, USD/core/month",
        "cost_al",
        "azure_local_usd_per_core_month",
        "USD",
        False,
        None,
    ),
    (
        col_of["windows_subscription_usd_per_core_month"],
        "Windows Server add-on, USD/core/month",
        "cost_ws",
        "windows_subscription_usd_per_core_month",
        "USD",
        False,
        None,
    ),
    (
        col_of["vcf_usd_per_core_year"],
        "VMware Cloud Foundation, USD/core/year",
        "cost_vcf",
        "vcf_usd_per_core_year",
        "USD",
        False,
        None,
    ),
    (
        col_of["vvf_usd_per_core_year"],
        "VMware vSphere Foundation, USD/core/year",
        "cost_vvf",
        "vvf_usd_per_core_year",
        "USD",
        False,
        None,
    ),
]
figures, cost_errors = {}, []
for col, lab, key, field, unit, integer, f in spec:
    # col None (the section closed): the value kept from the box, or the default, checked as the box's
    figures[field], e = inputs.number(
        col,
        lab,
        key,
        C(field),
        unit=unit,
        integer=integer,
        format=f,
        step=1 if integer else None,
        default=getattr(d, field),
        # where the default comes from, or that it is hciplan's assumption to replace (honesty audit 2026-12-01)
        help=COST_DEFAULT_SOURCES.get(field),
    )
    inputs.show(col, e)
    cost_errors.append(e)
# only this platform's options, the one in use shown (an Azure Local design's "Windows Server Datacenter"
# changed nothing: its cost carried the host fee with Datacenter guest licences; browser review 2026-11-30)
lic_choices, lic_used = _licence_choices(
    dj, state.demand_json(), st.session_state.get("cost_lic_opt", d.licence_option)
)
if st.session_state.get("cost_lic_opt", d.licence_option) not in lic_choices:
    st.session_state["cost_lic_opt"] = lic_used
if col_of["vsan_licence"] is not None:
    # the choices the cost model takes, named as every page names a licence
    figures["vsan_licence"] = col_of["vsan_licence"].selectbox(
        "VMware subscription in the monthly cost",
        list(get_args(CostAssumptions.model_fields["vsan_licence"].annotation)),
        format_func=licence_words,
        key="cost_vsan_opt",
    )
else:
    figures["vsan_licence"] = st.session_state.get("cost_vsan_opt", d.vsan_licence)
if col_of["guest_os_licence"] is not None:
    # the Windows guests the SQL Server VMs run in: Datacenter on the VM servers' cores whatever the hypervisor; a
    # Ceph or vSAN cluster's month carried none while an S2D one's did (finance walk 2026-11-30)
    figures["guest_os_licence"] = cost_state.guest_licence_box(col_of["guest_os_licence"])
else:
    figures["guest_os_licence"] = st.session_state.get(cost_state.GUEST_OS, d.guest_os_licence)
if col_of["licence_option"] is not None:
    figures["licence_option"] = col_of["licence_option"].selectbox(
        "Licensing in the monthly cost",
        lic_choices,
        format_func=OPTION_NAMES.__getitem__,
        key="cost_lic_opt",
    )
else:
    figures["licence_option"] = st.session_state.get("cost_lic_opt", d.licence_option)
if cost_box.open:
    cost_box.caption(
        # the box shows what fits a quarter of the page ("Windows Server Datacenter (perpetual, per c")
        (
            f"Licensing counted: {fmt.md(OPTION_NAMES[figures['licence_option']])}. "
            if _stack == "s2d"
            # a Ceph or vSAN cluster carries its own licence (the caption below says it and whose the choice is):
            # "Licensing counted: Windows Server Datacenter" above it read as a contradiction (browser review
            # 2026-11-29)
            else ""
        )
        + (
            # an edited price is this quote's, not the publisher's (pricing review 2026-11-30: $500 a core was
            # still called a public list price)
            "The licence prices you set are this quote's: the costs, the prices and the proposal's appendix say "
            "so; the others are list prices, estimated where seen only as public write-ups quote them, each with its "
            "source and the date it was seen."
            if any(
                figures.get(f) is not None and figures[f] != CostAssumptions.model_fields[f].default
                for fields in LICENCE_PRICE_FIELDS.values()
                for f, _ in fields
            )
            # "public list prices" above lines that each said "estimated list price" (finance walk 2026-11-30)
            else "Licence prices are list prices, estimated where seen only as public write-ups quote them, each with "
            "its source and the date it was seen (the proposal's appendix lists them): edit them to your agreement."
        )
    )
tp = None
if any(cost_errors):
    st.warning(
        "A cost assumption is out of range: tier prices are not shown until it is fixed"
        + ("." if cost_box.open else " (open Cost assumptions).")
    )
else:
    try:
        costs = CostAssumptions(**{k: (int(v) if k == "amortisation_months" else v) for k, v in figures.items()})
        state.set_costs(costs.model_dump_json())
        tp = _tiers(
            dj,
            cost_state.assumptions_json(),  # with the customer's quotes (Size page), as every cost
            n1,
            tiers_json,
            state.session_calibration(),
            state.demand_json(),
        )
        used = tp["monthly_cost"]["licence_option"]
        stack = json.loads(dj).get("stack", "s2d")
        # a Ceph or vSAN cluster's own licence; an S2D cluster whose platform the design or the demand decides
        if used != costs.licence_option or (stack == "s2d" and len(lic_choices) < len(OPTION_NAMES)):
            st.caption(
                # its name with the Windows guests' licences when counted (the option's alone read as the whole)
                f"A {STACK_LABELS.get(stack, stack)} cluster carries its own licence: the monthly cost carries "
                f"{tp['monthly_cost']['licence_name']}"
                + (
                    " (its subscription, its price and the guests' licence under Cost assumptions)"
                    if stack == "vsan"
                    else " (the guests' licence under Cost assumptions)"
                )
                # the S2D licensing boxes are not drawn for it: said, so a cost without them is not read as missing
                + "; Storage Spaces Direct's licensing (the Azure Local host fee, the Windows Server subscription) "
                "does not apply to it."
                if stack != "s2d"
                else f"The sized demand runs on this platform: the monthly cost carries {licence_words(used)}."
            )
    except ValidationError as exc:
        st.error(fmt.md(format_validation_error(exc)))
    except PlannerError as exc:
        st.error(fmt.md(exc))
if tp is not None:
    rows = []
    for k, v in tp["tiers"].items():
        rows.append(
            {
                "Tier": k,
                "Max DBs": f"{v['max_dbs']:,}",
                "Limited by": limit_words(v["limited_by"]),
                # per database, as the proposal's table says it ("Price, USD/month" read as the tier's whole month;
                # account-manager walk 2026-11-30)
                "Price per database, USD/month": fmt.usd(v["price_usd_per_month"], 2),
                "Cost share per database, USD/month": fmt.usd(v["cost_share_usd_per_month"], 2),
                "Cost per guaranteed IOPS, USD/month": fmt.unit_price(v["cost_usd_per_guaranteed_iops_per_month"]),
                "Cost per GB, USD/month": fmt.unit_price(v["cost_usd_per_gb_per_month"]),
                # a fill under 1 % read "0 %" (0.25 % at a 95 % margin and 5 % fill; finance walk 2026-11-30)
                "Break-even fill": fmt.pct(
                    v["break_even_fill"], 2 if v["break_even_fill"] is not None and v["break_even_fill"] < 0.01 else 0
                ),
                "Note": v.get("price_note", ""),
            }
        )
    if not any(r["Note"] for r in rows):  # a column of nothing: shown only when a tier has a note
        rows = [{k: x for k, x in r.items() if k != "Note"} for r in rows]
    st.markdown(fmt.table(rows))
    # what the storage counts: with N+1, re-protected or online with fewer copies (SRE walk 2026-11-30); a caption
    # either way, so the toggle changes no element's kind (the what-if test's rule)
    cap_now = state.report(dj)
    st.caption(
        f"With one node down, storage counts {one_node_down_words(cap_now)}."
        if n1
        else f"With every node up, storage counts the {cap_now['usable_capacity_tb']:,.2f} TB usable."
    )
    try:  # the whole cost of the same design and assumptions says what the prices leave out, in dollars
        whole = cost_state.whole(dj)
    except PlannerError:  # a part without a price: the sentence without the figures
        whole = None
    base = tier_cost_base(tp, whole)
    st.caption(fmt.md(base["text"]))
    csv_rows = cost_state.tier_price_rows(tp, tiers_json)
    cost = tp["monthly_cost"]
    m = st.columns(2)
    # the servers alone (the tiers' cost base): named so, not "cluster cost" and "capex", which read as the
    # Size page's whole cost and purchases (with the network and the platform's licences) and differed from them
    m[0].metric(
        # the Size page's table calls the same figure "Cluster cost" (sales review: two names for one figure)
        "Cluster cost per month, the tiers' base",
        fmt.usd(base["cluster_usd_per_month_said"]),
        help="what the tier prices share out: the servers and storage with their platform licences, support, "
        "power and rack space. They leave out the network (switches, optics, cables) and SQL Server's licences, "
        "which the whole cost on the Size and Compare pages adds",
    )
    m[1].metric(
        "Servers, purchase",
        fmt.usd(cost["capex_usd"]),
        help="the servers' hardware; the Size page's purchases add the network and perpetual licences",
    )
    st.markdown("**A tier mix on this design**")
    mc = st.columns(len(tp["tiers"]))
    counts, mix_errors = {}, []
    for i, name in enumerate(tp["tiers"]):
        # the Size page may have set the demand's counts
        counts[name], e = inputs.number(
            mc[i], fmt.md(name), f"mix_{name}", (0, 100_000, False), integer=True, step=1, default=0
        )
        inputs.show(mc[i], e)
        mix_errors.append(e)
    if not any(mix_errors) and any(counts.values()):
        mix = _mix(dj, json.dumps({k: int(v) for k, v in counts.items()}), n1, tiers_json, state.session_calibration())[
            "mix"
        ]
        # the proposal's words for it (planner.commercial.tiers.mix_words)
        (st.success if mix["fits"] else st.error)(fmt.md(mix_words(mix)))
        # what this line counts, beside the Size and Design pages' verdict of the same databases: "Fits: storage 80 %"
        # here and 96 % there read as two answers (presales walk 2026-11-30)
        grown = (
            f"; the sized demand adds its {sized_demand.growth_pct:g} % growth, which the Size and Design pages count"
            if sized_demand is not None and sized_demand.growth_pct and sized_demand.tier_counts
            else ""
        )
        # which counts the document says (planner.sizing.proposal.build: a demand in tiers is its own mix)
        if sized_demand is not None and sized_demand.tier_counts:
            # its counts as sized, grown where it grows (proposal.build's): the page's "$43,376" and the document's
            # "$52,051" were today's and the grown counts, the difference said in small print only (stop 63)
            grown_counts = fmt.md(mix_list(sized_demand.sized_tier_counts() or {}))
            in_doc = f"The proposal says the sized demand's own counts, as sized ({grown_counts})."
        else:
            in_doc = "The proposal (Size and Performance pages) says this mix."
        st.caption(
            f"The counts as typed{', with one node down' if n1 else ''}{grown}. Capacity, vCPUs and RAM are pools "
            f"of the whole cluster here; the Size and Design pages place whole VMs on the busiest node. {in_doc}"
        )
        # what the mix brings in at the prices above against the whole cost: the question after "does it fit" in a
        # pricing call, by the proposal's rule and in its words (`price --mix` gives the same figures)
        if whole is not None:
            rev = tier_revenue(
                tp, {k: int(v) for k, v in counts.items()}, whole, max(mix["utilization"].values()), "this mix"
            )
            # in whole dollars as the sentence under them says them: "-$17,466" stood above "$17,467 a month short"
            # (the difference of the rounded figures; pricing-call walk, stop 63)
            over, brought = rev["over_said_usd_per_month"], rev["revenue_said_usd_per_month"]
            r = st.columns(2)
            r[0].metric(
                "This mix brings in, USD/month", fmt.usd(brought), help="each database at its tier's price above"
            )
            colour: Literal["normal", "inverse", "off"]
            if not mix["fits"]:
                # a mix the design cannot hold earns nothing on it: a green "59 %" under a red "Does not fit" read
                # as a profit (pricing-call walk, stop 63)
                delta, colour = "not on this design: it does not fit", "off"
            elif brought <= 0:
                delta, colour = None, "off"
            elif over >= 0:
                delta, colour = f"{fmt.pct(over / brought)} of what it brings in", "normal"
            else:  # short of the cost: the share of it covered ("-733 % of what it brings in" read as nothing)
                delta, colour = "short of the whole cost", "inverse"
            r[1].metric(
                "Over the whole cost, USD/month",
                fmt.usd(over),
                delta,
                delta_color=colour,
                delta_arrow="off",  # the words say over or short; an arrow up beside a shortfall read as a gain
                help="what the mix brings in less the whole cost a month: the cluster, its network and the licences "
                "counted (the proposal's comparison)",
            )
            st.caption(fmt.md(rev["text"]))
        typed = {k: int(v) for k, v in counts.items() if v}
        if (
            sized_demand is not None
            and sized_demand.tier_counts
            and typed != {k: v for k, v in sized_demand.tier_counts.items() if v}
        ):
            # a demand sized again after "Use this design" left the mix of the earlier one, still captioned as
            # the sized demand's (pricing walk 2026-11-30: 5 Ultras here, 20 in the demand sized since)
            latest = ", ".join(f"{v:,} {fmt.md(k)}" for k, v in sized_demand.tier_counts.items() if v)
            st.caption(
                f":orange[These counts are not the Size page's latest demand's ({latest}, before growth): they were "
                "typed here or loaded by **Use this design** from an earlier one.]"
            )
    if not state.presenter():
        e = st.columns(2)
        e[0].download_button("Tier prices CSV", export.to_csv(csv_rows), file_name="tier_prices.csv", mime="text/csv")
        e[1].download_button(
            "Pricing JSON", jsonio.dumps(tp, indent=1), file_name="tier_prices.json", mime="application/json"
        )
        # which part prices are estimates, as the Size page says it: the footer named the licence's kind alone, and a
        # finance lead read the hardware behind the tier prices as list prices (finance walk 2026-11-30)
        if whole is not None:
            cost_state.price_kinds_caption(whole)
        else:
            st.caption(f"Licence: {fmt.md(cost['licence_seen'])}.")
# arrived by the start page's "Price tiers": the tiers and their prices first (drawn last, after the heading)
if to_tiers:
    chrome.scroll_to("service-tiers")
