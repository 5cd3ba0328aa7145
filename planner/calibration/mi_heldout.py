"""The database translation held out on Azure SQL Managed Instance: HammerDB TPC-C as Jovan Popovic
(Microsoft) published it in April-May 2019.

The runs (``azure_mi_hammerdb`` in ``planner/data/benchmarks/database/results.json``, with their
sources): 100 HammerDB virtual users without keying or thinking time on an 8-vCore Gen5 instance
(40.8 GB), General Purpose (each database file a Premium Storage blob whose size class sets its IOPS
and throughput, the log rate capped per instance, 5-10 ms) or Business Critical (local SSD, IOPS and
log rate per vCore, 1-2 ms), on databases of 96, 1,000 and 5,000 warehouses, with their files as
restored or enlarged and pre-allocated; and one 32-vCore General Purpose instance with 50 users.
Nothing of them enters any fit.

What the check does, per run, with only the translation's own rules and the recorded configuration:

* **the IO it asks at the published rate** (:func:`figures_at`): the buffer model's page reads,
  checkpoint and lazy-writer writes and the log flushes per transaction, the IOPS and MB/s they make
  at the published TPM (the middle of its range), the log's MB/s and the vCores' utilisation;
* **the rate each stated limit allows** (:func:`limit_tpms`): the TPM at which the model's IO reaches
  the data file's IOPS and throughput, the log file's IOPS, the instance's log rate or IOPS; the
  vCores' bound (the fitted CPU per transaction); and the virtual users' closed loop with every IO
  served at the tier's documented latency (:func:`planner.models.database.users_limited_tps`). The log
  file's own throughput (100 MiB/s on the smallest class) is above the log-rate cap (22 MB/s) in every
  run, so the cap stands for it;
* **the prediction**: the least of them and the one that binds, at both ends of the documented
  latency range, against the published rate.

hciplan cannot describe Azure SQL Managed Instance's storage (its designs are clusters of servers and
drives, not per-file blob classes under an instance's log-rate cap), so the storage side is not run
through the planner's engine: the rate each limit allows is computed here from the recorded limits
and the model's IO per transaction, and the tables say so.

What the check cannot see: the articles' wait, file and CPU statistics lie past what the project's
library of stored pages holds of them (each article's opening), so the measured side is the rate, and
one CPU range; files enlarged to a size not given have no per-file limit here; the MI's own
background work (backups, the service's agents) and the vCore being a hyper-thread, not the core the
CPU fit counts, are outside the model.

``python -m planner.calibration.mi_heldout`` prints the rows as JSON.

References
----------
.. [1] J. Popovic, Azure SQLDB Managed Instance (medium.com), 2019-04-24 to 2019-05-22, and Microsoft
   Tech Community, 2019 (the ``articles`` of the data).
.. [2] Microsoft Docs, *Overview Azure SQL Database managed instance resource limits*, 2019-06-26.
.. [3] Microsoft Docs, *Premium SSD sizes* (per-disk IOPS and throughput by size class).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from planner.core import jsonio
from planner.core.resources import BENCH_DIR
from planner.models import oltp
from planner.models.database import (
    COMMITTING,
    CPU_BOUND,
    STEPS,
    Database,
    IoDemand,
    buffer_pool_for_ram_gb,
    cpu_us_per_txn,
    io_demand,
    users_limited_tps,
)

DATA_FILE = BENCH_DIR / "database" / "results.json"
KEY = "azure_mi_hammerdb"
#: Managed Instance runs the current SQL Server engine: a database it creates has indirect checkpoints
#: and 128-page gathered writes (the model's SQL Server 2016+ rules; Microsoft, *Database checkpoints*)
SQL_SERVER_VERSION = 2019
MB_PER_MIB = 1.048576
#: the streams of :func:`planner.models.database.io_demand` that go to the data file
DATA_STREAMS = ("data page reads", "checkpoint writes", "lazy writer")
LOG_STREAM = "log writes"
#: fixed-point steps on the users' rate (the IO per call moves little with the rate)
FIXED_POINT_STEPS = 30
FIXED_POINT_REL_TOL = 1e-6
CONSTRAINTS = (
    "data file IOPS",
    "data file throughput",
    "log file IOPS",
    "log rate",
    "instance IOPS",
    "vCores",
    "virtual users",
)


@lru_cache(maxsize=1)
def load() -> dict:
    """The runs, their articles and the documented limits (read through :mod:`planner.core.jsonio`)."""
    doc: dict = jsonio.loads(DATA_FILE.read_bytes(), DATA_FILE.name)[KEY]
    return doc


def premium_class(limits: dict, class_gib: float | None) -> dict | None:
    """The Premium Storage size class of ``class_gib`` [GiB] (its ``iops`` and ``throughput_mib_s``), or
    None when the file's class is not known."""
    if class_gib is None:
        return None
    return next(c for c in limits["premium_file_classes"]["classes"] if c["max_gib"] == class_gib)


