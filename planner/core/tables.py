"""Tables a user hands over or takes away (CSV, XLSX): bounded reading, one-line
errors that name the row and the column, numbers parsed strictly, and cells
written back so no spreadsheet runs them as formulas.

Every table input of the planner (a customer's price quote, the estate's
database list, SQL Server exports) goes through :func:`read_rows`; every
table it writes for a spreadsheet goes through :func:`safe_cell`.

References
----------
OWASP, *CSV Injection*: a cell starting with ``=``, ``+``, ``-``, ``@``, a tab
or a carriage return is read as a formula by spreadsheet programs; prefixing a
single quote makes it text.
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import datetime as dt
import io
import math
import re
import zipfile
from collections.abc import Iterable
from typing import Any, Literal, overload

from planner.core.csvsafe import safe_cell as safe_cell  # the one CSV writer, re-exported
from planner.core.csvsafe import write_csv as write_csv
from planner.core.errors import PlannerError, shown

#: largest table file accepted, bytes (checked before parsing)
MAX_TABLE_BYTES = 5_000_000
#: most data rows accepted from one table
MAX_TABLE_ROWS = 20_000
#: an XLSX is a zip: the most its parts may hold once unpacked, and how many parts
MAX_XLSX_UNPACKED_BYTES = 50_000_000
MAX_XLSX_PARTS = 2_000
MAX_CELL_CHARS = 1_000
#: most columns read from an XLSX sheet: a sheet's stated dimension pads every row to its last column, and one cell
#: at XFD1048576 in a 4.9 KB workbook made 20,001 rows of 16,384 cells, 2.7 GB (hostile-input walk 2026-11-30)
MAX_TABLE_COLUMNS = 256


class TableError(PlannerError):
    """A table cannot be read; ``field`` names the file (and the message the row and column)."""


#: first bytes of files that are not text, and what they are
_NOT_TEXT = (
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"%PDF", "a PDF document"),
    (b"\xd0\xcf\x11\xe0", "an old Office file (XLS or DOC)"),
    (b"\x1f\x8b", "a gzip archive"),
)


def decode(data: bytes, name: str, error: type[PlannerError] = TableError) -> str:
    """Text of a file: UTF-8 (BOM or not) or UTF-16 with a BOM (what PowerShell 5's
    ``Out-File`` and SQL Server Management Studio's exports write)."""
    if data[:4] == b"PK\x03\x04":  # a workbook where text is read: said as such, not by its first odd byte
        raise error("an Excel workbook (XLSX), not text: save it as CSV", name)
    # other files a user picks by mistake, by their first bytes: "not UTF-8 or UTF-16 text (byte 0)" said nothing
    # of a PNG renamed to .csv (browser review 2026-11-29)
    for magic, kind in _NOT_TEXT:
        if data.startswith(magic):
            raise error(f"{kind}, not a text file", name)
    try:
        if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            return data.decode("utf-16")
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"not UTF-8 or UTF-16 text (byte {exc.start})", name) from None


def check_size(data: bytes, name: str, max_bytes: int = MAX_TABLE_BYTES) -> None:
    if len(data) > max_bytes:
        raise TableError(f"file is {len(data):,} bytes; the limit is {max_bytes:,}", name)
    if not data.strip():
        raise TableError("file is empty", name)


def header_key(text: object) -> str:
    """A column name as matched: lower case, spaces and punctuation as '_'."""
    return re.sub(r"[^a-z0-9%]+", "_", str(text or "").strip().lower()).strip("_")


#: a number as a European spreadsheet writes it: "." between thousands, "," before the decimals
_DECIMAL_COMMA = re.compile(r"([+-]?)(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d+))?(\s*%?)")


def decimal_comma(cell: str) -> str:
    """A cell of a ';'-separated CSV (what Excel writes where ',' is the decimal sign) with a number
    in that notation written as :func:`number` reads it: "1.234,50" -> "1234.50", "0,5" -> "0.5". Other
    text is kept as it is."""
    m = _DECIMAL_COMMA.fullmatch(cell.strip())
    if not m:
        return cell
    sign, whole, frac, pct = m.groups()
    return f"{sign}{whole.replace('.', '')}" + (f".{frac}" if frac is not None else "") + pct.strip()


