"""Polysemy tab: one word in many sentences, contextual models against static vectors.

Widgets and events only: the run event and the /polysemy endpoint both call `playground.polysemy.run_polysemy`;
`polysemy_render` draws the result, and a language switch redraws the kept result.
"""

from __future__ import annotations

import json
from typing import Any

import gradio as gr

from playground import availability
from playground.text_units import has_cjk
from playground.polysemy import KINDS, PolysemyRequest, PolysemyRun, check_models, check_request, run_polysemy
from playground.ui.common.widgets import for_request
from playground.registry import get_spec
from playground.serialize import jsonable
from playground.ui.polysemy import render
from playground.ui.common.widgets import (
    download_row,
    friendly_errors,
    model_choices,
    result_hint,
    reveal_after,
    unavailable_panel,
)
from playground.ui.common.i18n import choices, t
from playground.ui.common.code_panel import code_panel
from playground.ui.common.links import LinkRun, Step, reveal
from playground.ui.common.share import share_link_row

ALL_KINDS = (*KINDS, "elmo", "static")  # every kind with a row in embeddings.VECTORS
PRESETS = json.loads((availability.ASSETS / "polysemy" / "presets.json").read_text(encoding="utf-8"))
DEFAULT_MODELS = ("minilm", "glove")
CUSTOM = "custom"  # the example-set menu's entry for sentences that are no preset
LAYERS = [("polysemy.layer_last", "last")]
MAX_LAYERS = 48  # offered before the first run; afterwards the chosen models' own depth


def _readable(preset: dict) -> bool:
    """Whether some available model can read the preset's language (English needs nothing special)."""
    lang = preset.get("lang", "en")
    return lang == "en" or any(s.speaks(lang) for s in availability.available_specs(*KINDS))


def preset_choices(lang: str) -> list[tuple[str, str]]:
    """The example sets, those no available model can read marked as such (offline: the Chinese ones); and "your own"."""
    out = []
    for key, preset in PRESETS.items():
        name = t(f"polysemy.preset.{key}", lang)
        out.append((name if _readable(preset) else t("polysemy.preset_unreadable", lang, name=name), key))
    return out + [(t("polysemy.preset.custom", lang), CUSTOM)]


def preset_of(word: Any, sentences: Any) -> str:
    """The example set these inputs are (what the menu shows after a link or an edit), or CUSTOM."""
    lines = [line.strip() for line in str(sentences or "").splitlines() if line.strip()]
    for key, preset in PRESETS.items():
        if str(word or "").strip() == preset["word"] and lines == preset["sentences"]:
            return key
    return CUSTOM


def chinese_models(keys: Any) -> Any:
    """The chosen models plus the available ones that read Chinese, when none of the chosen does (a Chinese preset)."""
    chosen = [k for k in keys or [] if isinstance(k, str)]
    speakers = [s.key for s in availability.available_specs(*KINDS) if s.speaks("zh")]
    if not speakers or any(k in speakers for k in chosen):
        return gr.update()
    return chosen + speakers[:1]


def _chinese_note(word: str, lang: str) -> str:
    """Say, before anyone runs it, that Chinese needs a model that is not bundled (unless one is available)."""
    if not has_cjk(word):
        return ""
    speaks = [s for s in availability.available_specs(*KINDS) if s.speaks("zh")]
    return "" if speaks else t("polysemy.zh_needs_model", lang)


def compare(word, sentences, keys, input_embeddings, layer, pooling, projection, dims, lang, progress=None) -> PolysemyRun:
    """The one backend entry, with the app's runtime; its refusals (types, the allow-list, each model's kind,
    checked before anything loads) become a clear gr.Error in the user's language."""
    request = PolysemyRequest(
        word=word,
        sentences=sentences,
        models=keys,
        input_embeddings=input_embeddings,
        layer=layer,
        pooling=pooling,
        projection=projection,
        dims=dims,
    )
    with friendly_errors(lang):
        check_request(request)  # before anything loads: a progress message names only models that will run
        if progress is not None:
            specs = [get_spec(key) for key in check_models(keys)]
            progress(0.5, desc=t("common.running", lang, model=", ".join(s.label for s in specs)))
        result = run_polysemy(request, for_request(lang, progress))
    for line in render.run_warnings(result, lang):
        gr.Warning(line)
    return result


def run_event(word, sentences, keys, input_embeddings, layer, pooling, projection, dims, lang, progress=gr.Progress()):
    return compare(word, sentences, keys, input_embeddings, layer, pooling, projection, dims, lang, progress)


