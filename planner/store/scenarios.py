"""Saved scenarios per customer: the whole session (demand, design, what-if, SLA
and tier choices, cost assumptions, the existing system) as JSON with a schema
version, in an embedded SQLite database through SQLAlchemy 2, or any database
SQLAlchemy reaches (a team points ``HCIPLAN_DB`` at PostgreSQL).

Where: ``HCIPLAN_DB`` when set (a SQLAlchemy URL such as
``postgresql+psycopg://host/db``, or a file path for SQLite), else
``scenarios.db`` in the user's data directory (platformdirs).

Durability: every write is one transaction. On SQLite the database runs in WAL
mode with ``synchronous=FULL`` (a committed save survives a crash of the process
or the machine), writers take the write lock at the start of their transaction
(``BEGIN IMMEDIATE``: no two writers deadlock upgrading a read lock) and wait up
to :data:`BUSY_TIMEOUT_MS` for it, so concurrent saves queue instead of failing.

References
----------
SQLite, *Write-Ahead Logging* (https://sqlite.org/wal.html) and *PRAGMA synchronous*;
SQLAlchemy 2.0, *Serializable isolation / Savepoints / Transactional DDL* for pysqlite.
"""

from __future__ import annotations

import datetime as dt
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from sqlalchemy import DateTime, Integer, String, Text, UniqueConstraint, cast, create_engine, event, select
from sqlalchemy.exc import IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from planner.core.errors import format_validation_error, shown
from planner.core.jsonio import dumps, loads
from planner.store.session import (
    LINK_ID_CHARS,
    MAX_NAME_CHARS,
    MAX_SESSION_BYTES,
    SCHEMA_VERSION,
    NoScenarioError,
    ScenarioSession,
    StoreError,
    clean_name,
    migrate,
)

BUSY_TIMEOUT_MS = 60_000
ENV = "HCIPLAN_DB"
__all__ = [
    "SCHEMA_VERSION",
    "NoScenarioError",
    "ScenarioSession",
    "ScenarioStore",
    "StoreError",
    "migrate",
    "scenario_figures",
]


def _session_text(session: ScenarioSession | dict) -> str:
    """The session as the store keeps it (canonical JSON): a dict is migrated and validated
    first; refused in one line when invalid or larger than :data:`MAX_SESSION_BYTES`."""
    if isinstance(session, dict):
        try:
            session = ScenarioSession.model_validate(migrate(session))
        except ValidationError as exc:
            raise StoreError(format_validation_error(exc, "session")) from None
    session.validated()
    text = dumps(session.model_dump(mode="json"))
    if len(text.encode("utf-8")) > MAX_SESSION_BYTES:
        raise StoreError(f"the session is larger than {MAX_SESSION_BYTES:,} bytes", "session")
    return text


class _Base(DeclarativeBase):
    pass


class ScenarioRow(_Base):
    __tablename__ = "hciplan_scenarios"
    __table_args__ = (UniqueConstraint("customer", "name", name="uq_hciplan_scenario"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    customer: Mapped[str] = mapped_column(String(MAX_NAME_CHARS), index=True, default="")
    name: Mapped[str] = mapped_column(String(MAX_NAME_CHARS))
    schema_version: Mapped[int] = mapped_column(Integer)
    session_json: Mapped[str] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class LinkRow(_Base):
    """A session too long for an address, kept under a short id (the app's ``?id=`` links)."""

    __tablename__ = "hciplan_links"
    id: Mapped[str] = mapped_column(String(LINK_ID_CHARS), primary_key=True)
    schema_version: Mapped[int] = mapped_column(Integer)
    session_json: Mapped[str] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


def database_url(where: str) -> str:
    """A SQLAlchemy URL as given, or a file path as the URL of a SQLite file there."""
    return where if "://" in where else f"sqlite:///{Path(where).expanduser().resolve()}"


def default_url() -> str:
    """``HCIPLAN_DB`` (a URL, or a file path for SQLite), else the user's data directory."""
    env = os.environ.get(ENV, "").strip()
    if env:
        return database_url(env)
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("hciplan", appauthor=False))
    return f"sqlite:///{folder / 'scenarios.db'}"


def _sqlite_pragmas(engine) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn, _record):
        # pysqlite's own transaction handling off: SQLAlchemy's begin event issues BEGIN IMMEDIATE
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA journal_mode = WAL")
        cur.execute("PRAGMA synchronous = FULL")
        cur.execute("PRAGMA foreign_keys = ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn):
        conn.exec_driver_sql("BEGIN IMMEDIATE")


@lru_cache(maxsize=8)
def _engine(url: str):
    try:
        if url.startswith("sqlite"):
            path = url.split("///", 1)[-1]
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})
            _sqlite_pragmas(engine)
        else:
            engine = create_engine(url, pool_pre_ping=True)
        with engine.begin() as conn:
            _Base.metadata.create_all(conn, checkfirst=True)
    except ImportError as exc:  # a URL whose driver is not installed (postgresql:// without psycopg)
        raise StoreError(
            f"cannot open the scenario database: its driver is not installed ({exc.name or exc})", "database"
        ) from None
    except (SQLAlchemyError, OSError, ValueError) as exc:
        raise StoreError(f"cannot open the scenario database ({_reason(exc)})", "database") from None
    return engine


