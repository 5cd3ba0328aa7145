"""East-west network: hops per IO, bytes per IO, link capacity, per-hop cost.

* A VM whose volume is owned by another node has every IO redirected to the
  owner (CSV on ReFS runs in file-system redirected mode: Microsoft, *Use
  Cluster Shared Volumes in a failover cluster*): one hop per IO.
* Reads not held on the owner node cross once more
  (:func:`planner.physics.resiliency.local_read_probability`); mirrored writes send
  every remote copy (:func:`planner.physics.resiliency.remote_writes_per_write`).
* SMB Multichannel spreads traffic over every port, so a node's capacity is
  ports x port speed x NICs per direction (full duplex).
* TCP instead of RDMA: more host CPU and more latency per crossing, derived
  from Microsoft's published RDMA/TCP pair
  (:func:`planner.calibration.fit.derive_tcp_costs`).
"""

from __future__ import annotations

import numpy as np

from planner.core.types import FloatArray
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


def node_bandwidth_bytes_s(port_gbit_s: FloatArray, ports: FloatArray, nic_count: FloatArray) -> FloatArray:
    """Per-direction bandwidth of one node, bytes/s."""
    return np.asarray(port_gbit_s, dtype=float) * np.asarray(ports) * np.asarray(nic_count) * 1e9 / 8.0


def wire_demand_s(
    hops: FloatArray, block_size_kib: FloatArray, nodes: FloatArray, node_bandwidth: FloatArray
) -> FloatArray:
    """Network queueing demand per IO, seconds: bytes on the wire / cluster bandwidth."""
    bytes_ = np.asarray(hops, dtype=float) * np.asarray(block_size_kib, dtype=float) * KIB
    return bytes_ / (np.asarray(nodes, dtype=float) * node_bandwidth)
