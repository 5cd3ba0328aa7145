"""How much of a database a design carries: the most transactions per minute its database
servers sustain, and what binds them.

Each database server runs one database of the description (the unified
:class:`planner.models.database.Database`). At a trial rate of ``x`` transactions per
second per server, three things must hold:

* **the database's own CPU**: ``x (c + n_io g) <= vCPUs``, where ``c`` is the fitted
  core-microseconds per TPM transaction (SQL Server's work) and ``n_io g`` the guest IO
  stack's CPU per transaction (the S2D fit's guest CPU per IO, at the VM's clock);
* **the storage**: the design carries the servers' IO (:func:`planner.models.database.io_demand`
  at that rate: page reads, checkpoint and lazy-writer writes, log flushes with group commit)
  without saturating, evaluated by the same report every page shows
  (:func:`planner.results.report.evaluate_report`, any topology);
* **the users** (when the description names HammerDB's virtual users, who have no think
  time): ``x <= U / R(x)``, Little's law for the closed loop, where a call's response time
  ``R`` is its CPU time (queued on the vCPUs) plus the page reads it waits for at the
  storage's read latency plus, for a committing call, the log flush it waits for.

The largest ``x`` that meets all three is found by bisection (each constraint is monotone
in ``x``); the constraint that stops it is the ``binding`` resource.
"""

from __future__ import annotations

import math

from planner.core import minimums as M
from planner.core.errors import PlannerError
from planner.core.text import count, decimals_apart, first_lower, pct, tidy
from planner.engine.performance import LATENCY_NAMES, PACING_POLICIES, station_raises, station_words
from planner.models import oltp
from planner.models.catalog import Catalog, Cpu, load_catalog
from planner.models.database import (
    ASSUMED_LOG_WRITE_LATENCY_MS,
    CPU_BOUND,
    POOL_BEYOND_DATA,
    STEPS,
    Database,
    IoDemand,
    buffer_pool_for_ram_gb,
    cpu_s_per_call,
    cpu_us_per_txn,
    io_demand,
    oltp_calibration,
    response_time_s,
    users_limited_tps,
    users_rate,
    vm_ram_gb,
    workload_iops,
)
from planner.models.design import Design, lookup_part
from planner.models.params import ModelParams, default_params
from planner.models.workload import Workload
from planner.physics.cpu import guest_us_per_io as cpu_guest_us
from planner.results.report import evaluate_report

#: what raises a database's maximum, by what binds it (:func:`database_capacity`): a DBA asks whether to buy cores or
#: drives (DBA walk 2026-11-30)
RAISES_IT = {
    "database_vcpus": "a database VM of more vCPUs (or of faster cores)",
    # a VM given every logical processor of its server has no more vCPUs to run (DBA walk 2026-11-30: 48, 64 and 128
    # vCPUs on a 48-processor server were told "a database VM of more vCPUs")
    "server_cores": "faster cores, or servers of more cores (the VM runs on every logical processor of its server "
    "already)",
    "virtual_users": "more virtual users (the rate is users over their response time)",
    "storage": "more of the storage's busiest part (more nodes, or faster CPUs, drives or network)",
    "capacity": "more usable capacity (more or larger drives, more nodes, or a more efficient resiliency)",
    "ram": "a buffer pool the server's RAM holds, or a server with more RAM",
}


def raises_it(
    binding: str, busiest: str | None, throttle: str | None, raises: dict[str, str], whole_server: bool = False
) -> str:
    """What raises the maximum (:data:`RAISES_IT`); the storage's, by its busiest station's own words
    (``raises``, :func:`~planner.engine.performance.station_raises`: a RAID controller, a JBOD tier, a share of
    CPU reserved for storage), and by the policy that throttles the IO first (``throttle``: the CPU
    utilisation cap or the per-VM IOPS limit). The vCPUs' bound with ``whole_server`` (the VM runs on every
    logical processor of its server): faster or more cores per server, not a larger VM."""
    if binding == "database_vcpus" and whole_server:
        return RAISES_IT["server_cores"]
    if binding != "storage":
        return RAISES_IT[binding]
    part = raises.get(busiest or "", RAISES_IT["storage"])
    return f"{raises[throttle]}, or {part}" if throttle in raises else part


#: fixed-point steps on a count of virtual users (:func:`users_needed`): the demand moves little with the count
USERS_STEPS = 20


class DatabaseCapacityError(PlannerError):
    pass


def _vm_server(design: Design):
    """The design's entry (CPU set, RAM) of the servers the database's vCPUs run on: the database servers', or the
    nodes'."""
    t = design.topology
    return {
        "disaggregated": lambda: (
            design.clients.server if design.clients is not None else design.disaggregated_spec.db_server
        ),
        "split": lambda: design.split_spec.compute_node,
        "single-server": lambda: design.single_server_spec.server,
    }.get(t, lambda: design.node_spec)()


def _vm_cpu_spec(design: Design):
    """The design's CPU entry (model and sockets) of the servers the database's vCPUs run on."""
    return _vm_server(design).cpu


def vm_server_ram_gb(design: Design) -> float:
    """RAM of one server the database runs on [GB] (the database servers', or the nodes')."""
    return float(_vm_server(design).ram_gb)


def _vm_cpu(design: Design, catalog: Catalog) -> Cpu:
    """The CPU record the database's vCPUs run on (the database servers' or the nodes')."""
    # a catalog id, or an inline spec (its own record: a dict key lookup would fail on it)
    return lookup_part(catalog, "cpu", _vm_cpu_spec(design).model, "cpu.model")


def server_logical_processors(design: Design, catalog: Catalog) -> int:
    """Logical processors of one server the database runs on (its CPUs' threads x sockets): the most
    vCPUs of one database that can run at once, however many the VM is given."""
    return int(_vm_cpu(design, catalog).threads * _vm_cpu_spec(design).sockets)


def runnable_vcpus(vcpus: int, lps: int) -> tuple[int, str | None]:
    """A VM's vCPUs that can run at once on a server of ``lps`` logical processors, and why fewer than it has
    (None when all can): a VM of 48 vCPUs on a server of 12 logical processors ran as 48 (review
    2026-11-29), 4x the server. One rule for the rate, the capacity and the guarantee."""
    if vcpus <= lps:
        return vcpus, None
    return lps, (
        f"the database's {count(vcpus, 'vCPU')} run on a server of {count(lps, 'logical processor')}: "
        f"at most {lps} run at once, and they are counted so"
    )


