"""Size a cluster: the cheapest catalog designs meeting a demand and every named
rule (planner.sizing.search), genuinely different alternatives, the binding resource,
the rules that rejected other candidates (with their sources), the cost /
guaranteed IOPS / capacity Pareto chart, the parts list and licensing options,
the multi-year view, the proposal export, and one click to carry a design and
the demand's own workload to the other pages."""

from __future__ import annotations

import json
import math
import time
from typing import Any

import streamlit as st
from pydantic import ValidationError

from hciplan_ui import background, charts, chrome, costs, database_inputs, export, fmt, inputs, state
from hciplan_ui.sizing_rows import (
    PARTS_COLUMNS,
    SUMMARY_COLUMNS,
    binding_help,
    binding_said,
    design_label,
    log_basis_line,
)
from hciplan_ui.sizing_rows import described as _described
from hciplan_ui.sizing_rows import result_row as _row
from hciplan_ui.sizing_rows import shown_row as _shown
from planner.commercial.pricing import CostAssumptions
from planner.commercial.tiers import binding_words
from planner.core import jsonio
from planner.core.errors import PlannerError, format_validation_error
from planner.core.errors import shown as shown_value
from planner.core.text import count, first_upper, pct, sentence, tidy
from planner.models.database import (
    LOG_SPACE_FRACTION,
    SOURCES,
    SPACE_FIELDS,
    TEMPDB_SPACE_FRACTION,
    VM_RAM_RULE,
    Database,
    io_demand,
    vm_ram_gb,
)
from planner.models.demand import (
    GROWTH_IN_WORDS,
    GROWTH_PERIOD_MONTHS,
    MAX_GROWTH_PCT,
    Demand,
    fault_tolerance_label,
    fault_tolerance_takes,
    growth_pct_over,
    growth_pct_per_year,
    growth_words,
    whole_databases,
)
from planner.models.design import CephSpec
from planner.models.stacks import MAX_NODES, STACK_LABELS, STACKS, ceph_release_words, node_limit_words
from planner.models.tiers import TierSet
from planner.sizing.words import customer_words

#: the select boxes' options, short enough for a quarter of the page at 1024 px (the long forms were cut:
#: "survive a node and a drive (M", "Storage Spaces Di"); the detail is in each box's help
FT_LABELS = {
    "node-and-drive": "node and drive",
    "node": "one node",
    "two-nodes": "two nodes",
}
STACK_SHORT = {"s2d": "S2D", "ceph": "Ceph RBD", "vsan": "VMware vSAN"}
#: the form's stack-specific policies: labels and help in each vendor's terms (the rules' sources are in
#: planner.physics.rules: Microsoft's for S2D, Ceph's hardware recommendations, VMware's vSAN network); every
#: parity label starts "Allow parity", the words a check uses when parity is refused ("needs the Allow
#: parity choice")
POLICY_WORDS = {
    "s2d": {
        "parity": "Allow parity",
        "parity_help": "dual parity / mirror-accelerated parity volumes; Microsoft recommends mirror for databases",
        "network": "Accept 10 GbE / no RDMA",
        "network_help": "Microsoft recommends RDMA and 25 GbE from four nodes; hciplan asks it of all-NVMe beyond "
        "two nodes too (its own rule: a mirror's writes cross the network, and one NVMe drive's writes fill a 10 GbE "
        "port)",
    },
    "ceph": {
        "parity": "Allow parity (erasure coding)",
        "parity_help": "erasure-coded pools; off: replicated pools only (for databases, as mirror on S2D)",
        "network": "Accept 10 GbE",
        "network_help": "Ceph's hardware recommendations: at least 10 Gb/s, and 25 Gb/s for clusters with "
        "substantial workload",
    },
    # the sizer's vSAN is ESA, whose RAID-5/6 writes a RAID-1 performance leg and full stripes (no
    # read-modify-write), so databases may use it: nothing to allow. Its hosts are above vSAN-ESA-AF-0, the one ESA
    # profile on 10 GbE: their 25 GbE is not overridden
    "vsan": {"parity": "", "parity_help": "", "network": "", "network_help": ""},
}
DBA_MODE = database_inputs.SIZE_DBA_MODE
SIZE_DB = database_inputs.SIZE_PREFIX
_STARTED = time.perf_counter()  # this run of the page: the wall time the user waits (see _results)


def _design_key(design_json: str) -> str:
    """A design as the model reads it, its name aside: the sized design and the session's compared
    whatever fields their JSON leaves at a default."""
    from planner.models.design import Design

    try:
        return state.canonical(Design.model_validate_json(design_json).model_dump(mode="json", exclude={"name"}))
    except ValidationError:
        return design_json


def _size_dict(
    demand_json: str, top: int, calibration_json: str | None = None, costs_json: str | None = None, progress=None
) -> dict:
    from planner.sizing.search import size

    return size(
        Demand.model_validate_json(demand_json),
        top=top,
        assumptions=CostAssumptions.model_validate_json(costs_json) if costs_json else None,
        progress=progress,
        params=state.calibration_params(calibration_json)[0],
    ).model_dump(mode="json")


def _sized_key(demand_json: str, top: int) -> tuple[str, int, str | None, str]:
    """What a sizing depends on: the demand, how many designs, the session's calibration and prices."""
    return (demand_json, top, state.session_calibration(), costs.assumptions_json())


def _sized(demand_json: str, top: int) -> dict:
    """Sizing result (cached; with the session's refit calibration when one is
    kept, and the session's prices: quotes rank the designs too); a progress bar
    appears only if it outlasts a second."""
    key = _sized_key(demand_json, top)
    _, _, calibration_json, costs_json = key
    # remembered in a module (background.SIZED), not in this script: a script's own dict is new on every rerun
    if (hit := background.SIZED.get(key)) is not None:
        return hit

    def show():
        bar = st.progress(0.0, text="Sizing: screening parts and evaluating the cheapest designs…")

        def update(f):
            if f is None:
                bar.empty()
            else:
                bar.progress(min(max(f, 0.0), 1.0), text=f"Sizing… {fmt.pct(f)} of the designs to return found")

        return update

    res, _ = background.run_with_progress(_size_dict, demand_json, top, calibration_json, costs_json, show=show)
    background.SIZED.put(key, res)
    return res


@st.cache_data(show_spinner=False, max_entries=32)
def _bom(design_json: str, costs_json: str) -> dict:
    from planner.commercial.bom import bom
    from planner.commercial.pricing import CostAssumptions
    from planner.models.catalog import load_catalog
    from planner.models.design import parse_design, resolve

    return bom(resolve(parse_design(design_json), load_catalog()), CostAssumptions.model_validate_json(costs_json))


#: N+1's two meanings (Demand.n_plus_one_after_loss) as the Size page offers them
# short, so a quarter-width box shows them whole at 800 px (the help says the rest; clean-clone CI's browser test)
N1_AFTER_WORDS = {"re-protected": "re-protected", "online": "online"}
#: the Demand fields the form does not show: a loaded demand's own values are kept when the form sizes again
#: (a demand file's own figures were lost at the first "Size it" after it)
HIDDEN_FIELDS = ("name", "working_set_fraction", "platform", "vcpu_oversubscription", "host_reserve_gb", "min_nodes")
#: the database fields the form's DBA boxes hold (:func:`database_inputs.basics` and the log and tempdb shares)
DB_SHOWN = ("size_gb", "size_tb", "buffer_pool_gb", "nopm", "tpm", "buffer_hit_ratio", *SPACE_FIELDS)
#: the shares a workload description takes unless given, and the views that resolve them
DEFAULT_SHARES = {"log_space_fraction": LOG_SPACE_FRACTION, "tempdb_space_fraction": TEMPDB_SPACE_FRACTION}
SHARE_OF = {"log_space_fraction": "log_share", "tempdb_space_fraction": "tempdb_share"}
#: the DBA mode's boxes for the space beside the data files, in % of it: (field, label, key)
SPACE_BOXES = (
    ("log_space_fraction", "Log space, % of data", "size_db_log_pct"),
    ("tempdb_space_fraction", "tempdb space, % of data", "size_db_tempdb_pct"),
)


def _pool(buffer_pool_gb: Any) -> bool:
    """Whether the buffer pool box holds a size the RAM rule takes (a typo leaves the RAM box's own text)."""
    return isinstance(buffer_pool_gb, (int, float)) and math.isfinite(buffer_pool_gb) and buffer_pool_gb >= 0


def _kept(demand_json: str | None) -> dict:
    """The fields of the demand in force that the form does not show and that differ from their defaults
    (and its database's, beyond the DBA boxes'): the form sizes them as they are, and says so. A validated
    programme other than Azure Local's (the one box the form has) is kept too."""
    if not demand_json:
        return {}
    d = Demand.model_validate_json(demand_json)
    out = {
        f: getattr(d, f)
        for f in HIDDEN_FIELDS
        if getattr(d, f) != Demand.model_fields[f].get_default(call_default_factory=True)
    }
    if d.validated_for not in (None, "Azure Local"):
        out["validated_for"] = d.validated_for
    if d.database is not None:
        extra = {
            k: v for k, v in d.database.model_dump(mode="json", exclude_defaults=True).items() if k not in DB_SHOWN
        }
        if extra:
            out["database"] = extra
    return out


