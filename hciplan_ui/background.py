"""Run a planner call off the page's thread and show progress only if it takes
longer than a second (most sizings finish well before; a progress bar that
flashes for 100 ms is noise)."""

from __future__ import annotations

import concurrent.futures
import threading
import time
from collections import OrderedDict

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


def submit(fn, *args, **kwargs) -> concurrent.futures.Future:
    """``fn(*args, **kwargs)`` in a worker thread, without progress (a PDF printing)."""
    return _POOL.submit(fn, *args, **kwargs)


class Remembered:
    """The last ``size`` results of a pure function, by key, for the whole server process.

    A page script is executed anew on every rerun, so a dictionary defined in it is a new,
    empty one each time (the Size page's sizing cache was: every rerun sized again); this one
    lives in an imported module, so it lasts."""

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key):
        """The remembered value, or None."""
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        return None

    def put(self, key, value) -> None:
        with self._lock:
            self._items[key] = value
            while len(self._items) > self.size:
                self._items.popitem(last=False)


#: sizing results (planner.sizing.search.size is a pure function of the demand, top and calibration)
SIZED = Remembered(16)
