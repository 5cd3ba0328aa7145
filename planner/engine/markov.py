"""Exact solution of small closed multiclass FCFS networks by their Markov chain.

The network is :func:`planner.engine.queueing.solve_closed`'s: one closed chain of
``population`` customers; each cycle a customer draws class c with probability ``mix[c]``,
visits the stations k = 0, 1, ... whose demand ``demands[c][k]`` is positive, in that
order, each once, is served there first come first served for an exponential time of that
mean by one of ``servers[k]`` parallel servers, then thinks for an exponential time of mean
``think_time`` (none at 0) and starts its next cycle.

Where the classes' service times at a FCFS station differ, the network is not product form
(Baskett, Chandy, Muntz & Palacios, 1975, require the same exponential service for every
class at a FCFS station), so no MVA recursion is exact for it; its continuous-time Markov
chain is. A state is, per station, the classes of the customers there in arrival order (the
first ``servers[k]`` in service), the customers thinking being the rest. The chain is built
whole with numpy (no Python loop over states): a station holding ``l`` customers drawn from
the ``b`` classes that visit it is a number ``code < b**l`` whose base-b digits are their
classes, head first (a departure from position i deletes digit i, an arrival appends the
most significant digit), and a state's index is the rank of its vector of queue lengths in
the combinatorial number system (the stars-and-bars rank) plus its codes in mixed radix
within that block (Knuth, *The Art of Computer Programming* 4A, 7.2.1.3). The stationary
distribution ``pi Q = 0``, ``sum(pi) = 1`` is solved sparse (:func:`_stationary`: a direct
LU for small chains, GMRES with an incomplete-LU preconditioner for large ones); throughput
is the rate of completed cycles, and each class's residence at a station its mean number
there over its throughput (Little's law).

The number of states grows as ``b**N``: for two stations both visited by two classes and
think time, ``N 2**(N+1) + 1`` (98,305 at 12 customers, 212,993 at 13; one station 16
customers, three stations 10). Up to :data:`EXACT_STATES` (200,000)
:func:`planner.engine.queueing.solve_closed` solves the chain; beyond, it falls back to its
approximations. What it costs (``benchmarks/markov.py``, CPU time with one BLAS thread on a
shared machine): 0.1 s at 4,000 states, 0.4 s at 20,000, 1.5-2 s and 140 MB at 100,000,
about 6 s and 250 MB just over the bound.

References
----------
Baskett, F., Chandy, K. M., Muntz, R. R. & Palacios, F. G. (1975). Open, closed, and mixed
networks of queues with different classes of customers. *J. ACM* 22(2), 248-260.
Knuth, D. E. (2011). *The Art of Computer Programming*, vol. 4A. Addison-Wesley
(7.2.1.3: the combinatorial number system).
Saad, Y. & Schultz, M. H. (1986). GMRES: a generalized minimal residual algorithm for
solving nonsymmetric linear systems. *SIAM J. Sci. Stat. Comput.* 7(3), 856-869.
Stewart, W. J. (1994). *Introduction to the Numerical Solution of Markov Chains*.
Princeton University Press (ch. 2: direct solution of pi Q = 0; ch. 4: preconditioned
projection methods).
Bolch, G., Greiner, S., de Meer, H. & Trivedi, K. S. (2006). *Queueing Networks and
Markov Chains*, 2nd ed. Wiley (sec. 6-7: closed networks' CTMCs).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from planner.core.types import FloatArray

IntArray = NDArray[np.int64]

#: states up to which :func:`planner.engine.queueing.solve_closed` solves the network's
#: Markov chain exactly (about 6 s of CPU and 250 MB at the bound: ``benchmarks/markov.py``);
#: beyond, its approximations
EXACT_STATES = 200_000


def _layout(d: NDArray[np.float64], p: NDArray[np.float64], z: float) -> tuple[Any, Any, Any, Any]:
    """The chain's static structure: the stations some class visits, the classes visiting
    each (a station's digit values), each class's route, the classes with an empty route."""
    C, K = d.shape
    active = [c for c in range(C) if p[c] > 0]
    stations = [k for k in range(K) if any(d[c, k] > 0 for c in active)]
    local = [[c for c in active if d[c, k] > 0] for k in stations]  # digit a at station j is class local[j][a]
    route = {c: [j for j, k in enumerate(stations) if d[c, k] > 0] for c in active}
    empty = [c for c in active if not route[c]]
    return stations, local, route, empty


def _count(bases: list[int], population: int, closed: bool, cap: float) -> float:
    """States of the chain (capped at ``cap``): the sum over queue-length vectors (sum
    ``population`` if ``closed``, else at most it) of prod b_k**l_k, from the product of
    the stations' generating functions sum_l b**l t**l truncated at degree N."""
    n = int(population)
    poly = np.zeros(n + 1)
    poly[0] = 1.0
    for b in bases:
        g = np.minimum(float(b) ** np.arange(n + 1), cap)
        poly = np.minimum(np.convolve(poly, g)[: n + 1], cap)
    return float(min(poly[n] if closed else poly.sum(), cap))


def chain_states(
    demands: FloatArray, population: int, mix: FloatArray, think_time: float = 0.0, cap: float = math.inf
) -> float:
    """Number of states of the network's Markov chain (see the module) [-].

    Parameters
    ----------
    demands : array_like (C, K)
        Service time of class c at station k [s]; 0: not visited.
    population : int
        Customers [-].
    mix : array_like (C,)
        Probability of each class per cycle [-].
    think_time : float, default 0
        Mean delay between cycles [s]; at 0 every customer is always at a station.
    cap : float, default inf
        Stop counting at this many (the count grows as b**N).

    Returns
    -------
    float
        The count, or ``cap`` if it is larger.

    Examples
    --------
    Two stations that reads and writes both visit, with think time: N 2**(N+1) + 1.

    >>> chain_states([[0.1, 0.2], [0.4, 0.1]], 12, [0.7, 0.3], 1.0)
    98305.0
    """
    d = np.asarray(demands, dtype=float)
    p = np.asarray(mix, dtype=float)
    _, local, _, _ = _layout(d, p, float(think_time))
    return _count([len(c) for c in local], int(population), float(think_time) == 0.0, cap)


def _compositions(n: int, k: int, closed: bool) -> np.ndarray:
    """Every vector of k queue lengths summing to n (``closed``) or at most n, one a row."""
    out: list[tuple[int, ...]] = [()]
    for j in range(k):
        last = closed and j == k - 1
        grown: list[tuple[int, ...]] = []
        for r in out:
            rest = n - sum(r)
            grown.extend([(*r, rest)] if last else [(*r, t) for t in range(rest + 1)])
        out = grown
    return np.array(out, dtype=np.int64).reshape(len(out), k)


class _Index:
    """Rank of a state (queue lengths ``lengths`` (S, K), codes ``codes`` (S, K)) in the
    chain's order: the lengths' block, by the combinatorial number system, then the codes in
    mixed radix b_k**l_k within it."""

    def __init__(self, bases: list[int], population: int, closed: bool) -> None:
        self.bases = np.asarray(bases, dtype=np.int64)
        k = len(bases)
        n = int(population)
        # T[j, P] = C(P + j, j + 1): the rank's term of the (j+1)-th prefix sum P
        self.table = np.array(
            [[math.comb(pp + j, j + 1) for pp in range(n + 1)] for j in range(k)], dtype=np.int64
        ).reshape(k, n + 1)
        self.blocks = _compositions(n, k, closed)
        sizes = np.prod(self.bases[None, :] ** self.blocks, axis=1) if k else np.ones(1, dtype=np.int64)
        rank = self.rank(self.blocks)
        order = np.argsort(rank, kind="stable")
        self.blocks, sizes, rank = self.blocks[order], sizes[order], rank[order]
        self.offset = np.full(int(rank.max()) + 1, -1, dtype=np.int64)
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        self.offset[rank] = starts
        self.sizes = sizes
        self.total = int(sizes.sum())

    def rank(self, lengths: IntArray) -> IntArray:
        prefix = np.cumsum(lengths, axis=1)
        r = np.zeros(len(lengths), dtype=np.int64)
        for j in range(lengths.shape[1]):
            r += self.table[j, prefix[:, j]]
        return r

    def __call__(self, lengths: IntArray, codes: IntArray) -> IntArray:
        stride = np.ones(len(lengths), dtype=np.int64)
        idx = np.zeros(len(lengths), dtype=np.int64)
        for j in range(lengths.shape[1]):
            idx += codes[:, j] * stride
            stride *= self.bases[j] ** lengths[:, j]
        return self.offset[self.rank(lengths)] + idx

    def states(self) -> tuple[IntArray, IntArray]:
        """Every state's lengths and codes (S, K), in index order."""
        k = len(self.bases)
        lengths = np.repeat(self.blocks, self.sizes, axis=0)
        codes = np.zeros((self.total, k), dtype=np.int64)
        within = np.arange(self.total, dtype=np.int64) - np.repeat(np.cumsum(self.sizes) - self.sizes, self.sizes)
        for j in range(k):
            span = self.bases[j] ** lengths[:, j]
            codes[:, j] = within % span
            within //= span
        return lengths, codes


#: chains up to this many states are solved by a direct sparse LU; larger ones by GMRES
#: preconditioned with an incomplete LU (a direct LU of these chains fills in: 5 million
#: entries for 20,000 states, against 0.13 million for the incomplete one)
DIRECT_STATES = 2_000

#: largest relative residual |pi Q| / (max|Q| max(pi)) accepted from the iterative solve
RESIDUAL = 1e-10


def _stationary(qt: Any) -> NDArray[np.float64]:
    """pi with qt pi = 0 and sum(pi) = 1 (qt: the generator's transpose, CSR).

    One unknown is fixed (pi_0 = 1; state 0 is recurrent) and its balance equation
    dropped, which leaves a nonsingular system as sparse as the chain (Stewart, 1994, 2.3;
    replacing an equation by the normalisation instead adds a dense row, from which a sparse
    LU fills in). Up to :data:`DIRECT_STATES` states SuperLU solves it; beyond, restarted
    GMRES (Saad & Schultz, 1986; scipy's, restart 40, to 1e-12 of the right-hand side)
    preconditioned by SuperLU's incomplete LU (drop tolerance 1e-3, fill factor 3), which
    converges in 40 to 200 iterations on the chains measured by ``benchmarks/markov.py``.

    Raises
    ------
    RuntimeError
        If GMRES does not converge, or its answer leaves a residual over :data:`RESIDUAL`.
    """
    from scipy.sparse.linalg import LinearOperator, gmres, spilu, spsolve

    n = qt.shape[0]
    a = qt[1:, 1:].tocsc()
    rhs = -qt[1:, 0].toarray().ravel()
    if n <= DIRECT_STATES:
        rest = spsolve(a, rhs)
    else:
        ilu = spilu(a, drop_tol=1e-3, fill_factor=3)
        rest, info = gmres(a, rhs, M=LinearOperator(a.shape, ilu.solve), rtol=1e-12, atol=0.0, restart=40, maxiter=50)
        if info != 0:
            raise RuntimeError(f"the Markov chain's stationary solve did not converge ({info} iterations)")
    pi: NDArray[np.float64] = np.concatenate([[1.0], rest])
    pi = np.maximum(pi, 0.0)  # rounding: a probability below 1e-17 may come out as -1e-20
    pi /= pi.sum()
    scale = float(np.abs(qt.data).max()) * float(pi.max())
    if not np.all(np.isfinite(pi)) or not float(np.abs(qt @ pi).max()) <= RESIDUAL * scale:
        raise RuntimeError("the Markov chain's stationary solve left too large a residual")
    return pi


def solve_chain(
    demands: FloatArray,
    population: int,
    mix: FloatArray,
    think_time: float = 0.0,
    servers: FloatArray | None = None,
    max_states: int = EXACT_STATES,
) -> dict[str, Any]:
    """Exact throughput and residence times of a small closed multiclass FCFS network.

    Parameters
    ----------
    demands : array_like (C, K)
        Mean exponential service time of class c at station k, per visit [s]; 0: not
        visited.
    population : int
        Customers in the chain, >= 1 [-].
    mix : array_like (C,)
        Probability of each class per cycle, summing to 1 [-].
    think_time : float, default 0
        Mean exponential delay between cycles [s].
    servers : array_like (K,) of int, optional
        Servers at each station, default 1 each [-].
    max_states : int, default :data:`EXACT_STATES`
        Refuse a chain with more states than this.

    Returns
    -------
    dict
        ``throughput``: cycles per second [1/s]; ``response_time`` (C,): mean time from the
        start of a class-c cycle to its end, think time excluded [s] (NaN for a class of
        zero probability); ``residence_time`` (C, K) [s]; ``queue`` (C, K): mean customers
        of each class at each station [-]; ``states``: size of the chain [-].

    Raises
    ------
    ValueError
        If the chain has more than ``max_states`` states.
    RuntimeError
        If its stationary distribution could not be solved to :data:`RESIDUAL`.

    Notes
    -----
    Inputs are taken as validated by :func:`planner.engine.queueing.solve_closed`, which
    calls this where the network is not product form and the chain is small enough.
    """
    d = np.asarray(demands, dtype=float)
    p = np.asarray(mix, dtype=float)
    C, K = d.shape
    z = float(think_time)
    n = int(population)
    cs = np.ones(K, dtype=np.int64) if servers is None else np.asarray(servers, dtype=np.int64)
    stations, local, route, empty = _layout(d, p, z)
    closed = z == 0.0
    bases = [len(c) for c in local]
    count = _count(bases, n, closed, float(max_states) + 1.0)
    if count > max_states:
        raise ValueError(f"population: the Markov chain has more than {max_states} states")
    p_empty = float(sum(p[c] for c in empty))
    # with no think time a customer whose class visits nothing starts again at once: the
    # chain sees only the classes that visit a station, redrawn as often as it takes
    starts = [(c, p[c] / (1.0 - p_empty if closed else 1.0)) for c in route if route[c]]
    index = _Index(bases, n, closed)
    lengths, codes = index.states()
    S = len(lengths)
    b = index.bases
    digit = {(c, j): a for j, cl in enumerate(local) for a, c in enumerate(cl)}
    thinking = n - lengths.sum(1)

    rows, cols, rates = [], [], []
    done = np.zeros(S)  # rate of completed cycles out of each state (no think time)

    def append(ln: IntArray, cd: IntArray, j: int, c: int) -> None:
        """The states with a class-c customer added at the tail of station j (in place)."""
        cd[:, j] += digit[(c, j)] * b[j] ** ln[:, j]
        ln[:, j] += 1

    def add(src: IntArray, ln: IntArray, cd: IntArray, rate: Any) -> None:
        rows.append(src)
        cols.append(index(ln, cd))
        rates.append(np.broadcast_to(rate, src.shape))

    if not closed:
        src = np.flatnonzero(thinking > 0)
        for c, q in starts:
            ln, cd = lengths[src].copy(), codes[src].copy()
            append(ln, cd, route[c][0], c)
            add(src, ln, cd, thinking[src] / z * q)
    for j, k in enumerate(stations):
        bj = int(b[j])
        for i in range(int(cs[k])):
            at = np.flatnonzero(lengths[:, j] > i)
            if not len(at):
                continue
            low = bj**i
            cls = (codes[at, j] // low) % bj
            for a, c in enumerate(local[j]):
                src = at[cls == a]
                if not len(src):
                    continue
                rate = 1.0 / d[c, k]
                ln, cd = lengths[src].copy(), codes[src].copy()
                cd[:, j] = cd[:, j] % low + (cd[:, j] // (low * bj)) * low
                ln[:, j] -= 1
                hop = route[c].index(j) + 1
                if hop < len(route[c]):
                    append(ln, cd, route[c][hop], c)
                    add(src, ln, cd, rate)
                elif not closed:
                    add(src, ln, cd, rate)  # to thinking
                else:  # the next cycle starts at once
                    done[src] += rate
                    for c2, q in starts:
                        ln2, cd2 = ln.copy(), cd.copy()
                        append(ln2, cd2, route[c2][0], c2)
                        add(src, ln2, cd2, rate * q)
    pi = _solve(S, rows, cols, rates)
    if closed:
        x = float(pi @ done) / (1.0 - p_empty)
    else:
        x = float(pi @ thinking) / z  # every think period ends one cycle
    queue = np.zeros((C, K))
    for j, k in enumerate(stations):
        if b[j] == 1:
            queue[local[j][0], k] = pi @ lengths[:, j]
            continue
        code = codes[:, j].copy()
        for pos in range(int(lengths[:, j].max())):
            on = lengths[:, j] > pos
            dig = code % b[j]
            for a, c in enumerate(local[j]):
                queue[c, k] += pi[on & (dig == a)].sum()
            code //= b[j]
    with np.errstate(invalid="ignore", divide="ignore"):
        res = np.where(p[:, None] > 0, queue / (x * p[:, None]), np.nan)
    return {
        "throughput": x,
        "response_time": res.sum(-1),
        "residence_time": res,
        "queue": queue,
        "states": S,
    }


def _solve(S: int, rows: list[Any], cols: list[Any], rates: list[Any]) -> NDArray[np.float64]:
    """The stationary distribution from the transitions (src, dst, rate). The chain is
    irreducible: with think time every state drains to all customers thinking and every
    state fills from there (stations filled last first, each queue head first); without,
    the random networks of ``tests/test_queueing_exact.py`` (and 195 more, 1-3 classes,
    stations and servers) all had a single strongly connected component. A chain that had
    more would leave a singular system, which :func:`_stationary`'s checks refuse."""
    from scipy.sparse import coo_matrix

    src = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
    dst = np.concatenate(cols) if cols else np.zeros(0, dtype=np.int64)
    val = np.concatenate(rates) if rates else np.zeros(0)
    move = src != dst  # a cycle that restarts in the state it ended in changes nothing
    src, dst, val = src[move], dst[move], val[move]
    if S == 1:
        return np.ones(1)
    out_rate = np.bincount(src, weights=val, minlength=S)
    qt = coo_matrix(
        (np.concatenate([val, -out_rate]), (np.concatenate([dst, np.arange(S)]), np.concatenate([src, np.arange(S)]))),
        shape=(S, S),
    ).tocsr()
    return _stationary(qt)
