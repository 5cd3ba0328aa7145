"""Honesty audit 2026-12-01: constants with no source or fit were printed as facts. Each cost default says where it
comes from, or that it is an hciplan default assumption to replace, in its field's description and beside the
figure wherever a cost prints it; CPU_BOUND, the tier probe's IOs in flight and the repair share are named as
assumptions with their reasons where they are printed."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from planner.cli.main import main

EX = Path(__file__).resolve().parent.parent / "examples"


def _cli(*argv) -> dict:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([str(a) for a in argv]) == 0
    return json.loads(out.getvalue())


def test_every_cost_default_says_its_source_or_that_it_is_an_assumption():
    from planner.commercial.pricing import COST_DEFAULT_SOURCES, CostAssumptions

    for field, source in COST_DEFAULT_SOURCES.items():
        assert source in (CostAssumptions.model_fields[field].description or ""), field
        assert source.startswith("hciplan default assumption")
    assert (
        "EIA" in COST_DEFAULT_SOURCES["power_usd_per_kwh"]
        or "Energy Information" in COST_DEFAULT_SOURCES["power_usd_per_kwh"]
    )
    assert "Uptime Institute" in COST_DEFAULT_SOURCES["pue"]


def test_the_cost_lines_say_a_default_is_an_assumption_and_a_given_figure_is_not(tmp_path):
    lines = {x["key"]: x["basis"] for x in _cli("cost", EX / "reference.json")["lines"]}
    assert lines["support"] == (
        "10 % of the hardware and network price per year (hciplan default assumption, no published source; replace "
        "with your vendors' quotes)"
    )
    assert "PUE 1.5 (hciplan default;" in lines["power"] and "$0.12 per kWh (hciplan default," in lines["power"]
    assert lines["rack"].endswith("(hciplan default assumption, no published source; replace with your price)")
    costs = tmp_path / "costs.json"
    costs.write_text(json.dumps({"support_share_per_year": 0.12, "pue": 1.3}))
    given = {x["key"]: x["basis"] for x in _cli("cost", EX / "reference.json", "--costs", costs)["lines"]}
    assert given["support"] == "12 % of the hardware and network price per year"
    assert "PUE 1.3 x" in given["power"] and "$0.12 per kWh (hciplan default," in given["power"]


def test_cpu_bound_is_named_an_assumption_where_it_is_printed():
    from planner.models.database import CPU_BOUND_WORDS
    from planner.sizing.checks import database_cpu_reason

    said = database_cpu_reason(
        {"database_cores_per_node_needed": 3.0, "hosts": 4, "database_cores_per_node_available": 30.4}, 32
    )
    assert f"32 cores x 95 % ({CPU_BOUND_WORDS}) give 30.4" in said
    assert CPU_BOUND_WORDS.startswith("an hciplan assumption")


def test_the_tier_probes_ios_in_flight_are_named_and_set_no_figure(monkeypatch):
    import planner.commercial.tiers as T
    from planner.models.design import load_design, resolve
    from planner.models.tiers import default_tiers

    rd = resolve(load_design(EX / "reference.json"))
    tier = default_tiers().tiers[0]
    at_32 = T._iops_at_latency(rd, tier, False)
    monkeypatch.setattr(T, "TIER_PROBE_OUTSTANDING_PER_VM", 4.0)
    assert T._iops_at_latency(rd, tier, False) == pytest.approx(at_32)


@pytest.mark.parametrize(
    ("design", "said"),
    [
        ("nvme-pmem-12node", "an hciplan assumption: Storage Spaces Direct publishes no share"),
        ("ceph-6node-reef", "Ceph's default mClock profile's recovery reservation"),
    ],
)
def test_evaluate_says_where_its_repair_share_comes_from(design, said):
    rep = _cli("evaluate", EX / f"{design}.json", "--workload", "oltp-8k")
    d = rep["degraded"]
    assert d["repair_share"] > 0 and d["repair_share_note"].startswith(said), d["repair_share_note"]
