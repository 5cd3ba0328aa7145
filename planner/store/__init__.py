"""Saved scenarios: a customer's whole session kept in a database.

Imports :mod:`planner.sizing` and below; the CLI and the app sit above it.
"""

__all__ = ["scenarios", "session"]
