"""Error types. Every error the user can cause names the field and the reason."""
from __future__ import annotations


class PlannerError(ValueError):
    """A user-facing error: ``field`` says which input is wrong."""

    def __init__(self, message: str, field: str | None = None):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}" if field else message)


class CatalogError(PlannerError):
    """A catalog file or record is broken, or an id is unknown."""


class DesignError(PlannerError):
    """A design is impossible (too many drives, too few fault domains, ...)."""


def format_validation_error(exc, prefix: str = "") -> str:
    """One line per problem from a pydantic ValidationError: 'field: reason'."""
    parts = []
    for e in exc.errors():
        loc = ".".join(str(p) for p in e["loc"] if p not in ("function-after",))
        if prefix:
            loc = f"{prefix}.{loc}" if loc else prefix
        msg = e["msg"]
        # pydantic's 'greater than 0' already says the range; add the given value
        if "input" in e and not isinstance(e["input"], (dict, list)):
            msg = f"{msg} (got {e['input']!r})"
        parts.append(f"{loc or '(root)'}: {msg}")
    return "; ".join(parts)
