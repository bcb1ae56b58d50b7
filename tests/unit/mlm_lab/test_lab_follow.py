"""The lab's orchestration (playground.mlm_lab.follow): one check of a request, one follower for page and API."""

import threading

import pytest

from playground.errors import InputError
from playground.mlm_lab import corpus
from playground.mlm_lab.follow import Progress, api_progress, corpus_text, follow, lab_request
from playground.mlm_lab.runner import Runner
from playground.mlm_lab.training import CurvePoint
from tests.unit.mlm_lab.test_mlm_lab import TEXT, runtime_of, settings, stand_in


def test_a_request_is_checked_in_one_place_before_it_queues():
    checked = lab_request(TEXT, settings(seed=7))
    assert checked.corpus == TEXT and checked.settings.seed == 7
    with pytest.raises(InputError) as too_few:
        lab_request("one short line", settings())
    assert too_few.value.code == "lab_too_few_sentences"
    with pytest.raises(InputError):
        lab_request(TEXT, settings(base="not-a-model"))
    with pytest.raises(InputError):
        lab_request(TEXT, settings(max_steps=0))


def test_the_corpus_comes_from_the_sample_the_paste_or_a_utf8_upload(tmp_path):
    assert corpus_text("sample", None, None) == corpus.sample_corpus("medicine")
    assert corpus_text("paste", "my text", None) == "my text" and corpus_text("upload", "ignored", None) == ""
    latin = tmp_path / "latin1.txt"
    latin.write_bytes("café crème".encode("latin-1"))
    with pytest.raises(InputError) as unreadable:
        corpus_text("upload", None, str(latin))
    assert unreadable.value.code == "lab_upload"


def test_a_reader_keeps_its_job_alive_and_sees_it_to_the_end(tiny_mlm):
    """The runner cancels a job nobody reads for 0.3 s; followed every 0.05 s for well over that, it trains."""
    gate = threading.Event()
    runner = Runner(runtime_of(tiny_mlm), train=stand_in(tiny_mlm, gate), unread_s=0.3)
    job = runner.submit(lab_request(TEXT, settings(max_steps=2)), "reader")
    seen = []
    for now in follow(job, runner, 0.05):
        seen.append(now)
        if len(seen) == 12:  # 0.6 s of reading: twice what an unread job survives
            gate.set()
    assert job.finished.is_set() and not job.cancelled.is_set() and job.result.steps == 2
    assert seen[0].phase in ("queued", "training") and all(isinstance(now, Progress) for now in seen)


def test_a_reader_that_stops_early_cancels_its_job(tiny_mlm):
    runner = Runner(runtime_of(tiny_mlm), train=stand_in(tiny_mlm, threading.Event()))  # trains until cancelled
    job = runner.submit(lab_request(TEXT, settings()), "leaver")
    progress = follow(job, runner, 0.01)
    next(progress)
    progress.close()  # the page went away
    assert job.cancelled.is_set() and job.finished.wait(10)


def test_the_api_streams_the_last_step_and_the_last_held_out_loss():
    points = (CurvePoint(1, 0.1, 1e-3, train_loss=2.0), CurvePoint(2, 0.2, 1e-3, held_loss=1.5), CurvePoint(3, 0.3, 1e-3, 1.9))
    shown = api_progress(Progress("training", 0, points, None, False))
    assert shown == {"phase": "training", "queue_position": 0, "step": 3, "train_loss": 1.9, "held_loss": 1.5}
    waiting = api_progress(Progress("queued", 2, (), None, False))
    assert waiting == {"phase": "queued", "queue_position": 2, "step": 0, "train_loss": None, "held_loss": None}
