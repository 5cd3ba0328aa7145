"""Cluster design files: what a user proposes to buy.

A :class:`Design` is validated in two steps. Pydantic checks each field's type
and range (the message names the field and the allowed range). Then
:func:`resolve` checks the design against the catalog and the platform rules
(drive bays, PMem slots, CPU support for PMem, fault domains per resiliency,
RDMA on the NIC) and returns a :class:`ResolvedDesign` holding the device
records themselves. Errors are :class:`planner.core.errors.DesignError` naming the
field.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, overload

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, create_model, field_validator, model_validator

from planner.core import minimums as M
from planner.core.errors import ID_PATTERN, DesignError
from planner.core.jsonio import file_kind, load_json_model, parse_json_model
from planner.core.text import and_list, count
from planner.models.catalog import (
    CacheDevice,
    CapacityDrive,
    Catalog,
    Chassis,
    Cpu,
    FcHba,
    FlashCard,
    MemoryModule,
    Nic,
    RaidController,
    Record,
    SanArray,
    bays_taken,
    load_catalog,
    pcie_slots_taken,
)
from planner.models.stacks import (
    CEPH_RELEASES,
    DEFAULT_RESILIENCY,
    MAX_NODES_ANY,
    CephRelease,
    Layout,
    Stack,
    VsanArchitecture,
    cache_devices_words,
    check_resiliency_name,
    equivalent_resiliency,
    layout,
    node_limit_words,
)
from planner.models.stacks import MAX_NODES as STACK_MAX_NODES

MAX_DESIGN_FILE_BYTES = 1_000_000

#: Minimum fault domains per resiliency (Microsoft, "Fault tolerance and storage
#: efficiency in Azure Stack HCI and Windows Server clusters": two-way mirror
#: needs 2 servers, three-way mirror 3, single parity 3, dual parity 4;
#: mirror-accelerated parity combines three-way mirror and dual parity, 4;
#: nested resiliency is for exactly 2 servers).
MIN_FAULT_DOMAINS: dict[str, int] = {
    "mirror-2way": 2,
    "mirror-3way": 3,
    "parity-single": 3,
    "parity-dual": 4,
    "mirror-accelerated-parity": 4,
    "nested-mirror-2way": 2,
}
#: Most fault domains per resiliency: nested resiliency, two-way mirror or mirror-accelerated parity, is for
#: exactly 2 servers (Microsoft, "Nested resiliency for Storage Spaces Direct": "You can't use nested resiliency
#: if ... Your cluster has 3 or more server nodes"); nested mirror-accelerated parity is a volume's only.
MAX_FAULT_DOMAINS: dict[str, int] = {"nested-mirror-2way": 2, "nested-mirror-accelerated-parity": 2}
#: the resiliency a single machine uses (Microsoft, "Using Azure Local on a single server")
SINGLE_MACHINE_RESILIENCY = "mirror-2way"


def is_rack_aware(stack: str, fault_domain: str, fault_domains: int | None, nodes: int | None) -> bool:
    """Azure Local's rack-aware cluster: Storage Spaces Direct with two rack fault domains (zones)."""
    return stack == "s2d" and fault_domain == "rack" and fault_domains == 2 and (nodes or 0) >= 2


def resiliency_misfit(
    stack: str,
    resiliency: str,
    nodes: int,
    fault_domain: str = "node",
    fault_domains: int | None = None,
    vsan_architecture: str = "esa",
    min_size: int | None = None,
) -> str | None:
    """Why ``resiliency`` cannot be laid out on a cluster of ``nodes`` servers, in the design validator's words,
    or None when it can: the one rule the validator applies and the Design page offers its choices by (it offered
    "erasure coding 8+3" on 10 nodes and refused it after; Ceph operator walk 2026-11-30).

    Parameters
    ----------
    stack : str
        ``s2d``, ``ceph`` or ``vsan``.
    resiliency : str
        The resiliency's id (``mirror-3way``, ``ec-8+3``, ``raid6``).
    nodes : int
        Servers of the cluster [count].
    fault_domain, fault_domains : str, int or None
        The design's fault domain (``node``, ``chassis``, ``rack``) and, above the node, how many [count].
    vsan_architecture : str
        ``esa`` or ``osa`` (a vSAN policy's layout depends on it).
    min_size : int or None
        A Ceph pool's min_size (None: Ceph's default).

    Returns
    -------
    str or None
        "resiliency 'ec-8+3' needs at least 11 fault domains (nodes); this design has 10 (...)", or None.

    Raises
    ------
    DesignError
        A name that is not one of the stack's resiliencies, or a Ceph min_size outside the pool's.

    References
    ----------
    S2D: :data:`MIN_FAULT_DOMAINS`, :data:`MAX_FAULT_DOMAINS` (Microsoft, "Fault tolerance and storage efficiency");
    Ceph and vSAN: :func:`planner.models.stacks.layout` (CRUSH host failure domain, [VSAN-PLAN]).
    """
    n_fd = nodes if fault_domain == "node" or fault_domains is None else fault_domains
    if stack != "s2d":
        lay = layout(stack, resiliency, n_fd if nodes else 0, vsan_architecture, min_size)
        if n_fd < lay.min_fault_domains:
            return (
                f"resiliency '{resiliency}' needs at least {lay.min_fault_domains} fault domains "
                f"({fault_domain}s); this design has {n_fd} ({lay.note})"
            )
        return None
    if nodes == 1:
        # Microsoft, "Using Azure Local on a single server": its copies on different drives
        return (
            None
            if resiliency == SINGLE_MACHINE_RESILIENCY
            else "a single machine uses two-way mirror (its copies on different drives)"
        )
    need = MIN_FAULT_DOMAINS[resiliency]
    if n_fd < need:
        return (
            f"resiliency '{resiliency}' needs at least {need} fault domains ({fault_domain}s); this design has {n_fd}"
        )
    most = MAX_FAULT_DOMAINS.get(resiliency)
    if most is not None and nodes > most and not is_rack_aware(stack, fault_domain, fault_domains, nodes):
        return f"resiliency '{resiliency}' is for exactly {most} nodes; this design has {nodes}"
    return None


#: Resiliencies whose volumes may be delimited to a subset of servers (Microsoft,
#: "Delimit the allocation of volumes in Storage Spaces Direct", Windows Server
#: 2019+: "Your cluster uses only three-way mirror resiliency"; "Do not use this
#: option if ... your cluster uses parity or mirror-accelerated parity").
DELIMITABLE = ("mirror-3way",)
#: Same page: "Consider using this option if your cluster has six or more servers".
DELIMIT_RECOMMENDED_MIN_NODES = 6
#: Platforms whose storage rules differ: Azure Local creates an infrastructure
#: volume, supports single machines and rack-aware clusters (Microsoft, *System
#: requirements for Azure Local*; *Deploy via portal*; *Rack aware clusters*).
Platform = Literal["windows-server", "azure-local"]
#: Resiliencies a planned volume may use: the cluster's, plus nested
#: mirror-accelerated parity (capacity only: the performance model runs the
#: design's own resiliency).
VolumeResiliency = Literal[
    "mirror-2way",
    "mirror-3way",
    "parity-dual",
    "mirror-accelerated-parity",
    "nested-mirror-2way",
    "nested-mirror-accelerated-parity",
]
#: Microsoft, *Plan volumes* ("We recommend limiting the total number of volumes
#: to 64 volumes per cluster"; "limiting the size of each volume to 64 TB") and
#: *System requirements for Azure Local, version 23H2* (maximums: "Volumes per
#: system 64", "Volume size 64 TB").
MAX_VOLUMES, MAX_VOLUME_TB = 64, 64.0
#: Assumed size of Azure Local's infrastructure volume, TB: Microsoft says one is
#: created per cluster and must not be deleted (*Deploy via portal*) but gives no
#: size. Peer sizers assume 0.25 TB (Surveyor) and 256 GB + 20 GB of performance
#: history (ODIN); this default follows Surveyor. An assumption, overridable per design.
INFRASTRUCTURE_VOLUME_TB = 0.25
CacheMode = Literal["read-write", "write-only", "read-only"]
#: Storage Spaces Direct supports up to 16 servers per cluster (Microsoft docs,
#: "Storage Spaces Direct hardware requirements").
MAX_NODES = 16


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _inline_spec(base: type, default_id: str) -> type:
    """An inline part spec: the catalog record's fields; id, vendor and source optional."""
    return create_model(
        f"{base.__name__}Spec",
        __base__=base,
        id=(str, Field(default=default_id, pattern=ID_PATTERN)),
        vendor=(str, "custom"),
        source=(str, "user input"),
        verified=(bool, False),
    )


if TYPE_CHECKING:
    # to the type checker an inline spec is its catalog record: the subclass only gives defaults
    CapacityDriveSpec = CapacityDrive
    CacheDeviceSpec = CacheDevice
    CpuSpec = Cpu
    NicSpec = Nic
    ChassisSpec = Chassis
    RaidControllerSpec = RaidController
    FcHbaSpec = FcHba
    SanArraySpec = SanArray
    FlashCardSpec = FlashCard
    MemoryModuleSpec = MemoryModule
else:
    CapacityDriveSpec = _inline_spec(CapacityDrive, "custom-drive")
    CacheDeviceSpec = _inline_spec(CacheDevice, "custom-cache")
    CpuSpec = _inline_spec(Cpu, "custom-cpu")
    NicSpec = _inline_spec(Nic, "custom-nic")
    ChassisSpec = _inline_spec(Chassis, "custom-chassis")
    RaidControllerSpec = _inline_spec(RaidController, "custom-raid-controller")
    FcHbaSpec = _inline_spec(FcHba, "custom-hba")
    SanArraySpec = _inline_spec(SanArray, "custom-array")
    FlashCardSpec = _inline_spec(FlashCard, "custom-flash-card")
    MemoryModuleSpec = _inline_spec(MemoryModule, "custom-dimm")


