"""A design against a demand (planner.sizing.verdict): the sizer's own rules per dimension,
the databases held whatever the node count, what no longer fits, the whole cost; the demand's
own load follows the node count (planner.engine.loads.rehosted); perfmon volumes as a totals
demand; the document says what the pages say."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from planner.commercial.pricing import CostAssumptions
from planner.commercial.tco import whole_cost
from planner.core.errors import PlannerError
from planner.engine.loads import demand_as_workload, rehosted
from planner.models.catalog import load_catalog
from planner.models.demand import Demand
from planner.models.design import Design, load_design, resolve
from planner.models.workload import profiles
from planner.sizing.checks import check_design, limits
from planner.sizing.search import size
from planner.sizing.verdict import DIMENSIONS, demand_verdict

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"


@pytest.fixture(scope="module")
def demand() -> Demand:
    return Demand.model_validate_json((EX / "demand-200dbs-azure-local.json").read_text())


@pytest.fixture(scope="module")
def best(demand) -> Design:
    return Design.model_validate(size(demand, top=1).best["design"])


def test_the_sized_design_meets_every_dimension(demand, best):
    v = demand_verdict(best, demand)
    assert v["judged"] and v["met"] and v["feasible"] and v["fits"] is None and not v["other_fails"]
    # a demand by tiers gives no transaction rate: no row for the cores its databases' work keeps busy
    assert [d["key"] for d in v["dimensions"]] == [k for k in DIMENSIONS if k != "database_cpu"]
    assert v["usd_per_month"] == whole_cost(best, demand)["monthly"]["total_usd_per_month"]
    assert "every part of the demand is met" in v["summary"]


def test_a_cpu_cap_that_throttles_the_demand_is_not_met(demand, best):
    """The Design page said 'every part of the demand is met' under 271,402 IOPS and 'CPU
    utilisation cap' as the bottleneck: the verdict compared the demand with saturation only (a
    cap of 0.10 on the sized design; 582,000 IOPS asked, 1,828,218 at saturation)."""
    from planner.engine.loads import demand_workload
    from planner.engine.performance import DesignArrays, evaluate_arrays
    from planner.models.params import params_for

    free = {d["key"]: d for d in demand_verdict(best, demand)["dimensions"]}
    assert free["iops"]["carried_at"] == "saturation" and free["iops"]["met"]
    tight = best.model_copy(update={"cpu_utilization_cap": 0.1})
    v = demand_verdict(tight, demand)
    by = {d["key"]: d for d in v["dimensions"]}
    out = evaluate_arrays(
        DesignArrays.from_designs([resolve(tight, load_catalog())]), demand_workload(demand), params_for(tight.stack)
    )
    assert str(out["limited_by"][0]) == "cpu_utilization_cap"
    # what the page's IOPS figure shows (the load throttled at the cap) is what the verdict carries
    assert by["iops"]["have"] == pytest.approx(float(out["iops"][0]), rel=1e-6)
    assert by["iops"]["have"] < by["iops"]["need"] and not by["iops"]["met"]
    assert by["iops"]["carried_at"] == "cpu_cap" and "CPU utilisation cap of 10 %" in by["iops"]["detail"]
    assert not by["latency"]["met"] and not v["met"]
    assert "every part of the demand is met" not in v["summary"]
    # a cap that still lets the demand through is met, and says what it lets through
    loose = {
        d["key"]: d for d in demand_verdict(best.model_copy(update={"cpu_utilization_cap": 0.3}), demand)["dimensions"]
    }
    assert loose["iops"]["met"] and loose["iops"]["carried_at"] == "cpu_cap"
    assert free["iops"]["need"] < loose["iops"]["have"] < free["iops"]["have"]


def test_fewer_nodes_keep_the_databases_and_say_what_no_longer_fits(demand, best):
    four = best.model_copy(update={"nodes": 4})
    v = demand_verdict(four, demand)
    rd = resolve(four, load_catalog())
    chk = check_design(rd, demand)
    by = {d["key"]: d for d in v["dimensions"]}
    # each dimension is the sizer's own rule on this design
    assert by["capacity"]["met"] == chk["checks"]["capacity_with_reserve"]["passed"] is False
    assert by["ram"]["met"] == chk["checks"]["ram"]["passed"]
    assert by["n_plus_one"]["met"] is (
        chk["checks"]["n_plus_one_capacity"]["passed"] and chk["checks"]["n_plus_one_performance"]["passed"]
    )
    assert by["capacity"]["need"] == pytest.approx(demand.totals()[1])
    # the same databases, spread over four nodes
    dbs = demand.database_count()
    assert v["databases"] == {
        "count": dbs,
        "hosts": 3,
        "per_node": math.ceil(dbs / 4),
        "per_node_one_down": math.ceil(dbs / 3),
    }
    # whole databases, "up to" where the nodes hold uneven counts (browser review 2026-11-30: "26.7 per node")
    even = "" if math.ceil(dbs) % 4 == 0 else "up to "
    assert (
        f"{even}{math.ceil(dbs / 4):,} per node" in v["summary"] and "." not in v["summary"].split(" per node")[0][-4:]
    )
    lim = limits([rd], demand)[0]
    share = min(x for x in lim["limit_ratios"].values() if x is not None)
    assert v["fits"] == {"share": share, "databases": math.floor(dbs * share), "first_to_run_out": lim["binding"]}
    assert f"about {v['fits']['databases']:,} of the {dbs:,.0f} databases fit" in v["summary"]
    assert not v["met"] and not v["feasible"]


def test_oversubscription_moves_the_vcpu_verdict(demand, best):
    assert next(d for d in demand_verdict(best, demand)["dimensions"] if d["key"] == "vcpus")["met"]
    low = best.model_copy(update={"vcpu_oversubscription": 1.0})
    row = next(d for d in demand_verdict(low, demand)["dimensions"] if d["key"] == "vcpus")
    # whole VMs of each tier on the busiest host (Demand.per_host), one node fewer with N+1
    assert not row["met"] and row["need"] == pytest.approx(float(demand.per_host(best.nodes - 1)[0]))
    assert row["need"] >= demand.vcpus() / (best.nodes - 1)


def test_prices_and_sql_follow_the_assumptions(demand, best):
    a = CostAssumptions(sql_edition="enterprise", part_prices_usd={best.node.chassis: 1.0})
    v = demand_verdict(best, demand, a)
    assert v["usd_per_month"] == whole_cost(best, demand, a)["monthly"]["total_usd_per_month"]
    assert v["cost"]["sql_server"] is not None


def test_other_architectures_and_stacks(demand):
    san = demand_verdict(load_design(EX / "san-raid5.json"), demand)
    assert not san["judged"] and "not judged" in san["note"] and san["usd_per_month"] > 0
    ceph = demand_verdict(load_design(EX / "ceph-6node-reef.json"), demand)
    assert ceph["judged"] and "ceph stack's own rules" in ceph["stack_note"]


def test_the_demands_load_follows_the_node_count(demand):
    w6 = demand_as_workload(demand, 6)
    w4 = rehosted(w6, demand, 4)
    assert w4 == demand_as_workload(demand, 4) and w4.vms_per_node == math.ceil(demand.database_count() / 4)
    assert w4.iops == w6.iops  # the same databases, the same guaranteed IOPS
    assert rehosted(profiles()["oltp-8k"], demand, 4) is None  # any other workload stays as it is
    assert rehosted(w6.model_copy(update={"block_size_kib": 64.0}), demand, 4) is None


def test_perfmon_volumes_become_a_totals_demand():
    from planner.sizing.estate import perfmon_demand, read_perfmon

    perf = read_perfmon((ROOT / "tests" / "fixtures" / "estate" / "perfmon.csv").read_bytes())
    out = perfmon_demand(perf, 20.0, 10, growth_pct=10)
    d = Demand.model_validate(out["demand"])
    assert d.total_iops == pytest.approx(sum(v["peak_iops"] for v in perf["volumes"]))
    assert (d.capacity_tb, d.databases, d.growth_pct) == (20.0, 10, 10)
    with pytest.raises(PlannerError, match="capacity_tb"):
        perfmon_demand(perf, 0.0)


def test_the_document_says_what_the_pages_say(demand, best):
    from planner.sizing.document import _meets
    from planner.sizing.proposal import build

    four = best.model_copy(update={"nodes": 4})
    p = build(four, demand_as_workload(demand, 4), demand=demand)
    v = demand_verdict(four, demand)
    assert p["verdict"]["dimensions"] == v["dimensions"]
    met = {r[0]: r[2] for r in _meets(p)}
    by = {d["key"]: d["met"] for d in v["dimensions"]}
    assert met["Capacity"] == ("met" if by["capacity"] else "NOT met") == "NOT met"
    assert met["A server can fail"] == ("met" if by["n_plus_one"] else "NOT met")
    assert json.dumps(p["verdict"])  # JSON-clean (no Infinity)


def test_customer_text_says_field_names_as_words():
    from planner.physics.rules import RULES
    from planner.sizing.document import customer_text

    assert customer_text(RULES["budget"].source) == "the demand's monthly budget"
    assert customer_text(RULES["growth"].source) == "the demand's growth"
    ram = customer_text(RULES["ram"].source)
    assert ram.startswith("Microsoft") and "planner" not in ram
    assert "(share kept for repair of drives and network)" in customer_text(RULES["n_plus_one_performance"].source)


def test_the_whole_cost_of_a_shared_sas_cluster_in_a_box():
    """The DataON seeds (file servers on a shared SAS JBOD) crashed the whole cost
    (AttributeError on the file servers' node); now their parts are counted, and a part
    without a price is one line naming it."""
    d = load_design(EX / "seed-dataon-sofs-1db.json")
    with pytest.raises(PlannerError, match="no list_price_usd for part"):
        whole_cost(d)
    spec = d.disaggregated
    quotes = {"dataon-cib-9224-v12": 20_000.0, "intel-xeon-e5-2623-v3": 400.0, "intel-xeon-e5-2690-v3": 2_000.0}
    c = whole_cost(d, a=CostAssumptions(part_prices_usd=quotes))
    q = {(x["group"], x["role"]): x["quantity"] for x in c["parts"]}
    assert q[("shared JBOD", "capacity drive")] == spec.shared_jbod.capacity_tier.count
    assert q[("shared JBOD", "cache")] == spec.shared_jbod.fast_tier.count
    assert q[("file server", "cpu")] == spec.file_servers * spec.file_server.cpu.sockets
    assert q[("shared JBOD", "enclosure")] == spec.shared_jbod.enclosures
    v = demand_verdict(d, Demand.model_validate_json((EX / "demand-200dbs.json").read_text()))
    assert not v["judged"] and v["usd_per_month"] is None and "not priced" in v["usd_per_month_note"]


def test_a_system_the_sizing_rules_do_not_judge_is_set_against_the_demands_iops_and_data():
    """The Compare page showed the system today's running cost with no word that it carries a
    twelfth of the demand's IOPS: its report's saturation and capacity against the demand."""
    from planner.sizing.verdict import report_against_demand

    d = Demand.model_validate_json((ROOT / "examples" / "demand-200dbs.json").read_text())
    iops, tb, _ = d.totals()
    rows = {g["key"]: g for g in report_against_demand({"iops_capacity": 48_828.1, "usable_capacity_tb": 11.2}, d)}
    assert rows["iops"]["need"] == iops and rows["iops"]["have"] == 48_828.1 and not rows["iops"]["met"]
    assert rows["capacity"]["need"] == tb and not rows["capacity"]["met"]
    big = report_against_demand({"iops": iops, "usable_capacity_tb": tb}, d)  # iops when no saturation figure
    assert [g["met"] for g in big] == [True, True]
    assert report_against_demand({}, d) == []


def test_an_open_loads_iops_band_ends_at_what_it_offers(demand, best):
    """QA 2026-11-28: 'IOPS 582,000 (range 456,812 to 795,943)' for a demand that offers 582,000:
    an open load below saturation carries what it offers, so the band's high end is the figure. Its low
    end is the capacity's low end when that is below the offer, else the offer (browser review
    2026-11-29: "250,144–582,000" beside a capacity of 4.2 million)."""
    from planner.results.report import performance

    w = demand_as_workload(demand, best.nodes)
    rep = performance(resolve(best, load_catalog()), w)
    assert rep["limited_by"] == "offered_load"
    offered = demand.totals()[0]  # with growth
    assert rep["iops"] == pytest.approx(offered, rel=1e-9)
    assert rep["iops_high"] == rep["iops"]
    assert rep["iops_low"] == pytest.approx(min(rep["iops"], rep["iops_capacity_low"]), rel=1e-12)
    assert rep["iops_capacity_low"] < rep["iops_capacity"] < rep["iops_capacity_high"]
    assert rep["bandwidth_mb_s_high"] == rep["bandwidth_mb_s"]
    # the latency bands are the calibration's, untouched
    assert rep["vm_latency_ms_high"] > rep["vm_latency_ms"]


def test_an_azure_local_demand_gets_azure_local_designs(demand, best):
    """QA 2026-11-28: the sizer wrote 'platform: windows-server' into every design for an Azure Local
    demand, so the saved design left out Azure Local's infrastructure volume (250.871 TB usable
    instead of 250.621) and `hciplan cost` priced it 17.8 % below the sizing row (Windows Server
    licences). The design now carries the demand's platform and costs the same with or without it."""
    from planner.physics.capacity import capacity_report

    assert best.platform == "azure-local"
    cap = capacity_report(resolve(best, load_catalog()))
    assert "infrastructure volume" in [s.step for s in cap.waterfall]
    alone, with_demand = whole_cost(best, None), whole_cost(best, demand)
    assert alone["platform"] == with_demand["platform"] == "azure-local"
    assert alone["monthly"]["total_usd_per_month"] == pytest.approx(with_demand["monthly"]["total_usd_per_month"])
    # the sizer's own figure is the checked design's (the screening counts the volume too)
    sized = size(demand, top=1).best
    assert sized["usable_capacity_tb"] == pytest.approx(cap.usable_capacity_tb)


