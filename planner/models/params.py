"""Model parameters: fitted ones and published ones, kept as data.

* Fitted parameters live in ``planner/data/calibration.json``, written by
  ``python -m planner calibrate`` (see :mod:`planner.calibration.fit`), with the
  fit's residuals and bootstrap parameter sets for uncertainty bands.
* The TCP/IP costs are derived from Microsoft's published RDMA/TCP pair
  (``planner/data/benchmarks/ms-rdma-vs-tcp-2017.json``) by
  :func:`planner.calibration.fit.derive_tcp_costs`, after each fit.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from planner.core.errors import PlannerError, shown

# the calibration files, re-exported: callers check and read them through this module
from planner.core.resources import CALIBRATION_FILE as CALIBRATION_FILE
from planner.core.resources import CEPH_CALIBRATION_FILE as CEPH_CALIBRATION_FILE

#: CPU costs are expressed at this core clock; other CPUs scale by
#: REFERENCE_GHZ / base_ghz (cycles per IO held constant). A definition, not a fit.
REFERENCE_GHZ = 3.0


class ModelParams(BaseModel):
    """Parameters no datasheet gives; fitted to measured clusters.

    CPU times are logical-processor microseconds per IO at REFERENCE_GHZ.
    """

    model_config = ConfigDict(frozen=True)

    guest_cpu_us: float = Field(description="vCPU time per IO inside the VM (guest stack + IO tool)")
    host_cpu_read_us: float = Field(description="host CPU per front-end read served locally")
    host_cpu_write_us: float = Field(description="host CPU per backend write (per copy)")
    host_cpu_hop_us: float = Field(description="extra host CPU per IO that crosses the network")
    host_cpu_per_kib_us: float = Field(description="host CPU per KiB moved")
    drive_efficiency: float = Field(description="share of datasheet IOPS/bandwidth reachable under S2D")
    stack_read_latency_us: float = Field(description="software path latency of a read, storage layer")
    stack_write_latency_us: float = Field(description="software path latency of a write, storage layer")
    hop_latency_us: float = Field(description="latency added by one network crossing (RDMA)")
    guest_latency_us: float = Field(description="latency added inside the VM (guest stack)")
    latency_cv2: float = Field(description="squared coefficient of variation of VM latency (Gamma)")
    host_cpu_idle_utilization: float = Field(description="host CPU busy with no IO (OS, idle VMs), 0..1")
    host_cpu_max_utilization: float = Field(
        description="LP utilisation at which host CPU throughput stops growing (SMT siblings share a core)"
    )
    storage_cpu_wait: float = Field(
        description="storage-layer wait for the LP an IO's host work is bound to, as a multiple of the "
        "M/M/1 wait (critical-path host CPU x U/(1-U))"
    )
    tcp_cpu_per_crossing_us: float = Field(
        default=0.0,
        description="extra host CPU per network crossing over TCP/IP instead of RDMA, LP-us at "
        "the reference clock (derived from Microsoft's RDMA/TCP pair, see calibration.tcp_costs)",
    )
    tcp_hop_latency_us: float = Field(
        default=0.0,
        description="extra latency per network crossing over TCP/IP instead of RDMA, us "
        "(derived from Microsoft's RDMA/TCP pair, see calibration.tcp_costs)",
    )

    def vector(self) -> np.ndarray:
        return np.array([getattr(self, f) for f in PARAM_NAMES], dtype=float)

    @classmethod
    def from_vector(cls, v: Iterable[float]) -> ModelParams:
        return cls(**{f: float(x) for f, x in zip(PARAM_NAMES, v)})

    @classmethod
    def from_mapping(cls, values: Mapping[str, float]) -> ModelParams:
        """Parameters by name; a name the mapping lacks (a file written before
        the parameter existed) takes its starting value."""
        data = {k: v[0] for k, v in PARAM_BOUNDS.items()}
        data.update({k: float(v) for k, v in values.items() if k in cls.model_fields})
        return cls(**data)


PARAM_NAMES = list(ModelParams.model_fields)

#: Starting values and bounds for the fit (physical ranges, not targets).
PARAM_BOUNDS = {
    "guest_cpu_us": (40.0, 2.0, 200.0),
    "host_cpu_read_us": (20.0, 1.0, 200.0),
    "host_cpu_write_us": (15.0, 1.0, 300.0),
    "host_cpu_hop_us": (20.0, 0.0, 400.0),
    "host_cpu_per_kib_us": (0.5, 0.0, 20.0),
    "drive_efficiency": (0.8, 0.2, 1.0),
    "stack_read_latency_us": (80.0, 5.0, 1000.0),
    "stack_write_latency_us": (150.0, 5.0, 2000.0),
    "hop_latency_us": (30.0, 1.0, 1000.0),
    "guest_latency_us": (300.0, 1.0, 3000.0),
    "latency_cv2": (0.5, 0.05, 4.0),
    "host_cpu_idle_utilization": (0.02, 0.0, 0.3),
    "host_cpu_max_utilization": (0.85, 0.5, 1.0),
    "storage_cpu_wait": (0.5, 0.0, 10.0),
    # derived, not fitted (DERIVED_PARAMS): their ranges bound a customer refit
    "tcp_cpu_per_crossing_us": (30.0, 0.0, 500.0),
    "tcp_hop_latency_us": (100.0, 0.0, 2000.0),
}
#: Parameters identified outside the least-squares fit (derived from a
#: published pair of measurements, or from idle points): never varied by it.
DERIVED_PARAMS = ("tcp_cpu_per_crossing_us", "tcp_hop_latency_us", "guest_latency_us")
#: What the least-squares fit varies.
FIT_NAMES = [k for k in PARAM_NAMES if k in PARAM_BOUNDS and k not in DERIVED_PARAMS]


def check_params(values: Mapping[str, Any], where: str, error: type[PlannerError] = PlannerError) -> None:
    """Every parameter in ``values`` a finite number within its fit bounds
    (:data:`PARAM_BOUNDS`, inclusive): the rule a calibration file's point
    parameters and each of its bootstrap sets meet when it is read, so a set
    the fit could never have produced (``storage_cpu_wait: -0.4``) is refused
    by name instead of failing later inside a percentile.

    Raises
    ------
    PlannerError
        (or ``error``) with field ``calibration``, naming ``where`` and the parameter.
    """
    for k, v in values.items():
        if k not in PARAM_BOUNDS:
            continue
        lo, hi = PARAM_BOUNDS[k][1:]
        if not isinstance(v, (int, float)) or isinstance(v, bool) or not lo <= v <= hi:
            raise error(f"{where}: {k} must be a number in {lo:g}..{hi:g} (got {shown(v, 40)})", "calibration")


class Calibration(BaseModel):
    model_config = ConfigDict(frozen=True)
    version: str
    params: ModelParams
    bootstrap: list[list[float]] = Field(default_factory=list)
    summary: dict[str, Any] = Field(default_factory=dict)
    domain: dict[str, Any] = Field(
        default_factory=dict, description="the calibrated domain (planner.results.calibrated_domain)"
    )
    bands: dict[str, Any] = Field(
        default_factory=dict, description="held-out error quantiles (planner.results.uncertainty)"
    )

    def bootstrap_params(self) -> list[ModelParams]:
        """The file's bootstrap parameter sets (empty when it carries none)."""
        return [ModelParams.from_vector(v) for v in self.bootstrap]


