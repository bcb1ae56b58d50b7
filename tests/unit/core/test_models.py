"""Registry allow-list, operator file, availability, LRU cache and single load under concurrency."""

import json
import urllib.error

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
    monkeypatch.setattr(availability, "in_hub_cache", lambda hf_id, revision="": False)
    state = availability.check(get_spec("bert"))
    assert not state.ok and "HF_HUB_OFFLINE" in state.reason


def test_a_server_is_probed_once_and_any_http_status_is_an_answer(monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    calls = []

    def open_url(request, timeout):
        calls.append(request.full_url)
        if "down" in request.full_url:
            raise OSError("down")
        raise urllib.error.HTTPError(request.full_url, 404, "not found", {}, None)

    probes = availability.Probes(open_url)
    assert [probes.reachable("http://down/"), probes.reachable("http://down/")] == [False, False]
    assert [probes.reachable("http://up/"), probes.reachable("http://up/")] == [True, True]
    assert calls == ["http://down/", "http://up/"]  # one probe each, remembered
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert probes.reachable("http://up/") is False  # the offline switch wins over a remembered answer


def test_device_follows_the_settings(monkeypatch, use_settings):
    # A value auto-detection can never produce here: the test fails if the variable is ignored.
    use_settings(device="meta")
    assert models.pick_device() == "meta"
    use_settings(device="")
    assert models.pick_device() in ("cpu", "cuda", "mps")


def test_one_load_path_tells_the_caller_before_a_first_load():
    loads, told = [], []
    store = models.ModelStore(build=lambda key: loads.append(key) or key.upper())
    assert store.load("bert", on_load=told.append) == "BERT"
    assert store.load("bert", on_load=told.append) == "BERT"  # cached: nobody is told twice
    assert loads == ["bert"] and [s.key for s in told] == ["bert"]


def test_tokenizer_only_load_never_loads_weights():
    store = models.ModelStore(
        build=lambda key: pytest.fail("weights loaded for a tokenizer"), build_tokenizer=lambda key: f"tokenizer of {key}"
    )
    assert store.load_tokenizer("xlnet") == "tokenizer of xlnet"
    assert not store.is_loaded("xlnet")


def test_simultaneous_first_loads_of_different_models_are_serialised_and_all_work(monkeypatch, tmp_path):
    """The 9:00 race: transformers swaps `PreTrainedModel.tie_weights` process-wide while it builds a model, so two
    threads building at once can leave the no-op in place for good. Four first loads start together; a probe inside
    model construction waits for a second builder to arrive. Serialised, none ever does (it gives up after 0.3 s);
    unserialised, the probe sees two at once. Afterwards every model (and a fresh one) must have its tied decoder."""
    import threading

    import transformers

    from tests import tiny_models

    builders = {"bert": tiny_models.tiny_bert_mlm, "roberta": tiny_models.tiny_roberta_mlm, "gpt2": tiny_models.tiny_gpt2}
    keys = {"bert": "bert", "roberta": "roberta", "gpt2": "gpt2", "distilgpt2": "gpt2"}  # two loads of one architecture
    for name, build in builders.items():
        lm = build()
        lm.model.save_pretrained(tmp_path / name)
        lm.tokenizer.save_pretrained(tmp_path / name)
    monkeypatch.setattr(models, "_weights_location", lambda spec: (str(tmp_path / keys[spec.key]), {"local_files_only": True}))

    inside, most, changed = [0], [0], threading.Condition()
    original_post_init = transformers.PreTrainedModel.post_init

    def probed_post_init(self):  # runs while from_pretrained holds its process-wide patches
        with changed:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
            changed.notify_all()
            changed.wait_for(lambda: inside[0] > 1, timeout=0.3)
            inside[0] -= 1
        return original_post_init(self)

    monkeypatch.setattr(transformers.PreTrainedModel, "post_init", probed_post_init)
    start, loaded, errors = threading.Barrier(len(keys)), {}, []

    def first_load(key):
        start.wait()
        try:
            loaded[key] = models.load_uncached(key)
        except Exception as exc:  # reported below with the key
            errors.append((key, exc))

    threads = [threading.Thread(target=first_load, args=(key,)) for key in keys]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    monkeypatch.undo()

    assert not errors and most[0] == 1, (errors, f"{most[0]} models were being built at once")
    fresh = tiny_models.tiny_gpt2().model  # built after the storm: tying must still work
    for model in [lm.model for lm in loaded.values()] + [fresh]:
        out, emb = model.get_output_embeddings().weight, model.get_input_embeddings().weight
        assert out.data_ptr() == emb.data_ptr() and not out.is_meta
