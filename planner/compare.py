"""``python -m planner compare DESIGN... --workload W``: the same workload on
several designs of any architecture, one JSON object per design.

The workload is a profile name or workload file, or ``--database FILE`` (a
:class:`planner.dbworkload.DatabaseIo` description, evaluated as the open load
of its peak demand, ``--mean`` for the mean).
"""
from __future__ import annotations

#: the keys of a report the comparison keeps (``--full`` prints whole reports)
SUMMARY_KEYS = (
    "design", "topology", "architecture", "nodes", "resiliency", "transport", "usable_capacity_tb", "workload",
    "iops", "iops_low", "iops_high", "iops_capacity", "bandwidth_mb_s", "read_latency_ms", "write_latency_ms",
    "vm_read_latency_ms", "vm_write_latency_ms", "vm_latency_ms", "p99_read_latency_ms", "p99_write_latency_ms",
    "host_cpu_utilization", "bottleneck", "limited_by", "saturated", "utilization", "scaling",
)


def summarise(report: dict) -> dict:
    out = {k: report[k] for k in SUMMARY_KEYS if k in report}
    out["extrapolation"] = [f["message"] for f in report.get("extrapolation", [])]
    out["warnings"] = [w["message"] for w in report.get("warnings", [])]
    out["notes"] = report.get("notes", [])
    return out


def compare(designs, workload, catalog=None, full: bool = False) -> list[dict]:
    """One report (or its summary) per design, the same workload on each."""
    from planner.report import evaluate_report

    reports = [evaluate_report(d, workload, catalog=catalog, degraded=False) for d in designs]
    return reports if full else [summarise(r) for r in reports]


def cmd_compare(args) -> int:
    from planner.catalog import load_catalog
    from planner.cli import _print
    from planner.design import load_design
    from planner.errors import PlannerError

    if bool(args.workload) == bool(args.database):
        raise PlannerError("give --workload (profile or file) or --database (a database description file)",
                           "workload")
    if args.database:
        from planner.dbworkload import as_workload, io_demand, load_database_io

        workload = as_workload(io_demand(load_database_io(args.database)), peak=not args.mean)
    else:
        from planner.workload import load_workload

        workload = load_workload(args.workload)
    designs = [load_design(path) for path in args.designs]
    _print(compare(designs, workload, catalog=load_catalog(args.catalog), full=args.full))
    return 0


def register_compare(sub) -> None:
    p = sub.add_parser("compare", help="the same workload on several designs of any architecture (JSON list)")
    p.add_argument("designs", nargs="+", help="design files")
    p.add_argument("--workload", help="workload file or profile name")
    p.add_argument("--database", help="database description file (planner.dbworkload), evaluated at its peak")
    p.add_argument("--mean", action="store_true", help="with --database: the mean demand instead of the peak")
    p.add_argument("--full", action="store_true", help="whole reports instead of the comparison keys")
    p.add_argument("--catalog", help="extra catalog folder")
    p.set_defaults(func=cmd_compare)
