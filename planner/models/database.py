"""A database, one schema everywhere: as a DBA describes it, and the IO it asks of storage.

A database is described either by its **workload** (size, buffer pool and a transaction
rate: HammerDB's NOPM or TPM, with the options of the run) or directly by the **IO it
issues** (an IO shape: block size, read and random shares). Either way it carries the
VM it runs in (vCPUs, IO threads x outstanding IOs) and the latency it is promised
(target and statistic), so the same file serves ``hciplan db-io``, ``sla``, ``compare``
and a sizing demand.

:func:`io_demand` turns a workload description into IO streams (data page reads,
checkpoint and lazy-writer page writes, log writes, read-ahead, backup), each with its
rule and source: the page-level model of :mod:`planner.models.oltp` (HammerDB TPROC-C's
schema and transactions, an LRU buffer pool under Che's approximation, checkpoints that
write each dirty page once per interval, group commit). Every assumption it uses is
listed in the result with its value and source, and is a field the user can override.
"""

from __future__ import annotations

import dataclasses
import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from planner.core import minimums as M
from planner.core.errors import PlannerError
from planner.core.jsonio import file_kind, load_json_model, parse_json_model
from planner.core.kept import Kept
from planner.core.resources import data_path
from planner.core.text import count, pct, tidy
from planner.models import oltp
from planner.models.design import MAX_VOLUME_TB
from planner.models.workload import MAX_IOPS, Workload

PAGE_KIB = 8.0
READ_AHEAD_MAX_KIB = 512.0
BACKUP_IO_KIB = 1024.0
MAX_DB_FILE_BYTES = 1_000_000
#: No storage stack answers faster than ~20 us (NVMe device + kernel); a target
#: below that cannot be met by any design, so it is a user error, not a zero.
MIN_LATENCY_TARGET_MS = 0.02
MAX_LATENCY_TARGET_MS = 10_000.0
#: the log flush latency :func:`io_demand` assumes when no design gives one (group commit
#: depends on it): an assumption, said in every result; with a design the predicted write
#: latency replaces it
ASSUMED_LOG_WRITE_LATENCY_MS = 1.0
#: the database size over warehouses x 0.1 GB that a description may have: a loaded schema grows with its
#: run (new orders, history) and its indexes, but not tenfold
WAREHOUSE_SPREAD = (0.25, 4.0)
#: a buffer pool this many times the database is said to hold nothing beyond it until the database grows (a pool a
#: little over the data is a margin a DBA leaves, not memory bought for nothing): a threshold of words, not the model's
POOL_BEYOND_DATA = 1.5
#: what the reads of a database given by its rate alone rest on (:attr:`Database.reads_every_warehouse`): said where
#: its IO is shown, with how to replace it; the estate's 120,000 TPM database became 43,761 peak IOPS beside its
#: neighbours' measured 800-6,000 with no word of it (DBA walk 2026-12-03)
EVERY_WAREHOUSE_WORDS = (
    "its reads are taken with every warehouse active, the most HammerDB's access gives at this size and pool and "
    "likely more than a production database reads, whose hot pages are a small part of its data"
)
#: the buffer_hit_note's clause saying it, with how to replace it in the database's fields (a page says it in its own
#: boxes' words)
EVERY_WAREHOUSE_NOTE = (
    f"no buffer_hit_ratio or virtual_users given, so {EVERY_WAREHOUSE_WORDS}: give its measured buffer_hit_ratio, or "
    "a HammerDB run's virtual_users, to replace it"
)
#: the buffer-pool warnings' words that name the database's fields (a page says them in its boxes' words)
POOL_BELOW_GIVE = "measure the hit ratio and give it as buffer_hit_ratio, or give the HammerDB run's virtual_users"
HIT_GIVEN_IS = (
    "buffer_hit_ratio is the share of the row lookups' pages found in the pool (1 - page reads / row lookups), so it "
    "reads lower"
)
#: the most warehouses a description may give (HammerDB builds up to 100,000; the schema allows far more)
MAX_WAREHOUSES = 10_000_000
#: the database's vCPUs bind when the users keep them this busy (the closed loop then only
#: adds queueing on the CPUs: more users, the same rate); the sizer holds a node's cores to the
#: same share of the databases' work
CPU_BOUND = 0.95
#: what :data:`CPU_BOUND` is, said wherever it is printed: no measurement sets it (honesty audit 2026-12-01)
CPU_BOUND_WORDS = (
    "an hciplan assumption, not a measurement: a processor kept busier than that only queues more of the same work, "
    "so it is counted as bound there"
)
#: the VM a database runs in when its description does not say (the SLA's defaults)
DEFAULT_VM = {"vcpus": 16, "threads": 4, "outstanding_per_thread": 16}
#: the transaction log file's space beside the data files, as a share of them: Microsoft's "a log that is
#: approximately 10-25 percent of the size of the database is a good place to start" (SQL Server 6.5 documentation,
#: Administrator's Companion, "Creating and Sizing Transaction Logs"), its upper end: a log that fills stops the
#: database's writes where spare space costs only capacity. Microsoft's current documentation ("Manage the size of the
#: transaction log file") gives no share: the log a workload needs is what it writes between log backups, to measure.
#: Capacity counted the data files alone: 24 x 1 TB databases needed 24.0 TB (DBA review 2026-11-30)
LOG_SPACE_FRACTION = 0.25
#: tempdb's space beside the data files, as a share of them (each database runs in its own VM, so its instance's
#: tempdb is its own): an assumption. No Microsoft source gives a share ("tempdb database", "Capacity planning for
#: tempdb": size it by running the workload); Sybase Adaptive Server, the product SQL Server began as, says "make
#: tempdb 20 to 25% of the size of your user databases" for most applications; its upper end, as for the log
TEMPDB_SPACE_FRACTION = 0.25
#: the assumed log or tempdb space [TB] from which the capacity note flags it as resting on the share alone: an
#: hciplan choice, about one capacity drive of the catalog's smallest (1 TB NVMe). The shares are a starting point
#: (Microsoft's 10-25 % of an era's databases) and an assumption: at 150 TB of data they asked 37.5 TB each, said
#: only as "25 % of the data" (stop 55 walk). Kept, not capped: no source gives a cap
LARGE_ASSUMED_FILE_TB = 1.0


#: the one database engine hciplan models, named as :mod:`planner.models.oltp` names engines ("sql-server",
#: "postgresql"): a workload description's pages, checkpoints, log, CPU per transaction and RAM rule are its
Engine = Literal["sql-server"]
ENGINE: Engine = "sql-server"
#: SQL Server as a description may spell it, lower case with spaces and underscores as hyphens
SQL_SERVER_SPELLINGS = frozenset(
    {"sql-server", "sqlserver", "mssql", "ms-sql", "microsoft-sql-server", "sql-server-(mssql)", "azure-sql"}
)
#: other engines a DBA names, as their makers spell them (the refusal names the engine it refuses)
OTHER_ENGINES = {
    "postgresql": "PostgreSQL",
    "postgres": "PostgreSQL",
    "pg": "PostgreSQL",
    "pgsql": "PostgreSQL",
    "mysql": "MySQL",
    "innodb": "MySQL",
    "mariadb": "MariaDB",
    "oracle": "Oracle",
    "db2": "Db2",
    "sqlite": "SQLite",
}
#: what to do with a database of another engine: its IO, which no engine's rules shape (docs/guide/workloads.md)
BY_ITS_IO_WORDS = (
    "describe the database by its IO instead: for sla a database file with size_gb, block_size_kib, "
    "read_fraction and random_fraction (no engine, nopm or tpm), for compare a workload file (--workload), for size "
    "a demand's total_iops and capacity_tb or an estate list's peak_iops, block_size_kib and read_fraction columns "
    "(docs/guide/workloads.md, Databases)"
)
#: the engine's rules in a sentence: db-io's ``engine_note``, the demand's, the SLA and Size pages' DBA modes
ENGINE_WORDS = (
    "modelled as SQL Server, the one engine hciplan models: its pages, checkpoints, lazy writer, log, CPU per "
    "transaction and RAM beside the buffer pool; another engine (PostgreSQL, MySQL, ...): describe it by its IO"
)
#: :data:`ENGINE_WORDS` as a sentence of its own
ENGINE_NOTE = ENGINE_WORDS[0].upper() + ENGINE_WORDS[1:] + "."


def is_sql_server(value: str) -> bool:
    """Whether ``value`` names SQL Server, however spelt ("SQL Server", "sql_server", "MSSQL")."""
    return "-".join(value.strip().lower().replace("_", " ").split()) in SQL_SERVER_SPELLINGS


def engine_name(value: str) -> str:
    """Another engine as its maker spells it ("postgres" -> "PostgreSQL", "MySQL 8" -> "MySQL"), else as given."""
    key = "-".join(value.strip().lower().replace("_", " ").split())
    return OTHER_ENGINES.get(key.replace("-", ""), OTHER_ENGINES.get(key.split("-")[0], value.strip() or "''"))


def engine_of(value: str) -> str:
    """``value`` as the engine hciplan models (:data:`ENGINE`), whichever way SQL Server is spelt; any other engine
    raises ValueError with the sentence saying it is not modelled, why and what to give instead."""
    if is_sql_server(value):
        return ENGINE
    if not value.strip():
        # an empty engine read garbled in the sentence below ("and ''\'s pages"; DBA walk 2026-12-03)
        raise ValueError(f"empty: give {ENGINE!r} (the one engine modelled) or leave engine out")
    name = engine_name(value)
    raise ValueError(
        f"{name} is not modelled: hciplan models SQL Server only, and {name}'s pages, write-ahead or redo log, "
        "checkpoints and CPU per transaction differ from SQL Server's, whose rules would give it the wrong IO; "
        + BY_ITS_IO_WORDS
    )


