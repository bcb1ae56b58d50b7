"""Polysemy on the bundled real weights (offline): MiniLM separates the senses of "bank", GloVe cannot."""

import json
from pathlib import Path

import numpy as np
import pytest

from playground.alignment import parse_line, parse_sentences
from playground.polysemy import PolysemyRequest, contextual_vectors, run_polysemy
from playground.runtime import Runtime

RUNTIME = Runtime()  # the one load path, bundled models; its caches are this module's own

PRESETS = json.loads((Path(__file__).parents[2] / "assets" / "polysemy" / "presets.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def bank(minilm, glove):
    preset = PRESETS["bank"]
    run = run_polysemy(PolysemyRequest(preset["word"], tuple(preset["sentences"]), ("minilm", "glove")), RUNTIME)
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
    (view,) = run_polysemy(request, RUNTIME).models
    assert np.nanmax(view.separation_by_layer) > 0


def test_chinese_runs_on_an_english_model_without_crashing(minilm):
    preset = PRESETS["yinhang"]
    targets = parse_sentences(preset["word"], preset["sentences"])
    (view, _) = run_polysemy(PolysemyRequest(preset["word"], tuple(preset["sentences"]), ("minilm",)), RUNTIME).models
    assert len(view.rows) == len(targets)


def test_causal_model_sees_only_the_left_context(smollm):
    left = [parse_line("He sat on the bank of the river.", "bank"), parse_line("He sat on the bank of the money.", "bank")]
    vectors, _ = contextual_vectors(smollm, left)
    assert np.allclose(vectors.layers[-1][0], vectors.layers[-1][1], atol=1e-3)


def test_minilm_says_chinese_is_unknown_and_the_inputs_identical(minilm):
    """MiniLM reads 银/存/钱/散/步 as [UNK]: 我在银行存钱 and 我在银行散步 are one input, and the reading says so."""
    from playground.ui.polysemy import render

    preset = PRESETS["yinhang"]
    run = run_polysemy(PolysemyRequest(preset["word"], tuple(preset["sentences"]), ("minilm",)), RUNTIME)
    contextual = run.models[0]
    notes = {n.code: n.params for n in contextual.notes}
    assert notes["unknown_word"]["token"] == "[UNK]" and len(notes["unknown_word"]["rows"]) == len(preset["sentences"])
    rows = [line.split(" | ")[1] for line in preset["sentences"]]
    same = [rows.index("我在银行存钱。") + 1, rows.index("我在银行散步。") + 1]  # 1-based, as the page numbers them
    assert same in notes["same_input"]["groups"]  # 我在银行存钱。 = 我在银行散步。 for this tokenizer
    text = render.reading(run, "en")
    assert text.startswith("⚠️") and "\\[UNK\\]" in text and "90%" not in text
    scatter = render.figures(run, "en")[0].to_json()  # the scatter says the identical inputs are one point
    assert "sentences, one point" in scatter


@pytest.mark.parametrize("key", ["minilm", "smollm2-instruct"])
def test_english_presets_give_the_word_one_tokenization_per_model(key):
    """Case-consistent presets: the static input rows cannot tell the senses by spelling (Apple vs apple)."""
    from playground import models

    tok = models.load_tokenizer(key)
    for name, preset in PRESETS.items():
        if preset["lang"] != "en":
            continue
        pieces = set()
        for target in parse_sentences(preset["word"], preset["sentences"]):
            enc = tok(target.text, return_offsets_mapping=True)
            a, b = target.span
            pieces.add(tuple(i for i, (s, e) in zip(enc["input_ids"], enc["offset_mapping"]) if e > s and s < b and e > a))
        assert len(pieces) == 1, (key, name, pieces)
