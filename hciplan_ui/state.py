"""Session state, shareable links and cached model calls for the UI.

One session: :class:`planner.store.session.ScenarioSession` is the scenario every
page reads and writes: the design (and the what-if it came from), the workload and
its choice, the sized demand and the Size page's choices, the SLA page's choices,
the tier set and tier mix, the cost assumptions, the existing system and the
document's names. :func:`session` builds it from ``st.session_state``; a share link,
a saved scenario or a reopened one goes back through :func:`load_session`. Pages
use the getters and setters here, never the keys below themselves:

* ``design_json``   the last *valid* design (canonical JSON string)
* ``draft``         what the design widgets currently hold (may be invalid)
* ``workload_json`` the current workload (JSON string); ``workload_name`` its
  profile name, ``"custom"`` or :data:`SIZED`
* ``sized_workload_json`` the sized demand's own workload, kept as a choice
* ``size_demand``   the demand last sized (JSON string)
* ``tiers_json``, ``costs_json`` the tier set and the cost assumptions
* ``calibration_json`` a customer refit kept for the session (the calibration
  document as JSON text; absent = the shipped fit); :func:`report` and
  :func:`latency_curve` use it, so every page that shows them does (a link does
  not carry it)

The pages' other choices are their widgets' own keys, listed in :data:`CHOICES`:
a new input that changes a figure is added there, so links and saved scenarios
carry it.

Every model call goes through an ``st.cache_data`` function keyed on JSON
strings, so a rerun with an unchanged scenario costs a dictionary lookup.
No physics here: every number comes from :mod:`planner`.
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
import math
import zlib
from pathlib import Path

import numpy as np
import streamlit as st

from hciplan_ui import fmt
from planner.core import jsonio
from planner.core.errors import PlannerError, shown
from planner.models.catalog import load_catalog
from planner.models.design import Design, dump_design, follow_name, parse_design, resolve
from planner.models.workload import parse_workload, profiles

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
DEFAULT_DESIGN = "reference"
DEFAULT_WORKLOAD = "oltp-8k"
#: the workload choice that is the sized demand's own workload ("Use this design")
SIZED = "sized demand"
SHARE_PARAM = "s"
#: a link whose session is too long for an address holds its id in the scenario store instead
LINK_ID_PARAM = "id"
#: the longest ``?s=`` token written into an address; a longer session goes into the store (``?id=``)
MAX_LINK_CHARS = 8_000
#: the longest token read (links written by earlier versions held up to this)
MAX_SHARE_CHARS = 20_000
MAX_SHARE_JSON_BYTES = 1_000_000
OTHER_TENANTS = ("none", "current workload", "25 VMs/node at 1,000 IOPS each")


# ----------------------------------------------------------------- helpers
def canonical(data: dict) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def design_to_json(design: Design) -> str:
    return canonical(dump_design(design))


def demand_load_on(workload_json: str, design_json: str, demand_json: str | None) -> str:
    """The workload as a system of ``design_json`` runs it (:func:`planner.engine.loads.load_on`): the sized demand's
    databases on the system's own database servers, any other workload as it is. One rule for the Compare page's columns
    and the SLA page's other tenants on the customer's system today."""
    from planner.engine.loads import load_on
    from planner.models.demand import Demand
    from planner.models.design import Design

    if not demand_json:
        return workload_json
    w = parse_workload(workload_json)
    new = load_on(Design.model_validate_json(design_json), w, Demand.model_validate_json(demand_json))
    return workload_json if new is w else canonical(new.model_dump(mode="json"))


@st.cache_data(show_spinner=False, max_entries=1)
def design_examples() -> list[str]:
    """Example files that are designs (examples/ also holds databases, tiers, demands...)."""
    names = []
    for p in sorted(EXAMPLES.glob("*.json")):
        try:  # validated as a design, as loading it would: a db or tiers file is not offered
            validate_design(p.read_bytes())
        except PlannerError:
            continue
        names.append(p.stem)
    return names


@st.cache_data(show_spinner=False, max_entries=32)
def example_json(name: str) -> str:
    return design_to_json(parse_design((EXAMPLES / f"{name}.json").read_text(encoding="utf-8")))


def validate_design(data: dict | str | bytes) -> str:
    """Validated canonical JSON of a design dict; raises PlannerError naming the field."""
    return checked_design(parse_design(data))


def checked_design(design: Design, any_architecture: bool = False) -> str:
    """Canonical JSON of a parsed design, its parts checked against the catalog: a hyperconverged
    design resolved (:func:`planner.models.design.resolve`) and refused without usable capacity;
    with ``any_architecture`` another architecture's by :func:`planner.engine.architectures.resolve`
    (without, :func:`~planner.models.design.resolve` refuses it). Raises PlannerError naming the field."""
    from planner.results.report import check_parts

    check_parts(design, load_catalog(), any_architecture)  # a design without usable capacity is refused too
    return design_to_json(design)


def validate_any_design(data: dict | str | bytes) -> str:
    """:func:`validate_design` for a design of any architecture (the customer's system today: a
    file server, split provisioning or a single server too); raises PlannerError naming the field."""
    return checked_design(parse_design(data), any_architecture=True)


# ------------------------------------------------------- the session's parts
def set_design(design_json: str, reseed_widgets: bool = True) -> None:
    """The current design. A name made from the previous design's parts follows the parts
    (:func:`planner.models.design.follow_name`): a sized "13x ..." edited to 8 nodes is
    named "8x ...", so no title or sidebar keeps an old design's name; a name the user gave stays."""
    previous = st.session_state.get("design_json")
    if previous is not None and previous != design_json:
        new = json.loads(design_json)
        followed = follow_name(json.loads(previous), new)
        if followed is not new:
            design_json = canonical(followed)
    if previous is not None and previous != design_json:  # what the what-if changed from (node_note)
        st.session_state["design_before"] = previous
    st.session_state["design_json"] = design_json
    st.session_state.pop("link_error", None)
    st.session_state["draft"] = json.loads(design_json)
    if reseed_widgets:
        for k in [k for k in st.session_state if str(k).startswith("d_")]:
            del st.session_state[k]


def design_json() -> str:
    return st.session_state["design_json"]


def design_before() -> str | None:
    """The design the last edit changed from (the Design page's node note), or None."""
    return st.session_state.get("design_before")


CUSTOM_WIDGETS = ("c_bs", "c_read", "c_rand", "c_vms", "c_qd", "c_issuer")


