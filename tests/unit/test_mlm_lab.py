"""MLM lab backend on tiny models: split, caps, cancel, private copies, the runner's single slot."""

import threading

import pytest
import torch

from playground.errors import InputError
from playground.mlm_lab import corpus
from playground.mlm_lab.lab import LabRequest, run_lab_training
from playground.mlm_lab.runner import SESSION_MODELS, Runner, session_model, wait_for
from playground.mlm_lab.training import MAX_SECONDS, MAX_STEPS, LabSettings, check_settings, planned_schedule
from tests.tiny_models import CORPUS

TEXT = "\n".join(line for line in CORPUS if line.isascii()) * 3  # ~45 English sentences


def settings(**kw):
    base = dict(base="bert", max_steps=6, max_seconds=60, learning_rate=1e-3, seed=0)
    return LabSettings(**{**base, **kw})


def test_split_is_deterministic_by_seed_and_holds_out_ten_percent():
    items = [f"sentence number {i} here" for i in range(100)]
    train, held = corpus.split(items, seed=3)
    assert (train, held) == corpus.split(items, seed=3)
    assert len(held) == 10 and len(train) == 90 and not set(train) & set(held)
    assert corpus.split(items, seed=4)[1] != held


def test_caps_are_enforced():
    with pytest.raises(InputError) as e:
        corpus.sentences("word " * (corpus.MAX_CORPUS_CHARS // 5 + 1))
    assert e.value.code == "lab_corpus_too_big"
    with pytest.raises(InputError):
        corpus.sentences("too short.\nstill short")
    for bad in (dict(max_steps=MAX_STEPS + 1), dict(max_steps=0), dict(max_seconds=MAX_SECONDS + 1), dict(learning_rate=1)):
        with pytest.raises(InputError):
            check_settings(settings(**bad))
    with pytest.raises(InputError):
        run_lab_training(LabRequest(TEXT, settings(base="gpt2")), load=lambda key: None)
    with pytest.raises(InputError):
        run_lab_training(LabRequest(TEXT, settings(base="not-a-model")), load=lambda key: None)


def test_schedule_warms_up_then_decays():
    lrs = planned_schedule(settings(max_steps=20, warmup_fraction=0.1, learning_rate=1e-4))
    assert len(lrs) == 20 and lrs[0] < lrs[1] == pytest.approx(1e-4) and lrs[-1] < lrs[5]


def test_training_changes_a_private_copy_and_leaves_the_base_untouched(tiny_mlm):
    snapshot = {k: v.clone() for k, v in tiny_mlm.model.state_dict().items()}
    points = []
    result, tuned = run_lab_training(LabRequest(TEXT, settings()), load=lambda key: tiny_mlm, on_point=points.append, ranks={})
    assert result.steps == 6 and result.stopped == "steps" and result.after is not None
    assert [p.step for p in points if p.train_loss is not None] == list(range(1, 7))
    assert tuned.model is not tiny_mlm.model
    assert any(not torch.equal(v, tuned.model.state_dict()[k]) for k, v in snapshot.items())
    assert all(torch.equal(v, tiny_mlm.model.state_dict()[k]) for k, v in snapshot.items())
    assert not tiny_mlm.model.training
    assert result.n_held == round(len(corpus.sentences(TEXT)) * 0.1)


def test_cancel_stops_the_loop_and_keeps_what_was_learned(tiny_mlm):
    stop = threading.Event()

    def on_point(p):
        if p.step >= 2:
            stop.set()

    result, tuned = run_lab_training(
        LabRequest(TEXT, settings(max_steps=500)), load=lambda key: tiny_mlm, on_point=on_point, should_stop=stop.is_set, ranks={}
    )
    assert result.stopped == "cancelled" and result.steps == 2 and tuned is not None and result.after is not None


def test_runner_runs_one_at_a_time_queues_the_rest_and_keeps_models_per_session(tiny_mlm):
    SESSION_MODELS.clear()
    gate = threading.Event()

    def slow_load(key):
        gate.wait(10)
        return tiny_mlm

    runner = Runner(loader=slow_load)
    a = runner.submit(LabRequest(TEXT, settings(max_steps=2)), "session-a")
    b = runner.submit(LabRequest(TEXT, settings(max_steps=2)), "session-b")
    assert runner.position(a) == 0 and runner.position(b) == 1
    gate.set()
    wait_for(b, timeout=60)
    assert a.finished.is_set() and a.error is None and b.error is None
    assert session_model("session-a") is not None and session_model("session-b") is not None
    assert session_model("session-a").model is not session_model("session-b").model
    assert session_model("someone-else") is None and runner.busy() == 0


def test_a_waiting_job_that_is_cancelled_never_trains(tiny_mlm):
    gate = threading.Event()
    runner = Runner(loader=lambda key: (gate.wait(10), tiny_mlm)[1])
    first = runner.submit(LabRequest(TEXT, settings(max_steps=2)), "s1")
    second = runner.submit(LabRequest(TEXT, settings(max_steps=2)), "s2")
    second.cancel()
    wait_for(second, timeout=10)
    assert second.result is None and second.phase == "done"
    gate.set()
    wait_for(first, timeout=60)
