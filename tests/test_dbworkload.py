"""Database description -> IO demand (planner.models.database): SQL Server's IO sizes,
HammerDB's rates, the checkpoint burst, overrides, and the hand-off to a
workload, sizing and SLA."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from planner import cli
from planner.core.errors import PlannerError
from planner.models.database import (
    SOURCES,
    DatabaseIo,
    as_demand_fields,
    as_sla_database,
    as_workload,
    io_demand,
    load_database_io,
    log_write_kib,
    parse_database_io,
)

EX = Path(__file__).resolve().parent.parent / "examples"


def db(**kw) -> DatabaseIo:
    base = dict(size_gb=1000, buffer_pool_gb=100, nopm=60_000)
    base.update(kw)
    return DatabaseIo(**base)


def streams(demand) -> dict:
    return {s.name: s for s in demand.streams}


def test_nopm_is_new_orders_and_the_tpcc_mix_gives_transactions():
    """HammerDB: NOPM counts new orders; TPC-C's mix leaves ~45 % New-Order."""
    d = io_demand(db(nopm=45_000))
    assert d.transactions_per_s == pytest.approx(45_000 / 0.45 / 60)
    assert io_demand(db(nopm=None, tpm=6_000)).transactions_per_s == pytest.approx(100)


def test_sql_server_io_sizes():
    """8 KiB pages, read-ahead up to 512 KB, log blocks in 512-byte sectors up to 60 KB, 1 MB backup."""
    d = io_demand(db(scan_mb_s=100, backup_mb_s=200))
    s = streams(d)
    assert s["data page reads"].block_size_kib == 8 and s["data page reads"].random
    assert s["checkpoint writes"].block_size_kib == 8
    assert s["read-ahead"].block_size_kib == 512 and not s["read-ahead"].random
    assert s["backup"].block_size_kib == 1024 and s["backup"].read
    log = s["log writes"]
    assert not log.read and not log.random and log.block_size_kib * 1024 % 512 == 0
    assert log_write_kib(100) == 0.5 and log_write_kib(1e6) == 60.0
    # a commit group larger than one log block is written in 60 KB blocks
    big = streams(io_demand(db(log_bytes_per_txn=200_000)))["log writes"]
    assert big.block_size_kib == 60.0
    assert big.iops * 60 * 1024 == pytest.approx(io_demand(db()).transactions_per_s * 200_000)


def test_buffer_pool_holding_the_database_leaves_no_page_reads_and_no_lazy_writes():
    d = streams(io_demand(db(buffer_pool_gb=2000)))
    assert d["data page reads"].iops == 0
    assert "lazy writer" not in d  # nothing is evicted dirty
    assert d["checkpoint writes"].iops > 0


def test_reads_scale_with_misses():
    small, half = io_demand(db(buffer_pool_gb=100)), io_demand(db(buffer_pool_gb=500))
    # uniform access: miss ratio 0.9 with 100 GB of 1000 GB cached, 0.5 with 500 GB
    ratio = streams(small)["data page reads"].iops / streams(half)["data page reads"].iops
    assert ratio == pytest.approx(0.9 / 0.5)


def test_automatic_checkpoint_bursts_and_indirect_spreads():
    ind = io_demand(db(buffer_pool_gb=2000))
    auto = io_demand(
        db(buffer_pool_gb=2000, checkpoint_mode="automatic", checkpoint_interval_s=60, checkpoint_burst_s=10)
    )
    assert ind.peak_iops == pytest.approx(ind.iops)
    ck = streams(auto)["checkpoint writes"]
    assert ck.peak_iops == pytest.approx(6 * ck.iops)
    assert auto.peak_iops > auto.iops
    with pytest.raises(ValueError):
        db(checkpoint_mode="automatic", checkpoint_interval_s=5, checkpoint_burst_s=10)


def test_gathered_writes_are_fewer_and_larger():
    one, many = streams(io_demand(db())), streams(io_demand(db(write_pages_per_io=32)))
    assert many["checkpoint writes"].block_size_kib == 256
    assert many["checkpoint writes"].iops == pytest.approx(one["checkpoint writes"].iops / 32)
    assert many["checkpoint writes"].bandwidth_mb_s == pytest.approx(one["checkpoint writes"].bandwidth_mb_s)


