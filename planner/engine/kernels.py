"""Compiled kernels for large sweeps (numba), with the numpy functions as their reference.

:func:`block` is :func:`planner.engine.performance._block` after the demands (the
MVA fixed point, throttles, residences, utilisations, labels and outputs)
written as a loop over rows; :func:`symmetric_throughput` is
:func:`planner.engine.queueing.symmetric_throughput` alone (the approximate-MVA fixed
point ``x = n / R(x)`` of Schweitzer, 1979, and Bard, 1979, solved by Newton's
method inside a bisection bracket), used where the parameters vary per row.
Each row stays in registers and stops at its own convergence, where the numpy
version makes some 60 array passes per Newton step and may give a converged
row one more step while others in its array still move. Same formulas, same
operation order, same stopping rules: the solvers agree to the early stop's
tolerance (2e-11 relative) and the whole model to its reference to 1e-9
(``tests/test_kernels.py``).

numba is imported on first use only, so the CLI and the app's pages (which
evaluate a handful of designs) never pay its import or compilation
(:func:`use_for`); a fit's thousands of small calls ask for it by name
(:func:`for_repeated_calls`); compiled code is cached next to this file (``cache=True``)
so a machine compiles once. Set ``HCIPLAN_NO_JIT=1`` to force the numpy path;
if numba cannot be imported or compile, the numpy path is used
(:func:`available` says which).
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from planner.core.types import FloatArray

if TYPE_CHECKING:
    from planner.models.params import ModelParams

#: fewest rows in one call worth the compiled path: below it the numpy model
#: takes under ~40 ms, less than loading numba (~0.5 s a process)
MIN_ROWS = 100_000


@functools.cache
def _compiled() -> Callable[..., None] | None:
    """The compiled row solver, or None where numba is missing or disabled."""
    if os.environ.get("HCIPLAN_NO_JIT", "").strip() not in ("", "0"):
        return None
    try:
        from planner.engine._kernels_jit import solve_rows
    except Exception:
        return None
    return solve_rows


def available() -> bool:
    """Whether the compiled solver is in use for large calls."""
    return _compiled() is not None


def _vec(a: FloatArray, shape: tuple[int, ...]) -> np.ndarray:
    """``a`` broadcast to ``shape`` as one writable contiguous float64 vector:
    the one signature the kernels are compiled for (broadcast views are copied)."""
    return np.require(np.broadcast_to(np.asarray(a, dtype=float), shape).reshape(-1), requirements=["C", "W"])


def symmetric_throughput(
    dpath: FloatArray,
    s0: FloatArray,
    share: FloatArray,
    bg4: FloatArray,
    n: FloatArray,
    zbar: FloatArray,
    wbar: FloatArray,
    u0: FloatArray,
    slope: FloatArray,
    x_max: FloatArray,
    max_iter: int = 60,
    wfj: FloatArray = 0.0,
    branches: FloatArray = 1.0,
    disp: FloatArray | None = None,
    forked: FloatArray = 0.0,
) -> FloatArray:
    """:func:`planner.engine.queueing.symmetric_throughput`, compiled: same arguments
    and result (per-VM throughput, IO/s, over the inputs' broadcast shape).

    Raises
    ------
    RuntimeError
        If the compiled solver is not :func:`available` (callers choose the
        path with :func:`use_for`).
    """
    solve = _compiled()
    if solve is None:
        raise RuntimeError("the compiled solver is not available (numba missing or HCIPLAN_NO_JIT set)")
    args = (
        *dpath,
        s0,
        share,
        bg4,
        n,
        zbar,
        wbar,
        u0,
        slope,
        x_max,
        wfj,
        branches,
        forked,
        *(disp if disp is not None else (0.0,) * 5),
    )
    shape = np.broadcast_shapes(*(np.shape(a) for a in args))
    cols = [_vec(a, shape) for a in args]
    out = np.empty(cols[0].size)
    solve(*cols, out, int(max_iter))
    return out.reshape(shape)


#: set (by :func:`for_repeated_calls`) while a caller evaluates the model thousands of times on a few rows
_REPEATED: contextvars.ContextVar[bool] = contextvars.ContextVar("hciplan_repeated_calls", default=False)


def use_for(rows: int) -> bool:
    """Whether a call over ``rows`` rows should use the compiled solver: large
    ones, so a page's few calls never import numba, and any call inside
    :func:`for_repeated_calls`."""
    return (rows >= MIN_ROWS or _REPEATED.get()) and available()


@contextlib.contextmanager
def for_repeated_calls() -> Iterator[None]:
    """Every call in the block takes the compiled path, whatever its size: an
    optimiser's thousands of small calls (a refit's Powell search: ~2,900 calls
    of a few dozen rows) spend most of a numpy call's time in its array passes'
    overhead, which a loaded kernel does not pay. numba's import (~0.5 s, or its
    first compilation) is paid once at the block's start (:func:`prepare`)."""
    try:
        ready = prepare()
    except Exception:  # a kernel that fails to compile here leaves the block on numpy: a refit never fails for it
        ready = False
    token = _REPEATED.set(ready)
    try:
        yield
    finally:
        _REPEATED.reset(token)


