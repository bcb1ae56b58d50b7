"""MLM lab tab: fine-tune a masked LM on a corpus, watch the loss live, compare predictions before and after.

One field table (Form); Train is one streaming request (queue, live curve, the before/after panels), following the
job with playground.mlm_lab.follow like /mlm_lab_train (api.py); render.py words and draws; text.py holds the strings.
"""

from __future__ import annotations

from typing import Any

import gradio as gr

from playground import settings as app_settings
from playground.mlm_lab import corpus as corpus_mod
from playground.mlm_lab.follow import SAMPLE_SOURCES
from playground.mlm_lab.runner import lab_concurrency
from playground.mlm_lab.training import BATCH_SIZE, MAX_SECONDS, MAX_STEPS
from playground.ui.common.code_panel import CodePanel
from playground.ui.common.form import Form, Values
from playground.ui.common.i18n import UIContext, t
from playground.ui.common.share import Shared, share_link_row
from playground.ui.common.widgets import model_choices, result_hint, shown_files
from playground.ui.mlm_lab import api, render
from playground.ui.mlm_lab.api import code_request, mlm_lab_api, train

LEARNING_RATES = [("0.00001", 1e-5), ("0.00003", 3e-5), ("0.0001", 1e-4), ("0.0003", 3e-4), ("0.001", 1e-3)]
SAMPLE_INFO = {"sample": "mlm_lab.sample_info", "sample_zh": "mlm_lab.sample_zh_info"}
SOURCES = [(f"mlm_lab.source_{v}", v) for v in ("sample", "sample_zh", "paste", "upload")]


def redraw(f: Values, progress=None) -> dict[str, Any]:
    """A language switch redraws the kept result; nothing runs again."""
    result = f.extra["last"]
    return {} if result is None else render.final(result, api.vocab_size(result), f.lang)


def stop(f: Values, progress=None) -> dict[str, Any]:
    return {"status": api.cancel(f.extra["token"], f.lang)}


def try_model(f: Values, progress=None) -> dict[str, Any]:
    return {"compared": api.compare(f["probe_text"], f.extra["token"], f.extra["last"], f.lang)}


def show_source(f: Values, progress=None) -> dict[str, Any]:
    infos = {f"info_{src}": gr.update(visible=f["source"] == src) for src in SAMPLE_INFO}
    boxes = {"pasted": gr.update(visible=f["source"] == "paste"), "upload": gr.update(visible=f["source"] == "upload")}
    return infos | boxes | {"base": api.base_for(f["source"], f["base"])}


