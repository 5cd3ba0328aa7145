"""Discrete-event simulation of the cluster's queueing network, to judge the
analytic solution (:func:`planner.engine.performance.evaluate_arrays`) against.

The simulated network is the one the model describes, with the model's own
per-IO demands (:func:`planner.engine.performance.demand_terms`); what differs is
that it is simulated IO by IO instead of solved by approximate MVA:

* every VM keeps ``outstanding_per_vm`` IOs in flight (closed population), or
  IOs arrive as a Poisson stream at ``open_iops`` (open load);
* a per-VM IOPS limit or the CPU utilisation cap paces each VM's IOs at the
  issuer: a token bucket at that rate, as deep as the VM's outstanding IOs
  (so it holds IOs back only when the rate binds); the wait for a token is
  outside the latency the model reports, as in VMFleet's throttled steps;
* an IO of class read (share ``read_fraction``) or write visits, in turn:
  its VM's vCPUs (a private FCFS queue with ``vcpus`` servers, exponential
  guest CPU time: the real multi-server queue that Seidmann's approximation
  stands for), the pooled host CPU, the network, the cache devices and the
  capacity drives (single FCFS servers with exponential service of the class's
  demand: the model's pooled-resource abstraction), then its fixed delays
  (device access time, software path, wire, guest latency) and the LP wait
  for its critical-path host CPU (the model's load-dependent delay, at the
  simulation's own running utilisation);
* cache destage and parity rotation: every front-end IO leaves a background
  job at the capacity drives (exponential, the model's background demand per
  IO), served FCFS among the foreground IOs;
* stations an IO's class does not use are skipped.

Used by ``tests/test_simulation.py`` (accuracy) and ``benchmarks/simulate.py``
(speed ratio). Pure Python (heapq): seconds per design, not for production.
"""

from __future__ import annotations

import heapq
import math
import random
from collections import deque

import numpy as np

from planner.engine.performance import DesignArrays, K, WorkloadArrays, demand_terms, forked_share
from planner.engine.queueing import fork_join_factor, lp_wait_factor


def _row(A, cls, i: int):
    return cls(
        **{
            k: np.asarray(v).reshape(-1)[i] if np.size(v) > 1 else np.asarray(v).reshape(-1)[0]
            for k, v in A.__dict__.items()
        }
    )


def network(D: DesignArrays, W: WorkloadArrays, p, i: int = 0) -> dict:
    """The queueing network of design/workload row ``i``: per-class demands
    per station, background demand, delays and the policies, in seconds."""
    from planner.physics.cpu import cap_throughput_iops

    Di, Wi = _row(D, DesignArrays, i), _row(W, WorkloadArrays, i)
    t = demand_terms(Di, Wi, p)
    f = {
        k: (float(v) if np.ndim(v) == 0 else [float(x) for x in v])
        for k, v in t.items()
        if k not in ("path_read", "path_write")
    }
    vcpus = max(float(Wi.vcpus_per_vm), 1.0)
    guest_s = float(t["path_read"][0]) * vcpus
    seidmann = guest_s * (vcpus - 1.0) / vcpus
    r = float(Wi.read_fraction)
    cpu_per_io = r * f["cpu_lp_s_read"] + (1 - r) * f["cpu_lp_s_write"]
    vms = max(float(Wi.vms_total), 1.0)
    lps_raw = float(Di.lps_per_node * Di.nodes)
    cap = float(Di.cpu_utilization_cap)
    pace = float(Wi.iops_limit_per_vm)
    if cap < 1.0:
        pace = min(pace, float(cap_throughput_iops(cap, p, lps_raw, cpu_per_io)) / vms)
    return dict(
        read_fraction=r,
        vms=round(vms),
        outstanding=round(float(Wi.outstanding_per_vm)),
        open_iops=float(Wi.open_iops),
        pace_per_vm=pace,
        vcpus=round(vcpus),
        guest_s=guest_s,
        demand=[[float(x) for x in t["path_read"]], [float(x) for x in t["path_write"]]],
        background_s=float(t["background"]),
        # fixed delays of the VM-layer path, without Seidmann's part (the vCPUs are queued for real)
        delay_s=[f["delay_vm_read"] - seidmann, f["delay_vm_write"] - seidmann],
        lp_wait_coef_s=[
            p.storage_cpu_wait * f["host_critical_s_read"],
            p.storage_cpu_wait * f["host_critical_s_write"],
        ],
        lp_wait_branches=[1.0, float(t["write_branches"])],
        lp_wait_forked_share=float(forked_share(r, f["cpu_lp_s_read"], f["cpu_lp_s_write"], f["forked_cpu_s_write"])),
        lp_util_idle=p.host_cpu_idle_utilization,
        lp_util_per_iops=cpu_per_io / lps_raw,
    )


