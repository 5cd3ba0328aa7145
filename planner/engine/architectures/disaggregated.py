"""Disaggregated file-server cluster: database servers (compute only) reach a
small scale-out file server (SOFS) cluster over SMB3; the file servers keep
the data on Storage Spaces with a cache tier and a two- or three-way mirror.

Stations (per IO, seconds):

``vm_vcpu``            the VM's vCPUs (guest CPU / vCPUs)
``host_cpu``           database servers' LPs: guest CPU + the SMB client's share
                       of a network crossing + per-KiB cost
``client_network``     database servers' NIC ports: one front-end crossing per IO
                       (bytes / (servers x ports x speed), SMB Multichannel)
``storage_network``    file servers' NIC ports: the front-end crossing plus the
                       east-west mirror copies (:func:`planner.physics.resiliency.remote_writes_per_write`)
``file_server_cpu``    file servers' LPs: the fitted S2D host CPU per read / per
                       backend write, the SMB server's share of the front-end
                       crossing, east-west crossings, cache destage
``cache``              cache devices: reads that hit, writes (write-back tier)
``capacity_drives``    capacity drives: reads that miss; destage off the path

That is ``backend: storage-spaces-direct``. With ``backend: shared-sas`` the file
servers are a Windows Server 2012 R2 Scale-Out File Server on a shared SAS JBOD
(a cluster-in-a-box such as DataON's CiB-9224): see :func:`network_shared_sas`.

Everything below the database servers is the hyperconverged model's storage
side (:mod:`planner.physics.cache`, :mod:`planner.physics.resiliency`, :mod:`planner.physics.devices`,
the fitted drive efficiency and CPU costs) with the compute moved to other
hosts. The fitted per-crossing host CPU (both ends of an S2D crossing together)
is split equally between the SMB client and server: an assumption.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from planner.core.errors import DesignError
from planner.core.text import count, pct
from planner.engine.architectures.common import (
    HOST_CPU,
    US,
    VM_VCPU,
    Network,
    issuer_population,
    issuer_rows,
    server_cpu,
    usable_lps,
    vm_delays,
    workload_rates,
)
from planner.models.catalog import CacheDevice, CapacityDrive, Catalog, Chassis, Cpu, Nic
from planner.models.design import (
    Design,
    DisaggregatedSpec,
    NicSet,
    NodeSpec,
    ResolvedNode,
    ResolvedServer,
    ServerSpec,
    SharedJbodSpec,
    lookup_part,
    resolve_node,
    resolve_server,
)
from planner.models.params import ModelParams
from planner.models.workload import Workload
from planner.physics import cache as cache_mod
from planner.physics import cpu as cpu_mod
from planner.physics import devices, resiliency
from planner.physics import network as net_mod
from planner.physics.capacity import RESILIENCY_CODES, capacity_all_flash, raw_capacity_tb, usable_capacity_tb

STATIONS = (VM_VCPU, HOST_CPU, "client_network", "storage_network", "file_server_cpu", "cache", "capacity_drives")
LABELS = {
    VM_VCPU: "VM vCPUs",
    HOST_CPU: "database server CPU",
    "client_network": "database server NICs",
    "storage_network": "file server NICs",
    "file_server_cpu": "file server CPU",
    "cache": "file server cache",
    "capacity_drives": "file server capacity drives",
}
WHAT = {
    VM_VCPU: "the VM's vCPUs: guest CPU per IO (fitted on S2D) / vCPUs",
    HOST_CPU: "database servers' LPs: guest CPU + the SMB client's half of a crossing + per-KiB cost",
    "client_network": "database servers' NIC ports (SMB Multichannel): one crossing per IO",
    "storage_network": "file servers' NIC ports: the front-end crossing plus east-west mirror copies",
    "file_server_cpu": "file servers' LPs: S2D host CPU per read / backend write, crossings, destage (fitted)",
    "cache": "cache tier devices (datasheet): reads that hit, writes landing in a write-back tier",
    "capacity_drives": "capacity drives (datasheet x fitted efficiency): read misses; destage off the path",
}
#: database-server counts the report sweeps to show where the file servers saturate
SCALING = (1, 2, 4, 8)
#: share of sustained writes a Storage Spaces 2012 R2 write-back cache stages (assumption
#: ``write_back_cache_bursts_only``): none. The cache (1 GB per virtual disk) absorbs bursts
#: ("Write-Back Cache to absorb brief spikes in write activity", A. Finn, Petri 2014; Microsoft:
#: it "buffers small random writes ... reducing the latency of writes"); once it is full the
#: writes queue on their tier, so in a sustained run every write goes to the tier of its block
WBC_SUSTAINED_SHARE = 0.0


#: stations of the shared-SAS backend (the JBOD's two tiers instead of cache and capacity drives)
SAS_STATIONS = (VM_VCPU, HOST_CPU, "client_network", "storage_network", "file_server_cpu", "fast_tier", "capacity_tier")
LABELS.update({"fast_tier": "JBOD fast tier (SSD)", "capacity_tier": "JBOD capacity tier"})
#: what raises each station's capacity, said where it binds a database (``database_capacity.raises_it``)
RAISES = {
    VM_VCPU: "a VM of more vCPUs",
    HOST_CPU: "more or faster database server cores",
    "client_network": "faster database server NICs",
    "storage_network": "faster file server NICs, or more file servers",
    "file_server_cpu": "more or faster file server cores, or more file servers",
    "cache": "more or faster cache devices in the file servers",
    "capacity_drives": "more or faster capacity drives in the file servers",
    "fast_tier": "more or faster SSDs in the JBOD's fast tier",
    "capacity_tier": "more or faster drives in the JBOD's capacity tier",
}
WHAT.update(
    {
        "fast_tier": "shared JBOD's fast-tier SSDs (datasheet): their share of reads, the write-back cache's "
        "copies on the path, destage reads and their share of tier writes off it",
        "capacity_tier": "shared JBOD's capacity-tier drives (datasheet): their share of reads; tier writes "
        "(every copy, over SAS from the owner node) off the path",
    }
)


@dataclass(frozen=True)
class Jbod:
    """The shared SAS JBOD's resolved parts."""

    fast: CacheDevice | None
    fast_count: int
    drive: CapacityDrive
    drive_count: int
    enclosure: Chassis | None


