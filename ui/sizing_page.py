"""Size a cluster: the cheapest catalog designs meeting a demand (planner.sizing)."""
from __future__ import annotations

import json

import streamlit as st

from planner.errors import PlannerError
from ui import chrome, export, state


@st.cache_data(show_spinner="Searching the catalog…", max_entries=16)
def _size(demand_json: str) -> dict:
    from planner.sizing import Demand, size

    return size(Demand.model_validate_json(demand_json)).model_dump(mode="json")


chrome.header("Size a cluster")
with st.form("size_form"):
    c = st.columns(4)
    iops = c[0].number_input("Total IOPS", 1_000.0, 1e9, value=500_000.0, step=50_000.0)
    tb = c[1].number_input("Capacity, TB", 0.1, 1e5, value=20.0)
    lat = c[2].number_input("Latency target, ms", 0.02, 10_000.0, value=1.0)
    growth = c[3].number_input("Growth, %", 0.0, 1000.0, value=0.0)
    n1 = st.checkbox("N+1", value=True)
    go = st.form_submit_button("Size it")
if go:
    st.session_state["size_demand"] = json.dumps({"total_iops": iops, "capacity_tb": tb, "latency_target_ms": lat,
                                                  "growth_pct": growth, "n_plus_one": n1})
demand = st.session_state.get("size_demand")
if demand:
    try:
        res = _size(demand)
    except (PlannerError, ValueError) as exc:
        st.error(str(exc))
    else:
        if res.get("explanation"):
            st.info(res["explanation"])
        st.caption(f"screened {res['screened']:,} · evaluated {res['evaluated']:,} · {res['seconds']:.1f} s")
        if res["best"]:
            st.subheader("Best")
            st.json(res["best"], expanded=False)
            design = res["best"].get("design")
            if isinstance(design, dict) and st.button("Use this design"):
                try:
                    state.set_design(state.validate_design(design))
                    st.success("Loaded as the current design.")
                except PlannerError as exc:
                    st.error(str(exc))
        flat = [{k: v for k, v in r.items() if not isinstance(v, (dict, list))} for r in res["alternatives"]]
        if flat:
            st.subheader("Alternatives")
            st.dataframe(flat, hide_index=True, width="stretch")
            st.download_button("Alternatives CSV", export.to_csv(flat), file_name="sizing.csv", mime="text/csv")
else:
    st.caption("Enter a demand and press **Size it**.")
