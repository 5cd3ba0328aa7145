"""mkdocs hooks (mkdocs.yml ``hooks:``): the figures and tables the docs show are generated at
build time, never typed. A page asks for one with a marker, ``<!-- hciplan:NAME -->`` (a table: on a line
of its own); an unknown NAME fails the build.

- ``accuracy-errors``, ``accuracy-coverage``, ``accuracy-domain``: scripts/accuracy_table.py, from
  planner/data/calibration.json;
- ``published``: scripts/published_table.py, the published results no fit has seen, run through the
  model as shipped;
- ``seeds``: scripts/seeds_table.py, the seed systems' published figures and orderings;
- ``oltp-postgres``, ``oltp-postgres-sql-server``: scripts/oltp_postgres_table.py, the database layer's
  buffer model held out on first-party HammerDB / PostgreSQL runs, over PostgreSQL's page geometry (the
  check's own) and over SQL Server's (the one the product runs);
- ``mi-heldout``: scripts/mi_heldout_table.py, the database translation held out on published HammerDB
  runs on Azure SQL Managed Instance;
- ``ceph-summary``, ``ceph-cases``, ``ceph-points``, ``ceph-extrapolation``, ``ceph-params``:
  scripts/ceph_accuracy.py, from planner/data/calibration-ceph.json;
- ``queueing``: scripts/queueing_table.py, each queueing solver against exact results (the Markov
  chain, Takacs, a fork-join simulation; about 2 s);
- ``params`` (a table) and ``param NAME FORMAT`` (one value, inline): the shipped fitted parameters;
- ``sized DEMAND KEY FORMAT`` (one value, inline): a figure of ``hciplan size examples/DEMAND``;
- ``sla DESIGN DB KEY FORMAT`` and ``db-io DB KEY FORMAT`` (one value, inline): a figure of ``hciplan sla
  examples/DESIGN.json --database examples/DB.json`` or ``hciplan db-io examples/DB.json`` (FORMAT a format spec or
  ``pctN``, a fraction as a percent with N decimals);
- ``oltp KEY FORMAT`` (one value, inline): a figure of planner/data/oltp-calibration.json (the database
  layer's fit and its held-out checks);
- ``vm-ram POOL`` (one value, inline): the RAM per database VM a buffer pool of POOL GB takes
  (:func:`planner.models.database.vm_ram_gb`, the rule the Size page and a demand file use);
- ``cli-reference``: every ``hciplan`` subcommand's ``--help``, from the CLI's own parser;
- ``example-sla``, ``example-database``, ``example-price``, ``example-sizing``, ``example-bom``, ``example-sizing-hammerdb``:
  the worked examples of the user guide, run through the ``hciplan`` command on the shipped
  examples (the command each one runs is printed above its table);
- ``example-cost``, ``example-stacks``: the whole cost of a design (``hciplan cost``) and the same
  workload on each storage stack (``hciplan evaluate --stack``);
- ``fields-KIND``: the fields of an input file or section (design, node, workload, database, tier,
  demand, costs, and the design's sections ceph, vsan, clients, volume, shared-jbod, split) with
  type, default and description, from the pydantic models the files are parsed with;
- ``rules-STACK``: every rule a design of that stack (s2d, ceph, vsan) is judged by, with its source,
  from ``planner.physics.rules``.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import re
import types
import typing
from functools import cache
from pathlib import Path

from mkdocs.exceptions import PluginError

SCRIPTS = Path(__file__).resolve().parent
MARKER = re.compile(r"<!-- hciplan:([a-z0-9-]+)((?: [^ >]+)*) -->")


def _script(name: str):
    spec = importlib.util.spec_from_file_location(f"_hciplan_docs_{name}", SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cli_reference() -> str:
    """Each subcommand's help line and its ``--help`` text, at a fixed width."""
    from planner.cli.main import build_parser

    os.environ["COLUMNS"] = "100"  # argparse wraps at the terminal's width; the page needs one width
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {a.dest: a.help for a in sub._choices_actions}
    parts = []
    for name, p in sub.choices.items():
        parts.append(f"### `hciplan {name}`\n\n{helps.get(name, '')}\n\n```text\n{p.format_help().rstrip()}\n```")
    return "\n\n".join(parts)