def _kept_words(kept: dict) -> str:
    """:func:`_kept` in one line (field names with their units, as the demand file writes them)."""
    db = kept.get("database", {})
    # a file's long texts (a database's description) cut to a glance: the form is not where they are read
    short = lambda v: fmt.md(v if not isinstance(v, str) or len(v) <= 60 else v[:59] + "…")
    parts = [f"{k} {short(v)}" for k, v in kept.items() if k != "database"]
    parts += [f"database {k} {short(v)}" for k, v in db.items()]
    return "; ".join(parts)


def _form_values(d: Demand, tiers: list[str]) -> dict:
    """The form's widget values that describe ``d`` (its mode, its counts or totals or database, its
    policies): a demand file fills the form, so that a change made to it next changes that one figure
    (presales walk 2026-11-30: the form kept its defaults under a file's 70/30/15/5 result, and raising
    Premium sized 120/50/40/5)."""
    v: dict[str, Any] = {
        "size_growth_year": growth_pct_per_year(d.growth_pct, d.growth_period_months),
        "size_growth_months": int(d.growth_period_months),
        "size_n1": bool(d.n_plus_one),
        "size_n1_after": d.n_plus_one_after_loss,
        "size_ft": d.fault_tolerance,
        "size_parity": bool(d.allow_parity),
        "size_net": bool(d.allow_network_warning),
        "size_stack": d.stack,
        "size_max_nodes": int(d.max_nodes),
        "size_validated": d.validated_for == "Azure Local",
        "size_budget": float(d.budget_usd_per_month or 0.0),
    }
    if d.tier_counts:
        return v | {"size_mode": "databases per tier"} | {f"size_{t}": int(d.tier_counts.get(t, 0)) for t in tiers}
    v |= {"size_lat": float(d.latency_target_ms), "size_stat": d.latency_statistic}
    if d.database is not None:
        db = d.database
        v |= {
            "size_mode": DBA_MODE,
            "size_db_n": int(d.databases or 1),
            "size_growth_in": d.growth_in,
            "size_db_vcpus": int(d.vcpus_per_db),
            # blank (derived) where the demand's RAM is the buffer pool's rule: it follows the pool when it changes
            "size_db_ram_gb": None
            if d.database.buffer_pool_gb is not None and d.ram_gb_per_db == vm_ram_gb(d.database.buffer_pool_gb)
            else float(d.ram_gb_per_db),
            "size_db_peak": d.database_need == "peak",
            f"{SIZE_DB}size_gb": float(db.data_gb),
        }
        v |= {key: 100.0 * float(getattr(db, SHARE_OF[f])) for f, _label, key in SPACE_BOXES}
        v[f"{SIZE_DB}buffer_hit_ratio"] = float(db.buffer_hit_ratio or 0.0)
        if db.buffer_pool_gb is not None:
            v[f"{SIZE_DB}buffer_pool_gb"] = float(db.buffer_pool_gb)
        if db.nopm is not None:
            v |= {f"{SIZE_DB}rate_kind": "NOPM", f"{SIZE_DB}rate": float(db.nopm)}
        elif db.tpm is not None:
            v |= {f"{SIZE_DB}rate_kind": "TPM", f"{SIZE_DB}rate": float(db.tpm)}
        return v
    return v | {
        "size_mode": "totals",
        "size_iops": float(d.total_iops or 0.0),
        "size_tb": float(d.capacity_tb or 0.0),
        "size_bs": float(d.block_size_kib),
        "size_rf": float(d.read_fraction),
        "size_vcpu_db": int(d.vcpus_per_db),
        "size_ram_db": float(d.ram_gb_per_db),
        "size_dbs": int(d.databases or 0),
    }


def _use(r: dict, demand: Demand) -> None:
    """Load a sized design with the demand's own workload and tier mix (:func:`state.use_sized_design`)."""
    state.use_sized_design(r["design"], demand)
    if demand.database is not None:
        # the SLA page judges the database the demand describes, with the VM and target it was sized for
        # (browser review 2026-11-28: it kept its own 1,000 GB / 200,000 NOPM / 16 vCPUs defaults)
        database_inputs.send_to_sla(
            demand.database.model_copy(update={"vcpus": demand.vcpus_per_db}), demand.database_need == "peak"
        )
        database_inputs.send_to_compare(demand.database, demand.database_need == "peak")
        st.session_state["sla_vcpus"] = demand.vcpus_per_db
        st.session_state["sla_target"] = demand.latency_target_ms
        st.session_state["sla_stat"] = demand.latency_statistic
    # the design as every page heads it (parts by name; its name is catalog ids), and whether the demand
    # has a tier mix to set (a totals or DBA demand has none: the SLA page's mix is left as it was)
    st.session_state["size_loaded"] = (design_label(r["design"]), bool(demand.tier_counts))


#: the stack of the session's design the Size page's stack last followed (:func:`_follow_design_stack`)
STACK_SEEDED_FROM = "size_stack_seeded_from"


def _follow_design_stack() -> None:
    """The stack select starts from the session's design (a Ceph design from the Design page sized as S2D by default,
    pre-sales Ceph walk 2026-12-03) and follows it while the user has not chosen one here: a value the user picked,
    or a demand file or link set (anything but what it was seeded with), is kept."""
    ss = st.session_state
    design_stack = str(json.loads(state.design_json()).get("stack") or "s2d")
    if design_stack not in STACKS:
        return
    seeded = ss.get(STACK_SEEDED_FROM)
    if "size_stack" in ss and (ss.get("size_stack_chosen") or ss["size_stack"] != seeded):
        return
    if ss.get("size_stack") != design_stack:
        ss["size_stack"] = design_stack
        _stack_changed(chosen=False)
    ss[STACK_SEEDED_FROM] = design_stack


def _stack_changed(chosen: bool = True) -> None:
    """A stack's node limit on "Most nodes": Ceph's 24 stayed when S2D was chosen, and the sizing failed with
    "max_nodes: a Storage Spaces Direct cluster has at most 16 servers (got 24)" (DBA walk 2026-11-30). The box
    is lowered to the new stack's limit, and a caption says so. ``chosen``: the user picked the stack here, so it
    no longer follows the design's (:func:`_follow_design_stack`)."""
    ss = st.session_state
    if chosen:
        ss["size_stack_chosen"] = True
    new, most = ss.get("size_stack", "s2d"), ss.get("size_max_nodes")
    if isinstance(most, (int, float)) and most > MAX_NODES[new]:
        ss["size_max_nodes"] = MAX_NODES[new]
        ss["size_max_nodes_note"] = (
            f"Most nodes lowered from {int(most):,} to {MAX_NODES[new]}: {node_limit_words(new, most)}."
        )


chrome.header("Size a cluster")
# a demand file just loaded is sized below the form: said at once, above it, while the form redraws (the page kept
# "Enter a demand and press Size it" for 5-10 s after the upload before "Sizing…" appeared; stop 55 walk)
sizing_notice = st.empty()
if st.session_state.get("size_file_pending"):
    sizing_notice.info("Sizing the demand file…", icon=":material/hourglass_top:")
# a demand file's own values, written before the form's boxes are drawn (they cannot be written after)
st.session_state.update(st.session_state.pop("size_form_pending", {}))
tierset = TierSet.model_validate_json(state.tiers_json())
tiers = [t.name for t in tierset.tiers]
# the mode decides which inputs the form shows, so it sits outside the form (a change redraws it)
inputs.keep(
    "size_mode",
    "size_stat",
    "size_ft",
    "size_n1",
    "size_n1_after",
    "size_validated",
    "size_parity",
    "size_net",
    "size_stack",
)
_follow_design_stack()
top_row = st.columns([3, 1])
mode = top_row[0].radio("Demand", ["databases per tier", "totals", DBA_MODE], horizontal=True, key="size_mode")
# the stack decides the policies the form offers (Azure Local's validated nodes and RDMA are S2D's, parity is
# erasure coding elsewhere), so it sits outside the form too: inside, a Ceph demand was offered S2D's options
# until it was submitted (new-user walk 2026-11-29)
stack = top_row[1].selectbox(
    "Storage stack",
    list(STACKS),
    format_func=STACK_SHORT.__getitem__,
    key="size_stack",
    on_change=_stack_changed,
    help=f"S2D: {STACK_LABELS['s2d']}. The sizer proposes designs of this stack only, judged by its own rules "
    "(Ceph: calibrated on the Ceph blog's clusters; vSAN: not calibrated, flagged)",
)
if stack == "ceph":
    # the sizer's Ceph designs name no release (the spec's default): said, and a design of another release in use
    # named beside it, as "Use this design" replaces it with the sizer's (pre-sales Ceph walk 2026-12-03)
    sized_release, in_use = CephSpec().release, json.loads(state.design_json())
    own = (in_use.get("ceph") or {}).get("release") if in_use.get("stack") == "ceph" else None
    top_row[1].caption(
        f"Sized as {fmt.md(ceph_release_words(sized_release))}"
        + (f"; the design in use is Ceph {fmt.md(str(own).capitalize())}" if own and own != sized_release else "")
        + "."
    )
