"""Shared chrome: favicon, sidebar (presenter mode, scenario summary, share link)."""

from __future__ import annotations

import json
from functools import lru_cache

import streamlit as st

from hciplan_ui import fmt, inputs, sizing_rows, state

# Metric values wrap instead of ending in '…' (a long bottleneck name, presenter mode's big font),
# and so do metric and widget labels ("Cheapest design, USD/month" in a fifth of 1024 px was
# "Cheapest desi…", a checkbox's "Azure Local validated nodes" "Azure Loc…"),
# and their font follows the metric's own width (a CSS container, ``cqi`` units) so that a number
# such as 1,079,240 (about 4 em) or a word such as 'utilisation' (about 4.2 em, :func:`word_metric`)
# never breaks inside itself: at a fixed size they broke mid-number and mid-word in a quarter or a
# fifth of a 1024-1280 px window. Presenter mode raises the cap to 3.2rem (its selectors are the more
# specific: the base style may be injected after it) and lets labels wrap, between words only, their font
# following the metric's width too (at 1024 px a fifth of the page broke "cost/mo|nth" at 1.3rem).
#: the colours BASE_CSS sets, by the name it uses for each; their contrast is computed in tests/test_ui_helpers.py
#: against the page's white and the sidebar's #f8f8f7 (Streamlit's light theme)
COLOURS = {
    # captions hold key figures (bands, part specs, the sidebar's design): Streamlit drew them at 60 % opacity,
    # 3.9:1 on white and 3.8:1 in the sidebar at 14 px (accessibility walk 2026-11-30); now 6.1:1 and 5.7:1
    "CAPTION_TEXT": "#65625f",
    # keyboard focus: a sidebar page link showed it as a faint background (about 1.1:1); a ring of 6.0:1 and 5.7:1
    "FOCUS_RING": "#1c62b9",
    # a file box's refusal ("File must be 1.0MB or smaller."): 6.3:1 on the refused file's pink (#fff1f2)
    "REFUSAL_TEXT": "#a8282f",
}


def _coloured(css: str) -> str:
    """``css`` with each of :data:`COLOURS`' names replaced by its colour."""
    for name, colour in COLOURS.items():
        css = css.replace(name, colour)
    return css


