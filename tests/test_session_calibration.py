"""A customer refit (``import --calibrate`` or the Calibration page) reaches
every figure: the SLA guarantee and its band, tier capacity and prices, the
tornado, the CLI's ``sla`` and ``price``, and every page of the app."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from planner.calibration import refit
from planner.cli import main
from planner.commercial.pricing import tier_prices
from planner.commercial.sla import guarantee
from planner.commercial.tiers import fit_mix
from planner.models.catalog import load_catalog
from planner.models.database import Database
from planner.models.design import load_design, resolve
from planner.models.params import ModelParams, load_calibration
from planner.models.tiers import default_tiers
from planner.models.workload import profiles
from planner.sizing.scenarios import sensitivity

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "examples" / "reference.json"
DB = Database(
    name="db",
    size_tb=1.0,
    vcpus=8,
    threads=8,
    outstanding_per_thread=16,
    block_size_kib=8,
    read_fraction=0.7,
    latency_target_ms=1.0,
    latency_statistic="mean",
)


def _slower(p: ModelParams, k: float) -> ModelParams:
    """A cluster whose software path is k times slower than the shipped fit's:
    what a customer refit on a slower cluster would find."""
    d = p.model_dump()
    for name in (
        "stack_read_latency_us",
        "stack_write_latency_us",
        "guest_latency_us",
        "host_cpu_read_us",
        "host_cpu_write_us",
        "guest_cpu_us",
    ):
        d[name] *= k
    return ModelParams(**d)


@pytest.fixture(scope="module")
def slow_calibration() -> str:
    shipped = load_calibration()
    doc = {
        "version": shipped.version + "+refit",
        "params": _slower(shipped.params, 2.0).model_dump(),
        "bootstrap": [_slower(shipped.params, k).vector().tolist() for k in (1.8, 1.9, 2.0, 2.1, 2.2)],
    }
    return refit.dumps(doc)


@pytest.fixture(scope="module")
def rd():
    return resolve(load_design(REFERENCE), load_catalog())


def test_guarantee_uses_the_refit_and_its_own_bootstrap_band(rd, slow_calibration):
    cal = refit.read_calibration(slow_calibration.encode())
    shipped = guarantee(rd, DB)
    slow = guarantee(rd, DB, params=cal.params, bootstrap=cal.bootstrap_params())
    assert slow.guaranteed_iops < shipped.guaranteed_iops
    # the band spans the file's own sets (1.8x..2.2x slower), not the shipped ones
    assert slow.guaranteed_iops_low < slow.guaranteed_iops < slow.guaranteed_iops_high
    assert slow.guaranteed_iops_high < shipped.guaranteed_iops_low
    # explicit parameters without sets: no band (null ends, band_note says why)
    point = guarantee(rd, DB, params=cal.params)
    assert point.guaranteed_iops_low is None and point.guaranteed_iops_high is None and point.band_note


def test_tiers_prices_and_tornado_use_the_refit(rd, slow_calibration):
    p = refit.read_calibration(slow_calibration.encode()).params
    tiers = default_tiers()
    base, slow = fit_mix(rd, tiers), fit_mix(rd, tiers, params=p)
    iops = {
        n: (base["alone"][n]["iops_at_latency_target"], slow["alone"][n]["iops_at_latency_target"])
        for n in base["alone"]
    }
    assert all(s <= b for b, s in iops.values()) and any(s < b for b, s in iops.values())
    priced = tier_prices(rd, tiers, params=p)["tiers"]
    assert {n: t["max_dbs"] for n, t in priced.items()} == {n: a["max_dbs"] for n, a in slow["alone"].items()}
    w = profiles()["oltp-8k"]
    rows, rows_slow = sensitivity(rd.design, w), sensitivity(rd.design, w, params=p)
    assert rows_slow[0]["base_vm_latency_ms"] > rows[0]["base_vm_latency_ms"]


def test_cli_sla_and_price_take_a_calibration_file(tmp_path, capsys, slow_calibration):
    cal = tmp_path / "slow.json"
    cal.write_text(slow_calibration)
    db = tmp_path / "db.json"
    db.write_text(DB.model_dump_json())
    out = {}
    for label, extra in (("shipped", []), ("slow", ["--calibration", str(cal)])):
        assert main(["sla", str(REFERENCE), "--db", str(db), *extra]) == 0
        sla = json.loads(capsys.readouterr().out)
        assert main(["price", str(REFERENCE), *extra]) == 0
        out[label] = (sla, json.loads(capsys.readouterr().out))
    assert out["slow"][0]["guaranteed_iops"] < out["shipped"][0]["guaranteed_iops"]
    assert out["slow"][0]["guaranteed_iops_low"] < out["slow"][0]["guaranteed_iops_high"]
    iops = [{n: t["max_dbs"] for n, t in o[1]["tiers"].items()} for o in out.values()]
    assert all(iops[1][n] <= iops[0][n] for n in iops[0])
    assert main(["price", str(REFERENCE), "--calibration", str(tmp_path / "missing.json")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_the_sla_page_and_the_tornado_use_the_session_refit(rd, slow_calibration):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.switch_page("hciplan_ui/sla_page.py").run()
    assert not at.exception
    shipped_metric = next(m.value for m in at.metric if m.label.startswith("Guaranteed IOPS"))
    at.session_state["calibration_json"] = slow_calibration
    at.run()
    assert not at.exception
    slow_metric = next(m.value for m in at.metric if m.label.startswith("Guaranteed IOPS"))
    assert slow_metric != shipped_metric
    assert any("customer refit" in c.value for c in at.sidebar.caption)
    at.switch_page("hciplan_ui/compare_page.py").run()
    assert not at.exception


def test_sizing_and_the_proposal_use_the_refit(tmp_path, capsys):
    from planner.models.demand import Demand
    from planner.sizing.proposal import build
    from planner.sizing.search import size

    demand_file = ROOT / "examples" / "demand-200dbs.json"
    demand = Demand.model_validate_json(demand_file.read_text())
    shipped = load_calibration()
    # 2x slower meets no design's latency targets for this demand; 1.25x still sizes one
    slow_calibration = refit.dumps(
        {"version": shipped.version + "+refit", "params": _slower(shipped.params, 1.25).model_dump()}
    )
    cal = refit.read_calibration(slow_calibration.encode())
    from planner.models.design import parse_design
    from planner.sizing.checks import limits

    best = size(demand, top=1, params=cal.params).best
    rd = resolve(parse_design(json.dumps(best["design"])), load_catalog())
    # the sized design's guaranteed IOPS is the refit's figure, below the shipped fit's for that design
    slow_g = limits([rd], demand, cal.params)[0]["guaranteed_iops"]
    assert best["guaranteed_iops"] == pytest.approx(slow_g)
    assert slow_g < limits([rd], demand)[0]["guaranteed_iops"]
    f = tmp_path / "slow.json"
    f.write_text(slow_calibration)
    assert main(["size", str(demand_file), "--top", "1", "--calibration", str(f)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["best"]["guaranteed_iops"] == pytest.approx(slow_g)
    design = load_design(REFERENCE)
    w = profiles()["oltp-8k"]
    tiers_shipped = build(design, w)["tier_fit"]
    tiers_slow = build(design, w, calibration=cal)["tier_fit"]
    assert any(
        tiers_slow[n]["iops_at_latency_target"] < tiers_shipped[n]["iops_at_latency_target"] for n in tiers_shipped
    )