per_tier, totals, dba = mode == "databases per tier", mode == "totals", mode == DBA_MODE
# number inputs' values: read only where their errors are None
dbs: Any
db_n: Any
db_bp: Any
vcpu_db: Any
ram_db: Any
iops = tb = lat = stat = bs = rf = db_gb = db_bp = db_n = dbs = vcpu_db = ram_db = None
db_fields: dict = {}
counts = {}
kept = _kept(state.demand_json())
if note := st.session_state.pop("size_file_tiers_note", None):
    st.info(note, icon=":material/sync:")
with st.form("size_form"):
    D = lambda f: inputs.model_bounds(Demand, f)
    problems = {}  # key -> message (only the inputs this mode shows)
    if per_tier:
        st.caption(
            "Tiers as defined on the SLA & tiers page: "
            + "; ".join(
                f"{fmt.md(t.name)} {t.guaranteed_iops:,.0f} IOPS at {t.latency_statistic} {t.latency_target_ms:g} ms, "
                f"{t.capacity_tb_per_db:g} TB, {t.vcpus_per_db} vCPU, {t.ram_gb_per_db:g} GB"
                for t in tierset.tiers
            )
        )
        c = st.columns(max(len(tiers), 1))
        for i, t in enumerate(tiers):
            counts[t], problems[f"size_{t}"] = inputs.number(
                c[i],
                f"{fmt.md(t)} DBs",
                f"size_{t}",
                (0, 100_000, False),
                integer=True,
                step=1,
                default=[120, 50, 25, 5][i] if i < 4 else 0,
            )
    if totals:
        c = st.columns(4)
        iops, problems["size_iops"] = inputs.number(
            c[0], "Total IOPS", "size_iops", D("total_iops"), step=50_000.0, format="%.0f", default=500_000.0
        )
        tb, problems["size_tb"] = inputs.number(
            c[1], "Capacity, TB", "size_tb", D("capacity_tb"), unit="TB", default=20.0
        )
        bs, problems["size_bs"] = inputs.number(
            c[2], "IO size, KiB", "size_bs", D("block_size_kib"), unit="KiB", default=8.0
        )
        rf, problems["size_rf"] = inputs.number(
            c[3], "Read share, 0-1", "size_rf", D("read_fraction"), step=0.05, format="%.2f", default=0.7
        )
    if dba:
        # the database as the SLA and Compare pages take it (database_inputs.basics: NOPM or TPM), and how
        # many of it; the rate's box keeps one label in the form ("HammerDB rate"), its kind beside it
        st.caption(fmt.md(database_inputs.SIZE_ENGINE_CAPTION))
        c = st.columns(5)
        # a fifth of 1024 px: labels of one line, so that the boxes stand on one line too
        db_fields, db_errors = database_inputs.basics(
            SIZE_DB, columns=c, rate_label="HammerDB rate", kind_label="NOPM or TPM"
        )
        for (_col, err), key in zip(db_errors, ("size_gb", "buffer_pool_gb", "rate")):
            problems[f"{SIZE_DB}{key}"] = err
        db_gb, db_bp = db_fields["size_gb"], db_fields["buffer_pool_gb"]
        db_n, problems["size_db_n"] = inputs.number(
            c[4],
            "Databases",
            "size_db_n",
            (1, 100_000, False),
            integer=True,
            step=1,
            default=20,
            help="how many databases of this kind",
        )
    if totals or dba:
        c = st.columns(4)
        lat, problems["size_lat"] = inputs.number(
            c[0], "Latency target, ms", "size_lat", D("latency_target_ms"), unit="ms", format="%.3f", default=1.0
        )
        stat = c[1].selectbox("Latency statistic", ["mean", "p90", "p99"], key="size_stat")
        # the DBA mode's first values fit its database (a 128 GB buffer pool at 20,000 NOPM): its first "Size it"
        # warned that 16 GB is below the buffer pool and 4 vCPUs carry 35,098 of the 46,465 TPM asked (review
        # 2026-11-29). 8 vCPUs: the VM of the same database in examples/demand-hammerdb.json; its RAM follows the
        # buffer pool (below). Each mode has its own boxes: one
        # pair seeded by whichever mode drew first gave the DBA mode the totals' 4 vCPUs and 16 GB, and "the 16 GB
        # typed is below that" where nothing was typed (browser review 2026-11-30).
        vcpu_key, ram_key = ("size_db_vcpus", "size_db_ram_gb") if dba else ("size_vcpu_db", "size_ram_db")
        vcpu_db, problems[vcpu_key] = inputs.number(
            c[2], "vCPUs per database", vcpu_key, D("vcpus_per_db"), integer=True, step=1, default=8 if dba else 4
        )
        # the DBA mode's RAM follows the buffer pool unless typed (vm_ram_gb, the rule the demand file and the docs
        # state): a fixed 160 GB stayed under a 32 GB pool, and RAM bound at 12 nodes where 7 carried the databases
        # (account-manager walk 2026-11-30)
        ram_db, problems[ram_key] = inputs.number(
            c[3],
            "RAM per database, GB" + (" (blank: from the buffer pool)" if dba else ""),
            ram_key,
            D("ram_gb_per_db"),
            unit="GB",
            default=None if dba else 16.0,
            blank=(f"{vm_ram_gb(db_bp):,.0f} (from the buffer pool)" if _pool(db_bp) else "from the buffer pool")
            if dba
            else None,
            help=f"Blank: {VM_RAM_RULE}." if dba else None,
        )
        if dba and ram_db is None and _pool(db_bp):
            c[3].caption(f"Derived: {fmt.num(vm_ram_gb(db_bp), 0, 'GB')} for the {fmt.num(db_bp, 0, 'GB')} buffer pool")
    c = st.columns(4)
    if totals:
        dbs, problems["size_dbs"] = inputs.number(
            c[0], "Databases", "size_dbs", (0, 100_000, False), integer=True, step=1, default=40
        )
    # a yearly rate, as a customer says it ("20 % a year for 3 years") and as the multi-year view speaks; the demand
    # holds the total over the period, said beside it (the box took the total: 72.8 % typed for 20 % a year;
    # account-manager walk 2026-11-30). The first value is the shipped examples' +20 % over 36 months.
    growth_year, problems["size_growth_year"] = inputs.number(
        c[1] if totals else c[0],
        "Growth, % a year",
        "size_growth_year",
        (0.0, 1000.0, False),
        unit="%",
        format="%.2f",
        default=growth_pct_per_year(20.0, GROWTH_PERIOD_MONTHS),
        help="how much the databases grow each year, compounded over the growth period; the cluster is sized for "
        "the grown demand",
    )
    growth_months, problems["size_growth_months"] = inputs.number(
        c[2] if totals else c[1],
        "Growth period, months",
        "size_growth_months",
        D("growth_period_months"),
        integer=True,
        step=1,
        default=GROWTH_PERIOD_MONTHS,
        help="the months the growth goes on for; the cluster is sized for the demand at its end. The cost's "
        "amortisation period does not change it",
    )
    growth = None
    if not problems["size_growth_year"] and not problems["size_growth_months"]:
        growth = growth_pct_over(growth_year, growth_months)
        if growth > MAX_GROWTH_PCT:  # the demand's bound on its total, in the form's words
            problems["size_growth_year"] = (
                f"Growth: {growth_year:g} % a year for {growth_months:g} months is +{growth:,.0f} % in all; the "
                f"model takes at most +{MAX_GROWTH_PCT:,.0f} % over the period"
            )
        else:
            (c[1] if totals else c[0]).caption(growth_words(growth, growth_months))
    db_peak = True
    db_given: dict[str, float] = {}  # the shares and hit ratio the DBA boxes give beside basics()
    if dba:  # the growth row's free column: the SLA page's choice, for the sizing (Demand.database_need)
        st.session_state.setdefault("size_db_peak", True)
        db_peak = c[2].checkbox(
            "Size for its peak",
            key="size_db_peak",
            # which version is assumed: the box did nothing at the default 2019 and said nothing of it (DBA walk
            # 2026-11-30)
            help="the database's peak IOPS (SQL Server 2014's checkpoint bursts write more than its mean); "
            "off: its mean. Indirect checkpoints (SQL Server 2016 and later) write steadily: peak and mean agree. "
            "SQL Server 2019 is assumed unless a demand file or the Compare page's description names another version",
        )
        # what growth grows: more databases like this one (a tenant count, rounded up to whole databases) or these
        # databases' data and rate. One 50,000 GB database with +20 % was sized as two (150 TB), the rounding doubling
        # it (Size page walk 2026-12-03): the choice is the demand's (Demand.growth_in), its default kept
        st.session_state.setdefault("size_growth_in", "databases")
        growth_in = c[3].selectbox(
            "Growth adds",
            list(GROWTH_IN_WORDS),
            format_func=GROWTH_IN_WORDS.__getitem__,
            key="size_growth_in",
            help="more databases like this one: the count grows, rounded up to whole databases (a tenant count); "
            "data and rate: each of these databases grows in its data and its transactions, the count as given",
        )
        if growth_in == "databases" and growth and isinstance(db_n, int | float) and db_n >= 1:
            grown = whole_databases(db_n * (1.0 + growth / 100.0))  # the demand's own rounding
            if grown / db_n - 1.0 > 1.5 * growth / 100.0:  # the rounding, not the growth, sets the count
                c[3].caption(
                    f"{count(int(db_n), 'database')} {'grows' if db_n == 1 else 'grow'} to {grown} "
                    f"({pct(grown / db_n - 1.0, sign=True)}, not +{growth:,.0f} %): whole databases. "
                    f'Set Growth adds to "{GROWTH_IN_WORDS["size_and_rate"]}" to grow these instead.'
                )
        # the space beside the data files: capacity counted the data alone, 24 x 1 TB databases needing 24.0 TB with no
        # log or tempdb (DBA review 2026-11-30)
        c = st.columns(4)
        for (f, label, key), col in zip(SPACE_BOXES, c):
            lo, hi, _ = inputs.model_bounds(Database, f)
            share, problems[key] = inputs.number(
                col,
                label,
                key,
                (100.0 * (lo or 0.0), 100.0 * (hi or 0.0), False),
                unit="%",
                default=100.0 * DEFAULT_SHARES[f],
                help=fmt.md(SOURCES[f]),
            )
            # the default left unset, as a demand file leaves it: the same demand either way
            if share is not None and share / 100.0 != DEFAULT_SHARES[f]:
                db_given[f] = share / 100.0
        # the CLI's hit-ratio override, which this page lacked (DBA review 2026-11-30)
        hit, problems["size_db_buffer_hit_ratio"] = database_inputs.hit_ratio(SIZE_DB, c[2])
        if hit is not None:
            db_given["buffer_hit_ratio"] = hit
        c[3].caption(
            "Each database's capacity is its data, its transaction log and its tempdb: the log's share from "
            "Microsoft's 10-25 % starting point (its upper end), tempdb's an assumption (Microsoft gives no share). "
            "Give measured sizes over the data's where you have them."
        )
        st.caption(fmt.md(database_inputs.TPROC_C_WORDS))
    c = st.columns(4)
    ft = c[0].selectbox(
        "Fault tolerance",
        list(FT_LABELS),
        format_func=FT_LABELS.__getitem__,
        key="size_ft",
        help="the failures the cluster survives with the data available: "
        + "; ".join(
            f"{FT_LABELS[f]}: {fault_tolerance_label(f, stack)}"
            # what it takes of a Ceph or vSAN pool (the default sized Ceph at four copies with no word; browser
            # review 2026-11-30); in the help, which follows the stack, not under the box, which a form's
            # choice reaches only when it is sent
            + (f" ({takes})" if (takes := fault_tolerance_takes(f, stack)) else "")
            for f in FT_LABELS
        ),
    )
    # defaults seeded in the state, not passed as value=: a kept value would clash with a widget default
    for k in ("size_n1", "size_validated"):
        st.session_state.setdefault(k, True)
    n1 = c[1].checkbox(
        "N+1", key="size_n1", help="capacity (rebuilt) and performance still meet the demand with one node down"
    )
    policy = POLICY_WORDS[stack]
    # Azure Local's validated nodes are an S2D programme: not offered for another stack (its value is kept)
    validated = stack == "s2d" and c[2].checkbox(
        "Azure Local validated nodes",
        key="size_validated",
        help="only chassis whose record lists Azure Local (validated_for)",
    )
    # beside N+1 where Azure Local's box is not drawn (no gap in the row)
    parity = bool(policy["parity"]) and c[3 if stack == "s2d" else 2].checkbox(
        policy["parity"], value=False, key="size_parity", help=policy["parity_help"]
    )
    c = st.columns(4)
    netok = bool(policy["network"]) and c[0].checkbox(
        policy["network"], value=False, key="size_net", help=policy["network_help"]
    )
    budget, problems["size_budget"] = inputs.number(
        c[1],
        "Budget, USD/month (0 = none)",
        "size_budget",
        (0, 1e9, False),
        unit="USD/month",
        format="%.0f",
        default=0.0,
    )
    max_nodes, problems["size_max_nodes"] = inputs.number(
        c[2], "Most nodes", "size_max_nodes", D("max_nodes"), integer=True, step=1, default=16
    )
    if lowered := st.session_state.pop("size_max_nodes_note", None):
        c[2].caption(lowered)
    top, problems["size_top"] = inputs.number(
        c[3], "Designs to return", "size_top", (1, 20, False), integer=True, step=1, default=5
    )
    # N+1's re-protection excluded every 2-node cluster and the 3-node three-way mirror with no way to accept them
    # (S2D specialist's audit): the choice, as the sizer's explanation names it
    c = st.columns(4)
    st.session_state.setdefault("size_n1_after", "re-protected")
    n1_after = c[0].selectbox(
        "N+1 after a node loss",
        list(N1_AFTER_WORDS),
        format_func=N1_AFTER_WORDS.__getitem__,
        key="size_n1_after",
        help="with N+1: re-protected asks the survivors to rebuild every copy of the data (no 2-node cluster, no "
        "3-node three-way mirror); online accepts the data online with fewer copies where too few servers survive "
        "to rebuild it (Microsoft supports two-way or nested mirror on two servers and three-way mirror on three), "
        "re-protected where they can. Performance with a node down is checked either way",
    )
    if kept:  # said where the form is sent: "Size it" sizes them too
        st.caption(f"Kept from the demand in force (the form does not show them): {_kept_words(kept)}.")
    go = st.form_submit_button("Size it", type="primary")
