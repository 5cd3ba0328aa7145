"""PCIe and memory bandwidth a transfer crosses inside a server
(planner.physics.pcie_memory, report.platform_check)."""

from pathlib import Path

import numpy as np
import pytest
from uitables import tables

from planner.models.design import parse_design
from planner.models.workload import Workload
from planner.physics import pcie_memory as platform
from planner.results.report import evaluate_report


def test_pcie_rates_match_the_published_link_figures():
    # PCI-SIG: a gen 3 x16 link carries 15.75 GB/s per direction, gen 4 x16 31.5 GB/s
    assert platform.pcie_bandwidth_mb_s(16, 3) == pytest.approx(15_754, rel=1e-3)
    assert platform.pcie_bandwidth_mb_s(16, 4) == pytest.approx(31_508, rel=1e-3)
    assert platform.pcie_bandwidth_mb_s(4, 5) == pytest.approx(15_754, rel=1e-3)


def test_memory_peak_matches_intel_ark():
    # ark.intel.com lists 68 GB/s "max memory bandwidth" for the Xeon E5-2660 v3 (4 x DDR4-2133)
    assert platform.memory_bandwidth_mb_s(1, 4, 2133) == pytest.approx(68_000, rel=0.01)


def _traffic(**kw):
    base = dict(
        read_fraction=1.0,
        read_hit=0.0,
        pmem_cache=False,
        hops_read=0.0,
        hops_write=2.0,
        backend_writes=3.0,
        write_caching=False,
        destaged=0.0,
        rmw_reads=0.0,
        tcp=False,
    )
    return {k: float(v) for k, v in platform.traffic_per_io(**(base | kw)).items()}


def test_a_local_read_moves_its_bytes_once():
    assert _traffic() == {"memory": 1.0, "pcie_up": 1.0, "pcie_down": 0.0}


def test_a_persistent_memory_hit_is_a_copy_without_pcie():
    t = _traffic(read_hit=1.0, pmem_cache=True)
    assert t == {"memory": 2.0, "pcie_up": 0.0, "pcie_down": 0.0}


def test_crossings_and_tcp_add_traffic():
    local, remote, tcp = _traffic(), _traffic(hops_read=1.0), _traffic(hops_read=1.0, tcp=True)
    assert remote["memory"] == local["memory"] + 2 and remote["pcie_down"] == 1.0
    assert tcp["memory"] == remote["memory"] + 2 and tcp["pcie_up"] == remote["pcie_up"]


def test_a_three_way_mirror_write_moves_three_copies():
    t = _traffic(read_fraction=0.0)
    assert t["memory"] == 3 + 2 * 2 and t["pcie_down"] == 3 + 2 and t["pcie_up"] == 2


def test_traffic_never_falls_as_load_grows_more_remote_or_writes_more():
    rng = np.random.default_rng(7)
    for _ in range(200):
        kw = dict(
            read_fraction=rng.uniform(),
            read_hit=rng.uniform(),
            pmem_cache=bool(rng.integers(2)),
            hops_read=rng.uniform(0, 2),
            hops_write=rng.uniform(0, 3),
            backend_writes=rng.integers(1, 4),
            write_caching=bool(rng.integers(2)),
            destaged=rng.uniform(0, 3),
            rmw_reads=rng.uniform(0, 2),
            tcp=bool(rng.integers(2)),
        )
        t0 = _traffic(**kw)
        assert min(t0.values()) >= 0
        t1 = _traffic(**(kw | {"hops_read": kw["hops_read"] + 0.5, "hops_write": kw["hops_write"] + 0.5}))
        assert all(t1[k] >= t0[k] for k in t0)


def test_lanes_needed_is_unknown_when_a_width_is():
    assert platform.lanes_needed([(10, 4)], (1, 16)) == 56
    assert platform.lanes_needed([(10, 4), (2, 8)], (2, 8)) == 72
    assert platform.lanes_needed([(10, None)], (1, 16)) is None
    assert platform.lanes_needed([(0, None)], (1, 16)) == 16


# --- in the report (planner.results.report.platform_check) ----------------------------
EX = Path(__file__).resolve().parent.parent / "examples"
SEQ = Workload(
    name="seq",
    block_size_kib=1024,
    read_fraction=1.0,
    random_fraction=0.0,
    vms_per_node=16,
    vcpus_per_vm=2,
    outstanding_per_thread=16,
    working_set_gb_per_vm=100,
    vm_alignment=0.0,
)


def _design(chassis, cpu, sockets, nic, transport="rdma"):
    return parse_design(
        {
            "name": "x",
            "nodes": 4,
            "node": {
                "chassis": chassis,
                "cpu": {"model": cpu, "sockets": sockets},
                "ram_gb": 256,
                "capacity_drives": {"model": "intel-p4510-4tb", "count": 24},
                "nics": {"model": nic, "count": 1},
            },
            "resiliency": "mirror-3way",
            "transport": transport,
        }
    )


