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

Whose a rule is (:attr:`Rule.whose`, said by the proposal, the Size page's Rules tab and the CLI)
-------------------------------------------------------------------------------------------------
``vendor``    the platform's or the hardware's vendor (Microsoft, Ceph, VMware, the chassis)
``hciplan``   hciplan's own policy (databases on mirrors where the vendor gives no such word)
``demand``    the customer's demand (the failures it names, its capacity, IOPS, budget)
``headroom``  the headroom the demand asks (reserve, N+1, growth)

By default a requirement, recommendation or warning is the vendor's and a demand or headroom rule
the demand's; a rule whose source says otherwise names its owner (:data:`WHOSE_WORDS`).

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
[UC]  Microsoft, *Understanding the storage pool cache in Azure Stack HCI and Windows Server clusters*
      (windowsserverdocs, storage/storage-spaces/cache.md; *Understand the cache in Storage Spaces Direct*
      before it).
[WI]  Microsoft, *Set up a cluster witness* (MicrosoftDocs/azure-stack-docs, azure-local/manage/witness.md,
      2025-04-29; its 2020 version, azure-stack/hci/manage/witness.md); Microsoft, *Deploy a quorum
      witness* (learn.microsoft.com/windows-server/failover-clustering/deploy-cloud-witness) and
      *Configure and manage a file share witness* (.../failover-clustering/file-share-witness).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from planner.core.text import and_list, count, pct
from planner.core.types import FloatArray
from planner.models.catalog import CacheDevice, CapacityDrive
from planner.models.database import CPU_BOUND, CPU_BOUND_WORDS
from planner.models.design import ResolvedDesign
from planner.models.stacks import (
    CEPH_MIN_MON_HOSTS,
    cache_devices_words,
    ceph_balancer,
    ceph_min_size_default,
    ceph_monitor_failures,
    ceph_monitors,
)
from planner.physics.capacity import (
    RESILIENCY_CODES,
    VSAN_RESERVED_MIN_HOSTS,
    capacity_report,
    layout_min_fault_domains,
    survivors_re_protect,
)
from planner.physics.ceph import CEPH_THREADS_PER_OSD, osd_memory_gb
from planner.physics.dimms import MemoryHost, node_dimm_slots, node_dimms, ram_ceiling, ram_refusal, slots_estimate
from planner.physics.hosting import (
    HYPERV_SCALABILITY,
    MAX_VMS_PER_CLUSTER_HYPERV,
    MAX_VMS_PER_HOST_HYPERV,
    guest_threads,
)
from planner.physics.network import SWITCHLESS_MAX_NODES, SWITCHLESS_MIN_PORTS, switchless_links_per_peer
from planner.physics.power import node_power_w

HW = "Microsoft, 'Storage Spaces Direct hardware requirements in Windows Server' (2025-05-12)"
SR = "Microsoft, 'System requirements for Azure Local, version 23H2'"
PV = "Microsoft, 'Plan volumes on Azure Stack HCI and Windows Server clusters' (2024-02-22)"
FT = "Microsoft, 'Fault tolerance and storage efficiency on Azure Stack HCI and Windows Server clusters'"
NR = "Microsoft, 'Nested resiliency for Storage Spaces Direct' (2024-02-22)"
CD = "Microsoft, 'Choose drives for Azure Stack HCI and Windows Server clusters' (2024-02-21)"
UC = "Microsoft, 'Understanding the storage pool cache in Azure Stack HCI and Windows Server clusters'"
WI = "Microsoft, 'Set up a cluster witness' (Azure Local / Windows Server, 2025-04-29)"
WQ = "Microsoft, 'Deploy a quorum witness' (Windows Server failover clustering)"
WF = "Microsoft, 'Configure and manage a file share witness' (Windows Server failover clustering)"
SL = "Microsoft, 'Network reference patterns overview for Azure Local' (Storage switchless connectivity considerations)"

Kind = Literal["requirement", "recommendation", "warning", "headroom", "demand"]
Whose = Literal["vendor", "hciplan", "demand", "headroom"]
#: whose a rule is by default, by its kind
WHOSE_OF_KIND: dict[str, Whose] = {
    "requirement": "vendor",
    "recommendation": "vendor",
    "warning": "vendor",
    "demand": "demand",
    "headroom": "headroom",
}
#: whose a rule is, in words (the Size page's Rules tab, the verdict's sentence; the proposal says it to the customer,
#: planner.sizing.document.WHOSE): the proposal called hciplan's own mirror policy and the demand's FTT "the
#: vendor's" (vSAN specialist's walk)
WHOSE_WORDS: dict[str, str] = {
    "vendor": "the vendor's rule",
    "hciplan": "hciplan's policy",
    "demand": "the demand's rule",
    "headroom": "the demand's headroom (reserve, N+1, growth)",
}

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
#: [SR] "Virtual processors per host 2,048" (Azure Local's Hyper-V: S2D designs only).
MAX_VCPUS_PER_HOST = 2048


def max_vcpus_per_host(stack: str) -> float:
    """The hypervisor's vCPUs per host a design of ``stack`` is held to: Azure Local's 2,048 for S2D
    ([SR]); none for Ceph and vSAN (no limit of their hypervisors is cited here, so none is applied)."""
    return float(MAX_VCPUS_PER_HOST) if stack == "s2d" else math.inf


#: [HW] "For minimum interconnect for a small scale 2-3 node cluster: 10 Gbps
#: network interface card (NIC), or faster."
MIN_PORT_GBIT_S = 10.0
#: [HW] "Recommended interconnect for high performance, at scale, or deployments of
#: a 4+ node cluster: NICs that are remote-direct memory access (RDMA) capable ...
#: 25 Gbps NIC or faster."
RECOMMENDED_PORT_GBIT_S = 25.0
RDMA_RECOMMENDED_FROM_NODES = 4
#: [WI] "We recommend setting up a cluster witness for clusters with two, three, or four nodes"; its
#: 2020 version: "Two-node clusters need a witness so that either server going offline does not cause
#: the other node to become unavailable as well". Beyond four servers [WI] is silent, and [WQ] says "We
#: recommend you always configure a witness": a witness is recommended on every cluster, not only these.
WITNESS_MAX_NODES = 4
#: Microsoft, rack aware cluster requirements: "Round-trip latency between racks must be 1 millisecond or less".
RACK_AWARE_MAX_RTT_MS = 1.0

#: Media speed class, fastest first ([CD] "Drive types": PMem, NVMe, SSD, HDD).
MEDIA_RANK = {"pmem": 4, "nvme": 3, "ssd": 2, "hdd": 1}

PARITY = ("parity-single", "parity-dual", "mirror-accelerated-parity")


@dataclass(frozen=True)
class Rule:
    name: str
    title: str
    kind: Kind
    source: str
    whose: Whose = "vendor"

    def as_dict(self) -> dict[str, str]:
        return {"rule": self.name, "title": self.title, "kind": self.kind, "whose": self.whose, "source": self.source}


def _r(name: str, title: str, kind: Kind, source: str, whose: Whose | None = None) -> tuple[str, Rule]:
    """One rule by name; ``whose`` where it is not its kind's owner (:data:`WHOSE_OF_KIND`)."""
    return name, Rule(name, title, kind, source, whose or WHOSE_OF_KIND[kind])


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
            "planned volumes fit the pool, at most 64 volumes of at most 64 TB, each resiliency on the fault "
            "domains it needs (nested resiliency: exactly 2 servers)",
            "requirement",
            f"{PV}: 'limiting the total number of volumes to 64 volumes per cluster', 'limiting the size of each "
            f"volume to 64 TB', 'The footprints of your volumes need to fit in the storage pool'; {SR}: 'Volumes per "
            "system 64', 'Volume size 64 TB'; Microsoft, 'Nested resiliency for Storage Spaces Direct': 'You can't "
            "use nested resiliency if ... Your cluster has 3 or more server nodes'",
        ),
        _r(
            "rack_aware_rtt",
            "servers in rooms apart at most 1 ms round trip apart (farther, the rooms are sites: a stretched "
            "cluster replicates between them, which the model does not model)",
            "requirement",
            "Microsoft, 'Requirements and supported configurations for rack aware clusters' (Azure Local 2510 and "
            "later): 'Round-trip latency between racks must be 1 millisecond or less'; Microsoft, 'Stretched "
            "cluster overview' (Storage Replica between two sites: a cluster's servers in different sites are a "
            "stretched cluster)",
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
            "demand",
        ),
        _r(
            "cluster_witness",
            "a cluster witness (cloud, file share, or on two nodes a USB drive shared by a router) on every cluster, "
            "one a two-node cluster cannot do without; not priced here",
            "recommendation",
            f"{WI}: 'We recommend setting up a cluster witness for clusters with two, three, or four nodes'; its "
            "2020 version: 'Two-node clusters need a witness so that either server going offline does not cause "
            f"the other node to become unavailable as well'; {WQ}: 'We recommend you always configure a witness'; "
            f"{WF}: the file share 'can be hosted on a server, USB storage, or Network Attached Storage (NAS)'",
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
            "cache faster than capacity, or a higher-endurance drive of the same type (NVMe or SSD, set up by "
            "hand); HDD needs a cache, PMem never caches HDD",
            "requirement",
            f"{HW}: 'If you're using HDDs to provide storage capacity, you must use storage bus caching'; 'When using "
            f"persistent memory devices as cache devices, you must use NVMe or SSD capacity devices'; {CD}: cache uses "
            "'all drives of the \"fastest\" type'; NVMe: 'mix higher-endurance and lower-endurance NVMe models, and "
            f"configure the former to cache writes for the latter'; {UC}: 'You have the option to manually configure "
            "higher-endurance drives to cache for lower-endurance drives of the same type'",
        ),
        _r(
            "ssd_cache_over_ssd",
            "no SATA/SAS SSD caching SATA/SAS SSD (it can be set up by hand, but Microsoft does not advise it)",
            "recommendation",
            f"{CD}: 'High endurance SSDs caching to low endurance SSDs isn't advised'; {UC}: 'You have the option to "
            "manually configure higher-endurance drives to cache for lower-endurance drives of the same type'",
        ),
        _r(
            "cache_endurance",
            f"cache devices rated at least {MIN_CACHE_DWPD:g} DWPD",
            "recommendation",
            f"{HW}: 'Cache drives should have high write endurance: at least 3 drive-writes-per-day (DWPD)'",
        ),
        _r(
            "hybrid_cache_ratio",
            f"hybrid (HDD) cache at least {pct(HYBRID_CACHE_SHARE)} of capacity per server",
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
            "chassis record (drive_bays, bay_interfaces; the bay form factor stated in the chassis model name); "
            "drive and cache-device records (form_factor; an add-in card takes a PCIe slot, persistent memory a "
            "DIMM slot, neither a bay)",
        ),
        _r(
            "cpu_socket",
            "every CPU socket of the chassis populated (as far as the CPU scales): the chassis record's drive bays "
            "and PCIe slots are those of a fully populated board",
            "recommendation",
            "hciplan's assumption, not a vendor rule: vendors sell one-processor builds of two-socket servers, but "
            "some PCIe slots and NVMe bays attach to the second processor's lanes (Lenovo ThinkSystem SR850 V4: 'The "
            "available PCIe slots will depend on the riser and number of processors installed'; Dell PowerEdge "
            "R770 riser table: each slot's 'controlling processor'), and a chassis record says which for no "
            "configuration, so a part-populated node is flagged, not refused. Its DIMM and PMem slots are counted "
            "per populated socket; a CPU that does not fit the socket is refused when the design is read (chassis "
            "and CPU records: cpu_socket_type, cpu_sockets, max_sockets)",
            "hciplan",
        ),
        _r(
            "memory_config",
            "DIMMs of the platform's memory type, within the slots, one or two per channel on every "
            "socket, within the chassis maximum and the CPUs' (the most memory per socket x sockets); RAM given as "
            "a total is the cheapest such set of one catalog module, and a total no set builds is refused",
            "requirement",
            "chassis, CPU and memory-module records (memory_type, dimm_slots, memory_channels, max_ram_gb, "
            "max_memory_gb_per_socket: Intel's 'Max Memory Size', standard Cascade Lake SKUs 1 TB per socket, M "
            "2 TB, L 4.5 TB, xFusion FusionServer 2488H V5 technical white paper; a CPU record without it is said "
            "not checked); PMem "
            "modules take DIMM slots; balanced population (one or two DIMMs per channel on every socket) is a "
            "vendor rule: Dell PowerEdge R420xr owner's manual, 'the memory configuration for each processor must "
            "be identical'; Frank Denneman, 'Memory Deep Dive Part 6' (2015), 'Design for an even population of "
            "DIMMs across sockets and channels'",
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
            "storage_switchless",
            f"storage switchless (servers cabled to each other): 1 to {SWITCHLESS_MAX_NODES} nodes, each with the "
            "storage ports Microsoft's pattern cables for that many nodes (2 nodes: 2; 3 nodes: 2; 4 nodes: 6)",
            "requirement",
            f"{SL}: 'Storage switchless deployments in Azure Local only support 1,2,3 or 4 nodes'; Microsoft's "
            "storage switchless patterns: two-node 'Two RDMA NICs in a full-mesh configuration', three-node single "
            "link 'Two RDMA NICs on each node', four-node (dual TOR, dual link, Azure Local 2411.1 and later) 'Six "
            "RDMA NICs on each node in a full-mesh dual link configuration'",
        ),
        _r(
            "network_rdma_25gbe",
            f"RDMA and at least {RECOMMENDED_PORT_GBIT_S:g} GbE from {RDMA_RECOMMENDED_FROM_NODES} "
            "nodes (Microsoft's), and for all-NVMe beyond two nodes, hciplan's own (the demand may override)",
            "warning",
            f"{HW}: 'Recommended interconnect for high performance, at scale, or deployments of a 4+ node cluster: NICs "
            "that are remote-direct memory access (RDMA) capable ... 25 Gbps NIC or faster'. All-NVMe beyond two "
            "nodes is hciplan's own extension, not Microsoft's text: a mirror sends each write's remote copies across "
            "the network (two per write on three servers with a three-way mirror; a read from a VM on its volume's "
            "owner crosses none in the model), and one NVMe drive writes 1,100-3,000 MB/s (Intel P4510, the "
            "catalog's datasheet figures), about what a 10 GbE port carries (1,250 MB/s) or more, so on three "
            "all-NVMe nodes the network rather than the drives bounds the writes",
        ),
        _r(
            "pcie_slots",
            "NICs and add-in (HHHL) drive cards fit the chassis PCIe slots",
            "requirement",
            "chassis record (pcie_slots); drive and cache-device records (form_factor: an HHHL or FHHL add-in card "
            "takes a PCIe slot, not a drive bay); host bus adapters are not counted (a node's parts name none)",
        ),
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
            "demand",
        ),
        _r(
            "capacity_with_reserve",
            "usable capacity, after the repair reserve, holds the demand",
            "demand",
            f"{PV}: 'We recommend reserving the equivalent of one capacity drive per server, up to 4 drives'",
        ),
        _r(
            "n_plus_one_capacity",
            "after losing a node the survivors rebuild and still hold the demand (or, where the demand accepts it, "
            "keep it online with fewer copies)",
            "headroom",
            "Microsoft, 'Remove servers': 'you must have enough storage capacity in the remaining servers to "
            "accommodate all your volumes'; the resiliency needs its minimum fault domains to repair; 'Storage Spaces "
            "Direct health and operational states': a volume 'Incomplete' while a server is down, 'the missing "
            "drives contain up-to-date copies of your data'",
        ),
        _r(
            "iops_at_latency",
            "the demand's IOPS at every tier's latency target, healthy",
            "demand",
            "hciplan performance model (calibrated on measured clusters)",
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
            f"the databases' vCPUs within each node's logical processors x the vCPU oversubscription (and {MAX_VCPUS_PER_HOST:,} per host), "
            f"with N+1; their VMs within Hyper-V's {MAX_VMS_PER_HOST_HYPERV:,} running per server and "
            f"{MAX_VMS_PER_CLUSTER_HYPERV:,} per cluster",
            "demand",
            f"design policy vcpu_oversubscription; {SR}: 'Virtual processors per host 2,048'; {HYPERV_SCALABILITY}: "
            "'Running virtual machines per server 1024', 'Running virtual machines per cluster and per node 8,000 per "
            "cluster'",
        ),
        _r(
            "tier_vm_io",
            # "the demand's" becomes "your" in the customer's document: the IOPS named, not left to the possessive
            # ("its share of your) within", finance walk 2026-11-30)
            "each database's guaranteed IOPS (its tier's, or its share of the demand's IOPS) within what its VM "
            "issues at its vCPU share",
            "demand",
            "planner.commercial.database.vcpu_share_iops (utilisation law: the VM's vCPUs / oversubscription over the "
            "guest IO stack's CPU per IO; the SLA's vm_vcpu_share bound and the tier prices' rule)",
        ),
        _r(
            "database_vm_rate",
            "each described database's own VM (its vCPUs at the vCPU oversubscription, its virtual users) carries "
            "its transaction rate",
            "demand",
            "planner.commercial.database.rate_carried (the fit's core-microseconds per transaction, SQL Server's and "
            "the guest IO stack's; Little's law for the virtual users; the SLA page's verdict)",
        ),
        _r(
            "database_cpu",
            "the cores the described databases' own work keeps busy (SQL Server's and the guest IO stack's, "
            f"at their transaction rate) within the node's cores x {pct(CPU_BOUND)} ({CPU_BOUND_WORDS}), with N+1",
            "demand",
            "planner.models.database.cpu_s_per_call (the fit's core-microseconds per transaction, "
            "planner/data/oltp-calibration.json; a vCPU is one core's worth of work, hyperthreads not counted)",
        ),
        _r(
            "ram",
            "the databases' RAM + host reserve + S2D metadata + CSV cache within the node's RAM, with N+1",
            "demand",
            f"planner.physics.hosting; {HW}: '4 GB of RAM per terabyte (TB) of cache drive capacity on each server'",
        ),
        _r(
            "growth",
            "sized for the demand's growth over its growth period",
            "headroom",
            "the demand's growth_pct",
        ),
        _r("budget", "whole monthly cost within the demand's budget", "demand", "the demand's budget_usd_per_month"),
    ]
)


