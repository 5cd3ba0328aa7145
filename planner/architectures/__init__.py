"""What customers run today, on the same machinery as the HCI model.

One module per architecture turns a design (``topology`` and its section of
:class:`planner.design.Design`) and a workload into a queueing network of named
stations (:class:`planner.architectures.common.Network`), solved by
:func:`planner.architectures.common.solve` with the planner's MVA and open-network
functions. :func:`evaluate_report` returns the same keys as
:func:`planner.report.evaluate_report` for an HCI design, plus ``model`` (what
each station is) and, for the disaggregated file server, ``scaling`` (the same
per-server load on 1, 2, 4 and 8 database servers).

None of these architectures was measured: the CPU and software-path parameters
were fitted on Storage Spaces Direct clusters. Every report therefore carries
an extrapolation flag on the ``topology`` dimension with the reason, and its
bands are the calibration's widest pseudo-extrapolation error (the rule for a
dimension the data never varied, :func:`planner.uncertainty.ratio_band`).
"""
from __future__ import annotations

from pathlib import Path

from planner.architectures import common, disaggregated, single_server, split
from planner.catalog import Catalog, load_catalog
from planner.design import Design, parse_design
from planner.errors import PlannerError
from planner.params import CALIBRATION_FILE, ModelParams, default_params, load_calibration
from planner.workload import Workload

MODULES = {"disaggregated": disaggregated, "split": split, "single-server": single_server}
TOPOLOGY_LABELS = {"hyperconverged": "hyperconverged (HCI)", "disaggregated": "disaggregated file-server cluster",
                   "split": "split provisioning", "single-server": "single server"}
#: why each architecture is outside the calibrated domain, said on every number
WHY_UNCALIBRATED = {
    "disaggregated": "no disaggregated (SMB3 file server) cluster was measured: the storage side reuses the S2D fit, "
                     "the SMB client/server split of the crossing CPU and the database-server path are assumptions",
    "split": "no split-provisioned system was measured: the reserved-CPU, local-flash read cache, erasure-coded "
             "data-node and data-reduction stations use S2D-fitted CPU/latency and stated assumptions",
    "single-server": "no single server was measured: RAID controller, PCIe flash and FC SAN stations come from "
                     "datasheets; host CPU and software-path latency are the S2D fit's",
}
BAND_KEYS = ("iops", "bandwidth_mb_s", "read_latency_ms", "write_latency_ms", "vm_latency_ms",
             "p99_read_latency_ms", "p99_write_latency_ms", "host_cpu_utilization")


def resolve(design: Design, catalog: Catalog | None = None):
    """The design's parts from the catalog (errors name the field)."""
    if design.topology not in MODULES:
        raise PlannerError(f"'{design.topology}' is not modelled here; hyperconverged designs go to planner.report",
                           "topology")
    return MODULES[design.topology].resolve_parts(design, catalog or load_catalog())


def network(design: Design, workload: Workload, catalog: Catalog | None = None,
            params: ModelParams | None = None, **kw) -> common.Network:
    parts = resolve(design, catalog)
    return MODULES[design.topology].network(parts, workload, params or default_params(), **kw)


def performance(design: Design, workload: Workload, catalog: Catalog | None = None,
                params: ModelParams | None = None, **kw) -> dict:
    """Throughput, latencies and utilisation of one design (no band)."""
    p = params or default_params()
    return common.solve(network(design, workload, catalog, p, **kw), p)


def features(design: Design, parts, workload: Workload) -> dict:
    """The calibrated-domain features (:data:`planner.domain.DIMENSIONS`) of an architecture."""
    desc = MODULES[design.topology].describe(parts)
    return {"nodes": desc["nodes"], "block_size_kib": float(workload.block_size_kib),
            "read_fraction": float(workload.read_fraction), "drive_interface": desc["drive_interface"],
            "cache": desc.get("cache", "none"), "cache_mode": desc.get("cache_mode") or "none",
            "cpu_family": desc["cpu_family"], "resiliency": desc["resiliency"], "transport": desc["transport"],
            "issuer": workload.issuer, "volume_allocation": "regular", "topology": design.topology}


def _bands(res: dict, feats: dict) -> tuple[list[dict], list[str]]:
    """Extrapolation flags and the band of every band key (the calibration's
    error where the design leaves its domain; the widest for the topology)."""
    from planner.domain import extrapolation
    from planner.uncertainty import widen

    for k in BAND_KEYS:
        res[f"{k}_low"] = res[f"{k}_high"] = res[k]
    if not CALIBRATION_FILE.exists():
        flags = []
    else:
        cal = load_calibration()
        flags = extrapolation(feats, cal.domain) if cal.domain else []
    if not any(f["dimension"] == "topology" for f in flags):
        flags.append({"dimension": "topology", "value": feats["topology"], "side": "unseen",
                      "calibrated": "hyperconverged", "message": ""})
    for f in flags:
        if f["dimension"] == "topology":
            f["message"] = (f"architecture '{feats['topology']}' was never measured (calibrated: hyperconverged): "
                            f"{WHY_UNCALIBRATED[feats['topology']]}")
    basis = widen(res, load_calibration().bands, flags, BAND_KEYS) if CALIBRATION_FILE.exists() else set()
    how = ("5-95 % of held-out measured/predicted ratios of the S2D calibration, widened to the widest "
           "pseudo-extrapolation error because the architecture was never measured")
    return flags, [how] + sorted(basis)


