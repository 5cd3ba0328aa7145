"""Every chart of the UI, built with plotly from numbers planner computed.

A what-if reruns the page; figures are built in one ``go.Figure(data, layout)``
call each (plotly validates every ``add_*``/``update_*`` separately, 20-30 ms a
chart) and remembered by their inputs (:func:`_memo`), so a rerun that does
not change a chart's numbers does not rebuild it. Treat returned figures as
read-only: the same object is handed out again.
"""

from __future__ import annotations

import functools
import hashlib
import html
import json
import math
from collections import OrderedDict

import plotly.graph_objects as go

from hciplan_ui import fmt
from planner.engine.performance import BOTTLENECK_LABELS
from planner.sizing.words import customer_words

ACCENT = "#d62728"
BASE = "#1f77b4"
MUTED = "#9aa5b1"
#: the markers of a scatter's series, in order: a series is told by its shape too, not by its colour alone
SYMBOLS = ("circle", "diamond", "x")


def plain(text) -> str:
    """User text (a file or job name) as plotly shows it, not as its markup: plotly draws ``<b>``,
    ``<br>`` and ``<a href=...>`` in any text it is given (a title, a hover label), and decodes
    entities, so the escaped text reads as typed."""
    return html.escape(str(text), quote=False)


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

    return wrapper


def _layout_dict(
    title: str, height: int = 380, margin: dict | None = None, description: str | None = None, **more
) -> dict:
    """The common layout of :func:`_layout`, as data: axes make room for their
    labels (automargin), so no tick label falls outside the figure.

    ``margin`` overrides the base margins. Plotly draws a figure once with its
    base margins and, when the labels (or the legend) need more room, draws it
    all again with wider ones: a base margin that already holds them saves that
    second draw (about 10 ms a chart in software-rendered chromium, on every
    what-if, since Streamlit draws each changed figure anew).

    ``description`` completes the chart's accessible name where its title and axes say too little (a tornado's
    "IOPS" and "change"): kept in the layout's ``meta``, which plotly never draws; the page's script names each
    chart from it (:func:`hciplan_ui.chrome.name_charts`)."""
    if description:
        more["meta"] = {"description": description}
    for axis in ("xaxis", "yaxis"):
        more[axis] = {"automargin": True, **more.get(axis, {})}
    return dict(
        title=dict(text=title),
        height=height,
        margin=dict(l=10, r=30, t=60, b=70) | (margin or {}),
        legend=dict(orientation="h", yanchor="top", y=-0.22, xanchor="left", x=0.0) | more.pop("legend", {}),
        **more,
    )


def _label_room(labels, px_per_char: float, extra: float) -> int:
    """Left margin, px, for horizontal labels of 12 px text (Streamlit's chart
    font) plus ``extra`` for what stands beside them (an axis title); an
    estimate: when it is short, plotly's automargin still widens the margin."""
    return int(extra + px_per_char * max((len(str(t)) for t in labels), default=0))


def _unclipped(traces: list[dict]) -> list[dict]:
    """Texts and markers drawn past the plot area stay visible (as :func:`_layout` does)."""
    return [{**t, "cliponaxis": False} if t.get("type", "scatter") in ("scatter", "bar") else t for t in traces]


def _vline(x, dash: str, color: str, text: str, position: str) -> tuple[dict, dict]:
    """The shape and annotation ``fig.add_vline(..., annotation_position=position)`` makes."""
    shape = dict(type="line", x0=x, x1=x, xref="x", y0=0, y1=1, yref="y domain", line=dict(color=color, dash=dash))
    top = position.startswith("top")
    ann = dict(
        showarrow=False,
        text=text,
        x=x,
        xref="x",
        y=1 if top else 0,
        yref="y domain",
        xanchor="right" if position.endswith("left") else "left",
        yanchor="top" if top else "bottom",
    )
    return shape, ann


