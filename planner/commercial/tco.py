"""The whole cost of a system: servers, network, licences, support, power and
rack space, per month and over 3 and 5 years, for a design of any topology (the
cluster proposed, or the system the customer runs today).

:func:`whole_cost` is the one function behind every cost figure the documents
and the app show. Lines:

* **hardware**: every part of every server (:func:`design_parts`), priced by
  :func:`planner.commercial.prices.part_price` (the customer's quote, else the
  dated price list, else the catalog), with the price's kind and source;
* **network**: top-of-rack switches, cables and optics (:mod:`planner.commercial.network`);
* **platform licence**: what the platform needs (:func:`planner.commercial.licensing.for_platform`):
  the Azure Local host fee per physical core per month plus the guests' Windows
  licences, or Windows Server Datacenter core licences; on a Ceph or vSAN design,
  the stack's (none for upstream Ceph; VMware's per-core subscription on every
  vSAN host) plus, unless ``CostAssumptions.guest_os_licence`` is none, the Windows
  Server Datacenter licences of the guests on the servers that run the database VMs;
  a licence that leaves the Windows guests unlicensed (Azure Local's host fee alone,
  ``none``) says so in the notes;
* **SQL Server**: per core, as ``CostAssumptions.sql_edition`` / ``sql_licensing`` say
  (:func:`planner.commercial.licensing.sql_server_licences`), for the demand's database VMs;
* **support**: ``support_share_per_year`` of the hardware and network price;
* **power**: typical watts x PUE x 730 h x price per kWh; **rack**: rack units x price.

Monthly cost spreads purchases over ``amortisation_months`` (the same figure as
:func:`planner.commercial.pricing.monthly_cost` for a hyperconverged cluster
without network or SQL Server lines; tested). TCO over N years = purchases
(hardware, network, perpetual licences) + N x 12 months of running costs
(support, power, rack, subscriptions, Software Assurance). For a system the
customer already owns (``owned=True``) the purchases are sunk: its TCO is the
running costs alone.
"""

from __future__ import annotations

import math
from typing import Any

from planner.commercial.licensing import (
    NO_GUEST_LICENCE_NOTE,
    OPTION_NAMES,
    PLATFORM_NAMES,
    datacenter_core_licences,
    demand_vms,
    for_platform,
    guest_datacenter_licences,
    guests_note,
    licence_seen,
    licence_usd_per_month_per_node,
    licensing_data,
    platform_of,
    sql_server_licences,
    stack_licence_name,
    stack_platform_note,
    vmware_core_licences,
    vsan_capacity_licence,
    with_guests_basis,
)
from planner.commercial.network import network_bom, network_usd_per_month, switchless_bom
from planner.commercial.prices import part_price, price_fields, ram_per_gb_price, unpriced
from planner.commercial.pricing import HOURS_PER_MONTH, CostAssumptions, PricingError, buildable_ram, default_words
from planner.core.text import adding_up, count, pct, sentence
from planner.models.catalog import Catalog, load_catalog
from planner.models.design import (
    Design,
    DisaggregatedSpec,
    FlashCardStorage,
    RaidStorage,
    SingleServerSpec,
    SplitSpec,
    resolve,
)
from planner.models.tiers import mix_list
from planner.physics.capacity import capacity_report
from planner.physics.dimms import MemoryHost, node_dimms, ram_refusal, slots_estimate
from planner.physics.power import (
    DEFAULT_RACK_UNITS,
    client_parts,
    parts_cpu,
    resolved_node_parts,
    server_parts,
    server_rack_units,
    unit_power_w,
)

TCO_YEARS = (3, 5)


