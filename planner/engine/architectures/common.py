"""The queueing network every non-HCI architecture is solved as, and the
per-IO costs they share with the hyperconverged model.

An architecture module turns a design and a workload into a :class:`Network`:
named stations, the per-IO queueing demand of a read and a write at each
(seconds, busy time / parallel servers), work done off the IO's path
(``background``: destage, reclamation), and fixed delays. :func:`solve` then
runs exactly the machinery of :func:`planner.engine.performance.evaluate_arrays`:
the symmetric approximate MVA (:func:`planner.engine.queueing.schweitzer_symmetric`)
for a closed population, an open M/M/1 network
(:func:`planner.engine.queueing.open_residence`) for an offered rate, per-VM rate
limits as a throttle at the issuer (:func:`planner.engine.queueing.schweitzer_residence`,
Little's law holds), and Gamma percentiles with the calibrated squared CV.

What the stations cost per IO comes from datasheets (drives, controllers,
links) and from the parameters fitted on Storage Spaces Direct clusters
(guest and host CPU per IO, software-path latency). The latter were never
measured on these architectures, which is why every report of one is flagged
as outside the calibrated domain (:mod:`planner.engine.architectures`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

import numpy as np

from planner.core.text import count
from planner.engine.queueing import (
    BUSY_UTILIZATION,
    gamma_quantile,
    open_residence,
    schweitzer_residence,
    schweitzer_symmetric,
)
from planner.models.catalog import Catalog, Cpu
from planner.models.params import ModelParams
from planner.models.workload import Workload
from planner.physics.cpu import clock_scale
from planner.physics.devices import KIB

if TYPE_CHECKING:
    from planner.models.design import CpuSet

US = 1e-6
#: what the workload-side stations are called in every architecture
VM_VCPU, HOST_CPU = "vm_vcpu", "host_cpu"
#: the stations whose service is the IO's bytes at a link's data rate (datasheet): no design carries more through
#: them, whatever the calibration's error says of the rest (:func:`planner.results.uncertainty.cap_at_ceiling`)
LINK_STATIONS = frozenset({"fc_links", "client_network", "storage_network", "compute_network", "data_network"})


@dataclass
class Network:
    """One design under one workload as a closed/open queueing network (C = 2
    classes: read, write; K named stations)."""

    stations: tuple[str, ...]
    labels: dict[str, str]
    path: np.ndarray  # (2, K) seconds per IO on the IO's path
    background: np.ndarray  # (K,) seconds per IO off the path
    share: np.ndarray  # (K,) issuers sharing the station (1 = private)
    delay_storage: np.ndarray  # (2,) fixed latency below the host, seconds
    delay_vm: np.ndarray  # (2,) fixed latency seen by the issuer, seconds
    storage_stations: tuple[str, ...]  # stations below the host (storage-layer latency)
    issuers: float  # VMs or host processes (>= 1)
    outstanding_per_issuer: float
    open_iops: float  # nan: closed population
    iops_limit_per_issuer: float  # inf: none
    read_fraction: float
    block_size_kib: float
    cpu_lp_s: np.ndarray  # (2,) LP-seconds of host CPU per IO (compute hosts)
    host_lps: float  # logical processors of the compute hosts
    cpu_station: str = HOST_CPU
    notes: list[str] = field(default_factory=list)
    #: what the capacity media write per front-end write, for the endurance figure:
    #: backend_writes (bytes written / bytes of the IO), absorption, drives, dwpd,
    #: capacity_tb, warranty_years (:func:`planner.physics.endurance.years_to_wear_out`)
    wear: dict[str, Any] | None = None


def server_cpu(catalog: Catalog, cpu_set: CpuSet, field: str) -> tuple[Cpu, int, float]:
    """(CPU record, sockets, logical processors) of a server's ``cpu`` set; errors name ``field``."""
    from planner.core.errors import DesignError
    from planner.models.design import lookup_part

    cpu = lookup_part(catalog, "cpu", cpu_set.model, f"{field}.model")
    if cpu_set.sockets > cpu.max_sockets:
        raise DesignError(
            f"{cpu.id} supports at most {count(cpu.max_sockets, 'socket')}; design asks {cpu_set.sockets}",
            f"{field}.sockets",
        )
    return cpu, cpu_set.sockets, float(cpu.threads * cpu_set.sockets)


