"""The Ceph calibration: Ceph's own parameters fitted on Ceph's own measurements.

Data: ``planner/data/benchmarks/ceph/ceph-io-blog.json``, 37 points in 10
configurations transcribed from the Ceph blog (ceph/ceph.io), each with its post,
path, commit and quote. Two posts are held out of everything for an independent
check and were never read.

Method
------
* The parameters of :data:`planner.models.params.CEPH_FIT_NAMES` are fitted by
  bounded least squares (scipy, trust-region reflective) on log errors: each
  point's throughput (IOPS or MB/s) and QD1 write latency weigh 1, the posts'
  CPU cores per OSD 0.5 (they are stated roughly: "a little over 7"), each
  configuration weighing equally.
* The generic parameters the Ceph data cannot identify (guest CPU and latency,
  latency shape, idle load, LP wait, hop latency) are the S2D fit's; the read
  software latency is half the fitted write path (an assumption: a read makes two
  of a replicated write's four messenger traversals and no commit; no Ceph read
  latency at low load is in the data).
* Errors are reported in-sample and leave-one-group-out (a fit that never saw
  the configuration predicts it); a group is one configuration, or the
  configurations the data file names one ``hold_out_group`` (one post's runs of
  one cluster and load, whose figures are twins: held out together, so no twin
  stays in the fit that predicts the other); a parameter only the held-out
  configuration informs (a release's write cost) then stays at its starting
  value, which is the honest prediction for a release nobody measured: every
  fit holds the parameters its points do not depend on (:func:`uninformed`) at
  their starting values, and each fold names them (``held_at_prior``).
* Bands: 5-95 % of the held-out ratios; for extrapolation the held-out error of
  folds that leave out one side of a dimension (cluster size, release, client
  placement, erasure coding, CPU family).

``hciplan calibrate --stack ceph`` writes ``planner/data/calibration-ceph.json``;
``hciplan validate --stack ceph`` and ``scripts/ceph_accuracy.py`` print the table.
"""

from __future__ import annotations

import copy
import json
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from planner.core.resources import BENCH_DIR, CEPH_CALIBRATION_FILE
from planner.engine.ceph_terms import ceph_demand_terms
from planner.engine.performance import DesignArrays, WorkloadArrays, evaluate_arrays
from planner.models.design import ResolvedDesign, parse_design, resolve
from planner.models.params import (
    CEPH_FIT_NAMES,
    CEPH_PARAM_BOUNDS,
    CephParams,
    ceph_base_params,
    default_params,
)
from planner.models.workload import Workload
from planner.results.uncertainty import band_union

VERSION = "2026.11-ceph-1"
CEPH_BENCH_FILE = BENCH_DIR / "ceph" / "ceph-io-blog.json"
METRICS = ("iops", "bandwidth_mb_s", "write_latency_ms", "osd_lps_per_osd")
WEIGHTS = {"iops": 1.0, "bandwidth_mb_s": 1.0, "write_latency_ms": 1.0, "osd_lps_per_osd": 0.5}
#: the read path's software latency as a share of the fitted write path (assumption, see module docstring)
READ_LATENCY_SHARE = 0.5
BAND_QUANTILES = (5.0, 95.0)


@dataclass
class CephPoint:
    group: str
    #: the hold-out group: the configuration's ``hold_out_group`` in the data file, else the configuration
    hold_out_group: str
    release: str
    label: str
    design: ResolvedDesign
    workload: Workload
    processes: int
    measured: dict
    source: str
    quote: str
    note: str


@lru_cache(maxsize=1)
def points() -> tuple[CephPoint, ...]:
    """Every measured point of the Ceph data file, its design resolved (inline parts)."""
    doc = json.loads(CEPH_BENCH_FILE.read_text(encoding="utf-8"))
    out = []
    for cfg in doc["configurations"]:
        for p in cfg["points"]:
            dd = copy.deepcopy(cfg["design"])
            if "rocksdb_tuning" in p:
                dd["ceph"]["rocksdb_tuning"] = p["rocksdb_tuning"]
            rd = resolve(parse_design(dd))
            w = dict(p["workload"])
            procs = int(w.pop("processes"))
            out.append(
                CephPoint(
                    group=cfg["id"],
                    hold_out_group=cfg.get("hold_out_group", cfg["id"]),
                    release=cfg["release"],
                    label=p["label"],
                    design=rd,
                    workload=Workload(name=f"{cfg['id']}: {p['label']}", **w),
                    processes=procs,
                    measured=dict(p["measured"]),
                    source=cfg["source"],
                    quote=p["quote"],
                    note=" ".join(x for x in (cfg.get("setup", ""), p.get("note", "")) if x),
                )
            )
    return tuple(out)


