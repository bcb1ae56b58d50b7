"""run_forward: one pass per (model, sentence), every stage at the chosen token, per-layer norms and attention, the
logit lens and the final top-k; JSON-ready; bad input refused in the checks' words before a model loads."""

from __future__ import annotations

import json

import numpy as np
import pytest

from playground.architectures import stage_names
from playground.errors import InputError
from playground.forward import ForwardRequest, ForwardResult, lens, passes, run_forward
from playground.runtime import Runtime
from playground.serialize import jsonable

TEXT = "the bank of the river"
KEYS = {"minilm-mlm": "tiny_mlm", "minilm": "tiny_encoder", "gpt2": "tiny_clm", "smollm2-instruct": "tiny_llama"}


@pytest.fixture
def runtime(request):
    models = {key: request.getfixturevalue(name) for key, name in KEYS.items()}
    models["roberta"] = request.getfixturevalue("tiny_roberta")
    return Runtime(load=lambda key, **kw: models[key])


@pytest.mark.parametrize("key", KEYS)
def test_the_result_holds_every_stage_at_the_chosen_token(key, runtime):
    r = run_forward(ForwardRequest(key, TEXT, token=2, top_k=3), runtime)
    T, L, H = len(r.tokens), r.layers, r.heads
    assert r.token == 2 and r.stage_names == [n for n in stage_names(_kind(r), L) if n in r.stage_names]
    assert r.max_error <= 1e-5
    stages = {s.name: s for s in r.stages}
    assert stages["blocks.0.attn.concat"].shape == [T, H * r.d_head]
    assert stages["blocks.1.attn.pattern"].shape == [H, T, T] and stages["blocks.1.attn.pattern"].size == H * T
    assert stages["blocks.0.mlp.pre_act"].shape == [T, r.d_ff]
    assert all(len(s.values) == min(s.size, 64) for s in r.stages)
    assert r.attention.shape == (L, H, T, T)
    np.testing.assert_allclose(r.attention.sum(-1), 1, atol=2e-3)  # 3 decimals per cell
    if r.causal:
        assert not np.triu(r.attention, 1).any()  # a token never attends to a later one
    assert r.resid_norms.shape == (L + 1, T) and r.attn_norms.shape == r.mlp_norms.shape == (L, T)
    assert r.resid_norms[-1, 2] == pytest.approx(stages[f"blocks.{L - 1}.resid_post"].norm, abs=1e-4)
    assert r.attn_norms[1, 2] == pytest.approx(stages["blocks.1.attn.out"].norm, abs=1e-4)
    seen = {"ids", "segments", "positions"}
    for s in r.stages:  # each stage is computed from stages before it, in a module of the model
        assert set(s.inputs) <= seen and s.module and s.name.endswith(s.stage), s.name
        seen.add(s.name)
    assert json.loads(json.dumps(jsonable(r)))["stages"][0]["name"] == "embed.token"


def _kind(r: ForwardResult):
    from playground.architectures import KINDS

    return next(k for k in KINDS.values() if k.key == r.block_kind)


@pytest.mark.parametrize("key", ["minilm-mlm", "gpt2", "smollm2-instruct"])
def test_the_lens_ends_at_the_models_own_answer(key, runtime):
    r = run_forward(ForwardRequest(key, "the bank of the [MASK] river", top_k=5), runtime)
    assert len(r.lens) == r.layers + 1 and [row.layer for row in r.lens] == list(range(r.layers + 1))
    last, top = r.lens[-1], r.top
    assert last.ids == top.ids and np.allclose(last.probs, top.probs, atol=1e-5)  # the last layer's readout IS the output
    assert top.answer_rank == 0 and top.ids[0] == r.logits.top_ids[0]
    assert all(0 <= row.answer_prob <= 1 and row.probs == sorted(row.probs, reverse=True) for row in r.lens)
    one = run_forward(ForwardRequest(key, "the bank of the [MASK] river", top_k=1), runtime)
    assert one.top.ids == top.ids[:1]  # top_k = 1 is the argmax


