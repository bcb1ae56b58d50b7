"""Proving the statistics: run a masking objective many times and set the empirical rates beside theory.

Each rate carries its standard error, so "close enough" is judged in the units of the experiment
(within 4 standard errors) rather than by a fixed tolerance. Each function here is the statistics
mode of one row of the OBJECTIVES table: (tokenizer, encoded sentence, draws, seed, **its parameters).
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np
import torch

from playground import checks as field_checks
from playground.errors import InputError
from playground.masking import segment
from playground.masking.bert import mlm_draws
from playground.masking.encoding import encode, kept_positions, words_of
from playground.masking.permutation import XLNET_K, predicted_count
from playground.masking.results import IGNORE, MaskingStats, Rate
from playground.masking.spans import (
    SPAN_BUDGET,
    SPAN_MAX,
    SPAN_P,
    T5_DENSITY,
    T5_MEAN_SPAN,
    sample_spans,
    span_length_theory,
    t5_counts,
    t5_noise_mask,
)

MAX_DRAWS = 10_000


def _rate(name: str, hits: float, total: float, theory: float) -> Rate:
    total = max(total, 1)
    p = hits / total
    return Rate(name, float(p), float(theory), float(math.sqrt(max(theory * (1 - theory), 1e-12) / total)))


def mlm_stats(tokenizer, enc, n, seed, mlm_probability=0.15, mask_replace_prob=0.8, random_replace_prob=0.1, **_) -> list[Rate]:
    p, pm, pr = mlm_probability, mask_replace_prob, random_replace_prob
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


def shared_characters(offsets: list[tuple[int, int]], special: list[bool]) -> list[list[int]]:
    """Token positions that share one character of the text (the byte pieces of 我, say), from the offsets alone."""
    covering: dict[int, list[int]] = {}
    for pos, ((start, end), is_special) in enumerate(zip(offsets, special)):
        if not is_special:
            for ch in range(start, end):
                covering.setdefault(ch, []).append(pos)
    return [group for group in covering.values() if len(group) > 1]


def tokenizer_words(tokenizer, text: str, special: list[bool]) -> list[list[int]]:
    """Token positions of each word as the tokenizer itself reports them (`word_ids()`), for checking a draw."""
    enc = tokenizer(text, return_special_tokens_mask=True)
    try:
        raw = enc.word_ids()
    except (AttributeError, ValueError):  # a slow tokenizer reports no words: nothing to check against
        return []
    words: dict[int, list[int]] = {}
    for new, old in enumerate(kept_positions([bool(s) for s in enc["special_tokens_mask"]])):
        if raw[old] is not None and not special[new]:
            words.setdefault(raw[old], []).append(new)
    return list(words.values())


def _split(sel: np.ndarray, groups: list[list[int]]) -> int:
    """Draws x groups in which a group is partly selected (some of its tokens, not all)."""
    return sum(int((sel[:, g].any(1) != sel[:, g].all(1)).sum()) for g in groups)


def wwm_stats(tokenizer, enc, n, seed, mlm_probability=0.15, text: str = "", **_) -> list[Rate]:
    """Words selected, and two checks that never read the grouping the draw used: words split (the tokenizer's
    own word_ids) and characters split (tokens whose character offsets overlap)."""
    p = mlm_probability
    _, labels = mlm_draws(tokenizer, enc, n, seed, p, 1.0, 0.0, whole_word=True)
    words = words_of(enc)
    sel = labels != IGNORE
    word_sel = np.stack([sel[:, w[0]] for w in words], 1)
    if text and segment.has_chinese(text):  # Chinese words are the segmenter's, found again from the text itself
        reference = segment.token_groups(text, enc.offsets, enc.special)
    else:
        reference = tokenizer_words(tokenizer, text, enc.special) if text else words
    chars = shared_characters(enc.offsets, enc.special)
    return [
        _rate("words_selected", word_sel.sum(), word_sel.size, p),
        _rate("words_split", _split(sel, reference), n * len(reference), 0.0),
        _rate("characters_split", _split(sel, chars), n * len(chars), 0.0),
    ]


def dynamic_stats(
    tokenizer, enc, n, seed, mlm_probability=0.15, mask_replace_prob=0.8, random_replace_prob=0.1, **_
) -> list[Rate]:
    p = mlm_probability
    _, labels = mlm_draws(tokenizer, enc, 2 * n, seed, p, mask_replace_prob, random_replace_prob)
    sel = labels != IGNORE
    eligible = int((~np.array(enc.special)).sum())
    same = (sel[:n] == sel[n:]).all(1).sum()
    return [
        _rate("selected", sel.sum(), 2 * n * eligible, p),
        _rate("epochs_identical", same, n, (p * p + (1 - p) * (1 - p)) ** eligible),
    ]


def budget_clipped_mean(target: int, p: float = SPAN_P, max_len: int = SPAN_MAX) -> float:
    """Mean masked span length when only the budget cuts spans (each word one token, no sentence end, no overlap).

    Spans are drawn until `target` tokens are covered; a span is cut where the budget runs out, so the masked
    lengths add up to `target` and their pooled mean is target / E[number of spans]; E[spans] by recursion on the
    budget left. Sentence ends and already-masked words cut spans further: this is an upper bound for the tab's mean.
    """
    probs = span_length_theory(p, max_len)
    spans = [0.0] * (target + 1)  # expected spans to cover r tokens
    for r in range(1, target + 1):
        spans[r] = 1 + sum(q * spans[r - min(length, r)] for length, q in enumerate(probs, start=1))
    return float(target / spans[target])


def span_stats(tokenizer, enc, n, seed, **_) -> tuple[list[Rate], dict, dict]:
    rng = np.random.default_rng(seed)
    words = words_of(enc)
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
    budget = max(1, round(SPAN_BUDGET * n_tokens))
    target = budget / n_tokens
    clipped = budget_clipped_mean(budget)
    rates = [
        Rate("coverage", covered / (n * n_tokens), target, 0.0, at_least=True),
        Rate(
            "drawn_span_mean",
            float(np.mean(drawn)),
            mean_theory,
            float(np.sqrt(((np.arange(1, 11) - mean_theory) ** 2 * theory).sum() / len(drawn))),
        ),
        Rate(
            "masked_span_mean", float(np.mean(realized)), clipped, float(np.std(realized) / np.sqrt(len(realized))), at_most=True
        ),
        _rate("span_longer_than_10", int((np.array(realized) > 10).sum()), len(realized), 0.0),
    ]
    hist = {
        "x": list(range(1, len(theory) + 1)),
        "empirical": (counts / counts.sum()).tolist(),
        "theory": theory.tolist(),
        "realized": (real / max(real.sum(), 1)).tolist(),
    }
    facts = {
        "p": SPAN_P,
        "max_len": SPAN_MAX,
        "drawn_theory": mean_theory,
        "budget": budget,
        "tokens": n_tokens,
        "words": len(words),
        "clipped_theory": clipped,
    }
    return rates, {"span_length": hist}, facts


def composition_theory(n_noise: int, n_spans: int) -> np.ndarray:
    """P(a span has k tokens), k = 1..n_noise - n_spans + 1, when n_noise tokens split into n_spans non-empty runs
    uniformly at random (T5's _random_segmentation): C(n - k - 1, m - 2) / C(n - 1, m - 1)."""
    ks = np.arange(1, n_noise - n_spans + 2)
    if n_spans == 1:
        return (ks == n_noise).astype(float)
    return np.array([math.comb(n_noise - k - 1, n_spans - 2) for k in ks], float) / math.comb(n_noise - 1, n_spans - 1)


def t5_stats(tokenizer, enc, n, seed, **_) -> tuple[list[Rate], dict, dict]:
    """T5's counts are fixed by the text's length (rounded); what the draws vary is where the spans fall and how the
    noise tokens split into spans: measured against the uniform-composition theory."""
    length = int((~np.array(enc.special)).sum())
    if length < 2:
        raise InputError("masking_t5_short", "T5 span corruption needs at least two tokens.")
    rng = np.random.default_rng(seed)
    masks = np.stack([t5_noise_mask(length, rng) for _ in range(n)])
    starts = masks & ~np.pad(masks, ((0, 0), (1, 0)))[:, :-1]
    n_noise, n_spans = t5_counts(length)
    run_lengths = []
    for row, first in zip(masks, starts):
        ends = np.flatnonzero(row & ~np.append(row[1:], False))
        run_lengths += (ends - np.flatnonzero(first) + 1).tolist()
    theory = composition_theory(n_noise, n_spans)
    ks = np.arange(1, len(theory) + 1)
    empirical = np.bincount(run_lengths, minlength=len(theory) + 1)[1 : len(theory) + 1] / max(len(run_lengths), 1)
    first_k = float(np.mean([r for r in run_lengths[::n_spans]]))  # the first span of each draw: one sample per draw
    spread = float(np.sqrt(((ks - n_noise / n_spans) ** 2 * theory).sum() / n))
    distinct = len({row.tobytes() for row in masks})
    rates = [
        Rate("noise_fraction", float(masks.mean()), n_noise / length, 0.0),
        Rate("mean_span", float(masks.sum() / starts.sum()), n_noise / n_spans, 0.0),
        Rate("first_span_mean", first_k, n_noise / n_spans, spread),
    ]
    hist = {"x": ks.tolist(), "empirical": empirical.tolist(), "theory": theory.tolist()}
    facts = {
        "paper_density": T5_DENSITY,
        "paper_mean_span": T5_MEAN_SPAN,
        "tokens": length,
        "noise": n_noise,
        "spans": n_spans,
        "distinct": distinct,
    }
    return rates, {"t5_span_length": hist}, facts


def permutation_stats(tokenizer, enc, n, seed, **_) -> tuple[list[Rate], dict, dict]:
    g = torch.Generator().manual_seed(int(seed))
    content = [pos for pos, s in enumerate(enc.special) if not s]
    n_pred = predicted_count(len(content))
    hits = np.zeros(len(enc.ids))
    for _ in range(n):
        order = [pos for pos in torch.randperm(len(enc.ids), generator=g).tolist() if not enc.special[pos]]
        hits[order[-n_pred:]] += 1
    theory = n_pred / len(content)
    per_pos = hits[content] / n
    hist = {"x": content, "empirical": per_pos.tolist(), "theory": [theory] * len(content)}
    facts = {"k": XLNET_K, "tokens": len(content), "predicted": n_pred}
    return [_rate("predicted", hits.sum(), n * len(content), theory)], {"predicted_by_position": hist}, facts


def check_draws(draws: int) -> int:
    return field_checks.whole(draws, "draws", 1, MAX_DRAWS)


def measure(stats: Callable, strategy: str, tokenizer, text: str, draws: int, seed: int, **params) -> MaskingStats:
    """Run one objective's statistics mode `draws` times (1..10,000) on `text` and compare its rates with theory."""
    draws = check_draws(draws)
    out = stats(tokenizer, encode(tokenizer, text), draws, int(seed), text=text, **params)
    rates, hists, facts = (tuple(out) + ({},))[:3] if isinstance(out, tuple) else (out, {}, {})
    return MaskingStats(strategy, draws, rates, hists, facts)
