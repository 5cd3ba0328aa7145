"""A sizing proposal as data: everything the exported report shows, computed
by the planner (the UI only lays it out).

Sections: customer/author/date; the design and its parts list (planner.commercial.bom);
capacity waterfall; performance with its band, bottleneck, degraded mode,
extrapolation flags and the band's basis; SLA and price per tier; the sizing
rules and the binding resource (with a demand); the multi-year view;
assumptions (cost, licensing sources and dates, the calibrated domain).
"""

from __future__ import annotations

import datetime as _dt

from planner.commercial.bom import bom
from planner.commercial.licensing import for_platform
from planner.commercial.pricing import CostAssumptions, tier_prices
from planner.commercial.tco import tier_revenue, whole_cost
from planner.commercial.tiers import fit_mix
from planner.core.errors import PlannerError
from planner.core.text import count
from planner.engine.loads import demand_as_workload, load_on, rehosted
from planner.models.catalog import Catalog, load_catalog
from planner.models.database import io_demand, vm_ram_gb
from planner.models.demand import IMPLIED_BY_DATABASE, Demand
from planner.models.design import Design, dump_design, resolve
from planner.models.params import CALIBRATION_FILE, load_calibration
from planner.models.stacks import ceph_release_words
from planner.models.tiers import MIX_SEPARATORS, TierSet, default_tiers
from planner.models.workload import Workload
from planner.physics.dimms import node_dimms
from planner.physics.network import switchless_links_per_peer
from planner.physics.rule_sources import rule_source
from planner.physics.rules import cache_family, drive_family, rule_of
from planner.results.report import evaluate_report
from planner.sizing.checks import check_design, limits, minimum_cluster, multi_year
from planner.sizing.verdict import demand_verdict, without_hosting_warnings

#: why a design of another topology gets no proposal (it is compared, or given as the system run today)
NOT_HYPERCONVERGED = (
    "a proposal is for a hyperconverged cluster: compare this design with others (the Compare page, `compare`) or "
    "give it as the system the customer runs today"
)


class ProposalError(PlannerError):
    pass


def _rdma_words(rd) -> str:
    """The network's RDMA as the design uses it (:attr:`planner.models.design.ResolvedDesign.runs_rdma`)."""
    nic, vsan = rd.node.nic, rd.design.stack == "vsan"
    if nic.rdma == "none":
        return "no RDMA"
    if rd.runs_rdma:
        # vSAN's RDMA is RoCE v2 (an E810 runs it beside its recorded iWARP)
        return "RDMA roce" if vsan else f"RDMA {nic.rdma}"
    if rd.design.transport == "rdma":  # vSAN on an iWARP-only card falls back
        return f"RDMA {nic.rdma}, not usable by vSAN: TCP/IP"
    return f"RDMA {nic.rdma} capable, not used: TCP/IP"


def design_summary(rd) -> list[tuple[str, str]]:
    d, n = rd.design, rd.node
    rows = [("Nodes", f"{d.nodes}"), ("Resiliency", d.resiliency), ("Transport", d.transport)]
    if d.stack == "ceph":
        # the release moves the figures (Pacific's OSD writes cost 1.5x Reef's) and only Appendix C's domain named
        # the releases measured, not the one modelled (pre-sales Ceph walk 2026-12-03)
        rows.append(("Ceph release", ceph_release_words(d.ceph_spec.release)))
    if n.chassis is not None:
        rows.append(("Node", f"{n.chassis.vendor} {n.chassis.model}"))
    rows.append(("CPUs per node", f"{n.sockets} x {n.cpu.vendor} {n.cpu.model} ({n.cores} cores, {n.threads} threads)"))
    rows.append(
        (
            "Memory per node",
            f"{dimms.words} = {n.ram_gb:,.0f} GB" if (dimms := node_dimms(n)) else f"{n.ram_gb:,.0f} GB",
        )
    )
    rows.append(
        (
            "Capacity drives per node",
            f"{n.drive_count} x {n.drive.vendor} {n.drive.model} ({drive_family(n.drive)}, {n.drive.capacity_tb:g} TB)",
        )
    )
    # Ceph's fast devices hold BlueStore's DB and WAL, as the Design page names them ("Cache per node: none"
    # in a Ceph proposal; browser review 2026-11-29); without them the data drives hold both
    ceph = d.stack == "ceph"
    rows.append(
        (
            "DB/WAL devices per node" if ceph else "Cache per node",
            f"{n.cache_count} x {n.cache.vendor} {n.cache.model} ({cache_family(n.cache)})"
            if n.cache
            else ("none: the data drives hold BlueStore's DB and WAL" if ceph else "none"),
        )
    )
    rows.append(
        (
            "Network per node",
            f"{n.nic_count} x {n.nic.vendor} {n.nic.model} "
            f"({n.nic.ports} x {n.nic.port_gbit_s:g} GbE, " + _rdma_words(rd) + ")",
            # what the design uses, not only what the card can: a Ceph design over TCP/IP read "RDMA RoCE" (browser
            # review 2026-11-30)
        )
    )
    if d.storage_switchless:
        rows.append(("Storage network", switchless_words(rd)))
    rooms = rooms_words(d.fault_domain_rtt_ms, d.rack_aware)
    if rooms:
        rows.append(("Round trip between rooms", rooms))
    return rows


