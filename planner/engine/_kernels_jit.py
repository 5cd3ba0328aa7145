"""The numba-compiled code of :mod:`planner.engine.kernels` (imported on first use only).

Plain scalar arithmetic in the numpy reference's operation order, one row at a
time: :func:`_solve_one` is :func:`planner.engine.queueing.symmetric_throughput` (with
:func:`_cycle` its ``_cycle``) for one row; :func:`block_rows` is
:func:`planner.engine.performance._block` after the demands. Formulas and their
sources are in those functions' docstrings (Schweitzer/Bard approximate MVA,
the utilisation law, Little's law, M/M/1 waits); nothing here is new physics.
Compiled on first use and cached on disk (``cache=True``): a machine compiles
once (about 4 s), a process loads it in about 0.5 s.
"""

import numpy as np
from numba import float64, int64, njit, void

_V = float64[::1]


@njit(cache=True, nogil=True, inline="always")
def _fork_join(u, k, fs):
    """:func:`planner.engine.queueing.fork_join_factor` and its derivative for one
    (already clamped) utilisation, ``k`` branches and forked share ``fs``; a
    fractional ``k`` mixes floor(k) and floor(k) + 1 branches so the mean is k."""
    lo = np.floor(k)
    frac = k - lo
    g, dg = _fork_join_whole(u, lo, fs)
    if frac > 0.0:
        g2, dg2 = _fork_join_whole(u, lo + 1.0, fs)
        g = (1.0 - frac) * g + frac * g2
        dg = (1.0 - frac) * dg + frac * dg2
    return g, dg


@njit(cache=True, nogil=True, inline="always")
def _fork_join_whole(u, k, fs):
    """:func:`_fork_join` for a whole branch count ``k``."""
    g = 0.0
    dg = 0.0
    c = 1.0
    prev = 0.0
    upow = 1.0
    kk = int(k)
    for j in range(1, kk + 1):
        c = c * (k - j + 1) / j
        sign = 1.0 if j % 2 else -1.0
        g = g + sign * c * upow / j
        dg = dg + sign * c * (j - 1) * prev / j
        prev = upow
        upow = upow * u
    if fs != 0.0:
        h = 0.0
        h2 = 0.0
        for i in range(1, kk + 1):
            h += 1.0 / i
            h2 += 1.0 / (i * i)
        light = 0.5 * (h * h + h2)
        heavy = 0.875 * h / 1.5 + 0.5 if k > 1 else 1.0
        g = (1.0 - fs) * g + fs * (light + (heavy - light) * u)
        dg = (1.0 - fs) * dg + fs * (heavy - light)
    return g, dg


@njit(cache=True, nogil=True)
def _mean_excess(a):
    """:func:`planner.engine.queueing.normal_mean_excess` for one value."""
    if a >= 25.0:
        y = 1.0 / (a * a)
        return (1.0 - y * (2.0 - y * (10.0 - y * (74.0 - y * (706.0 - 8162.0 * y))))) / a
    if a >= 3.0:
        t = 0.0
        for j in range(3 + int(100.0 / a), 1, -1):
            t = j / (a + t)
        return 1.0 / (a + t)
    if a <= -9.0:
        return -a
    if a <= -3.0:
        al = -a
        t = 0.0
        for j in range(3 + int(100.0 / al), 0, -1):
            t = j / (al + t)
        dens = 0.3989422804014327 * np.exp(-0.5 * al * al)
        return dens / (1.0 - dens / (al + t)) + al
    z = a / 1.4142135623730951
    z2 = z * z
    term = z
    acc = z
    for j in range(1, 40):
        term = term * (-z2) / j
        acc = acc + term / (2 * j + 1)
    erfc = 1.0 - acc * (2.0 / 1.7724538509055159)
    return 0.7978845608028654 * np.exp(-0.5 * a * a) / erfc - a


