"""Benchmark import: real fio output checked against fio's own terse output,
DiskSpd XML written to DiskSpd's schema, VMFleet result files (raw and the
shipped compiled sweeps, which must give exactly the calibration's points),
the CSV template, malformed files, the refit and the CLI."""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import io
import json
import math
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from planner.calibration import benchdata, refit
from planner.calibration.fit import METRICS
from planner.calibration.importers import (
    MAX_IMPORT_BYTES,
    MEASURED_KEYS,
    ImportFileError,
    csv_template,
    detect_format,
    load_points,
    make_run_info,
)
from planner.cli import main
from planner.models.design import load_design, resolve
from planner.models.params import PARAM_BOUNDS, PARAM_NAMES, ModelParams, load_calibration

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "tests" / "fixtures" / "import"
REFERENCE = ROOT / "examples" / "reference.json"
HOL_AX = FIX / "vmfleet-AX6515-All-Flash-4xSSD-32VMs-2Node.tsv"
HOL_MC = FIX / "vmfleet-MC760-All-Flash-8NVMes-4Node.tsv"
DSK1 = FIX / "diskspd-1target-latency.xml"
DSK2 = FIX / "diskspd-2targets-latency.xml"
DSK3 = FIX / "diskspd-fixed-threads-throttled.xml"
FIO = shutil.which("fio")
needs_fio = pytest.mark.skipif(
    FIO is None,
    reason="fio is not installed (apt-get install fio): the real-fio import tests run it to generate their input",
)


@pytest.fixture(scope="module")
def ref():
    return resolve(load_design(REFERENCE))


@pytest.fixture(scope="module")
def two_node():
    return benchdata.dell_designs()["AX6515-All-Flash-8SATA-SSDs-32VMs-2Node.txt"]


def _strict_json(text: str):
    def bad(c):
        raise AssertionError(f"non-strict JSON constant {c}")

    return json.loads(text, parse_constant=bad)


# ------------------------------------------------------------------ VMFleet
WL_FIELDS = (
    "name",
    "block_size_kib",
    "read_fraction",
    "random_fraction",
    "issuer",
    "vms_per_node",
    "vcpus_per_vm",
    "threads_per_vm",
    "outstanding_per_thread",
    "working_set_gb_per_vm",
    "iops",
    "iops_limit_per_vm",
    "vm_alignment",
)


def _fingerprint(points) -> str:
    h = hashlib.sha256()
    for p in points:
        row = [
            p.group,
            p.dataset,
            p.label,
            p.design.design.name,
            p.in_scope,
            p.note,
            [repr(getattr(p.workload, f)) for f in WL_FIELDS],
            sorted((k, repr(v)) for k, v in p.measured.items()),
        ]
        h.update(json.dumps(row).encode())
    return h.hexdigest()


def test_dell_points_identical_to_before_the_importer():
    fp = json.loads((FIX / "dell-points-fingerprint.json").read_text())
    sweeps = benchdata.DELL_DIR / "sweeps.csv"
    if hashlib.sha256(sweeps.read_bytes()).hexdigest() != fp["sweeps_csv_sha256"]:
        pytest.skip("sweeps.csv changed since the fingerprint was recorded (the refactor check no longer applies)")
    pts = benchdata.dell_points()
    assert len(pts) == fp["points"]
    assert _fingerprint(pts) == fp["points_sha256"]


def test_importing_the_dell_sweeps_yields_the_calibration_points():
    designs = benchdata.dell_designs()
    got = load_points([benchdata.DELL_DIR / "sweeps.csv"], designs.__getitem__, make_run_info(dataset="dell"))
    shipped = benchdata.dell_points()
    assert len(got) == len(shipped)
    for a, b in zip(got, shipped):
        assert (a.group, a.dataset, a.label) == (b.group, b.dataset, b.label)
        assert a.design is b.design and a.workload == b.workload
        assert {k: v for k, v in a.measured.items() if k != "bandwidth_mb_s"}.keys() == b.measured.keys()
        for k, v in b.measured.items():
            assert (math.isnan(v) and math.isnan(a.measured[k])) or a.measured[k] == v, (b.label, k)
        assert a.source_file == "sweeps.csv" and a.job.startswith("row ")


def _raw_tsv(rows, quoted=True) -> str:
    """Rows of the compiled sweeps written back as VMFleet's raw result file."""
    cols = [c for c in rows[0] if c not in ("file", "nodes", "cores_per_node", "drives_per_node", "drive_type")]
    buf = io.StringIO()
    w = csv.writer(buf, delimiter="\t", quoting=csv.QUOTE_ALL if quoted else csv.QUOTE_MINIMAL, lineterminator="\r\n")
    w.writerow(cols)
    for r in rows:
        w.writerow([r[c] for c in cols])
    return buf.getvalue()


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
def test_raw_result_file_gives_the_same_points_as_the_compiled_rows(encoding):
    fname = "AX6515-All-Flash-16SAS-SSDs-32VMs-2nodes-azshci.txt"
    with open(benchdata.DELL_DIR / "sweeps.csv", newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if r["file"] == fname]
    data = _raw_tsv(rows).encode(encoding)  # Python's utf-16 writes a BOM, as PowerShell 5's Out-File
    got = load_points([("result.tsv", data)], benchdata.dell_designs()[fname])
    shipped = [p for p in benchdata.dell_points() if p.group == fname.removesuffix(".txt")]
    assert len(got) == len(shipped) == len(rows)
    for a, b in zip(got, shipped):
        assert a.workload == b.workload and a.group == "result"
        assert all(a.measured[k] == v or (math.isnan(v) and math.isnan(a.measured[k])) for k, v in b.measured.items())


