"""Calibration page: predicted vs measured, residual table, in-sample vs held-out summary."""
from __future__ import annotations

import streamlit as st

from ui import charts, chrome, export, state

chrome.header("Calibration")
v = state.validation()
rows = v["rows"]
summary = state.calibration_summary()
if summary is None:
    st.info("No calibration file yet (planner/data/calibration.json is absent): predictions below use the "
            "starting parameter values, and no in-sample vs held-out summary is available.")
elif summary:
    st.subheader("In-sample vs held-out")
    flat = []
    for k, val in summary.items():
        if isinstance(val, dict):
            flat.append({"set": k} | {kk: vv for kk, vv in val.items() if not isinstance(vv, (dict, list))})
        else:
            flat.append({"set": k, "value": val})
    st.dataframe(flat, hide_index=True, width="stretch")

metrics = [m[: -len("_measured")] for m in rows[0] if m.endswith("_measured")] if rows else []
metrics = [m for m in metrics if any(r.get(f"{m}_measured") is not None for r in rows)]
metric = st.selectbox("Metric", metrics, key="cal_metric")
st.plotly_chart(charts.calibration_scatter(rows, metric), width="stretch", key="cal_scatter")

pts = [r for r in rows if r.get(f"{metric}_error_pct") is not None]
c = st.columns(3)
for col, (label, sel) in zip(c, (("all", pts), ("in fit", [r for r in pts if r["in_fit"]]),
                                 ("held out", [r for r in pts if not r["in_fit"]]))):
    errs = sorted(abs(r[f"{metric}_error_pct"]) for r in sel)
    col.metric(f"Median |error|, {label}", f"{errs[len(errs) // 2]:.1f} %" if errs else "–",
               help=f"{len(errs)} points")
table = [{"dataset": r["dataset"], "config": r["config"], "point": r["point"], "in_fit": r["in_fit"],
          "measured": r[f"{metric}_measured"], "predicted": r[f"{metric}_predicted"],
          "error_pct": r[f"{metric}_error_pct"]} for r in pts]
if not state.presenter():
    st.dataframe(table, hide_index=True, width="stretch")
    st.download_button("Residuals CSV", export.to_csv(table), file_name=f"residuals_{metric}.csv", mime="text/csv")
