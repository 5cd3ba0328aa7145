"""The customer's estate as input: a list of databases (CSV or XLSX) into a
demand, and what a DBA can export from SQL Server into per-database IO.

* **Database list** (:func:`read_database_list`): one row per database with
  ``name``, ``size_gb`` (or ``size_tb``), ``peak_iops`` or ``tpm`` (HammerDB-style
  transactions per minute, turned into IO by :func:`planner.models.database.io_demand`),
  ``vcpus``, ``ram_gb`` and optionally ``tier``, ``latency_target_ms``,
  ``block_size_kib``, ``read_fraction`` and, for a row given by TPM, ``buffer_pool_gb``
  (default 80 % of ``ram_gb``) and ``buffer_hit_ratio`` (a measured hit ratio over the model's). Databases of one tier (or all, without
  a tier column) become one tier of the demand whose per-database figures are
  the group's means, so counts x means give back the sums exactly (vCPUs are
  rounded up to whole processors).
* **File statistics** (:func:`read_file_stats`): ``sys.dm_io_virtual_file_stats``
  joined to database names, sampled twice and exported as CSV (one file holding
  both samples, told apart by the DMV's own ``sample_ms``): per database the
  reads and writes per second between the samples, MB/s, the mean IO size, the
  read share, the mean stall per read and write, and the size on disk.
* **Performance Monitor** (:func:`read_perfmon`): a ``typeperf`` / perfmon CSV of
  the LogicalDisk counters (Disk Reads/sec, Disk Writes/sec, Disk Read Bytes/sec,
  Disk Write Bytes/sec, Avg. Disk sec/Read, Avg. Disk sec/Write): per volume the
  mean and the 95th percentile of IOPS, the IO size and latencies.

Files go through :mod:`planner.core.tables`: size-limited, row-limited, one-line
errors naming the file, the row and the column.

References
----------
Microsoft, *sys.dm_io_virtual_file_stats (Transact-SQL)*: cumulative
``num_of_reads``, ``num_of_bytes_read``, ``io_stall_read_ms``, ``num_of_writes``,
``num_of_bytes_written``, ``io_stall_write_ms``, ``size_on_disk_bytes`` and
``sample_ms`` (milliseconds since the computer started) per database file.
Microsoft, *typeperf*: CSV output, first column the sample time.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from planner.core import minimums as M
from planner.core.errors import PlannerError, shown
from planner.core.tables import TableError, number, read_rows, text
from planner.core.text import count, pct

MAX_ESTATE_ROWS = 20_000
#: most bytes of an estate file (the CLI and the app read no more)
MAX_ESTATE_FILE_BYTES = 5_000_000
#: how many bad rows one message names
MAX_ROW_ERRORS = 10
#: the tier of the databases an estate gives none
ESTATE_TIER = "Estate"
DEFAULT_LATENCY_TARGET_MS = 1.0
#: the IO shape a row given by its peak IOPS with no block_size_kib or read_fraction takes: hciplan assumptions, the
#: oltp-8k profile's (planner/data/workloads.json, VMFleet's OLTP mix): 8 KiB is SQL Server's page (Microsoft,
#: "Pages and extents architecture guide"), 70 % reads the profile's mix, no measurement of the customer's. Said in
#: every output that fills them (``defaults``): the import filled them silently (honesty audit 2026-12-01)
DEFAULT_BLOCK_SIZE_KIB = 8.0
DEFAULT_READ_FRACTION = 0.7
#: SQL Server's buffer pool taken from the VM's RAM when a row gives TPM without one
BUFFER_POOL_SHARE_OF_RAM = 0.8


class EstateError(PlannerError):
    pass


def _rows(
    data: bytes, name: str, aliases: dict, required: tuple = (), notes: list[str] | None = None
) -> tuple[list[str], list]:
    try:
        return read_rows(data, name, required=required, aliases=aliases, max_rows=MAX_ESTATE_ROWS, notes=notes)
    except TableError as exc:
        raise EstateError(exc.message, name) from None


LIST_ALIASES = {
    "database": "name",
    "database_name": "name",
    "db": "name",
    "size": "size_gb",
    "size_gib": "size_gb",
    "data_gb": "size_gb",
    "iops": "peak_iops",
    "peak_io": "peak_iops",
    "iops_peak": "peak_iops",
    "tpm_peak": "tpm",
    "cpus": "vcpus",
    "vcpu": "vcpus",
    "cores": "vcpus",
    "ram": "ram_gb",
    "memory_gb": "ram_gb",
    "latency_ms": "latency_target_ms",
    "target_ms": "latency_target_ms",
    "block_kib": "block_size_kib",
    "io_size_kib": "block_size_kib",
    "read_share": "read_fraction",
    "service_tier": "tier",
    "max_server_memory_gb": "buffer_pool_gb",
    "buffer_pool": "buffer_pool_gb",
    "hit_ratio": "buffer_hit_ratio",
    "dbms": "engine",
    "database_engine": "engine",
    "db_engine": "engine",
}


def share(cells: dict, key: str, row: int, name: str) -> float | None:
    """A share column of a database list (``read_fraction``, ``buffer_hit_ratio``) as a fraction 0..1: a
    value written with "%" or above 1 (up to 100) is a percentage, "70%", "70" and 0.7 alike. One rule for
    both columns: read_fraction refused "70" and "70%" ("must be 0..1") while buffer_hit_ratio took "99.5"
    as a percentage (DBA walk 2026-11-30)."""
    x = number(cells, key, row, name, 0, None, required=False)
    if x is None:
        return None
    if x > 100:
        raise TableError(f"row {row}, column {key}: a share is 0..1 or a percentage up to 100 (got {x:g})", name)
    raw = cells.get(key)
    return x / 100.0 if x > 1 or (isinstance(raw, str) and raw.endswith("%")) else x


#: the columns a database list takes (after :data:`LIST_ALIASES`)
LIST_COLUMNS = (
    "name",
    "size_gb",
    "size_tb",
    "peak_iops",
    "tpm",
    "vcpus",
    "ram_gb",
    "tier",
    "latency_target_ms",
    "block_size_kib",
    "read_fraction",
    # a TPM row's pool and measured hit ratio: the DBA's own figures over the 80 %-of-RAM assumption and the model's
    # curve (DBA walk 2026-11-30: "2 columns this list does not take" for both, so a 16 GB VM of a 300 GB database
    # at 90,000 TPM was sized at 31,559 IOPS with no way to say its pool hits 99 %)
    "buffer_pool_gb",
    "buffer_hit_ratio",
    # the database's engine (blank: SQL Server): a TPM row is turned into IO by SQL Server's rules, so a row of
    # another engine is taken by its peak IOPS only (PostgreSQL/MySQL DBA walk, stop 55)
    "engine",
)


def read_database_list(
    data: bytes,
    name: str = "databases.csv",
    latency_target_ms: float = DEFAULT_LATENCY_TARGET_MS,
    demand_name: str | None = None,
    **demand_fields,
) -> dict:
    """The database list as ``{"databases": [...], "demand": Demand JSON, "notes": [...]}``
    (see the module doc). ``demand_fields`` (growth_pct, n_plus_one, validated_for, ...)
    are passed to the :class:`planner.models.demand.Demand`."""
    from pydantic import ValidationError

    from planner.core.errors import format_validation_error
    from planner.models.database import (
        ENGINE,
        EVERY_WAREHOUSE_WORDS,
        LOG_SPACE_FRACTION,
        POOL_BELOW_GIVE,
        TEMPDB_SPACE_FRACTION,
        Database,
        cpu_s_per_call,
        engine_name,
        engine_of,
        io_demand,
        is_sql_server,
    )

    notes: list[str] = []
    keys, rows = _rows(
        data,
        name,
        LIST_ALIASES,
        required=("name", ("size_gb", "size_tb"), ("peak_iops", "tpm"), "vcpus", "ram_gb"),
        notes=notes,
    )
    if not rows:
        raise EstateError("no database rows", name)
    # a column the list does not take is named, as a JSON field is ("not a field this input takes"): it was
    # ignored, so a misspelt "peak_iosp" sized every database at its TPM or at nothing (CLI review 2026-11-30)
    if unknown := [k for k in keys if k and k not in LIST_COLUMNS]:
        raise EstateError(
            f"{count(len(unknown), 'column')} this list does not take (a typo?): {', '.join(map(shown, unknown))}; "
            f"the columns: {', '.join(LIST_COLUMNS)}",
            name,
        )
    dbs: list[dict] = []
    seen: set[str] = set()
    both: list[str] = []
    busy: list[str] = []  # databases whose TPM keeps more cores busy than their vCPUs
    own: list[str] = []  # TPM rows that give their own buffer pool or hit ratio
    unused: list[str] = []  # peak-IOPS rows that give a buffer pool or hit ratio too
    others: dict[str, list[str]] = {}  # rows of another engine, given by their IO: engine -> databases
    every_warehouse: list[str] = []  # TPM rows whose reads take every warehouse active, with their figures
    hit_warned: list[str] = []  # TPM rows' buffer-pool warnings (a perfmon-like hit ratio, a pool below the model)

    def one(i: int, c: dict) -> dict:
        """Row ``i`` as a database, or an EstateError / TableError naming its row and column."""
        dbname = text(c, "name", i, name)
        if dbname.lower() in seen:
            raise EstateError(f"row {i}, column name: {shown(dbname)} appears twice", name)
        seen.add(dbname.lower())
        size_gb = number(c, "size_gb", i, name, M.MIN_CAPACITY_GB, 1e7, required=False) if "size_gb" in keys else None
        tb = number(c, "size_tb", i, name, M.MIN_CAPACITY_TB, 1e4, required=False) if "size_tb" in keys else None
        if size_gb is not None and tb is not None and abs(size_gb - tb * 1000.0) > 1e-3 * size_gb:
            # two sizes that disagree: the first one used quietly (review 2026-11-29)
            raise EstateError(
                f"row {i}: size_gb {size_gb:g} and size_tb {tb:g} ({tb * 1000.0:g} GB) disagree: give one", name
            )
        if size_gb is None and tb is not None:
            size_gb = tb * 1000.0
        if size_gb is None:
            raise EstateError(f"row {i}, column {'size_gb' if 'size_gb' in keys else 'size_tb'}: empty", name)
        vcpus = number(c, "vcpus", i, name, 1, 512)
        if not float(vcpus).is_integer():  # a VM has whole vCPUs: 2.5 became 2, quietly (review 2026-11-29)
            raise EstateError(f"row {i}, column vcpus: a whole number of vCPUs (got {vcpus:g})", name)
        ram = number(c, "ram_gb", i, name, M.MIN_RAM_GB, 24_000)
        # a database of 0 IOPS was sized at 1 IOPS with a note; a blank is the way to say "use the TPM"
        iops = number(c, "peak_iops", i, name, 1, 1e8, required=False) if "peak_iops" in keys else None
        how = "peak IOPS given"
        if iops is not None and "tpm" in keys and str(c.get("tpm") or "").strip():
            both.append(dbname)  # the measured IOPS win over the TPM's modelled IO: said once, below
        if iops is not None and any(str(c.get(k) or "").strip() for k in ("buffer_pool_gb", "buffer_hit_ratio")):
            unused.append(dbname)  # a pool or hit ratio shapes a TPM row's modelled IO only
        # what storage holds for it: a row given by its IO holds the size it gives (the space its files take, as a
        # database file described by its IO does); a row given by TPM is a workload description, its log and tempdb
        # beside its data (Database.capacity_tb), as db-io and size count them: 0.5 TB here, 0.75 TB there for the
        # same 500 GB database at 20,000 TPM (stop 55 DBA walk)
        capacity_gb = size_gb
        bs = number(c, "block_size_kib", i, name, 0.5, 4096, required=False) if "block_size_kib" in keys else None
        rf = share(c, "read_fraction", i, name) if "read_fraction" in keys else None
        given_engine = text(c, "engine", i, name, required=False, max_chars=100) if "engine" in keys else None
        engine = ENGINE if not given_engine or is_sql_server(given_engine) else engine_name(given_engine)
        if iops is None:
            tpm = number(c, "tpm", i, name, 1, 1e9, required=False) if "tpm" in keys else None
            if tpm is None:
                col = "peak_iops" if "peak_iops" in keys else "tpm"
                raise EstateError(f"row {i}, column {col}: empty (give peak_iops or tpm)", name)
            if engine != ENGINE:
                # its TPM would be turned into IO by SQL Server's rules: the row is refused with the line a database
                # file of that engine gets, and the list's other rows are still read (every bad row at once)
                try:
                    engine_of(str(given_engine))
                except ValueError as exc:
                    raise EstateError(f"row {i}, column engine: {exc}", name) from None
            pool = (
                number(c, "buffer_pool_gb", i, name, M.MIN_BUFFER_POOL_GB, 24_000, required=False)
                if "buffer_pool_gb" in keys
                else None
            )
            if pool is not None and pool > ram:
                raise EstateError(
                    f"row {i}, column buffer_pool_gb: {pool:g} GB, more than the VM's {ram:g} GB RAM", name
                )
            hit = share(c, "buffer_hit_ratio", i, name) if "buffer_hit_ratio" in keys else None
            if pool is not None or hit is not None:
                own.append(dbname)
            try:
                db = Database(
                    name=dbname,
                    size_gb=size_gb,
                    buffer_pool_gb=pool
                    if pool is not None
                    else max(ram * BUFFER_POOL_SHARE_OF_RAM, M.MIN_BUFFER_POOL_GB),
                    tpm=tpm,
                    buffer_hit_ratio=hit,
                )
                dem = io_demand(db)
            except ValidationError as exc:
                raise EstateError(f"row {i}: {format_validation_error(exc)}", name) from None
            iops, how = dem.peak_iops, f"peak IOPS from {tpm:,.0f} TPM"
            if dem.buffer_hit_warning:
                # db-io's warning of the same database: a 99 % perfmon ratio cut a row's 32,503 IOPS to 9,436 with
                # no word (DBA walk 2026-12-03); the list has no virtual_users column to offer
                hit_warned.append(
                    f"{dbname}: "
                    + dem.buffer_hit_warning.replace(
                        POOL_BELOW_GIVE, "measure the hit ratio and give it in a buffer_hit_ratio column"
                    )
                )
            if db.reads_every_warehouse:
                every_warehouse.append(
                    f"{dbname}, {iops:,.0f} peak IOPS from {tpm:,.0f} TPM at a {pct(dem.buffer_hit_ratio)} buffer-pool hit"
                )
            capacity_gb = db.capacity_tb * 1000.0
            # the rate's own CPU, as db-io says it: 100,000,000 TPM on 2 vCPUs was read with no word (CLI review
            # 2026-11-30)
            cores = dem.transactions_per_s * cpu_s_per_call(db, dem, 0.0)
            if cores > vcpus:
                busy.append(f"{dbname} ({tpm:,.0f} TPM keeps {cores:,.1f} cores busy, {count(int(vcpus), 'vCPU')})")
            bs = bs if bs is not None else dem.block_size_kib
            rf = rf if rf is not None else dem.read_fraction
        tier = text(c, "tier", i, name, required=False, max_chars=100) if "tier" in keys else None
        lat = (
            number(c, "latency_target_ms", i, name, 0.02, 10_000, required=False)
            if "latency_target_ms" in keys
            else None
        )
        if engine != ENGINE:
            others.setdefault(engine, []).append(dbname)
        return {
            "name": dbname,
            "engine": engine if engine == ENGINE else engine.lower(),
            "size_gb": size_gb,
            "capacity_gb": capacity_gb,
            "peak_iops": iops,
            "iops_basis": how,
            "vcpus": int(vcpus),
            "ram_gb": ram,
            "tier": tier or ESTATE_TIER,
            "latency_target_ms": lat,
            "block_size_kib": bs,
            "read_fraction": rf,
        }

    # every bad row at once, up to MAX_ROW_ERRORS: a list of 200 databases with five bad rows took five uploads
    # (browser review 2026-11-29)
    errors: list[str] = []
    for i, c in rows:
        try:
            dbs.append(one(i, c))
        except (EstateError, TableError) as exc:
            errors.append(exc.message)
    if errors:
        more = f"; and {count(len(errors) - MAX_ROW_ERRORS, 'more row error')}" if len(errors) > MAX_ROW_ERRORS else ""
        raise EstateError("; ".join(errors[:MAX_ROW_ERRORS]) + more, name)
    if both:
        notes.append(
            f"{count(len(both), 'database')} gave both peak IOPS and TPM ({', '.join(both[:5])}"
            f"{', ...' if len(both) > 5 else ''}): the measured peak IOPS are used, the TPM is not"
        )
    if unused:
        notes.append(
            f"{count(len(unused), 'database')} gave peak IOPS and a buffer pool or hit ratio ({', '.join(unused[:5])}"
            f"{', ...' if len(unused) > 5 else ''}): the measured peak IOPS are used; a pool or hit ratio shapes only "
            "the IO of a row given by TPM"
        )
    if others:
        # a database of another engine given by its IO is sized by that IO, which no engine's rules shaped; it was
        # refused as "a column this list does not take" (stop 55)
        n_other = sum(len(v) for v in others.values())
        notes.append(
            f"{count(n_other, 'database')} of another engine than SQL Server ("
            + "; ".join(f"{e}: {', '.join(v[:5])}{', ...' if len(v) > 5 else ''}" for e, v in others.items())
            + f") {'is' if n_other == 1 else 'are'} given by their IO (peak IOPS) and sized by it as given; a row of "
            "another engine given by TPM is refused (only SQL Server's rules turn a rate into IO)"
        )
    if busy:
        notes.append(
            f"{count(len(busy), 'database')} given by TPM "
            + (
                "asks more of SQL Server than its vCPUs give: "
                if len(busy) == 1
                else "ask more of SQL Server than their vCPUs give: "
            )
            + f"{'; '.join(busy[:5])}{'; ...' if len(busy) > 5 else ''}: no VM of that size runs that rate (its IO is "
            "sized as asked); check the TPM, or give the VMs more vCPUs"
        )
    by_tpm = sum(d["iops_basis"] != "peak IOPS given" for d in dbs)
    if by_tpm:
        mine = f"; {count(len(own), 'database')} gave its own" if len(own) == 1 else f"; {len(own):,} gave their own"
        notes.append(
            f"databases given by TPM: IO from the transaction rate (buffer pool {pct(BUFFER_POOL_SHARE_OF_RAM)} of "
            "the VM's RAM unless a buffer_pool_gb column gives it, hit ratio from the access skew unless a "
            "buffer_hit_ratio column gives it, TPC-C-like transactions"
            + (mine + " buffer pool or hit ratio" if own else "")
            + "); replace with measured peak IOPS where you have them"
        )
        notes.append(
            f"databases given by TPM hold their log and tempdb beside their data ({pct(LOG_SPACE_FRACTION)} and "
            f"{pct(TEMPDB_SPACE_FRACTION)} of it, as db-io and size count a database described by its workload); a "
            "database given by its peak IOPS holds its size as given (the space its files take)"
        )
    out = estate_demand(dbs, name, latency_target_ms, demand_name, **demand_fields)
    if every_warehouse:
        # printed without --details too, as the other values taken for a column left out: the TPM row's IOPS stood
        # beside its neighbours' measured ones with no word of what they rest on (DBA walk 2026-12-03)
        n = len(every_warehouse)
        said = (
            f"{count(n, 'database')} given by TPM with no buffer_hit_ratio ({'; '.join(every_warehouse[:5])}"
            f"{'; ...' if n > 5 else ''}): {EVERY_WAREHOUSE_WORDS}; give a buffer_hit_ratio column (measured) or "
            "peak_iops to replace it"
        )
        out["defaults"].insert(0, said)
        notes.insert(0, said)
    # printed without --details as the tiers' warnings are, and first among the notes as they are
    out["warnings"] = hit_warned + out["warnings"]
    notes[:0] = hit_warned
    out["notes"] = notes + out["notes"]
    return {"source": "a database list", **out}


def estate_demand(
    dbs: list[dict],
    name: str = "estate",
    latency_target_ms: float = DEFAULT_LATENCY_TARGET_MS,
    demand_name: str | None = None,
    peaks: bool = True,
    **demand_fields,
) -> dict:
    """A demand from per-database rows (name, size_gb, capacity_gb where it differs, peak_iops, vcpus, ram_gb, tier,
    latency_target_ms, block_size_kib, read_fraction): one tier per tier name, each
    tier's per-database figures the group's means. ``peaks`` False: the rows' IOPS are means
    (a file-statistics estate), and the notes do not call them peaks."""
    from pydantic import ValidationError

    from planner.core.errors import format_validation_error
    from planner.models.demand import Demand
    from planner.models.tiers import default_tiers

    shipped = default_tiers().by_name()
    notes: list[str] = []
    warnings: list[str] = []  # a database promised less than it asks (printed beside the demand)
    defaults: list[str] = []  # every value filled in for a column a row left out (``defaults``)
    groups: dict[str, list[dict]] = {}
    for d in dbs:
        groups.setdefault(d["tier"], []).append(d)
    if len(groups) > 50:
        raise EstateError(f"{len(groups)} different tiers; at most 50", name)
    tiers, counts = [], {}
    for tname, g in groups.items():
        n = len(g)
        tot_iops = sum(d["peak_iops"] for d in g)
        base = shipped.get(tname)
        lats = [d["latency_target_ms"] for d in g if d["latency_target_ms"] is not None]
        lat = min(lats) if lats else (base.latency_target_ms if base else latency_target_ms)
        if base is None and not lats:
            # a tier name of the customer's own: said, not silently given the default (browser review 2026-11-29)
            defaults.append(
                # the databases with no tier go to "Estate", this reader's own name: said as that, not as a tier
                # the customer made up (CLI review 2026-11-29)
                f"{count(n, 'database')} with no tier (grouped as 'Estate') and no latency_target_ms: "
                f"{'it takes' if n == 1 else 'they take'} {lat:g} ms"
                if tname == ESTATE_TIER
                else f"tier {shown(tname)} is not one of the shipped tiers ({', '.join(shipped)}) and gives no "
                f"latency_target_ms: it takes {lat:g} ms"
            )
        w = [max(d["peak_iops"], 1e-9) for d in g]
        bss = [(d["block_size_kib"] if d["block_size_kib"] is not None else DEFAULT_BLOCK_SIZE_KIB) for d in g]
        rfs = [(d["read_fraction"] if d["read_fraction"] is not None else DEFAULT_READ_FRACTION) for d in g]
        tiers.append(
            {
                "name": tname[:100],
                "guaranteed_iops": max(tot_iops / n, 1.0),
                "burst_iops": max(max(d["peak_iops"] for d in g), tot_iops / n, 1.0),
                "latency_target_ms": lat,
                "latency_statistic": base.latency_statistic if base and not lats else "mean",
                "capacity_tb_per_db": max(sum(_capacity_gb(d) for d in g) / n / 1000.0, M.MIN_CAPACITY_TB),
                "block_size_kib": float(np.average(bss, weights=w)),
                "read_fraction": float(np.average(rfs, weights=w)),
                "vcpus_per_db": max(1, math.ceil(sum(d["vcpus"] for d in g) / n - 1e-9)),
                "ram_gb_per_db": sum(d["ram_gb"] for d in g) / n,
            }
        )
        counts[tname[:100]] = n
        # each database of a tier is guaranteed the tier's mean: one far above it is carried in the total but
        # guaranteed only as a burst (Finance's 42,361 IOPS in a tier of 24,181; CLI review 2026-11-30)
        mean = tot_iops / n
        heavy = [d for d in g if n > 1 and d["peak_iops"] > 1.25 * mean]
        if heavy:
            # a warning, printed beside the demand: only --details said it (DBA walk 2026-12-03)
            warnings.append(
                f"tier {shown(tname)}: each database is guaranteed the tier's mean, {mean:,.0f} IOPS; "
                + ", ".join(f"{d['name']} {'peaks' if peaks else 'runs'} at {d['peak_iops']:,.0f}" for d in heavy[:5])
                + (", ..." if len(heavy) > 5 else "")
                + ": the total is sized, but "
                + (
                    f"that {'peak' if peaks else 'load'} is"
                    if len(heavy) == 1
                    else f"those {'peaks' if peaks else 'loads'} are"
                )
                + " guaranteed only as a burst; give "
                + ("it" if len(heavy) == 1 else "them")
                + (" a tier of its own to guarantee it" if len(heavy) == 1 else " tiers of their own to guarantee them")
            )
        if tot_iops == 0:
            notes.append(f"tier {tname}: no IOPS given; 1 IOPS per database assumed")
    defaults.extend(io_shape_defaults(dbs))
    if any(t["vcpus_per_db"] * counts[t["name"]] != sum(d["vcpus"] for d in groups[t["name"]]) for t in tiers):
        notes.append("virtual processors per database are each tier's mean rounded up to whole processors")
    try:
        demand = Demand.model_validate(
            {
                "name": (demand_name or f"estate of {count(len(dbs), 'database')}")[:200],
                "tiers": {"tiers": tiers},
                "tier_counts": counts,
                # each database is a known one: growth is in its data and IOPS, not in more databases (per tier
                # rounded up, a list of 4 in tiers of one or two grew to 7: 51,661 IOPS planned as 79,142)
                "growth_in": "size_and_rate",
                **demand_fields,
            }
        )
    except ValidationError as exc:
        raise EstateError(format_validation_error(exc, "demand"), name) from None
    return {
        "databases": dbs,
        "totals": {
            "databases": len(dbs),
            "peak_iops": sum(d["peak_iops"] for d in dbs),
            "size_gb": sum(d["size_gb"] for d in dbs),
            # the data and, for rows given by TPM, their log and tempdb: what the demand's capacity holds
            "capacity_tb": sum(_capacity_gb(d) for d in dbs) / 1000.0,
            "vcpus": sum(d["vcpus"] for d in dbs),
            "ram_gb": sum(d["ram_gb"] for d in dbs),
        },
        "demand": demand.model_dump(mode="json", exclude_none=True),
        "notes": defaults + warnings + notes,
        # the values filled in for columns the rows left out, one sentence each (a count and the columns): printed
        # with or without --details (`estate` gave none without it)
        "defaults": defaults,
        # what the demand promises less of than a database asks (a peak far above its tier's mean): printed too
        "warnings": warnings,
    }


def _capacity_gb(d: dict) -> float:
    """What storage holds for an estate row [GB]: ``capacity_gb`` where the reader set it (a row given by TPM: data,
    log and tempdb), else its ``size_gb`` as given (a row given by its IO, a file-statistics database's files)."""
    return float(d.get("capacity_gb", d["size_gb"]))


def io_shape_defaults(dbs: list[dict]) -> list[str]:
    """The sentence saying which rows took the assumed IO shape (:data:`DEFAULT_BLOCK_SIZE_KIB`,
    :data:`DEFAULT_READ_FRACTION`) for a block size or read share they left out, with their count; empty when none
    did. A row given by TPM takes its shape from the transaction model, not these."""
    parts = []
    for key, value, why in (
        ("block_size_kib", f"{DEFAULT_BLOCK_SIZE_KIB:g} KiB", "SQL Server's page"),
        ("read_fraction", f"{pct(DEFAULT_READ_FRACTION)} reads", "an OLTP mix"),
    ):
        n = sum(d.get(key) is None for d in dbs)
        if n:
            parts.append(f"{count(n, 'database')} with no {key}: {value} assumed ({why})")
    if not parts:
        return []
    return [
        "; ".join(parts)
        + ": hciplan assumptions (the oltp-8k profile's IO shape), not measurements; give the columns to replace them"
    ]


STATS_ALIASES = {
    "database": "database_name",
    "db_name": "database_name",
    "name": "database_name",
    "dbid": "database_id",
}
#: what a file-statistics export's IOPS are
MEAN_NOTE = (
    "IOPS are the mean between the two samples: sample at a busy time, or take the peak from Performance Monitor"
)
STATS_COUNTERS = (
    "num_of_reads",
    "num_of_bytes_read",
    "io_stall_read_ms",
    "num_of_writes",
    "num_of_bytes_written",
    "io_stall_write_ms",
)


def read_file_stats(data: bytes, name: str = "file_stats.csv") -> dict:
    """Per-database IO between two samples of ``sys.dm_io_virtual_file_stats`` (see the module doc)."""
    notes: list[str] = []
    keys, rows = _rows(data, name, STATS_ALIASES, required=("file_id", "sample_ms", *STATS_COUNTERS), notes=notes)
    if "database_name" not in keys and "database_id" not in keys:
        raise EstateError("missing column database_name (or database_id)", name)
    key = "database_name" if "database_name" in keys else "database_id"
    samples: dict[tuple[str, int], dict[float, dict[str, Any]]] = {}
    try:
        for i, c in rows:
            db = text(c, key, i, name, max_chars=200)
            fid = int(number(c, "file_id", i, name, 0, 1e9))
            # the view's counters are bigint and only grow: no bound above but a finite number
            t = number(c, "sample_ms", i, name, 0, None)
            vals: dict[str, Any] = {k: number(c, k, i, name, 0, None) for k in STATS_COUNTERS}
            vals["size_on_disk_bytes"] = (
                number(c, "size_on_disk_bytes", i, name, 0, None, required=False)
                if "size_on_disk_bytes" in keys
                else None
            )
            vals["row"] = i
            samples.setdefault((db, fid), {})[t] = vals
    except TableError as exc:
        raise EstateError(exc.message, name) from None
    per_db: dict[str, dict] = {}
    for (db, fid), by_t in samples.items():
        if len(by_t) != 2:
            raise EstateError(
                f"database {shown(db)} file {fid}: {count(len(by_t), 'sample')}; export the view twice (two sample_ms values)",
                name,
            )
        (t0, a), (t1, b) = sorted(by_t.items())
        dt_s = (t1 - t0) / 1000.0
        if dt_s <= 0:
            raise EstateError(f"row {b['row']}, column sample_ms: the two samples are at the same time", name)
        d = {k: b[k] - a[k] for k in STATS_COUNTERS}
        bad = [k for k, v in d.items() if v < 0]
        if bad:
            raise EstateError(
                f"row {b['row']}, column {bad[0]}: lower than the earlier sample (the server restarted between them?)",
                name,
            )
        acc = per_db.setdefault(db, {k: 0.0 for k in STATS_COUNTERS} | {"seconds": dt_s, "size_bytes": 0.0})
        for k in STATS_COUNTERS:
            acc[k] += d[k]
        acc["seconds"] = max(acc["seconds"], dt_s)
        acc["size_bytes"] += b["size_on_disk_bytes"] or 0.0
    out = []
    for db, a in sorted(per_db.items()):
        s = a["seconds"]
        reads, writes = a["num_of_reads"], a["num_of_writes"]
        ios = reads + writes
        out.append(
            {
                "database": db,
                "seconds": s,
                "read_iops": reads / s,
                "write_iops": writes / s,
                "iops": ios / s,
                "read_mb_s": a["num_of_bytes_read"] / s / 1e6,
                "write_mb_s": a["num_of_bytes_written"] / s / 1e6,
                "block_size_kib": (a["num_of_bytes_read"] + a["num_of_bytes_written"]) / ios / 1024 if ios else None,
                "block_size_kib_note": "" if ios else "no IO between the samples",
                "read_fraction": reads / ios if ios else None,
                "read_fraction_note": "" if ios else "no IO between the samples",
                "read_latency_ms": a["io_stall_read_ms"] / reads if reads else None,
                "read_latency_ms_note": "" if reads else "no reads between the samples",
                "write_latency_ms": a["io_stall_write_ms"] / writes if writes else None,
                "write_latency_ms_note": "" if writes else "no writes between the samples",
                "size_gb": a["size_bytes"] / 1e9 if a["size_bytes"] else None,
                "size_gb_note": "" if a["size_bytes"] else "no size_on_disk_bytes column",
            }
        )
    return {
        "source": "sys.dm_io_virtual_file_stats, two samples",
        "file": name,
        "key": key,
        "databases": out,
        "notes": [
            *notes,
            MEAN_NOTE,
        ],
    }


_PERF_COUNTERS = {
    "disk reads/sec": "reads",
    "disk writes/sec": "writes",
    "disk read bytes/sec": "read_bytes",
    "disk write bytes/sec": "write_bytes",
    "avg. disk sec/read": "sec_read",
    "avg. disk sec/write": "sec_write",
}
_PERF_PATH = re.compile(r"\\logicaldisk\((?P<inst>[^)]*)\)\\(?P<counter>[^\\]+)$", re.I)


def _col(header: str) -> str:
    """A perfmon column as the file has it (its backslashes single: repr doubled them, DBA walk 2026-11-30)."""
    return shown(header.strip(), 100)


def _per_io_ms(a: dict, sec: str, ios: str, ok, kind: str) -> tuple[float | None, str]:
    """A volume's time per read (or write), ms, and why there is none: each complete sample's Avg. Disk
    sec/Read weighted by its reads, the time over the IOs, as the file statistics' stall per read is. A
    volume with no reads has no read latency: perfmon writes 0.000 for an interval without reads, and a log
    volume read "Read latency 0.000 ms" where the file statistics said null (DBA walk 2026-11-30)."""
    if sec not in a:
        return None, f"no Avg. Disk sec/{kind.capitalize()} counter"
    t, n = a[sec][ok], a[ios][ok]
    m = np.isfinite(t) & np.isfinite(n)
    total = float(n[m].sum())
    if total <= 0:
        return None, f"no {kind}s in the samples"
    return 1000.0 * float((t[m] * n[m]).sum()) / total, ""


def read_perfmon(data: bytes, name: str = "perfmon.csv") -> dict:
    """Per-volume IO from a typeperf / perfmon CSV of the LogicalDisk counters (see the module doc)."""
    from planner.core.tables import check_size, csv_rows, decode

    try:
        check_size(data, name)
        rows = csv_rows(decode(data, name), name)
    except TableError as exc:
        raise EstateError(exc.message, name) from None
    if len(rows) < 2:
        raise EstateError("no samples", name)
    if len(rows) > MAX_ESTATE_ROWS + 1:
        raise EstateError(f"more than {MAX_ESTATE_ROWS:,} samples", name)
    header = rows[0]
    cols: dict[str, dict[str, int]] = {}
    for j, h in enumerate(header[1:], start=1):
        m = _PERF_PATH.search(h.strip().strip('"'))
        if not m:
            continue
        c = _PERF_COUNTERS.get(m.group("counter").strip().lower())
        if c:
            cols.setdefault(m.group("inst"), {})[c] = j
    if not cols:
        raise EstateError("no LogicalDisk counters (Disk Reads/sec, Disk Writes/sec, ...) in the header", name)
    vols = []
    for inst, idx in sorted(cols.items()):
        if inst.lower() == "_total":
            continue
        missing = {"reads", "writes"} - set(idx)
        if missing:
            raise EstateError(f"volume {shown(inst)}: missing counter Disk {sorted(missing)[0].capitalize()}/sec", name)
        series: dict[str, list[float]] = {k: [] for k in idx}
        for i, r in enumerate(rows[1:], start=2):
            for k, j in idx.items():
                v = r[j].strip() if j < len(r) else ""
                if v in ("", " "):
                    series[k].append(math.nan)  # perfmon leaves a blank where it missed a sample
                    continue
                try:
                    x = float(v) if len(v) <= 40 else math.nan
                except ValueError:
                    raise EstateError(
                        f"row {i}, column {_col(header[j])}: not a number ({shown(v, 40)})", name
                    ) from None
                if not math.isfinite(x):
                    raise EstateError(f"row {i}, column {_col(header[j])}: not a number ({shown(v, 40)})", name)
                if x < 0:  # the words of every table's reader (planner.core.tables.number)
                    raise EstateError(f"row {i}, column {_col(header[j])}: must not be negative (got {x:g})", name)
                series[k].append(x)
        a = {k: np.asarray(v) for k, v in series.items()}
        iops = a["reads"] + a["writes"]
        ok = np.isfinite(iops)
        if not ok.any():
            raise EstateError(f"volume {shown(inst)}: no complete sample", name)
        mean = lambda k, a=a, ok=ok: float(np.nanmean(a[k][ok]))  # of a counter the export has
        r_mean, w_mean = mean("reads"), mean("writes")
        total = r_mean + w_mean
        bytes_ = (
            mean("read_bytes") + (mean("write_bytes") if "write_bytes" in a else 0.0) if "read_bytes" in a else None
        )
        vols.append(
            {
                "volume": inst,
                "samples": int(ok.sum()),
                "iops": total,
                "peak_iops": float(np.percentile(iops[ok], 95)),
                "peak_basis": "95th percentile of the samples",
                "read_fraction": r_mean / total if total else None,
                "read_fraction_note": "" if total else "no IO",
                "block_size_kib": bytes_ / total / 1024 if (bytes_ is not None and total) else None,
                "block_size_kib_note": "" if (bytes_ is not None and total) else "no byte counters or no IO",
            }
        )
        for kind, sec, n in (("read", "sec_read", "reads"), ("write", "sec_write", "writes")):
            vols[-1][f"{kind}_latency_ms"], vols[-1][f"{kind}_latency_ms_note"] = _per_io_ms(a, sec, n, ok, kind)
    if not vols:
        raise EstateError("only the _Total instance: export the volumes' own counters", name)
    return {
        "source": "Performance Monitor, LogicalDisk",
        "file": name,
        "volumes": vols,
        "notes": ["per volume: map the volumes to their databases (data and log files) to size per database"],
    }


#: SQL Server's system databases, by name and by database_id (the resource database's is 32767): an instance's,
#: not databases to migrate; each database VM has its own. ``distribution`` is replication's (no fixed id).
SYSTEM_DATABASES = {"master": "1", "model": "3", "msdb": "4", "mssqlsystemresource": "32767", "distribution": None}
TEMPDB = {"tempdb": "2"}
#: most peak-to-mean ratio a file-statistics estate takes (its mean scaled to the peaks the user knows)
MAX_PEAK_TO_MEAN_RATIO = 100.0


def database_kind(database: str, by_id: bool) -> str:
    """'system', 'tempdb' or 'user': a row of the view by its database's name (or id, when the export has
    database_id only)."""
    key = database.strip() if by_id else database.strip().lower()
    if by_id:
        return "tempdb" if key in TEMPDB.values() else "system" if key in SYSTEM_DATABASES.values() else "user"
    return "tempdb" if key in TEMPDB else "system" if key in SYSTEM_DATABASES else "user"


#: a file-stats database's VM where none is given (the view gives none)
STATS_VM_VCPUS, STATS_VM_RAM_GB = 4, 16.0


def stats_demand(
    stats: dict, vcpus: int | None = None, ram_gb: float | None = None, peak_to_mean_ratio: float = 1.0, **kw
) -> dict:
    """A demand from :func:`read_file_stats`'s databases, as a DBaaS migration moves them: each user
    database its own VM of ``vcpus`` and ``ram_gb`` (the view gives neither). The view is one instance's:
    its system databases (master, model, msdb, the resource database, distribution) are not migrated, and
    tempdb's IO, the instance's, is spread over the user databases in proportion to their own IO (each VM
    has its own tempdb), its size with it. IOPS are the mean between the two samples, times
    ``peak_to_mean_ratio`` when the user knows the peaks (no factor is assumed). ``vcpus`` and ``ram_gb`` not given:
    :data:`STATS_VM_VCPUS` and :data:`STATS_VM_RAM_GB`, said in ``defaults``."""
    name = stats.get("file", "file_stats")
    vm_default = vcpus is None or ram_gb is None
    vcpus = STATS_VM_VCPUS if vcpus is None else vcpus
    ram_gb = STATS_VM_RAM_GB if ram_gb is None else ram_gb
    if not 1.0 <= peak_to_mean_ratio <= MAX_PEAK_TO_MEAN_RATIO:
        raise EstateError(
            f"must be 1..{MAX_PEAK_TO_MEAN_RATIO:g}: the peak over the mean (got {peak_to_mean_ratio:g})",
            "peak_to_mean_ratio",
        )
    by_id = stats.get("key") == "database_id"
    rows = [{**d, "kind": database_kind(d["database"], by_id)} for d in stats["databases"]]
    user = [d for d in rows if d["kind"] == "user"]
    system = [d for d in rows if d["kind"] == "system"]
    temp = [d for d in rows if d["kind"] == "tempdb"]
    if not user:
        raise EstateError(
            "no user database: only the instance's system databases "
            f"({', '.join(shown(d['database']) for d in rows)}); nothing to migrate",
            name,
        )
    if missing := [d["database"] for d in user + temp if not d["size_gb"]]:
        raise EstateError(
            f"no size for {shown(missing[0])}: export size_on_disk_bytes with the view to make a demand", name
        )
    # tempdb's share of each user database: in proportion to the database's own IO (equal shares when none
    # has any), its reads, writes, bytes and size alike
    own = sum(d["iops"] for d in user)
    t = {
        k: sum(d[k] or 0.0 for d in temp)
        for k in ("read_iops", "write_iops", "iops", "read_mb_s", "write_mb_s", "size_gb")
    }
    dbs = []
    for d in user:
        w = d["iops"] / own if own > 0 else 1.0 / len(user)
        reads, ios = d["read_iops"] + w * t["read_iops"], d["iops"] + w * t["iops"]
        mb_s = d["read_mb_s"] + d["write_mb_s"] + w * (t["read_mb_s"] + t["write_mb_s"])
        basis = "mean IOPS between the two samples" + (f", with {w * t['iops']:,.0f} of tempdb's" if temp else "")
        dbs.append(
            {
                "name": d["database"],
                "size_gb": d["size_gb"] + w * t["size_gb"],
                "peak_iops": ios * peak_to_mean_ratio,
                "iops_basis": basis + (f", x {peak_to_mean_ratio:g}" if peak_to_mean_ratio != 1 else ""),
                "vcpus": vcpus,
                "ram_gb": ram_gb,
                "tier": ESTATE_TIER,
                "latency_target_ms": None,
                "block_size_kib": mb_s * 1e6 / ios / 1024 if ios else None,
                "read_fraction": reads / ios if ios else None,
            }
        )
    notes = [n for n in stats["notes"] if n != MEAN_NOTE]  # said below, with what scales it
    unscaled = None
    if peak_to_mean_ratio == 1:
        # said, not scaled: two samples give a mean and nothing of the peaks (DBA walk 2026-11-30: "23,171 IOPS at
        # their peaks" of a mean); a warning, printed without --details: it was in the details' notes alone, and
        # the demand piped to size under-sized every peak without a word (DBA walk 2026-12-03)
        unscaled = (
            "no peak factor is applied: the demand is the mean between the two samples, which under-sizes the "
            "databases' peaks; give the peak-to-mean ratio you know (from Performance Monitor, say) to scale it"
        )
        notes.append(unscaled)
    else:
        notes.append(f"IOPS: the mean between the two samples x {peak_to_mean_ratio:g}, the peak-to-mean ratio given")
    if system:
        notes.append(
            f"the instance's {count(len(system), 'system database')}, "
            f"{', '.join(shown(d['database']) for d in system)}, "
            f"{'is' if len(system) == 1 else 'are'} not migrated (each database VM has its own): "
            f"{'its' if len(system) == 1 else 'their'} {sum(d['iops'] for d in system):,.0f} IOPS (mean) are not "
            "in the demand"
        )
    if temp:
        notes.append(
            f"tempdb's {t['iops']:,.0f} IOPS and {t['size_gb']:,.1f} GB, the instance's, spread over the "
            f"{count(len(user), 'user database')} in proportion to their own IO (each database VM has its own "
            "tempdb)"
        )
    out = estate_demand(dbs, name, peaks=peak_to_mean_ratio != 1, **kw)
    vm = f"each database VM taken as {vcpus} vCPUs and {ram_gb:g} GB of RAM (the view does not give them)"
    if vm_default:  # a value taken for what was not given, printed as the list's defaults are
        vm += "; give --vcpus and --ram-gb for the VMs the databases move to"
        out["defaults"].insert(0, vm)
    if unscaled:
        out["warnings"].insert(0, unscaled)
    out["notes"] = [*notes, vm, *out["notes"]]
    # the IOPS under their own name: a mean is no peak (the demand's rows carry "peak_iops" for every estate)
    for d in out["databases"]:
        d["iops"] = d.pop("peak_iops")
    out["totals"]["iops"] = out["totals"].pop("peak_iops")
    return {
        "source": stats["source"],
        "iops_basis": "the mean between the two samples"
        + (f" x {peak_to_mean_ratio:g}, the peak-to-mean ratio given" if peak_to_mean_ratio != 1 else ""),
        "peak_to_mean_ratio": peak_to_mean_ratio,
        "file_stats": rows,
        **out,
    }


def perfmon_demand(
    perf: dict,
    capacity_tb: float,
    databases: int | None = None,
    latency_target_ms: float = DEFAULT_LATENCY_TARGET_MS,
    **demand_fields,
) -> dict:
    """A totals demand from :func:`read_perfmon`'s volumes: their peak IOPS (95th percentile)
    added up, the IO size and read share weighted by each volume's mean IOPS. The counters
    give no data size, so ``capacity_tb`` is the user's, and ``databases`` (for vCPUs and
    RAM) too. Returns ``{"demand": Demand JSON, "totals": ..., "notes": [...], "defaults": [...], "warnings": [...]}``
    (``warnings``: what the demand leaves out, also first among the notes; ``defaults``: the VMs taken for a count
    of databases given without them)."""
    from pydantic import ValidationError

    from planner.core.errors import format_validation_error
    from planner.models.demand import Demand

    vols = perf["volumes"]
    peak = sum(v["peak_iops"] for v in vols)
    if peak <= 0:
        raise EstateError("no IO on any volume: nothing to size", perf.get("file", "perfmon"))
    w = [v["iops"] for v in vols]
    known_bs = [(v["block_size_kib"], x) for v, x in zip(vols, w) if v["block_size_kib"] is not None]
    known_rf = [(v["read_fraction"], x) for v, x in zip(vols, w) if v["read_fraction"] is not None]
    notes = ["IOPS: each volume's 95th percentile added up (the volumes' peaks may not coincide: a conservative total)"]
    fields = {"total_iops": peak, "capacity_tb": capacity_tb, "latency_target_ms": latency_target_ms}
    if known_bs and sum(x for _, x in known_bs) > 0:
        vals, wts = zip(*known_bs)
        fields["block_size_kib"] = min(max(float(np.average(vals, weights=wts)), 0.5), 4096.0)
    else:
        notes.append("no byte counters: the demand's default IO size (8 KiB)")
    if known_rf and sum(x for _, x in known_rf) > 0:
        vals, wts = zip(*known_rf)
        fields["read_fraction"] = float(np.average(vals, weights=wts))
    warnings = []
    if databases:
        fields["databases"] = databases
    else:
        # the counters name no databases: without a count the demand asks for no VMs, so the cluster is sized with
        # no vCPUs or RAM for them, without a word (verification walk 2026-11-30)
        warnings.append(
            "no database count given (--databases, the app's Databases box): the demand counts no database VMs, so "
            "no vCPUs or RAM are sized for them"
        )
    try:
        demand = Demand.model_validate(
            {
                "name": f"perfmon: {len(vols)} volume{'s' if len(vols) != 1 else ''}",
                **fields,
                "growth_in": "size_and_rate",  # the estate's own databases, grown in data and IOPS
                **demand_fields,
            }
        )
    except ValidationError as exc:
        raise EstateError(format_validation_error(exc, "demand"), perf.get("file", "perfmon")) from None
    defaults = []
    if databases and not {"vcpus_per_db", "ram_gb_per_db"} <= demand_fields.keys():
        # the demand's own defaults, taken without a word for the VMs a count of databases asks (DBA walk
        # 2026-12-03), as the file statistics' VMs are said
        defaults.append(
            f"each database VM taken as {demand.vcpus_per_db} vCPUs and {demand.ram_gb_per_db:g} GB of RAM, the "
            "demand's defaults (the counters do not give them; `estate --vcpus --ram-gb` gives others)"
        )
    return {
        "source": perf["source"],
        "volumes": vols,
        "totals": {"volumes": len(vols), "peak_iops": peak, "capacity_tb": capacity_tb},
        "demand": demand.model_dump(mode="json", exclude_none=True),
        "notes": warnings + defaults + notes + perf["notes"],
        "defaults": defaults,
        "warnings": warnings,
    }


def detect(data: bytes) -> str:
    """The kind of an estate file: 'perfmon', 'file-stats' or 'list' (by its header)."""
    from planner.core.tables import decode, is_xlsx

    if is_xlsx(data):
        return "list"
    try:
        head = decode(data[:8192], "file").splitlines()[0].lower() if data.strip() else ""
    except (PlannerError, IndexError):
        return "list"
    if "pdh-csv" in head or "\\logicaldisk(" in head:
        return "perfmon"
    if "num_of_reads" in head and "sample_ms" in head:
        return "file-stats"
    return "list"
