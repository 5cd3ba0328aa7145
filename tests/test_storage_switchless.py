"""A storage-switchless S2D / Azure Local design (stop 55): the servers' storage ports cabled to each other in a
full mesh, no storage switches bought. A two-server design was told switchless "is supported" and always priced
with a pair of switches (Microsoft, 'Network reference patterns overview for Azure Local': 'Storage switchless
deployments in Azure Local only support 1,2,3 or 4 nodes')."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from planner.models.design import Design, load_design, resolve

EXAMPLES = Path(__file__).resolve().parents[1] / "planner" / "data" / "examples"


def _edge(**update) -> Design:
    data = json.loads((EXAMPLES / "edge-2node.json").read_text(encoding="utf-8"))
    node = update.pop("node", None)
    if node:
        data["node"] = data["node"] | node
    return Design.model_validate(data | update)


def test_a_switchless_two_server_design_costs_less_by_the_switch_pair_and_its_peer_link():
    from planner.commercial.tco import whole_cost

    switched = whole_cost(_edge())
    switchless = whole_cost(_edge(storage_switchless=True))
    by_role = {x["role"]: x for x in switched["network"]["lines"]}
    assert switchless["network"]["switches"] == 0
    assert not {x["role"] for x in switchless["network"]["lines"]} & {"switch", "peer link"}
    # two direct links (one per storage port, both to the peer) where four server-to-switch links were priced
    cable = by_role["cable"]
    assert switched["network"]["links"] == 4 and switchless["network"]["links"] == 2
    [direct] = switchless["network"]["lines"]
    assert direct["part"] == cable["part"] and direct["quantity"] == 2
    saved = by_role["switch"]["total_usd"] + by_role["peer link"]["total_usd"] + 2 * cable["unit_price_usd"]
    assert switched["capex_usd"] - switchless["capex_usd"] == pytest.approx(saved)
    notes = " ".join(switchless["parts_notes"])
    assert "cabled to each other for storage" in notes and " may " not in notes
    assert "management" in notes and "customer's" in notes
    # the default design still prices its switches and says what switchless would save
    assert "storage_switchless" in " ".join(switched["parts_notes"])


def test_five_switchless_nodes_break_a_rule_in_one_line():
    from planner.physics.rules import RULES, hardware_rules

    rd = resolve(load_design(EXAMPLES / "edge-2node.json").model_copy(update={"nodes": 5, "storage_switchless": True}))
    chk = hardware_rules(rd)["storage_switchless"]
    assert not chk["passed"] and "\n" not in chk["reason"]
    assert "5 nodes" in chk["reason"] and "1 to 4" in chk["reason"]
    assert "1,2,3 or 4 nodes" in RULES["storage_switchless"].source
    # the default (switches for storage) passes it as not applicable, as a design without a cache tier passes the
    # cache rules: every S2D design carries every rule (the sizer's test of that failed on a rule present only when chosen)
    off = hardware_rules(resolve(load_design(EXAMPLES / "edge-2node.json")))["storage_switchless"]
    assert off["passed"] and off["reason"].endswith("not cabled server to server")


def test_a_node_with_too_few_ports_for_its_peers_breaks_the_rule():
    from planner.physics.rules import hardware_rules

    # four nodes: Microsoft's four-node pattern cables two links to each of the three peers (six ports);
    # one 2 x 25 GbE card has two
    four = _edge(nodes=4, resiliency="mirror-3way", storage_switchless=True)
    chk = hardware_rules(resolve(four))["storage_switchless"]
    assert not chk["passed"] and "2 storage ports" in chk["reason"] and "6" in chk["reason"]
    three_cards = _edge(
        nodes=4,
        resiliency="mirror-3way",
        storage_switchless=True,
        node={"nics": {"model": "mellanox-cx4-lx-2x25g", "count": 3}},
    )
    assert hardware_rules(resolve(three_cards))["storage_switchless"]["passed"]
    assert hardware_rules(resolve(_edge(storage_switchless=True)))["storage_switchless"]["passed"]


def test_switchless_is_refused_where_it_does_not_apply():
    data = json.loads((EXAMPLES / "vsan-esa-6node.json").read_text(encoding="utf-8"))
    with pytest.raises(ValueError, match="storage_switchless: only for a hyperconverged Storage Spaces Direct"):
        Design.model_validate(data | {"storage_switchless": True})


def test_the_network_bound_is_the_direct_links():
    """Each pair's own links, not a switch fabric: two servers send everything over the two links between them
    (all their ports, as through the switches); four servers with eight ports each cable six (two to each peer),
    and the two left over carry nothing."""
    from planner.models.workload import profiles
    from planner.physics import network
    from planner.results.report import evaluate_report

    two = _edge(storage_switchless=True)
    rep = evaluate_report(two, profiles()["dss-512k"])
    links_mb_s = 2 * 25e9 / 8 / 1e6
    assert rep["network_link_mb_s_per_node"] == pytest.approx(links_mb_s)
    assert rep["network_link_mb_s_per_node"] == pytest.approx(
        evaluate_report(_edge(), profiles()["dss-512k"])["network_link_mb_s_per_node"]
    )
    from planner.models.catalog import load_catalog

    e810 = load_catalog().nic["intel-e810-4x25g"]
    assert network.storage_links("s2d", 4, 2, switchless_peers=3) == 6
    assert network.storage_bandwidth_bytes_s("s2d", e810, 2, switchless_peers=3) == pytest.approx(6 * 25e9 / 8)
    assert network.storage_bandwidth_bytes_s("s2d", e810, 2) == pytest.approx(8 * 25e9 / 8)


def test_the_cli_bom_and_cost_price_no_switches(capsys, tmp_path):
    from planner.cli.main import main

    path = tmp_path / "edge-switchless.json"
    path.write_text(_edge(storage_switchless=True).model_dump_json(), encoding="utf-8")
    assert main(["bom", str(path)]) == 0
    b = json.loads(capsys.readouterr().out)
    assert b["network"]["switches"] == 0
    assert not {x["role"] for x in b["lines"]} & {"switch", "peer link"}
    assert main(["cost", str(path)]) == 0
    c = json.loads(capsys.readouterr().out)
    assert b["total_usd"] == pytest.approx(c["capex_usd"]) and c["network"]["switches"] == 0
    assert any("cabled to each other for storage" in n for n in c["notes"])


def test_the_proposal_says_the_storage_network_is_switchless():
    from planner.models.workload import profiles
    from planner.sizing.document import document
    from planner.sizing.formats import render_html
    from planner.sizing.proposal import build

    p = build(_edge(storage_switchless=True), profiles()["dss-512k"])
    rows = dict(p["summary"])
    assert rows["Storage network"].startswith("storage switchless: the servers cabled to each other, 2 direct links")
    text = render_html(document(p))
    assert "Storage network" in text and "no storage switch" in text and "cabled to each other for storage" in text
    assert "Storage network" not in dict(build(_edge(), profiles()["dss-512k"])["summary"])


SWITCHLESS_LABEL = "Storage cabled server to server (switchless)"


def test_the_design_page_offers_switchless_beside_the_network_inputs():
    """A checkbox beside the transport, with its help; it sets the design's field, the costs follow, and it is
    offered only where Microsoft's patterns apply (S2D, up to four nodes: shown disabled beyond)."""
    from streamlit.testing.v1 import AppTest

    from tests.test_app import APP

    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("hciplan_ui/design_page.py").run()
    box = next(c for c in at.checkbox if c.label == SWITCHLESS_LABEL)  # the default design: three nodes
    assert box.value is False and "1 to 4" in box.help and "customer's switches" in box.help
    box.check().run()
    assert not at.exception
    assert json.loads(at.session_state["design_json"])["storage_switchless"] is True
    box = next(c for c in at.checkbox if c.label == SWITCHLESS_LABEL)
    box.uncheck().run()
    next(n for n in at.number_input if n.label == "Nodes").set_value(6).run()
    assert not at.exception
    # beyond four nodes it stays in its place, disabled (a box that came and went moved every element after it)
    box = next(c for c in at.checkbox if c.label == SWITCHLESS_LABEL)
    assert box.disabled and box.value is False and "Not offered for 6 nodes" in box.help
    at.selectbox(key="d_stack").set_value("vsan").run()
    assert SWITCHLESS_LABEL not in [c.label for c in at.checkbox]


