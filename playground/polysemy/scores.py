"""How well a layer's vectors separate the senses: cosine similarities and two scores over the labelled sentences."""

from __future__ import annotations

import numpy as np


def cosine_matrix(vectors: np.ndarray) -> np.ndarray:
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=-1, keepdims=True), 1e-12)
    return np.clip(unit @ np.swapaxes(unit, -1, -2), -1.0, 1.0)


def sense_scores(similarity: np.ndarray, labels: list[str]) -> tuple[float, float]:
    """(within-minus-cross cosine, leave-one-out nearest-neighbour accuracy) over the labelled rows; NaN if undefined.

    The accuracy needs at least two sentences of every sense: a sentence alone in its sense has no
    neighbour of its own sense, so it would count as a miss whatever the vectors (NaN instead).
    Ties for the nearest neighbour (identical static vectors) earn the share of tied
    neighbours with the right sense: the expected accuracy of breaking ties at random.
    """
    keep = [i for i, label in enumerate(labels) if label]
    lab = np.array([labels[i] for i in keep])
    if len(set(lab)) < 2:
        return float("nan"), float("nan")
    sim = similarity[np.ix_(keep, keep)]
    same, off = lab[:, None] == lab[None, :], ~np.eye(len(keep), dtype=bool)
    within = sim[same & off]
    separation = float(within.mean() - sim[~same].mean()) if within.size else float("nan")
    if min(np.unique(lab, return_counts=True)[1]) < 2:
        return separation, float("nan")
    hits = []
    for i in range(len(keep)):
        others = np.flatnonzero(off[i])
        best = others[sim[i, others] >= sim[i, others].max() - 1e-6]
        hits.append(float(np.mean(lab[best] == lab[i])))
    return separation, float(np.mean(hits))
