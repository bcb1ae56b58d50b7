"""The one cache class: bounded LRU, single flight, nothing left behind by failures."""

import threading

import pytest

from playground.cache import BoundedCache
from tests.waiting import wait_until


def test_evicts_least_recently_used():
    cache, calls = BoundedCache(2), []
    compute = lambda key: lambda: calls.append(key) or key.upper()  # noqa: E731
    assert cache.get("a", compute("a")) == "A" and cache.get("b", compute("b")) == "B"
    cache.get("a", compute("a"))  # a is now the most recent
    cache.get("c", compute("c"))  # evicts b
    assert cache.keys() == ["a", "c"]
    cache.get("b", compute("b"))
    assert calls == ["a", "b", "c", "b"]


def waiting(cache: BoundedCache, key) -> int:
    """How many callers are inside `cache.get(key)` right now: the one computing and those waiting on its flight."""
    with cache._lock:
        flight = cache._flights.get(key)
        return flight[1][0] if flight else 0


def test_concurrent_identical_requests_compute_once():
    """Eight callers of one key: the first computes, and it finishes only once the seven others are inside `get`,
    waiting on its flight; all eight get its one value. Callers served one after another (a lock around the whole
    of `get`) never overlap, and fail here; callers that each compute fail the count."""
    cache, calls, results, n = BoundedCache(4), [], [], 8
    overlapped = []

    def compute():
        calls.append(1)
        overlapped.append(wait_until(lambda: waiting(cache, "preset") == n))  # hold the flight open until all are in
        return object()

    threads = [threading.Thread(target=lambda: results.append(cache.get("preset", compute))) for _ in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    assert overlapped == [True], "the other callers never waited on the flight together"
    assert len(calls) == 1 and len(results) == n and len({id(r) for r in results}) == 1
    assert cache.in_flight() == 0


def test_different_keys_compute_at_the_same_time():
    """A flight holds back its own key only: while one key computes, another computes beside it (a cache-wide lock
    would make a slow model load stall every other request)."""
    cache, inside = BoundedCache(4), threading.Barrier(2, timeout=10)

    def compute(key):
        inside.wait()  # both computations must be running at once to pass this barrier
        return key

    threads = [threading.Thread(target=cache.get, args=(k, lambda k=k: compute(k))) for k in ("a", "b")]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    assert not inside.broken and sorted(cache.keys()) == ["a", "b"]


def test_a_failure_caches_nothing_and_leaves_no_lock():
    cache, attempts = BoundedCache(1), []

    def flaky():
        attempts.append(1)
        if len(attempts) == 1:
            raise RuntimeError("network")
        return "ok"

    with pytest.raises(RuntimeError):
        cache.get("x", flaky)
    assert "x" not in cache and cache.in_flight() == 0
    assert cache.get("x", flaky) == "ok"


def test_many_failing_keys_leave_the_cache_empty():
    """Bad requests (each a new key that raises) must not grow memory: no value, no per-key lock stays."""
    cache = BoundedCache(4)
    for i in range(200):
        with pytest.raises(ValueError):
            cache.get(("too long", i), lambda: (_ for _ in ()).throw(ValueError("too long")))
    assert len(cache) == 0 and cache.in_flight() == 0
