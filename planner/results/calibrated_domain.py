"""The calibrated domain: the configurations the model's parameters were
fitted on, and the ways a design and workload leave it.

Each *dimension* describes one feature of a (design, workload) pair: a number
(node count, block size, read share) whose calibrated range is the span of the
fitted data, or a category (drive interface, CPU family, cache, resiliency,
issuer, ...) whose calibrated values are those the data contain. A pair outside
the range or with an unseen category is an *extrapolation*; every report lists
them, and :mod:`planner.results.uncertainty` widens the band there from the
cross-validated error of the nearest calibrated configurations.

The domain itself is written by the calibration (``calibration.json``,
``domain``) from the points it fitted, so it always says what the shipped
parameters saw.
"""

from __future__ import annotations

from planner.models.design import ResolvedDesign
from planner.models.workload import Workload

#: dimension -> (kind, what it is). "range" dimensions are numbers, "set" categories.
DIMENSIONS: dict[str, tuple[str, str]] = {
    "nodes": ("range", "cluster size"),
    "block_size_kib": ("range", "IO size"),
    "read_fraction": ("range", "share of IOs that are reads"),
    "drive_interface": ("set", "capacity drive interface and media"),
    "cache": ("set", "cache tier device kind"),
    "cache_mode": ("set", "cache mode"),  # a RAID controller's "write-back" too: not "S2D cache mode"
    "cpu_family": ("set", "CPU family"),
    "resiliency": ("set", "volume resiliency"),
    "transport": ("set", "east-west transport"),
    "issuer": ("set", "who issues the IO (VMs or the hosts)"),
    "volume_allocation": ("set", "regular or delimited volume allocation"),
    "topology": ("set", "architecture"),
    "stack": ("set", "storage stack"),
    "ceph_release": ("set", "Ceph release"),
}
#: the unit a range dimension's value is shown in
UNITS = {"block_size_kib": " KiB", "nodes": " servers"}


def _shown(x: float) -> str:
    """A range value as a person reads it: three significant figures, thousands separated."""
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.3g}"


def shown_value(dim: str, x: float) -> str:
    """A range dimension's value with its unit as a person reads it: "1,024 KiB", "12 servers",
    "1 server" (:func:`_shown` and :data:`UNITS`; the extrapolation messages and the pages' words)."""
    unit = UNITS.get(dim, "")
    return f"{_shown(x)}{unit.removesuffix('s') if unit == ' servers' and x == 1 else unit}"


def cpu_family(cpu) -> str:
    """A CPU record's family label (its id where the record names none)."""
    return getattr(cpu, "family", "") or cpu.id


def features(rd: ResolvedDesign, w: Workload) -> dict:
    """The value of every dimension for one design and workload."""
    n = rd.node
    media = getattr(n.drive, "media", "ssd")
    return {
        "nodes": rd.design.nodes,
        "block_size_kib": float(w.block_size_kib),
        "read_fraction": float(w.read_fraction),
        "drive_interface": n.drive.interface + ("-hdd" if media == "hdd" else ""),
        "cache": n.cache.kind if n.cache is not None else "none",
        "cache_mode": rd.cache_mode or "none",
        "cpu_family": cpu_family(n.cpu),
        "resiliency": rd.design.resiliency,
        "transport": rd.design.transport,
        "issuer": w.issuer,
        "volume_allocation": "delimited" if rd.design.delimited else "regular",
        "topology": getattr(rd.design, "topology", "hyperconverged"),
        "stack": getattr(rd.design, "stack", "s2d"),
        "ceph_release": rd.design.ceph_spec.release if getattr(rd.design, "stack", "s2d") == "ceph" else "none",
    }


def domain_of(feature_rows: list[dict]) -> dict:
    """The calibrated domain spanned by the features of the fitted points."""
    out = {}
    for dim, (kind, what) in DIMENSIONS.items():
        vals = [f[dim] for f in feature_rows]
        if kind == "range":
            out[dim] = {"kind": kind, "what": what, "min": min(vals), "max": max(vals)}
        else:
            out[dim] = {"kind": kind, "what": what, "values": sorted(set(vals))}
    return out


def extrapolation(feats: dict, domain: dict) -> list[dict]:
    """Every way ``feats`` leaves ``domain``: one entry per dimension, with the
    side it leaves on (``low``/``high`` for ranges, ``unseen`` for categories)."""
    out = []
    for dim, spec in domain.items():
        if dim not in feats:
            continue
        v = feats[dim]
        # the wording is this module's (a calibration file stores an older one); a Ceph node's fast device holds
        # its OSDs' DB/WAL, not a cache tier ("cache tier device kind 'pmem'" on a Ceph design; CLI review 2026-11-29)
        what = DIMENSIONS[dim][1] if dim in DIMENSIONS else spec["what"]
        if dim == "cache" and feats.get("stack") == "ceph":
            what = "DB/WAL device kind"
        if spec["kind"] == "range":
            lo, hi = spec["min"], spec["max"]
            if v < lo - 1e-9 or v > hi + 1e-9:
                side = "low" if v < lo else "high"
                out.append(
                    {
                        "dimension": dim,
                        "value": v,
                        "side": side,
                        "calibrated": f"{lo:g} to {hi:g}",
                        "message": f"{what} {shown_value(dim, v)} is outside the calibrated "
                        f"{_shown(lo)} to {shown_value(dim, hi)}",
                    }
                )
        elif v not in spec["values"]:
            out.append(
                {
                    "dimension": dim,
                    "value": v,
                    "side": "unseen",
                    "calibrated": ", ".join(map(str, spec["values"])),
                    # no brackets around the list: a family's name carries its own ("AMD EPYC 7002 (Rome)")
                    "message": f"{what} '{v}' was never measured; calibrated: {', '.join(map(str, spec['values']))}",
                }
            )
    return out
