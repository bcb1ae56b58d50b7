"""Attention tab: maps per layer and head, summaries, bidirectional vs causal, Q/K/V step by step."""

from __future__ import annotations

from dataclasses import replace

import gradio as gr

from playground import attention as att
from playground.attention import VIEWS, AttentionRequest, run_attention
from playground.figures.attention import MAX_ROWS, overview_cell
from playground.serialize import jsonable
from playground.ui.attention.api import attention_api
from playground.ui.attention.render import matrix_csv, render
from playground.ui.common.code_panel import CodePanel
from playground.ui.common.form import Form, Values
from playground.ui.common.i18n import UIContext, t
from playground.ui.common.lab_models import model_menu, session_for
from playground.ui.common.widgets import download_row, export_figure_html, export_file, export_json, for_request
from playground.ui.common.widgets import friendly_errors, model_choices, result_hint, unavailable_panel

KINDS = att.KINDS
EXAMPLE = "The animal didn't cross the street because it was too tired."
# Another layer, head or query drawn in the browser from the maps the figure carries (assets/attention_redraw.js).
ON_SLIDER = "(view, layer, head, query) => { window.tpAttention && window.tpAttention.redraw(view, layer, head, query); }"


def view_of(f: Values, progress=None):
    """The page's view through the one backend entry, its indices fitted to the model; errors in the user's language.
    This session's lab model can be chosen (its maps are never cached); the second model counts in "compare" only."""
    request = AttentionRequest(
        f["model"], f["text"] or "", f["text_b"] or "", f["layer"], f["head"], f["row_start"], f["view"], f["query"],
        f["other"] or "", fit=True,
    )  # fmt: skip
    session = session_for(f.token, [f["model"], f["other"] if f["view"] == "compare" else None], f.lang)
    with friendly_errors(f.lang):
        return run_attention(request, for_request(f.lang, progress).with_session(session))


def show(f: Values, progress=None) -> dict:
    """The view the controls describe; the sliders are set to what was drawn, so controls and title never disagree."""
    shown = view_of(f, progress)
    out = render(shown, f.lang)
    layers, heads, length = shown.maps.shape
    return {
        "info": out["info"],
        "plot": gr.update(value=out["plot"], visible=out["plot"] is not None),
        "plot2": gr.update(value=out["plot2"], visible=out["plot2"] is not None),
        "image": gr.update(value=out["image"], visible=out["image"] is not None),
        "step": gr.update(value=out["step"], visible=bool(out["step"])),
        "layer": gr.update(maximum=layers - 1, value=shown.layer),
        "head": gr.update(maximum=heads - 1, value=shown.head),
        "query": gr.update(maximum=length - 1, value=shown.query),
        "row_start": gr.update(maximum=max(1, length - 1), visible=length > MAX_ROWS),
        "sliders": gr.update(visible=shown.view != "positional"),  # positions depend on no layer, head or query
    }


def open_cell(f: Values, progress=None) -> dict:
    """A click on the overview image -> that layer and head, opened as one head (`f.extra["select"]`: the click)."""
    index = f.extra["select"].index
    x, y = (index if isinstance(index, (list, tuple)) else (-1, -1))[:2]
    with friendly_errors(f.lang):
        _, maps = att.attention_maps(f["model"], f["text"], f["text_b"], for_request(f.lang).with_session({}))
    cell = overview_cell(int(x), int(y), maps.shape[0], maps.shape[1])
    if cell is None:
        return {}
    return show(replace(f, fields={**f.fields, "layer": cell[0], "head": cell[1], "view": "head"}), progress) | {"view": "head"}


def exports(f: Values, progress=None) -> list[str]:
    """Built on click from the cached maps: the API's JSON (of the same result), the figure on screen, the matrix as CSV."""
    shown = view_of(f, progress)
    out = render(shown, f.lang)
    stem = f"attention-{f['model']}-L{shown.layer}-H{shown.head}"
    paths = [export_json(f"{stem}.json", jsonable(att.attention_json(shown, shown.row_start)))]
    figure = out["plot"] or out["plot2"]
    if figure is not None:
        paths.append(export_figure_html(f"{stem}-{f['view']}.html", figure))
    return [*paths, export_file(f"{stem}.csv", matrix_csv(shown.maps.tokens, shown.matrix))]


