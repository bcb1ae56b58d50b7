"""Fill-mask tab: BERT-family models side by side, with the causal model's two honest readings.

Widgets and events only: the page and the /fill_mask endpoint both call
`playground.fill_mask.run_fill_mask`; `fill_mask_render` draws what it returns.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import gradio as gr

from playground import availability

from playground.availability import available_specs
from playground.fill_mask import KINDS, FillMaskRequest, FillMaskRun, default_models, run_fill_mask
from playground.fill_mask.data import MAX_TOP_K
from playground.ui.fill_mask import render
from playground.ui.common.widgets import (
    check_keys,
    download_row,
    friendly_errors,
    model_choices,
    result_hint,
    reveal_after,
    unavailable_panel,
)
from playground.runtime import Runtime
from playground.ui.common.i18n import UIContext, t
from playground.ui.common.widgets import for_request
from playground.ui.common.lab_models import model_menu, session_for, token_of
from playground.ui.common.code_panel import code_panel
from playground.ui.common.links import LinkRun, Step, reveal
from playground.ui.common.share import share_link_row

EXAMPLES = json.loads((availability.ASSETS / "fill_mask" / "examples.json").read_text(encoding="utf-8"))


def _runtime(lang: str, progress: Any, session) -> Runtime:
    """The app runtime for this run: a progress message while a model loads, then while it runs."""
    runtime = for_request(lang, progress).with_session(session)
    if progress is None:
        return runtime

    base = runtime.load  # the app runtime's load path (looked up per event: tests give the app a runtime of theirs)

    def load(key: str, **kwargs):
        lm = base(key, **kwargs)
        progress(0.5, desc=t("common.running", lang, model=lm.spec.label))
        return lm

    return dataclasses.replace(runtime, load=load)


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
        return run_fill_mask(request, _runtime(lang, progress, session))


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
    return (*render.render(run, lang), gr.update(value=None, visible=False), run)


def rerun_in(last: FillMaskRun | None, lang: str):
    """A language switch redraws the kept result in the new language: no model runs again."""
    return [gr.update()] * 5 if last is None else (*render.render(last, lang), gr.update(value=None, visible=False), gr.update())


def fill_mask_api(text: str, models: list[str] | None = None, top_k: int = 5, lang: str = "en") -> dict:
    """Fill every [MASK] in `text` with each model; JSON per model, per mask, [{token, probability, raw}].

    Args:
        text: a sentence with 1 to 8 [MASK] blanks (any case), at most 50,000 characters.
        models: registry keys of masked or causal LMs, at most 8 (e.g. "bert", "roberta", "bert-chinese",
            "minilm-mlm", "e5-mlm", "smollm2-instruct"); None or [] for the default selection. A causal model
            rescores at most 100 candidate words per blank (up to 50 from each of two next-token distributions;
            the note gives the count).
        top_k: how many candidates per blank, a whole number from 1 to 20.
        lang: "en" or "zh", the language of messages and labels in the result.
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
        # the ⚠ lines (unknown tokens, no Chinese) come before the bars they qualify; provenance and notes with them
        info = gr.Markdown(elem_classes="tp-provenance", elem_id="fill-mask-info")
        plot = loc.add(gr.Plot(label=t("fill_mask.plot", "en"), elem_id="fill-mask-plot"), label="fill_mask.plot")
        table = loc.add(gr.Dataframe(label=t("fill_mask.table", "en"), interactive=False, wrap=True), label="fill_mask.table")
        last = gr.State(None)  # this user's last FillMaskRun: redrawn on a language switch, exported on demand
        files = download_row(loc, render.downloads, [last, ui.lang], label_key="fill_mask.exports")
    inputs, outputs = [text, models, top_k, ui.lang, *token_of(ui)], [plot, table, info, files, last]
    runs = [
        # Progress ("Loading MiniLM…") on the hint too: before the first result it is what the student looks at.
        run.click(run_view, inputs, outputs, api_visibility="private", show_progress_on=[hint, *outputs]),
        text.submit(run_view, inputs, outputs, api_visibility="private", show_progress_on=[hint, *outputs]),
    ]
    ui.on_lang(rerun_in, [last, ui.lang], outputs)
    gr.api(fill_mask_api, api_name="fill_mask")
    shared = share_link_row("fill_mask", {"text": text, "models": models, "top_k": top_k}, ui)
    reveal_after(runs, hint, [result_area])
    panel = code_panel(ui, runs, [text, models, top_k], lambda *v: ("fill_mask", dict(zip(("text", "models", "top_k"), v))))
    return shared.running(
        LinkRun((Step(run_view, inputs, outputs), panel.link_step), reveal(hint, [result_area]), (hint,))
    )  # a link shows its result
