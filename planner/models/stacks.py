"""Storage stacks: Storage Spaces Direct, Ceph (RBD) and VMware vSAN.

A design's ``stack`` decides its software (costs, read placement, write path),
the resiliencies it may use and their layouts, its node limits and its capacity
rules. This module holds what the stacks' own documentation says about
resiliency, as data: :func:`layout` turns a resiliency name into the numbers
the physics needs (data and redundancy chunks, fault domains, the failures it
rides through). Every figure carries its source here and on the docs' Storage stacks page.

Sources
-------
[CEPH-POOL]  Ceph docs, *Pool, PG and CRUSH config reference* (nautilus):
             ``osd pool default size = 3``, ``osd pool default min size = 2``;
             the min_size default is ``size - floor(size / 2)`` (ceph/ceph PR 20555,
             "mon/OSDMonitor: fix min_size default for replicated pools").
[CEPH-EC]    Ceph blog, *Tentacle FastEC performance updates* (2025-11-20): "The
             minimum number of OSDs required for an erasure code pool is K+M"
             (in different servers); "a wider erasure code such as 6+2 requires 9
             nodes"; overhead "(K+M / K)".
[RH-EC]      Red Hat Ceph Storage 8, *Erasure code pools overview*: "Red Hat
             recommends min_size for erasure-coded pools to be K+1 or more to
             prevent loss of writes and data."
[VSAN-FTT]   VMware vSAN 8.0 administration, *RAID 5 or RAID 6 erasure coding* and
             *Using vSAN policies* (RAID-1: "for n failures tolerated, n+1 copies ...
             and 2n+1 hosts or fault domains"; RAID-5 3+1 1.33x on four or more
             fault domains, RAID-6 4+2 1.5x on six or more; all-flash only).
[VSAN-ESA]   D. Epping (VMware), *vSAN 8.0 ESA - introducing adaptive RAID-5*
             (https://www.yellow-bricks.com/2022/11/15/vsan-8-0-esa-introducing-adaptive-raid-5/,
             2022-11-15): RAID-5 2+1 on 3-5 hosts (1.5x), 4+1 on six hosts or more
             (1.25x); "If you have 6 hosts and a host fails ... vSAN will automatically
             scale down the RAID-5 configuration from 4+1 to 2+1 after a time period of
             24 hours". A 4+1 object's five components each take their own host, so the
             five survivors of six rebuild a lost host's 4+1 components once the repair
             timer [VSAN-REPAIR] runs out, before that re-layout; RAID-6 4+2 needs six
             hosts for its six components, so seven re-protect a lost one and six cannot
             (D. Epping, *vSAN ESA cluster sizes supported?*, 2022-12-20: "6 components
             in the capacity leg and 7 hosts, which means that if a host fails you still
             have a host available").
[VSAN-SIZE]  D. Epping, *vSAN ESA cluster sizes supported?* (2022-12-20): "as small as
             a 2-node configuration (with a witness), as large as a 64-node configuration".
[S2D-HW]     Microsoft, *Storage Spaces Direct hardware requirements*: "Minimum of two
             servers, maximum of 16 servers".
[CEPH-MON]   Ceph docs, *Adding/Removing Monitors* (rados/operations/add-or-rm-mons):
             "Ceph is able to maintain quorum ... only if a majority of the Monitors are
             active"; "in a two-Monitor deployment, no failures can be tolerated if quorum
             is to be maintained; in a three-Monitor deployment, one failure can be
             tolerated; ... in a five-Monitor deployment, two failures can be tolerated";
             *Troubleshooting Monitors*: "For production clusters with at least five
             available hosts, it is recommended to deploy five Monitors".
[VSAN-PLAN]  VMware vSAN 8.0 planning, *Designing and sizing a vSAN cluster*: "The number
             of hosts required for the cluster is calculated as follows: 2 * FTT + 1";
             three hosts: "When a host fails, vSAN cannot rebuild data on another host".
[VSAN-REPAIR] Broadcom, *vSAN Management API*, ``VsanExtendedConfig.objectRepairTimer``: "delay
             time in minutes for vSAN, to wait for absent component to come back before
             starting repair it ... Default value: 60"; ``VsanObjectHealthState``: "waiting
             for the 60-minute (default) delay timer to expire before issuing the re-protect".
[CEPH-OUT]   Red Hat Ceph Storage, *Configuration guide*, Appendix G (Ceph Monitor and OSD
             configuration options): ``mon_osd_down_out_interval``, "the number of seconds
             Ceph waits before marking a Ceph OSD Daemon down and out if it doesn't
             respond", default 600.
[S2D-STATES] Microsoft, *Troubleshoot Storage Spaces and Storage Spaces Direct health and operational
             states*: a drive "Lost communication": "The drive is missing. If you're using Storage
             Spaces Direct, this could be because a server is down. Action: ... bring all servers back
             online"; a virtual disk "Incomplete": "the missing drives contain up-to-date copies of your
             data"; "Storage Spaces Direct automatically starts a repair if needed after reconnecting or
             replacing a drive".
[S2D-REMOVE] Microsoft, *Remove servers in Storage Spaces Direct*: a server removed but not its drives,
             "the storage pool 'remembers' the missing drives and expects them to come back. There is no
             data movement away from the missing drives" ("Lost Communication"); with
             ``Remove-ClusterNode -CleanUpDisks`` "Windows must move all the data stored on that server to
             other servers in the cluster".
[S2D-RESYNC] Microsoft, *Understand and monitor storage resync*: a down server's drives "don't get updated
             until it comes back online"; dirty region tracking keeps the changes, and "when server #1
             comes back online" they are synced from the other copies.
[S2D-RETIRE] Microsoft (TechNet wiki), *How Storage Spaces responds to errors on physical disks*: the
             pool's RetireMissingPhysicalDisks, Disabled: "wait for either the disk to reconnect or for
             administrative action"; Auto: Enabled only "If the pool has a hot spare"; a retired drive's
             data "will be re-allocated to other drives in the pool as part of a repair operation".
             *Plan volumes*, "Reserve capacity": the reserve lets volumes "repair 'in-place' after drives
             fail" (drives, not a server).
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from planner.core.errors import DesignError
from planner.core.resources import data_path
from planner.core.types import FloatArray

Stack = Literal["s2d", "ceph", "vsan"]
#: how long a stack that rebuilds a lost host's data by itself waits first [h]: vSAN's object repair timer
#: [VSAN-REPAIR], Ceph's down-out interval, after which the host's OSDs are out and backfill starts [CEPH-OUT].
#: "Data fully protected again after 5.1 hours" left out vSAN's hour (Ceph/vSAN walk 2026-11-30). Storage Spaces
#: Direct is not here: it starts no rebuild of a down server's data by itself, so it has no wait to quote (it said
#: 0.0 h, "none modelled", beside "data fully protected again after 6.0 hours"; S2D specialist's audit).
REPAIR_DELAY_HOURS: dict[str, float] = {"vsan": 60 / 60, "ceph": 600 / 3600}
#: the setting each delay is, in the stack's own words
REPAIR_DELAY_SETTING = {"vsan": "vSAN's object repair timer", "ceph": "Ceph's mon_osd_down_out_interval"}
#: when Storage Spaces Direct rebuilds a down server's data onto the survivors, and what it does otherwise
#: [S2D-STATES], [S2D-REMOVE], [S2D-RESYNC], [S2D-RETIRE]: the reserve capacity is for failed drives, not a server
S2D_REBUILD_CONDITION = (
    "only if an administrator retires the down server's drives (Set-PhysicalDisk -Usage Retired, then a repair) "
    "or removes the server with them (Remove-ClusterNode -CleanUpDisks); until then Storage Spaces Direct starts "
    "none by itself: it keeps the drives as 'Lost communication', waits for the server to return and resyncs the "
    "writes it missed"
)
#: what follows a down server's return on Storage Spaces Direct, and that its length is not modelled [S2D-RESYNC]
S2D_RESYNC_ON_RETURN = (
    "when the server returns, Storage Spaces Direct resyncs the writes it missed (dirty region tracking); the "
    "resync's length grows with the time it was down and the write load, and is not modelled"
)


def repair_is_automatic(stack: str) -> bool:
    """Whether ``stack`` rebuilds a lost host's data on the survivors by itself, after its default wait
    (:data:`REPAIR_DELAY_HOURS`): vSAN and Ceph do; Storage Spaces Direct waits for the server or for an
    administrator to retire its drives (:data:`S2D_REBUILD_CONDITION`)."""
    return stack in REPAIR_DELAY_HOURS


def repair_condition(stack: str) -> str:
    """When ``stack`` rebuilds a lost host's data on the survivors, in words, with its source (module doc).

    Parameters
    ----------
    stack : str
        ``s2d``, ``ceph`` or ``vsan``.

    Returns
    -------
    str
        "automatic, after vSAN's object repair timer (60 minutes, its default)" [VSAN-REPAIR], "automatic, after
        Ceph's mon_osd_down_out_interval (10 minutes, its default) marks the host's OSDs out" [CEPH-OUT], or for
        Storage Spaces Direct :data:`S2D_REBUILD_CONDITION` ([S2D-STATES], [S2D-REMOVE]).
    """
    if not repair_is_automatic(stack):
        return S2D_REBUILD_CONDITION
    wait = f"{REPAIR_DELAY_SETTING[stack]} ({REPAIR_DELAY_HOURS[stack] * 60:,.0f} minutes, its default)"
    return f"automatic, after {wait}" + (" marks the host's OSDs out" if stack == "ceph" else "")


STACKS: tuple[str, ...] = ("s2d", "ceph", "vsan")
STACK_CODES = {"s2d": 0, "ceph": 1, "vsan": 2}
#: each stack's name in a sentence (the labels above name Azure Local beside S2D, which a Windows Server cluster
#: is not): one table for the customer's words and the models' messages
STACK_NAMES = {"s2d": "Storage Spaces Direct", "ceph": "Ceph", "vsan": "vSAN"}
STACK_LABELS = {
    "s2d": "Storage Spaces Direct (Azure Local)",
    "ceph": "Ceph RBD",
    "vsan": "VMware vSAN",
}
#: the operating system of a stack's hosts, whose own tool shows how busy the logical processors are
#: (Task Manager, top, esxtop)
HOST_OS = {"s2d": "Windows", "ceph": "Linux", "vsan": "ESXi"}
#: a stack's own names of the engine's stations (:func:`planner.engine.performance.station_words`): a Ceph node's
#: fast devices hold BlueStore's DB and WAL, not a cache ("Bottleneck: cache devices", an S2D term, on a Ceph design;
#: pre-sales Ceph walk 2026-12-03). Here, below the physics, so that the hardware rules name them alike.
STACK_STATION_LABELS: dict[str, dict[str, str]] = {"ceph": {"cache": "DB/WAL devices"}}


def cache_devices_words(stack: str) -> str:
    """A node's fast devices (the design's ``cache_devices``) in its stack's words: "DB/WAL devices" on Ceph
    (:data:`STACK_STATION_LABELS`), "cache devices" elsewhere. The drive-bays rule said "the nvme cache devices have no
    nvme bay" of a Ceph node's DB/WAL devices (pre-sales Ceph walk 2026-12-03)."""
    return STACK_STATION_LABELS.get(stack, {}).get("cache", "cache devices")


