"""Degraded mode: one node lost, its VMs restarted on the survivors, repair traffic.

* Performance: the same VMs run on N-1 nodes; while data resyncs, repair takes
  ``repair_share`` of the survivors' drive and network capacity. Ceph's recovery
  takes what it moves at its rate instead (:func:`repair_load`): at most its
  default mClock profile's recovery reservation of that bandwidth (``balanced``,
  50 %: Ceph docs, *mClock Config Reference*, Reef and Squid; the share Ceph
  designs state) and at most its measured backfill rate per OSD, whichever is
  smaller. Every stack's repair IO costs the survivors' CPU, as client IO's does, at
  the stack's fitted CPU per IO (:func:`planner.physics.cpu.repair_cpu_lps`): Ceph's
  OSD costs per operation and per KiB (:func:`planner.physics.ceph.recovery_cpu_lps`),
  S2D's fit for Storage Spaces Direct's rebuild and vSAN's resync
  (:func:`planner.physics.cpu.repair_lp_us_per_io`, each rebuilt byte read k times
  across the network and written once, in IOs of an assumed 1 MiB), at most the
  repair's share of the survivors' logical processors.
* Where the survivors cannot repair (too few fault domains left for the resiliency:
  :func:`planner.physics.capacity.survivors_re_protect`, the capacity report's rule for
  every stack), no repair share is charged: on S2D, and on Ceph (CRUSH has no host for a
  replica or chunk when fewer hosts than the pool's size are left: the placement groups
  stay degraded, nothing is backfilled) and vSAN (no host without a component of the
  object to rebuild on). An S2D mirrored write makes only the copies
  whose node is up: Storage Spaces Direct writes the available copies and resyncs the
  missing one when its node returns (Microsoft, "Fault tolerance and storage efficiency
  in Storage Spaces Direct": a mirror "writes to the available copies"; "Understand and
  monitor storage resync": the changes made while a server was down are tracked and
  resynced when it returns). A c-copy mirror on n nodes has a copy on the lost node
  for c / n of its extents on average (every extent when n = c; nested two-way mirror:
  the lost node's two copies), so a write makes c (1 - 1/n) copies, none of the lost ones
  local to the serving survivor. Parity and mirror-accelerated parity likewise write
  the c (1 - 1/n) columns whose node is up (the same resync note: the lost node's drives
  are not written until it returns, "true for any hyper-converged architecture"), and
  read a lost column decoded from the surviving ones; their read-modify-write reads no
  lost column (:mod:`planner.physics.resiliency`). Ceph does the same: with
  ``size`` 3 / ``min_size`` 2 and no host left to re-place a copy on, a placement
  group stays active+degraded and a write goes to its acting set, the copies (or
  chunks) whose host is up (Ceph docs, *Placement Group States*: "degraded"; *Pools*:
  ``min_size`` "Sets the minimum number of replicas required for I/O"), so a
  replica-3 write makes 3 (1 - 1/n) copies. vSAN does the same: a write goes to the
  components present, the absent host's marked stale and resynced when it returns
  (Broadcom, *vSAN Management API*, ``VsanComponentStates`` ABSENT_RESYNC,
  ``VsanSyncReason`` stale): RAID-1 writes c (1 - 1/n) replicas, RAID-5/6 the data and
  parity components present. One implementation for the three stacks
  (:func:`planner.physics.resiliency.surviving_writes`). Where a repair runs, the
  copies rebuilt on the survivors take the writes too: every copy is written.
* Repair time: the slowest of the repair's read side and its write side. The lost
  node's share of the footprint (used data x copies / N) is written at ``repair_share``
  of the smaller of the survivors' drive write bandwidth and their network bandwidth;
  to rebuild it the survivors read ``data_chunks`` (k) times those bytes, at
  ``repair_share`` of the smaller of their drive read bandwidth and their network
  bandwidth: a copy of a replicated chunk is read once (k = 1), an erasure-coded
  chunk is decoded from k surviving chunks (Ceph documentation, "Locally repairable
  erasure code plugin": with jerasure "recovering from the loss of one OSD requires
  reading from all the others").

``repair_share`` is an assumption the user sets (default 0.25): Storage Spaces
Direct does not publish the share of bandwidth its repair jobs take.

``repair_share`` is an assumption the user sets (default 0.25) for S2D and vSAN, and
Ceph's default mClock profile's recovery reservation for Ceph (:func:`repair_share_of`).

A stack whose recovery rate was measured passes it as ``max_repair_bytes_s``, a cap on the
write side's bandwidth (the recovering OSDs write the rebuilt bytes): Ceph's backfill per OSD under its default mClock profile
(``planner/data/ceph-recovery.json``) times the surviving OSDs (:func:`ceph_backfill_cap_bytes_s`), measured
with backfill limits raised, so a repair time is a lower bound.
"""

