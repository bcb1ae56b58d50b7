"""What was measured about a causal model trained here, so the page can say beside its text how weak it is.

A model trained here writes its held-out numbers into the summary its training script commits (scripts/train_gpt_zh.py
-> assets/gpt_zh/summary.json); the sampling view reads them from there, so the figure on the page is the figure of
the weights that run, never a number copied into a sentence. One row per model: a new one is a line in SUMMARIES.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass

from playground.availability import ASSETS

SUMMARIES = {"gpt-zh": "gpt_zh/summary.json"}  # model key -> its training summary under assets/


@dataclass(frozen=True)
class Measured:
    """Held-out perplexity of the model on everyday Chinese (the HSK held-out split) beside add-k n-gram baselines
    counted on the same training text, and how much it read."""

    parameters: int
    perplexity: float  # per token (= per character) on the HSK held-out sentences
    bigram: float  # an add-k bigram model's perplexity on the same tokens
    unigram: float
    training_tokens: int  # tokens of the training text (one Chinese character is one token)


@functools.cache
def measured(key: str) -> Measured | None:
    """The measured figures of a model trained here (None for any other model, or when its summary is missing)."""
    name = SUMMARIES.get(key)
    path = ASSETS / name if name else None
    if path is None or not path.exists():
        return None
    summary = json.loads(path.read_text(encoding="utf-8"))
    hsk = summary["held_out_perplexity"]["hsk_held_out"]
    return Measured(
        parameters=int(summary["parameters"]),
        perplexity=float(hsk["gpt"]),
        bigram=float(hsk["bigram"]),
        unigram=float(hsk["unigram"]),
        training_tokens=int(sum(summary["corpus_train_tokens"].values())),
    )
