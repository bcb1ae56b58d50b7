"""Masking-strategies tab: BERT, whole-word, dynamic, SpanBERT, XLNet, ELECTRA, T5 and attention masks on one sentence."""

from __future__ import annotations

from typing import Any

import gradio as gr

from playground.masking import OBJECTIVES, TOKENIZER_KINDS, MaskingRequest, run_masking
from playground.masking.electra import generator_options
from playground.checks import MAX_SEED
from playground.masking.stats import MAX_DRAWS
from playground.registry import get_spec
from playground.serialize import jsonable
from playground.ui.common.widgets import (
    download_row,
    friendly_errors,
    label_in,
    model_choices,
    result_hint,
    reveal_after,
    unavailable_panel,
)
from playground.ui.common.widgets import for_request
from playground.ui.common.i18n import t
from playground.ui.masking.render import export_files, render
from playground.ui.common.code_panel import code_panel
from playground.ui.common.links import LinkRun, Step, reveal
from playground.ui.common.share import share_link_row

DEFAULT_TEXT = "The unbelievable tokenizer splits playground sentences into subword pieces."

# How each generator kind is named in the menu (the backend lists which can run here).
GENERATOR_LABELS = {
    "auto": lambda key, lang: t("masking.gen_auto", lang),
    "masked": lambda key, lang: label_in(get_spec(key).label, lang),
    "causal": lambda key, lang: t("masking.gen_causal", lang, label=label_in(get_spec(key).label, lang)),
    "uniform": lambda key, lang: t("masking.gen_uniform", lang),
}


def generator_choices(lang: str) -> list[tuple[str, str]]:
    """auto, the available masked LMs, the causal filler on each available causal LM, uniform."""
    return [(GENERATOR_LABELS[kind](key, lang), f"{kind}:{key}" if key else kind) for kind, key in generator_options()]


def _strategy_choices(lang: str) -> list[tuple[str, str]]:
    return [(t(f"masking.s.{key}", lang), key) for key in OBJECTIVES]


def _run(text, model, strategy, seed, p, pm, pr, epochs, prefix_len, generator, draws, lang, progress=None):
    """Build the request and call the backend; InputError becomes gr.Error in the user's language."""
    with friendly_errors(lang):
        request = MaskingRequest(
            text=text,
            model=model,
            strategy=strategy,
            seed=seed,
            mlm_probability=p,
            mask_replace_prob=pm,
            random_replace_prob=pr,
            epochs=epochs,
            prefix_len=prefix_len,
            generator=generator,
            draws=draws,
        )  # raw: the backend checks every type and range (run_masking -> checks.validate)
        return run_masking(request, for_request(lang, progress))  # a failed load comes back as one InputError


def masking_api(
    text: str,
    model: str = "minilm",  # every parameter is checked on the server: a wrong type gets a clear message
    strategy: str = "bert",
    seed: int = 0,
    mlm_probability: float = 0.15,
    mask_replace_prob: float = 0.8,
    random_replace_prob: float = 0.1,
    epochs: int = 6,
    prefix_len: int = 6,
    generator: str = "auto",
    draws: int = 0,
    lang: str = "en",
) -> dict:
    """One draw of a masking objective on `text` (and its statistics over `draws` draws), as JSON.

    Args:
        text: at most 2,000 characters (the first 64 tokens are used).
        model: the registry key whose tokenizer is used (e.g. "minilm", "bert", "roberta", "bert-chinese").
        strategy: "bert", "wwm", "dynamic", "span", "permutation", "electra", "t5" or "attention".
        seed: a whole number from 0 to 4294967295.
        mlm_probability: the share of tokens chosen, from 0 to 1.
        mask_replace_prob: of those, the share replaced by the mask token, from 0 to 1.
        random_replace_prob: of those, the share replaced by a random token, from 0 to 1 (the two sum to at most 1).
        epochs: "dynamic" only: how many epochs to draw, 1 to 20.
        prefix_len: "attention" (UniLM) only: the source length, 1 to 64.
        generator: "electra" only: "auto", "masked:<key>", "causal:<key>" or "uniform".
        draws: statistics over this many draws, 0 (none) to 10,000.
        lang: "en" or "zh", the language of messages and labels in the result.
    """
    run = _run(
        text,
        model,
        strategy,
        seed,
        mlm_probability,
        mask_replace_prob,
        random_replace_prob,
        epochs,
        prefix_len,
        generator,
        draws,
        lang,
    )
    return jsonable(run)


def _shown(fig):
    return gr.update(value=fig, visible=fig is not None)  # no empty plot boxes


def _view(run, lang):
    summary, grid, matrices, stats_md, stats_fig, data = render(run, lang)
    return summary, grid, _shown(matrices), stats_md, _shown(stats_fig), data


def run_view(text, model, strategy, seed, p, pm, pr, epochs, prefix_len, generator, draws, lang, progress=gr.Progress()):
    """The page's events: run, keep the run, draw it; stale downloads are cleared."""
    run = _run(text, model, strategy, seed, p, pm, pr, epochs, prefix_len, generator, draws, lang, progress)
    return (*_view(run, lang), run, None)


