"""/mlm_lab_train POSTs nobody reads free their queue places (issue 37, item 14), on a real server, a stand-in training.

Gradio iterates the endpoint's generator whether or not anyone opened its stream; the lab's follower touched the job
on every step, so the lab's own unread limit never fired and four unread POSTs held the lab's whole queue until the
queue guard's limit (a minute). The follower now touches only while the stream is read.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request

import gradio as gr
import pytest

from playground.mlm_lab.runner import Runner
from playground.ui.mlm_lab import api
from scripts.serve_app import free_port
from tests.unit.mlm_lab.test_mlm_lab import TEXT, runtime_of, stand_in

UNREAD_S = 1.0  # the lab's unread limit here (PLAYGROUND_LAB_UNREAD_S, 30 s in the app)
VALUES = [TEXT, False, "bert", False, 0.15, 1e-4, 6, 60, 0, "en", "medicine"]  # every /mlm_lab_train parameter


@pytest.fixture
def lab_server(tiny_mlm, monkeypatch):
    runtime = runtime_of(tiny_mlm)
    gate = threading.Event()  # the stand-in trains until this is set or its job is cancelled
    runner = Runner(runtime, train=stand_in(tiny_mlm, gate), max_jobs=4, per_client=4, unread_s=UNREAD_S)
    jobs = []
    submit = runner.submit
    monkeypatch.setattr(runner, "submit", lambda *a, **kw: jobs.append(submit(*a, **kw)) or jobs[-1])
    monkeypatch.setattr(api, "_runner", lambda: runner)
    monkeypatch.setattr(api, "_app", lambda: runtime)
    monkeypatch.setattr(api, "API_POLL_S", 0.1)  # a step of the stream every 0.1 s, well inside the unread limit
    with gr.Blocks() as demo:
        gr.api(api.mlm_lab_api, api_name="mlm_lab_train", concurrency_limit=6, concurrency_id="mlm_lab")
    demo.queue(max_size=20)
    port = free_port()
    demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True)  # no queue guard: the lab alone
    yield f"http://127.0.0.1:{port}", runner, jobs, gate
    gate.set()
    demo.close()


def post(base: str) -> tuple[int, dict]:
    body = json.dumps({"data": VALUES}).encode()
    req = urllib.request.Request(f"{base}/gradio_api/call/mlm_lab_train", body, {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def _started(jobs: list, n: int) -> None:
    deadline = threading.Event()
    for _ in range(200):  # the events reach the runner once Gradio runs them
        if len(jobs) >= n:
            return
        deadline.wait(0.05)
    raise AssertionError(f"{len(jobs)} of {n} trainings reached the runner")


def test_four_unread_lab_posts_are_cancelled_and_free_the_queue(lab_server):
    base, runner, jobs, gate = lab_server
    for _ in range(4):  # the lab's whole queue, posted and never read
        assert post(base)[0] == 200
    _started(jobs, 4)
    for job in jobs:  # each cancelled by the lab's own unread limit (before: read on every step, never cancelled)
        assert job.finished.wait(UNREAD_S + 15), "an unread training kept its place"
        assert job.cancelled.is_set()
    assert runner.busy() == 0


def test_a_lab_post_whose_stream_is_read_trains_to_the_end(lab_server):
    base, runner, jobs, gate = lab_server
    status, body = post(base)
    assert status == 200
    streamed = []
    url = f"{base}/gradio_api/call/mlm_lab_train/{body['event_id']}"
    reader = threading.Thread(target=lambda: streamed.append(urllib.request.urlopen(url, timeout=60).read().decode()))
    reader.start()
    _started(jobs, 1)
    assert not jobs[0].cancelled.wait(3 * UNREAD_S)  # read all along: three unread limits later it still trains
    gate.set()
    reader.join(60)
    assert jobs[0].finished.is_set() and not jobs[0].cancelled.is_set() and jobs[0].result.steps == 6
    assert '"phase": "done"' in streamed[0]
