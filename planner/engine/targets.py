"""What a latency target is judged on, in one place.

A target names a statistic: ``mean`` (the IO-weighted mean of read and write latency at
the VM) or a percentile (``p90``, ``p99``). The percentile of a mixture of reads and writes
is not a weighted sum of the two; the target holds when both classes meet it, so the
statistic is the worse of the two (or the one class the load issues).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from planner.core.types import FloatArray
from planner.engine.performance import PACING_POLICIES

STATISTICS = ("mean", "p90", "p99")


def carried(out: dict[str, Any]) -> FloatArray:
    """Where an evaluated load is carried whole [bool]: the cluster not saturated, and no policy (the
    CPU utilisation cap, a per-VM IOPS limit: ``limited_by``) throttling it. A throttled load's
    latency can be low because part of it is held back; it is no guarantee. The one rule of the
    sizer's latency check, the SLA guarantee's bounds and the tiers' IOPS at their target."""
    ok = ~np.asarray(out["saturated"], dtype=bool)
    if "limited_by" in out:  # another architecture's model has no policies
        ok = ok & ~np.isin(np.asarray(out["limited_by"]), PACING_POLICIES)
    return ok


def latency_statistic(out: dict[str, Any], statistic: str, read_fraction: float) -> FloatArray:
    """The latency statistic a target is judged on [ms], from a model output.

    Parameters
    ----------
    out : dict
        :func:`planner.engine.performance.evaluate_arrays` output (``vm_read_latency_ms``,
        ``vm_write_latency_ms``, ``p90_*`` and ``p99_*`` latencies) [ms].
    statistic : {"mean", "p90", "p99"}
    read_fraction : float
        Share of reads in the load [0..1].

    Returns
    -------
    numpy.ndarray
        The mean weighted by the read share, or the worse of the read and write
        percentiles (the read percentile alone at 100 % reads, the write one at 0 %) [ms].
    """
    r = read_fraction
    # all reads or all writes: the other class's latency is of IOs nobody issues (null in a report)
    if statistic == "mean":
        if r >= 1.0:
            return out["vm_read_latency_ms"]
        if r <= 0.0:
            return out["vm_write_latency_ms"]
        return r * out["vm_read_latency_ms"] + (1 - r) * out["vm_write_latency_ms"]
    rd, wr = out[f"{statistic}_read_latency_ms"], out[f"{statistic}_write_latency_ms"]
    if r >= 1.0:
        return rd
    if r <= 0.0:
        return wr
    return np.maximum(rd, wr)


def statistic_words(statistic: str, read_fraction: float) -> str:
    """What :func:`latency_statistic` measures, in words: "mean latency", "p99 read latency", or "p99 latency
    (the slower of reads and writes)". The SLA page's "p99 latency ... 2.462 ms" read as contradicting the
    Performance page's "p99 read latency 1.969 ms" for the same load (browser review 2026-11-30): the first
    was the writes'."""
    if statistic == "mean":
        return "mean latency"
    if read_fraction >= 1.0:
        return f"{statistic} read latency"
    if read_fraction <= 0.0:
        return f"{statistic} write latency"
    return f"{statistic} latency (the slower of reads and writes)"
