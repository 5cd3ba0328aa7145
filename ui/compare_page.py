"""Compare / what-if: 2-4 designs side by side (current included) with deltas,
and a tornado chart of which input moves IOPS and latency most."""
from __future__ import annotations

import json

from planner.performance import BOTTLENECK_LABELS
import streamlit as st

from planner.errors import PlannerError
from ui import charts, chrome, export, state

chrome.header("Compare / what-if")
ss = st.session_state
dj, wj = state.design_json(), state.workload_json()
cur = json.loads(dj)
st.caption(f"Workload **{state.workload_name()}** (change it on the Performance page).")

others = st.multiselect("Compare the current design with (up to 3)", state.example_names(), max_selections=3,
                        key="cmp_examples", default=None)
with st.expander("What-if variant of the current design", expanded=True):
    c = st.columns(4)
    if "wi_nodes" not in ss:
        ss["wi_nodes"] = min(cur["nodes"] + 1, 16)
        ss["wi_drives"] = cur["node"]["capacity_drives"]["count"]
        ss["wi_cap"] = float(cur["cpu_utilization_cap"])
        ss["wi_transport"] = cur["transport"]
    on = c[0].checkbox("Include what-if", value=True, key="wi_on")
    c[1].number_input("Nodes", 1, 16, key="wi_nodes")
    c[2].number_input("Drives per node", 1, 200, key="wi_drives")
    c[3].slider("CPU cap", 0.05, 1.0, step=0.05, key="wi_cap")

scenarios = [("current", dj)]
errors = []
if on and len(others) < 3:
    wi = json.loads(dj)
    wi["name"] = "what-if"
    wi["nodes"] = int(ss["wi_nodes"])
    wi["node"]["capacity_drives"]["count"] = int(ss["wi_drives"])
    wi["cpu_utilization_cap"] = float(ss["wi_cap"])
    try:
        scenarios.append(("what-if", state.validate_design(wi)))
    except PlannerError as exc:
        errors.append(f"what-if: {exc}")
for name in others:
    scenarios.append((name, state.example_json(name)))
for e in errors:
    st.error(e)

METRICS = [("usable_capacity_tb", "Usable TB", "{:,.2f}"), ("iops", "IOPS", "{:,.0f}"),
           ("read_latency_ms", "Read ms", "{:.3f}"), ("write_latency_ms", "Write ms", "{:.3f}"),
           ("vm_latency_ms", "VM ms", "{:.3f}"), ("p99_read_latency_ms", "p99 read ms", "{:.3f}")]
reports = [(n, state.report(d, wj)) for n, d in scenarios]
base = reports[0][1]
cols = st.columns(len(reports))
for col, (name, r) in zip(cols, reports):
    with col:
        st.subheader(name)
        st.caption(f"{r['nodes']} nodes · {r['resiliency']} · {r['transport']}")
        for key, label, fmt in METRICS[:3] + METRICS[4:5]:
            delta = None
            if name != "current" and base[key]:
                delta = f"{r[key] / base[key] - 1:+.1%}"
            st.metric(label, fmt.format(r[key]), delta=delta,
                      delta_color="inverse" if "ms" in label else "normal")
        st.caption(f"bottleneck: {BOTTLENECK_LABELS.get(r['bottleneck'], r['bottleneck'])}")

table = []
for name, r in reports:
    row = {"scenario": name}
    for key, label, _ in METRICS:
        row[label] = round(r[key], 4)
        if name != "current":
            row[f"Δ {label} %"] = round((r[key] / base[key] - 1) * 100, 2) if base[key] else None
    row["bottleneck"] = r["bottleneck"]
    table.append(row)
if not state.presenter():
    st.dataframe(table, hide_index=True, width="stretch")
    st.download_button("Comparison CSV", export.to_csv(table), file_name="comparison.csv", mime="text/csv")

c1, c2 = st.columns(2)
c1.plotly_chart(charts.compare_bars([n for n, _ in reports], [r["iops"] for _, r in reports], "IOPS", "IOPS"),
                width="stretch", key="cmp_iops")
c2.plotly_chart(charts.compare_bars([n for n, _ in reports], [r["usable_capacity_tb"] for _, r in reports],
                                    "Usable capacity", "TB"), width="stretch", key="cmp_cap")

st.subheader("Which input matters most (current design)")
rows = state.tornado(dj, wj)
c1, c2, c3 = st.columns(3)
c1.plotly_chart(charts.tornado(rows, "iops", "IOPS"), width="stretch", key="tor_iops")
c2.plotly_chart(charts.tornado(rows, "vm_latency_ms", "VM latency, ms"), width="stretch", key="tor_lat")
c3.plotly_chart(charts.tornado(rows, "cost_usd_per_month", "cost, USD/month"), width="stretch", key="tor_cost")
st.caption("Each bar changes one input (the other inputs stay) and shows the change against the current "
           "design; a missing bar means that setting is not a valid design.")
