"""Sizing benchmark: examples/demand-200dbs.json over the whole catalog.

Prints the catalog load time apart, then the median of 5 sizing runs after one
warm-up (wall time and the search's own breakdown), the peak memory a run
allocates (tracemalloc), and the same with 40 extra NIC records and 40 extra
drives of a user catalog (sizing must neither slow down much nor grow memory
with uploaded parts); then time and peak memory against ``--top`` (5 to 100) on
the 200-database and the HammerDB demands, which should be nearly flat. Run:
python3 benchmarks/size.py. Prints figures only; no test asserts time.
"""

import json
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

from planner.models.catalog import load_catalog
from planner.models.demand import Demand
from planner.sizing.search import size

ROOT = Path(__file__).resolve().parent.parent


def extra_parts(folder: Path) -> None:
    """40 NICs (same classes as the catalog's, other prices) and 40 drives."""
    cat = load_catalog()
    nics = list(cat.nic.values())
    drives = list(cat.capacity_drive.values())
    recs = []
    for i in range(40):
        n = nics[i % len(nics)].model_dump(mode="json")
        recs.append({**n, "id": f"user-nic-{i}", "list_price_usd": (n["list_price_usd"] or 500) * (1.0 + 0.01 * i)})
    (folder / "nics.json").write_text(json.dumps({"device_class": "nic", "records": recs}))
    recs = []
    for i in range(40):
        d = drives[i % len(drives)].model_dump(mode="json")
        recs.append({**d, "id": f"user-drive-{i}", "list_price_usd": (d["list_price_usd"] or 500) * (1.0 + 0.013 * i)})
    (folder / "drives.json").write_text(json.dumps({"device_class": "capacity_drive", "records": recs}))


def run(demand: Demand, cat, label: str) -> None:
    size(demand, cat)  # warm-up
    times, parts = [], []
    for _ in range(5):
        t = time.perf_counter()
        r = size(demand, cat)
        times.append(time.perf_counter() - t)
        parts.append(r.search.get("timing_s", {}))
    tracemalloc.start()
    r = size(demand, cat)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    med = statistics.median(times)
    print(
        f"{label}: median of 5 {med:.3f} s (min {min(times):.3f}, max {max(times):.3f}); peak allocated "
        f"{peak / 1e6:.0f} MB; {r.search['platforms']} platforms, {r.search['storage_sets']:,} storage sets, "
        f"{r.search['nics_kept']} NICs kept ({r.search['nics_dropped_as_interchangeable']} interchangeable dropped), "
        f"{r.designs_screened:,} designs in the space, {r.designs_evaluated:,} evaluated in {r.search['rounds']} round(s)"
    )
    last = parts[-1]
    print(
        f"  breakdown (last run, cumulative): tables {last.get('tables_s', 0):.3f} s, screens "
        f"{last.get('screens_s', 0):.3f} s, search {last.get('search_s', 0):.3f} s, checks/binding/multi-year "
        f"{last.get('checks_s', 0):.3f} s"
    )
    b = r.best
    print(
        f"  best: {b['design']['name'] if b else None}"
        + (f" ${b['cost_usd_per_month']:,.0f}/month, binding {b['binding']}" if b else f" ({r.explanation})")
    )


def top_sweep(name: str, cat) -> None:
    """Time and peak memory of one run against ``top`` (alternatives come from the evaluated
    candidates; a found signature leaves the search)."""
    demand = Demand.model_validate(json.loads((ROOT / "examples" / name).read_text()))
    size(demand, cat)  # warm-up
    for top in (5, 25, 50, 75, 100):
        t = time.perf_counter()
        r = size(demand, cat, top=top)
        dt = time.perf_counter() - t
        tracemalloc.start()
        size(demand, cat, top=top)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(
            f"  {name} --top {top:>3}: {dt:.2f} s, peak allocated {peak / 1e6:.0f} MB, "
            f"{1 + len(r.alternatives)} designs returned, {r.designs_evaluated:,} evaluated in {r.search['rounds']} round(s)"
        )


def main() -> None:
    demand = Demand.model_validate(json.loads((ROOT / "examples" / "demand-200dbs.json").read_text()))
    t = time.perf_counter()
    cat = load_catalog()
    print(
        f"catalog load: {time.perf_counter() - t:.3f} s (first load, then cached); "
        f"{sum(len(cat.of(c)) for c in ('chassis', 'cpu', 'capacity_drive', 'cache_device', 'nic', 'memory_module'))}"
        " records"
    )
    run(demand, cat, "200 databases, whole catalog")
    with tempfile.TemporaryDirectory() as tmp:
        extra_parts(Path(tmp))
        t = time.perf_counter()
        cat2 = load_catalog(tmp)
        print(f"catalog load with 40 extra NICs and 40 extra drives: {time.perf_counter() - t:.3f} s")
        run(demand, cat2, "200 databases, + 40 NICs + 40 drives")
    print("time and memory against --top:")
    for name in ("demand-200dbs.json", "demand-hammerdb.json"):
        top_sweep(name, cat)


if __name__ == "__main__":
    main()
