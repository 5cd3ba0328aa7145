"""Electrical power and heat of a node, from its parts' catalog figures."""

from __future__ import annotations

from planner.models.catalog import Cpu, Record
from planner.models.design import ResolvedDesign, ResolvedNode

#: W -> BTU/h (1 W = 3.412 BTU/h)
BTU_H_PER_W = 3.412


def node_parts(rd: ResolvedDesign) -> list[tuple[str, Record | None, float]]:
    """(role, record, count per node) for every priced part of a node; RAM of a
    design without DIMMs is the role 'ram' with record None and count = GB."""
    return resolved_node_parts(rd.node)


def resolved_node_parts(n: ResolvedNode) -> list[tuple[str, Record | None, float]]:
    """:func:`node_parts` of a :class:`planner.models.design.ResolvedNode` (a file
    server of a disaggregated design has the same parts as an HCI node)."""
    parts: list[tuple[str, Record | None, float]] = []
    if n.chassis is not None:
        parts.append(("chassis", n.chassis, 1))
    parts.append(("cpu", n.cpu, n.sockets))
    if n.dimm is not None:
        parts.append(("memory", n.dimm, n.dimm_count))
    else:
        parts.append(("ram", None, n.ram_gb))
    parts.append(("capacity drive", n.drive, n.drive_count))
    if n.cache is not None:
        parts.append(("cache", n.cache, n.cache_count))
    parts.append(("nic", n.nic, n.nic_count))
    return parts


def unit_power_w(role: str, rec: Record | None) -> float:
    if rec is None:
        return 0.0
    if role == "cpu" and isinstance(rec, Cpu):
        return float(rec.power_w or rec.tdp_w)
    return float(rec.power_w or 0.0)


def node_power_w(rd: ResolvedDesign) -> float:
    """Typical power of one node, W (catalog power_w; CPUs at TDP when no figure)."""
    return float(sum(unit_power_w(role, rec) * count for role, rec, count in node_parts(rd)))
