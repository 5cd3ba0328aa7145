"""Prediction bands from the model's own held-out errors.

A band is the prediction times the 5th and 95th percentiles of
measured / predicted over held-out points (split conformal prediction: Vovk,
Gammerman & Shafer, *Algorithmic Learning in a Random World*, 2005; Lei et
al., "Distribution-free predictive inference for regression", JASA 2018):

* inside the calibrated domain, the ratios of every configuration predicted by
  a fit that never saw it (leave-one-configuration-out), each configuration
  weighing equally;
* for each way a design leaves the domain (:mod:`planner.results.calibrated_domain`), the ratios
  of the points held out when the fit saw only the other side of that
  dimension (pseudo-extrapolation), and the band is the union of the two;
* for a dimension the data never varied (one category only), the widest of
  all pseudo-extrapolation bands: it has never been tested, so it is at least
  as uncertain as the worst extrapolation the data could test.

Bands are per *regime*: where a per-VM rate limit sets the IOPS the throughput
is known exactly, and the VM-layer latency under such a throttle is a separate
(and much worse) case than at the model's own throughput; at a station's knee
(90 % busy or more) latency errors are wider than at light load.

The calibration writes the quantiles and the coverage actually reached under
nested leave-one-configuration-out (``calibration.json``, ``bands``).
"""

from __future__ import annotations

#: metrics with a band (``p99_write_latency_ms`` borrows ``p99_read``'s: no data)
BAND_METRICS = (
    "iops",
    "host_cpu_utilization",
    "read_latency_ms",
    "write_latency_ms",
    "vm_latency_ms",
    "p99_read_latency_ms",
)
BORROWED = {
    "p99_write_latency_ms": "p99_read_latency_ms",
    "vm_read_latency_ms": "vm_latency_ms",
    "vm_write_latency_ms": "vm_latency_ms",
    "bandwidth_mb_s": "iops",
    "iops_per_node": "iops",
    "iops_capacity": "iops",
}


#: a station this busy sits at the knee of its latency curve
QUEUEING_UTILIZATION = 0.9
REGIMES = ("light", "queueing", "limited")


#: metrics whose error depends on a per-VM rate limit setting the load: the
#: IOPS are then exact, and the VM layer queues in the throttle (not modelled)
LIMIT_SENSITIVE = ("iops", "bandwidth_mb_s", "iops_per_node", "vm_latency_ms", "p99_read_latency_ms")


def regime_of(limited_by: str, max_utilization: float, metric: str = "iops") -> str:
    """The regime of a prediction for ``metric``: 'limited' when a per-VM IOPS
    limit sets the load and the metric depends on it; else 'queueing' when a
    station is at least 90 % busy (latency there is steep in the load, and so
    is its error), else 'light'."""
    if limited_by == "iops_limit_per_vm" and metric in LIMIT_SENSITIVE:
        return "limited"
    return "queueing" if max_utilization >= QUEUEING_UTILIZATION else "light"


def band_union(a, b):
    """The smallest [low, high] holding both bands (None is no band)."""
    if a is None:
        return b
    if b is None:
        return a
    return [min(a[0], b[0]), max(a[1], b[1])]


_union = band_union


def _widest(bands: dict, regime: str, metric: str):
    out = None
    for sides in bands.get("extrapolation", {}).values():
        for entry in sides.values():
            b = entry.get("bands", {})
            out = _union(out, b.get(regime, {}).get(metric) or b.get("capacity", {}).get(metric))
    return out


#: what widens a band where no held-out error of a figure is known: the widest error of a fit that left part of the
#: data out (``calibration.json``'s ``extrapolation`` bands)
PSEUDO_ERROR = "widest pseudo-extrapolation error"
#: a dimension the data varied, but not with a figure measured on the side left out (:func:`ratio_band`)
NO_HELD_OUT_FOR_FIGURE = f"no held-out error for this figure, {PSEUDO_ERROR}"
#: one dimension's two bases, some figures widened by the held-out category's error and others by
#: :data:`PSEUDO_ERROR` (:func:`merged_basis`)
HELD_OUT_CATEGORY = "widest held-out-category error"
HELD_OUT_OR_PSEUDO = f"{HELD_OUT_CATEGORY}, {PSEUDO_ERROR} for a figure with no held-out error"