ROOT = SCRIPTS.parent
EXAMPLES = ROOT / "examples"


def _hciplan(*argv: str) -> dict:
    """What ``hciplan ARGV`` prints, parsed (exit 0 is required: an example that fails fails the build)."""
    import contextlib
    import io

    from planner.cli.main import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main([str(a) for a in argv])
    if code != 0:
        raise PluginError(f"hciplan {' '.join(map(str, argv))}: exit {code}")
    return json.loads(out.getvalue())


def _command(*argv) -> str:
    """The command as a reader types it, from the repository's top folder."""
    return "hciplan " + " ".join(str(a).replace(str(ROOT) + "/", "") for a in argv)


def _shown(*argv) -> str:
    return f"```bash\n{_command(*argv)}\n```"


def _n(x: float) -> str:
    return f"{x:,.0f}"


BOUND_LABELS = {
    "vm_outstanding_io": "its own outstanding IO (Little's law)",
    "vm_vcpu_share": "its vCPU share",
    "node_headroom": "node headroom",
    "cluster_headroom": "cluster headroom",
    "latency_target": "the latency target",
}


def example_sla() -> str:
    argv = ("sla", EXAMPLES / "reference.json", "--background", EXAMPLES / "background-25vms.json")
    argv += ("--db", EXAMPLES / "db-erp.json", "--vcpu-oversubscription", "2", "--cpu-utilization-cap", "1")
    r = _hciplan(*argv)
    lines = [
        _shown(*argv),
        "",
        "| guaranteed IOPS | band (5-95 %) | latency at that load | bound by |",
        "|---|---|---|---|",
        f"| {_n(r['guaranteed_iops'])} | {_n(r['guaranteed_iops_low'])}-{_n(r['guaranteed_iops_high'])} "
        f"| {r['latency_ms']:.2f} ms ({r['latency_statistic']}) | {BOUND_LABELS[r['binding_constraint']]} |",
        "",
        "| bound | IOPS |",
        "|---|---|",
    ]
    for name, iops in sorted(r["bounds_iops"].items(), key=lambda kv: kv[1]):
        lines.append(f"| {BOUND_LABELS.get(name, name)} | {_n(iops)} |")
    return "\n".join(lines)


def example_database() -> str:
    runs = [("16", None), ("64", "16")]
    commands, rows = [], []
    for vcpus, threads in runs:
        argv = ("sla", EXAMPLES / "reference.json", "--database", EXAMPLES / "db-oltp-hammerdb.json", "--vcpus", vcpus)
        argv += ("--threads", threads) if threads else ()
        commands.append(_command(*argv))
        r = _hciplan(*argv)
        g = r["guarantee"]
        vm = f"{vcpus} vCPUs" + (f", {threads} IO threads" if threads else "")
        c = r["database_capacity"]
        rows.append(
            f"| {vm} | {_n(r['needed_iops'])} ({r['needed']}) | {_n(g['guaranteed_iops'])} "
            f"| {BOUND_LABELS[g['binding_constraint']]} | {'yes' if r['meets'] else 'no'} | {r['headroom_pct']:+.0f} % "
            f"| {_n(c['max_nopm'])} ({_n(c['max_nopm_low'])}-{_n(c['max_nopm_high'])}) | {c['binding'].replace('_', ' ')} |"
        )
    lines = ["```bash", *commands, "```", ""]
    lines += [
        "| database VM | IOPS needed | guaranteed | bound by | meets | headroom | most NOPM, all servers (band) | bound by |",
        "|---|---|---|---|---|---|---|---|",
    ]
    return "\n".join(lines + rows)


