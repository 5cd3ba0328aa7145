"""``python -m planner compare DESIGN... --workload W``: the same workload on
several designs of any architecture, one JSON object per design.

The workload is a profile name or workload file, or ``--database FILE`` (a
:class:`planner.models.database.Database` description, evaluated as the open load
of its peak demand, ``--mean`` for the mean).
"""

from __future__ import annotations

from planner.core.text import decimals_apart
from planner.engine.performance import warnings_json

#: the keys of a report the comparison keeps (``--full`` prints whole reports)
SUMMARY_KEYS = (
    "design",
    # which stack each design runs: evaluate printed it and compare did not, so a Ceph and a vSAN design sat side
    # by side unnamed (Ceph/vSAN walk 2026-11-30)
    "stack",
    "topology",
    "architecture",
    "nodes",
    "resiliency",
    "transport",
    # the round trip between rooms each design's latencies include
    "fault_domain_rtt_ms",
    "usable_capacity_tb",
    "workload",
    "iops",
    "iops_low",
    "iops_high",
    "iops_capacity",
    "bandwidth_mb_s",
    "read_latency_ms",
    "write_latency_ms",
    "vm_read_latency_ms",
    "vm_write_latency_ms",
    "vm_latency_ms",
    "p99_read_latency_ms",
    "p99_write_latency_ms",
    "host_cpu_utilization",
    # east-west traffic per node against its link [MB/s]: the network utilisation's two sides
    "network_mb_s_per_node",
    "network_link_mb_s_per_node",
    "bottleneck",
    "limited_by",
    "saturated",
    "utilization",
    "scaling",
)


#: the latencies a comparison leaves out where no latency of the load holds (past saturation, throttled)
LATENCY_KEYS = tuple(k for k in SUMMARY_KEYS if k.endswith("latency_ms"))

#: a report's figures of the load running on the design, which presume the database is on it: null where it does not
#: fit. The usable capacity and the IOPS the design carries of the IO's shape (``iops_capacity``) are the design's own
#: and stay
LOAD_KEYS = (
    "iops",
    "iops_low",
    "iops_high",
    "bandwidth_mb_s",
    "host_cpu_utilization",
    "network_mb_s_per_node",
    "bottleneck",
    "limited_by",
    "saturated",
    "utilization",
    # a file-server cluster's IOPS by database servers: of the same load
    "scaling",
)
#: where a figure of the load would stand when the database does not fit (the Compare page's cell)
DOES_NOT_FIT = "does not fit"
#: the key the figures of the database's IO alone are kept under, as if it fit, labelled as such
IF_IT_FIT_KEY = "if_it_fit"


def summarise(report: dict) -> dict:
    """The comparison's keys of a report as :func:`planner.results.report.load_latencies` prints it: past
    saturation a latency is the capacity's at 99.9 % busy, not the load's (a SAN asked 130,208 IOPS compared at
    "vm_latency_ms": 21.48 beside 47,612 carried; CLI review 2026-11-30), and an open load a CPU cap holds back
    never reaches its rate (0.483 ms for 433,936 of 5,000,000 IOPS asked; stop 51): null, with the figures at the
    capacity kept and labelled, as `evaluate` and `compare --full` print them."""
    from planner.results.report import AT_CAPACITY_KEY, load_latencies

    report = load_latencies(report)
    out = {k: report[k] for k in SUMMARY_KEYS if k in report}
    # a kept figure that is null keeps its reason (no writes in the workload, not computable, unbounded)
    out.update({f"{k}_note": report[f"{k}_note"] for k in SUMMARY_KEYS if f"{k}_note" in report})
    if AT_CAPACITY_KEY in report:
        out[AT_CAPACITY_KEY] = {k: v for k, v in report[AT_CAPACITY_KEY].items() if k in SUMMARY_KEYS or k == "note"}
    for k in ("database_fits", "database_fits_note", IF_IT_FIT_KEY):
        if k in report:
            out[k] = report[k]
    out["extrapolation"] = [f["message"] for f in report.get("extrapolation", [])]
    out["warnings"] = warnings_json(report.get("warnings", []))
    out["notes"] = report.get("notes", [])
    return out


