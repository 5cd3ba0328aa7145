"""Queueing solvers, vectorised over candidate designs.

The cluster is a closed queueing network: each VM keeps ``n`` IOs outstanding
(threads x queue depth) and every IO visits the VM's vCPUs, the host CPUs, the
network, the cache and the capacity drives. A station is described by

* ``demand_s`` -- queueing demand per IO, seconds: the time the resource is
  busy per IO divided by its number of parallel servers (for a pooled resource
  this is 1 / its IO capacity, so the utilisation law U = X * D holds);
* ``share`` -- how many VMs share the station: 1 for a VM's own vCPUs, V for
  resources shared by all V VMs.

Fixed latencies (device access time, software path, wire) are pure delays
(``delay_s``): they add to the cycle time but never queue.

Formulas
--------
* Utilisation law: U_k = X * D_k (Denning & Buzen, 1978).
* Little's law: N = X * R (Little, 1961).
* Approximate MVA for V symmetric classes (Schweitzer, 1979; Bard, 1979):
  an arriving IO sees the station's mean queue minus its own share,
  ``R_k = D_k * (1 + x * R_k * (S_k - 1/n))`` with x the per-VM throughput,
  ``x = n / (Z + sum_k R_k)``.
* Exact MVA (Reiser & Lavenberg, 1980) for one class, used to check the
  approximation in tests.
* Open network, M/G/1 per station (Pollaczek-Khinchine; Kleinrock, 1975): an
  IO visiting station k waits ``x S E[d^2] / (1 - U_k)``, the job kinds it may
  find each exponential with their own mean (E[S^2] = 2 s^2), then is served
  for its own class's demand.
* Multi-class FCFS in MVA: the queueing delay is the same for every class that
  visits the station, each queued IO counting its own class's service, so
  W = x c E[d^2] / (1 - x c Dbar) (Bard, 1979, per class); each class adds its
  own service. The mixed mean (Dbar^2 / pv for E[d^2]) undercounts it where the
  classes' demands differ.
* Percentiles: latency is assumed Gamma-distributed with the model's mean and a
  squared coefficient of variation fitted to measured p90/p99 (see
  :mod:`planner.calibration.fit`).
"""

from __future__ import annotations

import functools
import math

import numpy as np

_EPS = 1e-15


def lp_wait_factor(u):
    """M/M/1 waiting factor U / (1 - U) of a logical processor busy a share U of
    the time (Kleinrock, 1975), with U held below 0.99 so it stays finite."""
    u = np.minimum(np.asarray(u, dtype=float), 0.99)
    return u / (1.0 - u)


def fork_join_factor(u, branches, derivative: bool = False):
    """Mean of the longest of ``branches`` independent M/M/1 waits over the
    mean of one, at utilisation U (held below 0.99 as in :func:`lp_wait_factor`).

    An M/M/1 FCFS wait with service time s is 0 with probability 1 - U and
    otherwise exponential with mean s / (1 - U): P(W > t) = U exp(-(1 - U) t / s)
    (Kleinrock, 1975, eq. 3.28). The largest of k independent such waits has
    P(max <= t) = (1 - U exp(-a t))^k, a = (1 - U) / s, so by the binomial
    theorem

        E[max] = s / (1 - U) * sum_{j=1..k} C(k, j) (-1)^(j+1) U^j / j

    and the factor returned is that sum over U: k at light load (any of the k
    may wait), the harmonic number H_k as U -> 1 (the order statistics of
    exponentials; David & Nagaraja, *Order Statistics*, 2003, 4.6). A mirrored
    or parity write completes when every copy has (a fork-join; Nelson &
    Tantawi, *IEEE Trans. Computers* 37(6), 1988): its copies are processed on
    different servers' logical processors, hence independent waits. Arrivals
    shared by the branches correlate them a little, which Nelson and Tantawi
    find lowers the mean by under 1/12 for two branches: this is the upper end.

    Parameters
    ----------
    u : array
        Utilisation of the logical processors, 0..1.
    branches : array
        Parallel branches the IO waits for (1: no fork-join, factor 1).
    derivative : bool
        Also return d(factor)/dU.
    """
    u = np.minimum(np.asarray(u, dtype=float), 0.99)
    return polynomial_at(fork_join_polynomial(branches), u, derivative)