def vcpu_share_iops(vcpus: int, lps: int, vcpu_oversubscription: float, guest_us_per_io: float) -> float:
    """The IOPS a database VM issues at most when every host is sold to its vCPU oversubscription [IOPS].

    Parameters
    ----------
    vcpus : int
        The VM's vCPUs (at most ``lps`` run at once, :func:`runnable_vcpus`).
    lps : int
        Logical processors of the server it runs on.
    vcpu_oversubscription : float
        vCPUs sold per logical processor: each vCPU keeps 1/oversubscription of one.
    guest_us_per_io : float
        The guest IO stack's CPU per IO at that server's clock [us].

    Returns
    -------
    float
        The most IOPS the VM's vCPU share issues [IOPS].

    Notes
    -----
    Utilisation law, U = X S (Denning & Buzen, 1978) with U the VM's share of logical processors. One rule
    for the SLA's ``vm_vcpu_share`` bound and the tiers' fit: a tier of 2 vCPUs was priced at 100,000
    guaranteed IOPS where one such VM issues 11,066 (pricing review 2026-11-30).

    References
    ----------
    Denning, P. J. and Buzen, J. P. (1978). The operational analysis of queueing network models.
    ACM Computing Surveys 10(3), 225-261.
    """
    runnable, _ = runnable_vcpus(vcpus, lps)
    return (runnable / vcpu_oversubscription) / max(guest_us_per_io * 1e-6, 1e-12)


def users_needed(db: Database, latency_ms: float, vcpus: float, guest_us_per_io: float) -> int | None:
    """The fewest virtual users with no think time that reach ``db``'s rate with their IO served at
    ``latency_ms`` [-], each count with its own IO demand: Little's law at the rate asked, N >= X R_N(X), with the
    response time :func:`users_limited_tps` solves with (its arguments as there). None when the vCPUs do not
    carry the rate: no count of users reaches it (the response time has no bound there).

    The demand moves with the count (one user's commits share no log flush, so each call carries more IO, and
    more CPU for it, than fifteen users' do), so the count is found as a fixed point of N -> ceil(X R_N(X)),
    then lowered while one fewer still reaches the rate: :func:`users_limited_tps` of that many users is the rate
    asked or more, and of one fewer less. The SLA page said "at least 13 vCPUs" of a 16-vCPU VM that its one
    user held back (DBA walk 2026-11-30)."""
    x = float(db.transactions_per_s)

    def asks(n: int) -> float | None:  # X R_n(X): the users Little's law asks at the rate, with n users' IO
        d = io_demand(db.model_copy(update={"virtual_users": n}), log_write_latency_ms=latency_ms)
        cs = cpu_s_per_call(db, d, guest_us_per_io)
        if x * cs >= vcpus:
            return None
        return x * response_time_s(d, cs, max(math.ceil(vcpus), 1), x, latency_ms, latency_ms)

    n = int(db.virtual_users or 1)
    for _ in range(USERS_STEPS):
        w = asks(n)
        if w is None:
            return None
        m = max(1, math.ceil(w - 1e-9))
        if m == n:
            break
        n = m
    while (w := asks(n)) is not None and n < w - 1e-9:  # not converged: up to a count that reaches the rate
        n += 1
    while n > 1 and (w := asks(n - 1)) is not None and n - 1 >= w - 1e-9:  # the fewest that do
        n -= 1
    return n


#: how a reader of the CLI's JSON gives the database VM's vCPUs
GIVE_VCPUS = "give vcpus"


def vm_vcpus_words(db: Database, unset: str = GIVE_VCPUS) -> str:
    """The database VM's vCPUs in words, saying when the count is the default, and ``unset``: how to give it
    there. `db-io` said "against the database VM's 16 vCPUs" of a description that gave none (DBA walk
    2026-11-30)."""
    return (
        f"the database VM's {count(db.vcpus, 'vCPU')}"
        if db.vcpus is not None
        else f"the default {count(db.vm('vcpus'), 'vCPU')} ({unset})"
    )


def rate_warnings(db: Database, d, lat_ms: float | None = None, unset_vcpus: str = GIVE_VCPUS) -> list[str]:
    """What keeps ``db`` (its IO demand ``d``) from its rate whatever the storage: its virtual users, each
    waiting for its IO (Little's law, :func:`planner.models.database.users_rate`), and the log writes
    SQL Server keeps in flight (:data:`planner.models.oltp.LOG_WRITES_IN_FLIGHT_MAX`). `db-io` printed 7,744
    transactions a second for one virtual user at 1 ms an IO, and 250 log writes a second at 1 s each
    with no word (CLI review 2026-11-30); `sla --database` bounded the first. ``lat_ms`` [ms]: the IO and log-write
    latency (default :data:`planner.models.database.ASSUMED_LOG_WRITE_LATENCY_MS`); ``unset_vcpus``: how to give the
    VM's vCPUs where the description does not (:func:`vm_vcpus_words`)."""
    lat = ASSUMED_LOG_WRITE_LATENCY_MS if lat_ms is None else lat_ms
    tps = d.transactions_per_s
    out = []
    if db.virtual_users is not None and tps > 0:
        # no design: its VM's vCPUs whole, and no clock to count the guest IO stack's CPU at (0); the words say so,
        # beside the guarantee's figure that counts both (DBA walk 2026-11-30)
        vcpus = db.vm("vcpus")
        most = users_limited_tps(db, d, lat, vcpus, 0.0)
        if tps > most * (1 + 1e-9):
            users = users_needed(db, lat, vcpus, 0.0)
            out.append(
                f"with {count(db.virtual_users, 'virtual user')} and no think time the database reaches at most "
                f"{most * 60:,.0f} TPM when an IO takes {lat:g} ms, below the {tps * 60:,.0f} TPM asked: "
                + (f"at least {count(users, 'virtual user')}" if users is not None else "more vCPUs and users")
                + ", or a lower rate. By Little's law each user waits for its own CPU, IO and commit: SQL Server's CPU "
                f"on {vm_vcpus_words(db, unset_vcpus)}, the guest IO stack's not counted (a design's clock sets it)"
            )
    in_flight = d.log_flushes_per_s * lat / 1e3
    if in_flight > oltp.LOG_WRITES_IN_FLIGHT_MAX:
        most = oltp.LOG_WRITES_IN_FLIGHT_MAX / in_flight * tps * 60
        out.append(
            f"the log keeps {in_flight:,.0f} writes in flight at {lat:g} ms a write, above the "
            f"{oltp.LOG_WRITES_IN_FLIGHT_MAX} SQL Server allows: the log carries at most about {most:,.0f} TPM at that "
            "latency"
        )
    return out


def sql_server_cores_busy(db: Database, d) -> float:
    """The cores ``db``'s rate keeps busy with SQL Server's own work [cores], its IO demand ``d``: the guest IO
    stack's CPU is not counted (it depends on the VM's clock, which a database alone does not have)."""
    return float(d.transactions_per_s * cpu_s_per_call(db, d, 0.0))


def sql_server_cores_note(db: Database, d) -> str:
    """What :func:`sql_server_cores_busy` counts, and against which vCPUs (the default said as one)."""
    return (
        f"SQL Server's own work at {d.cpu_us_per_txn:,.0f} core-microseconds per transaction (the guest IO stack's "
        f"CPU not counted), against {vm_vcpus_words(db)}"
    )


