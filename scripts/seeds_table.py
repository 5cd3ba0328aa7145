"""The seed systems' published figures and orderings against the model, one table per seed:
the storage side from :func:`planner.calibration.seed_checks.all_checks`, the database side from
:func:`database_checks` (``database_capacity`` of the shipped seed designs and databases, as
``hciplan sla DESIGN --database DB`` prints it). The docs' Accuracy page is generated from
:func:`render`; ``python scripts/seeds_table.py`` prints it.
"""

from __future__ import annotations

from pathlib import Path

from planner.calibration.seed_checks import TOLERANCE_PCT, all_checks

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
DB_PUBLISHED = "planner/data/benchmarks/database/results.json"


def database_checks() -> list[dict]:
    """The database-level seed figures: the most each shipped seed design sustains of its
    published database against the published result (the tests in tests/test_seeds_database.py
    hold the same figures)."""
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
            note="'slightly above 2 ms': the write path's extra millisecond is not in the model (strict xfail)",
        ),
    ]
    do = pub["dataon"]
    for n in (1, 2, 4):
        c = cap(f"seed-dataon-sofs-{n}db", "db-seed-dataon")
        resp = 384 / (c["per_server_tpm"] / 60) * 1e3
        rows.append(
            dict(
                seed="DataON CiB-9224 V12 SOFS (Micron brief)",
                check=f"NOPM with {n} database server(s) (database_capacity)",
                published=do["orders_per_minute_at_4_servers"] if n == 4 else "scales smoothly",
                predicted=c["max_nopm"],
                unit="NOPM",
                sample="held out",
                note=f"binds: {c['binding_note']}; response {resp:.0f} ms (published: under 50 ms)"
                + (
                    "; strict xfail: the file servers saturate their fast tier near 255,000 IOPS while 1 M NOPM asks "
                    "~530,000"
                    if n == 4
                    else ""
                ),
            )
        )
    for r in rows:
        pubv, pred = r["published"], r["predicted"]
        r["error_pct"] = None if isinstance(pubv, str) else 100.0 * (pred / pubv - 1.0)
        r["holds"] = r["error_pct"] is None or abs(r["error_pct"]) <= TOLERANCE_PCT
    return rows


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
        "`tests/test_seeds_database.py` with its reason in the last column.",
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
                "yes" if r["holds"] else "**no**",
                r["note"] or "",
            ]
            lines.append("| " + " | ".join(c.replace("|", "/") for c in cells) + " |")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    print(render())
