"""Performance model: physics invariants, vectorisation, CLI output."""

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.cli import main
from planner.engine.performance import STATIONS, DesignArrays, WorkloadArrays, evaluate_arrays
from planner.models.design import parse_design, resolve, with_overrides
from planner.models.params import default_params
from planner.models.workload import Workload, profiles
from planner.results.report import performance

EX = Path(__file__).resolve().parent.parent / "examples"
REF = parse_design((EX / "reference.json").read_text())
P = default_params()


def run(design, workload):
    rd = resolve(design)
    D = DesignArrays.from_designs([rd])
    return evaluate_arrays(D, WorkloadArrays.from_workload(workload, D.nodes), P)


workloads = st.builds(
    Workload,
    name=st.just("w"),
    block_size_kib=st.sampled_from([4, 8, 16, 64, 256]),
    read_fraction=st.floats(0, 1),
    random_fraction=st.floats(0, 1),
    vms_per_node=st.integers(1, 60),
    vcpus_per_vm=st.integers(1, 8),
    threads_per_vm=st.integers(1, 4),
    outstanding_per_thread=st.integers(1, 64),
    vm_alignment=st.floats(0.5, 1.0),
)


@settings(max_examples=40, deadline=None)
@given(w=workloads)
def test_utilisation_in_unit_interval_and_littles_law(w):
    out = run(REF, w)
    u = out["utilization"]
    assert np.all(u >= 0) and np.all(u <= 1.0 + 1e-9)
    if out["limited_by"][0] == "population":
        n = w.vms_per_node * REF.nodes * w.outstanding_per_vm
        assert out["iops"][0] * out["vm_latency_ms"][0] / 1e3 == pytest.approx(n, rel=1e-6)


@settings(max_examples=25, deadline=None)
@given(w=workloads, extra=st.integers(1, 4))
def test_more_nodes_or_drives_never_lower_throughput_bound(w, extra):
    base = run(REF, w)["iops_capacity"][0]
    # Nodes: with 3 copies on n nodes a read is local with P = 3/n, so the
    # network carries (1 - 3/n) of reads and its bound, n^2 / (n - 3), falls
    # until n = 6 (see the 3 -> 4 test below). From 6 nodes up more nodes never
    # lower the bound; below, no other resource's bound ever falls.
    six = run(with_overrides(REF, nodes=6), w)
    more = run(with_overrides(REF, nodes=6 + extra), w)
    assert more["iops_capacity"][0] >= six["iops_capacity"][0] * (1 - 1e-9)
    small, bigger = run(REF, w), run(with_overrides(REF, nodes=REF.nodes + extra), w)
    net = STATIONS.index("network")
    for k in range(len(STATIONS)):
        if k != net and small["utilization"][0][k] > 0 and bigger["utilization"][0][k] > 0:
            # utilisation per delivered IO = the station's share of the bound
            assert bigger["utilization"][0][k] / bigger["iops"][0] <= small["utilization"][0][k] / small["iops"][0] * (
                1 + 1e-9
            ), STATIONS[k]
    d = REF.model_dump(mode="json")
    d["node"]["capacity_drives"]["count"] = 10  # bays are full; drop the chassis to add drives
    d["node"]["chassis"] = None
    d["node"]["capacity_drives"]["count"] += extra
    assert run(parse_design(d), w)["iops_capacity"][0] >= base * (1 - 1e-9)


@settings(max_examples=20, deadline=None)
@given(bs=st.sampled_from([4, 8, 64]), r=st.floats(0, 1))
def test_latency_never_falls_as_load_rises(bs, r):
    rd = resolve(REF)
    D = DesignArrays.from_designs([rd] * 30)
    rates = np.linspace(1e4, 3e6, 30)
    ws = [Workload(block_size_kib=bs, read_fraction=r, iops=x, vms_per_node=50) for x in rates]
    out = evaluate_arrays(D, WorkloadArrays.from_workloads(ws, D.nodes), P)
    for key in ("read_latency_ms", "write_latency_ms", "vm_latency_ms"):
        v = out[key][np.isfinite(out[key])]
        assert np.all(np.diff(v) >= -1e-9), key


def test_three_way_mirror_loses_read_locality_from_three_to_four_nodes():
    # With 3 copies on 3 nodes every read is local; on 4 nodes a quarter of reads
    # cross the network. A network-bound workload can therefore deliver less on
    # 4 nodes than on 3: the model keeps this real effect rather than hide it.
    w = Workload(block_size_kib=256, read_fraction=1.0, vms_per_node=4, vm_alignment=1.0)
    d3 = with_overrides(REF, nodes=3)
    d4 = with_overrides(REF, nodes=4)
    net = STATIONS.index("network")
    assert run(d3, w)["utilization"][0][net] == 0.0
    assert run(d4, w)["utilization"][0][net] > 0.0


