"""Bill of materials, licensing options and DIMM sets."""

import json
from pathlib import Path

import pytest

from planner.cli import main
from planner.commercial.bom import bom
from planner.commercial.licensing import licence_options, licensing_data
from planner.commercial.pricing import CostAssumptions, capex_usd, monthly_cost
from planner.commercial.tco import whole_cost
from planner.core.errors import DesignError
from planner.models.catalog import load_catalog
from planner.models.design import load_design, parse_design, resolve
from planner.physics.power import BTU_H_PER_W

EX = Path(__file__).resolve().parent.parent / "examples"


def _sized_design() -> dict:
    return {
        "name": "r760",
        "nodes": 4,
        "resiliency": "mirror-3way",
        "node": {
            "chassis": "dell-ax-760",
            "cpu": {"model": "intel-xeon-gold-6430", "sockets": 2},
            "ram_gb": 1024,
            "dimms": {"model": "ddr5-64gb-rdimm-4800", "count": 16},
            "capacity_drives": {"model": "micron-7450-pro-7.68tb", "count": 8},
            "nics": {"model": "nvidia-cx6-lx-2x25g"},
        },
    }


@pytest.mark.parametrize(
    "design,switch,overrides",
    [
        (_sized_design(), None, {}),
        (_sized_design(), "dell-s5248f-on", {"micron-7450-pro-7.68tb": 612.5}),
        ("reference", None, {}),  # no DIMMs named: RAM built of the catalog's modules
    ],
)
def test_bom_totals_equal_the_priced_cost(design, switch, overrides):
    d = load_design(EX / "reference.json") if design == "reference" else parse_design(design)
    rd = resolve(d)
    a = CostAssumptions(part_prices_usd=overrides, switch_model=switch)
    b = bom(rd, a)
    whole = whole_cost(d, None, a)
    # the parts list is the whole cost's purchase: its servers and the same network
    assert b["servers_usd"] == pytest.approx(capex_usd(rd, a), rel=1e-12)
    assert b["servers_usd"] == pytest.approx(monthly_cost(rd, a)["capex_usd"], rel=1e-12)
    assert b["total_usd"] == pytest.approx(whole["capex_usd"], rel=1e-12)
    assert b["network_usd"] == pytest.approx(whole["network"]["total_usd"], rel=1e-12) and b["network_usd"] > 0
    assert b["rack_units"] == whole["rack_units"] and b["power_w"] == pytest.approx(whole["power_w"])
    assert sum(x["total_usd"] for x in b["lines"]) == pytest.approx(b["total_usd"])
    for x in b["lines"]:
        assert x["total_usd"] == pytest.approx(x["unit_price_usd"] * x["quantity"])
    assert {x["role"] for x in b["lines"] if x["quantity_per_node"] is None} == {"switch", "peer link", "cable"}
    assert b["heat_btu_h"] == pytest.approx(b["power_w"] * 3.412) and BTU_H_PER_W == 3.412
    if overrides:
        line = next(x for x in b["lines"] if x["part"] == "micron-7450-pro-7.68tb")
        assert line["unit_price_usd"] == 612.5 and not line["price_estimated"]
    if switch:
        assert any(x["part"] == switch and x["quantity"] == 2 for x in b["lines"])


def test_bom_and_cost_commands_price_the_same_network(capsys, tmp_path):
    """Review 2026-11-29: `bom --switch` added two switches and no cables, optics or peer links, and
    `bom` alone no network at all, where `cost` and the proposal priced the network they pick."""
    ref = str(EX / "reference.json")
    for extra in ([], ["--switch", "dell-s5248f-on", "--switches", "4"]):
        assert main(["bom", ref, *extra]) == 0
        b = json.loads(capsys.readouterr().out)
        costs = tmp_path / "costs.json"
        costs.write_text(json.dumps({"switch_model": extra[1], "switch_count": 4} if extra else {}))
        assert main(["cost", ref, "--costs", str(costs)]) == 0
        c = json.loads(capsys.readouterr().out)
        assert b["total_usd"] == pytest.approx(c["capex_usd"]) and b["network"]["switches"] == (4 if extra else 2)
        assert [(x["part"], x["quantity"]) for x in b["lines"] if x["quantity_per_node"] is None] == [
            (x["part"], x["quantity"]) for x in c["network"]["lines"]
        ]


