"""Polysemy figures, JSON payload, bilingual reading and exports, on tiny models."""

import csv
import json
from pathlib import Path

import gradio as gr
import numpy as np
import pytest

from playground.alignment import parse_sentences
from playground.runtime import Runtime
from playground.polysemy import PolysemyRequest, parse_layer, run_polysemy
from playground.errors import InputError
from playground.serialize import jsonable
from playground.figures.polysemy import highlighted, layer_curve_figure, scatter_figure, similarity_figure
from playground.ui.polysemy import render
from playground.ui.polysemy import presets
from playground.ui.polysemy import tab as polysemy_tab
from playground.ui.common.i18n import Localizer, UIContext
from playground.ui.common.strings import STRINGS

BANK = (
    "money | she put money in the bank .\nmoney | the bank paid .\n"
    "river | the river bank was muddy .\nriver | he sat on the bank ."
)


def run(lms, word, sentences, **options):
    by_key = {lm.spec.key: lm for lm in lms}
    return run_polysemy(PolysemyRequest(word, sentences, tuple(by_key), **options), Runtime(load=by_key.__getitem__))


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
    source = Path(polysemy_tab.__file__).parents[2]
    codes = {
        line.split('"')[1]
        for f in ("alignment.py", "polysemy/__init__.py", "ui/polysemy/tab.py")
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
    for key, preset in presets.PRESETS.items():
        targets = parse_sentences(preset["word"], preset["sentences"])
        assert all(t.span is not None and t.label for t in targets), key
        assert len({t.label for t in targets}) == 2 and f"polysemy.preset.{key}" in STRINGS


def test_chinese_note_only_for_chinese_words_without_a_chinese_model(monkeypatch):
    monkeypatch.setattr(presets.availability, "available_specs", lambda *kinds: [])
    assert "bert-chinese" in presets._chinese_note("银行", "en")
    assert presets._chinese_note("bank", "en") == ""


LONG_TITLES = [  # the longest panel titles the app makes (ELMo's label and its input-embedding row), 5 panels: 2 rows
    "MiniLM-L6<br><sup>layer 6</sup>",
    "MiniLM-L6 · input embeddings",
    "ELMo small (trained here, classroom model)<br><sup>layer 2</sup>",
    "ELMo small (trained here, classroom model) · input embeddings",
    "GloVe 6B 50d",
]


def _row_gap_px(fig: dict) -> float:
    """Pixels between the first row's panels and the second's, in the figure as laid out at its own height."""
    layout = fig["layout"]
    area = layout["height"] - layout["margin"]["t"] - layout["margin"]["b"]
    spans = {
        tuple(a["domain"]["y"] if k.startswith("scene") else a["domain"])
        for k, a in layout.items()
        if k[:5] in ("yaxis", "scene") and "domain" in a
    }
    (_, first_bottom), (second_top, _) = sorted(((top, bottom) for bottom, top in spans), reverse=True)[:2]
    return (first_bottom - second_top) * area


def test_a_second_row_of_panels_leaves_room_for_its_titles_and_the_ticks_above(tiny_mlm, tiny_clm, tiny_glove):
    """The second row's wrapped titles overlapped the first row's slanted tick labels (exercise 1, English)."""
    from playground.figures.common import PAGE_FONT, title_height, text_width

    result = run([tiny_mlm, tiny_clm, tiny_glove], "bank", BANK)
    assert len(result.models) == len(LONG_TITLES)
    heat = similarity_figure(result, titles=LONG_TITLES).to_dict()
    ticks = [a for k, a in heat["layout"].items() if k.startswith("xaxis")]
    labels = [label for trace in heat["data"] for label in trace["x"]]
    angle = ticks[0].get("tickangle") or 0
    depth = 1.25 * PAGE_FONT if angle == 0 else max(text_width(x) for x in labels) * abs(np.sin(np.radians(angle)))
    assert _row_gap_px(heat) >= depth + title_height(LONG_TITLES[3])  # projector-size ticks, then the wrapped title
    assert angle in (0, -90)  # upright or turned: slanted labels' boxes reach into the next row
    for lm_dims in (2, 3):
        scatter = scatter_figure(run([tiny_mlm, tiny_clm, tiny_glove], "bank", BANK, dims=lm_dims), titles=LONG_TITLES)
        assert _row_gap_px(scatter.to_dict()) >= title_height(LONG_TITLES[3])


def test_3d_panels_stand_back_and_show_no_meaningless_ticks(tiny_mlm, tiny_glove):
    """plotly's default camera (1.25, 1.25, 1.25) cut the cube's corners and labels at its panel's edges."""
    fig = scatter_figure(run([tiny_mlm, tiny_glove], "bank", BANK, dims=3)).to_dict()
    scenes = [v for k, v in fig["layout"].items() if k.startswith("scene")]
    assert len(scenes) == 3
    for scene in scenes:
        eye = scene["camera"]["eye"]
        assert np.linalg.norm([eye["x"], eye["y"], eye["z"]]) > np.linalg.norm([1.25] * 3)
        assert all(scene[axis]["showticklabels"] is False for axis in ("xaxis", "yaxis", "zaxis"))
