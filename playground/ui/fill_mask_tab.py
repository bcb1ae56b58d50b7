"""Fill-mask tab: BERT-family models side by side, with the causal model's two honest readings.

Widgets and events only: the page and the /fill_mask endpoint both call
`playground.fill_mask.run_fill_mask`; `fill_mask_render` draws what it returns.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gradio as gr

from playground.availability import available_specs
from playground.fill_mask import KINDS, FillMaskRequest, FillMaskRun, default_models, run_fill_mask
from playground.fill_mask_data import MAX_TOP_K
from playground.ui import fill_mask_render as render
from playground.ui.common import (
    check_keys,
    download_row,
    friendly_errors,
    load_model,
    model_choices,
    on_gpu,
    result_hint,
    reveal_after,
    unavailable_panel,
)
from playground.ui.i18n import UIContext, t
from playground.ui.lab_models import model_menu, session_for, token_of
from playground.ui.share import share_link_row

EXAMPLES = json.loads((Path(__file__).parents[2] / "assets" / "fill_mask" / "examples.json").read_text(encoding="utf-8"))


def _loader(lang: str, progress: Any):
    """`load` for the backend: a progress message while a model loads, then while it runs; clean errors."""

    def load(key: str):
        lm = load_model(key, lang, progress)
        if progress is not None:
            progress(0.5, desc=t("common.running", lang, model=lm.spec.label))
        return lm

    return load


def fill(text: Any, keys: Any, top_k: Any, lang: str, progress: Any = None, token: str | None = None) -> FillMaskRun:
    """What the page and the API share: types checked first, the model keys in the user's language, then the backend.

    `token`: the page's MLM lab token (the API has none), so this session's lab model can be one of the keys.
    """
    with friendly_errors(lang):
        request = FillMaskRequest(text, keys, top_k).validate()  # before anything iterates or compares the values
    session = session_for(token, request.models or (), lang)
    others = [k for k in request.models or () if k not in session]
    if others or not session:  # the allow-list for every other key (and "choose a model" when there is none)
        check_keys(others, lang)
    with friendly_errors(lang):
        request = FillMaskRequest(text, tuple(k for k in request.models if k), top_k)
        return run_fill_mask(request, load=_loader(lang, progress), on_device=on_gpu, session=session)


def example_label(example: dict, lang: str) -> str:
    """A preset as the example list shows it: marked when no model that can run here reads its language."""
    readable = any(spec.speaks(example["lang"]) for spec in available_specs(*KINDS))
    return example["text"] if readable else t("fill_mask.example_no_reader", lang, text=example["text"])


def example_samples(lang: str) -> list[list[str]]:
    return [[example_label(e, lang)] for e in EXAMPLES]


def pick_example(index: int) -> str:
    """The preset's own text (never its on-screen mark) into the text box."""
    return EXAMPLES[index]["text"]


def run_view(text, keys, top_k, lang, token=None, progress=gr.Progress()):
    """The UI event: figure, table, notes; the downloads box is emptied (its files described the previous run)."""
    run = fill(text, keys, top_k, lang, progress, token)
    return (*render.render(run, lang), None, run)


def rerun_in(last: FillMaskRun | None, lang: str):
    """A language switch redraws the kept result in the new language: no model runs again."""
    return [gr.update()] * 5 if last is None else (*render.render(last, lang), None, gr.update())


def fill_mask_api(text: str, models: list[str] | None = None, top_k: int = 5, lang: str = "en") -> dict:
    """Fill every [MASK] in `text` with each model; JSON per model, per mask, [{token, probability, raw}].

    `models` None or [] means the default selection; every value is type-checked on the server.
    """
    return render.as_json(fill(text, default_models() if models is None or models == [] else models, top_k, lang), lang)


def build_tab(ui: UIContext) -> dict[str, Any]:
    loc = ui.loc
    loc.add(gr.Markdown(t("fill_mask.intro", "en")), value="fill_mask.intro")
    with gr.Row():
        with gr.Column(scale=3):
            text = loc.add(
                gr.Textbox(EXAMPLES[0]["text"], label=t("fill_mask.text", "en"), info=t("fill_mask.text_info", "en"), lines=2),
                label="fill_mask.text",
                info="fill_mask.text_info",
            )
            # A dataset rather than gr.Examples: its rows carry a mark ("needs a Chinese model") that must not
            # reach the text box, so a click puts the preset's own text there.
            examples = loc.add(
                gr.Dataset(components=[text], samples=example_samples("en"), type="index", label=t("common.examples", "en")),
                label="common.examples",
                samples=example_samples,
            )
            examples.click(pick_example, examples, text, api_visibility="private", queue=False)
        with gr.Column(scale=2):
            models = model_menu(  # with "Your lab model" once this session trained one in the MLM lab
                ui,
                gr.CheckboxGroup(
                    model_choices(KINDS, "en"),
                    value=default_models(),
                    label=t("common.models", "en"),
                    info=t("fill_mask.models_info", "en"),
                ),
                KINDS,
                label="common.models",
                info="fill_mask.models_info",
            )
            top_k = loc.add(gr.Slider(1, MAX_TOP_K, value=5, step=1, label=t("fill_mask.top_k", "en")), label="fill_mask.top_k")
            run = loc.add(gr.Button(t("fill_mask.run", "en"), variant="primary"), value="fill_mask.run")
    loc.add(gr.Markdown(t("fill_mask.causal_note", "en")), value="fill_mask.causal_note")
    unavailable_panel(KINDS, loc)
    hint = result_hint(loc, "fill_mask.hint")
    with gr.Column(visible=False) as result_area:  # no empty plot, header-only table or downloads box before a run
        plot = loc.add(gr.Plot(label=t("fill_mask.plot", "en"), elem_id="fill-mask-plot"), label="fill_mask.plot")
        info = gr.Markdown(elem_classes="tp-provenance")
        table = loc.add(gr.Dataframe(label=t("fill_mask.table", "en"), interactive=False, wrap=True), label="fill_mask.table")
        last = gr.State(None)  # this user's last FillMaskRun: redrawn on a language switch, exported on demand
        files = download_row(loc, render.downloads, [last, ui.lang], label_key="fill_mask.exports")
    inputs, outputs = [text, models, top_k, ui.lang, *token_of(ui)], [plot, table, info, files, last]
    runs = [
        run.click(run_view, inputs, outputs, api_visibility="private"),
        text.submit(run_view, inputs, outputs, api_visibility="private"),
    ]
    ui.lang.change(rerun_in, [last, ui.lang], outputs, api_visibility="private")
    gr.api(fill_mask_api, api_name="fill_mask")
    shared = share_link_row("fill_mask", {"text": text, "models": models, "top_k": top_k}, ui)
    runs.append(shared.restored.change(run_view, inputs, outputs, api_visibility="private"))  # a link shows its result too
    reveal_after(runs, hint, [result_area])
    return shared