class DriveSet(_Strict):
    model: str | CapacityDriveSpec = Field(description="catalog id or inline spec")
    count: int = Field(ge=1, le=200, description="drives per node")


class CacheSet(_Strict):
    model: str | CacheDeviceSpec
    count: int = Field(ge=1, le=64, description="cache devices per node")


class CpuSet(_Strict):
    model: str | CpuSpec
    sockets: int = Field(default=2, ge=1, le=8)


class NicSet(_Strict):
    model: str | NicSpec
    count: int = Field(default=1, ge=1, le=8, description="NICs per node")


class DimmSet(_Strict):
    model: str | MemoryModuleSpec = Field(description="catalog id or inline spec")
    count: int = Field(ge=1, le=96, description="DIMMs per node")


class NodeSpec(_Strict):
    chassis: str | ChassisSpec | None = None
    cpu: CpuSet
    ram_gb: float = Field(ge=M.MIN_RAM_GB, le=100_000, description="RAM per node, GB")
    capacity_drives: DriveSet
    cache_devices: CacheSet | None = None
    nics: NicSet
    dimms: DimmSet | None = Field(
        default=None, description="memory modules per node (optional); ram_gb must then equal count x module size"
    )


# ------------------------------------------------------------------ topologies
#: Architectures a design can describe. Hyperconverged is the calibrated one;
#: the others are modelled by :mod:`planner.engine.architectures` on the same device
#: and queueing functions and are outside the calibrated domain.
Topology = Literal["hyperconverged", "disaggregated", "split", "single-server"]
TOPOLOGIES: tuple[str, ...] = ("hyperconverged", "disaggregated", "split", "single-server")


class ServerSpec(_Strict):
    """A server that runs the databases (or serves files) without HCI storage of its own."""

    chassis: str | ChassisSpec | None = Field(
        default=None, description="server chassis id (optional): its CPU socket, socket count and RAM are checked"
    )
    cpu: CpuSet
    ram_gb: float = Field(ge=M.MIN_RAM_GB, le=100_000, description="RAM per server, GB")
    nics: NicSet | None = Field(default=None, description="network cards (needed where IO crosses a network)")


class SharedJbodSpec(_Strict):
    """The shared SAS JBOD of a Storage Spaces file-server cluster (Windows Server 2012 R2): every file
    server reaches every drive over dual-ported SAS; counts are for the whole JBOD, not per node."""

    enclosure: str | ChassisSpec | None = Field(
        default=None,
        description="chassis id of the enclosure (a cluster-in-a-box with shared_bays, e.g. dataon-cib-9224-v12) "
        "that holds the file servers and the bays; null: external JBODs, bays not checked",
    )
    enclosures: int = Field(default=1, ge=1, le=16, description="enclosures (JBODs) in the pool")
    fast_tier: CacheSet | None = Field(
        default=None,
        description="SSDs of the faster tier (cache_device id), whole JBOD; they also hold the write-back cache",
    )
    capacity_tier: DriveSet = Field(description="drives of the capacity tier (capacity_drive id), whole JBOD")
    fast_tier_share: float = Field(
        default=0.2,
        ge=0.0,
        le=1.0,
        description="share of each virtual disk's data placed in the fast tier (0.2 = the 1:4 fast:capacity "
        "split of the Micron/DataON brief); with uniform access it is also the share of IOs the tier serves",
    )
    write_cache_gb: float = Field(
        default=1.0,
        ge=0.0,
        le=100.0,
        description="write-back cache per virtual disk on the fast tier's SSDs, GB (Storage Spaces 2012 R2 "
        "default 1 GB; 0 = none); it absorbs write bursts, sustained writes go to their tier (assumption "
        "write_back_cache_bursts_only)",
    )
    virtual_disks: int | None = Field(
        default=None,
        ge=1,
        le=256,
        description="virtual disks (CSVs); each is owned by one file server at a time and SMB clients are "
        "sent to its owner. null: one per database server",
    )


class DisaggregatedSpec(_Strict):
    """Database servers (compute only) reaching a scale-out file server cluster over SMB3.

    ``backend`` says where the file servers keep the data: ``storage-spaces-direct`` (each file
    server's own drives, copies across the network, as in the HCI model) or ``shared-sas``
    (Storage Spaces on a shared SAS JBOD, Windows Server 2012 R2: copies go over SAS from the
    virtual disk's owner node; the network carries SMB3 only)."""

    db_servers: int = Field(ge=1, le=64, description="database servers (SMB clients)")
    db_server: ServerSpec
    file_servers: int = Field(default=2, ge=2, le=16, description="file server cluster nodes")
    file_server: NodeSpec | ServerSpec = Field(
        description="one file server: CPU, RAM, NICs, and (backend storage-spaces-direct) its cache and capacity drives"
    )
    backend: Literal["storage-spaces-direct", "shared-sas"] = "storage-spaces-direct"
    shared_jbod: SharedJbodSpec | None = Field(default=None, description="the shared JBOD (backend shared-sas)")
    resiliency: Literal["mirror-2way", "mirror-3way"] = "mirror-2way"
    transport: Literal["rdma", "tcp"] = Field(default="tcp", description="SMB Direct (rdma) or SMB over TCP")
    cache_mode: CacheMode | None = Field(
        default=None,
        description="cache tier mode; default as Storage Spaces chooses by media (flash capacity: write-only)",
    )
    file_server_cpu_us_per_io: float = Field(
        default=50.0,
        ge=0.0,
        le=10_000.0,
        description="backend shared-sas, ASSUMPTION: owner-node CPU per front-end IO (SMB3 server over TCP, CSV, Storage Spaces, SAS "
        "driver), LP-us at 3 GHz. No published figure; order of magnitude: one Windows Server 2012 file server "
        "carried over 300,000 1 KiB IOPS over four 10GbE ports (Microsoft, Barreto 2012), i.e. at most ~100 "
        "LP-us per IO on a 2-socket server of 2011 (~32 logical processors); half that bound",
    )
    smb_client_cpu_us_per_io: float = Field(
        default=25.0,
        ge=0.0,
        le=10_000.0,
        description="backend shared-sas, ASSUMPTION: database-server CPU per IO for the SMB3 client over TCP, LP-us at 3 GHz; half of "
        "file_server_cpu_us_per_io (the client runs no storage stack)",
    )
    smb_cpu_us_per_kib: float = Field(
        default=0.5,
        ge=0.0,
        le=100.0,
        description="backend shared-sas, ASSUMPTION: CPU per KiB moved by SMB over TCP at each end, LP-us at 3 GHz: one memory copy "
        "per byte at ~2 GB/s per core",
    )

    @model_validator(mode="after")
    def _parts(self) -> DisaggregatedSpec:
        if self.db_server.nics is None:
            raise ValueError(
                "db_server.nics: database servers reach the file servers over the network; give their NICs"
            )
        if self.file_server.nics is None:
            raise ValueError("file_server.nics: file servers serve SMB3 over the network; give their NICs")
        if self.backend == "shared-sas":
            if self.shared_jbod is None:
                raise ValueError("shared_jbod: required for backend 'shared-sas' (the JBOD's tiers)")
            if isinstance(self.file_server, NodeSpec):
                raise ValueError(
                    "file_server: with backend 'shared-sas' the drives are in shared_jbod, not in each file server"
                )
            if self.cache_mode is not None:
                raise ValueError("cache_mode: Storage Spaces tiering (shared-sas) has tiers, not an S2D cache mode")
        else:
            if self.shared_jbod is not None:
                raise ValueError("shared_jbod: only for backend 'shared-sas'")
            if not isinstance(self.file_server, NodeSpec):
                raise ValueError("file_server: needs capacity_drives (backend 'storage-spaces-direct')")
        if self.resiliency == "mirror-3way" and self.file_servers < 3 and self.backend != "shared-sas":
            raise ValueError("resiliency 'mirror-3way' needs at least 3 file_servers")
        return self


class DataNodeSpec(_Strict):
    drives: DriveSet
    nics: NicSet


class SplitSpec(_Strict):
    """Compute nodes with local flash as a read cache, data nodes holding the data
    with erasure coding, compression and deduplication."""

    compute_nodes: int = Field(ge=1, le=128)
    compute_node: ServerSpec
    flash: CacheSet = Field(description="local flash devices per compute node (cache_device id), used as a read cache")
    storage_cpu_share: float = Field(
        default=0.2,
        ge=0.05,
        le=0.8,
        description="share of each compute node's logical processors reserved for storage IO (0.2 normal, 0.4 in a "
        "high-performance mode)",
    )
    data_nodes: int = Field(ge=1, le=32)
    data_node: DataNodeSpec
    erasure_data: int = Field(default=6, ge=1, le=32, description="erasure code data fragments per stripe")
    erasure_parity: int = Field(default=2, ge=1, le=8, description="erasure code parity fragments per stripe")
    compression_ratio: float = Field(default=1.5, ge=1.0, le=10.0, description="logical / compressed bytes")
    dedup_ratio: float = Field(default=2.0, ge=1.0, le=20.0, description="logical / unique bytes")
    background_share: float = Field(
        default=0.1,
        ge=0.0,
        le=0.9,
        description="share of data-node drive throughput taken by space reclamation and snapshots",
    )
    data_services_cpu_us_per_kib: float = Field(
        default=2.2,
        ge=0.0,
        le=100.0,
        description="host CPU per KiB written for data services, LP-us at 3 GHz; default LZ4 compression alone "
        "(422 MB/s single-thread at 2.7 GHz, lz4 README r101, scaled to 3 GHz); fingerprinting and "
        "erasure coding are not included",
    )
    write_ack_latency_us: float = Field(
        default=10.0, ge=0.0, le=10_000.0, description="data node NVRAM acknowledgement of a write, us"
    )
    transport: Literal["rdma", "tcp"] = "tcp"

    @model_validator(mode="after")
    def _parts(self) -> SplitSpec:
        if self.compute_node.nics is None:
            raise ValueError("compute_node.nics: compute nodes reach the data nodes over the network; give their NICs")
        return self


