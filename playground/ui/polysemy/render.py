"""PolysemyRun -> what the tab shows, in the user's language: the reading, notes, tables, figures and download files."""

from __future__ import annotations

import csv
import html
import io
import math
from dataclasses import replace
from typing import Any

import numpy as np


from playground.polysemy import ModelView, PolysemyRun
from playground.polysemy import readings
from playground.figures.polysemy import (
    coincident,
    colour_range,
    note_place,
    layer_curve_figure,
    pair_cosine_figure,
    scatter_figure,
    scatter_traces,
    similarity_figure,
)
from playground.serialize import jsonable
from playground.ui.common.widgets import escape_md, export_file, export_json, label_in, provenance
from playground.ui.common.i18n import t


def _num(x: float) -> float | None:
    return None if x is None or math.isnan(x) else round(float(x), 6)


VOIDING = readings.VOIDING  # notes that make a model's scores say nothing about the senses


def display_label(view: ModelView, lang: str) -> str:
    """The panel's name in the user's language: "(bundled)" and "input embeddings" translated; Markdown-safe."""
    base = label_in(view.model_label or view.label, lang).replace(" (bundled)", t("polysemy.bundled", lang))
    return t("polysemy.input_label", lang, model=base) if view.source == "input" else base


def _sentences(rows: list[int]) -> str:
    return ", ".join(f"#{n}" for n in rows)


def _pct(x: float | None) -> str:
    return "—" if x is None or math.isnan(x) else f"{x:.0%}"


def _num2(x: float | None) -> str:
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


def _separates(p: dict, name: str, lang: str) -> str:
    # reached only at the last layer: "from layer 6 up to the last layer (6)" read as a range of one
    key = "polysemy.read_last_only" if p["layer"] == p["last"] else "polysemy.read_from"
    line = t(key, lang, model=name, layer=p["layer"], last=p["last"], sep=_num2(p["separation"]))
    dip = p.get("dip")
    if dip:  # it reached the threshold before, then fell below it again
        line += t(
            "polysemy.read_dip",
            lang,
            first=dip["first"],
            first_acc=_pct(dip["first_accuracy"]),
            dip=dip["layer"],
            low=_pct(dip["accuracy"]),
        )
    return line


def _cosines(p: dict, name: str, lang: str) -> str:
    pairs = ", ".join(f"#{a}–#{b} {c:.2f}" for a, b, c in p["pairs"]) + (", …" if p["more"] else "")
    return t("polysemy.read_cosines", lang, model=name, layer=p["layer"], pairs=pairs)


# A panel's reading code -> its sentence (the backend measured; this only words it).
PANEL_LINES = {
    "static_one": lambda p, name, lang: t("polysemy.read_static", lang, model=name, n=p["n"]),
    "static_differs": lambda p, name, lang: t(
        "polysemy.read_static_differs",
        lang,
        model=name,
        pieces=", ".join(f"“{escape_md(x)}”" for x in p["pieces"]),
        sep=_num2(p["separation"]),
        acc=_pct(p["accuracy"]),
    ),
    "cosines": _cosines,
    "separates": _separates,
    "never": lambda p, name, lang: t(
        "polysemy.read_never",
        lang,
        model=name,
        last_acc=_pct(p["last_accuracy"]),
        acc=_pct(p["best_accuracy"]),
        layer=p["best_layer"],
    ),
}


def _views(result: PolysemyRun) -> dict[str, ModelView]:
    return {v.key: v for v in result.models}


def _name(result: PolysemyRun, key: str, lang: str) -> str:
    return escape_md(display_label(_views(result)[key], lang))


def reading(result: PolysemyRun, lang: str) -> str:
    """The backend's readings in the user's language: one paragraph per model, then the run's own.

    Warnings come first and replace the conclusion (a word that is the unknown token, or sentences that are the
    same input for the model); with one sentence in a sense the cosines themselves are shown instead.
    """
    views, lines = _views(result), []
    for r in result.readings:
        if r.code == "no_labels":
            lines.append(t("polysemy.read_no_labels", lang))
        elif r.code == "senses_missing":
            found = ", ".join(f"“{escape_md(x)}”" for x in r.params["found"]) or "—"
            missing = ", ".join(f"#{n}" for n in r.params["missing"])
            lines.append(t("polysemy.read_senses_missing", lang, found=found, rows=missing))
        elif r.code == "void":
            v = views[r.key]
            lines.append(
                f"⚠️ {_name(result, r.key, lang)}: " + " ".join(warnings(v, lang)) + " " + t("polysemy.warn_no_reading", lang)
            )
        elif r.code in PANEL_LINES:
            line = PANEL_LINES[r.code](r.params, _name(result, r.key, lang), lang)
            if r.single:
                line += " " + t("polysemy.read_need_two", lang, senses=", ".join(f"“{escape_md(s)}”" for s in r.single))
            lines.append(line)
        elif r.code == "causal":
            lines.append(t("polysemy.read_causal", lang, model=", ".join(_name(result, k, lang) for k in r.params["models"])))
    extra = [r for r in result.readings if r.code in ("same_sense", "cross_lingual")]
    notes = [t("polysemy.same_sense", lang) for r in extra if r.code == "same_sense"]
    for r in (r for r in extra if r.code == "cross_lingual"):
        p = r.params
        verdict = t("polysemy.cross_lingual_closer" if p["closer"] else "polysemy.cross_lingual_not_closer", lang)
        numbers = dict(layer=p["layer"], same=f"{p['same']:.3f}", cross=f"{p['cross']:.3f}", verdict=verdict)
        notes.append(t("polysemy.cross_lingual", lang, model=_name(result, r.key, lang), **numbers))
    return "\n\n".join(lines + notes)


