"""An OLTP database's IO, from how its transactions touch its pages.

A DBA describes a database by its size, its buffer pool and its transaction rate
(HammerDB's NOPM or TPM). What reaches storage follows from which pages the transactions
touch, how often, and which of them the buffer pool keeps:

* **The schema and the transactions** are HammerDB's TPROC-C for SQL Server (the disk
  schema and the five stored procedures of ``src/mssqlserver/mssqlsoltp.tcl``,
  TPC-Council/HammerDB @ 5725747): page geometry from the column types, page touches per
  transaction from the procedures, the call mix from the driver (``RandomNumber 1 23``:
  New-Order 10/23, Payment 10/23, Delivery, Stock-Level and Order-Status 1/23 each).
  HammerDB draws item and customer ids uniformly and last names by NURand(255, 0, 999);
  each virtual user keeps one home warehouse drawn at random, unless "Use All Warehouses"
  is set (HammerDB documentation, *Use All Warehouses for increased I/O*). A
  specification-compliant TPC-C kit draws items by NURand(8191, 1, 100000) and customers by
  NURand(1023, 1, 3000) (TPC-C 5.11 clause 2.1.6): ``access="tpcc"``.
* **The pages** a row lands on are data (:class:`PageGeometry`): SQL Server's clustered
  tables from the schema's column types (the default), or PostgreSQL's heaps behind
  primary-key B-trees from a built database's table sizes (:func:`postgresql_geometry`),
  where a lookup by key also reads a leaf of the key index.
* **The buffer pool** is LRU under Che's approximation (Che, Tung & Wang 2002; Fricker,
  Robert & Roberts 2012): a page requested at rate ``l`` stays while requests come within
  the cache's characteristic time ``t``, so it hits with probability ``1 - exp(-l t)``, and
  ``t`` fills the pool. Pages appended and re-read at a known age (orders a Delivery picks
  up, an Order-Status's last order) hit when that age is under ``t``. A Delivery takes its
  district's oldest undelivered order, so consecutive Deliveries of a district walk
  consecutive orders, which share pages: only the pages new to the walk are read at the
  order's age, the rest were touched by the district's previous Delivery and hit when it
  came within ``t`` (:func:`delivery_walk_reads`).
* **Checkpoints write each dirty page once per interval** however often it was dirtied; a
  page the pool evicts dirty before its checkpoint is written by the lazy writer instead, and
  written again if dirtied after it was read back. A page stays ``t`` after its last use, so it
  is evicted before its checkpoint only when ``t`` is under the interval ``T``
  (:func:`evicted_dirty_per_s`, :func:`dirty_at_checkpoint`). Adjacent dirty pages are gathered into one write of up
  to 32 pages (SQL Server 2014) or 128 pages (2016+: Bob Dorr, *SQL 2016: larger data file
  writes*; Microsoft, *Writing pages*). A district's append points (the tails of orders,
  order lines and new orders) and its backlog's head are written in an interval only when
  an order arrived in (or a Delivery left) that district in it (:func:`append_point_writes`);
  the warehouse and district rows only when a transaction updated them.
* **The log** is written in blocks of 512-byte sectors up to 60 KB (Microsoft, *SQL
  Server transaction log architecture*); commits that arrive while a flush is in flight
  share the next one (group commit), so at high rates a flush carries many commits.

References
----------
.. [1] H. Che, Y. Tung, Z. Wang, "Hierarchical Web caching systems: modeling, design and
   experimental results", IEEE JSAC 20(7), 2002.
.. [2] C. Fricker, P. Robert, J. Roberts, "A versatile and accurate approximation for LRU
   cache performance", ITC 24, 2012.
.. [3] TPC Benchmark C Standard Specification, revision 5.11, 2010 (clauses 1.3, 2.1.6, 2.4-2.8, 4.3).
.. [4] W. W. Hsu, A. J. Smith, H. C. Young, "I/O reference behavior of production database
   workloads and the TPC benchmarks - an analysis at the logical level", ACM TODS 26(1), 2001
   (miss ratio roughly as the inverse square root of buffer/data: checked in the tests).
"""

from __future__ import annotations

import copy
import dataclasses
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
from scipy.special import gammaln

from planner.core.kept import Kept
from planner.core.types import FloatArray

#: a data page, bytes (SQL Server: 8 KiB pages, 8,096 bytes for rows)
PAGE_BYTES = 8192
PAGE_ROW_BYTES = 8096
#: SQL Server's per-row overhead beyond the fixed-length data: 4-byte header, 2-byte column
#: count, the null bitmap (one bit per column) and the 2-byte slot (Microsoft, *Estimate
#: the size of a clustered index*)
ROW_HEADER_BYTES = 4 + 2 + 2

#: the call mix of HammerDB's driver (mssqlsoltp.tcl: ``set choice [ RandomNumber 1 23 ]``)
MIX = {"new_order": 10 / 23, "payment": 10 / 23, "delivery": 1 / 23, "stock_level": 1 / 23, "order_status": 1 / 23}
#: New-Orders that roll back (``@rbk = CAST(100 * RAND() + 1 AS INT)``: 1 in 100); NOPM counts
#: committed ones, TPM (SQL Server's Batch Requests/sec) counts every call
NEW_ORDER_ROLLBACK = 0.01
#: calls per New-Order counted in NOPM: TPM / NOPM (HammerDB's pairs: 2.305-2.342)
TPM_PER_NOPM = 1.0 / (MIX["new_order"] * (1.0 - NEW_ORDER_ROLLBACK))

WAREHOUSE_GB = 0.1
"""Database size per warehouse, decimal GB: 5,000 warehouses 'roughly 500 GB' (Datrium
technical report) and 10,000 'about 1 TB' (Micron/DataON brief), as HammerDB builds them."""


def _row_bytes(fixed: int, columns: int) -> int:
    return fixed + ROW_HEADER_BYTES + math.ceil(columns / 8)