def test_vmfleet_raw_files_unquoted_and_quoted(ref, two_node):
    pts = load_points([HOL_AX], two_node)
    assert len(pts) == 12 and {p.source_format for p in pts} == {"vmfleet"}
    p = pts[0]  # first row of the file, copied unchanged
    assert p.workload.name == "Peak4kRead" and p.workload.vms_per_node == 16 and p.workload.issuer == "vm"
    assert p.measured["iops"] == pytest.approx(590092.0522)
    assert p.measured["host_cpu_utilization"] == pytest.approx(0.7168300042)
    assert p.measured["read_latency_ms"] == pytest.approx(0.427350099)
    assert p.measured["vm_read_latency_ms"] == pytest.approx(1.73375044)
    assert p.measured["p99_read_latency_ms"] == pytest.approx(5.114)
    assert p.measured["bandwidth_mb_s"] == pytest.approx(2417.017046)
    assert math.isnan(p.measured["write_latency_ms"]) and p.measured["unthrottled"] == 1.0
    assert p.workload.block_size_kib == pytest.approx(2417017046 / 590092.0522 / 1024, abs=1e-4)
    sql = [q for q in pts if q.workload.name == "Sql"]
    assert sql and all(q.workload.iops_limit_per_vm for q in sql) and not any(q.measured["unthrottled"] for q in sql)
    four = resolve(load_design(REFERENCE).model_copy(update={"nodes": 4}))
    mc = load_points([HOL_MC], four)
    assert len(mc) == 12 and mc[0].workload.vms_per_node == 64
    assert mc[0].measured["iops"] == pytest.approx(5149639.98772761)


def test_vmfleet_with_issuer_host_is_an_error(two_node):
    with pytest.raises(ImportFileError, match="VMFleet issues IO inside VMs"):
        load_points([HOL_AX], two_node, make_run_info(issuer="host"))


# ---------------------------------------------------------------------- fio
FIO_RUNS = {
    # name: (output format, fio arguments); every job 1 s on a 16 MiB file
    "randread-psync-qd1": ("json", ["--rw=randread", "--ioengine=psync", "--iodepth=1", "--numjobs=1"]),
    "randread-qd8x2-gr": (
        "json",
        ["--rw=randread", "--ioengine=libaio", "--direct=1", "--iodepth=8", "--numjobs=2", "--group_reporting"],
    ),
    "randrw-qd4x2": (
        "json",
        ["--rw=randrw", "--rwmixread=70", "--ioengine=libaio", "--direct=1", "--iodepth=4", "--numjobs=2"],
    ),
    "randrw-qd4x2-gr": (
        "json",
        [
            "--rw=randrw",
            "--rwmixread=70",
            "--ioengine=libaio",
            "--direct=1",
            "--iodepth=4",
            "--numjobs=2",
            "--group_reporting",
        ],
    ),
    "randrw-qd16-jsonplus": (
        "json+",
        ["--rw=randrw", "--rwmixread=70", "--ioengine=libaio", "--direct=1", "--iodepth=16", "--numjobs=1"],
    ),
    "randread-qd2x2-jsonplus": (
        "json+",
        ["--rw=randread", "--ioengine=libaio", "--direct=1", "--iodepth=2", "--numjobs=2"],
    ),
    # no ioengine: fio's default on Linux is psync, which ignores iodepth
    "randread-default-engine-iodepth8": ("json", ["--rw=randread", "--iodepth=8", "--numjobs=1"]),
}