def design_parts(design: Design, catalog: Catalog | None = None, owned: bool = False) -> list[dict[str, Any]]:
    """The servers of ``design`` (any topology) as groups: ``name``, ``count``,
    ``parts`` [(role, record or None for RAM priced per GB, count per server)],
    ``rack_units`` per server, ``nic`` and ``nic_count`` (for the network),
    ``cores_per_cpu`` and ``sockets`` (for licences), ``windows`` (runs Windows Server) and
    ``hosts_vms`` (runs the database VMs: SQL Server Enterprise may license its physical cores;
    a file server, a storage node or a data node serves storage only), and ``dimms_note`` where a node names no
    DIMMs (:func:`dimms_note`).

    Raises
    ------
    PricingError
        A node's RAM no set of the catalog's memory modules builds (:func:`planner.commercial.pricing.buildable_ram`),
        unless the customer ``owned`` the system: it is built already, and its RAM is priced per GB.
    """
    cat = catalog or load_catalog()
    if design.cluster_engine:  # hyperconverged, or a Ceph / vSAN design (its clients on their own servers)
        from planner.models.design import resolve

        rd = resolve(design, cat)
        n = rd.node
        if not owned:
            buildable_ram(n)
        groups: list[dict[str, Any]] = [
            {
                "name": "node" if rd.clients is None else "storage node",
                "count": design.nodes,
                "parts": resolved_node_parts(n),
                "rack_units": n.chassis.rack_units if n.chassis else DEFAULT_RACK_UNITS["server"],
                "nic": n.nic,
                "nic_count": n.nic_count,
                "cores_per_cpu": n.cpu.cores,
                "sockets": n.sockets,
                "windows": design.stack == "s2d",
                "hosts_vms": rd.clients is None,
                **memory_fields(n, "node" if rd.clients is None else "storage node"),
            }
        ]
        if rd.clients is not None:
            c = rd.clients
            if not owned:
                buildable_ram(c, "clients.server.ram_gb")
            groups.append(
                {
                    "name": "client server",
                    "count": c.servers,
                    "parts": client_parts(c),
                    "rack_units": server_rack_units(c),
                    "nic": c.nic,
                    "nic_count": c.nic_count,
                    "cores_per_cpu": c.cpu.cores,
                    "sockets": c.sockets,
                    "windows": False,
                    "hosts_vms": True,
                    **memory_fields(c, "client server"),
                }
            )
        return groups
    from planner.engine.architectures import disaggregated, split
    from planner.engine.architectures import resolve as resolve_parts

    p = resolve_parts(design, cat)
    s: DisaggregatedSpec | SplitSpec | SingleServerSpec  # the topology's section (each branch its own)
    if isinstance(p, disaggregated.Parts):
        s = p.spec
        if not owned:
            buildable_ram(p.db_memory, "disaggregated.db_server.ram_gb")
        db_group = {
            "name": "database server",
            "count": s.db_servers,
            "parts": server_parts(p.db_memory, p.db_nic, p.db_nic_count),
            "rack_units": server_rack_units(p.db_memory),
            "nic": p.db_nic,
            "nic_count": p.db_nic_count,
            "cores_per_cpu": p.db_cpu.cores,
            "sockets": p.db_sockets,
            "windows": True,
            "hosts_vms": True,
            **memory_fields(p.db_memory, "database server"),
        }
        if p.shared_sas:  # file servers sharing a SAS JBOD (a cluster-in-a-box holds them in its enclosure)
            j, fsv, fs_mem = p.shared, s.file_server, p.fs_memory
            assert fs_mem is not None  # resolved for every shared-SAS design
            if not owned:
                buildable_ram(fs_mem, "disaggregated.file_server.ram_gb")
            enclosures = p.jbod_spec.enclosures
            fs_cpu, fs_nic = p.fs_cpu, p.fs_nic
            assert fs_cpu is not None and fs_nic is not None  # resolved for every shared-SAS design
            fs_nics = fsv.nics
            assert fs_nics is not None  # validation: file servers reach the database servers over the network
            jbod_parts: list[tuple[str, Any, int]] = (
                [("enclosure", j.enclosure, enclosures)] if j.enclosure is not None else []
            )
            if j.fast is not None:
                jbod_parts.append(("cache", j.fast, j.fast_count))
            jbod_parts.append(("capacity drive", j.drive, j.drive_count))
            return [
                db_group,
                {
                    "name": "file server",
                    "count": s.file_servers,
                    "parts": server_parts(fs_mem, fs_nic, fs_nics.count),
                    "rack_units": server_rack_units(fs_mem),
                    "nic": fs_nic,
                    "nic_count": fs_nics.count,
                    "cores_per_cpu": fs_cpu.cores,
                    "sockets": fsv.cpu.sockets,
                    "windows": True,
                    "hosts_vms": False,
                    **memory_fields(fs_mem, "file server"),
                },
                {
                    "name": "shared JBOD",
                    "count": 1,
                    "parts": jbod_parts,
                    "rack_units": (j.enclosure.rack_units or DEFAULT_RACK_UNITS["array"]) * enclosures
                    if j.enclosure is not None
                    else DEFAULT_RACK_UNITS["array"],
                    "nic": None,
                    "nic_count": 0,
                    "cores_per_cpu": 0,
                    "sockets": 0,
                    "windows": False,
                    "hosts_vms": False,
                },
            ]
        fs = p.node
        if not owned:
            buildable_ram(fs, "disaggregated.file_server.ram_gb")
        return [
            db_group,
            {
                "name": "file server",
                "count": s.file_servers,
                "parts": resolved_node_parts(fs),
                "rack_units": fs.chassis.rack_units if fs.chassis else DEFAULT_RACK_UNITS["server"],
                "nic": fs.nic,
                "nic_count": fs.nic_count,
                "cores_per_cpu": fs.cpu.cores,
                "sockets": fs.sockets,
                "windows": True,
                "hosts_vms": False,
                **memory_fields(fs, "file server"),
            },
        ]
    if isinstance(p, split.Parts):
        s = p.spec
        if not owned:
            buildable_ram(p.memory, "split.compute_node.ram_gb")
        compute = server_parts(p.memory, p.nic, p.nic_count)
        compute.append(("cache", p.flash, s.flash.count))
        return [
            {
                "name": "compute node",
                "count": s.compute_nodes,
                "parts": compute,
                "rack_units": server_rack_units(p.memory),
                "nic": p.nic,
                "nic_count": p.nic_count,
                "cores_per_cpu": p.cpu.cores,
                "sockets": p.sockets,
                "windows": True,
                "hosts_vms": True,
                **memory_fields(p.memory, "compute node"),
            },
            {
                "name": "data node",
                "count": s.data_nodes,
                "parts": [
                    ("capacity drive", p.drive, s.data_node.drives.count),
                    ("nic", p.data_nic, s.data_node.nics.count),
                ],
                "rack_units": DEFAULT_RACK_UNITS["array"],
                "nic": p.data_nic,
                "nic_count": s.data_node.nics.count,
                "cores_per_cpu": 0,
                "sockets": 0,
                "windows": False,
                "hosts_vms": False,
            },
        ]
    # single server: local RAID, PCIe flash or a SAN LUN
    s = p.spec
    st = s.storage
    if not owned:
        buildable_ram(p.memory, "single_server.server.ram_gb")
    # the DL580 seeds name their chassis: priced, powered and racked as named (CLI review 2026-11-29)
    server = server_parts(p.memory, None, 0)
    groups = [
        {
            "name": "database server",
            "count": 1,
            "parts": server,
            "rack_units": server_rack_units(p.memory),
            "nic": None,
            "nic_count": 0,
            "cores_per_cpu": p.cpu.cores,
            "sockets": p.sockets,
            "windows": True,
            "hosts_vms": True,
            **memory_fields(p.memory, "database server"),
        }
    ]
    if isinstance(st, RaidStorage):
        server += [("raid controller", p.controller, 1), ("capacity drive", p.drive, st.drives.count)]
    elif isinstance(st, FlashCardStorage):
        server.append(("flash card", p.card, st.count))
    else:
        server.append(("fc hba", p.hba, st.hbas))
        groups.append(
            {
                "name": "storage array",
                "count": 1,
                "parts": [("array", p.array, 1), ("capacity drive", p.drive, st.drives.count)],
                "rack_units": DEFAULT_RACK_UNITS["array"],
                "nic": None,
                "nic_count": 0,
                "cores_per_cpu": 0,
                "sockets": 0,
                "windows": False,
                "hosts_vms": False,
            }
        )
    return groups


def memory_fields(n: MemoryHost, who: str) -> dict[str, Any]:
    """A server group's words on its RAM (:func:`design_parts`): ``dimms_note`` (:func:`dimms_note`) and, where its
    DIMMs are counted in slots the catalog does not give, ``dimms_estimated``: how
    (:func:`planner.physics.dimms.slots_estimate`), which its memory line carries as its flag."""
    guess = slots_estimate(n) if n.dimm is None and node_dimms(n) is not None else None
    return {"dimms_note": dimms_note(n, who), **({"dimms_estimated": guess} if guess else {})}


def dimms_note(n: MemoryHost, who: str) -> str | None:
    """What the parts list prices a server's RAM as where its design names no DIMMs (None where it names them):
    the set of the catalog's modules hciplan chose (:func:`planner.physics.dimms.node_dimms`), with how its slots
    were taken where the catalog gives none (:func:`planner.physics.dimms.slots_estimate`: an estimate), or per
    GB where the catalog has no module of its memory type."""
    if n.dimm is not None:
        return None
    dimms = node_dimms(n)
    if dimms is None:
        why = (
            f"no set of the catalog's modules builds its {n.ram_gb:,.0f} GB"
            if ram_refusal(n)  # a system the customer owns: built already (design_parts)
            else f"the catalog has no {(n.cpu.memory_type or 'such').upper()} module"
        )
        return f"the design names no DIMMs and {why}: each {who}'s RAM is priced per GB and draws no power in this list"
    guess = slots_estimate(n)
    return (
        f"the design names no DIMMs: each {who}'s {n.ram_gb:,.0f} GB is priced and powered as {dimms.words} DIMMs, "
        "the cheapest set of the catalog's modules that its slots hold"
        + ("" if dimms.balanced else " (not one or two per channel on every socket: unbalanced)")
        + (f"; an estimate: {guess}" if guess else "")
    )


