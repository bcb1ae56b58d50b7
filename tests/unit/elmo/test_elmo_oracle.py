"""Our ELMo against AllenNLP's own test fixture (tests/fixtures/elmo, Apache-2.0, see NOTICE).

The reference files were written by the original implementation:
lm_embeddings_k.hdf5 holds, for sentence i of sentences.json[k] (str.split()
tokens), the top layer as (2 directions, tokens, projection_dim);
elmo_token_embeddings.hdf5 holds the context-free token vectors of
vocab_test.txt, in file order.

The original LSTM was *stateful*: batch i held [sentences[0][i],
sentences[1][i], sentences[2][i]] and each row started from the final LSTM
state of the same row in batch i - 1. Our public API is stateless on purpose,
so batch 0 is compared through embed() directly, and the later batches by
replaying the carry-over through the model's optional initial states.
"""

import json
from pathlib import Path

import h5py
import numpy as np
import pytest
import torch

from playground.elmo import batch_char_ids, embed, load_elmo

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "elmo"
ATOL = 1e-5


@pytest.fixture(scope="module")
def elmo():
    return load_elmo(FIX / "options.json", FIX / "lm_weights.hdf5")


@pytest.fixture(scope="module")
def sentences():
    return json.loads((FIX / "sentences.json").read_text())


def _reference(k):
    with h5py.File(FIX / f"lm_embeddings_{k}.hdf5", "r") as f:
        return [f[str(i)][...] for i in range(len(f.keys()))]


def test_fixture_layout(sentences):
    assert [len(b) for b in sentences] == [10, 10, 10]
    for k in range(3):
        for i, ref in enumerate(_reference(k)):
            assert ref.shape == (2, len(sentences[k][i].split()), 16) and ref.dtype == np.float32


def test_first_batch_through_public_api(elmo, sentences):
    """No carried state yet: embed() must reproduce the top layer, both directions."""
    out = embed(elmo, [sentences[k][0].split() for k in range(3)])
    for k in range(3):
        ref = _reference(k)[0]
        top = out.vectors[k][2]
        np.testing.assert_allclose(top[:, :16], ref[0], atol=ATOL)
        np.testing.assert_allclose(top[:, 16:], ref[1], atol=ATOL)


def test_every_batch_with_the_original_state_carry_over(elmo, sentences):
    refs = [_reference(k) for k in range(3)]
    module = elmo.module
    states = module.zero_states(3)
    with torch.no_grad():
        for i in range(10):
            batch = [sentences[k][i].split() for k in range(3)]
            tokens, mask = module.char_cnn(torch.from_numpy(batch_char_ids(batch)))
            layers, states = module.lstm(tokens, mask, states=states)
            fwd, bwd = layers[-1]
            for k in range(3):
                n = len(batch[k])
                np.testing.assert_allclose(fwd[k, 1 : n + 1].numpy(), refs[k][i][0], atol=ATOL)
                np.testing.assert_allclose(bwd[k, 1 : n + 1].numpy(), refs[k][i][1], atol=ATOL)


def test_context_free_token_embeddings(elmo):
    words = (FIX / "vocab_test.txt").read_text().strip().split("\n")
    with h5py.File(FIX / "elmo_token_embeddings.hdf5", "r") as f:
        ref = f["embedding"][...]
    assert ref.shape == (len(words), 16)
    out = embed(elmo, [words])  # layer 0 is context-free, so one long "sentence" is fine
    layer0 = out.vectors[0][0]
    np.testing.assert_allclose(layer0[:, :16], ref, atol=ATOL)


def test_published_files_have_no_softmax(elmo):
    from playground.elmo import bilm_predictions

    with pytest.raises(ValueError, match="no word softmax"):
        bilm_predictions(elmo, ["The", "bank"])


def test_highway_gate_is_the_carry_matrix(elmo):
    """Swapping which stored matrix gates the highway must break the match: the oracle pins it."""
    import copy

    words = (FIX / "vocab_test.txt").read_text().strip().split("\n")[:50]
    with h5py.File(FIX / "elmo_token_embeddings.hdf5", "r") as f:
        ref = f["embedding"][:50]
    swapped = copy.deepcopy(elmo.module)
    for hw in swapped.char_cnn.highways:
        hw.transform, hw.carry = hw.carry, hw.transform
    with torch.no_grad():
        ours = elmo.module.char_cnn(torch.from_numpy(batch_char_ids([words], add_boundaries=False)))[0][0].numpy()
        wrong = swapped.char_cnn(torch.from_numpy(batch_char_ids([words], add_boundaries=False)))[0][0].numpy()
    np.testing.assert_allclose(ours, ref, atol=ATOL)
    assert np.abs(wrong - ref).max() > 1e-2
