"""The Attention tab's server side: cached extraction (one forward per model and text), each view
rendered from the cache, the JSON the `attention` API returns, and the exports.
"""

from __future__ import annotations

import csv
import io
import os
from dataclasses import replace
from typing import Any

import gradio as gr
import numpy as np

from playground import attention as att
from playground.attention_math import capture_layer, step_by_step
from playground.figures import attention as figs
from playground.positional import learned_position_similarity, sinusoidal_encoding
from playground.ui.common import friendly_errors, load_model, on_gpu, provenance
from playground.ui.i18n import t

VIEWS = ["head", "layer", "overview", "tokens", "mean", "rollout", "special", "entropy", "compare", "step", "positional"]
FLOAT16_ABOVE = 64 * 2**20  # maps bigger than this are kept as float16 (a 512-token SmolLM2 input: 141 MB)
API_CELLS = 40_000  # cells per T x T matrix in one API response, so the JSON stays under 1 MB


@on_gpu
def _extract(lm: Any, request: att.AttentionRequest) -> att.AttentionResult:
    (result,) = att.extract_attention(lm, [request])
    return (
        replace(result, attentions=result.attentions.astype(np.float16)) if result.attentions.nbytes > FLOAT16_ABOVE else result
    )


@on_gpu
def _capture(lm: Any, request: att.AttentionRequest, layer: int) -> Any:
    return capture_layer(lm, request, layer)


class AttentionService:
    """Bounded caches shared by all sessions: the class on one sentence costs one forward pass."""

    def __init__(self, capacity: int | None = None):
        capacity = capacity or int(os.environ.get("PLAYGROUND_ATTENTION_CACHE", "4"))
        self.maps = att.AttentionCache(capacity)
        self.captures = att.AttentionCache(4 * capacity)

    def result(self, key: str, text: str, text_b: str, lang: str, progress: Any = None) -> tuple[Any, att.AttentionResult]:
        lm = load_model(key, lang, progress)
        request = att.AttentionRequest(text or "", text_b or "")
        with friendly_errors(lang):
            return lm, self.maps.get((key, request), lambda: _extract(lm, request))

    def capture(self, lm: Any, text: str, text_b: str, layer: int, lang: str) -> Any:
        request = att.AttentionRequest(text or "", text_b or "")
        with friendly_errors(lang):
            return self.captures.get((lm.spec.key, request, layer), lambda: _capture(lm, request, layer))


def _clamp(value: Any, low: int, high: int) -> int:
    try:
        return min(max(int(value), low), high)
    except (TypeError, ValueError):
        return low


def info_markdown(lm: Any, result: att.AttentionResult, lang: str, extra: list[str]) -> str:
    layers, heads, length = result.shape
    direction = t("attention.causal" if result.causal else "attention.bidirectional", lang)
    lines = [
        t("attention.info", lang, provenance=provenance(lm, lang), n=length, layers=layers, heads=heads, direction=direction)
    ]
    if any(result.token_type_ids):
        b = sum(result.token_type_ids)
        lines.append(t("attention.segments", lang, a=length - b, b=b))
    return "\n\n".join(lines + extra)


def step_markdown(step: Any, lang: str, dims: int = 6) -> str:
    """The numbers of the formula for one query: q, and per key its score, weight, k and v (truncated)."""
    fmt = lambda v: ", ".join(f"{x:+.3f}" for x in v[:dims]) + (", …" if len(v) > dims else "")  # noqa: E731
    d = step.q.shape[0]
    rows = [
        t("attention.step.q", lang, n=min(dims, d), d=d, values=fmt(step.q)),
        "",
        t("attention.step.table", lang),
        "|---|---|---|---|---|",
    ]
    for j, token in enumerate(step.tokens):
        score = "−∞" if not np.isfinite(step.scores[j]) else f"{step.scores[j]:+.3f}"
        rows.append(f"| {j}·`{token}` | {score} | {step.weights[j]:.4f} | `{fmt(step.keys[j])}` | `{fmt(step.values[j])}` |")
    summary = t(
        "attention.step.summary",
        lang,
        head=step.head,
        kv_head=step.kv_head,
        d=d,
        scale=step.scale,
        rope=t("attention.step.rope", lang) if step.rope else "",
        causal=t("attention.step.causal", lang) if step.causal else "",
        error=step.max_error,
        output=fmt(step.output),
    )
    return summary + "\n\n" + "\n".join(rows)