def memory_gb(run: dict, limits: dict) -> float:
    """The instance's memory [GB, decimal]: vCores x the hardware generation's GB per vCore (Gen5 5.1)."""
    return float(run["vcores"]) * limits[run["hardware_generation"].lower()]["memory_gb_per_vcore"]


def buffer_pool_gb(run: dict, limits: dict) -> float:
    """The buffer pool the instance's memory leaves [GB]: the largest pool whose VM fits that memory by the
    model's own rule for what Windows and SQL Server keep beside it
    (:func:`planner.models.database.buffer_pool_for_ram_gb`); 32.0 GB of the 8-vCore instance's 40.8 GB."""
    return buffer_pool_for_ram_gb(memory_gb(run, limits))


def run_limits(run: dict, limits: dict) -> dict[str, Any]:
    """The documented limits that applied to a run, None where they do not apply or are not known.

    Parameters
    ----------
    run : dict
        One record of the data's ``runs``.
    limits : dict
        The data's ``limits``.

    Returns
    -------
    dict
        ``data_file_iops`` [IOPS] and ``data_file_mb_s`` [MB/s] (General Purpose, the data file's size class
        known), ``log_file_iops`` [IOPS] (General Purpose, the log file's class known), ``log_rate_mb_s``
        [MB/s] (per vCore up to the instance's cap), ``instance_iops`` [IOPS] (Business Critical, per vCore),
        ``latency_ms`` (the tier's documented range, low and high) [ms].
    """
    vcores = float(run["vcores"])
    if run["tier"] == "general_purpose":
        tier = limits["general_purpose"]
        data = premium_class(limits, run["data_file"]["premium_class_gib"])
        log = premium_class(limits, run["log_file"]["premium_class_gib"])
        return {
            "data_file_iops": None if data is None else float(data["iops"]),
            "data_file_mb_s": None if data is None else data["throughput_mib_s"] * MB_PER_MIB,
            "log_file_iops": None if log is None else float(log["iops"]),
            "log_rate_mb_s": min(tier["log_rate_mb_s_per_vcore"] * vcores, tier["log_rate_mb_s_max"]),
            "instance_iops": None,
            "latency_ms": tuple(tier["storage_latency_ms"]),
        }
    tier = limits["business_critical"]
    lo, hi = tier["iops_range"]
    return {
        "data_file_iops": None,
        "data_file_mb_s": None,
        "log_file_iops": None,
        "log_rate_mb_s": min(tier["log_rate_mb_s_per_vcore"] * vcores, tier["log_rate_mb_s_max"]),
        "instance_iops": float(min(max(tier["iops_per_vcore"] * vcores, lo), hi)),
        "latency_ms": tuple(tier["storage_latency_ms"]),
    }


def database(run: dict, limits: dict, tpm: float) -> Database:
    """The run as the translation takes a database: size, warehouses, the buffer pool the instance's memory
    leaves (:func:`buffer_pool_gb`), virtual users, vCores, at ``tpm`` transactions a minute."""
    return Database(
        name=run["id"],
        size_gb=float(run["database_size_gb"]),
        warehouses=float(run["warehouses"]),
        tpm=float(tpm),
        buffer_pool_gb=buffer_pool_gb(run, limits),
        virtual_users=int(run["virtual_users"]),
        vcpus=int(run["vcores"]),
        sql_server_version=SQL_SERVER_VERSION,
    )


def _streams(d: IoDemand, names: tuple[str, ...]) -> tuple[float, float]:
    sel = [s for s in d.streams if s.name in names]
    return sum(s.iops for s in sel), sum(s.bandwidth_mb_s for s in sel)


