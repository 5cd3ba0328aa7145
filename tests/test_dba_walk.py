"""A senior SQL Server DBA's walk of the database layer (2026-11-30): `db-io`, `sla --database` and the SLA, Compare
and Size pages' database inputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from apptest import said as _said

from planner.cli import main
from planner.models.database import Database

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"


def _app():
    from streamlit.testing.v1 import AppTest

    return AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()


def test_a_large_database_on_sla_gives_no_rate_not_a_traceback(tmp_path, capsys):
    """`sla reference --database` of a 340 TB database ended in a pydantic traceback (rc 1): its three servers' load
    asked a 1,020,000 GB working set, over the workload's 1,000,000 GB, where the schema takes 10,000,000 GB a
    database. The open load has one issuer, so its working set is the three databases together, up to what the
    storage holds."""
    f = tmp_path / "db.json"
    for size_gb in (340_000, 10_000_000):
        f.write_text(json.dumps({"size_gb": size_gb, "buffer_pool_gb": 256, "nopm": 50_000}))
        assert main(["sla", str(EX / "reference.json"), "--database", str(f)]) == 0
        out = json.loads(capsys.readouterr().out)
        cap = out["database_capacity"]
        assert cap["max_tpm"] is None and cap["binding"] == "capacity", cap
        assert (
            "do not fit in the storage's usable 9.00 TB" in cap["binding_note"] or "does not fit" in cap["binding_note"]
        )
        assert out["meets"] is False


def test_the_sla_page_gives_a_large_databases_maximum_without_a_traceback():
    """The SLA page (DBA mode), a 400,000 GB database, "The most this design sustains" opened: a traceback from
    database_capacity's Workload."""
    at = _app()
    at.switch_page("hciplan_ui/sla_page.py").run()
    at.radio(key="sla_by").set_value("what a DBA knows (size, buffer pool, HammerDB rate)").run()
    at.number_input(key="sla_db_size_gb").set_value(400_000.0).run()
    at.session_state["sla_capacity"] = True
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert "do not fit in the storage's usable" in _said(at) or "does not fit in the storage's usable" in _said(at)


def test_the_compare_page_evaluates_a_large_database_without_a_traceback():
    """The Compare page, a 9,000,000 GB database: a traceback from as_workload (its working set over the
    workload's 1,000,000 GB)."""
    at = _app()
    at.switch_page("hciplan_ui/compare_page.py").run()
    at.radio(key="cmp_wsource").set_value("from a database description").run()
    at.number_input(key="db_size_gb").set_value(9_000_000.0).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not any("validation error" in e.value for e in at.error)


def test_the_maximum_counts_the_databases_the_storage_holds(tmp_path, capsys):
    """`sla reference --database` of a 4 TB database at 30,000 TPM: the guarantee met (88,533 IOPS against 11,225)
    while database_capacity put one database on each of the 3 servers (12 TB on 9 TB usable) and said "no rate is
    sustained". It counts the servers whose databases the storage holds (2 of 4 TB in 9 TB), and says so."""
    f = tmp_path / "db.json"
    # 2,667 GB of data, 4.00 TB with its log and tempdb (DBA review 2026-11-30)
    f.write_text(json.dumps({"size_gb": 4000 / 1.5, "buffer_pool_gb": 256, "tpm": 30_000}))
    assert main(["sla", str(EX / "reference.json"), "--database", str(f)]) == 0
    out = json.loads(capsys.readouterr().out)
    cap = out["database_capacity"]
    assert out["meets"] is True
    assert cap["servers"] == 2 and cap["max_tpm"] > 30_000 and cap["binding"] != "capacity", cap
    assert cap["servers_note"].startswith(
        "3 databases of 4.00 TB with their log and tempdb (12.00 TB), one on each database server, do not fit"
    )
    assert (
        "counted on the 2 database servers whose databases it holds (8.00 TB); the other runs none"
        in (cap["servers_note"])
    )