@lru_cache(maxsize=1)
def _arrays():
    pts = points()
    D = DesignArrays.from_designs([p.design for p in pts])
    W = WorkloadArrays.from_workloads([p.workload for p in pts], D.nodes)
    W.vms_total = np.array([float(p.processes) for p in pts])
    return D, W


def measured() -> dict[str, np.ndarray]:
    """metric -> measured value per point (nan where the point has none)."""
    pts = points()
    return {m: np.array([p.measured.get(m, np.nan) for p in pts], dtype=float) for m in METRICS}


def groups() -> np.ndarray:
    return np.array([p.group for p in points()])


def predict(params: CephParams, idx=None) -> dict[str, np.ndarray]:
    """The model's figure for every metric of every point (or the points ``idx``)."""
    D, W = _arrays()
    if idx is not None:
        D = D.take(idx)
        W = WorkloadArrays(**{k: np.asarray(v)[idx] for k, v in W.__dict__.items()})
    out = evaluate_arrays(D, W, params)
    t = ceph_demand_terms(D, W, params)
    r = np.asarray(W.read_fraction, dtype=float)
    osds = D.drives_per_node * D.osds_per_drive * D.nodes
    osd_s = r * t["osd_lp_s_read"] + (1.0 - r) * t["osd_lp_s_write"]
    meas = measured()
    m_iops = meas["iops"] if idx is None else meas["iops"][idx]
    m_bw = meas["bandwidth_mb_s"] if idx is None else meas["bandwidth_mb_s"][idx]
    # CPU per OSD at the measured load: the per-IO cost, apart from the throughput's own error
    load = np.where(np.isfinite(m_iops), m_iops, m_bw * 1e6 / (np.asarray(W.block_size_kib) * 1024.0))
    return {
        "iops": np.ravel(out["iops"]),
        "bandwidth_mb_s": np.ravel(out["bandwidth_mb_s"]),
        "write_latency_ms": np.ravel(out["write_latency_ms"]),
        "osd_lps_per_osd": np.ravel(load * osd_s / osds),
        "bottleneck": np.ravel(out["bottleneck"]),
        "limited_by": np.ravel(out["limited_by"]),
        "utilization": out["utilization"].reshape(-1, 5),
    }


def _with(base: CephParams, names, values) -> CephParams:
    data = base.model_dump()
    data.update({k: float(v) for k, v in zip(names, values)})
    data["stack_read_latency_us"] = READ_LATENCY_SHARE * data["stack_write_latency_us"]
    return CephParams(**data)


def _residuals(params: CephParams, idx) -> np.ndarray:
    pred = predict(params, idx)
    meas = measured()
    g = groups()[idx]
    _u, inv, counts = np.unique(g, return_inverse=True, return_counts=True)
    cfg_w = 1.0 / np.sqrt(counts[inv])  # each configuration one vote
    res = []
    for m in METRICS:
        y = meas[m][idx]
        ok = np.isfinite(y)
        e = np.log(np.maximum(pred[m], 1e-12) / np.where(ok, y, 1.0))
        res.append(np.where(ok, WEIGHTS[m] * cfg_w * e, 0.0))
    return np.concatenate(res)


def base_params() -> CephParams:
    """Ceph's starting point: the S2D fit's generic parameters, Ceph's at their starts."""
    return _with(ceph_base_params(default_params()), [], [])


