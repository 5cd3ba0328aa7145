"""Size a cluster: the cheapest catalog designs meeting a demand (planner.sizing),
the alternatives, the cost-vs-headroom Pareto front, and one click to load a
result as the current design."""
from __future__ import annotations


import streamlit as st
from pydantic import ValidationError

from planner.errors import PlannerError, format_validation_error
from planner.sizing import Demand
from planner.tiers import default_tiers
from planner import jsonio
from ui import charts, chrome, export, fmt, inputs, state


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


def _shown(row: dict) -> dict:
    """A result row as the table shows it: readable headers, units, separators."""
    return {"Nodes": row["nodes"], "Chassis": row["chassis"], "CPU": row["cpu"], "Capacity drives": row["drives"],
            "Cache": row["cache"], "NIC": row["nic"], "Resiliency": row["resiliency"],
            "Cost, USD/month": fmt.usd(row["cost_usd_per_month"]), "Usable capacity": fmt.tb(row["usable_capacity_tb"]),
            "VM latency": fmt.ms(row["vm_latency_ms"]), "IOPS headroom": f"{row['iops_headroom_pct']:,.1f} %"}


chrome.header("Size a cluster")
tiers = [t.name for t in default_tiers().tiers]
D = lambda f: inputs.model_bounds(Demand, f)  # noqa: E731
with st.form("size_form"):
    mode = st.radio("Demand", ["databases per tier", "totals"], horizontal=True, key="size_mode")
    c = st.columns(len(tiers))
    counts, problems = {}, {}
    for i, t in enumerate(tiers):
        counts[t], problems[f"size_{t}"] = inputs.number(c[i], f"{fmt.md(t)} DBs", f"size_{t}", (0, 100_000, False),
                                                         integer=True, step=1, default=[40, 20, 8, 2][i % 4])
    c = st.columns(4)
    iops, problems["size_iops"] = inputs.number(c[0], "Total IOPS (totals mode)", "size_iops", D("total_iops"),
                                                step=50_000.0, format="%.0f", default=500_000.0)
    tb, problems["size_tb"] = inputs.number(c[1], "Capacity, TB (totals mode)", "size_tb", D("capacity_tb"), unit="TB",
                                            default=20.0)
    lat, problems["size_lat"] = inputs.number(c[2], "Latency target, ms (totals mode)", "size_lat",
                                              D("latency_target_ms"), unit="ms", format="%.3f", default=1.0)
    growth, problems["size_growth"] = inputs.number(c[3], "Growth over amortisation, %", "size_growth",
                                                    D("growth_pct"), unit="%", default=20.0)
    c = st.columns(4)
    budget, problems["size_budget"] = inputs.number(c[0], "Budget, USD/month (0 = none)", "size_budget",
                                                    (0, 1e9, False), unit="USD/month", format="%.0f", default=0.0)
    max_nodes, problems["size_max_nodes"] = inputs.number(c[1], "Most nodes", "size_max_nodes", D("max_nodes"),
                                                          integer=True, step=1, default=16)
    top, problems["size_top"] = inputs.number(c[2], "Designs to return", "size_top", (1, 20, False), integer=True,
                                              step=1, default=5)
    n1 = c[3].checkbox("N+1 (still meets demand with one node down)", value=True, key="size_n1")
    go = st.form_submit_button("Size it", type="primary")
if go:
    # only the inputs the chosen mode uses must be in range
    unused = {f"size_{t}" for t in tiers} if mode == "totals" else {"size_iops", "size_tb", "size_lat"}
    shown = [m for k, m in problems.items() if m and k not in unused]
    st.session_state.pop("size_demand", None)
    for m in shown:
        inputs.show(st, m)
    if not shown:
        raw = {"growth_pct": growth, "n_plus_one": n1, "max_nodes": int(max_nodes)}
        if budget > 0:
            raw["budget_usd_per_month"] = budget
        if mode == "totals":
            raw |= {"total_iops": iops, "capacity_tb": tb, "latency_target_ms": lat}
        else:
            raw["tier_counts"] = {k: int(v) for k, v in counts.items() if v > 0}
        try:
            st.session_state["size_demand"] = Demand.model_validate(raw).model_dump_json()
            st.session_state["size_top_n"] = int(top)
        except ValidationError as exc:
            st.error(fmt.md(format_validation_error(exc)))


def _results(demand: str) -> None:
    """The sizing answer (a function so that each early end is a return, not st.stop:
    the sidebar is drawn after the page)."""
    with st.status("Screening the catalog's designs, then evaluating the cheapest in full…") as status:
        try:
            res = _size(demand, st.session_state.get("size_top_n", 5))
        except (PlannerError, ValidationError) as exc:
            status.update(label="Sizing stopped: the demand cannot be sized", state="error")
            msg = format_validation_error(exc) if isinstance(exc, ValidationError) else str(exc)
            st.error(fmt.md(msg))
            return
        status.update(label=f"Screened {res['screened']:,} designs, evaluated {res['evaluated']:,} in "
                            f"{res['seconds']:.1f} s", state="complete")
    if res.get("explanation"):
        st.error(fmt.md(res["explanation"]))
    if not res["best"]:
        return
    best = res["best"]
    m = st.columns(4)
    m[0].metric("Cheapest design, USD/month", fmt.usd(best["cost_usd_per_month"]))
    m[1].metric("Nodes", best["design"]["nodes"])
    m[2].metric("Usable capacity", fmt.num(best["usable_capacity_tb"], 1, "TB"))
    m[3].metric("IOPS headroom", f"{100 * best['headroom']:,.0f} %")
    st.caption(fmt.md(best["design"]["name"]))
    if st.button("Use the cheapest design", key="size_use_best", type="primary"):
        state.set_design(state.validate_design(best["design"]))
        st.success("Loaded as the current design: see Design, Capacity and Performance.")
    rows = [_row(best)] + [_row(r) for r in res["alternatives"]]
    st.dataframe([_shown(r) for r in rows], hide_index=True, width="stretch")
    if len(res["pareto"]) > 1 or rows:
        st.plotly_chart(charts.pareto([{"cost": r["cost_usd_per_month"], "headroom_pct": r["iops_headroom_pct"],
                                        "name": f"{r['nodes']}x {r['chassis']} {r['drives']}"} for r in rows]),
                        width="stretch", key="size_pareto")
    if not state.presenter():
        st.download_button("Designs CSV", export.to_csv(rows), file_name="sizing.csv", mime="text/csv")
        st.download_button("Sizing JSON", jsonio.dumps(res, indent=1), file_name="sizing.json",
                           mime="application/json")


demand = st.session_state.get("size_demand")
if demand:
    _results(demand)
else:
    st.caption("Enter a demand and press **Size it**.")
