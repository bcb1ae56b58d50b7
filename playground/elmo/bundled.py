"""The small ELMo trained here (scripts/train_elmo.py) and shipped in assets/elmo/."""

from __future__ import annotations

from pathlib import Path

from .model import ElmoModel
from .weights import load_elmo

BUNDLED_DIR = Path(__file__).resolve().parents[2] / "assets" / "elmo"
BUNDLED_NAME = "elmo-wordnet-small (bundled)"


def load_bundled(directory: str | Path = BUNDLED_DIR) -> ElmoModel:
    d = Path(directory)
    if not (d / "weights.hdf5").exists():
        raise FileNotFoundError(f"Bundled ELMo weights missing in {d} (run scripts/train_elmo.py).")
    return load_elmo(d / "options.json", d / "weights.hdf5", d / "vocab.txt", name=BUNDLED_NAME)
