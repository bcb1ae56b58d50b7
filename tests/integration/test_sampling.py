"""Sampling on the bundled SmolLM2-135M-Instruct (English only; Chinese needs gpt2-chinese from the hub)."""

import pytest
import torch

from playground import sampling
from playground.sampling import generation

PROMPT = "The future of AI is"


@pytest.fixture(scope="module")
def lm(smollm):
    return smollm


def test_entropy_rises_with_temperature(lm):
    result = sampling.next_token(lm, PROMPT, [sampling.settings(t, 0, 1.0) for t in (0.1, 0.8, 1.5)])
    entropies = [view.entropy["temperature"] for view in result.views]
    assert entropies[0] < entropies[1] < entropies[2]
    assert result.views[0].nucleus_size == result.views[0].kept["raw"]  # no top-k/top-p: the whole vocabulary stays


def test_english_prompt_gets_english_continuations(lm):
    result = generation.generate(lm, PROMPT, sampling.settings(0.8, 50, 0.95), 25, 3, 0)
    for sample in result.samples:
        letters = [ch for ch in sample.text if ch.isalpha()]
        assert letters, sample.text
        latin = sum(ch.isascii() for ch in letters) / len(letters)
        assert latin > 0.95, sample.text
        assert not any("\u4e00" <= ch <= "\u9fff" for ch in sample.text)


def test_same_tokens_as_generate_on_real_weights(lm):
    s = sampling.settings(0.8, 50, 0.95)
    ours = [c.token_id for c in generation.generate(lm, PROMPT, s, 20, 1, 3).samples[0].tokens]
    ids = torch.tensor([sampling.encode_prompt(lm, PROMPT)], device=lm.device)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(3)
        out = lm.model.generate(
            ids, do_sample=True, temperature=0.8, top_k=50, top_p=0.95, max_new_tokens=20, pad_token_id=lm.tokenizer.eos_token_id
        )
    assert ours == out[0, ids.shape[1] :].tolist()[: len(ours)]


def test_cached_steps_see_the_same_distribution_as_a_full_recompute(lm):
    s = sampling.settings(1.0, 0, 1.0)
    sampler = generation.Sampler(lm, PROMPT, s, seed=0, n=1, max_new_tokens=6)
    views = [sampler.step(lm, view=True) for _ in range(6)]
    prefix = sampler.prompt_ids + [c.token_id for c in sampler.choices[0][:5]]
    full = sampling.distribution(lm, sampling.next_token_logits(lm, prefix), s)
    assert full.token_ids[:5] == views[-1].token_ids[:5]
    assert abs(full.probs["raw"][0] - views[-1].probs["raw"][0]) < 1e-3


def test_a_chinese_prompt_shows_no_replacement_character_in_the_chinese_figure(lm):
    """SmolLM2 reads 人工智能 as byte pieces: the zh figure's bars and titles show completed characters or <0xE4>,
    never "\ufffd" (this was checked in the browser, tests/e2e/test_sampling.py, before the tier was cut)."""
    import json

    from playground.ui.sampling.run import next_token_figure

    result = sampling.next_token(lm, "人工智能的未来", [sampling.settings(0.8, 0, 1.0)])
    figure = json.loads(next_token_figure(result, "zh").to_json())
    shown = json.dumps(figure, ensure_ascii=False)
    assert "原始 softmax" in shown  # the Chinese figure, with its token labels in it
    labels = figure["data"][0]["y"]  # the bars' token labels (horizontal bars)
    assert any("<0x" in label for label in labels)  # byte pieces are here, and they read as <0xE5>, not as "\ufffd"
    assert "\ufffd" not in shown