def memory_line_words(rec: Any, per: float, who: str, name: str) -> str:
    """A parts line of DIMMs as the list says it: "16 x 96 GB DIMM per node: <the module>", so its quantity reads
    as DIMMs (a line of RAM read "7,680" with no unit; presales walk 2026-12-01)."""
    return f"{per:g} x {rec.capacity_gb:g} GB DIMM per {who}: {name}"


def unlisted_notes(groups: list[dict[str, Any]]) -> list[str]:
    """What the parts list of ``groups`` (:func:`design_parts`) leaves out, said once: servers whose design
    names no chassis (board, power supplies) and a data node's own processors are neither priced nor
    powered (a SAN's database server was CPU, RAM and an HBA with no word; CLI review 2026-11-29), and
    no server's boot drive is listed."""
    # a server with no rack units of its own sits in an enclosure the list prices (a cluster-in-a-box's file servers)
    bare = [
        g["name"]
        for g in groups
        if g["sockets"] and g["rack_units"] and not any(r in ("chassis", "enclosure") for r, _, _ in g["parts"])
    ]
    bare += [g["name"] for g in groups if not g["sockets"] and g["name"] in ("data node",)]
    out = [g["dimms_note"] for g in groups if g.get("dimms_note")]
    if bare:
        names = " and ".join(f"the {n}s" if not n.endswith("s") else f"the {n}" for n in dict.fromkeys(bare))
        out.append(f"no chassis (board, power supplies) is named for {names}: neither priced nor powered here")
    out.append("boot drives (an M.2 boot kit per server) are not listed")
    # a server's SAS or SATA drives hang off a storage HBA the list holds no record of (a RAID design's controller
    # is its own line): said as the boot drives are (hardware-architect walk: sas-4node.json's parts list, price and
    # power had no HBA and no word of it)
    # not of an appliance with its own controllers (a SAN's storage array, a split design's data node): the note
    # said Microsoft's S2D requirement of an FC SAN array (regression walk 2026-12-01)
    if sas := [g["name"] for g in groups if needs_hba(g["parts"]) and not appliance(g)]:
        names = " and ".join(f"{n}s" if not n.endswith("s") else n for n in dict.fromkeys(sas))
        out.append(
            f"a storage HBA for the SAS/SATA drives of the {names} (a simple pass-through SAS HBA, as Microsoft "
            "asks of Storage Spaces Direct; Dell's AX nodes take the HBA355i) is not listed, priced or powered"
        )
    return out


def appliance(group: dict[str, Any]) -> bool:
    """Whether a parts group (:func:`design_parts`) is a storage appliance with controllers of its own, which no HBA
    of the list serves: a SAN's storage array, or a storage-only server that runs neither Windows nor the VMs (a
    split design's data node)."""
    roles = {r for r, _, _ in group["parts"]}
    return "array" in roles or not (group.get("windows") or group.get("hosts_vms"))


def needs_hba(parts: list[tuple[str, Any, float]]) -> bool:
    """Whether a server of ``parts`` (role, record, count) holds SAS or SATA drives with no controller of its own in
    the list (a RAID design's ``raid controller`` line), so a storage HBA it needs is missing from it.

    References
    ----------
    Microsoft, *Storage Spaces Direct hardware requirements* (2025-05-12): "Simple pass-through SAS HBA for both SAS
    and SATA drives"; Dell, 'Azure Local Support Matrix for 16G (Dell 2606)': the HBA355i for SAS/SATA drives.
    """
    roles = {r for r, _, _ in parts}
    return "raid controller" not in roles and any(
        r in ("capacity drive", "cache") and getattr(rec, "interface", None) in ("sas", "sata") for r, rec, _ in parts
    )


def _hardware_lines(groups: list[dict], a: CostAssumptions, owned: bool = False) -> list[dict]:
    """The servers' part lines; a part with no price is an error, unless the customer ``owned`` the system
    (:func:`planner.commercial.prices.unpriced`: its purchase is not counted)."""
    lines = []
    for g in groups:
        for role, rec, per in g["parts"]:
            if rec is None:
                price = ram_per_gb_price(a, "RAM priced per GB (the design names no DIMMs)", parts_cpu(g["parts"]))
                desc, pid = f"RAM, {per:,.0f} GB per {g['name']}, priced per GB", "ram-per-gb"
            else:
                try:
                    price = part_price(rec, a)
                except PricingError:
                    if not owned or rec.id in a.part_prices_usd:
                        raise
                    price = unpriced(rec)
                desc, pid = rec.name, rec.id
                if role == "memory":
                    desc = memory_line_words(rec, per, g["name"], rec.name)
            qty = per * g["count"]
            # DIMMs counted in slots the catalog does not give: the line says so, and how (memory_fields)
            guess = {"dimms_estimated": g["dimms_estimated"]} if role == "memory" and "dimms_estimated" in g else {}
            lines.append(
                {
                    "group": g["name"],
                    "role": role,
                    "part": pid,
                    "description": desc,
                    "quantity_per_server": per,
                    "quantity": qty,
                    "unit_price_usd": price["usd"],
                    "total_usd": price["usd"] * qty,
                    "unit_power_w": unit_power_w(role, rec),
                    **price_fields(price),
                    **guess,
                    # a part no longer sold new, with why (the proposal priced an end-of-sale Xeon with no word; CFO
                    # read 2026-11-30)
                    **({"not_on_sale": off["reason"]} if rec is not None and (off := rec.off_sale()) else {}),
                }
            )
    return lines


def off_sale_parts(groups: list[dict[str, Any]]) -> list[dict]:
    """The parts of ``groups`` (:func:`design_parts`) that can no longer be ordered new, each once, with why
    (:meth:`planner.models.catalog.Record.off_sale`, the sizer's rule)."""
    out: dict[str, dict] = {}
    for g in groups:
        for _, rec, _ in g["parts"]:
            if rec is not None and rec.id not in out and (off := rec.off_sale()) is not None:
                out[rec.id] = off
    return list(out.values())


