"""What the sizer does differently per storage stack (:mod:`planner.models.stacks`).

The search (:mod:`planner.sizing.search`) is the same for every stack; this
module gives it, per stack, the resiliencies to try, the node-count and
resiliency rules, the exact usable capacity of a storage set, the design
columns the performance model needs, the RAM the stack takes per node and the
design settings of a proposal. A Ceph or vSAN demand is never put in an S2D
rule, nor the other way round: each stack's rules are its own
(:data:`planner.physics.rules.RULES_BY_STACK`).

Scope: the sizer proposes Ceph without DB/WAL devices (all-flash OSDs, one per
drive, the default release) and vSAN ESA (NVMe, no cache tier); a hand-built
design can use DB/WAL devices, vSAN OSA, other releases.
"""

from __future__ import annotations

import numpy as np

from planner.core.text import count
from planner.models.design import CephSpec
from planner.models.params import CEPH_RELEASE_CODES
from planner.models.stacks import (
    CEPH_EXAMPLES,
    CEPH_MIN_MON_HOSTS,
    MAX_NODES,
    MIN_NODES,
    STACK_CODES,
    VSAN_RESILIENCIES,
    ceph_monitor_failures,
    layout,
)
from planner.physics import rules as R
from planner.physics.capacity import (
    ceph_mean_fill_limit,
    ceph_usable_capacity_tb,
    layout_min_fault_domains,
    vsan_usable_capacity_tb,
)
from planner.physics.ceph import CEPH_THREADS_PER_OSD, osd_memory_gb, osd_threads_held

#: the Ceph pools the sizer tries (replicated and common erasure codes)
CEPH_SEARCH = CEPH_EXAMPLES
VSAN_SEARCH = VSAN_RESILIENCIES
_CEPH = CephSpec()


def node_range(demand) -> range:
    """Node counts to try: the demand's range within the stack's limits."""
    st = demand.stack
    lo = max(demand.min_nodes, MIN_NODES[st], 2)
    return range(lo, min(demand.max_nodes, MAX_NODES[st]) + 1)


def resiliencies(stack: str) -> tuple[str, ...]:
    return CEPH_SEARCH if stack == "ceph" else VSAN_SEARCH


def pair_verdict(demand, n: int, res: str) -> tuple[str, str] | None:
    """None when ``res`` on ``n`` nodes passes the stack's pair rules, else (rule, example);
    ('', '') when it is not a design at all (too few hosts for the layout)."""
    st = demand.stack
    lay = layout(st, res, n)
    ex = f"{res} on {n} nodes"
    if n < lay.min_fault_domains:
        return "", ""
    if st == "ceph":
        if not R.ceph_allowed_by_fault_tolerance(demand.fault_tolerance, lay.online_failures, n):
            return "fault_tolerance", (
                f"{ex}: IO goes on through {count(lay.online_failures, 'failure')}, "
                f"its Monitors keep a quorum through {int(ceph_monitor_failures(n))}"
            )
        if not R.ceph_monitor_quorum_ok(n):
            return "ceph_monitor_quorum", f"{ex}: {CEPH_MIN_MON_HOSTS} hosts keep a Monitor quorum through a loss"
        assert lay.min_size is not None  # a Ceph layout carries its pool's min_size
        if not R.ceph_three_copies_ok(lay.kind == "mirror", lay.copies, lay.min_size):
            return "ceph_three_copies", f"{ex}: {lay.copies} copies, min_size {lay.min_size}"
        if n < lay.repair_fault_domains:
            return "ceph_self_heal", f"{ex}: {lay.repair_fault_domains} hosts re-protect a lost one"
    else:
        if not R.vsan_allowed_by_fault_tolerance(demand.fault_tolerance, lay.online_failures):
            return "fault_tolerance", f"{ex} tolerates {count(lay.online_failures, 'failure')}"
        if n < lay.repair_fault_domains:
            return "vsan_rebuild_hosts", f"{ex}: {lay.repair_fault_domains} hosts rebuild a failed one"
    esa = st == "vsan" and design_settings(st)["vsan"]["architecture"] == "esa"
    if not R.stack_mirror_for_databases(st, lay.kind == "erasure", demand.allow_parity, esa):
        return "mirror_for_databases", ex
    return None


def usable_tb(stack: str, n: int, res: str, drives_per_node, drive_tb, after_loss: bool = False):
    """Usable TB of every storage set on ``n`` nodes (vectorised over the sets);
    ``after_loss``: what the n - 1 survivors hold once re-protected."""
    lay = layout(stack, res, n)
    if stack == "ceph":
        u = ceph_usable_capacity_tb(
            n,
            drives_per_node,
            drive_tb,
            lay.data,
            lay.width,
            _CEPH.nearfull_ratio,
            _CEPH.backfillfull_ratio,
            _CEPH.db_fraction,
            False,
            lay.repair_fault_domains,
        )
        if after_loss:
            raw = n * np.asarray(drives_per_node) * np.asarray(drive_tb, dtype=float)
            refill = ceph_mean_fill_limit(_CEPH.backfillfull_ratio)  # the fullest survivor OSD at backfillfull
            held = raw * (1 - _CEPH.db_fraction) * (n - 1) / n * refill * lay.efficiency
            return np.minimum(u, held)
        return u
    u = vsan_usable_capacity_tb(n, drives_per_node, drive_tb, lay.data, lay.width)
    if after_loss:
        lay1 = layout(stack, res, max(n - 1, 1))
        raw = (n - 1) * np.asarray(drives_per_node) * np.asarray(drive_tb, dtype=float)
        return np.minimum(u, raw * lay1.efficiency)
    return u


