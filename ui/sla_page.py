"""SLA & tiers page: guaranteed IOPS for one database at its latency target,
and per-tier capacity and monthly price on the current design (planner.sla,
planner.tiers, planner.pricing)."""
from __future__ import annotations

import json

import streamlit as st

from planner.errors import PlannerError
from ui import chrome, export, state


@st.cache_data(show_spinner=False, max_entries=64)
def _guarantee(design_json: str, db_json: str, n_plus_one: bool) -> dict:
    from planner.catalog import load_catalog
    from planner.design import parse_design, resolve
    from planner.sla import Database, guarantee

    rd = resolve(parse_design(design_json), load_catalog())
    return guarantee(rd, Database.model_validate_json(db_json), n_plus_one=n_plus_one).model_dump(mode="json")


@st.cache_data(show_spinner=False, max_entries=64)
def _tiers(design_json: str, n_plus_one: bool) -> dict:
    from planner.catalog import load_catalog
    from planner.design import parse_design, resolve
    from planner.pricing import tier_prices
    from planner.tiers import default_tiers

    rd = resolve(parse_design(design_json), load_catalog())
    return tier_prices(rd, default_tiers(), n_plus_one=n_plus_one)


chrome.header("SLA & tiers")
dj = state.design_json()
n1 = st.toggle("Plan for N+1 (one node down)", key="sla_n1")

st.subheader("Guarantee for one database")
c = st.columns(6)
size_tb = c[0].number_input("Size, TB", 0.01, 10_000.0, value=1.0, key="sla_size")
vcpus = c[1].number_input("vCPUs", 1, 512, value=8, key="sla_vcpus")
threads = c[2].number_input("IO threads", 1, 1024, value=4, key="sla_threads")
qd = c[3].number_input("Outstanding per thread", 1, 4096, value=8, key="sla_qd")
target = c[4].number_input("Latency target, ms", 0.02, 10_000.0, value=2.0, key="sla_target")
stat = c[5].selectbox("Statistic", ["mean", "p90", "p99"], key="sla_stat")
try:
    from planner.sla import Database

    db = Database(size_tb=size_tb, vcpus=vcpus, threads=threads, outstanding_per_thread=qd,
                  latency_target_ms=target, latency_statistic=stat)
    g = _guarantee(dj, db.model_dump_json(), n1)
except PlannerError as exc:
    st.error(str(exc))
except ValueError as exc:  # pydantic validation of the database inputs
    st.error(str(exc))
else:
    m = st.columns(4)
    m[0].metric("Guaranteed IOPS", f"{g['guaranteed_iops']:,.0f}")
    m[0].caption(f"band {g['guaranteed_iops_low']:,.0f}–{g['guaranteed_iops_high']:,.0f}")
    m[1].metric(f"{g['latency_statistic']} latency at that load", f"{g['latency_ms']:.3f} ms")
    m[2].metric("Binding constraint", g["binding_constraint"])
    m[3].metric("IOPS per GB", f"{g['iops_per_gb']:.2f}")
    if not state.presenter():
        st.dataframe([{"bound": k, "IOPS": round(v, 1)} for k, v in g["bounds_iops"].items()], hide_index=True)
    if g.get("note"):
        st.caption(g["note"])

st.subheader("Tiers on this design")
try:
    tp = _tiers(dj, n1)
except PlannerError as exc:
    st.error(str(exc))
else:
    rows = [{"tier": k} | {kk: (round(vv, 4) if isinstance(vv, float) else vv) for kk, vv in v.items()}
            for k, v in tp["tiers"].items()]
    st.dataframe(rows, hide_index=True, width="stretch")
    cost = tp["monthly_cost"]
    m = st.columns(2)
    m[0].metric("Cluster cost per month", f"${cost['per_cluster']['total_usd_per_month']:,.0f}")
    m[1].metric("Capex", f"${cost['capex_usd']:,.0f}")
    if not state.presenter():
        e = st.columns(2)
        e[0].download_button("Tier prices CSV", export.to_csv(rows), file_name="tier_prices.csv", mime="text/csv")
        e[1].download_button("Pricing JSON", json.dumps(tp, indent=1, default=str), file_name="tier_prices.json",
                             mime="application/json")
        st.caption(f"Licence: {cost['licence_source']}. Assumptions are planner.pricing.CostAssumptions defaults.")