def test_every_assumption_is_reported_with_its_source():
    d = io_demand(db())
    fields = {a["field"] for a in d.assumptions}
    assert fields == set(SOURCES)
    assert all(len(a["source"]) > 20 for a in d.assumptions)
    assert next(a for a in d.assumptions if a["field"] == "lazy_writer_share")["value"] == pytest.approx(0.9)


def test_overrides_change_the_demand():
    base = io_demand(db())
    assert io_demand(db(page_reads_per_txn=47)).iops > base.iops
    assert io_demand(db(dirty_pages_per_txn=0)).iops < base.iops
    assert io_demand(db(commits_per_log_flush=10)).iops < base.iops


def test_exactly_one_rate_and_bad_fields_name_the_field():
    with pytest.raises(ValueError):
        DatabaseIo(size_gb=1, buffer_pool_gb=1)
    with pytest.raises(ValueError):
        DatabaseIo(size_gb=1, buffer_pool_gb=1, nopm=1, tpm=1)
    with pytest.raises(PlannerError) as exc:
        parse_database_io({"size_gb": -1, "buffer_pool_gb": 1, "nopm": 1})
    assert "database.size_gb" in str(exc.value)


def test_hand_off_to_workload_sizing_and_sla():
    from planner.models.demand import Demand

    d = io_demand(load_database_io(EX / "db-oltp-hammerdb.json"))
    w = as_workload(d)
    assert w.iops == pytest.approx(d.peak_iops) and w.vms_per_node is None
    assert w.read_fraction == pytest.approx(d.read_fraction)
    total_bytes = sum(s.iops * s.block_size_kib for s in d.streams)
    assert w.block_size_kib == pytest.approx(total_bytes / d.iops)
    dem = Demand(**as_demand_fields(d))
    assert dem.totals()[0] == pytest.approx(d.peak_iops) and dem.capacity_tb == pytest.approx(1.0)
    sla_db = as_sla_database(d, vcpus=16, threads=4, outstanding_per_thread=16, latency_target_ms=1.0)
    assert sla_db.size_tb == pytest.approx(1.0) and sla_db.read_fraction == pytest.approx(d.read_fraction)


