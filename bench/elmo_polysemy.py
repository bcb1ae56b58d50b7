"""Does the bundled ELMo separate word senses, and which layer does it best?

    python bench/elmo_polysemy.py [assets/elmo]

For each ambiguous word, two groups of sentences (one sense each). Per layer,
separation = mean cosine between uses of the same sense - mean cosine across
senses. Layer 0 is context-free, so its separation is 0 by construction; a
useful contextual layer scores > 0. Prints numbers, asserts nothing.
"""

from __future__ import annotations

import sys
from itertools import combinations
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playground.elmo import embed, load_bundled  # noqa: E402

SENSES = {
    "bank": (
        [
            "they pulled the canoe up on the bank of the river",
            "he sat on the bank of the stream and watched the water",
            "the river overflowed its bank after the heavy rain",
            "grass grew along the muddy bank of the creek",
        ],
        [
            "he deposited his money in the bank",
            "the bank approved the loan for the new house",
            "she withdrew cash from her account at the bank",
            "the bank charged interest on the loan",
        ],
    ),
    "run": (
        [
            "the children run across the field",
            "he can run a mile in five minutes",
            "the dogs run after the ball",
            "they run to the station to catch the train",
        ],
        [
            "she will run the company after her father retires",
            "they run a small hotel in the mountains",
            "he was chosen to run the department",
            "the government will run the program",
        ],
    ),
    "plant": (
        [
            "water the plant every day so that its leaves stay green",
            "a plant with yellow flowers and hairy leaves",
            "the plant grew toward the light",
            "a tropical plant cultivated for its edible fruit",
        ],
        [
            "the workers at the plant produce steel",
            "the power plant supplies electricity to the city",
            "a chemical plant that makes fertilizer",
            "the factory is a manufacturing plant for cars",
        ],
    ),
    "apple": (
        [
            "she ate an apple for lunch",
            "a sweet red apple with crisp white flesh",
            "he peeled the apple with a knife",
            "apple pie made with sliced fruit",
        ],
        [
            "the apple in the orchard blossomed in spring",
            "a native apple tree of Europe with pink flowers",
            "they planted an apple tree beside the house",
            "the branches of the old apple were full of birds",
        ],
    ),
}


def _cos(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-12))


def separation(model, word: str, groups) -> tuple[list[float], bool]:
    sents = [s.split() for g in groups for s in g]
    labels = [k for k, g in enumerate(groups) for _ in g]
    out = embed(model, sents)
    vecs = [out.vectors[i][:, sents[i].index(word)] for i in range(len(sents))]
    seps = []
    for layer in range(vecs[0].shape[0]):
        same, cross = [], []
        for i, j in combinations(range(len(sents)), 2):
            (same if labels[i] == labels[j] else cross).append(_cos(vecs[i][layer], vecs[j][layer]))
        seps.append(float(np.mean(same) - np.mean(cross)))
    return seps, word in (model.vocab or ())


def presets(models=("elmo-small", "minilm", "glove")) -> dict[str, dict[str, list[float]]]:
    """The polysemy tab's preset words (assets/polysemy/presets.json), per model and layer, as the tab scores them."""
    import json

    from playground.polysemy import PolysemyRequest, run_polysemy
    from playground.runtime import Runtime

    path = Path(__file__).resolve().parents[1] / "assets" / "polysemy" / "presets.json"
    out: dict[str, dict[str, list[float]]] = {}
    print("\npolysemy presets: separation per layer (nearest-neighbour accuracy at the last layer)")
    for name, p in json.loads(path.read_text(encoding="utf-8")).items():
        if not p["word"].isascii():
            continue  # the English models only
        run = run_polysemy(PolysemyRequest(word=p["word"], sentences=tuple(p["sentences"]), models=tuple(models)), Runtime())
        for m in run.models:
            if m.source == "input":
                continue
            out.setdefault(name, {})[m.key] = [round(float(x), 3) for x in m.separation_by_layer]
            seps = " ".join(f"{x:+.3f}" for x in m.separation_by_layer)
            print(f"{name:10s} {m.key:12s} {seps}  (NN {m.nn_accuracy:.2f})")
    return out


def main(directory: str | None = None) -> dict[str, list[float]]:
    model = load_bundled(directory) if directory else load_bundled()
    print(f"model: {model.name}")
    print(f"{'word':8s} {'in vocab':8s} " + " ".join(f"layer {k:d}" for k in range(3)))
    results = {}
    for word, groups in SENSES.items():
        seps, in_vocab = separation(model, word, groups)
        results[word] = seps
        print(f"{word:8s} {str(in_vocab):8s} " + " ".join(f"{s:7.3f}" for s in seps))
    return results


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
    if len(sys.argv) <= 1:  # the tab's presets use the registry's bundled model
        presets()
