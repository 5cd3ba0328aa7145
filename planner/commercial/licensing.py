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
* The platform decides which apply (:func:`platform_of`, :func:`for_platform`): an
  Azure Local cluster pays the host fee on every physical core, and its Windows
  guests are licensed by Datacenter core licences or the Windows Server
  subscription; a Windows Server cluster licenses its cores with Datacenter. A
  design that names its platform is costed on it; one that does not runs the
  demand's when proposed, Windows Server when the customer owns it.
* SQL Server (:func:`sql_server_licences`): per core, Standard or Enterprise,
  licence-included (pay-as-you-go per core per month through Azure Arc) or
  bring-your-own (perpetual 2-core packs plus Software Assurance per year);
  virtual cores of each database VM, at least 4 per VM; Enterprise may instead
  license every physical core (at least 4 per processor) for unlimited VMs,
  whichever costs less.
* Ceph (``stack: ceph``): no licence fee (upstream open source); a commercial
  subscription is not priced (``planner/data/licensing-stacks.json``).
* vSAN (``stack: vsan``): VMware Cloud Foundation or vSphere Foundation per
  physical core per year, "a minimum license capacity of 16 cores per CPU"
  (Broadcom KB 313548); VCF includes 1 TiB of vSAN per licensed core (the KB's
  worked example), capacity beyond it is an add-on reported without a price.
