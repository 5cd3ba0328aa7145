"""Model parameters: fitted ones and published ones, kept as data.

* Fitted parameters live in ``planner/data/calibration.json``, written by
  ``python -m planner calibrate`` (see :mod:`planner.calibration`), with the
  fit's residuals and bootstrap parameter sets for uncertainty bands.
* Published figures that no fit can supply (the benchmark data contain no TCP
  runs) live in :data:`PUBLISHED` with their source.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

DATA_DIR = Path(__file__).resolve().parent / "data"
CALIBRATION_FILE = DATA_DIR / "calibration.json"

#: CPU costs are expressed at this core clock; other CPUs scale by
#: REFERENCE_GHZ / base_ghz (cycles per IO held constant). A definition, not a fit.
REFERENCE_GHZ = 3.0

PUBLISHED = {
    "tcp_cpu_factor": {
        "value": 16300 / 12800,
        "source": "Microsoft, 'To RDMA, or not to RDMA - that is the question' (Claus "
        "Joergensen, filecab blog, 2017-03-27): 4-node S2D, 3-way mirror, 4K 70/30 DiskSpd; "
        "IOPS per % kernel CPU 16,300 with RDMA vs 12,800 with TCP/IP",
    },
    "tcp_hop_latency_us": {
        "value": 140.0,
        "source": "same post: 90th percentile write latency 250 us with RDMA vs 390 us with "
        "TCP/IP (+140 us); every mirrored write crosses the network once (in parallel)",
    },
}


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
        description="LP utilisation at which host CPU throughput stops growing (SMT siblings share a core)")

    def vector(self) -> np.ndarray:
        return np.array([getattr(self, f) for f in PARAM_NAMES], dtype=float)

    @classmethod
    def from_vector(cls, v) -> "ModelParams":
        return cls(**{f: float(x) for f, x in zip(PARAM_NAMES, v)})


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
}


class Calibration(BaseModel):
    model_config = ConfigDict(frozen=True)
    version: str
    params: ModelParams
    bootstrap: list[list[float]] = Field(default_factory=list)
    summary: dict = Field(default_factory=dict)


@lru_cache(maxsize=4)
def load_calibration(path: str | None = None) -> Calibration:
    p = Path(path) if path else CALIBRATION_FILE
    doc = json.loads(p.read_text(encoding="utf-8"))
    return Calibration(
        version=doc["version"],
        params=ModelParams(**doc["params"]),
        bootstrap=doc.get("bootstrap", []),
        summary=doc.get("summary", {}),
    )


def default_params() -> ModelParams:
    """The fitted parameters if a calibration file exists, else the starting values."""
    if CALIBRATION_FILE.exists():
        return load_calibration().params
    return ModelParams(**{k: v[0] for k, v in PARAM_BOUNDS.items()})
