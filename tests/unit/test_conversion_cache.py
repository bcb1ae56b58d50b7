"""A damaged converted-weights folder is recognised, so it is rebuilt instead of failing every request."""

import json

import pytest
import torch
from safetensors.torch import save_file

from playground import models


@pytest.fixture
def good(tmp_path):
    folder = tmp_path / "smollm2-instruct"
    folder.mkdir()
    save_file({"a.weight": torch.ones(4, 4), "b.bias": torch.zeros(4)}, str(folder / "model.safetensors"))
    size = (folder / "model.safetensors").stat().st_size
    (folder / models.MANIFEST).write_text(json.dumps({"size": size, "tensors": ["a.weight", "b.bias"]}))
    return folder


def test_a_whole_conversion_is_accepted(good):
    assert models._conversion_ok(good)


@pytest.mark.parametrize(
    "damage",
    [
        lambda f: (f / "model.safetensors").write_bytes((f / "model.safetensors").read_bytes()[:100]),  # truncated
        lambda f: (f / "model.safetensors").write_bytes(b""),  # emptied
        lambda f: (f / "model.safetensors").write_bytes(b"\x00garbage" * 50),  # garbage
        lambda f: (f / "model.safetensors").unlink(),  # a kept folder without the weights
        lambda f: (f / models.MANIFEST).unlink(),  # an interrupted conversion (manifest is written last)
    ],
    ids=["truncated", "empty", "garbage", "no-weights", "no-manifest"],
)
def test_a_damaged_conversion_is_refused(good, damage):
    damage(good)
    assert not models._conversion_ok(good)
