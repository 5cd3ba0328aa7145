"""Every sizing rule applied to one design, the resource that binds, and the
multi-year view.

:func:`check_design` is the reference the sizer is tested against: every
design :func:`planner.sizing.size` returns passes every rule here, and a brute
force over a small catalog with this function finds the same cheapest design.

Binding resource
----------------
For each resource the demand can grow by a factor before it runs out
(:func:`limits`): ``capacity`` (usable TB, and after a node loss with N+1),
``iops`` (the IOPS the busiest station saturates at), ``latency`` (the largest
load at which every tier still meets its latency target), ``vcpu`` (vCPUs per
node within LPs x oversubscription) and ``ram``. The smallest factor binds.
When the latency targets are met right up to saturation the binding resource
is ``iops``, not ``latency``.
"""
from __future__ import annotations

import math

import numpy as np

from planner import rules as R
from planner.capacity import RESILIENCY_CODES, capacity_report
from planner.compute import ram_needed_gb, s2d_metadata_gb, vcpu_capacity
from planner.degraded import degraded_arrays
from planner.endurance import years_to_wear_out
from planner.demand import Demand, class_latency_ms, demand_workload, latency_ok
from planner.design import MAX_FAULT_DOMAINS, MIN_FAULT_DOMAINS, ResolvedDesign, resolve, with_overrides
from planner.params import default_params
from planner.performance import DesignArrays, evaluate_arrays
from planner.pricing import CostAssumptions, monthly_cost, node_power_w

BINDING = ("capacity", "iops", "latency", "vcpu", "ram")
#: latency binds only when its limit is this far below the saturation limit
LATENCY_TIE = 0.98


def drive_family(drive) -> str:
    media = getattr(drive, "media", "ssd")
    if media == "hdd":
        return f"{drive.interface.upper()} HDD"
    return "NVMe" if drive.interface == "nvme" else f"{drive.interface.upper()} SSD"


def cache_family(cache) -> str:
    if cache is None:
        return "no cache"
    return {"pmem": "PMem", "nvme": "NVMe"}.get(cache.kind, f"{cache.kind.upper()} SSD") + " cache"


def signature(rd: ResolvedDesign) -> dict:
    """What makes two designs genuinely different: nodes, resiliency, drive
    family and cache (not the NIC, not a CPU of the same class)."""
    return {"nodes": rd.design.nodes, "resiliency": rd.design.resiliency, "drives": drive_family(rd.node.drive),
            "cache": cache_family(rd.node.cache)}


def hosts(nodes: int, n_plus_one: bool) -> int:
    """Nodes that carry the VMs: one fewer with N+1 (a failed node's VMs restart on the survivors)."""
    return max(nodes - 1, 1) if n_plus_one and nodes > 1 else nodes


def compute_needs(rd: ResolvedDesign, demand: Demand, multiplier: float | None = None) -> dict:
    """vCPUs and RAM per node the demand needs, and what a node offers."""
    h = hosts(rd.design.nodes, demand.n_plus_one)
    n = rd.node
    cache_tb = n.cache.capacity_gb * n.cache_count / 1000.0 if n.cache is not None else 0.0
    vcpus_need = demand.vcpus(multiplier) / h
    vcpus_have = min(float(vcpu_capacity(n.threads, rd.design.vcpu_oversubscription)), float(R.MAX_VCPUS_PER_HOST))
    ram_fixed = float(ram_needed_gb(0.0, 0.0, rd.design.host_reserve_gb, cache_tb, rd.design.csv_cache_gb))
    ram_need = demand.ram_gb(multiplier) / h + ram_fixed
    return {"hosts": h, "vcpus_per_node_needed": vcpus_need, "vcpus_per_node_available": vcpus_have,
            "ram_gb_per_node_needed": ram_need, "ram_gb_per_node": n.ram_gb, "ram_gb_fixed_per_node": ram_fixed,
            "s2d_metadata_gb": float(s2d_metadata_gb(cache_tb)), "host_reserve_gb": rd.design.host_reserve_gb,
            "csv_cache_gb": rd.design.csv_cache_gb}