@njit(cache=True, nogil=True)
def _fp_factor(pop, u, delta, rest, d, k=0.0, derivative=False):
    """:func:`planner.engine.queueing.finite_population_factor` for one station
    and, if asked, its derivative in the utilisation (0, 0 where ``delta`` is
    not positive, as ``finite_population_factors``); ``k`` = sqrt(1 + delta)
    when the caller has it."""
    if not delta > 0.0:
        return 0.0, 0.0
    eps = 1e-15
    u = u if u > eps else eps
    zr = rest if rest > eps else eps
    d = d if d > eps else eps
    k = k if k > 0.0 else np.sqrt(1.0 + delta)
    root = np.sqrt(zr * d * u)
    a0 = (zr - pop * d) / root
    if a0 <= -9.0 * k:  # deep in saturation: both means are -a exactly, no extra
        return 0.0, 0.0
    s0 = np.sqrt(u * zr / d)
    a1 = a0 / k
    m1 = _mean_excess(a1)
    m0 = _mean_excess(a0)
    extra = s0 * (k * m1 - m0)
    f = extra * (1.0 - u) / (u * delta)
    if f <= 0.0:
        return 0.0, 0.0
    if f >= 1.0:
        return 1.0, 0.0
    if not derivative:
        return f, 0.0
    # m'(a) = (m + a) m - 1; a0 falls and s0 grows as u^(-1/2), u^(1/2)
    dm1 = (m1 + a1) * m1 - 1.0
    dm0 = (m0 + a0) * m0 - 1.0
    dextra = extra / (2.0 * u) - s0 * a0 / (2.0 * u) * (dm1 - dm0)
    return f, f * (dextra / extra - 1.0 / (1.0 - u) - 1.0 / u)


