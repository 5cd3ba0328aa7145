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
    # the whole dollars the sentence says (a metric of the unrounded difference read $1 apart from it)
    assert metrics["This mix brings in, USD/month"].value == f"${rev['revenue_said_usd_per_month']:,}"
    over = metrics["Over the whole cost, USD/month"]
    assert over.value == f"${rev['over_said_usd_per_month']:,}"
    assert rev["over_said_usd_per_month"] == rev["revenue_said_usd_per_month"] - rev["whole_said_usd_per_month"]
    assert over.delta == (
        f"{100 * rev['over_said_usd_per_month'] / rev['revenue_said_usd_per_month']:.0f} % of what it brings in"
    )
    said = [c.value.replace("\\", "") for c in at.caption]
    assert any(c.startswith("At this mix's counts (6 Standard, 2 Premium) the tier prices bring in") for c in said)
    assert any(c.endswith("The proposal (Size and Performance pages) says this mix.") for c in said)  # no demand
    # a mix that cannot pay for the cluster says it is short
    at.number_input(key="mix_Premium").set_value(0).run()
    at.number_input(key="mix_Standard").set_value(1).run()
    short = {m.label: m for m in at.metric}["Over the whole cost, USD/month"]
    assert short.value.startswith("-$") and short.delta == "short of the whole cost"
    # a mix the design cannot hold: no share of a profit under "Does not fit" (pricing-call walk, stop 63)
    at.number_input(key="mix_Standard").set_value(40).run()
    at.number_input(key="mix_Ultra").set_value(10).run()
    assert any(e.value.startswith("Does not fit") for e in at.error)
    over = {m.label: m for m in at.metric}["Over the whole cost, USD/month"]
    assert over.delta == "not on this design: it does not fit", over.delta


# ---------------------------------------------------------------- the mix in the document a customer keeps (stop 63)
HAMMERDB = EX / "demand-hammerdb.json"  # a demand of databases, not in tiers


@pytest.fixture(scope="module")
def proposed():
    """The HammerDB demand's proposal on the reference design, with and without the mix asked about."""
    from planner.engine.loads import demand_as_workload
    from planner.models.demand import Demand
    from planner.sizing.proposal import build

    demand = Demand.model_validate_json(HAMMERDB.read_text())
    d = load_design(EX / "reference.json")
    w = demand_as_workload(demand, d.node_count)
    return d, demand, build(d, w, demand=demand, mix=COUNTS), build(d, w, demand=demand)


def test_the_proposal_says_the_mix_asked_about_by_the_sla_pages_rules(proposed):
    """The SLA page's tier mix (whether it fits, what it brings in against the whole cost) was left out of the
    document a sales call sends (stop 62's note): the proposal carries it, by the page's rules, on the cluster by
    itself as the page counts it, at the proposal's prices and whole cost."""
    from planner.commercial.tiers import mix_words
    from planner.sizing.document import tier_notes

    d, demand, p, plain = proposed
    rd = resolve(d, load_catalog())
    fit = fit_mix(rd, default_tiers(), COUNTS, demand.n_plus_one)["mix"]
    assert p["tier_mix"] == {"counts": COUNTS, **fit}
    want = tier_revenue(p["tier_prices"], COUNTS, p["cost"], max(fit["utilization"].values()), "this tier mix")
    assert p["tier_revenue"] == want
    assert want["text"].startswith("At this tier mix's counts (6 Standard, 2 Premium) the tier prices bring in $")
    notes = tier_notes(p)
    said = (
        "A tier mix of 6 Standard, 2 Premium was asked about, on this cluster by itself (not beside the demand sized)"
        f"{', with a server down' if demand.n_plus_one else ''}. {mix_words(fit)}."
    )
    assert said in notes and want["text"] in notes
    # without one, nothing of it; every other figure the same
    assert (
        "tier_mix" not in plain and "tier_revenue" not in plain and not any("tier mix" in n for n in tier_notes(plain))
    )
    assert plain["tier_prices"] == p["tier_prices"] and plain["cost"] == p["cost"]
    assert p["inputs"]["mix"] == COUNTS and plain["inputs"]["mix"] is None


def test_the_sla_page_and_the_document_say_a_mix_in_the_same_words(priced):
    """One rule for the verdict of a mix (planner.commercial.tiers.mix_words): the SLA page's box says what the
    document says."""
    from planner.commercial.tiers import mix_words

    rd, _, _ = priced
    at = _app().switch_page("hciplan_ui/sla_page.py").run()
    at.number_input(key="mix_Standard").set_value(6).run()
    at.number_input(key="mix_Premium").set_value(2).run()
    n1 = at.toggle(key="sla_n1").value
    fit = fit_mix(rd, default_tiers(), COUNTS, n1)["mix"]
    shown = [s.value.replace("\\", "") for s in (*at.success, *at.error)]
    assert mix_words(fit) in shown, shown
    assert mix_words(fit).startswith("Fits: storage capacity ") == fit["fits"]