def set_workload(name: str, workload_json: str | None = None, reseed_editor: bool = True) -> None:
    """The current workload: a profile by ``name``, or ``workload_json`` named ``"custom"`` or
    :data:`SIZED`. ``reseed_editor``: the Performance page's custom editor starts again from this
    workload (its fields held the previous one's; a later "custom" mixed the two)."""
    if workload_json is None:
        workload_json = canonical(profiles()[name].model_dump(mode="json"))
    ss = st.session_state
    ss["workload_name"] = name
    ss["workload_json"] = workload_json
    if reseed_editor:
        for k in CUSTOM_WIDGETS:
            ss.pop(k, None)
        if ss.get("p_workload") != name:  # the picker shows the choice (never written while it shows this one)
            ss["p_workload"] = name


def workload_json() -> str:
    return st.session_state["workload_json"]


def workload_name() -> str:
    return st.session_state["workload_name"]


def workload_label(name: str, sized_json: str | None = None) -> str:
    """A workload as the pages name it: a profile with what it is ("oltp-8k — OLTP: 8 KiB random, ..."),
    the sized demand's with its description; the sidebar said "Workload oltp-8k" alone (UI review
    2026-11-29)."""
    from planner.core.text import without_bidi_controls
    from planner.models.workload import profiles

    if name == SIZED:  # the demand's name is the user's: a select box shows it as text, direction overrides dropped
        w = json.loads(sized_json or sized_workload_json() or "{}")
        return without_bidi_controls(f"{SIZED} — {w.get('description') or w.get('name')}") if w else SIZED
    if name in profiles():
        return f"{name} — {profiles()[name].description}"
    return without_bidi_controls(name)


def sized_workload_json() -> str | None:
    """The sized demand's own workload ("Use this design"), kept when another replaces it."""
    return st.session_state.get("sized_workload_json")


def workload_is_sized() -> bool:
    return workload_name() == SIZED


def demand_json() -> str | None:
    """The demand last sized on the Size page (JSON), or None."""
    return st.session_state.get("size_demand")


def set_demand(
    demand_json: str | None, top: int | None = None, form_mode: str | None = None, estate_file: str | None = None
) -> None:
    """The session's demand; ``form_mode``: the Size form's mode it was described in (None: from a file, an
    estate or a scenario), so the page can say when the form's mode has moved away from it; ``estate_file``: the
    estate file it was read from, which the results name."""
    st.session_state.pop("size_demand_mode", None)
    st.session_state.pop("size_demand_estate", None)
    st.session_state.pop("size_demand_own_tiers", None)
    if estate_file is not None:
        st.session_state["size_demand_estate"] = estate_file
        # an estate's tiers are its own groups (their members' figures), not the SLA page's: until "Use this
        # design" makes them the session's, an edit there does not touch its results
        st.session_state["size_demand_own_tiers"] = True
    if demand_json is None:
        st.session_state.pop("size_demand", None)
        return
    st.session_state["size_demand"] = demand_json
    if form_mode is not None:
        st.session_state["size_demand_mode"] = form_mode
    if top is not None:
        st.session_state["size_top_n"] = int(top)


def sizing_top(default: int = 5) -> int:
    """How many designs the last sizing returned."""
    return int(st.session_state.get("size_top_n", default))


@functools.cache
def default_tiers_json() -> str:
    from planner.models.tiers import default_tiers

    return canonical(default_tiers().model_dump(mode="json"))


@functools.lru_cache(maxsize=16)
def _tier_names(tiers_json: str) -> tuple[str, ...]:
    from planner.models.tiers import TierSet

    return tuple(t.name for t in TierSet.model_validate_json(tiers_json).tiers)


def tiers_json() -> str:
    """The scenario's tier set (canonical JSON): edited on the SLA page, shipped by default."""
    return st.session_state.get("tiers_json") or default_tiers_json()


def renamed_tiers(old: tuple[str, ...], new: tuple[str, ...]) -> dict[str, str]:
    """The tiers an edit renamed (old name -> new name): the same rows, a name at a row that is gone from the new
    set replaced there by one that was not in the old. Rows added or removed rename nothing (a count would follow
    the wrong tier)."""
    if len(old) != len(new):
        return {}
    return {o: n for o, n in zip(old, new) if o != n and o not in new and n not in old}


def set_tiers(tiers: str | None, reseed_editor: bool = True) -> None:
    old = _tier_names(tiers_json())
    st.session_state["tiers_json"] = tiers or default_tiers_json()
    # a renamed tier keeps its counts in the SLA page's mix and the Size page's form: renaming Standard emptied
    # its box, and the mix's verdict went from a profit to a loss (pricing-call walk, stop 63)
    for o, n in renamed_tiers(old, _tier_names(st.session_state["tiers_json"])).items():
        for prefix in ("mix_", "size_"):
            if f"{prefix}{o}" in st.session_state and f"{prefix}{n}" not in st.session_state:
                st.session_state[f"{prefix}{n}"] = st.session_state.pop(f"{prefix}{o}")
    if reseed_editor:
        st.session_state["tier_editor_base"] = st.session_state["tiers_json"]
        # a new editor, even when the tiers are the ones it started from: its own
        # (possibly invalid) edits go with the old one
        st.session_state["tier_editor_gen"] = st.session_state.get("tier_editor_gen", 0) + 1


def demand_tiers_changed() -> bool:
    """Whether the session's demand counts databases of tiers that have since changed on the SLA page: its
    results are of the tiers as they were (pricing walk 2026-11-30: the Size and Design pages kept "582,000
    needed" under a form reading the new tiers, 702,000)."""
    dj = demand_json()
    if dj is None or st.session_state.get("size_demand_own_tiers"):
        # a fresh session's estate read on the Size page said "the tiers changed on the SLA & tiers page" of
        # tiers nobody had touched: its groups were never the SLA page's (browser walk 2026-12-02, stop 61)
        return False
    return _tiers_of(dj) not in (None, tiers_json())


@functools.lru_cache(maxsize=8)
def _tiers_of(demand_json: str) -> str | None:
    from planner.models.demand import Demand

    d = Demand.model_validate_json(demand_json)
    return tiers_of(d) if d.tier_counts else None


def tiers_of(demand) -> str:
    """A demand's tier set as the session holds it (canonical JSON, :func:`tiers_json`'s form)."""
    return canonical(demand.tierset().model_dump(mode="json"))


def tier_names() -> list[str]:
    return list(_tier_names(tiers_json()))


def tier_counts() -> dict[str, int]:
    """The SLA page's tier mix: databases per tier (the tiers the user set)."""
    ss = st.session_state
    return {t: int(ss[f"mix_{t}"]) for t in tier_names() if isinstance(ss.get(f"mix_{t}"), (int, float))}


def set_tier_counts(counts: dict[str, int]) -> None:
    for k in [k for k in st.session_state if str(k).startswith("mix_")]:
        del st.session_state[k]
    for name, c in counts.items():
        st.session_state[f"mix_{name}"] = int(c)


