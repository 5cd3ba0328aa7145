"""A whole sales call in a real browser, timed per action.

Starts its own app server (``streamlit run app.py`` on a free local port, as
:mod:`browser_whatif` does) and drives Debian's chromium through playwright the
way a pre-sales engineer does on a call: open the app, size the demand of 200
databases (the Size page's default tier counts, as
``examples/demand-200dbs-azure-local.json``), use the cheapest design, SLA
what-ifs, a Design what-if, a Performance what-if, the Compare page's what-if,
page switches, the proposal (``proposal_open``: its section opened, then
``proposal``: prepared), the Calibration page. ``page_switch`` counts each page's first visit in the
session; ``page_switch_again`` the same five pages visited once more (their code and the server's
caches warm), reported apart. It repeats the call
``--repeats`` times, each in a new browser session; each repetition sizes a
demand of its own (one more Standard database) so that ``size_first`` is never
served from a cache, and ``size_again`` presses "Size it" again on the same demand.

An action's time runs from the click or key press (as the page's own listener
sees it; for an upload, from the moment the file is handed to the page) to the
page settled: the app's script state back to ``notRunning``, nothing stale
(Streamlit's status widget idle), the element that shows the action's result
present, and no change of what the page shows (the DOM inside the frontend's
root, charts included) for ``QUIET_MS``; the time is that of the last change.
Changes outside the root (styles added to the document's head, a library's
hidden measuring element) are not counted: they show nothing. ``first_page`` runs from the navigation's start to the
first page settled (``first_page_cold`` is the first session on the fresh
server, which imports the library). Ends with one line per action::

    action=NAME median_ms=X p95_ms=Y n=N

then a ``detail=page_switch_to_PAGE median_ms=X max_ms=Y n=N`` line per page switched to.

Prints figures, asserts nothing; the test suite never runs it. The selectors
are in one table, :data:`SEL`, below (widget keys first: a label may change).

Usage: nice -n 10 python benchmarks/browser.py [--repeats 3] [--root DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from browser_whatif import ARGS, CHROMIUM, served_app  # noqa: E402  (the same server start and chromium)

QUIET_MS = 400
TIMEOUT_MS = 120_000

# Every widget the scenario touches: (Streamlit key, label as a fallback). A key is
# the widget's container class ``st-key-<key>``; the label is looked up when the key
# is gone (a renamed widget on another branch).
SEL = {
    "size_link": (None, "Size a cluster"),
    "design_link": (None, "Design"),
    "performance_link": (None, "Performance"),
    "sla_link": (None, "SLA & tiers"),
    "compare_link": (None, "Compare / what-if"),
    "calibration_link": (None, "Calibration"),
    "size_standard": ("size_Standard", "Standard DBs"),
    "size_it": (None, "Size it"),
    "size_result": (None, "Whole cost/month"),
    "use_design": ("size_use_best", "Use this design (with the demand's workload)"),
    "use_done": (None, "as the current design"),
    "proposal_open": ("size_files", "Proposal for the customer"),
    "proposal": ("size_prepare", "Prepare the proposal"),
    "proposal_ready": ("size_proposal_html", "Proposal (HTML)"),
    "proposal_pdf": ("size_pdf", "Proposal (PDF)"),
    "sla_n1": ("sla_n1", "Plan for N+1 (one node down)"),
    "sla_target": ("sla_target", "Latency target, ms"),
    "sla_result": (None, "Guaranteed IOPS per DB"),
    "design_nodes": ("d_nodes", "Nodes"),
    "design_result": (None, "VM latency"),
    "start_result": (None, "What does the customer want to know?"),
    "perf_degraded": ("p_degraded", "Degraded mode (one node down)"),
    "perf_result": (None, "p99 read latency (VM)"),
    "cmp_nodes": ("wi_nodes", "Nodes"),
    "cmp_result": (None, "Which input matters most"),
    "calibration_result": (None, "Calibration"),
}

# installed at the start of every document (an init script), so a first load is observed too
OBSERVE = """(() => {
  window.__last = 0; window.__t0 = 0; window.__armed = false;
  // changes to what the page shows: inside the frontend's root (#root). Not the <head> or the body's
  // own children: plotly's global style and its hidden font probe, added when the chart code the app
  // preloads once the first page is idle (hciplan_ui.chrome.preload_frontend) is evaluated, changed
  // nothing on screen and put first_page at 2.4-3.0 s where its content had settled at 1.1-1.8 s
  new MutationObserver(ms => { if (ms.some(m => { const r = document.getElementById('root');
      return r && r.contains(m.target); })) window.__last = performance.now(); })
    .observe(document, {attributes: true, childList: true, subtree: true, characterData: true});
  const mark = e => { if (window.__armed && (e.type === 'mousedown' || e.key === 'Enter')) {
    window.__t0 = performance.now(); window.__armed = false; } };
  document.addEventListener('keydown', mark, true);
  document.addEventListener('mousedown', mark, true);
})();"""
# t0 before the action (the fallback when no press marks it: an upload, a navigation)
START = "() => { window.__armed = true; window.__t0 = performance.now(); window.__last = 0; }"
SETTLED = """([quiet, text]) => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || window.__last <= window.__t0) return false;
  if (app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (document.querySelector('[data-stale="true"]')) return false;
  if (text && !document.querySelector('[data-testid="stMain"]').innerText.includes(text)) return false;
  if (!quiet) return Math.max(window.__last, window.__t0 + 1) - window.__t0;
  return performance.now() - window.__last > quiet ? window.__last - window.__t0 : false;
}"""
IDLE = """() => { const a = document.querySelector('[data-testid="stApp"]');
  return a && a.getAttribute('data-test-script-state') === 'notRunning'
    && !document.querySelector('[data-stale="true"]'); }"""


def widget(page, name: str, part: str = "input"):
    """The widget of :data:`SEL`'s ``name``: by key when the page has it, else by label.
    ``part``: "input" (a number or text box), "button", "label" (a toggle: its label is what a
    person clicks) or "summary" (a section's header)."""
    key, label = SEL[name]
    if key:
        loc = page.locator(f".st-key-{key}")
        if loc.count():
            return loc.locator(part).first
    if part == "button":
        return page.get_by_role("button", name=label).first
    if part == "label":
        return page.locator("label").filter(has_text=label).first
    if part == "summary":
        return page.locator("summary").filter(has_text=label).first
    return page.get_by_label(label, exact=True).first


def link(page, name: str):
    return page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=SEL[name][1], exact=True).first


