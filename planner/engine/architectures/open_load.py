"""A database VM's open load, with the background tenants, on any non-HCI architecture:
what the per-database guarantee (:mod:`planner.commercial.sla`) asks of a design.

The SLA code evaluates an HCI design through :func:`planner.engine.performance.evaluate_arrays`
on candidate rates. :class:`OpenLoadModel` gives the same outputs for a disaggregated file
server, a split-provisioned system or a single server: for each parameter set and each
candidate database rate, the background plus the database as one open load (IO-weighted
block size and read share, the whole database as working set, the database's own vCPU
queue removed: the SLA bounds the VM's vCPUs apart), solved by the architecture's network
(:func:`planner.engine.architectures.common.solve`). Arrays come back shaped
``(parameter sets, rates)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from planner.core import minimums as M
from planner.engine.architectures import MODULES, AnyParts, common, disaggregated, resolve
from planner.models.catalog import Catalog
from planner.models.design import Design
from planner.models.params import ModelParams
from planner.models.workload import Workload

#: the keys :meth:`OpenLoadModel.evaluate` returns, as :func:`planner.engine.performance.evaluate_arrays`
KEYS = (
    "iops",
    "iops_capacity",
    "read_latency_ms",
    "write_latency_ms",
    "vm_read_latency_ms",
    "vm_write_latency_ms",
    "vm_latency_ms",
    "p90_read_latency_ms",
    "p99_read_latency_ms",
    "p90_write_latency_ms",
    "p99_write_latency_ms",
    "host_cpu_utilization",
    "saturated",
)
#: the database's own vCPU queue is left out of the shared open load (the SLA's vm_vcpu_share
#: bound covers it), as the HCI path does with 1e6 vCPUs; 512 is the Workload model's ceiling
UNBOUNDED_VCPUS = 512


@dataclass(frozen=True)
class OpenLoadModel:
    """A resolved non-HCI design as the SLA code needs it."""

    design: Design
    parts: AnyParts

    @property
    def topology(self) -> str:
        return self.design.topology

    @property
    def hosts(self) -> int:
        """Servers a database VM can run on (the SLA's node_headroom divides by them):
        :attr:`planner.models.design.Design.database_servers`."""
        return self.design.database_servers

    @property
    def base_ghz(self) -> float:
        """Clock of the CPU the database VM runs on [GHz] (guest CPU per IO scales with it)."""
        p = self.parts
        return float(p.db_cpu.base_ghz if isinstance(p, disaggregated.Parts) else p.cpu.base_ghz)

    @property
    def lps(self) -> int:
        """Logical processors of the server the database VM runs on."""
        p = self.parts
        return int(p.db_lps if isinstance(p, disaggregated.Parts) else p.lps)

    @property
    def usable_capacity_tb(self) -> float:
        return float(MODULES[self.topology].capacity(self.parts)["usable_capacity_tb"])

    def background_rate(self, bg: Workload | None, params: list[ModelParams]) -> tuple[np.ndarray, float]:
        """(IOPS per parameter set, VMs) the background reaches on its own."""
        if bg is None:
            return np.zeros(len(params)), 0.0
        mod = MODULES[self.topology]
        rates = np.array([common.solve(mod.network(self.parts, bg, p), p)["iops"] for p in params], dtype=float)
        vms = float(bg.vms_on(self.hosts)) if bg.vms_per_node else 1.0
        return rates, vms

    def background_latency_ms(self, bg: Workload, params: ModelParams) -> float:
        """Mean VM latency of the background alone [ms] (its own closed or open network)."""
        mod = MODULES[self.topology]
        return float(common.solve(mod.network(self.parts, bg, params), params)["vm_latency_ms"])

    def combined(self, db: Any, bg: Workload | None, x_bg: float, vms_bg: float, x_db: float) -> Workload:
        """Background + database as one open load at database rate ``x_db`` [IOPS]."""
        tot = x_bg + x_db
        wdb = x_db / tot if tot > 0 else 1.0
        bs_bg = bg.block_size_kib if bg else db.block_size_kib
        r_bg = bg.read_fraction if bg else db.read_fraction
        # the database's working set is its data, not the log and tempdb its size_tb holds beside it
        ws = getattr(db, "data_tb", db.size_tb) * 1000.0 + ((bg.working_set_gb_per_vm * vms_bg) if bg else 0.0)
        return Workload(
            name="sla-open-load",
            block_size_kib=wdb * db.block_size_kib + (1 - wdb) * bs_bg,
            read_fraction=min(max(wdb * db.read_fraction + (1 - wdb) * r_bg, 0.0), 1.0),
            random_fraction=wdb * getattr(db, "random_fraction", 1.0) + (1 - wdb) * (bg.random_fraction if bg else 1.0),
            vcpus_per_vm=UNBOUNDED_VCPUS,
            # the zero-load probe runs at the least rate a workload takes (planner.core.minimums)
            working_set_gb_per_vm=max(ws, M.MIN_WORKING_SET_GB),
            iops=max(tot, M.MIN_IOPS),
        )

    def evaluate(
        self,
        db: Any,
        bg: Workload | None,
        x_bg: np.ndarray,
        vms_bg: float,
        params: list[ModelParams],
        x_db: np.ndarray,
    ) -> dict[str, np.ndarray]:
        """The combined load at database rates ``x_db`` (sets, m) [IOPS] for each parameter
        set; every :data:`KEYS` entry shaped (sets, m)."""
        x_db = np.atleast_2d(np.asarray(x_db, dtype=float))
        x_bg = np.broadcast_to(np.asarray(x_bg, dtype=float), (x_db.shape[0],))
        mod = MODULES[self.topology]
        out = {k: np.zeros(x_db.shape, dtype=bool if k == "saturated" else float) for k in KEYS}
        for i, p in enumerate(params):
            for j, x in enumerate(x_db[i]):
                w = self.combined(db, bg, float(x_bg[i]), vms_bg, float(x))
                res = common.solve(mod.network(self.parts, w, p), p)
                for k in KEYS:
                    out[k][i, j] = res[k]
        return out


def open_load_model(design: Design, catalog: Catalog | None = None) -> OpenLoadModel:
    """The SLA view of a non-HCI design (errors name the field, as :func:`resolve`)."""
    return OpenLoadModel(design=design, parts=resolve(design, catalog))
