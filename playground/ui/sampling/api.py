"""The sampling endpoints: /next_token and /generate, the same backend entries the tab calls, as JSON."""

from __future__ import annotations

from playground import sampling
from playground.sampling import generation
from playground.ui.common.widgets import for_request, friendly_errors


def next_token_api(
    prompt: str,
    model: str = "",
    temperature: float = 0.8,
    top_k: int = 0,
    top_p: float = 1.0,
    temperatures: list[float] | None = None,
    lang: str = "en",
) -> dict:
    """Next-token distribution views; `temperatures` gives one view per temperature (else one for `temperature`).

    Args:
        prompt: the text to continue, at most 5,000 characters ("" starts from the start token).
        model: a registry key of a causal LM ("gpt2", "gpt2-chinese", "smollm2-instruct", ...); "" for the first available.
        temperature: from 0 (greedy) to 2.
        top_k: keep the k most probable tokens, 0 (off) to 1,000.
        top_p: keep the smallest set of tokens whose probability reaches p, above 0 and at most 1 (1 = off).
        temperatures: at most 8 temperatures from 0 to 2, one view each (None or [] for one view at `temperature`).
        lang: "en" or "zh", the language of messages and labels in the result.
    """
    request = sampling.NextTokenRequest(prompt, model, temperature, top_k, top_p, temperatures)
    with friendly_errors(lang):
        return sampling.run_next_token(request, for_request(lang)).to_dict()


def generate_api(
    prompt: str,
    model: str = "",
    temperature: float = 0.8,
    top_k: int = 0,
    top_p: float = 1.0,
    max_new_tokens: int = 40,
    n_samples: int = 1,
    seed: int = 0,
    lang: str = "en",
) -> dict:
    """Sampled continuations with, per token, its probability, rank and the most probable alternatives.

    Args:
        prompt: the text to continue, at most 5,000 characters ("" starts from the start token).
        model: a registry key of a causal LM ("gpt2", "gpt2-chinese", "smollm2-instruct", ...); "" for the first available.
        temperature: from 0 (greedy) to 2.
        top_k: keep the k most probable tokens, 0 (off) to 1,000.
        top_p: keep the smallest set of tokens whose probability reaches p, above 0 and at most 1 (1 = off).
        max_new_tokens: 1 to 200 tokens per sample.
        n_samples: 1 to 5 samples (max_new_tokens x n_samples at most 400).
        seed: a whole number from 0 to 2**32 - 1; the same seed gives the same text.
        lang: "en" or "zh", the language of messages and labels in the result.
    """
    request = generation.GenerateRequest(prompt, model, temperature, top_k, top_p, max_new_tokens, n_samples, seed)
    with friendly_errors(lang):
        return generation.run_generate(request, for_request(lang)).to_dict()
