"""Print the Ceph calibration's accuracy (docs/notes/ceph.md) from planner/data/calibration-ceph.json:
the summary (median and largest absolute % error, in sample and leave-one-configuration-out),
the issue's six cases (measured, the S2D-cost figure the issue reported, Ceph in sample, held out),
and every measured figure."""

import json
from pathlib import Path


def fmt(x: float) -> str:
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.3g}"


doc = json.loads((Path(__file__).resolve().parent.parent / "planner" / "data" / "calibration-ceph.json").read_text())
s = doc["summary"]
metrics = ["iops", "bandwidth_mb_s", "write_latency_ms", "osd_lps_per_osd"]
print(f"Ceph calibration {doc['version']}: {len(doc['fitted'])} fitted parameters, {len(doc['points'])} figures")
print()
print("| judged on | " + " | ".join(f"{m} (median / max abs %, n)" for m in metrics) + " |")
print("|---|" + "---|" * len(metrics))
for kind in ("in_sample", "leave_one_configuration_out"):
    row = s.get(kind, {})
    cells = [
        f"{row[m]['median_abs_pct_error']:.1f} / {row[m]['max_abs_pct_error']:.1f} ({row[m]['points']})"
        if m in row
        else "-"
        for m in metrics
    ]
    print(f"| {kind.replace('_', ' ')} | " + " | ".join(cells) + " |")
print()

#: the issue's table: (configuration, point, metric, the figure hciplan gave with S2D's costs)
ISSUE = [
    ("mako-reef", "4 KiB random read", "iops", 7.64e6),
    ("mako-reef", "4 KiB random write", "iops", 822e3),
    ("mako-pacific-rocksdb", "4 KiB random write, RocksDB default", "iops", 822e3),
    ("mako-reef", "4 MiB sequential read", "bandwidth_mb_s", 158e3),
    ("mako-reef", "4 MiB sequential write", "bandwidth_mb_s", 32.9e3),
    ("mako-reef", "4 KiB sync write, 1 client, QD1 (O_DSYNC)", "write_latency_ms", 0.321),
]
rows = {(r["configuration"], r["point"], r["metric"]): r for r in doc["points"]}
print("The issue's cases (10 x R6515, 60 PM983 OSDs, 3x; all six are in the fit, so 'in sample' is fitted and")
print("'held out' is the fit without that configuration's points):")
print()
print("| case | measured | S2D costs (issue) | Ceph, in sample | error | Ceph, held out | error |")
print("|---|---|---|---|---|---|---|")
for cfg, pt, m, s2d in ISSUE:
    r = rows[(cfg, pt, m)]
    held = r["held_out"]
    he = "-" if r["held_out_error_pct"] is None else f"{r['held_out_error_pct']:+.1f} %"
    print(
        f"| {cfg}: {pt} ({m}) | {fmt(r['measured'])} | {fmt(s2d)} | {fmt(r['in_sample'])} | "
        f"{r['in_sample_error_pct']:+.1f} % | {'-' if held is None else fmt(held)} | {he} |"
    )
print()
print("Every figure:")
print()
print("| configuration | release | point | metric | measured | in sample | error | held out | error | bottleneck |")
print("|---|---|---|---|---|---|---|---|---|---|")
for r in doc["points"]:
    he = "-" if r["held_out_error_pct"] is None else f"{r['held_out_error_pct']:+.1f} %"
    ho = "-" if r["held_out"] is None else fmt(r["held_out"])
    print(
        f"| {r['configuration']} | {r['release']} | {r['point']} | {r['metric']} | {fmt(r['measured'])} | "
        f"{fmt(r['in_sample'])} | {r['in_sample_error_pct']:+.1f} % | {ho} | {he} | {r['bottleneck']} |"
    )
print()
ext = doc["bands"].get("extrapolation", {})
if ext:
    print("Pseudo-extrapolation (the fit without one side of a dimension predicts it), median / max abs % error:")
    print()
    print("| dimension | held out | configurations | iops | bandwidth_mb_s | write_latency_ms |")
    print("|---|---|---|---|---|---|")
    for dim, sides in ext.items():
        for side, e in sides.items():
            he = e.get("held_out_error", {})
            cells = [
                f"{he[m]['median_abs_pct_error']:.1f} / {he[m]['max_abs_pct_error']:.1f}" if m in he else "-"
                for m in ("iops", "bandwidth_mb_s", "write_latency_ms")
            ]
            print(f"| {dim} | {side} | {', '.join(e['held_out'])} | " + " | ".join(cells) + " |")
    print()
print("Fitted parameters:")
print()
for k in doc["fitted"]:
    print(f"- {k} = {doc['params'][k]:.4g}")