def _raid_drive_count(level: str, n: int) -> None:
    """Drives a RAID level needs (RAID 1 mirrors a pair, RAID 10 stripes pairs, RAID 5 needs three)."""
    if level == "raid1" and n != 2:
        raise ValueError(f"drives.count: RAID 1 mirrors exactly 2 drives (got {n}); use raid10 for more")
    if level == "raid10" and (n < 4 or n % 2):
        raise ValueError(f"drives.count: RAID 10 needs an even number of drives, at least 4 (got {n})")
    if level == "raid5" and n < 3:
        raise ValueError(f"drives.count: RAID 5 needs at least 3 drives (got {n})")


class RaidStorage(_Strict):
    """Local drives behind a hardware RAID controller."""

    kind: Literal["raid"] = "raid"
    level: Literal["raid1", "raid10", "raid5"]
    drives: DriveSet
    controller: str | RaidControllerSpec
    stripe_kib: float = Field(default=64.0, ge=4.0, le=1024.0, description="strip size per drive, KiB")
    write_cache: Literal["write-back", "write-through"] = "write-back"
    read_both_sides: bool | None = Field(
        default=None,
        description="RAID 1/10: reads are served by either copy (true) or one side of each pair (false); "
        "null: as the controller record's mirror_reads says",
    )
    cache_read_share: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        description="share of the controller cache set aside for reads (HP Array Accelerator ratio: 0.25 for "
        "25 % read / 75 % write); the rest caches writes. null: the whole cache caches writes",
    )

    @model_validator(mode="after")
    def _count(self) -> RaidStorage:
        _raid_drive_count(self.level, self.drives.count)
        return self


class FlashCardStorage(_Strict):
    """PCIe flash card(s) in the server (several are striped by the host)."""

    kind: Literal["pcie-flash"] = "pcie-flash"
    card: str | FlashCardSpec
    count: int = Field(default=1, ge=1, le=8)


class SanStorage(_Strict):
    """A LUN on a Fibre Channel array: RAID of SSDs behind the array controllers."""

    kind: Literal["san"] = "san"
    array: str | SanArraySpec
    level: Literal["raid5", "raid10"] = "raid5"
    drives: DriveSet
    stripe_kib: float = Field(default=64.0, ge=4.0, le=1024.0)
    write_cache: Literal["write-back", "write-through"] = "write-back"
    hba: str | FcHbaSpec
    hbas: int = Field(default=1, ge=1, le=2, description="FC HBAs in the server")
    paths: int = Field(default=1, ge=1, le=16, description="active paths (MPIO round robin over them)")

    @model_validator(mode="after")
    def _count(self) -> SanStorage:
        _raid_drive_count(self.level, self.drives.count)
        return self


class SingleServerSpec(_Strict):
    """One database server with its own storage: local RAID, PCIe flash, or a SAN LUN."""

    server: ServerSpec
    storage: Annotated[RaidStorage | FlashCardStorage | SanStorage, Field(discriminator="kind")]


class CephSpec(_Strict):
    """Ceph settings of a ``stack: ceph`` design (RBD block volumes).

    Ratios: upstream defaults (Ceph docs, *Monitor config reference*: ``mon osd full
    ratio`` .95, ``mon osd backfillfull ratio`` .90, ``mon osd nearfull ratio`` .85); Red
    Hat ODF / Rook set .85 / .80 / .75, so they are editable.
    """

    release: CephRelease = Field(
        default="reef",
        description=f"Ceph release ({', '.join(CEPH_RELEASES)}); the calibration says which were measured",
    )
    rocksdb_tuning: Literal["release-default", "tuned-2022"] = Field(
        default="release-default",
        description="BlueStore's RocksDB options: the release's default, or the 2022 tuning of the Ceph blog's "
        "'RocksDB Tuning Deep-Dive' (16 x 64 MB write buffers, 2 min to merge)",
    )
    osds_per_drive: int = Field(default=1, ge=1, le=4, description="OSDs per capacity drive")
    min_size: int | None = Field(
        default=None,
        ge=1,
        le=20,
        description="pool min_size; null: size - floor(size/2) for replicated pools, k+1 for erasure codes",
    )
    client: Literal["librbd", "krbd"] = Field(
        default="librbd", description="RBD client: librbd (QEMU, fio rbd engine) or the kernel rbd driver"
    )
    full_ratio: float = Field(default=0.95, gt=0.5, le=0.99, description="mon_osd_full_ratio")
    backfillfull_ratio: float = Field(default=0.90, gt=0.5, le=0.99, description="mon_osd_backfillfull_ratio")
    nearfull_ratio: float = Field(default=0.85, gt=0.5, le=0.99, description="mon_osd_nearfull_ratio")
    db_fraction: float = Field(
        default=0.01,
        ge=0.0,
        le=0.2,
        description="BlueStore RocksDB (block.db) space as a share of each OSD's data device when it shares the "
        "device (IBM Storage Ceph: 1 % for RBD; upstream asks 4 % for mixed object workloads)",
    )
    osd_memory_target_gb: float = Field(
        default=4.294967296,
        ge=M.MIN_OSD_MEMORY_TARGET_GB,
        le=1024,
        description="osd_memory_target per OSD, GB (default 4 GiB)",
    )

    @model_validator(mode="after")
    def _ratios(self) -> CephSpec:
        if not self.nearfull_ratio <= self.backfillfull_ratio <= self.full_ratio:
            raise ValueError(
                f"nearfull_ratio ({self.nearfull_ratio:g}) <= backfillfull_ratio ({self.backfillfull_ratio:g}) "
                f"<= full_ratio ({self.full_ratio:g}) is required (Ceph warns otherwise)"
            )
        return self


class VsanSpec(_Strict):
    """vSAN settings of a ``stack: vsan`` design."""

    architecture: VsanArchitecture = Field(
        default="esa", description="esa (Express Storage Architecture, no cache tier) or osa (cache + capacity)"
    )
    host_rebuild_reserve: bool = Field(
        default=True, description="reserve the largest host's capacity for a rebuild (vSAN 7.0 U1+ reserved capacity)"
    )
    operations_reserve: bool = Field(
        default=True, description="reserve space for internal operations (vSAN 7.0 U1+ reserved capacity)"
    )
    large_objects: bool = Field(
        default=False,
        description="objects of 8 TB or more: 765 GB per host for operations instead of 255 GB (vSAN 8.0 docs)",
    )
    active_links: int = Field(
        default=1,
        ge=1,
        le=16,
        description="physical links per host vSAN's traffic uses at once (at most the host's ports): 1 with "
        "the usual single vSAN VMkernel adapter on basic NIC teaming, which uses teaming for redundancy, "
        "not to add bandwidth (VMware, vSAN Network Design Guide, 'Basic NIC Teaming'); more only with a "
        "LACP group or several vSAN VMkernel adapters on separate subnets ('Advanced NIC Teaming')",
    )


class ClientSpec(_Strict):
    """Client servers of a disaggregated Ceph or vSAN design: they run the databases
    (or the load generators) and reach the storage nodes over the network."""

    servers: int = Field(ge=1, le=1000, description="client (compute) servers")
    server: ServerSpec

    @model_validator(mode="after")
    def _nics(self) -> ClientSpec:
        if self.server.nics is None:
            raise ValueError("server.nics: clients reach the storage nodes over the network; give their NICs")
        return self


class VolumeSpec(_Strict):
    """One planned volume: its resiliency, size and provisioning."""

    name: str = Field(default="volume", min_length=1, max_length=80)
    resiliency: VolumeResiliency
    size_tb: float = Field(ge=M.MIN_CAPACITY_TB, le=1_000_000, description="volume size (what it holds), decimal TB")
    provisioning: Literal["fixed", "thin"] = Field(
        default="fixed",
        description="fixed: its whole footprint is taken from the pool at creation; thin: only what is written",
    )
    mirror_share: float = Field(
        default=0.2, ge=0.0, le=1.0, description="mirror-accelerated parity: share of the volume in the mirror tier"
    )


