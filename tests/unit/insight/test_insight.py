"""Look inside a prediction, on tiny models of every block kind (post-LN BERT, pre-LN GPT-2, pre-RMSNorm Llama):
the lens ends at the model's own answer, IG is complete, knock-out is real (not head_mask), patching respects
causality. Invariants only: the tiny models are random."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from playground.errors import InputError
from playground.insight import (
    AttributionRequest,
    KnockoutRequest,
    LensRequest,
    PatchRequest,
    parse_heads,
    run_attribution,
    run_knockout,
    run_lens,
    run_patching,
)
from playground.insight.attribution import rollout
from playground.runtime import Runtime
from playground.serialize import jsonable

KEYS = {"minilm-mlm": "tiny_mlm", "gpt2": "tiny_clm", "smollm2-instruct": "tiny_llama"}
PLAIN = "the bank of the river"
TEXT = {"minilm-mlm": "the bank of the [MASK] river", "gpt2": PLAIN, "smollm2-instruct": PLAIN}


@pytest.fixture
def runtime(request):
    models = {key: request.getfixturevalue(name) for key, name in KEYS.items()}
    models["minilm"] = request.getfixturevalue("tiny_encoder")
    return Runtime(load=lambda key, **kw: models[key])


@pytest.mark.parametrize("key", KEYS)
def test_the_lens_last_layer_is_the_models_own_prediction(key, runtime, request):
    r = run_lens(LensRequest(key, TEXT[key], top_k=3), runtime)
    lm = request.getfixturevalue(KEYS[key])
    enc = lm.tokenizer(TEXT[key].replace("[MASK]", lm.tokenizer.mask_token or "[MASK]"), return_tensors="pt")
    enc.pop("token_type_ids", None) if lm.model.config.model_type != "bert" else None
    with torch.inference_mode():
        probs = lm.model(**enc).logits[0, r.position].softmax(-1)
    last = r.readouts[-1]
    assert len(r.readouts) == r.layers + 1 and last.layer == r.layers
    assert last.ids[0] == int(probs.argmax()) and r.answer == last.tokens[0] and last.answer_rank == 0
    np.testing.assert_allclose(last.probs, probs.sort(descending=True).values[:3].numpy(), atol=1e-5)
    assert 0 <= r.first_layer <= r.layers and all(row.answer_rank == 0 for row in r.readouts[r.first_layer :])
    if r.first_layer > 0:
        assert r.readouts[r.first_layer - 1].answer_rank > 0
    if "[MASK]" in TEXT[key]:
        assert r.tokens[r.position] == "[MASK]"
    json.dumps(jsonable(r))


@pytest.mark.parametrize("key", KEYS)
def test_integrated_gradients_is_complete_within_one_percent(key, runtime):
    r = run_attribution(AttributionRequest(key, TEXT[key], layer=-1, head=1, steps=32), runtime)
    delta = r.f_input - r.f_baseline
    assert r.completeness < 0.01 and abs(r.ig_sum - delta) <= 0.01 * abs(delta) + 1e-6
    assert abs(sum(r.ig) - r.ig_sum) < 1e-4
    # tokens the baseline keeps (special ones, the [MASK]) get exactly nothing
    assert all(v == 0 for v, a in zip(r.ig, r.attributable) if not a) and any(r.attributable)
    assert r.layer == r.layers - 1 and r.head == 1
    assert sum(r.attention) == pytest.approx(1, abs=1e-3) and sum(r.rollout) == pytest.approx(1, abs=1e-3)
    if r.causal:  # the prediction's row sees nothing to its right
        assert not any(r.attention[r.position + 1 :]) and not any(r.rollout[r.position + 1 :])
    assert r.attributable[r.top_ig] and abs(r.ig[r.top_ig]) == max(abs(v) for v, a in zip(r.ig, r.attributable) if a)
    assert len(r.grad_input) == len(r.tokens) and r.ig_seconds > 0 and r.forward_seconds > 0
    json.dumps(jsonable(r))


def test_rollout_of_identity_attention_is_the_identity_and_rows_stay_distributions():
    eye = np.tile(np.eye(4), (2, 3, 1, 1))
    np.testing.assert_allclose(rollout(eye), np.eye(4))
    rng = np.random.default_rng(0)
    a = rng.random((3, 2, 5, 5))
    a /= a.sum(-1, keepdims=True)
    np.testing.assert_allclose(rollout(a).sum(-1), 1)


@pytest.mark.parametrize("key", KEYS)
def test_knocking_out_every_head_changes_the_output_and_none_changes_nothing(key, runtime):
    every = run_knockout(KnockoutRequest(key, TEXT[key], heads="*"), runtime)
    none = run_knockout(KnockoutRequest(key, TEXT[key], heads=""), runtime)
    assert none.knocked == [] and none.total_variation == 0 and none.after_probs == none.before_probs
    assert len(every.knocked) == every.layers * every.heads and every.total_variation > 1e-4
    assert every.after_probs != every.before_probs
    layer = run_knockout(KnockoutRequest(key, TEXT[key], heads="1"), runtime)
    assert layer.knocked == [(1, h) for h in range(layer.heads)]
    one = run_knockout(KnockoutRequest(key, TEXT[key], heads="0.1"), runtime)
    # the ranking's entry for head 0.1 is this very knock-out, computed in a batched pass
    assert one.effects[0, 1] == pytest.approx(one.answer_after - one.answer_before, abs=2e-6)
    assert one.effects.shape == (one.layers, one.heads) and len(one.ranking) == min(10, one.layers * one.heads)
    deltas = [abs(r.delta) for r in one.ranking]
    assert deltas == sorted(deltas, reverse=True) and deltas[0] == pytest.approx(np.abs(one.effects).max(), abs=1e-6)


def test_a_head_spec_is_read_and_refused_in_words():
    assert parse_heads("0.1, 1.* 0.1", 2, 4) == [(0, 1), (1, 0), (1, 1), (1, 2), (1, 3)]
    assert parse_heads("all", 1, 2) == [(0, 0), (0, 1)] and parse_heads(" ", 2, 4) == []
    with pytest.raises(InputError) as bad:
        parse_heads("one.two")
    assert bad.value.code == "insight_bad_heads"
    with pytest.raises(InputError) as out:
        parse_heads("2.0", 2, 4)
    assert out.value.code == "insight_head_range" and "layers 0-1" in str(out.value)


@pytest.mark.parametrize("key", KEYS)
def test_patching_reaches_only_the_right_in_a_causal_model_and_everywhere_in_a_bidirectional_one(key, runtime):
    text = "the bank of the river is [MASK]" if key == "minilm-mlm" else "the bank of the river is wide"
    source = text.replace("bank", "money")
    r = run_patching(PatchRequest(key, text, source, layer=0, position=-1), runtime)
    assert r.source_tokens[r.position] != r.tokens[r.position] and r.tokens[: r.position] == r.source_tokens[: r.position]
    left, right = r.logit_change[: r.position], r.logit_change[r.position + 1 :]
    assert r.logit_change[r.position] > 1e-3 and max(right) > 1e-6
    if r.causal:
        assert max(left) <= 1e-6 and r.left_change <= 1e-6
    else:
        assert min(left) > 1e-6  # every position left of the patch moved
    json.dumps(jsonable(r))


def test_every_view_refuses_a_model_without_a_head_and_bad_positions(runtime):
    for run, req in ((run_lens, LensRequest), (run_knockout, KnockoutRequest), (run_attribution, AttributionRequest)):
        with pytest.raises(InputError) as refused:
            run(req("minilm", "the bank"), runtime)
        assert refused.value.code == "input_model_kind"
    with pytest.raises(InputError) as far:
        run_patching(PatchRequest("gpt2", "the bank", "the river bank", position=9), runtime)
    assert far.value.code == "insight_bad_position"
    with pytest.raises(InputError) as head:
        run_attribution(AttributionRequest("gpt2", "the bank", head=4), runtime)
    assert head.value.code == "input_not_whole"
