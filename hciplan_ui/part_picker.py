"""The part and resiliency pickers the Design page and the Compare page's what-if share: a catalog part in a
customer's words (its figures, estimates marked), a user's own parts from a catalog file, and the resiliencies a
node count can hold, by the validator's own rule. One copy: the what-if's boxes read as the Design page's."""

from __future__ import annotations

import functools

import streamlit as st

from hciplan_ui import fmt
from planner.core.errors import PlannerError
from planner.core.text import without_bidi_controls
from planner.models.catalog import Catalog, load_catalog
from planner.models.design import resiliency_misfit
from planner.physics.network import nic_card_gbit_s
from planner.sizing.names import device_words
from planner.sizing.words import resiliency_words


@functools.cache
def _catalog() -> Catalog:
    return load_catalog()


NONE = "(none)"
#: the resiliency box's label on each stack, as the stack names it
RESILIENCY_LABELS = {"s2d": "Resiliency", "ceph": "Pool protection", "vsan": "Storage policy"}
#: what an offered resiliency these nodes cannot hold says (the reason is beside the field)
MISFIT_MARK = " (not on these nodes)"


def misfits(stack: str, options: list[str], nodes: int, draft: dict) -> dict[str, str | None]:
    """Each resiliency's reason it cannot be laid out on ``nodes`` servers of the draft's fault domains
    (:func:`planner.models.design.resiliency_misfit`, the validator's rule), None where it can; a name or min_size
    the library refuses is left to the validator's own message."""
    out: dict[str, str | None] = {}
    for r in options:
        try:
            out[r] = resiliency_misfit(
                stack,
                r,
                nodes,
                str(draft.get("fault_domain") or "node"),
                draft.get("fault_domains"),
                str((draft.get("vsan") or {}).get("architecture") or "esa"),
                (draft.get("ceph") or {}).get("min_size") if stack == "ceph" else None,
            )
        except PlannerError:
            out[r] = None
    return out


def resiliency_option(r: str, stack: str, nodes: int, architecture: str, misfit: frozenset[str]) -> str:
    """A resiliency in words (:func:`planner.sizing.words.resiliency_words`), marked when these nodes cannot hold it."""
    return resiliency_words(r, stack=stack, nodes=nodes, architecture=architecture) + (
        MISFIT_MARK if r in misfit else ""
    )


def user_parts(cls: str) -> dict:
    """Parts the user added from a catalog file this session: id -> record dict."""
    return st.session_state.setdefault("user_parts", {}).get(cls, {})


def part_label(cls: str, rid: str, parts: dict) -> str:
    """Option label; pure in its arguments (Streamlit may format options outside the script run). A part of yours
    is named as you wrote it, less direction overrides (a select box shows its label as text, not through fmt.md:
    "\u202eevil" reversed the rest of it; hostile-input walk)."""
    from planner.models.catalog import DEVICE_CLASSES

    if rid == NONE:
        return NONE
    if rid in parts:
        return without_bidi_controls(describe(cls, DEVICE_CLASSES[cls].model_validate(parts[rid])) + " · your part")
    if rid in _catalog().of(cls):
        return describe(cls, _catalog().of(cls)[rid])
    return without_bidi_controls(f"{rid} (inline spec)")


def describe(cls: str, r) -> str:
    if cls == "capacity_drive":
        return (
            f"{r.vendor} {r.model} · {fmt.device_size(r.capacity_tb * 1000)} {device_words(r.interface)} · "
            + fmt.estimated(
                r,
                ("rand_read_4k_iops", "rand_write_4k_iops"),
                f"{fmt.kilo(r.rand_read_4k_iops)}/{fmt.kilo(r.rand_write_4k_iops)}",
                after=" read/write IOPS",
            )
            + " · "
            + fmt.estimated(r, ("endurance_dwpd",), f"{r.endurance_dwpd:g}", after=" DWPD")
        )
    if cls == "cache_device":
        # which latency: the write's, the figure a cache absorbs writes at (the read's is another)
        return (
            f"{r.vendor} {r.model} · {fmt.device_size(r.capacity_gb)} {device_words(r.kind)} · "
            + fmt.estimated(r, ("rand_write_4k_iops",), fmt.kilo(r.rand_write_4k_iops), after=" write IOPS")
            + " · "
            + fmt.estimated(r, ("write_latency_us",), f"{r.write_latency_us:g}", before="write latency ", after=" µs")
        )
    if cls == "cpu":
        return (
            f"{r.vendor} {r.model} · "
            + fmt.estimated(r, ("cores", "threads"), f"{r.cores}c/{r.threads}t")
            + " · "
            + fmt.estimated(r, ("base_ghz",), f"{r.base_ghz:g}", after=" GHz")
            + " · "
            + fmt.estimated(r, ("socket",), r.socket)
        )
    if cls == "nic":
        rdma = "no RDMA" if r.rdma == "none" else f"RDMA ({device_words(r.rdma)})"
        # a card its host link or controller holds below its ports' sum says so: an E810-CQDA2 read "2×100 GbE"
        # where the model credits it ~100 Gb/s (verification walk 2026-12-01)
        card = nic_card_gbit_s(r)
        held = (
            " · "
            + fmt.estimated(
                r,
                ("max_gbit_s", "pcie_lanes", "pcie_gen"),
                f"{card:,.0f}",
                after=" Gb/s a card at most (its PCIe link or controller)",
            )
            if card < r.ports * r.port_gbit_s - 1e-9
            else ""
        )
        return (
            f"{r.vendor} {r.model} · "
            + fmt.estimated(r, ("ports", "port_gbit_s"), f"{r.ports}×{r.port_gbit_s:g}", after=" GbE")
            + held
            + " · "
            + fmt.estimated(r, ("rdma",), rdma)
        )
    return (
        f"{r.vendor} {r.model} · "
        + fmt.estimated(
            r,
            ("drive_bays", "bay_interfaces"),
            f"{r.drive_bays}",
            after=f" bays ({'/'.join(map(device_words, r.bay_interfaces))})",
        )
        + " · "
        + fmt.estimated(r, ("cpu_sockets", "cpu_socket_type"), f"{r.cpu_sockets}S {r.cpu_socket_type}")
        + " · "
        + fmt.estimated(r, ("max_ram_gb",), f"{r.max_ram_gb:g}", after=" GB max")
    )


