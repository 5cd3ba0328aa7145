"""Stop 55's PostgreSQL/MySQL DBA walk: the database layer models SQL Server only, and says so. A description naming
another engine got "not a field this input takes (a typo?)", and one naming none became SQL Server silently."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from planner.cli import main

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
REF = str(ROOT / "examples" / "reference.json")
PG = {"name": "pg-med-500g", "size_gb": 500, "buffer_pool_gb": 16, "tpm": 20000, "vcpus": 8}
LINE = re.compile(r"^error: [^\s:][^:]*: \S.*$")


def _one_line_error(argv, capsys) -> str:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    lines = err.split("\n")
    assert len(lines) == 2 and lines[1] == "", err
    assert LINE.match(lines[0]), lines[0]
    return lines[0]


def _says_not_modelled(line: str, engine: str) -> None:
    assert "not a field" not in line, line
    assert f"{engine} is not modelled" in line, line
    assert "SQL Server" in line and "by its IO" in line, line
    # the fields to use instead and the page that explains them
    for f in ("block_size_kib", "read_fraction", "total_iops", "peak_iops"):
        assert f in line, (f, line)
    assert "workloads.md" in line, line


@pytest.mark.parametrize("engine, name", [("postgresql", "PostgreSQL"), ("mysql", "MySQL"), ("MariaDB", "MariaDB")])
def test_db_io_and_sla_refuse_another_engine_in_one_line(engine, name, tmp_path, capsys):
    f = tmp_path / "db.json"
    f.write_text(json.dumps({**PG, "engine": engine}))
    _says_not_modelled(_one_line_error(["db-io", str(f)], capsys), name)
    line = _one_line_error(["sla", REF, "--database", str(f)], capsys)
    assert line.startswith("error: database.engine: "), line
    _says_not_modelled(line, name)
    line = _one_line_error(["compare", REF, "--database", str(f)], capsys)
    _says_not_modelled(line, name)


def test_size_refuses_another_engine_in_one_line(tmp_path, capsys):
    f = tmp_path / "demand.json"
    f.write_text(json.dumps({"name": "pg", "database": {**PG, "engine": "postgres"}, "databases": 120}))
    line = _one_line_error(["size", str(f)], capsys)
    _says_not_modelled(line, "PostgreSQL")


def test_sql_server_is_the_engine_given_or_not(tmp_path, capsys):
    from planner.models.database import Database

    assert Database(**PG).engine == "sql-server"
    assert Database(**PG, engine="SQL Server").engine == "sql-server"
    assert Database(**PG, engine="mssql").engine == "sql-server"
    f = tmp_path / "db.json"
    f.write_text(json.dumps(PG))
    assert main(["db-io", str(f)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["engine"] == "sql-server"
    assert "SQL Server" in out["engine_note"] and "by its IO" in out["engine_note"]
    engine = [a for a in out["assumptions"] if a["field"] == "engine"]
    assert engine and engine[0]["value"] == "sql-server" and "SQL Server's" in engine[0]["source"]


def test_sla_and_size_say_the_engine(tmp_path, capsys):
    f = tmp_path / "db.json"
    f.write_text(json.dumps(PG))
    assert main(["sla", REF, "--database", str(f)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["demand"]["engine"] == "sql-server"
    d = tmp_path / "demand.json"
    d.write_text(json.dumps({"name": "pg", "database": PG, "databases": 4, "max_nodes": 4}))
    from planner.models.demand import Demand

    summary = Demand.model_validate_json(d.read_text()).summary()
    assert summary["engine"] == "sql-server" and "by its IO" in summary["engine_note"]


def test_help_and_schema_say_sql_server_only(capsys):
    with pytest.raises(SystemExit):
        main(["db-io", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "modelled as SQL Server" in out and "by its IO" in out
    assert main(["schema", "db"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert "SQL Server" in schema["description"] and "engine" in schema["properties"]
    assert "by its IO" in schema["properties"]["engine"]["description"]


def test_estate_refuses_a_tpm_row_of_another_engine_and_keeps_io_rows():
    from planner.sizing.estate import EstateError, read_database_list

    csv = (
        "name,engine,size_gb,tpm,peak_iops,vcpus,ram_gb\n"
        "pg-med,postgresql,500,20000,,8,64\n"
        "my-io,MySQL,300,,9000,8,64\n"
        "sql,SQL Server,500,20000,,8,64\n"
        "sql2,,500,20000,,8,64\n"
    )
    with pytest.raises(EstateError) as e:
        read_database_list(csv.encode(), "estate.csv")
    msg = e.value.message
    assert "row 2, column engine: PostgreSQL is not modelled" in msg, msg
    assert "row 3" not in msg and "row 4" not in msg and "row 5" not in msg, msg
    ok = read_database_list(
        csv.replace("pg-med,postgresql,500,20000,", "pg-med,postgresql,500,,7000").encode(), "e.csv"
    )
    by = {d["name"]: d for d in ok["databases"]}
    assert (
        by["my-io"]["engine"] == "mysql"
        and by["sql"]["engine"] == "sql-server"
        and by["sql2"]["engine"] == "sql-server"
    )
    assert any("given by their IO" in n and "MySQL" in n for n in ok["notes"]), ok["notes"]


def _sla_dba(at: AppTest) -> AppTest:
    at.switch_page("hciplan_ui/sla_page.py").run()
    at.radio(key="sla_by").set_value("what a DBA knows (size, buffer pool, HammerDB rate)").run()
    return at


def test_the_dba_modes_say_sql_server():
    at = AppTest.from_file(APP, default_timeout=180).run()
    at.switch_page("hciplan_ui/sizing_page.py").run()
    at.radio(key="size_mode").set_value("databases a DBA describes").run()
    assert not at.exception
    assert any("Modelled as SQL Server" in c.value and "by its IO" in c.value for c in at.caption)
    _sla_dba(at)
    assert not at.exception
    assert any("Modelled as SQL Server" in c.value and "by its IO" in c.value for c in at.caption)


def test_the_pool_beyond_the_data_warning_says_its_threshold():
    """Stop 55 walk: "the 800 GB buffer pool is more than the 500 GB database" fired only above 1.5 times the data
    (POOL_BEYOND_DATA), so a 600 GB pool, also more than the database, had no warning: the words now say the
    threshold, the margin below it the reason it is not warned of."""
    from planner.commercial.database import database_warnings
    from planner.models.database import POOL_BEYOND_DATA, Database, io_demand

    def said(pool: float) -> list[str]:
        db = Database(size_gb=500, buffer_pool_gb=pool, tpm=20000)
        return [w for w in database_warnings(db, io_demand(db)) if "buffer pool is more than" in w]

    assert said(600) == []
    (w,) = said(800)
    assert f"more than {POOL_BEYOND_DATA:g} times the 500 GB database" in w, w
    assert "300 GB of it hold nothing" in w and "margin" in w, w


def test_the_sla_page_says_its_tenants_default_differs_from_the_clis():
    """Stop 55 walk: the SLA page starts with 25 VMs a node at 1,000 IOPS each as the other tenants (since the page's
    first version, 0ea6344; stop 52 only made them the sized demand's other databases after Use this design) where
    `sla` starts with none: the page says so, and why, beside the choice."""
    at = AppTest.from_file(APP, default_timeout=180).run()
    at.switch_page("hciplan_ui/sla_page.py").run()
    assert not at.exception
    assert at.radio(key="sla_bg").value == "25 VMs/node at 1,000 IOPS each"
    said = [c.value for c in at.caption if "hciplan sla" in c.value]
    assert said and "no other tenants" in said[0] and "--background" in said[0], said
    assert "background-25vms.json" in said[0] and "none" in said[0], said
