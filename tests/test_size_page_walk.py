"""A new DBA walks the Size page's "size a cluster for my databases" (2026-12-04): the size, buffer pool, rate and
count of its databases, the sizing, and the design it finds opened on the other pages."""

from __future__ import annotations

from pathlib import Path

from apptest import said, sized

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"


def test_the_size_page_says_the_log_latency_its_iops_needed_take():
    """`size` printed the log flush latency its databases' IOPS rest on (an assumed 1 ms, which the SLA page replaces
    with the chosen design's predicted write latency); the Size page said it nowhere beside its IOPS needed. It says
    it in one line, in the sizer's own note."""
    at = sized((EX / "demand-hammerdb.json").read_bytes(), use=False)
    text = said(at)
    line = "The IOPS needed take its log flushed at 1.000 ms: no design given: assumed; on a design"
    assert line in text, text[:3000]
    assert "its predicted write latency replaces it" in text
    assert len([c for c in at.caption if "log flushed at" in str(c.value)]) == 1


def test_a_demand_in_tiers_has_no_log_line():
    """A demand in tiers has no rate to flush a log at: no line about it."""
    at = sized((EX / "demand-200dbs.json").read_bytes(), use=False)
    assert "log flushed at" not in said(at)


def test_a_need_below_a_hundredth_of_a_tb_does_not_read_as_none():
    """Two 1 GB databases (one with 20 % growth) read "0.00 TB needed" under Usable capacity, and "Capacity needed:
    0.00 TB" beside their 0.003 TB: the need keeps the decimals that show it."""
    import json

    demand = json.loads((EX / "demand-hammerdb.json").read_text())
    demand["database"].update(size_gb=1, buffer_pool_gb=1)
    demand.update(databases=1, ram_gb_per_db=None)
    at = sized(json.dumps(demand).encode(), use=False)
    usable = next(m for m in at.metric if m.label == "Usable capacity")
    assert usable.delta == "0.003 TB needed", usable.delta
    assert "Capacity needed: 0.003 TB" in said(at)
    assert "0.00 TB" not in said(at)


def test_one_described_database_can_grow_in_data_and_rate_not_into_two():
    """Size page walk (2026-12-03): one 50,000 GB database with +20 % growth was sized as two (150 TB), growth being
    more databases rounded up to whole ones. The page says when the rounding, not the growth, sets the count, and
    "Growth adds" grows the database itself (Demand.growth_in), kept in the demand it sizes."""
    import json

    from planner.models.demand import Demand

    demand = json.loads((EX / "demand-hammerdb.json").read_text())
    demand.update(databases=1)
    at = sized(json.dumps(demand).encode(), use=False)
    assert at.selectbox(key="size_growth_in").value == "databases"
    assert "1 database grows to 2 (+100 %, not +20 %): whole databases." in said(at), said(at)[:2000]
    at.selectbox(key="size_growth_in").set_value("size_and_rate")
    at.button(key="FormSubmitter:size_form-Size it").click().run()  # a form's choice takes effect when sent
    assert not at.exception, [e.value for e in at.exception]
    assert "grows to 2" not in said(at)
    sized_demand = Demand.model_validate_json(at.session_state["size_demand"])
    assert sized_demand.growth_in == "size_and_rate" and sized_demand.database_count() == 1
    assert sized_demand.totals()[1] == 1.2 * Demand.model_validate(demand).totals()[1] / 2  # one database's, +20 %
