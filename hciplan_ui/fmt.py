"""How numbers and user strings appear on screen: units, thousands separators,
sensible precision, readable names, and user text that is never markdown.

No physics here; these only format what planner computed.
"""

from __future__ import annotations

import math
import re

from planner.core.errors import plain_message
from planner.core.text import BIDI_CONTROLS, auto_decimals, count, first_lower, first_upper, used_share
from planner.core.text import pct as text_pct
from planner.engine.performance import LATENCY_NAMES
from planner.physics.capacity import usable_one_node_down_tb
from planner.physics.endurance import life_words
from planner.sizing.words import customer_words

DASH = "–"

# Markdown syntax anywhere in a line (links, images, HTML, emphasis, code, tables,
# headings) and Streamlit's $LaTeX$; shortcodes and autolinks are handled apart.
# A colon needs the joiner only where it could open a shortcode (":material/x:", ":smile:", ":+1:"), a colour
# (":red[x]") or a link's scheme ("http://"): before anything but a space. After every colon, the app's own
# "warranty: 5 years" carried an invisible U+2060 into every copy and paste (accessibility walk 2026-11-30).
_AUTOLINK = re.compile(r"(?i):(?!\s)|@|www")
WORD_JOINER = "\u2060"
_MD_SPECIAL = re.compile(r"([\\`*_\[\]()#!|<>~$])")
#: a list's mark starts the text and a space (or nothing) follows it: "1. x", "- x", "+"; not "228.0" or "-5"
_LIST_START = re.compile(r"^(\s*)(\d{0,9})([-+.)])(?=\s|$)")


_BIDI_CONTROLS = BIDI_CONTROLS  # the library's one table (planner.core.text)


def md(text) -> str:
    """User text safe inside Streamlit markdown (st.caption, st.error, labels...).

    Every markdown character is backslash-escaped, so ``![b](http://host/x.png)``
    shows as those characters instead of fetching the image, a link is not
    clickable (nor is a bare URL or address), ``$x$`` is not LaTeX and
    ``:material/x:`` is not an icon; line breaks become spaces.
    """
    # direction overrides and isolates dropped: "\u202eRTL\u202c" showed as "LTR" on screen, where the saved
    # scenario and the documents strip them (hostile-input walk 2026-11-30)
    s = " ".join(str(text).translate(_BIDI_CONTROLS).split())
    # autolinks and icon shortcodes are found in the parsed text, after escapes are
    # undone: an invisible word joiner breaks 'http://', 'www.', 'a@b' and ':icon:'
    s = _AUTOLINK.sub(lambda m: m.group() + WORD_JOINER, s)
    s = _MD_SPECIAL.sub(r"\\\1", s)
    # '1.' or '-' would start a list: the mark is escaped (a backslash before a digit is shown as typed)
    return _LIST_START.sub(lambda m: m.group(1) + m.group(2) + "\\" + m.group(3), s)


def said(text) -> str:
    """A sentence from the library as a customer reads it, for markdown: parts, resiliencies and fields in
    words (:func:`planner.sizing.words.customer_words`), its first letter upper case, escaped (:func:`md`)."""
    return md(first_upper(customer_words(text)))


#: a cell that is a figure ("1,234", "$54.07", "0.518 ms", "-3 %", "+20.8%"), perhaps with one unit word; not
#: a count of parts ("2 x Intel Xeon Gold 6430"): a column of figures is aligned right and never broken
_FIGURE = re.compile(r"^[-+−]?\$?\d[\d,.]*(?:\s?(?:%|[A-Za-zµ/]+))?$")


class Markup(str):
    """Markdown the app writes itself (a coloured "met"), never user text: :func:`table` keeps it."""


