"""Our step-by-step sampling loop vs `model.generate` and vs recomputing the prefix without a cache.

Run: python bench/sampling.py [--tokens 100] [--repeats 3] [--model smollm2-instruct]
Prints times and ratios; never asserts them (CPU timings are noisy).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402

from playground import models, sampling  # noqa: E402
from playground.sampling import generation

PROMPT = "The future of AI is"


def ours(lm, s, n_tokens, seed):
    return generation.generate(lm, PROMPT, s, n_tokens, 1, seed)


def reference_generate(lm, s, n_tokens, seed):
    ids = torch.tensor([sampling.encode_prompt(lm, PROMPT)], device=lm.device)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)  # generate draws from the global RNG; ours from a local generator with the same seed
        return lm.model.generate(
            ids,
            do_sample=True,
            temperature=s.temperature,
            top_k=s.top_k,
            top_p=s.top_p,
            max_new_tokens=n_tokens,
            min_new_tokens=0,
            pad_token_id=lm.tokenizer.eos_token_id,
        )


@torch.inference_mode()
def no_cache(lm, s, n_tokens, seed):
    """The naive loop: run the whole prefix through the model again for every new token."""
    ids = sampling.encode_prompt(lm, PROMPT)
    gen = torch.Generator(device=lm.device).manual_seed(seed)
    for _ in range(n_tokens):
        logits = lm.model(torch.tensor([ids], device=lm.device), use_cache=False, logits_to_keep=1).logits[:, -1].float()
        ids.append(int(torch.multinomial(sampling.warp(logits, s).softmax(-1), 1, generator=gen)))
    return ids


def best_of(fn, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return min(times), out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="smollm2-instruct")
    parser.add_argument("--tokens", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    lm = models.load(args.model)
    s = sampling.SamplingSettings(temperature=0.8, top_k=50, top_p=0.95)
    # Find a seed whose sample runs the full length without an end-of-text token, so all three do the same work.
    seed = next(k for k in range(50) if len(ours(lm, s, args.tokens, k).samples[0].tokens) == args.tokens)
    ours(lm, s, 5, seed), reference_generate(lm, s, 5, seed)  # warm-up
    t_ours, result = best_of(lambda: ours(lm, s, args.tokens, seed), args.repeats)
    t_ref, ref = best_of(lambda: reference_generate(lm, s, args.tokens, seed), args.repeats)
    t_naive, _ = best_of(lambda: no_cache(lm, s, args.tokens, seed), 1)
    ours_ids = [c.token_id for c in result.samples[0].tokens]
    same = ours_ids == ref[0, -len(ours_ids) :].tolist()
    print(
        f"model {lm.spec.hf_id} on {lm.device}, {args.tokens} new tokens, T={s.temperature} top_k={s.top_k} "
        f"top_p={s.top_p} seed={seed}, torch threads={torch.get_num_threads()}"
    )
    print(f"ours (KV cache, per-token records)  {t_ours:7.3f} s")
    print(f"model.generate                       {t_ref:7.3f} s   ours/generate = {t_ours / t_ref:.2f}x (target <= 1.3x)")
    print(f"no cache (whole prefix every step)   {t_naive:7.3f} s   no-cache/ours = {t_naive / t_ours:.2f}x (target >= 5x)")
    print(f"same tokens as model.generate: {same}")


if __name__ == "__main__":
    main()
