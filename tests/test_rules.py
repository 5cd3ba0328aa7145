"""The named sizing rules: Microsoft's resiliency guidance, drive and cache
minimums, network and memory rules (planner.physics.rules)."""

from pathlib import Path

import numpy as np

from planner.physics import dimms as D
from planner.physics import rules as R
from planner.physics.capacity import RESILIENCY_CODES


def test_fault_tolerance_table():
    """Microsoft: nested on two servers survives a server and a drive; three-way
    mirror on three survives a node and a drive but not two nodes (pool quorum)."""
    code = RESILIENCY_CODES
    cases = {
        ("node", 2, "mirror-2way"): True,
        ("node", 2, "nested-mirror-2way"): True,
        ("node-and-drive", 2, "mirror-2way"): False,
        ("node-and-drive", 2, "nested-mirror-2way"): True,
        ("node-and-drive", 3, "mirror-3way"): True,
        ("two-nodes", 3, "mirror-3way"): False,
        ("two-nodes", 4, "mirror-3way"): True,
        ("two-nodes", 4, "parity-dual"): True,
        ("two-nodes", 2, "nested-mirror-2way"): False,
        ("node-and-drive", 5, "mirror-2way"): False,
    }
    for (ft, n, res), want in cases.items():
        assert bool(R.allowed_by_fault_tolerance(ft, n, code[res])) is want, (ft, n, res)
    assert not R.recommended_resiliency(3, code["mirror-2way"]) and R.recommended_resiliency(2, code["mirror-2way"])
    assert not R.recommended_resiliency(4, code["parity-single"])
    assert not R.mirror_for_databases(code["mirror-accelerated-parity"], False)
    assert R.mirror_for_databases(code["mirror-accelerated-parity"], True)


def test_drive_and_cache_rules():
    # an HDD needs a cache; PMem never caches HDD; an NVMe caches NVMe only with more endurance
    assert not R.cache_media_ok(False, 0, 0.0, 1, 0.1)
    assert R.cache_media_ok(True, 3, 3.0, 1, 0.1) and not R.cache_media_ok(True, 4, 100.0, 1, 0.1)
    assert R.cache_media_ok(True, 3, 3.0, 3, 1.0) and not R.cache_media_ok(True, 3, 1.0, 3, 1.0)
    # a higher-endurance drive caching one of its own type is set up by hand, for NVMe and SSD alike (Microsoft,
    # "Understanding the storage pool cache"); SSD over SSD is only "not advised" ("Choose drives"): a
    # recommendation of its own, not this requirement
    assert R.cache_media_ok(True, 2, 10.0, 2, 1.0) and not R.cache_media_ok(True, 2, 1.0, 2, 1.0)
    assert not R.ssd_cache_over_ssd_ok(True, 2, 2) and R.ssd_cache_over_ssd_ok(True, 3, 3)
    assert R.ssd_cache_over_ssd_ok(True, 3, 2) and R.ssd_cache_over_ssd_ok(False, 0, 2)
    assert list(R.min_capacity_drives_ok(np.array([2, 3, 4]))) == [False, False, True]
    assert not R.capacity_multiple_of_cache_ok(True, 7, 2) and R.capacity_multiple_of_cache_ok(True, 8, 4)
    assert not R.hybrid_cache_ratio_ok(1, 1600.0, 64.0) and R.hybrid_cache_ratio_ok(1, 6400.0, 64.0)
    assert R.bay_form_factor("PowerEdge R760 (24 x 2.5in NVMe configuration)") == "2.5in"
    assert not R.drive_fits_bay("3.5in", "2.5in") and not R.drive_fits_bay("u.2", "e3.s")


def test_network_and_memory_rules():
    assert R.network_recommended_ok(3, False, False, 10.0)  # small, not all-NVMe: 10 GbE TCP is the minimum
    assert not R.network_recommended_ok(3, True, False, 10.0)  # all-NVMe beyond two nodes
    assert not R.network_recommended_ok(4, False, True, 10.0)  # 4+ nodes: 25 GbE
    assert R.network_recommended_ok(4, False, False, 10.0, override=True)
    assert D.dimm_counts(8, 2, 32) == [16, 32] and D.dimm_counts(12, 2, 24) == [24]
    assert D.usable_dimm_slots(32, 2, 2, 4) == 28


