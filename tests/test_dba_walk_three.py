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


def test_db_io_says_what_reads_of_every_warehouse_mean_and_how_to_replace_them(capsys, tmp_path):
    """A database given by its rate alone reads as HammerDB with every warehouse active, the most its access gives:
    the note said "give them for a HammerDB run's own count" and nothing of a production database or of the measured
    hit ratio that replaces it. With a measured ratio, or the run's users, the note says nothing of it."""
    from planner.models.database import EVERY_WAREHOUSE_WORDS

    note = _json(capsys, ["db-io", str(EX / "db-oltp-hammerdb.json")])["buffer_hit_note"]
    assert EVERY_WAREHOUSE_WORDS in note and "likely more than a production database reads" in note
    assert note.endswith("give its measured buffer_hit_ratio, or a HammerDB run's virtual_users, to replace it")
    for field, value in (("buffer_hit_ratio", 0.9), ("virtual_users", 100), ("all_warehouses", True)):
        path = tmp_path / f"{field}.json"
        path.write_text(json.dumps(json.loads((EX / "db-oltp-hammerdb.json").read_text()) | {field: value}))
        assert "every warehouse active" not in _json(capsys, ["db-io", str(path)])["buffer_hit_note"], field


ESTATE_NOTE = (
    "note: 1 database given by TPM with no buffer_hit_ratio (Finance, 43,761 peak IOPS from 120,000 TPM at a 33 % "
    "buffer-pool hit): its reads are taken with every warehouse active"
)


def test_estate_says_a_tpm_rows_reads_rest_on_every_warehouse_active(capsys, tmp_path):
    """`estate examples/estate-databases.csv` turned Finance's 120,000 TPM into 43,761 peak IOPS beside its
    neighbours' measured 800-6,000, and said nothing of it without --details: one line on standard error names the
    row, its figures and the columns that replace the assumption; a measured hit ratio, and the line is gone."""
    csv = EX / "estate-databases.csv"
    assert main(["estate", str(csv)]) == 0
    err = capsys.readouterr().err
    assert ESTATE_NOTE in err and "give a buffer_hit_ratio column (measured) or peak_iops to replace it" in err
    lines = csv.read_text().splitlines()
    measured = [lines[0] + ",buffer_hit_ratio"] + [
        ln + (",0.95" if ln.startswith("Finance") else ",") for ln in lines[1:]
    ]
    (tmp_path / "estate.csv").write_text("\n".join(measured) + "\n")
    assert main(["estate", str(tmp_path / "estate.csv")]) == 0
    assert "every warehouse active" not in capsys.readouterr().err
    # and in the details' notes, as every default is
    assert main(["estate", str(csv), "--details"]) == 0
    assert any(n.startswith(ESTATE_NOTE[len("note: ") :]) for n in json.loads(capsys.readouterr().out)["notes"])


def test_the_sla_page_says_its_reads_take_every_warehouse_and_which_box_replaces_it():
    """The SLA page's "How its reads are modelled" named the database file's fields ("give them", virtual_users) where
    the page has a Measured hit ratio box: it says the assumption and that box; a ratio typed in, and it is gone."""
    from hciplan_ui.database_inputs import PAGE_WORDS
    from planner.models.database import EVERY_WAREHOUSE_NOTE, EVERY_WAREHOUSE_WORDS

    at = _sla_dba()
    text = _said(at)
    assert EVERY_WAREHOUSE_WORDS in text and PAGE_WORDS[EVERY_WAREHOUSE_NOTE] in text
    assert EVERY_WAREHOUSE_NOTE not in text and "buffer_hit_ratio" not in text
    at.number_input(key="sla_db_buffer_hit_ratio").set_value(0.99).run()
    assert not at.exception, [e.value for e in at.exception]
    assert EVERY_WAREHOUSE_WORDS not in _said(at)


