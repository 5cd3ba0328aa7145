"""Run a planner call off the page's thread and show progress only if it takes
longer than a second (most sizings finish well before; a progress bar that
flashes for 100 ms is noise)."""

from __future__ import annotations

import concurrent.futures
import time

_POOL = concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="hciplan")
DELAY_S = 1.0


def run_with_progress(fn, *args, show=None, delay_s: float = DELAY_S, poll_s: float = 0.1, **kwargs):
    """``fn(*args, progress=callback, **kwargs)`` in a worker thread.

    ``show()`` is called only when the call outlasts ``delay_s``; it returns a
    callable taking a fraction 0..1 (and ``None`` once done). Returns
    ``(result, shown)``; an exception in ``fn`` is raised here.
    """
    state = {"fraction": 0.0}
    fut = _POOL.submit(fn, *args, progress=lambda f: state.__setitem__("fraction", float(f)), **kwargs)
    try:
        return fut.result(timeout=delay_s), False
    except concurrent.futures.TimeoutError:
        pass
    update = show() if show is not None else None
    while not fut.done():
        if update is not None:
            update(state["fraction"])
        time.sleep(poll_s)  # polling a worker, not waiting on the UI
    if update is not None:
        update(None)
    return fut.result(), True