@dataclass(frozen=True)
class Parts:
    spec: DisaggregatedSpec
    db_cpu: Cpu
    db_sockets: int
    db_nic: Nic
    db_nic_count: int
    #: a database server's CPU, RAM and chassis, its RAM to be built of DIMMs (planner.physics.dimms)
    db_memory: ResolvedServer
    fs: ResolvedNode | None = None
    #: a shared JBOD's file server's CPU, RAM and chassis (the enclosure it sits in, when one is named)
    fs_memory: ResolvedServer | None = None
    fs_cpu: Cpu | None = None
    fs_nic: Nic | None = None
    jbod: Jbod | None = None

    @property
    def db_lps(self) -> float:
        return float(self.db_cpu.threads * self.db_sockets)

    @property
    def shared_sas(self) -> bool:
        return self.spec.backend == "shared-sas"

    @property
    def node(self) -> ResolvedNode:
        """One file server's resolved parts (backend storage-spaces-direct)."""
        if self.fs is None:
            raise DesignError("a shared-SAS file server has no drives of its own", "disaggregated.backend")
        return self.fs

    @property
    def shared(self) -> Jbod:
        """The shared JBOD's resolved parts (backend shared-sas)."""
        if self.jbod is None:
            raise DesignError("only backend 'shared-sas' has a shared JBOD", "disaggregated.shared_jbod")
        return self.jbod

    @property
    def jbod_spec(self) -> SharedJbodSpec:
        """The design's shared JBOD section (backend shared-sas)."""
        if self.spec.shared_jbod is None:
            raise DesignError("only backend 'shared-sas' has a shared JBOD", "disaggregated.shared_jbod")
        return self.spec.shared_jbod

    @property
    def file_cpu(self) -> Cpu:
        if self.shared_sas and self.fs_cpu is not None:
            return self.fs_cpu
        return self.node.cpu

    @property
    def file_nic(self) -> Nic:
        if self.shared_sas and self.fs_nic is not None:
            return self.fs_nic
        return self.node.nic

    @property
    def file_lps(self) -> float:
        """Logical processors of one file server."""
        return float(self.file_cpu.threads * self.spec.file_server.cpu.sockets)

    @property
    def capacity_drive(self) -> CapacityDrive:
        return self.shared.drive if self.shared_sas else self.node.drive

    @property
    def cache_mode(self) -> str | None:
        if self.shared_sas:
            return "tiered (write-back cache)" if self.jbod_spec.write_cache_gb > 0 else "tiered"
        if self.node.cache is None:
            return None
        if self.spec.cache_mode is not None:
            return self.spec.cache_mode
        return "read-write" if self.node.drive.media == "hdd" else "write-only"


