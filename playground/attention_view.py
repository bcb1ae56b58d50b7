"""Everything one view of the Attention tab shows, computed in the backend from the cached maps.

`run_attention_view(AttentionViewRequest, load)` clamps the sliders, picks the matrix the view is
about, and for the step-by-step, positional and comparison views computes their numbers; the UI's
renderer only turns the result into figures and text. Views are rows of a table, not an if-ladder.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from playground import attention as att
from playground import models
from playground.attention_math import LayerCapture, StepResult, capture_layer, step_by_step
from playground.errors import InputError
from playground.positional import learned_position_similarity, sinusoidal_encoding


@dataclass(frozen=True)
class AttentionViewRequest:
    model: str
    text: str
    text_b: str = ""
    view: str = "head"
    layer: int = 0
    head: int = 0
    query: int = -1  # -1 = no query picked (the step view then takes the last token)
    row_start: int = 0
    other: str = ""  # the second model of the comparison view


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
    request: AttentionViewRequest
    lm: Any
    result: att.AttentionResult
    layer: int
    head: int
    query: int
    load: Callable
    gpu: Callable
    session: models.SessionModels


def _capture(ctx: _Ctx) -> LayerCapture:
    text = att.AttentionText(ctx.request.text or "", ctx.request.text_b or "")
    if ctx.request.model in ctx.session:  # a session's own model: computed for this call, never shared
        return ctx.gpu(capture_layer)(ctx.lm, text, ctx.layer)
    key = (ctx.lm.spec.key, text, ctx.layer)
    return att.cache("captures").get(key, lambda: ctx.gpu(capture_layer)(ctx.lm, text, ctx.layer))


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
        lm, result = att.attention_maps(key, ctx.request.text, "", ctx.load, ctx.gpu, ctx.session)
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


def run_attention_view(
    request: AttentionViewRequest,
    load: Callable = models.load,
    gpu: Callable = att.same_call,
    session: models.SessionModels | None = None,
) -> AttentionView:
    """One view: only the model calls are cached (maps, captures); the rest is cheap arithmetic on them.

    `session`: the caller's own models by key (its MLM lab model), used past the allow-list and never cached."""
    session = session or {}
    lm, result = att.attention_maps(request.model, request.text, request.text_b, load, gpu, session)
    layers, heads, length = result.shape
    layer, head = att.clamp(request.layer, 0, layers - 1), att.clamp(request.head, 0, heads - 1)
    query, row_start = att.clamp(request.query, -1, length - 1), att.clamp(request.row_start, 0, max(0, length - 1))
    view = request.view if request.view in VIEW_PARTS else "head"
    ctx = _Ctx(request, lm, result, layer, head, query, load, gpu, session)
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
