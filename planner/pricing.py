"""Cost model: capex from catalog list prices, monthly cost, price per tier.

Every figure here is an editable assumption (:class:`CostAssumptions`).
Licensing: Windows Server Datacenter is licensed per physical core, with a
minimum of 16 core licences per server and 8 per processor (Microsoft, *Windows
Server 2022 licensing datasheet*). Default price: Microsoft list price,
16-core pack, USD 6,155 -> ~USD 384.69 per core.
"""
from __future__ import annotations

import math
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from planner.design import ResolvedDesign
from planner.errors import PlannerError

WINDOWS_DATACENTER_16_CORE_USD = 6155.0
MIN_CORE_LICENCES_PER_SERVER = 16
MIN_CORE_LICENCES_PER_CPU = 8


class PricingError(PlannerError):
    pass


#: Most a single part may cost, USD: a bound that catches unit slips (cents, a
#: whole cluster's price) without limiting any real server part.
MAX_PART_PRICE_USD = 10_000_000.0


class CostAssumptions(BaseModel):
    # every figure finite: NaN or Infinity would price a cluster at NaN or Infinity USD
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    amortisation_months: int = Field(default=36, ge=1, le=120)
    power_usd_per_kwh: float = Field(default=0.12, ge=0, le=10)
    pue: float = Field(default=1.5, ge=1.0, le=5.0, description="power usage effectiveness")
    rack_unit_usd_per_month: float = Field(default=30.0, ge=0, le=10_000)
    windows_datacenter_usd_per_core: float = Field(
        default=WINDOWS_DATACENTER_16_CORE_USD / 16, ge=0, le=100_000,
        description="editable assumption; source: Microsoft list price, 16-core pack (USD 6,155)")
    licence_source: str = "Microsoft list price, 16-core pack (editable assumption)"
    support_pct_per_year: float = Field(default=0.10, ge=0, le=1, description="support as share of capex per year")
    ram_usd_per_gb: float = Field(default=4.0, ge=0, le=1000, description="editable assumption")
    target_margin: float = Field(default=0.30, ge=0, le=0.95)
    target_fill: float = Field(default=0.70, ge=0.05, le=1.0)
    part_prices_usd: dict[str, Annotated[float, Field(ge=0, le=MAX_PART_PRICE_USD)]] = Field(
        default_factory=dict, description=f"part id -> USD override (0..{MAX_PART_PRICE_USD:,.0f})")


def part_price_usd(rec, a: CostAssumptions) -> float:
    """A part's price, USD: the user's override, else the catalog list price."""
    if rec.id in a.part_prices_usd:
        return float(a.part_prices_usd[rec.id])
    if rec.list_price_usd is None:
        raise PricingError(f"no list_price_usd for part '{rec.id}'; add it to part_prices_usd",
                           f"part_prices_usd.{rec.id}")
    price = float(rec.list_price_usd)
    if not (math.isfinite(price) and 0 <= price <= MAX_PART_PRICE_USD):  # an inline spec built in code
        raise PricingError(f"list_price_usd of part '{rec.id}' must be 0..{MAX_PART_PRICE_USD:,.0f} "
                           f"(got {price:g}); set it in part_prices_usd", f"part_prices_usd.{rec.id}")
    return price


def node_capex_usd(rd: ResolvedDesign, a: CostAssumptions) -> float:
    n = rd.node
    total = part_price_usd(n.cpu, a) * n.sockets + part_price_usd(n.drive, a) * n.drive_count + part_price_usd(n.nic, a) * n.nic_count
    total += n.ram_gb * a.ram_usd_per_gb
    if n.chassis is not None:
        total += part_price_usd(n.chassis, a)
    if n.cache is not None:
        total += part_price_usd(n.cache, a) * n.cache_count
    return total


def capex_usd(rd: ResolvedDesign, a: CostAssumptions | None = None) -> float:
    """Hardware purchase price of the cluster, USD (catalog list prices)."""
    return node_capex_usd(rd, a or CostAssumptions()) * rd.design.nodes