def resolve_parts(design: Design, catalog: Catalog) -> Parts:
    spec = design.disaggregated
    pre = "disaggregated"
    if spec is None:  # Design's validation requires the section for this topology
        raise DesignError("required for topology 'disaggregated'", pre)
    db_nics = _nics(spec.db_server, f"{pre}.db_server")
    cpu, _, _ = server_cpu(catalog, spec.db_server.cpu, f"{pre}.db_server.cpu")
    nic = lookup_part(catalog, "nic", db_nics.model, f"{pre}.db_server.nics.model")
    db_memory = resolve_server(catalog, spec.db_server, cpu, f"{pre}.db_server")
    if spec.backend == "shared-sas":
        return _resolve_shared_sas(spec, catalog, db_memory, nic)
    if not isinstance(spec.file_server, NodeSpec):  # DisaggregatedSpec's validation: drives with this backend
        raise DesignError("needs capacity_drives (backend 'storage-spaces-direct')", f"{pre}.file_server")
    fs = resolve_node(catalog, spec.file_server, f"{pre}.file_server")
    if spec.transport == "rdma":
        for who, n in (("db_server", nic), ("file_server", fs.nic)):
            if n.rdma == "none":
                raise DesignError(
                    f"transport 'rdma' (SMB Direct) needs RDMA NICs; {n.id} has none (use 'tcp')",
                    f"{pre}.{who}.nics.model",
                )
    return Parts(
        spec=spec,
        db_cpu=cpu,
        db_sockets=spec.db_server.cpu.sockets,
        db_nic=nic,
        db_nic_count=db_nics.count,
        db_memory=db_memory,
        fs=fs,
    )


def _nics(server: ServerSpec | NodeSpec, field: str) -> NicSet:
    """A server's NICs, which DisaggregatedSpec's validation requires (SMB3 crosses the network)."""
    if server.nics is None:
        raise DesignError(
            "servers of a disaggregated design reach each other over the network; give their NICs", f"{field}.nics"
        )
    return server.nics


def _resolve_shared_sas(spec: DisaggregatedSpec, catalog: Catalog, db_memory: ResolvedServer, db_nic: Nic) -> Parts:
    pre = "disaggregated"
    fs_cpu, _, _ = server_cpu(catalog, spec.file_server.cpu, f"{pre}.file_server.cpu")
    fs_nic = lookup_part(
        catalog, "nic", _nics(spec.file_server, f"{pre}.file_server").model, f"{pre}.file_server.nics.model"
    )
    j = spec.shared_jbod
    jp = f"{pre}.shared_jbod"
    if j is None:  # DisaggregatedSpec's validation requires it with this backend
        raise DesignError("required for backend 'shared-sas'", jp)
    drive = lookup_part(catalog, "capacity_drive", j.capacity_tier.model, f"{jp}.capacity_tier.model")
    fast = lookup_part(catalog, "cache_device", j.fast_tier.model, f"{jp}.fast_tier.model") if j.fast_tier else None
    if fast is not None and fast.kind not in ("sas", "sata"):
        raise DesignError(
            f"{fast.name} is {fast.kind}; a shared SAS JBOD holds dual-ported SAS (or SATA behind interposers) drives",
            f"{jp}.fast_tier.model",
        )
    if drive.interface == "nvme":
        raise DesignError(
            f"{drive.name} is NVMe; a shared SAS JBOD holds SAS drives reachable from every node",
            f"{jp}.capacity_tier.model",
        )
    enclosure = None
    if j.enclosure is not None:
        enclosure = lookup_part(catalog, "chassis", j.enclosure, f"{jp}.enclosure")
        if not enclosure.shared_bays:
            raise DesignError(
                f"{enclosure.name}'s bays belong to one server each; a shared JBOD needs an enclosure with "
                "shared_bays (a cluster-in-a-box)",
                f"{jp}.enclosure",
            )
        if spec.file_servers > enclosure.nodes_per_enclosure * j.enclosures:
            raise DesignError(
                f"{spec.file_servers} file servers but {j.enclosures} x {enclosure.name} hold "
                f"{enclosure.nodes_per_enclosure * j.enclosures}",
                f"{pre}.file_servers",
            )
        bays = enclosure.drive_bays * j.enclosures
        devices = j.capacity_tier.count + (j.fast_tier.count if j.fast_tier else 0)
        if devices > bays:
            raise DesignError(
                f"{devices} drives (both tiers) but {j.enclosures} x {enclosure.name} have {bays} bays",
                f"{jp}.capacity_tier.count",
            )
        for dev, fld in ((drive.interface, "capacity_tier"), (fast.kind if fast else None, "fast_tier")):
            if dev is not None and dev not in enclosure.bay_interfaces:
                raise DesignError(
                    f"{enclosure.name} bays take {', '.join(enclosure.bay_interfaces)}, not {dev}", f"{jp}.{fld}.model"
                )
    fsv = spec.file_server
    if not isinstance(fsv, ServerSpec):  # DisaggregatedSpec's validation: no drives of its own with this backend
        raise DesignError("the drives are in shared_jbod, not in each file server", f"{pre}.file_server")
    # its DIMM slots are the enclosure's it sits in (the record's are per node), else its own chassis's
    fs_memory = resolve_server(catalog, fsv, fs_cpu, f"{pre}.file_server", enclosure)
    if spec.transport == "rdma":
        for who, n in (("db_server", db_nic), ("file_server", fs_nic)):
            if n.rdma == "none":
                raise DesignError(
                    f"transport 'rdma' (SMB Direct) needs RDMA NICs; {n.id} has none (use 'tcp')",
                    f"{pre}.{who}.nics.model",
                )
    return Parts(
        spec=spec,
        db_cpu=db_memory.cpu,
        db_sockets=spec.db_server.cpu.sockets,
        db_nic=db_nic,
        db_nic_count=_nics(spec.db_server, f"{pre}.db_server").count,
        db_memory=db_memory,
        fs_memory=fs_memory,
        fs_cpu=fs_cpu,
        fs_nic=fs_nic,
        jbod=Jbod(
            fast=fast,
            fast_count=j.fast_tier.count if j.fast_tier else 0,
            drive=drive,
            drive_count=j.capacity_tier.count,
            enclosure=enclosure,
        ),
    )


