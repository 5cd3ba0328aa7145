"""The fast path (blocked, one array per term) against the reference path
(:func:`planner.engine.performance.evaluate_arrays_reference`, stacked (..., C, K)
arrays): same keys, shapes, labels and values to 1e-9 on random designs."""

import numpy as np
import pytest

from planner.engine import performance
from planner.engine.performance import DesignArrays, WorkloadArrays, evaluate_arrays, evaluate_arrays_reference
from planner.models.params import default_params

P = default_params()


def random_arrays(n, seed):
    """Every field drawn independently over wide ranges: cache or not in every
    mode, every resiliency, host and VM issuers, open and closed loads, open
    loads without VMs, rate limits, CPU caps, misaligned VMs, 0.5 KiB-2 MiB IO."""
    rng = np.random.default_rng(seed)

    def u(lo, hi):
        return rng.uniform(lo, hi, n)

    def lu(lo, hi):
        return np.exp(rng.uniform(np.log(lo), np.log(hi), n))

    nodes = rng.integers(1, 17, n)
    D = DesignArrays(
        nodes=nodes,
        fault_domains=np.maximum(nodes - rng.integers(0, 2, n), 1),
        drives_per_node=rng.integers(1, 25, n),
        drive_capacity_tb=lu(0.5, 30),
        drive_read_iops=lu(2e2, 2e6),
        drive_write_iops=lu(2e2, 1e6),
        drive_read_mb_s=lu(150, 14000),
        drive_write_mb_s=lu(150, 10000),
        drive_read_latency_us=lu(5, 8000),
        drive_write_latency_us=lu(5, 8000),
        drive_dwpd=lu(0.3, 30),
        drive_warranty_years=np.full(n, 5.0),
        cache_per_node=np.where(rng.random(n) < 0.5, rng.integers(1, 5, n), 0),
        cache_gb=lu(100, 4000),
        cache_read_iops=lu(1e5, 5e6),
        cache_write_iops=lu(1e5, 5e6),
        cache_read_mb_s=lu(1000, 30000),
        cache_write_mb_s=lu(1000, 20000),
        cache_read_latency_us=lu(0.2, 100),
        cache_write_latency_us=lu(0.2, 100),
        lps_per_node=rng.choice([16, 32, 48, 64, 96, 128, 256], n),
        cores_per_node=rng.choice([8, 16, 32, 64], n),
        base_ghz=u(1.8, 3.8),
        node_bandwidth_bytes_s=rng.choice([10, 25, 50, 100, 200, 400], n) * 1e9 / 8,
        tcp=rng.random(n) < 0.4,
        resiliency_code=rng.integers(0, 6, n),
        mirror_share=u(0.05, 0.6),
        cpu_utilization_cap=np.where(rng.random(n) < 0.4, 1.0, u(0.3, 1.0)),
        vcpu_oversubscription=u(1, 8),
        read_caching=rng.random(n) < 0.5,
        write_caching=rng.random(n) < 0.6,
        volume_servers=np.maximum(1, np.minimum(nodes, rng.integers(1, 17, n))),
        # its own stream, so the designs drawn before this field existed stay the same
        all_flash=np.random.default_rng(seed + 1000).random(n) < 0.8,
        # rooms apart for a third of the rows (0-10 ms), on its own stream too
        fault_domain_rtt_s=np.where(
            np.random.default_rng(seed + 2000).random(n) < 0.33,
            np.random.default_rng(seed + 3000).random(n) * 1e-2,
            0.0,
        ),
    )
    vms = np.where(rng.random(n) < 0.05, 0.0, rng.integers(1, 80, n) * nodes).astype(float)
    W = WorkloadArrays(
        block_size_kib=rng.choice([0.5, 4, 8, 9.14, 16, 20, 64, 256, 512, 1024, 2048], n) * 1.0,
        read_fraction=np.where(rng.random(n) < 0.2, rng.choice([0.0, 1.0], n), u(0, 1)),
        vms_total=vms,
        vcpus_per_vm=rng.integers(1, 17, n).astype(float),
        outstanding_per_vm=rng.choice([1, 2, 4, 8, 16, 32, 64, 128, 256], n).astype(float),
        working_set_gb_per_vm=lu(1, 3000),
        open_iops=np.where((rng.random(n) < 0.35) | (vms == 0), lu(1e2, 5e6), np.nan),
        iops_limit_per_vm=np.where(rng.random(n) < 0.3, lu(5, 5e4), np.inf),
        alignment=np.where(rng.random(n) < 0.5, 1.0, u(0, 1)),
        host_issuer=rng.random(n) < 0.2,
    )
    return D, W


