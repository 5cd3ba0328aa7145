"""What a tier mix brings in (stop 62): the SLA page's "A tier mix on this design" and `price --mix` say, beside
whether the mix fits, what it brings in a month at the tier prices against the whole cost, by the proposal's rule
and in its words (:func:`planner.commercial.tco.tier_revenue`, one rule for the three)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from apptest import app as _app

from planner.cli import main
from planner.commercial.pricing import CostAssumptions, tier_prices
from planner.commercial.tco import tier_revenue, whole_cost
from planner.commercial.tiers import fit_mix
from planner.models.catalog import load_catalog
from planner.models.design import load_design, resolve
from planner.models.tiers import default_tiers

EX = Path(__file__).resolve().parent.parent / "examples"
COUNTS = {"Standard": 6, "Premium": 2}


@pytest.fixture(scope="module")
def priced():
    d = load_design(EX / "reference.json")
    rd = resolve(d, load_catalog())
    return rd, tier_prices(rd, default_tiers()), whole_cost(d, None, CostAssumptions())


def test_a_mix_brings_in_each_count_at_its_tiers_price_against_the_whole_cost(priced):
    _, tp, whole = priced
    rev = tier_revenue(tp, COUNTS, whole, 0.5, "this mix")
    want = sum(c * tp["tiers"][n]["price_usd_per_month"] for n, c in COUNTS.items())
    assert rev["revenue_usd_per_month"] == pytest.approx(want, rel=1e-12)
    assert rev["over_usd_per_month"] == pytest.approx(want - whole["monthly"]["total_usd_per_month"], rel=1e-12)
    assert rev["text"].startswith("At this mix's counts (6 Standard, 2 Premium) the tier prices bring in ")
    assert "this mix would fill 50 % of the design" in rev["text"] and rev["unpriced"] == []


def test_a_tier_without_a_price_brings_in_nothing_and_is_said(priced):
    """A tier no database of which fits has a null price: a count of it typed on the SLA page brought the page
    down in a sum of None (the proposal's demand never had one: a sized demand fits)."""
    _, tp, whole = priced
    tp = json.loads(json.dumps(tp))
    tp["tiers"]["Ultra"]["price_usd_per_month"] = None
    rev = tier_revenue(tp, {"Standard": 1, "Ultra": 2}, whole, 0.5, "this mix")
    assert rev["revenue_usd_per_month"] == pytest.approx(tp["tiers"]["Standard"]["price_usd_per_month"])
    assert rev["unpriced"] == ["Ultra"] and "Ultra: no price on this design" in rev["text"]


def test_price_mix_prints_the_proposals_rule(priced, capsys):
    rd, tp, whole = priced
    assert main(["price", str(EX / "reference.json"), "--mix", "Standard=6,Premium=2"]) == 0
    out = json.loads(capsys.readouterr().out)["mix"]
    fit = fit_mix(rd, default_tiers(), COUNTS)["mix"]
    assert out["counts"] == COUNTS and out["fits"] is fit["fits"] and out["first_to_run_out"] == fit["first_to_run_out"]
    want = tier_revenue(tp, COUNTS, whole, max(fit["utilization"].values()), "this mix")
    assert out["text"] == want["text"]
    assert out["revenue_usd_per_month"] == pytest.approx(want["revenue_usd_per_month"], rel=1e-12)


@pytest.mark.parametrize("mix", ["Gold=2", "Standard=-1", "Standard", "Standard=2.5", "Standard=999999"])
def test_a_mix_the_tiers_do_not_read_is_one_line_naming_the_flag(mix, capsys):
    assert main(["price", str(EX / "reference.json"), "--mix", mix]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("error: mix: "), err


def test_the_sla_pages_mix_says_what_it_brings_in_against_the_whole_cost(priced):
    _, tp, whole = priced
    at = _app().switch_page("hciplan_ui/sla_page.py").run()
    at.number_input(key="mix_Standard").set_value(6).run()
    at.number_input(key="mix_Premium").set_value(2).run()
    assert not at.exception
    rev = tier_revenue(tp, COUNTS, whole, 0.778009828247798, "this mix")
    metrics = {m.label: m for m in at.metric}
    assert metrics["This mix brings in, USD/month"].value == f"${rev['revenue_usd_per_month']:,.0f}"
    over = metrics["Over the whole cost, USD/month"]
    assert over.value == f"${rev['over_usd_per_month']:,.0f}"
    assert over.delta == f"{100 * rev['over_usd_per_month'] / rev['revenue_usd_per_month']:.0f} % of what it brings in"
    said = [c.value.replace("\\", "") for c in at.caption]
    assert any(c.startswith("At this mix's counts (6 Standard, 2 Premium) the tier prices bring in") for c in said)
    # a mix that cannot pay for the cluster says it is short
    at.number_input(key="mix_Premium").set_value(0).run()
    at.number_input(key="mix_Standard").set_value(1).run()
    short = {m.label: m for m in at.metric}["Over the whole cost, USD/month"]
    assert short.value.startswith("-$") and short.delta == "short of the whole cost"