def example_price() -> str:
    argv = ("price", EXAMPLES / "reference.json", "--tiers", EXAMPLES / "tiers.json")
    r = _hciplan(*argv)
    m = r["monthly_cost"]
    lines = [
        _shown(*argv),
        "",
        f"The cluster costs {_n(m['per_cluster']['total_usd_per_month'])} USD a month "
        f"({_n(m['capex_usd'])} USD of hardware amortised, power, rack, licences ({m['licence_option']}), support).",
        "",
        "| tier | databases that fit | limited by | cost share, USD/month | price, USD/month | break-even fill |",
        "|---|---|---|---|---|---|",
    ]
    for name, t in r["tiers"].items():
        price = "-" if t["price_usd_per_month"] is None else _n(t["price_usd_per_month"])
        share = "-" if t["cost_share_usd_per_month"] is None else _n(t["cost_share_usd_per_month"])
        fill = "-" if t.get("break_even_fill") is None else f"{100 * t['break_even_fill']:.0f} %"
        lines.append(f"| {name} | {t['max_dbs']} | {t['limited_by']} | {share} | {price} | {fill} |")
    return "\n".join(lines)


def _size(demand: str, top: int) -> tuple[tuple, dict]:
    argv = ("size", EXAMPLES / demand, "--top", str(top))
    return argv, _hciplan(*argv)


def example_sizing() -> str:
    argv, r = _size("demand-200dbs-azure-local.json", 3)
    lines = [
        _shown(*argv),
        "",
        f"The demand with its growth: {_n(r['demand']['iops'])} IOPS, "
        f"{r['demand']['capacity_tb']:,.0f} TB, {_n(r['demand']['vcpus'])} vCPUs, {_n(r['demand']['ram_gb'])} GB RAM.",
        "",
        # the whole cost, which the sizer ranks by (and getting-started and the app show), not the servers'
        # cost_usd_per_month: the page said 22,775 where getting-started said 23,339 of the same design
        "| | design | whole cost, USD/month | binding (factor) | guaranteed IOPS | usable |",
        "|---|---|---|---|---|---|",
    ]
    for i, d in enumerate([r["best"], *r["alternatives"]]):
        label = "best" if i == 0 else f"alt {i}"
        binding = f"{d['binding']} ({d['limit_ratios'][d['binding']]:.2f}x)"
        lines.append(
            f"| {label} | {d['design']['name']} | {_n(d['whole_usd_per_month'])} | {binding} "
            f"| {_n(d['guaranteed_iops'])} | {d['usable_capacity_tb']:.1f} TB |"
        )
    return "\n".join(lines)


def example_bom() -> str:
    import tempfile

    _, r = _size("demand-200dbs-azure-local.json", 1)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "best.json"
        path.write_text(json.dumps(r["best"]["design"]), encoding="utf-8")
        b = _hciplan("bom", path, "--switch", "dell-s5248f-on")
    lines = [
        "```bash\nhciplan size examples/demand-200dbs-azure-local.json --top 1  # save best.design as best.json\n"
        "hciplan bom best.json --switch dell-s5248f-on\n```",
        "",
        "| part | per node | quantity | unit USD | total USD |",
        "|---|---|---|---|---|",
    ]
    for ln in b["lines"]:
        per = "" if ln["quantity_per_node"] is None else ln["quantity_per_node"]
        lines.append(
            f"| {ln['part']} | {per} | {ln['quantity']} | {_n(ln['unit_price_usd'])} | {_n(ln['total_usd'])} |"
        )
    lines.append(f"| **total** | | | | **{_n(b['total_usd'])}** |")
    lines += [
        "",
        f"{b['rack_units']} rack units, {_n(b['power_w'])} W, {_n(b['heat_btu_h'])} BTU/h (W x 3.412). "
        f"Licensing for its {b['physical_cores']} physical cores:",
        "",
        "| option | USD/month | total over the period | Windows guests included |",
        "|---|---|---|---|",
    ]
    for lic in b["licensing"]:
        guests = "yes" if lic["windows_guests_included"] else "no"
        lines.append(
            f"| {lic['name']} | {_n(lic['usd_per_month'])} | {_n(lic['total_usd'])} ({lic['months']} months) | {guests} |"
        )
    # an option whose guests are not licensed says so, as the bill of materials does
    notes = dict.fromkeys(lic["guests_note"] for lic in b["licensing"] if lic.get("guests_note"))
    lines += ["", *(f"{n[:1].upper()}{n[1:]}." for n in notes)] if notes else []
    return "\n".join(lines)