@pytest.mark.parametrize(
    "design,flags,err",
    [
        ("reference.json", ["--switches", "-1"], "error: switches: must be 1 to 16 switches (got -1)\n"),
        ("reference.json", ["--switch", "nope"], "error: switch: unknown switch id 'nope'; one of "),
        (
            "nvme-pmem-12node.json",
            ["--switch", "dell-s5248f-on"],
            "error: switch: switch 'dell-s5248f-on' has no port for the servers' 100 GbE links (its ports: 25, 10 GbE)\n",
        ),
    ],
)
def test_a_switch_the_servers_cannot_use_is_refused(capsys, design, flags, err):
    """A chosen switch whose ports do not take the NICs' speed priced a network that does not work."""
    assert main(["bom", str(EX / design), *flags]) == 2
    assert capsys.readouterr().err.startswith(err)


def test_dimms_are_priced_and_powered_as_parts():
    """Named DIMMs are priced and powered as parts; the same RAM as a total is the cheapest set of the catalog's
    modules its slots hold (planner.physics.dimms), priced and powered as parts too: 1,024 GB on an AX-760 is 32 x
    32 GB ($999.99 each) where the sized design names 16 x 64 GB ($2,952.99). It was priced per GB and drew no
    power (presales walk 2026-12-01)."""
    d = _sized_design()
    rd = resolve(parse_design(d))
    no_dimm = dict(d, node={k: v for k, v in d["node"].items() if k != "dimms"})
    rd0 = resolve(parse_design(no_dimm))
    a = CostAssumptions()
    dimm = rd.node.dimm
    built = next(x for x in bom(rd0)["lines"] if x["role"] == "memory")
    assert (built["part"], built["quantity_per_node"]) == ("ddr5-32gb-rdimm-4800", 32)
    assert built["description"].startswith("32 x 32 GB DIMM per node: ")
    small = load_catalog().memory_module["ddr5-32gb-rdimm-4800"]
    assert capex_usd(rd, a) - capex_usd(rd0, a) == pytest.approx(
        4 * (16 * dimm.list_price_usd - 32 * small.list_price_usd)
    )
    assert bom(rd)["power_w"] - bom(rd0)["power_w"] == pytest.approx(4 * (16 * dimm.power_w - 32 * small.power_w))


def test_ram_given_per_gb_costs_what_the_cpus_memory_costs():
    """CLI review 2026-11-30: `cost examples/ceph-6node-reef.json` priced its 768 GB per node at $8.94 a GB
    (the DDR4 figure) on a DDR5-only EPYC 9354: $41,196, and $143,999 with the DIMMs named; the sizer names
    DIMMs, a hand-written design does not, so comparisons between the two were skewed 3.5x. A node's RAM total
    is now DDR5 DIMMs of the catalog (24 x 32 GB); RAM given per GB (a server named by CPU and RAM only) costs the
    catalog's cheapest module per GB of the CPU's memory."""
    from planner.commercial.pricing import ram_usd_per_gb

    rd = resolve(load_design(EX / "ceph-6node-reef.json"))
    assert rd.node.cpu.memory_type == "ddr5" and rd.node.dimm is None
    a = CostAssumptions()
    per_gb, basis = ram_usd_per_gb(a, rd.node.cpu)
    ddr5 = [m for m in load_catalog().of("memory_module").values() if m.memory_type == "ddr5"]
    assert per_gb == pytest.approx(min(m.list_price_usd / m.capacity_gb for m in ddr5)) and "DDR5" in basis
    line = next(x for x in bom(rd)["lines"] if x["role"] == "memory")
    assert line["part"] == "ddr5-32gb-rdimm-4800" and line["quantity_per_node"] == 24
    assert line["unit_price_usd"] / 32 == pytest.approx(per_gb)
    assert whole_cost(rd.design)["capex_usd"] == pytest.approx(bom(rd)["total_usd"])
    # a figure given is used as given
    assert ram_usd_per_gb(CostAssumptions(ram_usd_per_gb=5.0), rd.node.cpu)[0] == 5.0