def merged_basis(basis: set[str]) -> set[str]:
    """A band basis that names each dimension once: where some figures took the held-out category's error and
    others, not measured on the side left out, the pseudo-extrapolation error, one entry says both. Ceph ec-2+1's
    note read "resiliencies: no error of this figure measured with that kind left out; the widest error of a fit
    that left part of the data out; resiliencies: the widest error on a kind left out of the fit" (pre-sales Ceph
    walk 2026-12-03)."""
    out = set(basis)
    for entry in basis:
        dim, _, how = entry.partition(": ")
        both = {f"{dim}: {HELD_OUT_CATEGORY}", f"{dim}: {NO_HELD_OUT_FOR_FIGURE}"}
        if how == HELD_OUT_CATEGORY and both <= out:
            out = (out - both) | {f"{dim}: {HELD_OUT_OR_PSEUDO}"}
    return out


def ratio_band(
    bands: dict, metric: str, limited_by: str, max_utilization: float, flags: list[dict]
) -> tuple[list[float] | None, list[str]]:
    """[low, high] multipliers of a prediction, and what widened them.

    ``flags`` are :func:`planner.results.calibrated_domain.extrapolation` entries. Returns None
    when the calibration has no band for this metric and regime.
    """
    key = BORROWED.get(metric, metric)
    regime = regime_of(limited_by, max_utilization, key)

    def table(entry: dict):
        # a regime with fewer than three configurations falls back to the pooled one
        b = entry.get(regime, {}).get(key)
        return b if b is not None or regime == "limited" else entry.get("capacity", {}).get(key)

    base = table(bands.get("in_domain", {}))
    sources = []
    out = base
    for f in flags:
        dim, side = f["dimension"], f["side"]
        sides = bands.get("extrapolation", {}).get(dim, {})
        if side == "unseen":
            cands = [table(e.get("bands", {})) for s, e in sides.items() if s.startswith("unseen:")]
            cands = [c for c in cands if c]
            wid = None
            for c in cands:
                wid = _union(wid, c)
            how = f"{dim}: {HELD_OUT_CATEGORY}"
        else:
            wid = table(sides.get(side, {}).get("bands", {}))
            how = f"{dim}: error when the fit saw only the other side"
        if wid is None:
            wid = _widest(bands, regime, key)
            # a dimension the data varied, but not with this figure measured on the side left out (Ceph's
            # host CPU: not measured in the erasure-coded runs), is not one that "never varied"
            how = f"{dim}: {NO_HELD_OUT_FOR_FIGURE}" if sides else f"{dim}: never varied in the data, {PSEUDO_ERROR}"
        if wid is not None:
            out = _union(out, wid)
            sources.append(how)
    return out, sources


#: latency -> the figure of the rooms' round trip it holds (``Design.fault_domain_rtt_ms``; set by
#: :func:`planner.results.report.performance` where the design has one)
RTT_PARTS = {
    **{k: "rtt_in_read_latency_ms" for k in ("read_latency_ms", "vm_read_latency_ms")},
    **{k: "rtt_in_write_latency_ms" for k in ("write_latency_ms", "vm_write_latency_ms")},
    **{f"p{q}_{c}_latency_ms": f"rtt_in_{c}_latency_ms" for q in (90, 99) for c in ("read", "write")},
    "vm_latency_ms": "rtt_in_vm_latency_ms",
}


def rtt_figures(out: dict, row: int, read_fraction: float) -> dict[str, float]:
    """The figures of :data:`RTT_PARTS` for row ``row`` of an engine output ``out``
    (:func:`planner.engine.performance.evaluate_arrays`) [ms]: the round trip in a read's and a write's
    latency (``rtt_in_*_latency_ms``) and in the read/write mix of the VM latency; none for a design
    in one room (or an output without them)."""
    import numpy as np

    if "rtt_in_write_latency_ms" not in out:
        return {}
    rd, wr = (float(np.ravel(out[f"rtt_in_{c}_latency_ms"])[row]) for c in ("read", "write"))
    if rd <= 0 and wr <= 0:
        return {}
    r = float(read_fraction)
    return {
        "rtt_in_read_latency_ms": rd,
        "rtt_in_write_latency_ms": wr,
        "rtt_in_vm_latency_ms": r * rd + (1.0 - r) * wr,
    }