def _calibration_doc(p: Path) -> dict[str, Any]:
    """A calibration file's JSON, or one line saying it cannot be read: a file cut off by a failed write made every
    command print a JSONDecodeError traceback (hostile-input walk 2026-11-30)."""
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PlannerError(
            f"{p.name} cannot be read ({type(exc).__name__}: {exc}): restore it (git checkout) or run "
            "`hciplan calibrate` again",
            "calibration",
        ) from None
    if not isinstance(doc, dict) or "params" not in doc or "version" not in doc:
        raise PlannerError(f"{p.name} is not a calibration file (no version or params)", "calibration")
    return doc


@lru_cache(maxsize=4)
def load_calibration(path: str | None = None) -> Calibration:
    p = Path(path) if path else CALIBRATION_FILE
    doc = _calibration_doc(p)
    boot = [b if isinstance(b, dict) else dict(zip(PARAM_NAMES, b)) for b in doc.get("bootstrap", [])]
    check_params(doc["params"], p.name)
    for i, b in enumerate(boot):
        check_params(b, f"{p.name}: bootstrap set {i + 1}")
    return Calibration(
        version=doc["version"],
        params=ModelParams.from_mapping(doc["params"]),
        bootstrap=[ModelParams.from_mapping(b).vector().tolist() for b in boot],
        summary=doc.get("summary", {}),
        domain=doc.get("domain", {}),
        bands=doc.get("bands", {}),
    )


