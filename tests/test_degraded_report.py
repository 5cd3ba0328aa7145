"""The degraded case (one node down) of a report: its repair time."""

import json
from pathlib import Path

import numpy as np
import pytest

from planner.models.design import VsanSpec, parse_design
from planner.results.report import evaluate_report

EX = Path(__file__).resolve().parent.parent / "examples"


def test_no_repair_time_is_quoted_where_no_repair_can_happen():
    """A 3-node three-way mirror keeps its data online after a node loss but
    cannot rebuild the third copy: the degraded case quotes no repair time
    (QA walk-through: 'Repair time = 0.8 h' beside the Capacity page's 'needs 3
    to repair'); at 4 nodes it can, and does."""
    from planner.models.workload import profiles

    ref = parse_design((EX / "reference.json").read_text())
    three = evaluate_report(ref, profiles()["oltp-8k"])["degraded"]
    assert three["repair_time_hours"] is None and "no repair to full resiliency" in three["note"]
    four = evaluate_report(ref.model_copy(update={"nodes": 4}), profiles()["oltp-8k"])["degraded"]
    assert four["repair_time_hours"] > 0 and "rebuild time is for the" in four["note"]  # what the survivors re-protect


def test_a_latency_drop_with_a_node_down_is_explained_where_a_policy_paces_the_vms():
    """Peak4kRead on the reference cluster: healthy, the VMs' single vCPUs queue (1.46 ms);
    one node down, the CPU cap binds and admits fewer IOs, so the paced VMs see less latency.
    That is the model's pacing (documented), and the report says so; where latency rises, no note."""
    from planner.models.design import load_design
    from planner.models.workload import profiles
    from planner.results.report import evaluate_report

    ref = load_design(EX / "reference.json")
    r = evaluate_report(ref, profiles()["Peak4kRead"])
    g = r["degraded"]
    assert g["vm_latency_ms"] < r["vm_latency_ms"] and g["limited_by"] == "cpu_utilization_cap"
    notes = [n for n in r["notes"] if n.startswith("With a node down the VM latency is lower")]
    assert len(notes) == 1 and f"{g['iops']:,.0f} IOPS against {r['iops']:,.0f}" in notes[0]
    assert "CPU utilisation cap now binds" in notes[0]
    plain = evaluate_report(ref, profiles()["oltp-8k"])
    assert plain["degraded"]["vm_latency_ms"] >= plain["vm_latency_ms"]
    assert not any(n.startswith("With a node down") for n in plain["notes"])


def test_vsan_one_host_down_reads_no_more_locally():
    """QA 2026-11-28: on vSAN a lost host made reads more local (the local share was 1/(n-1) of the
    survivors, not 1/n of the hosts the components were placed on): one host down gave 670,206 IOPS
    against 669,912 healthy and a 7.5 % lower storage read latency on vsan-esa-6node at 3 hosts."""
    from planner.models.design import load_design, with_overrides
    from planner.models.workload import profiles

    for n in (3, 4):
        r = evaluate_report(with_overrides(load_design(EX / "vsan-esa-6node.json"), nodes=n), profiles()["Peak4kRead"])
        g = r["degraded"]
        assert g["iops"] <= r["iops"] and g["read_latency_ms"] >= r["read_latency_ms"], (n, r["iops"], g["iops"])


def test_a_vsan_raid5_read_of_a_component_on_the_absent_host_is_decoded_from_the_k_surviving_ones():
    """vSAN specialist's walk: one host down, a read of a RAID-5/6 component held on the absent host decodes it from
    the k surviving components, as S2D parity's does; the vSAN branch read nothing more (ESA 4+1 on six hosts:
    1,610,421 -> 1,342,022 IOPS, oltp-8k). One rule (resiliency.decoded_reads_per_read): 1/6 of reads x 3 more chunk
    reads, 0.5 more per read; RAID-1 reads a surviving copy, none more."""
    from planner.engine.degraded import degraded_arrays
    from planner.engine.performance import DesignArrays, WorkloadArrays, demand_terms
    from planner.models.catalog import load_catalog
    from planner.models.design import load_design, resolve, with_overrides
    from planner.models.params import default_params
    from planner.models.workload import profiles

    def terms(design, down):
        D = DesignArrays.from_designs([resolve(design, load_catalog())])
        W = WorkloadArrays.from_workloads([profiles()["oltp-8k"]], D.nodes)
        if down:
            D, W = degraded_arrays(D, W)
        return demand_terms(D, W, default_params())

    esa = load_design(EX / "vsan-esa-6node.json")  # RAID-5 4+1 on six hosts
    assert np.allclose(terms(esa, True)["decoded_reads"], 3 * 1 / 6) and np.allclose(
        terms(esa, False)["decoded_reads"], 0.0
    )
    raid6 = with_overrides(esa, resiliency="raid6")  # 4+2: a lost chunk decoded from 4
    assert np.allclose(terms(raid6, True)["decoded_reads"], 3 * 1 / 6)
    mirror = with_overrides(esa, resiliency="raid1-ftt1")
    assert np.allclose(terms(mirror, True)["decoded_reads"], 0.0)
    r = evaluate_report(esa, profiles()["oltp-8k"])
    assert r["degraded"]["iops"] < 0.8 * r["iops"], (r["iops"], r["degraded"]["iops"])  # 1,342,022 of 1,610,421


