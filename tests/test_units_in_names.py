"""Units in names, JSON included: every number a command prints sits under a name that says its
unit (``latency_ms``, ``capacity_tb``), a count noun (``nodes``) or a dimensionless name
(``read_fraction``), from the one vocabulary in :mod:`planner.core.units`.

Every subcommand that prints JSON runs over the shipped examples; each number's key is judged by
:func:`planner.core.units.names_a_unit`, but where the key alone does not name the quantity:

* a mapping of numbers keyed by names (tier names, transaction types, resources:
  ``reads_per_call: {"new_order": 7.7}``, ``utilization: {"network": 0.4}``) is judged by its own
  key: every value a number or null, besides ``*_note`` strings saying why one is null;
* a record about one quantity (``{"name": "guest_cpu_us", "value": 49.7}``,
  ``"nodes": {"kind": "range", "min": 2, "max": 4}``): its ``value``, ``*_value``, ``min`` and
  ``max`` are judged by the quantity's name in ``name``, ``field`` or ``dimension``, else by the
  key the record sits under;
* a record with a ``unit`` text (``{"need": 3.0, "have": 2.4, "unit": "ms"}``) states the unit of
  its numbers in words.

The proposal's data (:func:`planner.sizing.proposal.build`: the demand verdict, the multi-year
view, the binding resource), which the app's pages and the documents read and no command prints,
is walked the same way; so are the input models' numeric fields (design, workload, database,
demand, tiers, costs, catalog parts, model parameters).

Limit: a name passes when one of its words is in the vocabulary; that the word describes this
figure is for the reviewer (``iops_per_gb`` and ``per_gb_iops`` both pass).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
from pathlib import Path

import pytest

from planner.cli import main
from planner.cli.main import build_parser
from planner.core.units import names_a_unit

ROOT = Path(__file__).resolve().parents[1]

#: keys of a record that name the quantity its ``value`` is of
NAMING_KEYS = ("name", "field", "dimension")
#: keys whose number is the value (or a bound) of the quantity their record is about
VALUE_KEYS = ("value", "min", "max")

#: subcommands that print no report: ``app`` starts the app; ``schema`` prints a JSON schema, whose
#: numbers are the input fields' bounds and defaults (``minimum``, ``default``), not figures
NOT_REPORTS = {"app", "schema"}


def _cases(tmp: Path) -> list[list[str]]:
    """One or two command lines per subcommand that prints JSON (paths relative to the repository)."""
    oltp = ["--workload", "oltp-8k"]
    return [
        ["evaluate", "examples/reference.json"],
        ["evaluate", "examples/reference.json", *oltp],
        ["evaluate", "examples/edge-2node.json", *oltp],  # more vCPUs than the nodes hold: warnings
        ["evaluate", "examples/ceph-6node-reef.json", *oltp],
        ["evaluate", "examples/vsan-esa-6node.json", *oltp],
        ["evaluate", "examples/san-raid5.json", *oltp],
        ["evaluate", "examples/seed-dataon-sofs-2db.json", *oltp],
        ["sla", "examples/reference.json", "--db", "examples/db-erp.json", "--vm-sizes"],
        ["sla", "examples/reference.json", "--database", "examples/db-oltp-hammerdb.json"],
        ["price", "examples/reference.json", "--tiers", "examples/tiers.json"],
        ["size", "examples/demand-hammerdb.json", "--top", "2"],
        ["size", "examples/demand-200dbs.json", "--top", "2"],
        ["bom", "examples/reference.json", "--switch", "dell-s5248f-on"],
        ["compare", "examples/reference.json", "examples/san-raid5.json", *oltp],
        ["compare", "examples/reference.json", "examples/san-raid5.json", "--database", "examples/db-oltp-hammerdb.json", "--full"],
        ["db-io", "examples/db-oltp-hammerdb.json"],
        ["catalog"],
        ["calibrate", "--dry-run", "--bootstrap", "0", "--no-cv"],
        ["calibrate", "--stack", "ceph", "--dry-run", "--no-cv"],
        ["validate"],
        ["validate", "--rows"],
        ["validate", "--stack", "ceph"],
        ["cost", "examples/reference.json", "--demand", "examples/demand-200dbs.json", "--sql", "enterprise"],
        ["cost", "examples/san-raid5.json", "--owned"],
        ["proposal", "examples/demand-hammerdb.json", "--design", "examples/reference.json", "--format", "html",
         "--out", str(tmp / "proposal.html")],
        ["scenario", "save", "one", "--demand", "examples/demand-hammerdb.json", "--design", "examples/reference.json"],
        ["scenario", "save", "two", "--demand", "examples/demand-200dbs.json", "--design", "examples/reference.json",
         "--existing", "examples/san-raid5.json", "--sql", "standard"],
        ["scenario", "list"],
        ["scenario", "show", "two"],
        ["scenario", "duplicate", "one", "three"],
        ["scenario", "compare", "one", "two"],
        ["scenario", "delete", "three"],
        ["estate", "tests/fixtures/estate/databases.csv", "--details"],
        ["estate", "tests/fixtures/estate/file_stats.csv", "--details"],
        ["estate", "tests/fixtures/estate/perfmon.csv", "--details"],
        ["estate", "tests/fixtures/estate/perfmon.csv", "--capacity-tb", "5", "--databases", "4", "--details"],
        ["import", "tests/fixtures/import/diskspd-1target-latency.xml", "--design", "examples/reference.json"],
        ["import", "tests/fixtures/import/diskspd-1target-latency.xml", "tests/fixtures/import/diskspd-2targets-latency.xml",
         "--design", "examples/reference.json", "--calibrate", "--no-held-out", "--out", str(tmp / "refit.json")],
    ]  # fmt: skip


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[tuple[str, ...], object]:
    """Every case's printed JSON, run in order (a scenario is saved before it is shown) against
    a scenario database of its own."""
    tmp = tmp_path_factory.mktemp("units")
    old_cwd, old_db = os.getcwd(), os.environ.get("HCIPLAN_DB")
    os.chdir(ROOT)
    os.environ["HCIPLAN_DB"] = str(tmp / "scenarios.db")
    out: dict[tuple[str, ...], object] = {}
    try:
        for argv in _cases(tmp):
            stdout, stderr = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
                status = main(argv)
            assert status == 0, f"{' '.join(argv)}: {stderr.getvalue()}"
            out[tuple(argv)] = json.loads(stdout.getvalue())
    finally:
        os.chdir(old_cwd)
        if old_db is None:
            os.environ.pop("HCIPLAN_DB", None)
        else:
            os.environ["HCIPLAN_DB"] = old_db
    return out


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is_mapping_of_numbers(d: dict) -> bool:
    """Values all numbers or null (with ``*_note`` strings saying why): keys that are data."""
    values = [v for k, v in d.items() if not k.endswith("_note")]
    return bool(values) and all(v is None or _is_number(v) for v in values)


def unnamed(obj, path: str = "", name: str = "") -> list[str]:
    """Paths of the numbers in ``obj`` whose name carries no unit; ``name`` is the key ``obj``
    sits under (a list's items sit under the list's key)."""
    bad: list[str] = []
    if isinstance(obj, dict):
        keyed_by_data = _is_mapping_of_numbers(obj) and names_a_unit(name)
        states_unit = isinstance(obj.get("unit"), str) and obj["unit"].strip() != ""
        for k, v in obj.items():
            if _is_number(v):
                if states_unit:
                    ok = True
                elif k in VALUE_KEYS or k.endswith("_value"):
                    names = [obj[n] for n in NAMING_KEYS if isinstance(obj.get(n), str)] or [name]
                    ok = any(names_a_unit(n) for n in names)
                else:
                    ok = names_a_unit(k) or keyed_by_data
                if not ok:
                    bad.append(f"{path}/{k}")
            else:
                bad += unnamed(v, f"{path}/{k}", k)
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            if _is_number(v):
                if not names_a_unit(name):
                    bad.append(f"{path}[{i}]")
            else:
                bad += unnamed(v, f"{path}[{i}]", name)
    return bad


def test_the_walk_finds_a_number_without_a_unit():
    assert unnamed({"headroom": 0.2, "nodes": 4, "vm_latency_ms": 1.0, "ok": True}) == ["/headroom"]
    assert unnamed({"a": [{"limits": {"capacity": 1.2, "ram": None, "ram_note": "never binds"}}]}) == [
        "/a[0]/limits/capacity"
    ]
    # a mapping keyed by data is judged by its own key
    assert unnamed({"reads_per_call": {"new_order": 7.7}, "tier_latency_ms": {"Gold": 1.0}}) == []
    # a record with a text field besides numbers is not a mapping: its keys are field names
    assert unnamed({"utilization": {"network": 0.4, "label": "x"}}) == ["/utilization/network"]
    # a value is judged by the name of what it is the value of
    assert unnamed({"fitted": [{"name": "guest_cpu_us", "value": 49.7}, {"name": "alpha", "value": 2.0}]}) == [
        "/fitted[1]/value"
    ]
    assert unnamed({"a": [{"name": "alpha", "value": 2.0, "unit": "LP-us per IO"}]}) == []
    assert unnamed({"d": [{"need": 3.0, "have": 2.4, "unit": "ms"}, {"need": 3.0, "unit": ""}]}) == ["/d[1]/need"]
    assert unnamed({"domain": {"nodes": {"kind": "range", "min": 2}, "alpha": {"kind": "range", "max": 4}}}) == [
        "/domain/alpha/max"
    ]
    assert unnamed({"x": [1, 2], "model_iops": [1, 2]}) == ["/x[0]", "/x[1]"]


def _json_subcommands() -> set[tuple[str, ...]]:
    """Every subcommand (and scenario action) the parser knows, but those that print no report."""
    import argparse

    def subs(parser) -> dict:
        acts = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        return acts[0].choices if acts else {}

    out: set[tuple[str, ...]] = set()
    for name, p in subs(build_parser()).items():
        if name in NOT_REPORTS:
            continue
        inner = subs(p)
        out |= {(name, a) for a in inner} if inner else {(name,)}
    return out


def test_every_json_subcommand_is_run():
    run = {tuple(a[:2]) if a[0] == "scenario" else (a[0],) for a in _cases(Path("."))}
    assert _json_subcommands() <= run, _json_subcommands() - run


def test_every_number_names_its_unit(reports):
    bad = {" ".join(argv): unnamed(rep) for argv, rep in reports.items()}
    bad = {k: v for k, v in bad.items() if v}
    keys = sorted({p.rsplit("/", 1)[-1].split("[")[0] for v in bad.values() for p in v})
    assert not bad, f"numbers without a unit in their name: {keys}\n" + "\n".join(
        f"{cmd}: {paths[:8]}" for cmd, paths in bad.items()
    )


def test_the_proposals_numbers_name_their_units():
    """The proposal's data, as the documents and the app's pages read it (demand verdict,
    multi-year view, binding resource, whole cost, the system run today)."""
    from planner.core.jsonio import dumps
    from planner.engine.loads import demand_as_workload
    from planner.models.catalog import load_catalog
    from planner.models.demand import Demand
    from planner.models.design import load_design
    from planner.sizing.proposal import build

    demand = Demand.model_validate_json((ROOT / "examples" / "demand-200dbs.json").read_text())
    design = load_design(ROOT / "examples" / "reference.json")
    p = build(
        design,
        demand_as_workload(demand, design.node_count),
        demand=demand,
        catalog=load_catalog(),
        existing=load_design(ROOT / "examples" / "san-raid5.json"),
    )
    assert {"verdict", "multi_year", "binding"} <= set(p)
    assert unnamed(json.loads(dumps(p))) == []


def _numeric_fields(model, seen: set) -> list[tuple[str, str]]:
    """(model, field) of every int or float field of ``model`` and the models it holds."""
    import typing

    from pydantic import BaseModel

    def leaves(a):
        args = typing.get_args(a)
        return [t for x in args for t in leaves(x)] if args else [a]

    out = []
    for name, f in model.model_fields.items():
        types = leaves(f.annotation)
        if int in types or float in types:
            out.append((model.__name__, name))
        for t in types:
            if isinstance(t, type) and issubclass(t, BaseModel) and t not in seen:
                seen.add(t)
                out += _numeric_fields(t, seen)
    return out


def test_every_numeric_input_field_names_its_unit():
    """The input files' fields (design, workload, database, demand, tiers, costs, catalog parts)
    and the model's parameters: a new field without a unit is named with one, or its reason goes
    in the vocabulary."""
    from planner.commercial.pricing import CostAssumptions
    from planner.models import catalog
    from planner.models.database import Database
    from planner.models.demand import Demand
    from planner.models.design import Design
    from planner.models.params import CephParams, ModelParams
    from planner.models.tiers import TierSet
    from planner.models.workload import Workload

    models = [Design, Workload, Database, Demand, TierSet, CostAssumptions, ModelParams, CephParams]
    models += [m for m in vars(catalog).values() if isinstance(m, type) and issubclass(m, catalog.Record)]
    seen: set = set(models)
    fields = [f for m in models for f in _numeric_fields(m, seen)]
    assert len(fields) > 200  # the walk reaches the nested sections
    assert [f for f in fields if not names_a_unit(f[1])] == []


#: nouns a count of one must name in the singular ("1 vCPUs", "1 databases" reached a customer twice, stop 61)
_COUNTED = ("vCPUs", "databases", "nodes", "servers", "drives", "threads", "VMs", "hosts", "cards", "tiers", "cores")
_ONE_PLURAL = re.compile(r"(?<![\d.,])\b1 (?:" + "|".join(_COUNTED) + r")\b")


def _texts(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _texts(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _texts(v)


def test_a_count_of_one_is_singular_in_every_commands_words(reports):
    """Every sentence every command prints: a count of one takes the singular noun."""
    bad = {
        " ".join(argv): sorted({m.group(0) for t in _texts(rep) for m in _ONE_PLURAL.finditer(t)})
        for argv, rep in reports.items()
    }
    assert not {k: v for k, v in bad.items() if v}, {k: v for k, v in bad.items() if v}
    assert (
        _ONE_PLURAL.search("on 1 nodes") and not _ONE_PLURAL.search("2.1 nodes") and not _ONE_PLURAL.search("11 nodes")
    )
