"""Cost model: capex from catalog list prices, monthly cost, price per tier.

Every figure here is an editable assumption (:class:`CostAssumptions`).
Monthly cost of a part = purchase / amortisation months + support (a share of
the purchase per year) + power (W x PUE x 730 h / 1000 x USD/kWh); a chassis
adds rack units x USD per rack unit per month. Licences follow
``licence_option`` (:mod:`planner.commercial.licensing`): Windows Server Datacenter core
licences spread over the amortisation period (default), or Azure Local's
per-physical-core subscription with or without the Windows Server add-on. A Ceph or vSAN cluster
carries its stack's licence plus, unless ``guest_os_licence`` is none, the Windows Server Datacenter
core licences of its Windows guests on the servers that run the VMs.
"""

from __future__ import annotations

import math
from typing import Annotated, Literal

import numpy as np
from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator

from planner.commercial.licensing import (
    MIN_CORE_LICENCES_PER_CPU,
    MIN_CORE_LICENCES_PER_SERVER,
    OPTION_NAMES,
    datacenter_core_licences,
    for_platform,
    guests_note,
    licence_seen,
    licence_usd_per_month_per_node,
    licensing_data,
    stack_guests_licensed,
    stack_licence_name,
    stack_licensing_data,
    stack_platform_note,
)
from planner.core import minimums as M
from planner.core.errors import PlannerError
from planner.core.jsonio import file_kind
from planner.models.design import ResolvedDesign
from planner.physics.dimms import MemoryHost, ram_refusal
from planner.physics.endurance import DEFAULT_SERVICE_MONTHS
from planner.physics.power import client_parts, node_parts, node_power_w, parts_power_w, server_rack_units

_LIC = licensing_data()["options"]
WINDOWS_DATACENTER_16_CORE_USD = float(_LIC["windows-server-2025-datacenter"]["usd_per_16_core_pack"])
AZURE_LOCAL_USD_PER_CORE_MONTH = float(_LIC["azure-local-subscription"]["usd_per_physical_core_per_month"])
WINDOWS_SUBSCRIPTION_USD_PER_CORE_MONTH = float(
    _LIC["azure-local-windows-server-subscription"]["usd_per_physical_core_per_month"]
)
_SQL_E, _SQL_S = _LIC["sql-server-2022-enterprise"], _LIC["sql-server-2022-standard"]
#: the licence options a cost can carry (planner.commercial.licensing)
LicenceOption = Literal["windows-server-datacenter", "azure-local", "azure-local-windows", "azure-local-datacenter"]
HOURS_PER_MONTH = 730.0
#: Most a single part may cost, USD: catches unit slips without limiting any real part.
MAX_PART_PRICE_USD = 10_000_000.0


class PricingError(PlannerError):
    pass


class UnbuiltRamError(PricingError):
    """A node's RAM total that no set of the catalog's memory modules builds in its slots (:func:`buildable_ram`):
    its own class, so a page can say it in its words without reading the message."""


#: where each running-cost default comes from: a published figure it sits near, or an hciplan default assumption with
#: no source, to be replaced with the customer's own (honesty audit 2026-12-01: "10% of the hardware and network price
#: per year" read as fact). Said in each field's description and, while the default is in use, beside the figure
#: wherever a cost prints it (:func:`default_words`).
COST_DEFAULT_SOURCES = {
    "power_usd_per_kwh": "hciplan default assumption, of the order of the U.S. average retail price of electricity "
    "to commercial customers (U.S. Energy Information Administration, Electric Power Monthly, Table 5.3; 11.07 "
    "cents/kWh in September 2020, EIA Electricity Monthly Update): replace with the site's tariff",
    "pue": "hciplan default assumption, a fairly efficient site: the Uptime Institute Global Data Center Survey's "
    "average power usage effectiveness was 1.55 in 2022 and 1.58 in 2023: replace with the site's",
    "rack_unit_usd_per_month": "hciplan default assumption with no published source: replace with the facility's or "
    "the colocation provider's price",
    "support_share_per_year": "hciplan default assumption with no published source: replace with the vendors' "
    "support quotes",
    "target_margin": "hciplan default assumption, a business choice with no source: replace with your own",
    "target_fill": "hciplan default assumption, a business choice with no source: replace with your own",
}
#: the same in a few words, beside a printed figure
COST_DEFAULT_SHORT = {
    "power_usd_per_kwh": "hciplan default, near the U.S. commercial average per the EIA; replace with your tariff",
    "pue": "hciplan default; the Uptime Institute's surveyed average was 1.58 in 2023; replace with your site's",
    "rack_unit_usd_per_month": "hciplan default assumption, no published source; replace with your price",
    "support_share_per_year": "hciplan default assumption, no published source; replace with your vendors' quotes",
    "target_margin": "hciplan default assumption; replace with yours",
    "target_fill": "hciplan default assumption; replace with yours",
}


class CostAssumptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    amortisation_months: int = Field(default=DEFAULT_SERVICE_MONTHS, ge=1, le=120)
    power_usd_per_kwh: float = Field(
        default=0.12, ge=0, le=10, description=f"USD per kWh; {COST_DEFAULT_SOURCES['power_usd_per_kwh']}"
    )
    pue: float = Field(
        default=1.5, ge=1.0, le=5.0, description=f"power usage effectiveness; {COST_DEFAULT_SOURCES['pue']}"
    )
    rack_unit_usd_per_month: float = Field(
        default=30.0,
        ge=0,
        le=10_000,
        description=f"USD per rack unit per month; {COST_DEFAULT_SOURCES['rack_unit_usd_per_month']}",
    )
    licence_option: LicenceOption = Field(
        default="windows-server-datacenter",
        description="which licensing the monthly cost carries (all are compared in the bill of materials); "
        "on an Azure Local platform Windows Server Datacenter becomes the host fee plus Datacenter guest licences",
    )
    platform: Literal["auto", "azure-local", "windows-server"] = Field(
        default="auto",
        description="the cluster's operating system: auto follows the demand (platform, or validated_for "
        "'Azure Local'), else Windows Server",
    )
    windows_datacenter_usd_per_core: float = Field(
        default=WINDOWS_DATACENTER_16_CORE_USD / 16,
        ge=0,
        le=100_000,
        description="editable assumption; Windows Server 2025 Datacenter 16-core pack list price / 16",
    )
    azure_local_usd_per_core_month: float = Field(
        default=AZURE_LOCAL_USD_PER_CORE_MONTH,
        ge=0,
        le=10_000,
        description="editable assumption; Azure Local host fee per physical core per month",
    )
    windows_subscription_usd_per_core_month: float = Field(
        default=WINDOWS_SUBSCRIPTION_USD_PER_CORE_MONTH,
        ge=0,
        le=10_000,
        description="editable assumption; Windows Server subscription add-on for Azure Local per core per month",
    )
    vsan_licence: Literal["vmware-vcf", "vmware-vvf"] = Field(
        default="vmware-vcf", description="vSAN designs: which VMware subscription the monthly cost carries"
    )
    vcf_usd_per_core_year: float = Field(
        default=float(stack_licensing_data()["options"]["vmware-vcf"]["usd_per_core_per_year"]),
        ge=0,
        le=100_000,
        description="editable assumption; VMware Cloud Foundation per core per year (third-party list price)",
    )
    vvf_usd_per_core_year: float = Field(
        default=float(stack_licensing_data()["options"]["vmware-vvf"]["usd_per_core_per_year"]),
        ge=0,
        le=100_000,
        description="editable assumption; VMware vSphere Foundation per core per year (third-party list price)",
    )
    guest_os_licence: Literal["windows-server-datacenter", "none"] = Field(
        default="windows-server-datacenter",
        description="Ceph and vSAN designs: how the Windows Server guests the SQL Server VMs run in are licensed. "
        "windows-server-datacenter: every physical core of the servers that run the VMs (at least 8 per CPU, "
        "16 per server) at windows_datacenter_usd_per_core, spread over amortisation_months, as on Storage "
        "Spaces Direct (Microsoft licenses unlimited Windows Server VMs on a host so, whatever the hypervisor); "
        "none: not counted (SQL Server on Linux guests, or guests licensed elsewhere), and the cost says so. "
        "Storage Spaces Direct's guests follow licence_option",
    )
    licence_source: str = (
        f"Windows Server 2025 Datacenter 16-core pack, USD {WINDOWS_DATACENTER_16_CORE_USD:,.0f} "
        f"list price (editable assumption; planner/data/licensing.json, compiled "
        f"{licensing_data()['date_compiled']})"
    )
    # a share (0.10 is 10 %): named so (it was "support_pct_per_year", a percentage by its name); files, links and
    # saved scenarios written with the old name still read
    support_share_per_year: float = Field(
        default=0.10,
        ge=0,
        le=1,
        validation_alias=AliasChoices("support_share_per_year", "support_pct_per_year"),
        description="support as share of capex per year (0.10 = 10 %); "
        + COST_DEFAULT_SOURCES["support_share_per_year"],
    )
    ram_usd_per_gb: float | None = Field(
        default=None,
        ge=0,
        le=1000,
        description="editable assumption; RAM given as a total that is built of no DIMMs (a memory type the "
        "catalog has no module of, or a system the customer owns whose RAM no set of them builds), USD per GB; "
        "every server's RAM is otherwise the cheapest set of catalog modules its slots hold "
        "(planner.physics.dimms); left out, the catalog's "
        "cheapest memory module per GB of the kind the CPU takes (DDR4 or DDR5; "
        "planner.commercial.pricing.ram_usd_per_gb)",
    )
    target_margin: float = Field(
        default=0.30,
        ge=0,
        le=0.95,
        description="tier prices' margin, a share (0.30 = 30 %); " + COST_DEFAULT_SOURCES["target_margin"],
    )
    target_fill: float = Field(
        default=0.70,
        ge=0.05,
        le=1.0,
        description="share of the design the tier prices assume sold (0.70 = 70 %); "
        + COST_DEFAULT_SOURCES["target_fill"],
    )
    part_prices_usd: dict[str, Annotated[float, Field(ge=0, le=MAX_PART_PRICE_USD)]] = Field(
        default_factory=dict, description=f"part id -> USD override (0..{MAX_PART_PRICE_USD:,.0f})"
    )
    vendor_discounts_pct: dict[str, Annotated[float, Field(ge=0, le=95)]] = Field(
        default_factory=dict, description="vendor -> discount off the price list, % (0..95); the vendor in any case"
    )
    sql_edition: Literal["none", "standard", "enterprise"] = Field(
        default="none", description="SQL Server licences for the database VMs in the whole cost (none: not counted)"
    )
    sql_licensing: Literal["licence-included", "bring-your-own"] = Field(
        default="licence-included",
        description="licence-included: pay-as-you-go per core per month (Azure Arc); bring-your-own: "
        "perpetual 2-core packs, with Software Assurance per year",
    )
    sql_enterprise_usd_per_2_core: float = Field(default=float(_SQL_E["usd_per_2_core_pack"]), ge=0, le=1e6)
    sql_standard_usd_per_2_core: float = Field(default=float(_SQL_S["usd_per_2_core_pack"]), ge=0, le=1e6)
    sql_enterprise_usd_per_core_month: float = Field(default=float(_SQL_E["usd_per_core_per_month_payg"]), ge=0, le=1e5)
    sql_standard_usd_per_core_month: float = Field(default=float(_SQL_S["usd_per_core_per_month_payg"]), ge=0, le=1e5)
    sql_software_assurance_pct_per_year: float = Field(
        default=100 * float(_SQL_E["software_assurance_share_per_year"]),
        ge=0,
        le=100,
        description="Software Assurance per year, % of the licence price (bring-your-own)",
    )
    network: bool = Field(default=True, description="count top-of-rack switches, cables and optics in the whole cost")
    switch_model: str | None = Field(
        default=None, max_length=100, description="switch catalog id (default: the cheapest that fits)"
    )
    switch_count: int = Field(default=2, ge=1, le=16, description="top-of-rack switches (two for redundancy)")
    cable_run_m: float = Field(
        default=3.0,
        ge=M.MIN_CABLE_M,
        le=1000,
        description="server to switch cable run, m (DAC within its length, else optics)",
    )

    @field_validator("vendor_discounts_pct", mode="after")
    @classmethod
    def _vendor_case(cls, v: dict[str, float]) -> dict[str, float]:
        # "Dell" was never matched (the lookup is by the lower-case vendor): the discount was dropped without a word
        # (finance walk 2026-11-30)
        out: dict[str, float] = {}
        for k, pct in v.items():
            key = k.strip().lower()
            if key in out and out[key] != pct:
                raise ValueError(f"vendor {k!r} is given twice with different discounts")
            out[key] = pct
        return out


