"""Polysemy result -> what the tab shows: the JSON payload, the bilingual reading, tables and export files."""

from __future__ import annotations

import csv
import io
import math
from typing import Any

import numpy as np

from playground.embeddings import PolysemyResult, separating_layer
from playground.figures.polysemy import layer_curve_figure, scatter_figure, similarity_figure
from playground.ui.common import export_file, export_json
from playground.ui.i18n import t


def _num(x: float) -> float | None:
    return None if x is None or math.isnan(x) else round(float(x), 6)


def payload(result: PolysemyResult) -> dict[str, Any]:
    """The API's answer: sentences, and per model the plotted layer's coordinates and similarities, scores at every layer."""
    return {
        "word": result.word,
        "pooling": result.pooling,
        "projection": result.projection,
        "dims": result.dims,
        "sentences": [
            {"index": i, "label": s.label, "text": s.text, "span": list(s.span) if s.span else None}
            for i, s in enumerate(result.targets)
        ],
        "models": [
            {
                "key": v.vectors.key,
                "model_id": v.vectors.model_id,
                "label": v.vectors.label,
                "source": v.vectors.source,
                "device": v.vectors.device,
                "layer": v.layer,
                "num_layers": len(v.separation) - 1,
                "rows": v.vectors.rows,
                "pieces": v.vectors.pieces,
                "coords": v.coords.round(5).tolist(),
                "similarity": v.similarity.round(5).tolist(),
                "separation": _num(v.separation[v.layer]),
                "nn_accuracy": _num(v.nn_accuracy[v.layer]),
                "separation_by_layer": [_num(x) for x in v.separation],
                "nn_accuracy_by_layer": [_num(x) for x in v.nn_accuracy],
                "note": v.vectors.note,
            }
            for v in result.views
        ],
    }


def reading(result: PolysemyResult, lang: str) -> str:
    """One line per model, in the user's language: where the senses separate, or why they cannot."""
    if all(math.isnan(v.nn_accuracy[-1]) for v in result.views):
        return t("polysemy.read_no_labels", lang)
    lines, causal = [], []
    for v in result.views:
        name = v.vectors.label
        if v.vectors.source != "contextual":
            lines.append(t("polysemy.read_static", lang, model=name))
            continue
        start = separating_layer(v.nn_accuracy)
        if start is None:
            best = int(max(range(len(v.nn_accuracy)), key=lambda k: -1 if math.isnan(v.nn_accuracy[k]) else v.nn_accuracy[k]))
            lines.append(t("polysemy.read_never", lang, model=name, acc=float(v.nn_accuracy[best]), layer=best))
        else:
            first = int(np.argmax(np.nan_to_num(v.nn_accuracy) >= 0.9))
            lines.append(
                t("polysemy.read_from", lang, model=name, layer=start)
                + (t("polysemy.read_first", lang, layer=first) if first < start else "")
            )
        if v.vectors.family_kind == "causal":  # the registry kind is data: left-to-right models
            causal.append(name)
    lines += [t("polysemy.read_causal", lang, model=", ".join(causal))] if causal else []
    return " ".join(lines)


def notes(result: PolysemyResult, lang: str) -> str:
    missing = [str(i + 1) for i, s in enumerate(result.targets) if s.span is None]
    out = [t("polysemy.missing", lang, rows=", ".join(missing))] if missing else []
    out += [t("polysemy.note", lang, model=v.vectors.label, note=v.vectors.note) for v in result.views if v.vectors.note]
    return "\n".join(f"- {line}" for line in out)


def provenance_md(result: PolysemyResult, lang: str) -> str:
    seen = dict.fromkeys((v.vectors.model_id, v.vectors.device) for v in result.views)
    return " · ".join(t("common.provenance", lang, model=m, device=d) for m, d in seen)


def score_rows(result: PolysemyResult) -> list[list[Any]]:
    return [
        [v.vectors.label, v.layer, _num(v.separation[v.layer]), _num(v.nn_accuracy[v.layer]), len(v.vectors.rows)]
        for v in result.views
    ]


def score_headers(lang: str) -> list[str]:
    return [t(f"polysemy.col_{c}", lang) for c in ("model", "layer", "separation", "accuracy", "sentences")]


def figures(result: PolysemyResult, lang: str):
    return (
        scatter_figure(result, no_label=t("polysemy.no_label", lang), title=t("polysemy.scatter_title", lang)),
        similarity_figure(result, title=t("polysemy.heatmap_title", lang)),
        layer_curve_figure(
            result,
            separation=t("polysemy.axis_separation", lang),
            accuracy=t("polysemy.axis_accuracy", lang),
            layer=t("polysemy.axis_layer", lang),
            title=t("polysemy.curve_title", lang),
        ),
    )


def _csv(rows: list[list[Any]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    return buffer.getvalue()


def exports(result: PolysemyResult, figs, data: dict[str, Any]) -> list[str]:
    """Vectors (plotted layer, with coordinates) and all-layer scores as CSV, the figures as one HTML page, the JSON."""
    vectors = [["model", "layer", "sentence", "label", "text", "pieces", *"xyz"[: result.dims], "vector"]]
    scores = [["model", "layer", "separation", "nn_accuracy"]]
    for v in result.views:
        layer = v.vectors.layers[v.layer]
        for k, i in enumerate(v.vectors.rows):
            s = result.targets[i]
            vectors.append(
                [
                    v.vectors.key,
                    v.layer,
                    i + 1,
                    s.label,
                    s.text,
                    " ".join(v.vectors.pieces[k]),
                    *v.coords[k].round(5),
                    " ".join(f"{x:.5g}" for x in layer[k]),
                ]
            )
        scores += [[v.vectors.key, n, _num(a), _num(b)] for n, (a, b) in enumerate(zip(v.separation, v.nn_accuracy))]
    page = "".join(f.to_html(include_plotlyjs=n == 0, full_html=False) for n, f in enumerate(figs))
    stem = f"polysemy-{''.join(c for c in result.word if c.isalnum()) or 'word'}"
    return [
        export_file(f"{stem}-vectors.csv", _csv(vectors)),
        export_file(f"{stem}-scores.csv", _csv(scores)),
        export_file(f"{stem}-figures.html", f"<!doctype html><meta charset='utf-8'>{page}"),
        export_json(f"{stem}.json", data),
    ]
