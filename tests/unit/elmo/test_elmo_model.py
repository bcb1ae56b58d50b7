"""Invariants of the ELMo backend on a tiny random model built in-test."""

import numpy as np
import pytest
import torch

from playground.elmo import (
    ElmoBiLm,
    ElmoModel,
    bilm_predictions,
    bilm_predictions_batch,
    embed,
    load_elmo,
    save_weights,
)
from tests.tiny_models import tiny_elmo_options

VOCAB = ("<S>", "</S>", "<UNK>", "the", "river", "bank", "money", "a", "flows")
OPTS = tiny_elmo_options(activation="tanh", lstm_dim=12, projection_dim=6)


@pytest.fixture(scope="module")
def tiny():
    torch.manual_seed(0)
    module = ElmoBiLm(OPTS, vocab_size=len(VOCAB)).eval()
    return ElmoModel(name="tiny", module=module, options=OPTS, vocab=VOCAB)


def test_shapes_and_layer0_is_duplicated(tiny):
    out = embed(tiny, [["the", "bank"], ["a", "river", "bank", "flows"]])
    assert [v.shape for v in out.vectors] == [(3, 2, 12), (3, 4, 12)]
    assert out.tokens[1] == ("a", "river", "bank", "flows")
    v = out.vectors[1]
    np.testing.assert_array_equal(v[0, :, :6], v[0, :, 6:])
    assert np.all(np.isfinite(np.stack([x for x in out.vectors[1]])))


def test_padding_does_not_change_a_sentence(tiny):
    alone = embed(tiny, [["the", "bank"]]).vectors[0]
    batched = embed(tiny, [["a", "river", "bank", "flows", "the", "money"], ["the", "bank"]]).vectors[1]
    np.testing.assert_allclose(alone, batched, atol=1e-6)
    small_batches = embed(tiny, [["a", "river", "bank", "flows"], ["the", "bank"]], batch_size=1).vectors[1]
    np.testing.assert_allclose(alone, small_batches, atol=1e-6)


def test_layer0_context_free_and_lstm_layers_contextual(tiny):
    out = embed(tiny, [["the", "river", "bank"], ["money", "bank"]])
    a, b = out.vectors[0][:, 2], out.vectors[1][:, 1]
    np.testing.assert_allclose(a[0], b[0], atol=1e-6)
    assert not np.allclose(a[1], b[1]) and not np.allclose(a[2], b[2])


def test_directions_are_separate(tiny):
    # Changing the last word cannot change the forward LSTM at earlier positions,
    # nor the backward LSTM after the change: each direction sees one side only.
    x = embed(tiny, [["the", "river", "bank"], ["the", "river", "money"]]).vectors
    d = OPTS.projection_dim
    np.testing.assert_allclose(x[0][1:, :2, :d], x[1][1:, :2, :d], atol=1e-6)
    assert not np.allclose(x[0][1:, :2, d:], x[1][1:, :2, d:])


def test_save_load_roundtrip(tiny, tmp_path):
    import json

    save_weights(tiny.module, tmp_path / "w.hdf5")
    (tmp_path / "o.json").write_text(json.dumps(OPTS.to_dict()))
    (tmp_path / "v.txt").write_text("\n".join(VOCAB) + "\n")
    again = load_elmo(tmp_path / "o.json", tmp_path / "w.hdf5", tmp_path / "v.txt")
    assert again.vocab == VOCAB and again.options == OPTS
    s = [["a", "river", "bank", "flows"]]
    np.testing.assert_allclose(embed(again, s).vectors[0], embed(tiny, s).vectors[0], atol=1e-6)
    no_vocab = load_elmo(tmp_path / "o.json", tmp_path / "w.hdf5")
    assert not no_vocab.has_softmax


def test_bilm_predictions(tiny):
    p = bilm_predictions(tiny, ["the", "river", "playgroundy"], top_k=3)
    assert [t.token for t in p.positions] == ["the", "river", "playgroundy"]
    assert [t.in_vocab for t in p.positions] == [True, True, False]
    for t in p.positions:
        for d in (t.forward, t.backward):
            assert len(d.words) == 3 and list(d.probs) == sorted(d.probs, reverse=True)
            assert 0 < d.actual_prob <= 1 and all(w in VOCAB for w in d.words)
    top1 = bilm_predictions(tiny, ["the", "river"], top_k=1).positions[0]
    assert top1.forward.probs[0] == max(p.positions[0].forward.probs)
    batch = bilm_predictions_batch(tiny, [["the", "river", "playgroundy"], ["bank"]], top_k=3)
    assert batch[0].positions[2].forward.actual_prob == pytest.approx(p.positions[2].forward.actual_prob, abs=1e-6)


def test_no_softmax_is_a_clear_error(tiny):
    bare = ElmoModel(name="published", module=ElmoBiLm(OPTS).eval(), options=OPTS)
    with pytest.raises(ValueError, match="no word softmax"):
        bilm_predictions(bare, ["the", "bank"])


@pytest.mark.parametrize("bad", [[], "the bank", [[]], [["the", ""]], [["ok"], "str"]])
def test_bad_input_is_a_value_error(tiny, bad):
    with pytest.raises(ValueError):
        embed(tiny, bad)