def settle(page) -> None:
    page.wait_for_timeout(150)
    page.wait_for_function(IDLE, timeout=TIMEOUT_MS, polling=100)
    page.wait_for_timeout(QUIET_MS)


class Timer:
    def __init__(self) -> None:
        self.times: dict[str, list[float]] = {}
        self.details: dict[str, list[float]] = {}  # page_switch by the page it went to

    def __call__(
        self, page, name: str, action, expect: str | None = None, quiet: int = QUIET_MS, detail: str | None = None
    ) -> float:
        """Run ``action`` and record the time to the page settled (with ``expect``'s text shown);
        ``quiet=0``: to the first moment the text is shown and no script runs (a page that keeps
        polling, as the proposal's while its PDF prints, is never quiet)."""
        text = SEL[expect][1] if expect else None
        page.evaluate(START)
        if action is not None:
            action()
        try:
            ms = page.wait_for_function(SETTLED, arg=[quiet, text], polling="raf", timeout=TIMEOUT_MS).json_value()
        except Exception:
            print(f"{name}: the page never settled", file=sys.stderr)
            raise
        self.times.setdefault(name, []).append(ms)
        if detail:
            self.details.setdefault(f"{name}_to_{detail}", []).append(ms)
        return ms


def first_load(page, url: str, timer: Timer, name: str) -> None:
    """Navigation start (``performance.now()`` counts from it) to the first page (the start
    page, at ``/``) settled, its question shown."""
    page.goto(url)
    ms = page.wait_for_function(
        SETTLED, arg=[QUIET_MS, SEL["start_result"][1]], polling="raf", timeout=TIMEOUT_MS
    ).json_value()
    timer.times.setdefault(name, []).append(ms)


def type_enter(box, value):
    def act():
        box.fill(str(value))
        box.press("Enter")

    return act


