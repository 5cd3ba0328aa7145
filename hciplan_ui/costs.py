"""The cost side of the session and the demand on every what-if.

* The cost assumptions every page prices with (:func:`assumptions_json`): the SLA page's
  edits, then the customer's quotes and discounts (a CSV or XLSX the engineer uploads,
  :func:`planner.commercial.prices.read_quotes`), then the SQL Server choice.
* The session's demand (:func:`demand_json`): the one sized or typed on the Size page.
* Cached library calls keyed on JSON strings: the whole cost
  (:func:`planner.commercial.tco.whole_cost`) and the design against the demand
  (:func:`planner.sizing.verdict.demand_verdict`).
* The panels that show them: prices and licences, the cost breakdown with 3- and 5-year
  TCO, the price kinds said once, and the demand's dimensions met or not.

No physics and no cost arithmetic here: every figure comes from :mod:`planner`.
"""

from __future__ import annotations

import functools
import json
import math

import streamlit as st

from hciplan_ui import chrome, fmt, inputs, state
from planner.commercial.licensing import GUEST_LICENCE_NAMES, licences_counted
from planner.commercial.pricing import CostAssumptions
from planner.commercial.tco import rounding_note
from planner.core.errors import PlannerError
from planner.core.text import count, sentence, tidy
from planner.engine.performance import NO_LATENCY_PAST_SATURATION
from planner.sizing.words import customer_words

QUOTES = "cost_quotes"  # {"file", "part_prices_usd", "vendor_discounts_pct"}
SQL_EDITION = "cost_sql_edition"
SQL_LICENSING = "cost_sql_licensing"
SQL_EDITIONS = {"none": "not counted", "standard": "Standard", "enterprise": "Enterprise"}
SQL_LICENSINGS = {
    "licence-included": "licence included (pay as you go, per core per month)",
    "bring-your-own": "bring your own (perpetual licences + Software Assurance)",
}
MAX_QUOTE_FILE_MB = 1
#: the Windows Server guests' licence of a Ceph or vSAN cost (CostAssumptions.guest_os_licence): one key, read by
#: :func:`assumptions_json`, set on the SLA page's Cost assumptions or the Size page's Prices and licences
GUEST_OS = "cost_guest_opt"


# ------------------------------------------------------------------ session
def demand_json() -> str | None:
    """The session's demand (sized or typed on the Size page, or read from the estate), or None."""
    return st.session_state.get("size_demand")


def demand_classes() -> list[dict]:
    """The session demand's classes as :meth:`planner.models.demand.Demand.summary` lists them (name,
    latency statistic and target, read share...), or [] without a demand."""
    dj = demand_json()
    return _demand_classes(dj) if dj else []


@functools.lru_cache(maxsize=8)
def _demand_classes(dj: str) -> list[dict]:
    from planner.models.demand import Demand

    return Demand.model_validate_json(dj).summary()["classes"]


def assumptions_json() -> str:
    """The cost assumptions of every cost on every page (canonical JSON): the SLA page's
    edits, the customer's quotes and discounts, the SQL Server choice."""
    from planner.commercial.prices import with_quotes

    ss = st.session_state
    a = CostAssumptions.model_validate_json(ss["costs_json"]) if ss.get("costs_json") else CostAssumptions()
    if q := ss.get(QUOTES):
        a = with_quotes(a, q)
    update = {}
    if ss.get(SQL_EDITION) in SQL_EDITIONS:
        update["sql_edition"] = ss[SQL_EDITION]
    if ss.get(SQL_LICENSING) in SQL_LICENSINGS:
        update["sql_licensing"] = ss[SQL_LICENSING]
    if ss.get(GUEST_OS) in GUEST_LICENCE_NAMES:
        update["guest_os_licence"] = ss[GUEST_OS]
    if update:
        a = a.model_copy(update=update)
    return state.canonical(a.model_dump(mode="json"))


def quotes_note() -> str | None:
    q = st.session_state.get(QUOTES)
    if not q:
        return None
    n, v = len(q["part_prices_usd"]), len(q["vendor_discounts_pct"])
    return (
        f"your quotes from {fmt.md(q['file'])}: {n} part price{'s' if n != 1 else ''}, "
        f"{v} vendor discount{'s' if v != 1 else ''}"
    )


