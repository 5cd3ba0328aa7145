"""The named sizing rules: Microsoft's resiliency guidance, drive and cache
minimums, network and memory rules (planner.rules)."""
import numpy as np

from planner import rules as R
from planner.capacity import RESILIENCY_CODES


def test_fault_tolerance_table():
    """Microsoft: nested on two servers survives a server and a drive; three-way
    mirror on three survives a node and a drive but not two nodes (pool quorum)."""
    code = RESILIENCY_CODES
    cases = {
        ("node", 2, "mirror-2way"): True, ("node", 2, "nested-mirror-2way"): True,
        ("node-and-drive", 2, "mirror-2way"): False, ("node-and-drive", 2, "nested-mirror-2way"): True,
        ("node-and-drive", 3, "mirror-3way"): True, ("two-nodes", 3, "mirror-3way"): False,
        ("two-nodes", 4, "mirror-3way"): True, ("two-nodes", 4, "parity-dual"): True,
        ("two-nodes", 2, "nested-mirror-2way"): False, ("node-and-drive", 5, "mirror-2way"): False,
    }
    for (ft, n, res), want in cases.items():
        assert bool(R.allowed_by_fault_tolerance(ft, n, code[res])) is want, (ft, n, res)
    assert not R.recommended_resiliency(3, code["mirror-2way"]) and R.recommended_resiliency(2, code["mirror-2way"])
    assert not R.recommended_resiliency(4, code["parity-single"])
    assert not R.mirror_for_databases(code["mirror-accelerated-parity"], False)
    assert R.mirror_for_databases(code["mirror-accelerated-parity"], True)


def test_drive_and_cache_rules():
    # an HDD needs a cache; PMem never caches HDD; an NVMe caches NVMe only with more endurance
    assert not R.cache_media_ok(False, 0, 0.0, 1, 0.1)
    assert R.cache_media_ok(True, 3, 3.0, 1, 0.1) and not R.cache_media_ok(True, 4, 100.0, 1, 0.1)
    assert R.cache_media_ok(True, 3, 3.0, 3, 1.0) and not R.cache_media_ok(True, 3, 1.0, 3, 1.0)
    assert not R.cache_media_ok(True, 2, 10.0, 2, 1.0)  # SSD caching SSD: not advised
    assert list(R.min_capacity_drives_ok(np.array([2, 3, 4]))) == [False, False, True]
    assert not R.capacity_multiple_of_cache_ok(True, 7, 2) and R.capacity_multiple_of_cache_ok(True, 8, 4)
    assert not R.hybrid_cache_ratio_ok(1, 1600.0, 64.0) and R.hybrid_cache_ratio_ok(1, 6400.0, 64.0)
    assert R.bay_form_factor("PowerEdge R760 (24 x 2.5in NVMe configuration)") == "2.5in"
    assert not R.drive_fits_bay("3.5in", "2.5in") and not R.drive_fits_bay("u.2", "e3.s")


def test_network_and_memory_rules():
    assert R.network_recommended_ok(3, False, False, 10.0)  # small, not all-NVMe: 10 GbE TCP is the minimum
    assert not R.network_recommended_ok(3, True, False, 10.0)  # all-NVMe beyond two nodes
    assert not R.network_recommended_ok(4, False, True, 10.0)  # 4+ nodes: 25 GbE
    assert R.network_recommended_ok(4, False, False, 10.0, override=True)
    assert R.dimm_counts(8, 2, 32) == [16, 32] and R.dimm_counts(12, 2, 24) == [24]
    assert R.usable_dimm_slots(32, 2, 2, 4) == 28