def test_a_vm_of_the_whole_server_is_told_of_faster_cores_not_more_vcpus():
    """The reference (48 logical processors), 100 warehouses, 10 GB, a 64 GB pool, 400 users: 48, 64 and 128 vCPUs
    gave the same 8,033,824 TPM a server, "the database's 48 vCPUs are busy (95%)" and "a database VM of more vCPUs
    (or of faster cores)". A VM on every logical processor is raised by faster or more cores per server; a count
    typed above them is said where the bound is. The log is given at 2,000 bytes a transaction: at the derived
    2,261 (DBA review) the storage stack's share of the same logical processors binds 0.03 % before the vCPUs."""
    from planner.commercial.database import RAISES_IT, database_capacity
    from planner.models.design import load_design

    design = load_design(EX / "reference.json")
    base = {
        "size_gb": 10,
        "warehouses": 100,
        "buffer_pool_gb": 64,
        "nopm": 200_000,
        "virtual_users": 400,
        "log_bytes_per_txn": 2_000,
    }
    at48, at128 = (database_capacity(design, Database(**base, vcpus=v)) for v in (48, 128))
    assert at48["binding"] == at128["binding"] == "database_vcpus"
    assert at48["raises_it"] == at128["raises_it"] == RAISES_IT["server_cores"]
    assert "more vCPUs" not in at48["raises_it"]
    assert at128["binding_note"].startswith("the database's 128 vCPUs are busy (")
    assert "48 of them at once on the server's 48 logical processors" in at128["binding_note"]
    at16 = database_capacity(design, Database(**base, vcpus=16))
    assert at16["raises_it"] == RAISES_IT["database_vcpus"]


def test_the_compare_page_says_a_bad_database_in_one_line():
    """The Compare page, 50 GB and 100,000 warehouses: "database: 1 validation error for Database Value error, ...
    [type=value_error, input_value=...] For further information visit https://errors.pydantic.dev/..."."""
    at = _app()
    at.switch_page("hciplan_ui/compare_page.py").run()
    at.radio(key="cmp_wsource").set_value("from a database description").run()
    at.number_input(key="db_size_gb").set_value(50.0).run()
    at.number_input(key="db_warehouses").set_value(100_000).run()
    assert not at.exception, [e.value for e in at.exception]
    (said,) = [e.value.replace("\\", "") for e in at.error if "warehouses" in e.value]
    assert "validation error" not in said and "pydantic" not in said and "type=" not in said, said
    assert said.startswith("database: warehouses (100,000) hold about"), said


@pytest.mark.parametrize(
    ("size_gb", "advice"),
    [
        (400_000, "the size is 400,000 GB; give about 4,000,000 warehouses, or leave them out"),
        (1_234_567, "the size is 1,234,567 GB; give 10,000,000 warehouses (the most allowed), or leave them out"),
        (9_000_000, "the size is 9,000,000 GB; leave them out: 10,000,000 warehouses (the most allowed) hold too"),
    ],
)
def test_the_warehouse_mismatch_says_plain_figures_and_advice_within_the_limits(size_gb, advice):
    """ "but the size is 4e+05 GB", and for 1,234,567 GB "give about 12,345,670 warehouses", above the schema's
    10,000,000."""
    from pydantic import ValidationError

    with pytest.raises(ValidationError) as e:
        Database(size_gb=size_gb, warehouses=1000, buffer_pool_gb=64, nopm=1000)
    assert advice in str(e.value) and "e+0" not in str(e.value)


