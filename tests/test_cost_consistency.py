"""One design costs the same in every command and on every page: the licences follow the design's
platform (its own when it names one, else the demand's for a proposed cluster, Windows Server for
one the customer owns), SQL Server Enterprise counts the servers that run the database VMs, the
default switch is the cheapest in total, growth is yearly whatever the amortisation, and the
proposal says what its tier prices rest on."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import numpy as np
import pytest

from planner.cli import main
from planner.commercial.bom import bom
from planner.commercial.licensing import for_platform, platform_of
from planner.commercial.network import network_bom, pick_switch, switching_usd_per_month
from planner.commercial.pricing import CostAssumptions, monthly_cost, tier_prices
from planner.commercial.tco import design_parts, tier_cost_base, whole_cost
from planner.core.text import adding_up
from planner.engine.loads import demand_as_workload, demand_workload
from planner.models.catalog import load_catalog
from planner.models.demand import Demand, DemandError
from planner.models.design import load_design, parse_design, resolve, with_overrides
from planner.models.tiers import default_tiers
from planner.sizing.checks import NOT_CARRYING_RULES, multi_year
from planner.sizing.formats import render
from planner.sizing.proposal import build
from planner.sizing.scenarios import sensitivity

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"


@pytest.fixture(scope="module")
def cat():
    return load_catalog()


def _demand(name: str = "demand-200dbs-azure-local.json", **over) -> Demand:
    return Demand.model_validate({**json.loads((EX / name).read_text()), **over})


def _ref(**over):
    d = load_design(EX / "reference.json")
    return with_overrides(d, **over) if over else d


def _run(capsys, argv: list[str]) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


# --------------------------------------------------------------------------- the design's platform


def test_an_azure_local_design_is_costed_on_azure_local_by_every_command(cat, tmp_path, capsys):
    """``hciplan bom`` and ``hciplan price`` of the sizer's Azure Local design gave $17,762/month with
    Windows Server Datacenter where ``hciplan cost`` gave $22,169: they never applied the platform."""
    d = _ref(platform="azure-local")
    path = tmp_path / "al.json"
    path.write_text(d.model_dump_json())
    whole = whole_cost(d, None, CostAssumptions(network=False), cat)
    assert whole["licence_option"] == "azure-local-datacenter"
    cluster = whole["monthly"]["total_usd_per_month"]
    rd = resolve(d, cat)
    for got in (
        monthly_cost(rd, CostAssumptions()),
        bom(rd, CostAssumptions(), catalog=cat)["monthly_cost"],
        tier_prices(rd, default_tiers(), CostAssumptions())["monthly_cost"],
        _run(capsys, ["bom", str(path)])["monthly_cost"],
        _run(capsys, ["price", str(path)])["monthly_cost"],
    ):
        assert got["licence_option"] == "azure-local-datacenter"
        assert got["per_cluster"]["total_usd_per_month"] == pytest.approx(cluster, rel=1e-12)
    # the same design on Windows Server pays no host fee: the gap is the fee on every physical core
    ws = monthly_cost(resolve(_ref(), cat), CostAssumptions())["per_cluster"]["total_usd_per_month"]
    assert cluster - ws == pytest.approx(rd.node.cores * d.nodes * CostAssumptions().azure_local_usd_per_core_month)
    # --platform says it for a design that names none
    ref = str(EX / "reference.json")
    assert _run(capsys, ["bom", ref, "--platform", "azure-local"])["monthly_cost"]["licence_option"] == (
        "azure-local-datacenter"
    )


def test_the_what_if_cost_is_the_whole_cost_on_the_designs_platform(cat):
    """The Compare page's tornado priced the base design without the platform ($17,762) beside a whole
    cost of $22,169: its cost is now the whole cost, with the demand's platform and SQL Server."""
    demand = _demand()
    a = CostAssumptions(sql_edition="standard")
    w = demand_as_workload(demand, 4)
    for d in (_ref(), _ref(platform="azure-local")):  # the demand's platform, or the design's own
        rows = sensitivity(d, w, cat, assumptions=a, demand=demand)
        whole = whole_cost(d, demand, a, cat)
        assert whole["platform"] == "azure-local"
        assert rows[0]["base_whole_usd_per_month"] == pytest.approx(whole["monthly"]["total_usd_per_month"])


# --------------------------------------------------------------------------- an owned system's platform