if go:
    shown = [m for m in problems.values() if m]
    # a typo keeps the results on screen (the last demand stays): the error says what to correct
    failed = bool(shown)
    for m in shown:
        inputs.show(st, m)
    if not shown:
        raw = {k: v for k, v in kept.items() if k != "database"} | {
            "growth_pct": growth,
            "growth_period_months": int(growth_months),
            "n_plus_one": n1,
            "n_plus_one_after_loss": n1_after,
            "max_nodes": int(max_nodes),
            "fault_tolerance": ft,
            "allow_parity": parity,
            "allow_network_warning": netok,
            "stack": stack,
        }
        if validated and stack == "s2d":  # an Azure Local program: S2D's only
            raw["validated_for"] = "Azure Local"
        if budget > 0:
            raw["budget_usd_per_month"] = budget
        if mode == "totals":
            raw |= {
                "total_iops": iops,
                "capacity_tb": tb,
                "latency_target_ms": lat,
                "latency_statistic": stat,
                "vcpus_per_db": int(vcpu_db),
                "ram_gb_per_db": ram_db,
                "block_size_kib": bs,
                "read_fraction": rf,
            }
            if dbs > 0:
                raw["databases"] = int(dbs)
        elif mode == DBA_MODE:
            # the demand's totals, IO size and read share follow from the description (planner.models.demand)
            raw |= {
                "database": {"name": "database", **kept.get("database", {}), **db_fields, **db_given},
                "databases": int(db_n),
                "latency_target_ms": lat,
                "latency_statistic": stat,
                "vcpus_per_db": int(vcpu_db),
                "database_need": "peak" if db_peak else "mean",
                "growth_in": st.session_state.get("size_growth_in", "databases"),
            }
            need_ram = vm_ram_gb(db_bp)
            if ram_db is None:  # not typed: the demand derives it from the buffer pool (planner.models.demand)
                pass
            elif ram_db >= need_ram:  # below it: the demand takes the buffer pool and what the VM needs beside it
                raw["ram_gb_per_db"] = ram_db
            else:  # said, not silent (browser review 2026-11-28: 16 GB and 128 GB gave the same result)
                # not the buffer pool alone: Windows and SQL Server's other memory need room beside it (a VM of
                # exactly its 64 GB pool; browser review 2026-11-30)
                st.info(
                    f"RAM per database: {fmt.num(need_ram, 0, 'GB')}, the {fmt.num(db_bp, 0, 'GB')} buffer pool and "
                    f"what Windows and SQL Server need beside it (the {fmt.num(ram_db, 0, 'GB')} typed is below "
                    "that).",
                    icon=":material/memory:",
                )
        else:
            raw["tier_counts"] = {k: int(v) for k, v in counts.items() if v > 0}
            if state.tiers_json() != state.default_tiers_json():
                raw["tiers"] = json.loads(state.tiers_json())
        if "tier_counts" in raw and not raw["tier_counts"]:
            # in the form's words, not the field's ("tier_counts: every count is 0"; finance walk 2026-11-30)
            failed = True
            st.error("Every tier's count of databases is 0: give at least one database in a tier.")
        else:
            try:
                state.set_demand(Demand.model_validate(raw).model_dump_json(), int(top), form_mode=mode)
            except ValidationError as exc:
                failed = True
                st.error(fmt.md(format_validation_error(exc)))
    if failed and state.demand_json():
        st.caption("The results below are for the previous demand: correct the form and press **Size it** again.")


