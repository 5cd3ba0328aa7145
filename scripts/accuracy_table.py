"""Print the README's accuracy tables from planner/data/calibration.json:
median absolute % error in sample, held out and outside the fit's scope; band
coverage under nested leave-one-configuration-out; the calibrated domain."""

import json
import sys
from pathlib import Path

doc = json.loads((Path(__file__).resolve().parent.parent / "planner" / "data" / "calibration.json").read_text())
s = doc["summary"]
metrics = [
    "iops",
    "host_cpu_utilization",
    "read_latency_ms",
    "write_latency_ms",
    "vm_read_latency_ms",
    "vm_write_latency_ms",
    "p99_read_latency_ms",
]
print("| judged on | points | " + " | ".join(metrics) + " |")
print("|---|---|" + "---|" * len(metrics))
for kind in ("in_sample", "cross_validated", "out_of_scope_configs"):
    for ds, row in s.get(kind, {}).items():
        pts = row.get("iops", {}).get("points", "")
        cells = [f"{row[m]['median_abs_pct_error']:.1f}" if m in row else "-" for m in metrics]
        print(f"| {kind} / {ds} | {pts} | " + " | ".join(cells) + " |")
print()
cov = s.get("band_coverage", {})
if cov:
    lo, hi = doc["bands"]["quantiles_pct"]
    print(f"Band ({lo:g}-{hi:g} % of held-out ratios) coverage under nested leave-one-configuration-out:")
    print()
    print("| metric | points | covered % | covered %, configurations weighted equally |")
    print("|---|---|---|---|")
    for m, c in cov.items():
        print(f"| {m} | {c['points']} | {c['covered_pct']:.1f} | {c['covered_pct_configuration_weighted']:.1f} |")
    print()
dom = doc.get("domain", {})
if dom:
    print("| dimension | calibrated |")
    print("|---|---|")
    for d, spec in dom.items():
        val = f"{spec['min']:g} to {spec['max']:g}" if spec["kind"] == "range" else ", ".join(map(str, spec["values"]))
        print(f"| {d} | {val} |")
sys.stdout.flush()
