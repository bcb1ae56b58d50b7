"""Fill-mask tab: BERT-family models side by side, with the causal model's two honest readings."""

from __future__ import annotations

import csv
import functools
import io
import json
from pathlib import Path
from typing import Any

import gradio as gr

from playground import models
from playground.alignment import is_cjk
from playground.causal_fill import fill_blanks_causal
from playground.figures.fill_mask import fill_mask_figure
from playground.fill_mask import FillMaskResult, check_top_k, count_masks, fill_mask
from playground.ui.common import (
    check_keys,
    export_figure_html,
    export_file,
    export_json,
    friendly_errors,
    load_model,
    model_choices,
    on_gpu,
    provenance,
    unavailable_panel,
)
from playground.ui.i18n import UIContext, t
from playground.ui.share import share_link_row


def _masked_readings(lm, text: str, top_k: int) -> tuple[list[FillMaskResult], int | None]:
    return fill_mask(lm, [text], top_k), None


def _causal_readings(lm, text: str, top_k: int) -> tuple[list[FillMaskResult], int | None]:
    (both,) = fill_blanks_causal(lm, [text], top_k)
    return [both.left, both.whole], both.pool_size


# How each kind of model fills a blank: one reading for a masked LM, two for a causal one.
READINGS = {"masked": _masked_readings, "causal": _causal_readings}
KINDS = tuple(READINGS)
EXAMPLES = json.loads((Path(__file__).parents[2] / "assets" / "fill_mask" / "examples.json").read_text(encoding="utf-8"))


def _has_chinese(text: str) -> bool:
    return any(is_cjk(ch) for ch in text)


def default_models() -> list[str]:
    """Every available masked LM; the causal fallback only when there is none (offline)."""
    masked = [key for _, key in model_choices(["masked"], "en")]
    return masked or [key for _, key in model_choices(["causal"], "en")]


@functools.lru_cache(maxsize=512)
@on_gpu
def _cached_readings(key: str, text: str, top_k: int) -> tuple[list[FillMaskResult], int | None]:
    """Results are pure in (model, text, top-k): a class pressing the same preset computes it once."""
    lm = models.load(key)
    return READINGS[lm.spec.kind](lm, text, top_k)


def predict(
    text: str, keys: list[str] | None, top_k: int, lang: str, progress: Any = None
) -> tuple[list[FillMaskResult], list[str], list[str]]:
    """Run every chosen model on `text`: the results (one or two per model), notes, and provenance lines."""
    with friendly_errors(lang):
        count_masks(text)
    notes, results, sources = [], [], []
    specs = check_keys(keys, lang)
    for spec in specs:
        if spec.kind not in KINDS:
            raise gr.Error(t("error.not_fill_model", lang, model=spec.label, kind=spec.kind))
        lm = load_model(spec.key, lang, progress)
        sources.append(provenance(lm, lang))
        if progress is not None:
            progress(0.5, desc=t("common.running", lang, model=spec.label))
        with friendly_errors(lang):
            readings, pool = _cached_readings(spec.key, text, check_top_k(top_k))
        results += readings
        if pool:
            notes.append(t("fill_mask.pool", lang, model=spec.label, n=pool))
        if _has_chinese(text) and not spec.speaks("zh"):
            notes.append(t("fill_mask.no_chinese", lang, model=spec.label))
    if _has_chinese(text) and not any(s.speaks("zh") for s in specs):
        notes.append(t("fill_mask.no_chinese_model", lang))
    notes += [t("fill_mask.truncated", lang, model=r.model_id) for r in results if r.truncated]
    return results, notes, sources


def _title(result: FillMaskResult, lang: str) -> str:
    return f"{result.model_id}<br>{t(f'fill_mask.method.{result.method}', lang)}"


def _rows(results: list[FillMaskResult], lang: str) -> list[list[Any]]:
    return [
        [r.model_id, t(f"fill_mask.method.{r.method}", lang), m, rank, p.word, p.raw, round(p.probability, 6)]
        for r in results
        for m, preds in enumerate(r.predictions, start=1)
        for rank, p in enumerate(preds, start=1)
    ]


