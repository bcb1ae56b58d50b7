"""PolysemyRun -> what the tab shows, in the user's language: the reading, notes, tables, figures and download files."""

from __future__ import annotations

import csv
import io
import math
from typing import Any

import numpy as np

from playground.embeddings import PolysemyRun, separating_layer
from playground.figures.polysemy import layer_curve_figure, scatter_figure, similarity_figure
from playground.serialize import jsonable
from playground.ui.common import export_file, export_json
from playground.ui.i18n import t


def _num(x: float) -> float | None:
    return None if x is None or math.isnan(x) else round(float(x), 6)


def reading(result: PolysemyRun, lang: str) -> str:
    """One line per model, in the user's language: where the senses separate, or why they cannot."""
    if all(math.isnan(v.nn_accuracy_by_layer[-1]) for v in result.models):
        return t("polysemy.read_no_labels", lang)
    lines, causal = [], []
    for v in result.models:
        acc = v.nn_accuracy_by_layer
        if v.source != "contextual":
            lines.append(t("polysemy.read_static", lang, model=v.label))
            continue
        start = separating_layer(acc)
        if start is None:
            best = int(max(range(len(acc)), key=lambda k: -1 if math.isnan(acc[k]) else acc[k]))
            lines.append(t("polysemy.read_never", lang, model=v.label, acc=float(acc[best]), layer=best))
        else:
            first = int(np.argmax(np.nan_to_num(acc) >= 0.9))
            lines.append(
                t("polysemy.read_from", lang, model=v.label, layer=start)
                + (t("polysemy.read_first", lang, layer=first) if first < start else "")
            )
        if v.family_kind == "causal":  # the registry kind is data: left-to-right models
            causal.append(v.label)
    lines += [t("polysemy.read_causal", lang, model=", ".join(causal))] if causal else []
    return " ".join(lines)


def notes(result: PolysemyRun, lang: str) -> str:
    missing = [str(s.index + 1) for s in result.sentences if s.span is None]
    out = [t("polysemy.missing", lang, rows=", ".join(missing))] if missing else []
    out += [
        t("polysemy.note", lang, model=v.label, note=t(f"polysemy.note.{n.code}", lang, model=v.label, **n.params))
        for v in result.models
        for n in v.notes
    ]
    return "\n".join(f"- {line}" for line in out)


def provenance_md(result: PolysemyRun, lang: str) -> str:
    seen = dict.fromkeys((v.model_id, v.device) for v in result.models)
    return " · ".join(t("common.provenance", lang, model=m, device=d) for m, d in seen)


def score_rows(result: PolysemyRun) -> list[list[Any]]:
    return [[v.label, v.layer, _num(v.separation), _num(v.nn_accuracy), len(v.rows)] for v in result.models]


def score_headers(lang: str) -> list[str]:
    return [t(f"polysemy.col_{c}", lang) for c in ("model", "layer", "separation", "accuracy", "sentences")]


def deepest_layer(result: PolysemyRun) -> int:
    """The chosen models' deepest layer: what the layer menu offers after a run."""
    return max(v.num_layers for v in result.models)


def figures(result: PolysemyRun, lang: str):
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


def exports(result: PolysemyRun | None, lang: str = "en") -> list[str]:
    """Built on click: vectors (plotted layer, with coordinates) and all-layer scores as CSV, the figures as one HTML page,
    the JSON the API returns. Nothing before a run."""
    if result is None:
        return []
    vectors = [["model", "layer", "sentence", "label", "text", "pieces", *"xyz"[: result.dims], "vector"]]
    scores = [["model", "layer", "separation", "nn_accuracy"]]
    for v in result.models:
        for k, i in enumerate(v.rows):
            s = result.sentences[i]
            vectors.append(
                [
                    v.key,
                    v.layer,
                    i + 1,
                    s.label,
                    s.text,
                    " ".join(v.pieces[k]),
                    *v.coords[k].round(5),
                    " ".join(f"{x:.5g}" for x in v.vectors[k]),
                ]
            )
        scores += [[v.key, n, _num(a), _num(b)] for n, (a, b) in enumerate(zip(v.separation_by_layer, v.nn_accuracy_by_layer))]
    figs = figures(result, lang)
    page = "".join(f.to_html(include_plotlyjs=n == 0, full_html=False) for n, f in enumerate(figs))
    stem = f"polysemy-{''.join(c for c in result.word if c.isalnum()) or 'word'}"
    return [
        export_file(f"{stem}-vectors.csv", _csv(vectors)),
        export_file(f"{stem}-scores.csv", _csv(scores)),
        export_file(f"{stem}-figures.html", f"<!doctype html><meta charset='utf-8'>{page}"),
        export_json(f"{stem}.json", jsonable(result)),
    ]