def _results(demand_json: str) -> None:
    """Everything below the form (a function, so an early end is a return: st.stop
    would skip the sidebar, which app.py draws after the page)."""
    demand = Demand.model_validate_json(demand_json)
    if estate_file := st.session_state.get("size_demand_estate"):
        # the file the results are for, named: a file that was not read (the reader's error, or one the box refused
        # for its size) left the last file's results under it, unlabelled (DBA walk 2026-11-30). Labelled, not
        # cleared: the box cannot tell a file it refused from one removed, and a removed file's demand stays the
        # session's until another replaces it
        st.caption(f"The results below are for the estate read from {fmt.md(shown_value(estate_file))}.")
    chosen = st.session_state.get("size_stack", demand.stack)
    if chosen != demand.stack:
        # the stack changed above the results: they stayed, unmarked, for the stack before (browser review
        # 2026-11-29)
        st.warning(
            f"The results below are for {STACK_SHORT[demand.stack]}: press **Size it** to size for "
            f"{STACK_SHORT[chosen]}.",
            icon=":material/info:",
        )
    # the form's mode changed above the results: they stayed, unmarked, for the demand of the mode before
    # (browser review 2026-11-29: the DBA inputs above a 200-database totals result)
    sized_mode = st.session_state.get("size_demand_mode")
    if sized_mode is not None and st.session_state.get("size_mode", sized_mode) != sized_mode:
        st.warning(
            f"The results below are for the demand described by {sized_mode}: press **Size it** to size for the "
            "form above.",
            icon=":material/info:",
        )
    if state.demand_tiers_changed():
        st.warning(
            "The tiers changed on the SLA & tiers page since this demand was sized: the results below are for the "
            "tiers as they were. Press **Size it** to size with the new ones.",
            icon=":material/info:",
        )
    remembered = background.SIZED.get(_sized_key(demand_json, state.sizing_top())) is not None
    try:
        res = _sized(demand_json, state.sizing_top())
    except PlannerError as exc:
        st.error(fmt.md(exc))
        return
    timing = st.empty()  # filled once the page is built: the wall time, not only the search's
    try:
        _shown_results(demand, demand_json, res)
    finally:
        took = f"this page took {time.perf_counter() - _STARTED:.2f} s on the server"
        searched = (
            f"Searched {res['designs_screened']:,} designs (never built one by one), evaluated "
            f"{res['designs_evaluated']:,} in the performance model: "
            if res["designs_evaluated"]
            # the rules refused every part choice before the model saw one (the explanation under this line, drawn
            # after it, says why):
            # "Searched 0 designs ... evaluated 0" read as a search that never ran
            # the budget stopped it before the model (browser review 2026-11-30: blamed on the rules)
            else "No design reached the performance model (none within the budget): "
            if res.get("search", {}).get("stopped")
            else "No design reached the performance model (the rules below refused every choice of parts): "
        )
        timing.caption(
            searched
            + (
                f"{took}; the result was remembered from an earlier search of {res['seconds']:.2f} s."
                if remembered
                else f"{took}, the search took {res['seconds']:.2f} s of it."
            )
        )


def _pareto(results: list[dict], rows: list[dict], front: list[dict]) -> None:
    """The designs' cost against guaranteed IOPS, marker the usable capacity (charts.pareto)."""
    on_front = {x["name"]: x["on_front"] for x in front}
    st.plotly_chart(
        charts.pareto(
            [
                {
                    "cost": r["whole_usd_per_month"],
                    "guaranteed_iops": r["guaranteed_iops"],
                    "usable_tb": r["usable_capacity_tb"],
                    "name": r["design"]["name"],
                    "label": rows[i]["#"],
                    "on_front": on_front[r["design"]["name"]],
                }
                for i, r in enumerate(results)
            ]
        ),
        width="stretch",
        key="size_pareto",
    )


def _latency(best: dict, demand: Demand) -> None:
    """The best design's latency at the demand's load as the Performance page and the proposal give it
    (the library's report of the design under the demand's own workload): the mean beside the 99th
    percentile, a target on the mean that the 99th percentile exceeds, and the model's calibrated domain.
    The proposal showed a p99 above the target the Size page had called met on its mean."""
    from planner.engine.loads import demand_as_workload
    from planner.results.report import percentile_shape_note
    from planner.sizing.checks import p99_over_mean_targets
    from planner.sizing.document import latency_band_sentence

    w = demand_as_workload(demand, best["design"]["nodes"])
    rep = state.report(state.canonical(best["design"]), state.canonical(w.model_dump(mode="json")))
    p99 = best.get("p99_read_latency_ms", rep.get("p99_read_latency_ms"))
    st.caption(
        # the VM's, as every latency label says which (DBA review 2026-11-30); the figures and their bands the sizer's
        # (`size` gives them: the page had computed these itself; honesty audit 2026-12-01)
        "Latency at the demand's load, as the VMs see it (VM latency): mean "
        + fmt.band(best["vm_latency_ms"], best.get("vm_latency_ms_low"), best.get("vm_latency_ms_high"), fmt.ms)
        + (
            "; read, 99th percentile "
            + fmt.band(p99, best.get("p99_read_latency_ms_low"), best.get("p99_read_latency_ms_high"), fmt.ms)
            if p99 is not None
            # in words: "read, 99th percentile –." of a buffer pool holding the database (DBA walk 2026-11-30)
            else f"; no read latency ({rep.get('p99_read_latency_ms_note') or 'no reads'})"
        )
        + "."
    )
    # a percentile target on Ceph or vSAN is judged on S2D's measured tail shape: the proposal's words
    if shape := percentile_shape_note(demand.stack, demand.summary()["classes"]):
        st.caption(fmt.md(sentence(shape)))
    over = p99_over_mean_targets(rep, demand.summary()["classes"], w.read_fraction)
    if over:
        # a demand in tiers names its tiers, even one, and sends the reader to where a tier's statistic is set: the
        # tiers' form has no statistic box ("choose p99 as the latency statistic" with none on the page, and no word
        # of which tier; verification walk 2026-11-30)
        tiered = demand.tier_counts is not None
        targets = ", ".join(
            f"{fmt.md(c['name'])} {c['latency_target_ms']:g} ms"
            if tiered or len(over) > 1
            else f"{c['latency_target_ms']:g} ms"
            for c in over
        )
        where = (
            "set that tier's latency statistic to p99 on the SLA & tiers page"
            if tiered and len(over) == 1
            else "set those tiers' latency statistic to p99 on the SLA & tiers page"
            if tiered
            else "choose p99 as the latency statistic above"
        )
        st.warning(
            f"The latency target is on the mean: the 99th percentile read latency ({fmt.ms(p99)}) is above "
            f"the {targets} target{'s' if len(over) > 1 else ''}; {where} to size for it.",
            icon=":material/speed:",
        )
    if band := latency_band_sentence(rep, demand.summary()["classes"], "band"):
        st.caption(f":orange[{fmt.md(band)}]")
    if extrapolated := fmt.extrapolation_note(rep):
        st.warning(extrapolated, icon=":material/explore:")


def _vsan_addon_words(results: list[dict], rows: list[dict]) -> str:
    """What the ranking leaves out of vSAN designs, in one sentence: the capacity add-on beyond each design's VMware
    entitlement, which has no price (the sizer's ``vsan_capacity_licence``, the cost's own block), or "" when no
    ranked design needs one. The cost of a design that needs it is low by it, so the order can be too."""
    need = [
        (row["#"], r["vsan_capacity_licence"]["addon_tib"])
        for r, row in zip(results, rows)
        if "vsan_capacity_licence" in r
    ]
    if not any(tib > 0 for _, tib in need):
        return ""
    each = "; ".join(f"{name}: {fmt.num(tib, 1, 'TiB') if tib > 0 else 'none'}" for name, tib in need)
    return (
        " VMware's vSAN capacity add-on, for the raw capacity beyond a design's subscription entitlement, has no price "
        f"here: these costs and their order leave it out ({each})."
    )