#: scipy's tolerances (cost, step, gradient) and the finite-difference step (share of a
#: parameter's value): the model is piecewise (max of stations, saturation), so a
#: step wide enough to see a slope across a kink, and stopping once the cost moves less
#: than 1e-6, converge in ~20 iterations where scipy's 1e-8 default crawls along kinks
FIT_TOL = 1e-6
FIT_STEP = 1e-3


def _bounds(names, base: CephParams) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The lower and upper bounds of the parameters ``names`` and ``base``'s values clipped into them."""
    lo = np.array([CEPH_PARAM_BOUNDS[k][1] for k in names])
    hi = np.array([CEPH_PARAM_BOUNDS[k][2] for k in names])
    return lo, hi, np.clip([getattr(base, k) for k in names], lo, hi)


def uninformed(idx, base: CephParams) -> list[str]:
    """The parameters of :data:`CEPH_FIT_NAMES` the points ``idx`` say nothing about: moved from
    ``base`` to the far end of its bounds, each leaves every residual of those points bit-identical
    (a release's write factor when no write of that release is in ``idx``, the RocksDB tuning's when
    no tuned write is). One evaluation per parameter."""
    lo, hi, x0 = _bounds(CEPH_FIT_NAMES, base)
    f0 = _residuals(_with(base, CEPH_FIT_NAMES, x0), idx)
    out = []
    for j, k in enumerate(CEPH_FIT_NAMES):
        v = x0.copy()
        v[j] = hi[j] if hi[j] - x0[j] >= x0[j] - lo[j] else lo[j]
        if np.array_equal(_residuals(_with(base, CEPH_FIT_NAMES, v), idx), f0):
            out.append(k)
    return out


def fit(
    idx=None, start: CephParams | None = None, max_nfev: int = 300
) -> tuple[CephParams, Any]:  # Any: scipy's OptimizeResult
    """Fit :data:`CEPH_FIT_NAMES` on the points ``idx`` (all by default).

    A parameter the points do not inform (:func:`uninformed`) is held at its starting value and
    named in the result's ``held_at_prior``: least squares has no slope along it, and scipy's
    trust-region step along a null direction of the Jacobian is rounding noise (two such
    parameters in the fold without the Rome cluster went bound to bound, landing where the last
    rounding took them: Pacific's write factor 0.56 on numpy, 2.25 compiled, its held-out IOPS
    error 209 % or 100 %). With every parameter informed (the full fit) the call is as before."""
    from scipy.optimize import least_squares

    idx = np.arange(len(points())) if idx is None else np.asarray(idx)
    base = start or base_params()
    held = uninformed(idx, base)
    names = [k for k in CEPH_FIT_NAMES if k not in held]
    lo, hi, x0 = _bounds(names, base)
    # the held parameters at their (clipped) starting values
    base = _with(base, held, list(_bounds(held, base)[2]))
    res = least_squares(
        lambda v: _residuals(_with(base, names, v), idx),
        x0,
        bounds=(lo, hi),
        method="trf",
        x_scale=hi - lo,
        diff_step=FIT_STEP,
        ftol=FIT_TOL,
        xtol=FIT_TOL,
        gtol=FIT_TOL,
        max_nfev=max_nfev,
    )
    res.held_at_prior = held
    return _with(base, names, res.x), res


def _errors_pct(pred: dict, idx=None) -> dict[str, np.ndarray]:
    meas = measured()
    out = {}
    for m in METRICS:
        y = meas[m] if idx is None else meas[m][idx]
        out[m] = 100.0 * (pred[m] / y - 1.0)
    return out


def _summary(err: dict, mask=None) -> dict:
    out = {}
    for m, e in err.items():
        v = e if mask is None else e[mask]
        v = np.abs(v[np.isfinite(v)])
        if v.size:
            out[m] = {
                "median_abs_pct_error": round(float(np.median(v)), 1),
                "max_abs_pct_error": round(float(np.max(v)), 1),
                "points": int(v.size),
            }
    return out


def hold_out_groups() -> np.ndarray:
    """Each point's hold-out group (:attr:`CephPoint.hold_out_group`)."""
    return np.array([p.hold_out_group for p in points()])


