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
from planner.commercial.pricing import default_note
from planner.commercial.tco import rounding_note
from planner.core.csvsafe import FORMULA_START
from planner.core.errors import PlannerError
from planner.core.resources import data_path
from planner.core.text import adding_up, count, sentence, without_bidi_controls
from planner.sizing.document import NETWORK_TRAFFIC_LABEL, REACH_LABEL, guaranteed_label, load_label, repair_figure
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


#: fontconfig's lister: chromium finds its fallback fonts through fontconfig, so the fonts it lists are the
#: fonts a PDF can draw a character with (a character none of them covers prints as an empty box)
FC_LIST = "fc-list"


@lru_cache(maxsize=1)
def _installed_coverage() -> tuple[tuple[int, int], ...] | None:
    """The code points some installed font draws, as merged ``(first, last)`` ranges; None when fontconfig
    cannot say (no ``fc-list``): then nothing is called missing rather than everything."""
    try:
        listed = subprocess.run(
            [FC_LIST, "--format", "%{charset}\n"], check=True, capture_output=True, text=True, timeout=30
        ).stdout
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError):
        return None
    spans = []
    for part in listed.split():
        first, _, last = part.partition("-")
        with contextlib.suppress(ValueError):
            spans.append((int(first, 16), int(last or first, 16)))
    merged: list[tuple[int, int]] = []
    for lo, hi in sorted(spans):
        if merged and lo <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
        else:
            merged.append((lo, hi))
    return tuple(merged)


def _drawn(ch: str, coverage: tuple[tuple[int, int], ...]) -> bool:
    import bisect
    import unicodedata

    # spaces, controls, joiners and variation selectors are not drawn as glyphs of their own
    if (
        unicodedata.category(ch) in ("Zs", "Zl", "Zp", "Cc", "Cf")
        or 0xFE00 <= ord(ch) <= 0xFE0F
        or 0xE0100 <= ord(ch) <= 0xE01EF
    ):
        return True
    i = bisect.bisect_right(coverage, (ord(ch), 0x10FFFF)) - 1
    return i >= 0 and coverage[i][0] <= ord(ch) <= coverage[i][1]


def missing_glyphs(text: str) -> str:
    """The characters of ``text`` no installed font draws (each once, in order of appearance): in a PDF
    printed on this system they are empty boxes; "" when every character is drawn or fontconfig is absent."""
    coverage = _installed_coverage()
    if coverage is None:
        return ""
    return "".join(dict.fromkeys(ch for ch in text if ord(ch) > 0x7E and not _drawn(ch, coverage)))


def missing_glyphs_note(html: str) -> str | None:
    """One line naming the characters of the proposal's HTML that its PDF prints as empty boxes (no font
    on this system draws them: a Chinese customer name on a host without a CJK font), advising the HTML
    or DOCX, which the reader's own fonts draw; None when the PDF shows every character."""
    missing = missing_glyphs(html)
    if not missing:
        return None
    shown = " ".join(missing[:20]) + (" …" if len(missing) > 20 else "")
    return (
        f"the PDF prints {count(len(missing), 'character')} as empty boxes ({shown}): no font on this system "
        "draws them; send the HTML or DOCX proposal, which the reader's fonts draw"
    )


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


def _section(doc: dict, title: str) -> dict | None:
    return next((s for s in doc["sections"] if s["title"] == title), None)


def _said(doc: dict, title: str) -> dict:
    """A section's key/value lines as the proposal prints them (its first key/value table)."""
    s = _section(doc, title)
    return dict(next((b["rows"] for b in s["blocks"] if b["type"] == "kv"), [])) if s else {}


def _texts(doc: dict, title: str) -> list[str]:
    """A section's paragraphs and notes as the proposal prints them."""
    s = _section(doc, title)
    return [b["text"] for b in s["blocks"] if b["type"] in ("p", "note") and b["text"]] if s else []


