"""Paths the user names (``--catalog``, ``--out``, ``--calibration``): resolved
once, here, so a symbolic link loop, a NUL character or a name the file system
refuses is one error naming the argument, never a RuntimeError or an OSError
from deep inside :mod:`pathlib`.
"""

from __future__ import annotations

from pathlib import Path

from planner.core.errors import PlannerError, shown


def resolved(path: str | Path, field: str, error: type[PlannerError] = PlannerError) -> Path:
    """``path`` made absolute with every symbolic link followed.

    Raises
    ------
    PlannerError
        (or ``error``) naming ``field``: a symbolic link loop (``ln -s loop loop``;
        :meth:`pathlib.Path.resolve` raises RuntimeError on Python 3.11-3.12 and
        OSError from 3.13), a NUL character, or a path the system cannot resolve.
    """
    try:
        return Path(path).resolve()
    except RuntimeError:
        raise error(f"{shown(str(path))} is a symbolic link loop", field) from None
    except ValueError:  # a NUL character: no file system takes it
        raise error(f"{shown(str(path))} contains a NUL character", field) from None
    except OSError as exc:
        reason = (exc.strerror or type(exc).__name__).lower()
        raise error(f"cannot resolve {shown(str(path))}: {reason}", field) from None
