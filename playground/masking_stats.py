"""Proving the statistics: run a masking strategy many times and set the empirical rates beside theory.

Each rate carries its standard error, so "close enough" is judged in the units of the experiment
(within 4 standard errors) rather than by a fixed tolerance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from playground.attention_masks import XLNET_K
from playground.errors import InputError
from playground.masking import IGNORE, encode, mlm_draws
from playground.masking_spans import SPAN_BUDGET, _words, sample_spans, span_length_theory, t5_noise_mask

MAX_DRAWS = 10_000


@dataclass(frozen=True)
class Rate:
    name: str  # stable key; the UI translates it
    empirical: float
    theory: float
    stderr: float  # of the empirical rate
    at_least: bool = False  # theory is a lower bound (whole words overshoot a token budget)

    @property
    def within(self) -> bool:
        if self.at_least:
            return self.empirical >= self.theory - 4 * self.stderr - 1e-9
        return abs(self.empirical - self.theory) <= 4 * self.stderr + 1e-9


@dataclass(frozen=True)
class MaskingStats:
    strategy: str
    draws: int
    rates: list[Rate]
    histograms: dict[str, dict[str, list[float]]] = field(default_factory=dict)  # name -> x, empirical, theory


def _rate(name: str, hits: float, total: float, theory: float) -> Rate:
    total = max(total, 1)
    p = hits / total
    return Rate(name, float(p), float(theory), float(math.sqrt(max(theory * (1 - theory), 1e-12) / total)))


def _mlm_stats(tokenizer, enc, n, seed, p=0.15, pm=0.8, pr=0.1, **_) -> list[Rate]:
    inputs, labels = mlm_draws(tokenizer, enc, n, seed, p, pm, pr)
    orig = np.array(enc.ids)[None, :]
    eligible = ~np.array(enc.special)[None, :].repeat(n, 0)
    sel = labels != IGNORE
    masked, kept = sel & (inputs == enc.mask_id), sel & (inputs == orig)
    V, s = enc.vocab_size, (pr / (1 - pm) if pm < 1 else 0.0)
    hit = 1.0 / V  # a random replacement can draw the original token, or the mask token when it is in the vocabulary
    hit_mask = hit if enc.mask_id < V else 0.0
    th_mask = pm + (1 - pm) * s * hit_mask
    th_kept = (1 - pm) * (1 - s) + (1 - pm) * s * hit
    n_sel = sel.sum()
    return [
        _rate("selected", sel.sum(), eligible.sum(), p),
        _rate("share_mask", masked.sum(), n_sel, th_mask),
        _rate("share_random", (sel & ~masked & ~kept).sum(), n_sel, 1 - th_mask - th_kept),
        _rate("share_kept", kept.sum(), n_sel, th_kept),
    ]


def _wwm_stats(tokenizer, enc, n, seed, p=0.15, **_) -> list[Rate]:
    _, labels = mlm_draws(tokenizer, enc, n, seed, p, 1.0, 0.0, whole_word=True)
    words = _words(enc)
    sel = labels != IGNORE
    word_sel = np.stack([sel[:, w[0]] for w in words], 1)
    split = sum(int((sel[:, w].any(1) != sel[:, w].all(1)).sum()) for w in words)
    return [_rate("words_selected", word_sel.sum(), word_sel.size, p), _rate("words_split", split, word_sel.size, 0.0)]


def _dynamic_stats(tokenizer, enc, n, seed, p=0.15, pm=0.8, pr=0.1, **_) -> list[Rate]:
    _, labels = mlm_draws(tokenizer, enc, 2 * n, seed, p, pm, pr)
    sel = labels != IGNORE
    eligible = int((~np.array(enc.special)).sum())
    same = (sel[:n] == sel[n:]).all(1).sum()
    return [
        _rate("selected", sel.sum(), 2 * n * eligible, p),
        _rate("epochs_identical", same, n, (p * p + (1 - p) * (1 - p)) ** eligible),
    ]


def _span_stats(tokenizer, enc, n, seed, **_) -> tuple[list[Rate], dict]:
    rng = np.random.default_rng(seed)
    words = _words(enc)
    n_tokens = sum(len(w) for w in words)
    drawn, realized, covered = [], [], 0
    for _ in range(n):
        spans, lengths = sample_spans(enc, rng)
        drawn += lengths
        realized += [len(s) for s in spans]
        covered += sum(len(words[w]) for s in spans for w in s)
    theory = span_length_theory()
    counts = np.bincount(drawn, minlength=len(theory) + 1)[1:]
    real = np.bincount(realized, minlength=len(theory) + 1)[1 : len(theory) + 1]
    mean_theory = float((np.arange(1, len(theory) + 1) * theory).sum())
    target = max(1, round(SPAN_BUDGET * n_tokens)) / n_tokens
    rates = [
        Rate("coverage", covered / (n * n_tokens), target, 0.0, at_least=True),
        Rate(
            "mean_span",
            float(np.mean(drawn)),
            mean_theory,
            float(np.sqrt(((np.arange(1, 11) - mean_theory) ** 2 * theory).sum() / len(drawn))),
        ),
        _rate("span_longer_than_10", int((np.array(realized) > 10).sum()), len(realized), 0.0),
    ]
    hist = {
        "x": list(range(1, len(theory) + 1)),
        "empirical": (counts / counts.sum()).tolist(),
        "theory": theory.tolist(),
        "realized": (real / max(real.sum(), 1)).tolist(),
    }
    return rates, {"span_length": hist}


def _t5_stats(tokenizer, enc, n, seed, **_) -> list[Rate]:
    length = int((~np.array(enc.special)).sum())
    if length < 2:
        raise InputError("masking_t5_short", "T5 span corruption needs at least two tokens.")
    rng = np.random.default_rng(seed)
    masks = np.stack([t5_noise_mask(length, rng) for _ in range(n)])
    starts = (masks & ~np.pad(masks, ((0, 0), (1, 0)))[:, :-1]).sum()
    n_noise = min(max(round(length * 0.15), 1), length - 1)
    n_spans = min(max(round(n_noise / 3.0), 1), n_noise, length - n_noise)
    return [
        Rate("noise_fraction", float(masks.mean()), n_noise / length, 0.0),
        Rate("mean_span", float(masks.sum() / starts), n_noise / n_spans, 0.0),
    ]


def _perm_stats(tokenizer, enc, n, seed, **_) -> tuple[list[Rate], dict]:
    g = torch.Generator().manual_seed(int(seed))
    content = [pos for pos, s in enumerate(enc.special) if not s]
    n_pred = max(1, math.ceil(len(content) / XLNET_K))
    hits = np.zeros(len(enc.ids))
    for _ in range(n):
        order = [pos for pos in torch.randperm(len(enc.ids), generator=g).tolist() if not enc.special[pos]]
        hits[order[-n_pred:]] += 1
    theory = n_pred / len(content)
    per_pos = hits[content] / n
    hist = {"x": content, "empirical": per_pos.tolist(), "theory": [theory] * len(content)}
    return [_rate("predicted", hits.sum(), n * len(content), theory)], {"predicted_by_position": hist}


STATS = {
    "bert": _mlm_stats,
    "wwm": _wwm_stats,
    "dynamic": _dynamic_stats,
    "span": _span_stats,
    "t5": _t5_stats,
    "permutation": _perm_stats,
}


def masking_statistics(tokenizer, text: str, strategy: str, draws: int, seed: int, **params: Any) -> MaskingStats:
    """Run `strategy` `draws` times (1..10,000) on `text` and compare its rates with theory."""
    if strategy not in STATS:
        raise InputError(
            "masking_no_stats",
            "No statistics for {strategy}: it is deterministic or needs a model pass per draw.",
            strategy=strategy,
        )
    draws = int(draws)
    if not 1 <= draws <= MAX_DRAWS:
        raise InputError("masking_draws", "Choose between 1 and {max} draws.", max=MAX_DRAWS)
    out = STATS[strategy](tokenizer, encode(tokenizer, text), draws, int(seed), **params)
    rates, hists = out if isinstance(out, tuple) else (out, {})
    return MaskingStats(strategy, draws, rates, hists)