def test_ceph_repair_time_is_capped_by_the_measured_backfill_rate_and_said_a_lower_bound():
    """Ceph/vSAN walk 2026-11-30: 0.5 h to rebuild ~57 TB on six nodes of 2 x 100 GbE (~31 GB/s, the repair share of
    the survivors' bandwidth) with no backfill or mClock limit. Ceph's mClock study measured 480 MiB/s into one NVMe
    OSD under the default profile (planner/data/ceph-recovery.json): the repair bandwidth is at most that per
    surviving OSD, and the report says the time is a lower bound."""
    import json

    from planner.engine.degraded import repair_time_hours
    from planner.models.catalog import load_catalog
    from planner.models.design import resolve
    from planner.models.stacks import ceph_recovery, ceph_recovery_mib_s_per_osd
    from planner.models.workload import load_workload

    data = ceph_recovery()
    assert "mclock_wpq_cmp_study" in data["source"] and data["used"] == "mclock_balanced"
    assert ceph_recovery_mib_s_per_osd("ssd") == 480 and ceph_recovery_mib_s_per_osd("hdd") == 16.5
    design = json.loads((EX / "ceph-6node-reef.json").read_text())
    r = evaluate_report(parse_design(design), load_workload("oltp-8k"))
    d = r["degraded"]
    osds = 5 * 10  # the survivors' OSDs: five nodes of ten NVMe drives, one OSD each
    footprint = r["usable_capacity_tb"] / r["resiliency_efficiency"]
    want = footprint / 6 * 1e12 / (480 * 2**20 * osds) / 3600
    assert d["repair_time_hours"] == pytest.approx(want)
    # longer than the repair share of the survivors' bandwidth alone gave (0.48 h): the measured rate binds here
    rd = resolve(parse_design(design), load_catalog())
    share_only = float(
        repair_time_hours(footprint, 6, 10, rd.node.drive.seq_write_mb_s, rd.node.network_gbit_s * 1e9 / 8)
    )
    # 0.507 h before the fill kept the fullest OSD at backfillfull (Ceph operator walk): 5 % less data
    assert share_only == pytest.approx(0.483, abs=1e-3) and d["repair_time_hours"] > share_only
    note = d["repair_time_hours_note"]
    assert note.startswith("a lower bound for Ceph") and "480 MiB/s per OSD" in note
    assert "default mClock profile's (balanced) recovery reservation, 50 %" in note
    # another stack keeps its repair time without the cap or the note
    s2d = evaluate_report(parse_design(json.loads((EX / "reference.json").read_text())), load_workload("oltp-8k"))
    assert "lower bound" not in s2d["degraded"].get("repair_time_hours_note", "")


def test_an_erasure_coded_repair_reads_k_chunks_for_each_it_rebuilds():
    """Ceph operator walk: 12 nodes, oltp-8k: repair_time_hours was 0.315 for replica-3, ec-4+2, ec-6+2 and ec-8+3
    alike. Rebuilding one EC chunk reads k surviving chunks (Ceph docs, LRC plugin page: with jerasure "recovering
    from the loss of one OSD requires reading from all the others"): the read side moves k x the lost bytes over the
    survivors' drives and network, the write side (capped by the measured backfill rate) is unchanged. The time is
    the slowest side, and a page quotes it as the lower bound it is."""
    import json

    from planner.engine.degraded import repair_time_hours
    from planner.models.workload import load_workload

    design = parse_design(json.loads((EX / "ceph-6node-reef.json").read_text()))
    hours = {}
    for r in ("replica-3", "ec-4+2", "ec-6+2", "ec-8+3"):
        d = evaluate_report(design.model_copy(update={"nodes": 12, "resiliency": r}), load_workload("oltp-8k"))
        hours[r] = d["degraded"]["repair_time_hours"]
        assert d["degraded"]["repair_time_is_lower_bound"] is True
        if r == "replica-3":  # the backfill cap binds, as before: 480 MiB/s into each of 11 x 10 survivor OSDs
            lost = d["usable_capacity_tb"] / d["resiliency_efficiency"] / 12 * 1e12
            assert hours[r] == pytest.approx(lost / (480 * 2**20 * 110) / 3600)
    assert hours["replica-3"] < hours["ec-4+2"] < hours["ec-6+2"] < hours["ec-8+3"]
    assert hours["ec-8+3"] / hours["ec-4+2"] == pytest.approx(2.0)  # the read side binds: k x the lost bytes
    # the function: the slowest of the read side, the write side and the cap
    one = dict(used_footprint_tb=60.0, nodes=6, drives_per_node=10, node_bandwidth_bytes_s=100e9)
    write_bound = float(repair_time_hours(**one, drive_write_mb_s=1000.0, drive_read_mb_s=6000.0))
    assert write_bound == pytest.approx(10e12 / (0.25 * 50 * 1000e6) / 3600)
    read_bound = float(repair_time_hours(**one, drive_write_mb_s=1000.0, drive_read_mb_s=6000.0, data_chunks=8))
    assert read_bound == pytest.approx(8 * 10e12 / (0.25 * 50 * 6000e6) / 3600)
    # the survivors' network binds the read side when it is the narrower
    net_bound = repair_time_hours(
        **(one | {"node_bandwidth_bytes_s": 25e9}), drive_write_mb_s=1e3, drive_read_mb_s=6e3, data_chunks=8
    )
    assert float(net_bound) == pytest.approx(8 * 10e12 / (0.25 * 5 * 25e9) / 3600)


def _walk(design, **update):
    """Healthy and one-node-down oltp-8k figures of an example design."""
    from planner.models.workload import profiles

    d = parse_design((EX / design).read_text())
    return evaluate_report(d.model_copy(update=update) if update else d, profiles()["oltp-8k"])


