"""A sizing demand as loads for the performance model, and the latency statistic a
demand's tiers are judged by.

:func:`demand_workload` turns a :class:`planner.models.demand.Demand` into one open load:
the guaranteed IOPS of every database at once (Storage QoS minimums all honoured
together), the IO-weighted block size and read share, one VM per database.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from planner.core.text import count
from planner.core.types import FloatArray
from planner.engine.performance import WorkloadArrays
from planner.engine.targets import carried, latency_statistic
from planner.models.demand import MAX_DEMAND_IOPS, OUTSTANDING_PER_DB, TOTALS_CLASS, Demand, DemandClass, DemandError

if TYPE_CHECKING:
    from planner.models.design import Design
    from planner.models.workload import Workload


def demand_workload(
    demand: Demand, multiplier: FloatArray = None, shape: tuple[int, ...] = (), scale: FloatArray = None
) -> WorkloadArrays:
    """The demand as one open load: each tier's databases times ``multiplier`` (default the growth; an array
    gives one load per element), whole databases each with its tier's guarantee; times ``scale`` when given, a
    load scaled without rounding (a headroom factor on the grown demand, :func:`planner.sizing.checks.limits`).

    A headroom search on whole databases' steps stopped just below 1 where a design held the grown demand
    exactly: one more database per tier at the first step above it read "581,963 IOPS within target of 582,000
    needed" beside latency "met" (verification walk 2026-11-30). A scale is continuous."""
    cs = demand.classes(1.0)
    base_iops = sum(c.iops for c in cs)
    grown = (demand.growth if multiplier is None else float(np.max(multiplier))) * (
        1.0 if scale is None else float(np.max(scale))
    )
    if base_iops * grown > MAX_DEMAND_IOPS:
        # the field that takes it there: the databases themselves, or their growth
        field = "tier_counts" if demand.tier_counts is not None else "total_iops"
        if base_iops <= MAX_DEMAND_IOPS:
            field = "growth_pct"
        raise DemandError(
            f"the demand is more than {MAX_DEMAND_IOPS:,.0f} IOPS with growth ({base_iops:,.0f} IOPS x {grown:,.3g})",
            field,
        )
    m = np.asarray(demand.growth if multiplier is None else multiplier, dtype=float)
    whole_classes = demand.classes()  # the mix of the grown demand's whole databases
    w = np.array([c.iops for c in whole_classes]) / sum(c.iops for c in whole_classes)
    bs = float(np.sum(w * [c.block_size_kib for c in whole_classes]))
    rf = float(np.sum(w * [c.read_fraction for c in whole_classes]))
    # each tier's databases times the multiplier are whole databases, each with its tier's whole guarantee
    # (Demand.classes, whole_databases): 2 Ultra databases grown by 20 % are 3, with 3 databases' IOPS (finance walk
    # 2026-11-30); so are a demand of totals over its databases (each an equal share). Totals naming no databases
    # are scaled as given (Demand.grows_in_whole_databases).
    n = np.array([c.databases for c in cs], dtype=float)
    if demand.grows_in_count:
        whole = np.maximum(np.ceil(n[:, None] * m.reshape(1, -1) - 1e-9), 0.0)  # (class, load): whole_databases
    else:  # the databases given, each grown in rate (Demand.growth_in)
        whole = np.broadcast_to(n[:, None], (n.size, m.size))
    vms_total = np.sum(whole, axis=0).reshape(m.shape)
    if demand.grows_in_whole_databases:
        per_db = np.array([c.iops / c.databases for c in cs])
        open_iops = np.sum(per_db[:, None] * whole, axis=0).reshape(m.shape)
    else:
        open_iops = base_iops * m
    if scale is not None:
        k = np.asarray(scale, dtype=float)
        open_iops = open_iops * k
        vms_total = np.ceil(vms_total * k - 1e-9)
        m = m * k  # the loads' shape
    dbs = sum(c.databases for c in whole_classes)
    # the VMs the pages evaluate (:func:`demand_as_workload`): whole VMs of whole vCPUs. With 4.8 VMs of 3.6 vCPUs
    # here and 5 of 4 there, the Size page's figures and the Performance page's for the same design differed by up
    # to 0.7 % (CLI fuzzing 2026-11-30)
    vcpus = max(1, round(sum(c.databases * c.vcpus_per_db for c in whole_classes) / dbs)) if dbs > 0 else 4.0
    tb = sum(c.capacity_tb for c in whole_classes)
    # the whole hot data, spread over the database VMs (one "VM" when none are named)
    ws_gb_per_vm = tb * 1000.0 * demand.working_set_fraction / max(dbs, 1.0)
    return WorkloadArrays(
        block_size_kib=np.asarray(bs),
        read_fraction=np.asarray(rf),
        vms_total=np.broadcast_to(vms_total, np.broadcast_shapes(m.shape, shape)).copy(),
        vcpus_per_vm=np.asarray(vcpus),
        outstanding_per_vm=np.asarray(OUTSTANDING_PER_DB),
        working_set_gb_per_vm=np.asarray(ws_gb_per_vm),
        open_iops=np.broadcast_to(open_iops, np.broadcast_shapes(m.shape, shape)).copy(),
        iops_limit_per_vm=np.asarray(np.inf),
        alignment=np.asarray(1.0),
        host_issuer=np.asarray(False),
    )


