"""Sizing: the cheapest design that meets a demand (capacity, IOPS at a latency
target, N+1, budget), with alternatives and a cost-vs-headroom Pareto front.

Method: enumerate catalog parts (CPU paired with chassis by socket, drives by
bay interface, counts up to the bays, cache none/each device x 2, NIC, nodes,
resiliency allowed by node count) as numpy arrays; screen all candidates with
vectorised capacity (capacity.usable_capacity_tb) and IOPS-at-latency
(performance.evaluate_arrays, open load = demand); then fully evaluate the
survivors in cost order (resolve + report.performance). Monthly cost follows
planner.pricing (same formulas, vectorised).
"""
from __future__ import annotations

from typing import Annotated

import time

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from planner import network
from planner.capacity import RESILIENCY_CODES, usable_capacity_tb
from planner.catalog import Catalog, load_catalog
from planner.design import MIN_FAULT_DOMAINS, Design, resolve
from planner.errors import PlannerError
from planner.params import default_params
from planner.performance import DesignArrays, WorkloadArrays, evaluate_arrays
from planner.pricing import CostAssumptions, licence_cores, monthly_cost, node_monthly_usd, part_price_usd
from planner.workload import MAX_IOPS, Workload

RAM_GB = 384.0
SCREEN_CHUNK = 20_000
SEARCH_RESILIENCY = ("mirror-2way", "mirror-3way", "parity-dual", "mirror-accelerated-parity")


class SizingError(PlannerError):
    pass


