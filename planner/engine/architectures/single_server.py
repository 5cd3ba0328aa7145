"""Single database server with its own storage: local RAID behind a controller,
PCIe flash card(s), or a LUN on a Fibre Channel array.

Stations (read, write demands per IO; seconds):

``vm_vcpu``          the VM's vCPUs (guest CPU per IO / vCPUs)
``host_cpu``         the server's logical processors (guest + host CPU per IO)
``raid_controller``  controller processor: every drive IO / ``max_iops``, or the
                     PCIe link: bytes / ``host_link_mb_s`` (the larger)
``drives``           the RAID set: drive busy time per drive IO
                     (``max(1/IOPS, bytes/bandwidth)``, :func:`planner.physics.devices.busy_time_s`)
                     x drive IOs (:mod:`planner.engine.architectures.raid`) / drives
``flash_cards``      PCIe flash: busy time per IO / cards
``fc_links``         active FC paths: bytes / (paths x link rate), or the HBA's
                     IOPS per port (the larger)
``array_controllers`` the array's controller pair: bytes / its published
                     sequential ceiling, or 1 / ``max_iops`` when published
``array_drives``     the array's RAID set, as ``drives``

A write-back cache (controller or array) acknowledges writes from DRAM: the
drive work of a write moves off its path into ``background`` (the shadow-server
load of :func:`planner.engine.queueing.schweitzer_symmetric`). In a sustained
run every write is destaged (:func:`planner.physics.cache.sustained_destage_share`):
the cache shortens a write's latency but does not make writes free, so the write
rate a run sustains is bounded by what the RAID set can write (the destage rate),
however large the cache is against the file. Only a run that starts with a clean
cache gets more, for as long as the cache takes to fill
(:func:`planner.physics.cache.burst_write_iops`; the SQLIO sweep of
:mod:`planner.engine.architectures.sweep` applies it when asked). Reads are not
served from the controller cache (HP: "Read cache does not improve array read
performance significantly"; its read share is read-ahead, which random reads do
not use); a controller cache split between reads and writes
(``cache_read_share``, HP's Array Accelerator ratio) leaves the rest for writes.
The array cache serves reads with the uniform-access hit ratio of
:func:`planner.physics.cache.read_hit_ratio`.

RAID 1 / 1+0 reads go to either side of each mirrored pair when the controller
load-balances them (HP Smart Array: "In each mirrored pair, the physical disk
that is not busy answering other requests answers any read request"), i.e. all
drives serve reads; a controller that reads one side (``mirror_reads:
primary``) uses half of them. A design may override the controller's policy
(``read_both_sides``).

Software path: a single-copy local IO is given the fitted S2D *read* path
latency (``stack_read_latency_us``) for reads and writes alike: S2D's fitted
write path also coordinates several copies, which a RAID controller or an array
does in hardware. That is an assumption (no single-server stack was measured);
the report says so.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from planner.core.errors import DesignError
from planner.core.text import count
from planner.engine.architectures import raid
from planner.engine.architectures.common import (
    HOST_CPU,
    US,
    VM_VCPU,
    Network,
    issuer_population,
    issuer_rows,
    local_host_cpu_s,
    server_cpu,
    vm_delays,
    workload_rates,
)
from planner.engine.architectures.fibre_channel import link_mb_s
from planner.models.catalog import CapacityDrive, Catalog, Chassis, Cpu, FcHba, FlashCard, RaidController, SanArray
from planner.models.design import (
    Design,
    FlashCardStorage,
    RaidStorage,
    ResolvedServer,
    SanStorage,
    SingleServerSpec,
    lookup_part,
    resolve_server,
)
from planner.models.params import ModelParams
from planner.models.workload import Workload
from planner.physics import cache as cache_mod
from planner.physics import devices

LABELS = {
    VM_VCPU: "VM vCPUs",
    HOST_CPU: "server CPU",
    "raid_controller": "RAID controller",
    "drives": "drives",
    "flash_cards": "PCIe flash cards",
    "fc_links": "FC links (HBA ports)",
    "array_controllers": "array controllers",
    "array_drives": "array drives",
}
WHAT = {
    VM_VCPU: "the VM's vCPUs: guest CPU per IO (fitted on S2D) / vCPUs",
    HOST_CPU: "the server's logical processors: guest + host CPU per IO (fitted on S2D), one local copy",
    "raid_controller": "controller processor (drive IOs / max_iops, datasheet) or its PCIe link (bytes / MB/s)",
    "drives": "the RAID set: datasheet busy time per drive IO x drive IOs per IO (RAID level, strip size)",
    "flash_cards": "PCIe flash cards: datasheet busy time per IO / cards",
    "fc_links": "active FC paths: bytes / (paths x FC data rate), or the HBA's IOPS per port",
    "array_controllers": "array controller pair: its published sequential MB/s (and IOPS when published)",
    "array_drives": "the array's RAID set behind its write-back cache",
}
#: what raises each station's capacity, said where it binds a database (``database_capacity.raises_it``)
RAISES = {
    VM_VCPU: "a VM of more vCPUs",
    HOST_CPU: "a server of more or faster cores",
    "raid_controller": "a faster RAID controller (or one more controller with its own drives)",
    "drives": "more or faster drives in the RAID set, or a RAID level with fewer drive IOs per write",
    "flash_cards": "more or faster PCIe flash cards",
    "fc_links": "more or faster FC paths (HBA ports)",
    "array_controllers": "a faster array controller pair",
    "array_drives": "more or faster drives behind the array's cache",
}


@dataclass(frozen=True)
class Parts:
    spec: SingleServerSpec
    cpu: Cpu
    sockets: int
    #: the server's CPU, RAM and chassis, its RAM to be built of DIMMs (planner.physics.dimms)
    memory: ResolvedServer
    drive: CapacityDrive | None = None
    controller: RaidController | None = None
    card: FlashCard | None = None
    array: SanArray | None = None
    hba: FcHba | None = None
    chassis: Chassis | None = None

    @property
    def lps(self) -> float:
        return float(self.cpu.threads * self.sockets)


def resolve_parts(design: Design, catalog: Catalog) -> Parts:
    spec = design.single_server
    pre = "single_server"
    if spec is None:  # Design's validation requires the section for this topology
        raise DesignError("required for topology 'single-server'", pre)
    cpu, sockets, _ = server_cpu(catalog, spec.server.cpu, f"{pre}.server.cpu")
    memory = resolve_server(catalog, spec.server, cpu, f"{pre}.server")
    st = spec.storage
    parts = Parts(spec=spec, cpu=cpu, sockets=sockets, memory=memory, chassis=memory.chassis)
    if isinstance(st, RaidStorage):
        drive = lookup_part(catalog, "capacity_drive", st.drives.model, f"{pre}.storage.drives.model")
        controller = lookup_part(catalog, "raid_controller", st.controller, f"{pre}.storage.controller")
        if st.drives.count > controller.drive_ports * 8:
            raise DesignError(
                f"{st.drives.count} drives exceed what {controller.id}'s {controller.drive_ports} "
                "lanes address through expanders (8 per lane)",
                f"{pre}.storage.drives.count",
            )
        return replace(parts, drive=drive, controller=controller)
    if isinstance(st, FlashCardStorage):
        return replace(parts, card=lookup_part(catalog, "flash_card", st.card, f"{pre}.storage.card"))
    drive = lookup_part(catalog, "capacity_drive", st.drives.model, f"{pre}.storage.drives.model")
    array = lookup_part(catalog, "san_array", st.array, f"{pre}.storage.array")
    hba = lookup_part(catalog, "fc_hba", st.hba, f"{pre}.storage.hba")
    if st.drives.count > array.drive_bays:
        raise DesignError(
            f"{st.drives.count} drives but {array.id} has {array.drive_bays} bays",
            f"{pre}.storage.drives.count",
        )
    ports = st.hbas * hba.ports
    if st.paths > ports:
        raise DesignError(
            f"{st.paths} paths but {st.hbas} x {hba.id} give {count(ports, 'FC port')}", f"{pre}.storage.paths"
        )
    return replace(parts, drive=drive, array=array, hba=hba)


#: why a write-back cache's writes stay fast while its reads queue (a DL580's RAID 1 read 176 ms beside writes of
#: 0.14 ms, which two reviews read as impossible; 2026-11-29): the cache holds the destage backlog, which in a
#: sustained run the drives work off at the rate the writes arrive, in the same queue as the reads
WRITE_BACK_NOTE = (
    "{where} write-back cache acknowledges each write from its memory and writes it to the drives later (every "
    "write, in a sustained run): a write waits for the path to the cache only, while its destage joins the reads' "
    "queue at the drives. The writes wait at the drives too only when they alone are more than the "
    "drives take (the cache then fills); a cache smaller than the destage backlog, or a controller that serves the "
    "destages before the reads, would move some of the reads' wait to the writes"
)


def _raid_demands(
    level: str, n: int, drive: CapacityDrive, bs: float, stripe: float, rand: float, both_sides: bool, write_back: bool
) -> tuple[float, float, float, float, float, float]:
    """Drive-station demands (read path, write path, write background) per IO,
    the drive IOs per read / write (for the controller) and the share of writes
    destaged (every one, in a sustained run)."""
    nr, chunk = raid.read_ios(level, bs, stripe)
    t_r = float(devices.busy_time_s(chunk, drive.rand_read_4k_iops, drive.seq_read_mb_s))
    t_w = float(devices.busy_time_s(chunk, drive.rand_write_4k_iops, drive.seq_write_mb_s))
    servers = raid.read_servers(level, n, both_sides)
    full_share = (1.0 - rand) if write_back else 0.0
    wr, ww, _ = raid.write_ios(level, n, bs, stripe, full_share)
    read_d = nr * t_r / servers
    write_busy = (wr * t_r + ww * t_w) / n
    if write_back:
        destaged = float(cache_mod.sustained_destage_share())
        return read_d, 0.0, write_busy * destaged, nr, wr + ww, 1.0 - destaged
    return read_d, write_busy, 0.0, nr, wr + ww, 0.0


def both_sides_read(parts: Parts) -> bool:
    """Whether a RAID 1/10 set reads from both sides: the design's override, else the controller's policy."""
    st, c = parts.spec.storage, parts.controller
    if isinstance(st, RaidStorage) and st.read_both_sides is not None:
        return bool(st.read_both_sides)
    assert c is not None  # a RAID set's controller (the only storage this is asked of)
    return c.mirror_reads == "load-balanced"


def write_cache_gb(parts: Parts) -> float:
    """Cache that holds writes, decimal GB: the controller's less its read share, or the
    array's (mirrored between its controllers, so half of it)."""
    st = parts.spec.storage
    if isinstance(st, RaidStorage) and parts.controller is not None:
        return parts.controller.cache_gb * (1.0 - (st.cache_read_share or 0.0))
    if isinstance(st, SanStorage) and parts.array is not None:
        return parts.array.cache_gb_per_controller * parts.array.controllers / 2.0
    return 0.0