def assert_same(fast, ref):
    assert fast.keys() == ref.keys()
    for k in ref:
        a, b = np.asarray(fast[k]), np.asarray(ref[k])
        assert a.shape == b.shape, k
        if b.dtype == object or b.dtype == bool:
            assert a.dtype == b.dtype, k
            assert np.array_equal(a, b), (k, a[a != b][:5], b[a != b][:5])
        else:
            # the iterative solvers stop at their own tolerances: the compiled block and the reference agree on IOPS
            # to ~1e-11, and a closed, population-bound row's latency (N / X less the think time) amplifies that;
            # the cold-start refit of stop 54 moved one of 5,000 random rows to 1.18e-9 in VM read latency
            np.testing.assert_allclose(a, b, rtol=2e-9, atol=0, err_msg=k)


@pytest.mark.parametrize("seed", range(3))
def test_fast_path_matches_reference_on_random_designs(seed, monkeypatch):
    monkeypatch.setattr(performance, "BLOCK", 997)  # many blocks, a ragged last one
    D, W = random_arrays(6000, seed)
    fast = evaluate_arrays(D, W, P)
    assert_same(fast, evaluate_arrays_reference(D, W, P))
    labels = set(fast["limited_by"]) | set(fast["bottleneck"])
    assert {"population", "offered_load", "iops_limit_per_vm", "cpu_utilization_cap", "outstanding_io"} <= labels


def test_fast_path_matches_reference_on_every_block_kind(monkeypatch):
    """Blocks all closed, all open and mixed; a single closed workload
    broadcast over the designs (0-d workload fields, as sweeps call it)."""
    monkeypatch.setattr(performance, "BLOCK", 500)
    D, W = random_arrays(3000, 11)
    order = np.argsort(np.isnan(W.open_iops), kind="stable")  # open rows first, then closed
    D = D.take(order)
    W = WorkloadArrays(**{k: v[order] for k, v in W.__dict__.items()})
    assert_same(evaluate_arrays(D, W, P), evaluate_arrays_reference(D, W, P))
    W1 = WorkloadArrays(**{k: np.asarray(v[-1]) for k, v in W.__dict__.items()})
    W1.vms_total = np.asarray(D.nodes * 20.0)
    assert_same(evaluate_arrays(D, W1, P), evaluate_arrays_reference(D, W1, P))


def test_fast_path_broadcasts_like_the_reference():
    D, W = random_arrays(12, 5)
    D2 = DesignArrays(**{k: np.asarray(v[:3])[:, None] for k, v in D.__dict__.items()})
    W2 = WorkloadArrays(**{k: np.asarray(v[:4]) for k, v in W.__dict__.items()})
    fast = evaluate_arrays(D2, W2, P)
    assert fast["iops"].shape == (3, 4) and fast["utilization"].shape == (3, 4, 5)
    assert_same(fast, evaluate_arrays_reference(D2, W2, P))
    D0 = DesignArrays(**{k: np.asarray(v[0]) for k, v in D.__dict__.items()})
    W0 = WorkloadArrays(**{k: np.asarray(v[0]) for k, v in W.__dict__.items()})
    assert_same(evaluate_arrays(D0, W0, P), evaluate_arrays_reference(D0, W0, P))