#: the CostAssumptions fields only a vSAN design uses
VSAN_ASSUMPTIONS = {"vsan_licence", "vcf_usd_per_core_year", "vvf_usd_per_core_year"}
#: the CostAssumptions fields only a Ceph or vSAN design uses (an S2D cluster's guests follow licence_option)
STACK_ASSUMPTIONS = {"guest_os_licence"}
#: the Windows Server Datacenter price and its source: an S2D cluster's, and a Ceph or vSAN cluster's Windows
#: guests' unless its guest_os_licence is none
DATACENTER_ASSUMPTIONS = {"licence_source", "windows_datacenter_usd_per_core"}
#: the Windows Server / Azure Local licence assumptions only an S2D cluster uses: a Ceph or vSAN cluster's
#: cost carries its stack's own licence (monthly_cost's licence_option) and its guests' Datacenter licences,
#: so its echo leaves these out (and the Datacenter ones too when it does not count the guests)
S2D_LICENCE_ASSUMPTIONS = {
    "licence_option",
    "platform",
    "azure_local_usd_per_core_month",
    "windows_subscription_usd_per_core_month",
}


def echo_hidden(stack: str, a: CostAssumptions) -> set[str]:
    """The cost assumptions a ``stack`` design's cost does not use, left out of its echo: the vSAN
    subscription's beside another stack, the Windows platform's beside a Ceph or vSAN cluster, the Datacenter
    price beside one that does not license its guests, the guests' choice beside Storage Spaces Direct."""
    hide = set() if stack == "vsan" else set(VSAN_ASSUMPTIONS)
    if stack == "s2d":
        return hide | STACK_ASSUMPTIONS
    return hide | S2D_LICENCE_ASSUMPTIONS | (set() if stack_guests_licensed(a) else DATACENTER_ASSUMPTIONS)