def simulate(net: dict, completions: int = 40_000, warmup: float = 0.2, seed: int = 1, batches: int = 10) -> dict:
    """Simulate ``net`` (from :func:`network`) until ``completions`` IOs have
    completed after a warm-up of ``warmup`` x that many. Returns cluster IOPS,
    mean VM-layer latency (ms; IO-weighted, from issue to completion) per class
    and overall, and the half-width of a 95 % batch-means interval of each."""
    rng = random.Random(seed)
    expo = rng.expovariate
    r = net["read_fraction"]
    demand = net["demand"]
    V, m = net["vms"], net["vcpus"]
    guest = net["guest_s"]
    bg = net["background_s"]
    delay = net["delay_s"]
    wcoef = net["lp_wait_coef_s"]
    branches = net.get("lp_wait_branches", [1.0, 1.0])
    forked = net.get("lp_wait_forked_share", 0.0)
    idle, per_iops = net["lp_util_idle"], net["lp_util_per_iops"]
    is_open = not math.isnan(net["open_iops"])
    pace = net["pace_per_vm"]
    paced = not is_open and math.isfinite(pace)
    tolerance = (max(net.get("burst", net["outstanding"]), 1) - 1) / pace if paced else 0.0

    # pooled stations 1..K-1: one FCFS server each; station 0: m servers per VM
    queue = [deque() for _ in range(K)]
    busy = [False] * K
    vq = [deque() for _ in range(V)]
    vbusy = [0] * V
    next_token = [0.0] * V
    heap: list = []
    seq = 0

    def push(t, kind, data):
        nonlocal seq
        seq += 1
        heapq.heappush(heap, (t, seq, kind, data))

    # running LP utilisation for the model's LP wait (updated every window)
    window_start, window_done = 0.0, 0
    util = idle
    # the LP wait factor per class, recomputed only when the utilisation window
    # moves (not per completed IO)

    def lp_wait_at(u):
        return [float(lp_wait_factor(u) * fork_join_factor(u, b, False, forked)) for b in branches]

    lp_wait_now = lp_wait_at(util)
    lat_sum = [0.0, 0.0]
    lat_n = [0, 0]
    batch = []
    done = 0
    total = int(completions * (1 + warmup))
    t_measure = None

    def issue(t, vm):
        c = 0 if rng.random() < r else 1
        io = [vm, c, 0, t]
        if paced:  # token bucket (GCRA) of depth ``burst``: waits only when the rate binds
            t_go = max(t, next_token[vm] - tolerance)
            next_token[vm] = max(next_token[vm], t_go) + 1.0 / pace
            io[3] = t_go  # the wait for a token is at the issuer, outside the latency
            push(t_go, "visit", io)
        else:
            visit(t, io)

    def start(t, k, io):
        """Begin service of ``io`` at station k (its server is free)."""
        if io is None:  # background job
            push(t + expo(1.0 / bg), "done", (k, None))
        else:
            push(t + expo(1.0 / demand[io[1]][k]), "done", (k, io))

    def visit(t, io):
        # next station this class uses, from io[2] on; then the fixed delays
        vm, c, k, _ = io
        while k < K:
            if k == 0:
                if guest > 0.0:
                    io[2] = 0
                    if vbusy[vm] < m:
                        vbusy[vm] += 1
                        push(t + expo(1.0 / guest), "vdone", io)
                    else:
                        vq[vm].append(io)
                    return
            elif demand[c][k] > 0.0:
                io[2] = k
                if busy[k]:
                    queue[k].append(io)
                else:
                    busy[k] = True
                    start(t, k, io)
                return
            k += 1
        io[2] = K
        push(t + delay[c] + wcoef[c] * lp_wait_now[c], "complete", io)

    if is_open:
        push(expo(net["open_iops"]), "arrive", None)
    else:
        for vm in range(V):
            for _ in range(net["outstanding"]):
                issue(0.0, vm)

    while done < total:
        t, _, kind, data = heapq.heappop(heap)
        if kind == "visit":
            visit(t, data)
        elif kind == "arrive":
            issue(t, rng.randrange(V))
            push(t + expo(net["open_iops"]), "arrive", None)
        elif kind == "vdone":
            vm = data[0]
            if vq[vm]:
                push(t + expo(1.0 / guest), "vdone", vq[vm].popleft())
            else:
                vbusy[vm] -= 1
            data[2] = 1
            visit(t, data)
        elif kind == "done":
            k, io = data
            if queue[k]:
                start(t, k, queue[k].popleft())
            else:
                busy[k] = False
            if io is not None:
                io[2] = k + 1
                visit(t, io)
        else:  # complete
            vm, c, _, t0 = data
            done += 1
            if bg > 0.0:  # the IO's background work joins the drives' queue
                if busy[K - 1]:
                    queue[K - 1].append(None)
                else:
                    busy[K - 1] = True
                    start(t, K - 1, None)
            if done == total - completions:
                t_measure = t
            if t_measure is not None:
                lat_sum[c] += t - t0
                lat_n[c] += 1
                batch.append(t - t0)
            window_done += 1
            if window_done >= 2000:
                util = idle + per_iops * window_done / max(t - window_start, 1e-12)
                lp_wait_now = lp_wait_at(util)
                window_start, window_done = t, 0
            if not is_open:
                issue(t, vm)
    span = t - t_measure
    lat = np.array(batch)
    means = np.array([q.mean() for q in np.array_split(lat, batches)])
    half = 1.96 * means.std(ddof=1) / math.sqrt(batches)
    n_all = lat_n[0] + lat_n[1]
    return dict(
        iops=n_all / span,
        vm_latency_ms=1e3 * lat.mean(),
        vm_read_latency_ms=1e3 * lat_sum[0] / lat_n[0] if lat_n[0] else float("nan"),
        vm_write_latency_ms=1e3 * lat_sum[1] / lat_n[1] if lat_n[1] else float("nan"),
        vm_latency_ci_ms=1e3 * half,
        host_cpu_utilization=min(util, 1.0),
        completions=n_all,
        simulated_s=span,
    )
