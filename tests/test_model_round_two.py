"""The model's second round: volume placement and read locality, cache modes,
host-issued loads, extrapolation flags and bands, and the defects the first
round had (bottleneck label, the vCPU-share bound, write latency under load,
hosting checks, TCP costs, Little's law under a rate limit, node loss)."""

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.calibration.fit import derive_tcp_costs
from planner.cli import main
from planner.core.errors import DesignError, PlannerError
from planner.engine.performance import DesignArrays, WorkloadArrays, demands, evaluate_arrays
from planner.models.design import parse_design, resolve, with_overrides
from planner.models.params import default_params, load_calibration
from planner.models.workload import Workload, profiles
from planner.physics import network
from planner.physics.capacity import RESILIENCY_CODES
from planner.results.report import evaluate_report, performance

EX = Path(__file__).resolve().parent.parent / "examples"
REF = parse_design((EX / "reference.json").read_text())
TWELVE = parse_design((EX / "nvme-pmem-12node.json").read_text())
P = default_params()
M3 = RESILIENCY_CODES["mirror-3way"]


def arrays(design, workload):
    rd = resolve(design)
    D = DesignArrays.from_designs([rd])
    return rd, D, WorkloadArrays.from_workload(workload, D.nodes)


def twelve(volume_servers=None):
    return with_overrides(TWELVE, resiliency="mirror-3way", volume_servers=volume_servers)


# ------------------------------------------------------------- placement
def test_delimited_to_three_servers_reads_locally_and_sends_two_copies():
    _, D, W = arrays(twelve(3), profiles()["oltp-8k"])
    dm = demands(D, W, P)
    assert float(np.ravel(dm["hops_read"])[0]) == pytest.approx(0.0)
    assert float(np.ravel(dm["hops_write"])[0]) == pytest.approx(2.0)


def test_regular_allocation_on_twelve_nodes_sends_most_reads_across():
    _, D, W = arrays(twelve(None), profiles()["oltp-8k"])
    dm = demands(D, W, P)
    assert float(np.ravel(dm["hops_read"])[0]) == pytest.approx(1 - 3 / 12)
    assert float(np.ravel(dm["hops_write"])[0]) == pytest.approx(3 - 3 / 12)


@pytest.mark.parametrize("nodes", range(3, 17))
def test_placement_from_three_to_sixteen_nodes(nodes):
    # aligned VMs: regular allocation reads locally with P = 3/n, delimited to 3 always
    reg_r = network.read_hops(M3, nodes, 1.0)
    del_r = network.read_hops(M3, 3, 1.0)
    assert float(reg_r) == pytest.approx(1 - 3 / nodes)
    assert float(del_r) == 0.0
    assert float(network.write_hops(M3, 3, 1.0)) == 2.0
    assert float(network.write_hops(M3, nodes, 1.0)) == pytest.approx(3 - 3 / nodes)
    # a misaligned VM adds its redirect to the owner on both
    assert float(network.read_hops(M3, 3, 0.7)) == pytest.approx(0.3)


def test_delimited_allocation_keeps_reads_off_the_network():
    # the same offered load: delimited volumes read locally, so the network
    # carries less, reads skip the hop, and the closed population goes further
    w = Workload(name="scan", block_size_kib=64, read_fraction=1.0, iops=400_000)
    reg = evaluate_report(twelve(None), w, degraded=False)
    dlm = evaluate_report(twelve(3), w, degraded=False)
    assert dlm["utilization"]["network"] < reg["utilization"]["network"]
    assert dlm["read_latency_ms"] < reg["read_latency_ms"]
    closed = profiles()["dss-64k"]
    assert (
        evaluate_report(twelve(3), closed, degraded=False)["iops"]
        > evaluate_report(twelve(None), closed, degraded=False)["iops"]
    )


