"""The seed systems' published figures and orderings against the model, one table per seed:
the storage side from :func:`planner.calibration.seed_checks.all_checks`, the database side from
:func:`database_checks` (``database_capacity`` of the shipped seed designs and databases, as
``hciplan sla DESIGN --database DB`` prints it). The docs' Accuracy page is generated from
:func:`render`; ``python scripts/seeds_table.py`` prints it.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from planner.calibration.seed_checks import TOLERANCE_PCT, all_checks

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
DB_PUBLISHED = "planner/data/benchmarks/database/results.json"


def database_checks() -> list[dict]:
    """The database-level seed figures: the most each shipped seed design sustains of its
    published database against the published result (the tests in tests/test_seeds_database.py
    hold the same figures); then the database layer's fitted CPU per transaction (in sample) and
    its held-out checks, as scripts/fit_oltp.py last wrote them."""
    import json

    from planner.commercial.database import database_capacity
    from planner.models.database import load_database
    from planner.models.design import load_design

    pub = json.loads((Path(__file__).resolve().parent.parent / DB_PUBLISHED).read_text())["seeds"]

    def cap(design: str, db: str) -> dict:
        return database_capacity(load_design(EXAMPLES / f"{design}.json"), load_database(EXAMPLES / f"{db}.json"))

    rows = []
    d = cap("seed-datrium-dvx", "db-seed-datrium")
    dt = pub["datrium"]
    burst = checkpoint_burst(
        load_design(EXAMPLES / "seed-datrium-dvx.json"), load_database(EXAMPLES / "db-seed-datrium.json"), d
    )
    rows += [
        dict(
            seed="Datrium DVX (technical report)",
            check="TPM, the VM's 12 vCPUs at 100 % (database_capacity)",
            published=dt["tpm"],
            predicted=d["max_tpm"],
            unit="TPM",
            sample="in sample",
            note=f"the database layer's CPU per transaction is fitted on this run; binds: {d['binding_note']}",
        ),
        dict(
            seed="Datrium DVX (technical report)",
            check="TPM with snapshots and reclamation running",
            published=dt["steady_state_tpm"],
            predicted=d["max_tpm"],
            unit="TPM",
            sample="held out",
            note="reclamation runs on the storage's CPU share, not the VM's vCPUs: the CPU-bound figure does not fall",
        ),
        dict(
            seed="Datrium DVX (technical report)",
            check="VM read latency at that point",
            published=0.85,
            predicted=d["vm_read_latency_ms"],
            unit="ms",
            sample="held out",
            note="published 0.8-0.9 ms",
        ),
        dict(
            seed="Datrium DVX (technical report)",
            check="VM write latency at that point",
            published=2.05,
            predicted=d["vm_write_latency_ms"],
            unit="ms",
            sample="held out",
            note="'slightly above 2 ms'; strict xfail: the model's write path lacks ~1 ms. The database's writes are "
            f"SQL Server 2014 automatic checkpoints: their {burst['burst_s']:g} s burst asks {burst['ratio']:.1f}x the "
            f"IOPS the reserved storage CPU carries at that mix ({burst['capacity_iops']:,.0f}), so each checkpoint "
            f"saturates it for ~{burst['busy_s']:.0f} s of every {burst['interval_s']:g} s; the wait then depends on "
            "the checkpoint's writes in flight (not published), and the same FCFS queue would slow the reads, which "
            "stayed at 0.8-0.9 ms",
        ),
    ]
    do = pub["dataon"]
    dataon = "DataON CiB-9224 V12 SOFS (Micron brief)"
    caps = {n: cap(f"seed-dataon-sofs-{n}db", "db-seed-dataon") for n in (1, 2, 4)}
    # the users' average response a server at the model's rate, by Little's law (users / rate)
    resp = {n: response_ms(c["per_server_tpm"]) for n, c in caps.items()}
    for n, c in caps.items():
        rows.append(
            dict(
                seed=dataon,
                check=f"NOPM with {n} database server(s) (database_capacity)",
                published=do["orders_per_minute_at_4_servers"] if n == 4 else "scales smoothly",
                predicted=c["max_nopm"],
                unit="NOPM",
                sample="held out",
                note=f"binds: {c['binding_note']}; {c['io']['iops'] / c['io']['transactions_per_s']:.1f} IOs per "
                f"call; response {resp[n]:.0f} ms by Little's law (published: under 50 ms)"
                + (
                    "; 'Orders per Minute' read as NOPM (the issue's reading); the write-back cache absorbs bursts "
                    "only (assumption write_back_cache_bursts_only)"
                    if n == 4
                    else ""
                ),
            )
        )
    up, said = rising({n: c["max_nopm"] for n, c in caps.items()}, "{:,.0f}")
    rows.append(
        dict(
            seed=dataon,
            check="NOPM rises from 1 to 2 to 4 database servers (ordering)",
            published="1 < 2 < 4",
            predicted=said,
            unit="NOPM",
            sample="held out",
            holds=up,
            note="strict xfail: the file servers' CPU binds at 2 and at 4 servers at the same IOPS; four databases "
            "at half the rate each ask more IO per call than two (a district's order tails, backlog head and "
            "delivered orders are written in a checkpoint interval when an order reached it, which at half the "
            "rate costs more per call: 86 % of the 100,000 districts at four servers' rate, 98.5 % at two's), so "
            "the same file servers carry fewer NOPM. With the IO per call held fixed the total never falls "
            "(tested, and on random designs)",
        )
    )
    # the brief's latency claim at every server count, four included (the test had checked one and two servers only,
    # where it holds), and at the published rate a server in TPM (the model's TPM / NOPM)
    at_published = response_ms(do["orders_per_minute_at_4_servers"] / 4 * caps[4]["max_tpm"] / caps[4]["max_nopm"])
    rows.append(
        dict(
            seed=dataon,
            check="average response under 50 ms at 1, 2 and 4 database servers (384 users / rate, Little's law)",
            published="under 50 ms",
            predicted=", ".join(f"{n}: {resp[n]:.1f} ms" for n in (1, 2, 4)),
            unit="ms",
            sample="held out",
            holds=all(v < 50 for v in resp.values()),
            note="strict xfail at four servers: the response follows the rate, and the model's rate there is its "
            f"NOPM miss above; at the published rate (250,000 NOPM a server) the same law gives {at_published:.1f} ms",
        )
    )
    rises, said = rising(resp, "{:.1f} ms")
    rows.append(
        dict(
            seed=dataon,
            check="average response rises from 1 to 2 to 4 database servers (ordering)",
            published="1 < 2 < 4",
            predicted=said,
            unit="ms",
            sample="held out",
            holds=rises,
            note="'lower values at low node count increasing as the node count increases' (the brief, of the 99.9th "
            "percentile and the average); strict xfail: one and two database servers each have a file-server node "
            "of their own (per-node ownership), whose CPU binds at the same rate a server, so their users wait "
            "alike; the brief's chart, which would say by how much they differ, is an image",
        )
    )
    rows.append(
        dict(
            seed=dataon,
            check="extra row, not a check: 'Orders Per Minute' read as HammerDB's TPM, 4 servers",
            published=do["orders_per_minute_at_4_servers"],
            predicted=caps[4]["max_tpm"],
            unit="TPM",
            sample="held out",
            holds=None,
            note="the issue reads the brief's 'Orders Per Minute' as NOPM (the check above); read as TPM the same "
            "model is this far above",
        )
    )
    # the database layer's one fitted parameter and its held-out checks (scripts/fit_oltp.py writes them)
    from planner.models.database import oltp_calibration

    fit = oltp_calibration()
    layer = "HammerDB database layer (scripts/fit_oltp.py)"
    i9, ratio = fit["held_out"]["hammerdb_i9"], fit["held_out"]["tpm_per_nopm"]
    rows += [
        dict(
            seed=layer,
            check="CPU per TPM transaction (cpu_us_per_txn), fitted on Datrium's run",
            published="12 vCPUs at 100 %",
            predicted=f"{fit['cpu_us_per_txn']['value']:.1f} core-us",
            unit="core-us",
            sample="in sample",
            holds=True,
            note=fit["cpu_us_per_txn"]["fitted_on"] + "; exact by construction (one point, one parameter)",
        ),
        dict(
            seed=layer,
            check="HammerDB's documented SQL Server run on an i9-14900KS (TPM from its CPU busy)",
            published=i9["measured_tpm"],
            predicted=i9["predicted_tpm"],
            unit="TPM",
            sample="held out",
            note=i9["how"] + "; " + i9["caveats"],
        ),
        dict(
            seed=layer,
            check=f"TPM / NOPM of the driver's mix, against {len(ratio['pairs'])} published pairs (largest error)",
            published=f"{min(p['measured'] for p in ratio['pairs']):.3f}-{max(p['measured'] for p in ratio['pairs']):.3f}",
            predicted=f"{ratio['predicted']:.3f}",
            unit="ratio",
            sample="held out",
            error_pct=max((p["error_pct"] for p in ratio["pairs"]), key=abs),
            holds=True,
            note="23 / 10 / 0.99: the New-Order share of HammerDB's mix and its 1 % rollback",
        ),
    ]
    for r in rows:
        pubv, pred = r["published"], r["predicted"]
        if "error_pct" in r:
            continue
        r["error_pct"] = None if isinstance(pubv, str) or isinstance(pred, str) else 100.0 * (pred / pubv - 1.0)
        if "holds" not in r:
            r["holds"] = r["error_pct"] is None or abs(r["error_pct"]) <= TOLERANCE_PCT
    return rows


def response_ms(tpm_per_server: float, database: str = "db-seed-dataon") -> float:
    """A closed benchmark's average response [ms] at ``tpm_per_server`` [TPM]: its virtual users (the example
    database's ``virtual_users``, the brief's 384) over its rate, by Little's law."""
    users = json.loads((EXAMPLES / f"{database}.json").read_text(encoding="utf-8"))["virtual_users"]
    return users / (tpm_per_server / 60.0) * 1e3


