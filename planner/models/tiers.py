"""Service tiers (Standard/Business/Premium/Ultra): what each promises a database.

The shipped set is ``planner/data/tiers.json``; :mod:`planner.commercial.tiers`
computes how many databases of each tier a design holds.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from planner.core import minimums as M
from planner.core.errors import PlannerError, shown
from planner.core.jsonio import file_kind
from planner.core.resources import data_path

DEFAULT_TIERS_FILE = data_path("tiers.json")


class TierError(PlannerError):
    pass


class Tier(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(min_length=1, max_length=100, description="the tier's name, as the pages and proposal show it")
    guaranteed_iops: float = Field(ge=M.MIN_IOPS, le=1e8, description="Storage QoS minimum, IOPS")
    burst_iops: float = Field(ge=M.MIN_IOPS, le=1e8, description="Storage QoS maximum, IOPS")
    latency_target_ms: float = Field(
        ge=0.02,
        le=10_000,
        description="latency each database VM of the tier is promised at its guaranteed IOPS, ms "
        "(the latency_statistic of the VM's IO latency)",
    )
    latency_statistic: Literal["mean", "p90", "p99"] = Field(
        default="mean", description="the statistic of the VM's IO latency the target is judged on"
    )
    capacity_tb_per_db: float = Field(
        ge=M.MIN_CAPACITY_TB, le=10_000, description="data each database holds, decimal TB"
    )
    block_size_kib: float = Field(default=8.0, ge=0.5, le=4096, description="IO size, KiB")
    read_fraction: float = Field(default=0.7, ge=0.0, le=1.0, description="share of the IOs that are reads, 0..1")
    vcpus_per_db: int = Field(default=4, ge=1, le=512, description="vCPUs per database VM")
    ram_gb_per_db: float = Field(default=16.0, ge=M.MIN_RAM_GB, le=24_000, description="RAM per database VM, GB")

    @model_validator(mode="after")
    def _burst(self) -> Tier:
        if self.burst_iops < self.guaranteed_iops:
            raise ValueError("burst_iops must be >= guaranteed_iops")
        return self


class TierSet(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    tiers: list[Tier] = Field(min_length=1, max_length=50)

    @model_validator(mode="after")
    def _unique(self) -> TierSet:
        names = [t.name for t in self.tiers]
        if len(set(names)) != len(names):
            twice = sorted({n for n in names if names.count(n) > 1})
            # the names as typed, not a Python list ("(got ['Gold', 'Gold'])", browser review 2026-11-29)
            raise ValueError(f"tier names must be unique: {', '.join(shown(n) for n in twice)} more than once")
        return self

    def by_name(self) -> dict[str, Tier]:
        return {t.name: t for t in self.tiers}


@lru_cache(maxsize=1)
def default_tiers() -> TierSet:
    """The shipped tier set (frozen, read once)."""
    return TierSet.model_validate(json.loads(DEFAULT_TIERS_FILE.read_text(encoding="utf-8")))


# said when one kind of file is given for another (planner.core.jsonio.other_kind)
file_kind(TierSet, "a tiers file")