def database_warnings(db: Database, d, lat_ms: float | None = None, unset_vcpus: str = GIVE_VCPUS) -> list[str]:
    """Every warning of ``db``'s IO demand ``d`` without a design: the cores its rate keeps busy beyond its VM's
    vCPUs, what keeps it from its rate whatever the storage (:func:`rate_warnings`) and a buffer hit ratio outside
    the model's range. One list for `db-io` and the Compare page: the page showed the last alone beside 1 virtual
    user at 7,744 transactions a second (DBA walk 2026-11-30). ``lat_ms`` [ms] and ``unset_vcpus`` as
    :func:`rate_warnings` takes them."""
    cores, vcpus = sql_server_cores_busy(db, d), db.vm("vcpus")
    # 1e9 NOPM printed 547 M IOPS and nothing of the ~13,000 cores its transactions keep busy against a 16-vCPU VM
    # (CLI review 2026-11-30)
    out = (
        [
            f"this rate keeps {cores:,.1f} cores busy with SQL Server's work alone, more than {vm_vcpus_words(db, unset_vcpus)}: "
            "no VM of this size carries it (the most a design's VM sustains: `sla --database`, or the SLA page)"
        ]
        if cores > vcpus
        else []
    )
    return out + rate_warnings(db, d, lat_ms, unset_vcpus) + buffer_warnings(db, d)


def buffer_warnings(db: Database, d) -> list[str]:
    """The warnings of ``db``'s buffer pool as given, whatever its rate and design: a pool beyond the data (RAM that
    holds nothing) and a hit ratio outside the model's range. Part of :func:`database_warnings`, and the sizer's own
    (the Size page sized 5,718 GB VMs for a 5,000 GB pool over a 500 GB database without a word; browser walk
    2026-12-01)."""
    out = []
    pool, size = float(db.buffer_pool_gb or 0.0), db.data_gb
    if pool > POOL_BEYOND_DATA * size:
        # RAM bought for nothing: `db-io`'s note said "450 GB of the pool hold nothing", the Compare page nothing (DBA
        # walk 2026-11-30)
        # the threshold said: "more than the 500 GB database" fired only above 1.5 times it, so a 600 GB pool, more
        # than the database too, had no word (stop 55 DBA walk)
        out.append(
            f"the {pool:,.0f} GB buffer pool is more than {POOL_BEYOND_DATA:g} times the {tidy(size, 3)} GB database: "
            f"{pool - size:,.0f} GB of it hold nothing until the database grows (a pool up to {POOL_BEYOND_DATA:g} "
            "times the data is taken as a DBA's margin for growth and not warned of)"
        )
    return out + ([d.buffer_hit_warning] if d.buffer_hit_warning else [])


def throttled_at(rep: dict) -> bool:
    """Whether a policy (the CPU utilisation cap, a per-VM IOPS limit) throttles the IO of ``rep``."""
    return rep.get("limited_by") in PACING_POLICIES


def _storage(design, db, x, servers, catalog, params, log_ms, held_gb: float | None = None, figures_only: bool = False):
    """The design's report under ``servers`` databases at ``x`` calls/s each (its figures alone with
    ``figures_only``: a search's trial rate, :func:`planner.results.report.evaluate_report`).

    The load is open (no VM population: one issuer), so its working set is the servers' databases together, up to
    ``held_gb`` [GB], the storage's usable capacity: no storage holds more (a load past it is no rate at all,
    :func:`_unless_it_does_not_fit`). A 340 TB database on three servers asked a 1,020,000 GB working set of a
    9 TB design and ended in a validation traceback (DBA walk 2026-11-30)."""
    d = io_demand(db.with_rate(x), log_write_latency_ms=log_ms)
    bs, rf, rnd = d.shape()
    data_gb = db.data_gb * servers
    w = Workload(
        name=f"{servers} x {db.name}",
        description="database load (planner.commercial.database)",
        block_size_kib=bs,
        read_fraction=rf,
        random_fraction=rnd,
        # a rate too small for a workload runs at the least one takes (planner.core.minimums); one past the most
        # is one line (workload_iops), not a traceback (performance walk 2026-12-01)
        iops=workload_iops(max(d.iops * servers, M.MIN_IOPS), db.name, peak=False),
        working_set_gb_per_vm=max(min(data_gb, held_gb) if held_gb is not None else data_gb, M.MIN_WORKING_SET_GB),
    )
    rep = evaluate_report(design, w, catalog=catalog, degraded=False, params=params, figures_only=figures_only)
    return d, rep


def _storage_settled(
    design, db, x, servers, catalog, params, log_ms, held_gb: float | None = None, figures_only: bool = False
):
    """:func:`_storage` with the log flush at the write latency the load itself causes: the VM's write latency
    (else the storage's) fed back into group commit, three fixed-point steps. Returns ``(demand, report,
    log_ms)``; ``log_ms`` stays the one given where the report has no latency (a saturated station)."""
    for _ in range(3):
        d, rep = _storage(design, db, x, servers, catalog, params, log_ms, held_gb, figures_only)
        w = rep.get("vm_write_latency_ms") or rep.get("write_latency_ms") or log_ms
        if abs(w - log_ms) < 1e-3 * max(w, 1e-6):
            break
        log_ms = w
    return d, rep, log_ms


def predicted_log_latency_ms(
    design: Design, db: Database, catalog: Catalog | None = None, params: ModelParams | None = None
) -> float | None:
    """The design's predicted write latency for this database's log at the rate it asks [ms]: the VM's write
    latency (else the storage's) with the database alone on one server, settled with the group commit it sets
    (:func:`_storage_settled`). None where the design predicts none (the database does not fit, or a station
    saturates at that rate).

    One rule for every result given a design: `sla --database` used it for the capacity (0.632 ms) and the
    assumed 1 ms for the demand it printed beside it, whose source said "the design's predicted write
    latency" (DBA review)."""
    if not db.has_workload:
        return None
    catalog = catalog or load_catalog()
    p = params or default_params()
    held_tb = design_usable_tb(design, catalog, p)
    if held_tb is not None and db.capacity_tb > held_tb:
        return None
    held_gb = None if held_tb is None else held_tb * 1000.0
    _d, rep, _log = _storage_settled(
        design, db, db.transactions_per_s, 1, catalog, p, ASSUMED_LOG_WRITE_LATENCY_MS, held_gb, figures_only=True
    )
    if rep.get("saturated", False):
        return None
    w = rep.get("vm_write_latency_ms") or rep.get("write_latency_ms")
    return float(w) if w else None


#: why a design gives a database's log no latency (:func:`predicted_log_latency_ms`)
NO_LOG_LATENCY = "the design predicts no write latency at this rate, the database not fitting or a station saturating"


def design_io_demand(
    design: Design, db: Database, catalog: Catalog | None = None, params: ModelParams | None = None
) -> tuple[IoDemand, float | None]:
    """The database's IO demand on ``design`` (:func:`planner.models.database.io_demand`), its log flushed at the
    design's predicted write latency (:func:`predicted_log_latency_ms`), else at the assumed 1 ms with why (its
    ``assumptions`` say which). Returns ``(demand, log_ms)``, ``log_ms`` [ms] None where assumed.

    One rule for `sla --database` and `compare --database`: the same database and design needed 133,863 IOPS in
    one (0.472 ms a flush, 2,118 flushes a second) and 132,746 in the other (the assumed 1 ms, 1,000 a second),
    with no word of the assumption (performance walk 2026-12-01)."""
    log_ms = predicted_log_latency_ms(design, db, catalog=catalog, params=params)
    return io_demand(
        db, log_write_latency_ms=log_ms, no_latency_why=None if log_ms is not None else NO_LOG_LATENCY
    ), log_ms