from __future__ import annotations

from dataclasses import replace
from typing import cast, overload

import numpy as np

from planner.core.types import FloatArray
from planner.engine.performance import DesignArrays, WorkloadArrays
from planner.models.params import CephParams, ModelParams, params_for
from planner.models.stacks import STACK_CODES, STACKS, ceph_recovery_mib_s_per_osd, ceph_recovery_share
from planner.physics import ceph
from planner.physics import cpu as cpu_mod
from planner.physics.capacity import MIN_FAULT_DOMAINS_BY_CODE, survivors_re_protect

DEFAULT_REPAIR_SHARE = 0.25


def faster_one_host_down_words(stack: str, nodes: int, copies: int, repairs: bool, noun: str = "copies") -> str:
    """Why a design's latency can be lower with one of ``nodes`` hosts down than with all up, or "" where the model
    gives no reason (an S2D design: its serving node keeps its copies).

    Ceph: the lost host's primary OSDs are re-elected on the survivors, so a client's IOs find their primary on its
    own host 1/(n-1) of the time, not 1/n, and where no host can re-place a copy (``repairs`` False) a write goes to
    the ``copies`` of its acting set whose host is up (:func:`degraded_arrays`; ``noun``: "chunks" for an erasure
    code). vSAN, where no host can rebuild: a write goes to the components present, the absent host's 1 in n
    skipped, so fewer writes cross the network (its reads are no more local: the components stay where they were
    placed). The SLA page said "0.512 ms with one node down" beside 0.522 ms healthy with no word why (Ceph
    architect's walk 2026-12-01); vSAN FTT=1 on three hosts, 0.555 ms beside 0.577 ms, once its writes skipped the
    absent host's replica."""
    if stack == "vsan":
        if repairs:
            return ""
        return (
            "lower than with every host up: with no host to rebuild on, vSAN writes the components present and skips "
            f"those on the absent host (1 in {nodes} of them), so fewer writes cross the network"
        )
    if stack != "ceph":
        return ""
    why = (
        f"lower than with every host up: Ceph re-elects the lost host's primary OSDs on the survivors, so a VM's IOs "
        f"find their primary on its own host 1 in {nodes - 1} times, not 1 in {nodes}"
    )
    if not repairs:
        left = copies - copies / nodes
        why += f", and with no host to re-place a copy on a write goes to the {left:g} {noun} whose host is up"
    return why


def repair_share_of(stack: str) -> float:
    """The most of the survivors' drive and network bandwidth a repair takes [-]: Ceph's default mClock profile's
    recovery reservation (:func:`planner.models.stacks.ceph_recovery_share`, 0.5), else :data:`DEFAULT_REPAIR_SHARE`
    (an assumption: Storage Spaces Direct and vSAN publish no share for their repair)."""
    return ceph_recovery_share() if stack == "ceph" else DEFAULT_REPAIR_SHARE


