"""The lab's download: only what the fine-tune changed, in float16, with the base model named.

A full save of a fine-tuned MiniLM is ~84 MB (float32 encoder + tokenizer), most of it unchanged:
the tokenizer is the base's, and the word-embedding rows of tokens the corpus never used move only
by AdamW's weight decay, below what float16 can show. `build_export` keeps, per tensor, the rows
(first dimension) whose change float16 can represent, the whole tensor when most rows changed, and
nothing for a tensor that did not change; `apply_export` puts them back into a copy of the base.
Rows left out are the base's (they differ from the fine-tune by less than float16's resolution).
"""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

import torch
from safetensors.torch import load as load_safetensors
from safetensors.torch import save as save_safetensors
from playground.mlm_lab import corpus as corpus_mod
from playground.mlm_lab.code import LabCodeRequest, lab_code

FOLDER = "mlm-lab-model"
SCRIPT = "train_mlm.py"  # the Code panel's script of the run, reading corpus.txt beside it
HELD_OUT = "held_out.txt"  # the sentences the lab held out (one per line): scored before and after, never trained on
ROWS = "::rows"  # suffix of the index tensor that says which rows a partial tensor holds
FP16_STEP = 2.0**-11  # float16 keeps 11 significant bits: a change below this share of a row's scale does not show


def changed_rows(base: torch.Tensor, tuned: torch.Tensor) -> torch.Tensor:
    """Indices of the first-dimension rows whose change float16 can represent."""
    delta = (tuned.float() - base.float()).abs().reshape(tuned.shape[0], -1).amax(dim=1)
    scale = base.float().abs().reshape(base.shape[0], -1).amax(dim=1).clamp_min(1e-8)
    return torch.nonzero(delta > FP16_STEP * scale).flatten()


def _unique_state(model: torch.nn.Module) -> dict[str, torch.Tensor]:
    """The state dict without tied copies (the MLM decoder shares the word embeddings): each storage once."""
    seen, out = set(), {}
    for name, tensor in model.state_dict().items():
        key = (tensor.data_ptr(), tuple(tensor.shape))
        if key not in seen:
            seen.add(key)
            out[name] = tensor
    return out


def build_export(
    tuned: torch.nn.Module, base: torch.nn.Module, about: dict[str, Any], files: dict[str, str] | None = None
) -> bytes:
    """A zip: `changed.safetensors` (float16) + `manifest.json` (`about`: the base model, steps, settings), and
    `files` (name -> text) beside the model folder."""
    base_state = base.state_dict()
    kept: dict[str, torch.Tensor] = {}
    layout: dict[str, str] = {}
    for name, tensor in _unique_state(tuned).items():
        old = base_state[name]
        if not tensor.is_floating_point() or tensor.dim() == 0:
            if not torch.equal(tensor.cpu(), old.cpu()):
                kept[name], layout[name] = tensor.detach().cpu().contiguous(), "full"
            continue
        rows = changed_rows(old.cpu(), tensor.detach().cpu())
        if len(rows) == 0:
            continue
        if len(rows) * 2 > tensor.shape[0]:
            kept[name], layout[name] = tensor.detach().cpu().half().contiguous(), "full"
        else:
            kept[name] = tensor.detach().cpu()[rows].half().contiguous()
            kept[name + ROWS], layout[name] = rows.to(torch.int64), "rows"
    manifest = {
        **about,
        "dtype": "float16",
        "what": "only the tensors (or rows of them) the fine-tune changed; everything else, the tokenizer included, "
        "is the base model's",
        "how_to_load": "load the base model, then playground.mlm_lab.export.apply_export(zip_bytes, model)",
        "tensors": layout,
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(f"{FOLDER}/manifest.json", json.dumps(manifest, indent=2, ensure_ascii=False))
        zf.writestr(f"{FOLDER}/changed.safetensors", save_safetensors(kept))
        for name, text in (files or {}).items():
            zf.writestr(name, text)
    return buffer.getvalue()


def lab_zip(found: Any, runtime: Any) -> bytes:
    """This session's download (`found`: its sessions.LabModel): what the fine-tune changed, the Trainer script of
    the run (`train_mlm.py`, reading `corpus.txt`), the corpus and its held-out split (`held_out.txt`)."""
    base = runtime.model(found.base_key)
    about = {"base": found.base_key, "base_model": base.spec.hf_id, "base_label": found.base_label, "steps": found.steps}
    files: dict[str, str] = {}
    if found.request is not None:
        settings = found.request.settings
        _, held = corpus_mod.split(corpus_mod.sentences(found.request.corpus), settings.seed)
        about["settings"] = {k: getattr(settings, k) for k in settings.__dataclass_fields__}
        files = {
            SCRIPT: lab_code(LabCodeRequest(settings, "corpus.txt")).code,
            "corpus.txt": found.request.corpus,
            HELD_OUT: "\n".join(held) + "\n",
        }
    return build_export(found.model.model, base.model, about, files)


def read_manifest(data: bytes) -> dict[str, Any]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return json.loads(zf.read(f"{FOLDER}/manifest.json"))


@torch.no_grad()
def apply_export(data: bytes, model: torch.nn.Module) -> torch.nn.Module:
    """Write an export's tensors into `model` (a fresh copy of the base named in its manifest), in place."""
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        manifest = json.loads(zf.read(f"{FOLDER}/manifest.json"))
        tensors = load_safetensors(zf.read(f"{FOLDER}/changed.safetensors"))
    state = model.state_dict()
    for name, how in manifest["tensors"].items():
        target = state[name]
        if how == "full":
            target.copy_(tensors[name].to(target.dtype))
        else:
            target[tensors[name + ROWS]] = tensors[name].to(target.dtype)
    return model
