"""The database layer's buffer model held out on HammerDB TPROC-C / PostgreSQL 15 runs, from
:mod:`planner.calibration.oltp_heldout`, over two page geometries: PostgreSQL's, the check's own (no
command or page can select it), and SQL Server's, the one the product runs. The docs' Accuracy page
is built from :func:`render` (the ``<!-- hciplan:oltp-postgres -->`` marker) and
:func:`render_sql_server` (``<!-- hciplan:oltp-postgres-sql-server -->``), scripts/mkdocs_hooks.py;
run as a script, it prints both."""

from __future__ import annotations

from planner.calibration.oltp_heldout import (
    MEANINGFUL_OVER_FLOOR,
    floor_reads_per_txn,
    repeat_spread,
    rows,
    sql_server_summary,
    summary,
)

#: what each table's geometry is, said above it: the PostgreSQL one was presented as "the database
#: translation"'s error, which no customer runs (DBA review 2026-11-30)
POSTGRESQL_LABEL = (
    "**Over PostgreSQL's page geometry** (built from these runs' table sizes; the check's own: no command "
    "or page can select it, the product takes SQL Server databases only):"
)
SQL_SERVER_LABEL = (
    "**Over SQL Server's page geometry** (HammerDB's SQL Server schema: the translation every command and "
    "page runs), the same runs, pools and rates:"
)


def _pct(x) -> str:
    return "-" if x is None else f"{x:+.0f} %"


def _num(x, fmt: str = ".2f") -> str:
    return "-" if x is None else format(x, fmt)


