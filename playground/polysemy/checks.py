"""The polysemy request's checks: every refusal before any model loads, in the checks' words."""

from __future__ import annotations

from typing import Any

from playground import checks
from playground.alignment import Target, parse_sentences
from playground.errors import InputError
from playground.polysemy.results import POOLING, PROJECTIONS, PolysemyRequest
from playground.polysemy.vectors import VECTORS

MAX_MODELS = 12  # models in one request (the registry holds fewer; a longer list is a mistake or an attack)
MAX_TEXT = 20_000  # characters of sentences in one request (64 lines of ~300 characters)
MAX_WORD = 100  # characters of the target word


def check_options(pooling: Any, projection: Any, dims: Any) -> int:
    """Pooling and projection from their lists; dims 2 or 3 (the page's radio sends "2" / "3", JSON sends 2 / 3)."""
    checks.choice(pooling, "pooling", POOLING)
    checks.choice(projection, "projection", PROJECTIONS)
    return int(dims) if dims in ("2", "3") else checks.whole(dims, "dims", 2, 3)


MAX_LAYER = 200  # deeper than any registered model: a layer past a model's depth shows its last


def parse_layer(value: Any) -> int | None:
    """'last' (or empty) -> None; a whole layer number from 0 (the page's menu sends "3") -> that number."""
    return checks.layer(value, "layer", MAX_LAYER)


def check_models(value: Any) -> tuple[str, ...]:
    """A list of model keys, at most MAX_MODELS, each allow-listed and of a kind with vectors; duplicates once."""
    keys = checks.keys(value, "models", MAX_MODELS)
    if not keys:
        raise InputError("polysemy_no_models", "Choose at least one model.")
    for key in keys:
        checks.model_key(key, "models", VECTORS)
    return keys


def check_sentences(value: Any) -> str | tuple[str, ...]:
    """Text, one sentence per line (the Python API may pass a tuple of lines)."""
    if isinstance(value, tuple) and all(isinstance(line, str) for line in value):  # the Python API's one-line-each form
        checks.text("\n".join(value), "sentences", MAX_TEXT)
        return value
    return checks.text(value, "sentences", MAX_TEXT)


def check_request(request: PolysemyRequest) -> tuple[str, list[Target], int | None, int]:
    """Validate a request before any model loads: (word, grouped sentences, layer or None for last, dims).

    Types first (the API hands on whatever JSON a client sent): every refusal is an InputError a student can read.
    """
    if request.word is None:
        raise InputError("polysemy_no_word", "Enter the word to follow through the sentences.")
    word = checks.text(request.word, "word", MAX_WORD).strip()
    sentences = check_sentences(request.sentences)
    check_models(request.models)
    checks.flag(request.input_embeddings, "input_embeddings")
    layer = parse_layer(request.layer)
    dims = check_options(request.pooling, request.projection, request.dims)
    checks.seed(request.seed)
    targets = parse_sentences(word, sentences)
    if all(t.span is None for t in targets):
        raise InputError("polysemy_not_found", "'{word}' occurs in none of the sentences.", word=word)
    return word, targets, layer, dims
