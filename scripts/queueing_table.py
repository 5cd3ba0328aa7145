"""Accuracy of each queueing solver against exact results, as markdown tables: what each
solver is exact for and how far it is elsewhere. Reference: the Markov chain of the network
(tests/oracles/ctmc.py, the tests' own code, checked against LINE's SolverCTMC), Takacs'
finite-source formula, and fork-join simulations (checked against Nelson & Tantawi's exact
two-server mean in tests/test_queueing_exact.py). solve_closed solves the same chains with the
library's code (planner.engine.markov) up to EXACT_STATES states; the tables show it and the
approximation it falls back to beyond. The docs'
Accuracy page is built from :func:`build` (the ``<!-- hciplan:queueing -->`` marker,
scripts/mkdocs_hooks.py); run as a script, it prints the tables (a few seconds).

Usage: python scripts/queueing_table.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from scipy.optimize import brentq

from planner.engine.markov import EXACT_STATES, chain_states
from planner.engine.queueing import (
    finite_population_factor,
    finite_source_wait,
    fork_join_factor,
    schweitzer_symmetric,
    solve_closed,
)

# the exact Markov-chain solver is a test oracle (tests/oracles/), not part of the installed package
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from oracles.ctmc import solve_ctmc

#: (label, demands [s] per class and station, mix, think time [s], populations)
NETWORKS = [
    ("1 station: reads 0.1 s, writes 0.4 s, 70 % reads, think 1 s", [[0.1], [0.4]], [0.7, 0.3], 1.0, (2, 4, 8, 12)),
    ("1 station: 0.05 / 0.5 s, 80 % reads, think 0.5 s", [[0.05], [0.5]], [0.8, 0.2], 0.5, (2, 4, 8, 12)),
    ("2 stations: 0.1/0.2 and 0.4/0.1 s, 70 %, think 1 s", [[0.1, 0.2], [0.4, 0.1]], [0.7, 0.3], 1.0, (2, 4, 8)),
    ("2 stations: 0.05/0.1 and 0.3/0.05 s, 50 %, no think", [[0.05, 0.1], [0.3, 0.05]], [0.5, 0.5], 0.0, (2, 4, 8)),
    ("2 equal stations: 0.1 / 0.4 s each, 70 %, think 1 s", [[0.1, 0.1], [0.4, 0.4]], [0.7, 0.3], 1.0, (2, 4, 8)),
    ("2 stations: 0.05/0.02 and 0.5/0.3 s, 80 %, think 0.5 s", [[0.05, 0.02], [0.5, 0.3]], [0.8, 0.2], 0.5, (2, 4, 8)),
]


#: networks with multi-server stations: (label, demands [s], mix, think time [s], servers, populations)
MULTI_NETWORKS = [
    (
        "1 station of 4 servers: reads 0.1 s, writes 0.4 s, 70 %, think 1 s",
        [[0.1], [0.4]],
        [0.7, 0.3],
        1.0,
        [4],
        (2, 4, 8),
    ),
    (
        "2 stations (2 servers, 1): 0.1/0.2 and 0.4/0.1 s, 70 %, think 1 s",
        [[0.1, 0.2], [0.4, 0.1]],
        [0.7, 0.3],
        1.0,
        [2, 1],
        (2, 4, 8),
    ),
    (
        "2 stations (4 servers, 1): 0.4/0.1 and 1.6/0.05 s, 70 %, think 0.5 s",
        [[0.4, 0.1], [1.6, 0.05]],
        [0.7, 0.3],
        0.5,
        [4, 1],
        (2, 4, 8),
    ),
]


def open_limit(d, n, mix, z):
    """Schweitzer's fixed point with the class-dependent wait at its open-load
    limit, x c E[d^2] / (1 - x c Dbar): the model before this change."""
    d, p = np.asarray(d, float), np.asarray(mix, float)
    dbar, e2 = p @ d, p @ (d * d)
    c = 1.0 - 1.0 / n

    def wait(x):
        return x * c * e2 / np.maximum(1.0 - x * c * dbar, 1e-12)

    def g(x):
        return x * (z + dbar.sum() + wait(x).sum()) - n

    top = min(1.0 / dbar.max(), n / (z + dbar.sum())) * (1 - 1e-12)
    x = brentq(g, 1e-12, top) if g(top) > 0 else top
    return {"throughput": x, "response_time": (d + (d > 0) * wait(x)).sum(1)}


def model(d, n, mix, z):
    x, r = schweitzer_symmetric(
        np.asarray(d, float),
        np.asarray(mix, float),
        np.zeros(len(d[0])),
        np.ones(len(d[0])),
        np.float64(n),
        np.full(len(mix), z),
    )
    return {"throughput": float(x), "response_time": r.sum(-1)}


def model_servers(d, n, mix, z, servers, split=False):
    """Schweitzer's fixed point with multi-server stations: as M/M/c (``servers=``, what
    solve_closed uses beyond 1,000 customers), or by Seidmann's split (``split``: a pool of c as
    one server of demand S/c plus a delay of S (c - 1)/c, as the model treats a VM's vCPUs)."""
    d, p, c = np.asarray(d, float), np.asarray(mix, float), np.asarray(servers, float)
    K = d.shape[1]
    if split:
        x, r = schweitzer_symmetric(d / c, p, np.zeros(K), np.ones(K), np.float64(n), z + (d * (c - 1) / c).sum(-1))
        r = r + d * (c - 1) / c
    else:
        x, r = schweitzer_symmetric(d, p, np.zeros(K), np.ones(K), np.float64(n), np.full(len(p), z), servers=c)
    return {"throughput": float(x), "response_time": r.sum(-1)}


