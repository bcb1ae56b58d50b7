"""The view's result: every stage at the chosen token, per-layer norms and attention, the lens and the final top-k.

Built from a cached pass (playground.forward.passes) for one chosen token; plain lists and numpy arrays, so
`serialize.jsonable` makes it the API's JSON as it is.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from playground.forward import lens, passes
from playground.forward.lens import Logits, Readout
from playground.capture import points
from playground.forward.formulas import input_name

VECTOR_VALUES = 64  # values of a stage's vector sent to the page (a strip a phone can show); the norm uses all


@dataclass(frozen=True)
class StageVector:
    """One stage at the chosen token."""

    name: str  # "embed.token", "blocks.3.attn.out", "logits" (playground.architectures names them)
    stage: str  # the name inside its block ("attn.out"; = name outside the blocks): what the page's texts are keyed by
    layer: int  # its block, -1 outside the blocks
    module: str  # where the model computes it ("encoder.layer.3.attention.output.dense"; "top:" = beside the base)
    inputs: list[str]  # the stages (or "ids", "segments", "positions") its formula is computed from
    formula: str
    shape: list[int]  # the whole stage for this sentence: [T, width], or [heads, T, T] for attn.pattern
    norm: float  # L2 norm of the chosen token's full vector (for attn.pattern: of its rows, all heads)
    size: int  # how many values the chosen token's vector has
    values: list[float]  # its first VECTOR_VALUES values, 4 decimals (attn.pattern: each head's row, head after head)
    error: float  # max |hooks - formula| over the whole stage (float32 model: ~1e-7 of its scale)
    scale: float  # max |value| over the whole stage


@dataclass(frozen=True)
class ForwardResult:
    model: str
    model_id: str
    device: str
    block_kind: str  # "post_ln", "pre_ln", "pre_rms" (playground.architectures.KINDS)
    block_label: str
    norm_position: str  # "post": add then normalise (BERT); "pre": normalise each sub-layer's input
    causal: bool
    rope: bool
    layers: int
    heads: int
    kv_heads: int  # < heads: grouped-query attention
    d_model: int
    d_head: int
    d_ff: int
    tokens: list[str]  # vocabulary spelling, unescaped (the page escapes)
    display: list[str]  # per token: how it reads where the spelling does not ("␣bank", "银(1/3)"), else ""
    special: list[bool]
    token_type_ids: list[int]
    token: int  # the chosen token
    stages: list[StageVector]  # forward order; stage_names lists the same names
    attention: np.ndarray  # (layers, heads, T, T), 3 decimals: every head, for the page to switch in the browser
    resid_norms: np.ndarray  # (layers + 1, T): ‖x‖ entering block 0, then leaving each block
    attn_norms: np.ndarray  # (layers, T): ‖attention update‖ (the attn.out added to the stream)
    mlp_norms: np.ndarray  # (layers, T): ‖FFN update‖ (mlp.out)
    lens: list[Readout]  # per layer 0..layers: the head's prediction from that hidden state ([] without a head)
    top: Readout | None  # the final top-k, layer = layers (None without a head)
    logits: Logits | None  # the final logits, compact, for the temperature control (None without a head)
    max_error: float  # the worst stage's error relative to its scale (max(1, |value|))
    logits_error: float  # max |captured logits - the model's own logits| (nan without a head -> null in JSON)
    seconds: float  # the capture pass

    @property
    def stage_names(self) -> list[str]:
        return [s.name for s in self.stages]


def _vector(point: Any, path: str, inputs: list[str], tensor: np.ndarray, token: int, error: tuple[float, float]) -> StageVector:
    row = tensor[:, token, :].reshape(-1) if tensor.ndim == 3 else tensor[token]
    return StageVector(
        name=point.name,
        stage=point.stage.name,
        layer=point.layer,
        module=path,
        inputs=inputs,
        formula=point.stage.formula,
        shape=list(tensor.shape),
        norm=float(np.linalg.norm(row.astype(np.float64))),
        size=int(row.size),
        values=np.round(row[:VECTOR_VALUES].astype(np.float64), 4).tolist(),
        error=error[0],
        scale=error[1],
    )


def _norms(pass_: passes.Pass, layers: int, stage: str) -> np.ndarray:
    rows = [np.linalg.norm(pass_.stages[f"blocks.{i}.{stage}"].astype(np.float64), axis=-1) for i in range(layers)]
    return np.round(np.stack(rows), 4)


def build_result(lm: Any, pass_: passes.Pass, token: int, top_k: int, lens_logits: np.ndarray | None) -> ForwardResult:
    """The result for one chosen token, from the pass (and the lens logits at that token, when the model has a head)."""
    config, kind = lm.model.config, pass_.kind
    layers = config.num_hidden_layers
    heads = config.num_attention_heads
    table = points(lm.model, kind)
    paths = {module: path for path, module in lm.model.base_model.named_modules()}
    tops = {module: f"top:{path}" for path, module in lm.model.named_modules()}
    stages = [
        _vector(
            table[name],
            paths.get(table[name].module) or tops.get(table[name].module, ""),
            [input_name(table[name], i, layers, kind) for i in table[name].stage.inputs],
            tensor,
            token,
            pass_.errors[name],
        )
        for name, tensor in pass_.stages.items()
    ]
    top = logits = None
    readouts: list[Readout] = []
    if lens_logits is not None:
        final = pass_.stages["logits"][token]
        answer = int(np.argmax(final))
        readouts = lens.readouts(lens_logits, lm.tokenizer, top_k, answer)
        top = replace(lens.readouts(final[None, :], lm.tokenizer, top_k, answer)[0], layer=layers)
        logits = lens.compact(final, lm.tokenizer)
    return ForwardResult(
        model=lm.spec.key,
        model_id=lm.spec.hf_id,
        device=lm.device,
        block_kind=kind.key,
        block_label=kind.label,
        norm_position=kind.norm,
        causal=kind.causal,
        rope=kind.rope,
        layers=layers,
        heads=heads,
        kv_heads=int(getattr(config, "num_key_value_heads", None) or heads),
        d_model=config.hidden_size,
        d_head=pass_.stages["blocks.0.attn.q"].shape[-1] // heads,
        d_ff=pass_.stages["blocks.0.mlp.pre_act"].shape[-1],
        tokens=pass_.tokens,
        display=pass_.display,
        special=pass_.special,
        token_type_ids=pass_.segments,
        token=token,
        stages=stages,
        attention=np.round(np.stack([pass_.stages[f"blocks.{i}.attn.pattern"] for i in range(layers)]).astype(np.float64), 3),
        resid_norms=np.concatenate([_norms(pass_, 1, "resid_pre"), _norms(pass_, layers, "resid_post")]),
        attn_norms=_norms(pass_, layers, "attn.out"),
        mlp_norms=_norms(pass_, layers, "mlp.out"),
        lens=readouts,
        top=top,
        logits=logits,
        max_error=max(e / max(1.0, s) for e, s in pass_.errors.values()),
        logits_error=pass_.logits_error,
        seconds=pass_.seconds,
    )