def design_columns(stack: str, res: str, n: int) -> dict:
    """The stack's DesignArrays columns for ``res`` on ``n`` nodes (sizer defaults)."""
    lay = layout(stack, res, n)
    return {
        "stack": STACK_CODES[stack],
        "data_chunks": float(lay.data),
        "width": float(lay.width),
        "layout_min_fault_domains": layout_min_fault_domains(lay),
        "esa": stack == "vsan",
        "osds_per_drive": 1.0,
        "ceph_release": CEPH_RELEASE_CODES[_CEPH.release],
    }


def stack_ram_gb(stack: str, drives_per_node):
    """RAM the stack takes per node, GB, beyond the host reserve (per storage set)."""
    if stack == "ceph":
        return osd_memory_gb(np.asarray(drives_per_node), _CEPH.osd_memory_target_gb)
    return np.zeros(np.shape(drives_per_node))


def storage_checks(stack: str, drives, di, d_rank, counts) -> dict:
    """The stack's rules on storage sets (capacity drive x ``counts`` a node; the sizer gives a
    Ceph or vSAN node no cache or DB/WAL devices)."""
    tb = np.array([x.capacity_tb for x in drives])[di]
    iface = np.array([x.interface for x in drives], dtype=object)[di]
    dwpd = np.array([x.endurance_dwpd for x in drives])[di]
    if stack == "ceph":
        # no DB/WAL device here: HDD OSDs would keep their RocksDB on the spindle (35 nodes of 20 TB HDDs were
        # proposed for databases; architect review 2026-11-30)
        return {
            "ceph_osd_size": tb >= R.CEPH_MIN_OSD_TB - 1e-9,
            "ceph_db_device": np.asarray(d_rank) != 1,
            # no DB/WAL device is offered, so none is slower than the data drives (hardware_rules judges a given one)
            "ceph_db_device_faster": np.ones(np.shape(tb), dtype=bool),
        }
    # the ESA host rules' device counts (their cores: :func:`cpu_cores_ok`; their RAM: :func:`min_ram_gb`): one NVMe
    # device a host was proposed (vSAN specialist's walk)
    k = np.asarray(counts)
    return {
        "vsan_esa_nvme": (iface == "nvme") & (np.asarray(d_rank) != 1),
        "vsan_esa_endurance": dwpd >= R.VSAN_ESA_MIN_DWPD - 1e-9,
        "vsan_esa_host_minimum": k >= R.VSAN_ESA_AF0_MIN[0],
        "vsan_esa_host_profile": k >= R.VSAN_ESA_MIN[0],
    }


def min_ram_gb(stack: str) -> float:
    """The least RAM a proposed node holds, GB: the platform's 32 GB; the sizer's vSAN (ESA) host vSAN 8.0's ESA
    minimum (``vsan_esa_host_profile``, :data:`planner.physics.rules.VSAN_ESA_MIN`)."""
    return max(R.MIN_RAM_GB, R.VSAN_ESA_MIN[2]) if stack == "vsan" else R.MIN_RAM_GB


#: the rule :func:`cpu_cores_ok` applies, per stack
CORES_RULE = {"vsan": "vsan_esa_host_profile"}


def cpu_cores_ok(stack: str, cores):
    """vSAN (ESA, the sizer's): vSAN 8.0's ESA cores a host (``vsan_esa_host_profile``); other stacks: no floor."""
    if stack != "vsan":
        return np.ones(np.shape(cores), dtype=bool)
    return np.asarray(cores) >= R.VSAN_ESA_MIN[1]


def guest_lps(stack: str, lps, drives_per_node, hdd):
    """The logical processors a node sells its guests' vCPUs on [count], vectorised: all of them, less a Ceph
    node's OSDs' recommended threads (one OSD per drive here; :func:`planner.physics.ceph.osd_threads_held`, the
    rule of :func:`planner.physics.hosting.guest_threads`)."""
    lps = np.asarray(lps, dtype=float)
    if stack != "ceph":
        return np.broadcast_to(lps, np.broadcast(lps, np.asarray(drives_per_node)).shape)
    return lps - osd_threads_held(lps, drives_per_node, hdd)


def cpu_threads_ok(stack: str, lps, drives_per_node, hdd):
    """Ceph: the recommended CPU threads per OSD (6 per NVMe or SSD OSD, 3 per HDD OSD)."""
    if stack != "ceph":
        return np.ones(np.broadcast(np.asarray(lps), np.asarray(drives_per_node)).shape, dtype=bool)
    need = np.where(np.asarray(hdd, dtype=bool), CEPH_THREADS_PER_OSD["hdd"][1], CEPH_THREADS_PER_OSD["nvme"][1])
    return np.asarray(lps) >= need * np.asarray(drives_per_node)


#: the rule :func:`network_ok` applies, per stack
NETWORK_RULE = {"ceph": "ceph_network_25gbe", "vsan": "vsan_esa_network_25gbe"}


def network_ok(stack: str, port_gbit_s, override: bool):
    """Ceph: 25 Gb/s for a substantial workload unless the demand overrides; vSAN ESA (the
    sizer's vSAN): the 25 Gb/s of every ESA profile but vSAN-ESA-AF-0, whatever the demand, as the
    sizer's hosts are above that profile (``vsan_esa_host_profile``) (:data:`NETWORK_RULE`)."""
    if stack == "ceph":
        return (np.asarray(port_gbit_s) >= R.CEPH_RECOMMENDED_PORT_GBIT_S) | bool(override)
    return R.vsan_esa_network_25gbe_ok(design_settings(stack)["vsan"]["architecture"], port_gbit_s, False)


def design_settings(stack: str) -> dict:
    """The stack fields of a proposed design."""
    if stack == "ceph":
        return {"stack": "ceph", "transport": "tcp"}
    return {"stack": "vsan", "transport": "tcp", "vsan": {"architecture": "esa"}}