def test_one_parameter_set_per_row_equals_separate_calls():
    """Parameters as per-row arrays (the calibration's finite differences in
    one call) give each row what its own parameter set gives."""
    from types import SimpleNamespace

    from planner.models.params import PARAM_NAMES, ModelParams

    D, W = random_arrays(400, 21)
    rng = np.random.default_rng(3)
    sets = [P] + [ModelParams.from_vector(P.vector() * rng.uniform(0.7, 1.3, len(PARAM_NAMES))) for _ in range(3)]
    k = len(sets)
    Dk = D.take(np.tile(np.arange(400), k))
    Wk = WorkloadArrays(**{f: np.tile(v, k) for f, v in W.__dict__.items()})
    stacked = SimpleNamespace(**{f: np.repeat([getattr(s, f) for s in sets], 400) for f in PARAM_NAMES})
    out = evaluate_arrays(Dk, Wk, stacked)
    for j, s in enumerate(sets):
        one = evaluate_arrays(D, W, s)
        assert_same({key: v[j * 400 : (j + 1) * 400] for key, v in out.items()}, one)


#: reads, writes, a mix, large blocks and a sequential log: each kind of load the shipped profiles hold
PROFILES_COMPARED = ("Peak4kRead", "General4KWriteRatio30", "oltp-8k", "dss-512k", "log-writes")


#: what a report of figures alone leaves out besides its warnings and notes
WORDS_LEFT_OUT = {"host_cpu_utilization_note", "model", "platform", "provenance", "scaling"}


def _designs():
    from pathlib import Path

    from planner.models.design import load_design

    ex = Path(__file__).resolve().parent.parent / "examples"
    out = []
    for f in sorted(ex.glob("*.json")):
        try:
            out.append(load_design(f))
        except Exception:  # a workload, a database or a demand file: not a design
            continue
    return out


@pytest.mark.parametrize("scale", [None, 0.5, 1.5])
def test_a_report_of_figures_only_gives_the_full_reports_figures(scale):
    """A capacity search reads each trial rate's report with ``figures_only`` (no warnings, notes, platform check,
    provenance or scaling; stop 60, about five times faster): every figure it gives is the full report's, on every
    shipped design, for each shipped profile as it is (a closed load, ``scale`` None) and as an open load of
    ``scale`` times the IOPS the design carries of it (carried, saturated or throttled)."""
    from planner.core.errors import PlannerError
    from planner.models.workload import Workload, profiles
    from planner.results.report import evaluate_report

    designs = _designs()
    assert len(designs) >= 15  # every shipped design, of every topology
    topologies, compared = set(), 0
    for d in designs:
        for w in (profiles()[k] for k in PROFILES_COMPARED):
            try:
                full = evaluate_report(d, w, degraded=False)
            except PlannerError:
                continue
            if scale is not None:  # the database search's kind of load: open, one issuer
                w = Workload(
                    name=f"{w.name} open",
                    block_size_kib=w.block_size_kib,
                    read_fraction=w.read_fraction,
                    random_fraction=w.random_fraction,
                    iops=full["iops"] * scale,
                    working_set_gb_per_vm=10.0,
                )
                full = evaluate_report(d, w, degraded=False)
            brief = evaluate_report(d, w, degraded=False, figures_only=True)
            topologies.add(d.topology)
            assert brief["warnings"] == [] and brief["notes"] == []
            assert "iops" in brief and "utilization" in brief
            for k, v in brief.items():
                if k not in ("warnings", "notes"):
                    assert full[k] == v, (d.name, w.name, k)
            # and only words are left out: every figure of the full report is there
            assert set(full) - set(brief) <= WORDS_LEFT_OUT, (d.name, w.name, set(full) - set(brief))
            compared += 1
    assert len(topologies) >= 4 and compared >= 80, (topologies, compared)