@njit(cache=True, nogil=True, inline="always")
def _cycle(x, dd, cc, cxx, dll, kk, coef, share, bg4, sbg, zbar, wbar, slope, u0, wfj, kb, fs, s0, ni, derivative):
    """R(x) and dR/dx of one row, as :func:`planner.engine.queueing._cycle`
    (station terms as 5-tuples: demands, coef x demand, coef x dispersion,
    dispersion ratio; fewer than 30 arguments keeps the call inlinable)."""
    d0, d1, d2, d3, d4 = dd
    c0d0, cd1, cd2, cd3, cd4 = cc
    cx0, cx1, cx2, cx3, cx4 = cxx
    dl0, dl1, dl2, dl3, dl4 = dll
    k0, k1, k2, k3, k4 = kk
    den = 1.0 - x * c0d0
    den = den if den > 1e-9 else 1e-9
    rb0 = d0 / den
    acc = rb0
    dacc = rb0 * (c0d0 / den)
    den = 1.0 - x * cd1
    den = den if den > 1e-9 else 1e-9
    rb1 = d1 / den
    acc = acc + rb1
    dacc = dacc + rb1 * (cd1 / den)
    den = 1.0 - x * cd2
    den = den if den > 1e-9 else 1e-9
    rb2 = d2 / den
    acc = acc + rb2
    dacc = dacc + rb2 * (cd2 / den)
    den = 1.0 - x * cd3
    den = den if den > 1e-9 else 1e-9
    rb3 = d3 / den
    acc = acc + rb3
    dacc = dacc + rb3 * (cd3 / den)
    e = x * share * bg4
    f = 1.0 - (e if e < 0.999 else 0.999)
    dbar = d4 / f
    den = 1.0 - x * coef * dbar
    den = den if den > 1e-9 else 1e-9
    rb = dbar / den
    acc = acc + rb
    uu = u0 + slope * x
    ucl = uu if uu < 0.99 else 0.99
    q = 1.0 / (1.0 - ucl)
    fj, dfj = _fork_join(ucl, kb, fs)
    wtot = wbar + wfj * (fj - 1.0)
    acc = acc + (zbar + wtot * (ucl * q))
    # class-dependent FCFS: each station's dispersion term (zero-cost when 0),
    # times its finite-population factor from the rest of the cycle
    base = acc
    cxd = 0.0
    if cx0 != 0.0:
        phi, dphi = _fp_factor(ni * s0, x * s0 * d0, dl0, base - rb0, d0, k0, derivative)
        dn = 1.0 - x * c0d0
        dn = dn if dn > 1e-9 else 1e-9
        term = x * cx0 / dn
        acc = acc + phi * term
        cxd = cxd + phi * (cx0 / (dn * dn)) + dphi * (s0 * d0) * term
    if cx1 != 0.0:
        phi, dphi = _fp_factor(ni * share, x * share * d1, dl1, base - rb1, d1, k1, derivative)
        dn = 1.0 - x * cd1
        dn = dn if dn > 1e-9 else 1e-9
        term = x * cx1 / dn
        acc = acc + phi * term
        cxd = cxd + phi * (cx1 / (dn * dn)) + dphi * (share * d1) * term
    if cx2 != 0.0:
        phi, dphi = _fp_factor(ni * share, x * share * d2, dl2, base - rb2, d2, k2, derivative)
        dn = 1.0 - x * cd2
        dn = dn if dn > 1e-9 else 1e-9
        term = x * cx2 / dn
        acc = acc + phi * term
        cxd = cxd + phi * (cx2 / (dn * dn)) + dphi * (share * d2) * term
    if cx3 != 0.0:
        phi, dphi = _fp_factor(ni * share, x * share * d3, dl3, base - rb3, d3, k3, derivative)
        dn = 1.0 - x * cd3
        dn = dn if dn > 1e-9 else 1e-9
        term = x * cx3 / dn
        acc = acc + phi * term
        cxd = cxd + phi * (cx3 / (dn * dn)) + dphi * (share * d3) * term
    if cx4 != 0.0:
        phi, dphi = _fp_factor(ni * share, x * share * dbar, dl4, base - rb, dbar, k4, derivative)
        h = f * f * den
        term = x * cx4 / h
        acc = acc + phi * term
        sb = sbg if e < 0.999 else 0.0
        dh = -2.0 * f * sb - cd4 * f + x * cd4 * sb
        cxd = cxd + phi * (cx4 * (h - x * dh) / (h * h)) + dphi * (share * dbar) * term
    if not derivative:
        return acc, 0.0
    dacc = dacc + cxd
    dacc = dacc + rb * (((sbg if e < 0.999 else 0.0) + cd4) / (den * f))
    dacc = dacc + (slope * (wtot * q * q + wfj * dfj * (ucl * q)) if uu < 0.99 else 0.0)
    return acc, dacc


