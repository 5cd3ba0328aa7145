"""Results kept by their inputs: a bounded, thread-safe store of the last results a costly pure function gave,
each caller handed its own copy. One rule for every such store of the library (the database's IO demand, the
buffer model's pages), which each wrote out with its own dictionary, lock and bound."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Kept(Generic[V]):
    """The last ``max_entries`` results by key, the least recently asked dropped first.

    Parameters
    ----------
    max_entries : int
        How many results are kept at most [-].
    copy : callable
        A result as a caller gets it: its own copy, so a caller that changes it reaches no other.
    """

    def __init__(self, max_entries: int, copy: Callable[[V], V]) -> None:
        self.max_entries = max_entries
        self._copy = copy
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, compute: Callable[[], V]) -> V:
        """A copy of the result kept for ``key``, computed by ``compute()`` (outside the lock) when none is."""
        with self._lock:
            kept = self._items.get(key)
            if kept is not None:
                self._items.move_to_end(key)
        if kept is None:
            kept = compute()
            with self._lock:
                self._items[key] = kept
                while len(self._items) > self.max_entries:
                    self._items.popitem(last=False)
        return self._copy(kept)

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._items

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)
