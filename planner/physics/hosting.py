"""Compute and memory a node must host: the VMs' vCPUs against the
oversubscription ratio, and RAM for the VMs, the host and the storage stack.

Rules and their sources
-----------------------
* vCPUs: a node hosts at most ``logical processors x vcpu_oversubscription``
  vCPUs (the design's policy; Hyper-V itself allows more). A hyperconverged Ceph
  node first holds back its OSDs' recommended threads (Ceph docs, *Hardware
  Recommendations*: 6 per NVMe or SSD OSD, 3 per HDD OSD;
  :func:`planner.physics.ceph.osd_threads_held`): the guests' vCPUs are sold on
  the rest (:func:`guest_threads`). S2D and vSAN hold no threads back: their
  storage CPU is the performance model's host CPU station, as Ceph's OSD work is.
* Storage Spaces Direct metadata: "4 GB of RAM per terabyte (TB) of cache drive
  capacity on each server" (Microsoft, *Storage Spaces Direct hardware
  requirements*).
* CSV in-memory read cache: ``BlockCacheSize`` per server, 1 GiB by default on
  Windows Server 2019 and Azure Stack HCI (Microsoft, *Use the CSV in-memory read
  cache*); the design's ``csv_cache_gb``.
* Host reserve: memory for the host OS and its services, the design's
  ``host_reserve_gb``. Microsoft publishes no figure for it; it is a planning
  assumption the user sets (default 8 GB).

* Ceph: the OSDs' memory, OSDs x ``osd_memory_target`` x 2 (Ceph docs, *Hardware
  recommendations*: total RAM "greater than (number of OSDs * osd_memory_target *
  2)", the doubling covering the OS and the other Ceph daemons), instead of S2D's
  metadata and CSV cache. vSAN: its own memory use is not modelled (give it in the
  host reserve).
* A disaggregated Ceph or vSAN design runs its VMs on the client servers
  (``vms_per_node`` per client server): their vCPUs and RAM are checked there.

With one node down its VMs restart on the survivors, ``n / (n - 1)`` times as
many on each on average; VMs are whole, so the busiest survivor hosts the
next whole number, ``ceil(v n / (n - 1))``, and that node is the one checked.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from planner.core.types import FloatArray
from planner.models.design import ResolvedDesign, ResolvedNode
from planner.models.workload import Workload
from planner.physics.ceph import osd_memory_gb, osd_threads_held

S2D_METADATA_GB_PER_CACHE_TB = 4.0


def vcpu_capacity(lps_per_node: FloatArray, oversubscription: FloatArray) -> FloatArray:
    """vCPUs one node may host: logical processors x oversubscription ratio."""
    return np.floor(np.asarray(lps_per_node, dtype=float) * np.asarray(oversubscription, dtype=float))


def s2d_metadata_gb(cache_tb_per_node: FloatArray) -> FloatArray:
    """RAM the S2D cache metadata needs per node, GB (4 GB per TB of cache)."""
    return S2D_METADATA_GB_PER_CACHE_TB * np.asarray(cache_tb_per_node, dtype=float)


def ram_needed_gb(
    vms_per_node: FloatArray,
    ram_gb_per_vm: FloatArray,
    host_reserve_gb: FloatArray,
    cache_tb_per_node: FloatArray,
    csv_cache_gb: FloatArray,
) -> FloatArray:
    """RAM one node needs, GB: its VMs, the host reserve, S2D metadata, CSV cache."""
    return (
        np.asarray(vms_per_node, dtype=float) * np.asarray(ram_gb_per_vm, dtype=float)
        + np.asarray(host_reserve_gb, dtype=float)
        + s2d_metadata_gb(cache_tb_per_node)
        + np.asarray(csv_cache_gb, dtype=float)
    )


def cache_tb_per_node(node: ResolvedNode) -> float:
    """A node's cache devices, TB (0 without a cache tier): what S2D's metadata RAM scales with."""
    return node.cache.capacity_gb * node.cache_count / 1000.0 if node.cache is not None else 0.0


def stack_ram_gb(rd: ResolvedDesign) -> tuple[float, str]:
    """RAM a storage node's stack needs beyond the host reserve, GB, and how it is made up."""
    d, node = rd.design, rd.node
    if d.stack == "ceph":
        osds = node.drive_count * d.ceph_spec.osds_per_drive
        gb = float(osd_memory_gb(osds, d.ceph_spec.osd_memory_target_gb))
        # the sum first, its making in brackets: inside the RAM warning's own sum it read "... x 2 = 103 GB = 10,111 GB
        # per node" (browser review 2026-11-30)
        return gb, f"OSD memory {gb:,.0f} GB ({osds} OSDs x {d.ceph_spec.osd_memory_target_gb:.2f} GB x 2)"
    if d.stack == "vsan":
        return 0.0, "vSAN memory not modelled"
    cache_tb = cache_tb_per_node(node)
    gb = float(s2d_metadata_gb(cache_tb)) + d.csv_cache_gb
    return gb, f"S2D metadata {float(s2d_metadata_gb(cache_tb)):g} GB + CSV cache {d.csv_cache_gb:g} GB"