def part_price_usd(rec, a: CostAssumptions) -> float:
    """A part's price, USD: the user's quote, else the catalog list price less the
    user's discount for its vendor (:mod:`planner.commercial.prices` says where each comes from)."""
    if rec.id in a.part_prices_usd:
        return float(a.part_prices_usd[rec.id])
    pct = a.vendor_discounts_pct.get(rec.vendor.lower()) if a.vendor_discounts_pct else None
    if rec.list_price_usd is None:
        raise PricingError(
            # where the price goes (CLI review 2026-11-29): the CLI's --quotes / --costs, the app's quotes upload
            f"no list_price_usd for part '{rec.id}': give its price in your quotes (a part,price_usd table) or in "
            "the cost assumptions' part_prices_usd; a system the customer owns needs none",
            f"part_prices_usd.{rec.id}",
        )
    price = float(rec.list_price_usd)
    if not (math.isfinite(price) and 0 <= price <= MAX_PART_PRICE_USD):
        raise PricingError(
            f"list_price_usd of part '{rec.id}' must be 0..{MAX_PART_PRICE_USD:,.0f} "
            f"(got {price:g}); set it in part_prices_usd",
            f"part_prices_usd.{rec.id}",
        )
    return price if pct is None else price * (1.0 - pct / 100.0)


#: the DDR4 RDIMM street price per GB of 2026-09-30 ($286 for 32 GB, planner/data/prices.json): the price
#: per GB when the catalog has no memory module of the kind
DDR4_USD_PER_GB = 8.94


def _cheapest_module(memory_type: str, a) -> tuple[float, str] | None:
    """The catalog's memory module of ``memory_type`` cheapest per GB at ``a``'s prices (a quote counts)."""
    from planner.models.catalog import MemoryModule, load_catalog

    mods = [
        (part_price_usd(m, a) / m.capacity_gb, m)
        for m in load_catalog().of("memory_module").values()
        if isinstance(m, MemoryModule)
        and m.memory_type == memory_type
        and (m.list_price_usd or m.id in a.part_prices_usd)
    ]
    if not mods:
        return None
    usd, m = min(mods, key=lambda x: x[0])
    return usd, f"{m.vendor} {m.model}, ${usd * m.capacity_gb:,.2f} for {m.capacity_gb:g} GB"


