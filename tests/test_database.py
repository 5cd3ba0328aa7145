"""The database layer: one schema for a database, the IO its workload implies (page-level
model of HammerDB TPROC-C), its CPU, and the most a design sustains of it."""

from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from planner.cli import main
from planner.models import oltp
from planner.models.database import (
    Database,
    as_demand_fields,
    as_workload,
    cpu_us_per_txn,
    io_demand,
    io_shape,
    load_database,
)
from planner.models.database import shape_of as oltp_shape

EX = Path(__file__).resolve().parent.parent / "examples"


def db(**kw) -> Database:
    return Database(**({"name": "db", "size_gb": 1000, "buffer_pool_gb": 128, "nopm": 200_000} | kw))


# ------------------------------------------------ the schema (issue 23 #5: one schema everywhere)
def test_one_schema_takes_a_workload_or_an_io_shape_and_gb_or_tb():
    io = Database(size_tb=4, block_size_kib=4, read_fraction=1.0, vcpus=16, threads=4, outstanding_per_thread=16)
    assert io.data_gb == 4000 and not io.has_workload and io_shape(io) == (4, 1.0, 1.0)
    assert Database(size_gb=2, block_size_kib=8).data_gb == 2  # what `sla --database` refused with a traceback
    wl = db()
    assert wl.has_workload and wl.vm("vcpus") == 16 and wl.outstanding == 64  # the VM's defaults
    assert io_shape(wl)[0] == pytest.approx(io_demand(wl).block_size_kib)


@pytest.mark.parametrize(
    "fields,msg",
    [
        ({"size_gb": 1, "size_tb": 1}, "size_gb (decimal GB) or size_tb"),
        ({}, "size_gb (decimal GB) or size_tb"),
        ({"size_gb": 1, "nopm": 1, "tpm": 1, "buffer_pool_gb": 1}, "one of nopm"),
        ({"size_gb": 1, "nopm": 1}, "buffer_pool_gb is needed"),
        ({"size_gb": 1, "nopm": 1, "buffer_pool_gb": 1, "read_fraction": 0.5}, "not both"),
        ({"size_gb": 0}, "size_gb"),
        ({"size_tb": 0}, "size_tb"),
    ],
)
def test_bad_descriptions_name_the_field(fields, msg):
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match=re.escape(msg)):
        Database(**fields)


