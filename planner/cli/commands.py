"""CLI commands: ``sla``, ``price``, ``size``, ``import`` and ``bom``.

Input files are JSON objects, at most 1 MB, parsed with :mod:`json` only; a bad
file raises a :class:`planner.core.errors.PlannerError` naming the field, which the
CLI turns into exit status 2 and one line.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from planner.cli.args import (
    add_design_args,
    add_timings_arg,
    check_out,
    design_from_args,
    float_arg,
    int_arg,
    print_json,
)
from planner.core.errors import PlannerError, field_bounds
from planner.core.jsonio import NOT_COMPUTABLE, strict, without_wall_clock
from planner.core.jsonio import load_json_model as _load

MAX_INPUT_FILE_BYTES = 1_000_000


class InputError(PlannerError):
    pass


def check_bounds(model: type[BaseModel], field: str, value: float, unit: str = "") -> None:
    """Refuse an option's ``value`` outside ``model``'s bounds for ``field`` (all inclusive), in one line named
    by the field, before any file is read: the options of ``sla`` and ``estate``."""
    lo, hi, _ = field_bounds(model, field)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        span = f"{'' if lo is None else f'{lo:g}'}..{'' if hi is None else f'{hi:g}'}"
        raise InputError(f"must be {span}{' ' + unit if unit else ''} (got {value:g})", field)


def load_json_model(path: str | Path, model: type[BaseModel], field: str):
    return _load(path, model, InputError, field, prefix=field, max_bytes=MAX_INPUT_FILE_BYTES)


#: ``sla`` flags that override the database file's own fields
SLA_OVERRIDES = ("vcpus", "threads", "outstanding_per_thread", "latency_target_ms", "latency_statistic")


def _calibration_args(args):
    """(params, bootstrap sets) of ``--calibration``, or (None, None) for the shipped fit;
    a refit's band comes from its own bootstrap sets (none: `sla` gives no band, `evaluate` band = point)."""
    if not getattr(args, "calibration", None):
        return None, None
    from planner.calibration.refit import read_calibration

    cal = read_calibration(args.calibration)
    return cal.params, cal.bootstrap_params()


def cmd_sla(args) -> int:
    from planner.commercial.sla import guarantee, guarantee_by_vm_size, guarantee_extrapolation, guarantee_model
    from planner.models.catalog import load_catalog
    from planner.models.database import Database, load_database
    from planner.models.workload import load_workload

    catalog = load_catalog(args.catalog)
    design = design_from_args(args)
    # the cluster model's arrays (hyperconverged, or Ceph / vSAN with their clients), or another
    # architecture's network: the library's rule, the SLA page's too
    rd = guarantee_model(design, catalog)
    bg = load_workload(args.background, "background") if args.background else None
    params, boot = _calibration_args(args)
    db = load_database(args.db or args.database, "db" if args.db else "database")
    given = {k: getattr(args, k) for k in SLA_OVERRIDES if getattr(args, k, None) is not None}
    for k, v in given.items():
        if k != "latency_statistic":
            check_bounds(Database, k, v)  # as the Database model checks them
    if given:
        db = db.model_copy(update=given)
    if db.has_workload:
        from planner.commercial.database import database_capacity
        from planner.commercial.sla import database_guarantee

        out = database_guarantee(
            rd,
            db,
            background=bg,
            n_plus_one=args.n_plus_one,
            peak=not args.mean,
            params=params,
            bootstrap=boot,
            catalog=catalog,
        )
        out["database_capacity"] = database_capacity(design, db, catalog=catalog, params=params)
    else:
        if args.mean:
            raise InputError("only applies to a database described by its workload (nopm or tpm)", "mean")
        out = guarantee(rd, db, bg, n_plus_one=args.n_plus_one, params=params, bootstrap=boot).model_dump(mode="json")
    from planner.sizing.words import band_note_words

    # what widened the band in the SLA page's words, not the calibrated domain's field names ("cpu_family: ...")
    g = out.get("guarantee", out)
    g["band_note"] = band_note_words(g["band_note"], design.stack)
    if g.get("binding_constraint") == "vm_outstanding_io":
        # --vcpus 32 alone left the file's 4 x 16 IOs in flight and the guarantee where it was, with no word why
        # (CLI walk 2026-12-01: DataLine's 200,000 IOPS need 8 threads as well as 32 vCPUs)
        n_threads, per_thread = db.vm("threads"), db.vm("outstanding_per_thread")
        g["binding_constraint_note"] = (
            f"the VM's {n_threads} IO threads x {per_thread} outstanding IOs ({n_threads * per_thread} in flight) "
            "bound it by Little's law at the latency target: more vCPUs alone do not raise it; give --threads or "
            "--outstanding-per-thread, or --vm-sizes for the guarantee of each VM size"
        )
    if args.vm_sizes:
        out["by_vm_size"] = guarantee_by_vm_size(rd, db, bg, n_plus_one=args.n_plus_one, params=params, catalog=catalog)
    # the calibrated domain, as evaluate flags it (a guarantee on an extrapolated design had no word of it)
    out["extrapolation"] = guarantee_extrapolation(design, db, peak=db.has_workload and not args.mean, catalog=catalog)
    print_json(strict(out, NOT_COMPUTABLE))
    return 0


