"""Every speed benchmark on two checkouts in one run (the speed table of the development log, docs/development.md).

Usage: python benchmarks/before_after.py BEFORE_DIR [AFTER_DIR]
BEFORE_DIR is another checkout of the app (e.g. ``git worktree add /tmp/before
<commit>``); the benchmark scripts are always this checkout's, pointed at each
app with ``--root``. Prints each script's output and, last, a markdown table.
Asserts nothing.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run(args, cwd=None) -> str:
    t = time.perf_counter()
    p = subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True)
    out = p.stdout + (p.stderr if p.returncode else "")
    print(f"$ {' '.join(args)}  [{time.perf_counter() - t:.0f} s, exit {p.returncode}]\n{out.strip()}\n", flush=True)
    return out


def kv(text: str) -> dict:
    return (
        {k: float(v) for k, v in re.findall(r"(\w+)=([0-9.]+)", text.strip().splitlines()[-1])} if text.strip() else {}
    )


def figures(root: Path) -> dict:
    f = {}
    for n in (10_000, 100_000, 1_000_000):
        f[f"sweep{n}"] = kv(run([str(HERE / "sweep.py"), "--designs", str(n), "--root", str(root)]))
    f["sweep_closed"] = kv(run([str(HERE / "sweep.py"), "--designs", "1000000", "--closed", "--root", str(root)]))
    f["one"] = kv(run([str(HERE / "one_design.py"), "--root", str(root)]))
    f["cli"] = kv(run([str(HERE / "cli.py"), "--root", str(root)]))
    f["cal"] = kv(run([str(HERE / "calibrate.py"), "--root", str(root)]))
    size = run([str(root / "benchmarks" / "size.py")], cwd=root)
    m = re.search(r"whole catalog: median of \d+ ([0-9.]+) s", size) or re.search(r"evaluated \d+ in ([0-9.]+) s", size)
    f["size_s"] = float(m.group(1)) if m else float("nan")
    rer = run([str(root / "benchmarks" / "ui_rerun.py")], cwd=root)
    m = re.search(r"all\s+n=\s*\d+ median\s+([0-9.]+) ms\s+p95\s+([0-9.]+)", rer)
    f["rerun"] = (float(m.group(1)), float(m.group(2))) if m else (float("nan"),) * 2
    f["browser"] = kv(run([str(HERE / "browser_whatif.py"), "--repeats", "8", "--root", str(root)]))
    return f


def main() -> None:
    before = Path(sys.argv[1]).resolve()
    after = Path(sys.argv[2]).resolve() if len(sys.argv) > 2 else HERE.parent
    b, a = figures(before), figures(after)
    sim = run([str(HERE / "simulate.py")])

    def sweep(f, n):
        d = f[f"sweep{n}"]
        return f"{n / d['designs_per_s'] * 1e3:,.0f} ms, {d['peak_mib']:.0f} MiB" if d else "failed"

    rows = [
        ("`evaluate_arrays`, 10^4 mixed designs (median of 5, peak traced)", sweep(b, 10_000), sweep(a, 10_000)),
        ("`evaluate_arrays`, 10^5 mixed designs", sweep(b, 100_000), sweep(a, 100_000)),
        ("`evaluate_arrays`, 10^6 mixed designs", sweep(b, 1_000_000), sweep(a, 1_000_000)),
        (
            "`evaluate_arrays`, 10^6 designs, one closed workload",
            *(
                f"{1e6 / f['sweep_closed']['designs_per_s'] * 1e3:,.0f} ms, {f['sweep_closed']['peak_mib']:.0f} MiB"
                for f in (b, a)
            ),
        ),
        (
            "one design with its band (`evaluate_report`, healthy + one node down)",
            *(f"{f['one']['report_ms']:.1f} ms, {f['one']['report_calls']:.0f} model call(s)" for f in (b, a)),
        ),
        (
            "SLA guarantee with its bootstrap band (N+1)",
            *(f"{f['one']['sla_ms']:.0f} ms, {f['one']['sla_calls']:.0f} model calls" for f in (b, a)),
        ),
        (
            "CLI `evaluate` (whole process, median of 7)",
            *(f"{f['cli']['cli_evaluate_ms']:.0f} ms ({f['cli']['import_share']:.0%} imports)" for f in (b, a)),
        ),
        (
            "`calibrate` (fit, 8 + 14 folds, 12 bootstraps; fresh process)",
            *(f"{f['cal']['calibrate_s']:.1f} s, {f['cal']['converged']:.0f} of 35 fits converged" for f in (b, a)),
        ),
        ("sizing 200 databases (`benchmarks/size.py`)", *(f"{f['size_s']:.1f} s" for f in (b, a))),
        (
            "UI rerun through AppTest (50 changes: median, p95)",
            *(f"{f['rerun'][0]:.0f} ms, {f['rerun'][1]:.0f} ms" for f in (b, a)),
        ),
        (
            "what-if in chromium, Design page (nodes, drive, transport: median)",
            *(f"{f['browser'].get('design_page_median_ms', float('nan')):.0f} ms" for f in (b, a)),
        ),
        (
            "what-if in chromium, Performance page (workload: median)",
            *(f"{f['browser'].get('performance_page_median_ms', float('nan')):.0f} ms" for f in (b, a)),
        ),
    ]
    print("| what | before | after |\n|---|---|---|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]} |")
    print("\n" + "\n".join(sim.strip().splitlines()[-2:]))


if __name__ == "__main__":
    main()
