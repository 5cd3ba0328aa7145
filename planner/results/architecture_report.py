"""The report of a design of another architecture (disaggregated file server, split
provisioning, single server): the network of :mod:`planner.engine.architectures`
solved, with its bands and extrapolation flags.

None of these architectures was measured: the CPU and software-path parameters were
fitted on Storage Spaces Direct clusters, or are stated assumptions (the shared-SAS file
server's CPU per IO); every report lists which in its ``provenance`` section. Every report therefore carries an
extrapolation flag on the ``topology`` dimension with the reason, and its bands are the
calibration's widest pseudo-extrapolation error (the rule for a dimension the data never
varied, :func:`planner.results.uncertainty.widen`).
"""

from __future__ import annotations

from planner.core.errors import DesignError, PlannerError
from planner.core.resources import CALIBRATION_FILE
from planner.core.text import count
from planner.engine.architectures import (
    MODULES,
    TOPOLOGY_LABELS,
    common,
    disaggregated,
    features,
    resolve,
    warnings_for,
)
from planner.engine.architectures.common import LINK_STATIONS
from planner.engine.performance import at_capacity, host_cpu_note, saturation_warning, station_words
from planner.models.catalog import Catalog
from planner.models.design import Design
from planner.models.params import ModelParams, default_params, load_calibration
from planner.models.workload import Workload
from planner.physics.endurance import DEFAULT_SERVICE_MONTHS, endurance_warning
from planner.results.absent_class import drop_absent_class
from planner.results.uncertainty import band_low_warning, cap_at_ceiling, cap_at_offered, nest_latency_bands

#: why each architecture is outside the calibrated domain, said on every number
WHY_UNCALIBRATED = {
    "disaggregated": "no disaggregated (SMB3 file server) cluster was measured: the storage side reuses the S2D fit "
    "(backend storage-spaces-direct; the SMB client/server split of the crossing CPU is an assumption) or stated "
    "file-server and SMB-client CPU assumptions (backend shared-sas); latencies of the software path are the S2D "
    "fit's",
    "split": "no split-provisioned system was measured: the reserved-CPU, local-flash read cache, erasure-coded "
    "data-node and data-reduction stations use S2D-fitted CPU/latency and stated assumptions",
    "single-server": "no single server was measured: RAID controller, PCIe flash and FC SAN stations come from "
    "datasheets; host CPU and software-path latency are the S2D fit's",
}


