"""Size a cluster: the cheapest catalog designs meeting a demand and every named
rule (planner.sizing), genuinely different alternatives, the binding resource,
the rules that rejected other candidates (with their sources), the cost /
guaranteed IOPS / capacity Pareto chart, the parts list and licensing options,
the multi-year view, the proposal export, and one click to carry a design and
the demand's own workload to the other pages."""
from __future__ import annotations

import json
from collections import OrderedDict

import streamlit as st
from pydantic import ValidationError

from planner.errors import PlannerError, format_validation_error
from planner.pricing import CostAssumptions
from planner.sizing import Demand
from planner.tiers import TierSet
from ui import background, charts, chrome, export, state

FT_LABELS = {"node-and-drive": "survive a node and a drive (Microsoft's recommendation for databases)",
             "node": "survive one node", "two-nodes": "survive two nodes"}
BINDING_LABELS = {"capacity": "capacity", "iops": "IOPS (saturation)", "latency": "latency target", "vcpu": "vCPUs",
                  "ram": "RAM"}
_RESULTS: "OrderedDict[tuple, dict]" = OrderedDict()  # sizing is a pure function of its inputs


def _size_dict(demand_json: str, top: int, progress=None) -> dict:
    from planner.sizing import size

    return size(Demand.model_validate_json(demand_json), top=top, progress=progress).model_dump(mode="json")


def _sized(demand_json: str, top: int) -> dict:
    """Sizing result (cached); a progress bar appears only if it outlasts a second."""
    key = (demand_json, top)
    if key in _RESULTS:
        _RESULTS.move_to_end(key)
        return _RESULTS[key]

    def show():
        bar = st.progress(0.0, text="Sizing: screening parts and evaluating the cheapest designs…")

        def update(f):
            if f is None:
                bar.empty()
            else:
                bar.progress(min(max(f, 0.0), 1.0), text=f"Sizing… {f:.0%} of the designs to return found")
        return update

    res, _ = background.run_with_progress(_size_dict, demand_json, top, show=show)
    _RESULTS[key] = res
    while len(_RESULTS) > 16:
        _RESULTS.popitem(last=False)
    return res


@st.cache_data(show_spinner=False, max_entries=32)
def _bom(design_json: str, costs_json: str) -> dict:
    from planner.bom import bom
    from planner.catalog import load_catalog
    from planner.design import parse_design, resolve
    from planner.pricing import CostAssumptions

    return bom(resolve(parse_design(design_json), load_catalog()), CostAssumptions.model_validate_json(costs_json))


@st.cache_data(show_spinner=False, max_entries=32)
def _years(design_json: str, demand_json: str) -> dict:
    from planner.catalog import load_catalog
    from planner.checks import multi_year
    from planner.design import parse_design, resolve

    return multi_year(resolve(parse_design(design_json), load_catalog()), Demand.model_validate_json(demand_json))


def _row(i: int, r: dict) -> dict:
    d = r["design"]
    n = d["node"]
    sig = r["signature"]
    return {"#": "best" if i == 0 else f"alt {i}", "nodes": d["nodes"], "resiliency": d["resiliency"],
            "drives": f"{n['capacity_drives']['count']} x {n['capacity_drives']['model']} ({sig['drives']})",
            "cache": f"{n['cache_devices']['count']} x {n['cache_devices']['model']}" if n.get("cache_devices")
            else "none", "node": n["chassis"], "cpu": f"{n['cpu']['sockets']} x {n['cpu']['model']}",
            "memory": r["memory"], "nic": n["nics"]["model"], "usd_per_month": round(r["cost_usd_per_month"]),
            "capex_usd": round(r["capex_usd"]), "usable_tb": round(r["usable_capacity_tb"], 1),
            "guaranteed_iops": round(r["guaranteed_iops"]), "binding": BINDING_LABELS.get(r["binding"], r["binding"]),
            "differs_from_best": r.get("differs_from_best", "")}


