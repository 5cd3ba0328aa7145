"""Designs, parts and their settings in a customer's words: catalog ids as part names, resiliency,
transport and cache-mode ids as words, a design of any architecture in one line. The lowest of the
sizing layer's word modules (:mod:`planner.sizing.document` and :mod:`planner.sizing.words` build on
it); the exports keep the ids.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from planner.core.text import count
from planner.models.stacks import STACK_NAMES, VSAN_RESILIENCIES, vsan_layout
from planner.results.calibrated_domain import shown_value

#: resiliency ids as a sentence says them
RESILIENCY_SHORT = {
    "nested-mirror-2way": "nested two-way mirror",
    "mirror-accelerated-parity": "mirror-accelerated parity",
    "mirror-2way": "two-way mirror",
    "mirror-3way": "three-way mirror",
    "parity-single": "single parity",
    "parity-dual": "dual parity",
}


@functools.cache
def _part_names() -> tuple[dict[str, str], re.Pattern | None]:
    """Every catalog part id -> its 'Vendor model' name, and a pattern matching any of the ids."""
    from planner.models.catalog import DEVICE_CLASSES, load_catalog

    cat = load_catalog()
    names: dict[str, str] = {}
    for kind in DEVICE_CLASSES:
        for k, v in cat.of(kind).items():
            name = getattr(v, "name", None)
            if isinstance(name, str) and name and name != k:
                names[k] = name
    if not names:
        return names, None
    # longest first: an id that another id begins with must not match the shorter one
    ids = sorted(names, key=len, reverse=True)
    # a count glued to the id, as a design's parts name writes it ("2xintel-xeon-gold-6430"), is a count
    return names, re.compile(r"(?<![\w.-])(\d+x)?(" + "|".join(map(re.escape, ids)) + r")(?![\w-])")


def part_words(text: str) -> str:
    """``text`` with each built-in catalog id written as the part's name
    ("intel-x710-2x10g: 2 x 10 GbE" -> "Intel X710-DA2: 2 x 10 GbE"; "2xintel-xeon-gold-6430" -> "2 x Intel Xeon
    Gold 6430"); a user's own part keeps its id."""
    names, pattern = _part_names()
    if pattern is None:
        return str(text)
    return pattern.sub(lambda m: (f"{m.group(1)[:-1]} x " if m.group(1) else "") + names[m.group(2)], str(text))


def _tolerates(failures: int) -> str:
    return f"{count(failures, 'failure')} to tolerate"


def resiliency_words(
    res: str | None, stack: str | None = None, nodes: int | None = None, architecture: str = "esa"
) -> str:
    """A resiliency id as a customer reads it: "mirror-3way" -> "three-way mirror", "raid5" -> "RAID-5",
    "replica-3" -> "3 replicas". A vSAN policy (``stack`` "vsan") with its layout on ``nodes`` hosts and the
    failures it tolerates: "raid5" on six ESA hosts -> "RAID-5 (4+1), 1 failure to tolerate", "raid1-ftt1" ->
    "RAID-1 (2 copies), 1 failure to tolerate". One spelling, VMware's "RAID-5" (a controller's RAID level too):
    the vSAN policy list read "RAID-1, 1 failure to tolerate" beside "RAID 5" (Ceph/vSAN walk 2026-11-30)."""
    r = str(res or "")
    if r in RESILIENCY_SHORT:
        return RESILIENCY_SHORT[r]
    # a vSAN id, or "raid5"/"raid6" of a vSAN design (the same ids name a controller's RAID levels)
    if r in VSAN_RESILIENCIES and (stack == "vsan" or "-ftt" in r):
        # the layout needs the host count only for ESA's adaptive RAID-5 (2+1 below six hosts, 4+1 from six)
        lay = vsan_layout(r, nodes if nodes is not None else 0, architecture)
        adaptive = r == "raid5" and architecture == "esa" and nodes is None
        shape = (
            f"{count(lay.copies, 'copy', 'copies')}"
            if lay.kind == "mirror"
            else "2+1 or 4+1"
            if adaptive
            else f"{lay.data}+{lay.redundancy}"
        )
        return f"RAID-{'1' if lay.kind == 'mirror' else r[4:]} ({shape}), {_tolerates(lay.online_failures)}"
    if m := re.fullmatch(r"raid(\d+)", r):
        return f"RAID-{m.group(1)}"
    if m := re.fullmatch(r"raid(\d+)-ftt(\d+)", r):
        return f"RAID-{m.group(1)}, {_tolerates(int(m.group(2)))}"
    if m := re.fullmatch(r"ec-(\d+)\+(\d+)", r):
        return f"erasure coding {m.group(1)}+{m.group(2)}"
    if m := re.fullmatch(r"replica-(\d+)", r):
        return count(int(m.group(1)), "replica")  # "1 replica", not "1 replicas"
    return {"stripe": "striped", "none": "no redundancy"}.get(r, r.replace("-", " "))


def design_resiliency_words(d: dict) -> str:
    """A design's (or a report's) resiliency in words (:func:`resiliency_words`) with its stack, node count and
    vSAN architecture, so a vSAN policy says its layout."""
    arch = (d.get("vsan") or {}).get("architecture") or "esa"
    nodes = d.get("nodes")
    return resiliency_words(d.get("resiliency"), d.get("stack"), int(nodes) if nodes else None, arch)


def transport_words(transport: str | None) -> str:
    """A report's transport as a customer reads it: "fc-4g x1" -> "4 Gb Fibre Channel, 1 path"."""
    t = str(transport or "")
    if m := re.fullmatch(r"fc-(\d+)g x(\d+)", t):
        return f"{m.group(1)} Gb Fibre Channel, {m.group(2)} path{'s' if m.group(2) != '1' else ''}"
    if t.startswith("rdma"):
        return "RDMA" + (f" ({device_words(t.split()[1])})" if " " in t else "")
    # as the Design page's transport choice says it
    return {"tcp": "TCP/IP", "local": "local storage"}.get(t, t)


def _part(x) -> str | None:
    """A part given by catalog id as its name; an inline part (a dict) or none: None."""
    return part_words(x) if isinstance(x, str) else None


def system_words(d: dict) -> str:
    """A design of any architecture in one short line for a customer (the system today, an
    example to compare with), never by its file name: "HP ProLiant DL580 G7, RAID-5 on a
    Hitachi USP VM SAN"."""
    topo = d.get("topology") or "hyperconverged"
    if topo == "single-server":
        ss = d.get("single_server") or {}
        server = _part((ss.get("server") or {}).get("chassis")) or "a single server"
        st = ss.get("storage") or {}
        kind = st.get("kind")
        level = resiliency_words(st.get("level"))
        drives = st.get("drives") or {}
        drive = _part(drives.get("model"))
        if kind == "san":
            array = _part(st.get("array"))
            return f"{server}, {level} on a SAN" + (f" ({array})" if array else "")
        if kind == "raid":
            return f"{server}, local {level}" + (f" of {drives.get('count')} x {drive}" if drive else "")
        card = _part(st.get("card")) or "PCIe flash"
        return f"{server}, {st.get('count', 1)} x {card}"
    if topo == "split":
        sp = d.get("split") or {}
        c, n = sp.get("compute_nodes"), sp.get("data_nodes")
        return (
            f"{c} compute server{'s' if c != 1 else ''} with flash, {n} data node{'s' if n != 1 else ''} "
            f"(erasure coding {sp.get('erasure_data')}+{sp.get('erasure_parity')})"
        )
    if topo == "disaggregated" and d.get("disaggregated"):
        dg = d["disaggregated"]
        k = dg.get("db_servers")
        fs = dg.get("file_server") or {}
        # the file servers' own drives (or the shared JBOD's) tell two such systems apart
        drives = fs.get("capacity_drives") or {}
        drive = _part(drives.get("model"))
        # and the back end by name: a 2016 S2D-backed pair read as the 2012 R2 shared-JBOD kind a customer runs
        # (SRE walk 2026-11-30)
        on = (
            f" over Storage Spaces Direct ({drives.get('count')} x {drive} per server)"
            if drive
            else " (Storage Spaces on a shared SAS JBOD)"
        )
        # a cluster-in-a-box by its product name: the seed system read as "a 2-server Scale-Out File Server", its
        # DataON box named nowhere in the example lists (seed walk, stop 63)
        box = _part((dg.get("shared_jbod") or {}).get("enclosure")) if not drive else None
        sofs = f"a {dg.get('file_servers')}-server Scale-Out File Server"
        return (
            f"{k} database server{'s' if k != 1 else ''} on "
            + (f"{sofs} in a {box}{on}" if box else f"{sofs}{on}")
            + f", {resiliency_words(dg.get('resiliency'))}"
        )
    node = d.get("node") or {}
    chassis = _part(node.get("chassis"))
    n = d.get("nodes")
    servers = f"{n} x {chassis}" if chassis else f"{n} servers"
    stack = {"ceph": "Ceph", "vsan": "vSAN"}.get(d.get("stack") or "s2d")
    if topo == "disaggregated" and d.get("clients"):
        k = (d.get("clients") or {}).get("servers")
        servers = f"{servers} for storage, {k} database servers"
    return f"{stack + ' on ' if stack else ''}{servers}, {design_resiliency_words(d)}"


def server_count_words(d: dict, servers: int) -> str:
    """A design's servers in one phrase (``servers``: its report's ``nodes``): "4 servers"; a
    disaggregated Ceph or vSAN design's client servers too, which its report's node count leaves out
    ("13 servers (5 for storage, 8 database servers)"; the Compare page read "5 servers" of it)."""
    k = (d.get("clients") or {}).get("servers") if d.get("topology") == "disaggregated" else None
    if not k:
        return count(servers, "server")
    return f"{count(servers + k, 'server')} ({servers} for storage, {count(k, 'database server')})"


@functools.cache
def example_words() -> dict[str, str]:
    """Each bundled example design (file name -> :func:`system_words`): the pages list the examples
    by what they are ("seed-dl580-san-raid5" is a file name)."""
    from planner.models.examples import example_models

    return {n: system_words(d.model_dump(mode="json")) for n, d in example_models().items()}


#: device kinds and interfaces of the calibrated domain ("sas-hdd", a cache's "pmem") as words
_DEVICE_WORDS = {
    "nvme": "NVMe",
    "sas": "SAS",
    "sata": "SATA",
    "sas-hdd": "SAS HDD",
    "sata-hdd": "SATA HDD",
    "pcie-flash": "PCIe flash",
    "pcie": "PCIe",
    "pmem": "persistent memory",
    "roce": "RoCE",
    "iwarp": "iWARP",
    "none": "none",
}


def device_words(kind: str) -> str:
    """A device kind or interface as it is written ("nvme" -> "NVMe", "sas" -> "SAS"; another id in
    capitals): the Design page's part labels wrote "NVME" and "24 bays (sas/sata/nvme)"."""
    return _DEVICE_WORDS.get(kind, kind.upper())


#: the calibrated domain's numbers as a sentence says them (a proposal said "this design uses
#: 0.003173972030937385" for its read share; browser review 2026-11-28)
_RANGE_WORDS = {
    "read_fraction": lambda x: f"{100 * x:.1f} %" if 0 < x < 0.01 else f"{100 * x:.0f} %",
    # with their units as the report's own messages say them ("1,024 KiB", "1 server")
    "block_size_kib": lambda x: shown_value("block_size_kib", x),
    "nodes": lambda x: shown_value("nodes", x),
}
_STACK_NAMES = STACK_NAMES
_CACHE_MODE_WORDS = {"write-back": "a write-back cache", "write-only": "a write-only cache", "none": "no cache"}


def domain_value_words(dimension: str, value) -> str:
    """A value of the calibrated domain (:mod:`planner.results.calibrated_domain`) as a customer
    reads it, each of a comma-separated list: "raid5" -> "RAID-5", "fc-4g x1" -> "4 Gb Fibre
    Channel, 1 path", "write-back" -> "a write-back cache"; other dimensions' values as they are."""
    from planner.engine.architectures import TOPOLOGY_LABELS

    if dimension in _RANGE_WORDS:  # a number, or the calibrated "lo to hi"
        say = _RANGE_WORDS[dimension]
        try:
            nums = [float(x) for x in str(value).split(" to ")]
        except ValueError:
            return str(value)
        said = [say(x) for x in nums]
        if len(said) == 2 and " " in said[0] and said[0].split(" ", 1)[1] == said[1].split(" ", 1)[1]:
            return f"{said[0].split(' ', 1)[0]} to {said[1]}"  # "20 to 100 % reads", the unit said once
        return " to ".join(said)
    one: Callable[[str], object] | None = {
        "resiliency": lambda v: resiliency_words(v),
        "transport": transport_words,
        "cache_mode": lambda v: _CACHE_MODE_WORDS.get(v, v),
        "topology": lambda v: TOPOLOGY_LABELS.get(v, v),
        "drive_interface": lambda v: _DEVICE_WORDS.get(v, v),
        "cache": lambda v: _DEVICE_WORDS.get(v, v),
        "stack": lambda v: _STACK_NAMES.get(v, v),
    }.get(dimension)
    text = str(value)
    if one is None:
        return text
    # a transport's own comma ("4 Gb Fibre Channel, 1 path") joins the list with "or" instead
    parts = [str(one(v.strip())) for v in text.split(",")]
    return " or ".join(parts) if dimension == "transport" else ", ".join(parts)