def _shown_results(demand: Demand, demand_json: str, res: dict) -> None:
    """The sizing result on the page."""
    # a slot for each note above the results, drawn or left empty: a note that appeared above them
    # would move every element after it to another place in the page, and the browser would build
    # them all anew ("Use this design": 0.9 s) instead of updating them in place
    loaded_slot, explained_slot = st.empty(), st.empty()
    if loaded := st.session_state.pop("size_loaded", None):
        label, mix = loaded
        loaded_slot.success(
            f"Loaded **{state.plain(label)}** as the current design, with the demand's own workload "
            f"(**{state.SIZED}** in the sidebar): the Design, Performance and SLA & tiers pages now show this "
            "design under it" + (", and the SLA page's tier mix holds the demand's databases." if mix else ".")
        )
    # the best that fails a rule is no answer: said as an error, as no design at all is (browser walk 2026-12-01: a
    # warning above "best ... $11,068/month" read as a caveat to a design that met the demand)
    met = bool(res["best"]) and res["best"].get("feasible", True)
    if res.get("explanation"):
        text = res["explanation"]
        if res["best"] and not met:
            text = "No design meets the demand; the closest is below. " + first_upper(text)
        (explained_slot.warning if met else explained_slot.error)(fmt.said(text))
    # the database's buffer pool as given, whatever the design: a pool ten times its data was sized into 5,718 GB VMs
    # and "no design meets" without a word of why (browser walk 2026-12-01)
    for warned in (res.get("demand") or {}).get("database_warnings") or []:
        st.warning(fmt.said(warned))

    def _rejections() -> None:
        rej = res.get("rejected") or {}
        if not rej:
            return
        # with a design found, the rules are a closed section that holds nothing until opened (the table is
        # the browser's work on every sizing otherwise); with none, they are the answer and shown at once
        if res["best"]:
            section = st.expander(
                "Rules that rejected other candidates, with their sources", key="size_rejected", on_change="rerun"
            )
            if not section.open:
                return
        else:
            section = st.container()
        with section:
            # a static table that wraps its text: the grid cut the checks, stages and examples off ("stora",
            # "…HDD needs a") and led with the rules' internal names (capacity_with_reserve)
            st.markdown(
                fmt.table(
                    [
                        {
                            "Rule": customer_words(v["title"]),  # "1 replica", not "replica-1"
                            "Candidates rejected": fmt.num(v["count"], 0),
                            "Checked at": v["stage"],
                            # parts by name, no field names or module paths: the ids stay in the Sizing JSON
                            "Example": customer_words(v["example"]),
                            "Source": customer_words(v["source"]),
                        }
                        for v in rej.values()
                    ]
                )
            )
            st.caption(
                "A candidate can fail several rules; counts are part choices or designs at the stage the rule applies."
            )

    if not res["best"]:
        _rejections()
        return
    best = res["best"]
    results = [best] + res["alternatives"]
    wholes = [costs.whole(state.canonical(r["design"]), demand=demand_json) for r in results]
    m = st.columns(5)
    m[0].metric(
        "Whole cost/month" if met else "Whole cost/month (closest, not met)",
        fmt.usd(wholes[0]["monthly"]["total_usd_per_month"]),
        help="the cheapest design's whole cost: servers, switches, optics and cables, licences of the platform, "
        "SQL Server when counted, support, power and rack space; the sizer ranks designs by it. The cluster "
        f"cost (the same without the network and SQL Server) is {fmt.usd(best['cost_usd_per_month'])} per month here",
    )
    m[1].metric("Nodes", best["design"]["nodes"])
    needed_tb = demand.totals()[1]
    # a need below 0.01 TB read "0.00 TB needed" (two 1 GB databases; DBA walk 2026-12-04): as many decimals as
    # keep it from rounding to nothing
    needed = fmt.num(needed_tb, fmt.shown_decimals(needed_tb), "TB")
    m[2].metric(
        "Usable capacity",
        fmt.tb(best["usable_capacity_tb"]),  # as every page writes it (271.10, not 271.1)
        delta=f"{needed} needed",
        delta_color="off",
        delta_arrow="off",
        # what the need holds: the data files alone were counted, with no log or tempdb (DBA review 2026-11-30)
        help="the design's usable capacity; the demand needs "
        + (fmt.md(note) if (note := demand.capacity_note()) is not None else f"{needed} (with growth), as given"),
    )
    if (note := demand.capacity_note()) is not None:
        st.caption(fmt.md(f"Capacity needed: {needed}, {note}."))
    if (note := demand.volume_note()) is not None:  # a database beyond one S2D volume (stop 55 walk)
        st.caption(fmt.md(sentence(note)))
    if demand.database is not None:
        # the model's central assumption, which only the CLI said (DBA review 2026-11-30)
        st.caption(fmt.md(database_inputs.reads_words(io_demand(demand.database).buffer_hit_note)))
    if (log_line := log_basis_line(res.get("demand") or {})) is not None:
        st.caption(log_line)
    # "Guaranteed IOPS 1,395,367" beside "1,865,617 IOPS at saturation" and the pages' "IOPS 1,200,000" read as
    # three answers to one question (browser review 2026-11-30): the tile says which it is and what is needed
    needed_iops = demand.totals()[0]
    m[3].metric(
        "IOPS within target",
        f"{best['guaranteed_iops']:,.0f}",
        delta=f"{needed_iops:,.0f} needed",
        delta_color="off",
        delta_arrow="off",
        help="the most IOPS of the demand's mix the cluster carries with "
        + ("every tier within its latency target" if demand.tier_counts else "the demand's latency target held")
        + (", one node down" if demand.n_plus_one else "")
        + f"; the databases need {needed_iops:,.0f} at once (with growth). Under Against the demand, IOPS at "
        "saturation is higher: the most the cluster carries at all, its latency growing without bound there. "
        "The Design and Performance pages show the demand's own load. The band under it: "
        + (best.get("bands_note") or "none known")
        + ".",
    )
    if iops_band := fmt.band_text(best.get("guaranteed_iops_low"), best.get("guaranteed_iops_high")):
        # the headline's held-out band, from the sizer (`size` gives it), as every figure's (honesty audit 2026-12-01)
        m[3].caption(f"{iops_band} IOPS")
        if best.get("guaranteed_iops_low_note"):
            # a band from 0 says why (regression walk 2026-12-01: "band 0-1,182,083" read as "could be zero IOPS")
            m[3].caption(fmt.md(sentence(best["guaranteed_iops_low_note"])))
    elif best.get("guaranteed_iops_note"):
        # set with one node down: no range, said as the proposal says it (browser walk 2026-12-01)
        m[3].caption(fmt.md(sentence(best["guaranteed_iops_note"])))
    # a design no resource sized is the smallest cluster the rules allow: said so, not "Binding: RAM" at 71.8x
    # (planner.sizing.checks.minimum_cluster; stop 55 walk)
    floor = best.get("size_set_by")
    chrome.word_metric(
        m[4],
        "Binding",
        binding_said(best),
        help=(f"Every resource has room; the first to run out: {binding_words(best)}. " if floor else "")
        + binding_help(best),
    )
    st.caption(fmt.md(_described(best["design"])))
    # a database VM too small for its rate is said once, by the sizer's explanation above the results (the page had
    # its own warning besides, with another remedy; browser review 2026-11-29)
    _latency(best, demand)
    rows = [_row(i, r, whole=wholes[i]) for i, r in enumerate(results)]
    shown = [_shown(_row(i, r, named=True, whole=wholes[i])) for i, r in enumerate(results)]
    st.markdown(fmt.table([{k: x[k] for k in SUMMARY_COLUMNS} for x in shown]))
    st.caption(
        "Ranked by the whole cost: the cluster cost (servers, platform licences, support, power, rack), "
        "switches, optics and cables, and SQL Server's licences when counted."
        + (f" {first_upper(res['search']['network_note'])}." if res["search"].get("network_note") else "")
        + (f" {first_upper(res['search']['chassis_note'])}." if res["search"].get("chassis_note") else "")
        + _vsan_addon_words(results, rows)
        + " Their parts:"
    )
    st.markdown(fmt.table([{k: x[k] for k in PARTS_COLUMNS} for x in shown]))
    # the chart is the browser's heaviest work on a sizing (a new plotly figure: about 0.4 s on two
    # cores): it is drawn when its section is opened, and stays open for the next sizings
    chart = st.expander(
        "Chart: whole cost against IOPS within target and usable capacity", key="size_chart", on_change="rerun"
    )
    if chart.open:
        with chart:
            _pareto(results, rows, res["pareto"])
    _rejections()

    st.header("One design in detail")  # an h2 under the page title (the outline jumped h1 -> h3)
    pick = st.selectbox(
        "Design",
        list(range(len(results))),
        format_func=lambda i: (
            f"{rows[i]['#']}: {_described(results[i]['design'])} — {fmt.usd(rows[i]['whole_usd_per_month'])}/month"
        ),
        key="size_pick",
    )
    r = results[pick]
    # a callback, run before the page's next run: that one run draws the page with the design in use (a
    # st.rerun() after the click sent the browser the page up to the button, then the whole page again)
    st.button(
        "Use this design (with the demand's workload)",
        key="size_use_best",
        type="primary",
        on_click=_use,
        args=(r, demand),
    )
    r_json = state.canonical(r["design"])
    costs.verdict_panel(costs.verdict(r_json), "sv", title="This design against the demand")
    # only the open tab is built (a tab switch reruns the page): the cost breakdown's, the licences' and
    # the multi-year view's charts are drawn when asked for, not on every sizing
    tab_cost, tab_rules, tab_lic, tab_years = st.tabs(
        ["Whole cost and TCO", "Rules", "Licensing options", "Multi-year view"], key="size_tabs", on_change="rerun"
    )
    if tab_cost.open:
        with tab_cost:
            costs.cost_breakdown(
                wholes[pick],
                "size_cost",
                (r.get("multi_year") or {}).get("first_year_needing_more_nodes"),
                r["design"]["nodes"],
            )
    if tab_rules.open:
        with tab_rules:
            from planner.models.catalog import load_catalog
            from planner.physics.rule_sources import rule_source
            from planner.physics.rules import WHOSE_WORDS, rule_of

            # the chassis figures a rule cites, said as recalled where its record says so, as the proposal does
            chassis = load_catalog().chassis.get(str((r["design"].get("node") or {}).get("chassis")))
            st.dataframe(
                [
                    {
                        "Rule": rule_of(k, demand.stack).title,
                        # whose each rule is, as the proposal's Rules checked says it (vSAN specialist's walk)
                        "Whose": WHOSE_WORDS[rule_of(k, demand.stack).whose],
                        # a programme's listing nothing confirms for a part is a warning, as the proposal says it
                        "Passed": ("not confirmed" if v.get("unconfirmed") else "yes") if v["passed"] else "NO",
                        "This design": customer_words(v["reason"]),
                        "Source": customer_words(rule_source(rule_of(k, demand.stack).source, chassis)),
                    }
                    for k, v in r["checks"].items()
                ],
                hide_index=True,
                width="stretch",
            )
            cn = r["compute"]
            if demand.n_plus_one:
                st.caption(
                    f"Per node: {tidy(cn['vcpus_per_node_needed'])} of {cn['vcpus_per_node_available']:,.0f} vCPUs, "
                    f"{cn['ram_gb_per_node_needed']:,.0f} of {cn['ram_gb_per_node']:,.0f} GB RAM on {cn['hosts']} "
                    "hosts (VMs of a failed node restart on the survivors)."
                )
    if tab_lic.open:
        with tab_lic:
            b = _bom(json.dumps(r["design"]), costs.assumptions_json())
            if any(o["total_usd"] > 0 for o in b["licensing"]):
                st.plotly_chart(charts.licence_bars(b["licensing"]), width="stretch", key="size_licences")
            else:  # upstream Ceph: one bar of $0 on a -1 to 1 USD axis said nothing (browser review 2026-11-30)
                st.caption(
                    "No licence fee: upstream Ceph is free software. A commercial Ceph subscription is not priced "
                    "here; the whole cost's support line is the hardware's."
                )
            st.dataframe(
                [
                    {
                        "Option": o["name"],
                        # a Ceph or vSAN option's Windows guests are billed too: "Cores billed 0" stood beside upstream
                        # Ceph's $4,514 a month of Datacenter licences (pre-sales Ceph walk 2026-12-03)
                        "Cores billed": f"{o['cores_billed']:,}"
                        + (
                            f" for the stack + {guests:,} Windows Server Datacenter for the guests"
                            if (guests := o.get("windows_guest_core_licences"))
                            else ""
                        ),
                        "USD/month": fmt.usd(o["usd_per_month"]),
                        "USD over the period": fmt.usd(o["total_usd"]),
                        "Windows guests": "yes" if o["windows_guests_included"] else "no",
                        # the raw a VMware subscription's vSAN entitlement leaves to the add-on, which no price holds:
                        # VVF's $7,730 stood beside VCF's $13,750 with no word of its 307 TiB (vSAN specialist's walk)
                        **(
                            {
                                "vSAN add-on (not priced)": f"{o['vsan_addon_tib']:,.1f} TiB"
                                if o["vsan_addon_tib"]
                                else "none"
                            }
                            if "vsan_addon_tib" in o
                            else {}
                        ),
                        "Basis": o["basis"],
                    }
                    for o in b["licensing"]
                ],
                hide_index=True,
                width="stretch",
            )
            st.caption(
                (
                    "Storage Spaces Direct's licensing side by side, on Azure Local (a host fee per physical core) or "
                    "on Windows Server (perpetual licences)"
                    if r["design"].get("stack", "s2d") == "s2d"
                    else "The storage stack's licensing options side by side"
                )
                + f"; the whole cost carries {fmt.md(wholes[pick]['licence_name'])}. "
                f"Licence prices: editable assumptions on the SLA & tiers page ({wholes[pick]['licence_seen']})."
                # an option that leaves the Windows guests out says so beside its "no" (finance walk 2026-11-30)
                + "".join(
                    f" {fmt.md(sentence(n))}"
                    for n in dict.fromkeys(o["guests_note"] for o in b["licensing"] if o.get("guests_note"))
                )
                # each VMware option's vSAN entitlement, the add-on its price leaves out (the CLI's bom says it)
                + "".join(
                    f" {fmt.md(o['name'].split(' (')[0])}: {fmt.md(sentence(o['note']))}"
                    for o in b["licensing"]
                    if o.get("vsan_addon_tib")
                )
            )
    if tab_years.open:
        with tab_years:
            my = r.get("multi_year") or costs.years_view(json.dumps(r["design"]), demand_json)
            if my is None:  # the library refused the grown demand
                st.caption("No multi-year view for this design.")
            else:
                st.plotly_chart(charts.multi_year(my), width="stretch", key="size_years")
                from planner.sizing.checks import growth_sentence

                # the sentence the proposal and the CLI give, from the same rows (growth_sentence)
                st.caption(my["note"] + ". " + growth_sentence(my))

    # the proposal's cover fields, its buttons and the files are a closed section until asked for, as
    # on the Performance page: about a third of the browser's work on a sizing otherwise
    files = st.expander(
        "Proposal for the customer (PDF, HTML, Word, Excel) and the sizing's files",
        key="size_files",
        on_change="rerun",
    )
    if not files.open:
        return
    with files:
        from planner.engine.loads import demand_as_workload

        # which design the document prices: the sized one, which the session's may no longer be (finance walk
        # 2026-11-30: a 4-node proposal's prices beside the SLA page's for the 5 nodes the Design page was changed to,
        # both read as "this design")
        if _design_key(state.design_json()) != _design_key(r_json):
            used = json.loads(state.design_json())
            st.caption(
                fmt.md(
                    f"This document prices the sized design above ({_described(r['design'])}). The design in use on "
                    f"the Design, Performance and SLA pages is another ({_described(used)}): their figures and "
                    "prices are its own, and its document is on the Performance page."
                )
            )
        w = demand_as_workload(demand, r["design"]["nodes"])
        export.proposal_panel(
            "size",
            r_json,
            state.canonical(w.model_dump(mode="json")),
            demand_json,
            state.existing_json(),
        )
        if not state.presenter():
            e = st.columns(2)
            e[0].download_button("Designs CSV", export.to_csv(rows), file_name="sizing.csv", mime="text/csv")
            e[1].download_button(
                "Sizing JSON", jsonio.dumps(res, indent=1), file_name="sizing.json", mime="application/json"
            )


