"""Attention(Q, K, V) = softmax(QKᵀ/√d)·V, step by step, with the real Q, K, V of one layer of a model.

Hooks on the model's own query/key/value projections capture the vectors; rotary position
embeddings (RoPE) and grouped-query attention are applied as the model does, so the
recomputed weights match the model's attention output.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from playground import device
from playground.capture import own_thread
from playground.attention.maps import CAUSAL_KINDS, AttentionText, encode
from playground.errors import InputError

# Names of the query/key/value projections inside an attention block: variants as data.
QKV_NAMES = [
    ("query", "key", "value"),  # BERT, RoBERTa, ALBERT, ELECTRA, MiniLM
    ("q_proj", "k_proj", "v_proj"),  # Llama, SmolLM2, Mistral, Qwen2
    ("q_lin", "k_lin", "v_lin"),  # DistilBERT
]
FUSED_QKV_NAMES = ["c_attn"]  # GPT-2: one projection whose output is q | k | v


@dataclass(frozen=True, eq=False)
class LayerCapture:
    model_key: str
    tokens: list[str]
    layer: int
    causal: bool
    scale: float  # the 1/√d the model multiplies QKᵀ by
    rope: bool  # whether rotary position embeddings were applied to q and k
    q: np.ndarray  # (T, heads, d), after RoPE when rope
    k: np.ndarray  # (T, kv_heads, d), after RoPE when rope
    v: np.ndarray  # (T, kv_heads, d)
    attentions: np.ndarray  # (heads, T, T): the model's own attention for this layer

    @property
    def heads(self) -> int:
        return self.q.shape[1]


@dataclass(frozen=True, eq=False)
class StepResult:
    tokens: list[str]
    layer: int
    head: int
    kv_head: int  # the key/value head this query head shares (grouped-query attention)
    query: int
    scale: float
    rope: bool
    causal: bool
    q: np.ndarray  # (d,)
    keys: np.ndarray  # (T, d)
    values: np.ndarray  # (T, d)
    scores: np.ndarray  # (T,) q·k/√d; -inf where the causal mask hides a future token
    weights: np.ndarray  # (T,) softmax of the scores
    output: np.ndarray  # (d,) weights · values
    model_weights: np.ndarray  # (T,) the model's own attention row, for comparison
    max_error: float  # max |weights - model_weights|


def _attention_blocks(model: Any) -> list[tuple[Any, list[Any]]]:
    """(attention module, its projections) for every self-attention block, in model order."""
    blocks = []
    for module in model.modules():
        for names in QKV_NAMES:
            if all(hasattr(module, n) for n in names):
                blocks.append((module, [getattr(module, n) for n in names]))
        for name in FUSED_QKV_NAMES:
            if hasattr(module, name) and not getattr(module, "is_cross_attention", False):
                blocks.append((module, [getattr(module, name)]))
    if not blocks:
        raise InputError(
            "attention_no_qkv", "The step-by-step view does not know the attention layout of {model}.", model=type(model).__name__
        )
    return blocks


def _rotate(x: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> np.ndarray:
    """RoPE as transformers' Llama applies it: x·cos + rotate_half(x)·sin; x (T, heads, d), cos/sin (T, d)."""
    half = x.shape[-1] // 2
    rotated = np.concatenate([-x[..., half:], x[..., :half]], axis=-1)
    return x * cos[:, None, :] + rotated * sin[:, None, :]


def capture_layer(lm: Any, request: AttentionText, layer: int) -> LayerCapture:
    """The q, k, v and attention of `layer` (one forward pass; `capture_layers` keeps every layer of it)."""
    layers = lm.model.config.num_hidden_layers
    if not 0 <= layer < layers:
        raise InputError("attention_bad_layer", "Layer must be 0-{last}.", last=layers - 1)
    return capture_layers(lm, request)[layer]