def _evaluate(rd: ResolvedDesign, demand: Demand, multiplier=None, params=None):
    p = params or default_params()
    D = DesignArrays.from_designs([rd])
    W = demand_workload(demand, multiplier)
    out = evaluate_arrays(D, W, p)
    deg = None
    if rd.design.nodes > 1:
        Dd, Wd = degraded_arrays(D, W)
        deg = evaluate_arrays(Dd, Wd, p)
    return out, deg, _f(endurance_years(D, W, out))


def endurance_years(D: DesignArrays, W, out: dict):
    """Years until the capacity drives' rated writes are used, every database
    writing at its guaranteed IOPS around the clock (:mod:`planner.endurance`)."""
    write_iops = np.asarray(W.open_iops) * (1.0 - np.asarray(W.read_fraction))
    return years_to_wear_out(write_iops, W.block_size_kib, out["backend_writes_per_write"], out["write_absorption"],
                             D.drives_per_node * D.nodes, D.drive_dwpd, D.drive_capacity_tb, D.drive_warranty_years)


def _f(x) -> float:
    return float(np.ravel(x)[0])


def _recorder(checks: dict):
    """``put(rule, ok, reason)``: record one rule's verdict in ``checks``."""
    def put(rule: str, ok, reason: str):
        checks[rule] = {"passed": bool(np.all(ok)) if isinstance(ok, np.ndarray) else bool(ok), "reason": reason}
    return put