def repair_share_words(stack: str, held: bool = True) -> str:
    """Where a report's ``repair_share`` comes from, in words beside it (`evaluate` printed "repair_share": 0.25 with
    no word that it is an assumption; honesty audit 2026-12-01): Ceph's default mClock profile's recovery
    reservation, a documented figure; on S2D and vSAN an hciplan assumption, since neither publishes the share its
    repair takes; with ``held`` False, that no repair runs (the survivors cannot re-protect)."""
    if not held:
        return "no share held: the survivors cannot re-protect, so no repair runs"
    if stack == "ceph":
        return "Ceph's default mClock profile's recovery reservation (Ceph docs, mClock Config Reference, balanced)"
    return (
        "an hciplan assumption: "
        + ("Storage Spaces Direct" if stack == "s2d" else "vSAN")
        + " publishes no share of the survivors' bandwidth for its repair"
    )


def ceph_backfill_cap_bytes_s(survivor_osds: FloatArray, hdd: FloatArray) -> FloatArray:
    """The fastest Ceph's recovery writes [B/s]: its measured backfill rate into one OSD under the default mClock
    profile (:func:`planner.models.stacks.ceph_recovery_mib_s_per_osd`) times the surviving OSDs, each assumed to
    backfill at it at once (an upper bound: the study raised the backfill limits)."""
    rate = np.where(np.asarray(hdd, dtype=bool), ceph_recovery_mib_s_per_osd("hdd"), ceph_recovery_mib_s_per_osd("ssd"))
    return rate * 2.0**20 * np.asarray(survivor_osds, dtype=float)


def repair_rate_bytes_s(
    nodes: FloatArray,
    drives_per_node: FloatArray,
    drive_write_mb_s: FloatArray,
    node_bandwidth_bytes_s: FloatArray,
    repair_share: FloatArray = DEFAULT_REPAIR_SHARE,
    max_repair_bytes_s: FloatArray | None = None,
    data_chunks: FloatArray = 1.0,
    drive_read_mb_s: FloatArray | None = None,
) -> FloatArray:
    """The rate a repair rebuilds the lost node's bytes at [B/s] (module doc), vectorised.

    Parameters
    ----------
    nodes, drives_per_node : the cluster before the loss.
    drive_write_mb_s, drive_read_mb_s : [MB/s] one drive's sequential write and read bandwidth
        (``drive_read_mb_s`` None: the write figure, the read side then never binds a replica).
    node_bandwidth_bytes_s : [B/s] one node's storage network bandwidth.
    repair_share : [-] the most of the survivors' drive and network bandwidth the repair takes.
    max_repair_bytes_s : [B/s] a measured cap on the write side's bandwidth, if the stack has one.
    data_chunks : k, the chunks read to rebuild one (1 for a replicated or mirrored layout).

    Returns
    -------
    The slowest of the write side (``repair_share`` of the smaller of the survivors' drive write bandwidth and
    their network's, at most ``max_repair_bytes_s``) and the read side (the same share of the smaller of their
    drive read bandwidth and their network's, over the k chunks read per chunk rebuilt) [B/s].
    """
    write_bw, read_bw = repair_bandwidth_bytes_s(
        np.maximum(np.asarray(nodes, dtype=float) - 1, 1),
        drives_per_node,
        drive_write_mb_s,
        drive_read_mb_s,
        node_bandwidth_bytes_s,
        np.asarray(repair_share, dtype=float),
    )
    if max_repair_bytes_s is not None:
        write_bw = np.minimum(write_bw, np.asarray(max_repair_bytes_s, dtype=float))
    return np.minimum(write_bw, read_bw / np.asarray(data_chunks, dtype=float))