def leave_one_configuration_out(full: CephParams) -> dict[str, np.ndarray]:
    """Held-out predictions: each hold-out group (a configuration, or twins the
    data file groups) predicted by a fit without any of its points."""
    n = len(points())
    g = hold_out_groups()
    held = {m: np.full(n, np.nan) for m in METRICS}
    for cfg in sorted(set(g)):
        test = np.flatnonzero(g == cfg)
        train = np.flatnonzero(g != cfg)
        p, _ = fit(train, start=base_params())
        pred = predict(p, test)
        for m in METRICS:
            held[m][test] = pred[m]
    return held


#: pseudo-extrapolation folds: (dimension, side, held-out configurations)
EXTRAPOLATION_FOLDS = (
    ("nodes", "high", ("tib-320osd", "tib-630osd", "tib-630osd-ec62")),
    ("nodes", "low", ("tib-30osd", "mako5-pacific-client")),
    ("ceph_release", "unseen:pacific", ("mako-pacific-rocksdb", "mako5-pacific-client")),
    ("ceph_release", "unseen:reef", ("mako-reef",)),
    ("resiliency", "unseen:ec", ("tib-630osd-ec62",)),
    ("topology", "unseen:disaggregated", ("tib-30osd", "tib-100osd", "tib-320osd")),
    (
        "cpu_family",
        "unseen:AMD EPYC 9004 (Genoa)",
        ("tib-30osd", "tib-100osd", "tib-320osd", "tib-630osd", "tib-630osd-ec62"),
    ),
    (
        "cpu_family",
        "unseen:AMD EPYC 7002 (Rome)",
        (
            "mako-reef",
            "mako-quincy-17.2.5",
            "mako-pacific-rocksdb",
            "mako-quincy-17.2.1-rocksdb",
            "mako5-pacific-client",
        ),
    ),
)
#: the band metrics and the measured metrics each comes from
BAND_FROM = {
    "iops": ("iops", "bandwidth_mb_s"),
    "write_latency_ms": ("write_latency_ms",),
    "host_cpu_utilization": ("osd_lps_per_osd",),
}


def _quantiles(ratios: np.ndarray, g: np.ndarray) -> list[float] | None:
    ok = np.isfinite(ratios)
    if ok.sum() < 2:
        return None
    r, gg = ratios[ok], g[ok]
    _u, inv, counts = np.unique(gg, return_inverse=True, return_counts=True)
    w = 1.0 / counts[inv]
    order = np.argsort(r)
    r, w = r[order], w[order]
    cw = (np.cumsum(w) - 0.5 * w) / w.sum()
    return [round(float(np.interp(q / 100.0, cw, r)), 4) for q in BAND_QUANTILES]


def _band_of(pred: dict, mask: np.ndarray) -> dict:
    """metric -> [low, high] multipliers of a prediction from held-out ratios.

    Measured: throughput (IOPS and MB/s pooled), QD1 write latency, OSD CPU per
    IO (the CPU utilisation's band). Under load a closed population's latency is
    outstanding IOs / throughput (Little's law), so every latency's band also
    holds the inverse of the throughput band; read latencies were never measured
    at low load, so theirs is that and the write latency's. The p99 and VM latency
    shapes are S2D's (the Ceph data have no percentile under load): their bands
    add S2D's in-domain p99 band."""
    meas = measured()
    g = groups()
    got = {}
    for band, metrics in BAND_FROM.items():
        ratios = np.full(len(g), np.nan)
        for m in metrics:
            ok = np.isfinite(meas[m]) & mask
            ratios[ok] = meas[m][ok] / pred[m][ok]
        q = _quantiles(ratios, g)
        if q is not None:
            got[band] = [min(q[0], 1.0), max(q[1], 1.0)]
    table = dict(got)
    inv = [round(1.0 / got["iops"][1], 4), round(1.0 / got["iops"][0], 4)] if "iops" in got else None
    lat = band_union(got.get("write_latency_ms"), inv)
    if lat is not None:
        table["write_latency_ms"] = lat
        table["read_latency_ms"] = lat
        table["vm_latency_ms"] = lat
        from planner.models.params import CALIBRATION_FILE, load_calibration

        s2d_p99 = (
            load_calibration().bands.get("in_domain", {}).get("capacity", {}).get("p99_read_latency_ms")
            if (CALIBRATION_FILE.exists())
            else None
        )
        table["p99_read_latency_ms"] = band_union(lat, s2d_p99)
    return {"capacity": table}


