"""Calibration speed and convergence: the full fit, leave-one-configuration-out
folds, pseudo-extrapolation folds and 12 bootstrap refits, as
``python -m planner calibrate`` runs them (processes on every core), without
writing the file. Prints wall time (fresh process, imports and data parsing
included), model evaluations and how many fits of each kind converged.
Asserts nothing. Usage: python benchmarks/calibrate.py [--root DIR]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = (
    "import json, sys; from planner.calibration.fit import run_calibration; "
    "out = run_calibration(write=False); f = out['fit']; "
    "print(json.dumps({k: f.get(k) for k in ('function_evaluations', 'converged', 'objective', 'refits', 'termination')}))"
)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=str(ROOT))
    a = ap.parse_args()
    t = time.perf_counter()
    run = subprocess.run([sys.executable, "-c", CODE], cwd=a.root, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t
    fit = json.loads(run.stdout.strip().splitlines()[-1])
    refits = fit.get("refits") or {}
    conv = sum(r["converged_count"] for r in refits.values()) + bool(fit["converged"])
    count = sum(r["count"] for r in refits.values()) + 1
    print(
        f"calibrate: {wall:.1f} s wall; full fit {fit['function_evaluations']} evaluations, converged {fit['converged']}, "
        f"objective {fit['objective']:.2f}" + (f" ({fit['termination']})" if fit.get("termination") else "")
    )
    for k, r in refits.items():
        print(
            f"  {k:14s} {r['count']:2d} refits, {r['converged_count']:2d} converged"
            + (f", at most {r['steps_max']} steps of {r['steps_cap']}" if "steps_max" in r else "")
        )
    print(f"calibrate_s={wall:.1f} converged={conv}/{count}")


if __name__ == "__main__":
    main()