@pytest.fixture(scope="module")
def fio_runs(tmp_path_factory):
    """Run every FIO_RUNS job once with --output-format=<json>,terse; return
    name -> (path of the JSON part, terse lines split on ';')."""
    if FIO is None:
        pytest.skip("fio is not installed")
    d = tmp_path_factory.mktemp("fio")
    base = ["--filename=" + str(d / "data"), "--size=16M", "--bs=4k", "--runtime=1", "--time_based"]
    probe = subprocess.run(
        [
            FIO,
            "--name=probe",
            *base,
            "--runtime=0.2",
            "--ioengine=libaio",
            "--direct=1",
            "--rw=randread",
            "--output-format=terse",
        ],
        capture_output=True,
        text=True,
    )
    out = {}
    for name, (fmt, args) in FIO_RUNS.items():
        if probe.returncode != 0:  # no libaio/O_DIRECT here (tmpfs): synchronous jobs only
            args = [a for a in args if a != "--direct=1"]
            args = ["--ioengine=psync" if a.startswith("--ioengine") else a for a in args]
        res = subprocess.run(
            [FIO, f"--name={name}", *base, *args, f"--output-format={fmt},terse"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert res.returncode == 0, res.stderr
        i = res.stdout.index("{")
        terse = [ln.split(";") for ln in res.stdout[:i].splitlines() if ln.startswith("3;")]
        path = d / f"{name}.json"
        path.write_text(res.stdout[i:])
        out[name] = (path, terse, probe.returncode == 0)
    return out


# terse v3 field indexes (fio HOWTO, "Terse output"): read block from 5, write block from 46
T_READ_KB, T_READ_IOPS, T_READ_LAT_MEAN = 5, 7, 39
T_WRITE_KB, T_WRITE_IOPS, T_WRITE_LAT_MEAN = 46, 48, 80


@needs_fio
@pytest.mark.parametrize("name", list(FIO_RUNS))
def test_fio_json_iops_and_latency_equal_fio_terse(fio_runs, ref, name):
    path, terse, _ = fio_runs[name]
    assert terse and all(t[0] == "3" for t in terse)
    (p,) = load_points([path], ref, make_run_info(issuer="host", per_node=1))
    instances = ref.nodes
    iops_terse = sum(float(t[T_READ_IOPS]) + float(t[T_WRITE_IOPS]) for t in terse)
    # terse IOPS are whole numbers (truncated) per job line and direction
    assert p.measured["iops"] / instances == pytest.approx(iops_terse, abs=2 * len(terse))
    rkb = sum(float(t[T_READ_KB]) for t in terse)
    rlat_us = sum(float(t[T_READ_KB]) * float(t[T_READ_LAT_MEAN]) for t in terse) / rkb
    assert p.measured["vm_read_latency_ms"] * 1e3 == pytest.approx(rlat_us, rel=1e-6)
    wkb = sum(float(t[T_WRITE_KB]) for t in terse)
    if wkb:
        wlat_us = sum(float(t[T_WRITE_KB]) * float(t[T_WRITE_LAT_MEAN]) for t in terse) / wkb
        assert p.measured["vm_write_latency_ms"] * 1e3 == pytest.approx(wlat_us, rel=1e-6)
        assert p.workload.read_fraction == pytest.approx(0.7, abs=0.05)
    else:
        assert math.isnan(p.measured["vm_write_latency_ms"]) and p.workload.read_fraction == 1.0
    assert p.workload.block_size_kib == pytest.approx(4.0) and p.workload.random_fraction == 1.0
    assert p.workload.issuer == "host" and p.measured["unthrottled"] == 1.0
    assert math.isnan(p.measured["host_cpu_utilization"])  # fio's usr/sys CPU is its own process's
    assert p.source_file == path.name and p.job.startswith("group 0")


def _terse_p99_us(t) -> float:
    return next(float(f.split("=")[1]) for f in t[17:37] if f.startswith("99.000000%="))


@needs_fio
def test_fio_p99_from_fio_or_merged_bins(fio_runs, ref):
    run = make_run_info(per_node=1)
    path, terse, _ = fio_runs["randread-qd8x2-gr"]
    (p,) = load_points([path], ref, run)
    assert p.measured["p99_read_latency_ms"] * 1e3 == pytest.approx(_terse_p99_us(terse[0]), abs=1.0)
    path, terse, _ = fio_runs["randrw-qd4x2"]  # two entries, plain json: not combinable
    (p,) = load_points([path], ref, run)
    assert math.isnan(p.measured["p99_read_latency_ms"]) and "p99 left out" in p.note
    path, terse, _ = fio_runs["randread-qd2x2-jsonplus"]  # two entries with bins: merged exactly
    (p,) = load_points([path], ref, run)
    per_job = [_terse_p99_us(t) for t in terse]
    assert min(per_job) - 1 <= p.measured["p99_read_latency_ms"] * 1e3 <= max(per_job) + 1


@needs_fio
def test_fio_population_with_and_without_group_reporting(fio_runs, ref):
    run = make_run_info(per_node=1)
    (a,) = load_points([fio_runs["randrw-qd4x2"][0]], ref, run)
    (b,) = load_points([fio_runs["randrw-qd4x2-gr"][0]], ref, run)
    assert len(json.loads(fio_runs["randrw-qd4x2"][0].read_text())["jobs"]) == 2
    assert len(json.loads(fio_runs["randrw-qd4x2-gr"][0].read_text())["jobs"]) == 1
    async_ok = fio_runs["randrw-qd4x2"][2]
    for p in (a, b):
        assert p.workload.outstanding_per_vm == (8 if async_ok else 2)
        assert p.workload.threads_per_vm == 2
    (c,) = load_points([fio_runs["randread-qd8x2-gr"][0]], ref, run)
    assert c.workload.outstanding_per_vm == (16 if async_ok else 2)


@needs_fio
def test_fio_unstated_sync_engine_depth_from_littles_law(fio_runs, ref):
    (p,) = load_points([fio_runs["randread-default-engine-iodepth8"][0]], ref, make_run_info(per_node=1))
    # the options say 8 in flight; psync keeps one: IOPS x mean latency says so
    assert p.workload.outstanding_per_vm == 1
    assert "Little's law" in p.note and "not 8 from the options" in p.note


def _fio3(**over) -> dict:
    """A minimal fio 3.x JSON document (one job), fields as fio writes them."""
    sec = lambda ios, lat_ns, bs=4096: {
        "io_bytes": ios * bs,
        "io_kbytes": ios * bs // 1024,
        "bw_bytes": ios * bs,
        "bw": ios * bs // 1024,
        "iops": float(ios),
        "runtime": 1000,
        "total_ios": ios,
        "clat_ns": {"mean": lat_ns * 0.9, "N": ios, "percentile": {"50.000000": lat_ns, "99.000000": 3 * lat_ns}},
        "lat_ns": {"mean": float(lat_ns), "N": ios},
    }
    job = {
        "jobname": "j",
        "groupid": 0,
        "error": 0,
        "job options": {"rw": "randrw", "rwmixread": "70", "iodepth": "4", "ioengine": "libaio"},
        "read": sec(7000, 500000),
        "write": sec(3000, 700000),
        "trim": sec(0, 0),
        "job_runtime": 1000,
    }
    job.update(over)
    return {"fio version": "fio-3.36", "jobs": [job]}


def _fio2() -> dict:
    """fio 2.x layout: latencies in us under clat/lat, io_bytes in KiB, no bw_bytes."""
    sec = lambda ios, lat_us: {
        "io_bytes": ios * 4,
        "bw": ios * 4,
        "iops": float(ios),
        "runtime": 1000,
        "clat": {"mean": lat_us * 0.9, "percentile": {"99.000000": 3 * lat_us}},
        "lat": {"mean": float(lat_us)},
    }
    return {
        "fio version": "fio-2.2.10",
        "jobs": [
            {
                "jobname": "old",
                "groupid": 0,
                "error": 0,
                "job options": {"rw": "randread", "iodepth": "4", "ioengine": "libaio"},
                "read": sec(10000, 400),
                "write": {"io_bytes": 0, "bw": 0, "iops": 0.0, "runtime": 0, "clat": {"mean": 0}, "lat": {"mean": 0}},
            }
        ],
    }


def test_fio_versions_and_units(ref):
    run = make_run_info(per_node=1)
    (new,) = load_points([("new.json", json.dumps(_fio3()).encode())], ref, run)
    assert new.measured["iops"] == pytest.approx(10000 * 3)
    assert new.measured["vm_read_latency_ms"] == pytest.approx(0.5)
    assert new.measured["vm_write_latency_ms"] == pytest.approx(0.7)
    assert new.measured["p99_read_latency_ms"] == pytest.approx(1.5)
    assert new.measured["bandwidth_mb_s"] == pytest.approx(10000 * 4096 * 3 / 1e6)
    assert new.workload.read_fraction == pytest.approx(0.7) and new.workload.block_size_kib == 4
    (old,) = load_points([("old.json", json.dumps(_fio2()).encode())], ref, run)
    assert old.measured["iops"] == pytest.approx(30000)
    assert old.measured["vm_read_latency_ms"] == pytest.approx(0.4)
    assert old.measured["p99_read_latency_ms"] == pytest.approx(1.2)
    assert old.measured["bandwidth_mb_s"] == pytest.approx(10000 * 4096 * 3 / 1e6)
    assert old.workload.block_size_kib == pytest.approx(4.0) and "fio-2.2.10" in old.note


def test_fio_rate_limit_and_processes(ref):
    doc = _fio3()
    doc["jobs"][0]["job options"]["rate_iops"] = "5000"
    (p,) = load_points([("rate.json", json.dumps(doc).encode())], ref, make_run_info(issuer="host", per_node=4))
    assert p.workload.iops_limit_per_vm == 5000 and p.measured["unthrottled"] == 0.0
    assert p.workload.vms_per_node == 4 and p.measured["iops"] == pytest.approx(10000 * 4 * ref.nodes)


# ------------------------------------------------------------------ DiskSpd
def test_diskspd_one_target_with_latency_percentiles(ref):
    (p,) = load_points([DSK1], ref, make_run_info(per_node=1))
    w = p.workload
    assert (w.block_size_kib, w.read_fraction, w.random_fraction, w.issuer) == (4.0, 0.7, 1.0, "host")
    assert (w.threads_per_vm, w.outstanding_per_thread) == (4, 8) and w.iops_limit_per_vm is None
    assert w.working_set_gb_per_vm == pytest.approx(10 * 1024**3 / 1e9)
    m = p.measured  # 4 threads x 1.5 M IOs in 60 s = 100k IOPS per node, x 3 nodes
    assert m["iops"] == pytest.approx(300000) and m["bandwidth_mb_s"] == pytest.approx(300000 * 4096 / 1e6)
    assert (m["vm_read_latency_ms"], m["vm_write_latency_ms"], m["p99_read_latency_ms"]) == (0.28, 0.413, 1.102)
    assert m["host_cpu_utilization"] == pytest.approx(0.3512) and m["unthrottled"] == 1.0
    assert "DiskSpd 2.2" in p.note and p.job.startswith("timespan 1")


def test_diskspd_two_targets(ref):
    (p,) = load_points([DSK2], ref, make_run_info(per_node=1))
    w, m = p.workload, p.measured
    # 600k 64 KiB reads + 300k 8 KiB writes in 30 s
    assert m["iops"] / ref.nodes == pytest.approx(30000)
    assert w.read_fraction == pytest.approx(2 / 3) and w.block_size_kib == pytest.approx(
        (600 * 64 + 300 * 8) / 900, abs=1e-4
    )
    assert w.random_fraction == pytest.approx(1 / 3, abs=1e-4)
    assert w.outstanding_per_vm == 2 * 4 + 2 * 16
    assert (m["vm_read_latency_ms"], m["vm_write_latency_ms"], m["p99_read_latency_ms"]) == (0.795, 1.067, 2.42)


def test_diskspd_fixed_threads_throttled_without_latency(ref):
    (p,) = load_points([DSK3], ref, make_run_info(issuer="vm", per_node=2))
    w, m = p.workload, p.measured
    assert w.outstanding_per_vm == 4 * (2 + 2)  # -F4 over two targets, -o2 each
    assert w.iops_limit_per_vm == 4 * 2 * 1000  # -g1000i per thread per target
    assert m["unthrottled"] == 0.0 and m["iops"] == pytest.approx(8000 * 2 * ref.nodes)
    assert all(math.isnan(m[k]) for k in ("vm_read_latency_ms", "vm_write_latency_ms", "p99_read_latency_ms"))
    assert math.isnan(m["host_cpu_utilization"]) and "guest's CPU" in p.note  # DiskSpd in a VM


# ------------------------------------------------------------- CSV template
def test_template_file_is_the_documented_columns():
    assert (ROOT / "examples" / "import-template.csv").read_text() == csv_template.template_text()
    assert set(csv_template.METRIC_COLUMNS) <= set(MEASURED_KEYS) and set(METRICS) <= set(MEASURED_KEYS)


def test_example_measurements_are_the_reference_points(ref):
    got = load_points([ROOT / "examples" / "import-measurements.csv"], ref)
    shipped = benchdata.reference_points()
    assert [p.label for p in got] == [p.label for p in shipped]
    for a, b in zip(got, shipped):
        assert a.workload.model_dump(exclude={"name"}) == b.workload.model_dump(exclude={"name"})
        for k in METRICS:
            assert a.measured[k] == pytest.approx(b.measured[k], nan_ok=True), (a.label, k)


# ---------------------------------------------------------------- bad files
def _bytes(p: Path) -> bytes:
    return p.read_bytes()


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
<!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]>
<Results><System><ComputerName>&lol9;</ComputerName></System></Results>"""


def _edit(path: Path, old: str, new: str) -> bytes:
    text = path.read_text()
    assert old in text
    return text.replace(old, new, 1).encode()


BAD = [
    # (name, content, message fragment)
    ("empty.json", b"", "file is empty"),
    ("notes.txt", b"just some notes\nnothing here\n", "not a recognised benchmark file"),
    ("other.json", b'{"a": 1}', "JSON that is not fio output"),
    ("binary.bin", b"\x00\x81\xfa\xfe" * 10, "not UTF-8 or UTF-16"),
    # fio
    ("trunc.json", json.dumps(_fio3()).encode()[:300], "ends there: truncated?"),
    ("err.json", json.dumps(_fio3(error=5)).encode(), "ended with error 5"),
    (
        "zero.json",
        json.dumps(
            {
                "fio version": "fio-3.36",
                "jobs": [
                    {
                        **_fio3()["jobs"][0],
                        "read": {"runtime": 0, "iops": 0, "total_ios": 0},
                        "write": {"runtime": 0, "iops": 0, "total_ios": 0},
                        "trim": {"runtime": 0},
                    }
                ],
            }
        ).encode(),
        "zero-duration run",
    ),
    (
        "noio.json",
        json.dumps(
            {
                "fio version": "fio-3.36",
                "jobs": [
                    {
                        **_fio3()["jobs"][0],
                        "read": {"runtime": 1000, "iops": 0, "total_ios": 0},
                        "write": {"runtime": 1000, "iops": 0, "total_ios": 0},
                    }
                ],
            }
        ).encode(),
        "no completed IO",
    ),
    (
        "nolat.json",
        json.dumps(
            _fio3(read={"io_bytes": 4096, "io_kbytes": 4, "iops": 1.0, "runtime": 1000, "total_ios": 1})
        ).encode(),
        "mean latency (lat_ns/lat) is missing",
    ),
    # DiskSpd
    ("trunc.xml", _bytes(DSK1)[: len(_bytes(DSK1)) // 2], "truncated or malformed XML"),
    ("laughs.xml", BILLION_LAUGHS, "entity expansion"),
    ("profile.xml", b"<Profile><TimeSpans/></Profile>", "not a DiskSpd result"),
    (
        "zero.xml",
        _edit(DSK1, "<TestTimeSeconds>60.00</TestTimeSeconds>", "<TestTimeSeconds>0.00</TestTimeSeconds>"),
        "zero-duration run",
    ),
    (
        "interrupted.xml",
        _edit(
            DSK1,
            "<TestTimeSeconds>60.00</TestTimeSeconds>",
            "<Error>The test was interrupted before the measurements began. No results are displayed.</Error>",
        ),
        "interrupted",
    ),
    ("nocount.xml", _edit(DSK1, "<ReadCount>1050000</ReadCount>", ""), "missing <ReadCount>"),
    (
        "partial.xml",
        _edit(DSK3, '<Throughput unit="IOPS">1000</Throughput>', "<Throughput>0</Throughput>"),
        "throttles 1 of 2 targets",
    ),
    # VMFleet
    ("cut.tsv", _bytes(HOL_AX)[:-200], "fields, the header"),
    ("nocol.tsv", _bytes(HOL_AX).replace(b"QOSperVM", b"QoS", 1), "missing VMFleet column QOSperVM"),
    ("custom.tsv", _bytes(HOL_AX).replace(b"Peak4kRead", b"MyWorkload", 1), "not a VMFleet core workload"),
    ("nan.tsv", _bytes(HOL_AX).replace(b"\t590092.0522\t", b"\tn/a\t", 1), "IOPS 'n/a' is not a number"),
    # CSV template
    (
        "typo.csv",
        b"label,block_size_kib,read_fraction,outstanding_per_thread,iops,iopz\na,4,1,32,100,1\n",
        "unknown column 'iopz'",
    ),
    (
        "noreq.csv",
        b"label,block_size_kib,iops\na,4,100\n",
        "missing required columns outstanding_per_thread, read_fraction",
    ),
    (
        "pct.csv",
        b"label,block_size_kib,read_fraction,outstanding_per_thread,iops,host_cpu_utilization\na,4,1,32,100,45\n",
        "host_cpu_utilization is a fraction 0..1",
    ),
    (
        "blank.csv",
        b"label,block_size_kib,read_fraction,outstanding_per_thread,iops\na,,1,32,100\n",
        "required column block_size_kib is blank",
    ),
    (
        "range.csv",
        b"label,block_size_kib,read_fraction,outstanding_per_thread,iops\na,4,1.5,32,100\n",
        "workload.read_fraction",
    ),
    ("short.csv", b"label,block_size_kib,read_fraction,outstanding_per_thread,iops\na,4,1\n", "fields expected"),
]


@pytest.mark.parametrize("name,content,msg", BAD, ids=[b[0] for b in BAD])
def test_bad_file_is_one_clear_error_naming_it(ref, two_node, name, content, msg):
    design = two_node if name.endswith(".tsv") else ref
    with pytest.raises(ImportFileError) as exc:
        # a good file first: nothing of it may come back when a later file is bad
        load_points([DSK1, (name, content)], design)
    assert str(exc.value).startswith(f"{name}: ") and msg in str(exc.value), str(exc.value)
    assert "\n" not in str(exc.value)


def test_mutated_files_are_errors_never_tracebacks(ref, two_node):
    """Random cuts and junk in every format: an import either succeeds or
    raises one single-line ImportFileError naming the file."""
    import random

    rng = random.Random(7)
    sources = [HOL_AX, HOL_MC, DSK1, DSK2, DSK3, ROOT / "examples" / "import-measurements.csv"]
    docs = [(p.name, p.read_bytes()) for p in sources] + [
        ("fio3.json", json.dumps(_fio3(), indent=1).encode()),
        ("fio2.json", json.dumps(_fio2(), indent=1).encode()),
    ]
    junk = [
        b"0",
        b"-1",
        b"nan",
        b"inf",
        b"1e400",
        b"",
        b'"x"',
        b"null",
        b"[]",
        b"{}",
        b"\t",
        b",",
        b"<",
        b'"',
        b"\n",
        b"abc",
    ]
    for _ in range(400):
        name, data = rng.choice(docs)
        data = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(data))
            data[i : i + rng.randint(0, 12)] = rng.choice(junk)
        try:
            load_points([(name, bytes(data))], two_node if name.endswith(".tsv") else ref)
        except ImportFileError as exc:
            assert str(exc).startswith(f"{name}: ") and "\n" not in str(exc) and len(str(exc)) < 500


def test_huge_file_refused_before_parsing(ref, tmp_path):
    big = tmp_path / "huge.json"
    with open(big, "wb") as fh:
        fh.truncate(MAX_IMPORT_BYTES + 1)  # sparse: nothing is written, nothing read
    with pytest.raises(
        ImportFileError, match=r"huge.json: 'huge.json' is larger than 20,000,000 bytes \(20,000,001 bytes\)"
    ):
        load_points([big], ref)


def test_format_detected_from_content_not_extension(ref):
    renamed = [("results.txt", _bytes(DSK1)), ("fio.xml", json.dumps(_fio3()).encode())]
    pts = load_points(renamed, ref)
    assert [p.source_format for p in pts] == ["diskspd", "fio"]
    assert detect_format(HOL_MC.read_text()) == "vmfleet"
    assert detect_format((ROOT / "examples" / "import-measurements.csv").read_text()) == "csv-template"


def test_same_file_twice_is_an_error(ref):
    with pytest.raises(ImportFileError, match="given twice"):
        load_points([DSK1, DSK1], ref)


# -------------------------------------------------------------------- refit
def test_choose_parameters_drops_immaterial_and_collinear_columns():
    rng = np.random.default_rng(1)
    a, b = rng.normal(size=40), rng.normal(size=40)
    S = np.column_stack([a, 0.5 * b, 2 * a + 1e-4 * rng.normal(size=40), np.full(40, 1e-3)])
    chosen, why, _delta = refit.choose_parameters(S, names=["p0", "p1", "p2", "p3"])
    assert set(chosen) == {"p1", "p2"} and "collinear with p2" in why["p0"] and "not material" in why["p3"]


def _synthetic_points(two_node, true: ModelParams):
    """The HOL file's steps with measurements replaced by the model's own
    predictions under ``true`` parameters."""
    pts = load_points([HOL_AX], two_node)
    out = refit.predict(refit.point_set(pts), true.vector())
    for i, p in enumerate(pts):
        for m in METRICS:
            if np.isfinite(p.measured[m]):
                p.measured[m] = float(np.ravel(out[m])[i])
    return pts


def test_refit_recovers_parameters_it_identifies(two_node):
    shipped = load_calibration().params
    true = shipped.model_copy(
        update={"drive_efficiency": 0.8, "stack_read_latency_us": 1.4 * shipped.stack_read_latency_us}
    )
    # the SATA cluster's drives bind (drive efficiency), the NVMe one's software
    # path is a large share of its latency (stack latency)
    nvme = benchdata.dell_designs()["R640-All-NVMe-16NVMe-64VMs-2Node.txt"]
    doc = refit.refit(_synthetic_points(two_node, true) + _synthetic_points(nvme, true), held_out=False)
    got = ModelParams(**doc["params"])
    info = {p["name"]: p for p in doc["refit"]["parameters"]}
    assert {p["name"] for p in doc["refit"]["parameters"]} == set(PARAM_NAMES)
    assert info["drive_efficiency"]["refit_or_kept"] == "refit"
    assert info["stack_read_latency_us"]["refit_or_kept"] == "refit"
    assert got.drive_efficiency == pytest.approx(0.8, rel=0.03)
    assert got.stack_read_latency_us == pytest.approx(true.stack_read_latency_us, rel=0.05)
    for name, p in info.items():
        lo, hi = PARAM_BOUNDS[name][1:]
        assert lo <= p["refit_value"] <= hi
        if p["refit_or_kept"] == "kept":
            assert p["refit_value"] == p["shipped_value"] and p["reason"].startswith("kept: ")
    after = doc["summary"]["imported"]["in_sample_after"]
    assert after["iops_unthrottled"]["median_abs_pct_error"] < 2.0
    assert after["read_latency_ms"]["median_abs_pct_error"] < 3.0
    assert doc["bootstrap"] == [] and "not carried over" in doc["bootstrap_note"]


def test_refit_lowers_the_cost_and_reports_held_out(ref):
    pts = load_points([ROOT / "examples" / "import-measurements.csv"], ref)
    doc = refit.refit(pts)
    ps = refit.point_set(pts)
    assert refit.cost(ps, ModelParams(**doc["params"]).vector()) <= refit.cost(ps, load_calibration().params.vector())
    s = doc["summary"]["imported"]
    assert s["points"] == 6 and s["in_sample_before"] and s["in_sample_after"] and s["held_out_after"]
    assert "folds" in s["held_out_method"]
    _strict_json(refit.dumps(doc))


def test_joint_refit_with_shipped_data(ref):
    pts = load_points([ROOT / "examples" / "import-measurements.csv"], ref)
    doc = refit.refit(pts, with_shipped=True, held_out=False, imported_share=0.3)
    assert doc["refit"]["with_shipped"] and doc["refit"]["imported_share"] == 0.3
    assert doc["summary"]["shipped"]["points"] > 900
    assert doc["summary"]["shipped"]["in_sample_after"]["iops_unthrottled"]["median_abs_pct_error"] < 25


def test_read_calibration_rejects_bad_files(tmp_path):
    good = json.loads(refit.dumps({"version": "x", "params": load_calibration().params.model_dump()}))
    assert refit.read_calibration(json.dumps(good).encode()).params == load_calibration().params
    cases = [
        (b"{not json", "not valid JSON"),
        (json.dumps({"version": "x"}).encode(), "needs 'version' and 'params'"),
        (
            json.dumps({**good, "params": {k: v for k, v in good["params"].items() if k != PARAM_NAMES[0]}}).encode(),
            f"lacks parameter {PARAM_NAMES[0]}",
        ),
        (
            json.dumps({**good, "params": {**good["params"], "drive_efficiency": 7}}).encode(),
            "drive_efficiency must be a number in",
        ),
        (json.dumps({**good, "bootstrap": [[1, 2]]}).encode(), "bootstrap must be a list"),
        (b" " * (refit.MAX_CALIBRATION_FILE_BYTES + 1), "larger than"),
    ]
    for content, msg in cases:
        with pytest.raises(refit.RefitError, match=msg.replace("(", r"\(").replace(")", r"\)")):
            refit.read_calibration(content)


# ---------------------------------------------------------------------- CLI
def test_cli_import_prints_points_and_error_as_strict_json(capsys):
    rc = main(["import", str(ROOT / "examples" / "import-measurements.csv"), "--design", str(REFERENCE)])
    out = _strict_json(capsys.readouterr().out)
    assert rc == 0 and out["points"] == 6 and len(out["rows"]) == 6
    row = out["rows"][0]
    assert row["file"] == "import-measurements.csv" and row["measured"]["iops"] == 1425000
    assert row["predicted"]["iops"] > 0 and row["error_pct"]["iops"] is not None
    assert out["error"]["iops"]["points"] == 6 and "refit" not in out


def test_cli_calibrate_then_evaluate_with_the_file(tmp_path, capsys):
    cal = tmp_path / "cal.json"
    rc = main(
        [
            "import",
            str(DSK1),
            str(DSK2),
            "--design",
            str(REFERENCE),
            "--processes-per-node",
            "2",
            "--calibrate",
            "--out",
            str(cal),
            "--no-held-out",
        ]
    )
    out = _strict_json(capsys.readouterr().out)
    assert rc == 0 and out["written"] == str(cal) and out["run"]["issuer"] == "host"
    assert out["refit"]["refit_names"] and "predicted_after" in out["rows"][0]
    doc = _strict_json(cal.read_text())
    assert doc["bootstrap"] == [] and set(doc["params"]) == set(PARAM_NAMES)
    rc = main(["evaluate", str(REFERENCE), "--workload", "oltp-8k", "--calibration", str(cal), "--no-degraded"])
    rep = json.loads(capsys.readouterr().out)
    assert rc == 0 and rep["calibration"]["version"].endswith("+refit")
    assert rep["iops_low"] == rep["iops"] == rep["iops_high"]
    rc = main(["sla", str(REFERENCE), "--db", str(ROOT / "examples" / "db-erp.json"), "--calibration", str(cal)])
    assert rc == 0 and json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "args,msg",
    [
        (["--issuer", "host", "--vms-per-node", "4"], "vms_per_node: is for issuer vm"),
        (["--vms-per-node", "2", "--processes-per-node", "2"], "not both"),
        (["--processes-per-node", "0"], "processes_per_node: must be 1..2000 (got 0)"),
        (["--vcpus-per-vm", "0"], "vcpus_per_vm"),
        (["--with-shipped"], "with_shipped: only applies with --calibrate"),
        (["--calibration", "missing.json"], "file not found"),
    ],
)
def test_cli_import_bad_flags_are_one_line(capsys, args, msg):
    rc = main(["import", str(DSK1), "--design", str(REFERENCE), *args])
    err = capsys.readouterr().err
    assert rc == 2 and msg in err and err.count("\n") == 1


def test_cli_import_bad_file_names_it(capsys, tmp_path):
    bad = tmp_path / "broken.xml"
    bad.write_bytes(_bytes(DSK1)[:500])
    rc = main(["import", str(DSK1), str(bad), "--design", str(REFERENCE)])
    err = capsys.readouterr().err
    assert rc == 2 and err.startswith("error: broken.xml: truncated or malformed XML") and err.count("\n") == 1


# ----------------------------------------------------------------------- UI
def _app_on_calibration():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    return at.switch_page("hciplan_ui/calibration_page.py").run()


def _shown_text(markdown: str) -> str:
    """An error box as the reader sees it (the page escapes the file names it quotes)."""
    return re.sub(r"\\(.)", r"\1", markdown).replace("\u2060", "")


def _points_table(at):
    return next(d.value for d in at.dataframe if "Measured" in d.value.columns and "File" in d.value.columns)


def test_calibration_page_upload_refit_and_keep_for_the_session():
    from planner.calibration.refit import evaluate_with_calibration, read_calibration
    from planner.models.workload import profiles

    at = _app_on_calibration()
    at.file_uploader(key="imp_files").set_value(
        [("node1.xml", _bytes(DSK1), "text/xml"), ("node2.txt", _bytes(DSK2), "text/plain")]
    ).run()
    at.button(key="imp_load").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    rep = at.session_state["imp_report"]
    assert rep["points"] == 2 and [f["format"] for f in rep["files"]] == ["diskspd", "diskspd"]
    rows = _points_table(at)
    assert set(rows["File"]) == {"node1.xml", "node2.txt"} and "Predicted (shipped)" in rows.columns
    # one table holds IOPS and milliseconds: every row says which
    units = dict(zip(rows["Metric"], rows["Unit"]))
    assert units["IOPS"] == "IOPS" and all(units[m] == "ms" for m in units if "latency" in m)
    at.button(key="imp_refit").click().run()
    assert not at.exception
    rep = at.session_state["imp_report"]
    assert "refit" in rep and "Predicted (refit)" in _points_table(at).columns
    # each parameter in words with its unit, not its field name (browser review 2026-11-29: "guest_cpu_us")
    params = next(d.value for d in at.dataframe if "Refit" in d.value.columns)
    assert not any(re.fullmatch(r"[a-z_]+", str(x)) for x in params["Parameter"]), list(params["Parameter"])
    assert any(str(x).endswith(", µs") for x in params["Parameter"])
    assert not any("python -m planner" in c.value for c in at.caption)
    assert any(b.proto.label == "Download calibration JSON" for b in at.get("download_button"))
    at.button(key="imp_use").click().run()
    cal_json = at.session_state["calibration_json"]
    assert json.loads(cal_json)["version"].endswith("+refit")
    # every page's report now uses the refit: the Performance page shows its IOPS
    at.switch_page("hciplan_ui/performance_page.py").run()
    assert not at.exception
    want = evaluate_with_calibration(read_calibration(cal_json.encode()), load_design(REFERENCE), profiles()["oltp-8k"])
    shown = next(m.value for m in at.metric if m.label == "IOPS")
    assert shown == f"{want['iops']:,.0f}"
    at.switch_page("hciplan_ui/calibration_page.py").run()
    at.button(key="imp_revert").click().run()
    assert "calibration_json" not in at.session_state


def test_calibration_page_bad_or_huge_upload_is_one_error_and_keeps_nothing(monkeypatch):
    at = _app_on_calibration()
    at.file_uploader(key="imp_files").set_value(
        [("good.xml", _bytes(DSK1), "text/xml"), ("cut.xml", _bytes(DSK1)[:700], "text/xml")]
    ).run()
    at.button(key="imp_load").click().run()
    assert not at.exception
    (err,) = [_shown_text(e.value) for e in at.error]
    assert err.startswith("cut.xml: truncated or malformed XML (line ")
    assert "imp_report" not in at.session_state and "imp_points" not in at.session_state
    monkeypatch.setattr("hciplan_ui.import_panel.MAX_IMPORT_BYTES", 1000)
    at.file_uploader(key="imp_files").set_value([("big.xml", _bytes(DSK1), "text/xml")]).run()
    at.button(key="imp_load").click().run()
    assert next(_shown_text(e.value) for e in at.error).startswith("big.xml: file is 8,")
    assert "imp_report" not in at.session_state


def test_the_template_as_downloaded_and_a_workbook_are_told_what_to_do():
    """Browser review 2026-11-29: the Calibration page's template uploaded as downloaded said "no data rows after
    the header", and an XLSX "meas.xlsx: not UTF-8 or UTF-16 text (byte 11)"."""
    from planner.calibration.importers import ImportFileError, load_points
    from planner.calibration.importers.csv_template import template_text
    from planner.models.design import load_design, resolve

    rd = resolve(load_design(ROOT / "examples" / "reference.json"))
    with pytest.raises(ImportFileError, match="add one row per measured run"):
        load_points([("template.csv", template_text().encode())], rd)
    with pytest.raises(ImportFileError, match=r"an Excel workbook \(XLSX\), not text: save it as CSV"):
        load_points([("meas.xlsx", b"PK\x03\x04" + b"\x00" * 200)], rd)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("<UsagePercent>35.12</UsagePercent>", "<UsagePercent>NaN</UsagePercent>"),
        ("<UsagePercent>35.12</UsagePercent>", "<UsagePercent>abc</UsagePercent>"),
        ("<ReadMilliseconds>1.102</ReadMilliseconds>", "<ReadMilliseconds>NaN</ReadMilliseconds>"),
        ("<ReadMilliseconds>1.102</ReadMilliseconds>", "<ReadMilliseconds>abc</ReadMilliseconds>"),
    ],
)
def test_a_diskspd_figure_that_is_not_a_number_is_refused_in_one_line(ref, old, new):
    """Hostile-input walk 2026-11-30: a UsagePercent or a p99 of "NaN" imported the point with no CPU or p99 and
    no word, "abc" as CPU gave "(ValueError: could not convert string to float: 'abc')", and 1e400 was refused."""
    text = DSK1.read_text().replace(old, new)
    assert text != DSK1.read_text()
    with pytest.raises(ImportFileError, match="is not a number") as exc:
        load_points([("bad.xml", text.encode())], ref, make_run_info(per_node=1))
    assert "\n" not in str(exc.value) and "ValueError" not in str(exc.value)


