"""A SQLIO sweep on a single server, as the HP DL580 G7 seed ran it.

SQLIO (Microsoft's IO load generator for SQL Server sizing) runs one test per
operation, block size and queue depth: ``threads`` threads, each keeping
``outstanding`` IOs in flight against one file, for ``run_s`` seconds. The seed
(David Barbarin's blog, 2011) ran reads and writes, random, block sizes 8, 64,
128, 256, 512 and 1024 KiB, 1, 8, 32 and 64 outstanding IOs, 12 threads (one per
logical CPU), 60 s per test, a 2 GB file, and kept for each disk layout the
largest IOPS and throughput among the tests whose latency stayed strictly under
20 ms ("au delà de ce seuil le sous système disque est considéré comme peu
performant").

Each test is the planner's closed population issued by the host itself
(``issuer: host``: no guest layer), solved by the architecture's network. A run
that starts with a clean write-back cache gets the cache's burst on top of the
sustained (destage-bound) write rate (:func:`planner.physics.cache.burst_write_iops`),
capped by what the server's path takes with no destage at all; back-to-back tests
(``cold_cache`` false, the default: the 96 series ran one after another) start
with the cache still full.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from planner.engine.architectures import common, single_server
from planner.models.params import ModelParams, default_params
from planner.models.workload import Workload
from planner.physics import cache as cache_mod

#: the seed's sweep (Barbarin 2011): SQLIO parameters
BLOCK_SIZES_KIB = (8, 64, 128, 256, 512, 1024)
OUTSTANDING = (1, 8, 32, 64)
THREADS = 12
FILE_GB = 2.0
RUN_S = 60.0
LATENCY_CUT_MS = 20.0


@dataclass(frozen=True)
class Test:
    """One SQLIO test: operation, block size and queue depth per thread."""

    op: str  # "read" | "write"
    block_size_kib: float
    outstanding: int


def workload(test: Test, threads: int = THREADS, file_gb: float = FILE_GB) -> Workload:
    """The test as a closed, host-issued random workload over one file."""
    return Workload(
        name=f"sqlio-{test.op}-{test.block_size_kib:g}k-o{test.outstanding}",
        block_size_kib=test.block_size_kib,
        read_fraction=1.0 if test.op == "read" else 0.0,
        random_fraction=1.0,
        issuer="host",
        vms_per_node=threads,
        threads_per_vm=1,
        outstanding_per_thread=test.outstanding,
        working_set_gb_per_vm=file_gb / threads,
    )


def run_test(
    parts: single_server.Parts,
    test: Test,
    p: ModelParams | None = None,
    threads: int = THREADS,
    file_gb: float = FILE_GB,
    run_s: float = RUN_S,
    cold_cache: bool = False,
) -> dict[str, Any]:
    """IOPS, MB/s and latency of one test [IOPS, MB/s, ms]; with ``cold_cache`` a write test
    adds the write-back cache's burst over the run, capped by the rate with no destage."""
    p = p or default_params()
    w = workload(test, threads, file_gb)
    net = single_server.network(parts, w, p)
    res = common.solve(net, p)
    iops = res["iops"]
    if cold_cache and test.op == "write":
        burst = float(
            cache_mod.burst_write_iops(single_server.write_cache_gb(parts), file_gb, run_s, test.block_size_kib)
        )
        if burst > 0:
            net.background[:] = 0.0
            free = common.solve(net, p)["iops"]
            iops = min(free, iops + burst)
    n = threads * test.outstanding
    # Little's law: the threads' IOs in flight at the run's average rate
    latency_ms = n / max(iops, 1e-9) * 1e3
    return {
        "op": test.op,
        "block_size_kib": test.block_size_kib,
        "outstanding": test.outstanding,
        "iops": iops,
        "bandwidth_mb_s": iops * test.block_size_kib * 1024 / 1e6,
        "latency_ms": latency_ms,
        "bottleneck": res["bottleneck"],
    }


def sweep(
    parts: single_server.Parts,
    p: ModelParams | None = None,
    block_sizes: Sequence[float] = BLOCK_SIZES_KIB,
    outstanding: Sequence[int] = OUTSTANDING,
    threads: int = THREADS,
    file_gb: float = FILE_GB,
    run_s: float = RUN_S,
    latency_cut_ms: float = LATENCY_CUT_MS,
    cold_cache: bool = False,
) -> dict[str, Any]:
    """Every test of the sweep, and per operation the best IOPS and MB/s among the tests
    under the latency cut (the seed's reading), with the test that gave each."""
    rows = [
        run_test(parts, Test(op, float(bs), int(o)), p, threads, file_gb, run_s, cold_cache)
        for op in ("read", "write")
        for bs in block_sizes
        for o in outstanding
    ]
    for r in rows:
        r["kept"] = bool(r["latency_ms"] < latency_cut_ms)
    best: dict[str, dict[str, Any]] = {}
    for op in ("read", "write"):
        kept = [r for r in rows if r["op"] == op and r["kept"]]
        if not kept:
            best[op] = {"iops": None, "bandwidth_mb_s": None, "note": f"no {op} test under {latency_cut_ms:g} ms"}
            continue
        top_iops = max(kept, key=lambda r: r["iops"])
        top_bw = max(kept, key=lambda r: r["bandwidth_mb_s"])
        best[op] = {
            "iops": top_iops["iops"],
            "iops_at": {"block_size_kib": top_iops["block_size_kib"], "outstanding": top_iops["outstanding"]},
            "bandwidth_mb_s": top_bw["bandwidth_mb_s"],
            "bandwidth_at": {"block_size_kib": top_bw["block_size_kib"], "outstanding": top_bw["outstanding"]},
        }
    return {
        "tests": rows,
        "best": best,
        "settings": {
            "block_sizes_kib": list(block_sizes),
            "outstanding": list(outstanding),
            "threads": threads,
            "file_gb": file_gb,
            "run_s": run_s,
            "latency_cut_ms": latency_cut_ms,
            "cold_cache": cold_cache,
        },
    }
