"""The fixed set of CLI reports whose numbers must not move unless the model does.

Each case is a ``python -m planner`` command line (paths relative to the repository root).
``tests/golden/make_golden.py`` runs them and writes ``reports.json``; ``tests/test_golden.py``
runs them again and compares every number exactly. Wall-clock fields are dropped.
"""

from __future__ import annotations

DESIGNS = [
    "reference",
    "edge-2node",
    "sas-4node",
    "nvme-pmem-12node",
    "sofs-2node-sas-tiered",
    "split-provisioned",
    "single-server-sata-raid10",
    "single-server-pcie-flash",
    "san-raid5",
]
WORKLOADS = [
    None,
    "Peak4kRead",
    "General4KWriteRatio30",
    "Sql",
    "Vdi",
    "oltp-8k",
    "dss-64k",
    "dss-512k",
    "log-writes",
    "backup",
    "examples/background-25vms.json",
]


def cases() -> list[list[str]]:
    """Every golden command line, in a fixed order."""
    out: list[list[str]] = []
    for d in DESIGNS:
        for w in WORKLOADS:
            argv = ["evaluate", f"examples/{d}.json"]
            if w is not None:
                argv += ["--workload", w]
            out.append(argv)
    out += [
        ["evaluate", "examples/reference.json", "--workload", "oltp-8k", "--transport", "tcp", "--nodes", "4"],
        ["evaluate", "examples/reference.json", "--workload", "Peak4kRead", "--nodes", "12", "--volume-servers", "3"],
        [
            "sla",
            "examples/reference.json",
            "--background",
            "examples/background-25vms.json",
            "--db",
            "examples/db-erp.json",
        ],
        ["sla", "examples/reference.json", "--db", "examples/db-erp.json", "--n-plus-one"],
        ["sla", "examples/reference.json", "--database", "examples/db-oltp-hammerdb.json", "--vcpus", "16"],
        ["price", "examples/reference.json", "--tiers", "examples/tiers.json"],
        ["price", "examples/sas-4node.json", "--n-plus-one"],
        ["size", "examples/demand-200dbs.json", "--top", "5"],
        ["size", "examples/demand-200dbs-azure-local.json", "--top", "3"],
        ["size", "examples/demand-hammerdb.json", "--top", "3"],
        ["bom", "examples/reference.json", "--switch", "dell-s5248f-on"],
        [
            "compare",
            "examples/reference.json",
            "examples/sofs-2node-sas-tiered.json",
            "examples/split-provisioned.json",
            "examples/single-server-sata-raid10.json",
            "examples/single-server-pcie-flash.json",
            "examples/san-raid5.json",
            "--workload",
            "oltp-8k",
        ],
        [
            "compare",
            "examples/reference.json",
            "examples/san-raid5.json",
            "--database",
            "examples/db-oltp-hammerdb.json",
        ],
        ["validate"],
    ]
    return out


#: keys whose values are wall-clock measurements, not model output
VOLATILE = {"seconds", "timing_s", "elapsed_s", "wall_s"}


def strip(obj):
    """A JSON value without its wall-clock fields."""
    if isinstance(obj, dict):
        return {k: strip(v) for k, v in obj.items() if k not in VOLATILE}
    if isinstance(obj, list):
        return [strip(v) for v in obj]
    return obj


def numbers(obj, path: str = "") -> dict[str, object]:
    """Every leaf of a JSON value by its path (numbers, strings, booleans, nulls)."""
    out: dict[str, object] = {}
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in VOLATILE:
                continue
            out.update(numbers(v, f"{path}/{k}"))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out.update(numbers(v, f"{path}[{i}]"))
    else:
        out[path] = obj
    return out