def switchless_words(rd) -> str:
    """A storage-switchless design's storage network as the documents and the Design page say it: the servers
    cabled to each other, the links between each pair (:func:`planner.physics.network.switchless_links_per_peer`),
    no storage switch, and the management and VMs' traffic on the customer's switches (stop 55)."""
    n, peers = rd.node, rd.nodes - 1
    if not peers:
        return "storage switchless: one server, no storage links and no storage switch"
    per = switchless_links_per_peer(n.nic.ports, n.nic_count, peers)
    return (
        f"storage switchless: the servers cabled to each other, {count(per, 'direct link')} between each pair, no "
        "storage switch; the management and VMs' traffic on the customer's switches"
    )


def rooms_words(rtt_ms: float, rack_aware: bool) -> str:
    """The design's round trip between rooms (``Design.fault_domain_rtt_ms``) as the documents and pages
    say it; empty for a cluster in one room. A rack-aware cluster left at 0 ms says its latencies are one
    room's (a proposal printed "two rooms at most 1 ms round trip apart: passed" with one-room latencies,
    and no page showed the input; network walk 2026-12-01)."""
    if rtt_ms > 0:
        return f"{rtt_ms:g} ms, added once to each crossing between servers (every latency here includes it)"
    if rack_aware:
        return "not given (0 ms): the latencies are one room's"
    return ""