def table(rows: list[dict]) -> str:
    """Rows (dicts with the same keys) as one markdown table, for ``st.markdown``.

    Every header and cell is user text to Streamlit (:func:`md`): ``st.table`` renders its cells as
    markdown, so a tier named ``[x](http://host)`` was a link there. One markdown element also draws
    about five times faster than ``st.table`` in the browser (5.7 against 26.9 ms a 10 x 9 table on
    every run, ``benchmarks/streamlit_floor.py``, 2026-11-29). A column whose every cell is a figure
    is aligned right; an empty cell stays empty; a :class:`Markup` cell is kept as written.
    """
    if not rows:
        return ""
    cols = list(rows[0])
    cells = [
        [("" if r.get(c) is None else r[c] if isinstance(r[c], Markup) else str(r[c])) for c in cols] for r in rows
    ]
    right = [
        all(_FIGURE.match(x[i]) or x[i] in ("", DASH) for x in cells) and any(x[i] for x in cells)
        for i in range(len(cols))
    ]
    line = lambda xs: "| " + " | ".join(x if isinstance(x, Markup) else md(x) if x else " " for x in xs) + " |"
    rule = "|" + "|".join("---:" if r else "---" for r in right) + "|"
    return "\n".join([line(cols), rule, *(line(x) for x in cells)])


def num(x, digits: int | None = None, unit: str = "") -> str:
    """A number with thousands separators and a precision that suits its size
    (three significant figures below 100, whole numbers above); ``None`` or a
    non-finite value is a dash."""
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return DASH
    x = float(x)
    if digits is None:
        digits = auto_decimals(x)
    s = f"{x:,.{digits}f}"
    if s.startswith("-") and float(s.replace(",", "")) == 0:
        s = s[1:]
    return f"{s} {unit}".rstrip() if unit else s


def shown_decimals(*xs: float, digits: int = 2, most: int = 6) -> int:
    """The fewest decimals from ``digits`` [-] at which no nonzero figure of ``xs`` rounds to 0, so one row's
    figures in two units read alike: 256 MiB a drive of pool metadata read -0.01 TB beside 0.00 TiB
    (account-manager walk 2026-11-30)."""
    d = digits
    while d < most and any(x and math.isfinite(x) and abs(x) < 10.0**-d for x in xs):
        d += 1
    return d


def typed(x: float) -> str:
    """A figure a user may have typed, as typed (0.5 TB, 0.7 reads, 5,000 IOPS); one computed to many digits (an
    estate's mean per database) at :func:`num`'s precision: the SLA page's tier table read "83,610.51859753378"
    and "1.4585714285714286" (migration walk 2026-11-30)."""
    if float(x).is_integer():
        return num(x, 0)
    shown = f"{x:,}"
    return shown if len(shown.rpartition(".")[2]) <= 3 else num(x)


def device_size(gb: float) -> str:
    """A device's size as its maker writes it, in one unit per scale: "800 GB", "1.6 TB", "7.68 TB" (the
    pickers listed "1600 GB SAS" cache devices beside "1.92 TB SATA" drives; browser review 2026-11-30)."""
    return f"{gb:g} GB" if gb < 1000 else f"{gb / 1000:g} TB"


def kilo(x) -> str:
    """A device's IOPS in few characters: '180' (an HDD), '2.5k', '750k' (an NVMe drive); a
    figure below a thousand is never '0k'."""
    if x is None or not math.isfinite(float(x)):
        return DASH
    a = abs(float(x))
    if a < 1_000:
        return f"{x:,.0f}"
    if a < 10_000:
        return f"{x / 1e3:.1f}k"
    return f"{x / 1e3:,.0f}k"


#: what the IOPS metric is: the workload's, as a design carries it (browser review 2026-11-29: "IOPS 894,360" read
#: as what 3, 4, 5 and 16 nodes can do, where it was the load each carried whole)
IOPS_CARRIED = (
    "the IOPS this design carries of the workload: a load it does not saturate is carried whole, so this "
    "figure is the same on every design that carries it; the most it carries is its IOPS at saturation "
    "(Performance page chart, Compare page table)"
)


def iops(x) -> str:
    return num(x, 0)


def _ms_digits(x: float) -> int:
    """A latency's decimals: 3 below 10 ms (sub-millisecond figures matter), 1 below a second, else none."""
    return 3 if abs(x) < 10 else 1 if abs(x) < 1000 else 0


def ms(x) -> str:
    """Latency in ms, 3 decimals below 10 ms (sub-millisecond figures matter)."""
    if x is None or not math.isfinite(float(x)):
        return DASH
    return num(x, _ms_digits(x), "ms")


def tb(x) -> str:
    return num(x, 2, "TB")


def usd(x, digits: int = 0) -> str:
    if x is None or not math.isfinite(float(x)):
        return DASH
    return ("-" if x < 0 else "") + "$" + num(abs(x), digits)