def polynomial_at(coefs, u, derivative: bool = False):
    """sum_j coefs[j] u^j by Horner's rule (and its derivative in u)."""
    val, d = coefs[-1], 0.0
    for c in coefs[-2::-1]:
        if derivative:
            d = val + u * d
        val = c + u * val
    val = val + 0.0 * u  # the shape of u and the coefficients together
    return (val, d + 0.0 * val) if derivative else val


def fork_join_polynomial(branches):
    """Coefficients a_1..a_kmax of :func:`fork_join_factor` as a polynomial in
    U, factor = sum_j a_j U^(j-1), a_j = C(k, j) (-1)^(j+1) / j (zero past k):
    the solvers evaluate it by Horner's rule inside their iterations."""
    k = np.asarray(branches, dtype=float)
    kmax = int(np.max(k)) if k.size else 1
    out, c = [], np.ones_like(k)
    for j in range(1, kmax + 1):
        c = c * (k - j + 1) / j
        out.append((1.0 if j % 2 else -1.0) * c / j)
    return out


def schweitzer_symmetric(
    path_s, mix, background_s, share, n, delay_s, iterations: int | None = None, tol: float = 1e-18, lp_wait=None
):
    """Approximate MVA for V identical VMs, each with ``n`` IOs outstanding.

    Parameters
    ----------
    path_s : array (..., C, K)
        Queueing demand of an IO of class c (read, write) at station k on the
        IO's own path, seconds (busy time / parallel servers).
    mix : array (..., C)
        Share of IOs of each class (sums to 1).
    background_s : array (..., K)
        Work per IO done off the IO's path (cache destage, parity rotation),
        seconds; it loads the station without adding to that IO's latency.
    share : array (..., K)
        VMs sharing each station (1 = private to the VM, V = shared by all).
    n : array (...)
        IOs outstanding per VM (threads x queue depth), >= 1.
    delay_s : array (..., C)
        Pure delay per IO of each class (fixed latencies), seconds.
    lp_wait : tuple (coef (..., C), u0 (...), slope (...)[, branches (..., C)]), optional
        A load-dependent delay: class c waits ``coef_c * U / (1 - U)`` seconds
        with ``U = u0 + slope * x`` (a CPU's utilisation, linear in the per-VM
        rate x: the utilisation law), times :func:`fork_join_factor` of its
        ``branches`` (default 1: none). It is part of the cycle, so the fixed
        point and Little's law include it.

    Returns
    -------
    x : array (...)
        Throughput per VM, IO/s (Little's law holds: n = x * sum_c mix_c R_c).
    r : array (..., C, K)
        Residence time per IO at each station, seconds.

    Notes
    -----
    Background work is a "shadow" load: path demands are stretched by
    1 / (1 - U_bg) (the station serves path IO at the capacity left over),
    a standard approximation for priority-free background work (Lazowska et
    al., *Quantitative System Performance*, 1984, ch. 8 on shadow servers).
    """
    d = np.asarray(path_s, dtype=float)
    p = np.asarray(mix, dtype=float)
    bg = np.asarray(background_s, dtype=float)
    s = np.asarray(share, dtype=float)
    n = np.asarray(n, dtype=float)
    z = np.asarray(delay_s, dtype=float)
    coef = np.maximum(s - 1.0 / n[..., None], 0.0)
    total = (p[..., :, None] * d).sum(-2) + bg
    x_max = 1.0 / np.maximum((total * s).max(-1), _EPS)
    # The fixed point x = n / R(x) is unique: x * R(x) grows with x. Solve it by
    # bisection on [0, x_max], which converges where damped substitution can
    # stall near saturation.
    lo = np.zeros_like(x_max)
    hi = x_max.copy()
    # only the class-mixed demand per station matters for x: the mean residence
    # sum_c p_c R_ck equals Rbar_k, so the search runs on (..., K) arrays
    dpath = (p[..., :, None] * d).sum(-2)
    # second moment of the demand an arriving IO finds queued (classes differ)
    d2 = (p[..., :, None] * d * d).sum(-2)
    _, pv = _visits(d, p)
    zbar = (p * z).sum(-1)
    if lp_wait is not None:
        w_coef, u0, u_slope = (np.asarray(a, dtype=float) for a in lp_wait[:3])
        branches = np.asarray(lp_wait[3] if len(lp_wait) > 3 else 1.0, dtype=float)
        w_coef = w_coef * np.ones_like(branches)

        def wait_at(x):  # (..., C) seconds
            u = (u0 + u_slope * x)[..., None]
            return w_coef * lp_wait_factor(u) * fork_join_factor(u, branches)

        def zbar_at(x):
            return zbar + (p * wait_at(x)).sum(-1)
    else:

        def zbar_at(x):
            return zbar

    has_bg = bool(np.any(bg > 0))
    # asymptotic bound X <= n / (D + Z) narrows the bracket; a fixed number of
    # halvings reaches the tolerance (relative to the bracket) without a check:
    # 60 by default, the root to the last bits (the reference for
    # symmetric_throughput, which gets there by Newton's method)
    hi = np.minimum(hi, n / np.maximum(dpath.sum(-1) + zbar, _EPS))
    steps = iterations or int(np.ceil(np.log2(1.0 / tol)))
    cd = coef * dpath
    for _ in range(steps):
        mid = 0.5 * (lo + hi)
        xm = mid[..., None]
        if has_bg:
            f = 1.0 - np.minimum(xm * s * bg, 0.999)
            dbar, e2 = dpath / f, d2 / (f * f)
            rbar = dbar + pv * xm * coef * e2 / np.maximum(1.0 - xm * coef * dbar, 1e-9)
        else:
            rbar = dpath + pv * xm * coef * d2 / np.maximum(1.0 - xm * cd, 1e-9)
        below = n > mid * (rbar.sum(-1) + zbar_at(mid))  # population not yet placed: fixed point above mid
        lo = np.where(below, mid, lo)
        hi = np.where(below, hi, mid)
    # lo never overshoots the fixed point: x * R(x) <= n there. The few IOs the
    # bracket leaves unplaced (all of them past saturation, where the
    # approximation cannot place them) wait at the bottleneck, so utilisation
    # stays <= 1 and Little's law closes exactly: n = x * R.
    x_out = np.where(lo > 0, lo, hi * 0.5)
    _, r = _schweitzer_step(d, p, bg, s, coef, n, z, x_out, np.inf)
    if lp_wait is not None:
        z = z + wait_at(x_out)
    mean_r = (p * (r.sum(-1) + z)).sum(-1)
    extra = unplaced(n / x_out, mean_r)
    k_star = (total * s).argmax(-1)
    onehot = np.arange(d.shape[-1]) == k_star[..., None]
    visit, pv = _visits(d, p)
    vk = (visit * onehot[..., None, :]).sum(-1)  # (..., C): does class c visit k*?
    pvk = (pv * onehot).sum(-1)
    add = extra[..., None] * np.where(pvk[..., None] > 0, vk / np.maximum(pvk, _EPS)[..., None], 1.0)
    r = r + add[..., :, None] * onehot[..., None, :]
    return x_out, r