class Design(_Strict):
    """A candidate cluster: N identical nodes plus cluster-wide policies."""

    name: str = Field(default="design", min_length=1, max_length=200)
    stack: Stack = Field(
        default="s2d",
        description="storage software: s2d (Storage Spaces Direct / Azure Local), ceph (Ceph RBD) or vsan "
        "(VMware vSAN); it decides software costs, resiliencies, node limits and capacity rules",
    )
    topology: Topology = Field(
        default="hyperconverged",
        description="architecture: hyperconverged (nodes + node), disaggregated, split or single-server (their own "
        "section of the same name); a Ceph or vSAN design is hyperconverged, or disaggregated with nodes + node "
        "(the storage nodes) and clients",
    )
    nodes: int | None = Field(
        default=None,
        ge=1,
        le=MAX_NODES_ANY,
        description="servers in the cluster (hyperconverged; storage nodes of a disaggregated Ceph or vSAN design); "
        "at most 16 for S2D, 64 for vSAN",
    )
    node: NodeSpec | None = Field(default=None, description="one node (hyperconverged)")
    disaggregated: DisaggregatedSpec | None = None
    split: SplitSpec | None = None
    single_server: SingleServerSpec | None = None
    resiliency: str = Field(
        default="mirror-3way",
        min_length=1,
        max_length=40,
        description="S2D: mirror-2way, mirror-3way, parity-single, parity-dual, mirror-accelerated-parity, "
        "nested-mirror-2way; Ceph: replica-n or ec-k+m; vSAN: raid1-ftt1/2/3, raid5, raid6 "
        "(default per stack: mirror-3way, replica-3, raid1-ftt1)",
    )
    ceph: CephSpec | None = Field(default=None, description="Ceph settings (stack ceph; defaults when omitted)")
    vsan: VsanSpec | None = Field(default=None, description="vSAN settings (stack vsan; defaults when omitted)")
    clients: ClientSpec | None = Field(
        default=None, description="client servers of a disaggregated Ceph or vSAN design (topology disaggregated)"
    )
    mirror_share: float = Field(
        default=0.2,
        ge=0.0,
        le=1.0,
        description="mirror-accelerated parity only: share of the volume in the mirror tier",
    )
    transport: Literal["rdma", "tcp"] = "rdma"
    storage_switchless: bool = Field(
        default=False,
        description="hyperconverged Storage Spaces Direct / Azure Local only: the servers' storage ports cabled to "
        "each other (full mesh, as many links to each peer as the ports allow), no storage switches bought; the "
        "management and VMs' traffic still needs the customer's switches. Microsoft's storage switchless patterns "
        "take 1 to 4 nodes (rule storage_switchless). false: every storage port to a pair of switches",
    )
    fault_domain: Literal["node", "chassis", "rack"] = "node"
    fault_domains: int | None = Field(
        default=None,
        ge=1,
        le=MAX_NODES_ANY,
        description="number of fault domains when fault_domain is chassis or rack",
    )
    fault_domain_rtt_ms: float = Field(
        default=0.0,
        ge=0.0,
        le=10.0,
        description="round-trip time between fault domains beyond a same-room link, ms (0: one room). Every "
        "crossing between nodes is taken to cross fault domains: exact when the fault domain is the node. Azure "
        "Local's rack-aware clusters allow at most 1 ms between their two rooms",
    )
    reserve_policy: Literal["one-drive-per-node-max-4", "none"] = "one-drive-per-node-max-4"
    platform: Platform | None = Field(
        default=None,
        description="windows-server (Storage Spaces Direct) or azure-local (adds its infrastructure volume, allows "
        "a single machine and rack-aware clusters). Unset: the storage rules are Windows Server's, and the "
        "licences follow the demand's platform for a proposed cluster, Windows Server for one the customer owns "
        "(planner.commercial.licensing.platform_of); set, it is the machine's and every cost follows it",
    )
    infrastructure_volume_tb: float | None = Field(
        default=None,
        ge=0.0,
        le=100.0,
        description=f"azure-local: size of the infrastructure volume, TB (an assumption: Microsoft gives none; "
        f"default {INFRASTRUCTURE_VOLUME_TB:g} TB as the Surveyor sizer assumes)",
    )
    volumes: list[VolumeSpec] | None = Field(
        default=None, max_length=1000, description="planned volumes, checked against the pool and Microsoft's limits"
    )
    vcpu_oversubscription: float = Field(default=4.0, ge=0.1, le=32.0)
    cpu_utilization_cap: float = Field(default=1.0, ge=M.MIN_CPU_UTILIZATION_CAP, le=1.0)
    cache_mode: CacheMode | None = Field(
        default=None,
        description="S2D cache mode (Set-ClusterStorageSpacesDirect -CacheModeSSD/-CacheModeHDD); "
        "default (null): as S2D chooses by media, write-only when the capacity drives are flash, "
        "read-write when they are HDD",
    )
    volume_servers: int | None = Field(
        default=None,
        ge=1,
        le=MAX_NODES_ANY,
        description="servers each volume's slabs are spread over: null = every server (regular "
        "allocation); fewer = delimited allocation (Windows Server 2019+, three-way mirror only, "
        "New-Volume -StorageFaultDomainsToUse)",
    )

    host_reserve_gb: float = Field(
        default=8.0,
        ge=0,
        le=10_000,
        description="RAM per node kept for the host OS and its services, GB (a planning assumption: "
        "Microsoft publishes no figure)",
    )
    csv_cache_gb: float = Field(
        default=1.074,
        ge=0,
        le=100_000,
        description="CSV in-memory read cache per node, GB (BlockCacheSize; default 1 GiB on Windows "
        "Server 2019 and Azure Stack HCI)",
    )

    @field_validator("nodes", "fault_domains", "volume_servers")
    @classmethod
    def _stack_node_limit(cls, v: int | None, info: ValidationInfo) -> int | None:
        """Servers per cluster by stack ([S2D-HW] 16, vSAN 64; :mod:`planner.models.stacks`)."""
        st = info.data.get("stack", "s2d")
        if v is not None and st in STACK_MAX_NODES and not v <= STACK_MAX_NODES[st]:
            raise ValueError(node_limit_words(st, v))
        if v is not None and info.field_name == "nodes" and (why := node_limit_words(st, v)):
            raise ValueError(why)
        return v

    @field_validator("resiliency")
    @classmethod
    def _stack_resiliency(cls, v: str, info: ValidationInfo) -> str:
        """The resiliency is one of the design's stack's (:mod:`planner.models.stacks`)."""
        try:
            check_resiliency_name(info.data.get("stack", "s2d"), v)
        except DesignError as exc:
            raise ValueError(exc.message) from None
        return v

    @model_validator(mode="before")
    @classmethod
    def _stack_defaults(cls, data: Any) -> Any:
        """A Ceph or vSAN design that names no resiliency takes its stack's default
        (replica-3, raid1-ftt1), and a Ceph one no transport TCP (its messenger)."""
        if isinstance(data, dict) and data.get("stack") in ("ceph", "vsan"):
            data = dict(data)
            data.setdefault("resiliency", DEFAULT_RESILIENCY[data["stack"]])
            if data["stack"] == "ceph":
                data.setdefault("transport", "tcp")
        return data

    @model_validator(mode="before")
    @classmethod
    def _legacy_read_cache(cls, data: Any) -> Any:
        # files written before cache_mode had a boolean all_flash_read_cache
        if isinstance(data, dict) and "all_flash_read_cache" in data:
            data = dict(data)
            legacy = data.pop("all_flash_read_cache")
            if legacy is True and data.get("cache_mode") is None:
                data["cache_mode"] = "read-write"
            elif legacy not in (True, False):
                raise ValueError("all_flash_read_cache (legacy) must be true or false; use cache_mode")
        return data

    @model_validator(mode="after")
    def _stack(self) -> Design:
        """What each stack takes: its resiliencies, node limits, settings section,
        transport (Ceph's messenger is modelled over TCP only) and S2D-only fields."""
        st = self.stack
        for sec in ("ceph", "vsan"):
            if getattr(self, sec) is not None and st != sec:
                raise ValueError(f"{sec}: only for stack '{sec}' (this design is '{st}')")
        if self.clients is not None and (st == "s2d" or self.topology != "disaggregated"):
            raise ValueError(
                "clients: only for a disaggregated Ceph or vSAN design (an S2D file-server design uses 'disaggregated')"
            )
        if st == "s2d":
            return self
        if self.topology not in ("hyperconverged", "disaggregated"):
            raise ValueError(f"topology: a {st} design is hyperconverged or disaggregated, not '{self.topology}'")
        if st == "ceph" and self.transport != "tcp":
            raise ValueError(
                "transport: Ceph's messenger (msgr2) is modelled over TCP only; every measured Ceph cluster ran TCP"
            )
        s2d_only = {
            "volume_servers": self.volume_servers is not None,
            "mirror_share": self.mirror_share != 0.2,
            "reserve_policy": self.reserve_policy != "one-drive-per-node-max-4",
        }
        if st == "ceph":
            s2d_only["cache_mode"] = self.cache_mode is not None
        for name, given in s2d_only.items():
            if given:
                raise ValueError(f"{name}: a Storage Spaces Direct setting; not for a {st} design")
        return self

    @property
    def ceph_spec(self) -> CephSpec:
        """The Ceph settings in effect (defaults when the design gives none)."""
        return self.ceph or CephSpec()

    @property
    def vsan_spec(self) -> VsanSpec:
        """The vSAN settings in effect (defaults when the design gives none)."""
        return self.vsan or VsanSpec()

    @property
    def layout(self) -> Layout:
        """The resiliency's layout (Ceph and vSAN; :mod:`planner.models.stacks`)."""
        # vSAN places each component of an object in its own fault domain: ESA's adaptive RAID-5 is 4+1 on six
        # domains or more, not six hosts in four racks (Ceph/vSAN walk 2026-11-30: 4+1 on 8 hosts in 4 racks
        # overstated the usable capacity by a fifth)
        return layout(
            self.stack,
            self.resiliency,
            self.effective_fault_domains if self.nodes else 0,
            self.vsan_spec.architecture,
            self.ceph_spec.min_size if self.stack == "ceph" else None,
        )

    @property
    def database_servers(self) -> int:
        """The servers the database VMs run on, which a workload's ``vms_per_node`` counts per
        (:func:`planner.engine.performance.issuing_nodes`, the architecture models' ``issuer_population``): a
        disaggregated Ceph or vSAN design's client servers, an S2D file-server design's database servers, split
        provisioning's compute nodes, the single server, else the nodes. One count for every topology: the sized
        demand's 24 databases ran as 6 VMs on the DL580 (the sized cluster's VMs per node on its one server) under
        the whole demand's IOPS (stop 57's note)."""
        if self.clients is not None and self.clients_separate:
            return self.clients.servers
        if self.disaggregated is not None:
            return self.disaggregated.db_servers
        if self.split is not None:
            return self.split.compute_nodes
        if self.topology == "single-server":
            return 1
        return int(self.nodes or 1)

    @property
    def database_vcpu_oversubscription(self) -> float:
        """The vCPU oversubscription a database VM's vCPUs are counted at: the design's ``vcpu_oversubscription``
        where the cluster model hosts the database VMs among the other tenants' (hyperconverged nodes, a Ceph or
        vSAN design's client servers), 1 where the architecture models give each database a server of its own (a
        file-server cluster's database servers, split provisioning's compute node, a single server). One rule for
        the guarantee's vCPU share and the rate the vCPUs carry: the DataON seed's guarantee counted its 16 vCPUs
        at 4:1 beside a rate that counted them whole (browser walk 2026-12-01)."""
        return self.vcpu_oversubscription if self.cluster_engine else 1.0

    @property
    def clients_separate(self) -> bool:
        """A Ceph or vSAN design whose clients run on their own servers."""
        return self.stack != "s2d" and self.topology == "disaggregated"

    @property
    def cluster_engine(self) -> bool:
        """Evaluated by the cluster model (:mod:`planner.engine.performance`): every
        hyperconverged design and every Ceph or vSAN design."""
        return self.topology == "hyperconverged" or self.stack != "s2d"

    @model_validator(mode="after")
    def _topology_parts(self) -> Design:
        sections = {"disaggregated": self.disaggregated, "split": self.split, "single-server": self.single_server}
        if self.stack != "s2d":
            if self.nodes is None or self.node is None:
                missing = "nodes" if self.nodes is None else "node"
                raise ValueError(f"{missing}: required for a {self.stack} design (its storage nodes)")
            if self.disaggregated is not None:
                raise ValueError(
                    "disaggregated: the S2D file-server section; a disaggregated Ceph or vSAN design gives 'clients'"
                )
            if self.topology == "disaggregated" and self.clients is None:
                raise ValueError("clients: required for a disaggregated Ceph or vSAN design (the client servers)")
            for topo, part in sections.items():
                if part is not None:
                    raise ValueError(f"{topo.replace('-', '_')}: not for a {self.stack} design")
            return self
        if self.topology == "hyperconverged":
            if self.nodes is None or self.node is None:
                missing = "nodes" if self.nodes is None else "node"
                raise ValueError(f"{missing}: required for topology 'hyperconverged'")
        else:
            if self.nodes is not None or self.node is not None:
                raise ValueError(
                    f"nodes/node: topology '{self.topology}' describes its servers in "
                    f"'{self.topology.replace('-', '_')}', not in nodes/node"
                )
            if sections[self.topology] is None:
                raise ValueError(f"{self.topology.replace('-', '_')}: required for topology '{self.topology}'")
        for topo, part in sections.items():
            if part is not None and topo != self.topology:
                raise ValueError(
                    f"{topo.replace('-', '_')}: only for topology '{topo}' (this design is '{self.topology}')"
                )
        return self

    @model_validator(mode="after")
    def _platform(self) -> Design:
        if self.infrastructure_volume_tb is not None and self.platform != "azure-local":
            raise ValueError("infrastructure_volume_tb: only for platform 'azure-local' (it creates that volume)")
        if self.stack == "s2d" and self.topology == "hyperconverged" and self.nodes == 1:
            # Microsoft, "Using Azure Local on a single server": volume resiliency two-way mirror
            # (its copies on different drives), no nested resiliency, no cache, one flash drive type
            if self.platform != "azure-local":
                # what to do in either place a design is made: the app's node count, or a file's platform
                raise ValueError(
                    "nodes: a single machine runs Storage Spaces Direct only on Azure Local (Windows Server's "
                    'needs two servers): use 2 or more nodes, or set the design\'s platform to Azure Local ("platform": '
                    '"azure-local" in a design file)'
                )
            if why := resiliency_misfit(self.stack, self.resiliency, 1):
                raise ValueError(f"resiliency: {why}")
        if self.rack_aware:
            n = self.nodes
            if self.platform != "azure-local" or n not in (2, 4, 6, 8):
                raise ValueError(
                    "fault_domains: a rack-aware cluster (two rack fault domains) is Azure Local's, two zones of equal "
                    "size up to four machines each (1+1 to 4+4): platform 'azure-local' and 2, 4, 6 or 8 nodes"
                )
            want = "mirror-2way" if n == 2 else "nested-mirror-2way"
            if self.resiliency != want:
                raise ValueError(
                    f"resiliency: a rack-aware {n // 2}+{n // 2} cluster uses "
                    + (
                        "two-way mirror"
                        if n == 2
                        else "four-way mirror (rack-level nested mirror, 'nested-mirror-2way')"
                    )
                )
        if self.storage_switchless and (self.stack != "s2d" or self.topology != "hyperconverged"):
            # Microsoft's storage switchless patterns are Azure Local's (S2D) hyperconverged clusters'
            raise ValueError(
                "storage_switchless: only for a hyperconverged Storage Spaces Direct / Azure Local design "
                f"(this one is {self.stack} {self.topology})"
            )
        if self.fault_domain_rtt_ms > 0 and not self.cluster_engine:
            raise ValueError(
                f"fault_domain_rtt_ms: the {self.topology} model places no copies across rooms; it is for "
                "hyperconverged clusters and Ceph or vSAN designs"
            )
        return self

    def _resiliency_misfit(self) -> str | None:
        """:func:`resiliency_misfit` of this design's resiliency on its servers and fault domains."""
        return resiliency_misfit(
            self.stack,
            self.resiliency,
            self.node_count,
            self.fault_domain,
            self.fault_domains,
            self.vsan_spec.architecture,
            self.ceph_spec.min_size if self.stack == "ceph" else None,
        )

    @property
    def rack_aware(self) -> bool:
        """Azure Local's rack-aware cluster: two rack fault domains (zones)."""
        return is_rack_aware(self.stack, self.fault_domain, self.fault_domains, self.nodes)

    @model_validator(mode="after")
    def _fault_domains(self) -> Design:
        if not self.cluster_engine:
            return self
        nodes = self.node_count
        if self.stack != "s2d":
            if self.fault_domains is not None and self.fault_domains > nodes:
                raise ValueError("fault_domains cannot exceed nodes")
            try:
                why = self._resiliency_misfit()
            except DesignError as exc:
                raise ValueError(f"{exc.field}: {exc.message}") from None
            if why:
                raise ValueError(why)
            return self
        if self.nodes == 1:
            return self  # the single machine's resiliency is _platform's
        n_fd = self.effective_fault_domains
        need = MIN_FAULT_DOMAINS[self.resiliency]
        if why := self._resiliency_misfit():
            raise ValueError(why)
        if self.fault_domains is not None and self.fault_domains > nodes:
            raise ValueError("fault_domains cannot exceed nodes")
        if self.volume_servers is not None:
            if self.volume_servers > n_fd:
                raise ValueError(f"volume_servers ({self.volume_servers}) cannot exceed the {n_fd} fault domains")
            if self.volume_servers < need:
                raise ValueError(
                    f"volume_servers ({self.volume_servers}) must be at least {need}: "
                    f"'{self.resiliency}' places its copies on distinct servers"
                )
            if self.volume_servers < n_fd and self.resiliency not in DELIMITABLE:
                raise ValueError(
                    f"delimited allocation (volume_servers {self.volume_servers} < {n_fd} servers) is "
                    f"supported for three-way mirror only, not '{self.resiliency}' (Microsoft, "
                    "'Delimit the allocation of volumes in Storage Spaces Direct')"
                )
        return self

    @property
    def effective_volume_servers(self) -> int:
        """Servers each volume spans (every fault domain unless delimited)."""
        return self.volume_servers or self.effective_fault_domains

    @property
    def delimited(self) -> bool:
        return self.effective_volume_servers < self.effective_fault_domains

    @property
    def effective_fault_domains(self) -> int:
        if self.fault_domain == "node" or self.fault_domains is None:
            return self.node_count
        return self.fault_domains

    @property
    def node_spec(self) -> NodeSpec:
        """``node`` of a cluster design, which validation requires (a DesignError otherwise)."""
        if self.node is None:
            raise DesignError(f"topology '{self.topology}' has no cluster node", "node")
        return self.node

    @property
    def disaggregated_spec(self) -> DisaggregatedSpec:
        """The ``disaggregated`` section of an S2D file-server design (a DesignError otherwise)."""
        if self.disaggregated is None:
            raise DesignError(f"topology '{self.topology}' has no file-server section", "disaggregated")
        return self.disaggregated

    @property
    def split_spec(self) -> SplitSpec:
        """The ``split`` section of a split-provisioning design (a DesignError otherwise)."""
        if self.split is None:
            raise DesignError(f"topology '{self.topology}' has no split section", "split")
        return self.split

    @property
    def single_server_spec(self) -> SingleServerSpec:
        """The ``single_server`` section of a single-server design (a DesignError otherwise)."""
        if self.single_server is None:
            raise DesignError(f"topology '{self.topology}' has no single_server section", "single_server")
        return self.single_server

    @property
    def node_count(self) -> int:
        """``nodes`` of a cluster design (hyperconverged, or a Ceph or vSAN design's storage
        nodes), which validation requires; the other topologies count their servers in
        their own section and have none."""
        if self.nodes is None:
            raise DesignError(f"topology '{self.topology}' has no cluster nodes", "nodes")
        return self.nodes


