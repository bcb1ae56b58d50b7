"""The ELMo endpoints (/elmo_vectors, /elmo_bilm, /elmo_oov) and the backend calls the page shares with them.

ELMo runs on the CPU (models.py keeps its small LSTMs there): no GPU call, on a ZeroGPU Space too. Errors come in the
user's language.
"""

from __future__ import annotations

from typing import Any

from playground.elmo.views import ElmoBilmRequest, ElmoMixRequest, ElmoMixResult, ElmoOovRequest
from playground.elmo.views import run_elmo_bilm, run_elmo_mix, run_elmo_oov
from playground.serialize import jsonable
from playground.ui.common.widgets import for_request, friendly_errors

KINDS = ("elmo",)
DEFAULT_MODEL = "elmo-small"
DEFAULT_BILM = "the river overflowed its bank after the heavy rain"
DEFAULT_OOV = "playgroundy transformr bank"
# Raw scores w_j (softmaxed by the mix): "syntax-heavy" leans on layer 1, "semantics-heavy" on layer 2 (Peters et al.)
PRESETS = {"equal": (0.0, 0.0, 0.0), "syntax": (0.0, 2.0, 0.0), "semantics": (0.0, 0.0, 2.0), "layer0": (3.0, -3.0, -3.0)}
PRESET_KEYS = [(f"elmo.mix.preset.{k}", k) for k in PRESETS] + [("elmo.mix.preset.custom", "custom")]
SLIDERS = ("s0", "s1", "s2")  # the raw scores w₀ w₁ w₂, as the API names them


def preset_of(s0: float, s1: float, s2: float) -> str:
    """The preset these slider values are, or "custom": the radio never says "equal" beside a link's w₂ = 2."""
    values = tuple(round(float(x), 3) for x in (s0, s1, s2))
    return next((key for key, preset in PRESETS.items() if values == preset), "custom")


# Each view's script: /code's view and its endpoint's parameters
CODE = {
    "mix": lambda f: ("elmo_vectors", {k: f[k] for k in ("model", "word", "sentences", *SLIDERS, "gamma")}),
    "bilm": lambda f: ("elmo_bilm", {"model": f["model"], "sentence": f["bilm_sentence"], "top_k": f["top_k"]}),
    "oov": lambda f: ("elmo_oov", {"model": f["model"], "words": f["oov_words"]}),
}


def mix(model, word, sentences, s0, s1, s2, gamma, lang, progress=None) -> ElmoMixResult:
    with friendly_errors(lang):
        return run_elmo_mix(ElmoMixRequest(model, word, sentences, [s0, s1, s2], gamma), for_request(lang, progress))


def bilm(model, sentence, top_k, lang, progress=None):
    with friendly_errors(lang):
        return run_elmo_bilm(ElmoBilmRequest(model, sentence, top_k), for_request(lang, progress))


def oov(model, words, lang, progress=None):
    with friendly_errors(lang):
        return run_elmo_oov(ElmoOovRequest(model, words), for_request(lang, progress))


def elmo_vectors_api(
    word: str,
    sentences: str,
    model: str = DEFAULT_MODEL,
    s0: float = 0.0,
    s1: float = 0.0,
    s2: float = 0.0,
    gamma: float = 1.0,
    lang: str = "en",
) -> dict[str, Any]:
    """`word` in each sentence (one per line, `sense | sentence`): its vector in layers 0-2 and their mix
    gamma * sum_j s_j * layer_j with s = softmax(w), w = (s0, s1, s2) the raw scores (the page's w₀ w₁ w₂), with the
    2-D projection and sense separations.

    Args:
        word: one word (no spaces) that occurs in every sentence.
        sentences: 2 or more lines, one sentence each, optionally "sense | sentence".
        model: an ELMo registry key ("elmo-small", "elmo-allennlp-small", "elmo-allennlp-original").
        s0: the raw score w₀ of layer 0 (the character CNN), a number from -100 to 100 (softmax-normalised with
            s1, s2; the page's sliders go from -4 to 4).
        s1: the raw score w₁ of layer 1 (the first biLSTM), a number from -100 to 100.
        s2: the raw score w₂ of layer 2 (the second biLSTM), a number from -100 to 100.
        gamma: the scale of the mix, a number above 0 and at most 10 (the page's slider: 0.1 to 2).
        lang: "en" or "zh", the language of messages and labels in the result.
    """
    return jsonable(mix(model, word, sentences, s0, s1, s2, gamma, lang))


def elmo_bilm_api(sentence: str, model: str = DEFAULT_MODEL, top_k: int = 5, lang: str = "en") -> dict[str, Any]:
    """For each word of `sentence`: the forward LM's top guesses from the left context only, the backward LM's
    from the right context only, and each direction's probability of the actual word.

    Args:
        sentence: the sentence (English words).
        model: an ELMo registry key ("elmo-small", "elmo-allennlp-small", "elmo-allennlp-original").
        top_k: guesses per word and direction, a whole number from 1 to 20.
        lang: "en" or "zh", the language of messages and labels in the result.
    """
    return jsonable(bilm(model, sentence, top_k, lang))


def elmo_oov_api(words: str, model: str = DEFAULT_MODEL, lang: str = "en") -> dict[str, Any]:
    """Made-up or misspelled words: ELMo's layer-0 vector and its nearest vocabulary words, and whether GloVe has one.

    Args:
        words: one or more words separated by spaces or commas (the first few are used).
        model: an ELMo registry key ("elmo-small", "elmo-allennlp-small", "elmo-allennlp-original").
        lang: "en" or "zh", the language of messages and labels in the result.
    """
    return jsonable(oov(model, words, lang))


ENDPOINTS = {"elmo_vectors": elmo_vectors_api, "elmo_bilm": elmo_bilm_api, "elmo_oov": elmo_oov_api}