def test_a_broken_fault_tolerance_turns_the_verdict(demand, best):
    """The Design page said 'every part of the demand is met' with every column met while its rule
    list said 'mirror-2way on 5 nodes does not survive node-and-drive': the verdict judged IOPS,
    latency, capacity, vCPUs, RAM and N+1 only."""
    from planner.models.design import with_overrides

    v = demand_verdict(with_overrides(best, resiliency="mirror-2way"), demand)
    by = {d["key"]: d for d in v["dimensions"]}
    assert not by["fault_tolerance"]["met"] and by["fault_tolerance"]["asked"] == (
        "a server down and a drive failing on another"
    )
    assert not v["met"] and "every part of the demand is met" not in v["summary"]
    assert "Fault tolerance" in v["summary"]
    assert by["fault_tolerance"]["label"] == DIMENSIONS["fault_tolerance"]
    sized = {d["key"]: d for d in demand_verdict(best, demand)["dimensions"]}
    assert sized["fault_tolerance"]["met"]


def test_any_rule_the_sizer_rejects_on_turns_the_verdict(demand, best):
    """Every dimension met but a rule the sizer would reject the design on (here the budget):
    not met, the rule named by its title."""
    from planner.physics.rules import rule_of

    cost = demand_verdict(best, demand)["usd_per_month"]
    tight = demand.model_copy(update={"budget_usd_per_month": cost / 2})
    v = demand_verdict(best, tight)
    assert all(d["met"] for d in v["dimensions"])
    assert [f["rule"] for f in v["other_fails"]] == ["budget"]
    assert not v["met"] and rule_of("budget").title in v["summary"]
    assert "every part of the demand is met" not in v["summary"]