def _reason(exc: Exception) -> str:
    text = str(getattr(exc, "orig", None) or exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:200]


def _clean(text: str | None, what: str, allow_empty: bool = False) -> str:
    s = clean_name(text)
    if not s and not allow_empty:
        raise StoreError("must not be empty", what)
    if len(s) > MAX_NAME_CHARS:
        raise StoreError(f"at most {MAX_NAME_CHARS} characters (got {len(s)})", what)
    return s


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class ScenarioStore:
    """Save, list, reopen, duplicate, compare and delete scenarios (see the module doc)."""

    def __init__(self, url: str | None = None):
        self.url = database_url(url) if url else default_url()
        self.engine = _engine(self.url)

    # ---------------------------------------------------------------- writes
    def _write(self, fn):
        try:
            with Session(self.engine) as s, s.begin():
                return fn(s)
        except IntegrityError:
            raise StoreError("a scenario of that name already exists for this customer", "name") from None
        except OperationalError as exc:
            raise StoreError(f"the database refused the write ({_reason(exc)})", "database") from None

    def save(self, name: str, session: ScenarioSession | dict, customer: str = "", overwrite: bool = True) -> dict:
        """Save (or with ``overwrite`` replace) a scenario; returns its listing entry."""
        name, customer = _clean(name, "name"), _clean(customer, "customer", allow_empty=True)
        text = _session_text(session)

        def fn(s):
            row = s.scalar(select(ScenarioRow).where(ScenarioRow.customer == customer, ScenarioRow.name == name))
            now = _now()
            if row is None:
                row = ScenarioRow(
                    customer=customer,
                    name=name,
                    schema_version=SCHEMA_VERSION,
                    session_json=text,
                    created_at=now,
                    updated_at=now,
                )
                s.add(row)
            elif not overwrite:
                raise StoreError(f"a scenario {shown(name)} already exists{self._for(customer)}", "name")
            else:
                row.session_json, row.schema_version, row.updated_at = text, SCHEMA_VERSION, now
            s.flush()
            return self._entry(
                row.customer, row.name, row.schema_version, row.session_json, str(row.created_at), str(row.updated_at)
            )

        return self._write(fn)

    def save_link(self, session: ScenarioSession | dict) -> str:
        """Keep a session under a short id (the same session, the same id) and return the id."""
        import base64
        import hashlib

        text = _session_text(session)
        digest = hashlib.sha256(text.encode("utf-8")).digest()
        link_id = base64.urlsafe_b64encode(digest).decode("ascii")[:LINK_ID_CHARS]

        def fn(s):
            if s.get(LinkRow, link_id) is None:
                s.add(LinkRow(id=link_id, schema_version=SCHEMA_VERSION, session_json=text, created_at=_now()))
            return link_id

        try:
            with Session(self.engine) as s, s.begin():
                return fn(s)
        except IntegrityError:  # another process kept the same session under the same id first
            return link_id
        except OperationalError as exc:
            raise StoreError(f"the database refused the write ({_reason(exc)})", "database") from None

    def get_link(self, link_id: str) -> dict:
        """The session kept under ``link_id`` (migrated to the current schema)."""
        if (
            not isinstance(link_id, str)
            or len(link_id) != LINK_ID_CHARS
            or not all(c.isascii() and (c.isalnum() or c in "-_") for c in link_id)
        ):
            raise StoreError(f"not a link id: {shown(str(link_id)[:40])}", "id")

        def fn(s):
            row = s.get(LinkRow, link_id)
            if row is None:
                raise StoreError(f"no scenario kept under the id {shown(link_id)} in this scenario database", "id")
            return migrate(loads(row.session_json, "session", StoreError, MAX_SESSION_BYTES))

        return self._read(fn)

    def delete(self, name: str, customer: str = "") -> None:
        name, customer = _clean(name, "name"), _clean(customer, "customer", allow_empty=True)

        def fn(s):
            row = s.scalar(select(ScenarioRow).where(ScenarioRow.customer == customer, ScenarioRow.name == name))
            if row is None:
                raise self._missing(s, name, customer)
            s.delete(row)

        self._write(fn)

    def duplicate(self, name: str, new_name: str, customer: str = "", new_customer: str | None = None) -> dict:
        """A copy of a scenario under another name (and customer)."""
        doc = self.get(name, customer)
        target = customer if new_customer is None else new_customer
        return self.save(new_name, doc, target, overwrite=False)

    # ---------------------------------------------------------------- reads
    def _read(self, fn):
        try:
            with Session(self.engine) as s:
                return fn(s)
        except OperationalError as exc:
            raise StoreError(f"the database refused the read ({_reason(exc)})", "database") from None

    @staticmethod
    def _for(customer: str) -> str:
        return f" for customer {shown(customer)}" if customer else ""

    def _missing(self, s, name: str, customer: str) -> NoScenarioError:
        """No scenario ``name`` for ``customer``; where the name is saved for other customers, whose
        (``scenario show ceph`` said only "no scenario 'ceph'" for one saved for Acme: review 2026-11-29)."""
        others = s.scalars(
            select(ScenarioRow.customer).where(ScenarioRow.name == name, ScenarioRow.customer != customer)
        ).all()
        others = sorted(others)[:5]
        where = ", ".join(shown(c) if c else "no customer" for c in others)
        return NoScenarioError(
            f"no scenario {shown(name)}{self._for(customer)}"
            + (f"; a scenario of that name is saved for {'customer ' if others[0] else ''}{where}" if others else ""),
            "name",
            list(others),
        )

    @staticmethod
    def _entry(
        customer: str, name: str, version: int, session_json: str, created: str | None, updated: str | None
    ) -> dict:
        """One scenario's list entry from its raw columns. A row that cannot be read (its session or a timestamp
        damaged outside the app) is listed with ``unreadable`` saying why: one such row had made the whole list,
        the app's panel and `scenario list`, fail (hostile-input walk 2026-11-30)."""

        def stamp(t: str | None) -> str | None:
            if not t:
                return None
            d = dt.datetime.fromisoformat(str(t))
            return (d if d.tzinfo else d.replace(tzinfo=dt.UTC)).isoformat()

        out: dict = {"customer": customer, "name": name, "schema_version": version}
        try:
            doc = loads(session_json, "session", StoreError, MAX_SESSION_BYTES)
            demand, design = doc.get("demand") or {}, doc.get("design") or {}
            out.update(
                created_at=stamp(created),
                updated_at=stamp(updated),
                demand=demand.get("name") if isinstance(demand, dict) else None,
                design=design.get("name") if isinstance(design, dict) else None,
            )
        except (StoreError, ValueError, TypeError, AttributeError) as exc:
            # a timestamp fromisoformat refuses, or a session that is JSON but not an object
            reason = (
                exc.message
                if isinstance(exc, StoreError)
                else f"a damaged timestamp ({type(exc).__name__})"
                if isinstance(exc, ValueError)
                else f"a damaged session ({type(exc).__name__})"
            )
            out.update(created_at=None, updated_at=None, demand=None, design=None, unreadable=reason)
        return out

    def list(self, customer: str | None = None) -> list[dict]:
        """Every scenario (of ``customer`` when given), by customer then name."""

        def fn(s):
            # the timestamps as stored text, parsed here row by row (a damaged one failed the whole query)
            q = select(
                ScenarioRow.customer,
                ScenarioRow.name,
                ScenarioRow.schema_version,
                ScenarioRow.session_json,
                cast(ScenarioRow.created_at, String),
                cast(ScenarioRow.updated_at, String),
            ).order_by(ScenarioRow.customer, ScenarioRow.name)
            if customer is not None:
                q = q.where(ScenarioRow.customer == _clean(customer, "customer", allow_empty=True))
            return [self._entry(*r) for r in s.execute(q)]

        return self._read(fn)

    def get(self, name: str, customer: str = "") -> dict:
        """The stored session (migrated to the current schema) as a dict."""
        name, customer = _clean(name, "name"), _clean(customer, "customer", allow_empty=True)

        def fn(s):
            row = s.scalar(select(ScenarioRow).where(ScenarioRow.customer == customer, ScenarioRow.name == name))
            if row is None:
                raise self._missing(s, name, customer)
            return migrate(loads(row.session_json, "session", StoreError, MAX_SESSION_BYTES))

        return self._read(fn)

    def compare(self, a: str, b: str, customer: str = "", customer_b: str | None = None) -> dict:
        """Two scenarios side by side: their headline figures (:func:`scenario_figures`)
        and every input that differs (JSON paths)."""
        da, db = self.get(a, customer), self.get(b, customer if customer_b is None else customer_b)
        return {
            "a": {"name": a, **scenario_figures(da)},
            "b": {"name": b, **scenario_figures(db)},
            "inputs_that_differ": inputs_that_differ(da, db),
        }


