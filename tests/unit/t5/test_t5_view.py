"""The text-to-text view's backend on a tiny random T5: the decoder run one step at a time is `generate`, token for
token; each step's cross-attention covers the source; the three attention families come from that one run and are
the ones a full teacher-forced pass computes (encoder bidirectional, decoder causal, cross steps x source)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from playground import t5
from playground.errors import InputError
from playground.runtime import Runtime
from playground.sampling import warpers

TEXTS = [
    "translate English to German: the capital of france",
    "she deposited the money in the bank",
    "我爱你 the <extra_id_0> of the river",
]
GREEDY = warpers.SamplingSettings(0.0, 0, 1.0)


def run(lm, text: str, s=GREEDY, seed: int = 0, new: int = 12) -> t5.TextToTextResult:
    return t5.text_to_text(lm, text, s, seed, new)


@pytest.mark.parametrize("text", TEXTS)
def test_greedy_step_by_step_is_generate_token_for_token(tiny_t5, text):
    r = run(tiny_t5, text)
    enc = tiny_t5.tokenizer([text], return_tensors="pt")
    with torch.no_grad():
        ids = tiny_t5.model.generate(**enc, max_new_tokens=12, do_sample=False, num_beams=1)[0].tolist()
    assert ids[0] == tiny_t5.model.config.decoder_start_token_id
    assert list(r.output_ids) == ids[1:] and len(set(r.output_ids)) > 1  # varied tokens: a real comparison
    assert [s.token_id for s in r.steps] == ids[1:]
    assert r.decoder_tokens == tuple(tiny_t5.tokenizer.convert_ids_to_tokens(ids[: len(r.steps)]))  # read = start + chosen


@pytest.mark.parametrize("text", TEXTS)
def test_the_three_families_from_one_run_are_a_full_passs(tiny_t5, text):
    r = run(tiny_t5, text)
    config = tiny_t5.model.config
    n, source = len(r.steps), len(r.source_tokens)
    assert r.encoder_attention.shape == (config.num_layers, config.num_heads, source, source)
    assert r.decoder_attention.shape == (config.num_decoder_layers, config.num_heads, n, n)
    assert r.cross_attention.shape == (config.num_decoder_layers, config.num_heads, n, source)
    for name in t5.FAMILIES:
        assert np.allclose(r.family(name).sum(-1), 1.0, atol=1e-5), name  # every row shares out all its attention
    # causal: a decoder step never looks at a later step
    assert np.all(np.triu(r.decoder_attention, k=1) == 0) and np.all(np.tril(r.decoder_attention) >= 0)
    # the steps' own rows are the cross-attention matrix
    assert all(np.array_equal(s.cross, r.cross_attention[:, :, s.position]) for s in r.steps)
    # the same three families from one teacher-forced pass over what the decoder read
    enc = tiny_t5.tokenizer([text], return_tensors="pt")
    read = tiny_t5.tokenizer.convert_tokens_to_ids(list(r.decoder_tokens))
    with torch.no_grad():
        full = tiny_t5.model(**enc, decoder_input_ids=torch.tensor([read]), output_attentions=True)
    stack = lambda xs: torch.stack([x[0] for x in xs]).numpy()  # noqa: E731
    # 1e-4: float32 sums of the wide random weights differ by ~5e-5 between one step at a time and all at once
    assert np.allclose(stack(full.encoder_attentions), r.encoder_attention, atol=1e-4)
    assert np.allclose(stack(full.decoder_attentions), r.decoder_attention, atol=1e-4)
    assert np.allclose(stack(full.cross_attentions), r.cross_attention, atol=1e-4)
    assert not np.allclose(r.encoder_attention[..., np.triu_indices(source, 1)[0], np.triu_indices(source, 1)[1]], 0)


def test_each_step_shows_the_sampling_tabs_stages_and_the_chosen_token(tiny_t5):
    r = run(tiny_t5, TEXTS[0])
    for step in r.steps:
        d = step.distribution
        assert d.chosen == step.token_id and d.chosen_rank == 1 and d.token_ids[0] == step.token_id  # greedy: the top
        assert set(d.probs) == set(warpers.STAGES) and d.kept["top_p"] == 1
    s = warpers.settings(1.0, 3, 1.0)
    a, b, c = run(tiny_t5, TEXTS[0], s, 7), run(tiny_t5, TEXTS[0], s, 7), run(tiny_t5, TEXTS[0], s, 8)
    assert a.output_ids == b.output_ids  # the seed replays
    assert all(step.distribution.chosen_rank <= 3 and step.distribution.kept["top_k"] == 3 for step in a.steps)
    assert a.output_ids != c.output_ids or a.output_ids != run(tiny_t5, TEXTS[0], s, 9).output_ids


def test_the_decoder_stops_at_its_end_token_and_sentinels_stay_readable(tiny_t5):
    eos = tiny_t5.tokenizer.eos_token_id
    biased = warpers.SamplingSettings(0.0, 0, 1.0)
    model = tiny_t5.model
    with torch.no_grad():
        saved = model.lm_head.weight[eos].clone()
        model.lm_head.weight[eos] += 50 * model.lm_head.weight.abs().max()  # </s> wins from some step on
        try:
            r = run(tiny_t5, TEXTS[2], biased)
        finally:
            model.lm_head.weight[eos] = saved
    assert r.finished and r.steps[-1].token == "</s>" and r.output_ids[-1] == eos and len(r.steps) < 12
    assert "<extra_id_0>" in r.source_tokens and r.source_tokens[-1] == "</s>"
    data = r.to_dict()
    assert data["steps"][0]["read"] == "<pad>" and len(data["steps"]) == len(r.steps)
    assert len(data["steps"][0]["cross_attention_mean"]) == len(r.source_tokens)
    assert set(data["attention"]) == set(t5.FAMILIES)


def test_the_entry_checks_caches_and_refuses(tiny_t5, tiny_clm):
    runtime = Runtime(load=lambda key, **_: tiny_t5)  # "t5-small" is a registered encoder-decoder: the check runs
    request = t5.TextToTextRequest(TEXTS[0], "t5-small", max_new_tokens=5)
    first = t5.run_text_to_text(request, runtime)
    assert t5.run_text_to_text(request, runtime) is first and len(first.steps) <= 5
    refusals = [
        (t5.TextToTextRequest(TEXTS[0], "gpt2"), "input_model_kind"),
        (t5.TextToTextRequest(TEXTS[0], "t5-small", max_new_tokens=0), "input_not_whole"),
        (t5.TextToTextRequest(TEXTS[0], "t5-small", temperature=-1), "input_not_number"),
        (t5.TextToTextRequest("   ", "t5-small"), "t5_empty_text"),
        (t5.TextToTextRequest("x" * (t5.MAX_TEXT_CHARS + 1), "t5-small"), "input_text_too_long"),
        (t5.TextToTextRequest(" ".join(["bank"] * 300), "t5-small"), "t5_too_long"),
    ]
    for request, code in refusals:
        with pytest.raises(InputError) as refused:
            t5.run_text_to_text(request, Runtime(load=lambda key, **_: tiny_t5))
        assert refused.value.code == code, request
