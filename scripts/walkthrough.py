"""The docs' walk-through of one sales call (docs/guide/walkthrough.md): start the app on a free
local port, drive Debian's chromium through playwright (no browser download) through the call a
pre-sales engineer makes, and save a 1280x800 PNG per step, ``docs/img/walk-NN-<step>.png`` (the
Compare page's is 1280x1080: its two columns from their names to their costs), reduced to a
256-colour palette. The server start, the browser and the picture's treatment are
``scripts/screenshots.py``'s.

    .venv/bin/python scripts/walkthrough.py

The steps run in order in one browser session (each needs the one before); the last opens the
session's share link in a fresh browser context and checks that the Size page's headline (whole
cost, nodes, usable capacity, guaranteed IOPS, binding resource) is the same there.
Run it after a change to a page the walk-through shows; commit the PNGs it writes and update the
figures the page quotes.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

# the sibling script: one server start, one browser, one optimiser
from screenshots import OUT, ROOT, VIEWPORT, _optimise, _scroll_to, _settle, served_browser

DEMAND = ROOT / "examples" / "demand-200dbs.json"
EXISTING = "san-raid5"  # the customer's system today (examples/san-raid5.json)
CUSTOMER = "Contoso"
TIMEOUT_MS = 60_000

#: the pictures in order, walk-<name>.png: the step's number and what it shows (the SLA step has two)
SHOTS = [
    "01-start",
    "02-size",
    "03-cost",
    "04-design",
    "05-what-if",
    "06-sla",
    "06-tiers",
    "07-compare",
    "08-proposal",
    "09-link",
]
TALL = {"width": 1280, "height": 1080}  # the Compare page's columns, names to costs, in one picture
HEADER_PX = 100  # Streamlit's top bar covers the first 60 px of the main area: a label scrolled to 100 shows
IDLE = """() => { const a = document.querySelector('[data-testid="stApp"]');
  return a && a.getAttribute('data-test-script-state') === 'notRunning'; }"""


def _done(page) -> None:
    """After an action: the rerun it starts has ended and the page has settled."""
    page.wait_for_timeout(400)  # the action's rerun has started (the script state flips to running)
    page.wait_for_function(IDLE, timeout=TIMEOUT_MS * 2, polling=100)
    _settle(page)


def _key(page, key: str, part: str = "input"):
    """The widget of Streamlit key ``key`` (its container's class is ``st-key-<key>``)."""
    return page.locator(f".st-key-{key}").locator(part).first


def _nav(page, title: str) -> None:
    page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=title, exact=True).first.click()
    _done(page)


def _metric_box(page, label: str):
    return page.locator('[data-testid="stMain"] [data-testid="stMetric"]').filter(has_text=label).first


def _headline(page) -> list[str]:
    """The Size page's five headline figures (whole cost/month, nodes, usable, guaranteed IOPS, binding)."""
    page.get_by_text("One design in detail").first.wait_for(timeout=TIMEOUT_MS * 2)
    values = page.locator('[data-testid="stMain"] [data-testid="stMetricValue"]')
    return [values.nth(i).inner_text().strip() for i in range(5)]


def _shot(page, name: str, at=None, above_px: int = HEADER_PX) -> None:
    """Scroll ``at`` (a locator) to ``above_px`` below the top, let the page settle, save the picture."""
    if name not in SHOTS:  # the docs test reads SHOTS: every picture is on the page
        raise ValueError(f"{name} is not in SHOTS")
    if at is not None:
        _scroll_to(page, at, above_px)
    page.mouse.move(1275, 795)  # no button under the pointer (its hover colour)
    _settle(page)
    path = OUT / f"walk-{name}.png"
    page.screenshot(path=str(path))
    _optimise(path)
    print(f"{path.relative_to(ROOT)}: {path.stat().st_size / 1024:.0f} KiB")