def csv_rows(text: str, name: str) -> list[list[str]]:
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    try:
        rows = list(csv.reader(io.StringIO(text), dialect))
    except csv.Error as exc:
        raise TableError(f"not a readable CSV ({exc})", name) from None
    if getattr(dialect, "delimiter", ",") == ";":
        # ';' between cells is Excel's CSV where ',' is the decimal sign: "0,5" GB was read as 5 GB and
        # "1.234,50" USD as 1.2345 USD (their ',' taken for a thousands separator)
        rows = [[decimal_comma(c) for c in r] for r in rows]
    return rows


def _date_said(v: Any) -> str:
    """A workbook's date or time as written (2020-01-01, 12:30:00): the cell's value in the spreadsheet's words."""
    if isinstance(v, dt.datetime) and v.time() == dt.time():
        return v.date().isoformat()
    return str(v) if isinstance(v, dt.timedelta) else v.isoformat()


class Unsaved:
    """An XLSX cell holding a formula with no value saved beside it: a workbook written by a program that
    does not compute (openpyxl, a script), never opened and saved in Excel. Read for its values, the cell is
    empty, and "row 2, column size_gb: empty" sent the user to a cell that holds a formula (DBA walk
    2026-11-30); :func:`number` and :func:`text` say what it is."""

    def __init__(self, formula: str) -> None:
        self.formula = formula

    def __str__(self) -> str:
        return self.formula

    def said(self, row: int, key: str) -> str:
        return (
            f"row {row}, column {key}: a formula without a saved value ({shown(self.formula, 40)}): open the file "
            "in Excel and save it"
        )


def _unsaved_formulas(data: bytes, ws_index: int, rows: list[list[Any]]) -> None:
    """Mark each empty cell of ``rows`` that holds a formula as :class:`Unsaved` (the workbook read again
    for its formulas; only when a cell read empty, so a list with no blank cell is read once)."""
    import openpyxl

    wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    try:
        ws = wb.worksheets[ws_index]
        for r, row in enumerate(ws.iter_rows(values_only=True, max_col=MAX_TABLE_COLUMNS, max_row=len(rows))):
            for j, v in enumerate(row):
                # a formula in a row's last cells was dropped with the row's padding: it is put back, said
                if isinstance(v, str) and v.startswith("=") and (j >= len(rows[r]) or rows[r][j] is None):
                    rows[r].extend([None] * (j + 1 - len(rows[r])))
                    rows[r][j] = Unsaved(v)
    finally:
        wb.close()


def _xlsx_rows(data: bytes, name: str, sheet: str | None) -> tuple[list[list[Any]], list[str]]:
    """The sheet's rows (the first sheet unless ``sheet`` names one) and the workbook's sheet names."""
    # a zip bomb stops here: the central directory states each part's unpacked size
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            infos = z.infolist()
    except zipfile.BadZipFile:
        raise TableError("not an XLSX workbook (not a zip file)", name) from None
    if len(infos) > MAX_XLSX_PARTS or sum(i.file_size for i in infos) > MAX_XLSX_UNPACKED_BYTES:
        raise TableError(f"workbook unpacks to more than {MAX_XLSX_UNPACKED_BYTES:,} bytes", name)
    import openpyxl  # openpyxl parses through defusedxml when it is installed (a dependency)

    try:
        wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception:  # openpyxl raises many types for a broken workbook
        # no Python class name ("(ValueError)") to a customer; hostile-input walk 2026-11-30
        raise TableError("not a readable XLSX workbook: damaged, or not saved by a spreadsheet program", name) from None
    try:
        if sheet is not None and sheet not in wb.sheetnames:
            raise TableError(f"no sheet {shown(sheet)}; sheets: {', '.join(map(shown, wb.sheetnames))}", name)
        ws = wb[sheet] if sheet is not None else wb.worksheets[0]
        names = list(wb.sheetnames)
        rows = []
        for row in ws.iter_rows(values_only=True, max_col=MAX_TABLE_COLUMNS):
            cells = list(row)
            while cells and cells[-1] is None:  # the padding to the sheet's last column
                cells.pop()
            rows.append(cells)
            if len(rows) > MAX_TABLE_ROWS + 1:
                break
        index = wb.worksheets.index(ws)
    finally:
        wb.close()
    width = max((len(r) for r in rows), default=0)
    if any(c is None for r in rows for c in r) or any(len(r) < width for r in rows):
        # an empty cell, or a row shorter than the others (its empty last cells are padding, or formulas without a
        # saved value: a quote's price_usd read as no price; hostile-input walk). The values were read: a formula
        # pass that fails leaves them as read
        with contextlib.suppress(Exception):
            _unsaved_formulas(data, index, rows)
    return rows, names