def build(
    design: Design,
    workload: Workload,
    tiers: TierSet | None = None,
    demand: Demand | None = None,
    costs: CostAssumptions | None = None,
    meta: dict | None = None,
    n_plus_one: bool | None = None,
    catalog: Catalog | None = None,
    calibration=None,
    existing: Design | None = None,
    mix: dict[str, int] | None = None,
) -> dict:
    """The proposal for ``design`` under ``workload`` (and ``demand`` if sized);
    ``calibration``: a customer refit (:mod:`planner.calibration.refit`) instead of the shipped fit;
    ``existing``: the system the customer runs today (any topology), costed as owned and
    evaluated under the same workload. Costs follow the design's platform, else the demand's
    (:func:`planner.commercial.licensing.for_platform`); the system today its own, else Windows
    Server (the demand says what the new cluster runs); ``cost`` is
    :func:`planner.commercial.tco.whole_cost`.

    The tiers priced are ``tiers`` (default: the shipped set) and ``n_plus_one`` their pricing with
    one node down (default True); a demand decides both where it has them: a demand in tiers prices
    the tiers it was sized for, and any demand prices with the failures it plans for. The document
    judged a design "A server can fail: met" and priced 470 databases a tier where 368 fit with one node
    down, or sized Business at 2,000 IOPS and priced it at 3,000 (pricing review 2026-11-30); a
    ``tiers`` or ``n_plus_one`` given against the demand's is a caller's error (ValueError).

    ``mix``: databases per tier the customer asked about (the SLA page's tier mix, ``proposal --mix``), for a
    demand not in tiers: the document says whether it fits and what it brings in against the whole cost, as a
    demand in tiers' own counts are said (a demand in tiers is its own mix; another is a caller's error). The
    document a sales call sent left out the mix it had priced on the SLA page (stop 62)."""
    if design.topology != "hyperconverged":
        # one rule for the command line and the app (the app wrote a "5-node cluster" proposal of a disaggregated
        # Ceph design whose 8 database servers it did not describe; browser review 2026-11-30)
        raise ProposalError(NOT_HYPERCONVERGED, "design")
    cat = catalog or load_catalog()
    a = for_platform(costs or CostAssumptions(), demand, design)
    if demand is not None:
        if demand.tier_counts:
            if tiers is not None and tiers.model_dump() != demand.tierset().model_dump():
                raise ValueError("a demand in tiers prices its own tiers")
            tiers = demand.grown_tiers()  # its databases as sized: grown in size and rate where it says so
        if n_plus_one is not None and n_plus_one != demand.n_plus_one:
            raise ValueError("a demand prices its tiers with the failures it plans for")
        n_plus_one = demand.n_plus_one
    tiers_given = tiers if demand is None or not demand.tier_counts else None  # a demand in tiers prices its own
    tiers = tiers or (demand.tierset() if demand is not None else default_tiers())
    n_plus_one = True if n_plus_one is None else n_plus_one
    rd = resolve(design, cat)
    params = calibration.params if calibration is not None else None
    if calibration is not None:
        from planner.calibration.refit import evaluate_with_calibration

        rep = evaluate_with_calibration(
            calibration, design, workload, catalog=cat, service_months=a.amortisation_months
        )
    else:
        rep = evaluate_report(design, workload, catalog=cat, service_months=a.amortisation_months)
    # a demand in tiers: its databases of each tier, as many as the tier prices are charged for
    counts = demand.sized_tier_counts() if demand is not None else None
    typed = {name: int(n) for name, n in (mix or {}).items() if n}
    if typed and counts is not None:
        raise ValueError("a demand in tiers prices its own counts")
    counts = counts or typed or None
    fit = fit_mix(rd, tiers, counts, n_plus_one, params)
    meta = dict(meta or {})
    meta.setdefault("date", _dt.date.today().isoformat())
    if not meta.get("title"):
        node = f"{rd.node.chassis.vendor} {rd.node.chassis.model}" if rd.node.chassis else "node"
        meta["title"] = f"{design.nodes}-node cluster of {node}" + (
            f" for {meta['customer']}" if meta.get("customer") else ""
        )
    out = {
        "meta": {
            "customer": meta.get("customer") or "",
            "author": meta.get("author") or "",
            "date": meta["date"],
            "title": meta.get("title") or f"Proposal: {design.name}",
        },
        "design": dump_design(design),
        "summary": design_summary(rd),
        "bom": bom(rd, a, cat),
        "report": rep,
        "workload": workload.model_dump(mode="json"),
        "extrapolation": rep.get("extrapolation", []),
        "band_basis": rep.get("band_basis", []),
        "warnings": _warnings(rep, workload, demand, rd.nodes),
        "notes": rep.get("notes", []),
        "tiers": [t.model_dump(mode="json") for t in tiers.tiers],
        # the shipped set, or tiers the engineer edited (the document called edited tiers "the standard tiers";
        # browser review 2026-11-30)
        "tiers_shipped": tiers.model_dump(mode="json") == default_tiers().model_dump(mode="json"),
        "tier_fit": fit["alone"],
        "tier_prices": tier_prices(rd, tiers, a, n_plus_one=n_plus_one, params=params),
        "n_plus_one": n_plus_one,
        "assumptions": {"costs": a.model_dump(mode="json"), "licence_source": a.licence_source},
        "calibration_domain": None,
        "rules": None,
        "binding": None,
        "multi_year": None,
        "cost": whole_cost(design, demand, a, cat),
        "existing": None,
        # what the document was made from, as files `hciplan proposal` reads again (its Inputs appendix and the
        # workbook's Inputs sheet): a customer's copy could not be regenerated (customer-engineer walk 2026-12-01)
        "inputs": proposal_inputs(design, demand, costs, existing, tiers_given, workload, calibration, typed or None),
    }
    if counts and fit["mix"] is not None:
        # the tier prices at the demand's counts against the whole cost (CFO read 2026-11-30: never reconciled)
        out["tier_revenue"] = tier_revenue(
            out["tier_prices"],
            counts,
            out["cost"],
            max(fit["mix"]["utilization"].values()),
            "this tier mix" if typed else "this demand",
        )
        if typed:  # whether it fits is the demand's verdict for a demand in tiers, the mix's own here
            out["tier_mix"] = {"counts": typed, **fit["mix"]}
    if existing is not None:
        today = load_on(existing, workload, demand)  # the same databases on its database servers
        out["existing"] = {
            "design": dump_design(existing),
            "report": evaluate_report(existing, today, catalog=cat, degraded=False),
            # what it was judged under, said in the document beside its figures
            "load": (
                (
                    f"the same databases, {count(today.vms_per_node or 0, 'database VM')} on its one server"
                    if existing.database_servers == 1
                    else f"the same databases, {count(today.vms_per_node or 0, 'database VM')} on each of its "
                    f"{existing.database_servers:,} servers"
                )
                if today is not workload
                else "the same load as the proposed cluster"
            ),
            "cost": whole_cost(existing, demand, a, cat, owned=True),
        }
    if CALIBRATION_FILE.exists():
        cal = load_calibration()
        out["calibration_domain"] = cal.domain
    if demand is not None:
        # the pages' own judgement (planner.sizing.verdict): the same rules, limits and whole cost
        v = demand_verdict(design, demand, a, cat, params)
        if v["judged"]:
            chk, lim = {"checks": v["checks"]}, v["binding"]
        else:
            chk = check_design(rd, demand, a, params=params, catalog=cat)
            lim = limits([rd], demand, params)[0]
        out["verdict"] = {k: x for k, x in v.items() if k not in ("cost", "checks")}
        out["demand"] = demand.summary()
        if demand.database is not None and demand.database.has_workload:  # the DBA's description, restated
            out["demand_database"] = {
                "data_gb": demand.database.data_gb,
                "buffer_pool_gb": demand.database.buffer_pool_gb,
                "nopm": demand.database.nopm,
                "tpm": demand.database.tpm,
                # the VM each database was sized with: assumed, so said (account-manager walk 2026-11-30)
                "vcpus": demand.vcpus_per_db,
                "ram_gb": demand.ram_gb_per_db,
                "ram_from_buffer_pool": demand.ram_gb_per_db == vm_ram_gb(demand.database.buffer_pool_gb or 0.0),
                # how each database was translated into IO and space (the Inputs appendix)
                **database_translation(demand),
                # the vCPUs given (the demand's vcpus_per_db or the database's own), else the default, assumed
                "vcpus_given": "vcpus_per_db" in demand.model_fields_set,
            }
        out["rules"] = [
            {
                "rule": k,
                "passed": v["passed"],
                "not_applicable": v.get("not_applicable"),
                # a programme's listing nothing confirms for a part: "not confirmed", not "passed"
                "unconfirmed": v.get("unconfirmed"),
                "reason": v["reason"],
                "title": rule_of(k, rd.design.stack).title,
                "kind": rule_of(k, rd.design.stack).kind,
                # the vendor's rule, hciplan's policy or the demand's (the document's summary and Whose column)
                "whose": rule_of(k, rd.design.stack).whose,
                # the chassis figures it cites said as recalled where the record says so (hardware-architect walk)
                "source": rule_source(rule_of(k, rd.design.stack).source, rd.node.chassis),
            }
            for k, v in chk["checks"].items()
        ]
        # what set the size when no resource did (the sizer's size_set_by, one rule)
        out["binding"] = lim | {
            "size_set_by": minimum_cluster(rd, demand, lim, cat)
            if not any(c.get("passed") is False for c in chk["checks"].values())
            else None
        }
        # the drives' life at the databases' guaranteed IOPS (the report's is at the IOPS the design carries)
        out["guaranteed_endurance_years"] = v["endurance_years"] if v["judged"] else chk.get("endurance_years")
        out["multi_year"] = multi_year(rd, demand, a, catalog=cat, params=params)
    return out