def rack_aware_rtt_judged(rack_aware: bool, rtt_ms: float) -> tuple[bool, str]:
    """[rack_aware_rtt] An S2D design's round trip between rooms (``fault_domain_rtt_ms``): at most
    :data:`RACK_AWARE_MAX_RTT_MS`, the one figure Microsoft publishes for one cluster's servers in rooms apart
    (its rack-aware clusters'); beyond it the rooms are sites, which Microsoft joins only as a stretched cluster
    (Storage Replica between two pools, which the model does not model). Any cluster within it passes, not only
    one declared rack-aware: the reference cluster's three nodes stand in three machine rooms of one building, and
    the rule had refused every round trip the Design page let a user type on it (verification walk 2026-12-01). A
    rack-aware design left at 0 ms passes, saying its latencies are one room's: a proposal printed "two rooms at
    most 1 ms round trip apart: passed" beside one-room latencies (network walk 2026-12-01). Returns (passed,
    reason)."""
    if rtt_ms <= 0:
        if rack_aware:
            return True, "0 ms given between the rooms: the latencies are one room's (give fault_domain_rtt_ms)"
        return True, "one room"
    if rtt_ms <= RACK_AWARE_MAX_RTT_MS:
        return True, f"{rtt_ms:g} ms between the rooms (<= {RACK_AWARE_MAX_RTT_MS:g})"
    return False, (
        f"{rtt_ms:g} ms between the rooms, above {RACK_AWARE_MAX_RTT_MS:g}: rooms that far apart are sites, "
        "joined only as a stretched cluster"
    )


#: [VSAN_STRETCHED] the round trip between a vSAN stretched cluster's two data sites is under this [ms]
VSAN_STRETCHED_MAX_RTT_MS = 5.0


#: the end of a switched design's storage_switchless reason, which marks the rule not applicable
NOT_SWITCHLESS = "not cabled server to server"


def switchless_judged(nodes: int, ports: int, nic_count: int) -> tuple[bool, str]:
    """(passed, reason) of a storage-switchless design's ``nodes`` with ``nic_count`` cards of ``ports`` storage
    ports each: at most :data:`planner.physics.network.SWITCHLESS_MAX_NODES` nodes, and the ports Microsoft's
    pattern for that many cables (:data:`planner.physics.network.SWITCHLESS_MIN_PORTS`)."""
    have = ports * nic_count
    if nodes > SWITCHLESS_MAX_NODES:
        return False, (
            f"{count(nodes, 'node')} cabled to each other for storage: Microsoft's storage switchless deployments take "
            f"1 to {SWITCHLESS_MAX_NODES} nodes; use switches for storage, or {SWITCHLESS_MAX_NODES} nodes or fewer"
        )
    need, peers = SWITCHLESS_MIN_PORTS[nodes], nodes - 1
    if have < need:
        return False, (
            f"{count(have, 'storage port')} per node for {count(peers, 'peer')}: Microsoft's {nodes}-node storage "
            f"switchless pattern cables {need} per node; add network cards, or use switches for storage"
        )
    if not peers:
        return True, "one node: no storage links"
    per = switchless_links_per_peer(ports, nic_count, peers)
    return True, (
        f"{count(nodes, 'node')} cabled to each other for storage: {count(per, 'link')} to each peer "
        f"({per * peers} of {count(have, 'port')})"
    )


def vsan_sites_rtt_judged(rtt_ms: float) -> tuple[bool, str]:
    """[vsan_sites_rtt] A vSAN design's round trip between fault domains in rooms apart: a stretched
    cluster's data sites under :data:`VSAN_STRETCHED_MAX_RTT_MS`, with a witness host at a third site
    (which the model neither places nor prices). 6 ms passed without a word (network walk 2026-12-01).
    Returns (passed, reason)."""
    if rtt_ms <= 0:
        return True, "one site"
    return rtt_ms < VSAN_STRETCHED_MAX_RTT_MS, (
        f"{rtt_ms:g} ms between the sites (< {VSAN_STRETCHED_MAX_RTT_MS:g}): a stretched cluster, whose witness "
        "host at a third site the model neither places nor prices"
    )


def ceph_sites_rtt_judged(rtt_ms: float) -> tuple[bool, str]:
    """[ceph_sites_rtt] A Ceph design's round trip between rooms: Ceph's stretch mode (two sites holding
    copies, a tiebreaker monitor at a third). Ceph's documentation asks for low-latency links between the
    sites and gives no figure, so the rule says what the model assumes and never fails. Returns (passed,
    reason)."""
    if rtt_ms <= 0:
        return True, "one site"
    return True, (
        f"{rtt_ms:g} ms between the sites: a stretched cluster (stretch mode, a tiebreaker monitor at a third "
        "site); Ceph gives no round-trip limit, and the model keeps the design's pools (stretch mode keeps 4 "
        "copies, two per site)"
    )


