"""Workloads: who issues IO, how much, and of what shape.

A workload is either a *closed* population (VMs x threads x outstanding IOs,
as VMFleet/DiskSpd drive a cluster) or an *open* load (a target ``iops`` for
the whole cluster, to answer "what latency at 300k IOPS").
Named profiles ship in ``planner/data/workloads.json``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from planner.core import minimums as M
from planner.core.errors import PlannerError, shown
from planner.core.jsonio import file_kind, load_json_model, parse_json_model
from planner.core.resources import DATA_DIR

MAX_WORKLOAD_FILE_BYTES = 1_000_000
#: Largest open load a workload may ask, IOPS (far above any 16-node cluster).
MAX_IOPS = 1e9
#: Largest working set a workload may name, GB (100 PB): an open load with no VM population names its whole load's
#: data here (one issuer), so it must hold what a demand may ask (``Demand.capacity_tb`` up to 1e5 TB) and a
#: database's several copies (``Database.size_gb`` up to 1e7 GB each); 1e6 GB refused a 340 TB database on three
#: servers with a validation traceback (DBA walk 2026-11-30)
MAX_WORKING_SET_GB = 1e8


class WorkloadError(PlannerError):
    pass


class Workload(BaseModel):
    """An IO load. ``issuer`` says who issues it: ``vm`` (default; IO from
    inside Hyper-V VMs, ``vms_per_node`` VMs per node) or ``host`` (DiskSpd/fio
    run on the cluster nodes themselves, ``vms_per_node`` issuing processes per
    node: no guest CPU, no guest latency layer, no vCPU queue)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(default="workload", min_length=1, max_length=200)
    description: str = ""
    block_size_kib: float = Field(ge=0.5, le=4096, description="IO size, KiB")
    read_fraction: float = Field(ge=0.0, le=1.0)
    random_fraction: float = Field(default=1.0, ge=0.0, le=1.0)
    issuer: Literal["vm", "host"] = Field(
        default="vm",
        description="vm: IO issued inside VMs; host: issued by processes on the nodes "
        "themselves (then vms_per_node counts issuing processes per node)",
    )
    vms_per_node: int | None = Field(
        default=None, ge=1, le=2000, description="VMs per node (issuer vm) or issuing processes per node (issuer host)"
    )
    vms_total: int | None = Field(
        default=None,
        ge=1,
        le=2_000_000,
        description="VMs over the whole cluster when not every node holds vms_per_node (a sized demand's "
        "databases, 24 on 11 nodes: vms_per_node 3 on the busiest); the load counts these, the hosting "
        "checks the busiest node's vms_per_node",
    )
    vcpus_per_vm: int = Field(default=4, ge=1, le=512)
    ram_gb_per_vm: float = Field(
        default=4.0, ge=M.MIN_VM_RAM_GB, le=24_000, description="RAM assigned to each VM, GB (issuer vm)"
    )
    threads_per_vm: int = Field(default=1, ge=1, le=1024)
    outstanding_per_thread: int = Field(default=32, ge=1, le=4096)
    working_set_gb_per_vm: float = Field(default=40.0, ge=M.MIN_WORKING_SET_GB, le=MAX_WORKING_SET_GB)
    iops: float | None = Field(
        default=None, ge=M.MIN_IOPS, le=MAX_IOPS, description="open load: target IOPS for the whole cluster"
    )
    iops_limit_per_vm: float | None = Field(
        default=None, ge=M.MIN_IOPS, le=1e8, description="rate cap per VM (Storage QoS maximum or tool rate limit)"
    )
    vm_alignment: float = Field(
        default=1.0,
        ge=0.0,
        le=1.0,
        description="share of VMs running on the node that owns their volume",
    )

    @model_validator(mode="after")
    def _population_or_rate(self) -> Workload:
        if self.vms_per_node is None and self.iops is None:
            raise ValueError("give either vms_per_node (a closed population) or iops (an open load)")
        return self

    @model_validator(mode="after")
    def _total_needs_per_node(self) -> Workload:
        if self.vms_total is not None and self.vms_per_node is None:
            raise ValueError("vms_total needs vms_per_node (the VMs on the busiest node)")
        return self

    def vms_on(self, hosts: Any) -> Any:
        """The VMs (or issuing processes) the load counts on ``hosts`` servers: ``vms_per_node`` on
        each, or ``vms_total`` when given (never more than ``vms_per_node`` on every server) [1]."""
        full = (self.vms_per_node or 0) * np.asarray(hosts, dtype=float)
        return full if self.vms_total is None else np.minimum(float(self.vms_total), full)

    @property
    def outstanding_per_vm(self) -> int:
        return self.threads_per_vm * self.outstanding_per_thread


def parse_workload(data: dict[str, Any] | str | bytes) -> Workload:
    return parse_json_model(
        data, Workload, WorkloadError, "workload", prefix="workload", max_bytes=MAX_WORKLOAD_FILE_BYTES
    )


@lru_cache(maxsize=1)
def profiles() -> dict[str, Workload]:
    """Named workload profiles shipped with the planner (``planner/data/workloads.json``).

    Returns
    -------
    dict of str to Workload
        Profile name (``oltp-8k``, ...: the table on the docs' Workloads page) to its workload: block
        size ``block_size_kib`` [KiB], ``read_fraction`` [-], the VMs and their outstanding IOs [-],
        and its ``description`` with the source it follows.
    """
    doc = json.loads((DATA_DIR / "workloads.json").read_text(encoding="utf-8"))
    return {p["name"]: Workload.model_validate(p) for p in doc["profiles"]}


def load_workload(ref: str | Path, field: str = "workload") -> Workload:
    """A workload from a named profile, or else a file path; its errors name ``field`` (the argument it came from:
    ``sla --background nosuch`` said "workload: no file or profile", CLI walk 2026-12-01)."""
    if str(ref) in profiles():
        return profiles()[str(ref)]
    try:
        return load_json_model(ref, Workload, WorkloadError, field, prefix=field, max_bytes=MAX_WORKLOAD_FILE_BYTES)
    except WorkloadError as exc:
        if exc.message.startswith("file not found"):
            raise WorkloadError(
                f"no file or profile named {shown(str(ref))}; profiles: {', '.join(profiles())}", field
            ) from None
        raise


# said when one kind of file is given for another (planner.core.jsonio.other_kind)
file_kind(Workload, "a workload file")