def log_bytes_per_txn(run: dict) -> float:
    """The model's log bytes per TPM transaction [bytes] (:data:`planner.models.oltp.LOG_BYTES`, mix-weighted)."""
    return float(oltp.log_flushes(1.0, 0.0, None, users=run["virtual_users"])["bytes"])


def cpu_limited_tpm(db: Database) -> float:
    """The vCores' bound [TPM]: ``CPU_BOUND x vCores / c``, ``c`` the fitted core-microseconds per transaction.
    The guest IO stack's CPU per IO is left out: Managed Instance's IO path is not the modelled guest's."""
    return CPU_BOUND * float(db.vm("vcpus")) / (cpu_us_per_txn(db) * 1e-6) * 60.0


def figures_at(run: dict, limits: dict, tpm: float, latency_ms: float) -> dict[str, float]:
    """The IO the translation says a run asks at ``tpm`` with its log flushes taking ``latency_ms`` [ms].

    Returns
    -------
    dict
        ``reads_per_txn``, ``data_writes_per_txn`` (checkpoint and lazy-writer write IOs),
        ``log_writes_per_txn`` [IOs per transaction]; ``data_iops``, ``log_iops`` [IOPS]; ``data_mb_s``,
        ``log_mb_s`` (log bytes generated, what the log-rate cap counts) [MB/s]; ``cpu_utilization`` (the
        fitted CPU per transaction over the vCores) [-]; ``buffer_hit_ratio`` [-].
    """
    db = database(run, limits, tpm)
    d = io_demand(db, latency_ms)
    tps = d.transactions_per_s
    by = {s.name: s for s in d.streams}
    data_iops, data_mb_s = _streams(d, DATA_STREAMS)
    reads = by["data page reads"].iops
    log = by[LOG_STREAM].iops
    return {
        "reads_per_txn": reads / tps,
        "data_writes_per_txn": (data_iops - reads) / tps,
        "log_writes_per_txn": log / tps,
        "data_iops": data_iops,
        "log_iops": log,
        "data_mb_s": data_mb_s,
        "log_mb_s": tps * log_bytes_per_txn(run) / 1e6,
        "cpu_utilization": tps * cpu_us_per_txn(db) * 1e-6 / float(run["vcores"]),
        "buffer_hit_ratio": d.buffer_hit_ratio,
    }


def rate_where(load_at: Callable[[float], float], limit: float, hi_tpm: float) -> float | None:
    """The TPM at which a load that rises with the rate reaches ``limit``, by bisection on [0, ``hi_tpm``];
    None when it stays at or under the limit up to ``hi_tpm`` (the limit does not bind below it).

    Parameters
    ----------
    load_at : callable
        The load at a rate [TPM -> the limit's unit], non-decreasing.
    limit : float
        The limit [its unit].
    hi_tpm : float
        The bracket's top [TPM]: the vCores' bound, above which nothing runs.
    """
    if load_at(hi_tpm) <= limit:
        return None
    lo, hi = 0.0, hi_tpm
    for _ in range(STEPS):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if load_at(mid) <= limit else (lo, mid)
    return lo


def users_limited_tpm(run: dict, limits: dict, latency_ms: float) -> float:
    """The most TPM the run's virtual users reach with every IO and log flush served at ``latency_ms`` [TPM]:
    :func:`planner.models.database.users_limited_tps`, its IO per call taken at the rate it finds (a fixed
    point from the vCores' bound, which the rate never passes)."""
    x = cpu_limited_tpm(database(run, limits, 1.0))
    for _ in range(FIXED_POINT_STEPS):
        db = database(run, limits, x)
        y = users_limited_tps(db, io_demand(db, latency_ms), latency_ms, float(run["vcores"]), 0.0) * 60.0
        if abs(y - x) <= FIXED_POINT_REL_TOL * x:
            return y
        x = y
    return x