def rising(values: dict[int, float], form: str) -> tuple[bool, str]:
    """Whether ``values`` (by server count) rise strictly with the count, and the figures as a seed table row says
    them: joined by "<" where they rise, listed where they do not."""
    keys = sorted(values)
    up = all(values[a] < values[b] for a, b in itertools.pairwise(keys))
    return up, (" < " if up else ", ").join(f"{n}: {form.format(values[n])}" for n in keys)


def checkpoint_burst(design, db, cap: dict) -> dict:
    """An automatic checkpoint's burst against the storage at the capacity point ``cap``: the
    checkpoint writes at ``interval / burst`` times their mean rate while the other streams run
    on; ``ratio`` is that burst's IOPS over what the design carries at the burst's mix, and
    ``busy_s`` how long the checkpoint then keeps the storage saturated each interval [s]."""
    from planner.models.database import io_demand
    from planner.models.workload import Workload
    from planner.results.report import evaluate_report

    dm = io_demand(db.with_rate(cap["per_server_tpm"] / 60.0), cap["write_latency_ms"])
    ck = next(s for s in dm.streams if s.name == "checkpoint writes")
    iops = dm.iops - ck.iops + ck.peak_iops
    kib = (
        sum(s.iops * s.block_size_kib for s in dm.streams) - ck.iops * ck.block_size_kib
    ) + ck.peak_iops * ck.block_size_kib
    reads = sum(s.iops for s in dm.streams if s.read)
    w = Workload(
        name="checkpoint burst",
        block_size_kib=kib / iops,
        read_fraction=reads / iops,
        random_fraction=dm.random_fraction,
        iops=iops,
        working_set_gb_per_vm=db.data_gb,
    )
    capacity = evaluate_report(design, w, degraded=False)["iops_capacity"] * cap["servers"]
    ratio = iops * cap["servers"] / capacity
    return {
        "burst_s": db.checkpoint_burst_s,
        "interval_s": db.checkpoint_interval_s,
        "capacity_iops": capacity,
        "ratio": ratio,
        "busy_s": min(db.checkpoint_burst_s * ratio, db.checkpoint_interval_s),
    }