def test_the_default_token_is_the_mask_else_the_last_ordinary_one(runtime):
    masked = run_forward(ForwardRequest("minilm-mlm", "the [MASK] of the river"), runtime)
    assert masked.tokens[masked.token] == "[MASK]"
    plain = run_forward(ForwardRequest("minilm-mlm", TEXT), runtime)
    assert plain.tokens[plain.token] == "river" and plain.tokens[-1] == "[SEP]"


def test_an_encoder_without_a_head_has_stages_but_no_readout(runtime):
    r = run_forward(ForwardRequest("minilm", TEXT), runtime)
    assert r.lens == [] and r.top is None and r.logits is None and "logits" not in r.stage_names
    assert json.loads(json.dumps(jsonable(r)))["logits_error"] is None


def test_the_temperature_can_be_redrawn_from_the_compact_logits(runtime):
    r = run_forward(ForwardRequest("smollm2-instruct", TEXT), runtime)
    exact = runtime.cache("forward passes", 2).peek(("tiny-llama", TEXT)).stages["logits"][r.token]
    for temperature in (0.3, 1.0, 2.5):
        expected = lens.softmax(exact, temperature)[r.logits.top_ids]
        np.testing.assert_allclose(lens.probs_at(r.logits, temperature), expected, rtol=2e-3, atol=1e-7)
    assert sum(r.logits.tail_counts) + len(r.logits.top_ids) == len(exact)


def test_one_pass_per_sentence_whatever_token_is_chosen(runtime, tiny_llama, monkeypatch):
    calls = []
    real = type(tiny_llama.model).forward
    monkeypatch.setattr(type(tiny_llama.model), "forward", lambda self, *a, **k: calls.append(1) or real(self, *a, **k))
    text = "the river bank was muddy"
    first = run_forward(ForwardRequest("smollm2-instruct", text, token=1), runtime)
    again = run_forward(ForwardRequest("smollm2-instruct", text, token=1), runtime)
    other = run_forward(ForwardRequest("smollm2-instruct", text, token=3), runtime)
    assert len(calls) == 1 and again is first and other.token == 3
    assert other.stages[0].values != first.stages[0].values


def test_a_sessions_own_model_is_never_kept_for_others(tiny_mlm):
    runtime = Runtime(load=lambda key, **kw: tiny_mlm).with_session({"your-lab-model": tiny_mlm})
    run_forward(ForwardRequest("your-lab-model", TEXT), runtime)
    assert all(len(cache) == 0 for cache in runtime.caches.values())


@pytest.mark.parametrize(
    "field, value, code",
    [
        ("model", "nope", "unknown_model"),
        ("model", "glove", "input_model_kind"),
        ("model", None, "input_not_text"),
        ("text", 3, "input_not_text"),
        ("text", "x" * 2001, "input_text_too_long"),
        ("text", "   ", "forward_empty_text"),
        ("token", 1.5, "input_not_whole"),
        ("token", -2, "input_not_whole"),
        ("token", 99, "forward_bad_token"),
        ("top_k", 0, "input_not_whole"),
        ("top_k", True, "input_not_whole"),
        ("model", "roberta", "forward_unknown_architecture"),
    ],
)
def test_bad_values_are_refused_with_their_code(field, value, code, runtime):
    fields = {"model": "minilm-mlm", "text": TEXT, "token": -1, "top_k": 5, field: value}
    with pytest.raises(InputError) as refused:
        run_forward(ForwardRequest(**fields), runtime)
    assert refused.value.code == code


def test_a_sentence_longer_than_the_view_or_the_model_reads_is_refused(runtime, tiny_clm):
    with pytest.raises(InputError) as refused:
        run_forward(ForwardRequest("gpt2", "the bank " * 100), runtime)
    assert refused.value.code == "forward_too_long"
    assert refused.value.params["limit"] == min(passes.MAX_TOKENS, tiny_clm.model.config.n_positions)


def test_a_fresh_runtime_gives_the_same_result(tiny_clm):
    def run():
        data = jsonable(run_forward(ForwardRequest("gpt2", TEXT, token=3), Runtime(load=lambda key, **kw: tiny_clm)))
        return {k: v for k, v in data.items() if k != "seconds"}  # the pass's wall clock, the one field that moves

    assert run() == run()
