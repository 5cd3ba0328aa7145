"""A measured point: one benchmark step with the design and load it ran on."""

from __future__ import annotations

from dataclasses import dataclass, field

from planner.models.design import ResolvedDesign
from planner.models.workload import Workload


@dataclass
class BenchPoint:
    group: str  # configuration (the unit of cross-validation)
    dataset: str  # "reference" or "dell"
    label: str
    design: ResolvedDesign
    workload: Workload
    measured: dict = field(default_factory=dict)  # metric -> value (nan if absent)
    in_scope: bool = True
    note: str = ""