def ram_usd_per_gb(a, cpu=None) -> tuple[float, str]:
    """The price of a GB of RAM given as a total that hciplan builds of no DIMMs [USD/GB] (a server of a memory type
    the catalog has no module of, or one the customer owns whose RAM no set of them builds; a server's RAM is
    otherwise its DIMMs, :func:`planner.physics.dimms.node_dimms`) and where it comes from: the cost
    assumptions' ``ram_usd_per_gb`` when set, else the catalog's cheapest module per GB of the memory the CPU
    takes (DDR4 without a CPU or a memory type). One DDR4 price for every such design priced a DDR5 server's
    768 GB at $6,866 where its DIMMs cost $24,000 (CLI review 2026-11-30)."""
    if a.ram_usd_per_gb is not None:
        return float(a.ram_usd_per_gb), "the ram_usd_per_gb assumption"
    kind = getattr(cpu, "memory_type", None) or "ddr4"
    found = _cheapest_module(kind, a) or _cheapest_module("ddr4", a)
    if found is None:  # a catalog without memory prices: the assumption's documented DDR4 figure
        return DDR4_USD_PER_GB, f"{DDR4_USD_PER_GB:g} USD per GB of DDR4"
    usd, what = found
    return usd, f"the catalog's cheapest {kind.upper()} module per GB ({what})"


def _unit_price(rec, a: CostAssumptions, cpu=None) -> float:
    """A part's unit price [USD]; RAM given per GB (``rec`` None) at the price of the memory ``cpu`` takes."""
    return ram_usd_per_gb(a, cpu)[0] if rec is None else part_price_usd(rec, a)


def buildable_ram(n: MemoryHost, field: str = "node.ram_gb") -> None:
    """Refuse to price a server whose RAM no set of the catalog's memory modules builds in its slots
    (:func:`planner.physics.dimms.ram_refusal`, the ``memory_config`` rule's words): priced per GB, 1,536 GB on
    a 32-slot Dell AX-660 cost the 32 GB module's $31.25 a GB where 16 x 96 GB at $35.70 is the only set
    (presales walk 2026-12-01).

    Raises
    ------
    PricingError
        With the rule's one line, naming ``field``.
    """
    if (why := ram_refusal(n)) is not None:
        raise UnbuiltRamError(why, field)


def node_capex_usd(rd: ResolvedDesign, a: CostAssumptions) -> float:
    buildable_ram(rd.node)
    return float(sum(_unit_price(rec, a, rd.node.cpu) * count for _, rec, count in node_parts(rd)))


def capex_usd(rd: ResolvedDesign, a: CostAssumptions | None = None) -> float:
    """Purchase price of the cluster's servers, USD (the network's is
    :func:`planner.commercial.network.network_bom`'s)."""
    a = a or CostAssumptions()
    return node_capex_usd(rd, a) * rd.nodes


def licence_cores(cores_per_cpu: int, sockets: int) -> int:
    """Core licences per server: all cores, >= 8 per CPU and >= 16 per server (Microsoft)."""
    return datacenter_core_licences(cores_per_cpu, sockets)


def part_monthly_usd(capex, power_w, a: CostAssumptions):
    """Monthly cost of hardware bought for ``capex`` USD drawing ``power_w`` W:
    amortisation + support + power (scalars or numpy arrays)."""
    capex = np.asarray(capex, dtype=float)
    return (
        capex / a.amortisation_months
        + capex * a.support_share_per_year / 12.0
        + np.asarray(power_w, dtype=float) * a.pue * HOURS_PER_MONTH / 1000.0 * a.power_usd_per_kwh
    )


def node_monthly_usd(node_capex, power_w, rack_units, licence_usd_per_month, a: CostAssumptions) -> dict:
    """Monthly cost of one node by line item, USD/month (scalars or numpy arrays).

    Hardware is amortised over the period; power is W x PUE x 730 h/month / 1000
    (kWh) x price; support is a share of capex per year; the licence line is
    :func:`planner.commercial.licensing.licence_usd_per_month_per_node`.
    """
    return {
        "hardware_usd_per_month": node_capex / a.amortisation_months,
        "power_usd_per_month": power_w * a.pue * HOURS_PER_MONTH / 1000.0 * a.power_usd_per_kwh,
        "rack_usd_per_month": rack_units * a.rack_unit_usd_per_month,
        "licence_usd_per_month": licence_usd_per_month,
        "support_usd_per_month": node_capex * a.support_share_per_year / 12.0,
    }


#: whose month :func:`monthly_cost` is, said beside it wherever it is printed (``price``, ``bom``)
SERVERS_MONTH_NOTE = (
    "the servers' month (what tier prices share out); the network's (switches, cables, optics) is not in it: "
    "`hciplan cost` gives the whole cost"
)


