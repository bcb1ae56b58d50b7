"""Inside BERT tab: input embeddings, ALBERT's savings, next-sentence prediction, fine-tuning heads.

Widgets and events only: the page and the /inside_* endpoints call the backend entries in
`playground.inside`; `inside_render` draws what they return.
"""

from __future__ import annotations

from typing import Any

import gradio as gr

from playground import checks
from playground.inside.configs import PUBLISHED
from playground.inside.embeddings_input import EMBEDDING_PARTS, KINDS, EmbeddingsRequest, run_embeddings
from playground.inside.heads import HeadsRequest, run_heads, sources
from playground.inside.nsp import NspRequest, run_nsp
from playground.inside.params import SHARING, ParamsRequest, run_params
from playground.registry import get_spec
from playground.serialize import jsonable
from playground.ui.inside import render
from playground.ui.common.widgets import (
    download_row,
    export_figure_html,
    export_json,
    friendly_errors,
    model_choices,
    reveal_after,
)
from playground.ui.common.widgets import for_request
from playground.ui.common.i18n import UIContext, choices, t
from playground.ui.common.code_panel import code_panel
from playground.ui.common.links import LinkRun, Step, reveal
from playground.ui.common.share import share_link_row

VIEWS = ("embeddings", "params", "nsp", "heads")
SHARE_CHOICES = [(f"inside.params.share.{s}", s) for s in SHARING]
TEXT_A, TEXT_B = "The cat sat on the mat.", "It fell asleep in the sun."
NSP_TEXT = (
    "The cat sat on the mat. It fell asleep in the sun. Later it woke up hungry.\n\n"
    "Stocks fell sharply on Monday. Investors worried about interest rates. Markets recovered by Friday."
)


def _embedding_choices(lang: str) -> list[tuple[str, str]]:
    return [(label, key) for label, key in model_choices(KINDS, lang) if get_spec(key).model_type in EMBEDDING_PARTS]


# --- backend calls shared by the page and the API (errors in the user's language) ---


def embeddings(text_a: str, text_b: str, model: str, lang: str, progress: Any = None):
    with friendly_errors(lang):
        request = EmbeddingsRequest(text_a, "" if text_b is None else text_b, "minilm" if model is None else model)
        return run_embeddings(request, for_request(lang, progress))


def params(base: str, embedding_size: int, share_layers: bool | str, lang: str):
    with friendly_errors(lang):
        return run_params(ParamsRequest("bert-base" if base is None else base, embedding_size, share_layers), for_request(lang))


def nsp(text: str, seed: int, budget: int, lang: str, model: str | None = None, progress: Any = None):
    with friendly_errors(lang):
        request = NspRequest(text, seed, budget, None if model is None or model == "" else model)
        return run_nsp(request, for_request(lang, progress))


def heads(source: str, lang: str):
    with friendly_errors(lang):
        return run_heads(HeadsRequest("bert-base" if source is None else source), for_request(lang))


# --- rendering: each view's outputs ---


def _shown(value: Any) -> Any:
    return gr.update(value=value, visible=value is not None)


def _outputs(view: str, run: Any, lang: str) -> list[Any]:
    """Updates for one view's components (hint hidden, results shown)."""
    if view == "embeddings":
        fig, md = render.embeddings_view(run, lang)
        return [gr.update(visible=False), _shown(fig), md]
    if view == "params":
        fig, md, headers, rows = render.params_view(run, lang)
        return [gr.update(visible=False), _shown(fig), md, gr.update(value=rows, headers=headers, visible=True)]
    if view == "nsp":
        top, layout, probes, md = render.nsp_view(run, lang)
        return [gr.update(visible=False), top, _shown(layout), _shown(probes), md]
    fig, md, headers, rows = render.heads_view(run, lang)
    return [gr.update(visible=False), _shown(fig), md, gr.update(value=rows, headers=headers, visible=True)]


SIZES = {"embeddings": 3, "params": 4, "nsp": 5, "heads": 4}


