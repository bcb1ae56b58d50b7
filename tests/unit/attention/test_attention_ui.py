"""The Attention tab's backend views and renderer: one model call per (model, text), light responses, figures' structure."""

import json
from types import SimpleNamespace

import numpy as np
import pytest

from playground import attention as att
from playground.attention import AttentionResult
from playground.attention import AttentionRequest, run_attention
from playground.errors import InputError
from playground.runtime import Runtime
from playground.figures import attention as figs
from playground.serialize import jsonable
from playground.ui.attention import render as ar

TEXT = "the cat sat on the mat"


@pytest.fixture
def service(tiny_encoder, tiny_llama):
    """A runtime resolving model keys to the tiny models, with caches of its own."""
    return Runtime(load={"minilm": tiny_encoder, "smollm2-instruct": tiny_llama}.__getitem__)


def show(runtime, model, text, text_b, view, layer, head, query, row_start, other, lang):
    """What the tab does for one event: the backend's view (indices fitted to the model), then the renderer."""
    view_run = run_attention(AttentionRequest(model, text, text_b, layer, head, row_start, view, query, other, fit=True), runtime)
    return {**ar.render(view_run, lang), "layer": view_run.layer, "head": view_run.head}


def count_forwards(lm):
    calls = []
    handle = lm.model.register_forward_hook(lambda *args: calls.append(1))
    return calls, handle


def test_switching_layer_head_or_view_does_not_call_the_model(service, tiny_encoder):
    calls, handle = count_forwards(tiny_encoder)
    try:
        for view in ["head", "layer", "overview", "tokens", "mean", "rollout", "special", "entropy", "positional"]:
            for layer in range(2):
                for head in range(4):
                    out = show(service, "minilm", TEXT, "", view, layer, head, 2, 0, "minilm", "en")
                    assert out["layer"] == layer and out["head"] == head
        assert len(calls) == 1
        show(service, "minilm", TEXT + " again", "", "head", 0, 0, 0, 0, "", "en")
        assert len(calls) == 2  # a new sentence is a new forward pass
    finally:
        handle.remove()


def test_step_view_captures_each_layer_once(service, tiny_llama):
    show(service, "smollm2-instruct", TEXT, "", "head", 0, 0, 0, 0, "", "en")
    calls, handle = count_forwards(tiny_llama)
    try:
        for head in range(4):
            for query in range(-1, 5):
                out = show(service, "smollm2-instruct", TEXT, "", "step", 1, head, query, 0, "", "zh")
                assert out["plot"] is not None and ("| −∞ |" in out["step"]) == (query != -1)  # causal: later keys masked
        assert len(calls) == 1
    finally:
        handle.remove()


def test_compare_puts_causal_and_bidirectional_side_by_side(service):
    out = show(service, "minilm", TEXT, "", "compare", 1, 3, 0, 0, "smollm2-instruct", "en")
    heatmaps = [trace for trace in out["plot"].data if trace.type == "heatmap"]
    assert len(heatmaps) == 2
    left, right = (np.asarray(h.z) for h in heatmaps)
    assert np.triu(left, 1).max() > 0 and np.triu(right, 1).max() == 0


def test_out_of_range_sliders_are_clamped(service):
    out = show(service, "minilm", TEXT, "", "head", 99, 99, 99, 99, "", "en")
    assert (out["layer"], out["head"]) == (1, 3)


def synthetic(length=512, layers=30, heads=9, causal=True):
    rng = np.random.default_rng(0)
    att = rng.random((layers, heads, length, length), dtype=np.float32)
    if causal:
        att = np.tril(att)
    att /= att.sum(-1, keepdims=True)
    tokens = [f"w{i}" for i in range(length)]
    return AttentionResult("fake", tokens, [0] * length, [False] * length, causal, att.astype(np.float16))


def test_responses_stay_under_one_megabyte_at_512_tokens():
    result = synthetic()
    shown = SimpleNamespace(model="fake", model_id="fake/fake", device="cpu", maps=result, layer=29, head=8)
    payload = json.dumps(jsonable(att.attention_json(shown, row_start=500)))
    assert len(payload) < 1_000_000
    assert json.loads(payload)["row_stop"] == 512
    head = figs.heatmap_figure(result.tokens, result.attentions[0, 0], "t", row_start=256)
    assert len(head.to_json()) < 1_000_000
    assert np.asarray(head.data[0].z).shape == (256, 512)
    assert len(figs.layer_heads_figure(result.tokens, result.attentions[3], "t").to_json()) < 1_000_000
    image = figs.overview_image(result.attentions)
    assert image.dtype == np.uint8 and image.nbytes < 1_500_000  # sent as a PNG, far smaller