def off_sale_note(parts: list[dict]) -> str | None:
    """The sentence a cost or parts list says of parts no longer sold new (:func:`off_sale_parts`), naming each
    and why; None when every part is on sale."""
    if not parts:
        return None
    return (
        f"{'these parts are' if len(parts) > 1 else 'this part is'} no longer sold new, priced here as last seen: "
        + "; ".join(f"{x['name']} ({x['reason']})" for x in parts)
        + ": ask the supplier whether they can still be had, or choose current parts"
    )


def _windows_licence(groups: list[dict], a: CostAssumptions):
    """(per month, upfront, subscription per month, physical cores, option, basis) of the
    Windows servers' platform licences under ``a.licence_option``."""
    win = [g for g in groups if g["windows"]]
    lic_month = sum(
        float(licence_usd_per_month_per_node(g["cores_per_cpu"], g["sockets"], a)) * g["count"] for g in win
    )
    dc_cores = sum(datacenter_core_licences(g["cores_per_cpu"], g["sockets"]) * g["count"] for g in win)
    phys_cores = sum(g["cores_per_cpu"] * g["sockets"] * g["count"] for g in win)
    opt = a.licence_option
    dc_upfront = (
        dc_cores * a.windows_datacenter_usd_per_core
        if opt in ("windows-server-datacenter", "azure-local-datacenter")
        else 0.0
    )
    subscription = lic_month - dc_upfront / a.amortisation_months  # the host fee and Windows subscription parts
    basis = {
        "windows-server-datacenter": f"{dc_cores:,} Datacenter core licences x ${a.windows_datacenter_usd_per_core:,.2f}",
        "azure-local": f"{phys_cores:,} physical cores x ${a.azure_local_usd_per_core_month:,.2f} per month",
        "azure-local-windows": f"{phys_cores:,} physical cores x (${a.azure_local_usd_per_core_month:,.2f} + "
        f"${a.windows_subscription_usd_per_core_month:,.2f}) per month",
        "azure-local-datacenter": f"{phys_cores:,} physical cores x ${a.azure_local_usd_per_core_month:,.2f} per month "
        f"+ {dc_cores:,} Datacenter core licences x ${a.windows_datacenter_usd_per_core:,.2f}",
    }[opt]
    return lic_month, dc_upfront, subscription, phys_cores, opt, basis


#: how a cost names the storage software of a Ceph or vSAN design
STACK_PLATFORM_NAMES = {"ceph": "Ceph", "vsan": "VMware vSAN"}


def _stack_licence(stack: str, groups: list[dict], a: CostAssumptions, raw_tib: float | None = None) -> dict:
    """The licence line of a Ceph or vSAN design: upstream Ceph carries no fee; vSAN is
    VMware's per-core subscription (``a.vsan_licence``) on every host that runs it, the
    storage nodes and, disaggregated, the client (compute) servers; and unless
    ``a.guest_os_licence`` is none, the Windows Server Datacenter licences of the guests on the
    servers that run the database VMs (``upfront_usd``: their purchase, spread over the period in
    ``usd_per_month`` as an S2D cluster's). ``raw_tib``: the raw capacity vSAN claims [TiB], to say
    how much needs the (unpriced) capacity add-on."""
    option = "ceph-upstream" if stack == "ceph" else a.vsan_licence
    guests = guest_datacenter_licences(
        [(g["cores_per_cpu"], g["sockets"], g["count"]) for g in groups if g["hosts_vms"]], a
    )
    out = _stack_fee(stack, option, groups, a, raw_tib)
    out["name"] = stack_licence_name(option, a)
    # the line says what it covers: "VMware vSAN licences" read as the whole licence of a cluster of Windows VMs
    # (finance walk 2026-11-30)
    out["line"] = STACK_PLATFORM_NAMES[stack] + (" and Windows Server guest licences" if guests else " licences")
    out["upfront_usd"] = 0.0 if guests is None else guests["usd"]
    out["subscription_usd_per_month"] = out["usd_per_month"]
    if guests is None:
        out["notes"].append(NO_GUEST_LICENCE_NOTE)
    else:
        out["usd_per_month"] += guests["usd_per_month"]
        out["basis"] = with_guests_basis(stack, out["basis"], guests)
    return out


def _stack_fee(stack: str, option: str, groups: list[dict], a: CostAssumptions, raw_tib: float | None) -> dict:
    """The storage stack's own licence of :func:`_stack_licence`: none for upstream Ceph, VMware's per core."""
    out: dict[str, Any] = {"option": option, "platform_name": STACK_PLATFORM_NAMES[stack], "notes": []}
    if stack == "ceph":
        out["usd_per_month"] = 0.0
        out["basis"] = "no licence fee (upstream Ceph); a commercial Ceph subscription is not priced"
        if len(groups) > 1:
            # the guests' Windows licences are the line's (guest_os_licence); the hosts' own are not
            out["notes"].append("the client servers' host operating system and hypervisor licences are not priced")
        return out
    price = a.vcf_usd_per_core_year if option == "vmware-vcf" else a.vvf_usd_per_core_year
    cores = sum(int(vmware_core_licences(g["cores_per_cpu"], g["sockets"])) * g["count"] for g in groups)
    out["usd_per_month"] = cores * price / 12.0
    out["basis"] = f"{cores:,} cores (every core, >= 16 per CPU) x ${price:,.2f} per core per year"
    if groups and groups[0]["count"] == 2:  # said of every vSAN cluster, six hosts too (Ceph/vSAN walk 2026-11-30)
        out["notes"].append("the vSAN witness host a two-node cluster needs is not priced")
    if raw_tib is None:
        out["notes"].append("the vSAN capacity add-on beyond the licence's entitlement is not priced")
        return out
    vsan = vsan_capacity_licence(option, cores, raw_tib)
    # the cost is low by this add-on: said with its size (the note), so a comparison with another stack (and the
    # sizer's ranking, which is this cost's) is read so
    if vsan["addon_tib"] > 0:
        out["notes"].append(vsan["note"])
    out["vsan_capacity_licence"] = vsan
    return out


def _platform_notes(design: Design, demand, a: CostAssumptions, platform: str, owned: bool) -> list[str]:
    """Why a cluster is licensed on ``platform`` when the assumptions or the demand name another
    (:func:`planner.commercial.licensing.platform_of`'s order)."""
    dem = getattr(demand, "platform", None) if demand is not None else None
    if dem is None and (getattr(demand, "validated_for", None) or "").lower() == "azure local":
        dem = "azure-local"
    asked = {"the cost assumptions'": a.platform if a.platform != "auto" else None, "the demand's": dem}
    other = " and ".join(f"{k} ({PLATFORM_NAMES[v]})" for k, v in asked.items() if v and v != platform)
    if not other:
        return []
    name = PLATFORM_NAMES[platform]
    if design.platform:
        return [f"licensed on {name}, the platform the design names, not on {other}"]
    if owned:
        return [
            f"licensed on {name}: the design names no platform, and {other} is what the new cluster runs, not this one"
        ]
    return [f"licensed on {name}, as the cost assumptions say, not on {other}"]


