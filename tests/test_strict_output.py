"""Every JSON output parses with a strict parser (no NaN, no Infinity): a value
that does not exist is null with a reason next to it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from planner.cli import main
from planner.core import jsonio

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"
REF = str(EX / "reference.json")


def strict_loads(text: str):
    def refuse(name):
        raise ValueError(f"{name} in output")

    return json.loads(text, parse_constant=refuse)


def _ok(argv, capsys):
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert jsonio.UNEXPLAINED not in out  # every null is explained where it is made
    return strict_loads(out)


def test_read_only_workload_endurance_is_null_with_reason(capsys):
    out = _ok(["evaluate", REF, "--workload", "Peak4kRead"], capsys)
    assert out["endurance_years"] is None
    assert out["endurance_note"] == "no writes: the drives never wear out at this load"
    out = _ok(["evaluate", REF, "--workload", "oltp-8k"], capsys)
    assert out["endurance_years"] > 0 and "endurance_note" not in out


def test_a_tier_that_cannot_be_met_has_no_price_and_says_why(capsys, tmp_path):
    # an Ultra database larger than the two-node cluster's volumes (5.76 TB: with a node down its data stays
    # online on the survivor, so N+1 no longer takes the capacity below that, stop 42)
    tiers = json.loads((EX / "tiers.json").read_text())
    for t in tiers["tiers"]:
        if t["name"] == "Ultra":
            t["capacity_tb_per_db"] = 8.0
    (tmp_path / "tiers.json").write_text(json.dumps(tiers))
    out = _ok(["price", str(EX / "edge-2node.json"), "--n-plus-one", "--tiers", str(tmp_path / "tiers.json")], capsys)
    ultra = out["tiers"]["Ultra"]
    assert ultra["max_dbs"] == 0 and ultra["price_usd_per_month"] is None
    assert "no Ultra database fits" in ultra["price_note"]
    assert all(t["price_usd_per_month"] > 0 for t in out["tiers"].values() if t["max_dbs"] > 0)


def test_costs_of_zero_price_at_zero(tmp_path, capsys):
    parts = [
        "intel-xeon-gold-6246",
        "intel-p4510-1tb",
        "intel-optane-pmem-128gb",
        "mellanox-cx4-lx-2x25g",
        "supermicro-1029u-tn10rt",
        "ddr4-64gb-rdimm-3200",  # its 768 GB: 12 of them (planner.physics.dimms)
    ]
    costs = {
        "part_prices_usd": dict.fromkeys(parts, 0),
        "ram_usd_per_gb": 0,
        "power_usd_per_kwh": 0,
        "rack_unit_usd_per_month": 0,
        "windows_datacenter_usd_per_core": 0,
    }
    (tmp_path / "c.json").write_text(json.dumps(costs))
    out = _ok(["price", REF, "--costs", str(tmp_path / "c.json")], capsys)  # was ZeroDivisionError
    for t in out["tiers"].values():
        assert t["price_usd_per_month"] == 0.0 and t["break_even_fill"] == pytest.approx(0.7 * 0.7)


@pytest.mark.parametrize(
    "db, note",
    [
        ({"size_tb": 5000}, "does not fit"),
        ({"latency_target_ms": 0.02}, "nothing can be guaranteed"),
    ],
)
def test_sla_without_a_guarantee_has_null_latency_and_reason(db, note, tmp_path, capsys):
    doc = json.loads((EX / "db-erp.json").read_text()) | db
    (tmp_path / "db.json").write_text(json.dumps(doc))
    out = _ok(["sla", REF, "--db", str(tmp_path / "db.json")], capsys)
    assert out["guaranteed_iops"] == 0 and out["latency_ms"] is None and note in out["latency_note"]


def test_strict_nulls_non_finite_values_and_explains_them():
    text = jsonio.dumps({"a": float("inf"), "b": [1.0, float("nan")], "c": float("nan"), "c_note": "why"})
    assert strict_loads(text) == {"a": None, "a_note": jsonio.UNEXPLAINED, "b": [1.0, None], "c": None, "c_note": "why"}


@pytest.mark.parametrize(
    "price, reason",
    [
        (-5000, "greater than or equal to 0"),
        (1e12, "less than or equal to"),
        ("NaN", "NaN is not allowed"),
        ("Infinity", "Infinity is not allowed"),
    ],
)
def test_part_price_overrides_must_be_finite_and_non_negative(price, reason, tmp_path, capsys):
    # a negative override once priced a cluster at -105,671 USD/month
    text = f'{{"part_prices_usd": {{"intel-p4510-1tb": {price}}}}}'
    (tmp_path / "c.json").write_text(text)
    assert main(["price", REF, "--costs", str(tmp_path / "c.json")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: costs.part_prices_usd.intel-p4510-1tb: ") and reason in err, err


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -1.0])
def test_cost_figures_given_in_code_must_be_finite(value):
    from pydantic import ValidationError

    from planner.commercial.pricing import CostAssumptions

    with pytest.raises(ValidationError):
        CostAssumptions(part_prices_usd={"x": value})
    if value != -1.0:
        with pytest.raises(ValidationError):
            CostAssumptions(power_usd_per_kwh=value)


def test_a_catalog_price_that_is_not_finite_is_a_pricing_error():
    from planner.commercial.pricing import PricingError, monthly_cost
    from planner.models.catalog import load_catalog
    from planner.models.design import load_design, resolve

    rd = resolve(load_design(REF), load_catalog())
    drive = rd.node.drive.model_copy(update={"list_price_usd": float("inf")})
    rd = rd.model_copy(update={"node": rd.node.model_copy(update={"drive": drive})})
    with pytest.raises(PricingError, match="list_price_usd of part 'intel-p4510-1tb'"):
        monthly_cost(rd)


def _extreme_design(tmp_path, kind: str = "cpu", **fields) -> str:
    from planner.models.catalog import load_catalog

    d = json.loads((EX / "reference.json").read_text())
    part, key = {"cpu": ("intel-xeon-gold-6246", "cpu"), "capacity_drive": ("intel-p4510-1tb", "capacity_drives")}[kind]
    rec = load_catalog().of(kind)[part].model_dump(mode="json") | fields
    rec.pop("device_class")
    d["node"][key]["model"] = rec
    (tmp_path / "d.json").write_text(json.dumps(d))
    return str(tmp_path / "d.json")


def test_a_drive_slower_than_one_mb_s_is_refused_naming_the_field(tmp_path, capsys):
    # a drive reading 5e-324 MB/s passed its record's gt=0 and the model overflowed (fuzz campaign): each
    # positive figure has a floor that describes something real (planner.core.minimums)
    design = _extreme_design(tmp_path, "capacity_drive", seq_read_mb_s=5e-324, seq_write_mb_s=5e-324)
    assert main(["evaluate", design, "--workload", "oltp-8k"]) == 2
    err = capsys.readouterr().err
    assert "seq_read_mb_s: must be greater than or equal to 1 (got 5e-324)" in err, err


def test_figures_the_model_cannot_compute_are_nulls_with_the_reason():
    """A part figure past what the model computes (here one no record takes) gives nulls that say why."""
    from planner.models.catalog import load_catalog
    from planner.models.design import load_design
    from planner.models.workload import load_workload
    from planner.results.report import evaluate_report

    cat = load_catalog()
    slow = cat.capacity_drive["intel-p4510-1tb"].model_copy(update={"seq_read_mb_s": 5e-324, "seq_write_mb_s": 5e-324})
    cat = cat.model_copy(update={"capacity_drive": {**cat.capacity_drive, "intel-p4510-1tb": slow}})
    with np.errstate(all="ignore"):
        rep = evaluate_report(load_design(REF), load_workload("oltp-8k"), catalog=cat)
    assert jsonio.NOT_COMPUTABLE in jsonio.dumps(rep)


def test_a_cpu_slower_than_half_a_gigahertz_is_refused_naming_the_field(tmp_path, capsys):
    design = _extreme_design(tmp_path, base_ghz=5e-324)
    assert main(["evaluate", design, "--workload", "oltp-8k"]) == 2
    err = capsys.readouterr().err
    assert "base_ghz" in err and "0.5" in err, err


def test_a_database_smaller_than_a_gigabyte_is_refused(tmp_path, capsys):
    doc = json.loads((EX / "db-erp.json").read_text()) | {"size_tb": 5e-324}  # IOPS per GB was Infinity
    (tmp_path / "db.json").write_text(json.dumps(doc))
    assert main(["sla", REF, "--db", str(tmp_path / "db.json")]) == 2
    assert capsys.readouterr().err.startswith("error: db.size_tb: must be greater than or equal to 0.001")


def test_other_architectures_explain_a_null_endurance_too(capsys):
    out = _ok(["compare", str(EX / "san-raid5.json"), REF, "--workload", "Peak4kRead", "--full"], capsys)
    for rep in out:
        assert rep["endurance_years"] is None and "never wear out" in rep["endurance_note"]


@pytest.mark.parametrize(
    ("example", "calibration_file"),
    [
        ("reference.json", "calibration.json"),  # S2D
        ("ceph-6node-reef.json", "calibration-ceph.json"),  # Ceph's own fit
        ("san-raid5.json", "calibration.json"),  # another architecture: S2D's CPU per IO
    ],
)
def test_a_report_names_the_calibration_that_produced_its_figures(example, calibration_file, capsys):
    """Issue 22: every report carries the calibration id, not only one made with --calibration."""
    rep = _ok(["evaluate", str(ROOT / "examples" / example), "--workload", "oltp-8k"], capsys)
    want = json.loads((ROOT / "planner" / "data" / calibration_file).read_text())["version"]
    assert rep["calibration"]["version"] == want
    # capacity alone uses no fit: no calibration is named
    assert "calibration" not in _ok(["evaluate", str(ROOT / "examples" / example)], capsys)


def test_a_report_made_with_a_calibration_file_names_that_file(tmp_path, capsys):
    doc = json.loads((ROOT / "planner" / "data" / "calibration.json").read_text()) | {"version": "our-lab-2026"}
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(doc))
    rep = _ok(
        ["evaluate", str(ROOT / "examples" / "reference.json"), "--workload", "oltp-8k", "--calibration", str(path)],
        capsys,
    )
    assert rep["calibration"]["version"] == "our-lab-2026"


def test_every_null_of_the_cost_command_says_why(capsys):
    """CLI review (2026-11-29): `cost` printed "price_date": null and "sql_server": null with no note, where
    the README says every missing value is null with a *_note saying why."""
    out = _ok(["cost", REF], capsys)

    def nulls(o, path=""):
        if isinstance(o, dict):
            for k, v in o.items():
                if v is None and f"{k}_note" not in o:
                    yield f"{path}.{k}"
                else:
                    yield from nulls(v, f"{path}.{k}")
        elif isinstance(o, list):
            for i, v in enumerate(o):
                yield from nulls(v, f"{path}[{i}]")

    assert not list(nulls(out)), list(nulls(out))
    assert out["sql_server_note"].startswith("no SQL Server licences counted")


def test_a_note_with_nothing_to_say_is_left_out(capsys):
    """CLI review 2026-11-29: `sla examples/san-raid5.json --database ...` printed "latency_note": "",
    "note": "", "band_note": "" and a vSAN evaluate "volume_plan_note": "": a note is there where it explains."""
    assert jsonio.strict({"a_note": "", "note": "", "b": 1, "c_note": "why", "name": ""}) == {
        "b": 1,
        "c_note": "why",
        "name": "",
    }
    out = _ok(["sla", "examples/san-raid5.json", "--database", "examples/db-oltp-hammerdb.json"], capsys)
    assert "" not in [v for k, v in out["guarantee"].items() if k.endswith("note")]


def test_an_explanation_with_nothing_to_say_is_left_out(capsys):
    """CLI review 2026-11-29: `size examples/demand-200dbs.json` printed "explanation": "" and, in its search,
    "stopped": "" beside the design it found."""
    out = _ok(["size", "examples/demand-200dbs.json"], capsys)
    assert out["best"] is not None and "explanation" not in out and "stopped" not in out["search"]
    assert out["search"]["exact"] is True  # what "stopped" would qualify is still said
