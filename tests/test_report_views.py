"""What the report gives a view: a degraded block with every headline figure,
a degraded latency curve the degraded operating point lies on, and a band on
the curve."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from planner.models.design import load_design, resolve
from planner.models.params import CALIBRATION_FILE
from planner.models.workload import profiles
from planner.results.report import DEGRADED_KEYS, evaluate_report, latency_curve

REF = load_design(Path(__file__).resolve().parent.parent / "examples" / "reference.json")


def test_degraded_block_has_every_headline_figure():
    rep = evaluate_report(REF, profiles()["oltp-8k"])
    for key in ("iops", "bandwidth_mb_s", "vm_latency_ms", "p99_read_latency_ms", "read_latency_ms"):
        assert key in DEGRADED_KEYS and key in rep["degraded"], key
    assert rep["degraded"]["bandwidth_mb_s"] < rep["bandwidth_mb_s"]  # one node fewer, repair running


@pytest.mark.parametrize("workload", ["oltp-8k", "Sql"])
def test_degraded_operating_point_lies_on_the_degraded_curve(workload):
    rep = evaluate_report(REF, profiles()[workload])
    deg = rep["degraded"]
    curve = latency_curve(resolve(REF), profiles()[workload], degraded=True)
    healthy = latency_curve(resolve(REF), profiles()[workload])
    assert curve["degraded"] and curve["iops_capacity"] < healthy["iops_capacity"]
    on = float(np.interp(deg["iops"], curve["iops"], curve["vm_latency_ms"]))
    assert on == pytest.approx(deg["vm_latency_ms"], rel=0.01)


@pytest.mark.skipif(not CALIBRATION_FILE.exists(), reason="no calibration")
def test_latency_curve_band_brackets_the_curve():
    c = latency_curve(resolve(REF), profiles()["oltp-8k"], band=True)
    for lo, y, hi in zip(c["vm_latency_ms_low"], c["vm_latency_ms"], c["vm_latency_ms_high"]):
        assert lo is None or hi is None or lo <= y <= hi
    assert c["vm_latency_ms_low"][0] < c["vm_latency_ms_high"][0]


def test_the_bottleneck_below_saturation_names_the_busiest_station_from_80_percent():
    """Browser review (2026-11-29): the Design page said "none (below capacity)" for a demand whose
    database VMs' vCPUs were 97 % busy, the resource the sizer names as binding. Below saturation
    the busiest station is named from the engine's own "busy" figure (the one that names a closed
    population's bottleneck) up; a saturated or policy-bound load keeps its label."""
    from planner.engine.queueing import BUSY_UTILIZATION
    from planner.results.report import bottleneck_words

    util = {"vm_vcpu": 0.97, "host_cpu": 0.81, "network": 0.57, "cache": 0.0, "capacity_drives": 0.11}
    assert bottleneck_words({"bottleneck": "none", "utilization": util}) == "none yet: VM vCPUs 97 % busy"
    calm = {k: v * 0.5 for k, v in util.items()}
    assert bottleneck_words({"bottleneck": "none", "utilization": calm}) == "none (below capacity)"
    edge = {"network": BUSY_UTILIZATION, "utilization_note": "text"}
    assert bottleneck_words({"bottleneck": "none", "utilization": edge}) == "none yet: network 80 % busy"
    assert bottleneck_words({"bottleneck": "host_cpu", "utilization": util}) == "host CPU"
    assert bottleneck_words({"bottleneck": "iops_limit_per_vm", "utilization": util}) == "per-VM IOPS limit"
    # the proposal's words for the same rule
    said = bottleneck_words(
        {"bottleneck": "none", "utilization": util}, {"vm_vcpu": "the VMs"}, "nothing yet ({what}: {pct} %)"
    )
    assert said == "nothing yet (the VMs: 97 %)"
    # a real report: the reference design at a light open load says none; pushed near saturation it names it
    oltp, ref = profiles()["oltp-8k"], REF.model_copy(update={"cpu_utilization_cap": 1.0})  # no pacing policy
    cap = evaluate_report(ref, oltp, degraded=False)["iops_capacity"]
    light = evaluate_report(ref, oltp.model_copy(update={"iops": 0.3 * cap}), degraded=False)
    assert bottleneck_words(light) == "none (below capacity)"
    near = evaluate_report(ref, oltp.model_copy(update={"iops": 0.9 * cap}), degraded=False)
    assert near["bottleneck"] == "none"
    busiest = max(near["utilization"], key=lambda k: near["utilization"][k])
    assert bottleneck_words(near).startswith("none yet: ") and f"{100 * near['utilization'][busiest]:.0f} % busy" in (
        bottleneck_words(near)
    )