def run_table(table: list[dict] | None = None) -> str:
    """One row per run: measured and predicted buffer misses per transaction and hit ratios."""
    table = rows() if table is None else table
    lines = [
        "| run | mode | pool GB (of DB) | users | active warehouses model / observed | measured reads/txn "
        "| predicted | error | error % | predicted, observed active | error % | hit ratio measured "
        "| predicted (model) | predicted (PostgreSQL's accesses) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    order = sorted(table, key=lambda r: (r["mode"] != "home warehouse", r["virtual_users"], r["shared_buffers_gb"]))
    for r in order:
        obs = "n/a" if r["active_warehouses_observed"] is None else f"{r['active_warehouses_observed']:g}"
        lines.append(
            f"| {r['run_id']} | {r['mode']} | {r['shared_buffers_gb']:.3f} ({100 * r['pool_over_db_size']:.1f} %) "
            f"| {r['virtual_users']} | {r['active_warehouses_model']:.2f} / {obs} "
            f"| {r['measured_reads_per_txn']:.3f} | {r['predicted_reads_per_txn']:.3f} "
            f"| {r['error_reads_per_txn']:+.3f} | {_pct(r['error_pct'])} "
            f"| {_num(r['predicted_reads_per_txn_observed_active'], '.3f')} | {_pct(r['error_pct_observed_active'])} "
            f"| {r['measured_hit_ratio']:.4f} | {r['predicted_hit_ratio']:.4f} "
            f"| {r['predicted_hit_ratio_on_measured_accesses']:.4f} |"
        )
    return "\n".join(lines)


def summary_table(groups: list[dict] | None = None) -> str:
    """Errors by mode and regime, with the model's and the observed active warehouses."""
    groups = summary() if groups is None else groups
    lines = [
        "| mode | regime | runs | abs. error reads/txn, median / max | rel. error, median / max (runs) "
        "| with observed active: abs. / rel. max | hit ratio measured / predicted (model) / on PostgreSQL's "
        "accesses (medians) |",
        "|---|---|---|---|---|---|---|",
    ]
    for g in groups:
        a, e = g["abs_error_reads_per_txn"], g["rel_error_pct"]
        ao, eo = g["abs_error_reads_per_txn_observed_active"], g["rel_error_pct_observed_active"]
        rel = "-" if e["max"] is None else f"{e['median']:.0f} % / {e['max']:.0f} % ({g['rel_error_runs']})"
        rel_o = "-" if eo["max"] is None else f"{eo['max']:.0f} %"
        lines.append(
            f"| {g['mode']} | {g['regime']} | {g['runs']} | {a['median']:.2f} / {a['max']:.2f} | {rel} "
            f"| {ao['max']:.2f} / {rel_o} | {g['measured_hit_ratio_median']:.4f} / "
            f"{g['predicted_hit_ratio_median']:.4f} / {g['predicted_hit_ratio_on_measured_accesses_median']:.4f} |"
        )
    return "\n".join(lines)


def _signed(lo, hi) -> str:
    if lo is None:
        return "-"
    return f"{lo:+.0f} %" if round(lo) == round(hi) else f"{lo:+.0f} % to {hi:+.0f} %"


def sql_server_summary_table(groups: list[dict] | None = None) -> str:
    """Errors by mode and regime over SQL Server's geometry, signed (the direction is the finding)."""
    groups = sql_server_summary() if groups is None else groups
    lines = [
        "| mode | regime | runs | abs. error reads/txn, median / max | rel. error, least to most (runs) |",
        "|---|---|---|---|---|",
    ]
    for g in groups:
        a = g["abs_error_reads_per_txn"]
        rel = _signed(g["rel_error_pct_min"], g["rel_error_pct_max"])
        rel += "" if g["rel_error_pct_min"] is None else f" ({g['rel_error_runs']})"
        lines.append(f"| {g['mode']} | {g['regime']} | {g['runs']} | {a['median']:.2f} / {a['max']:.2f} | {rel} |")
    return "\n".join(lines)


def sql_server_run_table(table: list[dict] | None = None) -> str:
    """One row per run: measured buffer misses per transaction against both geometries' predictions."""
    table = rows() if table is None else table
    lines = [
        "| run | mode | regime | pool GB | users | measured reads/txn | predicted, SQL Server's geometry | error "
        "| error % | predicted, PostgreSQL's geometry | error % |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    order = sorted(table, key=lambda r: (r["mode"] != "home warehouse", r["virtual_users"], r["shared_buffers_gb"]))
    for r in order:
        lines.append(
            f"| {r['run_id']} | {r['mode']} | {r['regime']} | {r['shared_buffers_gb']:.3f} | {r['virtual_users']} "
            f"| {r['measured_reads_per_txn']:.3f} | {r['predicted_reads_per_txn_sql_server_geometry']:.3f} "
            f"| {r['error_reads_per_txn_sql_server_geometry']:+.3f} | {_pct(r['error_pct_sql_server_geometry'])} "
            f"| {r['predicted_reads_per_txn']:.3f} | {_pct(r['error_pct'])} |"
        )
    return "\n".join(lines)


def render_sql_server() -> str:
    """The SQL Server geometry's tables, under their label."""
    table = rows()
    return "\n".join(
        [SQL_SERVER_LABEL, "", sql_server_summary_table(sql_server_summary(table)), "", sql_server_run_table(table)]
    )


def render() -> str:
    """The PostgreSQL geometry's tables, under their label, with the measurement's own spread."""
    spread = repeat_spread()
    worst = max(s["spread_pct"] for s in spread)
    floor = floor_reads_per_txn()
    pairs = ", ".join(f"{s['shared_buffers_mib']} MiB {s['spread_pct']:.1f} %" for s in spread)
    return "\n".join(
        [
            POSTGRESQL_LABEL,
            "",
            summary_table(),
            "",
            f"Relative errors are given where the measured value is at least {MEANINGFUL_OVER_FLOOR:g} times the "
            f"floor the model leaves out ({floor:.3f} reads/txn, the mean with the pool at least the database's "
            f"size: autovacuum, analyze, new pages); the absolute error everywhere. Repeats with other random "
            f"home warehouses differ by up to {worst:.1f} % in reads/txn "
            f"({pairs}): "
            "the measurement's own spread.",
            "",
            run_table(),
        ]
    )


if __name__ == "__main__":
    print(render())
    print()
    print(render_sql_server())