def hardware_rules(rd: ResolvedDesign, allow_network_warning: bool = False) -> dict[str, dict]:
    """The rules of :data:`planner.rules.RULES` that judge the hardware and
    layout alone, with no demand: rule -> ``{"passed", "reason"}``. The Design
    page shows the failed ones as warnings; :func:`check_design` adds the
    demand's rules. ``allow_network_warning``: the demand accepts a network
    below Microsoft's recommendation."""
    d, n = rd.design, rd.node
    code = RESILIENCY_CODES[d.resiliency]
    ch = n.chassis
    checks: dict[str, dict] = {}
    put = _recorder(checks)

    nodes = d.nodes
    put("supported_node_count", R.MIN_NODES <= nodes <= R.MAX_NODES, f"{nodes} nodes (2..16)")
    rec_ok = R.recommended_resiliency(nodes, code)
    put("three_way_mirror_beyond_two_nodes", rec_ok,
        f"{d.resiliency} on {nodes} nodes" + ("" if rec_ok else ": Microsoft recommends three-way mirror "
                                               "beyond two servers and discourages single parity"))

    drive, count = n.drive, n.drive_count
    cache, cc = n.cache, n.cache_count
    has_cache = cache is not None
    put("min_capacity_drives", R.min_capacity_drives_ok(count), f"{count} capacity drives per server (>= 4)")
    put("cache_devices", R.cache_devices_ok(has_cache, cc, cache.capacity_gb if has_cache else 0.0),
        f"{cc} x {cache.capacity_gb:g} GB cache per server (>= 2, >= 32 GB)" if has_cache else "no cache tier")
    put("capacity_multiple_of_cache", R.capacity_multiple_of_cache_ok(has_cache, count, cc),
        f"{count} capacity drives over {cc} cache devices" if has_cache else "no cache tier")
    d_rank = int(R.media_rank_of_drive(drive.interface, getattr(drive, "media", "ssd")))
    c_rank = int(R.media_rank_of_cache(cache.kind)) if has_cache else 0
    put("cache_media", R.cache_media_ok(has_cache, c_rank, cache.endurance_dwpd if has_cache else 0.0, d_rank,
                                        drive.endurance_dwpd),
        f"{cache_family(cache)} over {drive_family(drive)}")
    put("cache_endurance", R.cache_endurance_ok(has_cache, cache.endurance_dwpd if has_cache else 0.0),
        f"cache {cache.endurance_dwpd:g} DWPD (>= 3)" if has_cache else "no cache tier")
    cap_tb_node = count * drive.capacity_tb
    cache_gb_node = cache.capacity_gb * cc if has_cache else 0.0
    put("hybrid_cache_ratio", R.hybrid_cache_ratio_ok(d_rank, cache_gb_node, cap_tb_node),
        f"cache {cache_gb_node / 1000:.2f} TB for {cap_tb_node:.1f} TB of HDD per server (>= 10 %)"
        if d_rank == 1 else "not hybrid")
    put("raw_capacity_per_server", R.raw_capacity_per_server_ok(count, drive.capacity_tb),
        f"{cap_tb_node:,.1f} TB raw per server (<= 400)")

    if ch is not None:
        bays = count + (cc if has_cache and cache.kind != "pmem" else 0)
        bay_ff = R.bay_form_factor(ch.model)
        fits = (bays <= ch.drive_bays and drive.interface in ch.bay_interfaces
                and R.drive_fits_bay(drive.form_factor, bay_ff)
                and (not has_cache or cache.kind == "pmem" or cache.kind in ch.bay_interfaces))
        put("drive_bays", fits, f"{bays} drives in {ch.drive_bays} {'/'.join(ch.bay_interfaces)} bays"
                                f"{' (' + bay_ff + ')' if bay_ff else ''}; {drive.form_factor} {drive.interface} drives")
        full = min(ch.cpu_sockets, n.cpu.max_sockets)
        put("cpu_socket", n.cpu.socket == ch.cpu_socket_type and n.sockets == full,
            f"{n.sockets} x {n.cpu.socket} in {ch.cpu_sockets} x {ch.cpu_socket_type}"
            + ("" if n.sockets == full else f" (populate {full}: the chassis record's bays and slots assume it)"))
        put("pcie_slots", n.nic_count <= ch.pcie_slots, f"{n.nic_count} NIC(s), {ch.pcie_slots} PCIe slots")
        watts = node_power_w(rd)
        put("power_budget", ch.max_power_w is None or watts <= ch.max_power_w,
            f"{watts:,.0f} W typical vs {ch.max_power_w or 'no'} W rating")
    else:
        for rule in ("drive_bays", "cpu_socket", "pcie_slots", "power_budget"):
            put(rule, True, "no chassis named")
    pmem = has_cache and cache.kind == "pmem"
    if pmem:
        slots = ch.pmem_slots * n.sockets // max(ch.cpu_sockets, 1) if ch is not None else cc
        put("pmem_supported", cache.pmem_generation in n.cpu.pmem_generations and cc <= slots,
            f"PMem {cache.pmem_generation} on {n.cpu.id} ({n.cpu.pmem_generations or 'none'}); {cc} of {slots} slots")
    else:
        put("pmem_supported", True, "no PMem")
    if n.dimm is not None:
        mt = {getattr(ch, "memory_type", None), n.cpu.memory_type} - {None}
        usable_slots = (R.usable_dimm_slots(ch.dimm_slots, ch.cpu_sockets, n.sockets, cc if pmem else 0)
                        if ch is not None else n.dimm_count)
        balanced = n.dimm_count in R.dimm_counts(n.cpu.memory_channels, n.sockets, usable_slots)
        max_ram = ch.max_ram_gb * n.sockets / ch.cpu_sockets if ch is not None else math.inf
        ok = (not mt or mt == {n.dimm.memory_type}) and balanced and n.ram_gb <= max_ram + 1e-9
        put("memory_config", ok, f"{n.dimm_count} x {n.dimm.capacity_gb:g} GB {n.dimm.memory_type.upper()} in "
                                 f"{usable_slots} slots, {n.cpu.memory_channels or '?'} channels x {n.sockets} "
                                 f"socket(s){'' if balanced else ' (unbalanced)'}")
    else:
        put("memory_config", True, f"{n.ram_gb:g} GB RAM, no DIMMs named (priced per GB)")
    put("ram_minimum", n.ram_gb >= R.MIN_RAM_GB, f"{n.ram_gb:g} GB RAM per server (>= 32)")
    put("network_minimum", R.network_minimum_ok(n.nic.port_gbit_s), f"{n.nic.ports} x {n.nic.port_gbit_s:g} GbE")
    all_nvme = drive.interface == "nvme" and (not has_cache or cache.kind in ("nvme", "pmem"))
    net_ok = R.network_recommended_ok(nodes, all_nvme, n.nic.rdma != "none", n.nic.port_gbit_s,
                                      allow_network_warning)
    put("network_rdma_25gbe", net_ok, f"{n.nic.id}: {n.nic.port_gbit_s:g} GbE, RDMA {n.nic.rdma}, {nodes} nodes"
                                      f"{', all-NVMe' if all_nvme else ''}"
                                      + (" (overridden by the demand)" if allow_network_warning else ""))
    return checks


