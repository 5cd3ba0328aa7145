"""Performance model: compose the device, resiliency, cache, network, CPU and
queueing functions into throughput, latency and utilisation (pvlib ModelChain
style: small pure functions, one composing function).

Stations, in order (index K):

0 ``vm_vcpu``         the VM's vCPUs (private to each VM)
1 ``host_cpu``        all logical processors of the cluster (guest + host work)
2 ``network``         every node's ports, per direction
3 ``cache``           cache devices (writes land here when present)
4 ``capacity_drives`` capacity drives (reads, uncached writes, destage)

Classes (index C): 0 read, 1 write.

Everything is vectorised: :class:`DesignArrays` and :class:`WorkloadArrays`
hold one element per candidate (broadcast against each other), so a million
designs are evaluated in one call.

The physics is written once, in :func:`demand_terms` (one array per class and
station term). :func:`evaluate_arrays` composes it in blocks of rows with
:func:`planner.engine.queueing.symmetric_throughput`; :func:`evaluate_arrays_reference`
is the same model written plainly on stacked (..., C, K) arrays with
:func:`planner.engine.queueing.schweitzer_symmetric`, kept as the reference the fast
path is tested against (``tests/test_fast_path.py``, 1e-9 on random designs).
"""

from __future__ import annotations

import contextvars
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from planner.core.types import FloatArray
from planner.engine import kernels
from planner.engine.ceph_terms import ceph_demand_terms
from planner.engine.queueing import (
    BUSY_UTILIZATION,
    finite_population_factors,
    fork_join_factor,
    gamma_quantile,
    lp_wait_factor,
    open_residence,
    quantile_above_delay,
    schweitzer_residence,
    schweitzer_symmetric,
    symmetric_throughput,
    unplaced,
)
from planner.models.design import ResolvedDesign
from planner.models.params import CEPH_PARAM_NAMES, CEPH_RELEASE_CODES, PARAM_NAMES, ModelParams
from planner.models.stacks import STACK_CODES, STACK_STATION_LABELS, cache_devices_words
from planner.models.workload import Workload
from planner.physics import cache as cache_mod
from planner.physics import cpu as cpu_mod
from planner.physics import devices, network, resiliency
from planner.physics import vsan as vsan_mod
from planner.physics.capacity import RESILIENCY_CODES, capacity_all_flash, layout_min_fault_domains

STATIONS = ("vm_vcpu", "host_cpu", "network", "cache", "capacity_drives")
#: One name for each latency a report gives, on every page and in the command line's notes: which side it is, the VM's
#: (what its IO waits for, the guest stack included) or the storage layer's. The SLA page's "Read latency then" was the
#: VM's where the Compare page's "Read latency (storage)" was the storage's (DBA review 2026-11-30).
LATENCY_NAMES = {
    "read_latency_ms": "Read latency (storage)",
    "write_latency_ms": "Write latency (storage)",
    "vm_read_latency_ms": "Read latency (VM)",
    "vm_write_latency_ms": "Write latency (VM)",
    "vm_latency_ms": "VM latency",
    "p99_read_latency_ms": "p99 read latency (VM)",
}

#: Human-readable names of every value ``bottleneck`` / ``limited_by`` can take.
BOTTLENECK_LABELS = {
    "vm_vcpu": "VM vCPUs",
    "host_cpu": "host CPU",
    "network": "network",
    "cache": cache_devices_words("s2d"),
    "capacity_drives": "capacity drives",
    "outstanding_io": "outstanding IO (population)",
    "cpu_utilization_cap": "CPU utilisation cap",
    "iops_limit_per_vm": "per-VM IOPS limit",
    "population": "outstanding IO (population)",
    "offered_load": "offered load",
    "none": "none (below capacity)",
}
#: what raises each of the hyperconverged engine's stations, said where it binds a database
#: (``database_capacity.raises_it``; another architecture's come with its ``model.stations``)
BOTTLENECK_RAISES = {
    "vm_vcpu": "a VM of more vCPUs",
    "host_cpu": "more or faster CPU cores, or more nodes",
    "network": "a faster network, or more nodes",
    "cache": "more or faster cache devices, or more nodes",
    "capacity_drives": "more or faster capacity drives, or more nodes",
    "outstanding_io": "more IOs in flight (threads x outstanding IOs)",
    "population": "more IOs in flight (threads x outstanding IOs)",
    "cpu_utilization_cap": "a higher CPU utilisation cap",
    "iops_limit_per_vm": "a higher per-VM IOPS limit",
}

#: what raises a stack's own stations (:data:`planner.models.stacks.STACK_STATION_LABELS` names them)
STACK_STATION_RAISES = {"ceph": {"cache": "more or faster DB/WAL devices, or more nodes"}}


def station_words(rep: dict[str, Any]) -> dict[str, str]:
    """A report's station names in words: the engine's (:data:`BOTTLENECK_LABELS`), its stack's own
    (``stack``: :data:`STACK_STATION_LABELS`) and, for another architecture, its model's own
    (``model.stations``: "file server CPU", "PCIe flash cards"). Here, below the reports, so that the HCI
    report and another architecture's report name them alike."""
    own = {s["station"]: s["label"] for s in (rep.get("model") or {}).get("stations", [])}
    return {**BOTTLENECK_LABELS, **STACK_STATION_LABELS.get(str(rep.get("stack")), {}), **own}


def station_raises(rep: dict[str, Any]) -> dict[str, str]:
    """What raises each of a report's stations, as :func:`station_words` names them: the engine's
    (:data:`BOTTLENECK_RAISES`), its stack's own and another architecture's own (``model.stations[].raises``)."""
    own = {s["station"]: s["raises"] for s in (rep.get("model") or {}).get("stations", []) if "raises" in s}
    return {**BOTTLENECK_RAISES, **STACK_STATION_RAISES.get(str(rep.get("stack")), {}), **own}


def at_capacity(rep: dict[str, Any], host_cpu_idle: float = 0.0) -> None:
    """An open load past the design's capacity, as the report gives it (in place): limited by its full
    station (``limited_by``; the engine says the offered load set the rate) and carrying the capacity (the
    engine serves it at 99.9 % of it, for a finite residence, which read "IOPS 48,779" beside "48,828 IOPS at
    saturation" as two maxima; browser review 2026-11-30). The utilisations go with the IOPS printed: each
    station's is linear in them (U = X D), so the binding one reads 1.0, not 0.999 beside the capacity's
    IOPS (review, stop 55); the host CPU's share of logical processors busy is its idle share
    ``host_cpu_idle`` [-] plus a part linear in them. A load that is carried is left as it is."""
    if not rep.get("saturated"):
        return
    if rep.get("limited_by") == "offered_load":
        rep["limited_by"] = rep.get("bottleneck", "offered_load")
    cap, x = rep.get("iops_capacity"), rep.get("iops")
    if cap and x and cap > x:
        f = cap / x
        for k in ("iops", "iops_per_node", "bandwidth_mb_s"):
            if rep.get(k) is not None:
                rep[k] = rep[k] * f
        # 1 - 1e-9 and over: the binding station, 1 but for rounding
        rep["utilization"] = {
            s: (1.0 if u * f > 1.0 - 1e-9 else u * f) for s, u in (rep.get("utilization") or {}).items()
        }
        if rep.get("host_cpu_utilization_of_usable") is not None:
            rep["host_cpu_utilization_of_usable"] = min(rep["host_cpu_utilization_of_usable"] * f, 1.0)
        if rep.get("host_cpu_utilization") is not None:
            busy = rep["host_cpu_utilization"] - host_cpu_idle
            rep["host_cpu_utilization"] = min(host_cpu_idle + busy * f, 1.0)


#: what ``host_cpu_utilization`` is beside ``utilization["host_cpu"]`` (0.6 beside 0.86 in one report, neither
#: explained; CLI review 2026-11-30): one rule for every report
HOST_CPU_NOTE = (
    "the share of logical processors busy, as the operating system shows it; utilization.host_cpu is the share "
    "of the processors' capacity for storage IO, which simultaneous multithreading fills before every logical "
    "processor is busy"
)


def host_cpu_note(rep: dict[str, Any]) -> None:
    """Put :data:`HOST_CPU_NOTE` beside a report's ``host_cpu_utilization`` when it has both figures."""
    if rep.get("host_cpu_utilization") is not None and "host_cpu" in (rep.get("utilization") or {}):
        rep["host_cpu_utilization_note"] = HOST_CPU_NOTE


#: a latency past saturation, where a figure would stand (the Compare page, `compare`, the document, the verdict):
#: three wordings of it ("none: past saturation", "no latency: the load is past saturation", "none: the load is
#: past what it carries") read as three rules (review 2026-11-30)
#: "unbounded", not "none": a cell reading "none" was taken for no latency at all, a good figure (browser review
#: 2026-11-30)
NO_LATENCY_PAST_SATURATION = "unbounded: saturated"
#: why, in one sentence
PAST_SATURATION_WHY = (
    "the load asks more IOPS than this design carries, so its queues grow without end and no latency holds "
    "(the IOPS shown are what it carries at most)"
)
#: the note beside a latency left out past saturation (JSON ``*_latency_ms_note``, the document's cell)
PAST_SATURATION_NOTE = f"unbounded: {PAST_SATURATION_WHY}"


#: a latency of an open load a pacing policy holds back (a CPU utilisation cap, a per-VM IOPS limit), where a
#: figure would stand: the load never reaches the rate it asks, so no latency holds at that rate
NO_LATENCY_THROTTLED = "unbounded: throttled"
#: why, in one sentence
THROTTLED_WHY = (
    "the load asks more IOPS than its pacing (a CPU utilisation cap or a per-VM IOPS limit) lets through, so the IOs "
    "held back queue in their VMs without end and no latency holds at the rate it asks (the IOPS shown are those "
    "let through)"
)
#: the note beside a latency left out for a throttled open load (JSON ``*_latency_ms_note``)
THROTTLED_NOTE = f"unbounded: {THROTTLED_WHY}"


