"""Issue 26, problem 9 in a real browser at 1024 px (the narrowest window a laptop gives the app):
no label cut to '…', no word metric broken inside a word, no chart text outside its figure, on
the pages a sales call walks through after sizing the 200-database demand."""

from __future__ import annotations

import itertools

import pytest
from test_browser import CHROMIUM, browser, server  # noqa: F401  (the same server and chromium)

pytestmark = pytest.mark.skipif(not __import__("os").path.exists(CHROMIUM), reason=f"{CHROMIUM} not installed")

SETTLED = (
    "() => { const a = document.querySelector('[data-testid=\"stApp\"]');"
    " return a && a.getAttribute('data-test-script-state') === 'notRunning'"
    " && !document.querySelector('[data-stale=\"true\"]'); }"
)

# texts the page cuts: an element ending in '…' whose text is wider than its box
CUT = """() => [...document.querySelectorAll('[data-testid="stMain"] *')]
  .filter(e => getComputedStyle(e).textOverflow === 'ellipsis' && e.scrollWidth > e.clientWidth + 1
    && (e.closest('[data-testid="stMetricLabel"]') || e.closest('[data-testid="stWidgetLabel"]')))
  .map(e => e.textContent)"""

# a word metric's value broken inside a word: a word of it spans two lines
BROKEN_WORDS = """() => {
  const out = [];
  for (const v of document.querySelectorAll('[class*="st-key-words_"] [data-testid="stMetricValue"]')) {
    const walker = document.createTreeWalker(v, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const re = /\\S+/g; let m;
      while ((m = re.exec(n.textContent))) {
        const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
        if (r.getClientRects().length > 1) out.push(m[0]);
      }
    }
  }
  return out; }"""

# a metric's label broken inside a word ("Whole cost/mo|nth", "Guarant|eed IOPS" in presenter mode)
BROKEN_LABELS = BROKEN_WORDS.replace(
    '[class*="st-key-words_"] [data-testid="stMetricValue"]', '[data-testid="stMain"] [data-testid="stMetricLabel"]'
)

# a static table wider than its box: its last columns hide behind a scrollbar that does not show
CLIPPED_TABLES = """() => [...document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stTable"], [data-testid="stMain"] [data-testid="stMarkdownContainer"]:has(> table)')]
  .filter(t => t.querySelector('table').getBoundingClientRect().right > t.getBoundingClientRect().right + 1)
  .map(t => t.querySelector('th') ? t.querySelector('th').textContent : '?')"""

# plotly text (ticks, titles, legends, bar labels) outside its figure
CLIPPED = """() => {
  const out = [];
  for (const svg of document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot svg.main-svg:first-of-type')) {
    const box = svg.getBoundingClientRect();
    const plot = svg.closest('.js-plotly-plot');
    for (const t of plot.querySelectorAll('text')) {
      const r = t.getBoundingClientRect();
      if (!t.textContent.trim() || r.width === 0) continue;
      if (r.left < box.left - 1 || r.right > box.right + 1) out.push(t.textContent);
    }
  }
  return out; }"""


def _settle(page) -> None:
    page.wait_for_timeout(200)
    page.wait_for_function(SETTLED, timeout=120_000, polling=100)
    page.wait_for_timeout(600)  # charts draw after the script run ends


def _opened(chromium, url: str, width: int, height: int, path: str = ""):
    """A page of the app at ``width`` x ``height`` px, opened at ``path`` and settled (one way for every test)."""
    page = chromium.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(120_000)
    page.goto(url + path)
    _settle(page)
    return page


def _go(page, name: str) -> None:
    page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=name, exact=True).click()
    _settle(page)


