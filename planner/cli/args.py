"""What every command's arguments share: one-line argument errors, bounded number
parsing, the design file with its what-if overrides, and strict JSON output."""

from __future__ import annotations

import argparse
import math
import re

from planner.core.errors import PlannerError, shown


class UsageError(PlannerError):
    """A command-line argument is missing, unknown or malformed."""


_QUOTED = re.compile(r"'([^']{60,})'")


def _usage_error(
    message: str, helps: dict[str, str] | None = None, choices: dict[str, list[str]] | None = None
) -> UsageError:
    """argparse's message as 'field: reason' (argparse's own wording kept). ``helps``: each argument's
    help by the names it is typed as; a missing argument is told as what to give, with what it is, or the values
    it takes (``choices``, by the same names)."""
    helps = helps or {}
    choices = choices or {}

    def what(names: list[str]) -> str:
        if values := choices.get(names[0]):
            # the values it takes: the help's first clause of --format was "pdf" ("give --format, the pdf"; hostile-
            # input walk)
            listed = ", ".join(values[:-1]) + f" or {values[-1]}" if len(values) > 1 else values[0]
            return f": give {' or '.join(names)} {listed}"
        # the help's first clause ("database JSON file (`schema database`): by its IO ..." -> its head)
        clause = re.split(r" \(|: |; ", helps.get(names[0], ""), maxsplit=1)[0].strip()
        if not names[0].startswith("-"):  # a positional: what it is
            return f": the {clause}" if clause else ""
        return f": give {' or '.join(names)}" + (f", the {clause}" if clause else "")

    message = _QUOTED.sub(lambda m: shown(m.group(1), 60), message)
    m = re.match(r"argument ([^:]+): (.*)", message, re.S)
    if m:
        names = m.group(1).split("/")
        name = next((n for n in names if n.startswith("--")), names[0])
        return UsageError(m.group(2), name.lstrip("-"))
    m = re.match(r"the following arguments are required: (.*)", message, re.S)
    if m:
        names = [n.strip() for n in m.group(1).split(",")]
        more = f" (also: {', '.join(names[1:])})" if len(names) > 1 else what(names[:1])
        return UsageError(f"required{more}", names[0].lstrip("-"))
    m = re.match(r"one of the arguments (.*) is required", message, re.S)
    if m:
        names = m.group(1).split()
        return UsageError(f"required{what(names)}", names[0].lstrip("-"))
    m = re.match(r"ambiguous option: (\S+) (.*)", message, re.S)
    if m:
        return UsageError(f"ambiguous option: {m.group(2)}", m.group(1).split("=")[0].lstrip("-"))
    m = re.match(r"unrecognized arguments: (.*)", message, re.S)
    if m:
        return UsageError(f"unrecognized: {shown(m.group(1))}", "arguments")
    return UsageError(message, "arguments")


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one-line PlannerErrors, not usage blocks."""

    def error(self, message):
        helps = {n: a.help or "" for a in self._actions for n in (a.option_strings or [a.dest])}
        choices = {n: [str(c) for c in a.choices] for a in self._actions if a.choices for n in a.option_strings}
        raise _usage_error(message, helps, choices)


def check_out(path: str | None, stdout: bool = False) -> None:
    """``--out``, given, names a file (``stdout``: or ``-``): an empty name read "cannot write '.': device or
    resource busy" (proposal) or wrote the default file (import; hostile-input walk)."""
    if path is not None and not path.strip():
        raise UsageError("is empty: give a file name" + (" (or - for standard output)" if stdout else ""), "out")


def int_arg(text: str) -> int:
    # bounded before int(): a 5,000-digit argument would hit Python's int-string limit
    if not re.fullmatch(r"[+-]?\d{1,18}", text.strip()):
        raise argparse.ArgumentTypeError(f"not an integer: {shown(text, 40)}")
    return int(text)


def float_arg(text: str) -> float:
    try:
        x = float(text) if len(text) <= 64 else math.nan
    except ValueError:
        x = math.nan
    if not math.isfinite(x):
        raise argparse.ArgumentTypeError(f"not a finite number: {shown(text, 40)}")
    return x


def print_json(obj, stamped: bool = True) -> None:
    """Strict JSON on stdout: any parser reads it (no NaN/Infinity; see jsonio.strict), with
    ``hciplan_version`` on every object a command reports (not on a JSON schema)."""
    from planner.core.jsonio import dumps
    from planner.core.version import stamp

    print(dumps(stamp(obj) if stamped else obj, indent=2))


