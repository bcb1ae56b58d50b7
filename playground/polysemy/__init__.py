"""Contextual vs static word vectors: one word, many sentences, one vector per sentence per layer.

The demo's one entry is `run_polysemy(PolysemyRequest, runtime) -> PolysemyRun`, called by the page and the API;
the API returns the run as JSON (readings included: playground.polysemy.readings) and the tab renders it.

A contextual model gives "bank" a different vector in every sentence; GloVe and the
model's own input-embedding rows give the same one. Sense-separation scores per layer
show where in the network the senses come apart.

One module per concern: results.py (request and results), vectors.py (each kind of model's vectors, cached),
scores.py (cosines and sense scores), projection.py (PCA / t-SNE), checks.py (refusals before any load),
views.py (one model at one layer), readings.py (readings as data), entry.py (run_polysemy), code.py (the script).
"""

from playground.polysemy.results import (
    POOLING,
    PROJECTIONS,
    ModelView,
    Note,
    PolysemyRequest,
    PolysemyRun,
    Sentence,
    SenseVectors,
)
from playground.polysemy.vectors import (
    KINDS,
    VECTORS,
    VECTORS_CACHE,
    cached_vectors,
    contextual_vectors,
    input_notes,
    sense_vectors,
    static_vectors,
)
from playground.polysemy.scores import cosine_matrix, sense_scores
from playground.polysemy.projection import TSNE_MIN_POINTS, project
from playground.polysemy.checks import (
    MAX_LAYER,
    MAX_MODELS,
    MAX_TEXT,
    MAX_WORD,
    check_models,
    check_options,
    check_request,
    check_sentences,
    parse_layer,
)
from playground.polysemy.views import FEW, view
from playground.polysemy.entry import not_chinese, run_polysemy
from playground.polysemy.readings import Reading, read_run

__all__ = [
    "POOLING",
    "PROJECTIONS",
    "ModelView",
    "Note",
    "PolysemyRequest",
    "PolysemyRun",
    "Sentence",
    "SenseVectors",
    "KINDS",
    "VECTORS",
    "VECTORS_CACHE",
    "cached_vectors",
    "contextual_vectors",
    "input_notes",
    "sense_vectors",
    "static_vectors",
    "cosine_matrix",
    "sense_scores",
    "TSNE_MIN_POINTS",
    "project",
    "MAX_LAYER",
    "MAX_MODELS",
    "MAX_TEXT",
    "MAX_WORD",
    "check_models",
    "check_options",
    "check_request",
    "check_sentences",
    "parse_layer",
    "FEW",
    "view",
    "not_chinese",
    "run_polysemy",
    "Reading",
    "read_run",
]
