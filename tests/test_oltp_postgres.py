"""The buffer model's page geometry (SQL Server's as it was, PostgreSQL's from measured table
sizes) and its held-out check on first-party HammerDB TPROC-C / PostgreSQL 15 runs
(planner/data/benchmarks/database/hammerdb-postgresql-buffer.json, planner.calibration.oltp_heldout).

The accuracy bands below are what the model achieves on these runs, with the measurement's own
spread between repeats as the tolerance: they were read off the check, never tuned, and no model
constant was changed to meet them."""

from __future__ import annotations

import importlib.util
import itertools
import math
import statistics
from pathlib import Path

import numpy as np
import pytest

from planner.calibration import oltp_heldout as heldout
from planner.models import oltp

ROOT = Path(__file__).resolve().parent.parent
GIB = 2**30

# ---------------------------------------------------------------- the transcription

#: the measurement report's §1 table: per table total and heap-only size [GiB]
REPORT_TABLE_GIB = {
    "order_line": (1.3936, 1.0401),
    "stock": (1.3868, 1.2733),
    "customer": (0.7808, 0.6790),
    "orders": (0.1380, 0.0673),
    "history": (0.0898, 0.0897),
    "new_order": (0.0255, 0.0149),
    "item": (0.0120, 0.0099),
    "district": (0.0001, 0.0001),
    "warehouse": (0.0001, 0.0000),
}
#: the report's T1 (shared_buffers GiB, users, all warehouses, hit ratio, reads per New-Order,
#: reads per transaction, WAL bytes per transaction) and T5 (warehouses with New-Orders)
REPORT_T1 = {
    "r01_sb128MB_vu4": (0.125, 4, False, 0.9313, 23.68, 10.25, 13379, None),
    "r02_sb256MB_vu4": (0.25, 4, False, 0.9631, 12.75, 5.56, 12227, 4),
    "r03_sb512MB_vu4": (0.5, 4, False, 0.9948, 1.8, 0.78, 10497, 3),
    "r04_sb1GB_vu4": (1, 4, False, 0.9955, 1.57, 0.68, 12903, 4),
    "r05_sb2GB_vu4": (2, 4, False, 0.9983, 1.25, 0.54, 11584, 3),
    "r06_sb4608MB_vu4": (4.5, 4, False, 0.9993, 0.24, 0.11, 8116, 4),
    "r07_sb512MB_vu8": (0.5, 8, False, 0.9787, 7.79, 3.37, 8556, 7),
    "r08_sb128MB_vu4_allwh": (0.125, 4, True, 0.803, 69.35, 30.03, 20725, 40),
    "r09_sb512MB_vu4_allwh": (0.5, 4, True, 0.9216, 27.36, 11.88, 26173, 40),
    "r10_sb2GB_vu4_allwh": (2, 4, True, 0.9869, 4.5, 1.96, 25487, 40),
    "r11_sb4608MB_vu4_allwh": (4.5, 4, True, 0.9998, 0.29, 0.12, 30727, 40),
    "r12_sb2GB_vu4_rep2": (2, 4, False, 0.9964, 1.28, 0.56, 9738, 3),
    "r13_sb4608MB_vu4_rep2": (4.5, 4, False, 0.9993, 0.24, 0.1, 7470, 4),
    "r14_sb128MB_vu4_rep2": (0.125, 4, False, 0.928, 26.16, 11.36, 7197, 4),
    "r15_sb1GB_vu4_rep2": (1, 4, False, 0.9956, 1.78, 0.77, 6549, 4),
    "r16_sb256MB_vu4_allwh": (0.25, 4, True, 0.8585, 51.28, 22.22, 26569, 40),
    "r17_sb1GB_vu4_allwh": (1, 4, True, 0.9715, 26.55, 11.59, 31128, 40),
}
#: the report's T2: stock and customer reads per New-Order
REPORT_T2 = {
    "r01_sb128MB_vu4": (15.64, 6.69),
    "r08_sb128MB_vu4_allwh": (44.61, 13.43),
    "r10_sb2GB_vu4_allwh": (2.33, 1.19),
    "r14_sb128MB_vu4_rep2": (15.66, 7.66),
    "r15_sb1GB_vu4_rep2": (0.53, 0.53),
}


def _runs() -> dict:
    return {r["run_id"]: r for r in heldout.load()["runs"]}


