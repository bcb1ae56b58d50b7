"""The one cache class: bounded LRU, single flight, nothing left behind by failures."""

import threading

import pytest

from playground.cache import BoundedCache


def test_evicts_least_recently_used():
    cache, calls = BoundedCache(2), []
    compute = lambda key: lambda: calls.append(key) or key.upper()  # noqa: E731
    assert cache.get("a", compute("a")) == "A" and cache.get("b", compute("b")) == "B"
    cache.get("a", compute("a"))  # a is now the most recent
    cache.get("c", compute("c"))  # evicts b
    assert cache.keys() == ["a", "c"]
    cache.get("b", compute("b"))
    assert calls == ["a", "b", "c", "b"]


def test_concurrent_identical_requests_compute_once():
    """Eight threads released together by a barrier ask for one key: one computation, one shared value."""
    cache, calls, results = BoundedCache(4), [], []
    n = 8
    barrier = threading.Barrier(n)
    computing = threading.Event()
    release = threading.Event()

    def compute():
        calls.append(1)
        computing.set()
        release.wait(10)  # hold the flight open until every other thread is queued behind it
        return object()

    def worker():
        barrier.wait()
        results.append(cache.get("preset", compute))

    threads = [threading.Thread(target=worker) for _ in range(n)]
    for th in threads:
        th.start()
    computing.wait(10)
    # Every worker has passed the barrier; the ones behind the first are waiting on its flight.
    release.set()
    for th in threads:
        th.join(10)
    assert len(calls) == 1 and len(results) == n and len({id(r) for r in results}) == 1
    assert cache.in_flight() == 0


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
