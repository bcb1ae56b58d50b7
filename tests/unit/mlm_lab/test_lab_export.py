"""The lab's download: only what changed, float16, the base named, small; applying it gives back the fine-tune."""

import copy
import io
import zipfile

import pytest
import torch

from playground.mlm_lab import corpus, sessions
from playground.mlm_lab.export import FOLDER, HELD_OUT, SCRIPT, apply_export, build_export, lab_zip, read_manifest
from playground.mlm_lab.lab import LabRequest, run_mlm_lab
from playground.runtime import Runtime
from playground.mlm_lab.training import LabSettings
from tests.tiny_models import CORPUS

TEXT = "\n".join(line for line in CORPUS if line.isascii()) * 3


@pytest.fixture(scope="module")
def tuned_once(tiny_mlm):
    """One 4-step fine-tune shared by the tests here (read-only: each builds its own zip from it)."""
    settings = LabSettings(base="bert", max_steps=4, max_seconds=60, learning_rate=1e-3, seed=0)
    _, tuned = run_mlm_lab(LabRequest(TEXT, settings), Runtime(load=lambda key, **kw: tiny_mlm), ranks={})
    return tuned


def _full_float32_size(model) -> int:
    return sum(t.numel() * t.element_size() for t in {t.data_ptr(): t for t in model.state_dict().values()}.values())


def test_the_export_holds_only_changed_tensors_in_float16_and_names_the_base(tiny_mlm, tuned_once):
    tuned = tuned_once
    data = build_export(tuned.model, tiny_mlm.model, {"base": "bert", "steps": 4})
    manifest = read_manifest(data)
    assert manifest["base"] == "bert" and manifest["dtype"] == "float16" and manifest["steps"] == 4
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = sorted(zf.namelist())
    assert names == [f"{FOLDER}/changed.safetensors", f"{FOLDER}/manifest.json"]  # no tokenizer, no config copy
    assert len(data) < _full_float32_size(tuned.model) * 0.6  # float16 and only what moved


@torch.no_grad()
def test_rows_that_moved_less_than_float16_shows_are_left_out(tiny_mlm):
    """What a real fine-tune does to the word embeddings: the corpus's tokens move, the rest only decay (AdamW)."""
    tuned = copy.deepcopy(tiny_mlm.model)
    for p in tuned.parameters():
        p.mul_(1 - 1e-6)  # weight decay's share of a short training: below float16's resolution
    embeddings = tuned.get_input_embeddings().weight
    embeddings[[3, 7]] += 0.05  # two tokens the corpus used
    data = build_export(tuned, tiny_mlm.model, {"base": "bert"})
    layout = read_manifest(data)["tensors"]
    name = next(n for n in layout if n.endswith("word_embeddings.weight"))
    assert layout == {name: "rows"}  # nothing else moved enough to be kept
    rebuilt = apply_export(data, copy.deepcopy(tiny_mlm.model))
    assert torch.allclose(rebuilt.get_input_embeddings().weight[[3, 7]], embeddings[[3, 7]], atol=1e-3)
    assert torch.equal(rebuilt.get_input_embeddings().weight[5], tiny_mlm.model.get_input_embeddings().weight[5])


def test_applying_the_export_to_the_base_gives_back_the_fine_tuned_model(tiny_mlm, tuned_once):
    tuned = tuned_once
    data = build_export(tuned.model, tiny_mlm.model, {"base": "bert"})
    rebuilt = apply_export(data, copy.deepcopy(tiny_mlm.model))
    tuned_state, rebuilt_state, base_state = tuned.model.state_dict(), rebuilt.state_dict(), tiny_mlm.model.state_dict()
    for name, want in tuned_state.items():
        # float16's resolution at the tensor's scale (plus a floor: the key bias, which softmax ignores, moves ~1e-8)
        assert (rebuilt_state[name] - want).abs().max() <= want.abs().max() * 2**-10 + 1e-6, name
    assert any(not torch.equal(rebuilt_state[n], base_state[n]) for n in base_state)  # it did change the copy
    assert all(torch.equal(v, base_state[k]) for k, v in copy.deepcopy(tiny_mlm.model).state_dict().items())


def test_an_unchanged_model_exports_nothing(tiny_mlm):
    data = build_export(copy.deepcopy(tiny_mlm.model), tiny_mlm.model, {"base": "bert"})
    assert read_manifest(data)["tensors"] == {}


def test_downloads_are_built_on_demand_reused_and_bounded_in_count(tiny_mlm, tuned_once, monkeypatch, tmp_path, use_settings):
    from playground.ui.common import widgets
    from playground.ui.mlm_lab import api as tab

    use_settings(lab_models=tab.LAB_EXPORTS + 3)
    runtime = Runtime(load=lambda key, **kw: tiny_mlm)
    monkeypatch.setattr(widgets, "EXPORT_DIR", tmp_path)
    monkeypatch.setattr(tab, "_app", lambda: runtime)
    tuned = tuned_once
    paths = []
    for i in range(tab.LAB_EXPORTS + 2):
        sessions.keep(runtime, f"s{i}", sessions.LabModel(tuned, "bert", "BERT", 4))
        (first,) = tab.download(f"s{i}", "en")
        (again,) = tab.download(f"s{i}", "en")
        assert again == first  # pressed twice: one file, so Gradio keeps one copy
        paths.append(first)
    zips = list(tmp_path.glob("*/mlm-lab-model.zip"))
    assert len(zips) == tab.LAB_EXPORTS and str(zips[0]) in paths


def test_the_lab_zip_holds_the_runs_trainer_script_corpus_and_held_out_split(tiny_mlm, tuned_once):
    tuned = tuned_once
    request = LabRequest(TEXT, LabSettings(base="bert", max_steps=4, seed=7, whole_word=True))
    found = sessions.LabModel(tuned, "bert", "BERT", 4, request)
    data = lab_zip(found, Runtime(load=lambda key, **kw: tiny_mlm))
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = set(zf.namelist())
        script, held = zf.read(SCRIPT).decode(), zf.read(HELD_OUT).decode().splitlines()
        assert zf.read("corpus.txt").decode() == TEXT
    assert {f"{FOLDER}/changed.safetensors", f"{FOLDER}/manifest.json"} < names
    assert held == corpus.split(corpus.sentences(TEXT), 7)[1]  # the split the training held out (seed 7)
    assert f"corpus_file = {'corpus.txt'!r}" in script and "seed = 7" in script and "whole_word_mask=True" in script
    compile(script, SCRIPT, "exec")
    assert read_manifest(data)["settings"]["seed"] == 7
