"""Masking-strategies tab: BERT, whole-word, dynamic, SpanBERT, XLNet, ELECTRA, T5 and attention masks on one sentence."""

from __future__ import annotations

from dataclasses import replace

import gradio as gr

from playground.checks import MAX_SEED
from playground.masking import OBJECTIVES, TOKENIZER_KINDS, MaskingRequest
from playground.masking.stats import MAX_DRAWS
from playground.ui.common.code_panel import CodePanel
from playground.ui.common.form import Form, Values
from playground.ui.common.i18n import UIContext, t
from playground.ui.common.widgets import download_row, model_choices, result_hint, unavailable_panel
from playground.ui.masking.api import masking_api, masking_run
from playground.ui.masking.render import export_files, generator_choices, render

__all__ = ["build_tab", "masking_api"]

DEFAULT_TEXT = "The unbelievable tokenizer splits playground sentences into subword pieces."
# The request's field behind each share-link name (the link's short names are kept: lessons and old links use them).
REQUEST = {"p": "mlm_probability", "pm": "mask_replace_prob", "pr": "random_replace_prob", "prefix": "prefix_len"}
NOT_REQUEST = ("draws", "stats")  # how many statistics draws, and whether the view shows them: chosen per action


def strategy_choices(lang: str) -> list[tuple[str, str]]:
    """One choice per row of the objectives table (a new objective is a row: it shows here without a line of UI)."""
    return [(t(f"masking.s.{key}", lang), key) for key in OBJECTIVES]


def request_of(f: Values, draws: int = 0) -> MaskingRequest:
    """The MaskingRequest of the page's fields (raw: the backend checks every type and range)."""
    fields = {REQUEST.get(name, name): value for name, value in f.items() if name not in NOT_REQUEST}
    return MaskingRequest(**fields, draws=draws)


def has_statistics(strategy: str) -> bool:
    """The statistics box is offered for an objective with a statistics mode only (ELECTRA needs a model pass per
    draw, the attention families are deterministic): not shown rather than refusing after a click."""
    row = OBJECTIVES.get(strategy)
    return row is not None and row.stats is not None


def shown(f: Values, progress=None, stats: bool | None = None) -> dict:
    """Draw the objective (with its statistics when `stats`, else when the view on screen had them: a link's
    stats=true, another objective chosen after statistics) and show it; stale downloads are emptied."""
    stats = bool(f["stats"]) if stats is None else stats
    draws = f["draws"] if stats and has_statistics(f["strategy"]) else 0
    run = masking_run(request_of(f, draws), f.lang, progress)
    return redraw(replace(f, extra={**f.extra, "last": run})) | {
        "files": gr.update(value=None, visible=False),
        "stats": stats,
        "stats_box": gr.update(visible=has_statistics(f["strategy"])),
    }


def draw(f: Values, progress=None) -> dict:
    return shown(f, progress, stats=False)


def draw_with_statistics(f: Values, progress=None) -> dict:
    return shown(f, progress, stats=True)


def redraw(f: Values, progress=None) -> dict:
    """The kept run in the page's language (a language switch): no draw runs again."""
    summary, grid, matrices, stats_md, stats_fig, data = render(f.extra["last"], f.lang)
    return {
        "summary": summary, "grid": grid, "matrices": gr.update(value=matrices, visible=matrices is not None),
        "stats_md": stats_md, "stats_fig": gr.update(value=stats_fig, visible=stats_fig is not None), "data": data,
        "last": f.extra["last"],
    }  # fmt: skip


def code_request(f: Values) -> tuple[str, dict]:
    """The script of one draw: the request's fields by their API names."""
    params = {REQUEST.get(name, name): value for name, value in f.items() if name not in NOT_REQUEST}
    return "masking", params