def test_a_demand_in_tiers_is_its_own_mix(proposed, tmp_path, capsys):
    from planner.engine.loads import demand_as_workload
    from planner.models.demand import Demand
    from planner.sizing.proposal import build

    demand = Demand.model_validate_json((EX / "demand-200dbs.json").read_text())
    d = load_design(EX / "reference.json")
    with pytest.raises(ValueError, match="a demand in tiers prices its own counts"):
        build(d, demand_as_workload(demand, d.node_count), demand=demand, mix=COUNTS)
    out = str(tmp_path / "p.html")
    args = ["proposal", str(EX / "demand-200dbs.json"), "--mix", "Standard=6", "--format", "html", "--out", out]
    assert main(args) == 2
    got, err = capsys.readouterr()
    assert (
        got == ""
        and err == "error: mix: this demand is in tiers: its own counts are the mix (put others in the demand)\n"
    )


@pytest.mark.parametrize("mix", ["Gold=2", "Standard=-1", "Standard=999999"])
def test_a_proposal_mix_the_tiers_do_not_read_is_one_line(mix, tmp_path, capsys):
    out = str(tmp_path / "p.html")
    assert (
        main(
            [
                "proposal",
                str(HAMMERDB),
                "--design",
                str(EX / "reference.json"),
                "--mix",
                mix,
                "--format",
                "html",
                "--out",
                out,
            ]
        )
        == 2
    )
    got, err = capsys.readouterr()
    assert got == "" and err.count("\n") == 1 and err.startswith("error: mix: "), err
    assert not Path(out).exists()


def test_proposal_mix_is_in_every_format_and_its_command_makes_the_document_again(tmp_path, capsys):
    """``hciplan proposal --mix``: the sentence in the HTML, Word and Excel documents, and the Inputs appendix's
    command carries the option (quoted for a shell), so the customer's copy can be made again."""
    from test_proposal_document import docx_text, html_text, xlsx_cells

    base = ["proposal", str(HAMMERDB), "--design", str(EX / "reference.json"), "--date", "2026-12-03"]
    files = {}
    for fmt in ("html", "docx", "xlsx"):
        out = tmp_path / f"p.{fmt}"
        assert main([*base, "--mix", "Standard=6,Premium=2", "--format", fmt, "--out", str(out)]) == 0
        files[fmt] = out.read_bytes()
    capsys.readouterr()
    texts = {
        "html": html_text(files["html"]),
        "docx": docx_text(files["docx"]),
        "xlsx": " ".join(str(c) for c in xlsx_cells(files["xlsx"])),
    }
    for fmt, t in texts.items():
        assert "A tier mix of 6 Standard, 2 Premium was asked about" in t, fmt
        assert "At this tier mix's counts (6 Standard, 2 Premium) the tier prices bring in $" in t, fmt
    assert "--design design.json --mix Standard=6,Premium=2 --format pdf" in texts["html"]
    # the command the appendix gives, run: the same document
    again = tmp_path / "again.html"
    assert main([*base, "--mix", "Standard=6,Premium=2", "--format", "html", "--out", str(again)]) == 0
    capsys.readouterr()
    assert html_text(again.read_bytes()) == texts["html"]


def test_the_rerun_command_quotes_a_tier_name_and_says_when_the_option_cannot_hold_it():
    from planner.models.tiers import parse_mix
    from planner.sizing.document import rerun_words
    from planner.sizing.proposal import proposal_inputs

    d = load_design(EX / "reference.json")
    from planner.models.demand import Demand

    demand = Demand.model_validate_json(HAMMERDB.read_text())
    spaced = proposal_inputs(d, demand, None, mix={"Gold plus": 3})
    said = rerun_words(spaced, "below")
    assert "--mix 'Gold plus=3' --format pdf" in said
    assert parse_mix("Gold plus=3", ["Gold plus"]) == {"Gold plus": 3}  # what the quoted option gives back
    comma = proposal_inputs(d, demand, None, mix={"Gold, plus": 3})
    assert "cannot make this document again from them: a tier of its mix is named with ',' or '='" in rerun_words(
        comma, "below"
    )


