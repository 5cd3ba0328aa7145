import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.cli import main
from planner.commercial.pricing import CostAssumptions, capex_usd, licence_cores, monthly_cost, tier_prices
from planner.commercial.tiers import fit_mix
from planner.core.errors import PlannerError
from planner.models.design import load_design, resolve
from planner.models.tiers import TierSet, default_tiers

EX = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture(scope="module")
def rd():
    return resolve(load_design(EX / "reference.json"))


def test_capex_and_monthly(rd):
    c = capex_usd(rd)
    m = monthly_cost(rd)
    assert c > 0 and m["capex_usd"] == pytest.approx(c)
    assert m["per_cluster"]["total_usd_per_month"] == pytest.approx(3 * m["per_node"]["total_usd_per_month"])
    assert "16-core pack" in m["licence_source"] and "2025" in m["licence_source"]


def test_licence_minimum_16_cores():
    assert licence_cores(4, 1) == 16 and licence_cores(12, 2) == 24 and licence_cores(6, 2) == 16


def test_missing_price_names_part(rd):
    node = rd.node.model_copy(update={"nic": rd.node.nic.model_copy(update={"list_price_usd": None})})
    bad = rd.model_copy(update={"node": node})
    with pytest.raises(PlannerError) as e:
        capex_usd(bad)
    assert rd.node.nic.id in str(e.value)


@settings(max_examples=10, deadline=None)
@given(m1=st.floats(0, 0.9), m2=st.floats(0, 0.9), f=st.floats(0.05, 1.0))
def test_prices_rise_with_margin_fall_with_fill(rd, m1, m2, f):
    lo, hi = sorted((m1, m2))
    t = default_tiers()
    p_lo = tier_prices(rd, t, CostAssumptions(target_margin=lo, target_fill=f))["tiers"]["Standard"][
        "price_usd_per_month"
    ]
    p_hi = tier_prices(rd, t, CostAssumptions(target_margin=hi, target_fill=f))["tiers"]["Standard"][
        "price_usd_per_month"
    ]
    assert p_hi >= p_lo
    p_full = tier_prices(rd, t, CostAssumptions(target_margin=lo, target_fill=1.0))["tiers"]["Standard"][
        "price_usd_per_month"
    ]
    assert p_full <= p_lo + 1e-9


def test_tierset_rules():
    with pytest.raises(Exception) as e:
        TierSet.model_validate({"tiers": [default_tiers().tiers[0].model_dump()] * 2})
    assert "unique" in str(e.value)
    with pytest.raises(Exception) as e:
        TierSet.model_validate({"tiers": [{**default_tiers().tiers[0].model_dump(), "burst_iops": 1}]})
    assert "burst_iops" in str(e.value)


def test_fit_mix(rd):
    out = fit_mix(rd, default_tiers(), {"Standard": 2})
    assert out["mix"]["fits"] and out["mix"]["first_to_run_out"] in ("capacity", "reserved_iops", "cpu", "ram")
    n1 = fit_mix(rd, default_tiers(), None, n_plus_one=True)
    for k, v in n1["alone"].items():
        assert v["max_dbs"] <= out["alone"][k]["max_dbs"]
    with pytest.raises(PlannerError):
        fit_mix(rd, default_tiers(), {"Nope": 1})