def test_two_node_mirror_one_node_down_writes_one_copy_and_holds_no_repair_share():
    """SRE walk 2026-11-30: edge-2node (two-way mirror on 2 nodes) gave 242,190 IOPS healthy and
    90,822 one node down (0.375x: both copies written to the survivor's drives, and 25 % of its drives
    and network held for a repair that cannot run). With a node down S2D writes the copies whose node
    is up and resyncs the other when it returns: one copy, no repair share, no east-west write."""
    r = _walk("edge-2node.json")
    g = r["degraded"]
    assert g["repair_time_hours"] is None
    assert g["iops"] / r["iops"] > 0.5, (r["iops"], g["iops"])
    # drive-bound both ways: the survivor's 4 drives serve each read and one copy of each write,
    # against 8 drives serving each read and two copies healthy; a phantom repair share would leave
    # the drives at 75 % of what this gives
    assert r["bottleneck"] == g["bottleneck"] == "capacity_drives"
    assert g["utilization"]["network"] == 0.0  # no redirect (one node owns every volume), no remote copy
    assert all(0.0 <= u <= 1.0 for u in g["utilization"].values())
    # Little's law on the closed population (the same VMs, on the survivor): IOs in flight = IOPS x latency
    assert g["limited_by"] == "population"
    assert r["outstanding_ios"] == pytest.approx(g["iops"] * g["vm_latency_ms"] / 1e3, rel=1e-6)
    nested = _walk("edge-2node.json", resiliency="nested-mirror-2way")
    assert nested["degraded"]["iops"] / nested["iops"] > 0.5, (nested["iops"], nested["degraded"]["iops"])


def test_three_node_mirror_one_node_down_utilisation_has_no_phantom_repair():
    """The reference (three-way mirror on 3 nodes) cannot repair with 2 fault domains left, yet one node
    down its drives rose from 32 % to 39 % and its network from 14 % to 22 % (a 25 % repair share and the
    lost node's copy still written): the survivors now write two copies and hold nothing back, so neither
    rises above healthy while the host CPU binds both ways."""
    r = _walk("reference.json")
    g = r["degraded"]
    assert g["repair_time_hours"] is None
    for station in ("network", "capacity_drives"):
        assert g["utilization"][station] <= r["utilization"][station], station
    assert all(0.0 <= u <= 1.0 for u in g["utilization"].values())


def test_four_node_three_way_mirror_one_node_down_is_unchanged():
    """Where the survivors repair (three-way mirror on 4 nodes), copies are rebuilt on them, writes make
    every copy and the repair share is held: the figures of before the no-repair rule, to the last bit, but for the
    CPU the rebuild's IO costs (fixP: 447,382.09 -> 424,840.97 IOPS, the CPU cap binding on fewer LPs; 419,535.14
    with the cold-start refit of stop 54, 419,535.41 with stop 55's)."""
    g = _walk("reference.json", nodes=4)["degraded"]
    assert g["repair_time_hours"] > 0
    assert g["iops"] == pytest.approx(419535.40863098885, rel=1e-9)
    assert g["utilization"]["capacity_drives"] == pytest.approx(0.33743921890450623, rel=1e-9)
    assert g["utilization"]["network"] == pytest.approx(0.24847037406555106, rel=1e-9)
    assert g["vm_latency_ms"] == pytest.approx(0.5504345319189763, rel=1e-9)


def test_repair_time_is_for_the_data_the_survivors_re_protect():
    """SRE walk 2026-11-30: the repair time was of full volumes (7.2 h of 271 TB) beside "225.27 TB re-protected"
    (about 6.0 h): the survivors rebuild what fits, and the time is of that."""
    from planner.models.design import load_design, resolve, with_overrides
    from planner.models.workload import profiles
    from planner.physics.capacity import capacity_report
    from planner.results.report import evaluate_report

    four = with_overrides(load_design(EX / "reference.json"), nodes=4)
    cap = capacity_report(resolve(four))
    assert cap.repairs_after_node_loss and cap.reprotected_after_node_loss_tb < cap.usable_capacity_tb
    deg = evaluate_report(four, profiles()["oltp-8k"])["degraded"]
    full = evaluate_report(load_design(EX / "reference.json"), profiles()["oltp-8k"])
    assert full["degraded"]["repair_time_hours"] is None  # three-way mirror on 3 nodes: nothing to rebuild
    # the time scales with the data rebuilt: the re-protected share of full volumes' time
    assert f"is for the {cap.reprotected_after_node_loss_tb:,.2f} TB the survivors re-protect" in deg["note"]
    assert deg["repair_time_hours"] > 0


def test_the_repair_share_said_is_the_one_held():
    """Verification walk 2026-11-30: `evaluate` printed "repair_share": 0.25 beside "no repair" on a 2-node mirror,
    where the engine holds none."""
    from planner.models.workload import profiles

    w = profiles()["oltp-8k"]
    for name, share in (("edge-2node.json", 0.0), ("reference.json", 0.0)):
        deg = evaluate_report(parse_design((EX / name).read_text()), w)["degraded"]
        assert deg["repair_share"] == share and deg["repair_time_hours"] is None, name
    four = parse_design((EX / "reference.json").read_text()).model_copy(update={"nodes": 4})
    assert evaluate_report(four, w)["degraded"]["repair_share"] == 0.25


def _arrays(design, workload="oltp-8k", **update):
    """A report design's healthy and one-node-down model arrays (oltp-8k by default)."""
    from planner.engine.degraded import degraded_arrays
    from planner.engine.performance import DesignArrays, WorkloadArrays, issuing_nodes
    from planner.models.design import resolve
    from planner.models.workload import profiles

    d = parse_design((EX / design).read_text())
    D = DesignArrays.from_designs([resolve(d.model_copy(update=update) if update else d)])
    W = WorkloadArrays.from_workload(profiles()[workload], issuing_nodes(D))
    return (D, W), degraded_arrays(D, W)


