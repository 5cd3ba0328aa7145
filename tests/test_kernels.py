"""The compiled MVA solver (planner.engine.kernels, numba) against its numpy
reference, and the large-call path of evaluate_arrays (compiled solver,
blocks on two threads) against the plain reference model."""

import numpy as np
import pytest

from planner.engine import kernels, performance, queueing
from planner.engine.performance import evaluate_arrays, evaluate_arrays_reference
from planner.models.params import default_params
from tests.test_fast_path import assert_same, random_arrays

P = default_params()
needs_numba = pytest.mark.skipif(not kernels.available(), reason="numba not importable here")


def test_the_kernels_compile_where_numba_is_installed():
    """A kernel that fails to compile falls back to numpy silently (and the
    tests below would skip): where numba imports, both must be in use."""
    pytest.importorskip("numba")
    import os

    if os.environ.get("HCIPLAN_NO_JIT", "").strip() not in ("", "0"):
        pytest.skip("HCIPLAN_NO_JIT set")
    assert kernels.available() and kernels.block_available()


def solver_inputs(n, seed):
    """Random solver inputs over wide ranges, with the corners the numpy
    solver handles specially: no background work, clamped background (e >= 0.999),
    LP utilisation at the 0.99 clamp, one IO per VM, private stations."""
    rng = np.random.default_rng(seed)

    def lu(lo, hi):
        return np.exp(rng.uniform(np.log(lo), np.log(hi), n))

    dpath = [lu(1e-7, 1e-3) * (rng.random(n) < 0.9) for _ in range(5)]
    share = rng.integers(1, 2000, n).astype(float)
    s0 = np.where(rng.random(n) < 0.1, 0.0, 1.0)
    bg4 = np.where(rng.random(n) < 0.5, 0.0, lu(1e-8, 1e-3))
    nn = rng.choice([1.0, 2.0, 4.0, 16.0, 64.0, 256.0], n)
    zbar, wbar = lu(1e-6, 1e-2), np.where(rng.random(n) < 0.3, 0.0, lu(1e-7, 1e-4))
    u0 = rng.uniform(0.0, 1.2, n)
    slope = lu(1e-9, 1e-3)
    load = [dpath[0] * s0] + [d * share for d in dpath[1:4]] + [(dpath[4] + bg4) * share]
    x_max = 1.0 / np.maximum(np.max(load, axis=0), 1e-15)
    return dpath, s0, share, bg4, nn, zbar, wbar, u0, slope, x_max


def solver_extras(n, seed, dpath):
    """The fork-join LP wait (branches, forked share) and each station's class
    dispersion (zero for a third of the rows: equal demands), as keywords."""
    rng = np.random.default_rng(seed + 100)
    disp = [
        np.where(rng.random(n) < 0.33, 0.0, d * d * np.exp(rng.uniform(np.log(1e-3), np.log(50.0), n))) for d in dpath
    ]
    return dict(
        wfj=rng.uniform(0.0, 1e-4, n),
        branches=rng.choice([1.0, 2.0, 3.0, 4.0], n),
        disp=disp,
        forked=rng.uniform(0.0, 1.0, n),
    )


@needs_numba
@pytest.mark.parametrize("seed", range(3))
def test_compiled_solver_equals_numpy_solver(seed):
    args = solver_inputs(20_000, seed)
    kw = solver_extras(20_000, seed, args[0]) if seed else {}
    ref = queueing.symmetric_throughput(*args, **kw)
    got = kernels.symmetric_throughput(*args, **kw)
    assert got.shape == ref.shape
    # each row stops at its own convergence; the numpy solver may give a row
    # that converged early one more Newton step while others in its array
    # still move: the two agree to the early stop's tolerance, 1e-11
    np.testing.assert_allclose(got, ref, rtol=2e-11, atol=0)
    assert np.median(np.abs(got / ref - 1)) < 1e-15
    # the same invariant the numpy solver keeps: never more than n IOs placed
    _dpath, _s0, _share, _bg4, _nn, _zbar, _wbar, _u0, _slope, x_max = args
    assert np.all(got <= x_max * (1 + 1e-12))