BASE_CSS = """
<style>
.st-key-hciplan_preload, div:has(> .st-key-hciplan_preload) { display: none; }
.st-key-hciplan_scroll, div:has(> .st-key-hciplan_scroll) { display: none; }
.st-key-hciplan_names, div:has(> .st-key-hciplan_names) { display: none; }
div:has(> .st-key-hciplan_warm) { position: fixed; left: -10000px; top: 0; width: 600px; visibility: hidden;
  pointer-events: none; }
[data-testid="stMetric"] { container-type: inline-size; }
[data-testid="stMetricValue"] { font-size: min(2.25rem, 24cqi) !important; }
[class*="st-key-words_"] [data-testid="stMetricValue"] { font-size: min(2.25rem, 22cqi) !important; }
[data-testid="stMetricValue"], [data-testid="stMetricValue"] > div, [data-testid="stMetricValue"] p {
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important;
  overflow-wrap: anywhere; line-height: 1.15; }
[class*="st-key-words_"] [data-testid="stMetricValue"], [class*="st-key-words_"] [data-testid="stMetricValue"] * {
  overflow-wrap: normal !important; word-break: keep-all; }
[data-testid="stMetricLabel"] .stMarkdownEllipsis, [data-testid="stMetricLabel"] .stMarkdownEllipsis *,
[data-testid="stWidgetLabel"] .stMarkdownEllipsis, [data-testid="stWidgetLabel"] .stMarkdownEllipsis * {
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important;
  overflow-wrap: normal; }
/* a widget's label wraps between words only: Streamlit breaks its <p> anywhere (word-break: break-word), and at
   800 px "Azure Local validate|d nodes" and "Outstandi|ng per thread" broke mid-word (accessibility walk 2026-11-30).
   A column of widgets then keeps the room its label's longest word takes ("Outstanding", 72 px; a check box's
   "validated" or "what-if" beside its box and help icon), and a select box the room its value takes (an input cannot wrap: at
   800 px Fault tolerance showed "node an", Statistic "me"): one word in a row of four or more, a few words
   ("on the nodes (host)") in a narrower row. A row of columns wraps, as Streamlit lets it, when its columns would
   be narrower; the widths keep every row whole from 1,280 px up (the SLA page's six columns are 143 px there) */
[data-testid="stWidgetLabel"] p, [data-testid="stWidgetLabel"] p * { word-break: normal; overflow-wrap: normal; }
[data-testid="stColumn"]:not(:has([data-testid="stHorizontalBlock"])):has([data-testid="stWidgetLabel"]) {
  min-width: 4.75rem; }
[data-testid="stColumn"]:not(:has([data-testid="stHorizontalBlock"])):has([data-testid="stCheckbox"]) {
  min-width: 7.5rem; }
/* a number box keeps the room of its value beside its clear and step buttons (90 px of the column): at 1,024 px the
   SLA page's latency target "1.000" showed "1.0" and its size "4.00" "4.0", the Size page's "1000.00" GB "1000.0"
   (walk 2026-12-01); 10rem leaves 50 px, a value of seven figures */
[data-testid="stColumn"]:not(:has([data-testid="stHorizontalBlock"])):has([data-testid="stNumberInput"]) {
  min-width: 10rem; }
[data-testid="stColumn"]:not(:has([data-testid="stHorizontalBlock"])):has([data-testid="stSelectbox"]) {
  min-width: 10.5rem; }
[data-testid="stHorizontalBlock"]:has(> :nth-child(4))
  > [data-testid="stColumn"]:not(:has([data-testid="stHorizontalBlock"])):has([data-testid="stSelectbox"]) {
  min-width: 8.75rem; }
/* a page's sections are its h2s, under its h1 title (they were h3s: the outline jumped from h1 to h3;
   accessibility walk 2026-11-30), drawn as the h3s were */
[data-testid="stMain"] [data-testid="stHeadingWithActionElements"] h2 { font-size: 1.75rem; line-height: 1.2;
  padding: 0.75rem 0 1rem; letter-spacing: -0.005em; }
/* a Compare column's figure without a change badge keeps the badge's room, unseen: the columns stand row by row */
[class*="st-key-cmp_flat_"] [data-testid="stMetricDelta"] { visibility: hidden; }
/* captions (key figures among them) at 4.5:1 and more on the page and in the sidebar: no fading opacity */
html [data-testid="stCaptionContainer"] { opacity: 1; color: CAPTION_TEXT; }
/* keyboard focus seen at once: a ring around the link, button, section or tab (Streamlit drew none on a sidebar
   page link, only a faint background); !important over Streamlit's own "outline: none" rules */
:is(a, button, summary, [role="tab"]):focus-visible { outline: 2px solid FOCUS_RING !important;
  outline-offset: 2px !important; }
/* a file refused for its size: Streamlit marks it with a red icon and says why only on hover, in a line kept for
   screen readers (role "alert"); that line is shown under the file (hciplan_ui.inputs.file_box) */
[data-testid="stFileChip"]:has(> [role="alert"]) { flex-wrap: wrap; }
[data-testid="stFileChip"] > [role="alert"] { position: static; width: auto; height: auto; clip: auto;
  overflow: visible; white-space: normal; flex-basis: 100%; margin: 0.25rem 0 0; font-size: 0.875rem;
  color: REFUSAL_TEXT; }
/* the static tables (hciplan_ui.fmt.table: markdown, drawn five times faster than st.table) as compact as
   st.table drew them: its 14 px text and tight cells, not the body's 16 px and wide padding */
[data-testid="stMarkdownContainer"] table { font-size: 0.875rem; line-height: 1.35; }
[data-testid="stMarkdownContainer"] th, [data-testid="stMarkdownContainer"] td { padding: 0.3rem 0.45rem; }
[data-testid="stMarkdownContainer"] th { font-weight: 600; color: rgba(49, 51, 63, 0.75); }
/* a word longer than its cell breaks only then; "anywhere" let the table shrink its columns so far that
   "8,702,551-26,144,896 IOPS" broke in the middle of its figures */
[data-testid="stMarkdownContainer"] td { overflow-wrap: break-word; }
/* a figure (a right-aligned column) is never broken: "$408,95" over "6" */
[data-testid="stMarkdownContainer"] td[style*="right"], [data-testid="stMarkdownContainer"] td[align="right"] {
  overflow-wrap: normal; white-space: nowrap; }
/* on a laptop's 1024-1280 px the wide layout's 5 rem side margins left tables 564 px, and the designs,
   tiers and calibration tables (596-676 px) lost their last column behind a scrollbar that does not show */
@media (max-width: 1280px) { [data-testid="stMainBlockContainer"] { padding-left: 1rem; padding-right: 1rem; } }
/* a table still wider than its column scrolls within its own block, not the whole page (the published results'
   table ran to 1,032 px on a 1,024 px projector, its last column cut; new-user walk 2026-11-30) */
[data-testid="stMarkdownContainer"]:has(> table) { overflow-x: auto; }
</style>
"""
BASE_CSS = _coloured(BASE_CSS)
PRESENTER_CSS = """
<style>
html [data-testid="stMetric"] [data-testid="stMetricValue"] { font-size: min(3.2rem, 24cqi) !important; }
html [class*="st-key-words_"] [data-testid="stMetric"] [data-testid="stMetricValue"] {
  font-size: min(3.2rem, 22cqi) !important; }
[data-testid="stMetricLabel"], [data-testid="stMetricLabel"] * {
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important; }
[data-testid="stMetricLabel"] p { font-size: min(1.3rem, 14cqi) !important; line-height: 1.2; }
[data-testid="stMetricLabel"] p, [data-testid="stMetricLabel"] p * { overflow-wrap: normal !important;
  word-break: keep-all !important; }
.hp-clutter { display: none; }
</style>
"""


