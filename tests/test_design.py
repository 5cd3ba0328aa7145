"""Every design validation rule: rejected with the reason, naming the field."""

import copy
import json
from pathlib import Path

import pytest

from planner.cli import main
from planner.core.errors import DesignError
from planner.models.design import parse_design, resolve

EX = Path(__file__).resolve().parent.parent / "examples"
REF = json.loads((EX / "reference.json").read_text())


def bad(**node_changes):
    d = copy.deepcopy(REF)
    for k, v in node_changes.items():
        d["node"][k] = v
    return d


def reject(design: dict, field: str, words: str):
    with pytest.raises(DesignError) as exc:
        resolve(parse_design(design))
    assert field in str(exc.value), str(exc.value)
    assert words in str(exc.value), str(exc.value)


def test_examples_are_valid():
    for p in EX.glob("*.json"):
        doc = json.loads(p.read_text())
        if "node" in doc:
            resolve(parse_design(doc))


def test_more_drives_than_bays():
    # the reference's cache is persistent memory (no bays): the message names capacity drives only
    # (it said "(capacity + SSD cache)" on an all-NVMe node with no cache device at all)
    reject(
        bad(capacity_drives={"model": "intel-p4510-1tb", "count": 14}),
        "node.capacity_drives.count",
        "14 drives per node (capacity) but",
    )
    # a cache device in the bays is counted and said
    reject(
        bad(
            capacity_drives={"model": "intel-p4510-1tb", "count": 9},
            cache_devices={"model": "intel-optane-p5800x-800gb", "count": 2},
        ),
        "node.capacity_drives.count",
        "11 drives per node (9 capacity + 2 cache) but",
    )


def test_drive_interface_not_taken_by_bays():
    reject(bad(capacity_drives={"model": "intel-s4510-1.92tb", "count": 4}), "node.capacity_drives.model", "bays take")


def test_more_pmem_than_slots():
    reject(
        bad(cache_devices={"model": "intel-optane-pmem-128gb", "count": 40}), "node.cache_devices.count", "PMem slots"
    )


def test_cpu_cannot_use_pmem():
    d = bad(cpu={"model": "intel-xeon-gold-6342", "sockets": 2})
    d["node"]["chassis"] = None
    reject(d, "node.cache_devices.model", "cannot use Optane PMem")
    reject(d, "node.cache_devices.model", "(it supports ")  # in words, not "(supports: [300])"


def test_too_few_fault_domains_for_three_way_mirror():
    d = copy.deepcopy(REF)
    d["nodes"] = 2
    reject(d, "resiliency", "needs at least 3 fault domains")


def test_dual_parity_needs_four():
    d = copy.deepcopy(REF)
    d["resiliency"] = "parity-dual"
    reject(d, "resiliency", "needs at least 4")


def test_nested_mirror_is_two_nodes_only():
    d = copy.deepcopy(REF)
    d["resiliency"] = "nested-mirror-2way"
    reject(d, "resiliency", "exactly 2 nodes")


def test_rdma_on_nic_without_rdma():
    reject(bad(nics={"model": "intel-x710-2x10g", "count": 1}), "transport", "RDMA")


@pytest.mark.parametrize(
    "field,value",
    [
        ("capacity_drives", {"model": "intel-p4510-1tb", "count": 0}),
        ("ram_gb", -5),
        ("nics", {"model": "mellanox-cx4-lx-2x25g", "count": 0}),
    ],
)
def test_non_positive_counts(field, value):
    with pytest.raises(DesignError) as exc:
        parse_design(bad(**{field: value}))
    assert field in str(exc.value) and "greater than" in str(exc.value)


def test_unknown_id_suggests_closest():
    reject(
        bad(capacity_drives={"model": "intel-p4510-1t", "count": 10}),
        "node.capacity_drives.model",
        "closest: intel-p4510-1tb",
    )


def test_cpu_socket_must_fit_chassis():
    d = bad(cpu={"model": "amd-epyc-7302p", "sockets": 1})
    d["node"]["cache_devices"] = None
    reject(d, "node.cpu.model", "does not fit")


def test_zero_nodes_and_too_many_nodes():
    for n in (0, 17):
        d = copy.deepcopy(REF)
        d["nodes"] = n
        with pytest.raises(DesignError) as exc:
            parse_design(d)
        assert "nodes" in str(exc.value)


def test_inline_part_spec_is_accepted():
    d = bad(
        capacity_drives={
            "model": {
                "model": "my drive",
                "interface": "nvme",
                "capacity_tb": 2.0,
                "rand_read_4k_iops": 500000,
                "rand_write_4k_iops": 100000,
                "seq_read_mb_s": 3000,
                "seq_write_mb_s": 2000,
                "read_latency_us": 80,
                "write_latency_us": 20,
                "endurance_dwpd": 1,
            },
            "count": 10,
        }
    )
    rd = resolve(parse_design(d))
    assert rd.node.drive.capacity_tb == 2.0


def test_cli_bad_input_exit_2_one_line(tmp_path, capsys):
    d = copy.deepcopy(REF)
    d["nodes"] = 2
    f = tmp_path / "d.json"
    f.write_text(json.dumps(d))
    assert main(["evaluate", str(f)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "resiliency" in err
    f.write_text("{not json")
    assert main(["evaluate", str(f)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["evaluate", str(tmp_path / "missing.json")]) == 2


def test_cli_catalog_and_schema(capsys):
    assert main(["catalog", "nic"]) == 0
    assert "mellanox-cx4-lx-2x25g" in capsys.readouterr().out
    assert main(["schema", "design"]) == 0
    assert '"resiliency"' in capsys.readouterr().out
    assert main(["catalog", "bogus"]) == 2


def test_a_node_count_override_renames_a_design_named_by_its_parts(capsys):
    """Stop 55 (regression walk 2026-12-01): ``evaluate DESIGN --nodes 16`` printed the sized design's name
    "4x dell-r750 ..." beside nodes 16. A name made from the parts follows the override (as the Design page's edit
    already did: planner.models.design.follow_name); a name the user gave stays."""
    import json as _json
    from pathlib import Path as _Path

    from planner.cli.main import main
    from planner.models.design import Design, with_overrides

    f = _Path(__file__).parent / "data" / "sized_4_node_design.json"
    d = Design.model_validate_json(f.read_text())
    assert d.name.startswith("4x dell-r750 ")
    assert with_overrides(d, nodes=16).name == d.name.replace("4x dell-r750 ", "16x dell-r750 ", 1)
    assert with_overrides(d.model_copy(update={"name": "Contoso"}), nodes=16).name == "Contoso"
    assert main(["evaluate", str(f), "--nodes", "16"]) == 0
    out = _json.loads(capsys.readouterr().out)
    assert out["design"].startswith("16x dell-r750 ") and out["nodes"] == 16