def _all(kept: dict, lang: str, only: str | None = None) -> list[Any]:
    out = []
    for view in VIEWS:
        run = kept.get(view)
        out += _outputs(view, run, lang) if run is not None and only in (None, view) else [gr.update()] * SIZES[view]
    return out


def _compute(view, text_a, text_b, emb_model, base, E, share, nsp_text, seed, budget, source, lang, progress=None):
    if view == "embeddings":
        return embeddings(text_a, text_b, emb_model, lang, progress)
    if view == "params":
        return params(base, E, share, lang)
    if view == "nsp":
        return nsp(nsp_text, seed, budget, lang, progress=progress)
    return heads(source, lang)


def show(view, text_a, text_b, emb_model, base, E, share, nsp_text, seed, budget, source, lang, kept, progress=gr.Progress()):
    view = view if view in VIEWS else "embeddings"
    run = _compute(view, text_a, text_b, emb_model, base, E, share, nsp_text, seed, budget, source, lang, progress)
    kept = {**(kept or {}), view: run}
    return (*_all(kept, lang, only=view), kept)


def recount(base, E, share, lang, kept):
    """The sliders of the savings view recompute at once (meta-device builds take a fraction of a second)."""
    kept = {**(kept or {}), "params": params(base, E, share, lang)}
    return (*_all(kept, lang, only="params"), kept)


def relabel(kept, lang):
    return (*_all(kept or {}, lang), gr.update())


def downloads(view, kept, lang):
    run = (kept or {}).get(view)
    if run is None:
        return None
    paths = [export_json(f"inside-{view}.json", jsonable(run))]
    figure = _outputs(view, run, lang)[1]
    value = figure.get("value") if isinstance(figure, dict) else None
    if value is not None:
        paths.append(export_figure_html(f"inside-{view}.html", value))
    return paths


# --- the JSON endpoints ---


def inside_embeddings_api(text_a: str, text_b: str = "", model: str = "minilm", lang: str = "en") -> dict:
    """Token, segment and position embeddings per token, their sum, LayerNorm, and max |difference| to the model's own.

    Args:
        text_a: the first sentence (at most 64 tokens with text_b).
        text_b: a second sentence ("" for none).
        model: a registry key of a BERT-style encoder (e.g. "minilm", "bert").
        lang: "en" or "zh", the language of messages and labels in the result.
    """
    return jsonable(embeddings(text_a, text_b, model, lang))


def inside_params_api(
    base: str = "bert-base", embedding_size: int = 128, share_layers: bool | str = True, lang: str = "en"
) -> dict:
    """Parameter counts by part of BERT/RoBERTa/DistilBERT/ELECTRA/ALBERT (published configs, the papers' figures
    beside) plus an ALBERT-style "what if" model.

    Args:
        base: a BERT-shaped published configuration to take the "what if" sizes from (e.g. "bert-base",
            "roberta-base", "albert-base"; the tab's menu lists them all).
        embedding_size: the factorised embedding size E of the "what if" model, a whole number from 1 to the hidden size.
        share_layers: which weights the "what if" model shares across layers: true or "all", "attention", "ffn",
            false or "none".
        lang: "en" or "zh", the language of messages and labels in the result.
    """
    return jsonable(params(base, embedding_size, share_layers, lang))


def inside_nsp_api(text: str, seed: int = 0, budget: int = 32, model: str = "", lang: str = "en") -> dict:
    """NSP pairs, [CLS] A [SEP] B [SEP] layout, RoBERTa packing, ALBERT sentence order; NSP probabilities online.

    Args:
        text: a few sentences, at most 5,000 characters and 200 sentences.
        seed: a whole number, 0 or more: which random sentence becomes the NotNext partner.
        budget: RoBERTa's packing budget in tokens, a whole number from 8 to 512.
        model: "" for the NSP model when it can load, else a registry key of an NSP model ("bert-nsp").
        lang: "en" or "zh", the language of messages and labels in the result.
    """
    return jsonable(nsp(text, seed, budget, lang, model or None))


