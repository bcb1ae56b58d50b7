"""The MLM lab's endpoint (/mlm_lab_train) and the backend calls the page shares with it, errors in the user's words.

Both submit a `LabRequest` to the server's single training slot (playground.mlm_lab.runner, training in its worker
process) and follow it with playground.mlm_lab.follow; the session's model is the app Runtime's
(playground.mlm_lab.sessions); the compare and the zip are backend functions of it.
"""

from __future__ import annotations

import weakref
from contextlib import closing
from pathlib import Path
from typing import Any, Iterator

import gradio as gr

from playground import checks
from playground.mlm_lab import corpus as corpus_mod
from playground.mlm_lab import sessions
from playground.mlm_lab.compare import compare_models
from playground.mlm_lab.export import lab_zip
from playground.mlm_lab.follow import SAMPLE_SOURCES, api_progress, follow, lab_request
from playground.mlm_lab.follow import corpus_text as chosen_corpus
from playground.mlm_lab.lab import LabRequest
from playground.mlm_lab.runner import Job, drop_session, runner_for
from playground.mlm_lab.training import LabSettings
from playground.serve import runtime as app_runtime
from playground.ui.server.guard import client_key, stream_read
from playground.ui.common.form import Values
from playground.ui.common.i18n import t
from playground.ui.common.widgets import export_file, friendly_errors, model_choices, refuse
from playground.ui.mlm_lab import render

API_POLL_S = 1.0  # how often /mlm_lab_train streams a moment of the training
POLL_S = 0.7  # how often the page is updated while a training runs
SETTINGS = ("base", "whole_word", "mlm_probability", "learning_rate", "steps", "seconds", "seed")  # the page's fields


def _app():
    """The app's Runtime (looked up per call: a test swaps it for one with tiny models)."""
    return app_runtime.APP


def _runner():
    return runner_for(_app())


def end_session(token: str | None) -> None:
    """A session's State was deleted (the page closed): drop its model, cancel its training."""
    drop_session(_app(), token)


def default_base() -> str | None:
    keys = [key for _, key in model_choices(("masked",), "en")]
    return "minilm-mlm" if "minilm-mlm" in keys else (keys[0] if keys else None)


def base_for(source: str, current: str | None) -> str | None:
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


def request_of(text: str, base, whole_word, prob, lr, steps, seconds, seed, lang: str) -> LabRequest:
    """The training request, checked in one place (playground.mlm_lab.follow), refusals in the user's language."""
    with friendly_errors(lang):
        seed = 0 if seed is None else seed  # an emptied seed box means the default
        return lab_request(text, LabSettings(base, whole_word, prob, lr, steps, seconds, seed))


def raise_failure(job: Job, lang: str) -> None:
    if job.error is not None:
        with friendly_errors(lang):
            if isinstance(job.error, ValueError):
                raise job.error
        raise gr.Error(t("common.model_failed", lang, model=job.request.settings.base, reason=type(job.error).__name__))


def submit(request: LabRequest, token: str, client: gr.Request | None, lang: str) -> Job:
    with friendly_errors(lang):  # a full queue, or this client's places taken, is refused at once in words
        return _runner().submit(request, token, client_key(client))


def cancel(token: str | None, lang: str):
    """Stop this session's training; after it finished (or before any) there is nothing to stop and nothing to say."""
    if token and _runner().cancel_session(token):
        return t("mlm_lab.status_cancelling", lang)
    return gr.update()


def compare(text: str, token: str | None, last, lang: str):
    """Base vs fine-tuned predictions for a sentence with [MASK] (this session's model only)."""
    found = sessions.lab_model(_app(), token)
    if found is None or last is None:
        raise gr.Error(t("mlm_lab.no_model", lang))
    with friendly_errors(lang):
        compared = compare_models(found, text, _app())
    rows = [[r.mask, r.rank, r.before, round(r.before_p, 4), r.after, round(r.after_p, 4)] for r in compared.rows]
    headers = ["mask", "rank", t("mlm_lab.before", lang), "p", t("mlm_lab.after", lang), "p "]
    return gr.update(value=rows, headers=headers, visible=True)


def vocab_size(result) -> int:
    """The vocabulary size of the base model, for the domain note (from its tokenizer, else 0)."""
    try:
        return len(_app().tokenizer(result.settings.base))
    except Exception:  # the note only loses a number
        return 0


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


def lab_code_request(source, upload, base, whole_word, prob, lr, steps, seconds, seed) -> tuple[str, dict]:
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


# ---- the page's training (one streaming request) and its script --------------------------------------------------


def train(f: Values) -> Iterator[dict[str, Any]]:
    """Queue the training, stream status and curve, then the before/after panels and the buttons it enables."""
    token = f.extra["token"] or sessions.new_token()
    text = corpus_text(f["source"], f["pasted"], f["upload"], f.lang)
    request = request_of(text, *(f[name] for name in SETTINGS), f.lang)
    job = submit(request, token, f.extra["request"], f.lang)
    queued = render.status("queued", _runner().position(job), [], request.settings, f.lang)
    yield {"token": token, "stop": gr.update(interactive=True), "status": queued}
    shown = None
    with closing(follow(job, _runner(), POLL_S, stream_read(f.extra["request"]))) as progress:
        for now in progress:  # closed early (the page went away): the job is cancelled
            tables = {}
            if now.partial is not None and shown is not now.partial:  # the "before" columns, once measured
                shown, tables = now.partial, render.panels(now.partial, vocab_size(now.partial), f.lang)
                tables = {k: tables[k] for k in ("probes", "domain_plot", "domain_note", "domain")}
            yield render.live(now, request.settings, f.lang) | tables
    ready = sessions.lab_model(_app(), token) is not None
    buttons = {"stop": gr.update(interactive=False), "try_run": gr.update(interactive=ready),
               "download": gr.update(interactive=ready)}  # fmt: skip
    if job.error is not None:
        yield buttons
        raise_failure(job, f.lang)
    if job.result is None:  # cancelled while waiting in the queue
        yield buttons | {"status": t("mlm_lab.stopped.cancelled", f.lang, steps=0, seconds=0.0), "last": None}
        return
    drawn = render.final(job.result, vocab_size(job.result), f.lang)
    yield buttons | drawn | {"last": job.result, "probe_text": render.try_text(job.result, f["probe_text"])}


def code_request(f: Values) -> tuple[str, dict]:
    return lab_code_request(f["source"], f["upload"], *(f[name] for name in SETTINGS))


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
    request = request_of(text, base, whole_word, mlm_probability, learning_rate, max_steps, max_seconds, seed, lang)
    token = sessions.new_token()
    job = submit(request, token, client, lang)
    try:
        # Touched only while the client reads its stream: a POST nobody reads is cancelled after
        # PLAYGROUND_LAB_UNREAD_S and frees its place (issue 37, item 14).
        with closing(follow(job, _runner(), API_POLL_S, stream_read(client))) as progress:
            yield from map(api_progress, progress)
        raise_failure(job, lang)
        yield {"phase": "done", "result": render.as_json(job.result) if job.result else None}
    finally:
        drop_session(_app(), token)
