"""One design (and optionally a workload) in, one JSON-ready report out.

This is the single-design face of the vectorised model used by the CLI, the
SLA module and the UI: capacity waterfall, performance with its uncertainty
band, utilisation per resource, degraded mode and endurance.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from planner.core import jsonio
from planner.core.text import auto_decimals, pct
from planner.engine import kernels
from planner.engine.degraded import (
    ceph_backfill_cap_bytes_s,
    degraded_arrays,
    relayout_time_hours,
    repair_load,
    repair_share_of,
    repair_share_words,
    repair_time_hours,
    without_repair,
)
from planner.engine.performance import (
    BOTTLENECK_LABELS,
    NO_LATENCY_THROTTLED,
    PACING_POLICIES,
    STATIONS,
    THROTTLED_NOTE,
    THROTTLED_WHY,
    DesignArrays,
    WorkloadArrays,
    at_capacity,
    cpu_cap_iops,
    evaluate_arrays,
    host_cpu_note,
    issuing_nodes,
    saturation_warning,
    station_words,
    unbounded_latency,
)
from planner.engine.queueing import BUSY_UTILIZATION
from planner.models.catalog import Catalog, load_catalog
from planner.models.design import Design, ResolvedDesign, resolve
from planner.models.params import CALIBRATION_FILE, ModelParams, calibration_version, load_calibration, params_for
from planner.models.stacks import (
    REPAIR_DELAY_HOURS,
    REPAIR_DELAY_SETTING,
    S2D_RESYNC_ON_RETURN,
    STACK_NAMES,
    ceph_recovery_mib_s_per_osd,
    ceph_release_note,
    repair_condition,
    repair_is_automatic,
)
from planner.models.workload import Workload
from planner.physics import endurance, network
from planner.physics.capacity import (
    ceph_recovers_below_min_size,
    node_loss_io_words,
    node_loss_stops_io,
    require_usable,
    vsan_relayout_after_node_loss,
)
from planner.physics.cpu import REPAIR_IO_KIB
from planner.physics.dimms import node_dimms
from planner.results.absent_class import absent_class_keys, drop_absent_class
from planner.results.uncertainty import band_low_warning, rtt_figures, scale_above_rtt

BAND_LOW, BAND_HIGH = 5.0, 95.0
_SCALARS = (*kernels.FLOAT_OUT, "network_mb_s_per_node")


#: why a design's ``cache_mode`` is null
NO_CACHE_NOTE = "no cache devices: every IO goes to the capacity drives"
#: a Ceph design's cache-slot devices: BlueStore's metadata and journal, not a cache of data
DB_WAL_NOTE = (
    "the fast devices hold BlueStore's block.db and WAL, not a data cache: every data IO goes to the capacity drives"
)

DEGRADED_KEYS = (
    "iops",
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
    "network_mb_s_per_node",
    "bottleneck",
    "limited_by",
    "saturated",
)


def network_traffic_words(traffic_mb_s: float | None, link_mb_s: float | None) -> str:
    """A node's east-west storage traffic against its link, as the pages and documents say it
    (``network_mb_s_per_node``, ``network_link_mb_s_per_node`` [MB/s, one direction]); empty
    without the figures."""
    if traffic_mb_s is None or not link_mb_s or not math.isfinite(traffic_mb_s):
        return ""
    return f"{traffic_mb_s:,.0f} MB/s of {link_mb_s:,.0f} MB/s per server, each way"


def bootstrap_params() -> list[ModelParams]:
    """Parameter sets from the calibration bootstrap (empty if not calibrated)."""
    if not CALIBRATION_FILE.exists():
        return []
    return load_calibration().bootstrap_params()


#: vSAN's band is at least this multiplier pair: no vSAN measurement checks the model,
#: so a factor of two either way, or S2D's widest extrapolation error where that is wider
VSAN_MIN_BAND = (0.5, 2.0)
VSAN_NOT_CALIBRATED = (
    # said to customers on the pages and in the proposal: no file path (the search is in docs/guide/stacks.md)
    "vSAN performance is not calibrated: no published vSAN result with a full configuration was found; "
    "the figures use S2D's fitted software costs with vSAN's layouts, within a band of at least "
    f"{VSAN_MIN_BAND[0]:g}x to {VSAN_MIN_BAND[1]:g}x each figure"
)


#: the band basis of :func:`planner.results.uncertainty.floor_at_devices`, where it moved a band
DEVICE_FLOOR_BASIS = (
    "a storage latency's low end no faster than the fastest read or write the design's devices serve at queue "
    "depth 1 (datasheets)"
)


def stack_calibration(rd: ResolvedDesign, workload: Workload) -> tuple[dict, dict, list[dict]] | None:
    """(domain, bands, extrapolation flags) for a design's stack: Ceph's own
    calibration; S2D's for S2D, and for vSAN with a flag saying its performance is
    not calibrated. None without a calibration file."""
    from planner.models.params import CEPH_CALIBRATION_FILE, Calibration, CephCalibration, load_ceph_calibration
    from planner.results.calibrated_domain import extrapolation, features

    stack = rd.design.stack
    cal: Calibration | CephCalibration
    if stack == "ceph":
        if not CEPH_CALIBRATION_FILE.exists():
            return None
        cal = load_ceph_calibration()
    else:
        if not CALIBRATION_FILE.exists():
            return None
        cal = load_calibration()
    flags = extrapolation(features(rd, workload), cal.domain) if cal.domain else []
    if stack == "vsan":
        flags = [
            {
                "dimension": "stack",
                "value": "vsan",
                "side": "unseen",
                "calibrated": "s2d",
                "message": VSAN_NOT_CALIBRATED,
            },
            *flags,
        ]
    return cal.domain, cal.bands, flags


def apply_bands(res: dict, rd: ResolvedDesign, workload: Workload) -> tuple[list[dict], list[str]]:
    """Set ``<metric>_low`` / ``_high`` in ``res`` from the calibration's
    held-out error quantiles (:mod:`planner.results.uncertainty`), widened where the
    design or workload leaves the calibrated domain (:mod:`planner.results.calibrated_domain`).
    Returns the extrapolation flags and what each band was built from. A Ceph
    design takes Ceph's calibration; a vSAN design S2D's, flagged, and a band at
    least :data:`VSAN_MIN_BAND` wide."""
    from planner.results.uncertainty import (
        cap_at_offered,
        floor_at_devices,
        little_law_bands,
        nest_latency_bands,
        widen,
    )

    sc = stack_calibration(rd, workload)
    if sc is None:
        return [], []
    _domain, bands, flags = sc
    cal_bands = bands
    basis = widen(res, cal_bands, flags, [k[:-4] for k in res if k.endswith("_low")])
    if rd.design.stack == "vsan":
        widen_at_least(res, VSAN_MIN_BAND)
        basis.add("vSAN: at least a factor of two either way (no vSAN measurement checks the model)")
    # every stack: a held-out ratio of 0.09 put an S2D read at 0.024 ms beside devices that read in 0.120 ms at
    # best (sas-4node, oltp-8k; fix 55d)
    read_floor, write_floor = device_latency_floor_ms(rd)
    # a class the workload does not issue has no figure (drop_absent_class): its floor moves no band it reports
    r = workload.read_fraction
    if floor_at_devices(res, read_floor if r > 0 else math.nan, write_floor if r < 1 else math.nan):
        basis.add(DEVICE_FLOOR_BASIS)
    if (
        workload.iops is None
        and workload.iops_limit_per_vm is None
        and little_law_bands(res, float(np.sum(workload.vms_on(rd.nodes))) * workload.outstanding_per_vm)
    ):
        basis.add(
            "a closed load's VM latency band kept within its IOPS band by Little's law (IOs in flight = IOPS x latency)"
        )
    if nest_latency_bands(res, workload.read_fraction):
        basis.add(
            "bands kept physical: a latency's low end no lower than the latency it contains (VM >= storage, "
            "p99 >= mean), utilisation within 0-100 %"
        )
    if cap_at_offered(res, workload.iops):
        basis.add(
            "an open load carries what it offers up to the capacity: IOPS and bandwidth bands end at the offer "
            "and fall below it only as far as the capacity's low end does"
        )
    q = cal_bands.get("quantiles_pct", [5, 95])
    how = (
        f"{q[0]:g}-{q[1]:g} % of "
        + ("the Ceph calibration's " if rd.design.stack == "ceph" else "")
        + "held-out measured/predicted ratios (leave one configuration out)"
    )
    return flags, [how, *sorted(basis)]


#: the latencies :func:`planner.engine.targets.latency_statistic` reads, each with the held-out error it takes (the
#: 90th percentiles the 99th's, as :func:`planner.results.uncertainty.latency_ends` has them; the VM's read and write
#: means the VM mean's, by the bands' borrowing rule)
JUDGED_LATENCIES = {
    "vm_read_latency_ms": "vm_read_latency_ms",
    "vm_write_latency_ms": "vm_write_latency_ms",
    "p90_read_latency_ms": "p99_read_latency_ms",
    "p90_write_latency_ms": "p99_write_latency_ms",
    "p99_read_latency_ms": "p99_read_latency_ms",
    "p99_write_latency_ms": "p99_write_latency_ms",
}


def held_out_ratios(rd: ResolvedDesign, workload: Workload) -> tuple[dict, list[float], list[str]] | None:
    """The held-out error multipliers a figure found by a search over the load (an SLA guarantee, the sizer's IOPS
    within target) is banded with, as every report's figures are (:func:`apply_bands`: the calibration's 5-95 %
    measured/predicted ratios, widened for each way the design or the workload's IO shape leaves the calibrated
    domain).

    Returns ``(latency, capacity, how)``: per judged latency key, ``{"light": [low, high], "queueing": [low, high],
    "floor_ms": floor}`` (the regime a rate is in: a station 90 % busy or more is queueing; the floor [ms] its low
    end keeps, the fastest read or write the design serves, :func:`device_latency_floor_ms`, as every band's); the
    capacity's ``[low, high]`` (the throughput error with a station saturated, as ``iops_capacity``'s band); and
    what widened them. None without a calibration, or where one of the figures has no band."""
    from planner.results.uncertainty import ratio_band

    sc = stack_calibration(rd, workload)
    if sc is None:
        return None
    _domain, bands, flags = sc
    how: set[str] = set()
    latency: dict[str, dict[str, Any]] = {}
    floors = dict(zip(("read", "write"), device_latency_floor_ms(rd)))
    for key, source in JUDGED_LATENCIES.items():
        per: dict[str, Any] = {"floor_ms": floors["read" if "_read_" in key else "write"]}
        for regime, busiest in (("light", 0.0), ("queueing", 1.0)):
            ratio, sources = ratio_band(bands, source, "", busiest, flags)
            if ratio is None:
                return None
            per[regime] = [min(ratio[0], 1.0), max(ratio[1], 1.0)]  # a band never excludes the prediction
            how.update(sources)
        latency[key] = per
    cap, sources = ratio_band(bands, "iops_capacity", "saturation", 1.0, flags)
    if cap is None:
        return None
    how.update(sources)
    return latency, [min(cap[0], 1.0), max(cap[1], 1.0)], sorted(how)


def latencies_at_band_end(latency: dict, side: int) -> Callable:
    """The model's output with each judged latency at its held-out band's ``side`` end (0 low, 1 high), the ratio of
    the regime each rate is in (:data:`planner.results.uncertainty.QUEUEING_UTILIZATION`); a low end no lower than
    the latency's floor (:func:`held_out_ratios`' ``floor_ms``, the report's bands' rule), nor above the figure."""
    from planner.results.uncertainty import QUEUEING_UTILIZATION

    def adjust(out: dict) -> dict:
        u = np.asarray(out["utilization"], dtype=float)
        lat = np.asarray(out["vm_read_latency_ms"])
        busiest = u.max(axis=-1) if u.ndim == lat.ndim + 1 else u
        queueing = busiest >= QUEUEING_UTILIZATION
        res = dict(out)
        for key, per in latency.items():
            if key in out:
                v = np.asarray(out[key])
                res[key] = v * np.where(queueing, per["queueing"][side], per["light"][side])
                if side == 0 and "floor_ms" in per:
                    res[key] = np.maximum(res[key], np.minimum(per["floor_ms"], v))
        return res

    return adjust


def device_latency_floor_ms(rd: ResolvedDesign) -> tuple[float, float]:
    """(read, write) [ms]: the fastest read and write the model can serve for the design, each a device's
    datasheet latency at queue depth 1; a storage latency's band reaches no lower (:func:`apply_bands`).

    A read: the capacity drive, or the cache device where the stack keeps data on it (S2D's and vSAN's cache
    tier: a read cache's hits are served from it at its latency, and a write cache holds each written block until
    it is destaged). A Ceph cache device holds BlueStore's DB/WAL, no data: its reads come from the data drives. No
    read the model counts is served from host memory (S2D's CSV block cache and Ceph's BlueStore cache are counted
    in the nodes' RAM, never as hits), so no read is faster than a device. A write: the device that acknowledges
    it, the cache device where writes land in it (an S2D or vSAN write cache; Ceph's DB/WAL device, BlueStore's
    deferred write), else the drive.

    The software path and the network crossings are left out: they are fitted, not datasheet figures, and the
    12-node persistent-memory record read in under 40 us beside a fitted read path of 65 us (``published.py``)."""
    n = rd.node
    read_us, write_us = n.drive.read_latency_us, n.drive.write_latency_us
    if n.cache is not None:
        if rd.cache_mode is not None:  # an S2D / vSAN cache tier holds data (Ceph's: None, it holds DB/WAL)
            read_us = min(read_us, n.cache.read_latency_us)
        if rd.design.stack == "ceph" or rd.cache_mode in ("read-write", "write-only"):
            write_us = n.cache.write_latency_us
    return read_us / 1e3, write_us / 1e3


def widen_at_least(res: dict, ratio: tuple[float, float]) -> None:
    """Make every band in ``res`` at least ``ratio`` x the figure (utilisation kept within 0-1)."""
    for k in [k[:-4] for k in res if k.endswith("_low")]:
        v = res.get(k)
        if v is None or not np.isfinite(v) or res.get(f"{k}_low") is None:
            continue
        res[f"{k}_low"] = float(min(res[f"{k}_low"], scale_above_rtt(res, k, ratio[0])))
        hi = float(max(res[f"{k}_high"], scale_above_rtt(res, k, ratio[1])))
        res[f"{k}_high"] = min(hi, 1.0) if k.endswith("utilization") else hi


def performance(
    rd: ResolvedDesign,
    workload: Workload,
    params: ModelParams | None = None,
    band: bool = True,
    degraded: bool = False,
    repair_share: float | None = None,
) -> dict:
    """Performance of one design under one workload, with a 5-95 % band (``repair_share``: None, the stack's,
    :func:`planner.engine.degraded.degraded_arrays`)."""
    return performance_cases(rd, workload, params, band, [degraded], repair_share)[0]


def performance_cases(
    rd: ResolvedDesign,
    workload: Workload,
    params: ModelParams | None = None,
    band: bool = True,
    degraded=(False, True),
    repair_share: float | None = None,
) -> list[dict]:
    """:func:`performance` for each ``degraded`` flag (healthy, one node down),
    all in one vectorised model call; the degraded case never has a band."""
    p = params_for(rd.design.stack, params)
    D = DesignArrays.from_designs([rd])
    W = WorkloadArrays.from_workload(workload, issuing_nodes(D))
    rows = []
    for deg in degraded:
        rows.append(degraded_arrays(D, W, repair_share, p) if deg else (D, W))
    if len(rows) == 1:
        Dn, Wn = rows[0]
    else:
        Dn = DesignArrays(
            **{f: np.concatenate([np.ravel(getattr(d, f)) for d, _ in rows]) for f in D.__dataclass_fields__}
        )
        Wn = WorkloadArrays(
            **{
                f: np.concatenate([np.ravel(np.broadcast_to(getattr(w, f), np.shape(d.nodes))) for d, w in rows])
                for f in W.__dataclass_fields__
            }
        )
    out = evaluate_arrays(Dn, Wn, p)
    # a closed load's IOs in flight (NaN for an open load), for the wait a pacing policy adds
    pop = np.where(np.isnan(Wn.open_iops), Wn.vms_total * Wn.outstanding_per_vm, np.nan)
    in_flight = np.ravel(np.broadcast_to(pop, np.shape(Dn.nodes)))
    return [
        _performance_row(out, i, rd, workload, band and not deg, float(in_flight[i]), p.host_cpu_idle_utilization)
        for i, deg in enumerate(degraded)
    ]


def throttled_wait(res: dict, in_flight: float) -> None:
    """A closed load paced by a policy (the CPU utilisation cap, a per-VM IOPS limit): ``vm_latency_ms`` is the
    admitted IOs' latency, the IOs held back wait in their VMs; ``vm_response_ms`` [ms] is the whole wait by Little's
    law (the load's IOs in flight over its IOPS) and ``vm_latency_ms_note`` says which is which. A JSON reader took
    0.499 ms for what the application waits, 1.62 ms (3,072 IOs at 1,895,884 IOPS; CLI fuzzing 2026-11-30)."""
    if res.get("limited_by") not in PACING_POLICIES or not math.isfinite(in_flight) or not res.get("iops"):
        return
    res["vm_response_ms"] = in_flight / res["iops"] * 1e3
    res["vm_latency_ms_note"] = (
        f"the latency of the IOs the {BOTTLENECK_LABELS[res['limited_by']]} admits; the IOs it holds back wait in "
        f"their VMs, which it does not count (as DiskSpd does not): the load's {in_flight:,.0f} IOs in flight at "
        f"{res['iops']:,.0f} IOPS wait {res['vm_response_ms']:,.{auto_decimals(res['vm_response_ms'])}f} ms in all (vm_response_ms, Little's law)"
    )


def _performance_row(
    out: dict,
    i: int,
    rd: ResolvedDesign,
    workload: Workload,
    band: bool,
    in_flight: float = math.nan,
    host_cpu_idle: float = 0.0,
) -> dict:
    res: dict[str, Any] = {k: float(np.ravel(out[k])[i]) for k in _SCALARS}
    # the rooms' round trip inside each latency, where the design has one: the bands and percentiles
    # spread the rest (planner.results.uncertainty.rtt_part_ms), never the propagation delay
    res |= rtt_figures(out, i, workload.read_fraction)
    # the link each node's east-west traffic (network_mb_s_per_node) travels on, one direction, as the stack
    # uses it (vSAN: one link of its team)
    res["network_link_mb_s_per_node"] = network.node_storage_bandwidth_bytes_s(rd) / 1e6
    util = np.ravel(out["utilization"].reshape(-1, len(STATIONS))[i])
    res["utilization"] = {s: float(u) for s, u in zip(STATIONS, util)}
    res["bottleneck"] = str(np.ravel(out["bottleneck"])[i])
    res["limited_by"] = str(np.ravel(out["limited_by"])[i])
    res["saturated"] = bool(np.ravel(out["saturated"])[i])
    at_capacity(res, host_cpu_idle)  # limited by its full station, not "offered_load", before the bands
    throttled_wait(res, in_flight)
    res["extrapolation"], res["band_basis"] = [], []
    band_keys = (
        "iops",
        "iops_capacity",
        "bandwidth_mb_s",
        "read_latency_ms",
        "write_latency_ms",
        "vm_latency_ms",
        "p99_read_latency_ms",
        "p99_write_latency_ms",
        "host_cpu_utilization",
    )
    for k in band_keys:  # without a calibrated band the band collapses to the point
        res[f"{k}_low"] = res[f"{k}_high"] = res[k]
    if band:
        res["extrapolation"], res["band_basis"] = apply_bands(res, rd, workload)
    drop_absent_class(res, workload.read_fraction)
    wr_iops = res["iops"] * (1.0 - workload.read_fraction)
    n = rd.node
    years = float(
        endurance.years_to_wear_out(
            wr_iops,
            workload.block_size_kib,
            float(np.ravel(out["backend_writes_per_write"])[i]),
            float(np.ravel(out["write_absorption"])[i]),
            n.drive_count * rd.nodes,
            n.drive.endurance_dwpd,
            n.drive.capacity_tb,
            n.drive.warranty_years,
        )
    )
    res["endurance_years"] = years
    # anything else the model could not evaluate is null with the reason, never NaN
    return jsonio.strict(explain_endurance(res, wr_iops), jsonio.NOT_COMPUTABLE)


def present_utilization(rep: dict, utilization: dict | None = None) -> dict:
    """``utilization`` (default: the report's own; the degraded view's has the same stations) without
    the stations the design does not have: the engine keeps an idle cache station for a design
    without cache devices (0 %), which a chart showed as an empty "cache devices" row (review
    2026-11-29) and the document as "Cache drives 0 %" (QA finding 12)."""
    util = dict((rep.get("utilization") or {}) if utilization is None else utilization)
    if not rep.get("cache_capacity_gb_per_node"):
        util.pop("cache", None)
        util.pop("cache_note", None)
    return util


def bottleneck_words(
    rep: dict, labels: dict[str, str] | None = None, nearly: str = "none yet: {what} {pct} % busy"
) -> str:
    """A report's ``bottleneck`` in words, for the pages' Bottleneck metric; ``labels``: station names
    in words besides :data:`planner.engine.performance.BOTTLENECK_LABELS` (another architecture's
    model names its own stations); ``nearly``: how the busiest resource below saturation is said
    (``{what}``, ``{pct}``), the pages' words by default.

    Below saturation the engine says ``none``; the busiest station is named beside it when it is at
    least :data:`planner.engine.queueing.BUSY_UTILIZATION` busy ("none yet: VM vCPUs 97 % busy"):
    a browser review (2026-11-29) found the Design page saying "none (below capacity)" for a demand
    whose database VMs' vCPUs were 97 % busy, the resource the sizer names as binding.
    """
    b = str(rep.get("bottleneck", "none"))
    words = {**station_words(rep), **(labels or {})}
    util = {
        k: float(v)
        for k, v in (rep.get("utilization") or {}).items()
        if isinstance(v, (int, float)) and not isinstance(v, bool) and np.isfinite(v)
    }
    if b == "none" and util:
        k = max(util, key=util.__getitem__)
        if util[k] >= BUSY_UTILIZATION:
            return nearly.format(what=words.get(k, k.replace("_", " ")), pct=f"{100 * util[k]:.0f}")
    return words.get(b, b.replace("_", " "))


def explain_endurance(res: dict, write_iops: float) -> dict:
    """JSON has no Infinity: a load that never wears the drives has a null
    ``endurance_years`` and ``endurance_note`` saying why."""
    years = res.get("endurance_years")
    if years is not None and not np.isfinite(years) and np.isfinite(write_iops):
        res["endurance_years"] = None
        res["endurance_note"] = (
            "no writes: the drives never wear out at this load"
            if write_iops <= 0
            else "no writes reach the capacity drives (the cache absorbs them): they never wear out at this load"
        )
    return res


def design_warnings(rd: ResolvedDesign, workload: Workload | None) -> list[dict]:
    """Things a reviewer would flag that do not make the design impossible:
    the nodes cannot host the workload's vCPUs or RAM (:mod:`planner.physics.hosting`),
    a hardware rule of :data:`planner.physics.rules.RULES` it breaks
    (:func:`planner.physics.rules.hardware_rules`: Microsoft's requirements and
    recommendations, e.g. at least 4 capacity drives and 32 GB RAM per server),
    delimited allocation below Microsoft's recommended cluster size."""
    from planner.models.design import DELIMIT_RECOMMENDED_MIN_NODES
    from planner.physics.hosting import host_checks
    from planner.physics.rule_sources import rule_source
    from planner.physics.rules import WI, hardware_rules, rule_of

    out = host_checks(rd, workload) if workload is not None else []
    d = rd.design
    # a hand-built design that breaks a vendor rule still gets its figures, with the rule named
    hw = hardware_rules(rd)
    for rule, c in hw.items():
        if not c["passed"]:
            r = rule_of(rule, d.stack)
            out.append(
                {
                    "check": rule,
                    "case": "healthy",
                    "kind": r.kind,
                    "message": f"{'Breaks a requirement' if r.kind == 'requirement' else 'Against a recommendation'}"
                    f", {r.title}: {c['reason']} (source: {rule_source(r.source, rd.node.chassis)})",
                }
            )
    if d.stack == "s2d" and rd.nodes == 2 and d.topology == "hyperconverged":
        # nothing in a design holds the witness, so the rule passes; a two-node cluster without one stops
        # when either server does, so the reviewer's list says it (the Rules tab quotes the sources)
        r = rule_of("cluster_witness", d.stack)
        out.append(
            {
                "check": "cluster_witness",
                "case": "healthy",
                "kind": r.kind,
                "message": f"{hw['cluster_witness']['reason']} (source: {WI})",
            }
        )
    if (lanes := lanes_warning(rd)) is not None:
        out.append(lanes)
    if d.delimited and rd.nodes < DELIMIT_RECOMMENDED_MIN_NODES:
        out.append(
            {
                "check": "delimited_allocation",
                "case": "healthy",
                "message": f"volumes delimited to {d.effective_volume_servers} of {d.nodes} servers: Microsoft "
                f"suggests delimited allocation from {DELIMIT_RECOMMENDED_MIN_NODES} servers up "
                "('Delimit the allocation of volumes in Storage Spaces Direct')",
            }
        )
    return out


def physics_notes(rd: ResolvedDesign, perf: dict, read_fraction: float = 1.0) -> list[str]:
    """Plain-language reasons for results that surprise in a what-if."""
    from planner.physics.capacity import MIRROR_COPIES, RESILIENCY_CODES
    from planner.physics.resiliency import local_read_probability

    d = rd.design
    notes = []
    if d.stack != "s2d":
        return stack_notes(rd, perf, read_fraction)
    code = RESILIENCY_CODES[d.resiliency]
    s = d.effective_volume_servers
    p_local = float(local_read_probability(code, s, d.mirror_share))
    if perf.get("bottleneck") == "network" and p_local < 1.0:
        copies = int(MIRROR_COPIES[code]) or 1
        notes.append(
            f"The network binds, and a read finds a copy on the serving node only {pct(p_local)} of the time "
            f"({copies} copies over {s} servers): with regular allocation, adding nodes spreads the copies thinner "
            f"and sends more reads across, so up to {2 * copies} nodes a three-way mirror can lose network-bound "
            "IOPS as nodes are added. Delimiting volumes to as many servers as copies keeps reads local."
        )
    return notes


#: a drop smaller than this share is not worth a note (a what-if that moves IOPS by 0.3 % moves nothing)
NODE_DROP_SHARE = 0.01


def compare_note(before: dict, after: dict) -> str | None:
    """Why a hyperconverged design with more nodes shows fewer IOPS, or None.

    ``before`` and ``after`` are :func:`evaluate_report` reports (with a
    workload) of the same design at two node counts. With as many nodes as
    copies every mirror read is local; each node added beyond that makes a
    share of the reads remote (:func:`planner.physics.resiliency.local_read_probability`:
    a read finds a copy on its own node with P = min(1, copies / servers)), so
    the design can turn network-bound, or host-CPU-bound over TCP, where every
    crossing costs host CPU that RDMA does not. The note names the figures,
    the share of local reads before and after, what binds after, and the
    remedies (delimited allocation, RDMA). None when the nodes did not grow or
    IOPS did not drop by more than :data:`NODE_DROP_SHARE`.
    """
    return _node_drop_note(before, after, predicted=False)


def _node_drop_note(before: dict, after: dict, predicted: bool) -> str | None:
    from planner.physics.capacity import MIRROR_COPIES, RESILIENCY_CODES
    from planner.physics.resiliency import local_read_probability

    try:
        nb, na = int(before["nodes"]), int(after["nodes"])
        res_b, res_a = before["resiliency"], after["resiliency"]
        code_b, code_a = RESILIENCY_CODES[res_b], RESILIENCY_CODES[res_a]
    except (KeyError, TypeError, ValueError):
        return None  # not a hyperconverged report (or no performance in it)
    if na <= nb or before.get("topology", "hyperconverged") != "hyperconverged":
        return None
    drops = []
    for key, what in (("iops", "IOPS"), ("iops_capacity", "IOPS capacity")):
        b, a = before.get(key), after.get(key)
        if isinstance(b, (int, float)) and isinstance(a, (int, float)) and b > 0 and a < b * (1 - NODE_DROP_SHARE):
            drops.append(f"{what} from {b:,.0f} to {a:,.0f} ({pct(a / b - 1, sign=True)})")
    if not drops:
        return None
    sb = before.get("volume_servers") or nb
    sa = after.get("volume_servers") or na
    pb = float(local_read_probability(code_b, sb))
    pa = float(local_read_probability(code_a, sa))
    binds = after.get("bottleneck", "none")
    label = station_words(after).get(binds, binds)
    tcp = after.get("transport") == "tcp"
    added = na - nb
    head = (
        f"Adding {'a node' if added == 1 else f'{added} nodes'} ({nb} to {na}) "
        f"{'would lower' if predicted else 'lowers'} {' and '.join(drops)}"
    )
    why, fixes = [], []
    if pa < pb:
        copies = int(MIRROR_COPIES[code_a]) or 1
        why.append(
            f"a read finds a copy on its own node {pct(pb)} of the time on {nb} nodes and {pct(pa)} on {na} "
            f"({copies} copies over {sa} servers), so more reads cross the network"
        )
        if MIRROR_COPIES[code_a] and sa > copies:
            fixes.append(f"delimiting volumes to {copies} servers keeps every read local")
    now = " now" if before.get("bottleneck") != binds else ""
    if binds == "network":
        why.append(f"the network{now} binds")
    elif tcp and binds in ("host_cpu", "cpu_utilization_cap") and pa < pb:
        why.append(f"over TCP every crossing costs host CPU that RDMA does not, and the {label}{now} binds")
        fixes.append("RDMA removes that CPU cost")
    elif binds not in ("none", "population", "outstanding_io", "offered_load"):
        why.append(f"the {label} binds")
    text = head + (": " + "; ".join(why) if why else "") + "."
    if fixes:
        fix = " and ".join(fixes)
        text += f" {fix[0].upper()}{fix[1:]}."
    return text


def node_added_note(
    design: Design, workload: Workload, report: dict, catalog: Catalog | None = None, params: ModelParams | None = None
) -> str | None:
    """The :func:`compare_note` of this design against itself with one node more, evaluated
    (the what-if a customer asks first); None when a node more is not a valid design or
    would not lower IOPS."""
    from planner.core.errors import PlannerError
    from planner.models.design import with_overrides

    try:
        plus = resolve(with_overrides(design, nodes=design.node_count + 1), catalog or load_catalog())
    except PlannerError:
        return None  # e.g. a two-node nested mirror cannot take a third node, or the node limit
    perf = performance(plus, workload, params, band=False)
    after = {
        "nodes": plus.design.nodes,
        "resiliency": plus.design.resiliency,
        "transport": plus.design.transport,
        "volume_servers": plus.design.effective_volume_servers,
        **perf,
    }
    return _node_drop_note(report, after, predicted=True)


#: what the five stations are on a Ceph design (the report keys are the model's)
CEPH_STATIONS = {
    "vm_vcpu": "the RBD client (librbd / krbd) of each VM or fio job, and the VM's vCPUs",
    "host_cpu": "the storage nodes' logical processors (OSDs, and colocated clients)",
    "network": "the links at the messenger's share of line rate",
    "cache": "DB/WAL devices (BlueStore metadata), when the design has them",
    "capacity_drives": "the OSDs' data devices",
}


def stack_notes(rd: ResolvedDesign, perf: dict, read_fraction: float = 1.0) -> list[str]:
    """Notes a Ceph or vSAN report carries: what the stations are, where the model is
    thin, and (Ceph) when the drives' random-write rating would bind an aged cluster."""
    d, n = rd.design, rd.node
    notes = []
    if d.stack == "ceph":
        notes.append(
            "Ceph: reads are served by each placement group's primary OSD (local to the client for "
            f"{'none' if rd.clients else f'1 in {d.nodes}'} of the IOs); writes go to the primary, which sends "
            "them to the other replicas or shards. The model queues IOs at " + "; at ".join(CEPH_STATIONS.values())
        )
        iops = perf.get("iops")
        if iops:
            lay = d.layout
            w = 1.0 - float(read_fraction)
            per_drive = iops * lay.width * w / max(n.drive_count * rd.nodes, 1)
            if per_drive > n.drive.rand_write_4k_iops and w > 0:
                notes.append(
                    f"Each data device takes {per_drive:,.0f} writes/s here, above its datasheet random-write "
                    f"rating ({n.drive.rand_write_4k_iops:,.0f} IOPS): the model bounds BlueStore's writes by the "
                    "device's write bandwidth (it allocates new space for them), as the calibration's fresh "
                    "clusters showed; an aged, nearly full cluster may see the random-write rating instead"
                )
        if release_note := ceph_release_note(d.ceph_spec.release):
            notes.append(release_note)
        notes.append(
            "Ceph latency: only 4 KiB synchronous writes at queue depth 1 were measured at low load; read "
            "latency at low load assumes half the write path's software latency, and the p99 shape is S2D's"
        )
    elif d.stack == "vsan":
        # what the stations are; that vSAN is not calibrated is the report's first extrapolation flag,
        # shown beside this note (the two said it twice, one under the other: review 2026-11-29)
        notes.append(
            "vSAN: reads are served by any replica, 1 in n locally; ESA RAID-5/6 writes a mirrored performance "
            "leg, then full stripes"
        )
    return notes


def percentile_shape_note(stack: str, classes: list[dict]) -> str | None:
    """Where a Ceph or vSAN demand judges a tier on a percentile (``classes`` as
    :meth:`planner.models.demand.Demand.summary` lists them, each with its ``latency_statistic``), that its p90 and
    p99 latencies take the tail shape measured on Storage Spaces Direct clusters, and their range S2D's spread:
    the Ceph data have no percentile under load (:func:`planner.calibration.ceph_fit`, bands), and vSAN is not
    calibrated. None on S2D or without a percentile target. One sentence for the proposal and the Size page: the
    proposal sold "Ultra p99 2.927 ms vs 3.000 ms target, met" (2.4 % margin) on Ceph and claimed every figure
    carried the range measured clusters showed, while the Performance page and the Ceph calibration's note said
    the p99 shape was S2D's (Ceph architect's walk 2026-12-01)."""
    if stack == "s2d":
        return None
    tiers = [c for c in classes if c.get("latency_statistic") in ("p90", "p99")]
    if not tiers:
        return None
    names = ", ".join(sorted({f"{c['latency_statistic']}" for c in tiers}))
    return (
        f"The {names} latencies {'this' if len(tiers) == 1 else 'these'} "
        f"{'tier is' if len(tiers) == 1 else 'tiers are'} judged on take the tail shape measured on Storage Spaces "
        f"Direct clusters, and its range, around {STACK_NAMES.get(stack, stack)}'s modelled mean: no "
        f"{STACK_NAMES.get(stack, stack)} cluster's percentiles were measured, so a small margin under a "
        "percentile target is not a measured one"
    )


def platform_check(rd: ResolvedDesign, workload: Workload, perf: dict, params: ModelParams | None = None) -> dict:
    """Memory and PCIe bandwidth per node at the predicted load
    (:mod:`planner.physics.pcie_memory`): peak, traffic and utilisation (None where the
    catalog lacks a figure, with ``missing`` naming it), and the PCIe lanes
    the NVMe devices and NICs need against what the CPUs provide."""
    from planner.engine.performance import demand_terms
    from planner.physics import pcie_memory as platform

    p = params_for(rd.design.stack, params)
    d, n = rd.design, rd.node
    D = DesignArrays.from_designs([rd])
    W = WorkloadArrays.from_workload(workload, issuing_nodes(D))
    t = demand_terms(D, W, p)
    pmem = n.cache is not None and n.cache.kind == "pmem"
    per_io = platform.traffic_per_io(
        workload.read_fraction,
        t["read_hit"],
        pmem,
        t["hops_read"],
        t["hops_write"],
        t["backend_writes"],
        t["write_cached"],
        t["destaged"],
        t["rmw_reads"],
        d.transport == "tcp",
    )
    # a figure the model could not compute (null in the report) leaves the traffic unknown too
    iops = perf.get("iops")
    mb_per_node = iops * workload.block_size_kib * 1024 / 1e6 / rd.nodes if iops is not None else float("nan")
    cpu = n.cpu
    mt_s: float | None = cpu.memory_mt_s
    if (dimms := node_dimms(n)) is not None:  # named, or the set its RAM is priced as: one set everywhere
        mt_s = min(mt_s, dimms.module.speed_mt_s) if mt_s else dimms.module.speed_mt_s
    if pmem and mt_s and n.cache is not None:  # persistent memory shares the channels and sets their rate
        mt_s = min(mt_s, platform.PMEM_CHANNEL_MT_S.get(n.cache.pmem_generation or 0, mt_s))
    mem_peak = (
        float(platform.memory_bandwidth_mb_s(n.sockets, cpu.memory_channels, mt_s))
        if mt_s and cpu.memory_channels
        else None
    )
    pcie_peak = (
        float(platform.pcie_bandwidth_mb_s(cpu.pcie_lanes * n.sockets, cpu.pcie_gen))
        if cpu.pcie_lanes and cpu.pcie_gen
        else None
    )
    missing = [
        what
        for what, peak in (
            ("memory_mt_s and memory_channels of the CPU", mem_peak),
            ("pcie_lanes and pcie_gen of the CPU", pcie_peak),
        )
        if peak is None
    ]
    mem = float(np.ravel(per_io["memory"])[0]) * mb_per_node
    pcie = max(float(np.ravel(per_io["pcie_up"])[0]), float(np.ravel(per_io["pcie_down"])[0])) * mb_per_node
    need, have = platform.node_lanes(n)
    return jsonio.strict(
        {
            "memory_bandwidth_mb_s": mem_peak,
            "memory_traffic_mb_s": mem,
            "memory_utilization": None if mem_peak is None else mem / mem_peak,
            "pcie_bandwidth_mb_s": pcie_peak,
            "pcie_traffic_mb_s": pcie,
            "pcie_utilization": None if pcie_peak is None else pcie / pcie_peak,
            "pcie_lanes_needed": need,
            "pcie_lanes_available": have,
            "missing": missing,
            "note": "per node, at the predicted IOPS; peaks from the catalog (sustained rates are lower); "
            "not queues in the model: a utilisation above 1 means the figures are optimistic",
        },
        jsonio.NOT_COMPUTABLE,
    )


def lanes_warning(rd: ResolvedDesign) -> dict | None:
    """The warning for a node whose NVMe devices and NICs need more PCIe lanes than its CPUs provide
    (:func:`planner.physics.pcie_memory.node_lanes`), or None: a property of the build, said by
    :func:`design_warnings` with or without a workload (24 NVMe drives and two 100 GbE NICs on two Cascade Lake CPUs,
    128 lanes for 96, were said only with ``--workload``; architect walk)."""
    from planner.physics.pcie_memory import node_lanes

    need, have = node_lanes(rd.node)
    if need is None or have is None or need <= have:
        return None
    return {
        "check": "pcie_lanes",
        "case": "healthy",
        "needed_lanes": need,
        "available_lanes": have,
        "message": f"the NVMe devices and NICs need {need} PCIe lanes per node, the CPUs provide "
        f"{have}: the chassis must share lanes through PCIe switches",
    }


def platform_warnings(check: dict) -> list[dict]:
    """Warnings for a :func:`platform_check` that passes a memory or PCIe bandwidth peak (the lane count is the
    build's own: :func:`lanes_warning`)."""
    out = []
    for key, what in (("memory", "memory"), ("pcie", "PCIe")):
        u = check[f"{key}_utilization"]
        if isinstance(u, float) and u > 1.0:
            out.append(
                {
                    "check": f"{key}_bandwidth",
                    "case": "healthy",
                    "needed_mb_s": round(check[f"{key}_traffic_mb_s"]),
                    "available_mb_s": round(check[f"{key}_bandwidth_mb_s"]),
                    "message": f"{what} traffic {check[f'{key}_traffic_mb_s']:,.0f} MB/s per node at this load, "
                    f"above the CPUs' peak {check[f'{key}_bandwidth_mb_s']:,.0f} MB/s: the model "
                    f"does not queue on {what} bandwidth, so its figures are optimistic",
                }
            )
    return out


def check_parts(design: Design, catalog: Catalog | None = None, any_architecture: bool = False) -> None:
    """A design's parts checked against the catalog, as the app takes a design: a hyperconverged (or Ceph /
    vSAN) design resolved and refused without usable capacity; with ``any_architecture`` another
    architecture's parts resolved too (without, :func:`planner.models.design.resolve` refuses it). Raises
    PlannerError naming the field. One rule for the app's uploads and `scenario save` (which saved a design of
    unknown part ids the app then could not reopen; adversarial review 2026-11-30)."""
    cat = catalog or load_catalog()
    if design.cluster_engine or not any_architecture:
        rd = resolve(design, cat)
        if design.cluster_engine:
            require_usable(rd)
    else:
        from planner.engine.architectures import resolve as resolve_parts

        resolve_parts(design, cat)


def evaluate_report(
    design: Design,
    workload: Workload | None = None,
    catalog: Catalog | None = None,
    degraded: bool = True,
    params: ModelParams | None = None,
    service_months: float = endurance.DEFAULT_SERVICE_MONTHS,
    figures_only: bool = False,
) -> dict:
    """Capacity (always) and performance (with a workload) of a design; with
    ``degraded`` (default) also the same with one node down.

    Parameters
    ----------
    design : Design
        The design (:func:`planner.models.design.load_design`). Designs of another topology go to
        :func:`planner.results.architecture_report.evaluate_report` (same keys).
    workload : Workload, optional
        The IO load (:func:`planner.models.workload.profiles`); without one, capacity alone.
    catalog : Catalog, optional
        The parts catalog; default the shipped one.
    degraded : bool, default True
        Also evaluate the workload with one node down (``degraded``).
    params : ModelParams, optional
        Model parameters; default the shipped calibration of the design's stack (no band otherwise).
    service_months : float, default 36
        The life the drives' rated writes must outlast for no endurance warning [months] (the cost's
        amortisation period, as the sizer's rule takes it; a page set to 60 months warned at 36).
    figures_only : bool, default False
        The figures alone, for a search that only reads them at many trial loads (a database's capacity):
        no ``warnings`` or ``notes`` (empty), no ``platform`` check, no one-node-down case and, for another
        topology, no ``provenance``, ``model`` or ``scaling``. Every figure it gives is the full report's
        (tests/test_fast_path.py).

    Returns
    -------
    dict
        JSON-ready, units in the keys. Always the capacity: ``raw_capacity_tb``,
        ``pool_capacity_tb``, ``reserve_tb``, ``usable_capacity_tb`` [TB], ``usable_capacity_tib``
        [TiB], ``reprotected_after_node_loss_tb`` [TB], ``resiliency_efficiency`` [-], ``waterfall``,
        ``reprotected_after_node_loss``, ``warnings`` and ``notes``. With a workload: ``iops``,
        ``iops_capacity`` (saturation) [IOPS], ``bandwidth_mb_s`` [MB/s], storage
        ``read_latency_ms`` and ``write_latency_ms``, the VMs' ``vm_latency_ms``,
        ``p90_read_latency_ms`` ... ``p99_write_latency_ms`` [ms], each with ``_low`` and ``_high``
        (its 5-95 % band over the calibration's bootstrap sets), ``host_cpu_utilization`` [-],
        ``utilization`` (station -> busy share [-]), ``bottleneck``, ``endurance_years`` [years],
        ``extrapolation`` (where the design is outside the calibrated domain) and ``degraded`` (the
        same figures with one node down).

    References
    ----------
    Schweitzer, P. J. (1979). Approximate analysis of multiclass closed networks of queues. Proc.
    International Conference on Stochastic Control and Optimization (the model's solver, with the
    others on the docs' Model page).
    Little, J. D. C. (1961). A proof for the queuing formula L = lambda W. Operations Research 9(3),
    383-387.
    """
    if not design.cluster_engine:
        from planner.results.architecture_report import evaluate_report as architecture_report

        out = architecture_report(
            design, workload, catalog=catalog, params=params, service_months=service_months, figures_only=figures_only
        )
        if workload is not None and "iops" in out:
            explain_endurance(out, out["iops"] * (1.0 - workload.read_fraction))
            out["calibration"] = {"version": calibration_version(design.stack, params)}
        return jsonio.strict(out, jsonio.NOT_COMPUTABLE)
    rd = resolve(design, catalog or load_catalog())
    cap = require_usable(rd)  # 0 TB usable is refused with the reason, not evaluated
    out = {
        "design": design.name,
        "stack": design.stack,
        "topology": design.topology,
        "nodes": design.nodes,
        "resiliency": design.resiliency,
        # the transport modelled: RDMA asked on a NIC the stack's RDMA does not run on is TCP's figures
        "transport": "rdma" if rd.runs_rdma else "tcp",
        "cache_mode": rd.cache_mode,
        "volume_servers": design.effective_volume_servers,
        # the round trip between rooms the latencies include (0: one room): an input no output echoed
        # (network walk 2026-12-01)
        "fault_domain_rtt_ms": design.fault_domain_rtt_ms if rd.nodes > 1 else 0.0,
    }
    if design.transport == "rdma" and not rd.runs_rdma:
        out["transport_note"] = transport_fallback_note(rd)
    if rd.cache_mode is None:
        # a Ceph node's fast devices hold BlueStore's block.db and WAL, not a data cache: "no cache devices" stood
        # beside 256 GB of them per node (CLI fuzzing 2026-11-30)
        out["cache_mode_note"] = (
            DB_WAL_NOTE if design.stack == "ceph" and rd.node.cache_count and rd.node.cache else NO_CACHE_NOTE
        )
    out.update(cap.model_dump(mode="json"))
    out["warnings"] = [] if figures_only else design_warnings(rd, workload)
    out["notes"] = []
    if workload is not None:
        # N+1 is the first question in a sizing review, so it is on by default;
        # both cases are one model call
        with_deg = rd.nodes > 1 and degraded and not figures_only
        cases = performance_cases(rd, workload, params, degraded=(False, True) if with_deg else (False,))
        perf = cases[0]
        out["workload"] = workload.name
        out.update(perf)
        # which fit produced these figures (a report read later, or beside a refit's, says so)
        out["calibration"] = {"version": calibration_version(design.stack, params)}
        if figures_only:
            return jsonio.strict(out, jsonio.NOT_COMPUTABLE)
        out["notes"] = physics_notes(rd, perf, workload.read_fraction)
        host_cpu_note(out)
        if note := node_added_note(design, workload, out, catalog, params):
            out["notes"].append(note)
        out["platform"] = platform_check(rd, workload, perf, params)
        out["warnings"] += platform_warnings(out["platform"])
        short = perf.get("saturated") or (workload.iops and perf.get("iops", 0) < workload.iops * (1 - 1e-9))
        if w := endurance.endurance_warning(
            out.get("endurance_years"),
            rd.node.drive.warranty_years,
            service_months,
            carried_iops=perf.get("iops") if short else None,
        ):
            out["warnings"].append(w)
        deg = cases[1] if with_deg else None
        for case, rep in (("healthy", perf), ("one node down", deg)):  # the first case past saturation
            # the stack names its stations ("DB/WAL devices" on Ceph): the engine's result does not carry it
            if rep is not None and (w := saturation_warning({**rep, "stack": design.stack}, workload.iops, case)):
                out["warnings"].append(w)
                break
        if w := band_low_warning(perf):  # carried at the prediction, not at the capacity band's low end
            out["warnings"].append(w)
        if deg is not None:
            stops = node_loss_stops_io(rd)
            ceph_cap, ceph_note = ceph_repair_cap(rd)
            # vSAN ESA first rebuilds the lost host's components in the layout they have (RAID-5 4+1 on five hosts),
            # then, a day later, rewrites all the data as 2+1: the repair time was for the 204.80 TB held after the
            # re-layout, beside the Capacity page's 287.24 TB footprint rebuilt in 4+1, and the rewrite had no time
            # (vSAN specialist's walk)
            relay = (
                vsan_relayout_after_node_loss(design, cap.usable_capacity_tb, cap.raw_capacity_tb)
                if design.stack == "vsan" and cap.repairs_after_node_loss
                else None
            )
            rebuilt_tb = relay["rebuilt_tb"] if relay else cap.reprotected_after_node_loss_tb
            relay_time = (
                float(
                    relayout_time_hours(
                        relay["data_tb"],
                        relay["footprint_tb"],
                        design.effective_fault_domains - 1,
                        rd.node.drive_count,
                        rd.node.drive.seq_write_mb_s,
                        rd.node.drive.seq_read_mb_s,
                        network.node_storage_bandwidth_bytes_s(rd, node_down=True),
                    )
                )
                if relay
                else None
            )
            # every headline figure, so a degraded view never mixes in healthy numbers
            # a figure the case has no value for keeps its reason beside it (no writes, not computable)
            out["degraded"] = (
                {k: deg[k] for k in DEGRADED_KEYS}
                | {f"{k}_note": deg[f"{k}_note"] for k in DEGRADED_KEYS if f"{k}_note" in deg}
                | {k: deg[k] for k in ("vm_response_ms",) if k in deg}  # a paced closed load's whole wait
                | {
                    "utilization": deg["utilization"],
                    "repair_share": 0.0
                    if without_repair(cap.repairs_after_node_loss, design.node_count)
                    else repair_share_of(design.stack),
                    "repair_share_note": repair_share_words(
                        design.stack, not without_repair(cap.repairs_after_node_loss, design.node_count)
                    ),
                    # no repair when too few fault domains survive (a 3-node three-way mirror): no time to quote
                    "repair_time_hours": float(
                        repair_time_hours(
                            # the data the survivors re-protect: full volumes where they all fit, else what does (the
                            # 7.2 h of 271 TB stood beside "225.27 TB re-protected", about 6.0 h; SRE walk 2026-11-30)
                            min(cap.usable_capacity_tb, rebuilt_tb) / max(cap.resiliency_efficiency, 1e-9),
                            design.nodes,
                            rd.node.drive_count,
                            rd.node.drive.seq_write_mb_s,
                            network.node_storage_bandwidth_bytes_s(rd, node_down=True),
                            repair_share=repair_share_of(design.stack),
                            max_repair_bytes_s=ceph_cap,
                            data_chunks=repair_read_chunks(design),
                            drive_read_mb_s=rd.node.drive.seq_read_mb_s,
                        )
                    )
                    if cap.repairs_after_node_loss
                    else None,
                    # when the stack rebuilds and its wait before it, or why there is no repair: Storage Spaces
                    # Direct starts none by itself (it said "repair_starts_after_hours": 0.0, "none modelled",
                    # beside "data fully protected again after 6.0 hours"; S2D specialist's audit)
                    **(
                        {
                            "repair_automatic": repair_is_automatic(design.stack),
                            "repair_condition": repair_condition(design.stack),
                            "repair_starts_after_hours": REPAIR_DELAY_HOURS.get(design.stack),
                            "repair_starts_after_hours_note": (
                                f"{REPAIR_DELAY_SETTING[design.stack]}, its default"
                                if repair_is_automatic(design.stack)
                                else "no wait to quote: Storage Spaces Direct starts no rebuild by itself "
                                "(repair_condition)"
                            ),
                        }
                        # a page quotes a lower bound as one ("at least 1.3 h", not "≈ 1.3 h")
                        | (
                            {"repair_time_hours_note": ceph_note, "repair_time_is_lower_bound": True}
                            if ceph_note
                            else {}
                        )
                        # what the repair the degraded figures run beside takes (the proposal says it where the
                        # stack starts it by itself; S2D's rebuild waits for an administrator: its note says so)
                        | ({"repair_load_note": repair_load_words(rd, params)} if not stops else {})
                        if cap.repairs_after_node_loss
                        else {
                            "repair_time_hours_note": f"no repair: {cap.node_loss_note.removeprefix('after losing one node, ')}"
                        }
                    ),
                    # what a down S2D server's return brings, rebuild or none: the resync of what it missed
                    **({} if repair_is_automatic(design.stack) else {"on_return_note": S2D_RESYNC_ON_RETURN}),
                    **(
                        {
                            "relayout_time_hours": relay_time,
                            "relayout_starts_after_hours": VSAN_RELAYOUT_AFTER_HOURS,
                            "relayout_note": (
                                f"if the cluster stays at {design.effective_fault_domains - 1} hosts, vSAN ESA re-lays "
                                f"RAID-5 ({design.layout.data}+{design.layout.redundancy}) as RAID-5 "
                                f"({relay['to'].data}+{relay['to'].redundancy}) {VSAN_RELAYOUT_AFTER_HOURS:g} hours "
                                f"after the loss, rewriting all the data: the {relay['data_tb']:,.2f} TB it then holds, "
                                f"{relay['footprint_tb']:,.2f} TB written, ≈ {relay_time:.1f} h at the repair share "
                                "(that IO is not in the one-node-down figures)"
                            ),
                        }
                        if relay and relay_time is not None
                        else {}
                    ),
                    **(
                        {
                            "io_resumes_after_recovery": ceph_recovers_below_min_size(rd),
                            "io_stop_words": node_loss_io_words(rd),
                        }
                        if stops
                        else {}
                    ),
                    "note": (
                        # the Capacity page's rule and words (node_loss_io_words): "until the node returns" stood
                        # beside the Capacity page's recovery of ec-2+1 on 6 nodes (pre-sales Ceph walk 2026-12-03)
                        f"one node down: {node_loss_io_words(rd)}, so the model has no degraded figures to quote"
                        if stops
                        # a disaggregated design's VMs run on its client servers, which lose nothing (Ceph/vSAN walk
                        # 2026-11-30)
                        else "one storage node down, the VMs on their own client servers"
                        if design.clients_separate
                        else "one node down, its VMs on the survivors"
                    )
                    + (
                        (
                            f", while {repair_load_words(rd, params)}; repair time "
                            if repair_is_automatic(design.stack)
                            # the share stands for the rebuild that runs once the drives are retired: S2D starts
                            # none by itself, and until then the survivors hold no rebuild (a lighter load)
                            else ", the repair held for the rebuild onto the survivors that runs if an "
                            "administrator retires the down server's drives (Storage Spaces Direct starts none by "
                            f"itself): {repair_load_words(rd, params)}; rebuild time "
                        )
                        + (
                            f"is for the lost host's share of the {rebuilt_tb / max(cap.resiliency_efficiency, 1e-9):,.2f} "
                            f"TB footprint rebuilt in RAID-5 ({design.layout.data}+{design.layout.redundancy}), volumes "
                            f"filled to their {cap.usable_capacity_tb:,.2f} TB; then {relay_words}"
                            if relay and (relay_words := relay_clause(relay, relay_time))
                            else f"is for the {rebuilt_tb:,.2f} TB the survivors re-protect of volumes "
                            f"filled to their {cap.usable_capacity_tb:,.2f} TB"
                            if rebuilt_tb < cap.usable_capacity_tb - 1e-9
                            else "assumes the volumes are full"
                        )
                        if cap.repairs_after_node_loss
                        else f"; no repair to full resiliency: {cap.node_loss_note.removeprefix('after losing one node, ')}"
                    ),
                }
            )
            if stops:
                out["degraded"] |= stopped_io_figures(cap.node_loss_note)
            elif note := paced_degraded_note(perf, deg):
                out["notes"].append(note)
    return jsonio.strict(out, jsonio.NOT_COMPUTABLE)


def transport_fallback_note(rd: ResolvedDesign) -> str:
    """Why a design given ``transport: rdma`` is modelled over TCP: its NIC has no RDMA the stack runs on (vSAN's is
    RoCE v2 only; VMware, 'Using RDMA'). A vSAN design on an iWARP NIC reported "transport": "rdma" beside TCP's
    figures exactly (performance walk 2026-12-01)."""
    nic = rd.node.nic
    kind = {"none": "no RDMA", "roce": "RoCE", "iwarp": "iWARP"}[nic.rdma]
    if rd.design.stack == "vsan":
        return (
            f"RDMA asked, modelled over TCP: vSAN's RDMA runs on RoCE v2 only and the {nic.id} NIC offers {kind}, "
            "so vSAN falls back to TCP (VMware, 'Using RDMA')"
        )
    return (
        f"RDMA asked, modelled over TCP: the {nic.id} NIC offers {kind}, so SMB runs over TCP without SMB Direct "
        "(Microsoft, 'SMB Direct')"
    )


#: where the latencies of a load that has none at the rate it asks are kept, and what they are
AT_CAPACITY_KEY = "latencies_at_capacity"


def _latency_keys(rep: dict) -> list[str]:
    return [k for k in rep if k.endswith(("latency_ms", "latency_ms_low", "latency_ms_high")) and rep[k] is not None]


def _without_latencies(rep: dict, why: dict[str, str], throttled: bool) -> dict:
    """``rep`` with its latencies null, each with ``why``'s note, and the figures kept under
    :data:`AT_CAPACITY_KEY` with the rate they are at."""
    keys = _latency_keys(rep)
    if not keys:
        return rep
    at = rep.get("iops")
    kept = {k: rep[k] for k in keys} | {
        "iops": at,
        "note": (
            f"the latencies of the IOs the pacing lets through ({at:,.0f} IOPS), not of the load asked"
            if throttled
            else f"the latencies at the design's capacity ({at:,.0f} IOPS, its busiest station 99.9 % busy), a "
            "different load from the one asked: no latency holds at the rate it asks"
        )
        if isinstance(at, (int, float))
        else "the latencies at the design's capacity, not at the load asked",
    }
    return (
        rep
        | {k: None for k in keys}
        | {f"{k}_note": why["note"] for k in keys if not k.endswith(("_low", "_high"))}
        | {AT_CAPACITY_KEY: kept}
        # "saturated: false" beside latencies that queue without end read as a contradiction (CLI walk 2026-12-01):
        # it is the storage's word, and the pacing holds the load back before any station fills
        | (
            {
                "saturated_note": "no storage station is saturated: the pacing (limited_by) lets fewer IOPS through "
                "than the load asks, and the rest queue in their VMs"
            }
            if throttled and "saturated" in rep and not rep["saturated"]
            else {}
        )
    )


def unbounded_cases(report: dict) -> dict[str, dict[str, str]]:
    """Why a report's load has no latency at the rate it asks, per case, "healthy" and "one node down"
    (:func:`planner.engine.performance.unbounded_latency`'s ``cell``, ``why`` and ``note``); a case whose latencies
    are the load's is absent. One rule for :func:`load_latencies` (`evaluate`, `compare`, `compare --full`) and the
    app's Design and Performance pages, which showed the latency at the capacity under the warning that it is not
    the load's (fixP).

    A case whose IO stops with a node down has no latency to leave out. Past what it carries healthy and held back by
    a pacing policy with a node down, the load is no more carried with a node down: throttled there (the saturation
    warning is said of the first case alone)."""
    out: dict[str, dict[str, str]] = {}
    if why := unbounded_latency(report):
        out["healthy"] = why
    deg = report.get("degraded")
    if isinstance(deg, dict) and not deg.get("io_stops"):
        d_why = unbounded_latency({**deg, "warnings": report.get("warnings") or []}, case="one node down")
        if d_why is None and why is not None and deg.get("limited_by") in PACING_POLICIES:
            d_why = {"cell": NO_LATENCY_THROTTLED, "why": THROTTLED_WHY, "note": THROTTLED_NOTE}
        if d_why is not None:
            out["one node down"] = d_why
    return out


def load_latencies(report: dict) -> dict:
    """A report as every JSON answer prints it (`evaluate`, `compare`, `compare --full`): a load with no latency at
    the rate it asks (:func:`planner.engine.performance.unbounded_latency`: past saturation, or an open load its
    pacing holds back), healthy or with one node down, has its latencies null, each with its note, the figures the
    model gives at the capacity kept under :data:`AT_CAPACITY_KEY` and labelled as such, and its warnings
    without their clause on the latencies shown.

    `evaluate` printed 3.257 ms for 2,000,000 IOPS asked of 1,062,390 ("the latencies shown are at the capacity")
    where `compare` printed null ("unbounded"), and `compare --full` `evaluate`'s figure (performance walk
    2026-12-01): a saturated open load's queues grow without end, so it has no steady-state latency; the figure
    at the capacity is of another load.
    """
    out = dict(report)
    cases = unbounded_cases(report)
    if why := cases.get("healthy"):
        out = _without_latencies(out, why, throttled=not report.get("saturated"))
    if d_why := cases.get("one node down"):
        deg = report["degraded"]
        out["degraded"] = _without_latencies(deg, d_why, throttled=not deg.get("saturated"))
    nulled = set(cases)
    if nulled:
        out["warnings"] = [
            {**w, "message": w["short"]} if "short" in w and w.get("case") in nulled else w
            for w in report.get("warnings") or []
        ]
    return out


def repair_read_chunks(design: Design) -> int:
    """Chunks the survivors read to rebuild one lost chunk: k of a Ceph or vSAN erasure code, 1 for a
    replica or mirror (:func:`planner.engine.degraded.repair_time_hours`). An EC pool's repair time equalled
    replica-3's, 0.31 h on 12 nodes for replica-3 and ec-8+3 alike (Ceph operator walk). S2D's layouts
    keep 1: its parity repair path is not in the model."""
    return design.layout.data if design.stack != "s2d" else 1


def ceph_repair_cap(rd: ResolvedDesign) -> tuple[float | None, str]:
    """A Ceph design's repair bandwidth cap [B/s] and why its repair time is a lower bound; (None, "") for
    another stack. The cap: Ceph's measured backfill rate into one OSD under its default mClock profile times the
    surviving OSDs, each assumed to backfill at that rate at once
    (:func:`planner.engine.degraded.ceph_backfill_cap_bytes_s`). The repair time was the repair share of the
    survivors' bandwidth alone, 0.5 h for 57 TB on six nodes of 2 x 100 GbE (~31 GB/s), with no backfill or mClock
    limit (Ceph/vSAN walk 2026-11-30)."""
    d = rd.design
    if d.stack != "ceph":
        return None, ""
    osds = (rd.nodes - 1) * rd.node.drive_count * d.ceph_spec.osds_per_drive
    hdd = rd.node.drive.media == "hdd"
    rate = ceph_recovery_mib_s_per_osd("hdd" if hdd else "ssd")
    return float(ceph_backfill_cap_bytes_s(osds, hdd)), (
        "a lower bound for Ceph: the repair writes at the smaller of its default mClock profile's (balanced) "
        f"recovery reservation, {pct(repair_share_of('ceph'))}, of the survivors' drive and network bandwidth and "
        f"Ceph's measured backfill rate, {rate:g} MiB/s per OSD under that profile, times the {osds:,} surviving OSDs"
        + (
            f", and reads {k} chunks for each it rebuilds (erasure code {k}+{d.layout.redundancy})"
            if (k := repair_read_chunks(d)) > 1
            else ""
        )
        + "; that rate was measured into one OSD with "
        "osd_max_backfills raised to 1000 (Ceph's mClock study; Ceph's default is 1), and every OSD is assumed to "
        "backfill at it at once"
    )


def repair_load_words(rd: ResolvedDesign, params: ModelParams | None = None) -> str:
    """What the repair running with one node down takes from the survivors, a clause ("Ceph's recovery runs at ...",
    "the repair holds ..."), as the degraded figures count it (:func:`planner.engine.degraded.degraded_arrays`): the
    rate, the bandwidth shares and the logical processors it takes (:func:`planner.engine.degraded.repair_load`):
    Ceph's recovery at its rate, S2D's and vSAN's repair at the share they are held to. The proposal said "With one
    server down 582,000 IOPS at 0.618 ms" with no word of the recovery running or its share (Ceph architect's walk
    2026-12-01); S2D's and vSAN's repair cost no CPU (fixP)."""
    stack = rd.design.stack
    share = repair_share_of(stack)
    load = {
        k: float(np.ravel(v)[0])
        for k, v in repair_load(DesignArrays.from_designs([rd]), stack, params_for(stack, params)).items()
    }
    lps = f"{load['lps']:,.0f} of their {rd.node.threads * (rd.nodes - 1):,} logical processors"
    if stack != "ceph":
        return (
            f"the repair holds {pct(share)} of the survivors' drive and network bandwidth (an assumption: "
            f"{STACK_NAMES[stack]} publishes no share for its repair), rebuilding at "
            f"{load['rate_bytes_s'] / 1e9:,.1f} GB/s, and its IO takes {lps} (the fit's CPU per IO, in IOs of an "
            f"assumed {REPAIR_IO_KIB / 1024:g} MiB)"
        )
    return (
        f"Ceph's recovery runs at {load['rate_bytes_s'] / 1e9:,.1f} GB/s (at most its default mClock profile's "
        f"(balanced) {pct(share)} recovery reservation of the survivors' drive and network bandwidth, and at most its "
        f"measured backfill rate), taking {pct(load['drive_write_share'])} of their drives' write bandwidth, "
        f"{pct(load['network_share'])} of their network's and {lps}"
    )


def stopped_io_figures(node_loss_note: str) -> dict:
    """The degraded figures of a cluster whose IO stops when a node is lost (a Ceph pool below its
    min_size, or Monitors without a majority: :func:`planner.physics.capacity.node_loss_stops_io`):
    no IO is served, so the throughput is zero and no latency, utilisation or bottleneck exists.
    What the survivors *would* carry is not shown: a reader takes it for what the cluster serves."""
    why = "IO stops with one node down: " + node_loss_note.removeprefix("after losing one node, ")
    figures: dict = {k: None for k in DEGRADED_KEYS} | {f"{k}_note": why for k in DEGRADED_KEYS}
    for k in ("iops", "iops_capacity", "bandwidth_mb_s"):
        figures[k] = 0.0
        del figures[f"{k}_note"]
    return figures | {"io_stops": True, "utilization": {}}


def paced_degraded_note(healthy: dict, degraded: dict) -> str | None:
    """Why a node loss can show a *lower* VM latency: a policy (the CPU cap or a per-VM limit)
    that binds only with the node down admits fewer IOs and the model paces the VMs at that
    rate; an IO it holds back waits in its VM, which VMFleet and DiskSpd do not count as IO
    latency (docs/model.md, the CPU bullet). Healthy, the VMs' own queues set the latency. None when
    the latency does not drop or no policy explains it."""
    try:
        h, g = float(healthy["vm_latency_ms"]), float(degraded["vm_latency_ms"])
    except (KeyError, TypeError, ValueError):
        return None
    if (
        not (g < h)
        # a latency at the capacity is of another load: no comparison (0.473 ms "against 3.257 ms healthy" for a
        # load past what the design carries healthy; performance walk 2026-12-01)
        or healthy.get("saturated")
        or degraded.get("saturated")
        or degraded.get("limited_by") not in PACING_POLICIES
        or healthy.get("limited_by") == degraded.get("limited_by")
    ):
        return None
    what = BOTTLENECK_LABELS[degraded["limited_by"]]
    return (
        f"With a node down the VM latency is lower ({g:.3f} ms against {h:.3f} ms healthy) because the "
        f"{what} now binds and admits fewer IOs ({degraded['iops']:,.0f} IOPS against "
        f"{healthy['iops']:,.0f}): the VMs are paced at that rate, and an IO the policy holds back waits in "
        "its VM, which VMFleet and DiskSpd do not count as IO latency. Healthy, the VMs' own queues set "
        "the latency."
    )


def _rising(ends: list, cap: list | None = None) -> list:
    """A band's ends along a latency curve, non-decreasing in the offered load as the latency is (a low end
    at most the latency itself, ``cap``): each load's band comes from its regime's error ratios, and at the
    switch to the saturated regime the low end fell from 0.239 to 0.092 ms with the load rising (browser
    review 2026-11-29); no latency falls as the load rises, nor can a bound of it."""
    out, top = [], -math.inf
    for i, v in enumerate(ends):
        if v is None or not math.isfinite(v):
            out.append(v)
            continue
        top = max(top, v)
        out.append(min(top, cap[i]) if cap is not None and cap[i] is not None else top)
    return out


def latency_curve(
    rd: ResolvedDesign,
    workload: Workload,
    points: int = 40,
    params: ModelParams | None = None,
    degraded: bool = False,
    band: bool = False,
    repair_share: float | None = None,
) -> dict:
    """Latency against offered IOPS, from idle to saturation.

    Open loads of the workload's shape at 2 % to 99 % of the design's physical
    IOPS capacity, with the operating policies (CPU cap, per-VM limits) lifted
    so the curve shows what the hardware does; ``cpu_cap_iops`` says where the
    CPU cap would stop admitting load (None without a cap), ``cpu_cap_utilization``
    and ``cpu_ceiling_utilization`` [1] the cap and the fitted SMT ceiling it is
    clipped to. Latencies are
    non-decreasing in load (tested). With ``degraded`` the cluster has one node
    down (as :func:`performance`), so the degraded operating point lies on it.
    With ``band`` (and a calibration) ``vm_latency_ms_low``/``_high`` are the
    VM latency's band at each offered load, built as the headline figures'
    (:func:`apply_bands`: held-out error quantiles for that load's regime).
    """
    p = params_for(rd.design.stack, params)
    D1 = DesignArrays.from_designs([rd]).replace(cpu_utilization_cap=np.array([1.0]))
    W1 = WorkloadArrays.from_workload(workload, issuing_nodes(D1))
    if degraded and rd.nodes > 1:
        D1, W1 = degraded_arrays(D1, W1, repair_share, p)
    capacity = float(np.ravel(evaluate_arrays(D1, W1, p)["iops_capacity"])[0])
    rates = np.linspace(0.02, 0.99, points) * capacity
    D = D1.take(np.zeros(points, dtype=int))
    # the workload's VMs are counted on the healthy cluster: degraded, they run on the survivors
    W = WorkloadArrays.from_workload(
        workload, np.full(points, float(np.ravel(issuing_nodes(D1))[0]) if rd.clients else rd.nodes)
    )
    W.alignment = W1.alignment  # degraded: the VMs re-aligned on the survivors (degraded_arrays)
    W.open_iops = rates
    W.iops_limit_per_vm = np.asarray(np.inf)
    out = evaluate_arrays(D, W, p)
    keys = (
        "iops",
        "read_latency_ms",
        "write_latency_ms",
        "vm_read_latency_ms",
        "vm_write_latency_ms",
        "vm_latency_ms",
        "p99_read_latency_ms",
    )
    curve = {k: np.ravel(out[k]).astype(float).tolist() for k in keys}
    curve["iops_capacity"] = capacity
    curve["degraded"] = bool(degraded and rd.nodes > 1)
    sc = stack_calibration(rd, workload) if band else None
    if sc is not None:
        # the same held-out error bands as the headline figures (apply_bands), point by point:
        # each offered load has its own regime (what limits it, how busy the busiest station is)
        from planner.results.uncertainty import floor_at_devices, nest_latency_bands, widen

        _domain, cal_bands, flags = sc
        limited = np.ravel(out["limited_by"])
        busiest = out["utilization"].reshape(-1, len(STATIONS)).max(axis=1)
        lows, highs = [], []
        band_keys = ("vm_latency_ms", "read_latency_ms", "write_latency_ms")
        for i, (lim, u) in enumerate(zip(limited, busiest)):
            pt = {k: curve[k][i] for k in band_keys} | {"limited_by": str(lim), "utilization": {"busiest": float(u)}}
            pt |= rtt_figures(out, i, workload.read_fraction)  # the rooms' round trip, which the band does not spread
            widen(pt, cal_bands, flags, band_keys)
            if rd.design.stack == "vsan":
                widen_at_least(pt, VSAN_MIN_BAND)
            floor_at_devices(pt, *device_latency_floor_ms(rd))
            nest_latency_bands(pt, workload.read_fraction)
            lows.append(pt.get("vm_latency_ms_low"))
            highs.append(pt.get("vm_latency_ms_high"))
        if any(v is not None for v in lows):
            curve["vm_latency_ms_low"], curve["vm_latency_ms_high"] = (
                _rising(lows, curve["vm_latency_ms"]),
                _rising(highs),
            )
    cap = rd.design.cpu_utilization_cap
    curve["cpu_cap_iops"] = float(np.ravel(cpu_cap_iops(cap, D1, out, p))[0]) if cap < 1.0 else None
    # a cap at or above the fitted SMT ceiling admits what the hardware does: its IOPS equal the capacity (to the
    # last bit or one past it), and the page says why it never binds rather than "past the capacity"
    curve["cpu_cap_utilization"] = float(cap)
    curve["cpu_ceiling_utilization"] = float(p.host_cpu_max_utilization)
    for k in absent_class_keys(workload.read_fraction)[1]:
        if k in curve:
            curve[k] = [None] * len(curve[k])
    return curve


#: vSAN ESA re-lays RAID-5 4+1 as 2+1 when a cluster stays one host short this long after the loss [h]
#: (:func:`planner.physics.capacity.vsan_relayout_after_node_loss`; D. Epping (VMware), "vSAN 8.0 ESA - introducing
#: adaptive RAID-5", as planner.models.stacks cites it)
VSAN_RELAYOUT_AFTER_HOURS = 24.0


def relay_clause(relay: dict, hours: float | None) -> str:
    """The re-layout's rewrite in a clause of the degraded note: what it rewrites and how long it takes."""
    return (
        f"the re-layout to RAID-5 ({relay['to'].data}+{relay['to'].redundancy}) {VSAN_RELAYOUT_AFTER_HOURS:g} hours "
        f"after the loss rewrites the {relay['data_tb']:,.2f} TB it then holds"
        + (f" in ≈ {hours:.1f} h at the repair share" if hours is not None else "")
    )
