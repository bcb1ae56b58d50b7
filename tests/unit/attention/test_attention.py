"""Attention extraction, summaries and the step-by-step formula on tiny random models."""

import numpy as np
import pytest

from playground import attention
from playground.attention import AttentionText, extract_attention, rollout, summarize
from playground.cache import BoundedCache
from playground.attention.qkv import capture_layer, step_by_step
from playground.errors import InputError
from playground.attention.positional import learned_position_similarity, sinusoidal_encoding

TEXT = "the cat sat on the mat"
MODELS = ["tiny_encoder", "tiny_mlm", "tiny_roberta", "tiny_clm", "tiny_llama"]


@pytest.fixture(params=MODELS)
def lm(request):
    return request.getfixturevalue(request.param)


def test_shapes_and_rows_sum_to_one(lm):
    (result,) = extract_attention(lm, [AttentionText(TEXT)])
    cfg = lm.model.config
    assert result.attentions.shape == (cfg.num_hidden_layers, cfg.num_attention_heads, len(result.tokens), len(result.tokens))
    np.testing.assert_allclose(result.attentions.sum(-1), 1.0, atol=1e-5)
    assert (result.attentions >= 0).all()


def test_causal_maps_are_zero_above_the_diagonal(tiny_clm, tiny_llama, tiny_encoder):
    for lm in (tiny_clm, tiny_llama):
        (result,) = extract_attention(lm, [AttentionText(TEXT)])
        assert result.causal
        assert np.triu(result.attentions, k=1).max() == 0
    (bidirectional,) = extract_attention(tiny_encoder, [AttentionText(TEXT)])
    assert not bidirectional.causal and np.triu(bidirectional.attentions, k=1).max() > 0


def test_batched_requests_match_single_ones(lm):
    texts = ["a dog", TEXT + " and the dog ran"]
    batched = extract_attention(lm, [AttentionText(t) for t in texts])
    for text, result in zip(texts, batched):
        (alone,) = extract_attention(lm, [AttentionText(text)])
        assert result.tokens == alone.tokens
        np.testing.assert_allclose(result.attentions, alone.attentions, atol=1e-5)


def test_sentence_pairs_carry_segment_ids(tiny_encoder, tiny_llama):
    (result,) = extract_attention(tiny_encoder, [AttentionText("the cat sat", "the dog ran")])
    assert result.token_type_ids[0] == 0 and result.token_type_ids[-1] == 1
    assert sorted(set(result.token_type_ids)) == [0, 1]
    assert sum(result.special) == 3  # [CLS] A [SEP] B [SEP]
    with pytest.raises(InputError) as err:
        extract_attention(tiny_llama, [AttentionText("the cat", "the dog")])
    assert err.value.code == "attention_pair_unsupported"


def test_bad_input_is_refused(tiny_encoder):
    with pytest.raises(InputError) as err:
        extract_attention(tiny_encoder, [AttentionText("   ")])
    assert err.value.code == "attention_empty_text"
    with pytest.raises(InputError) as err:  # the tiny model reads 64 positions
        extract_attention(tiny_encoder, [AttentionText("the cat " * 60)])
    assert err.value.code == "attention_too_long"
    (result,) = extract_attention(tiny_encoder, [AttentionText(TEXT)])
    with pytest.raises(InputError):
        attention.head_map(result, 2, 0)


def test_rollout_is_row_stochastic_and_summaries_have_shapes(lm):
    (result,) = extract_attention(lm, [AttentionText(TEXT)])
    layers, heads, length = result.shape
    summary = summarize(result, layer=1)
    np.testing.assert_allclose(summary.rollout.sum(-1), 1.0, atol=1e-5)
    assert (summary.rollout >= 0).all()
    np.testing.assert_allclose(summary.mean_over_heads, result.attentions[1].mean(0), atol=1e-6)
    assert summary.first_share.shape == summary.special_share.shape == (layers,)
    assert ((summary.first_share + summary.special_share) <= 1 + 1e-5).all()
    assert summary.entropy.shape == (layers, heads)
    assert (summary.entropy >= 0).all() and (summary.entropy <= np.log2(length) + 1e-5).all()


def test_rollout_of_identity_attention_is_identity():
    eye = np.broadcast_to(np.eye(5), (3, 2, 5, 5))
    np.testing.assert_allclose(rollout(eye), np.eye(5), atol=1e-6)


@pytest.mark.parametrize("name", ["tiny_encoder", "tiny_roberta", "tiny_clm", "tiny_llama"])
def test_step_by_step_reproduces_the_models_attention(request, name):
    lm = request.getfixturevalue(name)
    (result,) = extract_attention(lm, [AttentionText(TEXT)])
    layers, heads, length = result.shape
    for layer in range(layers):
        capture = capture_layer(lm, AttentionText(TEXT), layer)
        for head in range(heads):
            for query in range(length):
                step = step_by_step(capture, head, query)
                np.testing.assert_allclose(step.weights, result.attentions[layer, head, query], atol=1e-5)
                assert step.max_error < 1e-5
                np.testing.assert_allclose(step.output, step.weights @ step.values)