def guest_us_per_io(design: Design, catalog: Catalog, params: ModelParams) -> float:
    """The guest IO stack's CPU per IO at the database servers' clock [us]."""
    return float(cpu_guest_us(params, _vm_cpu(design, catalog).base_ghz))


def rate_carried(
    design: Design,
    db: Database,
    latency_ms: float,
    catalog: Catalog | None = None,
    params: ModelParams | None = None,
) -> dict:
    """Whether the database's own vCPUs and virtual users carry the rate it asks for, with its IO
    served at ``latency_ms`` [ms] (its latency target: the guarantee's promise).

    The IO guarantee says the storage serves the database's IO; a database also needs CPU for its
    own work (:func:`cpu_s_per_call`, the fit's core-microseconds per transaction) and, with a fixed
    number of virtual users, a response time short enough for its rate (Little's law:
    X <= users / R). The database's vCPUs are counted at
    :attr:`~planner.models.design.Design.database_vcpu_oversubscription`, as the guarantee counts them: shared where
    the cluster model hosts the VMs, the database server's own elsewhere.
    The sizer counts the same share (browser review 2026-11-28: the Size page counted a database's
    vCPUs whole and the SLA page shared them, and the same database got 11 and 42 vCPUs); its
    ``database_cpu`` rule holds, besides, the cores the databases keep busy on each node.

    Returns
    -------
    dict
        ``carried`` (bool), ``asked_tpm``, ``cpu_limited_tpm`` (the most the vCPUs carry),
        ``users_limited_tpm`` (None without ``virtual_users``), ``vcpus_counted``, ``vcpus_needed`` (the
        fewest vCPUs that carry its CPU work at the asked rate, counted as ``vcpus_counted`` counts them),
        ``users_needed`` (where the users bind, the fewest virtual users that reach it, :func:`users_needed`;
        else None, with its note), ``binding`` (which of ``vcpus`` and
        ``virtual_users`` stop the rate: empty when carried), ``needs`` (what the binding ones need, in words:
        "at least 13 vCPUs", "at least 16 virtual users"; None when carried) and ``note``.
    """
    catalog = catalog or load_catalog()
    p = params or default_params()
    d = io_demand(db, log_write_latency_ms=latency_ms)
    tps = d.transactions_per_s
    lps = server_logical_processors(design, catalog)
    vcpus, capped = runnable_vcpus(db.vm("vcpus"), lps)
    over = design.database_vcpu_oversubscription
    shared = over > 1
    counted = vcpus / over if shared else float(vcpus)
    guest_us = guest_us_per_io(design, catalog, p)
    cs = cpu_s_per_call(db, d, guest_us)
    cpu_tps = counted / cs
    users_tps = users = None
    if db.virtual_users is not None:
        users_tps = users_limited_tps(db, d, latency_ms, counted, guest_us)
    cpu_binds = tps > cpu_tps * (1 + 1e-9)
    users_bind = users_tps is not None and tps > users_tps * (1 + 1e-9)
    # the rate keeps the vCPUs wholly busy (the Datrium seed's fitted point, within rounding): the users stop short of
    # it because a wait has no bound at 100 % CPU, so the vCPUs are what binds, as database_capacity says ("binding:
    # virtual_users" here beside "database_vcpus" there for the same database; CLI walk 2026-12-01)
    cpu_full = users_bind and tps >= cpu_tps * (1 - 1e-6)
    # only where the users bind: each count asks its own IO demand (a model run; the sizer checks many designs)
    users = users_needed(db, latency_ms, counted, guest_us) if users_bind else None
    carried = not (cpu_binds or users_bind)
    why = []
    # its vCPUs as they are counted, for either bound's words
    on = f"its {count(vcpus, 'vCPU')}" + (
        f" (shared at {over:g}:1, "
        f"{count(int(counted) if counted.is_integer() else round(counted, 2), 'logical processor')})"
        if shared
        else ""
    )
    if cpu_binds:
        why.append(
            f"{on} carry at most {cpu_tps * 60:,.0f} TPM of SQL Server's work and its IO stack's"
            # two figures of one VM's vCPUs, named apart: the maximum (database_capacity) gave the same 8 vCPUs
            # 1,391,215 TPM beside this 340,886 with no word why (DBA walk 2026-11-30)
            + (
                # "gives a database server's VM its 8 its own" read garbled (browser walk 2026-12-01)
                f" (the guarantee's share of them; the most this design sustains counts a database server's VM's "
                f"{count(vcpus, 'vCPU')} as its own)"
                if shared
                else ""
            )
        )
    if users_bind and users_tps is not None and db.virtual_users is not None:
        why.append(
            # what it counts, beside `db-io`'s figure of the same database, which has no design's clock to count
            # the guest IO stack's CPU at (DBA walk 2026-11-30: 32,874 here, 33,785 there, with no word why)
            f"with {count(db.virtual_users, 'virtual user')} it reaches at most {users_tps * 60:,.0f} TPM at "
            f"{latency_ms:g} ms IO by Little's law, each call's CPU counted with the guest IO stack's on {on}"
        )
    needed = max(1, math.ceil(tps * cs * (over if shared else 1.0) - 1e-9))
    if not carried and needed > lps:
        # "needs at least 67 vCPUs" beside a server of 48 read as a VM size to buy (browser review 2026-11-29)
        why.append(f"no VM of the server's {lps} logical processors carries it")
    # what it needs, of the resource that binds only: "at least 13 vCPUs" of a 16-vCPU VM its one virtual user
    # held back (DBA walk 2026-11-30)
    needs = [
        *(
            [
                f"more vCPUs than the server's {lps} logical processors"
                if needed > lps
                else f"at least {needed} vCPUs"
                + (f" at the design's {over:g}:1 vCPU oversubscription" if shared else "")
            ]
            if cpu_binds
            else []
        ),
        *(
            [
                f"at least {count(users, 'virtual user')}"
                if users is not None
                else "more virtual users"
                if cpu_binds
                # the rate keeps the vCPUs wholly busy: a user's wait has no bound there, so no count of users
                # reaches it ("needs: more virtual users" beside "no count of users reaches it" on the Datrium seed,
                # its run at 100 % CPU; verification walk 2026-11-30)
                else f"more than {count(vcpus, 'vCPU')} (at this rate they are wholly busy, and no count of virtual "
                "users reaches it)"
            ]
            if users_bind
            else []
        ),
    ]
    note = (
        f"the database's own vCPUs and users carry its {tps * 60:,.0f} TPM"
        if carried
        else f"the database asks {tps * 60:,.0f} TPM but " + " and ".join(why)
    ) + (f" ({capped})" if capped else "")
    return {
        "carried": bool(carried),
        # the rate as given (d.tpm), not through transactions per second and back (2,000,000.0000000002)
        "asked_tpm": d.tpm,
        "cpu_limited_tpm": cpu_tps * 60.0,
        "users_limited_tpm": None if users_tps is None else users_tps * 60.0,
        **(
            {"users_limited_tpm_note": "no virtual_users given: the rate is not bounded by a user count"}
            if users_tps is None
            else {}
        ),
        "vcpus_counted": counted,
        # the fewest vCPUs whose share carries SQL Server's work at the asked rate (the users' bound aside)
        "vcpus_needed": needed,
        # the fewest virtual users that reach it, Little's law at the same latency, where the users bind
        "users_needed": users,
        **(
            {
                "users_needed_note": "no virtual_users given"
                if db.virtual_users is None
                else "the virtual users reach the rate"
                if not users_bind
                else "the vCPUs do not carry the rate: no count of users reaches it"
            }
            if users is None
            else {}
        ),
        "binding": [k for k, b in (("vcpus", cpu_binds or cpu_full), ("virtual_users", users_bind)) if b],
        "needs": " and ".join(needs) if needs else None,
        **({"needs_note": "carried: nothing more is needed"} if not needs else {}),
        **(
            {
                "vcpus_needed_note": f"more than the server's {lps} logical processors: no VM size carries this rate "
                "alone on one server"
            }
            if needed > lps
            else {}
        ),
        "note": note,
    }


