"""Bandwidth inside a server that an IO's data crosses: PCIe and memory.

Neither is a queue in the model. Every published S2D result the project
holds leaves both well below their peak (the checks in
:mod:`planner.calibration.published` run at 4-61 % of memory and 0-35 % of PCIe
bandwidth by this module's count), so queueing on them would change no
prediction; they are reported beside the stations, and a design that would
pass either peak gets a warning that its figures are then optimistic.

Peaks are datasheet figures: memory channels and their data rate (64-bit
channels: transfer rate x 8 bytes, JEDEC DDR4/DDR5), PCIe lanes per CPU and
the per-lane rate of their generation (PCI-SIG: 8, 16, 32 GT/s with 128b/130b
encoding for gen 3-5; 64 GT/s FLIT mode with 242 of 256 bytes carrying data
for gen 6). Real sustained rates are lower (STREAM-style copies reach roughly
70-85 % of memory peak), so a utilisation here is a lower bound.

The traffic per IO is counted from the data path, not fitted. In units of
the IO's bytes:

* a device read DMAs the data into memory (1 memory, 1 PCIe upstream); a
  read from persistent memory is a CPU copy (2 memory: load and store, no
  PCIe);
* a device write DMAs it out of memory (1 memory, 1 PCIe downstream), or is
  a CPU copy into persistent memory (2 memory);
* a network crossing reads the buffer on the sending node and writes it on
  the receiving one (2 memory, 1 PCIe down + 1 up); RDMA places it directly
  (Microsoft, *SMB Direct*), TCP/IP receives into the stack's buffers and
  copies it out (2 memory more);
* a destaged write is read back from the cache device and written to a
  capacity drive; a parity read-modify-write reads before it writes;
* the VM's buffer is the DMA target (Hyper-V passes guest buffers to the
  host's storage stack), so the guest adds no copy.
"""

from __future__ import annotations

import numpy as np

from planner.core.types import FloatArray
from planner.models.design import ResolvedNode

#: DDR data rate of a channel holding Optane persistent memory, MT/s, per
#: generation (Intel product briefs: the 100 series runs at DDR4-2666, the
#: 200 series at up to DDR4-3200).
PMEM_CHANNEL_MT_S = {100: 2666, 200: 3200}

#: PCIe data rate per lane and direction, MB/s (PCI-SIG base specifications: 2.5 and 5 GT/s with
#: 8b/10b coding for generations 1 and 2, 128b/130b from generation 3).
PCIE_LANE_MB_S = {
    1: 2500 * 8 / 10 / 8,
    2: 5000 * 8 / 10 / 8,
    3: 8000 * 128 / 130 / 8,
    4: 16000 * 128 / 130 / 8,
    5: 32000 * 128 / 130 / 8,
    6: 64000 * 242 / 256 / 8,
}


def pcie_bandwidth_mb_s(lanes: FloatArray, gen: FloatArray) -> FloatArray:
    """Per-direction bandwidth of ``lanes`` PCIe lanes of generation ``gen``, MB/s."""
    return np.asarray(lanes, dtype=float) * np.vectorize(PCIE_LANE_MB_S.__getitem__, otypes=[float])(gen)


def memory_bandwidth_mb_s(sockets: FloatArray, channels_per_socket: FloatArray, mt_s: FloatArray) -> FloatArray:
    """Peak memory bandwidth, MB/s: sockets x channels x transfers/s x 8 bytes
    (a DDR4/DDR5 channel is 64 data bits wide)."""
    return np.asarray(sockets, dtype=float) * channels_per_socket * np.asarray(mt_s, dtype=float) * 8.0


def traffic_per_io(
    read_fraction: FloatArray,
    read_hit: FloatArray,
    pmem_cache: FloatArray,
    hops_read: FloatArray,
    hops_write: FloatArray,
    backend_writes: FloatArray,
    write_caching: FloatArray,
    destaged: FloatArray,
    rmw_reads: FloatArray,
    tcp: FloatArray,
) -> dict[str, FloatArray]:
    """Memory and PCIe traffic per front-end IO, in units of the IO's bytes,
    cluster-wide (the module docstring gives the count).

    Parameters
    ----------
    read_fraction : share of IOs that read.
    read_hit : share of reads served by the cache device.
    pmem_cache : the cache devices are persistent memory (CPU copies, no PCIe).
    hops_read, hops_write : network crossings per read / write.
    backend_writes : copies written per front-end write.
    write_caching : writes land on the cache device.
    destaged : copies per write later moved from cache to a capacity drive.
    rmw_reads : device reads per write for parity read-modify-write.
    tcp : TCP/IP transport (a receive copy per crossing).

    Returns
    -------
    dict of ``memory``, ``pcie_up`` (device to memory), ``pcie_down``
    (memory to device), each per front-end IO.
    """
    r = np.asarray(read_fraction, dtype=float)
    w = 1.0 - r
    pm = np.asarray(pmem_cache, dtype=bool)
    hit_pm = np.where(pm, read_hit, 0.0)
    net_mem = 2.0 + np.where(tcp, 2.0, 0.0)
    # reads: the serving device, then any crossing
    rd_mem = (1.0 - hit_pm) + 2.0 * hit_pm + hops_read * net_mem
    rd_up = (1.0 - hit_pm) + hops_read
    rd_down = hops_read
    # writes: each copy to its device (cache or drive), crossings, RMW reads,
    # and the destage (cache read back, drive write) that follows
    to_pmem = np.asarray(write_caching, dtype=bool) & pm
    wr_mem = (
        backend_writes * np.where(to_pmem, 2.0, 1.0)
        + hops_write * net_mem
        + rmw_reads
        + destaged * (np.where(pm, 2.0, 1.0) + 1.0)
    )
    wr_up = hops_write + rmw_reads + destaged * np.where(pm, 0.0, 1.0)
    wr_down = backend_writes * np.where(to_pmem, 0.0, 1.0) + hops_write + destaged
    return {"memory": r * rd_mem + w * wr_mem, "pcie_up": r * rd_up + w * wr_up, "pcie_down": r * rd_down + w * wr_down}


def lanes_needed(nvme_devices: list[tuple[int, int | None]], nics: tuple[int, int | None]) -> int | None:
    """PCIe lanes the node's NVMe devices and NICs attach with: sum of count x
    link width; None when any width is unknown. SAS/SATA drives sit behind an
    HBA whose width the catalog does not hold, so they are not counted."""
    total = 0
    for count, lanes in [*nvme_devices, nics]:
        if count and lanes is None:
            return None
        total += count * (lanes or 0)
    return total


def node_lanes(n: ResolvedNode) -> tuple[int | None, int | None]:
    """PCIe lanes a node's NVMe devices and NICs need (:func:`lanes_needed`) and its CPUs provide (the CPU record's
    ``pcie_lanes`` x populated sockets), None where a record lacks a width. A property of the build alone: the
    report says it with or without a workload (it was said only with ``--workload``; architect walk)."""
    nvme = [(n.drive_count, n.drive.pcie_lanes if n.drive.interface == "nvme" else 0)]
    if n.cache is not None and n.cache.kind == "nvme":
        nvme.append((n.cache_count, n.cache.pcie_lanes))
    need = lanes_needed(nvme, (n.nic_count, n.nic.pcie_lanes))
    return need, n.cpu.pcie_lanes * n.sockets if n.cpu.pcie_lanes else None