def test_cli_sla_database_in_gb_works_and_errors_name_the_field_typed(tmp_path, capsys):
    f = tmp_path / "db.json"
    f.write_text(json.dumps({"name": "tiny", "size_gb": 2, "block_size_kib": 8}))
    assert main(["sla", str(EX / "reference.json"), "--database", str(f)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["guaranteed_iops"] > 0 and out["iops_per_gb"] == pytest.approx(out["guaranteed_iops"] / 2)
    f.write_text(json.dumps({"size_gb": -1, "block_size_kib": 8}))
    assert main(["sla", str(EX / "reference.json"), "--database", str(f)]) == 2
    assert capsys.readouterr().err.startswith("error: database.size_gb: must be greater than or equal to 1 (got -1)")


# ------------------------------------------------ the model's parts
def test_nurand_is_exact_against_brute_force():
    a, b = np.arange(256), np.arange(0, 1000)
    brute = np.bincount((((a[:, None] | b[None, :]) + 123) % 1000).ravel(), minlength=1000) / (256 * 1000)
    assert np.abs(brute - oltp.nurand_pmf(255, 0, 999, 123)).max() < 1e-15


def test_tpm_per_nopm_follows_hammerdbs_mix_and_matches_every_published_pair():
    assert oltp.TPM_PER_NOPM == pytest.approx(23 / 10 / 0.99)
    doc = json.loads((Path(oltp.__file__).parent.parent / "data/benchmarks/database/results.json").read_text())
    for p in doc["hammerdb_tpm_nopm_pairs"]:
        assert p["tpm"] / p["nopm"] == pytest.approx(oltp.TPM_PER_NOPM, rel=0.01), p["id"]


def test_che_approximation_against_a_simulated_lru():
    """LRU hit ratios of independent requests over pages of two popularities (Che et al.
    2002): the characteristic-time approximation within 2 points of a simulated LRU."""
    from collections import OrderedDict

    rng = np.random.default_rng(1)
    hot, cold = 200, 4000
    rates = np.r_[np.full(hot, 20.0), np.full(cold, 1.0)]
    p = rates / rates.sum()
    cap = 1000
    t = oltp.che_time([20.0, 1.0], [hot, cold], cap)
    want = float(np.sum(p * -np.expm1(-rates * t)))
    cache: OrderedDict[int, None] = OrderedDict()
    hits = 0
    reqs = rng.choice(hot + cold, size=200_000, p=p)
    for i, r in enumerate(reqs):
        if r in cache:
            cache.move_to_end(r)
            hits += i >= 20_000
        else:
            cache[r] = None
            if len(cache) > cap:
                cache.popitem(last=False)
    assert hits / 180_000 == pytest.approx(want, abs=0.02)


def test_gathered_writes_match_a_simulated_sequence():
    rng = np.random.default_rng(2)
    for d, g in ((0.05, 32), (0.5, 32), (0.95, 32), (0.99, 8)):
        x = rng.random(400_000) < d
        ios, run = 0, 0
        for v in x:
            if v:
                run += 1
            elif run:
                ios += math.ceil(run / g)
                run = 0
        ios += math.ceil(run / g) if run else 0
        assert oltp.gathered_writes(len(x), d, g) == pytest.approx(ios, rel=0.02)


def test_append_point_writes_match_a_simulated_district():
    """A district's append point over many checkpoint intervals: Poisson orders, each adding k rows
    after the last, pages of R rows, dirty pages gathered up to G. Pages dirtied and writes per
    interval are what append_point_writes says, idle intervals costing nothing."""
    rng = np.random.default_rng(5)
    for m, k, R, G in ((0.2, 1, 245, 32), (1.83, 10, 122, 32), (4.0, 10, 122, 32), (300.0, 10, 122, 8)):
        intervals = 40_000 if m < 100 else 4_000
        row = int(rng.integers(R))  # rows already on the current page
        pages = writes = 0
        for n in rng.poisson(m, intervals):
            if n == 0:
                continue
            first = row // R
            row += n * k
            span = (row - 1) // R - first + 1
            pages += span
            writes += math.ceil(span / G)
        want_pages, want_writes = oltp.append_point_writes(m, k, R, G)
        assert pages / intervals == pytest.approx(want_pages, rel=0.03), (m, k)
        assert writes / intervals == pytest.approx(want_writes, rel=0.03), (m, k)


def _simulated_dirty_writes(interval_s: float, update_share: float) -> tuple[float, float, float]:
    """An LRU pool of 1,000 pages over 200 hot pages (20 requests/s) and 4,000 cold ones (1/s), each
    request an update with probability ``update_share``; a checkpoint every ``interval_s`` (phase at
    random) writes every dirty resident page, an evicted dirty page is written alone. Returns
    (checkpoint page writes/s, lazy-writer writes/s, the pool's characteristic time)."""
    from collections import OrderedDict

    rng = np.random.default_rng(7)
    hot, cold, cap, n = 200, 4000, 1000, 300_000
    rates = np.r_[np.full(hot, 20.0), np.full(cold, 1.0)]
    reqs = rng.choice(hot + cold, size=n, p=rates / rates.sum())
    updates = rng.random(n) < update_share
    times = np.cumsum(rng.exponential(1.0 / rates.sum(), n))
    warm, next_ckpt = times[n // 10], interval_s * (1.0 + rng.random())
    cache: OrderedDict[int, bool] = OrderedDict()
    ckpt = lazy = 0
    for r, upd, now in zip(reqs, updates, times, strict=True):
        while now >= next_ckpt:
            ckpt += sum(cache.values()) if next_ckpt > warm else 0
            cache = OrderedDict.fromkeys(cache, False)
            next_ckpt += interval_s
        if r in cache:
            cache.move_to_end(r)
            cache[r] = cache[r] or bool(upd)
        else:
            cache[r] = bool(upd)
            if len(cache) > cap and cache.popitem(last=False)[1] and now > warm:
                lazy += 1
    span = times[-1] - warm
    return ckpt / span, lazy / span, oltp.che_time([20.0, 1.0], [hot, cold], cap)


@pytest.mark.parametrize(
    "interval_s,update_share",
    [(0.1, 0.3), (0.2, 0.3), (0.3, 0.3), (1.0, 0.3), (3.0, 0.3), (1.0, 0.05), (3.0, 0.05), (0.3, 1.0), (3.0, 1.0)],
)
def test_the_lazy_writer_writes_only_the_pages_evicted_before_their_checkpoint(interval_s, update_share):
    """DBA review: the lazy writer wrote every update of a page the pool does not hold ((1 - h) mu),
    though a pool that keeps a page longer than the checkpoint interval has it checkpointed before it
    can be evicted. Against a simulated LRU with periodic checkpoints: no page evicted dirty while the
    characteristic time t is over the interval T (exactly), and each stream within 8 % otherwise (the
    rule before: 973 lazy writes a second where the simulation has none, 3,243 where it has 829, and
    checkpoint writes from 60 % under to 48 % over)."""
    ckpt, lazy, t = _simulated_dirty_writes(interval_s, update_share)
    rates, counts = np.array([20.0, 1.0]), np.array([200.0, 4000.0])
    upd = update_share * rates
    model_ckpt = float(np.sum(counts * oltp.dirty_at_checkpoint(rates, upd, t, interval_s))) / interval_s
    model_lazy = float(np.sum(counts * oltp.evicted_dirty_per_s(rates, upd, t, interval_s)))
    assert model_ckpt == pytest.approx(ckpt, rel=0.08)
    if t >= interval_s:
        assert lazy == 0 and model_lazy == 0
    else:
        assert model_lazy == pytest.approx(lazy, rel=0.08)


def test_the_lazy_writer_follows_the_checkpoint_interval_and_bursts_stay_on_the_checkpoints():
    """DBA review: `db-io examples/db-oltp-hammerdb.json` printed a lazy writer of 28,960 IOPS whatever
    the checkpoint interval (10, 60 or 1,800 s), though its pool keeps a page 157 s after its last use:
    at 10 and 60 s every dirtied page is checkpointed first, at 1,800 s most are evicted first. An
    automatic checkpoint's burst multiplies its own writes, not the lazy writer's."""
    base = load_database(EX / "db-oltp-hammerdb.json")
    t = oltp.buffer_model(oltp_shape(base), base.transactions_per_s)["characteristic_time_s"]
    assert 100 < t < 300
    lazy = {}
    for interval in (10.0, 60.0, 1800.0):
        d = io_demand(base.model_copy(update={"checkpoint_interval_s": interval}))
        lazy[interval] = {s.name: s for s in d.streams}["lazy writer"].iops
    assert lazy[10.0] == 0 and lazy[60.0] == 0
    assert lazy[1800.0] > 10_000
    auto = io_demand(base.model_copy(update={"checkpoint_interval_s": 1800.0, "checkpoint_mode": "automatic"}))
    s = {x.name: x for x in auto.streams}
    assert s["checkpoint writes"].peak_iops == pytest.approx(s["checkpoint writes"].iops * 180)
    assert s["lazy writer"].peak_iops == pytest.approx(s["lazy writer"].iops) and s["lazy writer"].iops > 0


def test_a_new_order_inserts_its_entry_into_orders_i2():
    """DBA review: New-Order's insert into the orders_i2 index (o_w_id, o_d_id, o_c_id, o_id) was neither
    a page read nor a dirtied page; HammerDB's SQL Server disk schema builds orders_i2 beside the
    clustered orders_i1 (mssqlsoltp.tcl, CreateIndexes), so each New-Order reads its customer's leaf and
    dirties it, and logs the entry."""
    # a pool that holds nothing beyond the resident pages: every leaf touched is read
    small = Database(name="s", size_gb=1000, buffer_pool_gb=1, nopm=20_000, warehouses=10_000)
    b = oltp.buffer_model(oltp_shape(small), small.transactions_per_s)
    assert b["characteristic_time_s"] < 1e-3
    m = oltp.MIX
    x = small.transactions_per_s
    assert b["reads_by"]["orders_index"] == pytest.approx(x * (m["new_order"] + m["order_status"]), rel=1e-3)
    assert b["reads_per_call"]["new_order"] == pytest.approx(2 * oltp.ORDER_LINES + 2, rel=1e-3)
    # a pool that holds it all: each leaf dirtied in an interval written once
    big = Database(name="b", size_gb=50, buffer_pool_gb=100, nopm=500_000)
    shape = oltp_shape(big)
    b = oltp.buffer_model(shape, big.transactions_per_s)
    leaves = round(oltp.pages_per_warehouse()["orders_index"])
    per_leaf = big.transactions_per_s / shape.warehouses * m["new_order"] / leaves
    T = big.checkpoint_interval_s
    want = shape.warehouses * leaves * -math.expm1(-per_leaf * T) / T
    assert b["class_page_writes_by"]["orders_index"] == pytest.approx(want, rel=1e-9) and want > 0
    entry = oltp.row_log_bytes(oltp.ORDERS_I2_ENTRY_BYTES)
    assert oltp.ORDERS_I2_ENTRY_BYTES == 14 and entry <= oltp.LOG_BYTES["new_order"]


def test_the_log_bytes_said_are_the_log_bytes_used_and_follow_the_measured_record():
    """DBA review: the printed source said "New-Order 2,820" where the code used 2,800, and 1,983 bytes per TPM
    transaction sat at or below the low end for TPROC-C on SQL Server (a 60-byte record header). The source is
    now written from the constants, and each row change logs the record fn_dblog shows for a row insert on SQL
    Server 2008 R2: 124 bytes for a 32-byte row (62 fixed, 10 of lengths, 20 of lock information), an
    update its changed bytes before and after."""
    from planner.models.database import SOURCES

    assert oltp.row_log_bytes(32) == 124
    assert oltp.update_log_bytes(8) == oltp.LOG_RECORD_OVERHEAD_BYTES + 16
    said = SOURCES["log_bytes_per_txn"]
    for k, name in (("new_order", "New-Order"), ("payment", "Payment"), ("delivery", "Delivery")):
        assert f"{name} {oltp.LOG_BYTES[k]:,.0f}" in said
    per_call = sum(oltp.MIX[k] * oltp.LOG_BYTES[k] for k in oltp.MIX)
    assert f"{per_call:,.0f} over the driver's mix" in said
    d = io_demand(load_database(EX / "db-oltp-hammerdb.json"))
    used = {a["field"]: a for a in d.assumptions}["log_bytes_per_txn"]
    assert used["value"] == pytest.approx(per_call) and f"{used['value']:,.0f}" in used["source"]
    # a New-Order's rows: its district, 10 stock rows and order lines, its order, new order and orders_i2 entry
    assert oltp.LOG_BYTES["new_order"] == pytest.approx(3_101) and per_call == pytest.approx(2_260.9, abs=0.1)


def test_the_checkpoint_and_read_ahead_rules_say_what_runs_and_every_field_is_described():
    """DBA review: the rule printed "indirect checkpoints every 60 s" (indirect checkpoints write continuously to a
    recovery-time target, TARGET_RECOVERY_TIME), the read-ahead rule "up to 64 pages (512 KB)" whatever
    read_ahead_kib, and `schema database` left sql_server_version, read_ahead_kib, backup_io_kib, read_fraction,
    random_fraction, latency_statistic undescribed and outstanding_per_thread as "default 16"."""
    rule = lambda d, name: {s.name: s for s in io_demand(d).streams}[name].rule
    indirect = rule(db(checkpoint_interval_s=90), "checkpoint writes")
    assert "every" not in indirect and "continuously to a 90 s recovery-time target (TARGET_RECOVERY_TIME)" in indirect
    automatic = rule(db(sql_server_version=2014), "checkpoint writes")
    assert automatic.startswith("automatic checkpoints about every 60 s (the recovery interval)")
    assert "written within 10 s" in automatic and "32 pages" in automatic
    assert "8 pages (64 KiB) an IO" in rule(db(scan_mb_s=10, read_ahead_kib=64), "read-ahead")
    assert "64 pages (512 KiB) an IO" in rule(db(scan_mb_s=10), "read-ahead")
    fields = Database.model_json_schema()["properties"]
    bare = [k for k, v in fields.items() if not v.get("description")]
    assert bare == []
    assert "TARGET_RECOVERY_TIME" in fields["checkpoint_interval_s"]["description"]
    assert "recovery interval" in fields["checkpoint_interval_s"]["description"]
    assert fields["outstanding_per_thread"]["description"] != "default 16"


def test_sla_takes_the_designs_predicted_log_latency_wherever_a_design_is_given(capsys):
    """DBA review: `sla --database` printed a demand whose log writes were "at 1 ms" (1,000 flushes a second) with
    the source "the design's predicted write latency", beside a database_capacity whose IO used 0.632 ms. One rule:
    with a design, its predicted write latency; the 1 ms assumption is said as one only where no design is given."""
    from planner.commercial.database import predicted_log_latency_ms
    from planner.models.design import load_design

    design = load_design(EX / "seed-datrium-dvx.json")
    database = load_database(EX / "db-seed-datrium.json")
    lat = predicted_log_latency_ms(design, database)
    assert lat is not None and 0.1 < lat < 5.0 and lat != 1.0
    assert main(["sla", str(EX / "seed-datrium-dvx.json"), "--database", str(EX / "db-seed-datrium.json")]) == 0
    out = json.loads(capsys.readouterr().out)
    for io in (out["demand"], out["database_capacity"]["io"]):
        used = {a["field"]: a for a in io["assumptions"]}["log_write_latency_ms"]
        log = {s["name"]: s for s in io["streams"]}["log writes"]["rule"]
        assert "the design's predicted write latency" in used["source"] and "assumption of 1 ms" not in used["source"]
        assert f"at {used['value']:.3g} ms a flush (the design's predicted write latency)" in log
    demand_lat = {a["field"]: a for a in out["demand"]["assumptions"]}["log_write_latency_ms"]["value"]
    assert demand_lat == pytest.approx(lat)
    # no design: the assumption, said as one
    assert main(["db-io", str(EX / "db-seed-datrium.json")]) == 0
    alone = json.loads(capsys.readouterr().out)
    used = {a["field"]: a for a in alone["assumptions"]}["log_write_latency_ms"]
    assert used["value"] == 1.0 and used["source"].startswith("no design given: an assumption of 1 ms")
    assert (
        "at 1 ms a flush (no design given: assumed)" in {s["name"]: s for s in alone["streams"]}["log writes"]["rule"]
    )


def test_fewer_orders_per_district_fewer_tail_writes_at_most_one_per_point():
    """Issue 24 section 1, found in round three: a district's order tails were written every interval
    whatever its rate. Now an append point is written in an interval only if an order (a
    Delivery) reached it: fewer orders per district per interval, fewer writes, never more than
    one per point while its pages fit one gathered write, and 1 - exp(-orders) of one at low rates."""
    per_point = [oltp.append_point_writes(m, 10, 122, 32)[1] for m in (0.0, 0.05, 0.2, 1.0, 1.83, 5.0, 50.0)]
    assert per_point[0] == 0.0 and all(a < b for a, b in itertools.pairwise(per_point))
    assert all(w <= 1.0 + 1e-12 for w in per_point[:-1])
    assert per_point[2] == pytest.approx(-math.expm1(-0.2), rel=1e-9)
    # the whole database: per district and interval at most one write per append point (3 tails,
    # the backlog head, the delivered orders and lines) plus a tenth of the warehouse's history tail
    T, W = 60.0, 10_000
    prev = None
    for nopm in (400_000, 183_000, 20_000, 2_000):
        tps = nopm * oltp.TPM_PER_NOPM / 60
        shape = oltp.OltpShape(1000.0, 230.0, W, None, True, "hammerdb", T, 32)
        b = oltp.buffer_model(shape, tps)
        per_district = b["append_point_write_ios"] * T / (W * oltp.DISTRICTS)
        assert per_district <= 6 + 0.1 + 1e-9
        lam = nopm / (W * oltp.DISTRICTS) * (1 - oltp.NEW_ORDER_ROLLBACK) ** -1 * T / 60
        assert per_district >= 6 * -math.expm1(-lam) * 0.9  # each point's chance of an order, or more
        if prev is not None:
            assert per_district < prev
        prev = per_district
    # demand-hammerdb's rate (20,000 NOPM on 10,000 warehouses): 0.18 of a write per point, not 1
    b = oltp.buffer_model(
        oltp.OltpShape(1000.0, 128.0, W, None, True, "hammerdb", T, 128), 20_000 * oltp.TPM_PER_NOPM / 60
    )
    assert b["append_point_write_ios"] * T / (W * oltp.DISTRICTS) == pytest.approx(6.1 * 0.18, rel=0.1)


@pytest.mark.parametrize("geometry", ["sql-server", "postgresql"])
def test_delivery_reads_fall_as_the_buffer_grows_and_never_exceed_the_pages_it_touches(geometry):
    """A district's Deliveries take its orders one after the other (HammerDB's DELIVERY: the oldest
    new order of each district), so an aged order's pages were mostly touched by the district's
    previous Delivery: what a Delivery reads falls as the buffer grows, and never exceeds the pages
    its orders and lines lie on (the count before this rule)."""
    from planner.calibration import oltp_heldout

    geo = oltp_heldout.geometry() if geometry == "postgresql" else oltp.SQL_SERVER_GEOMETRY
    size, W = (4.1, 40.0) if geometry == "postgresql" else (1000.0, 10_000.0)
    tps = 1000.0 if geometry == "postgresql" else 183_000 * oltp.TPM_PER_NOPM / 60
    calls, per_order = [], []
    for pool in np.geomspace(size / 40, size * 2, 14):
        b = oltp.buffer_model(oltp.OltpShape(size, pool, W, None, True, "hammerdb", 60.0, 32, geometry=geo), tps)
        aged = b["delivery_order_aged"]
        assert 0.0 <= b["delivery_reads_per_order"] <= aged * b["delivery_pages_per_order"] + 1e-12
        calls.append(b["reads_per_call"]["delivery"])
        per_order.append(b["delivery_reads_per_order"])
    assert all(b <= a * (1 + 1e-9) + 1e-12 for a, b in itertools.pairwise(calls)), calls
    assert all(b <= a * (1 + 1e-9) + 1e-12 for a, b in itertools.pairwise(per_order)), per_order
    assert calls[-1] < 1e-6 and max(per_order) > 0
    # the walk's pages: a new page per 245 orders and per 12 orders' lines (SQL Server)
    assert oltp.delivery_walk_reads(2.0, 0.1, 1.0, math.inf) == 0.1
    assert oltp.delivery_walk_reads(2.0, 0.1, 1.0, 0.0) == 2.0
    assert oltp.delivery_walk_reads(2.0, 3.0, 1.0, 5.0) == 2.0  # never more than the pages touched


def test_the_walk_removes_about_0_9_of_7_9_reads_per_call_at_dataons_pool():
    """The seeds review's estimate (round three): at DataON's 230 GB pool on 1 TB, about 0.9 of 7.7
    reads per call were Delivery re-reads of pages the district's previous Delivery had just read; 7.9
    since New-Order reads its customer's orders_i2 leaf to insert its order's entry (DBA review)."""
    d = load_database(EX / "db-seed-dataon.json").model_copy(update={"nopm": 183_000.0})
    b = oltp.buffer_model(oltp_shape(d), d.transactions_per_s)
    saved = oltp.MIX["delivery"] * oltp.DISTRICTS * (b["delivery_pages_per_order"] - b["delivery_reads_per_order"])
    assert b["delivery_order_aged"] == 1.0
    assert saved == pytest.approx(0.9, abs=0.1)
    assert b["reads"] / d.transactions_per_s + saved == pytest.approx(7.9, abs=0.1)


def test_the_miss_ratio_falls_about_as_hsus_inverse_square_root():
    """Hsu, Smith & Young (TODS 2001): miss ratio roughly as (buffer / data)^-1/2 for production
    databases and the TPC benchmarks. The spec's NURand access gives a slope of that order."""
    buf = [20, 80]
    miss = [1 - io_demand(db(size_gb=1000, buffer_pool_gb=b, access="tpcc")).buffer_hit_ratio for b in buf]
    slope = math.log(miss[1] / miss[0]) / math.log(buf[1] / buf[0])
    assert -0.9 < slope < -0.3


# ------------------------------------------------ the issue's reproducer and invariants
def test_a_database_held_in_its_buffer_pool_reads_nothing_and_writes_each_page_at_most_once_a_minute():
    """Issue 24: 50 GB in a 100 GB buffer pool at 500,000 NOPM became 240,741 IOPS (222,222 of them
    8 KiB checkpoint writes, 12 per transaction, every minute)."""
    d = io_demand(Database(size_gb=50, buffer_pool_gb=100, nopm=500_000))
    s = {x.name: x for x in d.streams}
    assert s["data page reads"].iops < 10 and s["lazy writer"].iops < 10
    ckpt_mb_s = s["checkpoint writes"].bandwidth_mb_s
    assert ckpt_mb_s <= 50e3 / 60  # never more than the whole database each interval
    assert d.iops < 15_000 and d.writes_per_txn < 1.0


def test_more_buffer_never_more_reads_more_users_more_active_data():
    reads = [io_demand(db(buffer_pool_gb=b)).reads_per_txn for b in (8, 32, 128, 512, 2000)]
    assert all(a >= b - 1e-12 for a, b in itertools.pairwise(reads)) and reads[-1] < 1e-3
    act = [io_demand(db(virtual_users=u)).active_data_tb for u in (1, 10, 100, 1000)]
    whole = io_demand(db(all_warehouses=True))
    assert all(a < b for a, b in itertools.pairwise(act)) and whole.active_data_tb == whole.data_tb == 1.0


def test_db_io_gives_the_data_and_its_active_part_in_one_unit(capsys):
    """`db-io` printed capacity_tb 1.0 beside active_data_gb 1000.0: one figure in two units, or two figures?
    Both are TB, and the active part is named and described as a part."""
    from planner.models.database import IoDemand
    from planner.models.examples import EXAMPLES

    assert main(["db-io", str(EXAMPLES / "db-oltp-hammerdb.json")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "active_data_gb" not in out and out["active_data_tb"] <= out["capacity_tb"]
    assert "part of the data files" in IoDemand.model_fields["active_data_tb"].description


def test_checkpoints_sql_server_2014_bursts_and_gathers_32_2016_spreads_and_gathers_128():
    old = io_demand(db(sql_server_version=2014, virtual_users=50))
    new = io_demand(db(sql_server_version=2019, virtual_users=50))
    so, sn = ({x.name: x for x in d.streams}["checkpoint writes"] for d in (old, new))
    assert so.peak_iops == pytest.approx(so.iops * 6) and sn.peak_iops == sn.iops
    assert so.block_size_kib <= 32 * 8 + 1e-9 and sn.block_size_kib >= so.block_size_kib


def test_group_commit_coalesces_flushes_and_blocks_stay_under_60_kb():
    slow = oltp.log_flushes(10_000, 0.002)
    fast = oltp.log_flushes(10_000, 0.00005)
    assert slow["flushes"] < fast["flushes"] and slow["commits_per_flush"] > 1
    assert max(slow["write_kib"], fast["write_kib"]) <= 60
    assert oltp.log_flushes(10, 0.0001)["commits_per_flush"] == pytest.approx(1.0)


def test_every_assumption_is_reported_with_its_source_and_overrides_move_the_result():
    d = io_demand(db())
    assert all(a["source"] for a in d.assumptions) and {a["field"] for a in d.assumptions} >= {
        "access",
        "cpu_us_per_txn",
    }
    assert io_demand(db(buffer_hit_ratio=0.99)).reads_per_txn < d.reads_per_txn
    assert io_demand(db(log_bytes_per_txn=20_000)).bandwidth_mb_s > d.bandwidth_mb_s
    assert io_demand(db(buffer_hit_ratio=0.99)).buffer_hit_note.startswith("given by the user; the writes follow")


def test_hand_off_to_a_workload_and_a_demand():
    from planner.models.demand import Demand

    d = io_demand(load_database(EX / "db-oltp-hammerdb.json"))
    w = as_workload(d)
    assert w.iops == pytest.approx(d.peak_iops) and w.vms_per_node is None
    assert w.block_size_kib == pytest.approx(sum(s.iops * s.block_size_kib for s in d.streams) / d.iops)
    dem = Demand(**as_demand_fields(d))
    # the capacity holds the log and tempdb beside the 1 TB of data (DBA review 2026-11-30)
    assert dem.totals()[0] == pytest.approx(d.peak_iops) and dem.capacity_tb == pytest.approx(1.5)


# ------------------------------------------------ the CLI
def test_db_io_prints_every_stream_with_its_rule_and_the_totals(capsys):
    assert main(["db-io", str(EX / "db-oltp-hammerdb.json")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"iops", "bandwidth_mb_s", "read_fraction", "streams", "assumptions"} <= set(out)
    names = [s["name"] for s in out["streams"]]
    assert names[:4] == ["data page reads", "checkpoint writes", "lazy writer", "log writes"]
    assert all(s["rule"] for s in out["streams"])
    assert out["iops"] == pytest.approx(sum(s["iops"] for s in out["streams"]))
    assert main(["db-io", str(EX / "db-oltp-hammerdb.json"), "--log-write-latency-ms", "0"]) == 2
    assert capsys.readouterr().err == "error: log-write-latency-ms: must be 0.001..10000 ms (got 0)\n"


def test_database_capacity_of_a_design_with_an_inline_cpu_spec(capsys, tmp_path):
    """A CPU given inline (the catalog record's figures, no id) carries the database as its
    catalog twin does; the database's CPU was looked up by catalog id only (a traceback)."""
    from planner.models.catalog import load_catalog

    design = json.loads((EX / "reference.json").read_text())
    cpu = load_catalog().cpu[design["node"]["cpu"]["model"]]
    rec = cpu.model_dump(mode="json", exclude={"id", "vendor", "source", "verified"})
    design["node"]["cpu"]["model"] = rec
    (tmp_path / "inline.json").write_text(json.dumps(design))
    db = str(EX / "db-oltp-hammerdb.json")
    assert main(["sla", str(tmp_path / "inline.json"), "--database", db]) == 0
    inline = json.loads(capsys.readouterr().out)["database_capacity"]
    assert main(["sla", str(EX / "reference.json"), "--database", db]) == 0
    assert inline == json.loads(capsys.readouterr().out)["database_capacity"]


def test_sla_database_prints_the_guarantee_the_need_and_the_database_capacity(capsys):
    args = ["sla", str(EX / "reference.json"), "--database", str(EX / "db-oltp-hammerdb.json")]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    g, cap = out["guarantee"], out["database_capacity"]
    assert out["io_meets"] == (g["guaranteed_iops"] >= out["needed_iops"])
    assert out["meets"] == (out["io_meets"] and out["rate"]["carried"])
    assert cap["max_nopm"] == pytest.approx(cap["max_tpm"] / oltp.TPM_PER_NOPM)
    assert cap["max_nopm_low"] <= cap["max_nopm"] <= cap["max_nopm_high"]
    assert cap["binding"] in ("database_vcpus", "virtual_users", "storage")
    for k in ("read_latency_ms", "write_latency_ms"):
        # a high end past the low end of the design's capacity band is unbounded, said (performance walk 2026-12-01)
        high = cap[f"{k}_high"]
        assert cap[f"{k}_low"] <= cap[k] <= (high if high is not None else math.inf)
        assert high is not None or cap[f"{k}_high_note"].startswith("unbounded"), cap
    assert 0 < cap["vcpu_utilization"] <= 1.0
    # the reference design's CPU utilisation cap (0.6) throttles the storage IO before the 16 vCPUs are busy
    # (QA 2026-11-28: the capacity was 'database_vcpus' at a rate whose IO the cap did not let through)
    assert cap["binding"] == "storage" and "CPU utilisation cap throttles the IO" in cap["binding_note"]
    # the guarantee shares the VM's vCPUs by the oversubscription, the capacity does not: said (QA 2026-11-28)
    assert "at the design's 4:1 vCPU oversubscription" in cap["vcpus_note"]
    # a bigger VM is guaranteed more; behind the same throttle it carries the same
    assert main([*args, "--vcpus", "64", "--threads", "16"]) == 0
    more = json.loads(capsys.readouterr().out)
    assert more["guarantee"]["guaranteed_iops"] > g["guaranteed_iops"]
    assert more["database_capacity"]["max_tpm"] == pytest.approx(cap["max_tpm"], rel=1e-6)
    # without the cap the nodes carry more; a VM small enough for its vCPUs to bind carries more when bigger
    free = [*args, "--cpu-utilization-cap", "1"]
    assert main(free) == 0
    assert json.loads(capsys.readouterr().out)["database_capacity"]["max_tpm"] > cap["max_tpm"]
    assert main([*free, "--vcpus", "4", "--threads", "1"]) == 0
    small = json.loads(capsys.readouterr().out)["database_capacity"]
    assert small["binding"] == "database_vcpus"
    assert main([*free, "--vcpus", "8", "--threads", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["database_capacity"]["max_tpm"] > small["max_tpm"]


def test_sla_flags_out_of_range_are_one_line(capsys):
    base = ["sla", str(EX / "reference.json"), "--database", str(EX / "db-oltp-hammerdb.json")]
    assert main([*base, "--vcpus", "0"]) == 2
    assert capsys.readouterr().err == "error: vcpus: must be 1..512 (got 0)\n"
    assert main(["sla", str(EX / "reference.json"), "--db", str(EX / "db-erp.json"), "--mean"]) == 2
    assert "only applies to a database described by its workload" in capsys.readouterr().err


def test_guarantee_by_vm_size_grows_with_the_vm_and_names_the_smallest_that_meets():
    from planner.commercial.sla import guarantee_by_vm_size
    from planner.models.catalog import load_catalog
    from planner.models.design import load_design, resolve

    rd = resolve(load_design(EX / "reference.json"), load_catalog())
    erp = load_database(EX / "db-erp.json")
    t = guarantee_by_vm_size(rd, erp, target_iops=150_000)
    g = [r["guaranteed_iops"] for r in t["sizes"]]
    assert all(a <= b for a, b in itertools.pairwise(g))
    small = t["smallest_vm_meeting_target"]
    assert (
        small is not None and next(r for r in t["sizes"] if r["vcpus"] == small["vcpus"])["guaranteed_iops"] >= 150_000
    )
    assert guarantee_by_vm_size(rd, erp, target_iops=1e9)["smallest_vm_meeting_target"] is None


# ------------------------------------------------ the capacity search
def test_capacity_is_the_cpu_bound_for_a_cached_database_and_littles_law_holds_for_users():
    from planner.commercial.database import database_capacity
    from planner.models.database import response_time_s
    from planner.models.design import load_design

    ref = load_design(EX / "reference.json")
    small = Database(name="cached", size_gb=50, buffer_pool_gb=100, nopm=1, vcpus=8)
    cap = database_capacity(ref, small, servers=1)
    assert cap["binding"] == "database_vcpus" and cap["vcpu_utilization"] == pytest.approx(1.0, abs=1e-6)
    # few users bind before the CPUs: the rate is users / response time
    two = small.model_copy(update={"virtual_users": 2})
    few = database_capacity(ref, two, servers=1)
    assert few["binding"] == "virtual_users" and few["max_tpm"] < cap["max_tpm"]
    x = few["per_server_tpm"] / 60
    d = io_demand(two.with_rate(x), log_write_latency_ms=few["vm_write_latency_ms"])
    cpu_s = (few["cpu_us_per_txn"] + few["guest_cpu_us_per_io"] * d.iops / d.transactions_per_s) * 1e-6
    r = response_time_s(d, cpu_s, 8, x, few["vm_read_latency_ms"], few["vm_write_latency_ms"])
    assert x * r == pytest.approx(2.0, rel=0.02)  # N = X R


def test_the_users_band_moves_the_io_waits_and_passes_no_vcpu_bound():
    """Performance walk 2026-12-01: 50 users on 16 vCPUs, bound at 7,568,698 TPM with the vCPUs 92 % busy, had a
    high end of 22,189,088 TPM (2.93x): the whole response time scaled by the VM latency's band, though it holds the
    call's CPU, which no IO latency moves; the vCPUs 270 % busy at that end. The ends take a call's IO waits at the
    VM latency's band and its CPU at the CPU per transaction's, and neither passes the vCPUs' bound at that CPU."""
    from planner.commercial.database import database_capacity
    from planner.models.database import oltp_calibration
    from planner.models.design import load_design

    ref = load_design(EX / "reference.json")
    u50 = Database(name="u50", size_gb=1000, buffer_pool_gb=128, nopm=200_000, virtual_users=50, vcpus=16)
    c = database_capacity(ref, u50, servers=1)
    assert c["binding"] == "virtual_users" and 0.85 < c["vcpu_utilization"] < 0.98
    c_lo, c_hi = oltp_calibration()["cpu_us_per_txn"]["band_ratio"]
    # the vCPUs' use at each end, the call's CPU at that end's CPU per transaction
    busy_high = c["vcpu_utilization"] * c["max_tpm_high"] / c["max_tpm"] * c_lo
    busy_low = c["vcpu_utilization"] * c["max_tpm_low"] / c["max_tpm"] * c_hi
    assert busy_high <= 1.0 + 1e-6 and busy_low <= 1.0 + 1e-6
    assert c["max_tpm_low"] < c["max_tpm"] < c["max_tpm_high"] < 1.5 * c["max_tpm"]
    assert "IO waits" in c["band_basis"]
    # with 200 users the vCPUs bind: that band is the CPU per transaction's, the users' high end no higher
    u200 = database_capacity(ref, u50.model_copy(update={"virtual_users": 200}), servers=1)
    assert u200["binding"] == "database_vcpus" and c["max_tpm_high"] <= u200["max_tpm_high"]


def test_a_saturated_closed_background_is_said_at_the_latency_its_population_has(tmp_path, capsys):
    """Issue 24 §4: 'sla' reported 14.19 ms at background load alone where 'evaluate' gives
    2.76 ms for the same 4,800 IOs in flight (an open stream at a closed population's
    saturation rate queues without bound)."""
    bg = json.loads((EX / "background-25vms.json").read_text())
    bg.pop("iops_limit_per_vm")
    f = tmp_path / "bg.json"
    f.write_text(json.dumps(bg))
    design = [str(EX / "reference.json"), "--cpu-utilization-cap", "1"]
    assert main(["evaluate", *design, "--workload", str(f), "--no-degraded"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["outstanding_ios"] == pytest.approx(4800) and rep["limited_by"] == "population"
    assert main(["sla", *design, "--background", str(f), "--db", str(EX / "db-erp.json")]) == 0
    out = json.loads(capsys.readouterr().out)
    said = float(re.search(r"the other tenants. load alone \(([\d.]+) ms\)", out["note"]).group(1))
    assert said == pytest.approx(rep["vm_latency_ms"], rel=0.01)
    assert out["background_iops"] == pytest.approx(rep["iops"])


def test_cpu_cost_per_core_is_flatter_than_per_clock_across_tpce_results():
    """The database's CPU per transaction is modelled per core, not per clock cycle: across the
    official TPC-E results on SQL Server 2012-2022 the per-core cost varies less than the
    per-cycle cost would (newer cores do more per cycle at lower clocks)."""
    doc = json.loads((Path(oltp.__file__).parent.parent / "data/benchmarks/database/results.json").read_text())
    rows = [
        r
        for r in doc["tpce_sql_server"]
        if r["sockets"]
        and r["sockets"] <= 2
        and r["cores_per_socket"]
        and r["base_ghz"]
        and r["sql_server_version"][:4] >= "2012"
    ]
    per_core = np.array([r["sockets"] * r["cores_per_socket"] * 1e6 / r["tpse"] for r in rows])
    per_cycle = per_core * np.array([r["base_ghz"] for r in rows])
    assert len(rows) >= 6
    cv = lambda x: float(np.std(x) / np.mean(x))
    assert cv(per_core) < cv(per_cycle)
    from planner.models.database import oltp_calibration

    lo, hi = oltp_calibration()["cpu_us_per_txn"]["spread_ratio"]
    assert lo < 1 < hi and hi / lo < 1.5


def test_sla_page_shows_the_guarantee_by_vm_size_and_the_databases_capacity():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(Path(__file__).resolve().parent.parent / "app.py"), default_timeout=180).run()
    at.switch_page("hciplan_ui/sla_page.py").run()
    at.radio(key="sla_by").set_value("what a DBA knows (size, buffer pool, HammerDB rate)").run()
    assert not at.exception and not at.error
    at.session_state["sla_by_size"] = True
    at.session_state["sla_capacity"] = True
    at.run()
    assert not at.exception and not at.error
    tables = [t for t in at.dataframe if "vCPUs" in t.value.columns]
    from planner.commercial.sla import VM_SIZES

    # from 1 vCPU to the node's 48 logical processors (no VM larger than its server; it listed 64)
    assert tables and len(tables[0].value) == len(VM_SIZES) == 7
    assert list(tables[0].value["vCPUs"])[-1] in (48, "48")
    most = next(m for m in at.metric if m.label == "Most NOPM (all database servers)")
    assert most.value.replace(",", "").isdigit()
    # browser review 2026-11-29: the maximum (the VM's vCPUs its own) beside a rate the shared vCPUs do not carry,
    # and "not met" beside a maximum above the rate asked, with no word of why both hold
    said = " ".join(c.value.replace("\\", "") for c in at.caption)
    assert "vCPUs run as its own (a database server's); the per-database guarantee counts them shared" in said
    # what to buy, cores or drives, by what binds (DBA walk 2026-11-30: "binding: storage" beside "bottleneck:
    # host_cpu" and a note that named neither)
    assert re.search(r"; raised by (a higher CPU utilisation cap, or )?more or faster CPU cores, or more nodes\.", said)
    assert "the database's promise holds when its peak io" in said.lower()
    assert "'The most this design sustains' below gives the most" in said
    # a band without a high end says why, in the library's words (pricing-call walk, stop 63: "0.122 ms–unbounded"
    # stood alone)
    from planner.results.uncertainty import UNBOUNDED_AT_BAND_LOW_NOTE

    assert "–unbounded" in said and UNBOUNDED_AT_BAND_LOW_NOTE[1:] in said, said  # the default database's case


def test_dataline_claim_200000_iops_under_1_ms_for_a_4_tb_database_depends_on_the_vm():
    """DataLine (the reference cluster's own post): 'a database up to 4 TB can be guaranteed up
    to 200,000 IOPS with latency under 1 ms at 100 % 4K reads', measured at the second loading
    (2:1 vCPU oversubscription, no CPU cap, 25 tenant VMs per host). The VM is not stated: the
    guarantee for the VM of the first test (16 vCPUs, 4 threads x 16) is within 35 %, under
    1 ms, and the table names the VM size that reaches 200,000 (issue 24 §4: the VM decides)."""
    from planner.commercial.sla import guarantee, guarantee_by_vm_size
    from planner.models.catalog import load_catalog
    from planner.models.design import load_design, resolve, with_overrides
    from planner.models.workload import load_workload

    rd = resolve(
        with_overrides(load_design(EX / "reference.json"), vcpu_oversubscription=2.0, cpu_utilization_cap=1.0),
        load_catalog(),
    )
    erp = load_database(EX / "db-erp.json")
    bg = load_workload(EX / "background-25vms.json")
    g = guarantee(rd, erp, bg)
    assert g.guaranteed_iops == pytest.approx(200_000, rel=0.35) and g.latency_ms < 1.0
    t = guarantee_by_vm_size(rd, erp, bg, target_iops=200_000)
    small = t["smallest_vm_meeting_target"]
    assert small is not None and small["vcpus"] <= 32


def test_a_buffer_pool_below_the_resident_pages_is_said():
    """QA 2026-11-28: a 1 TB database at 1 M NOPM had a hit ratio of 0 in a 4 GB pool and 0.22 in
    5 GB, without a word: below the pages the active warehouses keep in use (4.18 GB here) the LRU
    has nothing left to hold. The output says so; above it, nothing is added."""
    small = io_demand(Database(name="small-bp", size_gb=1000, buffer_pool_gb=4, nopm=1_000_000))
    assert small.buffer_hit_ratio < 0.01
    assert "smaller than the pages the active warehouses keep in use (4.18 GB" in small.buffer_hit_note
    ok = io_demand(Database(name="bp", size_gb=1000, buffer_pool_gb=5, nopm=1_000_000))
    assert ok.buffer_hit_note.startswith("modelled (LRU over the pages the transactions touch)")
    assert "smaller than" not in ok.buffer_hit_note


@pytest.mark.parametrize(
    "db, why",
    [
        # held whole in memory at 2,000,000 TPM on 8 vCPUs: the IO is small, SQL Server's work is not
        ({"name": "inmem", "size_gb": 200, "buffer_pool_gb": 230, "tpm": 2_000_000, "vcpus": 8}, "8 vCPUs"),
        # one virtual user with no think time: the rate is users / response time (Little's law)
        (
            {"name": "one-user", "size_gb": 1000, "buffer_pool_gb": 128, "nopm": 200_000, "virtual_users": 1},
            "1 virtual user",
        ),
    ],
)
def test_a_database_its_vcpus_or_users_cannot_carry_is_not_met(capsys, tmp_path, db, why):
    """QA 2026-11-28 (DBA review): `sla --db` said meets: true (the IO guaranteed with headroom) beside
    a database capacity of half the TPM asked. The verdict now also needs the rate carried, and the
    capacity's own figure agrees that it is not."""
    (tmp_path / "db.json").write_text(json.dumps(db))
    assert (
        main(["sla", str(EX / "reference.json"), "--db", str(tmp_path / "db.json"), "--vcpu-oversubscription", "1"])
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["io_meets"] and not out["rate"]["carried"] and not out["meets"]
    assert why in out["rate"]["note"]
    asked = out["rate"]["asked_tpm"]
    assert out["database_capacity"]["per_server_tpm"] < asked
    assert min(x for x in (out["rate"]["cpu_limited_tpm"], out["rate"]["users_limited_tpm"]) if x) < asked
    # the same database at a rate its vCPUs and users carry is met
    slow = {**db, **({"tpm": 200_000} if "tpm" in db else {"nopm": 5_000})}
    (tmp_path / "slow.json").write_text(json.dumps(slow))
    assert (
        main(["sla", str(EX / "reference.json"), "--db", str(tmp_path / "slow.json"), "--vcpu-oversubscription", "1"])
        == 0
    )
    ok = json.loads(capsys.readouterr().out)
    assert ok["rate"]["carried"] and ok["meets"] == ok["io_meets"]


def test_a_demand_of_databases_takes_their_vcpus():
    """QA 2026-11-28 (DBA review): a demand's database said 12 vCPUs and the sizer allocated the
    default 4 per database (its buffer pool did become the RAM). The database's vCPUs are the VM's
    now; a different vcpus_per_db beside it is refused, as the other totals it implies are."""
    from planner.models.demand import Demand

    db = {"name": "x", "size_gb": 200, "buffer_pool_gb": 230, "tpm": 2_000_000, "vcpus": 12}
    d = Demand.model_validate({"database": db, "databases": 20})
    assert d.vcpus_per_db == 12 and d.vcpus(1.0) == 240
    assert Demand.model_validate_json(d.model_dump_json()) == d
    with pytest.raises(ValueError, match="differs from the database's vcpus"):
        Demand.model_validate({"database": db, "vcpus_per_db": 4})
    # a database without vcpus leaves the demand's own (the form's, or the default)
    assert Demand.model_validate({"database": {**db, "vcpus": None}, "vcpus_per_db": 6}).vcpus_per_db == 6


@pytest.mark.parametrize("hit", [0.2, 0.6, 0.9, 0.99, 1.0])
def test_a_given_hit_ratio_keeps_the_lazy_writer_within_the_evictions(hit):
    """QA 2026-11-28 (DBA review): a measured hit ratio of 0.99 gave 1,554 page reads/s beside a lazy
    writer of 28,960 writes/s; a full pool evicts one page per page read in, so the lazy writer
    (dirty evictions) cannot outrun the reads."""
    from planner.models.database import io_demand

    base = {"name": "o", "size_gb": 1000, "buffer_pool_gb": 128, "nopm": 200_000}
    given = io_demand(Database.model_validate({**base, "buffer_hit_ratio": hit}))
    s = {x.name: x for x in given.streams}
    assert s["lazy writer"].iops <= s["data page reads"].iops * (1 + 1e-9)
    assert given.iops == pytest.approx(sum(x.iops for x in given.streams))


def _pages_written(d) -> float:
    s = {x.name: x for x in d.streams}
    return s["checkpoint writes"].iops * s["checkpoint writes"].block_size_kib / 8 + s["lazy writer"].iops


@pytest.mark.parametrize("users", [10, 100, 1000])
def test_a_measured_hit_ratio_writes_as_the_skew_that_gives_it(users):
    """DBA walk 2026-12-03: a 1 TB database at 200,000 NOPM with a measured hit ratio of 0.997 wrote 49,141 checkpoint
    IOPS (every warehouse's pages dirtied, as with no skew) where the same 0.997 reached through 100 virtual users
    wrote 1,885: the hit ratio replaced the reads alone. The ratio now sets the skew (the active warehouses that give
    it), and the writes follow: the same hit ratio reached either way is the same IO."""
    from planner.models.database import io_demand

    base = {"name": "o", "size_gb": 1000, "buffer_pool_gb": 128, "nopm": 200_000}
    by_users = io_demand(Database.model_validate({**base, "virtual_users": users}))
    by_hit = io_demand(Database.model_validate({**base, "buffer_hit_ratio": by_users.buffer_hit_ratio}))
    assert by_hit.buffer_hit_ratio == pytest.approx(by_users.buffer_hit_ratio, abs=1e-6)
    assert _pages_written(by_hit) == pytest.approx(_pages_written(by_users), rel=0.02)
    assert by_hit.iops == pytest.approx(by_users.iops, rel=0.02)
    assert by_hit.buffer_hit_note.startswith("given by the user; the writes follow the skew it implies")


def test_a_higher_measured_hit_ratio_never_writes_more_pages():
    """The skew a hit ratio implies concentrates the dirty pages too: more hits, as many page writes or fewer."""
    from planner.models.database import io_demand

    base = {"name": "o", "size_gb": 200, "buffer_pool_gb": 64, "tpm": 50_000}
    written = [
        _pages_written(io_demand(Database.model_validate({**base, "buffer_hit_ratio": h})))
        for h in (0.3, 0.6, 0.9, 0.95, 0.99, 0.995, 0.999)
    ]
    assert all(b <= a * (1 + 1e-9) for a, b in itertools.pairwise(written)), written


@pytest.mark.parametrize("warehouses", [1, 100, 10_000_000])
def test_warehouses_far_from_the_size_are_refused(warehouses, tmp_path, capsys):
    """QA 2026-11-28 (DBA review): 1 warehouse on a 1 TB database gave a hit ratio of 1 and no reads
    (the transactions spread over 0.1 GB); 10,000,000 gave 0. One line names both and the count the
    size implies; the seeds' own counts (10,000 on 1 TB, 5,000 on 500 GB) stay valid."""
    db = {"name": "x", "size_gb": 1000, "buffer_pool_gb": 100, "nopm": 1000, "warehouses": warehouses}
    (tmp_path / "db.json").write_text(json.dumps(db))
    assert main(["db-io", str(tmp_path / "db.json")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "give about 10,000 warehouses" in err and "Traceback" not in err
    assert Database.model_validate({**db, "warehouses": 10_000}).warehouses == 10_000


def test_one_virtual_user_never_shares_a_log_flush():
    """QA 2026-11-28 (DBA review): db-io said '7.1 commits per flush' for a single virtual user,
    whose commits come one after another and cannot share a flush."""
    one = oltp.log_flushes(10_000, 0.002, users=1)
    many = oltp.log_flushes(10_000, 0.002, users=500)
    assert one["commits_per_flush"] == pytest.approx(1.0) and many["commits_per_flush"] > 1
    assert oltp.log_flushes(10_000, 0.002)["commits_per_flush"] == pytest.approx(many["commits_per_flush"])


def test_db_io_of_a_database_described_by_its_io_names_the_database_field(capsys):
    """QA 2026-11-28 (DBA review): 'error: nopm: ...' where every other error of the file says
    'database.<field>'."""
    assert main(["db-io", str(EX / "db-erp.json")]) == 2
    assert capsys.readouterr().err.startswith(
        "error: database.nopm: this database gives its IO (threads, block_size_kib, read_fraction, random_fraction), "
        "not a workload"
    )


def test_a_sized_database_demand_says_whether_each_database_carries_its_rate(capsys, tmp_path):
    """QA 2026-11-28 (DBA review): the sizer counted a database's allocated vCPUs, never the CPU its
    SQL Server work keeps busy. Each sized design of a database demand now says whether the VM the
    sizer gives each database carries the rate asked, its vCPUs shared at the design's
    oversubscription as the SLA page's guarantee counts them: the browser review found the Size page
    asking 11 vCPUs (counted whole) and the SLA page 42 (shared) for the same database."""
    from planner.commercial.database import rate_carried
    from planner.models.demand import Demand
    from planner.models.design import Design
    from planner.sizing.search import size

    ok = size(Demand.model_validate_json((EX / "demand-hammerdb.json").read_text()), top=1).best
    assert ok["database_rate"]["carried"] and ok["database_rate"]["vcpus_counted"] == 8 / 4
    hot = Demand.model_validate(
        {
            "database": {"name": "inmem", "size_gb": 200, "buffer_pool_gb": 230, "tpm": 2_500_000, "vcpus": 12},
            "databases": 4,
            "latency_target_ms": 2.0,
            "max_nodes": 6,
        }
    )
    best = size(hot, top=1).best
    assert best is not None and not best["database_rate"]["carried"]
    assert "12 vCPUs (shared at 4:1" in best["database_rate"]["note"]
    # what it would need, said as a vCPU count: that many carry it, one fewer does not
    need = best["database_rate"]["vcpus_needed"]
    design = Design.model_validate(best["design"])
    assert need > 12 * 4 - 1 and rate_carried(design, hot.database.model_copy(update={"vcpus": need}), 2.0)["carried"]
    assert not rate_carried(design, hot.database.model_copy(update={"vcpus": need - 1}), 2.0)["carried"]
    # the SLA page's verdict on the same database and design says the same
    (tmp_path / "d.json").write_text(json.dumps(best["design"]))
    (tmp_path / "db.json").write_text(hot.database.model_dump_json())
    assert main(["sla", str(tmp_path / "d.json"), "--db", str(tmp_path / "db.json")]) == 0
    sla = json.loads(capsys.readouterr().out)
    assert sla["rate"]["vcpus_needed"] == need and sla["rate"]["carried"] is False
    assert sla["rate"]["cpu_limited_tpm"] == pytest.approx(best["database_rate"]["cpu_limited_tpm"])


def test_the_sizer_counts_the_cores_a_databases_work_keeps_busy():
    """Stop 35's note left it: vCPU oversubscription counts what databases are allocated, and 40
    in-memory databases at 1,000,000 TPM on 16 vCPUs each (640 vCPUs: two nodes of 96 logical
    processors at 4:1) keep about 590 cores busy. The sizer holds those cores within each node's
    physical cores x 95 %, in its vectorised screen and in the check of every design it returns."""
    from planner.models.database import CPU_BOUND
    from planner.models.demand import Demand
    from planner.models.design import Design, resolve
    from planner.models.params import default_params
    from planner.physics.cpu import clock_scale
    from planner.sizing.checks import check_design
    from planner.sizing.search import size

    hot = Demand.model_validate(
        {
            "database": {"name": "inmem", "size_gb": 200, "buffer_pool_gb": 230, "tpm": 1_000_000, "vcpus": 16},
            "databases": 40,
            "latency_target_ms": 2.0,
        }
    )
    r = size(hot, top=1)
    assert r.rejected["database_cpu"]["count"] > 0
    assert "cores busy per node" in r.rejected["database_cpu"]["example"]
    b = r.best
    cn = b["compute"]
    assert cn["database_cores_per_node_needed"] <= cn["database_cores_per_node_available"]
    # the figure by hand: transactions per second x (SQL Server's core-us + IOs x guest us at the clock)
    d = io_demand(hot.database)
    rd = resolve(Design.model_validate(b["design"]))
    guest = default_params().guest_cpu_us * float(clock_scale(rd.node.cpu.base_ghz))
    per_db_cores = d.transactions_per_s * (cpu_us_per_txn(hot.database) + guest * d.iops / d.transactions_per_s) / 1e6
    assert cn["database_cores_per_node_needed"] * cn["hosts"] == pytest.approx(40 * hot.growth * per_db_cores)
    assert cn["database_cores_per_node_available"] == pytest.approx(rd.node.cores * CPU_BOUND)
    # its room to grow beside the allocation's, in words of its own
    assert b["limit_ratios"]["cores"] == pytest.approx(
        cn["database_cores_per_node_available"] / cn["database_cores_per_node_needed"]
    )
    assert b["limit_ratios"]["vcpu"] == pytest.approx(cn["vcpus_per_node_available"] / cn["vcpus_per_node_needed"])
    # the same parts on four nodes: the allocation fits, the busy cores do not
    four = check_design(resolve(Design.model_validate({**b["design"], "nodes": 4})), hot)
    assert four["checks"]["vcpus"]["passed"] and not four["checks"]["database_cpu"]["passed"]
    assert "database_cpu" in four["fails"]


def test_io_demand_is_computed_once_per_description_and_each_caller_gets_its_own_copy(monkeypatch):
    """The buffer model takes about 30 ms and a sizing asked the same database's IO dozens of times
    (the database CPU rule per design, each result's rate, every validation of the demand). io_demand
    keeps each result by the description and the log latency asked; a caller's change to its copy
    reaches no other caller, and any field of the description or another latency is another result."""
    from planner.models import database as dbm

    db = Database(name="kept", size_gb=321.0, buffer_pool_gb=64.0, nopm=54_321.0)
    first = io_demand(db)
    key = (db.model_dump_json(), None, None, None)
    assert key in dbm._IO_DEMANDS
    again = io_demand(db)
    assert again == first and again is not first and again.streams is not first.streams
    again.streams.clear()  # a caller that changes its copy
    assert io_demand(db).streams == first.streams
    # any field, and another log latency, is another result (no stale figure)
    assert io_demand(db.model_copy(update={"buffer_pool_gb": 128.0})).iops != first.iops
    assert io_demand(db, log_write_latency_ms=5.0).log_flushes_per_s != first.log_flushes_per_s
    # the kept results stay bounded (a bound of 8 here: 8 buffer models, not 256)
    monkeypatch.setattr(dbm._IO_DEMANDS, "max_entries", 8)
    for i in range(12):
        io_demand(Database(name=f"n{i}", size_gb=10.0, buffer_pool_gb=8.0, tpm=1000.0 + i))
    assert len(dbm._IO_DEMANDS) == 8


def test_the_database_vms_own_vcpus_bind_by_name_and_a_demand_beyond_them_asks_for_more_vcpus():
    """Browser review (stop 36): 20 HammerDB databases at 200,000 NOPM on 8 vCPUs showed the same
    guaranteed IOPS on every design, bound by "IOPS (saturation)". What saturates is each database
    VM's own vCPUs (its guest IO stack), which no cluster hardware relieves: the binding says so.
    Past what 8 vCPUs issue on the fastest clock, the sizer's refusal says to give them more. At 215,000
    NOPM, within 3.2 % of what the VMs issue (200,000 until the DBA review moved the IOs a transaction:
    the lazy writer's pages a checkpoint writes, New-Order's orders_i2 entry; there the cheapest designs'
    storage bound first; 195,000 until the reproducible fit's guest CPU per IO, 45.6 us against 49.7,
    let each VM issue 9 % more, audit 2026-12-01)."""
    from planner.commercial.tiers import limit_words
    from planner.models.demand import Demand
    from planner.models.design import Design, resolve
    from planner.models.params import default_params
    from planner.physics.cpu import guest_us_per_io
    from planner.sizing.search import size

    spec = json.loads((EX / "demand-hammerdb.json").read_text())
    spec["database"]["nopm"] = 215_000
    demand = Demand.model_validate(spec)
    r = size(demand, top=3)
    rows = [r.best, *r.alternatives]
    assert len(rows) >= 2
    assert all(x["binding"] == "vm_io" and "iops" not in x["limit_ratios"] for x in rows)
    assert limit_words("vm_io") == "the database VMs' own vCPUs (their IO)"
    # the ratio by hand: at saturation each VM's guest IO keeps its 8 vCPUs busy
    iops, _, _ = demand.totals()
    for x in rows:
        ghz = resolve(Design.model_validate(x["design"])).node.cpu.base_ghz
        per_vm = x["limit_ratios"]["vm_io"] * iops / (20 * demand.growth)
        assert per_vm * float(guest_us_per_io(default_params(), ghz)) * 1e-6 == pytest.approx(8.0, rel=1e-6)
    # 340,000 NOPM: beyond what 8 vCPUs issue on any clock in the catalog (330,000 is just beyond, 8.09 vCPUs)
    spec["database"]["nopm"] = 340_000
    r3 = size(Demand.model_validate(spec), top=1)
    assert r3.best is None
    said = re.search(
        r"^no design meets [^;]*: the databases' own vCPUs cannot issue their IO on any candidate \([\d,]+ IOPS "
        r"per database keep at least ([\d.]+) vCPUs busy in its guest IO stack on the fastest clock screened, more "
        r"than the 8 each has\); give each database more vCPUs; rejected by: ",
        r3.explanation,
    )
    assert said and float(said.group(1)) > 8.0 and "give each database more vCPUs" in r3.explanation
    # with 16 vCPUs each the VMs issue it: the line is gone
    spec["database"]["vcpus"] = 16
    spec["vcpus_per_db"] = 16
    r16 = size(Demand.model_validate(spec), top=1)
    assert "give each database more vCPUs" not in r16.explanation


def test_a_databases_shared_vcpus_are_counted_in_words():
    """Browser review 2026-11-29: the Size page's DBA mode said "its 4 vCPUs (shared at 4:1, 1 logical
    processors)"."""
    from planner.commercial.database import rate_carried
    from planner.models.database import Database
    from planner.models.design import Design

    design = Design.model_validate_json((EX / "reference.json").read_text())
    db = Database.model_validate({"name": "busy", "size_gb": 1000, "buffer_pool_gb": 128, "nopm": 200_000, "vcpus": 4})
    note = rate_carried(design, db, 1.0)["note"]
    assert "(shared at 4:1, 1 logical processor)" in note, note
    three = rate_carried(design, db.model_copy(update={"vcpus": 6}), 1.0)["note"]
    assert "(shared at 4:1, 1.5 logical processors)" in three, three


@pytest.mark.parametrize(
    "design",
    sorted(
        p.stem for p in EX.glob("*.json") if not p.stem.startswith(("db-", "demand-", "tiers", "background", "import"))
    ),
)
def test_the_most_a_design_sustains_never_quotes_a_latency_of_hours(design):
    """Review 2026-11-29: on designs whose storage saturates first under an open load (a single server's
    flash card, a SAN, an edge cluster), the bisection's last rate below saturation gave "read latency"
    13,631,948 ms. Every latency given is below a minute; where there is none, the note says why, and the
    maximum is the saturation itself (1 % more saturates the storage)."""
    from planner.commercial.database import _storage, database_capacity
    from planner.core.errors import PlannerError
    from planner.engine.performance import PACING_POLICIES
    from planner.models.catalog import load_catalog
    from planner.models.database import load_database
    from planner.models.design import load_design
    from planner.models.params import default_params

    d = load_design(EX / f"{design}.json")
    db = load_database(EX / "db-oltp-hammerdb.json")
    try:
        c = database_capacity(d, db)
    except PlannerError as exc:  # a design that cannot carry it says so in one line
        assert "cannot carry" in str(exc) or "does not fit" in str(exc), exc
        return
    if c["binding"] == "capacity":  # a database the storage cannot hold has no rate, and says why
        assert c["max_tpm"] is None and "does not fit" in c["max_tpm_note"], c
        return
    # what binds, in words (the SLA page showed "host_cpu 100% busy")
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", c["binding_note"]), c["binding_note"]
    lat = {k: v for k, v in c.items() if k.endswith(("latency_ms", "latency_ms_low", "latency_ms_high"))}
    assert lat and all(v is None or 0 < v < 60_000 for v in lat.values()), lat
    # a band's high end past the low end of the design's capacity band is unbounded, said (fixF, performance walk
    # 2026-12-01), while its point holds
    for k in [k for k, v in lat.items() if v is None and k.endswith("_high") and lat[k[: -len("_high")]] is not None]:
        assert c[f"{k}_note"].startswith("unbounded: the load asks more IOPS than the low end"), (k, c)
        del lat[k]
    if any(v is None for v in lat.values()):
        assert all(v is None for v in lat.values())
        notes = [k for k in c if k.endswith("_note") and "latency" in k]
        assert len(notes) == 5 and all("without bound" in c[k] for k in notes), notes
        # the maximum is the saturation itself: 1 % more saturates the model
        _, rep = _storage(d, db, c["per_server_tpm"] / 60 * 1.01, c["servers"], load_catalog(), default_params(), 1.0)
        assert rep["saturated"] or rep.get("limited_by") in PACING_POLICIES, rep.get("utilization")
    else:
        assert not [k for k in c if k.endswith("latency_ms_note")]


def test_sla_page_says_no_latency_at_a_saturated_maximum_on_a_ceph_design():
    """Review 2026-11-29: the SLA page's "Read latency then" for the Ceph example and a HammerDB database
    would have read 1,164,205 ms (the bisection's last rate below the host CPU's saturation). It shows a
    dash, and the caption says why."""
    from streamlit.testing.v1 import AppTest

    from hciplan_ui.state import design_to_json
    from planner.models.design import load_design

    at = AppTest.from_file(str(Path(__file__).resolve().parent.parent / "app.py"), default_timeout=180).run()
    at.switch_page("hciplan_ui/capacity_page.py").run()
    dj = design_to_json(load_design(EX / "ceph-6node-reef.json"))
    at.session_state["design_json"] = dj
    at.session_state["draft"] = json.loads(dj)
    at.switch_page("hciplan_ui/sla_page.py").run()
    at.radio(key="sla_by").set_value("what a DBA knows (size, buffer pool, HammerDB rate)").run()
    at.session_state["sla_capacity"] = True
    at.run(timeout=180)
    assert not at.exception and not at.error
    shown = {m.label: m.value for m in at.metric if m.label.endswith("(VM) then")}
    from hciplan_ui.fmt import DASH

    assert shown == {"Read latency (VM) then": DASH, "Write latency (VM) then": DASH}, shown
    assert any("grows without bound" in c.value for c in at.caption)


def test_a_rate_its_users_hold_back_asks_for_users_not_vcpus():
    """DBA walk 2026-11-30: 1 virtual user at 200,000 NOPM on a 16-vCPU VM that carries 612,216 TPM was told "at
    this rate it needs at least 13 vCPUs" (the SLA page) and "each database needs at least N vCPUs" (the sizer's
    database_vm_rate): only the user binds. rate_carried says which binds, and what it needs: the fewest users that
    reach the rate at the same latency (Little's law), N carrying it and N - 1 not."""
    from planner.commercial.database import rate_carried
    from planner.models.design import load_design

    design = load_design(EX / "reference.json")
    one = db(virtual_users=1)
    r = rate_carried(design, one, 1.0)
    assert not r["carried"] and r["cpu_limited_tpm"] > r["asked_tpm"] > r["users_limited_tpm"]
    assert r["binding"] == ["virtual_users"] and "vCPU" not in r["needs"]
    n = r["users_needed"]
    assert n > 1 and r["needs"] == f"at least {n} virtual users"
    assert rate_carried(design, one.model_copy(update={"virtual_users": n}), 1.0)["carried"]
    assert not rate_carried(design, one.model_copy(update={"virtual_users": n - 1}), 1.0)["carried"]
    # the vCPUs binding: they are what it needs, and no users
    cpu = rate_carried(design, db(vcpus=4), 1.0)
    assert cpu["binding"] == ["vcpus"] and cpu["needs"].startswith(f"at least {cpu['vcpus_needed']} vCPUs")
    # the sizer's rule says the same
    from planner.models.demand import Demand
    from planner.sizing.search import size

    d = Demand.model_validate(
        json.loads((EX / "demand-hammerdb.json").read_text())
        | {"database": {"name": "x", "size_gb": 1000, "buffer_pool_gb": 128, "nopm": 20_000, "virtual_users": 1}}
    )
    res = size(d, top=1)
    reason = res.best["checks"]["database_vm_rate"]["reason"]
    assert re.search(r"each database needs at least \d+ virtual users$", reason), reason
    assert "give each database at least" in res.explanation and "vCPU oversubscription" not in res.explanation


def test_one_databases_users_bound_is_one_function_and_each_figure_says_what_it_counts(capsys, tmp_path):
    """DBA walk 2026-11-30: one database (1 virtual user, 200,000 NOPM) read "at most 33,785 TPM when an IO takes
    1 ms" in `db-io`, "at most 32,874 TPM at 1 ms IO" in `sla --database` and 58,711 TPM a server in its
    database_capacity, with no word why. The two "1 ms" figures are one function's (users_limited_tps): `db-io` has
    no design, so no clock for the guest IO stack's CPU and the VM's vCPUs whole; the guarantee counts both; each
    says so. The capacity takes the design's modelled latency, and says that."""
    from planner.commercial.database import guest_us_per_io
    from planner.models.catalog import load_catalog
    from planner.models.database import users_limited_tps
    from planner.models.design import load_design
    from planner.models.params import default_params

    one = {"name": "one", "size_gb": 1000, "buffer_pool_gb": 128, "nopm": 200_000, "virtual_users": 1}
    f = tmp_path / "db.json"
    f.write_text(json.dumps(one))
    d = io_demand(Database.model_validate(one), log_write_latency_ms=1.0)
    assert main(["db-io", str(f)]) == 0
    (warn,) = json.loads(capsys.readouterr().out)["warnings"]
    alone = users_limited_tps(Database.model_validate(one), d, 1.0, 16, 0.0) * 60
    assert f"reaches at most {alone:,.0f} TPM when an IO takes 1 ms" in warn
    assert "the default 16 vCPUs (give vcpus), the guest IO stack's not counted" in warn, warn
    args = ["sla", str(EX / "reference.json"), "--database", str(f), "--vcpu-oversubscription", "1"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    rate, cap = out["rate"], out["database_capacity"]
    design = load_design(EX / "reference.json")
    guest = guest_us_per_io(design, load_catalog(), default_params())
    assert rate["users_limited_tpm"] == pytest.approx(
        users_limited_tps(Database.model_validate(one), d, 1.0, 16, guest) * 60, rel=1e-12
    )
    assert rate["users_limited_tpm"] < alone  # the guest IO stack's CPU, counted here, lengthens each call
    assert "counted with the guest IO stack's on its 16 vCPUs" in rate["note"], rate["note"]
    assert cap["binding"] == "virtual_users" and cap["per_server_tpm"] > alone
    assert cap["binding_note"].startswith("1 virtual user with no think time"), cap["binding_note"]
    assert f"at the design's modelled latency ({cap['vm_read_latency_ms']:.3f} ms a read" in cap["binding_note"]


def test_the_users_bound_is_littles_law_at_its_own_rate(capsys):
    """CLI review 2026-11-29: `sla seed-datrium-dvx --database db-seed-datrium` said 500 users reach at most
    941,770 TPM, taking their response time at the asked rate, past the vCPUs' bound (99.9 % busy: a 30 ms CPU
    queue), where the capacity in the same output found 1,977,396 (the published run: 2,000,000). The bound is
    the rate x = users / R(x), below the vCPUs' bound, and the capacity (users and storage too) reaches it."""
    from planner.models.database import response_time_s, users_rate

    assert main(["sla", str(EX / "seed-datrium-dvx.json"), "--database", str(EX / "db-seed-datrium.json")]) == 0
    out = json.loads(capsys.readouterr().out)
    rate, cap = out["rate"], out["database_capacity"]
    assert rate["users_limited_tpm"] <= rate["cpu_limited_tpm"]
    assert cap["max_tpm"] <= rate["users_limited_tpm"] * (1 + 1e-9)
    assert rate["users_limited_tpm"] == pytest.approx(cap["max_tpm"], rel=0.02)
    # the fixed point itself, on a toy demand: x R(x) = users where the vCPUs do not bind first
    db = Database.model_validate(
        {"name": "t", "size_gb": 500, "buffer_pool_gb": 16, "nopm": 50_000, "vcpus": 8, "virtual_users": 20}
    )
    d = io_demand(db)
    x = users_rate(d, 1e-3, 8, 8 / 1e-3, 20, 5.0)
    assert x * response_time_s(d, 1e-3, 8, x, 5.0, 5.0) == pytest.approx(20, rel=1e-6)


def test_a_database_that_does_not_fit_never_reads_as_the_usable_capacity(capsys, tmp_path):
    """DBA walk 2026-11-30: `sla examples/reference.json` with a 3,000 GB database said "3 databases of 3.00 TB
    (9.00 TB) do not fit in the storage's usable 9.00 TB" (usable: 8.997 TB). Where the two figures compared round
    equal, they are shown with the digits that tell them apart: the capacity's note, the guarantee's and
    `compare --database`'s."""
    from planner.core.text import decimals_apart

    assert decimals_apart(9.0, 8.997) == 3 and decimals_apart(27.0, 8.997) == 2 and decimals_apart(1.0, 1.0) == 6
    f = tmp_path / "db.json"
    # 2,000 GB of data with its log and tempdb (DBA review 2026-11-30): 3.000 TB each
    f.write_text(json.dumps({"name": "big", "size_gb": 2000, "buffer_pool_gb": 128, "nopm": 200_000}))
    assert main(["sla", str(EX / "reference.json"), "--database", str(f)]) == 0
    # the maximum counts the 2 servers whose databases the storage holds, and says so (DBA walk 2026-11-30)
    note = json.loads(capsys.readouterr().out)["database_capacity"]["servers_note"]
    assert re.match(
        r"3 databases of 3\.000 TB with their log and tempdb \(9\.000 TB\), one on each database server, do not fit "
        r"in the storage's usable 8\.99\d TB",
        note,
    ), note
    f.write_text(json.dumps({"name": "big", "size_gb": 5999.4, "buffer_pool_gb": 128, "nopm": 2000}))
    assert main(["sla", str(EX / "reference.json"), "--database", str(f)]) == 0
    g = json.loads(capsys.readouterr().out)["guarantee"]["note"]
    assert g.startswith("8.999 TB with its log and tempdb does not fit: usable 8.99"), g
    assert main(["compare", str(EX / "reference.json"), "--database", str(f)]) == 0
    (w,) = [w["message"] for w in json.loads(capsys.readouterr().out)[0]["warnings"] if "does not fit" in w["message"]]
    assert w.startswith("the database (8.999 TB with its log and tempdb) does not fit in the design's usable 8.99"), w


def test_the_most_a_design_sustains_of_a_database_it_cannot_hold_or_run(capsys):
    """CLI review 2026-11-29: on the DL580 with RAID 1 (0.12 TB usable) `sla --database db-seed-datrium`
    (0.5 TB) gave 49,896 TPM beside the guarantee's "does not fit"; the DataON database's 48 vCPUs ran as 48
    on the DL580's 12 logical processors; "bottleneck: none" stood beside "file server CPU 100% busy"; and
    "meets: false" beside a maximum above the rate asked said nothing of why both hold."""
    assert main(["sla", str(EX / "seed-dl580-raid1.json"), "--database", str(EX / "db-seed-datrium.json")]) == 0
    c = json.loads(capsys.readouterr().out)["database_capacity"]
    assert c["binding"] == "capacity" and c["max_tpm"] is None and c["max_nopm_low"] is None
    assert c["max_tpm_note"] == (
        "a 0.75 TB database with its log and tempdb does not fit in the storage's usable 0.12 TB: no rate is sustained"
    )
    big = EX / "db-seed-dataon.json"
    assert main(["sla", str(EX / "seed-dl580-iodrive.json"), "--database", str(big), "--vcpus", "200"]) == 0
    out = json.loads(capsys.readouterr().out)
    c = out["database_capacity"]
    assert c["vcpus"] == 12 and c["vcpus_capped_note"].startswith("the database's 200 vCPUs run on a server of 12")
    assert "12 logical processors" in out["rate"]["note"]
    assert main(["sla", str(EX / "seed-dataon-sofs-1db.json"), "--database", str(big)]) == 0
    out = json.loads(capsys.readouterr().out)
    c = out["database_capacity"]
    assert c["bottleneck"] == "file_server_cpu" and "file server CPU" in c["binding_note"]
    assert out["meets"] is False and c["max_nopm"] > out["demand"]["nopm"]
    assert (
        out["meets_note"].startswith("the database's promise holds when its peak IO (421,761 IOPS")
        and "database_capacity" in out["meets_note"]
    )


def test_met_at_the_prediction_but_not_across_the_band_says_so():
    """Browser review 2026-11-29: "Guaranteed 74,585, band 9,988-126,752 IOPS" beside "Needs (peak) 14,905
    +400 %: met", with no word that the band's low end is under the need."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(Path(__file__).resolve().parent.parent / "app.py"), default_timeout=180).run()
    at.switch_page("hciplan_ui/sla_page.py").run()
    at.radio(key="sla_by").set_value("what a DBA knows (size, buffer pool, HammerDB rate)").run()
    at.number_input(key="sla_vcpus").set_value(48).run()
    at.number_input(key="sla_threads").set_value(16).run()
    at.selectbox(key="sla_stat").set_value("p99").run()
    at.number_input(key="sla_target").set_value(1.8).run()
    assert not at.exception
    need = next(m for m in at.metric if m.label.startswith("Needs ("))
    shown = [c.value for c in at.caption if "Met at the prediction, not across its band" in c.value]
    band = [c.value for c in at.caption if c.value.startswith("band ") and "IOPS" in c.value]
    if need.delta.endswith("met") and not need.delta.endswith("not met") and band:
        low = float(band[0].split()[1].split("–")[0].replace(",", ""))
        needed = float(need.value.replace(",", ""))
        assert (low < needed) == bool(shown), (band, need.value, shown)
    assert shown, [m.label + " " + str(m.value) + " " + str(m.delta) for m in at.metric] + band


def test_the_vm_size_table_in_io_mode_points_to_the_dba_mode():
    """Browser review 2026-11-29: in the IO mode the VM-size table ended "no target: give the database's workload or
    a target IOPS", and the mode has no target IOPS field."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(Path(__file__).resolve().parent.parent / "app.py"), default_timeout=180).run()
    at.switch_page("hciplan_ui/sla_page.py").run()
    at.session_state["sla_by_size"] = True
    at.run()
    said = [c.value for c in at.caption]
    assert not any("a target IOPS" in c for c in said)
    assert any(c.startswith("What each VM size is guaranteed. Describe the database by what a DBA knows") for c in said)


def test_the_smallest_vm_carries_the_rate_as_well_as_the_io():
    """Browser review 2026-11-29: the SLA page warned "no VM size carries this rate" (SQL Server's work) and,
    below it, named "The smallest VM guaranteed the database's 138,461 IOPS: 32 vCPUs". It then said "(its IO
    only ...)"; since the DBA walk of 2026-12-03 the smallest VM is the first that carries the rate too, and the
    table says which sizes do."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(Path(__file__).resolve().parent.parent / "app.py"), default_timeout=180).run()
    at.switch_page("hciplan_ui/sla_page.py").run()
    at.radio(key="sla_by").set_value("what a DBA knows (size, buffer pool, HammerDB rate)").run()
    at.number_input(key="sla_db_rate").set_value(150000).run()  # more than 16 vCPUs at 4:1 carry
    at.session_state["sla_by_size"] = True
    at.run()
    assert not at.exception
    assert any("carry at most" in w.value for w in at.warning), [w.value for w in at.warning]
    small = [c.value for c in at.caption if c.value.startswith("The smallest VM guaranteed")]
    assert small, [c.value for c in at.caption]
    assert "IOPS that also carries its transaction rate: 32 vCPUs" in small[0], small
    table = next(d.value for d in at.dataframe if "Carries its TPM" in d.value.columns)
    carries = dict(zip(table["vCPUs"], table["Carries its TPM"], strict=True))
    assert carries["16 (this database's VM)"] == "no" and carries["32"] == "yes", carries


def test_the_summed_maximum_note(capsys):
    """CLI review 2026-11-29: `sla nvme-pmem-12node --database db-oltp-hammerdb` gave a max_tpm of millions "of this
    database": a sum over 12 database servers, each running one such database."""
    from planner.cli import main

    assert main(["sla", "examples/nvme-pmem-12node.json", "--database", "examples/db-oltp-hammerdb.json"]) == 0
    c = json.loads(capsys.readouterr().out)["database_capacity"]
    assert c["max_tpm_note"].startswith("summed over 12 database servers, each running one such database at ")
    assert c["max_tpm_note"].endswith("TPM (per_server_tpm), its vCPUs its own")
    assert c["max_tpm"] == pytest.approx(12 * c["per_server_tpm"])


def test_the_most_sustained_says_it_has_the_design_to_itself():
    """Browser review 2026-11-29: with other tenants the guarantee was 0 and "The most this design sustains" 313,055
    NOPM, with no word that the maximum leaves the other tenants out."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(Path(__file__).resolve().parent.parent / "app.py"), default_timeout=180).run()
    at.switch_page("hciplan_ui/sla_page.py").run()
    at.radio(key="sla_by").set_value("what a DBA knows (size, buffer pool, HammerDB rate)").run()
    at.session_state["sla_capacity"] = True
    at.run()
    assert at.radio(key="sla_bg").value != "none"
    assert any(c.value.startswith("With no other tenants, unlike the guarantee above") for c in at.caption)
    at.radio(key="sla_bg").set_value("none").run()
    assert not any(c.value.startswith("With no other tenants") for c in at.caption)


def test_db_io_says_every_warehouse_is_active_when_no_virtual_users_are_given(capsys):
    """CLI review 2026-11-30: `db-io examples/db-oltp-hammerdb.json` gave a 0.483 hit ratio (130,208 IOPS) and
    the same database with 10 virtual users 0.997 (2,352 IOPS), a 55x swing nothing in the output named."""
    from planner.models.database import Database, io_demand

    db = Database(name="x", size_gb=1000, buffer_pool_gb=128, nopm=200_000)
    io = io_demand(db)
    row = next(a for a in io.assumptions if a["field"] == "virtual_users")
    assert row["value"] is None and row["value_note"] == "not given: every warehouse active"
    assert "no buffer_hit_ratio or virtual_users given, so its reads are taken with every warehouse active" in (
        io.buffer_hit_note
    )
    ten = io_demand(db.model_copy(update={"virtual_users": 10}))
    assert ten.buffer_hit_ratio > io.buffer_hit_ratio and "virtual_users" not in ten.buffer_hit_note
    assert next(a for a in ten.assumptions if a["field"] == "virtual_users")["value"] == 10


def test_a_database_capacity_never_quotes_figures_its_own_note_denies(capsys):
    """CLI review 2026-11-30: `sla ceph-disaggregated --database ...` said "the storage saturates (host CPU 100%
    busy)" beside a VM latency of 4.945 ms; on a single server whose storage cannot hold the database, "no rate
    is sustained" beside 74,313 IOPS and the vCPUs 41 % busy."""
    from planner.cli import main

    for design, kind in (("ceph-disaggregated", "saturates"), ("single-server-pcie-flash", "does not fit")):
        assert main(["sla", f"examples/{design}.json", "--database", "examples/db-oltp-hammerdb.json"]) == 0
        c = json.loads(capsys.readouterr().out)["database_capacity"]
        assert kind in c["binding_note"], design
        assert c["vm_latency_ms"] is None and c["vm_latency_ms_note"], design
        if kind == "does not fit":
            assert c["iops"] is None and c["vcpu_utilization"] is None and c["iops_note"] == c["binding_note"]
        assert not [k for k in c if k.endswith("_note_note")] and all(v for k, v in c.items() if k.endswith("_note"))


def test_a_disaggregated_designs_database_rate_says_the_guarantee_shares_its_vcpus(capsys):
    """CLI review 2026-11-30: `sla ceph-disaggregated --database ...` counted the database VM's 16 vCPUs whole
    for its rate and bound its guarantee on their 1/4 share at the design's 4:1 oversubscription, with no word
    why: the client servers host VMs under that oversubscription as hyperconverged nodes do."""
    from planner.cli import main

    assert main(["sla", "examples/ceph-disaggregated.json", "--database", "examples/db-oltp-hammerdb.json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "counts them shared at the design's 4:1 vCPU oversubscription" in out["database_capacity"]["vcpus_note"]


def test_compare_database_says_which_question_it_answers(capsys):
    """CLI review 2026-11-30: `compare reference --database db-oltp-hammerdb` gave 130,208 IOPS at 0.448 ms, and
    `sla` on the same pair 88,532 guaranteed IOPS and "meets: false", with no word that they answer different
    questions."""
    from planner.cli import main
    from planner.sizing.compare import DATABASE_NOTE

    assert main(["compare", "examples/reference.json", "--database", "examples/db-oltp-hammerdb.json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert DATABASE_NOTE in row["notes"] and "sla --database" in DATABASE_NOTE
    # its VM's vCPUs are not counted, so no figure says they idle ("vm_vcpu": 0.0; CLI review 2026-11-30, again)
    assert "vm_vcpu" not in row["utilization"] and "vCPUs not counted" in DATABASE_NOTE
    assert main(["compare", "examples/reference.json", "--workload", "oltp-8k"]) == 0
    row = json.loads(capsys.readouterr().out)[0]
    assert DATABASE_NOTE not in row["notes"] and "vm_vcpu" in row["utilization"]


def test_db_io_says_the_cores_its_rate_keeps_busy(tmp_path, capsys):
    """CLI review 2026-11-30: 1e9 NOPM printed 547 M IOPS and nothing of the ~13,000 cores its transactions need
    against the database VM's default 16 vCPUs."""
    from planner.cli import main

    f = tmp_path / "db.json"
    f.write_text(json.dumps({"size_gb": 1000, "buffer_pool_gb": 128, "nopm": 1e9}))
    assert main(["db-io", str(f)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["sql_server_cores_busy"] > 16 and "more than the default 16 vCPUs (give vcpus)" in out["warnings"][0]
    assert main(["db-io", "examples/db-oltp-hammerdb.json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["sql_server_cores_busy"] < 16 and out["warnings"] == []


def test_db_io_warns_of_a_rate_its_users_or_its_log_cannot_make(tmp_path, capsys):
    """CLI review 2026-11-30: one virtual user was said to run 7,744 transactions a second at 1 ms an IO
    (Little's law allows about 560), and 250 log writes a second at 1 s each (250 in flight, where SQL Server
    keeps at most 112), with no warning; `sla --database` bounded the first."""
    from planner.cli import main
    from planner.models.oltp import LOG_WRITES_IN_FLIGHT_MAX

    f = tmp_path / "db.json"
    f.write_text(json.dumps({"size_gb": 1000, "buffer_pool_gb": 64, "nopm": 200_000, "virtual_users": 1}))
    assert main(["db-io", str(f)]) == 0
    (warn,) = json.loads(capsys.readouterr().out)["warnings"]
    assert warn.startswith("with 1 virtual user and no think time") and "Little's law" in warn
    assert main(["db-io", "examples/db-oltp-hammerdb.json", "--log-write-latency-ms", "1000"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["log_flushes_per_s"] * 1.0 > LOG_WRITES_IN_FLIGHT_MAX
    assert any(f"above the {LOG_WRITES_IN_FLIGHT_MAX} SQL Server allows" in w for w in out["warnings"])
    # enough users, and the default 1 ms: no warning
    f.write_text(json.dumps({"size_gb": 1000, "buffer_pool_gb": 64, "nopm": 200_000, "virtual_users": 500}))
    assert main(["db-io", str(f)]) == 0
    assert json.loads(capsys.readouterr().out)["warnings"] == []


def test_db_io_and_the_compare_page_share_one_list_of_warnings(tmp_path, capsys):
    """DBA walk 2026-11-30: the Compare page gave none of the warnings `db-io` gives of the same database (1 virtual
    user at 200,000 NOPM), and `db-io` said "against the database VM's 16 vCPUs" of a description that gave none. One
    library list (database_warnings) for both; a default count of vCPUs is said as one; the log stream says 7.1
    flushes in flight are more than 1 user keeps."""
    from planner.commercial.database import database_warnings

    one = {"name": "one", "size_gb": 1000, "buffer_pool_gb": 128, "nopm": 200_000, "virtual_users": 1}
    f = tmp_path / "db.json"
    f.write_text(json.dumps(one))
    assert main(["db-io", str(f)]) == 0
    out = json.loads(capsys.readouterr().out)
    dbo = Database.model_validate(one)
    assert out["warnings"] == database_warnings(dbo, io_demand(dbo)) and len(out["warnings"]) == 1
    assert out["sql_server_cores_busy_note"].endswith("against the default 16 vCPUs (give vcpus)")
    (log,) = [s["rule"] for s in out["streams"] if s["name"] == "log writes"]
    assert "more than its 1 virtual user can keep: the rate is past them" in log, log
    f.write_text(json.dumps(one | {"vcpus": 8, "virtual_users": 500}))
    assert main(["db-io", str(f)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["sql_server_cores_busy_note"].endswith("against the database VM's 8 vCPUs") and out["warnings"] == []
    assert not any("can keep" in s["rule"] for s in out["streams"])


def test_db_io_echoes_the_rate_as_given_and_says_a_pool_holds_the_whole_database(tmp_path, capsys):
    """CLI review 2026-11-30: 2,000 NOPM came back as 1999.9999999999998; a pool the size of the database still
    read 140 pages a second with no word of why."""
    from planner.cli import main

    f = tmp_path / "db.json"
    f.write_text(json.dumps({"size_gb": 1000, "buffer_pool_gb": 1000, "nopm": 2000}))
    assert main(["db-io", str(f)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["nopm"] == 2000 and "holds the whole database" in out["buffer_hit_note"]
    f.write_text(json.dumps({"size_gb": 1000, "buffer_pool_gb": 64, "tpm": 300_000}))
    assert main(["db-io", str(f)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["tpm"] == 300_000 and "holds the whole database" not in out["buffer_hit_note"]


def test_compare_and_sla_give_a_database_the_same_io_on_a_design(capsys):
    """Performance walk 2026-12-01: `compare --database` gave db-oltp-hammerdb 132,745.8 IOPS on the reference (the
    assumed 1 ms log flush, 1,000 flushes a second), `sla --database` 133,863.4 (the design's 0.472 ms, 2,117.6 a
    second), and compare's note did not say it assumed the flush. One rule (design_io_demand): the design's own."""
    from planner.cli import main

    db = str(EX / "db-oltp-hammerdb.json")
    assert main(["sla", str(EX / "reference.json"), "--database", db, "--vcpus", "16"]) == 0
    sla = json.loads(capsys.readouterr().out)
    assert main(["compare", str(EX / "reference.json"), "--database", db]) == 0
    (cmp,) = json.loads(capsys.readouterr().out)
    assert cmp["iops"] == pytest.approx(sla["needed_iops"], rel=1e-9)
    assert any("predicted write latency" in n and "flushes a second" in n for n in cmp["notes"])


def test_compare_shows_no_latency_for_a_system_past_saturation(capsys):
    """CLI review 2026-11-30: the SAN carried 47,612 of the database's 130,208 IOPS and was compared at
    "vm_latency_ms": 21.48, a latency at 99.9 % busy that Little's law ties to no IO count the database has;
    the app's Compare page says "none: past saturation" for the same system."""
    from planner.cli import main
    from planner.engine.performance import PAST_SATURATION_NOTE
    from planner.sizing.compare import LATENCY_KEYS

    args = [
        "compare",
        "examples/reference.json",
        "examples/san-raid5.json",
        "--database",
        "examples/db-oltp-hammerdb.json",
    ]
    assert main(args) == 0
    ref, san = json.loads(capsys.readouterr().out)
    assert san["saturated"] and not ref["saturated"]
    assert "vm_latency_ms" in LATENCY_KEYS and "p99_read_latency_ms" in LATENCY_KEYS
    for k in LATENCY_KEYS:
        assert san[k] is None and san[f"{k}_note"] == PAST_SATURATION_NOTE, k
        assert ref[k] is not None and f"{k}_note" not in ref, k
    # its warning leaves out "the latencies shown are at the capacity", as it shows none (verification walk
    # 2026-11-30)
    (warn,) = [w["message"] for w in san["warnings"] if w["check"] == "saturated"]
    assert warn.endswith("its queues grow without end") and "latencies shown" not in warn


def test_compare_shows_no_latency_for_an_open_load_a_cpu_cap_throttles(tmp_path, capsys):
    """Known gap (stop 51's log): 5,000,000 IOPS asked of the reference cluster under a 50 % CPU utilisation cap
    was compared at "vm_latency_ms": 0.483 beside 433,936 IOPS let through, with a warning only: an open load
    the cap holds back never reaches its rate, the IOs held back queue without end, and no latency holds at the
    rate it asks. Its latencies are null with the reason, as past saturation."""
    from planner.cli import main
    from planner.engine.performance import THROTTLED_NOTE
    from planner.sizing.compare import LATENCY_KEYS

    design = json.loads((EX / "reference.json").read_text()) | {"cpu_utilization_cap": 0.5}
    (tmp_path / "d.json").write_text(json.dumps(design))
    load = {"name": "open", "block_size_kib": 8, "read_fraction": 0.7, "iops": 5_000_000, "vms_per_node": 50}
    (tmp_path / "w.json").write_text(json.dumps(load))
    assert main(["compare", str(tmp_path / "d.json"), "--workload", str(tmp_path / "w.json")]) == 0
    (out,) = json.loads(capsys.readouterr().out)
    assert not out["saturated"] and out["limited_by"] == "cpu_utilization_cap" and out["iops"] < 5_000_000
    for k in LATENCY_KEYS:
        assert out[k] is None and out[f"{k}_note"] == THROTTLED_NOTE, k
    assert "CPU utilisation cap" in THROTTLED_NOTE or "pacing" in THROTTLED_NOTE
    # its warning leaves out "the latencies shown are of the IOs admitted", as it shows none
    (warn,) = [w for w in out["warnings"] if w["check"] == "throttled"]
    assert "latencies shown" not in warn["message"] and warn["message"] == warn["short"]
    # a load under the cap keeps its latencies
    (tmp_path / "w.json").write_text(json.dumps(load | {"iops": 10_000}))
    assert main(["compare", str(tmp_path / "d.json"), "--workload", str(tmp_path / "w.json")]) == 0
    (out,) = json.loads(capsys.readouterr().out)
    assert all(out[k] is not None and f"{k}_note" not in out for k in LATENCY_KEYS)


@pytest.mark.parametrize("bp", [1, 4, 11, 12, 16, 64, 128, 512])
def test_a_database_vm_holds_its_buffer_pool_and_what_windows_and_sql_server_need_beside_it(bp):
    """Browser review 2026-11-30: a DBA's database was given a VM of exactly its 64 GB buffer pool. The rule left
    beside max server memory: 1 GB for the OS, 1 GB per 4 GB of the first 16 GB, 1 GB per 8 GB above."""
    from planner.models.database import vm_ram_gb
    from planner.models.demand import Demand

    def left(r):
        return 1 + min(r, 16) / 4 + max(r - 16, 0) / 8

    ram = vm_ram_gb(bp)
    assert ram == int(ram) and ram - left(ram) >= bp - 1e-9 and (ram - 1) - left(ram - 1) < bp
    d = Demand.model_validate(
        {"database": {"name": "d", "size_gb": 1000, "buffer_pool_gb": bp, "nopm": 2000}, "databases": 2}
    )
    assert d.ram_gb_per_db == ram


def test_a_hit_ratio_at_the_models_floor_is_a_warning(capsys, tmp_path):
    """DBA review 2026-11-30: `db-io` of 20 TB with a 64 GB pool at 100,000 NOPM printed "buffer_hit_ratio": 0.0 and
    "warnings": [] (the model's range only in buffer_hit_note), and the Compare page "buffer-pool hit 0%"."""
    import json as _json

    from planner.cli import main as cli
    from planner.models.database import Database, io_demand

    db = Database(name="big", size_gb=20_000, buffer_pool_gb=64, nopm=100_000)
    d = io_demand(db)
    assert d.buffer_hit_ratio == 0.0 and "not a measurement" in d.buffer_hit_warning
    assert io_demand(db.model_copy(update={"buffer_pool_gb": 128})).buffer_hit_warning is None
    assert io_demand(db.model_copy(update={"buffer_hit_ratio": 0.9})).buffer_hit_warning is None  # measured
    path = tmp_path / "big.json"
    path.write_text(db.model_dump_json(exclude_none=True))
    assert cli(["db-io", str(path)]) == 0
    out = _json.loads(capsys.readouterr().out)
    assert d.buffer_hit_warning in out["warnings"]
    # a pool just below the pages in use is not said to be below itself (DBA walk 2026-11-30: "the 4 GB buffer pool
    # is below the 4 GB the active warehouses keep in use", of 4.2)
    w = io_demand(Database(name="x", size_gb=1000, buffer_pool_gb=4, nopm=200_000)).buffer_hit_warning
    assert w is not None and "below the 4.18 GB" in w, w


def test_the_log_stream_says_when_more_than_one_flush_is_in_flight():
    """DBA review 2026-11-30: Datrium's database read "28.3 commits per flush at 1 ms a flush" beside 1,076 flushes a
    second, more than one flush in flight can make at 1 ms: the 60 KB log block, not the commits, sets the count."""
    from planner.models.database import io_demand, load_database

    ex = Path(__file__).resolve().parent.parent / "examples"
    d = io_demand(load_database(ex / "db-seed-datrium.json"))
    log = next(s for s in d.streams if s.name == "log writes")
    assert d.log_flushes_per_s * 1e-3 > 1.0 and "flushes in flight" in log.rule
    small = io_demand(load_database(ex / "db-oltp-hammerdb.json"))
    assert small.log_flushes_per_s * 1e-3 <= 1.0 + 1e-9  # its commits set the count: one in flight
    assert "flushes in flight" not in next(s for s in small.streams if s.name == "log writes").rule


def test_the_log_stream_names_what_sets_its_flush_count():
    """DBA walk 2026-11-30: with 1 virtual user the log stream said "the 60 KB block sets the count: 7.1 flushes in
    flight" beside 2.5 KiB flushes: the users capped the commits a flush carries, not the block."""
    from planner.models.database import Database, io_demand
    from planner.models.oltp import log_flushes

    def rule(**kw):
        d = io_demand(Database(name="x", size_gb=50, buffer_pool_gb=100, nopm=200_000, **kw))
        return next(s.rule for s in d.streams if s.name == "log writes")

    assert "the 1 virtual user committing caps the commits a flush carries: 7.1 flushes in flight" in rule(
        virtual_users=1
    )
    assert "60 KB block sets" not in rule(virtual_users=1) and "flushes in flight" not in rule(virtual_users=384)
    assert log_flushes(1000.0, 0.001, 100_000.0)["bound"] == "block"  # 100 MB/s of log in 60 KB blocks
    assert log_flushes(1000.0, 0.01, 100.0)["bound"] == "commits"
    assert log_flushes(10_000.0, 0.01, 100.0, users=2)["bound"] == "users"


def test_the_shipped_oltp_calibration_is_what_its_script_fits_today():
    """DBA walk 2026-11-30: planner/data/oltp-calibration.json was behind its script (its held-out HammerDB i9 check
    read -12.5 % where the fit of the code as it stood gave -14.3 %), and the fit counted the guest IO CPU at 3 GHz
    where the Datrium seed design it was fitted for runs at 2.6 GHz, so that seed carried 1.1 % less than its own
    run. The file is the script's output, and the seed design carries its run's CPU bound exactly."""
    import importlib.util

    from planner.commercial.database import rate_carried
    from planner.core.resources import EXAMPLES_DIR, data_path
    from planner.models.design import load_design

    root = Path(__file__).resolve().parents[1]

    spec = importlib.util.spec_from_file_location("fit_oltp", root / "scripts" / "fit_oltp.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)

    def rounded(x):  # to 9 significant digits: the same fit on another machine's floating point
        if isinstance(x, float):
            return float(f"{x:.9g}")
        if isinstance(x, dict):
            return {k: rounded(v) for k, v in x.items()}
        return [rounded(v) for v in x] if isinstance(x, list) else x

    shipped = json.loads(data_path("oltp-calibration.json").read_text())
    assert rounded(json.loads(json.dumps(mod.fit()))) == rounded(shipped)
    design = load_design(EXAMPLES_DIR / "seed-datrium-dvx.json")
    db = Database.model_validate_json((EXAMPLES_DIR / "db-seed-datrium.json").read_text())
    rate = rate_carried(design, db, 1.0)
    assert rate["cpu_limited_tpm"] == pytest.approx(db.tpm, rel=1e-9)


@pytest.mark.parametrize(
    ("design", "database", "binding", "raised"),
    [
        ("reference.json", "db-oltp-hammerdb.json", "storage", "a higher CPU utilisation cap, or more or faster CPU"),
        ("seed-datrium-dvx.json", "db-seed-datrium.json", "database_vcpus", "a database VM of more vCPUs"),
        ("seed-dataon-sofs-4db.json", "db-seed-dataon.json", "storage", "more or faster file server cores"),
        # another architecture's station says what raises it (the advice had been chosen by a station name's
        # words, and a RAID controller, FC links or a share of CPU reserved for storage got the generic line)
        ("single-server-sata-raid10.json", "db-oltp-hammerdb.json", "storage", "a faster RAID controller"),
        ("san-raid5.json", "db-oltp-hammerdb.json", "storage", "more or faster FC paths"),
        ("split-provisioned.json", "db-oltp-hammerdb.json", "storage", "a larger share of the compute nodes' CPU"),
        ("seed-dl580-raid1.json", "db-seed-dataon.json", "capacity", "more usable capacity"),
    ],
)
def test_the_database_capacity_says_what_binds_it_apart_from_the_busiest_station_and_what_raises_it(
    capsys, design, database, binding, raised
):
    """DBA walk 2026-11-30: "binding: storage" beside "bottleneck: host_cpu", and for Datrium "binding:
    database_vcpus" beside "bottleneck: storage_cpu", read as opposite answers; a DBA could not tell whether to
    buy cores or drives."""
    assert main(["sla", str(EX / design), "--database", str(EX / database)]) == 0
    cap = json.loads(capsys.readouterr().out)["database_capacity"]
    assert cap["binding"] == binding
    assert cap["raises_it"].startswith(raised), cap["raises_it"]
    assert cap["bottleneck_note"].endswith(f"what stops the database is binding ({binding})") or binding == "capacity"


def test_a_pool_beyond_the_database_says_nothing_is_read_not_that_reads_are_left():
    """DBA walk 2026-11-30: a 1,000 GB pool for a 100 GB database said "the reads left are of pages the run
    appends" beside 0 reads per transaction, and nothing of the 900 GB the pool holds beyond the data."""
    d = io_demand(Database(name="x", size_gb=100, buffer_pool_gb=1000, nopm=20000))
    assert d.reads_per_txn == 0
    assert "nothing is read once it is warm, and 900 GB of the pool hold nothing" in d.buffer_hit_note
    assert "the reads left are" not in d.buffer_hit_note


def test_a_hit_ratio_that_reads_like_perfmons_counter_is_warned_about():
    """Migration walk 2026-11-30: a DBA gives perfmon's Buffer cache hit ratio (99.5 %), which counts every page
    lookup; the input is the share of the row lookups' pages the pool holds. 0.995 cut a 650 GB database's reads
    from about 10 to 0.1 per transaction without a word."""
    from planner.commercial.database import database_warnings

    db = Database(name="gl", size_gb=650, buffer_pool_gb=52, tpm=90000, buffer_hit_ratio=0.995, vcpus=8)
    d = io_demand(db)
    assert d.buffer_hit_warning and "perfmon's Buffer cache hit ratio" in d.buffer_hit_warning
    assert d.buffer_hit_warning in database_warnings(db, d)
    # the model's own ratio, or a measured one at or below it, is not warned about
    assert io_demand(db.model_copy(update={"buffer_hit_ratio": None})).buffer_hit_warning is None
    assert io_demand(db.model_copy(update={"buffer_hit_ratio": 0.3})).buffer_hit_warning is None


def test_the_cpu_per_transaction_band_is_not_the_tpce_spread_alone():
    """DBA review 2026-11-30: the CPU per transaction, fitted on one point (Datrium), carried the TPC-E spread
    (0.86-1.12x) as its band: how per-core cost varies between CPUs, not the fit's error; the held-out i9 run fell at
    its edge (-13.7 %). The band compounds the spread with the fit's error taken either way as the i9 gives it, says
    so, and is the one the capacity carries when the database's vCPUs bind."""
    from planner.models.database import oltp_calibration

    c = oltp_calibration()["cpu_us_per_txn"]
    tpce_lo, tpce_hi = c["spread_ratio"]
    i9 = oltp_calibration()["held_out"]["hammerdb_i9"]
    ratio = i9["predicted_tpm"] / i9["measured_tpm"]  # its CPU per transaction over the fit's
    factor = max(ratio, 1 / ratio)
    lo, hi = c["band_ratio"]
    assert (lo, hi) == pytest.approx((tpce_lo / factor, tpce_hi * factor))
    assert lo < tpce_lo and hi > tpce_hi and lo < ratio < hi
    assert c["band_components"]["tpce_spread"] == [tpce_lo, tpce_hi]
    assert c["band_components"]["fit_error_factor"] == pytest.approx(factor)
    assert f"{lo:.2f}-{hi:.2f}x the fitted CPU per transaction, a stated assumption" in c["band_basis"]
    assert "Azure SQL Managed Instance runs are held out and not in it" in c["band_basis"]
    # the docs say how it is built, with its figures
    root = Path(__file__).resolve().parents[1]
    model = " ".join((root / "docs" / "model.md").read_text(encoding="utf-8").split())
    acc = " ".join((root / "docs" / "accuracy.md").read_text(encoding="utf-8").split())
    for text in (model, acc):
        assert f"a factor of {factor:.3f}" in text and f"{lo:.2f}-{hi:.2f}x" in text
    assert f"the CPU per transaction's band for the vCPUs, {1 / hi:.2f}-{1 / lo:.2f}x the rate" in model
    assert f"a capacity the database's vCPUs bind carries {1 / hi:.2f}-{1 / lo:.2f}x its figure" in acc


def test_a_demand_of_a_database_without_vcpus_sizes_the_vcpus_its_schema_shows():
    """Stop 55 (regression walk 2026-12-01): ``hciplan schema demand`` says a database's vCPUs default to 16 (the
    SLA's VM, :data:`planner.models.database.DEFAULT_VM`), but the sizer allocated the totals mode's 4 per database:
    a 150 TB database at 50,000 TPM was sized on 4 vCPUs and failed database_vm_rate ("its 4 vCPUs ... needs at
    least 7 vCPUs"). The database's default is the one used, and the proposal still says it was assumed."""
    from planner.models.database import DEFAULT_VM
    from planner.models.demand import Demand
    from planner.sizing.search import size

    spec = {"database": {"name": "big", "size_tb": 150, "tpm": 50_000, "buffer_pool_gb": 64}, "databases": 1}
    d = Demand.model_validate(spec)
    assert d.vcpus_per_db == DEFAULT_VM["vcpus"] == 16
    assert "vcpus_per_db" not in d.model_fields_set  # assumed, not given: the proposal says so
    assert Demand.model_validate_json(d.model_dump_json()).vcpus_per_db == 16
    # the schema shows the default the sizer uses
    assert "default 16" in Demand.model_json_schema()["$defs"]["Database"]["properties"]["vcpus"]["description"]
    r = size(d, top=1)
    assert r.best is not None and "database_vm_rate" not in r.best.get("fails", []), r.explanation
    # the totals mode keeps its 4 (its shipped examples unchanged)
    assert Demand.model_validate({"total_iops": 1000, "capacity_tb": 1, "databases": 2}).vcpus_per_db == 4


def test_a_database_beyond_one_s2d_volume_says_the_volumes_its_files_span(capsys, tmp_path):
    """Stop 55 (regression walk 2026-12-01): a 150 TB database sized on S2D read "volume_plan: no volumes planned,
    not applicable", where a volume holds at most 64 TB (planner.models.design.MAX_VOLUME_TB): its data files must
    span at least ceil(150 / 64) = 3 volumes. Said in the size and sla output (and the Size page, from the same
    demand); nothing for a database that fits one volume, or on vSAN."""
    from planner.cli.main import main
    from planner.models.demand import Demand

    big = {"name": "big", "size_tb": 150, "tpm": 50_000, "buffer_pool_gb": 64}
    note = Demand.model_validate({"database": big, "databases": 1}).summary()["volume_note"]
    assert "at most 64 TB" in note and "its data files (150 TB) at least 3" in note and "log" not in note, note
    huge = Demand.model_validate({"database": {**big, "size_tb": 300}}).volume_note()
    assert "its data files (300 TB) at least 5" in huge and "its log files (75 TB) at least 2" in huge, huge
    assert "its tempdb files (75 TB) at least 2" in huge
    assert Demand.model_validate({"database": {**big, "size_tb": 40}}).volume_note() is None
    assert Demand.model_validate({"database": big, "stack": "vsan"}).volume_note() is None
    (tmp_path / "big.json").write_text(json.dumps(big))
    assert main(["sla", str(EX / "reference.json"), "--db", str(tmp_path / "big.json"), "--vcpus", "16"]) in (0, 1)
    assert "at least 3" in json.loads(capsys.readouterr().out)["volume_note"]


def test_the_micron_single_node_run_is_held_out_and_within_35_percent_on_its_cores():
    """A second held-out CPU point (Micron's 9100 MAX brief: SQL Server 2014, 2x Xeon E5-2690 v3, 24 cores /
    48 logical processors, 5,000 warehouses, 3.7 M TPM): in neither the fit (Datrium's run alone) nor the band (the
    i9's factor alone); on its 24 cores the CPU-bound rate is within 35 %, and its 48 logical processors counted as
    cores overstate it (the measurement lies between: hyperthreading is not a second core)."""
    import json

    from planner.core.resources import BENCH_DIR
    from planner.models.database import oltp_calibration

    cal = oltp_calibration()
    m = cal["held_out"]["micron_9100_single_node"]
    rec = json.loads((BENCH_DIR / "database" / "results.json").read_text(encoding="utf-8"))["micron_9100_single_node"]
    assert rec["held_out"] is True and m["measured_tpm"] == rec["tpm"] == 3_700_000
    assert "Datrium" in cal["cpu_us_per_txn"]["fitted_on"] and "9100" not in json.dumps(cal["cpu_us_per_txn"])
    assert abs(m["error_pct"]) <= 35
    assert m["predicted_tpm"] < m["measured_tpm"] < m["predicted_tpm_logical_cpus_as_cores"]
    assert m["predicted_tpm_logical_cpus_as_cores"] == pytest.approx(2 * m["predicted_tpm"])
    assert m["implied_smt_gain"] == pytest.approx(m["measured_tpm"] / m["predicted_tpm"])
    assert 1.0 < m["implied_smt_gain"] < 2.0
