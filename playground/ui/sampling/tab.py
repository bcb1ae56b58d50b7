"""Sampling tab: temperature, top-k and top-p made visible on any causal model, all at once or one token at a time."""

from __future__ import annotations

import gradio as gr

from playground import checks, sampling
from playground.ui.common.code_panel import CodePanel
from playground.ui.common.form import Form
from playground.ui.common.i18n import UIContext, t
from playground.ui.common.widgets import download_row, example_menu, model_choices, result_hint, unavailable_panel
from playground.ui.sampling import run
from playground.ui.sampling.api import generate_api, next_token_api

# (prompt, the language it is in): a Chinese example picks the model that reads Chinese (offline: the classroom GPT)
EXAMPLES = [("The future of AI is", "en"), ("人工智能的未来是", "zh"), ("Once upon a time, in a small village,", "en")]
SETTINGS_JS = "(t, k, p, summary) => (window.tpSampling && window.tpSampling.redraw(t, k, p)) || summary"


def example_rows() -> list[list[str | None]]:
    """Each example with the model it runs on: the page's default, or for Chinese the first model that reads it."""
    default = run.default_model()
    return [[text, (run.default_model(lang) or default) if lang != "en" else default] for text, lang in EXAMPLES]


def _button(loc, key: str, elem_id: str, **kwargs):
    return loc.add(gr.Button(t(f"sampling.{key}"), elem_id=elem_id, **kwargs), value=f"sampling.{key}")


def _header(loc, key: str):
    return loc.add(gr.Markdown(t(key, "en")), value=key)


