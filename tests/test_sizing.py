import json

import pytest
from pydantic import ValidationError

from planner.catalog import Catalog, load_catalog
from planner.sizing import Demand, size


def small_catalog() -> Catalog:
    c = load_catalog()
    return Catalog(chassis={"dell-ax-6515": c.chassis["dell-ax-6515"]},
                   cpu={k: v for k, v in c.cpu.items() if v.socket == c.chassis["dell-ax-6515"].cpu_socket_type},
                   capacity_drive={k: c.capacity_drive[k] for k in ("micron-7450-pro-3.84tb",)},
                   nic={"mellanox-cx4-lx-2x25g": c.nic["mellanox-cx4-lx-2x25g"]})


def test_impossible_demand_explained():
    d = Demand(total_iops=1e3, capacity_tb=1e5, latency_target_ms=5.0, max_nodes=4)
    r = size(d, small_catalog())
    assert r.best is None and "capacity" in r.explanation and r.screened > 0


@pytest.mark.parametrize("bad,field", [({"tier_counts": {"Standard": -3}}, "tier_counts.Standard"),
                                       ({"total_iops": 1e5, "capacity_tb": 10, "latency_target_ms": 0.001},
                                        "latency_target_ms")])
def test_bad_demand_names_field(bad, field):
    with pytest.raises(ValidationError) as e:
        Demand(**bad)
    assert field in str(e.value).replace("\n", ".").replace(" ", "") or field.split(".")[0] in str(e.value)


def test_demand_validation_names_field():
    with pytest.raises(ValidationError) as e:
        Demand(total_iops=1e3)
    assert "capacity_tb" in str(e.value)


def _all_candidates(cat, d):
    """Brute force: every design the search space holds, fully evaluated."""
    from planner.design import MIN_FAULT_DOMAINS, resolve
    from planner.sizing import SEARCH_RESILIENCY, _candidates, _design, check

    out = []
    for row in _candidates(cat, d):
        for nodes in range(d.min_nodes, d.max_nodes + 1):
            for res in SEARCH_RESILIENCY:
                if nodes < MIN_FAULT_DOMAINS[res] + (1 if d.n_plus_one else 0):
                    continue
                out.append(check(resolve(_design(row, nodes, res), cat), d))
    return out


DEMAND = Demand(total_iops=150_000, capacity_tb=12.0, latency_target_ms=2.0, max_nodes=5, n_plus_one=True)


@pytest.fixture(scope="module")
def brute():
    return _all_candidates(small_catalog(), DEMAND)


def test_optimizer_equals_brute_force(brute):
    r = size(DEMAND, small_catalog(), top=3)
    feasible = sorted((c for c in brute if c["feasible"]), key=lambda c: c["cost_usd_per_month"])
    assert feasible, "the test demand must be feasible on the small catalog"
    assert r.best is not None
    assert r.best["cost_usd_per_month"] == pytest.approx(feasible[0]["cost_usd_per_month"], rel=1e-9)
    assert r.screened >= len(brute) and r.evaluated <= r.screened


def test_every_cheaper_design_really_fails_a_constraint(brute):
    r = size(DEMAND, small_catalog(), top=1)
    cheaper = [c for c in brute if c["cost_usd_per_month"] < r.best["cost_usd_per_month"] - 1e-9]
    assert cheaper, "the search space should hold cheaper, rejected designs"
    for c in cheaper:
        assert not c["feasible"] and c["fails"], c["design"]["name"]


def test_pareto_front_is_non_dominated():
    r = size(DEMAND, small_catalog(), top=5)
    costs = [p["cost_usd_per_month"] for p in r.pareto]
    heads = [p["headroom"] for p in r.pareto]
    assert costs == sorted(costs) and heads == sorted(heads)


def test_size_cli(tmp_path, capsys):
    import json

    from planner.cli import main

    f = tmp_path / "demand.json"
    f.write_text(json.dumps({"total_iops": 1000, "capacity_tb": -1}))
    assert main(["size", str(f)]) == 2
    assert "capacity_tb" in capsys.readouterr().err
    f.write_text(json.dumps({"tier_counts": {"Gold": 3}}))
    assert main(["size", str(f)]) == 2
    assert "Gold" in capsys.readouterr().err


def test_tier_demand_counts_vcpus():
    # 300 Ultra databases x 16 vCPUs cannot be hosted by four 1-socket nodes
    d = Demand(tier_counts={"Ultra": 300}, max_nodes=4, n_plus_one=False)
    assert d.vcpus() == 300 * 16
    r = size(d, small_catalog())
    assert r.best is None and "vcpus" in r.explanation


@pytest.mark.parametrize("demand", [{"tier_counts": {"Standard": 0, "Premium": 0}}, {"tier_counts": {}},
                                    {"tier_counts": {}, "total_iops": 1000, "capacity_tb": 1}])
def test_every_tier_count_zero_is_an_error_naming_tier_counts(demand, tmp_path, capsys):
    from planner.cli import main

    (tmp_path / "d.json").write_text(json.dumps(demand))
    assert main(["size", str(tmp_path / "d.json")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: demand.tier_counts: ") and "every count is 0" in err, err


def test_growth_past_the_largest_workload_is_an_error(tmp_path, capsys):
    from planner.cli import main

    (tmp_path / "d.json").write_text(json.dumps({"total_iops": 1e9, "capacity_tb": 10, "growth_pct": 1000}))
    assert main(["size", str(tmp_path / "d.json")]) == 2
    assert capsys.readouterr().err.startswith("error: total_iops: the demand is 11,000,000,000 IOPS")
