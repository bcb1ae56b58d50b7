"""A bundled GGUF model's converted copy recovers from damage: the next load rebuilds it and works (no restart, no
manual cleanup), and a read-only cache converts once. The whole load path (`models.load_uncached`) on a tiny GGUF
written in the test, shipped where SmolLM2's file would be. (The bit-rot case ran on SmolLM2 itself in the integration
tier, a 25 s rebuild: the load path and the checksum are the same for any GGUF, so it is here too; the real
conversion is what every integration test of SmolLM2 loads.)"""

import numpy as np
import pytest
import torch

from playground import availability, models
from playground.registry import get_spec
from tests.tiny_models import write_tiny_llama_gguf

KEY = "smollm2-instruct"  # the registered GGUF model: its spec, its file name, a tiny model inside


@pytest.fixture
def tiny_bundle(tmp_path, monkeypatch):
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    write_tiny_llama_gguf(bundle / get_spec(KEY).gguf_file)
    monkeypatch.setattr(availability, "bundle_dir", lambda spec: bundle if spec.key == KEY else None)
    return bundle


def _logits(lm) -> np.ndarray:
    ids = lm.tokenizer("the cat sat on the mat", return_tensors="pt").input_ids
    with torch.inference_mode():
        return lm.model(ids).logits.numpy().copy()


def test_a_truncated_conversion_is_rebuilt_on_the_next_load(tiny_bundle, tmp_path, use_settings):
    use_settings(cache_dir=tmp_path / "cache")
    before = _logits(models.load_uncached(KEY))
    weights = tmp_path / "cache" / KEY / "model.safetensors"
    data = weights.read_bytes()
    weights.unlink()  # a new file, as a disk that filled up mid-copy leaves it
    weights.write_bytes(data[: len(data) // 3])
    assert not models._conversion_ok(weights.parent)
    np.testing.assert_allclose(_logits(models.load_uncached(KEY)), before, atol=1e-6)
    assert models._conversion_ok(weights.parent)


def test_bit_rot_inside_the_converted_copy_is_detected_and_the_copy_rebuilt(tiny_bundle, tmp_path, use_settings):
    use_settings(cache_dir=tmp_path / "cache")
    before = _logits(models.load_uncached(KEY))
    weights = tmp_path / "cache" / KEY / "model.safetensors"
    assert models._conversion_ok(weights.parent)
    data = bytearray(weights.read_bytes())
    middle = len(data) // 2
    span = min(64_000, len(data) // 4)
    data[middle : middle + span] = np.random.default_rng(0).bytes(span)  # bytes overwritten mid-file
    weights.unlink()
    weights.write_bytes(bytes(data))  # same size, same header: only the checksum can tell
    assert not models._conversion_ok(weights.parent)
    np.testing.assert_allclose(_logits(models.load_uncached(KEY)), before, atol=1e-6)  # rebuilt, predicts as before
    assert models._conversion_ok(weights.parent)


def test_the_converted_copy_is_the_gguf_model(tiny_bundle, tmp_path, use_settings):
    from transformers import AutoModelForCausalLM

    use_settings(cache_dir=tmp_path / "cache")
    converted = _logits(models.load_uncached(KEY))
    direct = AutoModelForCausalLM.from_pretrained(str(tiny_bundle), gguf_file=get_spec(KEY).gguf_file).eval()
    ids = models.load_uncached(KEY).tokenizer("the cat sat on the mat", return_tensors="pt").input_ids
    with torch.inference_mode():
        np.testing.assert_allclose(converted, direct(ids).logits.numpy(), atol=1e-5)


def test_a_read_only_cache_converts_once_into_a_temporary_folder(tiny_bundle, tmp_path, monkeypatch, use_settings):
    blocker = tmp_path / "read-only"
    blocker.write_text("a file: nothing can be created under it, even as root")
    use_settings(cache_dir=blocker / "cache")
    monkeypatch.setattr(models.tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    first = models.load_uncached(KEY)
    manifest = models.cache_dir() / KEY / models.MANIFEST
    assert manifest.is_relative_to(tmp_path / "tmp")
    made = manifest.stat().st_mtime_ns
    second = models.load_uncached(KEY)  # a later request (or a reload after the cache dropped it)
    assert manifest.stat().st_mtime_ns == made  # not converted again
    np.testing.assert_array_equal(_logits(first), _logits(second))


def test_a_cache_folder_made_read_only_after_start_converts_once_into_a_temporary_folder(
    tiny_bundle, tmp_path, monkeypatch, use_settings
):
    """Issue 37, item 19: the folder passed the first probe, then became unwritable; every request converted for
    ~35 s (SmolLM2) and failed to write. The writer asks again before it writes: one conversion, into a temporary
    folder of this process, and the status panel's `cache_read_only` says so from then on."""
    import shutil

    from playground import folders

    cache = tmp_path / "cache"
    use_settings(cache_dir=cache)
    monkeypatch.setattr(folders.tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    assert not folders.cache_read_only() and models.cache_dir() == cache  # at start: writable, and remembered
    shutil.rmtree(cache)
    cache.write_text("a file where the folder was: nothing can be created under it (read-only, even as root)")
    first = models.load_uncached(KEY)
    manifest = models.cache_dir() / KEY / models.MANIFEST
    assert folders.cache_read_only() and manifest.is_relative_to(tmp_path / "tmp")
    made = manifest.stat().st_mtime_ns
    np.testing.assert_array_equal(_logits(first), _logits(models.load_uncached(KEY)))
    assert manifest.stat().st_mtime_ns == made  # the next request loads the copy, not converted again


def test_the_temporary_cache_folder_belongs_to_this_process_and_these_settings(tmp_path, monkeypatch, use_settings):
    """Issue 37, item 25: the fallback had a fixed name in the shared temporary folder, so every app process on the
    machine shared it and a copy made for one restart was reused by the next."""
    from playground import folders

    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setattr(folders.tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    use_settings(cache_dir=blocker / "a")
    first = folders.cache_dir()
    assert first == folders.cache_dir() and first.is_dir() and first.parent == tmp_path / "tmp"
    use_settings(cache_dir=blocker / "b")
    assert folders.cache_dir() != first  # other settings, another folder
    folders._fallback.cache_clear()  # as a new process would start
    use_settings(cache_dir=blocker / "a")
    assert folders.cache_dir() != first
