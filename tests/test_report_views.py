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
