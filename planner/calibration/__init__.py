"""Measured data and the fit: the shipped benchmarks as points, the global fit with its
leave-one-configuration-out error and bootstrap bands, the refit on a user's files,
the file importers (fio, DiskSpd, VMFleet, a CSV template), the published results no fit
has seen and the database layer's held-out checks (HammerDB on PostgreSQL, HammerDB on Azure SQL
Managed Instance).

Imports :mod:`planner.results` and below.
"""

__all__ = [
    "benchdata",
    "ceph_fit",
    "fit",
    "importers",
    "mi_heldout",
    "oltp_heldout",
    "points",
    "published",
    "refit",
    "seed_checks",
]
