"""Inside BERT tab: input embeddings, ALBERT's savings, next-sentence prediction, fine-tuning heads.

One field table (Form); each view is a row of VIEWS (its backend call, its script) and render.DRAW (its outputs); a
click is one request that runs the chosen view, shows its column and draws it. The /inside_* endpoints are api.py's.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import gradio as gr

from playground import checks
from playground.inside.configs import PUBLISHED
from playground.inside.heads import sources
from playground.inside.params import SHARING
from playground.serialize import jsonable
from playground.ui.common.code_panel import CodePanel
from playground.ui.common.form import Form, Place, Values
from playground.ui.common.i18n import UIContext, choices, t
from playground.ui.common.widgets import download_row, export_figure_html, export_json
from playground.ui.inside import api, render

SHARE_CHOICES = [(f"inside.params.share.{s}", s) for s in SHARING]
# view -> (its backend call from the page's values, its script: /code's view and its endpoint's parameters)
VIEWS = {
    "embeddings": (lambda f, p: api.embeddings(f["text_a"], f["text_b"], f["model"], f.lang, p),
                   lambda f: {"text_a": f["text_a"], "text_b": f["text_b"], "model": f["model"]}),
    "params": (lambda f, p: api.params(f["base"], f["E"], f["share"], f.lang),
               lambda f: {"base": f["base"], "embedding_size": f["E"], "share_layers": f["share"]}),
    "nsp": (lambda f, p: api.nsp(f["text"], f["seed"], f["budget"], f.lang, progress=p),
            lambda f: {"text": f["text"], "seed": f["seed"], "budget": f["budget"]}),
    "heads": (lambda f, p: api.heads(f["source"], f.lang), lambda f: {"source": f["source"]}),
}  # fmt: skip


def _view(f: Values) -> str:
    return f["view"] if f["view"] in VIEWS else "embeddings"


def pick(f: Values, progress=None) -> dict[str, Any]:
    """The chosen view's column shown, the others hidden."""
    return {f"col_{view}": gr.update(visible=view == _view(f)) for view in VIEWS}


def show(f: Values, progress=None) -> dict[str, Any]:
    """The chosen view computed, its column shown and drawn; the downloads of an earlier result cleared."""
    view = _view(f)
    run = VIEWS[view][0](f, progress)
    kept = {**(f.extra["kept"] or {}), view: run}
    return pick(f) | render.outputs(view, run, f.lang) | {"kept": kept, "files": None}


def recount(f: Values, progress=None) -> dict[str, Any]:
    """A slider or menu of the savings view recounts at once (meta-device builds take a fraction of a second)."""
    return show(replace(f, fields={**f.fields, "view": "params"}), progress)


def redraw(f: Values, progress=None) -> dict[str, Any]:
    """A language switch redraws every kept view; nothing is recomputed."""
    return {k: v for view, run in (f.extra["kept"] or {}).items() for k, v in render.outputs(view, run, f.lang).items()}


def downloads(f: Values, progress=None) -> list[str] | None:
    view, run = _view(f), (f.extra["kept"] or {}).get(_view(f))
    figure = None if run is None else render.figure_of(view, run, f.lang)
    paths = [] if run is None else [export_json(f"inside-{view}.json", jsonable(run))]
    return (paths + ([export_figure_html(f"inside-{view}.html", figure)] if figure is not None else [])) or None


def code_request(f: Values) -> tuple[str, dict]:
    """The view on screen as /code's (view, request): each view's own parameters, as its endpoint names them."""
    return f"inside_{_view(f)}", VIEWS[_view(f)][1](f)


def embeddings_inputs(form: Form) -> list[Any]:
    with gr.Row():
        form.field("text_a", gr.Textbox(api.TEXT_A, label=t("inside.emb.text_a")), label="inside.emb.text_a")
        form.field("text_b", gr.Textbox(api.TEXT_B, label=t("inside.emb.text_b")), label="inside.emb.text_b")
        found = api.embedding_choices("en")
        menu = gr.Dropdown(found, value="minilm" if any(k == "minilm" for _, k in found) else None,
                           label=t("inside.emb.model"))  # fmt: skip
        form.field("model", menu, label="inside.emb.model", choices=api.embedding_choices)
    return []