def test_nothing_is_cut_at_1024_px_through_a_sales_call(server, browser):  # noqa: F811
    page = _opened(browser, server, 1024, 1400)
    _go(page, "Size a cluster")
    page.get_by_role("button", name="Size it").click()
    page.get_by_text("Whole cost/month").first.wait_for()
    _settle(page)
    found = {"Size": (page.evaluate(CUT), page.evaluate(BROKEN_WORDS), page.evaluate(CLIPPED_TABLES))}
    errors = {}
    page.locator(".st-key-size_use_best button").click()
    _settle(page)
    for name in ("Design", "Performance", "SLA & tiers", "Compare / what-if"):
        _go(page, name)
        if name in ("Performance", "Compare / what-if"):
            page.locator('[data-testid="stMain"] .js-plotly-plot').first.wait_for()
        _settle(page)
        found[name] = (
            page.evaluate(CUT),
            page.evaluate(BROKEN_WORDS),
            page.evaluate(CLIPPED),
            page.evaluate(CLIPPED_TABLES),
        )
        if exc := page.locator('[data-testid="stException"]').all_inner_texts():
            errors[name] = exc
    page.close()
    assert all(not any(v) for v in found.values()), {k: v for k, v in found.items() if any(v)}
    assert not errors, errors


def _standard_tier(page) -> str:
    """The Standard tier's row of the static tiers table, its cells joined by spaces."""
    table = page.locator('[data-testid="stMarkdownContainer"]:has(> table)').filter(has_text="Latency target, ms").first
    row = table.locator("tr").filter(has_text="Standard").first
    return " ".join(row.inner_text().split())


def test_a_tier_edited_in_the_grid_survives_a_visit_to_another_page(server, browser):  # noqa: F811
    """An edit applied in the tier editor was undone by a visit to another page: the editor, drawn
    again from the tiers it had first started from, applied them again (the Standard tier's 777
    guaranteed IOPS back to 500, its cost per guaranteed IOPS with it)."""
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.set_default_timeout(120_000)
    page.goto(server + "/sla")
    page.get_by_text("Guaranteed IOPS per DB").first.wait_for()
    _settle(page)
    assert _standard_tier(page).startswith("Standard 500 ")
    page.locator(".st-key-tier_editing label").first.click()
    _settle(page)
    grid = page.locator('[data-testid="stDataFrame"]').first
    grid.scroll_into_view_if_needed()
    _settle(page)
    box = grid.bounding_box()
    # the Standard row (under the 35 px header), the "guaranteed IOPS" column (the tier's name is first)
    page.mouse.dblclick(box["x"] + 200, box["y"] + 35 + 17)
    cell = page.locator("#portal textarea, #portal input").first  # the grid's editor for that cell
    cell.wait_for()
    cell.fill("777")
    cell.press("Enter")
    page.wait_for_timeout(300)
    page.get_by_role("button", name="Apply the tiers").click()
    _settle(page)
    page.locator(".st-key-tier_editing label").first.click()  # closed: the tiers in use, as a table
    _settle(page)
    assert _standard_tier(page).startswith("Standard 777 "), _standard_tier(page)
    _go(page, "Design")
    _go(page, "SLA & tiers")
    page.get_by_text("Guaranteed IOPS per DB").first.wait_for()
    _settle(page)
    assert _standard_tier(page).startswith("Standard 777 "), _standard_tier(page)
    page.locator(".st-key-tier_editing label").first.click()  # and the editor opened again keeps it
    _settle(page)
    page.get_by_role("button", name="Apply the tiers").click()
    _settle(page)
    page.locator(".st-key-tier_editing label").first.click()
    _settle(page)
    assert _standard_tier(page).startswith("Standard 777 "), _standard_tier(page)
    page.close()


def test_presenter_mode_breaks_no_label_inside_a_word_at_1024_px(server, browser):  # noqa: F811
    """QA 2026-11-28: presenter mode at 1024x768 wrapped the headline labels inside words ("Whole
    cost/mo" / "nth", "Guarant" / "eed IOPS"): a label's font now follows its metric's width too.
    And the designs table's last column hid behind an invisible scrollbar ("$332" for $332,410): at
    1024-1280 px the page's side margins are narrower, and every table fits."""
    page = _opened(browser, server, 1024, 768)
    page.locator("label").filter(has_text="Presenter mode").first.click()
    _settle(page)
    _go(page, "Size a cluster")
    page.get_by_role("button", name="Size it").click()
    page.get_by_text("Whole cost/month").first.wait_for()
    _settle(page)
    found = {"Size": page.evaluate(BROKEN_LABELS) + page.evaluate(CLIPPED_TABLES)}
    page.locator(".st-key-size_use_best button").click()
    _settle(page)
    for name in ("Design", "Performance", "SLA & tiers"):
        _go(page, name)
        found[name] = page.evaluate(BROKEN_LABELS) + page.evaluate(CLIPPED_TABLES)
    page.close()
    assert not any(found.values()), found


