"""Sampling tab: temperature, top-k and top-p made visible on any causal model, all at once or one token at a time."""

from __future__ import annotations

from typing import Any

import gradio as gr

from playground import checks, sampling
from playground.ui.sampling import run
from playground.ui.common.widgets import download_row, model_choices, result_hint, reveal_after, unavailable_panel
from playground.ui.common.i18n import UIContext, t
from playground.ui.common.code_panel import CodePanel
from playground.ui.common.links import LinkRun, Step, reveal
from playground.ui.common.share import share_link_row

EXAMPLES = ["The future of AI is", "人工智能的未来是", "Once upon a time, in a small village,"]
SETTINGS_JS = "(t, k, p, summary) => (window.tpSampling && window.tpSampling.redraw(t, k, p)) || summary"


def _header(loc, key: str) -> None:
    loc.add(gr.Markdown(t(key, "en")), value=key)


def build_tab(ui: UIContext) -> dict[str, Any]:
    loc = ui.loc
    _header(loc, "sampling.intro")
    with gr.Row(elem_id="sampling-controls"):
        with gr.Column(scale=3):
            prompt = loc.add(
                gr.Textbox(
                    EXAMPLES[0],
                    label=t("sampling.prompt", "en"),
                    info=t("sampling.prompt_info", "en"),
                    lines=2,
                    elem_id="sampling-prompt",
                ),
                label="sampling.prompt",
                info="sampling.prompt_info",
            )
            # api_visibility private: Gradio makes an example list an undocumented but callable /load_example endpoint.
            examples = gr.Examples([[e] for e in EXAMPLES], [prompt], label=t("common.examples", "en"), api_visibility="private")
            loc.add(examples.dataset, label="common.examples")
            model = loc.add(
                gr.Dropdown(model_choices(run.KINDS, "en"), value=run.default_model(), label=t("common.model", "en")),
                label="common.model",
                choices=lambda lang: model_choices(run.KINDS, lang),
            )
            unavailable_panel(run.KINDS, loc)
        with gr.Column(scale=2):
            temperature = loc.add(
                gr.Slider(
                    0,
                    sampling.MAX_TEMPERATURE,
                    value=0.8,
                    step=0.05,
                    label=t("sampling.temperature", "en"),
                    info=t("sampling.temperature_info", "en"),
                ),
                label="sampling.temperature",
                info="sampling.temperature_info",
            )
            top_k = loc.add(
                gr.Slider(0, 100, value=0, step=1, label=t("common.top_k", "en"), info=t("sampling.top_k_info", "en")),
                info="sampling.top_k_info",
            )
            top_p = loc.add(
                gr.Slider(0.05, 1, value=1.0, step=0.01, label=t("sampling.top_p", "en"), info=t("sampling.top_p_info", "en")),
                label="sampling.top_p",
                info="sampling.top_p_info",
            )
            with gr.Row():
                max_new = loc.add(
                    gr.Slider(1, sampling.MAX_NEW_TOKENS, value=40, step=1, label=t("sampling.max_new", "en")),
                    label="sampling.max_new",
                )
                n_samples = loc.add(
                    gr.Slider(1, sampling.MAX_SAMPLES, value=3, step=1, label=t("sampling.samples", "en")),
                    label="sampling.samples",
                )
                seed = gr.Number(0, precision=0, minimum=0, maximum=checks.MAX_SEED, label=t("common.seed", "en"))
                seed = loc.add(seed, label="common.seed")
    with gr.Row():
        next_button = loc.add(gr.Button(t("sampling.next_button", "en"), elem_id="sampling-next"), value="sampling.next_button")
        generate_button = loc.add(
            gr.Button(t("sampling.generate_button", "en"), variant="primary", elem_id="sampling-generate"),
            value="sampling.generate_button",
        )
    info = gr.Markdown(elem_classes="tp-provenance")
    kept = gr.State(None)  # ("next_token" | "generation" | "temperatures", result): what the downloads are built from
    hint = result_hint(loc, "sampling.hint")
    with gr.Column(elem_id="sampling-files", visible=False) as files_area:  # no empty downloads box before a run
        download_row(loc, run.build_downloads, [kept, ui.lang], label_key="sampling.exports")

    # A section's heading shows with its result: before a run these two headed nothing (the walk-through's "empty
    # section headings"); the comparison and step-through headings stay, over their own controls.
    with gr.Column(visible=False, elem_id="sampling-next-area") as next_area:
        _header(loc, "sampling.next_header")
        next_plot = gr.Plot(show_label=False, elem_id="sampling-next-plot")
        next_summary = gr.Markdown()

    with gr.Column(visible=False, elem_id="sampling-generate-area") as generate_area:
        _header(loc, "sampling.generate_header")
        generated = gr.HTML(elem_id="sampling-generated")

    _header(loc, "sampling.compare_header")
    _header(loc, "sampling.compare_info")
    with gr.Row(elem_id="sampling-temps"):
        temps = [
            loc.add(gr.Number(value, minimum=0, maximum=sampling.MAX_TEMPERATURE, step=0.1, label=t(key, "en")), label=key)
            for value, key in zip(run.DEFAULT_TEMPERATURES, ("sampling.t1", "sampling.t2", "sampling.t3"))
        ]
        compare_button = loc.add(
            gr.Button(t("sampling.compare_button", "en"), elem_id="sampling-compare"), value="sampling.compare_button"
        )
    compare_plot = gr.Plot(show_label=False, elem_id="sampling-compare-plot", visible=False)
    compared = gr.HTML(elem_id="sampling-compared")

    _header(loc, "sampling.step_header")
    _header(loc, "sampling.step_info")
    with gr.Row():
        step_button = loc.add(
            gr.Button(t("sampling.step_button", "en"), variant="primary", elem_id="sampling-step"), value="sampling.step_button"
        )
        restart_button = loc.add(
            gr.Button(t("sampling.restart_button", "en"), elem_id="sampling-restart"), value="sampling.restart_button"
        )
    step_status = gr.Markdown(elem_id="sampling-step-status")
    step_plot = gr.Plot(show_label=False, elem_id="sampling-step-plot", visible=False)
    step_text = gr.HTML(elem_id="sampling-step-text")
    sampler = gr.State(None, time_to_live=run.STATE_TTL_S)  # per user, server-side: the prefix's KV cache and RNG
    show = gr.Radio(list(run.LINK_VIEWS), value="next", visible=False)  # the view a link reopens (the last one run)
    for button, view in ((next_button, "next"), (generate_button, "generate"), (compare_button, "compare")):
        button.click(lambda view=view: view, None, show, api_visibility="private", queue=False)

    settings = [temperature, top_k, top_p]
    next_result = gr.State(None)  # this user's next-token result on screen, redrawn on a language switch
    next_inputs, next_outputs = [prompt, model, *settings, ui.lang], [next_plot, next_summary, info, kept, next_result]
    limits = dict(concurrency_id="sampling", concurrency_limit=run.CONCURRENCY, time_limit=run.event_time_limit_s())
    next_clicked = next_button.click(run.next_token_view, next_inputs, next_outputs, api_visibility="private", **limits)
    # A language switch redraws the kept next-token result (no model call); generated samples keep their language.
    ui.on_lang(
        lambda result, lang: run.render_next_token(result, lang) if result is not None else [gr.update()] * 3,
        [next_result, ui.lang],
        [next_plot, next_summary, info],
    )
    generated_event = generate_button.click(
        run.generate_view,
        [prompt, model, *settings, max_new, n_samples, seed, ui.lang],
        [generated, info, kept],
        api_visibility="private",
        **limits,
    )
    compared_event = compare_button.click(
        run.compare_view,
        [prompt, model, *temps, top_k, top_p, max_new, seed, ui.lang],
        [compare_plot, compared, info, kept],
        api_visibility="private",
        **limits,
    )
    reveal_after([compared_event], None, [compare_plot])
    stepped = step_button.click(
        run.step_view,
        [sampler, prompt, model, *settings, max_new, seed, ui.lang],
        [sampler, step_plot, step_text, step_status, info],
        api_visibility="private",
        **limits,
    )
    reveal_after([stepped], None, [step_plot])
    restart_button.click(
        lambda: (None, None, "", ""), None, [sampler, step_plot, step_text, step_status], api_visibility="private", queue=False
    )
    # Another temperature, top-k or top-p redraws the next-token stages in the browser from the logits the figure
    # brought (assets/sampling_redraw.js): no request; the summary under it is rewritten there too.
    for slider in settings:
        slider.input(None, [*settings, next_summary], [next_summary], js=SETTINGS_JS)
    gr.api(run.next_token_api, api_name="next_token", **limits)
    gr.api(run.generate_api, api_name="generate", **limits)
    params = {
        "prompt": prompt,
        "model": model,
        "temperature": temperature,
        "top_k": top_k,
        "top_p": top_p,
        "t1": temps[0],
        "t2": temps[1],
        "t3": temps[2],
        "max_new_tokens": max_new,
        "samples": n_samples,
        "seed": seed,
        "show": show,
    }
    with gr.Column(elem_id="sampling-share"):
        shared = share_link_row("sampling", params, ui)
    # A link restores the inputs, then shows the next-token distribution they give (the cheap, deterministic view).
    # Then the samples or the comparison, when the link was made from them (streamed, in the link's own event).
    steps = (
        Step(run.next_token_view, next_inputs, next_outputs),
        Step(lambda view: gr.update(visible=view == "generate"), [show], [generate_area], joins=True),  # the samples' box
        Step(
            run.linked_extra,
            [show, prompt, model, *settings, max_new, n_samples, seed, *temps, ui.lang],
            [generated, compare_plot, compared, info, kept],
        ),
    )
    reveal_after([next_clicked], None, [next_area])
    # Samples stream into their box: it opens as the run starts (a .success reveal would hide them until the last token)
    generate_button.click(lambda: gr.update(visible=True), None, generate_area, api_visibility="private", queue=False)
    # any result (next token, samples, temperatures) can be downloaded
    reveal_after([next_clicked, generated_event, compared_event], hint, [files_area])
    keys = ("prompt", "model", "temperature", "top_k", "top_p")
    code = CodePanel(ui).after([next_clicked], next_inputs[:-1], lambda *v: ("next_token", dict(zip(keys, v))))
    more = ("max_new_tokens", "n_samples", "seed")
    generate_inputs = [prompt, model, *settings, max_new, n_samples, seed]
    code.after([generated_event], generate_inputs, lambda *v: ("generate", dict(zip(keys + more, v))))
    code.after([stepped], [prompt, model, *settings, max_new, seed], lambda *v: ("step", dict(zip(keys + more[::2], v))))
    compare = ("prompt", "model", "temperatures", "top_k", "top_p", "max_new_tokens", "seed")
    code.after(  # the three temperature boxes are one list
        [compared_event],
        [prompt, model, *temps, top_k, top_p, max_new, seed],
        lambda p, m, *v: ("compare", dict(zip(compare, (p, m, list(v[:3]), *v[3:])))),
    )
    return shared.running(LinkRun(steps, reveal(hint, [next_area, files_area]), (hint,)))