def _rows_per_page(row: int) -> int:
    return max(1, PAGE_ROW_BYTES // row)


#: HammerDB's SQL Server disk schema, per warehouse: (rows at load, fixed-length bytes, columns)
#: from the column types (int 4, tinyint 1, smallint 2, smallmoney 4, money 8, datetime 8,
#: char(n) n); warehouse and district are padded to one row per page (char 4000 / 6000)
SCHEMA = {
    "warehouse": (1, 4097, 10),
    "district": (10, 6102, 12),
    "customer": (30_000, 672, 21),
    "stock": (100_000, 308, 17),
    "orders": (30_000, 24, 8),
    "order_line": (300_000, 56, 10),
    "new_order": (9_000, 9, 3),
    "history": (30_000, 50, 8),
    # nonclustered customer_c_last (c_w_id, c_d_id, c_last, c_first, c_id) and orders_i2
    "customer_index": (30_000, 41, 5),
    "orders_index": (30_000, 13, 4),
}
#: the item table is shared by all warehouses
ITEM = (100_000, 86, 5)
ITEMS = 100_000
CUSTOMERS_PER_DISTRICT = 3_000
DISTRICTS = 10
#: rows of a New-Order: 5 to 15 lines (RandomNumber 5 15)
ORDER_LINES = 10.0
#: Stock-Level reads the stock of the lines of the district's last 20 orders
STOCK_LEVEL_ORDERS = 20
#: undelivered orders per district at load (TPC-C clause 4.3.3.1: orders 2,101-3,000);
#: Delivery (1/23 calls, 10 districts) keeps pace with New-Order (10/23), so it stays
NEW_ORDER_BACKLOG = 900
#: Payment and Order-Status find the customer by last name 60 % of the time
BY_NAME = 0.60
#: Payment's customer is in another warehouse 15 % of the time, a New-Order line's supplying
#: warehouse 1 % (TPC-C clauses 2.4.1.5 and 2.5.1.2, as HammerDB implements them)
REMOTE_PAYMENT = 0.15
REMOTE_STOCK = 0.01

#: a log record's bytes beyond the row image it carries [bytes]: its fixed part (62), the lengths of its parts
#: (10) and its lock information (20), as fn_dblog shows a row insert's record on SQL Server 2008 R2, 124 bytes
#: for a 32-byte row (Ramkumar, "Time Pass With Transaction Log - Part 5 INSERT", sqlservercentral.com,
#: 2012-11-27). A record carries the row inserted or deleted, or the before and after images of the bytes an
#: update changes (fn_dblog's RowLog Contents 0 and 1); the columns one update changes in a row share a record,
#: and each index row changed has its own (Paul Randal, "The SQL Server Transaction Log, Part 4: Log Records",
#: sqlperformance.com, 2022). One record measured: the figure is that record's, applied to every row change.
LOG_RECORD_OVERHEAD_BYTES = 62 + 10 + 20
#: a begin or a commit record [bytes]: no measured length was found; an assumption (the one used before)
LOG_TXN_RECORD_BYTES = 60
#: the share of customers of bad credit (TPC-C clause 4.3.3.1, as HammerDB loads them: c_credit "BC" for 10 %),
#: whose c_data (char(500)) each Payment rewrites, its text shifted by what it prepends
BAD_CREDIT = 0.10
C_DATA_BYTES = 500
#: an orders_i2 leaf entry [bytes]: a status byte and its key columns o_w_id, o_d_id, o_c_id, o_id (int,
#: tinyint, int, int; all NOT NULL, so no null bitmap); the clustered key (o_w_id, o_d_id, o_id) is in it
ORDERS_I2_ENTRY_BYTES = 1 + SCHEMA["orders_index"][1]


def row_log_bytes(row_bytes: float) -> float:
    """The log record of a row inserted or deleted [bytes]: the record's overhead and the row
    (:data:`LOG_RECORD_OVERHEAD_BYTES`)."""
    return LOG_RECORD_OVERHEAD_BYTES + row_bytes


def update_log_bytes(changed_bytes: float) -> float:
    """The log record of a row updated in place [bytes]: the record's overhead and the changed bytes
    before and after."""
    return LOG_RECORD_OVERHEAD_BYTES + 2.0 * changed_bytes


def _schema_row_bytes(table: str) -> int:
    _rows, fixed, columns = SCHEMA[table]
    return _row_bytes(fixed, columns)


#: log bytes per call, by transaction, from the rows each of HammerDB's procedures changes (mssqlsoltp.tcl
#: @5725747) and the bytes each change logs; read-only calls write none. Derived, not measured: no TPROC-C
#: log rate per transaction is published. Left out: a rolled-back New-Order's compensation records (1 in
#: 100), page allocations as the appended tables grow (one per page of rows), a good-credit customer's c_data
#: set to "GC" by its first Payment (the rows loaded with 300-500 characters; unchanged after), index page
#: splits and the differential bitmap's first change of an extent after a full backup.
LOG_BYTES = {
    "new_order": 2 * LOG_TXN_RECORD_BYTES
    + update_log_bytes(4)  # district: d_next_o_id (int)
    + ORDER_LINES
    * (
        update_log_bytes(2)  # stock: s_quantity (smallint)
        + row_log_bytes(_schema_row_bytes("order_line"))
    )
    + row_log_bytes(_schema_row_bytes("orders"))
    + row_log_bytes(_schema_row_bytes("new_order"))
    + row_log_bytes(ORDERS_I2_ENTRY_BYTES),
    "payment": 2 * LOG_TXN_RECORD_BYTES
    + update_log_bytes(8 + BAD_CREDIT * C_DATA_BYTES)  # customer: c_balance (money), a bad-credit c_data
    + row_log_bytes(_schema_row_bytes("history"))
    + update_log_bytes(8)  # district: d_ytd (money)
    + update_log_bytes(8),  # warehouse: w_ytd (money)
    "delivery": 2 * LOG_TXN_RECORD_BYTES
    + DISTRICTS
    * (
        row_log_bytes(_schema_row_bytes("new_order"))  # the oldest new order, deleted
        + update_log_bytes(1)  # orders: o_carrier_id (tinyint)
        + ORDER_LINES * update_log_bytes(8)  # order_line: ol_delivery_d (datetime)
        + update_log_bytes(8)  # customer: c_balance (money)
    ),
    "stock_level": 0.0,
    "order_status": 0.0,
}
#: log bytes per HammerDB call (TPM transaction), the driver's mix over LOG_BYTES
LOG_BYTES_PER_CALL = sum(MIX[k] * LOG_BYTES[k] for k in MIX)
#: the largest log write (Microsoft: a log block 'with a maximum size of 60 KB')
LOG_BLOCK_MAX_BYTES = 60 * 1024
LOG_SECTOR_BYTES = 512
#: the log writes SQL Server keeps in flight per database at most, from SQL Server 2012 on 64-bit (32 before;
#: Paul Randal, "Trimming More Transaction Log Fat", sqlperformance.com, 2013): beyond it a commit waits for a
#: write to finish, so the log bounds the rate at this many flushes per flush latency
LOG_WRITES_IN_FLIGHT_MAX = 112


def pages_per_warehouse() -> dict[str, float]:
    """Data pages per warehouse of each table at load (the item table apart)."""
    return {t: rows / _rows_per_page(_row_bytes(b, c)) for t, (rows, b, c) in SCHEMA.items()}


def rows_per_page(table: str) -> int:
    _rows, b, c = ITEM if table == "item" else SCHEMA[table]
    return _rows_per_page(_row_bytes(b, c))


def item_pages() -> float:
    return ITEM[0] / _rows_per_page(_row_bytes(ITEM[1], ITEM[2]))


# ------------------------------------------------------------------ page geometry


@dataclass(frozen=True)
class PageGeometry:
    """Where an engine keeps HammerDB TPROC-C's rows: the pages a transaction's accesses land on.

    Component data, not code: :func:`sql_server_geometry` derives it from the SQL Server
    disk schema's column types (today's model, unchanged), :func:`postgresql_geometry` from
    a PostgreSQL database's measured table sizes.

    Attributes
    ----------
    engine : str
        ``"sql-server"`` or ``"postgresql"``.
    pages_per_warehouse : dict of str to float
        Heap or clustered-index leaf pages of each table per warehouse [pages], with the
        index classes ``customer_index`` (customers by last name) and ``orders_index``
        (orders by customer).
    rows_per_page : dict of str to float
        Rows per heap or clustered page of each table and of ``item`` [rows/page].
    item_pages : float
        Pages of the item table, shared by all warehouses [pages].
    append_rows_per_page : dict of str to float
        Rows per page that appending to ``orders``, ``order_line``, ``new_order`` and
        ``history`` creates [rows/page]: the table's own pages and, for a heap, the right
        edge of its primary-key B-tree together (``1 / (1/heap + 1/index)``).
    key_index_pages_per_warehouse : dict of str to float
        For tables stored as a heap behind a primary-key B-tree: the key index's leaf pages
        per warehouse that a row lookup by key also touches [pages], for indexes whose key
        leads with the warehouse. Empty for clustered tables (SQL Server).
    key_index_pages_shared : dict of str to float
        The same for key indexes that lead with the item id (every warehouse's entries of an
        item on one leaf), whole index [pages].
    aged_index_pages : float
        Index leaf pages read with each re-read of an aged order and of its lines [pages]
        (0 when the rows are the clustered index's leaves).
    tail_pages_per_district : float
        Pages per district always resident because every New-Order or Delivery touches them
        (tails being appended, the backlog's head) [pages].
    """

    engine: str
    pages_per_warehouse: Mapping[str, float] = field(hash=False)
    rows_per_page: Mapping[str, float] = field(hash=False)
    item_pages: float
    append_rows_per_page: Mapping[str, float] = field(hash=False)
    key_index_pages_per_warehouse: Mapping[str, float] = field(default_factory=dict, hash=False)
    key_index_pages_shared: Mapping[str, float] = field(default_factory=dict, hash=False)
    aged_index_pages: float = 0.0
    tail_pages_per_district: float = 4


#: tables whose rows a geometry carries per page
GEOMETRY_TABLES = ("warehouse", "district", "customer", "stock", "orders", "order_line", "new_order", "history")
#: tables appended to by New-Order and Payment
APPENDED_TABLES = ("orders", "order_line", "new_order", "history")


def sql_server_geometry() -> PageGeometry:
    """HammerDB's SQL Server schema: clustered tables, page counts from the column types
    (:data:`SCHEMA`); a row lookup touches the clustered index's leaf, nothing more."""
    rows = {t: rows_per_page(t) for t in (*GEOMETRY_TABLES, "item")}
    return PageGeometry(
        engine="sql-server",
        pages_per_warehouse=pages_per_warehouse(),
        rows_per_page=rows,
        item_pages=item_pages(),
        append_rows_per_page={t: rows[t] for t in APPENDED_TABLES},
    )


SQL_SERVER_GEOMETRY = sql_server_geometry()

#: PostgreSQL's block size [bytes] (the default build)
PG_BLOCK_BYTES = 8192
#: HammerDB's rows per warehouse at load (the same for every engine) and of the item table
HAMMERDB_ROWS_PER_WAREHOUSE = {t: float(SCHEMA[t][0]) for t in GEOMETRY_TABLES}
#: HammerDB's PostgreSQL indexes (pgoltp.tcl @5725747): the primary keys (customer_i1,
#: stock_i1 (s_i_id, s_w_id), orders_i1, new_order_i1, order_line_i1, item_i1, ...) and two
#: more, customer_i2 (c_w_id, c_d_id, c_last, c_first, c_id) and orders_i2 (o_w_id, o_d_id,
#: o_c_id, o_id). A leaf entry's bytes (8-byte tuple header, the key columns aligned, padded
#: to 8 bytes, 4-byte line pointer; c_last and c_first at HammerDB's mean 12 characters):
#: how a table's measured index size is split between its two indexes (an estimate).
PG_LEAF_ENTRY_BYTES = {"customer_i1": 28, "customer_i2": 52, "orders_i1": 28, "orders_i2": 28}


def postgresql_geometry(heap_gb: dict[str, float], total_gb: dict[str, float], warehouses: float) -> PageGeometry:
    """HammerDB's PostgreSQL schema from a built database's measured sizes.

    Parameters
    ----------
    heap_gb : dict of str to float
        Each table's heap (main fork, ``pg_relation_size``) [GB, decimal], the nine TPROC-C
        tables.
    total_gb : dict of str to float
        Each table with its indexes (``pg_total_relation_size``) [GB, decimal].
    warehouses : float
        Warehouses the database was built with.

    Returns
    -------
    PageGeometry
        Heap pages per warehouse and rows per page from the sizes and HammerDB's
        cardinalities; a table's index pages are its total less its heap.

    Notes
    -----
    What is measured: each table's heap and total size. What is assumed:

    * index = total - heap: the free-space and visibility maps (about 1 page in 4,000) and
      the B-trees' root and inner pages (under 1 %) are counted as leaf pages;
    * customer's and orders' index sizes are split between their two indexes in proportion
      to the estimated leaf entry (:data:`PG_LEAF_ENTRY_BYTES`): customer_i1 (by id) 35 %,
      customer_i2 (by last name, the model's ``customer_index``) 65 %; orders_i1 and
      orders_i2 (the model's ``orders_index``) half each;
    * a row lookup by key touches one leaf of the primary key, each leaf of the index as
      likely as the next (uniform access over leaf pages, whatever the rows' own skew);
      stock_i1 leads with the item id, so its leaves hold every warehouse's stock of an item
      and are shared by all warehouses, like item_i1;
    * rows lie in key order in the heap, as HammerDB loads them (a reloaded or updated
      table drifts from this: non-HOT updates move rows to other pages);
    * an aged order's re-read (Delivery, Order-Status) reads one leaf of orders_i1 and one of
      order_line_i1 besides the heap pages;
    * the always-resident pages per district are four, as for SQL Server (the right edges
      of orders_i1, order_line_i1 and new_order_i1 and new_order_i1's head; the heaps have
      one insertion point per table, not per district).

    References
    ----------
    .. [1] HammerDB, ``src/postgresql/pgoltp.tcl`` (TPC-Council/HammerDB @5725747): the
       schema, indexes and stored procedures.
    .. [2] PostgreSQL 15 documentation, *Database Page Layout* (73.6) and *B-Tree Indexes*
       (67): 8 KiB blocks, index tuple layout, leaf fill factor 90 %.
    """
    W = float(warehouses)
    missing = sorted({*GEOMETRY_TABLES, "item"} - set(heap_gb) | {*GEOMETRY_TABLES, "item"} - set(total_gb))
    if missing:
        raise ValueError(f"table sizes missing: {', '.join(missing)}")
    heap = {t: heap_gb[t] * 1e9 / PG_BLOCK_BYTES for t in (*GEOMETRY_TABLES, "item")}
    index = {t: max(total_gb[t] - heap_gb[t], 0.0) * 1e9 / PG_BLOCK_BYTES for t in (*GEOMETRY_TABLES, "item")}
    e = PG_LEAF_ENTRY_BYTES
    cust_by_name = e["customer_i2"] / (e["customer_i1"] + e["customer_i2"])
    orders_by_customer = e["orders_i2"] / (e["orders_i1"] + e["orders_i2"])
    ppw = {t: heap[t] / W for t in GEOMETRY_TABLES}
    ppw["customer_index"] = index["customer"] * cust_by_name / W
    ppw["orders_index"] = index["orders"] * orders_by_customer / W
    rows = {t: HAMMERDB_ROWS_PER_WAREHOUSE[t] / ppw[t] for t in GEOMETRY_TABLES}
    rows["item"] = ITEMS / heap["item"]
    # the appended tables' key-index leaves fill as the heap does (one entry per row)
    appended_index = {
        "orders": index["orders"] * (1.0 - orders_by_customer),
        "order_line": index["order_line"],
        "new_order": index["new_order"],
        "history": 0.0,
    }
    append = {t: HAMMERDB_ROWS_PER_WAREHOUSE[t] * W / (heap[t] + appended_index[t]) for t in APPENDED_TABLES}
    return PageGeometry(
        engine="postgresql",
        pages_per_warehouse=ppw,
        rows_per_page=rows,
        item_pages=heap["item"],
        append_rows_per_page=append,
        key_index_pages_per_warehouse={"customer": index["customer"] * (1.0 - cust_by_name) / W},
        key_index_pages_shared={"stock": index["stock"], "item": index["item"]},
        aged_index_pages=1.0,
    )


# ------------------------------------------------------------------ NURand


@lru_cache(maxsize=8)
def nurand_pmf(a: int, x: int, y: int, c: int = 0) -> np.ndarray:
    """Probability of each value of NURand(A, x, y) [TPC-C clause 2.1.6].

    ``NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x`` with A one
    less than a power of two. Exact: given ``b = random(x, y)``, the low bits of ``a | b``
    are uniform over the supersets of b's low bits, so the distribution is a superset-sum
    (zeta) transform per block of b's high bits.

    Returns
    -------
    numpy.ndarray
        ``pmf[v - x]`` for v in x..y; sums to 1.
    """
    bits = int(a).bit_length()
    if a != (1 << bits) - 1:
        raise ValueError("A must be 2^k - 1")
    size = 1 << bits
    b = np.arange(x, y + 1)
    pop = np.array([bin(v).count("1") for v in range(size)])
    out = np.zeros(y - x + 1)
    for hi in np.unique(b >> bits):
        sel = b[(b >> bits) == hi]
        w = np.zeros(size)
        np.add.at(w, sel & (size - 1), 1.0 / (y - x + 1))
        w = w / 2.0 ** (bits - pop)  # each superset of b's low bits equally likely
        for k in range(bits):  # sum over subsets: v collects every s that is a subset of v
            step = 1 << k
            idx = np.arange(size)
            has = (idx & step) != 0
            w[has] += w[idx[has] ^ step]
        vals = (hi << bits) | np.arange(size)
        shifted = ((vals + c) % (y - x + 1)) + x
        np.add.at(out, shifted - x, w)
    return out / float(out.sum())


def page_weights(pmf: np.ndarray, rows_per_page: float) -> FloatArray:
    """Probabilities of rows laid out in key order, summed per page.

    Parameters
    ----------
    pmf : numpy.ndarray
        Probability of each row, in key order.
    rows_per_page : float
        Rows per page [rows/page]. A whole number packs whole rows; a fraction (a measured
        table: its rows over its pages) splits the probability of a row that straddles two
        pages between them in proportion.

    Returns
    -------
    numpy.ndarray
        Probability of each page; sums to ``pmf.sum()``.
    """
    if float(rows_per_page).is_integer():
        rpp = int(rows_per_page)
        n = -(-len(pmf) // rpp)
        padded = np.zeros(n * rpp)
        padded[: len(pmf)] = pmf
        return padded.reshape(n, rpp).sum(axis=1)
    n = math.ceil(len(pmf) / rows_per_page)
    edges = np.minimum(np.arange(n + 1) * rows_per_page, len(pmf))
    cumulative = np.concatenate(([0.0], np.cumsum(pmf)))
    return np.diff(np.interp(edges, np.arange(len(pmf) + 1), cumulative))


# ------------------------------------------------------------------ LRU (Che)


def che_time(
    rates: FloatArray,
    counts: FloatArray,
    capacity_pages: float,
    fixed_pages: float = 0.0,
    aged: Callable[[float], float] | None = None,
) -> float:
    """The characteristic time of an LRU buffer of ``capacity_pages`` pages [s].

    Parameters
    ----------
    rates : array_like
        Request rate of one page of each class [requests/s].
    counts : array_like
        Pages in each class.
    capacity_pages : float
        Pages the buffer holds.
    fixed_pages : float
        Pages always resident (touched every few milliseconds).
    aged : callable, optional
        ``aged(t)``: pages the appended-and-re-read classes occupy at characteristic time ``t``.

    Returns
    -------
    float
        ``t`` with ``sum(counts * (1 - exp(-rates * t))) + fixed + aged(t) = capacity``;
        ``inf`` when everything fits.
    """
    rates, counts = np.asarray(rates, float), np.asarray(counts, float)

    def occupied(t: float) -> float:
        return float(np.sum(counts * -np.expm1(-rates * t))) + fixed_pages + (aged(t) if aged else 0.0)

    if occupied(1e12) <= capacity_pages:
        return math.inf
    lo, hi = 0.0, 1.0
    while occupied(hi) < capacity_pages:
        hi *= 2.0
    for _ in range(100):  # occupancy rises monotonically with t
        mid = 0.5 * (lo + hi)
        if mid == hi or (mid == lo and lo > 0.0):
            # lo and hi are adjacent doubles, occupied(lo) < capacity <= occupied(hi) already known: every
            # further step leaves them as they are (the same t, in about half the steps)
            break
        if occupied(mid) < capacity_pages:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def gathered_writes(pages: FloatArray, dirty: FloatArray, gather: float) -> FloatArray:
    """Write IOs for ``pages`` adjacent pages each dirty with probability ``dirty``, adjacent
    dirty pages gathered up to ``gather`` per write.

    Runs of dirty pages start where a clean page precedes a dirty one (``pages d (1 - d)``
    of them) and are geometric; a run of L pages takes ceil(L / G) writes, whose mean over
    the geometric run is ``1 / (1 - d^G)``.
    """
    d = np.clip(np.asarray(dirty, float), 0.0, 1.0 - 1e-12)
    return np.asarray(pages, float) * d * (1.0 - d) / (1.0 - d**gather) + d  # + d: a run at the start


def coverage_decay_per_s(rates: FloatArray, characteristic_time_s: float) -> FloatArray:
    """How fast a page's chance of staying resident falls, once it must be used again to stay [1/s].

    Parameters
    ----------
    rates : array_like
        Requests a second of one page of each class [1/s] (Poisson).
    characteristic_time_s : float
        The pool's characteristic time ``t`` [s], finite and positive.

    Returns
    -------
    numpy.ndarray
        ``theta`` [1/s] with ``lambda (1 - exp(-(lambda - theta) t)) / (lambda - theta) = 1``: a page
        stays resident from a use for a time ``U > t`` only if no gap between its uses reaches ``t``,
        whose probability ``S(U) = int_0^t lambda e^(-lambda x) S(U - x) dx`` (a renewal at each use
        within ``t``) falls as ``exp(-theta U)``. ``inf`` for a page never used.
    """
    lam = np.asarray(rates, float)
    t = float(characteristic_time_s)
    a = np.maximum(lam * t, 1e-300)
    # z = (theta - lambda) t solves expm1(z) / z = 1 / a; f rises with z (f(0) = 1)
    lo = -a - 1.0
    hi = np.where(a < 1.0, 2.0 * np.log(1.0 / a) + 10.0, 0.0)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for _ in range(80):
            mid = 0.5 * (lo + hi)
            f = np.where(np.abs(mid) < 1e-12, 1.0, np.expm1(mid) / mid)
            below = f < 1.0 / a
            lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    theta = lam + 0.5 * (lo + hi) / t
    return np.where(lam * t > 1e-300, theta, np.inf)


def dirty_at_checkpoint(
    rates: FloatArray, update_rates: FloatArray, characteristic_time_s: float, checkpoint_interval_s: float
) -> FloatArray:
    """The chance that a page is dirty and resident when a checkpoint comes: the page writes a
    checkpoint makes, per page of each class and interval [-].

    Parameters
    ----------
    rates : array_like
        Requests a second of one page [1/s] (Poisson), ``lambda``.
    update_rates : array_like
        Of them, updates a second [1/s], ``mu``.
    characteristic_time_s : float
        The pool's characteristic time ``t`` [s] (:func:`che_time`; ``inf`` when everything fits).
    checkpoint_interval_s : float
        ``T`` [s]: an automatic checkpoint's interval, or an indirect checkpoint's recovery-time target.

    Returns
    -------
    numpy.ndarray
        ``1 - exp(-mu min(t, T))``, plus, when ``t < T``,
        ``h exp(-mu t) mu / (mu + theta) (1 - exp(-(mu + theta)(T - t)))`` with ``h = 1 - exp(-lambda t)``
        and ``theta`` from :func:`coverage_decay_per_s`.

    Notes
    -----
    Under Che's approximation a page stays ``t`` after its last use. Its last update before the
    checkpoint came ``U`` earlier (density ``mu exp(-mu U)`` over the interval); the checkpoint finds
    it dirty if the page stayed resident since: always when ``U <= t``, and otherwise only if it was
    used again within ``t`` (``h``) and again after each use, ``h exp(-theta (U - t))``. With
    ``t >= T`` this is ``1 - exp(-mu T)``, each page dirtied in an interval written once (the rule
    before the DBA review, which applied it whatever ``t``). Tested against a simulated LRU with
    periodic checkpoints (tests/test_database.py).
    """
    lam = np.asarray(rates, float)
    mu = np.minimum(np.asarray(update_rates, float), lam)
    t, T = float(characteristic_time_s), float(checkpoint_interval_s)
    held = -np.expm1(-mu * min(t, T))
    if t >= T:
        return held
    h = -np.expm1(-lam * t)
    theta = coverage_decay_per_s(lam, t)
    with np.errstate(invalid="ignore"):
        later = np.where(
            np.isfinite(theta) & (mu > 0),
            h * np.exp(-mu * t) * mu / (mu + theta) * -np.expm1(-(mu + theta) * (T - t)),
            0.0,
        )
    return held + later


def evicted_dirty_per_s(
    rates: FloatArray, update_rates: FloatArray, characteristic_time_s: float, checkpoint_interval_s: float
) -> FloatArray:
    """Lazy-writer writes a second of one page of each class: the page evicted dirty, before a checkpoint
    wrote it [1/s].

    Parameters
    ----------
    rates, update_rates : array_like
        Requests and, of them, updates a second of one page [1/s], ``lambda`` and ``mu``.
    characteristic_time_s : float
        The pool's characteristic time ``t`` [s] (``inf`` when everything fits).
    checkpoint_interval_s : float
        ``T`` [s].

    Returns
    -------
    numpy.ndarray
        ``lambda (1 - h) ((T - t) - (1 - u) int_0^(T-t) G(r) dr) / T`` when ``t < T``, else 0, with
        ``u = mu / lambda``, ``h = 1 - exp(-lambda t)`` and ``G(r) = max(exp(-mu r), G_inf)``,
        ``G_inf = (1 - h) / (1 - (1 - u) h)``.

    Notes
    -----
    A page is evicted ``lambda (1 - h)`` times a second (once per miss), ``t`` after its last use. The
    checkpoint before the eviction came ``V`` earlier, uniform over ``[0, T]`` (a periodic checkpoint at
    a random phase; an indirect checkpoint is taken to write a dirty page within its target alike, an
    assumption). The page is evicted dirty if one of its uses in the ``V - t`` before its last use was
    an update: never when ``V <= t``, so never when ``t >= T`` (a pool that keeps a page longer than
    the interval has it checkpointed first). ``G(r)``, the chance that none of the uses within ``r``
    was one, is ``exp(-mu r)`` while every use within ``r`` is of the same residence (``r <= t``) and
    tends to ``G_inf`` (no update in the whole residence, whose uses are geometric in number); the
    larger of the two is taken throughout. Before the DBA review every update of a page the pool does
    not hold was a lazy-writer write, ``(1 - h) mu``, whatever ``t`` and ``T``. Tested against a
    simulated LRU with periodic checkpoints (tests/test_database.py).

    References
    ----------
    Microsoft, *Writing pages* (learn.microsoft.com/sql/relational-databases/writing-pages): the lazy
    writer frees buffers by removing infrequently used pages, writing a dirty one first; a checkpoint
    writes every dirty page. Microsoft, *Database checkpoints* and *Change the target recovery time of a
    database*: automatic checkpoints about once a minute (recovery interval 0); indirect ones keep the
    dirty pages under what the target recovery time (60 s by default from SQL Server 2016) allows.
    H. Che, Y. Tung, Z. Wang, IEEE JSAC 20(7), 2002: the characteristic time.
    """
    lam = np.asarray(rates, float)
    mu = np.minimum(np.asarray(update_rates, float), lam)
    t, T = float(characteristic_time_s), float(checkpoint_interval_s)
    if t >= T:
        return np.zeros_like(lam)
    span = T - t
    h = -np.expm1(-lam * t)
    with np.errstate(invalid="ignore", divide="ignore"):
        u = np.where(lam > 0, mu / lam, 0.0)
        g_inf = np.where(h < 1.0, (1.0 - h) / np.maximum(1.0 - (1.0 - u) * h, 1e-300), 0.0)
        r_star = np.where(mu > 0, np.minimum(span, -np.log(g_inf) / mu), span)
        near = np.where(mu > 0, -np.expm1(-mu * r_star) / mu, r_star)
    none_updated = near + g_inf * (span - r_star)
    return lam * (1.0 - h) * (span - (1.0 - u) * none_updated) / T


def append_point_writes(events: float, rows_per_event: float, rows_per_page: float, gather: int) -> tuple[float, float]:
    """Pages written and write IOs per checkpoint interval at one append point.

    An append point is where one district's rows of a table are added or removed in key
    order: the tail of its orders, order lines or new orders (New-Order appends), the head
    of its new-order backlog (Delivery deletes the oldest), the run of delivered orders and
    their lines (Delivery updates them). The point is written in an interval only if an
    event reached it in that interval.

    Parameters
    ----------
    events : float
        Mean events (orders, or Deliveries) at the point per interval [1/interval].
    rows_per_event : float
        Rows each event adds or touches at the point [rows] (an order's 10 lines, 1 order).
    rows_per_page : float
        Rows per page at the point [rows/page].
    gather : int
        Adjacent dirty pages written together [pages].

    Returns
    -------
    tuple of float
        ``(pages, writes)``: the expected pages dirtied and write IOs per interval.

    Notes
    -----
    The events in an interval are Poisson with mean ``events`` (the point's district gets a
    random share of many virtual users' calls: HammerDB draws the district of a New-Order
    uniformly, ``RandomNumber 1 10``, and a Delivery visits every district of its warehouse).
    ``n`` events starting at a uniformly placed row of the point's current page span
    ``1 + (n k - 1) / R`` pages on average (``k`` rows per event, ``R`` rows per page; exact
    for whole ``R``, Hermite's identity) and ``ceil(span / gather)`` writes; none when
    ``n = 0``, so an idle point costs nothing. Hence the pages are
    ``(1 - e^-m)(1 - 1/R) + m k / R`` and the writes at most 1 while the span stays within
    ``gather``: ``1 - e^-m``, the chance the point was dirtied (the rule HammerDB's own draw
    implies; before, every point was written every interval whatever its rate).
    """
    m = max(float(events), 0.0)
    k, R, G = float(rows_per_event), max(float(rows_per_page), 1e-12), max(int(gather), 1)
    p_any = -math.expm1(-m)
    pages = p_any * (1.0 - 1.0 / R) + m * k / R
    if m <= 0.0:
        return 0.0, 0.0
    # the Poisson count over its bulk (mean +- 12 sd): the writes are a step function of n
    sd = math.sqrt(m)
    lo, hi = max(1, math.floor(m - 12.0 * sd - 5.0)), math.ceil(m + 12.0 * sd + 10.0)
    n = np.arange(lo, hi + 1, dtype=float)
    log_pmf = n * math.log(m) - m - gammaln(n + 1.0)
    span = 1.0 + (n * k - 1.0) / R
    writes = float(np.sum(np.exp(log_pmf) * np.ceil(span / G - 1e-9)))
    return pages, writes


def delivery_walk_reads(touched_pages: float, new_pages: float, walk_rate_per_s: float, t: float) -> float:
    """Pages a Delivery reads per delivered order that is older than the buffer's
    characteristic time ``t``.

    Parameters
    ----------
    touched_pages : float
        Pages a delivered order's rows lie on (its orders row, or its lines; with their
        key-index leaves for a heap) [pages].
    new_pages : float
        Of those, pages no earlier order of the district lies on: rows per order over rows
        per page (heap and key index together) [pages].
    walk_rate_per_s : float
        Deliveries per second in the order's district [1/s].
    t : float
        The buffer's characteristic time [s] (``inf``: everything fits).

    Returns
    -------
    float
        ``new + (touched - new) exp(-walk_rate t)`` [pages], never more than ``touched``.

    Notes
    -----
    HammerDB's Delivery (``DELIVERY`` in ``mssqlsoltp.tcl`` / ``pgoltp.tcl``) deletes its
    district's oldest new order (``DELETE TOP (1)``, or ``ORDER BY no_o_id LIMIT 1``), then
    updates that order and its lines: a district's Deliveries take its orders one after the
    other. Rows in key order (SQL Server's clustered tables; PostgreSQL's heap as HammerDB
    loads it, and its B-tree leaves) put consecutive orders on the same pages, so the pages
    of an order are new to the walk only for ``new_pages`` of them; the others were touched
    by the district's previous Delivery, a Poisson gap earlier, and are still resident with
    Che's probability ``1 - exp(-rate t)``. The new pages are read at the order's age (the
    caller's rule). The walk's current pages (about two per district) are not added to the
    buffer's occupancy.
    """
    touched = max(float(touched_pages), 0.0)
    new = min(max(float(new_pages), 0.0), touched)
    if math.isinf(t):
        return new
    return new + (touched - new) * math.exp(-max(float(walk_rate_per_s), 0.0) * max(t, 0.0))


# ------------------------------------------------------------------ the database


@dataclass(frozen=True)
class OltpShape:
    """What the translation needs of a database (see :class:`planner.models.database.Database`)."""

    size_gb: float
    buffer_pool_gb: float
    warehouses: float
    virtual_users: float | None
    all_warehouses: bool
    access: str  # "hammerdb" | "tpcc"
    checkpoint_interval_s: float
    gather_pages: int
    #: where the rows live (pages per table, key indexes); SQL Server's schema unless said
    geometry: PageGeometry = SQL_SERVER_GEOMETRY
    #: warehouses the load works on when known (a measured run); None: from the virtual users
    known_active_warehouses: float | None = None


def active_warehouses(warehouses: float, users: float | None, all_warehouses: bool) -> float:
    """Warehouses the load works on: all with "Use All Warehouses"; otherwise the distinct
    home warehouses of ``users`` virtual users, each drawn at random (HammerDB's default):
    ``W (1 - (1 - 1/W)^U)``. Unknown users: all (a conservative IO estimate)."""
    if all_warehouses or users is None:
        return warehouses
    return warehouses * -math.expm1(users * math.log1p(-1.0 / warehouses)) if warehouses > 1 else 1.0


def _customer_page_weights(access: str, rpp: float | None = None) -> FloatArray:
    """Per-page share of a district's customer row reads (one row per lookup).

    By id: uniform (HammerDB: ``RandomNumber 1 3000``) or NURand(1023, 1, 3000) (``tpcc``).
    By last name (60 %): the name is NURand(255, 0, 999); the covering index
    ``customer_c_last`` finds the matching customers without their rows and the procedure
    reads the row of the middle one. Each name belongs to one customer of ids 1..1,000 (its
    number, TPC-C 4.3.2.3) and to ``2000 pmf(name)`` of ids 1,001..3,000 on average, so the
    chosen row is that first one with probability ``1 / (1 + 2000 pmf)``, else uniform among
    the rest. ``rpp``: rows per customer page [rows/page], SQL Server's unless given.
    """
    rpp = rows_per_page("customer") if rpp is None else rpp
    n = CUSTOMERS_PER_DISTRICT
    by_id = nurand_pmf(1023, 1, n) if access == "tpcc" else np.full(n, 1.0 / n)
    names = nurand_pmf(255, 0, 999, 123 if access == "hammerdb" else 0)
    matches = 1.0 + (n - 1000) * names
    by_name = np.zeros(n)
    by_name[:1000] = names / matches
    by_name[1000:] = float(np.sum(names * (1.0 - 1.0 / matches))) / (n - 1000)
    return page_weights((1 - BY_NAME) * by_id + BY_NAME * by_name, rpp)


#: buffer_model's results by shape and rate: a capacity search settles each trial rate's log flush in up to three
#: steps, each asking the same rate's buffer model again (its log latency aside, the model is the same)
_BUFFER_MODELS: Kept[dict[str, Any]] = Kept(64, copy.deepcopy)


def buffer_model(shape: OltpShape, tps: float) -> dict[str, Any]:
    """:func:`buffer_model_uncached`, kept for the last 64 shapes and rates asked; each caller gets a deep copy."""
    return _BUFFER_MODELS.get((repr(shape), float(tps)), lambda: buffer_model_uncached(shape, tps))


#: steps of the bisection on log(active warehouses) that matches a given hit ratio: 1 to 10^7 warehouses to within
#: a relative 1e-6 of the warehouse count
HIT_MATCH_STEPS = 24


#: the matches found, by shape and hit ratio: a capacity search asks the same database at many rates
_HIT_MATCHES: Kept[float] = Kept(256, float)
#: the rate a match is made at [1/s]: under Che's approximation the hit ratio does not depend on the rate (the
#: characteristic time scales as its inverse, every page's share of the references stays), 0.996904 at 10 and at
#: 100,000 calls a second on 50 of 10,000 warehouses
HIT_MATCH_TPS = 100.0


def _active_for_hit(shape: OltpShape, hit_ratio: float) -> float:
    tps = HIT_MATCH_TPS
    lo, hi = 0.0, math.log(max(float(shape.warehouses), 1.0))

    def hit_at(log_a: float) -> float:
        # uncached: two dozen trial counts would push the capacity search's own rates out of buffer_model's store
        trial = dataclasses.replace(shape, known_active_warehouses=math.exp(log_a))
        return float(buffer_model_uncached(trial, tps)["hit_ratio"])

    # the hit ratio falls as the load spreads over more warehouses: past either end, that end
    if hit_ratio >= hit_at(lo):
        return 1.0
    if hit_ratio <= hit_at(hi):
        return math.exp(hi)
    for _ in range(HIT_MATCH_STEPS):
        mid = 0.5 * (lo + hi)
        if hit_at(mid) > hit_ratio:
            lo = mid
        else:
            hi = mid
    return math.exp(0.5 * (lo + hi))


def active_warehouses_for_hit(shape: OltpShape, hit_ratio: float) -> float:
    """The warehouses the load works on whose buffer-pool hit ratio is ``hit_ratio`` [-]: the skew a measured hit
    ratio implies, within the model's family of skews (HammerDB's home warehouses, uniform over the active ones).

    A measured hit ratio says how concentrated the row lookups are; the same concentration decides how many
    distinct pages are dirtied between checkpoints. Replacing the reads alone wrote a database with a 0.997 hit as
    if every warehouse were active: 49,141 checkpoint IOPS where the same hit reached through its virtual users
    wrote 1,885 (DBA walk 2026-12-03). Bisection on the logarithm of the count; at either end of what the model
    reaches (one warehouse, all of them) that end, and the caller scales the reads for the rest. The match is
    made at :data:`HIT_MATCH_TPS` (the hit ratio does not depend on the rate) and kept per shape.

    Parameters
    ----------
    shape : OltpShape
        The database (its ``known_active_warehouses`` is ignored).
    hit_ratio : float
        The share of the row lookups' pages found in the pool [-].

    Returns
    -------
    float
        Active warehouses [-], between 1 and ``shape.warehouses``.
    """
    base = dataclasses.replace(shape, known_active_warehouses=None)
    return _HIT_MATCHES.get((repr(base), float(hit_ratio)), lambda: _active_for_hit(base, float(hit_ratio)))


def buffer_model_uncached(shape: OltpShape, tps: float) -> dict[str, Any]:
    """Page touches, buffer hits, physical reads and page writes per second at ``tps`` calls
    per second (HammerDB transactions, TPM / 60).

    Returns a dict of per-second figures: ``reads`` (8 KiB page reads, physical), ``reads_by``
    (by table), ``reads_per_call`` (physical reads per call, by transaction type),
    ``page_writes`` (8 KiB pages), ``write_ios`` (after gathering), of them
    ``append_point_write_ios`` (the districts' tails, backlog heads and delivered runs, and
    the history tails: :func:`append_point_writes`), ``class_page_writes_by`` (pages written a
    second of the pages read and updated in place, checkpoint and lazy writer, by table or index),
    ``hit_ratio``,
    ``characteristic_time_s``, ``active_warehouses``; and per delivered order,
    ``delivery_order_aged`` (1 when a delivered order is older than the characteristic time,
    else 0), ``delivery_pages_per_order`` (the pages its rows and lines lie on) and
    ``delivery_reads_per_order`` (those a Delivery reads: :func:`delivery_walk_reads`, 0
    when the order is younger than the characteristic time).
    """
    W = max(float(shape.warehouses), 1.0)
    if shape.known_active_warehouses is not None:
        A = min(max(float(shape.known_active_warehouses), 1.0), W)
    else:
        A = min(active_warehouses(W, shape.virtual_users, shape.all_warehouses), W)
    geo = shape.geometry
    ppw = geo.pages_per_warehouse
    X = max(tps, 1e-12)
    xw = X / A  # calls per second on one active warehouse (home accesses)
    m = MIX
    # -------- accesses per call to the uniform (or NURand) tables, home and remote
    stock_home = m["new_order"] * ORDER_LINES * (1 - REMOTE_STOCK) + m["stock_level"] * STOCK_LEVEL_ORDERS * ORDER_LINES
    stock_remote = m["new_order"] * ORDER_LINES * REMOTE_STOCK
    stock_upd_home = m["new_order"] * ORDER_LINES * (1 - REMOTE_STOCK)
    cust_calls_home = m["payment"] * (1 - REMOTE_PAYMENT) + m["order_status"]
    cust_calls_remote = m["payment"] * REMOTE_PAYMENT
    # per district page, share of row reads
    cust_w = _customer_page_weights(shape.access, geo.rows_per_page["customer"])
    rows_per_lookup = 1.0
    cust_upd_home = m["payment"] * (1 - REMOTE_PAYMENT) + m["delivery"] * DISTRICTS + m["new_order"] * 0.0
    cust_read_home = cust_calls_home * rows_per_lookup + m["new_order"] + m["delivery"] * DISTRICTS
    item_calls = m["new_order"] * ORDER_LINES
    idx_calls_home = cust_calls_home * BY_NAME
    idx_calls_remote = cust_calls_remote * BY_NAME

    if shape.access == "tpcc":
        item_w = page_weights(nurand_pmf(8191, 1, ITEMS), geo.rows_per_page["item"])
        stock_w = page_weights(nurand_pmf(8191, 1, ITEMS), geo.rows_per_page["stock"])
    else:
        item_w = np.full(round(geo.item_pages), 1.0 / round(geo.item_pages))
        stock_w = np.full(round(ppw["stock"]), 1.0 / round(ppw["stock"]))
    names = nurand_pmf(255, 0, 999, 123 if shape.access == "hammerdb" else 0)
    idx_w = page_weights(names, max(1, round(CUSTOMERS_PER_DISTRICT / (ppw["customer_index"] / DISTRICTS))))
    idx_w = np.tile(idx_w / idx_w.sum(), DISTRICTS) / DISTRICTS
    cust_w_wh = np.tile(cust_w, DISTRICTS) / DISTRICTS  # share per page of one warehouse

    # classes: (name, request rate per page, update rate per page, pages)
    cls_rate, cls_upd, cls_n, cls_tab, cls_len = [], [], [], [], []

    def add(table: str, weights: FloatArray, read_per_s: float, upd_per_s: float, copies: float) -> None:
        # one group: a table's pages in `copies` warehouses alike (contiguous per warehouse)
        weights = np.asarray(weights, float)
        cls_rate.append(weights * read_per_s)
        cls_upd.append(weights * upd_per_s)
        cls_n.append(np.full(len(weights), float(copies)))
        cls_tab.append(table)
        cls_len.append(len(weights))

    rem_w = X / W  # remote accesses spread over every warehouse
    add("stock", stock_w, xw * stock_home + rem_w * stock_remote, xw * stock_upd_home + rem_w * stock_remote, A)
    add("stock", stock_w, rem_w * stock_remote, rem_w * stock_remote, W - A)
    cust_remote_per_s = rem_w * cust_calls_remote * rows_per_lookup
    add(
        "customer",
        cust_w_wh,
        xw * cust_read_home + cust_remote_per_s,
        xw * cust_upd_home + rem_w * cust_calls_remote,
        A,
    )
    add("customer", cust_w_wh, cust_remote_per_s, rem_w * cust_calls_remote, W - A)
    add("customer_index", idx_w, xw * idx_calls_home + rem_w * idx_calls_remote, 0.0, A)
    add("customer_index", idx_w, rem_w * idx_calls_remote, 0.0, W - A)
    add("item", item_w, X * item_calls, 0.0, 1)
    # orders_i2 (o_w_id, o_d_id, o_c_id, o_id): an Order-Status seeks its customer's orders, and a
    # New-Order inserts its order's entry among its customer's (HammerDB's SQL Server and PostgreSQL
    # schemas both build it; the customer is drawn uniformly), so the leaf is read and dirtied
    oi = max(round(ppw["orders_index"]), 1)
    add("orders_index", np.full(oi, 1.0 / oi), xw * (m["order_status"] + m["new_order"]), xw * m["new_order"], A)
    # a heap behind a primary-key B-tree (PostgreSQL): a lookup by key also reads a leaf
    # of the key index (uniform over the leaves); by-name lookups go through customer_index
    key_pages = geo.key_index_pages_per_warehouse.get("customer", 0.0)
    if key_pages > 0:
        n = max(round(key_pages), 1)
        by_key_remote = rem_w * cust_calls_remote * (1 - BY_NAME)
        add("customer_key", np.full(n, 1.0 / n), xw * (cust_read_home - idx_calls_home) + by_key_remote, 0.0, A)
        add("customer_key", np.full(n, 1.0 / n), by_key_remote, 0.0, W - A)
    for table, per_s in (("stock", X * (stock_home + stock_remote)), ("item", X * item_calls)):
        key_pages = geo.key_index_pages_shared.get(table, 0.0)
        if key_pages > 0:  # keyed by item first: one copy shared by every warehouse
            n = max(round(key_pages), 1)
            w = page_weights(nurand_pmf(8191, 1, ITEMS), ITEMS / n) if shape.access == "tpcc" else np.full(n, 1.0 / n)
            add(f"{table}_key", w, per_s, 0.0, 1)
    rate = np.concatenate(cls_rate)
    upd = np.concatenate(cls_upd)
    count = np.concatenate(cls_n)
    # each page's table as a small integer, and a mask per table: the masks were string compares over every page,
    # and np.unique of the strings, about half the model's time (one call of many in a capacity search)
    tables = sorted(set(cls_tab))  # np.unique's order
    code = np.repeat([tables.index(k) for k in cls_tab], cls_len)
    masks: dict[str, np.ndarray] = {k: code == i for i, k in enumerate(tables)}
    no_page = np.zeros(len(code), dtype=bool)

    def tab(k: str) -> np.ndarray:  # the pages of table ``k`` (none when the schema has no such table)
        return masks.get(k, no_page)

    # each group's pages are contiguous, in the order added
    edges = np.concatenate(([0], np.cumsum(cls_len)))

    # -------- appended pages, and their re-reads at a known age
    no_rate_district = xw * m["new_order"] / DISTRICTS  # new orders per second per district
    rpp_ol = geo.rows_per_page["order_line"]
    app = geo.append_rows_per_page
    appended = {  # pages created per second over the active warehouses
        "orders": A * DISTRICTS * no_rate_district / app["orders"],
        "order_line": A * DISTRICTS * no_rate_district * ORDER_LINES / app["order_line"],
        "new_order": A * DISTRICTS * no_rate_district / app["new_order"],
        "history": X * m["payment"] / app["history"],
    }
    delivery_age_s = NEW_ORDER_BACKLOG / max(no_rate_district, 1e-12)
    # an Order-Status's last order of a random customer: about 3,000 district orders old
    status_age_s = CUSTOMERS_PER_DISTRICT / max(no_rate_district, 1e-12)

    def aged_occupancy(t: float) -> float:
        re_read = min(delivery_age_s, t)
        return (appended["orders"] + appended["order_line"]) * (t + re_read) + appended["history"] * t

    # always resident: warehouse and district rows, the tails being appended, the backlog head
    fixed = A * (ppw["warehouse"] + ppw["district"] + DISTRICTS * geo.tail_pages_per_district)
    capacity = shape.buffer_pool_gb * 1e9 / PAGE_BYTES
    t = che_time(rate, count, capacity, fixed, aged_occupancy)
    hit = np.ones_like(rate) if math.isinf(t) else -np.expm1(-rate * t)
    miss_rate = count * rate * (1.0 - hit)
    reads_by = {k: float(np.sum(miss_rate[tab(k)])) for k in tables}
    # delivery re-reads its orders and lines at age delivery_age_s; order-status at an exponential age
    deliv_hit = 1.0 if delivery_age_s < t else 0.0
    status_hit = 1.0 if math.isinf(t) else -math.expm1(-t / status_age_s)
    # the lines of one order span about one page (and one key-index leaf, for a heap)
    lines_pages = 1.0 + (ORDER_LINES - 1) / rpp_ol + geo.aged_index_pages
    touched = {"orders": 1.0 + geo.aged_index_pages, "order_line": lines_pages}
    # a district's Deliveries walk its orders one after the other: of an aged order's pages
    # only the new ones are read at its age, the rest were touched by the previous Delivery
    deliveries_per_district_s = xw * m["delivery"]  # a Delivery visits all ten districts
    per_order_rows = {"orders": 1.0, "order_line": ORDER_LINES}
    deliv_reads = {
        k: (1.0 - deliv_hit) * delivery_walk_reads(touched[k], per_order_rows[k] / app[k], deliveries_per_district_s, t)
        for k in touched
    }
    for k in touched:  # an Order-Status's last order of a random customer: no walk
        reads_by[k] = X * (
            m["delivery"] * DISTRICTS * deliv_reads[k] + m["order_status"] * (1 - status_hit) * touched[k]
        )
    # a Stock-Level reads the stock rows of its district's last 20 orders' lines: rows those
    # New-Orders updated moments ago (ages spread up to 20 district orders back), so they hit
    # when that age is under t, whatever the page's own request rate says
    sl_age_s = STOCK_LEVEL_ORDERS / max(no_rate_district, 1e-12)
    sl_recent = 1.0 if math.isinf(t) else min(1.0, t / sl_age_s)
    sel = tab("stock")
    stock_acc = float(np.sum((count * rate)[sel]))
    stock_che_miss = float(np.sum(miss_rate[sel])) / max(stock_acc, 1e-30)
    sl_acc = X * m["stock_level"] * STOCK_LEVEL_ORDERS * ORDER_LINES
    sl_miss = min(stock_che_miss, 1.0 - sl_recent)
    reads_by["stock"] = max(reads_by["stock"] - sl_acc * (stock_che_miss - sl_miss), 0.0)
    stock_key_miss = sl_key_miss = 0.0
    if "stock_key" in reads_by:  # the same recent rows' key-index leaves
        sel = tab("stock_key")
        stock_key_miss = float(np.sum(miss_rate[sel])) / max(float(np.sum((count * rate)[sel])), 1e-30)
        sl_key_miss = min(stock_key_miss, 1.0 - sl_recent)
        reads_by["stock_key"] = max(reads_by["stock_key"] - sl_acc * (stock_key_miss - sl_key_miss), 0.0)
    # a remote Payment inserts its history row at the tail of the customer's warehouse
    tail_hit = 1.0 if math.isinf(t) else -math.expm1(-(X * m["payment"] * REMOTE_PAYMENT / W) * t)
    reads_by["history"] = X * m["payment"] * REMOTE_PAYMENT * (1.0 - tail_hit) * (W - A) / W
    reads = sum(reads_by.values())
    logical = float(np.sum(count * rate)) + X * (
        m["delivery"] * DISTRICTS * (1 + lines_pages) + m["order_status"] * (1 + lines_pages)
    )

    # -------- page writes: once per checkpoint interval while resident, at eviction otherwise
    T = shape.checkpoint_interval_s
    # a page is evicted dirty before its checkpoint only when the pool keeps it less than the interval
    # (before, every update of a page it does not hold was a lazy-writer write: DBA review)
    dirty = dirty_at_checkpoint(rate, upd, t, T)
    ckpt_pages = count * dirty / T
    lazy_pages = count * evicted_dirty_per_s(rate, upd, t, T)
    ckpt_ios = 0.0
    for g in range(len(cls_len)):  # adjacent dirty pages of a group gathered (at its mean dirtiness)
        run = slice(edges[g], edges[g + 1])
        n_g = float(np.sum(count[run]))
        if n_g > 0:
            dbar = float(np.sum(count[run] * dirty[run]) / n_g)
            ckpt_ios += float(gathered_writes(n_g, dbar, shape.gather_pages)) / T
    page_writes = float(np.sum(ckpt_pages + lazy_pages))
    write_ios = ckpt_ios + float(np.sum(lazy_pages))
    # append points, one per district and table (history: per warehouse), contiguous pages:
    # written in an interval only if an order (a payment, a Delivery) reached them in it
    G = shape.gather_pages
    points_d = A * DISTRICTS
    orders_per_point = no_rate_district * T
    deliveries_per_point = deliveries_per_district_s * T
    # a delivered order's pages are written again when its Delivery dirties them after
    # their checkpoint (it comes delivery_age_s after the order; within the same interval
    # the one write covers both)
    redirty = min(1.0, delivery_age_s / T)
    write_ios_before_points = write_ios
    for k in APPENDED_TABLES:
        if k == "history":
            points, events, rows = A, X * m["payment"] * T / A, 1.0
        else:
            points, events, rows = points_d, orders_per_point, per_order_rows.get(k, 1.0)
        pages, ios = append_point_writes(events, rows, app[k], G)
        page_writes += points * pages / T
        write_ios += points * ios / T
        if k in ("orders", "order_line"):  # the delivered orders' run
            pages, ios = append_point_writes(deliveries_per_point, rows, app[k], G)
            page_writes += redirty * points * pages / T
            write_ios += redirty * points * ios / T
    # the new-order backlog's head: each Delivery deletes its district's oldest new order
    pages, ios = append_point_writes(deliveries_per_point, 1.0, app["new_order"], G)
    page_writes += points_d * pages / T
    write_ios += points_d * ios / T
    append_point_write_ios = write_ios - write_ios_before_points
    # warehouse and district rows: a home Payment updates its warehouse (w_ytd) and district
    # (d_ytd), a New-Order its district (d_next_o_id); a page is written in an interval only
    # if updated in it, a warehouse's district rows (adjacent) in one gathered write
    wh_dirty = -math.expm1(-xw * m["payment"] * T)
    district_dirty = -math.expm1(-xw * (m["payment"] + m["new_order"]) / DISTRICTS * T)
    any_dirty = -math.expm1(-xw * (m["payment"] + m["new_order"]) * T)
    page_writes += A * (ppw["warehouse"] * wh_dirty + ppw["district"] * district_dirty) / T
    write_ios += A * any_dirty / T
    # remote history inserts on evicted tails: read, then written alone
    write_ios += reads_by["history"]
    page_writes += reads_by["history"]

    # physical reads per call of each type (what a user waits for)
    stock_miss = stock_che_miss
    cust_miss = float(
        np.sum((count * rate * (1 - hit))[tab("customer")]) / max(np.sum((count * rate)[tab("customer")]), 1e-30)
    )
    item_miss = float(np.sum((count * rate * (1 - hit))[tab("item")]) / max(np.sum((count * rate)[tab("item")]), 1e-30))
    idx_miss = float(
        np.sum((count * rate * (1 - hit))[tab("customer_index")])
        / max(np.sum((count * rate)[tab("customer_index")]), 1e-30)
    )
    # key-index leaves (a heap's primary key; none for clustered tables): 0 when absent
    item_key_miss, cust_key_miss = (
        float(np.sum(miss_rate[tab(k)]) / max(np.sum((count * rate)[tab(k)]), 1e-30))
        for k in ("item_key", "customer_key")
    )
    lookup = rows_per_lookup * cust_miss + BY_NAME * idx_miss + (1 - BY_NAME) * cust_key_miss
    orders_idx_miss = float(
        np.sum(miss_rate[tab("orders_index")]) / max(np.sum((count * rate)[tab("orders_index")]), 1e-30)
    )
    reads_per_call = {
        "new_order": ORDER_LINES * (stock_miss + item_miss + stock_key_miss + item_key_miss)
        + cust_miss
        + cust_key_miss
        + orders_idx_miss,
        "payment": lookup,
        "order_status": lookup + orders_idx_miss + (1 - status_hit) * (touched["orders"] + lines_pages),
        "delivery": DISTRICTS * (deliv_reads["orders"] + deliv_reads["order_line"] + cust_miss + cust_key_miss),
        "stock_level": STOCK_LEVEL_ORDERS * ORDER_LINES * (sl_miss + sl_key_miss),
    }
    return {
        "reads": reads,
        "reads_by": reads_by,
        "reads_per_call": reads_per_call,
        "logical_reads": logical,
        "hit_ratio": hit_ratio(reads, logical),
        "page_writes": page_writes,
        "write_ios": write_ios,
        "lazy_page_writes": float(np.sum(lazy_pages)),
        "class_page_writes_by": {k: float(np.sum((ckpt_pages + lazy_pages)[tab(k)])) for k in tables},
        "characteristic_time_s": t,
        "resident_pages": fixed,
        "pool_pages": capacity,
        "active_warehouses": A,
        "delivery_age_s": delivery_age_s,
        "appended_pages": sum(appended.values()),
        "append_point_write_ios": append_point_write_ios,
        "delivery_order_aged": 1.0 - deliv_hit,
        "delivery_pages_per_order": touched["orders"] + touched["order_line"],
        "delivery_reads_per_order": deliv_reads["orders"] + deliv_reads["order_line"],
    }


def hit_ratio(reads: float, logical_reads: float) -> float:
    """``1 - reads / logical_reads`` [-], within [0, 1] and 0 where the two differ only by rounding: a pool
    below the pages in use reads every page it is asked for, and its hit ratio is 0, not 2.2e-16 (the
    sums of the same accesses taken in another order)."""
    h = 1.0 - reads / max(logical_reads, 1e-30)
    return 0.0 if h < 1e-12 else min(h, 1.0)


def log_flushes(
    tps: float, flush_latency_s: float, log_bytes_per_call: float | None = None, users: float | None = None
) -> dict[str, Any]:
    """Log writes per second and their size, with group commit.

    Commits that arrive while a flush is in flight wait for the next one, so a flush
    carries ``max(1, commits/s x flush latency)`` commits, but never more than the ``users``
    committing (one virtual user's commits cannot share a flush), and at least one flush is
    needed per 60 KB of log (the largest log block).

    One flush in flight is the model's assumption, and it is contested: SQL Server flushes at
    every commit, asynchronously, up to 112 flushes in flight from SQL Server 2012 (Paul Randal,
    "Trimming More Transaction Log Fat", sqlperformance.com, 2013). Counted that way the Datrium
    seed's log writes grow from about 1,100 to 30,000 a second, and its storage CPU saturates at
    about 1.06 M TPM against the 2 M published with the VM's vCPUs binding; the rule stays until
    a published run with its log writes measured settles it (docs/accuracy.md).

    Returns ``flushes`` [1/s], ``bytes`` [bytes/s], ``write_kib`` (mean size of a flush,
    whole 512-byte sectors), ``commits_per_flush`` and ``bound``, what sets the flush count: "commits"
    (group commit over the flush latency), "users" (no more commits a flush than users committing) or
    "block" (the 60 KB largest log block).
    """
    commits = tps * (MIX["new_order"] + MIX["payment"] + MIX["delivery"])
    per_call = LOG_BYTES_PER_CALL if log_bytes_per_call is None else log_bytes_per_call
    rate = tps * per_call
    if commits <= 0 or rate <= 0:
        return {"flushes": 0.0, "bytes": 0.0, "write_kib": 0.5, "commits_per_flush": 0.0, "bound": "commits"}
    group = max(1.0, commits * max(flush_latency_s, 0.0))
    bound = "commits"
    if users is not None and group > max(float(users), 1.0):
        group, bound = max(float(users), 1.0), "users"
    flushes = max(commits / group, rate / LOG_BLOCK_MAX_BYTES)
    if rate / LOG_BLOCK_MAX_BYTES >= commits / group:
        bound = "block"
    size = rate / flushes
    sectors = math.ceil(size / LOG_SECTOR_BYTES)
    return {
        "flushes": flushes,
        "bytes": rate,
        "write_kib": min(sectors * LOG_SECTOR_BYTES, LOG_BLOCK_MAX_BYTES) / 1024,
        "commits_per_flush": commits / flushes,
        "bound": bound,
    }
