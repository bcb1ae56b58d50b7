"""Every stage the hooks capture equals its formula recomputed from the model's weights (1e-5 of its scale, float32),
for every block kind on a tiny random model: post-LN BERT (with and without its MLM head), pre-LN GPT-2 (fused
c_attn, Conv1D), pre-RMSNorm Llama (RoPE, grouped-query attention: 4 query heads share 2 key/value heads)."""

from __future__ import annotations

import pytest
import torch

from playground.architectures import block_kind
from playground.capture import capture, points
from playground.forward import formulas

MODELS = ["tiny_mlm", "tiny_encoder", "tiny_clm", "tiny_llama"]
TOLERANCE = 1e-5


def _verified(lm, text="the bank of the river 银行"):
    enc = lm.tokenizer(text, return_tensors="pt")
    with torch.inference_mode(), capture(lm.model) as cache:
        out = lm.model(**enc)
    kind = block_kind(lm.model)
    segments = enc.get("token_type_ids", torch.zeros_like(enc["input_ids"]))[0]
    ctx = formulas.context(lm.model, kind, enc["input_ids"][0], segments)
    return formulas.verify(lm.model, kind, points(lm.model), cache, ctx), cache, out


@pytest.mark.parametrize("name", MODELS)
def test_every_stage_equals_its_formula(name, request):
    lm = request.getfixturevalue(name)
    checks, cache, out = _verified(lm)
    assert set(checks) == set(cache)  # every captured stage has a formula
    worst = max(checks.items(), key=lambda kv: kv[1].relative)
    assert worst[1].relative <= TOLERANCE, worst
    if "logits" in cache:  # the final logits are the model's own
        assert torch.equal(cache["logits"], out.logits.float())


def test_a_wrong_formula_is_caught(tiny_llama, monkeypatch):
    """The check can fail: without RoPE the attention pattern is no longer the model's (and only that stage breaks)."""
    monkeypatch.setattr(formulas, "rope", lambda x, rotary: x)
    checks, _, _ = _verified(tiny_llama)
    broken = {name for name, c in checks.items() if c.relative > TOLERANCE}
    assert broken == {"blocks.0.attn.pattern", "blocks.1.attn.pattern"}


def test_grouped_query_attention_is_what_the_tiny_llama_has(tiny_llama):
    config = tiny_llama.model.config
    assert config.num_key_value_heads < config.num_attention_heads  # the case the formulas must handle
    _, cache, _ = _verified(tiny_llama)
    assert cache["blocks.0.attn.k"].shape[-1] * config.num_attention_heads == cache["blocks.0.attn.q"].shape[-1] * 2


def test_gelu_is_the_one_each_family_was_trained_with(tiny_mlm, tiny_clm):
    assert tiny_mlm.model.config.hidden_act == "gelu" and tiny_clm.model.config.activation_function == "gelu_new"
    x = torch.linspace(-4, 4, 101, dtype=torch.float64)
    exact, tanh = formulas.ACTIVATIONS["gelu"](x), formulas.ACTIVATIONS["gelu_new"](x)
    assert torch.allclose(exact, torch.nn.functional.gelu(x))
    assert torch.allclose(tanh, torch.nn.functional.gelu(x, approximate="tanh"))
    assert (exact - tanh).abs().max() > 1e-5  # the two differ by more than the check's tolerance