def test_a_saved_scenarios_mix_goes_into_its_proposal(tmp_path, capsys):
    """``proposal --scenario``: the mix the app's SLA page kept in the session (``tier_counts``) is the
    document's, as the app's own document has it; a count of a tier the scenario does not price is one line."""
    from test_proposal_document import html_text

    from planner.store.scenarios import ScenarioStore

    db = str(tmp_path / "s.db")
    session = {
        "demand": json.loads(HAMMERDB.read_text()),
        "design": json.loads((EX / "reference.json").read_text()),
        "tier_counts": {"Standard": 6, "Premium": 2, "Business": 0},
    }
    ScenarioStore(db).save("mix", session)
    out = tmp_path / "s.html"
    assert main(["proposal", "--scenario", "mix", "--db", db, "--format", "html", "--out", str(out)]) == 0
    capsys.readouterr()
    assert "A tier mix of 6 Standard, 2 Premium was asked about" in html_text(out.read_bytes())
    ScenarioStore(db).save("bad", {**session, "tier_counts": {"Gold": 2}})
    assert main(["proposal", "--scenario", "bad", "--db", db, "--format", "html", "--out", str(out)]) == 2
    got, err = capsys.readouterr()
    assert got == "" and err.startswith("error: scenario: its tier mix: ") and err.count("\n") == 1, err


def test_the_apps_document_carries_the_sla_pages_mix():
    """The Performance page's document, after a mix typed on the SLA page: the proposal's arguments carry it and
    the proposal says it."""
    from hciplan_ui import export

    at = _app().switch_page("hciplan_ui/sla_page.py").run()
    at.number_input(key="mix_Standard").set_value(6).run()
    at.number_input(key="mix_Premium").set_value(2).run()
    at.switch_page("hciplan_ui/performance_page.py").run()
    at.session_state["p_exports"] = True
    at.run()
    at.radio(key="report_format").set_value("html").run()
    at.button(key="p_prepare").click().run(timeout=240)
    assert not at.exception
    args = json.loads(at.session_state["p_proposal"][0][0])
    assert json.loads(args["mix_json"]) == COUNTS
    data = export.proposal_data(**args)
    assert data["tier_mix"]["counts"] == COUNTS
    from planner.sizing.document import tier_notes

    # no demand in this session: the mix is not said to be apart from one (browser walk, stop 63)
    said = [n for n in tier_notes(data) if n.startswith("A tier mix of")]
    assert said and said[0].startswith(
        "A tier mix of 6 Standard, 2 Premium was asked about, on this cluster by itself. "
    )


def test_a_renamed_tier_keeps_its_counts():
    """Pricing-call walk (stop 63): renaming Standard in the tier editor emptied its box in the SLA page's mix, and
    the mix's verdict turned from a profit to a loss. A tier renamed in place keeps its counts (the mix's and the
    Size page's form's); rows added or removed rename nothing."""
    from streamlit.testing.v1 import AppTest

    from hciplan_ui.state import renamed_tiers

    assert renamed_tiers(("A", "B", "C"), ("A", "Bee", "C")) == {"B": "Bee"}
    assert renamed_tiers(("A", "B", "C"), ("A", "C")) == {}  # a row removed
    assert renamed_tiers(("A", "B"), ("B", "A")) == {}  # two tiers swapped: each keeps its own
    assert renamed_tiers(("A", "B"), ("A", "B", "D")) == {}

    def script():
        import json

        import streamlit as st

        from hciplan_ui import state
        from planner.models.tiers import default_tiers

        if "done" not in st.session_state:
            st.session_state["done"] = True
            st.session_state["mix_Standard"] = 6
            st.session_state["size_Standard"] = 9
            st.session_state["mix_Premium"] = 2
            tiers = default_tiers().model_dump(mode="json")
            tiers["tiers"][0]["name"] = "Basic"
            state.set_tiers(json.dumps(tiers))

    at = AppTest.from_function(script).run()
    assert not at.exception
    kept = {k: at.session_state[k] for k in ("mix_Basic", "size_Basic", "mix_Premium")}
    assert kept == {"mix_Basic": 6, "size_Basic": 9, "mix_Premium": 2}
    assert "mix_Standard" not in at.session_state


def test_scenario_save_keeps_a_mix_its_proposal_says(tmp_path, capsys):
    """``hciplan scenario save --mix``: a scenario made on the command line keeps the mix as the app keeps the SLA
    page's, and ``proposal --scenario`` says it; beside a demand in tiers, one line."""
    from test_proposal_document import html_text

    db = str(tmp_path / "s.db")
    save = ["scenario", "save", "m", "--demand", str(HAMMERDB), "--design", str(EX / "reference.json"), "--db", db]
    assert main([*save, "--mix", "Standard=6,Premium=2"]) == 0
    capsys.readouterr()
    out = tmp_path / "m.html"
    assert main(["proposal", "--scenario", "m", "--db", db, "--format", "html", "--out", str(out)]) == 0
    capsys.readouterr()
    assert "A tier mix of 6 Standard, 2 Premium was asked about" in html_text(out.read_bytes())
    tiered = ["scenario", "save", "t", "--demand", str(EX / "demand-200dbs.json"), "--db", db, "--mix", "Standard=1"]
    assert main(tiered) == 2
    got, err = capsys.readouterr()
    assert got == "" and err.startswith("error: mix: this demand is in tiers") and err.count("\n") == 1, err
