"""The database translation held out on HammerDB TPC-C runs on Azure SQL Managed Instance, from
:mod:`planner.calibration.mi_heldout`. The docs' Accuracy page is built from :func:`render` (the
``<!-- hciplan:mi-heldout -->`` marker, scripts/mkdocs_hooks.py); run as a script, it prints the tables."""

from __future__ import annotations

from planner.calibration.mi_heldout import CONSTRAINTS, load, rows, summary

TIER = {"general_purpose": "GP", "business_critical": "BC"}


def _k(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x / 1000:,.0f}K" if x >= 99_950 else f"{x / 1000:.1f}K"


def _range(lo: float, hi: float) -> str:
    return _k(lo) if lo == hi else f"{_k(lo)}-{_k(hi)}"


def _files(run: dict) -> str:
    if run["tier"] == "business_critical":
        return "local SSD"

    def one(f: dict) -> str:
        return "?" if f["premium_class_gib"] is None else f"{f['premium_class_gib']:g} GiB"

    return f"{one(run['data_file'])} / {one(run['log_file'])}"


def _runs() -> dict:
    return {r["id"]: r for r in load()["runs"]}


def prediction_table(table: list[dict] | None = None) -> str:
    """One row per compared run: the published rate against the least rate the stated limits allow, at both ends
    of the tier's documented latency, what binds, the error; and the same with one log write per commit."""
    table = rows() if table is None else table
    runs = _runs()
    lines = [
        "| run | tier, vCores, users | warehouses (GB) | data / log file class | published TPM | predicted TPM, "
        "low / high latency | binds | error % | one log write per commit: predicted, binds |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in (r for r in table if r["compared"]):
        run, lo, hi = runs[r["id"]], r["low_latency"], r["high_latency"]
        binds = lo["binding"] if lo["binding"] == hi["binding"] else f"{lo['binding']} / {hi['binding']}"
        alt = f"{_k(lo['predicted_tpm_one_write_per_commit'])} / {_k(hi['predicted_tpm_one_write_per_commit'])}, " + (
            lo["binding_one_write_per_commit"]
            if lo["binding_one_write_per_commit"] == hi["binding_one_write_per_commit"]
            else f"{lo['binding_one_write_per_commit']} / {hi['binding_one_write_per_commit']}"
        )
        lines.append(
            f"| {r['id']} | {TIER[r['tier']]}, {r['vcores']}, {r['virtual_users']} "
            f"| {r['warehouses']:,} ({run['database_size_gb']:g}) | {_files(run)} "
            f"| {_range(r['published_tpm_low'], r['published_tpm_high'])} "
            f"| {_k(lo['predicted_tpm'])} / {_k(hi['predicted_tpm'])} | {binds} "
            f"| {lo['error_pct']:+.0f} / {hi['error_pct']:+.0f} | {alt} |"
        )
    return "\n".join(lines)


def io_table(table: list[dict] | None = None) -> str:
    """The IO the translation says each run asks at its published rate (the middle of the range), against the
    limits that applied."""
    table = rows() if table is None else table
    lines = [
        "| run | TPM | buffer pool GB (hit ratio) | reads / data writes / log writes per txn | data IOPS (limit; "
        "BC: data + log, the instance's) | data MB/s (limit) | log MB/s (cap) | log bytes/txn, model (filling the "
        "cap) | vCores busy, predicted (measured) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in (r for r in table if r["compared"]):
        a, lim = r["at_published"], r["limits"]
        iops_limit = lim["data_file_iops"] if lim["instance_iops"] is None else lim["instance_iops"]
        iops_word = "" if lim["instance_iops"] is None else " instance"
        measured = (
            f" ({100 * r['measured_cpu'][0]:.0f}-{100 * r['measured_cpu'][1]:.0f} %)" if "measured_cpu" in r else ""
        )
        # the instance's IOPS count the log's writes with the data's (Business Critical)
        iops = a["data_iops"] + (a["log_iops"] if lim["instance_iops"] is not None else 0.0)
        iops_cap = "-" if iops_limit is None else f"{iops_limit:,.0f}{iops_word}"
        mb_s_cap = "-" if lim["data_file_mb_s"] is None else f"{lim['data_file_mb_s']:.0f}"
        lines.append(
            f"| {r['id']} | {_k(r['published_tpm_mid'])} | {r['buffer_pool_gb']:.1f} ({a['buffer_hit_ratio']:.4f}) "
            f"| {a['reads_per_txn']:.2f} / {a['data_writes_per_txn']:.2f} / {a['log_writes_per_txn']:.3f} "
            f"| {iops:,.0f} ({iops_cap}) | {a['data_mb_s']:.1f} ({mb_s_cap}) "
            f"| {a['log_mb_s']:.2f} ({lim['log_rate_mb_s']:g}) "
            f"| {r['model_log_bytes_per_txn']:,.0f} ({r['log_bytes_per_txn_filling_cap']:,.0f}) "
            f"| {100 * a['cpu_utilization']:.1f} %{measured} |"
        )
    return "\n".join(lines)


def limits_table(table: list[dict] | None = None) -> str:
    """The rate each stated limit allows each run [TPM], at both ends of the documented latency."""
    table = rows() if table is None else table
    lines = [
        "| run | latency ms | " + " | ".join(CONSTRAINTS) + " |",
        "|---|---|" + "---|" * len(CONSTRAINTS),
    ]
    for r in (r for r in table if r["compared"]):
        for end in ("low_latency", "high_latency"):
            e = r[end]
            cells = []
            for c in CONSTRAINTS:
                v = e["limit_tpm"][c]
                note = e["notes"].get(c, "")
                cells.append(_k(v) if v is not None else ("> vCores" if note.startswith("not reached") else "-"))
            lines.append(f"| {r['id']} | {e['latency_ms']:g} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def render() -> str:
    table = rows()
    s = summary(table)
    lo, hi = s["low_latency_model"], s["high_latency_model"]
    alo, ahi = s["low_latency_one_write_per_commit"], s["high_latency_one_write_per_commit"]
    skipped = [r for r in table if not r["compared"]]
    return "\n".join(
        [
            prediction_table(table),
            "",
            f"Over the {s['runs']} runs compared, the predicted rate is off the published one (the middle of its "
            f"range) by a median of {lo['median_abs_error_pct']:.0f} % and at most {lo['max_abs_error_pct']:.0f} % "
            f"at the documented latency's low end, {hi['median_abs_error_pct']:.0f} % and "
            f"{hi['max_abs_error_pct']:.0f} % at its high end; {s['low_latency_within_published']} and "
            f"{s['high_latency_within_published']} of the predictions fall inside the published range, and "
            f"{s['overlapping_published']} runs' predicted spans (low to high latency) meet it. With one log "
            f"write per commit: {alo['median_abs_error_pct']:.0f} % / {alo['max_abs_error_pct']:.0f} % and "
            f"{ahi['median_abs_error_pct']:.0f} % / {ahi['max_abs_error_pct']:.0f} %. Not compared: "
            + "; ".join(f"{r['id']} ({r['not_compared_reason']})" for r in skipped)
            + ".",
            "",
            io_table(table),
            "",
            limits_table(table),
        ]
    )


if __name__ == "__main__":
    print(render())
