"""MLM lab tab: fine-tune a masked LM on a corpus, watch the loss live, compare predictions before and after.

Widgets and events only. The page's Train event and the /mlm_lab_train endpoint both submit a
`LabRequest` to the server's single training slot (playground.mlm_lab.runner) and stream what it
reports; `mlm_lab_render` words and draws it.
"""

from __future__ import annotations

import io
import tempfile
import zipfile
from pathlib import Path
from typing import Iterator

import gradio as gr

from playground.masked_fill import fill_blanks_masked
from playground.mlm_lab import corpus as corpus_mod
from playground.mlm_lab.lab import LabRequest
from playground.mlm_lab.runner import RUNNER, SESSION_MODELS, Job, drop_session, new_session_token, session_model
from playground.mlm_lab.training import MAX_SECONDS, MAX_STEPS, BATCH_SIZE, LabSettings, check_settings
from playground.ui import mlm_lab_render as render
from playground.ui.common import export_file, friendly_errors, load_model, model_choices, result_hint, reveal_after
from playground.ui.share import Shared, share_link_row
from playground.ui.i18n import UIContext, t

POLL_S = 0.7  # how often the page is updated while a training runs
LEARNING_RATES = [("0.00001", 1e-5), ("0.00003", 3e-5), ("0.0001", 1e-4), ("0.0003", 3e-4), ("0.001", 1e-3)]
SOURCES = [("mlm_lab.source_sample", "sample"), ("mlm_lab.source_paste", "paste"), ("mlm_lab.source_upload", "upload")]


def _default_base() -> str | None:
    keys = [key for _, key in model_choices(("masked",), "en")]
    return "minilm-mlm" if "minilm-mlm" in keys else (keys[0] if keys else None)


def corpus_text(source: str, pasted: str | None, upload: str | None, lang: str) -> str:
    """The corpus the user chose, as text (the sample, the pasted text, or the uploaded file, size-checked first)."""
    if source == "sample":
        return corpus_mod.sample_corpus()
    if source == "upload":
        if not upload:
            return ""
        path = Path(upload)
        if path.stat().st_size > corpus_mod.MAX_CORPUS_CHARS * 4:  # refuse before reading a huge file
            return "x" * (corpus_mod.MAX_CORPUS_CHARS + 1)
        try:
            return path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise gr.Error(t("error.lab_upload", lang)) from None
    return pasted or ""


def _request(text: str, base, whole_word, prob, lr, steps, seconds, seed, lang: str) -> LabRequest:
    with friendly_errors(lang):
        settings = check_settings(LabSettings(str(base or ""), bool(whole_word), prob, lr, steps, seconds, seed or 0))
        corpus_mod.sentences(text)  # refuse a bad corpus before it queues
        from playground.mlm_lab.lab import check_base

        check_base(settings.base)
    return LabRequest(text, settings)


def check_request(source, pasted, upload, base, whole_word, prob, lr, steps, seconds, seed, lang) -> None:
    """Refuse a bad corpus or settings before the training is queued (cheap; train_stream checks again)."""
    _request(corpus_text(source, pasted, upload, lang), base, whole_word, prob, lr, steps, seconds, seed, lang)


def _raise(job: Job, lang: str) -> None:
    if job.error is not None:
        with friendly_errors(lang):
            if isinstance(job.error, ValueError):
                raise job.error
        raise gr.Error(t("common.model_failed", lang, model=job.request.settings.base, reason=type(job.error).__name__))


def _live(job: Job, lang: str) -> tuple:
    """(status, loss figure, summary) while the job runs."""
    s = job.request.settings
    partial = job.partial
    state = render.status(job.phase, RUNNER.position(job), list(job.points), s, lang)
    if job.cancelled.is_set() and job.phase == "training":
        state = t("mlm_lab.status_cancelling", lang)
    before = partial.before.loss if partial else None
    summary = render.summary(partial, lang) if partial else ""
    return state, render.curve_figure(list(job.points), before, s, lang), summary


def _final(result, lang: str) -> tuple:
    return (render.finished(result, lang), *_panels(result, lang))


def _panels(result, lang: str) -> tuple:
    """Everything under the status line: curve, summary, probes, domain chart, note and table (before-only while training)."""
    headers, rows = render.probes_table(result, lang)
    d_headers, d_rows = render.domain_table(result, lang)
    vocab = len(session_vocab_hint(result))
    return (
        render.curve_figure(result.curve, result.before.loss, result.settings, lang),
        render.summary(result, lang),
        gr.update(value=rows, headers=headers),
        render.domain_figure(result, lang) if result.domain else None,
        render.domain_note(result, vocab, lang),
        gr.update(value=d_rows, headers=d_headers),
    )


