"""The seed systems' database-level results (issue 24 §3): the most each shipped design
sustains of its published database (``sla --database``: ``database_capacity``) against what
was published, each within 35 % or a strict xfail that says why. The storage side of the same
systems is tests/test_seeds.py.

In sample / held out: the database layer's one fitted parameter (CPU per transaction) comes
from Datrium's run, so Datrium's TPM is in sample; everything else here is held out.
"""

from __future__ import annotations

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
    "acknowledges writes from the data node's NVRAM after one network hop; where the data node spends the "
    "rest (erasure coding, log-structured layout, checkpoint bursts of SQL Server 2014's automatic "
    "checkpoints) is not published, and the storage side misses the same figure (tests/test_seeds.py)",
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


def test_dataon_average_response_under_50_ms_below_four_servers():
    """'the average response time remains under 50 ms': the users' response time at the
    model's operating point is users / rate (Little's law)."""
    for n in (1, 2):
        c = capacity(f"seed-dataon-sofs-{n}db", "db-seed-dataon")
        assert 384 / (c["per_server_tpm"] / 60) * 1e3 < 50


@pytest.mark.xfail(
    strict=True,
    reason="DataON's just over 1,000,000 NOPM at four database servers against ~400,000 predicted: the "
    "database layer asks ~13.7 IOs per HammerDB call for a 1 TB database whose 10,000 warehouses are all "
    "active (each stock update a distinct page write, 62 % buffer hit with a 230 GB pool), 530,000 IOPS at "
    "1 M NOPM, while the file servers' model saturates its four fast-tier SAS SSDs near 255,000 IOPS; the "
    "S650DC/S630DC performance figures are not published (catalog estimates) and the file servers' CPU per "
    "SMB IO is an assumption (docs/guide/architectures.md)",
)
def test_dataon_one_million_nopm_at_four_servers():
    c = capacity("seed-dataon-sofs-4db", "db-seed-dataon")
    assert c["max_nopm"] == pytest.approx(PUBLISHED["dataon"]["orders_per_minute_at_4_servers"], rel=0.35)


@pytest.mark.xfail(
    strict=True,
    reason="the published scaling continues from two to four database servers; the model's file servers "
    "saturate at two (the same reason as the 1 M NOPM miss)",
)
def test_dataon_scales_from_two_to_four_database_servers():
    assert (
        capacity("seed-dataon-sofs-4db", "db-seed-dataon")["max_nopm"]
        > capacity("seed-dataon-sofs-2db", "db-seed-dataon")["max_nopm"]
    )