def load_costs(path: str | Path, catalog=None):
    """``--costs``: the cost assumptions JSON, its part ids and vendors checked against the catalog
    (:func:`planner.commercial.prices.check_cost_keys`), one loader for every command."""
    from planner.commercial.prices import check_cost_keys
    from planner.commercial.pricing import CostAssumptions

    a = load_json_model(path, CostAssumptions, "costs")
    check_cost_keys(a, catalog)
    return a


def add_guest_os_arg(p) -> None:
    """``--guest-os-licence``: whether a Ceph or vSAN cost counts the Windows Server guests' Datacenter licences
    (``CostAssumptions.guest_os_licence``; Ceph operator walk: Linux guests were hard to find)."""
    p.add_argument(
        "--guest-os-licence",
        dest="guest_os_licence",
        choices=["windows-server-datacenter", "none"],
        help="the Windows Server guests of a Ceph or vSAN cluster: Datacenter on the VM servers' cores (the "
        "default), or none for Linux guests or guests licensed elsewhere (an S2D cluster's host licence covers "
        "its guests)",
    )


def options_not_applied(args, stacks, a=None) -> list[str]:
    """Each cost option given that cannot change this output, with why (``stacks``: the storage stacks costed; ``a``:
    the cost assumptions). ``cost --guest-os-licence none`` of an S2D design printed the same bytes without a word
    (hostile-input walk); said as ``cost --platform`` on Ceph is (:func:`planner.commercial.licensing.stack_platform_note`),
    in ``options_not_applied``."""
    from planner.commercial.licensing import S2D_GUESTS_WORDS

    out = []
    if getattr(args, "guest_os_licence", None) and not set(stacks) & {"ceph", "vsan"}:
        out.append(f"--guest-os-licence {args.guest_os_licence}: {S2D_GUESTS_WORDS}")
    if a is not None and getattr(args, "sql_licensing", None) and a.sql_edition == "none":
        out.append(
            f"--sql-licensing {args.sql_licensing}: only applies with SQL Server licences counted (--sql standard or "
            "enterprise, or sql_edition in --costs); none are"
        )
    return out


def with_options_not_applied(out: dict, said: list[str]) -> dict:
    """``out`` with ``options_not_applied`` when an option given changes nothing."""
    return {**out, "options_not_applied": said} if said else out


