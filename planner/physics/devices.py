"""Device service times from datasheet figures, vectorised.

A flash device is treated as a pool of parallel servers whose aggregate rate
is the datasheet's IOPS (queue depth 128-256 spec conditions). Two limits
bound one device:

* IOPS: ``rand_read_4k_iops`` / ``rand_write_4k_iops``;
* bandwidth: ``seq_*_mb_s``; at large blocks IOPS <= bandwidth / block size.

Busy time per IO is therefore ``max(1 / iops, bytes / bandwidth)`` (the
bottleneck of the two; SNIA SSS PTS reports both as the device envelope).
A read/write mix on one device time-shares it, so busy times add linearly
(utilisation law). Datasheet figures are ideal; ``efficiency`` (fitted) scales
them to what the device delivers under the storage stack.
"""

from __future__ import annotations

import numpy as np

from planner.core.types import FloatArray

KIB = 1024.0


def busy_time_s(
    block_size_kib: FloatArray, iops_4k: FloatArray, bandwidth_mb_s: FloatArray, efficiency: FloatArray = 1.0
) -> FloatArray:
    """Device busy time per IO, seconds: max(1/IOPS, bytes/bandwidth) / efficiency."""
    bytes_ = np.asarray(block_size_kib, dtype=float) * KIB
    t_iops = 1.0 / np.asarray(iops_4k, dtype=float)
    t_bw = bytes_ / (np.asarray(bandwidth_mb_s, dtype=float) * 1e6)
    # below 4 KiB the IOPS figure still bounds; above, the bandwidth takes over
    return np.maximum(t_iops, t_bw) / efficiency


def max_iops(
    block_size_kib: FloatArray, iops_4k: FloatArray, bandwidth_mb_s: FloatArray, efficiency: FloatArray = 1.0
) -> FloatArray:
    """Largest IO rate of one device at this block size, IO/s."""
    return 1.0 / busy_time_s(block_size_kib, iops_4k, bandwidth_mb_s, efficiency)
