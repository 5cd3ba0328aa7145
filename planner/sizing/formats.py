"""The customer document (:func:`planner.sizing.document.document`) in four formats.

* HTML: the Jinja2 template ``planner/data/templates/proposal.html.j2`` with
  autoescaping on (nothing the user typed becomes markup), charts as inline SVG
  drawn by the template (no script: the page is a few tens of kB);
* PDF: that HTML printed by Debian's headless chromium (``/usr/bin/chromium
  --headless --no-sandbox --print-to-pdf``), nothing downloaded;
* DOCX: python-docx, the same sections, tables and logo;
* XLSX: openpyxl, one sheet per table a customer works with (parts list, cost and
  TCO, service tiers), numbers as numbers, every text cell formula-safe.
"""

from __future__ import annotations

import base64
import contextlib
import io
import math
import os
import re
import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path

from planner.commercial.prices import STATUS_WORDS, estimates_note
from planner.commercial.tco import rounding_note
from planner.core.csvsafe import FORMULA_START
from planner.core.errors import PlannerError
from planner.core.resources import data_path
from planner.core.text import adding_up, sentence, without_bidi_controls
from planner.sizing.names import system_words

CHROMIUM = "/usr/bin/chromium"
FORMATS = ("html", "pdf", "docx", "xlsx")


class FormatError(PlannerError):
    pass


@lru_cache(maxsize=1)
def _template():
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    env = Environment(
        loader=FileSystemLoader(str(data_path("templates"))),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["units_together"] = units_together
    return env.get_template("proposal.html.j2")


#: a number and the unit after it (not any word: "DL380 Gen11" is a name, and stays as typed)
_NUMBER_UNIT = re.compile(r"(\d) (?=(?:TB|GB|TiB|GiB|PB|MB/s|GB/s|ms|µs|us|IOPS|GbE|kW|W|%|m)(?![\w/]))")


def units_together(text) -> str:
    """``text`` with a no-break space between a number and its unit ("0.5 TB", "5 ms", "100 %"),
    so a narrow column never puts the unit on a line of its own."""
    return _NUMBER_UNIT.sub("\\1\u00a0", "" if text is None else str(text))


def render_html(doc: dict) -> str:
    """The document as one self-contained HTML page (logo inlined as a data URI)."""
    uri = f"data:{doc['logo_mime']};base64,{base64.b64encode(doc['logo']).decode('ascii')}" if doc.get("logo") else None
    return _template().render(doc=doc, logo_uri=uri)


def pdf_available() -> bool:
    return os.access(CHROMIUM, os.X_OK)


def render_pdf(html: str, timeout_s: float = 90.0) -> bytes:
    """Print ``html`` to PDF with Debian's headless chromium (sandbox-free and network-free
    flags, as the browser tests use); a one-line error when chromium is missing or fails."""
    if not pdf_available():
        raise FormatError(f"PDF needs Debian's chromium at {CHROMIUM} (apt-get install chromium)", "format")
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "proposal.html", Path(tmp) / "proposal.pdf"
        src.write_text(html, encoding="utf-8")
        try:
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
                    "--no-pdf-header-footer",
                    f"--print-to-pdf={out}",
                    src.as_uri(),
                ],
                check=True,
                capture_output=True,
                timeout=timeout_s,
            )
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
            raise FormatError(f"chromium could not print the PDF ({type(exc).__name__})", "format") from None
        return out.read_bytes()


def _document_datetime(date: str | None):
    """The document's date (``YYYY-MM-DD``) as a UTC datetime at midnight; now when it is not a date."""
    import datetime as dt

    try:
        return dt.datetime.strptime(str(date), "%Y-%m-%d").replace(tzinfo=dt.UTC)
    except ValueError:
        return dt.datetime.now(dt.UTC).replace(microsecond=0)


