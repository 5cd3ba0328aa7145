"""Input hardening: every reader (designs, workloads, databases, tiers, costs,
demands, catalog files and folders) goes through planner.core.jsonio, so hostile JSON
is a one-line error naming the file or field, never a traceback or a hang."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from planner.cli import main
from planner.core import jsonio
from planner.core.errors import CatalogError, PlannerError
from planner.models.catalog import load_catalog, parse_catalog_file

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"
REF = str(EX / "reference.json")

DEEP = "[" * 5000 + "]" * 5000
HOSTILE = {
    "deep": (DEEP, "nested deeper than 64"),
    "deep object": ('{"a": ' * 3000 + "1" + "}" * 3000, "nested deeper than 64"),
    "long int": ('{"size_tb": ' + "9" * 5000 + "}", "size_tb: integer with 5000 digits"),
    "NaN": ('{"size_tb": NaN}', "size_tb: NaN is not allowed"),
    "Infinity": ('{"size_tb": Infinity}', "size_tb: Infinity is not allowed"),
    "-Infinity": ('{"x": [1, -Infinity]}', "x[1]: -Infinity is not allowed"),
    "overflow": ('{"size_tb": 1e999}', "size_tb: number '1e999' is out of range"),
}

# every CLI reader: (argv with {f} for the hostile file, the field the error names)
READERS = {
    "design": (["evaluate", "{f}"], "design"),
    "workload": (["evaluate", REF, "--workload", "{f}"], "workload"),
    "db": (["sla", REF, "--db", "{f}"], "db"),
    # named for its argument: "workload" where --background was the file (CLI walk 2026-12-01)
    "background": (["sla", REF, "--db", str(EX / "db-erp.json"), "--background", "{f}"], "background"),
    "tiers": (["price", REF, "--tiers", "{f}"], "tiers"),
    "costs": (["price", REF, "--costs", "{f}"], "costs"),
    "demand": (["size", "{f}"], "demand"),
    "calibration": (["evaluate", REF, "--workload", "oltp-8k", "--calibration", "{f}"], "calibration"),
    "compare": (["compare", REF, "{f}", "--workload", "oltp-8k"], "design"),
    "database": (["compare", REF, "--database", "{f}"], "database"),
    "bom": (["bom", "{f}"], "design"),
}


def _run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("reader", list(READERS))
@pytest.mark.parametrize("kind", list(HOSTILE))
def test_every_reader_rejects_hostile_json_in_one_line(reader, kind, tmp_path, capsys):
    text, expect = HOSTILE[kind]
    f = tmp_path / "input.json"
    f.write_text(text)
    argv, field = READERS[reader]
    code, out, err = _run([a.replace("{f}", str(f)) for a in argv], capsys)
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {field}"), err
    assert expect in lines[0], lines[0]


@pytest.mark.parametrize("kind", list(HOSTILE))
def test_catalog_upload_rejects_hostile_json(kind):
    text, expect = HOSTILE[kind]
    with pytest.raises(CatalogError) as exc:
        parse_catalog_file(text.encode(), "mine.json")
    assert str(exc.value).startswith("mine.json") and expect.split(": ")[-1] in str(exc.value)


@pytest.mark.parametrize("kind", list(HOSTILE))
def test_catalog_folder_rejects_hostile_json(kind, tmp_path, capsys):
    (tmp_path / "evil.json").write_text(HOSTILE[kind][0])
    code, _out, err = _run(["catalog", "nic", "--catalog", str(tmp_path)], capsys)
    assert code == 2 and len(err.splitlines()) == 1 and err.startswith("error: evil.json"), err


@pytest.mark.parametrize(
    "doc",
    [
        {},
        {"device_class": [], "records": []},
        {"device_class": {}, "records": []},
        {"device_class": "nic", "records": [{"id": ["x"]}]},
        [],
        "nic",
        3,
    ],
)
def test_catalog_file_of_the_wrong_shape_names_the_file(doc):
    with pytest.raises(CatalogError) as exc:
        parse_catalog_file(json.dumps(doc).encode(), "shape.json")
    assert str(exc.value).startswith("shape.json: ")


def test_depth_limit_is_64_and_ignores_brackets_in_strings():
    ok = "[" * 64 + "]" * 64
    assert jsonio.nesting_depth(ok) == 64 and jsonio.loads(ok, "x") is not None
    with pytest.raises(PlannerError, match="nested deeper than 64"):
        jsonio.loads("[" + ok + "]", "x")
    assert jsonio.loads(json.dumps({"a": "[" * 1000 + '\\"{' * 100}), "x")["a"].startswith("[[")


def test_size_limit_before_parsing():
    with pytest.raises(PlannerError, match="larger than 10 bytes"):
        jsonio.loads(" " * 11, "x", max_bytes=10)


def test_a_300_digit_integer_is_still_a_number():
    assert jsonio.loads("[" + "9" * 300 + "]", "x")[0] == int("9" * 300)


def _cli(args, timeout=60):
    """The real CLI in a subprocess (with a memory cap, so an unbounded read fails fast)."""

    def cap_memory():  # pragma: no cover - runs in the child
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))

    return subprocess.run(
        [sys.executable, "-m", "planner", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=cap_memory,
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_catalog_folder_with_a_fifo_does_not_hang(tmp_path):
    os.mkfifo(tmp_path / "pipe.json")
    r = _cli(["catalog", "nic", "--catalog", str(tmp_path)])
    assert r.returncode == 2 and r.stderr.strip() == "error: pipe.json: 'pipe.json' is a device or pipe, not a file"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_catalog_folder_symlink_to_dev_zero_is_refused(tmp_path):
    (tmp_path / "zero.json").symlink_to("/dev/zero")
    r = _cli(["catalog", "nic", "--catalog", str(tmp_path)])
    assert r.returncode == 2 and r.stderr.strip() == "error: zero.json: 'zero.json' is a device or pipe, not a file"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_design_file_that_is_a_fifo_or_folder_is_refused(tmp_path, capsys):
    os.mkfifo(tmp_path / "pipe.json")
    for target in (tmp_path / "pipe.json", tmp_path):
        code, _, err = _run(["evaluate", str(target)], capsys)
        assert code == 2 and ", not a file" in err and err.startswith("error: design: ")
        assert ("a folder" in err) == (target == tmp_path)


def test_symlink_to_a_regular_design_file_still_works(tmp_path, capsys):
    (tmp_path / "link.json").symlink_to(EX / "reference.json")
    code, out, _ = _run(["evaluate", str(tmp_path / "link.json")], capsys)
    assert code == 0 and json.loads(out)["design"] == "reference"


@pytest.mark.parametrize("field", ["list_price_usd", "power_w"])
@pytest.mark.parametrize("value", ["-5", "NaN", "Infinity", "1e999"])
def test_catalog_prices_and_power_must_be_finite_and_non_negative(field, value):
    rec = json.loads((ROOT / "hardware_catalog" / "nics.json").read_text())["records"][0]
    text = json.dumps({"device_class": "nic", "records": [rec | {field: 0}]}).replace(
        f'"{field}": 0', f'"{field}": {value}'
    )
    with pytest.raises(CatalogError) as exc:
        parse_catalog_file(text.encode(), "mine.json")
    assert field in str(exc.value), exc.value


@pytest.mark.parametrize(
    "model, data",
    [
        ("design", {"ram_gb": float("inf")}),
        ("workload", {"working_set_gb_per_vm": float("inf")}),
        ("db", {"size_tb": float("nan")}),
    ],
)
def test_models_refuse_non_finite_numbers_built_in_code(model, data):
    from planner.models.database import Database
    from planner.models.design import parse_design
    from planner.models.workload import parse_workload

    ref = json.loads((EX / "reference.json").read_text())
    with pytest.raises((PlannerError, ValueError)):
        if model == "design":
            parse_design(ref | {"node": ref["node"] | data})
        elif model == "workload":
            parse_workload({"block_size_kib": 8, "read_fraction": 0.7, "vms_per_node": 4} | data)
        else:
            Database.model_validate(json.loads((EX / "db-erp.json").read_text()) | data)


def test_a_key_given_twice_is_refused_naming_it(tmp_path, capsys):
    """QA 2026-11-28: a design with "nodes": 4 and later "nodes": 8 ran with 8 and said nothing
    (json.loads keeps the last value); every JSON input now refuses a key given twice."""
    with pytest.raises(PlannerError) as exc:
        jsonio.loads('{"a": {"nodes": 4, "x": 1, "nodes": 8}}', "design")
    assert exc.value.field == "design.a.nodes" and "given twice" in str(exc.value)
    assert jsonio.loads('{"a": {"nodes": 4}, "b": {"nodes": 8}}', "design") == {"a": {"nodes": 4}, "b": {"nodes": 8}}
    doc = json.loads((ROOT / "examples" / "reference.json").read_text())
    f = tmp_path / "d.json"
    f.write_text(json.dumps(doc)[:-1] + ', "nodes": 8}')
    assert main(["evaluate", str(f)]) == 2
    assert capsys.readouterr().err == "error: design.nodes: given twice in the same object (which value is meant?)\n"


@pytest.mark.parametrize(
    "example, key, value, line",
    [
        ("reference.json", "nodes", "4", "error: nodes: a number is written without quotes (got '4')\n"),
        ("reference.json", "nodes", True, "error: nodes: true/false is not a number (got True)\n"),
        ("db-erp.json", "size_tb", "4", "error: database.size_tb: a number is written without quotes (got '4')\n"),
        ("db-erp.json", "size_tb", False, "error: database.size_tb: true/false is not a number (got False)\n"),
        # QA 2026-11-28 (DBA review): "all_warehouses": "yes" ran as true while a quoted version was refused
        (
            "db-oltp-hammerdb.json",
            "all_warehouses",
            "yes",
            "error: database.all_warehouses: write true or false, without quotes (got 'yes')\n",
        ),
        (
            "db-oltp-hammerdb.json",
            "all_warehouses",
            1,
            "error: database.all_warehouses: write true or false, without quotes (got 1)\n",
        ),
    ],
)
def test_a_number_written_as_text_or_true_is_refused(example, key, value, line, tmp_path, capsys):
    """QA 2026-11-28: pydantic's lax mode read "nodes": "4" as 4 and "size_tb": true as 1.0, so a
    hand-edited file with a quoted or mistyped number ran as something else and said nothing."""
    doc = json.loads((EX / example).read_text()) | {key: value}
    (tmp_path / "f.json").write_text(json.dumps(doc))
    argv = (
        ["evaluate", str(tmp_path / "f.json")] if example == "reference.json" else ["db-io", str(tmp_path / "f.json")]
    )
    assert main(argv) == 2
    assert capsys.readouterr().err == line


def test_json_keeps_what_it_has_no_other_way_to_write(tmp_path, capsys):
    """The check is for numbers only: an inline CPU's dates stay strings (strict Python mode would
    refuse them once a validator has turned the document into objects) and 4.0 nodes stay 4."""
    doc = json.loads((EX / "reference.json").read_text()) | {"nodes": 4.0}
    (tmp_path / "d.json").write_text(json.dumps(doc))
    assert main(["evaluate", str(tmp_path / "d.json")]) == 0
    assert json.loads(capsys.readouterr().out)["nodes"] == 4


def test_a_catalog_record_with_a_quoted_number_names_the_record():
    rec = json.loads(json.dumps(load_catalog().cpu["intel-xeon-gold-6246"].model_dump(mode="json")))
    rec["cores"] = "12"
    with pytest.raises(CatalogError) as exc:
        parse_catalog_file(json.dumps({"device_class": "cpu", "records": [rec]}).encode(), "my.json")
    assert (
        str(exc.value) == "my.json: record 'intel-xeon-gold-6246': cores: a number is written without quotes (got '12')"
    )


def test_a_huge_typed_number_is_said_in_powers_of_ten():
    """Hostile-input walk 2026-11-30: RAM -1e308 read "must be more than 0 and at most 100,000 GB (you typed
    -100,000,000,000,000,001,097,906,362,944,...)", over 300 digits."""
    from hciplan_ui.inputs import check

    said = check("RAM per node, GB", -1e308, 0, 100_000, lo_open=True, unit="GB")
    assert said is not None and "-1e+308" in said and len(said) < 200, said
    assert "100,000 GB" in check("RAM per node, GB", 200_000, 0, 100_000, lo_open=True, unit="GB")


