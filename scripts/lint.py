"""The checks the test script runs before the tests: lint, format, the import-layer
contracts, the type check (mypy, configured in pyproject.toml) and the docs site
(``mkdocs build --strict``: a broken page, link, generated table or docstring reference
fails), with the tools of the environment running this script."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parent.parent


def steps(site: str) -> list[list[str]]:
    """The commands lint runs, in order; the docs site is built into ``site``."""
    return [
        [sys.executable, "-m", "ruff", "check", "--quiet", "."],
        [sys.executable, "-m", "ruff", "format", "--check", "--quiet", "."],
        [str(BIN / "lint-imports"), "--no-cache"],
        [sys.executable, "-m", "mypy"],
        # no --quiet: it hides the warnings, and --strict fails only on the warnings it counts (a broken
        # link and a missing anchor passed with it); the output is captured, and printed only on a failure
        [str(BIN / "mkdocs"), "build", "--strict", "--site-dir", site],
    ]


def _failure(output: str) -> str:
    """A failed step's output to show: its last 5,000 characters without mkdocs' INFO lines, which
    would push the warnings that failed the build out of them."""
    kept = "".join(ln for ln in output.splitlines(keepends=True) if not ln.startswith("INFO"))
    return kept[-5000:]


def main() -> int:
    # the site is built into a temporary folder: nothing is left in the work tree, and two
    # runs side by side do not share one site/
    site = tempfile.mkdtemp(prefix="hciplan-site-")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # material's end-of-life banner, on every build
    try:
        for cmd in steps(site):
            r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
            if r.returncode != 0:
                sys.stdout.write(_failure(r.stdout))
                sys.stderr.write(_failure(r.stderr))
                return r.returncode
    finally:
        shutil.rmtree(site, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
