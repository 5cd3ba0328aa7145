"""Degraded mode: one node lost, its VMs restarted on the survivors, repair traffic.

* Performance: the same VMs run on N-1 nodes; while data resyncs, repair takes
  ``repair_share`` of the survivors' drive and network capacity.
* Repair time: the lost node's share of the footprint (used data x copies / N)
  divided by the repair bandwidth, the smaller of ``repair_share`` x the
  survivors' drive write bandwidth and ``repair_share`` x their network
  bandwidth.

``repair_share`` is an assumption the user sets (default 0.25): Storage Spaces
Direct does not publish the share of bandwidth its repair jobs take.
"""
from __future__ import annotations

import numpy as np

from planner.performance import DesignArrays, WorkloadArrays

DEFAULT_REPAIR_SHARE = 0.25


def degraded_arrays(D: DesignArrays, W: WorkloadArrays, repair_share: float = DEFAULT_REPAIR_SHARE):
    """Design/workload arrays for the cluster with one node down, repair running."""
    keep = 1.0 - repair_share
    n = D.nodes
    Dd = D.replace(
        nodes=np.maximum(n - 1, 1),
        fault_domains=np.maximum(D.fault_domains - 1, 1),
        drive_read_iops=D.drive_read_iops * keep,
        drive_write_iops=D.drive_write_iops * keep,
        drive_read_mb_s=D.drive_read_mb_s * keep,
        drive_write_mb_s=D.drive_write_mb_s * keep,
        node_bandwidth_bytes_s=D.node_bandwidth_bytes_s * keep,
    )
    return Dd, W


def repair_time_hours(used_footprint_tb, nodes, drives_per_node, drive_write_mb_s,
                      node_bandwidth_bytes_s, repair_share: float = DEFAULT_REPAIR_SHARE):
    n = np.asarray(nodes, dtype=float)
    data_bytes = np.asarray(used_footprint_tb, dtype=float) / n * 1e12
    survivors = np.maximum(n - 1, 1)
    drive_bw = survivors * np.asarray(drives_per_node) * np.asarray(drive_write_mb_s) * 1e6
    net_bw = survivors * np.asarray(node_bandwidth_bytes_s)
    bw = repair_share * np.minimum(drive_bw, net_bw)
    return data_bytes / bw / 3600.0