def unbounded_latency(rep: dict[str, Any], case: str = "healthy") -> dict[str, str] | None:
    """Why no latency of ``rep``'s load holds, or None when its latencies are the load's: past saturation
    (``saturated``), or an open load its pacing holds back (the ``throttled`` warning of ``case``, "healthy" or
    "one node down", :func:`saturation_warning`'s rule). One rule for `evaluate`, `compare` and the Compare page.

    Parameters
    ----------
    rep : dict
        A report (:func:`planner.results.report.evaluate_report`).

    Returns
    -------
    dict or None
        ``cell`` (the words where a figure would stand), ``why`` (one sentence) and ``note`` (the JSON
        ``*_note`` beside a null latency).
    """
    if rep.get("saturated"):
        return {"cell": NO_LATENCY_PAST_SATURATION, "why": PAST_SATURATION_WHY, "note": PAST_SATURATION_NOTE}
    if any(w.get("check") == "throttled" and w.get("case") == case for w in rep.get("warnings") or []):
        return {"cell": NO_LATENCY_THROTTLED, "why": THROTTLED_WHY, "note": THROTTLED_NOTE}
    return None


def saturation_warning(rep: dict[str, Any], offered_iops: float | None, case: str = "healthy") -> dict[str, str] | None:
    """The warning of a load past saturation (``rep`` as :func:`at_capacity` leaves it), or None when it is
    carried. ``offered_iops`` [IOPS]: what the workload asks; ``case``: "healthy" or "one node down".
    ``evaluate`` printed "limited_by": "offered_load" beside "saturated": true and a VM latency of 3.75 ms
    with no warning for 5,000,000 IOPS asked of 607,096 (CLI review 2026-11-29): the latency there is not
    this load's."""
    if not rep.get("saturated"):
        return _throttled_warning(rep, offered_iops, case)
    name = station_words(rep).get(str(rep.get("limited_by")), str(rep.get("limited_by")))
    asked = f"asks {offered_iops:,.0f} IOPS" if offered_iops else "asks more IOPS"
    cap = f"{rep.get('iops_capacity', 0.0):,.0f} IOPS"
    # the case said first: a design that carries its load healthy (the Design page's "IOPS met") and not with one
    # node down read as two answers to one question (browser review 2026-11-30)
    short = (
        f"the load {asked}, past the {cap} this design carries at most (limited by its {name})"
        if case == "healthy"
        else f"with {case}, the load {asked}, past the {cap} the design then carries at most (limited by its {name})"
    ) + ": its queues grow without end"
    shown = "shown" if case == "healthy" else f"shown with {case}"
    # ``short`` without the clause on the latencies, for a summary that shows none past saturation (`compare`)
    message = f"{short}, and the latencies {shown} are at the capacity, not at this load"
    return {"check": "saturated", "case": case, "kind": "requirement", "message": message, "short": short}


def warnings_json(warnings: list[dict[str, Any]], latencies_shown: bool = True) -> list[dict[str, Any]]:
    """A report's warnings as every JSON report prints them (``evaluate``, ``compare``): the objects themselves,
    key for key (``check``, ``case``, ``message`` and, where a rule sets them, ``kind``, ``short`` and its
    figures). ``latencies_shown`` False: a summary that leaves the load's latencies out (past saturation) prints
    each warning's ``message`` as its ``short``, without the clause on the latencies shown. `compare` printed
    the messages alone, as strings, beside `evaluate`'s objects (known gap, stop 51)."""
    if latencies_shown:
        return [dict(w) for w in warnings]
    return [{**w, "message": w["short"]} if "short" in w else dict(w) for w in warnings]


#: a pacing policy in words, as a throttled open load's warning names it
PACING_WORDS = {"cpu_utilization_cap": "CPU utilisation cap", "iops_limit_per_vm": "per-VM IOPS limit"}


def _throttled_warning(rep: dict[str, Any], offered_iops: float | None, case: str) -> dict[str, str] | None:
    """The warning of an open load a pacing policy holds below what it asks (``limited_by`` the CPU
    utilisation cap or a per-VM IOPS limit), or None. A closed load's held-back IOs wait a finite time in
    their VMs (``vm_response_ms``); an open load's arrive regardless, so the IOs the policy holds back
    queue without end: ``evaluate`` printed 523,208 IOPS at 0.514 ms, "saturated": false, and no warning for
    5,000,000 IOPS asked, where the same load without the cap warned (API walk 2026-11-30)."""
    policy = rep.get("limited_by")
    if not offered_iops or policy not in PACING_WORDS or rep.get("iops") is None:
        return None
    if rep["iops"] >= offered_iops * (1 - 1e-9):
        return None
    where = "" if case == "healthy" else f"with {case}, "
    short = (
        f"{where}the load asks {offered_iops:,.0f} IOPS and the {PACING_WORDS[policy]} lets "
        f"{rep['iops']:,.0f} through: the rest queue in their VMs without end"
    )
    shown = "shown" if case == "healthy" else f"shown with {case}"
    message = f"{short}, and the latencies {shown} are of the IOs admitted, not of this load"
    return {"check": "throttled", "case": case, "kind": "requirement", "message": message, "short": short}


K = len(STATIONS)
US = 1e-6


@dataclass
class DesignArrays:
    nodes: np.ndarray
    fault_domains: np.ndarray
    drives_per_node: np.ndarray
    drive_capacity_tb: np.ndarray
    drive_read_iops: np.ndarray
    drive_write_iops: np.ndarray
    drive_read_mb_s: np.ndarray
    drive_write_mb_s: np.ndarray
    drive_read_latency_us: np.ndarray
    drive_write_latency_us: np.ndarray
    drive_dwpd: np.ndarray
    drive_warranty_years: np.ndarray
    cache_per_node: np.ndarray
    cache_gb: np.ndarray
    cache_read_iops: np.ndarray
    cache_write_iops: np.ndarray
    cache_read_mb_s: np.ndarray
    cache_write_mb_s: np.ndarray
    cache_read_latency_us: np.ndarray
    cache_write_latency_us: np.ndarray
    lps_per_node: np.ndarray
    cores_per_node: np.ndarray
    base_ghz: np.ndarray
    node_bandwidth_bytes_s: np.ndarray
    tcp: np.ndarray
    resiliency_code: np.ndarray
    mirror_share: np.ndarray
    cpu_utilization_cap: np.ndarray
    vcpu_oversubscription: np.ndarray
    read_caching: np.ndarray
    write_caching: np.ndarray
    volume_servers: np.ndarray
    #: capacity drives are flash (Microsoft's all-flash parity table), not HDD (hybrid)
    all_flash: np.ndarray
    # the storage stack (planner.models.stacks.STACK_CODES) and what Ceph and vSAN add;
    # an S2D row leaves them at their defaults (0-d arrays broadcast to every row)
    stack: np.ndarray = field(default_factory=lambda: np.asarray(0))
    data_chunks: np.ndarray = field(default_factory=lambda: np.asarray(1.0))
    width: np.ndarray = field(default_factory=lambda: np.asarray(1.0))
    esa: np.ndarray = field(default_factory=lambda: np.asarray(False))
    clients_separate: np.ndarray = field(default_factory=lambda: np.asarray(False))
    client_nodes: np.ndarray = field(default_factory=lambda: np.asarray(0.0))
    client_lps_per_node: np.ndarray = field(default_factory=lambda: np.asarray(1.0))
    client_base_ghz: np.ndarray = field(default_factory=lambda: np.asarray(3.0))
    client_bandwidth_bytes_s: np.ndarray = field(default_factory=lambda: np.asarray(1.0))
    osds_per_drive: np.ndarray = field(default_factory=lambda: np.asarray(1.0))
    ceph_release: np.ndarray = field(default_factory=lambda: np.asarray(CEPH_RELEASE_CODES["reef"]))
    rocksdb_tuned: np.ndarray = field(default_factory=lambda: np.asarray(False))
    db_separate: np.ndarray = field(default_factory=lambda: np.asarray(False))
    # round trip between fault domains beyond a same-room link (Design.fault_domain_rtt_ms), any stack
    fault_domain_rtt_s: np.ndarray = field(default_factory=lambda: np.asarray(0.0))
    # the fault domains are the nodes (Design.fault_domain "node"), not racks or chassis
    node_fault_domains: np.ndarray = field(default_factory=lambda: np.asarray(True))
    # one node down: the share of the data's copies, columns or components on the lost node, whose reads are decoded
    # from the surviving ones (planner.engine.degraded.degraded_arrays); 0 healthy
    lost_copy_share: np.ndarray = field(default_factory=lambda: np.asarray(0.0))
    # one node down, no repair: the share of a write's copies, columns or components that sat on the lost node and
    # are not written (planner.physics.resiliency.surviving_writes, every stack); 0 healthy or while a repair runs
    lost_write_share: np.ndarray = field(default_factory=lambda: np.asarray(0.0))
    # Ceph's and vSAN's layout: the fault domains its stripe needs, which one node's survivors must number to
    # re-protect it (physics.capacity.layout_min_fault_domains; inf for a single copy). An S2D row reads its
    # resiliency code's instead (planner.engine.degraded.survivors_repair)
    layout_min_fault_domains: np.ndarray = field(default_factory=lambda: np.asarray(np.nan))
    # one node down: the share of a survivor's storage links still joined to a live node (a storage-switchless mesh's
    # links to the lost node idle: planner.physics.network.live_links_node_down); 1 through switches
    live_links_node_down: np.ndarray = field(default_factory=lambda: np.asarray(1.0))

    def __post_init__(self) -> None:
        # a stack column left at its default takes the rows' shape, as every other column has
        shape = np.shape(self.nodes)
        for f in fields(self)[_FIRST_STACK_FIELD:]:
            v = np.asarray(getattr(self, f.name))
            if v.ndim == 0 and shape:
                setattr(self, f.name, np.full(shape, v))

    @classmethod
    def from_designs(cls, designs: list[ResolvedDesign]) -> DesignArrays:
        rows = [_design_row(rd) for rd in designs]
        return cls(**{f.name: np.array([r[f.name] for r in rows]) for f in fields(cls)})

    def take(self, idx: FloatArray) -> DesignArrays:
        return DesignArrays(**{f.name: getattr(self, f.name)[idx] for f in fields(self)})

    def replace(self, **changes: FloatArray) -> DesignArrays:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data.update({k: np.asarray(v) for k, v in changes.items()})
        return DesignArrays(**data)

    def __len__(self) -> int:
        return int(np.size(self.nodes))