def database_capacity(
    design: Design,
    db: Database,
    servers: int | None = None,
    catalog: Catalog | None = None,
    params: ModelParams | None = None,
) -> dict:
    """The most a design sustains of a database, summed over its database servers.

    Parameters
    ----------
    design : Design
        Any topology.
    db : Database
        Described by its workload (``nopm``/``tpm`` only set the description's IO options;
        the capacity searches the rate). ``vcpus`` is the database server's (or VM's) CPUs.
    servers : int, optional
        Database servers, each running one such database (default: :attr:`planner.models.design.Design.database_servers`).

    Returns
    -------
    dict
        ``max_tpm``, ``max_nopm`` (summed over the servers) with ``*_low``/``*_high`` bands,
        ``per_server_tpm``, ``binding`` (``database_vcpus``, ``virtual_users``, ``storage``),
        ``binding_note``, ``read_latency_ms``/``write_latency_ms`` (storage) and
        ``vm_read_latency_ms``/``vm_write_latency_ms`` at that point with their bands (null, each with its
        ``<key>_note``, when an open load stops at a station's saturation: no latency there),
        ``vcpu_utilization``, ``iops``, ``bandwidth_mb_s``, ``bottleneck`` (the storage's
        busiest station) and the per-server IO demand (``io``).
    """
    if db.buffer_pool_gb is None:
        raise DatabaseCapacityError(
            "describe the database by its workload: buffer_pool_gb (and nopm or tpm)", "database"
        )
    catalog = catalog or load_catalog()
    p = params or default_params()
    held_tb = design_usable_tb(design, catalog, p)
    held_gb = None if held_tb is None else held_tb * 1000.0
    n, servers_note = (
        (servers, None)
        if servers
        else servers_held(design.database_servers, db.capacity_tb, held_tb, db.beside_data(plural=True))
    )
    server_lps = server_logical_processors(design, catalog)
    vcpus, capped = runnable_vcpus(db.vm("vcpus"), server_lps)
    cpu = _vm_cpu(design, catalog)
    guest_us = guest_us_per_io(design, catalog, p)
    hosted = design.topology == "hyperconverged"
    lps = cpu.threads * design.node_spec.cpu.sockets if hosted else 0

    def cpu_s(d) -> float:  # core-seconds per call: SQL Server's work and the guest IO stack's
        return cpu_s_per_call(db, d, guest_us)

    # the CPU bound alone, then every constraint at trial rates below it
    d0 = io_demand(db.with_rate(1000.0))
    x_cpu = vcpus / cpu_s(d0)
    for _ in range(3):  # IO per call moves a little with the rate (checkpoints, group commit)
        x_cpu = vcpus / cpu_s(io_demand(db.with_rate(x_cpu)))

    def check(x: float, log_ms: float = ASSUMED_LOG_WRITE_LATENCY_MS, figures_only: bool = True):
        # the log flush waits for the write latency the load itself causes; a trial rate reads the report's figures
        # alone, the rate found its whole report (its stations' words, what raises it)
        d, rep, log_ms = _storage_settled(design, db, x, n, catalog, p, log_ms, held_gb, figures_only)
        # a policy that throttles the storage IO (the CPU utilisation cap, a per-VM IOPS limit) carries less
        # than the database asks, however low its latency: the rate is not sustained (as a saturated station)
        ok_storage = not rep.get("saturated", False) and not throttled_at(rep)
        ok_cpu = x * cpu_s(d) <= vcpus * (1 + 1e-9)
        if hosted and ok_storage:
            # hyperconverged: the databases' vCPUs and the storage stack share each node's logical processors
            busy = x * cpu_s(d) * n / design.node_count + (rep.get("host_cpu_utilization") or 0.0) * lps
            ok_storage = busy <= lps
        ok_users = True
        if db.virtual_users is not None and ok_storage:
            r = response_time_s(
                d, cpu_s(d), vcpus, x, rep.get("vm_read_latency_ms") or 0.0, rep.get("vm_write_latency_ms") or 0.0
            )
            ok_users = x <= db.virtual_users / r
        return ok_storage, ok_cpu, ok_users, d, rep, log_ms

    lo, hi = 0.0, x_cpu
    first = check(hi)
    if all(first[:3]):
        lo = hi
    else:
        for _ in range(STEPS):
            mid = 0.5 * (lo + hi)
            if all(check(mid)[:3]):
                lo = mid
            else:
                hi = mid
    if lo <= 0.0:
        raise DatabaseCapacityError("the design cannot carry even a trickle of this database's IO", "design")
    _ok_s, _ok_c, _ok_u, d, rep, _ = check(lo, figures_only=False)
    # just past the maximum: what stops it there (saturated, throttled and by what), figures only
    at_hi = check(min(hi * (1 + 1e-6), x_cpu * 1.000001)) if lo < x_cpu else check(x_cpu * 1.01)
    util: dict[str, float] = {
        k: float(v) for k, v in (rep.get("utilization") or {}).items() if k != "vm_vcpu" and v is not None
    }
    busiest = max(util, key=lambda k: util[k]) if util else None
    at_edge = False  # the rate stops where a station saturates under an open load (set below)
    # the per-database guarantee counts a share of the vCPUs where the design sells them oversubscribed
    shares = (hosted or getattr(design, "clients", None) is not None) and design.vcpu_oversubscription > 1
    if lo >= x_cpu * (1 - 1e-6) or lo * cpu_s(d) / vcpus >= CPU_BOUND:
        # a count typed above the server's logical processors is said where the bound is (the rate's note said it,
        # this one "the database's 48 vCPUs" of a VM given 128; DBA walk 2026-11-30)
        binding = "database_vcpus"
        note = (
            f"the database's {vcpus} vCPUs are busy ({pct(lo * cpu_s(d) / vcpus)})"
            if not capped
            else f"the database's {db.vm('vcpus')} vCPUs are busy ({pct(lo * cpu_s(d) / vcpus)}), {vcpus} of them at "
            f"once on the server's {count(server_lps, 'logical processor')}"
        )
        if shares:
            # its own, where the guarantee's rate counts a share of them (1,391,215 TPM here beside "its 8 vCPUs
            # (shared at 4:1, 2 logical processors) carry at most 340,886 TPM"; DBA walk 2026-11-30)
            note += f", its own (the guarantee's rate counts a {design.vcpu_oversubscription:g}:1 share of them)"
    elif not at_hi[0] or (busiest is not None and util[busiest] >= CPU_BOUND):
        # a saturating station stops the users too (their reads wait without bound near it): that is the
        # storage binding, whichever check failed first
        throttled = throttled_at(at_hi[4])
        # an open load stopped there is at the station's edge: no latency holds (a disaggregated Ceph design gave
        # "the storage saturates (host CPU 100% busy)" beside a VM latency of 4.945 ms; the hyperconverged one,
        # its station a millionth busier, none; CLI review 2026-11-30). Throttled, the IO waits at its issuer.
        at_edge = db.virtual_users is None and not throttled
        # in words, as the pages name a report's stations (the SLA page said "host_cpu 100% busy")
        words = station_words(rep)
        where = (
            f"{words.get(at_hi[4]['limited_by'], at_hi[4]['limited_by'])} throttles the IO"
            if throttled
            else f"{words.get(busiest, busiest.replace('_', ' '))} {pct(util[busiest])} busy"
            if busiest is not None
            else rep.get("bottleneck")
        )
        binding, note = (
            "storage",
            (
                f"the storage saturates ({where})"
                if not hosted
                else f"the nodes run out of CPU or storage ({where}): the databases' vCPUs and the storage "
                "stack share the logical processors"
            ),
        )
    else:
        binding = "virtual_users"
        # at the latency the design itself gives at that rate, not the 1 ms `db-io` assumes nor the target the
        # guarantee promises: three figures of one database's users read as one (DBA walk 2026-11-30)
        note = (
            f"{count(db.virtual_users or 0, 'virtual user')} with no think time: each waits for its calls' CPU, page "
            f"reads and log flushes at the design's modelled latency ({rep.get('vm_read_latency_ms') or 0.0:.3f} ms a "
            f"read, {rep.get('vm_write_latency_ms') or 0.0:.3f} ms a write), so the rate is users / response time "
            "(Little's law)"
        )
    x = lo
    per_server_tpm = x * 60.0

    def users_at(k_io: float, k_cpu: float) -> float:
        # the users' rate with the IO waits of a call at k_io times the modelled latencies and its CPU at k_cpu times
        r_ms, w_ms = (rep.get(key) or 0.0 for key in ("vm_read_latency_ms", "vm_write_latency_ms"))
        cs = cpu_s(d) * k_cpu
        x_users = users_rate(d, cs, vcpus, vcpus / cs, int(db.virtual_users or 0), r_ms * k_io, w_ms * k_io)
        # reaching the vCPUs' bound, the users do not limit the rate: the vCPUs do, with their own band
        return math.inf if x_users >= vcpus / cs * (1 - 1e-9) else x_users

    band = _band(binding, rep, x, x_cpu, users_at if db.virtual_users is not None else None)
    # an open load (no virtual users) stopped by a station's saturation: its queue grows without bound there,
    # and the bisection's last rate below it (a station busy to 1 - 1e-9) waited hours (a single server's flash
    # card: 13,631,948 ms "read latency"; review 2026-11-29). The maximum stands; no latency is given at it
    # (null), and the note says why. A station busy to within a millionth of 1 is at that edge: the DataON seeds,
    # stopped by their 384 users with the file servers 99.8-99.95 % busy, wait 2.5-6 ms, and keep them
    full = max((float(v) for v in (rep.get("utilization") or {}).values() if v is not None), default=0.0)
    unbounded = full >= 1.0 - 1e-6 or at_edge
    latency_keys = (
        "read_latency_ms",
        "read_latency_ms_low",
        "read_latency_ms_high",
        "write_latency_ms",
        "write_latency_ms_low",
        "write_latency_ms_high",
        "vm_read_latency_ms",
        "vm_write_latency_ms",
        "vm_latency_ms",
        "vm_latency_ms_low",
        "vm_latency_ms_high",
    )
    total = per_server_tpm * n
    out = {
        "database": db.name,
        "servers": n,
        **({"servers_note": servers_note} if servers_note else {}),
        "max_tpm": total,
        # what the sum is: 9.2 M TPM "of this database" on 12 servers read as one database's (CLI review 2026-11-29)
        "max_tpm_note": f"summed over {count(n, 'database server')}, each running one such database at "
        f"{per_server_tpm:,.0f} TPM (per_server_tpm), its vCPUs its own"
        if n > 1
        else "one database server running this database",
        "max_nopm": total / oltp.TPM_PER_NOPM,
        "max_tpm_low": total * band[0],
        "max_tpm_high": total * band[1],
        "max_nopm_low": total * band[0] / oltp.TPM_PER_NOPM,
        "max_nopm_high": total * band[1] / oltp.TPM_PER_NOPM,
        "per_server_tpm": per_server_tpm,
        "per_server_nopm": per_server_tpm / oltp.TPM_PER_NOPM,
        "binding": binding,
        "binding_note": note,
        "vcpus": vcpus,
        **({"vcpus_capped_note": capped} if capped else {}),
        # the per-DB guarantee shares a VM's vCPUs by the design's oversubscription; this is the most one database
        # server carries, its vCPUs its own (as the published runs had them): said, so the two read together
        "vcpus_note": (
            f"the database VM's {vcpus} vCPUs run as its own (a database server's); the per-database guarantee "
            f"counts them shared at the design's {design.vcpu_oversubscription:g}:1 vCPU oversubscription"
            # a disaggregated Ceph or vSAN design's client servers share theirs too (CLI review 2026-11-30: the
            # guarantee bound on the vCPU share with nothing here to say why)
            if shares
            else f"the database VM's {vcpus} vCPUs run as its own (a database server's)"
        ),
        "vcpu_utilization": min(x * cpu_s(d) / vcpus, 1.0),
        "cpu_us_per_txn": cpu_us_per_txn(db),
        "guest_cpu_us_per_io": guest_us,
        "iops": rep.get("iops"),
        "bandwidth_mb_s": rep.get("bandwidth_mb_s"),
        # the storage's load, beside the per-server IO demand in ``io``: 3x its iops read as one server's (DBA walk
        # 2026-11-30)
        "iops_note": f"the storage's load at the maximum, summed over the {count(n, 'database server')} (as is "
        "bandwidth_mb_s); one server's IO is io.iops"
        if n > 1
        else "the storage's load at the maximum (one database server's: io.iops)",
        # the storage's busiest station at the maximum: the report's own "bottleneck" is "none" below saturation,
        # where the bisection stops, beside a binding note naming the station 100 % busy (review 2026-11-29)
        "bottleneck": busiest if busiest is not None else rep.get("bottleneck"),
        # "binding: storage" beside "bottleneck: host_cpu", and "binding: database_vcpus" beside "bottleneck:
        # storage_cpu", read as two answers to one question (DBA walk 2026-11-30): which is which, and what raises it
        "bottleneck_note": "the storage's busiest station at that rate"
        + (f" ({station_words(rep).get(busiest, busiest)}, {pct(util[busiest])} busy)" if busiest is not None else "")
        + f"; what stops the database is binding ({binding})",
        "raises_it": raises_it(
            binding,
            busiest,
            at_hi[4].get("limited_by") if throttled_at(at_hi[4]) else None,
            station_raises(rep),
            whole_server=vcpus >= server_lps,
        ),
        **{k: None if unbounded else rep.get(k) for k in latency_keys},
        # a band's high end the report leaves null keeps its reason (an open load past its capacity band's low end)
        **{f"{k}_note": rep[f"{k}_note"] for k in latency_keys if not unbounded and rep.get(f"{k}_note")},
        # a null is explained by its own note (its bands' too: ``read_latency_ms_note`` covers ``_low``, ``_high``)
        **(
            {
                f"{k}_note": "a station saturates at this rate, where an open load's queue grows without bound: "
                "no latency is given at the maximum (with a number of virtual users the rate stops below it, at a "
                "latency; the per-database guarantee gives the rate at the latency target)"
                for k in latency_keys
                if not k.endswith(("_low", "_high"))
            }
            if unbounded
            else {}
        ),
        "io": d.model_dump(mode="json"),
        "band_basis": band[2],
        "latencies_note": LATENCIES_NOTE,
    }
    return _unless_the_pool_fits(
        _unless_it_does_not_fit(out, rep, d.capacity_tb, n, db.beside_data(plural=n > 1)), db, design
    )