def test_a_refused_or_unreadable_file_is_said_without_pythons_class_names(ref):
    """Hostile-input walk 2026-11-30: "... references): DTDForbidden" and "not a readable XLSX workbook
    (ValueError)" showed Python's exception classes to a customer."""
    import zipfile

    from planner.core.tables import TableError, read_rows

    with pytest.raises(ImportFileError) as exc:
        load_points([("laughs.xml", BILLION_LAUGHS)], ref, make_run_info(per_node=1))
    assert "Forbidden" not in str(exc.value) and "entity expansion" in str(exc.value)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:  # a zip, not a workbook
        z.writestr("hello.txt", "not a workbook")
    with pytest.raises(TableError) as bad:
        read_rows(buf.getvalue(), "book.xlsx", {})
    assert "Error)" not in str(bad.value) and "not a readable XLSX workbook" in str(bad.value)


@pytest.mark.parametrize("column", ["vms_per_node", "vcpus_per_vm", "threads_per_vm", "working_set_gb_per_vm"])
def test_a_zero_in_the_template_is_refused_as_the_option_is_not_read_as_the_default(tmp_path, capsys, column):
    """Hostile-input walk: vms_per_node 0 in the CSV template was read as 1 (``vals[...] or default``) where
    ``--vms-per-node 0`` is refused ("must be 1..2000"): a blank cell takes the default, a 0 its bound."""
    head = (
        "label,issuer,vms_per_node,vcpus_per_vm,threads_per_vm,outstanding_per_thread,block_size_kib,read_fraction,"
        "random_fraction,working_set_gb_per_vm,iops,bandwidth_mb_s,read_latency_ms,write_latency_ms"
    )
    cells = dict(zip(head.split(","), "ref,vm,50,2,1,32,16,1.0,1,40,1425000,23250,0.2,".split(",")))
    f = tmp_path / "m.csv"
    f.write_text(head + "\n" + ",".join({**cells, column: "0"}.values()) + "\n")
    assert main(["import", str(f), "--design", str(REFERENCE)]) == 2
    err = capsys.readouterr().err
    assert f"{column}: must be greater than or equal to" in err and re.search(r"\(got 0(\.0)?\)", err), err
    f.write_text(head + "\n" + ",".join({**cells, column: ""}.values()) + "\n")
    assert main(["import", str(f), "--design", str(REFERENCE)]) == 0  # blank: the default
    assert main(["import", str(f), "--design", str(REFERENCE), "--vms-per-node", "0"]) == 2
    assert capsys.readouterr().err.endswith("error: vms_per_node: must be 1..2000 (got 0)\n")


