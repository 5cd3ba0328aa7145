"""Calibration page: how well the model predicts every measured point, in
sample and held out (leave one configuration out), with the residual table.

The headline errors are the ones that test the model: the saturation points
(unthrottled steps) and the reference cluster. On a throttled QoS step the
measured IOPS equal the throttle, so its IOPS error is 0 % by construction;
those steps are shown apart.

A customer's own benchmark files are imported and refit below the shipped
validation (ui/import_panel.py).
"""

from __future__ import annotations

import json
import statistics

import streamlit as st

from hciplan_ui import charts, chrome, export, fmt, import_panel, state
from planner.calibration.published import error_text
from planner.core.text import first_lower, first_upper
from planner.engine.performance import BOTTLENECK_LABELS, LATENCY_NAMES
from planner.models.params import load_ceph_calibration
from planner.results.calibrated_domain import DIMENSIONS

#: the Ceph fit's figures in words
METRIC_WORDS = {
    "iops": "IOPS",
    "bandwidth_mb_s": "bandwidth, MB/s",
    "write_latency_ms": "write latency",
    "osd_lps_per_osd": "processor time per OSD",
}

chrome.header("Calibration")
_stack = json.loads(state.design_json()).get("stack", "s2d")
if _stack == "ceph":
    # the page's figures are S2D's; a Ceph design's model has its own fit (UI review 2026-11-29: the page
    # was the same for every stack, with nothing saying so)
    _ceph = load_ceph_calibration().summary
    _rows = [
        {
            "Figure": METRIC_WORDS.get(k, fmt.label(k)),
            "Points": f"{v['points']:,}",
            "In sample": f"{v['median_abs_pct_error']:.1f} %",
            "Held out": f"{_ceph['leave_one_configuration_out'][k]['median_abs_pct_error']:.1f} %",
        }
        for k, v in _ceph.get("in_sample", {}).items()
        if k in _ceph.get("leave_one_configuration_out", {})
    ]
    st.info(
        "The current design is a Ceph RBD cluster. Its model is fitted on Ceph's own measurements (the Ceph "
        "blog's clusters), not on the S2D data below; its median absolute errors:",
        icon=":material/info:",
    )
    st.markdown(fmt.table(_rows))
elif _stack == "vsan":
    st.info(
        "The current design is a VMware vSAN cluster. No measured vSAN cluster is in the data: its figures use "
        "the S2D fit below with vSAN's own data path, and every page flags them as not calibrated.",
        icon=":material/info:",
    )
v = state.validation()
rows = v["rows"]
summary = state.calibration_summary()
METRIC_LABELS = {
    "iops": "IOPS",
    "host_cpu_utilization": "host CPU utilisation",
    # each latency by its one name (planner.engine.performance.LATENCY_NAMES), lower case in a sentence
    **{k: first_lower(v) for k, v in LATENCY_NAMES.items() if k != "vm_latency_ms"},
}

metrics = [m[: -len("_measured")] for m in rows[0] if m.endswith("_measured")] if rows else []
metrics = [m for m in metrics if any(r.get(f"{m}_measured") is not None for r in rows)]
# the datasets box wide enough for its chips ("Dell V…" at 1,280 px; new-user walk 2026-11-30)
c1, c2 = st.columns([1, 2])
metric = c1.selectbox("Metric", metrics, key="cal_metric", format_func=lambda m: METRIC_LABELS.get(m, fmt.label(m)))
datasets = sorted({r["dataset"] for r in rows})
chosen = c2.multiselect("Datasets", datasets, default=datasets, key="cal_datasets", format_func=fmt.label)
shown = [r for r in rows if r["dataset"] in chosen]
name = METRIC_LABELS.get(metric, fmt.label(metric))


def _pct(x):
    return fmt.DASH if x is None else f"{x:+.1f}\u00a0%"  # the sign, figure and % never wrap apart


def _median_abs(sel, key):
    errs = [abs(r[key]) for r in sel if r.get(key) is not None]
    return (f"{statistics.median(errs):.1f} %", len(errs)) if errs else (fmt.DASH, 0)


# the points that test the model: saturation points and the reference cluster
testing = [r for r in shown if r["in_fit"] and r["saturation"]]
throttled = [r for r in shown if r["in_fit"] and not r["saturation"]]
st.header(f"Median absolute error, {name}")
st.caption(
    "On the points that test the model: the saturation points (no QoS throttle) and the reference cluster; "
    "outside the fit's scope, that configuration set's saturation points."
)
c = st.columns(3)
for col, (label, sel, key) in zip(
    c,
    (
        ("in sample", testing, f"{metric}_error_pct"),
        ("held out", testing, f"{metric}_held_out_error_pct"),
        ("outside the fit's scope", [r for r in shown if not r["in_fit"] and r["saturation"]], f"{metric}_error_pct"),
    ),
):
    val, n = _median_abs(sel, key)
    col.metric(f"Median absolute error, {label}", val, help=f"{n:,} points")
t_in, n_t = _median_abs(throttled, f"{metric}_error_pct")
t_out, _ = _median_abs(throttled, f"{metric}_held_out_error_pct")
if n_t and metric == "iops":
    st.caption(
        f"Apart: throttled QoS steps ({n_t:,} points), in sample {t_in}, held out {t_out}. Their IOPS equal the "
        "throttle by construction, so this error says nothing about the model."
    )