def _demand_sheet(p: dict, doc: dict, ws, sheet) -> None:
    """The workbook's sheet of what the design is sized for and the cost assumptions, numbers as numbers with the
    proposal's own line beside them: the database as described (data, buffer pool, rate, its VM's vCPUs and RAM),
    the count before and after growth, the totals, and the assumptions the cost rests on. The workbook alone said
    none of them (account-manager walk 2026-11-30)."""
    from planner.models.demand import TOTALS_CLASS

    rows: list[list] = []
    d = p.get("demand")
    said = _said(doc, "Your databases")
    if d:
        db = p.get("demand_database")
        if db:
            rate = (
                ("new orders per minute (HammerDB)", db["nopm"], "NOPM")
                if db.get("nopm")
                else ("transactions per minute (HammerDB)", db["tpm"], "TPM")
            )
            rows += [
                ["Each database: data", db["data_gb"], "GB", said.get("Each database", "")],
                ["Each database: buffer pool", db["buffer_pool_gb"], "GB", ""],
                [f"Each database: {rate[0]}", rate[1], rate[2], ""],
            ]
        for c in d["classes"]:
            who = "Each database" if c["name"] == TOTALS_CLASS else f"{c['name']} tier"
            if c["name"] != TOTALS_CLASS:
                rows += [
                    [f"{who}: databases", c["databases"], "databases", said.get(f"{c['name']} tier", "")],
                    [f"{who}: IOPS", round(c["iops"]), "IOPS", ""],
                    [f"{who}: capacity", _figure(c["capacity_tb"], "TB"), "TB", ""],
                ]
            rows += [
                [f"{who}: latency target ({c['latency_statistic']})", c["latency_target_ms"], "ms", ""],
                *([[f"{who}: vCPUs of its VM", v, "vCPUs", ""]] if (v := c.get("vcpus_per_db")) else []),
                *([[f"{who}: RAM of its VM", v, "GB", ""]] if (v := c.get("ram_gb_per_db")) else []),
            ]
        grown = bool(d.get("growth_pct"))
        rows += [
            *(
                [
                    ["Databases today", d["databases_before_growth"], "databases", ""],
                    ["Growth", d["growth_pct"], "%", ""],
                    ["  over", d["growth_period_months"], "months", ""],
                ]
                if grown and d.get("databases_before_growth") is not None
                else []
            ),
            ["Databases" + (" after growth" if grown else ""), d["databases"], "databases", said.get("Databases", "")],
            [
                "IOPS to guarantee, all databases at once",
                round(d["iops"]),
                "IOPS",
                said.get("IOPS to guarantee, all databases at once", ""),
            ],
            ["Capacity", _figure(d["capacity_tb"], "TB"), "TB", said.get("Capacity", "")],
            ["Tightest latency target", d["tightest_latency_target_ms"], "ms", said.get("Tightest latency target", "")],
            ["Virtual processors", d["vcpus"], "vCPUs", said.get("Virtual processors", "")],
            ["Memory", d["ram_gb"], "GB", said.get("Memory", "")],
            [],
        ]
    a = p["assumptions"]["costs"]
    rows += [
        ["Cost assumptions"],
        ["Hardware spread over", a["amortisation_months"], "months", ""],
        [
            "Support",
            _figure(100 * a["support_share_per_year"], "%"),
            "% of the hardware and network price a year",
            default_note(a, "support_share_per_year"),
        ],
        ["Power", a["power_usd_per_kwh"], "USD per kWh", default_note(a, "power_usd_per_kwh")],
        ["Power usage effectiveness (PUE)", a["pue"], "", default_note(a, "pue")],
        [
            "Rack space",
            a["rack_unit_usd_per_month"],
            "USD per rack unit per month",
            default_note(a, "rack_unit_usd_per_month"),
        ],
        ["Licences", None, "", p["cost"]["licence_name"]],
        *(
            [
                [
                    "Tier prices: fill",
                    _figure(100 * a["target_fill"], "%"),
                    "%",
                    default_note(a, "target_fill"),
                ],
                [
                    "Tier prices: margin",
                    _figure(100 * a["target_margin"], "%"),
                    "%",
                    default_note(a, "target_margin"),
                ],
            ]
            if p.get("tier_prices")
            else []
        ),
    ]
    sheet(
        ws, "Demand and assumptions", ["Figure", "Value", "Unit", "In the proposal"], rows, heads=("Cost assumptions",)
    )