def proposal_inputs(
    design: Design,
    demand: Demand | None,
    costs: CostAssumptions | None,
    existing: Design | None = None,
    tiers: TierSet | None = None,
    workload: Workload | None = None,
    calibration=None,
    mix: dict[str, int] | None = None,
) -> dict:
    """The files a proposal is made from, as JSON `hciplan proposal` reads again: ``design`` (and ``existing``,
    the system run today, or None) as :func:`planner.models.design.dump_design` gives it, ``demand`` as given
    (every field, the ones a described database implies left out so today's model computes them again:
    :data:`planner.models.demand.IMPLIED_BY_DATABASE`, :func:`planner.models.demand.saved_demand`'s rule; None
    without a demand), ``costs``, the cost assumptions that differ from the defaults (``--costs``), ``tiers``,
    the tiers priced when given for a demand not in tiers (``--tiers``), ``mix``, the tier mix asked about
    (``--mix``; None without one), and ``not_rerun``: what of the document
    the command does not take (no demand, another workload than the demand's own, a refit of the model), each in
    words."""
    dem = None
    if demand is not None:
        dem = demand.model_dump(mode="json", exclude_none=True)
        if demand.database is not None:
            dem = {k: v for k, v in dem.items() if k not in IMPLIED_BY_DATABASE}
    not_rerun = []
    if demand is None:
        not_rerun.append("it was made without a demand, which the command needs")
    elif workload is not None and workload != demand_as_workload(demand, design.node_count):
        not_rerun.append(f"its workload ({workload.name}) is not the demand's own, which the command takes")
    if calibration is not None:
        not_rerun.append(
            "its figures come from a refit of the model to measured clusters, which the command does not take"
        )
    if mix and any(ch in name for name in mix for ch in MIX_SEPARATORS):
        not_rerun.append(
            f"a tier of its mix is named with {' or '.join(map(repr, MIX_SEPARATORS))}, which --mix cannot take"
        )
    return {
        "design": dump_design(design, exclude_none=True),
        "demand": dem,
        "costs": (costs or CostAssumptions()).model_dump(mode="json", exclude_defaults=True),
        "tiers": tiers.model_dump(mode="json", exclude_none=True) if tiers is not None else None,
        "existing": dump_design(existing, exclude_none=True) if existing is not None else None,
        "mix": dict(mix) if mix else None,
        "not_rerun": not_rerun,
    }