def guest_threads(rd: ResolvedDesign) -> tuple[int, int]:
    """(logical processors each server the database VMs run on gives their vCPUs, logical processors it holds
    back for its OSDs) [count]: a hyperconverged Ceph node holds its OSDs' recommended threads
    (:func:`planner.physics.ceph.osd_threads_held`); a disaggregated design's client servers and an S2D or vSAN
    node hold none. One rule for the vCPU checks, the tiers' fit and the rule on the OSDs' threads."""
    d, n = rd.design, rd.node
    if rd.clients is not None or d.stack != "ceph":
        return (rd.clients.threads if rd.clients is not None else n.threads), 0
    held = int(osd_threads_held(n.threads, n.drive_count * d.ceph_spec.osds_per_drive, n.drive.media == "hdd"))
    return n.threads - held, held


def guest_threads_words(rd: ResolvedDesign) -> str:
    """The logical processors the guests' vCPUs are sold on, in words: "96 logical processors", or on a
    hyperconverged Ceph node "66 logical processors (96 less 30 held for 5 OSDs)"."""
    lps, held = guest_threads(rd)
    if not held:
        return f"{lps} logical processors"
    osds = rd.node.drive_count * rd.design.ceph_spec.osds_per_drive
    return f"{lps} logical processors ({lps + held} less {held} held for {osds} OSDs)"


#: Hyper-V's maximums, the hypervisor of S2D and Azure Local: Microsoft, "Plan for Hyper-V scalability in Windows
#: Server" (learn.microsoft.com/windows-server/virtualization/hyper-v/plan/plan-hyper-v-scalability-in-windows-server;
#: its "Maximums for Hyper-V hosts": "Running virtual machines per server 1024"; its "Failover Clusters and Hyper-V":
#: "Running virtual machines per cluster and per node 8,000 per cluster"). vSAN's and Ceph's hypervisors have no
#: such limit cited here (no published per-host VM maximum for vSAN was found: stop 55), so none is applied to them
HYPERV_SCALABILITY = "Microsoft, 'Plan for Hyper-V scalability in Windows Server'"
MAX_VMS_PER_HOST_HYPERV = 1024
MAX_VMS_PER_CLUSTER_HYPERV = 8000


def max_vms(stack: str) -> tuple[float, float]:
    """The running VMs a host and a cluster of ``stack`` may hold: Hyper-V's 1,024 and 8,000 for S2D, none cited
    for Ceph and vSAN (inf)."""
    if stack == "s2d":
        return float(MAX_VMS_PER_HOST_HYPERV), float(MAX_VMS_PER_CLUSTER_HYPERV)
    return math.inf, math.inf


def vm_count_problem(stack: str, vms_per_host: float, hosts: int, vms_total: float) -> str | None:
    """Why the VMs exceed the hypervisor's maximums, in one line, or None: the busiest host's VMs against the
    per-host maximum, all of them against the per-cluster one (:func:`max_vms`). One rule for the sizer's screen,
    its ``vcpus`` check and ``evaluate``'s hosting checks: the model counted up to 2,000 VMs a node and 5,000
    databases on three hosts passed (stop 55 walk)."""
    per_host, per_cluster = max_vms(stack)
    if vms_per_host > per_host + 1e-9:
        return (
            f"{vms_per_host:,.0f} VMs per host on {hosts:,} hosts, above Hyper-V's {per_host:,.0f} running VMs per "
            f"server ({HYPERV_SCALABILITY})"
        )
    if vms_total > per_cluster + 1e-9:
        return (
            f"{vms_total:,.0f} VMs on the cluster, above Hyper-V's {per_cluster:,.0f} running VMs per failover "
            f"cluster ({HYPERV_SCALABILITY})"
        )
    return None


