"""MLM lab tab: fine-tune a masked LM on a corpus, watch the loss live, compare predictions before and after.

Widgets and events only. The page's Train event and the /mlm_lab_train endpoint both submit a
`LabRequest` to the server's single training slot (playground.mlm_lab.runner, training in its worker
process) and stream what it reports; `mlm_lab_render` words and draws it. The session's model is the
app Runtime's (playground.mlm_lab.sessions); the compare and the zip are backend functions of it.
"""

from __future__ import annotations

import weakref
from contextlib import closing
from pathlib import Path
from typing import Iterator

import gradio as gr

from playground import checks, settings as app_settings
from playground.mlm_lab import corpus as corpus_mod
from playground.mlm_lab import sessions
from playground.mlm_lab.compare import compare_models
from playground.mlm_lab.export import lab_zip
from playground.mlm_lab.follow import SAMPLE_SOURCES, api_progress, follow, lab_request
from playground.mlm_lab.follow import corpus_text as chosen_corpus
from playground.mlm_lab.lab import LabRequest
from playground.mlm_lab.runner import Job, drop_session, lab_concurrency, runner_for
from playground.mlm_lab.training import MAX_SECONDS, MAX_STEPS, BATCH_SIZE, LabSettings
from playground.ui.mlm_lab import render
from playground.serve import runtime as app_runtime
from playground.ui.common.code_panel import CodePanel
from playground.serve.guard import client_key
from playground.ui.common.widgets import (
    shown_files,
    export_file,
    friendly_errors,
    model_choices,
    refuse,
    result_hint,
    reveal_after,
)
from playground.ui.common.share import Shared, share_link_row
from playground.ui.common.i18n import UIContext, t

POLL_S = 0.7  # how often the page is updated while a training runs


def _app():
    """The app's Runtime (looked up per call: a test swaps it for one with tiny models)."""
    return app_runtime.APP


def _runner():
    return runner_for(_app())


def end_session(token: str | None) -> None:
    """A session's State was deleted (the page closed): drop its model, cancel its training."""
    drop_session(_app(), token)


LEARNING_RATES = [("0.00001", 1e-5), ("0.00003", 3e-5), ("0.0001", 1e-4), ("0.0003", 3e-4), ("0.001", 1e-3)]
SAMPLE_INFO = {"sample": "mlm_lab.sample_info", "sample_zh": "mlm_lab.sample_zh_info"}
SOURCES = [
    ("mlm_lab.source_sample", "sample"),
    ("mlm_lab.source_sample_zh", "sample_zh"),
    ("mlm_lab.source_paste", "paste"),
    ("mlm_lab.source_upload", "upload"),
]


def _default_base() -> str | None:
    keys = [key for _, key in model_choices(("masked",), "en")]
    return "minilm-mlm" if "minilm-mlm" in keys else (keys[0] if keys else None)


def _base_for(source: str, current: str | None) -> str | None:
    """A sample picks the bundled masked LM that reads its language (the Chinese sample on MiniLM would train on
    [UNK]s): the sample's own base when it can load here, else the base as it was."""
    if source not in SAMPLE_SOURCES:
        return current
    wanted = corpus_mod.SAMPLES[SAMPLE_SOURCES[source]].base
    return wanted if wanted in {key for _, key in model_choices(("masked",), "en")} else current


def corpus_text(source: str, pasted: str | None, upload: str | None, lang: str) -> str:
    """The corpus the user chose, as text (playground.mlm_lab.follow), refusals in the user's language."""
    with friendly_errors(lang):
        return chosen_corpus(source, pasted, upload)


def _request(text: str, base, whole_word, prob, lr, steps, seconds, seed, lang: str) -> LabRequest:
    with friendly_errors(lang):
        seed = 0 if seed is None else seed  # an emptied seed box means the default
        return lab_request(text, LabSettings(base, whole_word, prob, lr, steps, seconds, seed))


def check_request(source, pasted, upload, base, whole_word, prob, lr, steps, seconds, seed, lang) -> None:
    """Refuse a bad corpus or settings before the training is queued (cheap; train_stream checks again)."""
    _request(corpus_text(source, pasted, upload, lang), base, whole_word, prob, lr, steps, seconds, seed, lang)


