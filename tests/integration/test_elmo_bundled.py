"""The small ELMo shipped in assets/elmo/ (trained by scripts/train_elmo.py on WordNet glosses)."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

from playground.elmo import bilm_predictions_batch, embed, load_bundled

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "elmo" / "bundled_heldout.json"


@pytest.fixture(scope="module")
def elmo():
    return load_bundled()


def test_weights_are_small_and_in_the_published_layout(elmo):
    from playground.elmo import BUNDLED_DIR

    size = sum(p.stat().st_size for p in BUNDLED_DIR.iterdir() if p.is_file())
    assert size < 20 * 2**20
    assert elmo.has_softmax and elmo.vocab[:3] == ("<S>", "</S>", "<UNK>")


def test_heldout_perplexity_beats_unigram_in_both_directions(elmo):
    data = json.loads(FIX.read_text())
    sentences = [s.split() for s in data["sentences"]]
    preds = bilm_predictions_batch(elmo, sentences, top_k=1)
    fwd = [math.log(t.forward.actual_prob) for p in preds for t in p.positions]
    bwd = [math.log(t.backward.actual_prob) for p in preds for t in p.positions]
    assert len(fwd) == data["n_words"]
    ppl_f, ppl_b = math.exp(-np.mean(fwd)), math.exp(-np.mean(bwd))
    assert math.isfinite(ppl_f) and math.isfinite(ppl_b)
    assert ppl_f < data["unigram_perplexity_words"]
    assert ppl_b < data["unigram_perplexity_words"]


def test_oov_word_embeds_to_finite_vectors(elmo):
    out = embed(elmo, [["the", "playgroundy", "river"]])
    assert "playgroundy" not in elmo.vocab
    assert np.all(np.isfinite(out.vectors[0])) and np.linalg.norm(out.vectors[0][:, 1], axis=-1).min() > 0


def test_layer0_is_context_free_and_lstm_layers_are_not(elmo):
    out = embed(elmo, [["he", "sat", "on", "the", "bank", "of", "the", "river"], ["the", "bank", "lent", "him", "money"]])
    a, b = out.vectors[0][:, 4], out.vectors[1][:, 1]
    np.testing.assert_allclose(a[0], b[0], atol=1e-6)
    assert not np.allclose(a[1], b[1], atol=1e-3)
    assert not np.allclose(a[2], b[2], atol=1e-3)


def test_predictions_are_probabilities(elmo):
    p = bilm_predictions_batch(elmo, [["a", "body", "of", "water"]], top_k=5)[0]
    for t in p.positions:
        for d in (t.forward, t.backward):
            assert len(d.words) == 5 and 0 < sum(d.probs) <= 1 + 1e-6 and 0 < d.actual_prob <= 1