def test_pure_reads_send_no_replication_traffic():
    w = Workload(block_size_kib=4, read_fraction=1.0, vms_per_node=20, vm_alignment=1.0)
    out = run(REF, w)  # 3-way mirror on 3 nodes: every read is local
    assert out["utilization"][0][STATIONS.index("network")] == 0.0
    w2 = w.model_copy(update={"read_fraction": 0.7})
    assert run(REF, w2)["utilization"][0][STATIONS.index("network")] > 0.0


@settings(max_examples=25, deadline=None)
@given(w=workloads)
def test_tcp_never_beats_rdma_on_latency(w):
    tcp_design = with_overrides(REF, transport="tcp")
    rdma, tcp = run(REF, w), run(tcp_design, w)
    # same population: TCP never delivers more
    assert tcp["iops"][0] <= rdma["iops"][0] * (1 + 1e-9)
    assert tcp["iops_capacity"][0] <= rdma["iops_capacity"][0] * (1 + 1e-9)
    # same offered load: every layer's latency is at least RDMA's
    load = 0.5 * min(rdma["iops"][0], tcp["iops"][0])
    w_open = w.model_copy(update={"iops": load})
    rdma, tcp = run(REF, w_open), run(tcp_design, w_open)
    for key in ("read_latency_ms", "write_latency_ms", "vm_latency_ms"):
        assert tcp[key][0] >= rdma[key][0] - 1e-12, key


def test_vectorised_equals_one_at_a_time():
    designs = [resolve(with_overrides(REF, nodes=n)) for n in (3, 4, 5, 6)]
    w = profiles()["oltp-8k"]
    D = DesignArrays.from_designs(designs)
    batch = evaluate_arrays(D, WorkloadArrays.from_workload(w, D.nodes), P)
    for i, rd in enumerate(designs):
        one = evaluate_arrays(DesignArrays.from_designs([rd]), WorkloadArrays.from_workload(w, rd.nodes), P)
        assert batch["iops"][i] == pytest.approx(one["iops"][0], rel=1e-9)
        assert batch["vm_latency_ms"][i] == pytest.approx(one["vm_latency_ms"][0], rel=1e-9)


def test_open_load_reports_latency_at_target():
    w = Workload(block_size_kib=8, read_fraction=0.7, iops=300_000)
    r = performance(resolve(REF), w, band=False)
    assert r["iops"] == pytest.approx(300_000)
    assert r["limited_by"] == "offered_load" and r["bottleneck"] == "none"
    assert 0 < r["read_latency_ms"] < r["vm_read_latency_ms"]
    assert r["p99_read_latency_ms"] > r["vm_read_latency_ms"]


