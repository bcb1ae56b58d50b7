"""The text-to-text endpoint (/text_to_text): an encoder-decoder's run, step by step, with its attentions as JSON."""

from __future__ import annotations

from playground.serialize import jsonable
from playground.t5 import TextToTextRequest, run_text_to_text
from playground.ui.common.widgets import for_request, friendly_errors


def text_to_text_api(
    text: str,
    model: str = "",
    max_new_tokens: int = 24,
    temperature: float = 0.0,
    top_k: int = 0,
    top_p: float = 1.0,
    seed: int = 0,
    lang: str = "en",
) -> dict:
    """An encoder-decoder (T5) writes its answer one decoder step at a time: each step's next-token distribution
    (the sampling tab's stages), the token chosen, its cross-attention over the source, and the three attention
    families of the run (encoder self, decoder self, cross).

    Args:
        text: the input with its task prefix (e.g. "translate English to German: That is good."), at most 2,000
            characters and 256 tokens.
        model: a registry key of an encoder-decoder ("t5-small", "flan-t5-small", "t5-chinese", "t5-classroom");
            "" = the first available (offline: the classroom T5 trained here).
        max_new_tokens: decoder steps at most, a whole number from 1 to 64 (it stops earlier at </s>).
        temperature: 0 (greedy, the default) or from 0.0001 to 2.
        top_k: keep the k most probable tokens, a whole number from 0 (off) to 1000.
        top_p: keep the smallest set with this much probability, a number above 0 and at most 1 (1 = off).
        seed: the sampler's seed, a whole number from 0 (used when temperature > 0).
        lang: "en" or "zh", the language of messages.
    """
    with friendly_errors(lang):
        request = TextToTextRequest(text, model, max_new_tokens, temperature, top_k, top_p, seed)
        return jsonable(run_text_to_text(request, for_request(lang)).to_dict())