def test_a_tiers_file_says_what_is_no_number_by_row_and_column():
    """Pricing-call walk (stop 63): a tiers file's "lots" read "Tiers.tiers.0.guaranteed_iops: a number is written
    without quotes (got 'lots')" (it is no number at all, and the editor names rows and columns), and 1e20 "must be
    less than or equal to 100000000"."""
    from hciplan_ui import fmt
    from planner.core import jsonio
    from planner.core.errors import PlannerError, plain_message
    from planner.models.tiers import TierSet, default_tiers

    t = default_tiers().model_dump(mode="json")
    t["tiers"][0]["guaranteed_iops"] = "lots"
    t["tiers"][1]["burst_iops"] = "5000"

    def said(exc, data):
        return fmt.row_errors(
            exc, data["tiers"], "tiers", {"guaranteed_iops": "Guaranteed IOPS", "burst_iops": "Burst IOPS"}
        )

    with pytest.raises(PlannerError) as exc:
        jsonio.parse_json_model(json.dumps(t), TierSet, PlannerError, "tiers file", prefix="tiers", describe=said)
    assert str(exc.value) == (
        "Row 1 (Standard), Guaranteed IOPS: must be a number; "
        "Row 2 (Business), Burst IOPS: a number is written without quotes."
    )
    with pytest.raises(PlannerError) as exc:  # no describe: the paths, as a command line names them
        jsonio.parse_json_model(json.dumps(t), TierSet, PlannerError, "tiers file", prefix="tiers")
    assert "tiers.tiers.0.guaranteed_iops: must be a number (got 'lots')" in str(exc.value)
    big = {"type": "less_than_equal", "msg": "Input should be less than or equal to 100000000", "ctx": {}}
    assert plain_message(big) == "must be less than or equal to 100,000,000"
