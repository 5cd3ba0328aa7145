"""Shared chrome: sidebar (presenter mode, share link, scenario summary)."""
from __future__ import annotations

import streamlit as st

from ui import state

PRESENTER_CSS = """
<style>
[data-testid="stMetricValue"] { font-size: 3.2rem !important; }
[data-testid="stMetricLabel"] p { font-size: 1.3rem !important; }
.hp-clutter { display: none; }
</style>
"""


def sidebar() -> None:
    with st.sidebar:
        st.toggle("Presenter mode", key="presenter", help="Big numbers, no sidebar clutter")
        if state.presenter():
            st.markdown(PRESENTER_CSS, unsafe_allow_html=True)
            return
        d = state.design_json()
        import json

        dd = json.loads(d)
        st.caption(f"**Design** {dd['name']} · {dd['nodes']} nodes · {dd['resiliency']}")
        st.caption(f"**Workload** {state.workload_name()}")
        with st.expander("Shareable link", icon=":material/link:"):
            st.caption("The address bar always holds this link too.")
            st.code(f"?{state.SHARE_PARAM}={state.current_token()}", language=None, wrap_lines=True)


def header(title: str) -> None:
    st.title(title)
    state.show_link_messages()