def has_statistics(strategy: str) -> Any:
    """The statistics box is shown for an objective with a statistics mode only."""
    row = OBJECTIVES.get(strategy)
    return gr.update(visible=row is not None and row.stats is not None)


def build_tab(ui) -> dict:
    loc = ui.loc
    loc.add(gr.Markdown(t("masking.intro")), value="masking.intro")
    with gr.Row():
        with gr.Column(scale=3):
            text = loc.add(
                gr.Textbox(DEFAULT_TEXT, label=t("masking.text"), info=t("masking.text_info"), lines=2, elem_id="masking-text"),
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
            model = loc.add(
                gr.Dropdown(models, value=default, label=t("masking.model"), elem_id="masking-model"),
                label="masking.model",
                choices=lambda lang: model_choices(TOKENIZER_KINDS, lang),
            )
            seed = loc.add(
                gr.Number(0, precision=0, minimum=0, maximum=MAX_SEED, label=t("masking.seed"), elem_id="masking-seed"),
                label="masking.seed",
            )
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
    hint = result_hint(loc, "masking.hint")
    with gr.Column(visible=False) as result_area:  # no empty boxes before the first run
        summary = gr.Markdown(elem_id="masking-summary")
        grid = gr.Plot(show_label=False, elem_id="masking-grid")
        matrices = gr.Plot(show_label=False, elem_id="masking-matrices", visible=False)
    with loc.add(gr.Accordion(t("masking.stats"), open=True, elem_id="masking-stats-box"), label="masking.stats") as stats_box:
        with gr.Row():
            draws = loc.add(
                gr.Number(2000, precision=0, minimum=1, maximum=MAX_DRAWS, label=t("masking.draws")), label="masking.draws"
            )
            run_stats = loc.add(gr.Button(t("masking.run_stats"), elem_id="masking-run-stats"), value="masking.run_stats")
        stats_md = gr.Markdown(elem_id="masking-stats")
        stats_fig = gr.Plot(show_label=False, elem_id="masking-stats-plot", visible=False)
    kept = gr.State(None)  # this user's last MaskingRun: a language switch redraws it, downloads are built from it
    with gr.Column(visible=False) as files_area:
        files = download_row(loc, export_files, [kept, ui.lang], label_key="masking.exports")
        with loc.add(gr.Accordion(t("masking.json"), open=False), label="masking.json"):
            data = gr.JSON()
    no_draws = gr.Number(0, visible=False)
    with_stats = gr.Checkbox(False, visible=False)  # the shown view includes statistics: a link carries it ("stats")

    inputs = [text, model, strategy, seed, p, pm, pr, epochs, prefix, generator]
    outputs = [summary, grid, matrices, stats_md, stats_fig, data, kept, files]
    runs = [
        # Progress on the hint too: before the first result it is what the student looks at.
        run.click(run_view, inputs + [no_draws, ui.lang], outputs, api_visibility="private", show_progress_on=[hint, *outputs]),
        run_stats.click(
            run_view, inputs + [draws, ui.lang], outputs, api_visibility="private", show_progress_on=[hint, *outputs]
        ),
    ]
    run.click(lambda: False, None, with_stats, api_visibility="private", queue=False)
    run_stats.click(lambda: True, None, with_stats, api_visibility="private", queue=False)
    # A language switch redraws the kept run, statistics included: no model and no draw runs again.
    ui.on_lang(lambda run, lang: [gr.update()] * 6 if run is None else _view(run, lang), [kept, ui.lang], outputs[:6])
    # Statistics are offered only for objectives that have them (ELECTRA needs a model pass per draw, the attention
    # families are deterministic): the box is not shown rather than refusing after a click.
    strategy.input(has_statistics, strategy, stats_box, api_visibility="private", queue=False)
    gr.api(masking_api, api_name="masking")
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
        "generator": generator,
        "draws": draws,
        "stats": with_stats,
    }
    shared = share_link_row("masking", params, ui)

    def link_view(*args, progress=gr.Progress()):
        *fields, draws_, stats_, lang = args
        return run_view(*fields, draws_ if stats_ else 0, lang, progress=progress)

    reveal_after(runs, hint, [result_area, files_area])
    names = ("text", "model", "strategy", "seed", "mlm_probability", "mask_replace_prob", "random_replace_prob")
    names += ("epochs", "prefix_len", "generator")
    panel = code_panel(ui, runs, inputs, lambda *v: ("masking", dict(zip(names, v))))
    # A link fills the inputs and runs the view on them in its own event (one draw, as "Mask it", or with its
    # statistics when the link says stats=true: lesson 4 shows the 80/10/10 it talks about).
    step = Step(link_view, inputs + [draws, with_stats, ui.lang], outputs)
    # The statistics box joins the result: as the first update it opened the result area and hid the hint's progress.
    box = Step(has_statistics, [strategy], [stats_box], joins=True)
    return shared.running(LinkRun((step, box, panel.link_step), reveal(hint, [result_area, files_area]), (hint,)))
