"""The /masking endpoint: one draw of a masking objective (and its statistics) as JSON, through the tab's one entry."""

from __future__ import annotations

from playground.masking import MaskingRequest, MaskingRun, run_masking
from playground.serialize import jsonable
from playground.ui.common.widgets import for_request, friendly_errors


def masking_run(request: MaskingRequest, lang: str, progress=None) -> MaskingRun:
    """The backend entry with errors in the user's language (run_masking checks every type and range)."""
    with friendly_errors(lang):
        return run_masking(request, for_request(lang, progress))  # a failed load comes back as one InputError


def masking_api(
    text: str,
    model: str = "minilm",  # every parameter is checked on the server: a wrong type gets a clear message
    strategy: str = "bert",
    seed: int = 0,
    mlm_probability: float = 0.15,
    mask_replace_prob: float = 0.8,
    random_replace_prob: float = 0.1,
    epochs: int = 6,
    prefix_len: int = 6,
    generator: str = "auto",
    draws: int = 0,
    lang: str = "en",
) -> dict:
    """One draw of a masking objective on `text` (and its statistics over `draws` draws), as JSON.

    Args:
        text: at most 2,000 characters (the first 64 tokens are used).
        model: the registry key whose tokenizer is used (e.g. "minilm", "bert", "roberta", "bert-chinese").
        strategy: "bert", "wwm", "dynamic", "span", "permutation", "electra", "t5" or "attention".
        seed: a whole number from 0 to 4294967295.
        mlm_probability: the share of tokens chosen, from 0 to 1.
        mask_replace_prob: of those, the share replaced by the mask token, from 0 to 1.
        random_replace_prob: of those, the share replaced by a random token, from 0 to 1 (the two sum to at most 1).
        epochs: "dynamic" only: how many epochs to draw, 1 to 20.
        prefix_len: "attention" (UniLM) only: the source length, 1 to 64.
        generator: "electra" only: "auto", "masked:<key>", "causal:<key>" or "uniform".
        draws: statistics over this many draws, 0 (none) to 10,000.
        lang: "en" or "zh", the language of messages and labels in the result.
    """
    request = MaskingRequest(
        text, model, strategy, seed, mlm_probability, mask_replace_prob, random_replace_prob, epochs, prefix_len,
        generator, draws,
    )  # fmt: skip
    return jsonable(masking_run(request, lang))
