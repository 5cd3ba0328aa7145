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


# ------------------------------------------------------------------ names
# Every figure the planner reports is named with its unit: ``latency_ms``, ``capacity_tb``,
# ``cost_usd_per_month``. A name passes when one of its words (or word runs, ``mb_s``) is a unit,
# a count noun or a dimensionless name below. tests/test_units_in_names.py walks every JSON the
# command line prints and checks each number's name with :func:`names_a_unit`.

#: Units a name ends a quantity with, as the project spells them.
UNIT_SUFFIXES: dict[str, str] = {
    "us": "microseconds",
    "ms": "milliseconds",
    "s": "seconds (also a rate's denominator: ``log_flushes_per_s``)",
    "seconds": "seconds, spelled out",
    "hours": "hours",
    "months": "months",
    "years": "years",
    "bytes": "bytes",
    "kib": "kibibytes, 1,024 bytes (IO sizes)",
    "mb": "decimal megabytes, 10^6 bytes",
    "gb": "decimal gigabytes, 10^9 bytes",
    "tb": "decimal terabytes, 10^12 bytes",
    "tib": "tebibytes, 2^40 bytes",
    "mb_s": "decimal megabytes per second",
    "gbit_s": "gigabits per second (a port's line rate)",
    "gfc": "Fibre Channel speed class, as the standard names it (8GFC)",
    "mt_s": "mega-transfers per second (memory)",
    "ghz": "gigahertz (a processor's clock)",
    "w": "watts",
    "kwh": "kilowatt-hours",
    "btu_h": "British thermal units per hour (heat)",
    "m": "metres (cable length, reach)",
    "usd": "US dollars",
    "pct": "percent, 0..100",
    "iops": "IOs per second",
    "nopm": "HammerDB new orders per minute",
    "tpm": "transactions per minute",
    "dwpd": "drive writes per day (endurance)",
    "rpm": "revolutions per minute (a disk's spindle)",
}

#: Plural nouns whose count is the figure: the noun is the unit (``nodes``: 4 nodes).
COUNT_NOUNS: frozenset[str] = frozenset(
    {
        "bays", "channels", "controllers", "cores", "count", "counts", "crossings", "databases", "dbs",
        "designs", "disks", "domains", "drives", "enclosures", "evaluations", "flushes", "groups", "hbas",
        "hosts", "ios", "lanes", "links", "lps", "nics", "nodes", "osds", "outstanding", "pages", "paths",
        "platforms", "points", "ports", "quantity", "reads", "rounds", "samples", "servers", "sets",
        "signatures", "slots", "sockets", "steps", "switches", "threads", "units", "users", "vcpus", "vms",
        "volumes", "warehouses", "writes",
    }
)  # fmt: skip

#: Input fields that count what their name implies without the noun, each with what it counts;
#: kept as they are: users' files and the systems' own documentation use these names.
COUNT_NAMES: dict[str, str] = {
    "erasure_data": "data fragments per erasure-coded stripe (the code's k)",
    "erasure_parity": "parity fragments per erasure-coded stripe (the code's m)",
    "min_size": "copies a Ceph placement group needs to serve IO (Ceph's pool setting of that name)",
}

#: Names of dimensionless figures, each with why it needs no unit. Ratios the project reports
#: are named ``*_ratio`` (``limit_ratios``, ``demand_ratio``), parts of a reference ``*_fraction``;
#: the other words are the input fields' and model parameters' own, kept (files carry them).
DIMENSIONLESS: dict[str, str] = {
    "fraction": "a part of a reference quantity as a plain number (0.25 = 25 %)",
    "ratio": "a quotient of two quantities of the same unit (capacity over demand)",
    "share": "a part of a whole, 0..1 (the project's word for a fraction of a population)",
    "utilization": "busy time over available time, 0..1",
    "efficiency": "usable over raw capacity, or reached over datasheet throughput, 0..1",
    "oversubscription": "vCPUs per hardware thread: a ratio of two counts",
    "fill": "used over usable capacity, 0..1",
    "margin": "profit over price, 0..1",
    "alignment": "the share of VMs on the node that owns their volume, 0..1",
    "pue": "power usage effectiveness: facility power over IT power, by definition a ratio",
    "cv2": "squared coefficient of variation: variance over the squared mean",
    "factor": "a model parameter multiplying a figure of the same unit (one Ceph release's write CPU over Reef's)",
    "storage_cpu_wait": "a fitted multiple of the M/M/1 wait for the LP an IO is bound to; a model parameter's name",
    "index": "a condition number (collinearity_index): a quotient of singular values",
    "sensitivity": "relative change of the fit's error per relative change of a parameter",
    "objective": "the fit's loss over log(predicted / measured) residuals: logs of ratios",
    "version": "an identifier (schema_version, sql_server_version), not a quantity",
    "gen": "a PCIe generation: an ordinal, not a quantity",
    "generation": "a product generation (PMem 100 or 200 series): an ordinal, not a quantity",
}


def names_a_unit(name: str) -> bool:
    """Whether a field name carries a unit: one of its words (or runs of words, ``mb_s``) is in
    :data:`UNIT_SUFFIXES`, :data:`COUNT_NOUNS`, :data:`COUNT_NAMES` or :data:`DIMENSIONLESS` (there
    also in the plural: ``limit_ratios`` holds ratios).

    Parameters
    ----------
    name : str
        A snake_case field name, e.g. ``vm_latency_ms_high``.

    Returns
    -------
    bool
        True for ``read_latency_ms``, ``nodes_needed``, ``buffer_hit_ratio``; False for
        ``headroom`` or ``capacity``.
    """
    words = name.lower().split("_")
    runs = {"_".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, min(i + 3, len(words)) + 1)}
    singular = {r[:-1] for r in runs if r.endswith("s")}
    known = UNIT_SUFFIXES.keys() | COUNT_NOUNS | COUNT_NAMES.keys() | DIMENSIONLESS.keys()
    return bool(runs & known or singular & DIMENSIONLESS.keys())