#: the SLA page's cost inputs: widget key -> CostAssumptions field
COST_WIDGETS = {
    "cost_months": "amortisation_months",
    "cost_kwh": "power_usd_per_kwh",
    "cost_pue": "pue",
    "cost_ru": "rack_unit_usd_per_month",
    "cost_lic": "windows_datacenter_usd_per_core",
    "cost_sup": "support_share_per_year",
    "cost_margin": "target_margin",
    "cost_fill": "target_fill",
    "cost_al": "azure_local_usd_per_core_month",
    "cost_ws": "windows_subscription_usd_per_core_month",
    "cost_lic_opt": "licence_option",
    "cost_vsan_opt": "vsan_licence",
    "cost_guest_opt": "guest_os_licence",
    "cost_vcf": "vcf_usd_per_core_year",
    "cost_vvf": "vvf_usd_per_core_year",
}


def costs_json() -> str:
    """The cost assumptions (JSON): the SLA page's, else the defaults."""
    got = st.session_state.get("costs_json")
    if got:
        return got
    from planner.commercial.pricing import CostAssumptions

    return CostAssumptions().model_dump_json()


def set_costs(costs_json: str | None, reseed_widgets: bool = False) -> None:
    """The cost assumptions; ``reseed_widgets`` writes them into the SLA page's inputs too."""
    ss = st.session_state
    if costs_json is None:
        ss.pop("costs_json", None)
        return
    ss["costs_json"] = costs_json
    if reseed_widgets:
        doc = json.loads(costs_json)
        for key, field in COST_WIDGETS.items():
            if field in doc:
                ss[key] = doc[field]


def n_plus_one() -> bool:
    """The SLA page's N+1 choice (off until set there or by a sized demand)."""
    return bool(st.session_state.get("sla_n1", False))


def sla_database() -> str | None:
    """The database the SLA page guarantees with the assumptions set on the Compare page
    (``Database`` JSON), or None for the page's own defaults."""
    return st.session_state.get("sla_dbio")


def set_sla_database(database_json: str | None) -> None:
    if database_json is None:
        st.session_state.pop("sla_dbio", None)
    else:
        st.session_state["sla_dbio"] = database_json


#: the customer's system today (a design, JSON), chosen on the Compare page
EXISTING = "existing_design_json"


def existing_json() -> str | None:
    """The customer's existing system (a design, JSON) to compare with, or None."""
    return st.session_state.get(EXISTING)


def set_existing(design_json: str | None) -> None:
    if design_json is None:
        st.session_state.pop(EXISTING, None)
    else:
        st.session_state[EXISTING] = design_json


#: the document's names: session field -> widget key
NAME_WIDGETS = {"company": "report_company", "customer": "report_customer", "prepared_by": "report_author"}


def document_names() -> dict[str, str]:
    """The company preparing the document, the customer and the author (as typed)."""
    from planner.sizing.document import MAX_COMPANY_CHARS, MAX_NAME_CHARS

    ss = st.session_state
    # at most what a saved scenario and a link hold (the boxes are bounded too; a value set another way is cut)
    most = {"company": MAX_COMPANY_CHARS}
    return {f: str(ss.get(k) or "")[: most.get(f, MAX_NAME_CHARS)] for f, k in NAME_WIDGETS.items()}


def use_sized_design(design: dict, demand) -> None:
    """Load a sized design with the demand's own workload (kept as the :data:`SIZED` choice),
    its tier set and tier mix, its N+1 and the SLA page's other tenants as that workload."""
    from planner.engine.loads import demand_as_workload

    set_design(validate_design(design))
    w = canonical(demand_as_workload(demand, design["nodes"]).model_dump(mode="json"))
    st.session_state["sized_workload_json"] = w
    set_workload(SIZED, w)
    if demand.tiers is not None or demand.tier_counts:  # a demand in the shipped tiers sets them back too
        set_tiers(tiers_of(demand))
        st.session_state.pop("size_demand_own_tiers", None)  # an estate's groups are the session's tiers now
    set_tier_counts({k: int(v) for k, v in (demand.tier_counts or {}).items()})
    st.session_state["sla_n1"] = demand.n_plus_one
    st.session_state["sla_bg"] = "current workload"


# ------------------------------------------------------------ page choices
# Kinds of choice a link may carry; each is checked before it reaches a widget.
def _bool(v):
    if not isinstance(v, bool):
        raise ValueError("must be true or false")
    return v


def _number(v):
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or abs(v) > 1e15:
        raise ValueError("must be a finite number")
    return v


def _share(v):  # a slider from 0 to 1
    if _number(v) < 0 or v > 1:
        raise ValueError("must be between 0 and 1")
    return float(v)


def _text(v):
    if not isinstance(v, str) or len(v) > 200:
        raise ValueError("must be text of at most 200 characters")
    return v


def _option(v):  # a select's value: text or a number (Streamlit shows its first option for an unknown one)
    return _text(v) if isinstance(v, str) else _number(v)


def _guarantee_on(v):
    """The SLA page's "Guarantee on": the design here or the customer's system today (a radio has no first option
    to fall back on)."""
    if v not in ("here", "today"):
        raise ValueError("must be here or today")
    return v


def _examples(v):
    if not isinstance(v, list) or len(v) > 3 or any(x not in design_examples() for x in v):
        raise ValueError("must list at most three example designs")
    return list(v)


def _database(v):
    from pydantic import ValidationError

    from planner.core.errors import format_validation_error
    from planner.models.database import Database

    try:
        return Database.model_validate(v).model_dump_json()
    except ValidationError as exc:
        raise ValueError(format_validation_error(exc)) from None


def _database_out(v):
    return json.loads(v)


def _quotes(v):
    """The customer's quotes as the Size and SLA pages keep them: the file's name, part prices and
    vendor discounts (checked by the cost model's own fields)."""
    from pydantic import ValidationError

    from planner.commercial.pricing import CostAssumptions
    from planner.core.errors import format_validation_error

    if not isinstance(v, dict) or set(v) - {"file", "part_prices_usd", "vendor_discounts_pct"}:
        raise ValueError("must hold file, part_prices_usd and vendor_discounts_pct")
    try:
        a = CostAssumptions(
            part_prices_usd=v.get("part_prices_usd") or {}, vendor_discounts_pct=v.get("vendor_discounts_pct") or {}
        )
    except ValidationError as exc:
        raise ValueError(format_validation_error(exc)) from None
    return {
        "file": _text(v.get("file", "")),
        "part_prices_usd": a.part_prices_usd,
        "vendor_discounts_pct": a.vendor_discounts_pct,
    }