def limit_tpms(run: dict, limits: dict, latency_ms: float, one_write_per_commit: bool = False) -> dict[str, Any]:
    """The rate each stated limit allows a run [TPM], by constraint (:data:`CONSTRAINTS`); None where the limit
    does not apply, is not known, or is not reached below the vCores' bound (the reason in ``notes``).

    Parameters
    ----------
    run, limits : dict
        The run and the data's limits.
    latency_ms : float
        The log flush's and every IO's latency [ms] (the tier's documented range gives two).
    one_write_per_commit : bool
        Count a log write per commit (SQL Server's documented behaviour, up to 112 in flight) instead of the
        model's group commit (one flush in flight): the open question of the database layer, asked of the log
        file's and the instance's IOPS only.

    Returns
    -------
    dict
        ``tpm`` (constraint -> TPM or None), ``notes`` (constraint -> why None).
    """
    lim = run_limits(run, limits)
    users = int(run["virtual_users"])
    cpu = cpu_limited_tpm(database(run, limits, 1.0))
    tpm: dict[str, float | None] = dict.fromkeys(CONSTRAINTS)
    notes: dict[str, str] = {}
    above = f"not reached below the vCores' bound ({cpu:,.0f} TPM)"

    def data(tpm_: float) -> tuple[float, float]:
        # the data file's reads and writes do not depend on the log's latency: asked at io_demand's default, its
        # cache answers the same bisection again for each latency and log rule
        return _streams(io_demand(database(run, limits, tpm_)), DATA_STREAMS)

    def log_iops(tpm_: float) -> float:
        tps = tpm_ / 60.0
        if one_write_per_commit:
            return tps * COMMITTING
        return float(oltp.log_flushes(tps, latency_ms / 1e3, None, users=users)["flushes"])

    checks: list[tuple[str, float | None, Callable[[float], float], str]] = [
        ("data file IOPS", lim["data_file_iops"], lambda t: data(t)[0], "the data file's size class is not known"),
        (
            "data file throughput",
            lim["data_file_mb_s"],
            lambda t: data(t)[1],
            "the data file's size class is not known",
        ),
        ("log file IOPS", lim["log_file_iops"], log_iops, "the log file's size class is not known"),
        (
            "instance IOPS",
            lim["instance_iops"],
            lambda t: data(t)[0] + log_iops(t),
            "General Purpose: its IOPS are the files'",
        ),
    ]
    for name, limit, load_at, unknown in checks:
        if limit is None:
            notes[name] = (
                "Business Critical: local SSD, the instance's IOPS apply"
                if run["tier"] == "business_critical" and name != "instance IOPS"
                else unknown
            )
            continue
        tpm[name] = rate_where(load_at, limit, cpu)
        if tpm[name] is None:
            notes[name] = above
    tpm["log rate"] = lim["log_rate_mb_s"] * 1e6 / log_bytes_per_txn(run) * 60.0
    tpm["vCores"] = cpu
    tpm["virtual users"] = users_limited_tpm(run, limits, latency_ms)
    return {"tpm": tpm, "notes": notes}


def binding(limit: dict[str, Any]) -> tuple[float, str]:
    """The least rate of :func:`limit_tpms` [TPM] and the constraint that sets it."""
    known = {k: v for k, v in limit["tpm"].items() if v is not None}
    name = min(known, key=lambda k: known[k])
    return known[name], name


def error_pct(predicted_tpm: float, published_tpm: float) -> float:
    """Relative error of a prediction against a published rate [%]: ``100 (predicted / published - 1)``."""
    return 100.0 * (predicted_tpm / published_tpm - 1.0)


