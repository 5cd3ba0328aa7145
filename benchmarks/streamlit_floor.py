"""What Streamlit's own frontend costs per rerun on this machine, without the app.

The issue-26 targets (a what-if or page switch settled in 300 ms at p95) are measured by
:mod:`browser` on the whole app. This script measures the floor under them: a throwaway
Streamlit app (written to a temporary directory, the repository's ``.streamlit/config.toml``
copied beside it) with one number input and one metric, plus ``N`` elements of one kind, driven
by the same chromium, timer and selectors as :mod:`browser` (from a key press to the page
settled: script state ``notRunning``, nothing stale, no DOM change for 400 ms, timed to the last
change). Each kind runs on a fresh server: a number typed and Enter pressed ``--repeats`` times.

Prints one line per kind::

    kind=NAME n=N median_ms=X p95_ms=Y per_element_ms=Z

``per_element_ms`` is (median - the bare page's median) / N. Together with a page's element count
(``AppTest``) it says what a page costs the browser before any of the app's own work, and so
whether a target is reachable by the app's code at all. Asserts nothing; the tests never run it.

Usage: nice -n 10 python benchmarks/streamlit_floor.py [--repeats 20]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from browser import ARGS, CHROMIUM, OBSERVE, TIMEOUT_MS, Timer, pct95, served_app, settle, type_enter  # noqa: E402

#: the page: ``FLOOR_KIND`` and ``FLOOR_N`` come from the server's environment; every element shows
#: the input's value (so each rerun changes it, as a what-if changes the figures)
APP = """
import os
import streamlit as st

KIND, N = os.environ["FLOOR_KIND"], int(os.environ["FLOOR_N"])
v = st.number_input("Nodes", 2, 16, 4, key="nodes")
st.metric("VM latency", f"{v * 0.1:.3f} ms")
for i in range(N):
    if KIND == "caption":
        st.caption(f"line {i}: {v * i}")
    elif KIND == "markdown":
        st.markdown(f"line {i}: **{v * i}**")
    elif KIND == "html":
        st.html(f"<p>line {i}: <b>{v * i}</b></p>")
    elif KIND == "text":
        st.text(f"line {i}: {v * i}")
    elif KIND == "table":  # 10 rows of 9 columns, as the app's tier and part tables
        st.table([{f"column {c}": f"{v * i * c:,}" for c in range(9)} for _ in range(10)], hide_index=True)
    elif KIND == "markdown_table":  # the same table as one markdown element
        nl = chr(10)
        head = "| " + " | ".join(f"column {c}" for c in range(9)) + " |" + nl + "|" + "---|" * 9 + nl
        st.markdown(head + "".join("| " + " | ".join(f"{v * i * c:,}" for c in range(9)) + " |" + nl for _ in range(10)))
    elif KIND == "metric":
        st.metric(f"figure {i}", f"{v * i:,}")
    elif KIND == "metric_in_column":
        st.columns(1)[0].metric(f"figure {i}", f"{v * i:,}")
    elif KIND == "number_input":
        st.number_input(f"input {i}", 0, 100, 5, key=f"n{i}")
    elif KIND == "selectbox":
        st.selectbox(f"choice {i}", ["a", "b", "c"], key=f"s{i}")
    elif KIND == "empty":
        st.empty()
    elif KIND in ("plotly_no_modebar", "plotly_static"):  # the same chart without plotly's modebar / static
        import plotly.graph_objects as go

        fig = go.Figure(go.Scatter(x=list(range(40)), y=[(v + j) ** 0.5 for j in range(40)]))
        fig.add_bar(x=["a", "b", "c"], y=[v, 2, 3])
        fig.update_layout(height=320, title=f"chart {i}")
        cfg = {"displayModeBar": False} if KIND == "plotly_no_modebar" else {"staticPlot": True}
        st.plotly_chart(fig, key=f"p{i}", theme=None, config=cfg)
    elif KIND == "plotly":
        import plotly.graph_objects as go

        fig = go.Figure(go.Scatter(x=list(range(40)), y=[(v + j) ** 0.5 for j in range(40)]))
        fig.add_bar(x=["a", "b", "c"], y=[v, 2, 3])
        fig.update_layout(height=320, title=f"chart {i}")
        st.plotly_chart(fig, key=f"p{i}", theme=None)
    elif KIND == "vega_lite":
        rows = [{"x": j, "y": (v + j) ** 0.5} for j in range(40)]
        st.vega_lite_chart(
            {"height": 280, "title": f"chart {i}", "data": {"values": rows}, "mark": "line",
             "encoding": {"x": {"field": "x", "type": "quantitative"}, "y": {"field": "y", "type": "quantitative"}}},
            key=f"v{i}",
        )
"""

#: (kind, elements): the bare page first (the floor every per-element figure is taken from)
CASES = [
    ("bare", 0),
    ("empty", 60),
    ("caption", 100),
    ("markdown", 100),
    ("html", 100),
    ("text", 100),
    ("metric", 50),
    ("table", 5),
    ("markdown_table", 5),
    ("metric_in_column", 50),
    ("number_input", 30),
    ("selectbox", 30),
    ("plotly", 3),
    ("plotly_no_modebar", 3),
    ("plotly_static", 3),
    ("vega_lite", 3),
]


def run_case(app_dir: Path, kind: str, n: int, repeats: int, browser) -> list[float]:
    os.environ["FLOOR_KIND"], os.environ["FLOOR_N"] = kind, str(n)
    timer = Timer()
    with served_app(app_dir) as (url, _):
        ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
        ctx.add_init_script(OBSERVE)
        page = ctx.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(url)
        page.get_by_label("Nodes", exact=True).wait_for()
        settle(page)
        for i in range(repeats):
            box = page.locator(".st-key-nodes input").first
            timer(page, "whatif", type_enter(box, 6 - i % 2 * 2))
            settle(page)
        ctx.close()
    return timer.times["whatif"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=20, help="what-ifs per kind")
    ap.add_argument(
        "--kinds", default="", help="comma-separated kinds to run (default: all); the bare page always runs"
    )
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright

    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        app_dir = Path(tmp)
        (app_dir / "app.py").write_text(APP)
        shutil.copytree(ROOT / ".streamlit", app_dir / ".streamlit")
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        bare = None
        wanted = set(filter(None, a.kinds.split(",")))
        for kind, n in CASES:
            if wanted and kind != "bare" and kind not in wanted:
                continue
            v = run_case(app_dir, kind, n, a.repeats, browser)
            med = statistics.median(v)
            bare = med if bare is None else bare
            per = f"{(med - bare) / n:.2f}" if n else "-"
            print(f"kind={kind} n={n} median_ms={med:.0f} p95_ms={pct95(v):.0f} per_element_ms={per}", flush=True)
        browser.close()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