def unit_price(x) -> str:
    """A price per unit (per guaranteed IOPS, per GB, a month): four decimals under a dollar, where cents are too
    coarse ($0.0696), cents above it ("$347.9375" per IOPS read as false precision; pricing-call walk, stop 63)."""
    if x is None or not math.isfinite(float(x)):
        return DASH
    return usd(x, 4 if abs(x) < 1 else 2)


def pct(x, digits: int = 0) -> str:
    """A share (0.25) as a percentage ('25 %'), by the documents' rule (:func:`planner.core.text.pct`)."""
    if x is None or not math.isfinite(float(x)):
        return DASH
    return text_pct(x, digits)


def screen_error(message: str) -> str:
    """A design error for the screen: a rule across fields names them in its sentence, so the file's
    name before it (the CLI's "design: ", once "(root): ") goes."""
    return first_upper(str(message).removeprefix("design: "))


def used(x) -> str:
    """A share of a resource in use ('49 %'), by the library's rule (:func:`planner.core.text.used_share`); a
    dash for none."""
    if x is None or not math.isfinite(float(x)):
        return DASH
    return used_share(float(x))


def change(ratio: float, digits: int = 1) -> str:
    """A figure against the baseline, from ``ratio`` = new / old: a signed percentage, or past
    ten times the baseline a multiple ("213x", not "+21150.9%"); a change that rounds to nothing is
    "0.0 %" (it was "-0.0%" or "+0.0%", a sign for no change). Percents in :func:`planner.core.text.pct`'s one style ("+21.1 %"; it
    was "+21.1%" beside the documents' "23 %")."""
    if ratio >= 10:
        return f"{ratio:,.0f}x"
    if round(abs(ratio - 1) * 100, digits) == 0:
        return text_pct(0.0, digits)
    return text_pct(ratio - 1, digits, sign=True)


def metric_delta(ratio: float, digits: int = 1, suffix: str = "") -> str | None:
    """A metric's delta badge for ``ratio`` (:func:`change`, then ``suffix``), or None, no badge, when
    the change rounds to nothing: a badge always carries an arrow and a colour, and the Compare page
    showed a green "↓ -0.0%" beside a red "↑ +0.0%" for two unchanged latencies (review 2026-11-29)."""
    shown = change(ratio, digits)
    return None if shown == change(1.0, digits) else shown + suffix


def after_node_loss(cap: dict) -> tuple[str, str]:
    """Usable capacity after losing a node, and what it means, from a capacity report: what the
    survivors hold re-protected, or, where too few fault domains remain to rebuild, the volumes
    themselves, online with fewer copies (not what the survivors could hold re-protected)."""
    repairs = cap.get("repairs_after_node_loss", True)
    online = cap.get("online_after_node_loss", True)
    resumes = bool(cap.get("io_resumes_after_recovery"))
    down = tb(
        usable_one_node_down_tb(
            cap["usable_capacity_tb"], cap["reprotected_after_node_loss_tb"], repairs, online, resumes
        )
    )
    if resumes and repairs:
        # an erasure code below min_size: its stopped placement groups resume once recovery rebuilds them, so what
        # the survivors hold re-protected (the library's one rule, data too big for them included), said as after
        # recovery; "0.00 TB, IO stops" stood beside the Performance page's words on ec-2+1 over 6 nodes (pre-sales
        # Ceph walk 2026-12-03)
        return down + ", once recovered", "after losing a node, " + cap["node_loss_note"].removeprefix(
            "after losing one node, "
        )
    if not online:
        # nothing is served while the node is down, whatever the survivors could hold: "129.25 TB, degraded"
        # stood under "IO stops below min_size 3" (Ceph/vSAN walk 2026-11-30)
        return down + ", IO stops", "with a node down no data is online: " + cap["node_loss_note"].removeprefix(
            "after losing one node, "
        )
    if repairs:
        # Storage Spaces Direct rebuilds onto the survivors only once the down server's drives are retired
        # (S2D specialist's audit)
        s2d = cap.get("storage_platform") in ("windows-server", "azure-local")
        return down, "after losing a node, re-protected on the survivors" + (
            " once an administrator retires the down server's drives (Storage Spaces Direct starts no rebuild by "
            "itself: until then the volumes stay online with fewer copies)"
            if s2d
            else ""
        )
    return (
        down + ", degraded",
        "after losing a node the volumes stay online with fewer copies until the node returns: too few "
        "fault domains remain to rebuild them",
    )


