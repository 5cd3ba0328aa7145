"""A database as a DBA describes it (size, buffer pool, HammerDB rate): the
inputs the SLA and Compare pages share, and the hand-off from Compare to SLA."""

from __future__ import annotations

import streamlit as st

from hciplan_ui import inputs, state
from planner.models.database import (
    ENGINE_WORDS,
    EVERY_WAREHOUSE_NOTE,
    EVERY_WAREHOUSE_WORDS,
    HIT_GIVEN_IS,
    POOL_BELOW_GIVE,
    Database,
)

#: the SLA page's ways to describe a database
SLA_IO_MODE = "its IO (size, threads, block size, read share)"
SLA_DBA_MODE = "what a DBA knows (size, buffer pool, HammerDB rate)"
#: the Size page's way to describe its demand by databases (its other two: per tier, totals)
SIZE_DBA_MODE = "databases a DBA describes"
#: the SLA page's keys for these inputs
SLA_PREFIX = "sla_db_"
#: the Size page's (its DBA mode)
SIZE_PREFIX = "size_db_"


#: the rate the database inputs start from (NOPM), the shipped HammerDB demand's database
FIRST_NOPM = 20_000.0

#: the boxes' help: units and what each means (they had none; DBA review 2026-11-30)
SIZE_HELP = (
    "The database's data files, in decimal GB (1 GB = 10^9 bytes), as sys.database_files gives them. With a rate, "
    "it sets the warehouses the transactions spread over (HammerDB's 0.1 GB each); the transaction log and tempdb are "
    "counted beside it in the capacity."
)
POOL_HELP = (
    "SQL Server's buffer pool, in decimal GB: the memory that caches data pages (max server memory less SQL Server's "
    "other memory). With the database's size and rate it decides how many reads reach storage. The VM's RAM is this "
    "and what Windows and SQL Server need beside it."
)
HIT_HELP = (
    "Your measured buffer-pool hit ratio, 0-1, to replace the model's: the share of the row lookups' pages found in "
    "the pool (1 - page reads / row lookups). Not perfmon's Buffer cache hit ratio, which counts the index root and "
    "intermediate pages too and reads about 99 % on most servers. 0: the model's own (HammerDB TPROC-C's pages)."
)
#: the engine the DBA modes model, said where the database is described (a PostgreSQL database became SQL Server
#: without a word; PostgreSQL/MySQL DBA walk, stop 55): the library's sentence, with where this page takes IO
SLA_ENGINE_CAPTION = ENGINE_WORDS[0].upper() + ENGINE_WORDS[1:] + " (the first choice above)."
SIZE_ENGINE_CAPTION = (
    ENGINE_WORDS[0].upper() + ENGINE_WORDS[1:] + " (the totals mode, or a database list with peak IOPS)."
)
#: the model's central assumption, said plainly where a database is given by its rate (it was in the CLI's note
#: alone; DBA review 2026-11-30)
TPROC_C_WORDS = (
    "A rate given as NOPM or TPM is modelled with HammerDB TPROC-C's schema and transactions: an ERP's or any other "
    "application's TPM reads as TPROC-C's page accesses unless you give its measured hit ratio."
)


def basics(
    prefix: str, columns=None, rate_label: str | None = None, kind_label: str = "Rate as HammerDB reports it"
) -> tuple[dict, list]:
    """Size, buffer pool and HammerDB rate in one row of four columns (``columns``: the caller's, at
    least four), keyed ``<prefix>size_gb``, ``buffer_pool_gb``, ``rate_kind`` and ``rate``; the rate's
    box is labelled with its kind, or ``rate_label`` (in a form, where a label cannot follow the kind
    until the form is sent), the kind's with ``kind_label``. Every value is kept across pages
    (:func:`inputs.keep`).
    Returns the :class:`Database` fields they give and ``(column, error)``
    per number input (the caller shows the errors). The SLA, Compare and Size pages share it."""
    c = columns if columns is not None else st.columns(4)
    inputs.keep(f"{prefix}rate_kind")
    B = lambda f: inputs.model_bounds(Database, f)
    size, e0 = inputs.number(
        c[0], "Database size, GB", f"{prefix}size_gb", B("size_gb"), unit="GB", default=1000.0, help=SIZE_HELP
    )
    bp, e1 = inputs.number(
        c[1],
        "Buffer pool, GB",
        f"{prefix}buffer_pool_gb",
        B("buffer_pool_gb"),
        unit="GB",
        default=128.0,
        help=POOL_HELP,
    )
    kind = c[2].selectbox(
        kind_label,
        ["NOPM", "TPM"],
        key=f"{prefix}rate_kind",
        help="NOPM: new orders per minute; TPM: HammerDB's transactions per minute, on SQL Server its batch requests",
    )
    # 20,000 NOPM: the database of examples/demand-hammerdb.json (1 TB, a 128 GB buffer pool), so the three
    # pages start from one database; at 200,000 the SLA page's first figure was a warning that its 16 vCPUs
    # carry 217,660 of the 464,646 TPM asked (review 2026-11-29)
    # its kind as the unit of its echo and its errors: "20,000" stood under "HammerDB rate" alone (browser walk
    # 2026-12-01)
    rate, e3 = inputs.number(
        c[3], rate_label or kind, f"{prefix}rate", B(kind.lower()), unit=kind, default=FIRST_NOPM, format="%.0f"
    )
    fields = {
        "size_gb": size,
        "buffer_pool_gb": bp,
        "nopm": rate if kind == "NOPM" else None,
        "tpm": rate if kind == "TPM" else None,
    }
    return fields, [(c[0], e0), (c[1], e1), (c[3], e3)]


