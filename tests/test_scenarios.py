"""Saved scenarios: save, list, reopen, duplicate, compare, delete; every write a
transaction (WAL, busy timeout), so concurrent saves queue and a crash loses nothing."""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import sqlite3
from pathlib import Path

import pytest

from planner.cli import main
from planner.store.scenarios import SCHEMA_VERSION, ScenarioSession, ScenarioStore, StoreError, default_url

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
DEMAND = json.loads((EX / "demand-200dbs-azure-local.json").read_text())
DESIGN = json.loads((EX / "reference.json").read_text())


def _session(**over) -> ScenarioSession:
    return ScenarioSession(**{"demand": DEMAND, "design": DESIGN, "sla": {"n_plus_one": True}, **over})


def test_save_list_reopen_duplicate_compare_delete(tmp_path):
    store = ScenarioStore(f"sqlite:///{tmp_path / 'a.db'}")
    e = store.save("gold tier", _session(whatif={"nodes": 8}), "Contoso")
    assert (e["customer"], e["name"], e["schema_version"]) == ("Contoso", "gold tier", SCHEMA_VERSION)
    store.save("today", _session(design=None, existing=json.loads((EX / "san-raid5.json").read_text())), "Contoso")
    store.save("other", _session(), "Fabrikam")
    assert [x["name"] for x in store.list("Contoso")] == ["gold tier", "today"]
    assert len(store.list()) == 3
    doc = store.get("gold tier", "Contoso")
    assert doc["whatif"] == {"nodes": 8} and doc["sla"] == {"n_plus_one": True} and doc["design"]["name"] == "reference"
    store.duplicate("gold tier", "gold tier, 8 nodes", "Contoso")
    with pytest.raises(StoreError, match="already exists"):
        store.duplicate("gold tier", "today", "Contoso")
    cmp = store.compare("gold tier", "gold tier, 8 nodes", "Contoso")
    assert cmp["a"]["figures"] == cmp["b"]["figures"] and cmp["inputs_that_differ"] == []
    store.save("gold tier, 8 nodes", _session(design={**DESIGN, "nodes": 8}, whatif={"nodes": 8}), "Contoso")
    cmp = store.compare("gold tier", "gold tier, 8 nodes", "Contoso")
    assert cmp["inputs_that_differ"] == ["/design/nodes"]
    assert cmp["b"]["figures"]["usable_capacity_tb"] > cmp["a"]["figures"]["usable_capacity_tb"]
    store.delete("today", "Contoso")
    with pytest.raises(StoreError, match="no scenario 'today'"):
        store.get("today", "Contoso")


def test_bad_input_is_one_line(tmp_path):
    store = ScenarioStore(f"sqlite:///{tmp_path / 'b.db'}")
    with pytest.raises(StoreError, match=r"^demand: unknown tier 'Gold'"):
        store.save("x", _session(demand={**DEMAND, "tier_counts": {"Gold": 1}}))
    with pytest.raises(StoreError, match=r"^name: must not be empty"):
        store.save("  \n ", _session())
    with pytest.raises(StoreError, match="at most 200"):
        store.save("x" * 300, _session())
    with pytest.raises(StoreError, match="newer hciplan"):
        store.save("x", {**_session().model_dump(), "schema_version": SCHEMA_VERSION + 1})
    with pytest.raises(StoreError, match=r"^database: cannot open"):
        ScenarioStore("sqlite:////proc/no/such/place.db")


def test_a_file_path_is_a_sqlite_database(tmp_path):
    """``hciplan scenario ... --db FILE`` (the help says "a SQLAlchemy URL or a SQLite file") once
    failed with "Could not parse SQLAlchemy URL" for a plain path."""
    db = tmp_path / "team.db"
    assert ScenarioStore(str(db)).url == f"sqlite:///{db}"
    argv = ["scenario", "save", "gold", "--demand", str(EX / "demand-200dbs.json"), "--db", str(db)]
    assert main(argv) == 0
    assert db.exists()
    assert [s["name"] for s in ScenarioStore(str(db)).list()] == ["gold"]