def render_docx(doc: dict) -> bytes:
    """The document as a Word file (python-docx)."""
    from docx import Document
    from docx.enum.text import WD_ALIGN_PARAGRAPH
    from docx.shared import Cm, Pt

    d = Document()
    props = d.core_properties
    props.title = doc["title"][:255]
    props.author = props.last_modified_by = (doc["author"] or doc["company"])[:255]
    # python-docx's template carries its own dates (created 2013-12-23) and revision: the document's
    # date instead (CLI review 2026-11-29)
    when = _document_datetime(doc.get("date"))
    props.created = props.modified = when
    props.revision = 1
    props.comments = ""
    style = d.styles["Normal"]
    style.font.name = "Calibri"
    style.font.size = Pt(10)
    if doc.get("logo"):
        # a logo python-docx cannot read: the document goes out without it
        with contextlib.suppress(Exception):
            d.add_picture(io.BytesIO(doc["logo"]), height=Cm(1.6))
    if doc["company"]:
        d.add_paragraph(doc["company"]).runs[0].bold = True
    d.add_heading(doc["title"], level=0)
    who = ("Prepared for " + doc["customer"] if doc["customer"] else "") + (
        (" by " if doc["customer"] else "Prepared by ") + doc["author"] if doc["author"] else ""
    )
    d.add_paragraph(f"{who}, {doc['date']}" if who else doc["date"])
    for s in doc["sections"]:
        d.add_heading(f"{s['label']}. {s['title']}", level=1)
        for b in s["blocks"]:
            if b["type"] == "p":
                d.add_paragraph(b["text"])
            elif b["type"] == "note":
                para = d.add_paragraph()
                para.add_run(b["text"]).italic = True
            elif b["type"] in ("kv", "table", "bars"):
                if b["type"] == "kv":
                    header, rows, numeric = None, [list(r) for r in b["rows"]], []
                elif b["type"] == "bars":
                    d.add_paragraph(b["title"])
                    header, rows, numeric = None, [[a, c] for a, _, c in b["items"]], [1]
                else:
                    header, rows, numeric = b["header"], b["rows"], b["numeric"]
                ncols = len(header or rows[0]) if (header or rows) else 0
                if not ncols:
                    continue
                t = d.add_table(rows=0, cols=ncols)
                t.style = "Table Grid"
                for i, r in enumerate(([header] if header else []) + rows):
                    cells = t.add_row().cells
                    for j, c in enumerate(r):
                        cells[j].text = str(c)
                        par = cells[j].paragraphs[0]
                        if j in numeric:
                            par.alignment = WD_ALIGN_PARAGRAPH.RIGHT
                        if (header and i == 0) or (b["type"] == "kv" and j == 0) or r[0] == "Total":
                            for run in par.runs:
                                run.bold = True
    buf = io.BytesIO()
    d.save(buf)
    return buf.getvalue()


def _cover_line(doc: dict) -> str:
    """The workbook's line under each sheet's title: "Prepared by Fabrikam Systems for Contoso Bank, 2026-11-30",
    each part only when given."""
    by = ", ".join(x for x in (str(doc.get("author") or "").strip(), str(doc.get("company") or "").strip()) if x)
    line = " ".join(
        x for x in (f"Prepared by {by}" if by else "", f"for {doc['customer']}" if doc.get("customer") else "") if x
    )
    when = str(doc.get("date") or "").strip()
    return f"{line[:1].upper()}{line[1:]}, {when}" if line and when else (line[:1].upper() + line[1:] or when)


