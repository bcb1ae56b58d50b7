"""ELMo tab: the layer mix on fixed axes, the biLM's two one-sided directions, out-of-vocabulary words.

Widgets and events only: events and the /elmo_* endpoints call playground.elmo.views; elmo_render draws.
Slider moves recompute only the mix and its projection (the per-layer vectors are cached in the backend).
"""

from __future__ import annotations

from typing import Any

import gradio as gr

from playground.elmo.views import DEFAULT_SENTENCES, DEFAULT_WORD
from playground.elmo.views import (
    ElmoBilmRequest,
    ElmoMixRequest,
    ElmoMixResult,
    ElmoOovRequest,
    run_elmo_bilm,
    run_elmo_mix,
    run_elmo_oov,
)
from playground.registry import get_spec
from playground.serialize import jsonable
from playground.ui.elmo import render
from playground.ui.common.widgets import (
    download_row,
    export_json,
    friendly_errors,
    label_in,
    model_choices,
    provenance,
    result_hint,
    reveal_after,
    unavailable_panel,
)
from playground.ui.common.widgets import for_request
from playground.ui.common.i18n import choices, t
from playground.ui.common.code_panel import CodePanel
from playground.ui.common.links import LinkRun, Step, reveal
from playground.ui.common.share import share_link_row

KINDS = ("elmo",)
DEFAULT_MODEL = "elmo-small"
DEFAULT_BILM = "the river overflowed its bank after the heavy rain"
DEFAULT_OOV = "playgroundy transformr bank"
# Raw scores s_j (softmaxed by the mix): "syntax-heavy" leans on layer 1, "semantics-heavy" on layer 2 (Peters et al.)
PRESETS = {"equal": (0.0, 0.0, 0.0), "syntax": (0.0, 2.0, 0.0), "semantics": (0.0, 0.0, 2.0), "layer0": (3.0, -3.0, -3.0)}
PRESET_KEYS = [(f"elmo.mix.preset.{k}", k) for k in PRESETS] + [("elmo.mix.preset.custom", "custom")]


def preset_of(s0: float, s1: float, s2: float) -> str:
    """The preset these slider values are, or "custom": the radio never says "equal" beside a link's w₂ = 2."""
    values = tuple(round(float(x), 3) for x in (s0, s1, s2))
    return next((key for key, preset in PRESETS.items() if values == preset), "custom")


# ELMo runs on the CPU (models.py keeps its small LSTMs there): no GPU call, on a ZeroGPU Space too.
_mix, _bilm, _oov = run_elmo_mix, run_elmo_bilm, run_elmo_oov


def mix(model, word, sentences, s0, s1, s2, gamma, lang, progress=None) -> ElmoMixResult:
    with friendly_errors(lang):
        return _mix(ElmoMixRequest(model, word, sentences, [s0, s1, s2], gamma), for_request(lang, progress))


def bilm(model, sentence, top_k, lang, progress=None):
    with friendly_errors(lang):
        return _bilm(ElmoBilmRequest(model, sentence, top_k), for_request(lang, progress))


def oov(model, words, lang, progress=None):
    with friendly_errors(lang):
        return _oov(ElmoOovRequest(model, words), for_request(lang, progress))


def elmo_vectors_api(
    word: str,
    sentences: str,
    model: str = DEFAULT_MODEL,
    s0: float = 0.0,
    s1: float = 0.0,
    s2: float = 0.0,
    gamma: float = 1.0,
    lang: str = "en",
) -> dict[str, Any]:
    """`word` in each sentence (one per line, `sense | sentence`): its vector in layers 0-2 and their mix
    gamma * sum_j softmax(s)_j * layer_j, with the 2-D projection and sense separations.

    Args:
        word: one word (no spaces) that occurs in every sentence.
        sentences: 2 or more lines, one sentence each, optionally "sense | sentence".
        model: an ELMo registry key ("elmo-small", "elmo-allennlp-small", "elmo-allennlp-original").
        s0: the mixing weight of layer 0 (the character CNN), a number from -100 to 100 (softmax-normalised with
            s1, s2; the page's sliders go from -4 to 4).
        s1: the mixing weight of layer 1 (the first biLSTM), a number from -100 to 100.
        s2: the mixing weight of layer 2 (the second biLSTM), a number from -100 to 100.
        gamma: the scale of the mix, a number above 0 and at most 10 (the page's slider: 0.1 to 2).
        lang: "en" or "zh", the language of messages and labels in the result.
    """
    return jsonable(mix(model, word, sentences, s0, s1, s2, gamma, lang))


