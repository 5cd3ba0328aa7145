"""The app as the AppTest walks open it: its file, its pages, a session on the Design page, the design loader
opened, a demand sized on the Size page with its best design in use, and what a page says in words. One copy for
every test file that drives the app (each had its own)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
PAGES = [
    "hciplan_ui/design_page.py",
    "hciplan_ui/capacity_page.py",
    "hciplan_ui/performance_page.py",
    "hciplan_ui/sla_page.py",
    "hciplan_ui/sizing_page.py",
    "hciplan_ui/compare_page.py",
    "hciplan_ui/calibration_page.py",
]


def app(query: dict | None = None, timeout: float = 60) -> AppTest:
    """The app on its Design page (a link opens there; without one the app starts on its start page)."""
    at = AppTest.from_file(APP, default_timeout=timeout)
    if query:
        at.query_params.update(query)
    at.run()
    if not query:
        at.switch_page("hciplan_ui/design_page.py").run()
    return at


def open_loader(at: AppTest) -> AppTest:
    """The Design page's "Load or save a design file" section opened (a closed section draws nothing), as a
    user does, or the start page's "Check a design"."""
    at.session_state["design_loader"] = True
    return at.run()


def sized(demand: bytes, use: bool = True, timeout: float = 180) -> AppTest:
    """A fresh session with ``demand`` (a demand file's bytes) uploaded on the Size page and, with ``use``, its best
    design used ("Use this design")."""
    at = AppTest.from_file(APP, default_timeout=timeout).run()
    at.switch_page("hciplan_ui/sizing_page.py").run()
    at.file_uploader(key="size_upload").set_value([("demand.json", demand, "application/json")]).run()
    assert not at.exception, [e.value for e in at.exception]
    if use:
        at.button(key="size_use_best").click().run()
    return at


def said(at: AppTest) -> str:
    """Every caption, markdown, warning and info of the page, as one text with Streamlit's escapes removed."""
    return " ".join(
        str(x.value).replace("\\", "") for k in ("caption", "markdown", "warning", "info") for x in getattr(at, k)
    )