def test_an_imported_row_is_named_by_its_row_in_the_file(tmp_path):
    """Hostile-input walk: `import` called the first data row "row 1" where the estate and quotes readers say "row
    2" (the header is row 1): every reader names a row as the file numbers it, comment lines counted."""
    from planner.calibration.importers.common import ImportFileError

    head = (
        "label,issuer,vms_per_node,vcpus_per_vm,threads_per_vm,outstanding_per_thread,block_size_kib,read_fraction,"
        "random_fraction,working_set_gb_per_vm,iops,bandwidth_mb_s,read_latency_ms,write_latency_ms"
    )
    good = "ref,vm,50,2,1,32,16,1.0,1,40,1425000,23250,0.2,"
    from planner.models.catalog import load_catalog

    rd = resolve(load_design(REFERENCE), load_catalog())
    text = f"# measured by hand\n{head}\n{good}\n\n# the second run\nbad,vm,50,2,1,32,16,1.0,1,40,-5,23250,0.2,\n"
    with pytest.raises(ImportFileError, match=r"^t\.csv: row 6: iops must be > 0"):
        load_points([("t.csv", text.encode())], rd)
    pts = load_points([("t.csv", f"{head}\n{good}\n".encode())], rd)
    assert [p.job for p in pts] == ["row 2"]
    fleet = (ROOT / "tests" / "fixtures" / "import" / "vmfleet-AX6515-All-Flash-4xSSD-32VMs-2Node.tsv").read_text()
    from planner.calibration.benchdata import dell_designs

    two = dell_designs()["AX6515-All-Flash-8SATA-SSDs-32VMs-2Node.txt"]
    pts = load_points([("fleet.tsv", fleet.encode())], two)
    assert pts[0].job.startswith("row 2")


def test_import_says_when_its_points_are_the_shipped_fits_own():
    """Audit 2026-12-01: `import examples/import-measurements.csv --design examples/reference.json` reported an
    "error" of 4.69 % with no word that these 6 points are in the shipped fit (in-sample error)."""
    from planner.calibration.refit import import_report, in_shipped_fit

    rd = resolve(load_design(REFERENCE))
    pts = load_points([ROOT / "examples" / "import-measurements.csv"], rd)
    assert in_shipped_fit(pts).all()
    rep = import_report(pts)
    assert rep["error_in_shipped_fit_points"] == 6
    assert rep["error_basis"].startswith("in sample: all 6 points are in the shipped fit")
    # the same cluster measuring 10 % more: not the shipped fit's data
    other = [dataclasses.replace(p, measured={**p.measured, "iops": 1.1 * p.measured["iops"]}) for p in pts]
    rep = import_report(other)
    assert rep["error_in_shipped_fit_points"] == 0 and rep["error_basis"].startswith("held out")
