"""CLI errors: exactly one line on stderr, 'error: <field>: <reason>', exit
status 2; argparse's errors too (no usage block); user strings escaped so a
newline cannot forge a second line; an OSError names the argument."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from planner.cli import main

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"
REF = str(EX / "reference.json")
LINE = re.compile(r"^error: [^\s:][^:]*: \S.*$")
LONG = "x" * 5000


def _fails(argv, capsys, field: str) -> str:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.split("\n")
    assert len(lines) == 2 and lines[1] == "", err  # exactly one line
    assert LINE.match(lines[0]) and lines[0].startswith(f"error: {field}: "), lines[0]
    assert "usage:" not in err and "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize(
    "argv, field",
    [
        (["bogus"], "command"),
        (["evaluate"], "design"),
        (["sla", REF], "db"),
        (["evaluate", REF, "--transport", "carrier-pigeon"], "transport"),
        (["evaluate", REF, "--nodes", "three"], "nodes"),
        (["evaluate", REF, "--nodes", "9" * 5000], "nodes"),
        (["evaluate", REF, "--vcpu-oversubscription", "nan"], "vcpu-oversubscription"),
        (["evaluate", REF, "--cpu-utilization-cap", "inf"], "cpu-utilization-cap"),
        (["evaluate", REF, "--frobnicate"], "arguments"),
        (["size", str(EX / "demand-200dbs.json"), "--top", "0"], "top"),
        (["catalog", "gpu"], "device_class"),
        (["schema", "bogus"], "kind"),
        (["validate", "--format", "xml"], "format"),
    ],
)
def test_argument_errors_are_one_line(argv, field, capsys):
    _fails(argv, capsys, field)


def test_long_user_strings_are_truncated_in_the_message(capsys):
    line = _fails(["evaluate", REF, "--transport", LONG], capsys, "transport")
    assert len(line) < 300


def test_calibrate_rejects_negative_bootstrap(capsys):
    # --dry-run: before this check the refit ran and would write a calibration without bands
    line = _fails(["calibrate", "--dry-run", "--no-cv", "--bootstrap", "-1"], capsys, "bootstrap")
    assert "0..200" in line


@pytest.mark.parametrize("arg", ["design", "workload", "db", "catalog"])
def test_file_name_too_long_names_the_argument(arg, capsys):
    argv = {
        "design": ["evaluate", LONG],
        "workload": ["evaluate", REF, "--workload", LONG],
        "db": ["sla", REF, "--db", LONG],
        "catalog": ["catalog", "nic", "--catalog", LONG],
    }[arg]
    line = _fails(argv, capsys, arg)
    assert line.endswith("file name too long") and len(line) < 300


@pytest.mark.parametrize("where", ["cpu", "workload", "name"])
def test_a_newline_in_a_user_string_cannot_forge_a_second_line(where, tmp_path, capsys):
    d = json.loads(Path(REF).read_text())
    argv = ["evaluate", str(tmp_path / "d.json")]
    if where == "cpu":
        d = copy.deepcopy(d)
        d["node"]["cpu"]["model"] = "nope\nerror: forged: second line"
        field = "node.cpu.model"
    elif where == "workload":
        argv += ["--workload", "nope\nerror: forged: second line"]
        field = "workload"
    else:
        d["name"] = "x" * 300 + "\nerror: forged"
        field = "name"
    (tmp_path / "d.json").write_text(json.dumps(d))
    line = _fails(argv, capsys, field)
    assert "\\n" in line or line.endswith("…)")  # escaped, or cut before it


def test_a_validator_message_has_no_pydantic_prefix(tmp_path, capsys):
    d = json.loads(Path(REF).read_text()) | {"nodes": 2}
    (tmp_path / "d.json").write_text(json.dumps(d))
    line = _fails(["evaluate", str(tmp_path / "d.json")], capsys, "design")
    assert line == ("error: design: resiliency 'mirror-3way' needs at least 3 fault domains (nodes); this design has 2")


@pytest.mark.parametrize(
    "argv, field",
    [
        (["evaluate", "x\x00y"], "design"),
        (["evaluate", REF, "--workload", "a\x00b"], "workload"),
        (["evaluate", REF, "--catalog", "\x00"], "catalog"),
        (["sla", REF, "--db", "a\x00"], "db"),
        (["catalog", "--catalog", "a\x00b"], "catalog"),
    ],
)
def test_a_nul_character_in_an_argument_is_named(argv, field, capsys):
    # os.open and pathlib raise ValueError('embedded null byte'), which escaped as a traceback
    assert _fails(argv, capsys, field).endswith("contains a NUL character")


def test_the_reader_refuses_a_nul_in_a_file_name():
    from planner.core.errors import PlannerError
    from planner.core.jsonio import read_bounded

    with pytest.raises(PlannerError, match="contains a NUL character"):
        read_bounded("a\x00b", 10, "design")


def test_a_made_up_key_is_quoted_in_the_field(tmp_path, capsys):
    d = json.loads(Path(REF).read_text()) | {"z: r\nerror": 1}
    (tmp_path / "d.json").write_text(json.dumps(d))
    line = _fails(["evaluate", str(tmp_path / "d.json")], capsys, "'z: r\\nerror'")
    assert line == "error: 'z: r\\nerror': not a field this input takes (a typo?) (got 1)"


@pytest.mark.parametrize(
    "argv, field, said",
    [
        (
            ["sla", REF, "--db", str(EX / "demand-hammerdb.json")],
            "db",
            "this is a demand file, not a database description",
        ),
        (["db-io", REF], "database", "this is a design file, not a database description"),
        (["size", REF], "demand", "this is a design file, not a demand file"),
        (["evaluate", str(EX / "demand-hammerdb.json")], "design", "this is a demand file, not a design file"),
        (
            ["evaluate", REF, "--workload", str(EX / "db-erp.json")],
            "workload",
            "this is a database description, not a workload file",
        ),
        (
            ["price", REF, "--tiers", str(EX / "demand-hammerdb.json")],
            "tiers",
            "this is a demand file, not a tiers file",
        ),
        (
            ["price", REF, "--costs", str(EX / "tiers.json")],
            "costs",
            "this is a tiers file, not a cost assumptions file",
        ),
    ],
)
def test_one_kind_of_file_given_for_another_is_said_in_one_short_line(argv, field, said, capsys):
    """Review 2026-11-29: a demand given to `sla --db` listed each of its keys as 'Extra inputs are not
    permitted' (seven clauses); the line now says which kind of file it is."""
    line = _fails(argv, capsys, field)
    assert line == f"error: {field}: {said}", line


