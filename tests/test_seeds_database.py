"""The seed systems' database-level results (issue 24 §3): the most each shipped design
sustains of its published database (``sla --database``: ``database_capacity``) against what
was published, each within 35 % or a strict xfail that says why. The storage side of the same
systems is tests/test_seeds.py.

In sample / held out: the database layer's one fitted parameter (CPU per transaction) comes
from Datrium's run, so Datrium's TPM is in sample; everything else here is held out.
"""

from __future__ import annotations

import itertools
import json
from functools import cache
from pathlib import Path

import pytest

from planner.cli import main

EX = Path(__file__).resolve().parent.parent / "examples"
PUBLISHED = json.loads(
    (Path(__file__).resolve().parent.parent / "planner/data/benchmarks/database/results.json").read_text()
)["seeds"]


@cache
def capacity(design: str, database: str) -> dict:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["sla", str(EX / f"{design}.json"), "--database", str(EX / f"{database}.json")]) == 0
    return json.loads(out.getvalue())["database_capacity"]


# ------------------------------------------------ Datrium DVX
def test_datrium_tpm_in_sample_and_the_vms_vcpus_bind():
    c = capacity("seed-datrium-dvx", "db-seed-datrium")
    assert c["binding"] == "database_vcpus" and c["vcpu_utilization"] >= 0.95
    assert c["max_tpm"] == pytest.approx(PUBLISHED["datrium"]["tpm"], rel=0.05)  # in sample (the fit's one point)
    assert c["max_tpm_low"] < PUBLISHED["datrium"]["tpm"] < c["max_tpm_high"]


def test_datrium_capacity_carries_the_cpu_per_transactions_band():
    """DBA review 2026-11-30: the vCPUs bind, so the band is the CPU per transaction's (scripts/fit_oltp.py), not
    the TPC-E spread alone (1,773,360-2,317,109 TPM before; the fit's error now in it)."""
    from planner.models.database import oltp_calibration

    c = capacity("seed-datrium-dvx", "db-seed-datrium")
    cal = oltp_calibration()["cpu_us_per_txn"]
    lo, hi = cal["band_ratio"]
    # its 500 users, each call's CPU at the band's high end, reach 0.01 % less than the vCPUs' low end: no end passes
    # another limit's (performance walk 2026-12-01)
    assert c["max_tpm_low"] == pytest.approx(c["max_tpm"] / hi, rel=1e-3) and c["max_tpm_high"] == pytest.approx(
        c["max_tpm"] / lo
    )
    assert c["band_basis"].startswith("the CPU per transaction's band: " + cal["band_basis"])


def test_datrium_steady_state_with_snapshots_held_out():
    """1.8 M TPM with snapshots and space reclamation running (the VM still CPU-bound): the
    model's CPU-bound figure does not fall with the background (its reclamation runs on the
    storage's reserved CPU share, not the VM's vCPUs), so it is 10 % high; within 35 %."""
    c = capacity("seed-datrium-dvx", "db-seed-datrium")
    assert c["max_tpm"] == pytest.approx(PUBLISHED["datrium"]["steady_state_tpm"], rel=0.35)


def test_datrium_read_latency_held_out():
    """'average read latency 0.8-0.9 ms' (ESXi's device latency, what the VM's reads wait for)."""
    c = capacity("seed-datrium-dvx", "db-seed-datrium")
    assert c["vm_read_latency_ms"] == pytest.approx(0.85, rel=0.35)


@pytest.mark.xfail(
    strict=True,
    reason="Datrium's writes 'slightly above 2 ms' against ~0.7 ms predicted: the split-provisioning model "
    "acknowledges writes from the data node's NVRAM after one network hop (WhatMatrix: fingerprint, dedupe "
    "and compress each 4K block, write it to the data node's mirrored NVRAM, acknowledge; tens of "
    "microseconds more, not a millisecond). SQL Server 2014's automatic checkpoints write in bursts that "
    "saturate the reserved storage CPU for about half of each minute (scripts/seeds_table.py), but the wait "
    "then depends on the writes the checkpoint keeps in flight (not published) and would slow the reads "
    "too, which stayed at 0.8-0.9 ms; the storage side misses the same figure (tests/test_seeds.py)",
)
def test_datrium_write_latency_held_out():
    c = capacity("seed-datrium-dvx", "db-seed-datrium")
    assert c["vm_write_latency_ms"] == pytest.approx(2.1, rel=0.35)