def test_overview_click_maps_to_layer_and_head():
    image = figs.overview_image(synthetic(length=20, layers=3, heads=4).attentions, thumb=32, gap=4)
    left, top = figs.OVERVIEW_LEFT, figs.OVERVIEW_TOP
    assert image.shape == (top + 3 * 36 - 4, left + 4 * 36 - 4, 3)
    assert figs.overview_cell(left, top, 3, 4) == (0, 0)
    assert figs.overview_cell(left + 36 * 3 + 5, top + 36 * 2 + 5, 3, 4) == (2, 3)
    assert figs.overview_cell(left + 33, top + 5, 3, 4) == (0, 0)  # a click in a gap opens the thumbnail before it
    assert figs.overview_cell(left + 5, top + 36 * 3 + 1, 3, 4) is None  # below the last layer
    assert figs.overview_cell(left - 5, top + 5, 3, 4) is None  # on a layer's number


def test_the_overview_numbers_its_layers_and_heads():
    """Issue 37 (low): the model overview was a grid of bare thumbnails; now each row carries its layer number at the
    left and each column its head number at the top."""
    image = figs.overview_image(synthetic(length=20, layers=3, heads=4).attentions, thumb=32, gap=4)
    left, top = figs.OVERVIEW_LEFT, figs.OVERVIEW_TOP
    ink = image.min(axis=-1) < 160  # dark pixels: text
    for layer in range(3):
        assert ink[top + layer * 36 : top + layer * 36 + 32, :left].any(), f"layer {layer} has no number"
    for head in range(4):
        assert ink[:top, left + head * 36 : left + head * 36 + 32].any(), f"head {head} has no number"


def test_pooling_keeps_averages():
    matrix = np.random.default_rng(1).random((100, 100))
    pooled = figs.pool(matrix, 48)
    assert pooled.shape == (48, 48)
    assert abs(pooled.mean() - matrix.mean()) < 0.01
    np.testing.assert_allclose(figs.pool(matrix[:10, :10], 48), matrix[:10, :10], rtol=1e-6)


def test_token_view_and_labels():
    result = synthetic(length=12, layers=1, heads=3, causal=False)
    fig = figs.token_view_figure(result.tokens, result.attentions[0].astype(np.float32), 1, "t", query=3)
    texts = [trace for trace in fig.data if trace.mode == "text"]
    assert len(texts) == 2 and list(texts[0].text) == result.tokens
    lines = [trace for trace in fig.data if trace.mode == "lines"]
    assert lines and all(y is None or y <= 0 for trace in lines for y in trace.y)
    # bertviz's head view: every head of the layer in its own colour and legend entry, the chosen one drawn
    assert [trace.name for trace in lines if trace.showlegend] == ["head 0", "head 1", "head 2"]
    assert {trace.legendgroup for trace in lines if trace.visible is True} == {"head1"}
    assert len({trace.line.color for trace in lines}) == 3
    drawn = [y for trace in lines if trace.visible is True for y in trace.y if y is not None]
    assert set(drawn[::2]) == {-3}  # only the chosen query's lines leave the left column
    assert len(set(figs.token_labels(["the", "cat", "the"]))) == 3  # repeated tokens stay apart on the axes


def test_csv_export_has_token_header():
    text = ar.matrix_csv(["a", "b"], np.array([[1.0, 0.0], [0.25, 0.75]]))
    lines = text.strip().splitlines()
    assert lines[0].split(",")[1:] == ["0·a", "1·b"] and lines[2].endswith("0.25,0.75")


API_KEYS = {
    "model", "model_id", "device", "tokens", "token_type_ids", "special", "causal", "layers", "heads", "layer", "head",
    "row_start", "row_stop", "matrix", "mean_over_heads", "rollout", "first_token_share", "special_share", "head_entropy_bits",
}  # fmt: skip


