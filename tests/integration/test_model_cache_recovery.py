"""The converted SmolLM2 copy recovers from damage: the next load rebuilds it and works (no restart, no manual cleanup)."""

import numpy as np
import torch

from playground import models


def test_a_truncated_conversion_is_rebuilt_on_the_next_load(tmp_path, monkeypatch):
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path))
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