def _reference(**node_changes):
    import json
    from pathlib import Path

    from planner.models.catalog import load_catalog
    from planner.models.design import parse_design, resolve

    d = json.loads((Path(__file__).resolve().parent.parent / "examples" / "reference.json").read_text())
    d["node"].update(node_changes)
    return resolve(parse_design(d), load_catalog())


def test_a_hand_built_design_that_breaks_a_rule_says_so_in_its_warnings():
    """The Design page's figures come with the rule a design breaks (what the sizer would have rejected):
    named, with the design's own numbers and the source; a design within every rule gets none."""
    from planner.physics.rules import RULES, hardware_rules
    from planner.results.report import design_warnings, evaluate_report

    assert all(c["passed"] for c in hardware_rules(_reference()).values())
    assert design_warnings(_reference(), None) == []
    rd = _reference(capacity_drives={"model": "intel-p4510-1tb", "count": 3}, ram_gb=16)
    got = {w["check"]: w for w in design_warnings(rd, None)}
    assert set(got) >= {"min_capacity_drives", "ram_minimum"}
    assert got["min_capacity_drives"]["message"].startswith("Breaks a requirement, at least 4 capacity drives")
    assert "3 capacity drives per server" in got["min_capacity_drives"]["message"]
    assert RULES["ram_minimum"].source in got["ram_minimum"]["message"] and "16 GB RAM" in got["ram_minimum"]["message"]
    # every rule the sizer applies to hardware alone is one the Design page can name
    assert set(hardware_rules(rd)) <= set(RULES)
    rep = evaluate_report(rd.design)
    assert {"min_capacity_drives", "ram_minimum"} <= {w["check"] for w in rep["warnings"]}


def test_sizing_checks_are_the_hardware_rules_and_the_demands():
    """check_design = hardware_rules + the demand's rules: the same verdicts on the hardware."""
    from planner.models.demand import Demand
    from planner.physics.rules import hardware_rules
    from planner.sizing.checks import check_design

    rd = _reference(capacity_drives={"model": "intel-p4510-1tb", "count": 3})
    chk = check_design(rd, Demand(total_iops=10_000, capacity_tb=1, latency_target_ms=2.0), quick=True)
    hw = hardware_rules(rd)
    # the same verdicts and reasons (check_design adds 'not_applicable' to rules with nothing to judge)
    assert {k: {f: chk["checks"][k][f] for f in ("passed", "reason")} for k in hw} == hw
    assert "min_capacity_drives" in chk["fails"] and not chk["feasible"]


def test_the_cache_media_rule_is_not_applicable_without_a_cache():
    """Browser review 2026-11-29: a proposal's rules table said "Cache faster than capacity ... passed" for a
    design with no cache, beside the other cache rules' "not applicable (no cache tier)"."""
    from planner.models.demand import Demand
    from planner.models.design import load_design, resolve
    from planner.sizing.checks import check_design

    demand = Demand.model_validate_json(Path("examples/demand-200dbs.json").read_text())
    checks = check_design(resolve(load_design("examples/edge-2node.json")), demand)["checks"]
    assert checks["cache_media"]["passed"] and checks["cache_media"]["not_applicable"] == "no cache tier"
    with_cache = check_design(resolve(load_design("examples/reference.json")), demand)["checks"]
    assert "not_applicable" not in with_cache["cache_media"]


def test_the_bay_rule_says_what_does_not_fit():
    """Browser review 2026-11-29: an AX-760 with 3.5in SAS bays, 8 HDDs and an NVMe cache read "Breaks a
    requirement, drives fit the chassis bays: 10 drives in 12 sas/sata bays (3.5in); 3.5in sas drives"."""
    import json

    from planner.models.design import parse_design, resolve
    from planner.physics.rules import hardware_rules

    d = json.loads(Path("examples/reference.json").read_text())
    d["node"] |= {
        "chassis": "dell-ax-760-lff",
        "capacity_drives": {"model": "seagate-exos-x20-20tb-sas", "count": 8},
        "cache_devices": {"model": "intel-optane-p4800x-750gb", "count": 2},
    }
    d["node"]["cpu"] = {"model": "intel-xeon-gold-6448y", "sockets": 2}
    r = hardware_rules(resolve(parse_design(json.dumps(d))))["drive_bays"]
    assert not r["passed"] and r["reason"].endswith("the nvme cache devices have no nvme bay"), r


