"""Polysemy figures, JSON payload, bilingual reading and exports, on tiny models."""

import csv
import json
from pathlib import Path

import gradio as gr
import numpy as np
import pytest

from playground.alignment import parse_sentences
from playground.embeddings import compare_senses
from playground.errors import InputError
from playground.figures.polysemy import highlighted, layer_curve_figure, scatter_figure, similarity_figure
from playground.ui import polysemy_render as render
from playground.ui import polysemy_tab
from playground.ui.i18n import Localizer, UIContext
from playground.ui.text import STRINGS

BANK = (
    "money | she put money in the bank .\nmoney | the bank paid .\n"
    "river | the river bank was muddy .\nriver | he sat on the bank ."
)


@pytest.fixture(scope="module")
def result(tiny_mlm, tiny_clm, tiny_glove):
    targets = parse_sentences("bank", BANK + "\nno word here")
    return compare_senses([tiny_mlm, tiny_clm, tiny_glove], "bank", targets)


def test_scatter_has_one_subplot_per_view_and_one_legend_entry_per_sense(result):
    fig = scatter_figure(result).to_dict()
    assert len(fig["layout"]["annotations"]) == len(result.views)  # subplot titles
    assert all(tr["type"] == "scatter" for tr in fig["data"])
    assert sorted(tr["name"] for tr in fig["data"] if tr["showlegend"]) == ["money", "river"]
    assert sum(len(tr["x"]) for tr in fig["data"]) == sum(len(v.vectors.rows) for v in result.views)


def test_scatter_3d(tiny_mlm):
    targets = parse_sentences("bank", BANK)
    fig = scatter_figure(compare_senses([tiny_mlm], "bank", targets, dims=3)).to_dict()
    assert {tr["type"] for tr in fig["data"]} == {"scatter3d"}


def test_heatmap_and_curve(result):
    heat = similarity_figure(result).to_dict()
    assert [tr["type"] for tr in heat["data"]] == ["heatmap"] * len(result.views)
    assert all(np.asarray(tr["z"]).shape == (4, 4) for tr in heat["data"])
    curve = layer_curve_figure(result, layer="L").to_dict()
    assert len(curve["data"]) == 2 * len(result.views)
    assert curve["layout"]["xaxis"]["title"]["text"] == "L"


def test_hover_highlights_the_target():
    (target,) = parse_sentences("bank", "a | the <i>x</i> & bank\nb | bank")[:1]
    assert highlighted(target) == "the &lt;i&gt;x&lt;/i&gt; &amp; <b>bank</b>"


def test_payload_is_plain_json(result):
    data = json.loads(json.dumps(render.payload(result), allow_nan=False))
    assert [m["key"] for m in data["models"]] == ["tiny-bert", "tiny-bert:input", "tiny-gpt2", "tiny-gpt2:input", "tiny-glove"]
    assert data["sentences"][-1]["span"] is None
    for m in data["models"]:
        assert len(m["coords"]) == len(m["rows"]) == len(m["similarity"]) == 4
        assert len(m["separation_by_layer"]) == m["num_layers"] + 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_reading_and_notes_in_both_languages(result, lang):
    text = render.reading(result, lang)
    assert "tiny GloVe" in text and text == render.reading(result, lang)
    assert ("只从左往右读" if lang == "zh" else "left to right") in text  # the causal model gets the left-context caveat
    assert "5" in render.notes(result, lang)  # sentence 5 lacks the word


def test_reading_without_labels(tiny_glove):
    targets = parse_sentences("bank", "the bank\nthe bank again")
    assert render.reading(compare_senses([tiny_glove], "bank", targets), "en") == STRINGS["polysemy.read_no_labels"][0]


def test_exports(result):
    paths = render.exports(result, render.figures(result, "en"), render.payload(result))
    vectors, scores, page, data = map(Path, paths)
    rows = list(csv.reader(vectors.open()))
    assert len(rows) == 1 + sum(len(v.vectors.rows) for v in result.views)
    assert len(list(csv.reader(scores.open()))) == 1 + sum(len(v.separation) for v in result.views)
    assert page.read_text().count("plotly-graph-div") >= 3
    assert json.loads(data.read_text())["word"] == "bank"


def test_every_error_code_has_both_languages():
    source = Path(polysemy_tab.__file__).parents[1]
    codes = {
        line.split('"')[1]
        for f in ("alignment.py", "embeddings.py", "ui/polysemy_tab.py")
        for line in (source / f).read_text().split("InputError(")[1:]
    }
    assert codes and all(f"error.{c}" in STRINGS for c in codes)


def test_layer_parsing():
    assert polysemy_tab._layer("last") is None and polysemy_tab._layer("3") == 3
    with pytest.raises(InputError):
        polysemy_tab._layer("-2")


def test_tab_builds_with_a_public_endpoint():
    with gr.Blocks() as demo:
        lang = gr.Radio(["en", "zh"], value="en")
        params = polysemy_tab.build_tab(UIContext(lang, Localizer()))
    assert {"word", "sentences", "models", "layer"} <= set(params)
    names = [dep.api_name for dep in demo.fns.values()]
    assert "polysemy" in names


def test_presets_are_valid():
    for key, preset in polysemy_tab.PRESETS.items():
        targets = parse_sentences(preset["word"], preset["sentences"])
        assert all(t.span is not None and t.label for t in targets), key
        assert len({t.label for t in targets}) == 2 and f"polysemy.preset.{key}" in STRINGS


def test_chinese_note_only_for_chinese_words_without_a_chinese_model(monkeypatch):
    monkeypatch.setattr(polysemy_tab.availability, "available_specs", lambda *kinds: [])
    assert "bert-chinese" in polysemy_tab._chinese_note("银行", "en")
    assert polysemy_tab._chinese_note("bank", "en") == ""
