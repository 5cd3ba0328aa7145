"""Soak: many browser sessions against one app server for minutes; is memory flat?

Starts the app (``streamlit run app.py`` on a free local port) and drives Debian's
chromium through playwright with ``--sessions`` concurrent browser contexts (each
its own Streamlit session) for ``--minutes``. Every session loops over what-ifs a
pre-sales engineer makes: the node count on the Design page (typed, Enter), the
transport, then the workload on the Performance page, back to Design. An
interaction is timed from the key press or click to the page settled (script
state ``notRunning``, nothing stale). Every ``--every`` seconds it prints the
interactions of that window (count, p50, p95) and the server's resident memory
(VmRSS of the streamlit process); after the load it waits ``--idle`` seconds
with every session closed and prints memory again. Stops the server and the
browser at the end (also on Ctrl-C). Prints figures; asserts nothing; the test
suite never runs it.

Usage: nice -n 10 python benchmarks/soak.py [--sessions 20] [--minutes 5] [--every 30] [--idle 30]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import random
import statistics
import time
from pathlib import Path

from browser_whatif import served_app  # the same server start as the other browser benchmarks

ROOT = Path(__file__).resolve().parent.parent

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
SETTLED = (
    "() => { const a = document.querySelector('[data-testid=\"stApp\"]');"
    " return a && a.getAttribute('data-test-script-state') === 'notRunning'"
    " && !document.querySelector('[data-stale=\"true\"]'); }"
)
TIMEOUT_MS = 120_000


def rss_mib(pid: int) -> float:
    """Resident memory of a process, MiB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def settle(page) -> None:
    # a rerun starts a moment after the event: wait for it to start (or not), then to finish
    await page.wait_for_timeout(150)
    await page.wait_for_function(SETTLED, timeout=TIMEOUT_MS, polling=100)


async def timed(page, action, times: list, errors: list) -> None:
    t0 = time.perf_counter()
    try:
        await action()
        await settle(page)
    except Exception as exc:  # a timeout under load is a figure too, not a crash of the benchmark
        errors.append(type(exc).__name__)
        return
    times.append((time.monotonic(), time.perf_counter() - t0))


async def type_enter(box, value) -> None:
    await box.fill(str(value))
    await box.press("Enter")


async def pick(page, box, steps: int) -> None:
    """Open a select box, move ``steps`` options down and pick it."""
    await box.click()
    await page.locator('[role="option"]').first.wait_for()
    for _ in range(steps):
        await page.keyboard.press("ArrowDown")
    await page.keyboard.press("Enter")


async def session(browser, url: str, k: int, stop_at: float, times: list, errors: list) -> None:
    rnd = random.Random(k)
    ctx = await browser.new_context(viewport={"width": 1300, "height": 900})
    page = await ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        await page.goto(f"{url}/design")  # "/" is the start page since it landed
        await page.get_by_label("Nodes", exact=True).wait_for()
        await settle(page)
        i = 0
        while time.monotonic() < stop_at:
            i += 1
            nodes = page.get_by_label("Nodes", exact=True)
            await timed(page, functools.partial(type_enter, nodes, 3 + rnd.randrange(6)), times, errors)
            radio = page.get_by_text("tcp" if i % 2 else "rdma", exact=True).first
            await timed(page, radio.click, times, errors)
            await timed(page, page.get_by_role("link", name="Performance").click, times, errors)
            wl = page.get_by_label("Workload", exact=True)
            await timed(page, functools.partial(pick, page, wl, 1 + rnd.randrange(3)), times, errors)
            await timed(page, page.get_by_role("link", name="Design").click, times, errors)
    except Exception as exc:
        errors.append(f"session {k}: {type(exc).__name__}")
    finally:
        await ctx.close()


def window_line(t: float, times: list, since: float, pid: int) -> str:
    got = sorted(d for at, d in times if at >= since)
    if got:
        p50 = statistics.median(got)
        p95 = got[min(len(got) - 1, round(0.95 * (len(got) - 1)))]
        figs = f"{len(got):>5} {p50:>8.2f} {p95:>8.2f}"
    else:
        figs = f"{0:>5} {'-':>8} {'-':>8}"
    return f"{t:>6.0f} {figs} {rss_mib(pid):>10.1f}"


async def soak(url: str, pid: int, sessions: int, minutes: float, every: float, idle: float) -> None:
    from playwright.async_api import async_playwright

    times: list = []
    errors: list = []
    print(f"{sessions} sessions for {minutes:g} min; server pid {pid}, {rss_mib(pid):.1f} MiB at start")
    print(f"{'t (s)':>6} {'n':>5} {'p50 (s)':>8} {'p95 (s)':>8} {'RSS (MiB)':>10}")
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        t0 = time.monotonic()
        stop_at = t0 + minutes * 60
        tasks = [asyncio.create_task(session(browser, url, k, stop_at, times, errors)) for k in range(sessions)]
        since = t0
        while not all(t.done() for t in tasks):
            await asyncio.sleep(min(every, max(0.0, since + every - time.monotonic())))
            now = time.monotonic()
            if now - since >= every - 0.01:
                print(window_line(now - t0, times, since, pid), flush=True)
                since = now
        await asyncio.gather(*tasks)
        await browser.close()
        end = time.monotonic()
        if end - since > 1.0:
            print(window_line(end - t0, times, since, pid), "(last, partial window)")
        await asyncio.sleep(idle)
        print(f"after {idle:g} s with every session closed: {rss_mib(pid):.1f} MiB")
    got = sorted(d for _, d in times)
    if got:
        print(
            f"all: {len(got)} interactions, p50 {statistics.median(got):.2f} s, "
            f"p95 {got[min(len(got) - 1, round(0.95 * (len(got) - 1)))]:.2f} s"
        )
    if errors:
        print(f"{len(errors)} interactions or sessions did not settle: {sorted(set(errors))[:5]}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=20)
    ap.add_argument("--minutes", type=float, default=5.0)
    ap.add_argument("--every", type=float, default=30.0, help="seconds between lines")
    ap.add_argument("--idle", type=float, default=30.0, help="seconds idle after the load")
    a = ap.parse_args()
    with served_app(ROOT) as (url, proc):
        asyncio.run(soak(url, proc.pid, a.sessions, a.minutes, a.every, a.idle))


if __name__ == "__main__":
    main()