def _costs(args):
    """CostAssumptions of ``--costs`` with ``--platform`` (a design naming its platform keeps its own:
    :func:`planner.commercial.licensing.platform_of`) and ``--guest-os-licence``; None for a command given none of
    them that takes None for the defaults (``size``)."""
    from planner.commercial.pricing import CostAssumptions
    from planner.models.catalog import load_catalog

    a = load_costs(args.costs, load_catalog(getattr(args, "catalog", None))) if args.costs else CostAssumptions()
    update = {k: getattr(args, k) for k in ("platform", "guest_os_licence") if getattr(args, k, None)}
    return a.model_copy(update=update) if update else a


def cmd_price(args) -> int:
    from planner.commercial.pricing import tier_prices
    from planner.models.catalog import load_catalog
    from planner.models.design import resolve
    from planner.models.tiers import TierSet, default_tiers

    catalog = load_catalog(args.catalog)
    rd = resolve(design_from_args(args), catalog)
    tiers = load_json_model(args.tiers, TierSet, "tiers") if args.tiers else default_tiers()
    costs = _costs(args)
    params, _ = _calibration_args(args)
    out = tier_prices(rd, tiers, costs, n_plus_one=args.n_plus_one, params=params)
    if args.mix:
        from planner.commercial.tco import tier_revenue, whole_cost
        from planner.commercial.tiers import fit_mix
        from planner.models.tiers import parse_mix

        counts = parse_mix(args.mix, [t.name for t in tiers.tiers])
        fit = fit_mix(rd, tiers, counts, args.n_plus_one, params)["mix"]
        # what the prices bring in against the whole cost, the proposal's rule and words
        whole = whole_cost(rd.design, None, costs, catalog)
        rev = tier_revenue(out, counts, whole, max(fit["utilization"].values()), "this mix")
        out["mix"] = {"counts": counts, **fit, **rev}
    print_json(strict(with_options_not_applied(out, options_not_applied(args, [rd.design.stack])), NOT_COMPUTABLE))
    return 0


def cmd_size(args) -> int:
    from planner.models.catalog import load_catalog
    from planner.models.demand import Demand
    from planner.sizing.search import size

    demand = load_json_model(args.demand, Demand, "demand")
    if args.top < 1 or args.top > 100:
        raise InputError(f"must be 1..100 (got {args.top})", "top")
    costs = _costs(args) if args.costs or args.guest_os_licence else None
    params, _ = _calibration_args(args)
    out = size(demand, load_catalog(args.catalog), top=args.top, assumptions=costs, params=params).model_dump(
        mode="json"
    )
    if out["best"] is None:  # no design: the explanation is why (every null with its reason)
        out["best_note"] = out["explanation"] or "no design meets the demand"
    out = with_options_not_applied(out, options_not_applied(args, [demand.stack]))  # the sizer's designs: its stack
    print_json(strict(out if args.timings else without_wall_clock(out), NOT_COMPUTABLE))
    return 0


def cmd_bom(args) -> int:
    from planner.commercial.bom import bom
    from planner.commercial.network import NetworkError
    from planner.models.catalog import load_catalog
    from planner.models.design import resolve

    catalog = load_catalog(args.catalog)
    rd = resolve(design_from_args(args), catalog)
    costs = _costs(args)
    if args.switch and args.switch not in catalog.switch:
        raise InputError(f"unknown switch id '{args.switch}'; one of {', '.join(catalog.switch)}", "switch")
    if args.switches is not None and not 1 <= args.switches <= 16:
        raise InputError(f"must be 1 to 16 switches (got {args.switches})", "switches")
    costs = costs.model_copy(
        update={"switch_model": args.switch or costs.switch_model, "switch_count": args.switches or costs.switch_count}
    )
    try:
        print_json(bom(rd, costs, catalog))
    except NetworkError as exc:  # the flag the user typed, not the assumption's key
        raise InputError(exc.message, "switch" if args.switch else exc.field) from None
    return 0


