"""Registry allow-list, operator file, availability, LRU cache and single load under concurrency."""

import json

import pytest

from playground import availability, models
from playground.registry import BUILTIN, build_registry, get_spec


def test_every_builtin_has_a_known_kind_and_loader():
    for spec in BUILTIN:
        assert spec.kind == "static" or spec.kind in models.AUTO_CLASS or (spec.kind, spec.source) in models.LOADERS
        assert spec.languages and spec.source in ("hub", "bundled", "url")
        assert spec.source != "url" or spec.urls


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
    # A value auto-detection can never produce here: the test fails if the variable is ignored.
    monkeypatch.setenv("PLAYGROUND_DEVICE", "meta")
    assert models.pick_device() == "meta"
    monkeypatch.setenv("PLAYGROUND_DEVICE", "")
    assert models.pick_device() in ("cpu", "cuda", "mps")


def test_one_load_path_tells_the_caller_before_a_first_load(monkeypatch):
    loads, told = [], []
    monkeypatch.setattr(models, "_caches", {})
    monkeypatch.setattr(models, "load_uncached", lambda key: loads.append(key) or key.upper())
    assert models.load("bert", on_load=told.append) == "BERT"
    assert models.load("bert", on_load=told.append) == "BERT"  # cached: nobody is told twice
    assert loads == ["bert"] and [s.key for s in told] == ["bert"]


def test_tokenizer_only_load_never_loads_weights(monkeypatch):
    monkeypatch.setattr(models, "_caches", {})
    monkeypatch.setattr(models, "load_uncached", lambda key: pytest.fail("weights loaded for a tokenizer"))
    monkeypatch.setattr(models, "load_tokenizer_uncached", lambda key: f"tokenizer of {key}")
    assert models.load_tokenizer("xlnet") == "tokenizer of xlnet"
    assert not models.is_loaded("xlnet")
