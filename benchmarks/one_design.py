"""One design with its band: ``evaluate_report`` (healthy and one node down,
bands from the calibration's stored quantiles) and the SLA guarantee with its
bootstrap band, time per call (median of 30) and model calls per call.
Prints figures, asserts nothing. Usage: python benchmarks/one_design.py [--root DIR]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=str(ROOT))
    a = ap.parse_args()
    if a.root != str(ROOT):  # another checkout (before/after): its planner, not the installed one
        sys.path.insert(0, a.root)
    import planner.engine.performance as perf
    from planner.commercial import sla
    from planner.models.design import load_design, resolve
    from planner.models.workload import load_workload, profiles
    from planner.results import report

    calls = [0]
    inner = perf.evaluate_arrays

    def counted(*args, **kw):
        calls[0] += 1
        return inner(*args, **kw)

    for mod in (report, sla):
        mod.evaluate_arrays = counted
    design = load_design(ROOT / "examples" / "reference.json")
    w = profiles()["oltp-8k"]

    def timed(f, n=30):
        f()
        calls[0] = 0
        ts = []
        for _ in range(n):
            t = time.perf_counter()
            f()
            ts.append(time.perf_counter() - t)
        return statistics.median(ts), calls[0] / n

    rep_s, rep_calls = timed(lambda: report.evaluate_report(design, w))
    rd = resolve(design)
    db = sla.Database.model_validate(json.loads((ROOT / "examples" / "db-erp.json").read_text()))
    bg = load_workload(str(ROOT / "examples" / "background-25vms.json"))
    sla_s, sla_calls = timed(lambda: sla.guarantee(rd, db, bg, n_plus_one=True), n=10)
    print(f"evaluate_report (healthy + one node down, banded): {rep_s * 1e3:.2f} ms, {rep_calls:.0f} model call(s)")
    print(f"SLA guarantee with its bootstrap band (N+1): {sla_s * 1e3:.0f} ms, {sla_calls:.0f} model calls")
    print(
        f"report_ms={rep_s * 1e3:.2f} report_calls={rep_calls:.0f} sla_ms={sla_s * 1e3:.0f} sla_calls={sla_calls:.0f}"
    )


if __name__ == "__main__":
    main()