def _run_info(args):
    """How the benchmark was issued, from the flags; one-line errors."""
    from planner.calibration.importers import make_run_info

    issuer = args.issuer
    if args.vms_per_node is not None and args.processes_per_node is not None:
        raise InputError(
            "give --vms-per-node (issuer vm) or --processes-per-node (issuer host), not both", "processes_per_node"
        )
    if args.vms_per_node is not None:
        if issuer == "host":
            raise InputError("is for issuer vm; with --issuer host give --processes-per-node", "vms_per_node")
        issuer = "vm"
    if args.processes_per_node is not None:
        if issuer == "vm":
            raise InputError("is for issuer host; with --issuer vm give --vms-per-node", "processes_per_node")
        issuer = "host"
    per_node = args.vms_per_node if args.vms_per_node is not None else args.processes_per_node
    if per_node is not None and not 1 <= per_node <= 2000:
        flag = "vms_per_node" if args.vms_per_node is not None else "processes_per_node"
        raise InputError(f"must be 1..2000 (got {per_node})", flag)
    return make_run_info(
        issuer=issuer,
        per_node=per_node,
        vcpus_per_vm=args.vcpus_per_vm,
        working_set_gb=args.working_set_gb,
        vm_alignment=args.vm_alignment,
    )


def cmd_import(args) -> int:
    from planner.calibration.importers import load_points
    from planner.calibration.refit import (
        calibration_target,
        dumps,
        import_report,
        read_calibration,
        write_calibration,
    )
    from planner.models.catalog import load_catalog
    from planner.models.design import resolve

    rd = resolve(design_from_args(args), load_catalog(args.catalog))
    run = _run_info(args)
    base = read_calibration(args.calibration) if args.calibration else None
    # an option of the refit given without it was ignored without a word (`--out c.json` wrote nothing; hostile-input
    # walk): refused in one line, as the estate options are
    if args.with_shipped and not args.calibrate:
        raise InputError("only applies with --calibrate", "with_shipped")
    check_out(args.out)
    if args.out is not None and not args.calibrate:
        raise InputError(
            "only applies with --calibrate (the refit's calibration file); without it nothing is written", "out"
        )
    if args.imported_share is not None and not args.with_shipped:
        raise InputError(
            "only applies with --with-shipped (the imported points' share of a joint refit)", "imported_share"
        )
    imported_share = 0.5 if args.imported_share is None else args.imported_share
    if not 0.0 < imported_share < 1.0:
        raise InputError(f"must be between 0 and 1, exclusive (got {imported_share})", "imported_share")
    path = args.out or "calibration-refit.json"
    if args.calibrate:
        calibration_target(path)  # a file the refit cannot be written to is said before the fit, not after it
    points = load_points(args.files, rd, run)
    out = import_report(
        points,
        base,
        calibrate=args.calibrate,
        with_shipped=args.with_shipped,
        imported_share=imported_share,
        held_out=not args.no_held_out,
    )
    out["run"] = run.model_dump()
    if args.calibrate:
        write_calibration(out["calibration_file"], path)
        out["written"] = str(path)
        del out["calibration_file"]
    if args.format == "csv":  # measured vs predicted, the table the Calibration page downloads
        import sys

        from planner.calibration.refit import point_table
        from planner.core.csvsafe import write_csv

        write_csv(point_table(out["rows"], args.calibrate), sys.stdout)
        return 0
    # as every command prints: hciplan_version on top, indented by 2 (it had neither; CLI review 2026-11-29)
    import json

    print_json(json.loads(dumps(out if args.timings else without_wall_clock(out))))
    return 0


