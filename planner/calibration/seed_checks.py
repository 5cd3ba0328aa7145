"""The seed systems' published storage figures against the model (the storage side of issue 24).

Three of the four systems hciplan was shaped by are not hyperconverged and were never part of a
fit: the HP DL580 G7 single server of David Barbarin's SQLIO blog (2011), the Datrium DVX of
Datrium's technical report (2017) and the DataON CiB-9224 V12 Scale-Out File Server of Micron's
technical brief (2015). Each check rebuilds the shipped example (``examples/seed-*.json``, the
seed's own parts from the catalog) and compares a published figure or ordering with the
model. Every check says whether the figure is **in sample** (the figure itself, or the only
parameter it tests, came from the same source: it shows the model carries it through, not that
it predicts it) or **held out**. The database-level figures (TPM, NOPM) belong to the database
layer and are not here.

:func:`all_checks` returns one dict per check: ``seed``, ``check``, ``published`` (number or
text), ``predicted``, ``unit``, ``error_pct`` (None for orderings), ``tolerance_pct``,
``sample`` ("in sample" / "held out"), ``holds`` (bool), ``note``.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

from planner.core.resources import EXAMPLES_DIR
from planner.core.text import pct
from planner.engine.architectures import common, disaggregated, single_server, split
from planner.engine.architectures import sqlio as sqlio_mod
from planner.models.catalog import load_catalog
from planner.models.design import load_design, parse_design
from planner.models.params import ModelParams, default_params
from planner.models.workload import Workload

TOLERANCE_PCT = 35.0
DL580 = ("raid1", "raid10", "san-raid5", "iodrive")
#: the Datrium report's storage latencies (DAVG) at its published load: "read latency was 0.8 milliseconds"
#: (0.9 in steady state), "write latency was slightly above 2 milliseconds"
DATRIUM_READ_MS = (0.8, 0.9)
DATRIUM_WRITE_MS = 2.05
#: HammerDB's TPC-C IO as Datrium describes it: "roughly a 70:30 split of read/write transactions at 8KB
#: block size"
OLTP_BLOCK_KIB, OLTP_READ_FRACTION = 8.0, 0.7
#: Micron/DataON: "just over a million Orders per Minute" at four database servers (read as NOPM)
DATAON_NOPM_4DB = 1_000_000.0


def _design(name: str):
    return load_design(EXAMPLES_DIR / f"{name}.json")


def _row(seed, check, published, predicted, unit, sample, holds, note="", error_pct=None):
    return {
        "seed": seed,
        "check": check,
        "published": published,
        "predicted": predicted,
        "unit": unit,
        "error_pct": error_pct,
        "tolerance_pct": TOLERANCE_PCT if error_pct is not None else None,
        "sample": sample,
        "holds": bool(holds),
        "note": note,
    }


def _figure(seed, check, published, predicted, unit, sample, note=""):
    err = (predicted / published - 1.0) * 100.0
    return _row(seed, check, published, predicted, unit, sample, abs(err) <= TOLERANCE_PCT, note, err)


# ------------------------------------------------------------------ HP DL580 G7 (SQLIO)


@lru_cache(maxsize=4)
def dl580_sweeps(cold_cache: bool = False, p: ModelParams | None = None) -> dict:
    """The seed's SQLIO sweep on each of the four storage layouts of the DL580 G7."""
    p = p or default_params()
    return {
        k: sqlio_mod.sweep(
            single_server.resolve_parts(_design(f"seed-dl580-{k}"), load_catalog()), p, cold_cache=cold_cache
        )
        for k in DL580
    }


def dl580_4k(layout: str, op: str, p: ModelParams | None = None) -> dict:
    """A 4 KiB random test at 64 outstanding per thread (the sweep's deepest queue) [IOPS]."""
    return sqlio_mod.run_test(
        single_server.resolve_parts(_design(f"seed-dl580-{layout}"), load_catalog()), sqlio_mod.Test(op, 4.0, 64), p
    )