def _layout(fig: go.Figure, title: str, height: int = 380, description: str | None = None) -> go.Figure:
    """The common layout (as :func:`_layout_dict`, with its ``description``) laid on ``fig``."""
    if description:
        fig.update_layout(meta={"description": description})
    fig.update_layout(
        title=title,
        height=height,
        margin=dict(l=10, r=30, t=60, b=70),
        legend=dict(orientation="h", yanchor="top", y=-0.22, xanchor="left", x=0.0),
    )
    # labels outside bars and markers stay visible: axes make room, texts are not clipped
    fig.update_xaxes(automargin=True)
    fig.update_yaxes(automargin=True)
    fig.update_traces(cliponaxis=False, selector=lambda t: hasattr(t, "cliponaxis"))
    return fig


# Streamlit's chart theme (its light values: fonts, sizes, title at the left, no x grid) written into the
# figure itself, for :func:`themeless`; text and grid in a grey that reads on a light or a dark page, and
# transparent backgrounds, since a figure without the theme no longer follows the page's colours.
_GREY = "#808495"
_FONT = '"Source Sans", sans-serif'
_PAGE_STYLE = {
    "font": {"color": _GREY, "family": _FONT, "size": 12},
    "title": {"font": {"family": _FONT, "size": 16, "color": _GREY}, "pad": {"l": 4}, "xanchor": "left", "x": 0},
    "legend": {"font": {"size": 12, "color": _GREY}, "bordercolor": "rgba(0,0,0,0)", "borderwidth": 0},
    "paper_bgcolor": "rgba(0,0,0,0)",
    "plot_bgcolor": "rgba(0,0,0,0)",
    "colorway": ["#0068c9", "#83c9ff", "#ff2b2b", "#ffabab", "#29b09d", "#7defa1", "#ff8700", "#ffd16a"],
    "xaxis": {
        "showgrid": False,
        "zeroline": False,
        "tickcolor": "rgba(128,132,149,0.3)",
        "tickfont": {"color": _GREY, "size": 12},
        "title": {"font": {"color": _GREY, "size": 14}, "standoff": 20},
    },
    "yaxis": {
        "gridcolor": "rgba(128,132,149,0.25)",
        "zerolinecolor": "rgba(128,132,149,0.25)",
        "tickcolor": "rgba(128,132,149,0.3)",
        "tickfont": {"color": _GREY, "size": 12},
        "title": {"font": {"color": _GREY, "size": 14}, "standoff": 24},
    },
    "hoverlabel": {
        "bgcolor": "#FFFFFF",
        "bordercolor": "#DCD8D4",
        "font": {"color": "#31333F", "family": _FONT, "size": 12},
    },
}
_THEMELESS: OrderedDict = OrderedDict()


def _under(style: dict, own: dict) -> dict:
    """``own`` laid over ``style``, nested dicts merged (the figure's own settings win)."""
    out = dict(style)
    for k, v in own.items():
        out[k] = _under(style[k], v) if isinstance(v, dict) and isinstance(style.get(k), dict) else v
    return out


def themeless(fig: go.Figure) -> go.Figure:
    """``fig`` for ``st.plotly_chart(..., theme=None)``: no template, the theme's look in its own layout,
    and a ``datarevision`` that changes with its data.

    Streamlit draws a changed chart anew and, once mounted, hands plotly a re-themed copy of it; plotly
    redraws all of it when a template or a data array is a new object, unless the figure has no template
    and an unchanged ``datarevision`` (then the copy costs nothing): one draw per chart per what-if instead
    of two. Remembered per figure (charts are memoised, so the same inputs give the same object)."""
    hit = _THEMELESS.get(id(fig))
    if hit is not None and hit[0] is fig:
        _THEMELESS.move_to_end(id(fig))
        return hit[1]
    d = fig.to_plotly_json()
    layout = {k: v for k, v in d["layout"].items() if k != "template"}
    layout = _under(_PAGE_STYLE, layout)
    if "text" in layout.get("title", {}):
        layout["title"]["text"] = f"<b>{layout['title']['text']}</b>"
    digest = hashlib.sha1(json.dumps(d["data"], sort_keys=True, default=float).encode()).hexdigest()[:16]
    layout["datarevision"] = digest
    out = go.Figure(data=d["data"], layout=layout, _validate=False)  # already validated when built
    out.layout.template = None  # not plotly's (or Streamlit's) default one
    _THEMELESS[id(fig)] = (fig, out)  # holds ``fig``, so its id is not reused while remembered
    if len(_THEMELESS) > 64:
        _THEMELESS.popitem(last=False)
    return out