def errors(got, ex):
    return got["throughput"] / ex["throughput"] - 1.0, np.asarray(got["response_time"]) / ex["response_time"] - 1.0


def pct(v):
    return f"{100 * v:+.1f} %"


def _against_chain(heading: str, intro: str, solvers, cases, how) -> list[str]:
    """One table of solvers against the exact Markov chain: a row per (network, population), each
    cell the throughput error and each class's response-time error, a last row of the worst.
    ``cases`` yields ``(label, n, exact, args)`` (``exact`` the chain's answer, ``args`` what every solver takes),
    ``how(got)`` names the method the first solver used."""
    lines = [
        heading,
        "",
        intro,
        "",
        "| network | N | states | " + " | ".join(s for s, _ in solvers) + " |",
        "|---|---|---|" + "---|" * len(solvers),
    ]
    worst = {s: [0.0, 0.0] for s, _ in solvers}
    for label, n, ex, args in cases:
        cells = []
        for i, (s, fn) in enumerate(solvers):
            got = fn(*args)
            x, r = errors(got, ex)
            worst[s][0] = max(worst[s][0], abs(x))
            worst[s][1] = max(worst[s][1], float(np.max(np.abs(r))))
            cells.append(f"{pct(x)}; {pct(r[0])} / {pct(r[1])}" + (f" ({how(got)})" if i == 0 else ""))
        lines.append(f"| {label} | {n} | {ex['states']:,} | " + " | ".join(cells) + " |")
    lines.append(
        "| **worst** | | | "
        + " | ".join(f"**{100 * worst[s][0]:.1f} %; {100 * worst[s][1]:.1f} %**" for s, _ in solvers)
        + " |"
    )
    return lines


def closed_tables() -> list[str]:
    solvers = [
        ("`solve_closed` (what answered)", lambda d, n, m, z: solve_closed(d, n, m, z)),
        (
            "`solve_closed` beyond the chain (`max_states=0`: exact MVA + Takacs)",
            lambda d, n, m, z: solve_closed(d, n, m, z, max_states=0),
        ),
        ("model: Schweitzer + finite-population factor", model),
        ("before: Schweitzer + open-load class wait", open_limit),
    ]
    cases = ((label, n, solve_ctmc(d, n, mix, z), (d, n, mix, z)) for label, d, mix, z, pops in NETWORKS for n in pops)
    return _against_chain(
        "### Closed read/write classes at FCFS stations, against the exact Markov chain",
        "Throughput error, then each class's response-time error (reads / writes), "
        "at each population, with the size of the network's Markov chain; worst over the populations in bold.",
        solvers,
        cases,
        lambda got: "chain" if got["method"] == "ctmc" else "Takacs",
    )