#: [SL] the storage switchless deployments Microsoft supports (:data:`planner.physics.rules.SL`; the node counts and
#: ports are :data:`planner.physics.network.SWITCHLESS_MIN_PORTS`')
SWITCHLESS_SOURCE = (
    "Microsoft, 'Network reference patterns overview for Azure Local': 'Storage switchless deployments in Azure "
    "Local only support 1,2,3 or 4 nodes'; 'No switch is necessary for in-system (East-West) traffic; however, a "
    "physical switch is required for traffic outside the system (North-South)'"
)


def switchless_note(design: Design, net: dict[str, Any]) -> str:
    """What the priced network (``net``, :func:`design_network`) says of storage switchless (:data:`SWITCHLESS_SOURCE`).
    A switchless design: its servers are cabled to each other, no storage switch bought, and the management and VMs'
    traffic still needs the customer's switches (not priced). A two-server S2D design priced with switches: what
    switchless would save and the input that prices it. Empty for any other design. edge-2node's proposal priced
    "2 switches, 4 server links" with no word of it (network walk 2026-12-01), then said switchless "may" be used
    and had no way to price it (stop 55)."""
    if design.stack != "s2d" or not design.cluster_engine:
        return ""
    if design.storage_switchless:
        per = f" ({net['links']} links in all)" if net.get("links") else ""
        return (
            f"storage switchless: the {design.nodes} servers are cabled to each other for storage{per}, and no "
            f"storage switch is bought ({SWITCHLESS_SOURCE}); the management and VMs' traffic still needs a switch, "
            "the customer's own network, outside this design's price"
        )
    if design.nodes != 2 or not net.get("switches"):
        return ""
    switching = sum(x["total_usd"] for x in net.get("lines", []) if x.get("role") in ("switch", "peer link"))
    return (
        f"the two servers could be cabled to each other for storage (storage switchless; {SWITCHLESS_SOURCE}): that "
        f"would save the {net['switches']} storage switches (${switching:,.0f}) priced here where the VMs' and "
        "management traffic have a network of their own; the design prices the switches (set storage_switchless, "
        "or Storage cabled server to server on the Design page, to price it without them)"
    )


def design_network(
    design: Design, groups: list[dict[str, Any]], a: CostAssumptions, catalog: Catalog, owned: bool = False
) -> dict[str, Any]:
    """The switches, cables and optics of ``design``'s servers (``groups``, :func:`design_parts`), as
    :func:`planner.commercial.network.network_bom` prices them (none when ``a.network`` is off), with
    ``usd_per_month``: the network's share of the monthly total (purchase, support, power, rack; running
    costs only when ``owned``). One rule for the whole cost and the parts list."""
    net: dict[str, Any] = {
        "lines": [],
        "total_usd": 0.0,
        "power_w": 0.0,
        "rack_units": 0,
        "links": 0,
        "switches": 0,
        "notes": [],
    }
    if a.network:
        rdma = (
            design.transport == "rdma"
            if design.cluster_engine
            else getattr(getattr(design, design.topology.replace("-", "_")), "transport", "tcp") == "rdma"
        )
        if design.storage_switchless:  # hyperconverged S2D only (the design's rule): one group of nodes
            g = groups[0]
            net = switchless_bom(g["count"], g["nic"], g["nic_count"], a, catalog)
        else:
            net = network_bom([(g["count"], g["nic"], g["nic_count"]) for g in groups], rdma, a, catalog)
    if note := switchless_note(design, net):
        net["notes"] = [*net["notes"], note]
    net["usd_per_month"] = network_usd_per_month(net, a) - (net["total_usd"] / a.amortisation_months if owned else 0.0)
    # beside the whole cost's monthly.network_usd_per_month (the purchase spread alone), under the same words:
    # 1,990 and 1,434 a month for one network read as a contradiction (CLI review 2026-11-30)
    net["usd_per_month_note"] = (
        "the network's whole month: its support, power and rack space as well as its purchase"
        + ("" if owned else f" spread over {a.amortisation_months} months")
        + " (the whole cost's monthly lines hold these with the servers'; its network line is the purchase alone)"
    )
    return net