def test_a_database_its_own_vcpus_cannot_carry_is_not_met_on_the_vcpus_row():
    """Browser review 2026-11-28: the Size page's vCPUs row said "met 19.2 of 512 vCPUs per node" and
    "every part of the demand is met" beside "give each database at least 11 vCPUs". The row now needs
    each database's own vCPUs (shared at the oversubscription, as the SLA page counts them) to carry its
    rate, and says how many it needs."""
    from planner.commercial.database import rate_carried

    d = Demand.model_validate(
        {
            "database": {"name": "x", "size_gb": 1000, "buffer_pool_gb": 128, "nopm": 200_000},
            "databases": 20,
            "vcpus_per_db": 12,
        }
    )
    design = Design.model_validate(size(d, top=1).best["design"])
    v = demand_verdict(design, d)
    row = next(x for x in v["dimensions"] if x["key"] == "vcpus")
    assert not row["met"] and not v["met"] and "not met: vCPUs" in v["summary"]
    need = row["database_rate"]["vcpus_needed"]
    assert f"each database needs at least {need} vCPUs" in row["detail"]
    vm = d.database.model_copy(update={"vcpus": need})
    assert rate_carried(design, vm, d.latency_target_ms)["carried"]
    # the same database with those vCPUs: the row is met
    enough = d.model_copy(update={"vcpus_per_db": need})
    assert next(x for x in demand_verdict(design, enough)["dimensions"] if x["key"] == "vcpus")["met"]


