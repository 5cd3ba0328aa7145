"""One design (and optionally a workload) in, one JSON-ready report out.

This is the single-design face of the vectorised model used by the CLI, the
SLA module and the UI: capacity waterfall, performance with its uncertainty
band, utilisation per resource, degraded mode and endurance.
"""
from __future__ import annotations

import warnings

import numpy as np

from planner import endurance
from planner.capacity import capacity_report
from planner.cpu import cap_throughput_iops
from planner.catalog import Catalog, load_catalog
from planner.degraded import DEFAULT_REPAIR_SHARE, degraded_arrays, repair_time_hours
from planner.design import Design, ResolvedDesign, resolve
from planner.params import ModelParams, default_params, load_calibration, CALIBRATION_FILE
from planner.performance import STATIONS, DesignArrays, WorkloadArrays, evaluate_arrays
from planner.workload import Workload

BAND_LOW, BAND_HIGH = 5.0, 95.0
_SCALARS = (
    "iops", "iops_per_node", "iops_capacity", "bandwidth_mb_s", "read_latency_ms", "write_latency_ms",
    "vm_read_latency_ms", "vm_write_latency_ms", "vm_latency_ms", "p90_read_latency_ms",
    "p99_read_latency_ms", "p90_write_latency_ms", "p99_write_latency_ms", "host_cpu_utilization",
    "outstanding_ios", "cpu_lp_us_per_io",
)


DEGRADED_KEYS = (
    "iops", "iops_capacity", "bandwidth_mb_s", "read_latency_ms", "write_latency_ms", "vm_read_latency_ms",
    "vm_write_latency_ms", "vm_latency_ms", "p99_read_latency_ms", "p99_write_latency_ms",
    "host_cpu_utilization", "bottleneck", "limited_by", "saturated",
)


def bootstrap_params() -> list[ModelParams]:
    """Parameter sets from the calibration bootstrap (empty if not calibrated)."""
    if not CALIBRATION_FILE.exists():
        return []
    return [ModelParams.from_vector(v) for v in load_calibration().bootstrap]


def performance(rd: ResolvedDesign, workload: Workload, params: ModelParams | None = None,
                band: bool = True, degraded: bool = False,
                repair_share: float = DEFAULT_REPAIR_SHARE) -> dict:
    """Performance of one design under one workload, with a 5-95 % band."""
    p = params or default_params()
    D = DesignArrays.from_designs([rd])
    W = WorkloadArrays.from_workload(workload, D.nodes)
    if degraded:
        D, W = degraded_arrays(D, W, repair_share)
    out = evaluate_arrays(D, W, p)
    res = {k: float(np.ravel(out[k])[0]) for k in _SCALARS}
    util = np.ravel(out["utilization"].reshape(-1, len(STATIONS))[0])
    res["utilization"] = {s: float(u) for s, u in zip(STATIONS, util)}
    res["bottleneck"] = str(np.ravel(out["bottleneck"])[0])
    res["limited_by"] = str(np.ravel(out["limited_by"])[0])
    res["saturated"] = bool(np.ravel(out["saturated"])[0])
    band_keys = ("iops", "read_latency_ms", "write_latency_ms", "vm_latency_ms",
                 "p99_read_latency_ms", "p99_write_latency_ms")
    for k in band_keys:  # without a bootstrap the band collapses to the point
        res[f"{k}_low"] = res[f"{k}_high"] = res[k]
    if band:
        sets = bootstrap_params()
        if sets:
            draws = {k: [] for k in band_keys}
            for q in sets:
                o = evaluate_arrays(D, W, q)
                for k in draws:
                    draws[k].append(float(np.ravel(o[k])[0]))
            for k, v in draws.items():
                lo, hi = np.nanpercentile(v, [BAND_LOW, BAND_HIGH])
                res[f"{k}_low"] = float(min(lo, res[k]))
                res[f"{k}_high"] = float(max(hi, res[k]))
    wr_iops = res["iops"] * (1.0 - workload.read_fraction)
    n = rd.node
    absorption = float(np.ravel(out["write_absorption"])[0])
    years = float(endurance.years_to_wear_out(
        wr_iops, workload.block_size_kib, float(np.ravel(out["backend_writes_per_write"])[0]),
        absorption, n.drive_count * rd.design.nodes,
        n.drive.endurance_dwpd, n.drive.capacity_tb, n.drive.warranty_years))
    # JSON has no Infinity: a load that never wears the drives is null with the reason
    res["endurance_years"] = years if np.isfinite(years) else None
    if not np.isfinite(years):
        res["endurance_note"] = ("no writes: the drives never wear out at this load" if wr_iops <= 0 else
                                 "no writes reach the capacity drives (the cache absorbs them): they never "
                                 "wear out at this load")
    return res