def symmetric_throughput(
    dpath, s0, share, bg4, n, zbar, wbar, u0, slope, x_max, max_iter: int = 60, wfj=0.0, branches=1.0, disp=None
):
    """Per-VM throughput of :func:`schweitzer_symmetric`, on one 1-D array per
    station (the layout :func:`planner.engine.performance.evaluate_arrays` computes in).

    ``dpath`` holds the K class-mixed path demands; station 0 (the VM's vCPUs)
    is shared by ``s0`` VMs, the others by ``share``; only the last station
    carries background work ``bg4``. ``zbar`` and ``wbar`` are the class-mixed
    delay and LP-wait coefficient, ``u0 + slope * x`` the LP utilisation, and
    ``x_max`` the capacity bound. The part ``wfj`` of ``wbar`` waits for the
    longest of ``branches`` LP waits (:func:`fork_join_factor`): the LP wait is
    ``U / (1 - U) * (wbar + wfj * (factor - 1))``. ``disp`` (K arrays, or
    None for zeros) is each station's demand dispersion pv E[d^2] - Dbar^2
    over the classes (zero where the classes that visit have equal demands):
    the class-dependent FCFS wait of :func:`schweitzer_symmetric` adds
    ``x c disp / (f^2 (1 - x c Dbar / f))`` to the station's mean residence.

    Same fixed point and bracket as :func:`schweitzer_symmetric`, found by
    Newton's method on g(x) = x R(x) - n from the bracket's upper end: g is
    increasing and convex there (x times a sum of increasing convex terms), so
    the iterates fall monotonically onto the root, quadratically once close;
    a step that leaves the bracket (where a clamp bends g) halves it instead.
    Stops when no row moves by more than 1e-15 relative.
    """
    coef0 = np.maximum(s0 - 1.0 / n, 0.0)
    coef = np.maximum(share - 1.0 / n, 0.0)
    dsum = dpath[0]
    for d in dpath[1:]:
        dsum = dsum + d
    hi = np.minimum(x_max, n / np.maximum(dsum + zbar, _EPS))
    shape = np.broadcast_shapes(
        hi.shape, *(np.shape(v) for v in (*dpath, s0, share, bg4, n, zbar, wbar, slope, u0, wfj, branches))
    )
    hi = np.broadcast_to(hi, shape).reshape(-1)
    rows = hi.shape
    sbg = share * bg4
    c0d0 = coef0 * dpath[0]
    cd = [coef * d for d in dpath[1:-1]]
    cd4 = coef * dpath[-1]

    # Start from the root of a one-queue approximation: the station with the
    # nearest pole, d_b / (1 - a_b x), plus every other term at its no-load
    # value. It undercounts R, so its root is at or above the true one (Newton
    # then falls monotonically) and it is close wherever one station binds.
    a = [c0d0, *cd, sbg + cd4]
    a_b, d_b = a[0], dpath[0]
    for ak, dk in zip(a[1:], dpath[1:]):
        bigger = ak > a_b
        a_b, d_b = np.where(bigger, ak, a_b), np.where(bigger, dk, d_b)
    u = np.minimum(u0 + 0.0 * slope, 0.99)
    # the LP-wait coefficient as a polynomial in U: wbar + wfj * (factor - 1)
    wpoly = (
        [wbar]
        if np.ndim(wfj) == 0 and wfj == 0.0
        else [(wbar + wfj * (a - 1.0)) if j == 0 else wfj * a for j, a in enumerate(fork_join_polynomial(branches))]
    )
    c_rest = dsum - d_b + zbar + polynomial_at(wpoly, u) * (u / (1.0 - u))
    b = c_rest + d_b + n * a_b
    x = np.minimum(hi, 2.0 * n / (b + np.sqrt(np.maximum(b * b - 4.0 * a_b * c_rest * n, 0.0))))

    # per-row terms; rows leave the arrays once converged
    names = (
        "d0",
        "d1",
        "d2",
        "d3",
        "d4",
        "c0d0",
        "cd1",
        "cd2",
        "cd3",
        "cd4",
        "coef",
        "share",
        "bg4",
        "sbg",
        "zbar",
        "slope",
        "n",
        "u0",
        *tuple(f"w{j}" for j in range(len(wpoly))),
    )
    P = dict(zip(names, (*dpath, c0d0, *cd, cd4, coef, share, bg4, sbg, zbar, slope, n, u0, *wpoly)))
    P["nw"] = len(wpoly)  # a count, not a per-row term: _take and the broadcast below leave it as it is
    # coef x dispersion per station, only where some row has one
    if disp is not None:
        for k, v in enumerate(disp):
            if np.any(v != 0.0):
                P[f"cX{k}"] = (coef0 if k == 0 else coef) * v
    P = {k: (np.broadcast_to(v, shape).reshape(-1) if np.ndim(v) else v) for k, v in P.items()}
    x = np.broadcast_to(x, rows)
    out = np.empty(rows)
    pos = np.arange(x.size)
    lo = np.zeros(rows)
    hi = hi.copy()
    for _ in range(max_iter):
        acc, dacc = _cycle(x, P)
        nn = P["n"]
        g = x * acc - nn
        below = g < 0
        lo = np.where(below, x, lo)
        hi = np.where(below, hi, x)
        # Newton on 1/R(x) - x/n (same root): a pole d/(1 - a x) is linear there
        nxt = x + (1.0 / acc - x / nn) / (dacc / (acc * acc) + 1.0 / nn)
        nxt = np.where((nxt >= lo) & (nxt <= hi), nxt, 0.5 * (lo + hi))
        # the bracket's top already places too few IOs: the bound is the root
        nxt = np.where(below & (x >= hi), x, nxt)
        step = np.abs(nxt - x)
        # quadratic convergence: after a step below 1e-11 the next is below
        # ~1e-20 x the curvature, so the stepped-to point is the root unless g
        # is steep there (elasticity x g'/n above 1e3): settled as below
        early = (step <= 1e-11 * x) & (x * (acc + x * dacc) <= 1e3 * nn)
        x = np.where(early, nxt, x)
        moving = (step > 1e-15 * x) & ~early
        n_moving = int(np.count_nonzero(moving))
        # rows leave (the arrays shrink) only when many have converged and
        # the arrays are long enough for the copies to pay
        if n_moving and (n_moving > 0.75 * moving.size or moving.size < 1024):
            x = nxt
            continue
        # converged rows leave with the point last evaluated; like the
        # bisection's lower end it must not place more than n IOs (x R <= n):
        # where g is so steep that neighbouring floats straddle the root, step
        # down to the first float below it (the rest wait at the bottleneck,
        # see schweitzer_symmetric)
        done = ~moving
        xd = x[done]
        steep = (g[done] > 1e-13 * (nn[done] if np.ndim(nn) else nn)) & ~early[done]
        if steep.any():
            sub = _take(P, np.flatnonzero(done)[steep])
            xs = xd[steep]
            for j in range(8):
                over = xs * _cycle(xs, sub, False)[0] > sub["n"]
                if not over.any():
                    break
                xs = np.where(over, xs * (1.0 - 2.0 ** (j - 52)), xs)
            xd[steep] = xs
        out[pos[done]] = xd
        if not n_moving:
            return out.reshape(shape)
        keep = np.flatnonzero(moving)
        P = _take(P, keep)
        pos, x, lo, hi = pos[keep], nxt[keep], lo[keep], hi[keep]
    out[pos] = x
    return out.reshape(shape)