@needs_numba
def test_compiled_solver_broadcasts_scalars():
    dpath, _s0, share, _bg4, _nn, zbar, _wbar, _u0, slope, x_max = solver_inputs(50, 7)
    args = ([d for d in dpath[:4]] + [np.float64(2e-5)], 1.0, share, 0.0, 8.0, zbar, 0.0, 0.1, slope, x_max)
    np.testing.assert_allclose(
        kernels.symmetric_throughput(*args), queueing.symmetric_throughput(*args), rtol=2e-11, atol=0
    )


@needs_numba
@pytest.mark.parametrize("seed", range(2))
def test_large_call_path_matches_reference(seed, monkeypatch):
    """The path a million-design sweep takes (the compiled block, blocks on
    two threads), forced on a few thousand rows with many ragged blocks."""
    monkeypatch.setattr(kernels, "MIN_ROWS", 1)
    monkeypatch.setattr(performance, "THREADS", 2)
    monkeypatch.setattr(performance, "BLOCK", 998)
    D, W = random_arrays(5000, 40 + seed)
    assert kernels.use_for(5000) and kernels.block_available()
    calls = []
    real = kernels.block
    monkeypatch.setattr(kernels, "block", lambda *a, **k: calls.append(1) or real(*a, **k))
    fast = evaluate_arrays(D, W, P)
    assert len(calls) == -(-5000 // performance.BLOCK)  # every block went through the compiled kernel
    assert_same(fast, evaluate_arrays_reference(D, W, P))
    labels = set(fast["limited_by"]) | set(fast["bottleneck"])
    assert {"population", "offered_load", "iops_limit_per_vm", "cpu_utilization_cap", "outstanding_io"} <= labels


@needs_numba
def test_large_call_with_parameter_sets_per_row_uses_the_compiled_solver(monkeypatch):
    """Parameter sets per row (calibration) keep the numpy block with the
    compiled solver, and still match the reference."""
    from types import SimpleNamespace

    from planner.models.params import PARAM_NAMES, ModelParams

    monkeypatch.setattr(kernels, "MIN_ROWS", 1)
    D, W = random_arrays(1500, 9)
    rng = np.random.default_rng(2)
    sets = [ModelParams.from_vector(P.vector() * rng.uniform(0.8, 1.2, len(PARAM_NAMES))) for _ in range(2)]
    D2 = D.take(np.tile(np.arange(1500), 2))
    from planner.engine.performance import WorkloadArrays

    W2 = WorkloadArrays(**{f: np.tile(v, 2) for f, v in W.__dict__.items()})
    stacked = SimpleNamespace(**{f: np.repeat([getattr(s, f) for s in sets], 1500) for f in PARAM_NAMES})
    out = evaluate_arrays(D2, W2, stacked)
    for j, s in enumerate(sets):
        assert_same({k: v[j * 1500 : (j + 1) * 1500] for k, v in out.items()}, evaluate_arrays_reference(D, W, s))


def test_small_calls_never_use_the_compiled_solver(monkeypatch):
    """A handful of designs (the CLI, the app's pages) stays on numpy."""
    assert not kernels.use_for(kernels.MIN_ROWS - 1)
    monkeypatch.setenv("HCIPLAN_NO_JIT", "1")
    kernels._compiled.cache_clear()
    try:
        assert not kernels.available() and not kernels.use_for(10**9)
        with pytest.raises(RuntimeError, match="not available"):
            kernels.symmetric_throughput(*solver_inputs(3, 1))
    finally:
        monkeypatch.delenv("HCIPLAN_NO_JIT")
        kernels._compiled.cache_clear()


def test_a_failing_block_raises_in_the_caller(monkeypatch):
    """An error in a worker thread reaches the caller (no half-filled output)."""
    monkeypatch.setattr(kernels, "use_for", lambda rows: True)
    monkeypatch.setattr(kernels, "block", lambda *a, **k: (_ for _ in ()).throw(ValueError("boom")))
    monkeypatch.setattr(performance, "THREADS", 2)
    monkeypatch.setattr(performance, "BLOCK", 500)
    D, W = random_arrays(3000, 3)
    with pytest.raises(ValueError, match="boom"):
        evaluate_arrays(D, W, P)


def test_cli_and_app_pages_never_import_numba():
    """The compiled path is for sweeps: the CLI's evaluate, sla and size and
    every app page run on numpy and never pay numba's import (~0.5 s)."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    code = """
import runpy, sys
from streamlit.testing.v1 import AppTest
for argv in (["evaluate", "examples/reference.json", "--workload", "oltp-8k"],
             ["sla", "examples/reference.json", "--db", "examples/db-erp.json"],
             ["size", "examples/demand-200dbs.json"]):
    sys.argv = ["planner", *argv]
    try:
        runpy.run_module("planner", run_name="__main__")
    except SystemExit as e:
        assert not e.code, (argv, e.code)
at = AppTest.from_file("app.py", default_timeout=120).run()
for page in ["design", "capacity", "performance", "sla", "sizing", "compare", "calibration"]:
    at.switch_page(f"hciplan_ui/{page}_page.py").run()
    assert not at.exception, (page, at.exception)
print("NUMBA", "numba" in sys.modules)
"""
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "NUMBA False" in out.stdout


@needs_numba
def test_degraded_rows_without_repair_match_reference(monkeypatch):
    """One node down: the rows whose survivors cannot repair write only the copies
    whose node is up (``lost_copy_share``); the compiled block and the reference agree."""
    from planner.engine.degraded import degraded_arrays

    monkeypatch.setattr(kernels, "MIN_ROWS", 1)
    monkeypatch.setattr(performance, "BLOCK", 998)
    D, W = random_arrays(3000, 77)
    Dd, Wd = degraded_arrays(D, W)
    assert np.count_nonzero(Dd.lost_copy_share) > 100
    assert_same(evaluate_arrays(Dd, Wd, P), evaluate_arrays_reference(Dd, Wd, P))


@needs_numba
def test_the_compiled_fork_join_factor_agrees_on_fractional_branch_counts():
    """The compiled fork-join factor (``_kernels_jit._fork_join``) against numpy's for whole and fractional
    counts (a write that skips a lost node's column on some stripes forks to 2.25 nodes on average)."""
    from planner.engine._kernels_jit import _fork_join

    for u in (0.05, 0.4, 0.8, 0.95):
        for k in (1.0, 4 / 3, 2.0, 2.25, 2.5, 3.0, 3.75):
            for fs in (0.0, 0.3, 1.0):
                g, dg = _fork_join(u, k, fs)
                want, dwant = queueing.fork_join_factor(u, k, True, fs)
                assert g == pytest.approx(float(want), rel=1e-12), (u, k, fs)
                assert dg == pytest.approx(float(dwant), rel=1e-12, abs=1e-15), (u, k, fs)


@needs_numba
def test_repeated_small_calls_take_the_compiled_block_inline_and_match_the_reference(monkeypatch):
    """A refit's Powell search makes ~2,900 calls of a few dozen rows (12.7 s on numpy, 4.5 s compiled, stop 61):
    inside ``for_repeated_calls`` a small call takes the compiled block, on the caller's thread (one block: no
    pool), and gives the reference model's figures; outside it, the same call stays on numpy."""
    D, W = random_arrays(40, 61)
    assert not kernels.use_for(40)
    calls = []
    real = kernels.block
    monkeypatch.setattr(kernels, "block", lambda *a, **k: calls.append(1) or real(*a, **k))
    monkeypatch.setattr(performance, "ThreadPoolExecutor", None)  # a pool would fail here: none is started
    with kernels.for_repeated_calls():
        assert kernels.use_for(40)
        fast = evaluate_arrays(D, W, P)
    assert calls == [1] and not kernels.use_for(40)
    assert_same(fast, evaluate_arrays_reference(D, W, P))


def test_a_refit_without_numba_runs_on_numpy(monkeypatch):
    """Where numba is missing or disabled, or its kernel fails to compile, the repeated-calls block changes nothing
    (the app's install has no numba: ``pip install hciplan[fast]`` adds it)."""
    monkeypatch.setattr(kernels, "prepare", lambda: (_ for _ in ()).throw(RuntimeError("LLVM says no")))
    with kernels.for_repeated_calls():
        assert not kernels.use_for(40)
    monkeypatch.undo()
    monkeypatch.setenv("HCIPLAN_NO_JIT", "1")
    kernels._compiled.cache_clear()
    kernels._compiled_block.cache_clear()
    try:
        with kernels.for_repeated_calls():
            assert not kernels.use_for(40)
    finally:
        monkeypatch.delenv("HCIPLAN_NO_JIT")
        kernels._compiled.cache_clear()
        kernels._compiled_block.cache_clear()
