"""Every registered model, as a tiny random model of its own architecture and kind.

Parametrised over the registry: a new ModelSpec line is exercised here without a new test.
The config is built with `AutoConfig.for_model(spec.model_type, ...)` and the model with the
Auto class the loader uses for its kind (`models.AUTO_CLASS`), so what the app would load online
is what runs here, only small and random (no hub, no weights). The static kind (GloVe) has no
architecture: its one-vector-per-word behaviour is tested with the polysemy backend.
"""

import numpy as np
import pytest
import torch
import transformers

from playground import models
from playground.registry import BUILTIN
from tests import tiny_models

VOCAB = 99
# Sizes per architecture: the names differ (n_embd, d_model, ...); the values are all tiny.
TINY = {
    "bert": dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=37),
    "roberta": dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=37, pad_token_id=1),
    "albert": dict(embedding_size=16, hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=37),
    "distilbert": dict(dim=32, n_layers=2, n_heads=4, hidden_dim=37),
    "electra": dict(embedding_size=16, hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=37),
    "xlnet": dict(d_model=32, n_layer=2, n_head=4, d_inner=37),
    "t5": dict(d_model=32, d_kv=8, d_ff=37, num_layers=2, num_heads=4, decoder_start_token_id=0),
    "gpt2": dict(n_embd=32, n_layer=2, n_head=4, n_positions=64),
    "llama": dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, intermediate_size=37),
}
NEURAL = [s for s in BUILTIN if s.kind != "static" and (s.kind, s.source) not in models.LOADERS]
OWN_LOADER = [s for s in BUILTIN if (s.kind, s.source) in models.LOADERS]  # ELMo: not a transformers model


def tiny_model(spec):
    config = transformers.AutoConfig.for_model(spec.model_type, vocab_size=VOCAB, **TINY[spec.model_type])
    config._attn_implementation = "eager"  # as models.load_uncached: SDPA returns no attention weights
    torch.manual_seed(0)
    return getattr(transformers, models.AUTO_CLASS[spec.kind]).from_config(config).eval()


def test_every_registered_model_names_an_architecture_we_can_build():
    assert {s.model_type for s in NEURAL} <= set(TINY)
    assert all(s.kind in models.AUTO_CLASS for s in NEURAL)


@pytest.mark.parametrize("spec", NEURAL, ids=lambda s: s.key)
def test_tiny_model_of_each_registered_spec_runs_as_its_kind(spec):
    model = tiny_model(spec)
    ids = torch.tensor([[5, 17, 42, 8, 23, 61]])
    with torch.inference_mode():
        if spec.kind == "seq2seq":
            out = model(input_ids=ids, decoder_input_ids=ids[:, :3], output_attentions=True)
            assert out.logits.shape == (1, 3, VOCAB)
            attentions = out.encoder_attentions
        else:
            out = model(input_ids=ids, output_attentions=spec.kind != "permutation")
            if spec.kind == "discriminator":  # ELECTRA: one "was this token replaced?" logit per token
                assert out.logits.shape == (1, 6)
            elif spec.kind == "nsp":  # BERT's next-sentence head: IsNext / NotNext for the whole pair
                assert out.logits.shape == (1, 2)
            elif spec.kind == "encoder":
                assert out.last_hidden_state.shape == (1, 6, 32)
            else:  # masked, causal and permutation LMs predict a token at every position
                assert out.logits.shape == (1, 6, VOCAB)
            attentions = out.attentions
    if spec.kind == "permutation":
        return  # XLNet's two-stream attention comes as (content, query) pairs; the masking tab draws its masks itself
    assert len(attentions) == 2
    rows = attentions[0].sum(-1)
    np.testing.assert_allclose(rows.numpy(), 1.0, atol=1e-5)  # eager attention: every row is a distribution
    if spec.kind == "causal":
        assert float(attentions[0][0, :, 0, 1:].abs().max()) == 0.0  # the first token sees only itself


@pytest.mark.parametrize("spec", OWN_LOADER, ids=lambda s: s.key)
def test_tiny_model_of_each_own_loader_spec_runs_as_its_kind(spec):
    """ELMo specs load through models.LOADERS; a tiny ELMo built from small options gives three layers per token."""
    from playground.elmo import ElmoBiLm, ElmoModel, embed

    assert spec.kind == "elmo"
    opts = tiny_models.tiny_elmo_options(filters=((1, 4), (2, 8)))
    torch.manual_seed(0)
    out = embed(ElmoModel("tiny", ElmoBiLm(opts).eval(), opts), [["a", "tiny", "test"]])
    assert out.vectors[0].shape == (3, 3, 16)
    assert np.isfinite(out.vectors[0]).all()