#: Servers per cluster. S2D: [S2D-HW]. vSAN: [VSAN-SIZE]. Ceph publishes no
#: maximum (the largest calibration cluster has 63 OSD nodes); 256 is this
#: planner's bound, not Ceph's.
MIN_NODES = {"s2d": 2, "ceph": 1, "vsan": 2}
MAX_NODES = {"s2d": 16, "ceph": 256, "vsan": 64}
MAX_NODES_ANY = max(MAX_NODES.values())


def node_limit_words(stack: str, nodes: float) -> str | None:
    """Why ``nodes`` servers are not a cluster of ``stack``, in the stack's own words, or None when they are.

    One source for the reason: the Design page said "Nodes must be a whole number, 1–16 (you typed 17)" where the
    Compare what-if said "a Storage Spaces Direct cluster has at most 16 servers (got 17)" (what-if call
    2026-11-30). A Storage Spaces Direct design may be one server (a single server, no cluster), so its lower
    bound is not checked here.

    Parameters
    ----------
    stack : str
        ``s2d``, ``ceph`` or ``vsan``.
    nodes : float
        Servers [count].

    Returns
    -------
    str or None
        "a Storage Spaces Direct cluster has at most 16 servers" [S2D-HW], "a vSAN cluster has at least 2
        servers" [VSAN-SIZE], or None.
    """
    name = STACK_NAMES.get(stack, stack)
    if stack in MAX_NODES and nodes > MAX_NODES[stack]:
        return f"a {name} cluster has at most {MAX_NODES[stack]} servers"
    if stack in MIN_NODES and stack != "s2d" and nodes < MIN_NODES[stack]:
        return f"a {name} cluster has at least {MIN_NODES[stack]} server" + ("s" if MIN_NODES[stack] != 1 else "")
    return None


