"""Software licensing options for a cluster's physical cores, side by side.

Prices are public list prices kept as data in ``planner/data/licensing.json``,
each with its source, the date it was seen and what is estimated; every figure
is an editable assumption (:class:`planner.commercial.pricing.CostAssumptions`).

Rules
-----
* Azure Local host service fee: a flat rate per physical processor core per
  month, "no minimum, no maximum" (Microsoft, *Azure Local billing and
  payment*); the optional Windows Server subscription add-on is per physical
  core per month too.
* Windows Server Datacenter: every physical core licensed, at least 8 core
  licences per processor and 16 per server (Microsoft, *Windows Server
  licensing*); perpetual, so the purchase is spread over the amortisation
  period to compare with a subscription.
"""

from __future__ import annotations

import json
from functools import lru_cache

from planner.core.resources import data_path

LICENSING_FILE = data_path("licensing.json")
MIN_CORE_LICENCES_PER_SERVER = 16
MIN_CORE_LICENCES_PER_CPU = 8


@lru_cache(maxsize=1)
def licensing_data() -> dict:
    """The licensing assumptions file (options by id, its compile date)."""
    doc = json.loads(LICENSING_FILE.read_text(encoding="utf-8"))
    return {
        "date_compiled": doc["date_compiled"],
        "description": doc["description"],
        "options": {o["id"]: o for o in doc["options"]},
    }


def option(option_id: str) -> dict:
    return licensing_data()["options"][option_id]


def datacenter_core_licences(cores_per_cpu, sockets):
    """Core licences one server needs: all cores, >= 8 per CPU, >= 16 per server."""
    return max(max(int(cores_per_cpu), MIN_CORE_LICENCES_PER_CPU) * int(sockets), MIN_CORE_LICENCES_PER_SERVER)


def licence_options(cores_per_cpu: int, sockets: int, nodes: int, a) -> list[dict]:
    """Every licensing option for ``nodes`` servers of ``sockets`` x
    ``cores_per_cpu`` physical cores, over ``a.amortisation_months``.

    Returns one dict per option: ``total_usd`` over the period, ``usd_per_month``,
    the cores it bills, whether it covers Windows guests, the price basis and
    its source. ``a`` is a :class:`planner.commercial.pricing.CostAssumptions`.
    """
    months = a.amortisation_months
    cores = int(cores_per_cpu) * int(sockets) * int(nodes)
    dc_cores = datacenter_core_licences(cores_per_cpu, sockets) * int(nodes)
    al, ws_sub = option("azure-local-subscription"), option("azure-local-windows-server-subscription")
    dc = option("windows-server-2025-datacenter")
    host = a.azure_local_usd_per_core_month
    guest = a.windows_subscription_usd_per_core_month
    dc_core = a.windows_datacenter_usd_per_core
    rows = [
        {
            "option": "azure-local",
            "name": "Azure Local host fee (subscription)",
            "cores_billed": cores,
            "usd_per_month": cores * host,
            "windows_guests_included": False,
            "basis": f"{cores} physical cores x ${host:,.2f} per core per month",
            "source": al["source"],
            "estimated": al.get("estimated", {}),
        },
        {
            "option": "azure-local-windows",
            "name": "Azure Local host fee + Windows Server subscription",
            "cores_billed": cores,
            "usd_per_month": cores * (host + guest),
            "windows_guests_included": True,
            "basis": f"{cores} physical cores x (${host:,.2f} + ${guest:,.2f}) per core per month",
            "source": f"{al['source']}; {ws_sub['source']}",
            "estimated": ws_sub.get("estimated", {}),
        },
        {
            "option": "windows-server-datacenter",
            "name": "Windows Server Datacenter core licences (perpetual)",
            "cores_billed": dc_cores,
            "usd_per_month": dc_cores * dc_core / months,
            "windows_guests_included": True,
            "basis": f"{dc_cores} core licences (all cores, >= 8 per CPU, >= 16 per server) x ${dc_core:,.2f} "
            f"per core, spread over {months} months",
            "source": a.licence_source,
            "estimated": dc.get("estimated", {}),
        },
    ]
    for r in rows:
        r["total_usd"] = r["usd_per_month"] * months
        r["months"] = months
    return rows


def licence_usd_per_month_per_node(cores_per_cpu, sockets, a):
    """The priced licence line for one node, USD/month, under ``a.licence_option``
    (scalars or numpy arrays)."""
    import numpy as np

    cores = np.asarray(cores_per_cpu) * np.asarray(sockets)
    if a.licence_option == "azure-local":
        return cores * a.azure_local_usd_per_core_month
    if a.licence_option == "azure-local-windows":
        return cores * (a.azure_local_usd_per_core_month + a.windows_subscription_usd_per_core_month)
    lic = np.maximum(
        np.maximum(np.asarray(cores_per_cpu), MIN_CORE_LICENCES_PER_CPU) * np.asarray(sockets),
        MIN_CORE_LICENCES_PER_SERVER,
    )
    return lic * a.windows_datacenter_usd_per_core / a.amortisation_months
