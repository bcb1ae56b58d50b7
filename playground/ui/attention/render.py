"""The Attention tab's renderer: an `AttentionView` (backend) -> figures, image and text in the user's language."""

from __future__ import annotations

import csv
import html
import io
from typing import Any

import numpy as np

from playground.attention.view import AttentionView
from playground.figures import attention as figs
from playground.ui.common.widgets import escape_md, label_in, provenance
from playground.ui.common.i18n import t


def plot_labels(tokens: list[str]) -> list[str]:
    """Token labels made inert for Plotly, which renders some HTML in labels and titles (`<s>` would strike through)."""
    return [html.escape(token, quote=False) for token in tokens]


def unknown_note(view: AttentionView, lang: str) -> str:
    """A prominent warning when the tokenizer replaced part of the text by its unknown token ("" when it did not)."""
    texts = view.maps.unknown_texts
    if not texts:
        return ""
    shown = "、".join(dict.fromkeys(texts)) if lang == "zh" else ", ".join(dict.fromkeys(texts))
    unk = next(t for t, u in zip(view.maps.tokens, view.maps.unknown) if u)
    model = escape_md(label_in(view.model_label, lang))
    return t("attention.unknown", lang, model=model, n=len(texts), texts=escape_md(shown), unk=escape_md(unk))


def info_markdown(view: AttentionView, lang: str, extra: list[str]) -> str:
    result = view.maps
    layers, heads, length = result.shape
    direction = t("attention.causal" if result.causal else "attention.bidirectional", lang)
    source = provenance(view.model_id, view.device, lang)
    lines = [t("attention.info", lang, provenance=source, n=length, layers=layers, heads=heads, direction=direction)]
    if any(result.token_type_ids):
        b = sum(result.token_type_ids)
        lines.append(t("attention.segments", lang, a=length - b, b=b))
    note = unknown_note(view, lang)
    return "\n\n".join(([note] if note else []) + lines + extra)


def step_markdown(step: Any, lang: str, dims: int = 6, labels: list[str] | None = None) -> str:
    """The numbers of the formula for one query: q, and per key its score, weight, k and v (truncated)."""
    fmt = lambda v: ", ".join(f"{x:+.3f}" for x in v[:dims]) + (", …" if len(v) > dims else "")  # noqa: E731
    d = step.q.shape[0]
    rows = [
        t("attention.step.q", lang, n=min(dims, d), d=d, values=fmt(step.q)),
        "",
        t("attention.step.table", lang),
        "|---|---|---|---|---|",
    ]
    labels = labels if labels is not None and len(labels) == len(step.tokens) else step.tokens
    for j, token in enumerate(labels):
        token = escape_md(token).replace("`", "ˋ")
        score = "−∞" if not np.isfinite(step.scores[j]) else f"{step.scores[j]:+.3f}"
        rows.append(f"| {j}·{token} | {score} | {step.weights[j]:.4f} | `{fmt(step.keys[j])}` | `{fmt(step.values[j])}` |")
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


def _heatmap(title_key: str):
    def draw(v: AttentionView, lang: str, out: dict) -> None:
        types = v.maps.token_type_ids if any(v.maps.token_type_ids) else None
        axes = dict(x_title=t("attention.axis.key", lang), y_title=t("attention.axis.query", lang))
        title = t(title_key, lang, layer=v.layer, head=v.head)
        out["plot"] = figs.heatmap_figure(plot_labels(v.maps.labels), v.matrix, title, v.row_start, types, **axes)

    return draw


def _head(v: AttentionView, lang: str, out: dict) -> None:
    _heatmap("attention.title.head")(v, lang, out)
    length = v.maps.shape[2]
    if length > figs.MAX_ROWS:
        stop = min(length, v.row_start + figs.MAX_ROWS) - 1
        out["extra"].append(t("attention.rows_note", lang, start=v.row_start, stop=stop, n=length))


def _layer(v: AttentionView, lang: str, out: dict) -> None:
    out["plot"] = figs.layer_heads_figure(
        plot_labels(v.maps.labels),
        v.maps.attentions[v.layer],
        t("attention.title.layer", lang, layer=v.layer),
        t("attention.head_n", lang, head="{head}"),
    )


def _overview(v: AttentionView, lang: str, out: dict) -> None:
    out["image"] = figs.overview_image(v.maps.attentions)
    out["extra"].append(t("attention.overview_help", lang))


def _tokens(v: AttentionView, lang: str, out: dict) -> None:
    title = t("attention.title.tokens", lang, layer=v.layer, head=v.head)
    # every head of the layer (the legend adds and removes heads), at the 4 decimals the page's redraw gets: the
    # browser then draws another layer exactly as the server would (same numbers, same bands)
    maps = np.round(v.maps.attentions[v.layer].astype(np.float64), 4)
    query = None if v.query < 0 else v.query
    out["plot"] = figs.token_view_figure(
        plot_labels(v.maps.labels), maps, v.head, title, query, t("attention.head_n", lang, head="{head}")
    )