def example_sizing_hammerdb() -> str:
    argv, r = _size("demand-hammerdb.json", 1)
    b, d = r["best"], r["demand"]
    sig = b["signature"]
    return "\n".join(
        [
            _shown(*argv),
            "",
            "| IOPS needed (with growth) | capacity | cheapest design | whole cost, USD/month | binding |",
            "|---|---|---|---|---|",
            f"| {_n(d['iops'])} | {d['capacity_tb']:,.0f} TB | {sig['nodes']} nodes, {sig['drives']}, {sig['cache']}, "
            f"{sig['resiliency']} | {_n(b['whole_usd_per_month'])} | {b['binding']} |",
        ]
    )


def example_cost() -> str:
    argv = ("cost", EXAMPLES / "reference.json", "--demand", EXAMPLES / "demand-200dbs-azure-local.json")
    argv += ("--sql", "standard")
    r = _hciplan(*argv)
    lines = [
        _shown(*argv),
        "",
        f"Platform: {r['platform_name']} ({r['licence_name']}); purchases spread over {r['amortisation_months']} months.",
        "",
        "| line | upfront, USD | USD/month | basis |",
        "|---|---|---|---|",
    ]
    for ln in r["lines"]:
        lines.append(f"| {ln['line']} | {_n(ln['upfront_usd'])} | {_n(ln['usd_per_month'])} | {_cell(ln['basis'])} |")
    lines.append(f"| **total** | | **{_n(r['monthly']['total_usd_per_month'])}** | |")
    lines += ["", "| TCO over | purchases, USD | running costs, USD | total, USD |", "|---|---|---|---|"]
    for t in r["tco"]:
        lines.append(f"| {t['years']} years | {_n(t['upfront_usd'])} | {_n(t['running_usd'])} | {_n(t['total_usd'])} |")
    return "\n".join(lines)


def example_stacks() -> str:
    rows, commands = [], []
    for design, stack in (
        ("ceph-6node-reef.json", None),
        ("ceph-6node-reef.json", "s2d"),
        ("ceph-6node-reef.json", "vsan"),
        ("vsan-esa-6node.json", None),
        ("ceph-disaggregated.json", None),
    ):
        argv = ("evaluate", EXAMPLES / design, "--workload", "oltp-8k")
        argv += ("--stack", stack) if stack else ()
        commands.append(_command(*argv))
        r = _hciplan(*argv)
        flags = ", ".join(e["dimension"] for e in r["extrapolation"]) or "-"
        rows.append(
            f"| `{design}`{' --stack ' + stack if stack else ''} | {r['stack']} | {r['resiliency']} "
            f"| {r['usable_capacity_tb']:.1f} TB | {_n(r['iops'])} ({_n(r['iops_low'])}-{_n(r['iops_high'])}) "
            f"| {r['read_latency_ms']:.2f} / {r['write_latency_ms']:.2f} ms | {r['bottleneck']} | {flags} |"
        )
    return "\n".join(
        [
            "```bash",
            *commands,
            "```",
            "",
            "| design | stack | resiliency | usable | IOPS (band) "
            "| storage read / write latency | bottleneck | extrapolation flags |",
            "|---|---|---|---|---|---|---|---|",
            *rows,
        ]
    )


def rules_table(stack: str) -> str:
    """Every rule a design of ``stack`` is judged by: what it asks, its kind, whose it is and its source."""
    from planner.physics.rules import RULES_BY_STACK

    lines = ["| rule | kind | whose | what | source |", "|---|---|---|---|---|"]
    for name, r in RULES_BY_STACK[stack].items():
        lines.append(f"| `{name}` | {r.kind} | {r.whose} | {_cell(r.title)} | {_cell(r.source)} |")
    return "\n".join(lines)


