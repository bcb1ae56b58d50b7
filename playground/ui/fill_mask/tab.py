"""Fill-mask tab: BERT-family models side by side, with the causal model's two honest readings.

Widgets and events only: the page and the /fill_mask endpoint both call
`playground.fill_mask.run_fill_mask`; `fill_mask_render` draws what it returns.
"""

from __future__ import annotations

from dataclasses import replace
import json
from typing import Any

import gradio as gr

from playground import availability

from playground.availability import available_specs
from playground.fill_mask import KINDS, default_models
from playground.fill_mask.data import MAX_TOP_K
from playground.ui.fill_mask import render
from playground.ui.fill_mask.api import fill, fill_mask_api
from playground.ui.common.widgets import (
    download_row,
    model_choices,
    result_hint,
    unavailable_panel,
)
from playground.ui.common.i18n import UIContext, t
from playground.ui.common.lab_models import model_menu
from playground.ui.common.code_panel import CodePanel
from playground.ui.common.form import Form, Values

EXAMPLES = json.loads((availability.ASSETS / "fill_mask" / "examples.json").read_text(encoding="utf-8"))


def example_label(example: dict, lang: str) -> str:
    """A preset as the example list shows it: marked when no model that can run here reads its language."""
    readable = any(spec.speaks(example["lang"]) for spec in available_specs(*KINDS))
    return example["text"] if readable else t("fill_mask.example_no_reader", lang, text=example["text"])


def example_samples(lang: str) -> list[list[str]]:
    return [[example_label(e, lang)] for e in EXAMPLES]


def pick_example(index: int) -> str:
    """The preset's own text (never its on-screen mark) into the text box."""
    return EXAMPLES[index]["text"]


def show(f: Values, progress=None) -> dict[str, Any]:
    """The run: figure, table, notes; the downloads box is emptied (its files described the previous run)."""
    run = fill(f["text"], f["models"], f["top_k"], f.lang, progress, f.token)
    return redraw(replace(f, extra={**f.extra, "last": run}))


def redraw(f: Values, progress=None) -> dict[str, Any]:
    """The kept result in the page's language (a language switch): no model runs again."""
    run = f.extra["last"]
    plot, table, info = render.render(run, f.lang)
    return {"plot": plot, "table": table, "info": info, "files": gr.update(value=None, visible=False), "last": run}


def build_tab(ui: UIContext):
    loc, form = ui.loc, Form(ui, "fill_mask")
    loc.add(gr.Markdown(t("fill_mask.intro", "en")), value="fill_mask.intro")
    with gr.Row():
        with gr.Column(scale=3):
            text = form.field(
                "text",
                gr.Textbox(EXAMPLES[0]["text"], label=t("fill_mask.text", "en"), info=t("fill_mask.text_info", "en"), lines=2),
                label="fill_mask.text",
                info="fill_mask.text_info",
            )
            # A dataset rather than gr.Examples: its rows carry a mark ("needs a Chinese model") that must not
            # reach the text box, so a click puts the preset's own text there.
            examples = loc.add(
                gr.Dataset(components=[text], samples=example_samples("en"), type="index", label=t("common.examples", "en")),
                label="common.examples",
                samples=example_samples,
            )
            examples.click(pick_example, examples, text, api_visibility="private", queue=False)
        with gr.Column(scale=2):
            menu = gr.CheckboxGroup(
                model_choices(KINDS, "en"), value=default_models(), label=t("common.models", "en"),
                info=t("fill_mask.models_info", "en"),
            )  # fmt: skip
            # with "Your lab model" once this session trained one in the MLM lab
            form.field("models", model_menu(ui, menu, KINDS, label="common.models", info="fill_mask.models_info"))
            form.field("top_k", gr.Slider(1, MAX_TOP_K, value=5, step=1, label=t("fill_mask.top_k")), label="fill_mask.top_k")
            run = loc.add(gr.Button(t("fill_mask.run", "en"), variant="primary"), value="fill_mask.run")
    loc.add(gr.Markdown(t("fill_mask.causal_note", "en")), value="fill_mask.causal_note")
    unavailable_panel(KINDS, loc)
    hint = result_hint(loc, "fill_mask.hint")
    with gr.Column(visible=False) as result_area:  # no empty plot, header-only table or downloads box before a run
        # the ⚠ lines (unknown tokens, no Chinese) come before the bars they qualify; provenance and notes with them
        form.output("info", gr.Markdown(elem_classes="tp-provenance", elem_id="fill-mask-info"))
        plot = gr.Plot(label=t("fill_mask.plot"), show_label=False, elem_id="fill-mask-plot")
        form.output("plot", plot, label="fill_mask.plot")
        form.output("table", gr.Dataframe(label=t("fill_mask.table"), interactive=False, wrap=True), label="fill_mask.table")
        last = form.state("last")  # this user's last FillMaskRun: redrawn on a language switch, exported on demand
        form.output("files", download_row(loc, render.downloads, [last, ui.lang], label_key="fill_mask.exports"))
    form.result(hint, result_area)
    form.code_panel(CodePanel(ui), lambda f: ("fill_mask", f.code_params(form)))
    form.action(show, [run.click, text.submit])
    form.redraw_on_lang(redraw)
    gr.api(fill_mask_api, api_name="fill_mask")
    return form.share()  # a link shows its result
