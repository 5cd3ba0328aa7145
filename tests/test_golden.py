"""Every figure of a fixed set of reports (examples x workloads, and each other command) is
exactly what the golden file holds: a restructure or a refactor moves no number.

A deliberate change of the model regenerates the file (``python tests/golden/make_golden.py``)
and says so in CHANGELOG.md.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from golden.cases import cases, numbers, strip
from golden.make_golden import run

ROOT = Path(__file__).resolve().parents[1]

GOLDEN = {tuple(r["argv"]): r for r in json.loads((ROOT / "tests" / "golden" / "reports.json").read_text())}


def test_the_golden_file_holds_every_case():
    assert set(GOLDEN) == {tuple(a) for a in cases()}


@pytest.mark.parametrize("argv", cases(), ids=lambda a: " ".join(a)[:80])
def test_report_numbers_unchanged(argv, monkeypatch):
    monkeypatch.chdir(ROOT)
    got = strip(run(argv))
    want = GOLDEN[tuple(argv)]
    assert got["status"] == want["status"] == 0
    g, w = numbers(got["report"]), numbers(want["report"])
    changed = {
        k: (w.get(k), g.get(k))
        for k in set(g) | set(w)
        if isinstance(w.get(k), (int, float)) or isinstance(g.get(k), (int, float))
        if g.get(k) != w.get(k)
    }
    assert not changed, f"{len(changed)} figures moved, e.g. {sorted(changed.items())[:5]}"