def register_import(sub) -> None:
    from planner.calibration.importers.common import MAX_IMPORT_BYTES, MAX_IMPORT_FILES

    p = sub.add_parser(
        "import",
        help="read fio JSON, DiskSpd XML, VMFleet results or the CSV template; model error; refit",
        description="Measured points from benchmark files (format detected from the content; at most "
        f"{MAX_IMPORT_FILES} files of {MAX_IMPORT_BYTES // 1_000_000} MB), the model's error on them, and with "
        "--calibrate a refit of the parameters they identify, written as a calibration file for "
        "`evaluate --calibration`. fio/DiskSpd files each describe one issuer; every node is assumed to have "
        "run --vms-per-node VMs or --processes-per-node processes like it (default: 1 process per node).",
    )
    p.add_argument("files", nargs="+", help="benchmark result files")
    p.add_argument("--design", required=True, help="design JSON of the cluster the benchmarks ran on")
    p.add_argument("--catalog", help="extra catalog folder")
    p.add_argument(
        "--issuer",
        choices=["vm", "host"],
        help="where the benchmark ran: inside VMs or on the nodes (default: host for fio/DiskSpd)",
    )
    p.add_argument("--vms-per-node", dest="vms_per_node", type=int_arg, help="VMs per node that ran it (issuer vm)")
    p.add_argument(
        "--processes-per-node",
        dest="processes_per_node",
        type=int_arg,
        help="benchmark processes per node that ran it (issuer host)",
    )
    p.add_argument("--vcpus-per-vm", dest="vcpus_per_vm", type=int_arg, help="vCPUs per VM (issuer vm; default 4)")
    p.add_argument(
        "--working-set-gb",
        dest="working_set_gb",
        type=float_arg,
        help="data each issuer touched, GB (default: the file's target sizes, else 40)",
    )
    p.add_argument(
        "--vm-alignment",
        dest="vm_alignment",
        type=float_arg,
        help="share of VMs on the node owning their volume (default 1)",
    )
    p.add_argument("--calibration", help="calibration file to judge against and start from (default: shipped)")
    p.add_argument("--calibrate", action="store_true", help="refit the parameters these points identify")
    p.add_argument(
        "--with-shipped", dest="with_shipped", action="store_true", help="refit jointly with the shipped benchmark data"
    )
    p.add_argument(
        "--imported-share",
        dest="imported_share",
        type=float_arg,
        help="with --with-shipped: share of the fit's weight on the imported points (default 0.5)",
    )
    p.add_argument("--no-held-out", dest="no_held_out", action="store_true", help="skip the held-out folds")
    p.add_argument("--out", help="calibration file to write with --calibrate (default calibration-refit.json)")
    p.add_argument(
        "--format",
        choices=["json", "csv"],
        default="json",
        help="json: the whole report; csv: measured vs predicted, one row per point and metric",
    )
    add_timings_arg(p)
    p.set_defaults(func=cmd_import)


def _design_args(p) -> None:

    add_design_args(p)
    p.add_argument(
        "--n-plus-one", dest="n_plus_one", action="store_true", help="with one node down (the survivors carry the load)"
    )


def register_sla(sub) -> None:
    p = sub.add_parser("sla", help="IOPS one database can be guaranteed at its latency target")
    _design_args(p)
    p.add_argument("--background", help="workload file or profile of the other tenants")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument(
        "--db",
        help="database JSON file (`schema database`): by its IO (size, IO shape, VM, latency target) or by its "
        "workload (size, buffer pool, HammerDB NOPM or TPM): then also its IO demand and the most the design "
        "sustains (database_capacity)",
    )
    which.add_argument("--database", help="the same as --db")
    p.add_argument("--vcpus", type=int_arg, help="the database VM's vCPUs (default: the file's, else 16)")
    p.add_argument("--threads", type=int_arg, help="IO threads in the VM (default: the file's, else 4)")
    p.add_argument(
        "--outstanding-per-thread",
        dest="outstanding_per_thread",
        type=int_arg,
        help="IOs in flight per thread (default: the file's, else 16)",
    )
    p.add_argument("--latency-target-ms", dest="latency_target_ms", type=float_arg, help="latency target, ms")
    p.add_argument(
        "--statistic",
        dest="latency_statistic",
        choices=["mean", "p90", "p99"],
        help="latency statistic the target applies to",
    )
    p.add_argument("--mean", action="store_true", help="a workload database: need the mean IOPS, not the peak")
    p.add_argument(
        "--vm-sizes",
        dest="vm_sizes",
        action="store_true",
        help="also the guarantee for each VM size (vCPUs, IO threads x outstanding) and which size a target needs",
    )
    p.add_argument("--calibration", help="calibration file (e.g. a refit from `import --calibrate`)")
    p.set_defaults(func=cmd_sla)