def test_a_file_with_a_made_up_key_among_a_kinds_fields_is_still_told_its_key(tmp_path, capsys):
    """The kind is named only when every key is another kind's: one typo keeps the per-key message."""
    d = json.loads((EX / "demand-hammerdb.json").read_text()) | {"databasez": 3}
    (tmp_path / "d.json").write_text(json.dumps(d))
    assert main(["sla", REF, "--db", str(tmp_path / "d.json")]) == 2
    line = capsys.readouterr().err
    assert "db.databasez: not a field this input takes (a typo?)" in line and "this is a" not in line, line


@pytest.mark.parametrize("entry", ["import planner.cli", "import hciplan_ui; hciplan_ui.import_once()"])
def test_both_entry_points_know_every_kind_of_file_before_any_is_read(entry):
    """The kinds register themselves on import: the CLI and the app import all six before reading a
    file, so the message never depends on the pages or commands run before it (a fresh interpreter)."""
    import subprocess
    import sys

    code = f"{entry}; from planner.core.jsonio import FILE_KINDS; print(sorted(FILE_KINDS.values()))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert json.loads(out.strip().replace("'", '"')) == [
        "a cost assumptions file",
        "a database description",
        "a demand file",
        "a design file",
        "a tiers file",
        "a workload file",
    ]


@pytest.mark.parametrize(
    "argv, said",
    [
        (["sla", REF], "error: db: required: give --db or --database, the database JSON file"),
        (["evaluate"], "error: design: required: the design JSON file"),
        (["db-io"], "error: database: required: the database JSON file"),
    ],
)
def test_a_missing_argument_says_what_to_give(argv, said, capsys):
    """Review (2026-11-29): `hciplan sla DESIGN` said "db: required (or: database)", the parser's
    names without their dashes and without what the argument is."""
    assert _fails(argv, capsys, said.split(": ")[1]) == said


def test_every_argument_of_every_command_says_what_it_is():
    """CLI review (2026-11-29): `size --top`, the what-if overrides (`--nodes`, `--transport`,
    `--resiliency`), `estate --format`, `proposal --format` and the scenario names had no help."""
    import argparse

    from planner.cli.main import build_parser

    missing = []

    def walk(name, parser):
        for a in parser._actions:
            if isinstance(a, argparse._HelpAction):
                continue
            if isinstance(a, argparse._SubParsersAction):
                for sub, p in a.choices.items():
                    walk(f"{name} {sub}".strip(), p)
            elif not a.help:
                missing.append(f"{name} {a.dest}")

    walk("", build_parser())
    assert not missing, missing


