"""CLI commands for the customer side: ``cost`` (the whole cost and TCO of a design,
proposed or owned), ``proposal`` (the document to send, in four formats),
``scenario`` (saved sessions per customer) and ``estate`` (the customer's
database list or SQL Server exports as a demand).

Input files are size-limited and parsed by the planner's safe readers; bad input
is one line naming the argument, the row or the field (exit status 2).
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from pydantic import ValidationError

from planner.cli.args import check_out, print_json
from planner.cli.commands import (
    InputError,
    add_guest_os_arg,
    check_bounds,
    load_costs,
    load_json_model,
    options_not_applied,
    with_options_not_applied,
)
from planner.core.errors import PlannerError, format_validation_error
from planner.core.jsonio import read_bounded, write_atomic

#: most bytes a quote file, a logo or an estate file may have
MAX_QUOTES_BYTES = 1_000_000


def add_cost_args(p) -> None:
    """The cost options every customer-facing command shares."""
    p.add_argument("--costs", help="cost assumptions JSON (schema: `hciplan schema costs`)")
    p.add_argument(
        "--quotes",
        help="CSV or XLSX of the customer's prices: part or vendor, price_usd or discount_pct",
    )
    p.add_argument("--platform", choices=["azure-local", "windows-server"], help="the cluster's operating system")
    add_guest_os_arg(p)
    p.add_argument("--sql", choices=["none", "standard", "enterprise"], help="SQL Server licences to count")
    p.add_argument(
        "--sql-licensing",
        dest="sql_licensing",
        choices=["licence-included", "bring-your-own"],
        help="pay as you go per core per month, or perpetual licences with Software Assurance",
    )


#: the dests of :func:`add_cost_args`: a command that keeps costs keeps them when any is given
COST_OPTIONS = ("costs", "quotes", "platform", "guest_os_licence", "sql", "sql_licensing")


def costs_from_args(args, catalog=None, base=None):
    """CostAssumptions from ``--costs`` (else ``base``, else the defaults), ``--quotes``, ``--platform``,
    ``--guest-os-licence`` and ``--sql*``."""
    from planner.commercial.prices import read_quotes, with_quotes
    from planner.commercial.pricing import CostAssumptions

    a = load_costs(args.costs, catalog) if getattr(args, "costs", None) else base or CostAssumptions()
    if getattr(args, "quotes", None):
        data = read_bounded(args.quotes, MAX_QUOTES_BYTES, "quotes", InputError)
        a = with_quotes(a, read_quotes(data, Path(args.quotes).name, catalog))
    update = {}
    if getattr(args, "platform", None):
        update["platform"] = args.platform
    if getattr(args, "guest_os_licence", None):
        update["guest_os_licence"] = args.guest_os_licence
    if getattr(args, "sql", None):
        update["sql_edition"] = args.sql
    if getattr(args, "sql_licensing", None):
        update["sql_licensing"] = args.sql_licensing
    return a.model_copy(update=update) if update else a


def cmd_cost(args) -> int:
    from planner.commercial.tco import whole_cost
    from planner.models.catalog import load_catalog
    from planner.models.demand import Demand
    from planner.models.design import load_design, with_overrides

    catalog = load_catalog(args.catalog)
    design = load_design(args.design)
    demand = load_json_model(args.demand, Demand, "demand") if args.demand else None
    a = costs_from_args(args, catalog)
    if args.owned and args.platform and design.topology == "hyperconverged" and design.stack == "s2d":
        # an owned system's platform is a fact about that machine: --platform says it for a design
        # that names none (the cost assumptions' platform is otherwise the new cluster's)
        if design.platform and design.platform != args.platform:
            raise InputError(f"the design names its platform, {design.platform}", "platform")
        design = with_overrides(design, platform=args.platform)
    out = whole_cost(design, demand, a, catalog, owned=args.owned)
    if demand is not None:
        from planner.sizing.verdict import demand_fit

        out["demand_fit"] = fit = demand_fit(design, demand, a, catalog)
        if fit.get("note"):
            out["notes"].append(fit["note"])
        _tco_caveats(out, design, demand, a, catalog)
    print_json(with_options_not_applied(out, options_not_applied(args, [design.stack], a)))
    return 0


def _tco_caveats(out: dict, design, demand, a, catalog) -> None:
    """Each TCO's ``caveats`` against the demand (:func:`planner.commercial.tco.tco_caveat_words`): the proposal
    said "TCO, 5 years $512,390 (today's 5 servers; growth needs more from year 4)" where `cost --demand` gave the
    same figure with no word (pricing walk 2026-11-30). A design the sizing rules do not judge has no growth
    search: its TCOs carry none."""
    from planner.commercial.tco import tco_caveat_words
    from planner.sizing.checks import design_growth

    if (view := design_growth(design, demand, a, catalog)) is None:
        return
    grows_in = view["first_year_needing_more_nodes"]
    # the cost prints no drives' endurance: their wear is the proposal's caveat, not judged here
    for t in out["tco"]:
        t["caveats"] = tco_caveat_words(design.nodes, grows_in, None, t["years"])


def register_cost(sub) -> None:
    p = sub.add_parser(
        "cost",
        help="the whole cost of a design: servers, network, licences, support; per month and 3- and 5-year TCO",
    )
    p.add_argument("design", help="design file (any topology: the proposed cluster or the system run today)")
    p.add_argument("--demand", help="demand file: the platform and the database VMs for SQL Server licences")
    p.add_argument("--owned", action="store_true", help="the customer owns this system: purchases are not counted")
    p.add_argument("--catalog", help="extra catalog folder")
    add_cost_args(p)
    p.set_defaults(func=cmd_cost)


#: most bytes of a logo file (the document checks the image itself)
MAX_LOGO_FILE_BYTES = 1_000_000


#: a file name's suffix -> the proposal format it names
FORMAT_SUFFIXES = {"pdf": "pdf", "html": "html", "htm": "html", "docx": "docx", "xlsx": "xlsx"}


def cmd_proposal(args) -> int:
    import datetime as dt

    from planner.engine.loads import demand_as_workload
    from planner.models.catalog import load_catalog
    from planner.models.demand import Demand
    from planner.models.design import Design, load_design
    from planner.sizing.formats import render
    from planner.sizing.proposal import build

    # a file named for another format would open as garbage (PDF bytes in x.docx): said before any work
    check_out(args.out, stdout=True)
    suffix = Path(args.out).suffix.lower().lstrip(".")
    if suffix in FORMAT_SUFFIXES and FORMAT_SUFFIXES[suffix] != args.format:
        raise InputError(
            f"the file is named .{suffix} but --format is {args.format}: name it .{args.format} or give --format "
            f"{FORMAT_SUFFIXES[suffix]}",
            "out",
        )
    catalog = load_catalog(args.catalog)
    saved = _scenario_inputs(args, catalog) if args.scenario else None
    if saved is None and not args.demand:
        raise InputError("give a demand file, or --scenario NAME to take a saved scenario's demand", "demand")
    demand = saved["demand"] if saved else load_json_model(args.demand, Demand, "demand")
    # the scenario's cost assumptions, the cost options given applied on them
    a = costs_from_args(args, catalog, saved["costs"] if saved else None)
    if args.design:
        design = load_design(args.design)
    elif saved and saved["design"] is not None:
        design = saved["design"]
    else:
        from planner.sizing.search import size

        res = size(demand, catalog, top=1, assumptions=a)
        if res.best is None:
            raise InputError(f"no design meets it: {res.explanation}", "demand")
        design = Design.model_validate(res.best["design"])
    if design.topology != "hyperconverged":
        from planner.sizing.proposal import NOT_HYPERCONVERGED

        raise InputError(f"{NOT_HYPERCONVERGED.split(': ')[0]}; give the system run today as --existing", "design")
    # named by its option: "design: this is a demand file" pointed at the wrong file (CLI review 2026-11-29)
    existing = load_design(args.existing, "existing") if args.existing else saved["existing"] if saved else None
    logo = read_bounded(args.logo, MAX_LOGO_FILE_BYTES, "logo", InputError) if args.logo else None
    if args.date is not None:
        try:
            dt.date.fromisoformat(args.date)
        except ValueError:
            raise InputError(f"must be a date YYYY-MM-DD (got {args.date[:40]!r})", "date") from None
    meta = {
        "customer": args.customer or (saved["customer"] if saved else ""),
        "author": args.author or (saved["author"] if saved else ""),
        "date": args.date,
    }
    meta = {k: v for k, v in meta.items() if v is not None}
    tiers = None
    if args.tiers:
        from planner.models.tiers import TierSet

        if demand.tier_counts:  # the document prices the tiers it sized (sizing.proposal.build)
            raise InputError("this demand is in tiers: its own tiers are priced (put others in the demand)", "tiers")
        tiers = load_json_model(args.tiers, TierSet, "tiers")
    elif saved and saved["tiers"] is not None and not demand.tier_counts:  # the tiers the scenario priced
        tiers = saved["tiers"]
    mix = _mix_option(args.mix, demand, tiers) if args.mix else None
    if mix is None and saved and saved["mix"] and not demand.tier_counts:  # the mix the scenario's SLA page typed
        mix = saved["mix"]
    p = build(
        design,
        demand_as_workload(demand, design.node_count),
        tiers,
        demand=demand,
        costs=a,
        meta=meta,
        catalog=catalog,
        existing=existing,
        mix=mix,
    )
    company = args.company or (saved["company"] if saved else None)
    import sys

    warning = None
    if args.format == "pdf":
        from planner.sizing.formats import missing_glyphs_note, render_pdf

        # the PDF is that page printed: its characters no installed font draws are said (empty boxes otherwise)
        page = render(p, "html", company=company, logo=logo).decode("utf-8")
        warning = missing_glyphs_note(page)
        data = render_pdf(page)
    else:
        data = render(p, args.format, company=company, logo=logo)
    if warning:
        print(f"warning: {warning}", file=sys.stderr)

    # a document dated in the past or the future still prices today's catalog: said in one line (CFO read
    # 2026-11-30: --date 2024-01-15 above prices seen in 2026; hostile-input walk: --date 2099-01-01 said nothing)
    today = dt.date.today()
    dated = (
        f"prices are as of today ({today.isoformat()}), not of the document's date {args.date}"
        if args.date is not None and dt.date.fromisoformat(args.date) != today
        else None
    )
    if dated:
        print(f"note: {dated}", file=sys.stderr)
    not_applied = options_not_applied(args, [design.stack], a)
    for said in not_applied:  # as the date's note: on standard error, the document on standard output stays whole
        print(f"note: {said}", file=sys.stderr)
    # whether the design meets the demand, as the document opens (a failing design wrote {"design": "reference"})
    v = p.get("verdict") or {}
    verdict = {"met": v.get("met"), "summary": v.get("summary") or v.get("note")}
    if args.out == "-":
        # the document itself on standard output, for a pipe (a file named "-" was written; hostile-input walk
        # 2026-11-30); what was written said on standard error, so the pipe carries the document alone
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        print(f"wrote {len(data):,} bytes of {args.format} to standard output", file=sys.stderr)
        return 0
    out = Path(args.out)
    write_atomic(out, data, "out", InputError)  # whole or not at all: a failed write kept the old file half-written
    print_json(
        {
            "written": str(out),
            "format": args.format,
            "bytes": len(data),
            "design": design.name,
            **verdict,
            **({"note": dated} if dated else {}),
            **({"warning": warning} if warning else {}),
            **({"options_not_applied": not_applied} if not_applied else {}),
        }
    )
    return 0


def checked_costs(a, catalog):
    """Cost assumptions with their part ids and vendors checked against the catalog (``--costs``'s check)."""
    from planner.commercial.prices import check_cost_keys

    check_cost_keys(a, catalog)
    return a


def _scenario_inputs(args, catalog) -> dict:
    """A saved scenario's demand, design, system run today, cost assumptions and document names (``proposal
    --scenario NAME``, of ``--customer``), each validated by its model, an error in one line naming the part; a
    demand file given beside it is refused (which one the document is of would be a guess)."""
    from planner.commercial.pricing import CostAssumptions
    from planner.models.demand import saved_demand
    from planner.models.design import Design
    from planner.models.tiers import TierSet

    if args.demand:
        raise InputError("give a demand file or --scenario, not both", "demand")
    with _naming_customer("scenario"):
        session = _store(args).get(args.scenario, args.customer or "")
    if not session.get("demand"):
        raise InputError(f"the scenario {args.scenario!r} has no demand to propose a design for", "scenario")

    def part(key, parse):
        try:
            return parse(session[key]) if session.get(key) else None
        except ValidationError as exc:
            raise InputError(format_validation_error(exc, key), "scenario") from None

    return {
        "demand": part("demand", saved_demand),
        "design": part("design", Design.model_validate),
        "existing": part("existing", Design.model_validate),
        "costs": part("costs", lambda c: checked_costs(CostAssumptions.model_validate(c), catalog)),
        "tiers": (tiers := part("tiers", TierSet.model_validate)),
        "mix": _saved_mix(session.get("tier_counts"), tiers),
        "customer": session.get("customer") or "",
        "author": session.get("prepared_by") or "",
        "company": session.get("company") or None,
    }


def _mix_option(text: str, demand, tiers) -> dict[str, int]:
    """``--mix`` of ``proposal`` and ``scenario save``: databases per tier of ``tiers`` (default the shipped set),
    for a demand not in tiers (a demand in tiers is its own mix: sizing.proposal.build); one line otherwise."""
    from planner.models.tiers import default_tiers, parse_mix

    if demand.tier_counts:
        raise InputError("this demand is in tiers: its own counts are the mix (put others in the demand)", "mix")
    return parse_mix(text, [t.name for t in (tiers or default_tiers()).tiers])


def _saved_mix(counts, tiers) -> dict[str, int] | None:
    """A saved scenario's tier mix (the SLA page's counts, as the app wrote them) for the tiers it priced
    (:func:`planner.models.tiers.check_mix`, the option's rule); anything else refused in one line naming the
    scenario."""
    from planner.models.tiers import check_mix, default_tiers

    if not counts:
        return None
    if not isinstance(counts, dict):
        raise InputError("its tier mix is not databases per tier", "scenario")
    try:
        return check_mix(counts, [t.name for t in (tiers or default_tiers()).tiers]) or None
    except PlannerError as exc:
        raise InputError(f"its tier mix: {exc.message}", "scenario") from None


def register_proposal(sub) -> None:
    p = sub.add_parser(
        "proposal",
        help="the document to send the customer: PDF, HTML, DOCX or XLSX (sizes the demand when no design is given)",
    )
    p.add_argument("demand", nargs="?", help="demand file (the customer's databases); not with --scenario")
    p.add_argument("--design", help="design file to propose (default: the cheapest design meeting the demand)")
    p.add_argument(
        "--scenario",
        help="a saved scenario (`hciplan scenario save`, or the app's) of --customer: its demand, design, system run "
        "today, cost assumptions and names, each replaced by the option given",
    )
    p.add_argument(
        "--db",
        help="scenarios database: a SQLAlchemy URL or a SQLite file (default: $HCIPLAN_DB, else the user data folder)",
    )
    p.add_argument("--existing", help="design file of the system the customer runs today (any topology), for the TCO")
    p.add_argument(
        "--tiers",
        help="tiers JSON to price for a demand of totals or databases (default: the shipped set; a demand in tiers "
        "prices its own)",
    )
    p.add_argument(
        "--mix",
        help="databases per tier the customer asks about, e.g. 'Standard=6,Premium=2', for a demand not in tiers: "
        "the document says whether they fit and what they bring in against the whole cost (the SLA page's tier mix)",
    )
    p.add_argument(
        "--format",
        required=True,
        choices=["pdf", "html", "docx", "xlsx"],
        help="pdf (printed by chromium), html (one self-contained file), docx (Word) or xlsx (the parts list and "
        "tier tables, a sheet each)",
    )
    p.add_argument(
        "--out", required=True, help="file to write (its suffix, if any, must match --format), or - for standard output"
    )
    p.add_argument("--company", help="your company's name, shown on the document")
    p.add_argument("--logo", help="your logo, a PNG or JPEG file (at most 1 MB)")
    p.add_argument("--customer", help="the customer's name")
    p.add_argument("--author", help="who prepared it")
    p.add_argument("--date", help="the document's date, YYYY-MM-DD (default today)")
    p.add_argument("--catalog", help="extra catalog folder")
    add_cost_args(p)
    p.set_defaults(func=cmd_proposal)


def _store(args):
    from planner.store.scenarios import ScenarioStore

    return ScenarioStore(args.db)


@contextmanager
def _naming_customer(field: str | None = None):
    """A store's "no scenario" error as one line naming ``field`` (default: the store's) and the option that finds
    the scenario where it is saved under another customer, or none: a command line names its options, the store
    cannot. One rule for `proposal --scenario` and every `scenario` action."""
    import shlex

    from planner.store.scenarios import NoScenarioError

    try:
        yield
    except NoScenarioError as exc:
        first = exc.saved_for[0] if exc.saved_for else None
        hint = (
            "" if first is None else f" (give --customer {shlex.quote(first)})" if first else " (leave out --customer)"
        )
        raise InputError(exc.message + hint, field or exc.field) from None


def cmd_scenario(args) -> int:
    with _naming_customer():
        return _scenario_action(args)


def _scenario_action(args) -> int:
    store = _store(args)
    customer = args.customer or ""
    if args.action == "save":
        from planner.models.demand import Demand
        from planner.models.design import dump_design, load_design
        from planner.results.report import check_parts
        from planner.store.scenarios import ScenarioSession

        design = load_design(args.design) if args.design else None
        existing = load_design(args.existing, "existing") if args.existing else None
        # its parts checked as the app checks them, so the app can reopen what is saved
        if design is not None:
            check_parts(design)
        if existing is not None:
            check_parts(existing, any_architecture=True)
        demand_model = load_json_model(args.demand, Demand, "demand")
        demand = demand_model.model_dump(mode="json")
        # the SLA page's tier mix, as the app saves it (proposal --scenario says it)
        mix = _mix_option(args.mix, demand_model, None) if args.mix else None
        costs = (
            # any cost option given is kept (--platform and --sql-licensing were dropped: costs null)
            costs_from_args(args).model_dump(mode="json") if any(getattr(args, k, None) for k in COST_OPTIONS) else None
        )
        try:
            session = ScenarioSession(
                demand=demand,
                design=dump_design(design) if design else None,
                existing=dump_design(existing) if existing else None,
                costs=costs,
                tier_counts=mix,
                notes=args.notes or "",
            )
        except ValidationError as exc:  # a note past 10,000 characters printed a traceback (hostile-input walk)
            raise InputError(format_validation_error(exc), "scenario") from None
        print_json(store.save(args.name, session, customer, overwrite=not args.no_overwrite))
    elif args.action == "list":
        print_json({"scenarios": store.list(args.customer)})
    elif args.action == "show":
        print_json(store.get(args.name, customer))
    elif args.action == "delete":
        store.delete(args.name, customer)
        print_json({"deleted": args.name, "customer": customer})
    elif args.action == "duplicate":
        print_json(store.duplicate(args.name, args.new_name, customer))
    elif args.action == "compare":
        print_json(store.compare(args.name, args.other, customer))
    return 0


def register_scenario(sub) -> None:
    p = sub.add_parser("scenario", help="saved scenarios per customer: save, list, show, duplicate, compare, delete")
    acts = p.add_subparsers(dest="action", required=True)

    def common(q):
        q.add_argument("--customer", help="the customer the scenario belongs to (default: none)")
        q.add_argument(
            "--db", help="database: a SQLAlchemy URL or a SQLite file (default: $HCIPLAN_DB, else the user data folder)"
        )
        q.set_defaults(func=cmd_scenario)

    s = acts.add_parser("save", help="save a scenario (replaces one of the same name)")
    s.add_argument("name", help="the scenario's name")
    s.add_argument("--demand", required=True, help="demand file")
    s.add_argument("--design", help="design file")
    s.add_argument("--existing", help="design file of the system the customer runs today")
    s.add_argument("--notes", help="a note kept with the scenario")
    s.add_argument(
        "--mix",
        help="databases per tier the customer asks about, e.g. 'Standard=6,Premium=2' (the shipped tiers), for a "
        "demand not in tiers: kept as the app keeps the SLA page's mix, said by `proposal --scenario`",
    )
    s.add_argument(
        "--no-overwrite", dest="no_overwrite", action="store_true", help="refuse to replace one of the same name"
    )
    add_cost_args(s)
    common(s)
    common(acts.add_parser("list", help="the saved scenarios (of --customer when given)"))
    for name, helptext in (("show", "the scenario's whole session as JSON"), ("delete", "delete a scenario")):
        q = acts.add_parser(name, help=helptext)
        q.add_argument("name", help="the scenario's name")
        common(q)
    q = acts.add_parser("duplicate", help="copy a scenario under a new name")
    q.add_argument("name", help="the scenario to copy")
    q.add_argument("new_name", help="the copy's name")
    common(q)
    q = acts.add_parser("compare", help="two scenarios side by side: figures and the inputs that differ")
    q.add_argument("name", help="the first scenario")
    q.add_argument("other", help="the second scenario")
    common(q)


def cmd_estate(args) -> int:
    from planner.core.tables import is_json
    from planner.models.catalog import load_catalog
    from planner.models.demand import Demand
    from planner.sizing import estate
    from planner.sizing.estate import MAX_ESTATE_FILE_BYTES
    from planner.sizing.search import check_program

    # the options first, each by its own name: a bad --latency-target-ms read as the file's error
    # ("bom.csv: demand.tiers.tiers.0.latency_target_ms"; review 2026-11-29)
    if args.latency_target_ms is not None:
        check_bounds(Demand, "latency_target_ms", args.latency_target_ms, "ms")
    if args.growth_pct is not None:
        check_bounds(Demand, "growth_pct", args.growth_pct)
    if args.validated_for:
        check_program(args.validated_for, load_catalog())
    data = read_bounded(args.file, MAX_ESTATE_FILE_BYTES, "file", InputError)
    name = Path(args.file).name
    if is_json(data):
        # one database's file said only "a JSON file, not a table: give a CSV or XLSX file" (DBA walk 2026-12-03):
        # which command takes it
        raise InputError(
            "a JSON file: estate reads the customer's estate (a database list as CSV or XLSX, or SQL Server "
            "exports); one database's JSON goes to `hciplan db-io` or `hciplan sla DESIGN --database`, a demand's "
            "to `hciplan size`",
            "file",
        )
    kind = estate.detect(data) if args.format == "auto" else args.format
    fields = {}
    if args.growth_pct is not None:
        fields["growth_pct"] = args.growth_pct
    if args.validated_for:
        fields["validated_for"] = args.validated_for
    if args.platform:
        fields["platform"] = args.platform
    _estate_flags(args, kind)
    if kind == "perfmon":
        perf = estate.read_perfmon(data, name)
        if args.capacity_tb is None:
            if args.details:  # the volumes to look at before the data size is known
                print_json(perf)
                return 0
            raise InputError(
                "a perfmon CSV gives no data size: give it (the databases' data, TB) to make a demand; --details "
                "prints the volumes",
                "capacity_tb",
            )
        if args.vcpus is not None:
            fields["vcpus_per_db"] = args.vcpus
        if args.ram_gb is not None:
            fields["ram_gb_per_db"] = args.ram_gb
        # the app's "Size these volumes" (one implementation)
        out = estate.perfmon_demand(perf, args.capacity_tb, args.databases, args.latency_target_ms, **fields)
    elif kind == "file-stats":
        out = estate.stats_demand(
            estate.read_file_stats(data, name),
            vcpus=args.vcpus,
            ram_gb=args.ram_gb,
            peak_to_mean_ratio=args.peak_to_mean_ratio or 1.0,
            latency_target_ms=args.latency_target_ms,
            **fields,
        )
    else:
        out = estate.read_database_list(data, name, latency_target_ms=args.latency_target_ms, **fields)
    if args.details:
        print_json(out)
    else:
        print_json(out["demand"], stamped=False)  # a demand file `hciplan size` reads as it is
        import sys

        for w in out.get("warnings") or []:  # what the demand leaves out, beside the pipe (standard error)
            print(f"warning: {w}", file=sys.stderr)
        # the values filled in for columns the rows left out: without --details nothing said them (honesty audit
        # 2026-12-01: 8 KiB and 70 % reads, and a 1 ms target, taken silently)
        for n in out.get("defaults") or []:
            print(f"note: {n}", file=sys.stderr)
    return 0


#: the options that describe what an estate file does not give, by the formats they apply to, and what a format
#: says of one it gives itself (an option that cannot apply is refused in one line, never ignored: --vcpus on a
#: perfmon CSV and --growth-pct on one were dropped; DBA walk 2026-11-30)
ESTATE_OPTIONS = {
    "vcpus": ("file-stats", "perfmon"),
    "ram_gb": ("file-stats", "perfmon"),
    "peak_to_mean_ratio": ("file-stats",),
    "capacity_tb": ("perfmon",),
    "databases": ("perfmon",),
}
#: an estate format in the words of an option's error
ESTATE_WHAT = {"list": "a database list", "file-stats": "a file-stats export", "perfmon": "a perfmon CSV"}
ESTATE_GIVES = {
    "list": "a database list gives each database's own, in its columns",
    "file-stats": "the view gives each database, its size and its IO",
    "perfmon": "a perfmon CSV's peaks are its samples' 95th percentile",
}


def _estate_flags(args, kind: str) -> None:
    """Each option given is checked by its own name and applies to this format, or is refused in one line."""
    for flag, kinds in ESTATE_OPTIONS.items():
        if getattr(args, flag) is not None and kind not in kinds:
            raise InputError(
                f"only applies to {' or '.join(ESTATE_WHAT[k] for k in kinds)} ({ESTATE_GIVES[kind]})", flag
            )
    if kind == "perfmon" and args.databases is None:
        for flag in ("vcpus", "ram_gb"):
            if getattr(args, flag) is not None:
                raise InputError("per database VM: give --databases too (the counters do not count them)", flag)
    # the bounds of what each becomes, the demand's own (a database VM's vCPUs and RAM, the data, the database
    # count; the peak-to-mean ratio is stats_demand's to check): one rule with the model, the floors included
    from planner.models.demand import Demand

    fields = {"vcpus": ("vcpus_per_db", ""), "ram_gb": ("ram_gb_per_db", "GB"), "capacity_tb": ("capacity_tb", "TB")}
    for flag, (field, unit) in (fields | {"databases": ("databases", "")}).items():
        v = getattr(args, flag)
        if v is not None:
            try:
                check_bounds(Demand, field, v, unit)
            except InputError as exc:
                raise InputError(exc.message, flag) from None


def register_estate(sub) -> None:
    from planner.cli.args import float_arg, int_arg

    p = sub.add_parser(
        "estate",
        help="the customer's estate as a demand: a database list (CSV/XLSX), or SQL Server exports "
        "(sys.dm_io_virtual_file_stats sampled twice, a perfmon LogicalDisk CSV) as per-database IO",
    )
    p.add_argument("file", help="CSV or XLSX file")
    p.add_argument(
        "--format",
        choices=["auto", "list", "file-stats", "perfmon"],
        default="auto",
        help="what the file is: a database list, two sys.dm_io_virtual_file_stats samples, a perfmon LogicalDisk "
        "CSV (default: read from its header)",
    )
    p.add_argument("--details", action="store_true", help="print every database and the notes, not only the demand")
    p.add_argument(
        "--latency-target-ms",
        dest="latency_target_ms",
        type=float_arg,
        default=1.0,
        help="latency target of databases with no tier or target of their own (default 1 ms)",
    )
    p.add_argument(
        "--growth-pct",
        dest="growth_pct",
        type=float_arg,
        help="growth over 36 months (the demand's growth_period_months), %%",
    )
    p.add_argument("--validated-for", dest="validated_for", help="only nodes this program lists, e.g. 'Azure Local'")
    p.add_argument(
        "--platform", choices=["azure-local", "windows-server"], help="the cluster's operating system (for the demand)"
    )
    p.add_argument("--vcpus", type=int_arg, help="file-stats, perfmon: vCPUs per database VM (default 4)")
    p.add_argument(
        "--ram-gb", dest="ram_gb", type=float_arg, help="file-stats, perfmon: RAM per database VM, GB (default 16)"
    )
    p.add_argument(
        "--peak-to-mean-ratio",
        dest="peak_to_mean_ratio",
        type=float_arg,
        help="file-stats: the databases' peak IOPS over their mean, to scale the mean between the two samples "
        "(default: none, the mean)",
    )
    p.add_argument(
        "--capacity-tb",
        dest="capacity_tb",
        type=float_arg,
        help="perfmon: the databases' data, TB (the counters give no size; needed for a demand)",
    )
    p.add_argument(
        "--databases", type=int_arg, help="perfmon: how many database VMs the volumes serve (for vCPUs and RAM)"
    )
    p.set_defaults(func=cmd_estate)


def register_customer(sub) -> None:
    """Every command of this module."""
    register_cost(sub)
    register_proposal(sub)
    register_scenario(sub)
    register_estate(sub)
