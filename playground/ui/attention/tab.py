"""Attention tab: maps per layer and head, summaries, bidirectional vs causal, Q/K/V step by step."""

from __future__ import annotations

import gradio as gr

from playground import attention as att
from playground.attention import VIEWS, AttentionRequest, run_attention
from playground.figures.attention import MAX_ROWS, overview_cell
from playground.serialize import jsonable
from playground.ui.attention.render import matrix_csv, render
from playground.ui.common.widgets import (
    download_row,
    result_hint,
    reveal_after,
    export_file,
    export_figure_html,
    export_json,
    friendly_errors,
    model_choices,
    unavailable_panel,
)
from playground.ui.common.i18n import UIContext, t
from playground.ui.common.lab_models import model_menu, session_for, token_of
from playground.ui.common.widgets import for_request
from playground.ui.common.code_panel import code_panel
from playground.ui.common.links import LinkRun, Step, reveal
from playground.ui.common.share import share_link_row

KINDS = att.KINDS
EXAMPLE = "The animal didn't cross the street because it was too tired."


def _default(choices: list[tuple[str, str]], prefer: str) -> str | None:
    keys = [key for _, key in choices]
    return prefer if prefer in keys else (keys[0] if keys else None)


def _session(token, model_key, view_id, other_key, lang):
    """This session's lab model when the view uses it (the second model only counts in the comparison view)."""
    return session_for(token, [model_key, other_key if view_id == "compare" else None], lang)


def _view(model_key, text_a, text_pair, view_id, layer_i, head_i, query_i, row_i, other_key, lang, progress=None, token=None):
    """The page's view through the one backend entry (maps and captures come from the runtime's cache after the first
    call), its indices fitted to the model -- errors in the user's language.

    `token`: the page's MLM lab token, so this session's lab model can be chosen (its maps are never cached)."""
    request = AttentionRequest(
        model_key, text_a or "", text_pair or "", layer_i, head_i, row_i, view_id, query_i, other_key or "", fit=True
    )
    session = _session(token, model_key, view_id, other_key, lang)
    with friendly_errors(lang):
        return run_attention(request, for_request(lang, progress).with_session(session))


def _exports(
    model_key, text_a, text_pair, view_id, layer_i, head_i, query_i, row_i, other_key, lang, token=None, progress=gr.Progress()
):
    """Built on click from the cached maps: the API's JSON (of the same result), the figure on screen, the matrix as CSV."""
    view_run = _view(model_key, text_a, text_pair, view_id, layer_i, head_i, query_i, row_i, other_key, lang, progress, token)
    out = render(view_run, lang)
    payload = jsonable(att.attention_json(view_run, view_run.row_start))
    stem = f"attention-{model_key}-L{view_run.layer}-H{view_run.head}"
    paths = [export_json(f"{stem}.json", payload)]
    figure = out["plot"] or out["plot2"]
    if figure is not None:
        paths.append(export_figure_html(f"{stem}-{view_id}.html", figure))
    paths.append(export_file(f"{stem}.csv", matrix_csv(view_run.maps.tokens, view_run.matrix)))
    return paths