#: :func:`vm_ram_gb`'s rule in words (the Size page's RAM box says it; docs/guide/sizing.md states it)
VM_RAM_RULE = (
    "RAM per database is the buffer pool and what Windows and SQL Server need beside it: 1 GB for the operating "
    "system, 1 GB per 4 GB of the first 16 GB of RAM and 1 GB per 8 GB above (the common rule for what to leave "
    "beside SQL Server's max server memory)"
)


def vm_ram_gb(buffer_pool_gb: float) -> float:
    """The RAM a VM needs for SQL Server to keep a buffer pool of ``buffer_pool_gb`` [GB] (its max server
    memory) beside what Windows and SQL Server's other memory take [GB], whole GB.

    The common rule for what to leave beside max server memory: 1 GB for the operating system, 1 GB per 4 GB
    of the first 16 GB of RAM and 1 GB per 8 GB above (R - leave(R) = buffer pool, solved for R). A DBA review
    found a VM sized at exactly its buffer pool (browser review 2026-11-30).

    References
    ----------
    AWS Prescriptive Guidance, *Best practices for deploying SQL Server on Amazon EC2*, "Set max server memory
    to avoid memory pressure" (docs.aws.amazon.com/prescriptive-guidance/latest/sql-server-ec2-best-practices/
    max-server-memory.html); Microsoft, *Server memory configuration options* (learn.microsoft.com).
    """
    b = max(float(buffer_pool_gb), 0.0)
    ram = 4.0 * (b + 1.0) / 3.0 if b <= 11.0 else 8.0 * (b + 3.0) / 7.0
    return float(math.ceil(ram - 1e-9))


def buffer_pool_for_ram_gb(ram_gb: float) -> float:
    """The largest buffer pool whose VM (:func:`vm_ram_gb`) fits ``ram_gb`` [GB]: the rule's inverse, by bisection."""
    lo, hi = 0.0, ram_gb
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if vm_ram_gb(mid) <= ram_gb else (lo, mid)
    return lo


#: SQL Server versions and what changed for IO: indirect checkpoints the default for new
#: databases from 2016 (Microsoft, *Database checkpoints*), gathered writes of up to 128
#: pages instead of 32 from 2016 (Bob Dorr, *SQL 2016 - It Just Runs Faster: larger data
#: file writes*)
SqlServerVersion = Literal[2012, 2014, 2016, 2017, 2019, 2022]

#: group commit as the model has it, said with the log latency's source
GROUP_COMMIT_WORDS = (
    "group commit: commits arriving during a flush share the next, one flush in flight: an assumption SQL Server's "
    "documented behaviour contests, a flush at every commit with up to 112 in flight (Paul Randal, 'Trimming More "
    "Transaction Log Fat', 2013); kept because the Datrium seed reproduces with it and saturates its storage CPU at "
    "half its published TPM without it"
)
#: where a log latency given to :func:`io_demand` comes from when the caller does not say: a design's prediction
DESIGN_LOG_LATENCY_WORDS = "the design's predicted write latency"
#: the log latency's source where a design gives it (:func:`io_demand` with ``log_write_latency_ms``)
DESIGN_LOG_LATENCY_AT = DESIGN_LOG_LATENCY_WORDS + " at this load (the VM's, else the storage's)"
DESIGN_LOG_LATENCY_SOURCE = (
    DESIGN_LOG_LATENCY_AT + ", settled with the group commit it sets (" + GROUP_COMMIT_WORDS + ")"
)


def log_latency_source(
    log_write_latency_ms: float | None, no_latency_why: str | None = None, latency_origin: str | None = None
) -> str:
    """Where the log latency a result used comes from: the design's prediction, the caller's ``latency_origin``
    (a latency the user typed), or the assumption, said with why."""
    if log_write_latency_ms is not None:
        if latency_origin is not None:
            return f"{latency_origin} ({GROUP_COMMIT_WORDS})"
        return DESIGN_LOG_LATENCY_SOURCE
    return f"{no_latency_why or 'no design given'}: an assumption of {ASSUMED_LOG_WRITE_LATENCY_MS:g} ms ({GROUP_COMMIT_WORDS})"


def log_latency_basis(
    log_write_latency_ms: float | None, no_latency_why: str | None = None, latency_origin: str | None = None
) -> str:
    """The log latency's basis in a few words, as the log stream's rule and ``log_write_latency_note`` say it: the
    design's prediction, the caller's ``latency_origin``, or "no design given: assumed"."""
    if log_write_latency_ms is not None:
        return latency_origin or DESIGN_LOG_LATENCY_WORDS
    return f"{no_latency_why or 'no design given'}: assumed"


def log_latency_note(
    log_write_latency_ms: float | None, no_latency_why: str | None = None, latency_origin: str | None = None
) -> str:
    """``log_write_latency_note``: the basis of the flush latency the log figures were taken at, and, where it is
    assumed, that a design's prediction replaces it. `db-io` printed 1,000 log flushes a second for the DBA's
    database where `sla --database` printed 2,131 for the same one on the reference design (0.469 ms predicted), and
    only the log stream's rule said the 1 ms was assumed (DBA walk 2026-12-03)."""
    if log_write_latency_ms is not None:
        return latency_origin or DESIGN_LOG_LATENCY_AT
    basis = log_latency_basis(log_write_latency_ms, no_latency_why, latency_origin)
    if no_latency_why is not None:  # on a design already, which predicts none
        return basis
    return (
        f"{basis}; on a design (`sla --database`, the SLA page) its predicted write latency replaces it, and the log "
        "flushes a second and the IOPS move with it"
    )


#: where each default comes from (shown next to the value in the UI and in every result)
SOURCES = {
    "access": "HammerDB TPROC-C for SQL Server (mssqlsoltp.tcl, TPC-Council/HammerDB @5725747): items and "
    "customer ids uniform, last names NURand(255,0,999); 'tpcc': the TPC-C spec's NURand(8191) items and "
    "NURand(1023) customers (clause 2.1.6)",
    "warehouses": "HammerDB's schema, about 100 MB per warehouse as built (5,000 ~ 500 GB, Datrium; 10,000 ~ "
    "1 TB, Micron/DataON)",
    "all_warehouses": "HammerDB 'Use All Warehouses': off by default (each virtual user keeps one home warehouse, "
    "drawn at random)",
    "tpm_per_nopm": "HammerDB's driver: New-Order 10 of 23 calls, 1 % rolled back; TPM counts every call (SQL "
    "Server Batch Requests/sec): TPM / NOPM = 23 / 10 / 0.99 = 2.323 (published pairs 2.305-2.342)",
    "buffer_hit_ratio": "LRU buffer pool under Che's approximation (Che, Tung & Wang 2002) over the pages the "
    "transactions touch (the procedures' page accesses and HammerDB's schema); a ratio given is the share of the "
    "row lookups' pages found in the pool, not perfmon's Buffer cache hit ratio (about 99 %: it counts the index "
    "pages above the leaves too)",
    "checkpoint_mode": "Microsoft, Database checkpoints: indirect checkpoints are the default for databases "
    "created on SQL Server 2016 and later; automatic before",
    "checkpoint_interval_s": "Microsoft, Change the target recovery time of a database: indirect checkpoints write "
    "continuously to keep recovery within TARGET_RECOVERY_TIME, 60 s by default from SQL Server 2016; Microsoft, "
    "recovery interval: automatic checkpoints about once a minute at its default (0)",
    "checkpoint_burst_s": "assumption: an automatic checkpoint writes its dirty pages within 10 s of each interval",
    "gather_pages": "Microsoft, Writing pages: up to 32 adjacent dirty pages per write; SQL Server 2016+ up to "
    "128 (1 MB) (Bob Dorr, 'larger data file writes')",
    "log_bytes_per_txn": "derived from the rows HammerDB's procedures change: a log record each, "
    f"{oltp.LOG_RECORD_OVERHEAD_BYTES:g} bytes beyond the row inserted or deleted or the changed bytes before and "
    "after (as fn_dblog shows a row insert's record on SQL Server 2008 R2: Ramkumar, sqlservercentral.com, 2012), "
    f"begin and commit {oltp.LOG_TXN_RECORD_BYTES:g} bytes each (an assumption): New-Order "
    f"{oltp.LOG_BYTES['new_order']:,.0f}, Payment {oltp.LOG_BYTES['payment']:,.0f}, Delivery "
    f"{oltp.LOG_BYTES['delivery']:,.0f}, read-only 0; {oltp.LOG_BYTES_PER_CALL:,.0f} over the driver's mix; no "
    "published figure",
    "log_write_latency_ms": log_latency_source(None),
    "read_ahead_kib": "Microsoft, Reading pages: read-ahead up to 64 pages (512 KB)",
    "backup_io_kib": "BACKUP (Transact-SQL) MAXTRANSFERSIZE: multiples of 64 KB up to 4 MB, 1 MB default to disk",
    "cpu_us_per_txn": "fitted: core-microseconds per TPM transaction (planner/data/oltp-calibration.json)",
    "virtual_users": "HammerDB virtual users (no think time); unknown: every warehouse active, a conservative IO "
    "estimate",
    "sql_server_version": "decides the default checkpoint mode (indirect from 2016) and the largest gathered write "
    "(32 pages to 2014, 128 from 2016)",
    "engine": "every stream's rule (pages, checkpoints, lazy writer, log, read-ahead, backup), the CPU per "
    "transaction and the RAM beside the buffer pool are SQL Server's, the one engine hciplan models; another "
    "engine's database (PostgreSQL, MySQL, ...) is described by its IO",
    "log_space_fraction": "the transaction log file's space, a share of the data files: Microsoft's 'approximately "
    "10-25 percent of the size of the database is a good place to start' (SQL Server 6.5 documentation, Creating "
    "and Sizing Transaction Logs), its upper end; current Microsoft documentation gives no share: measure the log "
    "written between log backups",
    "tempdb_space_fraction": "assumption: tempdb's space, a share of the data files (the VM's own instance). No "
    "Microsoft source gives a share (size tempdb by running the workload); Sybase Adaptive Server, SQL Server's "
    "ancestor, says 20-25 % of the user databases for most applications: its upper end",
}
#: each stream's source, from the same texts as its assumptions' (the issue's "each stream with its rule and source":
#: db-io's streams carried a rule and no source; CLI walk 2026-12-01); the log's latency part is the result's own
STREAM_SOURCES = {
    "data page reads": "Microsoft, Reading pages (a page the buffer pool lacks is read, 8 KiB); the misses: "
    + SOURCES["buffer_hit_ratio"]
    + "; the pages touched: "
    + SOURCES["access"],
    "checkpoint writes": SOURCES["checkpoint_mode"]
    + "; "
    + SOURCES["checkpoint_interval_s"]
    + "; "
    + SOURCES["gather_pages"],
    "lazy writer": "Microsoft, Writing pages: the lazy writer writes the dirty pages the buffer pool evicts (a page "
    "evicted clean is not written); the eviction age: " + SOURCES["buffer_hit_ratio"],
    "log writes": "Microsoft, SQL Server transaction log architecture and management guide: log blocks of 512 bytes "
    "up to 60 KB, written sequentially; the bytes: " + SOURCES["log_bytes_per_txn"],
    "read-ahead": SOURCES["read_ahead_kib"],
    "backup": SOURCES["backup_io_kib"],
}
#: the description's fields that are assumptions a user may override, each with its source in SOURCES
ASSUMPTION_FIELDS = (
    "access",
    "virtual_users",
    "all_warehouses",
    "warehouses",
    "buffer_hit_ratio",
    "sql_server_version",
    "checkpoint_mode",
    "checkpoint_interval_s",
    "checkpoint_burst_s",
    "log_bytes_per_txn",
    "cpu_us_per_txn",
)
#: the description's space beside the data files (capacity, not IO): overridable fields with their sources in SOURCES,
#: given on the Size page beside the database rather than among the IO assumptions
SPACE_FIELDS = ("log_space_fraction", "tempdb_space_fraction")


