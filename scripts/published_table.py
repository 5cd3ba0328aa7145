"""The table of published results no fit has seen, from
planner.calibration.published.all_checks (shipped calibration). The docs' Accuracy page is
built from :func:`table` (the mkdocs hook in scripts/mkdocs_hooks.py); run as a script, it
prints the table."""

from __future__ import annotations

import sys

from planner.calibration.published import all_checks, error_text
from planner.engine.performance import BOTTLENECK_LABELS

UNIT = {
    "iops": ("IOPS", 1, "{:,.0f}"),
    "bandwidth_mb_s": ("GB/s", 1000, "{:,.1f}"),
    "read_latency_ms": ("ms", 1, "{:.3f}"),
}


def _pct(x):
    return "-" if x is None else f"{100 * x:.0f} %"


def _row(c: dict) -> str:
    unit, div, f = UNIT[c["metric"]]

    def val(x):
        return f.format(x / div)

    err = error_text(c)
    band = "-" if c["low"] is None else f"{val(c['low'])}-{val(c['high'])}"
    busy = (
        "-" if c["memory_utilization"] is None else f"{_pct(c['memory_utilization'])} / {_pct(c['pcie_utilization'])}"
    )
    measured = f"{c['measured_bound'] + ' ' if c['measured_bound'] else ''}{val(c['measured'])} {unit}"
    return (
        f"| {c['label']} | {measured} | {val(c['predicted'])} {unit} | {err} | "
        f"{band} | {BOTTLENECK_LABELS.get(c['bottleneck'], '-')} | {busy} | {c['compared_with']} |"
    )


def table(checks: list[dict] | None = None) -> str:
    """The published checks as one Markdown table (``checks`` default: every check, shipped fit)."""
    lines = [
        "| result | measured | predicted | error | band | bound by | memory / PCIe busy per node | predicted for |",
        "|---|---|---|---|---|---|---|---|",
    ]
    lines += [_row(c) for c in (all_checks() if checks is None else checks)]
    return "\n".join(lines)


if __name__ == "__main__":
    print(table())
    sys.exit(0)