def test_hciplan_db_names_the_database(tmp_path, monkeypatch):
    monkeypatch.setenv("HCIPLAN_DB", str(tmp_path / "team.db"))
    assert default_url() == f"sqlite:///{tmp_path / 'team.db'}"
    monkeypatch.setenv("HCIPLAN_DB", "postgresql+psycopg://db.example/hciplan")
    assert default_url() == "postgresql+psycopg://db.example/hciplan"
    monkeypatch.delenv("HCIPLAN_DB")
    assert default_url().startswith("sqlite:///") and default_url().endswith("scenarios.db")


def _save_one(url: str, i: int, barrier) -> None:
    barrier.wait()  # every process writes at the same moment
    ScenarioStore(url).save(f"scenario {i:02d}", _session(whatif={"i": i}), "Contoso")


def _crash_mid_write(url: str) -> None:
    con = sqlite3.connect(url.split("///", 1)[1], isolation_level=None)
    con.execute("BEGIN IMMEDIATE")
    con.execute(
        "INSERT INTO hciplan_scenarios (customer, name, schema_version, session_json, created_at, updated_at) "
        "VALUES ('Contoso', 'half written', 1, '{}', '2026-01-01', '2026-01-01')"
    )
    os._exit(1)  # the process dies inside its transaction


def test_twenty_concurrent_saves_are_all_listed(tmp_path):
    url = f"sqlite:///{tmp_path / 'c.db'}"
    ScenarioStore(url)  # the table exists (the parent's engine is not used by the children)
    ctx = mp.get_context("fork")
    barrier = ctx.Barrier(20)
    procs = [ctx.Process(target=_save_one, args=(url, i, barrier)) for i in range(20)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0] * 20
    crash = ctx.Process(target=_crash_mid_write, args=(url,))
    crash.start()
    crash.join(60)
    assert crash.exitcode == 1
    names = [x["name"] for x in ScenarioStore(url).list("Contoso")]
    assert names == [f"scenario {i:02d}" for i in range(20)]
    with sqlite3.connect(tmp_path / "c.db") as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_scenario_cli(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HCIPLAN_DB", str(tmp_path / "cli.db"))
    d, r = str(EX / "demand-200dbs.json"), str(EX / "reference.json")
    assert main(["scenario", "save", "first", "--demand", d, "--customer", "Contoso"]) == 0
    assert main(["scenario", "save", "second", "--demand", d, "--design", r, "--customer", "Contoso"]) == 0
    capsys.readouterr()
    assert main(["scenario", "list"]) == 0
    assert [x["name"] for x in json.loads(capsys.readouterr().out)["scenarios"]] == ["first", "second"]
    assert main(["scenario", "show", "second", "--customer", "Contoso"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["design"]["name"] == "reference" and shown["schema_version"] == SCHEMA_VERSION
    assert main(["scenario", "compare", "first", "second", "--customer", "Contoso"]) == 0
    assert "/design" in json.loads(capsys.readouterr().out)["inputs_that_differ"]
    assert main(["scenario", "delete", "first", "--customer", "Contoso"]) == 0
    assert main(["scenario", "show", "first", "--customer", "Contoso"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: name: no scenario 'first'") and err.count("\n") == 1
    assert main(["scenario", "save", "x", "--demand", str(EX / "reference.json")]) == 2
    assert capsys.readouterr().err.startswith("error: demand")


def test_a_version_1_session_reads_as_version_2_and_a_newer_one_is_refused(tmp_path):
    """Schema 2 added the workload's choice, the sized demand's workload, the Size page's choices and
    the document's names, all with defaults: a version-1 row reads unchanged; a row of a newer
    hciplan is one clear error, not a validation error about unknown fields."""
    from planner.store.scenarios import migrate

    v1 = {"schema_version": 1, "demand": DEMAND, "design": DESIGN, "sla": {"n_plus_one": True}}
    doc = migrate(v1)
    assert doc["schema_version"] == SCHEMA_VERSION == 2
    s = ScenarioSession.model_validate(doc).validated()
    assert (s.workload_name, s.sized_workload, s.size, s.company) == (None, None, {}, "")
    store = ScenarioStore(f"sqlite:///{tmp_path / 'v.db'}")
    store.save("old", v1, "Contoso")
    assert store.get("old", "Contoso")["sla"] == {"n_plus_one": True}
    with pytest.raises(StoreError, match="written by a newer hciplan"):
        migrate({**v1, "schema_version": 3, "views": {}})
    with pytest.raises(StoreError, match="sized_workload"):
        ScenarioSession(design=DESIGN, sized_workload={"block_size_kib": -1}).validated()


def test_a_long_session_is_kept_under_a_short_id(tmp_path):
    """The app's ``?id=`` links: the same session always gets the same id, ids are checked before
    any query, and an unknown one is one line."""
    store = ScenarioStore(f"sqlite:///{tmp_path / 'l.db'}")
    s = _session(notes="x" * 9000)
    a, b = store.save_link(s), store.save_link(s.model_dump())
    assert a == b and len(a) == 21 and a.replace("-", "").replace("_", "").isalnum()
    assert store.get_link(a)["notes"] == "x" * 9000
    assert store.save_link(_session(notes="y")) != a
    assert store.list() == []  # links are not saved scenarios
    with pytest.raises(StoreError, match=r"^id: not a link id"):
        store.get_link("../../x' OR 1=1 --")
    with pytest.raises(StoreError, match=r"^id: no scenario kept under the id"):
        store.get_link("A" * 21)


def test_a_name_made_from_the_parts_follows_them():
    """The sizer names a design by its parts; an edit of the parts renames it (the sidebar and the
    proposal kept "13x ..." on an 8-node design, PM893 drives in the title of a Micron 7450 design);
    a name the user gave is kept."""
    from planner.models.demand import Demand
    from planner.models.design import design_parts_name, follow_name
    from planner.sizing.search import size

    best = size(Demand.model_validate(DEMAND), top=1).best["design"]
    assert best["name"] == design_parts_name(best)
    eight = follow_name(best, {**best, "nodes": 8})
    assert eight["name"].startswith("8x ") and eight["name"] == design_parts_name({**best, "nodes": 8})
    node = {**best["node"], "capacity_drives": {"model": "micron-7450-pro-7.68tb", "count": 8}}
    other = follow_name(best, {**best, "node": node})
    assert "micron-7450-pro-7.68tb" in other["name"] and best["node"]["capacity_drives"]["model"] not in other["name"]
    assert follow_name(DESIGN, {**DESIGN, "nodes": 5})["name"] == "reference"  # a name someone gave
    renamed = {**best, "nodes": 8, "name": "gold"}
    assert follow_name(best, renamed) is renamed


def test_a_database_url_without_its_driver_is_one_line(capsys):
    """QA 2026-11-28: 'scenario list --db postgresql://...' without a PostgreSQL driver installed ended
    in a ModuleNotFoundError traceback (exit 1)."""
    import importlib.util

    from planner.cli.main import main

    if importlib.util.find_spec("psycopg2") is not None:
        pytest.skip("the PostgreSQL driver is installed here: nothing to refuse")
    assert main(["scenario", "list", "--db", "postgresql://user:pw@127.0.0.1:1/none"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: database: cannot open the scenario database: its driver is not installed")
    assert err.count("\n") == 1


def test_a_name_saved_for_another_customer_is_said(tmp_path):
    """CLI review (2026-11-29): `scenario show ceph` said "no scenario 'ceph'" where `scenario list` showed
    one saved for the customer Acme."""
    store = ScenarioStore(f"sqlite:///{tmp_path / 'a.db'}")
    store.save("ceph", _session(), "Acme")
    for call in (lambda: store.get("ceph"), lambda: store.delete("ceph", "Bob")):
        with pytest.raises(StoreError, match="a scenario of that name is saved for customer 'Acme'"):
            call()
    with pytest.raises(StoreError) as err:
        store.get("nothere")
    assert "saved for" not in str(err.value)


def test_scenario_figures_name_their_load_and_the_demand_verdict(tmp_path):
    """CLI review 2026-11-29: `scenario compare` gave a 9 TB design's figures beside a 216 TB demand with no
    verdict, and a latency (0.5129 ms, the demand's load) that read as evaluate's under oltp-8k (0.5143)."""
    from planner.store.scenarios import scenario_figures

    doc = {
        "demand": json.loads(Path("examples/demand-200dbs.json").read_text()),
        "design": json.loads(Path("examples/reference.json").read_text()),
    }
    f = scenario_figures(doc)
    assert f["workload"].startswith("demand") and "open load" in f["workload_note"]
    assert f["against_demand"]["met"] is False and "capacity" in f["against_demand"]["not_met"]


def test_the_command_line_saves_no_design_the_app_cannot_reopen(tmp_path, capsys, monkeypatch):
    """Adversarial review 2026-11-30: `scenario save --design` of unknown part ids returned 0 and saved; the app's
    Reopen then said "unknown cpu id". Its parts are checked as the app's upload checks them."""
    import json as _json
    from pathlib import Path

    from planner.cli import main

    monkeypatch.setenv("HCIPLAN_DB", str(tmp_path / "s.db"))
    ex = Path(__file__).resolve().parent.parent / "examples"
    d = _json.loads((ex / "reference.json").read_text())
    d["node"]["cpu"]["model"] = "no-such-cpu"
    f = tmp_path / "d.json"
    f.write_text(_json.dumps(d))
    assert main(["scenario", "save", "x", "--demand", str(ex / "demand-200dbs.json"), "--design", str(f)]) == 2
    assert "unknown cpu id" in capsys.readouterr().err
    assert main(["scenario", "list"]) == 0 and _json.loads(capsys.readouterr().out)["scenarios"] == []
    args = ["scenario", "save", "x", "--demand", str(ex / "demand-200dbs.json"), "--design", str(ex / "reference.json")]
    assert main([*args, "--existing", str(ex / "san-raid5.json")]) == 0


@pytest.mark.parametrize(
    "column, value, why",
    [("session_json", "{bad", "not valid JSON"), ("created_at", "x", "a damaged timestamp")],
)
def test_one_damaged_scenario_does_not_hide_the_others(tmp_path, column, value, why):
    """Hostile-input walk 2026-11-30: one scenario whose session or timestamp was damaged outside the app made
    `scenario list` and the app's panel fail ("Invalid isoformat string: 'x'" as a traceback). It is listed as
    unreadable, with why, and the others as ever."""
    db = tmp_path / "s.db"
    store = ScenarioStore(f"sqlite:///{db}")
    store.save("good", _session(), "Contoso")
    store.save("bad", _session(), "Contoso")
    with sqlite3.connect(db) as c:
        c.execute(f"UPDATE hciplan_scenarios SET {column} = ? WHERE name = 'bad'", (value,))
    entries = {e["name"]: e for e in ScenarioStore(f"sqlite:///{db}").list()}
    assert set(entries) == {"good", "bad"}
    assert why in entries["bad"]["unreadable"] and "unreadable" not in entries["good"]
    assert entries["good"]["updated_at"].endswith("+00:00")


def test_the_panel_reads_a_customers_name_by_the_stores_rule():
    """Hostile-input walk 2026-11-30: "Saved “plan A” for Fabrikam." and just below "No saved scenario for
    Fabrikam\u200b": the panel kept the zero-width space the store drops."""
    from hciplan_ui import saved_scenarios
    from planner.store import scenarios
    from planner.store.session import clean_name

    assert clean_name("Fabrikam\u200b") == "Fabrikam" and clean_name("a\u202eb\u202c") == "a b"
    # one rule: the store's and the panel's
    assert scenarios.clean_name is clean_name and saved_scenarios.clean_name is clean_name


def test_markdown_text_drops_direction_overrides():
    """Hostile-input walk 2026-11-30: a design named "\u202eRTL\u202c" showed as "LTR" on the page."""
    from hciplan_ui import fmt

    assert fmt.md("\u202eRTL\u202c") == "RTL" and "\u2066" not in fmt.md("a\u2066b\u2069")


def test_scenario_compare_lists_inputs_not_a_what_ifs_bookkeeping():
    """Finance walk 2026-11-30: `scenario compare` listed 15 differing inputs, "/whatif/design_before/..." among
    them, where the app's dialog said 3: the design a what-if started from is bookkeeping, not an input."""
    from planner.store.scenarios import inputs_that_differ

    a = {"design": {"nodes": 3}, "whatif": {"design_before": {"nodes": 3, "ram_gb": 256}}}
    b = {"design": {"nodes": 4}, "whatif": {"design_before": {"nodes": 5, "ram_gb": 512}}}
    assert inputs_that_differ(a, b) == ["/design/nodes"]


def test_a_scenarios_whole_cost_has_the_key_size_gives_it(tmp_path, capsys, monkeypatch):
    """Performance walk 2026-12-01: `size examples/demand-hammerdb.json` gave its best design cost_usd_per_month
    16,102.93 (the cluster alone) and whole_usd_per_month 16,667.64; the scenario saved from it gave
    figures.cost_usd_per_month 16,667.64, the whole cost under the other key. One key, one meaning: the scenario's
    is whole_usd_per_month, as the sensitivity rows' are."""
    ex = Path(__file__).resolve().parent.parent / "examples"
    monkeypatch.setenv("HCIPLAN_DB", str(tmp_path / "s.db"))
    assert main(["size", str(ex / "demand-hammerdb.json"), "--top", "1"]) == 0
    best = json.loads(capsys.readouterr().out)["best"]
    (tmp_path / "d.json").write_text(json.dumps(best["design"]))
    save = [
        "scenario",
        "save",
        "hdb2",
        "--demand",
        str(ex / "demand-hammerdb.json"),
        "--design",
        str(tmp_path / "d.json"),
    ]
    assert main([*save, "--customer", "T"]) == 0
    capsys.readouterr()
    assert main(["scenario", "compare", "hdb2", "hdb2", "--customer", "T"]) == 0
    figures = json.loads(capsys.readouterr().out)["a"]["figures"]
    assert "cost_usd_per_month" not in figures
    assert figures["whole_usd_per_month"] == pytest.approx(best["whole_usd_per_month"], rel=1e-9)
    from planner.models.design import parse_design
    from planner.models.workload import profiles
    from planner.sizing.scenarios import sensitivity

    row = sensitivity(parse_design(json.dumps(best["design"])), profiles()["oltp-8k"])[0]
    assert "base_whole_usd_per_month" in row and "base_cost_usd_per_month" not in row


def test_a_command_line_names_the_customer_option_that_finds_a_scenario(tmp_path, capsys, monkeypatch):
    """Noticed at stop 53: ``proposal --scenario plan`` without ``--customer`` said the scenario was saved for
    'Acme Ltd' but not which option reaches it; each command now names ``--customer`` (quoted for the shell),
    or says to leave it out for a scenario saved for no customer."""
    monkeypatch.setenv("HCIPLAN_DB", str(tmp_path / "hint.db"))
    d = str(EX / "demand-200dbs.json")
    assert main(["scenario", "save", "plan", "--demand", d, "--customer", "Acme Ltd"]) == 0
    assert main(["scenario", "save", "bare", "--demand", d]) == 0
    capsys.readouterr()
    for args in (
        ["proposal", "--scenario", "plan", "--format", "pdf", "--out", str(tmp_path / "p.pdf")],
        ["scenario", "show", "plan"],
        ["scenario", "delete", "plan"],
        ["scenario", "duplicate", "plan", "copy"],
    ):
        assert main(args) == 2, args
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.rstrip().endswith("(give --customer 'Acme Ltd')"), (args, err)
    assert main(["proposal", "--scenario", "plan", "--format", "pdf", "--out", str(tmp_path / "p.pdf")]) == 2
    assert capsys.readouterr().err.startswith("error: scenario: no scenario 'plan'")
    assert main(["scenario", "show", "bare", "--customer", "Acme Ltd"]) == 2
    assert capsys.readouterr().err.rstrip().endswith("(leave out --customer)")