def test_cli_price(capsys, tmp_path):
    assert main(["price", str(EX / "reference.json")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["tiers"]) == {"Standard", "Business", "Premium", "Ultra"}
    bad = tmp_path / "c.json"
    bad.write_text(json.dumps({"target_margin": 0.99}))
    assert main(["price", str(EX / "reference.json"), "--costs", str(bad)]) == 2
    assert "target_margin" in capsys.readouterr().err


def test_tier_ram_is_a_resource(rd):
    from planner.models.tiers import TierSet

    t = default_tiers().model_dump()
    t["tiers"][0]["ram_gb_per_db"] = 4000.0  # more than a node holds
    out = fit_mix(rd, TierSet.model_validate(t), {"Standard": 1})
    assert out["alone"]["Standard"]["limited_by"] == "ram" and out["alone"]["Standard"]["max_dbs"] == 0
    assert out["mix"]["first_to_run_out"] == "ram" and not out["mix"]["fits"]


def test_a_tier_one_vm_cannot_issue_is_not_offered():
    """Pricing review 2026-11-30: a tier guaranteeing 100,000 IOPS to a VM of 2 vCPUs was priced ($1,409.53, 5
    databases) where `sla` guarantees that VM 11,066 (its vCPU share) and `size` refuses the demand. The bound is
    the SLA's own (one rule: :func:`planner.commercial.database.vcpu_share_iops`)."""
    from planner.commercial.sla import guarantee
    from planner.models.database import Database
    from planner.models.design import with_overrides

    rd = resolve(with_overrides(load_design(EX / "reference.json"), vcpu_oversubscription=4.0))
    raw = default_tiers().model_dump(mode="json")
    raw["tiers"].append(
        {"name": "Huge", "guaranteed_iops": 100_000, "burst_iops": 100_000, "latency_target_ms": 1.0}
        | {"capacity_tb_per_db": 1.0, "vcpus_per_db": 2, "ram_gb_per_db": 16}
    )
    tiers = TierSet.model_validate(raw)
    fit = fit_mix(rd, tiers, {"Standard": 1, "Huge": 1})
    huge = fit["alone"]["Huge"]
    assert huge["max_dbs"] == 0 and huge["limited_by"] == "vm_io"
    db = Database(name="huge", size_tb=1.0, vcpus=2, threads=8, outstanding_per_thread=32, latency_target_ms=5.0)
    g = guarantee(rd, db)
    assert g.binding_constraint == "vm_vcpu_share"
    assert huge["vm_iops_max"] == pytest.approx(g.bounds_iops["vm_vcpu_share"], rel=1e-9)
    assert f"issues at most {huge['vm_iops_max']:,.0f} IOPS" in huge["limited_by_note"]
    assert not fit["mix"]["fits"] and fit["mix"]["first_to_run_out"] == "vm_io"
    assert "Huge database VM of 2 vCPUs" in fit["mix"]["first_to_run_out_note"]
    # the shipped tiers are all within their VMs' reach, and the price says why there is none
    assert all(v["limited_by"] != "vm_io" for k, v in fit["alone"].items() if k != "Huge")
    p = tier_prices(rd, tiers)["tiers"]["Huge"]
    assert p["price_usd_per_month"] is None and p["price_note"].startswith("one Huge database VM of 2 vCPUs")
    # with one node down the VM's reach is the same: no "(n+1)" mark on it
    assert fit_mix(rd, tiers, None, n_plus_one=True)["alone"]["Huge"]["limited_by"] == "vm_io"


def test_an_edited_licence_price_is_said_as_this_quotes():
    """Pricing review 2026-11-30: with Windows Datacenter set to $500 a core, the cost line read "256 Datacenter core
    licences x $500.00" and the appendix still "Licence prices: estimated list price, 2026-11-22, Microsoft's
    Windows Server pricing page"; `price` kept "USD 6,771 list price" as the source."""
    from planner.commercial.licensing import licence_seen
    from planner.commercial.tco import whole_cost

    d = load_design(EX / "reference.json")
    listed, quoted = CostAssumptions(), CostAssumptions(windows_datacenter_usd_per_core=500.0)
    assert "set for this quote" not in licence_seen("windows-server-datacenter", listed)
    assert (
        licence_seen("windows-server-datacenter", quoted)
        == "Windows Server Datacenter $500.00 a core, set for this quote"
    )
    m = monthly_cost(resolve(d), quoted)
    assert m["licence_seen"].startswith("Windows Server Datacenter $500.00 a core, set for this quote")
    assert m["licence_source"].startswith("Windows Server Datacenter $500.00 a core, set for this quote; the list")
    assert whole_cost(d, None, quoted)["licence_seen"] == m["licence_seen"]
    # on Azure Local only the edited part is said so; the host fee keeps its list source
    both = licence_seen("azure-local-datacenter", quoted)
    assert both.startswith(licence_seen("azure-local")) and both.endswith("$500.00 a core, set for this quote")
    # SQL Server's price too, and it is no longer marked an estimate
    from planner.commercial.licensing import sql_server_licences

    sql = sql_server_licences(
        [(10, 4)], [16, 16], CostAssumptions(sql_edition="standard", sql_standard_usd_per_core_month=50.0)
    )
    assert sql["seen"] == "SQL Server Standard $50.00 a core a month, set for this quote" and not sql["estimated"]
