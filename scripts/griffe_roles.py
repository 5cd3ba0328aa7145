"""A griffe extension for the docs build (mkdocs.yml, mkdocstrings' ``extensions``): the
library's docstrings cite each other with Sphinx roles (``:func:`x```, ``:mod:`~a.b```), which
Markdown would print as they are. Each becomes inline code that links to the object's entry in
the API reference when there is one (an optional cross-reference: a private or unknown name
stays plain code, never a broken link)."""

from __future__ import annotations

import html
import re

import griffe

ROLE = re.compile(r":(?:mod|func|class|meth|attr|data|obj|exc):`(~?)([^`]+)`")
ROOTS = ("planner", "hciplan_ui", "hardware_catalog")


def _target(name: str, obj: griffe.Object) -> str:
    """The dotted path a role names: absolute when it starts at a package root, else
    relative to the module (or class) whose docstring holds it."""
    name = name.strip().lstrip(".")
    if name.split(".")[0] in ROOTS:
        return name
    scope = obj if obj.is_module or obj.is_class else obj.parent
    return f"{scope.path}.{name}" if scope is not None else name


def convert(text: str, obj: griffe.Object) -> str:
    """``text`` with every Sphinx role replaced by an optional autorefs link."""

    def repl(m: re.Match) -> str:
        tilde, name = m.groups()
        shown = name.strip().split(".")[-1] if tilde else name.strip()
        ident = html.escape(_target(name, obj), quote=True)
        return f'<autoref identifier="{ident}" optional><code>{html.escape(shown)}</code></autoref>'

    return ROLE.sub(repl, text)


class SphinxRoles(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs) -> None:
        if obj.docstring is not None and ":" in obj.docstring.value:
            obj.docstring.value = convert(obj.docstring.value, obj)