def test_one_node_down_mirror_accelerated_parity_rotates_into_the_stripe_it_was_laid_in():
    """One node down, the data keeps the layout it was written in (a volume's columns do not change
    with a node away), so mirror-accelerated parity rotates into the same stripe. The degraded arrays
    counted one fault domain fewer and re-laid the parity for it: on 4 nodes (RS 2+2) the 3 left hold no
    dual parity, so the rotation wrote nothing (1.6 bytes per byte written healthy, 0 one node down); on
    7 all-flash nodes RS 4+2 became RS 2+2 (1.2 -> 1.6)."""
    from planner.physics.resiliency import rotation_per_write

    for nodes, want in ((4, 1.6), (7, 1.2)):
        (D, _), (Dd, _) = _arrays("sas-4node.json", nodes=nodes, resiliency="mirror-accelerated-parity")
        healthy = rotation_per_write(D.resiliency_code, D.fault_domains, D.mirror_share, D.all_flash)
        down = rotation_per_write(Dd.resiliency_code, Dd.fault_domains, Dd.mirror_share, Dd.all_flash)
        assert float(healthy[1][0]) == pytest.approx(want)
        assert float(down[0][0]) == float(healthy[0][0]) and float(down[1][0]) == float(healthy[1][0]), nodes


def _terms(arrays):
    from planner.engine.performance import demand_terms
    from planner.models.params import params_for

    D, W = arrays
    return demand_terms(D, W, params_for("s2d"))


@pytest.mark.parametrize(
    ("nodes", "resiliency", "writes", "rmw_reads", "reads", "rotates"),
    [
        # RS 2+2 on 4 nodes: every stripe has a column on the lost node
        (4, "parity-dual", (3.0, 2.25), (3.0, 2.5), 1.25, False),
        # single parity 2+1 on 3 nodes
        (3, "parity-single", (2.0, 4 / 3), (2.0, 4 / 3), 4 / 3, False),
        # MAP on 4 nodes: three mirror copies, RS 2+2 behind them; a fifth of the reads in the mirror (mirror_share)
        (4, "mirror-accelerated-parity", (3.0, 2.25), (0.0, 0.0), 1.2, True),
    ],
)
def test_parity_one_node_down_without_repair_skips_the_lost_column(
    nodes, resiliency, writes, rmw_reads, reads, rotates
):
    """Parity and mirror-accelerated parity with too few fault domains left to repair (4-node dual parity or MAP,
    3-node single parity) wrote every column one node down: the lost node's drives are not written until it
    returns (Microsoft, "Understand and monitor storage resync": true of any hyper-converged architecture), as the
    mirrors there already wrote only the copies whose node is up. Each column of a stripe sits on the lost node with
    P = 1/n: a small write makes c (1 - 1/n) column writes; its read-modify-write reads no lost column (a lost
    target's new parities come from the k - 1 other data columns, a lost parity is neither read nor written); a read
    of a lost data column is decoded from k surviving columns (Huang et al. 2012, the code behind S2D's parity)."""
    healthy, down = _arrays("sas-4node.json", nodes=nodes, resiliency=resiliency)
    h, d = _terms(healthy), _terms(down)
    assert float(np.ravel(down[0].lost_copy_share)[0]) == pytest.approx(1 / nodes)
    assert (float(h["backend_writes"][0]), float(d["backend_writes"][0])) == pytest.approx(writes)
    assert (float(np.ravel(h["rmw_reads"])[0]), float(np.ravel(d["rmw_reads"])[0])) == pytest.approx(rmw_reads)
    # a read's capacity-drive demand, against the same degraded cluster had it lost no column
    kept = _terms((down[0].replace(lost_copy_share=0.0, lost_write_share=0.0), down[1]))
    assert float(d["path_read"][4][0] / kept["path_read"][4][0]) == pytest.approx(reads)
    if rotates:  # the rotation (1.6 bytes written per byte) writes no column to the lost node either
        assert 0.75 < float(d["background"][0] / kept["background"][0]) < 1.0


@pytest.mark.parametrize(
    ("design", "update", "repairs"),
    [
        # CRUSH cannot place a third replica on two hosts under the host failure domain: no backfill
        ("ceph-6node-reef.json", {"nodes": 3}, False),
        ("ceph-6node-reef.json", {"nodes": 4}, True),
        ("ceph-6node-reef.json", {}, True),
        # vSAN rebuilds only onto a host the object has no component on: FTT=1 RAID-1 needs 3 hosts left
        ("vsan-esa-6node.json", {"nodes": 3, "resiliency": "raid1-ftt1"}, False),
        ("vsan-esa-6node.json", {"nodes": 4, "resiliency": "raid1-ftt1"}, True),
        # RAID-6 (4+2) needs six hosts, five are left; ESA RAID-5 on three hosts (2+1) has two left
        ("vsan-esa-6node.json", {"resiliency": "raid6"}, False),
        ("vsan-esa-6node.json", {"nodes": 3}, False),
        ("vsan-esa-6node.json", {}, True),
        # OSA RAID-5 (3+1) needs four hosts, three are left; ESA lays RAID-5 as 2+1 on 3-5 hosts, which three hold
        ("vsan-esa-6node.json", {"nodes": 4, "vsan": VsanSpec(architecture="osa")}, False),
        ("vsan-esa-6node.json", {"nodes": 4}, True),
    ],
)
def test_ceph_and_vsan_hold_no_repair_share_where_they_cannot_re_protect(design, update, repairs):
    """Ceph/vSAN stop: one node down where the survivors cannot re-protect (Ceph replica-3 on 3 hosts, vSAN FTT=1 on
    3 hosts, RAID-6 on 6), the report said "no repair" and quoted no repair time, yet it stated a 25 % repair share
    and the model held it back from the survivors' drives and network: 460,720 IOPS one node down on the 3-host
    Ceph cluster, with a quarter of its drives and network idle for a backfill that cannot run. S2D already held
    none there; the rule is now the capacity report's for every stack."""
    r = _walk(design, **update)
    g = r["degraded"]
    assert r["repairs_after_node_loss"] is repairs
    # Ceph's share is its default mClock profile's recovery reservation (its recovery takes what its rate moves)
    ceph = design.startswith("ceph")
    assert g["repair_share"] == ((0.5 if ceph else 0.25) if repairs else 0.0)
    assert (g["repair_time_hours"] is not None) is repairs
    (D, _), (Dd, _) = _arrays(design, **update)
    if ceph and repairs:
        from planner.engine.degraded import repair_load
        from planner.models.params import ceph_params

        load = repair_load(D, "ceph", ceph_params())
        assert np.allclose(Dd.drive_write_mb_s, D.drive_write_mb_s * (1 - load["drive_write_share"]))
        assert np.allclose(Dd.node_bandwidth_bytes_s, D.node_bandwidth_bytes_s * (1 - load["network_share"]))
        assert np.all(Dd.lps_per_node < D.lps_per_node)
        return
    keep = 0.75 if repairs else 1.0
    for col in ("drive_read_iops", "drive_write_iops", "drive_read_mb_s", "drive_write_mb_s", "node_bandwidth_bytes_s"):
        assert np.allclose(getattr(Dd, col), getattr(D, col) * keep), col
    # a repair's IO costs CPU on every stack (none where no repair runs)
    assert np.all(Dd.lps_per_node < D.lps_per_node) if repairs else np.all(Dd.lps_per_node == D.lps_per_node)
    # a write where no host re-places goes to the copies whose host is up (Ceph's acting set, vSAN's components
    # present), one rule; a vSAN read of a component on the lost host (1/n of them, repair or not) is decoded from the
    # surviving ones (vSAN specialist's walk)
    assert np.allclose(Dd.lost_write_share, 1 / D.nodes if not repairs else 0.0)
    if design.startswith("ceph"):
        assert np.allclose(Dd.lost_copy_share, 1 / D.nodes if not repairs else 0.0)
    else:
        assert np.allclose(Dd.lost_copy_share, 1 / D.nodes)