def test_fewer_ports_than_peers_fails_the_rule_with_finite_figures():
    """Stop 55 merge run: a switchless design with fewer storage ports than peers (six nodes, two ports: the Design
    page keeps the box ticked while the node count grows) got 0 links, a wire demand divided by zero and NaN in the
    engine. The rule fails it; its ports' rate is kept so every figure stays finite."""
    import math

    from planner.models.workload import profiles
    from planner.physics import network
    from planner.physics.rules import hardware_rules
    from planner.results.report import evaluate_report

    assert network.storage_links("s2d", 2, 1, switchless_peers=5) == 2
    six = _edge(nodes=6, storage_switchless=True)
    assert not hardware_rules(resolve(six))["storage_switchless"]["passed"]
    rep = evaluate_report(six, profiles()["oltp-8k"])
    assert all(math.isfinite(v) for v in (rep["iops"], rep["read_latency_ms"], rep["network_link_mb_s_per_node"]))
    # its price says why no link is priced (it said "0 switches, 0 server links" and nothing more)
    from planner.commercial.tco import whole_cost

    notes = " ".join(whole_cost(six)["network"]["notes"])
    assert "2 storage ports per server for 5 peers" in notes and "storage_switchless rule fails" in notes


def test_the_switchless_note_is_not_listed_as_a_gap_in_the_cost():
    """Stop 55 verification walk: the Compare page printed "Not in this cost: storage switchless: the 3 servers are
    cabled ..." (the note said the customer's switches were "not priced here"), as if the cabling were left out."""
    from hciplan_ui.costs import network_gaps
    from planner.commercial.tco import whole_cost

    cost = whole_cost(_edge(storage_switchless=True))
    assert any("cabled to each other" in n for n in cost["network"]["notes"])
    assert network_gaps(cost) is None


