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


#: what separates a tier mix's entries and a tier's name from its count ("Standard=6,Premium=2"): a tier named
#: with either cannot be written in one
MIX_SEPARATORS = (",", "=")
#: the most databases of one tier a mix counts (the SLA page's box, ``--mix``)
MAX_MIX_COUNT = 100_000


def parse_mix(text: str, names: list[str]) -> dict[str, int]:
    """A tier mix written ``"Standard=6,Premium=2"`` as databases per tier of ``names`` (a tier named twice: its
    counts summed); anything else a :class:`TierError` of field ``mix`` in one line. One rule for ``price --mix``,
    ``proposal --mix`` and the document's command to make it again (:func:`mix_text`)."""
    counts: dict[str, int] = {}
    for item in text.split(","):
        name, eq, n = item.partition("=")
        name = name.strip()
        if not eq or name not in names or not n.strip().isdigit() or int(n) > MAX_MIX_COUNT:
            raise TierError(f"{shown(item.strip())} is not TIER=COUNT of {_mix_rule(names)}", "mix")
        counts[name] = counts.get(name, 0) + int(n)
    return counts


def check_mix(counts: dict[str, object], names: list[str]) -> dict[str, int]:
    """A tier mix kept as data (a saved scenario's counts) checked by :func:`parse_mix`'s rule: each tier one of
    ``names``, each count a whole number 0 to :data:`MAX_MIX_COUNT`; the tiers with a database."""
    out: dict[str, int] = {}
    for name, n in counts.items():
        if name not in names or isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_MIX_COUNT:
            raise TierError(f"{shown(str(name))}: {shown(str(n))} is not a count of {_mix_rule(names)}", "mix")
        if n:
            out[name] = n
    return out


def _mix_rule(names: list[str]) -> str:
    return f"these tiers ({', '.join(names)}), a count 0 to {MAX_MIX_COUNT:,}"


def mix_list(counts: dict[str, int]) -> str:
    """Databases per tier as a sentence lists them ("6 Standard, 2 Premium"), tiers without a database left out:
    the revenue sentence's, the proposal's mix and the SLA page's counts as sized."""
    return ", ".join(f"{n:,} {name}" for name, n in counts.items() if n)


def mix_text(counts: dict[str, int]) -> str:
    """Databases per tier as :func:`parse_mix` reads them ("Standard=6,Premium=2"), tiers without a database left
    out."""
    return ",".join(f"{name}={n}" for name, n in counts.items() if n)
