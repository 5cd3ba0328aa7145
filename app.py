"""hciplan Streamlit entry point: page config, shared chrome and navigation."""
import importlib.util

import streamlit as st

from ui import chrome, state

st.set_page_config(page_title="hciplan", page_icon=":material/dns:", layout="wide")
state.init_state()

pages = [
    st.Page("ui/design_page.py", title="Design", icon=":material/tune:", default=True),
    st.Page("ui/capacity_page.py", title="Capacity", icon=":material/storage:"),
    st.Page("ui/performance_page.py", title="Performance", icon=":material/speed:"),
    st.Page("ui/compare_page.py", title="Compare / what-if", icon=":material/compare_arrows:"),
    st.Page("ui/calibration_page.py", title="Calibration", icon=":material/science:"),
]
# pages over modules another part of the project adds: only when present
if all(importlib.util.find_spec(m) for m in ("planner.sla", "planner.tiers", "planner.pricing")):
    pages.append(st.Page("ui/sla_page.py", title="SLA & tiers", icon=":material/verified:"))
if importlib.util.find_spec("planner.sizing"):
    pages.append(st.Page("ui/sizing_page.py", title="Size a cluster", icon=":material/calculate:"))
pg = st.navigation(pages)
chrome.sidebar()
pg.run()
state.sync_query_params()