def class_latency_ms(out: dict[str, Any], c: DemandClass) -> FloatArray:
    """A class's latency statistic at the VM, ms: the mean is read/write weighted
    by the class's read share; a percentile is the worse of reads and writes."""
    return latency_statistic(out, c.latency_statistic, c.read_fraction)


def latency_ok(out: dict[str, Any], demand: Demand) -> FloatArray:
    """Every class within its latency target, the cluster not saturated, and the whole demand let
    through: a pacing policy that throttles the load (``limited_by``: the CPU utilisation cap) leaves
    part of the demand's IOPS uncarried, however low the latency of the rest."""
    ok = carried(out)
    for c in demand.classes(1.0):
        ok = ok & (class_latency_ms(out, c) <= c.latency_target_ms)
    return ok


def demand_as_workload(demand: Demand, nodes: int) -> Workload:
    """The demand as a :class:`planner.models.workload.Workload` for the Performance
    and SLA pages: one VM per database (``vms_total``; ``vms_per_node`` the busiest node's, rounded
    up), the tier mix's
    IO-weighted block size and read share, the guaranteed IOPS as an open load,
    the average vCPUs, RAM and hot data per database."""
    from planner.models.workload import Workload

    W = demand_workload(demand)
    cs = demand.classes()
    dbs = sum(c.databases for c in cs)
    tiers = ", ".join(f"{c.databases:,.0f} {c.name}" for c in cs if c.name != TOTALS_CLASS)
    # a demand of totals or of a database a DBA describes has no tier mix: its databases said as such (the
    # sidebar read "..., tier mix totals"; browser review 2026-11-29)
    mix = tiers or (count(dbs, "database") if dbs > 0 else "totals")
    vms = dbs  # whole VMs (whole databases: Demand.classes): 24 databases on 11 nodes are 24 VMs, 3 on the busiest
    return Workload(
        name=f"demand ({mix})"[:200],
        # the grown counts: "200 databases: ... tier mix 144 Standard, 60 Business, 30 Premium, 6 Ultra" summed to 240
        # with no word (browser review 2026-11-30); the demand's name quoted and the grown count said, so a name of
        # "200 databases" no longer reads as the count beside 240 (pricing walk 2026-11-30)
        description=f"demand “{demand.name}”: "
        # the growth in the demand's own words: more whole databases, or an estate's databases grown in data and IOPS
        + (f"{count(dbs, 'database')}{f' {demand.growth_words()}' if demand.growth_pct else ''}, " if dbs > 0 else "")
        + f"{float(W.open_iops):,.0f} guaranteed IOPS (with growth)"
        + (f", tier mix {tiers}" if tiers else "" if dbs > 0 else f", {mix}"),
        block_size_kib=float(W.block_size_kib),
        read_fraction=float(W.read_fraction),
        vms_per_node=max(1, min(2000, int(np.ceil(dbs / max(nodes, 1))))) if dbs > 0 else None,
        # the load counts the databases' VMs, not the busiest node's count on every node: the sizer's
        # evaluation and the pages' then agree (24 databases on 11 nodes were 33 VMs, each at a lower
        # rate, so a VM-bound demand read 0.603 ms on the Design page and 0.832 ms in its verdict)
        vms_total=vms if dbs > 0 else None,
        vcpus_per_vm=max(1, round(float(W.vcpus_per_vm))),
        ram_gb_per_vm=(demand.ram_gb() / dbs) if dbs > 0 else 4.0,
        working_set_gb_per_vm=max(float(W.working_set_gb_per_vm), 1e-3),
        iops=float(W.open_iops),
    )


