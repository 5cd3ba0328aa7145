"""Calibration: the stored fit is reproducible, honest and meets its stated accuracy."""

import json

import numpy as np
import pytest

from planner.calibration import fit as cal
from planner.cli import main
from planner.models.params import (
    CALIBRATION_FILE,
    DERIVED_PARAMS,
    FIT_NAMES,
    PARAM_BOUNDS,
    PARAM_NAMES,
    load_calibration,
)


@pytest.fixture(scope="module")
def stored():
    return load_calibration()


def test_every_parameter_within_its_bounds(stored):
    for name in FIT_NAMES:
        lo, hi = PARAM_BOUNDS[name][1:]
        assert lo <= getattr(stored.params, name) <= hi, name
    for name in DERIVED_PARAMS:  # identified outside the fit, from data: never negative
        assert getattr(stored.params, name) > 0, name


def test_stored_summary_reproduces_from_raw_data(stored):
    # in-sample errors recomputed now from the raw files equal the stored report
    idx = np.flatnonzero(cal.dataset()[5])
    errs = cal._errors(stored.params.vector(), idx)
    now = cal._summarise(errs, cal._mask_sets(idx))
    for ds, metrics in stored.summary["in_sample"].items():
        for m, row in metrics.items():
            assert now[ds][m]["median_abs_pct_error"] == pytest.approx(row["median_abs_pct_error"], abs=0.5), (ds, m)


def test_stored_parameters_are_a_minimum_of_the_stated_objective(stored):
    idx = np.flatnonzero(cal.dataset()[5])
    v = stored.params.vector()
    base = cal._cost(v, idx)
    for name in FIT_NAMES:
        j = PARAM_NAMES.index(name)
        for f in (0.9, 1.1):
            w = v.copy()
            w[j] = np.clip(w[j] * f, PARAM_BOUNDS[name][1], PARAM_BOUNDS[name][2])
            assert cal._cost(w, idx) >= base * (1 - 0.02), name


def test_out_of_scope_configurations_never_enter_the_fit():
    pts, *_, in_scope, _ = cal.dataset()
    for p, ok in zip(pts, in_scope):
        if p.group + ".txt" in cal.OUT_OF_SCOPE:
            assert not ok


def test_accuracy_targets_met(stored):
    s = stored.summary
    # in-sample: IOPS <= 10 %, storage-layer latency <= 25 % (median absolute error, all Dell points)
    assert s["in_sample"]["dell"]["iops"]["median_abs_pct_error"] <= 10.0
    assert s["in_sample"]["dell"]["read_latency_ms"]["median_abs_pct_error"] <= 25.0
    assert s["in_sample"]["dell"]["write_latency_ms"]["median_abs_pct_error"] <= 25.0
    assert s["in_sample"]["reference"]["read_latency_ms"]["median_abs_pct_error"] <= 25.0
    # the saturation points are the real test of the throughput model
    assert s["in_sample"]["dell_unthrottled"]["iops"]["median_abs_pct_error"] <= 10.0
    assert s["in_sample"]["reference"]["iops"]["median_abs_pct_error"] <= 10.0
    # held out (leave one configuration out): IOPS <= 15 %, latency <= 25 %
    cv = s["cross_validated"]
    assert cv["dell"]["iops"]["median_abs_pct_error"] <= 15.0
    assert cv["dell_unthrottled"]["iops"]["median_abs_pct_error"] <= 15.0
    assert cv["reference"]["iops"]["median_abs_pct_error"] <= 15.0
    for ds in ("dell", "dell_unthrottled", "reference"):
        for m in ("read_latency_ms", "write_latency_ms"):
            assert cv[ds][m]["median_abs_pct_error"] <= 25.0, (ds, m)


def test_bootstrap_gives_a_band(stored):
    assert len(stored.bootstrap) >= 10
    spread = np.std(np.array(stored.bootstrap), axis=0)
    assert np.any(spread > 0)


def test_validate_cli_lists_every_point(capsys):
    assert main(["validate", "--rows"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert len(doc["rows"]) == 1455
    assert {"in_fit", "iops_measured", "iops_predicted", "iops_error_pct"} <= set(doc["rows"][0])
    assert CALIBRATION_FILE.exists()