@device.entry(4)  # one pass for every layer: what the GPU call is asked for does not grow with the layers shown
def capture_layers(lm: Any, request: AttentionText) -> tuple[LayerCapture, ...]:
    """Run the model ONCE on `request`, keeping the q, k, v and attention of every layer (the step-by-step view
    moves between layers without another forward pass)."""
    import torch  # deferred: torch takes seconds to import; importing this module needs none

    encoded = encode(lm, request)
    config = lm.model.config
    layers = config.num_hidden_layers
    blocks = _attention_blocks(lm.model)
    outputs: list[list[Any]] = [[] for _ in blocks[0][1]]
    rotary: list[Any] = []
    # Every block appends to the same slots: the n-th call is layer n (also when ALBERT shares one block). The hooks
    # act in this thread only: another request's pass on the shared model must not append to these slots.
    hooks = [
        proj.register_forward_hook(own_thread(lambda m, i, o, s=slot: s.append(o)))
        for _, projs in blocks
        for proj, slot in zip(projs, outputs)
    ]
    for module, _ in blocks:
        hooks.append(
            module.register_forward_pre_hook(
                own_thread(lambda m, a, kw: rotary.append(kw.get("position_embeddings"))), with_kwargs=True
            )
        )
    inputs = {"input_ids": torch.tensor([encoded["input_ids"]], device=lm.device)}
    if int(getattr(config, "type_vocab_size", 0) or 0) > 1:
        inputs["token_type_ids"] = torch.tensor([encoded["token_type_ids"]], device=lm.device)
    try:
        with torch.inference_mode():
            out = lm.model(**inputs, output_attentions=True)
    finally:
        for hook in hooks:
            hook.remove()
    heads = config.num_attention_heads
    kv_heads = int(getattr(config, "num_key_value_heads", None) or heads)
    tokens = lm.tokenizer.convert_ids_to_tokens(encoded["input_ids"])
    return tuple(_layer_capture(lm, tokens, outputs, rotary, blocks, out, layer, heads, kv_heads) for layer in range(layers))


def _layer_capture(lm, tokens, outputs, rotary, blocks, out, layer: int, heads: int, kv_heads: int) -> LayerCapture:
    taken = [o[layer][0].float().cpu().numpy() for o in outputs]  # (T, width) each
    if len(taken) == 1:  # fused: q | k | v along the last axis
        taken = np.split(taken[0], 3, axis=-1)
    length = taken[0].shape[0]
    d = taken[0].shape[-1] // heads
    q, k, v = taken[0].reshape(length, heads, d), taken[1].reshape(length, kv_heads, d), taken[2].reshape(length, kv_heads, d)
    cos_sin = rotary[layer] if layer < len(rotary) else None
    if cos_sin is not None:
        cos, sin = (t[0].float().cpu().numpy() for t in cos_sin)
        q, k = _rotate(q, cos, sin), _rotate(k, cos, sin)
    module = blocks[min(layer, len(blocks) - 1)][0]
    return LayerCapture(
        model_key=lm.spec.key,
        tokens=tokens,
        layer=layer,
        causal=lm.spec.kind in CAUSAL_KINDS,
        scale=float(getattr(module, "scaling", d**-0.5)),
        rope=cos_sin is not None,
        q=q,
        k=k,
        v=v,
        attentions=out.attentions[layer][0].float().cpu().numpy(),
    )


def step_by_step(capture: LayerCapture, head: int, query: int) -> StepResult:
    """The formula for one head and one query token, with the captured numbers (float64)."""
    heads, length = capture.heads, capture.q.shape[0]
    if not (0 <= head < heads and 0 <= query < length):
        raise InputError("attention_bad_query", "Head must be 0-{heads} and token 0-{last}.", heads=heads - 1, last=length - 1)
    kv_head = head // (heads // capture.k.shape[1])  # grouped-query attention: heads share K and V in groups
    q = capture.q[query, head].astype(np.float64)
    keys, values = capture.k[:, kv_head].astype(np.float64), capture.v[:, kv_head].astype(np.float64)
    scores = keys @ q * capture.scale
    if capture.causal:
        scores[query + 1 :] = -np.inf  # a causal model may not look at later tokens
    weights = np.exp(scores - scores.max())
    weights /= weights.sum()
    model_weights = capture.attentions[head, query].astype(np.float64)
    return StepResult(
        tokens=capture.tokens,
        layer=capture.layer,
        head=head,
        kv_head=kv_head,
        query=query,
        scale=capture.scale,
        rope=capture.rope,
        causal=capture.causal,
        q=q,
        keys=keys,
        values=values,
        scores=scores,
        weights=weights,
        output=weights @ values,
        model_weights=model_weights,
        max_error=float(np.abs(weights - model_weights).max()),
    )