def run_warnings(result: PolysemyRun, lang: str) -> list[str]:
    """The run's own notes as the page's warnings (a Chinese word, models not trained on Chinese)."""
    return [
        t("common.not_chinese", lang, model=", ".join(n.params["models"]), consequence=t("polysemy.not_chinese", lang))
        for n in result.notes
        if n.code == "not_chinese"
    ]


def _param(value: Any) -> str:
    if isinstance(value, (list, tuple)):  # sentence numbers, or groups of them
        return ", ".join(" = ".join(f"#{n}" for n in x) if isinstance(x, (list, tuple)) else str(x) for x in value)
    return escape_md(str(value))


def note_text(note, lang: str) -> str:
    """One backend note in words, from exactly the parameters the backend attached (escaped: tokens are data)."""
    return t(f"polysemy.note.{note.code}", lang, **{k: _param(x) for k, x in note.params.items()})


def notes(result: PolysemyRun, lang: str) -> str:
    missing = [str(s.index + 1) for s in result.sentences if s.span is None]
    out = [t("polysemy.missing", lang, rows=", ".join(missing))] if missing else []
    out += [
        t(
            "polysemy.note",
            lang,
            model=escape_md(display_label(v, lang)),
            note=note_text(n, lang),
        )
        for v in result.models
        for n in v.notes
        if n.code not in VOIDING
    ]
    if few(result):  # why the projection, the sense scores and the curve are not there
        out.append(t("polysemy.few_absent", lang, n=max(len(v.rows) for v in result.models)))
    return "\n".join(f"- {line}" for line in out)


def provenance_md(result: PolysemyRun, lang: str) -> str:
    seen = dict.fromkeys((v.model_id, v.device) for v in result.models)
    return " · ".join(provenance(m, d, lang) for m, d in seen)


def _pairs(result: PolysemyRun) -> list[tuple[int, int]]:
    return list(dict.fromkeys(tuple(p["pair"]) for v in result.models for p in v.pair_cosines))


def score_rows(result: PolysemyRun, lang: str = "en") -> list[list[Any]]:
    """One row per panel. With few sentences the scores are undefined: each pair's cosine at the shown layer instead."""
    if few(result):
        rows = []
        for v in result.models:
            by_pair = {tuple(p["pair"]): p["by_layer"][min(v.layer, len(p["by_layer"]) - 1)] for p in v.pair_cosines}
            rows.append([display_label(v, lang), v.layer, *[_num2(by_pair.get(pair)) for pair in _pairs(result)], len(v.rows)])
        return rows
    return [[display_label(v, lang), v.layer, _num(v.separation), _num(v.nn_accuracy), len(v.rows)] for v in result.models]


def score_headers(lang: str, result: PolysemyRun | None = None) -> list[str]:
    if result is not None and few(result):
        pairs = [t("polysemy.col_pair", lang, a=a, b=b) for a, b in _pairs(result)]
        return [t("polysemy.col_model", lang), t("polysemy.col_layer", lang), *pairs, t("polysemy.col_sentences", lang)]
    return [t(f"polysemy.col_{c}", lang) for c in ("model", "layer", "separation", "accuracy", "sentences")]


def deepest_layer(result: PolysemyRun) -> int:
    """The chosen models' deepest layer: what the layer menu offers after a run."""
    return max(v.num_layers for v in result.models)


def panel_title(v: ModelView, lang: str) -> str:
    """A figure panel's title (HTML for plotly): the model, the layer shown, a warning mark when its scores are void."""
    name = html.escape(display_label(v, lang))
    warn = " ⚠️" if any(n.code in VOIDING for n in v.notes) else ""
    shown = t("polysemy.panel_layer_0", lang) if v.layer == 0 else t("polysemy.panel_layer", lang, layer=v.layer)
    layer = f"<br><sup>{html.escape(shown)}</sup>" if v.source == "contextual" else ""
    return name + warn + layer


