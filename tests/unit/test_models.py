"""Registry allow-list, operator file, availability, LRU cache and single load under concurrency."""

import json
import threading
import time

import pytest

from playground import availability, models
from playground.registry import BUILTIN, build_registry, get_spec


def test_every_builtin_has_a_known_kind_and_loader():
    for spec in BUILTIN:
        assert spec.kind == "static" or spec.kind in models.AUTO_CLASS
        assert spec.languages and spec.source in ("hub", "bundled")


def test_unknown_model_is_refused_with_a_clear_message():
    with pytest.raises(ValueError, match="Unknown model"):
        get_spec("../../etc/passwd")
    with pytest.raises(ValueError, match="Unknown model"):
        models.load("some-user/any-hub-model")


def test_operator_file_adds_hub_models_only(tmp_path):
    extra = tmp_path / "extra.json"
    extra.write_text(
        json.dumps({"models": [{"key": "my-bert", "hf_id": "me/bert", "kind": "masked", "family": "BERT", "label": "Mine"}]})
    )
    assert build_registry(str(extra))["my-bert"].hf_id == "me/bert"
    toml = tmp_path / "extra.toml"
    toml.write_text('[[models]]\nkey = "x"\nhf_id = "a/b"\nkind = "causal"\nfamily = "GPT"\nlabel = "X"\nsource = "bundled"\n')
    with pytest.raises(ValueError, match="hub models only"):
        build_registry(str(toml))
    extra.write_text(
        json.dumps({"models": [{"key": "bert", "hf_id": "x/y", "kind": "masked", "family": "BERT", "label": "dup"}]})
    )
    with pytest.raises(ValueError, match="duplicate"):
        build_registry(str(extra))


def test_offline_hub_models_are_unavailable_with_a_reason(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(availability, "in_hub_cache", lambda hf_id: False)
    state = availability.check(get_spec("bert"))
    assert not state.ok and "HF_HUB_OFFLINE" in state.reason


def test_hub_probe_runs_once(monkeypatch):
    calls = []
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    availability._probe_hub.cache_clear()
    monkeypatch.setattr(
        availability.urllib.request, "urlopen", lambda *a, **k: calls.append(1) or (_ for _ in ()).throw(OSError("down"))
    )
    assert availability.hub_reachable() is False and availability.hub_reachable() is False
    assert len(calls) == 1
    availability._probe_hub.cache_clear()


def test_device_follows_the_environment(monkeypatch):
    monkeypatch.setenv("PLAYGROUND_DEVICE", "cpu")
    assert models.pick_device() == "cpu"


def test_lru_cache_evicts_least_recently_used():
    loads = []
    cache = models.LRUCache(lambda key: loads.append(key) or key.upper(), capacity=2)
    assert cache.get("a") == "A" and cache.get("b") == "B"
    cache.get("a")  # a is now the most recent
    cache.get("c")  # evicts b
    assert cache.keys() == ["a", "c"]
    cache.get("b")
    assert loads == ["a", "b", "c", "b"]


def test_concurrent_first_requests_load_once():
    loads = []

    def slow_loader(key):
        loads.append(key)
        time.sleep(0.2)
        return object()

    cache = models.LRUCache(slow_loader, capacity=3)
    got = []
    threads = [threading.Thread(target=lambda: got.append(cache.get("bert"))) for _ in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert loads == ["bert"] and len({id(g) for g in got}) == 1


def test_failed_load_is_not_cached():
    attempts = []

    def flaky(key):
        attempts.append(key)
        if len(attempts) == 1:
            raise RuntimeError("network")
        return key

    cache = models.LRUCache(flaky, capacity=1)
    with pytest.raises(RuntimeError):
        cache.get("x")
    assert cache.get("x") == "x"
