"""Refit the model on a customer's measured points, in seconds.

The shipped calibration (:mod:`planner.calibration.fit`) fits every parameter to
1,100 points over minutes. A proof-of-concept brings a few dozen points from
one cluster: they pin some parameters and say nothing about others. So the
refit

1. **chooses the parameters the points identify**, by local sensitivity at
   the shipped fit (Brun, Reichert & Kuensch 2001, "Practical
   identifiability analysis of large environmental simulation models",
   Water Resources Research 37(4)): the scaled sensitivity of each weighted
   log-prediction to each parameter, ``s_ij = sqrt(w_i) d log(yhat_i) /
   d theta_j * c_j`` (``c_j`` the parameter's scale, so ``s`` is an
   elasticity), its root mean square ``delta_j`` (how much the points
   respond to the parameter), and the collinearity index of a set,
   ``gamma = 1 / sqrt(min eigenvalue of S'S)`` with unit-length columns
   (how far the set can be told apart). Parameters enter in decreasing
   ``delta`` order while ``delta >= DELTA_MIN`` and the set keeps
   ``gamma <= GAMMA_MAX``; every other parameter stays at the shipped value,
   with the reason (not material, or collinear with a named one);
2. **refits only those**, starting from the shipped fit, bounded by
   :data:`planner.models.params.PARAM_BOUNDS`, on the calibration's objective
   (soft-L1 on log errors, the same metric weights, saturation IOPS x10,
   each source file weighted equally), optionally jointly with the shipped
   data (the imported points then carry ``imported_share`` of the weight);
3. **reports** the median absolute % error per metric before and after, in
   sample and, with three or more points, held out (each fold refit without
   it), and which parameters moved.

Everything is generic over :data:`planner.models.params.PARAM_NAMES`: a parameter
added to the model is considered by the same rule.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import minimize

from planner.calibration.fit import METRICS, UNTHROTTLED_IOPS_WEIGHT, WEIGHTS
from planner.core import jsonio
from planner.core.errors import PlannerError
from planner.core.jsonio import read_bounded
from planner.core.paths import resolved
from planner.core.text import plural_of
from planner.engine import kernels
from planner.engine.performance import DesignArrays, WorkloadArrays, evaluate_arrays
from planner.models.params import (
    CALIBRATION_FILE,
    PARAM_BOUNDS,
    PARAM_NAMES,
    Calibration,
    ModelParams,
    check_params,
    load_calibration,
)

#: a parameter whose RMS scaled sensitivity is below this is not material:
#: a 10 % change moves the weighted log-predictions by < 0.5 % RMS, below
#: what repeated benchmark runs reproduce
DELTA_MIN = 0.05
#: largest collinearity index of the refit set (Brun et al. 2001: 10-15 is
#: the critical range; above it a combination of parameters is not pinned)
GAMMA_MAX = 10.0
SOFT_L1_SCALE = 0.3  # as the shipped calibration: quadratic below 30 % log error
STEP = 0.05  # finite-difference step, share of a parameter's scale
DEFAULT_IMPORTED_SHARE = 0.5
MAX_CALIBRATION_FILE_BYTES = 2_000_000

Progress = Callable[[float, str], object]  # what it returns is ignored


class RefitError(PlannerError):
    pass


# ------------------------------------------------------------------ data
@dataclass
class PointSet:
    """Arrays of measured points, ready for the model."""

    D: DesignArrays
    W: WorkloadArrays
    y: dict  # metric -> measured values that enter the fit (nan = left out)
    meas: dict  # metric -> every measured value (for error reports)
    unthrottled: np.ndarray
    weight: np.ndarray  # per point, before metric weights

    def __len__(self) -> int:
        return len(self.weight)


def _fittable_vm_latency(points) -> np.ndarray:
    """VM-layer latency enters only where nothing waits in a throttle (the
    shipped calibration's rule, :func:`planner.calibration.fit._fit_target`)."""
    from planner.calibration.fit import idle_vm

    return np.array([p.measured.get("unthrottled", 0.0) > 0 or idle_vm(p) for p in points])


def _group_weights(groups) -> np.ndarray:
    """Each group (source file / configuration) counts equally; mean 1."""
    _, inv, counts = np.unique(np.asarray(groups), return_inverse=True, return_counts=True)
    return (counts.mean() / counts)[inv]


def point_set(points) -> PointSet:
    D = DesignArrays.from_designs([p.design for p in points])
    W = WorkloadArrays.from_workloads([p.workload for p in points], D.nodes)
    meas = {m: np.array([p.measured.get(m, np.nan) for p in points], dtype=float) for m in METRICS}
    ok_vm = _fittable_vm_latency(points)
    y = {m: np.where(ok_vm, v, np.nan) if m.startswith(("vm_", "p99")) else v.copy() for m, v in meas.items()}
    unthr = np.array([p.measured.get("unthrottled", 0.0) > 0 for p in points])
    return PointSet(D, W, y, meas, unthr, _group_weights([p.group for p in points]))


def _concat(a: PointSet, b: PointSet, share_b: float) -> PointSet:
    """Both sets; ``b`` carries ``share_b`` of the total point weight."""

    def cat(x, y, cls):
        return cls(
            **{
                f.name: np.concatenate([np.atleast_1d(getattr(x, f.name)), np.atleast_1d(getattr(y, f.name))])
                for f in fields(cls)
            }
        )

    wa = a.weight / a.weight.sum() * (1.0 - share_b)
    wb = b.weight / b.weight.sum() * share_b
    w = np.concatenate([wa, wb])
    return PointSet(
        cat(a.D, b.D, DesignArrays),
        cat(a.W, b.W, WorkloadArrays),
        {m: np.concatenate([a.y[m], b.y[m]]) for m in METRICS},
        {m: np.concatenate([a.meas[m], b.meas[m]]) for m in METRICS},
        np.concatenate([a.unthrottled, b.unthrottled]),
        w / w.mean(),
    )


def _take(ps: PointSet, idx) -> PointSet:
    W = WorkloadArrays(**{f.name: np.asarray(getattr(ps.W, f.name))[idx] for f in fields(WorkloadArrays)})
    return PointSet(
        ps.D.take(idx),
        W,
        {m: v[idx] for m, v in ps.y.items()},
        {m: v[idx] for m, v in ps.meas.items()},
        ps.unthrottled[idx],
        ps.weight[idx],
    )


def shipped_point_set() -> PointSet:
    """The shipped calibration's in-scope points (as it fits them)."""
    from planner.calibration.benchdata import all_points

    return point_set([p for p in all_points() if p.in_scope])


# ------------------------------------------------------------- objective
def predict(ps: PointSet, vec) -> dict:
    return evaluate_arrays(ps.D, ps.W, ModelParams.from_vector(vec))


def residuals(ps: PointSet, vec) -> tuple[np.ndarray, np.ndarray]:
    """Log errors log(predicted / measured) of every fitted metric and their
    weights (metric weight x point weight, saturation IOPS x10)."""
    out = predict(ps, vec)
    res, wts = [], []
    for m in METRICS:
        y = ps.y[m]
        yhat = np.asarray(out[m], dtype=float)
        has = np.isfinite(y) & (y > 0)
        good = has & np.isfinite(yhat) & (yhat > 0)
        r = np.zeros_like(y)
        r[good] = np.log(yhat[good] / y[good])
        r[has & ~good] = 3.0  # a measurement the model cannot predict: a large error
        w = WEIGHTS[m] * ps.weight * np.where((m == "iops") & ps.unthrottled, UNTHROTTLED_IOPS_WEIGHT, 1.0)
        res.append(r)
        wts.append(np.where(has, w, 0.0))
    return np.concatenate(res), np.concatenate(wts)


def cost(ps: PointSet, vec) -> float:
    r, w = residuals(ps, vec)
    f = SOFT_L1_SCALE
    return float(np.sum(w * 2.0 * f * f * (np.sqrt(1.0 + (r / f) ** 2) - 1.0)))


def errors(ps: PointSet, vec) -> dict:
    """metric -> absolute % error per point (nan where not measured)."""
    out = predict(ps, vec)
    errs = {}
    for m in METRICS:
        y, yhat = ps.meas[m], np.asarray(out[m], dtype=float)
        ok = np.isfinite(y) & (y > 0)
        errs[m] = np.where(ok, np.abs(yhat / np.where(ok, y, 1.0) - 1.0) * 100.0, np.nan)
    return errs


def summarise(errs: dict, unthrottled: np.ndarray | None = None) -> dict:
    """metric -> median and p90 absolute % error and the number of points;
    ``iops_unthrottled`` judges IOPS where no rate limit sets it (a throttled
    step's IOPS equal its limit by construction)."""
    errs = dict(errs)
    if unthrottled is not None and "iops" in errs and np.any(unthrottled):
        errs["iops_unthrottled"] = np.where(unthrottled, errs["iops"], np.nan)
    out = {}
    for m, e in errs.items():
        v = e[np.isfinite(e)]
        if v.size:
            out[m] = {
                "median_abs_pct_error": round(float(np.median(v)), 2),
                "p90_abs_pct_error": round(float(np.percentile(v, 90)), 2),
                "points": int(v.size),
            }
    return out


# ----------------------------------------------------------- sensitivity
def _bounds():
    lo = np.array([PARAM_BOUNDS[k][1] for k in PARAM_NAMES], dtype=float)
    hi = np.array([PARAM_BOUNDS[k][2] for k in PARAM_NAMES], dtype=float)
    return lo, hi


def parameter_scale(vec) -> np.ndarray:
    """Scale of each parameter: its value, or 5 % of its range near zero."""
    lo, hi = _bounds()
    return np.maximum(np.abs(vec), 0.05 * (hi - lo))


def sensitivity(ps: PointSet, vec) -> np.ndarray:
    """Scaled sensitivity matrix S (observations x parameters) at ``vec``.

    Central differences of the weighted log-residuals, step ``STEP`` x scale,
    clipped to the bounds (one-sided at a bound). Rows: every fitted
    (point, metric) with weights normalised to mean 1.
    """
    lo, hi = _bounds()
    c = parameter_scale(vec)
    _r0, w = residuals(ps, vec)
    keep = w > 0
    sw = np.sqrt(w[keep] / w[keep].mean()) if keep.any() else np.zeros(0)
    S = np.zeros((int(keep.sum()), len(vec)))
    for j in range(len(vec)):
        up, dn = vec.copy(), vec.copy()
        up[j] = min(vec[j] + STEP * c[j], hi[j])
        dn[j] = max(vec[j] - STEP * c[j], lo[j])
        if up[j] == dn[j]:
            continue
        ru, _ = residuals(ps, up)
        rd, _ = residuals(ps, dn)
        S[:, j] = sw * (ru[keep] - rd[keep]) / (up[j] - dn[j]) * c[j]
    return S


def collinearity_index(S: np.ndarray) -> float:
    """Brun et al. (2001) gamma of the columns of S (unit-normalised)."""
    if S.shape[1] == 0:
        return 1.0
    norms = np.linalg.norm(S, axis=0)
    if np.any(norms == 0):
        return math.inf
    Sn = S / norms
    lam = np.linalg.eigvalsh(Sn.T @ Sn).min()
    return math.inf if lam <= 1e-12 else float(1.0 / math.sqrt(lam))


def choose_parameters(S: np.ndarray, names=PARAM_NAMES) -> tuple[list[str], dict, dict]:
    """Greedy identifiable subset: (chosen, reason per parameter, delta per parameter)."""
    n = max(S.shape[0], 1)
    delta = np.sqrt((S**2).sum(0) / n)
    order = np.argsort(-delta, kind="stable")
    chosen: list[int] = []
    reasons = {}
    for j in order:
        name = names[j]
        if delta[j] < DELTA_MIN:
            reasons[name] = (
                f"kept: not material on these points (sensitivity {delta[j]:.3f} < {DELTA_MIN}; "
                "they do not measure what it governs)"
            )
            continue
        g = collinearity_index(S[:, [*chosen, j]])
        if g > GAMMA_MAX:
            norms = np.linalg.norm(S[:, chosen], axis=0)
            cos = np.abs(S[:, chosen].T @ S[:, j]) / (norms * np.linalg.norm(S[:, j]))
            partner = names[chosen[int(np.argmax(cos))]] if chosen else "?"
            reasons[name] = (
                f"kept: collinear with {partner} on these points (collinearity index "
                f"{'inf' if math.isinf(g) else f'{g:.0f}'} > {GAMMA_MAX:g} with it in the set): "
                "the points cannot tell them apart"
            )
            continue
        chosen.append(int(j))
        reasons[name] = f"refit: sensitivity {delta[j]:.3f}, set collinearity index {g:.1f}"
    return [names[j] for j in chosen], reasons, {names[j]: float(delta[j]) for j in range(len(names))}


# ------------------------------------------------------------------- fit
def _fit(
    ps: PointSet,
    start: np.ndarray,
    free: list[int],
    max_nfev: int,
    progress: Progress | None = None,
    done: float = 0.0,
    span: float = 1.0,
):
    """Bounded Powell on the free parameters in scaled units (as the shipped
    calibration: the model is piecewise, which defeats finite-difference
    Jacobians)."""
    lo, hi = _bounds()
    c = parameter_scale(start)[free]
    calls = [0]

    def f(z):
        calls[0] += 1
        if progress and calls[0] % 25 == 0:
            progress(done + span * min(calls[0] / max_nfev, 1.0), f"refitting: {calls[0]} model evaluations")
        v = start.copy()
        v[free] = z * c
        return cost(ps, v)

    with kernels.for_repeated_calls():  # thousands of calls on a few dozen points
        res = minimize(
            f,
            start[free] / c,
            method="Powell",
            bounds=list(zip(lo[free] / c, hi[free] / c)),
            options={"maxfev": max_nfev, "xtol": 1e-3, "ftol": 1e-6},
        )
    v = start.copy()
    v[free] = np.clip(res.x * c, lo[free], hi[free])
    return v, res


def _folds(points, k_max: int = 5) -> list[np.ndarray]:
    """Held-out folds: by source file when there are 3..k_max files, else
    points dealt round-robin into up to ``k_max`` folds (none below 3 points)."""
    files = np.array([getattr(p, "source_file", "") or p.group for p in points])
    uniq = list(dict.fromkeys(files))
    if 3 <= len(uniq) <= k_max:
        return [np.flatnonzero(files == f) for f in uniq]
    k = min(k_max, len(points))
    return [np.arange(i, len(points), k) for i in range(k)] if k >= 3 else []


def refit(
    points,
    base: Calibration | None = None,
    with_shipped: bool = False,
    imported_share: float = DEFAULT_IMPORTED_SHARE,
    held_out: bool = True,
    max_nfev: int = 400,
    progress: Progress | None = None,
) -> dict:
    """Refit the parameters ``points`` identify; returns the calibration
    document (see :func:`calibration_document`) with a report of what moved."""
    if not points:
        raise RefitError("no measured points to refit on", "points")
    if not 0.0 < imported_share < 1.0:
        raise RefitError("must be between 0 and 1 (exclusive)", "imported_share")
    base = base or load_calibration()
    v0 = base.params.vector()
    imp = point_set(points)
    if progress:
        progress(0.02, "sensitivity of the imported points to each parameter")
    S = sensitivity(imp, v0)
    if S.shape[0] == 0:
        raise RefitError("the imported points carry no metric the model predicts (IOPS, latency or CPU)", "points")
    chosen, reasons, delta = choose_parameters(S)
    free = [PARAM_NAMES.index(n) for n in chosen]
    target = _concat(shipped_point_set(), imp, imported_share) if with_shipped else imp
    before_imp = errors(imp, v0)
    refit_files = sorted({getattr(p, "source_file", "") or p.group for p in points})
    k_max = 3 if with_shipped else 5  # a joint fold refits 1,100 shipped points too
    folds = _folds(points, k_max) if held_out else []
    n_folds = len(folds)
    span = 1.0 / (1 + n_folds)
    if free:
        v1, res = _fit(target, v0, free, max_nfev * len(free), progress, 0.05, 0.9 * span)
        nfev, converged = int(res.nfev), bool(res.success)
    else:
        v1, nfev, converged = v0.copy(), 0, True
    after_imp = errors(imp, v1)
    u = imp.unthrottled
    summary = {
        "imported": {
            "points": len(points),
            "in_sample_before": summarise(before_imp, u),
            "in_sample_after": summarise(after_imp, u),
        }
    }
    if held_out and free and n_folds:
        held = {m: np.full(len(points), np.nan) for m in METRICS}
        ship = shipped_point_set() if with_shipped else None
        for i, test in enumerate(folds):
            train = np.setdiff1d(np.arange(len(points)), test)
            tr = _take(imp, train)
            tr.weight = _group_weights([points[t].group for t in train])
            tgt = _concat(ship, tr, imported_share) if ship is not None else tr
            vf, _ = _fit(
                tgt, v1, free, max(50, max_nfev // 4) * len(free), progress, 0.05 + 0.9 * span * (1 + i), 0.9 * span
            )
            e = errors(_take(imp, test), vf)
            for m in METRICS:
                held[m][test] = e[m]
        summary["imported"]["held_out_after"] = summarise(held, u)
        summary["imported"]["held_out_method"] = (
            f"{n_folds} folds ({'one per source file' if n_folds == len(refit_files) else 'points dealt round-robin'}); "
            "each fold refit without its points, the same parameters chosen on all points"
        )
    elif held_out:
        summary["imported"]["held_out_after"] = None
        summary["imported"]["held_out_method"] = "not available: fewer than 3 points or nothing refit"
    if with_shipped:
        ship = shipped_point_set()
        summary["shipped"] = {
            "points": len(ship),
            "in_sample_before": summarise(errors(ship, v0), ship.unthrottled),
            "in_sample_after": summarise(errors(ship, v1), ship.unthrottled),
        }
    if progress:
        progress(1.0, "done")
    refit_info = {
        "base_version": base.version,
        "method": (
            "parameters chosen by local sensitivity at the shipped fit (RMS scaled sensitivity >= "
            f"{DELTA_MIN}, collinearity index <= {GAMMA_MAX:g}; Brun et al. 2001), refit by bounded "
            "Powell on the shipped calibration's objective from the shipped values"
        ),
        "with_shipped": with_shipped,
        "imported_share": imported_share if with_shipped else 1.0,
        "collinearity_index": collinearity_index(S[:, free]) if free else None,
        "parameters": [
            {
                "name": n,
                "shipped_value": float(v0[j]),
                "refit_value": float(v1[j]),
                "changed_pct": round(float((v1[j] / v0[j] - 1) * 100), 2) if v0[j] else None,
                "sensitivity": round(delta[n], 4),
                "refit_or_kept": "refit" if j in free else "kept",
                "reason": reasons[n],
            }
            for j, n in enumerate(PARAM_NAMES)
        ],
        "refit_names": chosen,
        "function_evaluations": nfev,
        "converged": converged,
        "files": refit_files,
    }
    return calibration_document(ModelParams.from_vector(v1), base, summary, refit_info)


def calibration_document(params: ModelParams, base: Calibration, summary: dict, refit_info: dict) -> dict:
    return _strict(
        {
            "version": f"{base.version}+refit",
            "note": "customer refit written by `python -m planner import --calibrate` (or the Calibration page); "
            "use with `python -m planner evaluate --calibration FILE`",
            "params": params.model_dump(),
            "bootstrap": [],
            "bootstrap_note": "empty on purpose: the shipped fit's bootstrap sets describe the shipped data's "
            "uncertainty, not this refit's, so they are not carried over and were not recomputed; "
            "predictions with this file carry no band",
            "summary": summary,
            "refit": refit_info,
        }
    )


def _strict(o):
    """JSON-ready copy: numpy scalars to Python, nan/inf to None."""
    if isinstance(o, dict):
        return {str(k): _strict(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [_strict(v) for v in o]
    if isinstance(o, (np.floating, float)):
        return float(o) if math.isfinite(float(o)) else None
    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.bool_):
        return bool(o)
    return o


def dumps(doc) -> str:
    """Strict JSON (no NaN/Infinity)."""
    return json.dumps(_strict(doc), indent=1, allow_nan=False)


# ------------------------------------------------------------- file in/out
def read_calibration(source: str | Path | bytes, name: str | None = None) -> Calibration:
    """A calibration file (shipped or refit) from a path or its bytes/text;
    size-limited, JSON only, every parameter checked against its bounds."""
    from pydantic import ValidationError

    if isinstance(source, (str, Path)) and not (isinstance(source, str) and source.lstrip().startswith("{")):
        p = Path(source)
        name = name or p.name
        # one open, regular files only, bounded: a FIFO, /dev/zero or a symlink loop is one error
        source = read_bounded(p, MAX_CALIBRATION_FILE_BYTES, "calibration", RefitError)
    name = name or "calibration"
    if len(source) > MAX_CALIBRATION_FILE_BYTES:
        raise RefitError(f"{name} is larger than {MAX_CALIBRATION_FILE_BYTES:,} bytes", "calibration")
    try:  # the safe reader: nesting, long integers and NaN/Infinity refused before they reach the fit
        doc = jsonio.loads(source, "calibration", RefitError, MAX_CALIBRATION_FILE_BYTES)
    except RefitError as exc:
        # its own field named once ("calibration: nj.txt is not valid JSON (calibration: not valid JSON ...)"), a
        # field inside the file kept ("size_tb: NaN is not allowed")
        raise RefitError(f"{name}: {exc.message if exc.field == 'calibration' else exc}", "calibration") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("params"), dict) or not isinstance(doc.get("version"), str):
        raise RefitError(f"{name} is not a calibration file (needs 'version' and 'params')", "calibration")
    missing = [k for k in PARAM_NAMES if k not in doc["params"]]
    if missing:
        raise RefitError(
            f"{name} lacks {plural_of(len(missing), 'parameter')} {', '.join(missing)} (written by an older planner? refit again)",
            "calibration",
        )
    extra = [k for k in doc["params"] if k not in PARAM_NAMES]
    if extra:
        raise RefitError(f"{name} has unknown {plural_of(len(extra), 'parameter')} {', '.join(extra)}", "calibration")
    check_params(doc["params"], name, RefitError)
    boot = doc.get("bootstrap") or []
    # the shipped file stores each set by parameter name
    if isinstance(boot, list) and all(isinstance(b, dict) for b in boot):
        if any(set(b) != set(PARAM_NAMES) for b in boot):
            raise RefitError(f"{name}: bootstrap sets must name every parameter", "calibration")
        boot = [[b[k] for k in PARAM_NAMES] for b in boot]
    if not isinstance(boot, list) or any(not isinstance(b, list) or len(b) != len(PARAM_NAMES) for b in boot):
        raise RefitError(f"{name}: bootstrap must be a list of {len(PARAM_NAMES)}-number parameter sets", "calibration")
    for i, b in enumerate(boot):  # each set within the fit's bounds, as the point parameters
        check_params(dict(zip(PARAM_NAMES, b)), f"{name}: bootstrap set {i + 1}", RefitError)
    try:
        return Calibration(
            version=doc["version"],
            params=ModelParams(**doc["params"]),
            bootstrap=boot,
            summary=doc.get("summary") or {},
        )
    except ValidationError as exc:
        raise RefitError(f"{name}: {exc.errors()[0]['msg']}", "calibration") from None


def calibration_target(path: str | Path) -> Path:
    """``path`` as a refit's calibration file may be written to it, or one line why not (``-``, the shipped
    calibration, a path nothing can be written to: :func:`planner.core.jsonio.write_target`); asked before the
    refit, so a bad ``--out`` is said at once, not after the fit."""
    if str(path) == "-":
        raise RefitError("must be a file path", "out")
    p = Path(path)
    if resolved(p, "out", RefitError) == CALIBRATION_FILE.resolve():
        raise RefitError("refusing to overwrite the shipped calibration; choose another file", "out")
    jsonio.write_target(p, "out", RefitError)
    return p


def write_calibration(doc: dict, path: str | Path) -> Path:
    p = calibration_target(path)
    jsonio.write_atomic(p, dumps(jsonio.without_wall_clock(doc)) + "\n", "out", RefitError)
    return p


# ------------------------------------------------------------- reports
_WORKLOAD_SHOWN = (
    "block_size_kib",
    "read_fraction",
    "random_fraction",
    "issuer",
    "vms_per_node",
    "vcpus_per_vm",
    "threads_per_vm",
    "outstanding_per_thread",
    "working_set_gb_per_vm",
    "iops_limit_per_vm",
)
_SHOWN = (*METRICS, "bandwidth_mb_s")


def _point_rows(points, preds: dict[str, dict]) -> list[dict]:
    rows = []
    for i, p in enumerate(points):
        row = {
            "file": getattr(p, "source_file", ""),
            "job": getattr(p, "job", ""),
            "format": getattr(p, "source_format", ""),
            "label": p.label,
            "note": p.note,
            "workload": {k: getattr(p.workload, k) for k in _WORKLOAD_SHOWN},
            "measured": {m: p.measured.get(m) for m in _SHOWN},
            "unthrottled": bool(p.measured.get("unthrottled", 0.0) > 0),
        }
        for tag, out in preds.items():
            pred = {m: float(np.ravel(out[m])[i]) for m in _SHOWN}
            row[f"predicted{tag}"] = pred
            row[f"error_pct{tag}"] = {
                m: round((pred[m] / y - 1.0) * 100.0, 2)
                if y is not None and math.isfinite(y) and y > 0 and math.isfinite(pred[m])
                else None
                for m, y in row["measured"].items()
            }
        rows.append(row)
    return rows


#: the measured metrics as a reader names them, and the unit of each (one table holds them all)
METRIC_LABELS = {
    "iops": "IOPS",
    "iops_unthrottled": "IOPS (unthrottled points)",
    "host_cpu_utilization": "host CPU",
    "read_latency_ms": "read latency (storage)",
    "write_latency_ms": "write latency (storage)",
    "vm_read_latency_ms": "read latency (tool)",
    "vm_write_latency_ms": "write latency (tool)",
    "p99_read_latency_ms": "p99 read latency (tool)",
}
METRIC_UNITS = {"iops": "IOPS", "iops_unthrottled": "IOPS", "host_cpu_utilization": "share of LPs busy (0-1)"}


def point_table(rows: list[dict], after: bool) -> list[dict]:
    """Measured vs predicted, one row per point and measured metric, from
    :func:`import_report`'s ``rows``: the table the Calibration page shows and
    downloads and ``import --format csv`` prints (``after``: with the refit's
    prediction and error)."""
    out = []
    for r in rows:
        for m, y in r["measured"].items():
            if y is None or m not in METRIC_LABELS:
                continue
            row = {
                "file": r["file"],
                "job": r["job"],
                "point": r["label"],
                "metric": METRIC_LABELS[m],
                "unit": METRIC_UNITS.get(m, "ms" if m.endswith("_ms") else ""),
                "measured": y,
                "predicted (shipped)": r["predicted"][m],
                "error % (shipped)": r["error_pct"][m],
            }
            if after:
                row["predicted (refit)"] = r["predicted_after"][m]
                row["error % (refit)"] = r["error_pct_after"][m]
            out.append(row)
    return out


#: an imported point is one of the shipped fit's own when a fitted point has its node count, block size and
#: read share and measured IOPS within this share of its own (the reference cluster's example file rounds none)
SAME_POINT_IOPS_REL = 0.005


def in_shipped_fit(points) -> np.ndarray:
    """Which imported points are the shipped calibration's own data (in sample for it).

    A point is when an in-scope benchmark point of the shipped fit has the same
    node count, block size [KiB] and read share and a measured IOPS within
    :data:`SAME_POINT_IOPS_REL` of its own. The shipped fit's error on such a
    point is in-sample error, not a check on data it never saw
    (``examples/import-measurements.csv`` is the reference cluster's 6 fitted
    points: its "error" was 4.69 % with no word that they were fitted).
    """
    from planner.calibration.benchdata import all_points

    shipped = [
        (p.design.nodes, float(p.workload.block_size_kib), float(p.workload.read_fraction), float(p.measured["iops"]))
        for p in all_points()
        if p.in_scope and np.isfinite(p.measured.get("iops", np.nan))
    ]

    def fitted(p) -> bool:
        y = p.measured.get("iops")
        if y is None or not np.isfinite(y) or y <= 0:
            return False
        key = (p.design.nodes, float(p.workload.block_size_kib), float(p.workload.read_fraction))
        return any(s[:3] == key and abs(s[3] / y - 1.0) <= SAME_POINT_IOPS_REL for s in shipped)

    return np.array([fitted(p) for p in points], dtype=bool)


def error_basis(n_fitted: int, n_points: int) -> str:
    """What the shipped fit's error on imported points is: in sample, held out, or partly each."""
    if n_fitted == 0:
        return "held out: none of these points is in the shipped fit"
    if n_fitted == n_points:
        return (
            f"in sample: {'the point is' if n_points == 1 else f'all {n_points} points are'} in the shipped fit "
            "(the calibration's own data), so this error is not a check on data the fit never saw"
        )
    return (
        f"partly in sample: {n_fitted} of {n_points} points are in the shipped fit (the calibration's own data); "
        "the error mixes fitted and unseen points"
    )


def import_report(
    points,
    base: Calibration | None = None,
    calibrate: bool = False,
    with_shipped: bool = False,
    imported_share: float = DEFAULT_IMPORTED_SHARE,
    held_out: bool = True,
    progress: Progress | None = None,
) -> dict:
    """The measured points, the model's predictions and errors on them, and
    with ``calibrate`` the refit (``calibration_file`` holds the document)."""
    base = base or load_calibration()
    ps = point_set(points)
    before = predict(ps, base.params.vector())
    files: dict[str, dict[str, Any]] = {}
    for p in points:
        f = files.setdefault(p.source_file, {"file": p.source_file, "format": p.source_format, "points": 0})
        f["points"] += 1
    out = {
        "calibration": base.version,
        "designs": sorted({p.design.design.name for p in points}),
        "files": list(files.values()),
        "points": len(points),
        "error": summarise(errors(ps, base.params.vector()), ps.unthrottled),
    }
    if not base.version.endswith("+refit"):  # a customer refit's own points are another matter
        fitted = in_shipped_fit(points)
        out["error_in_shipped_fit_points"] = int(fitted.sum())
        out["error_basis"] = error_basis(int(fitted.sum()), len(points))
    preds = {"": before}
    if calibrate:
        t0 = time.perf_counter()
        doc = refit(points, base, with_shipped, imported_share, held_out, progress=progress)
        # the wall-clock time is the report's, never the calibration file's (same input, same file)
        seconds = round(time.perf_counter() - t0, 2)
        preds["_after"] = predict(ps, ModelParams(**doc["params"]).vector())
        out["refit"] = {"summary": doc["summary"], **doc["refit"], "seconds": seconds}
        out["calibration_file"] = doc
    out["rows"] = _point_rows(points, preds)
    return _strict(out)


def evaluate_with_calibration(
    cal: Calibration, design, workload=None, catalog=None, degraded: bool = True, service_months: float | None = None
) -> dict:
    """:func:`planner.results.report.evaluate_report` with a calibration file's
    parameters; the band comes from the file's own bootstrap sets, and is the
    point itself when the file has none (a refit's band is not the shipped one)."""
    from planner.models.catalog import load_catalog
    from planner.models.design import resolve
    from planner.physics.endurance import DEFAULT_SERVICE_MONTHS
    from planner.results.report import BAND_HIGH, BAND_LOW, evaluate_report, performance

    months = DEFAULT_SERVICE_MONTHS if service_months is None else service_months
    rep = evaluate_report(
        design, workload, catalog=catalog, degraded=degraded, params=cal.params, service_months=months
    )
    rep["calibration"] = {"version": cal.version}
    if workload is None:
        return rep
    keys = [k[: -len("_low")] for k in rep if k.endswith("_low") and k[: -len("_low")] in rep]
    if cal.bootstrap:
        rd = resolve(design, catalog or load_catalog())
        draws = [performance(rd, workload, b, band=False) for b in cal.bootstrap_params()]
        for k in keys:
            if rep[k] is None:  # no such figure (an IO class the workload does not issue): its note says why
                continue
            # a draw the model could not evaluate is null in its report: left out of the band
            vals = np.array([np.nan if d.get(k) is None else d[k] for d in draws], dtype=float)
            lo, hi = np.nanpercentile(vals, [BAND_LOW, BAND_HIGH]) if np.isfinite(vals).any() else (rep[k], rep[k])
            rep[f"{k}_low"], rep[f"{k}_high"] = float(min(lo, rep[k])), float(max(hi, rep[k]))
        rep["calibration"]["band"] = f"5-95 % over the file's {len(cal.bootstrap)} bootstrap parameter sets"
    else:
        for k in keys:
            rep[f"{k}_low"] = rep[f"{k}_high"] = rep[k]
        rep["calibration"]["band"] = "none: the calibration file carries no bootstrap sets (band = point)"
    return rep
