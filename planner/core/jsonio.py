"""Safe JSON input, used by every reader (designs, workloads, databases, tiers,
costs, demands, catalog files, share links).

* Size-limited before parsing; files are opened once, must be regular files
  (not FIFOs, devices or directories, whatever a symlink points at) and at most
  ``max_bytes + 1`` bytes are read, so ``stat`` is never trusted.
* Nesting deeper than :data:`MAX_DEPTH` is rejected by a scan of the brackets
  outside strings *before* :func:`json.loads`, whose C scanner recurses and
  would raise RecursionError.
* Integers longer than :data:`MAX_INT_DIGITS` digits (Python's int-string
  limit would raise ValueError), ``NaN``/``Infinity`` literals (which
  :func:`json.loads` accepts by default) and numbers that overflow to infinity
  are rejected, naming the field that holds them.
* Parsed with :mod:`json` only, then validated by a pydantic model.

Every failure is a :class:`planner.core.errors.PlannerError` naming the field.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from pydantic import BaseModel, ValidationError

from planner.core.errors import PlannerError, format_validation_error, shown

M = TypeVar("M", bound=BaseModel)

MAX_INPUT_BYTES = 1_000_000
MAX_DEPTH = 64
MAX_INT_DIGITS = 300

# a JSON string: quote, then runs of ordinary characters or escapes (unrolled, linear)
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


class _Bad:
    """Placeholder the parse hooks leave where a value is not allowed."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


def _parse_int(s: str) -> int | _Bad:
    digits = len(s) - s.startswith("-")
    if digits > MAX_INT_DIGITS:
        return _Bad(f"integer with {digits} digits (at most {MAX_INT_DIGITS})")
    return int(s)


def _parse_float(s: str) -> float | _Bad:
    x = float(s)
    if not math.isfinite(x):
        return _Bad(f"number {shown(s, 30)} is out of range (it overflows to infinity)")
    return x


def _parse_constant(name: str) -> _Bad:
    return _Bad(f"{name} is not allowed: numbers must be finite")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object; a key given twice is refused (json.loads keeps the last value silently, so a
    file edited by hand with "nodes": 4 ... "nodes": 8 ran with 8 and said nothing)."""
    out: dict[str, Any] = {}
    for k, v in pairs:
        out[k] = _Bad("given twice in the same object (which value is meant?)") if k in out else v
    return out


def nesting_depth(text: str) -> int:
    """Deepest bracket nesting of JSON text, brackets inside strings ignored
    (no recursion: strings are blanked, then a running sum over the brackets)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub('""', text))
    if not brackets:
        return 0
    b = np.frombuffer(brackets.encode("ascii"), dtype=np.uint8)
    step = np.where((b == ord("[")) | (b == ord("{")), 1, -1)
    return int(np.cumsum(step).max())


def _find_bad(doc: Any, field: str) -> tuple[str, str] | None:
    """(path, reason) of the first placeholder in ``doc``, depth-first, iterative."""
    stack = [(doc, field)]
    while stack:
        obj, path = stack.pop()
        if isinstance(obj, _Bad):
            return path, obj.reason
        if isinstance(obj, dict):
            for k, v in reversed(list(obj.items())):
                stack.append((v, f"{path}.{k}" if path else str(k)))
        elif isinstance(obj, list):
            for i, v in reversed(list(enumerate(obj))):
                stack.append((v, f"{path}[{i}]"))
    return None


