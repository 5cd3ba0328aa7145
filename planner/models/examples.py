"""The example files shipped with the package (``planner/data/examples``; the
repository's ``examples/`` folder is the same files)."""

from __future__ import annotations

from planner.core.errors import PlannerError
from planner.core.resources import EXAMPLES_DIR
from planner.models.design import parse_design

EXAMPLES = EXAMPLES_DIR


def example_designs() -> dict[str, str]:
    """Example design files (name -> topology); files that are not designs are skipped."""
    out = {}
    for f in sorted(EXAMPLES.glob("*.json")):
        try:
            d = parse_design(f.read_bytes())
        except PlannerError:
            continue
        out[f.stem] = d.topology
    return out


def example_stacks() -> dict[str, str]:
    """Example design files (name -> storage stack)."""
    out = {}
    for f in sorted(EXAMPLES.glob("*.json")):
        try:
            d = parse_design(f.read_bytes())
        except PlannerError:
            continue
        out[f.stem] = d.stack
    return out
