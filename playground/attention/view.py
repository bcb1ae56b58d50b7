"""The attention demo's one entry: everything one view shows, computed in the backend from the cached maps.

`run_attention(AttentionRequest, runtime)` checks the indices (or, for the page, fits them to the model), picks the
matrix the view is about, and for the step-by-step, positional and comparison views computes their numbers; the
UI's renderer only turns the result into figures and text, and the API returns `attention_json` of it. Views are
rows of a table, not an if-ladder. The step-by-step view captures Q, K, V of every layer in one forward pass,
cached per text: moving between layers, heads or query tokens runs no model.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable

import numpy as np

from playground.attention import maps as att
from playground import checks
from playground.attention.qkv import LayerCapture, StepResult, capture_layers, step_by_step
from playground.errors import InputError
from playground.attention.positional import learned_position_similarity, sinusoidal_encoding
from playground.runtime import Runtime


@dataclass(frozen=True, eq=False)
class ComparePanel:
    label: str  # the model's label
    layer: int  # clamped to that model's depth
    head: int
    tokens: list[str]  # labels as the figures show them (byte pieces completed, unknown tokens marked)
    matrix: np.ndarray  # (T, T)


@dataclass(frozen=True, eq=False)
class PositionalView:
    d: int  # the model's hidden size, used for the sinusoids
    sinusoid: np.ndarray  # (n, d)
    learned: np.ndarray | None  # (n, n) cosine similarity of learned positions; None when the model has none


@dataclass(frozen=True, eq=False)
class AttentionView:
    model: str
    model_id: str
    model_label: str
    device: str
    view: str
    maps: att.AttentionResult
    layer: int
    head: int
    query: int
    row_start: int
    matrix: np.ndarray  # the T x T this view is about (the head's map where the view has no matrix of its own)
    summary: att.AttentionSummary | None = None  # special, entropy
    step: StepResult | None = None
    compare: tuple[ComparePanel, ...] = ()
    positional: PositionalView | None = None


@dataclass(frozen=True)
class _Ctx:
    request: att.AttentionRequest
    lm: Any
    result: att.AttentionResult
    layer: int
    head: int
    query: int
    runtime: Runtime


def _capture(ctx: _Ctx) -> LayerCapture:
    """The step-by-step numbers of the chosen layer: ONE forward pass captures every layer, cached per text, so
    another layer, head or query is arithmetic on the kept capture."""
    text = att.AttentionText(ctx.request.text or "", ctx.request.text_b or "")
    key, model = (ctx.lm.spec.key, text), ctx.request.model
    return att.cached(ctx.runtime, "captures", key, lambda: capture_layers(ctx.lm, text), model)[ctx.layer]


def _head(ctx: _Ctx) -> dict:
    return {}


def _mean(ctx: _Ctx) -> dict:
    return {"matrix": ctx.result.attentions[ctx.layer].astype(np.float32).mean(axis=0)}


def _rollout(ctx: _Ctx) -> dict:
    return {"matrix": att.rollout(ctx.result.attentions)}


def _summary(ctx: _Ctx) -> dict:
    return {"summary": att.summarize(ctx.result, ctx.layer)}


def _compare(ctx: _Ctx) -> dict:
    panels = []
    for key in dict.fromkeys([ctx.request.model, ctx.request.other or ctx.request.model]):
        lm, result = att.attention_maps(key, ctx.request.text, "", ctx.runtime)
        layer, head = min(ctx.layer, result.shape[0] - 1), min(ctx.head, result.shape[1] - 1)
        panels.append(ComparePanel(lm.spec.label, layer, head, result.labels, att.head_map(result, layer, head)))
    return {"compare": tuple(panels)}


def _step(ctx: _Ctx) -> dict:
    query = ctx.result.shape[2] - 1 if ctx.query < 0 else ctx.query
    return {"step": step_by_step(_capture(ctx), ctx.head, query)}


def _positional(ctx: _Ctx) -> dict:
    d = int(getattr(ctx.lm.model.config, "hidden_size", 64) or 64)
    n = min(att.MAX_TOKENS, max(64, ctx.result.shape[2]))
    try:
        learned = learned_position_similarity(ctx.lm, n).similarity
    except InputError:  # rotary models keep no position table: the renderer says so
        learned = None
    return {"positional": PositionalView(d, sinusoidal_encoding(n, d), learned)}


# view -> what it computes beyond the maps (the order is the order of the tab's radio)
VIEW_PARTS: dict[str, Callable[[_Ctx], dict]] = {
    "head": _head,
    "layer": _head,
    "overview": _head,
    "tokens": _head,
    "mean": _mean,
    "rollout": _rollout,
    "special": _summary,
    "entropy": _summary,
    "compare": _compare,
    "step": _step,
    "positional": _positional,
}
VIEWS = list(VIEW_PARTS)


def _indices(request: att.AttentionRequest, result: att.AttentionResult) -> tuple[int, int, int, int]:
    """(layer, head, query, row_start): fitted to the model for the page, checked against it for the API."""
    layers, heads, length = result.shape
    if request.fit:
        return (
            att.clamp(request.layer, 0, layers - 1),
            att.clamp(request.head, 0, heads - 1),
            att.clamp(request.query, -1, length - 1),
            att.clamp(request.row_start, 0, max(0, length - 1)),
        )
    layer, head, query, row_start = request.layer, request.head, request.query, request.row_start
    if not (layer < layers and head < heads):
        raise InputError("attention_bad_head", "Layer must be 0-{layers} and head 0-{heads}.", layers=layers - 1, heads=heads - 1)
    if row_start >= length:
        raise InputError("attention_row_range", "row_start must be below the number of tokens ({n}).", n=length)
    return layer, head, min(query, length - 1), row_start


def _checked(request: att.AttentionRequest) -> att.AttentionRequest:
    """The API's request with whole-number indices in their widest ranges (before anything loads); the page's as is."""
    if request.fit:
        return request
    return replace(
        request,
        layer=checks.whole(request.layer, "layer", 0, att.MAX_LAYERS - 1),
        head=checks.whole(request.head, "head", 0, att.MAX_HEADS - 1),
        row_start=checks.whole(request.row_start, "row_start", 0, att.MAX_TOKENS - 1),
        query=checks.whole(request.query, "query", -1, att.MAX_TOKENS - 1),
        view=checks.choice(request.view, "view", VIEW_PARTS),
    )


def run_attention(request: att.AttentionRequest, runtime: Runtime) -> AttentionView:
    """One view: only the model calls are cached in the runtime (maps, captures); the rest is cheap arithmetic.

    `runtime.session`: the caller's own models by key (its MLM lab model), used past the allow-list, never cached."""
    request = _checked(request)
    lm, result = att.attention_maps(request.model, request.text, request.text_b, runtime)
    layer, head, query, row_start = _indices(request, result)
    view = request.view if request.view in VIEW_PARTS else "head"
    ctx = _Ctx(request, lm, result, layer, head, query, runtime)
    parts = {"matrix": att.head_map(result, layer, head), **VIEW_PARTS[view](ctx)}
    return AttentionView(
        model=lm.spec.key,
        model_id=lm.spec.hf_id,
        model_label=lm.spec.label,
        device=lm.device,
        view=view,
        maps=result,
        layer=layer,
        head=head,
        query=query,
        row_start=row_start,
        **parts,
    )