def test_grouped_query_attention_and_rope_on_llama(tiny_llama):
    capture = capture_layer(tiny_llama, AttentionText(TEXT), 0)
    assert capture.rope and capture.q.shape[1] == 4 and capture.k.shape[1] == 2
    assert [step_by_step(capture, h, 0).kv_head for h in range(4)] == [0, 0, 1, 1]
    assert np.isinf(step_by_step(capture, 0, 0).scores[1:]).all()  # the future is masked


def test_cache_computes_once_per_key():
    cache, calls = BoundedCache(capacity=2), []  # the attention maps' cache class
    compute = lambda key: lambda: calls.append(key) or key  # noqa: E731
    for key in ["a", "a", "b", "a", "c", "a"]:
        assert cache.get(key, compute(key)) == key
    assert calls == ["a", "b", "c"]
    assert "b" not in cache and "a" in cache  # "b" was least recently used when "c" came


def test_sinusoidal_encoding_follows_the_formula():
    pe = sinusoidal_encoding(50, 16)
    assert pe.shape == (50, 16)
    np.testing.assert_allclose(pe[0, 0::2], 0, atol=1e-7)
    np.testing.assert_allclose(pe[0, 1::2], 1, atol=1e-7)
    np.testing.assert_allclose(pe[:, 0], np.sin(np.arange(50)), atol=1e-6)
    assert np.abs(pe).max() <= 1


def test_learned_positions_and_their_absence(tiny_encoder, tiny_clm, tiny_llama):
    for lm in (tiny_encoder, tiny_clm):
        sim = learned_position_similarity(lm, 20)
        assert sim.similarity.shape == (20, 20)
        np.testing.assert_allclose(np.diag(sim.similarity), 1, atol=1e-5)
    with pytest.raises(InputError) as err:
        learned_position_similarity(tiny_llama, 20)
    assert err.value.code == "attention_no_learned_positions"


def test_every_layers_capture_comes_from_one_forward_pass(tiny_llama, monkeypatch):
    """The step-by-step view used to run the whole model again for each layer it showed; now one pass keeps them all,
    and each layer's capture is the same as asking for that layer alone."""
    from playground.attention.qkv import capture_layers

    calls = []
    real = type(tiny_llama.model).forward
    monkeypatch.setattr(type(tiny_llama.model), "forward", lambda self, *a, **k: calls.append(1) or real(self, *a, **k))
    every = capture_layers(tiny_llama, AttentionText(TEXT))
    assert len(calls) == 1 and [c.layer for c in every] == list(range(tiny_llama.model.config.num_hidden_layers))
    for layer, capture in enumerate(every):
        alone = capture_layer(tiny_llama, AttentionText(TEXT), layer)
        np.testing.assert_array_equal(capture.q, alone.q)
        np.testing.assert_array_equal(capture.attentions, alone.attentions)


def test_the_step_view_moves_between_layers_without_another_pass(tiny_llama, monkeypatch):
    from playground.attention import AttentionRequest, run_attention
    from playground.runtime import Runtime

    calls = []
    real = type(tiny_llama.model).forward
    monkeypatch.setattr(type(tiny_llama.model), "forward", lambda self, *a, **k: calls.append(1) or real(self, *a, **k))
    runtime = Runtime(load={"smollm2-instruct": tiny_llama}.__getitem__)
    for layer, head, query in ((0, 0, -1), (1, 1, 2), (0, 2, 1), (1, 0, -1)):
        view = run_attention(
            AttentionRequest("smollm2-instruct", TEXT, view="step", layer=layer, head=head, query=query), runtime
        )
        assert (view.layer, view.step.layer, view.step.head) == (layer, layer, head)
    assert len(calls) == 2  # one pass for the maps, one for every layer's q, k, v: then layers, heads, queries run none


def test_a_leading_space_reads_as_a_visible_space_not_the_bpe_marker(tiny_clm):
    """Byte-level BPE spells " cat" as "Ġcat": the labels show "␣cat" (as the sampling tab does), WordPiece stays."""
    from playground.attention import display_labels

    ids = tiny_clm.tokenizer("the cat sat")["input_ids"]
    raws = tiny_clm.tokenizer.convert_ids_to_tokens(ids)
    labels = [shown or raw for raw, shown in zip(raws, display_labels(tiny_clm.tokenizer, ids))]
    assert any(r.startswith("Ġ") for r in raws)  # the tiny GPT-2 marks spaces as byte-level BPE does
    assert not any("Ġ" in label for label in labels)
    assert [label.replace("␣", " ") for label in labels] == [tiny_clm.tokenizer.decode([i]) for i in ids]