@_memo
def capacity_waterfall(cap: dict, unit: str = "TB") -> go.Figure:
    """Raw -> deductions -> a subtotal (the pool) -> deductions -> usable, by each step's ``kind``."""
    key = "capacity_tb" if unit == "TB" else "capacity_tib"
    steps = cap["waterfall"]
    measure = {"raw": "absolute", "deduction": "relative", "subtotal": "total", "usable": "total"}
    fig = go.Figure(
        go.Waterfall(
            x=[s["step"] for s in steps],
            y=[s[key] for s in steps],
            measure=[measure[s["kind"]] for s in steps],
            text=[fmt.num(s[key], fmt.shown_decimals(s["capacity_tb"], s["capacity_tib"])) for s in steps],
            textposition="outside",
            hovertext=[customer_words(s["rule"]) for s in steps],  # "three-way mirror", not "mirror-3way"
            decreasing=dict(marker_color=ACCENT),
            increasing=dict(marker_color=BASE),
            totals=dict(marker_color="#2ca02c"),
        )
    )
    fig.update_yaxes(title=unit)
    return _layout(
        fig,
        f"Capacity waterfall ({unit})",
        description=f"raw capacity to usable, {unit}, a bar per step: " + ", ".join(s["step"] for s in steps),
    )


def log_ticks(values, unit: str = "") -> dict:
    """Tick values and labels for a log axis: 1-2-5 steps over the data's range,
    labelled with as few decimals as each needs (0.2, 0.5, 1, 2), not plotly's
    bare mantissas."""
    vals = [v for v in values if v is not None and v > 0 and math.isfinite(v)]
    if not vals:
        return {}
    lo, hi = min(vals), max(vals)
    ticks = []
    for e in range(math.floor(math.log10(lo)) - 1, math.ceil(math.log10(hi)) + 1):
        for m in (1, 2, 5):
            t = m * 10.0**e
            if lo / 2.5 <= t <= hi * 2.5:
                ticks.append(t)
    return {"tickvals": ticks, "ticktext": [_tick(t) + unit for t in ticks]}


def nice_ticks(high: float, n: int = 5) -> list[float]:
    """Round ticks from 0 to ``high``: about ``n`` steps of 1, 2, 2.5 or 5 x 10^k."""
    if not (high > 0 and math.isfinite(high)):
        return [0.0]
    raw = high / n
    mag = 10.0 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    return [round(i * step, 10) for i in range(int(high / step + 1e-9) + 1)]


def _tick(t: float) -> str:
    if t >= 1e6:
        return f"{t / 1e6:g}M"
    if t >= 1e4:
        return f"{t / 1e3:g}k"
    return f"{t:,.{max(0, -math.floor(math.log10(t) + 1e-9))}f}"


def cpu_cap_shown(curve: dict) -> bool:
    """The CPU cap's line is drawn only where the hardware reaches it: past the IOPS capacity
    it never admits less load, and drawing it there would squeeze the curve into the axis's
    first few ticks."""
    cap, top = curve.get("cpu_cap_iops"), curve.get("iops_capacity")
    if not cap or cap_above_ceiling(curve):
        return False
    return not (isinstance(top, (int, float)) and math.isfinite(top) and cap > top)


def cap_above_ceiling(curve: dict) -> bool:
    """The CPU cap is at or above the fitted SMT ceiling: it admits what the hardware does, so it never binds
    (its IOPS are the capacity's, to a rounding either side)."""
    cap, ceiling = curve.get("cpu_cap_utilization"), curve.get("cpu_ceiling_utilization")
    return cap is not None and ceiling is not None and cap >= ceiling


