"""Drive IOs per front-end IO for controller RAID levels (RAID 1, 10, 5).

Rules and sources
-----------------
* Mirroring (RAID 1, RAID 10) writes every block to both sides; reads need one
  side, and a controller that reads from both sides spreads them over every
  drive (Patterson, Gibson & Katz, *A case for redundant arrays of inexpensive
  disks (RAID)*, SIGMOD 1988). ADMIN magazine 28/2015 measured RAID 1 of two
  SSDs at 1.4x one SSD's random reads: both sides serve reads.
* RAID 5 small writes are read-modify-write: read old data and old parity,
  write new data and new parity, 4 drive IOs (Patterson et al. 1988; HP, *Understanding
  endurance and performance characteristics of HP solid state drives*: "RAID 5
  and RAID 6 require the Smart Array controller to perform two read-modify-write
  operations to the back-end array drives for every host-level random write").
  A write covering a whole stripe writes data and parity without reading.
* Striping: a strip of ``stripe_kib`` per drive; an IO larger than a strip is
  split over ``ceil(size / strip)`` drives (aligned IOs assumed). HP: "The strip
  size ... can be set from 16 KiB up to 1024 KiB".
* Write-back controller cache coalesces sequential writes into full stripes
  (HP, *HP Smart Array Controllers and basic RAID performance factors*:
  "Sequential writes allow the Smart Array controller to coalesce them into
  full stripe writes. For RAID 5 and RAID 6, this eliminates the additional read
  operations"); the sequential share of writes is taken as coalesced.
"""

from __future__ import annotations

import math

LEVELS = ("raid1", "raid10", "raid5")


def strips(block_size_kib: float, stripe_kib: float) -> tuple[int, float]:
    """(drives one IO touches, KiB per drive IO) for an aligned IO."""
    c = max(1, math.ceil(block_size_kib / stripe_kib - 1e-9))
    return c, block_size_kib / c


def read_ios(level: str, block_size_kib: float, stripe_kib: float) -> tuple[float, float]:
    """(drive reads per front-end read, KiB each)."""
    c, chunk = strips(block_size_kib, stripe_kib)
    return float(c), chunk


def write_ios(
    level: str, drives: int, block_size_kib: float, stripe_kib: float, full_stripe_share: float = 0.0
) -> tuple[float, float, float]:
    """(drive reads, drive writes, KiB each) per front-end write.

    ``full_stripe_share``: share of RAID 5 writes the controller assembles into
    full stripes (coalesced sequential writes); the rest are read-modify-write
    unless the IO itself spans a whole stripe.
    """
    c, chunk = strips(block_size_kib, stripe_kib)
    if level in ("raid1", "raid10"):
        return 0.0, 2.0 * c, chunk
    data = drives - 1
    full_w = c * drives / data
    if c >= data:
        return 0.0, full_w, chunk
    s = min(max(full_stripe_share, 0.0), 1.0)
    return (1.0 - s) * (c + 1.0), (1.0 - s) * (c + 1.0) + s * full_w, chunk


def read_servers(level: str, drives: int, both_sides: bool = True) -> float:
    """Drives that share the reads: all of them, or one side of a mirror."""
    if level in ("raid1", "raid10") and not both_sides:
        return drives / 2.0
    return float(drives)


def usable_fraction(level: str, drives: int) -> float:
    """Share of raw capacity that holds data."""
    return 0.5 if level in ("raid1", "raid10") else (drives - 1) / drives