def _use(r: dict, demand: Demand) -> None:
    """Load a sized design with the demand's own workload and tier mix."""
    from planner.demand import demand_as_workload

    state.set_design(state.validate_design(r["design"]))
    w = demand_as_workload(demand, r["design"]["nodes"])
    state.set_workload("custom", state.canonical(w.model_dump(mode="json")))
    if demand.tiers is not None:
        state.set_tiers(state.canonical(demand.tiers.model_dump(mode="json")))
    for k in [k for k in st.session_state if str(k).startswith("mix_")]:
        del st.session_state[k]
    for name, c in (demand.tier_counts or {}).items():
        st.session_state[f"mix_{name}"] = int(c)
    st.session_state["sla_n1"] = demand.n_plus_one
    st.session_state["sla_bg"] = "current workload"
    st.session_state["p_workload"] = "custom"
    st.session_state["size_loaded"] = (r["design"]["name"], w.name, w.description)


chrome.header("Size a cluster")
tierset = TierSet.model_validate_json(state.tiers_json())
tiers = [t.name for t in tierset.tiers]
with st.form("size_form"):
    mode = st.radio("Demand", ["databases per tier", "totals"], horizontal=True, key="size_mode")
    st.caption("Tiers as defined on the SLA & tiers page: " + "; ".join(
        f"{t.name} {t.guaranteed_iops:,.0f} IOPS at {t.latency_statistic} {t.latency_target_ms:g} ms, "
        f"{t.capacity_tb_per_db:g} TB, {t.vcpus_per_db} vCPU, {t.ram_gb_per_db:g} GB" for t in tierset.tiers))
    c = st.columns(max(len(tiers), 1))
    counts = {t: int(c[i].number_input(f"{t} DBs", 0, 100_000, value=[120, 50, 25, 5][i] if i < 4 else 0,
                                       key=f"size_{t}")) for i, t in enumerate(tiers)}
    c = st.columns(4)
    iops = c[0].number_input("Total IOPS (totals mode)", 1_000.0, 1e9, value=500_000.0, step=50_000.0, key="size_iops")
    tb = c[1].number_input("Capacity, TB (totals mode)", 0.1, 1e5, value=20.0, key="size_tb")
    lat = c[2].number_input("Latency target, ms (totals mode)", 0.001, 10_000.0, value=1.0, format="%.3f",
                            key="size_lat")
    stat = c[3].selectbox("Latency statistic (totals mode)", ["mean", "p90", "p99"], key="size_stat")
    c = st.columns(4)
    dbs = c[0].number_input("Databases (totals mode)", 0, 100_000, value=40, key="size_dbs")
    vcpu_db = c[1].number_input("vCPUs per database (totals mode)", 1, 512, value=4, key="size_vcpu_db")
    ram_db = c[2].number_input("RAM per database, GB (totals mode)", 1.0, 24_000.0, value=16.0, key="size_ram_db")
    growth = c[3].number_input("Growth over amortisation, %", 0.0, 1000.0, value=20.0, key="size_growth")
    c = st.columns(4)
    ft = c[0].selectbox("Fault tolerance", list(FT_LABELS), format_func=FT_LABELS.get, key="size_ft")
    n1 = c[1].checkbox("N+1", value=True, key="size_n1",
                       help="capacity (rebuilt) and performance still meet the demand with one node down")
    validated = c[2].checkbox("Azure Local validated nodes", value=True, key="size_validated",
                              help="only chassis whose record lists Azure Local (validated_for)")
    parity = c[3].checkbox("Allow parity", value=False, key="size_parity",
                           help="dual parity / mirror-accelerated parity volumes; Microsoft recommends mirror for "
                                "databases")
    c = st.columns(4)
    netok = c[0].checkbox("Accept 10 GbE / no RDMA", value=False, key="size_net",
                          help="Microsoft recommends RDMA and 25 GbE from four nodes (and for all-NVMe beyond two)")
    budget = c[1].number_input("Budget, USD/month (0 = none)", 0.0, 1e9, value=0.0, key="size_budget")
    max_nodes = c[2].number_input("Most nodes", 2, 16, value=16, key="size_max_nodes")
    top = c[3].number_input("Designs to return", 1, 20, value=5, key="size_top")
    go = st.form_submit_button("Size it", type="primary")
