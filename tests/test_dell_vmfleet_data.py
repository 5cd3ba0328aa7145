"""Checks on the Dell VMFleet data files: the additional MC-760 sweep, the pinned
hardware facts and the proposed catalog records (planner/data/benchmarks/dell-azure-stack-hci-vmfleet/)."""

from __future__ import annotations

import csv
import json
import re

import pytest

from planner.calibration.benchdata import DELL_DIR
from planner.models.catalog import DEVICE_CLASSES

COMMIT = re.compile(r"^[0-9a-f]{40}$")
# Figures the catalog README calls headline: a record with any of them unseen is not verified.
HEADLINE = {
    "capacity_drive": [
        "rand_read_4k_iops",
        "rand_write_4k_iops",
        "seq_read_mb_s",
        "seq_write_mb_s",
        "read_latency_us",
        "write_latency_us",
    ],
    "nic": ["ports", "port_gbit_s", "rdma"],
}


def _rows(name):
    with open(DELL_DIR / name, newline="") as fh:
        return list(csv.DictReader(fh))


def _json(name):
    return json.loads((DELL_DIR / name).read_text())


def _check_fact(name, fact):
    assert fact.get("status"), name
    assert fact["sources"], name
    for s in fact["sources"]:
        assert s["repo"] and s["path"] and s["quote"], (name, s)
        assert COMMIT.match(s["commit"]), (name, s["commit"])


def test_additional_sweep_has_the_shipped_layout_and_all_mc760_rows():
    with open(DELL_DIR / "sweeps.csv", newline="") as a, open(DELL_DIR / "sweeps-additional.csv", newline="") as b:
        assert next(csv.reader(a)) == next(csv.reader(b))
    rows = _rows("sweeps-additional.csv")
    assert len(rows) == 136  # data rows of MC760-All-Flash-8NVMes-4Node.txt
    assert {r["file"] for r in rows} == set(_json("configs-additional.json"))
    assert max(float(r["IOPS"]) for r in rows) == pytest.approx(5_170_396.76139575)


@pytest.mark.parametrize(
    "sweeps,configs", [("sweeps.csv", "configs.json"), ("sweeps-additional.csv", "configs-additional.json")]
)
def test_one_vm_per_core_matches_cores_per_node(sweeps, configs):
    # New-Fleet creates one 1-vCPU VM per core; the Sql runs use a quarter of the fleet at 4 vCPUs.
    cfg = _json(configs)
    for r in _rows(sweeps):
        c = cfg[r["file"]]
        full_fleet = c["nodes"] * c["cores_per_node"]
        expected = full_fleet if r["ProcessorCount"] == "1" else full_fleet // 4
        assert int(r["VMCount"]) == expected, (r["file"], r["Workload"])


def test_hardware_pins_every_shipped_configuration_with_sources():
    hw = _json("hardware.json")
    assert set(hw) == set(_json("configs.json"))
    for name, entry in hw.items():
        assert COMMIT.match(entry["source_sweep"]["commit"])
        assert entry["unknown"], name
        for key, fact in entry["facts"].items():
            _check_fact(f"{name}:{key}", fact)


def test_additional_config_keeps_configs_fields_and_sources_its_hardware():
    for name, c in _json("configs-additional.json").items():
        assert {"nodes", "cores_per_node", "drives_per_node", "drive_type", "notes"} <= set(c)
        assert c["unknown"]
        for key, fact in c["hardware"].items():
            _check_fact(f"{name}:{key}", fact)


def test_proposed_records_fit_the_catalog_and_name_every_unseen_figure():
    doc = _json("proposed-catalog-records.json")
    for group in doc["files"].values():
        model = DEVICE_CLASSES[group["device_class"]]
        for rec in group["records"]:
            unseen = {k for k, v in rec.items() if v is None}
            assert unseen <= set(rec["estimated"]), rec["id"]
            # null stands in for "not seen"; with placeholders the record must fit the catalog model
            model.model_validate({k: 1.0 if v is None else v for k, v in rec.items()})
            if unseen & set(HEADLINE[group["device_class"]]):
                assert rec["verified"] is False, rec["id"]
