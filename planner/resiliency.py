"""Backend IO per front-end IO for each resiliency, vectorised.

Sources: Microsoft, *Fault tolerance and storage efficiency in Storage Spaces
Direct* (mirror copies, parity layouts) and *Mirror-accelerated parity*
(writes land in the mirror tier and are later rotated into parity in full
stripes). Parity small writes are read-modify-write: read the old data and
the parity columns, write them back (Patterson, Gibson & Katz, *A case for
RAID*, 1988: 4 IOs per small write with one parity, 6 with two).

Codes follow :data:`planner.capacity.RESILIENCY_CODES`:
0 mirror-2way, 1 mirror-3way, 2 parity-single, 3 parity-dual,
4 mirror-accelerated-parity, 5 nested-mirror-2way.
"""
from __future__ import annotations

import numpy as np

from planner.capacity import dual_parity_efficiency

#: backend writes per front-end write (on the write's path)
_WRITES = np.array([2.0, 3.0, 2.0, 3.0, 3.0, 4.0])
#: backend reads per front-end write (parity read-modify-write)
_RMW_READS = np.array([0.0, 0.0, 2.0, 3.0, 0.0, 0.0])
#: copies a read can be served from (mirror); parity reads hit one data column
_READ_COPIES = np.array([2.0, 3.0, 1.0, 1.0, 3.0, 4.0])


def backend_writes_per_write(code):
    return _WRITES[np.asarray(code)]


def rmw_reads_per_write(code):
    return _RMW_READS[np.asarray(code)]


def rotation_per_write(code, fault_domains, mirror_share):
    """Mirror-accelerated parity: bytes read and written in the background per
    front-end byte written, as data rotates from mirror to parity.

    Assumes the share of writes that outlive the mirror tier is
    ``1 - mirror_share`` (hot data stays in mirror). Returns (read, write)
    multipliers of the front-end bytes; zero for other resiliencies.
    """
    code = np.asarray(code)
    eff = dual_parity_efficiency(fault_domains, True)
    rot = np.where(code == 4, 1.0 - np.asarray(mirror_share, dtype=float), 0.0)
    write_mult = np.where(eff > 0, rot / np.where(eff > 0, eff, 1.0), 0.0)
    return rot, write_mult


def local_read_probability(code, nodes, mirror_share=0.2):
    """Probability that the node owning a volume holds a copy of the block read.

    Mirror: each node holds at most one copy, placed on ``copies`` of ``nodes``
    fault domains, so P = min(1, copies / nodes). Parity: the data column is on
    one node: 1 / nodes. Nested mirror keeps copies on both nodes: 1.
    """
    code = np.asarray(code)
    n = np.asarray(nodes, dtype=float)
    mirror_p = np.minimum(1.0, _READ_COPIES[code] / n)
    parity_p = 1.0 / n
    share = np.asarray(mirror_share, dtype=float)
    p = np.where((code == 2) | (code == 3), parity_p, mirror_p)
    return np.where(code == 4, share * np.minimum(1.0, 3.0 / n) + (1 - share) * parity_p, p)


def remote_writes_per_write(code, nodes):
    """Backend writes (and RMW reads) that cross the network per front-end write.

    Mirror with c copies on n nodes: the owner holds a copy with probability
    c / n, so c - c/n copies are remote. Nested two-way mirror on two nodes:
    two copies on the partner. Parity RMW IOs are remote with P = 1 - 1/n.
    """
    code = np.asarray(code)
    n = np.asarray(nodes, dtype=float)
    c = _WRITES[code]
    mirror_remote = c * (1.0 - 1.0 / np.maximum(n, 1.0))
    nested_remote = np.full_like(n, 2.0)
    parity_remote = (c + _RMW_READS[code]) * (1.0 - 1.0 / np.maximum(n, 1.0))
    out = np.where((code == 2) | (code == 3), parity_remote, mirror_remote)
    return np.where(code == 5, nested_remote, out)