# a select box whose chosen label is wider than its box: an input, it cannot wrap
CUT_SELECTS = """() => [...document.querySelectorAll('[data-testid="stMain"] input[role=combobox]')]
  .filter(i => i.checkVisibility() && i.scrollWidth > i.clientWidth + 1).map(i => i.value)"""

# a number box whose value is wider than its box (its last figures cut: "1.000" read "1.0")
CUT_NUMBERS = """() => [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stNumberInputField"]')]
  .filter(i => i.checkVisibility() && i.scrollWidth > i.clientWidth + 1).map(i => i.getAttribute('aria-label') + ': ' + i.value)"""


def test_a_select_box_cut_at_1024_px_is_said_in_full_on_its_page(server, browser):  # noqa: F811
    """Issue 26, item 9 (browser review 2026-11-29): "Intel Optane DC Persistent Memor", without its size;
    every cut label of the Design, Performance and SLA pages is said whole in the page's text, and the
    start page's three cards put their buttons on one line."""
    page = _opened(browser, server, 1024, 1000)
    tops = {
        page.get_by_role("button", name=n).bounding_box()["y"]
        for n in ("Size a cluster", "Check a design", "Price tiers")
    }
    assert len(tops) == 1, tops
    unsaid, seen = {}, 0
    for name in ("Design", "Performance", "SLA & tiers"):
        _go(page, name)
        if name == "SLA & tiers":  # the licensing box is in the cost assumptions' section
            page.locator("summary").filter(has_text="Cost assumptions").first.click()
            _settle(page)
        cut = page.evaluate(CUT_SELECTS)
        seen += len(cut)
        # fmt.md's word joiners (after a colon, around brackets) show nothing
        text = page.locator('[data-testid="stMain"]').inner_text().replace("\u2060", "")
        if missing := [v for v in cut if v.split(" — ")[-1] not in text.replace("\n", " ")]:
            unsaid[name] = missing
    page.close()
    # the review's cut boxes are still cut at this width: the test sees them (5 before stop 55, whose wider number
    # columns wrap the rows that held three of them, leaving those select boxes their whole value)
    assert seen >= 2, seen
    assert not unsaid, unsaid


def test_the_warming_chart_is_drawn_out_of_sight_and_then_gone(server, browser):  # noqa: F811
    """hciplan_ui.chrome.warm_charts: the session's first run draws a chart the user never sees (off screen,
    hidden, no room taken in the sidebar); the next run removes it."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(60_000)
    page.goto(server)
    warm = page.locator(".st-key-hciplan_warm")
    warm.locator(".js-plotly-plot").first.wait_for(state="attached")
    assert not warm.is_visible()
    box = warm.bounding_box()
    assert box is None or box["x"] + box["width"] <= 0
    # out of the sidebar's flow: no room taken, no gap (a hidden element in flow still took a flex gap)
    assert warm.evaluate("e => getComputedStyle(e.parentElement).position") == "fixed"
    _go(page, "Design")
    page.wait_for_function("() => !document.querySelector('.st-key-hciplan_warm')", timeout=30_000)
    page.close()


def test_a_table_wider_than_a_projectors_page_scrolls_in_its_own_block(server, browser):  # noqa: F811
    """New-user walk 2026-11-30: at 1,024 x 768 (a projector) the Calibration page's published-results table ran to
    1,032 px, its last column and border cut, with only the whole page scrolling sideways. A wide table now scrolls
    within its own block; the page does not."""
    page = _opened(browser, server, 1024, 768)
    _go(page, "Calibration")
    page.get_by_text("Published results no fit has seen").first.wait_for()
    _settle(page)
    blocks = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stMarkdownContainer"]:has(> table)')]
        .map(c => ({right: c.getBoundingClientRect().right, wide: c.scrollWidth > c.clientWidth + 1,
                    scrolls: getComputedStyle(c).overflowX === 'auto'}))"""
    )
    main_scrolls = page.evaluate(
        "() => { const m = document.querySelector('[data-testid=\"stMain\"]'); return m.scrollWidth > m.clientWidth + 1; }"
    )
    page.close()
    assert blocks and all(b["right"] <= 1024 and b["scrolls"] for b in blocks), blocks
    assert any(b["wide"] for b in blocks)  # the published results' table: wider than the column, scrolled in place
    assert not main_scrolls