def default_params() -> ModelParams:
    """The fitted parameters if a calibration file exists, else the starting values."""
    if CALIBRATION_FILE.exists():
        return load_calibration().params
    return ModelParams.from_mapping({})


# ------------------------------------------------------------------ Ceph
class CephParams(ModelParams):
    """Ceph's parameters: the generic ones of :class:`ModelParams` (drive
    efficiency, the LP ceiling, latency shape, guest costs) plus what only Ceph has.

    Fitted on Ceph's own measurements (``planner/data/calibration-ceph.json``,
    written by ``hciplan calibrate --stack ceph``); the guest (VM) costs, the latency
    shape and the idle load are the S2D fit's, as the Ceph data do not identify them.
    CPU times are LP-us at :data:`REFERENCE_GHZ`, per operation.
    """

    client_cpu_us: float = Field(
        default=40.0, description="client (librbd / krbd) CPU per IO, messenger included, LP-us"
    )
    client_cpu_per_kib_us: float = Field(default=0.2, description="client CPU per KiB moved, LP-us")
    client_threads: float = Field(
        default=4.0, description="threads one client process (a fio job, a QEMU disk) spreads its IO work over"
    )
    osd_read_cpu_us: float = Field(default=70.0, description="OSD CPU per read operation (primary or shard), LP-us")
    osd_write_cpu_us: float = Field(
        default=200.0, description="OSD CPU per write operation on one OSD (a replica or a shard), LP-us, Reef"
    )
    osd_cpu_per_kib_read_us: float = Field(
        default=0.2, description="OSD CPU per KiB read (messenger, checksums), LP-us"
    )
    osd_cpu_per_kib_write_us: float = Field(
        default=0.5, description="OSD CPU per KiB written (messenger, checksums, allocation), LP-us"
    )
    release_write_factor_pacific: float = Field(default=1.0, description="OSD write CPU, Pacific / Reef")
    release_write_factor_quincy: float = Field(default=1.0, description="OSD write CPU, Quincy / Reef")
    rocksdb_tuned_write_factor: float = Field(
        default=1.0, description="OSD write CPU with the 2022 RocksDB tuning / the release default"
    )
    network_efficiency: float = Field(
        default=0.8, description="share of the links' line rate the TCP messenger reaches"
    )
    osd_max_lps_read: float = Field(
        default=9.0,
        description="LPs one OSD can use on reads (Ceph blog, 'OSD CPU Scaling': 'tops out at around 8-10 cores "
        "per OSD for reads'); published, not fitted",
    )
    osd_max_lps_write: float = Field(
        default=12.0,
        description="LPs one OSD can use on writes (same post: 'about 12 cores per OSD for writes'); published",
    )
    bluestore_metadata_kib_per_write: float = Field(
        default=4.0,
        description="RocksDB WAL and metadata bytes BlueStore writes per OSD write, KiB (an assumption: one "
        "4 KiB block; the Ceph data give DB writes without the IO counts to divide them by)",
    )


