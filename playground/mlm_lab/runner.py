"""One training at a time, server-wide: a single-slot runner with a visible queue and cooperative cancel.

A `Job` is started in its own thread; it waits its turn (its queue position is readable at any
time), then trains and measures in the lab's worker process (playground.mlm_lab.worker).
`cancel()` is honoured while waiting, after every training step and between evaluation batches.
The queue is bounded (`max_jobs`, running one included) and one client (an address) may hold at
most `per_client` of its places: past either, `submit` refuses at once, as it does a base that cannot train
(damaged files, no mask token, a corpus it cannot read: loaded and checked before a worker starts). Whoever waits for a job
calls `job.touch()` as it reads; a job nobody has read for `unread_s` seconds (the page went away,
or an API client posted and never read the stream) is cancelled. The fine-tuned model is kept in
the Runtime under the session's random token (playground.mlm_lab.sessions), so nothing one user
trains can be loaded by another.
"""

from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from playground import settings
from playground.errors import InputError
from playground.mlm_lab import corpus, sessions
from playground.mlm_lab.lab import LabProgress, LabRequest, lab_base
from playground.mlm_lab.training import CurvePoint, LabResult
from playground.models import LoadedModel
from playground.runtime import Runtime
from playground.mlm_lab.worker import Worker

# (request, progress) -> (result, fine-tuned model or None): by default the worker process's training.
Train = Callable[[LabRequest, LabProgress], "tuple[LabResult, LoadedModel | None]"]


@dataclass
class Job:
    request: LabRequest
    session: str
    id: int
    client: str = ""  # the address that asked (for the per-client cap)
    points: list[CurvePoint] = field(default_factory=list)
    phase: str = "queued"  # queued | before | training | after | done | failed
    result: LabResult | None = None
    error: BaseException | None = None
    cancelled: threading.Event = field(default_factory=threading.Event)
    finished: threading.Event = field(default_factory=threading.Event)
    partial: LabResult | None = None  # the "before" measurements, as soon as they exist
    read_at: float = field(default_factory=time.monotonic)  # when someone last read its progress (see touch)

    def cancel(self) -> None:
        self.cancelled.set()

    def touch(self) -> None:
        """Someone is still reading this job's progress (the page's poll, the API stream)."""
        self.read_at = time.monotonic()

    def unread_for(self) -> float:
        return time.monotonic() - self.read_at


class _JobProgress(LabProgress):
    """What the training tells goes into its job (the page and the API stream read it from there)."""

    def __init__(self, job: Job, stop: Callable[[], bool]):
        self.job, self.stop = job, stop

    def point(self, point: CurvePoint) -> None:
        self.job.points.append(point)

    def phase(self, phase: str, partial: LabResult | None = None) -> None:
        self.job.phase = phase
        if partial is not None:
            self.job.partial = partial

    def should_stop(self) -> bool:
        return self.stop()