def check_design(rd: ResolvedDesign, demand: Demand, a: CostAssumptions | None = None, quick: bool = False,
                 params=None) -> dict:
    """Every rule of :data:`planner.rules.RULES` on one design: the hardware
    rules (:func:`hardware_rules`), then the demand's.

    Returns ``checks`` (rule -> ``{"passed", "reason"}``), ``fails`` (names),
    ``feasible``, the cost, capacity, per-tier latency and compute figures.
    With ``quick``, a design that already failed a rule skips the performance
    model and returns only ``checks``, ``fails`` and ``feasible``. ``params``:
    model parameters (default: the shipped calibration), e.g. a customer refit.
    """
    a = a or CostAssumptions()
    d, n = rd.design, rd.node
    code = RESILIENCY_CODES[d.resiliency]
    ch = n.chassis
    checks = hardware_rules(rd, demand.allow_network_warning)
    put = _recorder(checks)

    nodes = d.nodes
    ft = demand.fault_tolerance
    put("fault_tolerance", R.allowed_by_fault_tolerance(ft, nodes, code),
        f"{d.resiliency} on {nodes} nodes {'survives' if R.allowed_by_fault_tolerance(ft, nodes, code) else 'does not survive'}"
        f" '{ft}'")
    db_ok = R.mirror_for_databases(code, demand.allow_parity)
    put("mirror_for_databases", db_ok, f"{d.resiliency}" + ("" if db_ok else ": parity for databases needs "
                                                             "allow_parity"))
    req = demand.validated_for
    if ch is not None:
        put("validated_node", req is None or req in ch.validated_for,
            f"{ch.id} lists {', '.join(ch.validated_for) or 'no program'}" + (f"; demand asks '{req}'" if req else ""))
    else:
        put("validated_node", req is None, "no chassis named")

    # ---- demand, headroom
    iops, tb, _ = demand.totals()
    cap = capacity_report(rd)
    put("capacity_with_reserve", cap.usable_capacity_tb >= tb,
        f"usable {cap.usable_capacity_tb:,.1f} TB after {cap.reserve_tb:,.1f} TB reserve; demand {tb:,.1f} TB")
    survivors = nodes - 1
    can_repair = survivors >= MIN_FAULT_DOMAINS[d.resiliency] and d.fault_domain == "node"
    if demand.n_plus_one:
        held = min(cap.usable_capacity_tb, cap.usable_after_node_loss_tb)
        put("n_plus_one_capacity", can_repair and held >= tb,
            f"after a node loss {held:,.1f} TB usable on {survivors} nodes; demand {tb:,.1f} TB"
            + ("" if can_repair else f"; {d.resiliency} cannot rebuild on {survivors} nodes"))
    else:
        put("n_plus_one_capacity", True, "N+1 not asked")
    if quick and any(not v["passed"] for v in checks.values()):
        fails = [k for k, v in checks.items() if not v["passed"]]
        return {"checks": checks, "fails": fails, "feasible": False}
    out, deg, endu = _evaluate(rd, demand, params=params)
    per_tier = {c.name: _f(class_latency_ms(out, c)) for c in demand.classes(1.0)}
    lat_ok = bool(np.ravel(latency_ok(out, demand))[0])
    put("iops_at_latency", lat_ok, f"{iops:,.0f} IOPS: " + ", ".join(
        f"{c.name} {c.latency_statistic} {per_tier[c.name]:.3f} ms (target {c.latency_target_ms:g})"
        for c in demand.classes(1.0)) + (" — saturated" if bool(np.ravel(out['saturated'])[0]) else ""))
    if demand.n_plus_one and deg is not None:
        deg_tier = {c.name: _f(class_latency_ms(deg, c)) for c in demand.classes(1.0)}
        put("n_plus_one_performance", bool(np.ravel(latency_ok(deg, demand))[0]),
            "one node down: " + ", ".join(f"{c.name} {deg_tier[c.name]:.3f} ms (target {c.latency_target_ms:g})"
                                          for c in demand.classes(1.0))
            + (" — saturated" if bool(np.ravel(deg['saturated'])[0]) else ""))
    else:
        deg_tier = None
        put("n_plus_one_performance", not demand.n_plus_one, "N+1 not asked" if not demand.n_plus_one
            else "a single node cannot lose one")
    put("drive_endurance", endu >= a.amortisation_months / 12.0,
        f"{endu:,.1f} years of rated writes ({n.drive.endurance_dwpd:g} DWPD) vs {a.amortisation_months} months"
        if math.isfinite(endu) else "no writes")
    cn = compute_needs(rd, demand)
    put("vcpus", cn["vcpus_per_node_needed"] <= cn["vcpus_per_node_available"] + 1e-9,
        f"{cn['vcpus_per_node_needed']:,.1f} vCPUs per node on {cn['hosts']} hosts vs {cn['vcpus_per_node_available']:,.0f}"
        f" ({n.threads} LPs x {d.vcpu_oversubscription:g})")
    put("ram", cn["ram_gb_per_node_needed"] <= n.ram_gb + 1e-9,
        f"{cn['ram_gb_per_node_needed']:,.0f} GB per node needed (VMs on {cn['hosts']} hosts + {cn['host_reserve_gb']:g}"
        f" reserve + {cn['s2d_metadata_gb']:.1f} S2D metadata + {cn['csv_cache_gb']:g} CSV cache) vs {n.ram_gb:,.0f} GB")
    put("growth", True, f"sized for +{demand.growth_pct:g} % growth over the amortisation period"
        if demand.growth_pct else "no growth asked")
    cost = monthly_cost(rd, a)
    total = cost["per_cluster"]["total_usd_per_month"]
    put("budget", demand.budget_usd_per_month is None or total <= demand.budget_usd_per_month + 1e-9,
        f"${total:,.0f}/month" + (f" vs budget ${demand.budget_usd_per_month:,.0f}" if demand.budget_usd_per_month
                                  else " (no budget)"))
    fails = [k for k, v in checks.items() if not v["passed"]]
    return {
        "checks": checks, "fails": fails, "feasible": not fails, "cost_usd_per_month": total,
        "capex_usd": cost["capex_usd"], "usable_capacity_tb": cap.usable_capacity_tb,
        "usable_after_node_loss_tb": cap.usable_after_node_loss_tb, "vm_latency_ms": _f(out["vm_latency_ms"]),
        "tier_latency_ms": per_tier, "tier_latency_ms_one_node_down": deg_tier,
        "iops_capacity": _f(out["iops_capacity"]), "headroom": _f(out["iops_capacity"]) / iops - 1.0,
        "bottleneck": str(np.ravel(out["bottleneck"])[0]), "compute": cn, "endurance_years": endu,
    }