def _take(P: dict, idx) -> dict:
    return {k: (v[idx] if np.ndim(v) else v) for k, v in P.items()}


def _cycle(x, P, derivative=True):
    """R(x) = sum_k Rbar_k(x) + Z(x) of :func:`symmetric_throughput`'s
    fixed point, and its derivative."""
    c0d0 = P["c0d0"]
    den = np.maximum(1.0 - x * c0d0, 1e-9)
    rb = P["d0"] / den
    acc = rb
    if derivative:
        dacc = rb * (c0d0 / den)
    for d, c in ((P["d1"], P["cd1"]), (P["d2"], P["cd2"]), (P["d3"], P["cd3"])):
        den = np.maximum(1.0 - x * c, 1e-9)
        rb = d / den
        acc = acc + rb
        if derivative:
            dacc = dacc + rb * (c / den)
    e = x * P["share"] * P["bg4"]  # in this order, as every other path: 1 - e can cancel
    f = 1.0 - np.minimum(e, 0.999)
    dbar = P["d4"] / f
    den = np.maximum(1.0 - x * P["coef"] * dbar, 1e-9)
    rb = dbar / den
    acc = acc + rb
    slope = P["slope"]
    uu = P["u0"] + slope * x
    ucl = np.minimum(uu, 0.99)
    q = 1.0 / (1.0 - ucl)
    # class-dependent FCFS: each station's dispersion term, x cX / (f^2 den)
    for k, c in ((0, c0d0), (1, P["cd1"]), (2, P["cd2"]), (3, P["cd3"])):
        cx = P.get(f"cX{k}")
        if cx is not None:
            dn = np.maximum(1.0 - x * c, 1e-9)
            acc = acc + x * cx / dn
            if derivative:
                dacc = dacc + cx / (dn * dn)
    cx4 = P.get("cX4")
    if cx4 is not None:
        h = f * f * den
        acc = acc + x * cx4 / h
        if derivative:
            sb = np.where(e < 0.999, P["sbg"], 0.0)
            dh = -2.0 * f * sb - P["cd4"] * f + x * P["cd4"] * sb
            dacc = dacc + cx4 * (h - x * dh) / (h * h)
    # LP-wait coefficient wbar + wfj * (fork-join factor - 1), a polynomial in U, and its derivative
    wtot, dw = polynomial_at([P[f"w{j}"] for j in range(P["nw"])], ucl, derivative=True)
    acc = acc + (P["zbar"] + wtot * (ucl * q))
    if not derivative:
        return acc, None
    # d/dx of d4 / (f - x c d4), where the background clamp is inactive
    dacc = dacc + rb * ((np.where(e < 0.999, P["sbg"], 0.0) + P["cd4"]) / (den * f))
    dacc = dacc + np.where(uu < 0.99, slope * (wtot * q * q + dw * (ucl * q)), 0.0)
    return acc, dacc


