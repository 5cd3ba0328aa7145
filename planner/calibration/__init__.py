"""Measured data and the fit: the shipped benchmarks as points, the global fit with its
leave-one-configuration-out error and bootstrap bands, the refit on a user's files,
the file importers (fio, DiskSpd, VMFleet, a CSV template), the published results no fit
has seen and the database buffer model's held-out check (HammerDB on PostgreSQL).

Imports :mod:`planner.results` and below.
"""

__all__ = ["benchdata", "ceph_fit", "fit", "importers", "oltp_heldout", "points", "published", "refit", "seed_checks"]