# ------------------------------------------------------------ headroom
def limits(rds: list[ResolvedDesign], demand: Demand, params=None) -> list[dict]:
    """For each design, the factor the (grown) demand can be multiplied by
    before each resource runs out, the binding resource, and the guaranteed
    IOPS (the demand-shaped load at which every tier meets its latency target,
    N+1 when asked). One vectorised model call per pass for all designs."""
    if not rds:
        return []
    p = params or default_params()
    iops, tb, _ = demand.totals()
    g = demand.growth
    D = DesignArrays.from_designs(rds)
    K = len(rds)
    W1 = demand_workload(demand, g, shape=(K,))
    healthy = evaluate_arrays(D, W1, p)
    cap_h = np.ravel(healthy["iops_capacity"]) / iops
    multi = np.array([rd.design.nodes > 1 for rd in rds])
    use_deg = demand.n_plus_one & multi
    Dd, Wd = degraded_arrays(D, W1)
    cap_d = np.ravel(evaluate_arrays(Dd, Wd, p)["iops_capacity"]) / iops
    m_sat = np.where(use_deg, np.minimum(cap_h, cap_d), cap_h)

    def ok_at(m):  # m: (K, G) multipliers of the grown demand
        G = m.shape[1]
        Dk = D.take(np.repeat(np.arange(K), G))
        W = demand_workload(demand, (g * m).ravel())
        good = np.ravel(latency_ok(evaluate_arrays(Dk, W, p), demand))
        Dkd, Wkd = degraded_arrays(Dk, W)
        good_d = np.ravel(latency_ok(evaluate_arrays(Dkd, Wkd, p), demand))
        return (good & (good_d | ~np.repeat(use_deg, G))).reshape(K, G)

    lo, hi = np.zeros(K), m_sat * 0.999
    for _ in range(3):  # three passes of 24 points: the bracket narrows 24x per pass
        grid = lo[:, None] + (hi - lo)[:, None] * np.linspace(1 / 24, 1.0, 24)[None, :]
        good = ok_at(grid)
        # largest grid point whose prefix is all good (latency rises with load)
        first_bad = np.where(good.all(1), 24, np.argmin(good, axis=1))
        new_lo = np.where(first_bad > 0, grid[np.arange(K), np.maximum(first_bad - 1, 0)], lo)
        step = (hi - lo) / 24
        hi = np.where(first_bad >= 24, hi, new_lo + step)
        lo = new_lo
    m_lat = lo
    out = []
    for i, rd in enumerate(rds):
        cap = capacity_report(rd)
        cap_m = cap.usable_capacity_tb / tb
        if demand.n_plus_one and rd.design.nodes > 1:
            cap_m = min(cap_m, cap.usable_after_node_loss_tb / tb)
        cn = compute_needs(rd, demand)
        vcpu_m = cn["vcpus_per_node_available"] / cn["vcpus_per_node_needed"] if cn["vcpus_per_node_needed"] else math.inf
        db_ram = cn["ram_gb_per_node_needed"] - cn["ram_gb_fixed_per_node"]
        ram_m = (rd.node.ram_gb - cn["ram_gb_fixed_per_node"]) / db_ram if db_ram > 0 else math.inf
        lim = {"capacity": cap_m, "iops": float(m_sat[i]), "latency": float(m_lat[i]), "vcpu": vcpu_m, "ram": ram_m}
        order = sorted(lim, key=lim.get)
        binding = order[0]
        if binding == "latency" and lim["latency"] >= LATENCY_TIE * lim["iops"]:
            binding = "iops"
        out.append({"limits": {k: (v if math.isfinite(v) else None) for k, v in lim.items()}, "binding": binding,
                    "guaranteed_iops": float(m_lat[i]) * iops})
    return out


