"""30 clients x 10 mixed requests against the app on 127.0.0.1: errors and latency percentiles, as launched.

Each client is a thread that sends its 10 requests one after another (a student pressing buttons), over
six endpoints (fill-mask, masking, attention, polysemy, inside, next token) with texts that vary by
client; all 30 start together. Every model is warmed once first (SmolLM2's first conversion alone is ~40 s),
so the numbers are the classroom's steady state. Prints the error count and p50/p95/max per endpoint and
overall; asserts nothing about time.

    nice -n 10 python bench/load_mix.py
"""

from __future__ import annotations

import concurrent.futures as cf
import statistics
import time

from local_server import call, start_app, stop

CLIENTS, PER_CLIENT = 30, 10
NOUNS = ["door", "box", "window", "gate", "book", "bag", "car", "shop", "letter", "garden"]


def requests_for(client: int) -> list[tuple[str, list]]:
    noun = NOUNS[client % len(NOUNS)]
    mix = [
        ("fill_mask", [f"He opened the {noun} and saw a [MASK].", ["minilm-mlm"], 5, "en"]),
        ("masking", [f"The {noun} was painted blue last week.", "minilm", "bert", client, 0.15, 0.8, 0.1, 6, 6, "auto", 0, "en"]),
        ("attention", ["minilm", f"The {noun} is next to the house.", "", 0, 0, 0, "en"]),
        (
            "polysemy",
            [
                "bank",
                "money | I paid at the bank.\nriver | We sat on the river bank.",
                ["minilm"],
                True,
                "last",
                "mean",
                "pca",
                2,
                "en",
            ],
        ),  # fmt: skip
        ("inside_params", ["bert-base", 128, client % 2 == 0, "en"]),
        ("next_token", [f"The {noun} is", "smollm2-instruct", 0.8, 0, 1.0, None, "en"]),
    ]
    return [mix[(client + i) % len(mix)] for i in range(PER_CLIENT)]


def client(url: str, n: int) -> list[tuple[str, bool, float, str]]:
    out = []
    for name, data in requests_for(n):
        t0 = time.perf_counter()
        ok, detail = call(url, name, data)
        out.append((name, ok, time.perf_counter() - t0, "" if ok else detail[:200]))
    return out


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]


if __name__ == "__main__":
    proc, url = start_app()
    try:
        warm = time.perf_counter()
        for name, data in requests_for(0)[:6]:
            ok, detail = call(url, name, data)
            assert ok, f"warm-up {name} failed: {detail}"
        print(f"warm-up (every model loaded once): {time.perf_counter() - warm:.1f} s")
        t0 = time.perf_counter()
        with cf.ThreadPoolExecutor(CLIENTS) as pool:
            results = [r for rs in pool.map(lambda n: client(url, n), range(CLIENTS)) for r in rs]
        wall = time.perf_counter() - t0
    finally:
        stop(proc)
    errors = [r for r in results if not r[1]]
    print(f"{CLIENTS} clients x {PER_CLIENT} requests: {len(results)} requests in {wall:.1f} s, {len(errors)} errors")
    for name, _, _, detail in errors[:10]:
        print(f"  error {name}: {detail}")
    print("endpoint       |   n |  p50 s |  p95 s |  max s")
    for name in sorted({r[0] for r in results}) + ["all"]:
        times = [r[2] for r in results if name in ("all", r[0])]
        print(f"{name:14s} | {len(times):3d} | {pct(times, 50):6.2f} | {pct(times, 95):6.2f} | {max(times):6.2f}")
