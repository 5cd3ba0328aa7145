"""Exact solution of small closed multiclass FCFS networks by their continuous-time
Markov chain: the oracle :func:`planner.engine.queueing.solve_closed` (and so the
model's own MVA) is judged against.

The network is the one ``solve_closed`` describes: one closed chain of
``population`` customers; each cycle a customer draws class c with probability
``mix[c]``, visits the stations k = 0, 1, ... whose demand ``demands[c][k]`` is
positive, in that order, each once, is served there FCFS for an exponential
time of that mean (``servers[k]`` parallel servers, default 1), then thinks for
an exponential time of mean ``think_time`` (none at 0) and starts its next cycle.

FCFS with class-dependent service times is not a product-form network (BCMP,
1975, require the same exponential service for every class at a FCFS station),
so no MVA recursion is exact for it; the chain is. Its state is, per station,
the classes of the customers there in arrival order (the first ``servers[k]``
in service), the number thinking being what is left: sum over the stations'
queue lengths of 2^length states for two classes, some 10^5 for two stations
and 12 customers. The stationary distribution solves pi Q = 0, sum pi = 1
(scipy's sparse LU); throughput is the rate of completed cycles and each
class's response time its customers at the stations over its throughput
(Little's law).
"""

from __future__ import annotations

from collections import deque

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.linalg import LinearOperator, lgmres, spilu, spsolve


def _stationary(qt):
    """pi with qt pi = 0, sum(pi) = 1 (qt: the generator's transpose)."""
    n = qt.shape[0]
    a = qt.tolil()
    a[n - 1, :] = np.ones(n)
    a = a.tocsc()
    b = np.zeros(n)
    b[-1] = 1.0
    if n <= 20_000:
        return spsolve(a, b)
    # a direct LU fills in too much on 10^5 states: GMRES preconditioned by an
    # incomplete LU, to a residual far below the figures compared
    ilu = spilu(a, drop_tol=1e-3, fill_factor=3)
    pi, info = lgmres(a, b, M=LinearOperator(a.shape, ilu.solve), rtol=1e-13, atol=0.0, maxiter=2000)
    if info != 0:
        raise RuntimeError(f"the stationary solve did not converge ({info})")
    return pi


def solve_ctmc(demands, population: int, mix, think_time: float = 0.0, servers=None, max_states: int = 400_000):
    """Exact throughput [cycles/s] and per-class response time [s] (see the module).

    Returns a dict: ``throughput``, ``response_time`` (per class), ``queue``
    (mean customers per class and station), ``states`` (size of the chain).
    """
    d = np.asarray(demands, dtype=float)
    C, K = d.shape
    mix = np.asarray(mix, dtype=float)
    m = [1] * K if servers is None else [int(s) for s in servers]
    N = int(population)
    z = float(think_time)
    route = [[k for k in range(K) if d[c, k] > 0] for c in range(C)]
    classes = [c for c in range(C) if mix[c] > 0]

    def nxt(c, k):
        """The station after k on class c's route (None: the cycle ends)."""
        r = route[c]
        i = r.index(k) + 1
        return r[i] if i < len(r) else None

    def start(state, c, w):
        """Transitions of a customer starting a cycle as class c with weight w."""
        if not route[c]:
            return [(state, w, True)]
        k0 = route[c][0]
        s = list(state)
        s[k0] = (*s[k0], c)
        return [(tuple(s), w, False)]

    def moves(state):
        """(next state, rate, cycle completed) from ``state``."""
        out = []
        thinking = N - sum(len(q) for q in state)
        if z > 0 and thinking:
            for c in classes:
                out += start(state, c, thinking / z * mix[c])
        for k, q in enumerate(state):
            for i in range(min(m[k], len(q))):
                c = q[i]
                rate = 1.0 / d[c, k]
                s = list(state)
                s[k] = q[:i] + q[i + 1 :]
                k2 = nxt(c, k)
                if k2 is not None:
                    s[k2] = (*s[k2], c)
                    out.append((tuple(s), rate, False))
                elif z > 0:
                    out.append((tuple(s), rate, True))
                else:  # no think time: the next cycle starts at once
                    for c2 in classes:
                        for s2, w2, _ in start(tuple(s), c2, rate * mix[c2]):
                            out.append((s2, w2, True))
        return out

    # every customer thinking (or, without think time, queued at their first station)
    init = [()] * K
    if z == 0:
        c0 = classes[0]
        init[route[c0][0]] = (c0,) * N
    first = tuple(init)
    index = {first: 0}
    order = [first]
    rows, cols, vals = [], [], []
    done_rate = []
    todo = deque([first])
    while todo:
        s = todo.popleft()
        i = index[s]
        completions = 0.0
        for s2, rate, completes in moves(s):
            j = index.get(s2)
            if j is None:
                j = index[s2] = len(order)
                order.append(s2)
                todo.append(s2)
                if len(order) > max_states:
                    raise ValueError(f"more than {max_states} states")
            if completes:
                completions += rate
            if j != i:
                rows.append(i)
                cols.append(j)
                vals.append(rate)
        done_rate.append(completions)
    n = len(order)
    out_rate = np.bincount(rows, weights=vals, minlength=n)
    # the generator's transpose, its last equation replaced by sum(pi) = 1
    qt = csr_matrix((np.r_[vals, -out_rate], (np.r_[cols, np.arange(n)], np.r_[rows, np.arange(n)])), shape=(n, n))
    pi = _stationary(qt.tocsc())
    x = float(pi @ np.asarray(done_rate))
    queue = np.zeros((C, K))
    for p, s in zip(pi, order):
        for k, q in enumerate(s):
            for c in q:
                queue[c, k] += p
    per_class = queue.sum(-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        resp = np.where(mix > 0, per_class / (x * mix), np.nan)
    return {"throughput": x, "response_time": resp, "queue": queue, "states": n}
