"""The Size page's result rows: a sized design as the CSV keeps it (catalog ids) and as the page's
tables show it (parts by name, headers, units), and the two tables' columns."""

from __future__ import annotations

import functools
import math

from hciplan_ui import fmt
from planner.commercial.tiers import binding_words
from planner.core.text import count, first_upper, times
from planner.models.stacks import cache_devices_words
from planner.sizing.names import design_resiliency_words


@functools.cache
def part_names() -> dict:
    """Catalog id -> 'Vendor model' without the model's bracketed details, per kind."""
    from planner.models.catalog import load_catalog

    cat = load_catalog()
    return {
        kind: {k: v.name for k, v in getattr(cat, kind).items()}
        for kind in ("capacity_drive", "cache_device", "cpu", "nic", "chassis")
    }


def part(kind: str, part_id: str, named: bool) -> str:
    """A part as the table shows it (its name; a user part keeps its id) or as the CSV keeps it (its id)."""
    return part_names()[kind].get(part_id, part_id) if named else part_id


def memory_words(node: dict) -> str:
    """A node's memory as the table shows it: "16 x 64 GB DDR4-3200 (1,024 GB)" (the CSV keeps the
    DIMM's catalog id, which the Size page showed to the customer)."""
    from planner.models.catalog import load_catalog

    dimms = node.get("dimms")
    if not isinstance(dimms, dict):  # RAM given as a total
        return f"{node.get('ram_gb', 0):,.0f} GB"
    dimm = load_catalog().memory_module.get(dimms["model"])
    if dimm is None:  # a DIMM of the user's own: its total stands
        return f"{node['ram_gb']:,.0f} GB" if node.get("ram_gb") else f"{dimms['count']} x {dimms['model']}"
    kind = f" {dimm.memory_type.upper()}-{dimm.speed_mt_s:.0f}" if dimm.memory_type and dimm.speed_mt_s else ""
    # the speed it runs at: a DDR5-5600 DIMM beside a Xeon Gold 6430 runs at 4400 (its CPU's highest at one DIMM
    # per channel; browser review 2026-11-29 read "DDR5-5600" as overstated)
    cpu = load_catalog().cpu.get(str((node.get("cpu") or {}).get("model")))
    sockets = int((node.get("cpu") or {}).get("sockets") or 1)
    per_channel = dimms["count"] / (sockets * cpu.memory_channels) if cpu is not None and cpu.memory_channels else 1.0
    if kind and per_channel > 1 and cpu is not None and cpu.memory_mt_s:
        # two DIMMs per channel run below the CPU's one-per-channel rate ("32 x 96 GB ... at 5200 MT/s" on 2 x 8
        # channels; browser review 2026-11-30); the catalog has no two-per-channel figure, so it is not invented
        # in a reader's words (presales walk 2026-11-30: "2 per channel: below this CPU's 4400 MT/s at one per
        # channel" was hard to follow)
        kind += (
            f", {per_channel:g} DIMMs per memory channel, so slower than the {cpu.memory_mt_s} MT/s this CPU runs "
            "with one"
        )
    elif kind and cpu is not None and cpu.memory_mt_s and cpu.memory_mt_s < dimm.speed_mt_s:
        kind += f" at {cpu.memory_mt_s} MT/s with this CPU"
    return f"{dimms['count']} x {dimm.capacity_gb:g} GB{kind} ({dimms['count'] * dimm.capacity_gb:,.0f} GB)"


def described(d: dict) -> str:
    """A sized design in words, parts by name (its ``name`` keeps the catalog ids for files)."""
    n = d["node"]
    cache = n.get("cache_devices")
    word = cache_devices_words(str(d.get("stack")))
    role = "cache" if word == cache_devices_words("s2d") else word
    parts = [
        f"{d['nodes']} x {part('chassis', n['chassis'], True)}",
        f"{n['cpu']['sockets']} x {part('cpu', n['cpu']['model'], True)}",
        # its RAM: a what-if of RAM alone read as the sized design word for word (verification walk 2026-12-01)
        f"{n['ram_gb']:,.0f} GB RAM",
        f"{n['capacity_drives']['count']} x {part('capacity_drive', n['capacity_drives']['model'], True)}",
        # a Ceph node's are its DB/WAL devices (the stack's one word): "2 x ... Optane ... as cache" named a Ceph
        # design's in the pages' captions (Ceph walk 2026-12-03)
        f"{cache['count']} x {part('cache_device', cache['model'], True)} as {role}" if cache else f"no {role}",
        part("nic", n["nics"]["model"], True),
        design_resiliency_words(d),
    ]
    if d.get("topology") == "disaggregated" and isinstance(d.get("clients"), dict):
        # where its databases run: "5 x Dell PowerEdge R7625 ... 3 replicas" hid the 8 database servers the
        # Compare page counts (browser review 2026-11-30)
        parts.insert(1, f"for storage, with {count(d['clients'].get('servers'), 'database server')}")
    return " · ".join(parts)