def unless_it_fits(report: dict, data_tb: float, beside: str = "") -> dict:
    """``report`` as a comparison gives it (:func:`planner.results.report.load_latencies`), and where the database of
    ``data_tb`` [TB] (``beside``: what that size holds beside the data, in words) does not fit in the design's usable
    capacity, with the figures of its load null: ``database_fits`` false, ``database_fits_note`` saying so, each figure
    of the load null with that as its ``<key>_note`` and kept under :data:`IF_IT_FIT_KEY` as its IO alone, as if it fit.

    The DL580's 0.24 TB showed 15,443 IOPS at 0.607 ms and "Bottleneck: none yet" for a 1.5 TB database on the
    Compare page, and `compare --database` its IO alone with a warning, where `sla` guarantees the same database 0
    IOPS because it does not fit (browser walk 2026-12-01): no load of it runs there, so no rate or latency of it holds. One rule
    for `compare --database` and the Compare page."""
    from planner.commercial.database import usable_short_of
    from planner.results.report import AT_CAPACITY_KEY, load_latencies

    rep = load_latencies(report)
    usable = usable_short_of(rep, data_tb)
    if usable is None:
        return {**rep, "database_fits": True}
    n = decimals_apart(data_tb, usable)  # never "1.00 TB does not fit in 1.00 TB"
    # words, not `sla --database` in backticks: the Compare page shows library notes escaped, backticks and all
    # (verification walk 2026-12-01)
    why = (
        f"the database ({data_tb:,.{n}f} TB{beside}) does not fit in the design's usable {usable:,.{n}f} TB: no load "
        "of it runs there, so no rate or latency of it holds (the SLA guarantees it 0 IOPS)"
    )
    keys = [k for k in rep if k in LOAD_KEYS or k.endswith(("latency_ms", "latency_ms_low", "latency_ms_high"))]
    kept = {k: rep[k] for k in keys if rep[k] is not None}
    if AT_CAPACITY_KEY in rep:
        kept[AT_CAPACITY_KEY] = rep[AT_CAPACITY_KEY]
    out = {k: v for k, v in rep.items() if k != AT_CAPACITY_KEY}
    out.update({k: None for k in keys})
    out.update({f"{k}_note": why for k in keys if not k.endswith(("_low", "_high"))})
    if isinstance(rep.get("degraded"), dict):
        # nor with one node down (the Compare page's row showed the degraded IOPS of the load that does not run)
        out["degraded"] = {"note": why}
    out["database_fits"], out["database_fits_note"] = False, why
    out[IF_IT_FIT_KEY] = {
        **kept,
        "note": "the database's IO alone, as if the database fit: not figures of this design running it",
    }
    return out


def database_load(design, db, peak: bool = True, catalog=None):
    """``(workload, note)``: the database's IO on ``design`` as one open load (its peak's, or with ``peak`` False
    its mean's), the log flushed at the design's predicted write latency as `sla --database` has it
    (:func:`planner.commercial.database.design_io_demand`), and the note saying at which latency."""
    from planner.commercial.database import design_io_demand
    from planner.models.database import as_workload

    demand, log_ms = design_io_demand(design, db, catalog=catalog)
    source = next(a["source"] for a in demand.assumptions if a["field"] == "log_write_latency_ms")
    note = (
        f"the database's log flushed at this design's predicted write latency ({log_ms:.3f} ms; "
        f"{demand.log_flushes_per_s:,.1f} flushes a second), as the SLA has it"
        if log_ms is not None
        else f"the database's log flush latency: {source}"
    )
    return as_workload(demand, peak=peak), note


#: what `compare --database` answers, beside what `sla --database` does
DATABASE_NOTE = (
    "the database's IO as one open load on the design, alone and with its VM's vCPUs not counted: `sla "
    "--database` gives the IO it is guaranteed at its latency target beside other tenants, and the most it sustains"
)


def compare(
    designs,
    workload=None,
    catalog=None,
    full: bool = False,
    data_tb: float | None = None,
    beside: str = "",
    database=None,
    peak: bool = True,
) -> list[dict]:
    """One report (or its summary) per design, the same workload on each. ``data_tb`` [TB]: the space the
    workload's database takes (``--database``: its data, log and tempdb, ``Database.capacity_tb``): a design whose usable capacity is smaller gets a warning
    and its load's figures null, its IO alone kept as if it fit (:func:`unless_it_fits`; the DL580's 0.24 TB showed
    21,683 IOPS for a 1 TB database with no word, CLI review 2026-11-29, then with a warning beside figures `sla`
    denies, browser walk 2026-12-01). ``beside``: what that size holds beside the data, in words
    (:meth:`planner.models.database.Database.beside_data`). ``database``
    (:class:`planner.models.database.Database`, in place of ``workload``): its IO on each design as `sla
    --database` has it, the log flushed at that design's predicted write latency
    (:func:`planner.commercial.database.design_io_demand`), its peak's or with ``peak`` False its mean's."""
    from planner.results.report import evaluate_report

    reports = []
    for d in designs:
        load, flush = (workload, None) if database is None else database_load(d, database, peak, catalog)
        r = evaluate_report(d, load, catalog=catalog, degraded=False)
        if flush is not None:
            r.setdefault("notes", []).append(flush)
        reports.append(r)
    if data_tb is not None:
        for i, r in enumerate(reports):
            # which question this answers: 130,208 IOPS at 0.448 ms here read as contradicting `sla`'s guarantee of
            # 88,532 IOPS for the same database and design (CLI review 2026-11-30)
            r.setdefault("notes", []).append(DATABASE_NOTE)
            # not counted is not idle: "vm_vcpu": 0.0 beside a note saying the VM's vCPUs are not counted read as
            # a VM with nothing to do, against `sla`'s binding "vm_vcpu_share" (CLI review 2026-11-30)
            r.get("utilization", {}).pop("vm_vcpu", None)
            reports[i] = r = unless_it_fits(r, data_tb, beside)
            if not r["database_fits"]:
                r.setdefault("warnings", []).append(
                    {"check": "database_fits", "case": "healthy", "message": r["database_fits_note"]}
                )
    from planner.results.report import load_latencies

    return [load_latencies(r) for r in reports] if full else [summarise(r) for r in reports]