def node_power_w(rd: ResolvedDesign) -> float:
    n = rd.node
    w = (n.cpu.power_w or n.cpu.tdp_w) * n.sockets + (n.drive.power_w or 0) * n.drive_count
    w += (n.nic.power_w or 0) * n.nic_count
    w += (n.chassis.power_w or 0) if n.chassis else 0
    w += (n.cache.power_w or 0) * n.cache_count if n.cache else 0
    return w


def licence_cores(cores_per_cpu: int, sockets: int) -> int:
    """Core licences per server: all cores, >= 8 per CPU and >= 16 per server (Microsoft)."""
    return max(max(cores_per_cpu, MIN_CORE_LICENCES_PER_CPU) * sockets, MIN_CORE_LICENCES_PER_SERVER)


def node_monthly_usd(node_capex, power_w, rack_units, licence_core_count, a: CostAssumptions) -> dict:
    """Monthly cost of one node by line item, USD/month (scalars or numpy arrays).

    Hardware and Windows Datacenter licences are amortised over the period;
    power is W x PUE x 730 h/month / 1000 (kWh) x price; support is a share of
    capex per year.
    """
    return {
        "hardware_usd_per_month": node_capex / a.amortisation_months,
        "power_usd_per_month": power_w * a.pue * 730.0 / 1000.0 * a.power_usd_per_kwh,
        "rack_usd_per_month": rack_units * a.rack_unit_usd_per_month,
        "licence_usd_per_month": licence_core_count * a.windows_datacenter_usd_per_core / a.amortisation_months,
        "support_usd_per_month": node_capex * a.support_pct_per_year / 12.0,
    }


def monthly_cost(rd: ResolvedDesign, a: CostAssumptions | None = None) -> dict:
    """Monthly cost per node and per cluster, USD/month, by line item."""
    a = a or CostAssumptions()
    node_capex = node_capex_usd(rd, a)
    n = rd.node
    node = node_monthly_usd(node_capex, node_power_w(rd), n.chassis.rack_units if n.chassis else 1,
                            licence_cores(n.cpu.cores, n.sockets), a)
    node["total_usd_per_month"] = sum(node.values())
    cluster = {k: v * rd.design.nodes for k, v in node.items()}
    return {"per_node": node, "per_cluster": cluster, "capex_usd": node_capex * rd.design.nodes,
            "licence_source": a.licence_source}


def tier_prices(rd: ResolvedDesign, tierset, a: CostAssumptions | None = None, n_plus_one: bool = False) -> dict:
    """Price per DB per month for each tier.

    A tier's cost share is the cluster cost x the share of the binding resource
    one DB takes (1 / max DBs alone); price = cost share / fill / (1 - margin).
    Break-even fill is the fill at which price at zero margin covers cost.
    """
    from planner.tiers import fit_mix

    a = a or CostAssumptions()
    cost = monthly_cost(rd, a)
    total = cost["per_cluster"]["total_usd_per_month"]
    fit = fit_mix(rd, tierset, None, n_plus_one)
    out = {}
    for t in tierset.tiers:
        k = fit["alone"][t.name]["max_dbs"]
        limited = fit["alone"][t.name]["limited_by"]
        if k == 0:  # JSON has no Infinity: no price, and the reason
            out[t.name] = {"max_dbs": 0, "limited_by": limited, "cost_share_usd_per_month": None,
                           "price_usd_per_month": None, "cost_usd_per_guaranteed_iops_per_month": None,
                           "cost_usd_per_gb_per_month": None, "break_even_fill": None,
                           "price_note": f"no {t.name} database fits on this design (limited by {limited}): "
                                         "it cannot be offered, so it has no price"}
            continue
        share = total / k
        price = share / a.target_fill / (1.0 - a.target_margin)
        out[t.name] = {
            "max_dbs": k, "limited_by": limited,
            "cost_share_usd_per_month": share, "price_usd_per_month": price,
            "cost_usd_per_guaranteed_iops_per_month": share / t.guaranteed_iops,
            "cost_usd_per_gb_per_month": share / (t.capacity_tb_per_db * 1000.0),
            # revenue covers cost once fill x price x k >= total, i.e. at fill x (1 - margin)
            # (share / price, written so that a zero cost is no division by zero)
            "break_even_fill": a.target_fill * (1.0 - a.target_margin),
        }
    return {"monthly_cost": cost, "tiers": out, "assumptions": a.model_dump(mode="json")}