def owner_nodes(virtual_disks: int, file_servers: int) -> float:
    """File servers that share the SMB and Storage Spaces work, counted as equal servers: each
    virtual disk is owned by one node at a time and its clients are sent there (Windows Server
    2012 R2 Scale-Out File Server rebalancing), so the busiest node carries
    ``ceil(V / n) / V`` of the load and the nodes work like ``V / ceil(V / n)`` of them."""
    v = max(int(virtual_disks), 1)
    return v / math.ceil(v / max(int(file_servers), 1))


def network_shared_sas(parts: Parts, w: Workload, p: ModelParams, db_servers: int | None = None) -> Network:
    """Scale-Out File Server on Storage Spaces over a shared SAS JBOD (Windows Server 2012 R2).

    Per IO: the database server's SMB client (host CPU, its NICs); one SMB3 crossing to the
    virtual disk's owner node (its NICs: the network carries the front-end bytes only); the
    owner node's CPU (``file_server_cpu_us_per_io``, an assumption); the JBOD. Reads go to the
    tier that holds the block (``fast_tier_share`` of them to the fast tier: uniform access,
    the 2012 R2 tiering moves 1 MB slabs by heat once a day, so with no hot spots a tier serves
    its share of the data). Writes go to the tier that holds their block, every copy over SAS
    from the owner node: the virtual disk's write-back cache (1 GB by default) on the fast
    tier's SSDs absorbs write *bursts* and, once full, leaves the writes to their tier
    (:data:`WBC_SUSTAINED_SHARE`, assumption ``write_back_cache_bursts_only``), so it changes
    neither the sustained write path nor what a sustained run can carry. The mirror's copies
    travel over SAS from the owner node, never over the network.
    """
    spec, j, jb = parts.spec, parts.jbod_spec, parts.shared
    n_db = spec.db_servers if db_servers is None else db_servers
    n_own = owner_nodes(j.virtual_disks or n_db, spec.file_servers)
    bs, r = float(w.block_size_kib), float(w.read_fraction)
    copies = float(resiliency.backend_writes_per_write(RESILIENCY_CODES[spec.resiliency]))
    tcp = spec.transport == "tcp"
    hop_lat = (p.hop_latency_us + (p.tcp_hop_latency_us if tcp else 0.0)) * US

    issuers, n_out, has_pop = issuer_population(w, n_db)
    db_scale = float(cpu_mod.clock_scale(parts.db_cpu.base_ghz))
    client_s = (spec.smb_client_cpu_us_per_io + spec.smb_cpu_us_per_kib * bs) * db_scale * US
    rows, cpu, guest, vcpus = issuer_rows(p, w, parts.db_cpu.base_ghz, parts.db_lps * n_db, (client_s, client_s))

    fs_scale = float(cpu_mod.clock_scale(parts.file_cpu.base_ghz))
    fs_io = (spec.file_server_cpu_us_per_io + spec.smb_cpu_us_per_kib * bs) * fs_scale * US
    fs_lps = usable_lps(p, parts.file_lps * n_own)

    f = j.fast_tier_share if jb.fast is not None else 0.0
    d = jb.drive
    t_dr = float(devices.busy_time_s(bs, d.rand_read_4k_iops, d.seq_read_mb_s))
    t_dw = float(devices.busy_time_s(bs, d.rand_write_4k_iops, d.seq_write_mb_s))
    if jb.fast is not None:
        c = jb.fast
        t_fr = float(devices.busy_time_s(bs, c.rand_read_4k_iops, c.seq_read_mb_s))
        t_fw = float(devices.busy_time_s(bs, c.rand_write_4k_iops, c.seq_write_mb_s))
        n_fast, fast_r_us, fast_w_us = jb.fast_count, c.read_latency_us, c.write_latency_us
    else:
        t_fr, t_fw, n_fast, fast_r_us, fast_w_us = t_dr, t_dw, jb.drive_count, d.read_latency_us, d.write_latency_us
    n_cap = jb.drive_count
    # share of sustained writes that pass through the write-back cache (bursts only: none)
    staged = WBC_SUSTAINED_SHARE if j.write_cache_gb > 0 else 0.0

    db_bw = float(net_mod.nic_bandwidth_bytes_s(parts.db_nic, parts.db_nic_count))
    fs_bw = float(
        net_mod.nic_bandwidth_bytes_s(parts.file_nic, _nics(spec.file_server, "disaggregated.file_server").count)
    )
    path = np.zeros((2, 7))
    path[:, :2] = rows
    path[:, 2] = float(net_mod.wire_demand_s(1.0, bs, n_db, db_bw))
    path[:, 3] = float(net_mod.wire_demand_s(1.0, bs, n_own, fs_bw))
    path[:, 4] = fs_io / fs_lps
    path[0, 5] = f * t_fr / n_fast
    path[0, 6] = (1.0 - f) * t_dr / n_cap
    bg = np.zeros(7)
    # writes that go straight to their tier: every copy to the tier of the block
    path[1, 5] = (1.0 - staged) * copies * f * t_fw / n_fast
    path[1, 6] = (1.0 - staged) * copies * (1.0 - f) * t_dw / n_cap
    if staged > 0:
        # staged writes: every copy into the cache on the path; destaged off it (read back, copies to the tier)
        path[1, 5] += staged * copies * t_fw / n_fast
        bg[5] = (1.0 - r) * staged * (t_fr + copies * f * t_fw) / n_fast
        bg[6] = (1.0 - r) * staged * copies * (1.0 - f) * t_dw / n_cap
    dev_r = f * fast_r_us + (1.0 - f) * d.read_latency_us
    dev_w = staged * fast_w_us + (1.0 - staged) * (f * fast_w_us + (1.0 - f) * d.write_latency_us)
    delay = np.array(
        [
            p.stack_read_latency_us * US + dev_r * US + hop_lat,
            p.stack_write_latency_us * US + dev_w * US + hop_lat,
        ]
    )
    share = np.full(7, issuers)
    share[0] = 1.0 if has_pop else 0.0
    notes = [
        f"Storage Spaces on a shared SAS JBOD: {copies:g} copies per write go over SAS from the owner node; the "
        "network carries SMB3 only",
        # "1 virtual disk owned by 2 file servers: ... runs on 1 node' worth" (browser review 2026-11-29): each
        # virtual disk has one owner at a time
        f"{count(j.virtual_disks or n_db, 'virtual disk')}, "
        f"{'each ' if (j.virtual_disks or n_db) > 1 else ''}owned by one of the {spec.file_servers} file servers "
        f"at a time: the SMB and storage work runs on {n_own:g} of them",
        f"tiering: {pct(f)} of the IOs to the fast tier (its share of the data under uniform access)",
        f"write-back cache ({j.write_cache_gb:g} GB per virtual disk) absorbs write bursts only: sustained "
        "writes go to their tier (assumption write_back_cache_bursts_only)",
        "file-server and SMB-client CPU per IO are stated assumptions (no published figure), see provenance",
        "the SAS HBA and expander links are not modelled (not published for this enclosure)",
    ]
    return Network(
        stations=SAS_STATIONS,
        labels={k: LABELS[k] for k in SAS_STATIONS},
        path=path,
        background=bg,
        share=share,
        delay_storage=delay,
        delay_vm=vm_delays(p, w, delay, guest, vcpus),
        storage_stations=SAS_STATIONS[2:],
        issuers=issuers,
        outstanding_per_issuer=n_out,
        **workload_rates(w),
        read_fraction=r,
        block_size_kib=bs,
        cpu_lp_s=cpu,
        host_lps=parts.db_lps * n_db,
        notes=notes,
        wear=dict(backend_writes=copies, absorption=0.0, drive=d, drives=n_cap),
    )