def _raise(job: Job, lang: str) -> None:
    if job.error is not None:
        with friendly_errors(lang):
            if isinstance(job.error, ValueError):
                raise job.error
        raise gr.Error(t("common.model_failed", lang, model=job.request.settings.base, reason=type(job.error).__name__))


def _live(job: Job, now, lang: str) -> tuple:
    """(status, loss figure, summary) while the job runs (`now`: a playground.mlm_lab.follow.Progress)."""
    s = job.request.settings
    partial = now.partial
    state = render.status(now.phase, now.position, list(now.points), s, lang)
    if now.cancelling:
        state = t("mlm_lab.status_cancelling", lang)
    before = partial.before.loss if partial else None
    summary = render.summary(partial, lang) if partial else ""
    return state, render.curve_figure(list(now.points), before, s, lang), summary


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
    """The vocabulary size of the base model, for the domain note (from its tokenizer, else 0)."""
    try:
        return range(len(_app().tokenizer(result.settings.base)))
    except Exception:  # the note only loses a number
        return range(0)


def _submit(request: LabRequest, token: str, client: gr.Request | None, lang: str) -> Job:
    with friendly_errors(lang):  # a full queue, or this client's places taken, is refused at once in words
        return _runner().submit(request, token, client_key(client))


def train_stream(
    source, pasted, upload, base, whole_word, prob, lr, steps, seconds, seed, lang, token, client: gr.Request = None
) -> Iterator[tuple]:
    """The UI event: queue the training, stream status + curve, then the before/after panels."""
    token = token or sessions.new_token()
    request = _request(corpus_text(source, pasted, upload, lang), base, whole_word, prob, lr, steps, seconds, seed, lang)
    job = _submit(request, token, client, lang)
    keep = (gr.update(),) * 4
    shown = None
    with closing(follow(job, _runner(), POLL_S)) as progress:  # closed early (the page went away): the job is cancelled
        for now in progress:
            tables = keep
            if now.partial is not None and shown is not now.partial:  # the "before" columns, once measured
                shown, tables = now.partial, _panels(now.partial, lang)[2:]
            yield (*_live(job, now, lang), *tables, token, gr.update())
    _raise(job, lang)
    result = job.result
    if result is None:  # cancelled while waiting in the queue
        yield (t("mlm_lab.stopped.cancelled", lang, steps=0, seconds=0.0), *(gr.update(),) * 6, token, None)
        return
    yield (*_final(result, lang), token, result)


def cancel(token: str | None, lang: str):
    """Stop this session's training; after it finished (or before any) there is nothing to stop and nothing to say."""
    if token and _runner().cancel_session(token):
        return t("mlm_lab.status_cancelling", lang)
    return gr.update()


def redraw(result, lang: str):
    """A language switch redraws the kept result; nothing runs again."""
    return (gr.update(),) * 7 if result is None else _final(result, lang)


def compare(text: str, token: str | None, last, lang: str):
    """Base vs fine-tuned predictions for a sentence with [MASK] (this session's model only)."""
    found = sessions.lab_model(_app(), token)
    if found is None or last is None:
        raise gr.Error(t("mlm_lab.no_model", lang))
    with friendly_errors(lang):
        compared = compare_models(found, text, _app())
    rows = [[r.mask, r.rank, r.before, round(r.before_p, 4), r.after, round(r.after_p, 4)] for r in compared.rows]
    headers = ["mask", "rank", t("mlm_lab.before", lang), "p", t("mlm_lab.after", lang), "p "]
    return gr.update(value=rows, headers=headers)


LAB_EXPORTS = 4  # lab zips kept in the export folder at once (each a few MB; Gradio serves its own copy)
_EXPORTED: dict[str, tuple] = {}  # session token -> (its model, weakly; its zip): a second press serves the same file