class DbWorkloadError(PlannerError):
    pass


#: a given hit ratio from which it reads like perfmon's Buffer cache hit ratio (a warning's threshold, said in
#: words; not a model figure): the counter reads about 99 % on most servers, the row lookups' share far lower
PERFMON_LIKE_HIT = 0.95


def warehouses_advice(size_gb: float) -> str:
    """What to give of a database of ``size_gb`` [GB] whose warehouses do not match its size: about size / 0.1 GB,
    at most :data:`MAX_WAREHOUSES` where that many still hold it within :data:`WAREHOUSE_SPREAD`, else none. In plain
    figures: "the size is 4e+05 GB" and "give about 12,345,670 warehouses", above the most allowed (DBA walk
    2026-11-30)."""
    want = size_gb / oltp.WAREHOUSE_GB
    if want <= MAX_WAREHOUSES:
        return f"give about {want:,.0f} warehouses, or leave them out"
    if size_gb / (MAX_WAREHOUSES * oltp.WAREHOUSE_GB) <= WAREHOUSE_SPREAD[1]:
        return f"give {MAX_WAREHOUSES:,} warehouses (the most allowed), or leave them out"
    return f"leave them out: {MAX_WAREHOUSES:,} warehouses (the most allowed) hold too little of it"


class Database(BaseModel):
    """One database and the VM it runs in. Sizes in decimal GB (``size_tb`` is accepted
    instead of ``size_gb``), rates per minute as HammerDB reports them. Give a workload
    (``nopm`` or ``tpm`` with ``buffer_pool_gb``) or an IO shape (``block_size_kib``,
    ``read_fraction``, ``random_fraction``; 8 KiB, 0.7 and 1.0 when left out). A workload description is
    modelled as SQL Server (``engine``), the one engine hciplan models: another engine's database (PostgreSQL,
    MySQL, ...) is described by its IO."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    name: str = Field(default="database", min_length=1, max_length=200, description="the database's name in results")
    description: str = Field(default="", max_length=2000, description="where the description comes from")
    # a PostgreSQL database was refused as "engine: not a field this input takes (a typo?)", and one that named no
    # engine became SQL Server without a word (PostgreSQL/MySQL DBA walk, stop 55)
    engine: Engine = Field(
        default=ENGINE,
        description="the database engine: 'sql-server' (SQL Server, however spelt), the only one modelled; "
        "another engine (postgresql, mysql, mariadb, oracle, ...) is refused, its pages, log, checkpoints and CPU "
        "differing from SQL Server's: describe such a database by its IO (block_size_kib, read_fraction, "
        "random_fraction; no engine, nopm or tpm)",
    )
    size_gb: float | None = Field(
        default=None,
        ge=M.MIN_CAPACITY_GB,
        le=1e7,
        description="data files, decimal GB (a workload description adds its log and tempdb: log_space_fraction, "
        "tempdb_space_fraction); a description by IO: the space its files take, as measured",
    )
    size_tb: float | None = Field(
        default=None, ge=M.MIN_CAPACITY_TB, le=10_000, description="as size_gb, decimal TB (give one of them)"
    )
    # ---- the workload, as a DBA describes it
    nopm: float | None = Field(
        default=None, ge=M.MIN_TRANSACTIONS_PER_MIN, le=1e9, description="new orders per minute (HammerDB NOPM)"
    )
    tpm: float | None = Field(
        default=None,
        ge=M.MIN_TRANSACTIONS_PER_MIN,
        le=1e10,
        description="transactions per minute (HammerDB TPM: SQL Server batch requests)",
    )
    buffer_pool_gb: float | None = Field(
        default=None, ge=M.MIN_BUFFER_POOL_GB, le=1e6, description="buffer pool (max server memory for data), GB"
    )
    virtual_users: int | None = Field(
        default=None, ge=1, le=100_000, description="HammerDB virtual users (no think time): the closed loop"
    )
    warehouses: float | None = Field(
        default=None, ge=1, le=MAX_WAREHOUSES, description="HammerDB warehouses (default: size / 0.1 GB)"
    )
    all_warehouses: bool = Field(default=False, description="HammerDB 'Use All Warehouses'")
    access: Literal["hammerdb", "tpcc"] = Field(default="hammerdb", description="how transactions pick their rows")
    buffer_hit_ratio: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="override the modelled buffer-pool hit ratio: the share of the row lookups' pages found in the "
        "pool (1 - page reads / row lookups), not perfmon's Buffer cache hit ratio (which counts every page lookup, "
        "index root and intermediate pages included, and reads about 99 %)",
    )
    sql_server_version: SqlServerVersion = Field(
        default=2019,
        description="SQL Server's version: from 2016 indirect checkpoints are the default checkpoint_mode and a "
        "checkpoint gathers up to 128 adjacent dirty pages into one write (32 before)",
    )
    checkpoint_mode: Literal["indirect", "automatic"] | None = Field(
        default=None, description="default: indirect from SQL Server 2016, automatic before"
    )
    checkpoint_interval_s: float = Field(
        default=60.0,
        ge=M.MIN_CHECKPOINT_S,
        le=86400,
        description="seconds: with indirect checkpoints (checkpoint_mode; the default from SQL Server 2016) the "
        "database's TARGET_RECOVERY_TIME, within which a dirtied page is written; with automatic ones the time "
        "between checkpoints the recovery interval gives (about 60 s at its default). Sets the checkpoint writes "
        "(a page dirtied several times in it is written once) and which dirty pages the pool evicts first",
    )
    checkpoint_burst_s: float = Field(
        default=10.0,
        ge=M.MIN_CHECKPOINT_S,
        le=86400,
        description="automatic checkpoints: seconds in which a checkpoint writes",
    )
    log_bytes_per_txn: float | None = Field(default=None, ge=0, le=1e8, description="log bytes per TPM transaction")
    cpu_us_per_txn: float | None = Field(
        default=None,
        ge=M.MIN_CPU_US_PER_TXN,
        le=1e7,
        description="core-microseconds per TPM transaction (default: fitted)",
    )
    scan_mb_s: float = Field(default=0.0, ge=0, le=1e6, description="table/index scans (read-ahead), MB/s")
    read_ahead_kib: float = Field(
        default=READ_AHEAD_MAX_KIB,
        ge=PAGE_KIB,
        le=READ_AHEAD_MAX_KIB,
        description="KiB a scan's read-ahead reads an IO, 8 (a page) to 512 (64 pages, SQL Server's most): the "
        "read-ahead stream's IO size, so its IOs for scan_mb_s",
    )
    backup_mb_s: float = Field(default=0.0, ge=0, le=1e6, description="backup read rate while a backup runs, MB/s")
    backup_io_kib: float = Field(
        default=BACKUP_IO_KIB,
        ge=64,
        le=4096,
        description="KiB a backup reads an IO (BACKUP's MAXTRANSFERSIZE, 64-4,096, 1,024 by default to disk): the "
        "backup stream's IO size, so its IOs for backup_mb_s",
    )
    # ---- the VM
    vcpus: int | None = Field(
        default=None,
        ge=1,
        le=512,
        description="the database VM's vCPUs (default 16: the VM the SLA judges and, in a demand "
        "that gives no vcpus_per_db, the one the sizer allocates)",
    )
    threads: int | None = Field(default=None, ge=1, le=1024, description="IO threads in the VM (default 4)")
    outstanding_per_thread: int | None = Field(
        default=None,
        ge=1,
        le=4096,
        description="IOs each of the VM's IO threads keeps in flight (default 16): threads x this is the VM's IOs "
        "in flight, which bound its rate at a latency (Little's law) and set the queue its IO meets",
    )
    # ---- the IO shape, for a description by IO
    block_size_kib: float | None = Field(default=None, ge=0.5, le=4096, description="IO size, KiB")
    read_fraction: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        description="for a database described by its IO: the share of its IOs that are reads, 0-1 (default 0.7); "
        "with nopm or tpm the reads follow from the workload",
    )
    random_fraction: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        description="for a database described by its IO: the share of its IOs that are random, 0-1 (default 1); "
        "with nopm or tpm it follows from the workload's streams",
    )
    # ---- the promise
    latency_target_ms: float = Field(
        default=1.0,
        ge=MIN_LATENCY_TARGET_MS,
        le=MAX_LATENCY_TARGET_MS,
        description=f"latency target, ms ({MIN_LATENCY_TARGET_MS}..{MAX_LATENCY_TARGET_MS})",
    )
    latency_statistic: Literal["mean", "p90", "p99"] = Field(
        default="mean",
        description="which of the VM's IO latencies latency_target_ms promises: the mean, or the 90th or 99th "
        "percentile",
    )
    # ---- the space beside the data files, what storage holds with them
    log_space_fraction: float | None = Field(
        default=None,
        ge=0,
        le=10,
        description=f"the transaction log file's space, a share of the data files (default for a workload description "
        f"{LOG_SPACE_FRACTION:g}: the upper end of Microsoft's 10-25 % starting point; a description by IO gives its "
        "files' whole size, 0 added). Give the measured log size over the data's",
    )
    tempdb_space_fraction: float | None = Field(
        default=None,
        ge=0,
        le=10,
        description=f"tempdb's space, a share of the data files (default for a workload description "
        f"{TEMPDB_SPACE_FRACTION:g}: an assumption, Microsoft gives no share; a description by IO, 0 added). Give the "
        "measured tempdb size over the data's",
    )

    @field_validator("engine", mode="before")
    @classmethod
    def _engine(cls, v: Any) -> Any:
        return engine_of(v) if isinstance(v, str) else v

    @model_validator(mode="after")
    def _consistent(self) -> Database:
        if (self.size_gb is None) == (self.size_tb is None):
            raise ValueError("give the database's size as size_gb (decimal GB) or size_tb (decimal TB), one of them")
        if self.nopm is not None and self.tpm is not None:
            raise ValueError("give one of nopm (new orders per minute) or tpm (transactions per minute), not both")
        if self.has_workload and self.buffer_pool_gb is None:
            raise ValueError("buffer_pool_gb is needed with nopm or tpm: it decides how many reads reach storage")
        if self.has_workload and any(v is not None for v in (self.block_size_kib, self.read_fraction)):
            raise ValueError(
                "give nopm/tpm (the IO follows from them) or an IO shape (block_size_kib, read_fraction), not both"
            )
        if self.mode == "automatic" and self.checkpoint_burst_s > self.checkpoint_interval_s:
            raise ValueError("checkpoint_burst_s cannot exceed checkpoint_interval_s")
        if self.warehouses is not None:
            # HammerDB's schema holds about 0.1 GB a warehouse (10,000 warehouses ~ 1 TB in the Micron brief,
            # 5,000 ~ 500 GB in Datrium's): a count far from the size is a typo, and the buffer model would
            # spread the transactions over a database of another size (1 warehouse on 1 TB: every read a hit)
            held = self.warehouses * oltp.WAREHOUSE_GB
            if not WAREHOUSE_SPREAD[0] <= self.data_gb / held <= WAREHOUSE_SPREAD[1]:
                raise ValueError(
                    f"warehouses ({self.warehouses:,.0f}) hold about {tidy(held)} GB at HammerDB's "
                    f"{oltp.WAREHOUSE_GB:g} GB a warehouse, but the size is {tidy(self.data_gb, 3)} GB; "
                    + warehouses_advice(self.data_gb)
                )
        return self

    # ------------------------------------------------------------------ views
    @property
    def data_gb(self) -> float:
        """The database's size, decimal GB."""
        if self.size_gb is not None:
            return float(self.size_gb)
        assert self.size_tb is not None  # _check: one of the two is given
        return float(self.size_tb * 1000.0)

    @property
    def data_tb(self) -> float:
        """The data files, decimal TB."""
        return self.data_gb / 1000.0

    @property
    def log_share(self) -> float:
        """The log's space over the data's: as given, else :data:`LOG_SPACE_FRACTION` for a workload description
        (a data size) and 0 for a description by IO (its size is what its files take, as measured)."""
        if self.log_space_fraction is not None:
            return float(self.log_space_fraction)
        return LOG_SPACE_FRACTION if self.has_workload else 0.0

    @property
    def tempdb_share(self) -> float:
        """tempdb's space over the data's: as given, else :data:`TEMPDB_SPACE_FRACTION` for a workload description
        and 0 for a description by IO."""
        if self.tempdb_space_fraction is not None:
            return float(self.tempdb_space_fraction)
        return TEMPDB_SPACE_FRACTION if self.has_workload else 0.0

    @property
    def log_tb(self) -> float:
        """The transaction log file's space, decimal TB: the data x :attr:`log_share`."""
        return self.data_tb * self.log_share

    @property
    def tempdb_tb(self) -> float:
        """tempdb's space, decimal TB: the data x :attr:`tempdb_share`."""
        return self.data_tb * self.tempdb_share

    @property
    def capacity_tb(self) -> float:
        """What storage must hold for this database, decimal TB: its data, log and tempdb files."""
        return self.data_tb + self.log_tb + self.tempdb_tb

    def beside_data(self, plural: bool = False) -> str:
        """What the size holds beside the data, in words (" with its log and tempdb"), or nothing where it holds
        nothing beside them (a description by IO): "a 0.75 TB database does not fit" did not say that 0.5 TB of it
        is data (DBA review 2026-11-30)."""
        if self.log_tb + self.tempdb_tb <= 0:
            return ""
        return f" with {'their' if plural else 'its'} log and tempdb"

    def capacity_note(self) -> str:
        """The capacity in its parts, with where the log's and tempdb's shares come from."""
        if not self.has_workload and self.log_space_fraction is None and self.tempdb_space_fraction is None:
            return (
                f"{tidy(self.capacity_tb, 3)} TB as given: a database described by its IO gives the space its files "
                "take (give log_space_fraction and tempdb_space_fraction to add a log and tempdb to a data size)"
            )

        def said(given: float | None, default: str) -> str:
            return ", given" if given is not None else default

        assumed = [
            (what, tb)
            for what, tb, given in (
                ("log", self.log_tb, self.log_space_fraction),
                ("tempdb", self.tempdb_tb, self.tempdb_space_fraction),
            )
            if given is None and tb >= LARGE_ASSUMED_FILE_TB
        ]
        needs = {
            "log": "a log needs what the database writes between log backups",
            "tempdb": "tempdb needs what its queries spill",
        }
        flag = (
            f"; {tidy(sum(tb for _, tb in assumed), 3)} TB of it ({' and '.join(w for w, _ in assumed)}) rests on "
            f"the assumed share{'s' if len(assumed) > 1 else ''} alone, no measurement: "
            + " and ".join(needs[w] for w, _ in assumed)
            + ", so give "
            + " and ".join(f"{w}_space_fraction" for w, _ in assumed)
            + " as measured"
            if assumed
            else ""
        )
        return (
            f"{tidy(self.capacity_tb, 3)} TB: data {tidy(self.data_tb, 3)} TB + transaction log "
            f"{tidy(self.log_tb, 3)} TB ({100 * self.log_share:g} % of the data"
            + said(self.log_space_fraction, ": the upper end of Microsoft's 10-25 % starting point")
            + f") + tempdb {tidy(self.tempdb_tb, 3)} TB ({100 * self.tempdb_share:g} % of the data"
            + said(self.tempdb_space_fraction, ": an assumption, Microsoft gives no share")
            + ")"
            + flag
        )

    def volume_note(self) -> str | None:
        """Where one of this database's files is larger than an S2D / Azure Local volume (64 TB, Microsoft's "Plan
        volumes" and Azure Local's maximums): the volumes its data, log and tempdb files must span, at least
        ceil(size / 64 TB) each; None where every file fits one volume. A 150 TB database read "volume_plan: no
        volumes planned, not applicable" (stop 55 walk): the rule binds on how its files are laid out, not on the
        pool's capacity. Said for the S2D stack only (vSAN and Ceph have their own object limits)."""
        parts = [(what, tb) for what, tb in (("data", self.data_tb), ("log", self.log_tb), ("tempdb", self.tempdb_tb))]
        over = [(what, tb, math.ceil(tb / MAX_VOLUME_TB - 1e-9)) for what, tb in parts if tb > MAX_VOLUME_TB + 1e-9]
        if not over:
            return None
        files = ", ".join(f"its {what} files ({tidy(tb, 3)} TB) at least {k}" for what, tb, k in over)
        return (
            f"a volume holds at most {MAX_VOLUME_TB:g} TB on S2D and Azure Local (Microsoft, 'Plan volumes'): this "
            f"database's files must span several volumes, {files} (a filegroup of several files, one per volume)"
        )

    @property
    def has_workload(self) -> bool:
        return self.nopm is not None or self.tpm is not None

    @property
    def reads_every_warehouse(self) -> bool:
        """Whether its reads are taken with every warehouse active for want of a measure of its skew (no measured
        ``buffer_hit_ratio``, no ``virtual_users``): the most reads HammerDB's access gives at its size and pool
        (:data:`EVERY_WAREHOUSE_WORDS`). Not where the pool holds the whole database, whatever the skew: a 5,000 GB
        pool over 1,000 GB was said to read "likely more than a production database" (DBA walk 2026-12-03). One rule
        for `db-io`'s note and the estate's."""
        return (
            self.has_workload
            and self.buffer_hit_ratio is None
            and self.virtual_users is None
            and not self.all_warehouses
            and float(self.buffer_pool_gb or 0.0) < self.data_gb
        )

    @property
    def transactions_per_s(self) -> float:
        """HammerDB transactions (calls) per second: TPM / 60, or NOPM x 2.323 / 60."""
        if self.tpm is not None:
            return self.tpm / 60.0
        return (self.nopm or 0.0) * oltp.TPM_PER_NOPM / 60.0

    @property
    def mode(self) -> str:
        if self.checkpoint_mode is not None:
            return self.checkpoint_mode
        return "indirect" if self.sql_server_version >= 2016 else "automatic"

    @property
    def gather_pages(self) -> int:
        return 128 if self.sql_server_version >= 2016 else 32

    @property
    def outstanding(self) -> int:
        return self.vm("threads") * self.vm("outstanding_per_thread")

    def vm(self, field: str) -> int:
        """The VM's ``vcpus``, ``threads`` or ``outstanding_per_thread`` (its default if not given)."""
        v = getattr(self, field)
        return int(DEFAULT_VM[field] if v is None else v)

    def with_rate(self, tps: float) -> Database:
        """The same database at ``tps`` transactions per second (TPM = 60 tps)."""
        return self.model_copy(update={"tpm": tps * 60.0, "nopm": None})