#: session part -> {choice: (widget key, check)}; a widget's value is carried as is (JSON keeps
#: 4 and 4.0 apart, so a number input gets back the type it had)
CHOICES: dict[str, dict[str, tuple]] = {
    "sla": {
        "n_plus_one": ("sla_n1", _bool),
        # the system the guarantee is on: a link or a saved scenario opened on the design here's guarantee where the
        # sender showed the customer's system today's (stop 57's note)
        "guarantee_on": ("sla_on", _guarantee_on),
        "other_tenants": ("sla_bg", _option),
        "described_by": ("sla_by", _option),
        "size_tb": ("sla_size", _number),
        "vcpus": ("sla_vcpus", _number),
        "threads": ("sla_threads", _number),
        "outstanding_per_thread": ("sla_qd", _number),
        "latency_target_ms": ("sla_target", _number),
        "latency_statistic": ("sla_stat", _option),
        "block_size_kib": ("sla_bs", _option),
        "read_fraction": ("sla_rf", _share),
        "db_size_gb": ("sla_db_size_gb", _number),
        "db_buffer_pool_gb": ("sla_db_buffer_pool_gb", _number),
        "db_rate_kind": ("sla_db_rate_kind", _option),
        "db_rate": ("sla_db_rate", _number),
        "db_peak": ("sla_db_peak", _bool),
        "database": ("sla_dbio", _database),
        # prices every cost uses (the cost panels): SQL Server licences and the customer's quotes
        "sql_edition": ("cost_sql_edition", _option),
        "sql_licensing": ("cost_sql_licensing", _option),
        "quotes": ("cost_quotes", _quotes),
    },
    "size": {
        "mode": ("size_mode", _option),
        "total_iops": ("size_iops", _number),
        "capacity_tb": ("size_tb", _number),
        "block_size_kib": ("size_bs", _number),
        "read_fraction": ("size_rf", _number),
        # the Size page's DBA mode takes the database as the SLA page does (database_inputs.basics)
        "db_size_gb": ("size_db_size_gb", _number),
        "db_buffer_pool_gb": ("size_db_buffer_pool_gb", _number),
        "db_rate_kind": ("size_db_rate_kind", _option),
        "db_rate": ("size_db_rate", _number),
        "db_count": ("size_db_n", _number),
        "db_peak": ("size_db_peak", _bool),
        "latency_target_ms": ("size_lat", _number),
        "latency_statistic": ("size_stat", _option),
        "vcpus_per_db": ("size_vcpu_db", _number),
        "ram_gb_per_db": ("size_ram_db", _number),
        "db_vcpus_per_db": ("size_db_vcpus", _number),
        "db_ram_gb_per_db": ("size_db_ram_gb", _number),
        "databases": ("size_dbs", _number),
        # a yearly rate since 2026-11-30; a link's growth_pct (the total over its period) is read as that
        # (_checked_choices)
        "growth_pct_per_year": ("size_growth_year", _number),
        "growth_period_months": ("size_growth_months", _number),
        "stack": ("size_stack", _option),
        "fault_tolerance": ("size_ft", _option),
        "n_plus_one": ("size_n1", _bool),
        "validated": ("size_validated", _bool),
        "allow_parity": ("size_parity", _bool),
        "accept_network": ("size_net", _bool),
        "budget_usd_per_month": ("size_budget", _number),
        "max_nodes": ("size_max_nodes", _number),
        "designs_to_return": ("size_top", _number),
        "designs_returned": ("size_top_n", _number),
        "picked": ("size_pick", _number),
        # an estate's demand, its tiers its own groups until "Use this design" (demand_tiers_changed): a link sent
        # before that said "the tiers changed on the SLA & tiers page" on the recipient's screen
        "demand_tiers_own": ("size_demand_own_tiers", _bool),
    },
    "whatif": {
        "one_node_down": ("p_degraded", _bool),
        "compare_with": ("cmp_examples", _examples),
        "compare_include": ("wi_on", _bool),
        "compare_nodes": ("wi_nodes", _number),
        "compare_drives": ("wi_drives", _number),
        "compare_cpu_cap": ("wi_cap", _share),
        "compare_drive_model": ("wi_drive_model", _option),
        "compare_resiliency": ("wi_resiliency", _option),
        "compare_nic": ("wi_nic", _option),
        "compare_transport": ("wi_transport", _option),
        "compare_vcpu_oversubscription": ("wi_oversub", _number),
        "existing_source": ("cmp_existing_src", _option),
        "existing_example": ("cmp_existing_example", _option),
        "db_size_gb": ("db_size_gb", _number),
        "db_buffer_pool_gb": ("db_buffer_pool_gb", _number),
        "db_rate_kind": ("db_rate_kind", _option),
        "db_rate": ("db_rate", _number),
        "db_peak": ("db_peak", _bool),
        "db_scan_mb_s": ("db_scan_mb_s", _number),
        "db_backup_mb_s": ("db_backup_mb_s", _number),
    },
}
#: the design the Compare page's what-if inputs were seeded from (reseeded when the design changes)
WHATIF_SEEDED_FROM = "wi_seeded_from"


def whatif_nodes(design: dict) -> int:
    """The Compare page's what-if node count for a design (a design file's fields): one node more, within its
    stack's own limit (:data:`planner.models.stacks.MAX_NODES`, the rule the design file is checked against). A
    Ceph design of 20 nodes got a what-if of 16, Storage Spaces Direct's limit (Ceph architect's walk
    2026-12-01)."""
    from planner.models.stacks import MAX_NODES

    return min(int(design["nodes"]) + 1, MAX_NODES[design.get("stack") or "s2d"])


#: the Compare page's database assumptions (``db_<field>``): selects, a checkbox or numbers
_ASSUMPTIONS = "db_assumptions"
#: values kept in the session in another form than the widget's
_OUT = {"sla_dbio": _database_out}
#: the Compare page's workload source: the radio's label names the current workload
_CMP_SOURCE = "cmp_wsource"
CMP_DATABASE = "from a database description"


def _assumption_fields() -> tuple[str, ...]:
    from planner.models.database import ASSUMPTION_FIELDS

    return tuple(ASSUMPTION_FIELDS)


def _choices(part: str) -> dict:
    ss = st.session_state
    out = {}
    for name, (key, _check) in CHOICES[part].items():
        if key in ss and ss[key] is not None:
            v = ss[key]
            out[name] = _OUT[key](v) if key in _OUT else v
    return out