def rtt_part_ms(res: dict, key: str) -> float:
    """The part of latency ``key`` in ``res`` that is the round trip between rooms [ms], 0 for a
    figure without one."""
    v = res.get(RTT_PARTS.get(key, ""))
    return float(v) if v else 0.0


def scale_above_rtt(res: dict, key: str, ratio: float) -> float:
    """Figure ``key`` of ``res`` with an error ratio applied to all of it but the rooms' round trip
    (:func:`rtt_part_ms`): a deterministic propagation delay adds the same time to every IO, and the
    calibration's held-out ratios were measured in one room. Applied whole, a 1 ms round trip put a
    storage write's band at 0.996-2.046 ms around 1.322 ms, its low end below the round trip itself
    (network walk 2026-12-01)."""
    fixed = min(rtt_part_ms(res, key), float(res[key]))
    return fixed + (float(res[key]) - fixed) * ratio


def widen(res: dict, bands: dict, flags: list[dict], keys) -> set[str]:
    """Set ``<key>_low`` / ``_high`` in ``res`` for each key from :func:`ratio_band`
    (a band never excludes the prediction itself); returns what widened them."""
    import math

    umax = max(res["utilization"].values()) if res.get("utilization") else 0.0
    basis = set()
    for k in keys:
        # the capacity is the throughput with a station saturated: the IOPS error of that regime (queueing,
        # never a per-VM limit's), whatever load the figures around it are evaluated at
        cap = k == "iops_capacity"
        ratio, sources = ratio_band(bands, k, "saturation" if cap else res["limited_by"], 1.0 if cap else umax, flags)
        if ratio is None or not math.isfinite(res[k]):
            continue
        res[f"{k}_low"] = float(min(scale_above_rtt(res, k, ratio[0]), res[k]))
        res[f"{k}_high"] = float(max(scale_above_rtt(res, k, ratio[1]), res[k]))
        basis.update(sources)
    return merged_basis(basis)


#: outer latency -> the latencies it contains (the VM layer adds guest and vCPU
#: time to the storage layer's; a percentile is at least the mean)
NESTED_LATENCIES = {
    "vm_read_latency_ms": ("read_latency_ms",),
    "vm_write_latency_ms": ("write_latency_ms",),
    "p90_read_latency_ms": ("vm_read_latency_ms", "read_latency_ms"),
    "p99_read_latency_ms": ("p90_read_latency_ms", "vm_read_latency_ms", "read_latency_ms"),
    "p90_write_latency_ms": ("vm_write_latency_ms", "write_latency_ms"),
    "p99_write_latency_ms": ("p90_write_latency_ms", "vm_write_latency_ms", "write_latency_ms"),
}


def little_law_bands(res: dict, in_flight: float | None) -> bool:
    """A closed load's VM latency band kept within its IOPS band by Little's law, N = X R.

    With ``in_flight`` [IOs] held by the load's VMs and the prediction obeying the law (a closed
    load the VMs keep full: no rate limit, no cap holding it back), every latency in its band has its
    throughput in the IOPS band: the latency's low end is at least N / the IOPS band's high end, its
    high end at most N / its low end. Only the latency band is narrowed: the IOPS band is the better
    measured, and a domain left widens it on purpose. A vSAN band of
    0.8-11.9 ms stood beside 805,210-3,220,842 IOPS with 9,600 IOs in flight, where 3.2 million IOPS
    take at least 2.98 ms (Ceph/vSAN walk 2026-11-30). A storage latency's high end is then held at its class's VM
    latency there (storage is part of the VM's wait). Returns whether a band moved.

    References
    ----------
    J. D. C. Little, *A proof for the queuing formula L = lambda W*, Operations Research 9 (1961).
    """
    import math

    x, r = res.get("iops"), res.get("vm_latency_ms")
    keys = ("iops_low", "iops_high", "vm_latency_ms_low", "vm_latency_ms_high")
    if not in_flight or x is None or r is None or any(res.get(k) is None for k in keys):
        return False
    if not (math.isfinite(x) and math.isfinite(r) and x > 0 and r > 0):
        return False
    if abs(x * r / 1e3 - in_flight) > 1e-6 * in_flight:  # the figure itself is not a full closed load
        return False
    n = float(in_flight)
    x_lo, x_hi, r_lo, r_hi = (float(res[k]) for k in keys)
    new = {
        "vm_latency_ms_low": min(max(r_lo, n / x_hi * 1e3), r),
        "vm_latency_ms_high": max(min(r_hi, n / x_lo * 1e3), r) if x_lo > 0 else r_hi,
    }
    moved = any(abs(new[k] - res[k]) > 1e-12 * max(abs(res[k]), 1.0) for k in new)
    res.update(new)
    # a storage latency is part of its VM latency: its high end no higher than the VM's of its class at the band's
    # high end (the class's VM latency scaled as the mix's), whatever its own error ratios say (edge-2node oltp-8k:
    # storage read 12.9 ms, band to 33.1, beside VM latency 13.2 ms, band to 16.3 held by Little's law; regression
    # walk 2026-12-01)
    scale = res["vm_latency_ms_high"] / r
    for c in ("read", "write"):
        key, vm = f"{c}_latency_ms", res.get(f"vm_{c}_latency_ms")
        hi, v = res.get(f"{key}_high"), res.get(key)
        if hi is None or v is None or vm is None or not all(math.isfinite(z) for z in (hi, v, vm)):
            continue
        cap = max(vm * scale, v)
        if hi > cap:
            res[f"{key}_high"], moved = float(cap), True
    return moved