def network(parts: Parts, w: Workload, p: ModelParams) -> Network:
    spec = parts.spec
    st = spec.storage
    bs, r = float(w.block_size_kib), float(w.read_fraction)
    ghz = parts.cpu.base_ghz
    issuers, n_out, has_pop = issuer_population(w, 1)
    host_s = (local_host_cpu_s(p, bs, ghz, False), local_host_cpu_s(p, bs, ghz, True))
    rows, cpu, guest, vcpus = issuer_rows(p, w, ghz, parts.lps, host_s)
    working_set_gb = float(w.working_set_gb_per_vm) * issuers
    bytes_ = bs * devices.KIB
    stack = p.stack_read_latency_us * US
    notes = [
        "single-copy software path: the fitted S2D read-path latency is used for reads and writes "
        "(assumption; no single-server stack was measured)"
    ]
    names: tuple[str, ...]
    if isinstance(st, RaidStorage):
        names = (VM_VCPU, HOST_CPU, "raid_controller", "drives")
        d, c = parts.drive, parts.controller
        assert d is not None and c is not None  # resolved with RAID storage
        wb = st.write_cache == "write-back"
        rd_d, wr_d, wr_bg, nr, nw, absorb = _raid_demands(
            st.level, st.drives.count, d, bs, st.stripe_kib, float(w.random_fraction), both_sides_read(parts), wb
        )
        link = bytes_ / (c.host_link_mb_s * 1e6)
        ctrl_r = max(nr / c.max_iops, link)
        ctrl_w = max((1.0 if wb else nw) / c.max_iops, link)
        path = np.zeros((2, 4))
        path[:, :2] = rows
        path[0, 2], path[1, 2] = ctrl_r, ctrl_w
        path[0, 3], path[1, 3] = rd_d, wr_d
        bg = np.zeros(4)
        bg[2] = (1.0 - r) * (nw * (1.0 - absorb) / c.max_iops if wb else 0.0)
        bg[3] = (1.0 - r) * wr_bg
        wear = dict(
            backend_writes=raid.write_ios(
                st.level, st.drives.count, bs, st.stripe_kib, (1.0 - float(w.random_fraction)) if wb else 0.0
            )[1]
            * raid.strips(bs, st.stripe_kib)[1]
            / bs,
            absorption=absorb,
            drive=d,
            drives=st.drives.count,
        )
        ctrl = c.latency_us * US
        rmw = st.level == "raid5" and raid.write_ios(st.level, st.drives.count, bs, st.stripe_kib)[0] > 0
        dev_w = 0.0 if wb else (d.write_latency_us + (d.read_latency_us if rmw else 0.0)) * US
        delay = np.array([stack + ctrl + d.read_latency_us * US, stack + ctrl + dev_w])
        if rmw and not wb:
            notes.append("RAID-5 write-through: a small write waits for the old data/parity read and the new write")
        if wb:
            notes.append(WRITE_BACK_NOTE.format(where="the controller's"))
    elif isinstance(st, FlashCardStorage):
        names = (VM_VCPU, HOST_CPU, "flash_cards")
        card = parts.card
        assert card is not None  # resolved with PCIe flash storage
        t_r = float(devices.busy_time_s(bs, card.rand_read_4k_iops, card.seq_read_mb_s))
        t_w = float(devices.busy_time_s(bs, card.rand_write_4k_iops, card.seq_write_mb_s))
        path = np.zeros((2, 3))
        path[:, :2] = rows
        path[0, 2], path[1, 2] = t_r / st.count, t_w / st.count
        bg = np.zeros(3)
        delay = np.array([stack + card.read_latency_us * US, stack + card.write_latency_us * US])
        wear = dict(backend_writes=1.0, absorption=0.0, drive=card, drives=st.count)
    else:
        names = (VM_VCPU, HOST_CPU, "fc_links", "array_controllers", "array_drives")
        arr, hba, d = parts.array, parts.hba, parts.drive
        assert arr is not None and hba is not None and d is not None  # resolved with SAN storage
        gfc = min(hba.fc_gfc, arr.fc_gfc)
        wire = bytes_ / (st.paths * link_mb_s(gfc) * 1e6)
        port_iops = (hba.max_iops_per_port or np.inf) * st.paths
        fc = max(wire, 1.0 / port_iops)
        wb = st.write_cache == "write-back"
        cache_gb = write_cache_gb(parts)  # mirrored between controllers
        hit = float(cache_mod.read_hit_ratio(working_set_gb, cache_gb, True))
        rd_d, wr_d, wr_bg, _, _, absorb = _raid_demands(
            st.level, st.drives.count, d, bs, st.stripe_kib, float(w.random_fraction), True, wb
        )
        iops_t = 1.0 / arr.max_iops if arr.max_iops else 0.0
        ctrl_r = max(iops_t, bytes_ / (arr.max_read_mb_s * 1e6))
        ctrl_w = max(iops_t, bytes_ / (arr.max_write_mb_s * 1e6))
        path = np.zeros((2, 5))
        path[:, :2] = rows
        path[:, 2] = fc
        path[0, 3], path[1, 3] = ctrl_r, ctrl_w
        path[0, 4], path[1, 4] = (1.0 - hit) * rd_d, wr_d
        bg = np.zeros(5)
        bg[4] = (1.0 - r) * wr_bg
        wear = dict(
            backend_writes=raid.write_ios(
                st.level, st.drives.count, bs, st.stripe_kib, (1.0 - float(w.random_fraction)) if wb else 0.0
            )[1]
            * raid.strips(bs, st.stripe_kib)[1]
            / bs,
            absorption=absorb,
            drive=d,
            drives=st.drives.count,
        )
        lat = arr.latency_us * US
        dev_w = 0.0 if wb else d.write_latency_us * US
        delay = np.array([stack + lat + (1.0 - hit) * d.read_latency_us * US, stack + lat + dev_w])
        if wb:
            notes.append(WRITE_BACK_NOTE.format(where="the array's"))
        if not arr.max_iops:
            notes.append(f"{arr.id}: no controller IOPS ceiling published, none modelled (optimistic at small blocks)")
        if not arr.latency_us:
            notes.append(
                f"{arr.id}: no controller latency published; the array adds only its drives' latency here (optimistic)"
            )
    k = len(names)
    share = np.full(k, issuers)
    share[0] = 1.0 if has_pop else 0.0
    return Network(
        stations=names,
        labels={s: LABELS[s] for s in names},
        path=path,
        background=bg,
        share=share,
        delay_storage=delay,
        delay_vm=vm_delays(p, w, delay, guest, vcpus),
        storage_stations=names[2:],
        issuers=issuers,
        outstanding_per_issuer=n_out,
        **workload_rates(w),
        read_fraction=r,
        block_size_kib=bs,
        cpu_lp_s=cpu,
        host_lps=parts.lps,
        notes=notes,
        wear=wear,
    )