def test_an_s2d_rebuild_waits_for_an_administrator_it_does_not_start_by_itself():
    """S2D specialist's audit: `evaluate` said ``repair_starts_after_hours: 0.0`` ("none modelled: no default delay
    found") and "repair using the repair share", as if Storage Spaces Direct rebuilt a down server's data on the
    survivors by itself. It does not: the server's drives show "Lost communication" ("Action: ... bring all servers
    back online", Microsoft, *Storage Spaces Direct health and operational states*), the pool "remembers the missing
    drives and expects them to come back. There is no data movement away from the missing drives" (*Remove
    servers*), and the writes the server missed are resynced when it returns (*Understand and monitor storage
    resync*). A rebuild onto the survivors runs once an administrator retires its drives or removes it with them
    (-CleanUpDisks). The repair share and the rebuild's time stay (that rebuild's); the words and keys say when."""
    from planner.models.design import load_design
    from planner.models.workload import profiles

    w = profiles()["oltp-8k"]
    s2d = evaluate_report(load_design(EX / "sas-4node.json"), w)["degraded"]
    assert s2d["repair_automatic"] is False and s2d["repair_starts_after_hours"] is None
    cond = s2d["repair_condition"]
    assert "retires" in cond and "Remove-ClusterNode -CleanUpDisks" in cond, cond
    assert "Lost communication" in cond and "resyncs the writes it missed" in cond, cond
    assert "none modelled" not in s2d["repair_starts_after_hours_note"]
    assert "starts no rebuild by itself" in s2d["repair_starts_after_hours_note"]
    assert "repair using the repair share" not in s2d["note"] and "if an administrator retires" in s2d["note"]
    # the figures stay: the rebuild's, once the drives are retired
    assert s2d["repair_share"] == 0.25 and s2d["repair_time_hours"] == pytest.approx(0.569, abs=1e-3)
    vsan = evaluate_report(load_design(EX / "vsan-esa-6node.json"), w)["degraded"]
    assert vsan["repair_automatic"] is True and "object repair timer" in vsan["repair_condition"]
    assert vsan["repair_starts_after_hours"] == pytest.approx(1.0)


def test_ceph_recovery_takes_its_default_mclock_share_at_most_and_the_osd_cpu_it_costs_and_the_words_say_so():
    """Ceph architect's walk 2026-12-01: the 6-node example is CPU-bound and its one-host-down IOPS were exactly 5/6
    of healthy (1,382,162 -> 1,151,805) "with recovery running": recovery cost no CPU, and held 25 % of the drives
    and network, a share Ceph does not publish. Ceph's default mClock profile (balanced) reserves 50 % of an OSD's
    capacity for background recovery (Ceph docs, mClock Config Reference, Reef and Squid): recovery runs at the
    smaller of that share of the survivors' bandwidth and its measured backfill rate, and its OSD IO costs the CPU
    client IO's does (the fit's per-operation and per-KiB costs). The proposal's "With one server down ... IOPS at
    ... ms" says the recovery is running and what it takes."""
    from planner.engine.degraded import repair_load, repair_rate_bytes_s
    from planner.engine.performance import DesignArrays
    from planner.models.catalog import load_catalog
    from planner.models.design import resolve
    from planner.models.params import ceph_params
    from planner.models.stacks import ceph_recovery, ceph_recovery_share

    data = ceph_recovery()
    assert ceph_recovery_share() == 0.5 and "balanced (default)" in data["recovery_reservation_source"]
    r = _walk("ceph-6node-reef.json")
    g = r["degraded"]
    assert r["bottleneck"] == "host_cpu" and g["repair_share"] == 0.5
    # recovery's CPU comes off the survivors: below the 5/6 the lost host alone leaves
    assert g["iops"] < r["iops"] * 5 / 6 * 0.95
    rd = resolve(parse_design((EX / "ceph-6node-reef.json").read_text()), load_catalog())
    D = DesignArrays.from_designs([rd])
    load = {k: float(np.ravel(v)[0]) for k, v in repair_load(D, "ceph", ceph_params()).items()}
    # the rate: the measured backfill cap binds (480 MiB/s into each of 50 surviving OSDs), under the 50 % share
    assert load["rate_bytes_s"] == pytest.approx(480 * 2**20 * 50)
    share_only = float(repair_rate_bytes_s(6, 10, rd.node.drive.seq_write_mb_s, rd.node.network_gbit_s * 1e9 / 8, 0.5))
    assert load["rate_bytes_s"] < share_only
    assert 0 < load["drive_write_share"] <= 0.5 and 0 < load["network_share"] <= 0.5 and load["lps"] > 10
    words = g["repair_load_note"]
    assert words.startswith(f"Ceph's recovery runs at {load['rate_bytes_s'] / 1e9:,.1f} GB/s")
    assert (
        "(balanced) 50 % recovery reservation" in words
        and f"{load['lps']:,.0f} of their {rd.node.threads * 5:,} logical processors" in words
    )
    assert f"while {words}" in g["note"]
    # the proposal's row says it
    from planner.models.design import load_design
    from planner.models.workload import profiles
    from planner.sizing.document import document
    from planner.sizing.proposal import build

    doc = document(build(load_design(EX / "ceph-6node-reef.json"), profiles()["oltp-8k"]))
    rows = [r for s in doc["sections"] for b in s["blocks"] if b["type"] == "kv" for r in b["rows"]]
    down = next(v for k, v in rows if k == "With one server down")
    assert "IOPS at" in down and "while Ceph's recovery runs at" in down and "50 % recovery reservation" in down


