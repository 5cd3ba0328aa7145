"""Unit conversions, in one place: decimal for capacity and rates (as datasheets and
Microsoft's tables give them), binary for IO sizes (a 4 KiB IO is 4,096 bytes).

Names carry their unit: ``capacity_tb`` (10^12 bytes), ``bandwidth_mb_s`` (10^6 bytes/s),
``block_size_kib`` (1,024 bytes).
"""

from __future__ import annotations

from planner.core.types import FloatArray

#: bytes in a kibibyte (IO sizes)
KIB = 1024.0
#: bytes in a megabyte / gigabyte / terabyte (decimal: rates and capacity)
MB = 1e6
GB = 1e9
TB = 1e12
#: bytes in a tebibyte
TIB = 2.0**40
US = 1e-6
MS = 1e-3


def kib_to_mb(kib: FloatArray) -> FloatArray:
    """KiB to decimal MB: ``kib x 1024 / 10^6`` (an IO's size as bandwidth needs it)."""
    return kib * KIB / MB


def mb_s(iops: FloatArray, block_size_kib: FloatArray) -> FloatArray:
    """Bandwidth in decimal MB/s of ``iops`` IOs of ``block_size_kib`` KiB."""
    return iops * block_size_kib * KIB / MB


def tb_to_tib(capacity_tb: FloatArray) -> FloatArray:
    """Decimal TB to TiB."""
    return capacity_tb * TB / TIB
