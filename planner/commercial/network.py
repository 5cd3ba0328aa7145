"""Top-of-rack switches, cables and optics for a cluster's servers.

Counts follow the servers' NIC ports: every port of every NIC is cabled to a
top-of-rack switch (two switches for redundancy, Microsoft's recommendation for
Azure Local; more when the ports do not fit), plus the two switches' peer link
(two short cables at the switches' uplink speed). Uplinks to the customer's
core network are the customer's and are not counted.

Media by distance and speed: a passive direct-attach copper cable (DAC) when
the server-to-switch run fits the longest DAC of that speed in the catalog
(passive 25G/100G DACs reach 5 m at most), else two transceivers of that speed
whose reach covers the run (multimode fibre patch cords are not priced).

Storage switchless (``Design.storage_switchless``, :func:`switchless_bom`): the
servers' storage ports are cabled to each other, a full mesh with as many links
to each peer as the ports allow (:func:`planner.physics.network.storage_links`);
no switch, no peer link, one cable (or optic pair) per direct link at the same
run. The management and VMs' traffic still needs the customer's switches: as
with switches, those are not counted.

Switch choice: ``CostAssumptions.switch_model``, else of the catalog switches
whose server ports run at the NICs' speed and, for RDMA (RoCE), support PFC/ETS
(DCB), the one whose switches cost least in total for the link count: their
number (more pairs when the ports do not fit), peer links, support, power and
rack space, per month as the whole cost counts them. The cheapest box is not
always the cheapest network: 38 links at 25 GbE take four 18-port switches but
two 48-port ones.
"""

from __future__ import annotations

import math

from planner.commercial.pricing import CostAssumptions, part_monthly_usd, part_price_usd
from planner.core.errors import PlannerError
from planner.core.text import count as count_words
from planner.models.catalog import Catalog, Interconnect, Nic
from planner.physics.network import switchless_links_per_peer
from planner.physics.power import unit_power_w

#: peer-link cables between the two switches
PEER_LINK_CABLES = 2


class NetworkError(PlannerError):
    pass


def _line(role: str, rec, quantity: int, a: CostAssumptions, per: str) -> dict:
    from planner.commercial.prices import part_price, price_fields

    price = part_price(rec, a)
    return {
        "role": role,
        "part": rec.id,
        "description": rec.name,
        "quantity": int(quantity),
        "unit_price_usd": price["usd"],
        "total_usd": price["usd"] * quantity,
        "unit_power_w": unit_power_w(role, rec),
        **price_fields(price),
        "basis": per,
    }


def server_ports(sw) -> int:
    """The ports of one switch of a pair left for servers: all of its server ports where it has uplink ports of its
    own for the peer link, else all but the :data:`PEER_LINK_CABLES` of them that join it to its pair (an NVIDIA
    SN3700's 32 ports are all it has: "uplinks come from the same 32 ports", its record's notes; the parts list
    counted all 32 for servers and priced no peer link; hardware-architect walk)."""
    return sw.ports if sw.uplink_ports else sw.ports - PEER_LINK_CABLES


def switch_count(links: int, sw, a: CostAssumptions) -> int:
    """Switches of model ``sw`` for ``links`` server ports: ``a.switch_count`` (two for redundancy),
    more pairs when the ports do not fit (:func:`server_ports`; one switch alone when asked, as many as the ports
    need)."""
    if a.switch_count >= 2:
        return max(a.switch_count, 2 * max(math.ceil(links / (2 * server_ports(sw))), 1))
    return max(a.switch_count, math.ceil(links / sw.ports))