def _capture() -> dict:
    """The pages' choices as session parts (only the inputs the user has seen: a page never
    opened holds its defaults, on the sender's screen and on the recipient's)."""
    ss = st.session_state
    sla, size, whatif = _choices("sla"), _choices("size"), _choices("whatif")
    counts = {t: ss[f"size_{t}"] for t in tier_names() if isinstance(ss.get(f"size_{t}"), (int, float))}
    if counts:
        size["tier_counts"] = counts
    assumptions = {f: ss[f"db_{f}"] for f in _assumption_fields() if f"db_{f}" in ss}
    if assumptions:
        whatif[_ASSUMPTIONS] = assumptions
    if _CMP_SOURCE in ss:
        whatif["compare_workload"] = "database" if ss[_CMP_SOURCE] == CMP_DATABASE else "current"
    if before := design_before():
        whatif["design_before"] = json.loads(before)
    return {"sla": sla, "size": size, "whatif": whatif}


def _checked_choices(part: str, doc: dict) -> dict:
    """{widget key: value} of a session part, every value checked (PlannerError naming it)."""
    if not isinstance(doc, dict):
        raise PlannerError("must be a JSON object", part)
    out = {}
    known = CHOICES[part]
    extra = {
        "size": ("tier_counts",),
        "whatif": (_ASSUMPTIONS, "compare_workload", "design_before"),
    }.get(part, ())
    for name, v in doc.items():
        if name in extra:
            continue
        if part == "size" and name == "db_nopm":
            # links and saved scenarios from before the Size page took TPM too (2026-11-29): the rate was NOPM
            try:
                out["size_db_rate"] = _number(v)
            except ValueError as exc:
                raise PlannerError(str(exc), f"{part}.{name}") from None
            out.setdefault("size_db_rate_kind", "NOPM")
            continue
        if part == "size" and name == "growth_pct":
            # links and saved scenarios from before the Size page took growth a year (2026-11-30): the total over
            # the growth period the same link gives (or the default period)
            from planner.models.demand import GROWTH_PERIOD_MONTHS, growth_pct_per_year

            try:
                months, total = _number(doc.get("growth_period_months", GROWTH_PERIOD_MONTHS)), _number(v)
                if total < 0:
                    raise ValueError("must be 0 or more")
                out["size_growth_year"] = growth_pct_per_year(total, months) if months > 0 else total
            except ValueError as exc:
                raise PlannerError(str(exc), f"{part}.{name}") from None
            continue
        if name not in known:
            raise PlannerError("not a choice this hciplan knows", f"{part}.{name}")
        key, check = known[name]
        try:
            out[key] = check(v)
        except ValueError as exc:
            raise PlannerError(str(exc), f"{part}.{name}") from None
    if part == "size" and "tier_counts" in doc:
        counts = doc["tier_counts"]
        if not isinstance(counts, dict) or len(counts) > 50:
            raise PlannerError("must map tier names to counts", "size.tier_counts")
        for t, c in counts.items():
            try:
                out[f"size_{_text(t)}"] = _number(c)
            except ValueError as exc:
                raise PlannerError(str(exc), f"size.tier_counts.{shown(t, 40)}") from None
    if part == "whatif":
        a = doc.get(_ASSUMPTIONS) or {}
        if not isinstance(a, dict):
            raise PlannerError("must be a JSON object", f"whatif.{_ASSUMPTIONS}")
        for f, v in a.items():
            if f not in _assumption_fields():
                raise PlannerError("not an assumption this hciplan knows", f"whatif.{_ASSUMPTIONS}.{shown(f, 40)}")
            try:
                out[f"db_{f}"] = _bool(v) if isinstance(v, bool) else _option(v)
            except ValueError as exc:
                raise PlannerError(str(exc), f"whatif.{_ASSUMPTIONS}.{f}") from None
        if "compare_workload" in doc:
            if doc["compare_workload"] not in ("current", "database"):
                raise PlannerError("must be current or database", "whatif.compare_workload")
            out[_CMP_SOURCE] = doc["compare_workload"]  # its label is made when applied
        if doc.get("design_before") is not None:
            out["design_before"] = validate_design(doc["design_before"])
    return out


#: what a session keeps besides its pages' inputs (a reopened scenario starts without them)
_DATA_KEYS = ("design_before", "sized_workload_json", "size_demand", "costs_json", EXISTING, "sla_dbio")
#: what was made from the previous session (documents, messages)
_MADE_KEYS = (
    "size_proposal",
    "p_proposal",
    "size_proposal_files",
    "p_proposal_files",
    "size_loaded",
    "link_error",
)


def _choice_keys() -> set[str]:
    """Every input key a session sets (cleared before another session is loaded)."""
    keys = {key for part in CHOICES.values() for key, _ in part.values()}
    keys |= {f"db_{f}" for f in _assumption_fields()} | {_CMP_SOURCE, "p_workload", *CUSTOM_WIDGETS}
    keys |= set(COST_WIDGETS) | set(NAME_WIDGETS.values()) | set(_DATA_KEYS) | set(_MADE_KEYS)
    keys |= {f"size_{t}" for t in tier_names()} | {k for k in st.session_state if str(k).startswith("mix_")}
    return keys


# ------------------------------------------------------------ the session
def session():
    """The whole session as a :class:`planner.store.session.ScenarioSession`."""
    from planner.store.session import ScenarioSession

    ss = st.session_state
    parts = _capture()
    demand = demand_json()
    return ScenarioSession(
        design=json.loads(design_json()),
        workload=json.loads(workload_json()),
        workload_name=workload_name(),
        sized_workload=json.loads(sw) if (sw := sized_workload_json()) else None,
        demand=json.loads(demand) if demand else None,
        tiers=json.loads(tiers_json()) if tiers_json() != default_tiers_json() else None,
        costs=json.loads(ss["costs_json"]) if ss.get("costs_json") else None,
        existing=json.loads(ex) if (ex := existing_json()) else None,
        tier_counts=tier_counts() or None,
        **parts,
        **{f: v for f, v in document_names().items() if v},
    )


class _Checked:
    """A session whose every part passed its model: what :func:`load_session` applies."""

    def __init__(self, s, widgets: dict):
        self.s, self.widgets = s, widgets


