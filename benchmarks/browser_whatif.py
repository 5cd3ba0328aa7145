"""What-if latency in a real browser: key press to settled page.

Starts the app (``streamlit run app.py``, with the repo's .streamlit/config.toml)
and drives Debian's chromium with playwright: on the Design page it changes,
one at a time, the node count (type, Enter), the capacity drive and the
transport; on the Performance page the workload. Each change is timed in the
page, from the key press (the Enter, or the mouse press, as the page's own
listener sees it) to the last DOM change of the rerun it started; the page counts as settled once the app's ``data-test-script-state``
is ``notRunning``, no element is ``data-stale`` and nothing has changed for
400 ms (charts included). Median and p95 per change; prints figures, asserts
nothing. ``--root`` runs another checkout of the app (before/after).

Usage: python benchmarks/browser_whatif.py [--repeats N] [--root DIR]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

# the scripts' server start: the app of any checkout on a free port, its stderr never an unread pipe
from screenshots import served_app  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

# Every DOM change is time-stamped; the page has settled when a script run
# started after the press has finished (the app's script state is back to
# notRunning, nothing stale) and nothing has changed for QUIET_MS. The what-if
# took until the last change (React can batch a short run so that the state
# attribute never visibly leaves notRunning: the DOM changes are the signal).
QUIET_MS = 400
OBSERVE = """() => {
  window.__last = 0;
  new MutationObserver(() => { window.__last = performance.now(); })
    .observe(document, {attributes: true, childList: true, subtree: true, characterData: true});
  // the press itself, as the page sees it (not the automation's own steps before it)
  const mark = e => { if (window.__armed && (e.type === 'mousedown' || e.key === 'Enter')) {
    window.__t0 = performance.now(); window.__armed = false; } };
  document.addEventListener('keydown', mark, true);
  document.addEventListener('mousedown', mark, true);
}"""
START = "() => { window.__armed = true; window.__t0 = null; window.__last = 0; }"
SETTLED = """(quiet) => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (window.__t0 === null || window.__last <= window.__t0) return false;
  if (app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (document.querySelector('[data-stale="true"]')) return false;
  return performance.now() - window.__last > quiet ? window.__last - window.__t0 : false;
}"""
STATE = "() => JSON.stringify([window.__t0, window.__last])"


def _timed(page, action) -> float:
    page.evaluate(START)
    action()
    try:
        return page.wait_for_function(SETTLED, arg=QUIET_MS, polling="raf", timeout=20_000).json_value()
    except Exception:
        print("page never settled: [press, last change] =", page.evaluate(STATE))
        raise


def _settle(page) -> None:
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"stApp\"]')"
        ".getAttribute('data-test-script-state') === 'notRunning' "
        "&& !document.querySelector('[data-stale=\"true\"]')",
        timeout=60_000,
    )
    page.wait_for_timeout(300)  # let charts finish their first draw before the next change


def run(root: Path = ROOT, repeats: int = 8) -> dict:
    from playwright.sync_api import sync_playwright

    times: dict[str, list[float]] = {}
    with served_app(root) as (url, _), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(60_000)
        page.goto(f"{url}/design")  # "/" is the start page since it landed
        page.get_by_label("Nodes", exact=True).wait_for()
        _settle(page)
        page.evaluate(OBSERVE)

        nodes = page.get_by_label("Nodes", exact=True)
        drive = page.get_by_label("Capacity drive", exact=False).first

        def set_nodes(v):
            def act():
                nodes.fill(str(v))
                nodes.press("Enter")

            return act

        for i in range(repeats):
            times.setdefault("design: nodes", []).append(_timed(page, set_nodes(4 + i % 4)))
            _settle(page)
            # open the list, move to the next drive, and time the Enter that picks it
            drive.click()
            page.locator('[role="option"]').first.wait_for()
            page.keyboard.press("ArrowDown" if i % 2 == 0 else "ArrowUp")
            times.setdefault("design: drive", []).append(_timed(page, lambda: page.keyboard.press("Enter")))
            _settle(page)
            radio = page.get_by_text("tcp" if i % 2 == 0 else "rdma", exact=True).first
            times.setdefault("design: transport", []).append(_timed(page, radio.click))
            _settle(page)

        page.get_by_role("link", name="Performance").click()
        page.locator('[data-testid="stMain"] .js-plotly-plot').first.wait_for()
        _settle(page)
        page.evaluate(OBSERVE)
        wl = page.get_by_label("Workload", exact=True)
        for i in range(repeats):
            wl.click()
            page.locator('[role="option"]').first.wait_for()
            page.keyboard.press("ArrowDown" if i % 2 == 0 else "ArrowUp")
            times.setdefault("performance: workload", []).append(_timed(page, lambda: page.keyboard.press("Enter")))
            _settle(page)
        browser.close()
    return times


def summary(times: dict) -> dict:
    out = {}
    for k, v in times.items():
        s = sorted(v)
        out[k] = (statistics.median(s), s[min(len(s) - 1, round(0.95 * (len(s) - 1)))])
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=8)
    ap.add_argument("--root", default=str(ROOT), help="app checkout to run (for before/after)")
    a = ap.parse_args()
    times = run(Path(a.root), a.repeats)
    for k, (med, p95) in summary(times).items():
        print(f"{k:24s} n={len(times[k]):2d} median {med:6.0f} ms  p95 {p95:6.0f} ms")
    design = [x for k, v in times.items() if k.startswith("design") for x in v]
    perf = [x for k, v in times.items() if k.startswith("performance") for x in v]
    print(
        f"design_page_median_ms={statistics.median(design):.0f} performance_page_median_ms={statistics.median(perf):.0f}"
    )


if __name__ == "__main__":
    main()