def test_a_part_of_yours_uploaded_again_keeps_its_place_in_the_design(server, browser, tmp_path):  # noqa: F811
    """Hostile-input walk 2026-11-30: the design's capacity drive, a part of the user's, uploaded again with new
    figures: its label in the picker changed, the browser still held the old one, and the run after (the loader
    closed) took the catalog's first drive, the Intel P3700 (raw 60 TB instead of 30). The picker keeps the part,
    with its new figures, on every run after."""
    import json

    from test_browser import ROOT

    drive = json.loads((ROOT / "hardware_catalog" / "capacity_drives.json").read_text())["records"][1]

    def part_file(name: str, read: int, write: int) -> str:
        rec = dict(drive, id="my-drive", rand_read_4k_iops=read, rand_write_4k_iops=write)
        (tmp_path / name).write_text(json.dumps({"device_class": "capacity_drive", "records": [rec]}))
        return str(tmp_path / name)

    page = _opened(browser, server, 1400, 1200, "/design")
    page.get_by_text("Load or save a design file").click()
    _settle(page)
    page.locator(".st-key-parts_uploader input[type=file]").set_input_files(part_file("a.json", 400_000, 60_000))
    _settle(page)
    page.locator(".st-key-d_drive input").first.click()
    page.keyboard.type("your part")
    page.get_by_role("option").filter(has_text="your part").first.click()
    _settle(page)
    page.locator(".st-key-parts_uploader [data-testid='stFileChipDeleteBtn'] button").first.click()
    _settle(page)
    page.locator(".st-key-parts_uploader input[type=file]").set_input_files(part_file("b.json", 1_000, 500))
    _settle(page)
    added = page.get_by_text("Added 1 capacity drive part").first.inner_text()

    def drive_said() -> list[str]:
        return [
            c
            for c in page.locator('[data-testid="stMain"] [data-testid="stCaptionContainer"]').all_inner_texts()
            if "DWPD" in c
        ]

    said = [drive_said()]
    page.get_by_text("Load or save a design file").click()  # the run after the upload
    _settle(page)
    said.append(drive_said())
    page.keyboard.press("r")
    _settle(page)
    said.append(drive_said())
    picker = page.locator(".st-key-d_drive input").first.input_value()
    sidebar = page.locator('[data-testid="stSidebar"]').inner_text()
    page.close()
    # the figures as the record marks them (its copied `estimated` entries: "~1.0k/500 read/write IOPS (estimated)")
    assert all(s and "1.0k/500 read/write IOPS" in s[0] and "your part" in s[0] for s in said), said
    assert "1.0k/500 read/write IOPS" in picker and picker.endswith("· your part"), picker
    assert "P3700" not in sidebar
    assert "(replacing your earlier my-drive)" in added.replace("\u2060", ""), added


# a widget's label broken inside a word (a break after a hyphen, "what-|if", is between words)
BROKEN_WIDGET_LABELS = BROKEN_WORDS.replace(
    '[class*="st-key-words_"] [data-testid="stMetricValue"]', '[data-testid="stMain"] [data-testid="stWidgetLabel"]'
).replace("/\\S+/g", "/[^\\s-]+/g")

# rows of columns drawn on more than one line
WRAPPED_ROWS = """() => [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stHorizontalBlock"]')]
  .filter(h => h.checkVisibility() && new Set([...h.children].filter(c => c.checkVisibility())
    .map(c => Math.round(c.getBoundingClientRect().top))).size > 1)
  .map(h => h.innerText.split('\\n')[0])"""


