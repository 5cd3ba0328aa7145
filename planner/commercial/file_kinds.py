"""Every kind of input file the CLI and the app read, imported so that each registers itself
(:func:`planner.core.jsonio.file_kind`): a message then says when one kind is given for another
("db: this is a demand file, not a database description"). The CLI (``planner.cli.main``) and the
app (``hciplan_ui.FIRST_IMPORTS``) import this module before they read a file; it is the one list."""

from planner.commercial import pricing  # noqa: F401
from planner.models import database, demand, design, tiers, workload  # noqa: F401