class Demand(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = "demand"
    tier_counts: dict[str, Annotated[int, Field(ge=0, le=100_000)]] | None = None
    total_iops: float | None = Field(default=None, gt=0, le=1e9)
    capacity_tb: float | None = Field(default=None, gt=0, le=1e5)
    latency_target_ms: float = Field(default=1.0, ge=0.02, le=10_000)
    block_size_kib: float = Field(default=8.0, ge=0.5, le=4096)
    read_fraction: float = Field(default=0.7, ge=0, le=1)
    growth_pct: float = Field(default=0.0, ge=0, le=1000, description="growth over the amortisation period, %")
    n_plus_one: bool = True
    budget_usd_per_month: float | None = Field(default=None, gt=0)
    min_nodes: int = Field(default=2, ge=2, le=16)
    max_nodes: int = Field(default=16, ge=2, le=16)

    @field_validator("tier_counts")
    @classmethod
    def _some_database(cls, v):
        # every count 0 is an empty demand: sizing it built a 0-IOPS workload and failed
        if v is not None and not any(v.values()):
            raise ValueError("every count is 0: nothing to size; give at least one database")
        return v

    @model_validator(mode="after")
    def _either(self) -> "Demand":
        if self.tier_counts is None and (self.total_iops is None or self.capacity_tb is None):
            raise ValueError("give tier_counts or both total_iops and capacity_tb")
        if self.min_nodes > self.max_nodes:
            raise ValueError("min_nodes must be <= max_nodes")
        return self

    def vcpus(self) -> float:
        """vCPUs the demanded databases need (tier demands only), including growth."""
        if self.tier_counts is None:
            return 0.0
        from planner.tiers import default_tiers

        tiers = default_tiers().by_name()
        need = sum(c * tiers[k].vcpus_per_db for k, c in self.tier_counts.items() if k in tiers)
        return need * (1.0 + self.growth_pct / 100.0)

    def totals(self) -> tuple[float, float, float]:
        """(IOPS, TB, latency target ms) including growth."""
        g = 1.0 + self.growth_pct / 100.0
        if self.tier_counts is not None:
            from planner.tiers import default_tiers
            tiers = default_tiers().by_name()
            for k in self.tier_counts:
                if k not in tiers:
                    raise SizingError(f"unknown tier '{k}'; tiers: {', '.join(tiers)}", f"tier_counts.{k}")
            iops = sum(c * tiers[k].guaranteed_iops for k, c in self.tier_counts.items())
            tb = sum(c * tiers[k].capacity_tb_per_db for k, c in self.tier_counts.items())
            lat = min([tiers[k].latency_target_ms for k, c in self.tier_counts.items() if c > 0] or [self.latency_target_ms])
            return iops * g, tb * g, lat
        return self.total_iops * g, self.capacity_tb * g, self.latency_target_ms


class SizingResult(BaseModel):
    best: dict | None
    alternatives: list[dict]
    pareto: list[dict]
    screened: int          # candidates in the search space (after fault-domain rules)
    iops_screened: int = 0  # of those, run through the vectorised IOPS-at-latency screen
    evaluated: int          # fully evaluated (resolved and checked)
    seconds: float
    explanation: str = ""


def _candidates(cat: Catalog, d: Demand):
    """Rows of part choices (python objects) and the numpy arrays for them."""
    rows = []
    caches = [None] + list(cat.cache_device.values())
    for ch in cat.chassis.values():
        for cpu in (c for c in cat.cpu.values() if c.socket == ch.cpu_socket_type):
            sockets = min(ch.cpu_sockets, cpu.max_sockets)
            for dr in (x for x in cat.capacity_drive.values() if x.interface in ch.bay_interfaces):
                for cache in caches:
                    cc = 0 if cache is None else 2
                    if cache is not None and cache.kind == "pmem":
                        if cache.pmem_generation not in cpu.pmem_generations or ch.pmem_slots * sockets // ch.cpu_sockets < cc:
                            continue
                        bays = ch.drive_bays
                    else:
                        bays = ch.drive_bays - cc
                    for count in range(2, bays + 1, 2):
                        for nic in cat.nic.values():
                            rows.append((ch, cpu, sockets, dr, count, cache, cc, nic))
    return rows


def _design(row, nodes, res) -> Design:
    ch, cpu, sockets, dr, count, cache, cc, nic = row
    node = {"chassis": ch.id, "cpu": {"model": cpu.id, "sockets": sockets}, "ram_gb": RAM_GB,
            "capacity_drives": {"model": dr.id, "count": count}, "nics": {"model": nic.id, "count": 1}}
    if cache is not None:
        node["cache_devices"] = {"model": cache.id, "count": cc}
    return Design.model_validate({"name": f"{nodes}x {ch.id} {cpu.id} {dr.id}x{count} {cache.id + 'x' + str(cc) if cache else 'no-cache'} {nic.id} {res}", "nodes": nodes, "node": node,
                                  "resiliency": res, "transport": "rdma" if nic.rdma != "none" else "tcp"})


def _workload(iops: float, d: Demand) -> Workload:
    return Workload(name="demand", block_size_kib=d.block_size_kib, read_fraction=d.read_fraction, iops=iops)


def check(rd, d: Demand, a: CostAssumptions | None = None) -> dict:
    """Full evaluation of one resolved design: feasibility and the blocking constraint."""
    from planner.capacity import capacity_report
    from planner.report import performance

    iops, tb, lat = d.totals()
    cap = capacity_report(rd)
    cost = monthly_cost(rd, a)["per_cluster"]["total_usd_per_month"]
    fails = []
    if cap.usable_capacity_tb < tb:
        fails.append("capacity")
    perf = performance(rd, _workload(iops, d), band=False)
    if perf["saturated"] or perf["vm_latency_ms"] > lat:
        fails.append("iops_at_latency")
    if d.n_plus_one:
        ok_n1 = rd.design.nodes - 1 >= MIN_FAULT_DOMAINS[rd.design.resiliency] and cap.usable_after_node_loss_tb >= tb
        deg = performance(rd, _workload(iops, d), band=False, degraded=True)
        if not ok_n1 or deg["saturated"] or deg["vm_latency_ms"] > lat:
            fails.append("n_plus_one")
    if d.budget_usd_per_month is not None and cost > d.budget_usd_per_month:
        fails.append("budget")
    # vCPUs the databases need against what the nodes may host under the
    # oversubscription ratio (with N+1, on one node fewer)
    hosts = rd.design.nodes - (1 if d.n_plus_one else 0)
    if d.vcpus() > rd.node.threads * hosts * rd.design.vcpu_oversubscription:
        fails.append("vcpus")
    return {"design": rd.design.model_dump(mode="json"), "cost_usd_per_month": cost,
            "usable_capacity_tb": cap.usable_capacity_tb, "vm_latency_ms": perf["vm_latency_ms"],
            "iops_capacity": perf["iops_capacity"], "headroom": perf["iops_capacity"] / iops - 1.0,
            "feasible": not fails, "fails": fails}


def size(demand: Demand, catalog: Catalog | None = None, top: int = 5,
         assumptions: CostAssumptions | None = None, max_full: int = 400) -> SizingResult:
    t0 = time.perf_counter()
    cat = catalog or load_catalog()
    a = assumptions or CostAssumptions()
    iops, tb, lat = demand.totals()
    if iops > MAX_IOPS:  # growth can take a valid demand past what a workload may ask
        raise SizingError(f"the demand is {iops:,.0f} IOPS with growth; at most {MAX_IOPS:,.0f}",
                          "tier_counts" if demand.tier_counts is not None else "total_iops")
    rows = _candidates(cat, demand)
    if not rows:
        raise SizingError("no chassis/CPU/drive combination in the catalog fits together", "catalog")
    P = lambda f: np.array([f(r) for r in rows], dtype=float)  # noqa: E731 per-row part arrays
    price = lambda rec: part_price_usd(rec, a)  # noqa: E731
    node_capex = (P(lambda r: price(r[1]) * r[2] + price(r[3]) * r[4] + price(r[7]) + price(r[0])
                    + (price(r[5]) * r[6] if r[5] else 0)) + RAM_GB * a.ram_usd_per_gb)
    power = P(lambda r: (r[1].power_w or r[1].tdp_w) * r[2] + (r[3].power_w or 0) * r[4] + (r[7].power_w or 0)
              + (r[0].power_w or 0) + ((r[5].power_w or 0) * r[6] if r[5] else 0))
    lic = P(lambda r: licence_cores(r[1].cores, r[2]))
    ru = P(lambda r: r[0].rack_units)
    node_month = sum(node_monthly_usd(node_capex, power, ru, lic, a).values())
    nodes = np.arange(demand.min_nodes, demand.max_nodes + 1)
    codes = np.array([RESILIENCY_CODES[r] for r in SEARCH_RESILIENCY])
    mins = np.array([MIN_FAULT_DOMAINS[r] for r in SEARCH_RESILIENCY])
    ri, ni, si = np.meshgrid(np.arange(len(rows)), np.arange(len(nodes)), np.arange(len(codes)), indexing="ij")
    ri, ni, si = ri.ravel(), ni.ravel(), si.ravel()
    n = nodes[ni]
    ok = n >= mins[si] + (1 if demand.n_plus_one else 0)
    ri, n, si = ri[ok], n[ok], si[ok]
    screened = int(ri.size)
    cost = node_month[ri] * n
    dpn = P(lambda r: r[4])[ri]
    dtb = P(lambda r: r[3].capacity_tb)[ri]
    usable = usable_capacity_tb(n, dpn, dtb, codes[si])
    # after a node loss the repair reserve is what the repair consumes: the same
    # rule as capacity.capacity_report's usable_after_node_loss_tb
    usable_n1 = (usable_capacity_tb(n - 1, dpn, dtb, codes[si], reserve_policy="none")
                 if demand.n_plus_one else usable)
    lps = P(lambda r: r[1].threads * r[2])[ri]
    vcpu_ok = lps * (n - (1 if demand.n_plus_one else 0)) * Design.model_fields["vcpu_oversubscription"].default \
        >= demand.vcpus()
    keep = (usable >= tb) & (usable_n1 >= tb) & vcpu_ok
    if demand.budget_usd_per_month is not None:
        keep &= cost <= demand.budget_usd_per_month
    blocked = {"capacity": int(((usable < tb) | (usable_n1 < tb)).sum()), "vcpus": int((~vcpu_ok).sum())}
    idx = np.flatnonzero(keep)
    # per-row part figures, built once; candidates index them
    part = {
        "drive_read_iops": P(lambda r: r[3].rand_read_4k_iops), "drive_write_iops": P(lambda r: r[3].rand_write_4k_iops),
        "drive_read_mb_s": P(lambda r: r[3].seq_read_mb_s), "drive_write_mb_s": P(lambda r: r[3].seq_write_mb_s),
        "drive_read_latency_us": P(lambda r: r[3].read_latency_us),
        "drive_write_latency_us": P(lambda r: r[3].write_latency_us),
        "drive_dwpd": P(lambda r: r[3].endurance_dwpd), "drive_warranty_years": P(lambda r: r[3].warranty_years),
        "cache_per_node": P(lambda r: r[6]), "cache_gb": P(lambda r: r[5].capacity_gb if r[5] else 0.0),
        "cache_read_iops": P(lambda r: r[5].rand_read_4k_iops if r[5] else 1.0),
        "cache_write_iops": P(lambda r: r[5].rand_write_4k_iops if r[5] else 1.0),
        "cache_read_mb_s": P(lambda r: r[5].seq_read_mb_s if r[5] else 1.0),
        "cache_write_mb_s": P(lambda r: r[5].seq_write_mb_s if r[5] else 1.0),
        "cache_read_latency_us": P(lambda r: r[5].read_latency_us if r[5] else 0.0),
        "cache_write_latency_us": P(lambda r: r[5].write_latency_us if r[5] else 0.0),
        "lps_per_node": P(lambda r: r[1].threads * r[2]), "cores_per_node": P(lambda r: r[1].cores * r[2]),
        "base_ghz": P(lambda r: r[1].base_ghz),
        "node_bandwidth_bytes_s": P(lambda r: float(network.node_bandwidth_bytes_s(r[7].port_gbit_s, r[7].ports, 1))),
        "tcp": P(lambda r: r[7].rdma == "none").astype(bool),
    }

    def perf_ok(cand):
        """Vectorised IOPS-at-latency screen (and with one node down for N+1)."""
        nn = n[cand]
        D = DesignArrays(
            nodes=nn, fault_domains=nn, drives_per_node=dpn[cand], drive_capacity_tb=dtb[cand],
            resiliency_code=codes[si[cand]], mirror_share=np.full(cand.size, 0.2),
            cpu_utilization_cap=np.ones(cand.size), vcpu_oversubscription=np.full(cand.size, 4.0),
            read_caching=np.zeros(cand.size, dtype=bool), write_caching=np.ones(cand.size, dtype=bool),
            volume_servers=nn, **{k: v[ri[cand]] for k, v in part.items()})
        W = WorkloadArrays.from_workload(_workload(iops, demand), nn)
        W = WorkloadArrays(**{**W.__dict__, "open_iops": np.full(cand.size, iops), "vms_total": np.zeros(cand.size)})
        out = evaluate_arrays(D, W, default_params())
        ok = (~np.ravel(out["saturated"]).astype(bool)) & (np.ravel(out["vm_latency_ms"]) <= lat)
        if demand.n_plus_one:
            from planner.degraded import degraded_arrays

            od = evaluate_arrays(*degraded_arrays(D, W), default_params())
            ok &= (~np.ravel(od["saturated"]).astype(bool)) & (np.ravel(od["vm_latency_ms"]) <= lat)
        return ok

    # Cost order, in chunks: the screen and the full evaluation stop as soon as
    # the `top` cheapest feasible designs are found; every cheaper candidate was
    # screened and rejected, so the answer is the same as screening them all.
    order = idx[np.argsort(cost[idx], kind="stable")]
    results, evaluated, perf_screened = [], 0, 0
    blocked["iops_at_latency"] = 0
    for start in range(0, order.size, SCREEN_CHUNK):
        chunk = order[start:start + SCREEN_CHUNK]
        ok = perf_ok(chunk)
        perf_screened += chunk.size
        blocked["iops_at_latency"] += int((~ok).sum())
        for i in chunk[ok]:
            if evaluated >= max_full:
                break
            rd = resolve(_design(rows[ri[i]], int(n[i]), SEARCH_RESILIENCY[si[i]]), cat)
            evaluated += 1
            c = check(rd, demand, a)
            if c["feasible"]:
                results.append(c)
                if len(results) >= top:
                    break
        if len(results) >= top or evaluated >= max_full:
            break
    pareto, best_head = [], -np.inf
    for r in sorted(results, key=lambda r: r["cost_usd_per_month"]):
        if r["headroom"] > best_head:
            pareto.append({"name": r["design"]["name"], "cost_usd_per_month": r["cost_usd_per_month"], "headroom": r["headroom"]})
            best_head = r["headroom"]
    expl = ""
    if not results:
        expl = (f"no design meets {iops:,.0f} IOPS at {lat:g} ms and {tb:,.1f} TB"
                f"{' with N+1' if demand.n_plus_one else ''}; candidates blocked by: "
                + ", ".join(f"{k} {v}" for k, v in blocked.items()))
        if screened:
            # name the closest candidate on the constraint that blocks most
            fits_tb = np.minimum(usable, usable_n1)
            j = int(np.argmax(fits_tb))
            if fits_tb[j] < tb:
                expl += (f". Closest on capacity: {_design(rows[ri[j]], int(n[j]), SEARCH_RESILIENCY[si[j]]).name}"
                         f" holds {fits_tb[j]:,.1f} TB{' after a node loss' if demand.n_plus_one else ''}"
                         f" (bays and node count cap it; allow more nodes or larger drives)")
            elif demand.vcpus() and not vcpu_ok.any():
                expl += f". The databases need {demand.vcpus():,.0f} vCPUs; no candidate hosts that many"
    return SizingResult(best=results[0] if results else None, alternatives=results[1:], pareto=pareto,
                        screened=screened, iops_screened=perf_screened, evaluated=evaluated, seconds=time.perf_counter() - t0, explanation=expl)