def test_a_system_owned_today_is_not_costed_on_the_new_clusters_platform(cat):
    """The system run today was billed the Azure Local host fee because the new demand asks for Azure
    Local ($1,749 vs $1,029 a month, 5-year TCO $104,945 vs $61,745)."""
    demand = _demand()
    owned = whole_cost(_ref(), demand, CostAssumptions(), cat, owned=True)
    alone = whole_cost(_ref(), None, CostAssumptions(), cat, owned=True)
    assert owned["platform"] == "windows-server" and owned["licence_option"] == "windows-server-datacenter"
    assert owned["monthly"]["total_usd_per_month"] == pytest.approx(alone["monthly"]["total_usd_per_month"])
    assert owned["tco"][1]["total_usd"] == pytest.approx(alone["tco"][1]["total_usd"])
    assert any("new cluster" in n for n in owned["notes"])
    # nor on the assumptions' platform (the new cluster's), in the app as in the proposal
    a = CostAssumptions(platform="azure-local")
    assert whole_cost(_ref(), None, a, cat, owned=True)["platform"] == "windows-server"
    # a system today that names Azure Local is costed on it
    assert whole_cost(_ref(platform="azure-local"), None, CostAssumptions(), cat, owned=True)["platform"] == (
        "azure-local"
    )
    # the proposed cluster still follows the demand
    assert whole_cost(_ref(), demand, CostAssumptions(), cat)["platform"] == "azure-local"


def test_a_design_naming_its_platform_keeps_it_against_the_demand(cat):
    """A design's own "platform": "windows-server" was overridden by the demand's Azure Local."""
    d = _ref(platform="windows-server")
    demand = _demand()
    assert platform_of(CostAssumptions(), demand, d) == "windows-server"
    w = whole_cost(d, demand, CostAssumptions(), cat)
    assert w["licence_option"] == "windows-server-datacenter"
    assert any("the design names" in n for n in w["notes"])
    # for_platform twice gives the same: the licence option carries the platform
    a = for_platform(CostAssumptions(), demand)
    assert for_platform(a, None, _ref()) == a
    # a design that names none keeps naming none through a dump (the app's canonical JSON, a saved scenario)
    again = parse_design(_ref().model_dump(mode="json"))
    assert again.platform is None and platform_of(CostAssumptions(), demand, again) == "azure-local"


def test_the_proposal_costs_the_system_today_on_its_own_platform(cat):
    demand = _demand()
    d = _ref()
    p = build(d, demand_as_workload(demand, d.nodes), demand=demand, catalog=cat, existing=_ref())
    assert p["cost"]["platform"] == "azure-local"
    assert p["existing"]["cost"]["platform"] == "windows-server"


def test_cost_cli_owned_platform(capsys):
    ref = str(EX / "reference.json")
    al = str(EX / "demand-200dbs-azure-local.json")
    assert _run(capsys, ["cost", ref, "--owned", "--demand", al])["platform"] == "windows-server"
    # --platform with --owned says what the machine runs
    assert _run(capsys, ["cost", ref, "--owned", "--platform", "azure-local"])["platform"] == "azure-local"


def test_cost_cli_owned_platform_against_the_designs_own(tmp_path, capsys):
    path = tmp_path / "al.json"
    path.write_text(_ref(platform="azure-local").model_dump_json())
    assert main(["cost", str(path), "--owned", "--platform", "windows-server"]) == 2
    assert "platform" in capsys.readouterr().err


# --------------------------------------------------------------------------- SQL Server Enterprise


def test_enterprise_counts_the_database_servers_cores_not_the_file_servers(cat):
    """A disaggregated design billed 192 cores: the database and file servers' physical cores were
    more than the VMs' 192 virtual cores, where the database servers alone have 176."""
    d = load_design(EX / "sofs-2node-sas-tiered.json")
    demand = _demand("demand-hammerdb.json")
    groups = {g["name"]: g for g in design_parts(d, cat)}
    db = groups["database server"]
    physical = db["cores_per_cpu"] * db["sockets"] * db["count"]
    assert db["hosts_vms"] and not groups["file server"]["hosts_vms"]
    sql = whole_cost(d, demand, CostAssumptions(sql_edition="enterprise"), cat)["sql_server"]
    assert sql["cores"] == physical == 176 and "physical" in sql["basis"]


@pytest.mark.parametrize(
    "name", ["sofs-2node-sas-tiered", "split-provisioned", "san-raid5", "single-server-pcie-flash", "reference"]
)
def test_every_server_group_says_whether_it_runs_the_database_vms(cat, name):
    groups = design_parts(load_design(EX / f"{name}.json"), cat)
    assert all(isinstance(g["hosts_vms"], bool) for g in groups)
    assert sum(g["hosts_vms"] for g in groups) == 1  # one group runs the databases in these topologies


# --------------------------------------------------------------------------- the default switch


def _switch_lines(net: dict) -> tuple[str, int]:
    sw = next(x for x in net["lines"] if x["role"] == "switch")
    return sw["part"], sw["quantity"]