def evaluate_report(design: Design, workload: Workload | None = None, catalog: Catalog | None = None,
                    degraded: bool = True, params: ModelParams | None = None) -> dict:
    """Capacity (always) and performance (with a workload) of a design; with
    ``degraded`` (default) also the same with one node down."""
    rd = resolve(design, catalog or load_catalog())
    cap = capacity_report(rd)
    out = {"design": design.name, "nodes": design.nodes, "resiliency": design.resiliency,
           "transport": design.transport}
    out.update(cap.model_dump(mode="json"))
    if workload is not None:
        perf = performance(rd, workload, params)
        out["workload"] = workload.name
        out.update(perf)
        # N+1 is the first question in a sizing review, so it is on by default
        deg = performance(rd, workload, params, band=False, degraded=True) if design.nodes > 1 and degraded else None
        if deg is not None:
            # every headline figure, so a degraded view never mixes in healthy numbers
            out["degraded"] = {k: deg[k] for k in DEGRADED_KEYS} | {
                "utilization": deg["utilization"],
                "repair_share": DEFAULT_REPAIR_SHARE,
                "repair_time_hours": float(repair_time_hours(
                    cap.usable_capacity_tb / max(cap.resiliency_efficiency, 1e-9), design.nodes,
                    rd.node.drive_count, rd.node.drive.seq_write_mb_s,
                    rd.node.network_gbit_s * 1e9 / 8)),
                "note": "one node down, its VMs on the survivors, repair using repair_share of drive and "
                        "network bandwidth; repair time assumes the volumes are full",
            }
    return out


def latency_curve(rd: ResolvedDesign, workload: Workload, points: int = 40,
                  params: ModelParams | None = None, degraded: bool = False, band: bool = False,
                  repair_share: float = DEFAULT_REPAIR_SHARE) -> dict:
    """Latency against offered IOPS, from idle to saturation.

    Open loads of the workload's shape at 2 % to 99 % of the design's physical
    IOPS capacity, with the operating policies (CPU cap, per-VM limits) lifted
    so the curve shows what the hardware does; ``cpu_cap_iops`` says where the
    CPU cap would stop admitting load (None without a cap). Latencies are
    non-decreasing in load (tested). With ``degraded`` the cluster has one node
    down (as :func:`performance`), so the degraded operating point lies on it.
    With ``band`` (and a calibration bootstrap) ``vm_latency_ms_low``/``_high``
    are the 5-95 % range of VM latency over the bootstrap parameter sets at the
    same offered loads (null where a set saturates).
    """
    p = params or default_params()
    D1 = DesignArrays.from_designs([rd]).replace(cpu_utilization_cap=np.array([1.0]))
    W1 = WorkloadArrays.from_workload(workload, D1.nodes)
    if degraded and rd.design.nodes > 1:
        D1, W1 = degraded_arrays(D1, W1, repair_share)
    capacity = float(np.ravel(evaluate_arrays(D1, W1, p)["iops_capacity"])[0])
    rates = np.linspace(0.02, 0.99, points) * capacity
    D = D1.take(np.zeros(points, dtype=int))
    # the workload's VMs are counted on the healthy cluster: degraded, they run on the survivors
    W = WorkloadArrays.from_workload(workload, np.full(points, rd.design.nodes))
    W.open_iops = rates
    W.iops_limit_per_vm = np.asarray(np.inf)
    out = evaluate_arrays(D, W, p)
    keys = ("iops", "read_latency_ms", "write_latency_ms", "vm_read_latency_ms", "vm_write_latency_ms",
            "vm_latency_ms", "p99_read_latency_ms")
    curve = {k: np.ravel(out[k]).astype(float).tolist() for k in keys}
    curve["iops_capacity"] = capacity
    curve["degraded"] = bool(degraded and rd.design.nodes > 1)
    sets = bootstrap_params() if band else []
    if sets:
        draws = np.array([np.ravel(evaluate_arrays(D, W, q)["vm_latency_ms"]).astype(float) for q in sets])
        draws[~np.isfinite(draws)] = np.nan
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a rate every set saturates at: no band there
            lo, hi = np.nanpercentile(draws, [BAND_LOW, BAND_HIGH], axis=0)
        point = np.asarray(curve["vm_latency_ms"])
        curve["vm_latency_ms_low"] = [None if not np.isfinite(v) else float(min(v, y)) for v, y in zip(lo, point)]
        curve["vm_latency_ms_high"] = [None if not np.isfinite(v) else float(max(v, y)) for v, y in zip(hi, point)]
    cap = rd.design.cpu_utilization_cap
    cap_iops = None
    if cap < 1.0:
        cap_iops = float(cap_throughput_iops(cap, p, rd.node.threads * D1.nodes[0],
                                             float(np.ravel(out["cpu_lp_us_per_io"])[0]) * 1e-6))
    curve["cpu_cap_iops"] = cap_iops
    return curve
