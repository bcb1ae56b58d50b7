"""ELMo tab renderer: readings follow the numbers, in both languages; user text is inert."""

from dataclasses import replace

import numpy as np

from playground.elmo.views import ElmoMixResult
from playground.ui.elmo import render


def _mix(weights, mix_sep, layer_sep=(0.0, 0.02, 0.03), word="bank"):
    n = 4
    return ElmoMixResult(
        model_id="m",
        word=word,
        labels=("a", "a", "b", "b"),
        sentences=("s1", "s2", "s3", "s4"),
        raw_weights=(0.0, 0.0, 0.0),
        weights=weights,
        gamma=1.0,
        points=np.zeros((n, 2), np.float32),
        layer_points=np.zeros((3, n, 2), np.float32),
        layer_separation=layer_sep,
        mix_separation=mix_sep,
        in_vocab=True,
        layer_vectors=np.zeros((3, n, 4), np.float32),
        mixed_vectors=np.zeros((n, 4), np.float32),
    )


def test_mix_reading_reports_the_change_and_the_best_layer():
    before = _mix((1 / 3, 1 / 3, 1 / 3), 0.02)
    after = _mix((0.1, 0.1, 0.8), 0.028)
    en = render.mix_reading(after, before, "en")
    assert "+0.020 to +0.028" in en and "further apart" in en and "layer 2 separates" in en and "(+0.030)" in en
    assert "below 0.05" in en  # weak model: said, from the numbers
    zh = render.mix_reading(after, before, "zh")
    assert "+0.020" in zh and "第 2 层" in zh
    strong = replace(after, layer_separation=(0.0, 0.1, 0.2), mix_separation=0.15)
    assert "below 0.05" not in render.mix_reading(strong, None, "en")


def test_same_weights_or_other_sentences_say_nothing_about_a_change():
    a = _mix((1 / 3, 1 / 3, 1 / 3), 0.02)
    assert "previous" not in render.mix_reading(a, a, "en")
    assert "previous" not in render.mix_reading(a, replace(a, sentences=("x",) * 4, weights=(1, 0, 0)), "en")


def test_a_markdown_word_is_shown_not_obeyed():
    r = _mix((1 / 3, 1 / 3, 1 / 3), 0.02, word="**<b>x</b>**")
    text = render.mix_reading(replace(r, in_vocab=False), None, "en")
    assert "<b>" not in text and "\\*\\*" in text


def test_layer_0_is_never_the_best_layer_it_is_the_tie_value():
    """Layer 0 is context-free: the same vector in every sentence, separation 0 by construction (issue 19)."""
    contextual_worse = _mix((1 / 3, 1 / 3, 1 / 3), -0.01, layer_sep=(0.0, -0.02, -0.01))
    for lang in ("en", "zh"):
        text = render.mix_reading(contextual_worse, None, lang)
        assert ("not a win for layer 0" if lang == "en" else "不是第 0 层胜出") in text
        assert ("layer 0 separates" not in text) and "最能区分" not in text
    better = _mix((1 / 3, 1 / 3, 1 / 3), 0.02, layer_sep=(0.0, 0.05, 0.01))
    assert "layer 1 separates" in render.mix_reading(better, None, "en") and "tie value" in render.mix_reading(better, None, "en")


def test_the_preset_radio_names_what_the_sliders_are():
    from playground.ui.elmo import tab

    assert tab.preset_of(0, 0, 2.0) == "semantics" and tab.preset_of(0, 0, 0) == "equal"
    assert tab.preset_of(0.0, 0.0, 1.5) == "custom"  # never "equal" beside other weights