def params_inputs(form: Form) -> list[Any]:
    """The savings view's controls; they recount at once, so their events are returned."""
    with gr.Row():
        menu = gr.Dropdown([(c.label, c.key) for c in PUBLISHED if c.what_if], value="bert-base",
                           label=t("inside.params.base"), info=t("inside.params.base_info"))  # fmt: skip
        base = form.field("base", menu, label="inside.params.base", info="inside.params.base_info")
        E = form.field("E", gr.Slider(16, 1024, value=128, step=16, label=t("inside.params.E")), label="inside.params.E")
        radio = gr.Radio(choices(SHARE_CHOICES, "en"), value="all", label=t("inside.params.share"))
        share = form.field("share", radio, label="inside.params.share", choices=lambda lang: choices(SHARE_CHOICES, lang))
    return [E.release, share.input, base.input]


def nsp_inputs(form: Form) -> list[Any]:
    with gr.Row():
        box = gr.Textbox(api.NSP_TEXT, lines=5, label=t("inside.nsp.text"), info=t("inside.nsp.text_info"), scale=3)
        form.field("text", box, label="inside.nsp.text", info="inside.nsp.text_info")
        with gr.Column(scale=1):
            seed = gr.Number(0, precision=0, minimum=0, maximum=checks.MAX_SEED, label=t("inside.nsp.seed"))
            form.field("seed", seed, label="inside.nsp.seed")
            slider = gr.Slider(8, 128, value=32, step=1, label=t("inside.nsp.budget"))
            form.field("budget", slider, label="inside.nsp.budget")
    return []


def heads_inputs(form: Form) -> list[Any]:
    menu = gr.Dropdown(sources(), value="bert-base", label=t("inside.heads.source"))
    form.field("source", menu, label="inside.heads.source")
    return []


INPUTS = {"embeddings": embeddings_inputs, "params": params_inputs, "nsp": nsp_inputs, "heads": heads_inputs}
HINTS = {view: f"inside.{'emb' if view == 'embeddings' else view}.hint" for view in VIEWS}


def build_tab(ui: UIContext) -> Any:
    loc, form = ui.loc, Form(ui, "inside")
    loc.add(gr.Markdown(t("inside.intro")), value="inside.intro")
    views = lambda lang: choices([(f"inside.view.{v}", v) for v in VIEWS], lang)  # noqa: E731
    with gr.Row():
        radio = gr.Radio(views("en"), value="embeddings", label=t("inside.view"), elem_id="inside-view", scale=4)
        view = form.field("view", radio, code=False, label="inside.view", choices=views)
        run = loc.add(gr.Button(t("inside.run"), variant="primary", elem_id="inside-run", scale=1), value="inside.run")
    recounts = []
    for name in VIEWS:  # each view's column: its inputs, the hint before its first result, its result components
        with form.output(f"col_{name}", gr.Column(visible=name == "embeddings", elem_id=f"inside-{name}")):
            recounts += INPUTS[name](form)
            form.output(f"{name}_hint", gr.Markdown(t(HINTS[name]), elem_classes="tp-hint"), value=HINTS[name])
            for part in render.DRAW[name][1]:
                form.output(part, render.component(part))
    form.state("kept", {})  # this user's last result per view: redrawn on a language switch, exported on demand
    with gr.Column(visible=False) as files_area:  # no empty downloads box before a result (each view has its hint)
        form.output("files", download_row(loc, form.files(downloads), form.inputs, label_key="inside.exports"))
    form.result(None, files_area)
    form.code_panel(CodePanel(ui), code_request)  # the script of the view on screen
    form.action(show, [run.click])  # a link runs it too: its view's column opens and shows the result
    form.action(recount, recounts)
    form.on(pick, [view.input], queue=False)
    form.redraw_on_lang(redraw, place=Place())
    for name, endpoint in api.ENDPOINTS.items():
        gr.api(endpoint, api_name=name)
    return form.share()