def test_cli_compare_with_a_database(capsys):
    paths = [str(EX / "reference.json"), str(EX / "single-server-sata-raid10.json")]
    assert cli.main(["compare", *paths, "--database", str(EX / "db-oltp-hammerdb.json")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out) == 2 and all(o["workload"].startswith("db:") for o in out)


# ------------------------------------------------ the database-level guarantee
def test_sla_database_says_whether_the_design_meets_the_databases_io(capsys):
    import json as _json

    from planner.cli import main

    ex = Path(__file__).resolve().parent.parent / "examples"
    args = ["sla", str(ex / "reference.json"), "--database", str(ex / "db-oltp-hammerdb.json")]
    assert main(args) == 0
    out = _json.loads(capsys.readouterr().out)
    dem, g = out["demand"], out["guarantee"]
    assert out["needed"] == "peak" and out["needed_iops"] == dem["peak_iops"]
    assert out["meets"] == (g["guaranteed_iops"] >= out["needed_iops"])
    assert out["headroom_pct"] == pytest.approx((g["guaranteed_iops"] / out["needed_iops"] - 1) * 100)
    # the same as `sla --db` with the database that as_sla_database builds
    from planner.commercial.sla import guarantee
    from planner.models.catalog import load_catalog
    from planner.models.design import load_design, resolve

    sla_db = as_sla_database(
        io_demand(load_database_io(ex / "db-oltp-hammerdb.json")),
        vcpus=16,
        threads=4,
        outstanding_per_thread=16,
        latency_target_ms=1.0,
    )
    want = guarantee(resolve(load_design(ex / "reference.json"), load_catalog()), sla_db)
    assert g["guaranteed_iops"] == pytest.approx(want.guaranteed_iops)
    # a bigger VM is guaranteed more; --mean asks for the mean
    assert main([*args, "--vcpus", "64", "--threads", "16", "--mean"]) == 0
    more = _json.loads(capsys.readouterr().out)
    assert more["needed"] == "mean" and more["needed_iops"] == dem["iops"]
    assert more["guarantee"]["guaranteed_iops"] > g["guaranteed_iops"]


@pytest.mark.parametrize(
    "extra,msg",
    [
        (["--vcpus", "0"], "error: vcpus: must be 1..512 (got 0)"),
        (["--latency-target-ms", "0.001"], "error: latency_target_ms: must be 0.02..10000 (got 0.001)"),
    ],
)
def test_sla_database_flags_out_of_range_are_one_line(capsys, extra, msg):
    from planner.cli import main

    ex = Path(__file__).resolve().parent.parent / "examples"
    assert main(["sla", str(ex / "reference.json"), "--database", str(ex / "db-oltp-hammerdb.json"), *extra]) == 2
    assert capsys.readouterr().err == msg + "\n"


def test_sla_database_only_flags_are_refused_with_a_db_file(capsys):
    from planner.cli import main

    ex = Path(__file__).resolve().parent.parent / "examples"
    assert main(["sla", str(ex / "reference.json"), "--db", str(ex / "db-erp.json"), "--threads", "8"]) == 2
    assert capsys.readouterr().err == "error: threads: only applies with --database (a --db file states it itself)\n"
    # the default value given explicitly is seen too (it was not while the flags carried their defaults)
    assert main(["sla", str(ex / "reference.json"), "--db", str(ex / "db-erp.json"), "--vcpus", "16"]) == 2
    assert capsys.readouterr().err == "error: vcpus: only applies with --database (a --db file states it itself)\n"
    assert main(["sla", str(ex / "reference.json")]) == 2
    assert capsys.readouterr().err == "error: db: required (or: database)\n"
    assert (
        main(
            [
                "sla",
                str(ex / "reference.json"),
                "--db",
                str(ex / "db-erp.json"),
                "--database",
                str(ex / "db-oltp-hammerdb.json"),
            ]
        )
        == 2
    )
    assert capsys.readouterr().err == "error: database: not allowed with argument --db\n"


def test_sla_page_guarantees_a_database_described_in_dba_terms():
    from streamlit.testing.v1 import AppTest

    root = Path(__file__).resolve().parent.parent
    at = AppTest.from_file(str(root / "app.py"), default_timeout=120).run()
    at.switch_page("hciplan_ui/sla_page.py").run()
    at.radio(key="sla_by").set_value("what a DBA knows (size, buffer pool, HammerDB rate)").run()
    assert not at.exception and not at.error
    need = next(m for m in at.metric if m.label == "Needs (peak)")
    dem = io_demand(DatabaseIo(name="database", size_gb=1000, buffer_pool_gb=128, nopm=200_000))
    assert need.value == f"{dem.peak_iops:,.0f}" and "not met" in need.proto.delta
    at.number_input(key="sla_db_rate").set_value(20_000).run()
    need = next(m for m in at.metric if m.label == "Needs (peak)")
    assert "headroom: met" in need.proto.delta
    at.number_input(key="sla_db_size_gb").set_value(0).run()  # out of range: named, the page goes on
    assert not at.exception and any("Database size, GB" in e.value for e in at.error)
    at.radio(key="sla_by").set_value("its IO (size, threads, block size, read share)").run()
    assert not at.exception and not any(m.label.startswith("Needs") for m in at.metric)


# ------------------------------------------------ sizing from a database description
def test_a_demand_from_a_database_sizes_its_io_times_the_count():
    from planner.models.demand import Demand
    from planner.sizing.search import size

    db = DatabaseIo(name="db", size_gb=1000, buffer_pool_gb=128, nopm=20_000)
    dem = io_demand(db)
    d = Demand(database=db, databases=20, vcpus_per_db=8, max_nodes=6)
    assert d.total_iops == pytest.approx(20 * dem.peak_iops) and d.capacity_tb == pytest.approx(20 * dem.capacity_tb)
    assert (d.block_size_kib, d.read_fraction) == (pytest.approx(dem.block_size_kib), pytest.approx(dem.read_fraction))
    assert d.ram_gb_per_db == 128  # at least the buffer pool
    assert Demand(database=db, databases=20, database_need="mean").total_iops == pytest.approx(20 * dem.iops)
    # a dumped demand validates to itself (its totals agree with the database)
    assert Demand.model_validate_json(d.model_dump_json()) == d
    best = size(d, top=1).best
    assert best is not None and best["guaranteed_iops"] >= d.total_iops * d.growth * (1 - 1e-9)


@pytest.mark.parametrize(
    "extra,msg",
    [
        ({"total_iops": 5}, "total_iops follows from database"),
        ({"tier_counts": {"Standard": 1}}, "give tier_counts or database, not both"),
        ({"ram_gb_per_db": 64}, "less than the database's buffer pool (128 GB)"),
        ({"database": {"size_gb": 1000, "buffer_pool_gb": 128}}, "give exactly one of nopm"),
    ],
)
def test_a_demand_from_a_database_refuses_contradictions(extra, msg):
    from pydantic import ValidationError

    from planner.models.demand import Demand

    raw = {"database": {"size_gb": 1000, "buffer_pool_gb": 128, "nopm": 20_000}, "databases": 2} | extra
    with pytest.raises(ValidationError, match=re.escape(msg)):
        Demand.model_validate(raw)


def test_cli_size_takes_the_hammerdb_demand_example(capsys):
    import json as _json

    from planner.cli import main

    ex = Path(__file__).resolve().parent.parent / "examples"
    assert main(["size", str(ex / "demand-hammerdb.json"), "--top", "2"]) == 0
    out = _json.loads(capsys.readouterr().out)
    assert out["best"]["feasible"] and out["demand"]["databases"] == 24.0  # 20 x 1.2 growth


def test_compare_page_sends_its_database_with_its_assumptions_to_the_sla_page():
    from streamlit.testing.v1 import AppTest

    from planner.commercial.sla import database_guarantee
    from planner.models.catalog import load_catalog
    from planner.models.design import load_design, resolve

    root = Path(__file__).resolve().parent.parent
    at = AppTest.from_file(str(root / "app.py"), default_timeout=120).run()
    at.switch_page("hciplan_ui/sla_page.py").run()  # its widgets exist before the Compare page sets them
    at.switch_page("hciplan_ui/compare_page.py").run()
    at.radio(key="cmp_wsource").set_value(
        next(o for o in at.radio(key="cmp_wsource").options if o.startswith("from"))
    ).run()
    at.number_input(key="db_size_gb").set_value(2000.0)
    at.number_input(key="db_page_reads_per_txn").set_value(40.0).run()  # an overridden assumption
    at.button(key="db_to_sla").click().run()
    assert not at.exception and at.success
    at.switch_page("hciplan_ui/sla_page.py").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.radio(key="sla_by").value.startswith("what a DBA knows")
    assert at.number_input(key="sla_db_size_gb").value == 2000.0
    db = DatabaseIo(name="database", size_gb=2000, buffer_pool_gb=128, nopm=200_000, page_reads_per_txn=40)
    bg = root / "examples" / "background-25vms.json"
    from planner.models.workload import load_workload

    want = database_guarantee(
        resolve(load_design(root / "examples" / "reference.json"), load_catalog()),
        db,
        vcpus=16,
        threads=4,
        outstanding_per_thread=16,
        latency_target_ms=1.0,
        background=load_workload(bg),
    )
    need = next(m for m in at.metric if m.label == "Needs (peak)")
    assert need.value == f"{want['needed_iops']:,.0f}"
    assert any("as set on the Compare" in c.value for c in at.caption)
    at.button(key="sla_dbio_reset").click().run()
    need = next(m for m in at.metric if m.label == "Needs (peak)")
    default = io_demand(DatabaseIo(name="database", size_gb=2000, buffer_pool_gb=128, nopm=200_000))
    assert need.value == f"{default.peak_iops:,.0f}"
