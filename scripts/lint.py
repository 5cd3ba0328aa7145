"""The checks the test script runs before the tests: lint, format and the import-layer
contracts, with the tools of the environment running this script."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent


def main() -> int:
    steps = [
        [sys.executable, "-m", "ruff", "check", "--quiet", "."],
        [sys.executable, "-m", "ruff", "format", "--check", "--quiet", "."],
        [str(BIN / "lint-imports"), "--no-cache"],
    ]
    for cmd in steps:
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            sys.stdout.write(r.stdout[-5000:])
            sys.stderr.write(r.stderr[-5000:])
            return r.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
