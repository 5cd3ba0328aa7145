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
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from planner.core.types import FloatArray
from planner.engine.markov import EXACT_STATES, chain_states, solve_chain

_EPS = 1e-15
#: a station at least this busy is named: a closed population's bottleneck (below it, the
#: population's outstanding IO limits), and the busiest station of a load below saturation
#: (:func:`planner.results.report.bottleneck_words`). Every architecture's network reads it from
#: here; the compiled kernel (``_kernels_jit``, which imports nothing) carries the same figure.
BUSY_UTILIZATION = 0.8


#: terms of the Maclaurin series of erf in :func:`normal_mean_excess` (|z| < 2.13)
_ERF_TERMS = 40
_SQRT2 = math.sqrt(2.0)
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)


def _cf_terms(a: FloatArray) -> int:
    """Depth of the continued fractions in :func:`normal_mean_excess` for the
    smallest |alpha| in ``a`` (>= 3): 3 + 100 / alpha terms, 1e-12 relative or
    better (36 terms are needed at 3, 10 at 10, 4 at 100)."""
    return 3 + int(100.0 / float(np.min(a)))


def normal_mean_excess(alpha: FloatArray) -> FloatArray:
    """Mean excess E[Z - a | Z > a] of a standard normal Z over ``alpha``
    (= phi(a) / Q(a) - a, the inverse Mills ratio less a), vectorised.

    Pieces accurate to about 1e-12 relative: from a = 25 the asymptotic series
    m = (1 - 2/a^2 + 10/a^4 - 74/a^6 + 706/a^8 - 8162/a^10) / a; for 3 <= a < 25
    Laplace's continued fraction of the Mills ratio, phi/Q = a + 1/(a + 2/(a +
    3/(...))) read as m = 1/(a + 2/(a + 3/(a + ...))), so no difference of large
    numbers is taken; for |a| < 3 erfc from the Maclaurin series of erf; for
    -9 < a <= -3, Q(a) = 1 - phi(|a|) R(|a|) with the same continued fraction
    for the Mills ratio R; below -9, -a (phi/Q < 1e-17) (Abramowitz & Stegun,
    1964, 26.2.12, 26.2.14 and 7.1.5). Pure numpy, so the model needs no
    scipy.special (see :func:`gammaincinv`); the numba kernel has the same
    pieces.

    Parameters
    ----------
    alpha : array
        Standardised threshold a [-].

    Returns
    -------
    array
        m(a) >= 0 [-]: 1/a (1 - 1/a^2 + ...) for large a, -a for very negative a.
    """
    a = np.asarray(alpha, dtype=float)
    flat = np.atleast_1d(a).ravel()
    out = np.empty_like(flat)
    far = flat >= 25.0
    hi = (flat >= 3.0) & ~far
    deep = flat <= -9.0  # phi(a) / Q(a) < 1e-17: m = -a to the last bit
    lo = (flat <= -3.0) & ~deep
    mid = ~(hi | lo | deep | far)
    out[deep] = -flat[deep]
    if far.any():  # the asymptotic series, 2e-12 relative from 25 on
        af = flat[far]
        y = 1.0 / (af * af)
        out[far] = (1.0 - y * (2.0 - y * (10.0 - y * (74.0 - y * (706.0 - 8162.0 * y))))) / af
    if hi.any():
        ah = flat[hi]
        t = np.zeros_like(ah)
        for j in range(_cf_terms(ah), 1, -1):
            t = j / (ah + t)
        out[hi] = 1.0 / (ah + t)
    if mid.any():
        am = flat[mid]
        z = am / _SQRT2
        z2 = z * z
        term = z.copy()
        acc = z.copy()
        for j in range(1, _ERF_TERMS):
            term = term * (-z2) / j
            acc = acc + term / (2 * j + 1)
        erfc = 1.0 - acc * (2.0 / math.sqrt(math.pi))
        out[mid] = _SQRT_2_OVER_PI * np.exp(-0.5 * am * am) / erfc - am
    if lo.any():
        al = -flat[lo]
        t = np.zeros_like(al)
        for j in range(_cf_terms(al), 0, -1):
            t = j / (al + t)
        dens = _INV_SQRT_2PI * np.exp(-0.5 * al * al)
        out[lo] = dens / (1.0 - dens / (al + t)) + al
    return out.reshape(a.shape) if a.ndim else out[0]


def finite_population_factor(
    population: FloatArray,
    utilization: FloatArray,
    dispersion: FloatArray,
    rest_s: FloatArray,
    demand_s: FloatArray,
    derivative: bool = False,
) -> Any:
    """Share of the open-load class-dependent FCFS wait that a closed population
    of ``population`` customers really adds (0..1).

    Reads and writes with unequal service times at one FCFS station wait longer
    than customers of their mean would: an arrival finds long jobs
    over-represented in the queue. With Poisson arrivals (an open load, or an
    unbounded population) that extra wait is Pollaczek-Khinchine's,
    ``x c disp / (1 - x c Dbar)`` in :func:`schweitzer_symmetric` (``disp =
    pv E[d^2] - Dbar^2``, zero when the classes' demands are equal). A finite
    population feeds back: while a long job holds the server the queue grows,
    fewer customers are elsewhere to arrive, so the variability queues less,
    and not at all when every customer waits at the station (a saturated
    closed station serves at 1/Dbar whatever the mix).

    The factor is that feedback in the diffusion limit: the number at the
    station is a reflected Ornstein-Uhlenbeck process, arrivals falling by
    1/Z_r per customer queued (Z_r the rest of the cycle), so its mean is
    ``s m(alpha)`` with ``s^2`` the variance over twice that restoring rate
    and ``m`` :func:`normal_mean_excess` (Halfin & Whitt, *Operations Research*
    29(3), 1981; for the finite-source queue, Kogan & Liptser, 1993). The
    extra queue of the classes' variance (squared coefficient of variation
    1 + 2 disp/Dbar^2 for exponential services of the classes' means, against
    1 for their mean's) is divided by the same extra queue under Poisson
    arrivals. It depends on the population N, the utilisation U and the
    dispersion, the heavy-traffic scale being N (1 - U)^2: 0.89 at N = 2,048
    and U = 0.9, 0.43 at N = 128, 0.06 at N = 8 (exact finite-source ratios
    by Takacs' formula, :func:`finite_source_wait`: 0.87, 0.39, 0.05); within
    0.04 of them from 128 customers, above them for fewer (0.74 for 0.24 at
    N = 2, U = 0.3, where the term is small). Checked against Takacs and the
    exact Markov chain in ``tests/test_queueing_exact.py``; accuracy on the
    docs' Accuracy page (``scripts/queueing_table.py``).

    Parameters
    ----------
    population : array
        Customers that cycle through the station (VMs sharing it x IOs
        outstanding per VM) [-].
    utilization : array
        The station's utilisation U = X Dbar at the throughput considered [-].
    dispersion : array
        disp / Dbar^2, the classes' demand dispersion over the squared mixed
        demand [-] (0: equal demands).
    rest_s : array
        Mean time a customer spends elsewhere in its cycle (delays and the
        other stations) [s].
    demand_s : array
        Mixed demand Dbar per cycle at the station [s].

    derivative : bool
        Also return d(factor)/dU at the same rest of the cycle (0 where the
        factor is clipped).

    Returns
    -------
    array
        The factor, between 0 and 1 [-].
    """
    n = np.asarray(population, dtype=float)
    u = np.maximum(np.asarray(utilization, dtype=float), _EPS)
    delta = np.maximum(np.asarray(dispersion, dtype=float), _EPS)
    zr = np.maximum(np.asarray(rest_s, dtype=float), _EPS)
    d = np.maximum(np.asarray(demand_s, dtype=float), _EPS)
    # standardised distance of the arrivals' zero-queue rate from the service
    # rate, and the queue's diffusion scale, for the mean's variance (0) and
    # the classes' (1)
    a0 = (zr - n * d) / np.sqrt(zr * d * u)
    s0 = np.sqrt(u * zr / d)
    k = np.sqrt(1.0 + delta)
    a1 = a0 / k
    m1, m0 = normal_mean_excess(a1), normal_mean_excess(a0)
    # deep in saturation both means are -a exactly: no extra queue
    extra = np.where(a0 <= -9.0 * k, 0.0, s0 * (k * m1 - m0))
    raw = extra * (1.0 - u) / (u * delta)
    f = np.clip(raw, 0.0, 1.0)
    if not derivative:
        return f
    # m'(a) = (m + a) m - 1; a0 falls and s0 grows as u^(-1/2), u^(1/2)
    dextra = extra / (2.0 * u) - s0 * a0 / (2.0 * u) * (((m1 + a1) * m1 - 1.0) - ((m0 + a0) * m0 - 1.0))
    inside = (raw > 0.0) & (raw < 1.0)  # so u < 1 and extra > 0 there
    with np.errstate(divide="ignore", invalid="ignore"):
        df = np.where(inside, f * (dextra / np.where(inside, extra, 1.0) - 1.0 / (1.0 - u) - 1.0 / u), 0.0)
    return f, df