def test_a_tier_one_vm_cannot_issue_is_not_met_on_the_vcpus_row_not_below_a_met_table():
    """DBA walk 2026-11-30: the Size page's table read "vCPUs: met" (every column met) above "not met: the rule
    'each tier's guaranteed IOPS within what one of its database VMs issues'". A tier's VM is a vCPU matter: the
    row says it, and the rule is not repeated under "other rules"."""
    from planner.models.tiers import default_tiers

    raw = default_tiers().model_dump(mode="json")
    raw["tiers"].append(
        {"name": "Huge", "guaranteed_iops": 100_000, "burst_iops": 100_000, "latency_target_ms": 2.0}
        | {"capacity_tb_per_db": 1.0, "vcpus_per_db": 2, "ram_gb_per_db": 16}
    )
    d = Demand.model_validate({"tiers": raw, "tier_counts": {"Standard": 10, "Huge": 1}})
    design = Design.model_validate(size(d, top=1).best["design"])
    v = demand_verdict(design, d)
    row = next(x for x in v["dimensions"] if x["key"] == "vcpus")
    assert not row["met"] and not v["met"] and "not met: vCPUs" in v["summary"]
    assert "one Huge database VM of 2 vCPUs issues at most" in row["detail"] and row["tier_vm_io"]
    assert all(o["rule"] != "tier_vm_io" for o in v["other_fails"])


