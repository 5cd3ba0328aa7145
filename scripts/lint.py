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


def main() -> int:
    # the site is built into a temporary folder: nothing is left in the work tree, and two
    # runs side by side do not share one site/
    site = tempfile.mkdtemp(prefix="hciplan-site-")
    steps = [
        [sys.executable, "-m", "ruff", "check", "--quiet", "."],
        [sys.executable, "-m", "ruff", "format", "--check", "--quiet", "."],
        [str(BIN / "lint-imports"), "--no-cache"],
        [sys.executable, "-m", "mypy"],
        [str(BIN / "mkdocs"), "build", "--strict", "--quiet", "--site-dir", site],
    ]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # material's end-of-life banner, on every build
    try:
        for cmd in steps:
            r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
            if r.returncode != 0:
                sys.stdout.write(r.stdout[-5000:])
                sys.stderr.write(r.stderr[-5000:])
                return r.returncode
    finally:
        shutil.rmtree(site, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
