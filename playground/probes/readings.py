"""What the probe curves say, as codes and the numbers behind them (the page words them in the reader's language).

Every reading is computed from the curves: which layer first reaches a task's best accuracy (within the noise of a
held-out set of that size), whether that puts syntax below semantics, which layer is most selective, whether context
beats the word alone, and, for ELMo, how the layers the papers compare (1 and 2) came out here.
"""

from __future__ import annotations

import math

from playground.probes.results import Reading, TaskCurve

Z = 2.0  # two standard errors: a gap smaller than this is noise on a test set of this size
# The papers' findings the page compares with (Peters et al. 2018, tables 5 and 6; Hewitt & Liang 2019, section 5):
# ELMo's first biLSTM layer tags parts of speech better than its second, its second disambiguates senses better,
# and probes on the second are more selective for part of speech.
PAPERS = {
    "peters_pos": ("pos", "accuracy", 1),
    "peters_sense": ("sense", "accuracy", 2),
    "hewitt_liang": ("pos", "selectivity", 2),
}
TRAINED_ON = {("elmo-small", "en"): "wordnet"}  # models whose training text held these very sentences
FEW = 100  # fewer scored tokens than this: the page says how wide the noise is


def noise(a: float, b: float, n: int) -> float:
    """Two standard errors of the gap between two accuracies measured on n tokens each."""
    return Z * math.sqrt(max(a * (1 - a) + b * (1 - b), 1e-12) / max(n, 1))


def first_best(values: tuple[float, ...], n: int) -> int:
    """The first layer whose accuracy is within noise of the best layer's."""
    best = max(values)
    return next(i for i, v in enumerate(values) if best - v <= noise(best, v, n))


def _peak(curve: TaskCurve, names: tuple[str, ...]) -> Reading:
    best = max(range(len(curve.accuracy)), key=lambda i: curve.accuracy[i])
    first = first_best(curve.accuracy, curve.n_test)
    selective = max(range(len(curve.selectivity)), key=lambda i: curve.selectivity[i])
    return Reading(
        "peak",
        {
            "task": curve.task,
            "layer": best,
            "name": names[best],
            "accuracy": curve.accuracy[best],
            "first": first,
            "first_name": names[first],
            "selective": selective,
            "selective_name": names[selective],
            "selectivity": curve.selectivity[selective],
        },
    )


def _order(pos: TaskCurve, sense: TaskCurve, names: tuple[str, ...]) -> Reading:
    p, s = first_best(pos.accuracy, pos.n_test), first_best(sense.accuracy, sense.n_test)
    relation = "holds" if p < s else "reversed" if p > s else "same"
    return Reading("order", {"relation": relation, "pos": p, "pos_name": names[p], "sense": s, "sense_name": names[s]})


def _context(sense: TaskCurve, names: tuple[str, ...]) -> Reading:
    best = max(range(len(sense.accuracy)), key=lambda i: sense.accuracy[i])
    gain = sense.accuracy[best] - sense.word_alone
    beats = gain > noise(sense.accuracy[best], sense.word_alone, sense.n_test)
    return Reading(
        "context",
        {"beats": beats, "gain": gain, "layer": best, "name": names[best], "word_alone": sense.word_alone},
    )


def _papers(pos: TaskCurve, sense: TaskCurve) -> list[Reading]:
    out = []
    for code, (task, measure, better) in PAPERS.items():
        curve = pos if task == "pos" else sense
        values = getattr(curve, measure)
        if len(values) != 3:  # the papers compare ELMo's two biLSTM layers; a model of another depth has no match
            continue
        one, two = values[1], values[2]
        ours = 2 if two > one else 1
        close = abs(two - one) <= noise(min(max(one, 0), 1), min(max(two, 0), 1), curve.n_test)
        verdict = "too_close" if close else "agrees" if ours == better else "disagrees"
        out.append(Reading(code, {"layer1": one, "layer2": two, "paper_layer": better, "verdict": verdict}))
    return out


def read(model: str, lang: str, pos: TaskCurve, sense: TaskCurve, names: tuple[str, ...]) -> tuple[Reading, ...]:
    out = [_peak(pos, names), _peak(sense, names), _order(pos, sense, names), _context(sense, names)]
    papers = _papers(pos, sense)
    out += papers or [Reading("papers_elmo_only", {"layers": len(names)})]
    for curve in (pos, sense):
        if curve.n_test < FEW:
            width = noise(0.5, 0.5, curve.n_test) / math.sqrt(2)  # two standard errors of one accuracy near 50 %
            out.append(Reading("few", {"task": curve.task, "n": curve.n_test, "width": width, "classes": curve.n_classes}))
    if (model, lang) in TRAINED_ON:
        out.append(Reading("seen_text", {"corpus": TRAINED_ON[model, lang]}))
    if lang == "zh":
        out.append(Reading("silver", {}))
    return tuple(out)
