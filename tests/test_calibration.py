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


def test_held_out_folds_start_where_the_full_fit_starts_never_from_a_fit(monkeypatch):
    """Audit 2026-12-01: every leave-one-configuration-out fold started from the full fit, which had seen the
    held-out configuration, and the full fit from the shipped file (reference IOPS held out 2.1 % from the full
    fit, 4.7 % from the priors). Every fold and pseudo-extrapolation now runs the full fit's own multi-start."""
    shipped = load_calibration().params.vector()
    monkeypatch.setattr(cal, "fit_multi_start", lambda idx, max_nfev=200: (shipped, None, {}))
    seen = []

    class Stop(Exception):
        pass

    def capture(tasks, workers):
        seen.extend(tasks)
        raise Stop

    monkeypatch.setattr(cal, "_run_tasks", capture)
    with pytest.raises(Stop):
        cal.run_calibration(write=False, bootstrap=0)
    held = [t for t in seen if t[0] in ("loco", "extrapolation")]
    assert held and all(t[3] is None for t in held)  # x0 None: the multi-start of start_points()


def test_start_points_are_fixed_by_the_repository_alone(tmp_path, monkeypatch):
    """The start points are the priors, the bound midpoints and a seeded Latin hypercube: the same with no
    calibration file (a clean clone that never ran the fit) as with the shipped one."""
    with_file = cal.start_points()
    monkeypatch.setattr("planner.models.params.CALIBRATION_FILE", tmp_path / "absent.json")
    without = cal.start_points()
    assert [n for n, _ in with_file] == ["priors", "midpoint"] + [f"lhs-{i + 1}" for i in range(cal.LHS_STARTS)]
    for (_, a), (_, b) in zip(with_file, without):
        assert np.array_equal(a, b)
    assert np.array_equal(
        with_file[0][1][[PARAM_NAMES.index(k) for k in FIT_NAMES]], [PARAM_BOUNDS[k][0] for k in FIT_NAMES]
    )


def test_a_fresh_full_fit_reproduces_the_shipped_parameters(stored):
    """`hciplan calibrate` from a clean clone writes the shipped parameters: the full fit's multi-start
    depends on the data and code only (it once started from the shipped file: 137.96 from the priors
    against the shipped 134.25)."""
    idx = np.flatnonzero(cal.dataset()[5])
    v, res, starts = cal.fit_multi_start(idx, max_nfev=cal.REFIT_MAX_STEPS)
    doc = json.loads(CALIBRATION_FILE.read_text())
    assert starts["chosen"] == doc["fit"]["starts"]["chosen"]
    # to the fit's own stopping tolerance: on another CPU numpy's vectorised sums round differently, and the fit
    # stops elsewhere in a flat valley (an Intel Xeon, 2026-12-01: objective 1.6e-9 and parameters 1.3e-4 relative
    # from the shipped file's); another minimum is further by far (137.96 against 134.25 from another start)
    assert float(res.fun_cost) == pytest.approx(doc["fit"]["objective"], rel=cal.FIT_TOL)
    assert v == pytest.approx(stored.params.vector(), rel=1e-3)


def test_the_shipped_file_is_what_the_documented_command_writes():
    """The shipped calibration.json held "seconds": 20.4, which `hciplan calibrate` (without --timings) never
    writes: a file from another command. No wall-clock key is in it now."""
    from planner.core.jsonio import WALL_CLOCK_KEYS

    text = CALIBRATION_FILE.read_text()
    assert not any(f'"{k}"' in text for k in WALL_CLOCK_KEYS)