def test_a_design_that_holds_every_database_but_cannot_rebuild_does_not_say_none_fit():
    """Browser review 2026-11-29: mirror-accelerated parity on 4 nodes (it cannot rebuild on 3) read "about 0
    of the 240 databases fit (first to run out: storage capacity, one node down)" with 292.9 TB usable for
    216 TB, every database online with a server down. It says what happens: none is re-protected; and what
    fits by the other limits."""
    from planner.models.design import with_overrides
    from planner.physics.capacity import capacity_report

    d = Demand.model_validate_json((EX / "demand-200dbs-azure-local.json").read_text())
    best = Design.model_validate(size(d, top=1).best["design"])
    x = with_overrides(best, resiliency="mirror-accelerated-parity", nodes=4)
    cap = capacity_report(resolve(x))
    assert not cap.repairs_after_node_loss and cap.one_node_down_tb >= d.totals()[1]
    v = demand_verdict(x, d)
    assert "about 0 of" not in v["summary"]
    assert (
        "mirror-accelerated parity cannot rebuild on 3 nodes: with a server down every database stays online"
        in (v["summary"])
    )
    lim = {k: r for k, r in v["limit_ratios"].items() if k != "capacity"}
    key = min(lim, key=lambda k: lim[k])
    assert v["fits"]["first_to_run_out"] == key and v["fits"]["databases"] == math.floor(240 * lim[key] + 1e-9)
    assert not next(x for x in v["dimensions"] if x["key"] == "n_plus_one")["met"]  # N+1 stays not met


def test_a_demand_without_tiers_names_its_databases_not_a_tier_mix_of_totals():
    """Browser review 2026-11-29: the sidebar's workload of a demand a DBA describes read "..., tier mix totals"."""
    d = Demand.model_validate_json((EX / "demand-hammerdb.json").read_text())
    w = demand_as_workload(d, 5)
    assert w.name == "demand (24 databases)" and "24 databases" in w.description
    assert "totals" not in w.description
    tiered = demand_as_workload(Demand.model_validate_json((EX / "demand-200dbs.json").read_text()), 5)
    # the grown count beside the demand's name, quoted (pricing walk 2026-11-30: "200 databases: ..." beside 240)
    assert tiered.description.startswith("demand “200 databases”: 240 databases with 20 % growth, 582,000")
    assert tiered.description.endswith("tier mix 144 Standard, 60 Business, 30 Premium, 6 Ultra")


