"""CLI commands: ``sla``, ``price``, ``size`` and ``bom``.

Input files are JSON objects, at most 1 MB, parsed with :mod:`json` only; a bad
file raises a :class:`planner.errors.PlannerError` naming the field, which the
CLI turns into exit status 2 and one line.
"""
from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from planner.errors import PlannerError
from planner.jsonio import load_json_model as _load

MAX_INPUT_FILE_BYTES = 1_000_000


class InputError(PlannerError):
    pass


def load_json_model(path: str | Path, model: type[BaseModel], field: str):
    return _load(path, model, InputError, field, prefix=field, max_bytes=MAX_INPUT_FILE_BYTES)


def cmd_sla(args) -> int:
    from planner.cli import _design_from_args, _print
    from planner.catalog import load_catalog
    from planner.design import resolve
    from planner.sla import Database, guarantee
    from planner.workload import load_workload

    rd = resolve(_design_from_args(args), load_catalog(args.catalog))
    db = load_json_model(args.db, Database, "db")
    bg = load_workload(args.background) if args.background else None
    _print(guarantee(rd, db, bg, n_plus_one=args.n_plus_one).model_dump(mode="json"))
    return 0


def cmd_price(args) -> int:
    from planner.cli import _design_from_args, _print
    from planner.catalog import load_catalog
    from planner.design import resolve
    from planner.pricing import CostAssumptions, tier_prices
    from planner.tiers import TierSet, default_tiers

    rd = resolve(_design_from_args(args), load_catalog(args.catalog))
    tiers = load_json_model(args.tiers, TierSet, "tiers") if args.tiers else default_tiers()
    costs = load_json_model(args.costs, CostAssumptions, "costs") if args.costs else CostAssumptions()
    _print(tier_prices(rd, tiers, costs, n_plus_one=args.n_plus_one))
    return 0


def cmd_size(args) -> int:
    from planner.cli import _print
    from planner.catalog import load_catalog
    from planner.pricing import CostAssumptions
    from planner.sizing import Demand, size

    demand = load_json_model(args.demand, Demand, "demand")
    if args.top < 1 or args.top > 100:
        raise InputError("must be 1..100", "top")
    costs = load_json_model(args.costs, CostAssumptions, "costs") if getattr(args, "costs", None) else None
    _print(size(demand, load_catalog(args.catalog), top=args.top, assumptions=costs).model_dump(mode="json"))
    return 0


def cmd_bom(args) -> int:
    from planner.bom import bom
    from planner.catalog import load_catalog
    from planner.cli import _design_from_args, _print
    from planner.design import resolve
    from planner.pricing import CostAssumptions, SwitchChoice

    catalog = load_catalog(args.catalog)
    rd = resolve(_design_from_args(args), catalog)
    costs = load_json_model(args.costs, CostAssumptions, "costs") if args.costs else CostAssumptions()
    if args.switches is not None and not args.switch:
        raise InputError("give --switch ID with --switches", "switches")
    switches = None
    if args.switch:
        try:
            switches = SwitchChoice(model=args.switch, count=2 if args.switches is None else args.switches)
        except ValueError as exc:
            raise InputError(str(exc).splitlines()[-1].strip(), "switches") from None
    _print(bom(rd, costs, switches, catalog))
    return 0


def _design_args(p) -> None:
    from planner.cli import add_design_args

    add_design_args(p)
    p.add_argument("--n-plus-one", dest="n_plus_one", action="store_true")


def register_sla(sub) -> None:
    p = sub.add_parser("sla", help="IOPS one database can be guaranteed at its latency target")
    _design_args(p)
    p.add_argument("--background", help="workload file or profile of the other tenants")
    p.add_argument("--db", required=True, help="database JSON file")
    p.set_defaults(func=cmd_sla)


def register_price(sub) -> None:
    p = sub.add_parser("price", help="monthly cost and price per tier")
    _design_args(p)
    p.add_argument("--tiers", help="tiers JSON (default: the shipped set)")
    p.add_argument("--costs", help="cost assumptions JSON")
    p.set_defaults(func=cmd_price)


def register_size(sub) -> None:
    p = sub.add_parser("size", help="cheapest design meeting a demand, with alternatives, checks and binding")
    p.add_argument("demand")
    p.add_argument("--catalog", help="extra catalog folder")
    p.add_argument("--top", type=int, default=5)
    p.add_argument("--costs", help="cost assumptions JSON")
    p.set_defaults(func=cmd_size)


def register_bom(sub) -> None:
    p = sub.add_parser("bom", help="parts list, rack units, power, heat and licensing options of a design")
    from planner.cli import add_design_args

    add_design_args(p)
    p.add_argument("--costs", help="cost assumptions JSON (prices, licence assumptions)")
    p.add_argument("--switch", help="top-of-rack switch catalog id to add to the list")
    p.add_argument("--switches", type=int, help="how many switches (default 2)")
    p.set_defaults(func=cmd_bom)
