"""The figures of an IO class a workload does not issue (reads at a read fraction of 0, writes at 1): null, with
their bands, and a note that says why. One rule for every architecture's report and the SLA's guarantee (the
hyperconverged report and the other architectures' report both use it, so it lives below them both)."""

from __future__ import annotations


def absent_class_keys(read_fraction: float) -> tuple[str, list[str]]:
    """Why, and the latency keys of an IO class the workload does not issue
    (reads at read_fraction 0, writes at 1): a latency for IOs nobody issues
    is a number no one can measure."""
    if 0.0 < read_fraction < 1.0:
        return "", []
    cls = "read" if read_fraction <= 0.0 else "write"
    return f"no {cls}s in this workload", [
        f"{cls}_latency_ms",
        f"vm_{cls}_latency_ms",
        f"p90_{cls}_latency_ms",
        f"p99_{cls}_latency_ms",
    ]


def drop_absent_class(res: dict, read_fraction: float) -> None:
    """Null, with their bands, the latencies of an IO class the workload does not issue, each with
    :func:`absent_class_keys`' note beside it (in place): one rule for every architecture's report."""
    why, keys = absent_class_keys(read_fraction)
    for k in keys:
        for key in (k, k.replace("_ms", "_ms_low"), k.replace("_ms", "_ms_high")):
            if key in res:
                res[key] = None
        if k in res:
            res[f"{k}_note"] = why