def test_the_file_is_strict_json_and_every_null_says_why():
    doc = heldout.load()

    def walk(node, path):
        if isinstance(node, dict):
            for k, v in node.items():
                if v is None:
                    assert isinstance(node.get(f"{k}_note"), str), f"{path}.{k} is null without a note"
                walk(v, f"{path}.{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{path}[{i}]")

    walk(doc, "$")
    assert doc["source"]["kind"] == "first-party measurement" and doc["source"]["date"] == "2026-11-25"
    assert "not copied" in doc["source"]["raw_artefacts"]


def test_table_sizes_are_the_reports_in_decimal_gb():
    doc = heldout.load()
    tables = doc["schema"]["tables"]
    assert set(tables) == set(REPORT_TABLE_GIB)
    for t, (total_gib, heap_gib) in REPORT_TABLE_GIB.items():
        assert tables[t]["total_gb"] * 1e9 / GIB == pytest.approx(total_gib, abs=6e-5), t
        assert tables[t]["heap_gb"] * 1e9 / GIB == pytest.approx(heap_gib, abs=6e-5), t
        assert tables[t]["total_gb"] == pytest.approx(tables[t]["total_bytes"] / 1e9, abs=1e-6)
        assert tables[t]["index_gb"] == pytest.approx(tables[t]["total_gb"] - tables[t]["heap_gb"], abs=2e-6)
    assert doc["schema"]["db_size_gb"] * 1e9 / GIB == pytest.approx(3.834, abs=6e-4)
    assert doc["schema"]["warehouses"] == 40
    assert doc["schema"]["row_counts"]["order_line"] == 11_997_093


def test_every_run_matches_the_reports_tables():
    runs = _runs()
    assert set(runs) == set(REPORT_T1)
    for rid, (sb_gib, users, allwh, hit, per_no, per_txn, wal, active) in REPORT_T1.items():
        r = runs[rid]
        assert r["shared_buffers_gb"] == pytest.approx(sb_gib * GIB / 1e9, abs=1e-6), rid
        assert r["shared_buffers_mib"] == sb_gib * 1024
        assert (r["virtual_users"], r["all_warehouses"]) == (users, allwh)
        assert r["buffer_hit_ratio"] == pytest.approx(hit, abs=5e-5), rid
        # the report prints two decimals
        assert r["blks_read_per_new_order"] == pytest.approx(per_no, abs=0.0051), rid
        assert r["blks_read_per_transaction"] == pytest.approx(per_txn, abs=0.0051), rid
        assert round(r["wal_bytes_per_transaction"]) == wal, rid
        assert r["active_warehouses_observed"] == active, rid
        assert r["checkpoint_timeout_s"] == 60 and r["checkpoints_in_window"] == 3
        # derived figures agree with the counters they come from
        assert r["blks_read_per_transaction"] == pytest.approx(
            r["blks_read_per_s"] * r["window_s"] / r["transactions_in_window"], rel=5e-3
        )
        by_table = r["blks_read_per_new_order_by_table"]
        assert sum(by_table.values()) == pytest.approx(r["blks_read_per_new_order"], rel=0.01), rid
    for rid, (stock, customer) in REPORT_T2.items():
        by_table = runs[rid]["blks_read_per_new_order_by_table"]
        assert (round(by_table["stock"], 2), round(by_table["customer"], 2)) == (stock, customer)
    assert runs["r01_sb128MB_vu4"]["active_warehouses_observed_note"]
    assert runs["r01_sb128MB_vu4"]["autovacuums_in_window"] is None
    assert runs["r15_sb1GB_vu4_rep2"]["autoanalyzes_in_window"] == 19


def test_blocks_written_per_transaction_reproduce_the_reports_curve():
    """T0's means over repeats: home 128 MiB 5.67, home 4.5 GiB 0.78, all warehouses 4.5 GiB 3.89."""
    runs = _runs()
    mean = lambda *ids: np.mean([runs[i]["blocks_written_per_transaction"] for i in ids])
    assert mean("r01_sb128MB_vu4", "r14_sb128MB_vu4_rep2") == pytest.approx(5.67, abs=0.01)
    assert mean("r06_sb4608MB_vu4", "r13_sb4608MB_vu4_rep2") == pytest.approx(0.78, abs=0.01)
    assert mean("r11_sb4608MB_vu4_allwh") == pytest.approx(3.89, abs=0.01)


# ---------------------------------------------------------------- the geometries

#: SQL Server's pages per warehouse and rows per page as the schema gives them (docs/model.md:
#: "a warehouse holds 4,000 stock pages, 2,727 customer pages")
SQL_SERVER_ROWS_PER_PAGE = {
    "warehouse": 1,
    "district": 1,
    "customer": 11,
    "stock": 25,
    "orders": 245,
    "order_line": 122,
    "new_order": 449,
    "history": 137,
    "item": 85,
}


