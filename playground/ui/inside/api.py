"""The Inside-BERT endpoints (/inside_embeddings, /inside_params, /inside_nsp, /inside_heads) and the backend calls the
page shares with them, errors in the user's language."""

from __future__ import annotations

from typing import Any

from playground.inside.embeddings_input import EMBEDDING_PARTS, KINDS, EmbeddingsRequest, run_embeddings
from playground.inside.heads import HeadsRequest, run_heads
from playground.inside.nsp import NspRequest, run_nsp
from playground.inside.params import ParamsRequest, run_params
from playground.registry import get_spec
from playground.serialize import jsonable
from playground.ui.common.widgets import for_request, friendly_errors, model_choices

TEXT_A, TEXT_B = "The cat sat on the mat.", "It fell asleep in the sun."  # the page's example pair
NSP_TEXT = (
    "The cat sat on the mat. It fell asleep in the sun. Later it woke up hungry.\n\n"
    "Stocks fell sharply on Monday. Investors worried about interest rates. Markets recovered by Friday."
)


def embedding_choices(lang: str) -> list[tuple[str, str]]:
    """The encoders whose input embeddings the view can take apart, as a menu."""
    return [(label, key) for label, key in model_choices(KINDS, lang) if get_spec(key).model_type in EMBEDDING_PARTS]


def embeddings(text_a: str, text_b: str, model: str, lang: str, progress: Any = None):
    with friendly_errors(lang):
        request = EmbeddingsRequest(text_a, "" if text_b is None else text_b, "minilm" if model is None else model)
        return run_embeddings(request, for_request(lang, progress))


def params(base: str, embedding_size: int, share_layers: bool | str, lang: str):
    with friendly_errors(lang):
        return run_params(ParamsRequest("bert-base" if base is None else base, embedding_size, share_layers), for_request(lang))


def nsp(text: str, seed: int, budget: int, lang: str, model: str | None = None, progress: Any = None):
    with friendly_errors(lang):
        request = NspRequest(text, seed, budget, None if model is None or model == "" else model)
        return run_nsp(request, for_request(lang, progress))


def heads(source: str, lang: str):
    with friendly_errors(lang):
        return run_heads(HeadsRequest("bert-base" if source is None else source), for_request(lang))


def inside_embeddings_api(text_a: str, text_b: str = "", model: str = "minilm", lang: str = "en") -> dict:
    """Token, segment and position embeddings per token, their sum, LayerNorm, and max |difference| to the model's own.

    Args:
        text_a: the first sentence (at most 64 tokens with text_b).
        text_b: a second sentence ("" for none).
        model: a registry key of a BERT-style encoder (e.g. "minilm", "bert").
        lang: "en" or "zh", the language of messages and labels in the result.
    """
    return jsonable(embeddings(text_a, text_b, model, lang))


def inside_params_api(
    base: str = "bert-base", embedding_size: int = 128, share_layers: bool | str = True, lang: str = "en"
) -> dict:
    """Parameter counts by part of BERT/RoBERTa/DistilBERT/ELECTRA/ALBERT (published configs, the papers' figures
    beside) plus an ALBERT-style "what if" model.

    Args:
        base: a BERT-shaped published configuration to take the "what if" sizes from (e.g. "bert-base",
            "roberta-base", "albert-base"; the tab's menu lists them all).
        embedding_size: the factorised embedding size E of the "what if" model, a whole number from 1 to the hidden size.
        share_layers: which weights the "what if" model shares across layers: true or "all", "attention", "ffn",
            false or "none".
        lang: "en" or "zh", the language of messages and labels in the result.
    """
    return jsonable(params(base, embedding_size, share_layers, lang))


def inside_nsp_api(text: str, seed: int = 0, budget: int = 32, model: str = "", lang: str = "en") -> dict:
    """NSP pairs, [CLS] A [SEP] B [SEP] layout, RoBERTa packing, ALBERT sentence order; NSP probabilities online.

    Args:
        text: a few sentences, at most 5,000 characters and 200 sentences.
        seed: a whole number, 0 or more: which random sentence becomes the NotNext partner.
        budget: RoBERTa's packing budget in tokens, a whole number from 8 to 512.
        model: "" for the NSP model when it can load, else a registry key of an NSP model ("bert-nsp").
        lang: "en" or "zh", the language of messages and labels in the result.
    """
    return jsonable(nsp(text, seed, budget, lang, model or None))


def inside_heads_api(source: str = "bert-base", lang: str = "en") -> dict:
    """Per fine-tuning task: what feeds the head, its weight shapes and its new parameter count.

    Args:
        source: a published config ("bert-base", "roberta-base", "albert-base", ...) or a bundled encoder ("minilm").
        lang: "en" or "zh", the language of messages and labels in the result.
    """
    return jsonable(heads(source, lang))


ENDPOINTS = {
    "inside_embeddings": inside_embeddings_api,
    "inside_params": inside_params_api,
    "inside_nsp": inside_nsp_api,
    "inside_heads": inside_heads_api,
}
