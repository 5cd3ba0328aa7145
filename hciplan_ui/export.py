"""Exports: CSV of tables, the proposal report as one HTML page that works
offline (plotly.js inlined once, no CDN), and a PDF of that page printed by
Debian's headless chromium when it is installed.

The report reads as a proposal (:func:`proposal_html`): customer, author and
date; the design and its parts list; licensing options; capacity waterfall;
performance with bands, bottleneck and extrapolation flags; SLA and price per
tier; the sizing rules and the binding resource; the multi-year view; the
assumptions and the calibrated domain. Every number comes from
:func:`planner.sizing.proposal.build`.
"""

from __future__ import annotations

import html
import itertools
import json

import streamlit as st

from hciplan_ui import charts
from planner.core.csvsafe import write_csv
from planner.engine.performance import BOTTLENECK_LABELS

CSS = """
body{font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;max-width:1100px;margin:24px auto;color:#1d2733;
font-size:14px;line-height:1.4}
h1{font-size:26px;margin-bottom:4px}h2{font-size:19px;margin-top:28px;border-bottom:2px solid #1f77b4;padding-bottom:3px}
h3{font-size:15px;margin-top:16px}
table{border-collapse:collapse;width:100%;margin:8px 0}td,th{border-bottom:1px solid #dde3ea;padding:4px 6px;
text-align:left;vertical-align:top}th{background:#f3f6f9}td.n,th.n{text-align:right;white-space:nowrap}
.meta td{border:none;padding:1px 8px 1px 0}.ok{color:#2ca02c}.bad{color:#d62728}.muted{color:#6b7785;font-size:12px}
.flag{background:#fff4e5;border-left:4px solid #ff7f0e;padding:6px 10px;margin:6px 0}
.plotly-graph-div{margin:6px 0}
@media print{body{max-width:none;margin:10mm}h2{break-after:avoid}table,.plotly-graph-div{break-inside:avoid}}
"""


def to_csv(rows: list[dict]) -> str:
    """A table as CSV through the product's one CSV writer (cells neutralised against formula injection)."""
    return write_csv(rows)


def _e(x) -> str:
    return html.escape(str(x))