def walk(page, base: str, browser) -> list[str]:
    """The call, step by step; returns the Size page's headline figures."""
    # 1. the customer's question
    page.goto(base + "/")
    page.get_by_text("What does the customer want to know?").first.wait_for()
    _done(page)
    _shot(page, "01-start")

    # 2. size the customer's 200 databases: their demand file through the Size page's uploader
    _key(page, "start_size", "button").click()
    _done(page)
    page.locator(".st-key-size_upload input[type=file]").set_input_files(str(DEMAND))
    _done(page)
    headline = _headline(page)
    _shot(page, "02-size", page.locator(".st-key-size_upload").first, 70)

    # 3. the chosen design against the demand, its whole cost and TCO (the design-in-detail tabs)
    page.locator(".st-key-size_tabs").get_by_role("tab", name="Whole cost and TCO").click()
    _done(page)
    _shot(page, "03-cost", page.get_by_text("This design against the demand").first, 70)

    # 4. use the design with the demand's workload; the Design page judges it against the demand
    _key(page, "size_use_best", "button").click()
    page.get_by_text("as the current design").first.wait_for()
    _done(page)
    _nav(page, "Design")
    page.get_by_text("Against the demand").first.wait_for()
    _shot(page, "04-design", _metric_box(page, "Usable capacity"))

    # 5. a what-if: one node fewer
    nodes = _key(page, "d_nodes")
    sized = int(nodes.input_value())
    nodes.fill(str(sized - 1))
    nodes.press("Enter")
    _done(page)
    _shot(page, "05-what-if", _metric_box(page, "Usable capacity"))
    nodes = _key(page, "d_nodes")  # back to the sized design for the rest of the call
    nodes.fill(str(sized))
    nodes.press("Enter")
    _done(page)

    # 6. the SLA & tiers page planning for one node down: one database's guarantee, the tiers' prices
    _nav(page, "SLA & tiers")
    if not _key(page, "sla_n1").is_checked():  # a sized demand with N+1 may have turned it on already
        _key(page, "sla_n1", "label").click()
        _done(page)
    if not _key(page, "sla_n1").is_checked():
        raise SystemExit("the SLA page's N+1 toggle did not turn on")
    # the database described, the tenants beside it, its guarantee and every bound (one node down the last)
    _shot(page, "06-sla", page.locator(".st-key-sla_bg").first, 66)
    _shot(page, "06-tiers", page.get_by_text("Tiers on this design", exact=True).first, 80)

    # 7. the Compare page with the customer's system today, the current design beside it
    _nav(page, "Compare / what-if")
    if _key(page, "wi_on").is_checked():  # the proposal and the system today only
        _key(page, "wi_on", "label").click()
        _done(page)
    page.get_by_text("The customer's system today").first.click()
    _done(page)
    page.locator(".st-key-cmp_existing_src label").filter(has_text="an example").first.click()
    _done(page)
    box = _key(page, "cmp_existing_example")  # a combo box: type to filter, pick the option
    box.click()
    # the picker lists each example by what it is (planner.sizing.words.example_words), not its file name
    from planner.sizing.words import example_words

    said = example_words()[EXISTING]
    box.fill(said[:20])
    page.get_by_role("option").filter(has_text=f"{said} — ").first.click()
    _done(page)
    # the two columns from their names down to their costs and TCO: taller than the other pictures
    page.set_viewport_size(TALL)
    _shot(page, "07-compare", page.get_by_role("heading", name="Current design", exact=True).first, 70)
    page.set_viewport_size(VIEWPORT)

    # 8. the proposal, as HTML for the customer
    _nav(page, "Size a cluster")
    if _headline(page) != headline:
        raise SystemExit(f"the Size page changed on the way: {_headline(page)} against {headline}")
    page.locator(".st-key-size_files summary").first.click()  # the proposal's section, closed until opened
    _done(page)
    page.locator(".st-key-report_format label").filter(has_text="HTML").first.click()
    _done(page)
    customer = _key(page, "report_customer")
    customer.fill(CUSTOMER)
    customer.press("Enter")
    _done(page)
    _key(page, "size_prepare", "button").click()
    page.locator(".st-key-size_proposal_html").first.wait_for(timeout=TIMEOUT_MS * 2)
    _done(page)
    _shot(page, "08-proposal", page.locator(".st-key-size_files summary").first, 120)

    # 9. the shareable link, opened in a fresh browser context: the same figures
    page.locator('[data-testid="stSidebar"]').get_by_text("Shareable link").first.click()
    _done(page)
    query = page.locator('[data-testid="stSidebar"] [data-testid="stCode"]').first.inner_text().strip()
    ctx = browser.new_context(viewport=VIEWPORT)
    other = ctx.new_page()
    other.set_default_timeout(TIMEOUT_MS)
    # the link is the page's whole address since stop 45 (it was "?s=..." alone, which opens nothing from an email)
    other.goto(query if query.startswith("http") else f"{base}/size{query}")
    _done(other)
    if (again := _headline(other)) != headline:
        raise SystemExit(f"the share link shows {again}, the session {headline}")
    other.locator('[data-testid="stSidebar"]').get_by_text("Shareable link").first.click()
    _done(other)
    # the sidebar scrolls on its own: the link's section at its top, the Size page's result beside it
    other.locator(".st-key-share_link").first.evaluate("el => el.scrollIntoView({block: 'start'})")
    _shot(other, "09-link", other.get_by_text("Searched ").first, 80)
    ctx.close()
    return headline


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    with served_browser() as (url, browser):
        page = browser.new_context(viewport=VIEWPORT).new_page()
        page.set_default_timeout(TIMEOUT_MS)
        headline = walk(page, url, browser)
        print(f"the Size page's headline: {', '.join(headline)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
