"""Write tests/golden/reports.json: the golden cases' reports as the model gives them now.

Run after a deliberate change of the model's figures (and say so in CHANGELOG.md):
``python tests/golden/make_golden.py``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(argv: list[str]) -> dict:
    """One CLI run in-process: exit status and the parsed JSON it printed."""
    from planner.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return {"status": status, "report": json.loads(out.getvalue()) if status == 0 else err.getvalue()}


def main() -> None:
    os.chdir(ROOT)
    from cases import cases, strip  # this folder's (run as a script, its folder is on the path)

    reports = [{"argv": argv, **strip(run(argv))} for argv in cases()]
    (ROOT / "tests" / "golden" / "reports.json").write_text(json.dumps(reports, indent=1, sort_keys=True) + "\n")
    print(f"{len(reports)} reports written")


if __name__ == "__main__":
    main()
