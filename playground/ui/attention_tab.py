"""Attention tab: maps per layer and head, summaries, bidirectional vs causal, Q/K/V step by step."""

from __future__ import annotations

import gradio as gr

from playground import attention as att
from playground.attention_view import VIEWS, AttentionViewRequest, run_attention_view
from playground.figures.attention import MAX_ROWS, overview_cell
from playground.serialize import jsonable
from playground.ui.attention_render import matrix_csv, render
from playground.ui.common import (
    download_row,
    result_hint,
    reveal_after,
    export_file,
    export_figure_html,
    export_json,
    friendly_errors,
    load_model,
    model_choices,
    on_gpu,
    unavailable_panel,
)
from playground.ui.i18n import UIContext, t
from playground.ui.lab_models import model_menu, session_for, token_of
from playground.ui.share import share_link_row

KINDS = att.KINDS
EXAMPLE = "The animal didn't cross the street because it was too tired."


def _default(choices: list[tuple[str, str]], prefer: str) -> str | None:
    keys = [key for _, key in choices]
    return prefer if prefer in keys else (keys[0] if keys else None)


def _session(token, model_key, view_id, other_key, lang):
    """This session's lab model when the view uses it (the second model only counts in the comparison view)."""
    return session_for(token, [model_key, other_key if view_id == "compare" else None], lang)


def _view(model_key, text_a, text_pair, view_id, layer_i, head_i, query_i, row_i, other_key, lang, progress=None, token=None):
    """The backend's view (maps and captures come from its cache after the first call) -- errors in the user's language.

    `token`: the page's MLM lab token, so this session's lab model can be chosen (its maps are never cached)."""
    request = AttentionViewRequest(
        model_key, text_a or "", text_pair or "", view_id, layer_i, head_i, query_i, row_i, other_key or ""
    )
    session = _session(token, model_key, view_id, other_key, lang)
    with friendly_errors(lang):
        return run_attention_view(request, load=lambda key: load_model(key, lang, progress), gpu=on_gpu, session=session)


def _exports(
    model_key, text_a, text_pair, view_id, layer_i, head_i, query_i, row_i, other_key, lang, token=None, progress=gr.Progress()
):
    """Built on click from the cached maps: the API's JSON, the figure on screen and the matrix as CSV."""
    view_run = _view(model_key, text_a, text_pair, view_id, layer_i, head_i, query_i, row_i, other_key, lang, progress, token)
    out = render(view_run, lang)
    request = att.AttentionRequest(model_key, text_a or "", text_pair or "", view_run.layer, view_run.head, view_run.row_start)
    session = _session(token, model_key, "head", "", lang)
    with friendly_errors(lang):  # the same backend entry as the /attention API, served from the cached maps
        payload = jsonable(
            att.run_attention(request, load=lambda key: load_model(key, lang, progress), gpu=on_gpu, session=session)
        )
    stem = f"attention-{model_key}-L{view_run.layer}-H{view_run.head}"
    paths = [export_json(f"{stem}.json", payload)]
    figure = out["plot"] or out["plot2"]
    if figure is not None:
        paths.append(export_figure_html(f"{stem}-{view_id}.html", figure))
    paths.append(export_file(f"{stem}.csv", matrix_csv(view_run.maps.tokens, view_run.matrix)))
    return paths


