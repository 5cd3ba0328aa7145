"""Honesty audit 2026-12-01: the Design page's cache picker read "Intel Optane ... 128GB · 542k write IOPS · 0.09 µs":
both figures are estimates in the catalog (its ``estimated``), and 0.09 µs is the write latency, unlabelled (the
read's is 0.305 µs). Every picker marks an estimated figure "~... (estimated)" by the catalog's own flags, and the
cache's latency says which it is."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent


def test_an_estimated_figure_is_marked_by_the_catalogs_flags():
    from hciplan_ui import fmt
    from planner.models.catalog import load_catalog

    optane = next(r for r in load_catalog().of("cache_device").values() if r.estimated.get("rand_write_4k_iops"))
    assert fmt.estimated(optane, ("rand_write_4k_iops",), "542k", after=" write IOPS") == "~542k write IOPS (estimated)"
    published = next(r for r in load_catalog().of("cpu").values() if "cores" not in r.estimated)
    assert fmt.estimated(published, ("cores",), "32c") == "32c"


def test_the_design_pages_pickers_mark_estimates_and_name_the_cache_latency():
    from planner.models.catalog import load_catalog

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.switch_page("hciplan_ui/design_page.py").run()
    assert not at.exception
    options = [o for box in at.selectbox for o in (box.options or [])]
    cache = load_catalog().of("cache_device")
    for r in cache.values():
        (label,) = [o for o in options if o.startswith(f"{r.vendor} {r.model} · ")]
        iops_est = "rand_write_4k_iops" in r.estimated
        lat_est = "write_latency_us" in r.estimated
        assert ("write IOPS (estimated)" in label) == iops_est, label
        assert f"write latency {'~' if lat_est else ''}{r.write_latency_us:g} µs" in label, label
        assert ("µs (estimated)" in label) == lat_est, label
    # the capacity drives' IOPS the same way
    drives = load_catalog().of("capacity_drive")
    for r in drives.values():
        (label,) = [o for o in options if o.startswith(f"{r.vendor} {r.model} · ")]
        est = "rand_read_4k_iops" in r.estimated or "rand_write_4k_iops" in r.estimated
        assert ("read/write IOPS (estimated)" in label) == est, label


def test_a_nic_held_below_its_ports_says_what_a_card_carries():
    """Verification walk 2026-12-01: the NIC picker read "2×100 GbE" of an E810-CQDA2 the model credits ~100 Gb/s
    a card (its controller) and of a ConnectX-5 on PCIe 3.0 x16 (~126 Gb/s); the label says what a card carries
    where that is below its ports' sum, marked as the catalog marks the figures it rests on."""
    from planner.models.catalog import load_catalog
    from planner.physics.network import nic_card_gbit_s

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.switch_page("hciplan_ui/design_page.py").run()
    options = [o for box in at.selectbox for o in (box.options or [])]
    held = 0
    for r in load_catalog().of("nic").values():
        (label,) = [o for o in options if o.startswith(f"{r.vendor} {r.model} · ")]
        card = nic_card_gbit_s(r)
        below = card < r.ports * r.port_gbit_s - 1e-9
        held += below
        assert (f"{card:,.0f} Gb/s a card at most (its PCIe link or controller)" in label) == below, label
    assert held >= 2  # the ConnectX-5 2 x 100 GbE and the E810-CQDA2 at least