@_memo
def latency_curve(curve: dict, point: dict | None = None, band: bool = False) -> go.Figure:
    """Latency against offered IOPS: storage read/write and what the VM sees,
    with the VM latency's calibration band and the operating point's band."""
    x = curve["iops"]
    data = []
    if band and curve.get("vm_latency_ms_low"):
        data += [
            dict(
                type="scatter",
                x=x,
                y=curve["vm_latency_ms_high"],
                line=dict(width=0),
                hoverinfo="skip",
                showlegend=False,
            ),
            dict(
                type="scatter",
                x=x,
                y=curve["vm_latency_ms_low"],
                fill="tonexty",
                fillcolor="rgba(44,160,44,0.18)",
                line=dict(width=0),
                name="VM (mean), band",
                hoverinfo="skip",
            ),
        ]
    curves = [
        dict(type="scatter", x=x, y=curve["read_latency_ms"], name="storage read", line=dict(color=BASE)),
        dict(type="scatter", x=x, y=curve["write_latency_ms"], name="storage write", line=dict(color="#ff7f0e")),
        dict(type="scatter", x=x, y=curve["vm_latency_ms"], name="VM (mean)", line=dict(color="#2ca02c", width=3)),
        dict(
            type="scatter", x=x, y=curve["p99_read_latency_ms"], name="VM read p99", line=dict(color=MUTED, dash="dot")
        ),
    ]
    # a class the workload does not issue (reads at 0 % reads, writes at 100 %) has no curve
    data += [t for t in curves if any(v is not None for v in t["y"])]
    if point is not None:
        err = {}
        if "iops_low" in point:
            err = dict(
                error_x=dict(
                    type="data",
                    symmetric=False,
                    array=[point["iops_high"] - point["iops"]],
                    arrayminus=[point["iops"] - point["iops_low"]],
                    color=ACCENT,
                ),
                error_y=dict(
                    type="data",
                    symmetric=False,
                    # no high end past the capacity band's low end (unbounded there): the bar goes down only
                    array=[
                        0.0
                        if point["vm_latency_ms_high"] is None
                        else point["vm_latency_ms_high"] - point["vm_latency_ms"]
                    ],
                    arrayminus=[point["vm_latency_ms"] - point["vm_latency_ms_low"]],
                    color=ACCENT,
                ),
            )
        # at or near the capacity line the label would sit on the line's own label (top left of
        # it): it goes under the point there
        near_cap = (
            all(isinstance(v, (int, float)) and math.isfinite(v) for v in (point["iops"], curve["iops_capacity"]))
            and point["iops"] >= 0.85 * curve["iops_capacity"]
        )
        # in the left half of the axis the label goes right of the point, where the room is (on the
        # left it would run over the axis's tick labels)
        xs = [v for v in x if isinstance(v, (int, float)) and math.isfinite(v)]
        left_half = bool(xs) and isinstance(point["iops"], (int, float)) and point["iops"] < (min(xs) + max(xs)) / 2
        side = "right" if left_half else "left"
        data.append(
            dict(
                type="scatter",
                x=[point["iops"]],
                y=[point["vm_latency_ms"]],
                mode="markers+text",
                name="this workload",
                marker=dict(size=14, color=ACCENT, symbol="diamond"),
                text=["operating point"],
                textposition=("bottom " if near_cap else "top ") + side,
                **err,
            )
        )
    lines = [_vline(curve["iops_capacity"], "dash", MUTED, "IOPS capacity", "top left")]
    if cpu_cap_shown(curve):
        lines.append(_vline(curve["cpu_cap_iops"], "dot", ACCENT, "CPU cap", "bottom right"))
    ys = [
        v
        for k in ("read_latency_ms", "write_latency_ms", "vm_latency_ms", "p99_read_latency_ms")
        for v in curve[k]
        if v is not None
    ]
    # the operating point (a closed population can sit past the open-load curve's last point) and its band
    ys += [
        point[k]
        for k in ("vm_latency_ms", "vm_latency_ms_low", "vm_latency_ms_high")
        if point is not None and point.get(k) is not None
    ]
    ticks = log_ticks(ys)
    finite = [v for v in ys if v is not None and v > 0 and math.isfinite(v)]
    # the ticks plotly will show (the data's range, padded): the left margin holds them and the axis
    # title; the bottom one the x-axis title and the legend's row under the plot
    shown = [
        t
        for v, t in zip(ticks.get("tickvals", []), ticks.get("ticktext", []))
        if finite and min(finite) / 1.5 <= v <= max(finite) * 1.5
    ]
    layout = _layout_dict(
        "Latency vs IOPS" + (" (one node down)" if curve.get("degraded") else ""),
        420,
        description="latency, ms (storage read and write, VM mean and VM read p99) against the cluster's IOPS, "
        "open loads from idle to saturation, the IOPS capacity"
        + (" and the CPU cap" if cpu_cap_shown(curve) else "")
        + " marked"
        + (", the workload's operating point on it" if point is not None else ""),
        margin=dict(l=_label_room(shown, 8, 56), b=115),
        shapes=[sh for sh, _ in lines],
        annotations=[a for _, a in lines],
        xaxis=dict(title=dict(text="IOPS (cluster)"), tickformat=",.0f"),
        yaxis=dict(title=dict(text="latency, ms"), type="log", **ticks),
    )
    return go.Figure(data=_unclipped(data), layout=layout)