def test_microsofts_rdma_rule_asks_rdma_in_use_not_only_in_the_nic():
    """Browser review 2026-11-30: a 4-node all-NVMe S2D design set to TCP/IP showed "every part of the
    demand is met" and the proposal listed "RDMA and at least 25 GbE from 4 nodes ... passed", its RDMA
    NIC idle."""
    from planner.models.design import load_design, resolve
    from planner.physics.rules import hardware_rules

    d = load_design(Path(__file__).resolve().parent.parent / "examples" / "reference.json")
    assert d.transport == "rdma" and d.nodes < 4
    four = d.model_copy(update={"nodes": 4})
    assert hardware_rules(resolve(four))["network_rdma_25gbe"]["passed"]
    tcp = hardware_rules(resolve(four.model_copy(update={"transport": "tcp"})))["network_rdma_25gbe"]
    assert not tcp["passed"] and "the transport TCP/IP (RDMA not used)" in tcp["reason"]
    # the demand may accept it, as for a NIC without RDMA
    assert hardware_rules(resolve(four.model_copy(update={"transport": "tcp"})), True)["network_rdma_25gbe"]["passed"]


def test_a_vsan_designs_rules_never_call_its_performance_calibrated():
    """CLI review 2026-11-30: a vSAN proposal's rules read "healthy ... hciplan performance model (calibrated on
    measured clusters)" beside "one host down ... (vSAN performance is not calibrated)"."""
    from planner.physics.rules import VSAN_RULES

    assert not [r.name for r in VSAN_RULES.values() if "calibrated on measured clusters" in r.source]
    assert "not calibrated" in VSAN_RULES["iops_at_latency"].source


def test_every_rules_words_in_the_customers_document_name_what_your_refers_to():
    """Finance walk 2026-11-30: "its share of the demand's)" became "its share of your) within what its VM issues"
    in every proposal: the document's "the demand's" -> "your" left a possessive without its noun."""
    import re

    from planner.physics.rules import RULES_BY_STACK
    from planner.sizing.document import rule_text

    for stack, table in RULES_BY_STACK.items():
        for rule in table.values():
            for text in (rule.title, rule.source):
                words = rule_text(text)
                assert not re.search(r"\byour\s*(?:[),.;:]|$)", words), (stack, rule.name, words)


def test_ssd_cache_over_ssd_is_against_a_recommendation_not_a_requirement():
    """S2D audit: examples/sas-4node.json (Micron S650DC, 9.6 DWPD, caching S630DC, 1.99 DWPD) read "Breaks a
    requirement ... SAS SSD cache over SAS SSD" while Microsoft says only that it "isn't advised" (*Choose drives*)
    and offers it ("You have the option to manually configure higher-endurance drives to cache for lower-endurance
    drives of the same type", *Understanding the storage pool cache*), as for NVMe over NVMe."""
    from planner.models.design import load_design, resolve
    from planner.results.report import design_warnings

    rd = resolve(load_design("examples/sas-4node.json"))
    hw = R.hardware_rules(rd)
    assert hw["cache_media"]["passed"]
    assert not hw["ssd_cache_over_ssd"]["passed"] and hw["ssd_cache_over_ssd"]["reason"] == (
        "SAS SSD cache over SAS SSD"
    )
    rule = R.rule_of("ssd_cache_over_ssd")
    assert rule.kind == "recommendation"
    assert "isn't advised" in rule.source and "lower-endurance drives of the same type" in rule.source
    msgs = [w["message"] for w in design_warnings(rd, None)]
    assert not any(m.startswith("Breaks a requirement") and "cache" in m for m in msgs)
    assert any(m.startswith("Against a recommendation") and "SAS SSD cache over SAS SSD" in m for m in msgs)


