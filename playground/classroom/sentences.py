"""Our sentences, one picture: every student's sentence with the teacher's word is a point, contextual beside static.

The vectors are the polysemy demo's (playground.polysemy.sense_vectors: the word's pieces pooled from a
transformer's hidden states, and from its input-embedding rows, its static baseline), projected by its `project`
and scored by its `sense_scores` with the students' sense labels. Nothing here embeds a word another way.

The board polls every second or two while students answer, so each sentence is embedded once and kept in the
runtime's cache under (model, word, sentence): a refresh runs the model only on the sentences that arrived since
the last one (in one padded batch), then projects the visible ones (PCA on at most a class's worth of points:
milliseconds). The same sentence gives the same vectors, and PCA has a fixed seed, so the picture is deterministic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from playground.alignment import Target, find_word
from playground.errors import InputError
from playground.models import LoadedModel
from playground.polysemy import KINDS, cosine_matrix, project, sense_scores, sense_vectors
from playground.registry import ModelSpec
from playground.runtime import Runtime

if TYPE_CHECKING:  # a type only: activities.py builds its question with `probe` from here
    from playground.classroom.activities import Question

CACHE = "class-sentences"  # the runtime's cache of one vector pair per (model, word, sentence)
CAPACITY = 4096  # sentences kept (two vectors of a few hundred floats each: a few MB)
POOLING = "mean"  # the polysemy demo's default: a word of several pieces is their mean
BATCH = 64  # sentences per forward pass when many arrive at once
SIDES = ("contextual", "input")  # the model's hidden state at the question's layer; its input-embedding rows


@dataclass(frozen=True)
class Side:
    source: str  # "contextual" or "input"
    layer: int  # the layer drawn (0 for the input rows)
    coords: np.ndarray  # (points, 2): PCA of the points' vectors
    separation: float  # the polysemy demo's within-sense minus cross-sense cosine (NaN under two senses)
    nn_accuracy: float  # leave-one-out nearest-neighbour sense accuracy (NaN while a sense has one sentence)


@dataclass(frozen=True)
class Picture:
    word: str
    senses: tuple[str, ...]  # the teacher's labels
    sentences: tuple[str, ...]  # the placed sentences, in drawing order
    labels: tuple[int, ...]  # each placed sentence's sense (an index into `senses`), as its student chose it
    sides: tuple[Side, ...]  # contextual, then static
    unplaced: int  # visible sentences where no token of the model covers the word (left out of the picture)
    model_label: str


def probe(word: str, model: str, runtime: Runtime) -> tuple[ModelSpec, int]:
    """The question's model and the layer the picture draws (its last): the word alone through the polysemy backend,
    which loads the model when the teacher asks and refuses a word the model has no token of."""
    spec = runtime.spec(model, "model", KINDS)
    contextual, _ = sense_vectors(runtime.model(spec.key), word, [Target("", word, (0, len(word)))], POOLING, True)
    # the projection too: its first call imports scikit-learn (seconds), which the board's first refresh would wait on
    project(contextual.layers[-1], "pca", 2, 0)
    return spec, len(contextual.layers) - 1


def _embed(lm: LoadedModel, word: str, sentences: list[str], layer: int) -> list[tuple]:
    """Each sentence's (contextual vector at `layer`, input-embedding vector), or () where no token covers the word."""
    out: list[tuple] = []
    for start in range(0, len(sentences), BATCH):
        chunk = sentences[start : start + BATCH]
        targets = [Target("", s, find_word(s, word)) for s in chunk]
        try:
            contextual, rows = sense_vectors(lm, word, targets, POOLING, True)
        except InputError as exc:
            if exc.code != "polysemy_not_aligned":
                raise
            out += [()] * len(chunk)
            continue
        at = {row: k for k, row in enumerate(contextual.rows)}
        shown = min(layer, len(contextual.layers) - 1)
        out += [(contextual.layers[shown][at[i]], rows.layers[0][at[i]]) if i in at else () for i in range(len(chunk))]
    return out


def vectors(question: Question, sentences: list[str], runtime: Runtime) -> list[tuple]:
    """Each sentence's vector pair, from the cache, the missing ones embedded now in one pass and cached one by one."""
    cache = runtime.cache(CACHE, CAPACITY)
    keys = [(question.model, question.prompt, s) for s in sentences]
    found = {k: cache.peek(k) for k in keys}
    missing = [k for k in dict.fromkeys(keys) if found[k] is None]
    if missing:
        made = _embed(runtime.model(question.model), question.prompt, [s for _, _, s in missing], question.layer)
        for key, value in zip(missing, made):
            found[key] = cache.get(key, lambda v=value: v)  # a value another refresh stored meanwhile wins: equal
    return [found[k] for k in keys]


def picture(question: Question, answers: list[str], runtime: Runtime, model_label: str = "") -> Picture:
    """The picture of the visible answers ("<sense>|<sentence>", as kept): one point per placed sentence per side."""
    # sorted by sense, then text: the same answers draw the same picture whichever order they arrived in (two
    # students with one sentence are two points, at one place)
    entries = sorted((int(i), s) for i, _, s in (a.partition("|") for a in answers))
    pairs = vectors(question, [s for _, s in entries], runtime)
    placed = [(e, v) for e, v in zip(entries, pairs) if v]
    labels = [str(i) for (i, _), _ in placed]
    sides = []
    for k, source in enumerate(SIDES):
        matrix = np.stack([v[k] for _, v in placed]) if placed else np.zeros((0, 1), np.float32)
        separation, accuracy = sense_scores(cosine_matrix(matrix), labels) if len(placed) > 1 else (math.nan, math.nan)
        layer = question.layer if source == "contextual" else 0
        sides.append(Side(source, layer, project(matrix, "pca", 2, 0), separation, accuracy))
    return Picture(
        word=question.prompt,
        senses=question.choices,
        sentences=tuple(s for (_, s), _ in placed),
        labels=tuple(i for (i, _), _ in placed),
        sides=tuple(sides),
        unplaced=len(entries) - len(placed),
        model_label=model_label or question.model_label,
    )