class ResolvedNode(_Strict):
    chassis: Chassis | None
    cpu: Cpu
    sockets: int
    ram_gb: float
    drive: CapacityDrive
    drive_count: int
    cache: CacheDevice | None
    cache_count: int
    nic: Nic
    nic_count: int
    dimm: MemoryModule | None = None
    dimm_count: int = 0
    #: the catalog's memory modules, where the design names no DIMMs: its RAM is built of the cheapest set of
    #: them that the slots hold (planner.physics.dimms.node_dimms), not priced per GB
    ram_modules: tuple[MemoryModule, ...] = ()

    @property
    def cores(self) -> int:
        return self.cpu.cores * self.sockets

    @property
    def threads(self) -> int:
        return self.cpu.threads * self.sockets

    @property
    def network_gbit_s(self) -> float:
        """The NICs' line rate, ports x port speed x cards [Gb/s]; what the node carries is capped at each card's
        host link (:func:`planner.physics.network.nic_bandwidth_bytes_s`)."""
        return self.nic.port_gbit_s * self.nic.ports * self.nic_count

    @property
    def bays_used(self) -> int:
        """Drive bays the node's drives and cache devices take (:func:`planner.models.catalog.bays_taken`)."""
        cache_in_bay = self.cache is not None and self.cache.in_drive_bay
        return int(bays_taken(self.drive_count, self.drive.in_drive_bay, self.cache_count, cache_in_bay))

    @property
    def pcie_slots_used(self) -> int:
        """PCIe slots the node's NICs and add-in drive cards take (:func:`planner.models.catalog.pcie_slots_taken`)."""
        cache_in_slot = self.cache is not None and self.cache.in_pcie_slot
        return int(
            pcie_slots_taken(self.nic_count, self.drive_count, self.drive.in_pcie_slot, self.cache_count, cache_in_slot)
        )


