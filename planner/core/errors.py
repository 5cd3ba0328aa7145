"""Error types. Every error the user can cause names the field and the reason."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel, ValidationError
    from pydantic_core import ErrorDetails

#: Characters that would break a one-line message: C0/C1 controls (newline,
#: carriage return, escape...) and the Unicode line and paragraph separators.
_BREAKS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
MAX_MESSAGE_CHARS = 2000
#: the one pattern of every catalog part's and design's id (planner.models.catalog, planner.models.design)
ID_PATTERN = r"^[a-z0-9][a-z0-9.\-]*$"
MAX_SHOWN_CHARS = 80
_PLAIN_KEY = re.compile(r"^[A-Za-z0-9_\-]+$")
#: the tags pydantic puts in an error's location for a union's member: a type or a validator (a model class is
#: told by its name, :func:`_union_tag`; a capitalised key of the input's own, a tier named "Standard", is not one)
_UNION_TAG = re.compile(r"^(str|int|float|bool|none|(list|dict|tuple|set)\[.*\]|[a-z-]+\[.*\])$")


def _model_names() -> set[str]:
    """The names of every pydantic model defined (a union member's tag when it is a model class)."""
    from pydantic import BaseModel

    seen: set[str] = set()
    todo: list[type] = [BaseModel]
    while todo:
        subs: list[type] = todo.pop().__subclasses__()
        for sub in subs:
            if sub.__name__ not in seen:
                seen.add(sub.__name__)
                todo.append(sub)
    return seen


def _union_tag(p: object, before: object = None) -> bool:
    """Whether a location part is pydantic's tag for a union's member, not a key of the input: a type, a model's
    name, or the tag of a discriminated union's member after the field that holds it (``storage``'s "san":
    "single_server.storage.san.hbas" named a path no file has; performance walk 2026-12-01)."""
    if not isinstance(p, str):
        return False
    return bool(_UNION_TAG.match(p)) or p in _model_names() or p in _discriminated_tags().get(str(before), set())


def _discriminated_tags() -> dict[str, set[str]]:
    """Field name -> the tags of its discriminated union's members (``Field(discriminator=...)``), over every
    pydantic model defined: the values of each member's ``Literal`` discriminator field."""
    import typing

    from pydantic import BaseModel

    out: dict[str, set[str]] = {}
    todo: list[type] = [BaseModel]
    seen: set[type] = set()
    while todo:
        subs: list[type] = todo.pop().__subclasses__()
        for model in subs:
            if model in seen:
                continue
            seen.add(model)
            todo.append(model)
            for name, field in getattr(model, "model_fields", {}).items():
                key = field.discriminator
                if not isinstance(key, str):
                    continue
                for member in typing.get_args(field.annotation) or (field.annotation,):
                    tag = getattr(member, "model_fields", {}).get(key)
                    if tag is not None:
                        out.setdefault(name, set()).update(str(v) for v in typing.get_args(tag.annotation))
    return out


def one_line(text: str) -> str:
    """``text`` with every control character written as its escape (``\\n``).

    Messages echo user strings (ids, names, file names); written raw, a newline
    in an id could forge a second ``error:`` line or a log entry.
    """
    return _BREAKS.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), str(text))


