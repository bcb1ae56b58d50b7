"""Vectors to 2-D or 3-D points for the scatter plot (scikit-learn's PCA or t-SNE)."""

from __future__ import annotations

import warnings

import numpy as np

TSNE_MIN_POINTS = 5


def project(vectors: np.ndarray, method: str = "pca", dims: int = 2, seed: int = 0) -> np.ndarray:
    """(n, H) -> (n, dims) with scikit-learn; identical points stay at the origin."""
    from sklearn.decomposition import PCA  # scikit-learn takes seconds to import: only where points are drawn
    from sklearn.manifold import TSNE

    n = len(vectors)
    out = np.zeros((n, dims))
    spread = np.ptp(vectors, axis=0).max() if n else 0.0
    if n < 2 or spread < 1e-6:
        return out
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if method == "tsne" and n >= TSNE_MIN_POINTS:
            tsne = TSNE(n_components=dims, perplexity=min(30.0, (n - 1) / 3), init="pca", random_state=seed)
            return tsne.fit_transform(vectors.astype(np.float64))
        k = min(dims, n, vectors.shape[1])
        out[:, :k] = PCA(n_components=k, random_state=seed).fit_transform(vectors.astype(np.float64))
    return out