def unplaced(cycle_s, mean_r_s):
    """Cycle time the fixed point leaves unexplained, seconds: n / x - R(x),
    nonzero only past saturation (the root pinned at the capacity bound).
    Below 1e-13 of the cycle it is the root's rounding, not IOs: zero (else a
    station few IOs visit, whose share divides it, would amplify the noise)."""
    extra = cycle_s - mean_r_s
    return np.where(extra > 1e-13 * cycle_s, extra, 0.0)


def schweitzer_residence(path_s, mix, background_s, share, n, x):
    """Residence times (..., C, K), seconds, of the symmetric MVA recursion at a
    given per-VM rate ``x`` below the population's own throughput.

    A throttle at the issuer (a rate limit) holds the rest of the population
    outside the service path, so x * R(x) <= n and Little's law holds.
    """
    d = np.asarray(path_s, dtype=float)
    p = np.asarray(mix, dtype=float)
    s = np.asarray(share, dtype=float)
    n = np.asarray(n, dtype=float)
    coef = np.maximum(s - 1.0 / n[..., None], 0.0)
    zero = np.zeros(d.shape[:-1])
    _, r = _schweitzer_step(
        d, p, np.asarray(background_s, dtype=float), s, coef, n, zero, np.asarray(x, dtype=float), np.inf
    )
    return r


