"""The network walk's app findings (2026-12-01): the round trip between rooms is a Design-page
control bounded by the model and is echoed on the pages; the east-west traffic per server in MB/s
stands beside the network's share on the Performance and Compare pages."""

from __future__ import annotations

import json
import re

from streamlit.testing.v1 import AppTest

from planner.models.design import Design
from planner.results.report import network_traffic_words
from tests.test_app import APP, DEFAULT_WORKLOAD, REFERENCE, _number_input


def _app() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("hciplan_ui/design_page.py").run()
    return at


def _captions(at: AppTest) -> list[str]:
    return [re.sub(r"\\(.)", r"\1", c.value).replace("\u2060", "") for c in at.caption]


RTT_LABEL = "Round trip between rooms (ms; 0 = one room)"


def test_the_round_trip_is_a_design_control_echoed_on_the_performance_page():
    at = _app()
    box = _number_input(at, RTT_LABEL)
    assert box.value == 0.0
    box.set_value(0.5).run()
    assert not at.exception
    assert json.loads(at.session_state["design_json"])["fault_domain_rtt_ms"] == 0.5
    at.switch_page("hciplan_ui/performance_page.py").run()
    assert any("rooms 0.500 ms round trip apart" in c for c in _captions(at))


def test_the_round_trip_box_is_bounded_by_the_model():
    at = _app()
    high = Design.model_fields["fault_domain_rtt_ms"].metadata
    assert any(getattr(m, "le", None) == 10.0 for m in high)
    _number_input(at, RTT_LABEL).set_value(12.0).run()
    assert not at.exception
    said = [e.value for e in at.error] + [w.value for w in at.warning]
    assert any("10" in s for s in said), said
    # the other pages keep the last valid design
    assert json.loads(at.session_state["design_json"]).get("fault_domain_rtt_ms", 0.0) <= 10.0


def test_the_performance_and_compare_pages_give_the_traffic_in_mb_s():
    from planner.models.design import load_design
    from planner.models.workload import profiles
    from planner.results.report import evaluate_report

    rep = evaluate_report(load_design(REFERENCE), profiles()[DEFAULT_WORKLOAD])
    words = network_traffic_words(rep["network_mb_s_per_node"], rep["network_link_mb_s_per_node"])
    assert "MB/s of 6,250 MB/s" in words
    at = _app().switch_page("hciplan_ui/performance_page.py").run()
    assert any(words in c for c in _captions(at)), _captions(at)
    at.switch_page("hciplan_ui/compare_page.py").run()
    assert not at.exception
    assert any(c.startswith("Network between servers: ") and "MB/s" in c for c in _captions(at)), _captions(at)