#: [CEPH-MON]: three Monitors keep a quorum through one failure, five through two
CEPH_MIN_MON_HOSTS, CEPH_MAX_MONS = 3, 5

#: Ceph releases the design may name; the calibration says which were measured.
CephRelease = Literal["pacific", "quincy", "reef", "squid", "tentacle"]
CEPH_RELEASES: tuple[str, ...] = ("pacific", "quincy", "reef", "squid", "tentacle")
#: the releases the Ceph calibration measured (its domain's ``ceph_release``); every other one takes the costs of
#: :data:`CEPH_BORROWED_FROM` (:func:`planner.physics.ceph.release_write_factor` gives only Pacific and Quincy
#: factors of their own, Reef's being 1)
CEPH_MEASURED_RELEASES: tuple[str, ...] = ("pacific", "quincy", "reef")
CEPH_BORROWED_FROM = "reef"


def _release_measured_words(release: str) -> str:
    """Whether the calibration measured ``release``, in the words the note and the name share."""
    if release in CEPH_MEASURED_RELEASES:
        return "measured in the calibration data"
    return f"never measured in the calibration data: {CEPH_BORROWED_FROM.capitalize()}'s costs are used"


def ceph_release_note(release: str) -> str | None:
    """Why a Ceph release's figures are another's, or None for a measured one: the report's note, the Design
    page's help and the summaries say it in these words (one rule; the app had no way to change the release and no
    page named it, pre-sales Ceph walk 2026-12-03)."""
    if release in CEPH_MEASURED_RELEASES:
        return None
    return f"Ceph {release.capitalize()} was {_release_measured_words(release)}"


