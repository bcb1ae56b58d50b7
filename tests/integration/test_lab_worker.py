"""The MLM lab's worker process: a training there leaves the server's RNGs alone, streams its curve, stops when
asked, hands back the weights, leaves no folder behind; a worker that dies is a clean error and is replaced.

One real "spawn" worker (a fresh interpreter: seconds to start) on the tiny BERT, reused across the checks.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import pytest
import torch

from playground.errors import InputError
from playground.mlm_lab.lab import LabProgress, LabRequest
from playground.mlm_lab.runner import Runner, wait_for
from playground.mlm_lab.training import LabSettings
from playground.mlm_lab.worker import Worker
from playground.registry import LAB_MODEL_KEY
from playground.runtime import Runtime
from tests import tiny_models

TEXT = "\n".join(line for line in tiny_models.CORPUS if line.isascii()) * 3


def settings(**kw) -> LabSettings:
    return LabSettings(**{**dict(base="bert", max_steps=3, max_seconds=60, learning_rate=1e-3, seed=123), **kw})


class Heard(LabProgress):
    def __init__(self, stop_after: int | None = None):
        self.points, self.phases, self.stop_after = [], [], stop_after
        self.first = threading.Event()

    def point(self, point):
        self.points.append(point)
        self.first.set()

    def phase(self, phase, partial=None):
        self.phases.append(phase)

    def should_stop(self):
        return self.stop_after is not None and len(self.points) >= self.stop_after


@pytest.fixture(scope="module")
def worker():
    started = Worker(loader=tiny_models.lab_base)
    yield started
    started.stop()


def rng_state():
    return (torch.initial_seed(), torch.get_rng_state(), random.getstate(), np.random.get_state()[1].tolist())


def _lab_folders() -> set[Path]:
    return set(Path(tempfile.gettempdir()).glob("mlm-lab-*"))


def test_a_training_in_the_worker_leaves_the_servers_rngs_and_disk_alone(worker):
    base = tiny_models.lab_base("bert")
    runtime = Runtime(load=tiny_models.lab_base)
    before, folders = rng_state(), _lab_folders()
    heard = Heard()
    result, tuned = worker.run(LabRequest(TEXT, settings()), heard, base=runtime.model, ranks={})
    after = rng_state()
    assert before[0] == after[0] and torch.equal(before[1], after[1]) and before[2:] == after[2:]  # Trainer seeded 123
    assert result.steps == 3 and result.stopped == "steps" and heard.phases == ["before", "training", "after"]
    assert [p.step for p in heard.points if p.train_loss is not None] == [1, 2, 3]
    assert tuned.spec.key == LAB_MODEL_KEY and tuned.model is not base.model
    moved = [k for k, v in base.model.state_dict().items() if not torch.equal(v, tuned.model.state_dict()[k])]
    assert moved  # the worker's weights, rebuilt on the server's copy of the base (which did not change)
    assert _lab_folders() == folders  # the Trainer's output folder is gone, no checkpoint left


def test_the_worker_is_reused_and_a_cancel_reaches_it(worker):
    """The cancel crosses into the worker and ends the training early. How many steps it still takes depends on how
    far the worker got before the server read its messages (a tiny model steps in milliseconds; on a loaded machine
    it ran 4 where 2-3 were asserted): that the loop stops at the step it is told is tests/unit/mlm_lab
    (test_cancel_stops_the_loop_and_keeps_what_was_learned, exactly 2 of 500)."""
    if worker.pid() is None:  # run alone: start it as the tests before this one do
        worker.run(LabRequest(TEXT, settings(max_steps=1)), Heard(), base=tiny_models.lab_base, ranks={})
    pid = worker.pid()
    heard = Heard(stop_after=2)
    result, tuned = worker.run(LabRequest(TEXT, settings(max_steps=500)), heard, base=tiny_models.lab_base, ranks={})
    assert worker.pid() == pid and result.stopped == "cancelled" and tuned is not None
    assert 2 <= result.steps < 500


def test_a_dead_worker_is_a_clean_error_and_the_next_training_gets_a_new_one(worker):
    heard, killed = Heard(), []

    def kill_it_mid_training():  # the worker's pid once it trains: a worker starts at its first training
        if heard.first.wait(60):
            killed.append(worker.pid())
            os.kill(killed[0], signal.SIGKILL)

    killer = threading.Thread(target=kill_it_mid_training)
    killer.start()
    with pytest.raises(InputError) as caught:
        worker.run(LabRequest(TEXT, settings(max_steps=500)), heard, base=tiny_models.lab_base, ranks={})
    killer.join()
    assert killed and caught.value.code == "lab_worker_died" and "Traceback" not in str(caught.value)
    result, _ = worker.run(LabRequest(TEXT, settings(max_steps=1)), Heard(), base=tiny_models.lab_base, ranks={})
    assert result.steps == 1 and worker.pid() not in (None, killed[0])


def test_a_bad_request_comes_back_in_words_and_the_runner_keeps_the_model(worker):
    with pytest.raises(InputError) as caught:
        worker.run(LabRequest("too short.", settings()), Heard(), base=tiny_models.lab_base, ranks={})
    assert caught.value.code == "lab_too_few_sentences" and "n" in caught.value.params
    runtime = Runtime(load=tiny_models.lab_base)
    runner = Runner(runtime, train=lambda request, progress: worker.run(request, progress, runtime.model, ranks={}))
    job = runner.submit(LabRequest(TEXT, settings(max_steps=2)), "session-w")
    wait_for(job, timeout=120, poll=0.1)
    from playground.mlm_lab import sessions

    assert job.error is None and sessions.lab_model(runtime, "session-w").steps == 2


SERVER = """
import sys
from playground.mlm_lab.worker import Worker
from tests import tiny_models
worker = Worker(loader=tiny_models.lab_base)
worker._start()
print(worker.pid(), flush=True)
sys.stdin.read()  # a server that lives until it is killed
"""


def _gone(pid: int) -> bool:
    """Exited: no such process, or a zombie nobody reaped (a container's init may not reap)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def test_the_worker_ends_when_its_server_is_killed():
    """A server stopped by a signal runs no atexit hook, so `daemon=True` does not end its worker; the worker watches
    its parent itself (e2e runs had left one 1.2 GB orphan per app server). SIGTERM, what a restart sends; a SIGKILL
    (the OOM killer) ends the parent the same way for the worker's watch, and failed the same way before the fix."""
    root = Path(__file__).resolve().parents[2]
    server = subprocess.Popen([sys.executable, "-c", SERVER], cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    pid = int(server.stdout.readline())
    assert not _gone(pid)
    server.send_signal(signal.SIGTERM)
    server.wait(30)
    deadline = time.monotonic() + 30
    while not _gone(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    gone = _gone(pid)
    if not gone:
        os.kill(pid, signal.SIGKILL)
    assert gone, "the worker outlived its server"
