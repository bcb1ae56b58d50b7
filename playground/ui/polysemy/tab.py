"""Polysemy tab: one word in many sentences, contextual models against static vectors.

Widgets and events only: the run event and the /polysemy endpoint both call `playground.polysemy.run_polysemy`;
`polysemy_render` draws the result, and a language switch redraws the kept result.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import gradio as gr

from playground.serialize import jsonable
from playground.ui.polysemy import render
from playground.ui.polysemy.api import compare, every_layer, polysemy_api
from playground.ui.polysemy.presets import (
    ALL_KINDS,
    DEFAULT_MODELS,
    PRESETS,
    _chinese_note,
    chinese_models,
    preset_choices,
    preset_note,
    preset_of,
)
from playground.ui.common.widgets import download_row, model_choices, result_hint, unavailable_panel
from playground.ui.common.i18n import choices, t
from playground.ui.common.code_panel import CodePanel
from playground.ui.common.form import Form, Values

LAYERS = [("polysemy.layer_last", "last")]
ON_CHANGE = "(layer, projection, reading, table) => window.tpPolysemy?.redraw(layer, projection) || [reading, table]"
MAX_LAYERS = 48  # offered before the first run; afterwards the chosen models' own depth


def layer_choices(lang: str, deepest: int = MAX_LAYERS) -> list[tuple[str, str]]:
    return choices(LAYERS, lang) + [(str(i), str(i)) for i in range(deepest + 1)]


def show(f: Values, progress=None) -> dict[str, Any]:
    """The run: compared, drawn, and the example-set menu naming what the sentences are (after a link, say)."""
    names = ("word", "sentences", "models", "input_embeddings", "layer", "pooling", "projection", "dims")
    result = compare(*(f[n] for n in names), f.lang, progress)
    extra = {**f.extra, "result": result, "layers": every_layer(result, f)}  # every layer, for the browser's redraw
    return draw(replace(f, extra=extra)) | {"example": preset_of(f["word"], f["sentences"])}


def draw(f: Values, progress=None) -> dict[str, Any]:
    """Everything the tab draws from the kept run; also what a language switch calls (nothing is recomputed)."""
    result, layer, layers = f.extra["result"], f["layer"], f.extra.get("layers") or {}
    if f["projection"] == "pca" and str(layer) in layers:  # the layer the browser drew since (a language switch)
        result = layers[str(layer)]
    figures = render.figures(result, f.lang)
    data = render.browser_data(result, layers, str(layer), f.lang)
    if data is not None:  # Plotly keeps `meta` as inert data: assets/polysemy_redraw.js reads it
        figures[1].update_layout(meta={"tp": data | {"headers": render.score_headers(f.lang, result)}})
    scatter, heatmap, curve = (gr.update(value=g, visible=g is not None) for g in figures)
    deepest = render.deepest_layer(result)  # the chosen models' layers, not a guess
    return {
        "reading": render.reading(result, f.lang),
        "notes": render.notes(result, f.lang),
        "prov": render.provenance_md(result, f.lang),
        "scatter": scatter,
        "heatmap": heatmap,
        "curve": curve,
        "table": gr.update(value=render.score_rows(result, f.lang), headers=render.score_headers(f.lang, result)),
        "files": None,  # downloads of an earlier result are cleared; new ones are built on click
        "raw": gr.update(visible=True),
        "data": jsonable(result),
        "layer": gr.update(
            choices=layer_choices(f.lang, deepest), value=layer if layer == "last" or int(layer) <= deepest else "last"
        ),
        "result": result,
        "layers": f.extra.get("layers"),
    }


def build_tab(ui):
    loc, form = ui.loc, Form(ui, "polysemy")
    loc.add(gr.Markdown(t("polysemy.intro")), value="polysemy.intro")
    radios = [  # (name, pairs of text key and value, default)
        ("pooling", [("polysemy.pooling_mean", "mean"), ("polysemy.pooling_first", "first")], "mean"),
        ("projection", [("polysemy.pca", "pca"), ("polysemy.tsne", "tsne")], "pca"),
        ("dims", [("polysemy.dims_2", "2"), ("polysemy.dims_3", "3")], "2"),
    ]
    with gr.Row():
        with gr.Column(scale=2):
            menu = gr.Dropdown(preset_choices("en"), value="bank", label=t("polysemy.preset"))
            preset = form.field("example", menu, code=False, label="polysemy.preset", choices=preset_choices)
            word = form.field("word", gr.Textbox(PRESETS["bank"]["word"], label=t("polysemy.word"), max_lines=1),
                              label="polysemy.word")  # fmt: skip
            box = gr.Textbox("\n".join(PRESETS["bank"]["sentences"]), lines=8, max_lines=20, label=t("polysemy.sentences"),
                             info=t("polysemy.sentences_info"))  # fmt: skip
            sentences = form.field("sentences", box, label="polysemy.sentences", info="polysemy.sentences_info")
            zh_note = gr.Markdown("")
        with gr.Column(scale=1):
            available = [key for _, key in model_choices(ALL_KINDS, "en")]
            group = gr.CheckboxGroup(model_choices(ALL_KINDS, "en"), value=[k for k in DEFAULT_MODELS if k in available],
                                     label=t("polysemy.models"))  # fmt: skip
            keys = form.field("models", group, label="polysemy.models", choices=lambda lang: model_choices(ALL_KINDS, lang))
            form.field("input_embeddings", gr.Checkbox(True, label=t("polysemy.input_embeddings")),
                       label="polysemy.input_embeddings")  # fmt: skip
            menu = gr.Dropdown(layer_choices("en"), value="last", label=t("polysemy.layer"), info=t("polysemy.layer_info"))
            layer = form.field("layer", menu, label="polysemy.layer", info="polysemy.layer_info", choices=layer_choices)
            for name, pairs, value in radios:
                radio = gr.Radio(choices(pairs, "en"), value=value, label=t(f"polysemy.{name}"))
                form.field(name, radio, label=f"polysemy.{name}", choices=lambda lang, pairs=pairs: choices(pairs, lang))
            unavailable_panel(ALL_KINDS, loc)
    run = loc.add(gr.Button(t("polysemy.run"), variant="primary", elem_id="polysemy-run"), value="polysemy.run")
    hint = result_hint(loc, "polysemy.hint")
    with gr.Column(visible=False) as result_area:  # no empty plots, header-only table or downloads box before a run
        for name in ("reading", "notes", "prov"):
            form.output(name, gr.Markdown(elem_id="polysemy-reading" if name == "reading" else None))
        for name in ("scatter", "heatmap", "curve"):
            form.output(name, gr.Plot(show_label=False, elem_id=f"polysemy-{name}"))
        form.output("table", gr.Dataframe(headers=render.score_headers("en"), label=t("polysemy.scores"),
                                          interactive=False), label="polysemy.scores")  # fmt: skip
        state = form.state("result")  # this user's last PolysemyRun: redrawn on a language switch, exported on click
        form.state("layers")  # the same run at every layer, for the browser's redraw
        form.output("files", download_row(loc, render.exports, [state, ui.lang], label_key="polysemy.exports"))
    with form.output("raw", gr.Accordion(t("polysemy.api_json"), open=False, visible=False), label="polysemy.api_json"):
        form.output("data", gr.JSON())
    form.output("layer", layer)
    form.output("example", preset)

    def use_preset(key, chosen, lang):
        p = PRESETS.get(key)
        if p is None:
            return gr.update(), gr.update(), "", gr.update()
        models = chinese_models(chosen) if p.get("lang") == "zh" else gr.update()  # a Chinese set gets a Chinese reader
        return p["word"], "\n".join(p["sentences"]), preset_note(key, lang), models

    private = dict(api_visibility="private", queue=False)
    preset.input(use_preset, [preset, keys, ui.lang], [word, sentences, zh_note, keys], **private)
    for box in (word, sentences):  # an edit makes the menu say "your own sentences" (or the preset they still are)
        box.input(preset_of, [word, sentences], preset, **private)
    word.blur(lambda w, lang: _chinese_note(w, lang), [word, ui.lang], zh_note, **private)
    form.result(hint, result_area)
    form.code_panel(CodePanel(ui), lambda f: ("polysemy", f.code_params(form)))
    form.action(show, [run.click])
    # Another layer, or PCA again: redrawn in the browser from every layer the heatmap brought (no request); what it
    # lacks (t-SNE at another layer) asks the server through this hidden button (assets/polysemy_redraw.js).
    form.action(show, [gr.Button(visible="hidden", elem_id="polysemy-redraw").click])
    shown = [form.outputs["reading"], form.outputs["table"]]
    for control in (layer, form.fields["projection"].component):
        control.input(None, [layer, form.fields["projection"].component, *shown], shown, js=ON_CHANGE)
    form.redraw_on_lang(draw)  # the kept result in the new language; nothing is recomputed
    gr.api(polysemy_api, api_name="polysemy")
    return form.share()  # a link restores every input above, then runs them