def elmo_bilm_api(sentence: str, model: str = DEFAULT_MODEL, top_k: int = 5, lang: str = "en") -> dict[str, Any]:
    """For each word of `sentence`: the forward LM's top guesses from the left context only, the backward LM's
    from the right context only, and each direction's probability of the actual word.

    Args:
        sentence: the sentence (English words).
        model: an ELMo registry key ("elmo-small", "elmo-allennlp-small", "elmo-allennlp-original").
        top_k: guesses per word and direction, a whole number from 1 to 20.
        lang: "en" or "zh", the language of messages and labels in the result.
    """
    return jsonable(bilm(model, sentence, top_k, lang))


def elmo_oov_api(words: str, model: str = DEFAULT_MODEL, lang: str = "en") -> dict[str, Any]:
    """Made-up or misspelled words: ELMo's layer-0 vector and its nearest vocabulary words, and whether GloVe has one.

    Args:
        words: one or more words separated by spaces or commas (the first few are used).
        model: an ELMo registry key ("elmo-small", "elmo-allennlp-small", "elmo-allennlp-original").
        lang: "en" or "zh", the language of messages and labels in the result.
    """
    return jsonable(oov(model, words, lang))


def _label(key: str | None, lang: str) -> str:
    try:
        return label_in(get_spec(key).label, lang)
    except (ValueError, TypeError):
        return str(key)


def show_mix(result, previous, lang) -> list[Any]:
    if result is None:
        return [gr.update()] * 4
    return [
        render.mix_weights_md(result, lang),
        render.mix_reading(result, previous, lang),
        render.mix_figure(result, lang),
        provenance(result.model_id, "cpu", lang),
    ]


def show_bilm(result, model, lang) -> list[Any]:
    if result is None:
        return [gr.update()] * 4
    return [
        render.bilm_reading(result, lang, _label(model, lang)),
        gr.update(value=render.bilm_rows(result, lang), headers=render.bilm_headers(lang), visible=result.has_softmax),
        gr.update(value=render.bilm_figure(result, lang), visible=result.has_softmax),
        provenance(result.model_id, "cpu", lang),
    ]


def show_oov(result, model, lang) -> list[Any]:
    if result is None:
        return [gr.update()] * 3
    return [
        render.oov_reading(result, lang, _label(model, lang)),
        gr.update(value=render.oov_rows(result, lang), headers=render.oov_headers(lang)),
        provenance(result.model_id, "cpu", lang),
    ]


def exports(mix_result, bilm_result, oov_result, lang) -> list[str]:
    files = []
    for name, r in (("elmo_mix.json", mix_result), ("elmo_bilm.json", bilm_result), ("elmo_oov.json", oov_result)):
        if r is not None:
            files.append(export_json(name, r))
    return files