def call(browser, url: str, timer: Timer, i: int) -> None:
    """One sales call in a new browser session."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
    ctx.add_init_script(OBSERVE)
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    first_load(page, url, timer, "first_page_cold" if i == 0 else "first_page")
    settle(page)

    # --- size the demand: a demand of its own each time, so the first run is never a cache hit
    timer(page, "page_switch", link(page, "size_link").click, "size_it", detail="size")
    box = widget(page, "size_standard")
    box.fill(str(120 + i))
    box.press("Tab")
    settle(page)
    timer(page, "size_first", widget(page, "size_it", "button").click, "size_result")
    settle(page)
    timer(page, "size_again", widget(page, "size_it", "button").click, "size_result")
    settle(page)
    timer(page, "use_design", widget(page, "use_design", "button").click, "use_done")
    settle(page)
    # the proposal's section is closed until opened (its fields and buttons are not drawn on each sizing)
    timer(page, "proposal_open", widget(page, "proposal_open", "summary").click, "proposal")
    settle(page)
    # the HTML is offered at once; the PDF (chromium, seconds) follows: both are timed from the click
    t0 = page.evaluate("() => performance.now()")
    timer(page, "proposal", widget(page, "proposal", "button").click, "proposal_ready", quiet=0)
    page.wait_for_function(SETTLED, arg=[QUIET_MS, SEL["proposal_pdf"][1]], polling="raf", timeout=TIMEOUT_MS)
    timer.times.setdefault("proposal_pdf", []).append(page.evaluate("() => window.__last") - t0)
    settle(page)

    # --- SLA what-ifs: N+1 on and off, two latency targets
    timer(page, "page_switch", link(page, "sla_link").click, "sla_result", detail="sla")
    settle(page)
    for k in range(2):
        timer(page, "sla_whatif", widget(page, "sla_n1", "label").click, "sla_result")
        settle(page)
        timer(page, "sla_whatif", type_enter(widget(page, "sla_target"), ("0.800", "1.000")[k]), "sla_result")
        settle(page)

    # --- Design what-ifs: the node count down and back
    timer(page, "page_switch", link(page, "design_link").click, "design_result", detail="design")
    settle(page)
    nodes = widget(page, "design_nodes")
    now = int(nodes.input_value())
    for v in (max(now - 1, 2), now, now + 1, now):
        timer(page, "design_whatif", type_enter(widget(page, "design_nodes"), v), "design_result")
        settle(page)

    # --- Performance what-if: one node down and back
    timer(page, "page_switch", link(page, "performance_link").click, "perf_result", detail="performance")
    settle(page)
    for _ in range(4):
        timer(page, "performance_whatif", widget(page, "perf_degraded", "label").click, "perf_result")
        settle(page)

    # --- Compare: the what-if variant's node count
    timer(page, "page_switch", link(page, "compare_link").click, "cmp_result", detail="compare")
    settle(page)
    wi = widget(page, "cmp_nodes")
    now = int(wi.input_value())
    for v in (now + 1, now, now + 2, now):
        timer(page, "compare_whatif", type_enter(widget(page, "cmp_nodes"), v), "cmp_result")
        settle(page)

    # --- back to the Size page (its result kept), and the Calibration page
    timer(page, "page_switch", link(page, "size_link").click, "size_result", detail="size_sized")
    settle(page)
    # --- the same pages again: a page's second visit in the session (its code and the server's caches
    # warm), apart from the first visits above, which are what page_switch counts
    for name, expect in (
        ("sla_link", "sla_result"),
        ("design_link", "design_result"),
        ("performance_link", "perf_result"),
        ("compare_link", "cmp_result"),
        ("size_link", "size_result"),
    ):
        timer(page, "page_switch_again", link(page, name).click, expect)
        settle(page)
    timer(page, "calibration_page", link(page, "calibration_link").click, "calibration_result")
    settle(page)
    ctx.close()


def pct95(v: list[float]) -> float:
    s = sorted(v)
    return s[min(len(s) - 1, round(0.95 * (len(s) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3, help="sales calls, each in a new session")
    ap.add_argument("--root", default=str(ROOT), help="app checkout to run (for before/after)")
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright

    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    timer = Timer()
    t0 = time.monotonic()
    with served_app(Path(a.root)) as (url, _), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for i in range(a.repeats):
            call(browser, url, timer, i)
        browser.close()
    print(
        f"{a.repeats} calls in {time.monotonic() - t0:.0f} s; load average after: "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    for name, v in timer.times.items():
        print(f"action={name} median_ms={statistics.median(v):.0f} p95_ms={pct95(v):.0f} n={len(v)}")
    for name, v in timer.details.items():
        print(f"detail={name} median_ms={statistics.median(v):.0f} max_ms={max(v):.0f} n={len(v)}")


if __name__ == "__main__":
    main()