def link_event(word, sentences, keys, input_embeddings, layer, pooling, projection, dims, lang, progress=gr.Progress()):
    """A share link filled the inputs: run them, and let the example-set menu name what the sentences are."""
    result = compare(word, sentences, keys, input_embeddings, layer, pooling, projection, dims, lang, progress)
    return result, preset_of(word, sentences)


def polysemy_api(
    word: str,
    sentences: str,
    models: list[str],
    input_embeddings: bool = True,
    layer: str = "last",
    pooling: str = "mean",
    projection: str = "pca",
    dims: int = 2,
    lang: str = "en",
) -> dict[str, Any]:
    """Follow `word` through `sentences` in each model: per-layer vectors, their projection and sense separations.

    Args:
        word: the word to follow, at most 100 characters; it must occur in every sentence.
        sentences: 2 to 64 lines, one sentence each, optionally "label | sentence" (the label names the sense);
            at most 20,000 characters in all.
        models: 1 to 12 registry keys of encoders, masked LMs, ELMo or static vectors (e.g. "minilm", "bert",
            "elmo-small", "glove").
        input_embeddings: also show each model's input embedding row (layer 0, before any context).
        layer: "last", or a layer number from 0 to the model's depth.
        pooling: "mean" or "first": how the word's sub-word pieces become one vector.
        projection: "pca" or "tsne".
        dims: 2 or 3, the projection's dimensions.
        lang: "en" or "zh", the language of messages and labels in the result.
    """
    return jsonable(compare(word, sentences, models, input_embeddings, layer, pooling, projection, dims, lang))


def layer_choices(lang: str, deepest: int = MAX_LAYERS) -> list[tuple[str, str]]:
    return choices(LAYERS, lang) + [(str(i), str(i)) for i in range(deepest + 1)]


def show(result: PolysemyRun | None, lang: str, layer: str = "last") -> list[Any]:
    """Everything the tab draws from one run; also what a language switch calls (nothing is recomputed)."""
    if result is None:
        return [gr.update()] * 11
    figs = [gr.update(value=f, visible=f is not None) for f in render.figures(result, lang)]  # absent: said in notes
    table = gr.update(value=render.score_rows(result, lang), headers=render.score_headers(lang, result))
    deepest = render.deepest_layer(result)  # the chosen models' layers, not a guess
    return [
        render.reading(result, lang),
        render.notes(result, lang),
        render.provenance_md(result, lang),
        *figs,
        table,
        None,  # downloads of an earlier result are cleared; new ones are built on click
        gr.update(visible=True),
        jsonable(result),
        gr.update(choices=layer_choices(lang, deepest), value=layer if layer == "last" or int(layer) <= deepest else "last"),
    ]


