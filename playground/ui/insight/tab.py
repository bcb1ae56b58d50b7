"""Look inside a prediction: one radio picks a view (a row of views.VIEWS); one click runs it and draws it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import gradio as gr

from playground.insight.attribution import MAX_STEPS
from playground.insight.knockout import MAX_TOP_K
from playground.probes import LANGS, PROBED
from playground.registry import get_spec
from playground.serialize import jsonable
from playground.ui.common.code_panel import CodePanel
from playground.ui.common.form import Form, Values
from playground.ui.common.i18n import UIContext, t
from playground.ui.common.lab_models import model_menu, session_for
from playground.ui.common.widgets import download_row, export_json, for_request, friendly_errors, model_choices
from playground.ui.common.widgets import example_menu, provenance, result_hint, unavailable_panel
from playground.ui.insight import views
from playground.ui.insight.api import (
    insight_attribution_api,
    insight_knockout_api,
    insight_lens_api,
    insight_patching_api,
    insight_probes_api,
)

EXAMPLES = [
    ["The capital of France is [MASK].", "The capital of Italy is [MASK]."],
    ["我爱自然[MASK]处理。", "我爱中国[MASK]处理。"],
    ["The keys to the cabinet", "The key to the cabinets"],
]
OPTIONS = ("top_k", "head_layer", "head", "steps", "heads", "source", "patch_layer", "position", "probe_model", "probe_lang")
MAX_LAYER = 63


def _view(f: Values) -> views.View:
    return views.BY_KEY.get(f["view"], views.VIEWS[0])  # a link's unknown view reads as the first


def show(f: Values, progress=None) -> dict[str, Any]:
    """Run the chosen view and draw it."""
    view = _view(f)
    session = session_for(f.token, [f["model"]], f.lang)
    with friendly_errors(f.lang):
        result = view.run(f, for_request(f.lang, progress).with_session(session))
    return draw(replace(f, extra={**f.extra, "last": (view.key, result)}))


def draw(f: Values, progress=None) -> dict[str, Any]:
    """The kept result in the page's language (also a language switch: no model runs again)."""
    key, result = f.extra["last"]
    view = views.BY_KEY[key]
    layers = getattr(result, "layers", MAX_LAYER + 1)
    layers = layers if isinstance(layers, int) else len(layers)  # the probes give their layers' numbers
    sizes = {"head_layer": layers - 1, "patch_layer": layers - 1, "head": getattr(result, "heads", MAX_LAYER + 1) - 1}
    return {
        # every result names its model and device; a row whose result does not (several models) shows none here
        "info": provenance(result.model_id, result.device, f.lang) if hasattr(result, "model_id") else "",
        "reading": view.reading(result, f.lang),
        "plot": view.figure(result, f.lang),
        "detail": view.detail(result, f.lang),
        "last": (key, result),
        # the chosen view's options shown (the others hidden), the sliders fitted to this model's layers and heads
        **{
            f"opt_{name}": gr.update(visible=name in view.fields, **({"maximum": sizes[name]} if name in sizes else {}))
            for name in OPTIONS
        },
        **{name: gr.update(visible=view.reads_text) for name in ("opt_text", "opt_model")},  # the probes read neither
    }


def exports(f: Values, progress=None) -> list[str]:
    key, result = f.extra.get("last") or (None, None)
    return [export_json(f"insight-{key}.json", jsonable(result))] if result is not None else []


