"""Every figure of a fixed set of reports (examples x workloads, and each other command) is
what the golden file holds: a restructure or a refactor moves no number.

"The same" is equal to within a relative 1e-12: numpy picks its SIMD kernels (exp, power,
pairwise sums) by the CPU it runs on, so the last bit of a float differs between machines
(an AMD EPYC gave 0.41798853757129895 where the golden file, made elsewhere, holds
0.417988537571299). Any change of the model moves figures by far more than that.

A deliberate change of the model regenerates the file (``python tests/golden/make_golden.py``)
and says so in CHANGELOG.md.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from golden.cases import cases, numbers, strip
from golden.make_golden import run

ROOT = Path(__file__).resolve().parents[1]

GOLDEN = {tuple(r["argv"]): r for r in json.loads((ROOT / "tests" / "golden" / "reports.json").read_text())}


def test_the_golden_file_holds_every_case():
    assert set(GOLDEN) == {tuple(a) for a in cases()}


def _same(a, b) -> bool:
    if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
        return a == b
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-300)


def test_same_tolerates_the_last_bit_only():
    assert _same(0.41798853757129895, 0.417988537571299)
    assert not _same(0.4179885375713, 0.417988537571299 * (1 + 1e-9))
    assert not _same(1, 2) and not _same(None, 0.0) and _same(None, None)


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
        if not _same(w.get(k), g.get(k))
    }
    assert not changed, f"{len(changed)} figures moved, e.g. {sorted(changed.items())[:5]}"
