"""East-west network: hops per IO, bytes per IO, link capacity, per-hop cost.

* A VM whose volume is owned by another node has every IO redirected to the
  owner (CSV on ReFS runs in file-system redirected mode: Microsoft, *Use
  Cluster Shared Volumes in a failover cluster*): one hop per IO.
* Reads not held on the owner node cross once more
  (:func:`planner.physics.resiliency.local_read_probability`); mirrored writes send
  every remote copy (:func:`planner.physics.resiliency.remote_writes_per_write`).
* SMB Multichannel spreads traffic over every port, so a node's capacity is
  ports x port speed x NICs per direction (full duplex), each card capped at
  what its PCIe host link and its controller carry (:func:`nic_card_gbit_s`).
  Ceph's messengers open many connections and are taken to do the same.
  vSAN's one VMkernel adapter uses one physical link of its team
  (:func:`storage_bandwidth_bytes_s`).
* Storage switchless (servers cabled to each other, full mesh): each pair's
  own direct links, not a switch fabric (:func:`storage_bandwidth_bytes_s`).
* TCP instead of RDMA: more host CPU and more latency per crossing, derived
  from Microsoft's published RDMA/TCP pair
  (:func:`planner.calibration.fit.derive_tcp_costs`).
"""

from __future__ import annotations

import numpy as np

from planner.core.types import FloatArray
from planner.models.catalog import Nic
from planner.models.design import ResolvedDesign
from planner.physics.pcie_memory import pcie_bandwidth_mb_s
from planner.physics.resiliency import local_read_probability, remote_writes_per_write

KIB = 1024.0


def read_hops(
    code: FloatArray, volume_servers: FloatArray, alignment: FloatArray, mirror_share: FloatArray = 0.2
) -> FloatArray:
    """Network crossings per front-end read: the redirect of a misaligned VM's
    IO to the volume's owner, plus the read of a copy the owner does not hold."""
    a = np.asarray(alignment, dtype=float)
    return (1.0 - a) + (1.0 - local_read_probability(code, volume_servers, mirror_share))


def write_hops(code: FloatArray, volume_servers: FloatArray, alignment: FloatArray) -> FloatArray:
    """Network transfers per front-end write (the redirect, then each remote copy)."""
    a = np.asarray(alignment, dtype=float)
    return (1.0 - a) + remote_writes_per_write(code, volume_servers)


def crossing_latency_s(hop_latency_s: FloatArray, fault_domain_rtt_s: FloatArray = 0.0) -> FloatArray:
    """Latency of one crossing between nodes [s]: the fitted same-room crossing
    plus the round trip between fault domains in different rooms.

    A crossing is a request and its answer (SMB Direct / RDMA, or Ceph's
    messenger pair), so a distance between rooms adds one round trip to each.

    Parameters
    ----------
    hop_latency_s : array
        fitted latency of one crossing within a room [s] (``hop_latency_us``,
        plus ``tcp_hop_latency_us`` over TCP).
    fault_domain_rtt_s : array
        round-trip time between fault domains beyond a same-room link [s]
        (``Design.fault_domain_rtt_ms``; 0 for one room).

    Returns
    -------
    array
        seconds per crossing.

    References
    ----------
    Microsoft, *Requirements and supported configurations for rack aware
    clusters* (Azure Local 2510+): "Round-trip latency between racks must be 1
    millisecond or less".
    """
    return np.asarray(hop_latency_s, dtype=float) + np.asarray(fault_domain_rtt_s, dtype=float)


def nic_card_gbit_s(nic: Nic) -> float:
    """What one card carries per direction [Gb/s]: its ports x port speed, capped at its PCIe host link
    (``pcie_lanes`` x the generation's per-lane rate, where the record gives them) and at its controller's own
    limit (``max_gbit_s``, where the record gives one).

    A ConnectX-5 2 x 100 GbE on PCIe 3.0 x16 carries about 126 Gb/s, not 200 (its record's notes say so): the
    model counted 200 Gb/s for it, the same as a ConnectX-6 Dx on PCIe 4.0 x16 (hardware-architect walk).

    References
    ----------
    PCI-SIG base specifications (per-lane rates, :data:`planner.physics.pcie_memory.PCIE_LANE_MB_S`); the NIC
    records' host interfaces (hardware_catalog/README.md, ``nic.pcie_lanes``, ``nic.pcie_gen``, ``max_gbit_s``).
    """
    caps = [nic.ports * nic.port_gbit_s]
    if nic.pcie_lanes and nic.pcie_gen:
        caps.append(float(pcie_bandwidth_mb_s(nic.pcie_lanes, nic.pcie_gen)) * 8.0 / 1000.0)  # MB/s -> Gb/s
    if nic.max_gbit_s:
        caps.append(nic.max_gbit_s)
    return float(min(caps))


def nic_bandwidth_bytes_s(nic: Nic, nic_count: FloatArray) -> FloatArray:
    """Per-direction bandwidth of ``nic_count`` cards ``nic`` (one node's), bytes/s (:func:`nic_card_gbit_s`)."""
    return nic_card_gbit_s(nic) * np.asarray(nic_count, dtype=float) * 1e9 / 8.0


#: physical links vSAN traffic uses at once per host with the usual single vSAN VMkernel adapter on basic
#: NIC teaming (route based on originating virtual port, or active/standby): VMware, *vSAN Network Design
#: Guide* (vSphere 7.0), "Basic NIC Teaming": "A single VMkernel interface is limited to a single physical
#: NIC's bandwidth. As typical vSAN environments use one VMkernel adapter, only one physical NIC in the team
#: is used."
VSAN_DEFAULT_ACTIVE_LINKS = 1


