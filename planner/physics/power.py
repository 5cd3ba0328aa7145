"""Electrical power and heat of a node, from its parts' catalog figures."""

from __future__ import annotations

from planner.models.catalog import Cpu, Nic, Record
from planner.models.design import ResolvedClients, ResolvedDesign, ResolvedNode, ResolvedServer
from planner.physics.dimms import MemoryHost, node_dimms

#: W -> BTU/h (1 W = 3.412 BTU/h)
BTU_H_PER_W = 3.412
#: rack units of a server or array whose record gives none (a planning assumption: a 1U server, a 2U shelf)
DEFAULT_RACK_UNITS = {"server": 1, "array": 2}


def node_parts(rd: ResolvedDesign) -> list[tuple[str, Record | None, float]]:
    """(role, record, count per node) for every priced part of a node; its DIMMs are the role 'memory', those
    named or else the set that builds its RAM (:func:`planner.physics.dimms.node_dimms`); RAM no set of the
    catalog's modules builds is the role 'ram' with record None and count = GB."""
    return resolved_node_parts(rd.node)


def resolved_node_parts(n: ResolvedNode) -> list[tuple[str, Record | None, float]]:
    """:func:`node_parts` of a :class:`planner.models.design.ResolvedNode` (a file
    server of a disaggregated design has the same parts as an HCI node)."""
    parts: list[tuple[str, Record | None, float]] = []
    if n.chassis is not None:
        parts.append(("chassis", n.chassis, 1))
    parts.append(("cpu", n.cpu, n.sockets))
    parts.append(memory_part(n))
    parts.append(("capacity drive", n.drive, n.drive_count))
    if n.cache is not None:
        parts.append(("cache", n.cache, n.cache_count))
    parts.append(("nic", n.nic, n.nic_count))
    return parts


def memory_part(n: MemoryHost) -> tuple[str, Record | None, float]:
    """The (role, record, count per server) row of a server's RAM, one rule for every server a design buys: its
    DIMMs, the role 'memory' (those named, else the set that builds its RAM:
    :func:`planner.physics.dimms.node_dimms`); RAM no set of the catalog's modules builds (a memory type the
    catalog has no module of, a system the customer owns) is the role 'ram' with record None and count = GB."""
    dimms = node_dimms(n)
    return ("memory", dimms.module, dimms.count) if dimms is not None else ("ram", None, n.ram_gb)


def server_parts(s: ResolvedServer, nic: Nic | None, nic_count: int) -> list[tuple[str, Record | None, float]]:
    """(role, record, count per server) of a server a design names by CPU, RAM and NIC only (no drives: a
    database server, a file server, a client server, a single server): its chassis where the design names one,
    its CPUs, its RAM as DIMMs (:func:`memory_part`), its NICs. A shared JBOD's file server sits in a
    cluster-in-a-box whose enclosure (``shared_bays``) holds its nodes and is listed once, with the JBOD."""
    rows: list[tuple[str, Record | None, float]] = []
    if s.chassis is not None and not s.chassis.shared_bays:
        rows.append(("chassis", s.chassis, 1))
    rows += [("cpu", s.cpu, s.sockets), memory_part(s)]
    if nic is not None:
        rows.append(("nic", nic, nic_count))
    return rows


def server_rack_units(s: ResolvedServer) -> int:
    """Rack units of a server named by its CPU and RAM: its chassis's, none of its own in a cluster-in-a-box
    (the enclosure, listed with the shared JBOD, holds it), else a 1U server's (:data:`DEFAULT_RACK_UNITS`)."""
    if s.chassis is not None and s.chassis.shared_bays:
        return 0
    return (s.chassis.rack_units if s.chassis is not None else None) or DEFAULT_RACK_UNITS["server"]


def client_parts(c: ResolvedClients) -> list[tuple[str, Record | None, float]]:
    """:func:`server_parts` of a disaggregated Ceph or vSAN design's client server."""
    return server_parts(c, c.nic, c.nic_count)


def parts_cpu(parts: list[tuple[str, Record | None, float]]) -> Record | None:
    """The CPU record of a server's ``parts`` ((role, record, count) rows), None without one."""
    return next((rec for role, rec, _ in parts if role == "cpu"), None)


def parts_power_w(parts: list[tuple[str, Record | None, float]]) -> float:
    """Typical power of one server of ``parts`` ((role, record, count) rows), W."""
    return float(sum(unit_power_w(role, rec) * count for role, rec, count in parts))


def unit_power_w(role: str, rec: Record | None) -> float:
    if rec is None:
        return 0.0
    if role == "cpu" and isinstance(rec, Cpu):
        return float(rec.power_w or rec.tdp_w)
    return float(rec.power_w or 0.0)


def node_power_w(rd: ResolvedDesign) -> float:
    """Typical power of one node, W (catalog power_w; CPUs at TDP when no figure)."""
    return parts_power_w(node_parts(rd))