def test_licensing_options_side_by_side():
    a = CostAssumptions(amortisation_months=36)
    opts = {o["option"]: o for o in licence_options(32, 2, 4, a)}
    cores = 32 * 2 * 4
    assert opts["azure-local"]["usd_per_month"] == pytest.approx(cores * a.azure_local_usd_per_core_month)
    assert opts["azure-local-windows"]["usd_per_month"] == pytest.approx(
        cores * (a.azure_local_usd_per_core_month + a.windows_subscription_usd_per_core_month)
    )
    dc = opts["windows-server-datacenter"]
    assert dc["total_usd"] == pytest.approx(cores * a.windows_datacenter_usd_per_core)
    assert dc["usd_per_month"] == pytest.approx(dc["total_usd"] / 36)
    for o in opts.values():
        assert o["total_usd"] == pytest.approx(o["usd_per_month"] * 36) and o["source"]
    # 16-core minimum per server, 8 per CPU
    small = {o["option"]: o for o in licence_options(4, 1, 2, a)}
    assert small["windows-server-datacenter"]["cores_billed"] == 32 and small["azure-local"]["cores_billed"] == 8
    # the default price is the 2025 Datacenter 16-core pack in planner/data/licensing.json, dated
    pack = licensing_data()["options"]["windows-server-2025-datacenter"]["usd_per_16_core_pack"]
    assert a.windows_datacenter_usd_per_core == pytest.approx(pack / 16)
    assert licensing_data()["date_compiled"]


def test_licence_option_switches_the_priced_line():
    rd = resolve(parse_design(_sized_design()))
    lines = {
        opt: monthly_cost(rd, CostAssumptions(licence_option=opt))["per_node"]["licence_usd_per_month"]
        for opt in ("windows-server-datacenter", "azure-local", "azure-local-windows")
    }
    assert lines["azure-local"] == pytest.approx(64 * 10.0)
    assert lines["azure-local-windows"] > lines["azure-local"]