def test_sql_server_geometry_is_exactly_the_schemas():
    g = oltp.SQL_SERVER_GEOMETRY
    assert g.engine == "sql-server"
    assert g.pages_per_warehouse == oltp.pages_per_warehouse()
    for t, rpp in SQL_SERVER_ROWS_PER_PAGE.items():
        assert g.rows_per_page[t] == oltp.rows_per_page(t) == rpp, t
        if t != "item":
            assert g.pages_per_warehouse[t] == oltp.SCHEMA[t][0] / rpp, t
    assert g.pages_per_warehouse["stock"] == 4000.0
    assert round(g.pages_per_warehouse["customer"]) == 2727
    assert g.pages_per_warehouse["customer_index"] == 30_000 / 161
    assert g.pages_per_warehouse["orders_index"] == 30_000 / 368
    assert g.item_pages == oltp.item_pages() == 100_000 / 85
    assert g.append_rows_per_page == {t: SQL_SERVER_ROWS_PER_PAGE[t] for t in oltp.APPENDED_TABLES}
    assert g.key_index_pages_per_warehouse == {} and g.key_index_pages_shared == {}
    assert g.aged_index_pages == 0.0 and g.tail_pages_per_district == 4


def test_the_default_shape_is_sql_server_and_naming_it_changes_nothing():
    args = (50.0, 8.0, 400.0, 16.0, False, "hammerdb", 60.0, 32)
    default = oltp.buffer_model(oltp.OltpShape(*args), 2000.0)
    named = oltp.buffer_model(oltp.OltpShape(*args, geometry=oltp.SQL_SERVER_GEOMETRY), 2000.0)
    assert oltp.OltpShape(*args).geometry is oltp.SQL_SERVER_GEOMETRY
    assert default == named
    # the model's own draw of active warehouses, given back as known, gives the same figures
    known = oltp.buffer_model(oltp.OltpShape(*args, known_active_warehouses=default["active_warehouses"]), 2000.0)
    assert known["reads"] == pytest.approx(default["reads"], rel=1e-12)


def test_page_weights_keep_the_whole_row_path_and_split_straddling_rows():
    pmf = oltp.nurand_pmf(255, 0, 999, 123)
    whole = oltp.page_weights(pmf, 7)
    assert np.array_equal(whole, oltp.page_weights(pmf, 7.0))
    frac = oltp.page_weights(pmf, 7.5)
    assert len(frac) == math.ceil(1000 / 7.5) and frac.sum() == pytest.approx(1.0, abs=1e-12)
    assert frac[0] == pytest.approx(pmf[:7].sum() + 0.5 * pmf[7])


def _pg_geometry():
    return heldout.geometry()


def test_postgresql_page_counts_reproduce_the_measured_sizes():
    doc = heldout.load()
    tables, W = doc["schema"]["tables"], doc["schema"]["warehouses"]
    g = _pg_geometry()
    block = oltp.PG_BLOCK_BYTES
    for t in oltp.GEOMETRY_TABLES:
        assert g.pages_per_warehouse[t] * W * block / 1e9 == pytest.approx(tables[t]["heap_gb"], rel=1e-12), t
        assert g.rows_per_page[t] * g.pages_per_warehouse[t] == pytest.approx(oltp.SCHEMA[t][0], rel=1e-12), t
    assert g.item_pages * block / 1e9 == pytest.approx(tables["item"]["heap_gb"], rel=1e-12)
    assert round(g.pages_per_warehouse["stock"]) == 4172  # 4 % more than SQL Server's 4,000
    # the customer and orders index sizes are split between their two indexes, nothing lost
    cust = (g.pages_per_warehouse["customer_index"] + g.key_index_pages_per_warehouse["customer"]) * W * block / 1e9
    assert cust == pytest.approx(tables["customer"]["index_gb"], rel=1e-9)
    assert g.key_index_pages_shared["stock"] * block / 1e9 == pytest.approx(tables["stock"]["index_gb"], rel=1e-9)
    assert g.key_index_pages_shared["item"] * block / 1e9 == pytest.approx(tables["item"]["index_gb"], rel=1e-9)
    assert g.aged_index_pages == 1.0
    # appending creates heap and key-index pages: fewer rows per new page than the heap alone
    for t in ("orders", "order_line", "new_order"):
        assert g.append_rows_per_page[t] < g.rows_per_page[t], t
    assert g.append_rows_per_page["history"] == pytest.approx(g.rows_per_page["history"])
    with pytest.raises(ValueError, match="stock"):
        oltp.postgresql_geometry({"item": 1.0}, {"item": 1.0}, 40)