_FIRST_STACK_FIELD = [f.name for f in fields(DesignArrays)].index("stack")


def _design_row(rd: ResolvedDesign) -> dict[str, Any]:
    return _s2d_row(rd) | _stack_row(rd)


def _stack_row(rd: ResolvedDesign) -> dict[str, Any]:
    """The stack's columns: S2D's defaults, or Ceph's and vSAN's layout and settings."""
    d, n, cl = rd.design, rd.node, rd.clients
    row = dict(
        stack=STACK_CODES[d.stack],
        data_chunks=1.0,
        width=1.0,
        esa=False,
        clients_separate=cl is not None,
        client_nodes=float(cl.servers) if cl else 0.0,
        client_lps_per_node=float(cl.threads) if cl else 1.0,
        client_base_ghz=cl.cpu.base_ghz if cl else n.cpu.base_ghz,
        client_bandwidth_bytes_s=network.storage_bandwidth_bytes_s(
            d.stack, cl.nic, cl.nic_count, d.vsan_spec.active_links
        )
        if cl
        else 1.0,
        osds_per_drive=1.0,
        ceph_release=CEPH_RELEASE_CODES["reef"],
        rocksdb_tuned=False,
        db_separate=False,
        # a single machine has no other fault domain to wait for
        fault_domain_rtt_s=d.fault_domain_rtt_ms * 1e-3 if rd.nodes > 1 else 0.0,
        node_fault_domains=d.fault_domain == "node",
        lost_copy_share=0.0,
        lost_write_share=0.0,
        layout_min_fault_domains=np.nan,
        live_links_node_down=network.live_links_node_down(rd.nodes, d.storage_switchless),
    )
    if d.stack == "s2d":
        return row
    lay = d.layout
    row.update(
        data_chunks=float(lay.data), width=float(lay.width), layout_min_fault_domains=layout_min_fault_domains(lay)
    )
    if d.stack == "ceph":
        cs = d.ceph_spec
        row.update(
            osds_per_drive=float(cs.osds_per_drive),
            ceph_release=CEPH_RELEASE_CODES[cs.release],
            rocksdb_tuned=cs.rocksdb_tuning == "tuned-2022",
            db_separate=n.cache is not None,
        )
    else:
        row.update(esa=d.vsan_spec.architecture == "esa")
    return row


def _s2d_row(rd: ResolvedDesign) -> dict[str, Any]:
    d, n = rd.design, rd.node
    c = n.cache
    return dict(
        nodes=d.nodes,
        fault_domains=d.effective_fault_domains,
        drives_per_node=n.drive_count,
        drive_capacity_tb=n.drive.capacity_tb,
        drive_read_iops=n.drive.rand_read_4k_iops,
        drive_write_iops=n.drive.rand_write_4k_iops,
        drive_read_mb_s=n.drive.seq_read_mb_s,
        drive_write_mb_s=n.drive.seq_write_mb_s,
        drive_read_latency_us=n.drive.read_latency_us,
        drive_write_latency_us=n.drive.write_latency_us,
        drive_dwpd=n.drive.endurance_dwpd,
        drive_warranty_years=n.drive.warranty_years,
        cache_per_node=n.cache_count if c else 0,
        cache_gb=c.capacity_gb if c else 0.0,
        cache_read_iops=c.rand_read_4k_iops if c else 1.0,
        cache_write_iops=c.rand_write_4k_iops if c else 1.0,
        cache_read_mb_s=c.seq_read_mb_s if c else 1.0,
        cache_write_mb_s=c.seq_write_mb_s if c else 1.0,
        cache_read_latency_us=c.read_latency_us if c else 0.0,
        cache_write_latency_us=c.write_latency_us if c else 0.0,
        lps_per_node=n.threads,
        cores_per_node=n.cores,
        base_ghz=n.cpu.base_ghz,
        node_bandwidth_bytes_s=network.node_storage_bandwidth_bytes_s(rd),
        tcp=not rd.runs_rdma,
        # Ceph and vSAN layouts are in their own columns; the S2D code is a placeholder there
        resiliency_code=RESILIENCY_CODES.get(d.resiliency, RESILIENCY_CODES["mirror-3way"]),
        mirror_share=d.mirror_share,
        cpu_utilization_cap=d.cpu_utilization_cap,
        vcpu_oversubscription=d.vcpu_oversubscription,
        read_caching=rd.cache_mode in ("read-write", "read-only"),
        write_caching=rd.cache_mode in ("read-write", "write-only"),
        volume_servers=d.effective_volume_servers if d.stack == "s2d" else d.nodes,
        all_flash=capacity_all_flash(n.drive),
    )


@dataclass
class WorkloadArrays:
    block_size_kib: np.ndarray
    read_fraction: np.ndarray
    vms_total: np.ndarray  # 0 = open load without a VM population
    vcpus_per_vm: np.ndarray
    outstanding_per_vm: np.ndarray
    working_set_gb_per_vm: np.ndarray
    open_iops: np.ndarray  # nan = closed population
    iops_limit_per_vm: np.ndarray  # inf = none
    alignment: np.ndarray
    host_issuer: np.ndarray  # True: issued on the nodes, no VM layer

    @classmethod
    def from_workload(cls, w: Workload, nodes: FloatArray) -> WorkloadArrays:
        nodes = np.asarray(nodes)
        vms = w.vms_on(nodes)
        return cls(
            block_size_kib=np.asarray(w.block_size_kib, dtype=float),
            read_fraction=np.asarray(w.read_fraction, dtype=float),
            vms_total=np.asarray(vms, dtype=float),
            vcpus_per_vm=np.asarray(w.vcpus_per_vm, dtype=float),
            outstanding_per_vm=np.asarray(w.outstanding_per_vm, dtype=float),
            working_set_gb_per_vm=np.asarray(w.working_set_gb_per_vm, dtype=float),
            open_iops=np.asarray(np.nan if w.iops is None else w.iops, dtype=float),
            iops_limit_per_vm=np.asarray(np.inf if w.iops_limit_per_vm is None else w.iops_limit_per_vm),
            alignment=np.asarray(w.vm_alignment, dtype=float),
            host_issuer=np.asarray(w.issuer == "host"),
        )

    @classmethod
    def from_workloads(cls, ws: list[Workload], nodes: FloatArray) -> WorkloadArrays:
        """One element per workload (``nodes``: the matching designs' node counts)."""
        parts = [cls.from_workload(w, n) for w, n in zip(ws, np.asarray(nodes))]
        return cls(**{f.name: np.array([getattr(p, f.name) for p in parts]) for f in fields(cls)})


def issuing_nodes(D: DesignArrays) -> FloatArray:
    """The servers a workload's ``vms_per_node`` counts per: the storage nodes, or the
    client servers of a disaggregated Ceph or vSAN design."""
    return np.where(np.asarray(D.clients_separate, dtype=bool), D.client_nodes, D.nodes)