#: a session's bookkeeping, not an input: the design a what-if started from (the CLI listed 15 differing inputs,
#: "/whatif/design_before/..." among them, where the app said 3; finance walk 2026-11-30)
NOT_INPUTS = ("/whatif/design_before",)


def inputs_that_differ(a: dict, b: dict) -> list[str]:
    """The JSON paths at which two stored sessions' inputs differ (``/design/nodes``), bookkeeping
    (:data:`NOT_INPUTS`) left out: one rule for the CLI's ``scenario compare`` and the app's dialog."""
    return [p for p in _differ(a, b) if not p.startswith(NOT_INPUTS)]


def _differ(a: Any, b: Any, path: str = "") -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b), key=str):
            out += _differ(a.get(k), b.get(k), f"{path}/{k}")
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [p for i, (x, y) in enumerate(zip(a, b)) for p in _differ(x, y, f"{path}[{i}]")]
    return [] if a == b else [path or "/"]


def scenario_figures(doc: dict) -> dict:
    """The headline figures of a stored session: the design, its capacity and performance
    under the session's workload (or the demand's), the whole cost and TCO."""
    from planner.commercial.pricing import CostAssumptions, UnbuiltRamError
    from planner.commercial.tco import TCO_YEARS, whole_cost
    from planner.models.demand import saved_demand
    from planner.models.design import Design
    from planner.models.workload import Workload
    from planner.results.report import evaluate_report
    from planner.sizing.checks import unpriced_words

    out: dict[str, Any] = {"demand": None, "design": None}
    demand = saved_demand(doc["demand"]) if doc.get("demand") else None
    if demand is not None:
        out["demand"] = {k: v for k, v in demand.summary().items() if k != "classes"}
    if not doc.get("design"):
        out["design_note"] = "the scenario holds no design"
        return out
    design = Design.model_validate(doc["design"])
    a = CostAssumptions.model_validate(doc["costs"]) if doc.get("costs") else CostAssumptions()
    if doc.get("workload"):
        workload = Workload.model_validate(doc["workload"])
    elif demand is not None and design.topology == "hyperconverged":
        from planner.engine.loads import demand_as_workload

        workload = demand_as_workload(demand, design.node_count)
    else:
        workload = None
    rep = evaluate_report(design, workload, degraded=False)
    try:
        cost: dict | None = whole_cost(design, demand, a)
    except UnbuiltRamError as exc:  # judged all the same (the memory rule fails it), its cost null with why
        cost, out["cost_note"] = None, unpriced_words(exc)
    out["design"] = design.name
    # which load the figures are of: a latency of 0.5129 ms read as evaluate's 0.5143 under another workload
    # (CLI review 2026-11-29)
    out["workload"] = workload.name if workload is not None else None
    if workload is None:
        out["workload_note"] = "no workload or hyperconverged demand: the figures are the capacity's only"
    elif not doc.get("workload"):
        out["workload_note"] = "the demand's own load on this design (its IOPS at once, an open load)"
    out["figures"] = {
        "usable_capacity_tb": rep.get("usable_capacity_tb"),
        "iops": rep.get("iops"),
        "vm_latency_ms": rep.get("vm_latency_ms"),
        # the whole cost, by the key `size` gives it (its cost_usd_per_month is the cluster alone: one key, one
        # meaning; performance walk 2026-12-01)
        "whole_usd_per_month": cost["monthly"]["total_usd_per_month"] if cost else None,
        "capex_usd": cost["capex_usd"] if cost else None,
        **{
            f"tco_{y}y_usd": next(t["total_usd"] for t in cost["tco"] if t["years"] == y) if cost else None
            for y in TCO_YEARS
        },
    }
    if demand is not None:
        # the design against the scenario's demand, as every page judges it: figures of a 9 TB design beside a
        # 216 TB demand said nothing (CLI review 2026-11-29)
        from planner.sizing.verdict import demand_verdict

        v = demand_verdict(design, demand, a)
        out["against_demand"] = (
            {"met": v["met"], "not_met": [d["key"] for d in v["dimensions"] if not d["met"]], "summary": v["summary"]}
            if v["judged"]
            else {"met": None, "met_note": v["note"]}
        )
    return out