def network(parts: Parts, w: Workload, p: ModelParams, db_servers: int | None = None) -> Network:
    if parts.shared_sas:
        return network_shared_sas(parts, w, p, db_servers)
    spec, fs = parts.spec, parts.node
    n_db = spec.db_servers if db_servers is None else db_servers
    n_fs = spec.file_servers
    bs, r = float(w.block_size_kib), float(w.read_fraction)
    code = RESILIENCY_CODES[spec.resiliency]
    copies = float(resiliency.backend_writes_per_write(code))
    tcp = spec.transport == "tcp"
    hop_cpu = p.host_cpu_hop_us + (p.tcp_cpu_per_crossing_us if tcp else 0.0)
    hop_lat = (p.hop_latency_us + (p.tcp_hop_latency_us if tcp else 0.0)) * US
    # east-west crossings on the file servers (the front-end crossing is apart)
    ew_r = 1.0 - float(resiliency.local_read_probability(code, n_fs))
    ew_w = float(resiliency.remote_writes_per_write(code, n_fs))

    issuers, n_out, has_pop = issuer_population(w, n_db)
    db_scale = float(cpu_mod.clock_scale(parts.db_cpu.base_ghz))
    client_s = (0.5 * hop_cpu + p.host_cpu_per_kib_us * bs) * db_scale * US
    rows, cpu, guest, vcpus = issuer_rows(p, w, parts.db_cpu.base_ghz, parts.db_lps * n_db, (client_s, client_s))

    # file server storage side: the HCI model's cache, drives and CPU
    mode = parts.cache_mode
    has_cache = fs.cache is not None
    wcache = has_cache and mode in ("read-write", "write-only")
    rcache = has_cache and mode in ("read-write", "read-only")
    cache_total_gb = (fs.cache.capacity_gb * fs.cache_count * n_fs) if fs.cache is not None else 0.0
    footprint = float(w.working_set_gb_per_vm) * issuers * copies
    absorb = float(cache_mod.write_absorption(footprint, cache_total_gb)) if wcache else 0.0
    hit = float(cache_mod.read_hit_ratio(footprint, cache_total_gb, rcache))
    eff = p.drive_efficiency
    d = fs.drive
    n_drives = fs.drive_count * n_fs
    t_dr = float(devices.busy_time_s(bs, d.rand_read_4k_iops, d.seq_read_mb_s, eff))
    t_dw = float(devices.busy_time_s(bs, d.rand_write_4k_iops, d.seq_write_mb_s, eff))
    if fs.cache is not None:
        c = fs.cache
        n_cache = fs.cache_count * n_fs
        t_cr = float(devices.busy_time_s(bs, c.rand_read_4k_iops, c.seq_read_mb_s))
        t_cw = float(devices.busy_time_s(bs, c.rand_write_4k_iops, c.seq_write_mb_s))
    else:
        n_cache, t_cr, t_cw = 1, 0.0, 0.0
    fs_scale = float(cpu_mod.clock_scale(fs.cpu.base_ghz))
    destaged = copies * (1.0 - absorb) if wcache else 0.0
    fs_r = (p.host_cpu_read_us + (0.5 + ew_r) * hop_cpu + p.host_cpu_per_kib_us * bs) * fs_scale * US
    fs_w = (
        (
            p.host_cpu_write_us * copies
            + (0.5 + ew_w) * hop_cpu
            + p.host_cpu_per_kib_us * bs
            + float(cpu_mod.destage_us(p, destaged, bs))
        )
        * fs_scale
        * US
    )
    fs_lps = usable_lps(p, fs.threads * n_fs)

    db_bw = float(net_mod.nic_bandwidth_bytes_s(parts.db_nic, parts.db_nic_count))
    fs_bw = float(net_mod.nic_bandwidth_bytes_s(fs.nic, fs.nic_count))
    path = np.zeros((2, 7))
    path[:, :2] = rows
    path[0, 2] = float(net_mod.wire_demand_s(1.0, bs, n_db, db_bw))
    path[1, 2] = path[0, 2]
    path[0, 3] = float(net_mod.wire_demand_s(1.0 + ew_r, bs, n_fs, fs_bw))
    path[1, 3] = float(net_mod.wire_demand_s(1.0 + ew_w, bs, n_fs, fs_bw))
    path[0, 4], path[1, 4] = fs_r / fs_lps, fs_w / fs_lps
    path[0, 5] = hit * t_cr / n_cache
    path[1, 5] = copies * t_cw / n_cache if wcache else 0.0
    path[0, 6] = (1.0 - hit) * t_dr / n_drives
    path[1, 6] = 0.0 if wcache else copies * t_dw / n_drives
    bg = np.zeros(7)
    bg[6] = (1.0 - r) * (destaged * t_dw / n_drives)

    dev_r = (1.0 - hit) * d.read_latency_us + hit * (fs.cache.read_latency_us if fs.cache is not None else 0.0)
    dev_w = fs.cache.write_latency_us if wcache and fs.cache is not None else d.write_latency_us
    delay = np.array(
        [
            p.stack_read_latency_us * US + dev_r * US + (1.0 + ew_r) * hop_lat,
            p.stack_write_latency_us * US + dev_w * US + (1.0 + min(ew_w, 1.0)) * hop_lat,
        ]
    )
    share = np.full(7, issuers)
    share[0] = 1.0 if has_pop else 0.0
    notes = ["the fitted per-crossing host CPU is split equally between SMB client and server (assumption)"]
    return Network(
        stations=STATIONS,
        labels=LABELS,
        path=path,
        background=bg,
        share=share,
        delay_storage=delay,
        delay_vm=vm_delays(p, w, delay, guest, vcpus),
        storage_stations=STATIONS[2:],
        issuers=issuers,
        outstanding_per_issuer=n_out,
        **workload_rates(w),
        read_fraction=r,
        block_size_kib=bs,
        cpu_lp_s=cpu,
        host_lps=parts.db_lps * n_db,
        notes=notes,
        wear=dict(backend_writes=copies, absorption=absorb, drive=d, drives=n_drives),
    )