def test_bom_cli(tmp_path, capsys):
    f = tmp_path / "d.json"
    f.write_text(json.dumps(_sized_design()))
    assert main(["bom", str(f), "--switch", "nvidia-sn2010", "--switches", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"lines", "total_usd", "rack_units", "power_w", "heat_btu_h", "licensing"} <= set(out)
    for x in out["lines"]:
        assert {"part", "quantity", "unit_price_usd", "total_usd"} <= set(x)
    assert {o["option"] for o in out["licensing"]} == {
        "azure-local",
        "azure-local-windows",
        "azure-local-datacenter",
        "windows-server-datacenter",
    }
    assert all({"total_usd", "usd_per_month"} <= set(o) for o in out["licensing"])
    assert main(["bom", str(f), "--switch", "no-such-switch"]) == 2
    assert capsys.readouterr().err.startswith("error: switch: unknown switch id 'no-such-switch'")
    assert main(["bom", str(f), "--switches", "4"]) == 0  # more of the switches it picks
    assert json.loads(capsys.readouterr().out)["network"]["switches"] == 4


@pytest.mark.parametrize(
    "change,field",
    [
        ({"ram_gb": 1000}, "node.ram_gb"),
        ({"dimms": {"model": "ddr4-64gb-rdimm-3200", "count": 16}}, "node.dimms.model"),
        ({"dimms": {"model": "ddr5-32gb-rdimm-4800", "count": 40}, "ram_gb": 1280}, "node.dimms.count"),
        ({"dimms": {"model": "no-such-dimm", "count": 16}}, "node.dimms.model"),
    ],
)
def test_dimm_errors_name_the_field(change, field):
    d = _sized_design()
    d["node"] = {**d["node"], **change}
    with pytest.raises(DesignError) as e:
        resolve(parse_design(d))
    assert e.value.field == field


def test_the_months_scope_is_said():
    """CLI review 2026-11-29: bom's monthly_cost.capex_usd (the servers, 63,714) stood beside total_usd
    (with the network, 76,984) with no word why."""
    from planner.commercial.bom import bom
    from planner.models.design import load_design, resolve

    b = bom(resolve(load_design("examples/reference.json")))
    assert b["monthly_cost"]["capex_usd"] == pytest.approx(b["servers_usd"])
    assert b["total_usd"] > b["servers_usd"]
    assert "servers" in b["monthly_cost_note"] and "network.usd_per_month" in b["monthly_cost_note"]


def test_a_disaggregated_designs_client_servers_are_in_the_list():
    """CLI review 2026-11-29: `bom examples/ceph-disaggregated.json` listed the storage nodes only (186,375 USD,
    12 rack units) while cabling the 8 client servers; `cost` counted them (324,731 USD, 20 rack units)."""
    d = load_design(EX / "ceph-disaggregated.json")
    b, whole = bom(resolve(d)), whole_cost(d)
    assert b["total_usd"] == pytest.approx(whole["capex_usd"], rel=1e-12)
    assert b["rack_units"] == whole["rack_units"] and b["power_w"] == pytest.approx(whole["power_w"])
    assert b["physical_cores"] == whole["physical_cores"] and "and the client servers'" in b["monthly_cost_note"]
    # the servers' month (what tier prices share out) is the storage nodes' and the clients' (it was the nodes')
    assert b["monthly_cost"]["capex_usd"] == pytest.approx(b["servers_usd"], rel=1e-12)
    clients = [x for x in b["lines"] if x.get("group") == "client server"]
    # their RAM is DIMMs, as the storage nodes' is (planner.physics.dimms: one rule for every server bought)
    assert {x["role"] for x in clients} >= {"cpu", "memory"} and all(x["quantity_per_node"] is None for x in clients)
    assert sum(x["total_usd"] for x in b["lines"]) == pytest.approx(b["total_usd"])


def test_a_disaggregated_designs_tiers_run_on_its_client_servers():
    """CLI review 2026-11-29: `price examples/ceph-disaggregated.json` fitted every tier in the storage
    nodes' RAM (5 x 384 GB: "limited by RAM", 181 Standard databases) where the databases run on the 8
    client servers (1,024 GB each), and shared out the storage nodes' month alone (5,636 USD of 11,481)."""
    from planner.commercial.pricing import tier_prices
    from planner.commercial.tiers import fit_mix
    from planner.models.tiers import default_tiers

    d = load_design(EX / "ceph-disaggregated.json")
    rd, whole = resolve(d), whole_cost(d)
    fit = fit_mix(rd, default_tiers())
    cl = rd.clients
    assert fit["ram_gb_available"] == pytest.approx((cl.ram_gb - d.host_reserve_gb) * cl.servers)
    assert fit["vcpus_available"] == pytest.approx(cl.threads * cl.servers * d.vcpu_oversubscription)
    n1 = fit_mix(rd, default_tiers(), n_plus_one=True)
    assert n1["ram_gb_available"] == pytest.approx((cl.ram_gb - d.host_reserve_gb) * (cl.servers - 1))
    assert all(t["limited_by"] != "ram" for t in fit["alone"].values())
    m = monthly_cost(rd)
    # the servers' month is the whole cost less the network's share, the client servers in it
    assert m["per_cluster"]["total_usd_per_month"] == pytest.approx(
        whole["monthly"]["total_usd_per_month"] - whole["network"]["usd_per_month"], rel=1e-9
    )
    assert m["client_servers"]["count"] == cl.servers
    tp = tier_prices(rd, default_tiers())
    assert tp["monthly_cost"]["per_cluster"] == m["per_cluster"]


def test_a_ceph_bom_names_its_own_licence_not_windows_prices():
    """CLI review 2026-11-30: `bom examples/ceph-6node-reef.json` printed "licence_option_in_monthly_cost":
    "windows-server-datacenter" and the Windows per-core prices beside its monthly cost's "ceph-upstream"."""
    b = bom(resolve(load_design(EX / "ceph-6node-reef.json")))
    assert b["assumptions"]["licence_option_in_monthly_cost"] == b["monthly_cost"]["licence_option"] == "ceph-upstream"
    # the Datacenter price is its Windows guests' (guest_os_licence), the Azure Local and subscription ones not
    assert [k for k in b["assumptions"] if k.startswith(("windows", "azure"))] == ["windows_datacenter_usd_per_core"]
    linux = bom(resolve(load_design(EX / "ceph-6node-reef.json")), CostAssumptions(guest_os_licence="none"))
    assert not any(k.startswith(("windows", "azure")) for k in linux["assumptions"])
    assert linux["assumptions"]["guest_os_licence"] == "none"
    s2d = bom(resolve(load_design(EX / "reference.json")))
    assert "windows_datacenter_usd_per_core" in s2d["assumptions"]


def test_price_names_each_tiers_limit_in_words_beside_its_code():
    """Pricing walk 2026-11-30: `price --n-plus-one` printed "limited_by": "reserved_iops (n+1)" where the
    pages say "IOPS reserved at the latency target, one node down"."""
    from planner.commercial.pricing import tier_prices
    from planner.commercial.tiers import limit_words
    from planner.models.tiers import default_tiers

    tp = tier_prices(resolve(load_design(EX / "reference.json")), default_tiers(), n_plus_one=True)
    for t in tp["tiers"].values():
        assert t["limited_by_words"] == limit_words(t["limited_by"])
        assert "_" not in t["limited_by_words"] and "(n+1)" not in t["limited_by_words"]
    assert any(t["limited_by_words"].endswith(", one node down") for t in tp["tiers"].values())


def test_a_parts_list_of_sas_or_sata_drives_says_their_hba_is_not_listed():
    """Hardware-architect walk: `bom examples/sas-4node.json` (SAS SSDs in an R640) noted the boot drives missing but
    not the storage HBA the drives hang off (Microsoft: "Simple pass-through SAS HBA for both SAS and SATA drives");
    an all-NVMe node needs none, and a RAID design's controller is its own line."""
    from planner.models.design import load_design, resolve

    ex = Path(__file__).resolve().parents[1] / "examples"

    def notes(name: str) -> list[str]:
        return bom(resolve(load_design(ex / name)))["notes"]

    hba = [n for n in notes("sas-4node.json") if "HBA" in n]
    assert hba == [
        "a storage HBA for the SAS/SATA drives of the nodes (a simple pass-through SAS HBA, as Microsoft asks of "
        "Storage Spaces Direct; Dell's AX nodes take the HBA355i) is not listed, priced or powered"
    ]
    assert not [n for n in notes("reference.json") if "HBA" in n]  # NVMe drives and PMem: no HBA
    from planner.commercial.tco import design_parts, needs_hba

    raid = design_parts(load_design(ex / "seed-dl580-raid1.json"), owned=True)  # SAS disks behind a Smart Array
    assert any(r == "raid controller" for g in raid for r, _, _ in g["parts"])
    assert not any(needs_hba(g["parts"]) for g in raid)


def test_a_switch_without_uplink_ports_joins_its_pair_over_its_own_ports():
    """Hardware-architect walk: an R760 cluster on ConnectX-6 Dx 2 x 100 GbE listed 2 NVIDIA SN3700 and no peer-link
    cable, while its 25 GbE twin listed "peer link 2 links between each pair"; the SN3700's record has no uplink
    ports ("uplinks come from the same 32 ports"), so all 32 counted as server ports. Two of them join the pair."""
    from planner.commercial.network import network_bom

    cat = load_catalog()
    cx6 = cat.nic["mellanox-cx6-dx-2x100g"]
    net = network_bom([(4, cx6, 1)], rdma=True, catalog=cat)
    roles = {x["role"]: x for x in net["lines"]}
    assert roles["switch"]["part"] == "nvidia-sn3700" and roles["switch"]["quantity"] == 2
    assert "30 server ports each (2 of its 32 join the pair)" in roles["switch"]["basis"]
    assert roles["peer link"]["part"] == "dac-qsfp28-100g-1m" and roles["peer link"]["quantity"] == 2
    # 62 server links fit one pair's 64 ports but not its 60 server ports: a second pair
    assert (
        next(x for x in network_bom([(31, cx6, 1)], True, catalog=cat)["lines"] if x["role"] == "switch")["quantity"]
        == 4
    )


def test_an_appliance_with_its_own_controllers_needs_no_hba_note():
    """Regression walk 2026-12-01: `cost examples/san-raid5.json` said "a storage HBA for the SAS/SATA drives of the
    storage arrays (... as Microsoft asks of Storage Spaces Direct ...) is not listed" of an FC SAN array, which has
    its own controllers; `split-provisioned` said it of its data node. A Storage Spaces server still says it."""
    from planner.commercial.tco import design_parts, unlisted_notes
    from planner.models.design import load_design

    ex = Path(__file__).resolve().parents[1] / "examples"
    for name, said in (("san-raid5", False), ("split-provisioned", False), ("sofs-2node-sas-tiered", True)):
        notes = unlisted_notes(design_parts(load_design(ex / f"{name}.json")))
        assert any("storage HBA" in n for n in notes) == said, (name, notes)