def register_price(sub) -> None:
    p = sub.add_parser("price", help="monthly cost and price per tier")
    _design_args(p)
    p.add_argument("--tiers", help="tiers JSON (default: the shipped set)")
    p.add_argument("--costs", help="cost assumptions JSON")
    add_guest_os_arg(p)
    p.add_argument(
        "--platform",
        choices=["azure-local", "windows-server"],
        help="the cluster's operating system, for its licences (default: the design's platform, else Windows Server)",
    )
    p.add_argument(
        "--mix",
        help="databases per tier, e.g. 'Standard=6,Premium=2': whether they fit and what they earn a month at the "
        "tier prices against the cluster's cost (the SLA page's tier mix)",
    )
    p.add_argument("--calibration", help="calibration file (e.g. a refit from `import --calibrate`)")
    p.set_defaults(func=cmd_price)


def register_size(sub) -> None:

    p = sub.add_parser(
        "size",
        help="the design of least whole cost a month meeting a demand, with alternatives, checks and binding",
    )
    p.add_argument("demand", help="demand file (`hciplan schema demand`)")
    p.add_argument("--catalog", help="extra catalog folder")
    p.add_argument(
        "--top",
        type=int_arg,
        default=5,
        help="designs to return, ranked by whole cost a month: servers, network, power, rack, licences (SQL Server's "
        "too) and support (default 5)",
    )
    p.add_argument("--costs", help="cost assumptions JSON")
    add_guest_os_arg(p)
    p.add_argument("--calibration", help="calibration file (e.g. a refit from `import --calibrate`)")
    add_timings_arg(p)
    p.set_defaults(func=cmd_size)


def register_bom(sub) -> None:

    p = sub.add_parser("bom", help="parts list, rack units, power, heat and licensing options of a design")

    add_design_args(p)
    p.add_argument("--costs", help="cost assumptions JSON (prices, licence assumptions)")
    p.add_argument(
        "--platform",
        choices=["azure-local", "windows-server"],
        help="the cluster's operating system, for its licences (default: the design's platform, else Windows Server)",
    )
    p.add_argument(
        "--switch", help="top-of-rack switch catalog id (default: the cheapest whose ports fit the servers' NICs)"
    )
    p.add_argument("--switches", type=int_arg, help="at least this many switches (default 2; more when ports run out)")
    p.set_defaults(func=cmd_bom)


def cmd_compare(args) -> int:
    from planner.models.catalog import load_catalog
    from planner.models.design import load_design
    from planner.sizing.compare import compare

    if bool(args.workload) == bool(args.database):
        # both given read "give --workload ... or --database" as if neither were (hostile-input walk)
        raise PlannerError(
            "give --workload (profile or file) or --database (a database description file)"
            + (", not both" if args.workload and args.database else ""),
            "workload",
        )
    if args.mean and not args.database:
        # a flag the help ties to --database was taken and ignored (CLI walk 2026-12-01)
        raise PlannerError("--mean is for --database (a database's mean demand instead of its peak)", "mean")
    data_tb, beside, db, workload = None, "", None, None
    if args.database:
        from planner.models.database import load_database

        # each design's IO of it, its log at that design's predicted write latency (sizing.compare.database_load)
        db = load_database(args.database)
        if not db.has_workload:
            # a database described by its IO (another engine's): compare runs it as a workload; the words that send
            # such a database here said compare takes it, and compare then asked for nopm (DBA walk 2026-12-03)
            raise PlannerError(
                "this database gives its IO, not a rate to turn into IO: give compare its IO as a workload file "
                "(--workload FILE: iops, block_size_kib, read_fraction; `hciplan schema workload`), or the "
                "database's nopm or tpm with buffer_pool_gb",
                "database",
            )
        data_tb, beside = db.capacity_tb, db.beside_data()
    else:
        from planner.models.workload import load_workload

        workload = load_workload(args.workload)
    designs = [load_design(path) for path in args.designs]
    catalog = load_catalog(args.catalog)
    print_json(
        compare(
            designs,
            workload,
            catalog=catalog,
            full=args.full,
            data_tb=data_tb,
            beside=beside,
            database=db,
            peak=not args.mean,
        )
    )
    return 0


