"""The output end: the final distribution, what each layer would predict (the logit lens), and the logits the page
needs to redraw the distribution at any temperature without asking the server.

A vocabulary of 50k-250k logits is too much to send per click, so the page gets the `TOP_LOGITS` largest exactly and
the rest as `TAIL_BINS` (mean logit, count) bins: softmax(l/T) over those is the model's distribution at temperature
T, off by a relative ~(bin width)²/(24·T²) in the tail's share only (a 20-logit spread gives ~1e-4 at T = 1).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

TOP_LOGITS = 100
TAIL_BINS = 64


@dataclass(frozen=True)
class Readout:
    """What the model's own head predicts from one layer's hidden state at the chosen token."""

    layer: int  # 0 = the embeddings' output (what block 0 reads); i = block i's output
    tokens: list[str]  # top-k, most probable first (vocabulary spelling; the page escapes them)
    ids: list[int]
    probs: list[float]
    answer_rank: int  # rank of the model's final top-1 token in this layer's distribution (0 = first)
    answer_prob: float


@dataclass(frozen=True)
class Logits:
    """The final logits at the chosen token, as the page redraws them at any temperature."""

    top_ids: list[int]  # the TOP_LOGITS largest, largest first
    top_tokens: list[str]
    top_logits: list[float]
    tail_logits: list[float]  # the other logits, binned: each bin's mean logit ...
    tail_counts: list[int]  # ... and how many logits fell in it


def softmax(logits: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    z = logits.astype(np.float64) / temperature
    z -= z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(axis=-1, keepdims=True)


def readouts(lens: np.ndarray, tokenizer, top_k: int, answer: int) -> list[Readout]:
    """Per layer (rows of `lens`, (layers + 1, vocab)): top-k and where the final answer `answer` stands."""
    rows = []
    for layer, logits in enumerate(lens):
        p = softmax(logits)
        top = np.argpartition(-p, top_k - 1)[:top_k]  # the k largest without sorting a 250k vocabulary
        top = top[np.argsort(-p[top], kind="stable")]
        rows.append(
            Readout(
                layer=layer,
                tokens=tokenizer.convert_ids_to_tokens(top.tolist()),
                ids=top.tolist(),
                probs=[round(float(x), 6) for x in p[top]],
                answer_rank=int((p > p[answer]).sum()),
                answer_prob=round(float(p[answer]), 6),
            )
        )
    return rows


def compact(logits: np.ndarray, tokenizer) -> Logits:
    """The largest logits exactly and the rest in bins (see the module's docstring)."""
    order = np.argsort(-logits, kind="stable")
    top, rest = order[:TOP_LOGITS], logits[order[TOP_LOGITS:]].astype(np.float64)
    means, counts = [], []
    if rest.size:
        edges = np.linspace(rest.min(), rest.max() + 1e-9, TAIL_BINS + 1)
        which = np.clip(np.searchsorted(edges, rest, side="right") - 1, 0, TAIL_BINS - 1)
        counts_all = np.bincount(which, minlength=TAIL_BINS)
        sums = np.bincount(which, weights=rest, minlength=TAIL_BINS)
        kept = counts_all > 0
        means, counts = (sums[kept] / counts_all[kept]).tolist(), counts_all[kept].tolist()
    return Logits(
        top_ids=top.tolist(),
        top_tokens=tokenizer.convert_ids_to_tokens(top.tolist()),
        top_logits=[round(float(x), 5) for x in logits[top]],
        tail_logits=[round(x, 5) for x in means],
        tail_counts=[int(c) for c in counts],
    )


def probs_at(compacted: Logits, temperature: float) -> np.ndarray:
    """Probabilities of the top logits at `temperature` from the compact form: what the page computes in the browser."""
    top = np.asarray(compacted.top_logits, dtype=np.float64) / temperature
    tail = np.asarray(compacted.tail_logits, dtype=np.float64) / temperature
    shift = top.max()
    z = np.exp(top - shift).sum() + (np.asarray(compacted.tail_counts) * np.exp(tail - shift)).sum()
    return np.exp(top - shift) / z