def build_tab(ui: UIContext):
    loc, form = ui.loc, Form(ui, "insight")
    loc.add(gr.Markdown(t("insight.intro")), value="insight.intro")
    kinds = views.menu_kinds()
    models = model_choices(kinds, "en")
    keys = [key for _, key in models]
    default = next((k for k in ("minilm-mlm", "e5-mlm", "smollm2-instruct") if k in keys), keys[0] if keys else None)
    radio = gr.Radio([(t(f"insight.view.{v.key}"), v.key) for v in views.VIEWS], value="lens", label=t("insight.view"),
                     elem_id="insight-view")  # fmt: skip
    loc.add(radio, label="insight.view", choices=lambda lang: [(t(f"insight.view.{v.key}", lang), v.key) for v in views.VIEWS])
    form.field("view", radio)
    with gr.Row():
        with gr.Column(scale=3) as sentence:  # the sentence and its examples: hidden for a view that reads neither
            box = gr.Textbox(
                EXAMPLES[0][0], label=t("insight.text"), info=t("insight.text_info"), lines=2, elem_id="insight-text"
            )
            text = form.field("text", box, label="insight.text", info="insight.text_info")
            source = form.field("source", gr.Textbox(EXAMPLES[0][1], label=t("insight.source"), info=t("insight.source_info"),
                                                     lines=1, visible=False, elem_id="insight-source"),
                                label="insight.source", info="insight.source_info")  # fmt: skip
            example_menu(loc, text, lambda: EXAMPLES, [text, source], "common.examples")
        with gr.Column(scale=2):
            menu = gr.Dropdown(models, value=default, label=t("insight.model"))
            form.output("opt_model", form.field("model", model_menu(ui, menu, kinds, default, label="insight.model")))
            option = {
                "top_k": (gr.Slider(1, MAX_TOP_K, value=5, step=1, label=t("insight.top_k")), dict(label="insight.top_k")),
                "head_layer": (gr.Slider(-1, MAX_LAYER, value=-1, step=1, label=t("insight.head_layer"), visible=False),
                               dict(label="insight.head_layer")),
                "head": (gr.Slider(0, MAX_LAYER, value=0, step=1, label=t("insight.head"), visible=False),
                         dict(label="insight.head")),
                "steps": (gr.Slider(2, MAX_STEPS, value=32, step=1, label=t("insight.steps"), info=t("insight.steps_info"),
                                    visible=False), dict(label="insight.steps", info="insight.steps_info")),
                "heads": (gr.Textbox("", label=t("insight.heads"), info=t("insight.heads_info"), visible=False,
                                     elem_id="insight-heads"), dict(label="insight.heads", info="insight.heads_info")),
                "patch_layer": (gr.Slider(0, MAX_LAYER, value=0, step=1, label=t("insight.patch_layer"), visible=False),
                                dict(label="insight.patch_layer")),
                "position": (gr.Slider(-1, 127, value=-1, step=1, label=t("insight.position"), visible=False),
                             dict(label="insight.position")),
                "probe_model": (gr.Dropdown([(get_spec(k).label, k) for k in PROBED], value=PROBED[0], visible=False,
                                            label=t("insight.probe_model"), elem_id="insight-probe-model"),
                                dict(label="insight.probe_model")),
                "probe_lang": (gr.Radio([(t(f"insight.probe_lang.{x}"), x) for x in LANGS], value="en", visible=False,
                                        label=t("insight.probe_lang"), elem_id="insight-probe-lang"),
                               dict(label="insight.probe_lang",
                                    choices=lambda lang: [(t(f"insight.probe_lang.{x}", lang), x) for x in LANGS])),
            }  # fmt: skip
            for name, (component, labels) in option.items():
                form.output(f"opt_{name}", form.field(name, component, **labels))
            form.output("opt_source", source)
            form.output("opt_text", sentence)
            button = loc.add(gr.Button(t("insight.run"), variant="primary", elem_id="insight-run"), value="insight.run")
    unavailable_panel(kinds, loc)
    hint = result_hint(loc, "insight.hint")
    with gr.Column(visible=False) as result_area:
        form.output("info", gr.Markdown(elem_classes="tp-provenance", elem_id="insight-info"))
        form.output("reading", gr.Markdown(elem_id="insight-reading"))
        form.output("plot", gr.Plot(elem_id="insight-plot"))
        form.output("detail", gr.HTML(elem_id="insight-detail"))
        form.state("last")
        download_row(loc, form.files(exports), form.inputs, label_key="insight.files")
    form.result(hint, result_area)
    form.code_panel(CodePanel(ui), lambda f: _view(f).code(f))
    form.action(show, [button.click, text.submit, radio.input])  # choosing a view runs it: one request (a user's choice only)
    form.redraw_on_lang(draw)
    gr.api(insight_lens_api, api_name="insight_lens")
    gr.api(insight_attribution_api, api_name="insight_attribution")
    gr.api(insight_knockout_api, api_name="insight_knockout")
    gr.api(insight_patching_api, api_name="insight_patching")
    gr.api(insight_probes_api, api_name="insight_probes")
    return form.share()
