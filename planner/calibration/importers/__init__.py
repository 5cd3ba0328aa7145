"""Benchmark files in, measured points out: fio JSON, DiskSpd XML, VMFleet
results and hciplan's CSV template (see each module for the fields read).

:func:`load_points` reads every file, detects its format from its content
(never the extension), and returns the points of all of them -- or raises one
:class:`ImportFileError` naming the first bad file and what is wrong with it,
so nothing is ever partially applied.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from planner.calibration.importers import csv_template, diskspd, fio, vmfleet
from planner.calibration.importers.common import (
    MAX_IMPORT_BYTES,
    MAX_IMPORT_FILES,
    MAX_IMPORT_POINTS,
    MEASURED_KEYS,
    DesignSource,
    ImportedPoint,
    ImportFileError,
    RunInfo,
    check_size,
    decode,
    make_run_info,
    read_file,
)
from planner.core.errors import one_line

__all__ = [
    "FORMATS",
    "MAX_IMPORT_BYTES",
    "MAX_IMPORT_FILES",
    "MEASURED_KEYS",
    "ImportFileError",
    "ImportedPoint",
    "RunInfo",
    "detect_format",
    "load_points",
    "make_run_info",
]

#: format -> parser, in detection order
FORMATS = {
    "fio": fio.parse,
    "diskspd": diskspd.parse,
    "vmfleet": vmfleet.parse,
    "csv-template": csv_template.parse,
}
Source = str | Path | tuple[str, bytes]


def detect_format(text: str) -> str | None:
    """'fio', 'diskspd', 'vmfleet', 'csv-template' or None, from the content."""
    stripped = text.lstrip()
    if stripped.startswith("<"):
        return "diskspd"  # the only XML format: its parser names a wrong root
    if fio.sniff(stripped):
        return "fio"
    if vmfleet.sniff(stripped):
        return "vmfleet"
    if csv_template.sniff(stripped):
        return "csv-template"
    return None


def _what_it_looks_like(text: str) -> str:
    s = text.lstrip()
    if s.startswith("{") or s.startswith("["):
        return "JSON that is not fio output"
    return "no known header"


def load_points(sources: Iterable[Source], design: DesignSource, run: RunInfo | None = None) -> list[ImportedPoint]:
    """Measured points of every file in ``sources``.

    Parameters
    ----------
    sources
        file paths, or ``(name, bytes)`` pairs (uploads); each is size-checked
        (``MAX_IMPORT_BYTES``) before it is parsed.
    design
        the cluster the benchmarks ran on (a ``ResolvedDesign``), or a function
        of the file/group name returning one (the shipped Dell data).
    run
        how the benchmark was issued (:class:`RunInfo`): issuer, VMs or
        processes per node, vCPUs, working set.

    Raises
    ------
    ImportFileError
        the first file that cannot be read, naming it and the problem.
    """
    run = run or RunInfo()
    items = list(sources)
    if not items:
        raise ImportFileError("no files given", "files")
    if len(items) > MAX_IMPORT_FILES:
        raise ImportFileError(f"{len(items)} files; at most {MAX_IMPORT_FILES} per import", "files")
    out: list[ImportedPoint] = []
    seen: set[str] = set()
    for src in items:
        if isinstance(src, tuple):
            name, data = src
            check_size(name, len(data))
        else:
            name, data = read_file(src)
        if name in seen:
            raise ImportFileError("given twice", name)
        seen.add(name)
        text = decode(name, data)
        fmt = detect_format(text)
        if fmt is None:
            raise ImportFileError(
                f"not a recognised benchmark file ({_what_it_looks_like(text)}); expected fio JSON, "
                "DiskSpd XML (-Rxml), a VMFleet result file or the hciplan CSV template",
                name,
            )
        try:
            pts = FORMATS[fmt](text, name, design, run)
        except ImportFileError:
            raise
        except (ValueError, TypeError, KeyError, AttributeError, IndexError, OverflowError) as exc:
            # content the parser did not foresee: still one line naming the file, never a traceback
            # the reason in the file's terms, not Python's exception class (hostile-input walk 2026-11-30)
            raise ImportFileError(f"unreadable {fmt} content: {one_line(str(exc))[:200]}", name) from None
        if not pts:
            raise ImportFileError(f"no measured points in this {fmt} file", name)
        out.extend(pts)
        if len(out) > MAX_IMPORT_POINTS:
            raise ImportFileError(f"more than {MAX_IMPORT_POINTS} measured points in all", "files")
    return out
