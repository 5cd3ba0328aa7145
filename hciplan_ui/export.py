"""Exports: CSV of tables (formula-safe), and the proposal as the library renders
it (:mod:`planner.sizing.document`, :mod:`planner.sizing.formats`): one static HTML
page (Jinja2, autoescaped, SVG charts, no script) and its PDF printed by Debian's
headless chromium when it is installed. Every number comes from
:func:`planner.sizing.proposal.build`.
"""

from __future__ import annotations

import json

import streamlit as st

from planner.core.tables import write_csv
from planner.sizing.document import document
from planner.sizing.formats import render_html


def to_csv(rows: list[dict]) -> str:
    """CSV of table rows, every text cell formula-safe (a spreadsheet opens it as data)."""
    return write_csv(rows)


def proposal_html(p: dict, company: str | None = None, logo: bytes | None = None) -> str:
    """The proposal page for :func:`planner.sizing.proposal.build`'s dict: the library's
    customer document (:mod:`planner.sizing.document`) through its Jinja2 template."""
    return render_html(document(p, company, logo))


@st.cache_data(show_spinner=False, max_entries=16)
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
    from planner.models.demand import Demand
    from planner.models.design import parse_design
    from planner.models.tiers import TierSet
    from planner.models.workload import parse_workload
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


def pdf_available() -> bool:
    from planner.sizing.formats import pdf_available as available

    return available()


def pdf_report(report_html: str, timeout_s: float = 90.0) -> bytes:
    """Print the HTML proposal to PDF with headless chromium (:func:`planner.sizing.formats.render_pdf`)."""
    from planner.sizing.formats import render_pdf

    return render_pdf(report_html, timeout_s)


def pdf_later(report_html: str):
    """Start printing the PDF off the page's thread (chromium takes seconds: the HTML proposal is
    offered at once, the PDF when it is printed); a ``concurrent.futures.Future`` of its bytes."""
    from hciplan_ui import background

    return background.submit(pdf_report, report_html)


@st.fragment(run_every=0.5)
def _pdf_waiting(future) -> None:
    """Polls the printing PDF (a fragment: the rest of the page does not rerun), then reruns the
    page once so the PDF's download sits beside the HTML's."""
    if future.done():
        st.rerun(scope="app")
    st.caption("Printing the PDF with chromium…")


def pdf_download(container, future, file_name: str, key: str) -> None:
    """The PDF's download once :func:`pdf_later` has printed it; a note while it prints, and the
    reason in one line if it failed (the HTML proposal prints from any browser)."""
    if future is None:
        return
    if not future.done():
        with container:
            _pdf_waiting(future)
        return
    try:
        data = future.result()
    except Exception as exc:
        from hciplan_ui import fmt

        container.warning(f"The PDF could not be printed ({fmt.md(exc)}); the HTML proposal prints from any browser.")
        return
    container.download_button("Proposal (PDF)", data, file_name=file_name, mime="application/pdf", key=key)
