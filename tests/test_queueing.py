"""Queueing solvers against exact MVA and a discrete-event simulation."""

import heapq

import numpy as np
import pytest

from planner.engine.queueing import exact_mva, gamma_quantile, open_residence, schweitzer_symmetric


def simulate_closed(demands_s, delay_s, n, completions=120_000, seed=1):
    """Closed network: n customers cycle delay -> station 0 -> ... -> station K-1.

    Single-server FCFS stations with exponential service, a pure delay with
    exponential time. Returns (throughput, mean cycle time).
    """
    rng = np.random.default_rng(seed)
    k = len(demands_s)
    queues = [[] for _ in range(k)]
    busy = [False] * k
    events = []  # (time, kind, customer, station)
    t = 0.0
    start = {}
    for c in range(n):
        heapq.heappush(events, (rng.exponential(delay_s) if delay_s > 0 else 0.0, "arrive", c, 0))
        start[c] = 0.0
    done, total_r, warm = 0, 0.0, completions // 10
    t0 = None
    while done < completions:
        t, kind, c, s = heapq.heappop(events)
        if kind == "arrive":
            if busy[s]:
                queues[s].append(c)
            else:
                busy[s] = True
                heapq.heappush(events, (t + rng.exponential(demands_s[s]), "depart", c, s))
        else:
            if queues[s]:
                nxt = queues[s].pop(0)
                heapq.heappush(events, (t + rng.exponential(demands_s[s]), "depart", nxt, s))
            else:
                busy[s] = False
            if s + 1 < k:
                heapq.heappush(events, (t, "arrive", c, s + 1))
            else:
                done += 1
                if done == warm:
                    t0, total_r, count = t, 0.0, 0
                if done > warm:
                    total_r += t - start[c]
                    count += 1
                start[c] = t
                d = rng.exponential(delay_s) if delay_s > 0 else 0.0
                heapq.heappush(events, (t + d, "arrive", c, 0))
    x = count / (t - t0)
    return x, total_r / count


NETWORK = dict(demands=np.array([0.004, 0.002, 0.003]), delay=0.005)


@pytest.mark.parametrize("n", [1, 4, 12])
def test_exact_mva_matches_simulation(n):
    d, z = NETWORK["demands"], NETWORK["delay"]
    x_sim, r_sim = simulate_closed(d, z, n)
    x, r = exact_mva(d, z, n)
    assert x == pytest.approx(x_sim, rel=0.03)
    assert r.sum() + z == pytest.approx(r_sim, rel=0.03)


@pytest.mark.parametrize("n", [1, 4, 12])
def test_schweitzer_mean_latency_within_5pct_of_simulation(n):
    d, z = NETWORK["demands"], NETWORK["delay"]
    _, r_sim = simulate_closed(d, z, n)
    path = np.stack([d, d])[None]  # one design, two identical classes
    _x, r = schweitzer_symmetric(
        path, np.array([[0.5, 0.5]]), np.zeros((1, 3)), np.ones((1, 3)), np.array([n]), np.array([[z, z]])
    )
    r_model = r[0, 0].sum() + z
    assert r_model == pytest.approx(r_sim, rel=0.05)


def test_littles_law_holds_in_schweitzer():
    rng = np.random.default_rng(0)
    path = rng.uniform(1e-5, 1e-3, size=(50, 2, 4))
    mix = np.stack([np.full(50, 0.7), np.full(50, 0.3)], -1)
    share = rng.integers(1, 40, size=(50, 4)).astype(float)
    n = rng.integers(1, 64, size=50).astype(float)
    z = rng.uniform(1e-5, 1e-3, size=(50, 2))
    x, r = schweitzer_symmetric(path, mix, np.zeros((50, 4)), share, n, z)
    mean_r = (mix * (r.sum(-1) + z)).sum(-1)
    np.testing.assert_allclose(x * mean_r, n, rtol=1e-9)
    util = x[:, None] * share * (mix[..., None] * path).sum(-2)
    assert np.all(util <= 1.0 + 1e-9)


def test_open_residence_is_processor_sharing_and_saturates():
    d = np.array([[[0.001, 0.002]]])
    r, u = open_residence(d, np.array([[1.0]]), np.zeros((1, 2)), np.ones((1, 2)), np.array([250.0]))
    assert u[0, 1] == pytest.approx(0.5)
    assert r[0, 0, 1] == pytest.approx(0.004)
    r, u = open_residence(d, np.array([[1.0]]), np.zeros((1, 2)), np.ones((1, 2)), np.array([600.0]))
    assert np.isinf(r[0, 0, 1])


