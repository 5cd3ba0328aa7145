"""Validated inputs (pydantic v2, frozen): the hardware catalog, a design and its resolved parts,
a workload, a database as a DBA describes it and the IO it implies, service tiers, a sizing
demand, and the fitted model parameters.

Imports :mod:`planner.core` only.
"""

__all__ = ["catalog", "database", "demand", "design", "examples", "oltp", "params", "stacks", "tiers", "workload"]
