"""Backend IO per front-end IO for each resiliency, vectorised.

Sources: Microsoft, *Fault tolerance and storage efficiency in Storage Spaces
Direct* (mirror copies, parity layouts) and *Mirror-accelerated parity*
(writes land in the mirror tier and are later rotated into parity in full
stripes). Parity small writes are read-modify-write: read the old data and
the parity columns, write them back (Patterson, Gibson & Katz, *A case for
RAID*, 1988: 4 IOs per small write with one parity, 6 with two).

One node down where the survivors cannot repair (:func:`planner.engine.degraded.degraded_arrays`),
the lost node's drives are not written until it returns (Microsoft, *Understand and monitor storage
resync*: "true for any hyper-converged architecture"): a column of a stripe on it is neither read nor
written, and a read of it is decoded from the surviving columns (Huang et al., *Erasure Coding in
Windows Azure Storage*, USENIX ATC 2012, the Local Reconstruction Codes behind S2D's dual parity: an
offline fragment is reconstructed from k others, from its local group under LRC).

Codes follow :data:`planner.physics.capacity.RESILIENCY_CODES`:
0 mirror-2way, 1 mirror-3way, 2 parity-single, 3 parity-dual,
4 mirror-accelerated-parity, 5 nested-mirror-2way.
"""

from __future__ import annotations

import numpy as np

from planner.core.types import FloatArray
from planner.physics.capacity import dual_parity_efficiency, dual_parity_layout, single_parity_efficiency

#: backend writes per front-end write (on the write's path)
_WRITES = np.array([2.0, 3.0, 2.0, 3.0, 3.0, 4.0])
#: backend reads per front-end write (parity read-modify-write)
_RMW_READS = np.array([0.0, 0.0, 2.0, 3.0, 0.0, 0.0])
#: copies a read can be served from (mirror); parity reads hit one data column
_READ_COPIES = np.array([2.0, 3.0, 1.0, 1.0, 3.0, 4.0])


def backend_writes_per_write(code: FloatArray) -> FloatArray:
    return _WRITES[np.asarray(code)]


def rmw_reads_per_write(code: FloatArray) -> FloatArray:
    return _RMW_READS[np.asarray(code)]


