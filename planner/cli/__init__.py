"""Command line: ``hciplan COMMAND`` (or ``python -m planner COMMAND``)."""

from planner.cli.main import main

__all__ = ["main"]
