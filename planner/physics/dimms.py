"""A server's DIMMs: which sets of catalog memory modules build its RAM in its slots, and the set a design
that gives its RAM as a total is priced, powered and judged as; one rule for every server a design buys, a
hyperconverged node (:class:`planner.models.design.ResolvedNode`) and a server named by its CPU and RAM alone
(:class:`planner.models.design.ResolvedServer`: a database, compute, client or single server, a file server).

One rule for a named DIMM set (``node.dimms``), for a RAM total and for the sizer's DIMM staircase
(:func:`planner.sizing.search._memory`):

* one module type per node (a design names one: ``node.dimms`` is a model and a count);
* of the platform's memory type (the CPU's and the chassis's, DDR4 or DDR5);
* within the DIMM slots of the populated sockets, less those PMem modules take
  (:func:`usable_dimm_slots`); a server that names no chassis has no slot count, and is held to two
  DIMMs per channel, the most a balanced population takes (an estimate, said: :func:`slots_estimate`);
* balanced: one or two DIMMs per channel on every channel of every socket (:func:`dimm_counts`). This is
  a vendor rule, not a physical limit ([DE], [DM]); a set that fits the slots but not it can be built,
  and the ``memory_config`` rule says "(unbalanced)".

A design that names no DIMMs is built of the cheapest such set, at the catalog's list prices, balanced
before unbalanced (so the rule's verdict never depends on a price): a walk priced 1,536 GB per node on a
Dell AX-660 at the 32 GB module's $31.25 a GB ($239,998 for five nodes), which 32 slots cannot hold, where
the only set that builds it is 16 x 96 GB at $35.70 a GB (presales walk 2026-12-01). A total no set
builds is refused by the rule and by the price (:func:`ram_refusal`), not priced per GB as if it could be.

References
----------
Chassis, CPU and memory-module records (``dimm_slots``, ``memory_channels``, ``memory_type``,
``max_ram_gb``, ``capacity_gb``, ``list_price_usd``), each with its source.

[DE] Dell, PowerEdge R420xr owner's manual, "General Memory Module Installation Guidelines": "In a
     dual-processor configuration, the memory configuration for each processor must be identical".
[DM] F. Denneman, "Memory Deep Dive Part 6: NUMA Architecture and Data Locality" (frankdenneman.nl,
     2015): "Design for an even population of DIMMs across sockets and channels"; unbalanced DIMMs per
     channel "can lead to 30% performance decrease".
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from planner.core.text import and_list, count
from planner.models.catalog import Chassis, Cpu, MemoryModule
from planner.models.design import ResolvedNode, ResolvedServer

#: a server whose RAM is built of DIMMs: a node, or a server named by its CPU and RAM alone
MemoryHost = ResolvedNode | ResolvedServer

#: DIMMs per channel a balanced population takes (vendors' memory guides: one or two per channel)
DIMMS_PER_CHANNEL = (1, 2)


@dataclass(frozen=True)
class Population:
    """``count`` DIMMs of ``module`` in one node; ``balanced`` when they fill every channel of every
    socket alike; ``named`` when the design names them (``node.dimms``), else hciplan chose them."""

    module: MemoryModule
    count: int
    balanced: bool
    named: bool

    @property
    def ram_gb(self) -> float:
        """The RAM they add up to [GB]."""
        return self.module.capacity_gb * self.count

    @property
    def words(self) -> str:
        """'16 x 96 GB DDR5', as the rule and the parts list say it."""
        return f"{self.count} x {self.module.capacity_gb:g} GB {self.module.memory_type.upper()}"


def dimm_counts(channels_per_socket: int | None, sockets: int, usable_slots: int) -> list[int]:
    """DIMM counts per node that populate every channel of every socket evenly:
    one or two DIMMs per channel (balanced, as platform memory guides ask);
    without a channel count, any even count up to the slots."""
    if usable_slots <= 0:
        return []
    if channels_per_socket:
        return [
            k * channels_per_socket * sockets
            for k in DIMMS_PER_CHANNEL
            if k * channels_per_socket * sockets <= usable_slots
        ]
    return list(range(2, usable_slots + 1, 2))


def usable_dimm_slots(dimm_slots: int, chassis_sockets: int, sockets: int, pmem_modules: int = 0) -> int:
    """DIMM slots of the populated sockets, less those PMem modules take."""
    return dimm_slots * sockets // max(chassis_sockets, 1) - pmem_modules


def balanced_populations(
    modules: Iterable[MemoryModule],
    memory_type: str | None,
    channels_per_socket: int | None,
    sockets: int,
    usable_slots: int,
    max_ram_gb: float = math.inf,
) -> list[tuple[MemoryModule, int]]:
    """Every balanced set (module, count) of ``modules`` of ``memory_type`` (any, when None) in
    ``usable_slots`` of ``sockets`` sockets, holding at most ``max_ram_gb`` [GB]: the sets the sizer
    chooses among and the ones a RAM total is built of first."""
    counts = dimm_counts(channels_per_socket, sockets, usable_slots)
    return [
        (m, k)
        for m in modules
        if memory_type is None or m.memory_type == memory_type
        for k in counts
        if k * m.capacity_gb <= max_ram_gb + 1e-9
    ]


def node_memory_type(n: MemoryHost) -> str | None:
    """The memory type a node takes: its CPU's and its chassis's (the CPU's where the chassis says none)."""
    return (n.chassis.memory_type if n.chassis is not None else None) or n.cpu.memory_type


def _pmem_modules(n: MemoryHost) -> int:
    return n.cache_count if n.cache is not None and n.cache.kind == "pmem" else 0


def node_dimm_slots(n: MemoryHost) -> int:
    """DIMM slots a node's DIMMs may take: its chassis's of the populated sockets less the PMem modules'; with no
    chassis named, two per channel of every socket (the most a balanced set takes)."""
    if n.chassis is not None:
        return usable_dimm_slots(n.chassis.dimm_slots, n.chassis.cpu_sockets, n.sockets, _pmem_modules(n))
    return max(DIMMS_PER_CHANNEL) * (n.cpu.memory_channels or 0) * n.sockets


def slots_estimate(n: MemoryHost) -> str | None:
    """How a server's DIMM slots are taken where the catalog gives none (its design names no chassis): two per
    channel of its CPUs', the most a balanced set takes, said so its DIMMs read as the estimate they are; None
    where its chassis's record gives them."""
    if n.chassis is not None:
        return None
    ch = n.cpu.memory_channels
    return (
        f"no chassis named, so no slot count: its slots are taken as {max(DIMMS_PER_CHANNEL)} per channel of its "
        f"CPUs' {ch or '?'} channels x {count(n.sockets, 'socket')} = {node_dimm_slots(n)}, the most a balanced "
        "set takes"
    )


def max_ram_gb(chassis: Chassis | None, cpu: Cpu, sockets: int) -> float:
    """The most RAM a node takes [GB]: the lower of its chassis's maximum for the populated sockets and its CPUs'
    (the most one socket addresses x sockets); no limit where neither record gives one. One rule for the
    ``memory_config`` rule, a RAM total's nearest sets (:func:`ram_refusal`) and the sizer's DIMM staircase.

    Parameters
    ----------
    chassis : Chassis or None
        Its ``max_ram_gb`` is a fully populated board's.
    cpu : Cpu
        Its ``max_memory_gb_per_socket`` (Intel's "Max Memory Size": standard Cascade Lake SKUs 1 TB per socket).
    sockets : int
        Populated sockets [-].
    """
    board = chassis.max_ram_gb * sockets / max(chassis.cpu_sockets, 1) if chassis is not None else math.inf
    cpus = cpu.max_memory_gb_per_socket * sockets if cpu.max_memory_gb_per_socket else math.inf
    return min(board, cpus)


def node_max_ram_gb(n: MemoryHost) -> float:
    """The most RAM the node takes with its populated sockets [GB] (:func:`max_ram_gb`)."""
    return max_ram_gb(n.chassis, n.cpu, n.sockets)


def ram_ceiling(n: MemoryHost) -> tuple[bool, str]:
    """Whether the node's RAM is within its chassis's and its CPUs' maximum (:func:`max_ram_gb`), and the words the
    ``memory_config`` rule adds: what it is above, or that the CPU's ceiling was not checked where its record gives
    none (an R640 with 2 Xeon Gold 6246 and 3,072 GB passed, 1.5 TB a socket on a 1 TB-a-socket CPU; architect
    walk)."""
    cpu, ch = n.cpu, n.chassis
    per_socket = cpu.max_memory_gb_per_socket
    over = []
    if per_socket and n.ram_gb > per_socket * n.sockets + 1e-9:
        over.append(f"{count(n.sockets, 'CPU')} x {per_socket:,.0f} GB, the most {cpu.name} addresses per socket")
    if ch is not None and n.ram_gb > ch.max_ram_gb * n.sockets / max(ch.cpu_sockets, 1) + 1e-9:
        over.append(f"{ch.max_ram_gb * n.sockets / max(ch.cpu_sockets, 1):,.0f} GB, {ch.name}'s most")
    if over:
        return False, f"{n.ram_gb:,.0f} GB is above {' and '.join(over)}"
    return True, "" if per_socket else f"{cpu.name}'s memory per socket is not in its record (not checked)"


def _modules(n: MemoryHost) -> list[MemoryModule]:
    """The catalog's modules of the node's memory type."""
    mt = node_memory_type(n)
    return [m for m in n.ram_modules if mt is None or m.memory_type == mt]


def _rank(p: Population, channels: int) -> tuple[bool, float, int, int]:
    """Balanced first (the verdict never hangs on a price), then the cheaper at list price, then the one
    leaving fewer channels empty, then fewer DIMMs (less power, slots left)."""
    price = p.module.list_price_usd if p.module.list_price_usd is not None else math.inf
    return (not p.balanced, price * p.count, max(channels - p.count, 0), p.count)


def ram_populations(n: MemoryHost) -> list[Population]:
    """Every set of one catalog module of the node's memory type, split evenly over its sockets, that holds
    exactly its ``ram_gb`` within its slots (:func:`node_dimm_slots`), cheapest first (:func:`_rank`)."""
    slots = node_dimm_slots(n)
    balanced = set(dimm_counts(n.cpu.memory_channels, n.sockets, slots))
    out = []
    for m in _modules(n):
        k = n.ram_gb / m.capacity_gb
        if abs(k - round(k)) > 1e-9 * max(k, 1.0):
            continue
        k = round(k)
        if 1 <= k <= slots and k % n.sockets == 0:
            out.append(Population(m, k, k in balanced, named=False))
    channels = (n.cpu.memory_channels or 0) * n.sockets
    return sorted(out, key=lambda p: _rank(p, channels))


def node_dimms(n: MemoryHost) -> Population | None:
    """The DIMMs of a node: those its design names, else the cheapest set of catalog modules that builds its
    RAM (:func:`ram_populations`); None where none does or the catalog has no module of its memory type."""
    if n.dimm is not None:
        slots = node_dimm_slots(n) if n.chassis is not None else n.dimm_count
        balanced = n.dimm_count in dimm_counts(n.cpu.memory_channels, n.sockets, slots)
        return Population(n.dimm, n.dimm_count, balanced, named=True)
    found = ram_populations(n)
    return found[0] if found else None


def ram_refusal(n: MemoryHost) -> str | None:
    """Why no set of the catalog's modules builds the node's RAM, in one line (None where one does, or where
    the catalog has no module of its memory type to judge by): the module sizes, the slots and the nearest
    totals a balanced set builds."""
    mods = _modules(n)
    if n.dimm is not None or not mods or ram_populations(n):
        return None
    slots = node_dimm_slots(n)
    mt = (node_memory_type(n) or "").upper()
    sizes = and_list([f"{c:g}" for c in sorted({m.capacity_gb for m in mods})]) + " GB"
    where = (
        f"{n.chassis.name}'s {count(slots, 'DIMM slot')}"
        if n.chassis is not None
        else f"{count(slots, 'DIMM')} (no chassis named: {max(DIMMS_PER_CHANNEL)} per channel)"
    )
    near: dict[float, list[Population]] = {}
    for m, k in balanced_populations(mods, None, n.cpu.memory_channels, n.sockets, slots, node_max_ram_gb(n)):
        p = Population(m, k, True, named=False)
        near.setdefault(p.ram_gb, []).append(p)
    below = [g for g in near if g < n.ram_gb]
    above = [g for g in near if g > n.ram_gb]
    channels = (n.cpu.memory_channels or 0) * n.sockets

    def said(gb: float) -> str:
        best = min(near[gb], key=lambda p: _rank(p, channels))
        return f"{gb:,.0f} GB ({best.count} x {best.module.capacity_gb:g} GB)"

    nearest = [said(max(below))] if below else []
    nearest += [said(min(above))] if above else []
    tail = f"; a balanced set builds {' or '.join(nearest)}" if nearest else ""
    node = isinstance(n, ResolvedNode)
    return (
        f"{n.ram_gb:,.0f} GB of RAM per {'node' if node else 'server'} is no whole number of one {mt} module of "
        f"the catalog's ({sizes}) split evenly over {count(n.sockets, 'socket')} within {where}{tail}; "
        # no field id first: the Design page has a RAM box and no DIMM box (verification walk 2026-12-01); a
        # server named by its CPU and RAM alone has no DIMM field
        + (
            "give one of those totals, or name the DIMMs in a design file (node.dimms)"
            if node
            else "give one of those totals"
        )
    )
