"""ELMo's task-specific combination of layers: ELMo_k = gamma * sum_j softmax(s)_j * h_k,j."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np


@dataclass(frozen=True)
class ScalarMix:
    weights: np.ndarray  # softmax(s): one weight per layer, sums to 1
    gamma: float
    vectors: np.ndarray  # the mixed vectors: layers' shape without the layer axis


def scalar_mix(layers: np.ndarray, weights: Sequence[float], gamma: float = 1.0) -> ScalarMix:
    """Mix `layers` (n_layers, ..., dim) with raw scores `weights` (n_layers,), softmaxed first.

    Raw scores rather than probabilities because that is what ELMo learns (any
    real numbers), and the softmax is the part students should see happen.
    """
    layers = np.asarray(layers, dtype=np.float32)
    s = np.asarray(weights, dtype=np.float64).reshape(-1)
    if layers.ndim < 2 or s.shape[0] != layers.shape[0]:
        n = layers.shape[0] if layers.ndim else 0
        raise ValueError(f"Need one weight per layer: got {s.shape[0]} weights for {n} layers.")
    if not np.all(np.isfinite(s)) or not np.isfinite(gamma):
        raise ValueError("Layer weights and gamma must be finite numbers.")
    p = np.exp(s - s.max())
    p /= p.sum()
    mixed = gamma * np.tensordot(p, layers.astype(np.float64), axes=1)
    return ScalarMix(weights=p.astype(np.float32), gamma=float(gamma), vectors=mixed.astype(np.float32))
