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
from planner.core.text import first_upper
from planner.sizing.document import MAX_NAME_CHARS, document
from planner.sizing.formats import render_html


def to_csv(rows: list[dict]) -> str:
    """CSV of table rows, every text cell formula-safe (a spreadsheet opens it as data)."""
    return write_csv(rows)


def proposal_html(p: dict, company: str | None = None, logo: bytes | None = None) -> str:
    """The proposal page for :func:`planner.sizing.proposal.build`'s dict: the library's
    customer document (:mod:`planner.sizing.document`) through its Jinja2 template."""
    return render_html(document(p, company, logo))


@st.cache_data(show_spinner=False, max_entries=16)
def proposal_data(
    design_json: str,
    workload_json: str,
    tiers_json: str | None,
    demand_json: str | None,
    costs_json: str,
    meta_json: str,
    n_plus_one: bool | None = None,
    calibration_json: str | None = None,
    existing_json: str | None = None,
    mix_json: str | None = None,
) -> dict:
    """:func:`planner.sizing.proposal.build` for JSON inputs (cached). The calibration is part
    of the cache key: a refit kept by one session never shows in another's. ``mix_json``: the SLA page's tier
    mix (databases per tier), for a demand not in tiers."""
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
    return build(
        design,
        workload,
        TierSet.model_validate_json(tiers_json) if tiers_json else None,
        demand,
        CostAssumptions.model_validate_json(costs_json),
        json.loads(meta_json),
        n_plus_one=n_plus_one,
        calibration=cal,
        existing=parse_design(existing_json) if existing_json else None,
        mix=json.loads(mix_json) if mix_json else None,
    )


@st.cache_data(show_spinner=False, max_entries=16)
def proposal_file(args_json: str, fmt: str, company: str, logo: bytes | None) -> bytes:
    """The proposal as ``fmt`` (pdf, html, docx, xlsx) bytes with the company's name and logo
    (:func:`planner.sizing.formats.render`); ``args_json``: :func:`proposal_data`'s arguments."""
    from planner.sizing.formats import render

    return render(proposal_data(**json.loads(args_json)), fmt, company, logo)


FORMATS = {"pdf": "PDF", "html": "HTML", "docx": "Word (DOCX)", "xlsx": "Excel (XLSX)"}
SHORT = {"pdf": "PDF", "html": "HTML", "docx": "DOCX", "xlsx": "XLSX"}
MIMES = {
    "pdf": "application/pdf",
    "html": "text/html",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def proposal_panel(
    prefix: str,
    design_json: str,
    workload_json: str,
    demand_json: str | None,
    existing_json: str | None = None,
) -> None:
    """The document to send, in four formats, with the company's name and logo: the figures
    are the pages' own (the same library calls, the session's prices, tiers and calibration). A demand
    decides the tiers it was sized in and the N+1 it plans for (:func:`planner.sizing.proposal.build`):
    the Size and Performance pages' documents of one session priced the same tiers differently."""
    from hciplan_ui import costs, fmt, inputs, state
    from planner.core.errors import PlannerError
    from planner.models.demand import Demand
    from planner.sizing.document import MAX_LOGO_BYTES, check_company, check_logo

    ss = st.session_state
    if json.loads(design_json).get("topology", "hyperconverged") != "hyperconverged":
        from planner.sizing.proposal import NOT_HYPERCONVERGED

        st.caption(fmt.md(first_upper(NOT_HYPERCONVERGED) + "."))
        return
    # the cover's fields survive a visit to another page (the Size and Performance pages share them)
    inputs.keep("report_customer", "report_author", "report_date", "report_company")
    c = st.columns(3)
    # bounded as a saved scenario and a link hold them: 201 characters broke every page (the session's model
    # refused it; adversarial review 2026-11-30)
    customer = c[0].text_input("Customer", key="report_customer", max_chars=MAX_NAME_CHARS)
    author = c[1].text_input("Prepared by", key="report_author", max_chars=MAX_NAME_CHARS)
    date = c[2].date_input("Date", key="report_date")
    c = st.columns([2, 2, 2])
    company = c[0].text_input("Your company (on the cover)", key="report_company", max_chars=120)
    logo_up = inputs.file_box(c[1], "Your logo", f"{prefix}_logo", 1, "PNG or JPEG", ["png", "jpg", "jpeg"])
    inputs.keep("report_format")
    ss.setdefault("report_format", "pdf")
    fmt_key = c[2].radio("Format", list(FORMATS), format_func=FORMATS.get, key="report_format", horizontal=True)
    if fmt_key == "pdf" and not pdf_available():
        c[2].caption("PDF needs Debian's chromium (`apt-get install chromium`); HTML prints well too.")
    logo = None
    if logo_up is not None:
        try:
            if logo_up.size > MAX_LOGO_BYTES:
                raise PlannerError(f"{logo_up.name} is larger than 1 MB", "logo")
            ok = check_logo(logo_up.getvalue())
            logo = ok[0] if ok else None
        except PlannerError as exc:
            # the reason alone ("Logo not used: logo: ..." said the field twice; hostile-input walk 2026-11-30)
            st.error(f"Logo not used: {fmt.md(exc.message)}", icon=":material/error:")
    try:
        company_ok = check_company(company)
    except PlannerError as exc:
        st.error(f"Company name: {fmt.md(exc)}", icon=":material/error:")
        company_ok = None
    meta = {"customer": customer, "author": author, "date": str(date)}
    demand = Demand.model_validate_json(demand_json) if demand_json else None
    args = json.dumps(
        {
            "design_json": design_json,
            "workload_json": workload_json,
            "tiers_json": None if demand is not None and demand.tier_counts else state.tiers_json(),
            "demand_json": demand_json,
            "costs_json": costs.assumptions_json(),
            "meta_json": json.dumps(meta, sort_keys=True),
            "n_plus_one": None if demand is not None else state.n_plus_one(),
            "calibration_json": state.session_calibration(),
            "existing_json": existing_json,
            # the tier mix the SLA page priced goes into the document (a demand in tiers is its own mix)
            "mix_json": None
            if demand is not None and demand.tier_counts
            else (json.dumps(typed) if (typed := {k: v for k, v in state.tier_counts().items() if v}) else None),
        },
        sort_keys=True,
    )
    # what a prepared file was made from: the same inputs in another format keep the files already prepared
    # (a customer asked for Word, then Excel: the Word file had gone)
    base = (args, company_ok, hash(logo))
    files_key = f"{prefix}_proposal_files"
    files = {k: v for k, v in (ss.get(files_key) or {}).items() if v[0] == base}
    stale = bool(ss.get(files_key)) and not files
    if st.button(f"Prepare the proposal ({SHORT[fmt_key]})", key=f"{prefix}_prepare", disabled=company_ok is None):
        try:
            with st.spinner("Writing the proposal…"):
                if fmt_key == "pdf":
                    # chromium takes seconds: the same document as HTML at once, the PDF printed off the
                    # page's thread and offered beside it when done
                    page = proposal_file(args, "html", company_ok or "", logo)
                    made = (page, pdf_later(page.decode("utf-8")))
                else:
                    made = (proposal_file(args, fmt_key, company_ok or "", logo), None)
        except PlannerError as exc:
            st.error(f"The proposal could not be written: {fmt.md(exc)}", icon=":material/error:")
        else:
            # the last file prepared (its bytes, and the PDF's future), as before; and every file of these inputs
            ss[f"{prefix}_proposal"] = ((args, fmt_key, company_ok, hash(logo)), *made)
            files[fmt_key] = (base, *made)
            ss[files_key] = files
            stale = False
    if files:
        _proposal_downloads(prefix, files, fmt_key)
    elif stale:
        st.caption("The scenario changed since the last proposal: prepare it again.")


def proposal_stem(customer: object) -> str:
    """A proposal file's name: "proposal-contoso-bank" for customer "Contoso Bank" (every download was
    "proposal.pdf"; browser review 2026-11-29), letters and digits only, at most 60 characters."""
    import re
    import unicodedata

    plain = unicodedata.normalize("NFKD", str(customer or "")).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:60].strip("-")
    return f"proposal-{slug}" if slug else "proposal"