up = st.file_uploader(
    "Or load a demand file (JSON, max 1 MB), as saved from this page or written for the command line",
    type=["json"],
    key="size_upload",
    max_upload_size=1,
)
# a file is sized once, when it arrives: a later "Size it" sizes the form's demand, not the file again
if up is not None and st.session_state.get("size_upload_seen") != up.file_id:
    st.session_state["size_upload_seen"] = up.file_id
    try:  # the same safe reader as every file (size, depth, finite numbers), errors naming the field
        d = jsonio.parse_json_model(
            up.getvalue(), Demand, PlannerError, "demand file", prefix="demand", max_bytes=1_000_000
        )
    except PlannerError as exc:
        state.set_demand(None)
        st.error(fmt.md(exc))
    else:
        form = _form_values(d, [t.name for t in d.tierset().tiers] if d.tier_counts else tiers)
        state.set_demand(d.model_dump_json(), int(top or 5), form_mode=form["size_mode"])
        st.session_state["size_form_pending"] = form
        if d.tier_counts and (file_tiers := state.tiers_of(d)) != state.tiers_json():
            # the file's tiers become the session's: the page's "Tiers as defined on the SLA & tiers page" and
            # the SLA page priced edited tiers beside a sizing of the file's (pricing review 2026-11-30)
            state.set_tiers(file_tiers)
            st.session_state["size_file_tiers_note"] = (
                "The demand file's tiers are now the session's"
                + (" (the file names none: the shipped tiers)" if d.tiers is None else "")
                + ": the SLA & tiers page shows and prices them."
            )
        st.session_state["size_file_pending"] = True  # the rerun says it is sizing before it draws the form
        st.rerun()  # the form above was drawn with the values and tiers before


def _form_fields() -> dict:
    """The demand fields the form holds beside the databases (growth, N+1, fault tolerance, stack,
    programme, limits): an estate file brings the databases, the form the rest."""
    ss = st.session_state
    stack_ = ss.get("size_stack", "s2d")
    f = {
        "growth_pct": growth_pct_over(
            float(ss.get("size_growth_year", growth_pct_per_year(20.0, GROWTH_PERIOD_MONTHS))),
            int(ss.get("size_growth_months", GROWTH_PERIOD_MONTHS)),
        ),
        "growth_period_months": int(ss.get("size_growth_months", GROWTH_PERIOD_MONTHS)),
        "n_plus_one": bool(ss.get("size_n1", True)),
        "n_plus_one_after_loss": ss.get("size_n1_after", "re-protected"),
        "fault_tolerance": ss.get("size_ft", "node-and-drive"),
        "allow_parity": bool(ss.get("size_parity", False)),
        "allow_network_warning": bool(ss.get("size_net", False)),
        "stack": stack_,
        "max_nodes": int(ss.get("size_max_nodes", 16)),
    }
    if ss.get("size_validated", True) and stack_ == "s2d":
        f["validated_for"] = "Azure Local"
    return f


def _stats_vm() -> dict:
    """The file-statistics estate's inputs as :func:`planner.sizing.estate.stats_demand` takes them (what the view
    does not give: each database VM's vCPUs and RAM, the peak over the mean), as last typed or their defaults."""
    ss = st.session_state
    return {
        "vcpus": int(ss.get("size_fs_vcpus", 4)),
        "ram_gb": float(ss.get("size_fs_ram_gb", 16.0)),
        "peak_to_mean_ratio": float(ss.get("size_fs_peak", 1.0)),
    }


def _stats_estate(stats: dict, vm: dict) -> dict:
    """The file statistics as the demand, with the form's fields and ``vm`` (:func:`_stats_vm`)."""
    from planner.sizing import estate

    return {"kind": "file-stats", "stats": stats, "vm": vm, **estate.stats_demand(stats, **vm, **_form_fields())}