def ceph_release_words(release: str) -> str:
    """A Ceph design's release as the pages and the proposal name it: "Ceph Reef (measured in the calibration
    data)", or "Ceph Squid (never measured in the calibration data: Reef's costs are used)"."""
    return f"Ceph {release.capitalize()} ({_release_measured_words(release)})"


def ceph_release_help() -> str:
    """Which releases the calibration measured and which take another's costs, for the Design page's select."""
    measured = ", ".join(r.capitalize() for r in CEPH_MEASURED_RELEASES)
    borrowed = [r for r in CEPH_RELEASES if r not in CEPH_MEASURED_RELEASES]
    return f"ceph.release. Measured in the calibration data: {measured} (each its own OSD write costs). " + (
        f"{' and '.join(r.capitalize() for r in borrowed)} were never measured: "
        f"{CEPH_BORROWED_FROM.capitalize()}'s costs are used, and the report says so."
        if borrowed
        else ""
    )


#: vSAN architectures: Express Storage Architecture (no cache tier) or Original.
VsanArchitecture = Literal["esa", "osa"]

#: Ceph resiliency names: replicated pools of size n, erasure-coded pools k+m.
CEPH_REPLICA = re.compile(r"^replica-([1-9])$")
CEPH_EC = re.compile(r"^ec-([1-9][0-9]?)\+([1-9])$")
CEPH_EXAMPLES = ("replica-2", "replica-3", "replica-4", "ec-2+1", "ec-2+2", "ec-4+2", "ec-6+2", "ec-8+3")
S2D_RESILIENCIES = (
    "mirror-2way",
    "mirror-3way",
    "parity-single",
    "parity-dual",
    "mirror-accelerated-parity",
    "nested-mirror-2way",
)
VSAN_RESILIENCIES = ("raid1-ftt1", "raid1-ftt2", "raid1-ftt3", "raid5", "raid6")
#: resiliency with the same protection on each stack (used when a design
#: switches stack and names no resiliency of the new one)
EQUIVALENT = {
    "mirror-2way": {"ceph": "replica-2", "vsan": "raid1-ftt1"},
    "mirror-3way": {"ceph": "replica-3", "vsan": "raid1-ftt2"},
    "nested-mirror-2way": {"ceph": "replica-4", "vsan": "raid1-ftt3"},
    "parity-single": {"ceph": "ec-2+1", "vsan": "raid5"},
    "parity-dual": {"ceph": "ec-4+2", "vsan": "raid6"},
    "mirror-accelerated-parity": {"ceph": "ec-4+2", "vsan": "raid6"},
    "replica-2": {"s2d": "mirror-2way", "vsan": "raid1-ftt1"},
    "replica-3": {"s2d": "mirror-3way", "vsan": "raid1-ftt2"},
    "replica-4": {"s2d": "mirror-3way", "vsan": "raid1-ftt3"},
    "raid1-ftt1": {"s2d": "mirror-2way", "ceph": "replica-2"},
    "raid1-ftt2": {"s2d": "mirror-3way", "ceph": "replica-3"},
    "raid1-ftt3": {"s2d": "mirror-3way", "ceph": "replica-4"},
    "raid5": {"s2d": "parity-single", "ceph": "ec-2+1"},
    "raid6": {"s2d": "parity-dual", "ceph": "ec-4+2"},
}
DEFAULT_RESILIENCY = {"s2d": "mirror-3way", "ceph": "replica-3", "vsan": "raid1-ftt1"}
#: the largest erasure code the planner takes (k data, m coding chunks)
MAX_EC_K, MAX_EC_M = 16, 4
MAX_REPLICAS = 6