class IoStream(BaseModel):
    model_config = ConfigDict(frozen=True)
    name: str
    read: bool
    random: bool
    block_size_kib: float
    iops: float
    peak_iops: float
    bandwidth_mb_s: float
    rule: str
    source: str = Field(description="where the stream's rule and figures come from (documents, fits, assumptions)")


class IoDemand(BaseModel):
    """The IO a database asks of storage, by stream and in total (mean and peak)."""

    model_config = ConfigDict(frozen=True)
    database: str
    #: the engine whose rules made the streams, said in every result (a PostgreSQL database became SQL Server
    #: silently; stop 55)
    engine: Engine = Field(default=ENGINE, description="the engine whose rules the streams follow: SQL Server's")
    engine_note: str = Field(default=ENGINE_NOTE, description="the engine in words")
    transactions_per_s: float
    tpm: float
    nopm: float
    buffer_hit_ratio: float
    buffer_hit_note: str
    #: a hit ratio outside the model's range, as a warning (the note alone held it: `db-io` printed a hit ratio of
    #: 0 and ``warnings: []``, the Compare page "buffer-pool hit 0%"; DBA review 2026-11-30), else None
    buffer_hit_warning: str | None = None
    reads_per_txn: float
    writes_per_txn: float
    log_flushes_per_s: float
    log_write_latency_ms: float = Field(
        description="the log flush latency the log figures are taken at, ms: a design's predicted write latency, "
        "one given, or the assumed 1 ms where no design is given"
    )
    log_write_latency_note: str = Field(description="where log_write_latency_ms comes from")
    streams: list[IoStream]
    iops: float
    peak_iops: float
    bandwidth_mb_s: float
    peak_bandwidth_mb_s: float
    read_fraction: float
    block_size_kib: float = Field(description="IO-weighted mean size (bytes / IOs), as a one-shape workload needs")
    random_fraction: float
    peak_read_fraction: float = Field(description="the read share at the peak (checkpoint bursts write more)")
    peak_block_size_kib: float = Field(description="the IO-weighted mean size at the peak, KiB")
    peak_random_fraction: float
    #: the log and tempdb beside the data: capacity counted the data files alone (DBA review 2026-11-30)
    capacity_tb: float = Field(
        description="what storage must hold, decimal TB: the data files, the transaction log and tempdb "
        "(data_tb + log_tb + tempdb_tb)"
    )
    capacity_note: str = Field(description="the capacity in its parts, with where the log's and tempdb's come from")
    data_tb: float = Field(description="the database's data files, decimal TB")
    log_tb: float = Field(description="the transaction log file's space, decimal TB (data_tb x log_space_fraction)")
    tempdb_tb: float = Field(description="tempdb's space, decimal TB (data_tb x tempdb_space_fraction)")
    #: in TB as data_tb is, and named for what it is: `db-io` printed "capacity_tb: 1.0" beside
    #: "active_data_gb: 1000.0", one figure in two units to a reader who did not know they can differ (docs walk)
    active_data_tb: float = Field(
        description="the part of the data files the load touches (its active warehouses' share), decimal TB: "
        "all of data_tb when every warehouse is active, less with fewer virtual users"
    )
    reads_per_call: dict[str, float] = Field(
        description="physical page reads a call of each transaction type waits for, by type"
    )
    cpu_us_per_txn: float = Field(description="core-microseconds per TPM transaction (the database's own work)")
    assumptions: list[dict[str, Any]]

    def shape(self, peak: bool = False) -> tuple[float, float, float]:
        """(block_size_kib, read_fraction, random_fraction) as a one-shape workload takes it: the
        mean mix, or with ``peak`` the mix at the peak (checkpoint bursts write more); the size
        within a workload's 0.5-4,096 KiB."""
        if peak:
            bs, rf, rnd = self.peak_block_size_kib, self.peak_read_fraction, self.peak_random_fraction
        else:
            bs, rf, rnd = self.block_size_kib, self.read_fraction, self.random_fraction
        return min(max(bs, 0.5), 4096.0), rf, rnd