def is_demand_database(demand: Demand, fields: dict[str, Any]) -> bool:
    """Whether a database described by ``fields`` (``size_gb``, ``buffer_pool_gb``, ``nopm``, ``tpm``: what the
    SLA page's DBA boxes give) is the sized demand's own database (``demand.database``): then it is one of the
    demand's databases, not one more beside them."""
    db = demand.database
    if db is None:
        return False
    rate = {"nopm": db.nopm, "tpm": db.tpm}
    return bool(
        math.isclose(float(fields.get("size_gb") or 0.0), db.data_gb, rel_tol=1e-9)
        and math.isclose(float(fields.get("buffer_pool_gb") or 0.0), float(db.buffer_pool_gb or 0.0), rel_tol=1e-9)
        and all(fields.get(k) == v for k, v in rate.items())
    )


def demand_others_as_workload(demand: Demand, nodes: int) -> Workload | None:
    """The sized demand's load beside one of its own databases: :func:`demand_as_workload` with that database
    out (one VM fewer, its share of the IOPS out; the databases of a demand a DBA describes are alike, so the
    share is the load over the databases). None when the demand is that one database, or is not of one database
    (tiers: which tier's database is not known).

    The SLA page guaranteed the sized demand's own database beside the sized demand's load, which holds it
    already: counted twice (its caption said so; account-manager walk 2026-11-30)."""
    if demand.database is None:
        return None
    w = demand_as_workload(demand, nodes)
    dbs = w.vms_total or 0
    if dbs <= 1 or w.iops is None:
        return None
    others = dbs - 1
    return w.model_copy(
        update={
            "name": f"demand's other {count(others, 'database')}"[:200],
            "description": f"{demand.name}: the sized demand's {dbs:,} databases but this one",
            "iops": w.iops * others / dbs,
            "vms_total": others,
            "vms_per_node": max(1, min(2000, math.ceil(others / max(nodes, 1)))),
        }
    )


def load_on(design: Design, workload: Workload, demand: Demand | None) -> Workload:
    """The load another system carries for the same databases: the demand's databases on ``design``'s own
    database servers (:attr:`planner.models.design.Design.database_servers`, :func:`rehosted`) when ``workload`` is
    the demand's; any other load unchanged. Every topology alike: a system of another architecture took the sized
    cluster's VMs per node on each of its servers, so the DL580 held 6 of 24 databases' data (and their RAM) under
    all 24's IOPS (stop 57's note). The Compare page, the SLA page and the proposal judge the system today alike."""
    if demand is None:
        return workload
    return rehosted(workload, demand, design.database_servers) or workload


def rehosted(workload: Workload, demand: Demand, nodes: int) -> Workload | None:
    """The demand's workload (:func:`demand_as_workload`) on ``nodes`` nodes when ``workload`` is
    that demand's workload on any node count, else None. A what-if that removes a node moves its
    databases onto the others: the VMs per node follow the node count, the databases stay."""
    if workload.vms_per_node is None:
        return None
    here = demand_as_workload(demand, nodes)
    same = {k for k in type(workload).model_fields if k != "vms_per_node"}
    if workload.model_dump(include=same) != here.model_dump(include=same):
        return None
    return here