# ------------------------------------------------------------ Ceph, vSAN
#: Ceph's and vSAN's sources (quoted where a rule rests on one sentence)
CEPH_HW = "Ceph docs, 'Hardware recommendations' (docs.ceph.com/en/latest/start/hardware-recommendations/)"
CEPH_MON = "Ceph docs, 'Monitor config reference' (mon osd full / backfillfull / nearfull ratio)"
#: the balancer's deviation and the autoscaler's PGs per OSD, Ceph's defaults with their sources
_BAL = ceph_balancer()
CEPH_POOL = "Ceph docs, 'Pool, PG and CRUSH config reference'; ceph/ceph PR 20555 (min_size = size - size/2)"
CEPH_FASTEC = "Ceph blog, 'Tentacle FastEC performance updates' (2025-11-20)"
RH_EC = "Red Hat Ceph Storage 8, 'Erasure code pools overview'"
IBM_BS = "IBM Storage Ceph, 'BlueStore sizing considerations'"
CEPH_BLUESTORE = (
    "Ceph docs, 'BlueStore Configuration Reference', block and block.db "
    "(docs.ceph.com/en/latest/rados/configuration/bluestore-config-ref/)"
)
CEPH_1TIB = "Ceph blog, 'Ceph: A Journey to 1 TiB/s' (2024-01-19)"
VSAN_ADMIN = "VMware vSAN 8.0 administration, 'RAID 5 or RAID 6 erasure coding' / 'Using vSAN policies'"
VSAN_PLAN = "VMware vSAN 8.0 planning, 'Designing and sizing a vSAN cluster' (2 x FTT + 1 hosts)"
VSAN_RESERVE = "VMware vSAN 7.0 monitoring, 'About reserved capacity' (host rebuild and operations reserves)"
VSAN_SIZE = "D. Epping (VMware), 'vSAN Express Storage Architecture cluster sizes supported?' (2022-12-20)"
VSAN_RDMA = (
    "VMware vSAN 8.0 planning, 'Using RDMA' (vSAN 7.0 Update 2 and later 'can use RDMA ... if your hosts support "
    "the RoCE v2 protocol'; a vSAN-certified RDMA NIC in every host, a lossless network); vSAN Management API, "
    "enum RdmaProtocol (since vSAN 7.0U2): RoCEv2 its only protocol"
)
VSAN_DISK_GROUPS = (
    "Broadcom, vSAN Management API 7.0U3, 'VsanHostDiskMapping': 'a set of one SSD ... backed by a set of one or more "
    "non-SSD ... The maximum allowed VsanHostDiskMapping for a host is 5. A maximum set of 7 non-SSDs ... can be "
    "added to the one SSD'"
)
#: vSAN OSA: disk groups per host, capacity devices per disk group [VSAN_DISK_GROUPS]
VSAN_OSA_MAX_DISK_GROUPS, VSAN_OSA_MAX_CAPACITY_PER_GROUP = 5, 7
VSAN_ESA_NVME = "Broadcom KB 326717, 'What you can (and cannot) change in a vSAN ESA ReadyNode' (storage NVMe devices)"
VSAN_ESA_RI = (
    "VMware blog, 'Expanded Hardware Compatibility for vSAN Express Storage Architecture' "
    "(core.vmware.com/blog/expanded-hardware-compatibility-vsan-express-storage-architecture): 'Since its initial "
    "release, the ESA only supported the use of storage devices that had an endurance rating of 3 DWPD or more'; "
    "Read-Intensive devices of 'around 1' DWPD are now supported"
)
#: the lowest endurance a vSAN ESA storage device is certified at [drive writes per day] (:data:`VSAN_ESA_RI`)
VSAN_ESA_MIN_DWPD = 1.0
CEPH_POOLS = "Ceph docs, 'Pools' (doc/rados/operations/pools.rst, quincy and later)"
CEPH_PR_17912 = "ceph/ceph PR 17912, 'docs: Do not use \"min size = 1\" as an example' (merged 2017-09)"
CEPH_MONS = "Ceph docs, 'Adding/Removing Monitors' (docs.ceph.com/en/latest/rados/operations/add-or-rm-mons/)"
VSAN_NET = (
    "VMware vSphere 8.0, vSAN Planning and Deployment, 'Networking Requirements for vSAN' "
    "(docs.vmware.com/en/VMware-vSphere/8.0/vsan-planning/GUID-AFF133BC-F4B6-4753-815F-20D3D752D898.html)"
)
VSAN_ESA_NO_PENALTY = (
    "Broadcom KB 434061, 'vSAN ESA objects display RAID 1 and RAID 5 components when a RAID 5 policy is applied "
    "to the object'"
)
VSAN_HOSTS = (
    "VMware vSphere 8.0, vSAN Planning and Deployment, 'Designing and Sizing vSAN Hosts' "
    "(docs.vmware.com/en/VMware-vSphere/8.0/vsan-planning/GUID-07EFD36A-F844-4E7D-830D-3863E4AA617C.html)"
)
VSAN_HW_ESA = (
    "VMware vSphere 8.0, vSAN Planning and Deployment, 'Hardware Requirements for vSAN', its vSAN Express Storage "
    "Architecture table (recalled, the English page not re-read: at least 4 NVMe devices in a host's storage pool; a "
    "summary of the page, securityzone.vn 'Chap 03 - Cac yeu cau de trien khai vSAN cluster', gives 'at least 4 NVMe "
    "devices per storage pool')"
)
VSAN_AF0 = (
    "Dell, 'Dell VxRail Architecture Overview', 'VMware vSAN ESA overview' (dell.com/support/manuals): 'VxRail 8.x "
    "introduced a revised set of minimum hardware requirements for an AF-0 profile node that can accommodate 10GbE "
    "networking, 128GB memory, and 16 CPU cores'"
)
VSAN_READINESS = (
    "VMware, VCF readiness tool (github.com/vmware/vcf-readiness, vcf_hci/compat/vsan.py, VCF 9.1): a host is 'vSAN "
    "ESA Ready' with 2 or more direct-attached NVMe devices ('needs >=2 ESA NVMe for ESA')"
)
VCF9_VSAN = (
    "Broadcom, VMware Cloud Foundation 9.0 design library, vSAN design (VCF-VSAN-NET-REQD-CFG-001): 'vSAN ESA Ready "
    "node profile, vSAN-ESA-AF-0, is the only vSAN ESA ready node that supports 10GbE. All other vSAN ESA nodes "
    "require 25GbE or greater'"
)

#: [CEPH_HW] "We recommend a minimum OSD size of 1 tebibyte (TiB)"
CEPH_MIN_OSD_TB = 2.0**40 / 1e12
#: [CEPH_HW] "PCIe Gen 4+ SSDs larger than 30 TB may benefit from being split into two or more OSDs"
CEPH_SPLIT_OSD_MIN_TB = 30.0
#: [CEPH_HW] "Provision at least 10 Gb/s networking"; "Clusters with substantial workload will do well to
#: provision 25 Gb/s networking"
CEPH_MIN_PORT_GBIT_S, CEPH_RECOMMENDED_PORT_GBIT_S = 10.0, 25.0
#: [CEPH_HW] "4-5x HDD OSDs per DB/WAL SATA SSD; <= 15 HDD OSDs per DB/WAL NVMe SSD"
CEPH_HDD_OSDS_PER_DB = {"nvme": 15, "ssd": 5}
#: [VSAN_SIZE] "as small as a 2-node configuration (with a witness), as large as a 64-node configuration"
VSAN_MIN_NODES, VSAN_MAX_NODES = 2, 64
#: [CEPH_POOLS] "a typical configuration stores an object and two replicas ... (that is: size = 3)";
#: [CEPH_POOL] "osd pool default size = 3", "osd pool default min size = 2"; [CEPH_PR_17912] min_size 1:
#: "significant potential for data loss"
CEPH_MIN_COPIES, CEPH_MIN_REPLICATED_MIN_SIZE = 3, 2
#: [VSAN_NET] (vSAN 8.0) "vSAN OSA: Dedicated 1 Gbps for hybrid configurations, dedicated or shared 10 Gbps for
#: all-flash configurations; vSAN ESA: Dedicated or shared 25 Gbps"; [VCF9_VSAN] the one exception, the
#: vSAN-ESA-AF-0 ReadyNode profile of vSAN 8.0 U2 and later, "the only vSAN ESA ready node that supports 10GbE"
VSAN_MIN_PORT_GBIT_S = {"esa": 25.0, "esa-af0": 10.0, "osa-flash": 10.0, "osa-hybrid": 1.0}
#: the smallest vSAN ESA ReadyNode profile, vSAN-ESA-AF-0 (vSAN 8.0 U2 and later), per host: NVMe storage devices
#: ([VSAN_READINESS]), cores and RAM ([VSAN_AF0]) [-, -, GB]
VSAN_ESA_AF0_MIN = (2, 16, 128.0)
#: vSAN 8.0's ESA minimums, per host: NVMe storage devices ([VSAN_HW_ESA], recalled), cores and RAM ([VSAN_HOSTS]:
#: "vSAN Express Storage Architecture requires at least 32 CPU cores per host", "requires at least 512 GB memory")
#: [-, -, GB]; from vSAN 8.0 U2 only the AF-0 profile, for small sites, goes below them
VSAN_ESA_MIN = (4, 32, 512.0)

_PLATFORM_RULES = ("drive_bays", "cpu_socket", "memory_config", "pmem_supported", "pcie_slots", "power_budget")
_DEMAND_RULES = (
    "validated_node",
    "drive_endurance",
    "growth",
    "budget",
    "iops_at_latency",
    "tier_vm_io",
    "database_vm_rate",
    "database_cpu",
)
#: the vCPU rule off S2D: Azure Local's per-host limit and its source are not theirs
_VCPUS_OWN = _r(
    "vcpus",
    "the databases' vCPUs within each node's logical processors x the vCPU oversubscription, with N+1",
    "demand",
    "design policy vcpu_oversubscription (no per-host vCPU limit of the hypervisor is cited for this stack, "
    "so none is applied)",
)
#: Ceph's: a hyperconverged node sells its guests the threads its OSDs are not held (one rule with
#: ``ceph_cpu_threads_recommended``, planner.physics.hosting.guest_threads)
_VCPUS_CEPH = _r(
    "vcpus",
    "the databases' vCPUs within each node's logical processors, less the recommended threads held for its OSDs "
    "on a hyperconverged node, x the vCPU oversubscription, with N+1",
    "demand",
    "design policy vcpu_oversubscription (no per-host vCPU limit of the hypervisor is cited for this stack, "
    f"so none is applied); {CEPH_HW}: '4, 6 respectively for NVMe SSD OSDs', 3 recommended per HDD OSD "
    "(planner.physics.ceph.osd_threads_held)",
)

