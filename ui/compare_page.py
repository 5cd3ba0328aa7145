"""Compare / what-if: 2-4 designs side by side (current included) with deltas
and bands, and a tornado chart of which input moves IOPS and latency most."""
from __future__ import annotations

import json

from planner.performance import BOTTLENECK_LABELS
import streamlit as st

from planner.design import Design, DriveSet
from planner.errors import PlannerError
from ui import charts, chrome, export, fmt, inputs, state

chrome.header("Compare / what-if")
ss = st.session_state
dj, wj = state.design_json(), state.workload_json()
cur = json.loads(dj)
st.caption(f"Workload **{fmt.md(state.workload_name())}** (change it on the Performance page).")

others = st.multiselect("Compare the current design with (up to 3)", state.design_examples(), max_selections=3,
                        key="cmp_examples", default=None)
with st.expander("What-if variant of the current design", expanded=True):
    c = st.columns(4)
    if "wi_nodes" not in ss:
        ss["wi_nodes"] = min(cur["nodes"] + 1, 16)
        ss["wi_drives"] = cur["node"]["capacity_drives"]["count"]
        ss["wi_cap"] = float(cur["cpu_utilization_cap"])
        ss["wi_transport"] = cur["transport"]
    on = c[0].checkbox("Include what-if", value=True, key="wi_on")
    wi_nodes, e_nodes = inputs.number(c[1], "Nodes", "wi_nodes", inputs.model_bounds(Design, "nodes"),
                                      integer=True, step=1)
    wi_drives, e_drives = inputs.number(c[2], "Drives per node", "wi_drives", inputs.model_bounds(DriveSet, "count"),
                                        integer=True, step=1)
    c[3].slider("CPU cap", 0.05, 1.0, step=0.05, key="wi_cap")
    inputs.show(c[1], e_nodes)
    inputs.show(c[2], e_drives)

scenarios = [("current", dj)]
errors = []
if on and len(others) < 3 and not (e_nodes or e_drives):
    wi = json.loads(dj)
    wi["name"] = "what-if"
    wi["nodes"] = int(wi_nodes)
    wi["node"]["capacity_drives"]["count"] = int(wi_drives)
    wi["cpu_utilization_cap"] = float(ss["wi_cap"])
    try:
        scenarios.append(("what-if", state.validate_design(wi)))
    except PlannerError as exc:
        errors.append(f"what-if: {exc}")
for name in others:
    scenarios.append((name, state.example_json(name)))
for e in errors:
    st.error(fmt.md(e))

# (key, label, formatter, smaller is better)
METRICS = [("usable_capacity_tb", "Usable capacity", fmt.tb, False), ("iops", "IOPS", fmt.iops, False),
           ("read_latency_ms", "Read latency (storage)", fmt.ms, True),
           ("write_latency_ms", "Write latency (storage)", fmt.ms, True),
           ("vm_latency_ms", "VM latency", fmt.ms, True), ("p99_read_latency_ms", "p99 read latency (VM)", fmt.ms, True)]
SHOWN = ("usable_capacity_tb", "iops", "vm_latency_ms", "p99_read_latency_ms")
reports = [(n, state.report(d, wj)) for n, d in scenarios]
base = reports[0][1]
cols = st.columns(len(reports))
for col, (name, r) in zip(cols, reports):
    with col:
        st.subheader(fmt.md(name))
        st.caption(f"{r['nodes']} nodes · {r['resiliency']} · {r['transport']}")
        for key, label, f, lower_better in METRICS:
            if key not in SHOWN:
                continue
            delta = None
            if name != "current" and base[key]:
                delta = f"{r[key] / base[key] - 1:+.1%}"
            st.metric(label, f(r[key]), delta=delta, delta_color="inverse" if lower_better else "normal")
            if r.get(f"{key}_low", r[key]) < r.get(f"{key}_high", r[key]):
                st.caption(f"band {fmt.span(r[f'{key}_low'], r[f'{key}_high'], f)}")
        st.caption(f"bottleneck: {BOTTLENECK_LABELS.get(r['bottleneck'], fmt.label(r['bottleneck']))}")

table, csv_rows = [], []
for name, r in reports:
    row, raw = {"Scenario": name}, {"scenario": name}
    for key, label, f, _ in METRICS:
        row[label] = f(r[key])
        raw[key] = round(r[key], 4)
        change = (r[key] / base[key] - 1) if base[key] and name != "current" else None
        row[f"{label}, change"] = fmt.DASH if change is None else f"{change:+.1%}"
        raw[f"{key}_change_pct"] = None if change is None else round(change * 100, 2)
    row["Bottleneck"] = BOTTLENECK_LABELS.get(r["bottleneck"], fmt.label(r["bottleneck"]))
    raw["bottleneck"] = r["bottleneck"]
    table.append(row)
    csv_rows.append(raw)
if not state.presenter():
    st.dataframe(table, hide_index=True, width="stretch")
    st.download_button("Comparison CSV", export.to_csv(csv_rows), file_name="comparison.csv", mime="text/csv")

names = [n for n, _ in reports]
c1, c2 = st.columns(2)
c1.plotly_chart(charts.compare_bars(names, [r["iops"] for _, r in reports], "IOPS", "IOPS",
                                    low=[r.get("iops_low", r["iops"]) for _, r in reports],
                                    high=[r.get("iops_high", r["iops"]) for _, r in reports],
                                    text=[fmt.iops(r["iops"]) for _, r in reports]),
                width="stretch", key="cmp_iops")
c2.plotly_chart(charts.compare_bars(names, [r["usable_capacity_tb"] for _, r in reports], "Usable capacity", "TB",
                                    text=[fmt.tb(r["usable_capacity_tb"]) for _, r in reports]),
                width="stretch", key="cmp_cap")

st.subheader("Which input matters most (current design)")
rows = state.tornado(dj, wj)
c1, c2, c3 = st.columns(3)
c1.plotly_chart(charts.tornado(rows, "iops", "IOPS"), width="stretch", key="tor_iops")
c2.plotly_chart(charts.tornado(rows, "vm_latency_ms", "VM latency, ms"), width="stretch", key="tor_lat")
c3.plotly_chart(charts.tornado(rows, "cost_usd_per_month", "cost, USD/month"), width="stretch", key="tor_cost")
st.caption("Each bar changes one input (the other inputs stay) and shows the change against the current "
           "design; a missing bar means that setting is not a valid design.")
