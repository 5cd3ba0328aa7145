"""Bill of materials: the parts list of a design, per node and per cluster,
with unit and total prices, rack units, power and heat, and the licensing
options side by side.

Every price is :func:`planner.commercial.pricing.part_price_usd` (the user's override,
else the catalog list price), so the parts list adds up to exactly the capex
the cost model prices (tested). Each line says where its price comes from and
whether the catalog marks it as an estimate. Heat: 1 W = 3.412 BTU/h.
"""

from __future__ import annotations

from planner.commercial.licensing import for_platform, licence_options, licensing_data, stack_licence_options
from planner.commercial.prices import part_price, price_fields, ram_per_gb_price
from planner.commercial.pricing import (
    SERVERS_MONTH_NOTE,
    CostAssumptions,
    buildable_ram,
    echo_hidden,
    monthly_cost,
    part_price_usd,
    ram_usd_per_gb,
)
from planner.models.design import ResolvedDesign
from planner.physics.power import BTU_H_PER_W, node_parts, parts_cpu, unit_power_w


def _price_source(rec, a: CostAssumptions, cpu=None) -> dict:
    if rec is None:
        return ram_per_gb_price(a, "RAM priced per GB (the design names no DIMMs)", cpu)
    return part_price(rec, a)


def _line(role, rec, per_node, nodes, a: CostAssumptions, cpu=None, who: str = "node", group=None) -> dict:
    """One parts-list line; RAM given per GB (``rec`` None) at the price of the memory ``cpu`` takes; DIMMs
    said as so many per ``who`` (:func:`planner.commercial.tco.memory_line_words`), flagged where their count is
    an estimate (``group``'s ``dimms_estimated``, :func:`planner.commercial.tco.memory_fields`)."""
    from planner.commercial.tco import memory_line_words

    price = _price_source(rec, a, cpu)
    unit = price["usd"] if rec is None else part_price_usd(rec, a)
    qty = per_node * nodes
    if rec is None:
        desc = "RAM, priced per GB (no DIMMs named)"
    elif role == "memory":
        desc = memory_line_words(rec, per_node, who, f"{rec.vendor} {rec.model}")
    else:
        desc = f"{rec.vendor} {rec.model}"
    return {
        "role": role,
        "part": "ram-per-gb" if rec is None else rec.id,
        "description": desc,
        "quantity_per_node": per_node,
        "quantity": qty,
        "unit_price_usd": unit,
        "total_usd": unit * qty,
        "unit_power_w": unit_power_w(role, rec),
        **price_fields(price),
        "price_estimated": price["kind"] == "estimated",
        **(
            {"dimms_estimated": group["dimms_estimated"]}
            if role == "memory" and "dimms_estimated" in (group or {})
            else {}
        ),
        # a part no longer sold new, with why (the sizer's rule: planner.models.catalog.Record.off_sale)
        **({"not_on_sale": off["reason"]} if rec is not None and (off := rec.off_sale()) else {}),
    }