#: the float outputs :func:`block` writes, in the compiled kernel's order
FLOAT_OUT = (
    "iops",
    "iops_per_node",
    "iops_capacity",
    "bandwidth_mb_s",
    "read_latency_ms",
    "write_latency_ms",
    "vm_read_latency_ms",
    "vm_write_latency_ms",
    "vm_latency_ms",
    "p90_read_latency_ms",
    "p99_read_latency_ms",
    "p90_write_latency_ms",
    "p99_write_latency_ms",
    "host_cpu_utilization",
    "outstanding_ios",
    "cpu_lp_us_per_io",
)


@functools.cache
def _compiled_block() -> Callable[..., None] | None:
    if _compiled() is None:
        return None
    try:
        from planner.engine._kernels_jit import block_rows
    except Exception:
        return None
    return block_rows


def block_available() -> bool:
    """Whether the compiled block (:func:`block`) is in use for large calls."""
    return _compiled_block() is not None


def prepare() -> bool:
    """Import numba and compile (or load from the on-disk cache) every kernel
    now, on a one-row call, so a timed or interactive call does not pay it.
    Returns whether the compiled path is available."""
    run = _compiled_block()  # None unless the solver is available too
    if run is None:
        return False
    one = np.ones(1)
    run(
        tuple(one.copy() for _ in range(5)),
        tuple(one.copy() for _ in range(5)),
        *(one.copy() for _ in range(23)),
        0.1,
        1.0,
        0.9,
        1024.0,
        60,
        tuple(np.empty(1) for _ in FLOAT_OUT),
        np.empty((1, 5)),
        np.empty(1, dtype=np.int8),
        np.empty(1, dtype=np.int8),
        np.empty(1, dtype=bool),
    )
    return True


def block(
    t: dict[str, Any],
    R: Any,
    p: ModelParams,
    o: dict[str, np.ndarray],
    codes: dict[str, np.ndarray],
    quant: dict[float, FloatArray],
    sl: slice,
    kib: float,
    max_iter: int = 60,
) -> None:
    """:func:`planner.engine.performance._block` after the demands ``t``, compiled:
    one pass over the rows of ``sl`` writing every output of ``o`` and
    ``codes`` (labels as int8 codes). ``p`` holds scalar parameters only.

    Same model, formulas and order of operations as the numpy block; the two
    agree to 1e-9 (``tests/test_kernels.py``) like the numpy block and its
    reference. Raises RuntimeError where the compiled code is not available."""
    run = _compiled_block()
    if run is None:
        raise RuntimeError("the compiled block is not available (numba missing or HCIPLAN_NO_JIT set)")
    m = sl.stop - sl.start
    pr = tuple(_vec(a, (m,)) for a in t["path_read"])
    pw = tuple(_vec(a, (m,)) for a in t["path_write"])
    v = [
        _vec(a, (m,))
        for a in (
            t["background"],
            t["vms"],
            R.read_fraction,
            R.vms_total,
            R.open_iops,
            R.outstanding_per_vm,
            t["cpu_lp_s_read"],
            t["cpu_lp_s_write"],
            np.asarray(R.lps_per_node * R.nodes, dtype=float),
            t["host_critical_s_read"],
            t["host_critical_s_write"],
            t["delay_vm_read"],
            t["delay_vm_write"],
            t["delay_storage_read"],
            t["delay_storage_write"],
            R.iops_limit_per_vm,
            R.cpu_utilization_cap,
            R.nodes,
            R.block_size_kib,
            quant[0.90],
            quant[0.99],
            t["write_branches"],
            t["forked_cpu_s_write"],
        )
    ]
    fo = tuple(o[k][sl] for k in FLOAT_OUT)
    run(
        pr,
        pw,
        *v,
        float(p.host_cpu_idle_utilization),
        float(p.storage_cpu_wait),
        float(p.host_cpu_max_utilization),
        float(kib),
        int(max_iter),
        fo,
        o["utilization"][sl],
        codes["bottleneck"][sl],
        codes["limited_by"][sl],
        o["saturated"][sl],
    )
