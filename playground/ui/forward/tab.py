"""One forward pass: the whole Transformer on the user's sentence, every stage clickable, switched in the browser."""

from __future__ import annotations


import gradio as gr

from playground.forward import KINDS, MAX_TOP_K, ForwardRequest, run_forward
from playground.forward.passes import MAX_TOKENS
from playground.serialize import jsonable
from playground.ui.common.code_panel import CodePanel
from playground.ui.common.form import Form, Values
from playground.ui.common.i18n import UIContext, t
from playground.ui.common.lab_models import model_menu, session_for
from playground.ui.common.view_script import view_script
from playground.ui.common.widgets import for_request
from playground.ui.common.widgets import download_row, export_json, friendly_errors, model_choices, result_hint
from playground.ui.common.widgets import unavailable_panel
from playground.ui.forward import render
from playground.ui.forward.api import forward_api

EXAMPLES = ["The capital of France is [MASK].", "我爱自然[MASK]处理。", "The animal didn't cross the street because it was"]
# The page's script draws the value (stage, layer, head, temperature switch in the browser): see render.py.
VIEW_JS = view_script("forward_view.js")


def run(f: Values, progress=None):
    """The one backend entry for the page; this session's lab model can be chosen (never cached)."""
    session = session_for(f.token, [f["model"]], f.lang)
    with friendly_errors(f.lang):
        request = ForwardRequest(f["model"], f["text"], f["token"], f["top_k"])
        return run_forward(request, for_request(f.lang, progress).with_session(session))


def show(f: Values, progress=None) -> dict:
    result = run(f, progress)
    return {
        "info": render.info_markdown(result, f.lang),
        "view": render.view_model(result, f.lang),
        "token": gr.update(maximum=len(result.tokens) - 1),  # the slider follows the sentence
    }


def exports(f: Values, progress=None) -> list[str]:
    """The pass as the API returns it, built on click from the cached result."""
    return [export_json(f"forward-{f['model']}.json", jsonable(run(f, progress)))]


def build_tab(ui: UIContext):
    loc, form = ui.loc, Form(ui, "forward")
    loc.add(gr.Markdown(t("forward.intro")), value="forward.intro")
    models = model_choices(KINDS, "en")
    keys = [key for _, key in models]
    default = next((k for k in ("minilm-mlm", "e5-mlm", "smollm2-instruct") if k in keys), keys[0] if keys else None)
    with gr.Row():
        with gr.Column(scale=3):
            box = gr.Textbox(EXAMPLES[0], label=t("forward.text"), info=t("forward.text_info"), lines=2, elem_id="forward-text")
            text = form.field("text", box, label="forward.text", info="forward.text_info")
            gr.Examples([[e] for e in EXAMPLES], [text], label=t("common.examples"), api_visibility="private")
        with gr.Column(scale=2):
            menu = gr.Dropdown(models, value=default, label=t("forward.model"))
            form.field("model", model_menu(ui, menu, KINDS, default, label="forward.model"))
            slider = gr.Slider(-1, MAX_TOKENS - 1, value=-1, step=1, label=t("forward.token"), info=t("forward.token_info"))
            form.field("token", slider, label="forward.token", info="forward.token_info")
            form.field("top_k", gr.Slider(1, MAX_TOP_K, value=5, step=1, label=t("forward.top_k")), label="forward.top_k")
            button = loc.add(gr.Button(t("forward.run"), variant="primary", elem_id="forward-run"), value="forward.run")
    unavailable_panel(KINDS, loc)
    hint = result_hint(loc, "forward.hint")
    with gr.Column(visible=False) as result_area:
        form.output("info", gr.Markdown(elem_classes="tp-provenance", elem_id="forward-info"))
        form.output("view", gr.HTML(None, html_template="<div></div>", js_on_load=VIEW_JS, elem_id="forward-view"))
        download_row(loc, form.files(exports), form.inputs, label_key="forward.files")
    form.output("token", slider)
    form.result(hint, result_area)
    form.code_panel(CodePanel(ui), lambda f: ("forward_block", {"model": f["model"], "text": f["text"], "layer": 0}))
    form.action(show, [button.click, text.submit, slider.release])  # another token asks the server (one pass, cached)
    form.redraw_on_lang()  # the cached pass, drawn in the new language
    gr.api(forward_api, api_name="forward")
    return form.share()