class ResolvedServer(_Strict):
    """A server a design names by its CPU and RAM total, with no drives of its own in the design (a database,
    compute, client or single server; a file server of a shared JBOD): what its RAM is built of, as a node's
    (:mod:`planner.physics.dimms`: the cheapest balanced set of the catalog's modules its slots hold)."""

    #: its chassis, whose DIMM slots hold its RAM (a shared JBOD's file server: the enclosure it sits in); None
    #: where the design names none, and its slots are taken as two per channel of its CPUs
    chassis: Chassis | None = None
    cpu: Cpu
    sockets: int
    ram_gb: float
    #: the catalog's memory modules its RAM is built of
    ram_modules: tuple[MemoryModule, ...] = ()

    # such a server names no DIMMs and holds no PMem: the node's fields the DIMM rule reads (planner.physics.dimms)
    @property
    def dimm(self) -> MemoryModule | None:
        return None

    @property
    def dimm_count(self) -> int:
        return 0

    @property
    def cache(self) -> CacheDevice | None:
        return None

    @property
    def cache_count(self) -> int:
        return 0

    @property
    def threads(self) -> int:
        return self.cpu.threads * self.sockets


class ResolvedClients(ResolvedServer):
    """The client servers of a disaggregated Ceph or vSAN design."""

    servers: int
    nic: Nic
    nic_count: int

    @property
    def network_gbit_s(self) -> float:
        return self.nic.port_gbit_s * self.nic.ports * self.nic_count


class ResolvedDesign(_Strict):
    """A design whose parts are catalog records and that passed every rule."""

    design: Design
    node: ResolvedNode
    clients: ResolvedClients | None = None

    @property
    def nodes(self) -> int:
        return self.design.node_count

    @property
    def cache_mode(self) -> str | None:
        """The S2D cache mode in effect; None without a cache tier.

        S2D's default (Microsoft, *Understanding the storage pool cache*): with
        flash capacity drives the cache is write-only; with HDD capacity drives
        it caches reads and writes. ``design.cache_mode`` overrides it.
        """
        if self.node.cache is None or self.design.stack == "ceph":
            return None  # a Ceph cache device holds BlueStore's DB/WAL, it caches nothing
        if self.design.cache_mode is not None:
            return self.design.cache_mode
        return "read-write" if getattr(self.node.drive, "media", "ssd") == "hdd" else "write-only"

    @property
    def runs_rdma(self) -> bool:
        """Whether the design's IO crosses the network over RDMA: transport RDMA on a NIC the stack's RDMA runs
        on. vSAN's RDMA is RoCE v2 only and falls back to TCP without it (VMware, 'Using RDMA'); an iWARP NIC's
        "RDMA" raised a vSAN design's IOPS by a quarter (architect review 2026-11-30). One rule for the
        performance model, the rule ``vsan_rdma_roce`` and the proposal's network row."""
        if self.design.transport != "rdma":
            return False
        return self.node.nic.roce if self.design.stack == "vsan" else self.node.nic.rdma != "none"


def _closest(name: str, ids: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(ids), n=3, cutoff=0.4)
    return f"; closest: {', '.join(close)}" if close else ""


@overload
def lookup_part(
    catalog: Catalog, device_class: Literal["capacity_drive"], ref: str | CapacityDrive, field: str
) -> CapacityDrive: ...
@overload
def lookup_part(
    catalog: Catalog, device_class: Literal["cache_device"], ref: str | CacheDevice, field: str
) -> CacheDevice: ...
@overload
def lookup_part(catalog: Catalog, device_class: Literal["cpu"], ref: str | Cpu, field: str) -> Cpu: ...
@overload
def lookup_part(catalog: Catalog, device_class: Literal["nic"], ref: str | Nic, field: str) -> Nic: ...
@overload
def lookup_part(catalog: Catalog, device_class: Literal["chassis"], ref: str | Chassis, field: str) -> Chassis: ...
@overload
def lookup_part(
    catalog: Catalog, device_class: Literal["memory_module"], ref: str | MemoryModule, field: str
) -> MemoryModule: ...
@overload
def lookup_part(
    catalog: Catalog, device_class: Literal["raid_controller"], ref: str | RaidController, field: str
) -> RaidController: ...
@overload
def lookup_part(catalog: Catalog, device_class: Literal["fc_hba"], ref: str | FcHba, field: str) -> FcHba: ...
@overload
def lookup_part(catalog: Catalog, device_class: Literal["san_array"], ref: str | SanArray, field: str) -> SanArray: ...
@overload
def lookup_part(
    catalog: Catalog, device_class: Literal["flash_card"], ref: str | FlashCard, field: str
) -> FlashCard: ...
def lookup_part(catalog: Catalog, device_class: str, ref: str | Record, field: str) -> Record:
    """The catalog record ``ref`` names (or ``ref`` itself, an inline spec); an unknown id is a
    :class:`DesignError` naming ``field`` and the closest ids."""
    if not isinstance(ref, str):
        return ref
    records = catalog.of(device_class)
    if ref not in records:
        raise DesignError(f"unknown {device_class.replace('_', ' ')} id '{ref}'{_closest(ref, records)}", field)
    return records[ref]


def resolve(design: Design, catalog: Catalog | None = None) -> ResolvedDesign:
    """Check a design against the catalog and platform rules.

    Parameters
    ----------
    design : Design
        A hyperconverged, Ceph or vSAN cluster design (:func:`load_design`).
    catalog : Catalog, optional
        The parts catalog; default the shipped one (:func:`planner.models.catalog.load_catalog`).

    Returns
    -------
    ResolvedDesign
        ``design`` with its node's parts as catalog records (``node``: chassis, CPU, drives [TB],
        cache devices, NIC [Gbit/s]) and, for a disaggregated design, its ``clients``; ``nodes``,
        the node count [-]; ``cache_mode``, the cache mode in effect.

    Raises
    ------
    DesignError
        naming the field: unknown id (closest ids suggested), more drives than
        bays, a drive interface the bays do not take, more PMem modules than
        PMem slots or a CPU that cannot drive PMem, more sockets than the chassis
        or the CPU supports, a CPU socket that does not fit the chassis, RDMA
        transport on a NIC without RDMA; a design of another topology (those are
        resolved by :mod:`planner.engine.architectures`).
    """
    if not design.cluster_engine:
        raise DesignError(
            # read by customers too (a share link, a file loaded on the Design page): no module names
            f"a {design.topology.replace('-', ' ')} design is not a hyperconverged cluster: its figures come from "
            # what to run instead, in the CLI's and the app's words (it named only the app's page; CLI review
            # 2026-11-29): its cost and parts are the whole cost's
            "its own architecture's model: `hciplan evaluate` and `hciplan cost` (its parts and whole cost) take "
            "it, and the app's Compare page as the system today",
            "topology",
        )
    catalog = catalog or load_catalog()
    if design.node is None:  # Design's validation gives every cluster design its node
        raise DesignError("required for a cluster design", "node")
    node = resolve_node(catalog, design.node, "node", design.stack)
    if node.chassis is not None and node.chassis.shared_bays:
        # Microsoft, "Storage Spaces Direct hardware requirements": drives are internal to the server or in
        # an enclosure connected to just one server; a shared SAS JBOD belongs to Storage Spaces (SOFS)
        raise DesignError(
            f"{node.chassis.name} shares its bays between its nodes (a SAS JBOD for a Storage Spaces file "
            "server); Storage Spaces Direct needs drives local to each server: use topology 'disaggregated' "
            "with backend 'shared-sas'",
            "node.chassis",
        )
    if design.stack == "s2d" and design.nodes == 1 and node.cache is not None:
        raise DesignError(
            "a single machine cannot use a storage pool cache (Microsoft, 'Using Azure Local on a single server': "
            "all-flash, flat configuration); remove cache_devices",
            "node.cache_devices",
        )
    if (
        design.stack == "s2d"
        and (design.nodes == 1 or design.rack_aware)
        and getattr(node.drive, "media", "ssd") == "hdd"
    ):
        what = "a single machine" if design.nodes == 1 else "a rack-aware cluster"
        raise DesignError(f"{what} needs flash capacity drives (NVMe or SSD), not HDD", "node.capacity_drives.model")
    if design.transport == "rdma" and node.nic.rdma == "none":
        raise DesignError(
            # by the NIC's name and the transports' (the Design page showed "intel-x710-2x10g ... use 'tcp'";
            # browser review 2026-11-29); a design file's field is named by the error's own path
            f"the RDMA transport needs an RDMA NIC; {node.nic.vendor} {node.nic.model.split(' (')[0]} has none "
            "(use TCP/IP or an RDMA NIC)",
            "transport",
        )
    if design.stack == "vsan" and design.vsan_spec.architecture == "esa" and node.cache is not None:
        raise DesignError(
            # in the words of both a design file and the Design page (verification walk 2026-12-01: "use
            # vsan.architecture 'osa'" beside the page's own ESA/OSA control)
            "vSAN ESA has no cache tier (a single storage pool of NVMe devices): remove the cache devices, or choose "
            "the OSA architecture (vsan.architecture 'osa' in a design file)",
            "node.cache_devices",
        )
    clients = None
    if design.clients is not None:
        sv = design.clients.server
        if sv.nics is None:  # ClientSpec's validation requires them
            raise DesignError(
                "clients reach the storage nodes over the network; give their NICs", "clients.server.nics"
            )
        cpu = lookup_part(catalog, "cpu", sv.cpu.model, "clients.server.cpu.model")
        nic = lookup_part(catalog, "nic", sv.nics.model, "clients.server.nics.model")
        if sv.cpu.sockets > cpu.max_sockets:
            raise DesignError(
                f"{cpu.name} supports at most {count(cpu.max_sockets, 'socket')}; design asks {sv.cpu.sockets}",
                "clients.server.cpu.sockets",
            )
        server = resolve_server(catalog, sv, cpu, "clients.server")
        clients = ResolvedClients(**dict(server), servers=design.clients.servers, nic=nic, nic_count=sv.nics.count)
    return ResolvedDesign(design=design, node=node, clients=clients)


