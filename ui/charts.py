"""Every chart of the UI, built with plotly from numbers planner computed.

A what-if reruns the page; figures are built in one ``go.Figure(data, layout)``
call each (plotly validates every ``add_*``/``update_*`` separately, 20-30 ms a
chart) and remembered by their inputs (:func:`_memo`), so a rerun that does
not change a chart's numbers does not rebuild it. Treat returned figures as
read-only: the same object is handed out again.
"""
from __future__ import annotations

import functools
import json
from collections import OrderedDict

import plotly.graph_objects as go

ACCENT = "#d62728"
BASE = "#1f77b4"
MUTED = "#9aa5b1"


def _memo(fn, size: int = 64):
    """Remember the last ``size`` figures of ``fn`` by the JSON of its arguments."""
    cache: OrderedDict = OrderedDict()

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            key = json.dumps([args, kwargs], sort_keys=True, default=float)
        except (TypeError, ValueError):
            return fn(*args, **kwargs)
        if key in cache:
            cache.move_to_end(key)
            return cache[key]
        fig = cache[key] = fn(*args, **kwargs)
        if len(cache) > size:
            cache.popitem(last=False)
        return fig

    wrapper.cache = cache
    return wrapper


def _layout_dict(title: str, height: int = 380, **more) -> dict:
    """The common layout of :func:`_layout`, as data."""
    return dict(title=dict(text=title), height=height, margin=dict(l=10, r=10, t=50, b=70),
                legend=dict(orientation="h", yanchor="top", y=-0.22, xanchor="left", x=0.0), **more)


def _vline(x, dash: str, color: str, text: str, position: str) -> tuple[dict, dict]:
    """The shape and annotation ``fig.add_vline(..., annotation_position=position)`` makes."""
    shape = dict(type="line", x0=x, x1=x, xref="x", y0=0, y1=1, yref="y domain", line=dict(color=color, dash=dash))
    top = position.startswith("top")
    ann = dict(showarrow=False, text=text, x=x, xref="x", y=1 if top else 0, yref="y domain",
               xanchor="right" if position.endswith("left") else "left", yanchor="top" if top else "bottom")
    return shape, ann


def _layout(fig: go.Figure, title: str, height: int = 380) -> go.Figure:
    fig.update_layout(title=title, height=height, margin=dict(l=10, r=10, t=50, b=70),
                      legend=dict(orientation="h", yanchor="top", y=-0.22, xanchor="left", x=0.0))
    return fig


@_memo
def capacity_waterfall(cap: dict, unit: str = "TB") -> go.Figure:
    """Raw -> metadata -> reserve -> pool -> resiliency -> usable."""
    key = "capacity_tb" if unit == "TB" else "capacity_tib"
    steps = cap["waterfall"]
    measure = []
    for s in steps:
        measure.append("total" if s["step"] in ("pool available", "usable") else
                       ("absolute" if s["step"] == "raw" else "relative"))
    fig = go.Figure(go.Waterfall(
        x=[s["step"] for s in steps], y=[s[key] for s in steps], measure=measure,
        text=[f"{s[key]:,.2f}" for s in steps], textposition="outside",
        hovertext=[s["rule"] for s in steps],
        decreasing=dict(marker_color=ACCENT), increasing=dict(marker_color=BASE),
        totals=dict(marker_color="#2ca02c"),
    ))
    fig.update_yaxes(title=unit)
    return _layout(fig, f"Capacity waterfall ({unit})")


@_memo
def latency_curve(curve: dict, point: dict | None = None) -> go.Figure:
    """Latency against offered IOPS: storage read/write and what the VM sees."""
    x = curve["iops"]
    data = [
        dict(type="scatter", x=x, y=curve["read_latency_ms"], name="storage read", line=dict(color=BASE)),
        dict(type="scatter", x=x, y=curve["write_latency_ms"], name="storage write", line=dict(color="#ff7f0e")),
        dict(type="scatter", x=x, y=curve["vm_latency_ms"], name="VM (mean)", line=dict(color="#2ca02c", width=3)),
        dict(type="scatter", x=x, y=curve["p99_read_latency_ms"], name="VM read p99",
             line=dict(color=MUTED, dash="dot")),
    ]
    if point is not None:
        data.append(dict(type="scatter", x=[point["iops"]], y=[point["vm_latency_ms"]], mode="markers+text",
                         name="this workload", marker=dict(size=14, color=ACCENT, symbol="diamond"),
                         text=["operating point"], textposition="top left"))
    lines = [_vline(curve["iops_capacity"], "dash", MUTED, "IOPS capacity", "top left")]
    if curve.get("cpu_cap_iops"):
        lines.append(_vline(curve["cpu_cap_iops"], "dot", ACCENT, "CPU cap", "bottom right"))
    layout = _layout_dict("Latency vs IOPS", 420, shapes=[sh for sh, _ in lines], annotations=[a for _, a in lines],
                          xaxis=dict(title=dict(text="IOPS (cluster)")),
                          yaxis=dict(title=dict(text="latency, ms"), type="log"))
    return go.Figure(data=data, layout=layout)


