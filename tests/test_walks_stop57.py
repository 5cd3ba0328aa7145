"""What a DBA's command-line walk and a presales engineer's browser walk found on 2026-12-01, each fixed where the
rule lives and held here: db-io's streams with their sources, a log latency typed by the user said as the user's,
one IO mix and one count of a database VM's vCPUs per `sla` output, the binding resource of a rate that keeps the
vCPUs wholly busy, flags that apply only with another, a sized design's band with one node down, and the buffer pool
warnings of a sized database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from planner.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"


def run(capsys, *argv) -> tuple[int, dict | None, str]:
    code = main([str(a) for a in argv])
    cap = capsys.readouterr()
    return code, (json.loads(cap.out) if code == 0 else None), cap.err


# ------------------------------------------------------------------ db-io
def test_every_db_io_stream_names_its_source(capsys, tmp_path):
    """The issue asks each stream 'with its rule and source'; they carried a rule alone (sources only under
    assumptions)."""
    f = tmp_path / "db.json"
    f.write_text(json.dumps({"name": "scan", "size_gb": 500, "buffer_pool_gb": 64, "nopm": 50_000, "scan_mb_s": 20}))
    _, out, _ = run(capsys, "db-io", f)
    names = {s["name"] for s in out["streams"]}
    assert {"data page reads", "checkpoint writes", "lazy writer", "log writes", "read-ahead"} <= names
    for s in out["streams"]:
        assert s["source"].strip(), s["name"]
    by = {s["name"]: s["source"] for s in out["streams"]}
    assert "Che, Tung & Wang 2002" in by["data page reads"]
    assert "Writing pages" in by["checkpoint writes"] and "Writing pages" in by["lazy writer"]
    assert "transaction log architecture" in by["log writes"]
    assert "read-ahead up to 64 pages" in by["read-ahead"]


def test_a_log_latency_typed_on_the_command_line_is_said_as_given_not_as_the_designs(capsys):
    _, out, _ = run(capsys, "db-io", EX / "db-oltp-hammerdb.json", "--log-write-latency-ms", "2")
    log = next(s for s in out["streams"] if s["name"] == "log writes")
    assert "at 2 ms a flush (given with --log-write-latency-ms)" in log["rule"]
    assert "design" not in log["rule"]
    src = next(a for a in out["assumptions"] if a["field"] == "log_write_latency_ms")["source"]
    assert src.startswith("given with --log-write-latency-ms") and "design" not in src.split("(")[0]
    _, out, _ = run(capsys, "db-io", EX / "db-oltp-hammerdb.json")
    log = next(s for s in out["streams"] if s["name"] == "log writes")
    assert "(no design given: assumed)" in log["rule"] and "60 KiB block" in log["rule"]


# ------------------------------------------------------------------ sla
def test_the_database_guarantee_is_judged_at_the_demands_io_mix(capsys):
    """The guarantee printed the read share of the database at an assumed 1 ms log (0.6223) beside the demand's at
    the design's predicted latency (0.6170)."""
    _, out, _ = run(capsys, "sla", EX / "reference.json", "--database", EX / "db-oltp-hammerdb.json", "--vcpus", "16")
    assert out["guarantee"]["read_fraction"] == pytest.approx(out["demand"]["peak_read_fraction"], rel=1e-12)


def test_a_rate_that_keeps_the_vcpus_wholly_busy_is_bound_by_the_vcpus(capsys):
    """Datrium's 2,000,000 TPM on 12 vCPUs at 100 % (the fitted point): `rate` said virtual_users beside
    database_capacity's database_vcpus, and asked 2000000.0000000002."""
    _, out, _ = run(capsys, "sla", EX / "seed-datrium-dvx.json", "--database", EX / "db-seed-datrium.json")
    rate = out["rate"]
    assert rate["asked_tpm"] == 2_000_000
    assert rate["binding"][0] == "vcpus"
    assert out["database_capacity"]["binding"] == "database_vcpus"


def test_the_vcpu_oversubscription_counts_only_where_the_cluster_model_hosts_the_vms(capsys, tmp_path):
    """The DataON seed's database servers run one database each: its guarantee counted 16 vCPUs at 4:1 (76,105
    IOPS, bound by the vCPU share) beside a rate that counted them whole. A file-server design's guarantee does not
    move with vcpu_oversubscription; a hyperconverged one's does."""
    from planner.models.design import load_design

    assert load_design(EX / "seed-dataon-sofs-4db.json").database_vcpu_oversubscription == 1.0
    ref = load_design(EX / "reference.json")
    assert ref.database_vcpu_oversubscription == ref.vcpu_oversubscription

    def share(design: Path, over: float) -> tuple[float, float]:
        d = json.loads(design.read_text())
        d["vcpu_oversubscription"] = over
        f = tmp_path / f"{design.stem}-{over:g}.json"
        f.write_text(json.dumps(d))
        _, out, _ = run(capsys, "sla", f, "--database", EX / "db-oltp-hammerdb.json")
        return out["guarantee"]["bounds_iops"]["vm_vcpu_share"], out["rate"]["vcpus_counted"]

    sofs = [share(EX / "seed-dataon-sofs-4db.json", o) for o in (1.0, 4.0)]
    assert sofs[0] == pytest.approx(sofs[1], rel=1e-9) and sofs[1][1] == 16
    hci = [share(EX / "reference.json", o) for o in (1.0, 4.0)]
    assert hci[0][0] > 3 * hci[1][0] and hci[1][1] == 4