@pytest.mark.parametrize("argv,first", [([], "usage: hciplan [-h]"), (["scenario"], "usage: hciplan scenario [-h]")])
def test_a_bare_command_shows_its_help(capsys, argv, first):
    """Review 2026-11-29: `hciplan` alone printed 'error: command: required' and `hciplan scenario`
    'error: action: required': a new user asking what there is got an error, not the commands."""
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert out.startswith(first) and err == ""
    assert ("proposal" in out and "scenario" in out) if not argv else ("save" in out and "compare" in out)


@pytest.mark.parametrize("design", ["seed-datrium-dvx.json", "seed-dl580-raid1.json", "seed-dataon-sofs-1db.json"])
@pytest.mark.parametrize(
    "flag,value",
    [
        ("--transport", "rdma"),
        ("--resiliency", "mirror-3way"),
        ("--cache-mode", "read-only"),
        ("--cpu-utilization-cap", "0.3"),
        ("--volume-servers", "2"),
    ],
)
def test_a_cluster_what_if_on_another_topology_is_refused(capsys, design, flag, value):
    """CLI review 2026-11-29: `evaluate seed-datrium-dvx.json --resiliency mirror-3way` still reported
    ec-8+2, and `--transport rdma --cache-mode read-only` on the single server changed nothing: each was
    silently ignored. They are the cluster's fields; the other topologies set them in their own section."""
    field = flag.lstrip("-").replace("-", "_")
    msg = _fails(["evaluate", str(EX / design), "--workload", "oltp-8k", flag, value], capsys, field)
    assert "applies to a cluster (hyperconverged, Ceph or vSAN)" in msg


def test_an_echoed_value_keeps_its_backslashes_single_and_escapes_what_does_not_print():
    """Browser review 2026-11-29: a perfmon counter echoed by repr read '\\\\\\\\SQL01\\\\LogicalDisk(D:)'."""
    from planner.core.errors import shown

    assert shown(r"\\SQL01\LogicalDisk(D:)\Disk Reads/sec") == r"'\\SQL01\LogicalDisk(D:)\Disk Reads/sec'"
    assert shown("a\nb\u200bc") == r"'a\nb\u200bc'" and shown("it's") == '"it\'s"' and shown(5) == "5"
    assert "\n" not in shown("x\n" * 100) and len(shown("y" * 500)) == 80


def test_pydantic_words_are_a_users(tmp_path, capsys):
    """Review 2026-11-29: an empty tiers file said "List should have at least 1 item after validation,
    not 0" (pydantic's words) and a missing column "Field required"."""
    (tmp_path / "t.json").write_text('{"tiers": []}')
    line = _fails(["price", REF, "--tiers", str(tmp_path / "t.json")], capsys, "tiers.tiers")
    assert line == "error: tiers.tiers: needs at least 1 entry, has 0", line
    (tmp_path / "t.json").write_text(
        '{"tiers": [{"name": "x", "burst_iops": 1, "latency_target_ms": 1, "capacity_tb_per_db": 1}]}'
    )
    line = _fails(["price", REF, "--tiers", str(tmp_path / "t.json")], capsys, "tiers.tiers.0.guaranteed_iops")
    assert line == "error: tiers.tiers.0.guaranteed_iops: required", line


def test_small_words_of_the_2026_11_29_walks():
    """Browser reviews 2026-11-29: "tier names must be unique (got ['Gold', 'Gold'])" (a Python list),
    "String should have at least 1 character", "1 fault domains remain", "VSAN:" at a sentence's start,
    "limited by reserved_iops"."""
    from pydantic import ValidationError

    from planner.core.errors import format_validation_error
    from planner.core.text import first_upper, sentence
    from planner.models.tiers import TierSet, default_tiers

    t = default_tiers().model_dump(mode="json")["tiers"]
    with pytest.raises(ValidationError) as exc:
        TierSet.model_validate({"tiers": [t[0], t[0]]})
    msg = format_validation_error(exc.value)
    assert f"'{t[0]['name']}' more than once" in msg and "[" not in msg, msg
    with pytest.raises(ValidationError) as exc:
        TierSet.model_validate({"tiers": [{**t[0], "name": ""}]})
    assert "tiers.0.name: must not be empty" in format_validation_error(exc.value)
    assert first_upper("vSAN: reads") == "vSAN: reads" and sentence("vCPUs run") == "vCPUs run."
    assert first_upper("reads") == "Reads"


def test_one_fault_domain_is_said_in_the_singular():
    from planner.models.design import load_design, resolve
    from planner.physics.capacity import capacity_report

    note = capacity_report(resolve(load_design("examples/edge-2node.json"))).node_loss_note
    assert note.startswith("after losing one node, 1 fault domain remains;"), note