def vm_hosts(rd: ResolvedDesign) -> tuple[int, int, float, float]:
    """Where the database VMs run: (servers, logical processors each gives the VMs' vCPUs (:func:`guest_threads`),
    RAM each [GB], RAM each keeps for itself [GB]: the host reserve, and beside a storage stack its own,
    :func:`stack_ram_gb`). The nodes, or a disaggregated Ceph or vSAN design's client servers (no storage stack
    beside the VMs). One rule for the hosting checks and the tiers' fit (:func:`planner.commercial.tiers.fit_mix`)."""
    d, cl = rd.design, rd.clients
    if cl is not None:
        return cl.servers, cl.threads, cl.ram_gb, d.host_reserve_gb
    if d.stack == "s2d":
        fixed = float(ram_needed_gb(0, 0, d.host_reserve_gb, cache_tb_per_node(rd.node), d.csv_cache_gb))
    else:
        fixed = d.host_reserve_gb + stack_ram_gb(rd)[0]
    return rd.nodes, guest_threads(rd)[0], rd.node.ram_gb, fixed


def vm_base_ghz(rd: ResolvedDesign) -> float:
    """The base clock of the servers the database VMs run on [GHz] (:func:`vm_hosts`' servers): the guest IO
    stack's CPU per IO scales with it (:func:`planner.physics.cpu.guest_us_per_io`)."""
    return float(rd.clients.cpu.base_ghz if rd.clients is not None else rd.node.cpu.base_ghz)


def host_checks(rd: ResolvedDesign, workload: Workload) -> list[dict[str, Any]]:
    """Whether each node can host the workload's VMs, healthy and with one node
    down (or, for a disaggregated Ceph or vSAN design, each client server with one
    of them down). Returns one entry per check that fails, naming both numbers."""
    if workload.issuer == "host" or not workload.vms_per_node:
        return []
    d, cl = rd.design, rd.clients
    servers, threads, ram, fixed = vm_hosts(rd)
    what, down = ("client server", "one client server down") if cl is not None else ("node", "one node down")
    note = "" if cl is not None else stack_ram_gb(rd)[1]
    out = []
    cases = [("healthy", workload.vms_per_node)]
    if servers > 1:
        # the busiest survivor: VMs are whole (a 1e-9 slack so 3 x 4 / 2 stays 6)
        cases.append((down, math.ceil(float(workload.vms_on(servers)) / (servers - 1) - 1e-9)))
    for case, vms in cases:
        if cl is None and (too_many := vm_count_problem(d.stack, vms, servers, float(workload.vms_on(servers)))):
            out.append({"check": "vms", "case": case, "vms_per_node": vms, "message": f"{case}: {too_many}"})
        need_vcpus = vms * workload.vcpus_per_vm
        have_vcpus = float(vcpu_capacity(threads, d.vcpu_oversubscription))
        if need_vcpus > have_vcpus:
            out.append(
                {
                    "check": "vcpus",
                    "case": case,
                    "needed_vcpus": round(need_vcpus, 1),
                    "available_vcpus": have_vcpus,
                    "message": f"{case}: {vms:,} VMs x {workload.vcpus_per_vm} vCPUs = {need_vcpus:,.0f} vCPUs per "
                    f"{what}, above {d.vcpu_oversubscription:g} vCPUs per logical processor (the vCPU oversubscription) x "
                    f"{guest_threads_words(rd)} = {have_vcpus:,.0f}",
                }
            )
        need_gb = vms * workload.ram_gb_per_vm + fixed
        if need_gb > ram:
            out.append(
                {
                    "check": "ram",
                    "case": case,
                    "needed_gb": round(need_gb, 1),
                    "available_gb": ram,
                    "message": f"{case}: {vms:,} VMs x {workload.ram_gb_per_vm:g} GB + host reserve "
                    f"{d.host_reserve_gb:g} GB{' + ' + note if note else ''} = {need_gb:,.0f} GB per {what}, "
                    f"above its {ram:,.0f} GB RAM",
                }
            )
    return out
