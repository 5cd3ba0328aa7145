"""hciplan's Streamlit app: pages that show what :mod:`planner` computes (the UI computes no physics)."""

from __future__ import annotations

import importlib
import threading

#: the libraries the pages import on first use (tables, charts), and the pages' own modules
FIRST_IMPORTS = (
    "pandas",
    "pyarrow",
    "plotly.graph_objects",
    "plotly.io",
    "hciplan_ui.charts",
    "hciplan_ui.costs",
    "hciplan_ui.export",
    "hciplan_ui.import_panel",
    "planner.commercial.file_kinds",  # every kind of input file known to the messages
)
#: Streamlit's emoji catalogue, compiled into one regular expression (0.1-0.4 s) the first time a label, a
#: message or an icon has a character outside ASCII: a fresh server's first "Use this design" paid it
#: (cProfile, 2026-11-29). Imported off the page's thread once the first page has had time to draw; a
#: page that needs it sooner waits for that import (Python's import lock), no longer than before
LATE_IMPORTS = ("streamlit.emojis", "streamlit.material_icon_names")
LATE_IMPORT_DELAY_S = 3.0
_LOCK = threading.Lock()
_DONE = threading.Event()


def import_once() -> None:
    """Import :data:`FIRST_IMPORTS` once per server process, one thread at a time.

    Streamlit starts a rerun's script thread without waiting for the run it replaces (its fast
    reruns), and runs sessions side by side, so two threads could import pandas at once: one then
    met the other's half-initialised module ("partially initialized module 'pandas' has no attribute
    'Series'") and the Performance page stopped with a traceback, about one fresh browser in eight
    that went Design -> Capacity -> Performance quickly (tests/test_browser.py, 2026-11-29). Under
    one lock the first thread imports them and the others wait for it; afterwards this is a flag."""
    if _DONE.is_set():
        return
    with _LOCK:
        if not _DONE.is_set():
            for name in FIRST_IMPORTS:
                importlib.import_module(name)
            _DONE.set()
            late = threading.Timer(LATE_IMPORT_DELAY_S, lambda: [importlib.import_module(n) for n in LATE_IMPORTS])
            late.daemon = True
            late.start()
