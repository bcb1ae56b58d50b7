"""Attention on the bundled real models, offline: MiniLM (bidirectional) and SmolLM2 (causal, GQA + RoPE)."""

import numpy as np
import pytest

from playground.attention import AttentionText, extract_attention, summarize
from playground.attention.qkv import capture_layer, step_by_step
from playground.attention.positional import learned_position_similarity

TEXT = "The animal didn't cross the street because it was too tired."


@pytest.fixture(scope="module")
def maps(minilm, smollm):
    return {lm.spec.key: extract_attention(lm, [AttentionText(TEXT)])[0] for lm in (minilm, smollm)}


def test_shapes_rows_and_causality(minilm, smollm, maps):
    for lm in (minilm, smollm):
        result = maps[lm.spec.key]
        cfg = lm.model.config
        assert result.shape == (cfg.num_hidden_layers, cfg.num_attention_heads, len(result.tokens))
        np.testing.assert_allclose(result.attentions.sum(-1), 1, atol=1e-4)
    assert not maps["minilm"].causal and np.triu(maps["minilm"].attentions, 1).max() > 0.01
    assert maps["smollm2-instruct"].causal and np.triu(maps["smollm2-instruct"].attentions, 1).max() == 0


def test_bert_leans_on_special_tokens_in_later_layers(maps):
    """A known BERT habit (Clark et al., 2019): later layers park attention on [CLS]/[SEP]."""
    result = maps["minilm"]
    assert result.tokens[0] == "[CLS]" and result.tokens[-1] == "[SEP]"
    summary = summarize(result, 0)
    parked = summary.first_share + summary.special_share
    uniform = 2 / len(result.tokens)
    assert parked[1:].max() > 3 * uniform


def test_causal_model_first_token_is_an_attention_sink(maps):
    summary = summarize(maps["smollm2-instruct"], 0)
    assert np.median(summary.first_share[2:]) > 0.3  # far above 1/T: the "attention sink"


@pytest.mark.parametrize("key,layers", [("minilm", (0, 5)), ("smollm2-instruct", (0, 14, 29))])
def test_step_by_step_matches_the_real_model(request, key, layers, maps):
    lm = request.getfixturevalue("minilm" if key == "minilm" else "smollm")
    result = maps[key]
    for layer in layers:
        capture = capture_layer(lm, AttentionText(TEXT), layer)
        assert capture.rope == (key != "minilm")
        for head in range(result.shape[1]):
            for query in (0, len(result.tokens) // 2, len(result.tokens) - 1):
                step = step_by_step(capture, head, query)
                assert step.max_error < 1e-5
                np.testing.assert_allclose(step.weights, result.attentions[layer, head, query], atol=1e-5)


def test_sentence_pair_segments_on_minilm(minilm):
    (result,) = extract_attention(minilm, [AttentionText("The cat sat.", "It was tired.")])
    first_b = result.token_type_ids.index(1)
    assert result.tokens[first_b - 1] == "[SEP]" and all(result.token_type_ids[first_b:])


def test_minilm_learned_positions_are_smooth(minilm):
    sim = learned_position_similarity(minilm, 64).similarity
    near = np.mean([sim[i, i + 1] for i in range(63)])
    far = np.mean([sim[i, i + 40] for i in range(24)])
    assert near > far


def test_smollm2_axes_read_a_visible_space_not_the_bpe_marker(smollm):
    """SmolLM2's attention axes read "␣cat", not byte-level BPE's "Ġcat" (walk-through item 9: raw Ġ labels on the
    axes), on the real tokenizer and through the page's renderer (this was a browser test before the tier was cut)."""
    from playground.attention import AttentionRequest, run_attention
    from playground.runtime import Runtime
    from playground.ui.attention import render

    view = run_attention(AttentionRequest("smollm2-instruct", "The cat sat.", view="head"), Runtime(load=lambda key: smollm))
    ticks = [str(tick) for tick in render.render(view, "en")["plot"].data[0].x]
    assert any("␣cat" in tick for tick in ticks), ticks
    assert not any("Ġ" in tick for tick in ticks), ticks
