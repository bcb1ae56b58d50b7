"""Server memory over 2,000 REST calls, each a new session: bounded (state_session_capacity 300) vs Gradio's 10,000.

Every /gradio_api/call request is a new Gradio session, and each session copies the page's config (~1 MB).
Sends 2,000 cheap calls (the same /fill_mask, /attention and /masking requests over and over: after the
first, the results cache answers, so each call costs Gradio's session and little else) to the app as
launched (PLAYGROUND_SESSIONS default, 300), then REFERENCE_CALLS to the app with Gradio's default capacity
(10,000), and prints the server's RSS every 250 calls and the growth per call after the first 500
(the machine this ran on is shared: fewer reference calls keep the run short). No timing is asserted.

    nice -n 10 python bench/sessions_memory.py
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import sys

from local_server import call, rss_mb, start_app, stop

CALLS, EVERY, THREADS = 2000, 250, 6
REFERENCE_CALLS = int(os.environ.get("REFERENCE_CALLS", "750"))  # 0: only ours
REQUESTS = [
    ("fill_mask", ["The capital of France is [MASK].", ["minilm-mlm"], 5, "en"]),
    ("attention", ["minilm", "The cat sat on the mat.", "", 0, 0, 0, "en"]),
    ("masking", ["The cat sat on the mat.", "minilm", "bert", 0, 0.15, 0.8, 0.1, 6, 6, "auto", 0, "en"]),
]


def run(capacity: str, calls: int) -> list[tuple[int, float]]:
    proc, url = start_app(PLAYGROUND_SESSIONS=capacity)
    try:
        curve, failures = [(0, rss_mb(proc.pid))], 0
        with cf.ThreadPoolExecutor(THREADS) as pool:
            for start in range(0, calls, EVERY):
                batch = [REQUESTS[i % len(REQUESTS)] for i in range(start, start + EVERY)]
                results = list(pool.map(lambda r: call(url, *r), batch))
                failures += sum(not ok for ok, _ in results)
                curve.append((start + EVERY, rss_mb(proc.pid)))
                print(f"  capacity {capacity:>5}: {start + EVERY:5d} calls  RSS {curve[-1][1]:7.0f} MB", flush=True)
        if failures:
            print(f"  {failures} calls failed", file=sys.stderr)
        return curve
    finally:
        stop(proc)


if __name__ == "__main__":
    ours = run("300", CALLS)
    reference = run("10000", REFERENCE_CALLS) if REFERENCE_CALLS else [(0, float("nan")), (500, float("nan"))]
    print("\ncalls | RSS MB, capacity 300 (ours) | RSS MB, capacity 10,000 (Gradio's default)")
    for i, (n, a) in enumerate(ours):
        b = f"{reference[i][1]:7.0f}" if i < len(reference) else "      -"
        print(f"{n:5d} | {a:7.0f} | {b}")

    def per_call(curve):  # MB per call after the first 500 (model loads and warm-up done)
        (n0, r0), (n1, r1) = next(p for p in curve if p[0] == 500), curve[-1]
        return (r1 - r0) / (n1 - n0)

    a, b = per_call(ours), per_call(reference)
    print(f"\nafter call 500: ours {a * 1000:+.0f} KB per call, Gradio's default {b * 1000:+.0f} KB per call")
