"""Whole-process time of ``python -m planner evaluate`` and the share spent
importing (``-X importtime``, top-level imports summed). Prints figures,
asserts nothing. Usage: python benchmarks/cli.py [--runs N] [--root DIR]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["-m", "planner", "evaluate", "examples/reference.json", "--workload", "oltp-8k"]


def import_seconds(root: Path) -> tuple[float, list[tuple[float, str]]]:
    err = subprocess.run([sys.executable, "-X", "importtime", *ARGS], cwd=root, capture_output=True, text=True).stderr
    top = []
    for line in err.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        name_raw = line.rsplit("|", 1)[1]
        if name_raw.startswith(" ") and not name_raw.startswith("  "):  # a top-level import
            top.append((int(line.split("|")[1].strip()) / 1e6, name_raw.strip()))
    return sum(t for t, _ in top), sorted(top, reverse=True)[:5]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--root", default=str(ROOT))
    a = ap.parse_args()
    root = Path(a.root)
    subprocess.run([sys.executable, *ARGS], cwd=root, capture_output=True)  # warm the file cache
    walls = []
    for _ in range(a.runs):
        t = time.perf_counter()
        subprocess.run([sys.executable, *ARGS], cwd=root, capture_output=True, check=True)
        walls.append(time.perf_counter() - t)
    wall = statistics.median(walls)
    imp = statistics.median(import_seconds(root)[0] for _ in range(3))
    _, heavy = import_seconds(root)
    print(
        f"evaluate (whole process): median {wall * 1e3:.0f} ms of {a.runs} (best {min(walls) * 1e3:.0f} ms); "
        f"imports {imp * 1e3:.0f} ms = {imp / wall:.0%}"
    )
    print("heaviest top-level imports: " + ", ".join(f"{n} {t * 1e3:.0f} ms" for t, n in heavy))
    print(f"cli_evaluate_ms={wall * 1e3:.0f} import_share={imp / wall:.2f}")


if __name__ == "__main__":
    main()
