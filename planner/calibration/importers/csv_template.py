"""hciplan's CSV template for measurements entered by hand
(``examples/import-template.csv``; columns documented in docs/guide/calibrate.md,
"Calibrate on your own hardware").

One measured run per row, comma-separated, UTF-8; lines starting with ``#``
are comments; a blank cell is "unknown" (a default for workload columns,
not measured for metric columns). ``iops`` and ``bandwidth_mb_s`` are cluster
totals; latencies are means in ms except ``p99_read_latency_ms``;
``host_cpu_utilization`` is a 0..1 fraction averaged over the nodes.
"""

from __future__ import annotations

import math

from planner.calibration.importers.common import (
    DesignSource,
    ImportedPoint,
    ImportFileError,
    RunInfo,
    csv_records,
    design_for,
    measured,
    shown,
    text_lines,
    workload,
)
from planner.core.text import plural_of

#: column -> (required, description); the order is the template's
COLUMNS = {
    "label": (True, "name of the run (free text)"),
    "issuer": (False, "vm (IO issued inside VMs) or host (on the nodes); blank: --issuer, else vm"),
    "vms_per_node": (False, "VMs per node (vm) or benchmark processes per node (host); blank: 1"),
    "vcpus_per_vm": (False, "vCPUs per VM (issuer vm); blank: 4"),
    "threads_per_vm": (False, "threads per VM/process; blank: 1"),
    "outstanding_per_thread": (True, "IOs in flight per thread (queue depth)"),
    "block_size_kib": (True, "IO size, KiB"),
    "read_fraction": (True, "share of IOs that are reads, 0..1"),
    "random_fraction": (False, "share of IOs that are random, 0..1; blank: 1"),
    "working_set_gb_per_vm": (False, "data each VM/process touches, GB; blank: 40"),
    "iops_limit_per_vm": (False, "IOPS cap per VM/process (QoS or tool rate limit); blank: none"),
    "vm_alignment": (False, "share of VMs on the node owning their volume, 0..1; blank: 1"),
    "iops": (True, "measured IOPS, cluster total"),
    "bandwidth_mb_s": (False, "measured MB/s (1 MB = 1e6 bytes), cluster total"),
    "host_cpu_utilization": (False, "measured host CPU busy, 0..1, mean over nodes"),
    "read_latency_ms": (False, "mean read latency at the storage layer (CSV), ms"),
    "write_latency_ms": (False, "mean write latency at the storage layer (CSV), ms"),
    "vm_read_latency_ms": (False, "mean read latency seen by the benchmark tool, ms"),
    "vm_write_latency_ms": (False, "mean write latency seen by the benchmark tool, ms"),
    "p99_read_latency_ms": (False, "99th percentile read latency seen by the tool, ms"),
}
WORKLOAD_INT = ("vms_per_node", "vcpus_per_vm", "threads_per_vm", "outstanding_per_thread")
METRIC_COLUMNS = (
    "iops",
    "bandwidth_mb_s",
    "host_cpu_utilization",
    "read_latency_ms",
    "write_latency_ms",
    "vm_read_latency_ms",
    "vm_write_latency_ms",
    "p99_read_latency_ms",
)


def _lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]


def sniff(text: str) -> bool:
    lines = _lines(text[:20000])
    if not lines:
        return False
    cols = {c.strip() for c in lines[0].split(",")}
    return {"label", "block_size_kib", "iops"} <= cols


def _value(row: dict, col: str, file: str, where: str, kind=float):
    raw = (row.get(col) or "").strip()
    if not raw:
        return None
    try:
        v = float(raw)
    except ValueError:
        raise ImportFileError(f"{where}: {col} {shown(raw)} is not a number", file) from None
    if not math.isfinite(v):
        raise ImportFileError(f"{where}: {col} must be finite (got {shown(raw)})", file)
    if kind is int:
        if v != int(v):
            raise ImportFileError(f"{where}: {col} {shown(raw)} must be a whole number", file)
        return int(v)
    return v


def _given(value, default):
    """A cell's value, or ``default`` where the cell is blank (None): a 0 typed is kept, for its bound to judge."""
    return default if value is None else value


