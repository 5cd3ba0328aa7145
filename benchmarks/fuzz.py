"""Fuzz campaign: generated inputs for every CLI command and every upload, run
in-process, counted by outcome. The contract (tests/fuzzcases.py): exit 0 with
strict JSON (every null of evaluate/sla/price/size/compare with its reason; every
CSV cell neutralised; every imported point within the measured-value rule) or
exit 2 with one 'error: field: reason' line; an upload is accepted or refused
with a PlannerError; never an exception, never a hang. The ``hostile:`` kinds are
issue 23's generators (tests/fuzzcases.py, HOSTILE).

Run: python3 benchmarks/fuzz.py [--inputs 10000] [--seed 1]   (prints counts; asserts nothing)
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import tempfile
import time
from pathlib import Path

# the fuzz generators live with the tests that run them bounded (tests/fuzzcases.py), which the
# package does not install; a script's path starts at its own folder, so tests/ is added
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import fuzzcases as fc

ROOT = Path(__file__).resolve().parent.parent

# share of the campaign per kind of input (calibrate is mostly argument errors: a valid dry run takes seconds)
WEIGHTS = {
    "evaluate": 18,
    "catalog": 7,
    "schema": 3,
    "calibrate": 2,
    "validate": 2,
    "sla": 9,
    "price": 9,
    "size": 6,
    "import": 5,
    "bom": 5,
    "compare": 6,
    "upload:design": 13,
    "upload:catalog": 8,
    "upload:link": 7,
    # issue 23's hostile files: deep JSON into every reader, oversize CSV fields, symlink
    # loops, out-of-bound calibration sets, formula cells, many-job fio, measured values, DiskSpd
    **{f"hostile:{k}": 2 for k in fc.HOSTILE},
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--inputs", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--show", type=int, default=3, help="examples printed per breach")
    ap.add_argument("--time-limit", type=int, default=fc.TIME_LIMIT_S, help="seconds before a run counts as a hang")
    args = ap.parse_args()
    from streamlit.logger import set_log_level

    set_log_level("error")  # ui.state's caches warn that no Streamlit runtime is running
    rnd = random.Random(args.seed)
    kinds, weights = zip(*WEIGHTS.items())
    counts: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    examples: dict[str, list] = collections.defaultdict(list)
    before = fc.calibration_digest()
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.inputs):
            kind = rnd.choices(kinds, weights)[0]
            result, shown = fc.run_case(rnd, kind, Path(tmp), args.time_limit)
            counts[kind][result] += 1
            if result not in ("ok", "error") and len(examples[result]) < args.show:
                examples[result].append(f"{kind}: {shown}")
    seconds = time.perf_counter() - t0
    total = collections.Counter()
    for c in counts.values():
        total.update(c)
    print(f"{args.inputs:,} inputs (seed {args.seed}) in {seconds:.0f} s; a run over {args.time_limit} s is a hang")
    print(f"{'input':<22}{'n':>7}{'exit 0 / accepted':>19}{'exit 2 / refused':>18}{'breaches':>10}")
    for kind in kinds:
        c = counts[kind]
        n = sum(c.values())
        bad = n - c["ok"] - c["error"]
        print(f"{kind:<22}{n:>7,}{c['ok']:>19,}{c['error']:>18,}{bad:>10,}")
    n = sum(total.values())
    print(f"{'total':<22}{n:>7,}{total['ok']:>19,}{total['error']:>18,}{n - total['ok'] - total['error']:>10,}")
    for result, ex in examples.items():
        print(f"\nbreach: {result} ({total[result]})")
        for e in ex:
            print("   ", e)
    print("\ncalibration.json unchanged:", fc.calibration_digest() == before)


if __name__ == "__main__":
    main()
