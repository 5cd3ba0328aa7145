"""VMFleet 2.x ``Measure-FleetCoreWorkload`` results.

Two layouts are read:

* the raw result file VMFleet writes, tab-separated with one row per step of
  the core workloads (``RunLabel``, ``Workload``, ``QOSperVM``, ``VMCount``,
  ``IOPS``, ``AverageCPU``, ``Average{CSV,}{Read,Write}{BW,IOPS,Milliseconds}``,
  ``{Read,Write}Milliseconds{50,90,99}`` ...), fields quoted (``Export-Csv``)
  or not; the cluster is the ``--design`` given;
* the compiled comma-separated form shipped in
  ``planner/data/benchmarks/dell-azure-stack-hci-vmfleet/sweeps.csv``: the same
  columns plus ``file`` (the result file it came from) and ``nodes``.

The shipped calibration reads Dell's sweeps through :func:`rows_to_points`,
so a customer's VMFleet file and the shipped data are read by one code path.

VMFleet facts used (VMFleet 2.0 documentation and ``Measure-FleetCoreWorkload``):
every core workload runs DiskSpd with 1 thread x 32 outstanding IOs per VM on
a 10 GiB-class data file; ``Sql`` and ``Vdi`` pace themselves (measured at QoS
0: 6,300 and 12 IOPS per VM) unless a Storage QoS step (``QOSperVM`` > 0)
replaces that pace. IOPS, bandwidth (bytes/s) and CPU are cluster totals/means.
"""

from __future__ import annotations

import math