def servers_held(servers: int, size_tb: float, usable_tb: float | None, beside: str = "") -> tuple[int, str | None]:
    """How many of a design's ``servers`` database servers run one database of ``size_tb`` [TB] each, with a note
    when fewer than all: as many as the storage's ``usable_tb`` [TB] holds (none held: all of them, and no rate,
    :func:`_unless_it_does_not_fit`). ``beside``: what the size holds beside the data, in words (:meth:`Database.beside_data`).

    One database on each server asked three 4 TB databases (12 TB) of the reference's 9 TB and said "no rate is
    sustained" beside a guarantee met at 88,533 IOPS for the one database asked (DBA walk 2026-11-30): the
    maximum counts the databases the storage holds, and says so."""
    if usable_tb is None:
        return servers, None
    held = min(servers, math.floor(usable_tb * (1 + 1e-9) / size_tb))
    if held in (0, servers):  # all fit, or not one: the servers as they are (the latter is no rate, said so)
        return servers, None
    n = decimals_apart(size_tb * servers, usable_tb)
    return held, (
        f"{servers} databases of {size_tb:,.{n}f} TB{beside} ({size_tb * servers:,.{n}f} TB), one on each database "
        "server, "
        f"do not fit in the storage's usable {usable_tb:,.{n}f} TB: counted on the {count(held, 'database server')} "
        f"whose databases it holds ({size_tb * held:,.{n}f} TB); "
        + ("the other runs none" if servers - held == 1 else f"the other {servers - held} run none")
    )


