"""What-if scenarios: one input at a time, for the sensitivity (tornado) view.

Each variant changes one input of the design (nodes, drives, CPU cap, NICs,
oversubscription, transport, cache devices) down and up; the result is the
change of IOPS, VM latency and the whole monthly cost against the base design.
Invalid variants (e.g. 2 nodes with a 3-way mirror) are reported as None.
"""

from __future__ import annotations

import copy

from planner.core.errors import PlannerError
from planner.models.catalog import Catalog, load_catalog
from planner.models.design import Design, parse_design, resolve
from planner.models.stacks import cache_devices_words
from planner.models.workload import Workload


def _alt(d: dict, path: tuple, value) -> dict:
    nd = copy.deepcopy(d)
    obj = nd
    for key in path[:-1]:
        obj = obj[key]
    obj[path[-1]] = value
    return nd


def one_at_a_time_variants(design: Design) -> list[tuple[str, dict, dict]]:
    """(label, low variant, high variant) design dicts. A setting past an input's limits (a CPU cap of 1.1, no
    NIC) is left as it is, so it is not a valid design and has no figures (:func:`sensitivity`): clamped to the
    limit it was the design itself, and a CPU cap of 1.0 read "+0.1: no change" (stop 60 Ceph walk)."""
    d = design.model_dump(mode="json")
    n = d["node"]
    drives, nics = n["capacity_drives"]["count"], n["nics"]["count"]
    out = [
        ("nodes ±1", _alt(d, ("nodes",), d["nodes"] - 1), _alt(d, ("nodes",), d["nodes"] + 1)),
        (
            "drives per node ±2",
            _alt(d, ("node", "capacity_drives", "count"), drives - 2),
            _alt(d, ("node", "capacity_drives", "count"), drives + 2),
        ),
        (
            "CPU cap ±0.1",
            _alt(d, ("cpu_utilization_cap",), round(d["cpu_utilization_cap"] - 0.1, 3)),
            _alt(d, ("cpu_utilization_cap",), round(d["cpu_utilization_cap"] + 0.1, 3)),
        ),
        (
            "NICs per node ±1",
            _alt(d, ("node", "nics", "count"), nics - 1),
            _alt(d, ("node", "nics", "count"), nics + 1),
        ),
        (
            "vCPU oversubscription ×½/×2",
            _alt(d, ("vcpu_oversubscription",), d["vcpu_oversubscription"] / 2),
            _alt(d, ("vcpu_oversubscription",), d["vcpu_oversubscription"] * 2),
        ),
    ]
    # Ceph's messenger is TCP only (a Ceph design with RDMA is refused): not an input to move
    if d.get("stack") != "ceph":
        out.append(("transport: TCP / RDMA", _alt(d, ("transport",), "tcp"), _alt(d, ("transport",), "rdma")))
    if n.get("cache_devices"):
        c = n["cache_devices"]["count"]
        out.append(
            (
                # a Ceph node's are its DB/WAL devices (the stack's one word; Ceph walk 2026-12-03)
                f"{cache_devices_words(str(d.get('stack')))} ±1",
                _alt(d, ("node", "cache_devices", "count"), c - 1),
                _alt(d, ("node", "cache_devices", "count"), c + 1),
            )
        )
    return out


def _figures(design: Design, workload: Workload, catalog: Catalog, params=None, assumptions=None, demand=None) -> dict:
    from planner.commercial.tco import whole_cost
    from planner.results.report import performance

    rd = resolve(design, catalog)
    perf = performance(rd, workload, params, band=False)
    try:
        # the whole cost, as every page shows it: its platform's licences (the design's, else the
        # demand's), the network, SQL Server when counted
        cost = whole_cost(design, demand, assumptions, catalog)["monthly"]["total_usd_per_month"]
    except PlannerError:  # a part without a price: the cost bar is left out
        cost = None
    # the IOPS capacity (saturation) too: under an open load (a fixed rate, as a sized demand) every
    # variant delivers the same IOPS, and what an input moves is how far the design could go
    return {
        "iops": perf["iops"],
        "iops_capacity": perf.get("iops_capacity"),
        "vm_latency_ms": perf["vm_latency_ms"],
        # the whole cost, by the key `size` gives it (its cost_usd_per_month is the cluster alone)
        "whole_usd_per_month": cost,
    }


def sensitivity(
    design: Design,
    workload: Workload,
    catalog: Catalog | None = None,
    params=None,
    assumptions=None,
    demand=None,
) -> list[dict]:
    """Rows: input, base_*, low_*, high_* for iops, iops_capacity, vm_latency_ms,
    whole_usd_per_month (the whole cost, :func:`planner.commercial.tco.whole_cost`)
    (``params``: model parameters, default the shipped calibration; ``assumptions``: the
    :class:`planner.commercial.pricing.CostAssumptions` the cost is priced with, e.g. the
    customer's quotes; ``demand``: the platform and the database VMs the cost follows)."""
    catalog = catalog or load_catalog()
    base = _figures(design, workload, catalog, params, assumptions, demand)
    rows = []
    for label, lo, hi in one_at_a_time_variants(design):
        row = {"input": label} | {f"base_{k}": v for k, v in base.items()}
        for side, data in (("low", lo), ("high", hi)):
            try:
                figs = _figures(parse_design(data), workload, catalog, params, assumptions, demand)
            except PlannerError:
                figs = dict.fromkeys(base)
            row.update({f"{side}_{k}": v for k, v in figs.items()})
        rows.append(row)
    return rows