def _stream(
    name: str, read: bool, random: bool, kib: float, iops: float, peak: float, rule: str, source: str | None = None
) -> IoStream:
    return IoStream(
        source=STREAM_SOURCES[name] if source is None else source,
        name=name,
        read=read,
        random=random,
        block_size_kib=kib,
        iops=iops,
        peak_iops=peak,
        bandwidth_mb_s=iops * kib * 1024 / 1e6,
        rule=rule,
    )


@lru_cache(maxsize=1)
def oltp_calibration() -> dict[str, Any]:
    """The fitted database parameters (``planner/data/oltp-calibration.json``)."""
    doc: dict[str, Any] = json.loads(data_path("oltp-calibration.json").read_text(encoding="utf-8"))
    return doc


def cpu_us_per_txn(db: Database) -> float:
    """Core-microseconds per TPM transaction: the database's override, else the fit."""
    return float(db.cpu_us_per_txn if db.cpu_us_per_txn is not None else oltp_calibration()["cpu_us_per_txn"]["value"])


def cpu_s_per_call(db: Database, db_io: IoDemand, guest_us_per_io: Any) -> Any:
    """Core-seconds of one HammerDB call [s]: SQL Server's own work (:func:`cpu_us_per_txn`) and the
    guest IO stack's for the call's IOs.

    Parameters
    ----------
    db : Database
    db_io : IoDemand
        Its IO demand (:func:`io_demand`): the IOs per transaction.
    guest_us_per_io : float or numpy.ndarray
        The guest IO stack's CPU per IO at the VM's clock [us]; an array gives one figure per clock.

    Returns
    -------
    float or numpy.ndarray
        [core-s per call]. A vCPU counts as one core's worth of work (the fit's assumption,
        :func:`oltp_calibration`).
    """
    return (cpu_us_per_txn(db) + guest_us_per_io * (db_io.iops / max(db_io.transactions_per_s, 1e-12))) * 1e-6


#: bisection steps on the rate (2^-40 of the bracket: far below any figure shown)
STEPS = 40
#: a committing call waits for the flush in flight to end, then its own: 1.5 flushes on average
COMMIT_WAIT_FLUSHES = 1.5
COMMITTING = oltp.MIX["new_order"] + oltp.MIX["payment"] + oltp.MIX["delivery"]


def response_time_s(
    db_io: IoDemand, cpu_s_per_call: float, vcpus: int, x: float, read_latency_ms: float, write_latency_ms: float
) -> float:
    """Mean response time of a HammerDB call at ``x`` calls per second [s]: CPU time queued on
    ``vcpus`` (M/M/c by Sakasegawa's approximation of the wait), the page reads a call of each
    type waits for at the read latency, and a committing call's wait for the log flush."""
    rho = min(x * cpu_s_per_call / max(vcpus, 1), 0.999999)
    wait = cpu_s_per_call * float(rho ** (math.sqrt(2 * (vcpus + 1)) - 1)) / (vcpus * (1 - rho))
    reads = sum(oltp.MIX[k] * db_io.reads_per_call.get(k, 0.0) for k in oltp.MIX)
    return (
        cpu_s_per_call
        + wait
        + reads * read_latency_ms / 1e3
        + COMMITTING * COMMIT_WAIT_FLUSHES * write_latency_ms / 1e3
    )


