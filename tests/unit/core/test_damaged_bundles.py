"""Damaged bundled files are never listed as available and never handed to a library: the model is refused in the
user's language, naming the file, before anything reads it (issue 37, item 21).

ELMo: a weights file cut short (its HDF5 signature intact) or an options file that is not JSON was listed as
"available (bundled)" and failed with h5py's or json's text. Overlays (weights trained here, over a bundle): a
damaged one was flagged in the lists, yet /fill_mask, /mlm_lab_train and /inside_embeddings still loaded it.
Each case on a copy of the real files (tmp_path), through a fresh model store (the process's cache untouched).
"""

from __future__ import annotations

import shutil

import gradio as gr
import pytest

from playground import availability, models
from playground.errors import InputError
from playground.registry import get_spec
from playground.ui.common.strings import STRINGS

ELMO = "elmo-small"


def _cut(path):
    data = path.read_bytes()
    path.unlink()
    path.write_bytes(data[: len(data) // 2])


ELMO_DAMAGE = {
    "weights-truncated": lambda folder: _cut(folder / "weights.hdf5"),  # the signature stays: it passed before
    "options-garbage": lambda folder: (folder / "options.json").write_text('{"lstm": {"dim": 64, "cell_'),
}


@pytest.fixture
def elmo_copy(tmp_path, monkeypatch):
    folder = tmp_path / "elmo"
    shutil.copytree(availability.REPO_ROOT / get_spec(ELMO).subdir, folder)
    real = availability.bundle_dir
    monkeypatch.setattr(availability, "bundle_dir", lambda spec: folder if spec.key == ELMO else real(spec))
    return folder


def test_the_whole_elmo_copy_loads(elmo_copy):
    assert availability.check(get_spec(ELMO)).ok
    assert models.ModelStore().load(ELMO).model is not None


@pytest.mark.parametrize("damage", sorted(ELMO_DAMAGE))
def test_damaged_elmo_files_are_not_available_and_are_refused_in_both_languages(elmo_copy, damage):
    from playground.ui.common.widgets import friendly_errors

    ELMO_DAMAGE[damage](elmo_copy)
    spec = get_spec(ELMO)
    state = availability.check(spec)
    assert not state.ok and state.code == "damaged" and state.file in ("weights.hdf5", "options.json")
    assert spec not in availability.available_specs("elmo")
    with pytest.raises(InputError) as caught:
        models.ModelStore().load(ELMO)
    assert caught.value.code == "model_damaged" and state.file in str(caught.value)
    for lang, word in (("en", "damaged"), ("zh", "已损坏")):
        with pytest.raises(gr.Error) as shown, friendly_errors(lang):
            models.ModelStore().load(ELMO)
        assert word in shown.value.message and state.file in shown.value.message


def test_elmo_files_whose_framing_is_whole_but_content_is_not_are_refused_in_words(elmo_copy):
    """Options that parse but are not ELMo's: the loader's own text is not what a student reads."""
    (elmo_copy / "options.json").write_text('{"not": "elmo options"}')
    with pytest.raises(InputError) as caught:
        models.ModelStore().load(ELMO)
    assert caught.value.code == "model_unreadable"


def test_every_refusal_of_an_unavailable_model_has_its_text_in_both_languages_with_the_same_placeholders():
    for code, english in models.UNAVAILABLE.items():
        en, zh = STRINGS[f"common.model_{code}"]
        assert en == english and "{model}" in zh and ("{file}" in zh) == ("{file}" in en)


OVERLAY = "minilm-mlm"


@pytest.fixture
def damaged_overlay(tmp_path, monkeypatch, app_runtime):
    """minilm-mlm's MLM head cut short; the page's and the API's events on a fresh store (nothing cached)."""
    path = tmp_path / "overlay.safetensors"
    shutil.copy(availability.overlay_path(get_spec(OVERLAY)), path)
    _cut(path)
    real = availability.overlay_path
    monkeypatch.setattr(availability, "overlay_path", lambda spec: path if spec.key == OVERLAY else real(spec))
    app_runtime(models.ModelStore().load)
    return path


def _refusal(call) -> str:
    with pytest.raises(gr.Error) as caught:
        result = call()
        if hasattr(result, "__next__"):  # a streaming endpoint: its refusal comes on the first read
            list(result)
    return caught.value.message


@pytest.mark.parametrize("lang, word", [("en", "damaged"), ("zh", "已损坏")])
def test_a_damaged_overlay_is_refused_by_every_endpoint_that_loads_it(damaged_overlay, lang, word):
    from playground.ui.fill_mask.api import fill_mask_api
    from playground.ui.inside.api import inside_embeddings_api
    from playground.ui.mlm_lab.api import mlm_lab_api

    assert not availability.check(get_spec(OVERLAY)).ok  # flagged in the lists (it was before, too)
    calls = {
        "fill_mask": lambda: fill_mask_api("The [MASK] sat on the mat.", [OVERLAY], 5, lang),
        "inside_embeddings": lambda: inside_embeddings_api("The cat sat.", "", OVERLAY, lang),
        "mlm_lab_train": lambda: mlm_lab_api(use_sample=True, base=OVERLAY, max_steps=1, lang=lang),
    }
    for name, call in calls.items():
        message = _refusal(call)
        assert word in message and "overlay.safetensors" in message, (name, message)


class InProcessWorker:
    """The lab's worker, recorded when started and training in this process (the real one is a fresh interpreter:
    tests/integration/test_lab_worker.py)."""

    started: list = []

    def __init__(self):
        InProcessWorker.started.append(self)

    def run(self, request, progress, base, ranks=None):
        from playground.mlm_lab.lab import run_mlm_lab
        from playground.serve import runtime as app

        return run_mlm_lab(request, app.APP, progress, ranks={})


@pytest.fixture
def lab_workers(monkeypatch):
    from playground.mlm_lab import runner

    monkeypatch.setattr(runner, "Worker", InProcessWorker)
    monkeypatch.setattr(InProcessWorker, "started", [])
    return InProcessWorker.started


@pytest.mark.parametrize("lang, word", [("en", "damaged"), ("zh", "已损坏")])
def test_the_lab_refuses_a_damaged_overlay_before_any_training_worker_starts(damaged_overlay, lab_workers, lang, word):
    """Before, the refusal came from the worker's own load, after the worker process started (~90 s here)."""
    from playground.mlm_lab.runner import runner_for
    from playground.serve import runtime as app
    from playground.ui.mlm_lab.api import mlm_lab_api

    message = _refusal(lambda: mlm_lab_api(use_sample=True, base=OVERLAY, max_steps=1, lang=lang))
    assert word in message and "overlay.safetensors" in message
    assert lab_workers == [] and runner_for(app.APP).busy() == 0  # nothing started, nothing queued


def test_a_whole_overlay_still_trains_through_the_lab_api(app_runtime, lab_workers):
    from playground.ui.mlm_lab.api import mlm_lab_api

    assert availability.check(get_spec(OVERLAY)).ok
    app_runtime(models.ModelStore().load)
    text = "\n".join(f"The patient number {i} was given a dose of the medicine after the meal." for i in range(30))
    *_, last = mlm_lab_api(corpus=text, base=OVERLAY, max_steps=2, max_seconds=60, lang="en")
    assert last["phase"] == "done" and last["result"]["steps"] == 2
    assert len(lab_workers) == 1