def _stats_inputs(out: dict) -> dict:
    """The inputs the command line has as --vcpus, --ram-gb and --peak-to-mean-ratio, under the file that needs
    them: the app took every database VM as 4 vCPUs and 16 GB with no way to say otherwise (DBA walk
    2026-11-30). A change sizes the estate again."""
    from planner.sizing.estate import MAX_PEAK_TO_MEAN_RATIO

    c = st.columns(3)
    D = lambda f: inputs.model_bounds(Demand, f)
    _, e1 = inputs.number(
        c[0], "vCPUs per database VM", "size_fs_vcpus", D("vcpus_per_db"), integer=True, step=1, default=4
    )
    _, e2 = inputs.number(
        c[1], "RAM per database VM, GB", "size_fs_ram_gb", D("ram_gb_per_db"), unit="GB", default=16.0
    )
    _, e3 = inputs.number(
        c[2],
        "Peak ÷ mean IOPS",
        "size_fs_peak",
        (1.0, MAX_PEAK_TO_MEAN_RATIO, False),
        default=1.0,
        help="the view's two samples give the mean IOPS between them, which under-sizes the databases' peaks: "
        "give the peak over the mean you know (from Performance Monitor, say); 1 sizes the mean (no factor is "
        "assumed)",
    )
    for col, e in zip(c, (e1, e2, e3)):
        inputs.show(col, e)
    vm = _stats_vm()
    if e1 or e2 or e3 or vm == out["vm"]:
        return out
    try:
        new = _stats_estate(out["stats"], vm)
    except PlannerError as exc:
        st.error(fmt.md(exc), icon=":material/error:")
        return out
    st.session_state["size_estate_out"] = new
    state.set_demand(Demand.model_validate(new["demand"]).model_dump_json(), estate_file=new["stats"]["file"])
    return new


def _estate() -> None:
    """The customer's estate as the demand: a database list, two samples of
    sys.dm_io_virtual_file_stats, or a perfmon LogicalDisk CSV (planner.sizing.estate)."""
    from planner.sizing import estate

    ss = st.session_state
    # a closed section draws nothing (its file box and its last reading were drawn, hidden, on every run)
    box = st.expander(
        "…or the customer's estate: a database list, SQL Server file statistics or perfmon counters",
        key="size_estate_open",
        on_change="rerun",
    )
    if not box.open:
        return
    with box:
        st.caption(
            "A **database list** (CSV or XLSX: name, size_gb, peak_iops or tpm, vcpus, ram_gb, optional tier and "
            "latency_target_ms, and for a row given by tpm buffer_pool_gb and a measured buffer_hit_ratio); "
            "**sys.dm_io_virtual_file_stats** exported twice into one CSV (with sample_ms and "
            "size_on_disk_bytes); or a **perfmon / typeperf CSV** of the LogicalDisk counters. Growth, N+1, fault "
            "tolerance and the node programme come from the form above."
        )
        # any file's bytes reach the reader, which says what a file is not in the command line's words: the
        # box's own filter refused an .xls as "application/vnd.ms-excel files are not allowed" (DBA walk
        # 2026-11-30), where `hciplan estate` says "an old Office file (XLS or DOC)"
        up = st.file_uploader("Estate file (CSV or XLSX, max 5 MB)", key="size_estate", max_upload_size=5)
        if up is not None and ss.get("size_estate_seen") != up.file_id:
            ss["size_estate_seen"] = up.file_id
            ss.pop("size_estate_out", None)
            try:
                if up.size > estate.MAX_ESTATE_FILE_BYTES:
                    raise PlannerError(f"{up.name} is larger than 5 MB", "estate")
                data = up.getvalue()
                kind = estate.detect(data)
                if kind == "perfmon":
                    out = {"kind": kind, **estate.read_perfmon(data, up.name)}
                elif kind == "file-stats":
                    stats = estate.read_file_stats(data, up.name)
                    out = _stats_estate(stats, _stats_vm())
                else:
                    out = {"kind": kind, **estate.read_database_list(data, up.name, **_form_fields())}
            except PlannerError as exc:
                st.error(f"Estate not read: {fmt.md(exc)}", icon=":material/error:")
            else:
                ss["size_estate_out"] = out
                if "demand" in out:
                    state.set_demand(Demand.model_validate(out["demand"]).model_dump_json(), estate_file=up.name)
        if up is None and ss.get("size_estate_seen"):
            # the file removed: its summary goes with it (it stayed beside an empty uploader; browser review
            # 2026-11-29); the demand it set stays the session's until another replaces it
            ss.pop("size_estate_seen", None)
            ss.pop("size_estate_out", None)
        out = ss.get("size_estate_out")
        if not out:
            return
        if out["kind"] == "perfmon":
            st.dataframe(
                [
                    {
                        "Volume": v["volume"],
                        "Samples": v["samples"],
                        "IOPS, mean": fmt.iops(v["iops"]),
                        "IOPS, 95th percentile": fmt.iops(v["peak_iops"]),
                        "Read share": fmt.pct(v["read_fraction"]),
                        "IO size": fmt.num(v["block_size_kib"], 1, "KiB"),
                        "Read latency": fmt.ms(v["read_latency_ms"]),
                        "Write latency": fmt.ms(v["write_latency_ms"]),
                    }
                    for v in out["volumes"]
                ],
                hide_index=True,
                width="stretch",
            )
            # a dash in the table is said: a log volume with no reads has no read latency (it showed 0.000 ms)
            if none := [
                f"{fmt.md(v['volume'])} {kind} latency: {v[f'{kind}_latency_ms_note']}"
                for v in out["volumes"]
                for kind in ("read", "write")
                if v[f"{kind}_latency_ms"] is None
            ]:
                st.caption("No figure for " + "; ".join(none) + ".")
            st.caption("The counters give no data size: give it (and the databases, for their vCPUs and RAM).")
            c = st.columns(3)
            tb, e1 = inputs.number(
                c[0], "Data, TB", "size_perf_tb", inputs.model_bounds(Demand, "capacity_tb"), unit="TB", default=10.0
            )
            n, e2 = inputs.number(
                c[1], "Databases", "size_perf_dbs", (0, 100_000, False), integer=True, step=1, default=0
            )
            inputs.show(c[0], e1)
            inputs.show(c[1], e2)
            if c[2].button("Size these volumes", key="size_perf_go", disabled=bool(e1 or e2)):
                try:
                    d = estate.perfmon_demand(out, tb, int(n) or None, **_form_fields())
                except PlannerError as exc:
                    st.error(fmt.md(exc), icon=":material/error:")
                else:
                    state.set_demand(Demand.model_validate(d["demand"]).model_dump_json(), estate_file=out["file"])
                    for note in d["notes"]:
                        st.caption(fmt.md(sentence(note)))
            return
        if out["kind"] == "file-stats":
            out = _stats_inputs(out)
        t = out["totals"]
        # a file-statistics estate's IOPS are the mean between its samples, not peaks (DBA walk 2026-11-30: "23,171
        # IOPS at their peaks" above "IOPS are the mean between the two samples")
        mean = out["kind"] == "file-stats"
        iops_words = f"IOPS, {out['iops_basis']}" if mean else "IOPS at their peaks"
        # the databases the list names, then as many as the growth makes (the demand's own count: whole databases);
        # "24 databases (with 20 % growth)" of a list of 20 read as a miscount (DBA walk 2026-11-30)
        dem = Demand.model_validate(out["demand"])
        grown = math.ceil(dem.database_count() - 1e-9)
        growth = (
            ""
            if not dem.growth_pct
            else f", {grown:,} with {dem.growth_pct:g} % growth"
            if dem.grows_in_count
            # an estate's databases are known ones: growth is in their data and IOPS ("4 databases, 7 with 20 %
            # growth" had planned 79,142 IOPS for a list of 51,661; hostile-input walk)
            else f", each grown {dem.growth_pct:g} % in data and IOPS"
        )
        st.success(
            f"From {fmt.md(out['source'])}: {count(t['databases'], 'database')}{growth}; "
            f"{fmt.iops(t['iops' if mean else 'peak_iops'])} {iops_words}, {fmt.num(t['size_gb'] / 1000.0, 1, 'TB')}, "
            f"{t['vcpus']:,} vCPUs, {fmt.num(t['ram_gb'], 0, 'GB')} RAM; sized below as the demand.",
            icon=":material/database:",
        )
        for note in out["notes"]:
            st.caption(fmt.md(sentence(note)))
        # what the figure is, in its column's name: a mean is no peak
        ratio = out.get("peak_to_mean_ratio", 1.0)
        column = ("IOPS, mean" if ratio == 1 else f"IOPS, mean x {ratio:g}") if mean else "Peak IOPS"
        st.dataframe(
            [
                {
                    "Database": x["name"],
                    "Tier": x["tier"],
                    "Size, GB": fmt.num(x["size_gb"], 0),
                    column: fmt.iops(x["iops" if mean else "peak_iops"]),
                    "From": x["iops_basis"],
                    "vCPUs": x["vcpus"],
                    "RAM, GB": fmt.num(x["ram_gb"], 0),
                }
                for x in out["databases"][:500]
            ],
            hide_index=True,
            width="stretch",
            height=240,
        )


_estate()
costs.prices_panel("size")
demand_json = state.demand_json()
if demand_json:
    _results(demand_json)
else:
    st.caption("Enter a demand and press **Size it**, or load a demand file or the customer's estate.")
# the results (or the file's error) are drawn: the notice goes
sizing_notice.empty()
st.session_state.pop("size_file_pending", None)
