"""The whole-Transformer view's forward pass: every stage hooked vs a plain pass, and the JSON a page receives.

Run: python bench/forward_pass.py [--models e5-small smollm2-instruct] [--tokens 20] [--repeats 7]
Reference: `model(**inputs, output_hidden_states=True)` on the same input. Ours: the same call with every stage
of the block table captured by `playground.capture` (hooks recording ~15 tensors per layer). Also timed: the
view's whole first request (the capture pass, each stage recomputed from its formula in float64, the logit lens and
the result), and a second request for another token of the same sentence (served from the cached pass).
Timings alternate ours and the reference, median of `repeats`; prints ratios, never asserts them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

from playground import models  # noqa: E402
from playground.capture import capture  # noqa: E402
from playground.forward import ForwardRequest, passes, run_forward  # noqa: E402
from playground.runtime import Runtime  # noqa: E402
from playground.serialize import jsonable  # noqa: E402

WORDS = "The old fisherman sat on the bank of the river and watched the boats drift slowly past the mill".split()


def text_of(lm, tokens: int) -> str:
    """A sentence the model's tokenizer cuts into `tokens` tokens or just under (special tokens included)."""
    words: list[str] = []
    while len(lm.tokenizer(" ".join(words + [WORDS[len(words) % len(WORDS)]]))["input_ids"]) <= tokens:
        words.append(WORDS[len(words) % len(WORDS)])
    return " ".join(words)


def median_pair(ours, reference, repeats: int) -> tuple[float, float]:
    ours(), reference()  # warm-up
    a, b = [], []
    for _ in range(repeats):
        for fn, into in ((ours, a), (reference, b)):
            start = time.perf_counter()
            fn()
            into.append(time.perf_counter() - start)
    return statistics.median(a), statistics.median(b)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", nargs="+", default=["e5-small", "smollm2-instruct"])
    parser.add_argument("--tokens", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, median of {args.repeats}, alternating")
    print("| model | tokens | plain pass | hooked pass | ratio | first request | ratio | other token | JSON |")
    print("|---|---|---|---|---|---|---|---|---|")
    for key in args.models:
        lm = models.load(key)
        text = text_of(lm, args.tokens)
        encoded = passes.encode(lm, text)
        inputs = passes.model_inputs(lm, encoded["ids"], encoded["segments"])

        def plain():
            with torch.inference_mode():
                lm.model(**inputs, output_hidden_states=True)

        def hooked():
            with torch.inference_mode(), capture(lm.model):
                lm.model(**inputs, output_hidden_states=True)

        ours, reference = median_pair(hooked, plain, args.repeats)
        firsts, others = [], []
        size = 0
        for _ in range(max(3, args.repeats // 2)):
            runtime = Runtime()  # fresh caches: the first request of a sentence
            start = time.perf_counter()
            result = run_forward(ForwardRequest(key, text), runtime)
            firsts.append(time.perf_counter() - start)
            start = time.perf_counter()
            run_forward(ForwardRequest(key, text, token=1), runtime)
            others.append(time.perf_counter() - start)
            size = len(json.dumps(jsonable(result), ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
        first, other = statistics.median(firsts), statistics.median(others)
        print(
            f"| {key} | {len(encoded['ids'])} | {reference * 1000:.0f} ms | {ours * 1000:.0f} ms | {ours / reference:.2f}x "
            f"| {first * 1000:.0f} ms | {first / reference:.1f}x | {other * 1000:.0f} ms | {size / 1024:.0f} KB |"
        )


if __name__ == "__main__":
    main()