def design_words(d: dict) -> str | None:
    """A design as the pages name it to a customer: its parts by name (:func:`described`) when its
    name is only its parts' catalog ids (as the sizer and a what-if name it: "6x hpe-dl380-gen11
    2xintel-xeon-gold-6430 ...") or a bundled example's file name, None when its author named it (the
    name is shown as given)."""
    from planner.models.design import design_parts_name
    from planner.models.examples import example_models

    # a bundled example's name is its file's ("vsan-esa-6node"): its parts too (UI review 2026-11-29: the
    # sidebar said "Design vsan-esa-6node" where the example picker said what it is)
    if not d.get("name") or (d["name"] != design_parts_name(d) and d["name"] not in example_models()):
        return None
    try:
        return described(d)
    except (KeyError, TypeError):  # a part given inline (a dict, not a catalog id): the name stands
        return None


def design_label(d: dict) -> str:
    """A design in one line, as every page heads it: its parts by name (:func:`design_words`), else
    its own name with its node count and resiliency."""
    return design_words(d) or f"{d.get('name') or 'design'} · {d['nodes']} nodes · {design_resiliency_words(d)}"


def release_said(d: dict) -> str:
    """A Ceph design's release after its one-line label (" · Ceph Reef (measured in the calibration data)", markdown
    escaped: :func:`hciplan_ui.fmt.md` trims, and "3 replicas· Ceph Pacific" lost its space in chromium),
    :func:`planner.models.stacks.ceph_release_words`), empty for another stack: no page named the release the
    figures model (pre-sales Ceph walk 2026-12-03)."""
    from planner.models.design import CephSpec
    from planner.models.stacks import ceph_release_words

    if d.get("stack") != "ceph":
        return ""
    return " · " + fmt.md(ceph_release_words(str((d.get("ceph") or {}).get("release") or CephSpec().release)))


def binding_said(result: dict) -> str:
    """What sets a sized design's size, as the Size page's card and table both say it: the smallest cluster the
    rules allow when no resource does (``size_set_by``: planner.sizing.checks.minimum_cluster), else the binding
    limit (:func:`planner.commercial.tiers.binding_words`). The table said "RAM, one node down" beside the card's
    "The minimum cluster for three-way mirror with N+1" (stop 55 left it)."""
    floor = result.get("size_set_by")
    return first_upper(floor) if floor else binding_words(result)


def binding_help(result: dict) -> str:
    """The Binding metric's help: each resource's room to grow in the pages' words, tightest first
    ("storage capacity 1.07x the demand"; the library's keys, ``capacity 1.07x``, read as code), the
    ``binding`` one first: the latency target within 2 % of saturation is said as saturation
    (planner.sizing.checks.LATENCY_TIE), and the help listed the latency first beside "Binding: IOPS".
    ``result``: a sizing result (its ``limit_ratios``, ``binding`` and ``limits_one_node_down``, each
    limit said as :func:`planner.commercial.tiers.binding_words` says it)."""
    binding = result.get("binding")
    room = sorted(
        (k != binding, v, binding_words(result, k))
        for k, v in result["limit_ratios"].items()
        if isinstance(v, (int, float)) and math.isfinite(v)
    )
    return "the resource that runs out first as the demand grows. Room to grow, tightest first: " + ", ".join(
        f"{words} {times(v)} the demand" for _, v, words in room
    )