def capacity(parts: Parts) -> dict[str, Any]:
    st = parts.spec.storage
    if isinstance(st, FlashCardStorage) and parts.card is not None:
        raw = parts.card.capacity_tb * st.count
        return {
            "raw_capacity_tb": raw,
            "resiliency_efficiency": 1.0,
            "usable_capacity_tb": raw,
            "capacity_note": "striped cards, no redundancy between them (a failed card loses the volume)",
        }
    assert not isinstance(st, FlashCardStorage) and parts.drive is not None  # RAID or SAN: a drive set
    raw = parts.drive.capacity_tb * st.drives.count
    eff = raid.usable_fraction(st.level, st.drives.count)
    return {
        "raw_capacity_tb": raw,
        "resiliency_efficiency": eff,
        "usable_capacity_tb": raw * eff,
        "capacity_note": f"{st.level.upper()} of {st.drives.count} drives",
    }


def describe(parts: Parts) -> dict[str, Any]:
    st, d = parts.spec.storage, parts.drive
    res: str
    cache_mode: str
    if isinstance(st, RaidStorage) and d is not None:
        res, media = st.level, d.interface + ("-hdd" if d.media == "hdd" else "")
        transport, cache_mode = "local", st.write_cache
    elif isinstance(st, FlashCardStorage):
        res, media, transport, cache_mode = "none" if st.count == 1 else "stripe", "pcie-flash", "local", "none"
    else:
        assert isinstance(st, SanStorage) and d is not None and parts.hba is not None and parts.array is not None
        res, media = st.level, d.interface + ("-hdd" if d.media == "hdd" else "")
        transport, cache_mode = f"fc-{min(parts.hba.fc_gfc, parts.array.fc_gfc)}g x{st.paths}", st.write_cache
    return {
        "nodes": 1,
        "resiliency": res,
        "transport": transport,
        "cache_mode": cache_mode,
        "drive_interface": media,
        "storage": st.kind,
        "cpu_family": parts.cpu.family or parts.cpu.id,
    }