def span(low, high, f=iops, at=None) -> str:
    """'low–high unit' (the unit said once). A latency span's ends take one precision: that of the figure ``at`` it
    bands [ms], else its high end's. "band 5.018–12.8 ms" mixed three decimals with one (browser review
    2026-11-29), and "6.078 ms, band 3.0–12.2 ms" a figure's with its band's (review 2026-12-01)."""
    if high is None and low is not None:  # a band with no high end (an open load past its capacity band's low end)
        return f"{f(low)}–{NO_HIGH_END}"
    if f is ms and low is not None and high is not None and math.isfinite(float(low)) and math.isfinite(float(high)):
        digits = _ms_digits(at if at is not None and math.isfinite(float(at)) else high)
        if low <= 0 or float(num(low, digits).replace(",", "")) > 0:  # a low end never rounds to 0
            return f"{num(low, digits)}–{num(high, digits, 'ms')}"
    return f"{bare(f(low))}–{f(high)}"


#: a band's high end a load has not: past its capacity band's low end, its queues would grow without end there
#: (planner.results.uncertainty.UNBOUNDED_AT_BAND_LOW_NOTE)
NO_HIGH_END = "unbounded"


def _spread(low, high) -> bool:
    """Whether a band has something to show: its ends apart (an open load carried with room to spare has equal
    ends: "band 582,000–582,000" said nothing), or a low end with no high end (an open load past its capacity
    band's low end: unbounded there)."""
    return low is not None and (high is None or low < high)


def band_text(low, high, f=iops, at=None) -> str | None:
    """'band low–high unit' under a figure ``at`` (a latency's band takes its decimals: :func:`span`), or None when
    there is no band to show (:func:`_spread`)."""
    return f"band {span(low, high, f, at)}" if _spread(low, high) else None


def band(value, low, high, f=iops) -> str:
    """'X (low–high)' when there is a band to show (:func:`_spread`), else 'X'; the band at X's precision."""
    return f"{f(value)} ({span(low, high, f, value)})" if _spread(low, high) else f(value)


def estimated(record, fields: tuple[str, ...], value: str, before: str = "", after: str = "") -> str:
    """One figure of a catalog part's label: ``before``, ``value``, ``after``, marked "~... (estimated)" when the
    catalog flags any of ``fields`` as estimated (the record's ``estimated``: not published). The Design page's cache
    picker read "542k write IOPS · 0.09 µs" of two estimates, as datasheet facts (honesty audit 2026-12-01); one
    rule for every picker."""
    est = any(f in (getattr(record, "estimated", None) or {}) for f in fields)
    return f"{before}{'~' if est else ''}{value}{after}{' (estimated)' if est else ''}"


def bare(s: str) -> str:
    """'0.142 ms' -> '0.142': the unit said once, after a span's high end or in a table's header."""
    return s.rsplit(" ", 1)[0] if " " in s and not s[-1].isdigit() else s


def years(x) -> str:
    """A drive's life as the endurance warning says it, by one rule (:func:`planner.physics.endurance.life_words`):
    cut short, in months or days under a year (2.695 read "2.7 years" above "run out in 2.6 years", verification
    walk 2026-11-30; 0.4726 read "0.4 years" beside "run out in 5.6 months", new-user walk)."""
    if x is None or not math.isfinite(float(x)):
        return DASH
    return life_words(float(x))