CEPH_RULES: dict[str, Rule] = dict(
    [
        _r(
            "ceph_pool_hosts",
            "a host for each replica or chunk (CRUSH host failure domain)",
            "requirement",
            f"{CEPH_FASTEC}: 'The minimum number of OSDs required for an erasure code pool is K+M, and just like "
            "replica-3 pools it is recommended that these OSDs are in different servers'; "
            f"{CEPH_POOL}: 'osd pool default size = 3'",
        ),
        _r(
            "ceph_self_heal",
            "one host more than the pool's width, so a lost host's data is re-protected",
            "recommendation",
            f"{CEPH_FASTEC}: 'Using a wider erasure code such as 6+2 requires 9 nodes' (an erasure code k+m "
            "re-protects a lost host on k+m+1 hosts, a replicated pool of size n on n+1)",
        ),
        _r(
            "ceph_three_copies",
            f"replicated pools keep {CEPH_MIN_COPIES} copies with min_size {CEPH_MIN_REPLICATED_MIN_SIZE} "
            "(no replica-2 or replica-1 for databases)",
            "recommendation",
            f"{CEPH_POOLS}: 'a typical configuration stores an object and two replicas (copies) of each RADOS object "
            f"(that is: size = 3)'; {CEPH_POOL}: 'osd pool default size = 3', 'osd pool default min size = 2'; "
            f"{CEPH_PR_17912}: min_size 1 'is easy to assume it is a normal setting, although there is significant "
            "potential for data loss'",
        ),
        _r(
            "ceph_min_size",
            "min_size at least the default (size - size/2 replicated, k+1 erasure-coded) and never 1 on a "
            "replicated pool",
            "recommendation",
            f"{CEPH_POOL}; {RH_EC}: 'Red Hat recommends min_size for erasure-coded pools to be K+1 or more to "
            f"prevent loss of writes and data'; {CEPH_PR_17912}: 'significant potential for data loss'",
        ),
        _r(
            "ceph_io_through_a_failure",
            "the pool keeps serving IO with a host or an OSD down (its size above its min_size)",
            "recommendation",
            f"{CEPH_POOL} (IO stops below min_size); {RH_EC}: 'Red Hat recommends min_size for erasure-coded pools "
            "to be K+1 or more to prevent loss of writes and data': an erasure code with one coding chunk (2+1, "
            "4+1) then stops at its first failure",
        ),
        _r(
            "ceph_monitor_quorum",
            f"at least {CEPH_MIN_MON_HOSTS} hosts, so that the Monitors keep a quorum when one is lost",
            "recommendation",
            f"{CEPH_MONS}: 'for a production cluster it is recommended to have at least three Monitors provisioned "
            "and in quorum'; 'in a two-Monitor deployment, no failures can be tolerated if quorum is to be "
            "maintained; in a three-Monitor deployment, one failure can be tolerated'",
        ),
        _r(
            "ceph_cpu_threads",
            "at least 4 CPU threads per NVMe or SSD OSD, 1 per HDD OSD",
            "requirement",
            f"{CEPH_HW}: '1 min, 3 recommended threads per HDD OSD. 4, 6 respectively for NVMe SSD OSDs'",
        ),
        _r(
            "ceph_cpu_threads_recommended",
            "6 CPU threads per NVMe or SSD OSD, 3 per HDD OSD (on a hyperconverged node, held from the guests' vCPUs)",
            "recommendation",
            f"{CEPH_HW}: '4, 6 respectively for NVMe SSD OSDs'",
        ),
        _r(
            "ceph_osd_memory",
            "RAM above OSDs x osd_memory_target x 2",
            "recommendation",
            f"{CEPH_HW}: 'total server RAM is greater than (number of OSDs * osd_memory_target * 2)'",
        ),
        _r(
            "ceph_osd_size",
            "OSDs of at least 1 TiB",
            "recommendation",
            f"{CEPH_HW}: 'We recommend a minimum OSD size of 1 tebibyte (TiB)'",
        ),
        _r(
            "ceph_osds_per_drive",
            "one OSD per drive; more only on PCIe Gen 4+ SSDs larger than 30 TB",
            "recommendation",
            f"{CEPH_HW}: '1x storage drive per OSD in most cases. PCIe Gen 4+ SSDs larger than 30 TB may benefit "
            "from being split into two or more OSDs'",
        ),
        _r(
            "ceph_db_device",
            "a DB/WAL device holds block.db of its OSDs (and at most 15 HDD OSDs per NVMe, 5 per SSD)",
            "recommendation",
            f"{IBM_BS} (1 % of block for RBD); {CEPH_HW}: '4-5x HDD OSDs per DB/WAL SATA SSD, <= 15 HDD OSDs per "
            f"DB/WAL NVMe SSD'; {CEPH_BLUESTORE}: 'If you have a mix of fast and slow devices ... it is recommended "
            "to place block.db on the faster device while block (data) lives on the slower (spinning drive)'",
        ),
        _r(
            "ceph_db_device_faster",
            "a DB/WAL device faster than the data drives it serves (the catalog's QD1 4 KiB random-write latency "
            "and random-write IOPS)",
            "recommendation",
            f"{CEPH_BLUESTORE}: 'it makes sense to use a faster device for block.db/block.wal than for the primary "
            "device'",
        ),
        _r(
            "network_minimum",
            f"storage ports of at least {CEPH_MIN_PORT_GBIT_S:g} Gb/s",
            "requirement",
            f"{CEPH_HW}: 'Provision at least 10 Gb/s networking in your datacenter'",
        ),
        _r(
            "ceph_network_25gbe",
            f"at least {CEPH_RECOMMENDED_PORT_GBIT_S:g} Gb/s for a substantial workload (the demand may override)",
            "warning",
            f"{CEPH_HW}: 'Clusters with substantial workload will do well to provision 25 Gb/s networking; dense "
            "nodes often warrant 100 Gb/s links'",
        ),
        _r(
            "ceph_sites_rtt",
            "hosts in rooms apart only as a stretched cluster (stretch mode: two sites holding copies, a tiebreaker "
            "monitor at a third); Ceph gives no round-trip limit",
            "recommendation",
            "Ceph docs, 'Stretch Clusters' (doc/rados/operations/stretch-mode.rst): two sites each holding a copy "
            "of the data and a third site with a tiebreaker monitor",
        ),
        *((k, RULES[k]) for k in _PLATFORM_RULES),
        _r(
            "fault_tolerance",
            "the pool keeps serving IO through the failures the demand names",
            "requirement",
            f"{CEPH_POOL} (IO stops below min_size: size - min_size failures are ridden through); {RH_EC}; "
            f"{CEPH_MONS} (the Monitors need a majority: three ride through one host failure, five through two)",
            "demand",
        ),
        _r(
            "mirror_for_databases",
            "databases on replicated pools (erasure codes only if the demand allows parity)",
            "recommendation",
            f"{CEPH_1TIB}: on the same 630 OSDs, 4 KiB random reads 25.5M IOPS with 3x replication against "
            "3.4M with EC 6+2 (measured)",
            "hciplan",
        ),
        _r(
            "capacity_with_reserve",
            "usable capacity below the near-full ratio, with a host's data re-protected and the fullest OSD "
            f"(the balancer's {_BAL['upmap_max_deviation_pgs']} PGs above a mean of {_BAL['mon_target_pg_per_osd']}) "
            "at or below backfillfull, holds the demand",
            "demand",
            f"{CEPH_MON}: 'multiply the capacity of the cluster by the full ratio ...; then, subtract the ... amount "
            "of data from the OSDs you expect to fail'; the balancer's upmap_max_deviation and the autoscaler's "
            "mon_target_pg_per_osd defaults (planner/data/ceph-balancer.json)",
        ),
        _r(
            "n_plus_one_capacity",
            "after losing a host the survivors re-protect every placement group and still hold the demand",
            "headroom",
            f"{CEPH_MON} (backfill stops above mon_osd_backfillfull_ratio); {CEPH_FASTEC} (k+m+1 hosts)",
        ),
        _r(
            "n_plus_one_performance",
            "the demand's IOPS at every tier's latency target with one host down and recovery running",
            "headroom",
            "hciplan performance model, planner.engine.degraded (repair_share of drives and network)",
        ),
        _r(
            "ram",
            "the databases' RAM + host reserve + OSD memory (OSDs x osd_memory_target x 2) within the node's RAM",
            "demand",
            f"planner.physics.hosting; {CEPH_HW}",
        ),
        _VCPUS_CEPH,
        *((k, RULES[k]) for k in _DEMAND_RULES),
    ]
)

VSAN_RULES: dict[str, Rule] = dict(
    [
        _r(
            "supported_node_count",
            f"{VSAN_MIN_NODES} to {VSAN_MAX_NODES} hosts (2 with a witness)",
            "requirement",
            f"{VSAN_SIZE}: 'as small as a 2-node configuration (with a witness), as large as a 64-node configuration'",
        ),
        _r(
            "vsan_policy_hosts",
            "the hosts the storage policy needs (2 x FTT + 1; RAID-5 (3+1) four, ESA RAID-5 (2+1) three; RAID-6 (4+2) six)",
            "requirement",
            f"{VSAN_PLAN}; {VSAN_ADMIN}",
        ),
        _r(
            "vsan_rebuild_hosts",
            "one host more than the policy needs, so a failed host is rebuilt elsewhere",
            "recommendation",
            f"{VSAN_PLAN}: with three hosts 'When a host fails, vSAN cannot rebuild data on another host'",
        ),
        _r(
            "vsan_raid56_all_flash",
            "RAID-5/6 only on all-flash clusters",
            "requirement",
            f"{VSAN_ADMIN}: RAID 5 or RAID 6 erasure coding on all-flash clusters only",
        ),
        _r(
            "vsan_esa_nvme",
            "ESA hosts hold NVMe storage devices and no cache tier",
            "requirement",
            f"{VSAN_ESA_NVME}; ESA's single storage pool (no disk groups)",
        ),
        # one NVMe device a host was proposed with every rule passed (vSAN specialist's walk)
        _r(
            "vsan_esa_host_minimum",
            f"ESA hosts of at least {VSAN_ESA_AF0_MIN[0]} NVMe storage devices, {VSAN_ESA_AF0_MIN[1]} cores and "
            f"{VSAN_ESA_AF0_MIN[2]:g} GB RAM (vSAN-ESA-AF-0, the smallest ESA ReadyNode profile, vSAN 8.0 U2 and later)",
            "requirement",
            f"{VSAN_READINESS}; {VSAN_AF0}; {VSAN_ESA_NVME}: 'Each vSAN ESA ReadyNode is optimally configured for vSAN "
            "ESA with the required amount of CPU, memory, network and storage NVMe devices'",
        ),
        _r(
            "vsan_esa_host_profile",
            f"ESA hosts of at least {VSAN_ESA_MIN[0]} NVMe storage devices, {VSAN_ESA_MIN[1]} cores and "
            f"{VSAN_ESA_MIN[2]:g} GB RAM (vSAN 8.0's ESA minimums, required there; from vSAN 8.0 U2 only the "
            "vSAN-ESA-AF-0 profile, for small sites and the edge, goes below them)",
            "recommendation",
            f"{VSAN_HOSTS}: 'vSAN Express Storage Architecture requires at least 512 GB memory', 'vSAN Express Storage "
            f"Architecture requires at least 32 CPU cores per host'; {VSAN_HW_ESA}; {VSAN_AF0} (the relaxation)",
        ),
        _r(
            "vsan_osa_disk_groups",
            f"OSA hosts in disk groups: one flash cache device each (an SSD or NVMe device; persistent memory is "
            f"no disk-group device), 1 to {VSAN_OSA_MAX_DISK_GROUPS} groups, 1 to "
            f"{VSAN_OSA_MAX_CAPACITY_PER_GROUP} capacity devices a group",
            "requirement",
            VSAN_DISK_GROUPS,
        ),
        _r(
            "vsan_esa_endurance",
            f"ESA storage devices rated at least {VSAN_ESA_MIN_DWPD:g} drive write per day (Read-Intensive; Mixed-Use "
            "3)",
            "requirement",
            VSAN_ESA_RI,
        ),
        # "vSAN ESA needs 25 Gb/s" predated the 10 GbE vSAN-ESA-AF-0 profile of vSAN 8.0 U2 (vSAN specialist's walk):
        # the requirement is that profile's, the 25 Gb/s of every other ESA profile a warning an AF-0 ReadyNode
        # overrides, as Ceph's 25 Gb/s
        _r(
            "vsan_network",
            "vSAN ports of at least 10 Gb/s on all-flash OSA (1 Gb/s hybrid OSA); on ESA 25 Gb/s (vSAN 8.0), 10 Gb/s "
            "only as a vSAN-ESA-AF-0 ReadyNode (vSAN 8.0 U2 and later)",
            "requirement",
            f"{VSAN_NET}: 'Each host must have minimum bandwidth dedicated to vSAN. vSAN OSA: Dedicated 1 Gbps "
            "for hybrid configurations, dedicated or shared 10 Gbps for all-flash configurations; vSAN ESA: "
            f"Dedicated or shared 25 Gbps'; {VCF9_VSAN}",
        ),
        _r(
            "vsan_esa_network_25gbe",
            "ESA ports of at least 25 Gb/s: every ESA ReadyNode profile but vSAN-ESA-AF-0 (vSAN 8.0 and later; the "
            "demand may override for an AF-0 ReadyNode)",
            "warning",
            f"{VCF9_VSAN}; 'Using 10GbE for vSAN networking can severely limit vSAN performance' (same page); "
            f"{VSAN_NET}: 'vSAN ESA: Dedicated or shared 25 Gbps'",
        ),
        _r(
            "vsan_rdma_roce",
            "RDMA only on RoCE v2 NICs (vSAN has no iWARP)",
            "requirement",
            VSAN_RDMA,
        ),
        _r(
            "vsan_sites_rtt",
            "hosts in rooms apart only as a stretched cluster: data sites under 5 ms round trip apart, with a "
            "witness host at a third site",
            "requirement",
            "Broadcom, 'vSAN Stretched Cluster Guide' (network requirements: under 5 ms round-trip latency "
            "between the data sites; a witness host at a third site)",
        ),
        _r(
            "vsan_reserves",
            "host rebuild and operations reserves enabled (where reserved capacity is available)",
            "recommendation",
            f"{VSAN_RESERVE}; vSAN 8.0 docs: keep 30 % capacity available where it is not",
        ),
        *((k, RULES[k]) for k in _PLATFORM_RULES),
        _r(
            "fault_tolerance",
            "the storage policy tolerates the failures the demand names (FTT)",
            "requirement",
            f"{VSAN_ADMIN}: 'for n failures tolerated, n+1 copies of the disk are created'",
            "demand",
        ),
        _r(
            "mirror_for_databases",
            "databases on RAID-1 on OSA (RAID-5/6 only if the demand allows parity); ESA's RAID-5/6 has no write "
            "penalty",
            "recommendation",
            "hciplan policy, as for S2D: OSA parity's read-modify-write costs small random writes; "
            f"{VSAN_ESA_NO_PENALTY}: ESA's RAID-1 performance leg 'eliminates the traditional \"write penalty\" "
            "that usually comes with parity-based RAID configurations'",
            "hciplan",
        ),
        _r(
            "capacity_with_reserve",
            "usable capacity after the host rebuild and operations reserves holds the demand",
            "demand",
            f"{VSAN_RESERVE}: 'The capacity required to restore a host failure matches the total capacity of the "
            "largest host in the cluster'",
        ),
        _r(
            "n_plus_one_capacity",
            "after losing a host the survivors rebuild and still hold the demand",
            "headroom",
            f"{VSAN_RESERVE}; {VSAN_PLAN}",
        ),
        _r(
            "n_plus_one_performance",
            "the demand's IOPS at every tier's latency target with one host down (not calibrated for vSAN)",
            "headroom",
            "hciplan performance model with S2D's fitted software costs (vSAN performance is not calibrated)",
        ),
        # its own source: S2D's "calibrated on measured clusters" stood beside the row below's "vSAN performance
        # is not calibrated" in a vSAN proposal (CLI review 2026-11-30)
        _r(
            "iops_at_latency",
            "the demand's IOPS at every tier's latency target, healthy (not calibrated for vSAN)",
            "demand",
            "hciplan performance model with S2D's fitted software costs (vSAN performance is not calibrated)",
        ),
        _r(
            "ram",
            "the databases' RAM + host reserve within the node's RAM",
            "demand",
            "planner.physics.hosting (vSAN's own memory use is not modelled: give it in host_reserve_gb)",
        ),
        _VCPUS_OWN,
        *((k, RULES[k]) for k in _DEMAND_RULES if k != "iops_at_latency"),
    ]
)
RULES_BY_STACK: dict[str, dict[str, Rule]] = {"s2d": RULES, "ceph": CEPH_RULES, "vsan": VSAN_RULES}