def monthly_cost(rd: ResolvedDesign, a: CostAssumptions | None = None) -> dict:
    """Monthly cost of the cluster's servers per node and per cluster, USD/month, by line item
    (a disaggregated Ceph or vSAN design's client servers: ``client_servers``, ``count`` and
    ``per_server``, and in ``per_cluster`` and ``capex_usd``; the network is the whole cost's, :func:`planner.commercial.tco.whole_cost`). The licences follow the design's platform
    (:func:`planner.commercial.licensing.for_platform`: the design's own when it names one, else
    ``a``'s; a caller with a demand passes ``for_platform(a, demand)``)."""
    a = for_platform(a or CostAssumptions(), None, rd.design)
    node_capex = node_capex_usd(rd, a)
    n = rd.node
    stack = rd.design.stack
    # a disaggregated design's storage nodes run no database VM: their Windows guests' licences are the clients'
    lic = float(licence_usd_per_month_per_node(n.cpu.cores, n.sockets, a, stack, hosts_vms=rd.clients is None))
    node = node_monthly_usd(node_capex, node_power_w(rd), n.chassis.rack_units if n.chassis else 1, lic, a)
    node = {k: float(v) for k, v in node.items()}
    node["total_usd_per_month"] = sum(node.values())
    cluster = {k: v * rd.design.nodes for k, v in node.items()}
    capex = node_capex * rd.nodes
    clients: dict = {}
    if rd.clients is not None:
        # a disaggregated design's databases run on its client servers: the tiers share out their month
        # too (`price` gave the storage nodes' month alone and fitted the tiers in the storage nodes' RAM)
        c = rd.clients
        buildable_ram(c, "clients.server.ram_gb")
        parts = client_parts(c)
        c_capex = float(sum(_unit_price(rec, a, c.cpu) * count for _, rec, count in parts))
        c_lic = float(licence_usd_per_month_per_node(c.cpu.cores, c.sockets, a, stack))
        server = {
            k: float(v)
            for k, v in node_monthly_usd(c_capex, parts_power_w(parts), server_rack_units(c), c_lic, a).items()
        }
        server["total_usd_per_month"] = sum(server.values())
        clients = {"client_servers": {"count": c.servers, "per_server": server}}
        cluster = {k: v + server[k] * c.servers for k, v in cluster.items()}
        capex += c_capex * c.servers
    if stack != "s2d":
        oid = "ceph-upstream" if stack == "ceph" else a.vsan_licence
        source = stack_licensing_data()["options"][oid]["source"]
        return {
            "per_node": node,
            **clients,
            "per_cluster": cluster,
            "capex_usd": capex,
            "licence_option": oid,
            "licence_name": stack_licence_name(oid, a),
            # the guests' Datacenter licences name the source an S2D cluster's do
            "licence_source": f"{source}; {a.licence_source}" if stack_guests_licensed(a) else source,
            "licence_seen": licence_seen(oid, a),
            **_guests(oid, a),
        }
    seen = licence_seen(a.licence_option, a)
    source = (
        a.licence_source
        if a.licence_option == "windows-server-datacenter"
        else licensing_data()["options"]["azure-local-subscription"]["source"]
    )
    return {
        "per_node": node,
        "per_cluster": cluster,
        "capex_usd": capex,
        "licence_option": a.licence_option,
        "licence_name": OPTION_NAMES[a.licence_option],
        **_guests(a.licence_option, a),
        # an edited price is not the list price the source names: said first (pricing review 2026-11-30)
        "licence_source": f"{seen}; the list price's source: {source}" if "set for this quote" in seen else source,
        "licence_seen": seen,
    }


def _guests(option_id: str, a: CostAssumptions) -> dict:
    """Whether the licence a monthly cost carries licenses the Windows Server guests, and when not, the
    sentence that says so (:func:`planner.commercial.licensing.guests_note`)."""
    note = guests_note(option_id, a)
    return {"windows_guests_included": note is None, **({"windows_guests_note": note} if note else {})}