# ----------------------------------------------------------- multi-year
def growth_per_year(demand: Demand, amortisation_months: int) -> float:
    """Yearly growth rate equivalent to growth_pct over the amortisation period."""
    return demand.growth ** (12.0 / amortisation_months) - 1.0


def multi_year(rd: ResolvedDesign, demand: Demand, a: CostAssumptions | None = None, years: int | None = None,
               catalog=None, params=None) -> dict:
    """Demand per year (compound growth equivalent to the demand's growth over
    the amortisation period) and the nodes of this design's configuration each
    year needs; ``first_year_needing_more_nodes`` is when the cluster needs
    another node (None within the horizon)."""
    a = a or CostAssumptions()
    gy = growth_per_year(demand, a.amortisation_months)
    horizon = years if years is not None else max(int(math.ceil(a.amortisation_months / 12)) + 2, 5)
    base_nodes = rd.design.nodes
    rows = []
    candidates = []
    for n2 in range(base_nodes, R.MAX_NODES + 1):
        res = rd.design.resiliency
        if n2 > MAX_FAULT_DOMAINS.get(res, 99) or n2 < MIN_FAULT_DOMAINS[res]:
            res = "mirror-3way"  # a nested two-node cluster grows into three-way mirror volumes
        try:
            candidates.append((n2, resolve(with_overrides(rd.design, nodes=n2, resiliency=res), catalog)))
        except Exception:  # noqa: BLE001 - a node count the design cannot take is simply skipped
            continue
    # one model call: every candidate node count x every year, healthy and degraded
    mults = np.array([(1.0 + gy) ** y for y in range(horizon + 1)])
    D = DesignArrays.from_designs([c[1] for c in candidates])
    K, Y = len(candidates), len(mults)
    Dk = D.take(np.repeat(np.arange(K), Y))
    W = demand_workload(demand, np.tile(mults, K))
    p = params or default_params()
    good = np.ravel(latency_ok(evaluate_arrays(Dk, W, p), demand))
    if demand.n_plus_one:
        Dkd, Wkd = degraded_arrays(Dk, W)
        good &= np.ravel(latency_ok(evaluate_arrays(Dkd, Wkd, p), demand)) | (np.repeat([c[1].design.nodes for c in candidates], Y) < 2)
    good = good.reshape(K, Y)
    first_more = None
    for y, m in enumerate(mults):
        iops, tb, _ = demand.totals(m)
        need = None
        for k, (n2, c) in enumerate(candidates):
            cap = capacity_report(c)
            held = min(cap.usable_capacity_tb, cap.usable_after_node_loss_tb) if demand.n_plus_one else cap.usable_capacity_tb
            can_repair = not demand.n_plus_one or n2 - 1 >= MIN_FAULT_DOMAINS[c.design.resiliency]
            cn = compute_needs(c, demand, m)
            if (good[k, y] and held >= tb and can_repair and cn["vcpus_per_node_needed"] <= cn["vcpus_per_node_available"]
                    and cn["ram_gb_per_node_needed"] <= c.node.ram_gb):
                need = n2
                break
        if need != base_nodes and first_more is None:
            first_more = y
        rows.append({"year": y, "multiplier": float(m), "iops": iops, "capacity_tb": tb, "vcpus": demand.vcpus(m),
                     "ram_gb": demand.ram_gb(m), "nodes_needed": need, "fits_current": need == base_nodes})
    return {"growth_pct_per_year": 100.0 * gy, "years": rows, "first_year_needing_more_nodes": first_more,
            "nodes": base_nodes,
            "note": ("year 0 is today's demand without growth; each year multiplies it by "
                     f"{1 + gy:.3f} (the demand's +{demand.growth_pct:g} % over {a.amortisation_months} months); "
                     "nodes_needed keeps this node configuration (None: more than 16 nodes)")}