def rows(doc: dict | None = None) -> list[dict[str, Any]]:
    """Published against predicted, one dict per run.

    Each compared row: ``id``, ``tier``, ``vcores``, ``warehouses``, ``virtual_users``, ``buffer_pool_gb``,
    ``limits`` (:func:`run_limits`), ``published_tpm_low``/``_high``/``_mid``; ``at_published``
    (:func:`figures_at` at the published middle and the documented latency's middle); per end of the
    documented latency (``low_latency``, ``high_latency``): ``latency_ms``, ``limit_tpm`` and its ``notes``
    (:func:`limit_tpms`), ``predicted_tpm``, ``binding``, ``error_pct`` against the published middle,
    ``within_published`` (the prediction inside the published range), and the same with one log write per
    commit (``*_one_write_per_commit``); ``overlaps_published`` (the span the two latencies give meets the
    published range); ``model_log_bytes_per_txn`` and ``log_bytes_per_txn_filling_cap`` (the log-rate cap over
    the published rate) [bytes]; ``measured_cpu`` and ``predicted_cpu_utilization`` where the article gives the
    instance's CPU. A run not compared has ``compared`` False and ``not_compared_reason``.
    """
    doc = load() if doc is None else doc
    limits = doc["limits"]
    out = []
    for run in doc["runs"]:
        row: dict[str, Any] = {
            "id": run["id"],
            "tier": run["tier"],
            "vcores": run["vcores"],
            "warehouses": run["warehouses"],
            "virtual_users": run["virtual_users"],
            "compared": bool(run["compared"]),
            "published_tpm_low": run["published"]["tpm_low"],
            "published_tpm_high": run["published"]["tpm_high"],
        }
        if not run["compared"]:
            row["not_compared_reason"] = run["not_compared_reason"]
            out.append(row)
            continue
        lim = run_limits(run, limits)
        lo, hi = run["published"]["tpm_low"], run["published"]["tpm_high"]
        mid = 0.5 * (lo + hi)
        lat_lo, lat_hi = lim["latency_ms"]
        row |= {
            "buffer_pool_gb": buffer_pool_gb(run, limits),
            "limits": lim,
            "published_tpm_mid": mid,
            "at_published": figures_at(run, limits, mid, 0.5 * (lat_lo + lat_hi)),
            "model_log_bytes_per_txn": log_bytes_per_txn(run),
            # what the log-rate cap would leave a transaction were it what held the published rate: no log rate is
            # in the text retrieved, so this is arithmetic on the published figures, not a measurement
            "log_bytes_per_txn_filling_cap": lim["log_rate_mb_s"] * 1e6 / (mid / 60.0),
        }
        for end, lat in (("low_latency", lat_lo), ("high_latency", lat_hi)):
            limit = limit_tpms(run, limits, lat)
            pred, bind = binding(limit)
            alt = limit_tpms(run, limits, lat, one_write_per_commit=True)
            pred_alt, bind_alt = binding(alt)
            row[end] = {
                "latency_ms": lat,
                "limit_tpm": limit["tpm"],
                "notes": limit["notes"],
                "predicted_tpm": pred,
                "binding": bind,
                "error_pct": error_pct(pred, mid),
                "within_published": lo <= pred <= hi,
                "limit_tpm_one_write_per_commit": alt["tpm"],
                "predicted_tpm_one_write_per_commit": pred_alt,
                "binding_one_write_per_commit": bind_alt,
                "error_pct_one_write_per_commit": error_pct(pred_alt, mid),
            }
        span = sorted((row["low_latency"]["predicted_tpm"], row["high_latency"]["predicted_tpm"]))
        row["overlaps_published"] = span[0] <= hi and lo <= span[1]
        cpu = run["measured"]
        if "cpu_utilization_low" in cpu:
            row["measured_cpu"] = [cpu["cpu_utilization_low"], cpu["cpu_utilization_high"]]
            row["predicted_cpu_utilization"] = [
                figures_at(run, limits, t, 0.5 * (lat_lo + lat_hi))["cpu_utilization"] for t in (lo, hi)
            ]
        out.append(row)
    return out


def summary(table: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The error over the compared runs: median and largest absolute error [%] of the predicted rate against
    the published middle, at each end of the documented latency, with the model's log rule and with one log
    write per commit; how many predictions fall inside the published range, and how many runs' predicted spans
    (the two latencies) meet it."""
    table = rows() if table is None else table
    done = [r for r in table if r["compared"]]
    out: dict[str, Any] = {"runs": len(done), "not_compared": [r["id"] for r in table if not r["compared"]]}
    for end in ("low_latency", "high_latency"):
        for rule, key in (("model", "error_pct"), ("one_write_per_commit", "error_pct_one_write_per_commit")):
            errs = [abs(r[end][key]) for r in done]
            out[f"{end}_{rule}"] = {
                "median_abs_error_pct": statistics.median(errs),
                "max_abs_error_pct": max(errs),
            }
        out[f"{end}_within_published"] = sum(1 for r in done if r[end]["within_published"])
    out["overlapping_published"] = sum(1 for r in done if r["overlaps_published"])
    return out


if __name__ == "__main__":  # pragma: no cover
    print(jsonio.dumps({"rows": rows(), "summary": summary()}, indent=1))
