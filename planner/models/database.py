"""From a database a DBA describes to the IO it asks of storage.

A SQL Server database running an OLTP load (HammerDB TPROC-C style) issues
these IO streams; each rule and default names its source, and every default
is a field the user can override (:class:`DatabaseIo`).

IO sizes (Microsoft SQL Server documentation):

* data pages are 8 KiB and "Disk I/O operations are performed at the page
  level" (*Pages and extents architecture guide*); an extent is eight pages,
  64 KiB;
* read-ahead reads "up to 64 contiguous pages (512 KB) from one file"
  (*Reading pages*);
* the buffer manager gathers adjacent dirty pages into one write of at most 32
  pages (*Writing pages*); the lazy writer and checkpoints write dirty pages
  (*Writing pages*; *Database checkpoints*: indirect checkpoints, the default
  since SQL Server 2016, keep recovery within a target of 60 s by writing in the
  background; automatic checkpoints run about once a minute, *recovery interval*);
* a log block "is variable in size and is always an integer multiple of 512
  bytes ... with a maximum size of 60 KB" and "is the basic unit of I/O for
  transaction logging" (*SQL Server transaction log architecture and management
  guide*); a commit flushes the log block holding it;
* backup transfers are multiples of 64 KiB up to 4 MiB (``MAXTRANSFERSIZE``,
  *BACKUP (Transact-SQL)*), 1 MiB by default to disk.

Transaction rates (HammerDB documentation, *Comparing HammerDB results*): NOPM
is new orders per minute, counted in the schema; TPM counts the database's
commits plus rollbacks. The TPC-C mix has at least 43 % Payment and 4 % each of
Order-Status, Delivery and Stock-Level (TPC-C standard specification, clause
5.2.3), leaving about 45 % New-Order: transactions per minute = NOPM / 0.45.

Per-transaction page reads, dirtied pages and log bytes are planning
assumptions derived from the TPC-C transaction profiles (rows each transaction
reads or modifies, clauses 2.4-2.8), one 8 KiB page per row that can miss,
index upper levels cached; they are not measurements and say so.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from planner.core.errors import PlannerError
from planner.core.jsonio import load_json_model, parse_json_model
from planner.models.workload import Workload

PAGE_KIB = 8.0
EXTENT_KIB = 64.0
READ_AHEAD_MAX_KIB = 512.0
GATHER_WRITE_MAX_PAGES = 32
LOG_BLOCK_MAX_KIB = 60.0
LOG_SECTOR_BYTES = 512
BACKUP_IO_KIB = 1024.0
TPCC_NEW_ORDER_SHARE = 0.45
MAX_DB_FILE_BYTES = 1_000_000

#: where each default comes from (shown next to the value in the UI and in every result)
SOURCES = {
    "new_order_share": "TPC-C spec clause 5.2.3 minimum mix (Payment >= 43 %, three others >= 4 % each): "
    "New-Order about 45 % of transactions",
    "page_reads_per_txn": "assumption from the TPC-C profiles: New-Order ~23 rows, Payment ~6, Order-Status ~12, "
    "Delivery ~50, Stock-Level ~200, weighted by the mix (one page per row, index tops cached)",
    "active_fraction": "assumption: the whole database is accessed uniformly (buffer-pool hit = RAM / data)",
    "dirty_pages_per_txn": "assumption from the TPC-C profiles: New-Order ~12 pages (10 stock rows + order pages), "
    "Payment ~4, Delivery ~120 every 25th transaction; mix-weighted ~12",
    "log_bytes_per_txn": "assumption: ~2 KB of log records per transaction (a few hundred bytes per modified row)",
    "commits_per_log_flush": "assumption: every commit flushes its own log block (no group commit)",
    "checkpoint_interval_s": "SQL Server 'Change the target recovery time of a database': 60 s default target "
    "(indirect checkpoints, SQL Server 2016+); automatic checkpoints about once a minute",
    "checkpoint_mode": "indirect (default since SQL Server 2016): the background writer spreads checkpoint writes",
    "checkpoint_burst_s": "assumption: an automatic checkpoint writes its dirty pages within 10 s of each interval",
    "lazy_writer_share": "assumption: the lazy writer flushes the share of dirty pages evicted before a checkpoint, "
    "taken as the buffer-pool miss ratio when not given",
    "write_pages_per_io": "SQL Server 'Writing pages': adjacent dirty pages gathered, up to 32 per write; "
    "OLTP dirty pages are rarely adjacent: 1",
    "read_ahead_kib": "SQL Server 'Reading pages': read-ahead up to 64 pages (512 KB)",
    "backup_io_kib": "BACKUP (Transact-SQL) MAXTRANSFERSIZE: multiples of 64 KB up to 4 MB, 1 MB default to disk",
}


class DbWorkloadError(PlannerError):
    pass


class DatabaseIo(BaseModel):
    """A database as a DBA describes it. Sizes in decimal GB, rates per minute
    as HammerDB reports them; every field after the rate is an overridable
    assumption with its source in :data:`SOURCES`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(default="database", min_length=1, max_length=200)
    size_gb: float = Field(gt=0, le=1e7, description="data files, GB")
    buffer_pool_gb: float = Field(gt=0, le=1e6, description="buffer pool (max server memory for data), GB")
    nopm: float | None = Field(default=None, gt=0, le=1e9, description="new orders per minute (HammerDB NOPM)")
    tpm: float | None = Field(
        default=None, gt=0, le=1e10, description="transactions per minute (HammerDB TPM: commits + rollbacks)"
    )
    new_order_share: float = Field(default=TPCC_NEW_ORDER_SHARE, gt=0, le=1)
    page_reads_per_txn: float = Field(default=23.5, ge=0, le=1e5, description="logical page reads per transaction")
    active_fraction: float = Field(default=1.0, gt=0, le=1, description="share of the data the load touches")
    dirty_pages_per_txn: float = Field(default=12.0, ge=0, le=1e5, description="distinct pages a transaction dirties")
    log_bytes_per_txn: float = Field(default=2048.0, ge=0, le=1e8, description="log record bytes per transaction")
    commits_per_log_flush: float = Field(default=1.0, ge=1, le=1000, description="commits sharing one log flush")
    checkpoint_mode: Literal["indirect", "automatic"] = "indirect"
    checkpoint_interval_s: float = Field(default=60.0, gt=0, le=86400)
    checkpoint_burst_s: float = Field(
        default=10.0, gt=0, le=86400, description="automatic checkpoints: seconds in which a checkpoint writes"
    )
    lazy_writer_share: float | None = Field(
        default=None, ge=0, le=1, description="share of page writes by the lazy writer (null: miss ratio)"
    )
    write_pages_per_io: int = Field(default=1, ge=1, le=GATHER_WRITE_MAX_PAGES)
    scan_mb_s: float = Field(default=0.0, ge=0, le=1e6, description="table/index scans (read-ahead), MB/s")
    read_ahead_kib: float = Field(default=READ_AHEAD_MAX_KIB, ge=PAGE_KIB, le=READ_AHEAD_MAX_KIB)
    backup_mb_s: float = Field(default=0.0, ge=0, le=1e6, description="backup read rate while a backup runs, MB/s")
    backup_io_kib: float = Field(default=BACKUP_IO_KIB, ge=64, le=4096)

    @model_validator(mode="after")
    def _rate(self) -> DatabaseIo:
        if (self.nopm is None) == (self.tpm is None):
            raise ValueError("give exactly one of nopm (new orders per minute) or tpm (transactions per minute)")
        if self.checkpoint_mode == "automatic" and self.checkpoint_burst_s > self.checkpoint_interval_s:
            raise ValueError("checkpoint_burst_s cannot exceed checkpoint_interval_s")
        return self

    @property
    def transactions_per_s(self) -> float:
        per_min = self.tpm if self.tpm is not None else self.nopm / self.new_order_share
        return per_min / 60.0

    @property
    def buffer_hit_ratio(self) -> float:
        """Uniform access (LRU, Che et al. 2002 degenerate case, as :mod:`planner.physics.cache`)."""
        return min(1.0, self.buffer_pool_gb / (self.size_gb * self.active_fraction))


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