def test_a_guarantee_bound_by_the_vms_ios_in_flight_says_more_vcpus_alone_do_not_raise_it(capsys):
    _, out, _ = run(capsys, "sla", EX / "reference.json", "--database", EX / "db-oltp-hammerdb.json", "--vcpus", "32")
    g = out["guarantee"]
    assert g["binding_constraint"] == "vm_outstanding_io"
    assert "4 IO threads x 16 outstanding IOs (64 in flight)" in g["binding_constraint_note"]
    assert "--threads" in g["binding_constraint_note"]


def test_flags_that_apply_with_another_are_refused_without_it(capsys):
    code, _, err = run(capsys, "compare", EX / "reference.json", "--mean", "--workload", "oltp-8k")
    assert code == 2 and err.startswith("error: mean: --mean is for --database") and err.count("\n") == 1
    code, _, err = run(
        capsys, "sla", EX / "reference.json", "--database", EX / "db-oltp-hammerdb.json", "--background", "nosuch"
    )
    assert code == 2 and err.startswith("error: background: no file or profile named 'nosuch'")


def test_a_paced_load_says_why_no_station_is_saturated(capsys, tmp_path):
    """`saturated: false` stood beside latencies that 'queue in their VMs without end' (the CPU cap paces it)."""
    f = tmp_path / "big.json"
    f.write_text(json.dumps({"name": "big", "size_gb": 5_000, "buffer_pool_gb": 128, "nopm": 1_000_000}))
    _, out, _ = run(capsys, "compare", EX / "reference.json", "--database", f)
    col = out[0]
    assert col["limited_by"] == "cpu_utilization_cap" and col["saturated"] is False
    assert col["vm_latency_ms"] is None
    assert "pacing" in col["saturated_note"]


# ------------------------------------------------------------------ size
def test_a_headline_set_with_one_node_down_has_no_band_as_the_proposal_says():
    """The Size page showed 'band 0-1,182,125' for the IOPS within target set with one node down, the proposal
    'no range: the ranges are calibrated on clusters with every server up' for the same figure."""
    from planner.models.catalog import load_catalog
    from planner.models.demand import Demand
    from planner.models.design import load_design, resolve
    from planner.sizing.checks import DOWN_NO_RANGE, headline_bands

    rd = resolve(load_design(EX / "reference.json"), load_catalog())
    demand = Demand.model_validate(json.loads((EX / "demand-hammerdb.json").read_text()) | {"databases": 2})
    up = headline_bands(rd, demand, 100_000.0)
    down = headline_bands(rd, demand, 100_000.0, one_node_down=True)
    assert up["guaranteed_iops_low"] is not None and up["guaranteed_iops_high"] is not None
    assert down["guaranteed_iops_low"] is None and down["guaranteed_iops_high"] is None
    assert DOWN_NO_RANGE in down["guaranteed_iops_note"]
    assert down["bands_note"] == up["bands_note"]  # the other figures keep their bands
    assert down["iops_capacity_low"] == up["iops_capacity_low"]


def test_a_sized_databases_pool_beyond_its_data_is_warned_of():
    from planner.models.demand import Demand
    from planner.sizing.search import demand_summary

    base = {"name": "w", "databases": 10}
    big = Demand.model_validate(
        base | {"database": {"name": "db", "size_gb": 500, "buffer_pool_gb": 5000, "tpm": 100_000}}
    )
    (warned,) = demand_summary(big)["database_warnings"]
    assert "5,000 GB buffer pool" in warned and "4,500 GB of it hold nothing" in warned
    fine = Demand.model_validate(base | {"database": {"name": "db", "size_gb": 500, "buffer_pool_gb": 64, "tpm": 1e5}})
    assert demand_summary(fine)["database_warnings"] == []