#: [SL] Microsoft, *Network reference patterns overview for Azure Local*, "Storage switchless connectivity
#: considerations": "Storage switchless deployments in Azure Local only support 1,2,3 or 4 nodes."
SWITCHLESS_MAX_NODES = 4
#: storage ports per node Microsoft's storage switchless patterns cable, by node count: two nodes "Two RDMA NICs in
#: a full-mesh configuration" (two links to the peer: *two-node storage switchless* patterns); three nodes "Two RDMA
#: NICs on each node" (one link to each peer: *three-node storage switchless, dual TOR, single link*); four nodes "Six
#: RDMA NICs on each node in a full-mesh dual link configuration" (two to each of three peers: *four-node storage
#: switchless, dual TOR, dual link*, Azure Local 2411.1 and later, the only four-node pattern); one node cables none
SWITCHLESS_MIN_PORTS = {1: 0, 2: 2, 3: 2, 4: 6}


def storage_links(
    stack: str,
    ports: int,
    nic_count: int,
    vsan_active_links: int | None = None,
    switchless_peers: int | None = None,
) -> int:
    """Links of a node that carry its storage traffic at once [-]: every port for S2D (SMB
    Multichannel) and Ceph; for vSAN the links its VMkernel adapters use,
    ``vsan_active_links`` (:data:`VSAN_DEFAULT_ACTIVE_LINKS` unless the design says otherwise:
    a LACP group or several vSAN VMkernel adapters on separate subnets), never more than the
    node has. Storage switchless (``switchless_peers``: the other nodes its ports are cabled to, full mesh):
    the same number of direct links to each peer, as many as the ports allow; a port left over joins no one.

    References
    ----------
    VMware, *vSAN Network Design Guide* (vSphere 7.0), "Basic NIC Teaming" and "Advanced NIC
    Teaming" (LAG/LACP; multiple VMkernel adapters on different subnets); Microsoft, Azure Local storage
    switchless network reference patterns (:data:`SWITCHLESS_MIN_PORTS`).
    """
    have = int(ports) * int(nic_count)
    if switchless_peers:
        per_peer = have // int(switchless_peers)
        # fewer ports than peers is no full mesh, which the storage_switchless rule fails; its ports' rate is kept,
        # not 0, so the design's figures stay finite beside that failure (0 divided the wire demand by zero)
        return per_peer * int(switchless_peers) if per_peer else have
    if stack != "vsan":
        return have
    return max(1, min(have, int(vsan_active_links or VSAN_DEFAULT_ACTIVE_LINKS)))


def switchless_links_per_peer(ports: int, nic_count: int, peers: int) -> int:
    """Direct links between a storage-switchless node and each of its ``peers`` [-] (:func:`storage_links`)."""
    return storage_links("s2d", ports, nic_count, switchless_peers=peers) // peers if peers else 0


def storage_bandwidth_bytes_s(
    stack: str,
    nic: Nic,
    nic_count: int,
    vsan_active_links: int | None = None,
    switchless_peers: int | None = None,
) -> float:
    """Per-direction storage-network bandwidth of one node [bytes/s]: its cards' (:func:`nic_bandwidth_bytes_s`,
    each capped at its host link), and for vSAN no more than its :func:`storage_links` at the port speed. The one
    implementation the model, the sizer and the reports take a node's storage bandwidth from.

    Storage switchless (``switchless_peers``, the other nodes of a full mesh): no switch fabric lets one port reach
    any peer; each pair's own direct links carry that pair's traffic, so a node sends at most its cabled links'
    rate (:func:`storage_links`), and that only while its traffic is spread evenly over its peers, as the model's
    remote copies and redirects are. Two nodes: every port to the one peer, the same as through switches.
    """
    cards = float(nic_bandwidth_bytes_s(nic, nic_count))
    if stack != "vsan" and not switchless_peers:
        return cards
    links = storage_links(stack, nic.ports, nic_count, vsan_active_links, switchless_peers)
    return min(cards, links * nic.port_gbit_s * 1e9 / 8.0)


def live_links_node_down(nodes: int, switchless: bool) -> float:
    """The share of a node's storage links still joined to a live node while one of the ``nodes`` is down [-].

    Through switches every port still reaches every survivor: 1. A storage-switchless full mesh cables each port to
    one peer, so the links to the lost node carry nothing: (peers - 1) / peers of them stay (3 nodes: 1 of 2; 4
    nodes: 4 of 6). Two nodes: the survivor has no peer and nothing to send; its links are not counted as lost
    (1), so no bandwidth is zero where the model still divides by it.
    """
    peers = int(nodes) - 1
    return (peers - 1) / peers if switchless and peers >= 2 else 1.0


def node_storage_bandwidth_bytes_s(rd: ResolvedDesign, node_down: bool = False) -> float:
    """:func:`storage_bandwidth_bytes_s` of a resolved design's storage nodes [bytes/s]; with ``node_down``, of a
    survivor while one node is down (:func:`live_links_node_down`: a switchless mesh's links to the lost node idle)."""
    n, d = rd.node, rd.design
    peers = rd.nodes - 1 if d.storage_switchless else None
    bw = storage_bandwidth_bytes_s(d.stack, n.nic, n.nic_count, d.vsan_spec.active_links, peers)
    return bw * live_links_node_down(rd.nodes, d.storage_switchless) if node_down else bw


def wire_demand_s(
    hops: FloatArray, block_size_kib: FloatArray, nodes: FloatArray, node_bandwidth: FloatArray
) -> FloatArray:
    """Network queueing demand per IO, seconds: bytes on the wire / cluster bandwidth."""
    bytes_ = np.asarray(hops, dtype=float) * np.asarray(block_size_kib, dtype=float) * KIB
    return bytes_ / (np.asarray(nodes, dtype=float) * node_bandwidth)