def domain() -> dict:
    """The Ceph calibrated domain (the features the data span)."""
    from planner.results.calibrated_domain import domain_of, features

    feats = [features(p.design, p.workload) for p in points()]
    return domain_of(feats)


def run(write: bool = True, folds: bool = True) -> dict:
    """Fit, cross-validate, build the bands and (with ``write``) write the calibration file."""
    full, res = fit()
    pred = predict(full)
    err_in = _errors_pct(pred)
    g = groups()
    doc_summary = {"in_sample": _summary(err_in), "converged": bool(res.status > 0), "objective": float(res.cost)}
    bands: dict[str, Any] = {"quantiles_pct": list(BAND_QUANTILES), "in_domain": {}, "extrapolation": {}}
    held = None
    if folds:
        held = leave_one_configuration_out(full)
        err_out = _errors_pct(held)
        doc_summary["leave_one_configuration_out"] = _summary(err_out)
        bands["in_domain"] = _band_of(held, np.ones(len(g), dtype=bool))
        for dim, side, cfgs in EXTRAPOLATION_FOLDS:
            test = np.isin(g, cfgs)
            p, fres = fit(np.flatnonzero(~test), start=base_params())
            pe = predict(p)
            err = _errors_pct(pe)
            bands["extrapolation"].setdefault(dim, {})[side] = {
                "bands": _band_of(pe, test),
                "held_out": list(cfgs),
                "held_at_prior": list(fres.held_at_prior),
                "held_out_error": _summary({m: np.where(test, e, np.nan) for m, e in err.items()}),
            }
    doc = {
        "version": VERSION,
        "note": "Ceph parameters fitted on the Ceph blog's measurements (planner/data/benchmarks/ceph); "
        "written by `hciplan calibrate --stack ceph`. Generic parameters (guest, latency shape, idle load, LP wait, "
        f"hop latency) are the S2D fit's; stack_read_latency_us is {READ_LATENCY_SHARE:g} x the fitted write path "
        "(assumed: no Ceph read latency at low load was measured).",
        "params": full.model_dump(),
        "fitted": list(CEPH_FIT_NAMES),
        "domain": domain(),
        "bands": bands,
        "summary": doc_summary,
        "points": table_rows(full, held),
    }
    if write:
        from planner.core.jsonio import dumps, write_atomic

        write_atomic(CEPH_CALIBRATION_FILE, dumps(doc, indent=1) + "\n", "calibration")
        from planner.models.params import load_ceph_calibration

        load_ceph_calibration.cache_clear()
    return doc


def table_rows(params: CephParams, held: dict | None = None) -> list[dict]:
    """One row per measured figure: measured, fitted (in-sample) and held-out prediction."""
    pts = points()
    pred = predict(params)
    rows = []
    for i, p in enumerate(pts):
        for m in METRICS:
            y = p.measured.get(m)
            if y is None:
                continue
            h = None if held is None else float(held[m][i])
            rows.append(
                {
                    "configuration": p.group,
                    "release": p.release,
                    "point": p.label,
                    "metric": m,
                    "measured": y,
                    "in_sample": float(pred[m][i]),
                    "in_sample_error_pct": round(100.0 * (float(pred[m][i]) / y - 1.0), 1),
                    "held_out": h,
                    "held_out_error_pct": None
                    if h is None or not math.isfinite(h)
                    else round(100.0 * (h / y - 1.0), 1),
                    "bottleneck": str(pred["bottleneck"][i]),
                }
            )
    return rows


def validation_table() -> dict:
    """The shipped Ceph calibration's table: every measured figure with its fitted
    (in-sample) and held-out (leave-one-configuration-out) prediction, and the summary."""
    doc = json.loads(CEPH_CALIBRATION_FILE.read_text(encoding="utf-8"))
    return {"rows": doc["points"], "summary": doc["summary"] | {"version": doc["version"]}}