def test_the_default_switch_is_the_cheapest_in_total_for_the_link_count(cat):
    """38 links at 25 GbE took four 18-port nvidia-sn2010 ($27,320 with peer links), the cheapest box,
    where two 48-port dell-s5248f-on cost $25,230."""
    nic = cat.nic["nvidia-cx6-lx-2x25g"]
    servers = [(19, nic, 1)]  # 38 links
    a = CostAssumptions()
    net = network_bom(servers, True, a, cat)
    assert net["links"] == 38
    for model in ("nvidia-sn2010", "dell-s5248f-on", "cisco-nexus-93180yc-fx"):
        forced = network_bom(servers, True, a.model_copy(update={"switch_model": model}), cat)
        assert net["total_usd"] <= forced["total_usd"] + 1e-9
    assert _switch_lines(net) == ("dell-s5248f-on", 2)
    # with few links the small switch is still the cheaper network
    small = network_bom([(8, nic, 1)], True, a, cat)
    assert _switch_lines(small) == ("nvidia-sn2010", 2)
    # the choice is the figure the whole cost counts: purchase, support, power and rack space a month
    for n in (8, 19, 40):
        got = switching_usd_per_month(pick_switch(25.0, True, a, cat, 2 * n), 2 * n, a, cat)
        assert got <= min(
            switching_usd_per_month(s, 2 * n, a, cat) for s in cat.switch.values() if s.port_gbit_s == 25.0
        )


# --------------------------------------------------------------------------- growth


def test_growth_is_yearly_whatever_the_amortisation(cat, tmp_path, capsys):
    """amortisation_months 1 made `hciplan size` fail ("tier_counts: the demand is more than
    1,000,000,000 IOPS with growth"): the multi-year view read the demand's 20 % as 20 % a month."""
    demand = _demand("demand-200dbs.json")
    rd = resolve(_ref(), cat)
    views = [multi_year(rd, demand, CostAssumptions(amortisation_months=m), years=5) for m in (1, 36, 120)]
    assert {round(v["growth_pct_per_year"], 9) for v in views} == {round(100 * (1.2 ** (1 / 3) - 1), 9)}
    assert views[0]["years"] == views[1]["years"]
    # the demand says its own period: 20 % over a year is 20 % a year
    yearly = multi_year(rd, _demand("demand-200dbs.json", growth_period_months=12), years=2)
    assert yearly["growth_pct_per_year"] == pytest.approx(20.0)
    costs = tmp_path / "am1.json"
    costs.write_text('{"amortisation_months": 1}')
    out = _run(capsys, ["size", str(EX / "demand-200dbs.json"), "--costs", str(costs), "--top", "1"])
    assert out["best"]["multi_year"]["growth_pct_per_year"] == pytest.approx(views[1]["growth_pct_per_year"])


def test_a_demand_without_growth_says_so_in_words(cat):
    """A proposal of an estate read with no growth said "each year multiplies it by 1.000 (the demand's +0 % over 36
    months), each database's IOPS and TB grown by that factor" (CLI walk, stop 61): it says there is none."""
    rd = resolve(_ref(), cat)
    flat = multi_year(rd, _demand("demand-200dbs.json", growth_pct=0), years=3)
    assert flat["note"].startswith("the demand sets no growth: every year is today's demand; the nodes needed")
    assert "1.000" not in flat["note"] and "grown" not in flat["note"]
    assert {r["demand_ratio"] for r in flat["years"]} == {1.0}
    grown = multi_year(rd, _demand("demand-200dbs.json"), years=3)
    assert grown["note"].startswith("year 0 is today's demand without growth; each year multiplies it by 1.063")


def test_growth_beyond_the_model_names_growth_pct(cat):
    demand = _demand("demand-200dbs.json", growth_pct=1000, growth_period_months=1)
    base = demand.totals(1.0)[0]
    with pytest.raises(DemandError) as e:  # the sized (grown) demand: 11 x the databases' IOPS is within it
        demand_workload(demand, np.array([1e9 / base * 1.01]))
    assert e.value.field == "growth_pct"
    # the multi-year view stops before the years past the model's bound, and says why
    view = multi_year(resolve(_ref(), cat), demand, years=5)
    assert view["years"][-1]["iops"] <= 1e9 and len(view["years"]) < 6
    assert view["years_note"].startswith("growth_pct:")


#: the account-manager walk's demand (2026-11-30): 120 databases of 500 GB at 3,000 TPM, +72.8 % over 36
#: months (20 % a year), N+1 on Azure Local, and the 12-server design the sizer gave for it
WALK_DEMAND = {
    "name": "fabrikam",
    "database": {"name": "db", "size_gb": 500, "buffer_pool_gb": 128, "tpm": 3000},
    "databases": 120,
    "vcpus_per_db": 8,
    "ram_gb_per_db": 160,
    "latency_target_ms": 1.0,
    "growth_pct": 72.8,
    "growth_period_months": 36,
    "n_plus_one": True,
    "validated_for": "Azure Local",
}
WALK_DESIGN = {
    "name": "walk",
    "stack": "s2d",
    "nodes": 12,
    "node": {
        "chassis": "dell-ax-660",
        "cpu": {"model": "intel-xeon-gold-6430", "sockets": 2},
        "ram_gb": 3072.0,
        "capacity_drives": {"model": "solidigm-d5-p5430-7.68tb", "count": 4},
        "nics": {"model": "broadcom-p225p-2x25g", "count": 1},
        "dimms": {"model": "ddr5-96gb-rdimm-5600", "count": 32},
    },
    "resiliency": "mirror-3way",
    "platform": "azure-local",
}