# ------------------------------------------------------------------ cached library calls
@st.cache_data(show_spinner=False, max_entries=128)
def _whole(design_json: str, demand_json: str | None, costs_json: str, owned: bool) -> dict:
    from planner.commercial.tco import whole_cost
    from planner.models.catalog import load_catalog
    from planner.models.demand import Demand
    from planner.models.design import parse_design

    demand = Demand.model_validate_json(demand_json) if demand_json else None
    return whole_cost(
        parse_design(design_json), demand, CostAssumptions.model_validate_json(costs_json), load_catalog(), owned
    )


def whole(design_json: str, owned: bool = False, demand: str | None = None) -> dict:
    """:func:`planner.commercial.tco.whole_cost` of a design with the session's demand and prices."""
    return _whole(design_json, demand or demand_json(), assumptions_json(), owned)


@st.cache_data(show_spinner=False, max_entries=128)
def _verdict(design_json: str, demand_json: str, costs_json: str, calibration_json: str | None) -> dict:
    from planner.models.catalog import load_catalog
    from planner.models.demand import Demand
    from planner.models.design import parse_design
    from planner.sizing.verdict import demand_verdict

    return demand_verdict(
        parse_design(design_json),
        Demand.model_validate_json(demand_json),
        CostAssumptions.model_validate_json(costs_json),
        load_catalog(),
        state.calibration_params(calibration_json)[0],
    )


@st.cache_data(show_spinner=False, max_entries=64)
def _years(design_json: str, demand_json: str, costs_json: str, calibration_json: str | None) -> dict | None:
    from planner.models.catalog import load_catalog
    from planner.models.demand import Demand
    from planner.models.design import parse_design
    from planner.sizing.checks import design_growth

    return design_growth(
        parse_design(design_json),
        Demand.model_validate_json(demand_json),
        CostAssumptions.model_validate_json(costs_json),
        load_catalog(),
        state.calibration_params(calibration_json)[0],
    )


def years_view(design_json: str, demand: str | None = None) -> dict | None:
    """:func:`planner.sizing.checks.multi_year` of a design against the session's demand (or ``demand``) with the
    session's cost assumptions (its horizon follows the amortisation period) and calibration; None without a
    demand, for a design the sizing rules do not judge, or when the library refuses it."""
    dj = demand or demand_json()
    if not dj:
        return None
    try:
        return _years(design_json, dj, assumptions_json(), state.session_calibration())
    except PlannerError:
        return None


def tco_caveats(design_json: str, years: int) -> list[str]:
    """What a TCO over ``years`` [years] of this design leaves out of the session's demand
    (:func:`planner.commercial.tco.tco_caveat_words`): the servers its growth adds within it. The Compare page
    gave "TCO 5 years $…" of each system with no word where the Size page and the proposal said "growth needs
    more from year 4" of the same design (stop 52's note)."""
    from planner.commercial.tco import tco_caveat_words
    from planner.models.design import parse_design

    view = years_view(design_json)
    if view is None:
        return []
    nodes = parse_design(design_json).nodes
    return tco_caveat_words(nodes, view["first_year_needing_more_nodes"], None, years) if nodes else []


def verdict(design_json: str) -> dict | None:
    """The design against the session's demand (:func:`planner.sizing.verdict.demand_verdict`),
    None without a demand; ``{"error": message}`` when the library refuses it."""
    dj = demand_json()
    if not dj:
        return None
    try:
        return _verdict(design_json, dj, assumptions_json(), state.session_calibration())
    except PlannerError as exc:
        return {"error": refused_words(exc)}


def refused_words(exc: PlannerError) -> str:
    """The library's refusal of a design in a page's words: a RAM total no DIMM set builds in one short sentence
    (:func:`planner.sizing.checks.unpriced_words`: the Design page gave the rule's 60 words twice, the Compare page
    four times; verification walk 2026-12-01), any other as the library says it."""
    from planner.commercial.pricing import UnbuiltRamError
    from planner.sizing.checks import unpriced_words

    if isinstance(exc, UnbuiltRamError):
        return unpriced_words(exc)
    return str(exc)