def ref(value) -> str:
    """Catalog id of a draft entry (inline specs show as their id)."""
    if value is None:
        return NONE
    return value if isinstance(value, str) else value.get("id", NONE)


def seed(key: str, value) -> None:
    if key not in st.session_state:
        st.session_state[key] = value


def resend_if_relabelled(key: str, labels: tuple[str, ...]) -> None:
    """Write a select box's value back to itself when its options' labels changed since the last run: the browser
    holds the old label as the box's value, the run after finds it among no option and Streamlit takes the first
    one; written back, Streamlit sends the box its new label. One rule for the part pickers and the resiliency box."""
    if key in st.session_state and st.session_state.get(f"_labels_{key}", labels) != labels:
        st.session_state[key] = st.session_state[key]
    st.session_state[f"_labels_{key}"] = labels


def select(container, label: str, cls: str, key: str, current: str, allow_none: bool = False):
    options = list(_catalog().of(cls)) + [i for i in user_parts(cls) if i not in _catalog().of(cls)]
    if current not in options and current != NONE:
        options.insert(0, current)  # an inline spec from a loaded file
    if allow_none:
        options.insert(0, NONE)
    seed(key, current if current in options else options[0])
    if st.session_state[key] not in options:  # a link's part this catalog does not hold: the design's own, said by
        st.session_state[key] = current if current in options else options[0]  # the box (not its first option)
    parts = dict(user_parts(cls))
    # a part of yours uploaded again with new figures changes its label: the browser still held the old one as
    # the box's value, which the run after did not find among the options, and Streamlit took the first option
    # (the design's drive became the catalog's P3700; hostile-input walk 2026-11-30). The value read now is the
    # part's id (read with the labels it was chosen among); written back, Streamlit sends the box its new label.
    resend_if_relabelled(key, tuple(part_label(cls, i, parts) for i in options))
    chosen = container.selectbox(label, options, key=key, format_func=lambda i: part_label(cls, i, parts))
    # the box shows what fits its width and no more (at 1024 px "Intel Optane DC Persistent Memor", without
    # its size; an input cannot wrap): the whole label under it, where a customer reads it
    if chosen != NONE:
        container.caption(fmt.md(part_label(cls, chosen, parts)))
    return chosen


def part_value(cls: str, chosen: str, old):
    """What a design file holds for the part ``chosen`` in a picker: None for none, the part itself for one of the
    user's own (the design carries it, so links and files stay whole), an inline spec from a loaded file kept while
    the picker still points at it (``old``), else the catalog id."""
    if chosen == NONE:
        return None
    if chosen in user_parts(cls):
        return dict(user_parts(cls)[chosen])
    if old is not None and not isinstance(old, str) and ref(old) == chosen:
        return old
    return chosen


def transport_radio(container, key: str, stack: str) -> str:
    """The transport choice, RDMA or TCP/IP; fixed at TCP/IP on Ceph, whose messenger is modelled over TCP only."""
    if stack == "ceph":
        st.session_state[key] = "tcp"
    return container.radio(
        "Transport",
        ["rdma", "tcp"],
        horizontal=True,
        key=key,
        format_func={"rdma": "RDMA", "tcp": "TCP/IP"}.get,
        disabled=stack == "ceph",
        help="Ceph's messenger is modelled over TCP only" if stack == "ceph" else None,
    )