def lp_wait_factor(u: FloatArray) -> FloatArray:
    """M/M/1 waiting factor U / (1 - U) of a logical processor busy a share U of
    the time (Kleinrock, 1975), with U held below 0.99 so it stays finite."""
    u = np.minimum(np.asarray(u, dtype=float), 0.99)
    return u / (1.0 - u)


def fork_join_factor(
    u: FloatArray, branches: FloatArray, derivative: bool = False, forked_share: FloatArray = 0.0
) -> Any:
    """Mean of the longest of ``branches`` M/M/1 waits over the mean of one, at
    utilisation U (held below 0.99 as in :func:`lp_wait_factor`), for servers
    that take a share ``forked_share`` of their work from the forked jobs.

    A mirrored or parity write completes when every copy has (a fork-join;
    Nelson & Tantawi, *IEEE Trans. Computers* 37(6), 1988): its copies are
    processed on different servers' logical processors. Two bounds:

    * independent waits (``forked_share`` 0: the servers' work arrives
      independently). An M/M/1 FCFS wait with service time s is 0 with
      probability 1 - U and otherwise exponential with mean s / (1 - U)
      (Kleinrock, 1975, eq. 3.28); the largest of k independent such waits has
      P(max <= t) = (1 - U exp(-a t))^k, a = (1 - U) / s, so by the binomial
      theorem E[max] = s / (1 - U) * sum_{j=1..k} C(k, j) (-1)^(j+1) U^j / j:
      k at light load (any of the k may wait), the harmonic number H_k as
      U -> 1 (David & Nagaraja, *Order Statistics*, 2003, 4.6).
    * shared arrivals (``forked_share`` 1: every job forks to all k servers,
      whose waits then rise and fall together). At light load a forked job
      waits behind at most one earlier forked job, whose k tasks started
      together: E[max W] / E[W] = E[M^2] / 2 with M the largest of k unit
      exponentials, (H_k^2 + sum_{i<=k} 1/i^2) / 2 (1.75 for k = 2). In heavy
      traffic Nelson & Tantawi's mean for k = 2 is exact, (12 - U)/8 of one
      server's M/M/1 response (11/8 as U -> 1, where a wait is the response),
      and their scaling to k servers gives 7/8 H_k / H_2 + 1/2. Between the
      two ends the factor is taken linear in U: within 0.6 % of a simulation
      for k = 2, 2.5 % for k = 3 and 4 (``tests/test_queueing_exact.py``).

    Each server also carries unforked work (reads, guest work), so the waits
    are neither: the factor is the two bounds weighted by the forked share of
    a server's work (linear in the share, within 1 % of a simulation).

    Parameters
    ----------
    u : array
        Utilisation of the logical processors, 0..1 [-].
    branches : array
        Parallel branches the IO waits for (1: no fork-join, factor 1) [-].
    derivative : bool
        Also return d(factor)/dU.
    forked_share : array
        Share of each server's work that is forked to all the branches [-].
    """
    u = np.minimum(np.asarray(u, dtype=float), 0.99)
    return polynomial_at(fork_join_polynomial(branches, forked_share), u, derivative)


def polynomial_at(coefs: Sequence[FloatArray], u: FloatArray, derivative: bool = False) -> Any:
    """sum_j coefs[j] u^j by Horner's rule (and its derivative in u)."""
    val, d = coefs[-1], 0.0
    for c in coefs[-2::-1]:
        if derivative:
            d = val + u * d
        val = c + u * val
    val = val + 0.0 * u  # the shape of u and the coefficients together
    return (val, d + 0.0 * val) if derivative else val


