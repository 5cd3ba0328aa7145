"""CLI commands for the customer side: ``cost`` (the whole cost and TCO of a design,
proposed or owned), ``proposal`` (the document to send, in four formats),
``scenario`` (saved sessions per customer) and ``estate`` (the customer's
database list or SQL Server exports as a demand).

Input files are size-limited and parsed by the planner's safe readers; bad input
is one line naming the argument, the row or the field (exit status 2).
"""

from __future__ import annotations

from pathlib import Path

from planner.cli.args import print_json
from planner.cli.commands import InputError, load_json_model
from planner.core.jsonio import read_bounded

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
    p.add_argument("--sql", choices=["none", "standard", "enterprise"], help="SQL Server licences to count")
    p.add_argument(
        "--sql-licensing",
        dest="sql_licensing",
        choices=["licence-included", "bring-your-own"],
        help="pay as you go per core per month, or perpetual licences with Software Assurance",
    )


def costs_from_args(args, catalog=None):
    """CostAssumptions from ``--costs``, ``--quotes``, ``--platform`` and ``--sql*``."""
    from planner.commercial.prices import read_quotes, with_quotes
    from planner.commercial.pricing import CostAssumptions

    a = load_json_model(args.costs, CostAssumptions, "costs") if getattr(args, "costs", None) else CostAssumptions()
    if getattr(args, "quotes", None):
        data = read_bounded(args.quotes, MAX_QUOTES_BYTES, "quotes", InputError)
        a = with_quotes(a, read_quotes(data, Path(args.quotes).name, catalog))
    update = {}
    if getattr(args, "platform", None):
        update["platform"] = args.platform
    if getattr(args, "sql", None):
        update["sql_edition"] = args.sql
    if getattr(args, "sql_licensing", None):
        update["sql_licensing"] = args.sql_licensing
    return a.model_copy(update=update) if update else a


def cmd_cost(args) -> int:
    from planner.commercial.tco import whole_cost
    from planner.models.catalog import load_catalog
    from planner.models.demand import Demand
    from planner.models.design import load_design

    catalog = load_catalog(args.catalog)
    design = load_design(args.design)
    demand = load_json_model(args.demand, Demand, "demand") if args.demand else None
    a = costs_from_args(args, catalog)
    print_json(whole_cost(design, demand, a, catalog, owned=args.owned))
    return 0


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


def cmd_proposal(args) -> int:
    import datetime as dt

    from planner.engine.loads import demand_as_workload
    from planner.models.catalog import load_catalog
    from planner.models.demand import Demand
    from planner.models.design import Design, load_design
    from planner.sizing.formats import render
    from planner.sizing.proposal import build

    catalog = load_catalog(args.catalog)
    demand = load_json_model(args.demand, Demand, "demand")
    a = costs_from_args(args, catalog)
    if args.design:
        design = load_design(args.design)
    else:
        from planner.sizing.search import size

        res = size(demand, catalog, top=1, assumptions=a)
        if res.best is None:
            raise InputError(f"no design meets it: {res.explanation}", "demand")
        design = Design.model_validate(res.best["design"])
    if design.topology != "hyperconverged":
        raise InputError(
            "a proposal is for a hyperconverged cluster; give the system run today as --existing", "design"
        )
    existing = load_design(args.existing) if args.existing else None
    logo = read_bounded(args.logo, MAX_LOGO_FILE_BYTES, "logo", InputError) if args.logo else None
    if args.date is not None:
        try:
            dt.date.fromisoformat(args.date)
        except ValueError:
            raise InputError(f"must be a date YYYY-MM-DD (got {args.date[:40]!r})", "date") from None
    meta = {"customer": args.customer or "", "author": args.author or "", "date": args.date}
    meta = {k: v for k, v in meta.items() if v is not None}
    p = build(
        design,
        demand_as_workload(demand, design.nodes),
        demand=demand,
        costs=a,
        meta=meta,
        catalog=catalog,
        existing=existing,
    )
    data = render(p, args.format, company=args.company, logo=logo)
    out = Path(args.out)
    out.write_bytes(data)
    print_json({"written": str(out), "format": args.format, "bytes": len(data), "design": design.name})
    return 0


def register_proposal(sub) -> None:
    p = sub.add_parser(
        "proposal",
        help="the document to send the customer: PDF, HTML, DOCX or XLSX (sizes the demand when no design is given)",
    )
    p.add_argument("demand", help="demand file (the customer's databases)")
    p.add_argument("--design", help="design file to propose (default: the cheapest design meeting the demand)")
    p.add_argument("--existing", help="design file of the system the customer runs today (any topology), for the TCO")
    p.add_argument("--format", required=True, choices=["pdf", "html", "docx", "xlsx"])
    p.add_argument("--out", required=True, help="file to write")
    p.add_argument("--company", help="your company's name, shown on the document")
    p.add_argument("--logo", help="your logo, a PNG or JPEG file (at most 1 MB)")
    p.add_argument("--customer", help="the customer's name")
    p.add_argument("--author", help="who prepared it")
    p.add_argument("--date", help="the document's date, YYYY-MM-DD (default today)")
    p.add_argument("--catalog", help="extra catalog folder")
    add_cost_args(p)
    p.set_defaults(func=cmd_proposal)


def register_customer(sub) -> None:
    """Every command of this module."""
    register_cost(sub)
    register_proposal(sub)
