"""Self-attention maps: softmax(QKᵀ/√d) for every layer and head of a real model, and summaries of them.

One forward pass per (model, text) gives all maps; `AttentionCache` keeps them so that
switching layer, head or view costs no model call.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Hashable

import numpy as np

from playground.errors import InputError

MAX_TOKENS = 512  # longest input the tab accepts (BERT's limit; longer maps stop being readable)
CAUSAL_KINDS = ("causal",)  # kinds whose self-attention is masked to the past


@dataclass(frozen=True)
class AttentionRequest:
    text: str
    text_pair: str = ""  # segment B for sentence-pair models (token_type_ids = 1)


@dataclass(frozen=True, eq=False)
class AttentionResult:
    model_key: str
    tokens: list[str]
    token_type_ids: list[int]  # 0 = segment A, 1 = segment B
    special: list[bool]  # True for [CLS], [SEP], <s>, ... added by the tokenizer
    causal: bool
    attentions: np.ndarray  # (layers, heads, T, T); row i = how query token i spreads its attention

    @property
    def shape(self) -> tuple[int, int, int]:
        layers, heads, length, _ = self.attentions.shape
        return layers, heads, length


@dataclass(frozen=True, eq=False)
class AttentionSummary:
    mean_over_heads: np.ndarray  # (T, T) for one layer
    rollout: np.ndarray  # (T, T), attention flow through all layers (Abnar & Zuidema, 2020)
    first_share: np.ndarray  # (layers,) mean attention mass on the first token
    special_share: np.ndarray  # (layers,) mean mass on the other special tokens ([SEP], </s>)
    entropy: np.ndarray  # (layers, heads) mean row entropy in bits


def supports_pairs(lm: Any) -> bool:
    """Whether the model has segment (token type) embeddings, as BERT does."""
    return int(getattr(lm.model.config, "type_vocab_size", 0) or 0) > 1


def token_limit(lm: Any) -> int:
    limits = [MAX_TOKENS, lm.spec.max_length or MAX_TOKENS]
    limits.append(int(getattr(lm.model.config, "max_position_embeddings", MAX_TOKENS) or MAX_TOKENS))
    return min(limits)


def encode(lm: Any, request: AttentionRequest) -> dict[str, list[int]]:
    """Token ids, segment ids and special-token flags of one request (no padding)."""
    if not request.text.strip():
        raise InputError("attention_empty_text", "Type a sentence first.")
    pair = request.text_pair.strip() or None
    if pair and not supports_pairs(lm):
        raise InputError(
            "attention_pair_unsupported", "{model} has no segment embeddings: leave sentence B empty.", model=lm.spec.label
        )
    enc = lm.tokenizer(request.text, pair, return_special_tokens_mask=True, return_token_type_ids=True)
    limit, n = token_limit(lm), len(enc["input_ids"])
    if n > limit:
        raise InputError("attention_too_long", "The text has {n} tokens; this view reads at most {limit}.", n=n, limit=limit)
    return {
        "input_ids": list(enc["input_ids"]),
        "token_type_ids": list(enc.get("token_type_ids") or [0] * n),
        "special": [bool(s) for s in enc["special_tokens_mask"]],
    }


def extract_attention(lm: Any, requests: list[AttentionRequest], dtype: Any = np.float32) -> list[AttentionResult]:
    """All attention maps for each request, from one padded forward pass (a class's requests share it)."""
    import torch

    encoded = [encode(lm, r) for r in requests]
    length = max(len(e["input_ids"]) for e in encoded)
    # Right padding: real tokens keep positions 0..n-1 (RoPE and learned positions unchanged), pads are masked.
    ids = torch.zeros((len(encoded), length), dtype=torch.long)
    types, mask = torch.zeros_like(ids), torch.zeros_like(ids)
    for row, e in enumerate(encoded):
        n = len(e["input_ids"])
        ids[row, :n], types[row, :n], mask[row, :n] = torch.tensor(e["input_ids"]), torch.tensor(e["token_type_ids"]), 1
    inputs = {"input_ids": ids, "attention_mask": mask}
    if supports_pairs(lm):
        inputs["token_type_ids"] = types
    with torch.inference_mode():
        out = lm.model(**{k: v.to(lm.device) for k, v in inputs.items()}, output_attentions=True)
    stacked = torch.stack([a.float() for a in out.attentions], dim=1).cpu().numpy()  # (B, layers, heads, T, T)
    results = []
    for row, e in enumerate(encoded):
        n = len(e["input_ids"])
        results.append(
            AttentionResult(
                model_key=lm.spec.key,
                tokens=lm.tokenizer.convert_ids_to_tokens(e["input_ids"]),
                token_type_ids=e["token_type_ids"],
                special=e["special"],
                causal=lm.spec.kind in CAUSAL_KINDS,
                attentions=np.ascontiguousarray(stacked[row, :, :, :n, :n], dtype=dtype),
            )
        )
    return results


def head_map(result: AttentionResult, layer: int, head: int) -> np.ndarray:
    """(T, T) attention of one head, float32; layer and head must be in range."""
    layers, heads, _ = result.shape
    if not (0 <= layer < layers and 0 <= head < heads):
        raise InputError("attention_bad_head", "Layer must be 0-{layers} and head 0-{heads}.", layers=layers - 1, heads=heads - 1)
    return result.attentions[layer, head].astype(np.float32)


def rollout(attentions: np.ndarray) -> np.ndarray:
    """Attention rollout: average heads, add the residual path (½·I), renormalise, multiply through layers.

    Written by hand: no maintained library computes it (Abnar & Zuidema, 2020, "Quantifying attention flow").
    """
    layers, _, length, _ = attentions.shape
    flow = np.eye(length)
    for layer in range(layers):
        a = 0.5 * attentions[layer].astype(np.float64).mean(axis=0) + 0.5 * np.eye(length)
        a /= a.sum(axis=-1, keepdims=True)
        flow = a @ flow
    return flow.astype(np.float32)


def row_entropy(maps: np.ndarray) -> np.ndarray:
    """Entropy in bits of each attention row, averaged over queries: (..., T, T) -> (...)."""
    p = maps.astype(np.float64)
    return -(p * np.log2(np.where(p > 0, p, 1.0))).sum(axis=-1).mean(axis=-1)


def summarize(result: AttentionResult, layer: int) -> AttentionSummary:
    """Mean over heads for `layer`, rollout, attention on special tokens per layer, head entropies."""
    att = result.attentions
    # Layer by layer: a 512-token, 30-layer model would need gigabytes as one float64 array.
    per_layer = np.stack([a.astype(np.float32).mean(axis=(0, 1)) for a in att])  # (layers, T): mass each key receives
    others = np.array(result.special, dtype=bool)
    others[0] = False
    return AttentionSummary(
        mean_over_heads=att[layer].astype(np.float32).mean(axis=0),
        rollout=rollout(att),
        first_share=per_layer[:, 0],
        special_share=per_layer[:, others].sum(axis=-1),
        entropy=np.stack([row_entropy(a) for a in att]).astype(np.float32),
    )


class AttentionCache:
    """The last few computed values (extracted maps) by key; concurrent first requests compute once."""

    def __init__(self, capacity: int = 4):
        self.capacity = max(1, capacity)
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()
        self._key_locks: dict[Hashable, threading.Lock] = {}

    def _lookup(self, key: Hashable) -> tuple[bool, Any]:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return True, self._items[key]
            return False, self._key_locks.setdefault(key, threading.Lock())

    def get(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        found, value = self._lookup(key)
        if found:
            return value
        with value:  # the first caller computes; others wait, then find it cached
            found, cached = self._lookup(key)
            if found:
                return cached
            result = compute()
            with self._lock:
                self._items[key] = result
                self._key_locks.pop(key, None)
                while len(self._items) > self.capacity:
                    self._items.popitem(last=False)
            return result

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._items