def code_request(f: Values) -> tuple[str, dict]:
    """The view's script: its inputs less the view and the row window; the second model only when one is chosen."""
    params = {k: f[k] for k in ("model", "text", "text_b", "layer", "head", "query")}
    return f"attention_{f['view']}", params | ({"other": f["other"]} if f["other"] else {})


def build_tab(ui: UIContext):
    loc, form = ui.loc, Form(ui, "attention")
    models = model_choices(KINDS, "en")
    default = lambda prefer: prefer if prefer in [k for _, k in models] else (models[0][1] if models else None)  # noqa: E731
    views = lambda lang: [(t(f"attention.view.{v}", lang), v) for v in VIEWS]  # noqa: E731
    loc.add(gr.Markdown(t("attention.intro")), value="attention.intro")
    with gr.Row():  # both menus offer "Your lab model" once this session trained one in the MLM lab
        for name, label, prefer in (
            ("model", "attention.model", "minilm"),
            ("other", "attention.other_model", "smollm2-instruct"),
        ):
            menu = gr.Dropdown(models, value=default(prefer), label=t(label))
            form.field(name, model_menu(ui, menu, KINDS, default(prefer), label=label))
    text = form.field("text", gr.Textbox(EXAMPLE, label=t("attention.text"), lines=2), label="attention.text")
    form.field("text_b", gr.Textbox("", label=t("attention.text_b"), info=t("attention.text_b_info")),
               label="attention.text_b", info="attention.text_b_info")  # fmt: skip
    run = loc.add(gr.Button(t("common.run"), variant="primary", elem_id="attention-run"), value="common.run")
    view = form.field("view", gr.Radio(views("en"), value="head", label=t("attention.view"), elem_id="attention-view"),
                      label="attention.view", choices=views)  # fmt: skip
    with form.output("sliders", gr.Row(elem_id="attention-sliders")):
        # The largest range any model may need, so a link's layer 3 / head 7 is accepted; a run narrows each slider.
        sliders = [
            form.field(name, gr.Slider(low, high - 1, value=low, step=1, label=t(f"attention.{name}"), **extra),
                       label=f"attention.{name}", **({"info": "attention.query_info"} if name == "query" else {}))
            for name, low, high, extra in (
                ("layer", 0, att.MAX_LAYERS, {}), ("head", 0, att.MAX_HEADS, {}),
                ("query", -1, att.MAX_TOKENS, {"info": t("attention.query_info")}),
                ("row_start", 0, att.MAX_TOKENS, {"visible": False}),
            )
        ]  # fmt: skip
    hint = result_hint(loc, "attention.hint")
    with gr.Column(visible=False) as result_area:  # no empty plot box before a run
        form.output("info", gr.Markdown(elem_id="attention-info"))
        form.output("plot", gr.Plot(show_label=False, elem_id="attention-plot"))
    form.output("plot2", gr.Plot(show_label=False, visible=False))
    image = form.output("image", gr.Image(format="png", interactive=False, show_label=False, visible=False,
                                          elem_id="attention-overview"))  # fmt: skip
    form.output("step", gr.Markdown(visible=False, elem_id="attention-step"))
    for name, slider in zip(("layer", "head", "query", "row_start"), sliders):
        form.output(name, slider)
    form.output("view", view)
    with gr.Column(visible=False) as files_area:
        download_row(loc, form.files(exports), form.inputs, label_key="attention.files")  # built on click
    unavailable_panel(KINDS, loc)
    form.result(hint, result_area, files_area)
    form.code_panel(CodePanel(ui), code_request)
    form.action(show, [run.click, text.submit, view.input])
    # A slider moved (dragged, arrow keys, a typed number): redrawn in the browser from the maps the figure brought;
    # a view without them asks the server through this hidden button once the slider rests (assets/attention_redraw.js).
    redraw = gr.Button(visible="hidden", elem_id="attention-redraw")
    form.action(show, [redraw.click])
    for slider in sliders:
        slider.input(None, [view, *sliders[:3]], None, js=ON_SLIDER)
    form.action(open_cell, [image.select], select=True)
    gr.api(attention_api, api_name="attention")  # the JSON endpoint (api.py)
    form.redraw_on_lang()
    with gr.Column(elem_id="attention-share"):
        return form.share()
