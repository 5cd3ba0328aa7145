"""Ceph (RBD on BlueStore OSDs): what one client IO costs, vectorised.

The IO path (Ceph architecture docs; Ceph blog, *A Journey to 1 TiB/s*, 2024):

* A client (librbd in QEMU or fio, or the kernel rbd driver) maps each object
  to a placement group and sends the IO to the group's **primary OSD**; primaries
  spread evenly over the OSDs, so with the client on one of ``n`` storage hosts
  the primary is local for 1 / n of the IOs (never, with clients on their own
  servers). Reads are served by the primary alone, not by a local copy.
* A replicated write goes to the primary, which sends it to the ``size - 1``
  replicas and answers once all have committed. Each OSD writes the data
  (BlueStore allocates new space for it) and a RocksDB transaction with the
  metadata (WAL on the same device, or on a DB/WAL device when there is one).
* An erasure-coded pool k+m reads every data chunk of the stripe (the 1 TiB/s
  post: "the primary must read 5 of the 6 chunks from replicas" for 6+2); a
  write smaller than a stripe (k x the 4 KiB stripe unit) reads the stripe and
  rewrites all k + m chunks (classic EC read-modify-write), a full-stripe write
  writes k + m chunks of bs / k (the post: "we only need to send 7/8 chunks to
  the secondaries").

Every message, local or remote, passes the TCP messenger, so its CPU is part
of each operation's cost; crossings cost link bandwidth and latency.
"""

from __future__ import annotations

import numpy as np

from planner.core.types import FloatArray
from planner.models.params import CephParams
from planner.physics import cpu as cpu_mod

#: the classic erasure-code stripe unit (chunk) size, KiB (Ceph's default stripe_unit 4K)
EC_STRIPE_UNIT_KIB = 4.0

#: an RBD image's object size [KiB]: 4 MiB, RBD's default (Ceph docs, *rbd* manual, ``--object-size``: "Specifies
#: the object size in B/K/M ... The default is 4 MB"); recovery re-protects whole objects, an operation per object
RBD_OBJECT_KIB = 4096.0

#: CPU threads per OSD, (minimum, recommended), by media (Ceph docs, *Hardware Recommendations*, summary table:
#: "1 min, 3 recommended threads per HDD OSD. 4, 6 respectively for NVMe SSD OSDs"; a SATA/SAS SSD OSD is held
#: to the NVMe figures)
CEPH_THREADS_PER_OSD = {"nvme": (4, 6), "ssd": (4, 6), "hdd": (1, 3)}


def primary_local_probability(nodes: FloatArray, clients_separate: FloatArray) -> FloatArray:
    """Share of IOs whose primary OSD is on the client's own host: 1 / n for a
    client on one of n storage hosts, 0 for clients on their own servers."""
    n = np.maximum(np.asarray(nodes, dtype=float), 1.0)
    return np.where(np.asarray(clients_separate, dtype=bool), 0.0, 1.0 / n)


def chunk_kib(block_size_kib: FloatArray, data_chunks: FloatArray) -> FloatArray:
    """Bytes each shard of a stripe moves per IO, KiB: the IO split over k data
    chunks, at least one stripe unit; a replicated pool (k = 1) moves the IO whole."""
    b = np.asarray(block_size_kib, dtype=float)
    k = np.asarray(data_chunks, dtype=float)
    return np.where(k > 1, np.maximum(b / k, EC_STRIPE_UNIT_KIB), b)


def partial_stripe(block_size_kib: FloatArray, data_chunks: FloatArray) -> FloatArray:
    """An erasure-coded write smaller than a stripe (k x stripe unit): read-modify-write."""
    b = np.asarray(block_size_kib, dtype=float)
    k = np.asarray(data_chunks, dtype=float)
    return (k > 1) & (b < k * EC_STRIPE_UNIT_KIB - 1e-9)


def read_ops(data_chunks: FloatArray) -> FloatArray:
    """OSD reads per client read: the primary's, plus k - 1 shard reads for an erasure code."""
    return np.asarray(data_chunks, dtype=float)


def write_ops(data_chunks: FloatArray, width: FloatArray) -> FloatArray:
    """OSD writes per client write: one per replica (size), or one per shard (k + m)."""
    return np.broadcast_to(np.asarray(width, dtype=float), np.broadcast(data_chunks, width).shape)


def rmw_reads(block_size_kib: FloatArray, data_chunks: FloatArray) -> FloatArray:
    """Shard reads per client write: the whole stripe (k chunks) for a partial-stripe
    erasure-coded write, none otherwise."""
    return np.where(partial_stripe(block_size_kib, data_chunks), np.asarray(data_chunks, dtype=float), 0.0)


def client_bytes_kib(block_size_kib: FloatArray, p_local: FloatArray) -> FloatArray:
    """KiB crossing between client and primary per IO (the data, one way)."""
    return np.asarray(block_size_kib, dtype=float) * (1.0 - np.asarray(p_local, dtype=float))


def cluster_read_kib(block_size_kib: FloatArray, data_chunks: FloatArray) -> FloatArray:
    """KiB moved between OSDs per client read: k - 1 shards to the primary."""
    k = np.asarray(data_chunks, dtype=float)
    return (k - 1.0) * chunk_kib(block_size_kib, data_chunks)


