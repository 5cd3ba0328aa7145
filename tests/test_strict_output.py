"""Every JSON output parses with a strict parser (no NaN, no Infinity): a value
that does not exist is null with a reason next to it."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from planner import jsonio
from planner.cli import main

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


def test_a_tier_that_cannot_be_met_has_no_price_and_says_why(capsys):
    out = _ok(["price", str(EX / "edge-2node.json"), "--n-plus-one"], capsys)
    ultra = out["tiers"]["Ultra"]
    assert ultra["max_dbs"] == 0 and ultra["price_usd_per_month"] is None
    assert "no Ultra database fits" in ultra["price_note"]
    assert all(t["price_usd_per_month"] > 0 for t in out["tiers"].values() if t["max_dbs"] > 0)


def test_costs_of_zero_price_at_zero(tmp_path, capsys):
    parts = ["intel-xeon-gold-6246", "intel-p4510-1tb", "intel-optane-pmem-128gb", "mellanox-cx4-lx-2x25g",
             "supermicro-1029u-tn10rt"]
    costs = {"part_prices_usd": dict.fromkeys(parts, 0), "ram_usd_per_gb": 0, "power_usd_per_kwh": 0,
             "rack_unit_usd_per_month": 0, "windows_datacenter_usd_per_core": 0}
    (tmp_path / "c.json").write_text(json.dumps(costs))
    out = _ok(["price", REF, "--costs", str(tmp_path / "c.json")], capsys)  # was ZeroDivisionError
    for t in out["tiers"].values():
        assert t["price_usd_per_month"] == 0.0 and t["break_even_fill"] == pytest.approx(0.7 * 0.7)


@pytest.mark.parametrize("db, note", [
    ({"size_tb": 5000}, "does not fit"),
    ({"latency_target_ms": 0.02}, "nothing can be guaranteed"),
])
def test_sla_without_a_guarantee_has_null_latency_and_reason(db, note, tmp_path, capsys):
    doc = json.loads((EX / "db-erp.json").read_text()) | db
    (tmp_path / "db.json").write_text(json.dumps(doc))
    out = _ok(["sla", REF, "--db", str(tmp_path / "db.json")], capsys)
    assert out["guaranteed_iops"] == 0 and out["latency_ms"] is None and note in out["latency_note"]


def test_strict_nulls_non_finite_values_and_explains_them():
    text = jsonio.dumps({"a": float("inf"), "b": [1.0, float("nan")], "c": float("nan"), "c_note": "why"})
    assert strict_loads(text) == {"a": None, "a_note": jsonio.UNEXPLAINED, "b": [1.0, None],
                                  "c": None, "c_note": "why"}