def test_run_attention_returns_the_documented_json(service, tiny_clm):
    load = lambda key: tiny_clm if key == "gpt2" else service.load(key)  # noqa: E731
    runtime = Runtime(load=load)
    for key, causal in [("minilm", False), ("smollm2-instruct", True), ("gpt2", True)]:
        data = jsonable(att.attention_json(run_attention(att.AttentionRequest(key, TEXT, "", 1, 2, 0), runtime)))
        assert set(data) == API_KEYS and data["causal"] == causal and (data["layer"], data["head"]) == (1, 2)
        matrix = np.array(data["matrix"])
        assert matrix.shape == (len(data["tokens"]),) * 2
        np.testing.assert_allclose(matrix.sum(-1), 1, atol=1e-3)
        assert (np.triu(matrix, 1).max() == 0) == causal
        assert np.array(data["head_entropy_bits"]).shape == (data["layers"], data["heads"])
        step = run_attention(AttentionRequest(key, TEXT, view="step", layer=1, head=1, query=2), runtime).step
        assert step.max_error < 1e-4  # the recomputed weights match the model's (GPT-2: fused c_attn)
    with pytest.raises(InputError) as err:
        run_attention(att.AttentionRequest("minilm", TEXT, "", 9, 0, 0), runtime)  # the API's request: not fitted
    assert err.value.code == "attention_bad_head"


def test_views_and_language_switches_write_no_files(service, tmp_path, monkeypatch):
    from playground.ui.common import widgets

    exports = tmp_path / "exports"  # this test's own: a parallel test's download cannot look like a leak
    monkeypatch.setattr(widgets, "EXPORT_DIR", exports)
    views = ["head", "layer", "overview", "tokens", "mean", "rollout", "special", "entropy", "step", "positional"]
    for i in range(50):
        show(service, "minilm", TEXT, "", views[i % len(views)], i % 2, i % 4, 1, 0, "", ("en", "zh")[i % 2])
    assert not exports.exists() or not any(exports.rglob("*"))


def page_values(**fields):
    """What the page's events hand a handler, by name (ui.common.form)."""
    from playground.ui.common.form import Values

    base = dict(model="minilm", other="", text=TEXT, text_b="", view="head", layer=0, head=0, query=-1, row_start=0)
    return Values(base | fields, "en", "")


def test_the_page_and_the_api_run_one_entry_and_share_its_maps(app_runtime, tiny_encoder):
    import gradio as gr

    from playground.ui.attention import tab

    app_runtime({"minilm": tiny_encoder})
    calls, handle = count_forwards(tiny_encoder)
    try:
        data = tab.attention_api("minilm", TEXT, "", 1, 2)
        page = tab.view_of(page_values(view="head", layer=1, head=2))
        with pytest.raises(gr.Error, match="Layer must be 0-1"):  # the API refuses what the page fits to the model
            tab.attention_api("minilm", TEXT, "", 9, 0)
        assert tab.view_of(page_values(view="head", layer=9, head=0)).layer == 1
    finally:
        handle.remove()
    assert len(calls) == 1  # one forward pass for the API's call and every page view after it
    np.testing.assert_allclose(data["matrix"], page.matrix, atol=1e-4)


def test_a_link_to_the_step_view_runs_it_once_in_one_event(app_runtime, tiny_llama):
    """A share link with a non-default view (step, layer 1, head 1): the link's one event runs the view once — one pass
    for the maps, one capture of every layer's Q, K, V — and its Code panel's script, with no model call."""
    import gradio as gr

    from playground.ui.attention import tab
    from playground.ui.common.i18n import Localizer, UIContext
    from playground.ui.common.lab_models import LabMenus
    from playground.ui.common.links import run_link

    app_runtime({"smollm2-instruct": tiny_llama, "minilm": tiny_llama})
    with gr.Blocks():
        lang = gr.Radio(["en", "zh"], value="en")
        ui = UIContext(lang, Localizer(), LabMenus.create())
        shared = tab.build_tab(ui)
    p = shared.params
    values = {c: getattr(c, "value", None) for step in shared.run.steps for c in step.inputs}
    values |= {p["model"]: "smollm2-instruct", p["text"]: TEXT, p["view"]: "step", p["layer"]: 1, p["head"]: 1, lang: "en"}
    calls, handle = count_forwards(tiny_llama)
    try:
        updates = list(run_link(shared.run, values))
    finally:
        handle.remove()
    assert len(calls) == 2  # the maps, then the capture of every layer: never a pass per layer, never the view twice
    merged = {k: v for u in updates for k, v in u.items()}
    assert merged[p["layer"]]["value"] == 1 and merged[p["head"]]["value"] == 1  # the linked layer and head, as drawn
    (code,) = [v for k, v in merged.items() if isinstance(v, str) and "Transformer Playground" in v]
    assert "output_attentions=True" in code