def test_a_degraded_ceph_placement_group_writes_its_acting_set_where_no_host_can_re_place_a_copy():
    """Ceph architect's walk 2026-12-01: replica-3 on three hosts, one down, made three OSD writes per client write
    on two hosts (oltp-8k 691,071 -> 460,720 IOPS, exactly 2/3) while the pages said "placement groups stay
    degraded, IO continues". With size 3 / min_size 2 and no host to re-place the third copy, a write goes to the
    two-OSD acting set: three copies on n hosts lose 3/n of a write's copies with one down (the S2D mirror's
    rule, degraded_arrays' lost_copy_share). Where the survivors re-protect, recovery re-places every copy and writes
    keep all three."""
    from planner.engine.ceph_terms import ceph_demand_terms
    from planner.models.params import ceph_params
    from planner.physics.ceph import chunk_kib as chunk_of

    p = ceph_params()
    for update, copies in (({"nodes": 3}, 2.0), ({"resiliency": "ec-4+2"}, 5.0), ({}, 3.0)):
        (D, W), (Dd, Wd) = _arrays("ceph-6node-reef.json", **update)
        healthy, down = ceph_demand_terms(D, W, p), ceph_demand_terms(Dd, Wd, p)
        chunk_kib = float(np.ravel(chunk_of(8.0, D.data_chunks))[0])
        backend_copies = (
            float(np.ravel(down["backend_writes"])[0]) * 8.0 / (chunk_kib + p.bluestore_metadata_kib_per_write)
        )
        assert backend_copies == pytest.approx(copies), update
        assert float(np.ravel(healthy["backend_writes"])[0]) >= float(np.ravel(down["backend_writes"])[0])
    r = _walk("ceph-6node-reef.json", nodes=3)
    # fewer copies to write on the two survivors: more than the 2/3 of healthy the lost host alone left
    assert r["degraded"]["iops"] > r["iops"] * 2 / 3 * 1.1


#: 2,000,000 IOPS of 4 KiB reads from one 16-vCPU VM a node: past the reference cluster's 1,062,390 (performance
#: walk 2026-12-01)
OPEN_2M = {"name": "open2m", "block_size_kib": 4, "read_fraction": 1.0, "vms_per_node": 1, "vcpus_per_vm": 16}


@pytest.mark.parametrize("design", ["reference", "san-raid5", "ceph-6node-reef", "split-provisioned"])
def test_a_saturated_open_load_has_no_latency_in_evaluate_compare_or_compare_full(design, tmp_path, capsys):
    """Performance walk 2026-12-01: 2,000,000 IOPS asked of 1,062,390 read "vm_latency_ms": 3.257 in `evaluate` and
    `compare --full` ("the latencies shown are at the capacity") and null ("unbounded") in `compare`. A saturated
    open load's queues grow without end: it has no latency. All three print null with the note, the figures at the
    capacity under latencies_at_capacity, labelled, and a warning without the clause on latencies shown."""
    from planner.cli import main
    from planner.engine.performance import PAST_SATURATION_NOTE

    (tmp_path / "w.json").write_text(json.dumps(OPEN_2M | {"iops": 2_000_000}))
    outs = []
    for argv in (["evaluate"], ["compare"], ["compare", "--full"]):
        assert main([argv[0], str(EX / f"{design}.json"), "--workload", str(tmp_path / "w.json"), *argv[1:]]) == 0
        out = json.loads(capsys.readouterr().out)
        outs.append(out[0] if isinstance(out, list) else out)
    for out in outs:
        assert out["saturated"]
        assert out["vm_latency_ms"] is None and out["vm_latency_ms_note"] == PAST_SATURATION_NOTE
        assert out.get("p99_read_latency_ms") is None
        kept = out["latencies_at_capacity"]
        assert kept["vm_latency_ms"] > 0 and kept["iops"] == pytest.approx(out["iops_capacity"])
        assert "at the design's capacity" in kept["note"] and "different load" in kept["note"]
        (warn,) = [w["message"] for w in out["warnings"] if w["check"] == "saturated"]
        assert "latencies shown" not in warn
    assert outs[0]["latencies_at_capacity"] == outs[2]["latencies_at_capacity"]
    assert outs[0]["latencies_at_capacity"]["vm_latency_ms"] == outs[1]["latencies_at_capacity"]["vm_latency_ms"]