def test_the_sla_page_names_the_ceph_release_its_guarantee_models():
    """The Design and Performance pages name a Ceph design's release; the SLA page guaranteed on it with no word of
    the release (nor of the design): it names both, in the same words (sizing_rows.release_said), and an S2D design
    with no release."""
    from streamlit.testing.v1 import AppTest

    from hciplan_ui.sizing_rows import design_label
    from planner.models.design import dump_design, load_design
    from planner.models.stacks import ceph_release_words

    ceph = dump_design(load_design(EX / "ceph-6node-reef.json"))
    ceph["ceph"] = ceph["ceph"] | {"release": "squid"}
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=240).run()
    at.session_state["design_json"] = json.dumps(ceph)
    at.switch_page("hciplan_ui/sla_page.py").run()
    assert not at.exception, [e.value for e in at.exception]
    text = _said(at).replace("**", "")
    assert f"Guaranteed on the design {design_label(ceph)} · {ceph_release_words('squid')}" in text, text[:1500]
    s2d = dump_design(load_design(EX / "reference.json"))
    at.session_state["design_json"] = json.dumps(s2d)
    at.run()
    text = _said(at).replace("**", "")
    assert (
        f"Guaranteed on the design {design_label(s2d)}" in text and "Ceph" not in text.split("Guaranteed on")[1][:300]
    )


def test_size_says_what_its_databases_iops_rest_on(capsys):
    """`size` sized 20 x 200,000 NOPM databases at 132,746 IOPS each (the log flushed at the assumed 1 ms, every
    warehouse active) where the SLA page then asked 133,877 of the design chosen, and said neither: the demand it
    prints carries the reads' note and the log latency with its basis, as `db-io` prints them."""
    from planner.models.database import EVERY_WAREHOUSE_NOTE

    demand = _json(capsys, ["size", str(EX / "demand-hammerdb.json"), "--top", "1"])["demand"]
    assert EVERY_WAREHOUSE_NOTE in demand["database_buffer_hit_note"]
    assert demand["database_log_write_latency_ms"] == 1.0
    assert demand["database_log_write_latency_note"].startswith("no design given: assumed")
    tiers = _json(capsys, ["size", str(EX / "demand-200dbs.json"), "--top", "1"])["demand"]
    assert not any(k.startswith("database_log") for k in tiers)  # a demand in tiers has no rate to flush a log at


def test_a_pool_that_holds_the_whole_database_is_not_said_to_read_every_warehouse(capsys, tmp_path):
    """A 5,000 GB pool over a 1,000 GB database reads only the pages the run appends, whatever the skew: it was said to
    read "likely more than a production database"."""
    path = tmp_path / "db.json"
    for pool_gb, said in ((999, True), (1000, False), (5000, False)):
        path.write_text(json.dumps({"name": "x", "size_gb": 1000, "buffer_pool_gb": pool_gb, "nopm": 20_000}))
        assert ("every warehouse active" in _json(capsys, ["db-io", str(path)])["buffer_hit_note"]) is said, pool_gb


def test_the_sla_pages_buffer_pool_warnings_name_its_box_not_the_files_field():
    """A 4 GB pool's warning said "give it as buffer_hit_ratio, or give the HammerDB run's virtual_users" under a box
    labelled Measured hit ratio; a perfmon-like ratio's, "buffer_hit_ratio is the share ...". Both in the page's
    words."""
    at = _sla_dba()
    at.number_input(key="sla_db_buffer_pool_gb").set_value(4.0).run()
    warned = " ".join(w.value for w in at.warning)
    assert "measure the hit ratio and give it in Measured hit ratio" in warned, warned
    at.number_input(key="sla_db_buffer_pool_gb").set_value(128.0).run()
    at.number_input(key="sla_db_buffer_hit_ratio").set_value(0.99).run()
    warned = " ".join(w.value for w in at.warning)
    assert "Measured hit ratio is the share of the row lookups' pages" in warned, warned
    assert not at.exception and "buffer_hit_ratio" not in _said(at) and "virtual_users" not in _said(at)


