"""The lab's worker process: every training runs there, so the Trainer's seeding and output never touch the server.

`transformers.Trainer` seeds the global RNGs (torch, numpy, random) and may print; on a shared server that
would change every other user's draws. One worker process ("spawn": a fresh interpreter, no copied CUDA or
thread state) is started on the first training and reused for the next ones (a start costs seconds; a
training at a time, as the runner runs them). What crosses is plain data: the request and the base key go in
(the worker loads the base itself through the normal load path), curve points, phases and finally the result
and the fine-tuned weights (a `torch.save` of the state dict) come back over a queue. Cancel is an Event the
Trainer's callback checks after every step. A worker that dies (out of memory, killed) becomes a clean
InputError for that training, and the next training starts a new worker.
"""

from __future__ import annotations

import contextlib
import copy
import io
import logging
import multiprocessing as mp
import multiprocessing.connection
import queue
import sys
import threading
from dataclasses import replace
from typing import Any, Callable

from playground.errors import InputError, public_text
from playground.mlm_lab.lab import LabProgress, LabRequest
from playground.mlm_lab.training import LabResult
from playground.models import LoadedModel
import os
import signal
import torch
from playground import models
from playground.mlm_lab.lab import run_mlm_lab
from playground.runtime import Runtime

log = logging.getLogger("playground")
POLL_S = 0.2  # how often the server side looks at the cancel flag and the worker's health while it waits


class _Sender(LabProgress):
    """The worker's side of LabProgress: everything it is told goes to the server; stop when the server says so."""

    def __init__(self, outbox, cancel):
        self.outbox, self.cancel = outbox, cancel

    def point(self, point) -> None:
        self.outbox.put(("point", point))

    def phase(self, phase, partial=None) -> None:
        self.outbox.put(("phase", phase, partial))

    def should_stop(self) -> bool:
        return self.cancel.is_set()


def serve(inbox, outbox, cancel, loader: Callable[..., LoadedModel]) -> None:
    """The worker's loop (in the child process): one training per message, until told to stop (None)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in the server's terminal is the server's to handle
    _end_with_the_server()

    runtime = Runtime(load=loader)  # the normal load path: bundled models from disk, a cache of its own
    while (message := inbox.get()) is not None:
        request, ranks = message
        try:
            with open(os.devnull, "w") as quiet, contextlib.redirect_stdout(quiet):  # libraries' prints stay here
                result, tuned = run_mlm_lab(request, runtime, _Sender(outbox, cancel), ranks)
            weights = None
            if tuned is not None:
                buffer = io.BytesIO()
                torch.save({k: v.detach().cpu() for k, v in tuned.model.state_dict().items()}, buffer)
                weights = (tuned.spec, buffer.getvalue())
            outbox.put(("done", result, weights))
            del result, tuned, weights  # an idle worker keeps only its cached base model
        except InputError as error:  # words for the student: code, message and params cross as they are
            outbox.put(("refused", error.code, str(error), error.params))
        except Exception as error:  # anything else: its type and message, paths stripped
            outbox.put(("failed", type(error).__name__, public_text(error)))


def _end_with_the_server() -> None:
    """Exit as soon as the server's process ends, however it ends.

    `daemon=True` only covers a server that exits through Python (its atexit hook terminates daemon children); a
    SIGTERM (a restart, a Space being stopped, the e2e fixture) or SIGKILL skips that, and the worker, blocked on a
    queue whose writing end it holds itself, never saw EOF: it stayed, 1.2 GB, reparented to init (three such
    were found after three e2e runs). The parent's sentinel becomes readable when the parent is gone."""
    parent = mp.parent_process()
    if parent is None:  # not started by multiprocessing (a test calling serve() in-process)
        return

    def watch() -> None:
        mp.connection.wait([parent.sentinel])
        os._exit(0)  # no cleanup to run: a training in flight belongs to a server that no longer exists

    threading.Thread(target=watch, name="mlm-lab-parent-watch", daemon=True).start()


class Worker:
    """The server's handle on the worker process (started on first use, replaced when it died)."""

    def __init__(self, loader: Callable[..., LoadedModel] | None = None):
        self.loader = loader or models.load  # pickled by reference: a module-level function
        self._ctx = mp.get_context("spawn")
        self._process = None
        self._lock = threading.Lock()  # one training at a time through one worker

    def alive(self) -> bool:
        return self._process is not None and self._process.is_alive()

    def _start(self) -> None:
        self._inbox, self._outbox, self._cancel = self._ctx.Queue(), self._ctx.Queue(), self._ctx.Event()
        self._process = self._ctx.Process(
            target=serve, args=(self._inbox, self._outbox, self._cancel, self.loader), name="mlm-lab-worker", daemon=True
        )
        with _main_script_hidden():
            self._process.start()

    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def run(
        self, request: LabRequest, progress: LabProgress, base: Callable[[str], LoadedModel], ranks: dict | None = None
    ) -> tuple[LabResult, LoadedModel | None]:
        """Train in the worker, relaying what it tells to `progress`; the fine-tuned model is rebuilt here on
        `base(key)` (the server's own copy of the base model, loaded through the server's runtime)."""
        with self._lock:
            if not self.alive():
                self._start()
            self._cancel.clear()
            self._inbox.put((request, ranks))
            while True:
                if not self._cancel.is_set() and progress.should_stop():
                    self._cancel.set()  # the Trainer's callback sees it after the current step
                try:
                    message = self._outbox.get(timeout=POLL_S)
                except queue.Empty:
                    if not self._process.is_alive():
                        code = self._process.exitcode
                        self._process = None  # the next training starts a new worker
                        log.warning("the MLM lab worker died (exit code %s)", code)
                        raise InputError(
                            "lab_worker_died",
                            "The training process stopped unexpectedly (exit code {exit}): try again, perhaps with fewer steps.",
                            exit=code,
                        ) from None
                    continue
                kind, *rest = message
                if kind == "point":
                    progress.point(rest[0])
                elif kind == "phase":
                    progress.phase(*rest)
                elif kind == "refused":
                    code, text, params = rest
                    error = InputError(code, text)
                    error.params = params
                    raise error
                elif kind == "failed":
                    name, text = rest
                    raise InputError("lab_failed", "The training failed ({kind}: {reason}).", kind=name, reason=text)
                else:
                    result, weights = rest
                    return result, (None if weights is None else _rebuild(base, request.settings.base, *weights))

    def stop(self) -> None:
        """End the worker (it finishes nothing: a running training is lost)."""
        with self._lock:
            if self.alive():
                self._inbox.put(None)
                self._process.join(5)
                if self._process.is_alive():
                    self._process.terminate()
            self._process = None


@contextlib.contextmanager
def _main_script_hidden():
    """Start the worker without re-running the server's script (`python app.py`) in it.

    "spawn" re-imports the parent's main script in the child when it was started by path; for the app that means
    gradio, every tab module and, on ZeroGPU, `spaces`, none of which a training needs (`serve` and the loader
    are found by module name). Hiding `__main__.__file__` while the child is prepared skips that step.
    """
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if main is None or path is None or getattr(main, "__spec__", None) is not None:  # run with -m, or no script
        yield
        return
    del main.__file__
    try:
        yield
    finally:
        main.__file__ = path


def _rebuild(base: Callable[[str], LoadedModel], key: str, spec: Any, data: bytes) -> LoadedModel:
    """The fine-tuned model in this process: a copy of the server's base with the worker's weights."""
    lm = base(key)
    model = copy.deepcopy(lm.model)
    model.load_state_dict(torch.load(io.BytesIO(data), weights_only=True))
    model.eval()
    return replace(lm, spec=spec, model=model)
