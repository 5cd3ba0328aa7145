"""Named sizing rules: what a candidate cluster must satisfy before anyone
prices it, each with the text it comes from.

Every rule is a small vectorised predicate (numpy arrays in, a boolean array
out) so the sizer (:mod:`planner.sizing.search`) screens thousands of part choices
with the same function that :func:`planner.sizing.search.check_design` applies to one
design. :data:`RULES` keeps, per rule name, a one-line title, its kind and its
source; the UI and the report show them when a rule rejects a candidate.

Kinds
-----
``requirement``     a platform requirement (Microsoft's or the chassis')
``recommendation``  Microsoft's stated recommendation, applied by default
``warning``         a recommendation the user may override (``allow_network_warning``)
``headroom``        headroom a reviewer expects (reserve, N+1, growth)
``demand``          the demand itself (capacity, IOPS at latency, vCPUs, RAM, budget)

Sources (quoted where a rule rests on one sentence)
---------------------------------------------------
[HW]  Microsoft, *Storage Spaces Direct hardware requirements in Windows Server*
      (MicrosoftDocs/windowsserverdocs, storage-spaces-direct-hardware-requirements.md,
      2025-05-12).
[SR]  Microsoft, *System requirements for Azure Local, version 23H2*
      (MicrosoftDocs/azure-stack-docs, azure-local/concepts/system-requirements-23h2.md).
[PV]  Microsoft, *Plan volumes on Azure Stack HCI and Windows Server clusters*
      (MicrosoftDocs/azure-stack-docs, azure-stack/hci/concepts/plan-volumes.md, 2024-02-22).
[FT]  Microsoft, *Fault tolerance and storage efficiency on Azure Stack HCI and Windows
      Server clusters* (azure-local/concepts/fault-tolerance.md, 2023-04-17).
[NR]  Microsoft, *Nested resiliency for Storage Spaces Direct*
      (azure-local/concepts/nested-resiliency.md, 2024-02-22).
[CD]  Microsoft, *Choose drives for Azure Stack HCI and Windows Server clusters*
      (azure-local/concepts/choose-drives.md, 2024-02-21).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

from planner.models.design import ResolvedDesign
from planner.physics.capacity import RESILIENCY_CODES, capacity_report
from planner.physics.power import node_power_w

HW = "Microsoft, 'Storage Spaces Direct hardware requirements in Windows Server' (2025-05-12)"
SR = "Microsoft, 'System requirements for Azure Local, version 23H2'"
PV = "Microsoft, 'Plan volumes on Azure Stack HCI and Windows Server clusters' (2024-02-22)"
FT = "Microsoft, 'Fault tolerance and storage efficiency on Azure Stack HCI and Windows Server clusters'"
NR = "Microsoft, 'Nested resiliency for Storage Spaces Direct' (2024-02-22)"
CD = "Microsoft, 'Choose drives for Azure Stack HCI and Windows Server clusters' (2024-02-21)"

Kind = Literal["requirement", "recommendation", "warning", "headroom", "demand"]

#: [HW] "Minimum of two servers, maximum of 16 servers." [SR] "1 to 16 machines
#: are supported" (Azure Local: a single machine too).
MIN_NODES, MAX_NODES = 2, 16
MIN_NODES_AZURE_LOCAL = 1
#: [HW] "Pool capacity 4 PB (4,000 TB)"; [SR] "Storage per system 4 PB".
MAX_POOL_TB = 4000.0
#: [HW] table "Minimum drives required (Windows Server)": 4 capacity drives of one
#: model (all-NVMe or all-SSD); 2 cache + 4 capacity with a cache. Azure Local
#: accepts 2 all-flash capacity drives; the Windows Server figure is used.
MIN_CAPACITY_DRIVES = 4
#: [HW] "If you're planning to use the storage pool cache, there must be at least
#: two cache devices per server."
MIN_CACHE_DEVICES = 2
#: [HW] "Cache devices must be 32 GB or larger."
MIN_CACHE_DEVICE_GB = 32.0
#: [HW] "Recommended: Cache drives should have high write endurance: at least 3
#: drive-writes-per-day (DWPD)".
MIN_CACHE_DWPD = 3.0
#: [CD] "For deployments with HDDs, a fair starting place is 10 percent of capacity".
HYBRID_CACHE_SHARE = 0.10
#: [HW] maximum "Raw capacity per server: 400 TB" (Windows Server 2019 or later);
#: [SR] "Storage per machine 400 TB".
MAX_RAW_TB_PER_SERVER = 400.0
#: [SR] "A minimum of 32-GB RAM per machine with Error-Correcting Code (ECC)".
MIN_RAM_GB = 32.0
#: [SR] "Virtual processors per host 2,048".
MAX_VCPUS_PER_HOST = 2048
#: [HW] "For minimum interconnect for a small scale 2-3 node cluster: 10 Gbps
#: network interface card (NIC), or faster."
MIN_PORT_GBIT_S = 10.0
#: [HW] "Recommended interconnect for high performance, at scale, or deployments of
#: a 4+ node cluster: NICs that are remote-direct memory access (RDMA) capable ...
#: 25 Gbps NIC or faster."
RECOMMENDED_PORT_GBIT_S = 25.0
RDMA_RECOMMENDED_FROM_NODES = 4

#: Media speed class, fastest first ([CD] "Drive types": PMem, NVMe, SSD, HDD).
MEDIA_RANK = {"pmem": 4, "nvme": 3, "ssd": 2, "hdd": 1}

PARITY = ("parity-single", "parity-dual", "mirror-accelerated-parity")


@dataclass(frozen=True)
class Rule:
    name: str
    title: str
    kind: Kind
    source: str

    def as_dict(self) -> dict:
        return {"rule": self.name, "title": self.title, "kind": self.kind, "source": self.source}


def _r(name, title, kind, source) -> tuple[str, Rule]:
    return name, Rule(name, title, kind, source)


RULES: dict[str, Rule] = dict(
    [
        _r(
            "supported_node_count",
            "2 to 16 servers (Azure Local: 1 to 16)",
            "requirement",
            f"{HW}: 'Minimum of two servers, maximum of 16 servers'; {SR}: '1 to 16 machines are supported'",
        ),
        _r(
            "pool_capacity",
            f"at most {MAX_POOL_TB:,.0f} TB (4 PB) raw in the pool",
            "requirement",
            f"{HW}: 'Pool capacity 4 PB (4,000 TB)' (Windows Server 2019 or later); {SR}: 'Storage per system 4 PB'",
        ),
        _r(
            "volume_plan",
            "planned volumes fit the pool, at most 64 volumes of at most 64 TB, each resiliency on enough fault "
            "domains",
            "requirement",
            f"{PV}: 'limiting the total number of volumes to 64 volumes per cluster', 'limiting the size of each "
            f"volume to 64 TB', 'The footprints of your volumes need to fit in the storage pool'; {SR}: 'Volumes per "
            "system 64', 'Volume size 64 TB'",
        ),
        _r(
            "reserve_three_tiers",
            "with NVMe, SSD and HDD drives, reserve one SSD plus one HDD per server, up to 4 of each",
            "recommendation",
            f"{PV}: 'In clusters with drives of all three types (NVMe + SSD + HDD), we recommend reserving the "
            "equivalent of one SSD plus one HDD per server, up to 4 drives of each' (a node here has one capacity "
            "tier: planner.physics.capacity.reserve_three_tier_tb holds the rule)",
        ),
        _r(
            "fault_tolerance",
            "the resiliency survives the failures the demand names",
            "requirement",
            f"{FT} (two-way mirror tolerates 1 failure, three-way mirror and dual parity 2); {PV} (three servers: 'If 2 "
            "nodes become unavailable the storage pool will lose quorum'; 'a node can be down and one or more disks on "
            f"another node can fail'); {NR} (nested: 'a server goes down and a drive fails', exactly two servers)",
        ),
        _r(
            "three_way_mirror_beyond_two_nodes",
            "two-way mirror and single parity only where Microsoft allows them",
            "recommendation",
            f"{FT}: two-way mirror 'If you have more than two servers, we recommend using three-way "
            "mirroring instead'; single parity 'we discourage using single parity'",
        ),
        _r(
            "mirror_for_databases",
            "databases on mirror volumes (parity only if the demand allows it)",
            "recommendation",
            f"{PV}: 'Workloads that have strict latency requirements or that need lots of mixed random IOPS, such as SQL "
            "Server databases ..., should run on volumes that use mirroring to maximize performance'",
        ),
        _r(
            "min_capacity_drives",
            f"at least {MIN_CAPACITY_DRIVES} capacity drives per server",
            "requirement",
            f"{HW}, 'Minimum number of drives': 4 NVMe or SSD (Windows Server), 2 cache + 4 capacity with a cache",
        ),
        _r(
            "cache_devices",
            f"a cache tier has at least {MIN_CACHE_DEVICES} devices of at least {MIN_CACHE_DEVICE_GB:g} GB per server",
            "requirement",
            f"{HW}: 'there must be at least two cache devices per server'; 'Cache devices must be 32 GB or larger'",
        ),
        _r(
            "capacity_multiple_of_cache",
            "capacity drives a whole multiple of cache drives",
            "recommendation",
            f"{HW}: 'Recommended: Number of capacity drives is a whole multiple of the number of cache drives'",
        ),
        _r(
            "cache_media",
            "cache faster than capacity (or a higher-endurance NVMe caching NVMe); HDD needs a cache, "
            "PMem never caches HDD",
            "requirement",
            f"{HW}: 'If you're using HDDs to provide storage capacity, you must use storage bus caching'; 'When using "
            f"persistent memory devices as cache devices, you must use NVMe or SSD capacity devices'; {CD}: cache uses "
            "'all drives of the \"fastest\" type'; NVMe: 'mix higher-endurance and lower-endurance NVMe models, and "
            "configure the former to cache writes for the latter'; 'High endurance SSDs caching to low endurance SSDs "
            "is not advised'",
        ),
        _r(
            "cache_endurance",
            f"cache devices rated at least {MIN_CACHE_DWPD:g} DWPD",
            "recommendation",
            f"{HW}: 'Cache drives should have high write endurance: at least 3 drive-writes-per-day (DWPD)'",
        ),
        _r(
            "hybrid_cache_ratio",
            f"hybrid (HDD) cache at least {HYBRID_CACHE_SHARE:.0%} of capacity per server",
            "recommendation",
            f"{CD}: 'For deployments with HDDs, a fair starting place is 10 percent of capacity'",
        ),
        _r(
            "raw_capacity_per_server",
            f"at most {MAX_RAW_TB_PER_SERVER:g} TB raw per server",
            "requirement",
            f"{HW}: 'Raw capacity per server 400 TB' (Windows Server 2019 or later); {SR}: 'Storage per machine 400 TB'",
        ),
        _r(
            "drive_bays",
            "drives fit the chassis bays (count, interface, form factor)",
            "requirement",
            "chassis record (drive_bays, bay_interfaces; the bay form factor stated in the chassis model name)",
        ),
        _r(
            "cpu_socket",
            "CPU fits the chassis socket, every socket populated (as far as the CPU scales)",
            "requirement",
            "chassis and CPU records (cpu_socket_type, cpu_sockets, max_sockets); a chassis record's bays, "
            "DIMM and PCIe slots are those of a fully populated board",
        ),
        _r(
            "memory_config",
            "DIMMs of the platform's memory type, within the slots, one or two per channel on every "
            "socket, within the chassis maximum",
            "requirement",
            "chassis, CPU and memory-module records (memory_type, dimm_slots, memory_channels, max_ram_gb); PMem "
            "modules take DIMM slots",
        ),
        _r(
            "pmem_supported",
            "PMem only where the CPU drives that PMem series, within the PMem slots",
            "requirement",
            "CPU (pmem_generations) and chassis (pmem_slots) records",
        ),
        _r(
            "ram_minimum",
            f"at least {MIN_RAM_GB:g} GB RAM per server",
            "requirement",
            f"{SR}: 'A minimum of 32-GB RAM per machine'",
        ),
        _r(
            "network_minimum",
            f"storage ports of at least {MIN_PORT_GBIT_S:g} Gb/s",
            "requirement",
            f"{HW}: '10 Gbps network interface card (NIC), or faster'",
        ),
        _r(
            "network_rdma_25gbe",
            f"RDMA and at least {RECOMMENDED_PORT_GBIT_S:g} GbE from {RDMA_RECOMMENDED_FROM_NODES} "
            "nodes, and for all-NVMe beyond two nodes (the demand may override)",
            "warning",
            f"{HW}: 'Recommended interconnect for high performance, at scale, or deployments of a 4+ node cluster: NICs "
            "that are remote-direct memory access (RDMA) capable ... 25 Gbps NIC or faster'",
        ),
        _r("pcie_slots", "NICs fit the chassis PCIe slots", "requirement", "chassis record (pcie_slots)"),
        _r(
            "power_budget",
            "node power within the chassis power rating",
            "requirement",
            "chassis record (max_power_w) against the parts' power_w",
        ),
        _r(
            "validated_node",
            "a node the demand's program lists (e.g. 'Azure Local')",
            "requirement",
            "chassis record (validated_for)",
        ),
        _r(
            "capacity_with_reserve",
            "usable capacity, after the repair reserve, holds the demand",
            "demand",
            f"{PV}: 'We recommend reserving the equivalent of one capacity drive per server, up to 4 drives'",
        ),
        _r(
            "n_plus_one_capacity",
            "after losing a node the survivors rebuild and still hold the demand",
            "headroom",
            "Microsoft, 'Remove servers': 'you must have enough storage capacity in the remaining servers to "
            "accommodate all your volumes'; the resiliency needs its minimum fault domains to repair",
        ),
        _r(
            "iops_at_latency",
            "the demand's IOPS at every tier's latency target, healthy",
            "demand",
            "hciplan performance model (calibrated; see README)",
        ),
        _r(
            "n_plus_one_performance",
            "the same with one node down and repair running",
            "headroom",
            "hciplan performance model, planner.engine.degraded (repair_share of drives and network)",
        ),
        _r(
            "drive_endurance",
            "the capacity drives' rated writes outlast the amortisation period, every database "
            "writing at its guaranteed IOPS around the clock",
            "headroom",
            "planner.physics.endurance (JEDEC JESD218: rated writes = DWPD x capacity x 365 x warranty years) and the drive "
            "records' endurance_dwpd",
        ),
        _r(
            "vcpus",
            f"the databases' vCPUs within LPs x oversubscription per node (and {MAX_VCPUS_PER_HOST:,} per host), "
            "with N+1",
            "demand",
            f"design policy vcpu_oversubscription; {SR}: 'Virtual processors per host 2,048'",
        ),
        _r(
            "ram",
            "the databases' RAM + host reserve + S2D metadata + CSV cache within the node's RAM, with N+1",
            "demand",
            f"planner.physics.hosting; {HW}: '4 GB of RAM per terabyte (TB) of cache drive capacity on each server'",
        ),
        _r(
            "growth",
            "sized for the demand's growth over the amortisation period",
            "headroom",
            "the demand's growth_pct",
        ),
        _r("budget", "monthly cost within the demand's budget", "demand", "the demand's budget_usd_per_month"),
    ]
)


# ------------------------------------------------------------- resiliency
def allowed_by_fault_tolerance(fault_tolerance: str, nodes, resiliency_code):
    """Whether a resiliency survives the failures ``fault_tolerance`` names.

    * ``node`` (survive one server): two-way mirror, nested two-way mirror,
      three-way mirror, single and dual parity, mirror-accelerated parity (each
      from its minimum fault domains, checked by the design itself).
    * ``node-and-drive``: nested two-way mirror (two servers: "a server goes down
      and a drive fails" [NR]); three-way mirror from three servers ("a node can
      be down and one or more disks on another node can fail" [PV]); dual parity
      and mirror-accelerated parity (two failures at once [FT]).
    * ``two-nodes``: three-way mirror, dual parity, mirror-accelerated parity from
      four servers (with three, "If 2 nodes become unavailable the storage pool
      will lose quorum" [PV]).
    """
    c = np.asarray(resiliency_code)
    n = np.asarray(nodes)
    R = RESILIENCY_CODES
    two_failures = (c == R["mirror-3way"]) | (c == R["parity-dual"]) | (c == R["mirror-accelerated-parity"])
    if fault_tolerance == "node":
        return np.ones(np.broadcast(c, n).shape, dtype=bool)
    if fault_tolerance == "node-and-drive":
        return two_failures | (c == R["nested-mirror-2way"])
    if fault_tolerance == "two-nodes":
        return two_failures & (n >= 4)
    raise ValueError(f"unknown fault_tolerance '{fault_tolerance}'")


def recommended_resiliency(nodes, resiliency_code):
    """Two-way mirror only on two servers; no single parity ([FT])."""
    c = np.asarray(resiliency_code)
    n = np.asarray(nodes)
    return ~(((c == RESILIENCY_CODES["mirror-2way"]) & (n > 2)) | (c == RESILIENCY_CODES["parity-single"]))


def mirror_for_databases(resiliency_code, allow_parity: bool):
    """Databases on mirror volumes unless the demand allows parity ([PV])."""
    c = np.asarray(resiliency_code)
    parity = np.isin(c, [RESILIENCY_CODES[r] for r in PARITY])
    return ~parity | bool(allow_parity)


# ------------------------------------------------------------------ drives
def media_rank_of_drive(interface, media):
    """Speed class of a capacity drive: NVMe 3, SAS/SATA SSD 2, HDD 1."""
    interface, media = np.asarray(interface), np.asarray(media)
    return np.where(media == "hdd", 1, np.where(interface == "nvme", 3, 2))


def media_rank_of_cache(kind):
    """Speed class of a cache device: PMem 4, NVMe 3, SAS/SATA SSD 2."""
    kind = np.asarray(kind)
    return np.where(kind == "pmem", 4, np.where(kind == "nvme", 3, 2))


def cache_media_ok(has_cache, cache_rank, cache_dwpd, drive_rank, drive_dwpd):
    """[HW]/[CD]: HDD capacity needs a cache; PMem never caches HDD; a cache is of
    a faster type, or a higher-endurance NVMe caching NVMe (manual set-up)."""
    has_cache = np.asarray(has_cache, dtype=bool)
    cr, dr = np.asarray(cache_rank), np.asarray(drive_rank)
    faster = cr > dr
    nvme_on_nvme = (cr == 3) & (dr == 3) & (np.asarray(cache_dwpd) > np.asarray(drive_dwpd))
    pmem_on_hdd = (cr == 4) & (dr == 1)
    return np.where(has_cache, (faster | nvme_on_nvme) & ~pmem_on_hdd, dr > 1)


def min_capacity_drives_ok(count):
    return np.asarray(count) >= MIN_CAPACITY_DRIVES


def cache_devices_ok(has_cache, cache_count, cache_gb):
    has_cache = np.asarray(has_cache, dtype=bool)
    return ~has_cache | ((np.asarray(cache_count) >= MIN_CACHE_DEVICES) & (np.asarray(cache_gb) >= MIN_CACHE_DEVICE_GB))


def capacity_multiple_of_cache_ok(has_cache, count, cache_count):
    has_cache = np.asarray(has_cache, dtype=bool)
    cc = np.maximum(np.asarray(cache_count), 1)
    return ~has_cache | (np.asarray(count) % cc == 0)


def cache_endurance_ok(has_cache, cache_dwpd):
    return ~np.asarray(has_cache, dtype=bool) | (np.asarray(cache_dwpd) >= MIN_CACHE_DWPD)


def hybrid_cache_ratio_ok(drive_rank, cache_gb_per_node, capacity_tb_per_node):
    hdd = np.asarray(drive_rank) == 1
    return ~hdd | (np.asarray(cache_gb_per_node) / 1000.0 >= HYBRID_CACHE_SHARE * np.asarray(capacity_tb_per_node))


def raw_capacity_per_server_ok(count, drive_tb):
    return np.asarray(count) * np.asarray(drive_tb) <= MAX_RAW_TB_PER_SERVER + 1e-9


def pool_capacity_ok(nodes, count, drive_tb):
    """[HW]/[SR]: the pool's raw capacity at most 4 PB."""
    return np.asarray(nodes) * np.asarray(count) * np.asarray(drive_tb) <= MAX_POOL_TB + 1e-9


def bay_form_factor(chassis_model: str) -> str | None:
    """The bay form factor a chassis model name states ('12 x 3.5in', '16 x
    E3.S', '24 x 2.5in'); None when it states none."""
    m = chassis_model.lower()
    for ff in ("3.5in", "e3.s", "2.5in"):
        if f"x {ff}" in m:
            return ff
    return None


def drive_fits_bay(drive_form_factor: str, bay_ff: str | None) -> bool:
    """A 3.5in drive needs a 3.5in bay; an E3.S bay takes only E3.S drives; 2.5in
    (U.2/U.3/SFF) drives fit 2.5in bays (and 3.5in bays with a carrier)."""
    d = drive_form_factor.lower()
    if bay_ff is None:
        return True
    if d == "3.5in":
        return bay_ff == "3.5in"
    if bay_ff == "e3.s":
        return d.startswith("e3")
    return not d.startswith("e3")


# ---------------------------------------------------------------- network
def network_minimum_ok(port_gbit_s):
    return np.asarray(port_gbit_s) >= MIN_PORT_GBIT_S


def network_recommended_ok(nodes, all_nvme, rdma, port_gbit_s, override: bool = False):
    """[HW] recommended interconnect (RDMA, >= 25 GbE) from four nodes; applied to
    all-NVMe clusters beyond two nodes too, where the drives outrun 10 GbE."""
    n = np.asarray(nodes)
    applies = (n >= RDMA_RECOMMENDED_FROM_NODES) | (np.asarray(all_nvme, dtype=bool) & (n > 2))
    ok = np.asarray(rdma, dtype=bool) & (np.asarray(port_gbit_s) >= RECOMMENDED_PORT_GBIT_S)
    return ~applies | ok | bool(override)


# ----------------------------------------------------------------- memory
def dimm_counts(channels_per_socket: int | None, sockets: int, usable_slots: int) -> list[int]:
    """DIMM counts per node that populate every channel of every socket evenly:
    one or two DIMMs per channel (balanced, as platform memory guides ask);
    without a channel count, any even count up to the slots."""
    if usable_slots <= 0:
        return []
    if channels_per_socket:
        return [k * channels_per_socket * sockets for k in (1, 2) if k * channels_per_socket * sockets <= usable_slots]
    return list(range(2, usable_slots + 1, 2))


def usable_dimm_slots(dimm_slots: int, chassis_sockets: int, sockets: int, pmem_modules: int = 0) -> int:
    """DIMM slots of the populated sockets, less those PMem modules take."""
    return dimm_slots * sockets // max(chassis_sockets, 1) - pmem_modules


def drive_family(drive) -> str:
    media = getattr(drive, "media", "ssd")
    if media == "hdd":
        return f"{drive.interface.upper()} HDD"
    return "NVMe" if drive.interface == "nvme" else f"{drive.interface.upper()} SSD"


def cache_family(cache) -> str:
    if cache is None:
        return "no cache"
    return {"pmem": "PMem", "nvme": "NVMe"}.get(cache.kind, f"{cache.kind.upper()} SSD") + " cache"


def recorder(checks: dict):
    """``put(rule, ok, reason)``: record one rule's verdict in ``checks``."""

    def put(rule: str, ok, reason: str):
        checks[rule] = {"passed": bool(np.all(ok)) if isinstance(ok, np.ndarray) else bool(ok), "reason": reason}

    return put


def hardware_rules(rd: ResolvedDesign, allow_network_warning: bool = False) -> dict[str, dict]:
    """The rules of :data:`planner.physics.rules.RULES` that judge the hardware and
    layout alone, with no demand: rule -> ``{"passed", "reason"}``. The Design
    page shows the failed ones as warnings; :func:`check_design` adds the
    demand's rules. ``allow_network_warning``: the demand accepts a network
    below Microsoft's recommendation."""
    d, n = rd.design, rd.node
    code = RESILIENCY_CODES[d.resiliency]
    ch = n.chassis
    checks: dict[str, dict] = {}
    put = recorder(checks)

    nodes = d.nodes
    lo = MIN_NODES_AZURE_LOCAL if d.platform == "azure-local" else MIN_NODES
    put("supported_node_count", lo <= nodes <= MAX_NODES, f"{nodes} nodes ({lo}..16, {d.platform})")
    rec_ok = recommended_resiliency(nodes, code)
    put(
        "three_way_mirror_beyond_two_nodes",
        rec_ok,
        f"{d.resiliency} on {nodes} nodes"
        + (
            "" if rec_ok else ": Microsoft recommends three-way mirror beyond two servers and discourages single parity"
        ),
    )

    drive, count = n.drive, n.drive_count
    cache, cc = n.cache, n.cache_count
    has_cache = cache is not None
    put("min_capacity_drives", min_capacity_drives_ok(count), f"{count} capacity drives per server (>= 4)")
    put(
        "cache_devices",
        cache_devices_ok(has_cache, cc, cache.capacity_gb if has_cache else 0.0),
        f"{cc} x {cache.capacity_gb:g} GB cache per server (>= 2, >= 32 GB)" if has_cache else "no cache tier",
    )
    put(
        "capacity_multiple_of_cache",
        capacity_multiple_of_cache_ok(has_cache, count, cc),
        f"{count} capacity drives over {cc} cache devices" if has_cache else "no cache tier",
    )
    d_rank = int(media_rank_of_drive(drive.interface, getattr(drive, "media", "ssd")))
    c_rank = int(media_rank_of_cache(cache.kind)) if has_cache else 0
    put(
        "cache_media",
        cache_media_ok(has_cache, c_rank, cache.endurance_dwpd if has_cache else 0.0, d_rank, drive.endurance_dwpd),
        f"{cache_family(cache)} over {drive_family(drive)}",
    )
    put(
        "cache_endurance",
        cache_endurance_ok(has_cache, cache.endurance_dwpd if has_cache else 0.0),
        f"cache {cache.endurance_dwpd:g} DWPD (>= 3)" if has_cache else "no cache tier",
    )
    cap_tb_node = count * drive.capacity_tb
    cache_gb_node = cache.capacity_gb * cc if has_cache else 0.0
    put(
        "hybrid_cache_ratio",
        hybrid_cache_ratio_ok(d_rank, cache_gb_node, cap_tb_node),
        f"cache {cache_gb_node / 1000:.2f} TB for {cap_tb_node:.1f} TB of HDD per server (>= 10 %)"
        if d_rank == 1
        else "not hybrid",
    )
    put(
        "raw_capacity_per_server",
        raw_capacity_per_server_ok(count, drive.capacity_tb),
        f"{cap_tb_node:,.1f} TB raw per server (<= 400)",
    )
    put(
        "pool_capacity",
        pool_capacity_ok(nodes, count, drive.capacity_tb),
        f"{nodes * cap_tb_node:,.1f} TB raw (<= 4,000)",
    )
    if d.volumes:
        plan = capacity_report(rd).volume_plan
        put(
            "volume_plan",
            plan.fits,
            "; ".join(plan.problems)
            or f"{len(plan.volumes)} volume(s), fixed footprint {plan.fixed_footprint_tb:,.2f} TB of "
            f"{plan.available_tb:,.2f} TB available",
        )
    else:
        put("volume_plan", True, "no volumes planned")
    put("reserve_three_tiers", True, "one capacity tier per node: the reserve is one capacity drive per server")

    if ch is not None:
        bays = count + (cc if has_cache and cache.kind != "pmem" else 0)
        bay_ff = bay_form_factor(ch.model)
        fits = (
            bays <= ch.drive_bays
            and drive.interface in ch.bay_interfaces
            and drive_fits_bay(drive.form_factor, bay_ff)
            and (not has_cache or cache.kind == "pmem" or cache.kind in ch.bay_interfaces)
        )
        put(
            "drive_bays",
            fits,
            f"{bays} drives in {ch.drive_bays} {'/'.join(ch.bay_interfaces)} bays"
            f"{' (' + bay_ff + ')' if bay_ff else ''}; {drive.form_factor} {drive.interface} drives",
        )
        full = min(ch.cpu_sockets, n.cpu.max_sockets)
        put(
            "cpu_socket",
            n.cpu.socket == ch.cpu_socket_type and n.sockets == full,
            f"{n.sockets} x {n.cpu.socket} in {ch.cpu_sockets} x {ch.cpu_socket_type}"
            + ("" if n.sockets == full else f" (populate {full}: the chassis record's bays and slots assume it)"),
        )
        put("pcie_slots", n.nic_count <= ch.pcie_slots, f"{n.nic_count} NIC(s), {ch.pcie_slots} PCIe slots")
        watts = node_power_w(rd)
        put(
            "power_budget",
            ch.max_power_w is None or watts <= ch.max_power_w,
            f"{watts:,.0f} W typical vs {ch.max_power_w or 'no'} W rating",
        )
    else:
        for rule in ("drive_bays", "cpu_socket", "pcie_slots", "power_budget"):
            put(rule, True, "no chassis named")
    pmem = has_cache and cache.kind == "pmem"
    if pmem:
        slots = ch.pmem_slots * n.sockets // max(ch.cpu_sockets, 1) if ch is not None else cc
        put(
            "pmem_supported",
            cache.pmem_generation in n.cpu.pmem_generations and cc <= slots,
            f"PMem {cache.pmem_generation} on {n.cpu.id} ({n.cpu.pmem_generations or 'none'}); {cc} of {slots} slots",
        )
    else:
        put("pmem_supported", True, "no PMem")
    if n.dimm is not None:
        mt = {getattr(ch, "memory_type", None), n.cpu.memory_type} - {None}
        usable_slots = (
            usable_dimm_slots(ch.dimm_slots, ch.cpu_sockets, n.sockets, cc if pmem else 0)
            if ch is not None
            else n.dimm_count
        )
        balanced = n.dimm_count in dimm_counts(n.cpu.memory_channels, n.sockets, usable_slots)
        max_ram = ch.max_ram_gb * n.sockets / ch.cpu_sockets if ch is not None else math.inf
        ok = (not mt or mt == {n.dimm.memory_type}) and balanced and n.ram_gb <= max_ram + 1e-9
        put(
            "memory_config",
            ok,
            f"{n.dimm_count} x {n.dimm.capacity_gb:g} GB {n.dimm.memory_type.upper()} in "
            f"{usable_slots} slots, {n.cpu.memory_channels or '?'} channels x {n.sockets} "
            f"socket(s){'' if balanced else ' (unbalanced)'}",
        )
    else:
        put("memory_config", True, f"{n.ram_gb:g} GB RAM, no DIMMs named (priced per GB)")
    put("ram_minimum", n.ram_gb >= MIN_RAM_GB, f"{n.ram_gb:g} GB RAM per server (>= 32)")
    put("network_minimum", network_minimum_ok(n.nic.port_gbit_s), f"{n.nic.ports} x {n.nic.port_gbit_s:g} GbE")
    all_nvme = drive.interface == "nvme" and (not has_cache or cache.kind in ("nvme", "pmem"))
    net_ok = network_recommended_ok(nodes, all_nvme, n.nic.rdma != "none", n.nic.port_gbit_s, allow_network_warning)
    put(
        "network_rdma_25gbe",
        net_ok,
        f"{n.nic.id}: {n.nic.port_gbit_s:g} GbE, RDMA {n.nic.rdma}, {nodes} nodes"
        f"{', all-NVMe' if all_nvme else ''}" + (" (overridden by the demand)" if allow_network_warning else ""),
    )
    return checks
