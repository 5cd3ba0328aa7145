"""Prices the engineer can trust or replace: the dated price list, the
customer's own quotes and discounts, and where each price came from.

A part's price (:func:`part_price`) is, in order:

1. the customer's quote for that part (``CostAssumptions.part_prices_usd``): kind ``quoted``;
2. the catalog price less the customer's discount for its vendor
   (``CostAssumptions.vendor_discounts_pct``): kind ``quoted``;
3. the dated price list ``planner/data/prices.json`` (kind ``list``, ``street`` or
   ``estimated``, with its date and source); the catalog's ``list_price_usd`` holds
   the same figure (tested);
4. else the catalog's ``list_price_usd``: kind ``estimated`` when the record marks
   that price as estimated (most are recalled 2024-25 figures), else ``list``.

A quote file (:func:`read_quotes`) is a CSV or XLSX table with a ``part`` column
(a catalog id) or a ``vendor`` column, and ``price_usd`` or ``discount_pct``.
"""

from __future__ import annotations

import difflib
import json
from functools import lru_cache

from planner.commercial.provenance import seen_text
from planner.core.errors import PlannerError, shown
from planner.core.resources import data_path
from planner.core.tables import TableError, number, read_rows, text

PRICES_FILE = data_path("prices.json")
#: the kinds a price can be, as the document's appendix names them
KINDS = ("quoted", "list", "street", "estimated", "unpriced")
KIND_WORDS = {
    "quoted": "your quote or discount",
    "list": "list price",
    "street": "street price (a seller's advertised price)",
    "estimated": "estimate (no published price found)",
    "unpriced": "no price (a part the customer owns: its purchase is not counted)",
}
MAX_QUOTE_BYTES = 1_000_000
MAX_QUOTE_ROWS = 5_000


class QuoteError(PlannerError):
    pass


@lru_cache(maxsize=1)
def price_book() -> dict:
    """The dated price list: ``{"date_compiled", "description", "prices": {part id: entry}}``."""
    doc = json.loads(PRICES_FILE.read_text(encoding="utf-8"))
    return {
        "date_compiled": doc["date_compiled"],
        "description": doc["description"],
        "prices": {e["part"]: e for e in doc["prices"]},
    }


#: the customer form of RAM priced per GB (a design that names no DIMMs), one text for the BOM and the whole cost
RAM_PER_GB_SEEN = seen_text("estimated", None, "a price per GB of RAM")


def part_price(rec, a) -> dict:
    """A catalog part's unit price and where it comes from.

    Returns ``usd``, ``kind`` (one of :data:`KINDS`), ``date`` (ISO date or None),
    ``source`` (a sentence, the whole provenance), ``seen`` (its customer form,
    :func:`seen_text`), and ``date_note`` where there is no date. ``a`` is a
    :class:`planner.commercial.pricing.CostAssumptions`.
    """
    out = _part_price(rec, a)
    # a missing date says why (the README's rule for every null: "price_date": null stood alone; review 2026-11-29)
    if out["date"] is None:
        out["date_note"] = UNDATED[out["kind"]]
    return out


#: why a price has no date, by its kind
UNDATED = {
    "quoted": "your quote or discount: no date given",
    # a recalled catalog price is an estimate too, not one "from other figures" (presales walk 2026-11-30)
    "estimated": "an estimate (see its source), with no dated source",
    "list": "the catalog record's price, with no dated source",
    "street": "no date in its source",
    "unpriced": "no price",
}


def unpriced(rec) -> dict:
    """A part of a system the customer owns that has no price (a 2010 CPU, a stand-in device): its
    purchase is sunk, so the whole cost counts it at 0 and says so, instead of refusing the system
    (``cost --owned`` on the DL580 seeds stopped at "no list_price_usd"; CLI review 2026-11-29)."""
    return {
        "usd": 0.0,
        "kind": "unpriced",
        "date": None,
        "date_note": UNDATED["unpriced"],
        "source": f"no price for '{rec.id}' in the catalog or your quotes",
        "seen": "no price",
    }


