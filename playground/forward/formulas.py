"""Each stage recomputed from its formula and the model's weights, to check what the hooks captured.

A stage is recomputed from the *captured* tensors it is made of (architectures.Stage.inputs) in float64 (tests) or
float32 (the app), so a disagreement points at one stage, not at the whole chain behind it. The ops are the
formulas the course writes: x·W + b, LayerNorm, RMSNorm, softmax(q·kᵀ/√d + mask) with RoPE and grouped-query
attention, GELU, SwiGLU.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import torch

from playground.architectures import BlockKind
from playground.capture import Point


@dataclass(frozen=True)
class Context:
    """What a formula may read besides its input stages: the model's shape and the pass's token ids."""

    kind: BlockKind
    config: Any
    rotary: Any  # the rotary embedding module (kind.rope) or None
    ids: torch.Tensor  # (T,)
    segments: torch.Tensor  # (T,)
    relative_bias: Any = None  # the module whose compute_bias gives T5's relative position bias (kind.relative_bias)
    dtype: torch.dtype = torch.float64  # the tests check in float64; the app in float32 (a float64 copy of every
    # weight cost ~3 plain passes on e5-small), where a formula's own rounding is ~1e-7 of the stage's scale too

    @property
    def heads(self) -> int:
        return self.config.num_attention_heads

    @property
    def kv_heads(self) -> int:
        return getattr(self.config, "num_key_value_heads", None) or self.heads


def _w(module: Any, like: torch.Tensor, name: str = "weight") -> torch.Tensor | None:
    """A weight of `module` on the CPU in `like`'s dtype (no copy when it already is)."""
    value = getattr(module, name, None)
    return None if value is None else value.detach().to(device="cpu", dtype=like.dtype)


def linear(module: Any, x: torch.Tensor) -> torch.Tensor:
    """x·W + b. nn.Linear stores W as (out, in); GPT-2's Conv1D as (in, out)."""
    w, b = _w(module, x), _w(module, x, "bias")
    return torch.nn.functional.linear(x, w.T if hasattr(module, "nf") else w, b)  # x·Wᵀ + b in one kernel


def layernorm(module: Any, x: torch.Tensor) -> torch.Tensor:
    mean, var = x.mean(-1, keepdim=True), x.var(-1, unbiased=False, keepdim=True)
    return (x - mean) / torch.sqrt(var + module.eps) * _w(module, x) + _w(module, x, "bias")


def rmsnorm(module: Any, x: torch.Tensor) -> torch.Tensor:
    eps = getattr(module, "variance_epsilon", None) or getattr(module, "eps")
    return x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + eps) * _w(module, x)


def rope(x: torch.Tensor, rotary: Any) -> torch.Tensor:
    """Rotary position embedding as Llama applies it: x·cos + rotate_half(x)·sin, angles position × inv_freq."""
    positions = torch.arange(x.shape[-2], dtype=x.dtype)
    angles = positions[:, None] * rotary.inv_freq.detach().to(device="cpu", dtype=x.dtype)[None, :]
    angles = torch.cat([angles, angles], dim=-1)  # (T, d): the same angle for dims i and i + d/2
    scale = float(getattr(rotary, "attention_scaling", 1.0))
    half = x.shape[-1] // 2
    rotated = torch.cat([-x[..., half:], x[..., :half]], dim=-1)
    return x * angles.cos() * scale + rotated * angles.sin() * scale


def _per_head(x: torch.Tensor, heads: int) -> torch.Tensor:
    return x.reshape(x.shape[0], heads, -1).transpose(0, 1)  # (T, h·d) -> (h, T, d)


