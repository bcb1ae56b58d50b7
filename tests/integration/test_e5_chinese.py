"""Chinese on the bundled multilingual-E5 small, offline: real senses separate, attention reads real pieces,
a word and its translation share one space."""

import numpy as np
import pytest

from playground import models
from playground.attention import AttentionText, extract_attention
from playground.polysemy import PolysemyRequest, run_polysemy
from playground.ui.polysemy import render
from playground.ui.polysemy import presets
from playground.runtime import Runtime

RUNTIME = Runtime()  # the one load path, bundled models; its caches are this module's own


@pytest.fixture(scope="module")
def e5():
    return models.load("e5-small")


def view_of(key, e5):
    preset = presets.PRESETS[key]
    request = PolysemyRequest(preset["word"], tuple(preset["sentences"]), ("e5-small",), input_embeddings=False)
    (view,) = run_polysemy(request, RUNTIME).models
    return view


REAL_SENSES = ["pingguo", "da", "hua", "xing", "dian"]  # with their HSK sentences (issue 36 item 5)


@pytest.mark.parametrize("key", REAL_SENSES)
def test_two_real_senses_separate_at_the_last_layer(e5, key):
    """At least the reading's 90 % (readings.py): with the everyday HSK sentences added, 苹果 and 打 each have one
    sentence whose nearest neighbour is of the other sense (0.91, 0.94 measured), 花, 行 and 点 none."""
    view = view_of(key, e5)
    assert view.layer == view.num_layers == 12 and not view.notes
    assert view.separation > 0 and view.nn_accuracy_by_layer[-1] >= 0.9


def test_yinhang_groups_separate_less_than_real_senses(e5):
    """存钱 / 散步 are one sense of 银行: the context moves the vectors, but less than two real senses do. Separation,
    not nearest-neighbour accuracy: each group's sentences share their activity words (换钱, 贷款 / 散步), so a
    neighbour is usually of the same group (0.92 measured, as high as 苹果's 0.91), while the gap between the groups'
    mean cosines stays a fraction of a real sense's."""
    yinhang = view_of("yinhang", e5).separation
    assert all(yinhang < view_of(key, e5).separation / 2 for key in REAL_SENSES)


def test_yinhang_reading_on_e5_says_one_sense_in_chinese(e5):
    """The course's 银行 sentences on e5 (a Chinese-reading model): the zh reading says both are the institution
    (金融机构), with no unknown-token warning and no [UNK]."""
    preset = presets.PRESETS["yinhang"]
    request = PolysemyRequest(preset["word"], tuple(preset["sentences"]), ("e5-small",), input_embeddings=False)
    reading = render.reading(run_polysemy(request, RUNTIME), "zh")
    assert "金融机构" in reading and "⚠️" not in reading and "[UNK]" not in reading, reading


def test_attention_on_chinese_reads_real_pieces(e5):
    (result,) = extract_attention(e5, [AttentionText("我在银行存钱，然后去公园散步。")])
    assert "<unk>" not in result.tokens and "银行" in result.tokens
    np.testing.assert_allclose(result.attentions.sum(-1), 1, atol=1e-4)


@pytest.mark.parametrize("key", ["bank-yinhang", "apple-pingguo"])
def test_a_translation_of_the_same_sense_is_closer_than_one_of_the_other_sense(e5, key):
    preset = presets.PRESETS[key]
    result = run_polysemy(
        PolysemyRequest(preset["word"], tuple(preset["sentences"]), ("e5-small",), input_embeddings=False), RUNTIME
    )
    (reading,) = [r for r in result.readings if r.code == "cross_lingual"]  # what /polysemy returns
    assert reading.params["closer"] and reading.params["same"] > reading.params["cross"], reading
    note = render.reading(result, "en")
    assert "across languages" in note and "the translation with the same sense is closer" in note, note