@_memo
def utilisation_bars(util: dict, bottleneck: str, title: str = "Utilisation per resource") -> go.Figure:
    names = list(util)
    vals = [util[n] * 100 for n in names]
    # a policy bottleneck (the CPU cap) is spent on the host CPU
    hot = "host_cpu" if bottleneck == "cpu_utilization_cap" else bottleneck
    colors = [ACCENT if n == hot else BASE for n in names]
    bar = dict(type="bar", x=vals, y=names, orientation="h", marker=dict(color=colors),
               text=[f"{v:.0f} %" for v in vals], textposition="auto")
    layout = _layout_dict(title, 300, xaxis=dict(title=dict(text="utilisation, %"), range=[0, 105]),
                          yaxis=dict(autorange="reversed"))
    return go.Figure(data=[bar], layout=layout)


@_memo
def compare_bars(names: list[str], values: list[float], title: str, unit: str) -> go.Figure:
    fig = go.Figure(go.Bar(x=names, y=values, marker_color=[ACCENT] + [BASE] * (len(names) - 1),
                           text=[f"{v:,.3g}" for v in values], textposition="outside"))
    fig.update_yaxes(title=unit)
    return _layout(fig, title, height=320)


@_memo
def tornado(rows: list[dict], metric: str = "iops", unit: str = "IOPS") -> go.Figure:
    """Change of ``metric`` when each input moves down (low) or up (high)."""
    base_key = f"base_{metric}"
    data = []
    for r in rows:
        lo = None if r[f"low_{metric}"] is None else r[f"low_{metric}"] - r[base_key]
        hi = None if r[f"high_{metric}"] is None else r[f"high_{metric}"] - r[base_key]
        data.append((r["input"], lo, hi, max(abs(lo or 0), abs(hi or 0))))
    data.sort(key=lambda t: t[3])
    fig = go.Figure()
    fig.add_bar(y=[d[0] for d in data], x=[d[1] for d in data], orientation="h", name="low setting",
                marker_color=BASE)
    fig.add_bar(y=[d[0] for d in data], x=[d[2] for d in data], orientation="h", name="high setting",
                marker_color=ACCENT)
    fig.update_layout(barmode="overlay")
    fig.update_xaxes(title=f"change in {unit}", zeroline=True, zerolinewidth=2)
    return _layout(fig, f"Sensitivity of {unit}", height=360)


@_memo
def calibration_scatter(rows: list[dict], metric: str, log: bool = True) -> go.Figure:
    """Predicted against measured: in-sample (the full fit) and held out (the fit
    that never saw the point's configuration; outside the fit's scope in grey)."""
    fig = go.Figure()
    allv = []
    series = (
        ("in sample", lambda r: r["in_fit"], f"{metric}_predicted", BASE),
        ("held out (cross-validated)", lambda r: r["in_fit"], f"{metric}_held_out_predicted", ACCENT),
        ("outside the fit's scope", lambda r: not r["in_fit"], f"{metric}_predicted", MUTED),
    )
    for name, keep, key, color in series:
        pts = [r for r in rows if keep(r) and r.get(f"{metric}_measured") and r.get(key)]
        xs = [r[f"{metric}_measured"] for r in pts]
        ys = [r[key] for r in pts]
        allv += xs + ys
        fig.add_scatter(x=xs, y=ys, mode="markers", name=f"{name} ({len(pts)})", marker=dict(color=color, size=6),
                        opacity=0.7, text=[f"{r['dataset']} / {r['config']} / {r['point']}" for r in pts])
    if allv:
        lo, hi = min(allv), max(allv)
        fig.add_scatter(x=[lo, hi], y=[lo, hi], mode="lines", name="y = x", line=dict(color=MUTED, dash="dash"))
    fig.update_xaxes(title=f"measured {metric}", type="log" if log else "linear")
    fig.update_yaxes(title=f"predicted {metric}", type="log" if log else "linear")
    return _layout(fig, f"Predicted vs measured: {metric}", height=460)


@_memo
def pareto(points: list[dict]) -> go.Figure:
    """Monthly cost against IOPS headroom; the non-dominated designs are joined."""
    pts = sorted(points, key=lambda p: p["cost"])
    front, best = [], float("-inf")
    for p in pts:
        if p["headroom_pct"] > best:
            front.append(p)
            best = p["headroom_pct"]
    fig = go.Figure()
    fig.add_scatter(x=[p["cost"] for p in pts], y=[p["headroom_pct"] for p in pts], mode="markers",
                    name="designs", text=[p["name"] for p in pts], marker=dict(size=10, color=BASE))
    fig.add_scatter(x=[p["cost"] for p in front], y=[p["headroom_pct"] for p in front], mode="lines+markers",
                    name="Pareto front", line=dict(color=ACCENT), marker=dict(size=12, color=ACCENT))
    fig.update_xaxes(title="cost, USD/month")
    fig.update_yaxes(title="IOPS headroom, %")
    return _layout(fig, "Cost vs headroom")