if go:
    raw = {"growth_pct": growth, "n_plus_one": n1, "max_nodes": int(max_nodes), "fault_tolerance": ft,
           "allow_parity": parity, "allow_network_warning": netok}
    if validated:
        raw["validated_for"] = "Azure Local"
    if budget > 0:
        raw["budget_usd_per_month"] = budget
    if mode == "totals":
        raw |= {"total_iops": iops, "capacity_tb": tb, "latency_target_ms": lat, "latency_statistic": stat,
                "vcpus_per_db": int(vcpu_db), "ram_gb_per_db": ram_db}
        if dbs > 0:
            raw["databases"] = int(dbs)
    else:
        raw["tier_counts"] = {k: v for k, v in counts.items() if v > 0}
        if state.tiers_json() != state.default_tiers_json():
            raw["tiers"] = json.loads(state.tiers_json())
    try:
        st.session_state["size_demand"] = Demand.model_validate(raw).model_dump_json()
        st.session_state["size_top_n"] = int(top)
    except ValidationError as exc:
        st.error(format_validation_error(exc))
        st.session_state.pop("size_demand", None)
demand_json = st.session_state.get("size_demand")
if not demand_json:
    st.caption("Enter a demand and press **Size it**.")
    st.stop()
demand = Demand.model_validate_json(demand_json)
try:
    res = _sized(demand_json, st.session_state.get("size_top_n", 5))
except PlannerError as exc:
    st.error(str(exc))
    st.stop()
st.caption(f"Searched {res['screened']:,} designs (never built one by one), evaluated {res['evaluated']:,} in the "
           f"performance model, in {res['seconds']:.2f} s.")
if loaded := st.session_state.pop("size_loaded", None):
    st.success(f"Loaded **{state.plain(loaded[0])}** as the current design, with the demand's own workload "
               f"**{state.plain(loaded[1])}** ({state.plain(loaded[2])}): the Design, Performance and SLA & tiers "
               "pages now show this design under it, and the SLA page's tier mix holds the demand's databases.")
if res.get("explanation"):
    (st.warning if res["best"] else st.error)(res["explanation"])


def _rejections() -> None:
    rej = res.get("rejected") or {}
    if not rej:
        return
    with st.expander("Rules that rejected other candidates, with their sources", expanded=not res["best"]):
        st.dataframe([{"rule": k, "what it checks": v["title"], "rejected": v["count"], "at": v["stage"],
                       "example": v["example"], "source": v["source"]} for k, v in rej.items()],
                     hide_index=True, width="stretch")
        st.caption("A candidate can fail several rules; counts are part choices or designs at the stage the rule "
                   "applies.")


if not res["best"]:
    _rejections()
    st.stop()
best = res["best"]
results = [best] + res["alternatives"]
m = st.columns(5)
m[0].metric("Cheapest design, USD/month", f"${best['cost_usd_per_month']:,.0f}")
m[1].metric("Nodes", best["design"]["nodes"])
m[2].metric("Usable capacity", f"{best['usable_capacity_tb']:,.1f} TB")
m[3].metric("Guaranteed IOPS", f"{best['guaranteed_iops']:,.0f}",
            help="the demand-shaped load at which every tier meets its latency target" + (", one node down"
                                                                                         if demand.n_plus_one else ""))
m[4].metric("Binding", BINDING_LABELS.get(best["binding"], best["binding"]),
            help="the resource that runs out first as the demand grows: " + ", ".join(
                f"{k} {v:.2f}x" for k, v in best["limits"].items() if v is not None))
st.caption(best["design"]["name"])
rows = [_row(i, r) for i, r in enumerate(results)]
st.dataframe(rows, hide_index=True, width="stretch")
st.plotly_chart(charts.pareto([{"cost": r["cost_usd_per_month"], "guaranteed_iops": r["guaranteed_iops"],
                                "usable_tb": r["usable_capacity_tb"], "name": r["design"]["name"],
                                "label": rows[i]["#"], "on_front": p["on_front"]}
                               for i, (r, p) in enumerate(zip(results, [next(x for x in res["pareto"]
                                                                             if x["name"] == r["design"]["name"])
                                                                        for r in results]))]),
                width="stretch", key="size_pareto")
_rejections()

st.subheader("One design in detail")
pick = st.selectbox("Design", list(range(len(results))), format_func=lambda i: f"{rows[i]['#']}: "
                    f"{results[i]['design']['name']} — ${results[i]['cost_usd_per_month']:,.0f}/month", key="size_pick")
r = results[pick]
if st.button("Use this design (with the demand's workload)", key="size_use_best", type="primary"):
    _use(r, demand)
    st.rerun()