def dl580_checks(p: ModelParams | None = None) -> list[dict]:
    seed = "HP DL580 G7 (SQLIO blog)"
    sw = dl580_sweeps(False, p)
    best = {k: {op: sw[k]["best"][op]["iops"] for op in ("read", "write")} for k in DL580}
    rows = []
    r1 = dl580_4k("raid1", "read", p)["iops"] / 2.0
    rows.append(
        _figure(
            seed,
            "SSD 4 KiB random reads, per SSD (RAID 1 of two)",
            20_000,
            r1,
            "IOPS",
            "in sample",
            "the blog's expected ~20,000 per SSD is the drive record's read figure; the controller does not bind",
        )
    )
    card = dl580_4k("iodrive", "read", p)["iops"]
    rows.append(
        _figure(
            seed,
            "PCIe IO Accelerator 4 KiB random reads",
            100_000,
            card,
            "IOPS",
            "in sample",
            "HP's 100,000 (quoted by the blog) is the card record's read figure",
        )
    )
    w1 = dl580_4k("raid1", "write", p)["iops"]
    rows.append(
        _row(
            seed,
            "SATA SSD 4 KiB random writes at most 5,000 (RAID 1: one SSD's worth)",
            "below 5,000",
            w1,
            "IOPS",
            "in sample",
            w1 <= 5000.0 * (1 + 1e-9),
            "the drive's steady-state write figure is the blog's bound itself, so the model reaches it and no more",
        )
    )
    ratio = best["raid10"]["read"] / best["raid1"]["read"]
    rows.append(
        _row(
            seed,
            "RAID 1 and RAID 10 read about the same (best IOPS under 20 ms; ratio RAID 10 / RAID 1)",
            "about 1",
            ratio,
            "ratio",
            "held out",
            abs(ratio - 1.0) <= TOLERANCE_PCT / 100.0,
            "HP documents load balancing for RAID 1 and RAID 1+0, so all four drives read: RAID 10 / RAID 1 "
            "= min(4 d, C) / min(2 d, C) with d an SSD's reads and C the P410i's ceiling. With the blog's "
            "'expected' d = 20,000 it holds for C under 54,000; at HP's 'up to 60,000' it holds for d over "
            "22,200; HP gives C '50,000 to 60,000' and d = 30,000 for a fresh 100 GB Value SATA SSD (ratio "
            "1.0), and no datasheet of this drive or measured P410i SSD ceiling was found, so the published "
            "figures do not decide it; SQLIO's -BH (hardware cache on), the read-ahead-only read cache and 12 "
            "threads x up to 64 overlapped IOs do not narrow it",
        )
    )
    others = [k for k in DL580 if k != "iodrive"]
    for op in ("read", "write"):
        first = all(best["iodrive"][op] > best[k][op] for k in others)
        rows.append(
            _row(
                seed,
                f"the card first in {op}s (best IOPS under 20 ms)",
                "card first",
                ", ".join(f"{k} {best[k][op]:,.0f}" for k in DL580),
                "IOPS",
                "held out",
                first,
            )
        )
    order = ["iodrive", "raid10", "san-raid5", "raid1"]
    vals = [best[k]["write"] for k in order]
    rows.append(
        _row(
            seed,
            "writes: card > RAID 10 > RAID 5 SAN > RAID 1 (best IOPS under 20 ms)",
            " > ".join(order),
            ", ".join(f"{k} {v:,.0f}" for k, v in zip(order, vals)),
            "IOPS",
            "held out",
            all(a > b for a, b in itertools.pairwise(vals)),
            "rests on destage_bound_writes: the SAN's RAID 5 writes are what the four SSDs write with "
            "read-modify-write, not free writes into a cache ten times the 2 GB file; with a clean cache "
            "at the start of each 60 s run (cold_cache) the SAN passes RAID 10",
        )
    )
    san_r = best["san-raid5"]["read"]
    rows.append(
        _row(
            seed,
            "SAN RAID 5 reads 'not satisfactory' (read as: below both local RAID sets)",
            "below RAID 1 and RAID 10",
            ", ".join(f"{k} {best[k]['read']:,.0f}" for k in ("san-raid5", "raid1", "raid10")),
            "IOPS",
            "held out",
            san_r < min(best["raid1"]["read"], best["raid10"]["read"]),
            "the 2 GB file fits the array's cache, so the model's SAN reads are bound only by the one 4GFC "
            "path (48,800 8 KiB IOPS); with one path per LUN the host keeps at most the QLogic HBA's default "
            "Execution Throttle, 16, in flight (below the USP V's 32 per LUN), so the SAN falls under RAID 1 "
            "only if a cached 8 KiB read takes over 0.4 ms end to end (16 / 40,000), against the model's "
            "unloaded 0.09 ms; no USP VM cache-hit latency is published; the author blames HBA, fabric and "
            "controller settings left at default, which the blog does not give",
        )
    )
    return rows


