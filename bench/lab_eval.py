"""The MLM lab's held-out loss with the head run at the blanks only (what it is) against the whole model's forward
pass (what it was: the model's own `loss` from `labels`), on the same fixed held-out batches in one run.

    python bench/lab_eval.py            # e5-mlm on the GIMP manual (250k-word vocabulary) and minilm-mlm on medicine

Both give the same loss (printed); the ratio is the point.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402

from playground import models  # noqa: E402
from playground.mlm_lab import corpus  # noqa: E402
from playground.mlm_lab.training import LabSettings, answered_pieces, evaluate, fixed_eval_batches  # noqa: E402


@torch.no_grad()
def whole_model_loss(lm, batches) -> float:
    total, count = 0.0, 0
    for batch in batches:
        n = int((batch["labels"] != -100).sum())
        total += float(lm.model(**batch).loss) * n
        count += n
    return total / count


def main() -> None:
    for key, sample in (("e5-mlm", "gimp-zh"), ("minilm-mlm", "medicine")):
        lm = models.load(key)
        lm.model.eval()
        texts = corpus.sentences(corpus.sample_corpus(sample))
        _, held = corpus.split(texts, 0)
        batches = fixed_eval_batches(lm.tokenizer, held, LabSettings(base=key), answered_pieces(lm))
        runs = {"blanks only": [], "whole model": []}
        for _ in range(3):
            start = time.perf_counter()
            ours = evaluate(lm, batches).loss
            runs["blanks only"].append(time.perf_counter() - start)
            start = time.perf_counter()
            theirs = whole_model_loss(lm, batches)
            runs["whole model"].append(time.perf_counter() - start)
        ours_s, theirs_s = (statistics.median(runs[name]) for name in ("blanks only", "whole model"))
        print(
            f"{key}: {sum(len(b['input_ids']) for b in batches)} held-out sentences; loss {ours:.6f} vs {theirs:.6f}; "
            f"{ours_s:.2f} s vs {theirs_s:.2f} s: {theirs_s / ours_s:.1f}x faster"
        )


if __name__ == "__main__":
    main()