def test_the_network_override_is_said_only_where_it_overrode_a_failing_rule():
    """S2D audit: "broadcom-p225p-2x25g: 25 GbE, RDMA roce, 2 nodes (overridden by the demand)" where the rule passed
    on its own (two nodes, 25 GbE RDMA); and the all-NVMe part of the rule, hciplan's own, stood under Microsoft's
    4+ node quotation."""
    from planner.models.design import load_design, resolve

    edge = resolve(load_design("examples/edge-2node.json"))
    passed = R.hardware_rules(edge, allow_network_warning=True)
    assert passed["network_rdma_25gbe"]["passed"] and "overridden" not in passed["network_rdma_25gbe"]["reason"]
    slow = resolve(
        load_design("examples/reference.json").model_copy(
            update={"nodes": 4, "transport": "tcp", "resiliency": "mirror-3way"}
        )
    )
    assert not R.hardware_rules(slow)["network_rdma_25gbe"]["passed"]
    over = R.hardware_rules(slow, allow_network_warning=True)["network_rdma_25gbe"]
    assert over["passed"] and over["reason"].endswith("(overridden by the demand)")
    rule = R.rule_of("network_rdma_25gbe")
    assert "hciplan's own" in rule.title and "hciplan's own" in rule.source
    assert rule.source.index("4+ node cluster") < rule.source.index("hciplan's own")
    from planner.models.catalog import load_catalog

    ceph = resolve(load_design("examples/ceph-6node-reef.json"), load_catalog())  # 100 GbE: passes on its own
    assert "overridden" not in R.ceph_hardware_rules(ceph, allow_network_warning=True)["ceph_network_25gbe"]["reason"]


def test_the_witness_rule_says_what_microsoft_says_at_every_cluster_size():
    """S2D specialist's audit: at five servers and more the reason said "no witness recommended (Microsoft names
    clusters of 2 to 4 servers)" beside the rule's own source, "We recommend you always configure a witness"
    (Microsoft, *Deploy a quorum witness*). Azure Local's page names clusters of two to four; Windows Server's says
    always: a witness is recommended on every cluster, and one a two-node cluster cannot do without."""
    from planner.sizing.checks import mark_not_applicable

    for nodes in (3, 4, 5, 8, 16):
        words = R.witness_words(nodes)
        assert "recommended" in words and "no witness" not in words, (nodes, words)
        checks = mark_not_applicable({"cluster_witness": {"passed": True, "reason": words}})
        assert "not_applicable" not in checks["cluster_witness"], nodes
    assert "always configure a witness" in R.witness_words(6)
    assert "else losing either server stops the other" in R.witness_words(2)
    rule = R.rule_of("cluster_witness", "s2d")
    assert "two to 4 servers" not in rule.title and "every cluster" in rule.title
    assert "We recommend you always configure a witness" in rule.source


def _walk_design(**node):
    """The architect walk's AX-760 LFF node (12 x 3.5in SAS/SATA bays, 8 PCIe slots), with ``node``'s changes."""
    import json

    from planner.models.design import parse_design, resolve

    d = {
        "name": "hhhl-cache",
        "nodes": 4,
        "node": {
            "chassis": "dell-ax-760-lff",
            "cpu": {"model": "intel-xeon-gold-6430", "sockets": 2},
            "ram_gb": 512,
            "capacity_drives": {"model": "seagate-exos-x20-20tb-sas", "count": 12},
            "cache_devices": {"model": "samsung-pm1725-3.2tb", "count": 4},
            "nics": {"model": "nvidia-cx6-lx-2x25g", "count": 1},
        }
        | node,
        "resiliency": "mirror-3way",
        "transport": "rdma",
    }
    return resolve(parse_design(json.dumps(d)))