def test_whole_counts_are_said_without_a_decimal():
    """Browser review 2026-11-29: "240 databases ... on 3 nodes: 80.0 per node, 120.0 with one node down"."""
    from planner.core.text import tidy

    assert (tidy(80.0), tidy(80.5), tidy(1234.0), tidy(0.0)) == ("80", "80.5", "1,234", "0")
    v = demand_verdict(
        load_design(EX / "reference.json"), Demand.model_validate_json((EX / "demand-200dbs.json").read_text())
    )
    assert ": 80 per node, 120 with one node down" in v["summary"], v["summary"]


def test_a_grown_database_count_is_said_in_whole_databases():
    """Adversarial review 2026-11-30: a 3-database estate read "3.6 databases (with 20 % growth) on 4 nodes"."""
    from planner.models.demand import Demand
    from planner.models.design import load_design
    from planner.sizing.verdict import demand_verdict

    d = Demand.model_validate({"tier_counts": {"Standard": 3}, "growth_pct": 20})
    v = demand_verdict(load_design(EX / "reference.json"), d)
    assert "4 databases (with 20 % growth) on 3 nodes" in v["summary"] and "3.6" not in v["summary"]


def test_a_latency_target_missed_at_the_lightest_load_is_said_so():
    """Architect review 2026-11-30: "about 0 of the 240 databases fit (first to run out: the latency target)" of a
    design carrying three quarters of the IOPS, where Ultra's p99 target is missed with almost no load."""
    from planner.sizing.verdict import _summary

    dims = [{"label": "Latency", "met": False}]
    dbs = {"count": 240, "per_node": 27, "per_node_one_down": 30}
    text = _summary(
        dims, dbs, {"share": 0.0, "databases": 0, "first_to_run_out": "latency"}, 9, "with 20 % growth", [], "x"
    )
    assert "none fit: a latency target is missed even at the lightest load" in text and "about 0" not in text
    text = _summary(
        dims, dbs, {"share": 0.5, "databases": 120, "first_to_run_out": "latency"}, 9, "with 20 % growth", [], "x"
    )
    assert "about 120 of the 240 databases fit (first to run out: x)" in text


def test_the_growth_rule_is_not_repeated_under_other_rules():
    """Browser review 2026-11-30: a what-if short of the demand listed "Other sizing rules not met: sized for the
    demand's growth ... (the demand with +20 % growth over 36 months is not met (the rules that failed say
    where))" under the dimensions that say where."""
    from planner.models.design import with_overrides

    d = Demand.model_validate_json((EX / "demand-200dbs.json").read_text())
    best = Design.model_validate(size(d, top=1).best["design"])
    v = demand_verdict(with_overrides(best, nodes=3), d)
    assert not v["met"] and not v["checks"]["growth"]["passed"]
    assert "growth" not in [f["rule"] for f in v["other_fails"]]
    assert "(the rules" not in v["checks"]["growth"]["reason"]


def test_hosting_rows_say_they_are_one_node_down_and_whether_every_node_up_hosts_the_vms(demand, best):
    """Presales walk 2026-11-30: at one node fewer the RAM row was "1,065 of 1,024 GB per node" (the one-node-down
    figure) and the Performance page's all-nodes-up headline carried "not enough RAM", where every node up hosts the
    VMs. Each hosting row says it is judged one node down, and whether every node up hosts the VMs: each judged
    again on a demand without N+1 (the same design, so the same rule)."""
    for nodes in range(3, best.nodes + 1):
        design = best.model_copy(update={"nodes": nodes})
        rows = {d["key"]: d for d in demand_verdict(design, demand)["dimensions"]}
        up = {
            d["key"]: d for d in demand_verdict(design, demand.model_copy(update={"n_plus_one": False}))["dimensions"]
        }
        for k in ("vcpus", "ram"):
            assert rows[k]["one_node_down"] is True and up[k]["one_node_down"] is False
            assert rows[k]["met_all_nodes_up"] == up[k]["met"] == up[k]["met_all_nodes_up"]
            assert rows[k]["need"] >= up[k]["need"]  # one node fewer hosts as many VMs on fewer nodes
    # the case the walk found: RAM short with one node down, met with every node up
    found = [
        n
        for n in range(3, best.nodes + 1)
        if (
            r := next(
                d
                for d in demand_verdict(best.model_copy(update={"nodes": n}), demand)["dimensions"]
                if d["key"] == "ram"
            )
        )
        and not r["met"]
        and r["met_all_nodes_up"]
    ]
    assert found, "no node count where RAM is short only with one node down"