def test_gamma_quantile_exponential_case():
    # cv2 = 1 is the exponential: p99 = mean * ln(100)
    assert gamma_quantile(1.0, 1.0, 0.99) == pytest.approx(np.log(100.0), rel=1e-9)
    assert gamma_quantile(2.0, 0.25, 0.5) < gamma_quantile(2.0, 0.25, 0.99)


def test_gamma_inverse_matches_scipy():
    """The pure-Python inverse regularised gamma (no scipy.special at start-up)
    against scipy's, over shapes 0.05-200 and tail probabilities 1e-6-0.999999."""
    from scipy import special

    from planner.engine.queueing import gammainc, gammaincinv

    for a in np.exp(np.linspace(np.log(0.05), np.log(200.0), 120)):
        for p in (1e-6, 0.01, 0.1, 0.5, 0.9, 0.99, 0.999, 0.999999):
            ref = special.gammaincinv(a, p)
            assert gammaincinv(a, p) == pytest.approx(ref, rel=1e-10), (a, p)
            assert gammainc(a, ref) == pytest.approx(special.gammainc(a, ref), rel=1e-12, abs=1e-14), (a, p)
    cv2 = np.array([0.3, 0.7, 0.7, 2.0])
    np.testing.assert_allclose(
        gamma_quantile(np.array([1.0, 2.0, 3.0, 4.0]), cv2, 0.99),
        special.gammaincinv(1 / cv2, 0.99) * np.array([1.0, 2.0, 3.0, 4.0]) * cv2,
        rtol=1e-10,
    )


@pytest.mark.parametrize("u", [0.1, 0.5, 0.9])
@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_fork_join_factor_is_the_mean_of_the_longest_wait(u, k):
    """Against sampled M/M/1 waits (0 with probability 1 - U, else exponential
    with mean s / (1 - U)): the longest of k over the mean of one."""
    from planner.engine.queueing import fork_join_factor

    rng = np.random.default_rng(k * 10 + int(u * 10))
    n = 400_000
    w = np.where(rng.random((n, k)) < u, rng.exponential(1.0 / (1.0 - u), (n, k)), 0.0)
    assert fork_join_factor(u, k) == pytest.approx(w.max(1).mean() / (u / (1.0 - u)), rel=0.02)


def test_fork_join_factor_limits_and_derivative():
    from planner.engine.queueing import fork_join_factor

    assert fork_join_factor(0.0, 3) == pytest.approx(3.0)  # light load: any of the three may wait
    assert fork_join_factor(0.5, 1) == 1.0
    # U -> 1: the harmonic number (order statistics of exponentials); held at 0.99
    assert fork_join_factor(0.99, 4) == pytest.approx(1 + 1 / 2 + 1 / 3 + 1 / 4, rel=0.01)
    u = np.array([0.2, 0.7])
    g, dg = fork_join_factor(u, 3, derivative=True)
    assert dg == pytest.approx((fork_join_factor(u + 1e-7, 3) - g) / 1e-7, rel=1e-5)
    # more branches never wait less
    ks = np.arange(1, 5)
    assert np.all(np.diff(fork_join_factor(0.6, ks)) > 0)


def test_littles_law_holds_with_a_fork_join_wait():
    from planner.engine.queueing import fork_join_factor, lp_wait_factor

    path = np.array([[1e-4, 2e-4], [1e-4, 3e-4]])
    mix = np.array([0.7, 0.3])
    coef = np.array([5e-5, 8e-5])
    x, r = schweitzer_symmetric(
        path,
        mix,
        np.zeros(2),
        np.array([1.0, 20.0]),
        8.0,
        np.array([1e-4, 2e-4]),
        lp_wait=(coef, 0.05, 20 * 1e-5, np.array([1.0, 3.0])),
    )
    u = 0.05 + 20 * 1e-5 * x
    wait = coef * lp_wait_factor(u) * fork_join_factor(u, np.array([1.0, 3.0]))
    mean_r = (mix * (r.sum(-1) + np.array([1e-4, 2e-4]) + wait)).sum()
    assert x * mean_r == pytest.approx(8.0, rel=1e-9)


