"""Running the probes: the fixed data (assets/probes/data-*.json), one model's vectors, the per-layer curves.

scripts/probes.py runs this for every (model, language) and writes assets/probes/probes.json, which run_probes
reads: fitting ~50 probes per model takes minutes on a CPU, too long for a click (bench/probes.py measures it).
"""

from __future__ import annotations

import json
import time

from playground import availability
from playground.models import LoadedModel
from playground.probes.features import layer_names, token_features
from playground.probes.probe import PROBE, layer_curves
from playground.probes.readings import read
from playground.probes.results import ProbeResult, TaskCurve

DATA = availability.ASSETS / "probes"
PROBED = ("elmo-small", "minilm", "e5-small")  # the models whose curves are shipped
SEED = 0  # the control task's draw (and the classifier's random_state, which lbfgs does not use)
SOURCES = {
    ("en", "pos"): "WordNet 3.0: the part of speech of the synset whose example holds the word",
    ("en", "sense"): "WordNet 3.0: the synset whose example holds the word",
    ("zh", "pos"): "jieba posseg tags (silver) on HSK sentences",
    ("zh", "sense"): "polysemy presets 苹果, 打, 花 (two senses each)",
}
LICENCES = {
    "en": "WordNet 3.0 licence (Princeton; permissive)",
    "zh": "CC BY-SA 4.0 (HSK sentences, hsk-sentences-audio 1.0.0); presets: this project",
}


def load_data(lang: str) -> dict[str, list[dict]]:
    """{"pos": tokens, "sense": tokens} of `lang`; in English both are the same tokens."""
    data = json.loads((DATA / f"data-{lang}.json").read_text(encoding="utf-8"))
    return {"pos": data, "sense": data} if isinstance(data, list) else data


def _curve(lang: str, task: str, tokens: list[dict], features, seed: int) -> TaskCurve:
    split = [t["split"] == "test" for t in tokens] if "split" in tokens[0] else None
    words = [t["word"].lower() for t in tokens]
    numbers = layer_curves(features, words, [t[task] for t in tokens], split, seed, control=task)
    return TaskCurve(
        task=task, source=SOURCES[lang, task], **{k: tuple(v) if isinstance(v, list) else v for k, v in numbers.items()}
    )


def compute(lm: LoadedModel, lang: str, seed: int = SEED, layers: tuple[int, ...] | None = None) -> ProbeResult:
    """Both probes of one model on one language's fixed data (the slow path; run_probes reads its stored output).

    `layers`: fit only these layers (a test's spot check of the shipped numbers); None: every layer."""
    data = load_data(lang)
    start = time.perf_counter()
    vectors = {task: token_features(lm, tokens) for task, tokens in data.items() if task == "pos" or tokens is not data["pos"]}
    vectors.setdefault("sense", vectors["pos"])
    all_names = layer_names(lm.spec.kind, len(vectors["pos"]))
    chosen = tuple(range(len(all_names))) if layers is None else tuple(layers)
    vectors = {task: v[list(chosen)] for task, v in vectors.items()}
    fitted = time.perf_counter()
    pos = _curve(lang, "pos", data["pos"], vectors["pos"], seed)
    sense = _curve(lang, "sense", data["sense"], vectors["sense"], seed)
    done = time.perf_counter()
    names = tuple(all_names[i] for i in chosen)
    return ProbeResult(
        model=lm.spec.key,
        model_id=lm.spec.hf_id,
        model_label=lm.spec.label,
        lang=lang,
        layers=chosen,
        layer_names=names,
        pos=pos,
        sense=sense,
        readings=read(lm.spec.key, lang, pos, sense, names),
        seed=seed,
        probe=PROBE,
        train_seconds=round(done - fitted, 2),
        feature_seconds=round(fitted - start, 2),
        data_licence=LICENCES[lang],
        device=lm.device,
    )