#: the pages a page may send the user to (st.switch_page), filled by :func:`hciplan_ui.app.main`
PAGES: dict = {}


@lru_cache(maxsize=1)
def page_icon():
    """A small rack of three servers, drawn locally (no icon download)."""
    from PIL import Image, ImageDraw

    img = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    for i in range(3):
        y = 6 + i * 19
        d.rounded_rectangle((6, y, 58, y + 14), radius=3, fill=(31, 119, 180, 255))
        d.ellipse((46, y + 4, 52, y + 10), fill=(255, 255, 255, 255))
    return img


#: Streamlit's frontend loads the code of a chart or table type the first time a page shows one: plotly.js
#: (4.7 MB) and the data grid (1.3 MB with its Arrow readers), 1.5-2.5 s of the browser's main thread on the
#: 2-core test machine (benchmarks/browser.py), paid inside the first sizing or the first chart page. They
#: are fetched and evaluated once the first page is idle instead (:func:`preload_frontend`). So are the
#: widgets the start page does not show (the Size page's first visit fetched 14 chunks, number inputs,
#: select boxes, radios, the file uploader...: 611 ms against 277 ms for a later visit; 2026-11-29). Not
#: st.table's: the app draws no st.table (static tables are markdown, :func:`hciplan_ui.fmt.table`).
PRELOAD_CHUNKS = (
    "PlotlyChart",
    "DataFrame",
    "DateInput",
    "NumberInput",
    "Selectbox",
    "Radio",
    "FileUploader",
    "Slider",
    "Metric",
    "Multiselect",
    "TextInput",
    "DownloadButton",
    "Checkbox",
)


