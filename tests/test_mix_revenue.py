"""What a tier mix earns (stop 62): the SLA page's "A tier mix on this design" and `price --mix` say, beside whether
the mix fits, what it earns a month at the tier prices and the margin over the cost those prices share out; one
rule (:func:`planner.commercial.pricing.mix_revenue`) for both."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from apptest import app as _app

from planner.cli import main
from planner.commercial.pricing import mix_revenue, tier_prices
from planner.commercial.tiers import fit_mix
from planner.models.catalog import load_catalog
from planner.models.design import load_design, resolve
from planner.models.tiers import default_tiers

EX = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture(scope="module")
def priced():
    rd = resolve(load_design(EX / "reference.json"), load_catalog())
    return rd, tier_prices(rd, default_tiers())


def test_the_mix_earns_each_count_at_its_tiers_price_less_the_cluster_cost(priced):
    _, tp = priced
    counts = {"Standard": 6, "Premium": 2}
    rev = mix_revenue(tp, counts)
    want = sum(c * tp["tiers"][n]["price_usd_per_month"] for n, c in counts.items())
    cluster = tp["monthly_cost"]["per_cluster"]["total_usd_per_month"]
    assert rev["revenue_usd_per_month"] == pytest.approx(want, rel=1e-12)
    assert rev["cluster_usd_per_month"] == cluster
    assert rev["margin_usd_per_month"] == pytest.approx(want - cluster, rel=1e-12)
    assert rev["margin_share"] == pytest.approx((want - cluster) / want, rel=1e-12)
    assert rev["unpriced"] == []


def test_a_mix_at_the_target_fill_earns_the_target_margin(priced):
    """The prices are set so that a tier filled to the target fill covers the cost at the target margin: a mix of one
    tier's databases at that fill earns exactly that margin (the invariant the prices are built on)."""
    _, tp = priced
    from planner.commercial.pricing import CostAssumptions

    a = CostAssumptions()
    k = tp["tiers"]["Standard"]["max_dbs"]
    n = k * a.target_fill  # a fractional count: the invariant, not a mix anyone sells
    rev = mix_revenue(tp, {"Standard": n})
    assert rev["margin_share"] == pytest.approx(a.target_margin, rel=1e-9)


def test_an_empty_mix_earns_nothing_and_says_why_it_has_no_margin_share(priced):
    _, tp = priced
    rev = mix_revenue(tp, {"Standard": 0})
    assert rev["revenue_usd_per_month"] == 0 and rev["margin_share"] is None and rev["margin_share_note"]
    assert rev["margin_usd_per_month"] == -rev["cluster_usd_per_month"]


def test_a_mix_the_design_does_not_hold_earns_no_revenue(priced):
    rd, tp = priced
    counts = {"Ultra": 3}
    fit = fit_mix(rd, default_tiers(), counts)["mix"]
    assert not fit["fits"]
    rev = mix_revenue(tp, counts, fit["fits"])
    assert rev["revenue_usd_per_month"] is None and rev["margin_usd_per_month"] is None
    assert rev["revenue_note"] and rev["margin_note"] and rev["margin_share_note"]


def test_price_mix_prints_the_librarys_figures(priced, capsys):
    rd, tp = priced
    assert main(["price", str(EX / "reference.json"), "--mix", "Standard=6,Premium=2"]) == 0
    out = json.loads(capsys.readouterr().out)["mix"]
    counts = {"Standard": 6, "Premium": 2}
    assert out["counts"] == counts
    fit = fit_mix(rd, default_tiers(), counts)["mix"]
    assert out["fits"] is fit["fits"] and out["first_to_run_out"] == fit["first_to_run_out"]
    assert out["revenue_usd_per_month"] == pytest.approx(mix_revenue(tp, counts)["revenue_usd_per_month"], rel=1e-12)


@pytest.mark.parametrize("mix", ["Gold=2", "Standard=-1", "Standard", "Standard=2.5", "Standard=999999"])
def test_a_mix_the_tiers_do_not_read_is_one_line_naming_the_flag(mix, capsys):
    assert main(["price", str(EX / "reference.json"), "--mix", mix]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("error: mix: "), err


def test_the_sla_pages_mix_says_what_it_earns_and_its_margin(priced):
    _, tp = priced
    at = _app().switch_page("hciplan_ui/sla_page.py").run()
    at.number_input(key="mix_Standard").set_value(6).run()
    at.number_input(key="mix_Premium").set_value(2).run()
    assert not at.exception
    rev = mix_revenue(tp, {"Standard": 6, "Premium": 2})
    metrics = {m.label: m for m in at.metric}
    earns = metrics["This mix earns, USD/month"]
    margin = metrics["Margin over the tiers' base, USD/month"]
    assert earns.value == f"${rev['revenue_usd_per_month']:,.0f}"
    assert margin.value == f"${rev['margin_usd_per_month']:,.0f}"
    assert margin.delta == f"{100 * rev['margin_share']:.0f} % margin"
    # a mix that cannot pay for the cluster says a loss, as a share of the cost it covers
    at.number_input(key="mix_Premium").set_value(0).run()
    at.number_input(key="mix_Standard").set_value(1).run()
    loss = {m.label: m for m in at.metric}["Margin over the tiers' base, USD/month"]
    assert loss.value.startswith("-$") and loss.delta.startswith("a loss: it covers ")