@njit(cache=True, nogil=True)
def _solve_one(
    d0,
    d1,
    d2,
    d3,
    d4,
    s0,
    share,
    bg4,
    ni,
    zbar,
    wbar,
    u0,
    slope,
    x_max,
    wfj,
    kb,
    fs,
    x0,
    x1,
    x2,
    x3,
    x4,
    max_iter,
):
    """One row's per-VM throughput, IO/s (see
    :func:`planner.engine.queueing.symmetric_throughput` for the method)."""
    eps = 1e-15
    coef0 = s0 - 1.0 / ni
    coef0 = coef0 if coef0 > 0.0 else 0.0
    coef = share - 1.0 / ni
    coef = coef if coef > 0.0 else 0.0
    dsum = d0 + d1 + d2 + d3 + d4
    t = dsum + zbar
    hi = ni / (t if t > eps else eps)
    hi = x_max if x_max < hi else hi
    sbg = share * bg4
    c0d0 = coef0 * d0
    cd1, cd2, cd3, cd4 = coef * d1, coef * d2, coef * d3, coef * d4
    cx0, cx1, cx2, cx3, cx4 = coef0 * x0, coef * x1, coef * x2, coef * x3, coef * x4
    dl0 = x0 / (d0 * d0) if d0 > 0.0 and x0 != 0.0 else 0.0
    dl1 = x1 / (d1 * d1) if d1 > 0.0 and x1 != 0.0 else 0.0
    dl2 = x2 / (d2 * d2) if d2 > 0.0 and x2 != 0.0 else 0.0
    dl3 = x3 / (d3 * d3) if d3 > 0.0 and x3 != 0.0 else 0.0
    dl4 = x4 / (d4 * d4) if d4 > 0.0 and x4 != 0.0 else 0.0
    dd = (d0, d1, d2, d3, d4)
    cc = (c0d0, cd1, cd2, cd3, cd4)
    cxx = (cx0, cx1, cx2, cx3, cx4)
    dll = (dl0, dl1, dl2, dl3, dl4)
    kk = (np.sqrt(1.0 + dl0), np.sqrt(1.0 + dl1), np.sqrt(1.0 + dl2), np.sqrt(1.0 + dl3), np.sqrt(1.0 + dl4))
    # one-queue start (the station with the nearest pole), at or above the root
    a_b, d_b = c0d0, d0
    if cd1 > a_b:
        a_b, d_b = cd1, d1
    if cd2 > a_b:
        a_b, d_b = cd2, d2
    if cd3 > a_b:
        a_b, d_b = cd3, d3
    if sbg + cd4 > a_b:
        a_b, d_b = sbg + cd4, d4
    u = u0 + 0.0 * slope
    u = u if u < 0.99 else 0.99
    c_rest = dsum - d_b + zbar + (wbar + wfj * (_fork_join(u, kb, fs)[0] - 1.0)) * (u / (1.0 - u))
    b = c_rest + d_b + ni * a_b
    disc = b * b - 4.0 * a_b * c_rest * ni
    x = 2.0 * ni / (b + np.sqrt(disc if disc > 0.0 else 0.0))
    x = hi if hi < x else x
    lo = 0.0
    for _ in range(max_iter):
        acc, dacc = _cycle(
            x, dd, cc, cxx, dll, kk, coef, share, bg4, sbg, zbar, wbar, slope, u0, wfj, kb, fs, s0, ni, True
        )
        g = x * acc - ni
        below = g < 0
        if below:
            lo = x
        else:
            hi = x
        nxt = x + (1.0 / acc - x / ni) / (dacc / (acc * acc) + 1.0 / ni)
        if not (nxt >= lo and nxt <= hi):
            nxt = 0.5 * (lo + hi)
        if below and x >= hi:
            nxt = x
        step = abs(nxt - x)
        early = step <= 1e-11 * x and x * (acc + x * dacc) <= 1e3 * ni
        if early:
            x = nxt
        if step > 1e-15 * x and not early:
            x = nxt
            continue
        if g > 1e-13 * ni and not early:
            # steep g: neighbouring floats straddle the root; step down to
            # the first float that places at most n IOs
            for j in range(8):
                acc2, _d = _cycle(
                    x, dd, cc, cxx, dll, kk, coef, share, bg4, sbg, zbar, wbar, slope, u0, wfj, kb, fs, s0, ni, False
                )
                if not x * acc2 > ni:
                    break
                x = x * (1.0 - 2.0 ** (j - 52))
        return x
    return x


@njit(void(*([_V] * 23), int64), cache=True, nogil=True)
def solve_rows(
    d0, d1, d2, d3, d4, s0, share, bg4, n, zbar, wbar, u0, slope, x_max, wfj, kb, fs, x0, x1, x2, x3, x4, out, max_iter
):
    """Fill ``out[i]`` with row i's per-VM throughput, IO/s."""
    for i in range(out.shape[0]):
        out[i] = _solve_one(
            d0[i],
            d1[i],
            d2[i],
            d3[i],
            d4[i],
            s0[i],
            share[i],
            bg4[i],
            n[i],
            zbar[i],
            wbar[i],
            u0[i],
            slope[i],
            x_max[i],
            wfj[i],
            kb[i],
            fs[i],
            x0[i],
            x1[i],
            x2[i],
            x3[i],
            x4[i],
            max_iter,
        )