@lru_cache(maxsize=1)
def _preload_script() -> str:
    """The script of :func:`preload_frontend`: the installed Streamlit's own chunk files (their names carry
    a content hash, so they are looked up, never written here); empty when none is found."""
    from pathlib import Path

    js = Path(st.__file__).resolve().parent / "static" / "static" / "js"
    names = sorted(f.name for name in PRELOAD_CHUNKS for f in js.glob(f"{name}.*.js") if f.name.count(".") == 2)
    if not names:
        return ""
    # resolved against the frontend's own bundle (static/js/index.*.js), as its own imports are, so the
    # address is the same module's whatever the page's path or a server path prefix; the page's later import
    # then finds it evaluated
    return (
        "<script>(() => { if (window.__hciplanPreload) return; window.__hciplanPreload = true;"
        " const main = document.querySelector('script[type=module][src*=\"static/js/index.\"]');"
        " const base = main ? main.src : new URL('static/js/x.js', document.baseURI).href;"
        f" const names = {json.dumps(names)};"
        " const go = () => names.forEach(n => import(new URL(n, base).href).catch(() => {}));"
        " if (window.requestIdleCallback) requestIdleCallback(go, {timeout: 4000}); else setTimeout(go, 1000);"
        " })();</script>"
    )


def preload_frontend() -> None:
    """Have the browser load the chart and table code while the first page is idle
    (:data:`PRELOAD_CHUNKS`). On every run, not the session's first only: a first run cut short (a link
    that moves to its page) sends nothing, and the script itself does its work once per browser tab. The
    script is this module's constant text and the installed Streamlit's file names; nothing the user typed
    goes into it."""
    script = _preload_script()
    if script:
        # a hidden container (BASE_CSS): an empty element still took a flex gap in the sidebar
        with st.sidebar.container(key="hciplan_preload"):
            st.html(script, unsafe_allow_javascript=True)


#: Streamlit draws a plotly chart as a bare <div>: a screen reader met its tick labels one by one, with nothing
#: saying what the chart was (accessibility walk 2026-11-30), and st.plotly_chart takes no label. This script
#: names every chart of the page, now and as charts are drawn: a figure (role "figure") named by its title and
#: what its axes show, or the description the chart was built with (hciplan_ui.charts._layout_dict's
#: ``description``, in the layout's ``meta``). Its text is this constant and the charts' own titles, set as an
#: attribute (never as markup).
_NAME_SCRIPT = (
    "<script>(() => { if (window.__hciplanChartNames) return; window.__hciplanChartNames = true;"
    " const text = (c, sel) => { const e = c.querySelector(sel); return e ? e.textContent.trim() : ''; };"
    " const name = c => { const gd = c.querySelector('.js-plotly-plot');"
    "  const meta = gd && gd.layout && gd.layout.meta; const title = text(c, '.gtitle') || 'Chart';"
    "  if (meta && meta.description) return title + ' (chart): ' + meta.description;"
    "  const x = text(c, '.xtitle'), y = text(c, '.ytitle');"
    "  return title + ' (chart' + (y && x ? ': ' + y + ' against ' + x : x || y ? ': ' + (y || x) : '') + ')'; };"
    " const label = () => { for (const c of document.querySelectorAll('[data-testid=\"stPlotlyChart\"]')) {"
    "  if (!c.querySelector('.gtitle, .xtitle, .ytitle')) continue;"
    "  const n = name(c); if (c.getAttribute('aria-label') !== n) { c.setAttribute('role', 'figure');"
    "  c.setAttribute('aria-label', n); } } };"
    " let queued = false;"
    " new MutationObserver(() => { if (queued) return; queued = true;"
    "  requestAnimationFrame(() => { queued = false; label(); }); })"
    "  .observe(document.body, {childList: true, subtree: true, characterData: true});"
    " label(); })();</script>"
)


def name_charts() -> None:
    """Every plotly chart of the page named for assistive technology (:data:`_NAME_SCRIPT`); on every run,
    in a hidden container (as :func:`preload_frontend`): the script does its work once per browser tab."""
    with st.sidebar.container(key="hciplan_names"):
        st.html(_NAME_SCRIPT, unsafe_allow_javascript=True)