def users_rate(
    db_io: IoDemand,
    cpu_s_per_call: float,
    vcpus: int,
    cpu_tps: float,
    users: int,
    latency_ms: float,
    write_latency_ms: float | None = None,
) -> float:
    """The most calls per second ``users`` virtual users with no think time reach with their IO served
    at ``latency_ms`` [1/s] (their log flushes at ``write_latency_ms`` [ms] where given, else at the same):
    the rate ``x`` with ``x = users / R(x)`` (Little's law for the closed loop; :func:`response_time_s`),
    below the vCPUs' bound ``cpu_tps``.

    ``x - users / R(x)`` rises with ``x`` (the response time does), so the root is one, found by
    bisection. Taking ``R`` at the rate asked instead (review 2026-11-29) put a rate past the vCPUs'
    bound at 99.9 % busy, where the CPU queue alone is 30 ms: Datrium's 500 users were said to reach
    941,770 TPM while the capacity found them at 1,977,396 (its published run: 2,000,000)."""
    w_ms = latency_ms if write_latency_ms is None else write_latency_ms
    lo, hi = 0.0, cpu_tps
    if hi * response_time_s(db_io, cpu_s_per_call, vcpus, hi, latency_ms, w_ms) <= users:
        return hi
    for _ in range(STEPS):
        mid = 0.5 * (lo + hi)
        if mid * response_time_s(db_io, cpu_s_per_call, vcpus, mid, latency_ms, w_ms) <= users:
            lo = mid
        else:
            hi = mid
    return lo


def users_limited_tps(db: Database, db_io: IoDemand, latency_ms: float, vcpus: float, guest_us_per_io: float) -> float:
    """The most calls per second ``db``'s virtual users reach with their IO served at ``latency_ms`` [1/s]:
    :func:`users_rate` with a call's CPU (:func:`cpu_s_per_call`) on ``vcpus``.

    Parameters
    ----------
    db : Database
        With ``virtual_users``.
    db_io : IoDemand
        Its IO demand (:func:`planner.models.database.io_demand`).
    latency_ms : float
        The IO and log-write latency each call waits for [ms].
    vcpus : float
        The vCPUs counted [-]: a share at an oversubscription may be fractional; its CPU queue is that of
        the whole vCPUs above it.
    guest_us_per_io : float
        The guest IO stack's CPU per IO at the VM's clock [us]; 0 where no design gives the clock.

    Returns
    -------
    float
        The most calls per second the virtual users reach [1/s].

    Notes
    -----
    One rule for `db-io`'s warning and the guarantee's rate (:func:`planner.commercial.database.rate_carried`), which differ only in what
    they count (a design's clock and vCPU share): the same database read "at most 33,785 TPM" in one and
    32,874 in the other with no word why (DBA walk 2026-11-30).
    """
    cs = cpu_s_per_call(db, db_io, guest_us_per_io)
    return users_rate(db_io, cs, max(math.ceil(vcpus), 1), vcpus / cs, int(db.virtual_users or 0), latency_ms)


def shape_of(db: Database) -> oltp.OltpShape:
    return oltp.OltpShape(
        size_gb=db.data_gb,
        buffer_pool_gb=float(db.buffer_pool_gb or 0.0),
        warehouses=float(db.warehouses if db.warehouses is not None else max(1.0, db.data_gb / oltp.WAREHOUSE_GB)),
        virtual_users=None if db.virtual_users is None else float(db.virtual_users),
        all_warehouses=db.all_warehouses,
        access=db.access,
        checkpoint_interval_s=db.checkpoint_interval_s,
        gather_pages=db.gather_pages,
    )


def checkpoint_rule(db: Database, bursts: bool) -> str:
    """The checkpoint stream's rule in words, as the database's checkpoints run.

    Indirect checkpoints (the default for databases created on SQL Server 2016 and later) write
    continuously, keeping the dirty pages within what the database's recovery-time target allows
    (TARGET_RECOVERY_TIME, 60 s by default); automatic ones run about once per recovery interval and
    write their dirty pages in a burst. The rule said "indirect checkpoints every 60 s" (DBA review).

    References
    ----------
    Microsoft, *Database checkpoints* and *Change the target recovery time of a database*
    (learn.microsoft.com/sql/relational-databases/logs).
    """
    T = db.checkpoint_interval_s
    if db.mode == "indirect":
        head = (
            f"indirect checkpoints, written continuously to a {T:g} s recovery-time target (TARGET_RECOVERY_TIME): "
            "each page dirtied written once within it"
        )
    else:
        head = (
            f"automatic checkpoints about every {T:g} s (the recovery interval): each page dirtied in an interval "
            "written once"
        )
    return (
        head
        + f", adjacent ones gathered up to {db.gather_pages} pages"
        + (f"; written within {db.checkpoint_burst_s:g} s" if bursts else "; spread evenly")
    )


def lazy_writer_rule(buf: dict[str, Any], checkpoint_interval_s: float, given: bool = False) -> str:
    """The lazy-writer stream's rule in words: which pages it writes and why so many (or none).

    Parameters
    ----------
    buf : dict
        :func:`planner.models.oltp.buffer_model`'s result (its characteristic time and page writes).
    checkpoint_interval_s : float
        The checkpoint interval, or the indirect checkpoints' recovery-time target [s].
    given : bool
        A hit ratio was given: the model's lazy writes are scaled to it.

    Notes
    -----
    A pool that keeps a page longer than the interval has every dirty page checkpointed before it can
    evict it (:func:`planner.models.oltp.evicted_dirty_per_s`): `db-io` printed 28,960 lazy writes a
    second for a pool that keeps a page 157 s against 60 s checkpoints (DBA review).
    """
    rule = "pages the buffer pool evicts dirty before a checkpoint writes them, one write each"
    if given:
        return rule + " (the model's, scaled to the hit ratio given)"
    t = buf["characteristic_time_s"]
    if math.isinf(t):
        return rule + ": none, the pool holds every page the transactions touch"
    why = f"the pool keeps a page {tidy(t, 0 if t >= 10 else 2)} s after its last use, "
    if t >= checkpoint_interval_s:
        return rule + f": none, {why}longer than the {checkpoint_interval_s:g} s within which a checkpoint writes it"
    share = buf["lazy_page_writes"] / max(buf["page_writes"], 1e-30)
    return (
        rule + f": {pct(share)} of the pages written, {why}less than the {checkpoint_interval_s:g} s within which "
        "a checkpoint writes it"
    )


#: io_demand's results by the description and log latency asked (see :func:`io_demand`)
_IO_DEMANDS: Kept[IoDemand] = Kept(256, lambda d: d.model_copy(deep=True))


def io_demand(
    db: Database,
    log_write_latency_ms: float | None = None,
    no_latency_why: str | None = None,
    latency_origin: str | None = None,
) -> IoDemand:
    """Mean and peak IOPS and bandwidth by stream, for a database described by its workload.

    Computed once per description and log latency: the buffer model takes about 30 ms, and one page
    run asks the same database's IO many times (the demand's validation, the sizer's database CPU rule
    for every design it checks, each result's rate). Each caller gets a deep copy of the kept result.

    Parameters
    ----------
    db : Database
        With ``nopm`` or ``tpm`` and ``buffer_pool_gb``.
    log_write_latency_ms : float, optional
        The log flush latency group commit waits for [ms]: a design's predicted write latency
        (:func:`planner.commercial.database.predicted_log_latency_ms`), said so in the result; default
        :data:`ASSUMED_LOG_WRITE_LATENCY_MS`, an assumption the result says is one for want of a design.
    no_latency_why : str, optional
        Why a design gives no latency, said instead of "no design given" where the default is taken with a
        design ("the design predicts no write latency at this rate ...").
    latency_origin : str, optional
        Where a given ``log_write_latency_ms`` comes from, in words ("given with --log-write-latency-ms"), said
        instead of "the design's predicted write latency" (a latency the user typed was credited to a design).

    Returns
    -------
    IoDemand
        Streams: data page reads (8 KiB random, the buffer pool's misses), checkpoint writes
        (each page dirtied in an interval written once, adjacent ones gathered up to 32 or
        128 pages), lazy-writer writes (pages evicted dirty, one page each), log writes
        (sequential, group commit, at most 60 KiB), read-ahead and backup (sequential).
        Peaks: automatic checkpoints write within ``checkpoint_burst_s`` of each interval.
    """
    key = (db.model_dump_json(), log_write_latency_ms, no_latency_why, latency_origin)
    return _IO_DEMANDS.get(key, lambda: _io_demand(db, log_write_latency_ms, no_latency_why, latency_origin))