def warnings_for(design: Design, parts, workload: Workload | None) -> list[dict]:
    """Hosting checks a reviewer would flag: vCPUs and RAM of the VMs on the
    servers that run them (the VMs' RAM plus the design's host reserve)."""
    if workload is None or workload.issuer == "host" or not workload.vms_per_node:
        return []
    topo = design.topology
    if topo == "single-server":
        cpu, sockets, ram = parts.cpu, parts.sockets, parts.spec.server.ram_gb
    elif topo == "disaggregated":
        cpu, sockets, ram = parts.db_cpu, parts.db_sockets, parts.spec.db_server.ram_gb
    else:
        cpu, sockets, ram = parts.cpu, parts.sockets, parts.spec.compute_node.ram_gb
    out = []
    lps = cpu.threads * sockets
    if topo == "split":
        lps = lps * (1.0 - parts.spec.storage_cpu_share)
    vcpus = workload.vms_per_node * workload.vcpus_per_vm
    cap = lps * design.vcpu_oversubscription
    if vcpus > cap:
        out.append({"check": "vcpus", "case": "healthy", "needed": vcpus, "available": cap,
                    "message": f"{workload.vms_per_node} VMs x {workload.vcpus_per_vm} vCPUs = {vcpus} vCPUs per server, "
                               f"above vcpu_oversubscription {design.vcpu_oversubscription:g} x {lps:g} logical "
                               f"processors = {cap:g}"})
    need = workload.vms_per_node * workload.ram_gb_per_vm + design.host_reserve_gb
    if need > ram:
        out.append({"check": "ram", "case": "healthy", "needed_gb": need, "available_gb": ram,
                    "message": f"{workload.vms_per_node} VMs x {workload.ram_gb_per_vm:g} GB + host reserve "
                               f"{design.host_reserve_gb:g} GB = {need:,.0f} GB per server, above its {ram:,.0f} GB RAM"})
    return out


def evaluate_report(design: Design, workload: Workload | None = None, catalog: Catalog | None = None,
                    params: ModelParams | None = None) -> dict:
    """Capacity (always) and performance (with a workload) of a non-HCI design,
    with the keys of :func:`planner.report.evaluate_report`."""
    mod = MODULES.get(design.topology)
    if mod is None:
        raise PlannerError(f"'{design.topology}' is not modelled here", "topology")
    p = params or default_params()
    parts = resolve(design, catalog)
    desc = mod.describe(parts)
    cap = mod.capacity(parts)
    out = {"design": design.name, "topology": design.topology, "architecture": TOPOLOGY_LABELS[design.topology],
           "nodes": desc["nodes"], "resiliency": desc["resiliency"], "transport": desc["transport"],
           "cache_mode": desc.get("cache_mode"), "volume_servers": None}
    out.update({k: v for k, v in desc.items() if k not in out})
    out.update(cap)
    out["usable_capacity_tib"] = cap["usable_capacity_tb"] * 1e12 / 2**40
    out["warnings"] = warnings_for(design, parts, workload)
    out["notes"] = []
    if workload is None:
        return out
    net = mod.network(parts, workload, p)
    perf = common.solve(net, p)
    perf["iops_per_node"] = perf["iops"] / max(desc["nodes"], 1)
    perf["endurance_years"] = endurance_years(net, perf["iops"] * (1.0 - workload.read_fraction))
    perf["extrapolation"], perf["band_basis"] = _bands(perf, features(design, parts, workload))
    out["workload"] = workload.name
    out.update(perf)
    out["notes"] = list(net.notes)
    out["model"] = {"stations": mod.stations_doc(net.stations),
                    "degraded": "not modelled for this architecture (no one-node-down evaluation)"}
    if design.topology == "disaggregated":
        out["scaling"] = scaling(parts, workload, p)
        sat = next((s for s in out["scaling"] if s["storage_bound"]), None)
        out["notes"].append(
            f"the file servers saturate from {sat['db_servers']} database server(s) on ({sat['bottleneck']})" if sat
            else "the file servers do not saturate up to 8 database servers with this workload")
    return out


def endurance_years(net: common.Network, write_iops: float) -> float:
    """Years until the capacity media's rated writes are used (:mod:`planner.endurance`)."""
    from planner.endurance import years_to_wear_out

    wr = net.wear
    if wr is None:
        return float("inf")
    d = wr["drive"]
    return float(years_to_wear_out(write_iops, net.block_size_kib, wr["backend_writes"], wr["absorption"],
                                   wr["drives"], d.endurance_dwpd, d.capacity_tb, d.warranty_years))


def scaling(parts, workload: Workload, p: ModelParams, counts=disaggregated.SCALING) -> list[dict]:
    """The same per-server load on more database servers: IOPS, latency and
    whether the binding station is on the file-server side."""
    rows = []
    for n in counts:
        res = common.solve(disaggregated.network(parts, workload, p, db_servers=n), p)
        storage_bound = res["bottleneck"] in disaggregated.STATIONS[3:]
        rows.append({"db_servers": n, "iops": res["iops"], "vm_latency_ms": res["vm_latency_ms"],
                     "bottleneck": res["bottleneck"], "storage_bound": bool(storage_bound),
                     "utilization": res["utilization"]})
    return rows


EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"


def example_designs() -> dict[str, str]:
    """Example design files (name -> topology); files that are not designs are skipped."""
    out = {}
    for f in sorted(EXAMPLES.glob("*.json")):
        try:
            d = parse_design(f.read_bytes())
        except PlannerError:
            continue
        out[f.stem] = d.topology
    return out