def _visits(d, p):
    """Which classes visit each station (demand > 0) and the share of IOs that do."""
    visit = (d > 0).astype(float)
    pv = (p[..., :, None] * visit).sum(-2)
    return visit, pv


def _schweitzer_step(d, p, bg, s, coef, n, z, x, x_max):
    u_bg = np.minimum(x[..., None] * s * bg, 0.999)
    dp = d / (1.0 - u_bg)[..., None, :]
    dbar = (p[..., :, None] * dp).sum(-2)
    e2 = (p[..., :, None] * dp * dp).sum(-2)
    # FCFS with class-dependent service (Bard 1979, per class): an arriving IO
    # waits for the IOs it finds, each for its own class's service. It finds
    # x c p_j R_j of class j, so W = x c sum_j p_j (d_j + W) d_j, i.e.
    # W = x c E[d^2] / (1 - x c Dbar): the same for every class that visits
    # (the mixed mean, Dbar^2 / pv in place of E[d^2], undercounts it when
    # the classes' demands differ: long IOs are over-represented in a queue)
    denom = np.maximum(1.0 - x[..., None] * coef * dbar, 1e-9)
    wait = x[..., None] * coef * e2 / denom
    visit, _pv = _visits(d, p)
    r = dp + visit * wait[..., None, :]
    rc = r.sum(-1) + z
    x_out = np.minimum(n / np.maximum((p * rc).sum(-1), _EPS), x_max)
    return x_out, r


def exact_mva(demand_s, delay_s, n: int):
    """Exact single-class MVA (Reiser & Lavenberg 1980) for load-independent stations.

    Returns throughput X (IO/s) and residence times R_k (s) at population n.
    """
    d = np.asarray(demand_s, dtype=float)
    q = np.zeros_like(d)
    x = 0.0
    r = d.copy()
    for k in range(1, n + 1):
        r = d * (1.0 + q)
        x = k / (delay_s + r.sum())
        q = x * r
    return x, r