@dataclass(frozen=True)
class Layout:
    """How one resiliency lays data out on a stack.

    ``data`` and ``redundancy``: a stripe of ``data`` chunks plus ``redundancy``
    coding chunks (a replicated / mirrored layout is 1 + copies - 1); raw /
    usable = (data + redundancy) / data. ``min_fault_domains``: the fewest fault
    domains that hold one stripe; ``repair_fault_domains``: the fewest that can
    re-protect after losing one. ``online_failures``: fault domains that may fail
    with IO continuing (Ceph: size - min_size); ``safe_failures``: without data loss.
    """

    stack: str
    name: str
    kind: Literal["mirror", "erasure"]
    data: int
    redundancy: int
    min_fault_domains: int
    repair_fault_domains: int
    online_failures: int
    safe_failures: int
    min_size: int | None = None
    note: str = ""

    @property
    def width(self) -> int:
        return self.data + self.redundancy

    @property
    def efficiency(self) -> float:
        """usable / raw of the layout alone."""
        return self.data / self.width

    @property
    def copies(self) -> int:
        """Copies of each block for a mirror, 1 for an erasure code."""
        return self.width if self.kind == "mirror" else 1


def resiliencies(stack: str) -> tuple[str, ...]:
    """The resiliency names a UI offers for ``stack`` (Ceph accepts any ec-k+m too)."""
    if stack == "ceph":
        return CEPH_EXAMPLES
    if stack == "vsan":
        return VSAN_RESILIENCIES
    return S2D_RESILIENCIES


def ceph_monitors(fault_domains: FloatArray) -> FloatArray:
    """Monitors of a Ceph cluster ([CEPH-MON]): one per failure domain (a domain's loss takes
    its Monitor with it), an odd number from three, at most five: 1, 2, 3, 3, 5, 5, ..."""
    fd = np.asarray(fault_domains)
    return np.where(fd >= CEPH_MAX_MONS, CEPH_MAX_MONS, np.where(fd >= CEPH_MIN_MON_HOSTS, CEPH_MIN_MON_HOSTS, fd))


def ceph_monitor_failures(fault_domains: FloatArray) -> FloatArray:
    """Failure domains that may fail with the Monitors keeping a majority ([CEPH-MON]):
    none on one or two hosts (two Monitors need both), one from three, two from five."""
    return (ceph_monitors(fault_domains) - 1) // 2


def ceph_min_size_default(kind: str, data: int, redundancy: int) -> int:
    """[CEPH-POOL] replicated: size - floor(size / 2); [RH-EC] erasure: k + 1."""
    if kind == "mirror":
        size = data + redundancy
        return size - size // 2
    return data + 1