def design_from_args(args):
    from planner.models.design import load_design, with_overrides

    design = load_design(args.design)
    overrides = {
        k: getattr(args, k, None)
        for k in (
            "stack",
            "nodes",
            "transport",
            "resiliency",
            "vcpu_oversubscription",
            "cpu_utilization_cap",
            "volume_servers",
            "cache_mode",
            "capacity_drive",
            "drives_per_node",
            "nic",
            "nics_per_node",
        )
    }
    given = {k: v for k, v in overrides.items() if v is not None}
    for k, said in (("capacity_drive", "capacity drive"), ("nic", "NIC")):
        if k in given:  # said as the flag's ("node.capacity_drives.model: unknown capacity drive id" blamed the file)
            from planner.models.catalog import load_catalog

            if given[k] not in load_catalog(getattr(args, "catalog", None)).of(k):
                raise PlannerError(
                    f"{shown(given[k])} is no {said} of the catalog (`hciplan catalog {k}` lists them)", k
                )
    if given:
        try:
            design = with_overrides(design, **given)
        except PlannerError as exc:
            # a flag refused by name (planner.models.design.override_refused); a node part's count the chassis does
            # not take is the flags' too ("node.capacity_drives.count: 40 drives per node ..." blamed the file)
            if exc.field not in (None, "design") and not str(exc.field).startswith("node."):
                raise
            # the design file is valid; the flags made it not: said as the flags', not the file's ("design: resiliency
            # 'mirror-3way' needs at least 3 fault domains" of `--nodes 2`; DBA review 2026-11-30)
            flags = " ".join(f"--{k.replace('_', '-')} {v}" for k, v in given.items())
            why = exc.message.removeprefix("design: ")
            raise PlannerError(f"the design with {flags} is not valid: {why}", next(iter(given))) from None
    return design


def add_design_args(p) -> None:
    """A design file, an extra catalog folder and the quick what-if overrides."""
    p.add_argument("design", help="design JSON file (`hciplan schema design`)")
    p.add_argument("--catalog", help="extra catalog folder")
    p.add_argument(
        "--stack", choices=["s2d", "ceph", "vsan"], help="storage stack (the resiliency maps to its equivalent)"
    )
    p.add_argument("--nodes", type=int_arg, help="number of nodes instead of the design's")
    p.add_argument("--transport", choices=["rdma", "tcp"], help="storage network transport instead of the design's")
    p.add_argument(
        "--resiliency", help="resiliency instead of the design's (e.g. mirror-2way, mirror-3way, replica-3, ec-4+2)"
    )
    p.add_argument(
        "--vcpu-oversubscription",
        dest="vcpu_oversubscription",
        type=float_arg,
        help="vCPUs per logical processor instead of the design's",
    )
    p.add_argument(
        "--cpu-utilization-cap",
        dest="cpu_utilization_cap",
        type=float_arg,
        help="the hosts' CPU utilisation cap, 0 to 1, instead of the design's",
    )
    p.add_argument(
        "--volume-servers",
        dest="volume_servers",
        type=int_arg,
        help="servers each volume spans (fewer than nodes: delimited allocation)",
    )
    p.add_argument(
        "--cache-mode",
        dest="cache_mode",
        choices=["read-write", "write-only", "read-only"],
        help="the S2D cache's mode instead of the design's",
    )
    p.add_argument(
        "--capacity-drive", dest="capacity_drive", help="capacity drive catalog id instead of the design's (`catalog`)"
    )
    p.add_argument(
        "--drives-per-node",
        dest="drives_per_node",
        type=int_arg,
        help="capacity drives per node instead of the design's",
    )
    p.add_argument("--nic", help="NIC catalog id instead of the design's (`catalog`)")
    p.add_argument("--nics-per-node", dest="nics_per_node", type=int_arg, help="NICs per node instead of the design's")


def add_timings_arg(p) -> None:
    """``--timings``: keep the wall-clock fields (``seconds``, ``timing_s``) in the output. Without
    it the same input prints the same bytes (:data:`planner.core.jsonio.WALL_CLOCK_KEYS`)."""
    p.add_argument(
        "--timings",
        action="store_true",
        help="include wall-clock times (seconds, timing_s); without it two runs of the same input print the same bytes",
    )