def rules_for(stack: str) -> dict[str, Rule]:
    """The rules a design of ``stack`` is judged by (name -> Rule)."""
    return RULES_BY_STACK.get(stack, RULES)


def rule_of(name: str, stack: str = "s2d") -> Rule:
    """One rule by name, the stack's wording first (demand rules share names)."""
    own = rules_for(stack)
    if name in own:
        return own[name]
    for table in RULES_BY_STACK.values():
        if name in table:
            return table[name]
    raise KeyError(name)


def ceph_monitor_quorum_ok(fault_domains: FloatArray) -> FloatArray:
    """[CEPH_MONS]: at least three Monitors, so that losing one keeps a quorum."""
    return np.asarray(fault_domains) >= CEPH_MIN_MON_HOSTS


def ceph_allowed_by_fault_tolerance(
    fault_tolerance: str, online_failures: FloatArray, fault_domains: FloatArray
) -> FloatArray:
    """A Ceph pool rides through ``size - min_size`` (or ``k + m - min_size``)
    failures with IO continuing: 'node' needs one, 'node-and-drive' and
    'two-nodes' two (a drive is an OSD, one failure like a host); the hosts
    lost ('node' and 'node-and-drive' one, 'two-nodes' two) must leave the
    Monitors a majority (:func:`ceph_monitor_failures`)."""
    need = {"node": 1, "node-and-drive": 2, "two-nodes": 2}[fault_tolerance]
    hosts_lost = {"node": 1, "node-and-drive": 1, "two-nodes": 2}[fault_tolerance]
    return (np.asarray(online_failures) >= need) & (ceph_monitor_failures(fault_domains) >= hosts_lost)


def ceph_three_copies_ok(replicated: FloatArray, copies: FloatArray, min_size: FloatArray) -> FloatArray:
    """[CEPH_POOLS]/[CEPH_POOL]: a replicated pool keeps 3 copies or more with min_size 2 or more
    (an erasure-coded pool is judged by ``ceph_min_size`` and ``mirror_for_databases``)."""
    rep = np.asarray(replicated, dtype=bool)
    return ~rep | ((np.asarray(copies) >= CEPH_MIN_COPIES) & (np.asarray(min_size) >= CEPH_MIN_REPLICATED_MIN_SIZE))


def ceph_min_size_ok(replicated: FloatArray, min_size: FloatArray, default_min_size: FloatArray) -> FloatArray:
    """min_size at least Ceph's default, and never 1 on a replicated pool ([CEPH_PR_17912])."""
    ms = np.asarray(min_size)
    return (ms >= np.asarray(default_min_size)) & (~np.asarray(replicated, dtype=bool) | (ms >= 2))


def vsan_network_ok(architecture: str, flash: FloatArray, port_gbit_s: FloatArray) -> FloatArray:
    """[VSAN_NET]/[VCF9_VSAN]: ESA 10 Gb/s (the vSAN-ESA-AF-0 profile's; every other ESA profile's 25 Gb/s is
    :func:`vsan_esa_network_25gbe_ok`'s); OSA 10 Gb/s all-flash, 1 Gb/s hybrid (per port)."""
    osa = np.where(np.asarray(flash, dtype=bool), VSAN_MIN_PORT_GBIT_S["osa-flash"], VSAN_MIN_PORT_GBIT_S["osa-hybrid"])
    return np.asarray(port_gbit_s) >= (VSAN_MIN_PORT_GBIT_S["esa-af0"] if architecture == "esa" else osa)


def vsan_esa_network_25gbe_ok(architecture: str, port_gbit_s: FloatArray, override: bool) -> FloatArray:
    """[VCF9_VSAN]: an ESA host at 25 Gb/s or more, every ESA ReadyNode profile's but vSAN-ESA-AF-0's, unless
    the demand overrides (an AF-0 ReadyNode); OSA passes (per port)."""
    if architecture != "esa":
        return np.ones(np.shape(port_gbit_s), dtype=bool)
    return (np.asarray(port_gbit_s) >= VSAN_MIN_PORT_GBIT_S["esa"]) | bool(override)


def stack_mirror_for_databases(stack: str, erasure: FloatArray, allow_parity: bool, esa: bool = False) -> FloatArray:
    """Ceph and vSAN's ``mirror_for_databases``: a replicated pool or RAID-1 unless the demand
    allows parity; vSAN ESA's RAID-5/6 writes a RAID-1 performance leg and full stripes, with
    no read-modify-write ([VSAN_ESA_NO_PENALTY]), so it passes."""
    e = np.asarray(erasure, dtype=bool)
    if stack == "vsan" and esa:
        return np.ones(e.shape, dtype=bool)
    return ~e | bool(allow_parity)


def vsan_esa_host_ok(
    devices: FloatArray, cores: FloatArray, ram_gb: FloatArray, minimum: tuple[int, int, float]
) -> FloatArray:
    """An ESA host at a profile's ``minimum`` (NVMe storage devices, cores, RAM [GB]):
    :data:`VSAN_ESA_AF0_MIN` (the requirement) or :data:`VSAN_ESA_MIN` (vSAN 8.0's)."""
    d, c, r = minimum
    return (np.asarray(devices) >= d) & (np.asarray(cores) >= c) & (np.asarray(ram_gb) >= r - 1e-9)


def vsan_esa_host_words(devices: int, cores: int, ram_gb: float, minimum: tuple[int, int, float]) -> str:
    """What an ESA host holds against a profile's ``minimum``, its shortfalls named."""
    d, c, r = minimum
    have = f"{count(devices, 'NVMe device')}, {count(cores, 'core')}, {ram_gb:,.0f} GB RAM"
    short = [
        w
        for ok, w in (
            (devices >= d, f"{d} devices"),
            (cores >= c, f"{c} cores"),
            (ram_gb >= r - 1e-9, f"{r:,.0f} GB"),
        )
        if not ok
    ]
    return have + (f" (under {and_list(short)})" if short else "")


def vsan_allowed_by_fault_tolerance(fault_tolerance: str, ftt: FloatArray) -> FloatArray:
    """A vSAN policy tolerates FTT failures: 'node' needs 1, the others 2."""
    need = {"node": 1, "node-and-drive": 2, "two-nodes": 2}[fault_tolerance]
    return np.asarray(ftt) >= need


def _media(drive: CapacityDrive) -> str:
    media = getattr(drive, "media", "ssd")
    return "hdd" if media == "hdd" else ("nvme" if drive.interface == "nvme" else "ssd")


