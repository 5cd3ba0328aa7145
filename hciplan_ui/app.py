"""The app: page config, shared chrome and navigation. ``main()`` runs once per Streamlit
rerun; the repository's ``app.py`` and ``hciplan app`` (through ``streamlit_app.py``) call it."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from hciplan_ui import chrome, inputs, state

HERE = Path(__file__).resolve().parent


def _page(name: str, **kw):
    # absolute paths: the pages resolve the same whichever script started the app
    return st.Page(HERE / f"{name}_page.py", **kw)


def main() -> None:
    _skip_direct_run_check()
    # the favicon is drawn here, not a ":material/...:" icon: Streamlit fetches those from fonts.gstatic.com, and
    # the app must work offline; set before the navigation, which would otherwise show the page's icon
    st.set_page_config(page_icon=chrome.page_icon(), layout="wide")
    state.init_state()
    inputs.keep_inputs()  # the inputs of a page the user left keep their values

    # the default page is at "/": its url_path is never served, so /start said "Page not found" (browser review
    # 2026-11-30); a hidden page at /start moves to it, the link kept
    start = _page("start", title="Start", icon=":material/home:", default=True)
    design = _page("design", title="Design", icon=":material/tune:", url_path="design")

    def _to_start():
        """/start: the start page's own address, moved to "/"."""
        st.switch_page(start, query_params=st.query_params.to_dict())

    def _to_design():
        """/design_home, the Design page's address while it was the first page: moves to /design, link kept."""
        st.switch_page(design, query_params=st.query_params.to_dict())

    pages = [
        start,
        design,
        st.Page(_to_design, title="Design", url_path="design_home", visibility="hidden"),
        st.Page(_to_start, title="Start", url_path="start", visibility="hidden"),
        _page("capacity", title="Capacity", icon=":material/storage:", url_path="capacity"),
        _page("performance", title="Performance", icon=":material/speed:", url_path="performance"),
        _page("sla", title="SLA & tiers", icon=":material/verified:", url_path="sla"),
        _page("sizing", title="Size a cluster", icon=":material/calculate:", url_path="size"),
        _page("compare", title="Compare / what-if", icon=":material/compare_arrows:", url_path="compare"),
        _page("calibration", title="Calibration", icon=":material/science:", url_path="calibration"),
    ]
    chrome.PAGES.update({"start": start, "design": design, "size": pages[7], "sla": pages[6], "compare": pages[8]})
    pg = st.navigation(pages)
    # each page its own browser title ("Size a cluster · hciplan"): a tab, a bookmark or a screen reader's list
    # of windows said "hciplan" on every page (accessibility walk 2026-11-30); the page is known from here on
    st.set_page_config(page_title=f"{pg.title} · hciplan")
    chrome.sidebar_controls()
    pg.run()
    st.session_state.pop("link_landing", None)  # only the first run of a link goes from / to Design
    # after the page has updated the scenario, so the summary and the link are never one change behind
    chrome.sidebar_summary()
    state.sync_query_params()
    chrome.warm_charts()  # last: the page's own elements reach the browser first


def _skip_direct_run_check() -> None:
    """Streamlit checks once per process, at the first element, whether the script was started with
    ``python`` rather than ``streamlit run``, through ``inspect.stack()``, which reads the source of every
    frame: 0.6 s of the first page of a fresh server. The app is always started by Streamlit (``streamlit
    run`` or ``hciplan app``), so the check is marked done; a Streamlit without the flag is left as is."""
    import streamlit.delta_generator as dg

    if hasattr(dg, "_use_warning_has_been_displayed"):
        dg._use_warning_has_been_displayed = True