def download(token: str | None, lang: str) -> list[str]:
    """The fine-tuned model as a small zip (changed tensors in float16, the base named, the run's Trainer script and
    held-out split), built only when asked."""
    found = sessions.lab_model(_app(), token)
    if found is None:
        raise refuse(t("mlm_lab.no_model", lang))
    kept = _EXPORTED.get(token)
    if kept is not None and kept[0]() is found and Path(kept[1]).exists():  # pressed again: the same file, no new copy
        return [kept[1]]
    with friendly_errors(lang):
        data = lab_zip(found, _app())
    path = export_file("mlm-lab-model.zip", data, keep=LAB_EXPORTS)
    _EXPORTED[token] = (weakref.ref(found), path)  # weak: this must not keep a dropped model in memory
    while len(_EXPORTED) > LAB_EXPORTS:
        _EXPORTED.pop(next(iter(_EXPORTED)))
    return [path]


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
    sample: str = "medicine",
    client: gr.Request = None,
) -> Iterator[dict]:
    """Fine-tune `base` on `corpus` (or the sample): streams {phase, queue_position, step, train_loss, held_loss}
    while it runs, then {phase: "done", result: LabResult as JSON}. The model is not kept for API calls.

    Not an MCP tool: one training at a time server-wide, up to 300 s, would hold an assistant's call (and a class's
    queue) for minutes.

    Args:
        corpus: training text, at most 200,000 characters (one sentence per line is best).
        use_sample: train on a bundled sample (`sample`) instead of `corpus`.
        base: the masked LM to fine-tune ("minilm-mlm", or a hub masked LM when online).
        whole_word: mask whole words (all their pieces together).
        mlm_probability: the share of tokens masked, from 0 to 1.
        learning_rate: a positive number.
        max_steps: 1 to 600 steps.
        max_seconds: 5 to 300 seconds.
        seed: a whole number from 0 to 2**32 - 1.
        lang: "en" or "zh", the language of messages and labels in the result.
        sample: which sample `use_sample` reads: "medicine" (English, WordNet definitions) or "gimp-zh" (Chinese,
            the GIMP manual; train it on "e5-mlm").
    """
    with friendly_errors(lang):
        use = checks.flag(use_sample, "use_sample")
        sample = checks.choice(sample, "sample", corpus_mod.SAMPLES)  # checked even when unused: a typo is told
        text = corpus_mod.sample_corpus(sample) if use else corpus
    request = _request(text, base, whole_word, mlm_probability, learning_rate, max_steps, max_seconds, seed, lang)
    token = sessions.new_token()
    job = _submit(request, token, client, lang)
    try:
        with closing(follow(job, _runner(), 1.0)) as progress:
            yield from map(api_progress, progress)
        _raise(job, lang)
        yield {"phase": "done", "result": render.as_json(job.result) if job.result else None}
    finally:
        drop_session(_app(), token)


def code_request(source, pasted, upload, base, whole_word, prob, lr, steps, seconds, seed) -> tuple[str, dict]:
    """The Code panel's view and parameters: /mlm_lab_train's, with the corpus file the script reads."""
    corpus_file = Path(upload).name if source == "upload" and upload else None
    params = {
        "use_sample": source in SAMPLE_SOURCES,
        **({"sample": SAMPLE_SOURCES[source]} if source in SAMPLE_SOURCES else {}),
        "base": base,
        "whole_word": whole_word,
        "mlm_probability": prob,
        "learning_rate": lr,
        "max_steps": steps,
        "max_seconds": seconds,
        "seed": 0 if seed is None else seed,
    }
    return "mlm_lab", {**params, "corpus_file": corpus_file} if corpus_file else params


def buttons_after(token: str | None) -> tuple:
    """After a training ended (finished, stopped or refused): Stop off; Try and Download on when a model is there."""
    ready = sessions.lab_model(_app(), token) is not None
    return gr.update(interactive=False), gr.update(interactive=ready), gr.update(interactive=ready)


