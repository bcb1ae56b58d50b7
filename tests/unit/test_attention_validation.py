"""/attention refuses every malformed parameter with its own clear message; failing calls leave nothing behind;
unknown tokens and byte pieces are labelled as what they are."""

import gc
import math

import pytest

from playground import attention as att
from playground.attention_view import AttentionViewRequest, run_attention_view
from playground.cache import clear_all
from playground.errors import InputError
from playground.ui import attention_render as ar

TEXT = "the cat sat on the mat"


@pytest.fixture
def service(tiny_encoder, tiny_llama, tiny_clm, tiny_glove):
    clear_all()
    tiny = {"tiny-encoder": tiny_encoder, "tiny-llama": tiny_llama, "tiny-gpt2": tiny_clm, "tiny-glove": tiny_glove}
    yield tiny.__getitem__
    clear_all()


def never(key):
    raise AssertionError("no model may load for a malformed request")


def call(load, **fields):
    request = att.AttentionRequest(**{"model": "tiny-encoder", "text": TEXT, **fields})
    return lambda: att.run_attention(request, load)


def refused(fn, code):
    with pytest.raises(InputError) as err:
        fn()
    assert err.value.code == code, str(err.value)
    assert "long long" not in str(err.value)


@pytest.mark.parametrize(
    "model, code",
    [
        ("glove", "attention_wrong_kind"),
        ("t5-small", "attention_wrong_kind"),
        (None, "attention_model_type"),
        (3, "attention_model_type"),
        (["minilm"], "attention_model_type"),
        ("", "attention_model_type"),
    ],
)
def test_model(model, code):
    refused(call(never, model=model), code)


def test_a_loaded_model_without_attention_is_refused(service):
    refused(call(service, model="tiny-glove"), "attention_wrong_kind")


@pytest.mark.parametrize("field", ["text", "text_b"])
@pytest.mark.parametrize(
    "value, code",
    [(["a"], "input_not_text"), (7, "input_not_text"), ("a\ud800", "input_bad_unicode"), ("a" * 6000, "input_text_too_long")],
)
def test_text(field, value, code):
    refused(call(never, **{field: value}), code)


@pytest.mark.parametrize(
    "field, code", [("layer", "attention_layer_type"), ("head", "attention_head_type"), ("row_start", "attention_row_type")]
)
@pytest.mark.parametrize("value", [1.5, -1, math.inf, -math.inf, math.nan, None, "2", [2], 2**70, True])
def test_indices(field, code, value):
    refused(call(never, **{field: value}), code)


def test_indices_beyond_the_model(service):
    refused(call(service, layer=5), "attention_bad_head")  # tiny-encoder: 2 layers, 4 heads
    refused(call(service, head=4), "attention_bad_head")
    refused(call(service, row_start=100), "attention_row_range")
    assert att.run_attention(att.AttentionRequest("tiny-encoder", TEXT, "", 1.0, 3, 0), service).head == 3  # 1.0 is whole


def test_failing_calls_leave_no_cache_entries_flights_or_texts(service):
    """The issue: 360 too-long calls grew the server by 1.5 GB. Now every failing call leaves nothing."""
    maps, captures = att.cache("maps"), att.cache("captures")
    gc.collect()
    for i in range(200):
        long_text = f"cat {i} " + "the cat sat " * 40  # 120+ tokens > tiny-encoder's 64 positions, a new text each time
        refused(call(service, text=long_text), "attention_too_long")
        with pytest.raises(InputError):
            run_attention_view(AttentionViewRequest("tiny-encoder", long_text, view="step"), service)
    assert len(maps) == 0 and maps.in_flight() == 0 and len(captures) == 0 and captures.in_flight() == 0
    assert not maps._flights and not captures._flights


def test_bad_view_values_are_clamped_not_crashing(service):
    view = run_attention_view(AttentionViewRequest("tiny-encoder", TEXT, "", "head", math.inf, None, 1.5, -math.inf), service)
    assert (view.layer, view.head, view.query, view.row_start) == (0, 0, 1, 0)


def test_unknown_tokens_are_flagged_on_labels_and_in_the_info(service):
    view = run_attention_view(AttentionViewRequest("tiny-encoder", "the cat 龘 sat", view="head"), service)
    assert "[UNK]" in view.maps.tokens
    assert "[UNK] (龘)" in view.maps.labels and view.maps.unknown_texts == ["龘"]
    info = ar.render(view, "en")["info"]
    assert "⚠" in info and "龘" in info and "\\[UNK\\]" in info  # escaped: shown, not read as a Markdown link
    assert "龘" in ar.render(view, "zh")["info"] and "不认识" in ar.render(view, "zh")["info"]
    plain = run_attention_view(AttentionViewRequest("tiny-encoder", TEXT, view="head"), service)
    assert "⚠" not in ar.render(plain, "en")["info"]


def test_byte_pieces_read_as_characters_on_the_axes(service):
    view = run_attention_view(AttentionViewRequest("tiny-gpt2", "the 龘 cat", view="head"), service)
    labels = view.maps.labels
    assert [label for label in labels if "龘" in label] == ["龘(1/3)", "龘(2/3)", "龘(3/3)"]
    assert not any("\ufffd" in label for label in labels)
    ticks = ar.render(view, "en")["plot"].data[0].x
    assert any("龘(1/3)" in tick for tick in ticks)


def test_tag_like_tokens_are_escaped_for_plotly(service):
    """Plotly reads `<s>` in labels as strike-through: labels are escaped so the token shows."""
    assert ar.plot_labels(["<s>", "</s>", "a&b"]) == ["&lt;s&gt;", "&lt;/s&gt;", "a&amp;b"]