def test_no_latency_comparison_with_a_node_down_when_the_healthy_load_is_past_capacity():
    """Performance walk 2026-12-01: a load past what the reference carries healthy read "With a node down the VM
    latency is lower (0.473 ms against 3.257 ms healthy)": both at a capacity, neither the load's."""
    from planner.models.design import load_design
    from planner.models.workload import Workload
    from planner.results.report import evaluate_report

    r = evaluate_report(load_design(EX / "reference.json"), Workload(**OPEN_2M, iops=2_000_000))
    assert r["saturated"]
    assert not any(n.startswith("With a node down the VM latency is lower") for n in r["notes"])


def test_a_report_names_the_transport_it_models():
    """Performance walk 2026-12-01: a vSAN design on an iWARP NIC (Chelsio T6) with transport rdma reported
    "transport": "rdma" beside TCP's figures exactly: vSAN's RDMA is RoCE v2 only. The report says tcp, with why."""
    from planner.models.workload import profiles

    d = json.loads((EX / "vsan-esa-6node.json").read_text())
    d["node"]["nics"]["model"] = "chelsio-t6-2x100g"
    rdma = evaluate_report(parse_design(json.dumps(d | {"transport": "rdma"})), profiles()["oltp-8k"], degraded=False)
    tcp = evaluate_report(parse_design(json.dumps(d | {"transport": "tcp"})), profiles()["oltp-8k"], degraded=False)
    assert rdma["iops"] == tcp["iops"] and rdma["transport"] == tcp["transport"] == "tcp"
    assert "RoCE v2 only" in rdma["transport_note"] and "iWARP" in rdma["transport_note"]
    assert "transport_note" not in tcp
    ref = evaluate_report(parse_design((EX / "reference.json").read_text()), profiles()["oltp-8k"], degraded=False)
    assert ref["transport"] == "rdma" and "transport_note" not in ref


@pytest.mark.parametrize(
    ("update", "writes", "rmw_reads", "background"),
    [
        # RAID-1 FTT=1 on 3 hosts: two replicas, 1 in 3 on the absent host
        ({"nodes": 3, "resiliency": "raid1-ftt1"}, (2.0, 4 / 3), (0.0, 0.0), (0.0, 0.0)),
        # ESA RAID-6 (4+2) on 6 hosts: a 3-copy performance leg and a 6/4 full stripe, 1 in 6 of each absent
        ({"resiliency": "raid6"}, (3.0, 2.5), (0.0, 0.0), (1.5, 1.25)),
        # OSA RAID-5 (3+1) on 4 hosts: a small write's data and parity (2 writes, 2 reads), 1 in 4 absent; a lost
        # data component decoded from the 3 present, a lost parity (its only one) neither read nor written, S2D
        # parity's rule: 2 x (1 - 2/4) + 1/4 x 3 = 1.75 reads
        ({"nodes": 4, "vsan": VsanSpec(architecture="osa")}, (2.0, 1.5), (2.0, 1.75), (0.0, 0.0)),
        # a rebuild runs (RAID-1 on 4 hosts, ESA RAID-5 on 6): the rebuilt components take the writes, every copy
        ({"nodes": 4, "resiliency": "raid1-ftt1"}, (2.0, 2.0), (0.0, 0.0), (0.0, 0.0)),
        ({}, (2.0, 2.0), (0.0, 0.0), (1.25, 1.25)),
    ],
)
def test_a_vsan_write_with_a_host_absent_and_no_rebuild_goes_to_the_components_present(
    update, writes, rmw_reads, background
):
    """Defects left open after the Ceph acting-set fix: vSAN with a host absent and no host to rebuild on wrote every
    component on the survivors (FTT=1 on 3 hosts, oltp-8k: 1,064,641 -> 709,773 IOPS, exactly 2/3). vSAN writes the
    components present; the absent one is marked stale and resynced when its host returns (Broadcom, vSAN Management
    API, VsanComponentStates ABSENT_RESYNC, VsanSyncReason stale). The rule is Ceph's and S2D's, one implementation
    (resiliency.surviving_writes): each component sits on the absent host with P = 1/n."""
    (D, W), (Dd, Wd) = _arrays("vsan-esa-6node.json", **update)
    h, d = _terms((D, W)), _terms((Dd, Wd))
    assert (float(h["backend_writes"][0]), float(d["backend_writes"][0])) == pytest.approx(writes)
    assert (float(np.ravel(h["rmw_reads"])[0]), float(np.ravel(d["rmw_reads"])[0])) == pytest.approx(rmw_reads)
    # ESA's full-stripe write (bytes per byte written) skips the absent host's component too
    from planner.physics.vsan import layout_terms

    def stripe(X):
        return float(
            np.ravel(
                layout_terms(X.volume_servers, X.data_chunks, X.width, X.esa, X.clients_separate, X.lost_write_share)[5]
            )[0]
        )

    assert (stripe(D), stripe(Dd)) == pytest.approx(background)
    # the absent host's components are remote ones: as many fewer writes cross the network
    assert float(d["hops_write"][0]) <= float(h["hops_write"][0])
    if writes[1] < writes[0]:
        assert float(d["hops_write"][0]) < float(h["hops_write"][0])


def test_vsan_one_host_down_with_no_rebuild_carries_more_than_the_survivors_writing_every_replica():
    """FTT=1 on three hosts, oltp-8k: 709,773 IOPS one host down (2/3 of 1,064,641: both replicas written on two
    hosts) -> 845,765, fewer replicas to write. The SLA's one-node-down latency, lower than healthy, says why."""
    r = _walk("vsan-esa-6node.json", nodes=3, resiliency="raid1-ftt1")
    assert r["degraded"]["repair_time_hours"] is None
    assert r["degraded"]["iops"] > r["iops"] * 2 / 3 * 1.1, (r["iops"], r["degraded"]["iops"])