def loads(
    data: str | bytes, field: str, error: type[PlannerError] = PlannerError, max_bytes: int = MAX_INPUT_BYTES
) -> Any:
    """Parse JSON text safely (see module docstring); errors name ``field``."""
    if len(data) > max_bytes:
        raise error(f"larger than {max_bytes:,} bytes", field)
    if isinstance(data, (bytes, bytearray)):
        try:
            # the encodings json.loads itself accepts (RFC 8259: UTF-8, -16, -32)
            data = bytes(data).decode(json.detect_encoding(data), "strict")
        except UnicodeDecodeError as exc:
            raise error(f"not valid JSON (undecodable byte at offset {exc.start})", field) from None
    if data.startswith("\ufeff"):
        data = data[1:]
    if nesting_depth(data) > MAX_DEPTH:
        raise error(f"JSON nested deeper than {MAX_DEPTH} levels", field)
    try:
        doc = json.loads(
            data,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
            object_pairs_hook=_object,
        )
    except json.JSONDecodeError as exc:
        # an error at the very end is a file cut short (a copy or a run interrupted), not a typo
        cut = "; the text ends there: truncated?" if exc.pos >= len(data.rstrip()) - 1 else ""
        # "line 1, column 1576": json's own message may end in "at" ("Unterminated string starting at at line 1")
        raise error(f"not valid JSON ({exc.msg}: line {exc.lineno}, column {exc.colno}{cut})", field) from None
    bad = _find_bad(doc, field)
    if bad is not None:
        raise error(bad[1], bad[0])
    return doc


def write_target(
    path: str | Path, field: str = "out", error: type[PlannerError] = PlannerError
) -> tuple[Path, os.stat_result | None]:
    """Where a write of ``path`` goes (a symbolic link's target) and what is there now (None: nothing yet), or
    ``error`` naming ``field`` in one line where nothing can be written: a folder, a folder that does not exist, a
    symbolic link loop on the way, a NUL character. :func:`write_atomic`'s first step, and a command's check before
    the long computation whose result the file is to hold: a refit said its `--out` could not be written after 14 s
    of fitting (stop 60)."""
    # a symlink's target is written, the link stays (it was replaced by a file, its target left empty)
    # (hostile-input walk 2026-11-30)
    p = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    try:
        old = os.stat(p)
    except (FileNotFoundError, NotADirectoryError):
        old = None
    except OSError as exc:
        raise error(f"cannot write {shown(str(path))}: {_reason(exc)}", field) from None
    except ValueError:  # a NUL character: no file system takes it
        raise error(f"file name {shown(str(path))} contains a NUL character", field) from None
    if old is not None and stat.S_ISDIR(old.st_mode):
        raise error(f"cannot write {shown(str(path))}: it is a folder; give a file name", field)
    folder = p.parent if str(p.parent) else Path(".")
    if old is None and not folder.is_dir():
        raise error(f"cannot write {shown(str(path))}: there is no folder {shown(str(folder))}", field)
    return p, old


def write_atomic(
    path: str | Path, data: bytes | str, field: str = "out", error: type[PlannerError] = PlannerError
) -> None:
    """Write ``data`` to ``path`` whole or not at all: into a temporary file beside it, flushed to disk, then renamed
    over it (a rename within one file system is atomic). A write that fails (a full disk) leaves the old file as it
    was: the calibration file was left cut off at 8,192 bytes, after which every command printed a traceback, and a
    good proposal was replaced by half of one (hostile-input walk 2026-11-30)."""
    import tempfile

    raw = data.encode("utf-8") if isinstance(data, str) else data
    p, old = write_target(path, field, error)
    if old is not None and not stat.S_ISREG(old.st_mode):
        _write_in_place(p, raw, str(path), field, error)
        return
    # the file keeps its mode, a new one gets the umask's (mkstemp's 0600 left proposals unreadable to others)
    mode = stat.S_IMODE(old.st_mode) if old is not None else 0o666 & ~_UMASK
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".part", dir=p.parent if str(p.parent) else ".")
    except OSError as exc:
        raise error(f"cannot write {shown(str(path))}: {_reason(exc)}", field) from None
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise error(f"cannot write {shown(str(path))}: {_reason(exc)}", field) from None


