"""The seed systems hciplan was shaped by, storage side (issue 24): the HP DL580 G7 of the SQLIO
blog, the Datrium DVX technical report and the DataON CiB-9224 V12 Scale-Out File Server of the
Micron brief, each shipped as an example with its own parts. Every published figure is within
35 % or a strict xfail with its reason (the same reasons as the Accuracy page's seed tables, which
scripts/seeds_table.py writes from the same checks); the structure the published figures rest
on (SQLIO's sweep, mirror copies over SAS, per-node ownership, tier shares, the storage CPU
share, destage-bound controller caches, the 2012 R2 write-back cache's bursts) is tested on its own."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from planner.calibration import seed_checks as sc
from planner.core.errors import DesignError, PlannerError
from planner.engine.architectures import common, disaggregated, resolve, single_server, split, sqlio
from planner.engine.architectures.open_load import KEYS, open_load_model
from planner.models.database import Database
from planner.models.design import load_design, parse_design
from planner.models.design import resolve as resolve_hci
from planner.models.params import PARAM_NAMES, default_params
from planner.models.workload import Workload, profiles
from planner.physics import cache as cache_mod
from planner.physics.devices import busy_time_s
from planner.results.architecture_report import evaluate_report

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"
SEEDS = [
    "seed-dataon-sofs-1db",
    "seed-dataon-sofs-2db",
    "seed-dataon-sofs-4db",
    "seed-datrium-dvx",
    "seed-dl580-raid1",
    "seed-dl580-raid10",
    "seed-dl580-san-raid5",
    "seed-dl580-iodrive",
]
#: published figures the model does not reach, each with its reason (strict: a fix must remove it)
XFAIL = {
    "RAID 1 and RAID 10 read about the same": "two figures decide it and neither is this drive's or this "
    "controller's datasheet: RAID 10 / RAID 1 = min(4 d, C) / min(2 d, C) with d an SSD's 4 KiB reads and C the "
    "P410i's ceiling (HP load-balances RAID 1 and 1+0 reads: every drive reads). With the blog's 'expected' "
    "d = 20,000 the check holds for C under 54,000; at HP's 'up to 60,000' (Gen8 brief, previous-generation "
    "RoC) it holds for d over 22,200. HP's SSD brief gives C '50,000 to 60,000' and its class testing d = 30,000 "
    "for a fresh 100 GB Value SATA SSD (ratio 1.0); no MK0120EAVDT datasheet and no measured P410/P410i SSD "
    "ceiling were found (searched 2026-11: HP SSD and Smart Array briefs, forum and review measurements). SQLIO's "
    "-BH, the read-ahead-only read cache and 12 threads x up to 64 overlapped IOs change nothing",
    "SAN RAID 5 reads 'not satisfactory'": "the 2 GB file fits the USP VM's cache: the model's SAN reads are "
    "bound by the single 4GFC path only (48,800 8 KiB IOPS, above RAID 1's 40,000). With one path per LUN the "
    "host keeps at most the QLogic HBA's Execution Throttle in flight, 16 by default (VMware's ESX 3.5 SAN design "
    "guide p.170, via F. Denneman; vcdx200.com 2013 for Windows 2008 R2), below the USP V's 32 per LUN: the SAN "
    "falls under RAID 1 only if a cached 8 KiB read takes over 0.4 ms end to end (16 / 40,000), against the "
    "model's unloaded 0.09 ms (fitted software path 65 us, 4GFC wire 20 us). No USP VM cache-hit latency or "
    "front-end processor IOPS is published (HDS: port pairs share one processor that small blocks can saturate, "
    "no figure); the blog blames HBA, fabric and controller settings it does not give",
    "write latency at that load": "the model's write path (compute-node data services, one crossing, the data "
    "node's NVRAM) is ~1 ms short of Datrium's 'slightly above 2 ms' at the load where reads are 0.85 ms; the "
    "fingerprinting and NVRAM-mirror hop WhatMatrix describes add tens of microseconds, and nothing published "
    "says where the data node spends the rest",
}


@pytest.fixture(scope="module")
def checks():
    return sc.all_checks()


def _check(checks, prefix):
    found = [c for c in checks if c["check"].startswith(prefix)]
    assert len(found) == 1, prefix
    return found[0]


CHECK_NAMES = [c["check"] for c in sc.all_checks()]


@pytest.mark.parametrize("name", CHECK_NAMES, ids=[n[:60] for n in CHECK_NAMES])
def test_published_figure_or_ordering(checks, name, request):
    reason = next((why for prefix, why in XFAIL.items() if name.startswith(prefix)), None)
    if reason:
        request.applymarker(pytest.mark.xfail(strict=True, reason=reason))
    c = _check(checks, name)
    if c["error_pct"] is not None:
        assert abs(c["error_pct"]) <= sc.TOLERANCE_PCT, c
    assert c["holds"], c


def test_every_check_says_in_sample_or_held_out(checks):
    assert {c["sample"] for c in checks} <= {"in sample", "held out"}
    assert sum(c["sample"] == "held out" for c in checks) >= 8
    for c in checks:
        if not c["holds"]:
            assert any(c["check"].startswith(p) for p in XFAIL), c["check"]


def test_the_accuracy_page_generates_the_seed_tables():
    """The seed tables are generated into the Accuracy page when the site builds (no typed copy)."""
    text = (ROOT / "docs" / "accuracy.md").read_text(encoding="utf-8")
    assert "<!-- hciplan:seeds -->" in text and "| check | published |" not in text


# --------------------------------------------------------------------------- the shipped examples


@pytest.mark.parametrize("name", SEEDS)
def test_seed_examples_evaluate_with_their_own_parts(name):
    d = load_design(EX / f"{name}.json")
    rep = evaluate_report(d, profiles()["oltp-8k"])
    assert math.isfinite(rep["iops"]) and rep["iops"] > 0
    assert 0.0 <= max(rep["utilization"].values()) <= 1.0
    pv = rep["provenance"]
    assert pv["datasheet"] and pv["fitted"] and pv["assumptions"]


def test_seed_examples_use_the_seed_parts():
    parts = {
        n: {r["part"] for r in evaluate_report(load_design(EX / f"{n}.json"))["provenance"]["datasheet"]} for n in SEEDS
    }
    assert {"intel-xeon-e5-2690-v3", "intel-xeon-e5-2623-v3", "dataon-cib-9224-v12"} <= parts["seed-dataon-sofs-4db"]
    assert {"micron-s650dc-800gb", "micron-s630dc-1.6tb"} <= parts["seed-dataon-sofs-1db"]
    assert {"intel-xeon-x7542", "hp-dl580-g7", "hp-mk0120eavdt-120gb", "hpe-smart-array-p410i-1gb"} <= parts[
        "seed-dl580-raid1"
    ]
    assert {"hitachi-usp-vm", "qlogic-qle2460"} <= parts["seed-dl580-san-raid5"]
    assert "hp-io-accelerator-160gb-slc" in parts["seed-dl580-iodrive"]


def test_provenance_names_fitted_parameters_and_numbered_assumptions():
    for name in [*SEEDS, "sofs-2node-sas-tiered", "split-provisioned", "san-raid5"]:
        pv = evaluate_report(load_design(EX / f"{name}.json"))["provenance"]
        assert {f["name"] for f in pv["fitted"]} <= set(PARAM_NAMES), name
        for a in pv["assumptions"]:
            assert a["name"] and math.isfinite(a["value"]) and len(a["basis"]) > 20 and a["unit"], (name, a)
        for r in pv["datasheet"]:
            assert r["verified"] or r["estimated_fields"], (name, r)
    sofs = evaluate_report(load_design(EX / "seed-dataon-sofs-4db.json"))["provenance"]["assumptions"]
    cpu = next(a for a in sofs if a["name"] == "file_server_cpu_us_per_io")
    assert cpu["value"] == 50.0 and "Barreto" in cpu["basis"]
    fitted = {f["name"] for f in evaluate_report(load_design(EX / "seed-dataon-sofs-4db.json"))["provenance"]["fitted"]}
    # the file-server CPU of the 2012 R2 stack is not the S2D fit
    assert not fitted & {"host_cpu_read_us", "host_cpu_write_us", "host_cpu_hop_us", "drive_efficiency"}


# --------------------------------------------------------------------------- DL580 G7: SQLIO


def test_sqlio_sweep_is_the_blogs():
    out = sc.dl580_sweeps()["raid1"]
    s = out["settings"]
    assert s["block_sizes_kib"] == [8, 64, 128, 256, 512, 1024]
    assert s["outstanding"] == [1, 8, 32, 64]
    assert (s["threads"], s["file_gb"], s["run_s"], s["latency_cut_ms"]) == (12, 2.0, 60.0, 20.0)
    assert len(out["tests"]) == 2 * 6 * 4
    for t in out["tests"]:
        assert t["kept"] == (t["latency_ms"] < 20.0)
        # Little's law: 12 threads x outstanding in flight
        assert t["iops"] * t["latency_ms"] / 1e3 == pytest.approx(12 * t["outstanding"], rel=1e-9)
    for op in ("read", "write"):
        kept = [t["iops"] for t in out["tests"] if t["op"] == op and t["kept"]]
        assert out["best"][op]["iops"] == max(kept)


def test_sqlio_workload_is_host_issued_over_one_2gb_file():
    w = sqlio.workload(sqlio.Test("read", 8.0, 32))
    assert w.issuer == "host" and w.vms_per_node == 12 and w.outstanding_per_vm == 32
    assert w.working_set_gb_per_vm * 12 == pytest.approx(2.0)


def test_controller_read_policy_follows_the_record_and_the_override():
    d = json.loads((EX / "seed-dl580-raid1.json").read_text())
    w = sqlio.workload(sqlio.Test("read", 8.0, 64))
    p = default_params()
    both = common.solve(single_server.network(resolve(parse_design(d)), w, p), p)["iops"]
    d["single_server"]["storage"]["read_both_sides"] = False
    one = common.solve(single_server.network(resolve(parse_design(d)), w, p), p)["iops"]
    assert both == pytest.approx(2 * one, rel=0.01)  # HP's load balancing: both drives of the pair read
    assert one == pytest.approx(20_000, rel=0.01)


def test_controller_cache_split_leaves_the_write_share():
    parts = resolve(load_design(EX / "seed-dl580-raid1.json"))
    assert single_server.write_cache_gb(parts) == pytest.approx(1.074 * 0.75)


def test_write_back_caches_are_destage_bound_in_a_sustained_run():
    """A 2 GB file in the USP VM's cache does not make writes free: the SAN's RAID 5 writes are what
    four SSDs write with read-modify-write (4 drive IOs per write: 2 reads, 2 writes)."""
    d = resolve(load_design(EX / "seed-dl580-san-raid5.json"))
    drive = d.drive
    rmw = 4 / (2 / drive.rand_write_4k_iops + 2 / drive.rand_read_4k_iops)
    res = sqlio.run_test(d, sqlio.Test("write", 8.0, 64))
    assert res["iops"] == pytest.approx(rmw, rel=0.01)
    assert res["bottleneck"] == "array_drives"
    assert cache_mod.sustained_destage_share() == 1.0


def test_a_clean_cache_lends_a_burst_of_at_most_the_file_over_the_run():
    parts = resolve(load_design(EX / "seed-dl580-san-raid5.json"))
    warm = sqlio.run_test(parts, sqlio.Test("write", 8.0, 64))["iops"]
    cold = sqlio.run_test(parts, sqlio.Test("write", 8.0, 64), cold_cache=True)["iops"]
    burst = 2.0e9 / 60.0 / 8192.0  # the 2 GB file (smaller than the cache) over 60 s
    assert cold == pytest.approx(warm + burst, rel=1e-6)
    assert float(cache_mod.burst_write_iops(0.5, 2.0, 60.0, 8.0)) == pytest.approx(0.5e9 / 60 / 8192)


# --------------------------------------------------------------------------- Datrium DVX


def test_split_storage_io_is_held_to_its_cpu_share():
    """Datrium: 'a maximum of 20% host CPU utilization is allocated to the storage IO and data services'."""
    p = default_params()
    parts = resolve(load_design(EX / "seed-datrium-dvx.json"))
    net = split.network(parts, sc.datrium_load(1.0), p)
    lps = parts.cpu.threads * parts.sockets * (p.host_cpu_max_utilization - p.host_cpu_idle_utilization)
    k = net.stations.index("storage_cpu")
    guest = common.guest_cpu_s(p, sc.datrium_load(1.0), parts.cpu.base_ghz)
    np.testing.assert_allclose(net.path[:, k] * 0.2 * lps, net.cpu_lp_s - guest, rtol=1e-12)
    res = sc.datrium_at(0.999 * sc.datrium_at(1.0)["iops_capacity"])
    assert res["bottleneck"] == "none" and res["utilization"]["storage_cpu"] == pytest.approx(0.999, rel=1e-3)


def test_split_writes_send_erasure_coded_fragments_to_the_data_node():
    p = default_params()
    parts = resolve(load_design(EX / "seed-datrium-dvx.json"))
    w = Workload(name="w", block_size_kib=8.0, read_fraction=0.0, iops=1000.0, working_set_gb_per_vm=500)
    net = split.network(parts, w, p)
    k = net.stations.index("data_network")
    bw = 2 * 10e9 / 8  # the data node's 2 x 10GbE
    # 8 KiB / 1.5 compression x (8+2)/8
    assert net.path[1, k] == pytest.approx(8 * 1024 / 1.5 * 10 / 8 / bw, rel=1e-9)
    assert net.path[0, k] == 0.0  # reads hit the local flash: nothing crosses


# --------------------------------------------------------------------------- DataON CiB-9224 V12


def test_sofs_mirror_copies_stay_off_the_network():
    p = default_params()
    parts = resolve(load_design(EX / "seed-dataon-sofs-4db.json"))
    net = disaggregated.network(parts, sc.dataon_load(), p)
    k = net.stations.index("storage_network")
    assert net.path[1, k] == pytest.approx(net.path[0, k])  # a write crosses once, like a read
    s2d = resolve(load_design(EX / "sofs-2node-sas-tiered.json"))
    n2 = disaggregated.network(s2d, sc.dataon_load(), p)
    k2 = n2.stations.index("storage_network")
    assert n2.path[1, k2] > 1.5 * n2.path[0, k2]  # the S2D backend mirrors over the network


def test_sofs_virtual_disks_are_owned_per_node():
    assert disaggregated.owner_nodes(1, 2) == 1
    assert disaggregated.owner_nodes(2, 2) == 2
    assert disaggregated.owner_nodes(3, 2) == 1.5
    assert disaggregated.owner_nodes(4, 2) == 2
    p = default_params()
    one = disaggregated.network(resolve(load_design(EX / "seed-dataon-sofs-1db.json")), sc.dataon_load(), p)
    two = disaggregated.network(resolve(load_design(EX / "seed-dataon-sofs-2db.json")), sc.dataon_load(), p)
    k = one.stations.index("file_server_cpu")
    assert one.path[0, k] == pytest.approx(2 * two.path[0, k])


def test_sofs_tier_share_of_reads():
    p = default_params()
    parts = resolve(load_design(EX / "seed-dataon-sofs-4db.json"))
    net = disaggregated.network(parts, sc.dataon_load(), p)
    jb = parts.jbod
    t_fast = busy_time_s(8.0, jb.fast.rand_read_4k_iops, jb.fast.seq_read_mb_s)
    t_cap = busy_time_s(8.0, jb.drive.rand_read_4k_iops, jb.drive.seq_read_mb_s)
    assert net.path[0, net.stations.index("fast_tier")] == pytest.approx(0.2 * t_fast / 4)
    assert net.path[0, net.stations.index("capacity_tier")] == pytest.approx(0.8 * t_cap / 16)


def test_sofs_write_back_cache_absorbs_bursts_only():
    """Storage Spaces 2012 R2's write-back cache (1 GB per virtual disk) takes write bursts; in a
    sustained run every copy of a write goes to the tier of its block, so the cache changes neither
    the path nor the background (assumption write_back_cache_bursts_only, with its sources)."""
    p = default_params()
    d = json.loads((EX / "seed-dataon-sofs-4db.json").read_text())
    nets = {}
    for gb in (1.0, 0.0):
        d["disaggregated"]["shared_jbod"]["write_cache_gb"] = gb
        nets[gb] = disaggregated.network(resolve(parse_design(d)), sc.dataon_load(), p)
    assert np.array_equal(nets[1.0].path, nets[0.0].path) and np.array_equal(nets[1.0].background, nets[0.0].background)
    net, jb = nets[1.0], resolve(load_design(EX / "seed-dataon-sofs-4db.json")).jbod
    t_fw = busy_time_s(8.0, jb.fast.rand_write_4k_iops, jb.fast.seq_write_mb_s)
    assert net.path[1, net.stations.index("fast_tier")] == pytest.approx(2 * 0.2 * t_fw / 4)  # two copies, 20 %
    pv = evaluate_report(load_design(EX / "seed-dataon-sofs-4db.json"))["provenance"]["assumptions"]
    wbc = next(a for a in pv if a["name"] == "write_back_cache_bursts_only")
    assert wbc["value"] == 0.0 and "Finn" in wbc["basis"] and "Microsoft" in wbc["basis"]


def test_sofs_file_server_cpu_assumption_moves_the_capacity():
    d = json.loads((EX / "seed-dataon-sofs-1db.json").read_text())
    caps = []
    for v in (25.0, 50.0, 100.0):
        d["disaggregated"]["file_server_cpu_us_per_io"] = v
        caps.append(sc.dataon_capacity(1, design=parse_design(d)))
    assert caps[0] >= caps[1] > caps[2]


@pytest.mark.parametrize(
    "change, field, words",
    [
        ({"capacity_tier": {"model": "micron-s630dc-1.6tb", "count": 24}}, "shared_jbod.capacity_tier.count", "bays"),
        ({"capacity_tier": {"model": "intel-p4510-1tb", "count": 8}}, "shared_jbod.capacity_tier.model", "NVMe"),
        ({"enclosure": "dell-r640"}, "shared_jbod.enclosure", "shared_bays"),
    ],
)
def test_shared_jbod_checks_name_the_field(change, field, words):
    d = json.loads((EX / "seed-dataon-sofs-4db.json").read_text())
    d["disaggregated"]["shared_jbod"].update(change)
    with pytest.raises(DesignError) as exc:
        resolve(parse_design(d))
    assert field in str(exc.value) and words in str(exc.value)


def test_shared_sas_backend_needs_its_jbod_and_no_node_drives():
    d = json.loads((EX / "seed-dataon-sofs-4db.json").read_text())
    del d["disaggregated"]["shared_jbod"]
    with pytest.raises(PlannerError, match="shared_jbod"):
        parse_design(d)


def test_hci_refuses_a_cluster_in_a_box_chassis():
    d = json.loads((EX / "reference.json").read_text())
    d["node"]["chassis"] = "dataon-cib-9224-v12"
    d["node"]["cpu"]["model"] = "intel-xeon-e5-2623-v3"
    d["node"]["capacity_drives"] = {"model": "micron-s630dc-1.6tb", "count": 8}
    d["node"].pop("cache_devices", None)
    d["node"].pop("dimms", None)
    d["node"]["ram_gb"] = 256
    with pytest.raises(DesignError) as exc:
        resolve_hci(parse_design(d))
    assert "node.chassis" in str(exc.value) and "shared-sas" in str(exc.value)


# --------------------------------------------------------------------------- the SLA's open load, any topology


@pytest.mark.parametrize("name", ["seed-dataon-sofs-4db", "seed-datrium-dvx", "seed-dl580-raid10", "san-raid5"])
def test_open_load_model_gives_what_the_sla_needs(name):
    m = open_load_model(load_design(EX / f"{name}.json"))
    from planner.commercial.sla import sla_view

    db = sla_view(
        Database(
            name="db",
            size_tb=0.1,
            vcpus=8,
            threads=4,
            outstanding_per_thread=8,
            latency_target_ms=2.0,
            read_fraction=0.7,
        )
    )
    ps = [default_params()]
    x_bg, vms = m.background_rate(None, ps)
    cap = m.evaluate(db, None, x_bg, vms, ps, np.array([[1.0]]))["iops_capacity"][0, 0]
    x = np.array([[0.1 * cap, 0.5 * cap, 0.9 * cap, 1.1 * cap]])
    out = m.evaluate(db, None, x_bg, vms, ps, x)
    assert set(out) == set(KEYS) and all(v.shape == (1, 4) for v in out.values())
    assert not out["saturated"][0, :3].any() and out["saturated"][0, 3]
    lat = out["vm_read_latency_ms"][0, :3]
    assert np.all(np.diff(lat) >= -1e-12)  # latency grows with load
    assert np.all(out["p99_read_latency_ms"][0, :3] >= lat)
    assert m.hosts >= 1 and m.usable_capacity_tb > 0 and m.base_ghz > 0


def test_open_load_model_background_runs_on_the_same_network():
    m = open_load_model(load_design(EX / "seed-dataon-sofs-4db.json"))
    bg = Workload(
        name="bg", block_size_kib=8, read_fraction=0.7, issuer="host", vms_per_node=1, outstanding_per_thread=4
    )
    rates, vms = m.background_rate(bg, [default_params()])
    assert rates[0] > 0 and vms == 4.0


def test_a_raid_controllers_cache_is_not_called_an_s2d_cache_mode(capsys):
    """CLI review 2026-11-29: the DL580 with a Smart Array's write-back cache read "S2D cache mode 'write-back'
    was never measured"."""
    from planner.cli import main

    assert main(["evaluate", str(EX / "seed-dl580-raid1.json"), "--workload", "oltp-8k"]) == 0
    out = capsys.readouterr().out
    assert "S2D cache mode" not in out and "cache mode 'write-back' was never measured" in out


def test_the_cluster_in_a_box_seeds_are_listed_by_their_product():
    """The DataON seeds were listed as "4 database servers on a 2-server Scale-Out File Server (Storage Spaces on a
    shared SAS JBOD)": the box the brief measured was named nowhere a user picks an example (seed walk, stop 63).
    An enclosure from the catalog is named; an S2D-backed file server keeps its drives' words."""
    from planner.sizing.names import example_words

    words = example_words()
    for n in (1, 2, 4):
        assert words[f"seed-dataon-sofs-{n}db"].startswith(
            f"{n} database server{'s' if n > 1 else ''} on a 2-server Scale-Out File Server in a DataON CiB-9224 V12 "
            "Cluster-in-a-Box (Storage Spaces on a shared SAS JBOD)"
        )
    assert (
        "DataON" not in words["sofs-2node-sas-tiered"]
        and "over Storage Spaces Direct" in words["sofs-2node-sas-tiered"]
    )
