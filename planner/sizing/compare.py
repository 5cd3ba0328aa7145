"""``python -m planner compare DESIGN... --workload W``: the same workload on
several designs of any architecture, one JSON object per design.

The workload is a profile name or workload file, or ``--database FILE`` (a
:class:`planner.models.database.Database` description, evaluated as the open load
of its peak demand, ``--mean`` for the mean).
"""

from __future__ import annotations

#: the keys of a report the comparison keeps (``--full`` prints whole reports)
SUMMARY_KEYS = (
    "design",
    "topology",
    "architecture",
    "nodes",
    "resiliency",
    "transport",
    "usable_capacity_tb",
    "workload",
    "iops",
    "iops_low",
    "iops_high",
    "iops_capacity",
    "bandwidth_mb_s",
    "read_latency_ms",
    "write_latency_ms",
    "vm_read_latency_ms",
    "vm_write_latency_ms",
    "vm_latency_ms",
    "p99_read_latency_ms",
    "p99_write_latency_ms",
    "host_cpu_utilization",
    "bottleneck",
    "limited_by",
    "saturated",
    "utilization",
    "scaling",
)


def summarise(report: dict) -> dict:
    out = {k: report[k] for k in SUMMARY_KEYS if k in report}
    # a kept figure that is null keeps its reason (no writes in the workload, not computable)
    out.update({f"{k}_note": report[f"{k}_note"] for k in SUMMARY_KEYS if f"{k}_note" in report})
    out["extrapolation"] = [f["message"] for f in report.get("extrapolation", [])]
    out["warnings"] = [w["message"] for w in report.get("warnings", [])]
    out["notes"] = report.get("notes", [])
    return out


def compare(designs, workload, catalog=None, full: bool = False) -> list[dict]:
    """One report (or its summary) per design, the same workload on each."""
    from planner.results.report import evaluate_report

    reports = [evaluate_report(d, workload, catalog=catalog, degraded=False) for d in designs]
    return reports if full else [summarise(r) for r in reports]
