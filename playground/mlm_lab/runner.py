"""One training at a time, server-wide: a single-slot runner with a visible queue and cooperative cancel.

A `Job` is started in its own thread; it waits its turn (its queue position is readable at any
time), then trains and measures. `cancel()` is honoured while waiting, between training steps and
between evaluation batches. The fine-tuned model goes into a bounded per-session cache under the
session's random token, so nothing one user trains can be loaded by another: the token lives only
in that user's session state.
"""

from __future__ import annotations

import itertools
import os
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Callable

from playground.cache import BoundedCache
from playground.mlm_lab.lab import LabRequest, run_lab_training
from playground.mlm_lab.training import CurvePoint, LabResult
from playground.models import LoadedModel, Loader, load
from playground.registry import get_spec

# Fine-tuned models kept in memory, one per session at most (least recently used dropped first).
SESSION_MODELS = BoundedCache(int(os.environ.get("PLAYGROUND_LAB_MODELS", "3")), "mlm_lab_models")


@dataclass(frozen=True)
class LabModel:
    """A session's fine-tuned model and what its menus call it."""

    model: LoadedModel  # spec.key is registry.LAB_MODEL_KEY
    base_key: str
    base_label: str
    steps: int


def new_session_token() -> str:
    return uuid.uuid4().hex


def session_lab_model(token: str | None) -> LabModel | None:
    """This session's fine-tuned model and its description, if it is still in memory (marks it recently used)."""
    return SESSION_MODELS.peek(token) if isinstance(token, str) and token else None


def session_model(token: str | None) -> LoadedModel | None:
    """This session's fine-tuned model, if it is still in memory."""
    found = session_lab_model(token)
    return found.model if found else None


def session_models(token: str | None) -> dict[str, LoadedModel]:
    """The models only this session may use, by key, for the backend entries' `session` argument ({} when none)."""
    found = session_lab_model(token)
    return {found.model.spec.key: found.model} if found else {}


def drop_session(token: str | None) -> None:
    """The session ended: forget its model (and cancel its training, see `Runner.cancel_session`)."""
    if token:
        SESSION_MODELS.discard(token)
        RUNNER.cancel_session(token)


@dataclass
class Job:
    request: LabRequest
    session: str
    id: int
    points: list[CurvePoint] = field(default_factory=list)
    phase: str = "queued"  # queued | before | training | after | done | failed
    result: LabResult | None = None
    error: BaseException | None = None
    cancelled: threading.Event = field(default_factory=threading.Event)
    finished: threading.Event = field(default_factory=threading.Event)
    partial: LabResult | None = None  # the "before" measurements, as soon as they exist

    def cancel(self) -> None:
        self.cancelled.set()


class Runner:
    """A FIFO of jobs and one worker slot: the head of the queue trains, the rest wait."""

    def __init__(self, loader: Loader = load):
        self._lock = threading.Condition()
        self._queue: list[Job] = []
        self._ids = itertools.count(1)
        self.loader = loader

    def submit(self, request: LabRequest, session: str) -> Job:
        """Queue a training for `session` (its previous one, waiting or running, is cancelled first)."""
        self.cancel_session(session)
        job = Job(request, session, next(self._ids))
        with self._lock:
            self._queue.append(job)
        threading.Thread(target=self._run, args=(job,), name=f"mlm-lab-{job.id}", daemon=True).start()
        return job

    def position(self, job: Job) -> int:
        """0 while training (or done), else how many jobs are ahead of it."""
        with self._lock:
            return self._queue.index(job) if job in self._queue else 0

    def cancel_session(self, session: str) -> None:
        with self._lock:
            jobs = [j for j in self._queue if j.session == session]
        for job in jobs:
            job.cancel()

    def busy(self) -> int:
        with self._lock:
            return len(self._queue)

    def _run(self, job: Job) -> None:
        try:
            with self._lock:  # wait for the slot: first in the queue (a cancel while waiting leaves the queue)
                while self._queue[0] is not job and not job.cancelled.is_set():
                    self._lock.wait(timeout=0.5)
            if job.cancelled.is_set() and job.phase == "queued":
                job.phase = "done"
                return

            def on_phase(phase: str, partial: LabResult | None = None) -> None:
                job.phase = phase
                if partial is not None:
                    job.partial = partial

            job.result, tuned = run_lab_training(
                job.request,
                load=self.loader,
                on_point=job.points.append,
                should_stop=job.cancelled.is_set,
                on_phase=on_phase,
            )
            if tuned is not None:
                base = job.request.settings.base
                kept = LabModel(tuned, base, get_spec(base).label, job.result.steps)
                SESSION_MODELS.discard(job.session)  # the old model first: never two of one session in memory
                SESSION_MODELS.get(job.session, lambda: kept)
            job.phase = "done"
        except BaseException as exc:  # reported to the waiting page; the slot must be freed whatever happened
            job.error = exc
            job.phase = "failed"
        finally:
            with self._lock:
                if job in self._queue:
                    self._queue.remove(job)
                self._lock.notify_all()
            job.finished.set()


RUNNER = Runner()


def wait_for(job: Job, poll: float = 0.5, timeout: float | None = None, tick: Callable[[], None] | None = None) -> None:
    """Block until the job finishes (tests; the UI polls instead)."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while not job.finished.wait(poll):
        if tick:
            tick()
        if deadline and time.monotonic() > deadline:
            raise TimeoutError("the lab job did not finish in time")