def is_xlsx(data: bytes) -> bool:
    return data[:4] == b"PK\x03\x04"


def is_json(data: bytes) -> bool:
    """Whether ``data`` is a JSON document rather than a table: its first character past a byte-order mark and
    blanks opens an object or a list (a workbook is a zip archive, never this)."""
    return not is_xlsx(data) and data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"{", b"[")


def read_rows(
    data: bytes,
    name: str,
    required: Iterable[str | tuple[str, ...]] = (),
    aliases: dict[str, str] | None = None,
    sheet: str | None = None,
    max_bytes: int = MAX_TABLE_BYTES,
    max_rows: int = MAX_TABLE_ROWS,
    notes: list[str] | None = None,
) -> tuple[list[str], list[tuple[int, dict[str, Any]]]]:
    """The header keys and ``(row number, {key: cell})`` of a CSV or XLSX table.

    Row numbers are the file's (the header is row 1). ``aliases`` maps other
    header spellings (as :func:`header_key` gives them) to the key used;
    ``required`` keys must all be present (a tuple: one of its keys). Blank rows are skipped; a table with
    more than ``max_rows`` data rows is refused. A workbook of several sheets is read from its first (or
    ``sheet``): said in the error of a first sheet without the columns, and in ``notes`` when given."""
    check_size(data, name, max_bytes)
    # a JSON file read as a table said "missing column name, vcpus, ram_gb (columns found:
    # name_200_databases, ...)" (CLI review 2026-11-29): every table reader says what it is
    if is_json(data):
        raise TableError("a JSON file, not a table: give a CSV or XLSX file", name)
    if not is_xlsx(data) and str(name).lower().endswith((".xlsx", ".xlsm")):
        # a file named .xlsx that is no workbook was read as CSV: "missing column name ... (columns found:
        # not_a_zip_at_all)" (adversarial review 2026-11-30)
        raise TableError(
            "not an Excel workbook (an .xlsx file is a zip archive): save it from Excel again, or as CSV", name
        )
    sheets: list[str] = []
    if is_xlsx(data):
        rows, sheets = _xlsx_rows(data, name, sheet)
    else:
        rows = csv_rows(decode(data, name), name)
    # a workbook's other sheets are not read: said, so a list on its second sheet (a first sheet of notes) is
    # not "missing column name, ..." with no word of why (DBA walk 2026-11-30)
    first = sheet if sheet is not None else (sheets[0] if sheets else "")
    others = (
        f"only the {'first ' if sheet is None else ''}sheet, {shown(first)}, is read (the workbook's other "
        f"{'sheet' if len(sheets) == 2 else 'sheets'}: {', '.join(shown(x) for x in sheets if x != first)})"
        if len(sheets) > 1
        else ""
    )
    aliases = aliases or {}
    while rows and all(c is None or str(c).strip() == "" for c in rows[0]):
        rows.pop(0)
    if not rows:
        raise TableError("no header row", name)
    keys = [aliases.get(header_key(h), header_key(h)) for h in rows[0]]
    # every missing column at once, alternatives as "size_gb or size_tb" (the estate's said three of five)
    missing = [
        " or ".join(k) if isinstance(k, tuple) else k
        for k in required
        if (not any(x in keys for x in k) if isinstance(k, tuple) else k not in keys)
    ]
    if missing:
        raise TableError(
            f"missing column {', '.join(missing)} (columns found: {', '.join(k for k in keys if k) or 'none'})"
            + (f"; {others}: put the list first" if others else ""),
            name,
        )
    if others and notes is not None:
        notes.append(others)
    dup = sorted({k for k in keys if k and keys.count(k) > 1})
    if dup:
        raise TableError(f"column {dup[0]} appears twice", name)
    out: list[tuple[int, dict[str, Any]]] = []
    for i, row in enumerate(rows[1:], start=2):
        if all(c is None or str(c).strip() == "" for c in row):
            continue
        if len(out) >= max_rows:
            raise TableError(f"more than {max_rows:,} rows", name)
        cells = {}
        for k, c in zip(keys, row):
            if not k:
                continue
            if isinstance(c, str):
                c = c.strip()
                if len(c) > MAX_CELL_CHARS:
                    raise TableError(f"row {i}, column {k}: longer than {MAX_CELL_CHARS} characters", name)
            cells[k] = c
        out.append((i, cells))
    return keys, out


