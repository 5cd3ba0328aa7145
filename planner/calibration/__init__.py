"""Measured data and the fit: the shipped benchmarks as points, the global fit with its
leave-one-configuration-out error and bootstrap bands, the refit on a user's files,
the file importers (fio, DiskSpd, VMFleet, a CSV template) and the published results no fit
has seen.

Imports :mod:`planner.results` and below.
"""

__all__ = ["benchdata", "ceph_fit", "fit", "importers", "points", "published", "refit", "seed_checks"]