def whole_cost(
    design: Design,
    demand=None,
    a: CostAssumptions | None = None,
    catalog: Catalog | None = None,
    owned: bool = False,
) -> dict:
    """Every cost of ``design`` by line, per month and over 3 and 5 years (see the module doc).

    ``demand`` (optional) gives the platform and the database VMs for SQL Server
    licences; ``owned``: the customer already has this system (purchases sunk). The platform
    is :func:`planner.commercial.licensing.platform_of`'s: the design's own when it names one,
    else the assumptions', else (proposed) the demand's or (owned) Windows Server.
    """
    cat = catalog or load_catalog()
    a0 = a or CostAssumptions()
    hci = design.topology == "hyperconverged"
    stack = design.stack
    if stack != "s2d":  # the storage software is Ceph or vSAN: its own licences, no Windows platform
        platform: str = stack
        a = a0
    else:
        platform = platform_of(a0, demand, design, owned) if hci else "windows-server"
        a = (
            for_platform(a0, demand, design, owned)
            if hci
            else a0.model_copy(update={"licence_option": "windows-server-datacenter"})
        )
    months = a.amortisation_months
    groups = design_parts(design, cat, owned)
    hw = _hardware_lines(groups, a, owned)
    notes: list[str] = _platform_notes(design, demand, a0, platform, owned) if stack == "s2d" and hci else []
    net = design_network(design, groups, a, cat, owned)
    # what the parts list leaves out (the network's gaps, servers' chassis, boot drives): the document's parts
    # list says these, the notes below hold them with the licences' and the platform's
    parts_notes = net["notes"] + unlisted_notes(groups)
    old_parts = off_sale_parts(groups)
    if not owned and (old := off_sale_note(old_parts)):  # an owned system's parts are bought already
        parts_notes.append(old)
    notes += parts_notes
    hw_usd = sum(x["total_usd"] for x in hw)
    net_usd = net["total_usd"]
    capex = hw_usd + net_usd
    watts = sum(x["unit_power_w"] * x["quantity"] for x in hw) + net["power_w"]
    ru = sum(g["rack_units"] * g["count"] for g in groups) + net["rack_units"]

    if stack != "s2d":
        raw_tib = None
        if stack == "vsan" and design.cluster_engine:
            raw_tib = capacity_report(resolve(design, cat)).raw_capacity_tb * 1e12 / 2**40
        lic = _stack_licence(stack, groups, a, raw_tib)
        vsan = lic.get("vsan_capacity_licence")
        lic_month, dc_upfront, subscription = (
            lic["usd_per_month"],
            lic["upfront_usd"],
            lic["subscription_usd_per_month"],
        )
        opt, lic_basis, licence_name, platform_name = lic["option"], lic["basis"], lic["name"], lic["platform_name"]
        licence_line = lic["line"]
        phys_cores = sum(g["cores_per_cpu"] * g["sockets"] * g["count"] for g in groups)
        notes += lic["notes"]
        if note := stack_platform_note(stack, a0, opt):  # --platform on Ceph or vSAN: said, not ignored
            notes.append(note)
    else:
        vsan = None
        lic_month, dc_upfront, subscription, phys_cores, opt, lic_basis = _windows_licence(groups, a)
        licence_name, platform_name = OPTION_NAMES[opt], PLATFORM_NAMES[platform]
        licence_line = platform_name + " licences"
        if note := guests_note(opt, a):  # Azure Local's host fee alone: the guests are not licensed by it
            notes.append(note)
    # SQL Server runs where the database VMs run (Enterprise may license those servers' physical cores)
    hosts = [g for g in groups if g["hosts_vms"]]

    sql = None
    if a.sql_edition != "none":
        if demand is None:
            notes.append("no demand gives the database VMs: SQL Server licences are not counted")
        else:
            cpus = [g["cores_per_cpu"] for g in hosts for _ in range(g["sockets"] * g["count"])]
            vms = demand_vms(demand)
            sql = sql_server_licences(vms, cpus, a)
            grown = sum(n for n, _ in vms)
            today = demand.database_count(1.0)
            if sql is not None and grown > today:
                # licensed for the grown estate from the first month: said, since it is the cost's largest
                # line on a large demand (CLI review 2026-11-30: 24 VMs charged for 36 months where 20 run today)
                notes.append(
                    f"SQL Server licences count the {grown:,} database VMs after the demand's growth from the first "
                    f"month ({today:,} today)"
                )

    power = watts * a.pue * HOURS_PER_MONTH / 1000.0 * a.power_usd_per_kwh
    rack = ru * a.rack_unit_usd_per_month
    support = capex * a.support_share_per_year / 12.0
    monthly = {
        "hardware_usd_per_month": 0.0 if owned else hw_usd / months,
        "network_usd_per_month": 0.0 if owned else net_usd / months,
        "power_usd_per_month": power,
        "rack_usd_per_month": rack,
        "platform_licence_usd_per_month": subscription if owned else lic_month,
        "sql_server_usd_per_month": 0.0
        if sql is None
        else (sql["usd_per_month"] if owned else sql["amortised_usd_per_month"]),
        "support_usd_per_month": support,
    }
    monthly["total_usd_per_month"] = sum(monthly.values())
    upfront = {
        "hardware_usd": 0.0 if owned else hw_usd,
        "network_usd": 0.0 if owned else net_usd,
        "platform_licence_usd": 0.0 if owned else dc_upfront,
        "sql_server_usd": 0.0 if (owned or sql is None) else sql["upfront_usd"],
    }
    running = power + rack + support + subscription + (0.0 if sql is None else sql["usd_per_month"])
    tco = [
        {
            "years": y,
            "upfront_usd": sum(upfront.values()),
            "running_usd": running * 12 * y,
            "total_usd": sum(upfront.values()) + running * 12 * y,
        }
        for y in TCO_YEARS
    ]
    lines = [
        {
            "line": "Servers and storage",
            "key": "hardware",
            "upfront_usd": upfront["hardware_usd"],
            "usd_per_month": monthly["hardware_usd_per_month"],
            "basis": f"{len(hw)} part lines, spread over {count(months, 'month')}",
        },
        {
            "line": "Switches, cables and optics",
            "key": "network",
            "upfront_usd": upfront["network_usd"],
            "usd_per_month": monthly["network_usd_per_month"],
            "basis": f"{net['switches']} switches, {net['links']} server links" if a.network else "not counted",
        },
        {
            "line": licence_line,
            "key": "platform_licence",
            "upfront_usd": upfront["platform_licence_usd"],
            "usd_per_month": monthly["platform_licence_usd_per_month"],
            "basis": lic_basis,
        },
        {
            "line": "SQL Server licences",
            "key": "sql_server",
            "upfront_usd": upfront["sql_server_usd"],
            "usd_per_month": monthly["sql_server_usd_per_month"],
            "basis": sql["basis"] if sql else "not counted",
        },
        {
            "line": "Support",
            "key": "support",
            "upfront_usd": 0.0,
            "usd_per_month": support,
            "basis": f"{pct(a.support_share_per_year)} of the hardware and network price per year"
            + default_words(a, "support_share_per_year"),
        },
        {
            "line": "Power and cooling",
            "key": "power",
            "upfront_usd": 0.0,
            "usd_per_month": power,
            # the hours a month too, so the line multiplies out (CFO read 2026-11-30)
            "basis": f"{watts:,.0f} W typical x PUE {a.pue:g}{default_words(a, 'pue')} x {HOURS_PER_MONTH:g} h a "
            f"month x ${a.power_usd_per_kwh:g} per kWh{default_words(a, 'power_usd_per_kwh')}",
        },
        {
            "line": "Rack space",
            "key": "rack",
            "upfront_usd": 0.0,
            "usd_per_month": rack,
            "basis": f"{count(ru, 'rack unit')} x ${a.rack_unit_usd_per_month:g} per month"
            + default_words(a, "rack_unit_usd_per_month"),
        },
    ]
    if owned:
        notes.append(
            "the customer owns this system: its purchase (servers, network, perpetual licences) is not counted"
        )
        if none := sorted({x["description"] for x in hw if x["price_kind"] == "unpriced"}):
            notes.append(
                f"no price for {', '.join(none)}: their support is not counted (give their prices in the cost "
                "assumptions' part_prices_usd)"
            )
    return {
        "design": design.name,
        "topology": design.topology,
        "owned": owned,
        "platform": platform,
        "platform_name": platform_name,
        "licence_option": opt,
        "licence_name": licence_name,
        "licence_seen": licence_seen(opt, a),
        # whether the licence line covers the Windows Server guests, and the sentence (also in the notes) when not
        "windows_guests_included": guests_note(opt, a) is None,
        **({"windows_guests_note": g} if (g := guests_note(opt, a)) else {}),
        "parts": hw,
        "not_on_sale": old_parts,
        "network": net,
        "parts_notes": parts_notes,
        "sql_server": sql,
        **(
            {
                "sql_server_note": "no SQL Server licences counted: "
                + (
                    "the cost assumptions' sql_edition is none"
                    if a.sql_edition == "none"
                    else "no demand gives the VMs"
                )
            }
            if sql is None
            else {}
        ),
        "lines": lines,
        "capex_usd": capex,
        # two purchase figures in one file (CLI fuzzing 2026-11-30: 76,978 here, 107,447.5 in tco and the workbook's
        # "Total purchase"): which is which
        "capex_usd_note": "hardware and network only; the purchases (sum of upfront, tco[].upfront_usd) add the "
        f"perpetual licences: ${sum(upfront.values()):,.2f}",
        "upfront": upfront,
        "monthly": monthly,
        "tco": tco,
        "power_w": watts,
        "rack_units": ru,
        "physical_cores": phys_cores,
        "amortisation_months": months,
        "licensing_compiled": licensing_data()["date_compiled"],
        # a vSAN cluster's capacity against its subscription's entitlement (the add-on beyond it is not priced):
        # the sizer carries this block for the designs it ranks by this cost
        **({"vsan_capacity_licence": vsan} if vsan is not None else {}),
        "notes": notes,
    }


