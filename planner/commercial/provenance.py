"""Where a price was seen, as a customer reads it.

The price list (``planner/data/prices.json``) and the licensing files keep each figure's whole
provenance in ``source`` (for the engineer: the research trail, index ids, notes); their
``seen_at`` / ``comparable_part`` / ``seen_date`` fields are its short form, and
:func:`seen_text` writes that form for the proposal and the app's SLA page. A module of its own
so that :mod:`planner.commercial.prices` and :mod:`planner.commercial.licensing` share it
without importing each other.
"""

from __future__ import annotations

#: the kinds as the short form of a price's origin says them (:func:`seen_text`)
KIND_SHORT = {"quoted": "your quote", "list": "list price", "street": "street price", "estimated": "estimate"}


def seen_text(kind: str | None, date: str | None, seen_at: str | None = None, comparable: str | None = None) -> str:
    """Where a price comes from as a customer reads it: its kind, date and the seller or
    publisher it was seen at ("street price, 2026-09-30, datacenterdisk.com"), and the
    comparable part when the price is another module's. Built from the price list's short
    ``seen_at`` / ``comparable_part`` fields (and the licence files' ``seen_at`` / ``seen_date``),
    never from ``source``: that keeps the research trail for the engineer (index ids, notes).
    The proposal's appendix and the app's SLA page both say a price's origin with this."""
    parts = [KIND_SHORT.get(kind, kind) if kind else "", date or "", seen_at or ""]
    s = ", ".join(x for x in parts if x)
    return s + (f" (comparable part: {comparable})" if comparable else "")
