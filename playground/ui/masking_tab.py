"""Masking-strategies tab: BERT, whole-word, dynamic, SpanBERT, XLNet, ELECTRA, T5 and attention masks on one sentence."""

from __future__ import annotations

import gradio as gr

from playground.masking_stats import MAX_DRAWS
from playground.ui.common import model_choices, unavailable_panel
from playground.ui.i18n import t
from playground.ui.masking_run import STRATEGIES, TOKENIZER_KINDS, generator_choices, run_masking
from playground.ui.share import share_link_row

DEFAULT_TEXT = "The unbelievable tokenizer splits playground sentences into subword pieces."


def _strategy_choices(lang: str) -> list[tuple[str, str]]:
    return [(t(f"masking.s.{key}", lang), key) for key in STRATEGIES]


def build_tab(ui) -> dict:
    loc = ui.loc
    loc.add(gr.Markdown(t("masking.intro")), value="masking.intro")
    with gr.Row():
        with gr.Column(scale=3):
            text = loc.add(
                gr.Textbox(DEFAULT_TEXT, label=t("masking.text"), info=t("masking.text_info"), lines=2),
                label="masking.text",
                info="masking.text_info",
            )
            strategy = loc.add(
                gr.Radio(_strategy_choices("en"), value="bert", label=t("masking.strategy"), elem_id="masking-strategy"),
                label="masking.strategy",
                choices=_strategy_choices,
            )
        with gr.Column(scale=2):
            models = model_choices(TOKENIZER_KINDS, "en")
            default = next((k for _, k in models if k == "minilm"), models[0][1] if models else None)
            model = loc.add(gr.Dropdown(models, value=default, label=t("masking.model")), label="masking.model")
            seed = loc.add(gr.Number(0, precision=0, label=t("masking.seed")), label="masking.seed")
            unavailable_panel(TOKENIZER_KINDS, loc)
    with loc.add(gr.Accordion(t("masking.settings"), open=False, elem_id="masking-settings"), label="masking.settings"):
        with gr.Row():
            p = loc.add(gr.Slider(0.0, 1.0, 0.15, step=0.01, label=t("masking.p")), label="masking.p")
            pm = loc.add(gr.Slider(0.0, 1.0, 0.8, step=0.05, label=t("masking.pm")), label="masking.pm")
            pr = loc.add(gr.Slider(0.0, 1.0, 0.1, step=0.05, label=t("masking.pr")), label="masking.pr")
        with gr.Row():
            epochs = loc.add(gr.Slider(1, 20, 6, step=1, label=t("masking.epochs")), label="masking.epochs")
            prefix = loc.add(gr.Slider(1, 64, 6, step=1, label=t("masking.prefix")), label="masking.prefix")
            generator = loc.add(
                gr.Dropdown(generator_choices("en"), value="auto", label=t("masking.generator"), elem_id="masking-generator"),
                label="masking.generator",
                choices=generator_choices,
            )
    run = loc.add(gr.Button(t("masking.run"), variant="primary", elem_id="masking-run"), value="masking.run")
    summary = gr.Markdown(elem_id="masking-summary")
    grid = gr.Plot(elem_id="masking-grid")
    matrices = gr.Plot(elem_id="masking-matrices", visible=False)
    with loc.add(gr.Accordion(t("masking.stats"), open=True), label="masking.stats"):
        with gr.Row():
            draws = loc.add(
                gr.Number(2000, precision=0, minimum=1, maximum=MAX_DRAWS, label=t("masking.draws")), label="masking.draws"
            )
            run_stats = loc.add(gr.Button(t("masking.run_stats"), elem_id="masking-run-stats"), value="masking.run_stats")
        stats_md = gr.Markdown(elem_id="masking-stats")
        stats_fig = gr.Plot(elem_id="masking-stats-plot", visible=False)
    files = loc.add(gr.File(file_count="multiple", label=t("masking.exports"), interactive=False), label="masking.exports")
    with loc.add(gr.Accordion(t("masking.json"), open=False), label="masking.json"):
        data = gr.JSON()
    no_draws = gr.Number(0, visible=False)

    inputs = [text, model, strategy, seed, p, pm, pr, epochs, prefix, generator]
    outputs = [summary, grid, matrices, stats_md, stats_fig, data, files]
    shown_draws = gr.State(None)  # None before any run; else the draws of the statistics on screen (0 = none)
    run.click(run_masking, inputs + [no_draws, ui.lang], outputs, api_name="masking").success(
        lambda: 0, None, shown_draws, api_visibility="private"
    )
    run_stats.click(run_masking, inputs + [draws, ui.lang], outputs, api_visibility="private").success(
        lambda n: n, draws, shown_draws, api_visibility="private"
    )
    # A language switch redraws what is on screen, statistics included; model passes come from cache.
    ui.lang.change(
        lambda n, *args: [gr.update()] * len(outputs) if n is None else run_masking(*args[:-1], n, args[-1], progress=None),
        [shown_draws] + inputs + [ui.lang],
        outputs,
        api_visibility="private",
    )
    params = {
        "text": text,
        "model": model,
        "strategy": strategy,
        "seed": seed,
        "p": p,
        "pm": pm,
        "pr": pr,
        "epochs": epochs,
        "prefix": prefix,
        "draws": draws,
    }
    share_link_row("masking", params, loc)
    return params