def test_every_stack_writes_the_surviving_copies_through_one_rule(monkeypatch):
    """One implementation of the rule a degraded write follows (S2D mirror and parity, Ceph's acting set, vSAN's
    components present): resiliency.surviving_writes, called by each stack's physics with the same lost share."""
    from planner.engine.ceph_terms import ceph_demand_terms
    from planner.models.params import ceph_params
    from planner.physics import resiliency

    seen = []
    real = resiliency.surviving_writes

    def spy(writes, remote, lost):
        seen.append(float(np.max(lost)))
        return real(writes, remote, lost)

    monkeypatch.setattr(resiliency, "surviving_writes", spy)
    for design, update in (
        ("reference.json", {}),
        ("ceph-6node-reef.json", {"nodes": 3}),
        ("vsan-esa-6node.json", {"nodes": 3, "resiliency": "raid1-ftt1"}),
    ):
        seen.clear()
        _, (Dd, Wd) = _arrays(design, **update)
        if design.startswith("ceph"):
            ceph_demand_terms(Dd, Wd, ceph_params())
        else:
            _terms((Dd, Wd))
        assert seen and max(seen) == pytest.approx(1 / 3), design


@pytest.mark.parametrize(("design", "update"), [("sas-4node.json", {}), ("vsan-esa-6node.json", {})])
def test_an_s2d_or_vsan_repair_costs_the_cpu_its_io_does_through_cephs_function(design, update):
    """Defects left open after the Ceph recovery fix: Storage Spaces Direct's rebuild and vSAN's resync held 25 % of
    the survivors' drives and network but cost no CPU, so a CPU-bound cluster lost no more than the host's share
    with the repair running (sas-4node oltp-8k one node down 519,108 IOPS; vsan-esa-6node 1,167,238). Their repair
    IO now costs the storage CPU per IO the model uses for them (S2D's fit: each rebuilt byte read k times across
    the network and written once, in IOs of an assumed 1 MiB), through the function Ceph's recovery uses
    (cpu.repair_cpu_lps), at most the repair share of the LPs: 519,108 -> 492,953 and 1,167,238 -> 1,074,817."""
    from planner.engine.degraded import degraded_arrays, repair_load
    from planner.engine.performance import evaluate_arrays
    from planner.models.params import default_params
    from planner.physics import cpu

    (D, W), (Dd, Wd) = _arrays(design, **update)
    stack = "s2d" if design.startswith("sas") else "vsan"
    p = default_params()
    load = {k: float(np.ravel(v)[0]) for k, v in repair_load(D, stack, p).items()}
    k = float(np.ravel(D.data_chunks)[0])
    tcp = p.tcp_cpu_per_crossing_us if bool(np.ravel(D.tcp)[0]) else 0.0
    per_io = k * cpu.host_read_us(p, 1.0, 1024.0, tcp) + cpu.host_write_us(p, 1.0, 0.0, 0.0, 1024.0, tcp)
    scale = float(np.ravel(cpu.clock_scale(D.base_ghz))[0])
    assert load["lps"] == pytest.approx(load["rate_bytes_s"] / 2**20 * float(np.ravel(per_io)[0]) * 1e-6 * scale)
    assert load["lps"] > 1
    # the LPs come off the survivors' (the model's usable share of each), as Ceph's recovery's do
    taken = load["lps"] / (
        (float(np.ravel(D.nodes)[0]) - 1) * (p.host_cpu_max_utilization - p.host_cpu_idle_utilization)
    )
    assert float(np.ravel(Dd.lps_per_node)[0]) == pytest.approx(float(np.ravel(D.lps_per_node)[0]) - taken)
    # the bandwidth held is the repair share, as before
    assert np.allclose(Dd.drive_write_mb_s, D.drive_write_mb_s * 0.75)
    # CPU-bound: the degraded figure falls by the CPU the repair takes
    r = _walk(design, **update)
    assert r["degraded"]["bottleneck"] == "host_cpu"
    free, _ = degraded_arrays(D, W, recovery_cpu=False)
    without = float(np.ravel(evaluate_arrays(free, Wd, p)["iops"])[0])
    assert r["degraded"]["iops"] < without * 0.97, (r["degraded"]["iops"], without)
    words = r["degraded"]["repair_load_note"]
    assert f"its IO takes {load['lps']:,.0f} of their" in words and "assumed 1 MiB" in words, words
    if stack == "s2d":  # the rebuild it stands for waits for an administrator: its note says what it takes
        assert words in r["degraded"]["note"] and "if an administrator retires" in r["degraded"]["note"]


def test_every_stacks_repair_cpu_is_one_function():
    """Ceph's recovery CPU (its OSD costs per object and per KiB) and S2D's and vSAN's repair CPU are the repair's IOs
    per second times their CPU each: one function (physics.cpu.repair_cpu_lps)."""
    from planner.models.params import ceph_params
    from planner.physics import ceph, cpu

    cp = ceph_params()
    rate, k, wf, scale = 25e9, 2.0, 1.1, 0.9
    per_object = cp.osd_write_cpu_us * wf + k * cp.osd_read_cpu_us
    per_kib = cp.osd_cpu_per_kib_write_us * wf + k * cp.osd_cpu_per_kib_read_us
    want = cpu.repair_cpu_lps(rate, ceph.RBD_OBJECT_KIB, per_object + ceph.RBD_OBJECT_KIB * per_kib, scale)
    assert float(ceph.recovery_cpu_lps(rate, k, wf, scale, cp)) == pytest.approx(float(want))
