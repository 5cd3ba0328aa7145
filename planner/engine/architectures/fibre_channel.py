"""Fibre Channel link rates.

Data rate per direction of each speed class, MB/s (10^6 bytes/s), as the FC
standards' roadmap states them (Fibre Channel Industry Association; Wikipedia,
*Fibre Channel*, table of variants): 1GFC-8GFC use 8b/10b coding at
1.0625 Gbaud x speed (so 4GFC carries 4.25 Gbaud x 8/10 = 3.4 Gb/s, 400 MB/s of
payload after framing), 16GFC and 32GFC use 64b/66b at 14.025 / 28.05 Gbaud and
were defined as exactly 2x / 4x 8GFC's throughput. Links are full duplex: each
direction carries this rate.
"""

from __future__ import annotations

#: payload MB/s per direction by speed class
FC_MB_S: dict[int, float] = {1: 100.0, 2: 200.0, 4: 400.0, 8: 800.0, 16: 1600.0, 32: 3200.0, 64: 6400.0}


def link_mb_s(gfc: int) -> float:
    """Payload rate of one FC link per direction, MB/s."""
    if gfc not in FC_MB_S:
        raise ValueError(f"unknown Fibre Channel speed {gfc}GFC; one of {sorted(FC_MB_S)}")
    return FC_MB_S[gfc]
