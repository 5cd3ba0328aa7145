"""The degraded case (one node down) of a report: its repair time."""
from pathlib import Path

from planner.design import parse_design
from planner.report import evaluate_report

EX = Path(__file__).resolve().parent.parent / "examples"


def test_no_repair_time_is_quoted_where_no_repair_can_happen():
    """A 3-node three-way mirror keeps its data online after a node loss but
    cannot rebuild the third copy: the degraded case quotes no repair time
    (QA walk-through: 'Repair time = 0.8 h' beside the Capacity page's 'needs 3
    to repair'); at 4 nodes it can, and does."""
    from planner.workload import profiles

    ref = parse_design((EX / "reference.json").read_text())
    three = evaluate_report(ref, profiles()["oltp-8k"])["degraded"]
    assert three["repair_time_hours"] is None and "no repair to full resiliency" in three["note"]
    four = evaluate_report(ref.model_copy(update={"nodes": 4}), profiles()["oltp-8k"])["degraded"]
    assert four["repair_time_hours"] > 0 and "repair time assumes" in four["note"]