def test_the_index_split_assumption_holds_where_it_can_be_checked():
    """The leaf-entry widths that split customer's and orders' index sizes also predict the single-index
    tables' measured index sizes (B-tree leaves at the 90 % fill CREATE INDEX and rightmost splits
    leave) within 3 %. stock_i1 is the exception: built row by row in warehouse order while its key
    leads with the item, its leaves are about a third emptier; the model uses its measured size."""
    tables = heldout.load()["schema"]["tables"]
    counts = heldout.load()["schema"]["row_counts"]
    leaf_bytes = (8192 - 24 - 16) * 0.9  # page header and B-tree special space
    e = oltp.PG_LEAF_ENTRY_BYTES
    entry = {  # bytes per leaf entry (8-byte header + aligned key, padded to 8, + 4-byte line pointer)
        "customer": e["customer_i1"] + e["customer_i2"],
        "orders": e["orders_i1"] + e["orders_i2"],
        "new_order": 28,  # (no_w_id, no_d_id, no_o_id)
        "order_line": 28,  # (ol_w_id, ol_d_id, ol_o_id, ol_number)
        "item": 20,  # (i_id)
        "stock": 20,  # (s_i_id, s_w_id)
    }
    for t, b in entry.items():
        predicted = counts[t] * b / leaf_bytes
        measured = tables[t]["index_gb"] * 1e9 / 8192
        if t == "stock":
            assert measured / predicted == pytest.approx(1.36, abs=0.03)
        else:
            assert predicted == pytest.approx(measured, rel=0.03), t


# ---------------------------------------------------------------- invariants

POOLS_GB = np.geomspace(0.05, 8.0, 20)


def _pg_reads(pool_gb, users=4.0, all_warehouses=False, access="hammerdb"):
    shape = oltp.OltpShape(4.1, pool_gb, 40.0, users, all_warehouses, access, 60.0, 32, geometry=_pg_geometry())
    return oltp.buffer_model(shape, 1000.0)


@pytest.mark.parametrize("access", ["hammerdb", "tpcc"])
def test_reads_fall_as_the_pool_grows_and_all_warehouses_read_more(access):
    home = [_pg_reads(p, access=access) for p in POOLS_GB]
    allw = [_pg_reads(p, all_warehouses=True, access=access) for p in POOLS_GB]
    for series in (home, allw):
        reads = [b["reads"] for b in series]
        assert all(b <= a * (1 + 1e-9) + 1e-9 for a, b in itertools.pairwise(reads)), reads
        assert all(0.0 <= b["hit_ratio"] <= 1.0 and math.isfinite(b["reads"]) for b in series)
    for h, a in zip(home, allw):
        assert a["reads"] >= h["reads"] * (1 - 1e-9)


def test_the_key_index_leaves_add_reads_where_the_pool_is_short():
    """PostgreSQL's geometry reads key-index leaves as well as rows: at a pool below the hot set its
    misses exceed what SQL Server's clustered geometry gives for the same database."""
    pg = _pg_reads(0.25, all_warehouses=True)
    ss = oltp.buffer_model(oltp.OltpShape(4.1, 0.25, 40.0, 4.0, True, "hammerdb", 60.0, 32), 1000.0)
    assert pg["reads_by"]["stock_key"] > 0 and pg["reads"] > ss["reads"]


# ---------------------------------------------------------------- the held-out check

#: the measurement's own spread: repeats with other random home warehouses differ by up to this
#: in reads per transaction (the report's "within ~10 %")
REPEAT_TOLERANCE_PCT = max(s["spread_pct"] for s in heldout.repeat_spread())
#: what the model achieves (read off the check; never tuned): all warehouses, pool below the hot
#: set, |error| at most 62.0 %; home-warehouse mode from 256 MiB, at most 81.4 % (either
#: active-warehouse count); above the hot set the model is low by at most 0.69 reads/txn.
#: Re-read after the Delivery walk (branch dbfix): before it, 25.3 % and 30.7 %, because the
#: Delivery's overcounted re-reads (4.5 orders and order-line pages per New-Order) made up for the
#: stock misses the model's knee leaves out from 256 MiB (see the stock-knee xfail below)
ALL_WAREHOUSES_PCT = 62.0
HOME_FROM_256_MIB_PCT = 81.4
ABOVE_HOT_SET_READS_PER_TXN = 0.69


def _rows():
    return heldout.rows()