def demand_terms(D: DesignArrays, W: WorkloadArrays, p: ModelParams) -> dict[str, Any]:
    """The model's physics per IO, one array per (class, station) term.

    Elementwise on whatever D and W hold (whole arrays, or one slice of them
    in :func:`evaluate_arrays`). Keys: ``path_read`` / ``path_write`` (K
    stations, seconds of queueing demand), ``background`` (capacity drives
    only: the other stations carry none), ``vms`` (VMs sharing the pooled
    stations, >= 1), the fixed delays ``delay_storage_*`` and ``delay_vm_*``,
    CPU per IO ``cpu_lp_s_*`` and its critical-path part ``host_critical_s_*``
    (seconds), and intermediate figures (hops, hits, copies written, cached,
    destaged and read back per write). :func:`demands` stacks them.

    The design's ``stack`` picks the physics: Ceph's own
    (:func:`planner.engine.ceph_terms.ceph_demand_terms`), or this one with vSAN's
    layouts (:func:`planner.physics.vsan.layout_terms`) or S2D's. One call holds
    one stack.
    """
    stack = _one_stack(D)
    if stack == STACK_CODES["ceph"]:
        return ceph_demand_terms(D, W, p)
    code = D.resiliency_code
    n = np.asarray(D.nodes).astype(float)
    bs = W.block_size_kib
    r = W.read_fraction
    scale = cpu_mod.clock_scale(D.base_ghz)
    alignment = W.alignment

    if stack == STACK_CODES["vsan"]:
        # vSAN moves an object's owner to the VM's host: no redirected IO. Its components stay on the hosts
        # they were placed on (``volume_servers``: the healthy host count, kept with one host down), so a lost
        # host makes no read more local (with D.nodes, one host down read more locally and gained IOPS)
        alignment = np.ones_like(np.asarray(W.alignment, dtype=float))
        hops_r, hops_w, bw_writes, rmw, rot_read, rot_write = vsan_mod.layout_terms(
            D.volume_servers, D.data_chunks, D.width, D.esa, D.clients_separate, D.lost_write_share
        )
        # one host down: a read of a RAID-5/6 component on the absent host decodes it from the k surviving ones,
        # S2D parity's rule (resiliency.decoded_reads_per_read); the extra chunks cross the network as vSAN's other
        # device IOs do. ESA 4+1 read nothing more one host down (vSAN specialist's walk)
        decoded = decoded_hops = 0.0
        if np.any(D.lost_copy_share):
            erasure = np.asarray(D.data_chunks, dtype=float) > 1
            decoded = resiliency.decoded_reads_per_read(erasure, D.data_chunks, D.lost_copy_share)
            decoded_hops = decoded * vsan_mod.remote_share(D.volume_servers, D.clients_separate)
    else:
        hops_r = network.read_hops(code, D.volume_servers, W.alignment, D.mirror_share)
        hops_w = network.write_hops(code, D.volume_servers, W.alignment)
        bw_writes = resiliency.backend_writes_per_write(code)
        # one node down and no repair: a write makes only the copies (mirror) or columns (parity) whose node is
        # up; the lost node's are remote ones (it is never the serving node), so as many fewer cross the network
        lost = D.lost_write_share
        remote_copies = resiliency.remote_writes_per_write(code, D.volume_servers)
        bw_writes, fewer_hops = resiliency.surviving_writes(bw_writes, remote_copies, lost)
        hops_w = hops_w - fewer_hops
        rmw = resiliency.rmw_reads_per_write(code)
        if np.any(np.asarray(code) == 4):  # only mirror-accelerated parity rotates
            rot_read, rot_write = resiliency.rotation_per_write(code, D.fault_domains, D.mirror_share, D.all_flash)
            rot_write, _ = resiliency.surviving_writes(rot_write, 0.0, lost)  # nor its rotation, the lost column
        else:
            rot_read = rot_write = 0.0
        # reads of a lost parity column decoded from the surviving ones, and a read-modify-write that reads no
        # lost column (resiliency module doc); a parity column crosses the network with P = 1 - 1/S
        # (resiliency.remote_writes_per_write's rule). Healthy rows (no lost column) skip this.
        decoded = decoded_hops = 0.0
        if np.any(lost) or np.any(D.lost_copy_share):
            decode = resiliency.decode_columns(code, D.fault_domains, D.all_flash)
            remote = np.where(D.volume_servers > 1, 1.0 - 1.0 / np.maximum(D.volume_servers, 1.0), 0.0)
            rmw_down = resiliency.degraded_rmw_reads_per_write(code, decode, lost)
            hops_w = hops_w - (rmw - rmw_down) * remote
            rmw = rmw_down
            decoded = resiliency.reconstruction_reads_per_read(code, decode, D.mirror_share, D.lost_copy_share)
            decoded_hops = decoded * remote

    has_cache = D.cache_per_node > 0
    # writes land in the cache only in write-only / read-write mode
    wcache = has_cache & D.write_caching
    cache_total_gb = D.cache_gb * D.cache_per_node * n
    vms = W.vms_total
    footprint_gb = W.working_set_gb_per_vm * np.maximum(vms, 1.0) * bw_writes
    absorb = cache_mod.write_absorption(footprint_gb, cache_total_gb)
    hit = cache_mod.read_hit_ratio(footprint_gb, cache_total_gb, D.read_caching)

    eff = p.drive_efficiency
    n_drives = D.drives_per_node * n
    t_dr = devices.busy_time_s(bs, D.drive_read_iops, D.drive_read_mb_s, eff)
    t_dw = devices.busy_time_s(bs, D.drive_write_iops, D.drive_write_mb_s, eff)
    n_cache = np.maximum(D.cache_per_node * n, 1)
    t_cr = devices.busy_time_s(bs, D.cache_read_iops, D.cache_read_mb_s)
    t_cw = devices.busy_time_s(bs, D.cache_write_iops, D.cache_write_mb_s)
    # parity rotation moves large sequential stripes: bandwidth-bound
    bytes_ = bs * devices.KIB
    t_rot = (rot_read * bytes_ / (D.drive_read_mb_s * 1e6) + rot_write * bytes_ / (D.drive_write_mb_s * 1e6)) / eff

    # --- CPU (LP-seconds per IO); a host issuer has no guest OS in the path
    vm_issuer = ~np.asarray(W.host_issuer, dtype=bool)
    guest_s = np.where(vm_issuer, p.guest_cpu_us * scale * US, 0.0)
    tcp_cpu = np.where(D.tcp, p.tcp_cpu_per_crossing_us, 0.0)
    # a decoded read's extra column reads cost what a read-modify-write's reads do, and cross the network
    hops_r_bytes = hops_r + decoded_hops
    host_r_s = (cpu_mod.host_read_us(p, hops_r_bytes, bs, tcp_cpu) + decoded * p.host_cpu_read_us) * scale * US
    # a cached write is later destaged: read back from the cache device and
    # written to a capacity drive on the same node (off the IO's path, but the
    # host's CPU does both), unless an overwrite absorbed it in the cache
    destaged = np.where(wcache, bw_writes * (1.0 - absorb), 0.0)
    host_w_s = (
        (cpu_mod.host_write_us(p, bw_writes, rmw, hops_w, bs, tcp_cpu) + cpu_mod.destage_us(p, destaged, bs))
        * scale
        * US
    )
    # host CPU on an IO's critical path: reads run their steps in sequence; a
    # write's copies are processed in parallel on their nodes, so its path holds
    # the redirect and one copy's processing (local, or remote plus the hop)
    # the part of a write's host CPU that its copies run in parallel, one per
    # copy's node: work every branch of the fork-join receives from the same
    # write at the same time (the fork-join wait's shared arrivals)
    forked_w_s = p.host_cpu_write_us * bw_writes * scale * US
    redirect = 1.0 - alignment
    remote_w = hops_w - redirect
    crit_r_s = host_r_s
    crit_w_s = (
        (
            p.host_cpu_write_us
            + (redirect + np.minimum(remote_w, 1.0)) * (p.host_cpu_hop_us + tcp_cpu)
            + p.host_cpu_per_kib_us * bs
        )
        * scale
        * US
    )
    # LPs left for IO work once the idle load (OS, idle VMs) is served
    # Windows reports % of logical processors busy, but two SMT siblings share
    # one core, so throughput stops growing before 100 % (fitted ceiling)
    lps_total = D.lps_per_node * n * (p.host_cpu_max_utilization - p.host_cpu_idle_utilization)
    vcpus = np.maximum(W.vcpus_per_vm, 1.0)

    # 0: the VM's own vCPUs, m = vcpus servers (Seidmann: queue part D/m)
    vcpu = guest_s / vcpus
    # 1: host CPU, pooled over all LPs; guest work runs on the same LPs
    # 2: network
    net_bw = D.node_bandwidth_bytes_s
    # 3: cache devices; 4: capacity drives
    path_r = [
        vcpu,
        (guest_s + host_r_s) / lps_total,
        network.wire_demand_s(hops_r_bytes, bs, n, net_bw),
        hit * t_cr * (1.0 + decoded) / n_cache,
        (1.0 - hit) * t_dr * (1.0 + decoded) / n_drives,
    ]
    path_w = [
        vcpu,
        (guest_s + host_w_s) / lps_total,
        network.wire_demand_s(hops_w, bs, n, net_bw),
        np.where(wcache, bw_writes * t_cw / n_cache, 0.0),
        np.where(wcache, 0.0, bw_writes * t_dw / n_drives) + rmw * t_dr / n_drives,
    ]
    w = 1.0 - r
    bg = w * (np.where(wcache, bw_writes * (1.0 - absorb) * t_dw, 0.0) + t_rot) / n_drives

    tcp_hop = np.where(D.tcp, p.tcp_hop_latency_us, 0.0)
    hop_lat = network.crossing_latency_s((p.hop_latency_us + tcp_hop) * US, D.fault_domain_rtt_s)
    dev_r = (1.0 - hit) * D.drive_read_latency_us * US + hit * D.cache_read_latency_us * US
    dev_w = np.where(wcache, D.cache_write_latency_us, D.drive_write_latency_us) * US
    # (a decoded read's column reads run in parallel: one crossing, as the read it replaces)
    ds_r = p.stack_read_latency_us * US + dev_r + hops_r * hop_lat
    # a misaligned VM's write is first redirected to the owner (one crossing),
    # then the owner sends the remote copies in parallel (one more crossing)
    ds_w = p.stack_write_latency_us * US + dev_w + (redirect + np.minimum(remote_w, 1.0)) * hop_lat
    # the rooms' round trip in those delays: a propagation delay every IO waits alike (no spread)
    rtt_r = hops_r * D.fault_domain_rtt_s
    rtt_w = (redirect + np.minimum(remote_w, 1.0)) * D.fault_domain_rtt_s
    seidmann = guest_s * (vcpus - 1.0) / vcpus
    guest_delay = np.where(vm_issuer, p.guest_latency_us * US + seidmann, 0.0)
    return dict(
        path_read=path_r,
        path_write=path_w,
        background=bg,
        vms=np.maximum(vms, 1.0),
        delay_storage_read=ds_r,
        delay_storage_write=ds_w,
        delay_vm_read=ds_r + guest_delay,
        delay_vm_write=ds_w + guest_delay,
        delay_rtt_read=rtt_r,
        delay_rtt_write=rtt_w,
        cpu_lp_s_read=guest_s + host_r_s,
        cpu_lp_s_write=guest_s + host_w_s,
        host_critical_s_read=crit_r_s,
        host_critical_s_write=crit_w_s,
        lps_total=lps_total,
        hops_read=hops_r_bytes,
        hops_write=hops_w,
        backend_writes=bw_writes,
        write_absorption=absorb,
        read_hit=hit,
        write_cached=wcache,
        destaged=destaged,
        rmw_reads=rmw,
        decoded_reads=np.asarray(decoded, dtype=float),  # column or chunk reads a read makes to decode a lost one
        write_branches=np.minimum(bw_writes, n),
        forked_cpu_s_write=forked_w_s,
    )


