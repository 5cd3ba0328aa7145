"""Print the README's accuracy table from planner/data/calibration.json."""
import json
import sys
from pathlib import Path

doc = json.loads((Path(__file__).resolve().parent.parent / "planner" / "data" / "calibration.json").read_text())
s = doc["summary"]
metrics = ["iops", "host_cpu_utilization", "read_latency_ms", "write_latency_ms", "vm_read_latency_ms",
           "vm_write_latency_ms", "p99_read_latency_ms"]
print("| judged on | points | " + " | ".join(metrics) + " |")
print("|---|---|" + "---|" * len(metrics))
for kind in ("in_sample", "cross_validated", "out_of_scope_configs"):
    for ds, row in s.get(kind, {}).items():
        pts = row.get("iops", {}).get("points", "")
        cells = [f"{row[m]['median_abs_pct_error']:.1f}" if m in row else "-" for m in metrics]
        print(f"| {kind} / {ds} | {pts} | " + " | ".join(cells) + " |")
sys.stdout.flush()