def capacity(parts: Parts) -> dict[str, Any]:
    spec = parts.spec
    code = RESILIENCY_CODES[spec.resiliency]
    if parts.shared_sas:
        jb, eff = parts.shared, 1.0 / float(resiliency.backend_writes_per_write(code))
        cap_raw = jb.drive.capacity_tb * jb.drive_count
        fast_raw = (jb.fast.capacity_gb / 1000.0 * jb.fast_count) if jb.fast else 0.0
        raw = cap_raw + fast_raw
        return {
            "raw_capacity_tb": raw,
            "resiliency_efficiency": eff,
            "usable_capacity_tb": raw * eff,
            "fast_tier_usable_tb": fast_raw * eff,
            "capacity_tier_usable_tb": cap_raw * eff,
            "capacity_note": f"{spec.resiliency} over the shared JBOD's two tiers (fast tier {fast_raw:g} TB raw, "
            f"capacity tier {cap_raw:g} TB raw); no pool reserve or write-back cache deducted",
        }
    fs = parts.node
    raw = float(raw_capacity_tb(spec.file_servers, fs.drive_count, fs.drive.capacity_tb))
    usable = float(
        usable_capacity_tb(
            spec.file_servers,
            fs.drive_count,
            fs.drive.capacity_tb,
            code,
            spec.file_servers,
            0.0,
            capacity_all_flash(fs.drive),
        )
    )
    return {
        "raw_capacity_tb": raw,
        "resiliency_efficiency": 1.0 / float(resiliency.backend_writes_per_write(code)),
        "usable_capacity_tb": usable,
        "capacity_note": f"{spec.resiliency} over {spec.file_servers} file servers, pool metadata and one "
        "reserve drive per server as in the HCI capacity model",
    }