class IoDemand(BaseModel):
    """The IO a database asks of storage, by type and in total (mean and peak)."""

    model_config = ConfigDict(frozen=True)
    database: str
    transactions_per_s: float
    buffer_hit_ratio: float
    streams: list[IoStream]
    iops: float
    peak_iops: float
    bandwidth_mb_s: float
    peak_bandwidth_mb_s: float
    read_fraction: float
    block_size_kib: float = Field(description="IO-weighted mean size (bytes / IOs), as a one-shape workload needs")
    random_fraction: float
    capacity_tb: float
    assumptions: list[dict]


def _stream(name, read, random, kib, iops, peak, rule) -> IoStream:
    return IoStream(
        name=name,
        read=read,
        random=random,
        block_size_kib=kib,
        iops=iops,
        peak_iops=peak,
        bandwidth_mb_s=iops * kib * 1024 / 1e6,
        rule=rule,
    )


def log_write_kib(log_bytes_per_flush: float) -> float:
    """Size of one log flush: whole 512-byte sectors, at most a 60 KB block."""
    sectors = max(1, math.ceil(log_bytes_per_flush / LOG_SECTOR_BYTES))
    return min(sectors * LOG_SECTOR_BYTES / 1024.0, LOG_BLOCK_MAX_KIB)


def io_demand(db: DatabaseIo) -> IoDemand:
    """Mean and peak IOPS and bandwidth by IO type.

    * data page reads: transactions/s x page reads x (1 - buffer hit), 8 KiB random;
    * log writes: one flush per ``commits_per_log_flush`` commits, the flush's
      bytes in 512-byte sectors up to 60 KB (more flushes when a flush would
      exceed a block), sequential;
    * page writes: transactions/s x dirtied pages / pages per write, random;
      the lazy writer's share continuously, the checkpoint's share evenly
      (indirect) or within ``checkpoint_burst_s`` of every interval (automatic:
      peak = mean x interval / burst);
    * read-ahead (scans) and backup: MB/s in 512 KiB and 1 MiB sequential reads.
    """
    tps = db.transactions_per_s
    hit = db.buffer_hit_ratio
    streams = []
    reads = tps * db.page_reads_per_txn * (1.0 - hit)
    streams.append(
        _stream(
            "data page reads",
            True,
            True,
            PAGE_KIB,
            reads,
            reads,
            "transactions/s x page_reads_per_txn x (1 - buffer-pool hit), 8 KiB pages",
        )
    )
    flush_bytes = db.log_bytes_per_txn * db.commits_per_log_flush
    if flush_bytes / 1024.0 <= LOG_BLOCK_MAX_KIB:
        log_iops, kib = tps / db.commits_per_log_flush, log_write_kib(flush_bytes)
    else:  # a commit group's records fill several blocks
        log_iops, kib = tps * db.log_bytes_per_txn / 1024.0 / LOG_BLOCK_MAX_KIB, LOG_BLOCK_MAX_KIB
    if db.log_bytes_per_txn <= 0:
        log_iops = 0.0
    streams.append(
        _stream(
            "log writes",
            False,
            False,
            kib,
            log_iops,
            log_iops,
            "one flush per commit group, 512-byte sectors up to a 60 KB log block",
        )
    )
    w_kib = PAGE_KIB * db.write_pages_per_io
    writes = tps * db.dirty_pages_per_txn / db.write_pages_per_io
    lazy = (1.0 - hit) if db.lazy_writer_share is None else db.lazy_writer_share
    burst = db.checkpoint_interval_s / db.checkpoint_burst_s if db.checkpoint_mode == "automatic" else 1.0
    streams.append(
        _stream(
            "lazy writer",
            False,
            True,
            w_kib,
            writes * lazy,
            writes * lazy,
            "dirty pages evicted before a checkpoint (lazy_writer_share)",
        )
    )
    streams.append(
        _stream(
            "checkpoint writes",
            False,
            True,
            w_kib,
            writes * (1 - lazy),
            writes * (1 - lazy) * burst,
            f"{db.checkpoint_mode} checkpoints every {db.checkpoint_interval_s:g} s"
            + (f", written within {db.checkpoint_burst_s:g} s" if burst > 1 else ", spread evenly"),
        )
    )
    if db.scan_mb_s > 0:
        ra = db.scan_mb_s * 1e6 / (db.read_ahead_kib * 1024)
        streams.append(
            _stream("read-ahead", True, False, db.read_ahead_kib, ra, ra, "scans read ahead up to 64 pages (512 KB)")
        )
    if db.backup_mb_s > 0:
        bk = db.backup_mb_s * 1e6 / (db.backup_io_kib * 1024)
        streams.append(_stream("backup", True, False, db.backup_io_kib, bk, bk, "backup reads, MAXTRANSFERSIZE"))
    streams = [s for s in streams if s.iops > 0 or s.name in ("data page reads", "log writes")]
    iops = sum(s.iops for s in streams)
    peak = sum(s.peak_iops for s in streams)
    kib_total = sum(s.iops * s.block_size_kib for s in streams)
    peak_kib = sum(s.peak_iops * s.block_size_kib for s in streams)
    reads_iops = sum(s.iops for s in streams if s.read)
    rand_iops = sum(s.iops for s in streams if s.random)
    used = {k: getattr(db, k) for k in SOURCES}
    if db.lazy_writer_share is None:
        used["lazy_writer_share"] = lazy
    assumptions = [{"field": k, "value": v, "source": SOURCES[k]} for k, v in used.items()]
    return IoDemand(
        database=db.name,
        transactions_per_s=tps,
        buffer_hit_ratio=hit,
        streams=streams,
        iops=iops,
        peak_iops=peak,
        bandwidth_mb_s=kib_total * 1024 / 1e6,
        peak_bandwidth_mb_s=peak_kib * 1024 / 1e6,
        read_fraction=reads_iops / iops if iops else 1.0,
        block_size_kib=kib_total / iops if iops else PAGE_KIB,
        random_fraction=rand_iops / iops if iops else 1.0,
        capacity_tb=db.size_gb / 1000.0,
        assumptions=assumptions,
    )


