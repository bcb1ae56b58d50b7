"""Attribution's cost: Integrated Gradients with n steps as a ratio to one forward pass, and the knock-out ranking.

Run: python bench/insight_attribution.py [--models minilm-mlm gpt-zh] [--steps 8 32 64] [--repeats 3]
Reference: one plain forward pass (`model(**inputs)`, inference mode) on the same sentence. Ours: the view's IG
(`playground.insight.attribution.attribute`: n interpolation points in batches of 16, each a forward and a backward
pass to the input embeddings, plus one pass at the sentence and the baseline for gradient × input and completeness),
and the knock-out ranking (every head alone silenced: layers × heads rows in batches of 16). Median of `repeats`,
alternating with the reference; prints ratios and the completeness error, never asserts timings.
"""

from __future__ import annotations

import argparse
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
from playground.insight import attribution, common, knockout  # noqa: E402

TEXTS = {"minilm-mlm": "The capital of France is [MASK].", "e5-mlm": "我爱自然[MASK]处理。",
         "gpt-zh": "我爱北京天安", "smollm2-instruct": "The capital of France is"}  # fmt: skip


def seconds(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", nargs="+", default=["minilm-mlm", "gpt-zh"])
    parser.add_argument("--steps", nargs="+", type=int, default=[8, 32, 64])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, load average {os.getloadavg()[0]:.1f}")
    print("| model | tokens | forward | IG steps | IG | ratio | per step | completeness | ranking (heads) | ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for key in args.models:
        lm = models.load(key)
        s = common.sentence(lm, TEXTS[key])

        def forward():
            with torch.inference_mode():
                lm.model(**common.inputs(lm, s))

        forward()  # warm
        for steps in args.steps:
            plain, ig, errors = [], [], []
            for _ in range(args.repeats):
                plain.append(seconds(forward))
                start = time.perf_counter()
                raw = attribution.attribute(lm, s, steps)
                ig.append(time.perf_counter() - start)
                delta = raw["f_input"] - raw["f_baseline"]
                errors.append(abs(raw["ig"].sum() - delta) / abs(delta))
            f, g = statistics.median(plain), statistics.median(ig)
            ranking = seconds(lambda: knockout.knock_out(lm, s, [])) if steps == args.steps[0] else float("nan")
            n_heads = lm.model.config.num_hidden_layers * lm.model.config.num_attention_heads
            cells = [
                key,
                len(s.ids),
                f"{f * 1000:.0f} ms",
                steps,
                f"{g * 1000:.0f} ms",
                f"**{g / f:.1f}x**",
                f"{g / f / steps:.2f}x",
                f"{max(errors):.3%}",
                f"{ranking * 1000:.0f} ms ({n_heads})",
                f"{ranking / f:.1f}x",
            ]
            print("| " + " | ".join(str(c) for c in cells) + " |")  # fmt: skip


if __name__ == "__main__":
    main()