def nest_latency_bands(res: dict, read_fraction: float, highs: bool = False) -> bool:
    """Keep bands physically ordered: a latency band's low end is at least the
    low end of each latency it contains (VM read >= storage read, p99 >= p90 >=
    mean; the mixed VM latency >= the read/write mix of its parts' lows), never
    above the prediction itself; with ``highs`` its high end at least the high end of each
    (an architecture never measured, whose bands are the widest errors); a utilisation band stays
    within 0..1.

    Each metric's band comes from its own error ratios, so far outside the
    calibrated domain a VM latency's low end could fall below the storage
    latency's, or a utilisation's high end above 1; no measurement can.
    Returns whether any band moved."""
    import math

    moved = False

    def end(side: str, key: str) -> float:
        v = res.get(f"{key}_{side}")
        return v if v is not None and math.isfinite(v) else -math.inf

    def raise_end(side: str, key: str, floor: float) -> None:
        # a low end above the figure is not raised past it; a high end below a latency it contains is raised to it
        # (a SAN's VM latency band ended at 64.66 ms beside its storage read's 124.85 ms; architect review
        # 2026-11-30)
        nonlocal moved
        old = res.get(f"{key}_{side}")
        if old is None or not math.isfinite(floor) or not math.isfinite(res.get(key, math.nan)):
            return
        new = min(max(old, floor), res[key]) if side == "low" else max(old, floor)
        if new > old:
            res[f"{key}_{side}"], moved = float(new), True

    r = float(read_fraction)
    for side in ("low", "high")[: 2 if highs else 1]:
        for outer, inners in NESTED_LATENCIES.items():
            raise_end(side, outer, max(end(side, k) for k in inners))
        parts = (
            max(end(side, "vm_read_latency_ms"), end(side, "read_latency_ms")),
            max(end(side, "vm_write_latency_ms"), end(side, "write_latency_ms")),
        )
        rd, wr = (r * parts[0] if r > 0 else 0.0), ((1.0 - r) * parts[1] if r < 1 else 0.0)
        # a low end at the mix of its parts' lows; a high end at least each part's share of its high (the VM's
        # mixed latency is at least r x its reads': its quantiles too), not their sum, which needs both at once
        raise_end(side, "vm_latency_ms", rd + wr if side == "low" else max(rd, wr))
    for side in ("host_cpu_utilization_low", "host_cpu_utilization_high"):  # the one utilisation with a band
        v = res.get(side)
        if v is not None and math.isfinite(v) and not 0.0 <= v <= 1.0:
            res[side], moved = float(min(max(v, 0.0), 1.0)), True
    return moved


def floor_at_devices(res: dict, read_floor_ms: float, write_floor_ms: float) -> bool:
    """Keep the storage latencies' low ends at or above what the devices an IO must touch
    can do at queue depth 1 (a read at least the fastest device that can serve it, a write
    the fastest it can land on), never above the prediction itself; :func:`nest_latency_bands`
    then carries the floor to the VM and percentile latencies. Every stack's bands keep it
    (:func:`planner.results.report.device_latency_floor_ms` says which devices serve an IO): a
    factor of two either way (vSAN's, not calibrated) once put a 0.035 ms read below a 0.070 ms
    NVMe drive's own read, and an S2D held-out ratio a 0.024 ms read beside devices reading in
    0.120 ms at best. Returns whether any band moved."""
    import math

    moved = False
    for key, floor in (("read_latency_ms", read_floor_ms), ("write_latency_ms", write_floor_ms)):
        old, v = res.get(f"{key}_low"), res.get(key)
        if old is None or v is None or not (math.isfinite(old) and math.isfinite(v) and math.isfinite(floor)):
            continue
        new = min(max(old, floor), v)
        if new > old:
            res[f"{key}_low"], moved = float(new), True
    return moved