def inside_heads_api(source: str = "bert-base", lang: str = "en") -> dict:
    """Per fine-tuning task: what feeds the head, its weight shapes and its new parameter count.

    Args:
        source: a published config ("bert-base", "roberta-base", "albert-base", ...) or a bundled encoder ("minilm").
        lang: "en" or "zh", the language of messages and labels in the result.
    """
    return jsonable(heads(source, lang))


def build_tab(ui: UIContext) -> Any:
    loc = ui.loc
    loc.add(gr.Markdown(t("inside.intro")), value="inside.intro")
    view_pairs = [(f"inside.view.{v}", v) for v in VIEWS]
    with gr.Row():
        view = loc.add(
            gr.Radio(choices(view_pairs, "en"), value="embeddings", label=t("inside.view"), elem_id="inside-view", scale=4),
            label="inside.view",
            choices=lambda lang: choices(view_pairs, lang),
        )
        run = loc.add(gr.Button(t("inside.run"), variant="primary", elem_id="inside-run", scale=1), value="inside.run")

    emb_choices = _embedding_choices("en")
    with gr.Column(visible=True, elem_id="inside-embeddings") as col_emb:
        with gr.Row():
            text_a = loc.add(gr.Textbox(TEXT_A, label=t("inside.emb.text_a")), label="inside.emb.text_a")
            text_b = loc.add(gr.Textbox(TEXT_B, label=t("inside.emb.text_b")), label="inside.emb.text_b")
            emb_model = loc.add(
                gr.Dropdown(
                    emb_choices,
                    value="minilm" if any(k == "minilm" for _, k in emb_choices) else None,
                    label=t("inside.emb.model"),
                ),
                label="inside.emb.model",
                choices=_embedding_choices,
            )
        emb_out = [
            loc.add(gr.Markdown(t("inside.emb.hint"), elem_classes="tp-hint"), value="inside.emb.hint"),
            gr.Plot(show_label=False, visible=False, elem_id="inside-emb-plot"),
            gr.Markdown(elem_id="inside-emb-info"),
        ]
    with gr.Column(visible=False, elem_id="inside-params") as col_params:
        with gr.Row():
            base = loc.add(
                gr.Dropdown(
                    [(c.label, c.key) for c in PUBLISHED if c.what_if],
                    value="bert-base",
                    label=t("inside.params.base"),
                    info=t("inside.params.base_info"),
                ),
                label="inside.params.base",
                info="inside.params.base_info",
            )
            E = loc.add(gr.Slider(16, 1024, value=128, step=16, label=t("inside.params.E")), label="inside.params.E")
            share = loc.add(
                gr.Radio(choices(SHARE_CHOICES, "en"), value="all", label=t("inside.params.share")),
                label="inside.params.share",
                choices=lambda lang: choices(SHARE_CHOICES, lang),
            )
        params_out = [
            loc.add(gr.Markdown(t("inside.params.hint"), elem_classes="tp-hint"), value="inside.params.hint"),
            gr.Plot(show_label=False, visible=False, elem_id="inside-params-plot"),
            gr.Markdown(elem_id="inside-params-info"),
            gr.Dataframe(interactive=False, visible=False, wrap=True, elem_id="inside-params-table"),
        ]
    with gr.Column(visible=False, elem_id="inside-nsp") as col_nsp:
        with gr.Row():
            nsp_text = loc.add(
                gr.Textbox(NSP_TEXT, lines=5, label=t("inside.nsp.text"), info=t("inside.nsp.text_info"), scale=3),
                label="inside.nsp.text",
                info="inside.nsp.text_info",
            )
            with gr.Column(scale=1):
                seed = gr.Number(0, precision=0, minimum=0, maximum=checks.MAX_SEED, label=t("inside.nsp.seed"))
                seed = loc.add(seed, label="inside.nsp.seed")
                budget = loc.add(gr.Slider(8, 128, value=32, step=1, label=t("inside.nsp.budget")), label="inside.nsp.budget")
        nsp_out = [
            loc.add(gr.Markdown(t("inside.nsp.hint"), elem_classes="tp-hint"), value="inside.nsp.hint"),
            gr.Markdown(elem_id="inside-nsp-top"),
            gr.Plot(show_label=False, visible=False, elem_id="inside-nsp-layout"),
            gr.Plot(show_label=False, visible=False, elem_id="inside-nsp-probes"),
            gr.Markdown(elem_id="inside-nsp-info"),
        ]
    with gr.Column(visible=False, elem_id="inside-heads") as col_heads:
        source = loc.add(gr.Dropdown(sources(), value="bert-base", label=t("inside.heads.source")), label="inside.heads.source")
        heads_out = [
            loc.add(gr.Markdown(t("inside.heads.hint"), elem_classes="tp-hint"), value="inside.heads.hint"),
            gr.Plot(show_label=False, visible=False, elem_id="inside-heads-plot"),
            gr.Markdown(elem_id="inside-heads-info"),
            gr.Dataframe(interactive=False, visible=False, wrap=True, elem_id="inside-heads-table"),
        ]
    kept = gr.State({})  # this user's last result per view: redrawn on a language switch, exported on demand
    with gr.Column(visible=False) as files_area:  # no empty downloads box before a result (each view has its hint)
        files = download_row(loc, downloads, [view, kept, ui.lang], label_key="inside.exports")

    columns = [col_emb, col_params, col_nsp, col_heads]
    pick = lambda v: [gr.update(visible=v == name) for name in VIEWS]  # noqa: E731
    view.input(pick, view, columns, api_visibility="private", queue=False)
    outputs = emb_out + params_out + nsp_out + heads_out + [kept]
    inputs = [view, text_a, text_b, emb_model, base, E, share, nsp_text, seed, budget, source, ui.lang, kept]
    clicked = run.click(show, inputs, outputs, api_visibility="private")
    clicked.then(lambda: None, None, files, api_visibility="private")
    recounts = [
        trigger(recount, [base, E, share, ui.lang, kept], outputs, api_visibility="private")
        for trigger in (E.release, share.input, base.input)
    ]
    ui.on_lang(relabel, [kept, ui.lang], outputs)
    gr.api(inside_embeddings_api, api_name="inside_embeddings")
    gr.api(inside_params_api, api_name="inside_params")
    gr.api(inside_nsp_api, api_name="inside_nsp")
    gr.api(inside_heads_api, api_name="inside_heads")
    shared = share_link_row(
        "inside",
        {"view": view, "text_a": text_a, "text_b": text_b, "model": emb_model, "base": base, "E": E, "share": share,
         "text": nsp_text, "seed": seed, "budget": budget, "source": source},
        ui,
    )  # fmt: skip
    reveal_after([clicked, *recounts], None, [files_area])  # a slider's recount is a result too
    # One Code panel: the script of the view on screen (a recount of the parameters refreshes it too).
    panel = code_panel(ui, [clicked, *recounts], inputs[:-2], code_request)
    # A link opens its view's column and runs it, in its own event (progress on the view's hint), then its script.
    hints = (emb_out[0], params_out[0], nsp_out[0], heads_out[0])
    steps = (Step(pick, [view], columns), Step(show, inputs, outputs), panel.link_step)
    return shared.running(LinkRun(steps, reveal(None, [files_area]), hints))


def code_request(view, text_a, text_b, model, base, E, share, text, seed, budget, source) -> tuple[str, dict]:
    """The view on screen as /code's (view, request): each view's own parameters, as its endpoint names them."""
    requests = {
        "embeddings": lambda: {"text_a": text_a, "text_b": text_b, "model": model},
        "params": lambda: {"base": base, "embedding_size": E, "share_layers": share},
        "nsp": lambda: {"text": text, "seed": seed, "budget": budget},
        "heads": lambda: {"source": source},
    }
    return f"inside_{view}", requests[view]()
