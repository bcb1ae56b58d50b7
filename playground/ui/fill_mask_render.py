"""A FillMaskRun in the user's language: the bars, the table, provenance and notes, the API JSON, the downloads."""

from __future__ import annotations

import csv
import io
from typing import Any

import gradio as gr

from playground.figures.fill_mask import fill_mask_figure
from playground.fill_mask import FillMaskRun, ModelFill, Note
from playground.fill_mask_data import Reading
from playground.ui.common import export_figure_html, export_file, export_json
from playground.ui.i18n import t

COLUMNS = ("model", "method", "mask", "rank", "word", "token", "prob")


def columns(run: FillMaskRun) -> list[tuple[ModelFill, Reading]]:
    """One column of bars per (model, reading), in the order the models were asked."""
    return [(fill, reading) for fill in run.fills for reading in fill.readings]


def method_name(reading: Reading, lang: str) -> str:
    return t(f"fill_mask.method.{reading.method}", lang)


def note_text(note: Note, lang: str) -> str:
    return t(f"fill_mask.{note.code}", lang, **note.params)


def figure(run: FillMaskRun, lang: str) -> Any:
    cols = columns(run)
    return fill_mask_figure(
        [r for _, r in cols],
        [f"{fill.model_id}<br>{method_name(r, lang)}" for fill, r in cols],
        t("fill_mask.prob_axis", lang),
        t("fill_mask.mask_row", lang),
    )


def table(run: FillMaskRun, lang: str) -> tuple[list[str], list[list[Any]]]:
    headers = [t(f"fill_mask.col_{c}", lang) for c in COLUMNS]
    rows = [
        [fill.model_id, method_name(r, lang), m, rank, p.word, p.raw, round(p.probability, 6)]
        for fill, r in columns(run)
        for m, preds in enumerate(r.predictions, start=1)
        for rank, p in enumerate(preds, start=1)
    ]
    return headers, rows


def info(run: FillMaskRun, lang: str) -> str:
    """Provenance (model id and device) of every model, then the notes, as a Markdown list."""
    sources = [t("common.provenance", lang, model=fill.model_id, device=fill.device) for fill in run.fills]
    return "\n".join(f"- {line}" for line in sources + [note_text(n, lang) for n in run.notes])


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
