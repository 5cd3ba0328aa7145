"""A storage latency's band reaches no lower than the fastest IO the model can serve for the design, on every
stack: a read at the fastest device that holds data it can be served from, a write at the device that acknowledges
it (datasheets, queue depth 1). An S2D band once reached 0.024 ms beside drives that read in 0.120 ms at best."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from planner.models.catalog import load_catalog
from planner.models.design import parse_design, resolve
from planner.models.workload import load_workload
from planner.results.report import device_latency_floor_ms, evaluate_report, latency_curve

EX = Path(__file__).resolve().parent.parent / "examples"


def _design(name: str, **changes):
    return parse_design({**json.loads((EX / f"{name}.json").read_text()), **changes})


def _latency_us(design) -> dict[str, float]:
    n = resolve(design, load_catalog()).node
    out = {"drive_read": n.drive.read_latency_us, "drive_write": n.drive.write_latency_us}
    if n.cache is not None:
        out |= {"cache_read": n.cache.read_latency_us, "cache_write": n.cache.write_latency_us}
    return out


def test_an_s2d_read_band_stays_above_its_devices():
    d = _design("sas-4node")
    us = _latency_us(d)
    # write-only cache (flash over flash): reads from the capacity drives, or from the cache device while a written
    # block waits to be destaged; writes land in the cache device
    assert device_latency_floor_ms(resolve(d, load_catalog())) == pytest.approx(
        (min(us["drive_read"], us["cache_read"]) / 1e3, us["cache_write"] / 1e3)
    )
    r = evaluate_report(d, load_workload("oltp-8k"))
    assert r["read_latency_ms_low"] >= 0.120 - 1e-12  # the S650DC cache device, the fastest read in the design
    assert r["read_latency_ms_low"] <= r["read_latency_ms"]
    assert r["write_latency_ms_low"] >= us["cache_write"] / 1e3 - 1e-12
    assert r["p99_read_latency_ms_low"] >= r["read_latency_ms_low"]
    assert any("queue depth 1" in b for b in r["band_basis"])


def test_a_ceph_read_band_stays_above_its_data_drives():
    # a Ceph cache device holds BlueStore's DB/WAL, no data: every read the model counts comes from a data drive,
    # however fast the DB/WAL device reads; a write is acknowledged from it (BlueStore's deferred write)
    base = json.loads((EX / "ceph-6node-reef.json").read_text())
    node = {**base["node"], "cache_devices": {"model": "intel-optane-p4800x-375gb", "count": 2}}
    d = parse_design({**base, "node": node})
    us = _latency_us(d)
    assert us["cache_read"] < us["drive_read"]
    rd = resolve(d, load_catalog())
    assert device_latency_floor_ms(rd) == pytest.approx((us["drive_read"] / 1e3, us["cache_write"] / 1e3))
    plain = _design("ceph-6node-reef")
    assert device_latency_floor_ms(resolve(plain, load_catalog())) == pytest.approx(
        (us["drive_read"] / 1e3, us["drive_write"] / 1e3)
    )
    r = evaluate_report(d, load_workload("oltp-8k"))
    assert us["drive_read"] / 1e3 - 1e-12 <= r["read_latency_ms_low"] <= r["read_latency_ms"]


def test_a_read_cache_keeps_its_lower_floor():
    # persistent memory caching reads and writes (the 12-node record's cache): a read hit is served from it, and
    # the record read in under 40 us beside NVMe drives that read in 77 us, so the drive is no floor here
    d = _design("nvme-pmem-12node", cache_mode="read-write")
    us = _latency_us(d)
    rd = resolve(d, load_catalog())
    read_floor, write_floor = device_latency_floor_ms(rd)
    assert read_floor == pytest.approx(us["cache_read"] / 1e3) and read_floor < us["drive_read"] / 1e3
    assert write_floor == pytest.approx(us["cache_write"] / 1e3)
    r = evaluate_report(d, load_workload("Peak4kRead"))
    assert r["read_latency_ms_low"] < us["drive_read"] / 1e3 <= r["read_latency_ms"]
    # a read-only cache takes no writes: they land on the drives
    ro = device_latency_floor_ms(resolve(_design("nvme-pmem-12node", cache_mode="read-only"), load_catalog()))
    assert ro == pytest.approx((us["cache_read"] / 1e3, us["drive_write"] / 1e3))


def test_the_curve_band_has_the_same_floor():
    d = _design("sas-4node")
    w = load_workload("oltp-8k")
    c = latency_curve(resolve(d, load_catalog()), w, 10, band=True)
    floor = 0.7 * 0.120 + 0.3 * _latency_us(d)["cache_write"] / 1e3
    for lo, mid in zip(c["vm_latency_ms_low"], c["vm_latency_ms"]):
        assert min(floor, mid) - 1e-12 <= lo <= mid + 1e-12


def test_the_sla_and_sizing_ends_keep_the_floor():
    """The searches judge each latency at its held-out band's low end (latencies_at_band_end): no lower than the
    fastest IO the model serves, never above the model's own figure."""
    import numpy as np

    from planner.results.report import held_out_ratios, latencies_at_band_end

    d = _design("sas-4node")
    rd = resolve(d, load_catalog())
    latency, _cap, _how = held_out_ratios(rd, load_workload("oltp-8k"))
    read_floor, write_floor = device_latency_floor_ms(rd)
    out = {
        "utilization": np.array([0.1, 0.2]),
        "vm_read_latency_ms": np.array(0.05),
        "vm_write_latency_ms": np.array(0.02),
        "p99_read_latency_ms": np.array(5.0),
    }
    low = latencies_at_band_end(latency, 0)(out)
    assert float(low["vm_read_latency_ms"]) == pytest.approx(0.05)  # the floor above the figure stops at it
    assert float(low["vm_write_latency_ms"]) == pytest.approx(0.02)
    assert float(low["p99_read_latency_ms"]) >= min(read_floor, 5.0)
    out["vm_read_latency_ms"] = np.array(0.2)
    assert float(latencies_at_band_end(latency, 0)(out)["vm_read_latency_ms"]) >= read_floor - 1e-12
    assert write_floor > 0


def test_a_class_the_workload_does_not_issue_credits_no_floor():
    # sequential reads alone: the write band is dropped, so the floor moving it is not a basis of the bands shown
    r = evaluate_report(_design("sas-4node"), load_workload("dss-64k"))
    assert r["write_latency_ms"] is None
    assert not any("queue depth 1" in b for b in r["band_basis"])
