"""Capacity page: the waterfall from raw to usable for an example design."""
import json
from pathlib import Path

import streamlit as st

from planner.capacity import capacity_report
from planner.design import parse_design, resolve
from planner.errors import PlannerError

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

st.title("Capacity")
names = sorted(p.stem for p in EXAMPLES.glob("*.json"))
choice = st.selectbox("Design", names, index=names.index("reference") if "reference" in names else 0)
try:
    rd = resolve(parse_design((EXAMPLES / f"{choice}.json").read_text()))
    rep = capacity_report(rd)
except PlannerError as exc:
    st.error(str(exc))
    st.stop()
c1, c2, c3 = st.columns(3)
c1.metric("Raw capacity", f"{rep.raw_capacity_tb:.1f} TB")
c2.metric("Usable capacity", f"{rep.usable_capacity_tb:.2f} TB", help=f"{rep.usable_capacity_tib:.2f} TiB")
c3.metric("Survives node loss", "yes" if rep.survives_node_loss else "no")
st.table([s.model_dump() for s in rep.waterfall])
st.caption(rep.node_loss_note)
