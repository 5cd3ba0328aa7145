"""What every benchmark importer shares: the measured-point record, how the
run was issued, size limits, text decoding and one-line errors.

A measured point is a :class:`planner.calibration.points.BenchPoint` (the record the
calibration fits) tagged with the file and the job it came from. Metrics are
the calibration's (``iops`` is the cluster total, latencies in ms, host CPU
as a 0..1 fraction) plus ``bandwidth_mb_s`` (cluster total, 1 MB = 1e6
bytes); a metric the file does not give is ``nan``.

Latency layers: ``vm_read_latency_ms`` / ``vm_write_latency_ms`` /
``p99_read_latency_ms`` are what the issuing tool saw (inside the VM for
issuer ``vm``, on the node for issuer ``host``, where the model has no guest
layer); ``read_latency_ms`` / ``write_latency_ms`` are the storage layer
(cluster shared volume), which only VMFleet measures.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from planner.calibration.points import BenchPoint
from planner.core import minimums as M
from planner.core import tables
from planner.core.errors import PlannerError, format_validation_error
from planner.core.jsonio import read_bounded
from planner.models.design import ResolvedDesign
from planner.models.workload import Workload

#: largest file accepted, bytes: checked before a byte is parsed. fio json+
#: output of a many-job run with latency bins is the largest legitimate case
#: (a few MB); 20 MB leaves room without letting a file exhaust memory.
MAX_IMPORT_BYTES = 20_000_000
MAX_IMPORT_FILES = 50
MAX_IMPORT_POINTS = 20_000

NAN = float("nan")
#: measured keys every imported point carries (nan = not measured)
MEASURED_KEYS = (
    "iops",
    "host_cpu_utilization",
    "read_latency_ms",
    "write_latency_ms",
    "vm_read_latency_ms",
    "vm_write_latency_ms",
    "p99_read_latency_ms",
    "bandwidth_mb_s",
)

DesignSource = ResolvedDesign | Callable[[str], ResolvedDesign]


class ImportFileError(PlannerError):
    """A benchmark file cannot be imported; ``field`` is the file's name.

    The message is kept to one line of at most ``MAX_MESSAGE`` characters:
    parts of it can come from the file itself.
    """

    MAX_MESSAGE = 400

    def __init__(self, message: str, field: str | None = None):
        message = " ".join(str(message).split())
        if len(message) > self.MAX_MESSAGE:
            message = message[: self.MAX_MESSAGE - 1] + "…"
        if field is not None:
            field = " ".join(str(field).split())[:200]
        super().__init__(message, field)


@dataclass
class ImportedPoint(BenchPoint):
    """A measured point with its origin: the file and the job/row/timespan."""

    source_file: str = ""
    job: str = ""
    source_format: str = ""


class RunInfo(BaseModel):
    """How the benchmark was run: what the files do not say.

    ``per_node`` is VMs per node (issuer ``vm``) or benchmark processes per
    node (issuer ``host``): each file describes one such issuer, and every
    node is assumed to have run the same (the model's symmetric load), so
    cluster IOPS = the file's IOPS x per_node x nodes. VMFleet files state
    their VM count and ignore it.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    issuer: Literal["vm", "host"] | None = Field(
        default=None, description="vm or host; default: host for fio/DiskSpd, vm for VMFleet"
    )
    per_node: int | None = Field(
        default=None,
        ge=1,
        le=2000,
        description="VMs per node (issuer vm) or benchmark processes per node (issuer host); default 1",
    )
    vcpus_per_vm: int = Field(default=4, ge=1, le=512, description="vCPUs of each VM (issuer vm)")
    working_set_gb: float | None = Field(
        default=None,
        ge=M.MIN_WORKING_SET_GB,
        le=1e6,
        description="data each issuer touches, GB (default: from the file, else 40)",
    )
    vm_alignment: float = Field(
        default=1.0, ge=0.0, le=1.0, description="share of VMs on the node that owns their volume"
    )
    dataset: str = Field(default="imported", min_length=1, max_length=60)

    def issuer_or(self, default: str) -> str:
        return self.issuer or default

    @property
    def per_node_or_default(self) -> int:
        return self.per_node or 1


def make_run_info(**kwargs) -> RunInfo:
    """A :class:`RunInfo` from keyword values; one-line error naming the field."""
    try:
        return RunInfo(**{k: v for k, v in kwargs.items() if v is not None})
    except ValidationError as exc:
        raise PlannerError(format_validation_error(exc)) from None


def design_for(design: DesignSource, group: str) -> ResolvedDesign:
    return design(group) if callable(design) else design


# ------------------------------------------------------------------ input
def shown(text, limit: int = 40) -> str:
    """A piece of the file's content, quoted and cut for an error message."""
    t = str(text)
    return repr(t if len(t) <= limit else t[: limit - 1] + "…")


def check_size(name: str, size: int) -> None:
    if size > MAX_IMPORT_BYTES:
        raise ImportFileError(f"file is {size:,} bytes; the limit is {MAX_IMPORT_BYTES:,}", name)
    if size == 0:
        raise ImportFileError("file is empty", name)


def read_file(path: str | Path) -> tuple[str, bytes]:
    """(name, bytes) of a file: one open, regular files only (not a FIFO, a
    device or a symlink loop), at most ``MAX_IMPORT_BYTES`` read."""
    p = Path(path)
    data = read_bounded(p, MAX_IMPORT_BYTES, p.name or str(p), ImportFileError)
    check_size(p.name, len(data))
    return p.name, data


def decode(name: str, data: bytes) -> str:
    """Text of a file: UTF-8 (BOM or not) or UTF-16 with a BOM (PowerShell's
    ``Out-File`` default on Windows PowerShell 5)."""
    return tables.decode(data, name, ImportFileError)


# ------------------------------------------------------------ building
#: what each measured metric may hold (the one rule every importer applies)
_FRACTIONS = ("host_cpu_utilization",)


def measured(file: str, where: str, **values) -> dict:
    """A measured dict with every key of :data:`MEASURED_KEYS`, checked by the
    rule every importer shares: ``iops`` finite and at least one, every other metric
    finite and >= 0, ``host_cpu_utilization`` a fraction 0..1, a latency at least
    :data:`~planner.core.minimums.MIN_MEASURED_LATENCY_MS`. A value not given
    (None or nan) is 'not measured'; a latency of 0 means 'no such IO' (nan).

    Raises
    ------
    ImportFileError
        naming ``file``, the row or job ``where`` and the metric.
    """
    out = {k: NAN for k in MEASURED_KEYS}
    for k, v in values.items():
        v = NAN if v is None else float(v)
        if math.isinf(v):
            raise ImportFileError(f"{where}: {k} must be finite (got {v:g})", file)
        if k == "iops" and not v > 0:
            raise ImportFileError(f"{where}: iops must be > 0 (got {v:g})", file)
        if k == "iops" and v < M.MIN_IOPS:  # one IO a second is the least a rate of IOs means
            raise ImportFileError(f"{where}: iops must be at least {M.MIN_IOPS:g} (got {v:g})", file)
        if v < 0:
            raise ImportFileError(f"{where}: {k} must be >= 0 (got {v:g})", file)
        if k in _FRACTIONS and v > 1:
            raise ImportFileError(f"{where}: {k} is a fraction 0..1 (got {v:g}; a percentage divided by 100?)", file)
        if k.endswith("latency_ms") and not v > 0:
            v = NAN
        elif k.endswith("latency_ms") and v < M.MIN_MEASURED_LATENCY_MS:
            # a measured 1e-300 ms gave a median error of 1.6e+301 % (hostile-input walk): no tool measures
            # below a microsecond (planner.core.minimums); a figure in seconds, or a unit slip
            raise ImportFileError(
                f"{where}: {k} must be at least {M.MIN_MEASURED_LATENCY_MS:g} ms, the finest a benchmark tool "
                f"reports (got {v:g}; a figure in seconds?)",
                file,
            )
        out[k] = v
    if not out["iops"] > 0:
        raise ImportFileError(f"{where}: no measured IOPS", file)
    return out


def csv_records(
    lines: Iterable[str], name: str, delimiter: str = ",", max_rows: int = MAX_IMPORT_POINTS
) -> Iterator[tuple[int, list[str]]]:
    """(line number, fields) of each record of delimited text, read lazily and
    bounded: the header and at most ``max_rows`` records (more is refused as
    soon as it is seen, so a 20 MB file never becomes a million rows in
    memory), and a field longer than the CSV reader's limit is one error
    naming its line."""
    reader = csv.reader(lines, delimiter=delimiter)
    n = 0
    try:
        for rec in reader:
            if n > max_rows:
                raise ImportFileError(
                    f"more than {max_rows:,} rows; at most {max_rows:,} measured points per import", name
                )
            n += 1
            yield reader.line_num, rec
    except csv.Error as exc:
        if "field limit" in str(exc):
            reason = f"a field longer than {csv.field_size_limit():,} characters"
        else:
            reason = f"malformed delimited text ({exc})"
        raise ImportFileError(f"line {reader.line_num}: {reason}", name) from None


def text_lines(text: str) -> Iterator[str]:
    """Lines of ``text`` with their endings, lazily (\\n, \\r\\n or \\r), as :mod:`csv` wants them."""
    return iter(io.StringIO(text, newline=""))


def workload(file: str, where: str, name: str, **fields) -> Workload:
    """A validated :class:`Workload`; a value out of range is an import error
    naming the file, the job/row and the field."""
    try:
        return Workload(name=name[:200] or "imported", **fields)
    except ValidationError as exc:
        raise ImportFileError(f"{where}: {format_validation_error(exc, 'workload')}", file) from None


def population(threads: int, total: float) -> tuple[int, int]:
    """(threads, outstanding per thread) whose product is ``total`` rounded
    (only the product enters the model): ``threads`` when it divides."""
    total = max(round(total), 1)
    threads = max(int(threads), 1)
    return (threads, total // threads) if total % threads == 0 else (1, total)