#: Readable names for the model's keys, shown in tables and charts.
LABELS = {
    "vm_vcpu": "VM vCPUs",
    "host_cpu": "host CPU",
    "network": "network",
    "cache": "cache devices",
    "capacity_drives": "capacity drives",
    "iops": "IOPS",
    # each latency by its one name (planner.engine.performance.LATENCY_NAMES), lower case in a table's words
    **{k: first_lower(v) + ", ms" for k, v in LATENCY_NAMES.items()},
    "host_cpu_utilization": "host CPU utilisation",
    "usable_capacity_tb": "usable capacity, TB",
    "cost_usd_per_month": "cluster cost, USD/month",
    "whole_usd_per_month": "whole cost, USD/month",
    "in_sample": "in sample",
    "cross_validated": "held out (cross-validated)",
    "out_of_scope_configs": "outside the fit's scope",
    "reference": "reference cluster",
    "dell": "Dell VMFleet, every QoS step",
    "dell_unthrottled": "Dell VMFleet, saturation points",
    "dell_out_of_scope": "Dell VMFleet, configurations outside the model",
    # the database description's assumptions (planner.models.database.ASSUMPTION_FIELDS), as a DBA says them
    # (browser review 2026-11-28: "access", "sql server version", "cpu us per txn")
    "access": "Row access pattern",
    "virtual_users": "HammerDB virtual users",
    "all_warehouses": "All warehouses (HammerDB option)",
    "warehouses": "Warehouses",
    "buffer_hit_ratio": "Buffer-pool hit ratio",
    "sql_server_version": "SQL Server version",
    "checkpoint_mode": "Checkpoint mode",
    "checkpoint_interval_s": "Checkpoint interval, s",
    "checkpoint_burst_s": "Checkpoint burst, s",
    "log_bytes_per_txn": "Log bytes per transaction",
    "cpu_us_per_txn": "CPU per transaction, core-µs",
}


def label(key: str) -> str:
    """A readable name for a model key (snake_case never reaches the screen)."""
    return LABELS.get(key, key.replace("_", " "))


def row_errors(exc, records: list[dict], list_field: str, labels: dict) -> str:
    """A table edit's validation errors, each named by its row (and the row's
    ``name``) and the column's label: 'Row 1 (Standard), burst IOPS: must be
    at least ...'. ``exc`` is a pydantic ValidationError on ``{list_field: records}``."""
    out = []
    for e in exc.errors():
        loc = list(e["loc"])
        where = list_field
        if len(loc) >= 2 and loc[0] == list_field and isinstance(loc[1], int):
            i = loc[1]
            name = records[i].get("name") if i < len(records) else None
            # a name of 10,000 characters hid the reason behind it (adversarial review 2026-11-30): at most 40 shown
            said = str(name) if name is None or len(str(name)) <= 40 else f"{str(name)[:40]}…"
            where = f"Row {i + 1}" + (f" ({said})" if name else "")
            loc = loc[2:]
        elif loc == [list_field]:  # the list itself ("tiers, tiers: needs at least 1 entry"; hostile-input walk)
            where, loc = f"The {list_field} list", []
        field = labels.get(str(loc[0]), str(loc[0])) if loc else ""
        msg = plain_message(e)
        for key, lab in labels.items():  # model field names in a message read as the columns' labels
            msg = re.sub(rf"\b{re.escape(key)}\b", lab, msg)
        out.append(f"{where}{', ' + field if field else ''}: {msg.replace('>=', '≥')}")
    return "; ".join(out) + "."


def hosting_caveat(warnings: list[dict]) -> str | None:
    """A short caveat for the headline figures when the healthy nodes cannot host the
    workload's VMs (vCPUs or RAM): the figures assume they run; the warning below says why not."""
    short = [w["check"] for w in warnings if w.get("case") == "healthy" and w.get("check") in ("vcpus", "ram")]
    if not short:
        return None
    what = " and ".join({"vcpus": "too few vCPUs", "ram": "not enough RAM"}[c] for c in short)
    return f":red[as if the nodes could host these VMs: {what} (see below)]"


#: who runs a closed load of VMs on each stack (VMFleet is Storage Spaces Direct's tool; a Ceph or vSAN
#: page said "as VMFleet runs it", browser review 2026-11-29)
VMFLEET_WORDS = {"s2d": "VMFleet", "vsan": "HCIBench", "ceph": "a fio fleet"}


