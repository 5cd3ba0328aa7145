"""mkdocs hooks (mkdocs.yml ``hooks:``): the figures and tables the docs show are generated at
build time, never typed. A page asks for one with a marker on a line of its own,
``<!-- hciplan:NAME -->``; an unknown NAME fails the build.

- ``accuracy-errors``, ``accuracy-coverage``, ``accuracy-domain``: scripts/accuracy_table.py, from
  planner/data/calibration.json;
- ``published``: scripts/published_table.py, the published results no fit has seen, run through the
  model as shipped;
- ``cli-reference``: every ``hciplan`` subcommand's ``--help``, from the CLI's own parser.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
from functools import cache
from pathlib import Path

from mkdocs.exceptions import PluginError

SCRIPTS = Path(__file__).resolve().parent
MARKER = re.compile(r"^<!-- hciplan:([a-z0-9-]+) -->$", re.MULTILINE)


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


GENERATORS = {
    "accuracy-errors": lambda: _script("accuracy_table").error_table(),
    "accuracy-coverage": lambda: _script("accuracy_table").coverage_table(),
    "accuracy-domain": lambda: _script("accuracy_table").domain_table(),
    "published": lambda: _script("published_table").table(),
    "cli-reference": cli_reference,
}


@cache
def generated(name: str) -> str:
    """The Markdown a marker stands for."""
    return GENERATORS[name]()


def render(markdown: str, where: str = "page") -> str:
    """``markdown`` with every marker replaced by what it stands for."""

    def repl(m: re.Match) -> str:
        if m.group(1) not in GENERATORS:
            raise PluginError(f"{where}: unknown generated block <!-- hciplan:{m.group(1)} -->")
        return generated(m.group(1))

    return MARKER.sub(repl, markdown)


def on_pre_build(config) -> None:
    generated.cache_clear()  # `mkdocs serve` rebuilds in one process: a refit shows on the next build


def on_page_markdown(markdown: str, page, config, files) -> str:
    return render(markdown, page.file.src_uri)
