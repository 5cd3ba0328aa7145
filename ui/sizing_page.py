"""Size a cluster: the cheapest catalog designs meeting a demand (planner.sizing),
the alternatives, the cost-vs-headroom Pareto front, and one click to load a
result as the current design."""
from __future__ import annotations

import json

import streamlit as st
from pydantic import ValidationError

from planner.errors import PlannerError, format_validation_error
from planner.sizing import Demand
from planner.tiers import default_tiers
from ui import charts, chrome, export, state


@st.cache_data(show_spinner=False, max_entries=16)
def _size(demand_json: str, top: int) -> dict:
    from planner.sizing import size

    return size(Demand.model_validate_json(demand_json), top=top).model_dump(mode="json")


def _row(r: dict) -> dict:
    d = r["design"]
    n = d["node"]
    cache = n.get("cache_devices")
    return {"nodes": d["nodes"], "chassis": n["chassis"], "cpu": f"{n['cpu']['sockets']}x {n['cpu']['model']}",
            "drives": f"{n['capacity_drives']['count']}x {n['capacity_drives']['model']}",
            "cache": f"{cache['count']}x {cache['model']}" if cache else "none", "nic": n["nics"]["model"],
            "resiliency": d["resiliency"], "cost_usd_per_month": round(r["cost_usd_per_month"], 2),
            "usable_capacity_tb": round(r["usable_capacity_tb"], 2), "vm_latency_ms": round(r["vm_latency_ms"], 3),
            "iops_headroom_pct": round(100 * r["headroom"], 1)}


chrome.header("Size a cluster")
tiers = [t.name for t in default_tiers().tiers]
with st.form("size_form"):
    mode = st.radio("Demand", ["databases per tier", "totals"], horizontal=True, key="size_mode")
    c = st.columns(len(tiers))
    counts = {t: int(c[i].number_input(f"{t} DBs", 0, 100_000, value=[40, 20, 8, 2][i % 4], key=f"size_{t}"))
              for i, t in enumerate(tiers)}
    c = st.columns(4)
    iops = c[0].number_input("Total IOPS (totals mode)", 1_000.0, 1e9, value=500_000.0, step=50_000.0, key="size_iops")
    tb = c[1].number_input("Capacity, TB (totals mode)", 0.1, 1e5, value=20.0, key="size_tb")
    lat = c[2].number_input("Latency target, ms (totals mode)", 0.001, 10_000.0, value=1.0, format="%.3f",
                            key="size_lat")
    growth = c[3].number_input("Growth over amortisation, %", 0.0, 1000.0, value=20.0, key="size_growth")
    c = st.columns(4)
    budget = c[0].number_input("Budget, USD/month (0 = none)", 0.0, 1e9, value=0.0, key="size_budget")
    max_nodes = c[1].number_input("Most nodes", 2, 16, value=16, key="size_max_nodes")
    top = c[2].number_input("Designs to return", 1, 20, value=5, key="size_top")
    n1 = c[3].checkbox("N+1 (still meets demand with one node down)", value=True, key="size_n1")
    go = st.form_submit_button("Size it", type="primary")
if go:
    raw = {"growth_pct": growth, "n_plus_one": n1, "max_nodes": int(max_nodes)}
    if budget > 0:
        raw["budget_usd_per_month"] = budget
    if mode == "totals":
        raw |= {"total_iops": iops, "capacity_tb": tb, "latency_target_ms": lat}
    else:
        raw["tier_counts"] = {k: v for k, v in counts.items() if v > 0}
    try:
        st.session_state["size_demand"] = Demand.model_validate(raw).model_dump_json()
        st.session_state["size_top_n"] = int(top)
    except ValidationError as exc:
        st.error(format_validation_error(exc))
        st.session_state.pop("size_demand", None)
demand = st.session_state.get("size_demand")
if not demand:
    st.caption("Enter a demand and press **Size it**.")
    st.stop()
try:
    with st.status("Screening the catalog's designs, then evaluating the cheapest in full…") as status:
        res = _size(demand, st.session_state.get("size_top_n", 5))
        status.update(label=f"Screened {res['screened']:,} designs, evaluated {res['evaluated']:,} in "
                            f"{res['seconds']:.1f} s", state="complete")
except PlannerError as exc:
    st.error(str(exc))
    st.stop()
if res.get("explanation"):
    st.error(res["explanation"])
if not res["best"]:
    st.stop()
best = res["best"]
m = st.columns(4)
m[0].metric("Cheapest design, USD/month", f"${best['cost_usd_per_month']:,.0f}")
m[1].metric("Nodes", best["design"]["nodes"])
m[2].metric("Usable capacity", f"{best['usable_capacity_tb']:,.1f} TB")
m[3].metric("IOPS headroom", f"{100 * best['headroom']:.0f} %")
st.caption(best["design"]["name"])
if st.button("Use the cheapest design", key="size_use_best", type="primary"):
    state.set_design(state.validate_design(best["design"]))
    st.success("Loaded as the current design: see Design, Capacity and Performance.")
rows = [_row(best)] + [_row(r) for r in res["alternatives"]]
st.dataframe(rows, hide_index=True, width="stretch")
if len(res["pareto"]) > 1 or rows:
    st.plotly_chart(charts.pareto([{"cost": r["cost_usd_per_month"], "headroom_pct": r["iops_headroom_pct"],
                                    "name": f"{r['nodes']}x {r['chassis']} {r['drives']}"} for r in rows]),
                    width="stretch", key="size_pareto")
if not state.presenter():
    st.download_button("Designs CSV", export.to_csv(rows), file_name="sizing.csv", mime="text/csv")
    st.download_button("Sizing JSON", json.dumps(res, indent=1), file_name="sizing.json", mime="application/json")