def register_compare(sub) -> None:
    p = sub.add_parser("compare", help="the same workload on several designs of any architecture (JSON list)")
    p.add_argument("designs", nargs="+", help="design files")
    p.add_argument("--workload", help="workload file or profile name")
    p.add_argument(
        "--database",
        help="database file with its rate (tpm or nopm and buffer_pool_gb, as `db-io` takes), evaluated at its peak",
    )
    p.add_argument("--mean", action="store_true", help="with --database: the mean demand instead of the peak")
    p.add_argument("--full", action="store_true", help="whole reports instead of the comparison keys")
    p.add_argument("--catalog", help="extra catalog folder")
    p.set_defaults(func=cmd_compare)


def cmd_db_io(args) -> int:
    from planner.models.database import load_database

    db = load_database(args.database)
    lat = args.log_write_latency_ms
    if lat is not None and not 0.001 <= lat <= 10_000:
        raise InputError(f"must be 0.001..10000 ms (got {lat:g})", "log-write-latency-ms")
    from planner.commercial.database import database_warnings, sql_server_cores_busy, sql_server_cores_note
    from planner.models.database import io_demand

    # a latency typed here is the user's, not a design's prediction (the rule credited "the design"; CLI walk)
    d = io_demand(
        db, log_write_latency_ms=lat, latency_origin=None if lat is None else "given with --log-write-latency-ms"
    )
    out = d.model_dump(mode="json")
    # the CPU the rate asks of SQL Server beside the IO, and every warning: the library's, as the Compare page shows
    out["sql_server_cores_busy"] = sql_server_cores_busy(db, d)
    out["sql_server_cores_busy_note"] = sql_server_cores_note(db, d)
    out["warnings"] = database_warnings(db, d, lat)
    from planner.calibration.oltp_heldout import io_band_note

    # the figures above carry no band: said, with why and the held-out error of reads (DBA review 2026-11-30)
    out["band_note"] = io_band_note()
    print_json(strict(out, NOT_COMPUTABLE))
    return 0


def register_db_io(sub) -> None:
    p = sub.add_parser(
        "db-io",
        help="the IO a database asks of storage (streams with their rules and sources)",
        description="A database described by its workload (size, buffer pool, HammerDB NOPM or TPM; `schema "
        "database`) as IO: page reads, checkpoint and lazy-writer writes, log writes, read-ahead and backup, each "
        "with its rule, and the totals (iops, bandwidth_mb_s, read_fraction). The database is modelled as SQL "
        "Server, the one engine hciplan models (its pages, checkpoints, log and CPU; `engine` in the output); "
        "another engine (PostgreSQL, MySQL, ...) is refused: describe it by its IO for sla, compare and size.",
    )
    p.add_argument("database", help="database JSON file")
    p.add_argument(
        "--log-write-latency-ms",
        dest="log_write_latency_ms",
        type=float_arg,
        help="the log flush latency group commit waits for (default: an assumption of 1 ms, said in the output)",
    )
    p.set_defaults(func=cmd_db_io)