# ------------------------------------------------------------------ Datrium DVX


def datrium_load(iops: float) -> Workload:
    """The SQL Server VM's IO as an open load (12 vCPUs, the 500 GB database as working set)."""
    return Workload(
        name="datrium-hammerdb-io",
        block_size_kib=OLTP_BLOCK_KIB,
        read_fraction=OLTP_READ_FRACTION,
        iops=iops,
        vcpus_per_vm=12,
        ram_gb_per_vm=256,
        working_set_gb_per_vm=500.0,
    )


def datrium_at(iops: float, design=None, p: ModelParams | None = None) -> dict:
    p = p or default_params()
    parts = split.resolve_parts(design or _design("seed-datrium-dvx"), load_catalog())
    net = split.network(parts, datrium_load(iops), p)
    return {**common.solve(net, p), "notes": net.notes}


def datrium_load_for_read_latency(target_ms: float, p: ModelParams | None = None) -> float:
    """The IO rate at which the model's storage read latency is ``target_ms`` [IOPS] (bisection
    below saturation; the read latency grows with the rate)."""
    cap = datrium_at(1.0, p=p)["iops_capacity"]
    lo, hi = 1.0, cap * 0.999999
    if datrium_at(hi, p=p)["read_latency_ms"] < target_ms:
        return float("nan")
    for _ in range(80):
        mid = 0.5 * (lo + hi)
        if datrium_at(mid, p=p)["read_latency_ms"] < target_ms:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def _datrium_variant(**split_changes):
    import json

    doc = json.loads((EXAMPLES_DIR / "seed-datrium-dvx.json").read_text(encoding="utf-8"))
    doc["split"].update(split_changes)
    return parse_design(doc)


def datrium_checks(p: ModelParams | None = None) -> list[dict]:
    seed = "Datrium DVX (technical report)"
    rows = []
    low = datrium_at(1000.0, p=p)
    hit = 1.0 if f"read hit ratio {pct(1.0)}" in low["notes"][0] else 0.0
    rows.append(
        _row(
            seed,
            "flash read hit 100 % (500 GB database, 2 TB of compute-node flash)",
            "100 %",
            pct(hit),
            "share",
            "held out",
            hit == 1.0,
        )
    )
    cap = low["iops_capacity"]
    read_95 = datrium_at(0.95 * cap, p=p)["read_latency_ms"]
    rows.append(
        _row(
            seed,
            "reads sub-millisecond up to 95 % of the storage CPU share",
            "< 1 ms",
            read_95,
            "ms",
            "held out",
            read_95 < 1.0,
            "the report: 'sub-millisecond latencies for read operations'",
        )
    )
    x = datrium_load_for_read_latency(float(np.mean(DATRIUM_READ_MS)), p)
    at = datrium_at(x, p=p)
    rows.append(
        _figure(
            seed,
            "read latency at the published load (the load is set so the read latency is 0.85 ms)",
            float(np.mean(DATRIUM_READ_MS)),
            at["read_latency_ms"],
            "ms",
            "in sample",
            f"the load is not published; the model reaches 0.85 ms at {x:,.0f} IOPS (8 KiB, 70 % reads), "
            f"{pct(at['utilization']['storage_cpu'])} of the storage CPU share: {x * 60 / 2e6:.2f} IOs per "
            "transaction at 2.0 M TPM",
        )
    )
    rows.append(
        _figure(
            seed,
            "write latency at that load ('slightly above 2 ms')",
            DATRIUM_WRITE_MS,
            at["write_latency_ms"],
            "ms",
            "held out",
            "reads and writes wait alike for the storage CPU (FCFS), so writes sit only the network crossing, "
            "the data-node acknowledgement and their longer CPU service above reads; the published 2 ms implies "
            "about 1 ms more in the write path than anything the model has a figure for (WhatMatrix's DVX write "
            "path, fingerprint and compress each 4K block then write it to the data node's mirrored NVRAM, adds "
            "tens of microseconds, not a millisecond)",
        )
    )
    fast = _datrium_variant(storage_cpu_share=0.2)
    insane = _datrium_variant(storage_cpu_share=0.4)
    gain = datrium_at(1.0, insane, p)["iops_capacity"] / datrium_at(1.0, fast, p)["iops_capacity"]
    rows.append(
        _figure(
            seed,
            "Insane mode (40 % of host CPU) against Fast (20 %): storage IO 'doubled'",
            2.0,
            gain,
            "x",
            "held out",
            "WhatMatrix: 'the performance in storage IO is doubled (or depending on the workload even trippled)'",
        )
    )
    steady = _datrium_variant(background_share=0.1)
    ratio = datrium_at(1.0, steady, p)["iops_capacity"] / cap
    rows.append(
        _figure(
            seed,
            "snapshots and reclamation: 1.8 M / 2.0 M TPM (storage IO capacity ratio)",
            0.9,
            ratio,
            "ratio",
            "in sample",
            "background_share 0.10 is this very ratio; at the TPM level it moves the result only where "
            "storage binds (the published run was bound by the VM's 12 vCPUs)",
        )
    )
    return rows


