"""What solving a network's Markov chain costs (planner.engine.markov, behind
planner.engine.queueing.solve_closed), and how far the fallback is just past the bound.

For two-station read/write networks of the Accuracy page at growing populations: the chain's
states, the wall and CPU time of one solve_closed call, the process's peak memory so far
(the populations grow, so each line's peak is its own), and the throughput and per-class
response error of the fallback (exact MVA + Takacs, ``max_states=0``) against the chain.
The last lines solve chains just over EXACT_STATES (the bound raised for the run) to show
the fallback's error where solve_closed starts to use it. Prints figures, asserts nothing.

On a machine whose cores are shared, OpenBLAS's threads contend (the incomplete LU and
GMRES call BLAS): run with OPENBLAS_NUM_THREADS=1 for figures that do not depend on the
neighbours' load.

Usage: python benchmarks/markov.py [--quick]
"""

from __future__ import annotations

import resource
import sys
import time

import numpy as np

from planner.engine.markov import EXACT_STATES, chain_states
from planner.engine.queueing import solve_closed

#: (label, demands [s] per class and station, mix, think time [s])
NETWORKS = [
    ("0.1/0.2 and 0.4/0.1 s, 70 %, think 1 s", [[0.1, 0.2], [0.4, 0.1]], [0.7, 0.3], 1.0),
    ("0.05/0.02 and 0.5/0.3 s, 80 %, think 0.5 s", [[0.05, 0.02], [0.5, 0.3]], [0.8, 0.2], 0.5),
    ("0.05/0.1 and 0.3/0.05 s, 50 %, no think", [[0.05, 0.1], [0.3, 0.05]], [0.5, 0.5], 0.0),
]


def row(label, d, mix, z, n, bound):
    states = int(chain_states(d, n, mix, z))
    t0, c0 = time.perf_counter(), time.process_time()
    exact = solve_closed(d, n, mix, z, max_states=bound)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    approx = solve_closed(d, n, mix, z, max_states=0)
    ex = approx["throughput"] / exact["throughput"] - 1
    er = np.asarray(approx["response_time"]) / exact["response_time"] - 1
    print(
        f"{label:44s} {n:3d} {states:8d} {exact['method']:>6s} {wall:8.2f} {cpu:8.2f} {peak_mb:8.0f}"
        f" {100 * ex:+7.1f} % {100 * er[0]:+7.1f} % {100 * er[1]:+7.1f} %"
    )


def main() -> None:
    quick = "--quick" in sys.argv
    print(f"EXACT_STATES = {EXACT_STATES}")
    print(
        f"{'network (two stations)':44s} {'N':>3s} {'states':>8s} {'method':>6s} {'wall s':>8s} {'CPU s':>8s}"
        f" {'peak MB':>8s} {'fallback: X':>11s} {'reads':>9s} {'writes':>9s}"
    )
    for label, d, mix, z in NETWORKS:
        for n in (4, 8) if quick else (4, 8, 10, 12):
            row(label, d, mix, z, n, EXACT_STATES)
    if quick:
        return
    print("just over the bound (solved here with the bound raised; solve_closed falls back):")
    for label, d, mix, z in NETWORKS:
        n = 13 if z > 0 else 14
        row(label, d, mix, z, n, 10 * EXACT_STATES)


if __name__ == "__main__":
    main()