def attention_api(
    model: str, text: str, text_b: str = "", layer: int = 0, head: int = 0, row_start: int = 0, lang: str = "en"
) -> dict:
    """Attention of one layer and head (tokens, T x T matrix in row windows) and the summaries, as JSON.

    Args:
        model: a registry key of a Transformer (e.g. "minilm", "bert", "gpt2", "smollm2-instruct").
        text: the sentence, at most 5,000 characters and 512 tokens.
        text_b: a second sentence for sentence-pair models ("" for none), at most 5,000 characters.
        layer: a whole number from 0 to the model's layers - 1.
        head: a whole number from 0 to the model's heads - 1.
        row_start: the first query row of the window returned, from 0 to the tokens - 1; the window holds at most
            40,000 cells, so 40,000 // T rows (79 rows at 506 tokens; the page draws 256 at a time).
        lang: "en" or "zh", the language of messages and labels in the result.
    """
    request = AttentionRequest(model, text, text_b, layer, head, row_start)  # the backend checks every type
    with friendly_errors(lang):
        shown = run_attention(request, for_request(lang))
        return jsonable(att.attention_json(shown, shown.row_start))


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
    with gr.Row(elem_id="attention-sliders") as sliders_row:
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

    outputs = [info, plot, plot2, image, step, layer, head, query, row_start, sliders_row]
    named = {model, text, text_b, view, layer, head, query, row_start, other, ui.lang, *token_of(ui)}

    def show(v: dict, progress=gr.Progress()):
        """The view the controls describe (named inputs: Gradio hands this handler {component: value})."""
        view_run = _view(
            v[model], v[text], v[text_b], v[view], v[layer], v[head], v[query], v[row_start], v[other], v[ui.lang],
            progress, *(v[c] for c in token_of(ui)),
        )  # fmt: skip
        out = render(view_run, v[ui.lang])
        layers, heads, length = view_run.maps.shape
        # The sliders are set to what was drawn, so the controls and the figure's title never disagree.
        return (
            out["info"],
            gr.update(value=out["plot"], visible=out["plot"] is not None),
            gr.update(value=out["plot2"], visible=out["plot2"] is not None),
            gr.update(value=out["image"], visible=out["image"] is not None),
            gr.update(value=out["step"], visible=bool(out["step"])),
            gr.update(maximum=layers - 1, value=view_run.layer),
            gr.update(maximum=heads - 1, value=view_run.head),
            gr.update(maximum=length - 1, value=view_run.query),
            gr.update(maximum=max(1, length - 1), visible=length > MAX_ROWS),
            gr.update(visible=view_run.view != "positional"),  # positions do not depend on a layer, head or query
        )

    shown = gr.State(None)  # True once this user has a result on screen
    # Progress ("Loading MiniLM…") also on the hint: before the first result it is what the student looks at.
    watch = dict(api_visibility="private", show_progress_on=[hint, *outputs])
    runs = [event(show, named, outputs, **watch) for event in (run.click, text.submit)]
    # A language switch redraws what is on screen from the cache; before any run it does nothing.
    ui.on_lang(lambda v: show(v, progress=None) if v[shown] else [gr.update()] * len(outputs), {shown, *named}, outputs)
    # The student's own changes only (a link sets these too, and runs the view itself): a click on a view, a slider
    # released, moved with the arrow keys or given a typed number (input: every change the student makes).
    runs.append(view.input(show, named, outputs, **watch))
    for slider in (layer, head, query, row_start):
        runs.append(slider.release(show, named, outputs, trigger_mode="always_last", **watch))
        runs.append(slider.input(show, named, outputs, trigger_mode="always_last", **watch))

    def open_thumbnail(model_key: str, text_a: str, text_pair: str, lang: str, evt: gr.SelectData, token: str | None = None):
        """A click on the overview image -> that layer and head, opened as one head."""
        session = _session(token, model_key, "overview", "", lang)
        with friendly_errors(lang):
            _, maps = att.attention_maps(model_key, text_a, text_pair, for_request(lang).with_session(session))
        x, y = (evt.index if isinstance(evt.index, (list, tuple)) else (0, 0))[:2]
        cell = overview_cell(int(x), int(y), maps.shape[0], maps.shape[1])
        if cell is None:
            return gr.update(), gr.update(), gr.update()
        return cell[0], cell[1], "head"

    opened = image.select(
        open_thumbnail, [model, text, text_b, ui.lang, *token_of(ui)], [layer, head, view], api_visibility="private"
    )
    # The view's own events listen to the student's input only, so the head the click chose is drawn here.
    runs.append(opened.success(show, named, outputs, **watch))
    gr.api(attention_api, api_name="attention")
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
    for event in runs:
        event.success(lambda: True, None, shown, api_visibility="private")
    reveal_after(runs, hint, [result_area, files_area])
    names = ("model", "text", "text_b", "view", "layer", "head", "query", "row_start", "other")
    panel = code_panel(ui, runs, inputs[:9], lambda *v: (f"attention_{v[3]}", _code_params(dict(zip(names, v)))))
    # A link fills the inputs and runs the view with them in its own event (layer 3, head 7 stay layer 3, head 7).
    return shared.running(
        LinkRun((Step(show, named, outputs), panel.link_step), reveal(hint, [result_area, files_area]) | {shown: True}, (hint,))
    )


def _code_params(values: dict) -> dict:
    """The view's inputs as the code view reads them: the comparison's second model only for the comparison."""
    values = {k: v for k, v in values.items() if k not in ("view", "row_start")}
    return values if values.get("other") else {k: v for k, v in values.items() if k != "other"}