def ram_per_gb_price(a, source: str, cpu=None) -> dict:
    """The price of RAM given per GB (a design that names no DIMMs), as :func:`part_price` gives a part's
    (:func:`planner.commercial.pricing.ram_usd_per_gb`); ``source`` says where the figure is used. One record for
    the BOM and the whole cost."""
    from planner.commercial.pricing import ram_usd_per_gb

    usd, basis = ram_usd_per_gb(a, cpu)
    return {
        "usd": usd,
        "kind": "quoted" if a.ram_usd_per_gb is not None else "estimated",  # a figure the user gave is theirs
        "date": None,
        "date_note": UNDATED["estimated"],
        "source": f"{source}: {basis}",
        "seen": RAM_PER_GB_SEEN,
    }


#: what a price rests on, as a customer checks it (:func:`price_status`): the workbook's Status column and the
#: proposal's appendix say each line's, and these words once
STATUS_WORDS = {
    "quoted": "your quote or discount",
    "dated": "a price published by a seller or maker, seen on the date given",
    "estimate": "worked out from other published prices, as its source says",
    "recalled": "an order of magnitude remembered from past prices, not confirmed by any published price",
    "undated": "a published price whose date is not known",
    "unpriced": "no price (a part the customer owns: its purchase is not counted)",
}


def price_status(kind: str, date: str | None, source: str) -> str:
    """What a price rests on (a key of :data:`STATUS_WORDS`): ``quoted``; ``dated``, a list or street price seen on
    a date; ``estimate``, worked out from other prices (the price list's estimates, dated or not); ``recalled``, a
    catalog record's figure its note calls recalled (most are 2024-25 figures, remembered, never confirmed:
    ``planner/data/prices.json``'s description); ``undated``, a list or street price without a date. The proposal
    said "estimate" alone of a server and its CPUs whose catalog notes read "recalled order of magnitude, not
    confirmed" (account-manager walk 2026-11-30).

    Parameters
    ----------
    kind : str
        The price's kind (:data:`KINDS`).
    date : str or None
        Its date (ISO), None when it has none.
    source : str
        Its whole provenance (:func:`part_price`'s ``source``).
    """
    if kind in ("quoted", "unpriced"):
        return kind
    if kind == "estimated":
        return "recalled" if date is None and "recall" in source.lower() else "estimate"
    return "dated" if date else "undated"


#: the catalog notes' words that speak of the planner's research, not of the price: left out of the customer form
_RESEARCH_ONLY = (" in stored sources",)


def estimate_seen(note: str) -> str:
    """A catalog record's estimated price as a customer reads where it comes from (:func:`seen_text` of its note,
    without the words on the planner's own research): "estimate, Intel recommended customer price at launch,
    recalled (ark), not confirmed". The customer read "estimate" alone (account-manager walk 2026-11-30)."""
    for words in _RESEARCH_ONLY:
        note = note.replace(words, "")
    return seen_text("estimated", None, note.strip())


def estimates_note(lines: list[dict]) -> str | None:
    """How much of a parts list rests on estimates and recalled figures, and the largest line when it is one, with
    what its price rests on (:func:`price_status`, ``price_seen``); None when every priced line is dated or quoted.
    A CIO read a $1,496,127 parts list priced with "estimate" beside 7 of its 8 lines, the DIMMs' $1,316,045 of it
    from one per-GB figure (account-manager walk 2026-11-30).

    Parameters
    ----------
    lines : list of dict
        Parts-list lines (``description``, ``total_usd`` [USD], ``price_status``, ``price_seen``).

    Returns
    -------
    str or None
        One or two sentences, figures in whole dollars.
    """
    from planner.core.text import count, pct

    priced = [x for x in lines if x["total_usd"] > 0]
    soft = [x for x in priced if x["price_status"] in ("estimate", "recalled")]
    whole = sum(x["total_usd"] for x in priced)
    if not soft or whole <= 0:
        return None
    soft_usd = sum(x["total_usd"] for x in soft)
    which = (
        f"All {count(len(priced), 'part line')} (${soft_usd:,.0f})"
        if len(soft) == len(priced)
        else f"{len(soft)} of the {count(len(priced), 'part line')}, ${soft_usd:,.0f} of the parts list's ${whole:,.0f},"
    )
    text = (
        f"{which} {'are' if len(soft) > 1 else 'is'} priced from estimates or recalled figures, not from a dated "
        "published price."
    )
    big = max(priced, key=lambda x: x["total_usd"])
    if big in soft:
        what = "an estimate" if big["price_status"] == "estimate" else "a recalled figure"
        how = big["price_seen"].removeprefix("estimate, ")
        if (date := big.get("price_date")) and how.startswith(f"{date}, "):
            what, how = f"{what} of {date}", how.removeprefix(f"{date}, ")
        text += (
            f" The largest line, {big['description']} (${big['total_usd']:,.0f}, {pct(big['total_usd'] / whole)} of "
            f"the parts list), rests on {what}: {how}."
        )
    return text