def follow_demand(design_json: str) -> str | None:
    """The session's workload when it is the demand's own load: the same databases on this
    design's node count (a node removed moves its databases onto the others). Updates the
    session's workload and returns a note when it moved, else None."""
    from planner.engine.loads import rehosted
    from planner.models.demand import Demand
    from planner.models.workload import parse_workload

    dj = demand_json()
    if not dj:
        return None
    from planner.models.design import Design

    # where the databases run: a disaggregated design's database (client) servers, not its storage nodes (48 VMs
    # per node on the 5 storage nodes of a Ceph design ran 48 on each of its 8 client servers, 384 of 240;
    # Ceph/vSAN walk 2026-11-30)
    try:
        d = Design.model_validate_json(design_json)
    except ValueError:
        return None
    nodes = d.database_servers
    where = "node" if d.topology == "hyperconverged" else "database server"  # a hyperconverged node runs them
    w = parse_workload(state.workload_json())
    try:
        demand = Demand.model_validate_json(dj)
        new = rehosted(w, demand, nodes)
    except PlannerError:
        return None
    earlier = new is None
    if new is None and w.vms_total is not None and w.vms_per_node is not None:
        # an earlier demand's workload (sized again since, not used): its own databases stay too. 27 per node of its
        # 132 on 4 nodes ran 108 of them, 24 dropped from the CPU and RAM without a word (verification walk
        # 2026-11-30)
        new = w.model_copy(update={"vms_per_node": max(1, math.ceil(w.vms_total / max(nodes, 1)))})
    if new is None or new.vms_per_node == w.vms_per_node:
        return None
    state.set_workload(state.workload_name(), state.canonical(new.model_dump(mode="json")))
    # the Performance page's editor holds the VMs per node too: it follows, not the other way round
    st.session_state["c_vms"] = new.vms_per_node
    # counted from the demand, not from the last what-if ("80 per node became 15" after 3 nodes then 16
    # read as if the sized design had 80)
    return (
        (
            f"The earlier demand's {new.vms_total:,} database VMs stay"
            if earlier
            else f"The demand's {fmt.num(demand.database_count(), 0)} databases stay"
        )
        + f": {new.vms_per_node} database VMs per {where} on {count(nodes, where)} ({w.vms_per_node} per {where} "
        "before this change)."
    )


# ------------------------------------------------------------------ panels
def guest_licence_box(col) -> str:
    """The Windows Server guests' licence of a Ceph or vSAN cost, in ``col``: the one box the SLA page's Cost
    assumptions and the Size page's Prices and licences draw (Ceph operator walk: Linux guests were found on the SLA
    page alone). Returns the choice."""
    return str(
        col.selectbox(
            "Windows Server guests (Ceph, vSAN)",
            list(GUEST_LICENCE_NAMES),
            format_func=GUEST_LICENCE_NAMES.__getitem__,
            key=GUEST_OS,
            help="The databases run in Windows Server VMs: Microsoft licenses unlimited Windows Server VMs on a host "
            "by Windows Server Datacenter on all its physical cores (at least 8 per CPU, 16 per server), whatever the "
            "hypervisor. Counted at the Windows Datacenter price, spread over the amortisation months, as on Storage "
            "Spaces Direct (whose host licence covers its guests); choose not counted for SQL Server on Linux guests, "
            "or guests licensed elsewhere.",
        )
    )


