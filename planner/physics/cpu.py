"""CPU cost of IO: guest (in the VM's vCPUs) and host (hypervisor + storage stack).

Costs are logical-processor microseconds per IO at :data:`REFERENCE_GHZ` and
scale with 1 / base clock (cycles per IO held constant). Dell's planning rule
of thumb, ~15k 4K IOPS per logical processor (Dell Azure Stack HCI planning
guide, see ``hardware_catalog``), is the order of magnitude; the actual
figures are fitted (:mod:`planner.calibration.fit`).

* Utilisation law: U_cpu = X * D_cpu / LPs.
* ``cpu_utilization_cap`` is an operating policy: load is admitted only up to
  the throughput at which host CPU reaches the cap.
* ``vcpu_oversubscription`` bounds how many vCPUs a node may host
  (LPs x ratio) and what share of a physical LP one vCPU is guaranteed under
  contention (1 / ratio).
"""

from __future__ import annotations

import numpy as np

from planner.core.types import FloatArray
from planner.models.params import REFERENCE_GHZ, ModelParams


def clock_scale(base_ghz: FloatArray) -> FloatArray:
    """Multiplier of reference-clock CPU times for a CPU at ``base_ghz``."""
    return REFERENCE_GHZ / np.asarray(base_ghz, dtype=float)


def guest_us_per_io(p: ModelParams, base_ghz: FloatArray) -> FloatArray:
    """The guest IO stack's CPU per IO inside a VM on a CPU at ``base_ghz`` [us].

    The fit's ``guest_cpu_us`` at the reference clock (:data:`planner.models.params.REFERENCE_GHZ`),
    scaled by :func:`clock_scale`.
    """
    return p.guest_cpu_us * clock_scale(base_ghz)


def host_read_us(
    p: ModelParams, hops: FloatArray, block_size_kib: FloatArray, tcp_cpu_per_crossing_us: FloatArray = 0.0
) -> FloatArray:
    """Host LP-us per front-end read at the reference clock.

    ``tcp_cpu_per_crossing_us``: the extra host CPU of a crossing over TCP/IP
    instead of RDMA (SMB Direct offloads the transfer to the NIC).
    """
    return (
        p.host_cpu_read_us
        + hops * (p.host_cpu_hop_us + tcp_cpu_per_crossing_us)
        + p.host_cpu_per_kib_us * np.asarray(block_size_kib, dtype=float)
    )


def host_write_us(
    p: ModelParams,
    backend_writes: FloatArray,
    rmw_reads: FloatArray,
    hops: FloatArray,
    block_size_kib: FloatArray,
    tcp_cpu_per_crossing_us: FloatArray = 0.0,
) -> FloatArray:
    """Host LP-us per front-end write at the reference clock."""
    return (
        p.host_cpu_write_us * backend_writes
        + p.host_cpu_read_us * rmw_reads
        + hops * (p.host_cpu_hop_us + tcp_cpu_per_crossing_us)
        + p.host_cpu_per_kib_us * np.asarray(block_size_kib, dtype=float)
    )


def cap_throughput_iops(
    cap: FloatArray, p: ModelParams, lps_total: FloatArray, cpu_lp_s_per_io: FloatArray
) -> FloatArray:
    """Cluster IOPS at which host CPU reaches ``cap`` (utilisation law, X = U * LPs / D).

    The cap cannot exceed the fitted SMT ceiling, and the idle load is served first.
    """
    usable = np.maximum(np.minimum(cap, p.host_cpu_max_utilization) - p.host_cpu_idle_utilization, 0.0)
    return usable * lps_total / cpu_lp_s_per_io


def destage_us(p: ModelParams, destaged_copies: FloatArray, block_size_kib: FloatArray) -> FloatArray:
    """Host LP-us per front-end write to destage its cached copies at the
    reference clock: each is a local read of the cache device and a local write
    to a capacity drive, at the same per-IO and per-KiB costs as any other."""
    return np.asarray(destaged_copies, dtype=float) * (
        p.host_cpu_read_us + p.host_cpu_write_us + p.host_cpu_per_kib_us * np.asarray(block_size_kib, dtype=float)
    )


#: the size of the IOs a Storage Spaces Direct or vSAN repair moves data in [KiB]: an assumption. Neither Microsoft
#: nor Broadcom publishes it; a rebuild copies whole extents (S2D's slabs, vSAN's components) sequentially, so its
#: IOs are large and the fitted per-KiB cost dominates the per-IO ones (at 1 MiB the per-IO costs are about a tenth
#: of an S2D repair IO's CPU; at 4 MiB, Ceph's RBD object, a fortieth)
REPAIR_IO_KIB = 1024.0


def repair_cpu_lps(
    rate_bytes_s: FloatArray, io_kib: FloatArray, lp_us_per_io: FloatArray, clock_scale: FloatArray
) -> FloatArray:
    """Logical processors a repair keeps busy re-protecting data at ``rate_bytes_s`` [LP], vectorised: one rule for
    every stack (Ceph's recovery, :func:`planner.physics.ceph.recovery_cpu_lps`; Storage Spaces Direct's and vSAN's
    rebuild, :func:`repair_lp_us_per_io`).

    Parameters
    ----------
    rate_bytes_s : [B/s] the bytes the repair rebuilds (writes) per second.
    io_kib : [KiB] the bytes one repair IO rebuilds.
    lp_us_per_io : [LP-us] the stack's fitted CPU for one repair IO (its reads and its write) at the reference clock.
    clock_scale : [-] the nodes' CPU clock against the reference (:func:`clock_scale`).

    Returns
    -------
    The repair IOs per second times their CPU each [LP] (the utilisation law, U = X D).
    """
    ios_s = np.asarray(rate_bytes_s, dtype=float) / (np.asarray(io_kib, dtype=float) * 1024.0)
    return ios_s * np.asarray(lp_us_per_io, dtype=float) * 1e-6 * np.asarray(clock_scale, dtype=float)


def repair_lp_us_per_io(
    p: ModelParams, data_chunks: FloatArray, io_kib: FloatArray, tcp_cpu_per_crossing_us: FloatArray = 0.0
) -> FloatArray:
    """Host LP-us of one Storage Spaces Direct or vSAN repair IO at the reference clock [LP-us], costed as client
    IO's is (the fit's CPU per IO: vSAN's reports use S2D's fit).

    A repair IO rebuilds ``io_kib`` of a lost copy or chunk: it reads ``data_chunks`` (k) surviving ones, each a
    read that crosses the network to the rebuilding node (:func:`host_read_us` with one crossing), and writes the
    rebuilt one there (:func:`host_write_us`, one backend write, no crossing).
    """
    k = np.asarray(data_chunks, dtype=float)
    return k * host_read_us(p, 1.0, io_kib, tcp_cpu_per_crossing_us) + host_write_us(
        p, 1.0, 0.0, 0.0, io_kib, tcp_cpu_per_crossing_us
    )
