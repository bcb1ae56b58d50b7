"""ELMo tab: the layer mix on fixed axes, the biLM's two one-sided directions, out-of-vocabulary words.

One field table (Form); each view is one row of VIEWS (its handler, its place: hint, areas, Code panel) and a click is
one request; the /elmo_* endpoints are in api.py, the drawing in render.py. A slider's move recomputes only the mix
and its projection (the per-layer vectors are cached in the backend).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import gradio as gr

from playground.elmo.views import DEFAULT_SENTENCES, DEFAULT_WORD
from playground.ui.common.code_panel import CodePanel
from playground.ui.common.form import Form, Place, Values
from playground.ui.common.i18n import choices, t
from playground.ui.common.widgets import download_row, export_json, model_choices, result_hint, unavailable_panel
from playground.ui.elmo import api, render
from playground.ui.elmo.api import CODE, DEFAULT_BILM, KINDS, DEFAULT_MODEL, DEFAULT_OOV, PRESET_KEYS, PRESETS, SLIDERS
from playground.ui.elmo.api import preset_of  # noqa: F401 (the tab's name for it: tests, lessons)

# view -> its result drawn in the page's language (`f`: the event's values, for the mix shown before and the model)
DRAW = {
    "mix": lambda r, f: render.mix_outputs(r, f.extra["previous"], f.lang),
    "bilm": lambda r, f: render.bilm_outputs(r, f["model"], f.lang),
    "oov": lambda r, f: render.oov_outputs(r, f["model"], f.lang),
}


def show_mix(f: Values, progress=None) -> dict[str, Any]:
    """The mix of the sliders; the reading compares it with the mix shown before."""
    result = api.mix(f["model"], f["word"], f["sentences"], *(f[s] for s in SLIDERS), f["gamma"], f.lang, progress)
    return render.mix_outputs(result, f.extra["mix"], f.lang) | {"mix": result, "previous": f.extra["mix"]}


def use_preset(f: Values, progress=None) -> dict[str, Any]:
    """A preset chosen: its raw scores into the sliders and the mix drawn with them, in the same request."""
    values = PRESETS.get(f["preset"])
    if values is None:  # "custom" names what the sliders already are: their mix
        return show_mix(f, progress)
    moved = replace(f, fields={**f.fields, **dict(zip(SLIDERS, values))})
    return show_mix(moved, progress) | {s: gr.update(value=v) for s, v in zip(SLIDERS, values)}


def name_preset(f: Values, progress=None) -> dict[str, Any]:
    return {"preset": preset_of(*(f[s] for s in SLIDERS))}  # a moved slider (or a link's values) renames the radio


def show_bilm(f: Values, progress=None) -> dict[str, Any]:
    result = api.bilm(f["model"], f["bilm_sentence"], f["top_k"], f.lang, progress)
    return render.bilm_outputs(result, f["model"], f.lang) | {"bilm": result}


def show_oov(f: Values, progress=None) -> dict[str, Any]:
    result = api.oov(f["model"], f["oov_words"], f.lang, progress)
    return render.oov_outputs(result, f["model"], f.lang) | {"oov": result}


def redraw(f: Values, progress=None) -> dict[str, Any]:
    """A language switch redraws each kept result; nothing is recomputed."""
    return {k: v for view, draw in DRAW.items() if f.extra[view] is not None for k, v in draw(f.extra[view], f).items()}


def exports(f: Values, progress=None) -> list[str]:
    return [export_json(f"elmo_{view}.json", f.extra[view]) for view in ("mix", "bilm", "oov") if f.extra[view] is not None]


def mix_inputs(form: Form) -> None:
    with gr.Row():
        with gr.Column(scale=2):
            form.field("word", gr.Textbox(DEFAULT_WORD, label=t("elmo.mix.word"), max_lines=1), label="elmo.mix.word")
            box = gr.Textbox(DEFAULT_SENTENCES, lines=8, max_lines=24, label=t("elmo.mix.sentences"))
            form.field("sentences", box, label="elmo.mix.sentences")
        with gr.Column(scale=1):
            radio = gr.Radio(choices(PRESET_KEYS, "en"), value="equal", label=t("elmo.mix.preset"), elem_id="elmo-preset")
            form.output("preset", form.field("preset", radio, link=False, code=False, label="elmo.mix.preset",
                                             choices=lambda lang: choices(PRESET_KEYS, lang)))  # fmt: skip
            for k, name in enumerate(SLIDERS):
                slider = gr.Slider(-4, 4, value=0.0, step=0.1, label=t(f"elmo.mix.s{k}"), elem_id=f"elmo-s{k}")
                form.output(name, form.field(name, slider, label=f"elmo.mix.s{k}"))
            slider = gr.Slider(0.1, 2.0, value=1.0, step=0.05, label=t("elmo.mix.gamma"), elem_id="elmo-gamma")
            form.field("gamma", slider, label="elmo.mix.gamma")


def bilm_inputs(form: Form) -> None:
    with gr.Row():
        box = gr.Textbox(DEFAULT_BILM, label=t("elmo.bilm.sentence"), max_lines=2, scale=4)
        form.field("bilm_sentence", box, label="elmo.bilm.sentence")
        slider = gr.Slider(1, 10, value=3, step=1, label=t("elmo.bilm.top_k"), scale=1)
        form.field("top_k", slider, link=False, label="elmo.bilm.top_k")


def oov_inputs(form: Form) -> None:
    form.field("oov_words", gr.Textbox(DEFAULT_OOV, label=t("elmo.oov.words"), max_lines=1), label="elmo.oov.words")


# view -> (its inputs, its handler, its result components by name); the model menu above the views serves all three
VIEWS = {
    "mix": (mix_inputs, show_mix, ("weights", "mix_reading", "mix_plot", "mix_prov")),
    "bilm": (bilm_inputs, show_bilm, ("bilm_reading", "bilm_table", "bilm_plot", "bilm_prov")),
    "oov": (oov_inputs, show_oov, ("oov_reading", "oov_table", "oov_prov")),
}


def build_tab(ui) -> Any:
    loc, form = ui.loc, Form(ui, "elmo")
    loc.add(gr.Markdown(t("elmo.intro")), value="elmo.intro")
    available = [k for _, k in model_choices(KINDS, "en")]
    default = DEFAULT_MODEL if DEFAULT_MODEL in available else (available[0] if available else None)
    menu = gr.Dropdown(model_choices(KINDS, "en"), value=default, label=t("elmo.model"), elem_id="elmo-model")
    form.field("model", menu, label="elmo.model", choices=lambda lang: model_choices(KINDS, lang))
    unavailable_panel(KINDS, loc)
    for name in ("mix", "previous", "bilm", "oov"):
        form.state(name)  # each view's last result (and the mix before it): redrawn on a language switch, exported
    places, buttons = {}, {}
    with gr.Tabs():
        for view, (inputs, _, names) in VIEWS.items():
            tab = gr.Tab(t(f"elmo.view.{view}"), id=f"elmo-{view}", elem_id=f"elmo-view-{view}")
            with loc.add(tab, label=f"elmo.view.{view}"):
                loc.add(gr.Markdown(t(f"elmo.{view}.hint")), value=f"elmo.{view}.hint")
                inputs(form)
                button = gr.Button(t(f"elmo.{view}.run"), variant="primary", elem_id=f"elmo-{view}-run")
                buttons[view] = loc.add(button, value=f"elmo.{view}.run")
                hint = result_hint(loc, f"elmo.{view}.press")
                with gr.Column(visible=False) as area:  # no empty plot or header-only table before a first run
                    for name in names:
                        form.output(name, render.component(name))
                places[view] = (hint, area, CodePanel(ui))  # each view's script, below its result
    with gr.Column(visible=False) as files_area:  # no empty downloads box before any view has a result
        download_row(loc, form.files(exports), form.inputs, label_key="elmo.exports")
    hint, area, panel = places["mix"]
    form.result(hint, area, files_area)
    form.code_panel(panel, CODE["mix"])  # the mix is the tab's first view: a link runs it
    sliders = [form.fields[name].component for name in (*SLIDERS, "gamma")]
    form.action(show_mix, [buttons["mix"].click, *(s.release for s in sliders)])  # cached layers: only the mix is redone
    form.action(use_preset, [form.fields["preset"].component.input])
    form.on(name_preset, [form.fields[name].component.change for name in SLIDERS], queue=False)
    for view in ("bilm", "oov"):
        hint, area, panel = places[view]
        form.action(VIEWS[view][1], [buttons[view].click], place=form.place(hint, area, files_area, panel=panel,
                                                                             code=CODE[view]))  # fmt: skip
    form.redraw_on_lang(redraw, place=Place())  # every kept view in the new language, nothing revealed
    for name, endpoint in api.ENDPOINTS.items():
        gr.api(endpoint, api_name=name)
    return form.share()  # a link restores every view's inputs and shows the mix it describes
