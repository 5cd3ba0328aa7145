"""Per-database performance guarantees (SLA) on a shared cluster.

A database is one VM with ``threads x outstanding_per_thread`` IOs in flight.
Its *guarantee* is the largest IOPS rate it can be promised while the latency
statistic it asks for stays under its target, with the background tenants
running. Candidate bounds (the smallest wins and is named ``binding_constraint``):

* ``latency_target``: largest open-load rate x (background + DB) whose predicted
  latency statistic is <= target (grid search over x, vectorised: every
  candidate rate is one element of a single :func:`evaluate_arrays` call).
* ``vm_outstanding_io``: Little's law, X = N / R (Little, 1961): a VM with N IOs
  in flight at latency R cannot issue more than N / R IOPS.
* ``vm_vcpu_share``: utilisation law, U = X x S (Denning & Buzen, 1978): the DB's
  guaranteed share of host logical processors is vcpus / vcpu_oversubscription,
  so X <= (vcpus / oversub) / (guest LP-seconds per IO). Only the guest's CPU
  runs on the DB's vCPUs; the host storage stack runs in the root partition.
* ``node_headroom``: a VM runs on one node: 1/nodes of the remaining capacity.
* ``cluster_headroom``: saturation capacity minus background IOPS.
* ``capacity``: the DB must fit in usable capacity minus the background's data.
* ``n_plus_one``: the latency bound recomputed with one node down.

Approximation (stated, not hidden): the background is treated as an open load
at the rate it reaches on its own (closed population, QoS limits applied), and
the combined stream's block size and read share are IO-weighted averages. This
does not let background tenants back off when the DB arrives, which makes the
guarantee conservative.
"""
from __future__ import annotations

from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from planner.capacity import usable_capacity_tb
from planner.cpu import clock_scale as cpu_clock_scale
from planner.degraded import degraded_arrays
from planner.design import ResolvedDesign
from planner.params import ModelParams, default_params
from planner.performance import DesignArrays, WorkloadArrays, evaluate_arrays
from planner.workload import Workload

#: No storage stack answers faster than ~20 us (NVMe device + kernel); a target
#: below that cannot be met by any design, so it is a user error, not a zero.
MIN_LATENCY_TARGET_MS = 0.02
MAX_LATENCY_TARGET_MS = 10_000.0

BINDING = Literal["latency_target", "vm_outstanding_io", "vm_vcpu_share", "node_headroom",
                  "cluster_headroom", "capacity", "n_plus_one"]


