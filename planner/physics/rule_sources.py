"""A rule's source as one design's parts make it true: the chassis figures it cites, said as recalled where
the chassis record says so.

A rule's own ``source`` (:class:`planner.physics.rules.Rule`) names "the chassis record (max_power_w)"; the
catalog's chassis layouts and power ratings were recalled from vendors' guides, not seen in a stored source
(hardware_catalog/README.md: "No chassis record is verified"). The proposal had rewritten "chassis record" as
"server datasheet" (hardware-architect walk: "Drives fit the chassis bays | passed | server datasheet (drive
bays ...)" beside the HPE DL380 Gen11's recalled bays): a document says where a figure comes from as it is.
"""

from __future__ import annotations

import re

from planner.models.catalog import Chassis

#: a source's citation of chassis figures: "chassis record (f, g)", "chassis and CPU records (f, g)",
#: "chassis, CPU and memory-module records (f, g)", "CPU (f) and chassis (g) records"
_CITED = re.compile(
    r"(?P<lead>\bchassis(?: record| and CPU records|, CPU and memory-module records) \()(?P<fields>[^)]*)\)"
    r"|(?P<lead2>\bchassis \()(?P<fields2>[^)]*)\)(?= records)"
)
#: a record's identity and bookkeeping, not figures ("the bay form factor stated in the chassis model name")
_NOT_FIGURES = frozenset({"id", "vendor", "model", "source", "verified", "estimated", "notes", "sale_status"})
#: the words a qualified citation ends its brackets with
RECALLED = "recalled, not confirmed"


def rule_source(source: str, chassis: Chassis | None) -> str:
    """``source`` (a rule's) with each citation of the chassis record qualified where the fields it cites are
    estimated on ``chassis`` (its ``estimated`` entries): "chassis record (max_power_w; recalled, not
    confirmed)"; a citation of several records names the chassis fields ("chassis and CPU records
    (cpu_socket_type, max_sockets; the chassis's cpu_socket_type recalled, not confirmed)"). Unchanged without a
    chassis or where every cited chassis figure was seen in a source.

    References
    ----------
    hardware_catalog/README.md, "Rules (the honesty rule)": a recalled value "was not found in the stored
    sources; treat it as an estimate".
    """
    if chassis is None:
        return source

    def qualify(m: re.Match[str]) -> str:
        lead = m.group("lead") or m.group("lead2")
        inside = m.group("fields") if m.group("lead") else m.group("fields2")
        cited = [
            f for f in re.findall(r"\b[a-z][a-z0-9_]*\b", inside) if f in Chassis.model_fields and f not in _NOT_FIGURES
        ]
        recalled = [f for f in dict.fromkeys(cited) if f in chassis.estimated]
        if not recalled:
            return str(m.group())
        alone = lead.startswith("chassis record") or m.group("lead2")
        words = (
            RECALLED
            if alone and len(recalled) == len(set(cited))
            else f"the chassis's {', '.join(recalled)} {RECALLED}"
        )
        return f"{lead}{inside}; {words})"

    return _CITED.sub(qualify, source)
