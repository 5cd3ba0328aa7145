"""Measured benchmark points, as (design, workload, measurement) triples.

Sources are copied into ``planner/data/benchmarks/`` (see ``planner/data/README.md``). Facts a
source does not state (drive and CPU models of Dell's clusters, network) are
filled with catalog stand-ins named ``dell-*`` or documented assumptions, and
listed in :data:`DELL_ASSUMPTIONS`.
"""

from __future__ import annotations

import json
from functools import lru_cache

from planner.calibration.points import BenchPoint
from planner.core.resources import BENCH_DIR, EXAMPLES_DIR
from planner.models.design import parse_design, resolve
from planner.models.workload import Workload

DELL_DIR = BENCH_DIR / "dell-azure-stack-hci-vmfleet"
REFERENCE_FILE = BENCH_DIR / "s2d-3node-nvme-pmem-rocev2.json"

#: Configurations whose distinguishing feature the model does not represent:
#: measured and reported, but kept out of every fit.
OUT_OF_SCOPE = {
    "AX6515-All-Flash-32SAS-SSDs-64VMs-4nodesStretch-azshci.txt": "stretch cluster (synchronous Storage Replica between sites) is not modelled",
    "AX6515-All-Flash-8SATA-SSDs-32VMs-2Node-SC-Dedup.txt": "deduplication CPU/IO cost is not modelled",
    "AX6515-All-Flash-8SATA-SSDs-32VMs-2Node-SC-BitLocker.txt": "BitLocker encryption CPU cost is not modelled",
    "AX6515-All-Flash-8SATA-SSDs-32VMs-2Node-nestedmirror-azshci.txt": (
        "hardware in doubt: the file name says 4 SATA SSDs per node, but its reads match the 16-SAS-SSD "
        "2-node azshci run, not the SATA runs (Peak4kRead aligned: 709,432 IOPS at 0.143 ms CSV read latency, "
        "SAS run 738,508 at 0.143 ms, SATA baseline 590,092 at 0.427 ms)"
    ),
}

DELL_ASSUMPTIONS = [
    "drives pinned (planner/data/benchmarks/dell-azure-stack-hci-vmfleet/hardware.json): AX-6515 SATA runs 4x SK hynix "
    "SE5031 960 GB, SAS runs 8x KIOXIA PM6-V 3.84 TB (KPM6WVUG3T84); no datasheet publishes their performance, so "
    "catalog stand-ins dell-sata-ssd-mu-960gb and dell-sas-ssd-mu-3.84tb carry mixed-use class figures; the R640 "
    "NVMe drive is not named: stand-in dell-nvme-ssd-mu-1.6tb (Intel P4610 class)",
    "AX-6515 CPU: 1x AMD EPYC 7302P (16 cores), pinned for the SATA runs by the validation report, assumed for "
    "the SAS runs (16 cores per node inferred from one VM per core)",
    "R640 CPU: 2x Intel Xeon Gold 6242 (2x16 = 32 cores per node, as configs.json states; model not published)",
    "network: Mellanox ConnectX-5 2x25 GbE with RoCE v2 on the AX-6515 runs (validation report, lab "
    "screenshots); R640 not stated: ConnectX-4 Lx 2x25 GbE stand-in",
    "RAM: 64 GiB per SATA node (validation report); 512 GB elsewhere (not published, affects only RAM warnings)",
    "resiliency: S2D defaults, 2-way mirror on 2 nodes, 3-way on 3-4 (not stated for the SAS and R640 runs)",
    "Sql and Vdi are rate-limited by VMFleet itself: 6300 and 12 IOPS per VM (measured at QoS 0)",
]


