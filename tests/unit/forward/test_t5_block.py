"""T5's decoder block in the block table, verified by hooks like the other kinds: on a tiny random T5 every stage
of the decoder (self-attention with the relative position bias, cross-attention over the encoder's output, the ReLU
FFN, T5's RMS LayerNorm, the scaled tied head) equals its formula recomputed from the model's own weights."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import torch
from transformers import T5ForConditionalGeneration

from playground.architectures import KINDS, T5_DECODER, block_kind
from playground.capture import capture, points
from playground.forward import formulas
from tests import tiny_models

TOLERANCE = 1e-5
SOURCE = "the bank of the river 银行 <extra_id_0>"


def tiny_t5(**changes):
    """The unit T5 at T5's own initialisation (the view's tiny T5 is widened to write varied tokens; its softmax
    inputs are then so large that float32 rounding alone reaches 1e-5)."""
    tok = tiny_models.t5_tokenizer()
    torch.manual_seed(0)
    return T5ForConditionalGeneration(tiny_models.tiny_t5_config(tok, initializer_factor=1.0, **changes)).eval(), tok


def verified(model, tok, decoder=(0, 5, 24, 15, 21, 8), bias=None):
    enc = tok(SOURCE, return_tensors="pt")
    dec = torch.tensor([list(decoder)])
    with torch.inference_mode(), capture(model) as cache:
        out = model(**enc, decoder_input_ids=dec)
    kind = block_kind(model)
    ctx = formulas.context(model, kind, dec[0], torch.zeros_like(dec[0]))
    if bias is not None:  # another relative position bias in the formula only (the model keeps its own)
        ctx = dataclasses.replace(ctx, relative_bias=bias)
    return formulas.verify(model, kind, points(model), cache, ctx), cache, out, enc


def test_every_t5_decoder_stage_equals_its_formula():
    model, tok = tiny_t5()
    checks, cache, out, enc = verified(model, tok)
    assert block_kind(model) is T5_DECODER and KINDS["t5"] is T5_DECODER
    assert set(checks) == set(cache) and len(cache) == 2 + model.config.num_decoder_layers * len(T5_DECODER.block) + 2
    worst = max(checks.items(), key=lambda kv: kv[1].relative)
    assert worst[1].relative <= TOLERANCE, worst
    assert torch.equal(cache["logits"], out.logits.float())  # the tied head's d_model^-½ scale included
    source, steps, heads = enc["input_ids"].shape[1], 6, model.config.num_heads
    assert cache["blocks.1.cross.pattern"].shape == (1, heads, steps, source)  # decoder steps × source tokens
    assert cache["blocks.0.cross.k"].shape[1] == source  # keys from the encoder's output, not the decoder's
    pattern = cache["blocks.0.attn.pattern"][0]
    assert torch.all(pattern.triu(1) == 0)  # the decoder's self-attention is causal


def test_without_the_relative_position_bias_only_the_self_attention_patterns_break():
    """The check can fail: drop the bias from the formula and exactly the decoder's self-attention patterns differ
    (cross-attention has none; every other stage is recomputed from the captured, still correct, inputs)."""
    model, tok = tiny_t5()
    none = SimpleNamespace(compute_bias=lambda q, k: torch.zeros(1, model.config.num_heads, q, k))
    checks, _, _, _ = verified(model, tok, bias=none)
    broken = {name for name, c in checks.items() if c.relative > TOLERANCE}
    assert broken == {f"blocks.{i}.attn.pattern" for i in range(model.config.num_decoder_layers)}


def test_an_untied_head_is_not_scaled():
    model, tok = tiny_t5(tie_word_embeddings=False)
    assert not model.config.scale_decoder_outputs
    checks, cache, out, _ = verified(model, tok)
    assert checks["logits"].relative <= TOLERANCE and torch.equal(cache["logits"], out.logits.float())
