"""UI rerun latency: AppTest reruns over 50 changes of node count, drive and workload.

Run: python3 benchmarks/ui_rerun.py   (target: median <= 300 ms)
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

from planner.models.workload import profiles

APP = str(Path(__file__).resolve().parent.parent / "app.py")
N = 50


def main() -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    from planner.models.catalog import load_catalog

    drives = [d.id for d in load_catalog().capacity_drive.values() if d.interface == "nvme"][:6]
    times = {"nodes": [], "drive": [], "workload": []}
    for i in range(N):
        kind = ("nodes", "drive", "workload")[i % 3]
        if kind == "workload":
            at.switch_page("hciplan_ui/performance_page.py").run()
            names = list(profiles())
            t = time.perf_counter()
            at.selectbox(key="p_workload").set_value(names[i % len(names)]).run()
        else:
            if not any(n.key == "d_nodes" for n in at.number_input):
                at.switch_page("hciplan_ui/design_page.py").run()
            t = time.perf_counter()
            if kind == "nodes":
                next(n for n in at.number_input if n.key == "d_nodes").set_value(3 + i % 10).run()
            else:
                at.selectbox(key="d_drive").set_value(drives[i % len(drives)]).run()
        times[kind].append((time.perf_counter() - t) * 1e3)
        assert not at.exception, [e.value for e in at.exception]
    allt = sorted(x for v in times.values() for x in v)
    p95 = allt[round(0.95 * (len(allt) - 1))]
    for k, v in times.items():
        print(f"{k:9s} n={len(v):2d} median {statistics.median(v):7.1f} ms  max {max(v):7.1f} ms")
    print(
        f"all       n={len(allt):2d} median {statistics.median(allt):7.1f} ms  p95 {p95:7.1f} ms  "
        f"(target median <= 300 ms)"
    )


if __name__ == "__main__":
    main()
