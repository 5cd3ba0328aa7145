"""Split provisioning: compute nodes keep a read cache of the data on local
flash; separate data nodes hold the durable copy with erasure coding,
compression and deduplication; a share of each compute node's logical
processors is reserved for storage IO; space reclamation and snapshots take a
stated share of the data nodes' drive throughput.

Stations (per IO, seconds):

``vm_vcpu``          the VM's vCPUs (guest CPU / vCPUs)
``host_cpu``         compute nodes' LPs left to the guests ((1 - share) of them)
``storage_cpu``      the LPs reserved for storage IO (share of them): the fitted
                     host CPU per read / write, a crossing for reads that miss
                     and for every write, data services per KiB written
``local_flash``      compute nodes' flash: reads that hit; the cache fill of
                     each write off the path
``compute_network``  compute nodes' NIC ports: missed reads and written fragments
``data_network``     data nodes' NIC ports: the same bytes
``data_drives``      data nodes' drives: missed reads (one compressed read);
                     writes land in the data nodes' NVRAM and reach the drives as
                     full erasure-coded stripes off the path, plus reclamation
                     and snapshots as background

Rules: read hit ratio by working set against the flash that holds it reduced
(:func:`planner.physics.cache.read_hit_ratio`, uniform access; the flash keeps data
compressed and deduplicated); a write sends ``(k + m) / k`` of its reduced bytes
(erasure code computed on the host); a stripe is written sequentially
(bandwidth-bound) by a log-structured layout; reclamation and snapshots use
``background_share`` of the drives' time and of the reserved storage CPU, so the
foreground gets ``1 - share`` of each. Datrium published the cost for its DVX:
2.0 M TPM without and "north of 1.8 million TPM" with snapshots and space
reclamation running, about 10 % (the seed example's steady-state figure, fitted
in sample).
The defaults (20 % reserved CPU, 40 % in a high-performance mode; data
reduction 3x) follow vendor descriptions of such a system: WhatMatrix's Datrium
DVX entry ("Per default up to 20% of the CPU ... in a Datrium DVX Compute Node is
consumed for executing storage-related activities. When switching to 'Insane'
mode ... up to 40% of CPU resources is consumed") and Datrium's blog ("with 3X-5X
data reduction"). None of it was measured here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from planner.core.errors import DesignError
from planner.core.text import pct
from planner.engine.architectures.common import (
    HOST_CPU,
    US,
    VM_VCPU,
    Network,
    guest_cpu_s,
    issuer_population,
    server_cpu,
    usable_lps,
    vm_delays,
    workload_rates,
)
from planner.models.catalog import CacheDevice, CapacityDrive, Catalog, Cpu, Nic
from planner.models.design import Design, ResolvedServer, SplitSpec, lookup_part, resolve_server
from planner.models.params import ModelParams
from planner.models.workload import Workload
from planner.physics import cache as cache_mod
from planner.physics import cpu as cpu_mod
from planner.physics import devices
from planner.physics import network as net_mod

STATIONS = (VM_VCPU, HOST_CPU, "storage_cpu", "local_flash", "compute_network", "data_network", "data_drives")
LABELS = {
    VM_VCPU: "VM vCPUs",
    HOST_CPU: "compute CPU (guests)",
    "storage_cpu": "compute CPU reserved for storage",
    "local_flash": "compute node flash",
    "compute_network": "compute node NICs",
    "data_network": "data node NICs",
    "data_drives": "data node drives",
}
WHAT = {
    VM_VCPU: "the VM's vCPUs: guest CPU per IO (fitted on S2D) / vCPUs",
    HOST_CPU: "compute nodes' LPs not reserved for storage: guest CPU per IO",
    "storage_cpu": "reserved LPs: host CPU per IO and crossing (fitted on S2D) + data services per KiB (LZ4 figure)",
    "local_flash": "local flash read cache (datasheet): hits on the path, cache fill off it",
    "compute_network": "compute nodes' NIC ports: missed reads and erasure-coded write fragments",
    "data_network": "data nodes' NIC ports: the same bytes",
    "data_drives": "data nodes' drives (datasheet): missed reads; full-stripe writes and reclamation off the path",
}
#: what raises each station's capacity, said where it binds a database (``database_capacity.raises_it``)
RAISES = {
    VM_VCPU: "a VM of more vCPUs",
    HOST_CPU: "more or faster compute node cores",
    "storage_cpu": "a larger share of the compute nodes' CPU for storage (the policy), or more or faster cores",
    "local_flash": "more or faster compute node flash",
    "compute_network": "faster compute node NICs",
    "data_network": "faster data node NICs, or more data nodes",
    "data_drives": "more or faster data node drives, or more data nodes",
}


@dataclass(frozen=True)
class Parts:
    spec: SplitSpec
    cpu: Cpu
    sockets: int
    nic: Nic
    nic_count: int
    #: a compute node's CPU, RAM and chassis, its RAM to be built of DIMMs (planner.physics.dimms)
    memory: ResolvedServer
    flash: CacheDevice
    drive: CapacityDrive
    data_nic: Nic

    @property
    def lps(self) -> float:
        return float(self.cpu.threads * self.sockets)


def resolve_parts(design: Design, catalog: Catalog) -> Parts:
    spec = design.split
    pre = "split"
    if spec is None:  # Design's validation requires the section for this topology
        raise DesignError("required for topology 'split'", pre)
    nics = spec.compute_node.nics
    if nics is None:  # SplitSpec's validation requires them
        raise DesignError(
            "compute nodes reach the data nodes over the network; give their NICs", f"{pre}.compute_node.nics"
        )
    cpu, _, _ = server_cpu(catalog, spec.compute_node.cpu, f"{pre}.compute_node.cpu")
    nic = lookup_part(catalog, "nic", nics.model, f"{pre}.compute_node.nics.model")
    flash = lookup_part(catalog, "cache_device", spec.flash.model, f"{pre}.flash.model")
    if flash.kind == "pmem":
        raise DesignError(
            "the local read cache is a flash device (nvme, sas or sata), not Optane PMem", f"{pre}.flash.model"
        )
    drive = lookup_part(catalog, "capacity_drive", spec.data_node.drives.model, f"{pre}.data_node.drives.model")
    dnic = lookup_part(catalog, "nic", spec.data_node.nics.model, f"{pre}.data_node.nics.model")
    if spec.transport == "rdma":
        for who, n in (("compute_node", nic), ("data_node", dnic)):
            if n.rdma == "none":
                raise DesignError(
                    f"transport 'rdma' needs RDMA NICs; {n.id} has none (use 'tcp')", f"{pre}.{who}.nics.model"
                )
    return Parts(
        spec=spec,
        cpu=cpu,
        sockets=spec.compute_node.cpu.sockets,
        nic=nic,
        nic_count=nics.count,
        memory=resolve_server(catalog, spec.compute_node, cpu, f"{pre}.compute_node"),
        flash=flash,
        drive=drive,
        data_nic=dnic,
    )


def network(parts: Parts, w: Workload, p: ModelParams) -> Network:
    spec = parts.spec
    n_c, n_d = spec.compute_nodes, spec.data_nodes
    bs, r = float(w.block_size_kib), float(w.read_fraction)
    issuers, n_out, has_pop = issuer_population(w, n_c)
    reduce_ = spec.compression_ratio * spec.dedup_ratio
    ec = (spec.erasure_data + spec.erasure_parity) / spec.erasure_data
    tcp = spec.transport == "tcp"
    hop_cpu = p.host_cpu_hop_us + (p.tcp_cpu_per_crossing_us if tcp else 0.0)
    hop_lat = (p.hop_latency_us + (p.tcp_hop_latency_us if tcp else 0.0)) * US

    # read cache: each compute node's flash holds its own VMs' data, reduced
    ws_node_gb = float(w.working_set_gb_per_vm) * issuers / n_c
    flash_gb = parts.flash.capacity_gb * spec.flash.count * reduce_
    hit = float(cache_mod.read_hit_ratio(ws_node_gb, flash_gb, True))

    scale = float(cpu_mod.clock_scale(parts.cpu.base_ghz))
    guest = guest_cpu_s(p, w, parts.cpu.base_ghz)
    vcpus = max(float(w.vcpus_per_vm), 1.0)
    lp = usable_lps(p, parts.lps * n_c)
    guest_lp, storage_lp = lp * (1.0 - spec.storage_cpu_share), lp * spec.storage_cpu_share
    st_r = (p.host_cpu_read_us + (1.0 - hit) * hop_cpu + p.host_cpu_per_kib_us * bs) * scale * US
    st_w = (
        (p.host_cpu_write_us + hop_cpu + (p.host_cpu_per_kib_us + spec.data_services_cpu_us_per_kib) * bs) * scale * US
    )

    bytes_miss = bs / spec.compression_ratio  # a read fetches the compressed block
    bytes_write = bs * ec / reduce_  # fragments of the reduced block
    c_bw = float(net_mod.nic_bandwidth_bytes_s(parts.nic, parts.nic_count))
    d_bw = float(net_mod.nic_bandwidth_bytes_s(parts.data_nic, spec.data_node.nics.count))
    fl = parts.flash
    n_flash = spec.flash.count * n_c
    t_fr = float(devices.busy_time_s(bs, fl.rand_read_4k_iops, fl.seq_read_mb_s))
    t_fw = float(devices.busy_time_s(bs / reduce_, fl.rand_write_4k_iops, fl.seq_write_mb_s))
    d = parts.drive
    n_drv = spec.data_node.drives.count * n_d
    t_dr = float(devices.busy_time_s(bytes_miss, d.rand_read_4k_iops, d.seq_read_mb_s))
    t_stripe = bytes_write * devices.KIB / (d.seq_write_mb_s * 1e6)  # full stripes: sequential

    path = np.zeros((2, 7))
    path[:, 0] = guest / vcpus
    path[:, 1] = guest / guest_lp
    path[0, 2], path[1, 2] = st_r / storage_lp, st_w / storage_lp
    path[0, 3] = hit * t_fr / n_flash
    path[0, 4] = (1.0 - hit) * float(net_mod.wire_demand_s(1.0, bytes_miss, n_c, c_bw))
    path[1, 4] = float(net_mod.wire_demand_s(1.0, bytes_write, n_c, c_bw))
    path[0, 5] = (1.0 - hit) * float(net_mod.wire_demand_s(1.0, bytes_miss, n_d, d_bw))
    path[1, 5] = float(net_mod.wire_demand_s(1.0, bytes_write, n_d, d_bw))
    path[0, 6] = (1.0 - hit) * t_dr / n_drv
    bg = np.zeros(7)
    bg[3] = (1.0 - r) * t_fw / n_flash
    drive_fg = r * path[0, 6] + (1.0 - r) * t_stripe / n_drv
    bs_share = spec.background_share
    bg[6] = (1.0 - r) * t_stripe / n_drv + drive_fg * bs_share / (1.0 - bs_share)
    # snapshots and reclamation also run in the storage share of the compute node's CPU
    bg[2] = (r * path[0, 2] + (1.0 - r) * path[1, 2]) * bs_share / (1.0 - bs_share)

    delay = np.array(
        [
            p.stack_read_latency_us * US
            + hit * fl.read_latency_us * US
            + (1.0 - hit) * (hop_lat + d.read_latency_us * US),
            p.stack_write_latency_us * US + hop_lat + spec.write_ack_latency_us * US,
        ]
    )
    share = np.full(7, issuers)
    share[0] = 1.0 if has_pop else 0.0
    cpu = np.array([guest + st_r, guest + st_w])
    notes = [
        f"read hit ratio {pct(hit)} on local flash (uniform access over {ws_node_gb:,.0f} GB per compute node "
        f"against {flash_gb:,.0f} GB of flash after {reduce_:g}x data reduction)",
        "the data node NVRAM acknowledgement latency and the data-services CPU are stated assumptions",
    ]
    return Network(
        stations=STATIONS,
        labels=LABELS,
        path=path,
        background=bg,
        share=share,
        delay_storage=delay,
        delay_vm=vm_delays(p, w, delay, guest, vcpus),
        # the reserved storage CPU is the storage software's: its queue is storage latency (what
        # ESXi reports as device latency, DAVG, for a host-side storage stack)
        storage_stations=STATIONS[2:],
        issuers=issuers,
        outstanding_per_issuer=n_out,
        **workload_rates(w),
        read_fraction=r,
        block_size_kib=bs,
        cpu_lp_s=cpu,
        host_lps=parts.lps * n_c,
        cpu_station="storage_cpu",
        notes=notes,
        wear=dict(backend_writes=ec / reduce_, absorption=0.0, drive=d, drives=n_drv),
    )


def capacity(parts: Parts) -> dict[str, Any]:
    spec = parts.spec
    raw = parts.drive.capacity_tb * spec.data_node.drives.count * spec.data_nodes
    eff = spec.erasure_data / (spec.erasure_data + spec.erasure_parity)
    return {
        "raw_capacity_tb": raw,
        "resiliency_efficiency": eff,
        "usable_capacity_tb": raw * eff,
        "effective_capacity_tb": raw * eff * spec.compression_ratio * spec.dedup_ratio,
        "capacity_note": f"erasure code {spec.erasure_data}+{spec.erasure_parity}; effective capacity assumes "
        f"{spec.compression_ratio:g}x compression and {spec.dedup_ratio:g}x deduplication",
    }


def describe(parts: Parts) -> dict[str, Any]:
    s = parts.spec
    return {
        "nodes": s.compute_nodes + s.data_nodes,
        "resiliency": f"ec-{s.erasure_data}+{s.erasure_parity}",
        "transport": s.transport,
        "cache_mode": "read-only (local flash)",
        "drive_interface": parts.drive.interface + ("-hdd" if parts.drive.media == "hdd" else ""),
        "cache": parts.flash.kind,
        "cpu_family": parts.cpu.family or parts.cpu.id,
        "compute_nodes": s.compute_nodes,
        "data_nodes": s.data_nodes,
    }


def stations_doc(names: tuple[str, ...] = STATIONS) -> list[dict[str, str]]:
    return [{"station": s, "label": LABELS[s], "what": WHAT[s], "raises": RAISES[s]} for s in names]


#: calibration parameters (fitted on S2D clusters) this model uses, and for what
FITTED = {
    "guest_cpu_us": "guest CPU per IO of a VM issuer",
    "guest_latency_us": "guest stack latency of a VM issuer",
    "host_cpu_read_us": "storage CPU per read",
    "host_cpu_write_us": "storage CPU per write",
    "host_cpu_hop_us": "storage CPU per network crossing",
    "tcp_cpu_per_crossing_us": "extra CPU per TCP crossing",
    "host_cpu_per_kib_us": "CPU per KiB moved",
    "stack_read_latency_us": "software path of a read",
    "stack_write_latency_us": "software path of a write",
    "hop_latency_us": "latency of a network crossing",
    "tcp_hop_latency_us": "extra latency of a TCP crossing",
    "host_cpu_idle_utilization": "CPU busy with no IO",
    "host_cpu_max_utilization": "usable share of logical processors (SMT)",
    "latency_cv2": "latency percentiles (Gamma)",
}


def assumptions(parts: Parts) -> list[dict[str, Any]]:
    """The stated assumptions of this model for these parts: name, value, unit, basis."""
    s = parts.spec
    f = SplitSpec.model_fields
    return [
        {
            "name": "storage_cpu_share",
            "value": s.storage_cpu_share,
            "unit": "share of the compute node's logical processors for storage IO",
            "basis": "vendor documentation: Datrium DVX 'Fast mode ... a maximum of 20% host CPU utilization is "
            "allocated to the storage IO and data services', 'Insane Mode ... up to 40%' (Datrium technical report)",
        },
        {
            "name": "erasure_code",
            "value": float(s.erasure_data + s.erasure_parity) / s.erasure_data,
            "unit": f"bytes sent per byte written ({s.erasure_data}+{s.erasure_parity})",
            "basis": "the design's code; Datrium DVX uses 8D+2P (WhatMatrix, Datrium blog)",
        },
        {
            "name": "compression_ratio",
            "value": s.compression_ratio,
            "unit": "logical / compressed bytes",
            "basis": (f["compression_ratio"].description or "") + " (not measured for the workload)",
        },
        {
            "name": "dedup_ratio",
            "value": s.dedup_ratio,
            "unit": "logical / unique bytes",
            "basis": (f["dedup_ratio"].description or "") + " (not measured for the workload)",
        },
        {
            "name": "data_services_cpu_us_per_kib",
            "value": s.data_services_cpu_us_per_kib,
            "unit": "LP-us per KiB written at 3 GHz",
            "basis": f["data_services_cpu_us_per_kib"].description,
        },
        {
            "name": "write_ack_latency_us",
            "value": s.write_ack_latency_us,
            "unit": "us",
            "basis": "data node NVRAM acknowledgement: not published",
        },
        {
            "name": "background_share",
            "value": s.background_share,
            "unit": "share of the storage CPU and data-node drive time taken by snapshots and reclamation",
            "basis": "0.10 reproduces Datrium's published 2.0 -> 1.8 M TPM (fitted in sample on that one pair); "
            "other values are the design's",
        },
        {
            "name": "uniform_flash_hits",
            "value": 1.0,
            "unit": "LRU hit ratio rule min(1, flash x reduction / working set)",
            "basis": "uniform access; the working set per compute node is its VMs' working sets",
        },
    ]