tab_rules, tab_bom, tab_years = st.tabs(["Rules", "Parts list and licensing", "Multi-year view"])
with tab_rules:
    from planner.rules import RULES

    st.dataframe([{"rule": k, "passed": "yes" if v["passed"] else "NO", "this design": v["reason"],
                   "source": RULES[k].source} for k, v in r["checks"].items()], hide_index=True, width="stretch")
    cn = r["compute"]
    st.caption(f"Per node: {cn['vcpus_per_node_needed']:,.1f} of {cn['vcpus_per_node_available']:,.0f} vCPUs, "
               f"{cn['ram_gb_per_node_needed']:,.0f} of {cn['ram_gb_per_node']:,.0f} GB RAM on {cn['hosts']} hosts "
               "(VMs of a failed node restart on the survivors)." if demand.n_plus_one else "")
with tab_bom:
    costs_json = st.session_state.get("costs_json") or CostAssumptions().model_dump_json()
    b = _bom(json.dumps(r["design"]), costs_json)
    st.dataframe([{"part": x["part"], "description": x["description"], "per node": x["per_node"],
                   "quantity": x["quantity"], "unit USD": round(x["unit_price_usd"], 2), "total USD": round(x["total_usd"]),
                   "price source": x["price_source"]} for x in b["lines"]], hide_index=True, width="stretch")
    k = st.columns(4)
    k[0].metric("Hardware", f"${b['total_usd']:,.0f}")
    k[1].metric("Rack units", f"{b['rack_units']}")
    k[2].metric("Power", f"{b['power_w']:,.0f} W")
    k[3].metric("Heat", f"{b['heat_btu_h']:,.0f} BTU/h")
    st.plotly_chart(charts.licence_bars(b["licensing"]), width="stretch", key="size_licences")
    st.dataframe([{"option": o["name"], "cores billed": o["cores_billed"], "USD/month": round(o["usd_per_month"]),
                   "USD over the period": round(o["total_usd"]), "Windows guests": o["windows_guests_included"],
                   "basis": o["basis"]} for o in b["licensing"]], hide_index=True, width="stretch")
    st.caption(f"Licence prices: editable assumptions on the SLA & tiers page (licensing.json, compiled "
               f"{b['licensing_compiled']}).")
with tab_years:
    my = r.get("multi_year") or _years(json.dumps(r["design"]), demand_json)
    st.plotly_chart(charts.multi_year(my), width="stretch", key="size_years")
    first = my["first_year_needing_more_nodes"]
    st.caption(my["note"] + (f". This cluster needs another node in year {first}." if first is not None else "."))

st.subheader("Proposal")
c = st.columns(3)
customer = c[0].text_input("Customer", key="report_customer")
author = c[1].text_input("Prepared by", key="report_author")
date = c[2].date_input("Date", key="report_date")
if st.button("Prepare the proposal (HTML and PDF)", key="size_prepare"):
    from planner.demand import demand_as_workload

    w = demand_as_workload(demand, r["design"]["nodes"])
    meta = json.dumps({"customer": customer, "author": author, "date": str(date)})
    page = export.proposal_page(json.dumps(r["design"]), state.canonical(w.model_dump(mode="json")),
                                state.tiers_json(), demand_json,
                                st.session_state.get("costs_json") or CostAssumptions().model_dump_json(), meta,
                                demand.n_plus_one)
    st.session_state["size_proposal"] = (demand_json, pick, page, None)
    if export.pdf_available():
        with st.spinner("Printing the PDF with chromium…"):
            try:
                st.session_state["size_proposal"] = (demand_json, pick, page, export.pdf_report(page))
            except Exception as exc:  # noqa: BLE001 - the HTML is still offered
                st.warning(f"The PDF could not be printed ({exc}); the HTML proposal prints from any browser.")
ready = st.session_state.get("size_proposal")
if ready and ready[0] == demand_json and ready[1] == pick:
    e = st.columns(2)
    e[0].download_button("Proposal (HTML)", ready[2], file_name="proposal.html", mime="text/html", key="size_html")
    if ready[3]:
        e[1].download_button("Proposal (PDF)", ready[3], file_name="proposal.pdf", mime="application/pdf",
                             key="size_pdf")
if not state.presenter():
    e = st.columns(2)
    e[0].download_button("Designs CSV", export.to_csv(rows), file_name="sizing.csv", mime="text/csv")
    e[1].download_button("Sizing JSON", json.dumps(res, indent=1), file_name="sizing.json", mime="application/json")
