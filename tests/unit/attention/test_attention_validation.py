"""/attention refuses what the bad-values battery cannot know (no model, indices beyond the model); failing calls
leave nothing behind; unknown tokens and byte pieces are labelled as what they are."""

import gc
import math

import pytest

from playground import attention as att
from playground.attention import AttentionRequest, run_attention
from playground.runtime import Runtime
from playground.errors import InputError
from playground.ui.attention import render as ar

TEXT = "the cat sat on the mat"


@pytest.fixture
def service(tiny_encoder, tiny_llama, tiny_clm, tiny_glove):
    tiny = {"minilm": tiny_encoder, "smollm2-instruct": tiny_llama, "gpt2": tiny_clm, "glove": tiny_glove}
    return Runtime(load=tiny.__getitem__)


def never(key):
    raise AssertionError("no model may load for a malformed request")


def call(runtime, **fields):
    request = att.AttentionRequest(**{"model": "minilm", "text": TEXT, **fields})
    return lambda: run_attention(request, runtime if isinstance(runtime, Runtime) else Runtime(load=runtime))


def refused(fn, code):
    with pytest.raises(InputError) as err:
        fn()
    assert code in (err.value.code, err.value.params.get("name")), str(err.value)
    assert "long long" not in str(err.value)


# What every field refuses by its kind (a list, a number for a text, NaN, a fraction, None for an index, a model of
# another kind...) the one battery proves through /attention: tests/unit/core/test_api_bad_values.py. Here: the
# values of no such class, and what depends on the model.


@pytest.mark.parametrize("model", [None, ""])
def test_no_model(model):
    refused(call(never, model=model), "model")


def test_a_loaded_model_without_attention_is_refused(service):
    refused(call(service, model="glove"), "input_model_kind")


def test_indices_beyond_the_model(service):
    refused(call(service, layer=5), "attention_bad_head")  # tiny-encoder: 2 layers, 4 heads
    refused(call(service, head=4), "attention_bad_head")
    refused(call(service, row_start=100), "attention_row_range")
    assert run_attention(att.AttentionRequest("minilm", TEXT, "", 1.0, 3, 0), service).head == 3  # 1.0 is whole


def test_failing_calls_leave_no_cache_entries_flights_or_texts(service):
    """The issue: 360 too-long calls grew the server by 1.5 GB. Now every failing call leaves nothing."""
    maps, captures = att.cache(service, "maps"), att.cache(service, "captures")
    gc.collect()
    for i in range(200):
        long_text = f"cat {i} " + "the cat sat " * 40  # 120+ tokens > tiny-encoder's 64 positions, a new text each time
        refused(call(service, text=long_text), "attention_too_long")
        with pytest.raises(InputError):
            run_attention(AttentionRequest("minilm", long_text, view="step", fit=True), service)
    assert len(maps) == 0 and maps.in_flight() == 0 and len(captures) == 0 and captures.in_flight() == 0
    assert not maps._flights and not captures._flights


def test_bad_view_values_are_clamped_not_crashing(service):
    page = AttentionRequest("minilm", TEXT, "", math.inf, None, -math.inf, "head", 1.5, fit=True)  # the page fits, never fails
    view = run_attention(page, service)
    assert (view.layer, view.head, view.query, view.row_start) == (0, 0, 1, 0)


def test_unknown_tokens_are_flagged_on_labels_and_in_the_info(service):
    view = run_attention(AttentionRequest("minilm", "the cat 龘 sat", view="head"), service)
    assert "[UNK]" in view.maps.tokens
    assert "[UNK] (龘)" in view.maps.labels and view.maps.unknown_texts == ["龘"]
    info = ar.render(view, "en")["info"]
    assert "⚠" in info and "龘" in info and "\\[UNK\\]" in info  # escaped: shown, not read as a Markdown link
    assert "龘" in ar.render(view, "zh")["info"] and "不认识" in ar.render(view, "zh")["info"]
    plain = run_attention(AttentionRequest("minilm", TEXT, view="head"), service)
    assert "⚠" not in ar.render(plain, "en")["info"]


def test_byte_pieces_read_as_characters_on_the_axes(service):
    view = run_attention(AttentionRequest("gpt2", "the 龘 cat", view="head"), service)
    labels = view.maps.labels
    assert [label for label in labels if "龘" in label] == ["龘(1/3)", "龘(2/3)", "龘(3/3)"]
    assert not any("\ufffd" in label for label in labels)
    ticks = ar.render(view, "en")["plot"].data[0].x
    assert any("龘(1/3)" in tick for tick in ticks)


def test_tag_like_tokens_are_escaped_for_plotly(service):
    """Plotly reads `<s>` in labels as strike-through: labels are escaped so the token shows."""
    assert ar.plot_labels(["<s>", "</s>", "a&b"]) == ["&lt;s&gt;", "&lt;/s&gt;", "a&amp;b"]