def _guarantee_sheet(p: dict, doc: dict, ws, sheet) -> None:
    """The workbook's sheet of what the design guarantees: each performance figure with the ends of its range, then
    the demand met or not part by part with its margin (the proposal's table), then what the ranges are and where
    the model was not validated, in the proposal's words. The workbook alone gave one latency range and no
    guarantee (account-manager walk 2026-11-30)."""
    rep = p["report"]
    carried = doc.get("load_carried", True)

    def row(label, key, unit, scale=1.0, src=None):
        src = rep if src is None else src
        v = src.get(key)
        if v is None:
            return []
        lo, hi = src.get(f"{key}_low"), src.get(f"{key}_high")
        # no range where it has no spread (an open load carried whole), as the proposal gives none
        spread = lo is not None and hi is not None and (lo != v or hi != v)
        ends = [_figure(scale * lo, unit), _figure(scale * hi, unit)] if spread else [None, None]
        return [[label, _figure(scale * v, unit), *ends, unit]]

    rows = [
        *row("Throughput", "iops", "IOPS"),
        *row(REACH_LABEL, "iops_capacity", "IOPS"),
        *([[guaranteed_label(b), round(b["guaranteed_iops"]), None, None, "IOPS"]] if (b := p.get("binding")) else []),
    ]
    if carried:  # a load the cluster cannot carry has no latency at it (the Summary sheet's rule)
        rows += [
            *row("Latency seen by the databases, mean", "vm_latency_ms", "ms"),
            *row("Read latency, 99th percentile", "p99_read_latency_ms", "ms"),
            *row("Storage latency, read", "read_latency_ms", "ms"),
            *row("Storage latency, write", "write_latency_ms", "ms"),
        ]
    rows += [
        *row("Server processors busy", "host_cpu_utilization", "%", 100.0),
        *row("Drive endurance at this write load", "endurance_years", "years"),
    ]
    dg = rep.get("degraded")
    if dg and not dg.get("io_stops"):
        rows += [*row("With one server down: throughput", "iops", "IOPS", src=dg)]
        if carried:
            rows += [*row("With one server down: latency seen by the databases, mean", "vm_latency_ms", "ms", src=dg)]
        if said := repair_figure(dg):
            rows.append([said[0], round(said[1], 1), None, None, "hours"])
    rows += [[], *[[t] for t in _texts(doc, "Performance")]]
    meets = next(
        (b for b in (_section(doc, "Your databases") or {"blocks": []})["blocks"] if b.get("name") == "meets"), None
    )
    if meets:
        rows += [[], ["Against your demand", "You need", "Met", "Margin"], *meets["rows"]]
    sheet(
        ws,
        "Guarantees",
        ["Figure", "Value", "Range, low end", "Range, high end", "Unit"],
        rows,
        heads=("Against your demand",),
    )


def _growth_sheet(p: dict, doc: dict, ws, sheet) -> None:
    """The workbook's sheet of the demand year by year and the servers it needs (the proposal's Growth table, with
    the vCPUs and RAM), and the proposal's sentence on when the cluster needs another server."""
    from planner.sizing.document import customer_text

    my = p["multi_year"]
    rows = [
        [
            y["years_from_now"],
            _figure(100 * y["demand_ratio"], "%"),
            round(y["iops"]),
            _figure(y["capacity_tb"], "TB"),
            y.get("vcpus"),
            y.get("ram_gb"),
            y["nodes_needed"] if y["nodes_needed"] else customer_text(y.get("nodes_needed_note")) or "more",
        ]
        for y in my["years"]
    ]
    # the proposal's Growth section says the rows' note and its sentence; the note added again read twice (A12 and
    # A14; customer-engineer walk 2026-12-01)
    notes = _texts(doc, "Growth")
    sheet(
        ws,
        "Growth",
        ["Year", "Demand (% of today)", "IOPS", "Capacity (TB)", "vCPUs", "RAM (GB)", "Servers needed"],
        [*rows, [], *[[t] for t in notes]],
    )