def test_an_add_in_cache_card_takes_a_pcie_slot_not_a_drive_bay():
    """Architect walk: 12 HDDs and 4 Samsung PM1725 HHHL cards in a 12-bay AX-760 were refused "16 drives per node
    (12 capacity + 4 cache) ... 12 bays"; with 8 HDDs the bay rule said "the nvme cache devices have no nvme bay";
    3 NICs and 2 HHHL cards in a 3-slot AX-660 passed. Microsoft's iWARP test ran 4 PM1725 cards beside 12 HDD and
    4 SSD per R730xd: the cards sit in PCIe slots, counted there with the NICs."""
    from planner.models.catalog import load_catalog

    pm1725 = load_catalog().cache_device["samsung-pm1725-3.2tb"]
    assert pm1725.form_factor == "hhhl" and pm1725.in_pcie_slot and not pm1725.in_drive_bay
    rd = _walk_design()  # no longer refused
    assert (rd.node.bays_used, rd.node.pcie_slots_used) == (12, 5)
    hw = R.hardware_rules(rd)
    assert hw["drive_bays"]["passed"] and hw["pcie_slots"]["passed"], hw
    assert "4 add-in cache cards in PCIe slots" in hw["drive_bays"]["reason"], hw["drive_bays"]
    assert hw["pcie_slots"]["reason"] == "1 NIC and 4 add-in cache cards, 8 PCIe slots"
    # the AX-660's three slots hold three NICs or the cards, not both
    ax660 = _walk_design(
        chassis="dell-ax-660",
        capacity_drives={"model": "kioxia-pm7-r-3.84tb", "count": 6},
        cache_devices={"model": "samsung-pm1725-3.2tb", "count": 2},
        nics={"model": "nvidia-cx6-lx-2x25g", "count": 3},
    )
    slots = R.hardware_rules(ax660)["pcie_slots"]
    assert not slots["passed"] and slots["reason"].endswith("3 PCIe slots: 5 cards for 3 slots"), slots
    # a U.2 cache still takes a bay, and an NVMe one has none in SAS/SATA bays
    u3 = R.hardware_rules(
        _walk_design(
            cache_devices={"model": "micron-7450-max-1.6tb", "count": 4},
            capacity_drives={"model": "seagate-exos-x20-20tb-sas", "count": 8},
        )
    )
    assert not u3["drive_bays"]["passed"] and "the nvme cache devices have no nvme bay" in u3["drive_bays"]["reason"]


def test_the_sizer_counts_an_add_in_card_against_the_pcie_slots_as_the_rule_does():
    """The sizer's storage sets are judged by the same count (planner.models.catalog.bays_taken,
    pcie_slots_taken). On a 4-bay copy of the AX-760 LFF, four 20 TB HDDs fill the bays, so the only cache is
    PM1725 cards in PCIe slots beside the NIC (four: 12.8 TB, Microsoft's 10 % of 80 TB); the sizer refused every
    such set as 6 or 8 drives for 4 bays."""
    from planner.models.catalog import Catalog, load_catalog
    from planner.models.demand import Demand
    from planner.sizing.search import size

    c = load_catalog()
    cat = Catalog(
        chassis={"dell-ax-760-lff": c.chassis["dell-ax-760-lff"].model_copy(update={"drive_bays": 4})},
        cpu={"intel-xeon-gold-6430": c.cpu["intel-xeon-gold-6430"]},
        capacity_drive={"seagate-exos-x20-20tb-sas": c.capacity_drive["seagate-exos-x20-20tb-sas"]},
        cache_device={"samsung-pm1725-3.2tb": c.cache_device["samsung-pm1725-3.2tb"]},
        nic={"nvidia-cx6-lx-2x25g": c.nic["nvidia-cx6-lx-2x25g"]},
        memory_module={"ddr5-32gb-rdimm-4800": c.memory_module["ddr5-32gb-rdimm-4800"]},
    )
    d = Demand(
        total_iops=200, capacity_tb=50, latency_target_ms=100, databases=4, min_nodes=4, max_nodes=4, n_plus_one=False
    )
    r = size(d, cat, top=1, prefer_on_sale=False)
    assert r.best is not None, r.explanation
    node = r.best["design"]["node"]
    assert node["capacity_drives"]["count"] == 4 and node["cache_devices"] == {
        "model": "samsung-pm1725-3.2tb",
        "count": 4,
    }


