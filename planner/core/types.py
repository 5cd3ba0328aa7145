"""Type aliases the layers share, for the reader and the type checker."""

from __future__ import annotations

from typing import Any, TypeAlias

#: A float or a numpy array of floats. The vectorised physics and engine functions take either and
#: broadcast (one formula serves one design and a grid of 100,000 rows); numpy's stubs cannot say
#: "float in, float out; array in, array out" without an overload per formula, so the alias is
#: ``Any``: it names the intent where a signature would otherwise say ``float`` and lie.
FloatArray: TypeAlias = Any
#: A JSON object as :mod:`json` reads it, or a report as the planner writes it (values of any JSON type).
JsonDict: TypeAlias = dict[str, Any]
