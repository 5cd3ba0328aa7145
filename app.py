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
pg = st.navigation(pages)
chrome.sidebar()
pg.run()
state.sync_query_params()
