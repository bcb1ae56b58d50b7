"""Polysemy: all sentences in one padded batch vs one forward pass per sentence (one-request-at-a-time serving).

Run: python bench/polysemy.py [--models minilm smollm2-instruct] [--repeats 5]
Prints times, ratios and the largest difference between the two ways' vectors; never asserts timings.
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

import numpy as np  # noqa: E402
import torch  # noqa: E402

from playground import models  # noqa: E402
from playground.alignment import parse_sentences  # noqa: E402
from playground.polysemy import contextual_vectors  # noqa: E402

PRESET = json.loads((ROOT / "assets" / "polysemy" / "presets.json").read_text(encoding="utf-8"))["bank"]
LINES = PRESET["sentences"] + [line.replace("| ", "| Last year, ", 1) for line in PRESET["sentences"]]  # 16 distinct


def timed(fn, repeats):
    fn()  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", nargs="+", default=["minilm", "smollm2-instruct"])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    targets = parse_sentences(PRESET["word"], LINES)
    print(f"{len(targets)} sentences, torch threads {torch.get_num_threads()}, median of {args.repeats}")
    for key in args.models:
        lm = models.load(key)
        batched_s, (batched, _) = timed(lambda: contextual_vectors(lm, targets), args.repeats)
        single_s, singles = timed(lambda: [contextual_vectors(lm, [t])[0] for t in targets], args.repeats)
        stacked = np.concatenate([s.layers for s in singles], axis=1)
        diff = float(np.abs(stacked - batched.layers).max())
        print(
            f"{key:18s} batched {batched_s * 1000:8.1f} ms   one at a time {single_s * 1000:8.1f} ms   "
            f"speed-up x{single_s / batched_s:5.2f}   max |diff| {diff:.2e}"
        )


if __name__ == "__main__":
    main()
