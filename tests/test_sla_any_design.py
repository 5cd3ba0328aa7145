"""Stop 58: the SLA page guarantees on the customer's system today as `sla` does, and a database that does not fit
a system is said so in `compare --database` and on the Compare page, its load's figures not shown as if it ran.

The SLA page evaluated only the design here (always hyperconverged): with a split-provisioned, single-server or
Scale-Out File Server system loaded as the customer's system today, it kept showing the reference design's guarantee,
and the Compare page's "Guarantee this database on the SLA page" led there. The Compare page showed the DL580's
15,443 IOPS at 0.607 ms, "Bottleneck: none yet", for a 1.5 TB database on its 0.24 TB usable, where `sla` says
"does not fit" and guarantees 0. Each test failed on the code before this change."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from uitables import tables

from hciplan_ui import fmt
from planner.cli import main
from planner.models.database import load_database

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"
APP = str(ROOT / "app.py")
DBA_MODE = "what a DBA knows (size, buffer pool, HammerDB rate)"


def _cli(capsys, *args: str) -> dict | list:
    assert main([str(a) for a in args]) == 0
    return json.loads(capsys.readouterr().out)


def _metric(at: AppTest, label: str) -> str:
    for m in at.metric:
        if m.label == label:
            return m.value
    raise AssertionError(f"no metric {label!r}; have {[m.label for m in at.metric]}")


def _plain(s: str) -> str:
    return re.sub(r"\\(.)", r"\1", s).replace("\u2060", "")


def _canonical(path: Path) -> str:
    from planner.models.design import load_design

    return json.dumps(load_design(path).model_dump(mode="json"), sort_keys=True, separators=(",", ":"))


def _sla_page_with_today(design: str, db_file: str, *, on_today: bool = True, n1: bool = False) -> AppTest:
    """The SLA page in its DBA mode with ``db_file``'s database (as the Compare page's hand-off puts it there) and
    ``design`` as the customer's system today (as the Design page's "Compare it as the customer's system today"
    stores it), guaranteed on it, no other tenants (the CLI's default)."""
    db = load_database(EX / db_file)
    at = AppTest.from_file(APP, default_timeout=180).run()
    ss = at.session_state
    ss["existing_design_json"] = _canonical(EX / design)
    ss["sla_dbio"] = db.model_dump_json()
    ss["sla_by"] = DBA_MODE
    kind = "NOPM" if db.nopm is not None else "TPM"
    for k, v in (
        ("size_gb", db.data_gb),
        ("buffer_pool_gb", db.buffer_pool_gb),
        ("rate_kind", kind),
        ("rate", db.nopm if kind == "NOPM" else db.tpm),
        ("peak", True),
        ("buffer_hit_ratio", 0.0),
    ):
        ss[f"sla_db_{k}"] = v
    ss["sla_vcpus"] = db.vm("vcpus")
    ss["sla_threads"] = db.vm("threads")
    ss["sla_qd"] = db.vm("outstanding_per_thread")
    ss["sla_target"] = db.latency_target_ms
    ss["sla_stat"] = db.latency_statistic
    ss["sla_bg"] = "none"
    ss["sla_n1"] = n1
    ss["sla_on"] = "today" if on_today else "here"
    at.switch_page("hciplan_ui/sla_page.py").run()
    assert not at.exception, at.exception
    return at


def test_the_library_gives_one_rule_for_what_a_guarantee_is_computed_on():
    from planner.commercial.sla import guarantee_model
    from planner.engine.architectures.open_load import OpenLoadModel
    from planner.models.design import ResolvedDesign, load_design

    assert isinstance(guarantee_model(load_design(EX / "reference.json")), ResolvedDesign)
    for name in ("seed-datrium-dvx", "seed-dl580-raid10", "seed-dataon-sofs-4db"):
        assert isinstance(guarantee_model(load_design(EX / f"{name}.json")), OpenLoadModel), name


@pytest.mark.parametrize(
    "design,db_file",
    [("seed-datrium-dvx.json", "db-seed-datrium.json"), ("seed-dataon-sofs-4db.json", "db-seed-dataon.json")],
)
def test_the_sla_page_guarantees_on_the_customers_system_today_as_sla_does(design, db_file, capsys):
    cli = _cli(capsys, "sla", EX / design, "--database", EX / db_file, "--vm-sizes")
    at = _sla_page_with_today(design, db_file)
    # the choice is offered, naming both systems
    assert at.session_state["sla_on"] == "today"
    labels = [_plain(o) for o in at.radio(key="sla_on").options]
    assert labels[0].startswith("the design here (") and labels[1].startswith("the customer's system today (")
    # the design here named as the sidebar heads it, by its parts (it read as its generated file-like name)
    side = next(c.value for c in at.sidebar.caption if c.value.startswith("**Design** "))
    assert labels[0] == f"the design here ({_plain(side.removeprefix('**Design** '))})"
    # the system today named by what it is; a bundled example's file name is never shown (stop 61)
    from planner.sizing.words import example_words

    name = json.loads(_canonical(EX / design))["name"]
    assert name not in labels[1] and example_words()[name] in labels[1], labels[1]
    # the figures are `sla`'s for the same design and database
    g = cli["guarantee"]
    assert _metric(at, "Guaranteed IOPS per DB") == fmt.iops(g["guaranteed_iops"])
    assert _metric(at, f"Needs ({cli['needed']})") == fmt.iops(cli["needed_iops"])
    assert _metric(at, f"VM latency at that load ({g['latency_statistic']})") == fmt.ms(g["latency_ms"])
    # the database capacity and the guarantee by VM size, opened
    at.session_state["sla_capacity"] = True
    at.session_state["sla_by_size"] = True
    at.run()
    assert not at.exception
    assert _metric(at, "Most NOPM (all database servers)") == fmt.iops(cli["database_capacity"]["max_nopm"])
    sizes = next(t.value for t in at.dataframe if "vCPUs" in t.value.columns)
    assert list(sizes["Guaranteed IOPS"]) == [fmt.iops(r["guaranteed_iops"]) for r in cli["by_vm_size"]["sizes"]]
    # the expander names the system it is of
    said = " ".join(_plain(c.value) for c in at.caption)
    assert "'The most the customer's system today sustains' below" in said
    # the tiers stay the design here's, said in one line
    assert "not the customer's system today that the guarantee above is on" in said


def test_the_sla_page_keeps_the_design_here_when_asked_and_without_a_system_today(capsys):
    cli = _cli(capsys, "sla", EX / "reference.json", "--database", EX / "db-seed-datrium.json")
    at = _sla_page_with_today("seed-datrium-dvx.json", "db-seed-datrium.json", on_today=False)
    assert _metric(at, "Guaranteed IOPS per DB") == fmt.iops(cli["guarantee"]["guaranteed_iops"])
    assert not any("not the customer's system today" in _plain(c.value) for c in at.caption)
    # no system today: no choice
    at.session_state["existing_design_json"] = None
    del at.session_state["existing_design_json"]
    at.run()
    assert not at.exception and not [r for r in at.radio if r.key == "sla_on"]


def test_n_plus_one_on_the_system_today_is_said_not_applied(capsys):
    at = _sla_page_with_today("seed-datrium-dvx.json", "db-seed-datrium.json", n1=True)
    said = " ".join(_plain(c.value) for c in at.caption)
    assert "N+1 is noted, not applied, on the customer's system today" in said and "split provisioning" in said
    # the library's clause is not shown as well, nor its tail ("Not applied." stood under the figures; browser walk)
    assert "n_plus_one:" not in said.lower()
    assert not [c for c in at.caption if _plain(c.value).strip().lower() in ("not applied.", "not applied")]
    # the figure is the one with every server up, as `sla --n-plus-one` gives it
    cli = _cli(capsys, "sla", EX / "seed-datrium-dvx.json", "--database", EX / "db-seed-datrium.json", "--n-plus-one")
    assert _metric(at, "Guaranteed IOPS per DB") == fmt.iops(cli["guarantee"]["guaranteed_iops"])


def test_a_database_that_does_not_fit_the_system_today_is_guaranteed_nothing_on_the_sla_page(capsys):
    cli = _cli(capsys, "sla", EX / "seed-dl580-raid10.json", "--database", EX / "db-oltp-hammerdb.json")
    assert cli["guarantee"]["guaranteed_iops"] == 0
    at = _sla_page_with_today("seed-dl580-raid10.json", "db-oltp-hammerdb.json")
    assert _metric(at, "Guaranteed IOPS per DB") == "0"
    said = " ".join(_plain(c.value) for c in at.caption)
    assert "does not fit: usable 0.24 TB" in said, said


# ---------------------------------------------------------------- a database that does not fit, on Compare
#: the Compare page's database description as it starts (1,000 GB, a 128 GB buffer pool, 20,000 NOPM)
PAGE_DB = {"name": "database", "size_gb": 1000, "buffer_pool_gb": 128, "nopm": 20_000}


@pytest.mark.parametrize("full", [False, True])
def test_compare_with_a_database_that_does_not_fit_gives_none_of_its_loads_figures(tmp_path, capsys, full):
    db = tmp_path / "db.json"
    db.write_text(json.dumps(PAGE_DB))
    args = ["compare", EX / "reference.json", EX / "seed-dl580-raid10.json", "--database", db]
    ref, dl580 = _cli(capsys, *args, *(["--full"] if full else []))
    sla = _cli(capsys, "sla", EX / "seed-dl580-raid10.json", "--database", db)
    assert sla["guarantee"]["guaranteed_iops"] == 0  # `sla`'s answer, which compare now agrees with
    assert dl580["database_fits"] is False
    note = dl580["database_fits_note"]
    assert note.startswith("the database (1.50 TB with its log and tempdb) does not fit in the design's usable 0.24 TB")
    # no figure of the load that does not run there, each null with why
    for k in ("iops", "bandwidth_mb_s", "read_latency_ms", "write_latency_ms", "vm_latency_ms", "bottleneck"):
        assert dl580[k] is None and dl580[f"{k}_note"] == note, k
    # the design's own figures stay; its IO alone is kept, labelled as if it fit
    assert dl580["usable_capacity_tb"] == pytest.approx(0.24, abs=0.005) and dl580["iops_capacity"] > 0
    assert dl580["if_it_fit"]["iops"] > 0 and "as if the database fit" in dl580["if_it_fit"]["note"]
    assert any(w["check"] == "database_fits" and w["message"] == note for w in dl580["warnings"])
    # a design that holds it keeps its figures
    assert ref["database_fits"] is True and ref["iops"] > 0 and ref["vm_latency_ms"] > 0


def test_the_compare_page_says_a_database_that_does_not_fit_the_system_today(capsys, tmp_path):
    """The Compare page with the DL580 (0.24 TB usable) as the system today and the page's database (1.5 TB with
    its log and tempdb): its column said IOPS 15,443, VM latency 0.607 ms, "Bottleneck: none yet" and "Write latency
    (storage) 0.148 ms" beside a note that the design predicts no write latency. It says now what `compare` says."""
    db = tmp_path / "db.json"
    db.write_text(json.dumps(PAGE_DB))
    _, cli = _cli(capsys, "compare", EX / "reference.json", EX / "seed-dl580-raid10.json", "--database", db)
    at = AppTest.from_file(APP, default_timeout=180).run()
    at.session_state["existing_design_json"] = _canonical(EX / "seed-dl580-raid10.json")
    # as the Design page's "Compare it as the customer's system today" leaves it
    at.session_state["cmp_existing_src"] = "my design file"
    at.session_state["cmp_existing_seen"] = "seed-dl580-raid10.json"
    at.switch_page("hciplan_ui/compare_page.py").run()
    at.radio(key="cmp_wsource").set_value("from a database description").run()
    assert not at.exception and "System today" in [h.value for h in at.header]
    said = [_plain(c.value) for c in at.caption]
    assert any(
        c.startswith(":red[The database (1.50 TB with its log and tempdb) does not fit in the design's usable 0.24 TB")
        and "no load of it runs there" in c
        for c in said
    ), said
    assert "Bottleneck: none: the database does not fit" in said
    # the column's load figures: "does not fit", none as if valid (the reference design keeps its own)
    cards = [(m.label, m.value) for m in at.metric]
    assert ("IOPS", "does not fit") in cards and ("VM latency", "does not fit") in cards
    assert len([v for label, v in cards if label == "IOPS" and v != "does not fit"]) == 2  # the design, the what-if
    assert ("Usable capacity", fmt.tb(cli["usable_capacity_tb"])) in cards
    # the table beside the cards says the same
    compared = next(t.value for t in tables(at) if "Figure" in t.value.columns)
    today = {r["Figure"]: r["System today"] for r in compared.to_dict("records")}
    assert today["IOPS"] == today["VM latency"] == today["Write latency (storage)"] == "does not fit", today
    assert today["Bottleneck"] == "none: the database does not fit", today