def result_row(i: int, r: dict, named: bool = False, whole: dict | None = None) -> dict:
    """A result row: catalog ids (the CSV), or the parts' names (``named``, the table); ``whole``: its whole
    cost (:func:`planner.commercial.tco.whole_cost`). Its monthly dollars are those the proposal and the SLA
    page say (:func:`planner.commercial.tco.dollars_said`)."""
    from planner.commercial.tco import dollars_said

    said = dollars_said(r["cost_usd_per_month"], whole)
    d = r["design"]
    n = d["node"]
    sig = r["signature"]
    cache = n.get("cache_devices")
    return {
        # a design that fails a rule (a database VM too small for its rate, on every design) is the closest, not the
        # best: "best" stood beside "vCPUs not met" (browser walk 2026-12-01)
        "#": ("best" if r.get("feasible", True) else "closest") if i == 0 else f"alt {i}",
        "nodes": d["nodes"],
        # the CSV keeps the id a design file takes; the table says it in words ("three-way mirror")
        "resiliency": design_resiliency_words(d) if named else d["resiliency"],
        "drives": f"{n['capacity_drives']['count']} x {part('capacity_drive', n['capacity_drives']['model'], named)}"
        f" ({sig['drives']})",
        "cache": f"{cache['count']} x {part('cache_device', cache['model'], named)}" if cache else "none",
        "node": part("chassis", n["chassis"], named),
        "cpu": f"{n['cpu']['sockets']} x {part('cpu', n['cpu']['model'], named)}",
        "memory": memory_words(n) if named else r["memory"],
        "nic": part("nic", n["nics"]["model"], named),
        "whole_usd_per_month": None if whole is None else round(said["whole"]),
        "usd_per_month": round(said["cluster"]),
        "servers_capex_usd": round(r["servers_capex_usd"]),
        "usable_tb": round(r["usable_capacity_tb"], 1),
        "guaranteed_iops": round(r["guaranteed_iops"]),
        "binding": binding_said(r),
        "differs_from_best": r.get("differs_from_best", ""),
    }


#: the results as two static tables (a data grid's first drawing was 0.4 s of a sizing's 1.5 s in the
#: browser, and its 16 columns hid the cost at 1024-1280 px): what each design gives, cost first, then
#: its parts; every column of a shown row is in one of them (a test checks)
SUMMARY_COLUMNS = (
    "Design",
    "Whole cost, USD/month",
    "Nodes",
    "Usable, TB",
    "IOPS within target, cluster",
    "Binding",
    "Differs from the best",
    "Cluster cost, USD/month",
    "Servers, USD",
)
PARTS_COLUMNS = ("Design", "Node", "CPU", "Memory", "Capacity drives", "Cache", "NIC", "Resiliency")


def shown_row(row: dict) -> dict:
    """A result row as the table shows it: readable headers, units, separators (the CSV keeps the raw row)."""
    money = {"whole_usd_per_month", "usd_per_month", "servers_capex_usd"}
    out = {}
    for k, v in row.items():
        if k in money:
            v = fmt.usd(v)
        elif k == "usable_tb":
            v = fmt.num(v, 1)
        elif k == "guaranteed_iops":
            v = fmt.iops(v)
        out[HEADERS.get(k, fmt.label(k))] = v
    return out


#: a result row's fields (:func:`result_row`) as the tables head them
HEADERS = {
    "#": "Design",  # a static table's header is markdown: "#" alone was drawn as an empty heading
    "nodes": "Nodes",
    "resiliency": "Resiliency",
    "drives": "Capacity drives",
    "cache": "Cache",
    "node": "Node",
    "cpu": "CPU",
    "memory": "Memory",
    "nic": "NIC",
    "whole_usd_per_month": "Whole cost, USD/month",
    "usd_per_month": "Cluster cost, USD/month",
    "servers_capex_usd": "Servers, USD",
    "usable_tb": "Usable, TB",
    "guaranteed_iops": "IOPS within target, cluster",
    "binding": "Binding",
    "differs_from_best": "Differs from the best",
}


def log_basis_line(summary: dict) -> str | None:
    """What the demand's IOPS take for the log's flush latency, in one line, from the sizer's demand summary
    (``database_log_write_latency_ms`` and its note, :func:`planner.sizing.search.demand_summary`), or None for a
    demand with no database rate. `size` printed the assumed 1 ms and that the SLA page's design prediction replaces
    it; the Size page said neither beside its IOPS needed, which then differ from the SLA page's for the same
    database (DBA walk 2026-12-04)."""
    ms = summary.get("database_log_write_latency_ms")
    if ms is None:
        return None
    return fmt.md(
        f"The IOPS needed take its log flushed at {fmt.ms(ms)}: {summary['database_log_write_latency_note']}."
    )