@pytest.mark.parametrize(
    "change, field",
    [
        (dict(volume_servers=13), "volume_servers"),  # more than nodes
        (dict(volume_servers=2), "volume_servers"),  # three copies need three
        (dict(resiliency="parity-dual", volume_servers=6), "delimited"),  # three-way mirror only
        (dict(resiliency="mirror-2way", volume_servers=4), "delimited"),
    ],
)
def test_volume_servers_validated_against_nodes_and_resiliency(change, field):
    data = TWELVE.model_dump(mode="json") | {"resiliency": "mirror-3way"} | change
    with pytest.raises(DesignError) as e:
        parse_design(data)
    assert field in str(e.value)


def test_delimited_on_a_small_cluster_is_a_warning_not_an_error():
    rep = evaluate_report(with_overrides(REF, nodes=4, volume_servers=3), profiles()["oltp-8k"], degraded=False)
    assert any(w["check"] == "delimited_allocation" for w in rep["warnings"])
    assert rep["volume_servers"] == 3


def test_cli_exposes_volume_servers(capsys):
    assert (
        main(
            [
                "evaluate",
                str(EX / "nvme-pmem-12node.json"),
                "--resiliency",
                "mirror-3way",
                "--volume-servers",
                "3",
                "--workload",
                "oltp-8k",
                "--no-degraded",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["volume_servers"] == 3
    assert any(f["dimension"] == "volume_allocation" for f in out["extrapolation"])


# ------------------------------------------------------------- cache modes
def test_default_cache_mode_follows_the_media():
    assert resolve(REF).cache_mode == "write-only"  # PMem over NVMe flash
    no_cache = REF.model_dump(mode="json")
    no_cache["node"]["cache_devices"] = None
    assert resolve(parse_design(no_cache)).cache_mode is None
    hybrid = {
        "name": "hybrid",
        "nodes": 4,
        "resiliency": "mirror-3way",
        "node": {
            "chassis": "dell-ax-760-lff",
            "cpu": {"model": "intel-xeon-gold-6430", "sockets": 2},
            "ram_gb": 512,
            "capacity_drives": {"model": "seagate-exos-x20-20tb-sas", "count": 8},
            "cache_devices": {"model": "kioxia-pm7-v-1.6tb", "count": 2},
            "nics": {"model": "mellanox-cx6-dx-2x100g", "count": 1},
        },
    }
    assert resolve(parse_design(hybrid)).cache_mode == "read-write"


def test_old_files_with_the_read_cache_flag_still_load():
    old = REF.model_dump(mode="json")
    old.pop("cache_mode")
    assert parse_design(old | {"all_flash_read_cache": True}).cache_mode == "read-write"
    assert parse_design(old | {"all_flash_read_cache": False}).cache_mode is None
    with pytest.raises(PlannerError):
        parse_design(old | {"all_flash_read_cache": "yes please"})


def test_read_only_cache_sends_writes_to_the_capacity_drives():
    w = profiles()["oltp-8k"]
    _, D, W = arrays(with_overrides(REF, cache_mode="read-only"), w)
    dm = demands(D, W, P)
    assert float(np.ravel(dm["path"][..., 1, 3])[0]) == 0.0  # no cache write
    assert float(np.ravel(dm["path"][..., 1, 4])[0]) > 0.0  # capacity drive write


def test_pmem_read_hits_are_memory_class():
    # a working set that fits the PMem cache, read caching on: a read costs the
    # software path plus PMem's sub-microsecond access, not NAND's ~80 us
    w = Workload(name="hot", block_size_kib=4, read_fraction=1.0, iops=10_000, working_set_gb_per_vm=1)
    rd, D, W = arrays(with_overrides(REF, cache_mode="read-write"), w)
    dm = demands(D, W, P)
    assert float(np.ravel(dm["read_hit"])[0]) == 1.0
    delay = float(np.ravel(dm["delay_storage"][..., 0])[0]) * 1e6
    assert delay == pytest.approx(P.stack_read_latency_us + rd.node.cache.read_latency_us, abs=1e-6)
    assert rd.node.cache.read_latency_us < 1.0
    _, D2, W2 = arrays(REF, w)  # write-only cache: the read goes to NAND
    nand = float(np.ravel(demands(D2, W2, P)["delay_storage"][..., 0])[0]) * 1e6
    assert nand - delay == pytest.approx(rd.node.drive.read_latency_us - rd.node.cache.read_latency_us)


# ------------------------------------------------------------- host issuer
def test_host_issuer_has_no_guest_layer():
    vm = Workload(
        name="vm", block_size_kib=4, read_fraction=0.7, vms_per_node=4, threads_per_vm=4, outstanding_per_thread=8
    )
    host = vm.model_copy(update={"issuer": "host"})
    out_vm = evaluate_arrays(*arrays(REF, vm)[1:], P)
    out_host = evaluate_arrays(*arrays(REF, host)[1:], P)
    dm = demands(*arrays(REF, host)[1:], P)
    assert float(np.ravel(dm["path"][..., :, 0]).max()) == 0.0  # no vCPU station
    np.testing.assert_allclose(dm["delay_vm"], dm["delay_storage"])  # no guest latency layer
    assert float(out_host["cpu_lp_us_per_io"][0]) < float(out_vm["cpu_lp_us_per_io"][0])
    assert float(out_host["vm_latency_ms"][0]) < float(out_vm["vm_latency_ms"][0])


def test_host_issuer_is_in_the_schema():
    from planner.models.workload import Workload as Wl

    schema = Wl.model_json_schema()
    assert schema["properties"]["issuer"]["enum"] == ["vm", "host"]
    assert "issuing processes" in schema["properties"]["vms_per_node"]["description"]


# ------------------------------------------------------------- extrapolation
def test_reference_design_is_inside_the_calibrated_domain():
    rep = evaluate_report(REF, profiles()["oltp-8k"], degraded=False)
    assert rep["extrapolation"] == []
    assert rep["iops_low"] < rep["iops"] < rep["iops_high"]


@pytest.mark.parametrize(
    "design, workload, dimension",
    [
        (twelve(), profiles()["oltp-8k"], "nodes"),
        (REF, profiles()["oltp-8k"].model_copy(update={"issuer": "host"}), "issuer"),
        (with_overrides(REF, transport="tcp"), profiles()["oltp-8k"], "transport"),
        (REF, profiles()["backup"], "block_size_kib"),
    ],
)
def test_leaving_the_domain_is_flagged_and_widens_the_band(design, workload, dimension):
    inside = evaluate_report(REF, profiles()["oltp-8k"], degraded=False)
    rep = evaluate_report(design, workload, degraded=False)
    flags = {f["dimension"]: f for f in rep["extrapolation"]}
    assert dimension in flags and flags[dimension]["message"]
    rel = lambda r, k: (r[f"{k}_high"] - r[f"{k}_low"]) / r[k]
    assert rel(rep, "iops") >= rel(inside, "iops") - 1e-9
    assert any(dimension in b for b in rep["band_basis"])


def test_band_coverage_reported_and_above_eighty_percent():
    cov = load_calibration().summary["band_coverage"]
    for metric in ("iops", "read_latency_ms", "write_latency_ms", "vm_latency_ms"):
        assert cov[metric]["covered_pct"] >= 80.0, metric


# ------------------------------------------------------------- defects
def _dell(name):
    from planner.calibration.benchdata import dell_points

    return next(p for p in dell_points() if p.group == name)


def test_cpu_bound_run_is_labelled_host_cpu():
    # Dell 4-node SAS, 30 % writes, unthrottled: measured host CPU 88 %
    pts = [
        p
        for p in __import__("planner.calibration.benchdata", fromlist=["x"]).dell_points()
        if p.group == "AX6515-All-Flash-32SAS-SSDs-64VMs-4nodes-azshci"
        and p.workload.name == "General4KWriteRatio30"
        and p.workload.iops_limit_per_vm is None
        and p.workload.vm_alignment == 1.0
    ]
    rep = performance(pts[0].design, pts[0].workload, band=False)
    assert rep["bottleneck"] == "host_cpu"
    assert rep["utilization"]["host_cpu"] > 0.8


def test_vcpu_share_bound_counts_only_guest_cpu():
    from planner.commercial.sla import guarantee
    from planner.models.database import Database
    from planner.physics.cpu import clock_scale

    rd = resolve(with_overrides(REF, vcpu_oversubscription=2.0, cpu_utilization_cap=1.0))
    db = Database(
        name="db",
        size_tb=1,
        vcpus=16,
        threads=4,
        outstanding_per_thread=16,
        block_size_kib=4,
        read_fraction=1.0,
        latency_target_ms=1.0,
    )
    g = guarantee(rd, db, None, params=P)
    guest_s = P.guest_cpu_us * float(clock_scale(rd.node.cpu.base_ghz)) * 1e-6
    assert g.bounds_iops["vm_vcpu_share"] == pytest.approx((16 / 2.0) / guest_s)


def test_storage_write_latency_rises_with_load_more_than_reads():
    w = profiles()["General4KWriteRatio30"]
    rd = resolve(with_overrides(REF, cpu_utilization_cap=1.0))
    low = performance(rd, w.model_copy(update={"iops_limit_per_vm": 300.0}), band=False)
    high = performance(rd, w, band=False)
    assert high["host_cpu_utilization"] > low["host_cpu_utilization"]
    dw = high["write_latency_ms"] - low["write_latency_ms"]
    dr = high["read_latency_ms"] - low["read_latency_ms"]
    assert dw > 0 and dw > dr


def test_hosting_checks_name_both_numbers():
    w = profiles()["oltp-8k"].model_copy(update={"vms_per_node": 60, "vcpus_per_vm": 8, "ram_gb_per_vm": 64})
    rep = evaluate_report(with_overrides(REF, vcpu_oversubscription=2.0), w, degraded=False)
    checks = {(x["check"], x["case"]): x for x in rep["warnings"]}
    v = checks[("vcpus", "healthy")]
    assert v["needed_vcpus"] == 480 and v["available_vcpus"] == 96
    assert "480" in v["message"] and "96" in v["message"]
    r = checks[("ram", "healthy")]
    assert r["needed_gb"] > r["available_gb"] == 768
    assert ("vcpus", "one node down") in checks
    # VMs are whole: 3 nodes x 50 VMs on 2 survivors is 75 on each; 4 x 50 on 3 is 66.7, so the busiest hosts 67
    w50 = w.model_copy(update={"vms_per_node": 50})
    down = {
        x["check"]: x for x in evaluate_report(REF, w50, degraded=False)["warnings"] if x["case"] == "one node down"
    }
    assert down["vcpus"]["needed_vcpus"] == 75 * 8 and "75 VMs" in down["vcpus"]["message"]
    four = evaluate_report(with_overrides(REF, nodes=4), w50, degraded=False)["warnings"]
    assert {x["needed_vcpus"] for x in four if x["check"] == "vcpus" and x["case"] == "one node down"} == {67 * 8}
    # a host-issued load has no VMs to host
    host = w.model_copy(update={"issuer": "host"})
    assert [x for x in evaluate_report(REF, host, degraded=False)["warnings"] if x["check"] in ("vcpus", "ram")] == []


def test_tcp_costs_reproduce_the_published_pair():
    v, info = derive_tcp_costs(P.vector())
    # the latency gap, Little's law at 40 IOs in flight: 40/145,500 - 40/185,500 s
    assert info["model_latency_gap_ms"] == pytest.approx((40 / 145_500 - 40 / 185_500) * 1e3, rel=1e-3)
    assert info["tcp_cpu_per_crossing_us"] > 0 and info["tcp_hop_latency_us"] > 0
    # kernel CPU per IO over TCP / over RDMA equals the published 16,300 / 12,800
    from planner.calibration.fit import _tcp_pair
    from planner.models.params import ModelParams

    D, W, _ = _tcp_pair()
    out = evaluate_arrays(D, W, ModelParams.from_vector(v))
    ratio = float(out["cpu_lp_us_per_io"][1] / out["cpu_lp_us_per_io"][0])
    assert ratio == pytest.approx(16_300 / 12_800, rel=1e-6)
    # and the shipped parameters carry the derivation
    assert P.tcp_cpu_per_crossing_us > 0 and P.tcp_hop_latency_us > 0


@settings(max_examples=30, deadline=None)
@given(f=st.floats(0.05, 3.0), wl=st.sampled_from(["oltp-8k", "Peak4kRead", "General4KWriteRatio30", "dss-64k"]))
def test_a_rate_limit_never_puts_more_ios_in_flight_than_the_population(f, wl):
    rd = resolve(with_overrides(REF, cpu_utilization_cap=1.0))
    w = profiles()[wl]
    free = performance(rd, w, band=False)
    vms = w.vms_per_node * REF.nodes
    limited = performance(rd, w.model_copy(update={"iops_limit_per_vm": free["iops"] / vms * f}), band=False)
    assert limited["outstanding_ios"] <= vms * w.outstanding_per_vm * (1 + 1e-9)
    assert limited["iops"] <= free["iops"] * (1 + 1e-9)


@settings(max_examples=30, deadline=None)
@given(
    nodes=st.integers(2, 8),
    wl=st.sampled_from(["oltp-8k", "Peak4kRead", "General4KWriteRatio30", "log-writes"]),
    res=st.sampled_from(["mirror-2way", "mirror-3way"]),
)
def test_losing_a_node_never_raises_iops(nodes, wl, res):
    if res == "mirror-3way" and nodes < 3:
        nodes = 3
    rd = resolve(with_overrides(REF, nodes=nodes, resiliency=res, cpu_utilization_cap=1.0))
    healthy = performance(rd, profiles()[wl], band=False)
    down = performance(rd, profiles()[wl], band=False, degraded=True)
    assert down["iops"] <= healthy["iops"] * (1 + 1e-9)


def test_a_write_waits_for_the_last_of_its_copies():
    """A mirrored write completes when every copy has (fork-join): at the same
    load its CPU wait grows with the copies; a read waits for one LP."""
    w = profiles()["General4KWriteRatio30"]
    rd2 = resolve(with_overrides(REF, resiliency="mirror-2way"))
    rd3 = resolve(REF)
    D = DesignArrays.from_designs([rd2, rd3])
    t = demands(D, WorkloadArrays.from_workloads([w, w], D.nodes), P)
    assert list(t["write_branches"]) == [2.0, 3.0]
    # 2-node nested mirror: four copies on two servers, two branches
    nested = resolve(with_overrides(REF, nodes=2, resiliency="nested-mirror-2way"))
    Dn = DesignArrays.from_designs([nested])
    assert np.ravel(demands(Dn, WorkloadArrays.from_workload(w, Dn.nodes), P)["write_branches"]).tolist() == [2.0]


def test_drives_that_wear_out_within_their_service_life_are_flagged():
    """CLI review 2026-11-29: `evaluate examples/reference.json --workload oltp-8k` printed
    "endurance_years": 0.47 with "warnings": [] (and a single server's SATA SSDs 0.07 years)."""
    from planner.models.design import load_design

    w = profiles()["oltp-8k"]
    for path in ("examples/reference.json", "examples/seed-dl580-raid1.json"):
        rep = evaluate_report(load_design(path), w, degraded=False)
        (warn,) = [x for x in rep["warnings"] if x["check"] == "drive_endurance"]
        assert rep["endurance_years"] < 3 and "the 3 years the costs spread the purchase over" in warn["message"]
    # a read-only load never wears the drives: no warning
    reads = evaluate_report(load_design("examples/reference.json"), profiles()["Peak4kRead"], degraded=False)
    assert not [x for x in reads["warnings"] if x["check"] == "drive_endurance"]


def test_the_endurance_warning_and_the_sizers_rule_draw_one_line():
    """Browser review 2026-11-30: the sizer's best design (3.1 years of rated writes, its rule: outlast the
    3-year amortisation) carried "rated writes run out in 3.1 years ... within their 5-year warranty" on
    the Design and Performance pages and in the proposal."""
    from planner.commercial.pricing import CostAssumptions
    from planner.physics.endurance import endurance_warning

    months = CostAssumptions().amortisation_months
    assert endurance_warning(months / 12.0 + 0.1, 5.0) is None
    assert endurance_warning(months / 12.0 - 0.1, 5.0)["check"] == "drive_endurance"
