"""The accuracy tables from planner/data/calibration.json: median absolute % error in sample,
held out and outside the fit's scope; band coverage under nested leave-one-configuration-out;
the calibrated domain. The docs' Accuracy page is built from these functions (the mkdocs hook
in scripts/mkdocs_hooks.py); run as a script, it prints the three tables."""

from __future__ import annotations

import json
import sys
from importlib.resources import files

METRICS = [
    "iops",
    "host_cpu_utilization",
    "read_latency_ms",
    "write_latency_ms",
    "vm_read_latency_ms",
    "vm_write_latency_ms",
    "p99_read_latency_ms",
]


def calibration() -> dict:
    """The shipped calibration file, as the installed package holds it."""
    return json.loads((files("planner") / "data" / "calibration.json").read_text(encoding="utf-8"))


def error_table(doc: dict | None = None) -> str:
    """Median absolute % error per metric and data set, in sample, held out and out of scope."""
    s = (doc or calibration())["summary"]
    lines = ["| judged on | points | " + " | ".join(METRICS) + " |", "|---|---|" + "---|" * len(METRICS)]
    for kind in ("in_sample", "cross_validated", "out_of_scope_configs"):
        for ds, row in s.get(kind, {}).items():
            pts = row.get("iops", {}).get("points", "")
            cells = [f"{row[m]['median_abs_pct_error']:.1f}" if m in row else "-" for m in METRICS]
            lines.append(f"| {kind} / {ds} | {pts} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def held_out(doc: dict | None = None) -> dict[str, dict[str, str]]:
    """The held-out (cross-validated) medians as the table prints them: data set -> metric -> text."""
    s = (doc or calibration())["summary"]
    return {
        ds: {m: f"{row[m]['median_abs_pct_error']:.1f}" for m in METRICS if m in row}
        for ds, row in s.get("cross_validated", {}).items()
    }


def coverage_table(doc: dict | None = None) -> str:
    """Band coverage under nested leave-one-configuration-out (empty if not computed)."""
    doc = doc or calibration()
    cov = doc["summary"].get("band_coverage", {})
    if not cov:
        return ""
    lo, hi = doc["bands"]["quantiles_pct"]
    lines = [
        f"Band ({lo:g}-{hi:g} % of held-out ratios) coverage under nested leave-one-configuration-out:",
        "",
        "| metric | points | covered % | covered %, configurations weighted equally |",
        "|---|---|---|---|",
    ]
    for m, c in cov.items():
        lines.append(
            f"| {m} | {c['points']} | {c['covered_pct']:.1f} | {c['covered_pct_configuration_weighted']:.1f} |"
        )
    short = coverage_shortfall(doc)
    return "\n".join(lines) + (f"\n\n{short}" if short else "")


def coverage_shortfall(doc: dict | None = None) -> str:
    """The sentence saying which bands hold fewer measurements than their nominal share (``hi - lo`` %):
    each metric whose point coverage falls short, with its coverage and the shortfall in points."""
    doc = doc or calibration()
    cov = doc["summary"].get("band_coverage", {})
    lo, hi = doc["bands"]["quantiles_pct"]
    nominal = hi - lo
    short = {m: c["covered_pct"] for m, c in cov.items() if c["covered_pct"] < nominal}
    if not short:
        return f"Every band holds at least its nominal {nominal:g} % of the held-out measurements."
    parts = [f"{m} {pct:.1f} % ({nominal - pct:.1f} points short)" for m, pct in short.items()]
    return (
        f"The bands under-cover: a {lo:g}-{hi:g} % band should hold {nominal:g} % of the held-out measurements; "
        f"these hold fewer: {', '.join(parts)}. Read them as narrower than nominal."
    )


def domain_table(doc: dict | None = None) -> str:
    """The calibrated domain: each dimension's range or values (empty if not computed)."""
    dom = (doc or calibration()).get("domain", {})
    if not dom:
        return ""
    lines = ["| dimension | calibrated |", "|---|---|"]
    for d, spec in dom.items():
        val = (
            f"{spec['min']:.3g} to {spec['max']:.3g}"
            if spec["kind"] == "range"
            else ", ".join(map(str, spec["values"]))
        )
        lines.append(f"| {d} | {val} |")
    return "\n".join(lines)


def main() -> int:
    doc = calibration()
    print("\n\n".join(t for t in (error_table(doc), coverage_table(doc), domain_table(doc)) if t))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