@_memo
def utilisation_bars(
    util: dict, bottleneck: str, title: str = "Utilisation per resource", labels: dict[str, str] | None = None
) -> go.Figure:
    """Utilisation bars; ``labels``: the report's station names (:func:`planner.engine.performance.station_words`:
    a Ceph design's "DB/WAL devices", not S2D's "cache devices"), the engine's by default."""
    # a figure the model could not evaluate is null (with a '<name>_note' beside it): no bar
    names = [n for n in util if not n.endswith("_note")]
    vals = [(util[n] or 0.0) * 100 for n in names]
    # a policy bottleneck (the CPU cap) is spent on the host CPU
    hot = "host_cpu" if bottleneck == "cpu_utilization_cap" else bottleneck
    colors = [ACCENT if n == hot else BASE for n in names]
    bar = dict(
        type="bar",
        x=vals,
        y=[(labels or BOTTLENECK_LABELS).get(n, n.replace("_", " ")) for n in names],
        orientation="h",
        marker=dict(color=colors),
        text=[f"{v:.0f} %" for v in vals],
        textposition="auto",
    )
    layout = _layout_dict(
        title,
        300,
        margin=dict(l=_label_room(bar["y"], 6, 14)),
        xaxis=dict(title=dict(text="utilisation, %"), range=[0, 105]),
        yaxis=dict(autorange="reversed"),
    )
    return go.Figure(data=_unclipped([bar]), layout=layout)


@_memo
def compare_bars(
    names: list[str],
    values: list[float],
    title: str,
    unit: str,
    low: list[float] | None = None,
    high: list[float] | None = None,
    text=None,
) -> go.Figure:
    """One bar per scenario, labelled with its formatted value; error bars for a band."""
    err = {}
    if low is not None and high is not None:
        err = {
            "error_y": dict(
                type="data",
                symmetric=False,
                array=[h - v for h, v in zip(high, values)],
                arrayminus=[v - lo for v, lo in zip(values, low)],
                color=MUTED,
            )
        }
    fig = go.Figure(
        go.Bar(
            x=names,
            y=values,
            marker_color=[ACCENT] + [BASE] * (len(names) - 1),
            text=text or [f"{v:,.0f}" if abs(v) >= 100 else f"{v:,.2f}" for v in values],
            textposition="outside",
            **err,
        )
    )
    fig.update_yaxes(title=unit, tickformat=",")
    return _layout(fig, title, height=320)


@_memo
def tornado(rows: list[dict], metric: str = "iops", unit: str = "IOPS") -> go.Figure:
    """Change of ``metric`` when each input moves down (low) or up (high).

    The title is the figure's name alone, the inputs' names get a left margin that holds them
    (7 px a character), and the legend sits under the axis title (in a third of a 1024 px page
    they were cut to "ives per node ±2" and "Sensitivity of IOPS capac")."""
    data = tornado_changes(rows, metric)
    names = [d[0] for d in data]
    # large changes as 200k, 1.5M (the axis stays narrow); small ones (ms) as plotly writes them
    big = max((abs(x) for d in data for x in d[1:3] if x is not None), default=0) >= 1_000
    bars = [
        dict(type="bar", y=names, x=[d[1] for d in data], orientation="h", name="low setting", marker_color=BASE),
        dict(type="bar", y=names, x=[d[2] for d in data], orientation="h", name="high setting", marker_color=ACCENT),
    ]
    layout = _layout_dict(
        unit,
        380,
        margin=dict(l=_label_room(names, 7, 14), b=110),
        description=f"the change in {unit} when one input of the current design moves to its low or its high "
        "setting, one row of bars per input, the largest change at the top",
        barmode="overlay",
        xaxis=dict(
            title=dict(text="change"), zeroline=True, zerolinewidth=2, nticks=5, **({"tickformat": "~s"} if big else {})
        ),
        legend=dict(orientation="h", yanchor="top", y=-0.3, xanchor="left", x=0.0),
    )
    return go.Figure(data=_unclipped(bars), layout=layout)