class Runner:
    """A FIFO of jobs and one training slot: the head of the queue trains (in the worker), the rest wait."""

    def __init__(
        self,
        runtime: Runtime,
        train: Train | None = None,
        max_jobs: int | None = None,
        per_client: int | None = None,
        unread_s: float | None = None,
    ):
        current = settings.current()
        self._lock = threading.Condition()
        self._queue: list[Job] = []
        self._ids = itertools.count(1)
        self.runtime = runtime
        self.worker = None  # started with the first training (playground.mlm_lab.worker)
        self.train = train or self._in_worker
        self.max_jobs = current.lab_queue if max_jobs is None else max_jobs
        self.per_client = current.lab_per_client if per_client is None else per_client
        self.unread_s = current.lab_unread_s if unread_s is None else unread_s

    def _in_worker(self, request: LabRequest, progress: LabProgress) -> tuple[LabResult, LoadedModel | None]:
        if self.worker is None:
            self.worker = Worker()
        return self.worker.run(request, progress, base=self.runtime.model)

    def submit(self, request: LabRequest, session: str, client: str = "") -> Job:
        """Queue a training for `session` (its previous one, waiting or running, is cancelled first).

        Refused (InputError) when the queue already holds `max_jobs` trainings, or `per_client` from this client, or
        when its base cannot train on its corpus (`lab_base`).
        """
        self.cancel_session(session)
        # The base loads (or is refused) here, in the caller's thread, before anything queues: a damaged overlay, a
        # base without a mask token or one that reads the corpus as unknown tokens is told at once, not after the
        # worker process started and loaded it (~90 s on a busy 2-core machine; issue 37, item 21). Not a second
        # copy: the server loads this base anyway, to rebuild the fine-tuned model on it (worker._rebuild).
        lab_base(request.settings.base, corpus.sentences(request.corpus), self.runtime)
        job = Job(request, session, next(self._ids), client)
        with self._lock:
            live = [j for j in self._queue if not j.cancelled.is_set()]
            if len(live) >= self.max_jobs:
                raise InputError(
                    "lab_busy",
                    "{n} trainings are already running or waiting (the most the server takes): try again in a few minutes.",
                    n=len(live),
                )
            if client and sum(j.client == client for j in live) >= self.per_client:
                raise InputError(
                    "lab_client_busy",
                    # about the address, not "you": behind one school connection the refused student may have none
                    "{n} trainings from your network address are already running or waiting, the most one address may "
                    "hold (a class behind one school connection shares one address): wait for one to finish, or ask "
                    "whoever runs this server to raise PLAYGROUND_LAB_PER_CLIENT.",
                    n=self.per_client,
                )
            self._queue.append(job)
        threading.Thread(target=self._run, args=(job,), name=f"mlm-lab-{job.id}", daemon=True).start()
        return job

    def position(self, job: Job) -> int:
        """0 while training (or done), else how many jobs are ahead of it."""
        with self._lock:
            return self._queue.index(job) if job in self._queue else 0

    def cancel_session(self, session: str) -> bool:
        """Cancel this session's training, waiting or running; False when it had none to stop."""
        with self._lock:
            jobs = [j for j in self._queue if j.session == session and not j.cancelled.is_set()]
        for job in jobs:
            job.cancel()
        return bool(jobs)

    def _abandoned(self, job: Job) -> bool:
        """Cancelled, or nobody has read its progress for `unread_s` (then it is cancelled now)."""
        if not job.cancelled.is_set() and job.unread_for() > self.unread_s:
            job.cancel()
        return job.cancelled.is_set()

    def busy(self) -> int:
        with self._lock:
            return len(self._queue)

    def _run(self, job: Job) -> None:
        try:
            with self._lock:  # wait for the slot: first in the queue (a cancel while waiting leaves the queue)
                while self._queue[0] is not job and not self._abandoned(job):
                    self._lock.wait(timeout=0.5)
            if job.cancelled.is_set() and job.phase == "queued":
                job.phase = "done"
                return

            job.result, tuned = self.train(job.request, _JobProgress(job, lambda: self._abandoned(job)))
            if tuned is not None:
                base = job.request.settings.base
                found = sessions.LabModel(tuned, base, self.runtime.spec(base).label, job.result.steps, job.request, job.result)
                sessions.keep(self.runtime, job.session, found)
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


def runner_for(runtime: Runtime) -> Runner:
    """The runtime's one runner (server-wide for the app's runtime; a test's own Runtime gets its own)."""
    return runtime.cache("mlm_lab_runner", 1).get("runner", lambda: Runner(runtime))


def lab_concurrency() -> int:
    """Gradio's limit on the lab's events (page and API share it): a little above the runner's queue
    (PLAYGROUND_LAB_QUEUE, trainings held at once), which refuses first; its events only poll. Read when the tab is
    built, never at import."""
    return settings.current().lab_queue + 2


def drop_session(runtime: Runtime, token: str | None) -> None:
    """The session ended: forget its model and cancel its training, waiting or running."""
    if token:
        sessions.forget(runtime, token)
        runner_for(runtime).cancel_session(token)


def wait_for(job: Job, poll: float = 0.5, timeout: float | None = None, tick: Callable[[], None] | None = None) -> None:
    """Block until the job finishes, reading it meanwhile (tests; the UI polls instead)."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while not job.finished.wait(poll):
        job.touch()
        if tick:
            tick()
        if deadline and time.monotonic() > deadline:
            raise TimeoutError("the lab job did not finish in time")