def repair_load(
    D: DesignArrays, stack: str, p: ModelParams, repair_share: FloatArray | None = None
) -> dict[str, FloatArray]:
    """What a ``stack`` row's repair takes from the survivors of one lost node, per row (whether it runs at all is
    :func:`degraded_arrays`' question). One function for every stack.

    The repair runs at :func:`repair_rate_bytes_s` with ``repair_share`` (None: :func:`repair_share_of` the stack).
    Ceph's recovery is capped by its measured backfill rate (:func:`ceph_backfill_cap_bytes_s`) and takes what that
    rate moves of the survivors' drive write and read and network bandwidth (the rebuilt bytes written once, read k
    times and sent k times); Storage Spaces Direct and vSAN hold ``repair_share`` of each (an assumption: neither
    publishes its repair's share). ``lps``: the logical processors its IO keeps busy, the stack's fitted CPU per IO
    (:func:`planner.physics.cpu.repair_cpu_lps`: Ceph's OSD costs per operation and per KiB,
    :func:`planner.physics.ceph.recovery_cpu_lps`; S2D's fit for S2D and vSAN, :func:`planner.physics.cpu.repair_lp_us_per_io`,
    in IOs of :data:`planner.physics.cpu.REPAIR_IO_KIB`) [LP]. Returns ``rate_bytes_s`` [B/s], ``drive_write_share``,
    ``drive_read_share`` and ``network_share`` [-], ``lps`` [LP]. The clients have the rest.

    References
    ----------
    Ceph docs, *mClock Config Reference* (Reef, Squid): the ``balanced`` profile, Ceph's default, reserves 50 % of
    an OSD's capacity for background recovery and 50 % for clients, weight 1 each; ``planner/data/ceph-recovery.json``.
    """
    n = np.asarray(D.nodes, dtype=float)
    survivors = np.maximum(n - 1, 1)
    k = np.asarray(D.data_chunks, dtype=float)
    drives = survivors * np.asarray(D.drives_per_node, dtype=float)
    share = repair_share_of(stack) if repair_share is None else repair_share
    scale = cpu_mod.clock_scale(D.base_ghz)
    if stack != "ceph":
        rate = repair_rate_bytes_s(
            n, D.drives_per_node, D.drive_write_mb_s, D.node_bandwidth_bytes_s, share, None, k, D.drive_read_mb_s
        )
        tcp_cpu = np.where(np.asarray(D.tcp, dtype=bool), p.tcp_cpu_per_crossing_us, 0.0)
        per_io = cpu_mod.repair_lp_us_per_io(p, k, cpu_mod.REPAIR_IO_KIB, tcp_cpu)
        held = np.broadcast_to(np.asarray(share, dtype=float), np.shape(rate))
        return {
            "rate_bytes_s": rate,
            "drive_write_share": held,
            "drive_read_share": held,
            "network_share": held,
            "lps": cpu_mod.repair_cpu_lps(rate, cpu_mod.REPAIR_IO_KIB, per_io, scale),
        }
    cap = ceph_backfill_cap_bytes_s(drives * np.asarray(D.osds_per_drive, dtype=float), ~np.asarray(D.all_flash, bool))
    rate = repair_rate_bytes_s(
        n, D.drives_per_node, D.drive_write_mb_s, D.node_bandwidth_bytes_s, share, cap, k, D.drive_read_mb_s
    )
    cp = cast(CephParams, p)
    wf = ceph.release_write_factor(D.ceph_release, D.rocksdb_tuned, cp)
    return {
        "rate_bytes_s": rate,
        "drive_write_share": rate / (drives * np.asarray(D.drive_write_mb_s) * 1e6),
        "drive_read_share": k * rate / (drives * np.asarray(D.drive_read_mb_s) * 1e6),
        "network_share": k * rate / (survivors * np.asarray(D.node_bandwidth_bytes_s)),
        "lps": ceph.recovery_cpu_lps(rate, k, wf, scale, cp),
    }


