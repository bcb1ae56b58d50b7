"""Step-through sampling across ZeroGPU's process boundary: keep the KV cache (on the CPU) or recompute the prefix?

Run: python bench/zerogpu_sampler.py [--model smollm2-instruct] [--steps 120] [--device cpu]
On ZeroGPU each click is one `spaces.GPU` call in a forked worker: the user's Sampler (gr.State) is pickled in,
stepped once, pickled out. Two ways to carry it: its key/value cache moved to the CPU and pickled (the app's
choice, Sampler.CROSS_WITH_CACHE), or no cache at all and the prompt + tokens so far recomputed at the next step.
Prints per-step time (pickle out + pickle in + step) at several lengths for both, and their ratio; never asserts.
"""

from __future__ import annotations

import argparse
import os
import pickle
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playground import models, sampling  # noqa: E402
from playground.sampling import generation  # noqa: E402

PROMPT = "Once upon a time, in a small village at the edge of a forest, there lived"


def crossing_steps(lm, steps: int, keep_cache: bool, marks: list[int]) -> tuple[dict[int, float], int]:
    """Seconds of the crossing step at each mark (median of the 3 steps ending there), and the pickled size at the end."""
    generation.Sampler.CROSS_WITH_CACHE = keep_cache
    sampler = generation.Sampler(lm, PROMPT, sampling.settings(0.8, 0, 1.0), 0, 1, steps)
    times, out, size = [], {}, 0
    for step in range(1, steps + 1):
        start = time.perf_counter()
        blob = pickle.dumps(sampler)  # out of one worker ...
        sampler = pickle.loads(blob)  # ... into the next
        sampler.step(lm)
        times.append(time.perf_counter() - start)
        size = len(blob)
        if step in marks:
            out[step] = statistics.median(times[-3:])
    return out, size


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="smollm2-instruct")
    parser.add_argument("--steps", type=int, default=120)
    args = parser.parse_args()
    lm = models.load(args.model)
    marks = [m for m in (5, 40, 80, 120, 200) if m <= args.steps]
    n_prompt = len(sampling.encode_prompt(lm, PROMPT, 1))
    print(f"{lm.spec.hf_id} on {lm.device}, prompt {n_prompt} tokens, {args.steps} steps")
    crossing_steps(lm, 6, True, [])  # warm-up
    cached, cached_size = crossing_steps(lm, args.steps, True, marks)
    recomputed, recomputed_size = crossing_steps(lm, args.steps, False, marks)
    generation.Sampler.CROSS_WITH_CACHE = True
    print("| tokens so far | cache kept (pickled on the CPU) | prefix recomputed | recompute / keep |")
    print("|---|---|---|---|")
    for m in marks:
        print(f"| {m} | {cached[m] * 1000:.1f} ms | {recomputed[m] * 1000:.1f} ms | {recomputed[m] / cached[m]:.2f}x |")
    print(
        f"pickled sampler after {args.steps} steps: {cached_size / 1e6:.2f} MB with cache, {recomputed_size / 1e3:.1f} kB without"
    )


if __name__ == "__main__":
    main()