def tier_prices(
    rd: ResolvedDesign, tierset, a: CostAssumptions | None = None, n_plus_one: bool = False, params=None
) -> dict:
    """Price per DB per month for each tier (``params``: model parameters for
    the IOPS each tier can reserve, default the shipped calibration).

    A tier's cost share is the cluster cost x the share of the binding resource
    one DB takes (1 / max DBs alone); price = cost share / fill / (1 - margin).
    Break-even fill is the fill at which price at zero margin covers cost.
    """
    from planner.commercial.tiers import fit_mix, limit_words

    a = for_platform(a or CostAssumptions(), None, rd.design)
    cost = monthly_cost(rd, a)
    total = cost["per_cluster"]["total_usd_per_month"]
    fit = fit_mix(rd, tierset, None, n_plus_one, params)
    out = {}
    for t in tierset.tiers:
        k = fit["alone"][t.name]["max_dbs"]
        limited = fit["alone"][t.name]["limited_by"]
        if k == 0:  # JSON has no Infinity: no price, and the reason beside every null
            # in words: the SLA page said "limited by reserved_iops" (browser review 2026-11-29)
            why = fit["alone"][t.name].get("limited_by_note") or (
                f"no {t.name} database fits on this design (limited by {limit_words(limited)})"
            )
            out[t.name] = {
                "max_dbs": 0,
                "limited_by": limited,
                "limited_by_words": limit_words(limited),
                "cost_share_usd_per_month": None,
                "price_usd_per_month": None,
                "cost_usd_per_guaranteed_iops_per_month": None,
                "cost_usd_per_gb_per_month": None,
                "break_even_fill": None,
                "price_note": f"{why}: it cannot be offered, so it has no price",
                "cost_note": f"{why}: no database carries a share of the cost",
                "break_even_fill_note": f"{why}: no fill breaks even",
            }
            continue
        share = total / k
        price = share / a.target_fill / (1.0 - a.target_margin)
        out[t.name] = {
            "max_dbs": k,
            "limited_by": limited,
            # the code is for scripts; a reader of `price` got "reserved_iops (n+1)" where the pages say
            # "IOPS reserved at the latency target, one node down" (pricing walk 2026-11-30)
            "limited_by_words": limit_words(limited),
            "cost_share_usd_per_month": share,
            "price_usd_per_month": price,
            "cost_usd_per_guaranteed_iops_per_month": share / t.guaranteed_iops,
            "cost_usd_per_gb_per_month": share / (t.capacity_tb_per_db * 1000.0),
            # revenue covers cost once fill x price x k >= total, i.e. at fill x (1 - margin)
            "break_even_fill": a.target_fill * (1.0 - a.target_margin),
        }
    # the vSAN subscription figures are shown where they are used, the Windows ones where they are
    hide = echo_hidden(rd.design.stack, a)
    # an assumption left unset (null) is left out: the echo says what was assumed
    return {
        "monthly_cost": cost,
        # whose month the tiers share out: a per-cluster 3,454 USD beside "network": true in the assumptions,
        # where `cost` says 4,014 (CLI review 2026-11-29)
        "monthly_cost_note": SERVERS_MONTH_NOTE,
        "tiers": out,
        "assumptions": a.model_dump(mode="json", exclude=hide, exclude_none=True),
        **(
            {"platform_note": note} if (note := stack_platform_note(rd.design.stack, a, cost["licence_option"])) else {}
        ),
    }


__all__ = [
    "MIN_CORE_LICENCES_PER_CPU",
    "MIN_CORE_LICENCES_PER_SERVER",
    "CostAssumptions",
    "PricingError",
    "capex_usd",
    "licence_cores",
    "monthly_cost",
    "node_capex_usd",
    "node_monthly_usd",
    "part_monthly_usd",
    "part_price_usd",
    "tier_prices",
]


# said when one kind of file is given for another (planner.core.jsonio.other_kind)
file_kind(CostAssumptions, "a cost assumptions file")


def default_note(a: CostAssumptions | dict, field: str) -> str:
    """Where a printed cost figure's default comes from (:data:`COST_DEFAULT_SHORT`) while ``field`` holds its
    default, else "": a figure the user gave is theirs, not an assumption of hciplan's.

    Parameters
    ----------
    a : CostAssumptions or dict
        The cost assumptions, or their JSON form.
    field : str
        A field of :data:`COST_DEFAULT_SHORT`.
    """
    value = a.get(field) if isinstance(a, dict) else getattr(a, field)
    default = CostAssumptions.model_fields[field].default
    return COST_DEFAULT_SHORT[field] if value is not None and float(value) == float(default) else ""


def default_words(a: CostAssumptions | dict, field: str) -> str:
    """:func:`default_note` in brackets after a figure (" (hciplan default ...)"), or ""."""
    note = default_note(a, field)
    return f" ({note})" if note else ""