def _table(header: list[str], rows: list[list], numeric: set[int] = frozenset(), cls: str = "") -> str:
    head = "".join(f"<th class='{'n' if i in numeric else ''}'>{_e(h)}</th>" for i, h in enumerate(header))
    body = "".join(
        "<tr>" + "".join(f"<td class='{'n' if i in numeric else ''}'>{_e(c)}</td>" for i, c in enumerate(r)) + "</tr>"
        for r in rows
    )
    return f"<table class='{cls}'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _kv(rows: list) -> str:
    """A two-column key/value table (no header row)."""
    body = "".join(f"<tr><th style='width:32%'>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in rows)
    return f"<table class='kv'><tbody>{body}</tbody></table>"


#: Cost assumptions as a reader names them, with how to show the value.
_ASSUMPTIONS = {
    "amortisation_months": ("Hardware amortisation", "{:g} months"),
    "power_usd_per_kwh": ("Power price", "USD {:g} per kWh"),
    "pue": ("Power usage effectiveness (PUE)", "{:g}"),
    "rack_unit_usd_per_month": ("Rack space", "USD {:g} per rack unit per month"),
    "licence_option": ("Licence", "{}"),
    "windows_datacenter_usd_per_core": ("Windows Server Datacenter", "USD {:,.2f} per core"),
    "azure_local_usd_per_core_month": ("Azure Local host fee", "USD {:g} per core per month"),
    "windows_subscription_usd_per_core_month": ("Windows Server subscription", "USD {:g} per core per month"),
    "licence_source": ("Licence price source", "{}"),
    "support_pct_per_year": ("Support", "{:.0%} of hardware cost per year"),
    "ram_usd_per_gb": ("RAM price", "USD {:g} per GB"),
    "target_margin": ("Target margin", "{:.0%}"),
    "target_fill": ("Target fill", "{:.0%}"),
}
_LICENCES = {
    "windows-server-datacenter": "Windows Server Datacenter (perpetual, per core)",
    "azure-local": "Azure Local host fee (per core per month)",
    "azure-local-windows": "Azure Local host fee with Windows Server subscription",
}


#: What runs out first, as the sizing names it (planner.sizing.checks): in words.
_RESOURCES = {
    "capacity": "capacity",
    "iops": "IOPS (saturation)",
    "latency": "latency target",
    "vcpu": "vCPUs",
    "ram": "RAM",
}


def _assumption_row(key: str, value) -> list:
    if key == "part_prices_usd":
        return ["Part price overrides", ", ".join(f"{k}: USD {v:,.0f}" for k, v in value.items())]
    label, form = _ASSUMPTIONS.get(key, (key.replace("_", " ").capitalize(), "{}"))
    if key == "licence_option":
        value = _LICENCES.get(value, value)
    try:
        return [label, form.format(value)]
    except (TypeError, ValueError):
        return [label, json.dumps(value) if isinstance(value, (dict, list)) else str(value)]


def _domain_rows(dom: dict) -> list[list[str]]:
    rows = []
    for k, v in dom.items():
        if isinstance(v, dict) and v.get("kind") == "range":
            rows.append([v.get("what", k), f"{v['min']:,.4g} to {v['max']:,.4g}"])
        elif isinstance(v, dict) and v.get("kind") == "set":
            rows.append([v.get("what", k), ", ".join(str(x) for x in v.get("values", []))])
        else:
            rows.append([k, json.dumps(v)[:160]])
    return rows


def _usd(x) -> str:
    return "n/a" if x is None else f"${x:,.0f}"


def _band(rep: dict, key: str, fmt: str) -> str:
    v, lo, hi = rep.get(key), rep.get(f"{key}_low"), rep.get(f"{key}_high")
    if v is None:
        return "n/a"
    s = fmt.format(v)
    if lo is not None and hi is not None and (lo != v or hi != v):
        s += f" ({fmt.format(lo)} – {fmt.format(hi)})"
    return s


def proposal_html(p: dict) -> str:
    """The proposal page for :func:`planner.sizing.proposal.build`'s dict."""
    sec = itertools.count(1)  # sections without content are left out: the numbers follow
    rep, b, meta = p["report"], p["bom"], p["meta"]
    cost = b["monthly_cost"]
    figs = [
        charts.capacity_waterfall({"waterfall": rep["waterfall"]}, "TB"),
        charts.utilisation_bars(rep["utilization"], rep["bottleneck"]) if "utilization" in rep else None,
        charts.licence_bars(b["licensing"]),
    ]
    if p.get("curve"):
        figs.append(charts.latency_curve(p["curve"], {"iops": rep["iops"], "vm_latency_ms": rep["vm_latency_ms"]}))
    if p.get("multi_year"):
        figs.append(charts.multi_year(p["multi_year"]))
    plots = {}
    for name, f in zip(("waterfall", "utilisation", "licences", "curve", "years"), figs):
        if f is None:
            continue
        f.update_layout(width=1000)
        # plotly.js is inlined once in <head>, so a chart drawn before another still finds it
        plots[name] = f.to_html(
            full_html=False, include_plotlyjs=False, config={"displayModeBar": False, "staticPlot": True}
        )

    parts = []
    # ------------------------------------------------------------ header
    parts.append(f"<h1>{_e(meta['title'])}</h1>")
    parts.append(
        _table(
            ["Customer", "Prepared by", "Date"],
            [[meta["customer"] or "—", meta["author"] or "—", meta["date"]]],
            cls="meta",
        )
    )
    binding = p.get("binding") or {}
    key = [
        ("Cluster", f"{p['design']['nodes']} nodes, {p['design']['resiliency']}"),
        ("Usable capacity", f"{rep['usable_capacity_tb']:,.2f} TB ({rep['usable_capacity_tib']:,.2f} TiB)"),
        ("IOPS under the workload", _band(rep, "iops", "{:,.0f}")),
        ("VM latency (mean)", _band(rep, "vm_latency_ms", "{:.3f} ms")),
        ("Bottleneck", BOTTLENECK_LABELS.get(rep.get("bottleneck"), rep.get("bottleneck"))),
        ("Hardware (capex)", _usd(b["total_usd"])),
        (
            "Monthly cost",
            f"{_usd(cost['per_cluster']['total_usd_per_month'])} per month "
            f"({p['assumptions']['costs']['amortisation_months']} months amortisation)",
        ),
    ]
    if binding:
        key.insert(
            3,
            (
                "Guaranteed IOPS (every tier at its target" + (", N+1)" if p.get("n_plus_one") else ")"),
                f"{binding['guaranteed_iops']:,.0f}",
            ),
        )
        key.append(("Binding resource", _RESOURCES.get(binding["binding"], binding["binding"])))
    parts.append(f"<h2>{next(sec)}. Summary</h2>" + _kv(key))
    if p.get("extrapolation"):
        parts.append(
            "<div class='flag'><b>Outside the calibrated domain:</b> "
            + _e("; ".join(f.get("message", str(f)) if isinstance(f, dict) else str(f) for f in p["extrapolation"]))
            + " — the bands are widened for this.</div>"
        )
    for w in p.get("warnings", []):
        parts.append(f"<div class='flag'><b>Warning:</b> {_e(w.get('message', w) if isinstance(w, dict) else w)}</div>")

    # ------------------------------------------------------------ design + parts
    parts.append(f"<h2>{next(sec)}. Design</h2>" + _kv(p["summary"]))
    rows = [
        [
            x["part"],
            x["description"],
            "" if x["per_node"] is None else f"{x['per_node']:g}",
            f"{x['quantity']:g}",
            f"${x['unit_price_usd']:,.2f}",
            f"${x['total_usd']:,.0f}",
            x["price_source"],
        ]
        for x in b["lines"]
    ]
    rows.append(["Total", "", "", "", "", f"${b['total_usd']:,.0f}", ""])
    parts.append(
        f"<h2 id='parts-list'>{next(sec)}. Parts list</h2>"
        + _table(
            ["Part", "Description", "Per node", "Quantity", "Unit price", "Total", "Price source"],
            rows,
            numeric={2, 3, 4, 5},
            cls="parts",
        )
    )
    parts.append(
        _table(
            ["Rack units", "Power (typical)", "Heat", "Physical cores"],
            [
                [
                    f"{b['rack_units']}",
                    f"{b['power_w']:,.0f} W",
                    f"{b['heat_btu_h']:,.0f} BTU/h",
                    f"{b['physical_cores']}",
                ]
            ],
        )
    )
    parts.append("".join(f"<p class='muted'>{_e(n)}</p>" for n in b["notes"]))

    lic = [
        [
            o["name"],
            f"{o['cores_billed']}",
            "yes" if o["windows_guests_included"] else "no",
            _usd(o["usd_per_month"]),
            _usd(o["total_usd"]),
            o["basis"],
        ]
        for o in b["licensing"]
    ]
    parts.append(
        f"<h2>{next(sec)}. Licensing options</h2>"
        + _table(
            [
                "Option",
                "Cores billed",
                "Windows guests",
                "USD/month",
                f"USD over {b['licensing'][0]['months']} months",
                "Basis",
            ],
            lic,
            numeric={1, 3, 4},
        )
        + plots.get("licences", "")
    )
    parts.append(
        f"<p class='muted'>Prices are editable assumptions (planner/data/licensing.json, compiled "
        f"{_e(b['licensing_compiled'])}); sources: "
        + _e("; ".join(f"{o['name']}: {o['source']}" for o in b["licensing"]))
        + "</p>"
    )
    mc = [
        [k.replace("_usd_per_month", "").replace("_", " "), _usd(v), _usd(cost["per_node"][k])]
        for k, v in cost["per_cluster"].items()
    ]
    parts.append("<h3>Monthly cost by line</h3>" + _table(["Line", "Cluster", "Per node"], mc, numeric={1, 2}))

    # ------------------------------------------------------------ capacity, performance
    wf = [[s["step"], f"{s['capacity_tb']:,.2f}", s["rule"]] for s in rep["waterfall"]]
    n1 = next((r for r in p.get("rules") or [] if r["rule"] == "n_plus_one_capacity"), None)
    loss = f"N+1: {n1['reason']}." if n1 and p.get("n_plus_one") else rep["node_loss_note"]
    parts.append(
        f"<h2>{next(sec)}. Capacity</h2>"
        + plots.get("waterfall", "")
        + _table(["Step", "TB", "Rule"], wf, numeric={1})
        + f"<p>{_e(loss)}</p>"
    )
    perf = [
        (
            "Workload",
            p["workload"]["name"]
            + (f" — {p['workload'].get('description')}" if p["workload"].get("description") else ""),
        ),
        ("IOPS", _band(rep, "iops", "{:,.0f}")),
        (
            "Read / write latency, storage",
            f"{_band(rep, 'read_latency_ms', '{:.3f}')} / {_band(rep, 'write_latency_ms', '{:.3f}')} ms",
        ),
        ("VM latency, mean", _band(rep, "vm_latency_ms", "{:.3f} ms")),
        ("VM read latency, p99", _band(rep, "p99_read_latency_ms", "{:.3f} ms")),
        ("Host CPU", _band(rep, "host_cpu_utilization", "{:.0%}")),
        ("Bottleneck", BOTTLENECK_LABELS.get(rep.get("bottleneck"), rep.get("bottleneck"))),
        (
            "Drive endurance",
            f"{rep['endurance_years']:,.1f} years" if rep.get("endurance_years") is not None else "n/a",
        ),
    ]
    if rep.get("degraded"):
        dg = rep["degraded"]
        perf.append(
            (
                "One node down",
                f"{dg['iops']:,.0f} IOPS, VM latency {dg['vm_latency_ms']:.3f} ms, bottleneck "
                f"{BOTTLENECK_LABELS.get(dg['bottleneck'], dg['bottleneck'])}; "
                + (
                    f"repair {dg['repair_time_hours']:,.1f} h"
                    if dg.get("repair_time_hours") is not None
                    else "no repair to full resiliency"
                ),
            )
        )
    parts.append(
        f"<h2>{next(sec)}. Performance</h2>" + _kv(perf) + plots.get("curve", "") + plots.get("utilisation", "")
    )
    if p.get("band_basis"):
        parts.append("<p class='muted'>Bands: " + _e("; ".join(p["band_basis"])) + "</p>")
    for n in p.get("notes", []):
        parts.append(f"<p>{_e(n)}</p>")

    # ------------------------------------------------------------ tiers
    fit, prices = p["tier_fit"], p["tier_prices"]["tiers"]
    rows = []
    for t in p["tiers"]:
        f, _pr = fit[t["name"]], prices[t["name"]]
        rows.append(
            [
                t["name"],
                f"{t['guaranteed_iops']:,.0f} / {t['burst_iops']:,.0f}",
                f"{t['latency_statistic']} {t['latency_target_ms']:g} ms",
                f"{t['capacity_tb_per_db']:g} TB",
                f"{t['vcpus_per_db']} / {t.get('ram_gb_per_db', 0):g} GB",
                f"{f['max_dbs']:,}",
                f["limited_by"],
                f"{f['iops_at_latency_target']:,.0f}",
            ]
        )
    parts.append(
        f"<h2>{next(sec)}. Service tiers on this design"
        + (" (N+1)" if p.get("n_plus_one") else "")
        + "</h2>"
        + _table(
            [
                "Tier",
                "Guaranteed / burst IOPS",
                "Latency target",
                "Size",
                "vCPUs / RAM",
                "Max DBs alone",
                "Limited by",
                "IOPS at target",
            ],
            rows,
            numeric={5, 7},
        )
    )
    rows = [
        [
            name,
            _usd(v["price_usd_per_month"]),
            _usd(v["cost_share_usd_per_month"]),
            "n/a"
            if v["cost_usd_per_guaranteed_iops_per_month"] is None
            else f"${v['cost_usd_per_guaranteed_iops_per_month']:,.3f}",
            "n/a" if v["break_even_fill"] is None else f"{v['break_even_fill']:.0%}",
        ]
        for name, v in prices.items()
    ]
    a = p["assumptions"]["costs"]
    parts.append(
        "<h3>Cost and price per tier</h3>"
        + _table(
            ["Tier", "Price per DB per month", "Cost share per DB", "Cost per guaranteed IOPS", "Break-even fill"],
            rows,
            numeric={1, 2, 3, 4},
        )
        + f"<p class='muted'>Price = cost share / fill {a['target_fill']:.0%} / "
        f"(1 - margin {a['target_margin']:.0%}).</p>"
    )

    # ------------------------------------------------------------ rules, years
    if p.get("rules"):
        rows = [[r["rule"], "passed" if r["passed"] else "FAILED", r["reason"], r["source"]] for r in p["rules"]]
        lim = p["binding"]["limits"]
        parts.append(f"<h2>{next(sec)}. Sizing rules</h2>" + _table(["Rule", "", "This design", "Source"], rows))
        parts.append(
            "<p>Demand can grow by this factor before each resource runs out: "
            + _e(
                ", ".join(
                    f"{_RESOURCES.get(k, k)} {v:.2f}x" if v is not None else f"{_RESOURCES.get(k, k)} unbounded"
                    for k, v in lim.items()
                    if not k.endswith("_note")
                )
            )
            + f"; <b>{_e(_RESOURCES.get(p['binding']['binding'], p['binding']['binding']))}</b> binds.</p>"
        )
    if p.get("multi_year"):
        my = p["multi_year"]
        rows = [
            [
                y["year"],
                f"{100 * y['multiplier']:.0f} %",
                f"{y['iops']:,.0f}",
                f"{y['capacity_tb']:,.1f}",
                f"{y['vcpus']:,.0f}",
                f"{y['ram_gb']:,.0f}",
                y["nodes_needed"] or ">16",
            ]
            for y in my["years"]
        ]
        first = my["first_year_needing_more_nodes"]
        parts.append(
            f"<h2>{next(sec)}. Multi-year view</h2>"
            + plots.get("years", "")
            + _table(
                ["Year", "Demand", "IOPS", "TB", "vCPUs", "RAM GB", "Nodes needed"], rows, numeric={1, 2, 3, 4, 5, 6}
            )
            + f"<p>{_e(my['note'])}. "
            + (
                f"<b>The cluster needs another node in year {first}.</b>"
                if first is not None
                else "No node to add within the horizon."
            )
            + "</p>"
        )

    # ------------------------------------------------------------ assumptions
    rows = [_assumption_row(k, v) for k, v in a.items() if not (k == "part_prices_usd" and not v)]
    parts.append(f"<h2>{next(sec)}. Assumptions</h2>" + _table(["Assumption", "Value"], rows))
    if p.get("calibration_domain"):
        dom = p["calibration_domain"]
        rows = _domain_rows(dom) if isinstance(dom, dict) else [["domain", str(dom)]]
        parts.append(
            "<h3>Calibrated domain</h3><p class='muted'>Designs and workloads inside it use the measured "
            "held-out error band; outside it the band is widened and flagged above.</p>"
            + _table(["Feature", "Measured range"], rows)
        )
    parts.append(
        "<p class='muted'>Prepared with hciplan: an analytical model from device datasheets, calibrated on "
        "measured clusters; every figure above is a datasheet figure, a fitted parameter (with its error "
        "band) or an editable assumption named here.</p>"
    )
    from plotly.offline import get_plotlyjs

    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{_e(meta['title'])}</title>"
        f"<style>{CSS}</style><script type='text/javascript'>{get_plotlyjs()}</script></head>"
        f"<body>{''.join(parts)}</body></html>"
    )


