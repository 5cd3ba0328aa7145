"""Tests for the hardware catalog data (hardware_catalog/*.json) and its loader."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from planner import catalog as catalog_mod
from planner.catalog import (
    CATALOG_DIR,
    DEVICE_CLASSES,
    MAX_CATALOG_FILE_BYTES,
    CacheDevice,
    CapacityDrive,
    Chassis,
    Cpu,
    Nic,
    load_catalog,
    load_catalog_dirs,
    parse_records,
)
from planner.errors import CatalogError

REQUIRED = {
    "capacity_drive": [
        "intel-p3700-2tb", "intel-p4510-1tb", "intel-p4510-2tb", "intel-p4510-4tb",
        "intel-p4510-8tb", "intel-p4610-1.6tb", "intel-p5510-3.84tb", "intel-p5510-7.68tb",
        "samsung-pm9a3-3.84tb", "micron-7450-pro-3.84tb", "micron-9400-pro-7.68tb",
        "micron-s630dc-1.6tb", "intel-s4510-1.92tb",
        "dell-sata-ssd-mu-1.92tb", "dell-sas-ssd-mu-1.92tb", "dell-nvme-ssd-mu-1.6tb",
    ],
    "cache_device": [
        "intel-optane-p4800x-375gb", "intel-optane-p4800x-750gb", "intel-optane-p5800x-800gb",
        "intel-optane-pmem-128gb", "intel-optane-pmem-256gb", "intel-optane-pmem-512gb",
        "micron-s650dc-800gb",
    ],
    "cpu": [
        "intel-xeon-gold-6246", "intel-xeon-platinum-8280", "intel-xeon-e5-2699-v4",
        "intel-xeon-gold-6342", "amd-epyc-7302p", "amd-epyc-9354", "intel-xeon-gold-6242",
    ],
    "nic": [
        "mellanox-cx4-lx-2x25g", "mellanox-cx3-pro-2x40g", "mellanox-cx5-2x100g",
        "mellanox-cx6-dx-2x100g", "chelsio-t6-2x100g", "intel-e810-2x100g", "intel-x710-2x10g",
    ],
    "chassis": [
        "supermicro-1029u-tn10rt", "dell-ax-6515", "dell-r640", "intel-s2600wft",
    ],
}

STAND_INS = ["dell-sata-ssd-mu-1.92tb", "dell-sas-ssd-mu-1.92tb", "dell-nvme-ssd-mu-1.6tb"]
SOCKETS = {"LGA2011-3", "LGA3647", "LGA4189", "LGA4677", "SP3", "SP5"}
# Optane PMem generation each Intel socket can drive (Gold/Platinum SKUs); AMD: none.
PMEM_BY_SOCKET = {"LGA2011-3": set(), "LGA3647": {100}, "LGA4189": {200},
                  "LGA4677": {300}, "SP3": set(), "SP5": set()}
PERF_FIELDS = ["rand_read_4k_iops", "rand_write_4k_iops", "seq_read_mb_s", "seq_write_mb_s",
               "read_latency_us", "write_latency_us"]
FORM_FACTORS = {"u.2", "u.3", "2.5in", "aic", "m.2", "e1.s", "e3.s"}
# Usable per-device interface ceilings in MB/s (generous: dual-port SAS, PCIe 4.0 x4).
INTERFACE_MAX_MB_S = {"sata": 600, "sas": 2 * 1200, "nvme": 8000}


@pytest.fixture(scope="module")
def cat():
    return load_catalog()


def _write(folder: Path, name: str, device_class: str, records: list[dict]) -> Path:
    path = folder / name
    path.write_text(json.dumps({"device_class": device_class, "records": records}), encoding="utf-8")
    return path


def _drive(**over) -> dict:
    rec = {
        "id": "test-drive-1tb", "vendor": "Test", "model": "Test drive", "source": "unit test",
        "verified": False, "estimated": {"list_price_usd": "made up for a test"},
        "interface": "nvme", "capacity_tb": 1.0, "rand_read_4k_iops": 100000,
        "rand_write_4k_iops": 50000, "seq_read_mb_s": 2000, "seq_write_mb_s": 1000,
        "read_latency_us": 80, "write_latency_us": 20, "endurance_dwpd": 1,
        "list_price_usd": 100, "power_w": 10,
    }
    rec.update(over)
    return rec


# --------------------------------------------------------------------------- loading

def test_catalog_loads_every_class(cat):
    for cls in DEVICE_CLASSES:
        assert len(cat.of(cls)) > 0, cls


def test_builtin_files_one_per_class():
    classes = [json.loads(p.read_text(encoding="utf-8"))["device_class"]
               for p in sorted(CATALOG_DIR.glob("*.json"))]
    assert sorted(classes) == sorted(DEVICE_CLASSES)


@pytest.mark.parametrize("cls,rid", [(c, i) for c, ids in REQUIRED.items() for i in ids])
def test_required_id_present_in_right_class(cat, cls, rid):
    assert rid in cat.of(cls)
    others = [c for c in DEVICE_CLASSES if c != cls and rid in cat.of(c)]
    assert not others, f"{rid} also appears in {others}"


def test_record_types_match_class(cat):
    expected = {"capacity_drive": CapacityDrive, "cache_device": CacheDevice, "cpu": Cpu,
                "nic": Nic, "chassis": Chassis}
    for cls, model in expected.items():
        for rec in cat.of(cls).values():
            assert isinstance(rec, model)


# --------------------------------------------------------------------------- honesty rule

def test_every_record_has_a_source(cat):
    for rec in cat.all_records():
        assert rec.source.strip() and len(rec.source.strip()) >= 10, rec.id


def test_unverified_records_say_what_is_estimated(cat):
    for rec in cat.all_records():
        if not rec.verified:
            assert rec.estimated, f"{rec.id}: verified is false but nothing is marked estimated"


def test_estimated_keys_are_real_fields_and_explained(cat):
    for rec in cat.all_records():
        fields = type(rec).model_fields
        for key, how in rec.estimated.items():
            assert key in fields, (rec.id, key)
            assert len(how.strip()) >= 10, (rec.id, key)
            assert key not in ("id", "vendor", "model", "source", "verified", "estimated", "notes")


def test_every_record_has_price_and_power(cat):
    for rec in cat.all_records():
        assert rec.list_price_usd is not None and rec.list_price_usd > 0, rec.id
        assert rec.power_w is not None and rec.power_w > 0, rec.id


def test_verified_storage_records_have_no_estimated_performance(cat):
    for cls in ("capacity_drive", "cache_device"):
        for rec in cat.of(cls).values():
            if rec.verified:
                bad = [f for f in PERF_FIELDS if f in rec.estimated]
                assert not bad, f"{rec.id} is verified but estimates {bad}"


def test_verified_cpus_have_no_estimated_core_figures(cat):
    for rec in cat.of("cpu").values():
        if rec.verified:
            bad = [f for f in ("cores", "threads", "base_ghz", "tdp_w") if f in rec.estimated]
            assert not bad, (rec.id, bad)


def test_stand_ins_are_unverified_and_say_so(cat):
    for rid in STAND_INS:
        rec = cat.get("capacity_drive", rid)
        assert rec.verified is False
        assert rec.estimated
        for field in PERF_FIELDS:
            assert rec.estimated[field].startswith("stand-in: the benchmark does not name the drive"), (rid, field)


def test_readme_lists_every_record():
    readme = (CATALOG_DIR / "README.md").read_text(encoding="utf-8")
    cat = load_catalog()
    for rec in cat.all_records():
        assert f"`{rec.id}`" in readme, f"{rec.id} missing from hardware_catalog/README.md"


# --------------------------------------------------------------------------- errors name file, id, field

def test_parse_records_rejects_unknown_estimated_key():
    bad = _drive(id="bad-drive", estimated={"iops_typo": "guessed"})
    with pytest.raises(CatalogError) as exc:
        parse_records("capacity_drive", [bad], "my_drives.json")
    msg = str(exc.value)
    assert "my_drives.json" in msg and "bad-drive" in msg and "iops_typo" in msg


def test_load_dirs_error_names_file_id_and_field(tmp_path):
    _write(tmp_path, "drives.json", "capacity_drive",
           [_drive(), _drive(id="broken-one", estimated={"bogus_field": "a guess"})])
    with pytest.raises(CatalogError) as exc:
        load_catalog_dirs((tmp_path,))
    msg = str(exc.value)
    assert "drives.json" in msg and "broken-one" in msg and "bogus_field" in msg


def test_unknown_top_level_field_rejected(tmp_path):
    _write(tmp_path, "drives.json", "capacity_drive", [_drive(id="extra-field", iops=5)])
    with pytest.raises(CatalogError) as exc:
        load_catalog_dirs((tmp_path,))
    assert "extra-field" in str(exc.value) and "iops" in str(exc.value)


def test_bad_value_names_field(tmp_path):
    _write(tmp_path, "drives.json", "capacity_drive", [_drive(id="neg-cap", capacity_tb=-1)])
    with pytest.raises(CatalogError) as exc:
        load_catalog_dirs((tmp_path,))
    assert "neg-cap" in str(exc.value) and "capacity_tb" in str(exc.value)


def test_duplicate_id_rejected(tmp_path):
    _write(tmp_path, "drives.json", "capacity_drive", [_drive(), _drive()])
    with pytest.raises(CatalogError, match="duplicate id 'test-drive-1tb'"):
        load_catalog_dirs((tmp_path,))


# --------------------------------------------------------------------------- user catalogs

def test_user_folder_adds_and_overrides(tmp_path):
    builtin = load_catalog()
    original = builtin.get("capacity_drive", "intel-p4510-1tb")
    override = original.model_dump()
    override["list_price_usd"] = 1.0
    override["notes"] = "user override"
    _write(tmp_path, "mine.json", "capacity_drive", [_drive(id="my-new-drive"), override])

    merged = load_catalog(tmp_path)
    assert "my-new-drive" in merged.of("capacity_drive")
    assert merged.get("capacity_drive", "intel-p4510-1tb").list_price_usd == 1.0
    assert merged.get("capacity_drive", "intel-p4510-1tb").notes == "user override"
    # every other built-in record is still there, and the built-in catalog is untouched
    assert set(builtin.of("capacity_drive")) <= set(merged.of("capacity_drive"))
    assert load_catalog().get("capacity_drive", "intel-p4510-1tb").list_price_usd == original.list_price_usd


def test_missing_user_folder_is_catalog_error(tmp_path):
    with pytest.raises(CatalogError, match="not found"):
        load_catalog_dirs((tmp_path / "nope",))


# --------------------------------------------------------------------------- broken files

def test_oversized_file_is_catalog_error(tmp_path):
    path = tmp_path / "huge.json"
    payload = json.dumps({"device_class": "nic", "records": []})
    path.write_text(payload + " " * (MAX_CATALOG_FILE_BYTES + 1 - len(payload)), encoding="utf-8")
    assert path.stat().st_size > MAX_CATALOG_FILE_BYTES
    with pytest.raises(CatalogError, match="huge.json"):
        load_catalog_dirs((tmp_path,))


def test_size_limit_is_read_at_call_time(tmp_path, monkeypatch):
    _write(tmp_path, "small.json", "nic", [])
    monkeypatch.setattr(catalog_mod, "MAX_CATALOG_FILE_BYTES", 10)
    with pytest.raises(CatalogError, match="larger than"):
        load_catalog_dirs((tmp_path,))


def test_non_json_file_is_catalog_error(tmp_path):
    (tmp_path / "notes.json").write_text("this is not { json", encoding="utf-8")
    with pytest.raises(CatalogError, match="notes.json.*not valid JSON"):
        load_catalog_dirs((tmp_path,))


def test_non_utf8_file_is_catalog_error(tmp_path):
    (tmp_path / "latin.json").write_bytes(b'{"device_class": "nic", "records": ["\xff\xfe"]}')
    with pytest.raises(CatalogError, match="latin.json"):
        load_catalog_dirs((tmp_path,))


@pytest.mark.parametrize("doc", [
    [],
    {"records": []},
    {"device_class": "gpu", "records": []},
    {"device_class": "nic", "records": {"id": "x"}},
])
def test_wrong_shape_is_catalog_error(tmp_path, doc):
    (tmp_path / "shape.json").write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CatalogError, match="shape.json"):
        load_catalog_dirs((tmp_path,))


def test_non_object_record_is_catalog_error(tmp_path):
    (tmp_path / "recs.json").write_text(json.dumps({"device_class": "nic", "records": [42]}),
                                        encoding="utf-8")
    with pytest.raises(CatalogError, match=r"recs.json.*#0"):
        load_catalog_dirs((tmp_path,))


# --------------------------------------------------------------------------- sanity invariants

def test_capacity_drive_invariants(cat):
    for d in cat.of("capacity_drive").values():
        assert d.capacity_tb > 0, d.id
        assert d.form_factor in FORM_FACTORS, (d.id, d.form_factor)
        # NAND: sustained random writes never outrun reads by much (write amplification)
        assert d.rand_write_4k_iops <= d.rand_read_4k_iops * 1.5, d.id
        assert d.seq_write_mb_s <= d.seq_read_mb_s * 1.5, d.id
        # NAND writes land in a protected DRAM buffer: QD1 write latency <= read latency
        assert d.write_latency_us <= d.read_latency_us, d.id
        # NAND page reads cannot beat ~20 us at QD1 through any host interface
        assert d.read_latency_us >= 20, d.id
        # the interface caps throughput; 4 KiB random reads must fit the same pipe
        cap = INTERFACE_MAX_MB_S[d.interface]
        assert d.seq_read_mb_s <= cap and d.seq_write_mb_s <= cap, d.id
        assert d.rand_read_4k_iops * 4096 / 1e6 <= cap * 1.1, d.id
        assert 0.1 <= d.endurance_dwpd <= 30, d.id
        if d.interface in ("sata", "sas"):
            assert d.form_factor == "2.5in", d.id
        else:
            assert d.form_factor != "2.5in", d.id


def test_cache_device_invariants(cat):
    for c in cat.of("cache_device").values():
        assert c.capacity_gb > 0, c.id
        if c.kind == "pmem":
            assert c.pmem_generation in (100, 200, 300), c.id
            assert c.read_latency_us < 1 and c.write_latency_us < 1, c.id
            assert c.capacity_gb in (128, 256, 512), c.id
        else:
            assert c.pmem_generation is None, c.id
            # PCIe + NVMe transaction overhead puts a ~4 us floor under any NVMe device
            assert c.read_latency_us >= 4, c.id
            cap = INTERFACE_MAX_MB_S[c.kind]
            assert c.seq_read_mb_s <= cap and c.seq_write_mb_s <= cap, c.id
        if c.kind == "sas":
            assert c.rand_write_4k_iops <= c.rand_read_4k_iops, c.id
        # a cache tier must take writes: endurance well above capacity-tier NAND
        assert c.endurance_dwpd >= 3, c.id


def test_optane_writes_as_fast_as_reads(cat):
    for rid in ("intel-optane-p4800x-375gb", "intel-optane-p4800x-750gb", "intel-optane-p5800x-800gb"):
        c = cat.get("cache_device", rid)
        assert c.rand_write_4k_iops >= 0.8 * c.rand_read_4k_iops, rid


def test_cpu_invariants(cat):
    for c in cat.of("cpu").values():
        assert c.threads >= c.cores, c.id
        assert c.threads in (c.cores, 2 * c.cores), c.id
        if c.turbo_ghz is not None:
            assert c.turbo_ghz >= c.base_ghz, c.id
        assert c.socket in SOCKETS, (c.id, c.socket)
        assert set(c.pmem_generations) <= PMEM_BY_SOCKET[c.socket], c.id
        if c.vendor == "AMD":
            assert c.pmem_generations == [], c.id
            assert c.socket in ("SP3", "SP5"), c.id
            if c.id.endswith("p"):
                assert c.max_sockets == 1, c.id
        assert 50 <= c.tdp_w <= 400, c.id


def test_named_cpu_facts(cat):
    assert cat.get("cpu", "intel-xeon-gold-6242").cores == 16
    assert cat.get("cpu", "intel-xeon-e5-2699-v4").socket == "LGA2011-3"
    assert cat.get("cpu", "intel-xeon-gold-6246").pmem_generations == [100]
    assert cat.get("cpu", "intel-xeon-gold-6342").pmem_generations == [200]
    assert cat.get("cpu", "intel-xeon-e5-2699-v4").pmem_generations == []


def test_nic_invariants(cat):
    for n in cat.of("nic").values():
        assert n.port_gbit_s in (1, 10, 25, 40, 50, 100, 200, 400), n.id
        assert n.ports * n.port_gbit_s <= 800, n.id
    assert cat.get("nic", "intel-x710-2x10g").rdma == "none"
    assert cat.get("nic", "chelsio-t6-2x100g").rdma == "iwarp"
    assert cat.get("nic", "intel-e810-2x100g").rdma == "iwarp"
    for rid in ("mellanox-cx4-lx-2x25g", "mellanox-cx3-pro-2x40g", "mellanox-cx5-2x100g",
                "mellanox-cx6-dx-2x100g"):
        assert cat.get("nic", rid).rdma == "roce", rid


def test_chassis_invariants(cat):
    for ch in cat.of("chassis").values():
        assert ch.cpu_socket_type in SOCKETS, ch.id
        assert ch.pmem_slots <= ch.dimm_slots, ch.id
        assert ch.dimm_slots % ch.cpu_sockets == 0, ch.id
        assert len(set(ch.bay_interfaces)) == len(ch.bay_interfaces), ch.id
        assert ch.drive_bays > 0, ch.id
        if not PMEM_BY_SOCKET[ch.cpu_socket_type]:
            assert ch.pmem_slots == 0, f"{ch.id}: {ch.cpu_socket_type} cannot drive Optane PMem"
        # 1U fits at most ~12 2.5in bays across the front
        if ch.rack_units == 1:
            assert ch.drive_bays <= 12, ch.id


def test_every_chassis_has_a_cpu_and_every_cpu_a_chassis(cat):
    cpu_sockets = {c.socket for c in cat.of("cpu").values()}
    chassis_sockets = {ch.cpu_socket_type for ch in cat.of("chassis").values()}
    assert chassis_sockets <= cpu_sockets, chassis_sockets - cpu_sockets
    assert cpu_sockets <= chassis_sockets, cpu_sockets - chassis_sockets
    for c in cat.of("cpu").values():
        fits = [ch for ch in cat.of("chassis").values()
                if ch.cpu_socket_type == c.socket and ch.cpu_sockets <= c.max_sockets]
        assert fits, f"{c.id}: no chassis with a {c.socket} socket count it supports"


def test_required_chassis_layouts(cat):
    sm = cat.get("chassis", "supermicro-1029u-tn10rt")
    assert (sm.rack_units, sm.drive_bays, sm.bay_interfaces, sm.cpu_sockets) == (1, 10, ["nvme"], 2)
    assert (sm.cpu_socket_type, sm.dimm_slots, sm.pmem_slots) == ("LGA3647", 24, 12)
    ax = cat.get("chassis", "dell-ax-6515")
    assert (ax.rack_units, ax.cpu_sockets, ax.cpu_socket_type, ax.drive_bays) == (1, 1, "SP3", 10)
    r640 = cat.get("chassis", "dell-r640")
    assert (r640.rack_units, r640.cpu_sockets, r640.cpu_socket_type) == (1, 2, "LGA3647")
    assert "nvme" in r640.bay_interfaces
    # the Broadwell platform of the Microsoft RDMA test is the S2600WT, not the S2600WFT
    assert cat.get("chassis", "intel-s2600wt").cpu_socket_type == "LGA2011-3"
    assert cat.get("chassis", "intel-s2600wt").pmem_slots == 0


def test_uploaded_catalog_file_is_validated():
    import json as _json

    from planner.catalog import parse_catalog_file
    from planner.errors import CatalogError

    with pytest.raises(CatalogError, match="not valid JSON"):
        parse_catalog_file(b"{oops", "mine.json")
    with pytest.raises(CatalogError, match="device_class"):
        parse_catalog_file(b'{"records": []}', "mine.json")
    with pytest.raises(CatalogError, match="larger than"):
        parse_catalog_file(b" " * 3_000_000, "mine.json")
    bad = {"device_class": "nic", "records": [{"id": "x", "vendor": "v", "model": "m", "source": "my lab",
                                                "verified": False, "ports": 0, "port_gbit_s": 25, "rdma": "roce"}]}
    with pytest.raises(CatalogError, match="mine.json: record 'x': ports"):
        parse_catalog_file(_json.dumps(bad).encode(), "mine.json")