CEPH_PARAM_NAMES = list(CephParams.model_fields)
#: Starting values and bounds of the Ceph fit (physical ranges, not targets).
CEPH_PARAM_BOUNDS = {
    "client_cpu_us": (40.0, 2.0, 400.0),
    "client_cpu_per_kib_us": (0.2, 0.0, 5.0),
    "client_threads": (4.0, 1.0, 16.0),
    "osd_read_cpu_us": (70.0, 5.0, 600.0),
    "osd_write_cpu_us": (200.0, 10.0, 1500.0),
    "osd_cpu_per_kib_read_us": (0.2, 0.0, 5.0),
    "osd_cpu_per_kib_write_us": (0.5, 0.0, 5.0),
    "release_write_factor_pacific": (1.0, 0.5, 3.0),
    "release_write_factor_quincy": (1.0, 0.5, 3.0),
    "rocksdb_tuned_write_factor": (1.0, 0.5, 1.5),
    "network_efficiency": (0.8, 0.3, 1.0),
    "drive_efficiency": (0.8, 0.2, 1.0),
    "host_cpu_max_utilization": (0.8, 0.3, 1.0),
    "stack_write_latency_us": (200.0, 10.0, 2000.0),
}
CEPH_FIT_NAMES = list(CEPH_PARAM_BOUNDS)
#: Ceph releases and what the data say of each (codes used by the vectorised model)
CEPH_RELEASE_CODES = {"pacific": 0, "quincy": 1, "reef": 2, "squid": 3, "tentacle": 4}


class CephCalibration(BaseModel):
    model_config = ConfigDict(frozen=True)
    version: str
    params: CephParams
    summary: dict[str, Any] = Field(default_factory=dict)
    domain: dict[str, Any] = Field(default_factory=dict)
    bands: dict[str, Any] = Field(default_factory=dict)


@lru_cache(maxsize=4)
def load_ceph_calibration(path: str | None = None) -> CephCalibration:
    p = Path(path) if path else CEPH_CALIBRATION_FILE
    doc = _calibration_doc(p)
    return CephCalibration(
        version=doc["version"],
        params=CephParams(**{k: float(v) for k, v in doc["params"].items() if k in CephParams.model_fields}),
        summary=doc.get("summary", {}),
        domain=doc.get("domain", {}),
        bands=doc.get("bands", {}),
    )


def ceph_base_params(base: ModelParams | None = None) -> CephParams:
    """Ceph's starting parameters: the generic ones from ``base`` (the S2D fit),
    the Ceph ones at their starting values."""
    base = base or default_params()
    data = base.model_dump()
    data.update({k: v[0] for k, v in CEPH_PARAM_BOUNDS.items()})
    return CephParams(**data)


def ceph_params() -> CephParams:
    """The fitted Ceph parameters if ``calibration-ceph.json`` exists, else the starting values."""
    if CEPH_CALIBRATION_FILE.exists():
        return load_ceph_calibration().params
    return ceph_base_params()


#: the calibration id of a report whose caller passed its own parameters without a file's version
CUSTOM_PARAMS = "custom parameters"


def calibration_version(stack: str, params: ModelParams | None = None) -> str:
    """The id (``version``) of the calibration a stack's designs are evaluated with, as
    :func:`params_for` chooses it: the shipped fit's (Ceph's own for Ceph, S2D's for S2D and
    vSAN), or :data:`CUSTOM_PARAMS` when ``params`` replaces it (a caller with a calibration
    file, :func:`planner.calibration.refit.evaluate_with_calibration`, writes the file's)."""
    if stack == "ceph":
        return CUSTOM_PARAMS if isinstance(params, CephParams) else load_ceph_calibration().version
    if params is not None and not isinstance(params, CephParams):
        return CUSTOM_PARAMS
    return load_calibration().version if CALIBRATION_FILE.exists() else "uncalibrated starting values"


def params_for(stack: str, params: ModelParams | None = None) -> ModelParams:
    """The parameters a stack's designs are evaluated with: ``params`` when they
    are of that stack's kind, else Ceph's own fit for Ceph, S2D's for S2D and for
    vSAN (vSAN is not calibrated: its reports say so). An S2D refit passed for a
    Ceph design (or Ceph's for an S2D one) is not used: the costs are another stack's."""
    if stack == "ceph":
        return params if isinstance(params, CephParams) else ceph_params()
    if params is not None and not isinstance(params, CephParams):
        return params
    return default_params()