def tornado_changes(rows: list[dict], metric: str) -> list[tuple]:
    """(input, change at its low setting, change at its high setting, the larger of the two) per input, the
    smallest first (the chart draws it at the bottom); a setting that is not a valid design has None."""
    base_key = f"base_{metric}"
    data = []
    for r in rows:
        lo = None if r[f"low_{metric}"] is None else r[f"low_{metric}"] - r[base_key]
        hi = None if r[f"high_{metric}"] is None else r[f"high_{metric}"] - r[base_key]
        data.append((r["input"], lo, hi, max(abs(lo or 0), abs(hi or 0))))
    return sorted(data, key=lambda t: t[3])


def _signed(x: float | None, metric: str) -> str:
    """A change as a table cell: signed, at the precision the figure is shown with elsewhere."""
    if x is None:
        return fmt.DASH
    s = fmt.bare(fmt.ms(x)) if metric.endswith("_ms") else fmt.num(x, 0)
    return f"+{s}" if x > 0 and s.strip("0.,") else s


def tornado_table(rows: list[dict], metric: str, unit: str) -> list[dict]:
    """The figures of :func:`tornado` as table rows, the largest change first, the unit in the headers."""
    return [
        {
            "Input": name,
            f"Low setting: change in {unit}": _signed(lo, metric),
            f"High setting: change in {unit}": _signed(hi, metric),
        }
        for name, lo, hi, _ in reversed(tornado_changes(rows, metric))
    ]


def latency_table(curve: dict, band: bool = False) -> list[dict]:
    """The curves of :func:`latency_curve` as table rows, one per open load, the unit in the headers; a class
    the workload does not issue has no column (as it has no curve)."""
    cols = {
        "read_latency_ms": "Storage read, ms",
        "write_latency_ms": "Storage write, ms",
        "vm_latency_ms": "VM (mean), ms",
        "p99_read_latency_ms": "VM read p99, ms",
    }
    cols = {k: v for k, v in cols.items() if any(x is not None for x in curve[k])}
    ranged = band and curve.get("vm_latency_ms_low")
    out = []
    for i, x in enumerate(curve["iops"]):
        row = {"IOPS (cluster)": fmt.iops(x)} | {v: fmt.bare(fmt.ms(curve[k][i])) for k, v in cols.items()}
        if ranged:
            row["VM (mean) band, ms"] = fmt.bare(
                fmt.span(
                    curve["vm_latency_ms_low"][i], curve["vm_latency_ms_high"][i], fmt.ms, curve["vm_latency_ms"][i]
                )
            )
        out.append(row)
    return out


def moves(rows: list[dict], metric: str) -> bool:
    """Whether any input's low or high setting changes ``metric`` (by more than a part in 10^6)."""
    for r in rows:
        base = r.get(f"base_{metric}")
        for side in ("low", "high"):
            v = r.get(f"{side}_{metric}")
            if v is not None and base is not None and abs(v - base) > 1e-6 * max(abs(base), 1.0):
                return True
    return False


def iops_tornado(rows: list[dict]) -> go.Figure:
    """The IOPS tornado; under an open load (a fixed rate, as a sized demand's workload) no input
    changes the IOPS delivered, and a chart of zeros looks empty: the IOPS capacity (saturation)
    is shown instead, titled so."""
    return tornado(rows, *iops_tornado_metric(rows))


