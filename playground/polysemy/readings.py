"""What the polysemy numbers say, as codes and the numbers behind them: part of the result, so /polysemy returns them.

Every reading is computed from the measured scores and the actual inputs (unknown tokens, identical tokenizations,
one sentence in a sense), never a fixed claim. The renderer words a `Reading` in the user's language; the API
returns it as it is (a code and its parameters), like the panels' `Note`s.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from playground import availability
from playground.text_units import has_cjk

THRESHOLD = 0.9  # nearest-neighbour accuracy that counts as "separates"
VOIDING = ("unknown_word", "same_input")  # notes that make a model's scores say nothing about the senses
SAME = 1e-5  # cosines within this of 1 are one and the same vector
CROSS_PAIRS = 6  # cross-sense cosines quoted in a "cosines" reading
PRESETS = json.loads((availability.ASSETS / "polysemy" / "presets.json").read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Reading:
    """One sentence of interpretation: `code` says which, `params` the numbers it rests on (None = undefined).

    Codes: "no_labels" (fewer than two labelled senses: no scores), "senses_missing" (two senses labelled, but the
    word found in sentences of fewer than two: the labels are there, the word is not), "void" (a voiding note: the
    panel's scores say nothing), "static_one" (a single-vector baseline that is one vector), "static_differs" (a baseline whose
    vectors differ: the spelling, not the context), "cosines" (a sense with one sentence: the cross-sense cosines),
    "separates" (accuracy >= 90% from `layer` to the top), "never" (not at the top), "causal" (left-to-right models),
    "same_sense" (a preset whose groups are one sense), "cross_lingual" (zh-en pairs of the same vs other senses).
    """

    code: str
    key: str = ""  # the panel (ModelView.key) it reads; "" for the whole run
    params: dict[str, Any] = field(default_factory=dict)
    single: tuple[str, ...] = ()  # senses with one sentence in this panel: its accuracy is undefined


def _num(x: Any) -> float | None:
    return None if x is None or math.isnan(float(x)) else round(float(x), 6)


def separating_layer(nn_accuracy: np.ndarray, threshold: float = THRESHOLD) -> int | None:
    """The first layer from which nearest-neighbour sense accuracy stays >= threshold to the top; None if never."""
    good = np.nan_to_num(nn_accuracy, nan=0.0) >= threshold
    if not good[-1]:
        return None
    bad = np.flatnonzero(~good)
    return int(bad[-1] + 1) if bad.size else 0


def voided(view: Any) -> bool:
    """Whether a note makes this panel's scores meaningless (the word unknown, or the sentences one input)."""
    return any(n.code in VOIDING for n in view.notes)


def identical(view: Any) -> bool:
    return bool(view.rows) and bool(np.all(view.similarity >= 1 - SAME))


def _labels(sentences: list, view: Any) -> list[str]:
    return [sentences[i].label for i in view.rows]


def _single(sentences: list, view: Any) -> tuple[str, ...]:
    sizes: dict[str, int] = {}
    for label in _labels(sentences, view):
        if label:
            sizes[label] = sizes.get(label, 0) + 1
    return tuple(sorted(label for label, k in sizes.items() if k < 2))


def _cross_pairs(sentences: list, view: Any) -> list[list]:
    """[[sentence a, sentence b, cosine]] (1-based) between sentences of different senses, at the shown layer."""
    labels = _labels(sentences, view)
    return [
        [view.rows[a] + 1, view.rows[b] + 1, round(float(view.similarity[a, b]), 6)]
        for a in range(len(labels))
        for b in range(a + 1, len(labels))
        if labels[a] and labels[b] and labels[a] != labels[b]
    ]


def _contextual(view: Any) -> Reading:
    """Where the senses separate, following the accuracy curve (with the dip when it fell below again)."""
    acc = np.nan_to_num(np.asarray(view.nn_accuracy_by_layer, dtype=float), nan=0.0)
    start = separating_layer(acc)
    if start is None:
        best = int(np.argmax(acc))
        return Reading("never", view.key, {"last_accuracy": _num(acc[-1]), "best_accuracy": _num(acc[best]), "best_layer": best})
    params: dict[str, Any] = {"layer": start, "last": len(acc) - 1, "separation": _num(view.separation_by_layer[-1])}
    earlier = [k for k in range(start) if acc[k] >= THRESHOLD]
    params["dip"] = None
    if earlier:  # it reached the threshold before, then fell below it again: both, with the numbers
        dip = min(range(earlier[0], start), key=lambda k: acc[k])
        params["dip"] = {"first": earlier[0], "first_accuracy": _num(acc[earlier[0]]), "layer": dip, "accuracy": _num(acc[dip])}
    return Reading("separates", view.key, params)


