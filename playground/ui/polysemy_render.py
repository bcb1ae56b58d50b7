"""PolysemyRun -> what the tab shows, in the user's language: the reading, notes, tables, figures and download files."""

from __future__ import annotations

import csv
import html
import io
import math
from typing import Any

import numpy as np

from playground.embeddings import ModelView, PolysemyRun, separating_layer
from playground.figures.polysemy import layer_curve_figure, scatter_figure, similarity_figure
from playground.serialize import jsonable
from playground.ui.common import escape_md, export_file, export_json, label_in
from playground.ui.i18n import t


def _num(x: float) -> float | None:
    return None if x is None or math.isnan(x) else round(float(x), 6)


THRESHOLD = 0.9  # nearest-neighbour accuracy that counts as "separates"
VOIDING = ("unknown_word", "same_input")  # notes that make a model's scores say nothing about the senses
SAME = 1e-5  # cosines within this of 1 are one and the same vector


def display_label(view: ModelView, lang: str) -> str:
    """The panel's name in the user's language: "(bundled)" and "input embeddings" translated; Markdown-safe."""
    base = label_in(view.model_label or view.label, lang).replace(" (bundled)", t("polysemy.bundled", lang))
    return t("polysemy.input_label", lang, model=base) if view.source == "input" else base


def _sentences(rows: list[int]) -> str:
    return ", ".join(f"#{n}" for n in rows)


def _pct(x: float) -> str:
    return "—" if x is None or math.isnan(x) else f"{x:.0%}"


def _num2(x: float) -> str:
    return "—" if x is None or math.isnan(x) else f"{x:.2f}"


def warnings(v: ModelView, lang: str) -> list[str]:
    """The notes that void this model's reading, worded for students (tokens escaped: `[UNK]` shows)."""
    out = []
    for note in v.notes:
        if note.code == "unknown_word":
            out.append(
                t("polysemy.warn_unknown", lang, rows=_sentences(note.params["rows"]), token=escape_md(note.params["token"]))
            )
        elif note.code == "same_input":
            groups = "; ".join(" = ".join(f"#{n}" for n in g) for g in note.params["groups"])
            out.append(t("polysemy.warn_same", lang, groups=groups))
    return out


def _sense_sizes(result: PolysemyRun, v: ModelView) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for i in v.rows:
        label = result.sentences[i].label
        if label:
            sizes[label] = sizes.get(label, 0) + 1
    return sizes


def _cross_cosines(result: PolysemyRun, v: ModelView, limit: int = 6) -> str:
    """'#1–#5 0.83, …': the cosines between sentences of different senses, at the shown layer."""
    labels = [result.sentences[i].label for i in v.rows]
    pairs = [
        f"#{v.rows[a] + 1}–#{v.rows[b] + 1} {v.similarity[a, b]:.2f}"
        for a in range(len(labels))
        for b in range(a + 1, len(labels))
        if labels[a] and labels[b] and labels[a] != labels[b]
    ]
    return ", ".join(pairs[:limit]) + (", …" if len(pairs) > limit else "")


def _identical(v: ModelView) -> bool:
    return bool(v.rows) and bool(np.all(v.similarity >= 1 - SAME))


def _static_line(v: ModelView, name: str, lang: str) -> str:
    """A single-vector baseline: 'one point' only when its vectors are measured to be one; else what differs, and why."""
    if _identical(v):
        return t("polysemy.read_static", lang, model=name, n=len(v.rows))
    distinct = list(dict.fromkeys(" ".join(p) for p in v.pieces))
    return t(
        "polysemy.read_static_differs",
        lang,
        model=name,
        pieces=", ".join(f"“{escape_md(p)}”" for p in distinct[:6]),
        sep=_num2(v.separation),
        acc=_pct(v.nn_accuracy),
    )


def _contextual_line(v: ModelView, name: str, lang: str) -> str:
    """Where the senses separate, in words that follow the accuracy curve (never a fixed claim)."""
    acc = np.nan_to_num(np.asarray(v.nn_accuracy_by_layer, dtype=float), nan=0.0)
    start = separating_layer(acc, THRESHOLD)
    if start is None:
        best = int(np.argmax(acc))
        return t("polysemy.read_never", lang, model=name, last_acc=_pct(acc[-1]), acc=_pct(acc[best]), layer=best)
    line = t("polysemy.read_from", lang, model=name, layer=start, last=len(acc) - 1, sep=_num2(v.separation_by_layer[-1]))
    earlier = [k for k in range(start) if acc[k] >= THRESHOLD]
    if earlier:  # it reached the threshold before, then fell below it again: say both, with the numbers
        dip = min(range(earlier[0], start), key=lambda k: acc[k])
        line += t("polysemy.read_dip", lang, first=earlier[0], first_acc=_pct(acc[earlier[0]]), dip=dip, low=_pct(acc[dip]))
    return line