def test_the_repeat_spread_is_the_reports():
    assert 10.0 <= REPEAT_TOLERANCE_PCT <= 15.0
    assert {s["shared_buffers_mib"] for s in heldout.repeat_spread()} == {128, 1024, 2048, 4608}


def test_every_run_is_predicted_and_every_null_says_why():
    rows = _rows()
    assert len(rows) == 17
    for r in rows:
        for k, v in r.items():
            if v is None:
                assert r.get(f"{k}_note"), (r["run_id"], k)
        assert 0.0 <= r["predicted_hit_ratio"] <= 1.0 and 0.0 <= r["predicted_hit_ratio_on_measured_accesses"] <= 1.0
    regimes = {(r["mode"], r["regime"]) for r in rows}
    assert regimes == {(m, g) for m in heldout.MODES for g in heldout.REGIMES}


def test_all_warehouses_below_the_hot_set_within_the_achieved_band():
    sel = [r for r in _rows() if r["mode"] == "all warehouses" and r["regime"] == "pool < hot set"]
    assert len(sel) == 5
    for r in sel:
        for key in ("error_pct", "error_pct_observed_active"):
            assert abs(r[key]) <= ALL_WAREHOUSES_PCT + REPEAT_TOLERANCE_PCT, (r["run_id"], r[key])


def test_home_warehouse_from_256_mib_within_the_achieved_band():
    sel = [r for r in _rows() if r["mode"] == "home warehouse" and r["regime"] == "pool < hot set"]
    sel = [r for r in sel if r["shared_buffers_gb"] > 0.2]
    assert {r["run_id"] for r in sel} == {"r02_sb256MB_vu4", "r07_sb512MB_vu8"}
    for r in sel:
        for key in ("error_pct", "error_pct_observed_active"):
            assert abs(r[key]) <= HOME_FROM_256_MIB_PCT + REPEAT_TOLERANCE_PCT, (r["run_id"], r[key])


def test_home_warehouse_at_128_mib_within_the_same_band():
    """A strict xfail until the Delivery walk (branch dbfix): at 128 MiB the model predicted 19.0
    reads/txn (+86 %, +68 %), now 17.3 (+69 %, +52 %); it passes because the band it is compared with
    widened (the 256 MiB and 8-user runs are now 53-81 % low) as much as because it moved. The
    defect it stood for, the knee, is the stock xfail below."""
    sel = [r for r in _rows() if r["mode"] == "home warehouse" and r["shared_buffers_gb"] < 0.2]
    assert len(sel) == 2
    for r in sel:
        assert abs(r["error_pct"]) <= HOME_FROM_256_MIB_PCT + REPEAT_TOLERANCE_PCT, (r["run_id"], r["error_pct"])
        assert r["error_pct"] > 0  # still high: the knee


@pytest.mark.xfail(
    strict=True,
    reason="the model's knee is sharper than PostgreSQL's: in home-warehouse mode below the hot set its stock "
    "misses per New-Order (heap and stock_i1 leaves) are twice the measured at 128 MiB (34.4 against 15.6 and "
    "15.7) and a fraction of them from 256 MiB (2.6 against 9.1 at 256 MiB, 0.04 against 4.0 with 8 users "
    "at 512 MiB). Candidates: the Stock-Level rule (reads of just-updated stock hit only when younger than "
    "the LRU's characteristic time, 1.5 s against a 4 s span at 128 MiB) and PostgreSQL's clock sweep "
    "keeping pages pinned several times; PostgreSQL 15's counters cannot tell them apart",
)
def test_home_warehouse_stock_misses_within_a_factor_of_two_below_the_hot_set():
    sel = [r for r in _rows() if r["mode"] == "home warehouse" and r["regime"] == "pool < hot set"]
    assert len(sel) == 4
    for r in sel:
        ratio = (
            r["predicted_reads_per_new_order_by_table"]["stock"] / r["measured_reads_per_new_order_by_table"]["stock"]
        )
        assert 0.5 <= ratio <= 2.0, (r["run_id"], ratio)