def _data_lines(text: str, numbers: list[int]):
    """Lines that are neither blank nor comments, lazily; each one's line in the file appended to ``numbers``
    (a record is named by its row in the file, the header row 1, as the estate and quotes readers name theirs)."""
    for n, ln in enumerate(text_lines(text), 1):
        if ln.strip() and not ln.lstrip().startswith("#"):
            numbers.append(n)
            yield ln


def parse(text: str, name: str, design: DesignSource, run: RunInfo) -> list[ImportedPoint]:
    lines: list[int] = []
    records = csv_records(_data_lines(text, lines), name)
    header = [h.strip() for h in next(records, (0, []))[1]]
    unknown = [h for h in header if h not in COLUMNS]
    if unknown:
        raise ImportFileError(
            f"unknown {plural_of(len(unknown), 'column')} {', '.join(shown(u) for u in unknown[:5])}; columns: {', '.join(COLUMNS)}",
            name,
        )
    missing = [c for c, (req, _) in COLUMNS.items() if req and c not in header]
    if missing:
        raise ImportFileError(f"missing required {plural_of(len(missing), 'column')} {', '.join(missing)}", name)
    stem = name.rsplit(".", 1)[0] if "." in name else name
    rd = design_for(design, stem)
    out = []
    for read, rec in records:
        # the record's row in the file (its first data row was "row 1" where the estate's is "row 2"; hostile-input
        # walk): csv counts the lines it was given, the comments left out
        where = f"row {lines[read - 1]}"
        if len(rec) != len(header):
            raise ImportFileError(f"{where}: {len(header)} fields expected (truncated or extra commas?)", name)
        row = dict(zip(header, rec))
        label = (row.get("label") or "").strip() or where
        for c, (req, _) in COLUMNS.items():
            if req and not (row.get(c) or "").strip():
                raise ImportFileError(f"{where}: required column {c} is blank", name)
        issuer = (row.get("issuer") or "").strip() or run.issuer or "vm"
        if issuer not in ("vm", "host"):
            raise ImportFileError(f"{where}: issuer {shown(issuer)} must be vm or host", name)
        vals = {
            c: _value(row, c, name, where, int if c in WORKLOAD_INT else float)
            for c in COLUMNS
            if c not in ("label", "issuer")
        }
        mm = measured(name, where, **{c: vals[c] for c in METRIC_COLUMNS})
        limit = vals["iops_limit_per_vm"]
        w = workload(
            name,
            where,
            label,
            issuer=issuer,
            block_size_kib=vals["block_size_kib"],
            read_fraction=vals["read_fraction"],
            random_fraction=1.0 if vals["random_fraction"] is None else vals["random_fraction"],
            # a blank cell takes the default; a 0 is a value, refused by the workload's bound as --vms-per-node 0 is
            # (`or` read vms_per_node 0 as 1 without a word; hostile-input walk)
            vms_per_node=_given(vals["vms_per_node"], run.per_node_or_default),
            vcpus_per_vm=_given(vals["vcpus_per_vm"], run.vcpus_per_vm),
            threads_per_vm=_given(vals["threads_per_vm"], 1),
            outstanding_per_thread=vals["outstanding_per_thread"],
            working_set_gb_per_vm=_given(vals["working_set_gb_per_vm"], run.working_set_gb or 40.0),
            iops_limit_per_vm=limit,
            vm_alignment=run.vm_alignment if vals["vm_alignment"] is None else vals["vm_alignment"],
        )
        mm["unthrottled"] = float(limit is None)
        out.append(
            ImportedPoint(
                group=stem,
                dataset=run.dataset,
                label=label,
                design=rd,
                workload=w,
                measured=mm,
                source_file=name,
                job=where,
                source_format="csv-template",
            )
        )
    if not out:
        # the downloaded template as it is: say what to add (browser review 2026-11-29)
        raise ImportFileError(
            "no data rows after the header: add one row per measured run (label, block size, read share, "
            "queue depth and the IOPS and latencies measured) under the template's header",
            name,
        )
    return out


def template_text() -> str:
    """The template's header with one comment line per column."""
    lines = ["# hciplan measured-points template: one run per row; blank cell = unknown; lines with # are comments"]
    lines += [f"# {c}: {'required; ' if req else ''}{desc}" for c, (req, desc) in COLUMNS.items()]
    lines.append(",".join(COLUMNS))
    return "\n".join(lines) + "\n"