def _one_stack(D: DesignArrays) -> int:
    """The stack code of every row (one stack per call: they take different parameters)."""
    st = np.asarray(getattr(D, "stack", 0))
    if st.ndim == 0:
        return int(st)
    first = int(st.flat[0]) if st.size else 0
    if st.size and np.any(st != first):
        raise ValueError("one storage stack per model call (Ceph, vSAN and S2D designs take different parameters)")
    return first


def forked_share(
    read_fraction: FloatArray, cpu_lp_s_read: FloatArray, cpu_lp_s_write: FloatArray, forked_cpu_s_write: FloatArray
) -> FloatArray:
    """Share of the logical processors' IO work that arrives forked: the
    writes' per-copy processing, which every copy's node receives from the
    same write at once (see :func:`planner.engine.queueing.fork_join_factor`)."""
    r = np.asarray(read_fraction, dtype=float)
    w = 1.0 - r
    total = r * cpu_lp_s_read + w * cpu_lp_s_write
    return np.where(total > 0, w * forked_cpu_s_write / np.maximum(total, 1e-300), 0.0)


def demands(D: DesignArrays, W: WorkloadArrays, p: ModelParams) -> dict[str, Any]:
    """Per-IO demands and fixed delays (the model's physics, before queueing).

    Returns a dict with ``path`` (..., C, K) seconds, ``background`` (..., K),
    ``share`` (..., K), ``delay_storage`` and ``delay_vm`` (..., C) seconds,
    ``cpu_lp_s`` (..., C) LP-seconds per IO, plus intermediate figures
    (:func:`demand_terms` stacked).
    """
    t = demand_terms(D, W, p)
    shape = np.broadcast(D.nodes, W.block_size_kib, W.read_fraction, W.vms_total, W.alignment, W.host_issuer).shape
    path = np.zeros((*shape, 2, K))
    bg = np.zeros((*shape, K))
    for k in range(K):
        path[..., 0, k] = t["path_read"][k]
        path[..., 1, k] = t["path_write"][k]
    bg[..., 4] = t["background"]
    share = np.empty((*shape, K))
    share[..., 0] = 1.0
    share[..., 1:] = t["vms"][..., None] if np.ndim(t["vms"]) else float(t["vms"])

    def pair(name: str) -> FloatArray:
        return np.stack(np.broadcast_arrays(t[f"{name}_read"], t[f"{name}_write"]), -1)

    delay_storage = np.zeros((*shape, 2))
    delay_storage[..., 0] = t["delay_storage_read"]
    delay_storage[..., 1] = t["delay_storage_write"]
    delay_vm = np.zeros((*shape, 2))
    delay_vm[..., 0] = t["delay_vm_read"]
    delay_vm[..., 1] = t["delay_vm_write"]
    delay_rtt = np.zeros((*shape, 2))
    delay_rtt[..., 0] = t["delay_rtt_read"]
    delay_rtt[..., 1] = t["delay_rtt_write"]
    return dict(
        path=path,
        background=bg,
        share=share,
        delay_storage=delay_storage,
        delay_vm=delay_vm,
        delay_rtt=delay_rtt,
        cpu_lp_s=pair("cpu_lp_s"),
        host_critical_s=pair("host_critical_s"),
        lps_total=t["lps_total"],
        hops_read=t["hops_read"],
        hops_write=t["hops_write"],
        backend_writes=t["backend_writes"],
        write_absorption=t["write_absorption"],
        read_hit=t["read_hit"],
        write_branches=t["write_branches"],
        forked_cpu_s_write=t["forked_cpu_s_write"],
    )


def evaluate_arrays_reference(D: DesignArrays, W: WorkloadArrays, p: ModelParams) -> dict[str, Any]:
    """:func:`evaluate_arrays` written plainly on (..., C, K) arrays: the
    reference the fast path is tested against (to 1e-9), not used in production.

    Closed populations are solved with symmetric approximate MVA; then the
    per-VM rate limit and the CPU utilisation cap (policies) throttle the load,
    and a throttled or open load is evaluated as an open network at that rate.
    All latencies are means in ms unless named p90/p99.
    """
    dm = demands(D, W, p)
    path, bg, share = dm["path"], dm["background"], dm["share"]
    r = np.asarray(W.read_fraction, dtype=float)
    mix = np.stack(np.broadcast_arrays(r, 1.0 - r), -1)
    mix = np.broadcast_to(mix, (*path.shape[:-2], 2))
    vms = np.broadcast_to(np.maximum(W.vms_total, 1.0), path.shape[:-2]).astype(float)
    closed = np.broadcast_to(np.isnan(W.open_iops), vms.shape)
    n_per_vm = np.broadcast_to(W.outstanding_per_vm, vms.shape).astype(float)

    # --- open loads without a population: no private vCPU queue
    no_pop = np.broadcast_to(W.vms_total <= 0, vms.shape)
    share = np.where(no_pop[..., None] & (np.arange(K) == 0), 0.0, share)

    # solve the closed network only where there is a closed population
    delay_vm = np.broadcast_to(dm["delay_vm"], (*vms.shape, 2))
    # The storage stack runs in the root partition ahead of guest vCPUs, so
    # the pooled CPU station's queue shows at the VM layer. The storage layer
    # still waits for the logical processor its IO's work is bound to
    # (interrupt and completion processing run on the core the NIC or drive
    # queue maps to): an M/M/1 wait per LP, its critical-path host CPU time x
    # U / (1 - U) at the LP utilisation U, scaled by a fitted factor.
    cpu_per_io = (mix * dm["cpu_lp_s"]).sum(-1)
    lps_raw = np.broadcast_to(D.lps_per_node * D.nodes, vms.shape).astype(float)
    idle = p.host_cpu_idle_utilization
    wait_coef = np.broadcast_to(p.storage_cpu_wait * dm["host_critical_s"], (*vms.shape, 2))
    # a write waits for the last of its copies' LPs (fork-join), a read for one
    branches = np.stack(np.broadcast_arrays(np.ones(vms.shape), np.broadcast_to(dm["write_branches"], vms.shape)), -1)
    forked = np.broadcast_to(
        forked_share(r, dm["cpu_lp_s"][..., 0], dm["cpu_lp_s"][..., 1], dm["forked_cpu_s_write"]), vms.shape
    )[..., None]
    u_slope = vms * cpu_per_io / lps_raw
    if np.all(closed):  # the common case (sweeps): no gather/scatter copies
        x_closed, res_closed = schweitzer_symmetric(
            path, mix, bg, share, n_per_vm, delay_vm, lp_wait=(wait_coef, idle, u_slope, branches, forked)
        )
    else:
        x_closed, res_closed = np.zeros(vms.shape), np.zeros(path.shape)
        if np.any(closed):
            ci = np.nonzero(closed)
            x_closed[ci], res_closed[ci] = schweitzer_symmetric(
                path[ci],
                mix[ci],
                np.broadcast_to(bg, share.shape)[ci],
                share[ci],
                n_per_vm[ci],
                delay_vm[ci],
                lp_wait=(wait_coef[ci], idle, u_slope[ci], branches[ci], forked[ci]),
            )
    x_open = np.broadcast_to(W.open_iops, vms.shape) / vms
    x = np.where(closed, x_closed, x_open)
    limited_by = np.where(closed, "population", "offered_load").astype(object)

    limit = np.broadcast_to(W.iops_limit_per_vm, vms.shape)
    hit_limit = x > limit
    x = np.where(hit_limit, limit, x)
    limited_by = np.where(hit_limit, "iops_limit_per_vm", limited_by)

    cap = np.broadcast_to(D.cpu_utilization_cap, vms.shape)
    x_cap = cpu_mod.cap_throughput_iops(cap, p, lps_raw, cpu_per_io) / vms
    # a cap of 1.0 means no policy: saturation is the closed network's business
    capped = (cap < 1.0) & (x > x_cap * (1 + 1e-9))
    x = np.where(capped, x_cap, x)
    limited_by = np.where(capped, "cpu_utilization_cap", limited_by)

    # capacity bound of the network (the busiest station saturates)
    total = (mix[..., :, None] * path).sum(-2) + bg
    x_sat = 1.0 / np.maximum((total * share).max(-1), 1e-15)
    over = x >= x_sat * (1 - 1e-9)
    saturated = over & ~closed
    # an open load the cap throttled to a rate still past the network's capacity is limited by its full
    # station, not by the cap: "limited by its CPU utilisation cap" stood beside a host CPU 69 % busy under a
    # cap of 80 % (API walk 2026-11-30); :func:`at_capacity` names the station
    limited_by = np.where(saturated, "offered_load", limited_by)
    x = np.where(over & ~closed, x_sat * 0.999, x)

    res, util = open_residence(path, mix, bg, share, x)
    # A throttled closed population (rate limit, CPU cap) holds its IOs at the
    # issuer: the throttle is a delay in the loop, so the service path carries
    # x * R(x) < n IOs. Its residences are the MVA recursion's at rate x, which
    # keeps Little's law (the open M/M/1 formula can overshoot n near saturation).
    throttled_closed = closed & (hit_limit | capped)
    if np.any(throttled_closed):
        ti = np.nonzero(throttled_closed)
        res[ti] = schweitzer_residence(
            path[ti], mix[ti], np.broadcast_to(bg, share.shape)[ti], share[ti], n_per_vm[ti], x[ti]
        )
    # closed and unthrottled: the MVA residences at x
    res = np.where((closed & ~(hit_limit | capped))[..., None, None], res_closed, res)

    iops = x * vms
    util = np.clip(util, 0.0, 1.0)
    # Windows' host CPU figure: share of logical processors busy (utilisation law)
    util_cpu = np.clip(idle + x * u_slope, 0.0, 1.0)
    # the host CPU station's utilisation is of its usable capacity (idle load
    # served, up to the SMT ceiling), so a CPU-bound run reads 1.0 there
    util[..., 1] = np.clip((util_cpu - idle) / (p.host_cpu_max_utilization - idle), 0.0, 1.0)

    cpu_wait = (
        wait_coef * lp_wait_factor(util_cpu)[..., None] * fork_join_factor(util_cpu[..., None], branches, False, forked)
    )
    storage_ms = (res[..., 2:].sum(-1) + path[..., 1] + dm["delay_storage"] + cpu_wait) * 1e3
    vm_ms = (res.sum(-1) + dm["delay_vm"] + cpu_wait) * 1e3
    mean_vm = (mix * vm_ms).sum(-1)
    # A rate limit (Storage QoS, the IO tool's pacing) or the CPU cap paces IO
    # at the issuer: IOs wait before they are issued, not in the storage path,
    # so the VM-layer latency is the service path's (VMFleet's throttled steps
    # show exactly that: 0.85 ms at 5,715 IOPS per VM with 32 "outstanding").
    # Fewer IOs are then really in flight: outstanding_ios = x * R <= n (Little).
    bott_idx = util.argmax(-1)
    names = np.array(STATIONS, dtype=object)
    bottleneck = np.where(
        limited_by == "population",
        np.where(util.max(-1) > BUSY_UTILIZATION, names[bott_idx], "outstanding_io"),
        limited_by,
    )
    bottleneck = np.where(limited_by == "offered_load", np.where(saturated, names[bott_idx], "none"), bottleneck)

    cv2 = p.latency_cv2
    bytes_per_io = W.block_size_kib * devices.KIB
    rtt_ms = dm["delay_rtt"] * 1e3

    def pct(c: int, q: float) -> FloatArray:
        return quantile_above_delay(vm_ms[..., c], rtt_ms[..., c], gamma_quantile(1.0, cv2, q))

    return dict(
        iops=iops,
        iops_per_node=iops / D.nodes,
        iops_capacity=x_sat * vms,
        bandwidth_mb_s=iops * bytes_per_io / 1e6,
        read_latency_ms=storage_ms[..., 0],
        write_latency_ms=storage_ms[..., 1],
        vm_read_latency_ms=vm_ms[..., 0],
        vm_write_latency_ms=vm_ms[..., 1],
        vm_latency_ms=mean_vm,
        p90_read_latency_ms=pct(0, 0.90),
        p99_read_latency_ms=pct(0, 0.99),
        p90_write_latency_ms=pct(1, 0.90),
        p99_write_latency_ms=pct(1, 0.99),
        rtt_in_read_latency_ms=np.broadcast_to(rtt_ms[..., 0], vms.shape),
        rtt_in_write_latency_ms=np.broadcast_to(rtt_ms[..., 1], vms.shape),
        network_mb_s_per_node=np.broadcast_to(
            network_mb_s_per_node(iops, W.read_fraction, dm["hops_read"], dm["hops_write"], W.block_size_kib, D.nodes),
            vms.shape,
        ),
        utilization=util,
        host_cpu_utilization=util_cpu,
        bottleneck=bottleneck,
        limited_by=limited_by,
        saturated=saturated,
        outstanding_ios=iops * mean_vm / 1e3,
        cpu_lp_us_per_io=cpu_per_io * 1e6,
        write_absorption=np.broadcast_to(dm["write_absorption"], vms.shape),
        backend_writes_per_write=np.broadcast_to(dm["backend_writes"], vms.shape),
    )


