"""Words in messages: one rule for a count and its noun ("1 node", "2 nodes")."""

from __future__ import annotations

import math
from typing import Any


def count(n: float, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1 ("cannot rebuild on 1 node", not "1 nodes").

    Parameters
    ----------
    n : int or float
        The count [-].
    noun : str
        The singular noun.
    plural : str, optional
        The plural when it is not ``noun + "s"``.
    """
    return f"{n:,} {plural_of(n, noun, plural)}"


def plural_of(n: float, noun: str, plural: str | None = None) -> str:
    """``noun`` as a count of ``n`` takes it, without the count: "column" for 1, "columns" otherwise
    (a list after it: "missing required columns read_fraction, iops")."""
    return noun if n == 1 else (plural or noun + "s")


def first_upper(text: str) -> str:
    """``text`` with its first letter in upper case and the rest as it is (``str.capitalize``
    lowers the rest: "N+1" and "IOPS" inside a sentence). A word spelt in mixed case stays as it is:
    "vSAN", "vCPUs", "iSCSI" (a vSAN note began "VSAN:", browser review 2026-11-29)."""
    if text[1:2].isupper():
        return text
    return text[:1].upper() + text[1:]


def first_lower(text: str) -> str:
    """``text`` with its first letter in lower case, inside a sentence; a word spelt in upper or mixed case stays as
    it is ("VM latency", "IOPS"): "Read latency (VM)" reads "read latency (VM)", not "read latency (vm)"."""
    if text[1:2].isupper():
        return text
    return text[:1].lower() + text[1:]


def sentence(text: str) -> str:
    """``text`` as a sentence on its own: first letter in upper case (:func:`first_upper`) and a full
    stop unless it already ends in one (a model's note is a clause: "uplinks ... are not counted")."""
    text = first_upper(text.strip())
    return text if not text or text[-1] in ".!?" else text + "."


def and_list(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c': a list as a sentence says it."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1] if items else ""


def tidy(x: float, digits: int = 1) -> str:
    """``x`` with thousands separators and at most ``digits`` decimals, none when it is whole: a count of
    whole things read "240.0 of 512 vCPUs per node" and "80.0 databases per node" (browser review
    2026-11-29); "80", "80.5", "1,234.5"."""
    s = f"{x:,.{digits}f}"
    return s.rstrip("0").rstrip(".") if "." in s else s


def tb_words(capacity_tb: float) -> str:
    """A capacity [TB] as every sentence gives it: to the hundredth of a TB, the proposal's and the workbook's
    precision for capacity ("50.95 TB" in the Capacity section beside "50.9 TB" in the demand table of the same
    document; customer-engineer walk 2026-12-01). One rule for the sizing rules' reasons, the verdict and the
    proposal."""
    return f"{capacity_tb:,.2f} TB"


def times(x: float) -> str:
    """A ratio as "room to grow" says it ("1.78x", "45x"): two decimals below 10, where 1.01x and 1.08x differ in
    what they mean, two significant figures from 10 up ("room to grow 45.05x" claimed a precision the model has
    not; account-manager walk 2026-11-30). One rule for the proposal and the pages.

    Parameters
    ----------
    x : float
        The ratio [-].
    """
    if abs(x) < 10 - 0.005:  # 9.996 reads 10x, not "10.00x"
        return f"{x:.2f}x"
    return f"{float(f'{x:.2g}'):,.0f}x"


def auto_decimals(x: float) -> int:
    """The decimals that suit a figure's size: three significant figures below 100, whole numbers above (at most
    three decimals) [-]. One rule for the pages' figures (``hciplan_ui.fmt.num``) and the library's sentences
    ("64.000 ms" of a wait read as false precision)."""
    a = abs(x)
    return 0 if a >= 100 or a == 0 else 1 if a >= 10 else 2 if a >= 1 else 3


def cut(x: float, decimals: int = 1) -> float:
    """``x`` cut short to ``decimals`` decimals, not rounded: a life said short of a limit never reads as the
    limit ("run out in 3.0 years ... before the 3 years" of 2.96 years; architect review 2026-11-30). One rule
    for the endurance warning, the sizer's endurance rule and the pages' drive life."""
    return math.floor(x * 10.0**decimals) / 10.0**decimals


def adding_up(values: list[float], digits: int = 2) -> list[float]:
    """``values`` each rounded to ``digits`` decimals so that they add up to their exact sum rounded to ``digits``
    [the values' unit]: each is cut short, and the units the cutting loses go to the largest remainders (the
    largest-remainder method). A column of money then sums to its total, and the total is the one figure every
    format gives: the workbook's cost lines, each rounded alone, summed to $72,734.04 under a Summary sheet's
    $72,734.05 (account-manager walk 2026-11-30). Each value moves by less than one unit of ``digits``.

    Parameters
    ----------
    values : list of float
        The exact parts of a total [any unit].
    digits : int
        The decimals each part and their total are given to [-].

    Returns
    -------
    list of float
        The parts rounded, in the order given; ``round(sum(values), digits)`` is their sum.

    References
    ----------
    Balinski, M. L. and Young, H. P., *Fair Representation* (2nd ed., Brookings, 2001), Hamilton's method.
    """
    scale = 10.0**digits
    scaled = [float(v) * scale for v in values]
    # a figure already whole in these units (1.15 x 100 = 114.99999999999999) stays whole
    floors = [math.floor(round(s, 6)) for s in scaled]
    short = max(0, min(len(values), round(sum(scaled)) - sum(floors)))
    up = set(sorted(range(len(values)), key=lambda i: scaled[i] - floors[i], reverse=True)[:short])
    return [(f + (i in up)) / scale for i, f in enumerate(floors)]


def decimals_apart(a: float, b: float, digits: int = 2, most: int = 6) -> int:
    """The fewest decimals, at least ``digits`` and at most ``most``, at which ``a`` and ``b`` read
    differently [-]: two figures compared never read as equal unless they are ("3 databases of 3.00 TB
    (9.00 TB) do not fit in the storage's usable 9.00 TB" of 8.997 TB; DBA walk 2026-11-30).

    Parameters
    ----------
    a, b : float
        The two figures compared, in one unit.
    digits : int
        The decimals shown when they already differ at them [-].
    most : int
        The most decimals shown: figures equal to that many read equal [-].
    """
    for n in range(digits, most):
        if f"{a:.{n}f}" != f"{b:.{n}f}":
            return n
    return most


def used_share(x: float) -> str:
    """A share of a resource in use ('49 %'), or any share a reader compares with a whole (a buffer pool's hit
    ratio beside its misses), with the digits it takes never to read 100 % unless it is exactly full: "Does not
    fit: storage capacity 100 %" was 9.0 TB of 8.997 TB (UI review 2026-11-29); "buffer-pool hit 100%" stood
    beside 491 page reads a second (DBA walk 2026-11-30). One rule for the pages and the documents.

    Parameters
    ----------
    x : float
        The share [-] (1.0 is 100 %), finite.
    """
    if x == 1.0:
        return "100 %"
    # the digits that tell it from 100 % (decimals_apart, the library's rule for two figures compared)
    digits = decimals_apart(x * 100, 100.0, digits=0, most=4)
    return f"{x * 100:,.{digits}f} %" if digits < 4 else ("just over" if x > 1 else "just under") + " 100 %"


#: the bidirectional embedding, override and isolate controls (Unicode's Bidi_Control, less the marks LRM/RLM/ALM):
#: a tier named "\u202eevil" printed the rest of a document's sentence reversed (hostile-input walk 2026-11-30)
BIDI_CONTROLS = dict.fromkeys([*range(0x202A, 0x202F), *range(0x2066, 0x206A)])


def without_bidi_controls(obj: Any) -> Any:
    """``obj`` with :data:`BIDI_CONTROLS` dropped from every string in it (dicts, lists and tuples walked; other
    values as they are): the text a document or a page prints reads in the order it is stored."""
    if isinstance(obj, str):
        return obj.translate(BIDI_CONTROLS)
    if isinstance(obj, dict):
        return {without_bidi_controls(k): without_bidi_controls(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(without_bidi_controls(v) for v in obj)
    return obj


#: the space between a figure and its "%": an ordinary space. The proposal template's ``units_together`` already
#: glues every number to its unit with a no-break space; a no-break space here reached the CLI's JSON notes as
#: "\\u00a0" (ASCII-escaped), so the sentences the library shares with the JSON keep a plain one (stop 55 merge)
PCT_SPACE = " "


def pct(share: float, digits: int = 0, sign: bool = False) -> str:
    """A share (0.25) as a percentage, "25 %", with :data:`PCT_SPACE` before the "%": one rule for the documents,
    the library's sentences and the pages (the proposal wrote "23%", "70% fill" and "40% margin" beside
    "-27 % to +37 %" and "20 % growth"; customer-engineer walk 2026-12-01).

    Parameters
    ----------
    share : float
        The share [-] (1.0 is 100 %).
    digits : int
        The decimals of the percentage [-].
    sign : bool
        Write the sign of a change ("+37 %", "-27 %").
    """
    return f"{share * 100:{'+' if sign else ''},.{digits}f}{PCT_SPACE}%"