# ------------------------------------------------ DataON CiB-9224 (Scale-Out File Server)
@pytest.mark.parametrize("servers", [1, 2])
def test_dataon_scales_from_one_to_two_database_servers(servers):
    c = capacity(f"seed-dataon-sofs-{servers}db", "db-seed-dataon")
    assert c["servers"] == servers and c["max_nopm"] > 0
    if servers == 2:
        assert c["max_nopm"] > capacity("seed-dataon-sofs-1db", "db-seed-dataon")["max_nopm"]


def _response_ms(servers: int) -> float:
    """The users' average response at the model's operating point: 384 users a server / its rate (Little's law)."""
    return 384 / (capacity(f"seed-dataon-sofs-{servers}db", "db-seed-dataon")["per_server_tpm"] / 60) * 1e3


@pytest.mark.parametrize(
    "servers",
    [
        1,
        2,
        pytest.param(
            4,
            marks=pytest.mark.xfail(
                strict=True,
                reason="the response follows the rate: the model's rate at four servers is its NOPM miss "
                "(757,893 against just over 1,000,000), so 384 users wait 52 ms a call; at the published "
                "rate the same law gives 40 ms (test below)",
            ),
        ),
    ],
)
def test_dataon_average_response_under_50_ms(servers):
    """'As the number of database nodes scales from one to two then to four ..., the average response time
    remains under 50ms' (the brief), at every server count: four had been left out of the test, where it misses."""
    assert _response_ms(servers) < 50


@pytest.mark.xfail(
    strict=True,
    reason="'lower values at low node count increasing as the node count increases': in the model one and two "
    "database servers each have a file-server node of their own (per-node ownership) whose CPU binds at the same "
    "rate a server, so their users wait alike (24 ms); only four servers, sharing the two nodes, wait longer",
)
def test_dataon_average_response_rises_with_the_database_servers():
    assert _response_ms(1) < _response_ms(2) < _response_ms(4)


def test_dataon_response_at_four_servers_is_within_35_percent_and_the_published_rate_keeps_it():
    """Four servers' response within the acceptance's 35 % of the bound, and the reading of '384 users' as a
    server's (each its own database): at the published 250,000 NOPM a server Little's law gives under 50 ms."""
    c = capacity("seed-dataon-sofs-4db", "db-seed-dataon")
    assert _response_ms(4) <= 50 * 1.35
    tpm_per_nopm = c["max_tpm"] / c["max_nopm"]
    assert 384 / (PUBLISHED["dataon"]["orders_per_minute_at_4_servers"] / 4 * tpm_per_nopm / 60) * 1e3 < 50


def test_dataon_one_million_nopm_at_four_servers():
    """'just over a million Orders per Minute' (read as NOPM) at four database servers, held
    out: the file servers' CPU binds (two owner nodes, ~400,000 8 KiB IOPS; Barreto, Microsoft
    2013: one file-server node 'can deliver over 200,000 IOPs at 8KB each' with RDMA)."""
    c = capacity("seed-dataon-sofs-4db", "db-seed-dataon")
    assert c["binding"] == "storage" and "file server CPU" in c["binding_note"]
    assert c["max_nopm"] == pytest.approx(PUBLISHED["dataon"]["orders_per_minute_at_4_servers"], rel=0.35)


@pytest.mark.xfail(
    strict=True,
    reason="the published scaling continues from two to four database servers; in the model the file servers' "
    "CPU binds at two already (one owner node per database server, ~200,000 8 KiB IOPS each), and four "
    "databases at half the rate each ask more IO per call than two (a district's order tails, backlog head and "
    "delivered orders are written once in a checkpoint interval whenever an order reached it; at half the rate fewer "
    "orders share each district's writes), so the same file servers carry fewer NOPM at four than at two (the Accuracy page's seed "
    "table gives both, from the same command). Nothing in the model "
    "limits a database server below "
    "half of the storage (its 48 logical processors allow millions of NOPM; its 384 users wait 10-25 ms a "
    "call against the brief's up to 50 ms), and the brief publishes no figure at one or two servers",
)
def test_dataon_scales_from_two_to_four_database_servers():
    assert (
        capacity("seed-dataon-sofs-4db", "db-seed-dataon")["max_nopm"]
        > capacity("seed-dataon-sofs-2db", "db-seed-dataon")["max_nopm"]
    )


