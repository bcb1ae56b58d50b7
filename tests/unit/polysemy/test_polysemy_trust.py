"""Polysemy readings that follow the numbers and the inputs, escaping, types, share links, translations (issue 10)."""

import math
from dataclasses import replace

import gradio as gr
import numpy as np
import pytest

from playground.alignment import parse_line
from playground.text_units import is_cjk
from playground.runtime import Runtime
from playground.polysemy import (
    ModelView,
    Note,
    PolysemyRequest,
    PolysemyRun,
    Sentence,
    input_notes,
    run_polysemy,
    sense_scores,
)
from playground.errors import InputError
from playground.figures.polysemy import scatter_figure, similarity_figure
from playground.registry import get_spec
from playground.polysemy.readings import read_run
from playground.ui.polysemy import render
from playground.ui.polysemy import presets
from playground.ui.polysemy import tab as polysemy_tab
from playground.ui.common.i18n import Localizer, UIContext


def run(lms, word, sentences, **options):
    by_key = {lm.spec.key: lm for lm in lms}
    return run_polysemy(PolysemyRequest(word, sentences, tuple(by_key), **options), Runtime(load=by_key.__getitem__))


def notes_of(view):
    return {n.code: n.params for n in view.notes}


# --- unknown tokens and identical inputs -------------------------------------------------------------------------

UNKNOWN = "money | the ξψ paid ω .\nmoney | the ξψ sat .\nriver | the ξψ paid φ .\nriver | the ξψ was there ."
SAME = "money | the bank paid ω .\nmoney | she went to the bank .\nriver | the bank paid φ .\nriver | he sat on the bank ."


def test_input_notes_name_unknown_words_and_identical_inputs():
    ids = [[1, 5, 9], [1, 6, 9], [1, 5, 9], [1, 5, 9]]
    positions = [[1], [1], [1], [2]]  # the last is the same sequence, but the word is elsewhere: another input
    notes = input_notes(ids, positions, [0, 1, 2, 3], unk_id=5, unk_token="[UNK]")
    assert notes == (Note("unknown_word", {"rows": [1, 3], "token": "[UNK]"}), Note("same_input", {"groups": [[1, 3]]}))
    assert input_notes([[1, 2], [1, 3]], [[0], [0]], [0, 1], unk_id=5, unk_token="[UNK]") == ()


def test_unknown_word_voids_the_reading_and_is_said_prominently(tiny_encoder):
    result = run([tiny_encoder], "ξψ", UNKNOWN)
    contextual, rows = result.models
    assert notes_of(contextual)["unknown_word"] == {"rows": [1, 2, 3, 4], "token": "[UNK]"}
    assert notes_of(contextual)["same_input"] == {"groups": [[1, 3]]}
    for lang in ("en", "zh"):
        text = render.reading(result, lang)
        assert text.count("⚠️") == 2 and "\\[UNK\\]" in text  # both panels warned; the token shows (escaped Markdown)
        assert "90%" not in text and "one point" not in text and "同一个向量" not in text  # no conclusion drawn
        titles = [a["text"] for a in render.figures(result, lang)[0].to_dict()["layout"]["annotations"]]
        assert sum("⚠️" in t for t in titles) == 2


def test_identical_inputs_void_the_contextual_reading_only(tiny_encoder):
    result = run([tiny_encoder], "bank", SAME)
    contextual, rows = result.models
    assert "unknown_word" not in notes_of(contextual) and notes_of(contextual)["same_input"] == {"groups": [[1, 3]]}
    assert contextual.similarity[0, 2] == pytest.approx(1.0, abs=1e-5)  # the tokenizer's doing: one and the same input
    text = render.reading(result, "en")
    first, second = text.split("\n\n")[:2]
    assert first.startswith("⚠️") and "#1 = #3" in first and "90%" not in first
    assert "same vector in all 4 sentences" in second  # the input rows: one vector per token, measured
    scatter = scatter_figure(result).to_dict()
    assert "2 sentences, one point" in [a["text"] for a in scatter["layout"]["annotations"]]


