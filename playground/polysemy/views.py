"""One model's view at one layer: its vectors projected, compared and scored (scores at every layer)."""

from __future__ import annotations

import numpy as np

from playground.alignment import Target
from playground.polysemy.projection import project
from playground.polysemy.results import ModelView, SenseVectors
from playground.polysemy.scores import cosine_matrix, sense_scores


FEW = 4  # up to this many sentences, each pair's cosine per layer is part of the result


def _reference(vectors: SenseVectors, a: int, b: int) -> list[float]:
    """Per layer, the word in one sentence against the other words of the other (mean cosine, both ways round): what
    the pair's cosine is to be read against, since contextual vectors of unrelated tokens are far from orthogonal."""
    unit = vectors.layers / np.maximum(np.linalg.norm(vectors.layers, axis=-1, keepdims=True), 1e-12)
    one = np.einsum("lh,lh->l", unit[:, a], vectors.others[:, b])
    two = np.einsum("lh,lh->l", unit[:, b], vectors.others[:, a])
    return [round(float(x), 6) for x in (one + two) / 2]


def view(vectors: SenseVectors, targets: list[Target], layer: int | None, projection: str, dims: int, seed: int) -> ModelView:
    """Project and compare one model's vectors at `layer` (None, or a layer it lacks = its last); scores at every layer."""
    depth = len(vectors.layers) - 1
    fallback = layer is not None and not 0 <= layer <= depth
    shown = depth if layer is None or fallback else layer
    labels = [targets[i].label for i in vectors.rows]
    sims = cosine_matrix(vectors.layers)
    scores = np.array([sense_scores(s, labels) for s in sims]).reshape(-1, 2)
    return ModelView(
        key=vectors.key,
        model_id=vectors.model_id,
        label=vectors.label,
        source=vectors.source,
        device=vectors.device,
        layer=shown,
        num_layers=depth,
        layer_fallback=fallback,
        rows=vectors.rows,
        pieces=vectors.pieces,
        coords=project(vectors.layers[shown], projection, dims, seed),
        similarity=sims[shown],
        separation=float(scores[shown, 0]),
        nn_accuracy=float(scores[shown, 1]),
        separation_by_layer=scores[:, 0],
        nn_accuracy_by_layer=scores[:, 1],
        notes=vectors.notes,
        family_kind=vectors.family_kind,
        model_label=vectors.model_label or vectors.label,
        vectors=vectors.layers[shown],
        pair_cosines=[
            {
                "pair": [vectors.rows[a] + 1, vectors.rows[b] + 1],
                "by_layer": [float(x) for x in sims[:, a, b]],
                **({"reference_by_layer": _reference(vectors, a, b)} if vectors.others is not None else {}),
            }
            for a in range(len(vectors.rows))
            for b in range(a + 1, len(vectors.rows))
        ]
        if len(vectors.rows) <= FEW
        else [],
    )
