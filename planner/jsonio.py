"""Safe JSON input: size-limited, parsed with :mod:`json` only, validated by a
pydantic model; every failure is a :class:`planner.errors.PlannerError` naming
the field."""
from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ValidationError

from planner.errors import PlannerError, format_validation_error

MAX_INPUT_BYTES = 1_000_000


def parse_json_model(data: dict | str | bytes, model: type[BaseModel], error: type[PlannerError],
                     field: str, prefix: str = "", max_bytes: int = MAX_INPUT_BYTES):
    """Validate ``data`` (a dict or JSON text) as ``model``."""
    if isinstance(data, (str, bytes)):
        if len(data) > max_bytes:
            raise error(f"larger than {max_bytes} bytes", field)
        try:
            data = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise error(f"not valid JSON ({exc})", field) from None
    if not isinstance(data, dict):
        raise error("must be a JSON object", field)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise error(format_validation_error(exc, prefix)) from None


def load_json_model(path: str | Path, model: type[BaseModel], error: type[PlannerError], field: str,
                    prefix: str = "", max_bytes: int = MAX_INPUT_BYTES):
    """Read and validate a JSON file as ``model`` (size checked before reading)."""
    p = Path(path)
    if not p.is_file():
        raise error(f"file not found: {p}", field)
    if p.stat().st_size > max_bytes:
        raise error(f"{p.name} larger than {max_bytes} bytes", field)
    return parse_json_model(p.read_bytes(), model, error, field, prefix, max_bytes)
