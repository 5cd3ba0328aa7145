"""Which hciplan produced a document: every JSON report, proposal and export carries it."""

from __future__ import annotations

from typing import Any

from planner import __version__

#: the key every report and export carries
VERSION_KEY = "hciplan_version"


def stamp(doc: Any) -> Any:
    """``doc`` with ``hciplan_version`` first (a dict), each element stamped (a list of
    dicts), or unchanged (anything else)."""
    if isinstance(doc, dict):
        return {VERSION_KEY: __version__, **{k: v for k, v in doc.items() if k != VERSION_KEY}}
    if isinstance(doc, list):
        return [stamp(d) if isinstance(d, dict) else d for d in doc]
    return doc