def degraded_alignment(alignment: FloatArray, nodes: FloatArray) -> FloatArray:
    """Share of VMs on the node that owns their volume once a node is lost.

    Assumes the lost node's VMs restart spread evenly over the survivors and
    the ownership of each volume it owned moves to one survivor: a VM from the
    lost node lands on its volume's owner with probability 1 / (n - 1); a
    survivor's misaligned VM whose volume the lost node owned (1 / (n - 1) of
    them) becomes aligned when ownership lands on its node (again 1 / (n - 1)).
    Two nodes: every VM ends on the one survivor, which owns every volume.
    """
    a = np.asarray(alignment, dtype=float)
    n = np.asarray(nodes, dtype=float)
    m = np.maximum(n - 1.0, 1.0)
    survivors = a + (1.0 - a) / m**2
    return np.where(n > 1, (m / n) * survivors + (1.0 / n) / m, a)


def survivors_repair(D: DesignArrays) -> FloatArray:
    """Whether one node's survivors re-protect, per row [bool]: :func:`planner.physics.capacity.survivors_re_protect`
    with the fault domains an S2D row's resiliency needs, or a Ceph or vSAN row's layout
    (``layout_min_fault_domains``), the rule the capacity reports apply (``repairs_after_node_loss``)."""
    s2d = np.asarray(D.stack) == STACK_CODES["s2d"]
    need = np.where(s2d, MIN_FAULT_DOMAINS_BY_CODE[np.asarray(D.resiliency_code)], D.layout_min_fault_domains)
    return survivors_re_protect(D.nodes, need, D.node_fault_domains)


def without_repair(repairs: FloatArray, nodes: FloatArray) -> FloatArray:
    """Where one node down holds no share for a repair [bool], vectorised: a cluster of more than one node whose
    survivors cannot re-protect (``repairs``: :func:`survivors_repair`, or a capacity report's
    ``repairs_after_node_loss``), on any stack. One rule for :func:`degraded_arrays` and the reports that state the
    share held (`evaluate` printed "repair_share": 0.25 beside "no repair" where nothing was held: S2D, verification
    walk 2026-11-30; Ceph replica-3 on 3 hosts and vSAN FTT=1 on 3 hosts, 2026-11-30)."""
    return ~np.asarray(repairs, dtype=bool) & (np.asarray(nodes) > 1)