def check_session(doc) -> _Checked:
    """A session (a dict as stored or linked, or a ScenarioSession) checked whole before anything
    is applied: every model part by its model, the design against the catalog, every page choice
    by its kind. Raises PlannerError with one line naming the part."""
    from pydantic import ValidationError

    from planner.core.errors import format_validation_error
    from planner.models.tiers import TierSet
    from planner.store.session import ScenarioSession, migrate

    if not isinstance(doc, ScenarioSession):
        try:
            doc = ScenarioSession.model_validate(migrate(doc))
        except ValidationError as exc:
            raise PlannerError(format_validation_error(exc)) from None
    doc.validated()
    s = doc.model_copy()
    widgets: dict = {}
    # a scenario saved by `hciplan scenario save` may hold a demand alone: the reference design beside it
    s.design = json.loads(validate_design(doc.design) if doc.design is not None else example_json(DEFAULT_DESIGN))
    name = doc.workload_name or ("custom" if doc.workload else DEFAULT_WORKLOAD)
    if name not in (*profiles(), "custom", SIZED):
        raise PlannerError(f"unknown workload {shown(name)}", "workload_name")
    if doc.workload is not None:
        parse_workload(doc.workload)  # validated; kept as sent, so the recipient's link is the sender's
        s.workload = json.loads(canonical(doc.workload))
    elif doc.workload_name is None and doc.demand is not None and doc.design is not None and s.design.get("node"):
        # a demand and a design without a workload (the command line's scenarios): the demand's own,
        # as `hciplan scenario compare` evaluates it
        from planner.engine.loads import demand_as_workload
        from planner.models.demand import saved_demand

        w = demand_as_workload(saved_demand(doc.demand), s.design["nodes"])
        s.workload = s.sized_workload = json.loads(canonical(w.model_dump(mode="json")))
        name = SIZED
    elif name in profiles():
        s.workload = json.loads(canonical(profiles()[name].model_dump(mode="json")))
    elif name == SIZED and doc.sized_workload is not None:
        s.workload = json.loads(canonical(doc.sized_workload))
    else:
        raise PlannerError(f"a {name} workload needs its fields", "workload")
    s.workload_name = name
    if s.sized_workload is not None:
        parse_workload(s.sized_workload)
    elif name == SIZED:  # the choice needs its workload to come back to
        s.sized_workload = s.workload
    if doc.tiers is not None:
        s.tiers = TierSet.model_validate(doc.tiers).model_dump(mode="json")
    if doc.existing is not None:
        s.existing = json.loads(validate_any_design(doc.existing))  # any architecture, as the Compare page
    for part in CHOICES:
        widgets |= _checked_choices(part, getattr(doc, part))
    if doc.tier_counts is not None:
        if not isinstance(doc.tier_counts, dict) or len(doc.tier_counts) > 50:
            raise PlannerError("must map tier names to counts", "tier_counts")
        for t, c in doc.tier_counts.items():
            if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c <= 100_000:
                raise PlannerError("must be a whole number from 0 to 100,000", f"tier_counts.{shown(t, 40)}")
    return _Checked(s, widgets)


def load_session(doc, *, clear: bool = True) -> None:
    """Make ``doc`` (checked by :func:`check_session`, or a dict / ScenarioSession to check
    first) the session: every page shows its figures. Called before any page is drawn (the
    first run, or a button's callback), as it writes the pages' inputs."""
    c = doc if isinstance(doc, _Checked) else check_session(doc)
    s, ss = c.s, st.session_state
    if clear:  # the choices of the scenario shown before go (a reopened one is shown as it was saved)
        for k in _choice_keys():
            ss.pop(k, None)
    ss.pop("design_json", None)  # no "before": the design comes as it was, its own before below
    set_design(canonical(s.design))
    if s.sized_workload is not None:
        ss["sized_workload_json"] = canonical(s.sized_workload)
    set_workload(s.workload_name, canonical(s.workload))
    set_tiers(canonical(s.tiers) if s.tiers is not None else None)
    if s.demand is not None:  # as the Size page writes it (its tier mix in the order given)
        from planner.models.demand import saved_demand

        set_demand(saved_demand(s.demand).model_dump_json())
    else:
        set_demand(None)
    if s.costs is not None:
        from planner.commercial.pricing import CostAssumptions

        set_costs(CostAssumptions.model_validate(s.costs).model_dump_json(), reseed_widgets=True)
    set_existing(canonical(s.existing) if s.existing is not None else None)
    if s.tier_counts is not None:
        set_tier_counts(s.tier_counts)
    for f, key in NAME_WIDGETS.items():
        if getattr(s, f):
            ss[key] = getattr(s, f)
    for k, v in c.widgets.items():
        if k == "design_before":
            ss["design_before"] = v
        elif k == _CMP_SOURCE:
            ss[k] = CMP_DATABASE if v == "database" else f"current ({s.workload_name})"
        else:
            ss[k] = v
    if "wi_nodes" in c.widgets:  # the link's what-if is of its design: not reseeded from it (compare_page)
        ss[WHATIF_SEEDED_FROM] = ss["design_json"]
    ss.pop("link_error", None)


def init_state() -> None:
    """First run of a session: the reference design, or the scenario in the link."""
    ss = st.session_state
    if ss.get("_initialised"):
        return
    ss["_initialised"] = True
    from hciplan_ui import inputs

    # every input a link carries keeps its value while its page is not shown (Streamlit drops a
    # widget's value at the end of a run that does not draw it), so the link never depends on the page
    inputs.keep(
        *(key for part in CHOICES.values() for key, _ in part.values()), *(f"db_{f}" for f in _assumption_fields())
    )
    inputs.keep(_CMP_SOURCE, "p_workload", *COST_WIDGETS, *NAME_WIDGETS.values())
    set_design(example_json(DEFAULT_DESIGN))
    set_workload(DEFAULT_WORKLOAD)
    token, link_id = st.query_params.get(SHARE_PARAM), st.query_params.get(LINK_ID_PARAM)
    if not token and not link_id:
        return
    ss["link_landing"] = True  # the start page sends a link to the Design page (links at / did open there)
    try:
        checked = check_session(_linked(token, link_id))
    except PlannerError as exc:
        # a link cut short or changed in an email is said as such, not as a parser's words (adversarial review
        # 2026-11-30: "link: not valid JSON (Unterminated string starting at at line 1 column 1576)")
        why = (
            "it is cut short or was changed on the way: copy the whole link again"
            if "not valid JSON" in str(exc)
            # the link's own reason alone: "(link: the link is not a valid ...)" said the link twice (hostile-input
            # walk 2026-11-30); a field inside it keeps its name
            else exc.message
            if exc.field == "link"
            else str(exc)
        )
        ss["link_error"] = f"The shared link could not be opened ({why}). Showing the reference design instead."
    else:
        load_session(checked, clear=False)
        ss["link_loaded"] = True


def _linked(token: str | None, link_id: str | None) -> dict:
    """The session a link holds: its token, else the id it names in the scenario store. A whole token is
    read first (a valid ``?s=`` beside a stray ``&id=abc`` was thrown away for the id; adversarial review
    2026-11-30); the id is read when there is no token, or when the token does not read."""
    if token:
        try:
            return decode_token(token)
        except PlannerError:
            if not link_id:
                raise
    from planner.store.scenarios import ScenarioStore

    return ScenarioStore().get_link(str(link_id))


