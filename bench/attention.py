"""Attention: a layer/head switch served from the cache vs a fresh forward pass, and response sizes, at 128 tokens.

Run: python bench/attention.py [--models minilm smollm2-instruct] [--tokens 128] [--repeats 5]
The reference is what a tab without the cache does on every switch: tokenizer + model(..., output_attentions=True).
Prints times, ratios and sizes; never asserts timings.
"""

from __future__ import annotations

import argparse
import io
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
from PIL import Image  # noqa: E402

from playground import models  # noqa: E402
from playground import attention as att  # noqa: E402
from playground.attention import AttentionRequest, run_attention  # noqa: E402
from playground.runtime import Runtime  # noqa: E402

RUNTIME = Runtime()  # the one load path; the maps are cached in it as in the app
from playground.serialize import jsonable  # noqa: E402
from playground.ui.attention.render import render as draw  # noqa: E402

WORDS = (
    "The animal didn't cross the street because it was too tired, so it lay down by the old stone wall "
    "and watched the children play in the park until the sun went down behind the hills ."
).split()


def text_of(lm, tokens: int) -> str:
    """A sentence that the model's tokenizer cuts into exactly about `tokens` tokens (special tokens included)."""
    words = []
    while len(lm.tokenizer(" ".join(words))["input_ids"]) < tokens:
        words.append(WORDS[len(words) % len(WORDS)])
    return " ".join(words[:-1] if len(lm.tokenizer(" ".join(words))["input_ids"]) > tokens else words)


def timed(fn, repeats):
    fn()  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def png_bytes(image) -> int:
    buffer = io.BytesIO()
    Image.fromarray(image).save(buffer, format="PNG")
    return buffer.tell()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", nargs="+", default=["minilm", "smollm2-instruct"])
    parser.add_argument("--tokens", type=int, default=128)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"torch threads {torch.get_num_threads()}, median of {args.repeats}")
    for key in args.models:
        lm = models.load(key)
        text = text_of(lm, args.tokens)
        att.attention_maps(key, text, "", RUNTIME)  # the one forward pass a sentence costs
        n = att.attention_maps(key, text, "", RUNTIME)[1].shape[2]

        def render(view, layer, head, query):
            request = AttentionRequest(key, text, "", layer, head, 0, view, query, fit=True)
            return draw(run_attention(request, RUNTIME), "en")

        layers, heads = lm.model.config.num_hidden_layers, lm.model.config.num_attention_heads
        state = {"i": 0}

        def switch():  # a new layer and head each time, figure included
            state["i"] += 1
            render("head", state["i"] % layers, state["i"] % heads, -1)

        def fresh():
            with torch.inference_mode():
                enc = lm.tokenizer(text, return_tensors="pt").to(lm.device)
                lm.model(**enc, output_attentions=True)

        ours, ref = timed(switch, args.repeats), timed(fresh, args.repeats)
        print(
            f"{key} ({n} tokens, {layers}x{heads}): switch {ours * 1000:.1f} ms, fresh forward {ref * 1000:.1f} ms, "
            f"ratio {ref / ours:.1f}x faster"
        )
        sizes = {}
        for view in ("head", "layer", "tokens", "rollout", "entropy"):
            out = render(view, 1, 1, 5)
            sizes[view] = len(out["plot"].to_json())
        sizes["overview (PNG)"] = png_bytes(render("overview", 0, 0, 0)["image"])
        sizes["API JSON"] = len(
            json.dumps(jsonable(att.attention_json(run_attention(AttentionRequest(key, text, "", 1, 1), RUNTIME))))
        )
        print("  response sizes (KB): " + ", ".join(f"{k} {v / 1024:.0f}" for k, v in sizes.items()))


if __name__ == "__main__":
    main()