# --- one sentence per sense ---------------------------------------------------------------------------------------


def test_accuracy_is_undefined_with_one_sentence_in_a_sense():
    sim = np.array([[1.0, 0.9, 0.2], [0.9, 1.0, 0.3], [0.2, 0.3, 1.0]])
    separation, accuracy = sense_scores(sim, ["a", "a", "b"])
    assert separation == pytest.approx(0.9 - 0.25) and math.isnan(accuracy)
    assert sense_scores(sim[:2, :2], ["a", "b"])[1] != sense_scores(sim[:2, :2], ["a", "b"])[1]  # NaN, not 0%


def test_one_sentence_per_sense_shows_the_cosine(tiny_encoder):
    result = run([tiny_encoder], "bank", "money | the bank paid .\nriver | he sat on the bank .", input_embeddings=False)
    (view,) = result.models
    assert math.isnan(view.nn_accuracy) and render.score_rows(result)[0][2] == f"{view.similarity[0, 1]:.2f}"  # the cosine
    text = render.reading(result, "en")
    assert f"#1–#2 {view.similarity[0, 1]:.2f}" in text and "at least two sentences per sense" in text
    assert "0%" not in text and "below 90%" not in text
    assert "每种词义至少有两个句子" in render.reading(result, "zh")


# --- readings follow the scores (constructed arrays) --------------------------------------------------------------