def price_fields(price: dict) -> dict:
    """A price (:func:`part_price`) as a parts-list line's ``price_*`` keys, with ``price_date_note``
    where it has no date, and ``price_status`` (:func:`price_status`): one rule for the BOM, the network and the
    whole cost's lines."""
    return {
        "price_kind": price["kind"],
        "price_date": price["date"],
        **({"price_date_note": price["date_note"]} if price["date"] is None else {}),
        "price_source": price["source"],
        "price_seen": price["seen"],
        "price_status": price_status(price["kind"], price["date"], price["source"]),
    }


def _part_price(rec, a) -> dict:
    from planner.commercial.pricing import part_price_usd

    usd = part_price_usd(rec, a)
    if rec.id in a.part_prices_usd:
        return {"usd": usd, "kind": "quoted", "date": None, "source": "your quote for this part", "seen": "your quote"}
    pct = a.vendor_discounts_pct.get(rec.vendor.lower())
    entry = price_book()["prices"].get(rec.id)
    if pct is not None:
        base = f"the {entry['kind']} price of {entry['date'] or 'an undated source'}" if entry else "the catalog price"
        source = f"{base} less your {pct:g} % {rec.vendor} discount"
        return {"usd": usd, "kind": "quoted", "date": None, "source": source, "seen": source}
    if entry is not None:
        date = entry.get("date")
        seen = seen_text(entry["kind"], date, entry.get("seen_at"), entry.get("comparable_part"))
        return {"usd": usd, "kind": entry["kind"], "date": date, "source": entry["source"], "seen": seen}
    how = rec.estimated.get("list_price_usd")
    if how:
        return {"usd": usd, "kind": "estimated", "date": None, "source": how, "seen": estimate_seen(how)}
    return {"usd": usd, "kind": "list", "date": None, "source": rec.source, "seen": seen_text("list", None)}


def _closest(name: str, ids) -> str:
    close = difflib.get_close_matches(name, list(ids), n=3, cutoff=0.5)
    return f"; closest: {', '.join(close)}" if close else ""