def as_json(results: list[FillMaskResult], notes: list[str]) -> dict:
    """The API schema: per model and method, per mask, [{token, probability, raw}]."""
    return {
        "results": [
            {
                "model": r.model_key,
                "model_id": r.model_id,
                "method": r.method,
                "input": r.input_text,
                "truncated": r.truncated,
                "masks": [
                    [{"token": p.word, "raw": p.raw, "probability": p.probability} for p in preds] for preds in r.predictions
                ],
            }
            for r in results
        ],
        "notes": notes,
    }


def run_view(text, keys, top_k, lang, progress=gr.Progress()):
    """The UI event: figure, table, notes, downloads."""
    results, notes, sources = predict(text, keys, int(top_k), lang, progress)
    headers = [t(f"fill_mask.col_{c}", lang) for c in ("model", "method", "mask", "rank", "word", "token", "prob")]
    rows = _rows(results, lang)
    figure = fill_mask_figure(
        results, [_title(r, lang) for r in results], t("fill_mask.prob_axis", lang), t("fill_mask.mask_row", lang)
    )
    buffer = io.StringIO()
    csv.writer(buffer).writerows([headers] + rows)
    files = [
        export_file("fill_mask.csv", buffer.getvalue()),
        export_json("fill_mask.json", as_json(results, notes)),
        export_figure_html("fill_mask.html", figure),
    ]
    info = "\n".join(f"- {line}" for line in sources + notes)
    return figure, gr.update(value=rows, headers=headers), info, files, (text, keys, top_k)


def rerun_in(last, lang):
    """A language switch redraws the last result in the new language (cached: no model runs again)."""
    return [gr.update()] * 5 if last is None else run_view(*last, lang, progress=None)


def fill_mask_api(text: str, models: list[str] | None = None, top_k: int = 5, lang: str = "en") -> dict:
    """Fill every [MASK] in `text` with each model; JSON per model, per mask, [{token, probability, raw}]."""
    results, notes, _ = predict(text, models or default_models(), top_k, lang)
    return as_json(results, notes)


def build_tab(ui: UIContext) -> dict[str, Any]:
    loc = ui.loc
    loc.add(gr.Markdown(t("fill_mask.intro", "en")), value="fill_mask.intro")
    with gr.Row():
        with gr.Column(scale=3):
            text = loc.add(
                gr.Textbox(EXAMPLES[0]["text"], label=t("fill_mask.text", "en"), info=t("fill_mask.text_info", "en"), lines=2),
                label="fill_mask.text",
                info="fill_mask.text_info",
            )
            examples = gr.Examples([[e["text"]] for e in EXAMPLES], [text], label=t("common.examples", "en"))
            loc.add(examples.dataset, label="common.examples")
        with gr.Column(scale=2):
            models = loc.add(
                gr.CheckboxGroup(
                    model_choices(KINDS, "en"),
                    value=default_models(),
                    label=t("common.models", "en"),
                    info=t("fill_mask.models_info", "en"),
                ),
                label="common.models",
                info="fill_mask.models_info",
            )
            top_k = gr.Slider(1, 20, value=5, step=1, label="Top-k")
            run = loc.add(gr.Button(t("fill_mask.run", "en"), variant="primary"), value="fill_mask.run")
    loc.add(gr.Markdown(t("fill_mask.causal_note", "en")), value="fill_mask.causal_note")
    unavailable_panel(KINDS, loc)
    plot = loc.add(gr.Plot(label=t("fill_mask.plot", "en")), label="fill_mask.plot")
    info = gr.Markdown(elem_classes="tp-provenance")
    table = loc.add(gr.Dataframe(label=t("fill_mask.table", "en"), interactive=False, wrap=True), label="fill_mask.table")
    files = loc.add(gr.File(label=t("fill_mask.exports", "en"), file_count="multiple"), label="fill_mask.exports")
    last = gr.State(None)  # the inputs of this user's last run
    inputs, outputs = [text, models, top_k, ui.lang], [plot, table, info, files, last]
    run.click(run_view, inputs, outputs, api_visibility="private")
    text.submit(run_view, inputs, outputs, api_visibility="private")
    ui.lang.change(rerun_in, [last, ui.lang], outputs, api_visibility="private")
    gr.api(fill_mask_api, api_name="fill_mask")
    params = {"text": text, "models": models, "top_k": top_k}
    share_link_row("fill_mask", params, loc)
    return params