FIELD_MODELS = {
    "design": ("planner.models.design", "Design"),
    "node": ("planner.models.design", "NodeSpec"),
    "workload": ("planner.models.workload", "Workload"),
    "database": ("planner.models.database", "Database"),
    "tier": ("planner.models.tiers", "Tier"),
    "demand": ("planner.models.demand", "Demand"),
    "costs": ("planner.commercial.pricing", "CostAssumptions"),
    "ceph": ("planner.models.design", "CephSpec"),
    "vsan": ("planner.models.design", "VsanSpec"),
    "clients": ("planner.models.design", "ClientSpec"),
    "volume": ("planner.models.design", "VolumeSpec"),
    "shared-jbod": ("planner.models.design", "SharedJbodSpec"),
    "split": ("planner.models.design", "SplitSpec"),
}


def _type_name(t) -> str:
    """A field's type as a file author reads it: values of a Literal quoted, None last."""
    origin, args = typing.get_origin(t), typing.get_args(t)
    if origin is typing.Literal:
        return " or ".join(json.dumps(a) for a in args)
    if origin is typing.Annotated:
        return _type_name(args[0])
    if origin in (typing.Union, types.UnionType):
        parts = [_type_name(a) for a in args if a is not type(None)]
        return " or ".join(parts) + (" or null" if type(None) in args else "")
    if origin in (dict, list):
        return f"{origin.__name__} of " + " to ".join(_type_name(a) for a in args)
    return {"str": "string", "float": "number", "int": "integer", "bool": "true/false"}.get(
        getattr(t, "__name__", str(t)), getattr(t, "__name__", str(t))
    )


def _range(info) -> str:
    lo = hi = ""
    for m in info.metadata:
        if getattr(m, "ge", None) is not None:
            lo = f">= {m.ge:g}"
        if getattr(m, "gt", None) is not None:
            lo = f"> {m.gt:g}"
        if getattr(m, "le", None) is not None:
            hi = f"<= {m.le:g}"
        if getattr(m, "lt", None) is not None:
            hi = f"< {m.lt:g}"
    return ", ".join(x for x in (lo, hi) if x)


def _cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def fields_table(kind: str) -> str:
    """One row per field of the model a file of ``kind`` is parsed with."""
    module, name = FIELD_MODELS[kind]
    model = getattr(importlib.import_module(module), name)
    lines = ["| field | type | range | default | description |", "|---|---|---|---|---|"]
    for field, info in model.model_fields.items():
        if info.is_required():
            default = "required"
        else:
            value = info.get_default(call_default_factory=True)
            default = "-" if value is None else f"`{json.dumps(value, default=str)}`"
        typ = _cell(_type_name(info.annotation))
        desc = _cell(info.description or "")
        lines.append(f"| `{field}` | {typ} | {_range(info)} | {_cell(default)} | {desc} |")
    return "\n".join(lines)


def param(name: str, fmt: str = "g") -> str:
    """One fitted parameter of the shipped calibration, formatted (``<!-- hciplan:param NAME FMT -->``)."""
    params = _script("accuracy_table").calibration()["params"]
    if name not in params:
        raise PluginError(f"param: {name} is not a fitted parameter ({', '.join(params)})")
    return format(params[name], fmt)


@cache
def _sized(demand: str) -> dict:
    return _hciplan("size", EXAMPLES / demand)


def _figure(value, key: str, fmt: str, what: str) -> str:
    """``value``'s figure at the dotted path ``key``, formatted: ``fmt`` a format spec, or ``pctN`` for a fraction
    as a percent with N decimals and the house's space ("16 %")."""
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            raise PluginError(f"{what} has no {key}")
        value = value[part]
    if fmt.startswith("pct"):
        return f"{value * 100:.{int(fmt[3:] or 0)}f} %"
    return format(value, fmt)


