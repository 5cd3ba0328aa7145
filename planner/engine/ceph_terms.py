"""Ceph's demand terms: :func:`planner.engine.performance.demand_terms` for
``stack: ceph`` designs (same keys, same stations, Ceph's physics).

Stations (the keys of :data:`planner.engine.performance.STATIONS`):

0 ``vm_vcpu``          the client process, private to each client: a VM's guest
                       CPU on its vCPUs, and the RBD client's CPU over its threads
                       (``client_threads``: the per-client limit of one fio job or
                       one QEMU disk)
1 ``host_cpu``         the storage nodes' logical processors: the OSDs' CPU, and the
                       clients' when they run on the storage nodes; bounded also by
                       the LPs one OSD can use (``osd_max_lps_*``) and, for clients on
                       their own servers, by those servers' LPs
2 ``network``          every node's links at the messenger's share of line rate
                       (client servers' links too when clients are separate)
3 ``cache``            DB/WAL devices, when the design has them (BlueStore metadata)
4 ``capacity_drives``  the OSDs' data devices

Parameters: :class:`planner.models.params.CephParams` (fitted by
:mod:`planner.calibration.ceph_fit`). Physics: :mod:`planner.physics.ceph`.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from planner.core.errors import PlannerError
from planner.core.types import FloatArray
from planner.models.params import CephParams, ModelParams
from planner.physics import ceph, devices, resiliency
from planner.physics import cpu as cpu_mod

US = 1e-6


def ceph_demand_terms(D: Any, W: Any, p: ModelParams) -> dict[str, Any]:
    """Per-IO demands of a Ceph design (one array per class and station).

    ``D`` and ``W``: :class:`planner.engine.performance.DesignArrays` and ``WorkloadArrays``
    (that module imports this one), or a block of their rows."""
    if not hasattr(p, "osd_read_cpu_us"):
        raise PlannerError("a Ceph design needs Ceph parameters (planner.models.params.ceph_params)", "params")
    # Ceph's parameters: a CephParams, or one set per row with its attributes (evaluate_arrays)
    p = cast(CephParams, p)
    n = np.asarray(D.nodes).astype(float)
    bs = np.asarray(W.block_size_kib, dtype=float)
    k = np.asarray(D.data_chunks, dtype=float)
    # one host down with no host to re-place on: a write goes to its placement group's acting set, the copies or
    # chunks whose host is up (planner.physics.resiliency.surviving_writes, every stack's rule; lost_write_share 0
    # healthy or where recovery re-places them)
    width, _ = resiliency.surviving_writes(D.width, 0.0, D.lost_write_share)
    sep = np.asarray(D.clients_separate, dtype=bool)
    scale = cpu_mod.clock_scale(D.base_ghz)
    cscale = cpu_mod.clock_scale(np.where(sep, D.client_base_ghz, D.base_ghz))

    p_local = ceph.primary_local_probability(n, sep)
    chunk = ceph.chunk_kib(bs, k)
    n_rd = ceph.read_ops(k)
    n_wr = ceph.write_ops(k, width)
    n_rmw = ceph.rmw_reads(bs, k)
    wf = ceph.release_write_factor(D.ceph_release, D.rocksdb_tuned, p)

    # --- CPU, LP-seconds per client IO
    vm_issuer = ~np.asarray(W.host_issuer, dtype=bool)
    guest_s = np.where(vm_issuer, p.guest_cpu_us * cscale * US, 0.0)
    client_s = (p.client_cpu_us + p.client_cpu_per_kib_us * bs) * cscale * US
    osd_r_s = n_rd * (p.osd_read_cpu_us + p.osd_cpu_per_kib_read_us * chunk) * scale * US
    osd_w_s = (
        (
            n_wr * (p.osd_write_cpu_us * wf + p.osd_cpu_per_kib_write_us * chunk)
            + n_rmw * (p.osd_read_cpu_us + p.osd_cpu_per_kib_read_us * chunk)
        )
        * scale
        * US
    )
    # the storage nodes' LPs serve the OSDs, and the clients' own work when they run there
    on_storage = np.where(sep, 0.0, 1.0)
    host_r_s = osd_r_s + on_storage * client_s
    host_w_s = osd_w_s + on_storage * client_s
    lps_total = D.lps_per_node * n * (p.host_cpu_max_utilization - p.host_cpu_idle_utilization)
    client_lps = np.maximum(D.client_lps_per_node * D.client_nodes, 1.0) * (
        p.host_cpu_max_utilization - p.host_cpu_idle_utilization
    )
    osds = np.maximum(D.drives_per_node * D.osds_per_drive * n, 1.0)
    vcpus = np.maximum(W.vcpus_per_vm, 1.0)

    def cpu_station(host_s: FloatArray, osd_s: FloatArray, osd_max_lps: FloatArray) -> FloatArray:
        pooled = (np.where(sep, 0.0, guest_s) + host_s) / lps_total
        per_osd = osd_s / (osds * osd_max_lps)
        clients = np.where(sep, (guest_s + client_s) / client_lps, 0.0)
        return np.maximum(np.maximum(pooled, per_osd), clients)

    # --- network: client <-> primary, and between OSDs
    eff_net = p.network_efficiency
    storage_bw = n * D.node_bandwidth_bytes_s * eff_net
    client_bw = np.maximum(D.client_nodes, 1.0) * D.client_bandwidth_bytes_s * eff_net
    cli_kib = ceph.client_bytes_kib(bs, p_local)
    clu_r = ceph.cluster_read_kib(bs, k)
    clu_w = ceph.cluster_write_kib(bs, k, width)

    def wire(cluster_kib: FloatArray) -> FloatArray:
        storage = (cli_kib + cluster_kib) * devices.KIB / storage_bw
        client = np.where(sep, cli_kib * devices.KIB / client_bw, 0.0)
        return np.maximum(storage, client)

    # --- devices: data devices, and DB/WAL devices when present
    eff = p.drive_efficiency
    n_drives = D.drives_per_node * n
    db_sep = np.asarray(D.db_separate, dtype=bool)
    meta = p.bluestore_metadata_kib_per_write
    t_dr = devices.busy_time_s(chunk, D.drive_read_iops, D.drive_read_mb_s, eff)
    # BlueStore writes data to newly allocated space (copy-on-write) and appends its
    # WAL: the device sees writes in allocation order, so its write bandwidth bounds
    # them, not its random-write IOPS (the calibration's fresh clusters: a device-IOPS
    # bound would cap the 10-node Reef cluster at ~700K 4 KiB writes, it ran 800K)
    t_dw = devices.busy_time_s(chunk + np.where(db_sep, 0.0, meta), np.inf, D.drive_write_mb_s, eff)
    n_cache = np.maximum(D.cache_per_node * n, 1)
    t_db = devices.busy_time_s(meta, D.cache_write_iops, D.cache_write_mb_s)

    path_r = [
        guest_s / vcpus + client_s / p.client_threads,
        cpu_station(host_r_s, osd_r_s, p.osd_max_lps_read),
        wire(clu_r),
        np.zeros_like(n_rd * n),
        n_rd * t_dr / n_drives,
    ]
    path_w = [
        guest_s / vcpus + client_s / p.client_threads,
        cpu_station(host_w_s, osd_w_s, p.osd_max_lps_write),
        wire(clu_w),
        np.where(db_sep, n_wr * t_db / n_cache, 0.0),
        (n_wr * t_dw + n_rmw * t_dr) / n_drives,
    ]

    # --- fixed delays: the software path at idle (fitted on QD1 writes), the
    # devices, and the crossings of the client's messages
    hop = p.hop_latency_us * US
    remote = 1.0 - p_local
    ec = k > 1
    dev_r = D.drive_read_latency_us * US
    dev_w = np.where(db_sep, D.cache_write_latency_us, D.drive_write_latency_us) * US
    # two messenger traversals make one round trip: a distance between rooms adds one per pair
    rtt = D.fault_domain_rtt_s
    ds_r = p.stack_read_latency_us * US + dev_r + (2.0 * remote + 2.0 * ec) * hop + (remote + ec) * rtt
    rmw_lat = np.where(n_rmw > 0, dev_r + 2.0 * hop + rtt, 0.0)
    ds_w = p.stack_write_latency_us * US + dev_w + rmw_lat + (2.0 * remote + 2.0) * hop + (remote + 1.0) * rtt
    seidmann = guest_s * (vcpus - 1.0) / vcpus
    guest_delay = np.where(vm_issuer, p.guest_latency_us * US + seidmann, 0.0)
    # critical-path CPU: the client's, the primary's and one replica's (in parallel with the others)
    crit_r = client_s + (p.osd_read_cpu_us + p.osd_cpu_per_kib_read_us * chunk) * scale * US
    crit_w = client_s + 2.0 * (p.osd_write_cpu_us * wf + p.osd_cpu_per_kib_write_us * chunk) * scale * US
    zeros = np.zeros_like(np.asarray(n_rd * n * bs, dtype=float))
    backend = n_wr * (chunk + meta) / np.maximum(bs, 1e-9)
    return dict(
        path_read=path_r,
        path_write=path_w,
        background=zeros,
        vms=np.maximum(W.vms_total, 1.0),
        delay_storage_read=ds_r,
        delay_storage_write=ds_w,
        delay_vm_read=ds_r + guest_delay,
        delay_vm_write=ds_w + guest_delay,
        # the rooms' round trip in those delays: a propagation delay every IO waits alike (no spread)
        delay_rtt_read=(remote + ec) * rtt,
        delay_rtt_write=np.where(n_rmw > 0, rtt, 0.0) + (remote + 1.0) * rtt,
        cpu_lp_s_read=np.where(sep, 0.0, guest_s) + host_r_s,
        cpu_lp_s_write=np.where(sep, 0.0, guest_s) + host_w_s,
        host_critical_s_read=crit_r,
        host_critical_s_write=crit_w,
        lps_total=lps_total,
        hops_read=(cli_kib + clu_r) / np.maximum(bs, 1e-9),
        hops_write=(cli_kib + clu_w) / np.maximum(bs, 1e-9),
        backend_writes=backend,
        write_absorption=zeros,
        read_hit=zeros,
        write_cached=np.zeros(np.shape(zeros), dtype=bool),
        destaged=zeros,
        rmw_reads=n_rmw * chunk / np.maximum(bs, 1e-9),
        write_branches=np.minimum(n_wr, n),
        # each copy's OSD write work reaches its node from the same client write at once
        # (the fork-join wait's shared arrivals, planner.engine.queueing.fork_join_factor)
        forked_cpu_s_write=n_wr * (p.osd_write_cpu_us * wf + p.osd_cpu_per_kib_write_us * chunk) * scale * US,
        osd_lp_s_read=osd_r_s,
        osd_lp_s_write=osd_w_s,
    )
