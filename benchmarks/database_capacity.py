"""The most a design sustains of a database (``planner.commercial.database.database_capacity``, what
`sla --database`, the SLA page and the seed tables ask): time per call, each shipped design with each
shipped database described by its workload, every call on a fresh design/database pair (a page's first
question, no result kept from the one before). Prints figures, asserts nothing.
Usage: python benchmarks/database_capacity.py [--root DIR]
"""

from __future__ import annotations

import argparse
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
    from planner.commercial.database import database_capacity
    from planner.core.errors import PlannerError
    from planner.models.database import load_database
    from planner.models.design import load_design

    ex = Path(a.root) / "examples"
    designs, dbs = [], []
    for f in sorted(ex.glob("*.json")):
        try:
            (dbs if f.name.startswith("db-") else designs).append(
                (f.stem, load_database(f) if f.name.startswith("db-") else load_design(f))
            )
        except PlannerError:
            continue  # a workload, a demand or a tiers file
    dbs = [(n, d) for n, d in dbs if d.buffer_pool_gb is not None]
    database_capacity(designs[0][1], dbs[0][1])  # imports and the first calibration load aside
    times = []
    for name, design in designs:
        for db_name, db in dbs:
            t = time.perf_counter()
            try:
                database_capacity(design, db)
            except PlannerError:
                continue  # a design that cannot carry it says so in one line
            times.append((time.perf_counter() - t, f"{name} / {db_name}"))
    s = sorted(t for t, _ in times)
    print(f"{len(times)} design/database pairs ({len(designs)} designs, {len(dbs)} databases)")
    print(f"median {statistics.median(s):.3f} s, slowest {s[-1]:.3f} s ({max(times)[1]}), total {sum(s):.1f} s")
    print(f"median_s={statistics.median(s):.3f} max_s={s[-1]:.3f} total_s={sum(s):.1f} pairs={len(times)}")


if __name__ == "__main__":
    main()
