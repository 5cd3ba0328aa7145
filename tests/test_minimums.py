"""Every positive input has a floor that describes something real (planner.core.minimums).

Hostile-input walk: tiers of 1e-300 guaranteed IOPS priced at 1.2e+301 USD per IOPS, a database
of 1e-300 NOPM wrote 2.4e+290 pages per transaction (1e-9 NOPM read 0.0 pages, 10.36 at any
normal rate), a measured latency of 1e-300 ms gave a median error of 1.6e+301 %, a server of
1e-300 GB RAM was evaluated. Each is now one line naming the field, its floor and the value.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from annotated_types import Gt
from pydantic import BaseModel

from planner.cli import main
from planner.core import minimums as M

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
REF = str(EX / "reference.json")


def _err(argv, capsys) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    return err.strip()


def test_no_float_field_of_the_models_is_only_positive():
    """``gt=0`` on a float took 1e-300: every positive float field has a ``ge=`` floor (whole numbers'
    gt=0 is already 1)."""
    import planner.calibration.importers.common as common
    import planner.commercial.pricing as pricing
    import planner.models.catalog as catalog
    import planner.models.database as database
    import planner.models.demand as demand
    import planner.models.design as design
    import planner.models.tiers as tiers
    import planner.models.workload as workload

    only_positive = []
    for mod in (catalog, database, demand, design, tiers, workload, pricing, common):
        for name, cls in vars(mod).items():
            if isinstance(cls, type) and issubclass(cls, BaseModel) and cls.__module__ == mod.__name__:
                for field, info in cls.model_fields.items():
                    if info.annotation is int:
                        continue
                    if any(isinstance(m, Gt) and m.gt == 0 for m in info.metadata):
                        only_positive.append(f"{name}.{field}")
    assert not only_positive


def test_tiers_of_almost_no_iops_or_capacity_are_refused(tmp_path, capsys):
    tiers = json.loads((EX / "tiers.json").read_text())
    tiers["tiers"][0] |= {"guaranteed_iops": 1e-300, "capacity_tb_per_db": 1e-300}
    (tmp_path / "t.json").write_text(json.dumps(tiers))
    err = _err(["price", REF, "--tiers", str(tmp_path / "t.json")], capsys)
    assert "guaranteed_iops: must be greater than or equal to 1 (got 1e-300)" in err, err
    assert "capacity_tb_per_db: must be greater than or equal to 0.001 (got 1e-300)" in err, err


@pytest.mark.parametrize(
    ("field", "value", "floor"),
    [("nopm", 1e-300, 1), ("nopm", 1e-9, 1), ("buffer_pool_gb", 1e-300, 0.128), ("size_gb", 1e-300, 1)],
)
def test_a_database_of_almost_nothing_is_refused(field, value, floor, tmp_path, capsys):
    doc = {"name": "db", "size_gb": 1000, "buffer_pool_gb": 128, "nopm": 20000} | {field: value}
    (tmp_path / "db.json").write_text(json.dumps(doc))
    err = _err(["db-io", str(tmp_path / "db.json")], capsys)
    assert f"database.{field}: must be greater than or equal to {floor:g} (got {value:g})" in err, err


def test_a_database_at_its_floor_reads_what_a_normal_rate_reads(tmp_path, capsys):
    """At 1 NOPM the pages read per transaction are a normal rate's (1e-9 NOPM read 0.0)."""
    doc = {"name": "db", "size_gb": 1000, "buffer_pool_gb": 128, "nopm": M.MIN_TRANSACTIONS_PER_MIN}
    (tmp_path / "db.json").write_text(json.dumps(doc))
    assert main(["db-io", str(tmp_path / "db.json")]) == 0
    floor = json.loads(capsys.readouterr().out)["reads_per_txn"]
    (tmp_path / "db.json").write_text(json.dumps({**doc, "nopm": 50_000}))
    assert main(["db-io", str(tmp_path / "db.json")]) == 0
    assert floor == pytest.approx(json.loads(capsys.readouterr().out)["reads_per_txn"], rel=1e-3) and floor > 5


def test_a_server_of_almost_no_ram_is_refused(tmp_path, capsys):
    d = json.loads((EX / "reference.json").read_text())
    d["node"]["ram_gb"] = 1e-300
    (tmp_path / "d.json").write_text(json.dumps(d))
    err = _err(["evaluate", str(tmp_path / "d.json")], capsys)
    assert err == "error: node.ram_gb: must be greater than or equal to 1 (got 1e-300)"


def test_a_measured_latency_below_a_microsecond_is_refused(tmp_path, capsys):
    head = (
        "label,issuer,vms_per_node,vcpus_per_vm,threads_per_vm,outstanding_per_thread,block_size_kib,read_fraction,"
        "random_fraction,working_set_gb_per_vm,iops,bandwidth_mb_s,read_latency_ms,write_latency_ms"
    )
    f = tmp_path / "m.csv"
    f.write_text(f"{head}\nref,vm,50,2,1,32,16,1.0,1,40,1425000,23250,1e-300,\n")
    err = _err(["import", str(f), "--design", REF], capsys)
    assert "read_latency_ms must be at least 0.001 ms" in err and "(got 1e-300" in err, err
    f.write_text(f"{head}\nref,vm,50,2,1,32,16,1.0,1,40,1e-300,23250,0.2,\n")
    err = _err(["import", str(f), "--design", REF], capsys)
    assert "iops must be at least 1 (got 1e-300)" in err, err


def test_a_saved_database_demand_is_read_again_by_todays_model():
    """DBA layer review 2026-11-30: a scenario saved with a database demand carries the figures that followed from
    the database then (capacity_tb 1.0 before the log and tempdb were counted); read back after the change it was
    refused ("capacity_tb follows from database (1.5); leave it out"), and the saved work with it."""
    import json
    from pathlib import Path

    import pytest

    from planner.models.demand import Demand, DemandError, saved_demand

    ex = Path(__file__).resolve().parent.parent / "examples" / "demand-hammerdb.json"
    today = Demand.model_validate_json(ex.read_text())
    old = json.loads(today.model_dump_json())
    old["capacity_tb"] = old["capacity_tb"] / 1.5  # as saved before a change to the database layer
    with pytest.raises((DemandError, ValueError), match="follows from database"):
        Demand.model_validate(old)
    assert saved_demand(old) == today