def chart_table(container, key: str, rows: list[dict], note: str | None = None) -> None:
    """A chart's figures as a table (units in its headers), in a closed section under the chart: its text
    alternative, for a reader who cannot see the chart or wants its numbers. Closed, it holds nothing (opening
    it reruns the page with it), so a what-if does not rebuild it. ``note``: a line under the table (the
    app's own words; user text in it goes through :func:`hciplan_ui.fmt.md` first)."""
    if not rows:
        return
    section = container.expander("The chart's figures as a table", key=f"{key}_figures", on_change="rerun")
    if section.open:
        with section:
            st.markdown(fmt.table(rows))
            if note:
                st.caption(note)


#: session state: the next SLA page run shows its service tiers first (the start page's "Price tiers")
TO_TIERS = "_sla_to_tiers"
#: the script that brings a heading into view: this module's constant text and a heading's id, which
#: Streamlit makes from the heading's own text (nothing the user typed)
_SCROLL_SCRIPT = (
    "<script>(() => {{ const t0 = performance.now(); let mine = true;"
    " const off = () => {{ mine = false; }};"
    " for (const e of ['wheel', 'touchstart', 'keydown', 'mousedown'])"
    " window.addEventListener(e, off, {{once: true, capture: true}});"
    " const go = () => {{ if (!mine) return; const h = document.getElementById({anchor});"
    " if (h && Math.abs(h.getBoundingClientRect().top) > 2) h.scrollIntoView({{block: 'start'}});"
    " if (performance.now() - t0 < 5000) requestAnimationFrame(go); }}; go(); }})();"
    "</script>"
)


def scroll_to(anchor: str) -> None:
    """Bring the heading whose anchor is ``anchor`` (e.g. "service-tiers" for ``st.header("Service
    tiers")``) into view, once it is on the page, and keep it there for 5 s unless the user scrolls, types or
    clicks first: drawn after the heading, the script could still run before the browser had drawn it (a second
    session on a warm server did), and on a loaded machine the page above it still settled after the scroll,
    leaving the heading 32 px above the window's top (a parallel test run, 2026-12-02); in a hidden container, so
    it takes no room. "Price tiers" on the start page landed on the SLA page's one-database
    guarantee, its tier prices a screen and more below (browser review 2026-11-29)."""
    with st.container(key="hciplan_scroll"):
        st.html(_SCROLL_SCRIPT.format(anchor=json.dumps(anchor)), unsafe_allow_javascript=True)


#: session state: the session's first chart has been drawn out of sight (:func:`warm_charts`)
WARMED = "_charts_warmed"


def warm_charts() -> None:
    """Draw one small chart out of sight on the session's first full run, after the page.

    The browser compiles a JavaScript function the first time it runs it, so the session's first chart
    paid for compiling plotly's drawing code: on the Performance page's first visit 70-75 ms of V8
    compilation and 26-28 ms of parsing against 30 and 10 with a chart drawn before (chromium traces,
    2026-11-29). That first visit went from 422-442 to 353-359 ms median and the first page from
    1,080-1,084 to 1,129-1,164 ms (8 sessions each, two pairs). The chart has the app's kinds (lines with
    markers, horizontal bars, a line across with its label) in the app's look; it sits off screen, hidden
    from assistive technology (``visibility: hidden``), and is gone on the next run. Nothing the user typed
    goes into it."""
    if st.session_state.get(WARMED):
        return
    st.session_state[WARMED] = True
    import plotly.graph_objects as go

    from hciplan_ui import charts

    fig = go.Figure(
        [
            go.Scatter(x=[1, 2], y=[1, 2], mode="lines+markers", name="a"),
            go.Bar(x=[1, 2], y=["b", "c"], orientation="h", name="b"),
        ]
    )
    fig.add_hline(y=1.5, annotation_text="t")
    with st.sidebar.container(key="hciplan_warm"):
        st.plotly_chart(charts.themeless(fig), key="hciplan_warm_chart", theme=None)


def sidebar_controls() -> None:
    """Before the page: the presenter toggle (pages read it)."""
    st.markdown(BASE_CSS, unsafe_allow_html=True)
    preload_frontend()
    name_charts()
    with st.sidebar:
        st.toggle("Presenter mode", key="presenter", help="Big numbers, no sidebar clutter")
        if state.presenter():
            st.markdown(PRESENTER_CSS, unsafe_allow_html=True)