def shown(value: object, limit: int = MAX_SHOWN_CHARS) -> str:
    """A user-supplied value as an error may echo it: quoted, every character that does not print
    written as its escape (a newline as ``\n``), at most ``limit`` characters. A backslash stays one:
    repr doubled it, and a perfmon counter read "'\\\\SQL01\\LogicalDisk(D:)'" (browser review
    2026-11-29)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 1000 <= abs(value) < 1e16:
        # a large number with its thousands separated, as the bound beside it: "must be less than or equal to 10,000
        # (got 1000000000000.0)" (DBA walk 2026-12-03); any other as its shortest form (5e-324, 2.0, 1e+20)
        s = f"{int(value):,}" if float(value).is_integer() else f"{value:,}"
    elif not isinstance(value, str):
        s = repr(value)
    else:
        body = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in value)
        q = '"' if "'" in value and '"' not in value else "'"
        s = q + body + q
    return s if len(s) <= limit else s[: limit - 1] + "…"


class PlannerError(ValueError):
    """A user-facing error: ``field`` says which input is wrong.

    ``message`` and ``field`` are kept on one line (control characters escaped)
    and bounded in length, whatever user text they quote.
    """

    def __init__(self, message: str, field: str | None = None) -> None:
        message = one_line(message)
        if len(message) > MAX_MESSAGE_CHARS:
            message = message[: MAX_MESSAGE_CHARS - 1] + "…"
        self.field = one_line(field)[:MAX_SHOWN_CHARS] if field else field
        self.message = message
        super().__init__(f"{self.field}: {message}" if self.field else message)


class CatalogError(PlannerError):
    """A catalog file or record is broken, or an id is unknown."""


class DesignError(PlannerError):
    """A design is impossible (too many drives, too few fault domains, ...)."""


#: pydantic's wording of some errors, in a user's words: "List should have at least 1 item after
#: validation, not 0" read as code in the SLA page's tier upload (review 2026-11-29)
_PLAIN: dict[str, Callable[[dict[str, Any]], str]] = {
    "missing": lambda c: "required",
    "extra_forbidden": lambda c: "not a field this input takes (a typo?)",
    "string_too_short": lambda c: (
        "must not be empty" if c["min_length"] == 1 else f"needs at least {c['min_length']} characters"
    ),
    "too_short": lambda c: (
        f"needs at least {c['min_length']} {'entry' if c['min_length'] == 1 else 'entries'}, has {c['actual_length']}"
    ),
    "too_long": lambda c: (
        f"takes at most {c['max_length']} {'entry' if c['max_length'] == 1 else 'entries'}, has {c['actual_length']}"
    ),
    # "Input should be a valid dictionary or instance of TierSet" named a class (CLI review 2026-11-30)
    "model_type": lambda c: "must be an object of named fields ({...})",
    "model_attributes_type": lambda c: "must be an object of named fields ({...})",
    "dict_type": lambda c: "must be an object of named fields ({...})",
    "list_type": lambda c: "must be a list ([...])",
    # the other type errors keep their messages: a file's quoted number is said by its own words
    # (planner.core.jsonio.numbers_written_as_numbers), the rest by the "must be" below
    "int_from_float": lambda c: "must be a whole number",
    # "Unable to parse input string as an integer, exceeded maximum size" of 1e308 (CLI fuzzing 2026-11-30)
    "int_parsing_size": lambda c: "must be a whole number of a sensible size",
    "string_too_long": lambda c: f"takes at most {c['max_length']} characters",
    # a regular expression read as code ("String should match pattern '^[a-z0-9][a-z0-9.\\-]*$'"; hostile-input walk
    # 2026-11-30): the ids' one pattern in words, another pattern as the form it asks for
    "string_pattern_mismatch": lambda c: (
        "must be lower-case letters, digits, '.' and '-', starting with a letter or a digit (e.g. 'my-drive-2tb')"
        if c["pattern"] == ID_PATTERN
        else "does not have the form this field takes"
    ),
}


def plain_message(e: ErrorDetails | dict[str, Any]) -> str:
    """One pydantic error's reason in a user's words: a validator's own sentence without pydantic's
    "Value error, " prefix; a missing field "required"; a list's length as entries; others as pydantic
    says them, as the field's rule ("must be greater than 0", where pydantic says "Input should be ...")."""
    kind = e.get("type")
    ctx = e.get("ctx") or {}
    if kind in _PLAIN:
        try:
            return _PLAIN[kind](ctx)
        except KeyError:  # a context without the figures the words need: pydantic's own words
            pass
    msg = str(e["msg"])
    if kind == "value_error":
        return msg.removeprefix("Value error, ")
    # a bound of five digits or more with separators, as every figure is said: "must be less than or equal to
    # 100000000" of a tiers file's 1e20 (pricing-call walk, stop 63)
    msg = re.sub(r"(?<![\w.,-])(\d{5,})(?![\w.])", lambda m: f"{int(m.group(1)):,}", msg)
    # pydantic's other words as a sentence about the field: "Input should be greater than 0" -> "must be ..."
    return "must be " + msg.removeprefix("Input should be ") if msg.startswith("Input should be ") else msg


def format_validation_error(exc: ValidationError | list[ErrorDetails], prefix: str = "", root: str = "") -> str:
    """One line per problem from a pydantic ValidationError (or some of its errors): 'field: reason'.
    A problem of the whole object (a model validator's) is named ``root`` (the file: "design"), or has
    no name: it read "(root): ..." (CLI review 2026-11-29)."""
    said: dict[str, list[str]] = {}  # where -> the reasons, in order
    got: dict[str, str] = {}
    for e in exc if isinstance(exc, list) else exc.errors():
        # a key the user made up is quoted: 'a: b' or a newline cannot pass for the field's end; a union's member tags
        # are pydantic's, not the input's (CLI fuzzing 2026-11-30: "model.'function-after[_media_fields_agree(), …")
        parts = e["loc"]
        loc = ".".join(
            p if isinstance(p, str) and _PLAIN_KEY.match(p) else str(p) if isinstance(p, int) else shown(p, 40)
            for i, p in enumerate(parts)
            if not _union_tag(p, parts[i - 1] if i else None)
        )
        if prefix:
            loc = f"{prefix}.{loc}" if loc else prefix
        where = one_line(loc) or root
        said.setdefault(where, [])
        if (msg := one_line(plain_message(e))) not in said[where]:
            said[where].append(msg)
        # pydantic's 'greater than 0' already says the range; add the given value
        if "input" in e and not isinstance(e["input"], (dict, list)):
            got[where] = f" (got {shown(e['input'])})"
    # a union's members' reasons as one: "must be a valid string; ...: must be an object" read as two problems
    return "; ".join(
        (f"{where}: " if where else "") + _either(msgs) + got.get(where, "") for where, msgs in said.items()
    )


def _either(msgs: list[str]) -> str:
    """Reasons of one field joined: "must be a valid string or an object of named fields"."""
    head, *rest = msgs
    must = "must be "
    return " or ".join([head, *(m.removeprefix(must) if head.startswith(must) else m for m in rest)])


def field_bounds(model: type[BaseModel], field: str) -> tuple[float | None, float | None, bool]:
    """(low, high, low_exclusive) of a pydantic field's numeric constraints, for
    messages that quote the allowed range (CLI flags, the app's number inputs)."""
    from annotated_types import Ge, Gt, Le, Lt

    # annotated_types types a bound as "comparable"; on the numeric fields this reads it is the
    # Field's int or float, returned as it is (an int bound stays an int in messages)
    lo: Any = None
    hi: Any = None
    lo_open = False
    for m in model.model_fields[field].metadata:
        if isinstance(m, Ge):
            lo = m.ge
        elif isinstance(m, Gt):
            lo, lo_open = m.gt, True
        elif isinstance(m, Le):
            hi = m.le
        elif isinstance(m, Lt):
            hi = m.lt
    return lo, hi, lo_open