def _panel(sentences: list, view: Any) -> Reading:
    single = _single(sentences, view)
    warned = voided(view)
    if warned and (view.source == "contextual" or any(n.code == "unknown_word" for n in view.notes)):
        return Reading("void", view.key, {"notes": [n.code for n in view.notes if n.code in VOIDING]})
    if view.source != "contextual":
        if identical(view):
            reading = Reading("static_one", view.key, {"n": len(view.rows)})
        else:
            pieces = list(dict.fromkeys(" ".join(p) for p in view.pieces))[:6]
            params = {"pieces": pieces, "separation": _num(view.separation), "accuracy": _num(view.nn_accuracy)}
            reading = Reading("static_differs", view.key, params)
    elif single:
        pairs = _cross_pairs(sentences, view)
        params = {"layer": view.layer, "pairs": pairs[:CROSS_PAIRS], "more": len(pairs) > CROSS_PAIRS}
        reading = Reading("cosines", view.key, params)
    else:
        reading = _contextual(view)
    return Reading(reading.code, reading.key, reading.params, single if single and not identical(view) else ())


def same_sense(word: str, sentences: list) -> Reading | None:
    """A preset whose groups are one sense of the word (银行: 存钱 / 散步): the labels are contexts, not senses."""
    lines = sorted(f"{s.label} | {s.text}" for s in sentences)
    for key, preset in PRESETS.items():
        if preset.get("same_sense") and word == preset["word"] and lines == sorted(preset["sentences"]):
            return Reading("same_sense", "", {"preset": key})
    return None


def cross_lingual(sentences: list, view: Any) -> Reading | None:
    """Sentences in Chinese and English: mean cosine of zh-en pairs of the same sense against those of other senses."""
    if view.source != "contextual" or voided(view):  # e.g. Chinese read as [UNK]
        return None
    by_index = {s.index: s for s in sentences}

    def chinese(i: int) -> bool:
        s = by_index[i]
        return s.span is not None and has_cjk(s.text[s.span[0] : s.span[1]])

    zh = [k for k, i in enumerate(view.rows) if chinese(i)]
    en = [k for k, i in enumerate(view.rows) if not chinese(i)]
    label = [by_index[i].label for i in view.rows]
    same = [view.similarity[a, b] for a in zh for b in en if label[a] == label[b] and label[a]]
    cross = [view.similarity[a, b] for a in zh for b in en if label[a] != label[b] and label[a] and label[b]]
    if not same or not cross:
        return None
    s, c = float(np.mean(same)), float(np.mean(cross))
    return Reading("cross_lingual", view.key, {"layer": view.layer, "same": _num(s), "cross": _num(c), "closer": s > c})


def read_run(word: str, sentences: list, views: list) -> tuple[Reading, ...]:
    """The run's readings, in the order the page shows them: one per panel (or "no_labels"), then the run's own."""
    labels = {sentences[i].label for v in views for i in v.rows} - {""}
    written = {s.label for s in sentences} - {""}
    if len(labels) < 2 and len(written) >= 2:  # labelled, but the word is missing where the other senses are
        missing = [s.index + 1 for s in sentences if s.span is None]
        out = [Reading("senses_missing", "", {"found": sorted(labels), "missing": missing})]
    elif len(labels) < 2:
        out = [Reading("no_labels")]
    else:  # a panel with no vector at all (a word GloVe lacks) has nothing to read: its note says why
        out = [_panel(sentences, v) for v in views if v.rows]
        views = [v for v in views if v.rows]
        causal = [
            v.key for v, r in zip(views, out) if v.family_kind == "causal" and v.source == "contextual" and r.code != "void"
        ]
        out += [Reading("causal", "", {"models": causal})] if causal else []
    extra = [same_sense(word, sentences), *(cross_lingual(sentences, v) for v in views)]
    return tuple(out + [r for r in extra if r is not None])