def _rules_sheet(doc: dict, ws, sheet) -> None:
    """The workbook's sheet of the rules checked, as the proposal's table gives them (rule, whose, result, source),
    under the proposal's verdict where the design falls short: the workbook had no rules at all, so it never said a
    rule the design fails (customer-engineer walk 2026-12-01: the drives' rated writes, "not met" on page 12 of the
    PDF alone)."""
    s = _section(doc, "Rules checked")
    table = next((b for b in s["blocks"] if b["type"] == "table"), None) if s else None
    if table is None:
        return
    sheet(ws, "Rules", table["header"], table["rows"], lead=doc.get("verdict"))


#: most characters of a workbook cell (Excel's limit is 32,767): a longer JSON text is split over rows
MAX_CELL_CHARS = 32_000


def _inputs_sheet(p: dict, ws, sheet) -> None:
    """The workbook's sheet of what the proposal was made from: the design, the demand, the cost assumptions and
    the system run today as JSON text, one file each, under how to make the document again with ``hciplan
    proposal`` (:func:`planner.sizing.document.rerun_words`). A customer's copy could not be regenerated: no
    design or demand was in it (customer-engineer walk 2026-12-01). Each JSON on one line (a cell copied with line
    breaks pastes in quotes); a text longer than :data:`MAX_CELL_CHARS` over consecutive rows, to be joined."""
    import json

    from planner.sizing.document import INPUT_FILES, INPUTS_TITLE, rerun_words

    inputs = p.get("inputs")
    if not inputs:
        return
    rows: list[list] = []
    for key, _ in INPUT_FILES:
        if not inputs.get(key):  # no demand, the default costs, no tiers given, no system today
            continue
        name = f"{key}.json"
        text = json.dumps(inputs[key], ensure_ascii=False)
        parts = [text[i : i + MAX_CELL_CHARS] for i in range(0, len(text), MAX_CELL_CHARS)] or [text]
        rows += [
            [name if len(parts) == 1 else f"{name}, part {i + 1} of {len(parts)} (join the parts)", part]
            for i, part in enumerate(parts)
        ]
    sheet(ws, INPUTS_TITLE, ["File", "JSON"], rows, lead=rerun_words(inputs, "below"))


#: the workbook's first row under a sheet's header (its title, who it is from and for, a lead line, the header)
FIRST_ROW = 5


def _sum(column: str, rows: int) -> str:
    """The formula of a column's total over the ``rows`` lines under a sheet's header ("=SUM(D5:D12)")."""
    return f"=SUM({column}{FIRST_ROW}:{column}{FIRST_ROW + rows - 1})"


#: the decimals a workbook cell holds a figure to, by its unit: the proposal's own (IOPS whole, TB to the hundredth
#: of a TB, ms to the microsecond, a share to a tenth of a percent); a cell read 112.385705032704 TB
FIGURE_DECIMALS = {"IOPS": 0, "TB": 2, "ms": 3, "%": 1, "years": 1, "hours": 1, "GB": 1, "MB/s": 0}