# ------------------------------------------------------------ share links
def encode_session(s) -> str:
    """A session as a link token: its JSON (defaults left out), zlib, URL-safe base 64."""
    doc = s.model_dump(mode="json", exclude_defaults=True) | {"schema_version": s.schema_version}
    # keys in the session's own order, not sorted: a demand's tier mix is listed in the order it was given
    raw = zlib.compress(json.dumps(doc, separators=(",", ":")).encode("utf-8"), 9)
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_token(token) -> dict:
    """The session a link token holds (a dict, not yet checked: :func:`check_session`).
    A link of an earlier hciplan (design, workload and tiers) reads as a session too.
    Raises PlannerError with a plain message for anything malformed."""
    if not isinstance(token, str) or not token or len(token) > MAX_SHARE_CHARS:
        raise PlannerError("link too long or empty", "link")
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        text = zlib.decompressobj().decompress(raw, MAX_SHARE_JSON_BYTES + 1)
    except (binascii.Error, zlib.error, ValueError):
        raise PlannerError("the link is not a valid hciplan scenario (corrupted or truncated)", "link") from None
    # the same safe reader as every file: size, depth, long integers, NaN/Infinity
    doc = jsonio.loads(text, "link", max_bytes=MAX_SHARE_JSON_BYTES)
    if not isinstance(doc, dict):
        raise PlannerError("the link holds no scenario", "link")
    if "schema_version" in doc:
        return doc
    # an earlier link: {"d": design, "w": workload name, "wj": custom workload, "t": tiers}
    if not isinstance(doc.get("d"), dict):
        raise PlannerError("the link holds no design", "link")
    wname = doc.get("w") or DEFAULT_WORKLOAD
    if not isinstance(wname, str):  # a list or object here is no profile name (and not hashable)
        raise PlannerError("the link's workload name is not text", "link.w")
    out = {"schema_version": 1, "design": doc["d"]}
    if isinstance(doc.get("wj"), dict):
        out |= {"workload": doc["wj"], "workload_name": "custom"}
    elif wname in profiles():
        out["workload_name"] = wname
    else:
        raise PlannerError(f"unknown workload profile {shown(wname)}", "link")
    if doc.get("t") is not None:
        out["tiers"] = doc["t"]
    return out


def encode_scenario(
    design_json: str, workload_name: str, workload_json: str | None = None, tiers_json: str | None = None
) -> str:
    """A link token for a design, a workload (a profile by name, or ``workload_json``) and tiers."""
    from planner.store.session import ScenarioSession

    custom = workload_name not in profiles() and workload_json
    return encode_session(
        ScenarioSession(
            design=json.loads(design_json),
            workload=json.loads(workload_json) if custom and workload_json else None,
            workload_name=workload_name if workload_name in (*profiles(), SIZED) else "custom",
            tiers=json.loads(tiers_json) if tiers_json and tiers_json != default_tiers_json() else None,
        )
    )


def decode_scenario(token: str) -> tuple[str, str, str]:
    """(design JSON, workload name, workload JSON) of a link token; PlannerError when malformed."""
    s = check_session(decode_token(token)).s
    return canonical(s.design), s.workload_name, canonical(s.workload)


def decode_tiers(token: str) -> str | None:
    """The tier set a link carries (canonical JSON), None when it carries none."""
    from pydantic import ValidationError

    from planner.core.errors import format_validation_error
    from planner.models.tiers import TierSet

    try:
        doc = decode_token(token)
    except PlannerError:
        return None  # decode_scenario reports a broken link
    if doc.get("tiers") is None:
        return None
    try:
        return canonical(TierSet.model_validate(doc["tiers"]).model_dump(mode="json"))
    except ValidationError as exc:
        raise PlannerError(f"the link's tiers are not valid ({format_validation_error(exc, 't')})", "link") from None


def current_token() -> str:
    return encode_session(session())


def share_query() -> tuple[str, str]:
    """(parameter, value) of the link to the session: ``s`` and its token, or, when the token
    is longer than :data:`MAX_LINK_CHARS`, ``id`` and its id in the scenario store."""
    token = current_token()
    if len(token) <= MAX_LINK_CHARS:
        return SHARE_PARAM, token
    ss = st.session_state
    kept = ss.get("_link_ids", {})
    if token not in kept:
        from planner.store.scenarios import ScenarioStore

        try:
            kept = {token: ScenarioStore().save_link(session())}  # only the latest: a what-if moves it on
        except PlannerError as exc:
            ss["link_store_error"] = str(exc)
            return SHARE_PARAM, token  # too long for some mail clients, still whole
        ss["_link_ids"] = kept
    return LINK_ID_PARAM, kept[token]


def sync_query_params() -> None:
    """Keep the address bar a shareable link to the current session. A session its model refuses leaves the
    address as it was and says why once, in one line: it ran after every page and broke them all
    (adversarial review 2026-11-30)."""
    from pydantic import ValidationError

    try:
        param, value = share_query()
    except (PlannerError, ValidationError) as exc:
        from planner.core.errors import format_validation_error

        why = format_validation_error(exc) if isinstance(exc, ValidationError) else str(exc)
        st.sidebar.caption(fmt.md(f"The shareable link could not be updated: {why}"))
        return
    other = LINK_ID_PARAM if param == SHARE_PARAM else SHARE_PARAM
    if other in st.query_params:
        del st.query_params[other]
    if st.query_params.get(param) != value:
        st.query_params[param] = value


# ------------------------------------------------------------ calibration
CALIBRATION_KEY = "calibration_json"


def session_calibration() -> str | None:
    """The session's refit calibration (JSON text), or None for the shipped fit."""
    try:
        return st.session_state.get(CALIBRATION_KEY)
    except Exception:
        return None


def set_session_calibration(calibration_json: str | None) -> None:
    if calibration_json is None:
        st.session_state.pop(CALIBRATION_KEY, None)
    else:
        st.session_state[CALIBRATION_KEY] = calibration_json


def _calibration(calibration_json: str):
    from planner.calibration.refit import read_calibration

    return read_calibration(calibration_json.encode("utf-8"), "session calibration")


# ------------------------------------------------------ cached model calls
def report(design_json: str, workload_json: str | None = None, calibration_json: str | None = None) -> dict:
    """planner.results.report.evaluate_report for JSON inputs (capacity, performance,
    degraded), with the session's refit calibration when one is kept, and the drives' endurance judged
    over the session's amortisation period (the cost assumptions'), as the sizer and the verdict judge it."""
    return _report(design_json, workload_json, calibration_json or session_calibration(), service_months())


