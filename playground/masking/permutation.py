"""Who may look at whom: XLNet's permutation LM (content and query streams) and the attention-mask
families of BERT (bidirectional), GPT (causal) and UniLM (prefix / seq2seq), for the user's sentence.

The two-stream masks are written by hand with a local torch.Generator: transformers'
DataCollatorForPermutationLanguageModeling draws from the global RNG, needs an even length and a
mask token, and does not expose the factorisation order it sampled; tests check our masks
against the same rule it encodes (i may attend to j iff j comes earlier in the order).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import torch

from playground.masking.encoding import encode, result_of
from playground.masking.results import IGNORE, MaskingResult

XLNET_K = 6  # XLNet predicts the last 1/K tokens of each order (K = 6 in the paper)


def predicted_count(n_content: int, k: int = XLNET_K) -> int:
    """How many real tokens XLNet predicts: the last 1/k of them in the order, at least one."""
    return max(1, math.ceil(n_content / max(1, int(k))))


def permutation_masks(order: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """(content, query) masks, (T, T), 1 where row i may attend to column j.

    Content stream: j no later than i in the order (itself included); query stream: strictly earlier,
    so a position predicts its own token knowing only where it is, not what it is.
    """
    rank = np.empty(len(order), dtype=int)
    rank[np.asarray(order, dtype=int)] = np.arange(len(order))
    content = (rank[None, :] <= rank[:, None]).astype(np.int8)
    query = (rank[None, :] < rank[:, None]).astype(np.int8)
    return content, query


def permutation_lm(tokenizer, text: str, seed: int, k: int = XLNET_K, **_: Any) -> MaskingResult:
    """XLNet: sample a factorisation order, predict the last 1/k of the real tokens in it."""
    enc = encode(tokenizer, text)
    T = len(enc.ids)
    order = torch.randperm(T, generator=torch.Generator().manual_seed(int(seed))).tolist()
    content_in_order = [pos for pos in order if not enc.special[pos]]
    n_predict = predicted_count(len(content_in_order), k)
    predicted = set(content_in_order[-n_predict:])
    content, query = permutation_masks(order)
    actions = ["special" if s else "predicted" if pos in predicted else "context" for pos, s in enumerate(enc.special)]
    labels = [enc.ids[pos] if pos in predicted else IGNORE for pos in range(T)]
    details = {"order": order, "content_mask": content.tolist(), "query_mask": query.tolist(), "k": int(k)}
    return result_of("permutation", enc, actions, labels, enc.shown, details=details)


def family_masks(T: int, prefix_len: int) -> dict[str, np.ndarray]:
    """Bidirectional (BERT), causal (GPT) and prefix / seq2seq (UniLM) masks, (T, T), 1 = may attend."""
    causal = np.tril(np.ones((T, T), dtype=np.int8))
    prefix = causal.copy()
    prefix[:, :prefix_len] = 1  # everyone sees the whole source segment...
    prefix[:prefix_len, prefix_len:] = 0  # ...which never sees the target
    return {"bidirectional": np.ones((T, T), dtype=np.int8), "causal": causal, "prefix": prefix}


def attention_families(tokenizer, text: str, seed: int = 0, prefix_len: int | None = None, **_: Any) -> MaskingResult:
    """The three attention-mask families for this sentence; the prefix is the first `prefix_len` tokens."""
    enc = encode(tokenizer, text)
    T = len(enc.ids)
    prefix_len = T // 2 if prefix_len is None else min(max(int(prefix_len), 1), T)
    masks = family_masks(T, prefix_len)
    actions = ["source" if pos < prefix_len else "target" for pos in range(T)]
    details = {name: m.tolist() for name, m in masks.items()} | {"prefix_len": prefix_len}
    return result_of("attention", enc, actions, [IGNORE] * T, enc.shown, details=details)