def test_the_delivery_walk_brings_orders_and_order_line_reads_nearer_the_measured():
    """Not fully out of sample: these runs are where the Delivery overcount was seen (the 2 GiB
    all-warehouse run: 1.96 predicted against 0.38 measured orders and order-line reads per
    transaction). With the pool below the hot set the predicted orders, order-line and orders-index
    reads per New-Order are never above the measured (the model leaves out PostgreSQL's counting of
    new pages as reads and orders_i2's inserts at random leaves), and their median error is smaller
    than the same model's without the walk (each aged order's pages all read: 1.19 against 2.66)."""
    doc = heldout.load()
    geo = _pg_geometry()
    runs = {r["run_id"]: r for r in doc["runs"]}
    walk, no_walk = [], []
    for r in _rows():
        if r["regime"] != "pool < hot set":
            continue
        run = runs[r["run_id"]]
        b = heldout.predict(run, geo, doc["schema"]["db_size_gb"])
        new_orders_per_s = run["new_orders_in_window"] / run["window_s"]
        deliveries_per_s = r["transactions_per_s"] * oltp.MIX["delivery"] * oltp.DISTRICTS
        extra = b["delivery_order_aged"] * b["delivery_pages_per_order"] - b["delivery_reads_per_order"]
        pred = r["predicted_reads_per_new_order_by_table"]["orders_and_order_line"]
        meas = r["measured_reads_per_new_order_by_table"]["orders_and_order_line"]
        assert pred <= meas, r["run_id"]
        walk.append(abs(pred - meas))
        no_walk.append(abs(pred + deliveries_per_s * extra / new_orders_per_s - meas))
    assert len(walk) == 9
    assert statistics.median(walk) < statistics.median(no_walk)


def test_above_the_hot_set_the_model_is_low_by_what_it_leaves_out():
    """Autovacuum, analyze and new pages are not in the model: it is low in every run with the pool
    above the hot set, by no more than the achieved margin (with the repeat tolerance)."""
    sel = [r for r in _rows() if r["regime"] == "pool >= hot set"]
    assert len(sel) == 8
    limit = ABOVE_HOT_SET_READS_PER_TXN * (1 + REPEAT_TOLERANCE_PCT / 100)
    for r in sel:
        assert r["error_pct"] is None and "floor" in r["error_pct_note"]
        for key in ("error_reads_per_txn", "error_reads_per_txn_observed_active"):
            assert -limit <= r[key] < 0.0, (r["run_id"], r[key])
    # where the pool holds the whole database, what remains is of the order of the new pages the
    # model appends (PostgreSQL counts a relation extension as a block read)
    big = [r for r in sel if r["pool_over_db_size"] >= 1.0]
    for r in big:
        assert 0.5 < r["model_appended_pages_per_txn"] / r["measured_reads_per_txn"] < 1.0


def test_the_draw_of_home_warehouses_is_not_where_the_error_is():
    rows = [r for r in _rows() if r["predicted_reads_per_txn_observed_active"] is not None]
    shift = max(abs(r["predicted_reads_per_txn_observed_active"] - r["predicted_reads_per_txn"]) for r in rows)
    assert shift < 0.25


def test_the_summary_groups_every_run_once():
    groups = heldout.summary()
    assert sum(g["runs"] for g in groups) == 17
    allw = next(g for g in groups if g["mode"] == "all warehouses" and g["regime"] == "pool < hot set")
    assert allw["rel_error_pct"]["max"] <= ALL_WAREHOUSES_PCT


# ---------------------------------------------------------------- the docs quote the check


