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
  the whole database, as :mod:`planner.sla` does): conservative for a cache.
* Growth ``growth_pct`` is over the amortisation period; the cluster is sized
  for the grown demand and :func:`planner.checks.multi_year` shows the years.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from planner.dbworkload import DatabaseIo, io_demand
from planner.errors import PlannerError
from planner.performance import WorkloadArrays
from planner.rules import FaultTolerance
from planner.tiers import TierSet, default_tiers

#: the demand's IOs in flight per database VM; an open load does not use it
OUTSTANDING_PER_DB = 32.0
MAX_DEMAND_IOPS = 1e9


class DemandError(PlannerError):
    pass


class Demand(BaseModel):
    """A sizing request. Give ``tier_counts`` (databases per tier), or
    ``total_iops`` and ``capacity_tb`` (with ``databases`` for vCPU and RAM), or
    ``database`` (a DBA's description, :mod:`planner.dbworkload`) and ``databases``."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    name: str = Field(default="demand", min_length=1, max_length=200)
    tier_counts: dict[str, Annotated[int, Field(ge=0, le=100_000)]] | None = None
    tiers: TierSet | None = Field(default=None, description="tier definitions (default: the shipped set)")
    database: DatabaseIo | None = Field(
        default=None, description="totals mode from a database as a DBA describes it (planner.dbworkload): "
        "total_iops, capacity_tb, block_size_kib and read_fraction follow from its IO demand x databases")
    database_need: Literal["peak", "mean"] = Field(
        default="peak", description="with database: size for its peak IOPS (checkpoint bursts) or its mean")
    total_iops: float | None = Field(default=None, gt=0, le=MAX_DEMAND_IOPS)
    capacity_tb: float | None = Field(default=None, gt=0, le=1e5)
    latency_target_ms: float = Field(default=1.0, ge=0.02, le=10_000)
    latency_statistic: Literal["mean", "p90", "p99"] = "mean"
    block_size_kib: float = Field(default=8.0, ge=0.5, le=4096)
    read_fraction: float = Field(default=0.7, ge=0, le=1)
    databases: int | None = Field(default=None, ge=1, le=100_000,
                                  description="totals mode: database VMs (for vCPUs and RAM)")
    vcpus_per_db: int = Field(default=4, ge=1, le=512, description="totals mode: vCPUs per database VM")
    ram_gb_per_db: float = Field(default=16.0, gt=0, le=24_000, description="totals mode: RAM per database VM, GB")
    working_set_fraction: float = Field(default=1.0, gt=0, le=1, description="hot share of each database")
    growth_pct: float = Field(default=0.0, ge=0, le=1000, description="growth over the amortisation period, %")
    n_plus_one: bool = True
    fault_tolerance: FaultTolerance = Field(
        default="node-and-drive",
        description="failures the data must survive: 'node', 'node-and-drive' (Microsoft's recommendation for "
                    "production databases: nested mirror on two servers, three-way mirror from three) or "
                    "'two-nodes'")
    allow_parity: bool = Field(default=False, description="allow parity / mirror-accelerated parity volumes")
    allow_network_warning: bool = Field(
        default=False, description="accept designs without RDMA or 25 GbE where Microsoft recommends them")
    validated_for: str | None = Field(default=None, max_length=100,
                                      description="only nodes this program lists, e.g. 'Azure Local'")
    vcpu_oversubscription: float = Field(default=4.0, ge=0.1, le=32.0)
    host_reserve_gb: float = Field(default=8.0, ge=0, le=10_000)
    budget_usd_per_month: float | None = Field(default=None, gt=0, le=1e9)
    min_nodes: int = Field(default=2, ge=2, le=16)
    max_nodes: int = Field(default=16, ge=2, le=16)

    @model_validator(mode="before")
    @classmethod
    def _from_database(cls, data):
        """A ``database`` fills the totals it implies (x ``databases``, default 1);
        the same totals given beside it must agree (a dumped demand validates again)."""
        if not isinstance(data, dict) or data.get("database") is None:
            return data
        try:
            db = (data["database"] if isinstance(data["database"], DatabaseIo)
                  else DatabaseIo.model_validate(data["database"]))
        except ValidationError:
            return data  # the field's own validation names what is wrong
        n = data.get("databases", 1)
        if n is None:
            n = 1
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 100_000:
            return data
        dem = io_demand(db)
        need = dem.iops if data.get("database_need") == "mean" else dem.peak_iops
        implied = {"total_iops": need * n, "capacity_tb": dem.capacity_tb * n,
                   "block_size_kib": min(max(dem.block_size_kib, 0.5), 4096.0), "read_fraction": dem.read_fraction}
        if data.get("tier_counts") is not None:
            raise ValueError("give tier_counts or database, not both")
        for k, v in implied.items():
            given = data.get(k)
            if given is not None and not (isinstance(given, (int, float)) and abs(given - v) <= 1e-9 * max(abs(v), 1)):
                raise ValueError(f"{k} follows from database ({v:,.6g}); leave it out")
        ram = data.get("ram_gb_per_db")
        if ram is None:  # at least the buffer pool: what the VM needs beyond it is the user's to add
            implied["ram_gb_per_db"] = db.buffer_pool_gb
        elif isinstance(ram, (int, float)) and ram < db.buffer_pool_gb:
            raise ValueError(f"ram_gb_per_db ({ram:g}) is less than the database's buffer pool "
                             f"({db.buffer_pool_gb:g} GB): the VM could not hold it")
        return {**data, "database": db, "databases": n, **implied}

    @field_validator("tier_counts")
    @classmethod
    def _some_database(cls, v):
        if v is not None and not any(v.values()):
            raise ValueError("every count is 0: nothing to size; give at least one database")
        return v

    @model_validator(mode="after")
    def _either(self) -> "Demand":
        if self.tier_counts is None and (self.total_iops is None or self.capacity_tb is None):
            raise ValueError("give tier_counts or both total_iops and capacity_tb")
        if self.min_nodes > self.max_nodes:
            raise ValueError("min_nodes must be <= max_nodes")
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

    def classes(self, multiplier: float | None = None) -> list["DemandClass"]:
        """One entry per tier with databases (or one for a totals demand), counts
        times ``multiplier`` (default: the growth)."""
        m = self.growth if multiplier is None else multiplier
        if self.tier_counts is not None:
            tiers = self.tierset().by_name()
            return [DemandClass(k, c * m, c * m * tiers[k].guaranteed_iops, c * m * tiers[k].capacity_tb_per_db,
                                tiers[k].latency_target_ms, tiers[k].latency_statistic, tiers[k].read_fraction,
                                tiers[k].block_size_kib, tiers[k].vcpus_per_db, tiers[k].ram_gb_per_db)
                    for k, c in self.tier_counts.items() if c > 0]
        dbs = (self.databases or 0) * m
        return [DemandClass("demand", dbs, self.total_iops * m, self.capacity_tb * m, self.latency_target_ms,
                            self.latency_statistic, self.read_fraction, self.block_size_kib, self.vcpus_per_db,
                            self.ram_gb_per_db)]

    def totals(self, multiplier: float | None = None) -> tuple[float, float, float]:
        """(IOPS, TB, tightest latency target ms) including growth."""
        cs = self.classes(multiplier)
        return sum(c.iops for c in cs), sum(c.capacity_tb for c in cs), min(c.latency_target_ms for c in cs)

    def vcpus(self, multiplier: float | None = None) -> float:
        """vCPUs the databases need, including growth."""
        return sum(c.databases * c.vcpus_per_db for c in self.classes(multiplier))

    def ram_gb(self, multiplier: float | None = None) -> float:
        """RAM the database VMs need, GB, including growth."""
        return sum(c.databases * c.ram_gb_per_db for c in self.classes(multiplier))

    def database_count(self, multiplier: float | None = None) -> float:
        return sum(c.databases for c in self.classes(multiplier))

    def summary(self) -> dict:
        iops, tb, lat = self.totals()
        return {"iops": iops, "capacity_tb": tb, "tightest_latency_target_ms": lat, "vcpus": self.vcpus(),
                "ram_gb": self.ram_gb(), "databases": self.database_count(), "growth_pct": self.growth_pct,
                "classes": [c.__dict__ for c in self.classes()]}


@dataclass(frozen=True)
class DemandClass:
    name: str
    databases: float
    iops: float
    capacity_tb: float
    latency_target_ms: float
    latency_statistic: str
    read_fraction: float
    block_size_kib: float
    vcpus_per_db: float
    ram_gb_per_db: float


def demand_workload(demand: Demand, multiplier=None, shape=()) -> WorkloadArrays:
    """The demand as one open load (IOPS, VMs and data times ``multiplier``,
    default the growth; an array multiplier gives one load per element)."""
    cs = demand.classes(1.0)
    base_iops = sum(c.iops for c in cs)
    if base_iops * (demand.growth if multiplier is None else float(np.max(multiplier))) > MAX_DEMAND_IOPS:
        raise DemandError(f"the demand is more than {MAX_DEMAND_IOPS:,.0f} IOPS with growth",
                          "tier_counts" if demand.tier_counts is not None else "total_iops")
    m = np.asarray(demand.growth if multiplier is None else multiplier, dtype=float)
    w = np.array([c.iops for c in cs]) / base_iops
    bs = float(np.sum(w * [c.block_size_kib for c in cs]))
    rf = float(np.sum(w * [c.read_fraction for c in cs]))
    dbs = sum(c.databases for c in cs)
    vcpus = (sum(c.databases * c.vcpus_per_db for c in cs) / dbs) if dbs > 0 else 4.0
    tb = sum(c.capacity_tb for c in cs)
    # the whole hot data, spread over the database VMs (one "VM" when none are named)
    ws_gb_per_vm = tb * 1000.0 * demand.working_set_fraction / max(dbs, 1.0)
    return WorkloadArrays(
        block_size_kib=np.asarray(bs), read_fraction=np.asarray(rf),
        vms_total=np.broadcast_to(dbs * m, np.broadcast_shapes(m.shape, shape)).copy(),
        vcpus_per_vm=np.asarray(vcpus), outstanding_per_vm=np.asarray(OUTSTANDING_PER_DB),
        working_set_gb_per_vm=np.asarray(ws_gb_per_vm),
        open_iops=np.broadcast_to(base_iops * m, np.broadcast_shapes(m.shape, shape)).copy(),
        iops_limit_per_vm=np.asarray(np.inf), alignment=np.asarray(1.0), host_issuer=np.asarray(False))


def class_latency_ms(out: dict, c: DemandClass) -> np.ndarray:
    """A class's latency statistic at the VM, ms: the mean is read/write weighted
    by the class's read share; a percentile is the worse of reads and writes."""
    r = c.read_fraction
    if c.latency_statistic == "mean":
        return r * out["vm_read_latency_ms"] + (1 - r) * out["vm_write_latency_ms"]
    rd, wr = out[f"{c.latency_statistic}_read_latency_ms"], out[f"{c.latency_statistic}_write_latency_ms"]
    return rd if r >= 1 else (wr if r <= 0 else np.maximum(rd, wr))