#: a load's rate that nothing in the cluster can raise: what the workload offers (an open load)
OFFERED = "offered_load"


def cap_at_offered(res: dict, offered_iops: float | None = None) -> bool:
    """An open load carries what it offers up to the cluster's capacity, and no more.

    The high ends of its IOPS and bandwidth bands stay at the figure (a band of 456,812-795,943 IOPS
    around an offered 582,000 read as if the cluster could carry more than the databases ask). The low
    end is the capacity's own low end (``iops_capacity_low``) when that is below the offer, the offer
    when it is not. A band of 250,144-582,000 IOPS beside a capacity of 4.2 million (the light regime's
    low ratio, 0.43, applied to the offer) said the cluster might carry less than half of a load it
    carries with seven times to spare (browser review 2026-11-29). A load past saturation (``offered_iops``
    [IOPS], what it asks) keeps its capacity's band, its high end no higher than the offer. Returns whether
    any band moved."""
    import math

    if res.get("saturated") and offered_iops and res.get("iops"):
        # past saturation the load is carried up to the capacity, never beyond what it offers: a vSAN band of
        # 1,003,846-4,015,383 IOPS stood beside an offered 2,328,817 (browser review 2026-11-30)
        moved = False
        scale = float(offered_iops) / float(res["iops"])
        for key in ("iops", "bandwidth_mb_s"):
            v, hi = res.get(key), res.get(f"{key}_high")
            if v is not None and hi is not None and math.isfinite(v) and hi > v * scale:
                res[f"{key}_high"], moved = float(v * scale), True
        return moved
    if res.get("limited_by") != OFFERED:
        return False
    moved = False
    offered, floor = res.get("iops"), res.get("iops_capacity_low")
    for key in ("iops", "bandwidth_mb_s"):
        v, hi = res.get(key), res.get(f"{key}_high")
        if v is None or not math.isfinite(v) or v <= 0:
            continue
        if hi is not None and hi > v:
            res[f"{key}_high"], moved = float(v), True
        if floor is not None and math.isfinite(floor) and offered:
            # bandwidth goes with the IOs carried
            carried = float(v * min(1.0, floor / offered))
            if carried != res.get(f"{key}_low"):
                res[f"{key}_low"], moved = carried, True
    if short_at_band_low(res):
        # at the capacity band's low end the load is past what the design carries: its queues grow without end
        # there, so the latency band has no high end (900,000 IOPS asked, 836,738 carried at the low end, read a
        # VM latency band ending at 0.782 ms; performance walk 2026-12-01)
        for key in [k[: -len("_high")] for k in res if k.endswith("latency_ms_high")]:
            if res.get(f"{key}_high") is not None:
                res[f"{key}_high"], res[f"{key}_high_note"], moved = None, UNBOUNDED_AT_BAND_LOW_NOTE, True
    return moved


#: the note beside a latency band's high end an open load has not: at the capacity band's low end it is not carried
UNBOUNDED_AT_BAND_LOW_NOTE = (
    "unbounded: the load asks more IOPS than the low end of the design's capacity band, where its queues would grow "
    "without end"
)


def short_at_band_low(res: dict) -> bool:
    """Whether an open load carried at the prediction (``limited_by`` the offered load, not saturated) asks more
    IOPS than the low end of the capacity's band (``iops_capacity_low``): at that end it would not be carried."""
    offered, floor = res.get("iops"), res.get("iops_capacity_low")
    return (
        res.get("limited_by") == OFFERED
        and not res.get("saturated")
        and isinstance(offered, (int, float))
        and isinstance(floor, (int, float))
        and floor < offered * (1 - 1e-9)
    )