def service_months() -> int:
    """The months the session's costs spread a purchase over (the cost assumptions' amortisation period)."""
    return _amortisation_months(st.session_state.get("costs_json"))


@functools.lru_cache(maxsize=16)
def _amortisation_months(costs_json: str | None) -> int:
    """:func:`service_months` of one cost assumptions' JSON, parsed once (it is read on every page's report)."""
    from planner.commercial.pricing import CostAssumptions

    return (CostAssumptions.model_validate_json(costs_json) if costs_json else CostAssumptions()).amortisation_months


@st.cache_data(show_spinner=False, max_entries=256)
def _report(design_json: str, workload_json: str | None, calibration_json: str | None, months: int = 36) -> dict:
    from planner.results.report import evaluate_report

    w = parse_workload(workload_json) if workload_json else None
    if calibration_json:
        from planner.calibration.refit import evaluate_with_calibration

        return evaluate_with_calibration(
            _calibration(calibration_json), parse_design(design_json), w, service_months=months
        )
    return evaluate_report(parse_design(design_json), w, service_months=months)


@st.cache_data(show_spinner=False, max_entries=256)
def capacity(design_json: str) -> dict:
    from planner.physics.capacity import capacity_report

    return capacity_report(resolve(parse_design(design_json), load_catalog())).model_dump(mode="json")


def latency_curve(
    design_json: str, workload_json: str, points: int = 40, calibration_json: str | None = None, degraded: bool = False
) -> dict:
    """planner.results.report.latency_curve for JSON inputs (session calibration as :func:`report`),
    one node down with ``degraded``, with its band."""
    return _latency_curve(design_json, workload_json, points, calibration_json or session_calibration(), degraded)


@st.cache_data(show_spinner=False, max_entries=64)
def _latency_curve(
    design_json: str, workload_json: str, points: int, calibration_json: str | None, degraded: bool = False
) -> dict:
    from planner.results.report import latency_curve as curve

    params = _calibration(calibration_json).params if calibration_json else None
    return curve(
        resolve(parse_design(design_json), load_catalog()),
        parse_workload(workload_json),
        points,
        params,
        degraded=degraded,
        band=True,
    )


def node_note(before_json: str, after_json: str, workload_json: str) -> str | None:
    """Why IOPS fell when the node count grew and nothing else changed
    (:func:`planner.results.report.compare_note`), or None."""
    from planner.results.report import compare_note

    b, a = json.loads(before_json), json.loads(after_json)
    same_otherwise = {k: v for k, v in b.items() if k not in ("nodes", "name")} == {
        k: v for k, v in a.items() if k not in ("nodes", "name")
    }
    if not same_otherwise or a.get("nodes", 0) <= b.get("nodes", 0):
        return None
    try:
        return compare_note(report(before_json, workload_json), report(after_json, workload_json))
    except PlannerError:
        return None


@st.cache_data(max_entries=64, show_spinner=False)
def design_changes(before_json: str, after_json: str, before_word: str) -> str:
    """What the design ``after_json`` changes against ``before_json`` in the sizer's words
    (:func:`planner.sizing.search.design_differences`), "" for none or where either does not resolve."""
    from planner.models.catalog import load_catalog
    from planner.models.design import Design, resolve
    from planner.sizing.search import design_differences

    cat = load_catalog()
    try:
        return design_differences(
            resolve(Design.model_validate_json(before_json), cat),
            resolve(Design.model_validate_json(after_json), cat),
            before_word,
        )
    except (PlannerError, ValueError):
        return ""


def smt_ceiling() -> float:
    """The fitted share of logical processors IO can keep busy (the calibration in use)."""
    from planner.models.params import default_params

    params, _ = calibration_params(session_calibration())
    return (params or default_params()).host_cpu_max_utilization


def calibration_params(calibration_json: str | None):
    """(params, bootstrap sets) of a session refit, or (None, None) for the shipped fit."""
    if not calibration_json:
        return None, None
    cal = _calibration(calibration_json)
    return cal.params, cal.bootstrap_params()


def tornado(
    design_json: str, workload_json: str, costs_json: str | None = None, demand_json: str | None = None
) -> list[dict]:
    """planner.sizing.scenarios.sensitivity for JSON inputs (session calibration as :func:`report`;
    ``costs_json``: the cost assumptions its cost is priced with; ``demand_json``: the demand whose
    platform and database VMs the whole cost follows)."""
    return _tornado(design_json, workload_json, session_calibration(), costs_json, demand_json)


@st.cache_data(show_spinner=False, max_entries=64)
def _tornado(
    design_json: str,
    workload_json: str,
    calibration_json: str | None,
    costs_json: str | None = None,
    demand_json: str | None = None,
) -> list[dict]:
    from planner.commercial.pricing import CostAssumptions
    from planner.models.demand import Demand
    from planner.sizing.scenarios import sensitivity

    return sensitivity(
        parse_design(design_json),
        parse_workload(workload_json),
        load_catalog(),
        calibration_params(calibration_json)[0],
        CostAssumptions.model_validate_json(costs_json) if costs_json else None,
        Demand.model_validate_json(demand_json) if demand_json else None,
    )


@st.cache_data(show_spinner=False, max_entries=1)
def validation() -> dict:
    from planner.calibration.fit import dataset, validation_table

    v = validation_table()
    rows = [{k: (float(x) if isinstance(x, np.floating) else x) for k, x in r.items()} for r in v["rows"]]
    # rows follow the dataset's points: mark the saturation (unthrottled) points, the ones
    # whose IOPS test the throughput model (a throttled step's IOPS equal its throttle)
    unthrottled = dataset()[3]["unthrottled"]
    for r, u in zip(rows, unthrottled):
        r["saturation"] = bool(u)
    return {"summary": v["summary"], "rows": rows}


@st.cache_data(show_spinner=False, max_entries=1)
def published_checks() -> list[dict]:
    """planner.calibration.published's out-of-sample checks (results no fit has seen)."""
    from planner.calibration.published import all_checks

    return all_checks()


@st.cache_data(show_spinner=False, max_entries=1)
def calibration_summary() -> dict | None:
    from planner.models.params import CALIBRATION_FILE, load_calibration

    if not CALIBRATION_FILE.exists():
        return None
    return load_calibration().summary


# --------------------------------------------------------------- display
def plain(text: str) -> str:
    """Text shown through Markdown, with Markdown's special characters escaped
    (planner messages can carry user strings such as part names): :func:`ui.fmt.md`,
    which also breaks bare URLs and icon shortcodes."""
    return fmt.md(text)


def show_link_messages() -> None:
    if err := st.session_state.get("link_error"):
        st.error(fmt.md(err))  # it quotes the link's content


def presenter() -> bool:
    return bool(st.session_state.get("presenter", False))