def multi_server_table() -> list[str]:
    solvers = [
        ("`solve_closed` (what answered)", lambda d, n, m, z, c: solve_closed(d, n, m, z, servers=c)),
        (
            "`solve_closed` beyond the chain (`max_states=0`: load-dependent MVA + factor)",
            lambda d, n, m, z, c: solve_closed(d, n, m, z, servers=c, max_states=0),
        ),
        ("Schweitzer, M/M/c stations (`solve_closed` beyond 1,000)", model_servers),
        (
            "Schweitzer, Seidmann's split (the model's vCPUs)",
            lambda d, n, m, z, c: model_servers(d, n, m, z, c, split=True),
        ),
    ]
    cases = (
        (label, n, solve_ctmc(d, n, mix, z, servers=servers), (d, n, mix, z, servers))
        for label, d, mix, z, servers, pops in MULTI_NETWORKS
        for n in pops
    )
    return _against_chain(
        "### Multi-server stations, against the exact Markov chain",
        "As above, at networks with a pool of servers (each class's service time is one server's).",
        solvers,
        cases,
        lambda got: "chain" if got["method"] == "ctmc" else got["method"],
    )


def chain_range() -> str:
    """The largest populations whose chain solve_closed solves (at most EXACT_STATES states),
    two classes at one, two and three stations that both visit, counted (nothing solved)."""

    def largest(stations, z):
        d, n = [[0.1] * stations, [0.4] * stations], 1
        while chain_states(d, n + 1, [0.7, 0.3], z, cap=EXACT_STATES + 1) <= EXACT_STATES:
            n += 1
        return n

    two, two0, one, three = largest(2, 1.0), largest(2, 0.0), largest(1, 1.0), largest(3, 1.0)
    return (
        f"at most {EXACT_STATES:,} states: reads and writes at two stations up to {two} customers "
        f"({two0} without think time), at one up to {one}, at three up to {three}"
    )


def factor_table() -> list[str]:
    ds, ps = np.array([0.1, 0.4]), np.array([0.7, 0.3])
    b, e2 = float(ps @ ds), float(ps @ ds**2)
    lines = [
        "### finite_population_factor against Takacs' exact finite-source ratio",
        "",
        "One station, exponential services of 0.1 and 0.4 s (70/30): the class-dependent extra wait of N customers "
        "over Pollaczek-Khinchine's at the same throughput, exact (Takacs) / the diffusion factor.",
        "",
        "| U | N = 2 | 8 | 32 | 128 | 512 | 2048 |",
        "|---|---|---|---|---|---|---|",
    ]
    for u in (0.3, 0.6, 0.8, 0.9, 0.95):
        row = []
        for n in (2, 8, 32, 128, 512, 2048):
            z = brentq(lambda z, n=n, u=u: n / (z + b + finite_source_wait(ds, ps, n, z)) * b - u, 1e-6, 1e8)
            x = n / (z + b + finite_source_wait(ds, ps, n, z))
            exact = (finite_source_wait(ds, ps, n, z) - finite_source_wait([b], [1.0], n, z)) / (
                x * (e2 - b * b) / (1.0 - x * b)
            )
            got = float(finite_population_factor(n, x * b, (e2 - b * b) / b**2, z, b))
            row.append(f"{exact:.2f} / {got:.2f}")
        lines.append(f"| {u} | " + " | ".join(row) + " |")
    return lines


