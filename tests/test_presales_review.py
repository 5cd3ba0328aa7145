"""A pre-sales review of the sizer: Ceph and vSAN sizings said Microsoft's sources and
recommendations, and an empty search read as one that did not run."""

from __future__ import annotations

import math

import pytest

from planner.models.demand import Demand, fault_tolerance_label
from planner.physics.rules import max_vcpus_per_host, rule_of
from planner.sizing.search import size


@pytest.mark.parametrize("stack", ["ceph", "vsan"])
def test_ceph_and_vsan_rules_cite_no_azure_local_vcpu_limit(stack):
    """A Ceph sizing's vCPU rule read "Microsoft, 'System requirements for Azure Local...': 'Virtual
    processors per host 2,048'", and that limit held its nodes."""
    assert "Microsoft" not in rule_of("vcpus", stack).source
    assert "2,048" not in rule_of("vcpus", stack).title
    assert max_vcpus_per_host(stack) == math.inf
    assert "Azure Local" in rule_of("vcpus", "s2d").source and max_vcpus_per_host("s2d") == 2048


def test_the_fault_tolerance_choice_names_microsoft_on_s2d_only():
    """The fault-tolerance option read "(Microsoft's recommendation for databases)" for Ceph."""
    assert "Microsoft" in fault_tolerance_label("node-and-drive", "s2d")
    for stack in ("ceph", "vsan"):
        assert "Microsoft" not in fault_tolerance_label("node-and-drive", stack)
        assert fault_tolerance_label("node-and-drive", stack).startswith("survive a server down and a drive")


@pytest.mark.parametrize("stack", ["ceph", "vsan"])
def test_an_empty_search_says_its_rejections_and_the_nodes_it_needs(stack):
    """'Searched 0 designs ... evaluated 0' above a table of thousands of rejected candidates, and no
    word that a Ceph or vSAN cluster larger than the default 16 nodes would do."""
    d = Demand.model_validate({"stack": stack, "total_iops": 3e6, "capacity_tb": 2000})
    assert d.max_nodes == 16
    res = size(d, top=3)
    assert res.best is None and res.designs_evaluated == 0
    rejected = sum(v["count"] for v in res.rejected.values())
    assert rejected > 1000 and f"the rules rejected {rejected:,} part choices" in res.explanation
    n = res.search["nodes_needed"]
    assert n > 16 and "raise 'Most nodes' (max_nodes, now 16)" in res.explanation
    wider = size(d.model_copy(update={"max_nodes": n}), top=1)
    assert wider.best is not None and wider.best["design"]["nodes"] == n


def test_differs_from_the_best_names_every_part_that_differs():
    """'Differs from the best' read "cache: NVMe cache" for an alternative that also had 18 drives,
    and "nodes: 9" for one on another chassis with half the RAM: it listed the signature only."""
    from pathlib import Path

    from planner.models.catalog import load_catalog
    from planner.models.design import Design, resolve

    cat = load_catalog()
    d = Demand.model_validate_json(
        (Path(__file__).resolve().parents[1] / "examples" / "demand-200dbs.json").read_text()
    )
    res = size(d, top=3)
    best = resolve(Design.model_validate(res.best["design"]), cat)
    labels = {
        "server": lambda x: x.node.chassis.id,
        "CPUs": lambda x: (x.node.cpu.id, x.node.sockets),
        "RAM per node": lambda x: x.node.ram_gb,
        "capacity drives": lambda x: (x.node.drive.id, x.node.drive_count),
        "cache": lambda x: (x.node.cache.id if x.node.cache else None, x.node.cache_count),
        "network": lambda x: (x.node.nic.id, x.node.nic_count),
        "nodes": lambda x: x.nodes,
        "resiliency": lambda x: x.design.resiliency,
        "transport": lambda x: x.design.transport,
        "vCPU oversubscription": lambda x: x.design.vcpu_oversubscription,
        "CPU cap": lambda x: x.design.cpu_utilization_cap,
    }
    seen = set()
    for alt in res.alternatives:
        rd = resolve(Design.model_validate(alt["design"]), cat)
        said = alt["differs_from_best"]
        for label, of in labels.items():
            assert (f"{label}: " in said) == (of(rd) != of(best)), (label, said)
            seen |= {label} if of(rd) != of(best) else set()
        # parts by their names, never their catalog ids
        for part in (rd.node.drive, rd.node.cache, rd.node.cpu, rd.node.chassis):
            assert part is None or part.id not in said, said
    assert {"capacity drives", "RAM per node", "nodes"} <= seen


def test_differs_from_the_best_says_a_vsan_resiliency_in_words():
    """Browser review 2026-11-29: a vSAN alternative read "resiliency: raid1-ftt2 (best: raid6)"."""
    from pathlib import Path

    from planner.models.catalog import load_catalog
    from planner.models.design import load_design, resolve, with_overrides
    from planner.sizing.search import design_differences

    cat = load_catalog()
    d = load_design(Path(__file__).resolve().parents[1] / "examples" / "vsan-esa-6node.json")
    said = design_differences(resolve(d, cat), resolve(with_overrides(d, resiliency="raid6"), cat))
    assert said == ("resiliency: RAID-6 (4+2), 2 failures to tolerate (best: RAID-5 (4+1), 1 failure to tolerate)"), (
        said
    )


def test_design_differences_names_the_policies_a_what_if_sets_against_the_current_design():
    """The Compare page's what-if says what it changes against the current design in the sizer's words, the
    policies included (transport, vCPU oversubscription, CPU cap), and nothing of a design equal to it."""
    from pathlib import Path

    from planner.models.catalog import load_catalog
    from planner.models.design import load_design, resolve
    from planner.sizing.search import design_differences

    cat = load_catalog()
    d = load_design(Path(__file__).resolve().parents[1] / "examples" / "reference.json")
    base = resolve(d, cat)
    assert design_differences(base, base, "current design") == ""
    wi = d.model_copy(update={"vcpu_oversubscription": 6.0, "transport": "tcp", "cpu_utilization_cap": 0.8})
    said = design_differences(base, resolve(wi, cat), "current design")
    assert said == (
        f"transport: TCP/IP (current design: RDMA); vCPU oversubscription: 6:1 (current design: "
        f"{d.vcpu_oversubscription:g}:1); CPU cap: 80 % (current design: {100 * d.cpu_utilization_cap:g} %)"
    ), said
