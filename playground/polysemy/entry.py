"""The polysemy demo's one entry: `run_polysemy(PolysemyRequest, runtime) -> PolysemyRun`, page and API alike."""

from __future__ import annotations

from playground import checks
from playground.polysemy.checks import check_models, check_request
from playground.polysemy.readings import read_run
from playground.polysemy.results import Note, PolysemyRequest, PolysemyRun, Sentence
from playground.polysemy.vectors import cached_vectors
from playground.polysemy.views import view
from playground.runtime import Runtime
from playground.text_units import not_reading_chinese


def not_chinese(word: str, keys: tuple[str, ...], runtime: Runtime) -> tuple[Note, ...]:
    """A Chinese word and models not trained on Chinese: the one rule (text_units.not_reading_chinese), as a note."""
    deaf = not_reading_chinese(word, [runtime.spec(key, "models") for key in keys])
    return (Note("not_chinese", {"models": [s.label for s in deaf]}),) if deaf else ()


def run_polysemy(request: PolysemyRequest, runtime: Runtime) -> PolysemyRun:
    """The polysemy demo's one entry: every chosen model's vectors for the word, projected, compared, scored, read.

    `runtime.model(key)` gives the models (tests build a Runtime with tiny ones); the vectors are kept in the
    runtime's cache, so another layer or projection of the same sentences runs no model."""
    word, targets, layer, dims = check_request(request)
    keys = check_models(request.models)
    found = [v for key in keys for v in cached_vectors(key, word, targets, request.pooling, request.input_embeddings, runtime)]
    sentences = [Sentence(i, t.label, t.text, t.span) for i, t in enumerate(targets)]
    views = [view(v, targets, layer, request.projection, dims, checks.seed(request.seed)) for v in found]
    return PolysemyRun(
        word=word,
        pooling=request.pooling,
        projection=request.projection,
        dims=dims,
        sentences=sentences,
        models=views,
        readings=read_run(word, sentences, views),
        notes=not_chinese(word, keys, runtime),
    )