def closed_load_note(
    workload: dict, report: dict, sized_demand: bool = False, design: dict | None = None
) -> str | None:
    """Why a preset shows a latency far above a sized demand's: a preset (``iops`` unset) is a
    closed load, as VMFleet runs it: its VMs keep a fixed number of IOs in flight, so the cluster
    runs at the rate those IOs allow and the latency is that queue's (Little's law); a sized demand
    is an open load of a fixed rate. None for an open load. ``design``: the design (a dict); a disaggregated
    one's VMs run on its client servers (the note counted them on its storage nodes: "250 VMs (50 per node)" where
    the model runs 400 on 8 database servers; browser review 2026-11-30)."""
    if workload.get("iops") or not workload.get("vms_per_node"):
        return None
    # an S2D file-server design's report counts its database and file servers as its nodes: its VMs run on the
    # database servers (Design.database_servers)
    database_servers = ((design or {}).get("clients") or {}).get("servers") or report.get("db_servers")
    nodes = int(database_servers or report.get("nodes") or 0)
    where = "per database server" if database_servers else "per node"
    per_vm = int(workload.get("threads_per_vm") or 1) * int(workload.get("outstanding_per_thread") or 1)
    from planner.models.workload import Workload

    vms = int(Workload.model_validate(workload).vms_on(max(nodes, 1)))  # the load's own count (vms_total)
    head = (
        f"This workload is a closed load, as {VMFLEET_WORDS.get(report.get('stack', 's2d'), 'a load generator')} "
        f"runs it: {vms:,} VMs ({workload['vms_per_node']:,} {where}) each keep {count(per_vm, 'IO')} in flight, "
        f"{vms * per_vm:,} in all, "
    )
    throttle = (
        "the CPU cap"
        if report.get("bottleneck") == "cpu_utilization_cap"
        else "their IOPS limit"
        if workload.get("iops_limit_per_vm") and report.get("bottleneck") == "iops_limit_per_vm"
        else None
    )
    if throttle:
        # a throttle holds the rest of the IOs in their VMs, which the latency does not count (as DiskSpd does
        # not): "the latency (0.514 ms) is the wait in that queue (Little's law)" beside 4,800 IOs at 523,208 IOPS
        # (9.2 ms by Little's law) contradicted itself (browser review 2026-11-29; docs/model.md, the CPU cap)
        s = head + (
            f"and {throttle} admits {iops(report.get('iops'))} IOPS of them. The latency "
            f"({ms(report.get('vm_latency_ms'))}) is the admitted IOs'; the IOs held back wait in their VMs, which "
            "it does not count (as DiskSpd does not)"
            # the whole wait, the library's (the command line's JSON gives it too)
            + (
                f": with them an IO waits {ms(report['vm_response_ms'])} in all (Little's law)."
                if report.get("vm_response_ms") is not None
                else "."
            )
        )
    else:
        s = head + (
            f"so the cluster runs as fast as those IOs allow ({iops(report.get('iops'))} IOPS) and the latency "
            f"({ms(report.get('vm_latency_ms'))}) is the wait in that queue (Little's law), not a demand's."
        )
    if sized_demand:
        # no "far lower": a preset's latency can be below the demand's (browser review 2026-11-29: 0.505 against
        # 0.530 ms)
        s += (
            " The sized demand is an open load, a fixed rate of IOPS, with a latency of its own: 'Use this design' on "
            "the Size page loads it as the workload."
        )
    return s


def extrapolation_note(
    rep: dict, lead: str = "Outside the calibrated domain, so the bands above are widened"
) -> str | None:
    """The warning a report outside the calibrated domain gets on every page that shows its figures
    (Performance, Size; the SLA page's guarantee, ``{"extrapolation": flags}`` with its own ``lead``), escaped
    for markdown; None inside it."""
    flags = rep.get("extrapolation") or []
    if not flags:
        return None
    from planner.sizing.words import extrapolation_words  # the values in words ("fc-4g x1" read as code)

    return f"{lead}: " + "; ".join(md(extrapolation_words(f)) for f in flags) + "."


def at_another_load(kept: dict | None, keys: tuple[str, ...] = ("vm_latency_ms",)) -> str | None:
    """The latencies a report keeps for a load that has none at the rate it asks
    (``latencies_at_capacity``: :func:`planner.results.report.load_latencies`), labelled as the library labels them,
    figures at another load; None when there are none. The Design and Performance pages showed them as the load's
    under the warning that they are not (fixP)."""
    figures = [f"{LATENCY_NAMES[k]} {ms(kept[k])}" for k in keys if kept and kept.get(k) is not None]
    if not kept or not figures:
        return None
    return f"At another load, not this one: {', '.join(figures)}. These are {md(kept['note'])}."
