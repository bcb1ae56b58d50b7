"""The lab's orchestration, one for the page and the API: the corpus chosen, the request checked, the job followed.

- `corpus_text(source, pasted, upload)`: the corpus a student chose (a bundled sample, pasted text or an uploaded
  file, whose size is refused before it is read);
- `lab_request(corpus, settings)`: every check of a training request in one place (settings, corpus, base model),
  before it queues; a refusal is an InputError the page and the API word alike;
- `follow(job, runner, poll_s)`: what a job shows while it runs (phase, queue position, curve, the "before"
  measurements), read every `poll_s` seconds; a read tells the runner someone still reads it only when `read()` says
  the stream's earlier moments were taken (Gradio iterates a generator whether or not a client reads its stream, so
  iterating alone proves nothing: playground.ui.server.guard.stream_read), and a reader that stops early (the page
  closed, the API client went away) cancels the job. `api_progress` is one moment of it as
  the API streams it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from playground.errors import InputError
from playground.mlm_lab import corpus
from playground.mlm_lab.lab import LabRequest, check_base
from playground.mlm_lab.runner import Job, Runner
from playground.mlm_lab.training import CurvePoint, LabResult, LabSettings, check_settings

SAMPLE_SOURCES = {"sample": "medicine", "sample_zh": "gimp-zh"}  # the page's corpus choice -> corpus.SAMPLES key


def corpus_text(source: str, pasted: str | None, upload: str | None) -> str:
    """The corpus the user chose, as text: the sample, the pasted text, or the uploaded file (size-checked first)."""
    if source in SAMPLE_SOURCES:
        return corpus.sample_corpus(SAMPLE_SOURCES[source])
    if source == "upload":
        if not upload:
            return ""
        path = Path(upload)
        corpus.check_upload_size(path.stat().st_size)  # refused before it is read, its size in KB/MB
        try:
            return path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise InputError("lab_upload", "The file could not be read as UTF-8 text.") from None
    return pasted or ""


def lab_request(text: str, settings: LabSettings) -> LabRequest:
    """The training request, checked: its settings (normalised), its corpus, its base model; refused before it queues."""
    settings = check_settings(settings)
    corpus.sentences(text)
    check_base(settings.base)
    return LabRequest(text, settings)


@dataclass(frozen=True)
class Progress:
    """One moment of a running job, as its reader sees it."""

    phase: str  # queued | before | training | after | done | failed
    position: int  # trainings ahead of it in the queue (0 while it trains)
    points: tuple[CurvePoint, ...]
    partial: LabResult | None  # the "before" measurements, once they exist
    cancelling: bool  # stopped while training: it ends at the next step


def always() -> bool:
    return True


def follow(job: Job, runner: Runner, poll_s: float, read: Callable[[], bool] = always) -> Iterator[Progress]:
    """The job's progress every `poll_s` seconds until it ends (then its `result` or `error` is set).

    Each step touches the job while `read()` says someone takes what it yields (the runner cancels a job nobody
    reads for PLAYGROUND_LAB_UNREAD_S); closed before the job ended, it cancels it."""
    try:
        while not job.finished.wait(poll_s):
            if read():
                job.touch()
            cancelling = job.cancelled.is_set() and job.phase == "training"
            yield Progress(job.phase, runner.position(job), tuple(job.points), job.partial, cancelling)
    finally:
        if not job.finished.is_set():  # the reader went away (or its event was cancelled): free the slot
            job.cancel()


def api_progress(now: Progress) -> dict:
    """{phase, queue_position, step, train_loss, held_loss}: one moment as /mlm_lab_train streams it."""
    last = now.points[-1] if now.points else None
    held = [p for p in now.points if p.held_loss is not None]
    return {
        "phase": now.phase,
        "queue_position": now.position,
        "step": last.step if last else 0,
        "train_loss": last.train_loss if last else None,
        "held_loss": held[-1].held_loss if held else (now.partial.before.loss if now.partial else None),
    }
