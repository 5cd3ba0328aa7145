"""The example files shipped with the package (``planner/data/examples``; the
repository's ``examples/`` folder is the same files)."""

from __future__ import annotations

from functools import lru_cache

from planner.core.errors import PlannerError
from planner.core.resources import EXAMPLES_DIR
from planner.models.design import Design, parse_design

EXAMPLES = EXAMPLES_DIR


@lru_cache(maxsize=1)
def _designs() -> dict[str, Design]:
    """Example files that validate as designs (name -> design); the others are skipped. Read
    once per process: they are the package's own files, and the app's Design and Compare pages
    list them on every rerun (60 files, 20-70 ms each time)."""
    out = {}
    for f in sorted(EXAMPLES.glob("*.json")):
        try:
            out[f.stem] = parse_design(f.read_bytes())
        except PlannerError:
            continue
    return out


def example_designs() -> dict[str, str]:
    """Example design files (name -> topology); files that are not designs are skipped."""
    return {name: d.topology for name, d in _designs().items()}


def example_models() -> dict[str, Design]:
    """Example design files (name -> design), read once per process."""
    return dict(_designs())


def example_stacks() -> dict[str, str]:
    """Example design files (name -> storage stack)."""
    return {name: d.stack for name, d in _designs().items()}
