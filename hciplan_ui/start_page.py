"""Start page: the customer's question first. Three ways in, each to the page that answers
it with the session as it stands (nothing the user entered is reset)."""

from __future__ import annotations

import json

import streamlit as st

from hciplan_ui import chrome, fmt, sizing_rows, state

# a link opened at / shows its design, as links did when the Design page was the first page
if st.session_state.get("link_landing"):
    st.switch_page(chrome.PAGES["design"], query_params=st.query_params.to_dict())

chrome.header("hciplan")
st.markdown("**What does the customer want to know?**")
ENTRIES = (
    (
        "size",
        "Size a cluster for my databases",
        "Their databases per service tier, their totals, what a DBA knows of them, or a demand file: "
        "the cheapest designs that meet it, every rule checked with its source, the parts list and the cost.",
        "Size a cluster",
    ),
    (
        "design",
        "Check a design I have",
        "A design file, an example, or parts picked from the catalog: its usable capacity, IOPS and latency "
        "with their bands, what binds first, and what one node down does to it.",
        "Check a design",
    ),
    (
        "sla",
        "Price DBaaS tiers",
        "Service tiers (guaranteed IOPS at a latency target, size, vCPUs, RAM): how many databases of each fit "
        "on the design, what one database is guaranteed next to the others, and each tier's price per month.",
        "Price tiers",
    ),
)
cols = st.columns(3)
for col, (page, title, what, action) in zip(cols, ENTRIES):
    # the three cards as tall as the tallest, their buttons on one line (they stood at three heights)
    with col.container(border=True, height="stretch"):
        st.header(title)
        st.caption(what)
        st.space("stretch")
        if st.button(action, key=f"start_{page}", type="primary", width="stretch"):
            if page == "design":
                st.session_state["design_loader_open"] = True  # the file loader first: it is their design
            if page == "sla":
                st.session_state[chrome.TO_TIERS] = True  # the tiers first: they asked for tier prices
            st.switch_page(chrome.PAGES[page])

d = json.loads(state.design_json())
st.caption(
    # by its parts' names, as every page heads it (a sized design's name is its parts' ids; browser review
    # 2026-11-29: "4x hpe-dl380-gen11 2xintel-xeon-gold-6430 ... mirror-3way")
    f"The session now holds the design **{fmt.md(sizing_rows.design_label(d))}**"
    + f" under the workload **{fmt.md(state.workload_name())}**"
    + (", and a sized demand" if state.demand_json() else "")
    + ". Every page reads and changes this one session; the address bar always holds a link to all of it, "
    "and **Saved scenarios** in the sidebar keeps it per customer."
)
