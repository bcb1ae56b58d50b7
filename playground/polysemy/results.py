"""The polysemy demo's request and results: what one run asks and what it returns (frozen; numpy arrays inside)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from playground.polysemy.readings import Reading

POOLING = ("mean", "first")
PROJECTIONS = ("pca", "tsne")


@dataclass(frozen=True)
class Note:
    """Why a model's panel lacks something, as a code and its parameters: the renderer words it in either language."""

    code: str  # "no_piece", "not_in_vocabulary", "unknown_word" (the word became the unknown token) or
    # "same_input" (sentences that are one and the same token sequence for this model): the last two void a reading
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SenseVectors:
    """Vectors of the target word in each found sentence, at every layer of one model (or one static table)."""

    key: str  # "minilm", "minilm:input", "glove"
    model_id: str
    label: str
    source: str  # "contextual", "input" (the model's input-embedding rows) or "static"
    family_kind: str  # the registry kind ("encoder", "masked", "causal", "static")
    device: str
    rows: list[int]  # indices into the targets of the sentences that have a vector
    pieces: list[list[str]]  # the subword pieces pooled for each row
    layers: np.ndarray  # (n_layers + 1, len(rows), hidden); layer 0 = embeddings
    notes: tuple[Note, ...] = ()  # why sentences are missing, if any; unknown tokens and identical inputs
    model_label: str = ""  # the registry label alone (`label` adds " · input embeddings" for the input rows)
    # (n_layers + 1, len(rows), hidden): per sentence, the mean of the unit vectors of its other tokens (not the word,
    # not special tokens). A word vs another sentence's other words is the reference a cosine needs: contextual
    # vectors share a direction, so even unrelated tokens have a high cosine. None for tables and input rows.
    others: np.ndarray | None = None


@dataclass(frozen=True)
class PolysemyRequest:
    """One run of the polysemy demo: a word, its sentences (one per line, `label | text`), the models and the view."""

    word: str
    sentences: str | tuple[str, ...]
    models: tuple[str, ...]
    input_embeddings: bool = True  # also each transformer's input-embedding rows (its static vector)
    layer: int | str = "last"  # "last" or a layer number (0 = embeddings); a model without it shows its last
    pooling: str = "mean"
    projection: str = "pca"
    dims: int = 2
    seed: int = 0


@dataclass(frozen=True)
class Sentence:
    index: int  # position after grouping by sense (what `rows` refer to)
    label: str
    text: str
    span: tuple[int, int] | None  # characters of the word in `text`; None when not found


@dataclass(frozen=True)
class ModelView:
    """One model's (or static table's) panel: the plotted layer's points and similarities, scores at every layer."""

    key: str
    model_id: str
    label: str
    source: str
    device: str
    layer: int  # the layer shown
    num_layers: int  # 0 for a single-vector baseline
    layer_fallback: bool  # the requested layer does not exist in this model: its last layer is shown
    rows: list[int]
    pieces: list[list[str]]
    coords: np.ndarray  # (len(rows), dims)
    similarity: np.ndarray  # (len(rows), len(rows)) cosine at the shown layer
    separation: float  # at the shown layer: mean within-sense cosine minus mean cross-sense cosine
    nn_accuracy: float  # at the shown layer: leave-one-out nearest-neighbour sense accuracy
    separation_by_layer: np.ndarray  # (num_layers + 1,)
    nn_accuracy_by_layer: np.ndarray  # (num_layers + 1,)
    notes: tuple[Note, ...]
    family_kind: str = field(default="", repr=False)  # the registry kind: the reading adds a caveat for causal models
    model_label: str = field(default="", repr=False)  # the registry label alone, for the translated panel titles
    vectors: np.ndarray = field(default=None, repr=False)  # (len(rows), hidden) at the shown layer, for the CSV export
    # With few sentences (FEW or fewer), the cosine between each pair of uses at every layer: what exercise 1 asks
    # for. [{"pair": [sentence a, sentence b] (1-based), "by_layer": [cos at layer 0, 1, ...]}]
    pair_cosines: list = field(default_factory=list)


@dataclass(frozen=True)
class PolysemyRun:
    word: str
    pooling: str
    projection: str
    dims: int
    sentences: list[Sentence]
    models: list[ModelView]
    readings: tuple[Reading, ...] = ()  # what the numbers say, per panel and for the run (playground.polysemy.readings)
    notes: tuple[Note, ...] = ()  # about the run: "not_chinese" (a Chinese word, models not trained on Chinese)