def read_quotes(data: bytes, name: str = "quotes.csv", catalog=None) -> dict:
    """The customer's quotes and discounts from a CSV or XLSX table.

    Columns: ``part`` (catalog id) or ``vendor``, and ``price_usd`` (a part's unit
    price) or ``discount_pct`` (0..95, off the price list, per part or per vendor);
    other columns (a note) are ignored. Returns ``{"part_prices_usd": {id: usd},
    "vendor_discounts_pct": {vendor (lower case): pct}}`` to merge into
    :class:`planner.commercial.pricing.CostAssumptions`. Errors are one line naming
    the file, row and column."""
    from planner.commercial.pricing import MAX_PART_PRICE_USD, part_price_usd
    from planner.models.catalog import load_catalog

    by_id, vendors = _catalog_keys(catalog or load_catalog())
    aliases = {
        "id": "part",
        "part_id": "part",
        "catalog_id": "part",
        "price": "price_usd",
        "unit_price_usd": "price_usd",
        "unit_price": "price_usd",
        "discount": "discount_pct",
        "discount_%": "discount_pct",
    }
    try:
        keys, rows = read_rows(data, name, aliases=aliases, max_bytes=MAX_QUOTE_BYTES, max_rows=MAX_QUOTE_ROWS)
    except TableError as exc:
        raise QuoteError(exc.message, name) from None
    if "part" not in keys and "vendor" not in keys:
        raise QuoteError("needs a part column (catalog id) or a vendor column", name)
    if "price_usd" not in keys and "discount_pct" not in keys:
        raise QuoteError("needs a price_usd column or a discount_pct column", name)
    prices: dict[str, float] = {}
    discounts: dict[str, float] = {}
    try:
        for i, cells in rows:
            part = text(cells, "part", i, name, required=False, max_chars=120) if "part" in keys else None
            vendor = text(cells, "vendor", i, name, required=False, max_chars=120) if "vendor" in keys else None
            price = (
                number(cells, "price_usd", i, name, 0, MAX_PART_PRICE_USD, required=False)
                if "price_usd" in keys
                else None
            )
            pct = number(cells, "discount_pct", i, name, 0, 95, required=False) if "discount_pct" in keys else None
            if (price is None) == (pct is None):
                raise QuoteError(f"row {i}: give price_usd or discount_pct (one of them)", name)
            if part:
                pid = part.lower()
                if pid not in by_id:
                    raise QuoteError(f"row {i}, column part: unknown part {shown(part)}{_closest(pid, by_id)}", name)
                if price is None:
                    assert pct is not None  # one of the two, checked above
                    price = part_price_usd(by_id[pid], _plain()) * (1 - pct / 100.0)
                if pid in prices:
                    raise QuoteError(f"row {i}, column part: {pid} is quoted twice", name)
                prices[pid] = price
            elif vendor:
                v = vendor.lower()
                if v not in vendors:
                    raise QuoteError(
                        f"row {i}, column vendor: no part of vendor {shown(vendor)} in the catalog{_closest(v, vendors)}",
                        name,
                    )
                if pct is None:
                    raise QuoteError(f"row {i}: a vendor row takes discount_pct, not price_usd", name)
                discounts[v] = pct
            else:
                raise QuoteError(f"row {i}: give a part or a vendor", name)
    except TableError as exc:
        raise QuoteError(exc.message, name) from None
    if not prices and not discounts:
        # a header alone (or rows of formulas without saved values) was "in use on every page: 0 part prices, 0
        # vendor discounts" (hostile-input walk 2026-11-30): a file that quotes nothing is not a quote
        raise QuoteError("no row gives a part's price or a vendor's discount", name)
    return {"part_prices_usd": prices, "vendor_discounts_pct": discounts}


def _catalog_keys(cat) -> tuple[dict, dict[str, str]]:
    """The catalog's parts by id and its vendors by lower-case name: what a quote or a cost assumption may name."""
    records = cat.all_records()
    return {r.id: r for r in records}, {r.vendor.lower(): r.vendor for r in records}


def check_cost_keys(a, catalog=None) -> None:
    """Refuse cost assumptions whose ``part_prices_usd`` name no catalog part or whose
    ``vendor_discounts_pct`` name no catalog vendor, with the closest names, as a quotes file's
    rows are: a mistyped id was ignored and the cost stayed at list price without a word (finance
    walk 2026-11-30: ``{"no-such-part": 0}`` and a discount for "Dell" changed nothing)."""
    from planner.models.catalog import load_catalog

    by_id, vendors = _catalog_keys(catalog or load_catalog())
    for pid in a.part_prices_usd:
        if pid not in by_id:
            raise QuoteError(f"unknown part {shown(pid)}{_closest(pid.lower(), by_id)}", f"part_prices_usd.{pid}")
    for v in a.vendor_discounts_pct:
        if v not in vendors:
            raise QuoteError(
                f"no part of vendor {shown(v)} in the catalog{_closest(v, vendors)}", f"vendor_discounts_pct.{v}"
            )


def _plain():
    from planner.commercial.pricing import CostAssumptions

    return CostAssumptions()


def with_quotes(a, quotes: dict):
    """``a`` with the quotes of :func:`read_quotes` merged in (the quotes win)."""
    return a.model_copy(
        update={
            "part_prices_usd": {**a.part_prices_usd, **quotes.get("part_prices_usd", {})},
            "vendor_discounts_pct": {**a.vendor_discounts_pct, **quotes.get("vendor_discounts_pct", {})},
        }
    )


def quotes_table(a) -> list[dict]:
    """The quotes and discounts of ``a`` as rows to write back (through
    :func:`planner.core.tables.write_csv`, formula-safe)."""
    rows = [{"part": k, "vendor": "", "price_usd": v, "discount_pct": ""} for k, v in sorted(a.part_prices_usd.items())]
    rows += [
        {"part": "", "vendor": k, "price_usd": "", "discount_pct": v} for k, v in sorted(a.vendor_discounts_pct.items())
    ]
    return rows
