"""Chinese in polysemy: the same-sense reading for 银行 and the cross-lingual cosines (backend readings, worded by the
renderer), a Chinese reader picked by the tab."""

from dataclasses import replace

import numpy as np

from playground.runtime import Runtime
from playground.polysemy import PolysemyRequest, run_polysemy
from playground.registry import get_spec
from playground.polysemy import readings
from playground.ui.polysemy import render
from playground.ui.polysemy import presets


def run_preset(key, tiny_encoder):
    preset = presets.PRESETS[key]
    request = PolysemyRequest(preset["word"], tuple(preset["sentences"]), ("minilm",), input_embeddings=False)
    return run_polysemy(request, Runtime(load=lambda _key: tiny_encoder))


def test_the_yinhang_reading_says_both_groups_are_the_institution(tiny_encoder):
    result = run_preset("yinhang", tiny_encoder)
    assert [r.params for r in result.readings if r.code == "same_sense"] == [{"preset": "yinhang"}]  # in the API's JSON
    note = render.reading(result, "en")
    assert "the institution" in note and "not two senses" in note
    assert "金融机构" in render.reading(result, "zh")
    assert not [r for r in run_preset("pingguo", tiny_encoder).readings if r.code == "same_sense"]  # two real senses


def test_the_cross_lingual_reading_averages_zh_en_pairs_by_sense(tiny_encoder):
    result = run_preset("apple-pingguo", tiny_encoder)
    (view,) = result.models
    by_index = {s.index: s for s in result.sentences}
    zh = [k for k, i in enumerate(view.rows) if by_index[i].text[by_index[i].span[0]] in "苹"]
    labels = [by_index[i].label for i in view.rows]
    sim = np.zeros_like(view.similarity)
    for a in zh:  # zh-en pairs: 0.9 when the sense agrees, 0.2 when not; zh-zh and en-en pairs never count
        for b in range(len(view.rows)):
            if b not in zh:
                sim[a, b] = sim[b, a] = 0.9 if labels[a] == labels[b] else 0.2
    reading = readings.cross_lingual(result.sentences, replace(view, similarity=sim))
    assert reading.params == {"layer": view.layer, "same": 0.9, "cross": 0.2, "closer": True}
    note = render.reading(replace(result, readings=(reading,)), "en")
    assert "**0.900**" in note and "**0.200**" in note and "is closer" in note
    flipped = readings.cross_lingual(result.sentences, replace(view, similarity=1.1 - sim))
    assert not flipped.params["closer"] and "并没有更近" in render.reading(replace(result, readings=(flipped,)), "zh")


def test_no_cross_lingual_reading_for_one_language(tiny_encoder):
    assert not [r for r in run_preset("pingguo", tiny_encoder).readings if r.code == "cross_lingual"]


def test_a_chinese_preset_adds_a_chinese_reader_when_none_is_chosen(monkeypatch):
    specs = [get_spec("minilm"), get_spec("e5-small"), get_spec("glove")]
    monkeypatch.setattr(presets.availability, "available_specs", lambda *kinds: specs)
    assert presets.chinese_models(["minilm", "glove"]) == ["minilm", "glove", "e5-small"]
    assert presets.chinese_models(["e5-small"]) == presets.gr.update()  # already reads Chinese: unchanged
    monkeypatch.setattr(presets.availability, "available_specs", lambda *kinds: specs[:1])
    assert presets.chinese_models(["minilm"]) == presets.gr.update()  # nothing here reads Chinese


def test_the_chinese_reader_added_is_an_encoder_before_a_left_to_right_model(monkeypatch):
    """The registry lists the classroom GPT (causal) before e5-small: the 打 preset got gpt-zh, whose vector of 打
    cannot see the 电话 after it."""
    specs = [get_spec("minilm"), get_spec("gpt-zh"), get_spec("e5-small")]
    monkeypatch.setattr(presets.availability, "available_specs", lambda *kinds: specs)
    assert presets.chinese_models(["minilm"]) == ["minilm", "e5-small"]


def test_a_chinese_word_and_a_model_not_trained_on_it_is_a_note_of_the_run(tiny_encoder):
    result = run_preset("yinhang", tiny_encoder)
    label = get_spec("minilm").label  # the allow-listed model asked for (the note is known before anything loads)
    assert [(n.code, n.params) for n in result.notes] == [("not_chinese", {"models": [label]})]
    (en,), (zh,) = render.run_warnings(result, "en"), render.run_warnings(result, "zh")
    assert en.startswith(f"{label} was not trained on Chinese: ") and "没有用中文训练" in zh  # common.not_chinese
    assert run_preset("bank", tiny_encoder).notes == ()