def build_tab(ui: UIContext) -> Shared:
    loc = ui.loc
    n_sample = {src: len(corpus_mod.sentences(corpus_mod.sample_corpus(key))) for src, key in SAMPLE_SOURCES.items()}
    loc.add(gr.Markdown(t("mlm_lab.intro", "en")), value="mlm_lab.intro")
    with gr.Row():
        with gr.Column(scale=3):
            source = loc.add(
                gr.Radio([(t(k, "en"), v) for k, v in SOURCES], value="sample", label=t("mlm_lab.corpus_source", "en")),
                label="mlm_lab.corpus_source",
                choices=lambda lang: [(t(k, lang), v) for k, v in SOURCES],
            )
            sample_info = {
                src: loc.add(
                    gr.Markdown(t(key, "en", n=n_sample[src]), visible=src == "sample"),
                    value=lambda lang, key=key, n=n_sample[src]: t(key, lang, n=n),
                )
                for src, key in SAMPLE_INFO.items()
            }
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
                    gr.Button(t("mlm_lab.cancel", "en"), variant="stop", elem_id="mlm-lab-cancel", interactive=False),
                    value="mlm_lab.cancel",
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
                gr.Markdown(t("mlm_lab.model_note", "en", n=app_settings.current().lab_models)),
                value=lambda lang: t("mlm_lab.model_note", lang, n=app_settings.current().lab_models),
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
                compare_btn = loc.add(
                    gr.Button(t("mlm_lab.try_run", "en"), scale=1, interactive=False, elem_id="mlm-lab-try-run"),
                    value="mlm_lab.try_run",
                )
            compared = gr.Dataframe(interactive=False, wrap=True)
            with gr.Row():
                zip_btn = loc.add(
                    gr.Button(t("mlm_lab.download", "en"), size="sm", scale=0, interactive=False, elem_id="mlm-lab-download"),
                    value="mlm_lab.download",
                )
                files = loc.add(
                    gr.File(label=t("mlm_lab.downloads", "en"), file_count="multiple", interactive=False, scale=4, visible=False),
                    label="mlm_lab.downloads",
                )
        code = CodePanel(ui)  # the Trainer script of the last training, for a notebook or a GPU at home

    # This session's key to its model (dropped when the session ends): the app's, shared with the menus of the
    # fill-mask and attention tabs (ui.lab_models), or the tab's own when it is built alone.
    token = ui.lab.token if ui.lab is not None else gr.State(None, delete_callback=end_session)
    last = gr.State(None)  # this session's last LabResult (redrawn on a language switch)

    def show_source(choice, current_base):
        infos = [gr.update(visible=choice == src) for src in SAMPLE_INFO]
        boxes = gr.update(visible=choice == "paste"), gr.update(visible=choice == "upload")
        return *infos, *boxes, _base_for(choice, current_base)

    source.change(
        show_source, [source, base], [*sample_info.values(), pasted, upload, base], api_visibility="private", queue=False
    )
    panels = [state, plot, summary, probes, domain_plot, domain_note, domain]
    settings = [source, pasted, upload, base, whole_word, prob, lr, steps, seconds, seed, ui.lang]
    checked = train.click(lambda tok: tok or sessions.new_token(), token, token, api_visibility="private", queue=False).then(
        check_request, settings, None, api_visibility="private", concurrency_limit=None
    )
    reveal_after([checked], hint, [result_area])  # a refused corpus keeps the hint; a queued or running training shows
    trained = checked.success(
        train_stream,
        [*settings, token],
        [*panels, token, last],
        api_visibility="private",
        # The page only polls; the real limit is the runner's single slot and bounded queue. Gradio's own limit,
        # shared with the API, bounds the threads polling it (a little above the runner's queue, which refuses first).
        concurrency_limit=lab_concurrency(),
        concurrency_id="mlm_lab",
    )
    # Stop only while a training is queued or running; Try and Download once this session has a model to use.
    checked.success(lambda: gr.update(interactive=True), None, stop, api_visibility="private", queue=False)
    trained.then(buttons_after, token, [stop, compare_btn, zip_btn], api_visibility="private", queue=False)
    if ui.lab is not None:
        ui.lab.changed_by(trained)  # then the other tabs' menus offer the model (or stop offering a dropped one)
    code.after([trained], settings[:-1], code_request)
    stop.click(cancel, [token, ui.lang], state, api_visibility="private", queue=False)
    ui.on_lang(redraw, [last, ui.lang], panels)
    compare_btn.click(compare, [probe_text, token, last, ui.lang], compared, api_visibility="private")
    zip_btn.click(shown_files(download), [token, ui.lang], files, api_visibility="private")
    gr.api(mlm_lab_api, api_name="mlm_lab_train", concurrency_limit=lab_concurrency(), concurrency_id="mlm_lab")
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