def tco_caveat_words(
    nodes: int, grows_in: int | None, wear_years: float | None, years: int, wear_said_in: str = ""
) -> list[str]:
    """What a total cost of ownership over ``years`` [years] leaves out, in words: the servers the demand's growth
    adds within it (``grows_in``, the first year needing more than the ``nodes`` servers it counts; the 5-year total
    was of 4 servers above "The cluster needs another server in year 4", review 2026-11-29), and the capacity
    drives' replacements when their rated writes run out within it (``wear_years`` [years]). One rule for the
    proposal, the workbook, the Size page and ``cost --demand`` (the pages and the JSON gave the 5-year TCO with
    no word; pricing walk 2026-11-30). ``wear_said_in``: where the replacement is counted out (the proposal's
    "section Cost"), added to its words."""
    out = []
    if grows_in is not None and 0 < grows_in < years:
        out.append(f"today's {nodes} servers; growth needs more from year {grows_in}")
    if wear_years is not None and math.isfinite(wear_years) and 0 < wear_years < years:
        out.append(
            "without replacing the capacity drives, which wear out within it"
            + (f": {wear_said_in}" if wear_said_in else "")
        )
    return out


def rounding_note(cost: dict) -> str | None:
    """What a reader adding the cost table's lines finds, when the lines rounded to the dollar do not add up to
    the total rounded to the dollar: the total is of the exact figures (presales walk 2026-11-30: $7,411 + $372 +
    $6,962 + $0 + $2,335 + $719 + $360 = $18,159 beside a total of $18,158). None when they add up.

    Parameters
    ----------
    cost : dict
        :func:`whole_cost`'s result (its ``lines``, ``upfront`` and ``monthly``).

    Returns
    -------
    str or None
        One sentence naming the sums as shown [USD], or None.
    """
    said = []
    for key, total, what in (
        ("upfront_usd", sum(cost["upfront"].values()), "of purchases"),
        ("usd_per_month", cost["monthly"]["total_usd_per_month"], "per month"),
    ):
        shown = sum(round(x[key]) for x in cost["lines"])
        if shown != round(total):
            said.append(f"${shown:,.0f} {what} (total ${round(total):,.0f})")
    if not said:
        return None
    return "Each line is rounded to the dollar, the total is of the exact figures: the lines as shown add up to " + (
        " and ".join(said)
    )


def tco_rounding_note(cost: dict) -> str | None:
    """The total cost of ownership table's :func:`rounding_note`: where a period's purchases and running costs, each
    rounded to the dollar, do not add up to its total rounded to the dollar (CFO read 2026-11-30: $521,815 +
    $233,914 beside a total of $755,730), one sentence giving the sums as shown; None when every row adds up."""
    said = [
        f"the {t['years']}-year row's as shown add up to ${shown:,.0f} (total ${round(t['total_usd']):,.0f})"
        for t in cost.get("tco") or []
        if (shown := round(t["upfront_usd"]) + round(t["running_usd"])) != round(t["total_usd"])
    ]
    if not said:
        return None
    return "Purchases and running costs are each rounded to the dollar, the totals are of the exact figures: " + (
        " and ".join(said)
    )


def price_kinds(cost: dict) -> dict:
    """Which lines' prices are quoted, list, street or estimated: ``{kind: [descriptions]}``
    (the cost panel's and the document's price note)."""
    out: dict[str, list[str]] = {}
    for x in cost["parts"] + cost["network"]["lines"]:
        out.setdefault(x["price_kind"], [])
        if x["description"] not in out[x["price_kind"]]:
            out[x["price_kind"]].append(x["description"])
    return out


def dollars_adding_up(parts: dict[str, float | None], whole: float | None) -> dict[str, float]:
    """``parts`` (None: not known) and their ``whole`` [USD] in whole dollars as a sentence says them, the parts
    rounded so that they add up to the whole said (:func:`planner.core.text.adding_up`) when they are its parts
    (within a dollar of it); else each rounded alone. ``whole`` under the key "whole" (the parts' sum when None)."""
    known = {k: float(v) for k, v in parts.items() if v is not None}
    if whole is not None and abs(sum(known.values()) - whole) >= 0.5:  # not its parts: each said alone
        return {**{k: float(round(v)) for k, v in known.items()}, "whole": float(round(whole))}
    said = dict(zip(known, adding_up(list(known.values()), 0), strict=True))
    return {**said, "whole": sum(said.values())}


def dollars_said(cluster_usd_per_month: float, cost: dict | None) -> dict[str, float]:
    """The whole dollars a page or document says of a design's monthly cost [USD/month]: the cluster's
    (``cluster_usd_per_month``: servers and storage, platform licences, support, power, rack space), the
    network's and SQL Server's (keys "cluster", "network", "sql"; a part not known or not counted left out)
    and their whole ("whole"), from the whole cost ``cost`` (:func:`whole_cost`, None: the cluster alone),
    rounded to add up (:func:`dollars_adding_up`). The one rule every place that prints these figures uses:
    the Size page's table rounded the cluster's cost alone ($22,775) where the proposal's sentence said
    $22,774 (stop 55)."""
    net = sql = whole = None
    if cost is not None:
        net = cost["network"]["usd_per_month"] if cost["network"]["lines"] else None
        sql = cost["monthly"]["sql_server_usd_per_month"] if cost["sql_server"] is not None else None
        whole = cost["monthly"]["total_usd_per_month"]
    return dollars_adding_up({"cluster": cluster_usd_per_month, "network": net, "sql": sql}, whole)


