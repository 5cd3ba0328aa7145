"""What a customer asks a cluster to carry: databases per tier (or totals),
with growth, fault tolerance and the policies that bound the answer.

A demand becomes one open load for the performance model
(:func:`demand_workload`): the guaranteed IOPS of every database at once
(Storage QoS minimums all honoured together), the IO-weighted block size and
read share, one VM per database. Each tier keeps its own latency target and
statistic (:func:`latency_ok`); the percentile of a mix of reads and writes is
the worse of the two (it is not a weighted sum).

Assumptions (stated, editable)
------------------------------
* Working set: ``working_set_fraction`` of each database is hot (default 1.0,
  the whole database, as :mod:`planner.commercial.sla` does): conservative for a cache.
* Growth ``growth_pct`` is over ``growth_period_months`` (default 36); the cluster is
  sized for the grown demand and :func:`planner.sizing.checks.multi_year` shows the
  years at the equivalent yearly rate. The period is the demand's own: spreading the
  purchase over fewer months (``amortisation_months``, a cost assumption) does not
  make the databases grow faster.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

from planner.core import minimums as M
from planner.core.errors import PlannerError
from planner.core.jsonio import file_kind
from planner.core.text import count
from planner.models.database import ENGINE_NOTE, Database, cpu_s_per_call, io_demand, vm_ram_gb
from planner.models.stacks import MAX_NODES as STACK_MAX_NODES
from planner.models.stacks import MAX_NODES_ANY, Stack, node_limit_words
from planner.models.tiers import TierSet, default_tiers

#: what a demand's growth grows (:attr:`Demand.growth_in`)
GrowthIn = Literal["databases", "size_and_rate"]
#: what a demand's growth grows, in a customer's words
GROWTH_IN_WORDS = {"databases": "more databases", "size_and_rate": "each database's data and rate"}

#: the failures a demand's data must survive (:mod:`planner.physics.rules`)
FaultTolerance = Literal["node", "node-and-drive", "two-nodes"]
#: those failures in a customer's words
FAULT_TOLERANCE_WORDS = {
    "node": "one server down",
    "node-and-drive": "a server down and a drive failing on another",
    "two-nodes": "two servers down at once",
}


def fault_tolerance_label(fault_tolerance: str, stack: str = "s2d") -> str:
    """A fault-tolerance choice as a form offers it: what it survives, and whose recommendation
    it is where a vendor says so (Microsoft's for node-and-drive on S2D, as the ``fault_tolerance``
    field says; no Ceph or vSAN text recommending it is cited, so none is said for them)."""
    said = FAULT_TOLERANCE_WORDS[fault_tolerance]
    if stack == "s2d" and fault_tolerance == "node-and-drive":
        said += " (Microsoft's recommendation for databases)"
    return "survive " + said


def fault_tolerance_takes(fault_tolerance: str, stack: str = "s2d") -> str | None:
    """What a fault-tolerance choice takes of a Ceph or vSAN pool, in words (None for S2D, whose resiliency
    names say it): the rules :func:`planner.physics.rules.ceph_allowed_by_fault_tolerance` and
    :func:`planner.physics.rules.vsan_allowed_by_fault_tolerance` apply. The Size page's default, a server and
    a drive, sized a Ceph cluster at four copies with no word (browser review 2026-11-30)."""
    one = fault_tolerance == "node"
    if stack == "ceph":
        return (
            "Ceph keeps IO through one failure: 3 copies (min_size 2) or an erasure code of 2 coding chunks"
            if one
            else "Ceph keeps IO through two failures: 4 copies (min_size 2) or an erasure code of 3 coding chunks, "
            "more raw capacity than a server alone takes (3 copies)"
        )
    if stack == "vsan":
        return (
            "vSAN policy of 1 failure to tolerate (RAID-1 2 copies, or RAID-5)"
            if one
            else "vSAN policy of 2 failures to tolerate (RAID-1 3 copies, or RAID-6)"
        )
    return None


#: the demand's IOs in flight per database VM; an open load does not use it
OUTSTANDING_PER_DB = 32.0
MAX_DEMAND_IOPS = 1e9
#: the months a demand's growth_pct takes unless it says (the default amortisation period)
GROWTH_PERIOD_MONTHS = 36
#: the most growth a demand takes over its period [%] (``growth_pct``)
MAX_GROWTH_PCT = 1000.0


class DemandError(PlannerError):
    pass


def growth_pct_per_year(growth_pct: float, months: float) -> float:
    """The yearly growth [%/year] that, compounded, gives ``growth_pct`` [%] over ``months`` [months]: a customer
    says "20 % a year for 3 years", a demand holds the total (+72.8 % over 36 months). One rule for the Size
    page's input, the multi-year view and the proposal's words."""
    return float(100.0 * ((1.0 + growth_pct / 100.0) ** (12.0 / months) - 1.0))


def growth_pct_over(pct_per_year: float, months: float) -> float:
    """The total growth [%] over ``months`` [months] of ``pct_per_year`` [%/year] compounded yearly (the inverse of
    :func:`growth_pct_per_year`), without the float noise of the power (20 % a year for 36 months is 72.8 %, not
    72.80000000000001: a form sent unchanged sizes the same demand)."""
    return round(float(100.0 * ((1.0 + pct_per_year / 100.0) ** (months / 12.0) - 1.0)), 9)


def growth_words(growth_pct: float, months: float) -> str:
    """A demand's growth in both conventions, the yearly rate first ("+20 % a year for 36 months, +72.8 % in all,
    compounded"); "no growth" for 0. The Size page took a total over the period while its multi-year view spoke
    in % a year (account-manager walk 2026-11-30)."""
    if not growth_pct:
        return "no growth"
    yearly = growth_pct_per_year(growth_pct, months)
    return f"+{yearly:.3g} % a year for {months:g} months, +{growth_pct:.4g} % in all, compounded"


#: the fields a demand of a described database computes from it (:class:`Demand`'s validation checks them)
IMPLIED_BY_DATABASE = ("total_iops", "capacity_tb", "block_size_kib", "read_fraction")


def saved_demand(data: dict[str, Any]) -> Demand:
    """A demand as saved (a scenario, a session): where it describes its database, the figures that follow from
    the database are computed again by today's model, not checked against the ones saved with it. A saved
    database demand was refused after any change to the database layer ("capacity_tb follows from database
    (1.5); leave it out" of a scenario saved at 1.0), and the saved work with it (DBA layer review 2026-11-30)."""
    if isinstance(data, dict) and data.get("database") is not None:
        data = {k: v for k, v in data.items() if k not in IMPLIED_BY_DATABASE}
    return Demand.model_validate(data)


class Demand(BaseModel):
    """A sizing request. Give ``tier_counts`` (databases per tier), or
    ``total_iops`` and ``capacity_tb`` (with ``databases`` for vCPU and RAM), or
    ``database`` (a DBA's description, :mod:`planner.models.database`) and ``databases``."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    name: str = Field(default="demand", min_length=1, max_length=200)
    stack: Stack = Field(
        default="s2d",
        description="the storage stack to size: s2d (Storage Spaces Direct / Azure Local), ceph or vsan; the sizer "
        "only proposes designs of this stack, judged by its rules",
    )
    tier_counts: dict[str, Annotated[int, Field(ge=0, le=100_000)]] | None = None
    tiers: TierSet | None = Field(default=None, description="tier definitions (default: the shipped set)")
    database: Database | None = Field(
        default=None,
        description="totals mode from a database as a DBA describes it (planner.models.database): "
        "total_iops, capacity_tb, block_size_kib and read_fraction follow from its IO demand x databases",
    )
    database_need: Literal["peak", "mean"] = Field(
        default="peak", description="with database: size for its peak IOPS (checkpoint bursts) or its mean"
    )
    total_iops: float | None = Field(default=None, ge=M.MIN_IOPS, le=MAX_DEMAND_IOPS)
    capacity_tb: float | None = Field(default=None, ge=M.MIN_CAPACITY_TB, le=1e5)
    latency_target_ms: float = Field(default=1.0, ge=0.02, le=10_000)
    latency_statistic: Literal["mean", "p90", "p99"] = "mean"
    block_size_kib: float = Field(default=8.0, ge=0.5, le=4096)
    read_fraction: float = Field(default=0.7, ge=0, le=1)
    databases: int | None = Field(
        default=None, ge=1, le=100_000, description="totals mode: database VMs (for vCPUs and RAM)"
    )
    vcpus_per_db: int = Field(
        default=4,
        ge=1,
        le=512,
        description="vCPUs per database VM (default 4, a small VM among many; with database, the database's own "
        "vcpus, default 16, the VM its SLA is judged on)",
    )
    ram_gb_per_db: float = Field(
        default=16.0, ge=M.MIN_RAM_GB, le=24_000, description="totals mode: RAM per database VM, GB"
    )
    working_set_fraction: float = Field(
        default=1.0, ge=M.MIN_WORKING_SET_FRACTION, le=1, description="hot share of each database"
    )
    growth_pct: float = Field(
        default=0.0,
        ge=0,
        le=MAX_GROWTH_PCT,
        description="growth over growth_period_months, %: the cluster is sized for the grown demand",
    )
    growth_in: GrowthIn = Field(
        default="databases",
        description="what growth_pct grows: 'databases', more databases (a tier's count grown and rounded up to "
        "whole databases, each with the tier's figures); 'size_and_rate', each database's data and IOPS, the "
        "databases, their vCPUs and RAM as given (an estate: each database is a known one)",
    )
    growth_period_months: int = Field(
        default=GROWTH_PERIOD_MONTHS,
        ge=1,
        le=240,
        description="the months growth_pct takes (default 36); the multi-year view compounds it to a yearly "
        "rate. The cost's amortisation period does not change it",
    )
    n_plus_one: bool = True
    # N+1's re-protection excluded every 2-node cluster and the 3-node three-way mirror, which Microsoft supports and
    # which stay online through a node loss, with no way to ask for them (S2D specialist's audit)
    n_plus_one_after_loss: Literal["re-protected", "online"] = Field(
        default="re-protected",
        description="with n_plus_one, what the survivors of a node loss must do with the demand's data: "
        "'re-protected' (default) rebuild every copy on themselves, which needs a fault domain to spare (no "
        "2-node cluster, no 3-node three-way mirror); 'online' keep it online, re-protected where the survivors "
        "can and otherwise with fewer copies until the server returns (Microsoft supports two-way or nested "
        "mirror on two servers and three-way mirror on three). Performance with a node down is checked either way",
    )
    fault_tolerance: FaultTolerance = Field(
        default="node-and-drive",
        description="failures the data must survive: 'node', 'node-and-drive' (on S2D Microsoft's recommendation "
        "for production databases: nested mirror on two servers, three-way mirror from three) or "
        "'two-nodes'",
    )
    allow_parity: bool = Field(default=False, description="allow parity / mirror-accelerated parity volumes")
    allow_network_warning: bool = Field(
        default=False,
        description="accept designs without RDMA or 25 GbE where Microsoft recommends them (Ceph: under its "
        "25 Gb/s for a substantial workload; a hand-built vSAN ESA design: under 25 GbE as a vSAN-ESA-AF-0 ReadyNode)",
    )
    validated_for: str | None = Field(
        default=None, max_length=100, description="only nodes this program lists, e.g. 'Azure Local'"
    )
    platform: Literal["azure-local", "windows-server"] | None = Field(
        default=None,
        description="the cluster's operating system, for its licences (default: Azure Local when validated_for "
        "is 'Azure Local', else Windows Server)",
    )
    vcpu_oversubscription: float = Field(default=4.0, ge=0.1, le=32.0)
    host_reserve_gb: float = Field(default=8.0, ge=0, le=10_000)
    budget_usd_per_month: float | None = Field(default=None, ge=M.MIN_BUDGET_USD, le=1e9)
    min_nodes: int = Field(default=2, ge=2, le=MAX_NODES_ANY)
    max_nodes: int = Field(
        default=16, ge=2, le=MAX_NODES_ANY, description="most servers (S2D at most 16, vSAN 64, Ceph 256)"
    )

    @field_validator("min_nodes", "max_nodes")
    @classmethod
    def _stack_nodes(cls, v: int, info: ValidationInfo) -> int:
        st = info.data.get("stack", "s2d")
        if st in STACK_MAX_NODES and v > STACK_MAX_NODES[st]:
            raise ValueError(node_limit_words(st, v))
        return v

    @model_validator(mode="before")
    @classmethod
    def _from_database(cls, data: Any) -> Any:
        """A ``database`` fills the totals it implies (x ``databases``, default 1);
        the same totals given beside it must agree (a dumped demand validates again)."""
        if not isinstance(data, dict) or data.get("database") is None:
            return data
        try:
            db = (
                data["database"]
                if isinstance(data["database"], Database)
                else Database.model_validate(data["database"])
            )
        except ValidationError:
            return data  # the field's own validation names what is wrong
        if not db.has_workload:
            raise ValueError("the database must be described by its workload here (nopm or tpm, buffer_pool_gb)")
        assert db.buffer_pool_gb is not None  # Database's validation: a workload comes with its buffer pool
        n = data.get("databases", 1)
        if n is None:
            n = 1
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 100_000:
            return data
        dem = io_demand(db)
        mean = data.get("database_need") == "mean"
        # the IOPS asked at their own mix: the peak's (checkpoint bursts write more) or the mean's
        bs, rf, _ = dem.shape(peak=not mean)
        # in IMPLIED_BY_DATABASE's order: one list of these fields for this check and saved_demand
        implied = dict(
            zip(
                IMPLIED_BY_DATABASE,
                ((dem.iops if mean else dem.peak_iops) * n, dem.capacity_tb * n, bs, rf),
                strict=True,
            )
        )
        if data.get("tier_counts") is not None:
            raise ValueError("give tier_counts or database, not both")
        for k, v in implied.items():
            given = data.get(k)
            if given is not None and not (isinstance(given, (int, float)) and abs(given - v) <= 1e-9 * max(abs(v), 1)):
                raise ValueError(f"{k} follows from database ({v:,.6g}); leave it out")
        if db.vcpus is not None:  # the database's VM, as its guarantee and capacity count it
            given = data.get("vcpus_per_db")
            if given is not None and given != db.vcpus:
                raise ValueError(f"vcpus_per_db ({given}) differs from the database's vcpus ({db.vcpus}); give one")
            implied["vcpus_per_db"] = db.vcpus
        ram = data.get("ram_gb_per_db")
        if ram is None:  # the buffer pool and what Windows and SQL Server need beside it
            implied["ram_gb_per_db"] = vm_ram_gb(db.buffer_pool_gb)
        elif isinstance(ram, (int, float)) and ram < db.buffer_pool_gb:
            raise ValueError(
                f"ram_gb_per_db ({ram:g}) is less than the database's buffer pool "
                f"({db.buffer_pool_gb:g} GB): the VM could not hold it"
            )
        return {**data, "database": db, "databases": n, **implied}

    @field_validator("tier_counts")
    @classmethod
    def _some_database(cls, v: dict[str, int] | None) -> dict[str, int] | None:
        if v is not None and not any(v.values()):
            raise ValueError("every count is 0: nothing to size; give at least one database")
        return v

    @model_validator(mode="after")
    def _either(self) -> Demand:
        if self.tier_counts is None and (self.total_iops is None or self.capacity_tb is None):
            raise ValueError("give tier_counts or both total_iops and capacity_tb")
        if self.min_nodes > self.max_nodes:
            raise ValueError("min_nodes must be <= max_nodes")
        if self.database is not None and self.database.vcpus is None and "vcpus_per_db" not in self.model_fields_set:
            # a database given without its VM's vCPUs runs in the VM its own description defaults to (the one its
            # SLA is judged on and the schema shows, DEFAULT_VM's 16), not the totals mode's 4 for a fleet of small
            # VMs: a 150 TB database at 50,000 TPM was sized on 4 vCPUs and failed database_vm_rate (stop 55 walk).
            # Set past pydantic's assignment so it stays out of model_fields_set: the proposal says it was assumed
            object.__setattr__(self, "vcpus_per_db", self.database.vm("vcpus"))
        # a demand by tiers with totals beside it sized the tiers and dropped the totals without a word (10 TB asked,
        # a design of 4 TB "feasible"; CLI fuzzing 2026-11-30)
        both = [f for f in ("total_iops", "capacity_tb", "databases") if getattr(self, f) is not None]
        if self.tier_counts is not None and both:
            raise ValueError(f"give tier_counts or totals ({', '.join(both)}), not both")
        if self.tier_counts is not None:
            names = {t.name for t in self.tierset().tiers}
            for k in self.tier_counts:
                if k not in names:
                    raise ValueError(f"unknown tier '{k}' in tier_counts; tiers: {', '.join(sorted(names))}")
        return self

    # --------------------------------------------------------------- views
    def tierset(self) -> TierSet:
        return self.tiers or default_tiers()

    @property
    def growth(self) -> float:
        return 1.0 + self.growth_pct / 100.0

    def grown_tiers(self) -> TierSet:
        """The tiers as the grown demand's databases are: each database's IOPS, burst and data grown where growth is
        in size and rate (:attr:`growth_in`), the tiers as they are where it adds databases."""
        ts = self.tierset()
        if self.grows_in_count or not self.growth_pct:
            return ts
        g = self.growth
        return ts.model_copy(
            update={
                "tiers": [
                    t.model_copy(
                        update={
                            "guaranteed_iops": t.guaranteed_iops * g,
                            "burst_iops": t.burst_iops * g,
                            "capacity_tb_per_db": t.capacity_tb_per_db * g,
                        }
                    )
                    for t in ts.tiers
                ]
            }
        )

    @property
    def grows_in_count(self) -> bool:
        """Whether growth adds databases (:attr:`growth_in` 'databases'), not size and rate to each."""
        return self.growth_in == "databases"

    @property
    def grows_in_whole_databases(self) -> bool:
        """Whether growth adds whole databases, each with a database's every figure (IOPS, TB, vCPUs, RAM): growth
        in count (:attr:`grows_in_count`) of a demand that names its databases (tiers, or totals over
        ``databases``). A demand of totals naming no databases has no database to add: its totals grow as given."""
        return self.grows_in_count and (self.tier_counts is not None or bool(self.databases))

    def growth_words(self) -> str:
        """How the demand grows, in words ("" without growth): "with 20 % growth" (more whole databases), or
        "with 20 % growth in each database's data and IOPS" (:attr:`growth_in` 'size_and_rate')."""
        if not self.growth_pct:
            return ""
        return f"with {self.growth_pct:g} % growth" + (
            "" if self.grows_in_count else " in each database's data and IOPS"
        )

    def classes(self, multiplier: float | None = None) -> list[DemandClass]:
        """One entry per tier with databases (or one for a totals demand), counts
        times ``multiplier`` (default: the growth), rounded up to whole databases.

        A database is one whole VM with its tier's whole guarantee: 2 Ultra databases grown by 20 % are 3,
        with 3 databases' IOPS and capacity. The fraction (2.4) had been kept for the IOPS and the capacity
        while the VMs were rounded up, so a tier read "3 databases, 60,000 IOPS, 9.6 TB" and the pages
        counted 43 or 44 databases of one demand (finance walk 2026-11-30). A demand of totals over its
        ``databases`` is that many databases, each an equal share of the totals, grown the same way: 20
        databases grown by 6.25 % are 22, with 22 databases' IOPS and TB (the share had been grown by the
        factor, 21.25 databases' IOPS beside 22 databases' vCPUs and RAM; customer-engineer walk
        2026-12-01). A demand of totals naming no databases grows its totals as given
        (:attr:`grows_in_whole_databases`).

        With :attr:`growth_in` 'size_and_rate' the databases are the ones given (an estate's, each a known
        database) and each grows in data and IOPS: a list of 4 databases grown by 20 % is 4 databases with 20 %
        more IOPS and data. Rounded per tier, an estate whose tiers hold one or two databases each had grown by
        53 % in IOPS (51,661 -> 79,142) and from 4 databases to 7 (hostile-input walk).
        """
        m = self.growth if multiplier is None else multiplier
        rate = 1.0 if self.grows_in_count else m  # what each database's IOPS and data grow by
        if self.tier_counts is not None:
            tiers = self.tierset().by_name()
            grown = {k: whole_databases(c * m) if self.grows_in_count else c for k, c in self.tier_counts.items()}
            return [
                DemandClass(
                    k,
                    grown[k],
                    grown[k] * tiers[k].guaranteed_iops * rate,
                    grown[k] * tiers[k].capacity_tb_per_db * rate,
                    tiers[k].latency_target_ms,
                    tiers[k].latency_statistic,
                    tiers[k].read_fraction,
                    tiers[k].block_size_kib,
                    tiers[k].vcpus_per_db,
                    tiers[k].ram_gb_per_db,
                )
                for k, c in self.tier_counts.items()
                if c > 0
            ]
        given = self.databases or 0
        dbs = whole_databases(given * (m if self.grows_in_count else 1.0))
        # what the totals grow by: the whole databases over the ones given, or the factor itself
        k = dbs / given if self.grows_in_whole_databases else m
        assert self.total_iops is not None and self.capacity_tb is not None  # _either: tier_counts or both
        return [
            DemandClass(
                TOTALS_CLASS,
                dbs,
                self.total_iops * k,
                self.capacity_tb * k,
                self.latency_target_ms,
                self.latency_statistic,
                self.read_fraction,
                self.block_size_kib,
                self.vcpus_per_db,
                self.ram_gb_per_db,
            )
        ]

    def sized_tier_counts(self) -> dict[str, int] | None:
        """A demand in tiers' databases per tier as sized, grown where it grows (:meth:`classes`): the counts the
        proposal prices and the SLA page names; None for a demand not in tiers."""
        return {c.name: c.databases for c in self.classes()} if self.tier_counts else None

    def totals(self, multiplier: float | None = None) -> tuple[float, float, float]:
        """(IOPS, TB, tightest latency target ms) including growth."""
        cs = self.classes(multiplier)
        return sum(c.iops for c in cs), sum(c.capacity_tb for c in cs), min(c.latency_target_ms for c in cs)

    def vcpus(self, multiplier: float | None = None) -> float:
        """vCPUs the databases need, including growth."""
        return sum(c.databases * c.vcpus_per_db for c in self.classes(multiplier))

    def database_cores(self, guest_us_per_io: Any, multiplier: float | None = None) -> Any:
        """Cores the databases' own work keeps busy at their rate, including growth [cores]:
        SQL Server's work and the guest IO stack's per transaction
        (:func:`planner.models.database.cpu_s_per_call`) x transactions per second x databases.

        0 for a demand that does not describe its databases' workload (tiers or totals: no rate to
        count). ``guest_us_per_io`` [us] at the clock of the cores that run it; an array gives one
        figure per clock.
        """
        if self.database is None:
            return 0.0 * guest_us_per_io
        d = io_demand(self.database)
        # grown in rate, each database's transactions grow (their count does not)
        rate = 1.0 if self.grows_in_count else (self.growth if multiplier is None else multiplier)
        return (
            self.database_count(multiplier)
            * rate
            * d.transactions_per_s
            * cpu_s_per_call(self.database, d, guest_us_per_io)
        )

    def per_host(self, hosts: Any, multiplier: float | None = None) -> tuple[Any, Any]:
        """vCPUs and RAM [GB] of the VMs the busiest of ``hosts`` hosts runs, including growth.

        VMs are whole: each class's databases (a grown count rounded up) spread evenly, so a host
        runs at most ``ceil(VMs / hosts)`` of each class. The total over hosts (``vcpus() / hosts``)
        let 48 VMs of 256 GB on 13 hosts count as 3.7 per host, and a node that holds 4 of them
        passed with RAM for 3.7 (browser review 2026-11-28). ``hosts`` may be an array.
        """
        h = np.maximum(np.asarray(hosts, dtype=float), 1.0)
        vcpus = 0.0 * h
        ram = 0.0 * h
        for c in self.classes(multiplier):
            if c.databases <= 0:
                continue
            each = np.ceil(c.databases / h - 1e-9)
            vcpus = vcpus + each * c.vcpus_per_db
            ram = ram + each * c.ram_gb_per_db
        return vcpus, ram

    def vms_per_host(self, hosts: Any, multiplier: float | None = None) -> Any:
        """The database VMs the busiest of ``hosts`` hosts runs, whole (as :meth:`per_host` counts them), including
        growth; ``hosts`` may be an array."""
        h = np.maximum(np.asarray(hosts, dtype=float), 1.0)
        return sum((np.ceil(c.databases / h - 1e-9) for c in self.classes(multiplier) if c.databases > 0), 0.0 * h)

    def ram_gb(self, multiplier: float | None = None) -> float:
        """RAM the database VMs need, GB, including growth."""
        return sum(c.databases * c.ram_gb_per_db for c in self.classes(multiplier))

    def database_count(self, multiplier: float | None = None) -> int:
        """Whole databases, including growth (each tier rounded up, :meth:`classes`; the databases given when
        growth is in size and rate)."""
        return sum(c.databases for c in self.classes(multiplier))

    def capacity_note(self) -> str | None:
        """What the capacity holds, for a demand that describes its databases: each one's data, log and tempdb
        (:meth:`planner.models.database.Database.capacity_note`) x the databases with growth; None otherwise."""
        if self.database is None:
            return None
        n = self.database_count()
        return f"{count(n, 'database')} (with growth) x {self.database.capacity_note()}"

    def volume_note(self) -> str | None:
        """On S2D, the volumes a database larger than one volume must span
        (:meth:`planner.models.database.Database.volume_note`); None otherwise."""
        if self.database is None or self.stack != "s2d":
            return None
        return self.database.volume_note()

    def summary(self) -> dict[str, Any]:
        iops, tb, lat = self.totals()
        note = self.capacity_note()
        return {
            "iops": iops,
            "capacity_tb": tb,
            **({"capacity_note": note} if note is not None else {}),
            **({"volume_note": v} if (v := self.volume_note()) is not None else {}),
            # the engine whose rules gave the databases' IO and space: a PostgreSQL database became SQL Server
            # without a word (stop 55)
            **({"engine": self.database.engine, "engine_note": ENGINE_NOTE} if self.database is not None else {}),
            "tightest_latency_target_ms": lat,
            "vcpus": self.vcpus(),
            "ram_gb": self.ram_gb(),
            "databases": self.database_count(),
            "databases_before_growth": self.database_count(1.0),
            "growth_pct": self.growth_pct,
            "growth_in": self.growth_in,
            **({"growth_words": w} if (w := self.growth_words()) else {}),
            "growth_period_months": self.growth_period_months,
            "classes": [c.__dict__ for c in self.classes()],
        }


def whole_databases(x: float) -> int:
    """A grown count of databases as whole databases, rounded up; a float's rounding error above a whole
    number stays that number (5 x 1.2 is 6.000000000000001: 6 databases, not 7)."""
    return max(math.ceil(x - 1e-9), 0)


@dataclass(frozen=True)
class DemandClass:
    name: str
    databases: int
    iops: float
    capacity_tb: float
    latency_target_ms: float
    latency_statistic: str
    read_fraction: float
    block_size_kib: float
    vcpus_per_db: float
    ram_gb_per_db: float

    @property
    def lead(self) -> str:
        """The class's name as a figure's lead-in ("Premium "), nothing for a totals demand's one
        class: "one node down: demand 0.866 ms" read as a tier named demand (review 2026-11-29)."""
        return "" if self.name == TOTALS_CLASS else f"{self.name} "


#: the one class of a demand given as totals (no tiers)
TOTALS_CLASS = "demand"


# said when one kind of file is given for another (planner.core.jsonio.other_kind)
file_kind(Demand, "a demand file")
