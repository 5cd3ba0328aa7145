"""Command line: ``python -m planner COMMAND``.

Bad input exits with status 2 and exactly one line on stderr,
``error: <field>: <reason>``, argument errors included (no usage block); user
strings in it are quoted with control characters escaped, so nothing can forge
a second line. Never a traceback.
"""

from __future__ import annotations

import argparse
import sys

from planner import __version__
from planner.cli.args import (
    Parser,
    UsageError,
    add_design_args,
    add_timings_arg,
    design_from_args,
    int_arg,
    print_json,
)
from planner.commercial import file_kinds  # noqa: F401  (every kind of input file known to the messages)
from planner.core.errors import PlannerError, one_line, shown

#: Most bootstrap refits ``calibrate`` accepts (each is a full fit).
MAX_BOOTSTRAP = 200


def cmd_evaluate(args) -> int:
    from planner.models.catalog import load_catalog
    from planner.results.report import evaluate_report, load_latencies

    catalog = load_catalog(args.catalog)
    design = design_from_args(args)
    workload = None
    if args.workload:
        from planner.models.workload import load_workload

        workload = load_workload(args.workload)
    if args.calibration:
        from planner.calibration.refit import evaluate_with_calibration, read_calibration

        cal = read_calibration(args.calibration)
        print_json(
            load_latencies(evaluate_with_calibration(cal, design, workload, catalog=catalog, degraded=args.degraded))
        )
        return 0
    print_json(load_latencies(evaluate_report(design, workload, catalog=catalog, degraded=args.degraded)))
    return 0


def cmd_catalog(args) -> int:
    from planner.models.catalog import DEVICE_CLASSES, load_catalog

    if args.device_class is not None and args.device_class not in DEVICE_CLASSES:
        raise PlannerError(
            f"unknown device class {shown(args.device_class)}; one of {', '.join(DEVICE_CLASSES)}", "device_class"
        )
    catalog = load_catalog(args.catalog)
    classes = [args.device_class] if args.device_class else list(DEVICE_CLASSES)
    out = {c: [r.model_dump(mode="json") for r in catalog.of(c).values()] for c in classes}
    print_json(out)
    return 0


def cmd_schema(args) -> int:
    from pydantic import BaseModel

    from planner.commercial.pricing import CostAssumptions
    from planner.models.database import Database
    from planner.models.demand import Demand
    from planner.models.design import Design
    from planner.models.tiers import TierSet
    from planner.models.workload import Workload

    models: dict[str, type[BaseModel]] = {
        "design": Design,
        "workload": Workload,
        "db": Database,
        "database": Database,
        "database-io": Database,
        "demand": Demand,
        "tiers": TierSet,
        "costs": CostAssumptions,
    }
    if args.kind not in models:
        raise PlannerError(f"unknown schema {shown(args.kind)}; one of {', '.join(models)}", "kind")
    print_json(models[args.kind].model_json_schema(), stamped=False)
    return 0


#: the app's settings, as the repository's .streamlit/config.toml sets them (that file is read
#: only when Streamlit starts in the repository, so ``hciplan app`` passes them itself)
APP_OPTIONS = (
    "--server.headless",
    "true",
    "--browser.gatherUsageStats",
    "false",
    "--client.toolbarMode",
    "viewer",
    "--runner.postScriptGC",
    "false",
    "--runner.magicEnabled",
    "false",
    "--server.maxUploadSize",
    "20",
    "--server.fileWatcherType",
    "none",
)


def cmd_app(args) -> int:
    import importlib.util
    import os
    from importlib.resources import files

    if importlib.util.find_spec("streamlit") is None or importlib.util.find_spec("hciplan_ui") is None:
        raise PlannerError("the app needs streamlit and hciplan_ui: install hciplan with pip (pip install .)", "app")
    script = str(files("hciplan_ui").joinpath("streamlit_app.py"))
    argv = [sys.executable, "-m", "streamlit", "run", script, *APP_OPTIONS, *args.streamlit_args]
    sys.stdout.flush()
    os.execv(sys.executable, argv)  # pragma: no cover - replaces this process
    return 0  # pragma: no cover


def cmd_calibrate(args) -> int:
    if args.stack == "ceph":
        from planner.calibration.ceph_fit import run

        doc = run(write=not args.dry_run, folds=not args.no_cv)
        print_json({k: doc[k] for k in ("version", "params", "fitted", "summary")})
        return 0
    from planner.calibration.fit import run_calibration
    from planner.core.jsonio import without_wall_clock

    if not 0 <= args.bootstrap <= MAX_BOOTSTRAP:
        # a negative count would write a calibration without bands
        raise UsageError(f"must be 0..{MAX_BOOTSTRAP} refits (got {args.bootstrap})", "bootstrap")
    summary = run_calibration(write=not args.dry_run, bootstrap=args.bootstrap, folds=not args.no_cv)
    print_json(summary if args.timings else without_wall_clock(summary))
    return 0


def cmd_validate(args) -> int:
    if args.stack == "ceph":
        from planner.calibration.ceph_fit import validation_table as ceph_table

        table = ceph_table()
    else:
        from planner.calibration.fit import validation_table

        table = validation_table()
    if args.format == "csv":
        from planner.core.csvsafe import write_csv

        write_csv(table["rows"], sys.stdout)
    else:
        print_json(table if args.rows else table["summary"])
    return 0