def reading(result: PolysemyRun, lang: str) -> str:
    """One paragraph per model, in the user's language, computed from its measured scores and its actual inputs.

    Warnings come first and replace the conclusion: a word that is the unknown token, or sentences that are the
    same input for the model, make its scores say nothing about the senses. With one sentence in a sense the
    nearest-neighbour accuracy is undefined: the cosines themselves are shown instead.
    """
    labels = {result.sentences[i].label for v in result.models for i in v.rows} - {""}
    if len(labels) < 2:
        return t("polysemy.read_no_labels", lang)
    lines, causal = [], []
    for v in result.models:
        name = escape_md(display_label(v, lang))
        warned = warnings(v, lang)
        if warned and (v.source == "contextual" or any(n.code == "unknown_word" for n in v.notes)):
            lines.append(f"⚠️ {name}: " + " ".join(warned) + " " + t("polysemy.warn_no_reading", lang))
            continue
        single = sorted(label for label, k in _sense_sizes(result, v).items() if k < 2)
        if v.source != "contextual":
            line = _static_line(v, name, lang)
        elif single:
            line = t("polysemy.read_cosines", lang, model=name, layer=v.layer, pairs=_cross_cosines(result, v))
        else:
            line = _contextual_line(v, name, lang)
        if single and not _identical(v):
            line += " " + t("polysemy.read_need_two", lang, senses=", ".join(f"“{escape_md(s)}”" for s in single))
        lines.append(line)
        if v.family_kind == "causal" and v.source == "contextual":  # the registry kind is data: left-to-right models
            causal.append(name)
    lines += [t("polysemy.read_causal", lang, model=", ".join(causal))] if causal else []
    return "\n\n".join(lines)


def notes(result: PolysemyRun, lang: str) -> str:
    missing = [str(s.index + 1) for s in result.sentences if s.span is None]
    out = [t("polysemy.missing", lang, rows=", ".join(missing))] if missing else []
    out += [
        t(
            "polysemy.note",
            lang,
            model=escape_md(display_label(v, lang)),
            note=t(f"polysemy.note.{n.code}", lang, **{k: escape_md(x) for k, x in n.params.items()}),
        )
        for v in result.models
        for n in v.notes
        if n.code not in VOIDING
    ]
    return "\n".join(f"- {line}" for line in out)


def provenance_md(result: PolysemyRun, lang: str) -> str:
    seen = dict.fromkeys((v.model_id, v.device) for v in result.models)
    return " · ".join(t("common.provenance", lang, model=m, device=d) for m, d in seen)


def score_rows(result: PolysemyRun, lang: str = "en") -> list[list[Any]]:
    return [[display_label(v, lang), v.layer, _num(v.separation), _num(v.nn_accuracy), len(v.rows)] for v in result.models]


def score_headers(lang: str) -> list[str]:
    return [t(f"polysemy.col_{c}", lang) for c in ("model", "layer", "separation", "accuracy", "sentences")]


def deepest_layer(result: PolysemyRun) -> int:
    """The chosen models' deepest layer: what the layer menu offers after a run."""
    return max(v.num_layers for v in result.models)


def panel_title(v: ModelView, lang: str) -> str:
    """A figure panel's title (HTML for plotly): the model, the layer shown, a warning mark when its scores are void."""
    name = html.escape(display_label(v, lang))
    warn = " ⚠️" if any(n.code in VOIDING for n in v.notes) else ""
    layer = f"<br><sup>{html.escape(t('polysemy.panel_layer', lang, layer=v.layer))}</sup>" if v.source == "contextual" else ""
    return name + warn + layer


def figures(result: PolysemyRun, lang: str):
    titles = [panel_title(v, lang) for v in result.models]
    return (
        scatter_figure(
            result,
            no_label=t("polysemy.no_label", lang),
            title=t("polysemy.scatter_title", lang),
            titles=titles,
            one_point=t("polysemy.one_point", lang),
        ),
        similarity_figure(
            result,
            title=t("polysemy.heatmap_title", lang),
            titles=titles,
            colourbar=t("polysemy.colourbar", lang),
        ),
        layer_curve_figure(
            result,
            separation=t("polysemy.axis_separation", lang),
            accuracy=t("polysemy.axis_accuracy", lang),
            layer=t("polysemy.axis_layer", lang),
            title=t("polysemy.curve_title", lang),
            names=[html.escape(display_label(v, lang)) for v in result.models],
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