def attention(module: Any, q: torch.Tensor, k: torch.Tensor, ctx: Context) -> torch.Tensor:
    """softmax(q·kᵀ·scale + mask) per head: (heads, T, T). Query heads share K in groups (grouped-query attention)."""
    q, k = _per_head(q, ctx.heads), _per_head(k, ctx.kv_heads)
    if ctx.kind.rope:
        q, k = rope(q, ctx.rotary), rope(k, ctx.rotary)
    k = k.repeat_interleave(ctx.heads // ctx.kv_heads, dim=0)
    scale = float(getattr(module, "scaling", q.shape[-1] ** -0.5))
    scores = q @ k.transpose(-1, -2) * scale
    if ctx.kind.causal:  # a token may not look at later tokens
        length = scores.shape[-1]
        scores = scores.masked_fill(torch.ones(length, length, dtype=torch.bool).triu(1), -math.inf)
    return scores.softmax(-1)


def t5_attention(module: Any, q: torch.Tensor, k: torch.Tensor, ctx: Context) -> torch.Tensor:
    """T5's self-attention: softmax(q·kᵀ + relative position bias + causal mask) per head, no 1/√d scaling (T5
    folds it into the initialisation). The bias is block 0's table of relative-distance buckets."""
    q, k = _per_head(q, ctx.heads), _per_head(k, ctx.heads)
    length = q.shape[-2]
    bias = ctx.relative_bias.compute_bias(length, length)[0].detach().to(device="cpu", dtype=q.dtype)
    scores = q @ k.transpose(-1, -2) + bias
    if ctx.kind.causal:
        scores = scores.masked_fill(torch.ones(length, length, dtype=torch.bool).triu(1), -math.inf)
    return scores.softmax(-1)


def cross_attention(module: Any, q: torch.Tensor, k: torch.Tensor, ctx: Context) -> torch.Tensor:
    """Encoder-decoder attention: softmax(q·kᵀ) per head, decoder queries × source keys (no bias, no mask)."""
    q, k = _per_head(q, ctx.heads), _per_head(k, ctx.heads)
    return (q @ k.transpose(-1, -2) * float(getattr(module, "scaling", 1.0))).softmax(-1)


def t5_logits(module: Any, x: torch.Tensor, ctx: Context) -> torch.Tensor:
    """T5's head: the decoder's output scaled by d_model^-½ when the head is the (tied) embedding table."""
    if getattr(ctx.config, "scale_decoder_outputs", False):
        x = x * ctx.config.d_model**-0.5
    return linear(module, x)


def mix(pattern: torch.Tensor, v: torch.Tensor, ctx: Context) -> torch.Tensor:
    """Each head's weighted sum of values, heads concatenated: (T, h·d_v), the input of W^O."""
    v = _per_head(v, ctx.kv_heads).repeat_interleave(ctx.heads // ctx.kv_heads, dim=0)
    return (pattern @ v).transpose(0, 1).reshape(pattern.shape[-2], -1)  # (queries, h·d_v): cross-attention is not square


ACTIVATIONS: dict[str, Callable[[torch.Tensor], torch.Tensor]] = {
    "gelu": lambda x: 0.5 * x * (1 + torch.erf(x / math.sqrt(2))),  # BERT: the exact GELU
    # GPT-2: the tanh approximation of GELU it was trained with
    "gelu_new": lambda x: 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x.pow(3)))),
    "gelu_pytorch_tanh": lambda x: 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x.pow(3)))),
    "silu": lambda x: x * torch.sigmoid(x),
    "relu": lambda x: x.clamp_min(0),
}


def activation(ctx: Context) -> Callable[[torch.Tensor], torch.Tensor]:
    return ACTIVATIONS[getattr(ctx.config, ctx.kind.act)]