# ---------------------------------------------------------------- fast path
#: rows per block: a block's temporaries (16,384 float64 = 128 KiB each) stay in
#: the CPU's caches and the memory a call takes is bounded whatever its size
BLOCK = 16_384
#: threads for large calls (those :func:`planner.engine.kernels.use_for` sends to the
#: compiled solver): two, or one on a single-core machine
THREADS = min(2, os.cpu_count() or 1)
#: every label ``bottleneck`` / ``limited_by`` takes, coded as int8 while computing
LABELS = (*STATIONS, "outstanding_io", "population", "offered_load", "iops_limit_per_vm", "cpu_utilization_cap", "none")
#: the policies that pace a load at the rate they admit (``limited_by``): a closed load's held-back
#: IOs wait in its VMs; an open load's offer is not carried whole
PACING_POLICIES = ("cpu_utilization_cap", "iops_limit_per_vm")
_LABEL_OBJ = np.array(LABELS, dtype=object)
_OUTSTANDING, _POPULATION, _OFFERED, _LIMIT, _CAP, _NONE = range(K, K + 6)
_FLOAT_OUT = (
    *kernels.FLOAT_OUT,  # the compiled kernel's outputs first, in its order; then what only the numpy path writes
    "write_absorption",
    "backend_writes_per_write",
    "rtt_in_read_latency_ms",
    "rtt_in_write_latency_ms",
    "network_mb_s_per_node",
)
_EPS = 1e-15


class _Rows:
    """Attribute access to one block of rows of flattened inputs (0-d inputs
    stay scalars: every row shares them)."""

    def __init__(self, cols: dict[str, np.ndarray], sl: slice) -> None:
        for k, v in cols.items():
            setattr(self, k, v if v.ndim == 0 else v[sl])

    if TYPE_CHECKING:  # the columns are set by name above: to the type checker, any attribute

        def __getattr__(self, name: str) -> FloatArray: ...


def _flatten(
    *objs: DesignArrays | WorkloadArrays, extra: dict[str, np.ndarray] | None = None
) -> tuple[dict[str, np.ndarray], tuple[int, ...]]:
    """Inputs as 1-D columns over the broadcast shape (0-d where constant)."""
    arrs = {f.name: np.asarray(getattr(o, f.name)) for o in objs for f in fields(o)}
    arrs.update(extra or {})
    shape = np.broadcast_shapes(*(a.shape for a in arrs.values()))
    cols: dict[str, np.ndarray] = {}
    for k, a in arrs.items():
        if a.size == 1:
            cols[k] = a.reshape(())
        elif a.shape == shape and a.ndim == 1:
            cols[k] = a
        else:
            cols[k] = np.broadcast_to(a, shape).reshape(-1)
    return cols, shape


def cpu_cap_iops(cap: FloatArray, D: DesignArrays, out: dict[str, Any], p: ModelParams) -> FloatArray:
    """Cluster IOPS the CPU utilisation cap ``cap`` admits at the CPU cost per IO of an
    evaluated load (``out``, :func:`evaluate_arrays` of ``D``) [IOPS]; inf where the cap is 1
    (no policy). The evaluation throttles a load above it (``limited_by`` "cpu_utilization_cap");
    this is the same bound as a figure, so that a demand is judged against what the policy lets
    through, not only against saturation.

    ``cap`` [1] is passed apart from ``D``: a latency curve is evaluated with the cap lifted
    (:func:`planner.results.report.latency_curve`) and still marks where it would bind.
    """
    cap = np.asarray(cap, dtype=float)
    lps = np.asarray(D.lps_per_node * D.nodes, dtype=float)
    admitted = cpu_mod.cap_throughput_iops(cap, p, lps, np.asarray(out["cpu_lp_us_per_io"], dtype=float) * 1e-6)
    return np.where(cap < 1.0, admitted, np.inf)