def as_workload(demand: IoDemand, peak: bool = True, working_set_gb: float | None = None) -> Workload:
    """The demand as an open load (``iops`` for the whole design) the planner
    evaluates: one IO shape with the demand's mean size, read and random shares."""
    return Workload(
        name=f"db:{demand.database}" + (" (peak)" if peak else ""),
        description="from a database description (planner.models.database)",
        block_size_kib=min(max(demand.block_size_kib, 0.5), 4096),
        read_fraction=demand.read_fraction,
        random_fraction=demand.random_fraction,
        iops=max(demand.peak_iops if peak else demand.iops, 1e-3),
        working_set_gb_per_vm=working_set_gb or max(demand.capacity_tb * 1000.0, 1e-3),
    )


def as_demand_fields(demand: IoDemand, peak: bool = True, latency_target_ms: float = 1.0) -> dict:
    """Fields of :class:`planner.models.demand.Demand` (``Demand(**fields)``): total IOPS,
    capacity, latency target, block size and read share of this database."""
    return {
        "name": demand.database,
        "total_iops": demand.peak_iops if peak else demand.iops,
        "capacity_tb": demand.capacity_tb,
        "latency_target_ms": latency_target_ms,
        "block_size_kib": min(max(demand.block_size_kib, 0.5), 4096),
        "read_fraction": demand.read_fraction,
    }