def sized(demand: str, key: str, fmt: str = ",.0f") -> str:
    """One figure of ``hciplan size examples/DEMAND`` (the command's default ``--top``), formatted:
    ``<!-- hciplan:sized DEMAND KEY FMT -->`` with KEY a dotted path (``best.guaranteed_iops``,
    ``designs_screened``). The walk-through typed 1,148,271 IOPS guaranteed where the command gave
    1,148,356 (docs walk)."""
    return _figure(_sized(demand), key, fmt, f"sized: {demand}")


@cache
def _sla(design: str, database: str) -> dict:
    return _hciplan("sla", EXAMPLES / f"{design}.json", "--database", EXAMPLES / f"{database}.json")


def sla(design: str, database: str, key: str, fmt: str = ",.0f") -> str:
    """One figure of ``hciplan sla examples/DESIGN.json --database examples/DB.json``, formatted:
    ``<!-- hciplan:sla DESIGN DB KEY FMT -->``. The Limits page typed DataON's four servers as -21.5 % and
    its checks' reason 785,000 NOPM where the command gave 757,893 (CLI walk 2026-12-01)."""
    return _figure(_sla(design, database), key, fmt, f"sla: {design} with {database}")


@cache
def _db_io(database: str) -> dict:
    return _hciplan("db-io", EXAMPLES / f"{database}.json")


def db_io(database: str, key: str, fmt: str = ",.0f") -> str:
    """One figure of ``hciplan db-io examples/DB.json``, formatted: ``<!-- hciplan:db-io DB KEY FMT -->``. The SLA
    guide typed the DataON database's peak as 22 % reads where the command gave 16 % (CLI walk 2026-12-01)."""
    return _figure(_db_io(database), key, fmt, f"db-io: {database}")


def oltp(key: str, fmt: str = "g") -> str:
    """One figure of the shipped database-layer fit (planner/data/oltp-calibration.json), formatted:
    ``<!-- hciplan:oltp KEY FMT -->`` with KEY a dotted path (``held_out.hammerdb_i9.error_pct``). The
    Accuracy page typed the i9 run as 13.7 % low where the file and its table gave -13.6 % (audit 2026-12-01)."""
    from planner.core.resources import DATA_DIR

    value = json.loads((DATA_DIR / "oltp-calibration.json").read_text(encoding="utf-8"))
    return _figure(value, key, fmt, "oltp: oltp-calibration.json")


def vm_ram(pool_gb: str) -> str:
    """The RAM [GB] a database VM with a ``pool_gb`` [GB] buffer pool takes (``<!-- hciplan:vm-ram POOL -->``):
    the docs typed 150 GB beside the app's fixed 160 GB (account-manager walk 2026-11-30)."""
    from planner.models.database import vm_ram_gb

    return f"{vm_ram_gb(float(pool_gb)):,.0f}"


def params_table() -> str:
    """Every parameter of the shipped calibration: value, bounds of the fit, how it is identified."""
    from planner.models.params import FIT_NAMES, PARAM_BOUNDS

    doc = _script("accuracy_table").calibration()
    outside = {
        "guest_latency_us": "VMFleet's near-idle Vdi steps (median VM minus storage latency)",
        "tcp_cpu_per_crossing_us": "Microsoft's RDMA/TCP pair (utilisation law)",
        "tcp_hop_latency_us": "Microsoft's RDMA/TCP pair (Little's law)",
    }
    lines = ["| parameter | value | identified by |", "|---|---|---|"]
    for k, v in doc["params"].items():
        if k in FIT_NAMES:
            how = f"the global fit, bounds {PARAM_BOUNDS[k][1]:g} to {PARAM_BOUNDS[k][2]:g}"
        else:
            how = outside.get(k, "outside the global fit")
        lines.append(f"| `{k}` | {v:.4g} | {how} |")
    return "\n".join(lines)