from planner.calibration.importers.common import (
    NAN,
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
from planner.models.workload import profiles

#: VMFleet's own pacing of its Sql and Vdi profiles, IOPS per VM (measured at QoS 0)
BUILTIN_RATE_IOPS = {"Sql": 6300.0, "Vdi": 12.0}
CORE_WORKLOADS = ("Peak4kRead", "General4KWriteRatio0", "General4KWriteRatio10", "General4KWriteRatio30", "Sql", "Vdi")
THREADS_PER_VM, OUTSTANDING_PER_THREAD, WORKING_SET_GB = 1, 32, 10
#: columns a row must give as numbers (the rest may be blank: nan)
REQUIRED = ("Workload", "IOPS", "VMCount", "QOSperVM", "VMAlignmentPct", "ProcessorCount")
#: enough of a header to call the file VMFleet's (then missing columns are named)
SIGNATURE = {"Workload", "IOPS"}


def num(row: dict, key: str) -> float:
    try:
        return float(row[key])
    except (KeyError, ValueError, TypeError):
        return NAN


def sniff(text: str) -> str | None:
    """'raw' (tab-separated result file), 'compiled' (sweeps.csv form) or None."""
    first = text.lstrip().split("\n", 1)[0]
    if "\t" in first:
        cols = {c.strip().strip('"') for c in first.split("\t")}
        return "raw" if cols >= SIGNATURE else None
    cols = {c.strip().strip('"') for c in first.split(",")}
    return "compiled" if SIGNATURE | {"file", "nodes"} <= cols else None


#: the key of a row's line in its file (the header's is 1): errors and points name a row as the file numbers it
ROW = "_row"


def read_rows(text: str, name: str, layout: str) -> list[dict]:
    """Rows as dicts, each with its line in the file (:data:`ROW`); every row as long as the header (else a
    truncated file)."""
    records = csv_records(text_lines(text), name, delimiter="\t" if layout == "raw" else ",")
    header: list[str] = []
    rows = []
    for line, rec in records:
        if not rec or all(not c.strip() for c in rec):
            continue
        if not header:  # the first line with text (blank lines before it were stripped, their count lost)
            header = [h.strip() for h in rec]
            continue
        if len(rec) != len(header):
            raise ImportFileError(
                f"line {line} has {len(rec)} fields, the header {len(header)} (truncated or edited file?)", name
            )
        rows.append({**dict(zip(header, rec)), ROW: line})
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise ImportFileError(f"missing VMFleet {plural_of(len(missing), 'column')} {', '.join(missing)}", name)
    if not rows:
        raise ImportFileError("no result rows after the header", name)
    return rows


def _where(row: dict, i: int) -> str:
    """A row as the file numbers it (:data:`ROW`; a row made elsewhere, its place after the header)."""
    return f"row {row.get(ROW, i + 2)}"


def row_point(
    row: dict, i: int, group: str, design, nodes: int, dataset: str, file: str, working_set_gb: float = WORKING_SET_GB
) -> ImportedPoint:
    """One VMFleet step as a measured point.

    Block size and read share come from the measured read/write bandwidth
    (bytes per IO); steps without IO fall back to the workload's definition.
    """
    wl = row["Workload"]
    where = _where(row, i)
    prof = profiles()
    if wl not in CORE_WORKLOADS or wl not in prof:
        raise ImportFileError(
            f"{where}: Workload {shown(wl)} is not a VMFleet core workload ({', '.join(CORE_WORKLOADS)})", file
        )
    for key in REQUIRED[1:]:
        if not math.isfinite(num(row, key)):
            raise ImportFileError(f"{where}: {key} {shown(row.get(key))} is not a number", file)
    base = prof[wl]
    iops = num(row, "IOPS")
    rbw, wbw = num(row, "AverageReadBW"), num(row, "AverageWriteBW")
    for key, v in (("AverageReadBW", rbw), ("AverageWriteBW", wbw)):
        if v < 0:  # the shared rule (common.measured) for the bandwidths the block size comes from
            raise ImportFileError(f"{where}: {key} must be >= 0 (got {v:g})", file)
    if iops > 0 and rbw + wbw > 0:
        bs = (rbw + wbw) / iops / 1024.0
        rf = rbw / (rbw + wbw)
    else:
        bs, rf = base.block_size_kib, base.read_fraction
    qos = num(row, "QOSperVM")
    limit = qos if qos > 0 else BUILTIN_RATE_IOPS.get(wl, math.inf)
    align = num(row, "VMAlignmentPct")
    w = workload(
        file,
        where,
        wl,
        block_size_kib=round(bs, 4),
        read_fraction=min(max(rf, 0.0), 1.0),
        random_fraction=base.random_fraction,
        vms_per_node=max(int(num(row, "VMCount")) // nodes, 1),
        vcpus_per_vm=int(num(row, "ProcessorCount")),
        threads_per_vm=THREADS_PER_VM,
        outstanding_per_thread=OUTSTANDING_PER_THREAD,
        working_set_gb_per_vm=working_set_gb,
        iops_limit_per_vm=None if not math.isfinite(limit) else limit,
        vm_alignment=align / 100.0,
    )
    reads, writes = rf > 0, rf < 1
    m = measured(
        file,
        where,
        iops=iops,
        host_cpu_utilization=num(row, "AverageCPU") / 100.0,
        vm_read_latency_ms=num(row, "AverageReadMilliseconds") if reads else None,
        vm_write_latency_ms=num(row, "AverageWriteMilliseconds") if writes else None,
        read_latency_ms=num(row, "AverageCSVReadMilliseconds") if reads else None,
        write_latency_ms=num(row, "AverageCSVWriteMilliseconds") if writes else None,
        p99_read_latency_ms=num(row, "ReadMilliseconds99") if reads else None,
        bandwidth_mb_s=(rbw + wbw) / 1e6,
    )
    m["unthrottled"] = float(qos == 0 and wl not in BUILTIN_RATE_IOPS)
    return ImportedPoint(
        group=group,
        dataset=dataset,
        label=f"{wl} qos={int(qos)} align={int(align)} #{i}",
        design=design,
        workload=w,
        measured=m,
        source_file=file,
        job=where + (f" (RunLabel {row['RunLabel']})" if row.get("RunLabel") else ""),
        source_format="vmfleet",
    )


def rows_to_points(
    rows: list[dict], design: DesignSource, file: str, dataset: str, layout: str, working_set_gb: float | None = None
) -> list[ImportedPoint]:
    """Measured points of VMFleet rows. ``compiled`` rows name their result
    file (the point's group) and node count; ``raw`` rows are one file, the
    group is the file's name."""
    out = []
    stem = file.rsplit(".", 1)[0] if "." in file else file
    for i, row in enumerate(rows):
        if layout == "compiled":
            group = row["file"].removesuffix(".txt")
            rd = design_for(design, row["file"])
            try:
                nodes = int(row["nodes"])
            except ValueError:
                raise ImportFileError(f"{_where(row, i)}: nodes '{row['nodes']}' is not a whole number", file) from None
            if nodes != rd.nodes:
                raise ImportFileError(
                    f"{_where(row, i)}: the run had {nodes} nodes, the design '{rd.design.name}' {rd.nodes}", file
                )
        else:
            group, rd = stem, design_for(design, stem)
            nodes = rd.nodes
        out.append(
            row_point(
                row, i, group, rd, nodes, dataset, file, WORKING_SET_GB if working_set_gb is None else working_set_gb
            )
        )
    return out


def parse(text: str, name: str, design: DesignSource, run: RunInfo) -> list[ImportedPoint]:
    layout = sniff(text)
    if layout is None:
        raise ImportFileError("not a VMFleet result file (no Workload and IOPS columns)", name)
    if run.issuer == "host":
        raise ImportFileError("VMFleet issues IO inside VMs; issuer 'host' does not apply", name)
    rows = read_rows(text, name, layout)
    return rows_to_points(rows, design, name, run.dataset, layout, run.working_set_gb)