def prices_panel(prefix: str) -> None:
    """SQL Server licences and the customer's quote file: they apply to every cost on every page."""
    from planner.commercial.prices import MAX_QUOTE_BYTES, read_quotes

    ss = st.session_state
    inputs.keep(SQL_EDITION, SQL_LICENSING)
    ss.setdefault(SQL_EDITION, "none")
    ss.setdefault(SQL_LICENSING, "licence-included")
    # a closed section draws nothing (its quote box, choices and notes were drawn, hidden, on every run); the
    # choices keep their values closed (inputs.keep), and the quotes in use are in the session, not the box
    box = st.expander(
        "Prices and licences: SQL Server, Windows guests, your quotes",
        icon=":material/sell:",
        key=f"{prefix}_prices_open",
        on_change="rerun",
    )
    if not box.open:
        return
    with box:
        c = st.columns(3)
        c[0].selectbox(
            "SQL Server licences",
            list(SQL_EDITIONS),
            format_func=SQL_EDITIONS.__getitem__,
            key=SQL_EDITION,
            help="per core for the demand's database VMs (every vCPU, at least 4 per VM; Enterprise may license the "
            "hosts' physical cores instead when that is cheaper)",
        )
        c[1].radio(
            "SQL Server licensing",
            list(SQL_LICENSINGS),
            format_func=SQL_LICENSINGS.get,
            key=SQL_LICENSING,
            disabled=ss[SQL_EDITION] == "none",
        )
        guest_licence_box(c[2])
        up = inputs.file_box(
            st,
            "Your quotes",
            f"{prefix}_quotes_upload",
            MAX_QUOTE_FILE_MB,
            "CSV or XLSX",
            ["csv", "xlsx"],
            help="A part column (catalog id) or a vendor column, and price_usd or discount_pct.",
        )
        seen = f"{prefix}_quotes_seen"
        if up is not None and ss.get(seen) != up.file_id:
            ss[seen] = up.file_id
            try:
                if up.size > MAX_QUOTE_BYTES:
                    raise PlannerError(f"{up.name} is larger than 1 MB", "quotes")
                q = read_quotes(up.getvalue(), up.name)
            except PlannerError as exc:
                st.error(f"Quotes not applied: {fmt.md(exc)}", icon=":material/error:")
            else:
                ss[QUOTES] = {"file": up.name, **q}
        if note := quotes_note():
            k = st.columns([4, 1])
            k[0].caption(f"In use on every page: {note}.")
            if k[1].button("Remove the quotes", key=f"{prefix}_quotes_remove"):
                ss.pop(QUOTES, None)
                st.rerun()
        else:
            st.caption(
                "Without quotes, parts are priced from the dated price list (or the catalog's estimate); the cost "
                "breakdown says which kind each price is. Part ids are in the parts list."
            )


def price_kinds_caption(cost: dict) -> None:
    """Which prices are quoted, list, street or estimated: said once, not on every line."""
    from planner.commercial.prices import KIND_WORDS, price_book
    from planner.commercial.tco import price_kinds

    kinds = price_kinds(cost)
    order = list(KIND_WORDS)
    said = "; ".join(
        f"{KIND_WORDS[k]}: {len(v)} part{'s' if len(v) != 1 else ''}"
        for k, v in sorted(kinds.items(), key=lambda kv: order.index(kv[0]))
    )
    st.caption(
        # the licence's own "seen" date, as the SLA page and the document say it ("compiled 2026-11-25" here beside
        # "estimated list price, 2026-11-22" there; browser review 2026-11-30)
        f"Prices: {said} (price list of {price_book()['date_compiled']}; licences: {cost['licence_seen']})."
        + (f" Quotes: {quotes_note()}." if quotes_note() else "")
    )


