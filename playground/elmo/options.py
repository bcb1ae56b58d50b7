"""The model sizes of an ELMo, read from the published options JSON.

Sizes are data: the same code runs AllenNLP's test fixture, the published
models and our bundled one; only this record differs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ElmoOptions:
    char_embed_dim: int
    filters: tuple[tuple[int, int], ...]  # (width, number of filters)
    n_highway: int
    activation: str  # "relu" or "tanh", applied after max-pooling
    max_chars: int
    n_characters: int
    lstm_dim: int  # LSTM cell size
    projection_dim: int  # LSTM output size = token vector size
    n_layers: int
    cell_clip: float | None
    proj_clip: float | None
    use_skip_connections: bool

    @property
    def n_filters(self) -> int:
        return sum(n for _, n in self.filters)

    @classmethod
    def from_dict(cls, d: dict) -> "ElmoOptions":
        cnn, lstm = d["char_cnn"], d["lstm"]
        if cnn["activation"] not in ("relu", "tanh"):
            raise ValueError(f"Unsupported char-CNN activation {cnn['activation']!r} (expected relu or tanh).")
        return cls(
            char_embed_dim=int(cnn["embedding"]["dim"]),
            filters=tuple((int(w), int(n)) for w, n in cnn["filters"]),
            n_highway=int(cnn["n_highway"]),
            activation=cnn["activation"],
            max_chars=int(cnn["max_characters_per_token"]),
            n_characters=int(cnn["n_characters"]),
            lstm_dim=int(lstm["dim"]),
            projection_dim=int(lstm["projection_dim"]),
            n_layers=int(lstm["n_layers"]),
            cell_clip=lstm.get("cell_clip"),
            proj_clip=lstm.get("proj_clip"),
            use_skip_connections=bool(lstm["use_skip_connections"]),
        )

    def to_dict(self) -> dict:
        return {
            "lstm": {
                "cell_clip": self.cell_clip,
                "use_skip_connections": self.use_skip_connections,
                "n_layers": self.n_layers,
                "proj_clip": self.proj_clip,
                "projection_dim": self.projection_dim,
                "dim": self.lstm_dim,
            },
            "char_cnn": {
                "embedding": {"dim": self.char_embed_dim},
                "filters": [list(f) for f in self.filters],
                "n_highway": self.n_highway,
                "n_characters": self.n_characters,
                "max_characters_per_token": self.max_chars,
                "activation": self.activation,
            },
        }


def load_options(path: str | Path) -> ElmoOptions:
    with open(path, encoding="utf-8") as f:
        return ElmoOptions.from_dict(json.load(f))