def test_a_best_design_that_fails_a_rule_is_labelled_the_closest():
    from hciplan_ui.sizing_rows import result_row

    kept = json.loads((ROOT / "tests" / "golden" / "reports.json").read_text())
    sized = next(x["report"]["best"] for x in kept if x["argv"][0] == "size" and x["report"].get("best"))
    assert result_row(0, sized)["#"] == "best"
    assert result_row(0, sized | {"feasible": False})["#"] == "closest"
    assert result_row(1, sized | {"feasible": False})["#"] == "alt 1"


def test_the_remedy_of_a_database_vm_too_small_is_the_vms_not_another_sizing():
    """'no count of these servers up to 16 meets it, nor another resiliency: sizing the demand finds a design that
    does', where every design fails the same rule (the database VM's vCPUs carry 77,475 of 100,000 TPM on the walk's design)."""
    from planner.commercial.pricing import CostAssumptions
    from planner.models.catalog import load_catalog
    from planner.models.demand import Demand
    from planner.models.design import load_design
    from planner.sizing.verdict import remedy

    demand = Demand.model_validate(
        {"name": "w", "databases": 10, "database": {"name": "db", "size_gb": 500, "buffer_pool_gb": 64, "tpm": 3e5}}
        | {"vcpus_per_db": 8}
    )
    r = remedy(load_design(EX / "reference.json"), demand, CostAssumptions(), load_catalog())
    assert r["nodes"] is None and r["resiliencies"] == []
    assert "VM is too small for its rate: each database needs at least " in r["words"]
    assert "vCPUs at the design's 4:1 vCPU oversubscription" in r["words"]
    assert "sizing the demand finds" not in r["words"]


def test_the_vm_size_table_holds_the_databases_own_vm(capsys):
    """'The smallest VM guaranteed the database's 31,439 IOPS: 16 vCPUs' stood under a 12-vCPU VM guaranteed 46,102:
    the table checked 1, 2, 4, 8, 16, ... and never the VM set."""
    _, out, _ = run(
        capsys, "sla", EX / "reference.json", "--database", EX / "db-oltp-hammerdb.json", "--vcpus", "12", "--vm-sizes"
    )
    rows = out["by_vm_size"]["sizes"]
    (own,) = [r for r in rows if r["the_databases_vm"]]
    assert own["vcpus"] == 12 and (own["threads"], own["outstanding_per_thread"]) == (4, 16)
    assert own["guaranteed_iops"] == pytest.approx(out["guarantee"]["guaranteed_iops"], rel=1e-9)
    assert [r["vcpus"] for r in rows] == sorted(r["vcpus"] for r in rows)


def test_a_database_that_does_not_fit_says_so_at_every_vm_size(capsys):
    _, out, _ = run(
        capsys, "sla", EX / "seed-dl580-raid10.json", "--database", EX / "db-oltp-hammerdb.json", "--vm-sizes"
    )
    note = out["by_vm_size"]["smallest_vm_note"]
    assert note.endswith("the database does not fit its usable capacity") and "cluster" not in note


def test_a_peak_without_checkpoint_bursts_is_not_said_to_include_them(capsys):
    """Indirect checkpoints write continuously: 'its peak IO (30,917 IOPS, checkpoint bursts included)' stood
    under 'its peak is its mean'."""
    _, out, _ = run(capsys, "sla", EX / "reference.json", "--database", EX / "db-oltp-hammerdb.json")
    assert out["demand"]["peak_iops"] == out["demand"]["iops"]
    assert "its mean: no checkpoint bursts" in out["meets_note"] and "bursts included" not in out["meets_note"]
    _, out, _ = run(capsys, "sla", EX / "seed-datrium-dvx.json", "--database", EX / "db-seed-datrium.json")
    assert out["demand"]["peak_iops"] > out["demand"]["iops"] and "checkpoint bursts included" in out["meets_note"]


def test_sql_servers_names_and_the_slas_bounds_read_as_written():
    from planner.sizing.document import customer_text

    said = customer_text("as fn_dblog shows; the SLA's vm_vcpu_share bound and vm_outstanding_io")
    assert said == "as fn_dblog shows; the SLA's vCPU share bound and outstanding IO"


def test_the_proposal_says_a_system_today_too_small_for_the_demand(tmp_path, capsys):
    """The proposal gave the DL580's throughput under a 36 TB demand and no word that its 0.24 TB cannot hold it
    (the Compare page says so)."""
    import re

    out = tmp_path / "p.html"
    code = main(
        [
            "proposal",
            str(EX / "demand-hammerdb.json"),
            "--design",
            str(EX / "reference.json"),
            "--existing",
            str(EX / "seed-dl580-raid10.json"),
            "--format",
            "html",
            "--out",
            str(out),
        ]
    )
    capsys.readouterr()
    assert code == 0
    text = " ".join(re.sub(r"<[^>]+>", " ", out.read_text(encoding="utf-8")).split())
    assert "Usable capacity today 0.24 TB: less than the 36.00 TB the demand holds" in text