@overload
def degraded_arrays(
    D: DesignArrays,
    W: WorkloadArrays,
    repair_share: float | None = None,
    params: ModelParams | None = None,
    recovery_cpu: bool = True,
) -> tuple[DesignArrays, WorkloadArrays]: ...
@overload
def degraded_arrays(
    D: DesignArrays,
    W: None,
    repair_share: float | None = None,
    params: ModelParams | None = None,
    recovery_cpu: bool = True,
) -> tuple[DesignArrays, None]: ...
def degraded_arrays(
    D: DesignArrays,
    W: WorkloadArrays | None,
    repair_share: float | None = None,
    params: ModelParams | None = None,
    recovery_cpu: bool = True,
) -> tuple[DesignArrays, WorkloadArrays | None]:
    """Design/workload arrays for the cluster with one node down (module doc).

    The data stays where it was placed: a volume keeps its ``volume_servers``
    (one of them down), so the serving node holds a copy with the same
    probability as before and reads do not become more local, and it keeps its
    parity layout (``fault_domains``), so mirror-accelerated parity rotates into
    the stripe the healthy cluster laid. Where the
    survivors repair, copies bound for the lost node are rebuilt on them at
    ``repair_share`` (None: :data:`DEFAULT_REPAIR_SHARE`) of their drive and network capacity, so writes still make
    every copy; a Ceph row's recovery takes what :func:`repair_load` says at its rate (``repair_share``
    None: its default mClock profile's recovery reservation at most). Every stack's repair takes the CPU its IO
    costs (:func:`repair_load`'s ``lps``; unless ``recovery_cpu`` is False: the sizer's screens of ideal parts), with
    ``params`` (None: the shipped fit of the row's stack; a fit of another stack's kind is not used).
    Where they cannot (:func:`survivors_repair`, on any stack), no
    share is held for a repair; an S2D write then skips the lost node's mirror
    copies or parity columns (``lost_copy_share``, 1/n of them; the parity
    arithmetic around them in :mod:`planner.physics.resiliency`), a Ceph write
    goes to its placement group's acting set, the copies or chunks whose host is up
    (1/n of them on the lost host: :func:`planner.engine.ceph_terms.ceph_demand_terms`),
    and a vSAN write to the components present (:func:`planner.physics.vsan.layout_terms`):
    ``lost_write_share``, one rule (:func:`planner.physics.resiliency.surviving_writes`). A vSAN
    read of a RAID-5/6 component on the lost node (1/n of them, repair or not:
    ``lost_copy_share``) is decoded from the k surviving ones, as an S2D parity column is.
    """
    n = D.nodes
    no_repair = without_repair(survivors_repair(D), n)
    keep = np.where(no_repair, 1.0, 1.0 - (DEFAULT_REPAIR_SHARE if repair_share is None else repair_share))
    keep_read = keep_write = keep_net = keep
    lps = D.lps_per_node
    # a repair's IO costs the survivors' CPU on every stack, at the stack's fitted CPU per IO (repair_load); Ceph's
    # recovery also takes the bandwidth its rate moves, where S2D and vSAN hold the repair share of it (keep)
    for name in STACKS:
        recovers = (np.asarray(D.stack) == STACK_CODES[name]) & ~no_repair
        if not np.any(recovers):
            continue
        p = params_for(name, params)
        load = repair_load(D, name, p, repair_share)
        if name == "ceph":
            keep_write = np.where(recovers, 1.0 - load["drive_write_share"], keep_write)
            keep_read = np.where(recovers, 1.0 - load["drive_read_share"], keep_read)
            keep_net = np.where(recovers, 1.0 - load["network_share"], keep_net)
        # the LPs the repair keeps busy come off the survivors' LPs for IO work (the model's usable share of each),
        # at most its share of them: Ceph's mClock scheduler gives recovery no more of an OSD's work, and the share
        # S2D and vSAN are held to bounds their repair's CPU as it bounds its bandwidth
        share = repair_share_of(name) if repair_share is None else repair_share
        per_node = load["lps"] / (np.maximum(n - 1, 1) * (p.host_cpu_max_utilization - p.host_cpu_idle_utilization))
        taken = np.minimum(per_node, share * D.lps_per_node) if recovery_cpu else 0.0
        lps = np.where(recovers, D.lps_per_node - taken, lps)
    # copies and columns spread evenly over the n nodes: the lost node holds c / n of a write's c copies or columns.
    # One rule for every stack: where no survivor re-places the lost node's copies, a write makes only those whose
    # node is up (an S2D mirror's available copies, a Ceph placement group's acting set, vSAN's components present:
    # planner.physics.resiliency.surviving_writes); where a repair runs, the rebuilt copies on the survivors take
    # the writes too, so every copy is written
    unwritten = np.where(no_repair, 1.0 / np.maximum(n, 1), 0.0)
    # vSAN: its components stay on the hosts they were placed on until the rebuild has moved them (hours; a
    # replacement host takes days), so a read of one on the absent host is decoded from the surviving ones, with a
    # repair running or not
    vsan = np.asarray(D.stack) == STACK_CODES["vsan"]
    lost = np.where(vsan, 1.0 / np.maximum(n, 1), unwritten)
    Dd = D.replace(
        # fault_domains stays: it picks the parity layout (mirror-accelerated parity's rotation), and the data keeps
        # the stripe it was written in with a node away (a 4-node MAP, re-laid for 3 fault domains, rotated nothing)
        nodes=np.maximum(n - 1, 1),
        drive_read_iops=D.drive_read_iops * keep_read,
        drive_write_iops=D.drive_write_iops * keep_write,
        drive_read_mb_s=D.drive_read_mb_s * keep_read,
        drive_write_mb_s=D.drive_write_mb_s * keep_write,
        node_bandwidth_bytes_s=D.node_bandwidth_bytes_s * keep_net * D.live_links_node_down,
        lps_per_node=lps,
        lost_copy_share=lost,
        lost_write_share=unwritten,
    )
    if W is None:
        return Dd, W
    Wd = replace(W, alignment=degraded_alignment(W.alignment, n))
    return Dd, Wd