def iops_tornado_metric(rows: list[dict]) -> tuple[str, str]:
    """The metric and the unit :func:`iops_tornado` shows: the IOPS, or the IOPS capacity under an open load."""
    if moves(rows, "iops") or not moves(rows, "iops_capacity"):
        return "iops", "IOPS"
    return "iops_capacity", "IOPS capacity (a fixed-rate load)"


@_memo
def calibration_scatter(rows: list[dict], metric: str, log: bool = True, label: str | None = None) -> go.Figure:
    """Predicted against measured: in-sample (the full fit) and held out (the fit
    that never saw the point's configuration; outside the fit's scope in grey)."""
    fig = go.Figure()
    allv = []
    # each series its own marker as well as its colour: told apart without colour vision (accessibility walk
    # 2026-11-30)
    series = (
        ("in sample", lambda r: r["in_fit"], f"{metric}_predicted", BASE, SYMBOLS[0]),
        ("held out, cross-validated", lambda r: r["in_fit"], f"{metric}_held_out_predicted", ACCENT, SYMBOLS[1]),
        ("outside the fit's scope", lambda r: not r["in_fit"], f"{metric}_predicted", MUTED, SYMBOLS[2]),
    )
    for name, keep, key, color, symbol in series:
        pts = [r for r in rows if keep(r) and r.get(f"{metric}_measured") and r.get(key)]
        xs = [r[f"{metric}_measured"] for r in pts]
        ys = [r[key] for r in pts]
        allv += xs + ys
        fig.add_scatter(
            x=xs,
            y=ys,
            mode="markers",
            name=f"{name} ({len(pts)})",
            marker=dict(color=color, size=6, symbol=symbol),
            opacity=0.7,
            text=[plain(f"{r['dataset']} / {r['config']} / {r['point']}") for r in pts],  # an imported file's names
        )
    if allv:
        lo, hi = min(allv), max(allv)
        fig.add_scatter(x=[lo, hi], y=[lo, hi], mode="lines", name="y = x", line=dict(color=MUTED, dash="dash"))
    name = label or metric.replace("_", " ")
    ticks = log_ticks(allv) if log else {}
    fig.update_xaxes(title=f"measured {name}", type="log" if log else "linear", **ticks)
    fig.update_yaxes(title=f"predicted {name}", type="log" if log else "linear", **ticks)
    return _layout(fig, f"Predicted vs measured: {name}", height=460)


@_memo
def pareto(points: list[dict]) -> go.Figure:
    """Monthly cost against guaranteed IOPS, marker size and colour the usable
    capacity; the designs on the Pareto front (no other is cheaper with at least
    the IOPS and capacity) are outlined, the others faded."""
    pts = sorted(points, key=lambda p: p["cost"])
    tb = [p["usable_tb"] for p in pts]
    big = max(tb) if tb else 1.0
    fig = go.Figure()
    fig.add_scatter(
        x=[p["cost"] for p in pts],
        y=[p["guaranteed_iops"] for p in pts],
        mode="markers+text",
        name="designs",
        # a dominated design sits below or beside a better one: its label goes under it
        text=[p["label"] for p in pts],
        textposition=["top center" if p["on_front"] else "bottom center" for p in pts],
        hovertext=[f"{p['name']}<br>{p['usable_tb']:,.1f} TB usable" for p in pts],
        hoverinfo="text",
        # the scale starts at a mid blue, not white: the smallest design stays visible on the white plot
        marker=dict(
            size=[14 + 26 * (t / big) for t in tb],
            color=tb,
            colorscale=[[0.0, "#9ecae1"], [1.0, "#08306b"]],
            showscale=True,
            colorbar=dict(title="usable TB"),
            line=dict(
                width=[3 if p["on_front"] else 1 for p in pts], color=[ACCENT if p["on_front"] else MUTED for p in pts]
            ),
        ),
    )
    # a front in three objectives is not a line: its designs are outlined, the dominated faded
    fig.update_traces(
        marker_opacity=[1.0 if p["on_front"] else 0.45 for p in pts],
        selector=dict(name="designs"),
        name="designs (outlined: on the Pareto front of cost, IOPS and capacity)",
    )
    fig.update_xaxes(title="whole cost, USD/month (the sizer's ranking)", tickformat=",.0f")
    fig.update_yaxes(title="IOPS within target (every tier at its latency target)", tickformat=",.0f")
    return _layout(fig, "Cost vs IOPS within target vs usable capacity", height=460)


