"""Capacity page: the waterfall from raw to usable (TB and TiB) and the N+1 check."""

import json

import streamlit as st

from hciplan_ui import charts, chrome, costs, export, fmt, sizing_rows, state
from planner.core.text import first_upper, sentence
from planner.sizing.words import customer_words

chrome.header("Capacity")
cap = state.capacity(state.design_json())
# the design these figures are of, as the Performance page heads it (with a Ceph design's release: the Capacity page
# alone named none; pre-sales Ceph walk 2026-12-03)
st.caption(
    f"Design **{fmt.md(sizing_rows.design_label(json.loads(state.design_json())))}**"
    f"{sizing_rows.release_said(json.loads(state.design_json()))}"
)

# with a demand, the question is its data, not volumes filling the pool: the sizing's N+1 rule is the
# headline (a "no" for full volumes beside every other page's "N+1 met" read as a contradiction)
judged = costs.verdict(state.design_json())
demand_rows = None
if judged and "error" not in judged and judged["judged"]:
    demand_rows = {d["key"]: d for d in judged["dimensions"]}

c1, c2, c3, c4 = st.columns(4)
c1.metric("Raw capacity", f"{cap['raw_capacity_tb']:,.2f} TB")
c2.metric("Usable capacity", f"{cap['usable_capacity_tb']:,.2f} TB", help=f"{cap['usable_capacity_tib']:,.2f} TiB")
c3.metric("Usable (TiB)", f"{cap['usable_capacity_tib']:,.2f} TiB")
if demand_rows is not None:
    # data that does not fit with every node up is not "not re-protected" (the pool repairs, as the caption below
    # says of volumes filling it): it does not fit (account-manager walk 2026-11-30: 103.7 TB on 40.7 TB usable)
    fits = demand_rows["capacity"]["met"]
    c4.metric(
        "Your data after a node loss",
        "re-protected" if demand_rows["n_plus_one"]["capacity_met"] else "not re-protected" if fits else "does not fit",
        help="the sizing's N+1 rule: after losing a node, the survivors rebuild every copy of the demand's data"
        + ("" if fits else ". The demand's data does not fit the usable capacity even with every node up"),
    )
else:
    c4.metric(
        "Re-protects when full",
        "yes" if cap["reprotected_after_node_loss"] else "no",
        help="whether the survivors can rebuild every copy with the volumes filling the whole usable capacity",
    )
# the physics' note names the layout by its id ("mirror-3way needs 3 to repair"): in words here
full = fmt.md(customer_words(cap["node_loss_note"])) + (
    ""
    if cap["reprotected_after_node_loss"] or not cap.get("repairs_after_node_loss")
    else f". Keeping the volumes to {cap['reprotected_after_node_loss_tb']:,.2f} TB (what the survivors hold re-protected) lets the "
    # no full stop here: every sentence built from `full` ends it (a second one read "counts..")
    "survivors re-protect them: that is the capacity the sizing's N+1 rule counts"
)
if demand_rows is not None:
    cap_row, n1_row = demand_rows["capacity"], demand_rows["n_plus_one"]
    (st.success if cap_row["met"] and n1_row["capacity_met"] else st.warning)(
        fmt.md(
            f"Your demand: {customer_words(cap_row['detail'])} ({'met' if cap_row['met'] else 'not met'}). "
            f"With one node down (N+1): {customer_words(n1_row['capacity_detail'])} "
            f"({'met' if n1_row['capacity_met'] else 'not met'}). The sizing counts the demand's data, not volumes "
            "filling the whole usable capacity."
        ),
        icon=":material/database:",
    )
    if costs.other_demands_load(judged):
        # the Performance page's verdict said whose demand it judged; this page judged the Size page's latest demand
        # beside a design used for an earlier one without a word (stop 58-59's note)
        st.caption(
            ":orange[The demand judged here is the Size page's latest; the design and workload in use came from an "
            "earlier one (**Use this design**). Use a design for the latest demand to see it judged on its own.]"
        )
    # the pool filled to the brim is a what-if for later growth, not the answer: said, not warned
    st.caption("If the volumes filled the whole usable capacity: " + full + ".")
else:
    (st.success if cap["reprotected_after_node_loss"] else st.warning)(sentence(full))

unit = st.segmented_control("Unit", ["TB", "TiB"], default="TB", key="cap_unit") or "TB"
st.plotly_chart(charts.capacity_waterfall(cap, unit), width="stretch", key="cap_waterfall")

if not state.presenter():
    rows = [
        {"step": s["step"], "TB": round(s["capacity_tb"], 4), "TiB": round(s["capacity_tib"], 4), "rule": s["rule"]}
        for s in cap["waterfall"]
    ]
    # shown: capitalised headers and 2-decimal figures; the CSV keeps full precision
    st.markdown(
        fmt.table(
            [
                {
                    "Step": first_upper(s["step"]),
                    "TB": fmt.num(s["capacity_tb"], fmt.shown_decimals(s["capacity_tb"], s["capacity_tib"])),
                    "TiB": fmt.num(s["capacity_tib"], fmt.shown_decimals(s["capacity_tb"], s["capacity_tib"])),
                    "Rule": customer_words(s["rule"]),  # "three-way mirror", not "mirror-3way"
                }
                for s in cap["waterfall"]
            ]
        )
    )
    c1, c2 = st.columns(2)
    c1.metric("Resiliency efficiency", fmt.pct(cap["resiliency_efficiency"], 1))
    value, meaning = fmt.after_node_loss(cap)
    c2.metric("Usable after losing a node", value, help=meaning)
    st.download_button(
        "Download waterfall CSV", export.to_csv(rows), file_name="capacity_waterfall.csv", mime="text/csv"
    )