def fork_join_shared_ends(branches: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The shared-arrivals fork-join factor at U = 0 and U = 1 (see
    :func:`fork_join_factor`): (H_k^2 + H2_k) / 2 and 7/8 H_k / H_2 + 1/2,
    both 1 for k = 1 (no fork)."""
    k = np.asarray(branches, dtype=float)
    kmax = int(np.max(k)) if k.size else 1
    h = np.zeros_like(k)
    h2 = np.zeros_like(k)
    for i in range(1, kmax + 1):
        on = k >= i
        h = h + on / i
        h2 = h2 + on / (i * i)
    light = 0.5 * (h * h + h2)
    heavy = np.where(k > 1, 0.875 * h / 1.5 + 0.5, 1.0)
    return light, heavy


def fork_join_polynomial(branches: FloatArray, forked_share: FloatArray = 0.0) -> list[FloatArray]:
    """Coefficients of :func:`fork_join_factor` as a polynomial in U (index j:
    the coefficient of U^j): for independent waits a_j = C(k, j+1) (-1)^j /
    (j+1) (zero past k), mixed with the shared-arrivals line by the forked
    share. The solvers evaluate it by Horner's rule inside their iterations.

    A fractional count (a write that skips a lost node's column on some
    stripes: 2.25 branches on average for RS 2+2 with one of 4 nodes down)
    waits for floor(k) branches or one more, mixed so the mean is k: the
    coefficients of the two whole counts weighted 1 - (k - floor(k)) and
    k - floor(k)."""
    k = np.asarray(branches, dtype=float)
    frac = k - np.floor(k)
    if not np.any(frac > 0):
        return _fork_join_whole(k, forked_share)
    lo = _fork_join_whole(k - frac, forked_share)
    hi = _fork_join_whole(k - frac + 1.0, forked_share)
    lo += [np.zeros_like(k)] * (len(hi) - len(lo))
    return [(1.0 - frac) * a + frac * b for a, b in zip(lo, hi)]


def _fork_join_whole(branches: FloatArray, forked_share: FloatArray) -> list[FloatArray]:
    """:func:`fork_join_polynomial` for whole branch counts."""
    k = np.asarray(branches, dtype=float)
    kmax = int(np.max(k)) if k.size else 1
    out, c = [], np.ones_like(k)
    for j in range(1, kmax + 1):
        c = c * (k - j + 1) / j
        out.append((1.0 if j % 2 else -1.0) * c / j)
    share = np.asarray(forked_share, dtype=float)
    if share.ndim == 0 and float(share) == 0.0:
        return out
    if len(out) < 2:
        out.append(np.zeros_like(k))
    light, heavy = fork_join_shared_ends(k)
    out = [(1.0 - share) * a for a in out]
    out[0] = out[0] + share * light
    out[1] = out[1] + share * (heavy - light)
    return out


def erlang_c(servers: FloatArray, load: FloatArray) -> FloatArray:
    """Probability that an arrival waits in an M/M/c queue (Erlang C).

    Parameters
    ----------
    servers : array
        Servers c (integers >= 1) [-].
    load : array
        Offered load A = lambda s, in servers busy [-]; c - A is the spare.

    Returns
    -------
    array
        C(c, A) = c B / (c - A (1 - B)), B Erlang's loss probability by its
        recursion B_k = A B_{k-1} / (k + A B_{k-1}), B_0 = 1 (Kleinrock, 1975,
        eq. 3.40; Jagerman, 1974, for the recursion's stability); 1 when A >= c.
        C(1, A) = A: the M/M/1 probability of waiting, its utilisation.
    """
    c = np.asarray(servers, dtype=float)
    a = np.maximum(np.asarray(load, dtype=float), 0.0)
    c, a = np.broadcast_arrays(c, a)
    cmax = int(np.max(c)) if c.size else 1
    b = np.ones(a.shape)
    for k in range(1, cmax + 1):
        b = np.where(k <= c, a * b / (k + a * b), b)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(a < c, c * b / (c - a * (1.0 - b)), 1.0)
    return out


def mmc_response(arrival_rate: FloatArray, service_s: FloatArray, servers: FloatArray) -> FloatArray:
    """Mean response time of an M/M/c queue [s]: s + C(c, A) s / (c - A),
    A = lambda s (:func:`erlang_c`); inf at or past saturation.

    Parameters
    ----------
    arrival_rate : array
        Arrivals per second [1/s].
    service_s : array
        Mean service time of one job on one server [s].
    servers : array
        Servers c [-].

    Examples
    --------
    M/M/4 with lambda = 3/s and s = 1 s: 1.509 s (a pool of four is not one
    server four times as fast, whose response would be 1.0 s).

    >>> round(float(mmc_response(3.0, 1.0, 4)), 3)
    1.509
    """
    lam = np.asarray(arrival_rate, dtype=float)
    svc = np.asarray(service_s, dtype=float)
    c = np.asarray(servers, dtype=float)
    a = lam * svc
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(a < c, svc + erlang_c(c, a) * svc / (c - a), np.inf)


def pooled_wait(x_seen: FloatArray, dbar: FloatArray, servers: FloatArray) -> FloatArray:
    """Mixed queueing residence beyond the demand, C(c, A) Dbar / (c - A), of a
    station of ``servers`` servers at the load A = ``x_seen`` Dbar its arrivals
    see [s] (Schweitzer's x c Dbar): Dbar A / (1 - A) for one server, the
    M/M/c wait (:func:`erlang_c`) for more, where Dbar is the demand per cycle
    on one server (busy time, not divided by the servers)."""
    a = np.asarray(x_seen, dtype=float) * dbar
    c = np.asarray(servers, dtype=float)
    return erlang_c(c, a) * dbar / np.maximum(c - a, 1e-9 * c)


def schweitzer_symmetric(
    path_s: FloatArray,
    mix: FloatArray,
    background_s: FloatArray,
    share: FloatArray,
    n: FloatArray,
    delay_s: FloatArray,
    iterations: int | None = None,
    tol: float = 1e-18,
    lp_wait: Sequence[FloatArray] | None = None,
    servers: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray]:
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
    lp_wait : tuple (coef (..., C), u0 (...), slope (...)[, branches (..., C)[, forked (..., 1)]]), optional
        A load-dependent delay: class c waits ``coef_c * U / (1 - U)`` seconds
        with ``U = u0 + slope * x`` (a CPU's utilisation, linear in the per-VM
        rate x: the utilisation law), times :func:`fork_join_factor` of its
        ``branches`` (default 1: none) and the forked share of the servers'
        work (default 0). It is part of the cycle, so the fixed point and
        Little's law include it.
    servers : array (..., K), optional
        Servers at each station (default 1). Where given, ``path_s`` is the
        busy time of one server per IO (not divided by the servers) and the
        station queues as M/M/c at the load its arrivals see
        (:func:`pooled_wait`): :func:`solve_closed`'s convention. The model
        itself divides its pooled resources' demand by their servers and
        leaves this at 1.

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
    cs = None if servers is None else np.broadcast_to(np.asarray(servers, dtype=float), s.shape)
    total = (p[..., :, None] * d).sum(-2) + bg
    x_max = 1.0 / np.maximum((total * s / (1.0 if cs is None else cs)).max(-1), _EPS)
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
        forked = np.asarray(lp_wait[4] if len(lp_wait) > 4 else 0.0, dtype=float)
        w_coef = w_coef * np.ones_like(branches)

        def wait_at(x: FloatArray) -> FloatArray:  # (..., C) seconds
            u = (u0 + u_slope * x)[..., None]
            return w_coef * lp_wait_factor(u) * fork_join_factor(u, branches, False, forked)

        def zbar_at(x: FloatArray) -> FloatArray:
            return zbar + (p * wait_at(x)).sum(-1)
    else:

        def zbar_at(x: FloatArray) -> FloatArray:
            return zbar

    has_bg = bool(np.any(bg > 0))
    # asymptotic bound X <= n / (D + Z) narrows the bracket; a fixed number of
    # halvings reaches the tolerance (relative to the bracket) without a check:
    # 60 by default, the root to the last bits (the reference for
    # symmetric_throughput, which gets there by Newton's method)
    hi = np.minimum(hi, n / np.maximum(dpath.sum(-1) + zbar, _EPS))
    steps = iterations or int(np.ceil(np.log2(1.0 / tol)))
    pop = s * n[..., None]  # customers that cycle through each station
    for _ in range(steps):
        mid = 0.5 * (lo + hi)
        xm = mid[..., None]
        if has_bg:
            f = 1.0 - np.minimum(xm * s * bg, 0.999)
            dbar, e2 = dpath / f, d2 / (f * f)
        else:
            dbar, e2 = dpath, d2
        disp = pv * e2 - dbar * dbar
        if cs is None:
            den = np.maximum(1.0 - xm * coef * dbar, 1e-9)
            rpf = dbar / den
            rest = zbar_at(mid)[..., None] + rpf.sum(-1)[..., None] - rpf
            rbar = rpf + dispersion_factor(pop, xm * s * dbar, dbar, disp, rest) * xm * coef * disp / den
        else:
            wpf = pooled_wait(xm * coef, dbar, cs)
            rpf = dbar + wpf
            rest = zbar_at(mid)[..., None] + rpf.sum(-1)[..., None] - rpf
            phi = dispersion_factor(pop, xm * s * dbar / cs, dbar, disp, rest)
            rbar = rpf + phi * np.where(dbar > 0, disp / np.maximum(dbar * dbar, 1e-300), 0.0) * wpf
        below = n > mid * (rbar.sum(-1) + zbar_at(mid))  # population not yet placed: fixed point above mid
        lo = np.where(below, mid, lo)
        hi = np.where(below, hi, mid)
    # lo never overshoots the fixed point: x * R(x) <= n there. The few IOs the
    # bracket leaves unplaced (all of them past saturation, where the
    # approximation cannot place them) wait at the bottleneck, so utilisation
    # stays <= 1 and Little's law closes exactly: n = x * R.
    x_out = np.where(lo > 0, lo, hi * 0.5)
    if lp_wait is not None:
        z = z + wait_at(x_out)
    _, r = _schweitzer_step(d, p, bg, s, coef, n, z, x_out, np.inf, servers=cs)
    mean_r = (p * (r.sum(-1) + z)).sum(-1)
    extra = unplaced(n / x_out, mean_r)
    k_star = (total * s / (1.0 if cs is None else cs)).argmax(-1)
    onehot = np.arange(d.shape[-1]) == k_star[..., None]
    visit, pv = _visits(d, p)
    vk = (visit * onehot[..., None, :]).sum(-1)  # (..., C): does class c visit k*?
    pvk = (pv * onehot).sum(-1)
    add = extra[..., None] * np.where(pvk[..., None] > 0, vk / np.maximum(pvk, _EPS)[..., None], 1.0)
    r = r + add[..., :, None] * onehot[..., None, :]
    return x_out, r


def symmetric_throughput(
    dpath: FloatArray,
    s0: FloatArray,
    share: FloatArray,
    bg4: FloatArray,
    n: FloatArray,
    zbar: FloatArray,
    wbar: FloatArray,
    u0: FloatArray,
    slope: FloatArray,
    x_max: FloatArray,
    max_iter: int = 60,
    wfj: FloatArray = 0.0,
    branches: FloatArray = 1.0,
    disp: FloatArray | None = None,
    forked: FloatArray = 0.0,
) -> FloatArray:
    """Per-VM throughput of :func:`schweitzer_symmetric`, on one 1-D array per
    station (the layout :func:`planner.engine.performance.evaluate_arrays` computes in).

    ``dpath`` holds the K class-mixed path demands; station 0 (the VM's vCPUs)
    is shared by ``s0`` VMs, the others by ``share``; only the last station
    carries background work ``bg4``. ``zbar`` and ``wbar`` are the class-mixed
    delay and LP-wait coefficient, ``u0 + slope * x`` the LP utilisation, and
    ``x_max`` the capacity bound. The part ``wfj`` of ``wbar`` waits for the
    longest of ``branches`` LP waits (:func:`fork_join_factor`): the LP wait is
    ``U / (1 - U) * (wbar + wfj * (factor - 1))``, ``forked`` the forked
    share of the LPs' work. ``disp`` (K arrays, or None for zeros) is each
    station's demand dispersion pv E[d^2] - Dbar^2 over the classes (zero
    where the classes that visit have equal demands): the class-dependent FCFS
    wait of :func:`schweitzer_symmetric` adds ``phi x c disp / (f^2 (1 - x c
    Dbar / f))`` to the station's mean residence, ``phi`` its
    :func:`finite_population_factor` (the Newton step takes its change with
    the utilisation, not with the rest of the cycle).

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
        hi.shape, *(np.shape(v) for v in (*dpath, s0, share, bg4, n, zbar, wbar, slope, u0, wfj, branches, forked))
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
        else [
            (wbar + wfj * (a - 1.0)) if j == 0 else wfj * a
            for j, a in enumerate(fork_join_polynomial(branches, forked))
        ]
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
    # coef x dispersion per station, only where some row has one, with what
    # its finite-population factor needs: the dispersion over the squared
    # demand, the station's population and its share of VMs
    if disp is not None:
        for k, v in enumerate(disp):
            if np.any(v != 0.0):
                d = dpath[k]
                P[f"cX{k}"] = (coef0 if k == 0 else coef) * v
                P[f"dl{k}"] = np.where(d > 0, v / np.maximum(d * d, 1e-300), 0.0)
        if any(f"cX{k}" in P for k in range(5)):
            P["s0"] = s0
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


def _take(P: dict[str, Any], idx: FloatArray) -> dict[str, Any]:
    return {k: (v[idx] if np.ndim(v) else v) for k, v in P.items()}


def _cycle(x: FloatArray, P: dict[str, Any], derivative: bool = True) -> tuple[FloatArray, FloatArray | None]:
    """R(x) = sum_k Rbar_k(x) + Z(x) of :func:`symmetric_throughput`'s
    fixed point, and its derivative (the finite-population factors held)."""
    c0d0 = P["c0d0"]
    den = np.maximum(1.0 - x * c0d0, 1e-9)
    rb = P["d0"] / den
    rbs = [rb]
    acc = rb
    if derivative:
        dacc = rb * (c0d0 / den)
    for d, c in ((P["d1"], P["cd1"]), (P["d2"], P["cd2"]), (P["d3"], P["cd3"])):
        den = np.maximum(1.0 - x * c, 1e-9)
        rb = d / den
        rbs.append(rb)
        acc = acc + rb
        if derivative:
            dacc = dacc + rb * (c / den)
    e = x * P["share"] * P["bg4"]  # in this order, as every other path: 1 - e can cancel
    f = 1.0 - np.minimum(e, 0.999)
    dbar = P["d4"] / f
    den = np.maximum(1.0 - x * P["coef"] * dbar, 1e-9)
    rb = dbar / den
    rbs.append(rb)
    acc = acc + rb
    slope = P["slope"]
    uu = P["u0"] + slope * x
    ucl = np.minimum(uu, 0.99)
    q = 1.0 / (1.0 - ucl)
    # LP-wait coefficient wbar + wfj * (fork-join factor - 1), a polynomial in U, and its derivative
    wtot, dw = polynomial_at([P[f"w{j}"] for j in range(P["nw"])], ucl, derivative=True)
    acc = acc + (P["zbar"] + wtot * (ucl * q))
    # class-dependent FCFS: each station's dispersion term, phi x cX / (f^2 den),
    # phi from the rest of the cycle (the total so far less the station's own)
    base = acc
    for k, c in ((0, c0d0), (1, P["cd1"]), (2, P["cd2"]), (3, P["cd3"]), (4, None)):
        cx = P.get(f"cX{k}")
        if cx is None:
            continue
        sk = P["s0"] if k == 0 else P["share"]
        dk = dbar if k == 4 else P[f"d{k}"]
        got = finite_population_factors(P["n"] * sk, x * sk * dk, P[f"dl{k}"], base - rbs[k], dk, derivative)
        phi, dphi = got if derivative else (got, None)
        if k < 4:
            dn = np.maximum(1.0 - x * c, 1e-9)
            term = x * cx / dn
            acc = acc + phi * term
            if derivative:
                dacc = dacc + phi * (cx / (dn * dn)) + dphi * (sk * dk) * term
        else:
            h = f * f * den
            term = x * cx / h
            acc = acc + phi * term
            if derivative:
                sb = np.where(e < 0.999, P["sbg"], 0.0)
                dh = -2.0 * f * sb - P["cd4"] * f + x * P["cd4"] * sb
                dacc = dacc + phi * (cx * (h - x * dh) / (h * h)) + dphi * (sk * dk) * term
    if not derivative:
        return acc, None
    # d/dx of d4 / (f - x c d4), where the background clamp is inactive
    dacc = dacc + rbs[4] * ((np.where(e < 0.999, P["sbg"], 0.0) + P["cd4"]) / (den * f))
    dacc = dacc + np.where(uu < 0.99, slope * (wtot * q * q + dw * (ucl * q)), 0.0)
    return acc, dacc


def finite_population_factors(
    pop: FloatArray, u: FloatArray, delta: FloatArray, rest: FloatArray, d: FloatArray, derivative: bool = False
) -> Any:
    """:func:`finite_population_factor` where ``delta`` (the dispersion ratio)
    is positive, 0 elsewhere (where the classes' demands are equal, the
    term it multiplies is 0 anyway); arguments broadcast."""
    on = delta > 0
    if np.all(on):
        return finite_population_factor(pop, u, delta, rest, d, derivative)
    out = np.zeros(np.shape(on))
    dout = np.zeros(np.shape(on))
    if on.any():
        pop_on, u_on, delta_on, rest_on, d_on = (np.broadcast_to(a, on.shape)[on] for a in (pop, u, delta, rest, d))
        got = finite_population_factor(pop_on, u_on, delta_on, rest_on, d_on, derivative=derivative)
        if derivative:
            out[on], dout[on] = got
        else:
            out[on] = got
    return (out, dout) if derivative else out


def unplaced(cycle_s: FloatArray, mean_r_s: FloatArray) -> FloatArray:
    """Cycle time the fixed point leaves unexplained, seconds: n / x - R(x),
    nonzero only past saturation (the root pinned at the capacity bound).
    Below 1e-13 of the cycle it is the root's rounding, not IOs: zero (else a
    station few IOs visit, whose share divides it, would amplify the noise)."""
    extra = cycle_s - mean_r_s
    return np.where(extra > 1e-13 * cycle_s, extra, 0.0)


def schweitzer_residence(
    path_s: FloatArray, mix: FloatArray, background_s: FloatArray, share: FloatArray, n: FloatArray, x: FloatArray
) -> FloatArray:
    """Residence times (..., C, K), seconds, of the symmetric MVA recursion at a
    given per-VM rate ``x`` below the population's own throughput.

    A throttle at the issuer (a rate limit) holds the rest of the population
    outside the service path, so x * R(x) <= n and Little's law holds. The
    throttle paces the IOs into the path whatever is queued there, so the
    class-dependent FCFS wait is the open-load one (no finite-population
    factor: :func:`dispersion_factor` is 1).
    """
    d = np.asarray(path_s, dtype=float)
    p = np.asarray(mix, dtype=float)
    s = np.asarray(share, dtype=float)
    n = np.asarray(n, dtype=float)
    x = np.asarray(x, dtype=float)
    coef = np.maximum(s - 1.0 / n[..., None], 0.0)
    zero = np.zeros(d.shape[:-1])
    _, r = _schweitzer_step(d, p, np.asarray(background_s, dtype=float), s, coef, n, zero, x, np.inf, paced=True)
    return r


def dispersion_factor(
    population: FloatArray, rate_share: FloatArray, dbar: FloatArray, disp: FloatArray, rest_s: FloatArray
) -> FloatArray:
    """:func:`finite_population_factors` from a station's mixed demand ``dbar``
    [s] and dispersion ``disp`` [s^2] (as in :func:`schweitzer_symmetric`);
    ``rate_share`` is its utilisation x S Dbar [-], ``rest_s`` the rest of the
    cycle [s]."""
    dbar = np.asarray(dbar, dtype=float)
    delta = np.where((dbar > 0) & (np.asarray(disp) > 0), disp / np.maximum(dbar * dbar, 1e-300), 0.0)
    return finite_population_factors(population, rate_share, delta, rest_s, dbar)


def _visits(d: FloatArray, p: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Which classes visit each station (demand > 0) and the share of IOs that do."""
    visit = (d > 0).astype(float)
    pv = (p[..., :, None] * visit).sum(-2)
    return visit, pv


def _schweitzer_step(
    d: FloatArray,
    p: FloatArray,
    bg: FloatArray,
    s: FloatArray,
    coef: FloatArray,
    n: FloatArray,
    z: FloatArray,
    x: FloatArray,
    x_max: FloatArray,
    paced: bool = False,
    servers: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray]:
    u_bg = np.minimum(x[..., None] * s * bg, 0.999)
    dp = d / (1.0 - u_bg)[..., None, :]
    dbar = (p[..., :, None] * dp).sum(-2)
    e2 = (p[..., :, None] * dp * dp).sum(-2)
    # FCFS with class-dependent service (Bard 1979, per class): an arriving IO
    # waits for the IOs it finds, each for its own class's service. It finds
    # x c p_j R_j of class j, so W = x c sum_j p_j (d_j + W) d_j, i.e.
    # W = x c E[d^2] / (1 - x c Dbar): the same for every class that visits
    # (the mixed mean, Dbar^2 / pv in place of E[d^2], undercounts it when
    # the classes' demands differ: long IOs are over-represented in a queue).
    # That is the open-load limit; a closed population adds only the share
    # dispersion_factor gives of the part beyond the mixed mean's wait
    xk = x[..., None]
    visit, pv = _visits(d, p)
    disp = pv * e2 - dbar * dbar
    if servers is None:
        denom = np.maximum(1.0 - xk * coef * dbar, 1e-9)
        rpf = dbar / denom
        u = xk * s * dbar
    else:
        wpf = pooled_wait(xk * coef, dbar, servers)
        rpf = dbar + wpf
        u = xk * s * dbar / servers
    if paced:  # a throttle paces the arrivals: the open-load wait
        phi = 1.0
    else:  # the rest of the cycle: the delays and the other stations
        rest = (p * z).sum(-1)[..., None] + rpf.sum(-1)[..., None] - rpf
        phi = dispersion_factor(s * n[..., None], u, dbar, disp, rest)
    if servers is None:
        wait = xk * coef * (dbar * dbar + phi * disp) / (np.maximum(pv, _EPS) * denom)
    else:
        delta = np.where(dbar > 0, disp / np.maximum(dbar * dbar, 1e-300), 0.0)
        wait = wpf * (1.0 + phi * delta) / np.maximum(pv, _EPS)
    r = dp + visit * wait[..., None, :]
    rc = r.sum(-1) + z
    x_out = np.minimum(n / np.maximum((p * rc).sum(-1), _EPS), x_max)
    return x_out, r


#: populations up to which :func:`solve_closed` runs the exact product-form
#: solution (cost grows with the square of the population; beyond it Schweitzer's fixed point, the
#: model's own, whose error falls as the population grows)
EXACT_POPULATION = 1000


def finite_source_wait(service_s: FloatArray, mix: FloatArray, population: int, think_s: float) -> float:
    """Mean FCFS wait [s] at one server fed by ``population`` customers that
    each think an exponential ``think_s`` seconds between visits and bring a
    job of class c (probability ``mix[c]``) whose service is exponential of
    mean ``service_s[c]``: the M/G/1//N queue, exact by Takacs' formula.

    With B*(s) the service's Laplace transform (sum_c p_c / (1 + s d_c)) and
    lambda = 1 / think_s, the server is idle with probability
    P0 = 1 / (1 + N lambda b sum_{r=0}^{N-1} C(N-1, r) prod_{i=1}^{r}
    (1 - B*(i lambda)) / B*(i lambda)), so the throughput is (1 - P0) / b and
    the wait N / X - think_s - b (Takacs, *Introduction to the Theory of
    Queues*, 1962, ch. 5; Kleinrock, 1975, problem 4.26). Summed in logs, so
    populations of thousands do not overflow.

    Parameters
    ----------
    service_s : array (C,)
        Mean service time of each class [s].
    mix : array (C,)
        Probability of each class (sums to 1) [-].
    population : int
        Customers N [-].
    think_s : float
        Mean time between a customer's departure and its next arrival [s].
    """
    d = np.asarray(service_s, dtype=float)
    q = np.asarray(mix, dtype=float)
    b = float(q @ d)
    n = int(population)
    if n <= 1 or b <= 0.0:
        return 0.0
    if think_s <= 1e-12 * b:  # every customer always queued: N - 1 ahead
        return (n - 1) * b
    lam = 1.0 / think_s
    r = np.arange(1, n, dtype=float)
    psi = (q[None, :] / (1.0 + d[None, :] * (r[:, None] * lam))).sum(-1)
    logs = np.concatenate([[0.0], np.cumsum(np.log1p(-psi) - np.log(psi))])
    k = np.arange(n)
    logc = np.array([math.lgamma(n) - math.lgamma(j + 1) - math.lgamma(n - j) for j in k])
    t = logc + logs
    top = float(t.max())
    log_sum = top + math.log(float(np.exp(t - top).sum()))
    busy = 1.0 / (1.0 + math.exp(-(math.log(n * lam * b) + log_sum)))  # 1 - P0
    return n * b / busy - think_s - b


def _log_convolve(a: FloatArray, b: FloatArray | None) -> FloatArray:
    """Logs of the convolution c[m] = sum_{i<=m} a[i] b[m-i] of two sequences given by
    their logs (-inf: zero), truncated to len(a); ``b`` None: the unit sequence. Summed
    in logs, each row shifted by its largest term: neither overflow nor cancellation
    (every term is >= 0)."""
    if b is None:
        return a
    m = a.size
    # row r of the window holds b[r - i] for i = 0..m-1 (-inf for i > r), without a copy
    window = sliding_window_view(np.concatenate([np.full(m - 1, -np.inf), b])[::-1], m)[::-1]
    out = np.empty(m)
    step = 128  # rows in blocks, each only as wide as its last row: the triangle, not the square
    for lo in range(0, m, step):
        hi = min(lo + step, m)
        terms = window[lo:hi, :hi] + a[:hi]
        top = terms.max(axis=1)
        top = np.where(np.isfinite(top), top, 0.0)  # a row of zeros stays log 0 = -inf
        terms -= top[:, None]
        np.exp(terms, out=terms)
        with np.errstate(divide="ignore"):
            out[lo:hi] = top + np.log(terms.sum(axis=1))
    return out


def _product_form_closed(
    dbar: FloatArray, servers: FloatArray, population: int, think_s: float
) -> tuple[float, FloatArray]:
    """Exact throughput [cycles/s] and residence per cycle at each station [s] of one
    class cycling through FCFS stations of ``servers`` servers (demand per cycle dbar)
    and a delay: Buzen's convolution for the normalising constant G(n) (Buzen, 1973),
    multi-server stations load-dependent, f_k(j) = D_k^j / prod_{i<=j} min(i, c_k)
    (Reiser & Kobayashi, 1975; Bolch et al., *Queueing Networks and Markov Chains*,
    2006, sec. 8.1). X = G(N-1) / G(N); a single-server station holds
    sum_{j>=1} D^j G(N-j) / G(N) customers, a multi-server one sum_j j f_k(j)
    G_-k(N-j) / G(N), with G_-k the network without it.

    Every quantity is a sum of non-negative terms, kept in logs and with the demands in
    units of the bottleneck's D/c, so it stays exact to rounding however close to
    saturation. (Exact MVA with the empty-station probability as 1 minus the rest,
    which this replaces, lost it to cancellation near a multi-server station's
    saturation: throughput negative at 100 customers.)"""
    n = int(population)
    cs = servers.astype(int)
    active = [k for k in range(dbar.size) if dbar[k] > 0]
    # the unit of time: the bottleneck's demand per server, so the factors stay near 1
    unit = max((float(dbar[k] / cs[k]) for k in active), default=think_s)
    j = np.arange(n + 1, dtype=float)
    if think_s > 0:  # an infinite-server station: Z^j / j!
        delay = j * math.log(think_s / unit) - np.array([math.lgamma(v + 1.0) for v in j])
    else:  # the unit sequence: 1, 0, 0, ...
        delay = np.where(j == 0, 0.0, -np.inf)
    factors = []
    for k in active:
        per_server = np.log(np.minimum(np.arange(1, n + 1), cs[k]))
        factors.append(j * math.log(dbar[k] / unit) - np.concatenate([[0.0], np.cumsum(per_server)]))
    # prefix[i]: the delay and the first i stations; suffix[i]: stations i onwards (None: none)
    prefix = [delay]
    for f in factors:
        prefix.append(_log_convolve(prefix[-1], f))
    g = prefix[-1]
    multi = [i for i, k in enumerate(active) if cs[k] > 1]
    suffix: list[FloatArray | None] = [None] * (len(factors) + 1)
    for i in range(len(factors) - 1, min(multi, default=len(factors)), -1):
        later = suffix[i + 1]
        suffix[i] = factors[i] if later is None else _log_convolve(later, factors[i])
    x = math.exp(g[n - 1] - g[n]) / unit
    r = np.zeros(dbar.size)
    for i, k in enumerate(active):
        if cs[k] > 1:
            rest = _log_convolve(prefix[i], suffix[i + 1])
            logp = factors[i] + rest[::-1] - g[n]  # P(j at station k), j = 0..N
            top = float(logp.max())
            w = np.exp(logp - top)
            queue = float((j * w).sum() / w.sum())  # normalised: the probabilities sum to 1
        else:  # P(at least j here) = D^j G(N-j) / G(N)
            queue = float(np.exp(factors[i][1:] + g[n - 1 :: -1] - g[n]).sum())
        r[k] = queue / x
    return x, r


def solve_closed(
    demands: FloatArray,
    population: int,
    mix: FloatArray,
    think_time: float = 0.0,
    servers: FloatArray | None = None,
    *,
    max_states: int = EXACT_STATES,
) -> dict[str, Any]:
    """Throughput and response times of one closed chain of customers cycling
    through FCFS stations, each cycle as one of several classes.

    Each of ``population`` customers, at every cycle, draws class c with
    probability ``mix[c]``, visits each station k where ``demands[c][k]`` > 0
    once, in the order of k, and is served there for an exponential time of
    that mean, first come first served by ``servers[k]`` parallel servers, then
    thinks for an exponential ``think_time`` seconds (a delay) and starts
    again. This is the network the planner's model solves for every VM's IOs
    (reads and writes at the CPUs, the network and the drives); the model and
    this function share their code (:func:`schweitzer_symmetric`,
    :func:`finite_population_factor`, :func:`pooled_wait`).

    Parameters
    ----------
    demands : array_like (C, K)
        Service time of class c at station k, per visit [s]; 0: not visited.
    population : int
        Customers in the chain, >= 1 [-].
    mix : array_like (C,)
        Probability of each class per cycle, summing to 1 [-].
    think_time : float, default 0
        Mean delay between cycles [s].
    servers : array_like (K,) of int, optional
        Servers at each station, default 1 each [-].
    max_states : int, default :data:`~planner.engine.markov.EXACT_STATES`
        Largest Markov chain solved exactly (keyword only; 0: never) [-].

    Returns
    -------
    dict
        ``throughput``: cycles per second [1/s]; ``response_time`` (C,): mean
        time from the start of a class-c cycle to its end, think time excluded
        [s] (NaN for a class of zero probability when the chain is solved: it
        is never seen); ``residence_time`` (C, K) [s]; ``utilization`` (K,):
        busy share of each server [-]; ``method``: ``"ctmc"``, ``"mva"`` or
        ``"schweitzer"``; ``exact``: whether the figures are exact (to
        rounding) for the network described.

    Raises
    ------
    ValueError
        Naming the argument: shapes that do not match, negative or non-finite
        times, a mix that does not sum to 1, a population below 1, servers
        below 1, a cycle with no demand at all.

    Notes
    -----
    Three methods, the first that applies:

    * exact by formula (``"mva"``, up to :data:`EXACT_POPULATION` customers):
      where every class has the same service time at each FCFS station the
      network is product form (Baskett, Chandy, Muntz & Palacios, 1975) and
      its solution on the class-mixed demands is exact: Buzen's convolution
      (1973) in logs, multi-server stations load-dependent, which gives exact
      MVA's figures (Reiser & Lavenberg, 1980) without its loss of precision
      near a multi-server station's saturation; so is one
      single-server FCFS station and a delay whatever the classes, with the
      M/G/1//N wait of Takacs' formula (:func:`finite_source_wait`).
    * exact by the network's Markov chain (``"ctmc"``,
      :func:`planner.engine.markov.solve_chain`) where the classes' times
      differ and the chain has at most ``max_states`` states (200,000 by
      default: two stations that reads and writes both visit, with think
      time, up to 12 customers; 1.5-2 s of CPU at 100,000 states, about 6 s
      at the bound).
    * approximate beyond: up to :data:`EXACT_POPULATION` customers, the exact
      product-form solution on the class-mixed demands plus, per single-server station, the
      difference between its M/G/1//N wait with the classes' services and
      with their mean (Takacs), the rest of the cycle as the think time, and
      per multi-server station :func:`finite_population_factor` x the
      dispersion over the squared mean x its M/M/c wait; beyond
      :data:`EXACT_POPULATION`, Schweitzer's approximate MVA (Schweitzer,
      1979; Bard, 1979) with the same class-dependent FCFS wait: the model's
      solver. Both give every class the same FCFS wait at a station, so they
      miss the tandem effect (at the second of two stations, reads arrive
      right behind the writes that held them at the first).

    Accuracy of each against the exact chain (``tests/oracles/ctmc.py`` and
    LINE's ``SolverCTMC``) per network is tabulated on the docs' Accuracy page
    (``scripts/queueing_table.py``).

    References
    ----------
    Buzen, J. P. (1973). Computational algorithms for closed queueing networks
    with exponential servers. *Comm. ACM* 16(9), 527-531.
    Baskett, F., Chandy, K. M., Muntz, R. R. & Palacios, F. G. (1975). Open,
    closed, and mixed networks of queues with different classes of customers.
    *J. ACM* 22(2), 248-260.
    Reiser, M. & Lavenberg, S. S. (1980). Mean-value analysis of closed
    multichain queuing networks. *J. ACM* 27(2), 313-322.
    Schweitzer, P. J. (1979). Approximate analysis of multiclass closed
    networks of queues. *Proc. Int. Conf. Stochastic Control and Optimization*.
    Takacs, L. (1962). *Introduction to the Theory of Queues*. Oxford.
    Gunther, N. J. (2011). *Analyzing Computer System Performance with Perl::PDQ*,
    2nd ed., Springer (the PDQ solvers this interface follows).

    Examples
    --------
    One station and a delay (think 1 s), reads of 0.1 s and writes of 0.4 s,
    70 % reads, 8 customers: 4.696 cycles/s, reads 0.614 s, writes 0.914 s
    (the Markov chain's figures, here by Takacs' formula).

    >>> out = solve_closed([[0.1], [0.4]], 8, [0.7, 0.3], think_time=1.0)
    >>> round(out["throughput"], 3), [round(float(r), 3) for r in out["response_time"]]
    (4.696, [0.614, 0.914])

    The same classes at two such stations in tandem, 4 customers: reads wait
    longer at the second (0.265 s) than at the first (0.224 s), right behind
    the writes that held them there; the Markov chain (129 states) is solved.

    >>> out = solve_closed([[0.1, 0.1], [0.4, 0.4]], 4, [0.7, 0.3], think_time=1.0)
    >>> out["method"], [round(float(r), 3) for r in out["residence_time"][0]]
    ('ctmc', [0.224, 0.265])
    """
    d = np.asarray(demands, dtype=float)
    if d.ndim != 2:
        raise ValueError("demands: a (classes x stations) array of seconds")
    C, K = d.shape
    if not np.all(np.isfinite(d)) or np.any(d < 0):
        raise ValueError("demands: service times must be finite and >= 0 seconds")
    p = np.asarray(mix, dtype=float)
    if p.shape != (C,) or not np.all(np.isfinite(p)) or np.any(p < 0) or abs(p.sum() - 1.0) > 1e-9:
        raise ValueError(f"mix: {C} probabilities >= 0 summing to 1, one per class (row of demands)")
    if int(population) != population or population < 1:
        raise ValueError("population: a whole number of customers >= 1")
    z = float(think_time)
    if not math.isfinite(z) or z < 0:
        raise ValueError("think_time: finite and >= 0 seconds")
    cs = np.ones(K) if servers is None else np.asarray(servers, dtype=float)
    if cs.shape != (K,) or np.any(cs < 1) or np.any(cs != np.round(cs)) or not np.all(np.isfinite(cs)):
        raise ValueError(f"servers: {K} whole numbers >= 1, one per station (column of demands)")
    if not np.any(p[:, None] * d > 0) and z == 0:
        raise ValueError("demands: every cycle is empty (no demand and no think time)")
    if isinstance(max_states, bool) or int(max_states) != max_states or max_states < 0:
        raise ValueError("max_states: a whole number of states >= 0 (0: never solve the Markov chain)")
    n = int(population)
    visit = (d > 0).astype(float)
    pv = p @ visit
    dbar = p @ d
    e2 = p @ (d * d)
    disp = pv * e2 - dbar * dbar
    spread = [k for k in range(K) if disp[k] > 1e-12 * dbar[k] ** 2 and pv[k] > 0]
    # exact by formula: product form (no station's classes differ), or one single-server
    # station and the delay (Takacs); otherwise the Markov chain where it is small enough
    by_formula = not spread or (int(np.count_nonzero(pv > 0)) == 1 and bool(np.all(cs[pv > 0] == 1)))
    exact = by_formula and n <= EXACT_POPULATION
    chain = None
    if not by_formula and n <= EXACT_POPULATION and chain_states(d, n, p, z, cap=max_states + 1.0) <= max_states:
        try:
            chain = solve_chain(d, n, p, z, cs.astype(int), max_states=max_states)
        except RuntimeError:  # the iterative solve did not converge: the approximation answers
            chain = None
    if chain is not None:
        x, r = chain["throughput"], chain["residence_time"]
        method, exact = "ctmc", True
    elif n > EXACT_POPULATION:
        x, r = schweitzer_symmetric(
            d, p, np.zeros(K), np.ones(K), np.float64(n), np.full(C, z), servers=cs if servers is not None else None
        )
        x = float(x)
        method = "schweitzer"
    else:
        x, r_pf = _product_form_closed(dbar, cs, n, z)
        b = np.where(pv > 0, dbar / np.maximum(pv, _EPS), 0.0)
        w_pf = np.where(pv > 0, (r_pf - dbar) / np.maximum(pv, _EPS), 0.0)  # wait per visit
        extra = np.zeros(K)  # per visit, beyond the mixed mean's
        for _ in range(500):
            rbar = r_pf + pv * extra
            x = n / (z + rbar.sum())
            new = np.zeros(K)
            for k in spread:
                qk = p * visit[:, k] / pv[k]
                if cs[k] == 1:
                    think = max((n - x * rbar[k]) / (x * pv[k]), 0.0)
                    new[k] = finite_source_wait(d[:, k], qk, n, think) - finite_source_wait([b[k]], [1.0], n, think)
                else:
                    phi = finite_population_factor(
                        n, x * dbar[k] / cs[k], disp[k] / dbar[k] ** 2, n / x - rbar[k], dbar[k]
                    )
                    new[k] = float(phi) * disp[k] / dbar[k] ** 2 * w_pf[k]
            if np.max(np.abs(new - extra)) <= 1e-13 * max(float(rbar.sum()), _EPS):
                extra = new
                break
            extra = 0.5 * (extra + new)
        rbar = r_pf + pv * extra
        x = n / (z + rbar.sum())
        wait = w_pf + extra
        r = np.where(d > 0, d + wait[None, :], 0.0)
        method = "mva"
    return {
        "throughput": float(x),
        "response_time": r.sum(-1),
        "residence_time": r,
        # a server is busy at most all the time; at saturation X D / c rounds to 1 + 1 ulp
        "utilization": np.minimum(x * dbar / cs, 1.0),
        "method": method,
        "exact": exact,
    }


def exact_mva(demand_s: FloatArray, delay_s: FloatArray, n: int) -> tuple[float, FloatArray]:
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


def open_residence(
    path_s: FloatArray, mix: FloatArray, background_s: FloatArray, share: FloatArray, x_per_vm: FloatArray
) -> tuple[np.ndarray, np.ndarray]:
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


def gamma_quantile(mean: FloatArray, cv2: FloatArray, p: FloatArray) -> FloatArray:
    """Quantile ``p`` of a Gamma distribution with the given mean and squared CV.

    Shape k = 1 / cv2, scale = mean * cv2 (the exponential has cv2 = 1).
    """
    mean = np.asarray(mean, dtype=float)
    cv2 = np.maximum(np.asarray(cv2, dtype=float), 1e-6)
    k = 1.0 / cv2
    g: FloatArray
    if k.ndim == 0:
        g = gammaincinv(float(k), p)
    else:  # a handful of distinct shapes (one per parameter set)
        uniq, inv = np.unique(k, return_inverse=True)
        g = np.array([gammaincinv(float(a), p) for a in uniq])[inv].reshape(k.shape)
    return g * mean / k


def quantile_above_delay(mean: FloatArray, fixed: FloatArray, unit_quantile: FloatArray) -> FloatArray:
    """Quantile of a latency that is a fixed delay plus a Gamma-distributed rest, in the unit of
    ``mean`` and ``fixed``: ``fixed + unit_quantile * (mean - fixed)``.

    ``unit_quantile`` is the Gamma quantile of a unit mean (:func:`gamma_quantile` of 1.0; a Gamma
    quantile scales with its mean). ``fixed`` is a deterministic delay every IO waits alike, the round
    trip between rooms (``Design.fault_domain_rtt_ms``): a propagation delay has no spread, so the
    latency's shape applies to the queueing and service part only. Taken whole, a 1 ms round trip
    moved a p99 write by 3.9 ms (2.456 -> 6.336 ms; network walk 2026-12-01).
    """
    fixed = np.asarray(fixed, dtype=float)
    return fixed + np.asarray(unit_quantile, dtype=float) * np.maximum(np.asarray(mean, dtype=float) - fixed, 0.0)


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