def test_reference_report_counts_traffic_from_its_own_iops():
    """traffic per node = IOPS x bytes x traffic per IO / nodes, and the
    reference cluster's 4 KiB load is far below both peaks."""
    from planner.models.workload import profiles

    rep = evaluate_report(parse_design((EX / "reference.json").read_text()), profiles()["oltp-8k"], degraded=False)
    pl = rep["platform"]
    assert pl["missing"] == []
    # Xeon Gold 6246: 6 channels of DDR4, persistent memory sets them to 2666 MT/s; 48 gen 3 lanes each
    assert pl["memory_bandwidth_mb_s"] == pytest.approx(2 * 6 * 2666 * 8)
    assert pl["pcie_bandwidth_mb_s"] == pytest.approx(platform.pcie_bandwidth_mb_s(96, 3))
    assert pl["pcie_lanes_needed"] == 10 * 4 + 8 and pl["pcie_lanes_available"] == 96
    assert 0 < pl["memory_utilization"] < 0.2 and 0 < pl["pcie_utilization"] < 0.2
    assert not any(w["check"] in ("memory_bandwidth", "pcie_bandwidth", "pcie_lanes") for w in rep["warnings"])


def test_traffic_scales_with_the_load():
    d = _design("dell-r750", "intel-xeon-gold-6342", 2, "mellanox-cx6-dx-2x100g")
    light = evaluate_report(d, SEQ.model_copy(update={"vms_per_node": 1, "outstanding_per_thread": 1}), degraded=False)
    heavy = evaluate_report(d, SEQ, degraded=False)
    ratio = heavy["iops"] / light["iops"]
    assert heavy["platform"]["memory_traffic_mb_s"] == pytest.approx(ratio * light["platform"]["memory_traffic_mb_s"])


def test_more_lanes_than_the_cpus_have_is_a_warning_naming_both():
    rep = evaluate_report(
        _design("dell-r750", "intel-xeon-gold-6342", 1, "mellanox-cx6-dx-2x100g"), SEQ, degraded=False
    )
    w = next(w for w in rep["warnings"] if w["check"] == "pcie_lanes")
    assert (w["needed_lanes"], w["available_lanes"]) == (24 * 4 + 16, 64)
    assert "112" in w["message"] and "64" in w["message"]
    two = evaluate_report(
        _design("dell-r750", "intel-xeon-gold-6342", 2, "mellanox-cx6-dx-2x100g"), SEQ, degraded=False
    )
    assert not any(w["check"] == "pcie_lanes" for w in two["warnings"])


def test_more_lanes_than_the_cpus_have_is_said_without_a_workload_too():
    """Architect walk: 24 NVMe drives and two 100 GbE NICs on two Cascade Lake CPUs (128 lanes for 96) were
    warned of only with --workload; plain `evaluate` said nothing. The lane count is the build's: the warning
    comes with the design's own warnings, once, with or without a load."""
    d = parse_design(
        {
            "name": "24nvme-cascade",
            "nodes": 4,
            "node": {
                "chassis": "intel-s2600wft",
                "cpu": {"model": "intel-xeon-gold-6246", "sockets": 2},
                "ram_gb": 768,
                "capacity_drives": {"model": "intel-p4510-4tb", "count": 24},
                "nics": {"model": "mellanox-cx5-2x100g", "count": 2},
            },
            "resiliency": "mirror-3way",
            "transport": "rdma",
        }
    )
    for workload in (None, SEQ):
        lanes = [w for w in evaluate_report(d, workload, degraded=False)["warnings"] if w["check"] == "pcie_lanes"]
        assert len(lanes) == 1 and (lanes[0]["needed_lanes"], lanes[0]["available_lanes"]) == (128, 96), lanes
        assert lanes[0]["message"].startswith(
            "the NVMe devices and NICs need 128 PCIe lanes per node, the CPUs provide 96"
        )


def test_memory_past_its_peak_is_a_warning_that_the_figures_are_optimistic():
    """One 4-channel DDR4-2133 socket (68 GB/s) behind 2 x 200 GbE over TCP/IP,
    reading 1 MiB remotely: every byte crosses memory on both ends, twice more
    for the TCP receive copy."""
    rep = evaluate_report(
        _design("intel-s2600wt", "intel-xeon-e5-2660-v3", 1, "nvidia-cx7-2x200g", "tcp"), SEQ, degraded=False
    )
    pl = rep["platform"]
    assert pl["memory_utilization"] > 1
    w = next(w for w in rep["warnings"] if w["check"] == "memory_bandwidth")
    assert w["needed_mb_s"] == round(pl["memory_traffic_mb_s"]) and "optimistic" in w["message"]


def test_performance_page_lists_memory_and_pcie_beside_the_stations():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(Path(__file__).resolve().parent.parent / "app.py"), default_timeout=120).run()
    at.switch_page("hciplan_ui/performance_page.py").run()
    at.session_state["p_exports"] = True
    at.run()
    assert not at.exception
    rows = next(d.value for d in tables(at) if "Resource" in d.value.columns)
    assert {"Memory bandwidth (a check, not a queue)", "PCIe (a check, not a queue)"} <= set(rows["Resource"])
    assert any("PCIe lanes needed 48 of 96" in c.value for c in at.caption)


def test_performance_page_explains_the_host_cpu_bar_against_the_cap():
    """Reference design, CPU cap 0.6 binding: the bar reads 87 % (of what the SMT
    ceiling leaves), Windows' figure is 60 %; the page says both (QA walk-through)."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(Path(__file__).resolve().parent.parent / "app.py"), default_timeout=120).run()
    at.switch_page("hciplan_ui/performance_page.py").run()
    cap = next(c.value for c in at.caption if c.value.startswith("The host CPU bar"))
    assert "60 % of logical processors busy (the CPU cap counts that figure)" in cap
