"""What customers run today, on the same machinery as the HCI model.

One module per architecture turns a design (``topology`` and its section of
:class:`planner.models.design.Design`) and a workload into a queueing network of named
stations (:class:`planner.engine.architectures.common.Network`), solved by
:func:`planner.engine.architectures.common.solve` with the planner's MVA and open-network
functions. :func:`evaluate_report` returns the same keys as
:func:`planner.results.report.evaluate_report` for an HCI design, plus ``model`` (what
each station is) and, for the disaggregated file server, ``scaling`` (the same
per-server load on 1, 2, 4 and 8 database servers).

None of these architectures was measured: the CPU and software-path parameters
were fitted on Storage Spaces Direct clusters, or are named assumptions where the S2D
fit does not apply (the shared-SAS file server's CPU per IO, the split system's data
services); each module's ``FITTED`` and ``assumptions()`` say which, and every report
carries them in ``provenance``. Every report therefore carries
an extrapolation flag on the ``topology`` dimension with the reason, and its
bands are the calibration's widest pseudo-extrapolation error (the rule for a
dimension the data never varied, :func:`planner.results.uncertainty.ratio_band`).
"""

from __future__ import annotations

from typing import Any

from planner.core.errors import PlannerError
from planner.engine.architectures import common, disaggregated, single_server, split
from planner.models.catalog import Catalog, load_catalog
from planner.models.design import Design
from planner.models.params import ModelParams, default_params
from planner.models.workload import Workload
from planner.physics.dimms import MemoryHost
from planner.physics.rules import memory_verdict

MODULES = {"disaggregated": disaggregated, "split": split, "single-server": single_server}
#: the resolved parts of a design of any of these topologies
AnyParts = disaggregated.Parts | split.Parts | single_server.Parts
TOPOLOGY_LABELS = {
    "hyperconverged": "hyperconverged (HCI)",
    "disaggregated": "disaggregated file-server cluster",
    "split": "split provisioning",
    "single-server": "single server",
}


def resolve(design: Design, catalog: Catalog | None = None) -> AnyParts:
    """The design's parts from the catalog (errors name the field)."""
    if design.topology not in MODULES:
        raise PlannerError(
            f"'{design.topology}' is not modelled here; hyperconverged designs go to planner.results.report", "topology"
        )
    parts: AnyParts = MODULES[design.topology].resolve_parts(design, catalog or load_catalog())
    return parts


def network(
    design: Design,
    workload: Workload,
    catalog: Catalog | None = None,
    params: ModelParams | None = None,
    **kw: Any,
) -> common.Network:
    parts = resolve(design, catalog)
    net: common.Network = MODULES[design.topology].network(parts, workload, params or default_params(), **kw)
    return net


def performance(
    design: Design,
    workload: Workload,
    catalog: Catalog | None = None,
    params: ModelParams | None = None,
    **kw: Any,
) -> dict[str, Any]:
    """Throughput, latencies and utilisation of one design (no band)."""
    p = params or default_params()
    return common.solve(network(design, workload, catalog, p, **kw), p)


def features(design: Design, parts: AnyParts, workload: Workload) -> dict[str, Any]:
    """The calibrated-domain features (:data:`planner.results.calibrated_domain.DIMENSIONS`) of an architecture."""
    desc = MODULES[design.topology].describe(parts)
    return {
        # the storage cluster's servers, the dimension the calibration's cluster size measures: a file-server
        # cluster's file servers (a 2-node SOFS with 4 database servers read "This
        # design has 6 servers: beyond the clusters this model was validated on"; regression walk 2026-12-01)
        "nodes": desc.get("storage_servers", desc["nodes"]),
        "block_size_kib": float(workload.block_size_kib),
        "read_fraction": float(workload.read_fraction),
        "drive_interface": desc["drive_interface"],
        "cache": desc.get("cache", "none"),
        "cache_mode": desc.get("cache_mode") or "none",
        "cpu_family": desc["cpu_family"],
        "resiliency": desc["resiliency"],
        "transport": desc["transport"],
        "issuer": workload.issuer,
        "volume_allocation": "regular",
        "topology": design.topology,
    }


def servers_memory(parts: AnyParts) -> list[tuple[str, MemoryHost]]:
    """(name, server) of every kind of server the design buys, whose RAM is built of DIMMs
    (:mod:`planner.physics.dimms`): database, file, compute or single servers (a split design's data nodes
    are arrays, named by their drives)."""
    if isinstance(parts, single_server.Parts):
        return [("database server", parts.memory)]
    if isinstance(parts, split.Parts):
        return [("compute node", parts.memory)]
    fs = parts.fs_memory if parts.shared_sas else parts.node
    return [("database server", parts.db_memory)] + ([("file server", fs)] if fs is not None else [])


def memory_warnings(parts: AnyParts) -> list[dict[str, Any]]:
    """The ``memory_config`` rule (:func:`planner.physics.rules.memory_verdict`) on every server the design buys,
    one warning for each it fails: RAM no balanced set of DIMMs builds in its slots, as a hyperconverged node's."""
    out = []
    for who, server in servers_memory(parts):
        ok, why = memory_verdict(server)
        if not ok:
            out.append({"check": "memory_config", "case": "healthy", "server": who, "message": f"{who}: {why}"})
    return out


def warnings_for(design: Design, parts: AnyParts, workload: Workload | None) -> list[dict[str, Any]]:
    """Checks a reviewer would flag: each server's RAM as DIMMs (:func:`memory_warnings`), and the hosting of
    the VMs on the servers that run them: their vCPUs, their RAM plus the design's host reserve."""
    out = memory_warnings(parts)
    if workload is None or workload.issuer == "host" or not workload.vms_per_node:
        return out
    if isinstance(parts, single_server.Parts):
        cpu, sockets, ram = parts.cpu, parts.sockets, parts.spec.server.ram_gb
    elif isinstance(parts, disaggregated.Parts):
        cpu, sockets, ram = parts.db_cpu, parts.db_sockets, parts.spec.db_server.ram_gb
    else:
        cpu, sockets, ram = parts.cpu, parts.sockets, parts.spec.compute_node.ram_gb
    lps: float = cpu.threads * sockets
    if isinstance(parts, split.Parts):
        lps = lps * (1.0 - parts.spec.storage_cpu_share)
    vcpus = workload.vms_per_node * workload.vcpus_per_vm
    cap = lps * design.vcpu_oversubscription
    if vcpus > cap:
        out.append(
            {
                "check": "vcpus",
                "case": "healthy",
                "needed_vcpus": vcpus,
                "available_vcpus": cap,
                "message": f"{workload.vms_per_node} VMs x {workload.vcpus_per_vm} vCPUs = {vcpus} vCPUs per server, "
                f"above {design.vcpu_oversubscription:g} vCPUs per logical processor (the vCPU oversubscription) x "
                f"{lps:g} logical processors = {cap:g}",
            }
        )
    need = workload.vms_per_node * workload.ram_gb_per_vm + design.host_reserve_gb
    if need > ram:
        out.append(
            {
                "check": "ram",
                "case": "healthy",
                "needed_gb": need,
                "available_gb": ram,
                "message": f"{workload.vms_per_node} VMs x {workload.ram_gb_per_vm:g} GB + host reserve "
                f"{design.host_reserve_gb:g} GB = {need:,.0f} GB per server, above its {ram:,.0f} GB RAM",
            }
        )
    return out