def issuer_population(w: Workload, hosts: int) -> tuple[float, float, bool]:
    """(issuers, outstanding IOs per issuer, has_population): the workload's
    VMs (or host processes) per compute host times the hosts that run them."""
    if w.vms_per_node:
        return float(w.vms_on(hosts)), float(w.outstanding_per_vm), True
    return 1.0, float(w.outstanding_per_vm), False


class WorkloadRates(TypedDict):
    """:class:`Network`'s two rate fields, as :func:`workload_rates` gives them."""

    open_iops: float
    iops_limit_per_issuer: float


def workload_rates(w: Workload) -> WorkloadRates:
    """A workload's rates as :class:`Network` takes them: ``open_iops`` [IOPS] (nan: a closed population, no
    offered rate) and ``iops_limit_per_issuer`` [IOPS] (inf: no per-VM limit)."""
    return WorkloadRates(
        open_iops=np.nan if w.iops is None else float(w.iops),
        iops_limit_per_issuer=np.inf if w.iops_limit_per_vm is None else float(w.iops_limit_per_vm),
    )


def guest_cpu_s(p: ModelParams, w: Workload, base_ghz: float) -> float:
    """Guest (in-VM) CPU per IO, LP-seconds; zero when the hosts issue the IO."""
    return 0.0 if w.issuer == "host" else p.guest_cpu_us * float(clock_scale(base_ghz)) * US


def local_host_cpu_s(p: ModelParams, block_size_kib: float, base_ghz: float, write: bool) -> float:
    """Host CPU of one IO served by a local device (one copy), LP-seconds: the
    fitted per-IO cost of a locally served read (or of one backend write) plus
    the per-KiB cost, at this CPU's clock."""
    base = p.host_cpu_write_us if write else p.host_cpu_read_us
    return (base + p.host_cpu_per_kib_us * block_size_kib) * float(clock_scale(base_ghz)) * US


def usable_lps(p: ModelParams, lps: float) -> float:
    """Logical processors left for IO work: the fitted idle load served, up to
    the fitted SMT ceiling (the same rule as the HCI host CPU station)."""
    return lps * (p.host_cpu_max_utilization - p.host_cpu_idle_utilization)


def vm_delays(p: ModelParams, w: Workload, delay_storage: np.ndarray, guest_s: float, vcpus: float) -> np.ndarray:
    """Issuer-side fixed delay: the storage layer's plus the fitted guest
    latency and the Seidmann share of the guest CPU (VM issuers only)."""
    if w.issuer == "host":
        return delay_storage.copy()
    seidmann = guest_s * (vcpus - 1.0) / vcpus
    return delay_storage + p.guest_latency_us * US + seidmann


def issuer_rows(
    p: ModelParams, w: Workload, base_ghz: float, lps: float, host_s: tuple[float, float]
) -> tuple[np.ndarray, np.ndarray, float, float]:
    """Path demand of the two workload-side stations (the VM's vCPUs, the
    compute hosts' pooled CPU) for a read and a write, and the CPU per IO."""
    guest = guest_cpu_s(p, w, base_ghz)
    vcpus = max(float(w.vcpus_per_vm), 1.0)
    lp = usable_lps(p, lps)
    rows = np.array([[guest / vcpus, (guest + host_s[0]) / lp], [guest / vcpus, (guest + host_s[1]) / lp]])
    cpu = np.array([guest + host_s[0], guest + host_s[1]])
    return rows, cpu, guest, vcpus