# ------------------------------------------------------------------ DataON CiB-9224 V12 SOFS


def dataon_load(iops_per_server: float | None = None) -> Workload:
    """One database server's IO (SQL Server on the host, no VM): 8 KiB, 70 % reads, open."""
    return Workload(
        name="dataon-sql-io",
        block_size_kib=OLTP_BLOCK_KIB,
        read_fraction=OLTP_READ_FRACTION,
        issuer="host",
        iops=iops_per_server or 1.0,
        working_set_gb_per_vm=1000.0,
    )


def dataon_capacity(db_servers: int, p: ModelParams | None = None, design=None) -> float:
    """IOPS the file servers and JBOD carry for ``db_servers`` database servers [IOPS]."""
    p = p or default_params()
    parts = disaggregated.resolve_parts(design or _design(f"seed-dataon-sofs-{db_servers}db"), load_catalog())
    net = disaggregated.network(parts, dataon_load(), p, db_servers=db_servers)
    return float(common.solve(net, p)["iops_capacity"])


def dataon_scaling(per_server_iops: float, p: ModelParams | None = None) -> list[dict]:
    """The shipped 1-, 2- and 4-server designs, each database server at ``per_server_iops``."""
    p = p or default_params()
    rows = []
    for n in (1, 2, 4):
        parts = disaggregated.resolve_parts(_design(f"seed-dataon-sofs-{n}db"), load_catalog())
        w = dataon_load(per_server_iops * n)
        net = disaggregated.network(parts, w, p)
        res = common.solve(net, p)
        storage = {s: res["utilization"][s] for s in net.stations[3:]}
        rows.append(
            {
                "db_servers": n,
                "iops": res["iops"],
                "saturated": res["saturated"],
                "busiest_file_server_station": max(storage, key=storage.__getitem__),
                "busiest_utilization": max(storage.values()),
                "read_latency_ms": res["read_latency_ms"],
                "write_latency_ms": res["write_latency_ms"],
            }
        )
    return rows


def dataon_checks(p: ModelParams | None = None) -> list[dict]:
    seed = "DataON CiB-9224 V12 SOFS (Micron brief)"
    caps = {n: dataon_capacity(n, p) for n in (1, 2, 4)}
    per_server = caps[4] / 4.0
    rows = [
        _row(
            seed,
            "one database server does not saturate the file servers at a quarter of the 4-server capacity",
            "1 -> 2 -> 4 scale smoothly",
            f"1 server: {caps[1]:,.0f} IOPS capacity; 4 servers: {caps[4]:,.0f}",
            "IOPS",
            "held out",
            caps[1] > per_server,
            "one virtual disk per database server: with one server a single file server does the SMB work",
        )
    ]
    scal = dataon_scaling(0.9 * per_server, p)
    linear = all(not r["saturated"] for r in scal) and scal[-1]["iops"] >= 3.9 * scal[0]["iops"]
    rows.append(
        _row(
            seed,
            "IOPS headroom for 4 database servers: 1, 2, 4 servers at 90 % of a quarter of the 4-server capacity",
            "scales smoothly, 'signs it could deliver even more'",
            ", ".join(f"{r['db_servers']}: {r['iops']:,.0f} ({pct(r['busiest_utilization'])} busiest)" for r in scal),
            "IOPS",
            "held out",
            linear,
            f"the file servers carry up to {caps[4] * 60 / DATAON_NOPM_4DB:.1f} IOs (8 KiB, 70 % reads) per new "
            "order at 1,000,000 NOPM: the database layer's translation must ask no more",
        )
    )
    return rows


def all_checks(p: ModelParams | None = None) -> list[dict]:
    """Every seed check, DL580 G7 first."""
    return [*dl580_checks(p), *datrium_checks(p), *dataon_checks(p)]