def test_estate_warns_of_a_rows_hit_ratio_as_db_io_does(capsys, tmp_path):
    """A row's 99 % (perfmon's Buffer cache hit ratio, most likely) cut its 32,503 IOPS to 9,436 with no word where
    `db-io` warns of the same database; a pool below what the model's warehouses keep was not warned of either. Both
    on standard error, named by the row, in the list's words (no virtual_users column to give)."""
    f = tmp_path / "estate.csv"
    f.write_text("name,size_gb,tpm,vcpus,ram_gb,buffer_hit_ratio\nA,500,100000,8,64,99%\nB,1000,100000,8,4,\n")
    assert main(["estate", str(f)]) == 0
    err = capsys.readouterr().err
    assert "warning: A: the hit ratio given (0.99) is above the model's 0.433 for this pool" in err, err
    assert "warning: B: the 3.2 GB buffer pool is below the 4.18 GB" in err, err
    assert "give it in a buffer_hit_ratio column" in err and "virtual_users" not in err
    f.write_text("name,size_gb,tpm,vcpus,ram_gb,buffer_hit_ratio\nA,500,100000,8,64,40%\n")
    assert main(["estate", str(f)]) == 0
    assert "warning: A:" not in capsys.readouterr().err


def test_sla_vm_sizes_of_a_database_given_by_its_io_says_what_gives_a_target(capsys):
    """`sla --db db-erp.json --vm-sizes` said "give the database's workload or a target IOPS", an input no command
    takes: it says what does give one."""
    out = _json(capsys, ["sla", str(EX / "reference.json"), "--db", str(EX / "db-erp.json"), "--vm-sizes"])
    note = out["by_vm_size"]["smallest_vm_note"]
    assert "target IOPS" not in note and "describe it by its workload (nopm or tpm with buffer_pool_gb)" in note


def test_a_database_the_size_page_brings_is_not_said_to_come_from_the_compare_page():
    """After the Size page's Use this design, the SLA page said the database's assumptions were "as set on the
    Compare / what-if page", a page the DBA never opened."""
    from apptest import sized

    at = sized((EX / "demand-hammerdb.json").read_bytes())
    at.switch_page("hciplan_ui/sla_page.py").run()
    assert not at.exception, [e.value for e in at.exception]
    text = _said(at)
    assert "as the database brought here from the Size or Compare page sets them" in text
    assert "as set on the Compare / what-if page" not in text


def test_estate_of_file_stats_says_its_unscaled_mean_and_its_vm_without_details(capsys):
    """`estate file_stats.csv > demand.json` printed nothing of the mean it sized (no peak factor: every peak
    under-sized) nor of the 4 vCPU, 16 GB VMs it took: both were in --details' notes alone."""
    f = str(ROOT / "tests" / "fixtures" / "estate" / "file_stats.csv")
    assert main(["estate", f]) == 0
    err = capsys.readouterr().err
    assert "warning: no peak factor is applied: the demand is the mean between the two samples" in err, err
    assert "note: each database VM taken as 4 vCPUs and 16 GB of RAM (the view does not give them); give --vcpus" in err
    assert main(["estate", f, "--vcpus", "8", "--ram-gb", "64", "--peak-to-mean-ratio", "1.5"]) == 0
    err = capsys.readouterr().err
    assert "no peak factor" not in err and "each database VM taken as" not in err, err


def test_estate_of_perfmon_says_the_vms_it_takes_for_a_count_of_databases(capsys):
    """`estate perfmon.csv --capacity-tb 5 --databases 4` sized four 4 vCPU, 16 GB VMs (the demand's defaults) with no
    word; given, nothing is said."""
    f = str(ROOT / "tests" / "fixtures" / "estate" / "perfmon.csv")
    assert main(["estate", f, "--capacity-tb", "5", "--databases", "4"]) == 0
    assert "note: each database VM taken as 4 vCPUs and 16 GB of RAM, the demand's defaults" in capsys.readouterr().err
    assert main(["estate", f, "--capacity-tb", "5", "--databases", "4", "--vcpus", "8", "--ram-gb", "32"]) == 0
    assert "each database VM taken as" not in capsys.readouterr().err