SENTENCES = [Sentence(i, "ab"[i // 2], f"the bank {i}", (4, 8)) for i in range(4)]


def view(acc=(0.5,), sim=None, source="contextual", pieces=None, separation=0.1, notes=()):
    acc = np.asarray(acc, dtype=float)
    sim = np.ones((4, 4)) if sim is None else np.asarray(sim)
    return ModelView(
        key="m", model_id="m", label="M", source=source, device="cpu", layer=len(acc) - 1, num_layers=len(acc) - 1,
        layer_fallback=False, rows=[0, 1, 2, 3], pieces=pieces or [["bank"]] * 4, coords=np.zeros((4, 2)),
        similarity=sim, separation=separation, nn_accuracy=float(acc[-1]), separation_by_layer=np.full(len(acc), separation),
        nn_accuracy_by_layer=acc, notes=notes, model_label="M",
    )  # fmt: skip


def built(sentences, views, word="bank"):
    """A run of constructed panels, read by the backend (playground.polysemy.readings) as run_polysemy reads its own."""
    return PolysemyRun(word, "mean", "pca", 2, sentences, list(views), read_run(word, sentences, list(views)))


def reading_of(*views, lang="en"):
    return render.reading(built(SENTENCES, views), lang)


def test_a_dip_is_told_with_its_numbers_never_as_first_reached_later():
    (r,) = built(SENTENCES, [view([0.95, 0.5, 0.6, 0.9, 1.0])]).readings  # what the API returns: the numbers, no words
    assert (r.code, r.params["layer"], r.params["dip"]) == (
        "separates",
        3,
        {"first": 0, "first_accuracy": 0.95, "layer": 1, "accuracy": 0.5},
    )
    text = reading_of(view([0.95, 0.5, 0.6, 0.9, 1.0]))
    assert "from layer 3 up to the last layer (4)" in text
    assert "already reached 95% at layer 0, then fell to 50% at layer 1" in text and "first reached" not in text
    assert "第 0 层已达到 95%，随后在第 1 层降到 50%" in reading_of(view([0.95, 0.5, 0.6, 0.9, 1.0]), lang="zh")


def test_no_separation_at_the_top_reports_the_last_and_the_best():
    text = reading_of(view([0.5, 1.0, 0.6]))
    assert "at the last layer nearest-neighbour sense accuracy is 60%" in text and "its best is 100%, at layer 1" in text
    assert "from layer" not in text


def test_static_claims_follow_the_measured_vectors():
    assert "same vector in all 4 sentences" in reading_of(view([0.33], source="static", separation=0.0))
    sim = np.array([[1, 1, 0.7, 0.7], [1, 1, 0.7, 0.7], [0.7, 0.7, 1, 1], [0.7, 0.7, 1, 1]])
    pieces = [["apple"], ["apple"], ["Apple"], ["Apple"]]
    text = reading_of(view([1.0], sim=sim, source="static", pieces=pieces, separation=0.3))
    assert "different tokens (“apple”, “Apple”)" in text and "separation 0.30" in text and "100%" in text
    assert "cannot tell" not in text and "one point" not in text


# --- figures: one point said, the data's colour range ----------------------------------------------------------------


def test_heatmap_colours_span_the_data_and_say_so():
    sim = np.array([[1, 0.9, 0.5, 0.4], [0.9, 1, 0.45, 0.5], [0.5, 0.45, 1, 0.8], [0.4, 0.5, 0.8, 1]])
    result = PolysemyRun("bank", "mean", "pca", 2, SENTENCES, [view([1.0], sim=sim), view([0.3], source="static")])
    heat = similarity_figure(result).to_dict()["data"]
    assert [(tr["zmin"], tr["zmax"]) for tr in heat] == [(0.4, 1.0)] * 2  # one scale for all panels: the data's
    assert "range" in heat[0]["colorbar"]["title"]["text"]
    zh = render.figures(result, "zh")[1].to_dict()["data"][0]["colorbar"]["title"]["text"]
    assert "数据的范围" in zh


def test_static_points_are_one_dot_said_in_words():
    result = PolysemyRun("bank", "mean", "pca", 2, SENTENCES, [view([0.3], source="static")])
    notes = [a["text"] for a in render.figures(result, "zh")[0].to_dict()["layout"]["annotations"] if a.get("showarrow")]
    assert notes == ["4 个句子，同一个点"]


# --- escaping -------------------------------------------------------------------------------------------------------

PAYLOAD = '<svg><a href="javascript:alert(1)"><text x=5 y=20>open</text></a></svg>'


def test_tokens_labels_and_sentences_are_escaped_in_figures_and_markdown():
    sentences = [Sentence(i, ["<b>a</b>", "*b*"][i // 2], f"<i>{i}</i> bank", (11, 15)) for i in range(4)]
    v = view([0.5, 1.0], source="contextual", pieces=[["<s>"], ["</s>"], ["<mask>"], ["<|endoftext|>"]])
    v = replace(v, similarity=np.eye(4) * 0.5 + 0.5, coords=np.arange(8.0).reshape(4, 2))
    result = PolysemyRun("bank", "mean", "pca", 2, sentences, [v])
    scatter, heat, curve = (f.to_dict() for f in render.figures(result, "en"))
    hover = " ".join(t for tr in scatter["data"] for t in tr["text"])
    assert "&lt;s&gt;" in hover and "&lt;|endoftext|&gt;" in hover and "<s>" not in hover and "<i>" not in hover
    assert {tr["name"] for tr in scatter["data"]} == {"&lt;b&gt;a&lt;/b&gt;", "*b*"}
    assert all("<b>" not in tick for tick in heat["data"][0]["x"])
    single = built(sentences[:3], [replace(v, rows=[0, 1, 2], pieces=v.pieces[:3])])
    assert "“\\*b\\*”" in render.reading(single, "en")  # a sense label with Markdown markers shows as typed


@pytest.mark.parametrize("field", ["word", "layer"])
def test_payloads_in_errors_are_escaped_or_not_echoed(field):
    values = {"word": "bank", "layer": "last", field: PAYLOAD}
    with pytest.raises(gr.Error) as err:
        polysemy_tab.polysemy_api(values["word"], "a | the bank .\nb | a bank .", ["minilm"], True, values["layer"])
    assert "<svg" not in err.value.message and "javascript:" not in err.value.message.replace("&quot;", "")[:0] + ""
    if field == "word":
        assert "&lt;svg&gt;" in err.value.message  # "'<svg…>' occurs in none of the sentences", shown as text
    else:
        assert "svg" not in err.value.message  # the layer value is never echoed


# --- types, checked on the server ------------------------------------------------------------------------------------

# What every field refuses by its kind (a list or a number for a text, a lone surrogate, a text or a list too long, a
# string for the model list or the flag, NaN / ±inf / a fraction / -1 / True / None for a layer or dims, a list for
# a choice, a model of another kind) the one battery proves through /polysemy: tests/unit/core/test_api_bad_values.py.
# Here: the values of no such class, and polysemy's own codes.
BAD = [
    ("word", None, "polysemy_no_word"),
    ("sentences", ["a | the bank", "b | a bank"], "sentences"),
    ("sentences", "\n".join(["a | the bank ."] * 65), "polysemy_count"),
    ("models", [1, 2], "models"),
    ("models", [], "polysemy_no_models"),
    ("layer", "abc", "layer"),
    ("layer", "1.5", "layer"),
    ("pooling", "max", "pooling"),
    ("projection", "umap", "projection"),
    ("dims", 4, "dims"),
]
GOOD = dict(word="bank", sentences="a | the bank .\nb | a bank .", models=("minilm",))


@pytest.mark.parametrize("field,value,code", BAD)
def test_backend_refuses_wrong_types_before_loading(field, value, code):
    loads = []
    with pytest.raises(InputError) as err:
        run_polysemy(PolysemyRequest(**{**GOOD, field: value}), Runtime(load=loads.append))
    assert code in (err.value.code, err.value.params.get("name")) and loads == []  # a field validator names its field


def test_api_answers_a_wrong_type_with_the_clear_message(app_runtime):
    """The transport: /polysemy turns the backend's refusal into a gr.Error (every field and value class: the
    battery)."""
    app_runtime(lambda key: pytest.fail("no model may load"))
    with pytest.raises(gr.Error) as err:
        polysemy_tab.polysemy_api("bank", GOOD["sentences"], ["minilm"], True, "last", "max")
    assert err.value.message == "pooling must be one of: mean, first." and "upstream" not in err.value.message.lower()


# --- presets, example-set menu, share link ---------------------------------------------------------------------------


def test_presets_are_case_consistent_and_never_sentence_initial():
    for key, preset in presets.PRESETS.items():
        if preset.get("cross_lingual"):  # a word and its translations, each marked: see the next test
            continue
        for line in preset["sentences"]:
            target = parse_line(line, preset["word"])
            a, b = target.span
            assert target.text[a:b] == preset["word"], (key, line)  # the same spelling in every sentence
            assert preset["lang"] != "en" or (a > 0 and target.text[a - 1] == " "), (key, line)  # same token shape


def test_cross_lingual_presets_mark_the_word_or_its_translation_in_both_languages():
    for key, preset in presets.PRESETS.items():
        if not preset.get("cross_lingual"):
            continue
        words = [parse_line(line, preset["word"]) for line in preset["sentences"]]
        assert all("[[" in line for line in preset["sentences"]), key
        chinese = {w.label for w in words if is_cjk(w.text[w.span[0]])}
        english = {w.label for w in words if not is_cjk(w.text[w.span[0]])}
        assert chinese == english and len(chinese) == 2, key  # every sense in both languages


def test_chinese_presets_are_marked_when_no_available_model_reads_chinese(monkeypatch):
    monkeypatch.setattr(presets.availability, "available_specs", lambda *kinds: [get_spec("minilm")])
    labels = dict((v, k) for k, v in presets.preset_choices("en"))
    assert "no model here reads Chinese" in labels["yinhang"] and "no model" not in labels["bank"]
    assert "没有能读中文的模型" in dict((v, k) for k, v in presets.preset_choices("zh"))["pingguo"]
    chinese = replace(get_spec("minilm"), languages=("en", "zh"))
    monkeypatch.setattr(presets.availability, "available_specs", lambda *kinds: [chinese])
    assert all("no model" not in label for label, _ in presets.preset_choices("en"))


def test_the_example_set_menu_names_what_the_sentences_are():
    apple = presets.PRESETS["apple"]
    assert presets.preset_of(apple["word"], "\n".join(apple["sentences"])) == "apple"
    assert presets.preset_of("bank", "a | the bank .\nb | a bank .") == presets.CUSTOM


def test_every_input_is_in_the_link_and_a_link_runs_the_view():
    with gr.Blocks() as demo:
        lang = gr.Radio(["en", "zh"], value="en")
        shared = polysemy_tab.build_tab(UIContext(lang, Localizer()))
    assert set(shared.params) == {
        "example", "word", "sentences", "models", "input_embeddings", "layer", "pooling", "projection", "dims",
    }  # fmt: skip
    del demo
    (first,) = shared.run.steps  # a link runs the view in its own event (ui.common.links): the run's one handler
    assert shared.params["example"] in first.outputs  # the menu names the restored sentences
    layer = shared.params["layer"]
    assert {"7", "last"} <= {v for _, v in layer.choices}  # a deep layer from a link is a valid choice before any run


# --- translations of figure text --------------------------------------------------------------------------------------


def test_figure_text_is_translated():
    v = replace(view([0.5, 1.0]), model_label="MiniLM-L6 (bundled)", label="MiniLM-L6 (bundled)")
    rows = replace(v, source="input", key="m:input", label="MiniLM-L6 (bundled) · input embeddings")
    result = PolysemyRun("bank", "mean", "pca", 2, SENTENCES, [v, rows])
    text = str([f.to_dict()["layout"] for f in render.figures(result, "zh")]) + str(render.score_rows(result, "zh"))
    assert "第 1 层" in text and "输入嵌入" in text and "（内置）" in text
    for english in ("layer 1", "input embeddings", "(bundled)"):
        assert english not in text
    assert "**" not in render.reading(result, "zh")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_accuracy_reached_only_at_the_last_layer_is_not_worded_as_a_range(lang):
    """Issue 37 (low): "at least 90 % from layer 6 up to the last layer (6)" read as a range of one layer."""
    from playground.ui.polysemy import render as polysemy_render

    separates = polysemy_render.PANEL_LINES["separates"]
    only = separates({"layer": 6, "last": 6, "separation": 0.41, "dip": None}, "MiniLM", lang)
    assert ("only at the last layer (6)" if lang == "en" else "只在最后一层（第 6 层）") in only
    assert "up to the last layer" not in only and "到最后一层" not in only
    span = separates({"layer": 3, "last": 6, "separation": 0.41, "dip": None}, "MiniLM", lang)
    assert ("from layer 3 up to the last layer (6)" if lang == "en" else "从第 3 层到最后一层（第 6 层）") in span


def test_a_three_layer_curve_ticks_whole_layers_only(tiny_encoder):
    """Issue 37 (low): with ELMo's three layers (0-2) Plotly ticked the layer axis at 0.5 and 1.5, which name no layer.
    The tiny encoder has the same depth (embeddings + 2 layers)."""
    from playground.figures.polysemy import layer_curve_figure
    from playground.polysemy import PolysemyRequest, run_polysemy

    sentences = "money | the bank paid .\nmoney | the bank lent .\nriver | the bank was wet .\nriver | a muddy bank ."
    result = run_polysemy(PolysemyRequest("bank", sentences, ("bert",)), Runtime(load=lambda key, **kw: tiny_encoder))
    fig = layer_curve_figure(result)
    for axis in (fig.layout.xaxis, fig.layout.xaxis2):
        assert axis.dtick == 1 and axis.tick0 == 0


def test_a_short_training_curve_ticks_whole_steps_only():
    """The lab's loss curve over 4 steps was ticked at 0.5, 1.5, ... (the same Plotly default)."""
    from playground.figures.mlm_lab import loss_figure

    names = dict.fromkeys(("train", "held", "before", "loss", "lr", "step"), "x")
    fig = loss_figure([(1, 4.0), (2, 3.9)], [(0, 4.9), (4, 4.8)], 4.9, [1e-4] * 4, 2, names)
    assert fig.layout.xaxis.dtick == 1 and fig.layout.xaxis2.dtick == 1
    long = loss_figure([], [], None, [1e-4] * 600, 0, names)
    assert long.layout.xaxis.dtick == 100  # at most ten whole-number ticks
