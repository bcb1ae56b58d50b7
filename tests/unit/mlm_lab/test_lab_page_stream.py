"""The lab page's Train, one streaming request (issue 31): queued, live status and curve, then the before/after panels,
the kept result and the buttons a model enables; the same follower as /mlm_lab_train (a tiny training, in-process)."""

from playground.mlm_lab import sessions
from playground.mlm_lab.lab import run_mlm_lab
from playground.mlm_lab.runner import Runner
from playground.ui.common.form import Values
from playground.ui.mlm_lab import api
from tests.unit.mlm_lab.test_mlm_lab import TEXT, runtime_of


def test_train_streams_status_then_panels_and_enables_try_and_download(tiny_mlm, monkeypatch):
    runtime = runtime_of(tiny_mlm)
    runner = Runner(runtime, train=lambda request, progress: run_mlm_lab(request, runtime, progress, ranks={}))
    monkeypatch.setattr(api, "_runner", lambda: runner)
    monkeypatch.setattr(api, "_app", lambda: runtime)
    monkeypatch.setattr(api, "POLL_S", 0.02)
    fields = dict(source="paste", pasted=TEXT, upload=None, base="bert", whole_word=False, mlm_probability=0.15,
                  learning_rate=1e-3, steps=3, seconds=60, seed=0, probe_text="the [MASK] sat .")  # fmt: skip
    values = Values(fields, "en", None, {"token": "", "last": None, "request": None})
    shown = list(api.train(values))
    first, last = shown[0], shown[-1]
    assert first["token"] and first["stop"]["interactive"] is True and first["status"]  # queued: Stop on at once
    assert any("plot" in update for update in shown[1:-1])  # the live curve while it trained
    assert last["last"].steps == 3 and "3 steps" in last["status"]
    assert last["try_run"]["interactive"] and last["download"]["interactive"] and not last["stop"]["interactive"]
    assert {"probes", "domain", "summary"} <= set(last)
    assert sessions.lab_model(runtime, first["token"]) is not None  # this session's model, for Try and the other tabs
