"""hciplan Streamlit entry point: page config, shared chrome and navigation."""
import streamlit as st

from ui import chrome, inputs, state

# the favicon is drawn here, not a ":material/...:" icon: Streamlit fetches those
# from fonts.gstatic.com, and the app must work offline
st.set_page_config(page_title="hciplan", page_icon=chrome.page_icon(), layout="wide")
state.init_state()
inputs.keep_inputs()  # the inputs of a page the user left keep their values

design = st.Page("ui/design_page.py", title="Design", icon=":material/tune:", url_path="design_home", default=True)


def _to_design():
    """/design, the address a user types after seeing /size or /sla: the default page is served
    at / only (Streamlit showed "Page not found"), so this hidden page moves there, link kept."""
    st.switch_page(design, query_params=st.query_params.to_dict())


pages = [
    design,
    st.Page(_to_design, title="Design", url_path="design", visibility="hidden"),
    st.Page("ui/capacity_page.py", title="Capacity", icon=":material/storage:", url_path="capacity"),
    st.Page("ui/performance_page.py", title="Performance", icon=":material/speed:", url_path="performance"),
    st.Page("ui/sla_page.py", title="SLA & tiers", icon=":material/verified:", url_path="sla"),
    st.Page("ui/sizing_page.py", title="Size a cluster", icon=":material/calculate:", url_path="size"),
    st.Page("ui/compare_page.py", title="Compare / what-if", icon=":material/compare_arrows:", url_path="compare"),
    st.Page("ui/calibration_page.py", title="Calibration", icon=":material/science:", url_path="calibration"),
]
pg = st.navigation(pages)
chrome.sidebar_controls()
pg.run()
# after the page has updated the scenario, so the summary and the link are never one change behind
chrome.sidebar_summary()
state.sync_query_params()