def ceph_layout(name: str, min_size: int | None = None) -> Layout:
    """A Ceph pool from its name: ``replica-n`` or ``ec-k+m`` (see module sources)."""
    m = CEPH_REPLICA.match(name)
    if m:
        size = int(m.group(1))
        if not 1 <= size <= MAX_REPLICAS:
            raise DesignError(f"replicated pool size {size} is outside 1..{MAX_REPLICAS}", "resiliency")
        ms = ceph_min_size_default("mirror", 1, size - 1) if min_size is None else min_size
        if not 1 <= ms <= size:
            raise DesignError(f"min_size {ms} must be 1..{size} for a pool of size {size}", "ceph.min_size")
        return Layout(
            "ceph",
            name,
            "mirror",
            1,
            size - 1,
            min_fault_domains=size,
            repair_fault_domains=size + 1,
            online_failures=size - ms,
            safe_failures=size - 1,
            min_size=ms,
            note=f"{size} cop{'y' if size == 1 else 'ies'} on {size} host{'' if size == 1 else 's'} (CRUSH host failure "
            f"domain), min_size {ms}",
        )
    m = CEPH_EC.match(name)
    if m:
        k, mm = int(m.group(1)), int(m.group(2))
        if not (2 <= k <= MAX_EC_K and 1 <= mm <= MAX_EC_M):
            raise DesignError(
                f"erasure code {k}+{mm}: k must be 2..{MAX_EC_K} and m 1..{MAX_EC_M}",
                "resiliency",
            )
        ms = ceph_min_size_default("erasure", k, mm) if min_size is None else min_size
        if not k <= ms <= k + mm:
            raise DesignError(f"min_size {ms} must be k..k+m ({k}..{k + mm}) for ec-{k}+{mm}", "ceph.min_size")
        return Layout(
            "ceph",
            name,
            "erasure",
            k,
            mm,
            min_fault_domains=k + mm,
            repair_fault_domains=k + mm + 1,
            online_failures=k + mm - ms,
            safe_failures=mm,
            min_size=ms,
            note=f"{k} data + {mm} coding chunks on {k + mm} hosts, min_size {ms}",
        )
    raise DesignError(
        f"{name!r} is not a Ceph pool; use replica-n (n 1..{MAX_REPLICAS}) or ec-k+m (e.g. {', '.join(CEPH_EXAMPLES)})",
        "resiliency",
    )


def vsan_layout(name: str, nodes: int, architecture: str = "esa") -> Layout:
    """A vSAN storage policy's layout on ``nodes`` hosts ([VSAN-FTT], [VSAN-ESA])."""
    if name.startswith("raid1-ftt"):
        f = int(name[-1])
        # [VSAN-PLAN] 2 x FTT + 1 hosts: the f + 1 copies and f witness components each on its own host; only a
        # 2-node cluster holds FTT=1 on two, its witness on a witness host outside the cluster. A host lost from
        # three leaves two: the objects stay accessible but nothing is rebuilt (the planning guide)
        witness_host = f == 1 and nodes == 2
        return Layout(
            "vsan",
            name,
            "mirror",
            1,
            f,
            min_fault_domains=2 if witness_host else 2 * f + 1,
            repair_fault_domains=2 * f + 2,
            online_failures=f,
            safe_failures=f,
            note=f"RAID-1 ({f + 1} copies, FTT={f})" + (", a witness host outside the 2 nodes" if witness_host else ""),
        )
    if name == "raid5":
        if architecture == "osa":
            return Layout("vsan", name, "erasure", 3, 1, 4, 5, 1, 1, note="OSA RAID-5 (3+1), all-flash")
        if nodes >= 6:
            wide = "ESA adaptive RAID-5 (4+1) on 6 hosts or fault domains or more"
            return Layout("vsan", name, "erasure", 4, 1, 3, 4, 1, 1, note=wide)
        narrow = "ESA adaptive RAID-5 (2+1) on 3-5 hosts or fault domains"
        return Layout("vsan", name, "erasure", 2, 1, 3, 4, 1, 1, note=narrow)
    if name == "raid6":
        return Layout("vsan", name, "erasure", 4, 2, 6, 7, 2, 2, note="RAID-6 (4+2)")
    raise DesignError(f"{name!r} is not a vSAN policy; one of {', '.join(VSAN_RESILIENCIES)}", "resiliency")


