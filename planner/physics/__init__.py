"""Small pure functions, numpy-vectorised, each a datasheet rule or a published law:
capacity and resiliency (Microsoft's tables), device busy time, cache hits, network
crossings, CPU per IO, hosting (vCPUs and RAM), DIMM sets, endurance, PCIe and memory traffic, power,
and the vendors' sizing rules with their sources.

Imports :mod:`planner.models` and :mod:`planner.core`.
"""

__all__ = [
    "cache",
    "capacity",
    "ceph",
    "cpu",
    "devices",
    "dimms",
    "endurance",
    "hosting",
    "network",
    "pcie_memory",
    "power",
    "resiliency",
    "rules",
    "vsan",
]