def workload_profiles() -> str:
    """The named workload profiles a ``--workload`` argument accepts."""
    from planner.models.workload import profiles

    lines = ["| profile | what |", "|---|---|"]
    lines += [f"| `{name}` | {_cell(w.description)} |" for name, w in profiles().items()]
    return "\n".join(lines)


def catalog_summary() -> str:
    """Records per device class in the shipped catalog, and how many are verified."""
    from planner.models.catalog import load_catalog

    by_class: dict[str, list] = {}
    for rec in load_catalog().all_records():
        by_class.setdefault(rec.device_class, []).append(rec)
    lines = ["| device class | records | verified against a seen datasheet |", "|---|---|---|"]
    for cls, recs in sorted(by_class.items()):
        lines.append(f"| `{cls}` | {len(recs)} | {sum(1 for r in recs if r.verified)} |")
    return "\n".join(lines)


GENERATORS = {
    "accuracy-errors": lambda: _script("accuracy_table").error_table(),
    "accuracy-coverage": lambda: _script("accuracy_table").coverage_table(),
    "accuracy-domain": lambda: _script("accuracy_table").domain_table(),
    "published": lambda: _script("published_table").table(),
    "seeds": lambda: _script("seeds_table").render(),
    "oltp-postgres": lambda: _script("oltp_postgres_table").render(),
    "oltp-postgres-sql-server": lambda: _script("oltp_postgres_table").render_sql_server(),
    "mi-heldout": lambda: _script("mi_heldout_table").render(),
    "ceph-summary": lambda: _script("ceph_accuracy").summary_table(),
    "ceph-cases": lambda: _script("ceph_accuracy").cases_table(),
    "ceph-points": lambda: _script("ceph_accuracy").points_table(),
    "ceph-extrapolation": lambda: _script("ceph_accuracy").extrapolation_table(),
    "ceph-params": lambda: _script("ceph_accuracy").params_table(),
    "queueing": lambda: _script("queueing_table").build(),
    "cli-reference": cli_reference,
    "params": params_table,
    "workload-profiles": workload_profiles,
    "catalog-summary": catalog_summary,
    "example-sla": example_sla,
    "example-database": example_database,
    "example-price": example_price,
    "example-sizing": example_sizing,
    "example-bom": example_bom,
    "example-sizing-hammerdb": example_sizing_hammerdb,
    "example-cost": example_cost,
    "example-stacks": example_stacks,
    **{f"rules-{stack}": (lambda stack=stack: rules_table(stack)) for stack in ("s2d", "ceph", "vsan")},
    **{f"fields-{kind}": (lambda kind=kind: fields_table(kind)) for kind in FIELD_MODELS},
}


@cache
def generated(name: str) -> str:
    """The Markdown a marker stands for."""
    return GENERATORS[name]()


def render(markdown: str, where: str = "page") -> str:
    """``markdown`` with every marker replaced by what it stands for."""

    def repl(m: re.Match) -> str:
        name, args = m.group(1), m.group(2).split()
        if name == "param":
            return param(*args)
        if name == "sized":
            return sized(*args)
        if name == "vm-ram":
            return vm_ram(*args)
        if name == "oltp":
            return oltp(*args)
        if name == "sla":
            return sla(*args)
        if name == "db-io":
            return db_io(*args)
        if name not in GENERATORS or args:
            raise PluginError(f"{where}: unknown generated block {m.group(0)}")
        # a block inside an indented container (an admonition, a list item) keeps its indent
        indent = m.string[m.string.rfind("\n", 0, m.start()) + 1 : m.start()]
        text = generated(name)
        return text.replace("\n", "\n" + indent) if not indent.strip() else text

    return MARKER.sub(repl, markdown)


def on_pre_build(config) -> None:
    for kept in (_sized, _sla, _db_io):
        kept.cache_clear()
    generated.cache_clear()  # `mkdocs serve` rebuilds in one process: a refit shows on the next build


def on_page_markdown(markdown: str, page, config, files) -> str:
    return render(markdown, page.file.src_uri)
