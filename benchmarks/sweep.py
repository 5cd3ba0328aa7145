"""Designs per second: the vectorised model vs the same model one design at a time.

Prints figures; asserts nothing (speed is measured here, not in tests).
Usage: python benchmarks/sweep.py [N]
"""
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from planner.design import parse_design, resolve  # noqa: E402
from planner.params import default_params  # noqa: E402
from planner.performance import DesignArrays, WorkloadArrays, evaluate_arrays  # noqa: E402
from planner.workload import profiles  # noqa: E402


def candidates(n: int, seed: int = 0) -> DesignArrays:
    """n random variations of the reference design (nodes, drives, NIC speed, resiliency, transport)."""
    ref = DesignArrays.from_designs([resolve(parse_design(
        (Path(__file__).resolve().parent.parent / "examples" / "reference.json").read_text()))])
    rng = np.random.default_rng(seed)
    D = ref.take(np.zeros(n, dtype=int))
    nodes = rng.integers(4, 17, n)
    return D.replace(
        nodes=nodes, fault_domains=nodes, drives_per_node=rng.integers(2, 25, n),
        node_bandwidth_bytes_s=rng.choice([25, 50, 100, 200], n) * 1e9 / 8,
        resiliency_code=rng.choice([0, 1, 3, 4], n), tcp=rng.random(n) < 0.3,
        cpu_utilization_cap=rng.uniform(0.5, 1.0, n))


def main(n: int = 100_000, sample: int = 300) -> None:
    p = default_params()
    w = profiles()["oltp-8k"]
    D = candidates(n)
    W = WorkloadArrays.from_workload(w, D.nodes)
    evaluate_arrays(D.take(np.arange(10)), WorkloadArrays.from_workload(w, D.nodes[:10]), p)  # warm-up
    runs = []
    for _ in range(5):  # a 2-core machine is noisy: report the median of five runs
        t = time.perf_counter()
        out = evaluate_arrays(D, W, p)
        runs.append(time.perf_counter() - t)
    vec_s = float(np.median(runs))
    t = time.perf_counter()
    for i in range(sample):
        Di = D.take(np.array([i]))
        evaluate_arrays(Di, WorkloadArrays.from_workload(w, Di.nodes), p)
    one_s = (time.perf_counter() - t) / sample
    vec_rate, one_rate = n / vec_s, 1.0 / one_s
    print(f"vectorised: {n} designs in {vec_s:.2f} s (median of 5; best {min(runs):.2f} s) = {vec_rate:,.0f} designs/s")
    print(f"one at a time: {sample} designs, {one_s * 1e3:.2f} ms each = {one_rate:,.0f} designs/s")
    print(f"speed-up: {vec_rate / one_rate:,.0f}x   (target >= 200,000 designs/s vectorised)")
    print(f"check: median IOPS {np.median(out['iops']):,.0f}, all finite: {bool(np.all(np.isfinite(out['iops'])))}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)
