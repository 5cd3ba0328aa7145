"""The library's sentences in a customer's words, for every page that shows them.

The sizer's explanations, its rules' examples and sources, and the verdict's notes are written
for the planner's own files (catalog ids such as ``intel-x710-2x10g``, rule keys such as
``capacity_with_reserve``, field names, stack ids, module paths). The app is shown live to
customers, so a page passes such a sentence through :func:`customer_words`; the CSV and JSON
exports keep the ids (they are read by the planner and by scripts).
"""

from __future__ import annotations

import re

from planner.models.stacks import STACK_NAMES
from planner.results.uncertainty import HELD_OUT_CATEGORY, HELD_OUT_OR_PSEUDO, NO_HELD_OUT_FOR_FIGURE, PSEUDO_ERROR
from planner.sizing.document import DIMENSION_WORDS, customer_text, dimension_words
from planner.sizing.names import (  # noqa: F401 (the pages' words in one place)
    design_resiliency_words,
    domain_value_words,
    example_words,
    part_words,
    resiliency_words,
    server_count_words,
    system_words,
    transport_words,
)

#: the stack ids a sentence names ("the ceph stack's own rules (the demand names s2d)")
_STACK_WORDS = STACK_NAMES
_FT_WORDS = {"node-and-drive": "a node and a drive", "two-nodes": "two nodes", "node": "one node"}
_STACK_IN_TEXT = re.compile(r"\b(?:the )?(s2d|ceph|vsan) stack\b|(?<=names )(s2d|ceph|vsan)\b")


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
# no semicolon inside an entry: the pages join the entries with one, and "...; the widest error of a fit ...; resiliencies:
# ..." read as two more entries (pre-sales Ceph walk 2026-12-03); "a figure", not "this figure", in a note of them all
_BASIS_WORDS = {
    HELD_OUT_CATEGORY: "the widest error on a kind left out of the fit",
    "error when the fit saw only the other side": "the error when the fit saw only the other side",
    f"never varied in the data, {PSEUDO_ERROR}": "never varied in the measurements, so the widest error of a fit "
    "that left part of the data out",
    NO_HELD_OUT_FOR_FIGURE: "for a figure not measured with that kind left out, the widest error of a fit that left "
    "part of the data out",
    HELD_OUT_OR_PSEUDO: "the widest error on a kind left out of the fit, and for a figure not measured with that "
    "kind left out, the widest error of a fit that left part of the data out",
}


def band_basis_words(basis: str, stack: str | None = None) -> str:
    """One entry of a report's ``band_basis`` as a customer reads it: "cpu_family: widest
    held-out-category error" -> "processor families: the widest error on a kind left out of the fit";
    the dimensions named in ``stack``'s words (:func:`planner.sizing.document.dimension_words`)."""
    dim, sep, how = str(basis).partition(": ")
    words = dimension_words(stack)
    if sep and dim in words:
        return f"{words[dim]}: {_BASIS_WORDS.get(how, how)}"
    return customer_words(basis)


def band_note_words(note: str, stack: str | None = None) -> str:
    """A band note naming what widened it as a report's ``band_basis`` entries ("... widened outside the calibrated
    domain (cpu_family: widest held-out-category error; nodes: ...)"), each entry in words
    (:func:`band_basis_words`, in ``stack``'s words): the SLA page printed the guarantee's band note with its field
    names (honesty audit 2026-12-01, merged)."""
    dims = "|".join(re.escape(d) for d in sorted(DIMENSION_WORDS, key=len, reverse=True))
    return re.sub(
        rf"\b({dims}): ([^;()]*)",
        lambda m: band_basis_words(f"{m.group(1)}: {m.group(2)}", stack),
        str(note),
    )


def extrapolation_words(flag: dict) -> str:
    """An extrapolation flag's message (:func:`planner.results.calibrated_domain.extrapolation`) with
    its category values in words: "east-west transport 4 Gb Fibre Channel, 1 path was never measured;
    calibrated: RDMA" where the message says "'fc-4g x1'" and "rdma". The rest of the message (an
    architecture's own explanation) is kept; a range says its numbers with their units ("share of IOs
    that are reads 0.3 % is outside the calibrated 20 to 100 %")."""
    msg = str(flag["message"])
    dim, value, cal = flag["dimension"], str(flag["value"]), str(flag.get("calibrated", ""))
    if flag.get("side") != "unseen":  # a range: its numbers in words ("0.3 % reads", "2 to 4 servers")
        from planner.results.calibrated_domain import DIMENSIONS

        what = DIMENSIONS[dim][1] if dim in DIMENSIONS else dim.replace("_", " ")
        return f"{what} {domain_value_words(dim, value)} is outside the calibrated {domain_value_words(dim, cal)}"
    msg = msg.replace(f"'{value}'", domain_value_words(dim, value), 1)
    if cal:
        msg = msg.replace(f"calibrated: {cal}", f"calibrated: {domain_value_words(dim, cal)}", 1)
    return msg
