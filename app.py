"""hciplan Streamlit entry point: page config and navigation only."""
import streamlit as st

st.set_page_config(page_title="hciplan", page_icon=":material/dns:", layout="wide")

pages = [
    st.Page("ui/capacity_page.py", title="Capacity", icon=":material/storage:", default=True),
]
st.navigation(pages).run()