def _proposal_downloads(prefix: str, files: dict, chosen: str) -> None:
    """A download for each proposal file prepared from the current inputs, the chosen format's first
    highlighted; a PDF's HTML is offered beside it (its printing takes seconds)."""
    html = files.get("html") or files.get("pdf")
    kinds = [k for k in ("html", "docx", "xlsx") if k in files or (k == "html" and html)]
    e = st.columns(4)
    stem = proposal_stem(st.session_state.get("report_customer"))
    for i, k in enumerate(kinds):
        data = html[1] if k == "html" and html is not None else files[k][1]
        e[i].download_button(
            f"Proposal ({SHORT[k]})",
            data,
            file_name=f"{stem}.{k}",
            mime=MIMES[k],
            key=f"{prefix}_proposal_{k}",
            type="primary" if k == chosen else "secondary",
        )
    if "pdf" in files:
        pdf_download(e[len(kinds)], files["pdf"][2], f"{stem}.pdf", f"{prefix}_pdf", files["pdf"][1])


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


@st.fragment(run_every=0.2)
def _pdf_waiting(future) -> None:
    """Polls the printing PDF (a fragment: the rest of the page does not rerun), then reruns the
    page once so the PDF's download sits beside the HTML's. Every 0.2 s: a poll is a caption redrawn,
    and at 0.5 s the wait for the next poll (250 ms on average) was an eighth of the PDF's 2 s."""
    if future.done():
        st.rerun(scope="app")
    st.caption("Printing the PDF with chromium…")


def pdf_download(container, future, file_name: str, key: str, page: bytes | None = None) -> None:
    """The PDF's download once :func:`pdf_later` has printed it; a note while it prints, and the
    reason in one line if it failed (the HTML proposal prints from any browser). Beside it, the
    characters of ``page`` (the HTML the PDF was printed from) that no font on this system draws:
    they print as empty boxes (:func:`planner.sizing.formats.missing_glyphs_note`)."""
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
    if page is not None:
        from planner.sizing.formats import missing_glyphs_note

        note = missing_glyphs_note(page.decode("utf-8"))
        if note:
            from hciplan_ui import fmt

            container.warning(fmt.md(first_upper(note) + "."), icon=":material/warning:")
