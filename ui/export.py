"""Exports: CSV of tables, a one-page HTML report that works offline (plotly.js
inlined, no CDN), and a PDF of that page printed by Debian's headless chromium
when it is installed."""
from __future__ import annotations

import csv
import html
import io
import json

from planner.performance import BOTTLENECK_LABELS
import streamlit as st

from ui import charts, state


def to_csv(rows: list[dict]) -> str:
    if not rows:
        return ""
    buf = io.StringIO()
    fields = list(dict.fromkeys(k for r in rows for k in r))
    w = csv.DictWriter(buf, fieldnames=fields, restval="")
    w.writeheader()
    w.writerows(rows)
    return buf.getvalue()


def html_report(design_json: str, workload_json: str, workload_name: str) -> str:
    """Key numbers, the waterfall, the latency curve and utilisation on one page
    (with the session's refit calibration when one is kept)."""
    return _html_report(design_json, workload_json, workload_name, state.session_calibration())


@st.cache_data(show_spinner=False, max_entries=32)
def _html_report(design_json: str, workload_json: str, workload_name: str, calibration_json: str | None) -> str:
    """Charts are inline plotly HTML with plotly.js embedded once, so the file
    opens and prints without a network; kaleido images would start a browser on
    every export. The calibration is part of the cache key: a refit kept by one
    session never shows in another's report."""
    rep = state.report(design_json, workload_json, calibration_json)
    cap = state.capacity(design_json)
    curve = state.latency_curve(design_json, workload_json, calibration_json=calibration_json)
    figs = [charts.capacity_waterfall(cap, "TB"),
            charts.latency_curve(curve, {"iops": rep["iops"], "vm_latency_ms": rep["vm_latency_ms"]}),
            charts.utilisation_bars(rep["utilization"], rep["bottleneck"])]
    figs_html = "".join(f.to_html(full_html=False, include_plotlyjs=True if i == 0 else False,
                                  config={"displayModeBar": False, "staticPlot": True})
                        for i, f in enumerate(figs))
    key = [
        ("Design", rep["design"]), ("Nodes", rep["nodes"]), ("Resiliency", rep["resiliency"]),
        ("Transport", rep["transport"]), ("Workload", workload_name),
        ("Raw capacity", f"{rep['raw_capacity_tb']:,.2f} TB"),
        ("Usable capacity", f"{rep['usable_capacity_tb']:,.2f} TB ({rep['usable_capacity_tib']:,.2f} TiB)"),
        ("Survives node loss", "yes" if rep["survives_node_loss"] else "no"),
        ("IOPS", state.fmt_band(rep["iops"], rep.get("iops_low"), rep.get("iops_high"))),
        ("Read / write latency (storage)", f"{rep['read_latency_ms']:.3f} / {rep['write_latency_ms']:.3f} ms"),
        ("VM latency (mean)", f"{rep['vm_latency_ms']:.3f} ms"),
        ("p99 read latency (VM)", f"{rep['p99_read_latency_ms']:.3f} ms"),
        ("Bottleneck", BOTTLENECK_LABELS.get(rep["bottleneck"], rep["bottleneck"])),
    ]
    if "degraded" in rep:
        key.append(("IOPS with one node down", f"{rep['degraded']['iops']:,.0f}"))
    rows = "".join(f"<tr><th>{html.escape(str(k))}</th><td>{html.escape(str(v))}</td></tr>" for k, v in key)
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>hciplan report: {html.escape(rep['design'])}</title>
<style>body{{font-family:sans-serif;max-width:1100px;margin:auto}}
@media print{{body{{max-width:none}} .plotly-graph-div{{break-inside:avoid}}}}th{{text-align:left;padding-right:2em}}
td,th{{border-bottom:1px solid #ddd;padding:4px}}</style></head><body>
<h1>hciplan report: {html.escape(rep['design'])}</h1><p>{html.escape(cap['node_loss_note'])}</p>
<table>{rows}</table>{figs_html}
<h2>Design</h2><pre>{html.escape(json.dumps(json.loads(design_json), indent=1))}</pre></body></html>"""


CHROMIUM = "/usr/bin/chromium"


def pdf_available() -> bool:
    import os

    return os.access(CHROMIUM, os.X_OK)


def pdf_report(report_html: str, timeout_s: float = 90.0) -> bytes:
    """Print the HTML report to PDF with headless chromium (no browser download).

    The page is written to a temporary folder and printed with the same
    sandbox-free, network-free flags the browser tests use; a virtual time
    budget lets plotly draw before printing.
    """
    import subprocess
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "report.html", Path(tmp) / "report.pdf"
        src.write_text(report_html, encoding="utf-8")
        subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={tmp}/profile",
             "--virtual-time-budget=8000", "--no-pdf-header-footer", f"--print-to-pdf={out}", src.as_uri()],
            check=True, capture_output=True, timeout=timeout_s)
        return out.read_bytes()