def _fmt(x, unit: str) -> str:
    if isinstance(x, str):
        return x
    if unit in ("IOPS", "TPM", "NOPM"):
        return f"{x:,.0f}"
    if unit in ("ms", "x", "ratio"):
        return f"{x:.2f}"
    return f"{x:g}"


def render(heading: str = "###") -> str:
    rows = all_checks() + database_checks()
    lines = [
        f"A figure holds when it is within {TOLERANCE_PCT:g} % of the published one; an ordering holds when the",
        "model orders the layouts as the source does. *In sample*: the figure, or the one parameter it tests,",
        "came from the same source (the model carries it through; it is not a prediction). *Held out*:",
        "nothing in the model was set from it. A `no` is a strict `xfail` in `tests/test_seeds.py` or",
        "`tests/test_seeds_database.py` with its reason in the last column; a `-` is an extra row, not a check.",
        "",
    ]
    for seed in dict.fromkeys(r["seed"] for r in rows):
        lines += [f"{heading} {seed}", "", "| check | published | predicted | error | sample | holds | why / note |"]
        lines += ["|---|---|---|---|---|---|---|"]
        for r in (r for r in rows if r["seed"] == seed):
            err = "-" if r["error_pct"] is None else f"{r['error_pct']:+.1f} %"
            cells = [
                r["check"],
                _fmt(r["published"], r["unit"]) + ("" if isinstance(r["published"], str) else f" {r['unit']}"),
                _fmt(r["predicted"], r["unit"]) + ("" if isinstance(r["predicted"], str) else f" {r['unit']}"),
                err,
                r["sample"],
                "-" if r["holds"] is None else ("yes" if r["holds"] else "**no**"),
                r["note"] or "",
            ]
            lines.append("| " + " | ".join(c.replace("|", "/") for c in cells) + " |")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    print(render())