def hit_ratio(prefix: str, container) -> tuple[float | None, str | None]:
    """The measured buffer-pool hit ratio box (``<prefix>buffer_hit_ratio``; 0: the model's own), as the CLI's
    ``buffer_hit_ratio``: the SLA and Size pages had none (DBA review 2026-11-30). Returns (the ratio or None, error)."""
    v, e = inputs.number(
        container,
        "Measured hit ratio (0 = model)",
        f"{prefix}buffer_hit_ratio",
        inputs.model_bounds(Database, "buffer_hit_ratio"),
        format="%.4f",
        default=0.0,
        help=HIT_HELP,
    )
    return (float(v) if v else None), e


#: the library's words that name the database file's fields ("buffer_hit_ratio", "virtual_users"), in the words of
#: the SLA and Size pages' boxes, which have no box of that name (DBA walk 2026-12-03: "give it as buffer_hit_ratio"
#: under a box labelled Measured hit ratio)
PAGE_WORDS = {
    EVERY_WAREHOUSE_NOTE: f"no measured hit ratio given, so {EVERY_WAREHOUSE_WORDS}: give it in Measured hit ratio to "
    "replace it (or a HammerDB run's virtual users, on the Compare page)",
    POOL_BELOW_GIVE: "measure the hit ratio and give it in Measured hit ratio (or a HammerDB run's virtual users, on "
    "the Compare page)",
    HIT_GIVEN_IS: "Measured hit ratio is the share of the row lookups' pages found in the pool (1 - page reads / row "
    "lookups), so it reads lower",
}


def page_words(text: str) -> str:
    """``text`` (a database's note or warning) with the words that name its file's fields in the page's
    (:data:`PAGE_WORDS`)."""
    for lib, page in PAGE_WORDS.items():
        text = text.replace(lib, page)
    return text


def reads_words(note: str) -> str:
    """How the reads are modelled, for a page: the demand's ``buffer_hit_note`` in the page's words
    (:func:`page_words`) and the plain statement of the model's central assumption (:data:`TPROC_C_WORDS`)."""
    return f"How its reads are modelled: {page_words(note)}. {TPROC_C_WORDS}"


def _put(prefix: str, db: Database, peak: bool) -> None:
    """``db``'s size, buffer pool and rate, and whether its peak is asked, in the :func:`basics` boxes of
    ``prefix`` (the size in GB whichever way the description gives it)."""
    kind = "NOPM" if db.nopm is not None else "TPM"
    for k, v in (
        ("size_gb", db.data_gb),
        ("buffer_pool_gb", db.buffer_pool_gb),
        ("rate_kind", kind),
        ("rate", db.nopm if kind == "NOPM" else db.tpm),
        ("peak", peak),
        ("buffer_hit_ratio", db.buffer_hit_ratio or 0.0),
    ):
        st.session_state[f"{prefix}{k}"] = v


def send_to_compare(db: Database, peak: bool) -> None:
    """Put ``db`` in the Compare page's database description (its ``db_`` boxes): after a sizing of a DBA
    demand, that page began at its own 1,000 GB / 128 GB database while the SLA page showed the sized one
    (browser review 2026-11-30). The assumptions it gives are set too; those it leaves to the model stay 0."""
    from planner.models.database import ASSUMPTION_FIELDS

    _put("db_", db, peak)
    for f in ASSUMPTION_FIELDS:
        v = getattr(db, f, None)
        if f in db.model_fields_set and v is not None:
            st.session_state[f"db_{f}"] = v


def send_to_sla(db: Database, peak: bool) -> None:
    """Put ``db`` (with every assumption it carries) on the SLA page, in its DBA mode."""
    state.set_sla_database(db.model_dump_json())
    st.session_state["sla_by"] = SLA_DBA_MODE
    _put(SLA_PREFIX, db, peak)
