"""A FillMaskRun in the user's language: the bars, the table, provenance and notes, the API JSON, the downloads."""

from __future__ import annotations

import csv
import html
import io
from typing import Any

import gradio as gr

from playground.figures.fill_mask import fill_mask_figure
from playground.fill_mask import FillMaskRun, ModelFill, Note
from playground.fill_mask.data import Reading
from playground.registry import get_spec
from playground.ui.common.widgets import (
    escape_md,
    model_label,
    export_figure_html,
    export_file,
    export_json,
    model_id_in,
    provenance,
)
from playground.ui.common.i18n import t

COLUMNS = ("model", "method", "mask", "rank", "word", "token", "prob")
# Notes that say a result is not meaningful, or measured weak for this kind of text: shown first, beside the bars.
WARNINGS = {"all_unknown", "unknown", "no_chinese", "no_chinese_model", "weak_zh", "byte_pieces"}


def columns(run: FillMaskRun) -> list[tuple[ModelFill, Reading]]:
    """One column of bars per (model, reading), in the order the models were asked."""
    return [(fill, reading) for fill in run.fills for reading in fill.readings]


def method_name(reading: Reading, lang: str) -> str:
    return t(f"fill_mask.method.{reading.method}", lang)


def note_text(note: Note, lang: str, markdown: bool = False) -> str:
    """A note in `lang`; with `markdown`, every value in it is escaped (text is data, never markup)."""
    quote = (lambda v: escape_md(v, limit=80)) if markdown else str
    params = {
        k: ("、" if lang == "zh" else ", ").join(f"“{quote(x)}”" for x in v) if isinstance(v, list) else quote(v)
        for k, v in note.params.items()
    }
    if "model" in note.params:  # a described id ("... MLM head trained here") in the reader's language
        params["model"] = quote(model_id_in(str(note.params["model"]), lang))
    if note.code == "no_chinese":  # the one "not trained on Chinese" wording, with what it means for fill-mask
        readers = [model_label(get_spec(key), lang) for key in note.params.get("readers") or []]  # as the checkboxes say
        listed = ("、" if lang == "zh" else ", ").join(f"“{quote(r)}”" for r in readers)
        consequence = t("fill_mask.no_chinese" if readers else "fill_mask.no_chinese_none", lang, readers=listed)
        return t("common.not_chinese", lang, consequence=consequence, model=params["model"])
    return t(f"fill_mask.{note.code}", lang, **params)


def figure(run: FillMaskRun, lang: str) -> Any:
    cols = columns(run)
    return fill_mask_figure(
        [r for _, r in cols],
        [f"{html.escape(model_id_in(fill.model_id, lang))}<br>{method_name(r, lang)}" for fill, r in cols],
        t("fill_mask.prob_axis", lang),
        t("fill_mask.mask_row", lang),
    )


def table(run: FillMaskRun, lang: str) -> tuple[list[str], list[list[Any]]]:
    headers = [t(f"fill_mask.col_{c}", lang) for c in COLUMNS]
    rows = [
        # the model by its key (`e5-mlm`): its full id is in the provenance above, and on a phone the id took the
        # whole width and pushed the words and probabilities out of sight
        [fill.model_key, method_name(r, lang), m, rank, p.word, p.piece or p.raw, round(p.probability, 6)]
        for fill, r in columns(run)
        for m, preds in enumerate(r.predictions, start=1)
        for rank, p in enumerate(preds, start=1)
    ]
    return headers, rows


def info(run: FillMaskRun, lang: str) -> str:
    """Warnings first (unknown tokens, no Chinese), then provenance and the other notes, as Markdown; values escaped."""
    warnings = [f"⚠️ **{note_text(n, lang, markdown=True)}**" for n in run.notes if n.code in WARNINGS]
    # Model ids and devices come from the operator's registry (allow-listed), and sit in code spans, where escapes would show.
    sources = [provenance(fill.model_id, fill.device, lang) for fill in run.fills]
    others = [note_text(n, lang, markdown=True) for n in run.notes if n.code not in WARNINGS]
    return "\n".join(f"- {line}" for line in warnings + sources + others)


def as_json(run: FillMaskRun, lang: str) -> dict:
    """The /fill_mask schema: per model and method, per mask, [{token, raw, probability}]; notes worded in `lang`."""
    return {
        "results": [
            {
                "model": fill.model_key,
                "model_id": fill.model_id,
                "method": r.method,
                "input": r.input_text,
                "truncated": r.truncated,
                "masks": [
                    [{"token": p.word, "raw": p.raw, "probability": p.probability} for p in preds] for preds in r.predictions
                ],
            }
            for fill, r in columns(run)
        ],
        "notes": [note_text(n, lang) for n in run.notes],
    }


def render(run: FillMaskRun, lang: str) -> tuple[Any, Any, str]:
    """The plot, the table update and the provenance/notes Markdown."""
    headers, rows = table(run, lang)
    return figure(run, lang), gr.update(value=rows, headers=headers), info(run, lang)


def downloads(run: FillMaskRun | None, lang: str) -> list[str] | None:
    """CSV, JSON and interactive HTML of the kept run, written only when the user asks."""
    if run is None:
        return None
    headers, rows = table(run, lang)
    buffer = io.StringIO()
    csv.writer(buffer).writerows([headers] + rows)
    return [
        export_file("fill_mask.csv", buffer.getvalue()),
        export_json("fill_mask.json", as_json(run, lang)),
        export_figure_html("fill_mask.html", figure(run, lang)),
    ]
