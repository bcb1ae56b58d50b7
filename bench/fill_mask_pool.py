"""Does widening the causal filler's candidate pool find answers only the right context suggests?

For sentences whose answer is only guessable from the words AFTER the blank, count how
often an acceptable answer is in the whole-sentence top 5 when the candidates come from
(a) the left context only, and (b) the left context plus a prompt that shows the whole
sentence first (what playground.fill_mask.causal does). Also prints the time of each, in one run,
and the time of scoring the candidate sentences with the shared-prefix KV cache against
running every sentence in full (the obvious way).

    python bench/fill_mask_pool.py
"""

import os
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402

from playground import models  # noqa: E402
from playground.fill_mask import causal as causal_fill

PROBES = [
    ("The river [MASK] was muddy after the rain.", {"bank", "banks", "water", "bed"}),
    ("The [MASK] barked at the mailman all morning.", {"dog", "dogs", "puppy"}),
    ("My [MASK] meowed until I fed her.", {"cat", "kitten"}),
    ("The [MASK] buzzed around the flowers collecting pollen.", {"bee", "bees"}),
    ("She played the [MASK] with her bow in the orchestra.", {"violin", "cello", "viola"}),
    ("The [MASK] flew south for the winter.", {"birds", "geese", "bird", "ducks"}),
    ("He put the milk back in the [MASK] to keep it cold.", {"fridge", "refrigerator"}),
    ("The [MASK] landed safely at the airport.", {"plane", "airplane", "flight", "aircraft", "jet"}),
    ("I brushed my [MASK] with toothpaste.", {"teeth", "tooth"}),
    ("The [MASK] was delicious with melted cheese and tomato sauce.", {"pizza", "pasta", "sandwich", "burger"}),
]


def left_only_pool(lm, text, top_k, pool):
    """The same rescoring, but with candidates from the left context alone (no primed prompt)."""
    original = causal_fill._word_candidates
    calls = []

    def only_first(lm_, probs, n, start):
        calls.append(1)
        return original(lm_, probs, n, start) if len(calls) % 2 == 1 else []

    causal_fill._word_candidates = only_first
    try:
        return causal_fill.fill_blanks_causal(lm, [text], top_k, pool)[0]
    finally:
        causal_fill._word_candidates = original


def scoring_times(lm):
    """Shared-prefix scoring vs full sentences, on every probe's candidate sentences (same run)."""
    from playground.fill_mask.causal import _full_logprobs, _rows, _sentence_logprobs

    fast = full = 0.0
    for text, _ in PROBES:
        left, right = text.split("[MASK]")
        sentences = [
            left.rstrip() + w + right for w in (" dog", " cat", " bank", " water", " plane", " pizza", " bees", " violin") * 16
        ]
        start = time.perf_counter()
        _sentence_logprobs(lm, sentences)
        fast += time.perf_counter() - start
        start = time.perf_counter()
        for lo in range(0, len(sentences), causal_fill.ROWS_PER_PASS):
            _full_logprobs(lm, _rows(lm, sentences[lo : lo + causal_fill.ROWS_PER_PASS]))
        full += time.perf_counter() - start
    print(
        f"scoring 128 candidate sentences x {len(PROBES)} probes: shared prefix {fast:.1f} s, full {full:.1f} s, "
        f"speed-up {full / fast:.2f}x"
    )


def main():
    lm = models.load("smollm2-instruct")
    torch.set_grad_enabled(False)
    rows, totals = [], {"left pool": [0, 0.0], "widened pool": [0, 0.0]}
    for text, answers in PROBES:
        for name, run in (
            ("left pool", lambda: left_only_pool(lm, text, 5, causal_fill.POOL_PER_SOURCE)),
            ("widened pool", lambda: causal_fill.fill_blanks_causal(lm, [text], 5)[0]),
        ):
            start = time.perf_counter()
            fill = run()
            totals[name][1] += time.perf_counter() - start
            top5 = [p.word for p in fill.whole.predictions[0]]
            hit = bool(answers & set(top5))
            totals[name][0] += hit
            rows.append((name, text, hit, top5))
    for name, text, hit, top5 in rows:
        print(f"{name:13s} {'HIT ' if hit else 'miss'} {text:60s} {top5}")
    (h_left, t_left), (h_wide, t_wide) = totals["left pool"], totals["widened pool"]
    print(f"\nhit@5 left pool:    {h_left}/{len(PROBES)}  time {t_left:.1f} s")
    print(f"hit@5 widened pool: {h_wide}/{len(PROBES)}  time {t_wide:.1f} s  (time ratio {t_wide / t_left:.2f}x)")
    scoring_times(lm)


if __name__ == "__main__":
    main()
