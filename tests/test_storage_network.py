"""A node's storage-network bandwidth per stack (network walk 2026-12-01): S2D's SMB Multichannel
and Ceph use every port; vSAN's one VMkernel adapter uses one link of its team unless the design
says otherwise (VMware, vSAN Network Design Guide, 'Basic NIC Teaming')."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from planner.models.design import Design, resolve
from planner.models.workload import profiles
from planner.physics import network
from planner.results.report import performance

EXAMPLES = Path(__file__).resolve().parents[1] / "planner" / "data" / "examples"


def _vsan(nic: str, **vsan) -> Design:
    data = json.loads((EXAMPLES / "vsan-esa-6node.json").read_text(encoding="utf-8"))
    data["node"]["nics"]["model"] = nic
    data["vsan"] = data.get("vsan", {}) | vsan
    return Design.model_validate(data)


def _iops(d: Design) -> float:
    return float(performance(resolve(d), profiles()["dss-512k"], band=False)["iops"])


def test_vsan_uses_one_link_of_its_team():
    """vsan-esa dss-512k: CX4 2x25G 85,795 IOPS, E810 4x25G 171,484: every port was counted."""
    two, four = _iops(_vsan("mellanox-cx4-lx-2x25g")), _iops(_vsan("intel-e810-4x25g"))
    assert four == pytest.approx(two, rel=1e-6)
    assert network.node_storage_bandwidth_bytes_s(resolve(_vsan("intel-e810-4x25g"))) == pytest.approx(25e9 / 8)


def test_a_design_that_says_two_links_gets_two_and_never_more_than_it_has():
    one = _iops(_vsan("intel-e810-4x25g"))
    assert _iops(_vsan("intel-e810-4x25g", active_links=2)) == pytest.approx(2 * one, rel=0.02)
    assert network.storage_links("vsan", 2, 1, 8) == 2
    assert network.storage_links("s2d", 4, 2) == 8
    assert network.storage_links("ceph", 2, 1, 1) == 2


def test_s2d_still_counts_every_port():
    from planner.models.catalog import load_catalog

    e810 = load_catalog().nic["intel-e810-4x25g"]  # 4 x 25 GbE, within its host link
    assert network.storage_bandwidth_bytes_s("s2d", e810, 1) == pytest.approx(100e9 / 8)
    assert network.storage_bandwidth_bytes_s("vsan", e810, 1) == pytest.approx(25e9 / 8)


def test_active_links_is_bounded():
    with pytest.raises(ValueError):
        _vsan("intel-e810-4x25g", active_links=0)


def test_vsan_rdma_on_an_iwarp_nic_says_it_is_computed_as_tcp():
    """The warning said RDMA needs RoCE v2 while the model silently computed TCP/IP (network walk 2026-12-01)."""
    from planner.physics.rules import hardware_rules

    d = _vsan("chelsio-t6-2x100g").model_copy(update={"transport": "rdma"})
    chk = hardware_rules(resolve(d))["vsan_rdma_roce"]
    assert not chk["passed"] and "computed as TCP/IP" in chk["reason"]


def test_a_two_server_s2d_network_says_switchless_is_supported():
    """edge-2node: "2 switches, 4 server links, $13,210" with no word that two servers may be cabled to each
    other (Microsoft: 'With 2 servers, direct-connect (switchless) is supported')."""
    from planner.commercial.tco import whole_cost
    from planner.models.design import load_design

    two = whole_cost(load_design(EXAMPLES / "edge-2node.json"))
    notes = " ".join(two["parts_notes"]) if "parts_notes" in two else json.dumps(two)
    assert "switchless" in notes and "2 storage switches" in notes
    four = whole_cost(load_design(EXAMPLES / "reference.json"))
    assert "switchless" not in json.dumps(four)