def test_a_node_down_idles_the_switchless_links_to_it():
    """Stop 55 left it: a switchless design kept every link with a node down. Each port is cabled to one peer, so the
    survivors of three nodes keep one link of their two (through switches both ports still reach the survivor): at
    the same offered load their network is twice as busy. Two nodes: the survivor has no peer, nothing is lost."""
    from planner.models.workload import Workload
    from planner.physics.network import live_links_node_down
    from planner.results.report import evaluate_report

    assert [live_links_node_down(n, True) for n in (1, 2, 3, 4)] == [1.0, 1.0, 0.5, pytest.approx(2 / 3)]
    assert live_links_node_down(4, False) == 1.0
    w = Workload(name="w", block_size_kib=64, read_fraction=0.3, iops=20_000)
    mesh = evaluate_report(_edge(nodes=3, storage_switchless=True), w)
    switched = evaluate_report(_edge(nodes=3), w)
    assert mesh["utilization"]["network"] == pytest.approx(switched["utilization"]["network"])
    assert mesh["degraded"]["utilization"]["network"] == pytest.approx(
        2 * switched["degraded"]["utilization"]["network"]
    )
    assert 0 < switched["degraded"]["utilization"]["network"] < 0.5
    # the survivors' repair runs over the links left too: no faster than through switches
    assert mesh["degraded"]["repair_time_hours"] >= switched["degraded"]["repair_time_hours"]