def build_tab(ui: UIContext):
    loc, form = ui.loc, Form(ui, "masking")
    loc.add(gr.Markdown(t("masking.intro")), value="masking.intro")
    with gr.Row():
        with gr.Column(scale=3):
            box = gr.Textbox(DEFAULT_TEXT, label=t("masking.text"), info=t("masking.text_info"), lines=2, elem_id="masking-text")
            text = form.field("text", box, label="masking.text", info="masking.text_info")
            radio = gr.Radio(strategy_choices("en"), value="bert", label=t("masking.strategy"), elem_id="masking-strategy")
            strategy = form.field("strategy", radio, label="masking.strategy", choices=strategy_choices)
        with gr.Column(scale=2):
            models = model_choices(TOKENIZER_KINDS, "en")
            default = next((k for _, k in models if k == "minilm"), models[0][1] if models else None)
            menu = gr.Dropdown(models, value=default, label=t("masking.model"), elem_id="masking-model")
            form.field("model", menu, label="masking.model", choices=lambda lang: model_choices(TOKENIZER_KINDS, lang))
            seed = gr.Number(0, precision=0, minimum=0, maximum=MAX_SEED, label=t("masking.seed"), elem_id="masking-seed")
            form.field("seed", seed, label="masking.seed")
            unavailable_panel(TOKENIZER_KINDS, loc)
    with loc.add(gr.Accordion(t("masking.settings"), open=False, elem_id="masking-settings"), label="masking.settings"):
        with gr.Row():
            for name, value, step in (("p", 0.15, 0.01), ("pm", 0.8, 0.05), ("pr", 0.1, 0.05)):
                form.field(name, gr.Slider(0.0, 1.0, value, step=step, label=t(f"masking.{name}")), label=f"masking.{name}")
        with gr.Row():
            form.field("epochs", gr.Slider(1, 20, 6, step=1, label=t("masking.epochs")), label="masking.epochs")
            form.field("prefix", gr.Slider(1, 64, 6, step=1, label=t("masking.prefix")), label="masking.prefix")
            menu = gr.Dropdown(generator_choices("en"), value="auto", label=t("masking.generator"), elem_id="masking-generator")
            form.field("generator", menu, label="masking.generator", choices=generator_choices)
    run = loc.add(gr.Button(t("masking.run"), variant="primary", elem_id="masking-run"), value="masking.run")
    hint = result_hint(loc, "masking.hint")
    with gr.Column(visible=False) as result_area:  # no empty boxes before the first run
        form.output("summary", gr.Markdown(elem_id="masking-summary"))
        form.output("grid", gr.Plot(show_label=False, elem_id="masking-grid"))
        form.output("matrices", gr.Plot(show_label=False, elem_id="masking-matrices", visible=False))
    stats_box = gr.Accordion(t("masking.stats"), open=True, elem_id="masking-stats-box")
    with form.output("stats_box", stats_box, label="masking.stats"):
        with gr.Row():
            draws = gr.Number(2000, precision=0, minimum=1, maximum=MAX_DRAWS, label=t("masking.draws"))
            form.field("draws", draws, label="masking.draws", code=False)
            run_stats = loc.add(gr.Button(t("masking.run_stats"), elem_id="masking-run-stats"), value="masking.run_stats")
        form.output("stats_md", gr.Markdown(elem_id="masking-stats"))
        form.output("stats_fig", gr.Plot(show_label=False, elem_id="masking-stats-plot", visible=False))
    last = form.state("last")  # this user's last MaskingRun: a language switch redraws it, downloads are built from it
    with gr.Column(visible=False) as files_area:
        form.output("files", download_row(loc, export_files, [last, ui.lang], label_key="masking.exports"))
        with loc.add(gr.Accordion(t("masking.json"), open=False), label="masking.json"):
            form.output("data", gr.JSON())
    # Whether the view on screen includes statistics: a link carries it ("stats"), the buttons set it.
    form.output("stats", form.field("stats", gr.Checkbox(False, visible=False), code=False))
    form.result(hint, result_area, files_area)
    form.code_panel(CodePanel(ui), code_request)
    form.action(shown, [strategy.input])  # first: a link runs it; another objective redraws without the button
    form.action(draw, [run.click, text.submit])
    form.action(draw_with_statistics, [run_stats.click])
    form.redraw_on_lang(redraw)  # the kept run, statistics included: no draw runs again
    gr.api(masking_api, api_name="masking")
    return form.share()