BAND_KEYS = (
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


def _bands(res: dict, feats: dict) -> tuple[list[dict], list[str]]:
    """Extrapolation flags and the band of every band key (the calibration's
    error where the design leaves its domain; the widest for the topology)."""
    from planner.results.calibrated_domain import extrapolation
    from planner.results.uncertainty import widen

    for k in BAND_KEYS:
        res[f"{k}_low"] = res[f"{k}_high"] = res[k]
    if not CALIBRATION_FILE.exists():
        flags = []
    else:
        cal = load_calibration()
        flags = extrapolation(feats, cal.domain) if cal.domain else []
    if not any(f["dimension"] == "topology" for f in flags):
        flags.append(
            {
                "dimension": "topology",
                "value": feats["topology"],
                "side": "unseen",
                "calibrated": "hyperconverged",
                "message": "",
            }
        )
    for f in flags:
        if f["dimension"] == "topology":
            f["message"] = (
                # no brackets: the reason carries its own ("(SMB3 file server)")
                f"architecture '{feats['topology']}' was never measured; calibrated: hyperconverged — "
                f"{WHY_UNCALIBRATED[feats['topology']]}"
            )
    basis = widen(res, load_calibration().bands, flags, BAND_KEYS) if CALIBRATION_FILE.exists() else set()
    how = (
        "5-95 % of held-out measured/predicted ratios of the S2D calibration, widened to the widest "
        "pseudo-extrapolation error because the architecture was never measured"
    )
    return flags, [how, *sorted(basis)]


def evaluate_report(
    design: Design,
    workload: Workload | None = None,
    catalog: Catalog | None = None,
    params: ModelParams | None = None,
    service_months: float = DEFAULT_SERVICE_MONTHS,
    figures_only: bool = False,
) -> dict:
    """Capacity (always) and performance (with a workload) of a non-HCI design,
    with the keys of :func:`planner.results.report.evaluate_report` (``service_months`` and
    ``figures_only`` as there)."""
    mod = MODULES.get(design.topology)
    if mod is None:
        raise PlannerError(f"'{design.topology}' is not modelled here", "topology")
    p = params or default_params()
    parts = resolve(design, catalog)
    desc = mod.describe(parts)
    cap = mod.capacity(parts)
    if cap["usable_capacity_tb"] <= 0.0:
        # refused as a hyperconverged design is (planner.physics.capacity.require_usable): a file server with one
        # drive was evaluated at 0 TB usable, with no error (CLI review 2026-11-30)
        raise DesignError(
            f"no usable capacity from {cap['raw_capacity_tb']:g} TB raw"
            + (f" ({cap['capacity_note']})" if cap.get("capacity_note") else "")
            + ": give more capacity drives",
            "capacity_drives.count",
        )
    out = {
        "design": design.name,
        # a disaggregated Ceph cluster's stack; a single server's RAID, a SAN, split provisioning or a 2012 R2
        # file-server cluster runs no HCI stack (the model's default "s2d" is Storage Spaces Direct, hyperconverged
        # only): "stack": "s2d" on a DL580 with a P410i read as S2D (API walk 2026-11-30)
        "stack": design.stack if design.stack != "s2d" else None,
        **(
            {}
            if design.stack != "s2d"
            else {"stack_note": f"a {TOPOLOGY_LABELS[design.topology].lower()} runs none of the HCI storage stacks"}
        ),
        "topology": design.topology,
        "architecture": TOPOLOGY_LABELS[design.topology],
        "nodes": desc["nodes"],
        "resiliency": desc["resiliency"],
        "transport": desc["transport"],
        "cache_mode": desc.get("cache_mode"),
        "volume_servers": None,
        "volume_servers_note": "not applicable: volumes spread over servers are a hyperconverged design's",
    }
    if out["cache_mode"] is None:
        out["cache_mode_note"] = "no cache tier in this design: every IO goes to the capacity media"
    out.update({k: v for k, v in desc.items() if k not in out})
    out.update(cap)
    out["usable_capacity_tib"] = cap["usable_capacity_tb"] * 1e12 / 2**40
    out["warnings"] = [] if figures_only else warnings_for(design, parts, workload)
    out["notes"] = []
    if not figures_only:
        out["provenance"] = provenance(design.topology, parts, p)
    if workload is None:
        return out
    net = mod.network(parts, workload, p)
    perf = common.solve(net, p)
    perf["iops_per_node"] = perf["iops"] / max(desc["nodes"], 1)
    at_capacity(perf, p.host_cpu_idle_utilization)  # limited by its full station, before the bands
    perf["endurance_years"] = endurance_years(net, perf["iops"] * (1.0 - workload.read_fraction))
    perf["extrapolation"], perf["band_basis"] = _bands(perf, features(design, parts, workload))
    # each metric's band has its own ratios: the VM latency's low end fell below its storage's (Datrium's
    # database: 0.096 ms beside reads of 0.215 and writes of 0.277 at their low ends; CLI review 2026-11-29)
    nest_latency_bands(perf, workload.read_fraction, highs=True)
    # a latency for IOs nobody issues (writes of a read-only load) is a number no one can measure: null, as the
    # hyperconverged stacks print it (stop 55 review: 0.143 ms of writes, p99 1.728, for dss-64k on a DL580)
    drop_absent_class(perf, workload.read_fraction)
    # the IOPS a link's data rate carries at most, and an open load's offer: bands past either are not physical
    # (architect review 2026-11-30: 95,981 IOPS over one FC port that carries 48,828; 255,950 for an open load of
    # 130,208). A link's ceiling is the capacity over its share of the busiest station's load (utilisation law):
    # IOPS / U, with the stations held 0.999 busy at saturation, put it 0.1 % above the data rate (verification
    # walk 2026-11-30)
    u_max = max(perf["utilization"].values(), default=0.0)
    links = [perf["iops_capacity"] * u_max / u for k, u in perf["utilization"].items() if k in LINK_STATIONS and u > 0]
    if links and cap_at_ceiling(perf, min(links)):
        perf["band_basis"].append("IOPS and bandwidth bands end at the links' data rates (datasheet)")
    if cap_at_offered(perf, workload.iops):
        perf["band_basis"].append(
            "an open load carries what it offers up to the capacity: IOPS and bandwidth bands end at the offer"
        )
    out["workload"] = workload.name
    out.update(perf)
    if figures_only:
        return out
    out["notes"] = list(net.notes)
    host_cpu_note(out)
    if net.wear is not None and (
        w := endurance_warning(perf["endurance_years"], net.wear["drive"].warranty_years, service_months)
    ):
        out["warnings"].append(w)
    out["model"] = {
        "stations": mod.stations_doc(net.stations),
        "degraded": "not modelled for this architecture (no one-node-down evaluation)",
    }
    if w := saturation_warning(out, workload.iops):  # after the model's stations: their names in its words
        out["warnings"].append(w)
    if w := band_low_warning(out):  # carried at the prediction, not at the capacity band's low end
        out["warnings"].append(w)
    if design.topology == "disaggregated":
        out["scaling"] = scaling(parts, workload, p)
        sat = next((s for s in out["scaling"] if s["storage_bound"]), None)
        # the station in words, as the report names it elsewhere ("file server CPU", not file_server_cpu)
        words = station_words(out)
        # the IOPS at each count beside the binding station: "the file servers saturate from 1 database server on"
        # stood beside twice the IOPS at 2 (the one owning file server saturates; browser review 2026-11-29)
        by = ", ".join(f"{s['db_servers']}: {s['iops']:,.0f}" for s in out["scaling"])
        out["notes"].append(
            f"from {count(sat['db_servers'], 'database server')} on, the file servers' side binds (the "
            f"{words.get(sat['bottleneck'], sat['bottleneck'])} of those owning the virtual disks); IOPS by database "
            f"servers {by}"
            if sat
            else f"the file servers do not saturate up to 8 database servers with this workload (IOPS by database "
            f"servers {by})"
        )
    return out


def _records(obj) -> list:
    """Catalog records a resolved architecture uses (dataclass fields, resolved nodes, JBODs)."""
    import dataclasses

    from planner.models.catalog import Record
    from planner.models.design import ResolvedNode

    if isinstance(obj, Record):
        return [obj]
    if dataclasses.is_dataclass(obj):
        values = [getattr(obj, f.name) for f in dataclasses.fields(obj)]
    elif isinstance(obj, ResolvedNode):
        values = [getattr(obj, k) for k in ResolvedNode.model_fields]
    else:
        return []
    found = []
    for v in values:
        if isinstance(v, Record):
            found.append(v)
        elif dataclasses.is_dataclass(v) or isinstance(v, ResolvedNode):
            found.extend(_records(v))
    return found


def provenance(topology: str, parts, p: ModelParams) -> dict:
    """Where every figure of a non-HCI report comes from: ``datasheet`` (the catalog parts, with
    the fields no datasheet gave), ``fitted`` (the S2D calibration's parameters the model reuses,
    with their values) and ``assumptions`` (named, with the number and its basis)."""
    mod = MODULES[topology]
    fitted_doc = mod.fitted(parts) if hasattr(mod, "fitted") else mod.FITTED
    seen, datasheet = set(), []
    for r in _records(parts):
        if r.id in seen:
            continue
        seen.add(r.id)
        datasheet.append(
            {
                "part": r.id,
                "name": r.name,
                "device_class": r.device_class,
                "verified": bool(r.verified),
                "estimated_fields": sorted(r.estimated),
            }
        )
    fitted = [
        {"name": k, "value": float(getattr(p, k)), "used_for": what, "fitted_on": "Storage Spaces Direct clusters"}
        for k, what in fitted_doc.items()
    ]
    return {
        "datasheet": datasheet,
        "fitted": fitted,
        "assumptions": mod.assumptions(parts),
        "note": "datasheet: catalog figures (estimated_fields were not published and say how they were estimated); "
        "fitted: calibration parameters measured on S2D, reused here untested on this architecture; "
        "assumptions: stated numbers with their basis, no measurement behind them",
    }


def endurance_years(net: common.Network, write_iops: float) -> float:
    """Years until the capacity media's rated writes are used (:mod:`planner.physics.endurance`)."""
    from planner.physics.endurance import years_to_wear_out

    wr = net.wear
    if wr is None:
        return float("inf")
    d = wr["drive"]
    return float(
        years_to_wear_out(
            write_iops,
            net.block_size_kib,
            wr["backend_writes"],
            wr["absorption"],
            wr["drives"],
            d.endurance_dwpd,
            d.capacity_tb,
            d.warranty_years,
        )
    )


def scaling(parts, workload: Workload, p: ModelParams, counts=disaggregated.SCALING) -> list[dict]:
    """The same per-server load on more database servers: IOPS, latency and
    whether the binding station is on the file-server side."""
    rows = []
    for n in counts:
        net = disaggregated.network(parts, workload, p, db_servers=n)
        res = common.solve(net, p)
        storage_bound = res["bottleneck"] in net.stations[3:]
        rows.append(
            {
                "db_servers": n,
                "iops": res["iops"],
                "vm_latency_ms": res["vm_latency_ms"],
                "bottleneck": res["bottleneck"],
                "storage_bound": bool(storage_bound),
                "utilization": res["utilization"],
            }
        )
    return rows