def ceph_hardware_rules(rd: ResolvedDesign, allow_network_warning: bool = False) -> dict[str, dict[str, Any]]:
    """:func:`hardware_rules` for a Ceph design (:data:`CEPH_RULES`)."""
    d, n = rd.design, rd.node
    c, lay = d.ceph_spec, d.layout
    checks: dict[str, dict[str, Any]] = {}
    put = recorder(checks)
    fd = d.effective_fault_domains
    put(
        "ceph_pool_hosts",
        fd >= lay.min_fault_domains,
        f"{d.resiliency} on {count(fd, d.fault_domain)} ({lay.min_fault_domains} needed)",
    )
    put(
        "ceph_self_heal",
        fd >= lay.repair_fault_domains,
        f"{count(fd, d.fault_domain)} for {d.resiliency} ({lay.repair_fault_domains} re-protect a lost one)",
    )
    default_ms = ceph_min_size_default(lay.kind, lay.data, lay.redundancy)
    assert lay.min_size is not None  # a Ceph layout carries its pool's min_size
    replicated = lay.kind == "mirror"
    copies_ok = bool(ceph_three_copies_ok(replicated, lay.copies, lay.min_size))
    put(
        "ceph_three_copies",
        copies_ok,
        f"{d.resiliency}: {lay.copies} cop{'y' if lay.copies == 1 else 'ies'}, min_size {lay.min_size}"
        + (
            ""
            if copies_ok
            else f"; Ceph's docs keep size {CEPH_MIN_COPIES} / min_size {CEPH_MIN_REPLICATED_MIN_SIZE}"
            + (" (a single copy: the pool has no redundancy)" if lay.copies == 1 else "")
            # the calibration's reach matters for another pool size, not for replica-3 at a low min_size
            + ("; the Ceph calibration measured replica-3 and ec-6+2 only" if lay.copies != CEPH_MIN_COPIES else "")
        )
        if replicated
        else f"{d.resiliency}: an erasure code (min_size {lay.min_size})",
    )
    put(
        "ceph_min_size",
        bool(ceph_min_size_ok(replicated, lay.min_size, default_ms)),
        # replica-2's default is 1, which Ceph's docs advise against: "(default 1, never 1 ...)" read as a contradiction
        f"min_size {lay.min_size} (Ceph's default for {d.resiliency}: {default_ms}"
        + (
            f"; Ceph advises at least {CEPH_MIN_REPLICATED_MIN_SIZE} on a replicated pool, whatever the default"
            if replicated
            else ""
        )
        + ")",
    )
    # an erasure code of one coding chunk at min_size k+1 stops at its first failure: no rule said so of ec-2+1,
    # where replica-2 drew two warnings (browser review 2026-11-30)
    through = int(lay.online_failures)
    put(
        "ceph_io_through_a_failure",
        through >= 1,
        f"{d.resiliency} with min_size {lay.min_size}: IO continues through "
        f"{count(through, 'failure')}" + ("" if through >= 1 else " (a lost host or OSD stops it)"),
    )
    mons = int(ceph_monitors(fd))
    put(
        "ceph_monitor_quorum",
        bool(ceph_monitor_quorum_ok(fd)),
        f"{count(fd, d.fault_domain)}: {count(mons, 'Monitor')}, a quorum through {count(int(ceph_monitor_failures(fd)), 'failure')}"
        + ("" if fd >= CEPH_MIN_MON_HOSTS else " (a lost host stops the cluster)"),
    )
    media = _media(n.drive)
    osds = n.drive_count * c.osds_per_drive
    lo, rec = CEPH_THREADS_PER_OSD[media]
    # the OSDs' threads: on a hyperconverged node those held back from the guests' vCPUs (hosting.guest_threads),
    # so the vCPU check and this rule never count the same thread; a storage-only node's all
    guests, held = guest_threads(rd)
    per_osd = (held or n.threads) / max(osds, 1)
    where = (
        f"{held} of {n.threads} held from the guests' vCPUs" + ("" if guests else ", none left for them")
        if held
        else f"{n.threads} on a node without guests"
    )
    put(
        "ceph_cpu_threads",
        per_osd >= lo,
        f"{per_osd:.1f} CPU threads per {media.upper()} OSD ({osds} OSDs; {where}; >= {lo})",
    )
    put(
        "ceph_cpu_threads_recommended",
        per_osd >= rec,
        f"{per_osd:.1f} CPU threads per {media.upper()} OSD ({where}; recommended {rec})",
    )
    mem = float(osd_memory_gb(osds, c.osd_memory_target_gb))
    put(
        "ceph_osd_memory",
        n.ram_gb > mem,
        f"{n.ram_gb:g} GB RAM per node vs {osds} OSDs x {c.osd_memory_target_gb:.2f} GB x 2 = {mem:.0f} GB",
    )
    osd_tb = n.drive.capacity_tb / c.osds_per_drive
    put("ceph_osd_size", osd_tb >= CEPH_MIN_OSD_TB - 1e-9, f"{osd_tb:.2f} TB per OSD (>= 1 TiB = 1.10 TB)")
    split_ok = c.osds_per_drive == 1 or (
        media == "nvme" and (n.drive.pcie_gen or 0) >= 4 and n.drive.capacity_tb > CEPH_SPLIT_OSD_MIN_TB
    )
    put(
        "ceph_osds_per_drive",
        split_ok,
        f"{count(c.osds_per_drive, 'OSD')} per {n.drive.capacity_tb:g} TB {media.upper()} drive",
    )
    if n.cache is not None:
        need_gb = c.db_fraction * n.drive.capacity_tb * 1000.0 * osds / c.osds_per_drive
        have_gb = n.cache.capacity_gb * n.cache_count
        limit = CEPH_HDD_OSDS_PER_DB[n.cache.kind if n.cache.kind in ("nvme",) else "ssd"]
        ratio_ok = media != "hdd" or osds <= limit * n.cache_count
        put(
            "ceph_db_device",
            have_gb >= need_gb and ratio_ok,
            f"{have_gb:g} GB of DB/WAL devices for {need_gb:.0f} GB of block.db ({pct(c.db_fraction)}); "
            f"{osds} OSDs on {count(n.cache_count, 'device')}",
        )
        # a SAS SSD before NVMe data drives slows every write's WAL and RocksDB commit (pre-sales Ceph walk
        # 2026-12-03): compared on the catalog's figures for BlueStore's small synchronous writes, the QD1 4 KiB
        # random-write latency and the random-write IOPS, device against device
        slower = [
            f"write latency {n.cache.write_latency_us:g} µs against {n.drive.write_latency_us:g} µs"
            if n.cache.write_latency_us > n.drive.write_latency_us
            else "",
            f"random writes {n.cache.rand_write_4k_iops:,.0f} IOPS against {n.drive.rand_write_4k_iops:,.0f}"
            if n.cache.rand_write_4k_iops < n.drive.rand_write_4k_iops
            else "",
        ]
        db_family = cache_family(n.cache).removesuffix(" cache")
        put(
            "ceph_db_device_faster",
            not any(slower),
            f"the DB/WAL device ({db_family}) is slower than the {drive_family(n.drive)} data drives "
            f"({'; '.join(w for w in slower if w)}; QD1 4 KiB, catalog figures)"
            if any(slower)
            else f"the DB/WAL device ({db_family}) is no slower than the {drive_family(n.drive)} data drives "
            "(QD1 4 KiB random-write latency and IOPS, catalog figures)",
        )
    elif media == "hdd":
        # HDD OSDs with their RocksDB metadata and WAL on the spindle: passed as "block.db on each OSD's own device"
        # for 35 nodes of 20 TB HDDs sized for databases (architect review 2026-11-30)
        put("ceph_db_device", False, "HDD OSDs keep block.db and the WAL on the HDD itself: no flash DB/WAL device")
    else:
        put("ceph_db_device", True, "block.db on each OSD's own device")
    if n.cache is None:  # nothing in front of the data drives to be slower than them
        put("ceph_db_device_faster", True, "no DB/WAL device: block.db and the WAL on each OSD's own device")
    put(
        "network_minimum",
        n.nic.port_gbit_s >= CEPH_MIN_PORT_GBIT_S,
        f"{n.nic.ports} x {n.nic.port_gbit_s:g} GbE",
    )
    own_ok = n.nic.port_gbit_s >= CEPH_RECOMMENDED_PORT_GBIT_S
    put(
        "ceph_network_25gbe",
        own_ok or allow_network_warning,
        f"{n.nic.port_gbit_s:g} GbE" + (" (overridden by the demand)" if allow_network_warning and not own_ok else ""),
    )
    put("ceph_sites_rtt", *ceph_sites_rtt_judged(d.fault_domain_rtt_ms))
    _platform_rules(rd, put)
    return checks


def vsan_hardware_rules(rd: ResolvedDesign, allow_network_warning: bool = False) -> dict[str, dict[str, Any]]:
    """:func:`hardware_rules` for a vSAN design (:data:`VSAN_RULES`); ``allow_network_warning``: the demand takes
    an ESA host under 25 Gb/s as a vSAN-ESA-AF-0 ReadyNode."""
    d, n = rd.design, rd.node
    v, lay = d.vsan_spec, d.layout
    checks: dict[str, dict[str, Any]] = {}
    put = recorder(checks)
    put(
        "supported_node_count",
        VSAN_MIN_NODES <= rd.nodes <= VSAN_MAX_NODES,
        f"{rd.nodes} hosts ({VSAN_MIN_NODES}..{VSAN_MAX_NODES}" + (", a witness host" if rd.nodes == 2 else "") + ")",
    )
    fd = d.effective_fault_domains
    put("vsan_policy_hosts", fd >= lay.min_fault_domains, f"{d.resiliency}: {lay.note}; {fd} hosts")
    put(
        "vsan_rebuild_hosts",
        fd >= lay.repair_fault_domains,
        f"{count(fd, 'host')} for {d.resiliency} ({lay.repair_fault_domains} rebuild a failed host)",
    )
    media = _media(n.drive)
    flash = media != "hdd"
    put(
        "vsan_raid56_all_flash",
        lay.kind == "mirror" or flash,
        f"{d.resiliency} on {drive_family(n.drive)}",
    )
    esa = v.architecture == "esa"
    port = n.nic.port_gbit_s
    ports = f"{n.nic.id}: {n.nic.ports} x {port:g} GbE per host"
    if esa:
        need = (
            f"vSAN ESA needs {VSAN_MIN_PORT_GBIT_S['esa']:g} Gb/s (vSAN 8.0), {VSAN_MIN_PORT_GBIT_S['esa-af0']:g} "
            "Gb/s only as a vSAN-ESA-AF-0 ReadyNode (vSAN 8.0 U2 and later)"
        )
    else:
        need = f"vSAN OSA {'all-flash' if flash else 'hybrid'} needs {VSAN_MIN_PORT_GBIT_S['osa-flash' if flash else 'osa-hybrid']:g} Gb/s"
    put("vsan_network", bool(vsan_network_ok(v.architecture, flash, port)), f"{ports}; {need} (judged per port)")
    own_25 = bool(vsan_esa_network_25gbe_ok(v.architecture, port, False))
    put(
        "vsan_esa_network_25gbe",
        bool(vsan_esa_network_25gbe_ok(v.architecture, port, allow_network_warning)),
        (
            f"{port:g} GbE"
            + (
                ""
                if own_25
                else " (overridden by the demand: a vSAN-ESA-AF-0 ReadyNode)"
                if allow_network_warning
                else ": only a vSAN-ESA-AF-0 ReadyNode runs ESA under 25 Gb/s"
            )
        )
        if esa
        else "OSA: not an ESA ReadyNode profile",
    )
    put(
        "vsan_esa_nvme",
        not esa or (media == "nvme" and n.cache is None),
        f"{'ESA' if esa else 'OSA'}: {drive_family(n.drive)}, {cache_family(n.cache)}",
    )
    for rule, minimum in (("vsan_esa_host_minimum", VSAN_ESA_AF0_MIN), ("vsan_esa_host_profile", VSAN_ESA_MIN)):
        put(
            rule,
            not esa or bool(vsan_esa_host_ok(n.drive_count, n.cores, n.ram_gb, minimum)),
            f"ESA: {vsan_esa_host_words(n.drive_count, n.cores, n.ram_gb, minimum)}"
            if esa
            else "OSA: no ESA ReadyNode profile",
        )
    # 1 cache + 20 capacity drives a host passed every rule as OSA (Ceph/vSAN walk 2026-11-30)
    groups = n.cache_count
    # a disk group's cache is "one SSD" (VSAN_DISK_GROUPS): Optane persistent memory DIMMs were accepted as an OSA
    # cache with no rule broken (verification walk 2026-12-01)
    pmem = n.cache is not None and n.cache.kind == "pmem"
    put(
        "vsan_osa_disk_groups",
        esa
        or (
            not pmem
            and 1 <= groups <= VSAN_OSA_MAX_DISK_GROUPS
            and groups <= n.drive_count <= VSAN_OSA_MAX_CAPACITY_PER_GROUP * groups
        ),
        "ESA: no disk groups"
        if esa
        else f"OSA: {count(groups, 'cache device')} ({count(groups, 'disk group')}, at most "
        f"{VSAN_OSA_MAX_DISK_GROUPS}) for {count(n.drive_count, 'capacity device')} (at most "
        f"{VSAN_OSA_MAX_CAPACITY_PER_GROUP} a group)"
        + ("; the cache is persistent memory, which a disk group does not take" if pmem else ""),
    )
    # a 0.58 DWPD QLC drive was proposed for ESA, whose devices are certified at 1 DWPD or more (architect review
    # 2026-11-30)
    put(
        "vsan_esa_endurance",
        not esa or n.drive.endurance_dwpd >= VSAN_ESA_MIN_DWPD - 1e-9,
        f"{'ESA' if esa else 'OSA'}: {n.drive.endurance_dwpd:g} DWPD",
    )
    # an iWARP NIC's RDMA was accepted and raised vSAN's IOPS by a quarter (browser review 2026-11-30)
    put(
        "vsan_rdma_roce",
        d.transport != "rdma" or rd.runs_rdma,
        f"transport {'RDMA' if d.transport == 'rdma' else 'TCP/IP'}; {n.nic.id}: "
        + {"none": "no RDMA", "roce": "RDMA (RoCE)", "iwarp": "RDMA (iWARP)"}[n.nic.rdma]
        + ("; RoCE v2 selectable" if n.nic.also_roce else "")
        # the model then computes TCP/IP, as vSAN would run: say so, not only that RDMA is refused
        + ("" if d.transport != "rdma" or rd.runs_rdma else "; computed as TCP/IP"),
    )
    put("vsan_sites_rtt", *vsan_sites_rtt_judged(d.fault_domain_rtt_ms))
    supported = rd.nodes >= VSAN_RESERVED_MIN_HOSTS and d.fault_domain == "node"
    # a host rebuild reserve only serves a policy the survivors can rebuild (RAID 6 on six hosts cannot)
    rebuildable = bool(survivors_re_protect(fd, layout_min_fault_domains(lay)))
    put(
        "vsan_reserves",
        not supported or ((v.host_rebuild_reserve or not rebuildable) and v.operations_reserve),
        (
            "host rebuild and operations reserves "
            + ("enabled" if v.host_rebuild_reserve and v.operations_reserve else "not both enabled")
            + ("" if rebuildable else f" (no rebuild of {d.resiliency} on {fd - 1} hosts: its reserve serves none)")
        )
        if supported
        else "reserved capacity not available (2-node or fault domains): 30 % kept free",
    )
    _platform_rules(rd, put)
    return checks


