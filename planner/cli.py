"""Command line: ``python -m planner COMMAND``.

Bad input exits with status 2 and exactly one line on stderr,
``error: <field>: <reason>``, argument errors included (no usage block); user
strings in it are quoted with control characters escaped, so nothing can forge
a second line. Never a traceback.
"""
from __future__ import annotations

import argparse
import json
import math
import re
import sys

from planner.errors import PlannerError, one_line, shown

#: Most bootstrap refits ``calibrate`` accepts (each is a full fit).
MAX_BOOTSTRAP = 200


class UsageError(PlannerError):
    """A command-line argument is missing, unknown or malformed."""


_QUOTED = re.compile(r"'([^']{%d,})'" % 60)


def _usage_error(message: str) -> UsageError:
    """argparse's message as 'field: reason' (argparse's own wording kept)."""
    message = _QUOTED.sub(lambda m: shown(m.group(1), 60), message)
    m = re.match(r"argument ([^:]+): (.*)", message, re.S)
    if m:
        names = m.group(1).split("/")
        name = next((n for n in names if n.startswith("--")), names[0])
        return UsageError(m.group(2), name.lstrip("-"))
    m = re.match(r"the following arguments are required: (.*)", message, re.S)
    if m:
        names = [n.strip() for n in m.group(1).split(",")]
        more = f" (also: {', '.join(names[1:])})" if len(names) > 1 else ""
        return UsageError(f"required{more}", names[0].lstrip("-"))
    m = re.match(r"one of the arguments (.*) is required", message, re.S)
    if m:
        names = m.group(1).split()
        return UsageError(f"required (or: {', '.join(n.lstrip('-') for n in names[1:])})", names[0].lstrip("-"))
    m = re.match(r"ambiguous option: (\S+) (.*)", message, re.S)
    if m:
        return UsageError(f"ambiguous option: {m.group(2)}", m.group(1).split("=")[0].lstrip("-"))
    m = re.match(r"unrecognized arguments: (.*)", message, re.S)
    if m:
        return UsageError(f"unrecognized: {shown(m.group(1))}", "arguments")
    return UsageError(message, "arguments")


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one-line PlannerErrors, not usage blocks."""

    def error(self, message):  # noqa: D401 - argparse API
        raise _usage_error(message)


def _int_arg(text: str) -> int:
    # bounded before int(): a 5,000-digit argument would hit Python's int-string limit
    if not re.fullmatch(r"[+-]?\d{1,18}", text.strip()):
        raise argparse.ArgumentTypeError(f"not an integer: {shown(text, 40)}")
    return int(text)


def _float_arg(text: str) -> float:
    try:
        x = float(text) if len(text) <= 64 else math.nan
    except ValueError:
        x = math.nan
    if not math.isfinite(x):
        raise argparse.ArgumentTypeError(f"not a finite number: {shown(text, 40)}")
    return x


def _print(obj) -> None:
    """Strict JSON on stdout: any parser reads it (no NaN/Infinity; see jsonio.strict)."""
    from planner.jsonio import dumps

    print(dumps(obj, indent=2))


def _design_from_args(args):
    from planner.design import load_design, with_overrides

    design = load_design(args.design)
    overrides = {k: getattr(args, k, None) for k in ("nodes", "transport", "resiliency",
                                                     "vcpu_oversubscription", "cpu_utilization_cap",
                                                     "volume_servers", "cache_mode")}
    if any(v is not None for v in overrides.values()):
        design = with_overrides(design, **overrides)
    return design


def cmd_evaluate(args) -> int:
    from planner.catalog import load_catalog
    from planner.report import evaluate_report

    catalog = load_catalog(args.catalog)
    design = _design_from_args(args)
    workload = None
    if args.workload:
        from planner.workload import load_workload

        workload = load_workload(args.workload)
    if args.calibration:
        from planner.refit import evaluate_with_calibration, read_calibration

        cal = read_calibration(args.calibration)
        _print(evaluate_with_calibration(cal, design, workload, catalog=catalog, degraded=args.degraded))
        return 0
    _print(evaluate_report(design, workload, catalog=catalog, degraded=args.degraded))
    return 0


def cmd_catalog(args) -> int:
    from planner.catalog import DEVICE_CLASSES, load_catalog

    if args.device_class is not None and args.device_class not in DEVICE_CLASSES:
        raise PlannerError(f"unknown device class {shown(args.device_class)}; one of {', '.join(DEVICE_CLASSES)}",
                           "device_class")
    catalog = load_catalog(args.catalog)
    classes = [args.device_class] if args.device_class else list(DEVICE_CLASSES)
    out = {c: [r.model_dump(mode="json") for r in catalog.of(c).values()] for c in classes}
    _print(out)
    return 0


def cmd_schema(args) -> int:
    from planner.design import Design
    from planner.workload import Workload

    models = {"design": Design, "workload": Workload}
    try:
        from planner.dbworkload import DatabaseIo
        from planner.sla import Database
        from planner.sizing import Demand
        from planner.tiers import TierSet

        models.update({"db": Database, "database-io": DatabaseIo, "demand": Demand, "tiers": TierSet})
    except ImportError:  # pragma: no cover - optional modules during development
        pass
    if args.kind not in models:
        raise PlannerError(f"unknown schema {shown(args.kind)}; one of {', '.join(models)}", "kind")
    _print(models[args.kind].model_json_schema())
    return 0


def cmd_calibrate(args) -> int:
    from planner.calibration import run_calibration

    if not 0 <= args.bootstrap <= MAX_BOOTSTRAP:
        # a negative count would write a calibration without bands
        raise UsageError(f"must be 0..{MAX_BOOTSTRAP} refits (got {args.bootstrap})", "bootstrap")
    summary = run_calibration(write=not args.dry_run, bootstrap=args.bootstrap, folds=not args.no_cv)
    _print(summary)
    return 0


def cmd_validate(args) -> int:
    from planner.calibration import validation_table

    table = validation_table()
    if args.format == "csv":
        import csv

        w = csv.DictWriter(sys.stdout, fieldnames=list(table["rows"][0]))
        w.writeheader()
        w.writerows(table["rows"])
    else:
        _print(table if args.rows else table["summary"])
    return 0


def add_design_args(p) -> None:
    """A design file, an extra catalog folder and the quick what-if overrides."""
    p.add_argument("design")
    p.add_argument("--catalog", help="extra catalog folder")
    p.add_argument("--nodes", type=_int_arg)
    p.add_argument("--transport", choices=["rdma", "tcp"])
    p.add_argument("--resiliency")
    p.add_argument("--vcpu-oversubscription", dest="vcpu_oversubscription", type=_float_arg)
    p.add_argument("--cpu-utilization-cap", dest="cpu_utilization_cap", type=_float_arg)
    p.add_argument("--volume-servers", dest="volume_servers", type=_int_arg,
                   help="servers each volume spans (fewer than nodes: delimited allocation)")
    p.add_argument("--cache-mode", dest="cache_mode", choices=["read-write", "write-only", "read-only"])


#: commands defined in this module; the others (commands.py) import more at
#: registration, so a run of one of these skips registering them
CORE_COMMANDS = ("evaluate", "catalog", "schema", "calibrate", "validate")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The full parser, or with ``command`` one of :data:`CORE_COMMANDS`, the
    parser without the extra commands (start-up: the import command's
    registration alone imports every file importer)."""
    p = Parser(prog="python -m planner", description="hciplan: HCI capacity and performance planner")
    sub = p.add_subparsers(dest="command", required=True)

    e = sub.add_parser("evaluate", help="capacity (and performance with --workload) of a design")
    add_design_args(e)
    e.add_argument("--workload", help="workload file or profile name")
    e.add_argument("--no-degraded", dest="degraded", action="store_false", help="skip the one-node-down evaluation")
    e.add_argument("--calibration", help="calibration file to use instead of the shipped fit "
                   "(e.g. written by `import --calibrate`)")
    e.set_defaults(func=cmd_evaluate)

    c = sub.add_parser("catalog", help="list catalog parts")
    c.add_argument("device_class", nargs="?")
    c.add_argument("--catalog", help="extra catalog folder")
    c.set_defaults(func=cmd_catalog)

    s = sub.add_parser("schema", help="print a JSON schema")
    s.add_argument("kind", help="design, workload, db, demand or tiers")
    s.set_defaults(func=cmd_schema)

    k = sub.add_parser("calibrate", help="refit model parameters from data/benchmarks")
    k.add_argument("--dry-run", action="store_true")
    k.add_argument("--bootstrap", type=_int_arg, default=12, help=f"bootstrap refits, 0..{MAX_BOOTSTRAP}")
    k.add_argument("--no-cv", action="store_true")
    k.set_defaults(func=cmd_calibrate)

    v = sub.add_parser("validate", help="every measured point: prediction vs measurement")
    v.add_argument("--rows", action="store_true", help="print every row, not just the summary")
    v.add_argument("--format", choices=["json", "csv"], default="json")
    v.set_defaults(func=cmd_validate)

    if command not in CORE_COMMANDS:
        for register in _extra_commands():
            register(sub)
    return p


def _extra_commands():
    regs = []
    try:
        from planner.commands import register_bom, register_import, register_price, register_size, register_sla

        regs += [register_sla, register_price, register_size, register_import, register_bom]
    except ImportError:
        pass
    from planner.compare import register_compare

    regs.append(register_compare)
    return regs


def _argument_of(exc: OSError, args) -> str:
    """The argument an OSError came from (its value is the error's file name)."""
    names = {str(exc.filename), str(getattr(exc, "filename2", None))}
    for dest, value in vars(args).items():
        if isinstance(value, str) and value in names:
            return dest
    return args.command


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv[0] if argv else None)
    try:
        args = parser.parse_args(argv)
        for dest, value in vars(args).items():  # no file system or id takes a NUL character
            if any("\x00" in v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str)):
                raise UsageError("contains a NUL character", dest)
        import warnings

        import numpy as np

        # extreme but valid figures can overflow inside the model; the output says so per
        # value (null with a note), so numpy's warnings would only be noise on stderr
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return args.func(args)
    except PlannerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        # e.g. 'design: file name too long'; the path itself is not echoed
        reason = one_line((exc.strerror or type(exc).__name__).lower())
        print(f"error: {_argument_of(exc, args)}: {reason}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