def describe(parts: Parts) -> dict[str, Any]:
    d = parts.capacity_drive
    if parts.shared_sas:
        cache = parts.shared.fast.kind if parts.shared.fast else "none"
    else:
        cache = parts.node.cache.kind if parts.node.cache else "none"
    return {
        "nodes": parts.spec.db_servers + parts.spec.file_servers,
        "resiliency": parts.spec.resiliency,
        "transport": parts.spec.transport,
        "cache_mode": parts.cache_mode,
        "drive_interface": d.interface + ("-hdd" if d.media == "hdd" else ""),
        "cache": cache,
        "cpu_family": parts.db_cpu.family or parts.db_cpu.id,
        "db_servers": parts.spec.db_servers,
        "file_servers": parts.spec.file_servers,
        "storage_servers": parts.spec.file_servers,
        "backend": parts.spec.backend,
    }


#: what the stations hold with the shared-SAS backend, where it differs
SAS_WHAT = {
    HOST_CPU: "database servers' LPs: the SMB3 client per IO and per KiB (assumptions, see provenance)",
    "storage_network": "owner file servers' NIC ports: the front-end SMB3 crossing only (copies go over SAS)",
    "file_server_cpu": "owner file servers' LPs: file_server_cpu_us_per_io per IO plus per KiB (assumptions)",
}