def test_a_one_processor_node_in_a_two_socket_chassis_is_hciplans_assumption_not_a_vendor_violation():
    """Architect walk: one Xeon Gold 6430 in a Dell R760 read "Breaks a requirement ... (populate 2: the chassis
    record's bays and slots assume it)", a vendor violation, though one-processor R760 and R660 builds are
    orderable. What is at stake is hciplan's own assumption (a chassis record's bays and PCIe slots are a full
    board's; some attach to the empty socket's lanes on a real one-processor build), so the rule is hciplan's
    recommendation, said so, with the bays and slots it cannot vouch for."""
    from planner.results.report import design_warnings

    one = _walk_design(
        chassis="dell-r760",
        cpu={"model": "intel-xeon-gold-6430", "sockets": 1},
        ram_gb=256,
        capacity_drives={"model": "micron-7450-pro-3.84tb", "count": 8},
        cache_devices=None,
    )
    rule = R.rule_of("cpu_socket")
    assert (rule.kind, rule.whose) == ("recommendation", "hciplan") and "not a vendor rule" in rule.source
    check = R.hardware_rules(one)["cpu_socket"]
    assert not check["passed"] and check["reason"] == (
        "1 x LGA4677 in 2 x LGA4677: 1 socket empty, so the chassis record's 24 bays and 8 PCIe slots (a full "
        "board's) may not all attach; check the vendor's 1-processor configuration"
    )
    said = next(w for w in design_warnings(one, None) if w["check"] == "cpu_socket")
    assert said["kind"] == "recommendation" and said["message"].startswith("Against a recommendation")
    assert R.hardware_rules(_walk_design())["cpu_socket"]["passed"]


def test_the_power_rule_writes_both_watts_alike():
    """Architect walk: the power reason read "1,520 W typical vs 1400.0 W rating"; both figures are whole watts with
    thousands separators."""
    import re

    node = {
        "chassis": "dell-r760",
        "cache_devices": None,
        "capacity_drives": {"model": "micron-7450-pro-3.84tb", "count": 8},
    }
    from planner.models.catalog import load_catalog

    rating = load_catalog().chassis["dell-r760"].max_power_w  # 2,800 W since the architect walk's PSU fix
    reason = R.hardware_rules(_walk_design(**node))["power_budget"]["reason"]
    assert re.fullmatch(rf"[\d,]+ W typical vs {rating:,.0f} W rating", reason), reason


def test_the_bay_rule_and_the_chassis_notes_agree_on_a_node_mixing_bay_interfaces():
    """Architect walk: the AX-760's note said "Bay interfaces are per backplane option, not mixed in one node", yet an
    AX-760 with 4 NVMe cache devices over 20 SAS SSDs passed the bay rule. No stored source says Dell refuses the
    mix, and Dell's 2U servers take NVMe and SAS/SATA in one chassis (R740xd: twelve of each), so the rule stands and
    the notes say what it does, with that source."""
    from planner.models.catalog import load_catalog

    mixed = _walk_design(
        chassis="dell-ax-760",
        capacity_drives={"model": "kioxia-pm7-r-3.84tb", "count": 20},
        cache_devices={"model": "micron-7450-max-1.6tb", "count": 4},
    )
    assert R.hardware_rules(mixed)["drive_bays"]["passed"]
    for ch in load_catalog().chassis.values():
        assert "not mixed" not in ch.notes and "one backplane type per node" not in str(ch.estimated), ch.id
        if {"nvme", "sas"} <= set(ch.bay_interfaces) and "mix" in ch.notes:
            assert "NVMe and I/O Topologies for Dell EMC PowerEdge Servers" in ch.notes, ch.id


def test_the_ax770_takes_an_e3s_drive_and_refuses_a_u2_one():
    """The AX-770's 16 bays are E3.S (Dell 17G matrix): a node of 16 E3.S PM1743s passes the bay rule, the U.2 form
    of the same drive does not fit them."""
    node = {"chassis": "dell-ax-770", "cpu": {"model": "intel-xeon-6730p", "sockets": 2}, "cache_devices": None}
    e3s = _walk_design(**node, capacity_drives={"model": "samsung-pm1743-e3s-7.68tb", "count": 16})
    assert R.hardware_rules(e3s)["drive_bays"]["passed"], R.hardware_rules(e3s)["drive_bays"]
    u2 = _walk_design(**node, capacity_drives={"model": "samsung-pm1743-7.68tb", "count": 16})
    bays = R.hardware_rules(u2)["drive_bays"]
    assert not bays["passed"] and "e3.s" in bays["reason"].lower(), bays