def as_sla_database(
    demand: IoDemand,
    vcpus: int,
    threads: int,
    outstanding_per_thread: int,
    latency_target_ms: float,
    latency_statistic: str = "mean",
):
    """A :class:`planner.models.database.Database` with this demand's size and IO shape; compare
    its guarantee (:func:`planner.commercial.sla.guarantee`) with ``demand.peak_iops``."""
    from planner.models.database import Database

    return Database(
        name=demand.database,
        size_tb=demand.capacity_tb,
        vcpus=vcpus,
        threads=threads,
        outstanding_per_thread=outstanding_per_thread,
        block_size_kib=min(max(demand.block_size_kib, 0.5), 4096),
        read_fraction=demand.read_fraction,
        random_fraction=demand.random_fraction,
        latency_target_ms=latency_target_ms,
        latency_statistic=latency_statistic,
    )


def parse_database_io(data: dict | str | bytes) -> DatabaseIo:
    return parse_json_model(
        data, DatabaseIo, DbWorkloadError, "database", prefix="database", max_bytes=MAX_DB_FILE_BYTES
    )


def load_database_io(path) -> DatabaseIo:
    return load_json_model(
        path, DatabaseIo, DbWorkloadError, "database", prefix="database", max_bytes=MAX_DB_FILE_BYTES
    )


#: No storage stack answers faster than ~20 us (NVMe device + kernel); a target
#: below that cannot be met by any design, so it is a user error, not a zero.
MIN_LATENCY_TARGET_MS = 0.02


MAX_LATENCY_TARGET_MS = 10_000.0


class Database(BaseModel):
    """One database VM. Sizes in decimal TB, latency target in ms."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(default="db", min_length=1, max_length=200)
    size_tb: float = Field(ge=0.001, le=10_000, description="database size, decimal TB (at least 1 GB)")
    vcpus: int = Field(ge=1, le=512)
    threads: int = Field(ge=1, le=1024, description="IO threads in the VM")
    outstanding_per_thread: int = Field(ge=1, le=4096)
    block_size_kib: float = Field(default=8.0, ge=0.5, le=4096, description="IO size, KiB")
    read_fraction: float = Field(default=0.7, ge=0.0, le=1.0)
    random_fraction: float = Field(default=1.0, ge=0.0, le=1.0)
    latency_target_ms: float = Field(
        ge=MIN_LATENCY_TARGET_MS,
        le=MAX_LATENCY_TARGET_MS,
        description=f"latency target, ms ({MIN_LATENCY_TARGET_MS}..{MAX_LATENCY_TARGET_MS})",
    )
    latency_statistic: Literal["mean", "p90", "p99"] = "mean"

    @property
    def outstanding(self) -> int:
        return self.threads * self.outstanding_per_thread
