"""The package's structure: no import cycle among planner's modules (imports inside functions
count), and the layer order that pyproject.toml's import-linter contract states.

import-linter (``lint-imports``, run by the test script) checks the layers; this test checks
what a layers contract cannot: cycles inside a layer, between modules of one subpackage.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def module_graph(package: str = "planner") -> dict[str, set[str]]:
    """module -> the project's modules it imports, at any depth of the file (functions too)."""
    files = {}
    for p in sorted((ROOT / package).rglob("*.py")):
        parts = p.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        files[name] = p
    graph: dict[str, set[str]] = {m: set() for m in files}
    for name, p in files.items():
        pkg = name if p.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(p.read_text())):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                    base = ".".join(up + ([node.module] if node.module else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in files else base for a in node.names]
            for t in targets:
                while t and t not in files:
                    t = t.rpartition(".")[0]
                # a module's own package (its __init__) is not a dependency worth a cycle
                if t and t != name and not name.startswith(t + "."):
                    graph[name].add(t)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on:
                    low[v] = min(low[v], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def test_no_import_cycle_in_planner():
    assert cycles(module_graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_imports_another_modules_private_names():
    """``from planner.x import _name`` only inside planner.x's own package is a smell
    elsewhere: private names stay private (tests may reach in; the package and the UI may not)."""
    bad = []
    for base in ("planner", "hciplan_ui"):
        for p in (ROOT / base).rglob("*.py"):
            for node in ast.walk(ast.parse(p.read_text())):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("planner"):
                    bad += [
                        f"{p.relative_to(ROOT)}: {node.module}.{a.name}"
                        for a in node.names
                        if a.name.startswith("_") and not a.name.startswith("__")
                    ]
    assert bad == []


def test_no_test_or_module_imports_a_page_script():
    """A page (``hciplan_ui/*_page.py``) is a script: importing it runs the whole page outside a script run, in
    Streamlit's bare mode. A browser test's ``from hciplan_ui.sizing_page import DBA_MODE`` did, and left the
    Size page's ``st.form`` open in the test process: 108 app tests after it failed in CI ("can't be used in an
    st.form()") while each passed alone. A page's constants live in a module it imports; only the app's
    navigation names the pages, by file."""
    pages = {p.stem for p in (ROOT / "hciplan_ui").glob("*_page.py")}
    bad = []
    for base in ("planner", "hciplan_ui", "tests", "scripts", "benchmarks"):
        for p in (ROOT / base).rglob("*.py"):
            for node in ast.walk(ast.parse(p.read_text())):
                names = []
                if isinstance(node, ast.ImportFrom):
                    names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
                elif isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                bad += [f"{p.relative_to(ROOT)}: {n}" for n in names if n.split(".")[-1] in pages]
    assert bad == []
