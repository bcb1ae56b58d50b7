"""Polysemy on the bundled real weights (offline): MiniLM separates the senses of "bank", GloVe cannot."""

import json
from pathlib import Path

import numpy as np
import pytest

from playground.alignment import parse_line, parse_sentences
from playground.embeddings import PolysemyRequest, contextual_vectors, run_polysemy

PRESETS = json.loads((Path(__file__).parents[2] / "assets" / "polysemy" / "presets.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def bank(minilm, glove):
    preset = PRESETS["bank"]
    run = run_polysemy(PolysemyRequest(preset["word"], tuple(preset["sentences"]), ("minilm", "glove")))
    return {v.key: v for v in run.models}


def test_minilm_separates_bank_at_the_last_layer(bank):
    last = bank["minilm"]
    assert last.layer == last.num_layers == len(last.separation_by_layer) - 1 == 6
    assert last.separation == last.separation_by_layer[-1] > 0
    assert last.nn_accuracy_by_layer[-1] > bank["glove"].nn_accuracy


def test_static_baselines_score_zero(bank):
    for key in ("glove", "minilm:input"):
        assert bank[key].separation == pytest.approx(0.0, abs=1e-6)
        assert np.allclose(bank[key].similarity, 1.0, atol=1e-5)


@pytest.mark.parametrize("key", ["apple", "run"])
def test_other_english_presets_separate_somewhere(minilm, key):
    preset = PRESETS[key]
    request = PolysemyRequest(preset["word"], tuple(preset["sentences"]), ("minilm",), input_embeddings=False)
    (view,) = run_polysemy(request).models
    assert np.nanmax(view.separation_by_layer) > 0


def test_chinese_runs_on_an_english_model_without_crashing(minilm):
    preset = PRESETS["yinhang"]
    targets = parse_sentences(preset["word"], preset["sentences"])
    (view, _) = run_polysemy(PolysemyRequest(preset["word"], tuple(preset["sentences"]), ("minilm",))).models
    assert len(view.rows) == len(targets)


def test_causal_model_sees_only_the_left_context(smollm):
    left = [parse_line("He sat on the bank of the river.", "bank"), parse_line("He sat on the bank of the money.", "bank")]
    vectors, _ = contextual_vectors(smollm, left)
    assert np.allclose(vectors.layers[-1][0], vectors.layers[-1][1], atol=1e-3)
