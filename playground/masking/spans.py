"""Span objectives: SpanBERT's geometric whole-word spans (with the span boundary objective) and T5's
span corruption with sentinel tokens.

Written by hand: transformers ships no collator for either (T5's `random_spans_noise_mask` lives only in
an example script), so both follow the papers' reference code, with a local numpy Generator.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from playground.errors import InputError
from playground.registry import get_spec
from playground.masking.fill import fill_sentinels
from playground.masking.encoding import Encoded, encode, result_of, words_of
from playground.masking.results import IGNORE, MaskingResult

SPAN_P, SPAN_MAX, SPAN_BUDGET = 0.2, 10, 0.15  # SpanBERT: Geo(0.2) clipped at 10 words, 15% of tokens
T5_DENSITY, T5_MEAN_SPAN = 0.15, 3.0


def span_length_theory(p: float = SPAN_P, max_len: int = SPAN_MAX) -> np.ndarray:
    """P(length = 1..max_len) of the geometric distribution clipped (renormalised) at max_len."""
    lengths = np.arange(1, max_len + 1)
    probs = p * (1 - p) ** (lengths - 1)
    return probs / probs.sum()


def sample_spans(
    enc: Encoded, rng: np.random.Generator, p: float = SPAN_P, max_len: int = SPAN_MAX, budget: float = SPAN_BUDGET
) -> tuple[list[list[int]], list[int]]:
    """Spans (lists of whole word indices) until `budget` of the tokens is covered, and each span's drawn length.

    A span starts at a free word and grows word by word up to its drawn length, stopping early at the
    sentence end, at an already masked word, or once the budget is met (never inside a word).
    """
    words = words_of(enc)
    n_tokens = sum(len(w) for w in words)
    target = max(1, int(round(budget * n_tokens)))
    lengths, probs = np.arange(1, max_len + 1), span_length_theory(p, max_len)
    taken, covered, spans, drawn = set(), 0, [], []
    while covered < target and len(taken) < len(words):
        length = int(rng.choice(lengths, p=probs))
        free = [w for w in range(len(words)) if w not in taken]
        w = free[int(rng.integers(len(free)))]
        span = []
        while len(span) < length and w < len(words) and w not in taken and covered < target:
            span.append(w)
            taken.add(w)
            covered += len(words[w])
            w += 1
        spans.append(span)
        drawn.append(length)
    return spans, drawn


def span_masking(
    tokenizer, text: str, seed: int, mask_replace_prob: float = 0.8, random_replace_prob: float = 0.1, **_: Any
) -> MaskingResult:
    """SpanBERT: mask whole-word spans, 80/10/10 per span; each masked token is also predicted from the
    two tokens just outside its span plus its position inside it (span boundary objective)."""
    enc = encode(tokenizer, text)
    rng = np.random.default_rng(seed)
    spans, drawn = sample_spans(enc, rng)
    words = words_of(enc)
    ids, labels, actions = list(enc.ids), [IGNORE] * len(enc.ids), ["special" if s else "none" for s in enc.special]
    span_info, sbo = [], []
    for span, length in sorted(zip(spans, drawn)):
        positions = [pos for w in span for pos in words[w]]
        u = rng.random()
        action = "mask" if u < mask_replace_prob else "random" if u < mask_replace_prob + random_replace_prob else "kept"
        first, last = positions[0], positions[-1]
        for k, pos in enumerate(positions):
            labels[pos] = enc.ids[pos]
            if action == "mask":
                ids[pos] = enc.mask_id
            elif action == "random":
                ids[pos] = int(rng.integers(enc.vocab_size))
            actions[pos] = action if not (action == "random" and ids[pos] == enc.ids[pos]) else "kept"
            sbo.append(
                {
                    "target": pos,
                    "left": first - 1 if first > 0 else None,
                    "right": last + 1 if last + 1 < len(ids) else None,
                    "position": k + 1,
                }
            )
        span_info.append({"start": first, "end": last, "words": len(span), "drawn_length": length})
    covered = sum(a != "none" and a != "special" for a in actions)
    details = {
        "spans": span_info,
        "sbo": sbo,
        "covered_tokens": covered,
        "content_tokens": sum(w >= 0 for w in enc.word_ids),
        "span_p": SPAN_P,
        "span_max": SPAN_MAX,
    }
    return result_of("span", enc, actions, labels, enc.show(ids), details=details)


def _random_segmentation(n_items: int, n_segments: int, rng: np.random.Generator) -> np.ndarray:
    """Split n_items into n_segments non-empty runs, uniformly at random (as T5's reference code)."""
    first = np.arange(n_items - 1) < (n_segments - 1)
    rng.shuffle(first)
    segment_id = np.cumsum(np.concatenate([[0], first]))
    return np.bincount(segment_id, minlength=n_segments)


def t5_counts(length: int, density: float = T5_DENSITY, mean_span: float = T5_MEAN_SPAN) -> tuple[int, int]:
    """How many noise tokens and noise spans T5 draws for `length` tokens (fixed counts, random positions)."""
    n_noise = min(max(int(round(length * density)), 1), length - 1)
    n_spans = min(max(int(round(n_noise / mean_span)), 1), n_noise, length - n_noise)
    return n_noise, n_spans


def t5_noise_mask(
    length: int, rng: np.random.Generator, density: float = T5_DENSITY, mean_span: float = T5_MEAN_SPAN
) -> np.ndarray:
    """T5's random_spans_noise_mask: fixed noise count and span count, random positions; starts with non-noise."""
    n_noise, n_spans = t5_counts(length, density, mean_span)
    noise = _random_segmentation(n_noise, n_spans, rng)
    keep = _random_segmentation(length - n_noise, n_spans, rng)
    runs = np.stack([keep, noise], axis=1).reshape(-1)
    return np.repeat(np.arange(len(runs)) % 2 == 1, runs)


def sentinels(tokenizer, n: int) -> tuple[list[str], bool]:
    """T5's sentinel names <extra_id_0>...; True when the tokenizer really has them (else placeholders)."""
    names = [f"<extra_id_{i}>" for i in range(n)]
    unk = tokenizer.unk_token_id
    real = all(tokenizer.convert_tokens_to_ids(s) not in (None, unk) for s in names)
    return names, real


def t5_span_corruption(tokenizer, text: str, seed: int, model: str = "", load: Any = None, **_: Any) -> MaskingResult:
    """T5: each noise span becomes one sentinel in the input; the target lists sentinel, span, sentinel, ...

    With an encoder-decoder `model` whose tokenizer has real sentinels (a T5), that model also answers the corrupted
    input: `details["filled"]` holds, per sentinel, the span dropped and what the model wrote for it."""
    enc = encode(tokenizer, text)
    content = [pos for pos, s in enumerate(enc.special) if not s]
    if len(content) < 2:
        raise InputError("masking_t5_short", "T5 span corruption needs at least two tokens.")
    noise = t5_noise_mask(len(content), np.random.default_rng(seed))
    noisy = {pos for pos, n in zip(content, noise) if n}
    n_spans = int(np.sum(noise & ~np.concatenate([[False], noise[:-1]])))
    names, real = sentinels(tokenizer, n_spans + 1)
    inputs, target, span = [], [], -1
    for pos, tok in enumerate(enc.shown):
        if pos in noisy:
            if pos - 1 not in noisy:
                span += 1
                inputs.append(names[span])
                target.append(names[span])
            target.append(tok)
        else:
            inputs.append(tok)
    target.append(names[n_spans])
    if tokenizer.eos_token:
        target.append(tokenizer.eos_token)
    # the encoder's input as ids: each span's first position becomes its sentinel, the rest of the span is dropped
    spans_text, span_ids, input_ids = [], [], []
    for pos, token_id in enumerate(enc.ids):
        if pos in noisy:
            if pos - 1 not in noisy:
                span_ids.append([])
                input_ids.append(tokenizer.convert_tokens_to_ids(names[len(span_ids) - 1]))
            span_ids[-1].append(token_id)
        else:
            input_ids.append(token_id)
    spans_text = [tokenizer.decode(ids).strip() for ids in span_ids]
    actions = ["special" if s else "sentinel" if pos in noisy else "none" for pos, s in enumerate(enc.special)]
    labels = [enc.ids[pos] if pos in noisy else IGNORE for pos in range(len(enc.ids))]
    details = {
        "target": target,
        "sentinels": names[: n_spans + 1],
        "sentinels_real": real,
        "spans": n_spans,
        "noise_tokens": len(noisy),
        "content_tokens": len(content),
    }
    if real and model and load is not None and get_spec(model).kind == "seq2seq":
        fills = fill_sentinels(load(model), input_ids, names[:n_spans], spans_text)
        details["filled"] = [{"sentinel": f.sentinel, "original": f.original, "filled": f.filled} for f in fills]
    return result_of("t5", enc, actions, labels, inputs, details=details)
