"""The Runtime every entry is given: models (allow-listed or the session's), tokenizers, caches (`cached`)."""

import dataclasses

import pytest

from playground.errors import InputError
from playground.registry import get_spec
from playground.runtime import Runtime


def test_models_come_from_the_loader_after_the_allow_list_and_kind_checks(tiny_mlm):
    asked = []
    runtime = Runtime(load=lambda key: asked.append(key) or tiny_mlm, load_tokenizer=lambda key: tiny_mlm.tokenizer)
    assert runtime.model("minilm-mlm") is tiny_mlm and asked == ["minilm-mlm"]
    assert runtime.tokenizer("minilm-mlm") is tiny_mlm.tokenizer
    with pytest.raises(InputError) as err:
        runtime.model("nope")
    assert err.value.code == "unknown_model" and asked == ["minilm-mlm"]
    with pytest.raises(InputError) as err:
        runtime.spec("glove", kinds=("masked",))
    assert err.value.code == "input_model_kind"


def test_a_session_model_is_found_by_its_key_and_other_sessions_do_not_see_it(tiny_mlm):
    app = Runtime(load=lambda key: pytest.fail("the session's own model needs no load"))
    mine = app.with_session({"your-lab-model": tiny_mlm})
    assert mine.model("your-lab-model") is tiny_mlm and mine.tokenizer("your-lab-model") is tiny_mlm.tokenizer
    with pytest.raises(InputError) as err:
        app.model("your-lab-model")  # the app-wide runtime (and every other session) has no such key
    assert err.value.code == "unknown_model"


def test_views_of_one_runtime_share_its_caches():
    app = Runtime()
    a = app.cache("results", 4)
    assert app.with_session({}).cache("results", 99) is a and app.with_progress(print).cache("results", 1) is a
    assert a.capacity == 4 and Runtime().cache("results", 4) is not a  # another app: its own caches


def test_progress_is_told_to_the_loader(tiny_mlm):
    told = []

    def load(key, on_load=None):
        if on_load is not None:
            on_load(get_spec(key))
        return tiny_mlm

    runtime = Runtime(load=load).with_progress(told.append)
    runtime.model("minilm-mlm")
    assert [s.key for s in told] == ["minilm-mlm"]


def test_cached_shares_results_but_never_a_session_models():
    """One call path for every entry: a registry model's result is kept and shared by every view of the runtime; a
    session model's (its key is the same in every session) is computed per call and kept nowhere."""
    app, calls = Runtime(), []
    compute = lambda: calls.append(1) or len(calls)  # noqa: E731
    assert app.cached("results", 4, ("bert", "text"), compute, "bert") == 1
    assert app.with_progress(print).cached("results", 4, ("bert", "text"), compute, "bert") == 1  # shared: no new call
    mine = app.with_session({"lab-model": object()})
    assert mine.cached("results", 4, ("lab-model", "text"), compute, "lab-model") == 2
    assert mine.cached("results", 4, ("lab-model", "text"), compute, "lab-model") == 3  # computed again, never kept
    assert list(app.cache("results", 4).keys()) == [("bert", "text")]


def test_a_failed_load_is_one_input_error_with_the_label_and_no_server_path():
    def broken(key):
        raise OSError("/home/server/.cache/huggingface/hub/models--google-bert: we couldn't connect to the hub")

    with pytest.raises(InputError) as err:
        Runtime(load_tokenizer=broken).tokenizer("bert")
    assert err.value.code == "model_failed" and err.value.params["model"] == get_spec("bert").label
    assert "/home/server" not in str(err.value) and "couldn't connect" in str(err.value)


def test_runtime_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Runtime().session = {}  # type: ignore[misc]
