"""End-to-end test in a real browser: the Streamlit server, chromium via playwright."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} not installed")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"streamlit did not start: {proc.stderr.read().decode()[-2000:]}")
        time.sleep(0.2)  # polling the port, not waiting on the UI
    yield url
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _metric_value(page, label: str) -> str:
    box = page.locator('[data-testid="stMetric"]').filter(has_text=label).first
    box.wait_for()
    return box.locator('[data-testid="stMetricValue"]').inner_text()


def test_change_nodes_and_share_link(server, browser, tmp_path):
    from planner.design import load_design, with_overrides
    from planner.report import evaluate_report
    from planner.workload import profiles

    ref = load_design(ROOT / "examples" / "reference.json")
    w = profiles()["oltp-8k"]
    r3, r4 = evaluate_report(ref, w), evaluate_report(with_overrides(ref, nodes=4), w)

    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(30_000)
    page.goto(server)
    page.get_by_text(f"{r3['usable_capacity_tb']:,.2f} TB").first.wait_for()
    assert _metric_value(page, "IOPS") == f"{r3['iops']:,.0f}"

    nodes = page.get_by_label("Nodes", exact=True)
    nodes.fill("4")
    nodes.press("Enter")
    page.get_by_text(f"{r4['usable_capacity_tb']:,.2f} TB").first.wait_for()
    page.get_by_text(f"{r4['iops']:,.0f}", exact=True).first.wait_for()
    assert _metric_value(page, "IOPS") == f"{r4['iops']:,.0f}"
    page.screenshot(path=str(tmp_path / "design.png"), full_page=True)

    # the address bar now holds the scenario: open it in a fresh page
    page.wait_for_url(re.compile(r"[?&]s="))
    shared = page.url
    other = browser.new_page(viewport={"width": 1400, "height": 1000})
    other.set_default_timeout(30_000)
    other.goto(shared)
    other.get_by_text(f"{r4['usable_capacity_tb']:,.2f} TB").first.wait_for()
    assert _metric_value(other, "IOPS") == f"{r4['iops']:,.0f}"
    assert other.get_by_label("Nodes", exact=True).input_value() == "4"

    # Performance page of the shared scenario
    other.get_by_role("link", name="Performance").click()
    other.get_by_text("Latency vs IOPS").first.wait_for()
    other.locator(".js-plotly-plot").first.wait_for()
    other.screenshot(path=str(tmp_path / "performance.png"), full_page=True)
    shot = os.environ.get("HCIPLAN_SCREENSHOT")
    if shot:
        other.screenshot(path=shot, full_page=True)
    assert (tmp_path / "performance.png").stat().st_size > 10_000
    page.close()
    other.close()


def test_bad_link_shows_error(server, browser):
    page = browser.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{server}/?s=garbage!!")
    page.get_by_text("The shared link could not be opened").wait_for()
    page.close()


def test_compare_page_puts_a_san_next_to_the_hci_design(server, browser):
    from planner.design import load_design
    from planner.report import evaluate_report
    from planner.workload import profiles

    san = evaluate_report(load_design(ROOT / "examples" / "san-raid5.json"), profiles()["oltp-8k"])
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(30_000)
    page.goto(f"{server}/compare")
    page.get_by_text("Compare the current design with").first.wait_for()
    page.locator('[data-testid="stMultiSelect"]').first.click()
    page.keyboard.type("san-raid5")
    page.keyboard.press("Enter")
    page.get_by_text(f"{san['iops']:,.0f}", exact=True).first.wait_for()
    page.get_by_text("outside the calibrated domain").first.wait_for()
    page.close()
