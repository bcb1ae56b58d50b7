"""The converted SmolLM2 copy recovers from damage: the next load rebuilds it and works (no restart, no manual cleanup)."""

import numpy as np
import torch

from playground import models


def test_a_truncated_conversion_is_rebuilt_on_the_next_load(tmp_path, monkeypatch, use_settings):
    use_settings(cache_dir=tmp_path)
    ids = torch.tensor([[1, 2, 3, 4]])
    with torch.inference_mode():
        a = models.load_uncached("smollm2-instruct").model(ids).logits.clone()  # the model is dropped: its weights are mmapped
    weights = tmp_path / "smollm2-instruct" / "model.safetensors"
    data = weights.read_bytes()
    weights.unlink()  # a new file, as a disk that filled up mid-copy leaves it
    weights.write_bytes(data[: len(data) // 3])
    with torch.inference_mode():
        b = models.load_uncached("smollm2-instruct").model(ids).logits
    np.testing.assert_allclose(a.numpy(), b.numpy(), atol=1e-5)
    assert models._conversion_ok(tmp_path / "smollm2-instruct")


def _greedy_next(lm, text: str) -> str:
    ids = lm.tokenizer(text, return_tensors="pt").input_ids
    with torch.inference_mode():
        return lm.tokenizer.decode(lm.model(ids).logits[0, -1].argmax())


def test_bit_rot_inside_the_converted_copy_is_detected_and_the_copy_rebuilt(tmp_path, use_settings):
    use_settings(cache_dir=tmp_path)
    want = _greedy_next(models.load_uncached("smollm2-instruct"), "The capital of France is")
    weights = tmp_path / "smollm2-instruct" / "model.safetensors"
    data = bytearray(weights.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 4_000_000] = np.random.default_rng(0).bytes(4_000_000)  # 4 MB overwritten mid-file
    weights.unlink()
    weights.write_bytes(bytes(data))  # same size, same header: only the checksum can tell
    assert not models._conversion_ok(tmp_path / "smollm2-instruct")
    assert _greedy_next(models.load_uncached("smollm2-instruct"), "The capital of France is") == want
    assert models._conversion_ok(tmp_path / "smollm2-instruct")


def test_a_read_only_cache_converts_once_into_a_temporary_folder(tmp_path, monkeypatch, use_settings):
    blocker = tmp_path / "read-only"
    blocker.write_text("a file: nothing can be created under it, even as root")
    use_settings(cache_dir=blocker / "cache")
    monkeypatch.setattr(models.tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    first = models.load_uncached("smollm2-instruct")
    manifest = models.cache_dir() / "smollm2-instruct" / models.MANIFEST
    made = manifest.stat().st_mtime_ns
    second = models.load_uncached("smollm2-instruct")  # a later request (or a reload after the cache dropped it)
    assert manifest.stat().st_mtime_ns == made  # not converted again
    assert _greedy_next(first, "The capital of France is") == _greedy_next(second, "The capital of France is")
