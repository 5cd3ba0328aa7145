"""Designs per second and peak memory of ``evaluate_arrays`` on mixed workloads.

N random designs (benchmarks/cases.py), each with its own workload: closed
populations (some rate-limited), 30 % open loads, a tenth host-issued; the
full model, bands excluded. Time is the median of 5 runs after a warm-up;
peak memory is tracemalloc's peak over one more run (inputs excluded, the
outputs included). Prints figures, asserts nothing.

Usage: python benchmarks/sweep.py [--designs N] [--closed] [--one-at-a-time K] [--root DIR]
The last line is ``designs_per_s=<float> peak_mib=<float>``.
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc

import numpy as np
from cases import candidates, mixed_workloads  # this folder's; they import planner when called

# --root DIR measures another checkout of the project (before/after): its planner, not the installed one
if "--root" in sys.argv:
    sys.path.insert(0, sys.argv[sys.argv.index("--root") + 1])

from planner.engine.performance import WorkloadArrays, evaluate_arrays
from planner.models.params import default_params


def take_w(W, idx):
    return WorkloadArrays(**{k: np.asarray(v)[idx] if np.ndim(v) else v for k, v in W.__dict__.items()})


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--designs", type=int, default=100_000)
    ap.add_argument("--closed", action="store_true", help="one closed workload for all designs (the sweep's fast case)")
    ap.add_argument("--one-at-a-time", type=int, default=0, help="also time K designs one call each")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--root", help="app checkout to measure (default: this one)")
    a = ap.parse_args(argv)
    n = a.designs
    p = default_params()
    D = candidates(n)
    if a.closed:
        from planner.models.workload import profiles

        W = WorkloadArrays.from_workload(profiles()["oltp-8k"], D.nodes)
    else:
        W = mixed_workloads(D)
    try:
        from planner.engine import kernels
    except ImportError:  # a checkout from before the compiled path (--root)
        kernels = None
    t = time.perf_counter()
    # numba import, compile or cache load: once per process, not in the runs
    compiled = kernels is not None and kernels.use_for(n) and kernels.prepare()
    print(
        f"model path: {'compiled (numba) block' if compiled else 'numpy'}"
        + (f", loaded in {time.perf_counter() - t:.2f} s (not in the runs below)" if compiled else "")
    )
    warm = np.arange(min(n, 1000))
    evaluate_arrays(D.take(warm), take_w(W, warm), p)
    runs = []
    for _ in range(a.runs):
        t = time.perf_counter()
        out = evaluate_arrays(D, W, p)
        runs.append(time.perf_counter() - t)
        del out
    tracemalloc.start()
    out = evaluate_arrays(D, W, p)
    peak_mib = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    med = float(np.median(runs))
    kinds = "one closed workload" if a.closed else "mixed workloads (30 % open, rate limits, host issuers)"
    print(
        f"{n:,} designs, {kinds}: median {med * 1e3:.1f} ms of {a.runs} (best {min(runs) * 1e3:.1f} ms), "
        f"{n / med:,.0f} designs/s, peak {peak_mib:.1f} MiB traced (outputs included)"
    )
    lab, cnt = np.unique(np.asarray(out["limited_by"], dtype=str), return_counts=True)
    print(
        "limited_by: "
        + ", ".join(f"{k} {c}" for k, c in zip(lab, cnt))
        + f"; all IOPS finite: {bool(np.all(np.isfinite(out['iops'])))}"
    )
    if a.one_at_a_time:
        k = a.one_at_a_time
        t = time.perf_counter()
        for i in range(k):
            evaluate_arrays(D.take(np.array([i])), take_w(W, np.array([i])), p)
        one = (time.perf_counter() - t) / k
        print(f"one at a time: {one * 1e3:.2f} ms per design ({1 / one:,.0f} designs/s)")
    print(f"designs_per_s={n / med:.1f} peak_mib={peak_mib:.1f}")


if __name__ == "__main__":
    main()