def _dell_design(cfg: dict, fname: str) -> dict:
    nodes = int(cfg["nodes"])
    dtype = cfg["drive_type"]
    # pinned from Dell's lab report and support matrix (hardware.json); the
    # performance figures of the SATA and SAS drives remain stand-ins (no datasheet)
    drive = {
        "SATA SSD": "dell-sata-ssd-mu-960gb",
        "SAS SSD": "dell-sas-ssd-mu-3.84tb",
        "NVMe SSD": "dell-nvme-ssd-mu-1.6tb",
    }[dtype]
    if fname.startswith("R640"):
        cpu = {"model": "intel-xeon-gold-6242", "sockets": 2}
    else:
        cpu = {"model": "amd-epyc-7302p", "sockets": 1}
    if "nestedmirror" in fname:
        res = "nested-mirror-2way"
    else:
        res = "mirror-2way" if nodes == 2 else "mirror-3way"
    # the SATA nodes' RAM is in the validation report (64 GiB); the others' is not published
    ram_gb = 68.7 if dtype == "SATA SSD" else 512
    nic = "mellanox-cx4-lx-2x25g" if fname.startswith("R640") else "mellanox-cx5-2x25g"
    return {
        "name": fname.removesuffix(".txt"),
        "nodes": nodes,
        "node": {
            "cpu": cpu,
            "ram_gb": ram_gb,
            "capacity_drives": {"model": drive, "count": int(cfg["drives_per_node"])},
            "nics": {"model": nic, "count": 1},
        },
        "resiliency": res,
        "transport": "rdma",
        "vcpu_oversubscription": 4.0,
        "cpu_utilization_cap": 1.0,
    }


@lru_cache(maxsize=1)
def dell_designs() -> dict:
    """Result file name -> the resolved stand-in design of that Dell cluster."""
    configs = json.loads((DELL_DIR / "configs.json").read_text())
    return {f: resolve(parse_design(_dell_design(c, f))) for f, c in configs.items()}


@lru_cache(maxsize=1)
def dell_points() -> tuple[BenchPoint, ...]:
    """Dell's sweeps, read by the same VMFleet importer a customer's files go
    through (:mod:`planner.calibration.importers.vmfleet`), one point per QoS step."""
    from planner.calibration.importers import vmfleet  # builds on BenchPoint, defined here

    rows = vmfleet.read_rows((DELL_DIR / "sweeps.csv").read_text(), "sweeps.csv", "compiled")
    pts = vmfleet.rows_to_points(rows, dell_designs().__getitem__, "sweeps.csv", "dell", "compiled")
    # the calibration's record: bandwidth is not a fitted metric
    return tuple(
        BenchPoint(
            group=p.group,
            dataset=p.dataset,
            label=p.label,
            design=p.design,
            workload=p.workload,
            measured={k: v for k, v in p.measured.items() if k != "bandwidth_mb_s"},
            in_scope=row["file"] not in OUT_OF_SCOPE,
            note=OUT_OF_SCOPE.get(row["file"], ""),
        )
        for row, p in zip(rows, pts)
    )


def reference_design_dict() -> dict:
    return json.loads((EXAMPLES_DIR / "reference.json").read_text())


@lru_cache(maxsize=1)
def reference_points() -> tuple[BenchPoint, ...]:
    doc = json.loads(REFERENCE_FILE.read_text())
    test = doc["tests"][0]
    rd = resolve(parse_design(reference_design_dict()))
    nodes = doc["cluster"]["nodes"]
    out = []
    for res in test["results"]:
        w = Workload(
            name=f"ref-{res['block_size_kib']}k-r{int(res['read_fraction'] * 100)}",
            block_size_kib=res["block_size_kib"],
            read_fraction=res["read_fraction"],
            # 50 VMs per node at "4:1" on 24 cores (48 LPs) fits 2 vCPUs per VM,
            # oversubscription counted per physical core; the VM size is not stated
            random_fraction=1.0,
            vms_per_node=test["vms_per_node"],
            vcpus_per_vm=2,
            threads_per_vm=test["threads_per_vm"],
            outstanding_per_thread=test["outstanding_per_thread"],
            working_set_gb_per_vm=test["vm_disk_gb"],
        )
        nan = float("nan")
        out.append(
            BenchPoint(
                group="reference-s2d-3node",
                dataset="reference",
                label=w.name,
                design=rd,
                workload=w,
                measured={
                    "iops": res["iops_per_volume"] * nodes,
                    "read_latency_ms": res["read_latency_ms"] if res["read_latency_ms"] else nan,
                    "write_latency_ms": res["write_latency_ms"] if res["write_latency_ms"] else nan,
                    "host_cpu_utilization": nan,
                    "vm_read_latency_ms": nan,
                    "vm_write_latency_ms": nan,
                    "p99_read_latency_ms": nan,
                    "unthrottled": 1.0,
                },
            )
        )
    return tuple(out)


def all_points() -> list[BenchPoint]:
    return list(reference_points()) + list(dell_points())