def bom(rd: ResolvedDesign, a: CostAssumptions | None = None, catalog=None) -> dict:
    """The parts list of ``rd`` as a JSON-ready dict: ``lines`` (part, quantity_per_node,
    quantity, unit_price_usd, total_usd, ...; the network's lines, cluster items, have no
    quantity per node), ``servers_usd``, ``network_usd``, ``total_usd``, ``rack_units``,
    ``power_w``, ``heat_btu_h``, ``network`` (server links, switches, and the network's share a month),
    ``licensing`` (one entry per option with ``total_usd`` and ``usd_per_month``) and
    ``monthly_cost`` (the cluster's servers with the licences of the design's platform,
    :func:`planner.commercial.licensing.for_platform`: what tier prices share out).

    The network (switches, their peer links, cables and optics) is the whole cost's
    (:func:`planner.commercial.tco.design_network`, as :func:`planner.commercial.tco.whole_cost` prices
    it), so ``total_usd`` is its purchase: one rule picks a cluster's network, and ``a.switch_model`` /
    ``a.switch_count`` choose its switches."""
    from planner.commercial.tco import design_network, design_parts, off_sale_note, off_sale_parts, unlisted_notes
    from planner.models.catalog import load_catalog

    a = for_platform(a or CostAssumptions(), None, rd.design)
    nodes = rd.nodes
    n = rd.node
    buildable_ram(n)
    who = "node" if rd.clients is None else "storage node"
    cat = catalog or load_catalog()
    groups = design_parts(rd.design, cat)
    lines = [_line(role, rec, count, nodes, a, n.cpu, who, groups[0]) for role, rec, count in node_parts(rd)]
    node_usd = sum(x["total_usd"] for x in lines) / nodes
    # a disaggregated Ceph design's client servers are bought too: the list had only the storage nodes
    # (186,375 USD against the whole cost's 324,731, while cabling the clients; CLI review 2026-11-29)
    others = groups[1:]
    for g in others:
        lines += [
            {
                **_line(role, rec, per, g["count"], a, parts_cpu(g["parts"]), g["name"], g),
                "group": g["name"],
                "quantity_per_node": None,
                "quantity_per_server": per,
            }
            for role, rec, per in g["parts"]
        ]
    servers = sum(x["total_usd"] for x in lines)
    # every server's rack units and power as the whole cost counts them (its groups, its lines)
    ru = sum(g["rack_units"] * g["count"] for g in groups)
    watts = sum(x["unit_power_w"] * x["quantity"] for x in lines)
    net = design_network(rd.design, groups, a, cat)
    lines += [{**x, "quantity_per_node": None, "price_estimated": x["price_kind"] == "estimated"} for x in net["lines"]]
    ru += net["rack_units"]
    watts += net["power_w"]
    total = sum(x["total_usd"] for x in lines)
    if rd.design.stack == "s2d":
        lic = licence_options(n.cpu.cores, n.sockets, nodes, a)
    else:
        raw_tib = nodes * n.drive_count * n.drive.capacity_tb * 1e12 / 2.0**40
        # the Windows guests' licences are on the servers that run the VMs: a disaggregated design's clients
        vm_hosts = [(g["cores_per_cpu"], g["sockets"], g["count"]) for g in groups if g["hosts_vms"]]
        lic = stack_licence_options(rd.design.stack, n.cpu.cores, n.sockets, nodes, raw_tib, a, vm_hosts)
    notes = list(net["notes"])
    notes += unlisted_notes(groups)  # a node naming no DIMMs: the set its RAM is priced as (tco.dimms_note)
    old_parts = off_sale_parts(groups)
    if old := off_sale_note(old_parts):
        notes.append(old)
    notes.append(
        "power is the parts' typical power (CPUs at TDP where no figure); size PSUs and cooling "
        "from the vendor's configurator"
    )
    monthly = monthly_cost(rd, a)
    return {
        "design": rd.design.name,
        "nodes": nodes,
        "lines": lines,
        "not_on_sale": old_parts,
        "servers_usd": servers,
        "network_usd": net["total_usd"],
        "total_usd": total,
        "per_node_usd": node_usd,
        "rack_units": ru,
        "power_w": watts,
        "heat_btu_h": watts * BTU_H_PER_W,
        "physical_cores": sum(g["cores_per_cpu"] * g["sockets"] * g["count"] for g in groups),
        "licensing": lic,
        "licensing_compiled": licensing_data()["date_compiled"],
        "network": {k: net[k] for k in ("links", "switches", "usd_per_month", "usd_per_month_note")},
        "monthly_cost": monthly,
        # its capex_usd is the servers' (63,714 beside a total_usd of 76,984 for the reference cluster, with
        # no word why; CLI review 2026-11-29)
        "monthly_cost_note": SERVERS_MONTH_NOTE
        + " (its month: network.usd_per_month)"
        + ("; the storage nodes' and the client servers'" if others else ""),
        "assumptions": {
            "amortisation_months": a.amortisation_months,
            # what RAM given per GB costs here (the assumption, else the catalog's module of the CPU's memory)
            "ram_usd_per_gb": ram_usd_per_gb(a, n.cpu)[0],
            # a Ceph or vSAN design's licence is its stack's: the Windows prices beside "ceph-upstream" read
            # as counted (CLI review 2026-11-30); the Datacenter price is its Windows guests' too, unless
            # guest_os_licence is none (the tier prices' echo, pricing.echo_hidden, leaves out the same)
            **{
                k: getattr(a, k)
                for k in (
                    "windows_datacenter_usd_per_core",
                    "azure_local_usd_per_core_month",
                    "windows_subscription_usd_per_core_month",
                    "guest_os_licence",
                )
                if k not in echo_hidden(rd.design.stack, a)
            },
            "licence_option_in_monthly_cost": monthly["licence_option"],
            "part_prices_usd": dict(a.part_prices_usd),
        },
        "notes": notes,
    }
