"""Sizing benchmark: candidates screened/evaluated and wall time, default catalog,
examples/demand-200dbs.json. Run: python3 benchmarks/size.py"""
import json
import time
from pathlib import Path

import sys

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from planner.sizing import Demand, size  # noqa: E402

demand = Demand.model_validate(json.loads((Path(__file__).resolve().parent.parent / "examples" / "demand-200dbs.json").read_text()))
t = time.perf_counter()
r = size(demand)
print(f"screened {r.screened:,} (capacity), {r.iops_screened:,} through the IOPS screen, evaluated {r.evaluated} in {time.perf_counter() - t:.1f} s; "
      f"best: {r.best['design']['name'] if r.best else None} "
      f"{r.best['cost_usd_per_month'] if r.best else ''} {r.explanation}")
