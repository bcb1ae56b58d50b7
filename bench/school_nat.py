"""A class of 60 behind one school address (NAT): every student presses Run at the same moment.

Issue 37, item 16: with the per-address cap at half the queue (64 // 2 = 32), 60 simultaneous requests from one
address had some refused (HTTP 429) although each student had one request. This starts the app offline twice (the
old defaults, PLAYGROUND_QUEUE_SIZE=64; then the current ones), and in each sends, from 127.0.0.1 (one address):

  one each:  60 students, one /fill_mask each, all POSTed together (a Barrier), each reading its own stream;
  two each:  60 students, two requests each (a second tab, a double click): 120 at once.

Each student's sentence differs (no cache answers). Prints accepted / refused (429 per address, 503 queue full) and
the time from the POST to the result (p50, p95, max), and a run from a second address afterwards is not measured
here: 127.0.0.1 is the only address a local bench has (tests/unit/core/test_queue_guard.py covers "others still get
in" with two addresses).

    python bench/school_nat.py            # ~5 min on a shared 2-core machine
"""

from __future__ import annotations

import json
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.local_server import start_app, stop  # noqa: E402

STUDENTS = 60
NOUNS = ["door", "box", "window", "gate", "book", "bag", "car", "shop", "letter", "fridge", "desk", "lamp"]


def one(url: str, i: int, barrier: threading.Barrier, out: list) -> None:
    text = f"Student {i} put the {NOUNS[i % len(NOUNS)]} on the [MASK] at {i // len(NOUNS)} o'clock."
    body = json.dumps({"data": [text, ["minilm-mlm"], 5, "en"]}).encode()
    req = urllib.request.Request(f"{url}/gradio_api/call/fill_mask", body, {"Content-Type": "application/json"})
    barrier.wait()
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=600) as r:
            event_id = json.loads(r.read())["event_id"]
    except urllib.error.HTTPError as err:
        out.append((str(err.code), time.perf_counter() - start))
        return
    except OSError as err:
        out.append((type(err).__name__, time.perf_counter() - start))
        return
    event = ""
    with urllib.request.urlopen(f"{url}/gradio_api/call/fill_mask/{event_id}", timeout=600) as r:
        for raw in r:
            line = raw.decode("utf-8", "replace").strip()
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:") and event in ("complete", "error"):
                break
    out.append(("ok" if event == "complete" else f"error:{line[5:80]}", time.perf_counter() - start))


def burst(url: str, per_student: int) -> dict:
    n = STUDENTS * per_student
    barrier, out = threading.Barrier(n), []
    threads = [threading.Thread(target=one, args=(url, i, barrier, out)) for i in range(n)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    counts: dict[str, int] = {}
    for outcome, _ in out:
        counts[outcome] = counts.get(outcome, 0) + 1
    done = sorted(s for outcome, s in out if outcome == "ok")
    p95 = done[int(0.95 * (len(done) - 1))] if done else float("nan")
    return {"requests": n, "outcomes": counts, "wall_s": round(wall, 1),
            "p50_s": round(statistics.median(done), 1) if done else None, "p95_s": round(p95, 1),
            "max_s": round(done[-1], 1) if done else None}  # fmt: skip


def main() -> None:
    for label, env in (("old defaults (queue 64, per address 32)", {"PLAYGROUND_QUEUE_SIZE": "64"}), ("current defaults", {})):
        proc, url = start_app(**env)
        try:
            warm = burst.__globals__["one"]  # one request first: the model's first load is not what we measure
            out: list = []
            warm(url, 999, threading.Barrier(1), out)
            print(f"{label}: warm-up {out}", flush=True)
            for per_student in (1, 2):
                print(f"{label}, {STUDENTS} students x {per_student}: {burst(url, per_student)}", flush=True)
        finally:
            stop(proc)


if __name__ == "__main__":
    main()