def render_xlsx(p: dict, doc: dict) -> bytes:
    """The design's headline figures, the parts list, the cost and TCO and the service tiers, one sheet each (openpyxl).
    Figures are the library's own numbers (not rounded text); text cells are formula-safe."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    cost = p["cost"]
    wb = Workbook()
    # money as a customer reads it: whole dollars for totals, cents for unit and per-database prices; the cells
    # hold the figures rounded to the cent (the library's numbers, not text: a formula bar read 9242.613333333335,
    # QA finding 7), and a total row is the sum of the cells above it, so a column adds up in the sheet (it summed
    # to $8,459.73 under a total of $8,459.74; finance walk 2026-11-30)
    whole, cents = '"$"#,##0', '"$"#,##0.00'

    def usd(x):
        return None if x is None else round(float(x), 2)

    def total(values):
        return round(sum(v for v in values if v is not None), 2)

    # each column of money to the cent so that it adds up to its exact total to the cent (adding_up): the lines,
    # each rounded alone, summed to $72,734.04 under the Summary sheet's $72,734.05 (account-manager walk
    # 2026-11-30). One figure for the month: the Cost sheet's total, which the Summary sheet repeats
    upfront = adding_up([x["upfront_usd"] for x in cost["lines"]])
    monthly = adding_up([x["usd_per_month"] for x in cost["lines"]])
    month_total = total(monthly)

    def append(ws, values):
        """A row whose text stays text as typed: openpyxl makes a string starting with "=" a formula, so such a
        cell is stored as a string (and marked quote-prefixed, so an edit in Excel keeps it text). The CSV
        writer's leading apostrophe (:func:`safe_cell`) showed in the sheet ("'=HYPERLINK(...)", "'-2+3" as a
        tier name; finance walk 2026-11-30): a workbook's string cell is never run, so it needs none."""
        ws.append([None if isinstance(v, float) and not math.isfinite(v) else v for v in values])
        for c in ws[ws.max_row]:
            if isinstance(c.value, str) and c.value.startswith(FORMULA_START):
                c.data_type = "s"
                c.quotePrefix = True

    def sheet(ws, title, header, rows, money=None, lead=None):
        ws.title = title
        append(ws, [doc["title"]])
        ws["A1"].font = Font(bold=True, size=13)
        # who it is from and for, each with its label ("Fabrikam Systems Contoso Bank 2026-11-30" read as one name;
        # browser review 2026-11-30)
        append(ws, [_cover_line(doc)])
        append(ws, [lead] if lead else [])
        if lead:
            ws["A3"].font = Font(bold=True)
        append(ws, header)
        for c in ws[4]:
            c.font = Font(bold=True)
        for r in rows:
            append(ws, r)
            if r and r[0] == "Total":
                for c in ws[ws.max_row]:
                    c.font = Font(bold=True)
        for col, number_format in (money or {}).items():
            for row in ws.iter_rows(min_row=5, min_col=col + 1, max_col=col + 1):
                for c in row:
                    if isinstance(c.value, (int, float)):
                        c.number_format = number_format
        for i, h in enumerate(header):
            ws.column_dimensions[chr(65 + i)].width = max(12, min(60, len(str(h)) + 4)) if i else 48

    # the design's headline figures, first: the workbook had no usable TB, IOPS or latency at all (what-if call
    # 2026-11-30). The numbers are the report's, each with its unit; the last column is the proposal's own line for
    # it (its Summary section), so the sheet and the PDF give the same figures
    rep = p["report"]
    said = dict(next((b["rows"] for b in doc["sections"][0]["blocks"] if b["type"] == "kv"), []))
    lat = "Latency seen by the databases (mean)"
    # a load the cluster cannot carry has no latency at it: the proposal's words, no figure (the sheet put 0.5128 ms
    # beside "the load cannot be carried, so no latency target holds"; CFO read 2026-11-30)
    carried = doc.get("load_carried", True)
    headline = [
        ("Usable capacity", rep.get("usable_capacity_tb"), "TB", "Usable capacity"),
        ("Throughput under the workload", rep.get("iops"), "IOPS", "Throughput under your workload"),
        ("Latency seen by the databases, mean", rep.get("vm_latency_ms") if carried else "", "ms", lat),
        ("  its range, low end", rep.get("vm_latency_ms_low") if carried else None, "ms", None),
        ("  its range, high end", rep.get("vm_latency_ms_high") if carried else None, "ms", None),
        (
            "Most IOPS with every latency target met",
            (p.get("binding") or {}).get("guaranteed_iops"),
            "IOPS",
            "Most IOPS with every latency target met",
        ),
        ("Cost per month", month_total, "USD", "Cost per month"),
    ]
    # IOPS whole, as the proposal writes them
    srows = [
        # "": a figure with no value (the proposal's words say why), so no unit either
        [k, None, "", said.get(line, "")]
        if v == ""
        else [k, round(v) if unit == "IOPS" else v, unit, said.get(line, "") if line else ""]
        for k, v, unit, line in headline
        if v is not None
    ]
    # a design that falls short says so first, in the proposal's own sentence (the workbook showed its cost and tier
    # prices as an offer; CFO read 2026-11-30)
    sheet(wb.active, "Summary", ["Figure", "Value", "Unit", "In the proposal"], srows, lead=doc.get("verdict"))

    kind_words = {"quoted": "quoted", "list": "list", "street": "street", "estimated": "estimated"}
    lines = cost["parts"] + cost["network"]["lines"]
    # parts by name only: catalog ids stay in the engineer's JSON / CSV files
    bom = [
        [
            x["description"],
            x["quantity"],
            # the exact unit price (to 1/100 of a cent), so quantity x unit price is the line's total in a formula:
            # 8.94 x 2,304 read $20,597.76 beside a total of $20,592 (rate 8.9375; CFO read 2026-11-30)
            None if x["unit_price_usd"] is None else round(float(x["unit_price_usd"]), 4),
            usd(x["total_usd"]),
            kind_words[x["price_kind"]],
            # an undated price says what it is (the cell was blank for 6 of 8 parts; what-if call 2026-11-30)
            x["price_date"] or x.get("price_date_note") or "no date",
            # what each price rests on and where it comes from, as the proposal's appendix says them: the date
            # column pointed at a source no column gave (account-manager walk 2026-11-30)
            x["price_status"],
            x["price_seen"],
            # a part no longer sold new says why (CFO read 2026-11-30: priced with no word)
            x.get("not_on_sale") or "on sale",
        ]
        for x in lines
    ]
    bom.append(["Total", None, None, total(r[3] for r in bom), "", "", "", "", ""])
    statuses = [k for k in STATUS_WORDS if any(x["price_status"] == k for x in lines)]
    notes = [
        "Price status: " + "; ".join(f"{k}, {STATUS_WORDS[k]}" for k in statuses) + ".",
        *([soft] if (soft := estimates_note(lines)) else []),
        # what the list leaves out and which parts are no longer sold new, as the other formats say it
        *[sentence(n) for n in cost.get("parts_notes") or []],
    ]
    sheet(
        wb.create_sheet(),
        "Parts list",
        [
            "Part",
            "Quantity",
            "Unit price (USD)",
            "Total (USD)",
            "Price",
            "Price date",
            "Price status",
            "Price source",
            "Sale status",
        ],
        [*bom, [], *[[n] for n in notes]],
        money={2: '"$"#,##0.00##', 3: whole},
    )

    from planner.sizing.document import tco_caveats

    def tco_cents(t: dict) -> list[float]:
        """A TCO row's purchases, running costs and total to the cent, the two adding up to the total."""
        parts = adding_up([t["upfront_usd"], t["running_usd"]])
        return [*parts, total(parts)]

    # each line with how it is counted, and the TCO with what it leaves out, as the other formats say them: the
    # sheet's 5-year TCO read as complete (CFO read 2026-11-30)
    rows = [
        [x["line"], up, month, None, sentence(x.get("basis") or "")]
        for x, up, month in zip(cost["lines"], upfront, monthly, strict=True)
    ]
    rows.append(["Total", total(upfront), month_total])
    if rounded := rounding_note(cost):  # the lines as shown, as the other formats say it
        rows.append([rounded])
    rows.append([])
    rows.append(
        ["Total cost of ownership", "Purchases (USD)", "Running costs (USD)", "Total (USD)", "What it leaves out"]
    )
    rows += [
        [f"{t['years']} years", *tco_cents(t), sentence("; ".join(tco_caveats(p, t["years"])))] for t in cost["tco"]
    ]
    rows += [
        [],
        [f"Purchases are spread over {cost['amortisation_months']} months in the monthly figures."],
        *[[sentence(n)] for n in cost.get("notes") or []],
    ]
    # the other formats say it among the cost's notes: a licence that leaves the Windows guests out
    if guests := cost.get("windows_guests_note"):
        rows += [[], [sentence(guests)]]
    ex = p.get("existing")
    if ex:
        rows.append([])
        # in words, as the other formats say it (the sheet read "System today: ceph-6node-reef"; review 2026-11-29)
        rows.append(
            [f"System today: {system_words(ex['design'])}", "Purchases (USD)", "Running costs (USD)", "Total (USD)"]
        )
        rows += [[f"{t['years']} years", *tco_cents(t)] for t in ex["cost"]["tco"]]
    sheet(
        wb.create_sheet(),
        "Cost and TCO",
        # the fourth column is the TCO table's total (it had no heading; what-if call 2026-11-30); the fifth, how a
        # line is counted
        ["Cost line", "Purchase (USD)", "Per month (USD)", "TCO total (USD)", "How it is counted"],
        rows,
        money={1: whole, 2: whole, 3: whole},
    )

    if p.get("tier_fit") and p.get("tier_prices"):
        fit, prices = p["tier_fit"], p["tier_prices"]["tiers"]
        from planner.commercial.tiers import limit_words
        from planner.sizing.document import tier_notes

        trows = []
        for t in p["tiers"]:
            f, pr = fit[t["name"]], prices[t["name"]]
            trows.append(
                [
                    t["name"],
                    t["guaranteed_iops"],
                    t["latency_target_ms"],
                    t["latency_statistic"],
                    t["capacity_tb_per_db"],
                    f["max_dbs"],
                    limit_words(f["limited_by"]),
                    usd(pr["price_usd_per_month"]),
                    usd(pr["cost_share_usd_per_month"]),
                ]
            )
        sheet(
            wb.create_sheet(),
            "Service tiers",
            [
                "Tier",
                "Guaranteed IOPS",
                "Latency target (ms)",
                "Latency statistic",
                "Size (TB)",
                "Databases that fit",
                "Limited by",
                "Price per database per month (USD)",
                "Cost per database per month (USD)",
            ],
            [*trows, [], *[[t] for t in tier_notes(p)]],
            money={7: cents, 8: cents},
        )
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def render(p: dict, fmt: str, company: str | None = None, logo: bytes | None = None) -> bytes:
    """The proposal ``p`` (:func:`planner.sizing.proposal.build`) as ``fmt`` bytes."""
    from planner.sizing.document import document

    if fmt not in FORMATS:
        raise FormatError(f"one of {', '.join(FORMATS)} (got {fmt!r})", "format")
    p = without_bidi_controls(p)  # the workbook reads the proposal's own names too
    doc = document(p, company, logo)
    if fmt == "html":
        return render_html(doc).encode("utf-8")
    if fmt == "pdf":
        return render_pdf(render_html(doc))
    if fmt == "docx":
        return render_docx(doc)
    return render_xlsx(p, doc)