@njit(cache=True, nogil=True)
def _lp_wait(u):
    """:func:`planner.engine.queueing.lp_wait_factor` for one utilisation."""
    u = u if u < 0.99 else 0.99
    return u / (1.0 - u)


@njit(cache=True, nogil=True)
def block_rows(
    pr,
    pw,
    bg,
    S,
    r,
    vms_total,
    open_iops,
    n,
    cpu_r,
    cpu_w,
    lps_raw,
    hc_r,
    hc_w,
    dvm_r,
    dvm_w,
    ds_r,
    ds_w,
    limit,
    cap,
    nodes,
    bs_kib,
    q90,
    q99,
    branches,
    forked_w,
    idle,
    storage_cpu_wait,
    cpu_max,
    kib,
    max_iter,
    fo,
    util,
    bott_code,
    lim_code,
    saturated,
):
    """:func:`planner.engine.performance._block` after the demands, one row at a time.

    ``pr``/``pw``: the 5 stations' path demands per class (tuples of row
    vectors); the other vectors are per row, the scalars the model's
    parameters. Writes the 16 float outputs ``fo`` (in
    ``planner.engine.kernels.FLOAT_OUT`` order), the utilisations, the label codes
    and the saturation flag. Same formulas and order as the numpy block.
    """
    m = r.shape[0]
    K = 5
    prv, pwv, dp, total, load, shr = np.empty(K), np.empty(K), np.empty(K), np.empty(K), np.empty(K), np.empty(K)
    vr, vw, pv, pvm, u, rr, rw = (
        np.empty(K),
        np.empty(K),
        np.empty(K),
        np.empty(K),
        np.empty(K),
        np.empty(K),
        np.empty(K),
    )
    dpr, dpw, dbar, uk, e2, disp = np.empty(K), np.empty(K), np.empty(K), np.empty(K), np.empty(K), np.empty(K)
    dens, rpf = np.empty(K), np.empty(K)
    for i in range(m):
        ri = r[i]
        wi = 1.0 - ri
        Si = S[i]
        ni = n[i]
        s0 = 0.0 if vms_total[i] <= 0 else 1.0
        closed = np.isnan(open_iops[i])
        for k in range(K):
            prv[k] = pr[k][i]
            pwv[k] = pw[k][i]
            shr[k] = Si if k else s0
            dp[k] = prv[k] if prv[k] == pwv[k] else ri * prv[k] + wi * pwv[k]
            total[k] = dp[k]
        total[4] = dp[4] + bg[i]
        peak = 0.0
        for k in range(K):
            load[k] = total[k] * shr[k]
            peak = load[k] if k == 0 or load[k] > peak else peak
        x_sat = 1.0 / (peak if peak > 1e-15 else 1e-15)
        # visits, second moment and dispersion of the demand per station
        for k in range(K):
            vr[k] = 1.0 if prv[k] > 0 else 0.0
            if pwv[k] == prv[k]:
                vw[k] = vr[k]
                pv[k] = vr[k]
                e2[k] = prv[k] * prv[k]
                disp[k] = 0.0
            else:
                vw[k] = 1.0 if pwv[k] > 0 else 0.0
                pv[k] = vr[k] if vw[k] == vr[k] else ri * vr[k] + wi * vw[k]
                e2[k] = ri * prv[k] * prv[k] + wi * pwv[k] * pwv[k]
                disp[k] = pv[k] * e2[k] - dp[k] * dp[k]
            pvm[k] = pv[k] if pv[k] > 1e-15 else 1e-15
        cpu_per_io = ri * cpu_r[i] + wi * cpu_w[i]
        lps = lps_raw[i]
        wc_r = storage_cpu_wait * hc_r[i]
        wc_w = storage_cpu_wait * hc_w[i]
        u_slope = Si * cpu_per_io / lps
        dvr, dvw = dvm_r[i], dvm_w[i]
        kw = branches[i]
        fs = wi * forked_w[i] / cpu_per_io if cpu_per_io > 0 else 0.0
        if closed:
            x = _solve_one(
                dp[0],
                dp[1],
                dp[2],
                dp[3],
                dp[4],
                s0,
                Si,
                bg[i],
                ni,
                ri * dvr + wi * dvw,
                ri * wc_r + wi * wc_w,
                idle,
                u_slope,
                x_sat,
                wi * wc_w,
                kw,
                fs,
                disp[0],
                disp[1],
                disp[2],
                disp[3],
                disp[4],
                max_iter,
            )
            lab = 6  # population
        else:
            x = open_iops[i] / Si
            lab = 7  # offered load
        hit_limit = x > limit[i]
        if hit_limit:
            x = limit[i]
            lab = 8
        c = cap[i]
        usable = (c if c < cpu_max else cpu_max) - idle
        usable = usable if usable > 0.0 else 0.0
        x_cap = usable * lps / cpu_per_io / Si
        capped = c < 1.0 and x > x_cap * (1 + 1e-9)
        if capped:
            x = x_cap
            lab = 9
        sat = x >= x_sat * (1 - 1e-9) and not closed
        if sat:
            x = x_sat * 0.999
            lab = 7  # past the network's capacity: its full station, not a policy, limits it (performance._block)
        for k in range(K):
            u[k] = x * shr[k] * total[k]
        if closed:
            # MVA residences at the (possibly throttled) rate x
            e = x * Si * bg[i]
            f4 = 1.0 - (e if e < 0.999 else 0.999)
            for k in range(K):
                dpr[k] = prv[k]
                dpw[k] = pwv[k]
                dbar[k] = dp[k]
            dpr[4] = prv[4] / f4
            dpw[4] = pwv[4] / f4
            dbar[4] = ri * dpr[4] + wi * dpw[4]
            inv_n = 1.0 / ni
            a0 = s0 - inv_n
            a1 = Si - inv_n
            xcs0 = x * (a0 if a0 > 0.0 else 0.0)
            xcs1 = x * (a1 if a1 > 0.0 else 0.0)
            total_pf = 0.0
            for k in range(K):
                xc = xcs0 if k == 0 else xcs1
                den = 1.0 - xc * dbar[k]
                dens[k] = den if den > 1e-9 else 1e-9
                rpf[k] = dbar[k] / dens[k]
                total_pf = total_pf + rpf[k]
            # the rest of the cycle for the finite-population factors: the
            # delays, the LP wait and the other stations (a throttled
            # population is paced into the path: the open-load wait, factor 1)
            ux = idle + u_slope * x
            lwx = _lp_wait(ux)
            total_pf = total_pf + (
                ri * (dvr + wc_r * lwx) + wi * (dvw + wc_w * lwx * _fork_join(ux if ux < 0.99 else 0.99, kw, fs)[0])
            )
            throttled = hit_limit or capped
            for k in range(K):
                xc = xcs0 if k == 0 else xcs1
                dk = disp[k] / (f4 * f4) if k == 4 else disp[k]
                rbar = rpf[k]
                if disp[k] != 0.0:
                    dl = disp[k] / (dp[k] * dp[k]) if dp[k] > 0 else 0.0
                    phi = (
                        1.0
                        if throttled
                        else _fp_factor(ni * shr[k], x * shr[k] * dbar[k], dl, total_pf - rpf[k], dbar[k])[0]
                    )
                    rbar = rbar + phi * (xc * dk / dens[k])
                wait = (rbar - dbar[k]) / pvm[k]
                rr[k] = dpr[k] + vr[k] * wait
                rw[k] = dpw[k] + vw[k] * wait
        else:
            # open network, M/G/1 (Pollaczek-Khinchine) per station at rate x
            for k in range(K):
                m2 = e2[k] + bg[i] * bg[i] if k == 4 else e2[k]
                wait = x * shr[k] * m2 * (1.0 / (1.0 - u[k]))
                rr[k] = vr[k] * (prv[k] + wait)
                rw[k] = vw[k] * (pwv[k] + wait)
        all_r = rr[0] + rr[1] + rr[2] + rr[3] + rr[4]
        all_w = rw[0] + rw[1] + rw[2] + rw[3] + rw[4]
        sto_r = rr[2] + rr[3] + rr[4]
        sto_w = rw[2] + rw[3] + rw[4]
        if closed and not (hit_limit or capped):
            # the IOs the approximation cannot place (past saturation) wait at
            # the bottleneck, so n = x * R exactly
            ux = idle + u_slope * x
            lw = _lp_wait(ux)
            mean_r = ri * (all_r + (dvr + wc_r * lw)) + wi * (
                all_w + (dvw + wc_w * lw * _fork_join(ux if ux < 0.99 else 0.99, kw, fs)[0])
            )
            cyc = ni / x
            extra = cyc - mean_r
            if extra > 1e-13 * cyc:
                ks = 0
                for k in range(K - 1, -1, -1):
                    if load[k] == peak:
                        ks = k
                if pv[ks] > 0:
                    pk = pv[ks] if pv[ks] > 1e-15 else 1e-15
                    add_r = extra * (vr[ks] / pk)
                    add_w = extra * (vw[ks] / pk)
                else:
                    add_r = extra
                    add_w = extra
                all_r += add_r
                all_w += add_w
                if ks >= 2:
                    sto_r += add_r
                    sto_w += add_w
        ucpu = idle + x * u_slope
        ucpu = ucpu if ucpu > 0.0 else 0.0
        ucpu = ucpu if ucpu < 1.0 else 1.0
        for k in range(K):
            v = u[k] if u[k] > 0.0 else 0.0
            uk[k] = v if v < 1.0 else 1.0
        v = (ucpu - idle) / (cpu_max - idle)
        v = v if v > 0.0 else 0.0
        uk[1] = v if v < 1.0 else 1.0
        umax = uk[0]
        bott = 0
        for k in range(K):
            util[i, k] = uk[k]
            if k:
                if uk[k] > umax:
                    bott = k
                umax = umax if umax >= uk[k] else uk[k]
        lw = _lp_wait(ucpu)
        cw_r = wc_r * lw
        cw_w = wc_w * lw * _fork_join(ucpu if ucpu < 0.99 else 0.99, kw, fs)[0]
        vm_r = (all_r + dvr + cw_r) * 1e3
        vm_w = (all_w + dvw + cw_w) * 1e3
        mean_vm = ri * vm_r + wi * vm_w
        iops = x * Si
        code = lab
        if lab == 6:
            code = bott if umax > 0.8 else 5  # 0.8: queueing.BUSY_UTILIZATION (this module imports nothing)
        elif lab == 7:
            code = bott if sat else 10
        bott_code[i] = code
        lim_code[i] = lab
        saturated[i] = sat
        fo[0][i] = iops
        fo[1][i] = iops / nodes[i]
        fo[2][i] = x_sat * Si
        fo[3][i] = iops * (bs_kib[i] * kib) / 1e6
        fo[4][i] = (sto_r + prv[1] + ds_r[i] + cw_r) * 1e3
        fo[5][i] = (sto_w + pwv[1] + ds_w[i] + cw_w) * 1e3
        fo[6][i] = vm_r
        fo[7][i] = vm_w
        fo[8][i] = mean_vm
        fo[9][i] = q90[i] * vm_r
        fo[10][i] = q99[i] * vm_r
        fo[11][i] = q90[i] * vm_w
        fo[12][i] = q99[i] * vm_w
        fo[13][i] = ucpu
        fo[14][i] = iops * mean_vm / 1e3
        fo[15][i] = cpu_per_io * 1e6