def peer_links(sw, count: int, a: CostAssumptions, catalog) -> tuple[Interconnect, int] | None:
    """(record, units) of the peer links between each pair of ``count`` switches ``sw``: two short
    cables at the uplink speed (an optic at each end where no DAC serves it); a switch without uplink ports joins
    its pair over two of its own ports, at the fastest speed they run that the catalog has a cable for; None
    without any."""
    if count < 2:
        return None
    if sw.uplink_ports:
        speeds = [sw.uplink_gbit_s] if sw.uplink_gbit_s else []
    else:
        speeds = sorted({sw.port_gbit_s, *sw.lower_port_speeds_gbit_s}, reverse=True)
    for speed in speeds:
        peer = pick_link(speed, 1.0, a, catalog)
        if peer is not None:
            rec, per_link = peer
            return rec, PEER_LINK_CABLES * (count // 2) * per_link
    return None


def switching_usd_per_month(sw, links: int, a: CostAssumptions, catalog) -> float:
    """What ``links`` server ports cost a month on switches ``sw``, as the whole cost counts them: the
    switches and their peer links spread over the amortisation period with support, their power
    and rack space (:func:`planner.commercial.pricing.part_monthly_usd`) [USD/month]."""
    count = switch_count(links, sw, a)
    purchase, watts = part_price_usd(sw, a) * count, unit_power_w("switch", sw) * count
    peer = peer_links(sw, count, a, catalog)
    if peer is not None:
        rec, units = peer
        purchase += part_price_usd(rec, a) * units
        watts += unit_power_w("peer link", rec) * units
    return float(part_monthly_usd(purchase, watts, a)) + sw.rack_units * count * a.rack_unit_usd_per_month


def pick_switch(speed_gbit_s: float, rdma: bool, a: CostAssumptions, catalog, links: int = 1):
    """The switch of ``a.switch_model``, else of those whose ports run at ``speed_gbit_s`` (natively or
    at a lower speed they take, :meth:`planner.models.catalog.Switch.serves`; and have
    DCB for RDMA) the one costing least for ``links`` server ports (:func:`switching_usd_per_month`:
    a cheap switch of few ports may need twice as many); None when the catalog has none."""
    sw = catalog.switch
    if a.switch_model:
        if a.switch_model not in sw:
            raise NetworkError(f"unknown switch id '{a.switch_model}'; one of {', '.join(sw)}", "switch_model")
        chosen = sw[a.switch_model]
        # a chosen switch the servers cannot plug into would price a network that does not work
        if not chosen.serves(speed_gbit_s):
            raise NetworkError(
                f"switch '{chosen.id}' has no port for the servers' {speed_gbit_s:g} GbE links "
                f"(its ports: {', '.join(f'{x:g}' for x in (chosen.port_gbit_s, *chosen.lower_port_speeds_gbit_s))} GbE)",
                "switch_model",
            )
        if rdma and not chosen.rdma_dcb:
            raise NetworkError(f"switch '{chosen.id}' has no PFC/ETS (DCB), which RDMA over RoCE needs", "switch_model")
        return chosen
    fits = [s for s in sw.values() if s.serves(speed_gbit_s) and (s.rdma_dcb or not rdma) and s.on_sale()]
    return min(fits, key=lambda s: (switching_usd_per_month(s, links, a, catalog), s.id)) if fits else None


def pick_link(
    speed_gbit_s: float, run_m: float, a: CostAssumptions, catalog: Catalog
) -> tuple[Interconnect, int] | None:
    """(record, units per link) for one server-to-switch link: the cheapest DAC of
    that speed at least ``run_m`` long, else the cheapest transceiver pair reaching it."""
    ics = [i for i in catalog.interconnect.values() if i.speed_gbit_s == speed_gbit_s]
    dacs = [i for i in ics if i.kind in ("dac", "aoc") and i.length_m is not None and i.length_m >= run_m]
    if dacs:
        return min(dacs, key=lambda i: (part_price_usd(i, a), i.length_m, i.id)), 1
    optics = [i for i in ics if i.kind == "transceiver" and i.reach_m is not None and i.reach_m >= run_m]
    if optics:
        return min(optics, key=lambda i: (part_price_usd(i, a), i.id)), 2
    return None


def network_usd_per_month(net: dict, a: CostAssumptions) -> float:
    """The network's share of a whole monthly cost [USD/month]: its parts (``net``, from
    :func:`network_bom`) amortised with their support and power (:func:`part_monthly_usd`, as every
    server part), and their rack units. :func:`planner.commercial.tco.whole_cost` carries the same
    amounts spread over its hardware, power, rack and support lines (a test holds them equal)."""
    return float(part_monthly_usd(net["total_usd"], net["power_w"], a)) + net["rack_units"] * a.rack_unit_usd_per_month


def network_bom(
    servers: list[tuple[int, Nic | None, int]], rdma: bool, a: CostAssumptions | None = None, catalog=None
) -> dict:
    """Switches, cables and optics for ``servers``: (server count, NIC record, NICs per server).

    Returns ``lines`` (role, part, quantity, unit and total USD, price kind and source),
    ``total_usd``, ``power_w``, ``rack_units``, ``links``, ``switches`` and ``notes``
    (what could not be priced and why)."""
    from planner.models.catalog import load_catalog

    a = a or CostAssumptions()
    cat = catalog or load_catalog()
    notes: list[str] = []
    by_speed: dict[float, int] = {}
    for count, nic, per in servers:
        if nic is None:
            continue
        by_speed[nic.port_gbit_s] = by_speed.get(nic.port_gbit_s, 0) + int(count) * nic.ports * int(per)
    if not by_speed:
        return {"lines": [], "total_usd": 0.0, "power_w": 0.0, "rack_units": 0, "links": 0, "switches": 0, "notes": []}
    lines = []
    switches_total = 0
    for speed, links in sorted(by_speed.items()):
        sw = pick_switch(speed, rdma, a, cat, links)
        if sw is None:
            notes.append(
                f"no switch in the catalog has {speed:g} GbE server ports: the {links} links at {speed:g} GbE "
                "need switches that are not priced here"
            )
        else:
            count = switch_count(links, sw, a)
            switches_total += count
            each = (
                f"{sw.ports} ports each"
                if server_ports(sw) == sw.ports or count < 2
                else f"{server_ports(sw)} server ports each ({PEER_LINK_CABLES} of its {sw.ports} join the pair)"
            )
            lines.append(_line("switch", sw, count, a, f"{links} server ports at {speed:g} GbE over {each}"))
            peer = peer_links(sw, count, a, cat)
            if peer is not None:
                rec, units = peer
                lines.append(
                    _line("peer link", rec, units, a, f"{PEER_LINK_CABLES} links between each pair of switches")
                )
        link = pick_link(speed, a.cable_run_m, a, cat)
        if link is None:
            notes.append(
                f"no cable or optic for {speed:g} GbE over {a.cable_run_m:g} m in the catalog: {links} links not priced"
            )
            continue
        rec, per_link = link
        what = "cable" if rec.kind in ("dac", "aoc") else "optic"
        lines.append(
            _line(
                what,
                rec,
                links * per_link,
                a,
                f"{links} links x {per_link} ({'one cable' if per_link == 1 else 'an optic at each end'}), "
                f"{a.cable_run_m:g} m runs",
            )
        )
        if rec.kind == "transceiver":
            notes.append(f"the {links} fibre patch cords for the {speed:g} GbE optics are not priced")
    power = sum(x["unit_power_w"] * x["quantity"] for x in lines)
    ru = sum(cat.switch[x["part"]].rack_units * x["quantity"] for x in lines if x["role"] == "switch")
    notes.append("uplinks from the switches to the customer's core network are not counted")
    return {
        "lines": lines,
        "total_usd": sum(x["total_usd"] for x in lines),
        "power_w": power,
        "rack_units": ru,
        "links": sum(by_speed.values()),
        "switches": switches_total,
        "notes": notes,
    }


def switchless_bom(nodes: int, nic: Nic | None, nic_count: int, a: CostAssumptions | None = None, catalog=None) -> dict:
    """The direct links of a storage-switchless cluster of ``nodes`` servers with ``nic_count`` cards ``nic``:
    every pair joined by :func:`planner.physics.network.switchless_links_per_peer` links, one cable or optic pair
    each (:func:`pick_link` at ``a.cable_run_m``: servers in one rack are no farther apart than from their switch);
    no switches. The same keys as :func:`network_bom`."""
    from planner.models.catalog import load_catalog

    a = a or CostAssumptions()
    cat = catalog or load_catalog()
    out: dict = {"lines": [], "total_usd": 0.0, "power_w": 0.0, "rack_units": 0, "links": 0, "switches": 0, "notes": []}
    if nic is None:
        return out
    per = switchless_links_per_peer(nic.ports, nic_count, nodes - 1)
    links = nodes * (nodes - 1) // 2 * per
    if not links:
        if nodes > 1:  # fewer ports than peers: said, not priced as "0 server links" alone (stop 55 left it)
            out["notes"] = [
                f"{count_words(nic.ports * nic_count, 'storage port')} per server for {count_words(nodes - 1, 'peer')}: "
                "no full mesh to cable (the storage_switchless rule fails), so no direct link is priced"
            ]
        return out
    speed = nic.port_gbit_s
    link = pick_link(speed, a.cable_run_m, a, cat)
    if link is None:
        out["notes"] = [
            f"no cable or optic for {speed:g} GbE over {a.cable_run_m:g} m in the catalog: {links} links not priced"
        ]
        return out
    rec, per_link = link
    what = "cable" if rec.kind in ("dac", "aoc") else "optic"
    basis = (
        f"{links} links server to server x {per_link} ({'one cable' if per_link == 1 else 'an optic at each end'}), "
        f"{a.cable_run_m:g} m runs: {count_words(per, 'link')} between each pair of servers (full mesh)"
    )
    out["lines"] = [_line(what, rec, links * per_link, a, basis)]
    if rec.kind == "transceiver":
        out["notes"].append(f"the {links} fibre patch cords for the {speed:g} GbE optics are not priced")
    out["total_usd"] = out["lines"][0]["total_usd"]
    out["power_w"] = out["lines"][0]["unit_power_w"] * out["lines"][0]["quantity"]
    out["links"] = links
    return out