elif n_t:
    # below saturation a latency is the model's hardest figure: its error stands beside the headline, not in a
    # grey line under it (a sceptical review, 2026-11-29: 4.4 % above, 54 % "apart")
    c2 = st.columns(3)
    c2[0].metric("Below saturation (QoS steps), in sample", t_in, help=f"{n_t:,} throttled points")
    c2[1].metric("Below saturation (QoS steps), held out", t_out, help=f"{n_t:,} throttled points")
    c2[2].caption(
        "A throttled step runs below saturation, where the figure is the model's own rather than the population's "
        "wait at its limit: the error a design that is not saturated should expect."
    )

st.plotly_chart(charts.calibration_scatter(shown, metric, label=name), width="stretch", key="cal_scatter")

if summary is None:
    st.info(
        "No calibration file yet (planner/data/calibration.json is absent): predictions below use the "
        "starting parameter values, and no in-sample vs held-out summary is available."
    )
elif not state.presenter():
    st.header("Median absolute error by dataset, %")
    table = []
    for judged in ("in_sample", "cross_validated", "out_of_scope_configs"):
        for ds, mets in summary.get(judged, {}).items():
            table.append(
                {"Judged": fmt.label(judged), "Data": fmt.label(ds)}
                # a column heads with a capital, as every table's ("Storage read latency")
                | {first_upper(METRIC_LABELS.get(m, fmt.label(m))): fmt.DASH for m in metrics}
                | {
                    first_upper(METRIC_LABELS.get(m, fmt.label(m))): f"{x['median_abs_pct_error']:.1f}"
                    for m, x in mets.items()
                }
            )
    st.dataframe(table, hide_index=True, width="stretch")
    g = summary.get("guest_latency_us_fit")
    if g:
        st.caption(
            f"Guest latency {g['value']} µs: {g['method']} ({g['points']} points; residual p10–p90 "
            f"{g['residual_p10_p90_us'][0]} to {g['residual_p10_p90_us'][1]} µs). Held out = "
            "each configuration predicted by a fit that never saw it."
        )

pts = [r for r in shown if r.get(f"{metric}_measured") is not None]
raw = [
    {
        "dataset": r["dataset"],
        "config": r["config"],
        "point": r["point"],
        "in_fit": r["in_fit"],
        "saturation": r["saturation"],
        "measured": r[f"{metric}_measured"],
        "predicted": r[f"{metric}_predicted"],
        "error_pct": r[f"{metric}_error_pct"],
        "held_out_predicted": r.get(f"{metric}_held_out_predicted"),
        "held_out_error_pct": r.get(f"{metric}_held_out_error_pct"),
    }
    for r in pts
]


if not state.presenter():
    st.dataframe(
        [
            {
                "Dataset": fmt.label(r["dataset"]),
                "Configuration": r["config"],
                "Point": r["point"],
                "In the fit": "yes" if r["in_fit"] else "no",
                "Saturation point": "yes" if r["saturation"] else "no",
                "Measured": fmt.num(r["measured"]),
                "Predicted": fmt.num(r["predicted"]),
                "Error": _pct(r["error_pct"]),
                "Held-out prediction": fmt.num(r["held_out_predicted"]),
                "Held-out error": _pct(r["held_out_error_pct"]),
            }
            for r in raw
        ],
        hide_index=True,
        width="stretch",
    )
    st.download_button("Residuals CSV", export.to_csv(raw), file_name=f"residuals_{metric}.csv", mime="text/csv")
st.header("Published results no fit has seen")
st.caption(
    "Clusters and IO sizes outside the calibrated data (2-4 nodes, 4-20 KiB). Each published result with "
    "its configuration is run through the model (shipped calibration) as a design would be: prediction, "
    "band and the ways it extrapolates. Where the source does not give the load, the row says what the "
    "prediction is for. A latency the source gives only as a bound is judged against it: the error is "
    "how far the prediction is past it at least. Memory and PCIe busy are per node at the predicted "
    "load (checks, not queues): persistent memory sits on the memory bus, so reads from it use no PCIe."
)
_UNITS = {
    "iops": (lambda x: fmt.num(x, 0, "IOPS")),
    "bandwidth_mb_s": (lambda x: fmt.num(x, 0, "MB/s")),
    "read_latency_ms": fmt.ms,
}
# a table, not a grid: five rows whose long cells (what each prediction is for) must wrap, not scroll
st.markdown(
    fmt.table(
        [
            {
                "Result": c["label"],
                "Measured": (c["measured_bound"] + " " if c["measured_bound"] else "")
                + _UNITS[c["metric"]](c["measured"]),
                "Predicted": _UNITS[c["metric"]](c["predicted"]),
                # the library's words, one rounding with the docs; the sign, figure and % never wrap apart
                "Error": error_text(c).replace(" %", "\u00a0%"),
                "Band": fmt.DASH if c["low"] is None else fmt.span(c["low"], c["high"], _UNITS[c["metric"]]),
                "Bound by": BOTTLENECK_LABELS.get(c["bottleneck"], fmt.label(c["bottleneck"]))
                if c["bottleneck"]
                else fmt.DASH,
                "Extrapolates in": "; ".join(DIMENSIONS.get(d, ("", fmt.label(d)))[1] for d in c["extrapolation"]),
                "Memory / PCIe busy per node": fmt.DASH
                if c["memory_utilization"] is None
                else f"{fmt.pct(c['memory_utilization'])} / {fmt.pct(c['pcie_utilization'])}",
                "Predicted for": c["compared_with"],
            }
            for c in state.published_checks()
        ]
    )
)

import_panel.render()
