"""Random but plausible candidate designs and a mixed set of workloads for the
speed benchmarks (not a test fixture: tests draw their own, wider cases)."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent  # examples come from this checkout


def candidates(n: int, seed: int = 0):
    """n variations of the reference design: nodes, drives, NIC speed,
    resiliency, transport, CPU cap, with or without a cache and its mode."""
    from planner.engine.performance import DesignArrays
    from planner.models.design import parse_design, resolve

    ref = DesignArrays.from_designs([resolve(parse_design((ROOT / "examples" / "reference.json").read_text()))])
    rng = np.random.default_rng(seed)
    D = ref.take(np.zeros(n, dtype=int))
    nodes = rng.integers(2, 17, n)
    cached = rng.random(n) < 0.6
    mode = rng.integers(0, 3, n)  # 0 read-write, 1 write-only, 2 read-only
    return D.replace(
        nodes=nodes,
        fault_domains=nodes,
        volume_servers=np.where(rng.random(n) < 0.2, np.minimum(nodes, 3), nodes),
        drives_per_node=rng.integers(2, 25, n),
        node_bandwidth_bytes_s=rng.choice([25, 50, 100, 200], n) * 1e9 / 8,
        resiliency_code=np.where(nodes >= 4, rng.choice([0, 1, 3, 4], n), rng.choice([0, 1], n)),
        tcp=rng.random(n) < 0.3,
        cpu_utilization_cap=np.where(rng.random(n) < 0.3, 1.0, rng.uniform(0.5, 1.0, n)),
        cache_per_node=np.where(cached, 2, 0),
        read_caching=cached & (mode != 1),
        write_caching=cached & (mode != 2),
    )


def mixed_workloads(D, seed: int = 1, open_share: float = 0.3):
    """One workload per design: the shipped profiles (closed populations, some
    rate-limited), a share of open loads at random rates, a tenth host-issued."""
    from planner.engine.performance import WorkloadArrays
    from planner.models.workload import profiles

    n = len(D)
    rng = np.random.default_rng(seed)
    ws = list(profiles().values())
    one = [WorkloadArrays.from_workload(w, 1) for w in ws]
    pick = rng.integers(0, len(ws), n)
    cols = {f.name: np.array([np.ravel(getattr(p, f.name))[0] for p in one])[pick] for f in fields(WorkloadArrays)}
    cols["vms_total"] = cols["vms_total"] * D.nodes  # profiles give VMs per node
    is_open = rng.random(n) < open_share
    cols["open_iops"] = np.where(is_open, rng.uniform(1e4, 2e6, n), np.nan)
    cols["host_issuer"] = rng.random(n) < 0.1
    cols["alignment"] = np.where(rng.random(n) < 0.3, rng.uniform(0.5, 1.0, n), 1.0)
    return WorkloadArrays(**cols)