def solve(net: Network, p: ModelParams) -> dict[str, Any]:
    """Throughput, latencies, utilisations and the binding resource of one network.

    Same keys and units as one element of :func:`planner.engine.performance.evaluate_arrays`
    (latencies in ms, bandwidth in MB/s, utilisation per station name).
    """
    r = float(net.read_fraction)
    mix = np.array([r, 1.0 - r])
    path, bg = np.asarray(net.path, float), np.asarray(net.background, float)
    share = np.asarray(net.share, float)
    n = float(net.outstanding_per_issuer)
    v = max(float(net.issuers), 1.0)
    closed = bool(np.isnan(net.open_iops))

    if closed:
        x_closed, res_closed = schweitzer_symmetric(path, mix, bg, share, np.float64(n), net.delay_vm)
        x, limited_by = float(x_closed), "population"
    else:
        x, limited_by = float(net.open_iops) / v, "offered_load"
    hit_limit = x > net.iops_limit_per_issuer
    if hit_limit:
        x, limited_by = float(net.iops_limit_per_issuer), "iops_limit_per_vm"

    total = (mix[:, None] * path).sum(0) + bg
    x_sat = 1.0 / max(float((total * share).max()), 1e-15)
    saturated = (not closed) and x >= x_sat * (1 - 1e-9)
    if saturated:
        x = x_sat * 0.999
    res, util = open_residence(path, mix, bg, share, np.float64(x))
    if closed and hit_limit:
        res = schweitzer_residence(path, mix, bg, share, np.float64(n), np.float64(x))
    elif closed:
        res = res_closed
    util = np.clip(util, 0.0, 1.0)

    names = list(net.stations)
    below = np.array([s in net.storage_stations for s in names])
    k_cpu = names.index(net.cpu_station)
    # the CPU station's own service is storage-layer time; its queue is too when the
    # architecture reserves that CPU for storage (split provisioning)
    cpu_own = 0.0 if below[k_cpu] else path[:, k_cpu]
    storage_s = res[:, below].sum(-1) + cpu_own + net.delay_storage
    vm_s = res.sum(-1) + net.delay_vm
    storage_ms, vm_ms = storage_s * 1e3, vm_s * 1e3
    mean_vm = float((mix * vm_ms).sum())

    if limited_by == "population":
        bottleneck = names[int(util.argmax())] if util.max() > BUSY_UTILIZATION else "outstanding_io"
    elif limited_by == "offered_load":
        bottleneck = names[int(util.argmax())] if saturated else "none"
    else:
        bottleneck = limited_by
    iops = x * v
    idle, top = p.host_cpu_idle_utilization, p.host_cpu_max_utilization
    cpu_per_io = float((mix * net.cpu_lp_s).sum())
    host_util = float(np.clip(idle + iops * cpu_per_io / max(net.host_lps, 1e-9), 0.0, 1.0))
    cv2 = p.latency_cv2
    out = dict(
        iops=iops,
        iops_capacity=x_sat * v,
        bandwidth_mb_s=iops * net.block_size_kib * KIB / 1e6,
        read_latency_ms=float(storage_ms[0]),
        write_latency_ms=float(storage_ms[1]),
        vm_read_latency_ms=float(vm_ms[0]),
        vm_write_latency_ms=float(vm_ms[1]),
        vm_latency_ms=mean_vm,
        p90_read_latency_ms=float(gamma_quantile(vm_ms[0], cv2, 0.90)),
        p99_read_latency_ms=float(gamma_quantile(vm_ms[0], cv2, 0.99)),
        p90_write_latency_ms=float(gamma_quantile(vm_ms[1], cv2, 0.90)),
        p99_write_latency_ms=float(gamma_quantile(vm_ms[1], cv2, 0.99)),
        utilization={s: float(u) for s, u in zip(names, util)},
        host_cpu_utilization=host_util,
        bottleneck=bottleneck,
        limited_by=limited_by,
        saturated=bool(saturated),
        outstanding_ios=iops * mean_vm / 1e3,
        cpu_lp_us_per_io=cpu_per_io * 1e6,
    )
    out["host_cpu_utilization_of_usable"] = float(np.clip((host_util - idle) / (top - idle), 0.0, 1.0))
    return out