def test_dataon_two_to_four_drop_is_the_added_databases_own_writes():
    """Why four database servers carry fewer NOPM than two on the same file servers: the file
    servers bind at both, at the same IOPS within 1 %, and each of four databases runs at half the
    rate of each of two, where its per-interval writes cost more per call. The drop is the ratio
    of IO per call, nothing else (not the users, not the virtual-disk ownership: 2 and 4 virtual
    disks are balanced over the 2 file servers)."""
    two = capacity("seed-dataon-sofs-2db", "db-seed-dataon")
    four = capacity("seed-dataon-sofs-4db", "db-seed-dataon")
    for c in (two, four):
        assert c["binding"] == "storage" and "file server CPU" in c["binding_note"]
    assert four["iops"] == pytest.approx(two["iops"], rel=0.01)
    per_call = {n: c["io"]["iops"] / c["io"]["transactions_per_s"] for n, c in ((2, two), (4, four))}
    assert per_call[4] > 1.05 * per_call[2]
    assert four["max_nopm"] / two["max_nopm"] == pytest.approx(
        (four["iops"] / two["iops"]) * per_call[2] / per_call[4], rel=1e-3
    )


# ------------------------------------------------ the invariant: more database servers, same storage
def _fixed_io_per_call(monkeypatch):
    """Hold each database's IO per call at its value at one rate (1,000 calls/s), so that
    database_capacity sees a per-call demand that does not depend on the rate; what remains is
    the capacity search and the storage model."""
    from planner.commercial import database as dbc
    from planner.models.database import io_demand

    ref_tps = 1000.0
    cache = {}

    def fixed(db, log_write_latency_ms=None):
        key = db.model_copy(update={"tpm": None, "nopm": 1.0}).model_dump_json()
        if key not in cache:
            cache[key] = io_demand(db.with_rate(ref_tps))
        ref = cache[key]
        k = db.transactions_per_s / ref.transactions_per_s
        scaled = {
            f: getattr(ref, f) * k
            for f in (
                "transactions_per_s",
                "tpm",
                "nopm",
                "iops",
                "peak_iops",
                "bandwidth_mb_s",
                "peak_bandwidth_mb_s",
                "log_flushes_per_s",
            )
        }
        return ref.model_copy(update=scaled)

    monkeypatch.setattr(dbc, "io_demand", fixed)
    return dbc


def _sofs(doc: dict, servers: int):
    from planner.models.design import parse_design

    d = json.loads(json.dumps(doc))
    d["disaggregated"]["db_servers"] = servers
    return parse_design(d)


def test_more_database_servers_never_fewer_nopm_on_the_seed_storage(monkeypatch):
    """The DataON seed with 1, 2 and 4 database servers over the same file servers and JBOD, the
    database's IO per call held fixed: the total never falls (a closed loop with more users over
    the same storage is flat at worst)."""
    from planner.models.database import load_database

    dbc = _fixed_io_per_call(monkeypatch)
    doc = json.loads((EX / "seed-dataon-sofs-4db.json").read_text())
    db = load_database(EX / "db-seed-dataon.json")
    nopm = [dbc.database_capacity(_sofs(doc, n), db)["max_nopm"] for n in (1, 2, 4)]
    assert all(b >= a * (1 - 1e-9) for a, b in itertools.pairwise(nopm)), nopm


def _random_case(rng):
    """A random shared-SAS or S2D-backed file-server design and a random HammerDB database."""
    import numpy as np

    from planner.models.database import parse_database

    if rng.random() < 0.6:
        doc = json.loads((EX / "seed-dataon-sofs-4db.json").read_text())
        dis = doc["disaggregated"]
        f = int(rng.integers(2, 5))
        dis["file_servers"] = f
        j = dis["shared_jbod"]
        j["enclosure"] = None  # an external JBOD: any node count
        j["fast_tier"]["count"] = int(rng.integers(2, 9))
        j["capacity_tier"]["count"] = int(rng.integers(6, 25))
        j["fast_tier_share"] = float(np.round(rng.uniform(0.05, 0.5), 3))
        j["virtual_disks"] = f  # balanced ownership whatever the server count
        dis["file_server_cpu_us_per_io"] = float(np.round(rng.uniform(15.0, 120.0), 1))
        dis["file_server"]["nics"]["count"] = int(rng.integers(1, 3))
    else:
        doc = json.loads((EX / "sofs-2node-sas-tiered.json").read_text())
    db = parse_database(
        {
            "name": "random",
            "size_gb": float(np.round(rng.uniform(100, 2000))),
            "buffer_pool_gb": float(np.round(rng.uniform(16, 250))),  # within the 256 GB servers
            "virtual_users": int(rng.integers(16, 600)),
            "all_warehouses": bool(rng.random() < 0.5),
            "sql_server_version": int(rng.choice([2014, 2019])),
            "vcpus": int(rng.choice([8, 16, 32, 48])),
            "nopm": 100000,
        }
    )
    return doc, db


