"""Which GPU runner the server installs: spaces.GPU on a ZeroGPU Space, its emulation when asked, nothing elsewhere."""

import sys
import types

import pytest

import app  # noqa: F401  (its tabs import every backend module: every entry is declared, as in the server before install)
from playground import device
from playground.serve import gpu


@pytest.fixture(autouse=True)
def _restore():
    yield
    device.install(None)


def test_plain_machines_call_entries_directly(monkeypatch):
    monkeypatch.delenv("SPACES_ZERO_GPU", raising=False)
    assert gpu.install() == "direct" and all(e.wrapped is None for e in device.ENTRIES.values())


def test_zero_gpu_wraps_every_entry_with_spaces_gpu_and_a_duration(monkeypatch, use_settings):
    wrapped = []
    fake = types.SimpleNamespace(GPU=lambda fn, duration: wrapped.append((fn, duration)) or fn)
    monkeypatch.setitem(sys.modules, "spaces", fake)
    monkeypatch.setenv("SPACES_ZERO_GPU", "true")
    use_settings(zero_gpu_emulate=False)
    assert gpu.install() == "zerogpu"
    assert len(wrapped) == len(device.ENTRIES) >= 10 and all(callable(d) for _, d in wrapped)


def test_emulation_needs_no_spaces_package(monkeypatch, use_settings):
    monkeypatch.setitem(sys.modules, "spaces", None)  # importing it would fail
    monkeypatch.setenv("SPACES_ZERO_GPU", "true")
    use_settings(zero_gpu_emulate=True)
    assert gpu.install() == "emulated"


def test_preload_lists_lesson_models_on_zero_gpu_only(monkeypatch, use_settings):
    use_settings(preload=None)
    monkeypatch.delenv("SPACES_ZERO_GPU", raising=False)
    assert gpu.preload_keys() == []
    monkeypatch.setenv("SPACES_ZERO_GPU", "1")
    keys = gpu.preload_keys()
    assert "minilm" in keys and set(keys) <= set(gpu.LESSON_MODELS)  # bundled ones always; hub ones when cached
    use_settings(preload="glove, nonsense")
    assert gpu.preload_keys() == ["glove"]


def test_preloaded_models_all_stay_loaded_past_the_model_cache_size(monkeypatch, use_settings):
    from playground import models

    store = models.ModelStore(build=lambda key: f"loaded {key}", loaders={})  # max_models from the settings below
    use_settings(max_models=2, preload="minilm,glove,elmo-small")  # bundled: they can load here
    assert set(gpu.preload(store)) == {"minilm", "glove", "elmo-small"}
    assert sorted(store.keys()) == ["elmo-small", "glove", "minilm"]  # none evicted by the next
