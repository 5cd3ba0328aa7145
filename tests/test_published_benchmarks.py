"""Invariants of the transcribed large-block results in ``planner/data/benchmarks/published``.

They guard the transcription rules (units in names, sources and quotes kept, nothing
negative, at least one >= 256 KiB point per file), not any model behaviour.
"""

import json
from pathlib import Path

import pytest

PUBLISHED = Path(__file__).resolve().parent.parent / "planner" / "data" / "benchmarks" / "published"
FILES = sorted(PUBLISHED.glob("*.json"))

# Numeric keys must carry a unit (or be a count/fraction whose name says so).
UNIT_SUFFIXES = (
    "_kib",
    "_mb_s",
    "_ms",
    "_gb",
    "_tb",
    "_gbit_s",
    "_s",
    "_upper_bound",
    "_fraction",
    "_per_node",
    "_per_issuer",
    "_per_thread",
    "_per_socket",
    "_sockets",
    "_vcpus",
    "_utilization",
)
COUNT_KEYS = {"nodes", "iops", "ports"}


def _numeric_items(obj, path=""):
    if isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(v, bool):
                continue
            if isinstance(v, (int, float)):
                yield f"{path}.{k}", k, v
            else:
                yield from _numeric_items(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _numeric_items(v, f"{path}[{i}]")


def test_folder_has_files():
    assert len(FILES) >= 2


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_transcription_rules(path):
    d = json.loads(path.read_text())
    for key in ("title", "source", "transcribed_from", "cluster", "tests", "unknown", "notes", "quotes"):
        assert key in d, f"{path.name}: missing {key}"
    assert d["quotes"] and all(len(q) <= 300 for q in d["quotes"])
    for where, key, value in _numeric_items(d):
        assert value >= 0, f"{path.name}{where} is negative"
        assert key in COUNT_KEYS or key.endswith(UNIT_SUFFIXES), f"{path.name}{where}: no unit in name"
    for test in d["tests"]:
        for r in test["results"]:
            assert r["iops"] is not None or r["bandwidth_mb_s"] is not None, test["name"]
        frac = [test[k] for k in ("read_fraction", "random_fraction") if test.get(k) is not None]
        assert all(0.0 <= f <= 1.0 for f in frac)
    large = [t for t in d["tests"] if (t.get("block_size_kib") or 0) >= 256 and t["results"]]
    assert large, f"{path.name}: no result at >= 256 KiB"