def cost_breakdown(cost: dict, key: str, grows_in: int | None = None, nodes: int | None = None) -> None:
    """The whole cost by line, per month and purchase, the 3- and 5-year TCO, the parts list; ``grows_in``: the
    first year the demand's growth needs more than the design's ``nodes`` servers (its sizing's multi-year view),
    said under the TCOs it falls within."""
    from planner.commercial.tco import tco_caveat_words

    m = st.columns(4)
    # four figures a quarter wide each: sized to fit (a 5-year TCO past $1 M overflowed in presenter mode)
    chrome.fitted_metric(m[0], "Whole cost/month", fmt.usd(cost["monthly"]["total_usd_per_month"]), f"{key}_cb_month")
    chrome.fitted_metric(m[1], "Purchases", fmt.usd(sum(cost["upfront"].values())), f"{key}_cb_purchases")
    for col, t in zip(m[2:], cost["tco"]):
        chrome.fitted_metric(col, f"TCO, {t['years']} years", fmt.usd(t["total_usd"]), f"{key}_cb_tco{t['years']}")
        # the proposal's caveat beside the same figure (pricing walk 2026-11-30: "TCO, 5 years $512,390" here, "...
        # (today's 5 servers; growth needs more from year 4)" in the document)
        if nodes and (said := tco_caveat_words(nodes, grows_in, None, t["years"])):
            col.caption(fmt.md(sentence("; ".join(said))))
    rows = [
        {
            "Cost line": x["line"],
            "Purchase, USD": fmt.usd(x["upfront_usd"]),
            "Per month, USD": fmt.usd(x["usd_per_month"]),
            "How it is counted": x["basis"],
        }
        for x in cost["lines"]
    ]
    rows.append(
        {
            "Cost line": "Total",
            "Purchase, USD": fmt.usd(sum(cost["upfront"].values())),
            "Per month, USD": fmt.usd(cost["monthly"]["total_usd_per_month"]),
            "How it is counted": f"purchases spread over {count(cost['amortisation_months'], 'month')}",
        }
    )
    st.markdown(fmt.table(rows))
    st.caption(
        (f"{fmt.md(rounded)}. " if (rounded := rounding_note(cost)) else "")
        # the Compare page's words for the same cost (licensing.licences_counted): the Windows guests and SQL Server too
        + f"Licences counted: {fmt.md(licences_counted(cost))}. TCO = purchases + the running costs "
        "(support, power, rack space, subscriptions) of each month."
        + (" " + " ".join(fmt.md(sentence(n)) for n in cost["notes"]) if cost["notes"] else "")
    )
    parts = st.expander("Parts list (servers, switches, optics and cables)", key=f"{key}_parts", on_change="rerun")
    if parts.open:
        with parts:
            st.dataframe(
                [
                    {
                        # the part by its name (its catalog id is the engineer's, in the CSV and the design file;
                        # browser review 2026-11-29: the customer saw "dell-r750" beside the name)
                        "Part": x["description"],
                        "Quantity": fmt.num(x["quantity"], 0),
                        "Unit price, USD": fmt.usd(x["unit_price_usd"], 2),
                        "Total, USD": fmt.usd(x["total_usd"]),
                    }
                    for x in cost["parts"] + cost["network"]["lines"]
                ],
                hide_index=True,
                width="stretch",
            )
            st.caption(
                f"{cost['rack_units']} rack units, {fmt.num(cost['power_w'], 0, 'W')} typical, "
                f"{cost['physical_cores']:,} physical cores."
            )
    price_kinds_caption(cost)


#: the dimensions' names in a metric's width (the library's own names are in the summary sentence); fault tolerance
#: keeps its own: the column read "Failures" above a checklist saying "not met: Fault tolerance" (what-if call
#: 2026-11-30)
SHORT_LABELS = {"latency": "Latency", "database_cpu": "Cores", "n_plus_one": "N+1"}


def _down(d: dict) -> str:
    """The words ", one node down" for a hosting row judged so (the cells read as every node up beside "up to 29 per node";
    presales walk 2026-11-30)."""
    return ", one node down" if d.get("one_node_down") else ""