def _io_demand(
    db: Database,
    log_write_latency_ms: float | None = None,
    no_latency_why: str | None = None,
    latency_origin: str | None = None,
) -> IoDemand:
    """:func:`io_demand` computed (its cache aside)."""
    if not db.has_workload:
        # what is missing, of what was given: a size and a buffer pool with no rate read "this database gives its IO
        # (threads, block size, read share)", none of which it gave (DBA walk 2026-11-30)
        given = [
            k for k in ("threads", "block_size_kib", "read_fraction", "random_fraction") if getattr(db, k) is not None
        ]
        raise DbWorkloadError(
            f"this database gives its IO ({', '.join(given)}), not a workload to turn into IO: give nopm or tpm with "
            "buffer_pool_gb"
            if given
            else "this database gives no transaction rate: give nopm or tpm"
            + ("" if db.buffer_pool_gb is not None else " with buffer_pool_gb")
            + " to turn it into IO",
            "database.nopm",
        )
    tps = db.transactions_per_s
    lat_ms = ASSUMED_LOG_WRITE_LATENCY_MS if log_write_latency_ms is None else log_write_latency_ms
    shape = shape_of(db)
    buf = oltp.buffer_model(shape, tps)
    model_hit = buf["hit_ratio"]  # the model's own, for the warning on a given ratio below
    matched = 0.0  # the active warehouses a given hit ratio implies (set below, where one is given)
    if db.buffer_hit_ratio is not None:
        # a measured hit ratio is a measured skew: the writes follow it as the reads do (oltp.active_warehouses_for_hit)
        matched = oltp.active_warehouses_for_hit(shape, db.buffer_hit_ratio)
        shape = dataclasses.replace(shape, known_active_warehouses=matched)
        buf = oltp.buffer_model(shape, tps)
    note = "modelled (LRU over the pages the transactions touch)"
    if (db.tpm is not None or db.nopm is not None) and db.warehouses is None:
        # a database described by its TPM alone (an ERP's batch requests) is modelled as HammerDB's TPROC-C: said
        # once, where the model's choices are (DBA walk 2026-11-30)
        note += (
            f"; given by its {'NOPM' if db.nopm is not None else 'TPM'} with no warehouses, so "
            "modelled as HammerDB TPROC-C's access pattern over its size "
            f"({shape.warehouses:,.0f} warehouses of {oltp.WAREHOUSE_GB:g} GB)"
        )
    if db.reads_every_warehouse:
        # the hit ratio turns on it (10 virtual users on this 1 TB database: 0.997 where every warehouse
        # active gives 0.483); db-io said nothing of it (CLI review 2026-11-30), then said it without what it means
        # for a production database or the measured hit ratio that replaces it (DBA walk 2026-12-03)
        note += f"; {EVERY_WAREHOUSE_NOTE}"
    hit_warning = None
    if buf["pool_pages"] < buf["resident_pages"] and db.buffer_hit_ratio is None:
        hit_warning = (
            f"the {db.buffer_pool_gb:g} GB buffer pool is below the "
            # two decimals, as the note's: "the 4 GB buffer pool is below the 4 GB" of 4.2 (DBA walk 2026-11-30)
            f"{buf['resident_pages'] * oltp.PAGE_BYTES / 1e9:,.2f} GB the active warehouses keep in use: the model "
            f"gives each page beyond them a miss (a hit ratio of 0, its floor, not a measurement); {POOL_BELOW_GIVE}"
        )
    if db.buffer_hit_ratio is not None and db.buffer_hit_ratio >= PERFMON_LIKE_HIT and model_hit < db.buffer_hit_ratio:
        # a DBA's figure is perfmon's "Buffer cache hit ratio", about 99 % on most servers: it counts every page
        # lookup, the index root and intermediate pages that nearly always hit, where this input is the share of
        # the row lookups' pages the pool holds (99.5 % cut a 900 GB database's reads from 10 to 0.1 per
        # transaction without a word; migration walk 2026-11-30)
        hit_warning = (
            f"the hit ratio given ({db.buffer_hit_ratio:.3g}) is above the model's {model_hit:.3g} for this "
            "pool: if it is perfmon's Buffer cache hit ratio, it counts every page lookup (the index root and "
            f"intermediate pages, which nearly always hit); {HIT_GIVEN_IS}"
        )
    if buf["pool_pages"] < buf["resident_pages"]:
        # below the pages every call keeps in use the LRU has nothing left to hold: each other page misses
        # (QA 2026-11-28: a 4 GB pool gave a hit ratio of 0 and 5 GB 0.22, without a word)
        note += (
            f"; the buffer pool ({db.buffer_pool_gb:g} GB) is smaller than the pages the active warehouses keep in "
            f"use ({buf['resident_pages'] * oltp.PAGE_BYTES / 1e9:,.2f} GB: warehouse and district rows, the tails "
            "being appended), so each page beyond them misses: outside the model's range, a hit ratio to measure"
        )
    elif shape.buffer_pool_gb >= shape.size_gb:
        # a pool the size of the database still read 140 pages a second, without a word (CLI review 2026-11-30)
        note += f"; the buffer pool ({db.buffer_pool_gb:g} GB) holds the whole database ({shape.size_gb:g} GB): " + (
            "the reads left are of pages the run appends (orders, order lines, history) as the database grows past it"
            if buf["reads"] > 0
            # no read is left: said so, and the pool beyond the data (a 1,000 GB pool for 100 GB said "the reads
            # left are ..." beside 0 reads; DBA walk 2026-11-30)
            else "nothing is read once it is warm"
            + (
                f", and {shape.buffer_pool_gb - shape.size_gb:,.0f} GB of the pool hold nothing until it grows"
                if shape.buffer_pool_gb > POOL_BEYOND_DATA * shape.size_gb
                else ""
            )
        )
    reads = buf["reads"]
    reads_per_call = buf["reads_per_call"]
    lazy_ios = buf["lazy_page_writes"]
    ckpt_ios = max(buf["write_ios"] - lazy_ios, 0.0)
    ckpt_pages = max(buf["page_writes"] - lazy_ios, 0.0)
    if db.buffer_hit_ratio is not None:  # the user's measured hit ratio replaces the model's for reads
        scale = (1.0 - db.buffer_hit_ratio) / max(1.0 - buf["hit_ratio"], 1e-12)
        reads = buf["logical_reads"] * (1.0 - db.buffer_hit_ratio)
        reads_per_call = {k: v * scale for k, v in reads_per_call.items()}
        note = (
            "given by the user; the writes follow the skew it implies: the row lookups as concentrated as on "
            f"{matched:,.0f} of {shape.warehouses:,.0f} warehouses"
            + (
                # past what the model's skews reach: at that end, and the reads scaled for the rest
                f" ({'the most' if matched <= 1.0 else 'the least'} the model concentrates them; the reads are scaled "
                "for the rest)"
                if abs(scale - 1.0) > 1e-3
                else ""
            )
        )
        # a full pool evicts a page for each page it reads in: the lazy writer's dirty evictions follow the
        # misses (it cannot write more pages than are evicted); a dirty page it no longer evicts is written
        # by the next checkpoint instead, once (QA 2026-11-28: a 0.99 hit gave 1,554 reads/s and 28,960
        # lazy writes/s)
        gathered = ckpt_pages / ckpt_ios if ckpt_ios > 0 else 1.0
        lazy = min(lazy_ios * scale, reads)
        ckpt_pages = max(ckpt_pages + lazy_ios - lazy, 0.0)
        ckpt_ios = ckpt_pages / gathered
        lazy_ios = lazy
    log = oltp.log_flushes(tps, lat_ms / 1e3, db.log_bytes_per_txn, users=db.virtual_users)
    burst = db.checkpoint_interval_s / db.checkpoint_burst_s if db.mode == "automatic" else 1.0
    ckpt_kib = PAGE_KIB * (ckpt_pages / ckpt_ios if ckpt_ios > 0 else 1.0)
    streams = [
        _stream(
            "data page reads",
            True,
            True,
            PAGE_KIB,
            reads,
            reads,
            "the buffer pool's misses: pages the transactions touch x (1 - hit), 8 KiB",
            None
            if db.buffer_hit_ratio is None
            else "Microsoft, Reading pages (a page the buffer pool lacks is read, 8 KiB); the hit ratio: given by the "
            "user (buffer_hit_ratio)",
        ),
        _stream(
            "checkpoint writes",
            False,
            True,
            ckpt_kib,
            ckpt_ios,
            ckpt_ios * burst,
            checkpoint_rule(db, burst > 1),
        ),
        _stream(
            "lazy writer",
            False,
            True,
            PAGE_KIB,
            lazy_ios,
            lazy_ios,
            lazy_writer_rule(buf, db.checkpoint_interval_s, given=db.buffer_hit_ratio is not None),
        ),
        _stream(
            "log writes",
            False,
            False,
            log["write_kib"],
            log["flushes"],
            log["flushes"],
            f"group commit: {log['commits_per_flush']:.1f} commits per flush at {lat_ms:.3g} ms a flush ("
            + log_latency_basis(log_write_latency_ms, no_latency_why, latency_origin)
            # Microsoft's "60 KB" is 61,440 bytes: the KiB block_size_kib counts (the rule said KB beside 60.0 KiB)
            + "), 512-byte sectors up to a 60 KiB block"
            # more than one in flight when the 60 KiB block, not the commits, sets the count: "28.3 commits per flush
            # at 1 ms" beside 1,076 flushes a second read as one flush in flight (DBA review 2026-11-30)
            + (
                (
                    "; the 60 KiB block sets the count"
                    if log["bound"] == "block"
                    # one user's commits share no flush: the block was blamed where the users capped the group (DBA
                    # walk 2026-11-30: 1 virtual user, 2.5 KiB flushes)
                    else f"; the {count(db.virtual_users or 1, 'virtual user')} committing "
                    f"{'caps' if (db.virtual_users or 1) == 1 else 'cap'} the commits a flush carries"
                )
                + f": {in_flight:.1f} flushes in flight"
                # one user keeps one call, so one flush, in flight: 7.1 beside 1 virtual user read as a rate the
                # user makes (DBA walk 2026-11-30); the rate is past them, as the database's warnings say
                + (
                    f", more than its {count(db.virtual_users, 'virtual user')} can keep: the rate is past them"
                    if db.virtual_users is not None and in_flight > db.virtual_users * (1 + 1e-9)
                    else ""
                )
                if (in_flight := log["flushes"] * lat_ms / 1e3) > 1.0 + 1e-9
                else ""
            ),
            STREAM_SOURCES["log writes"]
            + "; the flush latency: "
            + log_latency_source(log_write_latency_ms, no_latency_why, latency_origin),
        ),
    ]
    if db.scan_mb_s > 0:
        ra = db.scan_mb_s * 1e6 / (db.read_ahead_kib * 1024)
        streams.append(
            _stream(
                "read-ahead",
                True,
                False,
                db.read_ahead_kib,
                ra,
                ra,
                f"scans read ahead {tidy(db.read_ahead_kib / PAGE_KIB)} pages ({tidy(db.read_ahead_kib)} KiB) an IO "
                f"(SQL Server reads ahead up to {READ_AHEAD_MAX_KIB / PAGE_KIB:g} pages, {READ_AHEAD_MAX_KIB:g} KiB)",
            )
        )
    if db.backup_mb_s > 0:
        bk = db.backup_mb_s * 1e6 / (db.backup_io_kib * 1024)
        streams.append(_stream("backup", True, False, db.backup_io_kib, bk, bk, "backup reads, MAXTRANSFERSIZE"))
    iops = sum(s.iops for s in streams)
    peak = sum(s.peak_iops for s in streams)
    kib_total = sum(s.iops * s.block_size_kib for s in streams)
    peak_kib = sum(s.peak_iops * s.block_size_kib for s in streams)
    used = {
        "access": db.access,
        "virtual_users": db.virtual_users,
        "warehouses": shape.warehouses,
        "all_warehouses": db.all_warehouses,
        "tpm_per_nopm": oltp.TPM_PER_NOPM,
        "buffer_hit_ratio": oltp.hit_ratio(reads, buf["logical_reads"]),
        "checkpoint_mode": db.mode,
        "checkpoint_interval_s": db.checkpoint_interval_s,
        "checkpoint_burst_s": db.checkpoint_burst_s,
        "gather_pages": db.gather_pages,
        "log_bytes_per_txn": log["bytes"] / tps if tps > 0 else 0.0,
        "log_write_latency_ms": lat_ms,
        "read_ahead_kib": db.read_ahead_kib,
        "backup_io_kib": db.backup_io_kib,
        "cpu_us_per_txn": cpu_us_per_txn(db),
        "log_space_fraction": db.log_share,
        "tempdb_space_fraction": db.tempdb_share,
        # last: the figures' places in the list stay as they were
        "engine": db.engine,
    }
    active = shape.size_gb * buf["active_warehouses"] / shape.warehouses
    return IoDemand(
        database=db.name,
        transactions_per_s=tps,
        # the rate as given, not through the TPM/NOPM ratio and back (2,000 NOPM echoed as 1999.9999999999998)
        tpm=db.tpm if db.tpm is not None else tps * 60.0,
        nopm=db.nopm if db.tpm is None and db.nopm is not None else tps * 60.0 / oltp.TPM_PER_NOPM,
        buffer_hit_ratio=used["buffer_hit_ratio"],
        buffer_hit_note=note,
        buffer_hit_warning=hit_warning,
        reads_per_txn=reads / tps if tps else 0.0,
        writes_per_txn=(ckpt_ios + lazy_ios + log["flushes"]) / tps if tps else 0.0,
        log_flushes_per_s=log["flushes"],
        log_write_latency_ms=lat_ms,
        log_write_latency_note=log_latency_note(log_write_latency_ms, no_latency_why, latency_origin),
        streams=streams,
        iops=iops,
        peak_iops=peak,
        bandwidth_mb_s=kib_total * 1024 / 1e6,
        peak_bandwidth_mb_s=peak_kib * 1024 / 1e6,
        read_fraction=sum(s.iops for s in streams if s.read) / iops if iops else 1.0,
        block_size_kib=kib_total / iops if iops else PAGE_KIB,
        random_fraction=sum(s.iops for s in streams if s.random) / iops if iops else 1.0,
        peak_read_fraction=sum(s.peak_iops for s in streams if s.read) / peak if peak else 1.0,
        peak_block_size_kib=peak_kib / peak if peak else PAGE_KIB,
        peak_random_fraction=sum(s.peak_iops for s in streams if s.random) / peak if peak else 1.0,
        capacity_tb=db.capacity_tb,
        capacity_note=db.capacity_note(),
        data_tb=db.data_tb,
        log_tb=db.log_tb,
        tempdb_tb=db.tempdb_tb,
        active_data_tb=active / 1000.0,
        reads_per_call=reads_per_call,
        cpu_us_per_txn=cpu_us_per_txn(db),
        assumptions=[
            {
                "field": k,
                "value": v,
                "source": log_latency_source(log_write_latency_ms, no_latency_why, latency_origin)
                if k == "log_write_latency_ms"
                else SOURCES[k],
            }
            | ({"value_note": "not given: every warehouse active"} if v is None else {})
            for k, v in used.items()
        ],
    )


