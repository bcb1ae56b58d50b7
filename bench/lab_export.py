"""The MLM lab's download: a full float32 save (what it was) against the export of what changed (what it is).

Fine-tunes the bundled minilm-mlm on the bundled medicine corpus (STEPS steps), then builds both zips in
memory and prints their sizes and ratio, and how far the rebuilt model is from the fine-tuned one.

    nice -n 10 python bench/lab_export.py
"""

from __future__ import annotations

import copy
import io
import os
import sys
import tempfile
import time
import zipfile
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playground import models  # noqa: E402
from playground.mlm_lab import corpus  # noqa: E402
from playground.mlm_lab.export import apply_export, build_export, read_manifest  # noqa: E402
from playground.mlm_lab.lab import LabRequest, run_mlm_lab  # noqa: E402
from playground.runtime import Runtime  # noqa: E402
from playground.mlm_lab.training import LabSettings  # noqa: E402

STEPS = int(os.environ.get("STEPS", "80"))


def full_zip(tuned) -> bytes:
    """What the download was: save_pretrained (float32) + the tokenizer, zipped."""
    buffer = io.BytesIO()
    with tempfile.TemporaryDirectory() as folder:
        tuned.model.save_pretrained(folder, safe_serialization=True)
        tuned.tokenizer.save_pretrained(folder)
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
            for path in sorted(Path(folder).iterdir()):
                zf.write(path, f"mlm-lab-model/{path.name}")
    return buffer.getvalue()


if __name__ == "__main__":
    base = models.load("minilm-mlm")
    t0 = time.perf_counter()
    request = LabRequest(corpus.sample_corpus(), LabSettings(base="minilm-mlm", max_steps=STEPS))
    _, tuned = run_mlm_lab(request, Runtime())  # in this process: a bench, not the server
    print(f"trained {STEPS} steps in {time.perf_counter() - t0:.0f} s")
    before = full_zip(tuned)
    after = build_export(tuned.model, base.model, {"base": "minilm-mlm", "steps": STEPS})
    layout = read_manifest(after)["tensors"]
    rebuilt = apply_export(after, copy.deepcopy(base.model)).state_dict()
    worst = max(((rebuilt[k] - v).abs().max().item() for k, v in tuned.model.state_dict().items()), default=0.0)
    ratio = len(before) / len(after)
    print(f"full float32 zip: {len(before) / 1e6:.1f} MB; export: {len(after) / 1e6:.1f} MB; ratio {ratio:.1f}x")
    print(f"tensors kept: {sum(v == 'full' for v in layout.values())} whole, {sum(v == 'rows' for v in layout.values())} "
          f"by rows, of {len(tuned.model.state_dict())}; largest difference rebuilt vs fine-tuned: {worst:.2e}")  # fmt: skip