def _special(v: AttentionView, lang: str, out: dict) -> None:
    out["plot"] = figs.share_figure(
        v.summary.first_share,
        v.summary.special_share,
        t("attention.title.special", lang),
        t("attention.first_token", lang, token=plot_labels(v.maps.labels)[0]),
        html.escape(t("attention.other_special", lang), quote=False),
        t("attention.axis.layer", lang),
        t("attention.axis.share", lang),
    )


def _entropy(v: AttentionView, lang: str, out: dict) -> None:
    out["plot"] = figs.entropy_figure(
        v.summary.entropy, t("attention.title.entropy", lang), t("attention.axis.head", lang), t("attention.axis.layer", lang)
    )


def _compare(v: AttentionView, lang: str, out: dict) -> None:
    panels = [
        (f"{html.escape(label_in(p.label, lang))} · L{p.layer} H{p.head}", plot_labels(p.tokens), p.matrix) for p in v.compare
    ]
    out["plot"] = figs.compare_figure(panels, t("attention.title.compare", lang, layer=v.layer, head=v.head))


def _step(v: AttentionView, lang: str, out: dict) -> None:
    step = v.step
    out["plot"] = figs.step_figure(
        plot_labels(v.maps.labels),
        step.scores,
        step.weights,
        step.model_weights,
        t("attention.title.step", lang, layer=v.layer, head=v.head, token=plot_labels(v.maps.labels)[step.query]),
        (t("attention.step.scores", lang), t("attention.step.softmax", lang), t("attention.step.model", lang)),
    )
    out["step"] = step_markdown(step, lang, labels=v.maps.labels)


def _positional(v: AttentionView, lang: str, out: dict) -> None:
    pos, model = v.positional, label_in(v.model_label, lang)
    axes = (t("attention.axis.dimension", lang), t("attention.axis.position", lang))
    out["plot"] = figs.positional_figure(pos.sinusoid, t("attention.title.sinusoid", lang, d=pos.d), *axes)
    if pos.learned is None:
        out["extra"].append(t("attention.no_learned", lang, model=model))
    else:
        out["plot2"] = figs.similarity_figure(pos.learned, t("attention.title.learned", lang, model=model), axes[1])


# view -> how it is drawn (one row per view of `attention_view.VIEW_PARTS`)
DRAW = {
    "head": _head,
    "layer": _layer,
    "overview": _overview,
    "tokens": _tokens,
    "mean": _heatmap("attention.title.mean"),
    "rollout": _heatmap("attention.title.rollout"),
    "special": _special,
    "entropy": _entropy,
    "compare": _compare,
    "step": _step,
    "positional": _positional,
}


# Views the browser redraws for another layer, head or query from every map sent with the figure
# (assets/attention_redraw.js), each with its title's text key; the others ask the server.
BROWSER_VIEWS = {
    "head": "attention.title.head",
    "layer": "attention.title.layer",
    "mean": "attention.title.mean",
    "tokens": "attention.title.tokens",
}
# Every layer's and head's map goes with the figure while they stay small (SmolLM2, 30 x 9 heads, up to ~30 tokens;
# MiniLM, 6 x 12, up to 48): a few hundred kB of JSON, once per run, instead of one request per slider step.
BROWSER_CELLS = 250_000


def browser_data(view: AttentionView, lang: str) -> dict[str, Any] | None:
    """What the page needs to redraw this view for any layer, head and query without the server (None: too big)."""
    layers, heads, length = view.maps.shape
    if view.view not in BROWSER_VIEWS or length > figs.THUMB_CELLS or layers * heads * length**2 > BROWSER_CELLS:
        return None
    maps = [[np.round(view.maps.attentions[i][h].astype(np.float64), 4).tolist() for h in range(heads)] for i in range(layers)]
    title = t(BROWSER_VIEWS[view.view], lang, layer="{layer}", head="{head}", token="{token}")
    shown = {"layer": view.layer, "head": view.head, "query": None if view.query < 0 else view.query}
    return {"view": view.view, "maps": maps, "title": title, **shown}


def render(view: AttentionView, lang: str) -> dict[str, Any]:
    """plot, plot2, image, step markdown and info markdown for one view (figures are cheap: rebuilt each time)."""
    out: dict[str, Any] = {"plot": None, "plot2": None, "image": None, "step": "", "extra": []}
    DRAW[view.view](view, lang, out)
    out["info"] = info_markdown(view, lang, out["extra"])
    data = browser_data(view, lang) if out["plot"] is not None else None
    if data is not None:
        out["plot"].update_layout(meta={"tp": data})  # Plotly keeps `meta` as inert data: the redraw reads it
    return out


def matrix_csv(tokens: list[str], matrix: np.ndarray) -> str:
    """A T x T matrix with token labels on the first row and column (spreadsheet-ready)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    labels = figs.token_labels(tokens)
    writer.writerow(["query \\ key"] + labels)
    for label, row in zip(labels, np.asarray(matrix, dtype=np.float64)):
        writer.writerow([label] + [f"{x:.6g}" for x in row])
    return buffer.getvalue()