def test_cli_review_words_2026_11_29(capsys):
    """CLI review 2026-11-29: `import` printed no hciplan_version (indented by 1); `price` shared out the
    servers' month with no word that the network is not in it, and took --platform azure-local on a Ceph
    design silently; `bom` of a SAN named only the app's page; a single server's rack space read
    "1 rack units"; `sla` of a database that does not fit said "the IO guarantee falls short"."""
    assert main(["import", "examples/import-measurements.csv", "--design", "examples/reference.json"]) == 0
    out = capsys.readouterr().out
    assert out.startswith('{\n  "hciplan_version"'), out[:80]
    assert main(["price", "examples/ceph-6node-reef.json", "--platform", "azure-local"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert "not in it" in d["monthly_cost_note"] and "carries its own licence" in d["platform_note"]
    line = _fails(["bom", "examples/san-raid5.json"], capsys, "topology")
    assert "hciplan cost" in line, line
    assert main(["cost", "examples/single-server-pcie-flash.json"]) == 0
    rack = next(x for x in json.loads(capsys.readouterr().out)["lines"] if x["key"] == "rack")
    assert rack["basis"].startswith("1 rack unit x"), rack
    assert main(["sla", "examples/single-server-pcie-flash.json", "--database", "examples/db-oltp-hammerdb.json"]) == 0
    assert "the database does not fit in the storage" in json.loads(capsys.readouterr().out)["meets_note"]


def test_the_shipped_estate_sample_reads_and_its_untiered_databases_are_said_as_such(capsys):
    """CLI review 2026-11-29: examples/ had no estate file, and `estate --details` warned "tier 'Estate' is not
    one of the shipped tiers": the name this reader gives databases without a tier."""
    assert main(["estate", "examples/estate-databases.csv", "--details"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert "1 database with no tier (grouped as 'Estate') and no latency_target_ms: it takes 1 ms" in notes, notes
    assert not any("tier 'Estate' is not one of" in n for n in notes)


@pytest.mark.parametrize("head, kind", [(b"\x89PNG\r\n\x1a\n", "a PNG image"), (b"%PDF-1.4", "a PDF document")])
def test_a_picture_or_a_pdf_given_as_a_table_is_named(tmp_path, capsys, head, kind):
    """Browser review 2026-11-29: a PNG renamed to .csv said "not UTF-8 or UTF-16 text (byte 0)"."""
    (tmp_path / "x.csv").write_bytes(head + b"\x00\x01rest")
    line = _fails(["estate", str(tmp_path / "x.csv")], capsys, "x.csv")
    assert line == f"error: x.csv: {kind}, not a text file", line


def test_the_existing_systems_file_is_named_by_its_option(capsys):
    """CLI review 2026-11-29: `proposal ... --existing examples/demand-200dbs.json` said "design: this is a demand
    file", naming the wrong option."""
    argv = ["proposal", "examples/demand-200dbs.json", "--existing", "examples/demand-200dbs.json", "--format", "html"]
    line = _fails([*argv, "--out", "/tmp/never-written.html"], capsys, "existing")
    assert line == "error: existing: this is a demand file, not a design file", line


def test_pydantic_type_words_are_a_users(tmp_path, capsys):
    """CLI review 2026-11-30: "Input should be a valid dictionary or instance of CpuSet" named a class, and
    "Input should be a valid integer, got a number with a fractional part" read as code."""
    d = json.loads((Path(__file__).resolve().parent.parent / "examples" / "reference.json").read_text())
    d["nodes"] = 3.5
    d["node"]["cpu"] = "intel-xeon-gold-6246"
    f = tmp_path / "d.json"
    f.write_text(json.dumps(d))
    assert main(["evaluate", str(f)]) == 2
    err = capsys.readouterr().err
    assert "nodes: must be a whole number (got 3.5)" in err
    assert "node.cpu: must be an object of named fields" in err
    assert "Input should" not in err and "instance of" not in err and "CpuSet" not in err


def test_cost_assumptions_naming_no_catalog_part_or_vendor_are_refused_and_a_vendor_in_any_case_counts(
    tmp_path, capsys
):
    """Finance walk 2026-11-30: `--costs` with {"vendor_discounts_pct": {"Dell": 30}} gave no discount and
    {"part_prices_usd": {"no-such-part": 0}} changed nothing, without a word; a quotes file's same mistakes are
    refused with the closest names."""
    import json as _json

    from planner.cli import main as cli

    def cost(costs: dict) -> tuple[int, str, str]:
        p = tmp_path / "c.json"
        p.write_text(_json.dumps(costs))
        rc = cli(["cost", "examples/vsan-esa-6node.json", "--costs", str(p)])
        out, err = capsys.readouterr()
        return rc, out, err

    rc, out, _ = cost({})
    base = _json.loads(out)["capex_usd"]
    for key in ("Dell", "dell", " DELL "):
        rc, out, _ = cost({"vendor_discounts_pct": {key: 30}})
        assert rc == 0 and _json.loads(out)["capex_usd"] < base, key
    rc, _, err = cost({"part_prices_usd": {"intel-ssd-p4510-1tb": 100}})
    assert rc != 0 and "unknown part 'intel-ssd-p4510-1tb'; closest: intel-p4510-1tb" in err, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    rc, _, err = cost({"vendor_discounts_pct": {"Del": 30}})
    assert rc != 0 and "no part of vendor 'del' in the catalog; closest: dell" in err, err
    rc, _, err = cost({"vendor_discounts_pct": {"Dell": 30, "dell": 20}})
    assert rc != 0 and "given twice with different discounts" in err, err


def test_a_demand_of_tiers_with_totals_beside_them_is_refused(tmp_path, capsys):
    """CLI fuzzing 2026-11-30: {"total_iops": 1000, "capacity_tb": 10, "databases": 10, "tier_counts": {"Standard": 5}}
    sized the 5 Standard databases (2.5 TB) and proposed a 4 TB design as feasible, the totals dropped unsaid."""
    from planner.cli import main

    f = tmp_path / "d.json"
    f.write_text(json.dumps({"total_iops": 1000, "capacity_tb": 10, "databases": 10, "tier_counts": {"Standard": 5}}))
    assert main(["size", str(f), "--top", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["error: demand: give tier_counts or totals (total_iops, capacity_tb, databases), not both"]


@pytest.mark.parametrize(
    ("change", "line"),
    [
        (
            lambda d: d["node"].update(capacity_drives={"model": 7, "count": 10}),
            "error: node.capacity_drives.model: must be a valid string or an object of named fields ({...}) (got 7)",
        ),
        (lambda d: d.update(nodes=1e308), "error: nodes: must be a whole number of a sensible size (got 1e+308)"),
        (lambda d: d.update(name="a" * 5000), "error: name: takes at most 200 characters (got "),
    ],
    ids=["union-member-tags", "huge-integer", "long-name"],
)
def test_error_lines_carry_no_pydantic_internals(tmp_path, capsys, change, line):
    """CLI fuzzing 2026-11-30: "model.'function-after[_media_fields_agree(), …: must be an object" (a union's member
    tag in the field's name, and the union's two reasons as two problems), "Unable to parse input string as an
    integer, exceeded maximum size", "String should have at most 200 characters"."""
    d = json.loads((Path(__file__).resolve().parents[1] / "examples" / "reference.json").read_text())
    change(d)
    f = tmp_path / "d.json"
    f.write_text(json.dumps(d))
    assert main(["evaluate", str(f)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(line), err


def test_a_capitalised_key_of_the_input_is_kept_in_the_error_line(tmp_path, capsys):
    """Review of the union-tag fix: a tier named "Standard" is the input's own key, not pydantic's tag for a
    union's member, and stays in the field's name."""
    f = tmp_path / "d.json"
    f.write_text(json.dumps({"tier_counts": {"Standard": -1}}))
    assert main(["size", str(f)]) == 2
    assert (
        capsys.readouterr().err.strip()
        == "error: demand.tier_counts.Standard: must be greater than or equal to 0 (got -1)"
    )


def test_a_calibration_file_that_is_not_json_is_said_once(tmp_path, capsys):
    f = tmp_path / "nj.txt"
    f.write_text("not json")
    assert main(["evaluate", "examples/reference.json", "--calibration", str(f)]) == 2
    assert (
        capsys.readouterr().err.strip()
        == "error: calibration: nj.txt: not valid JSON (Expecting value: line 1, column 1)"
    )


def test_an_id_of_the_wrong_form_is_said_in_words_not_as_a_regular_expression():
    """Hostile-input walk 2026-11-30: a part's id read "String should match pattern '^[a-z0-9][a-z0-9.\\-]*$'"."""
    from pydantic import BaseModel, Field, ValidationError

    from planner.core.errors import ID_PATTERN, format_validation_error

    class Part(BaseModel):
        id: str = Field(pattern=ID_PATTERN)

    with pytest.raises(ValidationError) as exc:
        Part(id="My Drive")
    said = format_validation_error(exc.value)
    assert "lower-case letters, digits" in said and "^[a-z0-9]" not in said, said


def test_cost_says_the_platform_does_not_apply_on_ceph_and_the_guests_licence_has_a_flag(capsys):
    """Ceph operator walk: `cost examples/ceph-6node-reef.json --platform azure-local` ignored the flag silently
    (`price` says so in its platform_note); Linux guests were hard to find: `--guest-os-licence none` counts no
    Windows guests on a Ceph or vSAN cluster, and size/price/cost --help say so."""
    assert main(["cost", "examples/ceph-6node-reef.json", "--platform", "azure-local"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert any("platform choice is Storage Spaces Direct's" in n for n in d["notes"]), d["notes"]
    assert main(["cost", "examples/ceph-6node-reef.json"]) == 0
    windows = json.loads(capsys.readouterr().out)
    assert not any("platform choice" in n for n in windows["notes"])
    assert main(["cost", "examples/ceph-6node-reef.json", "--guest-os-licence", "none"]) == 0
    linux = json.loads(capsys.readouterr().out)
    assert linux["monthly"]["total_usd_per_month"] < windows["monthly"]["total_usd_per_month"]
    assert any("no Windows Server licence for the database VMs" in n for n in linux["notes"])
    for cmd in ("size", "price", "cost"):
        with pytest.raises(SystemExit):
            main([cmd, "--help"])
        said = " ".join(capsys.readouterr().out.split())
        assert "--guest-os-licence" in said and "Linux guests" in said, cmd


@pytest.mark.parametrize("command", ["cost", "price"])
def test_a_cost_option_that_changes_nothing_is_said(command, capsys):
    """Hostile-input walk: `cost`/`price examples/reference.json --guest-os-licence none` on S2D printed the same bytes
    as without it, and `cost --sql-licensing bring-your-own` without `--sql` too: said in options_not_applied, with
    why (an S2D cluster's guests follow its licence option; no SQL Server licences are counted)."""
    assert main([command, "examples/reference.json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main([command, "examples/reference.json", "--guest-os-licence", "none"]) == 0
    out = json.loads(capsys.readouterr().out)
    (said,) = out.pop("options_not_applied")
    assert out == plain
    assert said.startswith("--guest-os-licence none: only applies to a Ceph or vSAN cluster; a Storage Spaces Direct")
    assert said.endswith("so it changes nothing here")
    if command == "cost":
        assert main(["cost", "examples/reference.json", "--sql-licensing", "bring-your-own"]) == 0
        assert json.loads(capsys.readouterr().out)["options_not_applied"] == [
            "--sql-licensing bring-your-own: only applies with SQL Server licences counted (--sql standard or "
            "enterprise, or sql_edition in --costs); none are"
        ]
    assert main([command, "examples/ceph-6node-reef.json", "--guest-os-licence", "none"]) == 0
    assert "options_not_applied" not in json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("flags", "err"),
    [
        (
            ["--out", "c.json"],
            "error: out: only applies with --calibrate (the refit's calibration file); without it nothing is written",
        ),
        (
            ["--imported-share", "0.5"],
            "error: imported_share: only applies with --with-shipped (the imported points' share of a joint refit)",
        ),
        (["--calibrate", "--imported-share", "0.5"], "error: imported_share: only applies with --with-shipped"),
    ],
)
def test_an_import_option_without_the_refit_it_belongs_to_is_refused(flags, err, capsys, tmp_path):
    """Hostile-input walk: `import ... --out c.json` without --calibrate wrote nothing and said nothing; and
    --imported-share without --with-shipped was ignored (--with-shipped without --calibrate is refused so)."""
    argv = ["import", "examples/import-template.csv", "--design", "examples/reference.json"]
    assert main([*argv, *[f.replace("c.json", str(tmp_path / "c.json")) for f in flags]]) == 2
    assert capsys.readouterr().err.startswith(err)
    assert not (tmp_path / "c.json").exists()


def test_small_argument_mistakes_are_said_as_they_are(capsys, tmp_path):
    """Hostile-input walk: a missing --format read "give --format, the pdf" (its help's first clause cut at " ("); both
    --workload and --database read "give --workload ... or --database" as if neither were given; `--out ""` read
    "cannot write '.': device or resource busy" (and import wrote its default file); `--catalog FILE` read
    "catalog folder not found"."""
    out = str(tmp_path / "x.html")
    assert main(["proposal", "examples/demand-200dbs.json", "--out", out]) == 2
    assert capsys.readouterr().err == "error: format: required: give --format pdf, html, docx or xlsx\n"
    assert main(["compare", REF, "--workload", "oltp-8k", "--database", "examples/db-erp.json"]) == 2
    assert capsys.readouterr().err.rstrip().endswith("or --database (a database description file), not both")
    assert main(["proposal", "examples/demand-200dbs.json", "--format", "html", "--out", ""]) == 2
    assert capsys.readouterr().err == "error: out: is empty: give a file name (or - for standard output)\n"
    imp = ["import", "examples/import-template.csv", "--design", REF, "--calibrate", "--no-held-out", "--out", " "]
    assert main(imp) == 2
    assert capsys.readouterr().err == "error: out: is empty: give a file name\n"
    assert main(["evaluate", REF, "--catalog", "examples/reference.json"]) == 2
    assert "is a file; give the folder that holds it" in capsys.readouterr().err


def test_app_help_is_hciplans(capsys, monkeypatch):
    """Hostile-input walk: `hciplan app --help` printed Streamlit's 5,478-line help."""
    import os

    def no_streamlit(*_args):
        raise AssertionError("started streamlit")

    monkeypatch.setattr(os, "execv", no_streamlit)
    with pytest.raises(SystemExit) as exc:
        main(["app", "--help"])
    assert exc.value.code == 0
    said = capsys.readouterr().out
    assert said.startswith("usage: hciplan app") and "streamlit run --help" in said and len(said.splitlines()) < 20


@pytest.mark.parametrize(
    "command, rate, words",
    [
        (["compare", REF], {"nopm": 1, "size_gb": 1}, "fewer than 1, the least rate"),
        (["compare", REF], {"tpm": 1e10, "size_gb": 1000}, "more than 1,000,000,000"),
        (["sla", REF, "--vcpus", "16"], {"tpm": 1e10, "size_gb": 1000}, "more than 1,000,000,000"),
    ],
)
def test_a_database_rate_no_load_can_have_is_one_line(command, rate, words, capsys, tmp_path):
    """A database of 1 NOPM asks 0.40 IOPS, one of 1e10 TPM 4.4e9: `compare --database` ended in a pydantic
    traceback on both, `sla` on the second (performance walk 2026-12-01); one line naming the rate and the bound
    wherever a database becomes a load (planner.models.database.workload_iops). `sla` runs the trickle at the
    least rate a load takes."""
    path = tmp_path / "db.json"
    path.write_text(json.dumps({"name": "x", "buffer_pool_gb": 1} | rate))
    line = _fails([*command, "--database", str(path)], capsys, "database")
    assert words in line and "IOPS" in line


def test_an_error_in_a_tagged_section_names_the_path_in_the_file(capsys, tmp_path):
    """Performance walk 2026-12-01: san-raid5 with hbas 4 said "single_server.storage.san.hbas", "san" being
    pydantic's tag for the storage kind, not a key of the file (single_server.storage.hbas)."""
    d = json.loads((EX / "san-raid5.json").read_text())
    d["single_server"]["storage"]["hbas"] = 4
    (tmp_path / "d.json").write_text(json.dumps(d))
    line = _fails(["evaluate", str(tmp_path / "d.json")], capsys, "single_server.storage.hbas")
    assert ".san." not in line


@pytest.mark.parametrize("design", ["seed-datrium-dvx.json", "seed-dl580-raid1.json", "seed-dataon-sofs-1db.json"])
@pytest.mark.parametrize(
    "flag,value",
    [("--capacity-drive", "intel-p4510-1tb"), ("--drives-per-node", "8"), ("--nic", "mellanox-cx5-2x100g")],
)
def test_a_node_part_what_if_on_another_topology_is_refused(capsys, design, flag, value):
    """The node's parts a what-if changes (stop 62) are a cluster node's; the other topologies give their servers in
    their own section, so the flag is refused by name, not ignored."""
    field = flag.lstrip("-").replace("-", "_")
    msg = _fails(["evaluate", str(EX / design), "--workload", "oltp-8k", flag, value], capsys, field)
    assert "does not apply to a" in msg


@pytest.mark.parametrize("flag,cls", [("--capacity-drive", "capacity drive"), ("--nic", "NIC")])
def test_a_node_part_the_catalog_does_not_hold_is_the_flags_error(capsys, flag, cls):
    field = flag.lstrip("-").replace("-", "_")
    msg = _fails(["evaluate", str(EX / "reference.json"), flag, "no-such-part"], capsys, field)
    assert msg == f"error: {field}: 'no-such-part' is no {cls} of the catalog (`hciplan catalog {field}` lists them)"


def test_a_node_part_what_if_is_the_design_with_those_parts(capsys):
    """`evaluate --capacity-drive --drives-per-node --nic --nics-per-node` is the design with those parts, as the
    Compare page's what-if builds it."""
    from planner.models.design import load_design
    from planner.models.workload import profiles
    from planner.results.report import evaluate_report

    argv = ["--capacity-drive", "micron-7450-pro-3.84tb", "--drives-per-node", "8", "--nic", "mellanox-cx5-2x100g"]
    assert main(["evaluate", str(EX / "reference.json"), "--workload", "oltp-8k", "--no-degraded", *argv]) == 0
    got = json.loads(capsys.readouterr().out)
    d = load_design(EX / "reference.json")
    node = d.node.model_copy(
        update={
            "capacity_drives": d.node.capacity_drives.model_copy(
                update={"model": "micron-7450-pro-3.84tb", "count": 8}
            ),
            "nics": d.node.nics.model_copy(update={"model": "mellanox-cx5-2x100g"}),
        }
    )
    want = evaluate_report(d.model_copy(update={"node": node}), profiles()["oltp-8k"], degraded=False)
    assert (got["iops"], got["usable_capacity_tb"]) == (want["iops"], want["usable_capacity_tb"])
    assert got["design"] == "reference"  # a name the user gave stays


def test_three_lines_a_dba_met_say_what_to_give(tmp_path, capsys):
    """DBA walk 2026-12-03: an empty engine gave "'' is not modelled ... and '''s pages"; a database list given to
    db-io gave "not valid JSON (Expecting value: line 1, column 1)"; and `estate` said that a database peaking far
    above its tier's mean is guaranteed only as a burst under --details alone."""
    from planner.cli import main

    empty = tmp_path / "e.json"
    empty.write_text('{"name": "e", "engine": "", "size_gb": 100, "buffer_pool_gb": 10, "tpm": 1000}')
    assert main(["db-io", str(empty)]) == 2
    err = capsys.readouterr().err
    assert (
        err
        == "error: database.engine: empty: give 'sql-server' (the one engine modelled) or leave engine out (got '')\n"
    )

    assert main(["db-io", str(EX / "estate-databases.csv")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: database: estate-databases.csv is a database list: `hciplan estate` reads one")
    assert err.count("\n") == 1

    assert main(["estate", str(EX / "estate-databases.csv")]) == 0
    err = capsys.readouterr().err
    assert "warning: tier 'Premium': each database is guaranteed the tier's mean" in err
    assert "Finance peaks at 43,761" in err


def test_compare_says_a_database_described_by_its_io_is_a_workload(tmp_path, capsys):
    """DBA walk 2026-12-03: the refusal of a PostgreSQL database said "for sla and compare a database file with
    size_gb, block_size_kib, ..."; compare then refused that very file asking for nopm."""
    from planner.cli import main
    from planner.models.database import BY_ITS_IO_WORDS

    assert "for compare a workload file (--workload)" in BY_ITS_IO_WORDS
    db = tmp_path / "pg.json"
    db.write_text('{"name": "pg", "size_tb": 2, "block_size_kib": 8, "read_fraction": 0.7, "random_fraction": 0.9}')
    assert main(["compare", str(EX / "reference.json"), str(EX / "san-raid5.json"), "--database", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: database: this database gives its IO, not a rate to turn into IO: give compare")
    assert err.count("\n") == 1


@pytest.mark.parametrize("example", ["db-erp.json", "demand-200dbs.json"])
def test_estate_given_a_json_file_names_the_command_that_takes_it(example, capsys):
    """DBA walk (2026-12-03): one database's file given to estate said only "a JSON file, not a table: give a CSV
    or XLSX file", not which command reads it."""
    line = _fails(["estate", str(EX / example)], capsys, "file")
    assert "`hciplan db-io`" in line and "`hciplan sla DESIGN --database`" in line and "`hciplan size`" in line


def test_a_number_out_of_bounds_is_echoed_with_its_thousands_separated(tmp_path, capsys):
    """DBA walk (2026-12-03): "must be less than or equal to 10,000 (got 1000000000000.0)", the bound with
    separators and the value typed without."""
    db = tmp_path / "db.json"
    db.write_text(json.dumps({"name": "x", "size_tb": 1e12, "vcpus": 8}))
    line = _fails(["db-io", str(db)], capsys, "database.size_tb")
    assert line.endswith("must be less than or equal to 10,000 (got 1,000,000,000,000)"), line


def test_shown_separates_only_large_numbers_and_keeps_the_rest_as_typed():
    """The thousands separators are for figures of four digits and more; below, the value's shortest form (a drive
    at 5e-324 MB/s was refused as "got 4.94065645841247e-324" by a general format)."""
    from planner.core.errors import shown

    assert [shown(v) for v in (1e12, 1234.5, -1000, 5e-324, 2.0, 1e20, float("inf"))] == [
        "1,000,000,000,000",
        "1,234.5",
        "-1,000",
        "5e-324",
        "2.0",
        "1e+20",
        "inf",
    ]