def evaluate_arrays(D: DesignArrays, W: WorkloadArrays, p: ModelParams) -> dict[str, Any]:
    """Throughput, latencies and utilisations for every (design, workload) pair.

    Closed populations are solved with symmetric approximate MVA; then the
    per-VM rate limit and the CPU utilisation cap (policies) throttle the load,
    and a throttled or open load is evaluated as an open network at that rate.
    All latencies are means in ms unless named p90/p99.

    ``p`` may also be any object with the :class:`ModelParams` attributes as
    arrays that broadcast with D and W: one parameter set per row, so several
    sets are evaluated in one call (the calibration's finite differences).

    Rows are computed in blocks of :data:`BLOCK` on one array per (class,
    station) term, so the temporaries stay in cache and memory is bounded;
    :func:`evaluate_arrays_reference` is the same model on stacked arrays.
    Calls of :data:`planner.engine.kernels.MIN_ROWS` rows or more run each block after
    its demands in the compiled kernel (:func:`planner.engine.kernels.block`), the
    blocks on :data:`THREADS` threads; the result is the same to 1e-9.
    """
    # a Ceph set carries Ceph's own parameters besides the generic ones (a set per row too)
    names = CEPH_PARAM_NAMES if hasattr(p, "osd_read_cpu_us") else PARAM_NAMES
    pvals = {k: np.asarray(getattr(p, k), dtype=float) for k in names}
    per_row = {f"param:{k}": v for k, v in pvals.items() if v.size > 1}
    cols, shape = _flatten(D, W, extra=per_row)
    size = int(np.prod(shape)) if shape else 1
    out = {k: np.empty(size) for k in _FLOAT_OUT}
    out["utilization"] = np.empty((size, K))
    out["saturated"] = np.empty(size, dtype=bool)
    codes = {"bottleneck": np.empty(size, dtype=np.int8), "limited_by": np.empty(size, dtype=np.int8)}
    cv2 = np.maximum(cols["param:latency_cv2"] if "param:latency_cv2" in cols else pvals["latency_cv2"], 1e-6)
    if cv2.ndim:  # one Gamma quantile per distinct parameter set
        uniq, inv = np.unique(cv2, return_inverse=True)
        quant = {q: gamma_quantile(1.0, uniq, q)[inv] for q in (0.90, 0.99)}
    else:
        quant = {q: float(gamma_quantile(1.0, cv2, q)) for q in (0.90, 0.99)}
    # large calls solve the MVA fixed point with the compiled row loop (same
    # method and result; small ones never import numba)
    solver = kernels.symmetric_throughput if kernels.use_for(size) else symmetric_throughput
    # and, with one parameter set, the whole block after the demands
    compiled = solver is not symmetric_throughput and not per_row and kernels.block_available()

    def run(start: int, rows_per_block: int) -> None:
        sl = slice(start, min(size, start + rows_per_block))
        rows = _Rows(cols, sl)
        # a set per row has ModelParams' attributes, each an array: what the physics reads of p
        pb = (
            cast(
                ModelParams,
                _Params(
                    {
                        k: getattr(rows, f"param:{k}", None) if f"param:{k}" in cols else float(v)
                        for k, v in pvals.items()
                    }
                ),
            )
            if per_row
            else p
        )
        qb = {q: (v if np.ndim(v) == 0 else v[sl]) for q, v in quant.items()}
        _block(rows, pb, sl, out, codes, qb, solver, compiled)

    if not compiled or THREADS < 2 or size <= BLOCK:  # one block: a thread pool would only add its start
        for start in range(0, size, BLOCK):
            run(start, BLOCK)
    else:
        # large calls: blocks on THREADS threads (the compiled kernel and numpy
        # release the GIL); the compiled block's temporaries are few, so two
        # blocks in flight stay within the memory one numpy block takes
        ctx = contextvars.copy_context()  # the caller's np.errstate, in every thread
        with ThreadPoolExecutor(THREADS) as pool:
            for f in [pool.submit(ctx.copy().run, run, start, BLOCK) for start in range(0, size, BLOCK)]:
                f.result()  # re-raises a block's error here
    for k, c in codes.items():
        out[k] = _LABEL_OBJ[c]
    if shape != (size,):
        out = {k: v.reshape(shape + v.shape[1:]) for k, v in out.items()}
    return out


def network_mb_s_per_node(
    iops: FloatArray,
    read_fraction: FloatArray,
    hops_read: FloatArray,
    hops_write: FloatArray,
    block_size_kib: FloatArray,
    nodes: FloatArray,
) -> FloatArray:
    """East-west storage traffic each node sends (and receives) [MB/s, one direction]: the
    bytes the load puts on the wire between servers (``hops_*``, the IO sizes each IO sends,
    the numerator of the network demand in :func:`demand_terms`) at ``iops`` [IOPS], spread
    over the ``nodes``. The network utilisation is this figure over the link's usable rate; a
    page that showed only "network 14 %" left the MB/s to the reader (network walk 2026-12-01)."""
    r = np.asarray(read_fraction, dtype=float)
    per_io = (r * np.asarray(hops_read, dtype=float) + (1.0 - r) * np.asarray(hops_write, dtype=float)) * (
        np.asarray(block_size_kib, dtype=float) * devices.KIB
    )
    return np.asarray(iops, dtype=float) * per_io / np.maximum(np.asarray(nodes, dtype=float), 1.0) / 1e6


def _derived(o: dict[str, np.ndarray], sl: slice, t: dict[str, Any], quant: dict[float, FloatArray], R: _Rows) -> None:
    """The figures of one block derived from its means and IOPS (``o``, already written): the latency
    percentiles, the Gamma shape on the queueing and service part with the rooms' round trip added
    after (:func:`planner.engine.queueing.quantile_above_delay`), that round trip as its own figures,
    and the east-west traffic per node (:func:`network_mb_s_per_node`)."""
    o["network_mb_s_per_node"][sl] = network_mb_s_per_node(
        o["iops"][sl], R.read_fraction, t["hops_read"], t["hops_write"], R.block_size_kib, R.nodes
    )
    for c in ("read", "write"):
        rtt_ms = np.broadcast_to(t[f"delay_rtt_{c}"] * 1e3, o[f"vm_{c}_latency_ms"][sl].shape)
        o[f"rtt_in_{c}_latency_ms"][sl] = rtt_ms
        for q in (0.90, 0.99):
            o[f"p{round(q * 100)}_{c}_latency_ms"][sl] = quantile_above_delay(
                o[f"vm_{c}_latency_ms"][sl], rtt_ms, quant[q]
            )


class _Params:
    """Model parameters as attributes (scalars, or one value per row)."""

    def __init__(self, values: dict[str, FloatArray]) -> None:
        self.__dict__.update(values)