def buffer_pool_fits(db: Database, design: Design) -> bool:
    """Whether the database's buffer pool is at most the RAM of the server it runs on (the hard limit; what
    Windows and SQL Server commonly need beside it is :func:`planner.models.database.vm_ram_gb`'s note)."""
    return float(db.buffer_pool_gb or 0.0) <= vm_server_ram_gb(design)


def _unless_the_pool_fits(out: dict, db: Database, design: Design) -> dict:
    """``out`` with no rate when the database's buffer pool is more than its server's RAM, and a note when it
    leaves less beside it than Windows and SQL Server commonly need (:func:`planner.models.database.vm_ram_gb`):
    `sla seed-dl580-iodrive --database` of a 230 GB pool on a 32 GB server gave 1,952,550 TPM at a hit ratio of
    0.99999 with no word of RAM (DBA review 2026-11-30)."""
    pool, have = float(db.buffer_pool_gb or 0.0), vm_server_ram_gb(design)
    need = vm_ram_gb(pool)
    if need <= have * (1 + 1e-9) or out.get("binding") == "capacity":
        return out
    if buffer_pool_fits(db, design):  # with less beside it than the guidance leaves: said, the rate kept
        return {
            **out,
            "ram_note": f"a {pool:g} GB buffer pool leaves {have - pool:,.0f} GB of the server's {have:g} GB for "
            f"Windows and SQL Server's other memory, below the {need - pool:,.0f} GB the common guidance leaves",
        }
    why = (
        # the hard limit is the server's RAM; the guidance's figure is advice, said as such: "at most about 669 GB"
        # stood beside a 740 GB pool taken with a note (DBA walk 2026-11-30)
        f"a {pool:g} GB buffer pool is more than the server's {have:g} GB of RAM: no rate is sustained (give a pool "
        f"below {have:g} GB; about {buffer_pool_for_ram_gb(have):,.0f} GB leaves what Windows and SQL Server commonly need "
        "beside it)"
    )
    return _no_rate(out, "ram", why, "the buffer pool does not fit the server's RAM")


def _no_rate(out: dict, binding: str, why: str, what: str) -> dict:
    """``out`` with no rate: its figures at a rate null, each with ``why`` as its note ("no rate is sustained" stood
    beside 74,313 IOPS and the vCPUs 41 % busy; CLI review 2026-11-30), bound by ``binding`` (``ram`` or
    ``capacity``), with what raises it and ``what`` stops it. One shape for a pool the server cannot hold and a
    database the storage cannot."""
    at_rate = [*AT_RATE_KEYS, *(k for k in out if k.endswith(("latency_ms", "latency_ms_low", "latency_ms_high")))]
    return {
        **out,
        **{k: None for k in (*RATE_KEYS, *at_rate)},
        **{f"{k}_note": why for k in (*RATE_KEYS, *at_rate) if not k.endswith(("_low", "_high"))},
        "binding": binding,
        "binding_note": why,
        "raises_it": RAISES_IT[binding],
        "bottleneck_note": f"no rate is sustained: {what}",
    }


#: which latency each key is, by the names every page gives them (:data:`planner.engine.performance.LATENCY_NAMES`),
#: and which has a band: the SLA page's "Read latency then" was the VM's, the CLI's read_latency_ms the storage's, and
#: nothing said which (DBA review 2026-11-30)
LATENCIES_NOTE = (
    f"read_latency_ms, write_latency_ms: {first_lower(LATENCY_NAMES['read_latency_ms'])} and "
    f"{first_lower(LATENCY_NAMES['write_latency_ms'])}, the storage layer's, with their bands (_low, _high); "
    f"vm_read_latency_ms, vm_write_latency_ms: {first_lower(LATENCY_NAMES['vm_read_latency_ms'])} and "
    f"{first_lower(LATENCY_NAMES['vm_write_latency_ms'])}, what the database's IO waits for with the guest stack, no band "
    f"of their own; vm_latency_ms: {LATENCY_NAMES['vm_latency_ms']}, reads and writes together, with its band"
)