# op -> (module, [input tensors], context) -> the stage's tensor. Inputs come without the batch axis, in ctx.dtype.
OPS: dict[str, Callable[[Any, list[torch.Tensor], Context], torch.Tensor]] = {
    "same": lambda m, xs, ctx: xs[0],
    "embedding": lambda m, xs, ctx: m.weight.detach()[xs[0].to(m.weight.device)].to(device="cpu", dtype=ctx.dtype),
    "add": lambda m, xs, ctx: sum(xs[1:], xs[0]),
    "linear": lambda m, xs, ctx: linear(m, xs[0]),
    "layernorm": lambda m, xs, ctx: layernorm(m, xs[0]),
    "rmsnorm": lambda m, xs, ctx: rmsnorm(m, xs[0]),
    "attention": lambda m, xs, ctx: (t5_attention if ctx.relative_bias is not None else attention)(m, xs[0], xs[1], ctx),
    "cross_attention": lambda m, xs, ctx: cross_attention(m, xs[0], xs[1], ctx),
    "t5_logits": lambda m, xs, ctx: t5_logits(m, xs[0], ctx),
    "mix": lambda m, xs, ctx: mix(xs[0], xs[1], ctx),
    "act": lambda m, xs, ctx: activation(ctx)(xs[0]),
    "swiglu": lambda m, xs, ctx: activation(ctx)(xs[0]) * xs[1],
    "mlm_transform": lambda m, xs, ctx: layernorm(m.LayerNorm, activation(ctx)(linear(m.dense, xs[0]))),
}


def input_name(point: Point, name: str, layers: int, kind: BlockKind) -> str:
    """The full name of one of a stage's inputs ("ln1" in block 3 -> "blocks.3.ln1"; "prev" -> what the block reads)."""
    if name == "prev":
        return kind.embed[-1].name if point.layer == 0 else f"blocks.{point.layer - 1}.resid_post"
    if any(s.name == name for s in kind.embed):  # a stage before the blocks that every block reads (T5's encoder output)
        return name
    if name.startswith("last."):
        return f"blocks.{layers - 1}.{name[5:]}"
    return f"blocks.{point.layer}.{name}" if point.layer >= 0 else name


def recompute(point: Point, cache: dict[str, torch.Tensor], ctx: Context, layers: int) -> torch.Tensor:
    """The stage's tensor (no batch axis, ctx.dtype) from its formula, its module's weights and the captured inputs."""
    raw = {"ids": ctx.ids, "segments": ctx.segments, "positions": torch.arange(len(ctx.ids))}
    xs = []
    for name in point.stage.inputs:
        full = input_name(point, name, layers, ctx.kind)
        xs.append(raw[full] if full in raw else cache[full][0].to(ctx.dtype))
    module = point.module
    if point.stage.part >= 0:  # a third of a fused projection: its weights are that third of the module's
        return linear(module, xs[0]).chunk(3, dim=-1)[point.stage.part]
    return OPS[point.stage.op](module, xs, ctx)


@dataclass(frozen=True)
class Check:
    """How far the hooks' tensor is from the formula's: the largest absolute difference, and the stage's scale."""

    error: float  # max |captured - recomputed| over the whole tensor
    scale: float  # max |captured|: a float32 model rounds to about 1e-7 of this

    @property
    def relative(self) -> float:
        return self.error / max(1.0, self.scale)


def verify(
    model: Any, kind: BlockKind, points: dict[str, Point], cache: dict[str, torch.Tensor], ctx: Context
) -> dict[str, Check]:
    """Every captured stage checked against its formula (in ctx.dtype, from the captured inputs), by name."""
    layers = 1 + max((p.layer for p in points.values()), default=-1)
    checks = {}
    for name, point in points.items():
        if name not in cache:
            continue
        captured = cache[name][0].to(ctx.dtype)
        expected = recompute(point, cache, ctx, layers)
        checks[name] = Check(float((captured - expected).abs().max()), float(captured.abs().max()))
    return checks


def context(
    model: Any, kind: BlockKind, ids: torch.Tensor, segments: torch.Tensor, dtype: torch.dtype = torch.float64
) -> Context:
    base = getattr(model, "base_model", model)
    rotary = base.get_submodule(kind.rotary) if kind.rotary else None
    bias = base.get_submodule(kind.relative_bias) if kind.relative_bias else None
    return Context(kind, model.config, rotary, ids.cpu(), segments.cpu(), bias, dtype)