def test_the_growth_column_is_what_each_years_demand_needs_and_the_sentence_counts_them(cat, tmp_path, capsys):
    """Account-manager walk 2026-11-30: the Multi-year view, the proposal's Growth table and ``size``'s
    ``multi_year`` gave 12 servers for years 0 to 3 (the search began at the design's 12, sized for the grown
    demand) where today's demand needs fewer, and all three said "The cluster needs another server in year 4"
    beside 12 -> 15. The column is each year's need, searched from the stack's minimum (the same answer as
    check_design on that year's demand), and one sentence gives the count and the year."""
    from planner.sizing.checks import check_design, growth_sentence
    from planner.sizing.document import document

    demand = Demand.model_validate(WALK_DEMAND)
    design = parse_design(json.dumps(WALK_DESIGN))
    view = multi_year(resolve(design, cat), demand)
    needs = [y["nodes_needed"] for y in view["years"]]
    # year 0 needs what check_design finds for today's demand in this configuration
    today = demand.model_copy(update={"growth_pct": 0.0})
    fewest = next(
        n for n in range(3, 13) if check_design(resolve(with_overrides(design, nodes=n), cat), today)["feasible"]
    )
    assert needs[0] == fewest < 12
    # each year needs at least the year before (None: more than the search's top), the design's 12 carry the
    # years until the first that needs more, and the sentence counts them (since the DBA review the walk's
    # databases hold their log and tempdb too: 1.5x the data, so the years run out sooner than 12 -> 15 in year 4)
    rank = [n if n is not None else 10**6 for n in needs]
    assert rank == sorted(rank)
    first = view["first_year_needing_more_nodes"]
    assert first is not None and all(y["fits_current"] for y in view["years"][:first])
    assert not view["years"][first]["fits_current"]
    said = growth_sentence(view)
    # since the DBA review the 12 servers do not hold the grown demand's capacity (the verdict's fails): the sentence
    # says so, not "the design's 12 are sized for the grown demand" (customer-engineer walk 2026-12-01)
    fails = [f for f in check_design(resolve(design, cat), demand)["fails"] if f not in NOT_CARRYING_RULES]
    assert fails and view["sized"]["fails"] == fails and "sized for the grown demand" not in said
    assert "On the design's 12 servers the demand with its growth (+72.8 % over 36 months) is not met: " in said
    assert f"carry the demand to year {first - 1}; year {first} needs" in said
    assert "another server" not in said
    # the CLI's multi_year and the proposal's Growth section say the same
    path = tmp_path / "walk.json"
    path.write_text(json.dumps(WALK_DEMAND))
    my = _run(capsys, ["size", str(path), "--top", "1"])["best"]["multi_year"]
    assert my["years"][0]["nodes_needed"] < my["nodes"] and my["sentence"] == growth_sentence(my)
    assert "another server" not in my["sentence"]
    p = build(design, demand_as_workload(demand, design.nodes), demand=demand)
    growth = next(s for s in document(p)["sections"] if s["title"] == "Growth")
    assert said in json.dumps(growth) and "another server" not in json.dumps(growth)


#: the customer engineer's what-if design (walk 2026-12-01): the sizer's build for examples/demand-hammerdb.json with
#: 1,536 GB of RAM, 10 Micron 7450 PRO drives and a ConnectX-6 Dx, three-way mirror; sized at 4, 5 and 6 servers
WHATIF_DESIGN = {
    "name": "what-if",
    "stack": "s2d",
    "nodes": 5,
    "node": {
        "chassis": "dell-ax-660",
        "cpu": {"model": "intel-xeon-gold-6430", "sockets": 2},
        "ram_gb": 1536.0,
        "capacity_drives": {"model": "micron-7450-pro-3.84tb", "count": 10},
        "nics": {"model": "mellanox-cx6-dx-2x100g", "count": 1},
    },
    "resiliency": "mirror-3way",
    "transport": "rdma",
    "platform": "azure-local",
}