def _write_in_place(p: Path, raw: bytes, said: str, field: str, error: type[PlannerError]) -> None:
    """Write ``raw`` into a device or a pipe as a shell's redirection does: renaming a file over ``/dev/full``
    made it a regular file (hostile-input walk 2026-11-30). Opened without blocking, so a pipe no program reads
    is an error, not a hang."""
    try:
        fd = os.open(p, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise error(f"cannot write {shown(said)}: {_reason(exc)}", field) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
    except OSError as exc:
        raise error(f"cannot write {shown(said)}: {_reason(exc)}", field) from None


def _umask() -> int:
    """The process's umask (read once: setting it to read it is not thread-safe, and the app has threads)."""
    m = os.umask(0o022)
    os.umask(m)
    return m


_UMASK = _umask()


def read_bounded(path: str | Path, max_bytes: int, field: str, error: type[PlannerError] = PlannerError) -> bytes:
    """At most ``max_bytes`` of a regular file; more is an error.

    The file is opened once (non-blocking, so a FIFO cannot hang the open) and
    checked with ``fstat`` on that open file, so a symlink to ``/dev/zero`` or a
    FIFO is refused and a file that grows after a ``stat`` cannot be read past
    the limit.
    """
    name = Path(path).name or str(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise error(f"file not found: {shown(str(path))}", field) from None
    except OSError as exc:
        raise error(f"cannot open {shown(str(path))}: {_reason(exc)}", field) from None
    except ValueError:  # a NUL character: no file system takes it
        raise error(f"file name {shown(str(path))} contains a NUL character", field) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            # what it is: "'null' is not a regular file" for /dev/null read as a file named null (CLI review
            # 2026-11-30)
            what = "a folder, not a file" if stat.S_ISDIR(st.st_mode) else "a device or pipe, not a file"
            raise error(f"{shown(name)} is {what}", field)
        if st.st_size > max_bytes:  # refused unread; the bounded read below still guards a file that grows
            raise error(f"{shown(name)} is larger than {max_bytes:,} bytes ({st.st_size:,} bytes)", field)
        chunks, left = [], max_bytes + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as exc:
        raise error(f"cannot read {shown(name)}: {_reason(exc)}", field) from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > max_bytes:
        raise error(f"{shown(name)} is larger than {max_bytes:,} bytes", field)
    return data


def _reason(exc: OSError) -> str:
    """'file name too long' from an OSError, without the path it carries."""
    return (exc.strerror or type(exc).__name__).lower()


#: the kinds of file a user may give one for another, each by the words a message says it in
#: ("a demand file"): filled by the modules that define them (:func:`file_kind`)
FILE_KINDS: dict[type[BaseModel], str] = {}


def file_kind(model: type[M], words: str) -> type[M]:
    """Register ``model``'s files as ``words`` ("a design file") for :func:`other_kind`."""
    FILE_KINDS[model] = words
    return model


def _keys(model: type[BaseModel]) -> set[str]:
    return {k for name, f in model.model_fields.items() for k in (name, f.alias) if k}


def other_kind(model: type[BaseModel], data: dict[str, Any]) -> str | None:
    """The registered kind of file ``data`` is when it is not ``model``'s: every one of its keys is a
    field of that kind and some are not ``model``'s, and it has that kind's required fields
    (a demand given to ``sla --db``, a design given as a database: browser review 2026-11-29, where
    the message listed every key as 'Extra inputs are not permitted'). None when no kind fits.

    The kinds are those imported so far; the CLI (``planner.cli.main``) and the app
    (``hciplan_ui.import_once``) import :mod:`planner.commercial.file_kinds`, all of them, before they
    read a file."""
    keys = set(data)
    if not keys or keys <= _keys(model):
        return None
    for other, words in FILE_KINDS.items():
        required = {n for n, f in other.model_fields.items() if f.is_required()}
        if other is not model and keys <= _keys(other) and required <= keys:
            return words
    return None


def parse_json_model(
    data: dict[str, Any] | str | bytes,
    model: type[M],
    error: type[PlannerError],
    field: str,
    prefix: str = "",
    max_bytes: int = MAX_INPUT_BYTES,
    describe: Callable[[Any, dict[str, Any]], str] | None = None,
) -> M:
    """Validate ``data`` (a dict or JSON text) as ``model``; JSON text must write every number as a
    number (see :func:`numbers_written_as_numbers`). ``describe(exc, data)`` words the model's errors
    where a caller names them its own way (a table's rows and columns), instead of field paths."""
    text = False
    if isinstance(data, (str, bytes, bytearray)):
        data, text = loads(data, field, error, max_bytes), True
    if not isinstance(data, dict):
        raise error("must be a JSON object", field)
    if text:  # first: lax mode reads true as 1, and a rule about 1 would hide the real mistake
        numbers_written_as_numbers(model, data, error, prefix, describe)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        other = other_kind(model, data)
        if other is not None:  # a demand given for a database: one line that says so, not one per key
            raise error(f"this is {other}, not {FILE_KINDS.get(model, model.__name__)}", field) from None
        raise error(describe(exc, data) if describe else format_validation_error(exc, prefix, root=field)) from None
    except RecursionError:  # a dict built in Python, nested past the interpreter's limit
        raise error(f"nested deeper than {MAX_DEPTH} levels", field) from None


#: pydantic's error types for a value that is not a number, in strict mode
_NUMBER_ERRORS = frozenset({"int_type", "float_type", "decimal_type", "int_parsing", "float_parsing"})
#: a true/false written as a string or a number (``"all_warehouses": "yes"``, lax mode's True)
_BOOL_ERRORS = frozenset({"bool_type", "bool_parsing"})


class _Refused:
    """Errors found by :func:`numbers_written_as_numbers`, offered as a ValidationError offers them
    (``errors()``), so a caller's ``describe`` words them as it words the model's."""

    def __init__(self, errors: list[Any]) -> None:
        self._errors = errors

    def errors(self) -> list[Any]:
        return self._errors


def _not_a_number(value: Any) -> str:
    """Why ``value`` (a string or a boolean where a number goes) is refused: a number in quotes is said as one,
    anything else is no number ("a number is written without quotes (got 'lots')"; pricing-call walk, stop 63)."""
    if not isinstance(value, str):
        return "true/false is not a number"
    try:
        float(value)
    except ValueError:
        return "must be a number"
    return "a number is written without quotes"


def numbers_written_as_numbers(
    model: type[BaseModel],
    data: dict[str, Any],
    error: type[PlannerError],
    prefix: str,
    describe: Callable[[Any, dict[str, Any]], str] | None = None,
) -> None:
    """Refuse a number written as a string or a boolean in a file (``"nodes": "4"``,
    ``"size_tb": true``), which pydantic's lax mode reads as 4 and 1.0, and a true/false written as
    a string or a number (``"all_warehouses": "yes"``, read as true): in a hand-edited file it is a
    typo or a field misread, and a planner should say so rather than guess.

    Only those errors of a strict validation are kept: strict *Python* mode also refuses
    what JSON has no other way to write (dates as strings, where a validator has turned the
    document into Python objects; arrays for tuples), and those the lax result is right about."""
    try:
        # re-serialised after loads' checks (finite numbers, bounded depth, no repeated key)
        model.model_validate_json(json.dumps(data), strict=True)
    except ValidationError as exc:
        bad: list[Any] = [  # pydantic's ErrorDetails, each with our message
            {**e, "msg": _not_a_number(e["input"])}
            for e in exc.errors()
            if e["type"] in _NUMBER_ERRORS and isinstance(e.get("input"), (str, bool))
        ] + [
            {**e, "msg": "write true or false, without quotes"}
            for e in exc.errors()
            if e["type"] in _BOOL_ERRORS
            and isinstance(e.get("input"), (str, int, float))
            and not isinstance(e.get("input"), bool)
        ]
        if bad:
            # a caller that names errors its own way (a table's rows and columns) names these too: a tiers file read
            # "Tiers.tiers.0.guaranteed_iops: ..." for a quoted number and "Row 1 (Standard), ..." for the rest
            raise error(describe(_Refused(bad), data) if describe else format_validation_error(bad, prefix)) from None


def load_json_model(
    path: str | Path,
    model: type[M],
    error: type[PlannerError],
    field: str,
    prefix: str = "",
    max_bytes: int = MAX_INPUT_BYTES,
) -> M:
    """Read (at most ``max_bytes``, regular files only) and validate a JSON file as ``model``."""
    return parse_json_model(read_bounded(path, max_bytes, field, error), model, error, field, prefix, max_bytes)


#: The reason :func:`strict` gives a value nobody explained; tests look for it,
#: so a non-finite number that reaches output unexplained is found, not hidden.
UNEXPLAINED = "not a finite number (the model could not evaluate it)"


#: The reason a producer gives when the model itself overflows: valid but extreme
#: figures (a part at 5e-324 GHz passes ``gt=0``) make no finite prediction.
NOT_COMPUTABLE = (
    "not computable: the model gives no finite value for these figures (a part or workload "
    "figure at the far edge of its valid range)"
)


#: keys whose text says why: left out when empty (`size` printed "explanation": "" and "stopped": "" beside a
#: design found; CLI review 2026-11-29)
SAYS_WHY = ("note", "explanation", "stopped")


def strict(obj: Any, reason: str = UNEXPLAINED) -> Any:
    """A JSON-ready copy of ``obj`` with no NaN or Infinity: each non-finite
    float becomes null and, in an object, gets a ``<key>_note`` (``reason``)
    next to it (unless one is there). A note with nothing to say (``""``; any key of :data:`SAYS_WHY`) is left out: a note
    is there where it explains something ("latency_note": "" beside the figures read as a
    missing explanation; CLI review 2026-11-29). Iterative, so depth cannot overflow the stack."""

    def fix(v: Any) -> tuple[Any, bool]:
        if isinstance(v, (float, np.floating)) and not math.isfinite(v):
            return None, True
        if isinstance(v, (np.integer, np.bool_)):
            return v.item(), False
        if isinstance(v, np.floating):
            return float(v), False
        if isinstance(v, np.ndarray):
            v = v.tolist()
        if isinstance(v, BaseModel):
            v = v.model_dump(mode="python")
        return v, False

    root, _ = fix(obj)
    out_root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(root, out_root, 0)]
    while stack:
        src, parent, key = stack.pop()
        if isinstance(src, dict):
            new: dict[Any, Any] = {}
            parent[key] = new
            for k, v in src.items():
                if v == "" and isinstance(k, str) and k.endswith(SAYS_WHY):
                    continue
                v, bad = fix(v)
                if bad:
                    new[k] = None
                    new.setdefault(f"{k}_note", src.get(f"{k}_note") or reason)
                else:
                    new[k] = v
                    stack.append((v, new, k))
        elif isinstance(src, (list, tuple)):
            new_list: list[Any] = [None] * len(src)
            parent[key] = new_list
            for i, v in enumerate(src):
                v, bad = fix(v)
                new_list[i] = None if bad else v
                if not bad:
                    stack.append((v, new_list, i))
        else:
            parent[key] = src
    return out_root[0]


#: keys whose values are wall-clock measurements, not results: two runs of the same input differ only
#: in them, so the CLI prints them only when asked (``--timings``) and no file written carries them
WALL_CLOCK_KEYS = frozenset({"seconds", "timing_s"})


def without_wall_clock(obj: Any) -> Any:
    """A copy of ``obj`` (JSON-like) without any :data:`WALL_CLOCK_KEYS` key, at any depth (iterative)."""
    out_root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(obj, out_root, 0)]
    while stack:
        src, parent, key = stack.pop()
        if isinstance(src, dict):
            new: dict[Any, Any] = {}
            parent[key] = new
            for k, v in src.items():
                if k not in WALL_CLOCK_KEYS:
                    new[k] = None
                    stack.append((v, new, k))
        elif isinstance(src, (list, tuple)):
            new_list: list[Any] = [None] * len(src)
            parent[key] = new_list
            stack.extend((v, new_list, i) for i, v in enumerate(src))
        else:
            parent[key] = src
    return out_root[0]


def dumps(obj: Any, **kwargs: Any) -> str:
    """JSON text any strict parser reads: :func:`strict`, then ``allow_nan=False``."""
    return json.dumps(strict(obj), allow_nan=False, **kwargs)