def session_vocab_hint(result) -> range:
    """The vocabulary size of the base model, for the domain note (from the tokenizer in the cache, else 0)."""
    from playground import models

    try:
        return range(len(models.load_tokenizer(result.settings.base)))
    except Exception:  # the note only loses a number
        return range(0)


def train_stream(source, pasted, upload, base, whole_word, prob, lr, steps, seconds, seed, lang, token) -> Iterator[tuple]:
    """The UI event: queue the training, stream status + curve, then the before/after panels."""
    token = token or new_session_token()
    request = _request(corpus_text(source, pasted, upload, lang), base, whole_word, prob, lr, steps, seconds, seed, lang)
    job = RUNNER.submit(request, token)
    keep = (gr.update(),) * 4
    try:
        shown = None
        while not job.finished.wait(POLL_S):
            tables = keep
            if job.partial is not None and shown is not job.partial:  # the "before" columns, once measured
                shown, tables = job.partial, _panels(job.partial, lang)[2:]
            yield (*_live(job, lang), *tables, token, gr.update())
        _raise(job, lang)
        result = job.result
        if result is None:  # cancelled while waiting in the queue
            yield (t("mlm_lab.stopped.cancelled", lang, steps=0, seconds=0.0), *(gr.update(),) * 6, token, None)
            return
        yield (*_final(result, lang), token, result)
    finally:
        if not job.finished.is_set():  # the page went away (or the event was cancelled): free the slot
            job.cancel()


def cancel(token: str | None, lang: str) -> str:
    if token:
        RUNNER.cancel_session(token)
    return t("mlm_lab.status_cancelling", lang)


def redraw(result, lang: str):
    """A language switch redraws the kept result; nothing runs again."""
    return (gr.update(),) * 7 if result is None else _final(result, lang)


def compare(text: str, token: str | None, last, lang: str):
    """Base vs fine-tuned predictions for a sentence with [MASK] (this session's model only)."""
    tuned = session_model(token)
    if tuned is None or last is None:
        raise gr.Error(t("mlm_lab.no_model", lang))
    base = load_model(last.settings.base, lang)
    with friendly_errors(lang):
        (before,) = fill_blanks_masked(base, [text], 5)
        (after,) = fill_blanks_masked(tuned, [text], 5)
    rows = []
    for m, (pb, pa) in enumerate(zip(before.predictions, after.predictions), start=1):
        for rank, (b, a) in enumerate(zip(pb, pa), start=1):
            rows.append([m, rank, b.word, round(b.probability, 4), a.word, round(a.probability, 4)])
    headers = ["mask", "rank", t("mlm_lab.before", lang), "p", t("mlm_lab.after", lang), "p "]
    return gr.update(value=rows, headers=headers)


def download(token: str | None, lang: str) -> list[str]:
    """The fine-tuned model as a zip (safetensors + tokenizer), built only when asked."""
    tuned = session_model(token)
    if tuned is None:
        raise gr.Error(t("mlm_lab.no_model", lang))
    buffer = io.BytesIO()
    with tempfile.TemporaryDirectory() as folder:
        tuned.model.save_pretrained(folder, safe_serialization=True)
        tuned.tokenizer.save_pretrained(folder)
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
            for path in sorted(Path(folder).iterdir()):
                zf.write(path, f"mlm-lab-model/{path.name}")
    return [export_file("mlm-lab-model.zip", buffer.getvalue())]


def mlm_lab_api(
    corpus: str = "",
    use_sample: bool = False,
    base: str = "minilm-mlm",
    whole_word: bool = False,
    mlm_probability: float = 0.15,
    learning_rate: float = 1e-4,
    max_steps: int = 80,
    max_seconds: float = 120.0,
    seed: int = 0,
    lang: str = "en",
) -> Iterator[dict]:
    """Fine-tune `base` on `corpus` (or the sample): streams {phase, queue_position, step, train_loss, held_loss}
    while it runs, then {phase: "done", result: LabResult as JSON}. The model is not kept for API calls."""
    text = corpus_mod.sample_corpus() if use_sample else corpus
    request = _request(text, base, whole_word, mlm_probability, learning_rate, max_steps, max_seconds, seed, lang)
    token = new_session_token()
    job = RUNNER.submit(request, token)
    try:
        while not job.finished.wait(1.0):
            last = job.points[-1] if job.points else None
            held = [p for p in list(job.points) if p.held_loss is not None]
            yield {
                "phase": job.phase,
                "queue_position": RUNNER.position(job),
                "step": last.step if last else 0,
                "train_loss": last.train_loss if last else None,
                "held_loss": held[-1].held_loss if held else (job.partial.before.loss if job.partial else None),
            }
        _raise(job, lang)
        yield {"phase": "done", "result": render.as_json(job.result) if job.result else None}
    finally:
        if not job.finished.is_set():
            job.cancel()
        drop_session(token)