def latency_ok(out: dict, demand: Demand) -> np.ndarray:
    """Every class within its latency target and the cluster not saturated."""
    ok = ~np.asarray(out["saturated"], dtype=bool)
    for c in demand.classes(1.0):
        ok = ok & (class_latency_ms(out, c) <= c.latency_target_ms)
    return ok


def demand_as_workload(demand: Demand, nodes: int):
    """The demand as a :class:`planner.workload.Workload` for the Performance
    and SLA pages: one VM per database (rounded up per node), the tier mix's
    IO-weighted block size and read share, the guaranteed IOPS as an open load,
    the average vCPUs, RAM and hot data per database."""
    from planner.workload import Workload

    W = demand_workload(demand)
    cs = demand.classes()
    dbs = sum(c.databases for c in cs)
    mix = ", ".join(f"{c.databases:,.0f} {c.name}" for c in cs if c.name != "demand") or "totals"
    return Workload(
        name=f"demand ({mix})"[:200],
        description=f"{demand.name}: {float(W.open_iops):,.0f} guaranteed IOPS (with growth), tier mix {mix}",
        block_size_kib=float(W.block_size_kib), read_fraction=float(W.read_fraction),
        vms_per_node=max(1, min(2000, int(np.ceil(dbs / max(nodes, 1))))) if dbs > 0 else None,
        vcpus_per_vm=max(1, int(round(float(W.vcpus_per_vm)))),
        ram_gb_per_vm=(demand.ram_gb() / dbs) if dbs > 0 else 4.0,
        working_set_gb_per_vm=max(float(W.working_set_gb_per_vm), 1e-3), iops=float(W.open_iops))