def stations_doc(names: tuple[str, ...] = STATIONS) -> list[dict[str, str]]:
    what = {**WHAT, **SAS_WHAT} if "fast_tier" in names else WHAT
    return [{"station": s, "label": LABELS[s], "what": what[s], "raises": RAISES[s]} for s in names]


#: calibration parameters (fitted on S2D clusters) each backend uses, and for what
FITTED_COMMON = {
    "guest_cpu_us": "guest CPU per IO of a VM issuer",
    "guest_latency_us": "guest stack latency of a VM issuer",
    "stack_read_latency_us": "Storage Spaces software path of a read on the file server",
    "stack_write_latency_us": "Storage Spaces software path of a write on the file server",
    "hop_latency_us": "latency of the SMB3 crossing",
    "tcp_hop_latency_us": "extra latency of a TCP crossing (derived from Microsoft's RDMA/TCP pair)",
    "host_cpu_idle_utilization": "CPU busy with no IO",
    "host_cpu_max_utilization": "usable share of logical processors (SMT)",
    "latency_cv2": "latency percentiles (Gamma)",
}
FITTED_S2D = {
    **FITTED_COMMON,
    "host_cpu_read_us": "file-server CPU per read",
    "host_cpu_write_us": "file-server CPU per backend write",
    "host_cpu_hop_us": "CPU per network crossing (split equally between SMB client and server)",
    "tcp_cpu_per_crossing_us": "extra CPU per TCP crossing",
    "host_cpu_per_kib_us": "CPU per KiB moved",
    "drive_efficiency": "share of datasheet drive IOPS reachable",
}


def fitted(parts: Parts) -> dict[str, str]:
    return FITTED_COMMON if parts.shared_sas else FITTED_S2D


def assumptions(parts: Parts) -> list[dict[str, Any]]:
    """The stated assumptions of this model for these parts: name, value, unit, basis."""
    spec = parts.spec
    if not parts.shared_sas:
        return [
            {
                "name": "smb_crossing_cpu_split",
                "value": 0.5,
                "unit": "share of the fitted per-crossing CPU charged to the SMB client (the rest to the server)",
                "basis": "the S2D fit gives both ends of a crossing together; no split was measured",
            }
        ]
    j = parts.jbod_spec
    fields = DisaggregatedSpec.model_fields
    out = [
        {
            "name": name,
            "value": float(getattr(spec, name)),
            "unit": unit,
            "basis": (fields[name].description or "").split("ASSUMPTION: ", 1)[-1],
        }
        for name, unit in (
            ("file_server_cpu_us_per_io", "LP-us per front-end IO at 3 GHz"),
            ("smb_client_cpu_us_per_io", "LP-us per IO at 3 GHz"),
            ("smb_cpu_us_per_kib", "LP-us per KiB at 3 GHz, each end"),
        )
    ]
    out += [
        {
            "name": "fast_tier_share",
            "value": float(j.fast_tier_share if parts.shared.fast else 0.0),
            "unit": "share of each virtual disk's data, and of its IOs, in the fast tier",
            "basis": "the design's tier split (the Micron/DataON brief: about 200 GB fast + 800 GB capacity per "
            "database server); IOs follow data under uniform access ('the entire database was accessed equally')",
        },
        {
            "name": "write_back_cache_bursts_only",
            "value": float(WBC_SUSTAINED_SHARE),
            "unit": "share of sustained writes that pass through the write-back cache (the rest go to their tier)",
            "basis": f"a {j.write_cache_gb:g} GB write-back cache per virtual disk (Storage Spaces 2012 R2 default) "
            "buffers bursts: Microsoft ('Buffers small random writes to solid-state drives, reducing the latency "
            "of writes', What's New in Storage Spaces, 2014), A. Finn ('Write-Back Cache to absorb brief spikes in "
            "write activity', Petri 2014; 'until the spike decreases and things go back to normal', aidanfinn.com), "
            "P. Polewiak 2014 (used when writes would queue; once its 1 GB is exceeded, queues form)",
        },
        {
            "name": "virtual_disk_owners",
            "value": float(j.virtual_disks or spec.db_servers),
            "unit": "virtual disks, each served by its owner node",
            "basis": "one virtual disk per database server unless the design says otherwise; 2012 R2 sends SMB "
            "clients to the owner node",
        },
    ]
    return out
