"""The forward-pass endpoint (/forward): one pass through a real model, every stage as JSON."""

from __future__ import annotations

from playground.forward import ForwardRequest, run_forward
from playground.serialize import jsonable
from playground.ui.common.widgets import for_request
from playground.ui.common.widgets import friendly_errors


def forward_api(model: str, text: str, token: int = -1, top_k: int = 5, lang: str = "en") -> dict:
    """One forward pass, every stage: tokens, each stage's vector at the chosen token (checked against its formula),
    per-layer norms, every head's attention, what each layer would predict (logit lens) and the final top-k.

    Args:
        model: a registry key of a masked LM, causal LM or encoder (e.g. "minilm-mlm", "e5-mlm", "smollm2-instruct").
        text: the sentence, at most 2,000 characters and 128 tokens; with a masked LM, [MASK] marks the blank.
        token: the position to follow, a whole number from -1 to the tokens - 1; -1: the first [MASK] (else the last
            token that is not special).
        top_k: how many predictions per layer, a whole number from 1 to 20.
        lang: "en" or "zh", the language of messages.
    """
    with friendly_errors(lang):
        return jsonable(run_forward(ForwardRequest(model, text, token, top_k), for_request(lang)))