# each page inlines plotly.js (about 5 MB): four pages are 20 MB a server holds, sixteen were 80 MB
@st.cache_data(show_spinner=False, max_entries=4)
def proposal_page(
    design_json: str,
    workload_json: str,
    tiers_json: str,
    demand_json: str | None,
    costs_json: str,
    meta_json: str,
    n_plus_one: bool = True,
    calibration_json: str | None = None,
) -> str:
    """The proposal HTML for JSON inputs (cached). The calibration is part of
    the cache key: a refit kept by one session never shows in another's."""
    from planner.commercial.pricing import CostAssumptions
    from planner.models.catalog import load_catalog
    from planner.models.demand import Demand
    from planner.models.design import parse_design, resolve
    from planner.models.tiers import TierSet
    from planner.models.workload import parse_workload
    from planner.results.report import latency_curve
    from planner.sizing.proposal import build

    design, workload = parse_design(design_json), parse_workload(workload_json)
    demand = Demand.model_validate_json(demand_json) if demand_json else None
    cal = None
    if calibration_json:
        from planner.calibration.refit import read_calibration

        cal = read_calibration(calibration_json.encode("utf-8"), "session calibration")
    p = build(
        design,
        workload,
        TierSet.model_validate_json(tiers_json),
        demand,
        CostAssumptions.model_validate_json(costs_json),
        json.loads(meta_json),
        n_plus_one=n_plus_one,
        calibration=cal,
    )
    p["curve"] = latency_curve(resolve(design, load_catalog()), workload, params=cal.params if cal else None)
    return proposal_html(p)


def html_report(design_json: str, workload_json: str, workload_name: str) -> str:
    """The proposal for the current design and workload (Performance page):
    customer/author/date from the session, the sized demand if there is one."""
    from hciplan_ui import state

    ss = st.session_state
    meta = {
        "customer": ss.get("report_customer", ""),
        "author": ss.get("report_author", ""),
        "title": f"Proposal: {json.loads(design_json).get('name', 'design')}",
    }
    if ss.get("report_date"):
        meta["date"] = str(ss["report_date"])
    from planner.commercial.pricing import CostAssumptions

    return proposal_page(
        design_json,
        workload_json,
        state.tiers_json(),
        ss.get("size_demand"),
        ss.get("costs_json") or CostAssumptions().model_dump_json(),
        json.dumps(meta),
        # the SLA page's N+1 choice (off until set there or by a sized demand)
        n_plus_one=bool(ss.get("sla_n1", False)),
        calibration_json=state.session_calibration(),
    )


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
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                f"--user-data-dir={tmp}/profile",
                "--virtual-time-budget=8000",
                "--no-pdf-header-footer",
                f"--print-to-pdf={out}",
                src.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=timeout_s,
        )
        return out.read_bytes()