def test_cli_evaluate_with_workload_prints_required_fields(capsys):
    assert main(["evaluate", str(EX / "reference.json"), "--workload", "oltp-8k", "--transport", "tcp"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in (
        "iops",
        "iops_per_node",
        "bandwidth_mb_s",
        "read_latency_ms",
        "write_latency_ms",
        "vm_read_latency_ms",
        "vm_write_latency_ms",
        "p99_read_latency_ms",
        "p99_write_latency_ms",
        "bottleneck",
        "utilization",
        "iops_low",
        "iops_high",
        "usable_capacity_tb",
        "degraded",
        "endurance_years",
    ):
        assert key in out, key
    assert out["transport"] == "tcp"
    assert out["iops_low"] <= out["iops"] <= out["iops_high"]
    assert out["degraded"]["iops"] <= out["iops"] * 1.0001
    assert all(0 <= u <= 1 for u in out["utilization"].values())


def test_latency_curve_rises_to_capacity_and_marks_the_cap():
    from planner.results.report import latency_curve

    c = latency_curve(resolve(REF), profiles()["oltp-8k"], points=25)
    assert max(c["iops"]) == pytest.approx(0.99 * c["iops_capacity"], rel=1e-6)
    assert np.all(np.diff(c["vm_latency_ms"]) >= -1e-12)
    assert c["vm_latency_ms"][-1] > c["vm_latency_ms"][0]  # queueing grows towards saturation
    assert 0 < c["cpu_cap_iops"] < c["iops_capacity"]  # the reference design's 60 % cap binds first
    assert (
        latency_curve(resolve(with_overrides(REF, cpu_utilization_cap=1.0)), profiles()["oltp-8k"])["cpu_cap_iops"]
        is None
    )


def test_sensitivity_moves_the_right_way():
    from planner.sizing.scenarios import sensitivity

    rows = {r["input"]: r for r in sensitivity(REF, profiles()["oltp-8k"])}
    nodes = rows["nodes ±1"]
    assert nodes["low_iops"] is None  # 2 nodes cannot hold a 3-way mirror
    assert nodes["high_whole_usd_per_month"] > nodes["base_whole_usd_per_month"]
    cap = rows["CPU cap ±0.1"]  # the reference design is held by its 60 % CPU cap
    assert cap["low_iops"] < cap["base_iops"] < cap["high_iops"]
    tcp = rows["transport: TCP / RDMA"]
    assert tcp["low_iops"] <= tcp["base_iops"] and tcp["low_vm_latency_ms"] >= tcp["base_vm_latency_ms"] - 1e-12


def test_a_setting_past_an_inputs_limit_has_no_figures_not_the_designs_own():
    """Stop 60 Ceph walk: at a CPU cap of 1.0, "CPU cap ±0.1" showed a high setting of 0 change (clamped to 1.0, the
    design itself), read as "the cap does not matter". A cap of 1.1 is no valid design: no figures, as for 2 nodes
    of a three-way mirror; the low setting is there."""
    from planner.sizing.scenarios import sensitivity

    full = with_overrides(REF, cpu_utilization_cap=1.0)
    cap = {r["input"]: r for r in sensitivity(full, profiles()["oltp-8k"])}["CPU cap ±0.1"]
    assert cap["high_iops"] is None and cap["high_whole_usd_per_month"] is None
    assert cap["low_iops"] is not None


def test_a_ceph_design_is_not_moved_to_rdma_in_the_sensitivity():
    """Browser review (2026-11-29): the Compare page's "which input matters most" listed "transport tcp /
    rdma" for a Ceph design, whose messenger the model runs over TCP only (RDMA is refused): not an input
    the engineer can move, so not a row; an S2D design keeps it."""
    import json
    from pathlib import Path

    from planner.models.design import parse_design
    from planner.sizing.scenarios import one_at_a_time_variants

    ceph = parse_design((Path(__file__).resolve().parent.parent / "examples" / "ceph-6node-reef.json").read_text())
    assert "transport: TCP / RDMA" not in [label for label, _, _ in one_at_a_time_variants(ceph)]
    assert "transport: TCP / RDMA" in [label for label, _, _ in one_at_a_time_variants(REF)]
    assert json.loads(ceph.model_dump_json())["stack"] == "ceph"


@pytest.mark.parametrize("example", ["reference.json", "seed-datrium-dvx.json"])
def test_an_open_load_past_saturation_is_limited_by_its_full_station_and_warned(example):
    """CLI review 2026-11-29: 5,000,000 IOPS asked of the reference cluster (capacity 607,096) printed
    "limited_by": "offered_load" beside "saturated": true and a VM latency of 3.75 ms, with no warning."""
    from planner.models.design import load_design
    from planner.models.workload import Workload
    from planner.results.report import evaluate_report

    d = load_design(EX / example)
    if d.cluster_engine:
        d = d.model_copy(update={"cpu_utilization_cap": 1.0})
    w = Workload(name="too much", block_size_kib=8, read_fraction=0.7, iops=5_000_000, vms_per_node=10)
    rep = evaluate_report(d, w)
    assert rep["saturated"] and rep["limited_by"] == rep["bottleneck"] != "offered_load"
    (warn,) = [x for x in rep["warnings"] if x["check"] == "saturated"]
    assert "5,000,000 IOPS" in warn["message"] and f"{rep['iops_capacity']:,.0f} IOPS" in warn["message"]
    assert "_" not in warn["message"] and "limited by its " in warn["message"]  # the station in words
    # a load the design carries: no such warning, limited by what it offers
    rep = evaluate_report(d, w.model_copy(update={"iops": 10_000}))
    assert rep["limited_by"] == "offered_load" and not any(x["check"] == "saturated" for x in rep["warnings"])


def test_an_open_load_the_cpu_cap_throttles_is_warned_and_a_capped_load_past_saturation_names_its_station():
    """API walk 2026-11-30: 5,000,000 IOPS asked of the reference cluster under its 50 % CPU utilisation cap
    printed 523,208 IOPS at 0.514 ms, "saturated": false and no warning (the held-back IOs of an open load
    queue without end); and vSAN under a cap of 0.8 said "limited by its CPU utilisation cap" with its host
    CPU 69 % busy, saturated at the same IOPS as with no cap."""
    from planner.models.design import load_design
    from planner.models.workload import Workload
    from planner.results.report import evaluate_report

    w = Workload(name="too much", block_size_kib=8, read_fraction=0.7, iops=5_000_000, vms_per_node=50)
    ref = load_design(EX / "reference.json")
    assert ref.cpu_utilization_cap < 1.0
    rep = evaluate_report(ref, w)
    assert not rep["saturated"] and rep["limited_by"] == "cpu_utilization_cap"
    (warn,) = [x for x in rep["warnings"] if x["check"] == "throttled"]
    assert "5,000,000 IOPS" in warn["message"] and f"lets {rep['iops']:,.0f} through" in warn["message"]
    assert "CPU utilisation cap" in warn["message"] and "_" not in warn["message"]
    # a load under the cap: no such warning
    rep = evaluate_report(ref, w.model_copy(update={"iops": 10_000}))
    assert not any(x["check"] == "throttled" for x in rep["warnings"])
    # a cap the load passes while a station saturates first: limited by that station, said as saturation
    vsan = load_design(EX / "vsan-esa-6node.json")
    free = evaluate_report(vsan.model_copy(update={"cpu_utilization_cap": 1.0}), w)
    capped = evaluate_report(vsan.model_copy(update={"cpu_utilization_cap": 0.8}), w)
    assert capped["saturated"] and capped["iops"] == pytest.approx(free["iops"])
    assert capped["limited_by"] == free["limited_by"] == capped["bottleneck"] != "cpu_utilization_cap"
    assert [x["check"] for x in capped["warnings"] if x["check"] in ("saturated", "throttled")] == ["saturated"]


def test_a_saturated_loads_iops_band_ends_at_what_it_offers():
    """Browser review 2026-11-30: a vSAN what-if past saturation showed an IOPS band of 1,003,846-4,015,383
    beside an offered 2,328,817: a load is never carried beyond what it asks."""
    from planner.models.design import load_design
    from planner.models.workload import Workload
    from planner.results.report import evaluate_report

    w = Workload(name="too much", block_size_kib=8, read_fraction=0.7, iops=2_000_000, vms_per_node=10)
    for ex in ("vsan-esa-6node.json", "reference.json"):
        d = load_design(EX / ex).model_copy(update={"cpu_utilization_cap": 1.0})
        rep = evaluate_report(d, w)
        assert rep["saturated"], ex
        assert rep["iops_low"] <= rep["iops"] <= rep["iops_high"] <= 2_000_000 * (1 + 1e-12), ex
        assert rep["bandwidth_mb_s_high"] <= rep["bandwidth_mb_s"] * 2_000_000 / rep["iops"] * (1 + 1e-12)


def test_a_load_past_saturation_only_with_one_node_down_is_warned_as_such():
    """Browser review 2026-11-30: at 4 nodes the Design page said "IOPS met: 1,598,464 IOPS at saturation,
    1,200,000 needed" above "The load asks 1,200,000 IOPS, past the 1,111,185 IOPS this design carries at
    most": the second figure was the three survivors', and the warning did not say so."""
    from planner.models.design import load_design
    from planner.models.workload import Workload
    from planner.results.report import evaluate_report

    d = load_design(EX / "reference.json").model_copy(update={"cpu_utilization_cap": 1.0})
    w = Workload(name="w", block_size_kib=8, read_fraction=0.7, iops=10_000, vms_per_node=10)
    healthy_cap = evaluate_report(d, w)["iops_capacity"]
    rep = evaluate_report(d, w.model_copy(update={"iops": 0.9 * healthy_cap}))
    assert not rep["saturated"] and rep["degraded"]["saturated"]
    (warn,) = [x for x in rep["warnings"] if x["check"] == "saturated"]
    assert warn["case"] == "one node down" and warn["message"].startswith("with one node down, the load asks")
    assert f"{healthy_cap:,.0f}" not in warn["message"]


@pytest.mark.parametrize("example", ["reference.json", "ceph-6node-reef.json", "seed-datrium-dvx.json"])
def test_a_report_says_what_its_two_host_cpu_figures_are(example):
    """CLI review 2026-11-30: "host_cpu_utilization": 0.6 beside "utilization": {"host_cpu": 0.86} in one
    report, neither explained (Ceph: 0.636 beside 0.99998)."""
    from planner.engine.performance import HOST_CPU_NOTE
    from planner.models.design import load_design
    from planner.models.workload import profiles
    from planner.results.report import evaluate_report

    rep = evaluate_report(load_design(EX / example), profiles()["oltp-8k"])
    assert rep["host_cpu_utilization"] is not None and "host_cpu" in rep["utilization"]
    assert rep["host_cpu_utilization_note"] == HOST_CPU_NOTE and "utilization.host_cpu" in HOST_CPU_NOTE


def test_the_endurance_warning_follows_the_service_life_asked():
    """Stop 45 noticed: the endurance warning judged the drives over 36 months whatever amortisation the costs
    spread the purchase over, where the sizer's rule and the verdict take the costs' period."""
    from planner.models.design import load_design
    from planner.models.workload import profiles
    from planner.results.report import evaluate_report

    d = load_design(EX / "reference.json")
    w = profiles()["oltp-8k"].model_copy(update={"read_fraction": 0.95})
    years = evaluate_report(d, w)["endurance_years"]

    def warned(months):
        return any(x["check"] == "drive_endurance" for x in evaluate_report(d, w, service_months=months)["warnings"])

    assert not warned(math.floor(years * 12) - 1) and warned(math.ceil(years * 12) + 1)
    assert f"before the {(math.ceil(years * 12) + 1) / 12:g} years" in next(
        x["message"]
        for x in evaluate_report(d, w, service_months=math.ceil(years * 12) + 1)["warnings"]
        if x["check"] == "drive_endurance"
    )


def test_the_endurance_warning_of_a_load_not_carried_whole_says_it_is_at_what_the_design_carries():
    """Presales walk 2026-11-30: "rated writes run out in 2.0 years if this load runs around the clock" stood
    beside the sizing rule's 1.1 years at the demand's own IOPS and "the load asks 852,000 IOPS": the warning's
    writes were of what the saturated design carries."""
    from planner.models.design import load_design
    from planner.models.workload import Workload
    from planner.results.report import evaluate_report

    ref = load_design(EX / "reference.json")
    w = Workload(name="too much", block_size_kib=8, read_fraction=0.7, iops=5_000_000, vms_per_node=50)
    rep = evaluate_report(ref, w)
    (warn,) = [x for x in rep["warnings"] if x["check"] == "drive_endurance"]
    assert f"at the {rep['iops']:,.0f} IOPS this design carries of this load" in warn["message"]
    carried = evaluate_report(ref, w.model_copy(update={"iops": 400_000}))
    (warn,) = [x for x in carried["warnings"] if x["check"] == "drive_endurance"]
    assert "if this load runs around the clock" in warn["message"]


@pytest.mark.parametrize(
    "example",
    ["reference.json", "ceph-6node-reef.json", "vsan-esa-6node.json", "san-raid5.json", "seed-dl580-raid10.json"],
)
def test_an_open_load_past_saturation_prints_utilisations_at_the_iops_it_prints(example):
    """Stop 55 review: past capacity the report printed the capacity as ``iops`` but its binding station
    0.999 busy (the engine evaluates at 99.9 % of capacity for a finite residence); by U = X D the IOPS
    printed mean U = 1. Every utilisation is linear in the IOPS and the host CPU's share affine, so at the
    capacity each is what a carried load's figures extrapolate to, the binding station 1.0."""
    from planner.models.design import load_design
    from planner.results.report import evaluate_report

    d = load_design(EX / example)
    if getattr(d, "cpu_utilization_cap", 1.0) < 1.0:
        d = d.model_copy(update={"cpu_utilization_cap": 1.0})
    w = Workload(name="too much", block_size_kib=8, read_fraction=0.7, iops=1e9, vms_per_node=10)
    sat = evaluate_report(d, w, degraded=False)
    assert sat["saturated"] and sat["iops"] == pytest.approx(sat["iops_capacity"], rel=1e-12)
    assert max(sat["utilization"].values()) == 1.0
    lo, hi = (
        evaluate_report(d, w.model_copy(update={"iops": f * sat["iops_capacity"]}), degraded=False) for f in (0.3, 0.6)
    )
    for k, u in sat["utilization"].items():
        assert u == pytest.approx(hi["utilization"][k] / hi["iops"] * sat["iops"], rel=1e-9, abs=1e-12), k
    slope = (hi["host_cpu_utilization"] - lo["host_cpu_utilization"]) / (hi["iops"] - lo["iops"])
    want = hi["host_cpu_utilization"] + slope * (sat["iops"] - hi["iops"])
    assert sat["host_cpu_utilization"] == pytest.approx(want, rel=1e-9)