def render(
    service: AttentionService,
    model: str,
    text: str,
    text_b: str,
    view: str,
    layer: Any,
    head: Any,
    query: Any,
    row_start: Any,
    other: str,
    lang: str,
    progress: Any = None,
) -> dict[str, Any]:
    """Everything the tab shows for one view; only the model call is cached, figures are rebuilt (cheap)."""
    lm, result = service.result(model, text, text_b, lang, progress)
    layers, heads, length = result.shape
    layer, head = _clamp(layer, 0, layers - 1), _clamp(head, 0, heads - 1)
    query, row_start = _clamp(query, -1, length - 1), _clamp(row_start, 0, max(0, length - 1))
    types = result.token_type_ids if any(result.token_type_ids) else None
    out: dict[str, Any] = {"plot": None, "plot2": None, "image": None, "step": "", "extra": [], "matrix": None}
    axes = dict(x_title=t("attention.axis.key", lang), y_title=t("attention.axis.query", lang))
    view = view if view in VIEWS else "head"
    if view in ("head", "tokens", "step"):
        out["matrix"] = att.head_map(result, layer, head)
    if view == "head":
        out["plot"] = figs.heatmap_figure(
            result.tokens, out["matrix"], t("attention.title.head", lang, layer=layer, head=head), row_start, types, **axes
        )
        if length > figs.MAX_ROWS:
            stop = min(length, row_start + figs.MAX_ROWS) - 1
            out["extra"].append(t("attention.rows_note", lang, start=row_start, stop=stop, n=length))
    elif view == "layer":
        out["plot"] = figs.layer_heads_figure(
            result.tokens,
            result.attentions[layer],
            t("attention.title.layer", lang, layer=layer),
            t("attention.head_n", lang, head="{head}"),
        )
    elif view == "overview":
        out["image"] = figs.overview_image(result.attentions)
        out["extra"].append(t("attention.overview_help", lang))
    elif view == "tokens":
        out["plot"] = figs.token_view_figure(
            result.tokens, out["matrix"], t("attention.title.tokens", lang, layer=layer, head=head), None if query < 0 else query
        )
    elif view == "mean":
        out["matrix"] = result.attentions[layer].astype(np.float32).mean(axis=0)
        out["plot"] = figs.heatmap_figure(
            result.tokens, out["matrix"], t("attention.title.mean", lang, layer=layer), row_start, types, **axes
        )
    elif view == "rollout":
        out["matrix"] = att.rollout(result.attentions)
        out["plot"] = figs.heatmap_figure(
            result.tokens, out["matrix"], t("attention.title.rollout", lang), row_start, types, **axes
        )
    elif view in ("special", "entropy"):
        summary = att.summarize(result, layer)
        out["plot"] = (
            figs.share_figure(
                summary.first_share,
                summary.special_share,
                t("attention.title.special", lang),
                t("attention.first_token", lang, token=result.tokens[0]),
                t("attention.other_special", lang),
                t("attention.axis.layer", lang),
                t("attention.axis.share", lang),
            )
            if view == "special"
            else figs.entropy_figure(
                summary.entropy,
                t("attention.title.entropy", lang),
                t("attention.axis.head", lang),
                t("attention.axis.layer", lang),
            )
        )
    elif view == "compare":
        panels = []
        for key in dict.fromkeys([model, other or model]):
            lm_i, res_i = service.result(key, text, "", lang, progress)
            li, hi = min(layer, res_i.shape[0] - 1), min(head, res_i.shape[1] - 1)
            panels.append((f"{lm_i.spec.label} · L{li} H{hi}", res_i.tokens, att.head_map(res_i, li, hi)))
        out["plot"] = figs.compare_figure(panels, t("attention.title.compare", lang, layer=layer, head=head))
    elif view == "step":
        step = step_by_step(service.capture(lm, text, text_b, layer, lang), head, length - 1 if query < 0 else query)
        out["plot"] = figs.step_figure(
            result.tokens,
            step.scores,
            step.weights,
            step.model_weights,
            t("attention.title.step", lang, layer=layer, head=head, token=result.tokens[step.query]),
            (t("attention.step.scores", lang), t("attention.step.softmax", lang), t("attention.step.model", lang)),
        )
        out["step"] = step_markdown(step, lang)
    elif view == "positional":
        d = int(getattr(lm.model.config, "hidden_size", 64) or 64)
        n = min(att.MAX_TOKENS, max(64, length))
        pos_axes = (t("attention.axis.dimension", lang), t("attention.axis.position", lang))
        out["plot"] = figs.positional_figure(sinusoidal_encoding(n, d), t("attention.title.sinusoid", lang, d=d), *pos_axes)
        try:
            sim = learned_position_similarity(lm, n)
            out["plot2"] = figs.similarity_figure(
                sim.similarity, t("attention.title.learned", lang, model=lm.spec.label), pos_axes[1]
            )
        except att.InputError:
            out["extra"].append(t("attention.no_learned", lang, model=lm.spec.label))
    out["info"] = info_markdown(lm, result, lang, out["extra"])
    out.update(lm=lm, result=result, layer=layer, head=head)
    return out