def test_at_800_px_labels_wrap_between_words_and_select_boxes_show_their_value(server, browser, tmp_path):  # noqa: F811
    """Accessibility walk 2026-11-30: at 800 px "Azure Local validate|d nodes" (Size) and "Outstandi|ng per thread"
    (SLA) broke mid-word, and select boxes cut their value ("node an" for node and drive, "me" for mean). Labels
    wrap between words and a column of widgets keeps the room they need, its row wrapping instead; from 1,280 px
    up every row stays whole. Stop 55: at 1,024 px number boxes cut their value (the SLA page's latency target
    "1.000" read "1.0", its size "4.00" "4.0"; the Size page's DBA "1000.00" GB): no number box cuts its value at
    800, 1,024 or 1,280 px."""
    from hciplan_ui.database_inputs import SIZE_DBA_MODE as DBA_MODE

    page = _opened(browser, server, 800, 1200)
    found = {}
    for width in (800, 1024, 1280):
        page.set_viewport_size({"width": width, "height": 1200})
        for name in ("Size a cluster", "SLA & tiers", "Compare / what-if", "Calibration"):
            _go(page, name)
            page.screenshot(path=str(tmp_path / f"{name[:4]}-{width}.png"))
            # a part picker's label (a drive or NIC with its figures, ~100 characters) fits no box at 800 px: it is
            # cut there and said whole in the caption under it, the Design page's rule (the Compare page's what-if
            # has them since stop 62); any other cut box is a fault
            text = page.locator('[data-testid="stMain"]').inner_text().replace("\u2060", "").replace("\n", " ")
            found[(name, width)] = (
                page.evaluate(BROKEN_WIDGET_LABELS) if width == 800 else [],
                [v for v in page.evaluate(CUT_SELECTS) if v not in text] if width == 800 else [],
                page.evaluate(CUT_NUMBERS),
            )
            if name == "Size a cluster":  # the DBA's boxes (size in GB, latency target) too
                page.locator(".st-key-size_mode").get_by_text(DBA_MODE).click()
                _settle(page)
                found[("Size a cluster, DBA", width)] = ([], [], page.evaluate(CUT_NUMBERS))
                page.locator(".st-key-size_mode").get_by_text("databases per tier").click()
                _settle(page)
    _go(page, "SLA & tiers")
    wide = page.evaluate(WRAPPED_ROWS)
    page.close()
    assert not any(any(v) for v in found.values()), {k: v for k, v in found.items() if any(v)}
    assert not wide, wide


def test_every_chart_is_a_named_figure(server, browser):  # noqa: F811
    """Accessibility walk 2026-11-30: Streamlit draws a plotly chart as a bare <div>, and a screen reader met
    its tick labels with nothing saying what the chart was. Every chart is a figure named by its title and what
    it shows (hciplan_ui.chrome.name_charts)."""
    page = _opened(browser, server, 1280, 1000)
    named = {}
    for name in ("Capacity", "Performance", "Compare / what-if", "Calibration"):
        _go(page, name)
        page.locator('[data-testid="stMain"] .js-plotly-plot').first.wait_for()
        page.wait_for_function(
            "() => [...document.querySelectorAll('[data-testid=stMain] [data-testid=stPlotlyChart]')]"
            ".every(c => c.getAttribute('aria-label'))",
            timeout=10_000,
        )
        named[name] = page.evaluate(
            """() => [...document.querySelectorAll('[data-testid=stMain] [data-testid=stPlotlyChart]')].map(c =>
              [c.getAttribute('role'), c.getAttribute('aria-label'), c.querySelector('.gtitle').textContent])"""
        )
    page.close()
    for charts in named.values():
        assert charts and all(role == "figure" and label.startswith(f"{title} (chart") for role, label, title in charts)
    assert named["Performance"][0][1].startswith("Latency vs IOPS (chart): latency, ms (storage read and write")
    assert named["Compare / what-if"][-1][1].startswith("IOPS (chart): the change in IOPS when one input")


