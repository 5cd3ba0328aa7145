"""The library's sentences in a customer's words, for every page that shows them.

The sizer's explanations, its rules' examples and sources, and the verdict's notes are written
for the planner's own files (catalog ids such as ``intel-x710-2x10g``, rule keys such as
``capacity_with_reserve``, field names, stack ids, module paths). The app is shown live to
customers, so a page passes such a sentence through :func:`customer_words`; the CSV and JSON
exports keep the ids (they are read by the planner and by scripts).
"""

from __future__ import annotations

import functools
import re

from planner.sizing.document import DIMENSION_WORDS, FIELD_WORDS, customer_text

#: the stack ids a sentence names ("the ceph stack's own rules (the demand names s2d)")
_STACK_WORDS = {"s2d": "Storage Spaces Direct", "ceph": "Ceph", "vsan": "vSAN"}
_FT_WORDS = {"node-and-drive": "a node and a drive", "two-nodes": "two nodes", "node": "one node"}
_STACK_IN_TEXT = re.compile(r"\b(?:the )?(s2d|ceph|vsan) stack\b|(?<=names )(s2d|ceph|vsan)\b")


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
    return names, re.compile(r"(?<![\w.-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-])")


def part_words(text: str) -> str:
    """``text`` with each built-in catalog id written as the part's name
    ("intel-x710-2x10g: 2 x 10 GbE" -> "Intel X710-DA2: 2 x 10 GbE"); a user's own part keeps its id."""
    names, pattern = _part_names()
    return pattern.sub(lambda m: names[m.group(1)], str(text)) if pattern is not None else str(text)


def rule_words(rule: str, stack: str = "s2d") -> str:
    """A rule by what it checks (its title), never by its key (``capacity_with_reserve``)."""
    from planner.physics.rules import rule_of

    try:
        return rule_of(rule, stack).title
    except (KeyError, ValueError):
        return FIELD_WORDS.get(rule, rule.replace("_", " "))


def customer_words(text: str) -> str:
    """A sentence from the library as a customer reads it: parts by name, stacks by name, field
    names as words, no module paths (:func:`planner.sizing.document.customer_text`)."""
    t = part_words(text)
    # a module named before its bracketed explanation: the explanation stays, without its brackets
    t = re.sub(r"\bplanner\.[\w.]+ \(([^()]*)\)", r"\1", t)
    t = _STACK_IN_TEXT.sub(
        lambda m: _STACK_WORDS[m.group(1)] if m.group(1) else _STACK_WORDS[m.group(2)],
        t,
    )
    # the fault tolerance a demand names, quoted by its id ("'node-and-drive' needs 2")
    t = re.sub(r"'(node-and-drive|two-nodes|node)'", lambda m: _FT_WORDS[m.group(1)], t)
    # a media id written in capitals by the rules ("per NVME OSD"): the name is NVMe
    t = re.sub(r"\bNVME\b", "NVMe", t)
    return customer_text(t)


#: what widened a calibration band (:func:`planner.results.uncertainty.ratio_band`), in words
_BASIS_WORDS = {
    "widest held-out-category error": "the widest error on a kind left out of the fit",
    "error when the fit saw only the other side": "the error when the fit saw only the other side",
    "never varied in the data, widest pseudo-extrapolation error": "never varied in the measurements; the widest "
    "error of a fit that left part of the data out",
}


def band_basis_words(basis: str) -> str:
    """One entry of a report's ``band_basis`` as a customer reads it: "cpu_family: widest
    held-out-category error" -> "processor families: the widest error on a kind left out of the fit"."""
    dim, sep, how = str(basis).partition(": ")
    if sep and dim in DIMENSION_WORDS:
        return f"{DIMENSION_WORDS[dim]}: {_BASIS_WORDS.get(how, how)}"
    return customer_words(basis)