def fork_join_sim(k, u, share, n, seed):
    """The mean longest of the k workloads a forked arrival finds, over one server's M/M/1 wait.

    Each server's workload seen by arrival i is Lindley's recursion V_i = max(0, V_(i-1) +
    a_(i-1) - gap_i), whose solution is C_i - min(0, C_0..C_i) for the running sum C of
    a_(i-1) - gap_i: vectorised (the same figures as the loop, to 1e-13)."""
    rng = np.random.default_rng(seed)
    lam_f, lam_o = u * share, u * (1.0 - share)
    tot = lam_f + k * lam_o
    gaps, kind, svc = rng.exponential(1.0 / tot, n), rng.random(n) * tot, rng.exponential(1.0, (n, k))
    forked = kind < lam_f
    added = np.where(forked[:, None], svc, 0.0)  # work each arrival brings to each server
    if lam_o > 0:
        rows = np.flatnonzero(~forked)
        added[rows, np.minimum(((kind[rows] - lam_f) / lam_o).astype(int), k - 1)] = svc[rows, 0]
    c = np.cumsum(np.vstack([np.zeros((1, k)), added[:-1]]) - gaps[:, None], axis=0)
    seen = c - np.minimum.accumulate(np.minimum(c, 0.0), axis=0)
    warm = forked & (np.arange(n) > n // 10)
    return float(seen[warm].max(axis=1).mean()) / (u / (1 - u))


def fork_join_table() -> tuple[list[str], float]:
    worst = 0.0
    lines = [
        "### fork_join_factor against simulation (longest of k waits over one)",
        "",
        "Servers a share of whose work arrives forked to all k at once; simulated / factor / the "
        "independent-waits factor (share 0, the model before this change).",
        "",
        "| k | share | U = 0.1 | 0.5 | 0.9 |",
        "|---|---|---|---|---|",
    ]
    for k in (2, 3, 4):
        for share in (1.0, 0.5):
            row = []
            for u in (0.1, 0.5, 0.9):
                sim = fork_join_sim(k, u, share, 200_000 if u < 0.85 else 400_000, seed=k * 100 + int(10 * u))
                worst = max(worst, abs(float(fork_join_factor(u, k, forked_share=share)) / sim - 1.0))
                row.append(
                    f"{sim:.2f} / {float(fork_join_factor(u, k, forked_share=share)):.2f} / {float(fork_join_factor(u, k)):.2f}"
                )
            lines.append(f"| {k} | {share} | " + " | ".join(row) + " |")
    return lines, worst


SUMMARY = [
    "### Each solver: exact for, and how far elsewhere",
    "",
    "| solver | exact for | elsewhere (worst, from the tables below) |",
    "|---|---|---|",
    "| `exact_mva` | one class at single-server FCFS or delay stations (product form) | - |",
    "| `solve_closed` (`markov.solve_chain`) | any network it describes (classes with their own exponential FCFS "
    "service times, routes, servers, think time) whose Markov chain has {chain}; product-form networks (classes "
    "with equal service times at each FCFS station, any servers) and one single-server FCFS station and a delay "
    "whatever the classes, by formula, up to 1,000 customers | every network below: {exact} |",
    "| `solve_closed` beyond the chain (exact MVA + Takacs), up to 1,000 customers | as above, by formula | "
    "networks below: {mva}; every class gets the same FCFS wait at a station, so reads are missed at the second "
    "of two equal stations (reads {tandem} at 4 customers) |",
    "| `schweitzer_symmetric` (the model), `solve_closed` beyond 1,000 | nothing exactly; tends to exact MVA as the "
    "population grows | networks below, 2 to 12 customers: {model} (before the finite-population factor: {before}) |",
    "| `finite_population_factor` | the open-load limit (factor 1) for unbounded populations and 0 for a saturated "
    "closed station | within 0.04 of Takacs' exact ratio from 128 customers; above it (more wait) for fewer |",
    "| `finite_source_wait` | M/G/1//N with exponential services per class (Takacs) | - |",
    "| `open_residence` | M/G/1 per station with exponential services per class (Pollaczek-Khinchine) | - |",
    "| `erlang_c`, `mmc_response` | M/M/c | - |",
    "| multi-server stations in the closed solvers (load-dependent MVA; `pooled_wait` in Schweitzer's fixed point; "
    "Seidmann's split in the model's vCPUs) | one class (load-dependent MVA) | multi-server networks below: "
    "beyond the chain {ms_mva}; Schweitzer with M/M/c {ms_mmc}; Seidmann's split {ms_split} |",
    "| `fork_join_factor` | independent waits (share 0); the light-traffic limit and, for k = 2, the heavy-traffic "
    "limit (Nelson & Tantawi) of shared arrivals | within {fj} of simulation, k = 2..4, shares 0.5 and 1 "
    "(simulations at U = 0.9 are themselves a few % noisy) |",
]


def build() -> str:
    """Every table, with its heading (level 3), as the Accuracy page shows them."""
    closed = closed_tables()
    worst = closed[-1].split("|")[4:8]
    exact, mva, model_w, before = (w.strip().strip("*") for w in worst)
    d, mix, z = [[0.1, 0.1], [0.4, 0.4]], [0.7, 0.3], 1.0  # the tandem: two equal stations
    _, tandem = errors(solve_closed(d, 4, mix, z, max_states=0), solve_ctmc(d, 4, mix, z))
    multi = multi_server_table()
    ms_mva, ms_mmc, ms_split = (w.strip().strip("*") for w in multi[-1].split("|")[5:8])
    fj_lines, fj_worst = fork_join_table()
    summary = [
        line.format(
            chain=chain_range(),
            exact=exact,
            tandem=pct(tandem[0]),
            mva=mva,
            model=model_w,
            before=before,
            ms_mva=ms_mva,
            ms_mmc=ms_mmc,
            ms_split=ms_split,
            fj=f"{100 * fj_worst:.1f} %",
        )
        for line in SUMMARY
    ]
    return "\n".join([*summary, "", *closed, "", *multi, "", *factor_table(), "", *fj_lines])


if __name__ == "__main__":
    print(build())