def resolve_node(catalog: Catalog, n: NodeSpec, prefix: str = "node", stack: str = "s2d") -> ResolvedNode:
    """One node's parts from the catalog, checked against each other; errors name
    the field under ``prefix`` (``node``, ``disaggregated.file_server``) and the node's fast devices in its
    ``stack``'s word (:func:`planner.models.stacks.cache_devices_words`)."""
    chassis = lookup_part(catalog, "chassis", n.chassis, f"{prefix}.chassis") if n.chassis else None
    cpu = lookup_part(catalog, "cpu", n.cpu.model, f"{prefix}.cpu.model")
    drive = lookup_part(catalog, "capacity_drive", n.capacity_drives.model, f"{prefix}.capacity_drives.model")
    cache = (
        lookup_part(catalog, "cache_device", n.cache_devices.model, f"{prefix}.cache_devices.model")
        if n.cache_devices
        else None
    )
    cache_count = n.cache_devices.count if n.cache_devices else 0
    nic = lookup_part(catalog, "nic", n.nics.model, f"{prefix}.nics.model")
    dimm = lookup_part(catalog, "memory_module", n.dimms.model, f"{prefix}.dimms.model") if n.dimms else None
    if dimm is not None:
        _check_dimms(n, dimm, cpu, chassis, cache)

    if n.cpu.sockets > cpu.max_sockets:
        raise DesignError(
            f"{cpu.name} supports at most {count(cpu.max_sockets, 'socket')}; design asks {n.cpu.sockets}",
            f"{prefix}.cpu.sockets",
        )
    if cache is not None and cache.kind == "pmem" and cache.pmem_generation not in cpu.pmem_generations:
        raise DesignError(
            f"{cpu.name} cannot use Optane PMem {cache.pmem_generation} series "
            # in words, not a Python list ("supports: [300]"; architect review 2026-11-30)
            f"(it supports {and_list([f'{g} series' for g in cpu.pmem_generations]) if cpu.pmem_generations else 'none'})",
            f"{prefix}.cache_devices.model",
        )
    if chassis is not None:
        if n.cpu.sockets > chassis.cpu_sockets:
            raise DesignError(
                f"{chassis.name} has {count(chassis.cpu_sockets, 'CPU socket')}; design asks {n.cpu.sockets}",
                f"{prefix}.cpu.sockets",
            )
        if cpu.socket != chassis.cpu_socket_type:
            raise DesignError(
                f"{cpu.name} ({cpu.socket}) does not fit {chassis.name} ({chassis.cpu_socket_type})",
                f"{prefix}.cpu.model",
            )
        # an add-in (HHHL) card takes a PCIe slot and persistent memory a DIMM slot, not a bay: a Dell AX-760 with
        # 12 x 3.5in bays, 12 HDDs and 4 Samsung PM1725 HHHL cards was refused as "16 drives per node" (architect walk)
        cache_in_bay = cache is not None and cache.in_drive_bay
        bay_devices = int(bays_taken(n.capacity_drives.count, drive.in_drive_bay, cache_count, cache_in_bay))
        if bay_devices > chassis.drive_bays:
            # "(capacity + SSD cache)" only when both take bays: an all-NVMe node has no cache. A Ceph node's are its
            # DB/WAL devices, in the stack's word (pre-sales Ceph walk 2026-12-03)
            what = " + ".join(
                f"{k} {tier}" if drive.in_drive_bay and cache_in_bay else tier
                for k, tier, in_bay in (
                    (n.capacity_drives.count, "capacity", drive.in_drive_bay),
                    (cache_count, cache_devices_words(stack).removesuffix(" devices"), cache_in_bay),
                )
                if in_bay
            )
            raise DesignError(
                f"{bay_devices} drives per node ({what}) but {chassis.name} has {chassis.drive_bays} bays",
                f"{prefix}.{'capacity_drives' if drive.in_drive_bay else 'cache_devices'}.count",
            )
        if drive.in_drive_bay and drive.interface not in chassis.bay_interfaces:
            raise DesignError(
                f"{chassis.name} bays take {', '.join(chassis.bay_interfaces)}, not {drive.interface}",
                f"{prefix}.capacity_drives.model",
            )
        if cache is not None and cache.kind == "pmem":
            slots = chassis.pmem_slots * n.cpu.sockets // max(chassis.cpu_sockets, 1)
            if cache_count > slots:
                raise DesignError(
                    f"{cache_count} PMem modules but {chassis.name} with "
                    f"{count(n.cpu.sockets, 'socket')} has {slots} PMem slots",
                    f"{prefix}.cache_devices.count",
                )
        if n.ram_gb > chassis.max_ram_gb:
            raise DesignError(
                f"{n.ram_gb:g} GB RAM exceeds {chassis.name}'s maximum of {chassis.max_ram_gb:g} GB",
                f"{prefix}.ram_gb",
            )
    return ResolvedNode(
        chassis=chassis,
        cpu=cpu,
        sockets=n.cpu.sockets,
        ram_gb=n.ram_gb,
        drive=drive,
        drive_count=n.capacity_drives.count,
        cache=cache,
        cache_count=cache_count,
        nic=nic,
        nic_count=n.nics.count,
        dimm=dimm,
        dimm_count=n.dimms.count if n.dimms else 0,
        ram_modules=() if dimm is not None else tuple(catalog.memory_module.values()),
    )


def check_server_chassis(catalog: Catalog, server: ServerSpec | NodeSpec, cpu: Cpu, field: str) -> Chassis | None:
    """A server's chassis against its CPU and RAM (errors name ``field``): the socket fits, the
    sockets exist, the RAM fits. Returns the chassis record or None."""
    if server.chassis is None:
        return None
    ch = lookup_part(catalog, "chassis", server.chassis, f"{field}.chassis")
    if cpu.socket != ch.cpu_socket_type:
        raise DesignError(
            f"{cpu.name} ({cpu.socket}) does not fit {ch.name} ({ch.cpu_socket_type})", f"{field}.cpu.model"
        )
    if server.cpu.sockets > ch.cpu_sockets:
        raise DesignError(
            f"{ch.name} has {count(ch.cpu_sockets, 'CPU socket')} per node; design asks {server.cpu.sockets}",
            f"{field}.cpu.sockets",
        )
    if server.ram_gb > ch.max_ram_gb:
        raise DesignError(
            f"{server.ram_gb:g} GB RAM exceeds {ch.name}'s maximum of {ch.max_ram_gb:g} GB", f"{field}.ram_gb"
        )
    return ch


def resolve_server(
    catalog: Catalog, server: ServerSpec, cpu: Cpu, field: str, chassis: Chassis | None = None
) -> ResolvedServer:
    """A server named by its CPU and RAM total (:class:`ResolvedServer`): its chassis checked against its CPU and
    RAM (:func:`check_server_chassis`; ``chassis``: the enclosure a shared JBOD's file server sits in, checked so
    in its stead), its RAM to be built of the catalog's modules. Errors name fields under ``field``."""
    if chassis is not None:
        check_server_chassis(catalog, server.model_copy(update={"chassis": chassis}), cpu, field)
        ch: Chassis | None = chassis
    else:
        ch = check_server_chassis(catalog, server, cpu, field)
    return ResolvedServer(
        chassis=ch,
        cpu=cpu,
        sockets=server.cpu.sockets,
        ram_gb=server.ram_gb,
        ram_modules=tuple(catalog.memory_module.values()),
    )


def _check_dimms(n: NodeSpec, dimm: MemoryModule, cpu: Cpu, chassis: Chassis | None, cache: CacheDevice | None) -> None:
    """DIMMs: ram_gb is what they add up to, of the memory type the CPU and
    chassis take, in the slots of the populated sockets (PMem modules share
    them)."""
    assert n.dimms is not None, "called for a node that gives its DIMMs"
    total = n.dimms.count * dimm.capacity_gb
    if abs(total - n.ram_gb) > 1e-6 * max(total, 1.0):
        raise DesignError(
            f"ram_gb {n.ram_gb:g} differs from the DIMMs' {n.dimms.count} x {dimm.capacity_gb:g} GB = {total:g} GB",
            "node.ram_gb",
        )
    owners: tuple[Cpu | Chassis | None, ...] = (cpu, chassis)
    for owner in owners:
        if owner is None:
            continue
        mt = getattr(owner, "memory_type", None)
        if mt is not None and mt != dimm.memory_type:
            raise DesignError(
                f"{dimm.name} is {dimm.memory_type.upper()}; {owner.name} takes {mt.upper()}", "node.dimms.model"
            )
    if chassis is not None:
        pmem = (
            n.cache_devices.count if n.cache_devices is not None and cache is not None and cache.kind == "pmem" else 0
        )
        slots = chassis.dimm_slots * n.cpu.sockets // max(chassis.cpu_sockets, 1) - pmem
        if n.dimms.count > slots:
            raise DesignError(
                f"{n.dimms.count} DIMMs but {chassis.name} with {count(n.cpu.sockets, 'socket')} has {slots} "
                f"DIMM slots{' left beside the PMem modules' if pmem else ''}",
                "node.dimms.count",
            )


def parse_design(data: dict[str, Any] | str | bytes) -> Design:
    """Validate a design from a dict or JSON text; errors name the field."""
    return parse_json_model(data, Design, DesignError, "design", max_bytes=MAX_DESIGN_FILE_BYTES)


