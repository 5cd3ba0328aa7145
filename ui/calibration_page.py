"""Calibration page: how well the model predicts every measured point, in
sample and held out (leave one configuration out), with the residual table.

A customer's own benchmark files are imported and refit below the shipped
validation (ui/import_panel.py).
"""
from __future__ import annotations

import statistics

import streamlit as st

from ui import charts, chrome, export, import_panel, state

chrome.header("Calibration")
v = state.validation()
rows = v["rows"]
summary = state.calibration_summary()
if summary is None:
    st.info("No calibration file yet (planner/data/calibration.json is absent): predictions below use the "
            "starting parameter values, and no in-sample vs held-out summary is available.")
else:
    st.subheader("Median absolute error, %")
    table = []
    for judged in ("in_sample", "cross_validated", "out_of_scope_configs"):
        for ds, metrics in summary.get(judged, {}).items():
            table.append({"judged": judged.replace("_", " "), "data": ds}
                         | {m: v["median_abs_pct_error"] for m, v in metrics.items()})
    st.dataframe(table, hide_index=True, width="stretch")
    g = summary.get("guest_latency_us_fit")
    if g:
        st.caption(f"Guest latency {g['value']} µs: {g['method']} ({g['points']} points; residual p10–p90 "
                   f"{g['residual_p10_p90_us'][0]} to {g['residual_p10_p90_us'][1]} µs). Cross-validated = "
                   "each configuration predicted by a fit that never saw it.")

metrics = [m[: -len("_measured")] for m in rows[0] if m.endswith("_measured")] if rows else []
metrics = [m for m in metrics if any(r.get(f"{m}_measured") is not None for r in rows)]
c1, c2 = st.columns([3, 1])
metric = c1.selectbox("Metric", metrics, key="cal_metric")
datasets = sorted({r["dataset"] for r in rows})
chosen = c2.multiselect("Datasets", datasets, default=datasets, key="cal_datasets")
shown = [r for r in rows if r["dataset"] in chosen]
st.plotly_chart(charts.calibration_scatter(shown, metric), width="stretch", key="cal_scatter")


def _median_abs(sel, key):
    errs = [abs(r[key]) for r in sel if r.get(key) is not None]
    return (f"{statistics.median(errs):.1f} %", len(errs)) if errs else ("–", 0)


fit = [r for r in shown if r["in_fit"]]
c = st.columns(3)
for col, (label, sel, key) in zip(c, (("in sample", fit, f"{metric}_error_pct"),
                                      ("held out", fit, f"{metric}_held_out_error_pct"),
                                      ("outside the fit's scope", [r for r in shown if not r["in_fit"]],
                                       f"{metric}_error_pct"))):
    val, n = _median_abs(sel, key)
    col.metric(f"Median |error|, {label}", val, help=f"{n} points")
pts = [r for r in shown if r.get(f"{metric}_measured") is not None]
table = [{"dataset": r["dataset"], "config": r["config"], "point": r["point"], "in_fit": r["in_fit"],
          "measured": r[f"{metric}_measured"], "predicted": r[f"{metric}_predicted"],
          "error_pct": r[f"{metric}_error_pct"], "held_out_predicted": r.get(f"{metric}_held_out_predicted"),
          "held_out_error_pct": r.get(f"{metric}_held_out_error_pct")} for r in pts]
if not state.presenter():
    st.dataframe(table, hide_index=True, width="stretch")
    st.download_button("Residuals CSV", export.to_csv(table), file_name=f"residuals_{metric}.csv", mime="text/csv")
import_panel.render()