def build_tab(ui: UIContext):
    loc, form = ui.loc, Form(ui, "sampling")
    _header(loc, "sampling.intro")
    with gr.Row(elem_id="sampling-controls"):
        with gr.Column(scale=3):
            box = gr.Textbox(EXAMPLES[0][0], label=t("sampling.prompt"), info=t("sampling.prompt_info"), lines=2,
                             elem_id="sampling-prompt")  # fmt: skip
            prompt = form.field("prompt", box, label="sampling.prompt", info="sampling.prompt_info")
            menu = gr.Dropdown(model_choices(run.KINDS, "en"), value=run.default_model(), label=t("common.model"))
            model = form.field("model", menu, label="common.model", choices=lambda lang: model_choices(run.KINDS, lang))
            # A dataset of prompts (an Examples table with a model column showed its English headers on a Chinese page):
            # a click puts the prompt and its model in place, in the browser's one request.
            example_menu(loc, prompt, example_rows, [prompt, model], "common.examples")
            unavailable_panel(run.KINDS, loc)
        with gr.Column(scale=2):
            sliders = {
                "temperature": (0, sampling.MAX_TEMPERATURE, 0.8, 0.05, "sampling.temperature", "sampling.temperature_info"),
                "top_k": (0, 100, 0, 1, "common.top_k", "sampling.top_k_info"),
                "top_p": (0.05, 1, 1.0, 0.01, "sampling.top_p", "sampling.top_p_info"),
            }
            settings = [
                form.field(name, gr.Slider(low, high, value=value, step=step, label=t(label), info=t(info)), label=label,
                           info=info)
                for name, (low, high, value, step, label, info) in sliders.items()
            ]  # fmt: skip
            with gr.Row():
                for name, high, value, label in (
                    ("max_new_tokens", sampling.MAX_NEW_TOKENS, 40, "sampling.max_new"),
                    ("samples", sampling.MAX_SAMPLES, 3, "sampling.samples"),
                ):
                    form.field(name, gr.Slider(1, high, value=value, step=1, label=t(label)), label=label)
                seed = gr.Number(0, precision=0, minimum=0, maximum=checks.MAX_SEED, label=t("common.seed"))
                form.field("seed", seed, label="common.seed")
    with gr.Row():
        next_button = _button(loc, "next_button", "sampling-next")
        generate_button = _button(loc, "generate_button", "sampling-generate", variant="primary")
    form.output("info", gr.Markdown(elem_classes="tp-provenance", elem_id="sampling-info"))
    kept = form.state("kept")  # ("next_token" | "generation" | "temperatures", result): what the downloads are built from
    form.state("next_result")  # this user's next-token result on screen, redrawn on a language switch
    form.state("sampler", time_to_live=run.STATE_TTL_S)  # per user, server-side: the prefix's KV cache and RNG
    hint = result_hint(loc, "sampling.hint")
    with gr.Column(elem_id="sampling-files", visible=False) as files_area:  # no empty downloads box before a run
        download_row(loc, run.build_downloads, [kept, ui.lang], label_key="sampling.exports")

    # A section's heading shows with its result (before a run these headed nothing); the comparison and step-through
    # headings stay, over their own controls.
    with form.output("next_area", gr.Column(visible=False, elem_id="sampling-next-area")):
        _header(loc, "sampling.next_header")
        form.output("next_plot", gr.Plot(show_label=False, elem_id="sampling-next-plot"))
        next_summary = form.output("next_summary", gr.Markdown())
    with form.output("generate_area", gr.Column(visible=False, elem_id="sampling-generate-area")):
        _header(loc, "sampling.generate_header")
        form.output("generated", gr.HTML(elem_id="sampling-generated"))

    _header(loc, "sampling.compare_header")
    _header(loc, "sampling.compare_info")
    with gr.Row(elem_id="sampling-temps"):
        for name, value in zip(("t1", "t2", "t3"), run.DEFAULT_TEMPERATURES):
            box = gr.Number(value, minimum=0, maximum=sampling.MAX_TEMPERATURE, step=0.1, label=t(f"sampling.{name}"))
            form.field(name, box, label=f"sampling.{name}")
        compare_button = _button(loc, "compare_button", "sampling-compare")
    form.output("compare_plot", gr.Plot(show_label=False, elem_id="sampling-compare-plot", visible=False))
    form.output("compared", gr.HTML(elem_id="sampling-compared"))

    _header(loc, "sampling.step_header")
    _header(loc, "sampling.step_info")
    with gr.Row():
        step_button = _button(loc, "step_button", "sampling-step", variant="primary")
        restart_button = _button(loc, "restart_button", "sampling-restart")
    step_outputs = [
        form.output("step_status", gr.Markdown(elem_id="sampling-step-status")),
        form.output("step_plot", gr.Plot(show_label=False, elem_id="sampling-step-plot", visible=False)),
        form.output("step_text", gr.HTML(elem_id="sampling-step-text")),
    ]
    # The view a link reopens (the last one shown): each view's handler sets it in its own answer.
    show = gr.Radio(list(run.LINK_VIEWS), value="next", visible=False)
    form.output("show", form.field("show", show, code=False))
    form.result(hint, files_area)
    form.code_panel(CodePanel(ui), run.shown_code)

    limits = dict(concurrency_id="sampling", concurrency_limit=run.CONCURRENCY, time_limit=run.event_time_limit_s())
    form.action(run.linked, [], code=run.shown_code)  # first: what a link runs (next token, then the view it names)
    for button, (name, view) in zip((next_button, generate_button, compare_button), run.VIEWS.items()):
        form.action(view.handler or run.next_token, [button.click], code=view.code, **limits)
    form.action(run.step, [step_button.click], code=run.STEP_CODE, **limits)
    sampler = form.states["sampler"]
    restart_button.click(
        lambda: (None, "", gr.update(value=None, visible=False), ""), None, [sampler, *step_outputs], api_visibility="private",
        queue=False,
    )  # fmt: skip
    form.redraw_on_lang(run.redraw)  # the kept next-token result; generated samples keep their language
    # Another temperature, top-k or top-p redraws the next-token stages in the browser from the logits the figure
    # brought (assets/sampling_redraw.js): no request; the summary under it is rewritten there too.
    for slider in settings:
        slider.input(None, [*settings, next_summary], [next_summary], js=SETTINGS_JS)
    gr.api(next_token_api, api_name="next_token", **limits)
    gr.api(generate_api, api_name="generate", **limits)
    with gr.Column(elem_id="sampling-share"):
        return form.share()
