"""The docs' screenshots of the app (docs/img/*.png): start the app on a free local port, open
each page in Debian's chromium through playwright (no browser download), save a 1280x800 PNG
of what a user sees first, reduce it to a 256-colour palette (Pillow), and stop the server.

    .venv/bin/python scripts/screenshots.py             # every page
    .venv/bin/python scripts/screenshots.py design sla  # some pages

Run it after a change to a page's look; commit the PNGs it writes.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "img"
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--headless=new",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
VIEWPORT = {"width": 1280, "height": 800}


def _start(page) -> None:
    page.get_by_text("What does the customer want to know?").first.wait_for()


def _design(page) -> None:
    page.get_by_text("Node hardware").first.wait_for()


def _capacity(page) -> None:
    page.get_by_text("usable", exact=False).first.wait_for()


def _performance(page) -> None:
    page.locator('[data-testid="stMetric"]').first.wait_for()
    page.locator('[data-testid="stMain"] .js-plotly-plot').first.wait_for()


def _performance_charts(page) -> None:
    _performance(page)
    _scroll_to(page, page.get_by_text("Latency vs IOPS").first, 80)


def _scroll_to(page, locator, above_px: int) -> None:
    """Scroll the page's main area so ``locator`` sits ``above_px`` below the top."""
    locator.wait_for()
    locator.scroll_into_view_if_needed()
    locator.evaluate(
        "(el, px) => { const m = document.querySelector('[data-testid=\"stMain\"]') || document.scrollingElement;"
        " m.scrollBy(0, el.getBoundingClientRect().top - px); }",
        above_px,
    )


def _sla(page) -> None:
    page.get_by_text("Guarantee for one database").first.wait_for()


def _size(page) -> None:
    page.get_by_role("button", name="Size it").click()
    page.get_by_text("One design in detail").first.wait_for(timeout=120_000)
    _settle(page)
    _scroll_to(page, page.get_by_text("Size it", exact=True).first, -60)


def _compare(page) -> None:
    page.get_by_text("What-if variant of the current design").first.wait_for()
    page.locator('[data-testid="stMetric"]').first.wait_for()


def _calibration(page) -> None:
    page.get_by_text("Published results no fit has seen").first.wait_for(timeout=120_000)


#: page name -> (address, what to wait for or do before the picture)
PAGES = {
    "start": ("", _start),
    "design": ("design", _design),
    "capacity": ("capacity", _capacity),
    "performance": ("performance", _performance),
    "performance-charts": ("performance", _performance_charts),
    "sla": ("sla", _sla),
    "size": ("size", _size),
    "compare": ("compare", _compare),
    "calibration": ("calibration", _calibration),
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(port: int, err, root: Path = ROOT) -> subprocess.Popen:
    """The app of the checkout ``root`` on ``port``, its stderr into the file ``err`` (never an unread
    pipe: a server that fills a pipe's buffer blocks on its next write)."""
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true"]
    cmd += ["--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"]
    proc = subprocess.Popen(cmd, cwd=root, stdout=subprocess.DEVNULL, stderr=err)
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return proc
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            err.seek(0)
            raise SystemExit(f"streamlit did not start: {err.read().decode()[-2000:]}")
        time.sleep(0.2)


@contextlib.contextmanager
def served_app(root: Path = ROOT):
    """The app of the checkout ``root`` on a free local port: yields (url, server process); stops it.
    The one server start of the scripts and the browser benchmarks (``--root`` runs another checkout)."""
    port = _free_port()
    with tempfile.TemporaryFile() as err:
        server = _serve(port, err, root)
        try:
            yield f"http://127.0.0.1:{port}", server
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()


@contextlib.contextmanager
def served_browser():
    """The app on a free local port and Debian's chromium: yields (url, browser); stops both."""
    from playwright.sync_api import sync_playwright

    with served_app() as (url, _), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield url, browser
        finally:
            browser.close()


def _settle(page) -> None:
    """Wait until Streamlit has finished the run (no element is stale, no spinner)."""
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')"
        " && !document.querySelector('[data-stale=\"true\"]')"
        " && !document.querySelector('[data-testid=\"stSkeleton\"]')",
        timeout=120_000,
    )
    page.wait_for_timeout(800)  # plotly's transitions and fonts: let the last frame paint


def _optimise(path: Path) -> None:
    from PIL import Image

    with Image.open(path) as im:
        small = im.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    small.save(path, optimize=True)


def main(names: list[str]) -> int:
    unknown = sorted(set(names) - set(PAGES))
    if unknown:
        print(f"error: pages: unknown {', '.join(unknown)} (known: {', '.join(PAGES)})", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    with served_browser() as (url, browser):
        for name in names or list(PAGES):
            address, ready = PAGES[name]
            page = browser.new_page(viewport=VIEWPORT)
            page.set_default_timeout(60_000)
            page.goto(f"{url}/{address}")
            ready(page)
            _settle(page)
            path = OUT / f"app-{name}.png"
            page.screenshot(path=str(path))
            _optimise(path)
            print(f"{path.relative_to(ROOT)}: {path.stat().st_size / 1024:.0f} KiB")
            page.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