@pytest.mark.parametrize("nodes", [4, 5, 6])
def test_the_growth_view_judges_every_year_by_the_sizers_rules_and_agrees_with_the_verdict(cat, nodes):
    """Customer-engineer walk 2026-12-01: the proposal of the what-if design on 5 servers said "Today's demand needs
    4 servers; the design's 5 are sized for the grown demand. The design's 5 servers carry the demand to year 5"
    beside a table whose year 3, the demand itself, needed 4, and a verdict failing the capacity drives' endurance at
    that demand; on 4 servers, "not met", it said "carry the demand to year 3". The years judged capacity, latency,
    vCPUs, cores and RAM, not the drives' endurance and the sizer's other rules. Each year's servers are now the
    fewest check_design finds feasible on that year's demand, the year the growth period ends is the verdict, and the
    sentence says what the design's servers do not carry."""
    from planner.physics.rules import rule_of
    from planner.sizing.checks import check_design

    demand = _demand("demand-hammerdb.json")
    design = parse_design(json.dumps({**WHATIF_DESIGN, "nodes": nodes}))
    rd = resolve(design, cat)
    view = multi_year(rd, demand)
    verdict = check_design(rd, demand)

    def feasible(n: int, dem: Demand) -> bool:
        return check_design(resolve(with_overrides(design, nodes=n), cat), dem)["feasible"]

    for y in view["years"]:
        year = demand.model_copy(update={"growth_pct": 100.0 * (y["demand_ratio"] - 1.0)})
        assert y["nodes_needed"] == next((n for n in range(3, 17) if feasible(n, year)), None), y
        assert y["fits_current"] == feasible(nodes, year), y
    period = view["years"][demand.growth_period_months // 12]  # year 3: the demand the sizer sizes, the verdict's
    assert period["iops"] == pytest.approx(demand.totals()[0]) and period["fits_current"] == verdict["feasible"]
    assert view["sized"]["fails"] == [f for f in verdict["fails"] if f not in NOT_CARRYING_RULES]
    said = view["sentence"]
    assert "sized for the grown demand" not in said, said
    endurance = rule_of("drive_endurance").title
    if not verdict["feasible"]:  # 4 and 5 servers: the drives' rated writes do not last the 36 months at year 3
        assert view["sized"]["fails"] == ["drive_endurance"]
        assert f"On the design's {nodes} servers the demand with its growth (+20 % over 36 months) is not met: " in said
        assert f"{endurance}; {view['sized']['nodes_needed']} servers carry it." in said, said
        first = view["first_year_needing_more_nodes"]
        assert first is not None and first <= 3, view
        assert not re.search(r"carry the demand to year [3-9]", said), said
    else:  # 6 servers: what the demand needs at year 3, more than today's
        assert endurance not in said
        assert said.startswith(
            f"Today's demand needs {view['years'][0]['nodes_needed']} servers; the design's 6 are "
            "what the demand with its growth (+20 % over 36 months) needs."
        ), said


def test_the_growth_rule_holds_only_where_every_rule_judged_on_the_grown_demand_does(cat):
    """Customer-engineer walk 2026-12-01: the what-if design on 5 servers failed the capacity drives' endurance at the
    grown demand (2.6 years of rated writes against 36 months) while its growth rule read "sized for +20 % growth over
    36 months", passed, beside a Growth section saying the demand with its growth is not met. The growth rule sums up
    every rule judged on the grown demand: the drives' endurance and a database VM's IOPS too."""
    from planner.sizing.checks import check_design

    demand = _demand("demand-hammerdb.json")
    five = check_design(resolve(parse_design(json.dumps(WHATIF_DESIGN)), cat), demand)
    assert "drive_endurance" in five["fails"] and not five["checks"]["growth"]["passed"], five["checks"]["growth"]
    assert five["checks"]["growth"]["reason"].startswith("the demand with +20 % growth over 36 months is not met")
    six = check_design(resolve(parse_design(json.dumps({**WHATIF_DESIGN, "nodes": 6})), cat), demand)
    assert six["feasible"] and six["checks"]["growth"]["reason"] == "sized for +20 % growth over 36 months"


# --------------------------------------------------------------------------- the proposal's words


@pytest.fixture(scope="module")
def al_proposal(cat):
    demand = _demand()
    d = _ref(platform="azure-local")
    return build(
        d,
        demand_as_workload(demand, d.nodes),
        demand=demand,
        costs=CostAssumptions(sql_edition="enterprise"),
        catalog=cat,
        meta={"customer": "Contoso", "date": "2026-11-28"},
    )


def _format_texts(p) -> dict:
    import io

    import docx
    import openpyxl

    out = {"html": " ".join(re.sub(r"<[^>]+>", " ", render(p, "html").decode()).split())}
    d = docx.Document(io.BytesIO(render(p, "docx")))
    out["docx"] = " ".join(
        " ".join([x.text for x in d.paragraphs] + [c.text for t in d.tables for r in t.rows for c in r.cells]).split()
    )
    wb = openpyxl.load_workbook(io.BytesIO(render(p, "xlsx")))
    out["xlsx"] = " ".join(str(c) for c in wb["Service tiers"].iter_cols(values_only=True) for c in c if c is not None)
    return out


def test_the_tier_prices_say_what_they_share_out_and_leave_out(al_proposal):
    """The proposal headlined the whole cost ($127,385/month with SQL Server Enterprise) while the tier
    prices rest on the servers' cost ($21,602), and said only 'price = cost share / 70% fill /
    (1 - 30% margin)'."""
    p = al_proposal
    cost, tiers = p["cost"], p["tier_prices"]
    base = tier_cost_base(tiers, cost)
    cluster = tiers["monthly_cost"]["per_cluster"]["total_usd_per_month"]
    sql, net = cost["monthly"]["sql_server_usd_per_month"], cost["network"]["usd_per_month"]
    assert base["cluster_usd_per_month"] == cluster and base["sql_server_usd_per_month"] == sql > 0
    # the three parts are the whole cost: nothing counted twice, nothing lost
    assert cluster + sql + net == pytest.approx(cost["monthly"]["total_usd_per_month"], rel=1e-9)
    html_text = html.unescape(_format_texts(p)["html"])
    for fmt, text in {**_format_texts(p), "html": html_text}.items():
        # in whole dollars as the cost table (account-manager walk 2026-11-30), each rounded so that the parts said
        # add to the whole said (finance walk 2026-11-30: "$3,453 ... $560 ... the whole cost of $4,014")
        shown = adding_up([cluster, net, sql], 0)
        assert sum(shown) == round(cost["monthly"]["total_usd_per_month"])
        for figure in (*shown, sum(shown)):
            assert f"${figure:,.0f} a month" in text, (fmt, figure)
        assert "SQL Server's licences" in text and "leave out the network" in text, fmt
    # without a whole cost the sentence still says what is left out, without figures
    assert (
        "leave out the network (switches, optics and cables) and SQL Server's licences"
        in (tier_cost_base(tiers)["text"])
    )


def test_the_host_fee_alone_says_it_leaves_the_windows_guests_unlicensed(cat):
    """Finance walk 2026-11-30: Licensing = "Azure Local host fee" cut the SLA page's cluster cost from $8,045.33 to
    $6,239.73 and Standard from $210.50 to $163.26 a month, and the tier-price note said the prices leave out "the
    network ... and SQL Server's licences" only: the Windows Server guests were unlicensed without a word. The cost
    JSON's notes, the tier-price note (SLA page and proposal) and every format of the proposal say it."""
    import io

    import openpyxl

    from planner.commercial.licensing import AZURE_LOCAL_GUESTS_NOTE, licence_options

    demand = _demand()
    d = _ref(platform="azure-local")
    p = build(
        d,
        demand_as_workload(demand, d.nodes),
        demand=demand,
        costs=CostAssumptions(licence_option="azure-local"),
        catalog=cat,
        meta={"customer": "Contoso", "date": "2026-11-28"},
    )
    cost = p["cost"]
    assert cost["licence_option"] == "azure-local" and not cost["windows_guests_included"]
    assert AZURE_LOCAL_GUESTS_NOTE in cost["notes"] and cost["windows_guests_note"] == AZURE_LOCAL_GUESTS_NOTE
    assert p["tier_prices"]["monthly_cost"]["windows_guests_note"] == AZURE_LOCAL_GUESTS_NOTE
    said = "host fee does not license the Windows Server guests the databases run in"
    assert said in tier_cost_base(p["tier_prices"], cost)["text"] and said in tier_cost_base(p["tier_prices"])["text"]
    texts = _format_texts(p)
    wb = openpyxl.load_workbook(io.BytesIO(render(p, "xlsx")))
    texts["xlsx cost"] = " ".join(str(c) for r in wb["Cost and TCO"].iter_rows(values_only=True) for c in r if c)
    for fmt, text in texts.items():
        assert said in html.unescape(text), fmt
    # the options side by side say it beside the one that leaves them out, and only there
    rows = licence_options(32, 2, 4, CostAssumptions())
    assert [r["option"] for r in rows if r.get("guests_note")] == ["azure-local"]
    assert all(r["windows_guests_included"] == ("guests_note" not in r) for r in rows)
    # a licence that covers the guests says nothing of them
    for opt in ("azure-local-datacenter", "azure-local-windows", "windows-server-datacenter"):
        tp = tier_prices(resolve(d, cat), default_tiers(), CostAssumptions(licence_option=opt))
        assert tp["monthly_cost"]["windows_guests_included"] and said not in tier_cost_base(tp)["text"], opt


def test_the_price_appendix_names_the_sql_server_source_and_the_support_base(al_proposal):
    p = al_proposal
    sql = p["cost"]["sql_server"]
    assert sql["estimated"] and "Redress Compliance" in sql["seen"]
    text = html.unescape(_format_texts(p)["html"])
    assert f"SQL Server: {sql['seen']}" in text and sql["seen"].startswith("estimated list price")
    # the platform's licence, seen only in quotations of Microsoft's page, is an estimate too (only
    # SQL Server's said so)
    assert "Licence prices: estimated list price, " in text
    assert "of the hardware and network price per year" in text  # as the cost table says
    assert "of the hardware price per year" not in text


def test_scenario_save_keeps_the_platform_alone(tmp_path, capsys):
    """`hciplan scenario save ... --platform azure-local` stored costs null: only --costs, --quotes and
    --sql were looked at."""
    db = str(tmp_path / "s.db")
    demand = str(EX / "demand-200dbs.json")
    for flag, field, value in (
        ("--platform", "platform", "azure-local"),
        ("--sql-licensing", "sql_licensing", "bring-your-own"),
    ):
        _run(capsys, ["scenario", "save", "s", "--demand", demand, flag, value, "--db", db])
        costs = _run(capsys, ["scenario", "show", "s", "--db", db])["costs"]
        assert costs is not None and costs[field] == value
    _run(capsys, ["scenario", "save", "plain", "--demand", demand, "--db", db])
    assert _run(capsys, ["scenario", "show", "plain", "--db", db])["costs"] is None


def test_the_networks_two_monthly_figures_say_which_is_which(capsys):
    """CLI review 2026-11-30: `cost examples/ceph-6node-reef.json` printed network.usd_per_month 1,989.91 and
    monthly.network_usd_per_month 1,433.89 for one network, with no word which is which."""
    from planner.models.design import load_design

    c = whole_cost(load_design(ROOT / "examples" / "ceph-6node-reef.json"))
    n, m = c["network"], c["monthly"]
    assert n["usd_per_month"] > m["network_usd_per_month"] == pytest.approx(n["total_usd"] / c["amortisation_months"])
    assert "support, power and rack space" in n["usd_per_month_note"] and "purchase alone" in n["usd_per_month_note"]


def test_sql_server_licences_at_the_grown_count_are_said():
    """CLI review 2026-11-30: `cost --sql enterprise` of the 20-database HammerDB demand (+20 % growth) charged 24
    VMs' licences for all 36 months with no word that 20 run today."""
    from planner.commercial.pricing import CostAssumptions
    from planner.models.demand import Demand
    from planner.models.design import load_design

    d = Demand.model_validate_json((ROOT / "examples" / "demand-hammerdb.json").read_text())
    c = whole_cost(load_design(ROOT / "examples" / "reference.json"), d, CostAssumptions(sql_edition="enterprise"))
    assert any(
        "count the 24 database VMs after the demand's growth from the first month (20 today)" in n for n in c["notes"]
    )
    flat = d.model_copy(update={"growth_pct": 0})
    c = whole_cost(load_design(ROOT / "examples" / "reference.json"), flat, CostAssumptions(sql_edition="enterprise"))
    assert not any("after the demand's growth" in n for n in c["notes"])


def test_a_tier_price_reads_to_the_cent_in_every_format(al_proposal):
    """Finance walk 2026-11-30: the page, its CSV and the workbook said "$309.56", the PDF and Word "$310" ("$18"
    for $18.35)."""
    p = al_proposal
    texts = _format_texts(p)
    for name, pr in p["tier_prices"]["tiers"].items():
        if pr["price_usd_per_month"] is None:
            continue
        said = f"${pr['price_usd_per_month']:,.2f}"
        for fmt in ("html", "docx"):
            assert said in html.unescape(texts[fmt]), (fmt, name, said)


@pytest.mark.parametrize("nodes", [3, 4, 5, 6, 7, 8])
def test_a_cost_table_whose_rounded_lines_do_not_add_up_says_so_in_the_document(nodes):
    """Presales walk 2026-11-30: the cost table's monthly lines, each to the dollar, added up to $18,159 beside a
    total of $18,158, in the page, the PDF and Word, with no word. Where the rounded lines do not add up to the
    rounded total, one sentence gives both sums (and only then); the document carries it under the table."""
    from planner.commercial.tco import rounding_note
    from planner.sizing.document import _cost_blocks

    demand = Demand.model_validate_json((ROOT / "examples" / "demand-200dbs-azure-local.json").read_text())
    design = load_design(ROOT / "examples" / "sas-4node.json").model_copy(update={"nodes": nodes})
    cost = whole_cost(design, demand)
    note = rounding_note(cost)
    per_month = sum(round(x["usd_per_month"]) for x in cost["lines"])
    bought = sum(round(x["upfront_usd"]) for x in cost["lines"])
    adds_up = per_month == round(cost["monthly"]["total_usd_per_month"]) and bought == round(
        sum(cost["upfront"].values())
    )
    assert (note is None) == adds_up
    if note is not None:
        assert f"${per_month:,.0f} per month" in note or f"${bought:,.0f} of purchases" in note
    said = json.dumps(_cost_blocks(cost))
    assert (note is not None and json.dumps(note)[1:-1] in said) or (
        note is None and "Each line is rounded to the dollar" not in said
    )


def test_the_two_purchase_figures_of_a_cost_say_which_is_which(capsys):
    """CLI fuzzing 2026-11-30: `cost` printed capex_usd 76,978 (hardware and network) and tco[].upfront_usd
    107,447.5 (with the perpetual licences, the workbook's "Total purchase") with no word of the difference."""
    assert main(["cost", str(ROOT / "examples" / "reference.json")]) == 0
    out = json.loads(capsys.readouterr().out)
    c = out.get("cost", out)
    assert c["capex_usd"] < sum(c["upfront"].values()) == c["tco"][0]["upfront_usd"]
    assert c["capex_usd_note"].endswith(f"${sum(c['upfront'].values()):,.2f}")


def test_a_cost_for_a_demand_says_whether_the_design_holds_it(capsys):
    """API walk 2026-11-30: `cost examples/reference.json --demand examples/demand-200dbs-azure-local.json
    --sql standard` priced SQL Server for 240 VMs on a 9 TB, 576-vCPU cluster against a 216 TB demand, with
    no word that the design cannot hold it."""
    ref, al = str(EX / "reference.json"), str(EX / "demand-200dbs-azure-local.json")
    out = _run(capsys, ["cost", ref, "--demand", al, "--sql", "standard"])
    assert out["demand_fit"]["met"] is False and "not met" in out["demand_fit"]["summary"]
    assert out["demand_fit"]["note"] in out["notes"]
    # a system the sizing rules do not judge says so; no demand, no fit
    assert _run(capsys, ["cost", str(EX / "san-raid5.json"), "--demand", al])["demand_fit"]["met"] is None
    assert "demand_fit" not in _run(capsys, ["cost", ref])


def test_the_tier_note_says_the_whole_cost_includes_only_what_it_counts(cat):
    """CFO read 2026-11-30: "They leave out the network (...) and SQL Server's licences, which the whole cost of
    $4,733.68 a month includes" beside the cost's SQL Server line "$0 ... not counted"."""
    design = load_design(EX / "reference.json")
    a = CostAssumptions()
    cost = whole_cost(design, None, a, cat)
    assert cost["sql_server"] is None
    text = tier_cost_base(tier_prices(resolve(design, cat), default_tiers(), a), cost)["text"]
    whole = cost["monthly"]["total_usd_per_month"]
    assert (
        f"space), which the whole cost of ${whole:,.0f} a month includes, and SQL Server's licences, which it " in text
    )
    assert "does not count: charge them on top of the tier prices." in text
    assert "SQL Server's licences, which the whole cost" not in text


def test_unit_prices_multiply_to_their_lines_and_tco_rows_say_when_rounding_moves_them(cat):
    """CFO read 2026-11-30: "2,304 x $8.94 = $20,592" (the rate is $8.9375 a GB) and the workbook stored 8.94, so a
    formula disagreed; a TCO row read $521,815 + $233,914 beside a total of $755,730 with no word."""
    import io

    import openpyxl

    from planner.commercial.tco import tco_rounding_note
    from planner.sizing.document import _cost_blocks, document, unit_usd
    from planner.sizing.proposal import build

    assert unit_usd(8.9375) == "$8.9375" and unit_usd(3286.0) == "$3,286.00" and unit_usd(0.125) == "$0.125"
    design = load_design(EX / "reference.json")
    d = _demand("demand-200dbs-azure-local.json")
    p = build(design, demand_as_workload(d, design.nodes), demand=d, catalog=cat)
    # the reference's 768 GB a node: 12 x 64 GB DIMMs (it was 2,304 GB at $8.9375 a GB; planner.physics.dimms)
    ram = next(x for x in p["cost"]["parts"] if x["role"] == "memory")
    assert ram["unit_price_usd"] == 572.0 and ram["quantity"] == 36
    parts = next(b for s in document(p)["sections"] for b in s["blocks"] if b.get("name") == "parts")
    assert next(r for r in parts["rows"] if r[0] == ram["description"])[2] == "$572.00"
    ws = openpyxl.load_workbook(io.BytesIO(render(p, "xlsx")))["Parts list"]
    row = next(r for r in ws.iter_rows(min_row=5) if r[0].value == ram["description"])
    assert row[1].value * row[2].value == row[3].value == 20592
    cost = {**p["cost"], "tco": [{"years": 3, "upfront_usd": 521815.4, "running_usd": 233914.4, "total_usd": 755729.8}]}
    note = tco_rounding_note(cost)
    assert note is not None and "the 3-year row's as shown add up to $755,729 (total $755,730)" in note
    assert note in json.dumps(_cost_blocks(cost))
    assert tco_rounding_note(p["cost"]) is None or "row's as shown" in tco_rounding_note(p["cost"])


def test_the_power_line_multiplies_out(capsys):
    """CFO read 2026-11-30: "1,808 W typical x PUE 1.5 x $0.12 per kWh" gave no hours; the line multiplies out."""
    out = _run(capsys, ["cost", str(EX / "reference.json")])
    line = next(x for x in out["lines"] if x["key"] == "power")
    m = re.match(
        r"([\d,]+) W typical x PUE ([\d.]+)(?: \([^)]*\))? x ([\d.]+) h a month x \$([\d.]+) per kWh", line["basis"]
    )
    assert m, line["basis"]
    w, pue, h, usd = float(m[1].replace(",", "")), float(m[2]), float(m[3]), float(m[4])
    assert w * pue * h / 1000 * usd == pytest.approx(line["usd_per_month"], rel=1e-3)