def test_each_page_has_its_own_title_and_an_outline_without_skips(server, browser):  # noqa: F811
    """Accessibility walk 2026-11-30: every page's browser title was "hciplan", and the headings went from the
    page's h1 to h3. Each page is titled "<page> · hciplan", and its sections are h2s."""
    page = _opened(browser, server, 1280, 1000)
    titles, skips = {"Start": page.title()}, {}
    levels = """() => [...document.querySelectorAll('[data-testid="stMain"] :is(h1, h2, h3, h4, h5, h6)')]
      .filter(h => h.checkVisibility()).map(h => Number(h.tagName[1]))"""
    pages = ("Design", "Capacity", "Performance", "SLA & tiers", "Size a cluster", "Compare / what-if")
    for name in (*pages, "Calibration"):
        _go(page, name)
        titles[name] = page.title()
        seen = page.evaluate(levels)
        if seen[:1] != [1] or any(b > a + 1 for a, b in itertools.pairwise(seen)):
            skips[name] = seen
    page.close()
    assert titles == {name: f"{name} · hciplan" for name in titles}, titles
    assert not skips, skips


def test_a_file_over_the_limit_says_why_under_it(server, browser, tmp_path):  # noqa: F811
    """Accessibility walk 2026-11-30: a design file over 1 MB was marked with a red icon and its reason ("File must
    be 1.0MB or smaller.") showed only on hover. The box says its limit before (its label) and the reason under
    the refused file."""
    big = tmp_path / "big.json"
    big.write_text('{"x": "' + "a" * 1_600_000 + '"}')
    page = _opened(browser, server, 1024, 900, "/design")
    page.get_by_text("Load or save a design file").click()
    _settle(page)
    assert "max 1 MB" in page.locator(".st-key-uploader [data-testid='stWidgetLabel']").inner_text()
    page.locator(".st-key-uploader input[type=file]").set_input_files(str(big))
    why = page.locator(".st-key-uploader [data-testid='stFileChip'] [role='alert']")
    why.wait_for(state="attached")
    box = why.bounding_box()
    colour = why.evaluate("e => getComputedStyle(e).color")
    text = why.inner_text()
    page.close()
    assert "File must be 1.0MB or smaller" in text
    assert box and box["width"] > 100 and box["height"] > 10, box  # shown, not a screen reader's 1 px line
    assert colour == "rgb(168, 40, 47)", colour  # chrome.REFUSAL_TEXT


