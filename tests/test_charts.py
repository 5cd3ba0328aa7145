"""Charts built as data (one go.Figure call) equal plotly's add_* construction,
and are remembered by their inputs."""

from pathlib import Path

import plotly.graph_objects as go
import pytest

from hciplan_ui import charts

ROOT = Path(__file__).resolve().parents[1]

CURVE = {
    "iops": [1e4, 2e4, 3e4],
    "read_latency_ms": [0.2, 0.3, 0.9],
    "write_latency_ms": [0.4, 0.5, 1.2],
    "vm_latency_ms": [0.5, 0.6, 1.5],
    "p99_read_latency_ms": [1.0, 1.3, 4.0],
    "iops_capacity": 3.2e4,
    "cpu_cap_iops": 2.5e4,
}


def test_vlines_are_plotlys():
    ref = go.Figure()
    ref.add_vline(
        x=3.2e4,
        line_dash="dash",
        line_color=charts.MUTED,
        annotation_text="IOPS capacity",
        annotation_position="top left",
    )
    ref.add_vline(
        x=2.5e4,
        line_dash="dot",
        line_color=charts.ACCENT,
        annotation_text="CPU cap",
        annotation_position="bottom right",
    )
    fig = charts.latency_curve(CURVE, {"iops": 2e4, "vm_latency_ms": 0.6})
    assert fig.to_plotly_json()["layout"]["shapes"] == ref.to_plotly_json()["layout"]["shapes"]
    assert fig.to_plotly_json()["layout"]["annotations"] == ref.to_plotly_json()["layout"]["annotations"]


def test_figures_are_remembered_by_their_inputs():
    a = charts.utilisation_bars({"host_cpu": 0.5, "network": 0.2}, "host_cpu")
    assert charts.utilisation_bars({"host_cpu": 0.5, "network": 0.2}, "host_cpu") is a
    b = charts.utilisation_bars({"host_cpu": 0.6, "network": 0.2}, "host_cpu")
    assert b is not a and list(b.data[0].x) == [60.0, 20.0]


def test_themeless_figure_has_no_template_and_a_data_revision():
    import json

    import plotly.io as pio

    a = charts.utilisation_bars({"host_cpu": 0.5, "network": 0.2}, "host_cpu")
    b = charts.utilisation_bars({"host_cpu": 0.6, "network": 0.2}, "host_cpu")
    ta, tb = charts.themeless(a), charts.themeless(b)
    assert charts.themeless(a) is ta  # remembered per figure
    ja, jb = (json.loads(pio.to_json(f, validate=False)) for f in (ta, tb))
    assert ja["layout"].get("template") is None  # as Streamlit sends it: no theme for plotly to re-diff
    assert ja["layout"]["datarevision"] != jb["layout"]["datarevision"]  # new numbers, new revision
    assert ja["data"] == json.loads(pio.to_json(a, validate=False))["data"]  # the same bars, untouched
    # the figure's own layout wins over the theme's: its margins, axis range and title text stay
    own = a.to_plotly_json()["layout"]
    assert ja["layout"]["margin"] == own["margin"] and ja["layout"]["xaxis"]["range"] == own["xaxis"]["range"]
    assert ja["layout"]["title"]["text"] == f"<b>{own['title']['text']}</b>"
    assert ja["layout"]["paper_bgcolor"] == "rgba(0,0,0,0)"  # reads on a light or dark page


def test_operating_point_label_leaves_the_capacity_label_alone():
    """Near the capacity line the point's label goes under it, away from the line's own label
    (which sits at the top, left of the line)."""

    def position(iops):
        fig = charts.latency_curve(CURVE, {"iops": iops, "vm_latency_ms": 1.4})
        return next(t.textposition for t in fig.data if t.name == "this workload")

    assert position(2e4) == "top left"
    assert position(3.1e4) == "bottom left"


def test_operating_point_without_a_number_has_a_label_and_no_error():
    """A design the model cannot evaluate has no IOPS (None): the chart still draws."""
    fig = charts.latency_curve(CURVE, {"iops": None, "vm_latency_ms": None})
    assert next(t.textposition for t in fig.data if t.name == "this workload") == "top left"


def test_a_cpu_cap_past_the_capacity_is_not_drawn_and_the_label_takes_the_roomy_side():
    """A CPU cap the hardware never reaches would stretch the axis to it and squeeze the curve
    into its first ticks; a point in the axis's left half is labelled on its right."""
    past = CURVE | {"cpu_cap_iops": 8e4}
    fig = charts.latency_curve(past, {"iops": 1.2e4, "vm_latency_ms": 0.55})
    texts = [a["text"] for a in fig.to_plotly_json()["layout"]["annotations"]]
    assert texts == ["IOPS capacity"] and not charts.cpu_cap_shown(past) and charts.cpu_cap_shown(CURVE)
    point = next(t for t in fig.data if t.name == "this workload")
    assert point.textposition == "top right"
    near = charts.latency_curve(CURVE, {"iops": 2.9e4, "vm_latency_ms": 1.4})
    assert next(t for t in near.data if t.name == "this workload").textposition == "bottom left"


