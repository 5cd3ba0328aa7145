"""The analytic model against the discrete-event simulation of the same
network (planner/simulation.py): error and speed ratio per design.

For each validation case of tests/test_simulation.py: IOPS and mean VM
latency, analytic vs simulated (60,000 completions after warm-up), the
simulation's wall time, and the analytic model's time for the same design,
alone (one call, median of 200) and within a vectorised batch (10,000 copies).
Prints figures, asserts nothing. Usage: python benchmarks/simulate.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

from planner.engine.performance import evaluate_arrays

# the discrete-event simulation is a test oracle: it lives with the tests (tests/oracles/), which
# the package does not install; a script's path starts at its own folder, so tests/ is added
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from oracles.simulation import network, simulate
from test_simulation import CASES, P, _case


def main() -> None:
    errs, ratios, ratios_vec = [], [], []
    print(f"{'case':44s} {'IOPS err':>9s} {'lat err':>8s} {'DES s':>7s} {'one call ms':>11s} {'batched us':>10s}")
    for _i, c in enumerate(CASES):
        D, W = _case(*c)
        a = evaluate_arrays(D, W, P)
        t = time.perf_counter()
        s = simulate(network(D, W, P), completions=60_000, seed=3)
        des = time.perf_counter() - t
        one = []
        for _ in range(200):
            t = time.perf_counter()
            evaluate_arrays(D, W, P)
            one.append(time.perf_counter() - t)
        one = statistics.median(one)
        n = 10_000
        Dn = D.take(np.zeros(n, dtype=int))
        Wn = type(W)(**{k: np.repeat(np.ravel(v), n) if np.size(v) == 1 else v for k, v in W.__dict__.items()})
        t = time.perf_counter()
        evaluate_arrays(Dn, Wn, P)
        vec = (time.perf_counter() - t) / n
        ei = float(a["iops"][0]) / s["iops"] - 1
        el = float(a["vm_latency_ms"][0]) / s["vm_latency_ms"] - 1
        errs.append((abs(ei), abs(el)))
        ratios.append(des / one)
        ratios_vec.append(des / vec)
        name = f"{c[0]} {c[2]} {c[1] or ''} {c[3]}"[:44]
        print(f"{name:44s} {ei:+9.1%} {el:+8.1%} {des:7.2f} {one * 1e3:11.3f} {vec * 1e6:10.2f}")
    print(
        f"max |error|: IOPS {max(e[0] for e in errs):.1%}, mean VM latency {max(e[1] for e in errs):.1%}; "
        f"median of the cases: {statistics.median(e[0] for e in errs):.1%} and {statistics.median(e[1] for e in errs):.1%}"
    )
    print(
        f"speed ratio (simulation / analytic per design): one call {min(ratios):,.0f}x to {max(ratios):,.0f}x, "
        f"batched {min(ratios_vec):,.0f}x to {max(ratios_vec):,.0f}x"
    )


if __name__ == "__main__":
    main()