def test_captions_are_not_faded_and_keyboard_focus_shows_a_ring(server, browser):  # noqa: F811
    """Accessibility walk 2026-11-30: captions were drawn at 60 % opacity (3.89:1 at 14 px; the sidebar's summary
    3.8:1) and a sidebar page link took keyboard focus as a faint background. The rules of BASE_CSS apply: a
    caption in chrome.COLOURS' caption grey, unfaded, on the page and in the sidebar, and a focused link ringed."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    from hciplan_ui import chrome

    def rgb(colour: str) -> str:
        return "rgb({}, {}, {})".format(*(int(colour[i : i + 2], 16) for i in (1, 3, 5)))

    page = _opened(browser, server, 1280, 1000, "/design")
    shown_js = """() => ['stMain', 'stSidebar'].map(where => {
          const c = document.querySelector(`[data-testid=${where}] [data-testid=stCaptionContainer]`);
          let opacity = 1; for (let e = c; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
          return [getComputedStyle(c.querySelector('p')).color, opacity]; })"""
    # CI of 2026-12-02 once measured Streamlit's own faded caption on a settled page that a rerun of the same test
    # (and 14 runs under load) never showed again: the rule is waited for, for up to 10 s, so a page that is a
    # moment late to style passes and a rule that never applies still fails, saying whether BASE_CSS was there
    want = [rgb(chrome.COLOURS["CAPTION_TEXT"]), 1]
    try:
        page.wait_for_function(f"() => ({shown_js})().every(s => s[0] === '{want[0]}' && s[1] === 1)", timeout=10_000)
    except PlaywrightTimeout:  # the assertion below says what was measured
        pass
    shown = page.evaluate(shown_js)
    styled = page.evaluate(
        "() => [...document.querySelectorAll('style')].some(s => s.textContent.includes('stCaptionContainer'))"
    )
    link = page.locator('[data-testid="stSidebarNav"] a').filter(has_text="Capacity")
    link.focus()  # by script: not ringed (no :focus-visible), the keyboard's next and back are
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")
    ring = page.evaluate(
        """() => { const a = document.activeElement, s = getComputedStyle(a);
          return [a.innerText.trim().split('\\n').pop(), s.outlineStyle, s.outlineWidth, s.outlineColor]; }"""
    )
    page.close()
    assert shown == [want] * 2, (shown, f"BASE_CSS in the page: {styled}")
    assert ring == ["Capacity", "solid", "2px", rgb(chrome.COLOURS["FOCUS_RING"])], ring


def test_the_tier_editor_refuses_a_figure_out_of_bounds_in_words(server, browser):  # noqa: F811
    """Pricing-call walk (stop 63): the tier grid's bounds clamped what was typed without a word (-1 TB stored as
    0.001 TB, a read share of 70 as 1) and the prices moved. The grid has no bounds; the tier model refuses the
    figure by row and column, and the tiers in use stay."""
    page = _opened(browser, server, 1280, 1000, "/sla")
    toggle = page.locator(".st-key-tier_editing input")
    for _ in range(4):  # a click while the page's first run still draws can go unseen: clicked until it holds
        if toggle.is_checked():
            break
        page.locator(".st-key-tier_editing label").first.click()
        _settle(page)
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    grid = page.locator('[class*="st-key-tier_editor_"]').first
    grid.wait_for()
    grid.scroll_into_view_if_needed()
    cell_editor = page.locator("input.gdg-input")  # the grid's editor of the cell Enter opened
    # a click while the grid still lays out can go unseen (CI of stop 63), and under a loaded CI three tries of 3 s
    # were not enough (CI of stop 65): until its editor opens
    for _ in range(6):
        page.wait_for_timeout(500)
        box = grid.bounding_box()
        # the first row's name cell, focused (a first click may only focus the grid), then Size, TB
        page.mouse.click(box["x"] + 60, box["y"] + 52)
        page.keyboard.press("Escape")
        page.mouse.click(box["x"] + 60, box["y"] + 52)
        for _ in range(5):
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        try:
            cell_editor.wait_for(timeout=5_000)
            break
        except PlaywrightTimeout:
            page.keyboard.press("Escape")
    assert cell_editor.input_value() == "0.5"  # Standard's size, TB: the cell meant
    cell_editor.fill("-1")
    cell_editor.press("Enter")
    page.wait_for_timeout(400)
    page.get_by_role("button", name="Apply the tiers").click()
    _settle(page)
    said = [a for a in page.locator('[data-testid="stAlert"]').all_inner_texts() if "Tiers not applied" in a]
    page.close()
    assert said and "Row 1 (Standard), Size, TB: must be greater than or equal to 0.001" in said[0], said


def test_the_compare_columns_stand_row_by_row(server, browser):  # noqa: F811
    """Pricing-call walk (stop 63): the what-if's change badges pushed its figures below the current design's, row
    after row out of line. A figure without a badge keeps the badge's room, unseen: each figure's label stands at
    the same height in every column, and the unseen badges are not read out."""
    page = _opened(browser, server, 1280, 1000, "/compare")
    nodes = page.locator(".st-key-wi_nodes input")
    nodes.fill("5")
    nodes.press("Enter")
    _settle(page)
    tops = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid=stMetricLabel]')].map(
          e => [e.innerText.trim(), Math.round(e.getBoundingClientRect().top)])"""
    )
    shown = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid=stMetricDelta]')]
          .filter(e => getComputedStyle(e).visibility === 'visible').map(e => e.innerText.trim())"""
    )
    page.close()
    by_label: dict[str, set[int]] = {}
    for label, top in tops:
        by_label.setdefault(label, set()).add(top)
    assert by_label["Usable capacity"] and len(by_label) >= 5, tops
    assert all(len(t) == 1 for t in by_label.values()), by_label
    assert "+0.0 %" not in shown and any("%" in s for s in shown), shown  # the what-if's own badges, not the room