def few(result: PolysemyRun) -> bool:
    """Too few sentences for the sense scores (no sense has two): the pairs' cosines per layer are the result.

    Then a projection would mislead (two points always land in opposite corners, whatever their cosine) and the
    separation, the nearest-neighbour accuracy and the where-senses-come-apart curve are undefined.
    """
    return (
        bool(result.models)
        and all(v.pair_cosines or len(v.rows) < 2 for v in result.models)
        and all(v.nn_accuracy is None or math.isnan(v.nn_accuracy) for v in result.models)
    )


def figures(result: PolysemyRun, lang: str):
    """(main figure, heatmap, curve or None): with few sentences the main figure is each pair's cosine per layer.

    A panel with no vector (a word GloVe lacks) is not drawn: an empty axis would look like a result; its note says
    why it is missing."""
    result = replace(result, models=[v for v in result.models if v.rows])
    titles = [panel_title(v, lang) for v in result.models]
    names = [html.escape(display_label(v, lang)) for v in result.models]
    if few(result):
        return (
            pair_cosine_figure(
                result,
                title=t("polysemy.pair_title", lang),
                pair_title=t("polysemy.pair_panel", lang),
                layer=t("polysemy.axis_layer_0", lang),
                cos=t("polysemy.pair_axis", lang),
                names=names,
                reference=t("polysemy.pair_reference", lang, model="{model}"),
            ),
            similarity_figure(
                result,
                title=t("polysemy.heatmap_title", lang),
                titles=titles,
                colourbar=t("polysemy.colourbar_fixed", lang),
                fixed=True,
            ),  # fmt: skip
            None,
        )
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
            names=names,
        ),
    )


def _drawn(result: PolysemyRun) -> PolysemyRun:
    """The panels the figures draw: those with vectors (a word GloVe lacks has none)."""
    return replace(result, models=[v for v in result.models if v.rows])


def _placed(coords: list[np.ndarray], one_point: str) -> list[dict]:
    """The "n sentences, one point" notes of the scatter, as the figure places them: panel, text, x, y(, z), and in
    2-D the side and height `note_place` gives."""
    out = []
    for n, c in enumerate(coords):
        for group in coincident(c):
            point = np.round(c[group[0]], 5).tolist()
            side = note_place(c, point) if len(point) == 2 else {}
            out.append({"n": n, "text": html.escape(one_point.format(n=len(group))), **dict(zip("xyz", point)), **side})
    return out


def browser_data(result: PolysemyRun, layers: dict[str, PolysemyRun], layer: str, lang: str) -> dict[str, Any] | None:
    """What the page needs to show another layer, or PCA again after t-SNE, with no request (assets/polysemy_redraw.js).

    `layer`: the menu's value `result` was run at; `layers`: the same request at every layer the menu offers ("last",
    "0", "1", ...), projected by PCA, from the vectors the runtime keeps (no model runs). Per layer: each drawn
    panel's points and cosines, the colour range, the panel titles, the reading and the score table, all as the
    server draws them; t-SNE only where the server computed it (the layer of `result`): another layer under t-SNE
    asks the server (t-SNE takes seconds a layer)."""
    if not layers:
        return None
    shown = _drawn(result)
    out: dict[str, Any] = {"few": few(result), "traces": [[n, idx] for n, _, idx in scatter_traces(shown)], "layers": {}}
    one_point = t("polysemy.one_point", lang, n="{n}")
    for key, run in layers.items():
        drawn = _drawn(run)
        low, high = colour_range(drawn)
        coords = [v.coords for v in drawn.models]
        out["layers"][key] = {
            "pca": [np.round(c, 5).tolist() for c in coords],
            "pca_notes": _placed(coords, one_point),
            "sim": [np.round(v.similarity, 3).tolist() for v in drawn.models],
            "zrange": [min(0.0, low), 1.0] if out["few"] else [low, high],
            "titles": [panel_title(v, lang) for v in drawn.models],
            "reading": reading(run, lang),
            "table": score_rows(run, lang),
        }
    if result.projection == "tsne" and layer in out["layers"]:  # the one t-SNE the server computed
        coords = [v.coords for v in shown.models]
        out["layers"][layer].update(tsne=[np.round(c, 5).tolist() for c in coords], tsne_notes=_placed(coords, one_point))
    return out


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
    figs = [f for f in figures(result, lang) if f is not None]
    page = "".join(f.to_html(include_plotlyjs=n == 0, full_html=False) for n, f in enumerate(figs))
    stem = f"polysemy-{''.join(c for c in result.word if c.isalnum()) or 'word'}"
    return [
        export_file(f"{stem}-vectors.csv", _csv(vectors)),
        export_file(f"{stem}-scores.csv", _csv(scores)),
        export_file(f"{stem}-figures.html", f"<!doctype html><meta charset='utf-8'>{page}"),
        export_json(f"{stem}.json", jsonable(result)),
    ]