def build_tab(ui) -> dict:
    loc = ui.loc
    loc.add(gr.Markdown(t("polysemy.intro")), value="polysemy.intro")
    with gr.Row():
        with gr.Column(scale=2):
            preset = loc.add(
                gr.Dropdown(preset_choices("en"), value="bank", label=t("polysemy.preset")),
                label="polysemy.preset",
                choices=preset_choices,
            )
            word = loc.add(gr.Textbox(PRESETS["bank"]["word"], label=t("polysemy.word"), max_lines=1), label="polysemy.word")
            sentences = loc.add(
                gr.Textbox(
                    "\n".join(PRESETS["bank"]["sentences"]),
                    lines=8,
                    max_lines=20,
                    label=t("polysemy.sentences"),
                    info=t("polysemy.sentences_info"),
                ),
                label="polysemy.sentences",
                info="polysemy.sentences_info",
            )
            zh_note = gr.Markdown("")
        with gr.Column(scale=1):
            available = [key for _, key in model_choices(ALL_KINDS, "en")]
            keys = loc.add(
                gr.CheckboxGroup(
                    model_choices(ALL_KINDS, "en"),
                    value=[k for k in DEFAULT_MODELS if k in available],
                    label=t("polysemy.models"),
                ),
                label="polysemy.models",
                choices=lambda lang: model_choices(ALL_KINDS, lang),
            )
            static_rows = loc.add(gr.Checkbox(True, label=t("polysemy.input_embeddings")), label="polysemy.input_embeddings")
            layer = loc.add(
                gr.Dropdown(layer_choices("en"), value="last", label=t("polysemy.layer"), info=t("polysemy.layer_info")),
                label="polysemy.layer",
                info="polysemy.layer_info",
                choices=layer_choices,
            )
            pool_pairs = [("polysemy.pooling_mean", "mean"), ("polysemy.pooling_first", "first")]
            pooling = loc.add(
                gr.Radio(choices(pool_pairs, "en"), value="mean", label=t("polysemy.pooling")),
                label="polysemy.pooling",
                choices=lambda lang: choices(pool_pairs, lang),
            )
            proj_pairs = [("polysemy.pca", "pca"), ("polysemy.tsne", "tsne")]
            projection = loc.add(
                gr.Radio(choices(proj_pairs, "en"), value="pca", label=t("polysemy.projection")),
                label="polysemy.projection",
                choices=lambda lang: choices(proj_pairs, lang),
            )
            dim_pairs = [("polysemy.dims_2", "2"), ("polysemy.dims_3", "3")]
            dims = loc.add(
                gr.Radio(choices(dim_pairs, "en"), value="2", label=t("polysemy.dims")),
                label="polysemy.dims",
                choices=lambda lang: choices(dim_pairs, lang),
            )
            unavailable_panel(ALL_KINDS, loc)
    run = loc.add(gr.Button(t("polysemy.run"), variant="primary", elem_id="polysemy-run"), value="polysemy.run")
    hint = result_hint(loc, "polysemy.hint")
    with gr.Column(visible=False) as result_area:  # no empty plots, header-only table or downloads box before a run
        reading = gr.Markdown(elem_id="polysemy-reading")
        notes, prov = gr.Markdown(), gr.Markdown()
        scatter = gr.Plot(show_label=False, elem_id="polysemy-scatter")
        heatmap = gr.Plot(show_label=False, elem_id="polysemy-heatmap")
        curve = gr.Plot(show_label=False, elem_id="polysemy-curve")
        table = loc.add(
            gr.Dataframe(headers=render.score_headers("en"), label=t("polysemy.scores"), interactive=False),
            label="polysemy.scores",
        )
        state = gr.State(None)  # this user's last PolysemyRun: redrawn on a language switch, exported on click
        files = download_row(loc, render.exports, [state, ui.lang], label_key="polysemy.exports")
    with loc.add(gr.Accordion(t("polysemy.api_json"), open=False, visible=False), label="polysemy.api_json") as raw:
        data = gr.JSON()

    def use_preset(key, chosen, lang):
        p = PRESETS.get(key)
        if p is None:
            return gr.update(), gr.update(), "", gr.update()
        models = chinese_models(chosen) if p.get("lang") == "zh" else gr.update()  # a Chinese set gets a Chinese reader
        return p["word"], "\n".join(p["sentences"]), _chinese_note(p["word"], lang), models

    preset.input(use_preset, [preset, keys, ui.lang], [word, sentences, zh_note, keys], api_visibility="private", queue=False)
    for box in (word, sentences):  # an edit makes the menu say "your own sentences" (or the preset they still are)
        box.input(preset_of, [word, sentences], preset, api_visibility="private", queue=False)
    word.blur(lambda w, lang: _chinese_note(w, lang), [word, ui.lang], zh_note, api_visibility="private", queue=False)
    inputs = [word, sentences, keys, static_rows, layer, pooling, projection, dims, ui.lang]
    outputs = [reading, notes, prov, scatter, heatmap, curve, table, files, raw, data, layer]
    runs = [
        # Progress ("Loading MiniLM…") on the hint and the reading: the run's own output is a State nobody sees.
        run.click(run_event, inputs, state, api_visibility="private", show_progress_on=[hint, reading]).success(
            show, [state, ui.lang, layer], outputs, api_visibility="private"
        )
    ]
    # A language switch redraws the kept result in the new language; nothing is recomputed.
    ui.on_lang(show, [state, ui.lang, layer], outputs)
    gr.api(polysemy_api, api_name="polysemy")
    params = {
        "example": preset,
        "word": word,
        "sentences": sentences,
        "models": keys,
        "input_embeddings": static_rows,
        "layer": layer,
        "pooling": pooling,
        "projection": projection,
        "dims": dims,
    }
    shared = share_link_row("polysemy", params, ui)
    # Opening a link restores every input above, then runs them: the view shown is the one that was shared.
    reveal_after(runs, hint, [result_area])
    names = ("word", "sentences", "models", "input_embeddings", "layer", "pooling", "projection", "dims")
    panel = code_panel(ui, runs, inputs[:-1], lambda *v: ("polysemy", dict(zip(names, v))))
    steps = (Step(link_event, inputs, [state, preset]), Step(show, [state, ui.lang, layer], outputs, joins=True))
    return shared.running(LinkRun((*steps, panel.link_step), reveal(hint, [result_area]), (hint,)))