def _figure(x: float | None, unit: str) -> float | None:
    """``x`` [``unit``] to the decimals :data:`FIGURE_DECIMALS` gives its unit (as it is for any other unit)."""
    if x is None or unit not in FIGURE_DECIMALS:
        return x
    return round(float(x)) if FIGURE_DECIMALS[unit] == 0 else round(float(x), FIGURE_DECIMALS[unit])


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

    def tco_cents(t: dict) -> list[float]:
        """A TCO row's purchases, running costs and total to the cent, the two adding up to the total."""
        parts = adding_up([t["upfront_usd"], t["running_usd"]])
        return [*parts, total(parts)]

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

    def sheet(ws, title, header, rows, money=None, lead=None, heads=()):
        """A sheet of ``rows`` under the document's title, who it is from and for, and ``header``; a row whose
        first cell is "Total" or one of ``heads`` (a table's own heading within the sheet) in bold."""
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
            if r and (r[0] == "Total" or r[0] in heads):
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
    # a figure the summary does not give is quoted from the section that does (the p99 row's cell was empty;
    # verification walk 2026-12-01): the summary's words first
    for sec in doc["sections"][1:]:
        for b in sec["blocks"]:
            if b["type"] == "kv":
                for row in b["rows"]:
                    if len(row) == 2:
                        said.setdefault(row[0], row[1])
    lat = "Latency seen by the databases (mean)"
    # a load the cluster cannot carry has no latency at it: the proposal's words, no figure (the sheet put 0.5128 ms
    # beside "the load cannot be carried, so no latency target holds"; CFO read 2026-11-30)
    carried = doc.get("load_carried", True)

    def ranged(label, key, unit, line=None, shown=True):
        """A figure of the report and the ends of its range (the proposal's "range 0.145 ms to 1.009 ms")."""
        lo, hi = rep.get(f"{key}_low"), rep.get(f"{key}_high")
        spread = lo is not None and hi is not None and (lo != rep.get(key) or hi != rep.get(key))
        return [
            (label, rep.get(key) if shown else "", unit, line),
            ("  its range, low end", lo if shown and spread else None, unit, None),
            ("  its range, high end", hi if shown and spread else None, unit, None),
        ]

    tco = {t["years"]: tco_cents(t)[2] for t in cost["tco"]}
    headline = [
        ("Usable capacity", rep.get("usable_capacity_tb"), "TB", "Usable capacity"),
        (load_label(p), rep.get("iops"), "IOPS", load_label(p)),
        # the most the cluster carries, with the range the proposal's caveats give in percent ("expect -22 % to
        # +37 % on the throughput the cluster can reach"): the workbook had no range but the latency's
        # (account-manager walk 2026-11-30)
        *(ranged(REACH_LABEL, "iops_capacity", "IOPS", REACH_LABEL) if carried else []),
        *ranged("Latency seen by the databases, mean", "vm_latency_ms", "ms", lat, carried),
        *(
            ranged("Read latency, 99th percentile", "p99_read_latency_ms", "ms", "Read latency, 99th percentile")
            if carried
            else []
        ),
        *(
            [(guaranteed_label(b), b.get("guaranteed_iops"), "IOPS", guaranteed_label(b))]
            if (b := p.get("binding"))
            else []
        ),
        # a node's east-west storage traffic against its link, as the proposal gives it (network walk 2026-12-01)
        *(
            [
                (
                    f"{NETWORK_TRAFFIC_LABEL}, per server each way",
                    rep.get("network_mb_s_per_node"),
                    "MB/s",
                    NETWORK_TRAFFIC_LABEL,
                ),
                ("Storage link per server, each way", rep.get("network_link_mb_s_per_node"), "MB/s", None),
            ]
            if rep.get("network_mb_s_per_node") is not None
            else []
        ),
        # the round trip between rooms every latency includes (an input no output echoed)
        *(
            [("Round trip between rooms", rep["fault_domain_rtt_ms"], "ms", None)]
            if rep.get("fault_domain_rtt_ms")
            else []
        ),
        ("Cost per month", month_total, "USD", "Cost per month"),
        # the total cost of ownership as the proposal's summary gives it, with what it leaves out (the workbook's
        # Summary had none; account-manager walk 2026-11-30)
        *[
            (f"Total cost of ownership, {y} years", v, "USD", f"Total cost of ownership, {y} years")
            for y, v in tco.items()
        ],
        *([("What runs out first", "", "", "What runs out first")] if "What runs out first" in said else []),
    ]
    # each figure to the decimals the proposal gives it (IOPS whole, TB to the hundredth, ms to the microsecond): a
    # cell read 112.385705032704 TB (account-manager walk 2026-11-30)
    srows = [
        # "": a figure with no value (the proposal's words say why), so no unit either
        [k, None, "", said.get(line, "")]
        if v == ""
        else [k, _figure(v, unit), unit, said.get(line, "") if line else ""]
        for k, v, unit, line in headline
        if v is not None
    ]
    # the proposal's caveats under its figures, as its summary gives them (latency targets met at the prediction
    # only, the model's validated range, warnings, parts no longer sold): the workbook alone had none
    caveats = [b["text"] for b in doc["sections"][0]["blocks"] if b["type"] == "note"]
    if caveats:
        srows += [[], ["Caveats"], *[[t] for t in caveats]]
    # a design that falls short says so first, in the proposal's own sentence (the workbook showed its cost and tier
    # prices as an offer; CFO read 2026-11-30)
    sheet(
        wb.active,
        "Summary",
        ["Figure", "Value", "Unit", "In the proposal"],
        srows,
        lead=doc.get("verdict"),
        heads=("Caveats",),
    )
    _demand_sheet(p, doc, wb.create_sheet(), sheet)
    _guarantee_sheet(p, doc, wb.create_sheet(), sheet)
    if p.get("multi_year"):
        _growth_sheet(p, doc, wb.create_sheet(), sheet)
    _rules_sheet(doc, wb.create_sheet(), sheet)

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
            # the line's total as a formula a reader can recheck: the cell holds the figure (openpyxl writes no
            # computed value for a real formula, so a reader without Excel would see none), this one how it is made
            f"=B{FIRST_ROW + i}*C{FIRST_ROW + i}",
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
        for i, x in enumerate(lines)
    ]
    bom.append(["Total", None, None, total(r[3] for r in bom), _sum("D", len(bom)), "", "", "", "", ""])
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
            "Total's formula",
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

    # each line with how it is counted, and the TCO with what it leaves out, as the other formats say them: the
    # sheet's 5-year TCO read as complete (CFO read 2026-11-30)
    rows = [
        [x["line"], up, month, sentence(x.get("basis") or "")]
        for x, up, month in zip(cost["lines"], upfront, monthly, strict=True)
    ]
    # the totals as formulas a reader can recheck, beside the figures (the lines add up to them: adding_up)
    n = len(rows)
    rows.append(["Total", total(upfront), month_total, None, f"{_sum('B', n)}; {_sum('C', n)}"])
    if rounded := rounding_note(cost):  # the lines as shown, as the other formats say it
        rows.append([rounded])
    rows.append([])
    rows.append(
        [
            "Total cost of ownership",
            "Purchases (USD)",
            "Running costs (USD)",
            "Total (USD)",
            "What it leaves out",
            "Total's formula",
        ]
    )
    rows += [
        [
            f"{t['years']} years",
            *tco_cents(t),
            sentence("; ".join(tco_caveats(p, t["years"]))),
            f"=B{FIRST_ROW + len(rows) + i}+C{FIRST_ROW + len(rows) + i}",
        ]
        for i, t in enumerate(cost["tco"])
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
            [
                f"System today: {system_words(ex['design'])}",
                "Purchases (USD)",
                "Running costs (USD)",
                "Total (USD)",
                None,
                "Total's formula",
            ]
        )
        rows += [
            [f"{t['years']} years", *tco_cents(t), None, f"=B{FIRST_ROW + len(rows) + i}+C{FIRST_ROW + len(rows) + i}"]
            for i, t in enumerate(ex["cost"]["tco"])
        ]
    sheet(
        wb.create_sheet(),
        "Cost and TCO",
        # the cost lines' own columns: a "TCO total (USD)" column stood empty on every line (customer-engineer walk
        # 2026-12-01), the TCO table below has its own heading row with its total
        ["Cost line", "Purchase (USD)", "Per month (USD)", "How it is counted", "Formula"],
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
            # an estate's tier guarantees its members' mean, a fraction: "24880.65204302035" in General format
            # (CLI walk, stop 61); whole IOPS shown, the exact figure kept in the cell
            money={1: "#,##0", 7: cents, 8: cents},
        )
    _inputs_sheet(p, wb.create_sheet(), sheet)
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
