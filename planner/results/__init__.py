"""One design in, one JSON-ready report out: figures with their bands (held-out error
quantiles), the calibrated domain and its extrapolation flags, warnings and notes, the
latency curve; the same for the other architectures.

Imports :mod:`planner.engine` and below.
"""

__all__ = ["architecture_report", "calibrated_domain", "report", "uncertainty"]