* The Windows Server guests of a Ceph or vSAN cluster (``CostAssumptions.guest_os_licence``): the
  databases are SQL Server in Windows Server VMs, and Microsoft licenses unlimited Windows Server VMs
  on a host by Datacenter on all its physical cores whatever the hypervisor (vSphere, KVM), so the
  servers that run the VMs (the nodes, or a disaggregated design's client servers) carry the same
  Datacenter core licences as an S2D Windows Server cluster (:func:`datacenter_usd_per_month`,
  one rule); ``none`` for Linux guests or guests licensed elsewhere. A licence that leaves the Windows
  guests unlicensed (Azure Local's host fee alone, ``none``) says so wherever it is listed
  (:func:`guests_note`).
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from typing import Any

from planner.commercial.provenance import seen_text
from planner.core.resources import data_path
from planner.core.text import count
from planner.models.stacks import STACK_LABELS

LICENSING_FILE = data_path("licensing.json")
STACK_LICENSING_FILE = data_path("licensing-stacks.json")
MIN_CORE_LICENCES_PER_SERVER = 16
MIN_CORE_LICENCES_PER_CPU = 8
#: SQL Server: at least 4 core licences per VM, and per processor when physical cores are licensed
SQL_MIN_CORES_PER_VM = 4
SQL_MIN_CORES_PER_CPU = 4
#: how each licence option reads in a document
OPTION_NAMES = {
    "windows-server-datacenter": "Windows Server Datacenter (perpetual, per core)",
    "azure-local": "Azure Local host fee (per core per month)",
    "azure-local-windows": "Azure Local host fee with the Windows Server subscription",
    "azure-local-datacenter": "Azure Local host fee with Windows Server Datacenter guest licences",
}
PLATFORM_NAMES = {"azure-local": "Azure Local", "windows-server": "Windows Server"}
#: the Windows Server guests' licence of a Ceph or vSAN cluster (``CostAssumptions.guest_os_licence``) that
#: licenses them: Datacenter on every core of the servers that run the VMs
GUEST_DATACENTER = "windows-server-datacenter"
#: a Ceph or vSAN cluster's choices for its Windows guests (``CostAssumptions.guest_os_licence``) in words
GUEST_LICENCE_NAMES = {
    GUEST_DATACENTER: "Windows Server Datacenter on the VM servers' cores",
    "none": "not counted (Linux guests, or licensed elsewhere)",
}
#: what a licence that does not license the Windows Server guests says wherever it is listed or tier prices are
#: noted: the S2D host fee alone (finance walk 2026-11-30: it cut the tier prices by a fifth without a word) ...
AZURE_LOCAL_GUESTS_NOTE = (
    "Azure Local's host fee does not license the Windows Server guests the databases run in: add the Windows Server "
    "subscription, Datacenter licences, or Azure Hybrid Benefit"
)
#: ... and a Ceph or vSAN cost whose guest_os_licence is none
NO_GUEST_LICENCE_NOTE = (
    # said as what is counted: "the Windows Server guests the databases would run in are not licensed here" read as a
    # gap where the customer had chosen Linux guests (CFO walk 2026-11-30)
    "no Windows Server licence for the database VMs: the cost assumptions say Linux guests, or guests licensed "
    "elsewhere (Windows Server guests need Datacenter on every core of the servers that run the VMs)"
)


def licence_words(option_id: str) -> str:
    """A priced licence option in words: an S2D ``licence_option`` (:data:`OPTION_NAMES`) or a Ceph or
    vSAN stack's (its name in ``planner/data/licensing-stacks.json``). The SLA page had its own S2D-only
    copy and stopped on a Ceph design's "ceph-upstream" (browser review 2026-11-29)."""
    if option_id in OPTION_NAMES:
        return OPTION_NAMES[option_id]
    stack = stack_licensing_data()["options"].get(option_id)
    return stack["name"] if stack else option_id


#: what a priced licence option counts, in a cell beside another system's (:func:`licences_counted`); a VMware
#: subscription is named by its data (``licence_words``)
COUNTED_WORDS = {
    "windows-server-datacenter": "Windows Server Datacenter (hosts and guests)",
    "azure-local": "Azure Local host fee",
    "azure-local-windows": "Azure Local host fee + Windows Server subscription (guests)",
    "azure-local-datacenter": "Azure Local host fee + Windows Server Datacenter (guests)",
    "ceph-upstream": "Ceph: no licence fee (upstream, open source)",
}


def licences_counted(cost: dict) -> str:
    """What licences a cost (:func:`planner.commercial.tco.whole_cost`'s result) counts, in one line: the platform's
    or stack's licence, the Windows Server guests' (counted, or why not) and SQL Server's. The Compare page set a Ceph
    column without Windows licences beside an S2D one with Datacenter on every core and said neither (Ceph operator
    walk 2026-11-30).

    Parameters
    ----------
    cost : dict
        A whole cost: its ``licence_option``, ``licence_name``, ``windows_guests_included``, ``sql_server`` and
        ``owned``.

    Returns
    -------
    str
        e.g. "Ceph: no licence fee (upstream, open source); Windows guests not counted (Linux guests, or licensed elsewhere);
        SQL Server not counted".
    """
    opt = cost["licence_option"]
    said = [COUNTED_WORDS.get(opt) or licence_words(opt)]
    stack_option = opt in stack_licensing_data()["options"]
    if not cost["windows_guests_included"]:
        said.append(
            f"Windows guests {GUEST_LICENCE_NAMES['none']}"
            if stack_option
            else "Windows guests not licensed (the host fee alone)"
        )
    elif stack_option:
        said.append("Windows Server Datacenter (guests)")
    sql = cost.get("sql_server")
    said.append(sql["name"] if sql else "SQL Server not counted")
    if cost.get("owned"):
        said.append("owned: perpetual licences' purchase not counted")
    return "; ".join(said)


#: Broadcom KB 313548: "Customers must purchase a minimum license capacity of 16 cores per CPU."
VMWARE_MIN_CORES_PER_CPU = 16


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


#: the licensing files' options a priced licence option (``CostAssumptions.licence_option``) rests on
LICENCE_OPTION_DATA = {
    "azure-local": ("azure-local-subscription",),
    "azure-local-windows": ("azure-local-subscription", "azure-local-windows-server-subscription"),
    "windows-server-datacenter": ("windows-server-2025-datacenter",),
    "azure-local-datacenter": ("azure-local-subscription", "windows-server-2025-datacenter"),
}


#: the cost assumptions' fields that set each licence's prices (by the licensing files' option ids), and how a
#: customer reads each price
LICENCE_PRICE_FIELDS: dict[str, tuple[tuple[str, str], ...]] = {
    "windows-server-2025-datacenter": (("windows_datacenter_usd_per_core", "Windows Server Datacenter {} a core"),),
    "azure-local-subscription": (("azure_local_usd_per_core_month", "the Azure Local host fee {} a core a month"),),
    "azure-local-windows-server-subscription": (
        ("windows_subscription_usd_per_core_month", "the Windows Server subscription {} a core a month"),
    ),
    "vmware-vcf": (("vcf_usd_per_core_year", "VMware Cloud Foundation {} a core a year"),),
    "vmware-vvf": (("vvf_usd_per_core_year", "VMware vSphere Foundation {} a core a year"),),
    "sql-server-2022-enterprise": (
        ("sql_enterprise_usd_per_2_core", "SQL Server Enterprise {} a 2-core pack"),
        ("sql_enterprise_usd_per_core_month", "SQL Server Enterprise {} a core a month"),
    ),
    "sql-server-2022-standard": (
        ("sql_standard_usd_per_2_core", "SQL Server Standard {} a 2-core pack"),
        ("sql_standard_usd_per_core_month", "SQL Server Standard {} a core a month"),
    ),
}


def _set_for_quote(oid: str, a) -> str | None:
    """The prices of licence ``oid`` the cost assumptions ``a`` set away from the list, in words, or None."""
    if a is None:
        return None
    fields = type(a).model_fields
    said = [
        words.format(f"${getattr(a, f):,.2f}")
        for f, words in LICENCE_PRICE_FIELDS.get(oid, ())
        if getattr(a, f) != fields[f].default
    ]
    return f"{' and '.join(said)}, set for this quote" if said else None


def stack_guests_licensed(a=None) -> bool:
    """Whether a Ceph or vSAN cost licenses the Windows Server guests (``a.guest_os_licence``; ``a`` None: the
    defaults', which do)."""
    return getattr(a, "guest_os_licence", GUEST_DATACENTER) == GUEST_DATACENTER


def guests_note(option_id: str, a=None) -> str | None:
    """The sentence a licence option that leaves the Windows Server guests unlicensed carries wherever it is
    listed (the cost's notes, the tier prices' note, the bill of materials' options, the documents), or None:
    the S2D host fee alone ("azure-local"), or a Ceph or vSAN option under ``guest_os_licence`` none."""
    if option_id == "azure-local":
        return AZURE_LOCAL_GUESTS_NOTE
    if option_id in stack_licensing_data()["options"] and not stack_guests_licensed(a):
        return NO_GUEST_LICENCE_NOTE
    return None


#: why the Windows guests' choice (``guest_os_licence``) changes nothing on Storage Spaces Direct: its guests follow
#: the cluster's licence option (:data:`COUNTED_WORDS`), the choice is a Ceph or vSAN cluster's
S2D_GUESTS_WORDS = (
    "only applies to a Ceph or vSAN cluster; a Storage Spaces Direct cluster's Windows Server guests follow its "
    "licence option (Windows Server Datacenter licenses them; on Azure Local, the Windows Server subscription or "
    "Datacenter add-on does, the host fee alone does not), so it changes nothing here"
)


def stack_platform_note(stack: str, a, option_id: str) -> str | None:
    """Why a platform choice (``a.platform``, ``--platform``) changes nothing on a Ceph or vSAN design: the Windows
    platform is Storage Spaces Direct's, the design carries its own licence ``option_id``. None on S2D or with the
    platform left to follow the demand ("auto"). One sentence for ``price`` and ``cost`` (Ceph operator walk: `cost
    --platform azure-local` on Ceph ignored the flag silently)."""
    if stack == "s2d" or getattr(a, "platform", "auto") == "auto":
        return None
    return (
        f"the platform choice is Storage Spaces Direct's: a {STACK_LABELS[stack]} design carries its own licence "
        f"({option_id})"
    )


def licence_data_ids(option_id: str, a=None) -> tuple[str, ...]:
    """The licensing files' options a priced licence option rests on: an S2D option's
    (:data:`LICENCE_OPTION_DATA`), a Ceph or vSAN option's own with the Windows Server Datacenter guest
    licences when ``a`` counts them (:func:`stack_guests_licensed`)."""
    if option_id in LICENCE_OPTION_DATA:
        return LICENCE_OPTION_DATA[option_id]
    if option_id in stack_licensing_data()["options"] and stack_guests_licensed(a):
        return (option_id, "windows-server-2025-datacenter")
    return (option_id,)


def licence_seen(option_id: str, a=None) -> str:
    """Where the prices of licence option ``option_id`` (an S2D ``licence_option``, or a
    Ceph / vSAN option of ``licensing-stacks.json``) were seen, as a customer reads it
    (:func:`planner.commercial.prices.seen_text` of each option's ``seen_at`` and
    ``seen_date``; "estimated list price" when the file marks the figure ``estimated``); the full
    ``source`` stays in the data for the engineer. A price the cost assumptions ``a``
    (:class:`planner.commercial.pricing.CostAssumptions`) set away from the list is said as set for
    this quote: $500 a core was called Microsoft's list price (pricing review 2026-11-30)."""
    opts = {**stack_licensing_data()["options"], **licensing_data()["options"]}
    out: list[str] = []
    for oid in licence_data_ids(option_id, a):
        if (quoted := _set_for_quote(oid, a)) is not None:
            out.append(quoted)
            continue
        o = opts[oid]
        # upstream Ceph has no fee (its prices are 0): no kind of price to say
        priced = any(v for k, v in o.items() if k.startswith("usd_per"))
        # a list price seen only in others' quotations of the publisher's page is an estimate, said
        # as the hardware's estimates are (the SQL Server line alone said it)
        kind = ("estimated list price" if o.get("estimated") else "list") if priced else None
        t = seen_text(kind, o.get("seen_date"), o.get("seen_at"))
        if t not in out:
            out.append(t)
    return "; ".join(out)


@lru_cache(maxsize=1)
def stack_licensing_data() -> dict:
    """The Ceph and vSAN licensing assumptions (options by id)."""
    doc = json.loads(STACK_LICENSING_FILE.read_text(encoding="utf-8"))
    return {"date_compiled": doc["date_compiled"], "options": {o["id"]: o for o in doc["options"]}}


def vmware_core_licences(cores_per_cpu, sockets):
    """VCF / VVF cores one server bills: every core, at least 16 per CPU (Broadcom KB 313548)."""
    import numpy as np

    return np.maximum(np.asarray(cores_per_cpu), VMWARE_MIN_CORES_PER_CPU) * np.asarray(sockets)


def vsan_capacity_licence(option_id: str, licensed_cores: int, raw_tib: float) -> dict[str, Any]:
    """The vSAN capacity a VMware subscription entitles and what lies beyond it, which needs VMware's vSAN
    capacity add-on (its price was not found: reported, never priced). One rule for the whole cost (and so
    ``cost`` and ``size``) and the bill of materials' licence options.

    Parameters
    ----------
    option_id : str
        ``vmware-vcf`` or ``vmware-vvf`` (``planner/data/licensing-stacks.json``).
    licensed_cores : int
        The cores the subscription bills (:func:`vmware_core_licences`) [cores].
    raw_tib : float
        The raw capacity vSAN claims [TiB].

    Returns
    -------
    dict
        ``raw_tib``, ``entitled_tib`` (``licensed_cores`` x the option's ``vsan_tib_per_core``) and
        ``addon_tib`` (raw beyond the entitlement, 0 within it) [TiB]; ``note``, the sentence every page, the
        bill of materials and the whole cost say of it (:func:`vsan_capacity_words`).

    References
    ----------
    Broadcom KB 313548 (48 licensed cores, 48 entitled TiB, VCF); Redress Compliance (June 2026: 250 GiB a core
    in VVF), as ``licensing-stacks.json`` cites them.
    """
    entitled = licensed_cores * float(stack_licensing_data()["options"][option_id]["vsan_tib_per_core"])
    extra = max(raw_tib - entitled, 0.0)
    return {
        "raw_tib": raw_tib,
        "entitled_tib": entitled,
        "addon_tib": extra,
        "note": vsan_capacity_words(raw_tib, entitled, extra, licensed_cores),
    }


def vsan_capacity_words(raw_tib: float, entitled_tib: float, addon_tib: float, licensed_cores: int) -> str:
    """What a VMware subscription's vSAN entitlement leaves to the add-on, in one sentence (:func:`vsan_capacity_licence`):
    the whole cost's and the licensing options' (the Size page's Licensing options said "VVF $7,730 a month" beside
    VCF's $13,750 with no word of the 307 TiB its 84 TiB left to the add-on; vSAN specialist's walk)."""
    if addon_tib > 0:
        return (
            f"{addon_tib:,.1f} TiB of the {raw_tib:,.1f} TiB raw lie beyond the {entitled_tib:,.1f} TiB vSAN entitlement "
            f"of the {licensed_cores:,} licensed cores and need VMware's vSAN capacity add-on, whose price was not "
            "found: this cost leaves it out and is low by it"
        )
    return (
        f"the {raw_tib:,.1f} TiB raw lie within the {entitled_tib:,.1f} TiB vSAN entitlement of the "
        f"{licensed_cores:,} licensed cores: no vSAN capacity add-on is needed"
    )


def guest_datacenter_licences(vm_hosts: list[tuple[int, int, int]], a) -> dict | None:
    """The Windows Server Datacenter licences of a Ceph or vSAN cluster's Windows guests: every core of the
    servers that run the VMs, ``vm_hosts`` as (cores per CPU, sockets, servers), counted as an S2D Windows
    Server cluster's (:func:`datacenter_core_licences`, :func:`datacenter_usd_per_month`); None when ``a``
    does not count them (``guest_os_licence`` none)."""
    if not stack_guests_licensed(a):
        return None
    cores = sum(datacenter_core_licences(c, s) * int(n) for c, s, n in vm_hosts)
    months = a.amortisation_months
    return {
        "core_licences": cores,
        "usd": cores * a.windows_datacenter_usd_per_core,
        "usd_per_month": float(datacenter_usd_per_month(cores, a)),
        "basis": f"{cores:,} Windows Server Datacenter core licences for the Windows guests (all cores of the "
        f"servers that run the VMs, >= 8 per CPU, >= 16 per server) x ${a.windows_datacenter_usd_per_core:,.2f} "
        f"per core, spread over {count(months, 'month')}",
        # the same Datacenter source an S2D cluster's licences name
        "source": a.licence_source,
        "estimated": option("windows-server-2025-datacenter").get("estimated", {}),
    }


def with_guests_basis(stack: str, basis: str, guests: dict) -> str:
    """A Ceph or vSAN licence's ``basis`` with its Windows guests' (:func:`guest_datacenter_licences`): VMware's
    subscription plus them; upstream Ceph's "no licence fee" is a clause of its own."""
    return f"{basis}{'; ' if stack == 'ceph' else ' + '}{guests['basis']}"


def stack_licence_name(option_id: str, a=None) -> str:
    """A Ceph or vSAN licence option's name, with the Windows guests' Datacenter licences when ``a`` counts
    them (as :data:`OPTION_NAMES` names the Azure Local host fee with them)."""
    name = stack_licensing_data()["options"][option_id]["name"]
    return f"{name} with Windows Server Datacenter guest licences" if stack_guests_licensed(a) else name


def stack_licence_options(
    stack: str,
    cores_per_cpu: int,
    sockets: int,
    nodes: int,
    raw_tib: float,
    a,
    vm_hosts: list[tuple[int, int, int]] | None = None,
) -> list[dict]:
    """:func:`licence_options` for a Ceph or vSAN cluster (``raw_tib``: raw capacity vSAN claims), each with
    the Windows guests' Datacenter licences (:func:`guest_datacenter_licences`) unless ``a.guest_os_licence`` is none.
    ``vm_hosts``: (cores per CPU, sockets, servers) of the servers that run the database VMs; default, the
    ``nodes`` themselves (hyperconverged)."""
    months = a.amortisation_months
    opts = stack_licensing_data()["options"]
    guests = guest_datacenter_licences(vm_hosts if vm_hosts is not None else [(cores_per_cpu, sockets, nodes)], a)
    if stack == "ceph":
        o = opts["ceph-upstream"]
        rows = [
            {
                "option": "ceph-upstream",
                "name": o["name"],
                "cores_billed": 0,
                "usd_per_month": 0.0,
                "basis": "no licence fee",
                "source": o["source"],
                "estimated": o.get("estimated", {}),
                "note": o["notes"],
            }
        ]
    else:
        rows = []
        for oid, price in (("vmware-vcf", a.vcf_usd_per_core_year), ("vmware-vvf", a.vvf_usd_per_core_year)):
            o = opts[oid]
            cores = int(vmware_core_licences(cores_per_cpu, sockets)) * int(nodes)
            vsan = vsan_capacity_licence(oid, cores, raw_tib)
            entitled, extra = vsan["entitled_tib"], vsan["addon_tib"]
            rows.append(
                {
                    "option": oid,
                    "name": o["name"],
                    "cores_billed": cores,
                    "usd_per_month": cores * price / 12.0,
                    "basis": f"{cores} cores (every core, >= 16 per CPU) x ${price:,.2f} per core per year",
                    "vsan_tib_entitled": entitled,
                    "vsan_tib_raw": raw_tib,
                    "vsan_addon_tib": extra,
                    "note": vsan["note"],
                    "source": o["source"],
                    "estimated": o.get("estimated", {}),
                }
            )
    for r in rows:
        r["windows_guests_included"] = guests is not None
        if guests is None:
            r["guests_note"] = NO_GUEST_LICENCE_NOTE
        else:
            # the stack's licence and the guests' Datacenter core licences, each with its basis and source
            r["name"] = stack_licence_name(r["option"], a)
            r["windows_guest_core_licences"] = guests["core_licences"]
            r["usd_per_month"] += guests["usd_per_month"]
            r["basis"] = with_guests_basis(stack, r["basis"], guests)
            r["source"] = f"{r['source']}; {guests['source']}"
            r["estimated"] = {**r["estimated"], **guests["estimated"]}
        r["total_usd"] = r["usd_per_month"] * months
        r["months"] = months
    return rows


def datacenter_core_licences(cores_per_cpu, sockets):
    """Core licences one server needs: all cores, >= 8 per CPU, >= 16 per server (an int; an array of them
    for arrays, the sizer's candidates)."""
    import numpy as np

    lic = np.maximum(
        np.maximum(np.asarray(cores_per_cpu).astype(int), MIN_CORE_LICENCES_PER_CPU) * np.asarray(sockets).astype(int),
        MIN_CORE_LICENCES_PER_SERVER,
    )
    return int(lic) if lic.ndim == 0 else lic


def datacenter_usd_per_month(core_licences, a):
    """Windows Server Datacenter ``core_licences`` [USD/month]: perpetual, so the purchase at
    ``a.windows_datacenter_usd_per_core`` is spread over ``a.amortisation_months`` to compare with a
    subscription. One rule for an S2D Windows Server cluster's cores, Azure Local's Datacenter guest licences
    and a Ceph or vSAN cluster's Windows guests (scalars or arrays)."""
    return core_licences * a.windows_datacenter_usd_per_core / a.amortisation_months


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
    dc_source = a.licence_source
    host = a.azure_local_usd_per_core_month
    guest = a.windows_subscription_usd_per_core_month
    dc_core = a.windows_datacenter_usd_per_core
    rows = [
        {
            "option": "azure-local",
            "name": OPTION_NAMES["azure-local"],
            "cores_billed": cores,
            "usd_per_month": cores * host,
            "windows_guests_included": False,
            "basis": f"{cores} physical cores x ${host:,.2f} per core per month",
            "source": al["source"],
            "estimated": al.get("estimated", {}),
            "guests_note": AZURE_LOCAL_GUESTS_NOTE,
        },
        {
            "option": "azure-local-windows",
            "name": OPTION_NAMES["azure-local-windows"],
            "cores_billed": cores,
            "usd_per_month": cores * (host + guest),
            "windows_guests_included": True,
            "basis": f"{cores} physical cores x (${host:,.2f} + ${guest:,.2f}) per core per month",
            "source": f"{al['source']}; {ws_sub['source']}",
            "estimated": ws_sub.get("estimated", {}),
        },
        {
            "option": "windows-server-datacenter",
            # no host fee: the Windows Server platform, not Azure Local (whose host fee only Azure Hybrid Benefit
            # waives); the name says so beside the Azure Local options (review 2026-11-29). The names are the SLA
            # page's choice's (one table: the Size page's tab named them otherwise; browser review 2026-11-30)
            "name": f"{OPTION_NAMES['windows-server-datacenter']}: Windows Server, not Azure Local",
            "cores_billed": dc_cores,
            "usd_per_month": datacenter_usd_per_month(dc_cores, a),
            "windows_guests_included": True,
            "basis": f"{dc_cores} core licences (all cores, >= 8 per CPU, >= 16 per server) x ${dc_core:,.2f} "
            f"per core, spread over {count(months, 'month')}",
            "source": dc_source,
            "estimated": dc.get("estimated", {}),
        },
        {
            "option": "azure-local-datacenter",
            "name": OPTION_NAMES["azure-local-datacenter"],
            "cores_billed": cores,
            "usd_per_month": cores * host + datacenter_usd_per_month(dc_cores, a),
            "windows_guests_included": True,
            "basis": f"{cores} physical cores x ${host:,.2f} per core per month + {dc_cores} Datacenter core "
            f"licences x ${dc_core:,.2f}, spread over {count(months, 'month')}",
            "source": f"{al['source']}; {dc_source}",
            "estimated": {**al.get("estimated", {}), **dc.get("estimated", {})},
        },
    ]
    for r in rows:
        r["total_usd"] = r["usd_per_month"] * months
        r["months"] = months
    return rows


def licence_usd_per_month_per_node(cores_per_cpu, sockets, a, stack: str = "s2d", hosts_vms: bool = True):
    """The priced licence line for one node, USD/month, under ``a.licence_option``
    (S2D), none (Ceph) or ``a.vsan_licence`` (vSAN) (scalars or numpy arrays). A Ceph or vSAN
    server that runs the database VMs (``hosts_vms``: a hyperconverged node, a disaggregated design's
    client server) adds its Windows guests' Datacenter core licences unless ``a.guest_os_licence`` is
    none: the guests need them whatever the hypervisor, as an S2D Windows Server node's cores do."""
    import numpy as np

    if stack in ("ceph", "vsan"):
        if stack == "ceph":
            fee = np.zeros(np.broadcast(np.asarray(cores_per_cpu), np.asarray(sockets)).shape)
        else:
            price = a.vcf_usd_per_core_year if a.vsan_licence == "vmware-vcf" else a.vvf_usd_per_core_year
            fee = vmware_core_licences(cores_per_cpu, sockets) * price / 12.0
        if hosts_vms and stack_guests_licensed(a):
            return fee + datacenter_usd_per_month(datacenter_core_licences(cores_per_cpu, sockets), a)
        return fee

    cores = np.asarray(cores_per_cpu) * np.asarray(sockets)
    if a.licence_option == "azure-local":
        return cores * a.azure_local_usd_per_core_month
    if a.licence_option == "azure-local-windows":
        return cores * (a.azure_local_usd_per_core_month + a.windows_subscription_usd_per_core_month)
    datacenter = datacenter_usd_per_month(datacenter_core_licences(cores_per_cpu, sockets), a)
    if a.licence_option == "azure-local-datacenter":
        return cores * a.azure_local_usd_per_core_month + datacenter
    return datacenter


def platform_of(a, demand=None, design=None, owned: bool = False) -> str:
    """The operating system a cost licenses, in this order:

    1. the design's own ``platform`` when it names one: a fact about that machine (the
       sizer writes it for an Azure Local demand; a file may say it);
    2. for a system the customer owns (``owned``) that names none: Windows Server, the
       design's default. ``a.platform`` and the demand say what the *new* cluster runs,
       not what runs today;
    3. ``a.platform`` when set (``--platform``, or the cost assumptions);
    4. the demand's ``platform``, else Azure Local when the demand asks for Azure Local
       validated nodes;
    5. Azure Local when the licence option is an Azure Local one, else Windows Server.
    """
    said = getattr(design, "platform", None)
    if said:
        return said
    if owned:
        return "windows-server"
    if a.platform != "auto":
        return a.platform
    if demand is not None:
        if getattr(demand, "platform", None):
            return demand.platform
        if (getattr(demand, "validated_for", None) or "").lower() == "azure local":
            return "azure-local"
    return "azure-local" if a.licence_option.startswith("azure-local") else "windows-server"


def for_platform(a, demand=None, design=None, owned: bool = False):
    """``a`` with the licence option the platform (:func:`platform_of`) needs: on Azure Local a
    Windows Server Datacenter choice becomes the host fee plus Datacenter guest licences (the
    host fee is billed on every physical core whatever the guests); on a Windows Server
    cluster an Azure Local option falls back to Datacenter. Every cost of an S2D cluster
    goes through it (:func:`planner.commercial.pricing.monthly_cost`, the bill of materials,
    the tier prices, :func:`planner.commercial.tco.whole_cost`, the sizer), so one design
    costs the same everywhere; applied twice it gives the same (the licence option carries
    the platform)."""
    platform = platform_of(a, demand, design, owned)
    opt = a.licence_option
    if platform == "azure-local" and opt == "windows-server-datacenter":
        opt = "azure-local-datacenter"
    elif platform == "windows-server" and opt.startswith("azure-local"):
        opt = "windows-server-datacenter"
    return a if opt == a.licence_option else a.model_copy(update={"licence_option": opt})


def licence_choices(a, demand=None, design=None) -> list[str]:
    """The licence options (:data:`OPTION_NAMES`) that are this platform's: each option that
    :func:`for_platform` keeps as chosen. On a platform the design or the demand decides (an Azure Local
    sized design) Windows Server Datacenter alone is not one: it became the host fee with Datacenter guest
    licences while the SLA page's choice still read "Windows Server Datacenter" (browser review
    2026-11-30); with nothing deciding, the option chooses the platform and every one is."""
    return [
        o
        for o in OPTION_NAMES
        if for_platform(a.model_copy(update={"licence_option": o}), demand, design).licence_option == o
    ]


def demand_vms(demand) -> list[tuple[int, int]]:
    """(VM count, vCPUs per VM) of the demand's databases, growth included."""
    return [(c.databases, int(c.vcpus_per_db)) for c in demand.classes() if c.databases > 0]


def sql_virtual_cores(vm_vcpus: list[tuple[int, int]]) -> int:
    """Core licences of the database VMs licensed one by one: every vCPU, at least
    :data:`SQL_MIN_CORES_PER_VM` per VM. ``vm_vcpus``: (VM count, vCPUs per VM) pairs."""
    return sum(int(n) * max(int(v), SQL_MIN_CORES_PER_VM) for n, v in vm_vcpus)


def sql_licensed_cores(virtual: int, physical: Any, a) -> Any:
    """Core licences SQL Server needs: the VMs' ``virtual`` cores, or for Enterprise the hosts'
    ``physical`` cores (at least :data:`SQL_MIN_CORES_PER_CPU` per processor, already counted)
    when fewer, which licenses any number of SQL Server VMs on them. Works on arrays
    (the sizer's candidates) as on numbers."""
    import numpy as np

    physical = np.asarray(physical)
    if a.sql_edition != "enterprise":
        return np.full(physical.shape, virtual)
    return np.where((physical > 0) & (physical < virtual), physical, virtual)


def sql_amortised_usd_per_month(cores: Any, a) -> Any:
    """SQL Server's monthly cost for ``cores`` core licences [USD/month]: pay-as-you-go per core,
    or bring-your-own 2-core packs spread over the amortisation period plus Software Assurance;
    0 when ``a.sql_edition`` is 'none'. Works on arrays as on numbers."""
    import numpy as np

    cores = np.asarray(cores, dtype=float)
    if a.sql_edition == "none":
        return np.zeros(cores.shape)
    if a.sql_licensing == "licence-included":
        ent = a.sql_edition == "enterprise"
        return cores * (a.sql_enterprise_usd_per_core_month if ent else a.sql_standard_usd_per_core_month)
    upfront, assurance = sql_packs_usd(cores, a)
    return upfront / a.amortisation_months + assurance


def sql_packs_usd(cores: Any, a) -> tuple[Any, Any]:
    """Bring-your-own SQL Server for ``cores`` core licences: the 2-core packs' price [USD] and
    their Software Assurance [USD/month]. Works on arrays as on numbers."""
    import numpy as np

    ent = a.sql_edition == "enterprise"
    upfront = np.ceil(np.asarray(cores, dtype=float) / 2) * (
        a.sql_enterprise_usd_per_2_core if ent else a.sql_standard_usd_per_2_core
    )
    return upfront, upfront * a.sql_software_assurance_pct_per_year / 100.0 / 12.0


def sql_server_licences(vm_vcpus: list[tuple[int, int]], physical_cores: list[int], a) -> dict | None:
    """SQL Server licences for database VMs, USD (None when ``a.sql_edition`` is 'none').

    ``vm_vcpus``: (VM count, vCPUs per VM) pairs; ``physical_cores``: cores of each
    processor of the cluster (for Enterprise's all-physical-cores basis). Returns the
    core licences, the basis, ``upfront_usd`` (bring-your-own packs), ``usd_per_month``
    (pay-as-you-go, or Software Assurance), ``amortised_usd_per_month`` (packs spread
    over the amortisation period plus Software Assurance, or pay-as-you-go), the
    price ``source``, ``seen`` (its short form for the customer, :func:`licence_seen`),
    ``estimated`` (the licensing file marks the price an estimate) and a note.
    """
    if a.sql_edition == "none":
        return None
    ent = a.sql_edition == "enterprise"
    virtual = sql_virtual_cores(vm_vcpus)
    physical = sum(max(int(c), SQL_MIN_CORES_PER_CPU) for c in physical_cores)
    cores = int(sql_licensed_cores(virtual, physical, a))
    basis = (
        f"{physical:,} physical cores (>= 4 per processor; unlimited SQL Server VMs)"
        if cores < virtual
        else f"{virtual:,} virtual cores (every vCPU of {sum(n for n, _ in vm_vcpus):,} VMs, >= 4 per VM)"
    )
    oid = f"sql-server-2022-{a.sql_edition}"
    opt = option(oid)
    name = f"SQL Server {'Enterprise' if ent else 'Standard'}"
    # where the price was seen, as the customer reads it, and whether the file marks it estimated
    seen = {"seen": licence_seen(oid, a), "estimated": bool(opt.get("estimated")) and _set_for_quote(oid, a) is None}
    if a.sql_licensing == "licence-included":
        rate = a.sql_enterprise_usd_per_core_month if ent else a.sql_standard_usd_per_core_month
        monthly = float(sql_amortised_usd_per_month(cores, a))
        return {
            "name": f"{name}, licence included (pay as you go)",
            "cores": cores,
            "basis": f"{basis} x ${rate:,.2f} per core per month",
            "upfront_usd": 0.0,
            "usd_per_month": monthly,
            "amortised_usd_per_month": monthly,
            "source": opt["source"],
            **seen,
            "note": "billed monthly through Azure Arc",
        }
    pack = a.sql_enterprise_usd_per_2_core if ent else a.sql_standard_usd_per_2_core
    packs = math.ceil(cores / 2)
    upfront, sa = (float(x) for x in sql_packs_usd(cores, a))
    return {
        "name": f"{name}, bring your own licences",
        "cores": cores,
        "basis": f"{basis}: {packs:,} 2-core packs x ${pack:,.0f}, Software Assurance "
        f"{a.sql_software_assurance_pct_per_year:g} % a year",
        "upfront_usd": upfront,
        "usd_per_month": sa,
        "amortised_usd_per_month": float(sql_amortised_usd_per_month(cores, a)),
        "source": opt["source"],
        **seen,
        "note": "licences by VM need Software Assurance or subscription licences",
    }
