"""The converted SmolLM2 copy recovers from bit-rot: the next load notices it (the manifest's checksum), rebuilds the
copy and predicts as before. Truncation and a read-only cache are the same load path on a tiny GGUF, in
tests/unit/core/test_gguf_conversion.py."""

import shutil

import numpy as np
import torch

from playground import models

KEY = "smollm2-instruct"


def _greedy_next(lm, text: str) -> str:
    ids = lm.tokenizer(text, return_tensors="pt").input_ids
    with torch.inference_mode():
        return lm.tokenizer.decode(lm.model(ids).logits[0, -1].argmax())


def test_bit_rot_inside_the_converted_copy_is_detected_and_the_copy_rebuilt(tmp_path, use_settings):
    want = _greedy_next(models.load(KEY), "The capital of France is")  # the shared copy (other tests load it too)
    shutil.copytree(models.cache_dir() / KEY, tmp_path / KEY)  # a whole copy in this test's cache: one conversion less
    use_settings(cache_dir=tmp_path)
    assert models._conversion_ok(tmp_path / KEY)
    weights = tmp_path / KEY / "model.safetensors"
    data = bytearray(weights.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 4_000_000] = np.random.default_rng(0).bytes(4_000_000)  # 4 MB overwritten mid-file
    weights.unlink()
    weights.write_bytes(bytes(data))  # same size, same header: only the checksum can tell
    assert not models._conversion_ok(tmp_path / KEY)
    assert _greedy_next(models.load_uncached(KEY), "The capital of France is") == want
    assert models._conversion_ok(tmp_path / KEY)