# ------------------------------------------------------------- resiliency
def allowed_by_fault_tolerance(fault_tolerance: str, nodes: FloatArray, resiliency_code: FloatArray) -> FloatArray:
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

    A single server survives no server failure, whatever its volumes (a one-node Azure Local
    cluster mirrors across its own drives): its proposal said "two-way mirror on 1 nodes survives
    one server down" (review 2026-11-29).
    """
    c = np.asarray(resiliency_code)
    n = np.asarray(nodes)
    R = RESILIENCY_CODES
    two_failures = (c == R["mirror-3way"]) | (c == R["parity-dual"]) | (c == R["mirror-accelerated-parity"])
    servers = n >= 2
    if fault_tolerance == "node":
        return np.broadcast_to(servers, np.broadcast(c, n).shape).copy()
    if fault_tolerance == "node-and-drive":
        return (two_failures | (c == R["nested-mirror-2way"])) & servers
    if fault_tolerance == "two-nodes":
        return two_failures & (n >= 4)
    raise ValueError(f"unknown fault_tolerance '{fault_tolerance}'")


def recommended_resiliency(nodes: FloatArray, resiliency_code: FloatArray) -> FloatArray:
    """Two-way mirror only on two servers; no single parity ([FT])."""
    c = np.asarray(resiliency_code)
    n = np.asarray(nodes)
    return ~(((c == RESILIENCY_CODES["mirror-2way"]) & (n > 2)) | (c == RESILIENCY_CODES["parity-single"]))


def mirror_for_databases(resiliency_code: FloatArray, allow_parity: bool) -> FloatArray:
    """Databases on mirror volumes unless the demand allows parity ([PV])."""
    c = np.asarray(resiliency_code)
    parity = np.isin(c, [RESILIENCY_CODES[r] for r in PARITY])
    return ~parity | bool(allow_parity)


# ------------------------------------------------------------------ drives
def media_rank_of_drive(interface: FloatArray, media: FloatArray) -> FloatArray:
    """Speed class of a capacity drive: NVMe 3, SAS/SATA SSD 2, HDD 1."""
    interface, media = np.asarray(interface), np.asarray(media)
    return np.where(media == "hdd", 1, np.where(interface == "nvme", 3, 2))


def media_rank_of_cache(kind: FloatArray) -> FloatArray:
    """Speed class of a cache device: PMem 4, NVMe 3, SAS/SATA SSD 2."""
    kind = np.asarray(kind)
    return np.where(kind == "pmem", 4, np.where(kind == "nvme", 3, 2))


def cache_media_ok(
    has_cache: FloatArray,
    cache_rank: FloatArray,
    cache_dwpd: FloatArray,
    drive_rank: FloatArray,
    drive_dwpd: FloatArray,
) -> FloatArray:
    """[HW]/[CD]/[UC]: HDD capacity needs a cache; PMem never caches HDD; a cache is of a faster type, or a
    higher-endurance drive of the same flash type, NVMe or SATA/SAS SSD (set up by hand: "manually configure
    higher-endurance drives to cache for lower-endurance drives of the same type"). Whether Microsoft advises
    SSD over SSD is :func:`ssd_cache_over_ssd_ok`'s (a recommendation; this rule refused it as a requirement,
    S2D audit)."""
    has_cache = np.asarray(has_cache, dtype=bool)
    cr, dr = np.asarray(cache_rank), np.asarray(drive_rank)
    faster = cr > dr
    same_type = (cr == dr) & (dr >= MEDIA_RANK["ssd"]) & (np.asarray(cache_dwpd) > np.asarray(drive_dwpd))
    pmem_on_hdd = (cr == 4) & (dr == 1)
    return np.where(has_cache, (faster | same_type) & ~pmem_on_hdd, dr > 1)


def ssd_cache_over_ssd_ok(has_cache: FloatArray, cache_rank: FloatArray, drive_rank: FloatArray) -> FloatArray:
    """[CD]: "High endurance SSDs caching to low endurance SSDs isn't advised": no SATA/SAS SSD cache over SATA/SAS
    SSD capacity (a recommendation; NVMe over NVMe is offered without that caveat)."""
    ssd = MEDIA_RANK["ssd"]
    return ~(np.asarray(has_cache, dtype=bool) & (np.asarray(cache_rank) == ssd) & (np.asarray(drive_rank) == ssd))


def min_capacity_drives_ok(count: FloatArray) -> FloatArray:
    return np.asarray(count) >= MIN_CAPACITY_DRIVES


def cache_devices_ok(has_cache: FloatArray, cache_count: FloatArray, cache_gb: FloatArray) -> FloatArray:
    has_cache = np.asarray(has_cache, dtype=bool)
    return ~has_cache | ((np.asarray(cache_count) >= MIN_CACHE_DEVICES) & (np.asarray(cache_gb) >= MIN_CACHE_DEVICE_GB))


def capacity_multiple_of_cache_ok(has_cache: FloatArray, count: FloatArray, cache_count: FloatArray) -> FloatArray:
    has_cache = np.asarray(has_cache, dtype=bool)
    cc = np.maximum(np.asarray(cache_count), 1)
    return ~has_cache | (np.asarray(count) % cc == 0)


def cache_endurance_ok(has_cache: FloatArray, cache_dwpd: FloatArray) -> FloatArray:
    return ~np.asarray(has_cache, dtype=bool) | (np.asarray(cache_dwpd) >= MIN_CACHE_DWPD)


def hybrid_cache_ratio_ok(
    drive_rank: FloatArray, cache_gb_per_node: FloatArray, capacity_tb_per_node: FloatArray
) -> FloatArray:
    hdd = np.asarray(drive_rank) == 1
    return ~hdd | (np.asarray(cache_gb_per_node) / 1000.0 >= HYBRID_CACHE_SHARE * np.asarray(capacity_tb_per_node))


def raw_capacity_per_server_ok(count: FloatArray, drive_tb: FloatArray) -> FloatArray:
    return np.asarray(count) * np.asarray(drive_tb) <= MAX_RAW_TB_PER_SERVER + 1e-9


def pool_capacity_ok(nodes: FloatArray, count: FloatArray, drive_tb: FloatArray) -> FloatArray:
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
def network_minimum_ok(port_gbit_s: FloatArray) -> FloatArray:
    return np.asarray(port_gbit_s) >= MIN_PORT_GBIT_S


def network_recommended_ok(
    nodes: FloatArray, all_nvme: FloatArray, rdma: FloatArray, port_gbit_s: FloatArray, override: bool = False
) -> FloatArray:
    """[HW] recommended interconnect (RDMA, >= 25 GbE) from four nodes; hciplan applies it to all-NVMe clusters
    beyond two nodes too (its own extension, not Microsoft's text: a mirror's writes send their remote copies
    across the network, and one NVMe drive's 1,100-3,000 MB/s of writes fill a 10 GbE port's 1,250 MB/s; an
    aligned read crosses none in the model). ``override``: the demand accepts a network below it."""
    n = np.asarray(nodes)
    applies = (n >= RDMA_RECOMMENDED_FROM_NODES) | (np.asarray(all_nvme, dtype=bool) & (n > 2))
    ok = np.asarray(rdma, dtype=bool) & (np.asarray(port_gbit_s) >= RECOMMENDED_PORT_GBIT_S)
    return ~applies | ok | bool(override)


# ----------------------------------------------------------------- memory
def drive_family(drive: CapacityDrive) -> str:
    media = getattr(drive, "media", "ssd")
    if media == "hdd":
        return f"{drive.interface.upper()} HDD"
    return "NVMe" if drive.interface == "nvme" else f"{drive.interface.upper()} SSD"


def cache_family(cache: CacheDevice | None) -> str:
    if cache is None:
        return "no cache"
    return {"pmem": "PMem", "nvme": "NVMe"}.get(cache.kind, f"{cache.kind.upper()} SSD") + " cache"


#: ``put(rule, ok, reason)``: records one rule's verdict (``ok`` a bool or an array of them)
Put = Callable[[str, object, str], None]


def recorder(checks: dict[str, dict[str, Any]]) -> Put:
    """``put(rule, ok, reason)``: record one rule's verdict in ``checks``."""

    def put(rule: str, ok: object, reason: str) -> None:
        checks[rule] = {"passed": bool(np.all(ok)) if isinstance(ok, np.ndarray) else bool(ok), "reason": reason}

    return put


def witness_words(nodes: int) -> str:
    """What an S2D cluster of ``nodes`` servers needs for its quorum: a witness it cannot do without on
    two servers ([WI], its 2020 version), one recommended on every larger cluster ([WI] names three and
    four; [WQ]: "We recommend you always configure a witness"); nothing the design holds decides it, so
    the rule always passes and says what to set up. A cloud witness takes an Azure storage account, which
    hciplan does not price. A single machine has no cluster quorum to keep.

    The reason said "no witness recommended (Microsoft names clusters of 2 to 4 servers)" from five
    servers, beside the rule's own source recommending one always (S2D specialist's audit)."""
    if nodes == 2:
        return (
            "2 nodes: set up a cluster witness, else losing either server stops the other: a cloud witness "
            "(an Azure storage account, not priced here), a file share witness on another server or NAS, or a "
            "USB drive shared by the network's router"
        )
    if 3 <= nodes <= WITNESS_MAX_NODES:
        return (
            f"{nodes} nodes: a cluster witness is recommended (cloud witness, not priced here, or a file share "
            "witness) so the cluster rides through two servers failing or offline"
        )
    if nodes > WITNESS_MAX_NODES:
        return (
            f"{nodes} nodes: a cluster witness is recommended (cloud witness, not priced here, or a file share "
            "witness): Microsoft, 'We recommend you always configure a witness'"
        )
    return f"{count(nodes, 'node')}: {NOT_APPLICABLE_WITNESS}"


#: the reason's ending where no witness applies: a single machine is no failover cluster with a quorum to keep
NOT_APPLICABLE_WITNESS = "a single machine, no cluster quorum to keep"