def _short(d: dict) -> str:
    """A dimension's figures in a few words (the detail is its help)."""
    k = d["key"]
    if k == "iops":
        at = "under the CPU cap" if d.get("carried_at") == "cpu_cap" else "at saturation"
        # every node up, and one node down where that saturates lower: the cell read "1,507,438 IOPS at saturation"
        # unlabelled beside cells saying "one node down", the proposal "1,144,635 ... with one server down"
        # (customer-engineer walk 2026-12-01)
        down = d.get("saturation_one_node_down_iops")
        # the saturation's held-out band, the library's (honesty audit 2026-12-01: "1,865,617 IOPS at saturation
        # (1,182,965 one node down)" had none); under a CPU cap the figure is the cap's, with no band of its own
        up_band = (
            fmt.band_text(d.get("saturation_iops_low"), d.get("saturation_iops_high"))
            if at == "at saturation"
            else None
        )
        # one node down: no range, said as the library says it (the ranges are the healthy cluster's)
        down_band = fmt.band_text(
            d.get("saturation_one_node_down_iops_low"), d.get("saturation_one_node_down_iops_high")
        ) or d.get("saturation_one_node_down_iops_note")
        return (
            f"{fmt.iops(d['have'])} IOPS {at}"
            + (f" ({up_band})" if up_band else "")
            + ", all nodes up"
            + (
                f" ({fmt.iops(down)} one node down" + (f", {down_band}" if down_band else "") + ")"
                if down is not None
                else ""
            )
            + f", {fmt.iops(d['need'])} needed"
        )
    if k == "latency" and str(d.get("detail", "")).startswith("the load cannot be carried"):
        # past saturation there is no latency: "demand mean 3.195 ms vs 1.000 ms" beside "604,350 IOPS at saturation,
        # 715,450 needed" (browser review 2026-11-29)
        return NO_LATENCY_PAST_SATURATION
    if k == "latency":
        # the demand's tiers with every node up: the Performance page's headline beside it can be the view one
        # node down, or another workload (browser review 2026-11-29: "VM latency 0.622 ms" above "worst 0.545 ms")
        # a percentile is the worse of reads and writes (loads.class_latency_ms): "Ultra p99 2.063 ms" stood beside the
        # page's "p99 read latency 2.002 ms" as a second p99 (presales walk 2026-11-30)
        of = " (worse of reads, writes)" if d.get("statistic") in ("p90", "p99") else ""
        tier = f"{d['tier']} {d['statistic']}{of} " if d.get("tier") else "worst "
        return f"{tier}{fmt.ms(d['have'])} vs {fmt.ms(d['need'])} target, all nodes up"
    if k == "capacity":
        # the Size page's tile's precision (two decimals, more where they would round to nothing): "11.2 TB needed"
        # stood under its "11.25 TB needed" (Size page walk 2026-12-03)
        places = fmt.shown_decimals(d["have"], d["need"])
        return f"{fmt.num(d['have'], places, 'TB')} usable, {fmt.num(d['need'], places, 'TB')} needed"
    if k == "vcpus":
        rate = d.get("database_rate")
        if rate and not rate["carried"]:  # the nodes have the vCPUs; each database's own are too few
            return f"each database needs {rate['needs']} for its rate"
        if d.get("tier_vm_io"):  # the nodes have the vCPUs; one VM of a tier issues too little
            return "a database VM issues too little for its guarantee"
        return f"{tidy(d['need'])} of {fmt.num(d['have'], 0)} vCPUs per node{_down(d)}"
    if k == "database_cpu":
        return f"{tidy(d['need'])} of {tidy(d['have'])} cores busy per node{_down(d)}"
    if k == "ram":
        return f"{fmt.num(d['need'], 0)} of {fmt.num(d['have'], 0, 'GB')} per node{_down(d)}"
    if k == "n_plus_one" and d.get("asked") is False:
        # "data rebuilt: yes; targets held: yes" for a check that was not made (architect review 2026-11-30)
        return "not asked by the demand"
    if k == "n_plus_one" and "capacity_met" in d:
        return (
            f"data rebuilt: {'yes' if d['capacity_met'] else 'no'}; "
            f"targets held: {'yes' if d['performance_met'] else 'no'}"
        )
    if k == "fault_tolerance" and "asked" in d:
        return f"{d['asked']}: {'survived' if d['met'] else 'not survived'}"
    return "met" if d["met"] else "not met"


def network_gaps(cost: dict | None) -> str | None:
    """What the whole cost leaves out of the network because the catalog cannot price it (switches of the
    NICs' speed, cables or optics), in a sentence; None when nothing. With a 10 GbE NIC the Design and
    Compare pages showed a whole cost with no word that its switches were missing (browser review
    2026-11-29); the proposal said "8 links not priced"."""
    if not cost:
        return None
    # the catalog's gaps say "not priced"; a switchless design's note (the customer's own switches, "outside this
    # design's price") is not a gap: listed here it read as if the server-to-server cabling were left out (stop 55)
    gaps = [n for n in cost["network"]["notes"] if "not priced" in n]
    return "Not in this cost: " + "; ".join(gaps) if gaps else None