def _block(
    R: _Rows,
    p: ModelParams,
    sl: slice,
    o: dict[str, np.ndarray],
    codes: dict[str, np.ndarray],
    quant: dict[float, FloatArray],
    solver: Callable[..., FloatArray] = symmetric_throughput,
    compiled: bool = False,
) -> None:
    """:func:`evaluate_arrays` on one block of rows, written into ``o[...][sl]``;
    ``compiled``: all after the demands in :func:`planner.engine.kernels.block`."""
    # a block of rows carries every column of DesignArrays and WorkloadArrays as an attribute
    t = demand_terms(cast(DesignArrays, R), cast(WorkloadArrays, R), p)
    if compiled:
        kernels.block(t, R, p, o, codes, quant, sl, devices.KIB)
        o["write_absorption"][sl] = t["write_absorption"]
        o["backend_writes_per_write"][sl] = t["backend_writes"]
        _derived(o, sl, t, quant, R)
        return
    m = sl.stop - sl.start
    r = np.asarray(R.read_fraction, dtype=float)
    w = 1.0 - r
    pr, pw, bg, S = t["path_read"], t["path_write"], t["background"], t["vms"]
    s0 = np.where(R.vms_total <= 0, 0.0, 1.0)  # an open load without a population has no vCPU queue
    share = (s0, S, S, S, S)
    closed = np.broadcast_to(np.isnan(R.open_iops), (m,))
    n = np.asarray(R.outstanding_per_vm, dtype=float)
    # class-mixed demand per station (the vCPU demand is the same for both)
    dp = [pr[k] if pr[k] is pw[k] else r * pr[k] + w * pw[k] for k in range(K)]
    total = [*dp[:4], dp[4] + bg]
    load = [total[k] * share[k] for k in range(K)]
    peak = load[0]
    for a in load[1:]:
        peak = np.maximum(peak, a)
    x_sat = 1.0 / np.maximum(peak, 1e-15)
    # which classes visit each station, and the second moment of the demand
    # there (class-dependent FCFS, see planner.engine.queueing.schweitzer_symmetric);
    # disp = pv E[d^2] - Dbar^2 is zero where the visiting classes' demands are equal
    vr = [np.greater(pr[k], 0).astype(float) for k in range(K)]
    vw = [vr[k] if pw[k] is pr[k] else np.greater(pw[k], 0).astype(float) for k in range(K)]
    pv = [vr[k] if vw[k] is vr[k] else r * vr[k] + w * vw[k] for k in range(K)]
    e2 = [pr[k] * pr[k] if pr[k] is pw[k] else r * pr[k] * pr[k] + w * pw[k] * pw[k] for k in range(K)]
    disp = [0.0 if pr[k] is pw[k] else pv[k] * e2[k] - dp[k] * dp[k] for k in range(K)]

    cpu_r, cpu_w = t["cpu_lp_s_read"], t["cpu_lp_s_write"]
    cpu_per_io = r * cpu_r + w * cpu_w
    lps_raw = np.asarray(R.lps_per_node * R.nodes, dtype=float)
    idle = p.host_cpu_idle_utilization
    wc_r = p.storage_cpu_wait * t["host_critical_s_read"]
    wc_w = p.storage_cpu_wait * t["host_critical_s_write"]
    # a write waits for the last of its copies' LPs (fork-join), a read for one
    kw = t["write_branches"]
    fs = forked_share(r, cpu_r, cpu_w, t["forked_cpu_s_write"])
    u_slope = S * cpu_per_io / lps_raw
    dvm_r, dvm_w = t["delay_vm_read"], t["delay_vm_write"]

    # --- closed populations: the MVA fixed point, on the closed rows only
    x = np.broadcast_to(R.open_iops / S, (m,)).copy()
    if closed.any():
        ci = None if closed.all() else np.flatnonzero(closed)

        def pick(a: FloatArray) -> FloatArray:
            return a if ci is None or np.ndim(a) == 0 else np.broadcast_to(a, (m,))[ci]

        x_c = solver(
            [pick(d) for d in dp],
            pick(s0),
            pick(S),
            pick(bg),
            pick(n),
            pick(r * dvm_r + w * dvm_w),
            pick(r * wc_r + w * wc_w),
            pick(idle),
            pick(u_slope),
            pick(x_sat),
            wfj=pick(w * wc_w),
            branches=pick(kw),
            disp=[pick(v) for v in disp],
            forked=pick(fs),
        )
        if ci is None:
            x[:] = x_c
        else:
            x[ci] = x_c
    lab = np.where(closed, _POPULATION, _OFFERED).astype(np.int8)

    limit = R.iops_limit_per_vm
    hit_limit = x > limit
    np.copyto(x, limit, where=hit_limit)
    lab[hit_limit] = _LIMIT
    cap = R.cpu_utilization_cap
    x_cap = cpu_mod.cap_throughput_iops(cap, p, lps_raw, cpu_per_io) / S
    capped = (cap < 1.0) & (x > x_cap * (1 + 1e-9))
    np.copyto(x, x_cap, where=capped)
    lab[capped] = _CAP
    over = x >= x_sat * (1 - 1e-9)
    saturated = over & ~closed
    # an open load the cap throttled to a rate still past the network's capacity is limited by its full
    # station, not by the cap: "limited by its CPU utilisation cap" stood beside a host CPU 69 % busy under a
    # cap of 80 % (API walk 2026-11-30); :func:`at_capacity` names the station
    lab[saturated] = _OFFERED
    np.copyto(x, x_sat * 0.999, where=saturated)

    # --- residences summed per class: all stations (VM layer) and the storage
    # stations 2.. (storage layer)
    u = [x * share[k] * total[k] for k in range(K)]
    pvm = [np.maximum(a, _EPS) for a in pv]
    sums = {}
    if closed.any():
        # MVA residences at the (possibly throttled) rate x: Little's law holds
        f4 = 1.0 - np.minimum(x * S * bg, 0.999)
        dpr = [*pr[:4], pr[4] / f4]
        dpw = [*pw[:4], pw[4] / f4]
        dbar = [*dp[:4], r * dpr[4] + w * dpw[4]]
        rr, rw = [], []
        inv_n = 1.0 / n
        xcs = [x * np.maximum(s0 - inv_n, 0.0), x * np.maximum(S - inv_n, 0.0)]
        dens = [np.maximum(1.0 - xcs[min(k, 1)] * dbar[k], 1e-9) for k in range(K)]
        rpf = [dbar[k] / dens[k] for k in range(K)]
        # the rest of an IO's cycle, for each station's finite-population
        # factor: the delays, the LP wait and the other stations, as in the
        # fixed point; a throttled population is paced into the path, whatever
        # is queued there: the open-load wait (factor 1)
        ux = idle + u_slope * x
        lwx = lp_wait_factor(ux)
        # in the reference's order: each class's delay and LP wait, mixed
        zmix = r * (dvm_r + wc_r * lwx) + w * (dvm_w + wc_w * lwx * fork_join_factor(ux, kw, False, fs))
        total_pf = sum(rpf[1:], rpf[0]) + zmix
        throttled = hit_limit | capped
        for k in range(K):
            xc = xcs[min(k, 1)]
            dk = disp[k] / (f4 * f4) if k == 4 else disp[k]
            rbar = rpf[k]
            if np.ndim(disp[k]) or disp[k] != 0.0:
                sk = share[k]
                dl = np.where(dp[k] > 0, disp[k] / np.maximum(dp[k] * dp[k], 1e-300), 0.0)
                phi = finite_population_factors(n * sk, x * sk * dbar[k], dl, total_pf - rpf[k], dbar[k])
                phi = np.where(throttled, 1.0, phi)
                rbar = rbar + phi * (xc * dk / dens[k])
            wait = (rbar - dbar[k]) / pvm[k]
            rr.append(dpr[k] + vr[k] * wait)
            rw.append(rr[k] if dpw[k] is dpr[k] and vw[k] is vr[k] else dpw[k] + vw[k] * wait)
        all_r, all_w = sum(rr[1:], rr[0]), sum(rw[1:], rw[0])
        sto_r, sto_w = rr[2] + rr[3] + rr[4], rw[2] + rw[3] + rw[4]
        # unthrottled: the IOs the approximation cannot place (past saturation)
        # wait at the bottleneck, so n = x * R exactly
        free = closed & ~(hit_limit | capped)
        if free.any():
            ux = idle + u_slope * x
            lw = lp_wait_factor(ux)
            mean_r = r * (all_r + (dvm_r + wc_r * lw)) + w * (
                all_w + (dvm_w + wc_w * lw * fork_join_factor(ux, kw, False, fs))
            )
            extra = np.where(free, unplaced(n / x, mean_r), 0.0)
            ex = np.flatnonzero(extra)
            if ex.size:  # past saturation, or the root's last-float rounding
                # the bottleneck: the first station at the peak load (argmax's
                # rule), chosen per row without stacking the stations
                kstar = np.zeros(m, dtype=np.intp)
                vk_r, vk_w, pvk = np.zeros(m), np.zeros(m), np.zeros(m)
                for k in range(K - 1, -1, -1):
                    at = load[k] == peak
                    for dst, v in ((kstar, k), (vk_r, vr[k]), (vk_w, vw[k]), (pvk, pv[k])):
                        np.copyto(dst, v, where=at)
                kstar, vk_r, vk_w, pvk = kstar[ex], vk_r[ex], vk_w[ex], pvk[ex]
                ok = pvk > 0
                e = extra[ex]
                add_r = e * np.where(ok, vk_r / np.maximum(pvk, _EPS), 1.0)
                add_w = e * np.where(ok, vk_w / np.maximum(pvk, _EPS), 1.0)
                all_r, all_w = np.array(np.broadcast_to(all_r, (m,))), np.array(np.broadcast_to(all_w, (m,)))
                sto_r, sto_w = np.array(np.broadcast_to(sto_r, (m,))), np.array(np.broadcast_to(sto_w, (m,)))
                all_r[ex] += add_r
                all_w[ex] += add_w
                sto = kstar >= 2
                sto_r[ex] += np.where(sto, add_r, 0.0)
                sto_w[ex] += np.where(sto, add_w, 0.0)
        sums["closed"] = (all_r, all_w, sto_r, sto_w)
    if not closed.all():
        # open network, M/M/1 per station at rate x; an open load is held below
        # its capacity bound (x <= 0.999 x_sat), so every U < 1 here (closed
        # rows of a mixed block get inf or nan, and are not read)
        rr, rw = [], []
        with np.errstate(divide="ignore", invalid="ignore"):
            for k in range(K):
                # M/G/1 (Pollaczek-Khinchine) with exponential services per
                # job kind: the IOs' classes and one background job per IO
                m2 = e2[k] + bg * bg if k == 4 else e2[k]
                wait = x * share[k] * m2 * (1.0 / (1.0 - u[k]))
                rr.append(vr[k] * (pr[k] + wait))
                rw.append(rr[k] if vw[k] is vr[k] and pw[k] is pr[k] else vw[k] * (pw[k] + wait))
        sums["open"] = (sum(rr[1:], rr[0]), sum(rw[1:], rw[0]), rr[2] + rr[3] + rr[4], rw[2] + rw[3] + rw[4])
    if len(sums) == 2:
        all_r, all_w, sto_r, sto_w = (np.where(closed, a, b) for a, b in zip(sums["closed"], sums["open"]))
    else:
        all_r, all_w, sto_r, sto_w = next(iter(sums.values()))

    util_cpu = np.minimum(np.maximum(idle + x * u_slope, 0.0), 1.0)
    # every station's utilisation, the host CPU's as a share of its usable
    # capacity; the busiest (first of equals) and its level
    uk = [np.minimum(np.maximum(a, 0.0), 1.0) for a in u]
    uk[1] = np.minimum(np.maximum((util_cpu - idle) / (p.host_cpu_max_utilization - idle), 0.0), 1.0)
    util = o["utilization"][sl]
    umax = uk[0]
    bott = np.zeros(m, dtype=np.int8)
    for k in range(K):
        util[:, k] = uk[k]
        if k:
            bott[uk[k] > umax] = k
            umax = np.maximum(umax, uk[k])
    lw = lp_wait_factor(util_cpu)
    cw_r, cw_w = wc_r * lw, wc_w * lw * fork_join_factor(util_cpu, kw, False, fs)
    vm_r = (all_r + dvm_r + cw_r) * 1e3
    vm_w = (all_w + dvm_w + cw_w) * 1e3
    mean_vm = r * vm_r + w * vm_w
    iops = x * S

    code = np.where(lab == _POPULATION, np.where(umax > BUSY_UTILIZATION, bott, _OUTSTANDING), lab)
    code = np.where(lab == _OFFERED, np.where(saturated, bott, _NONE), code)
    codes["bottleneck"][sl] = code
    codes["limited_by"][sl] = lab
    o["saturated"][sl] = saturated
    o["iops"][sl] = iops
    o["iops_per_node"][sl] = iops / R.nodes
    o["iops_capacity"][sl] = x_sat * S
    o["bandwidth_mb_s"][sl] = iops * (R.block_size_kib * devices.KIB) / 1e6
    o["read_latency_ms"][sl] = (sto_r + pr[1] + t["delay_storage_read"] + cw_r) * 1e3
    o["write_latency_ms"][sl] = (sto_w + pw[1] + t["delay_storage_write"] + cw_w) * 1e3
    o["vm_read_latency_ms"][sl] = vm_r
    o["vm_write_latency_ms"][sl] = vm_w
    o["vm_latency_ms"][sl] = mean_vm
    _derived(o, sl, t, quant, R)
    o["host_cpu_utilization"][sl] = util_cpu
    o["outstanding_ios"][sl] = iops * mean_vm / 1e3
    o["cpu_lp_us_per_io"][sl] = cpu_per_io * 1e6
    o["write_absorption"][sl] = t["write_absorption"]
    o["backend_writes_per_write"][sl] = t["backend_writes"]
