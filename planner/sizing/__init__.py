"""Sizing: every rule checked on one design, the search for the cheapest designs that meet
a demand, what-if sensitivity, the comparison of designs, and the proposal's data.

Imports :mod:`planner.commercial`, :mod:`planner.calibration` and below.
"""

__all__ = ["checks", "compare", "proposal", "scenarios", "search"]