def load_design(path: str | Path, field: str = "design") -> Design:
    """A design file, parsed and validated (not yet checked against the catalog: :func:`resolve`).

    Parameters
    ----------
    path : str or Path
        The design file, JSON of at most :data:`MAX_DESIGN_FILE_BYTES` [bytes]; the shipped examples
        are under :data:`planner.models.examples.EXAMPLES`.
    field : str, default "design"
        How an error names the file (the option it came from: ``existing``).

    Returns
    -------
    Design
        The frozen design: ``name``, ``stack``, ``topology``, ``nodes`` [-], ``node`` (its parts by
        catalog id and count), ``resiliency``, ``transport`` and the stack's own sections.

    Raises
    ------
    DesignError
        In one line naming ``field`` and the field at fault: a missing or unreadable file, JSON that is
        not a design, a value out of range.
    """
    return load_json_model(path, Design, DesignError, field, max_bytes=MAX_DESIGN_FILE_BYTES)


#: the what-ifs of a cluster's own fields (a design of another topology sets its storage in its own section)
CLUSTER_ONLY = ("transport", "resiliency", "cache_mode", "cpu_utilization_cap", "volume_servers")

#: the settings only a Storage Spaces Direct design uses: its volume placement, mirror share, reserve policy and CSV
#: cache (a Ceph design's RAM is its OSDs', a vSAN design's is not modelled)
S2D_ONLY_FIELDS = ("volume_servers", "mirror_share", "reserve_policy", "csv_cache_gb", "storage_switchless")


def unused_fields(stack: str) -> tuple[str, ...]:
    """The top-level design fields a ``stack`` does not use: the other stacks' sections, S2D's own settings on
    Ceph or vSAN, the cache mode on Ceph (its fast devices hold BlueStore's DB/WAL), client servers on S2D."""
    other = tuple(sec for sec in ("ceph", "vsan") if sec != stack)
    if stack == "s2d":
        return (*other, "clients")
    return other + S2D_ONLY_FIELDS + (("cache_mode",) if stack == "ceph" else ())


def dump_design(design: Design, exclude_none: bool = False) -> dict[str, Any]:
    """The design as JSON with only the fields its stack uses (:func:`unused_fields`): the one rule for every dump
    (the sizer's results, a proposal, a session, the app's state). A Ceph design's dump carried S2D's mirror_share
    0.2, reserve_policy and csv_cache_gb 1.074 (Ceph operator walk); it parses back to the same design."""
    data = design.model_dump(mode="json", exclude_none=exclude_none)
    for k in unused_fields(design.stack):
        data.pop(k, None)
    return data


def override_refused(design: Design, changes: dict[str, Any]) -> tuple[str, str] | None:
    """The first of ``changes`` (top-level fields and their new values, None dropped) that does not apply to
    ``design``'s topology or stack, and why, as ``(field, message)``; None when every one applies.

    A what-if of a field the design keeps elsewhere blamed the design file: `sla seed-datrium-dvx --nodes 2` said
    "design: nodes/node: topology 'split' describes its servers in 'split'" (DBA review 2026-11-30), and a cluster's
    field on a split design changed nothing and said so nowhere (`evaluate seed-datrium-dvx --resiliency mirror-3way`
    still ec-8+2; CLI review 2026-11-29). The message says the change does not apply, to which design, and where
    that design keeps it."""
    section = design.topology.replace("-", "_")
    if not design.cluster_engine:
        # a file-server, split or single-server design keeps its servers and their settings in its own section
        where = (
            f"a {design.topology} design gives its servers and their settings in its '{section}' section of the file"
        )
        for k in ("nodes", *NODE_OVERRIDES):
            if k in changes:
                return k, f"does not apply to a {design.topology} design: {where}"
        if changes.get("stack", design.stack) != design.stack:
            return "stack", (
                f"does not apply to a {design.topology} design: only a cluster (hyperconverged, or a disaggregated "
                f"Ceph or vSAN design) changes its storage stack; {where}"
            )
        for k in CLUSTER_ONLY:
            if k in changes:
                return k, (
                    f"does not apply to a {design.topology} design: it applies to a cluster (hyperconverged, Ceph or "
                    f"vSAN); {where}"
                )
        return None
    stack = changes.get("stack", design.stack)
    if stack != "s2d":
        # S2D's own settings named as the flag, not as the design ("design: volume_servers: a Storage Spaces Direct
        # setting")
        own = ("volume_servers", "cache_mode") if stack == "ceph" else ("volume_servers",)
        for k in own:
            if k in changes:
                return k, f"does not apply to a {stack} design: a Storage Spaces Direct setting"
    return None


#: the node's parts a what-if changes by name (``hciplan evaluate --capacity-drive``): override -> (the node's part
#: set, its field)
NODE_OVERRIDES = {
    "capacity_drive": ("capacity_drives", "model"),
    "drives_per_node": ("capacity_drives", "count"),
    "nic": ("nics", "model"),
    "nics_per_node": ("nics", "count"),
}


def with_overrides(design: Design, **changes: Any) -> Design:
    """A copy of ``design`` with top-level fields changed, re-validated: a what-if.

    Parameters
    ----------
    design : Design
        The design to start from; it is not changed (designs are frozen).
    **changes
        Top-level fields of :class:`Design` and their new values, e.g. ``nodes=4`` [-],
        ``resiliency="mirror-2way"``, ``cpu_utilization_cap=0.8`` [-], or a node's parts by the names of
        :data:`NODE_OVERRIDES` (``capacity_drive`` and ``nic``: catalog ids; ``drives_per_node`` and
        ``nics_per_node`` [-]); a value of None leaves the field as it is.

    Returns
    -------
    Design
        The changed design, validated as a design file is.

    Raises
    ------
    DesignError
        Naming the field: a value a design may not have, or a cluster's field (``transport``,
        ``resiliency``, ``cache_mode``, ``cpu_utilization_cap``, ``volume_servers``) changed on a
        design of another topology, which keeps them in its own section.

    Notes
    -----
    A change of ``stack`` without a resiliency maps the resiliency to the new
    stack's equivalent (three-way mirror, replica-3, RAID-1 FTT=2; see
    :data:`planner.models.stacks.EQUIVALENT`), takes TCP for Ceph, and drops the
    settings the new stack does not have (the old stack's section, S2D's volume
    placement, reserve policy and mirror share).
    """
    data = design.model_dump(mode="json")
    changes = {k: v for k, v in changes.items() if v is not None}
    refused = override_refused(design, changes)
    if refused is not None:
        raise DesignError(refused[1], refused[0])
    new = changes.get("stack")
    if new is not None and new != design.stack:
        if "resiliency" not in changes:
            changes["resiliency"] = equivalent_resiliency(design.resiliency, new, changes.get("nodes", design.nodes))
        if new == "ceph" and "transport" not in changes:
            changes["transport"] = "tcp"
        for k in unused_fields(new):
            data.pop(k, None)
        if new == "s2d" and design.topology == "disaggregated":
            data["topology"] = "hyperconverged"
    before = dict(data)
    node = {k: changes.pop(k) for k in list(changes) if k in NODE_OVERRIDES}
    data.update(changes)
    for k, v in node.items():  # a new node dict: ``before`` keeps the parts the name may have been made from
        part, field = NODE_OVERRIDES[k]
        data["node"] = {**data["node"], part: {**data["node"][part], field: v}}
    # a name made from the parts follows them (evaluate --nodes 16 printed "4x dell-r750 ..." beside 16 nodes; stop
    # 55 walk); a name the user gave, or one changed here, stays: follow_name, the Design page's rule
    return parse_design(follow_name(before, data))


def parts_name(
    nodes: int,
    chassis: str | None,
    sockets: int,
    cpu: str,
    drives: int,
    drive: str,
    caches: int = 0,
    cache: str | None = None,
    nic: str = "",
    nic_count: int = 1,
    resiliency: str = "",
) -> str:
    """The name a design gets from its parts: ``"8x dell-ax-760 2xxeon-6430 8xmicron-7450 cx6-lx mirror-3way"``.

    One implementation for the sizer (which names every candidate so) and for an edited design
    whose name was made so (:func:`follow_name`): a name that lists parts never lists old ones."""
    nic_part = nic if nic_count == 1 else f"{nic_count}x{nic}"
    head = f"{nodes}x {chassis} " if chassis else f"{nodes}x "
    return (
        f"{head}{sockets}x{cpu} {drives}x{drive}{' + ' + str(caches) + 'x' + cache if cache else ''} "
        f"{nic_part} {resiliency}"
    )


def _part_id(ref: Any) -> str | None:
    """A catalog id, or an inline spec's id."""
    if ref is None or isinstance(ref, str):
        return ref
    return ref.get("id") if isinstance(ref, dict) else getattr(ref, "id", None)


def design_parts_name(design: dict[str, Any]) -> str | None:
    """:func:`parts_name` of a hyperconverged design (a dict as in a design file), or None for
    another architecture or an incomplete draft."""
    try:
        n = design["node"]
        cache = n.get("cache_devices") or {}
        cpu, drive, nic = (
            _part_id(n["cpu"]["model"]),
            _part_id(n["capacity_drives"]["model"]),
            _part_id(n["nics"]["model"]),
        )
        if cpu is None or drive is None or nic is None:  # an incomplete draft
            return None
        return parts_name(
            int(design["nodes"]),
            _part_id(n.get("chassis")),
            int(n["cpu"].get("sockets", 2)),
            cpu,
            int(n["capacity_drives"]["count"]),
            drive,
            int(cache.get("count", 0)) if cache else 0,
            _part_id(cache.get("model")) if cache else None,
            nic,
            int(n["nics"].get("count", 1)),
            str(design.get("resiliency", "mirror-3way")),
        )
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def follow_name(before: dict[str, Any] | None, after: dict[str, Any]) -> dict[str, Any]:
    """``after`` with its name following its parts when the name was made from the parts of
    ``before`` and the edit did not rename it (a sized design edited to 8 nodes is no longer
    "13x ..."); a name the user gave stays. Returns ``after`` itself when nothing changes."""
    if not before or after.get("name") != before.get("name"):
        return after
    old, new = design_parts_name(before), design_parts_name(after)
    if old is None or new is None or before.get("name") != old or new == old:
        return after
    return {**after, "name": new[:200]}


# said when one kind of file is given for another (planner.core.jsonio.other_kind)
file_kind(Design, "a design file")
