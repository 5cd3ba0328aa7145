"""Every ``hciplan`` command the README and the docs show runs as written.

A new user copies these lines first. Stop 64 ran them all by hand and found the CLI guide's
what-if (``--resiliency parity-dual`` on the 3-node reference) refused: dual parity needs four
fault domains. Each page's commands run in order in one folder of their own (a page saves a
scenario, then duplicates, shows and deletes it), holding a copy of ``examples/`` and, for the
files a user brings, the fixtures named in ``USER_FILES``. Commands that need files only the user
has are skipped by name in ``NOT_RUN``, with the test that covers their options.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import shutil
from pathlib import Path

import pytest

from tests.test_proposal_document import png

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FIXTURES = ROOT / "tests" / "fixtures"

# files a page names that a user brings: the fixture that stands in for each
USER_FILES = {
    "databases.csv": FIXTURES / "estate" / "databases.csv",
    "file_stats.csv": FIXTURES / "estate" / "file_stats.csv",
    "perfmon.csv": FIXTURES / "estate" / "perfmon.csv",
}

# a command naming any of these is not run here: what covers its options instead
NOT_RUN = {
    "result.tsv": "the user's own VMFleet table; tests/test_import.py imports and refits fixtures",
    "fio/*.json": "the user's own fio runs; tests/test_import.py runs real fio",
    "diskspd/*.xml": "the user's own DiskSpd runs; tests/test_import.py reads fixtures",
    "poc.json": "the design of the user's proof of concept (with the runs above)",
    "my-cluster.json": "the user's own design (with the runs above)",
    "hciplan calibrate": "a full refit (80 s); tests/test_calibration.py refits and compares the shipped file",
    "hciplan app": "starts a server; tests/test_browser.py starts it",
}


def _commands(page: Path) -> list[str]:
    """The ``hciplan`` lines of a page's fenced blocks, continuations joined, comments dropped."""
    out = []
    for block in re.findall(r"```\w*\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.strip()
            if re.match(r"hciplan\b", line):
                out.append(line)
    return out


def _text_block_after(page: Path, header: str) -> str:
    """The first ``text`` block of a page whose first line is ``header`` (a file the page shows)."""
    for block in re.findall(r"```text\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
        if block.startswith(header):
            return block
    raise AssertionError(f"{page.name}: no text block starting {header!r}")


def _run(argv: list[str], stdout_to: Path | None) -> tuple[int, str]:
    """planner.cli.main in-process; standard output to a file when the line redirects it."""
    from planner.cli import main

    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8", write_through=True)  # `--out -` writes bytes
    err = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as e:  # argparse's own --version and --help
            code = e.code or 0
    out.flush()
    if stdout_to is not None:
        stdout_to.write_bytes(raw.getvalue())
    return code, err.getvalue()


def _steps(line: str) -> list[tuple[list[str], str | None]]:
    """A shell line as its commands (split at ``&&``), each with the file its output goes to."""
    steps = []
    words = shlex.split(line, comments=True)
    current: list[str] = []
    chunks = [current]
    for w in words:
        if w == "&&":
            current = []
            chunks.append(current)
        else:
            current.append(w)
    for chunk in chunks:
        target = None
        if ">" in chunk:
            i = chunk.index(">")
            target = chunk[i + 1]
            chunk = chunk[:i] + chunk[i + 2 :]
        assert chunk[0] == "hciplan", line
        steps.append((chunk[1:], target))
    return steps


def _skipped(line: str) -> str | None:
    return next((why for name, why in NOT_RUN.items() if name in line), None)


PAGES_WITH_COMMANDS = [p for p in PAGES if any(not _skipped(line) for line in _commands(p))]


@pytest.mark.parametrize("page", PAGES_WITH_COMMANDS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_command_a_page_shows_runs_as_written(page, tmp_path, monkeypatch):
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    for name, src in USER_FILES.items():
        shutil.copy(src, tmp_path / name)
    (tmp_path / "logo.png").write_bytes(png())
    (tmp_path / "quotes.csv").write_text(_text_block_after(ROOT / "docs/guide/costs.md", "part,price_usd"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HCIPLAN_DB", str(tmp_path / "scenarios.db"))
    for line in _commands(page):
        if _skipped(line):
            continue
        for argv, target in _steps(line):
            code, err = _run(argv, tmp_path / target if target else None)
            assert code == 0, f"{page.name}: `{line}` exited {code}: {err.strip()[-400:]}"


def test_each_reason_to_skip_a_command_is_still_used():
    lines = [line for p in PAGES for line in _commands(p)]
    unused = [name for name in NOT_RUN if not any(name in line for line in lines)]
    assert not unused, f"NOT_RUN names no command any page shows: {unused}"
