"""The model against Microsoft and Intel's 12-node record cluster (2018),
out of sample: twelve nodes where the data has 2 to 4, delimited volumes,
persistent memory over NVMe (planner.calibration.published.record_checks)."""

import pytest
from uitables import tables

from planner.calibration import fit as calibration
from planner.calibration.published import RECORD_DESIGN, ceiling, record_checks
from planner.models.design import parse_design
from planner.models.workload import Workload
from planner.results.report import evaluate_report

PCIE3_X4_MB_S = 3938  # 8 GT/s x 4 lanes x 128/130 encoding, the P4510's link


@pytest.fixture(scope="module")
def checks():
    return {c["label"].split(", ")[1].split(" (")[0]: c for c in record_checks()}


def test_no_fit_has_seen_a_twelve_node_cluster():
    assert max(p.design.nodes for p in calibration.all_points()) <= 4


def test_the_4k_records_lie_within_15_percent_of_the_model_ceiling(checks):
    assert checks["4K 100% random read"]["measured"] == 13_798_674
    assert checks["4K 90/10 random read/write"]["measured"] == 9_450_000
    for name in ("4K 100% random read", "4K 90/10 random read/write"):
        c = checks[name]
        assert abs(c["error"]) <= 0.15, c
        assert c["low"] <= c["measured"] <= c["high"], c
        assert "nodes" in c["extrapolation"] and "volume_allocation" in c["extrapolation"]


def test_the_ceiling_is_a_saturated_station_on_a_load_the_nodes_can_host(checks):
    from planner.models.catalog import load_catalog
    from planner.models.design import resolve
    from planner.physics.hosting import host_checks

    design = RECORD_DESIGN | {"cache_mode": "read-write"}
    rd = resolve(parse_design(design), load_catalog())
    for name in ("4K 100% random read", "4K 90/10 random read/write"):
        c = checks[name]
        assert max(c["utilization"].values()) > 0.97, c
        w = Workload(
            name="w",
            block_size_kib=4,
            read_fraction=c["read_fraction"],
            threads_per_vm=1,
            working_set_gb_per_vm=10.0,
            **c["load"],
        )
        assert not host_checks(rd, w)


def test_ceiling_is_the_best_of_the_grid_and_obeys_littles_law():
    base = Workload(name="w", block_size_kib=4, read_fraction=1.0, vms_per_node=8, working_set_gb_per_vm=10.0)
    design = RECORD_DESIGN | {"cache_mode": "read-write"}
    best, rep = ceiling(design, base)
    smaller = best.model_copy(update={"outstanding_per_thread": 4})
    assert evaluate_report(parse_design(design), smaller, degraded=False)["iops"] <= rep["iops"]
    outstanding = 12 * best.vms_per_node * best.outstanding_per_vm
    assert rep["iops"] * rep["vm_latency_ms"] / 1e3 == pytest.approx(outstanding, rel=1e-6)


def test_the_drives_could_not_have_served_the_sequential_read(checks):
    """Why the design caches reads: 549 GB/s over 12 nodes is more than four
    PCIe 3.0 x4 links per node carry, and the model's write-only answer (reads
    from the drives) is far below the measurement."""
    c = checks["2 MB sequential read"]
    assert c["measured"] / 12 > 4 * PCIE3_X4_MB_S
    assert c["write_only_bandwidth_mb_s"] < 0.5 * c["measured"]
    assert c["bottleneck"] == "cache"


@pytest.mark.xfail(
    strict=True,
    reason="known miss, with the estimate's: the band's low end (611 GB/s) is above "
    "the 549 GB/s delivered. It covered it (542) before writes waited for their last copy, which "
    "changed the held-out ratios the band is drawn from; the point sits outside every calibrated "
    "dimension the band widens for (12 nodes, 2 MB, PMem read cache)",
)
def test_band_covers_the_sequential_read(checks):
    c = checks["2 MB sequential read"]
    assert c["low"] <= c["measured"] <= c["high"]


@pytest.mark.xfail(
    strict=True,
    reason="known miss: the model reads persistent memory at its measured module "
    "bandwidth (12 x 6.52 GB/s per node) and predicts 939 GB/s; the cluster delivered 549. Nothing in "
    "the catalog (memory channels, UPI, per-KiB CPU) binds below that; one point cannot tell copy "
    "cost from channel contention",
)
def test_sequential_read_from_persistent_memory_within_25_percent(checks):
    assert abs(checks["2 MB sequential read"]["error"]) <= 0.25


@pytest.mark.xfail(
    strict=True,
    reason="known miss: the fitted stack latency (65 us, from clusters without "
    "persistent memory) alone exceeds the record's 'consistently less than 40 us'",
)
def test_unloaded_read_latency_below_the_records_bound(checks):
    c = checks["4K 100% random read"]
    assert c["unloaded_read_latency_ms"] < c["read_latency_ms_upper_bound"]


def test_calibration_page_lists_the_record_rows():
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(Path(__file__).resolve().parent.parent / "app.py"), default_timeout=120).run()
    at.switch_page("hciplan_ui/calibration_page.py").run()
    assert not at.exception
    rows = next(t.value for t in tables(at) if "Result" in t.value.columns).to_dict("records")
    by = {r["Result"]: r for r in rows}
    rec = by["Microsoft/Intel 12-node (2018), 4K 100% random read (the 13.7M IOPS record)"]
    assert rec["Measured"] == "13,798,674 IOPS" and rec["Bound by"] == "host CPU"
    assert "load not published" in rec["Predicted for"]
    lat = by["Microsoft/Intel 12-node (2018), 4K 100% random read, read latency"]
    assert lat["Measured"] == "< 0.040 ms" and lat["Error"].startswith("at least +")
    assert by["Microsoft/Intel 12-node (2018), 2 MB sequential read"]["Measured"] == "549,000 MB/s"


def test_platform_peaks_are_not_reached_at_any_published_point():
    from planner.calibration.published import all_checks

    rows = [c for c in all_checks() if c["memory_utilization"] is not None]
    assert len(rows) >= 4
    assert all(0 <= c["memory_utilization"] < 1 and 0 <= c["pcie_utilization"] < 1 for c in rows)


def test_calibration_page_shows_memory_and_pcie_busy():
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(Path(__file__).resolve().parent.parent / "app.py"), default_timeout=120).run()
    at.switch_page("hciplan_ui/calibration_page.py").run()
    rows = next(t.value for t in tables(at) if "Result" in t.value.columns).to_dict("records")
    busy = [r["Memory / PCIe busy per node"] for r in rows]
    assert busy[0].endswith("%") and " / " in busy[0]
    assert "–" in busy  # the latency bound has no load to count


def test_the_docs_table_and_the_app_give_a_bound_miss_one_rounding():
    """Audit 2026-12-01: the 12-node latency miss read "at least +64 %" in the docs and "at least +63.5 %" in the
    app; both now take :func:`planner.calibration.published.error_text`."""
    import importlib.util
    from pathlib import Path

    from planner.calibration.published import all_checks, error_text

    bound = next(c for c in all_checks() if c["measured_bound"])
    words = error_text(bound)
    assert words == f"at least {100 * bound['error']:+.1f} %"
    spec = importlib.util.spec_from_file_location(
        "_pt", Path(__file__).resolve().parent.parent / "scripts" / "published_table.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert f"| {words} |" in mod.table()