def database_translation(demand: Demand) -> dict:
    """How a described database becomes IO and space (:func:`planner.models.database.io_demand`), per database:
    ``iops_per_db`` as sized (its peak, checkpoint bursts included, or its mean: the demand's ``database_need``)
    and ``mean_iops_per_db`` [IOPS], ``buffer_hit_ratio`` [-] with ``buffer_hit_note``, ``read_fraction`` [-] and
    ``block_size_kib`` [KiB] of the IO as sized, ``log_share`` and ``tempdb_share`` of the data [-], each with
    whether it was given, and ``capacity_tb_per_db`` [TB]. Empty for a demand without one."""
    db = demand.database
    if db is None or not db.has_workload:
        return {}
    io = io_demand(db)
    peak = demand.database_need != "mean"
    bs, rf, _ = io.shape(peak=peak)
    return {
        "database_need": demand.database_need,
        "iops_per_db": io.peak_iops if peak else io.iops,
        "mean_iops_per_db": io.iops,
        "buffer_hit_ratio": io.buffer_hit_ratio,
        "buffer_hit_note": io.buffer_hit_note,
        "read_fraction": rf,
        "block_size_kib": bs,
        "log_share": db.log_share,
        "log_share_given": db.log_space_fraction is not None,
        "tempdb_share": db.tempdb_share,
        "tempdb_share_given": db.tempdb_space_fraction is not None,
        "capacity_tb_per_db": db.capacity_tb,
    }


def _warnings(rep: dict, workload: Workload, demand: Demand | None, nodes: int) -> list:
    """The report's warnings for the document: under the demand's own load without the hosting ones,
    which the verdict judges (:func:`planner.sizing.verdict.without_hosting_warnings`), as on the
    app's pages."""
    warnings = rep.get("warnings", [])
    if demand is None or rehosted(workload, demand, nodes) is None:
        return warnings
    return without_hosting_warnings(warnings)