def repair_time_hours(
    used_footprint_tb: FloatArray,
    nodes: FloatArray,
    drives_per_node: FloatArray,
    drive_write_mb_s: FloatArray,
    node_bandwidth_bytes_s: FloatArray,
    repair_share: FloatArray = DEFAULT_REPAIR_SHARE,
    max_repair_bytes_s: FloatArray | None = None,
    data_chunks: FloatArray = 1.0,
    drive_read_mb_s: FloatArray | None = None,
) -> FloatArray:
    """Hours to rebuild the lost node's share of ``used_footprint_tb`` [TB] (the data on the cluster with its copies
    or coding chunks) at :func:`repair_rate_bytes_s` (the other arguments are its) [h] (module doc)."""
    lost_bytes = np.asarray(used_footprint_tb, dtype=float) / np.asarray(nodes, dtype=float) * 1e12
    rate = repair_rate_bytes_s(
        nodes,
        drives_per_node,
        drive_write_mb_s,
        node_bandwidth_bytes_s,
        repair_share,
        max_repair_bytes_s,
        data_chunks,
        drive_read_mb_s,
    )
    return lost_bytes / rate / 3600.0


def repair_bandwidth_bytes_s(
    survivors: FloatArray,
    drives_per_node: FloatArray,
    drive_write_mb_s: FloatArray,
    drive_read_mb_s: FloatArray | None,
    node_bandwidth_bytes_s: FloatArray,
    repair_share: FloatArray = DEFAULT_REPAIR_SHARE,
) -> tuple[FloatArray, FloatArray]:
    """(write, read) bandwidth a repair takes of the ``survivors`` [B/s]: ``repair_share`` of their drives'
    sequential bandwidth [MB/s] or of their network, whichever is less (``drive_read_mb_s`` None: the write
    figure). One rule for a rebuild (:func:`repair_time_hours`) and a re-layout (:func:`relayout_time_hours`)."""
    s = np.asarray(survivors, dtype=float)
    drives = s * np.asarray(drives_per_node)
    net_bw = s * np.asarray(node_bandwidth_bytes_s)
    read_mb_s = drive_write_mb_s if drive_read_mb_s is None else drive_read_mb_s
    write_bw = repair_share * np.minimum(drives * np.asarray(drive_write_mb_s) * 1e6, net_bw)
    read_bw = repair_share * np.minimum(drives * np.asarray(read_mb_s) * 1e6, net_bw)
    return write_bw, read_bw


def relayout_time_hours(
    data_tb: FloatArray,
    footprint_tb: FloatArray,
    survivors: FloatArray,
    drives_per_node: FloatArray,
    drive_write_mb_s: FloatArray,
    drive_read_mb_s: FloatArray,
    node_bandwidth_bytes_s: FloatArray,
    repair_share: float = DEFAULT_REPAIR_SHARE,
) -> FloatArray:
    """Hours to rewrite ``data_tb`` [TB] of data into a new layout of ``footprint_tb`` [TB] on the ``survivors``
    (vSAN ESA re-laying RAID-5 4+1 as 2+1 one host short, :func:`planner.physics.capacity.vsan_layout`): the data
    read once and the new footprint written, each at the repair's bandwidth (:func:`repair_bandwidth_bytes_s`); the
    slower side sets the time [h]."""
    write_bw, read_bw = repair_bandwidth_bytes_s(
        survivors, drives_per_node, drive_write_mb_s, drive_read_mb_s, node_bandwidth_bytes_s, repair_share
    )
    seconds = np.maximum(
        np.asarray(footprint_tb, dtype=float) * 1e12 / write_bw, np.asarray(data_tb, dtype=float) * 1e12 / read_bw
    )
    return seconds / 3600.0