def test_a_demand_of_another_stack_with_more_nodes_than_s2d_allows_still_judges_an_s2d_design():
    """Ceph/vSAN walk 2026-11-30: the Ceph demand's 24 nodes (its search's bound) made an S2D example "not judged
    against the demand: ... 1 validation error for Demand\\nmax_nodes ... https://errors.pydantic.dev/...", and the
    S2D column's demand row read "-" beside a judged vSAN column."""
    import json
    from pathlib import Path

    from planner.models.demand import Demand
    from planner.models.design import Design
    from planner.sizing.verdict import demand_verdict, judged_demand

    ex = Path(__file__).resolve().parents[1] / "examples"
    demand = Demand.model_validate(json.loads((ex / "demand-200dbs-ceph.json").read_text()))
    design = Design.model_validate(json.loads((ex / "sas-4node.json").read_text()))
    judged, note = judged_demand(design, demand)
    assert judged.stack == "s2d" and judged.max_nodes <= 16 and "ceph" in (note or "")
    v = demand_verdict(design, demand)
    assert v["judged"] and not v["met"], v.get("note")


def test_a_cluster_whose_io_stops_with_a_node_down_hosts_no_database_then():
    """Verification walk 2026-11-30: Ceph ec-2+1 on three hosts read "26 databases on 3 nodes: up to 9 per node, 13
    with one node down" beside the Capacity page's "IO stops"."""
    import json
    from pathlib import Path

    from planner.models.demand import Demand
    from planner.models.design import Design
    from planner.sizing.verdict import demand_verdict

    ex = Path(__file__).resolve().parents[1] / "examples"
    design = Design.model_validate(
        json.loads((ex / "ceph-6node-reef.json").read_text()) | {"nodes": 3, "resiliency": "ec-2+1"}
    )
    demand = Demand.model_validate(json.loads((ex / "demand-200dbs-ceph.json").read_text()))
    v = demand_verdict(design, demand)
    dbs = v["databases"]
    assert dbs["per_node_one_down"] is None and "IO stops" in dbs["per_node_one_down_note"], dbs
    assert "IO stops with a node down: no database runs" in v["summary"], v["summary"]


def test_a_design_not_met_says_what_would_meet_it(demand, best):
    """Presales walk 2026-11-30: at fewer nodes the Design page said "not met: Capacity, RAM, N+1 ...; about 265
    of the 396 databases fit" and never what would fix it; two-way mirror said "not met: Fault tolerance" with no
    pointer to the resiliency that meets it. Each remedy is the sizer's own judgement of the changed design."""
    from planner.models.design import with_overrides

    fewer = with_overrides(best, nodes=best.nodes - 1)
    v = demand_verdict(fewer, demand)
    assert not v["met"] and v["remedy"]["nodes"] == best.nodes
    assert f"{best.nodes} nodes of these servers would meet it" in v["summary"]
    assert demand_verdict(with_overrides(fewer, nodes=v["remedy"]["nodes"]), demand)["met"]
    two = demand_verdict(with_overrides(best, resiliency="mirror-2way"), demand)
    assert not two["met"] and "mirror-3way" in two["remedy"]["resiliencies"], two["remedy"]
    assert "three-way mirror on these" in two["summary"]
    for r in two["remedy"]["resiliencies"]:
        assert demand_verdict(with_overrides(best, resiliency=r), demand)["met"], r
    # nothing of these servers meets it: said, with where to go
    ref = demand_verdict(load_design(ROOT / "examples" / "reference.json"), demand)
    assert ref["remedy"] == {"nodes": None, "resiliencies": [], "words": ref["remedy"]["words"]}
    assert "sizing the demand finds a design that does" in ref["summary"]
    assert "remedy" not in demand_verdict(best, demand)  # a design that meets it needs none


def _azure_local_node(chassis: str, drive: str, count: int, nic: str) -> Design:
    return Design.model_validate(
        {
            "name": "al-node",
            "nodes": 6,
            "platform": "azure-local",
            "node": {
                "chassis": chassis,
                "cpu": {"model": "intel-xeon-gold-6430", "sockets": 2},
                "ram_gb": 1536,
                "capacity_drives": {"model": drive, "count": count},
                "nics": {"model": nic, "count": 1},
            },
            "resiliency": "mirror-3way",
            "transport": "rdma",
        }
    )