def sidebar_summary() -> None:
    """After the page: the scenario as the page left it, its share link and the saved scenarios."""
    if state.presenter():
        return
    dd = json.loads(state.design_json())
    with st.sidebar:
        st.caption(f"**Design** {fmt.md(sizing_rows.design_label(dd))}")
        st.caption(f"**Workload** {fmt.md(state.workload_label(state.workload_name()))}")
        if state.session_calibration():
            # a refit changes every prediction: say so on every page, not only where it was made
            st.caption("**Calibration** customer refit (this session; the share link does not carry it)")
        # a closed section holds nothing, so a what-if does not redraw the link behind it (the address bar
        # holds it anyway); opening the section reruns the page with it
        # an open section stays open on the next page (the engineer saving variants on a call reopened it
        # after every page switch: review 2026-11-29); a widget key is per page, so it is kept by hand
        inputs.keep("share_link", "saved_open")
        link = st.expander("Shareable link", icon=":material/link:", key="share_link", on_change="rerun")
        if link.open:
            with link:
                param, value = state.share_query()
                st.caption(
                    "The address bar always holds this link too: the whole session (design, what-ifs, workload, "
                    "sized demand, SLA choices, tiers, costs), every page's figures as you see them."
                    + (
                        " Too long for an address, the session is kept in the scenario database under this id."
                        if param == state.LINK_ID_PARAM
                        else ""
                    )
                )
                # one line with its copy button: wrapped, a 3,200-character link ran down the whole sidebar (browser
                # review 2026-11-29)
                st.code(share_address(param, value), language=None, wrap_lines=False)
        saved = st.expander("Saved scenarios", icon=":material/bookmarks:", key="saved_open", on_change="rerun")
        if saved.open:
            with saved:
                from hciplan_ui import saved_scenarios

                saved_scenarios.panel()


def share_address(param: str, value: str) -> str:
    """The link as the address bar holds it, with the app's address: "?s=eNrt..." alone opened nothing
    pasted into an email (browser review 2026-11-30). The address is the one this browser reached the app
    at (``st.context.url``, Streamlit's own record of the page's address, never typed by the user into the
    page); without one (a test's session) the query alone."""
    from urllib.parse import urlsplit, urlunsplit

    query = f"{param}={value}"
    url = st.context.url
    if not url:
        return f"?{query}"
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return f"?{query}"
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, ""))


def header(title: str) -> None:
    st.title(title)
    state.show_link_messages()


def word_metric(container, label: str, value: str, help: str | None = None) -> None:
    """A metric whose value is words (a bottleneck, a binding constraint), not a number: its
    font follows its column a little more tightly than a number's, so no word breaks mid-word
    (see BASE_CSS and PRESENTER_CSS)."""
    fitted_metric(container, label, value, "".join(c if c.isalnum() else "_" for c in label.lower()), help)


def fitted_metric(container, label: str, value: str, slug: str, help: str | None = None) -> None:
    """A metric whose value's font follows its column (:func:`word_metric`), keyed by ``slug``: a
    long figure ("$1,028,512", a 5-year TCO) overflowed a quarter-width column in presenter mode."""
    with container.container(key=f"words_{slug}"):
        # words never break inside themselves (BASE_CSS): the font is sized so the longest word fits
        # the metric's width (about 0.62 em a character, bold), "IOPS (saturation)" was "saturatio|n"
        longest = max((len(w) for w in str(value).split()), default=1)
        cap = "3.2rem" if state.presenter() else "2.25rem"
        # st.html of a style alone takes no room on the page (st.markdown's would)
        st.html(
            f"<style>html body .st-key-words_{slug} [data-testid='stMetric'] [data-testid='stMetricValue'] "
            f"{{ font-size: min({cap}, {100 / (0.62 * max(longest, 4)):.1f}cqi) !important; }}</style>"
        )
        st.metric(label, value, help=help)