def hardware_rules(rd: ResolvedDesign, allow_network_warning: bool = False) -> dict[str, dict[str, Any]]:
    """The rules of :data:`planner.physics.rules.RULES` that judge the hardware and
    layout alone, with no demand: rule -> ``{"passed", "reason"}``. The Design
    page shows the failed ones as warnings; :func:`check_design` adds the
    demand's rules. ``allow_network_warning``: the demand accepts a network
    below Microsoft's recommendation."""
    d, n = rd.design, rd.node
    if d.stack == "ceph":
        return ceph_hardware_rules(rd, allow_network_warning)
    if d.stack == "vsan":
        return vsan_hardware_rules(rd, allow_network_warning)
    code = RESILIENCY_CODES[d.resiliency]
    checks: dict[str, dict[str, Any]] = {}
    put = recorder(checks)

    nodes = rd.nodes
    lo = MIN_NODES_AZURE_LOCAL if d.platform == "azure-local" else MIN_NODES
    put(
        "supported_node_count",
        lo <= nodes <= MAX_NODES,
        f"{count(nodes, 'node')} ({lo}..16, {d.platform or 'windows-server'})",
    )
    put("cluster_witness", True, witness_words(nodes))
    rec_ok = recommended_resiliency(nodes, code)
    put(
        "three_way_mirror_beyond_two_nodes",
        rec_ok,
        f"{d.resiliency} on {count(nodes, 'node')}"
        + (
            "" if rec_ok else ": Microsoft recommends three-way mirror beyond two servers and discourages single parity"
        ),
    )

    drive, n_drives = n.drive, n.drive_count
    cache, cc = n.cache, n.cache_count
    has_cache = cache is not None
    put("min_capacity_drives", min_capacity_drives_ok(n_drives), f"{n_drives} capacity drives per server (>= 4)")
    put(
        "cache_devices",
        cache_devices_ok(has_cache, cc, cache.capacity_gb if cache is not None else 0.0),
        f"{cc} x {cache.capacity_gb:g} GB cache per server (at least 2, each at least 32 GB)"
        if cache is not None
        else "no cache tier",
    )
    put(
        "capacity_multiple_of_cache",
        capacity_multiple_of_cache_ok(has_cache, n_drives, cc),
        f"{n_drives} capacity drives over {cc} cache devices" if has_cache else "no cache tier",
    )
    d_rank = int(media_rank_of_drive(drive.interface, getattr(drive, "media", "ssd")))
    c_rank = int(media_rank_of_cache(cache.kind)) if cache is not None else 0
    put(
        "cache_media",
        cache_media_ok(
            has_cache, c_rank, cache.endurance_dwpd if cache is not None else 0.0, d_rank, drive.endurance_dwpd
        ),
        # with no cache the rule judges only "HDD needs a cache": an all-flash node's reason ends as the other
        # cache rules' do, so a document says "not applicable" (a proposal said "passed"; review 2026-11-29)
        f"{cache_family(cache)} over {drive_family(drive)}"
        if has_cache
        else f"{drive_family(drive)} capacity, no cache tier",
    )
    put(
        "ssd_cache_over_ssd",
        ssd_cache_over_ssd_ok(has_cache, c_rank, d_rank),
        f"{cache_family(cache)} over {drive_family(drive)}" if has_cache else "no cache tier",
    )
    put(
        "cache_endurance",
        cache_endurance_ok(has_cache, cache.endurance_dwpd if cache is not None else 0.0),
        f"cache {cache.endurance_dwpd:g} DWPD (>= 3)" if cache is not None else "no cache tier",
    )
    cap_tb_node = n_drives * drive.capacity_tb
    cache_gb_node = cache.capacity_gb * cc if cache is not None else 0.0
    put(
        "hybrid_cache_ratio",
        hybrid_cache_ratio_ok(d_rank, cache_gb_node, cap_tb_node),
        f"cache {cache_gb_node / 1000:.2f} TB for {cap_tb_node:.1f} TB of HDD per server (>= 10 %)"
        if d_rank == 1
        else "not hybrid",
    )
    put(
        "raw_capacity_per_server",
        raw_capacity_per_server_ok(n_drives, drive.capacity_tb),
        f"{cap_tb_node:,.1f} TB raw per server (<= 400)",
    )
    put(
        "pool_capacity",
        pool_capacity_ok(nodes, n_drives, drive.capacity_tb),
        f"{nodes * cap_tb_node:,.1f} TB raw (<= 4,000)",
    )
    if d.volumes:
        plan = capacity_report(rd).volume_plan
        assert plan is not None  # capacity_report plans the volumes a design gives
        put(
            "volume_plan",
            plan.fits,
            "; ".join(plan.problems)
            or f"{count(len(plan.volumes), 'volume')}, fixed footprint {plan.fixed_footprint_tb:,.2f} TB of "
            f"{plan.available_tb:,.2f} TB available",
        )
    else:
        put("volume_plan", True, "no volumes planned")
    put("rack_aware_rtt", *rack_aware_rtt_judged(d.rack_aware, d.fault_domain_rtt_ms))
    put("reserve_three_tiers", True, "one capacity tier per node: the reserve is one capacity drive per server")

    _platform_rules(rd, put)
    put("ram_minimum", n.ram_gb >= MIN_RAM_GB, f"{n.ram_gb:g} GB RAM per server (>= 32)")
    put("network_minimum", network_minimum_ok(n.nic.port_gbit_s), f"{n.nic.ports} x {n.nic.port_gbit_s:g} GbE")
    # judged on every S2D design, as the other rules a design may not use ("no cache tier"): a rule present only when
    # chosen left a switched design's checks one short of the rule list (stop 55); a switched design's is not applicable
    put(
        "storage_switchless",
        *(
            switchless_judged(nodes, n.nic.ports, n.nic_count)
            if d.storage_switchless
            else (True, f"storage ports to a pair of switches: {NOT_SWITCHLESS}")
        ),
    )
    all_nvme = drive.interface == "nvme" and (cache is None or cache.kind in ("nvme", "pmem"))
    # RDMA in use, not only in the NIC: a 4-node all-NVMe design set to TCP/IP passed with its RDMA NIC idle
    # (browser review 2026-11-30)
    rdma_used = n.nic.rdma != "none" and d.transport == "rdma"
    # the override is said only where it overrode: "25 GbE, RDMA roce, 2 nodes (overridden by the demand)" read as
    # a failing network the rule had passed on its own (S2D audit)
    own_ok = bool(network_recommended_ok(nodes, all_nvme, rdma_used, n.nic.port_gbit_s))
    put(
        "network_rdma_25gbe",
        own_ok or allow_network_warning,
        f"{n.nic.id}: {n.nic.port_gbit_s:g} GbE, RDMA {n.nic.rdma}"
        + (", the transport TCP/IP (RDMA not used)" if n.nic.rdma != "none" and not rdma_used else "")
        + f", {nodes} nodes{', all-NVMe' if all_nvme else ''}"
        + (
            f" (below {RDMA_RECOMMENDED_FROM_NODES} nodes: hciplan's own all-NVMe rule, not Microsoft's)"
            if not own_ok and nodes < RDMA_RECOMMENDED_FROM_NODES
            else ""
        )
        + (" (overridden by the demand)" if allow_network_warning and not own_ok else ""),
    )
    return checks


def _platform_rules(rd: ResolvedDesign, put: Put) -> None:
    """The chassis, CPU, memory and power rules every stack shares (the parts'
    records): drive_bays, cpu_socket, pcie_slots, power_budget, pmem_supported,
    memory_config."""
    n = rd.node
    ch = n.chassis
    drive, n_drives = n.drive, n.drive_count
    cache, cc = n.cache, n.cache_count
    if ch is not None:
        # an add-in (HHHL) card is counted against the PCIe slots below, not the bays (n.bays_used): 12 HDDs and four
        # PM1725 cards in a 12-bay AX-760 read "16 drives", "the nvme cache devices have no nvme bay" (architect walk)
        bays = n.bays_used
        bay_ff = bay_form_factor(ch.model)
        # the reason names what does not fit, and the rule passes when nothing is named: "10 drives in 12 sas/sata bays (3.5in); 3.5in sas drives" never said
        # that the NVMe cache devices have no NVMe bay (browser review 2026-11-29)
        misfits = []
        # a Ceph node's fast devices are its DB/WAL devices, in the stack's one word for them (pre-sales Ceph walk
        # 2026-12-03: "the nvme cache devices have no nvme bay" of a Ceph design)
        fast = cache_devices_words(rd.design.stack)
        if bays > ch.drive_bays:
            misfits.append(f"{bays} drives for {ch.drive_bays} bays")
        if drive.in_drive_bay and (
            drive.interface not in ch.bay_interfaces or not drive_fits_bay(drive.form_factor, bay_ff)
        ):
            misfits.append(f"the {drive.form_factor} {drive.interface} capacity drives have no bay of their kind")
        if cache is not None and cache.in_drive_bay:
            if cache.kind not in ch.bay_interfaces:
                misfits.append(f"the {cache.kind} {fast} have no {cache.kind} bay")
            elif cache.form_factor is not None and not drive_fits_bay(cache.form_factor, bay_ff):
                misfits.append(f"the {cache.form_factor} {cache.kind} {fast} have no bay of their kind")
        cards = [
            f"{count(k, 'add-in ' + tier + ' card')}"
            for k, tier, part in ((n_drives, "drive", drive), (cc, fast.removesuffix(" devices"), cache))
            if part is not None and part.in_pcie_slot
        ]
        put(
            "drive_bays",
            not misfits,
            f"{bays} drives in {ch.drive_bays} {'/'.join(ch.bay_interfaces)} bays"
            f"{' (' + bay_ff + ')' if bay_ff else ''}; "
            + (f"{drive.form_factor} {drive.interface} drives" if drive.in_drive_bay else "")
            + (f"{' and ' if drive.in_drive_bay else ''}{and_list(cards)} in PCIe slots" if cards else "")
            + (f": {'; '.join(misfits)}" if misfits else ""),
        )
        full = min(ch.cpu_sockets, n.cpu.max_sockets)
        put(
            "cpu_socket",
            n.cpu.socket == ch.cpu_socket_type and n.sockets == full,
            f"{n.sockets} x {n.cpu.socket} in {ch.cpu_sockets} x {ch.cpu_socket_type}"
            # a one-processor build is orderable (single-CPU R760 / R660): hciplan's assumption that the record's
            # bays and slots are all there, said as such, not a vendor violation (architect walk)
            + (
                ""
                if n.sockets == full
                else f": {count(full - n.sockets, 'socket')} empty, so the chassis record's {ch.drive_bays} bays and "
                f"{ch.pcie_slots} PCIe slots (a full board's) may not all attach; check the vendor's "
                f"{n.sockets}-processor configuration"
            ),
        )
        slots = n.pcie_slots_used
        put(
            "pcie_slots",
            slots <= ch.pcie_slots,
            f"{and_list([count(n.nic_count, 'NIC'), *cards])}, {ch.pcie_slots} PCIe slots"
            + (f": {slots} cards for {ch.pcie_slots} slots" if slots > ch.pcie_slots else ""),
        )
        watts = node_power_w(rd)
        put(
            "power_budget",
            ch.max_power_w is None or watts <= ch.max_power_w,
            # one format for both figures: "1,520 W typical vs 1400.0 W rating" (architect walk)
            f"{watts:,.0f} W typical vs "
            + (f"{ch.max_power_w:,.0f} W rating" if ch.max_power_w is not None else "no rating in the chassis record"),
        )
    else:
        for rule in ("drive_bays", "cpu_socket", "pcie_slots", "power_budget"):
            put(rule, True, "no chassis named")
    pmem = cache is not None and cache.kind == "pmem"
    if cache is not None and pmem:
        slots = ch.pmem_slots * n.sockets // max(ch.cpu_sockets, 1) if ch is not None else cc
        put(
            "pmem_supported",
            cache.pmem_generation in n.cpu.pmem_generations and cc <= slots,
            f"PMem {cache.pmem_generation} on {n.cpu.id} ({n.cpu.pmem_generations or 'none'}); {cc} of {slots} slots",
        )
    else:
        put("pmem_supported", True, "no PMem")
    ok, why = memory_verdict(n)
    if rd.clients is not None:  # the client servers a disaggregated design buys: one DIMM rule for every server
        c_ok, c_why = memory_verdict(rd.clients)
        ok, why = ok and c_ok, f"{why}; client servers: {c_why}"
    put("memory_config", ok, why)


def memory_verdict(n: MemoryHost) -> tuple[bool, str]:
    """The ``memory_config`` rule on one server (a node, or a server named by its CPU and RAM alone): its DIMMs,
    those named else the set its RAM is priced and powered as (:mod:`planner.physics.dimms`), of the platform's
    memory type, balanced and within the chassis maximum; a RAM total no set builds fails, in the words that say
    which totals do (:func:`planner.physics.dimms.ram_refusal`). Returns (passed, reason)."""
    # one rule for named DIMMs and a RAM total, where a RAM total passed as "no DIMMs named (priced per GB)"
    # whatever the slots held (presales walk 2026-12-01)
    ch = n.chassis
    dimms = node_dimms(n)
    # the chassis's and the CPUs' most RAM (planner.physics.dimms.ram_ceiling), said where it fails or was not checked
    within, ceiling = ram_ceiling(n)
    ceiling = f"; {ceiling}" if ceiling else ""
    if dimms is not None:
        mt = {getattr(ch, "memory_type", None), n.cpu.memory_type} - {None}
        ok = (not mt or mt == {dimms.module.memory_type}) and dimms.balanced and within
        # no chassis: the named DIMMs fill theirs; a total is built within two per channel, said as the estimate
        slots = node_dimm_slots(n) if ch is not None or not dimms.named else dimms.count
        guess = slots_estimate(n) if not dimms.named else None
        return ok, (
            f"{dimms.words} in {slots} slots{' (estimated)' if guess else ''}, {n.cpu.memory_channels or '?'} "
            f"channels x {count(n.sockets, 'socket')}{'' if dimms.balanced else ' (unbalanced)'}"
            + ("" if dimms.named else ", the cheapest set of the catalog's modules (the design names no DIMMs)")
            + ceiling
        )
    if (refused := ram_refusal(n)) is not None:
        return False, refused + ceiling
    return within, (
        f"{n.ram_gb:g} GB RAM, no DIMMs named and no {(n.cpu.memory_type or 'such').upper()} module in the "
        "catalog to build it of (priced per GB)" + ceiling
    )