@pytest.mark.parametrize("seed", [1, 2, 4, 6, 7])
def test_more_database_servers_never_fewer_nopm_on_random_storage(monkeypatch, seed):
    """Random file-server designs (shared SAS with balanced virtual disks, or the S2D backend) and
    random databases, IO per call held fixed: n and n + 1 database servers over the same storage,
    the total never falls. (With one virtual disk per server and a server count that is not a
    multiple of the file servers, the busier owner node sets every database's equal share, and the
    total can fall by design: 3 servers on 2 file servers get 3/4 of what 2 get.)"""
    import numpy as np

    dbc = _fixed_io_per_call(monkeypatch)
    rng = np.random.default_rng(seed)
    doc, db = _random_case(rng)
    n = int(rng.integers(1, 4))
    ca, cb = (dbc.database_capacity(_sofs(doc, k), db) for k in (n, n + 1))
    if cb["binding"] == "capacity":  # one more database than the storage holds: no rate, and the reason
        assert cb["max_nopm"] is None and "do not fit" in cb["max_nopm_note"], cb["binding_note"]
        return
    a, b = ca["max_nopm"], cb["max_nopm"]
    assert b >= a * (1 - 1e-9), (seed, n, a, b)


def test_a_buffer_pool_the_server_cannot_hold_sustains_no_rate():
    """DBA review 2026-11-30: `sla seed-dl580-iodrive --database` of a 230 GB pool on the server's 32 GB gave
    1,952,550 TPM at a hit ratio of 0.99999 with no word of RAM. A pool that fits with less beside it than the
    common guidance leaves (DataON's assumed 230 GB of 256 GB) keeps its rate, and the note says so."""
    from planner.commercial.database import database_capacity
    from planner.models.database import Database
    from planner.models.design import load_design

    db = Database(name="small", size_gb=100, buffer_pool_gb=230, nopm=100_000, vcpus=12)
    c = database_capacity(load_design(EX / "seed-dl580-iodrive.json"), db)
    assert c["max_tpm"] is None and c["binding"] == "ram" and "more than the server's 32 GB" in c["binding_note"]
    # what raises it is the RAM's, not the storage's the rate was first bound by; the hard limit said apart from the
    # guidance (DBA walk 2026-11-30: "at most about 669 GB" beside a 740 GB pool taken with a note)
    assert c["raises_it"].startswith("a buffer pool the server's RAM holds") and "no rate" in c["bottleneck_note"]
    assert "give a pool below 32 GB; about " in c["binding_note"]
    # the promise says so too: "meets: true ... both hold" stood beside it (verification walk 2026-11-30)
    from planner.commercial.sla import database_guarantee
    from planner.engine.architectures.open_load import open_load_model

    g = database_guarantee(open_load_model(load_design(EX / "seed-dl580-iodrive.json")), db)
    assert not g["meets"] and "more than the server's 32 GB of RAM" in g["meets_note"]
    four = capacity("seed-dataon-sofs-4db", "db-seed-dataon")
    assert four["max_nopm"] > 0 and "leaves 26 GB of the server's 256 GB" in four["ram_note"]


def test_the_datrium_runs_rate_asks_for_no_users_where_its_vcpus_are_wholly_busy(capsys):
    """Verification walk 2026-11-30: `sla seed-datrium-dvx --database db-seed-datrium` said needs "more virtual users"
    beside users_needed null, "no count of users reaches it": the run keeps its 12 vCPUs wholly busy (the fit's own
    point), where a user's wait has no bound, so more users cannot help."""
    from planner.cli import main

    assert main(["sla", str(EX / "seed-datrium-dvx.json"), "--database", str(EX / "db-seed-datrium.json")]) == 0
    r = json.loads(capsys.readouterr().out)["rate"]
    assert r["cpu_limited_tpm"] == pytest.approx(r["asked_tpm"], rel=1e-9)
    assert r["users_needed"] is None and "no count of users reaches it" in r["users_needed_note"]
    assert r["needs"].startswith("more than 12 vCPUs") and "more virtual users" not in r["needs"]