#: commands defined in this module; the others (commands.py) import more at
#: registration, so a run of one of these skips registering them
CORE_COMMANDS = ("app", "evaluate", "catalog", "schema", "calibrate", "validate")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The full parser, or with ``command`` one of :data:`CORE_COMMANDS`, the
    parser without the extra commands (start-up: the import command's
    registration alone imports every file importer)."""
    p = Parser(prog="hciplan", description="hciplan: capacity, performance and cost planner for HCI database clusters")
    p.add_argument("--version", action="version", version=f"hciplan {__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    a = sub.add_parser(
        "app",
        help="start the app (Streamlit) and print its address",
        description="Start the app (Streamlit) and print its address. Everything after 'app' is passed on to "
        "'streamlit run' (its options: python -m streamlit run --help).",
    )
    a.add_argument("streamlit_args", nargs="*", help="passed on to 'streamlit run' (e.g. --server.port 8502)")
    a.set_defaults(func=cmd_app)

    e = sub.add_parser("evaluate", help="capacity (and performance with --workload) of a design")
    add_design_args(e)
    e.add_argument("--workload", help="workload file or profile name")
    e.add_argument("--no-degraded", dest="degraded", action="store_false", help="skip the one-node-down evaluation")
    e.add_argument(
        "--calibration",
        help="calibration file to use instead of the shipped fit (e.g. written by `import --calibrate`)",
    )
    e.set_defaults(func=cmd_evaluate)

    c = sub.add_parser("catalog", help="list catalog parts")
    c.add_argument(
        "device_class", nargs="?", help="one class of parts (e.g. cpu, capacity_drive, nic); default every class"
    )
    c.add_argument("--catalog", help="extra catalog folder")
    c.set_defaults(func=cmd_catalog)

    s = sub.add_parser("schema", help="print a JSON schema")
    s.add_argument("kind", help="design, workload, db, demand or tiers")
    s.set_defaults(func=cmd_schema)

    k = sub.add_parser("calibrate", help="refit model parameters from planner/data/benchmarks")
    k.add_argument("--dry-run", action="store_true", help="fit and print, without writing the calibration file")
    k.add_argument("--bootstrap", type=int_arg, default=12, help=f"bootstrap refits, 0..{MAX_BOOTSTRAP}")
    k.add_argument("--no-cv", action="store_true", help="skip the leave-one-configuration-out refits (faster)")
    add_timings_arg(k)
    k.add_argument(
        "--stack",
        choices=["s2d", "ceph"],
        default="s2d",
        help="which stack's parameters: s2d (the VMFleet data) or ceph (the Ceph blog's, calibration-ceph.json)",
    )
    k.set_defaults(func=cmd_calibrate)

    v = sub.add_parser("validate", help="every measured point: prediction vs measurement")
    v.add_argument("--rows", action="store_true", help="print every row, not just the summary")
    v.add_argument("--format", choices=["json", "csv"], default="json", help="output format (default json)")
    v.add_argument("--stack", choices=["s2d", "ceph"], default="s2d", help="the S2D or the Ceph calibration's points")
    v.set_defaults(func=cmd_validate)

    if command not in CORE_COMMANDS:
        for register in _extra_commands():
            register(sub)
    return p


def _extra_commands():
    from planner.cli import commands as c
    from planner.cli import commercial as customer

    return [
        c.register_sla,
        c.register_db_io,
        c.register_price,
        c.register_size,
        c.register_import,
        c.register_bom,
        c.register_compare,
        customer.register_customer,
    ]


def _argument_of(exc: OSError, args) -> str:
    """The argument an OSError came from (its value is the error's file name)."""
    names = {str(exc.filename), str(getattr(exc, "filename2", None))}
    for dest, value in vars(args).items():
        if isinstance(value, str) and value in names:
            return dest
    return args.command


def _group_help(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.ArgumentParser | None:
    """The parser whose help a bare ``hciplan`` or a bare command group (``hciplan scenario``) asks
    for: a command is what the user wants to learn there, not an error to read."""
    if not argv:
        return parser
    if len(argv) != 1:
        return None
    sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
    command = sub.choices.get(argv[0]) if sub is not None else None
    if command is not None and any(isinstance(a, argparse._SubParsersAction) for a in command._actions):
        return command
    return None


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv[0] if argv else None)
    shown_help = _group_help(parser, argv)
    if shown_help is not None:
        shown_help.print_help()
        return 0
    try:
        if argv[:1] == ["app"] and any(a in ("-h", "--help") for a in argv[1:2]):
            # hciplan's own help of the command (it printed Streamlit's 5,478 lines; hostile-input walk)
            args = parser.parse_args(["app", "--help"])
        if argv and argv[0] == "app":  # everything after 'app' goes to streamlit as it is
            args = parser.parse_args(["app"])
            args.streamlit_args = argv[1:]
        else:
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
    except BrokenPipeError:
        # the reader went away (`hciplan ... | head`): stop quietly, as Unix tools do
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as exc:
        # e.g. 'design: file name too long'; the path itself is not echoed
        reason = one_line((exc.strerror or type(exc).__name__).lower())
        print(f"error: {_argument_of(exc, args)}: {reason}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