def multi_year(view: dict) -> go.Figure:
    """Nodes each year's demand needs (bars; red once more than today's cluster),
    the demand as a share of today's under each year and as a line (right axis)."""
    years = view["years"]
    x = [f"year {y['years_from_now']}<br>demand {100 * y['demand_ratio']:.0f} %" for y in years]
    need = [y["nodes_needed"] if y["nodes_needed"] else 17 for y in years]
    fig = go.Figure()
    fig.add_bar(
        x=x,
        y=need,
        name="nodes needed",
        marker_color=[BASE if y["fits_current"] else ACCENT for y in years],
        text=[f"{y['nodes_needed']} nodes" if y["nodes_needed"] else "> 16 nodes" for y in years],
        textposition="inside",
        insidetextanchor="middle",
        textfont=dict(color="white"),
    )
    fig.add_scatter(
        x=x,
        y=[100 * y["demand_ratio"] for y in years],
        yaxis="y2",
        mode="lines+markers",
        name="demand, % of today's",
        line=dict(color="#2ca02c", width=3),
    )
    fig.add_hline(
        y=view["nodes"],
        line_dash="dash",
        line_color="#444",
        annotation_text=f"today's cluster: {view['nodes']} nodes",
        annotation_position="top left",
    )
    top = max([100 * y["demand_ratio"] for y in years] + [100])
    fig.update_layout(
        yaxis=dict(title="nodes", rangemode="tozero", range=[0, max([*need, view["nodes"]]) * 1.25]),
        # round ticks of its own (an overlaying axis follows the left one's ticks: 38.7, 77.4, 116.1)
        yaxis2=dict(
            title="demand, % of today's",
            overlaying="y",
            side="right",
            range=[0, top * 1.25],
            showgrid=False,
            tickmode="array",
            tickvals=nice_ticks(top * 1.25),
        ),
    )
    fig = _layout(fig, f"Demand growing {view['growth_pct_per_year']:.1f} % a year: nodes needed", height=420)
    fig.update_layout(margin=dict(r=90))  # room for the right axis title
    return fig


#: characters a licensing option's name keeps on one line of its label
LICENCE_LABEL_CHARS = 30


def licence_bars(options: list[dict]) -> go.Figure:
    """Licensing options over the amortisation period, USD (and per month): one horizontal bar per option, its
    name wrapped beside it. Vertical bars under the options' long names, drawn diagonally, were squashed to about
    50 px high (vSAN specialist's walk)."""
    import textwrap

    names = ["<br>".join(textwrap.wrap(o["name"], LICENCE_LABEL_CHARS)) or o["name"] for o in options]
    top = max((o["total_usd"] for o in options), default=0.0)
    bar = dict(
        type="bar",
        y=names,
        x=[o["total_usd"] for o in options],
        orientation="h",
        marker_color=[BASE if o["windows_guests_included"] else MUTED for o in options],
        # an option whose vSAN entitlement leaves raw to the add-on says so on its bar: its price leaves it out
        text=[
            f"${o['total_usd']:,.0f} · ${o['usd_per_month']:,.0f}/month"
            + (f"<br>+ vSAN add-on for {o['vsan_addon_tib']:,.0f} TiB, not priced" if o.get("vsan_addon_tib") else "")
            for o in options
        ],
        textposition="outside",
    )
    lines = [line for n in names for line in n.split("<br>")]
    layout = _layout_dict(
        "Licensing options for the design's physical cores",
        max(240, 130 + 100 * len(options)),
        margin=dict(l=_label_room(lines, 7, 14)),
        # room right of the longest bar for its figures
        xaxis=dict(
            title=dict(text=f"USD over {options[0]['months']} months" if options else "USD"),
            range=[0, top * 1.9 if top > 0 else 1],
        ),
        yaxis=dict(autorange="reversed"),
    )
    return go.Figure(data=_unclipped([bar]), layout=layout)
