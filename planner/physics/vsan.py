"""VMware vSAN: backend IO and network crossings per VM IO, vectorised.

vSAN's performance is **not calibrated** (no published vSAN result with a full
configuration was found: see the docs' Storage stacks page): its reports use the S2D
fit's software costs with vSAN's layouts below, flag the extrapolation and
carry a wide band.

Layouts (VMware vSAN 8.0 administration; D. Epping, *adaptive RAID-5*):

* RAID-1 FTT=f writes f + 1 copies; a read is served by one replica. vSAN has no
  data locality outside stretched clusters (an assumption of this model, not a
  quoted rule): the VM's host serves a read with probability 1 / n, the same as
  any other host, and holds one of the c copies of a write with probability c / n.
* OSA RAID-5/6 (3+1, 4+2): a small write reads and rewrites the data and parity
  chunks (1 + m reads, 1 + m writes).
* ESA RAID-5/6 (2+1, 4+1, 4+2): writes land in a RAID-1 performance leg (m + 1
  copies) and are written as full stripes to the capacity leg in the background
  ((k + m) / k bytes per byte), so no read-modify-write.

One host down with no host to rebuild on, a write goes to the components present, as every stack's does
(:func:`planner.physics.resiliency.surviving_writes`): the absent component is marked stale and resynced when its
host returns (Broadcom, *vSAN Management API*, ``VsanComponentStates`` ABSENT_RESYNC, ``VsanSyncReason`` stale).
"""

from __future__ import annotations

import numpy as np

from planner.core.types import FloatArray
from planner.physics import resiliency


def read_local_probability(nodes: FloatArray, clients_separate: FloatArray) -> FloatArray:
    """Share of reads the VM's own host serves: 1 / n (clients on the storage hosts), 0 (separate)."""
    n = np.maximum(np.asarray(nodes, dtype=float), 1.0)
    return np.where(np.asarray(clients_separate, dtype=bool), 0.0, 1.0 / n)


def remote_share(nodes: FloatArray, clients_separate: FloatArray) -> FloatArray:
    """The share of a vSAN device IO that lands on another host than the IO's own [-]: every one from a separate
    client, ``1 - 1/n`` on a hyperconverged cluster of ``n`` hosts (components spread evenly)."""
    n = np.maximum(np.asarray(nodes, dtype=float), 1.0)
    return np.where(np.asarray(clients_separate, dtype=bool), 1.0, 1.0 - 1.0 / n)


def layout_terms(
    nodes: FloatArray,
    data_chunks: FloatArray,
    width: FloatArray,
    esa: FloatArray,
    clients_separate: FloatArray,
    lost_write_share: FloatArray = 0.0,
) -> tuple[FloatArray, ...]:
    """(read hops, write hops, backend writes, RMW reads, background read, background write) per VM IO.

    Hops are network transfers of the IO's size; backend writes and RMW reads are
    device IOs of the IO's size on the write's path; the background multipliers
    are bytes per front-end byte written (ESA full-stripe writes).

    ``lost_write_share``: one host down and no host to rebuild on, the share of an object's components on the
    absent host [-] (:func:`planner.engine.degraded.degraded_arrays`; 0 healthy or while a rebuild runs). A write
    goes to the components present (:func:`planner.physics.resiliency.surviving_writes`, the rule every stack
    follows): a RAID-1 write makes c (1 - s) replicas, an ESA write its performance leg's and full stripe's
    components present, an OSA RAID-5/6 small write its data and parity components present, with the
    read-modify-write that needs no absent component (:func:`planner.physics.resiliency.degraded_rmw_reads`, a lost
    data component decoded from the k present).
    """
    n = np.maximum(np.asarray(nodes, dtype=float), 1.0)
    k = np.asarray(data_chunks, dtype=float)
    w = np.asarray(width, dtype=float)
    esa = np.asarray(esa, dtype=bool)
    sep = np.asarray(clients_separate, dtype=bool)
    lost = np.asarray(lost_write_share, dtype=float)
    mirror = k <= 1
    m = w - k
    p_local = read_local_probability(n, sep)
    hops_r = 1.0 - p_local
    remote = remote_share(n, sep)
    # RAID-1: c copies; erasure: OSA read-modify-write, ESA a mirrored performance leg
    copies = np.where(mirror, w, np.where(esa, m + 1.0, 1.0 + m))
    rmw = np.where(mirror | esa, 0.0, 1.0 + m)
    mirror_remote = np.where(sep, w, w - np.minimum(1.0, w / n))
    bg_write = np.where(~mirror & esa, w / np.maximum(k, 1.0), 0.0)
    hops_w = np.where(mirror, mirror_remote, (copies + rmw) * remote) + bg_write * remote
    # one host absent, nothing rebuilt: its components are not written, nor read for a parity update
    copies_down, fewer = resiliency.surviving_writes(copies, np.where(mirror, mirror_remote, copies * remote), lost)
    bg_down, fewer_bg = resiliency.surviving_writes(bg_write, bg_write * remote, lost)
    rmw_down = resiliency.degraded_rmw_reads(rmw, m, k, lost)
    hops_w = hops_w - fewer - fewer_bg - (rmw - rmw_down) * remote
    return hops_r, hops_w, copies_down, rmw_down, np.zeros_like(bg_write), bg_down