def test_a_programme_s_node_is_not_confirmed_for_parts_its_listing_does_not_name():
    """Hardware-architect walk: an AX-760 with a Solidigm D5-P5430 (QLC) and a Broadcom P225P, neither in Dell's
    Azure Local matrix, was "met" and read "A node your program lists | passed": the rule checked the chassis only.
    Dell qualifies drives and NICs per node; a part whose record names no listing on the chassis is "not confirmed
    for this part" (a warning: the rule neither passes it silently nor fails it)."""
    al = Demand.model_validate_json((EX / "demand-200dbs-azure-local.json").read_text())
    loose = _azure_local_node("dell-ax-760", "solidigm-d5-p5430-7.68tb", 22, "broadcom-p225p-2x25g")
    v = demand_verdict(loose, al)
    rule = v["checks"]["validated_node"]
    assert rule["passed"] and rule["unconfirmed"].startswith("not confirmed for this part: ")
    assert "Solidigm D5-P5430" in rule["unconfirmed"] and "P225P" in rule["unconfirmed"]
    assert "Azure Local: not confirmed for this part" in v["summary"]
    # parts Dell's 2606 matrix qualifies on the AX-760: confirmed, nothing to warn of
    listed = _azure_local_node("dell-ax-760", "micron-7450-pro-7.68tb", 22, "nvidia-cx6-lx-2x25g")
    rule = check_design(resolve(listed), al)["checks"]["validated_node"]
    assert rule["passed"] and "unconfirmed" not in rule, rule
    # a chassis whose own listing was recalled is not confirmed either (HPE's, from the Azure Local catalog)
    hpe = _azure_local_node("hpe-dl380-gen11", "micron-7450-pro-7.68tb", 22, "nvidia-cx6-lx-2x25g")
    rule = check_design(resolve(hpe), al)["checks"]["validated_node"]
    assert "HPE ProLiant DL380 Gen11 (its own Azure Local listing not seen in a source)" in rule["unconfirmed"]
    # and the rule's claim says so where it is made ("lists Azure Local" read as a contradiction; stop 63)
    assert rule["reason"].startswith("hpe-dl380-gen11 lists Azure Local (as recalled, not seen in a source); ")
    assert check_design(resolve(listed), al)["checks"]["validated_node"]["reason"].startswith(
        "dell-ax-760 lists Azure Local; "
    )


def test_the_sizer_s_azure_local_pick_uses_listed_parts_or_says_it_is_not_confirmed():
    """Hardware-architect walk: the sizer's best pick for the Azure Local demand (an HPE DL380 Gen11 with a QLC drive
    and a Broadcom P225P) read "passed" for the programme's node list."""
    al = Demand.model_validate_json((EX / "demand-200dbs-azure-local.json").read_text())
    cat = load_catalog()
    res = size(al, top=1)
    node = res.best["design"]["node"]
    chassis = node["chassis"]
    parts = [cat.capacity_drive[node["capacity_drives"]["model"]], cat.nic[node["nics"]["model"]]]
    confirmed = "validated_for" not in cat.chassis[chassis].estimated and all(
        chassis in p.listed_on.get("Azure Local", []) for p in parts
    )
    rule = res.best["checks"]["validated_node"]
    assert rule["passed"]
    assert confirmed or rule["unconfirmed"].startswith("not confirmed for this part"), rule
    assert confirmed or "not confirmed for this part" in rule["reason"]


def test_a_design_that_fits_no_database_says_none():
    """Regression walk 2026-12-01: the proposal for edge-2node under the 200-database demand said "about 0 of the 240
    databases fit"; none fit, and the summary says so."""
    from pathlib import Path

    from planner.models.demand import Demand
    from planner.models.design import load_design
    from planner.sizing.verdict import demand_verdict

    ex = Path(__file__).resolve().parent.parent / "examples"
    v = demand_verdict(
        load_design(ex / "edge-2node.json"), Demand.model_validate_json((ex / "demand-200dbs.json").read_text())
    )
    assert "none of the 240 databases fits (first to run out:" in v["summary"], v["summary"]
    assert "about 0 of" not in v["summary"]