def _script(name):
    spec = importlib.util.spec_from_file_location(f"_{name}", ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _text(name: str) -> str:
    return " ".join((ROOT / "docs" / name).read_text(encoding="utf-8").split())


def test_the_accuracy_page_generates_the_table():
    page = (ROOT / "docs" / "accuracy.md").read_text(encoding="utf-8")
    assert "<!-- hciplan:oltp-postgres -->" in page and "| run | mode | pool GB" not in page
    rendered = _script("mkdocs_hooks").render("<!-- hciplan:oltp-postgres -->\n")
    assert rendered.strip() == _script("oltp_postgres_table").render().strip()


def test_the_prose_quotes_the_check_as_it_stands():
    rows = _rows()
    allw = [r["error_pct"] for r in rows if r["mode"] == "all warehouses" and r["error_pct"] is not None]
    home = [
        r[k]
        for r in rows
        if r["mode"] == "home warehouse" and r["regime"] == "pool < hot set" and r["shared_buffers_gb"] > 0.2
        for k in ("error_pct", "error_pct_observed_active")
    ]
    small = sorted(
        (r for r in rows if r["mode"] == "home warehouse" and r["shared_buffers_gb"] < 0.2),
        key=lambda r: r["measured_reads_per_txn"],
    )
    above = [-r["error_reads_per_txn"] for r in rows if r["regime"] == "pool >= hot set"]
    acc, model = _text("accuracy.md"), _text("model.md")
    assert f"are {-min(allw):.0f} % low to {max(allw):.0f} % high (five runs)" in acc
    assert f"from {-min(allw):.0f} % low to {max(allw):.0f} % high" in model
    assert f"are {-max(home):.0f}-{-min(home):.0f} % low at 256 MiB and with 8 users" in acc
    assert f"{-max(home):.0f}-{-min(home):.0f} % low in home-warehouse mode from 256 MiB" in model
    lo, hi = sorted(r["error_pct"] for r in small)
    assert f"{lo:.0f}-{hi:.0f} % high at 128 MiB" in model and f"{lo:.0f}-{hi:.0f} % high at 128 MiB" in acc
    # the Delivery walk: the orders and order-line reads per New-Order below the hot set
    short_no = [r for r in rows if r["regime"] == "pool < hot set"]
    pred = [r["predicted_reads_per_new_order_by_table"]["orders_and_order_line"] for r in short_no]
    meas = [r["measured_reads_per_new_order_by_table"]["orders_and_order_line"] for r in short_no]
    assert f"PostgreSQL read {min(meas):.2f}-{max(meas):.2f} (median {statistics.median(meas):.2f})" in acc
    assert f"time: {min(pred):.2f}-{max(pred):.2f}, never above the measured" in acc
    assert f"median error {statistics.median(abs(p - m) for p, m in zip(pred, meas)):.2f} against" in acc
    assert (
        f"predicts {small[0]['predicted_reads_per_txn']:.1f} reads per transaction where "
        f"{small[0]['measured_reads_per_txn']:.1f} and {small[1]['measured_reads_per_txn']:.1f} were measured"
    ) in acc
    span = f"{min(above):.2f}-{max(above):.2f} reads per transaction"
    assert f"low in every run, by {span}" in acc and span in model
    big = [r for r in rows if r["pool_over_db_size"] >= 1.0]
    assert f"appended pages are {big[0]['model_appended_pages_per_txn']:.3f} per transaction" in acc
    m = sorted(r["measured_reads_per_txn"] for r in big)
    assert f"of {m[0]:.3f}-{m[-1]:.3f} measured" in acc
    shift = max(
        abs(r["predicted_reads_per_txn_observed_active"] - r["predicted_reads_per_txn"])
        for r in rows
        if r["predicted_reads_per_txn_observed_active"] is not None
    )
    assert f"at most {shift:.2f} reads per transaction" in acc
    accesses = [r["measured_buffer_accesses_per_txn"] for r in rows]
    assert f"({min(accesses):.0f}-{max(accesses):.0f})" in acc
    assert f"one access per row lookup ({rows[0]['model_logical_reads_per_txn']:.0f} per transaction)" in acc
    gap = max(abs(r["predicted_hit_ratio_on_measured_accesses"] - r["measured_hit_ratio"]) for r in rows)
    assert f"within {math.ceil(gap * 100) / 100:.2f} of the measured" in acc
    short = [r for r in rows if r["regime"] == "pool < hot set"]
    ss = [100 * (1 - r["predicted_reads_per_txn_sql_server_geometry"] / r["measured_reads_per_txn"]) for r in short]
    assert f"predicted {min(ss):.0f}-{max(ss):.0f} % low with the pool below the hot set" in acc
    writes = [100 * (1 - r["predicted_page_writes_per_txn"] / r["measured_blocks_written_per_txn"]) for r in rows]
    assert f"{min(writes):.0f}-{max(writes):.0f} % below the blocks PostgreSQL wrote" in acc
    # the characteristic time and the Stock-Level span the xfail's reason and the page quote
    r01 = heldout.load()["runs"][0]
    b = heldout.predict(r01, _pg_geometry(), 4.1)
    per_district = heldout.transactions_per_s(r01) / b["active_warehouses"] * oltp.MIX["new_order"] / oltp.DISTRICTS
    assert (
        f"{b['characteristic_time_s']:.1f} s there against a {oltp.STOCK_LEVEL_ORDERS / per_district:.0f} s span" in acc
    )


# ---------------------------------------------------------------- the geometry the product runs


def test_the_shipped_geometrys_error_is_rendered_labelled_and_low_below_the_hot_set():
    """DBA review 2026-11-30: the page rendered only the PostgreSQL geometry's table (the check's own, which no
    command or page can select) and said the shipped geometry's error in one sentence. Both are rendered, each
    labelled with its geometry and which the product runs; the shipped one is low on every run below the hot set."""
    table = _script("oltp_postgres_table")
    page = (ROOT / "docs" / "accuracy.md").read_text(encoding="utf-8")
    assert "<!-- hciplan:oltp-postgres-sql-server -->" in page
    # the page's own PostgreSQL tables, rendered as the site renders them (the whole page, every other table with it,
    # took 30-47 s and is rendered by tests/test_docs.py already)
    rendered = _script("mkdocs_hooks").render(
        "\n\n".join(line.strip() for line in page.splitlines() if line.strip().startswith("<!-- hciplan:oltp-postgres"))
    )
    assert table.POSTGRESQL_LABEL in rendered and table.SQL_SERVER_LABEL in rendered
    assert "no command or page can select it" in table.POSTGRESQL_LABEL
    assert "the translation every command and page runs" in table.SQL_SERVER_LABEL
    assert table.render_sql_server().strip() in rendered
    rows = _rows()
    below = [r for r in rows if r["regime"] == "pool < hot set"]
    assert len(below) == 9 and all(r["error_pct_sql_server_geometry"] < 0 for r in below)
    assert all(r["error_reads_per_txn_sql_server_geometry"] < 0 for r in rows)
    lo, hi, runs = heldout.shipped_reads_error_pct()
    assert (lo, hi, runs) == (
        min(r["error_pct_sql_server_geometry"] for r in below),
        max(r["error_pct_sql_server_geometry"] for r in below),
        9,
    )
    for g in heldout.sql_server_summary(rows):
        if g["regime"] == "pool < hot set":
            assert f"| {g['rel_error_pct_min']:+.0f} % to {g['rel_error_pct_max']:+.0f} % ({g['runs']}) |" in rendered
    acc = _text("accuracy.md")
    assert f"predicted {-hi:.0f}-{-lo:.0f} % low with the pool below the hot set, every one of them low" in acc
    assert f"over which the same runs are predicted {-hi:.0f}-{-lo:.0f} % low with the pool below" in _text("model.md")


def test_limits_states_the_shipped_translations_error_and_the_managed_instance_check():
    """limits.md gave the PostgreSQL geometry's range as "the database translation"'s error; it states the shipped
    geometry's, that no SQL Server read measurement exists, and the Managed Instance check's result."""
    from planner.calibration import mi_heldout as mi

    text = _text("limits.md")
    lo, hi, _ = heldout.shipped_reads_error_pct()
    assert (
        f"puts buffer misses per transaction {-hi:.0f}-{-lo:.0f} % low on every run with the pool below the hot" in text
    )
    assert "no SQL Server run measuring reads or writes per transaction was found" in text
    assert "`db-io`'s `band_note` says why" in text
    table = mi.rows()
    s = mi.summary(table)
    med = sorted((s["low_latency_model"]["median_abs_error_pct"], s["high_latency_model"]["median_abs_error_pct"]))
    top = sorted((s["low_latency_model"]["max_abs_error_pct"], s["high_latency_model"]["max_abs_error_pct"]))
    assert f"judged on {s['runs']} published HammerDB runs on Azure SQL Managed" in text
    assert f"a median of {med[0]:.0f}-{med[1]:.0f} % and at most {top[0]:.0f}-{top[1]:.0f} %" in text
    done = [r for r in table if r["compared"]]
    iops = [r for r in done if r["low_latency"]["binding"] == r["high_latency"]["binding"] == "data file IOPS"]
    rest = [r for r in done if r not in iops]
    e_iops = [-r[end]["error_pct"] for r in iops for end in ("low_latency", "high_latency")]
    e_rest = [r[end]["error_pct"] for r in rest for end in ("low_latency", "high_latency")]
    assert f"{min(e_iops):.0f}-{max(e_iops):.0f} % low on the {len(iops)} runs whose small" in text
    assert f"from {-min(e_rest):.0f} % low to {max(e_rest):.0f} % high on the {len(rest)} others" in text
    inside = max(s["low_latency_within_published"], s["high_latency_within_published"])
    assert f"at most {inside} of the {s['runs']} falls inside" in text


def test_db_io_says_its_figures_carry_no_band_and_why(tmp_path, capsys):
    """DBA review 2026-11-30: `db-io` gave reads and writes per transaction with no band and no word of why."""
    import json

    from planner.cli import main

    assert main(["db-io", str(ROOT / "examples" / "db-oltp-hammerdb.json")]) == 0
    note = json.loads(capsys.readouterr().out)["band_note"]
    lo, hi, runs = heldout.shipped_reads_error_pct()
    assert note.startswith("no band on the reads, writes or IOPS: no SQL Server run measures")
    assert f"{runs} HammerDB runs on PostgreSQL 15" in note and f"{-hi:.0f}-{-lo:.0f} % low" in note
