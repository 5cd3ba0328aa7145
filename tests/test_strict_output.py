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


def test_strict_nulls_non_finite_values_and_explains_them():
    text = jsonio.dumps({"a": float("inf"), "b": [1.0, float("nan")], "c": float("nan"), "c_note": "why"})
    assert strict_loads(text) == {"a": None, "a_note": jsonio.UNEXPLAINED, "b": [1.0, None],
                                  "c": None, "c_note": "why"}