def build_tab(ui: UIContext) -> Shared:
    loc, form = ui.loc, Form(ui, "mlm_lab")
    n_sample = {src: len(corpus_mod.sentences(corpus_mod.sample_corpus(key))) for src, key in SAMPLE_SOURCES.items()}
    loc.add(gr.Markdown(t("mlm_lab.intro", "en")), value="mlm_lab.intro")
    sources = lambda lang: [(t(k, lang), v) for k, v in SOURCES]  # noqa: E731
    paste_info = lambda lang: t("mlm_lab.paste_info", lang, max=f"{corpus_mod.MAX_CORPUS_CHARS:,}")  # noqa: E731
    with gr.Row():
        with gr.Column(scale=3):
            source = form.field("source", gr.Radio(sources("en"), value="sample", label=t("mlm_lab.corpus_source", "en")),
                                label="mlm_lab.corpus_source", choices=sources)  # fmt: skip
            for src, key in SAMPLE_INFO.items():
                box = gr.Markdown(t(key, "en", n=n_sample[src]), visible=src == "sample")
                form.output(f"info_{src}", box, value=lambda lang, key=key, n=n_sample[src]: t(key, lang, n=n))
            box = gr.Textbox(label=t("mlm_lab.paste"), info=paste_info("en"), lines=8, max_lines=16, visible=False)
            form.output("pasted", form.field("pasted", box, link=False, code=False, label="mlm_lab.paste", info=paste_info))
            box = gr.File(label=t("mlm_lab.upload"), file_types=[".txt"], type="filepath", visible=False)
            form.output("upload", form.field("upload", box, link=False, label="mlm_lab.upload"))
        with gr.Column(scale=2):
            with loc.add(gr.Accordion(t("mlm_lab.settings", "en"), open=True), label="mlm_lab.settings"):
                menu = gr.Dropdown(model_choices(("masked",), "en"), value=api.default_base(), label=t("mlm_lab.base"))
                base = form.field("base", menu, label="mlm_lab.base", choices=lambda lang: model_choices(("masked",), lang))
                form.output("base", base)
                form.field("whole_word", gr.Checkbox(False, label=t("mlm_lab.whole_word"), info=t("mlm_lab.whole_word_info")),
                           label="mlm_lab.whole_word", info="mlm_lab.whole_word_info")  # fmt: skip
                form.field("mlm_probability", gr.Slider(0.05, 0.5, 0.15, step=0.01, label=t("mlm_lab.mlm_probability")),
                           label="mlm_lab.mlm_probability")  # fmt: skip
                form.field("learning_rate", gr.Dropdown(LEARNING_RATES, value=1e-4, label=t("mlm_lab.learning_rate")),
                           label="mlm_lab.learning_rate")  # fmt: skip
                steps_label = lambda lang: t("mlm_lab.steps", lang, b=BATCH_SIZE)  # noqa: E731
                form.field("steps", gr.Slider(1, MAX_STEPS, 80, step=1, label=steps_label("en"), elem_id="mlm-lab-steps"),
                           label=steps_label)  # fmt: skip
                form.field("seconds", gr.Slider(5, MAX_SECONDS, 120, step=5, label=t("mlm_lab.seconds")), label="mlm_lab.seconds")
                form.field("seed", gr.Number(0, precision=0, label=t("mlm_lab.seed")), label="mlm_lab.seed")
            with gr.Row():
                run = loc.add(gr.Button(t("mlm_lab.train"), variant="primary", elem_id="mlm-lab-train"), value="mlm_lab.train")
                cancel = gr.Button(t("mlm_lab.cancel"), variant="stop", elem_id="mlm-lab-cancel", interactive=False)
                form.output("stop", cancel, value="mlm_lab.cancel")
    form.output("status", gr.Markdown(elem_id="mlm-lab-status"))
    hint = result_hint(loc, "mlm_lab.hint")
    with gr.Column(visible=False) as result_area:  # no empty loss plot, probe tables or downloads box before a training
        form.output("plot", gr.Plot(label=t("mlm_lab.loss_plot"), elem_id="mlm-lab-curve"), label="mlm_lab.loss_plot")
        loc.add(gr.Markdown(t("mlm_lab.curve_note", "en")), value="mlm_lab.curve_note")
        form.output("summary", gr.Markdown(elem_id="mlm-lab-summary"))
        table = gr.Dataframe(label=t("mlm_lab.probes"), interactive=False, wrap=True, elem_id="mlm-lab-probes",
                             column_widths=["10%", "8%", "8%", "22%", "22%", "30%"], visible=False)  # fmt: skip
        form.output("probes", table, label="mlm_lab.probes")
        form.output("domain_plot", gr.Plot(label=t("mlm_lab.domain"), visible=False), label="mlm_lab.domain")
        form.output("domain_note", gr.Markdown())
        table = gr.Dataframe(label=t("mlm_lab.domain"), interactive=False, wrap=True, visible=False)
        form.output("domain", table, label="mlm_lab.domain")
        with loc.add(gr.Accordion(t("mlm_lab.try", "en"), open=True), label="mlm_lab.try"):
            note = lambda lang: t("mlm_lab.model_note", lang, n=app_settings.current().lab_models)  # noqa: E731
            loc.add(gr.Markdown(note("en")), value=note)
            with gr.Row():
                box = gr.Textbox("Hepatitis is an inflammation of the [MASK].", label=t("mlm_lab.try"),
                                 info=t("mlm_lab.try_info"), scale=4)  # fmt: skip
                form.output("probe_text", form.field("probe_text", box, link=False, code=False, label="mlm_lab.try",
                                                     info="mlm_lab.try_info"))  # fmt: skip
                button = gr.Button(t("mlm_lab.try_run"), scale=1, interactive=False, elem_id="mlm-lab-try-run")
                try_run = form.output("try_run", button, value="mlm_lab.try_run")
            form.output("compared", gr.Dataframe(interactive=False, wrap=True, visible=False, elem_id="mlm-lab-compared"))
            with gr.Row():
                button = gr.Button(t("mlm_lab.download"), size="sm", scale=0, interactive=False, elem_id="mlm-lab-download")
                zip_btn = form.output("download", button, value="mlm_lab.download")
                files = gr.File(label=t("mlm_lab.downloads"), file_count="multiple", interactive=False, scale=4, visible=False)
                files = loc.add(files, label="mlm_lab.downloads")
        panel = CodePanel(ui)  # the Trainer script of the last training, for a notebook or a GPU at home
    # This session's key to its model (dropped when the session ends): the app's, shared with the menus of the
    # fill-mask and attention tabs (ui.lab), or the tab's own when it is built alone.
    token = ui.lab.token if ui.lab is not None else gr.State(None, delete_callback=api.end_session)
    form.state("token", component=token)
    form.state("last")  # this session's last LabResult (redrawn on a language switch, read by the try-it box)
    form.result(hint, result_area)
    form.code_panel(panel, code_request)
    form.on(show_source, [source.change], queue=False)
    # The page only polls; the real limit is the runner's single slot and bounded queue. Gradio's own limit, shared
    # with the API, bounds the threads polling it (a little above the runner's queue, which refuses first).
    trained = form.stream(train, [run.click], concurrency_limit=lab_concurrency(), concurrency_id="mlm_lab")
    if ui.lab is not None:
        ui.lab.changed_by(trained[0])  # then the other tabs' menus offer the model (or stop offering a dropped one)
    form.on(stop, [cancel.click], queue=False)
    form.on(try_model, [try_run.click])
    zip_btn.click(shown_files(api.download), [token, ui.lang], files, api_visibility="private")
    form.redraw_on_lang(redraw)
    gr.api(mlm_lab_api, api_name="mlm_lab_train", concurrency_limit=lab_concurrency(), concurrency_id="mlm_lab")
    # A link restores the settings but does not start a training: that costs minutes of the shared CPU.
    params = {name: f.component for name, f in form.fields.items() if f.link}
    return share_link_row("mlm_lab", params, ui)