def open_residence(path_s, mix, background_s, share, x_per_vm):
    """Open-network residence times at per-VM rate ``x_per_vm`` (M/M/1 per station).

    Same arguments as :func:`schweitzer_symmetric`. Returns residence
    (..., C, K) in seconds and utilisation (..., K); a station at or beyond
    saturation gets ``inf`` residence.
    """
    d = np.asarray(path_s, dtype=float)
    p = np.asarray(mix, dtype=float)
    s = np.asarray(share, dtype=float)
    x = np.asarray(x_per_vm, dtype=float)[..., None]
    bg = np.asarray(background_s, dtype=float)
    total = (p[..., :, None] * d).sum(-2) + bg
    u = x * s * total
    with np.errstate(divide="ignore", invalid="ignore"):
        stretch = np.where(u < 1.0, 1.0 / np.maximum(1.0 - u, _EPS), np.inf)
    # M/G/1 FCFS (Pollaczek-Khinchine): W = sum_i lambda_i E[S_i^2] / (2 (1 - U))
    # over the job kinds the station serves, each exponential (E[S^2] = 2 s^2):
    # every class's IOs and, at the drives, one background job per IO
    visit, _pv = _visits(d, p)
    e2 = (p[..., :, None] * d * d).sum(-2) + bg * bg
    wait = np.where(u < 1.0, x * s * e2 * stretch, np.inf)
    with np.errstate(invalid="ignore"):
        r = np.where(d > 0, d + visit * wait[..., None, :], 0.0)
    return r, u


def gamma_quantile(mean, cv2, p):
    """Quantile ``p`` of a Gamma distribution with the given mean and squared CV.

    Shape k = 1 / cv2, scale = mean * cv2 (the exponential has cv2 = 1).
    """
    mean = np.asarray(mean, dtype=float)
    cv2 = np.maximum(np.asarray(cv2, dtype=float), 1e-6)
    k = 1.0 / cv2
    if k.ndim == 0:
        g = gammaincinv(float(k), p)
    else:  # a handful of distinct shapes (one per parameter set)
        uniq, inv = np.unique(k, return_inverse=True)
        g = np.array([gammaincinv(float(a), p) for a in uniq])[inv].reshape(k.shape)
    return g * mean / k


def gammainc(a: float, x: float) -> float:
    """Regularised lower incomplete gamma P(a, x): its series below x = a + 1,
    else 1 - Q(a, x) from Legendre's continued fraction by the modified Lentz
    method (Press et al., *Numerical Recipes*, 3rd ed., 6.2)."""
    if x <= 0.0:
        return 0.0
    front = math.exp(-x + a * math.log(x) - math.lgamma(a))
    if x < a + 1.0:
        term = total = 1.0 / a
        ap = a
        for _ in range(1000):
            ap += 1.0
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-17:
                break
        return total * front
    tiny = 1e-300
    b = x + 1.0 - a
    c, d = 1.0 / tiny, 1.0 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-17:
            break
    return 1.0 - front * h


@functools.lru_cache(maxsize=256)
def gammaincinv(a: float, p: float) -> float:
    """x with P(a, x) = p (the inverse of :func:`gammainc`), for a > 0 and
    0 < p < 1: Halley's method from the starting point of Numerical Recipes'
    ``invgammp`` (3rd ed., 6.2.1), to about 1e-14 relative. Pure Python, so
    the model does not import scipy.special (a fifth of the CLI's start-up)."""
    if not 0.0 < p < 1.0:
        return 0.0 if p <= 0.0 else math.inf
    a1 = a - 1.0
    gln = math.lgamma(a)
    if a > 1.0:
        lna1 = math.log(a1)
        afac = math.exp(a1 * (lna1 - 1.0) - gln)
        pp = p if p < 0.5 else 1.0 - p
        t = math.sqrt(-2.0 * math.log(pp))
        x = (2.30753 + t * 0.27061) / (1.0 + t * (0.99229 + t * 0.04481)) - t
        if p < 0.5:
            x = -x
        x = max(1e-3, a * (1.0 - 1.0 / (9.0 * a) - x / (3.0 * math.sqrt(a))) ** 3)
    else:
        t = 1.0 - a * (0.253 + a * 0.12)
        x = (p / t) ** (1.0 / a) if p < t else 1.0 - math.log(1.0 - (p - t) / (1.0 - t))
    for _ in range(100):
        if x <= 0.0:
            return 0.0
        err = gammainc(a, x) - p
        if a > 1.0:
            dens = afac * math.exp(-(x - a1) + a1 * (math.log(x) - lna1))
        else:
            dens = math.exp(-x + a1 * math.log(x) - gln)
        step = err / dens
        x -= step / (1.0 - 0.5 * min(1.0, step * (a1 / x - 1.0)))
        if x <= 0.0:
            x = 0.5 * (x + step)
        if abs(step) < 1e-15 * x:
            break
    return x