#: the figures of a database's capacity that a database the storage cannot hold does not have
RATE_KEYS = (
    "max_tpm",
    "max_nopm",
    "max_tpm_low",
    "max_tpm_high",
    "max_nopm_low",
    "max_nopm_high",
    "per_server_tpm",
    "per_server_nopm",
)


#: the figures at the maximum rate (the storage's load there), which a database that does not fit has not either
AT_RATE_KEYS = ("iops", "bandwidth_mb_s", "vcpu_utilization")


def usable_tb(rep: dict) -> float | None:
    """A report's usable capacity [TB]: after compression and deduplication where the design has them."""
    return rep.get("effective_capacity_tb") or rep.get("usable_capacity_tb")


def design_usable_tb(design: Design, catalog: Catalog, params: ModelParams) -> float | None:
    """A design's usable capacity [TB] (:func:`usable_tb` of its report without a load)."""
    return usable_tb(evaluate_report(design, None, catalog=catalog, degraded=False, params=params))


def usable_short_of(rep: dict, need_tb: float) -> float | None:
    """A report's usable capacity [TB] when ``need_tb`` [TB] of data does not fit in it, else None: one rule for
    the database's rate (:func:`database_capacity`) and ``compare --database``."""
    usable = usable_tb(rep)
    return usable if usable is not None and need_tb > usable * (1 + 1e-9) else None


def _unless_it_does_not_fit(out: dict, rep: dict, size_tb: float, servers: int, beside: str = "") -> dict:
    """``out`` with no rate (null, each with its note) when the servers' databases do not fit in the
    storage: `sla seed-dl580-raid1 --database db-seed-datrium` gave 49,896 TPM for a 0.5 TB database
    on 0.12 TB beside the guarantee's "does not fit" (review 2026-11-29)."""
    need = size_tb * servers
    usable = usable_short_of(rep, need)
    if usable is None:
        return out
    # the need and the usable capacity with the digits that tell them apart: "(9.00 TB) do not fit in the
    # storage's usable 9.00 TB" was 9 TB against 8.997 (DBA walk 2026-11-30)
    n = decimals_apart(need, usable)
    why = (
        f"a {need:,.{n}f} TB database{beside} does not fit"
        if servers == 1
        else f"{servers} databases of {size_tb:,.{n}f} TB{beside} ({need:,.{n}f} TB) do not fit"
    ) + f" in the storage's usable {usable:,.{n}f} TB: no rate is sustained"
    return _no_rate(out, "capacity", why, "the database does not fit")


def _band(binding: str, rep: dict, x: float, x_cpu: float, users_at=None) -> tuple[float, float, str]:
    """The capacity's band as ratios of the figure ``x`` [calls/s]: each limit's own band (the vCPUs' by the CPU per
    transaction, the storage's by its IOPS capacity, the virtual users' by the IO latency their calls wait for),
    its ends the least of every limit's: the binding one's band, capped by what each other allows.

    Parameters
    ----------
    binding : str
        The limit that binds at ``x``: ``database_vcpus``, ``storage`` or ``virtual_users``.
    rep : dict
        The design's report at ``x``.
    x, x_cpu : float
        The capacity and the vCPUs' bound (the rate at which they are all busy) [calls/s].
    users_at : callable, optional
        ``users_at(k_io, k_cpu)``: the virtual users' rate with the IO waits of a call (reads and log flushes) at
        ``k_io`` times the report's VM latencies and its CPU at ``k_cpu`` times the fitted [calls/s]
        (:func:`planner.models.database.users_rate`; infinite where they reach the vCPUs' bound, which then binds);
        None without virtual users.

    Notes
    -----
    The users' rate went as the inverse of the whole VM latency's band (0.34-1.14x), though a call's response
    time also holds its CPU (340 us) and its CPU queue, which no IO latency moves: 50 users on 16 vCPUs, bound at
    7,568,698 TPM with the vCPUs 92 % busy, had a high end of 22,189,088 TPM, 2.93x, the vCPUs 270 % busy
    (performance walk 2026-12-01). Each end now takes every input of a call at that end (its IO waits by the VM
    latency's band, its CPU by the CPU per transaction's), and no end passes another limit's.
    """
    cal = oltp_calibration()["cpu_us_per_txn"]
    # more CPU per transaction (hi) means fewer transactions
    c_lo, c_hi = cal["band_ratio"]
    # the vCPUs' bound where they bind (the rate, a little below it where they are CPU_BOUND busy), else the bound
    at_cpu = x if binding == "database_vcpus" else x_cpu
    ends = {"database_vcpus": (at_cpu / c_hi, at_cpu / c_lo)}
    # the most the storage carries scales with its capacity (the throughput with a station saturated), not with
    # the IOPS band of the load at the operating point, which ends at what the load offers
    cap, lo, hi, iops = (rep.get(k) for k in ("iops_capacity", "iops_capacity_low", "iops_capacity_high", "iops"))
    if cap and iops and lo is not None and hi is not None:
        # the calls per second at each end: the IO per call is the same (the storage's capacity in calls)
        at = x * cap / iops if binding != "storage" else x
        ends["storage"] = (at * lo / cap, at * hi / cap)
    lat, lat_lo, lat_hi = rep.get("vm_latency_ms"), rep.get("vm_latency_ms_low"), rep.get("vm_latency_ms_high")
    if users_at is not None and lat and lat_lo and lat_hi:
        # longer IO waits and more CPU mean fewer calls: the high latency and CPU give the low rate
        ends["virtual_users"] = (users_at(lat_hi / lat, c_hi), users_at(lat_lo / lat, c_lo))
    own = ends.get(binding)
    if own is None:
        return 1.0, 1.0, "no band"
    low = min(x, *(e[0] for e in ends.values()))
    high = max(x, min(e[1] for e in ends.values()))
    basis = {
        "database_vcpus": "the CPU per transaction's band: " + cal["band_basis"],
        "storage": "the storage's IOPS capacity band",
        "virtual_users": "users / response time, with the IO waits of a call at the ends of the VM latency's band "
        f"and its CPU at those of the CPU per transaction's ({c_lo:.2f}-{c_hi:.2f}x)",
    }[binding]
    others = [k for k in ends if k != binding and (ends[k][0] < own[0] or ends[k][1] < own[1])]
    if others:
        basis += "; each end at most what " + " and ".join(OTHER_LIMIT_WORDS[k] for k in others) + " allow at theirs"
    return low / x, high / x, basis


#: the limits a capacity's band end is held to, in words (:func:`_band`)
OTHER_LIMIT_WORDS = {
    "database_vcpus": "the vCPUs",
    "storage": "the storage",
    "virtual_users": "the virtual users",
}