def resiliency_words(res: str | None) -> str:
    """A resiliency id as a customer reads it: "mirror-3way" -> "three-way mirror", "raid5" -> "RAID 5",
    "replica-3" -> "3 replicas"."""
    from planner.sizing.document import RESILIENCY_SHORT

    r = str(res or "")
    if r in RESILIENCY_SHORT:
        return RESILIENCY_SHORT[r]
    if m := re.fullmatch(r"raid(\d+)", r):
        return f"RAID {m.group(1)}"
    if m := re.fullmatch(r"raid(\d+)-ftt(\d+)", r):
        return f"RAID-{m.group(1)}, {m.group(2)} failure{'s' if m.group(2) != '1' else ''} to tolerate"
    if m := re.fullmatch(r"replica-(\d+)", r):
        return f"{m.group(1)} replicas"
    return {"stripe": "striped", "none": "no redundancy"}.get(r, r.replace("-", " "))


def transport_words(transport: str | None) -> str:
    """A report's transport as a customer reads it: "fc-4g x1" -> "4 Gb Fibre Channel, 1 path"."""
    t = str(transport or "")
    if m := re.fullmatch(r"fc-(\d+)g x(\d+)", t):
        return f"{m.group(1)} Gb Fibre Channel, {m.group(2)} path{'s' if m.group(2) != '1' else ''}"
    if t.startswith("rdma"):
        return "RDMA" + (f" ({t.split()[1].replace('roce', 'RoCE').replace('iwarp', 'iWARP')})" if " " in t else "")
    return {"tcp": "TCP", "local": "local storage"}.get(t, t)


def _part(x) -> str | None:
    """A part given by catalog id as its name; an inline part (a dict) or none: None."""
    return part_words(x) if isinstance(x, str) else None


def system_words(d: dict) -> str:
    """A design of any architecture in one short line for a customer (the system today, an
    example to compare with), never by its file name: "HP ProLiant DL580 G7, RAID 5 on a
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
        on = f" ({drives.get('count')} x {drive} per server)" if drive else " (shared JBOD)"
        return (
            f"{k} database server{'s' if k != 1 else ''} on a {dg.get('file_servers')}-server Scale-Out File "
            f"Server{on}, {resiliency_words(dg.get('resiliency'))}"
        )
    node = d.get("node") or {}
    chassis = _part(node.get("chassis"))
    n = d.get("nodes")
    servers = f"{n} x {chassis}" if chassis else f"{n} servers"
    stack = {"ceph": "Ceph", "vsan": "vSAN"}.get(d.get("stack") or "s2d")
    if topo == "disaggregated" and d.get("clients"):
        k = (d.get("clients") or {}).get("servers")
        servers = f"{servers} for storage, {k} database servers"
    return f"{stack + ' on ' if stack else ''}{servers}, {resiliency_words(d.get('resiliency'))}"


@functools.cache
def example_words() -> dict[str, str]:
    """Each bundled example design (file name -> :func:`system_words`): the pages list the examples
    by what they are ("seed-dl580-san-raid5" is a file name)."""
    from planner.models.examples import example_models

    return {n: system_words(d.model_dump(mode="json")) for n, d in example_models().items()}


_CACHE_MODE_WORDS = {"write-back": "a write-back cache", "write-only": "a write-only cache", "none": "no cache"}


def domain_value_words(dimension: str, value) -> str:
    """A value of the calibrated domain (:mod:`planner.results.calibrated_domain`) as a customer
    reads it, each of a comma-separated list: "raid5" -> "RAID 5", "fc-4g x1" -> "4 Gb Fibre
    Channel, 1 path", "write-back" -> "a write-back cache"; other dimensions' values as they are."""
    from planner.engine.architectures import TOPOLOGY_LABELS

    one = {
        "resiliency": resiliency_words,
        "transport": transport_words,
        "cache_mode": lambda v: _CACHE_MODE_WORDS.get(v, v),
        "topology": lambda v: TOPOLOGY_LABELS.get(v, v),
    }.get(dimension)
    text = str(value)
    if one is None:
        return text
    # a transport's own comma ("4 Gb Fibre Channel, 1 path") joins the list with "or" instead
    parts = [str(one(v.strip())) for v in text.split(",")]
    return " or ".join(parts) if dimension == "transport" else ", ".join(parts)