def build_tab(ui) -> Any:
    loc = ui.loc
    loc.add(gr.Markdown(t("elmo.intro")), value="elmo.intro")
    available = [k for _, k in model_choices(KINDS, "en")]
    model = loc.add(
        gr.Dropdown(
            model_choices(KINDS, "en"),
            value=DEFAULT_MODEL if DEFAULT_MODEL in available else (available[0] if available else None),
            label=t("elmo.model"),
            elem_id="elmo-model",
        ),
        label="elmo.model",
        choices=lambda lang: model_choices(KINDS, lang),
    )
    unavailable_panel(KINDS, loc)
    mix_state, prev_state, bilm_state, oov_state = gr.State(None), gr.State(None), gr.State(None), gr.State(None)

    with gr.Tabs():
        with loc.add(gr.Tab(t("elmo.view.mix"), id="elmo-mix", elem_id="elmo-view-mix"), label="elmo.view.mix"):
            loc.add(gr.Markdown(t("elmo.mix.hint")), value="elmo.mix.hint")
            with gr.Row():
                with gr.Column(scale=2):
                    word = loc.add(gr.Textbox(DEFAULT_WORD, label=t("elmo.mix.word"), max_lines=1), label="elmo.mix.word")
                    sentences = loc.add(
                        gr.Textbox(DEFAULT_SENTENCES, lines=8, max_lines=24, label=t("elmo.mix.sentences")),
                        label="elmo.mix.sentences",
                    )
                with gr.Column(scale=1):
                    preset = loc.add(
                        gr.Radio(choices(PRESET_KEYS, "en"), value="equal", label=t("elmo.mix.preset"), elem_id="elmo-preset"),
                        label="elmo.mix.preset",
                        choices=lambda lang: choices(PRESET_KEYS, lang),
                    )
                    sliders = [
                        loc.add(
                            gr.Slider(-4, 4, value=0.0, step=0.1, label=t(f"elmo.mix.s{k}"), elem_id=f"elmo-s{k}"),
                            label=f"elmo.mix.s{k}",
                        )
                        for k in range(3)
                    ]
                    gamma = loc.add(
                        gr.Slider(0.1, 2.0, value=1.0, step=0.05, label=t("elmo.mix.gamma"), elem_id="elmo-gamma"),
                        label="elmo.mix.gamma",
                    )
            mix_run = loc.add(gr.Button(t("elmo.mix.run"), variant="primary", elem_id="elmo-mix-run"), value="elmo.mix.run")
            mix_hint = result_hint(loc, "elmo.mix.press")
            with gr.Column(visible=False) as mix_area:  # no empty plot before a first run
                weights_md = gr.Markdown(elem_id="elmo-weights")
                mix_reading = gr.Markdown(elem_id="elmo-mix-reading")
                mix_plot = gr.Plot(show_label=False, elem_id="elmo-mix-plot")
                mix_prov = gr.Markdown()
            mix_code = CodePanel(ui)  # each view's script, below its result

        with loc.add(gr.Tab(t("elmo.view.bilm"), id="elmo-bilm", elem_id="elmo-view-bilm"), label="elmo.view.bilm"):
            loc.add(gr.Markdown(t("elmo.bilm.hint")), value="elmo.bilm.hint")
            with gr.Row():
                sentence = loc.add(
                    gr.Textbox(DEFAULT_BILM, label=t("elmo.bilm.sentence"), max_lines=2, scale=4), label="elmo.bilm.sentence"
                )
                top_k = loc.add(gr.Slider(1, 10, value=3, step=1, label=t("elmo.bilm.top_k"), scale=1), label="elmo.bilm.top_k")
            bilm_run = loc.add(gr.Button(t("elmo.bilm.run"), variant="primary", elem_id="elmo-bilm-run"), value="elmo.bilm.run")
            bilm_hint = result_hint(loc, "elmo.bilm.press")
            with gr.Column(visible=False) as bilm_area:  # no header-only table or empty plot before a first run
                bilm_reading = gr.Markdown(elem_id="elmo-bilm-reading")
                bilm_table = gr.Dataframe(
                    headers=render.bilm_headers("en"), interactive=False, elem_id="elmo-bilm-table", wrap=True
                )
                bilm_plot = gr.Plot(show_label=False, elem_id="elmo-bilm-plot")
                bilm_prov = gr.Markdown()
            bilm_code = CodePanel(ui)

        with loc.add(gr.Tab(t("elmo.view.oov"), id="elmo-oov", elem_id="elmo-view-oov"), label="elmo.view.oov"):
            loc.add(gr.Markdown(t("elmo.oov.hint")), value="elmo.oov.hint")
            words = loc.add(gr.Textbox(DEFAULT_OOV, label=t("elmo.oov.words"), max_lines=1), label="elmo.oov.words")
            oov_run = loc.add(gr.Button(t("elmo.oov.run"), variant="primary", elem_id="elmo-oov-run"), value="elmo.oov.run")
            oov_hint = result_hint(loc, "elmo.oov.press")
            with gr.Column(visible=False) as oov_area:  # no header-only table before a first run
                oov_reading = gr.Markdown(elem_id="elmo-oov-reading")
                oov_table = gr.Dataframe(headers=render.oov_headers("en"), interactive=False, elem_id="elmo-oov-table", wrap=True)
                oov_prov = gr.Markdown()
            oov_code = CodePanel(ui)

    with gr.Column(visible=False) as files_area:  # no empty downloads box before any view has a result
        download_row(loc, exports, [mix_state, bilm_state, oov_state, ui.lang], label_key="elmo.exports")

    mix_inputs = [model, word, sentences, *sliders, gamma, ui.lang]
    mix_outputs = [weights_md, mix_reading, mix_plot, mix_prov]

    def mix_event(model, word, sentences, s0, s1, s2, g, lang, current, progress=gr.Progress()):
        return current, mix(model, word, sentences, s0, s1, s2, g, lang, progress)

    def redraw_mix(result, previous, lang):
        return show_mix(result, previous, lang)

    def run_mix(trigger):
        shown = trigger(mix_event, [*mix_inputs, mix_state], [prev_state, mix_state], api_visibility="private").success(
            redraw_mix, [mix_state, prev_state, ui.lang], mix_outputs, api_visibility="private"
        )
        reveal_after([shown], mix_hint, [mix_area, files_area])
        return shown

    mix_runs = [run_mix(mix_run.click)]
    for s in (*sliders, gamma):
        mix_runs.append(run_mix(s.release))  # cached layers: only the mix and its projection are recomputed

    def use_preset(key):
        return [gr.update() if key not in PRESETS else gr.update(value=v) for v in PRESETS.get(key, PRESETS["equal"])]

    for s in sliders:  # a moved slider (or a link's values) makes the radio name what the sliders now are
        s.change(preset_of, sliders, preset, api_visibility="private", queue=False)
    preset_shown = (
        preset.input(use_preset, preset, sliders, api_visibility="private", queue=False)
        .then(mix_event, [*mix_inputs, mix_state], [prev_state, mix_state], api_visibility="private")
        .success(redraw_mix, [mix_state, prev_state, ui.lang], mix_outputs, api_visibility="private")
    )
    reveal_after([preset_shown], mix_hint, [mix_area, files_area])
    names = ("model", "word", "sentences", "s0", "s1", "s2", "gamma")
    mix_code.after([*mix_runs, preset_shown], mix_inputs[:-1], lambda *v: ("elmo_vectors", dict(zip(names, v))))

    bilm_outputs = [bilm_reading, bilm_table, bilm_plot, bilm_prov]

    def bilm_event(model, sentence, k, lang, progress=gr.Progress()):
        return bilm(model, sentence, k, lang, progress)

    bilm_shown = bilm_run.click(bilm_event, [model, sentence, top_k, ui.lang], bilm_state, api_visibility="private").success(
        show_bilm, [bilm_state, model, ui.lang], bilm_outputs, api_visibility="private"
    )
    reveal_after([bilm_shown], bilm_hint, [bilm_area, files_area])
    bilm_code.after(
        [bilm_shown], [model, sentence, top_k], lambda m, x, k: ("elmo_bilm", {"model": m, "sentence": x, "top_k": k})
    )

    oov_outputs = [oov_reading, oov_table, oov_prov]

    def oov_event(model, w, lang, progress=gr.Progress()):
        return oov(model, w, lang, progress)

    oov_shown = oov_run.click(oov_event, [model, words, ui.lang], oov_state, api_visibility="private").success(
        show_oov, [oov_state, model, ui.lang], oov_outputs, api_visibility="private"
    )
    reveal_after([oov_shown], oov_hint, [oov_area, files_area])
    oov_code.after([oov_shown], [model, words], lambda m, w: ("elmo_oov", {"model": m, "words": w}))

    # A language switch redraws the kept results; nothing is recomputed.
    ui.on_lang(redraw_mix, [mix_state, prev_state, ui.lang], mix_outputs)
    ui.on_lang(show_bilm, [bilm_state, model, ui.lang], bilm_outputs)
    ui.on_lang(show_oov, [oov_state, model, ui.lang], oov_outputs)

    gr.api(elmo_vectors_api, api_name="elmo_vectors")
    gr.api(elmo_bilm_api, api_name="elmo_bilm")
    gr.api(elmo_oov_api, api_name="elmo_oov")

    params = {
        "model": model,
        "word": word,
        "sentences": sentences,
        "s0": sliders[0],
        "s1": sliders[1],
        "s2": sliders[2],
        "gamma": gamma,
        "bilm_sentence": sentence,
        "oov_words": words,
    }
    shared = share_link_row("elmo", params, ui)
    # A link shows the mix it describes, in its own event.
    steps = (
        Step(mix_event, [*mix_inputs, mix_state], [prev_state, mix_state]),
        Step(redraw_mix, [mix_state, prev_state, ui.lang], mix_outputs, joins=True),
        mix_code.link_step,
    )
    return shared.running(LinkRun(steps, reveal(mix_hint, [mix_area, files_area]), (mix_hint,)))