def test_every_sized_design_shows_on_the_cost_chart():
    """The smallest design was drawn white on white (the 'Blues' scale starts at white) and a
    dominated one had no outline: every marker now has a visible colour and an outline."""
    pts = [
        {
            "cost": 100 + i,
            "guaranteed_iops": 1e5 + i,
            "usable_tb": tb,
            "name": f"d{i}",
            "label": f"alt {i}",
            "on_front": i < 2,
        }
        for i, tb in enumerate([30.0, 45.0, 60.0])
    ]
    fig = charts.pareto(pts)
    m = fig.data[0].marker
    assert m.colorscale[0][1] != "rgb(247,251,255)" and m.colorscale[0][1].lower() == "#9ecae1"
    assert all(w >= 1 for w in m.line.width) and list(m.line.color) == [charts.ACCENT, charts.ACCENT, charts.MUTED]


@pytest.mark.parametrize("example", ["reference.json", "ceph-6node-reef.json", "vsan-esa-6node.json"])
def test_each_stacks_capacity_waterfall_adds_up_and_draws_its_pool_as_a_level(example):
    """Browser review (2026-11-29): the chart knew S2D's and Ceph's "pool available" by name and drew
    vSAN's "datastore available" (287 TB) as a gain stacked on the 287 TB left, so "usable" stood at
    about 520 TB on the axis labelled 229.79. Each step now says its kind; the levels add up."""
    from planner.models.design import load_design, resolve
    from planner.physics.capacity import capacity_report

    cap = capacity_report(resolve(load_design(ROOT / "examples" / example))).model_dump()
    steps = cap["waterfall"]
    kinds = [s["kind"] for s in steps]
    assert kinds[0] == "raw" and kinds[-1] == "usable" and kinds.count("subtotal") == 1
    level = 0.0
    for s in steps:
        if s["kind"] == "deduction":
            assert s["capacity_tb"] <= 0 and str(s["capacity_tb"]) != "-0.0", s
            level += s["capacity_tb"]
        else:
            if s["kind"] != "raw":
                assert s["capacity_tb"] == pytest.approx(level, rel=1e-9, abs=1e-9), s
            level = s["capacity_tb"]
    fig = charts.capacity_waterfall(cap)
    measure = list(fig.data[0].measure)
    assert [m for m, k in zip(measure, kinds) if k == "subtotal"] == ["total"]
    assert measure[-1] == "total" and measure[0] == "absolute"
    # no step reads as zero, nor as a signed zero (account-manager walk 2026-11-30: 0.00 TiB beside -0.01 TB)
    assert not any(set(t) <= set("-0.") and s["capacity_tb"] for t, s in zip(fig.data[0].text, steps)), fig.data[0].text


def test_the_licensing_chart_lays_its_options_as_horizontal_bars_named_in_short_lines():
    """vSAN specialist's walk: the Licensing options chart wrote each option's long name ("VMware vSphere Foundation
    subscription (includes vSAN) with Windows Server Datacenter guest licences") diagonally under a vertical bar,
    which squashed the bars to about 50 px. One horizontal bar per option now, its name wrapped beside it."""
    import json
    from pathlib import Path

    from hciplan_ui.charts import LICENCE_LABEL_CHARS, licence_bars
    from planner.commercial.bom import bom
    from planner.models.catalog import load_catalog
    from planner.models.design import load_design, resolve

    design = load_design(Path(__file__).resolve().parent.parent / "examples" / "vsan-esa-6node.json")
    options = bom(resolve(design, load_catalog()))["licensing"]
    fig = licence_bars(options)
    bar = fig.data[0]
    assert bar.orientation == "h" and list(bar.x) == [o["total_usd"] for o in options]
    assert max(len(o["name"]) for o in options) > 60  # the names that were drawn diagonally
    lines = [line for label in bar.y for line in label.split("<br>")]
    assert all(len(line) <= LICENCE_LABEL_CHARS for line in lines), lines
    assert fig.layout.height >= 100 * len(options) and fig.layout.xaxis.range[1] > max(bar.x)
    json.dumps(fig.to_plotly_json(), default=str)  # drawable


def test_a_cpu_cap_at_or_above_the_smt_ceiling_is_not_drawn_even_a_rounding_below_the_capacity():
    """Browser walk (2026-12-02, stop 61): the 12-node example's cap of 80 % sits above the fitted SMT ceiling
    (69 %), so the cap admits the capacity itself; its IOPS came out one bit past the capacity and the page said
    "lies past the IOPS capacity" beside the same figure. A bit below, it would have drawn a dotted line on the
    capacity's. At or above the ceiling the cap is never drawn, whichever way the last bit falls."""
    at = CURVE | {"cpu_cap_utilization": 0.8, "cpu_ceiling_utilization": 0.69}
    for bits in (3.2e4 * (1 - 1e-15), 3.2e4, 3.2e4 * (1 + 1e-15)):
        assert not charts.cpu_cap_shown(at | {"cpu_cap_iops": bits})
    assert charts.cap_above_ceiling(at) and not charts.cap_above_ceiling(at | {"cpu_cap_utilization": 0.6})
    assert charts.cpu_cap_shown(at | {"cpu_cap_utilization": 0.6})  # below the ceiling: drawn where it binds