def rotation_per_write(
    code: FloatArray, fault_domains: FloatArray, mirror_share: FloatArray, all_flash: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """Mirror-accelerated parity: bytes read and written in the background per
    front-end byte written, as data rotates from mirror to parity.

    Assumes the share of writes that outlive the mirror tier is
    ``1 - mirror_share`` (hot data stays in mirror); the parity layout is the
    all-flash or hybrid one (``all_flash``, see
    :func:`planner.physics.capacity.dual_parity_layout`). Returns (read, write)
    multipliers of the front-end bytes; zero for other resiliencies.
    """
    code = np.asarray(code)
    eff = dual_parity_efficiency(fault_domains, all_flash)
    rot = np.where(code == 4, 1.0 - np.asarray(mirror_share, dtype=float), 0.0)
    write_mult = np.where(eff > 0, rot / np.where(eff > 0, eff, 1.0), 0.0)
    return rot, write_mult


def local_read_probability(code: FloatArray, volume_servers: FloatArray, mirror_share: FloatArray = 0.2) -> FloatArray:
    """Probability that the node serving a volume's IO holds a copy of the block read.

    S2D reads a mirror from the local copy when that node holds one (Microsoft,
    "Rack-local reads in Storage Spaces Direct", Failover Clustering blog, 2025:
    reads are served locally when a local copy exists; Windows Server 2025
    extends the preference to racks). Each slab's ``c`` copies sit on ``c``
    distinct servers among the ``volume_servers`` the volume spans (every server
    under regular allocation, a subset under delimited allocation), so the serving
    node, itself one of them, holds a copy with P = min(1, c / volume_servers).
    Parity: the data column read is on one of the volume's servers: 1 /
    volume_servers. Nested two-way mirror keeps copies on both nodes: 1.
    Mirror-accelerated parity: the mirror share at the three-way rule, the rest
    at the parity rule.
    """
    code = np.asarray(code)
    s = np.maximum(np.asarray(volume_servers, dtype=float), 1.0)
    mirror_p = np.minimum(1.0, _READ_COPIES[code] / s)
    parity_p = 1.0 / s
    share = np.asarray(mirror_share, dtype=float)
    p = np.where((code == 2) | (code == 3), parity_p, mirror_p)
    return np.where(code == 4, share * np.minimum(1.0, 3.0 / s) + (1 - share) * parity_p, p)


def remote_writes_per_write(code: FloatArray, volume_servers: FloatArray) -> FloatArray:
    """Backend writes (and RMW reads) that cross the network per front-end write.

    Mirror with c copies over the volume's S servers: the serving node holds one
    copy with probability min(1, c / S), so c - min(1, c / S) copies are remote:
    2 for a three-way mirror delimited to 3 servers, 2.75 under regular
    allocation on 12 servers. Nested two-way mirror on two nodes: the two copies
    on the partner. Parity RMW IOs are remote with P = 1 - 1/S.
    """
    code = np.asarray(code)
    s = np.maximum(np.asarray(volume_servers, dtype=float), 1.0)
    c = _WRITES[code]
    mirror_remote = c - np.minimum(1.0, c / s)
    nested_remote = np.full_like(s, 2.0)
    parity_remote = (c + _RMW_READS[code]) * (1.0 - 1.0 / s)
    out = np.where((code == 2) | (code == 3), parity_remote, mirror_remote)
    # one server (Azure Local's single machine): every copy on its own drives
    return np.where(s <= 1.0, 0.0, np.where(code == 5, nested_remote, out))


def decode_columns(code: FloatArray, fault_domains: FloatArray, all_flash: FloatArray) -> FloatArray:
    """Columns read to rebuild one column of the parity stripe a resiliency writes [count].

    Single parity: the k other columns of its k + 1 (k = e / (1 - e) at its efficiency e: 2 on three
    fault domains, 3 from four). Dual parity and mirror-accelerated parity's parity tier: the k of :func:`planner.physics.capacity.dual_parity_layout` (Reed-Solomon), or an LRC's local group,
    k / 2 (Microsoft's LRC (k, 2, 1) keeps two local groups, each with its parity: Huang et al. 2012).
    0 for a mirror, and where the fault domains hold no parity layout.
    """
    code = np.asarray(code)
    fd = np.asarray(fault_domains)
    e = single_parity_efficiency(fd)
    single_k = e / (1.0 - e)
    k, _, lrc = dual_parity_layout(fd, all_flash)
    dual_k = np.where(lrc > 0, k / 2.0, k).astype(float)
    return np.select([code == 2, (code == 3) | (code == 4)], [single_k, dual_k], 0.0)


def surviving_writes(
    writes: FloatArray, remote_writes: FloatArray, lost_share: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """The copies or columns a front-end write makes with one node down, and the network crossings that saves
    [count], vectorised: one rule for every stack (Storage Spaces Direct's mirror copies and parity columns, a Ceph
    placement group's acting set, vSAN's RAID-1 replicas and RAID-5/6 components).

    Parameters
    ----------
    writes : [count] copies, columns or chunks a write makes healthy.
    remote_writes : [count] how many of them cross the network healthy.
    lost_share : [-] the share of them on the lost node that no survivor re-places
        (:func:`planner.engine.degraded.degraded_arrays`; 0 healthy or while a repair re-places them).

    Returns
    -------
    (writes made, crossings saved): ``writes`` x (1 - ``lost_share``), and the lost ones, every one remote (the
    lost node serves no IO), at most the crossings there were.

    References
    ----------
    Microsoft, *Fault tolerance and storage efficiency in Storage Spaces Direct* (a mirror "writes to the available
    copies") and *Understand and monitor storage resync* (the down server's drives "don't get updated until it comes
    back online", "true for any hyper-converged architecture"); Ceph docs, *Placement Group States* ("degraded") and
    *Pools* (``min_size``); Broadcom, *vSAN Management API*, ``VsanComponentStates``: "ABSENT_RESYNC: The component
    is absent, and there are some bytes need to be synced for this component", and ``VsanSyncReason``: "stale: The
    component is syncing because it was stale" (the writes go to the components present; the absent one catches up
    on its host's return).
    """
    lost = np.asarray(writes, dtype=float) * np.asarray(lost_share, dtype=float)
    return np.asarray(writes, dtype=float) - lost, np.minimum(lost, np.asarray(remote_writes, dtype=float))


def degraded_rmw_reads_per_write(code: FloatArray, decode: FloatArray, lost_share: FloatArray) -> FloatArray:
    """Read-modify-write reads per front-end write of a Storage Spaces Direct parity ``code`` when each column of a
    stripe is on a lost node with probability ``lost_share``: :func:`degraded_rmw_reads` with the code's reads and
    parity columns."""
    code = np.asarray(code)
    return degraded_rmw_reads(_RMW_READS[code], np.maximum(_WRITES[code] - 1.0, 0.0), decode, lost_share)


def degraded_rmw_reads(
    rmw_reads: FloatArray, parity_columns: FloatArray, decode: FloatArray, lost_share: FloatArray
) -> FloatArray:
    """Read-modify-write reads per front-end write when each column of a stripe is on a lost node
    with probability ``lost_share`` (module doc), vectorised: one rule for Storage Spaces Direct's parity
    (:func:`degraded_rmw_reads_per_write`) and vSAN OSA's RAID-5/6 (:func:`planner.physics.vsan.layout_terms`).

    A small write of one data column with m (``parity_columns``) parity columns reads the old data and the m
    parities (``rmw_reads``, 1 + m; 0: no read-modify-write, and none one node down). With its own data column lost
    (``lost_share``) the old data is decoded from ``decode`` surviving columns, one parity among them (read once for
    both), and the m - 1 other parities are read: ``decode`` + m - 1. With one of its parity columns lost (m x
    ``lost_share``), that parity is neither read nor written: the old data and the m - 1 other
    parities are read, or nothing when it was the only parity (no parity left to update). A lost
    column the write does not touch changes nothing. Neither Storage Spaces Direct nor vSAN publishes its
    degraded write; this reads what the parity update needs and decodes what it cannot read, the
    rule the module doc cites for reads.
    """
    s = np.asarray(lost_share, dtype=float)
    healthy = np.asarray(rmw_reads, dtype=float)
    m = np.asarray(parity_columns, dtype=float)
    target_lost_reads = np.asarray(decode, dtype=float) + m - 1.0
    parity_lost_reads = np.where(m >= 2, m, 0.0)
    down = healthy * (1.0 - (1.0 + m) * s) + s * target_lost_reads + m * s * parity_lost_reads
    return np.where(healthy > 0, np.maximum(down, 0.0), 0.0)


def reconstruction_reads_per_read(
    code: FloatArray, decode: FloatArray, mirror_share: FloatArray, lost_share: FloatArray
) -> FloatArray:
    """Column reads a front-end read makes beyond its own one, when each column is on a lost node
    with probability ``lost_share`` [count].

    A read of a lost parity column is decoded from ``decode`` surviving columns (module doc): k - 1
    more reads. A mirror reads a surviving copy (none more); mirror-accelerated parity's reads are in
    parity for the share outside the mirror (``1 - mirror_share``, as in :func:`local_read_probability`).
    """
    code = np.asarray(code)
    parity_reads = np.select([(code == 2) | (code == 3), code == 4], [1.0, 1.0 - np.asarray(mirror_share)], 0.0)
    return decoded_reads_per_read(parity_reads, decode, lost_share)


def decoded_reads_per_read(parity_read_share: FloatArray, decode: FloatArray, lost_share: FloatArray) -> FloatArray:
    """Column (chunk) reads a front-end read makes beyond its own one: the share of reads in an erasure-coded
    layout (``parity_read_share``) whose column is on a lost node (``lost_share``) is decoded from ``decode``
    surviving columns, ``decode - 1`` more reads [count]. One rule for Storage Spaces Direct's parity
    (:func:`reconstruction_reads_per_read`) and vSAN's RAID-5/6 (k data components: a read of one on the absent
    host decodes it from k surviving ones; Huang et al. 2012, the module doc).
    """
    more = np.maximum(np.asarray(decode, dtype=float) - 1.0, 0.0)
    return np.asarray(lost_share, dtype=float) * more * np.asarray(parity_read_share, dtype=float)
