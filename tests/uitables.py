"""The app's tables as AppTest sees them: data grids (``st.dataframe``) and the static tables, which
the app draws as one markdown table each (:func:`hciplan_ui.fmt.table`). Each has a ``value``, a
DataFrame of the cells as shown (markdown escapes undone)."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pandas as pd

from hciplan_ui.fmt import WORD_JOINER

_PIPE = re.compile(r"(?<!\\)\|")
_ESCAPE = re.compile(r"\\(.)")


def _cells(line: str) -> list[str]:
    parts = _PIPE.split(line.strip())[1:-1]
    return [_ESCAPE.sub(r"\1", p.strip()).replace(WORD_JOINER, "") for p in parts]


def parse(text: str) -> pd.DataFrame | None:
    """A markdown table (a header, its rule, rows) as a DataFrame of strings; None for other markdown."""
    lines = text.strip().split("\n")
    if len(lines) < 2 or not lines[0].startswith("|") or not re.fullmatch(r"\|(?:\s*-+:?\s*\|)+", lines[1]):
        return None
    return pd.DataFrame([_cells(x) for x in lines[2:]], columns=_cells(lines[0]), dtype=object)


def tables(at) -> list:
    """Every table on the page: the grids, then the markdown tables, each with ``.value``."""
    out: list = [*at.dataframe]
    for m in at.markdown:
        df = parse(str(m.value))
        if df is not None:
            out.append(SimpleNamespace(value=df, proto=None))  # proto: as a grid has (no editing mode)
    return out
