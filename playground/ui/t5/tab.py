"""Text to text (T5): an encoder-decoder writes its answer one decoder step at a time; every step, the three
attention families and the sampler's stages are switched in the browser from one run."""

from __future__ import annotations


import gradio as gr

from playground import availability
from playground.serialize import jsonable
from playground.t5 import KINDS, MAX_NEW_TOKENS, TextToTextRequest, default_model, run_text_to_text
from playground.sampling.warpers import MAX_TEMPERATURE
from playground.ui.common.code_panel import CodePanel
from playground.ui.common.form import Form, Values
from playground.ui.common.i18n import UIContext, t
from playground.ui.common.view_script import view_script
from playground.ui.common.widgets import download_row, export_json, for_request, friendly_errors, model_choices
from playground.ui.common.widgets import example_menu, result_hint, unavailable_panel
from playground.ui.t5 import render
from playground.ui.t5.api import text_to_text_api

# The course's three examples (t5-small was trained on these prefixes), span corruption, and the classroom T5's
# Chinese <-> English offline. A preset shows only when its model can load here.
PRESETS = [
    ("translate English to German: That is good.", "t5-small"),
    ("sst2 sentence: This movie is great!", "t5-small"),
    (
        "summarize: The students trained a small language model on everyday sentences. It learned to translate short "
        "sentences, but long ones still confuse it, so they plan to train it for longer on more text.",
        "t5-small",
    ),
    ("The <extra_id_0> walks in <extra_id_1> park.", "t5-small"),
    ("translate Chinese to English: 我想喝一杯茶。", "t5-classroom"),
    ("translate English to Chinese: I want to drink a cup of tea.", "t5-classroom"),
]
VIEW_JS = view_script("t5_view.js")


def run(f: Values, progress=None):
    with friendly_errors(f.lang):
        request = TextToTextRequest(**dict(f))  # the form's fields are the request's, by name
        return run_text_to_text(request, for_request(f.lang, progress))


def show(f: Values, progress=None) -> dict:
    result = run(f, progress)
    return {"info": render.info_markdown(result, f.lang), "view": render.view_model(result, f.lang)}


def exports(f: Values, progress=None) -> list[str]:
    """The run as the API returns it, built on click from the cached result."""
    return [export_json(f"text-to-text-{f['model']}.json", jsonable(run(f, progress).to_dict()))]


def build_tab(ui: UIContext):
    loc, form = ui.loc, Form(ui, "t5")
    loc.add(gr.Markdown(t("t5.intro")), value="t5.intro")
    models = model_choices(KINDS, "en")
    keys = [key for _, key in models]
    default = default_model() if keys else None
    ready = {s.key for s in availability.available_specs(*KINDS)}
    presets = [[text, key] for text, key in PRESETS if key in ready]
    first = next((text for text, key in presets if key == default), "translate English to German: That is good.")
    with gr.Row():
        with gr.Column(scale=3):
            box = gr.Textbox(first, label=t("t5.text"), info=t("t5.text_info"), lines=2, elem_id="t5-text")
            text = form.field("text", box, label="t5.text", info="t5.text_info")
            menu = gr.Dropdown(models, value=default, label=t("t5.model"), elem_id="t5-model")
            model = form.field("model", menu, label="t5.model")
            if presets:
                example_menu(loc, text, lambda: presets, [text, model], "t5.presets")
        with gr.Column(scale=2):
            slider = gr.Slider(1, MAX_NEW_TOKENS, value=24, step=1, label=t("t5.max_new_tokens"))
            form.field("max_new_tokens", slider, label="t5.max_new_tokens")
            temp = gr.Slider(0, MAX_TEMPERATURE, value=0, step=0.05, label=t("t5.temperature"))
            form.field("temperature", temp, label="t5.temperature")
            form.field("top_k", gr.Slider(0, 100, value=0, step=1, label=t("t5.top_k")), label="t5.top_k")
            form.field("top_p", gr.Slider(0.05, 1, value=1, step=0.05, label=t("t5.top_p")), label="t5.top_p")
            form.field("seed", gr.Number(0, precision=0, minimum=0, label=t("t5.seed")), label="t5.seed")
            button = loc.add(gr.Button(t("t5.run"), variant="primary", elem_id="t5-run"), value="t5.run")
    unavailable_panel(KINDS, loc)
    hint = result_hint(loc, "t5.hint")
    with gr.Column(visible=False) as result_area:
        form.output("info", gr.Markdown(elem_classes="tp-provenance", elem_id="t5-info"))
        form.output("view", gr.HTML(None, html_template="<div></div>", js_on_load=VIEW_JS, elem_id="t5-view"))
        download_row(loc, form.files(exports), form.inputs, label_key="t5.files")
    form.result(hint, result_area)
    form.code_panel(CodePanel(ui), lambda f: ("text_to_text", f.code_params(form)))
    form.action(show, [button.click, text.submit])
    form.redraw_on_lang()  # the cached run, drawn in the new language
    gr.api(text_to_text_api, api_name="text_to_text")
    return form.share()