def verdict_panel(v: dict | None, key: str, title: str = "Against the demand", warned: set[str] | None = None) -> None:
    """The design against the session's demand: met or not per dimension, $/month (or why it has no price, in one
    line), what no longer fits (nothing without a demand). ``warned``: the rules the page's own warnings say with
    their reasons and sources, named here by their titles alone (the memory rule's 60 words stood in the verdict and
    again in its warning; verification walk 2026-12-01)."""
    if v is None:
        return
    if "error" in v:
        st.error(f"{title}: {fmt.md(v['error'])}", icon=":material/error:")
        return
    if not v["judged"]:
        st.markdown(f"**{title}**")
        st.caption(fmt.md(sentence(v["note"])))
        st.metric("Whole cost/month", fmt.usd(v["usd_per_month"]), help=fmt.md(v.get("usd_per_month_note") or ""))
        return
    dims = v["dimensions"]
    if other_demands_load(v):
        # the workload "Use this design" loaded is an earlier demand's: the page's figures are of it, the rows below
        # of the Size page's latest demand (browser review 2026-11-29: "240 VMs ... 1,000 GB per VM" above "144.0
        # TB needed" of another demand)
        st.caption(
            ":orange[The workload on this page is an earlier demand's (loaded by **Use this design**); the rows "
            "below judge the Size page's latest demand. Use a design for it to see its own figures.]"
        )
    if state.demand_tiers_changed():
        st.caption(
            ":orange[The tiers changed on the SLA & tiers page since the demand was sized: the rows below judge "
            "the demand with the tiers as they were. Size it again on the Size page to judge the new ones.]"
        )
    # one element, not a metric per dimension: a what-if redraws it, and twenty widgets cost the browser
    # more than the model call (the figures are the library's numbers formatted here: no user text in them)
    labels = [SHORT_LABELS.get(d["key"], d["label"]) for d in dims]
    met = {
        k: fmt.Markup(
            ":gray[**not\u00a0asked**]"
            if d.get("asked") is False and d["key"] == "n_plus_one"
            else ":green[**met**]"
            if d["met"]
            else ":red[**not\u00a0met**]"
        )
        for k, d in zip(labels, dims)
    }
    figures = {k: _short(d) for k, d in zip(labels, dims)}
    if v["other_fails"]:
        # a rule beside the dimensions (mirror volumes for databases, a budget, a vendor's count): every column read
        # "met" above "not met: the rule 'databases on mirror volumes'" (presales walk 2026-11-30)
        met["Other rules"] = fmt.Markup(":red[**not\u00a0met**]")
        figures["Other rules"] = "; ".join(f["title"] for f in v["other_fails"])
    st.markdown(
        f"**{title}**\n\n" + fmt.table([met, figures]),
        help=fmt.md(" ".join(f"{d['label']}: {customer_words(d['detail'])}." for d in dims)),
    )
    c = st.columns([1, 3], vertical_alignment="center")
    c[0].metric(
        "Whole cost/month",
        fmt.usd(v["usd_per_month"]),
        help=fmt.md(v["usd_per_month_note"])
        if v.get("usd_per_month_note")
        else "servers, switches, optics and cables, licences of the platform, SQL Server when counted, support, "
        "power and rack space (the Size page breaks it down)",
    )
    if v["usd_per_month"] is None and v.get("usd_per_month_note"):
        # why there is no figure, seen, not under a help icon beside a dash
        c[0].caption(fmt.md(sentence(customer_words(v["usd_per_month_note"]))))
    if gap := network_gaps(v.get("cost")):
        c[0].caption(f":orange[{fmt.md(gap)}]")
    # the verdict's sentences name parts, stacks and fields by their ids ("the ceph stack's own rules (the
    # demand names s2d)", "intel-x710-2x10g", "allow_parity"): a customer reads them in words
    (c[1].success if v["met"] and v["feasible"] else c[1].warning)(fmt.said(v["summary"]), icon=":material/checklist:")
    if v.get("stack_note"):
        st.caption(fmt.md(sentence(customer_words(v["stack_note"]))))
    if v["other_fails"]:
        st.caption(
            fmt.md(
                "Other sizing rules not met: "
                + "; ".join(
                    f"{f['title']} ("
                    + ("the warning below says why" if f["rule"] in (warned or ()) else customer_words(f["reason"]))
                    + ")"
                    for f in v["other_fails"]
                )
            )
            + "."
        )


