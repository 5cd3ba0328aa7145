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

from planner.sizing.document import FIELD_WORDS, customer_text

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
