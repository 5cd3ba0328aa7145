"""A SQL Server DBA sizing a DBaaS offering walks `db-io`, `sla --database`, `estate` and the SLA page (2026-12-03):
the log flush latency each output takes, the reads of a database given by its rate alone, and the Ceph release the
SLA page's guarantee is on."""

from __future__ import annotations

import json
from pathlib import Path

from apptest import said as _said

from planner.cli import main

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"
DBA_MODE = "what a DBA knows (size, buffer pool, HammerDB rate)"


def _json(capsys, argv: list[str]) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def _log_stream(d: dict) -> dict:
    return next(s for s in d["streams"] if s["name"] == "log writes")


def test_db_io_and_sla_say_the_log_latency_each_takes(capsys):
    """`db-io` flushed the example's log 1,000 times a second at an assumed 1 ms where `sla --database` flushed it
    2,131 times at the reference design's predicted 0.469 ms: both now print the latency and its basis beside the
    flushes, and the one the log writes were taken at is the one printed."""
    db = str(EX / "db-oltp-hammerdb.json")
    alone = _json(capsys, ["db-io", db])
    assert alone["log_write_latency_ms"] == 1.0
    assert alone["log_write_latency_note"].startswith("no design given: assumed")
    assert "predicted write latency replaces it" in alone["log_write_latency_note"]
    on = _json(capsys, ["sla", str(EX / "reference.json"), "--database", db])["demand"]
    lat = on["log_write_latency_ms"]
    assert lat != 1.0 and on["log_write_latency_note"].startswith("the design's predicted write latency")
    assert next(a["value"] for a in on["assumptions"] if a["field"] == "log_write_latency_ms") == lat
    assert f"at {lat:.3g} ms a flush" in _log_stream(on)["rule"]
    # the flushes follow the latency printed: a different latency, different flushes
    assert on["log_flushes_per_s"] != alone["log_flushes_per_s"]
    given = _json(capsys, ["db-io", db, "--log-write-latency-ms", "2"])
    assert (
        given["log_write_latency_ms"] == 2.0 and given["log_write_latency_note"] == "given with --log-write-latency-ms"
    )
    assert "at 2 ms a flush (given with --log-write-latency-ms)" in _log_stream(given)["rule"]


def _sla_dba():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=240).run()
    at.switch_page("hciplan_ui/sla_page.py").run()
    at.radio(key="sla_by").set_value(DBA_MODE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_sla_page_says_the_log_latency_its_database_io_takes():
    """The SLA page's "This database asks for ... IOPS" gave no word of the log flush latency, which `db-io` and the
    Compare page's inputs assume at 1 ms: it names the design's predicted one."""
    at = _sla_dba()
    text = _said(at)
    assert "its log flushed at " in text, text[:2000]
    assert "the design's predicted write latency at this load" in text