def api_payload(lm: Any, result: att.AttentionResult, layer: int, head: int, row_start: int = 0) -> dict[str, Any]:
    """JSON for one head plus the summaries; T x T matrices come in row windows that keep it under 1 MB."""
    layers, heads, length = result.shape
    matrix = att.head_map(result, layer, head)
    summary = att.summarize(result, layer)
    rows = max(1, min(length, API_CELLS // length))
    start = _clamp(row_start, 0, length - 1)
    stop = min(length, start + rows)
    window = lambda m: np.round(m[start:stop].astype(np.float64), 4).tolist()  # noqa: E731
    return {
        "model": lm.spec.key,
        "model_id": lm.spec.hf_id,
        "device": lm.device,
        "tokens": result.tokens,
        "token_type_ids": result.token_type_ids,
        "special": result.special,
        "causal": result.causal,
        "layers": layers,
        "heads": heads,
        "layer": layer,
        "head": head,
        "row_start": start,
        "row_stop": stop,
        "matrix": window(matrix),
        "mean_over_heads": window(summary.mean_over_heads),
        "rollout": window(summary.rollout),
        "first_token_share": np.round(summary.first_share, 4).tolist(),
        "special_share": np.round(summary.special_share, 4).tolist(),
        "head_entropy_bits": np.round(summary.entropy, 3).tolist(),
    }


def matrix_csv(tokens: list[str], matrix: np.ndarray) -> str:
    """A T x T matrix with token labels on the first row and column (spreadsheet-ready)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    labels = figs.token_labels(tokens)
    writer.writerow(["query \\ key"] + labels)
    for label, row in zip(labels, np.asarray(matrix, dtype=np.float64)):
        writer.writerow([label] + [f"{x:.6g}" for x in row])
    return buffer.getvalue()


def select_thumbnail(service: AttentionService, evt: gr.SelectData, model: str, text: str, text_b: str, lang: str) -> tuple:
    """A click on the overview image -> that layer and head, opened as one head."""
    _, result = service.result(model, text, text_b, lang)
    x, y = (evt.index if isinstance(evt.index, (list, tuple)) else (0, 0))[:2]
    cell = figs.overview_cell(int(x), int(y), result.shape[0], result.shape[1])
    if cell is None:
        return gr.update(), gr.update(), gr.update()
    return cell[0], cell[1], "head"
