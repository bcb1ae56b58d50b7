"""Positional encoding: the fixed sinusoids of "Attention Is All You Need" and the learned position
embeddings of BERT-style models, compared position against position.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from playground.errors import InputError

# Where models keep a learned position table (an nn.Embedding): names as data.
POSITION_TABLE_NAMES = ("position_embeddings", "wpe", "embed_positions")


@dataclass(frozen=True, eq=False)
class PositionSimilarity:
    model_key: str
    table: str  # the module the table came from, e.g. "embeddings.position_embeddings"
    similarity: np.ndarray  # (n, n) cosine similarity of position vectors


def sinusoidal_encoding(n_positions: int, d_model: int) -> np.ndarray:
    """PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(...); shape (n_positions, d_model).

    Written out (not taken from a library) because the formula itself is what the view teaches.
    """
    if n_positions < 1 or d_model < 2:
        raise InputError("attention_bad_positions", "Need at least 1 position and 2 dimensions.")
    pos = np.arange(n_positions, dtype=np.float64)[:, None]
    rates = 1.0 / np.power(10000.0, np.arange(0, d_model, 2, dtype=np.float64) / d_model)
    pe = np.zeros((n_positions, d_model))
    pe[:, 0::2] = np.sin(pos * rates)
    pe[:, 1::2] = np.cos(pos * rates[: d_model // 2])
    return pe.astype(np.float32)


def cosine_matrix(vectors: np.ndarray) -> np.ndarray:
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=-1, keepdims=True), 1e-12)
    return (unit @ unit.T).astype(np.float32)


def learned_position_similarity(lm: Any, n_positions: int) -> PositionSimilarity:
    """Cosine similarity between the model's learned position vectors 0..n-1."""
    import torch  # deferred: torch takes seconds to import; importing this module needs none

    for name, module in lm.model.named_modules():
        if isinstance(module, torch.nn.Embedding) and name.split(".")[-1] in POSITION_TABLE_NAMES:
            weights = module.weight.detach().float().cpu().numpy()
            n = max(1, min(n_positions, weights.shape[0]))
            return PositionSimilarity(lm.spec.key, name, cosine_matrix(weights[:n]))
    raise InputError(
        "attention_no_learned_positions",
        "{model} has no learned position table: it encodes order inside attention (e.g. rotary RoPE).",
        model=lm.spec.label,
    )