def build_tab(ui: UIContext) -> Shared:
    loc = ui.loc
    n_sample = len(corpus_mod.sentences(corpus_mod.sample_corpus()))
    loc.add(gr.Markdown(t("mlm_lab.intro", "en")), value="mlm_lab.intro")
    with gr.Row():
        with gr.Column(scale=3):
            source = loc.add(
                gr.Radio([(t(k, "en"), v) for k, v in SOURCES], value="sample", label=t("mlm_lab.corpus_source", "en")),
                label="mlm_lab.corpus_source",
                choices=lambda lang: [(t(k, lang), v) for k, v in SOURCES],
            )
            sample_info = loc.add(
                gr.Markdown(t("mlm_lab.sample_info", "en", n=n_sample)),
                value=lambda lang: t("mlm_lab.sample_info", lang, n=n_sample),
            )
            pasted = loc.add(
                gr.Textbox(
                    label=t("mlm_lab.paste", "en"),
                    info=t("mlm_lab.paste_info", "en", max=f"{corpus_mod.MAX_CORPUS_CHARS:,}"),
                    lines=8,
                    max_lines=16,
                    visible=False,
                ),
                label="mlm_lab.paste",
                info=lambda lang: t("mlm_lab.paste_info", lang, max=f"{corpus_mod.MAX_CORPUS_CHARS:,}"),
            )
            upload = loc.add(
                gr.File(label=t("mlm_lab.upload", "en"), file_types=[".txt"], type="filepath", visible=False),
                label="mlm_lab.upload",
            )
        with gr.Column(scale=2):
            with loc.add(gr.Accordion(t("mlm_lab.settings", "en"), open=True), label="mlm_lab.settings"):
                base = loc.add(
                    gr.Dropdown(model_choices(("masked",), "en"), value=_default_base(), label=t("mlm_lab.base", "en")),
                    label="mlm_lab.base",
                    choices=lambda lang: model_choices(("masked",), lang),
                )
                whole_word = loc.add(
                    gr.Checkbox(False, label=t("mlm_lab.whole_word", "en"), info=t("mlm_lab.whole_word_info", "en")),
                    label="mlm_lab.whole_word",
                    info="mlm_lab.whole_word_info",
                )
                prob = loc.add(
                    gr.Slider(0.05, 0.5, 0.15, step=0.01, label=t("mlm_lab.mlm_probability", "en")),
                    label="mlm_lab.mlm_probability",
                )
                lr = loc.add(
                    gr.Dropdown(LEARNING_RATES, value=1e-4, label=t("mlm_lab.learning_rate", "en")), label="mlm_lab.learning_rate"
                )
                steps = loc.add(
                    gr.Slider(1, MAX_STEPS, 80, step=1, label=t("mlm_lab.steps", "en", b=BATCH_SIZE), elem_id="mlm-lab-steps"),
                    label=lambda lang: t("mlm_lab.steps", lang, b=BATCH_SIZE),
                )
                seconds = loc.add(
                    gr.Slider(5, MAX_SECONDS, 120, step=5, label=t("mlm_lab.seconds", "en")), label="mlm_lab.seconds"
                )
                seed = loc.add(gr.Number(0, precision=0, label=t("mlm_lab.seed", "en")), label="mlm_lab.seed")
            with gr.Row():
                train = loc.add(
                    gr.Button(t("mlm_lab.train", "en"), variant="primary", elem_id="mlm-lab-train"), value="mlm_lab.train"
                )
                stop = loc.add(
                    gr.Button(t("mlm_lab.cancel", "en"), variant="stop", elem_id="mlm-lab-cancel"), value="mlm_lab.cancel"
                )
    state = gr.Markdown(elem_id="mlm-lab-status")
    hint = result_hint(loc, "mlm_lab.hint")
    with gr.Column(visible=False) as result_area:  # no empty loss plot, probe tables or downloads box before a training
        plot = loc.add(gr.Plot(label=t("mlm_lab.loss_plot", "en"), elem_id="mlm-lab-curve"), label="mlm_lab.loss_plot")
        loc.add(gr.Markdown(t("mlm_lab.curve_note", "en")), value="mlm_lab.curve_note")
        summary = gr.Markdown(elem_id="mlm-lab-summary")
        probes = loc.add(
            gr.Dataframe(
                label=t("mlm_lab.probes", "en"),
                interactive=False,
                wrap=True,
                elem_id="mlm-lab-probes",
                column_widths=["10%", "8%", "8%", "22%", "22%", "30%"],
            ),
            label="mlm_lab.probes",
        )
        domain_plot = loc.add(gr.Plot(label=t("mlm_lab.domain", "en")), label="mlm_lab.domain")
        domain_note = gr.Markdown()
        domain = loc.add(gr.Dataframe(label=t("mlm_lab.domain", "en"), interactive=False, wrap=True), label="mlm_lab.domain")
        with loc.add(gr.Accordion(t("mlm_lab.try", "en"), open=True), label="mlm_lab.try"):
            loc.add(
                gr.Markdown(t("mlm_lab.model_note", "en", n=SESSION_MODELS.capacity)),
                value=lambda lang: t("mlm_lab.model_note", lang, n=SESSION_MODELS.capacity),
            )
            with gr.Row():
                probe_text = loc.add(
                    gr.Textbox(
                        "Hepatitis is an inflammation of the [MASK].",
                        label=t("mlm_lab.try", "en"),
                        info=t("mlm_lab.try_info", "en"),
                        scale=4,
                    ),
                    label="mlm_lab.try",
                    info="mlm_lab.try_info",
                )
                compare_btn = loc.add(gr.Button(t("mlm_lab.try_run", "en"), scale=1), value="mlm_lab.try_run")
            compared = gr.Dataframe(interactive=False, wrap=True)
            with gr.Row():
                zip_btn = loc.add(gr.Button(t("mlm_lab.download", "en"), size="sm", scale=0), value="mlm_lab.download")
                files = loc.add(
                    gr.File(label=t("mlm_lab.downloads", "en"), file_count="multiple", interactive=False, scale=4),
                    label="mlm_lab.downloads",
                )

    # This session's key to its model (dropped when the session ends): the app's, shared with the menus of the
    # fill-mask and attention tabs (ui.lab_models), or the tab's own when it is built alone.
    token = ui.lab.token if ui.lab is not None else gr.State(None, delete_callback=drop_session)
    last = gr.State(None)  # this session's last LabResult (redrawn on a language switch)

    def show_source(choice):
        return gr.update(visible=choice == "sample"), gr.update(visible=choice == "paste"), gr.update(visible=choice == "upload")

    source.change(show_source, source, [sample_info, pasted, upload], api_visibility="private", queue=False)
    panels = [state, plot, summary, probes, domain_plot, domain_note, domain]
    settings = [source, pasted, upload, base, whole_word, prob, lr, steps, seconds, seed, ui.lang]
    checked = train.click(lambda tok: tok or new_session_token(), token, token, api_visibility="private", queue=False).then(
        check_request, settings, None, api_visibility="private", concurrency_limit=None
    )
    reveal_after([checked], hint, [result_area])  # a refused corpus keeps the hint; a queued or running training shows
    trained = checked.success(
        train_stream,
        [*settings, token],
        [*panels, token, last],
        api_visibility="private",
        concurrency_limit=None,  # the page only polls; the real limit is the runner's single slot
    )
    if ui.lab is not None:
        ui.lab.changed_by(trained)  # then the other tabs' menus offer the model (or stop offering a dropped one)
    stop.click(cancel, [token, ui.lang], state, api_visibility="private", queue=False)
    ui.lang.change(redraw, [last, ui.lang], panels, api_visibility="private")
    compare_btn.click(compare, [probe_text, token, last, ui.lang], compared, api_visibility="private")
    zip_btn.click(download, [token, ui.lang], files, api_visibility="private")
    gr.api(mlm_lab_api, api_name="mlm_lab_train", concurrency_limit=None)
    # A link restores the settings but does not start a training: that costs minutes of the shared CPU.
    params = {
        "source": source,
        "base": base,
        "whole_word": whole_word,
        "mlm_probability": prob,
        "learning_rate": lr,
        "steps": steps,
        "seconds": seconds,
        "seed": seed,
    }
    return share_link_row("mlm_lab", params, ui)
