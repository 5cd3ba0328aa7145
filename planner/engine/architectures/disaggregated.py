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

Everything below the database servers is the hyperconverged model's storage
side (:mod:`planner.physics.cache`, :mod:`planner.physics.resiliency`, :mod:`planner.physics.devices`,
the fitted drive efficiency and CPU costs) with the compute moved to other
hosts. The fitted per-crossing host CPU (both ends of an S2D crossing together)
is split equally between the SMB client and server: an assumption.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from planner.core.errors import DesignError
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
)
from planner.models.catalog import Catalog, Cpu, Nic
from planner.models.design import Design, DisaggregatedSpec, ResolvedNode, lookup_part, resolve_node
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


@dataclass(frozen=True)
class Parts:
    spec: DisaggregatedSpec
    db_cpu: Cpu
    db_sockets: int
    db_nic: Nic
    db_nic_count: int
    fs: ResolvedNode

    @property
    def db_lps(self) -> float:
        return float(self.db_cpu.threads * self.db_sockets)

    @property
    def cache_mode(self) -> str | None:
        if self.fs.cache is None:
            return None
        if self.spec.cache_mode is not None:
            return self.spec.cache_mode
        return "read-write" if self.fs.drive.media == "hdd" else "write-only"


def resolve_parts(design: Design, catalog: Catalog) -> Parts:
    spec = design.disaggregated
    pre = "disaggregated"
    cpu, _, _ = server_cpu(catalog, spec.db_server.cpu, f"{pre}.db_server.cpu")
    nic = lookup_part(catalog, "nic", spec.db_server.nics.model, f"{pre}.db_server.nics.model")
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
        db_nic_count=spec.db_server.nics.count,
        fs=fs,
    )


def network(parts: Parts, w: Workload, p: ModelParams, db_servers: int | None = None) -> Network:
    spec, fs = parts.spec, parts.fs
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
    cache_total_gb = (fs.cache.capacity_gb * fs.cache_count * n_fs) if has_cache else 0.0
    footprint = float(w.working_set_gb_per_vm) * issuers * copies
    absorb = float(cache_mod.write_absorption(footprint, cache_total_gb)) if wcache else 0.0
    hit = float(cache_mod.read_hit_ratio(footprint, cache_total_gb, rcache))
    eff = p.drive_efficiency
    d = fs.drive
    n_drives = fs.drive_count * n_fs
    t_dr = float(devices.busy_time_s(bs, d.rand_read_4k_iops, d.seq_read_mb_s, eff))
    t_dw = float(devices.busy_time_s(bs, d.rand_write_4k_iops, d.seq_write_mb_s, eff))
    if has_cache:
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

    db_bw = float(net_mod.node_bandwidth_bytes_s(parts.db_nic.port_gbit_s, parts.db_nic.ports, parts.db_nic_count))
    fs_bw = float(net_mod.node_bandwidth_bytes_s(fs.nic.port_gbit_s, fs.nic.ports, fs.nic_count))
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

    dev_r = (1.0 - hit) * d.read_latency_us + hit * (fs.cache.read_latency_us if has_cache else 0.0)
    dev_w = fs.cache.write_latency_us if wcache else d.write_latency_us
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
        open_iops=np.nan if w.iops is None else float(w.iops),
        iops_limit_per_issuer=np.inf if w.iops_limit_per_vm is None else float(w.iops_limit_per_vm),
        read_fraction=r,
        block_size_kib=bs,
        cpu_lp_s=cpu,
        host_lps=parts.db_lps * n_db,
        notes=notes,
        wear=dict(backend_writes=copies, absorption=absorb, drive=d, drives=n_drives),
    )


def capacity(parts: Parts) -> dict:
    spec, fs = parts.spec, parts.fs
    code = RESILIENCY_CODES[spec.resiliency]
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


def describe(parts: Parts) -> dict:
    fs = parts.fs
    return {
        "nodes": parts.spec.db_servers + parts.spec.file_servers,
        "resiliency": parts.spec.resiliency,
        "transport": parts.spec.transport,
        "cache_mode": parts.cache_mode,
        "drive_interface": fs.drive.interface + ("-hdd" if fs.drive.media == "hdd" else ""),
        "cache": fs.cache.kind if fs.cache else "none",
        "cpu_family": parts.db_cpu.family or parts.db_cpu.id,
        "db_servers": parts.spec.db_servers,
        "file_servers": parts.spec.file_servers,
    }


def stations_doc(names=STATIONS) -> list[dict]:
    return [{"station": s, "label": LABELS[s], "what": WHAT[s]} for s in names]
