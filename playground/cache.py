"""The one cache class: bounded, least-recently-used, single-flight.

Models, demo results and attention tensors all go through it. "Single-flight"
means that when 30 students press "run" on the same preset at once, the first
request computes and the other 29 wait for that value instead of computing it
again (a bare `functools.lru_cache` computes it 30 times). A computation that
raises caches nothing and leaves nothing behind, so a flood of bad requests
cannot grow it.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from typing import Any, Callable, Hashable


_ALL: "weakref.WeakSet[BoundedCache]" = weakref.WeakSet()


def hit_rate() -> tuple[int, int]:
    """(hits, lookups) over every cache since start: the load panel's "cache hit rate" (a hit never computed)."""
    caches = list(_ALL)
    return sum(c.hits for c in caches), sum(c.hits + c.misses for c in caches)


class BoundedCache:
    """At most `capacity` values by key; concurrent first requests for one key compute it once."""

    def __init__(self, capacity: int, name: str = ""):
        _ALL.add(self)
        self.capacity = max(1, int(capacity))
        self.name = name  # for logs and tests only
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()
        self._flights: dict[Hashable, tuple[threading.Lock, list[int]]] = {}  # key -> (lock, [waiters])
        self.hits = self.misses = 0  # get() calls served from the cache / that computed (for the load panel)

    def get(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """The cached value for `key`, or `compute()` stored under it (once, however many callers ask)."""
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                self.hits += 1
                return self._items[key]
            flight_lock, waiters = self._flights.setdefault(key, (threading.Lock(), [0]))
            waiters[0] += 1
        try:
            with flight_lock:  # the first caller computes; the others wait here, then find the value
                with self._lock:
                    if key in self._items:  # computed by the flight we waited for: a hit too
                        self._items.move_to_end(key)
                        self.hits += 1
                        return self._items[key]
                    self.misses += 1
                value = compute()
                with self._lock:
                    self._items[key] = value
                    while len(self._items) > self.capacity:
                        self._items.popitem(last=False)
                return value
        finally:
            with self._lock:  # the last one out removes the flight, whether the computation worked or raised
                waiters[0] -= 1
                if waiters[0] == 0 and self._flights.get(key, (None,))[0] is flight_lock:
                    del self._flights[key]

    def peek(self, key: Hashable) -> Any | None:
        """The value if cached (marking it recently used), else None; never computes."""
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
            return None

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def reserve(self, size: int) -> None:
        """Hold at least `size` values from now on (never shrinks: what it holds stays)."""
        with self._lock:
            self.capacity = max(self.capacity, int(size))

    def discard(self, key: Hashable) -> None:
        with self._lock:
            self._items.pop(key, None)

    def keys(self) -> list[Hashable]:
        with self._lock:
            return list(self._items)

    def in_flight(self) -> int:
        """How many keys are being computed right now (0 when idle: nothing leaks)."""
        with self._lock:
            return len(self._flights)

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._items

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)