def check_resiliency_name(stack: str, name: str) -> None:
    """Raise a DesignError naming ``resiliency`` when ``name`` is not one of ``stack``'s."""
    if stack == "ceph":
        ceph_layout(name)
    elif stack == "vsan":
        if name not in VSAN_RESILIENCIES:
            raise DesignError(f"{name!r} is not a vSAN policy; one of {', '.join(VSAN_RESILIENCIES)}", "resiliency")
    elif name not in S2D_RESILIENCIES:
        raise DesignError(
            f"{name!r} is not a Storage Spaces Direct resiliency; one of {', '.join(S2D_RESILIENCIES)}",
            "resiliency",
        )


def layout(stack: str, name: str, nodes: int, vsan_architecture: str = "esa", min_size: int | None = None) -> Layout:
    """The layout of ``name`` on ``stack`` (Ceph and vSAN; S2D keeps its own tables)."""
    if stack == "ceph":
        return ceph_layout(name, min_size)
    if stack == "vsan":
        return vsan_layout(name, nodes, vsan_architecture)
    raise DesignError(f"stack {stack!r} has no layout table here", "stack")


def equivalent_resiliency(name: str, stack: str, nodes: int | None = None) -> str:
    """The resiliency of ``stack`` with the protection ``name`` has (:data:`EQUIVALENT`),
    or the stack's default when that one needs more hosts than ``nodes``."""
    cand = EQUIVALENT.get(name, {}).get(stack, DEFAULT_RESILIENCY[stack])
    if nodes is None or stack == "s2d":
        return cand
    try:
        if layout(stack, cand, nodes).min_fault_domains <= nodes:
            return cand
    except DesignError:
        pass
    return DEFAULT_RESILIENCY[stack]


#: the measured Ceph recovery rates, with their configuration and source (:func:`ceph_recovery_mib_s_per_osd`)
CEPH_RECOVERY_FILE = data_path("ceph-recovery.json")


@functools.cache
def ceph_recovery() -> dict[str, Any]:
    """``planner/data/ceph-recovery.json``: Ceph's backfill rate into one OSD as its docs' mClock study measured
    it, per device and scheduler profile, with the configuration it was measured in."""
    data: dict[str, Any] = json.loads(CEPH_RECOVERY_FILE.read_text(encoding="utf-8"))
    return data


#: the balancer's and the autoscaler's defaults, with their sources (:func:`ceph_fullest_osd_factor`)
CEPH_BALANCER_FILE = data_path("ceph-balancer.json")


@functools.cache
def ceph_balancer() -> dict[str, Any]:
    """``planner/data/ceph-balancer.json``: the upmap balancer's default ``upmap_max_deviation`` [PGs] and the
    autoscaler's default ``mon_target_pg_per_osd`` [PGs], each with its source."""
    data: dict[str, Any] = json.loads(CEPH_BALANCER_FILE.read_text(encoding="utf-8"))
    return data


def ceph_fullest_osd_factor() -> float:
    """The fullest OSD's fill over the mean [-]: 1 + upmap_max_deviation / mon_target_pg_per_osd (1.05 with Ceph's
    defaults, 5 PGs over 100). The balancer stops once every OSD is within that many PGs of the mean."""
    data = ceph_balancer()
    return 1.0 + float(data["upmap_max_deviation_pgs"]) / float(data["mon_target_pg_per_osd"])


def ceph_recovery_share() -> float:
    """The share of an OSD's capacity Ceph's default mClock profile (``balanced``) reserves for background
    recovery [-]: 0.5, as much as for client IO (``planner/data/ceph-recovery.json``, ``recovery_reservation``:
    Ceph docs, *mClock Config Reference*, Reef and Squid). The most a recovery takes of the survivors' drive and
    network bandwidth with one host down (:mod:`planner.engine.degraded`)."""
    data = ceph_recovery()
    return float(data["recovery_reservation"][data["used"]])


def ceph_recovery_mib_s_per_osd(media: str) -> float:
    """Ceph's backfill rate into one OSD [MiB/s] under the profile the file uses (Ceph's default mClock profile,
    ``balanced``) on ``media`` ("ssd": the study's NVMe, or "hdd"). Measured with backfill limits raised above their
    defaults: an upper bound of the default's rate (the file's ``used_note``)."""
    data = ceph_recovery()
    return float(data["recovery_mib_s_per_osd"][media][data["used"]])