def io_shape(db: Database, log_write_latency_ms: float | None = None, peak: bool = False) -> tuple[float, float, float]:
    """(block_size_kib, read_fraction, random_fraction) of the IO a database issues: from its
    workload when it has one (its mean mix, or with ``peak`` its mix at the peak, when checkpoint
    bursts write more), else its own IO shape (8 KiB, 0.7, 1.0 where left out)."""
    if db.has_workload:
        return io_demand(db, log_write_latency_ms).shape(peak)
    return (
        8.0 if db.block_size_kib is None else db.block_size_kib,
        0.7 if db.read_fraction is None else db.read_fraction,
        1.0 if db.random_fraction is None else db.random_fraction,
    )


def workload_iops(iops: float, database: str = "", peak: bool = True) -> float:
    """A database's IO rate [IOPS] as the rate of the load the planner evaluates, or one line saying why it
    cannot be one: below :data:`planner.core.minimums.MIN_IOPS` (1 IOPS, the least a rate of IOs means) or
    above :data:`planner.models.workload.MAX_IOPS`. A database of 1 NOPM asks 0.4 IOPS, and `compare
    --database` ended in a pydantic traceback where `size` said one line (performance walk 2026-12-01).

    Raises
    ------
    DbWorkloadError
        Outside those bounds, naming the rate, the bound and what moves it.
    """
    what = f"the database{f' {database!r}' if database else ''} asks {iops:,.4g} IOPS{' at its peak' if peak else ''}"
    if not iops >= M.MIN_IOPS:
        raise DbWorkloadError(
            f"{what}, fewer than {M.MIN_IOPS:g}, the least rate a load is evaluated at: its rate (nopm or tpm) "
            "is too small for its IO to be measured on a design",
            "database",
        )
    if iops > MAX_IOPS:
        raise DbWorkloadError(
            f"{what}, more than {MAX_IOPS:,.0f}, the most a load is evaluated at: no design carries it; "
            "split it over databases or lower its rate (nopm or tpm)",
            "database",
        )
    return iops


def as_workload(demand: IoDemand, peak: bool = True, working_set_gb: float | None = None) -> Workload:
    """The demand as an open load (``iops`` for the whole design) the planner evaluates:
    one IO shape with the demand's size, read and random shares (the peak's with ``peak``).

    Raises :class:`DbWorkloadError` (one line) when the rate is outside what a load may be
    (:func:`workload_iops`)."""
    bs, rf, rnd = demand.shape(peak)
    return Workload(
        name=f"db:{demand.database}" + (" (peak)" if peak else ""),
        description="from a database description (planner.models.database)",
        block_size_kib=bs,
        read_fraction=rf,
        random_fraction=rnd,
        iops=workload_iops(demand.peak_iops if peak else demand.iops, demand.database, peak),
        # the working set is the data, not the log and tempdb beside it
        working_set_gb_per_vm=working_set_gb or max(demand.data_tb * 1000.0, 1e-3),
    )


def as_demand_fields(demand: IoDemand, peak: bool = True, latency_target_ms: float = 1.0) -> dict[str, Any]:
    """Fields of :class:`planner.models.demand.Demand` (``Demand(**fields)``): total IOPS,
    capacity, latency target, block size and read share of this database."""
    bs, rf, _ = demand.shape(peak)
    return {
        "name": demand.database,
        "total_iops": demand.peak_iops if peak else demand.iops,
        "capacity_tb": demand.capacity_tb,
        "latency_target_ms": latency_target_ms,
        "block_size_kib": bs,
        "read_fraction": rf,
    }


def parse_database(data: dict[str, Any] | str | bytes, field: str = "database") -> Database:
    return parse_json_model(data, Database, DbWorkloadError, field, prefix=field, max_bytes=MAX_DB_FILE_BYTES)


def load_database(path: str | Path, field: str = "database") -> Database:
    """A database file; errors name ``field`` (the flag or key it came from)."""
    if Path(path).suffix.lower() in (".csv", ".xlsx", ".tsv"):
        # "not valid JSON (Expecting value: line 1, column 1)" for a list of databases (DBA walk 2026-12-03)
        raise DbWorkloadError(
            f"{Path(path).name} is a database list: `hciplan estate` reads one (CSV or XLSX) as a demand; this "
            "takes one database as JSON (`hciplan schema db`)",
            field,
        )
    return load_json_model(path, Database, DbWorkloadError, field, prefix=field, max_bytes=MAX_DB_FILE_BYTES)


# said when one kind of file is given for another (planner.core.jsonio.other_kind)
file_kind(Database, "a database description")