@overload
def number(
    cells: dict[str, Any],
    key: str,
    row: int,
    name: str,
    lo: float | None = None,
    hi: float | None = None,
    required: Literal[True] = True,
) -> float: ...
@overload
def number(
    cells: dict[str, Any],
    key: str,
    row: int,
    name: str,
    lo: float | None = None,
    hi: float | None = None,
    required: bool = True,
) -> float | None: ...
def number(
    cells: dict[str, Any],
    key: str,
    row: int,
    name: str,
    lo: float | None = None,
    hi: float | None = None,
    required: bool = True,
) -> float | None:
    """A cell as a finite number within ``lo``..``hi`` (thousands separators and a
    trailing % allowed); a one-line error naming the row and the column."""
    v = cells.get(key)
    if isinstance(v, Unsaved):
        raise TableError(v.said(row, key), name)
    if v is None or (isinstance(v, str) and v == ""):
        if required:
            raise TableError(f"row {row}, column {key}: empty", name)
        return None
    if isinstance(v, bool):
        raise TableError(f"row {row}, column {key}: not a number ({shown(v)})", name)
    if isinstance(v, (dt.date, dt.time, dt.timedelta)):
        # a workbook cell formatted as a date read "not a number (datetime.datetime(2020, 1, 1, 0, 0))" (hostile-input
        # walk): the number typed is there, shown as a date
        raise TableError(
            f"row {row}, column {key}: a date, not a number ({_date_said(v)}): format the cell as a number", name
        )
    if isinstance(v, (int, float)):
        x = float(v)
    else:
        raw = str(v).strip()
        if "," in raw and not _THOUSANDS.fullmatch(raw.replace("$", "").rstrip("%").strip()):
            # a comma that is no thousands separator is a decimal comma, or a typo: "1,5" read as 15 and
            # "2.500,75" as 2.50075 without a word (CLI review 2026-11-30)
            raise TableError(
                f"row {row}, column {key}: {shown(v, 40)} has a comma that is not a thousands separator; write "
                "decimals with a point (1.5) and thousands as 1,500 or 1500",
                name,
            )
        text = raw.replace(",", "").replace("_", "").replace("$", "").strip().rstrip("%").strip()
        x = (
            float(text)
            if len(text) <= 40 and re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d{1,3})?", text)
            else math.nan
        )
    if not math.isfinite(x):
        raise TableError(f"row {row}, column {key}: not a number ({shown(v, 40)})", name)
    if lo == 0 and hi is None and x < 0:
        # a counter or a price: "must be 0..1e+18 (got -5)" gave a bound nobody reads (DBA walk 2026-11-30)
        raise TableError(f"row {row}, column {key}: must not be negative (got {_said(x)})", name)
    if (lo is not None and x < lo) or (hi is not None and x > hi):
        bounds = (
            f"{_said(lo)}..{_said(hi)}"
            if lo is not None and hi is not None
            else (f">= {_said(lo)}" if lo is not None else f"<= {_said(hi)}" if hi is not None else "")
        )
        raise TableError(f"row {row}, column {key}: must be {bounds} (got {_said(x)})", name)
    return x


#: a number whose commas group thousands (1,500 and 12,345.67, not 1,5 or 2.500,75)
_THOUSANDS = re.compile(r"[+-]?\d{1,3}(,\d{3})+(\.\d*)?")


def _said(x: float) -> str:
    """A bound or a value as a person writes it: "10,000,000", "0.001" (``:g`` wrote "1e+07"; browser review
    2026-11-29); past what digits can show, in powers of ten."""
    if x == int(x) and abs(x) < 1e15:
        return f"{int(x):,}"
    return f"{x:,.6g}" if 1e-6 <= abs(x) < 1e15 else f"{x:.3g}"


@overload
def text(
    cells: dict[str, Any], key: str, row: int, name: str, required: Literal[True] = True, max_chars: int = 200
) -> str: ...
@overload
def text(
    cells: dict[str, Any], key: str, row: int, name: str, required: bool = True, max_chars: int = 200
) -> str | None: ...
def text(
    cells: dict[str, Any], key: str, row: int, name: str, required: bool = True, max_chars: int = 200
) -> str | None:
    v = cells.get(key)
    if isinstance(v, Unsaved):
        raise TableError(v.said(row, key), name)
    if v is None or str(v).strip() == "":
        if required:
            raise TableError(f"row {row}, column {key}: empty", name)
        return None
    s = " ".join(str(v).split())
    if len(s) > max_chars:
        raise TableError(f"row {row}, column {key}: longer than {max_chars} characters", name)
    return s
