"""Cache tier in front of the capacity drives.

Storage Spaces Direct binds cache devices to capacity drives. With a flash
capacity tier it caches writes only (reads are served by the capacity drives)
unless read caching is configured; with hard disks it caches reads and writes
(Microsoft, *Understanding the cache in Storage Spaces Direct*). Writes land in
the cache (on the IO's path: the cache device's latency and IOPS) and are
destaged to the capacity drives later (off the path: it loads the drives).

Overwrites of hot data are absorbed in the cache. With a working-set footprint
W (data x copies) and cache capacity C, we assume uniform access so a fraction
``max(0, 1 - W / C)`` of writes never needs destaging and, with read caching,
reads hit with probability ``min(1, C / W)`` (LRU under uniform access; Che et
al., 2002, degenerate case). These are modelling assumptions, not fits.

The other architectures' write-back caches (a RAID controller's, a SAN array's, a
Storage Spaces write-back cache) are held to a stricter rule in a sustained run:
every write is destaged (:func:`sustained_destage_share`), because controllers and
arrays write dirty data to the drives as fast as the drives take it (HP: "In high
workload environments, the write cache typically fills up and remains full most
of the time. The Smart array controller writes the data to the drive as it works
through the list of write commands in its write cache"), so the write rate a run
sustains is the destage rate; the cache lends only a burst while it fills
(:func:`burst_write_iops`). The SQLIO readme warns the other way ("the storage
array cache may absorb a good amount of write activity and potentially skew
results. Ensure that the duration is long enough to saturate the cache").
"""

from __future__ import annotations

import numpy as np

from planner.core.types import FloatArray


def write_absorption(working_set_footprint_gb: FloatArray, cache_gb: FloatArray) -> FloatArray:
    w = np.asarray(working_set_footprint_gb, dtype=float)
    c = np.asarray(cache_gb, dtype=float)
    return np.clip(1.0 - w / np.maximum(c, 1e-9), 0.0, 1.0) * (c > 0)


def read_hit_ratio(working_set_footprint_gb: FloatArray, cache_gb: FloatArray, read_caching: FloatArray) -> FloatArray:
    w = np.asarray(working_set_footprint_gb, dtype=float)
    c = np.asarray(cache_gb, dtype=float)
    return np.where(np.asarray(read_caching) & (c > 0), np.clip(c / np.maximum(w, 1e-9), 0.0, 1.0), 0.0)


def sustained_destage_share() -> float:
    """Share of front-end writes a write-back cache destages in a sustained run: 1.

    The assumption behind it (named ``destage_bound_writes`` in reports): the cache
    acknowledges a write from DRAM and writes it to the drives as fast as they take
    it; overwrites of a block still waiting are not credited, so a small test file
    in a large cache does not make writes free. The alternative, a cache kept full
    of dirty blocks that absorbs ``min(cache, file) / file`` of the writes
    (:func:`write_absorption`'s rule), would let a 2 GB file in a 10 GB array cache
    absorb every write.
    """
    return 1.0


def burst_write_iops(
    write_cache_gb: FloatArray, footprint_gb: FloatArray, run_s: FloatArray, block_size_kib: FloatArray
) -> FloatArray:
    """Writes per second, averaged over a run of ``run_s`` seconds, that a write-back
    cache takes beyond the destage rate while it fills from clean [IOPS].

    The cache can hold at most ``min(write_cache_gb, footprint_gb)`` of dirty data
    (a file smaller than the cache cannot dirty more than itself); spread over the
    run that is the extra rate. Zero when the run starts with a full cache (back-to-back
    runs of a sweep).

    Parameters
    ----------
    write_cache_gb : float
        Cache that holds writes [GB, decimal].
    footprint_gb : float
        Data the run writes to [GB].
    run_s : float
        Length of the run [s].
    block_size_kib : float
        Write size [KiB].
    """
    held = np.minimum(np.asarray(write_cache_gb, dtype=float), np.asarray(footprint_gb, dtype=float)) * 1e9
    return held / np.maximum(np.asarray(run_s, dtype=float), 1e-9) / (np.asarray(block_size_kib, dtype=float) * 1024.0)