def tier_cost_base(tiers: dict, cost: dict | None = None) -> dict:
    """What the tier prices of :func:`planner.commercial.pricing.tier_prices` (``tiers``) share out,
    and what they leave out that the whole cost (``cost``, :func:`whole_cost` of the same design
    and assumptions) carries: ``cluster_usd_per_month`` (servers and storage, platform licences,
    support, power, rack space), ``network_usd_per_month`` and ``sql_server_usd_per_month`` (None
    when not known or not counted), ``whole_usd_per_month`` and ``text``, the sentence the proposal
    and the SLA page print beside the prices [USD/month], with the sentence that the Windows Server
    guests are not licensed when the monthly cost's licence leaves them out (neither does the whole
    cost carry them)."""
    cluster = float(tiers["monthly_cost"]["per_cluster"]["total_usd_per_month"])
    months = tiers["assumptions"]["amortisation_months"]
    net = sql = whole = None
    if cost is not None:
        net = cost["network"]["usd_per_month"] if cost["network"]["lines"] else None
        sql = cost["monthly"]["sql_server_usd_per_month"] if cost["sql_server"] is not None else None
        whole = cost["monthly"]["total_usd_per_month"]
    # in whole dollars, as the cost table beside it gives the whole cost ("$72,153.99 ... $580.06 ... $72,734.05"
    # beside a table's $72,734; account-manager walk 2026-11-30), each part rounded so that the parts said add up to
    # the whole said (adding_up: "$3,453 ... $560 ... the whole cost of $4,014", each rounded on its own; finance walk
    # 2026-11-30)
    said = dollars_said(cluster, cost)
    network = "the network (switches, optics and cables" + (
        f", ${said['network']:,.0f} a month with their support, power and rack space)" if net is not None else ")"
    )
    sql_words = "SQL Server's licences" + (f" (${said['sql']:,.0f} a month)" if sql is not None else "")
    head = (
        f"Tier prices share out the cluster's cost of ${said['cluster']:,.0f} a month: its servers and storage (the "
        f"purchase spread over {count(months, 'month')}), their platform licences, support, power and rack space. "
        "They leave out "
    )
    # the whole cost is said to include only what it counts: "and SQL Server's licences, which the whole cost ...
    # includes" stood beside its SQL Server line "$0, not counted" (CFO read 2026-11-30)
    if whole is None or (net is None and sql is None):
        text = f"{head}{network} and {sql_words}: charge them on top of the tier prices."
    elif net is not None and sql is not None:
        text = (
            f"{head}{network} and {sql_words}, which the whole cost of ${said['whole']:,.0f} a month includes: charge "
            "them on top of the tier prices."
        )
    else:
        counted, uncounted = (network, sql_words) if net is not None else (sql_words, network)
        text = (
            f"{head}{counted}, which the whole cost of ${said['whole']:,.0f} a month includes, and {uncounted}, which "
            "it does not count: charge them on top of the tier prices."
        )
    # Azure Local's host fee alone cut the tier prices by a fifth, said only as "the network and SQL Server's
    # licences" left out (finance walk 2026-11-30)
    if note := tiers["monthly_cost"].get("windows_guests_note"):
        text += f" {sentence(note)}"
    return {
        "cluster_usd_per_month": cluster,
        # the whole dollars the sentence says, for a figure shown beside it ("$28,669" in the sentence above a metric
        # of $28,668; verification walk 2026-11-30)
        "cluster_usd_per_month_said": said["cluster"],
        "network_usd_per_month": net,
        "sql_server_usd_per_month": sql,
        "whole_usd_per_month": whole,
        "text": text,
    }


def tier_revenue(
    tiers: dict, counts: dict[str, int], cost: dict, demand_share: float | None, subject: str = "this demand"
) -> dict:
    """What the tier prices (``tiers``, :func:`planner.commercial.pricing.tier_prices`) bring in at a demand's
    ``counts`` (tier name -> databases), against the whole cost (``cost``, :func:`whole_cost` of the same design
    and assumptions), and why the two differ: each price is set per database at the fill and margin assumed,
    where the demand fills ``demand_share`` [-] of the design (:func:`planner.commercial.tiers.fit_mix`'s mix, its
    resource that runs out first; None when not known). The proposal gave tier prices and a whole cost with no
    word on how they meet (CFO read 2026-11-30). One rule for the proposal, the SLA page's tier mix and
    ``hciplan price --mix``; ``subject`` names whose counts the sentence gives ("this mix" for a mix typed on the SLA
    page). A tier without a price (no database of it fits the design) brings in nothing, and is said.

    Returns
    -------
    dict
        ``revenue_usd_per_month``, ``whole_usd_per_month``, ``over_usd_per_month`` (revenue less whole cost,
        negative when short) [USD/month], the same three in whole dollars as the sentence says them
        (``revenue_said_usd_per_month``, ``whole_said_usd_per_month``, ``over_said_usd_per_month``, the
        difference of the two said: a page's metric beside the sentence shows these), ``demand_share`` [-],
        ``unpriced`` (the tiers counted that have no price) and ``text``, one sentence in whole dollars.
    """
    prices = tiers["tiers"]
    unpriced = [name for name, n in counts.items() if n and prices[name]["price_usd_per_month"] is None]
    revenue = sum(
        n * float(prices[name]["price_usd_per_month"]) for name, n in counts.items() if n and name not in unpriced
    )
    whole = float(cost["monthly"]["total_usd_per_month"])
    over = revenue - whole
    # in whole dollars, as the cost table gives the whole cost, the difference of the figures said
    # (account-manager walk 2026-11-30: "$72,734.05" in prose beside a table's $72,734)
    revenue_said, whole_said = round(revenue), round(whole)
    over_said = revenue_said - whole_said
    a = tiers["assumptions"]
    which = mix_list(counts)
    text = (
        f"At {subject}'s counts ({which}) the tier prices bring in ${revenue_said:,.0f} a month against the whole "
        f"cost of ${whole_said:,.0f} a month: "
        + (
            f"${over_said:,.0f} a month over it ({pct(over / revenue)} of what they bring in)"
            if over_said >= 0 and revenue > 0
            else f"${-over_said:,.0f} a month short of it"
        )
        + f". Each price is set per database at the {pct(a['target_fill'])} fill and {pct(a['target_margin'])} margin "
        "assumed"
        + (
            " (hciplan defaults; replace with yours)"
            if default_words(a, "target_fill") and default_words(a, "target_margin")
            else ""
        )
        + (
            f"; {subject} would fill {pct(demand_share)} of the design"
            + (", more than it holds" if demand_share > 1.0 + 1e-9 else "")
            if demand_share is not None
            else ""
        )
        + "."
        + (
            f" {', '.join(unpriced)}: no price on this design (none fits), so they bring in nothing."
            if unpriced
            else ""
        )
    )
    return {
        "revenue_usd_per_month": revenue,
        "whole_usd_per_month": whole,
        "over_usd_per_month": over,
        "revenue_said_usd_per_month": revenue_said,
        "whole_said_usd_per_month": whole_said,
        "over_said_usd_per_month": over_said,
        "demand_share": demand_share,
        "unpriced": unpriced,
        "text": text,
    }
