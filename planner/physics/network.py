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

from planner.physics.resiliency import local_read_probability, remote_writes_per_write

KIB = 1024.0


def read_hops(code, volume_servers, alignment, mirror_share=0.2):
    """Network crossings per front-end read: the redirect of a misaligned VM's
    IO to the volume's owner, plus the read of a copy the owner does not hold."""
    a = np.asarray(alignment, dtype=float)
    return (1.0 - a) + (1.0 - local_read_probability(code, volume_servers, mirror_share))


def write_hops(code, volume_servers, alignment):
    """Network transfers per front-end write (the redirect, then each remote copy)."""
    a = np.asarray(alignment, dtype=float)
    return (1.0 - a) + remote_writes_per_write(code, volume_servers)


def node_bandwidth_bytes_s(port_gbit_s, ports, nic_count):
    """Per-direction bandwidth of one node, bytes/s."""
    return np.asarray(port_gbit_s, dtype=float) * np.asarray(ports) * np.asarray(nic_count) * 1e9 / 8.0


def wire_demand_s(hops, block_size_kib, nodes, node_bandwidth):
    """Network queueing demand per IO, seconds: bytes on the wire / cluster bandwidth."""
    bytes_ = np.asarray(hops, dtype=float) * np.asarray(block_size_kib, dtype=float) * KIB
    return bytes_ / (np.asarray(nodes, dtype=float) * node_bandwidth)
