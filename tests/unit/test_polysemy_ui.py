"""Polysemy figures, JSON payload, bilingual reading and exports, on tiny models."""

import csv
import json
from pathlib import Path

import gradio as gr
import numpy as np
import pytest

from playground import cache
from playground.alignment import parse_sentences
from playground.embeddings import PolysemyRequest, parse_layer, run_polysemy
from playground.errors import InputError
from playground.serialize import jsonable
from playground.figures.polysemy import highlighted, layer_curve_figure, scatter_figure, similarity_figure
from playground.ui import polysemy_render as render
from playground.ui import polysemy_tab
from playground.ui.i18n import Localizer, UIContext
from playground.ui.text import STRINGS

BANK = (
    "money | she put money in the bank .\nmoney | the bank paid .\n"
    "river | the river bank was muddy .\nriver | he sat on the bank ."
)


def run(lms, word, sentences, **options):
    by_key = {lm.spec.key: lm for lm in lms}
    cache.clear_all()  # vectors are cached by model key: start from the tiny models themselves
    return run_polysemy(PolysemyRequest(word, sentences, tuple(by_key), **options), load=by_key.__getitem__)


@pytest.fixture(scope="module")
def result(tiny_mlm, tiny_clm, tiny_glove):
    return run([tiny_mlm, tiny_clm, tiny_glove], "bank", BANK + "\nno word here")


def test_scatter_has_one_subplot_per_view_and_one_legend_entry_per_sense(result):
    fig = scatter_figure(result).to_dict()
    titles = [a for a in fig["layout"]["annotations"] if not a.get("showarrow")]
    assert len(titles) == len(result.models)  # subplot titles
    one_point = [a["text"] for a in fig["layout"]["annotations"] if a.get("showarrow")]
    static = [v for v in result.models if v.source != "contextual"]
    assert one_point == ["4 sentences, one point"] * len(static)  # a static table's 4 vectors are one dot: said so
    assert all(tr["type"] == "scatter" for tr in fig["data"])
    assert sorted(tr["name"] for tr in fig["data"] if tr["showlegend"]) == ["money", "river"]
    assert sum(len(tr["x"]) for tr in fig["data"]) == sum(len(v.rows) for v in result.models)


def test_scatter_3d(tiny_mlm):
    fig = scatter_figure(run([tiny_mlm], "bank", BANK, dims=3)).to_dict()
    assert {tr["type"] for tr in fig["data"]} == {"scatter3d"}


def test_heatmap_and_curve(result):
    heat = similarity_figure(result).to_dict()
    assert [tr["type"] for tr in heat["data"]] == ["heatmap"] * len(result.models)
    assert all(np.asarray(tr["z"]).shape == (4, 4) for tr in heat["data"])
    curve = layer_curve_figure(result, layer="L").to_dict()
    assert len(curve["data"]) == 2 * len(result.models)
    assert curve["layout"]["xaxis"]["title"]["text"] == "L"


def test_hover_highlights_the_target():
    (target,) = parse_sentences("bank", "a | the <i>x</i> & bank\nb | bank")[:1]
    assert highlighted(target) == "the &lt;i&gt;x&lt;/i&gt; &amp; <b>bank</b>"


def test_payload_is_plain_json(result):
    data = json.loads(json.dumps(jsonable(result), allow_nan=False))
    assert [m["key"] for m in data["models"]] == ["tiny-bert", "tiny-bert:input", "tiny-gpt2", "tiny-gpt2:input", "tiny-glove"]
    assert data["sentences"][-1]["span"] is None
    for m in data["models"]:
        assert len(m["coords"]) == len(m["rows"]) == len(m["similarity"]) == 4
        assert len(m["separation_by_layer"]) == m["num_layers"] + 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_reading_and_notes_in_both_languages(result, lang):
    text = render.reading(result, lang)
    assert STRINGS["polysemy.read_static"][lang == "zh"].format(model="tiny GloVe", n=4) in text  # the static baseline's line
    assert text != render.reading(result, "zh" if lang == "en" else "en")  # really translated
    assert ("只从左往右读" if lang == "zh" else "left to right") in text  # the causal model gets the left-context caveat
    assert "5" in render.notes(result, lang)  # sentence 5 lacks the word


def test_reading_without_labels(tiny_glove):
    assert render.reading(run([tiny_glove], "bank", "the bank\nthe bank again"), "en") == STRINGS["polysemy.read_no_labels"][0]


def test_exports(result):
    paths = render.exports(result, "en")
    vectors, scores, page, data = map(Path, paths)
    rows = list(csv.reader(vectors.open()))
    assert len(rows) == 1 + sum(len(v.rows) for v in result.models)
    assert len(list(csv.reader(scores.open()))) == 1 + sum(v.num_layers + 1 for v in result.models)
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
    assert parse_layer("last") is None and parse_layer("3") == 3 and parse_layer(3) == 3
    with pytest.raises(InputError):
        parse_layer("-2")


def test_tab_builds_with_a_public_endpoint():
    with gr.Blocks() as demo:
        lang = gr.Radio(["en", "zh"], value="en")
        params = polysemy_tab.build_tab(UIContext(lang, Localizer()))
    assert {"word", "sentences", "models", "layer"} <= set(params.params)
    public = {dep.api_name for dep in demo.fns.values() if dep.api_visibility != "private"}
    assert "polysemy" in public  # the JSON endpoint; the tab's own events stay private
    assert [dep.fn for dep in demo.fns.values() if dep.api_name == "polysemy"] == [polysemy_tab.polysemy_api]


def test_presets_are_valid():
    for key, preset in polysemy_tab.PRESETS.items():
        targets = parse_sentences(preset["word"], preset["sentences"])
        assert all(t.span is not None and t.label for t in targets), key
        assert len({t.label for t in targets}) == 2 and f"polysemy.preset.{key}" in STRINGS


def test_chinese_note_only_for_chinese_words_without_a_chinese_model(monkeypatch):
    monkeypatch.setattr(polysemy_tab.availability, "available_specs", lambda *kinds: [])
    assert "bert-chinese" in polysemy_tab._chinese_note("银行", "en")
    assert polysemy_tab._chinese_note("bank", "en") == ""