def test_open_wait_with_unequal_class_demands_is_pollaczek_khinchine():
    """Two classes with exponential services of 1 and 4 ms share one FCFS
    station at 70 % busy: the wait is M/G/1's (a hyperexponential service),
    checked against Lindley's recursion on 400,000 sampled IOs. The mixed
    mean's M/M/1 wait would be 27 % short."""
    rng = np.random.default_rng(5)
    p = np.array([0.7, 0.3])
    d = np.array([[1e-3], [4e-3]])
    mean = float(p @ d[:, 0])
    lam = 0.7 / mean
    r, u = open_residence(d, p, np.zeros(1), np.ones(1), lam)
    wait_model = float(r[0, 0] - d[0, 0])
    n = 400_000
    cls = rng.random(n) < p[1]
    svc = rng.exponential(np.where(cls, 4e-3, 1e-3))
    gaps = rng.exponential(1.0 / lam, n)
    w = np.empty(n)
    w[0] = 0.0
    for i in range(1, n):  # Lindley: W_i = max(0, W_{i-1} + S_{i-1} - A_i)
        w[i] = max(0.0, w[i - 1] + svc[i - 1] - gaps[i])
    assert float(u[0]) == pytest.approx(0.7)
    assert wait_model == pytest.approx(w[n // 10 :].mean(), rel=0.05)
    assert wait_model > 1.2 * (0.7 / 0.3 * mean)  # M/M/1 on the mean: U / (1 - U) x mean


def test_closed_wait_with_unequal_class_demands_is_bracketed():
    """200 IOs cycling through one FCFS station (exponential services of 1 and
    4 ms, 70/30) and a delay, simulated: the class-dependent wait the model
    uses (its open-load limit is Pollaczek-Khinchine) is above the simulated
    residence, the mixed mean's (one class of 1.9 ms) below it, and the
    throughput is within 3 %. A finite population queues a little less than
    Poisson arrivals would (N = 200: 13.6 ms simulated, 16.0 ms model, 11.7 ms
    mixed mean); with 12 IOs both formulas are above it."""
    rng = np.random.default_rng(11)
    p = np.array([0.7, 0.3])
    svc = np.array([1e-3, 4e-3])
    z, n_pop = 0.44, 200
    d = np.array([[1e-3, 0.0], [4e-3, 0.0]])
    share = np.array([float(n_pop), 1.0])
    x, r = schweitzer_symmetric(d, p, np.zeros(2), share, 1.0, np.array([z, z]))
    r_model = float((p * r[..., 0]).sum())
    _, r_mixed = schweitzer_symmetric(
        np.array([[float(p @ svc), 0.0]]), np.array([1.0]), np.zeros(2), share, 1.0, np.array([z])
    )
    events, queue, busy, t0, cls = [], [], False, {}, {}
    for c in range(n_pop):
        heapq.heappush(events, (rng.exponential(z), c, 0))
    done, start, resid, t = 0, None, [], 0.0
    while done < 200_000:
        t, c, kind = heapq.heappop(events)
        if kind == 0:  # arrival at the station
            cls[c], t0[c] = int(rng.random() < p[1]), t
            if busy:
                queue.append(c)
            else:
                busy = True
                heapq.heappush(events, (t + rng.exponential(svc[cls[c]]), c, 1))
        else:
            done += 1
            if done == 20_000:
                start = t
            if start is not None:
                resid.append(t - t0[c])
            heapq.heappush(events, (t + rng.exponential(z), c, 0))
            if queue:
                nxt = queue.pop(0)
                heapq.heappush(events, (t + rng.exponential(svc[cls[nxt]]), nxt, 1))
            else:
                busy = False
    sim_r = float(np.mean(resid))
    assert float(x) * n_pop == pytest.approx(len(resid) / (t - start), rel=0.03)
    assert float(r_mixed[0, 0]) < sim_r < r_model


def test_fork_join_factor_of_a_fractional_branch_count_mixes_the_counts_around_it():
    """A write that skips a lost node's column on some stripes forks to k or k + 1 nodes (RS 2+2 on 4 nodes,
    one down: 2 branches for 3/4 of the writes, 3 for the rest, 2.25 on average). The factor of 2.25 mixes the
    factors of 2 and 3 so, 3/4 and 1/4. It took the generalised binomial to the block's largest count instead,
    so a row's wait changed with the rows beside it (2.25 alone and 2.25 beside a 6 differed), and the compiled
    kernel, which stopped at int(k), disagreed with both."""
    from planner.engine.queueing import fork_join_factor

    u = np.array([0.05, 0.4, 0.8, 0.95])
    for fs in (0.0, 0.3):
        want = 0.75 * fork_join_factor(u, 2, False, fs) + 0.25 * fork_join_factor(u, 3, False, fs)
        alone = fork_join_factor(u, np.full(4, 2.25), False, fs)
        beside = fork_join_factor(np.r_[u, u], np.r_[np.full(4, 2.25), np.full(4, 6.0)], False, fs)[:4]
        np.testing.assert_allclose(alone, want, rtol=1e-12)
        np.testing.assert_allclose(beside, want, rtol=1e-12)
        g, dg = fork_join_factor(u, 2.25, True, fs)
        np.testing.assert_allclose(dg, (fork_join_factor(u + 1e-7, 2.25, False, fs) - g) / 1e-7, rtol=1e-5)
    # whole counts are as before, to the bit
    assert fork_join_factor(0.5, 3.0) == fork_join_factor(0.5, 3)