def test_a_read_share_too_small_to_set_the_mixes_p99_does_not_drive_the_p99_warning():
    """A 64 GB pool for a 10 GB database leaves reads at about 4e-12 of the IOs; the Size page still warned "the 99th
    percentile read latency (1.927 ms) is above the 1 ms target; choose p99". Reads under 1 % of IOs cannot set the
    99th percentile of the mix."""
    from planner.sizing.checks import P99_MIN_READ_SHARE, p99_over_mean_targets

    rep = {"p99_read_latency_ms": 1.927}
    mean = [{"name": "demand", "latency_statistic": "mean", "latency_target_ms": 1.0}]
    assert p99_over_mean_targets(rep, mean, 4e-12) == []
    assert p99_over_mean_targets(rep, mean, P99_MIN_READ_SHARE * 0.99) == []
    assert p99_over_mean_targets(rep, mean, P99_MIN_READ_SHARE) == mean
    assert p99_over_mean_targets(rep, mean, 0.7) == mean


def test_the_size_page_says_no_reads_in_words_and_no_p99_warning_of_a_negligible_read_share():
    """DBA mode, 10 GB, a 500 GB pool, 200,000 NOPM, 4 databases: "read, 99th percentile –."; with a 64 GB pool a
    p99 warning of reads at 4e-12 of the IOs."""
    at = _app()
    at.switch_page("hciplan_ui/sizing_page.py").run()
    at.radio(key="size_mode").set_value("databases a DBA describes").run()
    at.number_input(key="size_db_size_gb").set_value(10.0)
    at.number_input(key="size_db_buffer_pool_gb").set_value(500.0)
    at.number_input(key="size_db_rate").set_value(200_000.0)
    at.number_input(key="size_db_n").set_value(4)
    at.button[0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    (lat,) = [c.value for c in at.caption if c.value.startswith("Latency at the demand's load")]
    assert "no read latency (no reads in this workload)" in lat and "percentile –" not in lat, lat
    at.number_input(key="size_db_buffer_pool_gb").set_value(64.0)
    at.button[0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert [c.value for c in at.caption if c.value.startswith("Latency at the demand's load")]
    assert not any("choose p99" in w.value for w in at.warning), [w.value for w in at.warning]


def test_the_compare_pages_database_runs_on_the_vcpus_the_sla_page_sets():
    """1 virtual user at 200,000 NOPM, the SLA page set to 8 vCPUs: the Compare page's warning said "the default 16
    vCPUs (the SLA page sets them)" (35,089 TPM) beside the SLA page's figures for 8."""
    at = _app()
    at.switch_page("hciplan_ui/sla_page.py").run()
    at.number_input(key="sla_vcpus").set_value(8).run()
    at.switch_page("hciplan_ui/compare_page.py").run()
    at.radio(key="cmp_wsource").set_value("from a database description").run()
    at.number_input(key="db_size_gb").set_value(10.0).run()
    at.number_input(key="db_buffer_pool_gb").set_value(64.0).run()
    at.number_input(key="db_rate").set_value(200_000.0).run()
    at.number_input(key="db_virtual_users").set_value(1).run()
    assert not at.exception, [e.value for e in at.exception]
    warned = " ".join(w.value.replace("\\", "") for w in at.warning)
    assert "virtual user" in warned and "the database VM's 8 vCPUs" in warned and "default 16" not in warned, warned


def test_the_guarantees_vcpu_share_and_the_maximums_own_vcpus_are_named_apart(tmp_path, capsys):
    """`sla` of 10 GB, a 64 GB pool, 200,000 NOPM on 8 vCPUs: "its 8 vCPUs (shared at 4:1, 2 logical processors)
    carry at most 340,886 TPM" beside a maximum of 1,391,215 TPM a server, "8 vCPUs busy (100%)". Two questions (a
    share of the vCPUs under the guarantee, a database server's VM its own at the maximum), each named."""
    f = tmp_path / "db.json"
    f.write_text(json.dumps({"size_gb": 10, "buffer_pool_gb": 64, "nopm": 200_000, "vcpus": 8}))
    assert main(["sla", str(EX / "reference.json"), "--database", str(f)]) == 0
    out = json.loads(capsys.readouterr().out)
    rate, cap = out["rate"], out["database_capacity"]
    assert cap["per_server_tpm"] > 3 * rate["cpu_limited_tpm"]
    assert (
        "(the guarantee's share of them; the most this design sustains counts a database server's VM's 8 vCPUs as "
        "its own)" in (rate["note"])
    )
    assert cap["binding_note"].endswith("its own (the guarantee's rate counts a 4:1 share of them)"), cap


def test_db_io_says_what_is_missing_a_pool_beyond_the_data_and_a_tpm_alone(tmp_path, capsys):
    """`db-io` of a size and a pool with no rate said "this database gives its IO (threads, block size, read
    share)", none of which it gave; a pool ten times the database was a note in `db-io` and nothing on the Compare
    page (one list of warnings); a database given by its TPM alone (an ERP) was modelled as TPC-C with no word."""
    from planner.commercial.database import database_warnings
    from planner.models.database import io_demand

    f = tmp_path / "db.json"
    f.write_text(json.dumps({"size_gb": 2000, "buffer_pool_gb": 256}))
    assert main(["db-io", str(f)]) == 2
    err = capsys.readouterr().err
    assert err == "error: database.nopm: this database gives no transaction rate: give nopm or tpm to turn it into IO\n"
    big = {"size_gb": 50, "buffer_pool_gb": 500, "nopm": 2000}
    f.write_text(json.dumps(big))
    assert main(["db-io", str(f)]) == 0
    out = json.loads(capsys.readouterr().out)
    said = (
        "the 500 GB buffer pool is more than 1.5 times the 50 GB database: 450 GB of it hold nothing until the "
        "database grows (a pool up to 1.5 times the data is taken as a DBA's margin for growth and not warned of)"
    )
    db = Database(**big)
    assert said in out["warnings"] and out["warnings"] == database_warnings(db, io_demand(db))
    f.write_text(json.dumps({"size_gb": 2000, "buffer_pool_gb": 256, "tpm": 30_000}))
    assert main(["db-io", str(f)]) == 0
    note = json.loads(capsys.readouterr().out)["buffer_hit_note"]
    assert "given by its TPM with no warehouses, so modelled as HammerDB TPROC-C's access pattern" in note


def test_the_maximums_iops_say_they_are_summed_over_the_servers(tmp_path, capsys):
    """database_capacity's iops and bandwidth_mb_s are the storage's load over the servers, beside a per-server
    io.iops."""
    f = tmp_path / "db.json"
    f.write_text(json.dumps({"size_gb": 1000, "buffer_pool_gb": 128, "nopm": 20_000}))
    assert main(["sla", str(EX / "reference.json"), "--database", str(f)]) == 0
    cap = json.loads(capsys.readouterr().out)["database_capacity"]
    assert cap["servers"] == 3 and cap["iops"] > 2 * cap["io"]["iops"]
    assert cap["iops_note"].startswith("the storage's load at the maximum, summed over the 3 database servers")


def test_a_database_given_by_nopm_alone_is_said_to_be_given_by_its_nopm():
    """Verification walk 2026-11-30: a database given {"nopm": 50000} read "given by its TPM with no warehouses"."""
    from planner.models.database import Database, io_demand

    io = io_demand(Database(name="d", size_gb=1000, buffer_pool_gb=64, nopm=50_000))
    assert "given by its NOPM with no warehouses" in io.buffer_hit_note, io.buffer_hit_note
    io = io_demand(Database(name="d", size_gb=1000, buffer_pool_gb=64, tpm=50_000))
    assert "given by its TPM with no warehouses" in io.buffer_hit_note


def test_ceph_options_keep_their_names_in_customer_text():
    """Verification walk 2026-11-30: "osd max backfills raised to 1000" beside "mon_osd_down_out_interval"."""
    from planner.sizing.document import customer_text

    t = customer_text("osd_max_backfills raised; upmap_max_deviation, mon_target_pg_per_osd; drive_bays")
    assert t.startswith("Osd_max_backfills") or "osd_max_backfills" in t
    assert "upmap_max_deviation" in t and "mon_target_pg_per_osd" in t and "drive bays" in t
