"""A damaged converted-weights folder is recognised, so it is rebuilt instead of failing every request."""

import json

import pytest
import torch
from safetensors.torch import save_file

from playground import folders, models


def _bit_rot(folder):
    weights = folder / "model.safetensors"
    data = bytearray(weights.read_bytes())
    data[-20:-4] = b"\x7f" * 16  # inside the last tensor's data
    weights.write_bytes(bytes(data))


def _no_checksum(folder):
    manifest = json.loads((folder / models.MANIFEST).read_text())
    del manifest["sha256"]
    (folder / models.MANIFEST).write_text(json.dumps(manifest))


@pytest.fixture
def good(tmp_path):
    folder = tmp_path / "smollm2-instruct"
    folder.mkdir()
    save_file({"a.weight": torch.ones(4, 4), "b.bias": torch.zeros(4)}, str(folder / "model.safetensors"))
    size = (folder / "model.safetensors").stat().st_size
    digest = models._sha256(folder / "model.safetensors")
    (folder / models.MANIFEST).write_text(json.dumps({"size": size, "tensors": ["a.weight", "b.bias"], "sha256": digest}))
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
        _bit_rot,  # same size, same header, different numbers: it would load and predict garbage
        _no_checksum,  # a copy made before manifests kept one: rebuilt once
    ],
    ids=["truncated", "empty", "garbage", "no-weights", "no-manifest", "bit-rot", "no-checksum"],
)
def test_a_damaged_conversion_is_refused(good, damage):
    damage(good)
    assert not models._conversion_ok(good)


def test_a_read_only_cache_folder_is_detected_and_writes_go_to_a_temporary_one(tmp_path, monkeypatch, use_settings):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be: nothing can be created under it (even as root)")
    use_settings(cache_dir=blocker / "cache")
    monkeypatch.setattr(folders.tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    assert folders.cache_read_only()
    assert models.cache_dir().is_relative_to(tmp_path / "tmp")
    assert folders._writable(models.cache_dir())
    use_settings(cache_dir=tmp_path / "fine")
    assert not folders.cache_read_only() and models.cache_dir() == tmp_path / "fine"


def test_the_status_panel_says_once_that_the_cache_is_read_only(tmp_path, use_settings):
    from playground.ui.common.status import status_markdown

    use_settings(cache_dir=tmp_path)
    assert "read-only" not in status_markdown("en")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    use_settings(cache_dir=blocker / "cache")
    assert status_markdown("en").count("read-only") == 1 and "只读" in status_markdown("zh")
    assert str(blocker) not in status_markdown("en")  # no server path on a page students see


@pytest.mark.parametrize("damage", ["truncated", "overwritten-start"])
def test_damaged_bundled_weights_are_not_listed_as_available(tmp_path, monkeypatch, damage):
    from playground import availability
    from playground.registry import get_spec
    from playground.ui.common.status import status_markdown

    spec = get_spec("minilm")
    save_file({"w": torch.ones(64, 64)}, str(tmp_path / "model.safetensors"))
    monkeypatch.setattr(availability, "bundle_dir", lambda s: tmp_path if s.key == "minilm" else None)
    assert availability.check(spec).ok and spec in availability.available_specs("encoder")
    weights = tmp_path / "model.safetensors"
    data = weights.read_bytes()
    weights.unlink()
    weights.write_bytes(data[: len(data) // 2] if damage == "truncated" else b"\x00" * 64 + data[64:])
    state = availability.check(spec)
    assert not state.ok and state.code == "damaged" and "model.safetensors" in state.reason
    assert spec not in availability.available_specs("encoder")
    assert "damaged" in status_markdown("en") and "损坏" in status_markdown("zh")