def other_demands_load(v: dict | None) -> bool:
    """Whether the session's workload is a sized demand's load, but not the judged demand's."""
    if not v or "error" in v or not v.get("judged"):
        return False
    # the sized demand's load as loaded: a custom workload edited from it keeps its name but is the engineer's own
    # ("an earlier demand's" beside the sidebar's "Workload custom"; browser review 2026-11-30)
    return (
        state.workload_name() == state.SIZED
        and str(json.loads(state.workload_json()).get("name", "")).startswith("demand (")
        and not _own_load(v)
    )


def _own_load(v: dict | None) -> bool:
    """Whether the session's workload is the demand's own load on the judged design."""
    if not v or "error" in v or not v.get("judged"):
        return False
    from planner.engine.loads import rehosted
    from planner.models.demand import Demand
    from planner.models.workload import parse_workload

    try:
        return (dj := demand_json()) is not None and rehosted(
            parse_workload(state.workload_json()), Demand.model_validate_json(dj), v["nodes"]
        ) is not None
    except PlannerError:
        return False


def shown_warnings(warnings: list[dict], v: dict | None) -> list[dict]:
    """The report's warnings to show beside a demand verdict: with the demand's own load in use,
    the hosting ones go, since the verdict's vCPU and RAM rows judge them
    (:func:`planner.sizing.verdict.without_hosting_warnings`, the proposal's filter too)."""
    if not _own_load(v):
        return warnings
    from planner.sizing.verdict import without_hosting_warnings

    return without_hosting_warnings(warnings)


def hosting_caveat(warnings: list[dict], v: dict | None, one_node_down: bool = False) -> str | None:
    """The headline's caveat when the nodes cannot host the VMs: the report's, or with the demand's
    own load the verdict's vCPU and RAM rows, as the headline is shown: every node up, or ``one_node_down``
    (the Performance page's degraded view: it read no caveat beside "1,033 of 1,024 GB per node, one node down")."""
    if v is None or not _own_load(v):
        return fmt.hosting_caveat(warnings)
    words = {"vcpus": "too few vCPUs", "database_cpu": "too few cores for the databases' work", "ram": "not enough RAM"}
    # every node up, as the headline is: a row judged with one node down may fail where the nodes all up host the VMs
    short = [
        d["key"]
        for d in v["dimensions"]
        if d["key"] in words and not (d["met"] if one_node_down else d.get("met_all_nodes_up", d["met"]))
    ]
    if not short:
        return None
    what = " and ".join(words[c] for c in short)
    return f":red[as if the nodes could host the databases: {what} (see against the demand)]"


def tier_price_rows(tp: dict, tiers_json: str) -> list[dict]:
    """The tier prices' CSV rows: each tier's promise beside its price, the limit in the pages' words ("capacity
    (n+1)" was the code's, and the file had no tier's IOPS, latency or size; pricing review 2026-11-30)."""
    from planner.commercial.tiers import limit_words
    from planner.models.tiers import TierSet

    promised = TierSet.model_validate_json(tiers_json).by_name()
    rows = []
    for k, v in tp["tiers"].items():
        t = promised.get(k)
        rows.append(
            {"tier": k}
            | (
                {
                    "guaranteed_iops": t.guaranteed_iops,
                    "burst_iops": t.burst_iops,
                    "latency_target_ms": t.latency_target_ms,
                    "latency_statistic": t.latency_statistic,
                    "capacity_tb_per_db": t.capacity_tb_per_db,
                }
                if t is not None
                else {}
            )
            | {kk: (round(vv, 4) if isinstance(vv, float) else vv) for kk, vv in v.items()}
            | {"limited_by": limit_words(v["limited_by"])}
        )
    return rows