class Database(BaseModel):
    """One database VM. Sizes in decimal TB, latency target in ms."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(default="db", min_length=1, max_length=200)
    size_tb: float = Field(ge=0.001, le=10_000, description="database size, decimal TB (at least 1 GB)")
    vcpus: int = Field(ge=1, le=512)
    threads: int = Field(ge=1, le=1024, description="IO threads in the VM")
    outstanding_per_thread: int = Field(ge=1, le=4096)
    block_size_kib: float = Field(default=8.0, ge=0.5, le=4096, description="IO size, KiB")
    read_fraction: float = Field(default=0.7, ge=0.0, le=1.0)
    random_fraction: float = Field(default=1.0, ge=0.0, le=1.0)
    latency_target_ms: float = Field(
        ge=MIN_LATENCY_TARGET_MS, le=MAX_LATENCY_TARGET_MS,
        description=f"latency target, ms ({MIN_LATENCY_TARGET_MS}..{MAX_LATENCY_TARGET_MS})",
    )
    latency_statistic: Literal["mean", "p90", "p99"] = "mean"

    @property
    def outstanding(self) -> int:
        return self.threads * self.outstanding_per_thread


class SlaResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    database: str
    guaranteed_iops: float
    guaranteed_iops_low: float
    guaranteed_iops_high: float
    latency_ms: float | None = Field(description="predicted latency statistic at the guaranteed load, ms; "
                                     "null when nothing can be guaranteed (latency_note says why)")
    latency_note: str = ""
    latency_statistic: str
    binding_constraint: BINDING
    iops_per_gb: float
    background_iops: float
    bounds_iops: dict[str, float]
    note: str = ""


def _latency_stat(out: dict, stat: str, r: float) -> np.ndarray:
    """The DB's latency statistic (ms). Mean: IO-weighted; percentiles: the worse
    of the classes it issues (the percentile of a mixture is not a weighted sum)."""
    if stat == "mean":
        return r * out["vm_read_latency_ms"] + (1 - r) * out["vm_write_latency_ms"]
    rd, wr = out[f"{stat}_read_latency_ms"], out[f"{stat}_write_latency_ms"]
    if r >= 1.0:
        return rd
    if r <= 0.0:
        return wr
    return np.maximum(rd, wr)


def _background_rate(D: DesignArrays, bg: Workload | None, p: ModelParams) -> tuple[float, float]:
    """(IOPS, VMs) the background reaches on its own."""
    if bg is None:
        return 0.0, 0.0
    W = WorkloadArrays.from_workload(bg, D.nodes)
    out = evaluate_arrays(D, W, p)
    return float(np.ravel(out["iops"])[0]), float(np.ravel(W.vms_total)[0])


def _combined(D: DesignArrays, db: Database, bg: Workload | None, x_bg: float, vms_bg: float,
              x_db: np.ndarray) -> WorkloadArrays:
    """Background + DB as one open load at each candidate DB rate (IO-weighted shape)."""
    x_db = np.asarray(x_db, dtype=float)
    tot = x_bg + x_db
    wdb = np.where(tot > 0, x_db / np.maximum(tot, 1e-12), 1.0)
    bs_bg = bg.block_size_kib if bg else db.block_size_kib
    r_bg = bg.read_fraction if bg else db.read_fraction
    vms = vms_bg + 1.0
    ws_db = db.size_tb * 1000.0  # whole DB treated as hot: conservative for the cache
    ws_bg = (bg.working_set_gb_per_vm * vms_bg) if bg else 0.0
    return WorkloadArrays(
        block_size_kib=wdb * db.block_size_kib + (1 - wdb) * bs_bg,
        read_fraction=wdb * db.read_fraction + (1 - wdb) * r_bg,
        vms_total=np.full_like(x_db, vms),
        # The open model queues an *average* VM's vCPUs at total/vms, which would
        # make more tenants look faster for the DB. The DB's own vCPU limit is the
        # vm_vcpu_share bound instead; here the private queue is removed (its
        # Seidmann delay tends to one full guest CPU time: conservative).
        vcpus_per_vm=np.asarray(1e6),
        outstanding_per_vm=np.asarray(float(db.outstanding)),
        working_set_gb_per_vm=np.asarray((ws_bg + ws_db) / vms),
        open_iops=np.maximum(tot, 1e-3),
        iops_limit_per_vm=np.asarray(np.inf),
        alignment=np.asarray(bg.vm_alignment if bg else 1.0),
        host_issuer=np.asarray(False),
    )


def _largest_ok(x: np.ndarray, ok: np.ndarray) -> float:
    """Largest grid rate such that every smaller rate is also ok (monotone prefix)."""
    if not ok[0]:
        return 0.0
    bad = np.flatnonzero(~ok)
    return float(x[bad[0] - 1]) if bad.size else float(x[-1])


def _latency_bounds(D, db, bg, x_bg, vms_bg, p, upper):
    """Latency-target and Little's-law bounds, each by its own vectorised grid
    refinement (three passes of 200 rates, each narrowing the bracket 200x)."""
    def checks(x):
        out = evaluate_arrays(D, _combined(D, db, bg, x_bg, vms_bg, x), p)
        one = np.ones_like(x)
        lat = np.ravel(_latency_stat(out, db.latency_statistic, db.read_fraction) * one)
        sat = np.ravel(out["saturated"] * one).astype(bool)
        mean_lat = np.ravel(_latency_stat(out, "mean", db.read_fraction) * one)
        return {"latency_target": (lat <= db.latency_target_ms) & ~sat,
                # Little's law N = X R: the VM's IOs in flight cap its rate
                "vm_outstanding_io": (x * mean_lat / 1e3 <= db.outstanding) & ~sat}

    res = {}
    for key in ("latency_target", "vm_outstanding_io"):
        lo, hi = 0.0, max(upper, 1.0)
        best = 0.0
        for _ in range(3):
            x = np.linspace(lo, hi, 201)[1:]
            # best >= lo already; _largest_ok is 0 when x[0] fails
            best = max(best, _largest_ok(x, checks(x)[key]))
            step = (hi - lo) / 200
            if best >= hi - 1e-9 or step < 1.0:
                break
            lo, hi = best, min(best + step, hi)
        res[key] = best
    return res


def _point(rd: ResolvedDesign, db: Database, bg: Workload | None, n_plus_one: bool, p: ModelParams):
    D = DesignArrays.from_designs([rd])
    x_bg, vms_bg = _background_rate(D, bg, p)
    bounds: dict[str, float] = {}

    # capacity: DB size must fit beside the background's data
    usable = float(usable_capacity_tb(D.nodes, D.drives_per_node, D.drive_capacity_tb,
                                      D.resiliency_code, D.fault_domains, D.mirror_share,
                                      reserve_policy=rd.design.reserve_policy)[0])
    bg_tb = (bg.working_set_gb_per_vm * vms_bg / 1000.0) if bg else 0.0
    if db.size_tb > usable - bg_tb:
        return dict(g=0.0, binding="capacity", lat=None, x_bg=x_bg, bounds={"capacity": 0.0},
                    note=f"{db.size_tb:g} TB does not fit: usable {usable:.2f} TB, background {bg_tb:.2f} TB",
                    lat_note="the database does not fit: no load to give a latency for")

    probe = evaluate_arrays(D, _combined(D, db, bg, x_bg, vms_bg, np.array([1.0])), p)
    cap = float(np.ravel(probe["iops_capacity"])[0])
    bounds["cluster_headroom"] = max(cap - x_bg, 0.0)
    bounds["node_headroom"] = bounds["cluster_headroom"] / rd.design.nodes
    # the DB's vCPUs run its guest OS and IO stack; the host storage stack runs
    # in the root partition on the cluster's LPs (cluster_headroom), not on them
    guest_s = p.guest_cpu_us * float(np.ravel(cpu_clock_scale(D.base_ghz))[0]) * 1e-6
    bounds["vm_vcpu_share"] = (db.vcpus / rd.design.vcpu_oversubscription) / max(guest_s, 1e-12)
    upper = max(bounds["cluster_headroom"], 1.0)
    bounds.update(_latency_bounds(D, db, bg, x_bg, vms_bg, p, upper))
    if n_plus_one and rd.design.nodes > 1:
        Dd, _ = degraded_arrays(D, WorkloadArrays.from_workload(bg, D.nodes) if bg else None)
        # the same background tenants restart on the survivors (same total rate)
        deg = _latency_bounds(Dd, db, bg, x_bg, vms_bg, p, upper)
        bounds["n_plus_one"] = min(deg.values())
    binding = min(bounds, key=bounds.get)
    g = bounds[binding]
    note = ""
    if bounds["latency_target"] <= 0.0:
        # say why: the model's latency at (almost) no DB load already misses the target
        floor = float(np.ravel(_latency_stat(probe, db.latency_statistic, db.read_fraction))[0])
        note = (f"latency_target_ms {db.latency_target_ms:g} is below the predicted {db.latency_statistic} "
                f"latency at background load alone ({floor:.3f} ms)")
    # JSON has no NaN: no latency (null) and the reason when nothing can be guaranteed
    lat, lat_note = None, f"nothing can be guaranteed ({binding.replace('_', ' ')} allows 0 IOPS): no latency"
    if g > 0:
        out = evaluate_arrays(D, _combined(D, db, bg, x_bg, vms_bg, np.array([g])), p)
        lat = float(np.ravel(_latency_stat(out, db.latency_statistic, db.read_fraction))[0])
        lat, lat_note = (lat, "") if np.isfinite(lat) else (None, "the model gives no finite latency at this load")
    return dict(g=g, binding=binding, lat=lat, x_bg=x_bg, bounds=bounds, note=note, lat_note=lat_note)


def guarantee(rd: ResolvedDesign, db: Database, background: Workload | None = None,
              n_plus_one: bool = False, params: ModelParams | None = None) -> "SlaResult":
    """The IOPS one database can be guaranteed at its latency target (see module doc).

    The band is the 5-95 % range over the calibration bootstrap parameter sets
    (:func:`planner.report.bootstrap_params`); without them the band is the point.
    """
    from planner.report import BAND_HIGH, BAND_LOW, bootstrap_params

    p = params or default_params()
    pt = _point(rd, db, background, n_plus_one, p)
    draws = [_point(rd, db, background, n_plus_one, q)["g"] for q in (bootstrap_params() if params is None else [])]
    lo = float(np.percentile(draws, BAND_LOW)) if draws else pt["g"]
    hi = float(np.percentile(draws, BAND_HIGH)) if draws else pt["g"]
    return SlaResult(
        database=db.name, guaranteed_iops=pt["g"], guaranteed_iops_low=min(lo, pt["g"]),
        guaranteed_iops_high=max(hi, pt["g"]), latency_ms=pt["lat"], latency_note=pt["lat_note"],
        latency_statistic=db.latency_statistic,
        binding_constraint=pt["binding"], iops_per_gb=pt["g"] / (db.size_tb * 1000.0),
        background_iops=pt["x_bg"], bounds_iops=pt["bounds"], note=pt["note"],
    )
