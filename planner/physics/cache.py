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
"""

from __future__ import annotations

import numpy as np


def write_absorption(working_set_footprint_gb, cache_gb):
    w = np.asarray(working_set_footprint_gb, dtype=float)
    c = np.asarray(cache_gb, dtype=float)
    return np.clip(1.0 - w / np.maximum(c, 1e-9), 0.0, 1.0) * (c > 0)


def read_hit_ratio(working_set_footprint_gb, cache_gb, read_caching):
    w = np.asarray(working_set_footprint_gb, dtype=float)
    c = np.asarray(cache_gb, dtype=float)
    return np.where(np.asarray(read_caching) & (c > 0), np.clip(c / np.maximum(w, 1e-9), 0.0, 1.0), 0.0)
