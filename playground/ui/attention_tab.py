"""Attention tab: maps per layer and head, summaries, bidirectional vs causal, Q/K/V step by step."""

from __future__ import annotations

import gradio as gr

from playground.ui import attention_views as av
from playground.ui.common import export_file, export_figure_html, export_json, friendly_errors, model_choices, unavailable_panel
from playground.ui.i18n import UIContext, t
from playground.ui.share import share_link_row

KINDS = ("encoder", "masked", "discriminator", "causal")
EXAMPLE = "The animal didn't cross the street because it was too tired."


def _default(choices: list[tuple[str, str]], prefer: str) -> str | None:
    keys = [key for _, key in choices]
    return prefer if prefer in keys else (keys[0] if keys else None)


def build_tab(ui: UIContext) -> dict:
    loc, service = ui.loc, av.AttentionService()
    models = model_choices(KINDS, "en")
    view_keys = [(f"attention.view.{v}", v) for v in av.VIEWS]
    view_choices = lambda lang: [(t(k, lang), v) for k, v in view_keys]  # noqa: E731
    loc.add(gr.Markdown(t("attention.intro")), value="attention.intro")
    with gr.Row():
        model = loc.add(
            gr.Dropdown(models, value=_default(models, "minilm"), label=t("attention.model")), label="attention.model"
        )
        other = loc.add(
            gr.Dropdown(models, value=_default(models, "smollm2-instruct"), label=t("attention.other_model")),
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
    with gr.Row():
        layer = loc.add(gr.Slider(0, 5, value=0, step=1, label=t("attention.layer")), label="attention.layer")
        head = loc.add(gr.Slider(0, 11, value=0, step=1, label=t("attention.head")), label="attention.head")
        query = loc.add(
            gr.Slider(-1, 20, value=-1, step=1, label=t("attention.query"), info=t("attention.query_info")),
            label="attention.query",
            info="attention.query_info",
        )
        row_start = loc.add(
            gr.Slider(0, 255, value=0, step=1, label=t("attention.row_start"), visible=False), label="attention.row_start"
        )
    info = gr.Markdown(elem_id="attention-info")
    plot = gr.Plot(show_label=False, elem_id="attention-plot")
    plot2 = gr.Plot(show_label=False, visible=False)
    image = gr.Image(format="png", interactive=False, show_label=False, visible=False, elem_id="attention-overview")
    step = gr.Markdown(visible=False, elem_id="attention-step")
    with gr.Row():
        export = loc.add(gr.Button(t("attention.export"), size="sm"), value="attention.export")
        files = loc.add(gr.File(label=t("attention.files"), file_count="multiple", interactive=False), label="attention.files")
    unavailable_panel(KINDS, loc)

    inputs = [model, text, text_b, view, layer, head, query, row_start, other, ui.lang]
    outputs = [info, plot, plot2, image, step, layer, head, query, row_start]

    def show(model_key, text_a, text_pair, view_id, layer_i, head_i, query_i, row_i, other_key, lang, progress=gr.Progress()):
        with friendly_errors(lang):
            out = av.render(
                service, model_key, text_a, text_pair, view_id, layer_i, head_i, query_i, row_i, other_key, lang, progress
            )
        layers, heads, length = out["result"].shape
        return (
            out["info"],
            gr.update(value=out["plot"], visible=out["plot"] is not None),
            gr.update(value=out["plot2"], visible=out["plot2"] is not None),
            gr.update(value=out["image"], visible=out["image"] is not None),
            gr.update(value=out["step"], visible=bool(out["step"])),
            gr.update(maximum=layers - 1, value=out["layer"]),
            gr.update(maximum=heads - 1, value=out["head"]),
            gr.update(maximum=length - 1),
            gr.update(maximum=max(1, length - 1), visible=length > av.figs.MAX_ROWS),
        )

    def exports(model_key, text_a, text_pair, view_id, layer_i, head_i, query_i, row_i, other_key, lang, progress=gr.Progress()):
        with friendly_errors(lang):
            out = av.render(
                service, model_key, text_a, text_pair, view_id, layer_i, head_i, query_i, row_i, other_key, lang, progress
            )
            payload = av.api_payload(out["lm"], out["result"], out["layer"], out["head"], row_i)
        stem = f"attention-{model_key}-L{out['layer']}-H{out['head']}"
        paths = [export_json(f"{stem}.json", payload)]
        figure = out["plot"] or out["plot2"]
        if figure is not None:
            paths.append(export_figure_html(f"{stem}-{view_id}.html", figure))
        matrix = out["matrix"] if out["matrix"] is not None else av.att.head_map(out["result"], out["layer"], out["head"])
        paths.append(export_file(f"{stem}.csv", av.matrix_csv(out["result"].tokens, matrix)))
        return paths

    def attention(
        model: str, text: str, text_b: str = "", layer: int = 0, head: int = 0, row_start: int = 0, lang: str = "en"
    ) -> dict:
        """Attention of one layer and head (tokens, T x T matrix in row windows) and the summaries, as JSON."""
        lm, result = service.result(model, text, text_b, lang)
        with friendly_errors(lang):
            return av.api_payload(lm, result, int(layer), int(head), int(row_start))

    shown = gr.State(False)  # whether this user has a result on screen
    for event in (run.click, text.submit):
        event(show, inputs, outputs, api_visibility="private").success(lambda: True, None, shown, api_visibility="private")
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

    def open_thumbnail(model_key: str, text_a: str, text_pair: str, lang: str, evt: gr.SelectData):
        return av.select_thumbnail(service, evt, model_key, text_a, text_pair, lang)

    image.select(open_thumbnail, [model, text, text_b, ui.lang], [layer, head, view], api_visibility="private")
    export.click(exports, inputs, files, api_visibility="private")
    gr.api(attention, api_name="attention")
    share_link_row("attention", {"model": model, "text": text, "text_b": text_b, "view": view, "layer": layer, "head": head}, loc)
    return {"model": model, "text": text, "text_b": text_b, "view": view, "layer": layer, "head": head}