def band_low_warning(res: dict, case: str = "healthy") -> dict | None:
    """The warning of an open load the design carries at the prediction but not at its capacity band's low end
    (:func:`short_at_band_low`), or None: a load 98.8 % of the capacity was said carried, with a finite latency
    band and no warning, beside a capacity band reaching 836,738 IOPS under the 900,000 asked (performance walk
    2026-12-01)."""
    if not short_at_band_low(res):
        return None
    where = "" if case == "healthy" else f"with {case}, "
    short = (
        f"{where}the load asks {res['iops']:,.0f} IOPS, above the low end of the design's capacity band "
        f"({res['iops_capacity_low']:,.0f} IOPS): at that end it may not be carried and its queues would grow "
        "without end"
    )
    return {
        "check": "carried_across_band",
        "case": case,
        "kind": "requirement",
        "message": f"{short}, so its latency band has no high end",
        "short": short,
    }


def cap_at_ceiling(res: dict, ceiling_iops: float) -> bool:
    """IOPS, capacity and bandwidth bands end at a ceiling no error can lift: a link's data rate
    (``ceiling_iops`` [IOPS], the IOPS that fill it at this workload's block size and mix).

    The calibration's error ratios widen a figure either way; one 4 Gb FC port carrying 48,828 8 KiB IOPS
    (400 MB/s, its data rate) had a band up to 95,981 IOPS and 786 MB/s (architect review 2026-11-30).
    Returns whether any band moved."""
    import math

    moved = False
    iops = res.get("iops")
    for key in ("iops", "iops_capacity", "bandwidth_mb_s"):
        v, hi = res.get(key), res.get(f"{key}_high")
        if v is None or hi is None or not (math.isfinite(v) and math.isfinite(hi)):
            continue
        # bandwidth goes with the IOs carried
        top = ceiling_iops * (v / iops) if key == "bandwidth_mb_s" and iops else ceiling_iops
        top = max(top, v)  # never below the figure itself
        if hi > top:
            res[f"{key}_high"], moved = float(top), True
    return moved


def latency_ends(report: dict, side: str = "high") -> dict | None:
    """A report's latencies at their bands' ``side`` ends ("low" or "high") [ms], in the keys
    :func:`planner.engine.targets.latency_statistic` reads, or None without bands. The VM's read and
    write means take the VM mean's error ratio and the 90th percentiles the 99th's, as the bands'
    borrowing rule does (:data:`BORROWED`: no data of their own). One rule for the pages' latency band check
    (:func:`planner.sizing.checks.latency_met_not_across_band`) and the SLA guarantee's latency band."""
    import math

    def ratio(key: str) -> float | None:
        v, end = report.get(key), report.get(f"{key}_{side}")
        if v is None or end is None or not (math.isfinite(v) and math.isfinite(end)) or v <= 0:
            return None
        return float(end) / float(v)

    mean = ratio("vm_latency_ms")
    p99 = {c: ratio(f"p99_{c}_latency_ms") for c in ("read", "write")}
    # an IO class the load does not issue has no latency (null, as a report gives it): the other's ends stand alone
    issued = [c for c in p99 if report.get(f"vm_{c}_latency_ms") is not None]
    if mean is None or not issued or any(p99[c] is None for c in issued):
        return None
    ends: dict[str, float | None] = {}
    for c in ("read", "write"):
        on = c in issued
        ends[f"vm_{c}_latency_ms"] = report[f"vm_{c}_latency_ms"] * mean if on else None
        ends[f"p99_{c}_latency_ms"] = report[f"p99_{c}_latency_ms_{side}"] if on else None
        if "p90_read_latency_ms" in report and "p90_write_latency_ms" in report:
            ends[f"p90_{c}_latency_ms"] = report[f"p90_{c}_latency_ms"] * p99[c] if on else None
    return ends


def band_short_of(res: dict, key: str, need: float) -> float | None:
    """The low end of ``res``'s band of ``key`` when the figure meets ``need`` and the low end does not
    (a "met" that holds at the prediction, not across its band), else None. One rule for the pages and
    the proposal: "IOPS 2,328,817, band 2,193,688-2,328,817" stood beside "met" for a need of 2,328,817
    on the Design page and in the proposal, where the SLA page said so (browser review 2026-11-30)."""
    import math

    v, low = res.get(key), res.get(f"{key}_low")
    if v is None or low is None or not (math.isfinite(v) and math.isfinite(low)):
        return None
    return float(low) if low < need * (1 - 1e-9) and v >= need * (1 - 1e-9) else None