def stations_doc(names: tuple[str, ...]) -> list[dict[str, str]]:
    return [{"station": s, "label": LABELS[s], "what": WHAT[s], "raises": RAISES[s]} for s in names]


#: calibration parameters (fitted on S2D clusters) this model uses, and for what
FITTED = {
    "guest_cpu_us": "guest CPU per IO of a VM issuer",
    "guest_latency_us": "guest stack latency of a VM issuer",
    "host_cpu_read_us": "host CPU per locally served read",
    "host_cpu_write_us": "host CPU per write (one copy)",
    "host_cpu_per_kib_us": "host CPU per KiB moved",
    "stack_read_latency_us": "software path of every IO (reads and writes)",
    "host_cpu_idle_utilization": "host CPU busy with no IO",
    "host_cpu_max_utilization": "usable share of logical processors (SMT)",
    "latency_cv2": "latency percentiles (Gamma)",
}


def assumptions(parts: Parts) -> list[dict[str, Any]]:
    """The stated assumptions of this model for these parts: name, value, unit, basis."""
    st = parts.spec.storage
    out = [
        {
            "name": "single_copy_stack_latency",
            "value": 1.0,
            "unit": "x the fitted read-path latency for writes",
            "basis": "no single-server stack was measured; S2D's fitted write path also coordinates copies, "
            "which a controller or an array does in hardware",
        }
    ]
    if isinstance(st, (RaidStorage, SanStorage)) and st.write_cache == "write-back":
        out.append(
            {
                "name": "destage_bound_writes",
                "value": float(cache_mod.sustained_destage_share()),
                "unit": "share of front-end writes destaged in a sustained run",
                "basis": "controllers and arrays destage dirty data as fast as the drives take it (HP Smart Array "
                "technology brief: the write cache 'fills up and remains full', the controller 'works through the "
                "list of write commands'); overwrite absorption not credited",
            }
        )
    if st.kind == "raid":
        out.append(
            {
                "name": "controller_read_cache_hits",
                "value": 0.0,
                "unit": "share of random reads served by the controller cache",
                "basis": "HP: 'Read cache is really only effective in increasing the performance on sequential read "
                "workloads' (the read share is read-ahead)",
            }
        )
    if st.kind == "san":
        out.append(
            {
                "name": "array_write_cache_share",
                "value": 0.5,
                "unit": "share of the array cache that holds a write (mirrored between controllers)",
                "basis": "write data is mirrored in cache (duplex write) before it is acknowledged",
            }
        )
        out.append(
            {
                "name": "array_read_hits_uniform",
                "value": float(cache_mod.read_hit_ratio(1.0, 1.0, True)),
                "unit": "LRU hit ratio rule min(1, cache / working set)",
                "basis": "uniform access (Che et al. 2002, degenerate case)",
            }
        )
    return out