def cluster_write_kib(block_size_kib: FloatArray, data_chunks: FloatArray, width: FloatArray) -> FloatArray:
    """KiB moved between OSDs per client write: the primary sends a copy to each
    other replica, or a chunk to each other shard (after reading the stripe's
    other k - 1 chunks for a partial-stripe write)."""
    c = chunk_kib(block_size_kib, data_chunks)
    k = np.asarray(data_chunks, dtype=float)
    w = np.asarray(width, dtype=float)
    rmw = np.where(partial_stripe(block_size_kib, data_chunks), k - 1.0, 0.0)
    return (w - 1.0) * c + rmw * c


def release_write_factor(release_code: FloatArray, tuned: FloatArray, p: CephParams) -> FloatArray:
    """OSD write CPU relative to Reef's default: the release (Pacific, Quincy) and
    the 2022 RocksDB tuning (Ceph blog, *RocksDB Tuning Deep-Dive*). Releases the
    data never measured (Squid, Tentacle) take Reef's (flagged by the report)."""
    code = np.asarray(release_code)
    rel = np.where(
        code == 0,
        p.release_write_factor_pacific,
        np.where(code == 1, p.release_write_factor_quincy, 1.0),
    )
    return rel * np.where(np.asarray(tuned, dtype=bool), p.rocksdb_tuned_write_factor, 1.0)


def osd_threads_held(threads: FloatArray, osds: FloatArray, hdd: FloatArray) -> FloatArray:
    """Logical processors a hyperconverged Ceph node holds back from its guest VMs for its OSDs [count].

    Parameters
    ----------
    threads : [count] the node's logical processors.
    osds : [count] OSDs on the node.
    hdd : whether the OSDs are on hard disks (3 threads each recommended) rather than flash (6).

    Returns
    -------
    The recommended threads per OSD (:data:`CEPH_THREADS_PER_OSD`) x the OSDs, at most the node's threads. The
    guests' vCPUs are sold on what is left (:func:`planner.physics.hosting.guest_threads`), and the rule on the
    OSDs' threads judges what is held here: the two never count the same thread (a 96-thread node of five NVMe
    OSDs sold 384 vCPUs, 96 x 4, to its guests while the thread rule passed its OSDs 19.2 threads each; Ceph
    architect's walk 2026-12-01).

    References
    ----------
    Ceph docs, *Hardware Recommendations*, CPU: the threads per OSD above, and "consider whether the host machine
    will run CPU-intensive processes in addition to Ceph daemons"; Red Hat OpenStack Platform 13, *Network Functions
    Virtualization Planning and Configuration Guide*, hyperconverged Ceph example (OSD CPUs pinned apart from the
    VMs' with ``ceph_osd_docker_cpuset_cpus``, "3 OSDs * 4 vCPUs per SSD = 12 vCPUs").
    """
    rec = np.where(np.asarray(hdd, dtype=bool), CEPH_THREADS_PER_OSD["hdd"][1], CEPH_THREADS_PER_OSD["nvme"][1]).astype(
        float
    )
    return np.minimum(np.asarray(osds, dtype=float) * rec, np.asarray(threads, dtype=float))


def recovery_cpu_lps(
    rate_bytes_s: FloatArray,
    data_chunks: FloatArray,
    write_factor: FloatArray,
    clock_scale: FloatArray,
    p: CephParams,
) -> FloatArray:
    """Logical processors the OSDs keep busy re-protecting data at ``rate_bytes_s`` [LP], vectorised.

    Parameters
    ----------
    rate_bytes_s : [B/s] the bytes recovery writes (rebuilt copies or chunks).
    data_chunks : k, the chunks read for each one rebuilt (1 for a replica).
    write_factor : [-] the OSD write CPU of the release and RocksDB tuning (:func:`release_write_factor`).
    clock_scale : [-] the OSDs' CPU clock against the reference (:func:`planner.physics.cpu.clock_scale`).
    p : the Ceph parameters (the fit's OSD CPU per operation and per KiB).

    Returns
    -------
    The OSD CPU of recovery's IO, costed as client IO's is (the fit's ``osd_write_cpu_us``,
    ``osd_cpu_per_kib_write_us``, ``osd_read_cpu_us``, ``osd_cpu_per_kib_read_us``): each rebuilt byte is written
    once and read k times, in operations of one RBD object (:data:`RBD_OBJECT_KIB`).
    """
    k = np.asarray(data_chunks, dtype=float)
    wf = np.asarray(write_factor, dtype=float)
    per_kib = p.osd_cpu_per_kib_write_us * wf + k * p.osd_cpu_per_kib_read_us
    per_object = p.osd_write_cpu_us * wf + k * p.osd_read_cpu_us
    # every stack's repair CPU is its IOs per second times their CPU each (cpu.repair_cpu_lps)
    return cpu_mod.repair_cpu_lps(rate_bytes_s, RBD_OBJECT_KIB, per_object + RBD_OBJECT_KIB * per_kib, clock_scale)


def osd_memory_gb(osds: FloatArray, osd_memory_target_gb: FloatArray) -> FloatArray:
    """RAM the OSDs of one node need, GB: Ceph docs, *Hardware recommendations*:
    total RAM greater than OSDs x osd_memory_target x 2 ("allows for usage by the
    OS and by other Ceph daemons")."""
    return np.asarray(osds, dtype=float) * np.asarray(osd_memory_target_gb, dtype=float) * 2.0
