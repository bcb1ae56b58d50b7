"""A class of 30 pressing "Fill the blanks" at once, against one-request-at-a-time serving.

Starts the app offline on a free port, then, in one run:
  reference: 30 requests one after another, each a different sentence (nothing shared);
  classroom: 30 simultaneous requests over 3 presets (what a class does with the examples).
Prints both wall times, the ratio, and checks that every student got the same answer
for the same preset.

    python bench/classroom.py
"""

import concurrent.futures as cf
import os
import sys
import time
from pathlib import Path

os.environ["HF_HUB_OFFLINE"] = "1"
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts.serve_app import serve  # noqa: E402

STUDENTS = 30
PRESETS = ["The capital of France is [MASK].", "She deposited the money in the [MASK].", "He opened the [MASK] and walked in."]
NOUNS = ["door", "box", "window", "gate", "book", "bag", "car", "shop", "letter", "fridge"]


def main():
    from gradio_client import Client

    with serve() as url:
        client = Client(url, verbose=False)
        ask = lambda text: client.predict(text, ["smollm2-instruct"], 5, "en", api_name="/fill_mask")  # noqa: E731
        ask("Warm up: the [MASK] is loaded.")  # first load (GGUF conversion cache) is not what we measure
        start = time.perf_counter()
        for i in range(STUDENTS):
            ask(f"Student {i} put the {NOUNS[i % len(NOUNS)]} on the [MASK] number {i}.")
        sequential = time.perf_counter() - start
        start = time.perf_counter()
        with cf.ThreadPoolExecutor(STUDENTS) as pool:
            answers = list(pool.map(ask, [PRESETS[i % len(PRESETS)] for i in range(STUDENTS)]))
        classroom = time.perf_counter() - start
        same = all(a == answers[i % len(PRESETS)] for i, a in enumerate(answers))
        print(f"one request at a time, 30 different sentences: {sequential:.1f} s")
        print(f"30 students at once, 3 presets:                {classroom:.1f} s  -> {sequential / classroom:.1f}x faster")
        print(f"every student got the same answer for the same preset: {same}")


if __name__ == "__main__":
    main()