def build_tab(ui: UIContext) -> dict:
    loc = ui.loc
    models = model_choices(KINDS, "en")
    view_keys = [(f"attention.view.{v}", v) for v in VIEWS]
    view_choices = lambda lang: [(t(k, lang), v) for k, v in view_keys]  # noqa: E731
    loc.add(gr.Markdown(t("attention.intro")), value="attention.intro")
    with gr.Row():
        # Both menus offer "Your lab model" once this session trained one in the MLM lab.
        model = model_menu(
            ui,
            gr.Dropdown(models, value=_default(models, "minilm"), label=t("attention.model")),
            KINDS,
            _default(models, "minilm"),
            label="attention.model",
        )
        other = model_menu(
            ui,
            gr.Dropdown(models, value=_default(models, "smollm2-instruct"), label=t("attention.other_model")),
            KINDS,
            _default(models, "smollm2-instruct"),
            label="attention.other_model",
        )
    text = loc.add(gr.Textbox(EXAMPLE, label=t("attention.text"), lines=2), label="attention.text")
    text_b = loc.add(
        gr.Textbox("", label=t("attention.text_b"), info=t("attention.text_b_info")),
        label="attention.text_b",
        info="attention.text_b_info",
    )
    run = loc.add(gr.Button(t("common.run"), variant="primary", elem_id="attention-run"), value="common.run")
    view = loc.add(
        gr.Radio(view_choices("en"), value="head", label=t("attention.view"), elem_id="attention-view"),
        label="attention.view",
        choices=view_choices,
    )
    with gr.Row(elem_id="attention-sliders"):
        # Created with the largest range any model may need, so a shared link's layer 3 / head 7 is accepted;
        # the first run narrows each slider to the model's own range (keeping the value it was given).
        layer = loc.add(gr.Slider(0, att.MAX_LAYERS - 1, value=0, step=1, label=t("attention.layer")), label="attention.layer")
        head = loc.add(gr.Slider(0, att.MAX_HEADS - 1, value=0, step=1, label=t("attention.head")), label="attention.head")
        query = loc.add(
            gr.Slider(-1, att.MAX_TOKENS - 1, value=-1, step=1, label=t("attention.query"), info=t("attention.query_info")),
            label="attention.query",
            info="attention.query_info",
        )
        row_start = loc.add(
            gr.Slider(0, att.MAX_TOKENS - 1, value=0, step=1, label=t("attention.row_start"), visible=False),
            label="attention.row_start",
        )
    hint = result_hint(loc, "attention.hint")
    with gr.Column(visible=False) as result_area:  # no empty plot box before a run
        info = gr.Markdown(elem_id="attention-info")
        plot = gr.Plot(show_label=False, elem_id="attention-plot")
    plot2 = gr.Plot(show_label=False, visible=False)
    image = gr.Image(format="png", interactive=False, show_label=False, visible=False, elem_id="attention-overview")
    step = gr.Markdown(visible=False, elem_id="attention-step")
    inputs = [model, text, text_b, view, layer, head, query, row_start, other, ui.lang, *token_of(ui)]
    with gr.Column(visible=False) as files_area:
        download_row(loc, _exports, inputs, label_key="attention.files")  # built on click, from the cached maps
    unavailable_panel(KINDS, loc)

    outputs = [info, plot, plot2, image, step, layer, head, query, row_start]

    def show(
        model_key,
        text_a,
        text_pair,
        view_id,
        layer_i,
        head_i,
        query_i,
        row_i,
        other_key,
        lang,
        token=None,
        progress=gr.Progress(),
    ):
        view_run = _view(model_key, text_a, text_pair, view_id, layer_i, head_i, query_i, row_i, other_key, lang, progress, token)
        out = render(view_run, lang)
        layers, heads, length = view_run.maps.shape
        return (
            out["info"],
            gr.update(value=out["plot"], visible=out["plot"] is not None),
            gr.update(value=out["plot2"], visible=out["plot2"] is not None),
            gr.update(value=out["image"], visible=out["image"] is not None),
            gr.update(value=out["step"], visible=bool(out["step"])),
            gr.update(maximum=layers - 1, value=view_run.layer),
            gr.update(maximum=heads - 1, value=view_run.head),
            gr.update(maximum=length - 1),
            gr.update(maximum=max(1, length - 1), visible=length > MAX_ROWS),
        )

    def attention(
        model: str, text: str, text_b: str = "", layer: int = 0, head: int = 0, row_start: int = 0, lang: str = "en"
    ) -> dict:
        """Attention of one layer and head (tokens, T x T matrix in row windows) and the summaries, as JSON."""
        request = att.AttentionRequest(model, text, text_b, layer, head, row_start)  # the backend checks every type
        with friendly_errors(lang):
            return jsonable(att.run_attention(request, load=lambda key: load_model(key, lang), gpu=on_gpu))

    shown = gr.State(None)  # True once this user has a result on screen
    runs = [event(show, inputs, outputs, api_visibility="private") for event in (run.click, text.submit)]
    # A language switch redraws what is on screen from the cache; before any run it does nothing.
    ui.lang.change(
        lambda has, *args: show(*args, progress=None) if has else [gr.update()] * len(outputs),
        [shown] + inputs,
        outputs,
        api_visibility="private",
    )
    view.change(show, inputs, outputs, api_visibility="private")
    for slider in (layer, head, query, row_start):
        slider.release(show, inputs, outputs, api_visibility="private")

    def open_thumbnail(model_key: str, text_a: str, text_pair: str, lang: str, evt: gr.SelectData, token: str | None = None):
        """A click on the overview image -> that layer and head, opened as one head."""
        session = _session(token, model_key, "overview", "", lang)
        with friendly_errors(lang):
            _, maps = att.attention_maps(model_key, text_a, text_pair, lambda key: load_model(key, lang), on_gpu, session)
        x, y = (evt.index if isinstance(evt.index, (list, tuple)) else (0, 0))[:2]
        cell = overview_cell(int(x), int(y), maps.shape[0], maps.shape[1])
        if cell is None:
            return gr.update(), gr.update(), gr.update()
        return cell[0], cell[1], "head"

    image.select(open_thumbnail, [model, text, text_b, ui.lang, *token_of(ui)], [layer, head, view], api_visibility="private")
    gr.api(attention, api_name="attention")
    params = {
        "model": model,
        "other": other,
        "text": text,
        "text_b": text_b,
        "view": view,
        "layer": layer,
        "head": head,
        "query": query,
        "row_start": row_start,
    }
    with gr.Column(elem_id="attention-share"):
        shared = share_link_row("attention", params, ui)
    # A link fills the inputs, then runs the view with them (layer 3, head 7 stay layer 3, head 7).
    runs.append(shared.restored.change(show, inputs, outputs, api_visibility="private"))
    for event in runs:
        event.success(lambda: True, None, shown, api_visibility="private")
    reveal_after(runs, hint, [result_area, files_area])
    return shared
