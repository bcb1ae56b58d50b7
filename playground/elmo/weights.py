"""Read and write ELMo weights in AllenNLP's published format.

Options JSON + one HDF5 file in the original TensorFlow layout (all float32):

    char_embed                         (n_characters - 1, char_dim)  row i is id i + 1
    CNN/W_cnn_{i}, CNN/b_cnn_{i}       (1, width, char_dim, n), (n,)
    CNN_high_{k}/W_transform, b_transform, W_carry, b_carry   x @ W layout
    CNN_proj/W_proj, b_proj            (n_filters, proj), (proj,)
    RNN_{d}/RNN/MultiRNNCell/Cell{k}/LSTMCell/W_0, B, W_P_0
                                       d = 0 forward, 1 backward; k = layer
                                       W_0 (in + proj, 4 * cell), B (4 * cell), W_P_0 (cell, proj)

Our own trained model adds two datasets the published files do not have,
softmax/W (vocab, proj) and softmax/b (vocab,), plus a vocab file (one word a
line), so the one loader reads both kinds.
"""

from __future__ import annotations

from pathlib import Path

import h5py
import numpy as np
import torch

from .model import ElmoBiLm, ElmoModel
from .options import ElmoOptions, load_options

_CELL = "RNN_{d}/RNN/MultiRNNCell/Cell{k}/LSTMCell"


def _t(a) -> torch.Tensor:
    return torch.from_numpy(np.asarray(a, dtype=np.float32))


def _check(name: str, got: tuple, want: tuple) -> None:
    if tuple(got) != tuple(want):
        raise ValueError(f"ELMo weights do not match the options: {name} has shape {tuple(got)}, expected {tuple(want)}.")


def load_weights_into(module: ElmoBiLm, f: h5py.File) -> None:
    o = module.opts
    cnn = module.char_cnn
    with torch.no_grad():
        emb = f["char_embed"][...]
        _check("char_embed", emb.shape, (o.n_characters - 1, o.char_embed_dim))
        cnn.char_embedding.weight[0].zero_()
        cnn.char_embedding.weight[1:] = _t(emb)
        for i, (conv, (w, n)) in enumerate(zip(cnn.convs, o.filters)):
            W = f[f"CNN/W_cnn_{i}"][...]
            _check(f"CNN/W_cnn_{i}", W.shape, (1, w, o.char_embed_dim, n))
            conv.weight.copy_(_t(W[0]).permute(2, 1, 0))  # (width, in, out) -> (out, in, width)
            conv.bias.copy_(_t(f[f"CNN/b_cnn_{i}"][...]))
        for k, hw in enumerate(cnn.highways):
            g = f[f"CNN_high_{k}"]
            hw.transform.weight.copy_(_t(g["W_transform"][...]).T)
            hw.transform.bias.copy_(_t(g["b_transform"][...]))
            hw.carry.weight.copy_(_t(g["W_carry"][...]).T)
            hw.carry.bias.copy_(_t(g["b_carry"][...]))
        W = f["CNN_proj/W_proj"][...]
        _check("CNN_proj/W_proj", W.shape, (o.n_filters, o.projection_dim))
        cnn.projection.weight.copy_(_t(W).T)
        cnn.projection.bias.copy_(_t(f["CNN_proj/b_proj"][...]))
        for d, layers in enumerate((module.lstm.forward_layers, module.lstm.backward_layers)):
            for k, cell in enumerate(layers):
                g = f[_CELL.format(d=d, k=k)]
                _check(f"{g.name}/W_0", g["W_0"].shape, tuple(cell.W.shape))
                cell.W.copy_(_t(g["W_0"][...]))
                cell.b.copy_(_t(g["B"][...]))
                cell.W_P.copy_(_t(g["W_P_0"][...]))
        if module.softmax is not None:
            module.softmax.weight.copy_(_t(f["softmax/W"][...]))
            module.softmax.bias.copy_(_t(f["softmax/b"][...]))


def save_weights(module: ElmoBiLm, path: str | Path) -> None:
    """Write `module` in the published layout (+ softmax datasets if it has a softmax)."""
    cnn = module.char_cnn

    def put(f, name, tensor):
        f.create_dataset(name, data=tensor.detach().cpu().numpy().astype(np.float32))

    with h5py.File(path, "w") as f:
        put(f, "char_embed", cnn.char_embedding.weight[1:])
        for i, conv in enumerate(cnn.convs):
            put(f, f"CNN/W_cnn_{i}", conv.weight.permute(2, 1, 0).unsqueeze(0))
            put(f, f"CNN/b_cnn_{i}", conv.bias)
        for k, hw in enumerate(cnn.highways):
            put(f, f"CNN_high_{k}/W_transform", hw.transform.weight.T)
            put(f, f"CNN_high_{k}/b_transform", hw.transform.bias)
            put(f, f"CNN_high_{k}/W_carry", hw.carry.weight.T)
            put(f, f"CNN_high_{k}/b_carry", hw.carry.bias)
        put(f, "CNN_proj/W_proj", cnn.projection.weight.T)
        put(f, "CNN_proj/b_proj", cnn.projection.bias)
        for d, layers in enumerate((module.lstm.forward_layers, module.lstm.backward_layers)):
            for k, cell in enumerate(layers):
                base = _CELL.format(d=d, k=k)
                put(f, f"{base}/W_0", cell.W)
                put(f, f"{base}/B", cell.b)
                put(f, f"{base}/W_P_0", cell.W_P)
        if module.softmax is not None:
            put(f, "softmax/W", module.softmax.weight)
            put(f, "softmax/b", module.softmax.bias)


def read_vocab(path: str | Path) -> tuple[str, ...]:
    with open(path, encoding="utf-8") as fh:
        return tuple(line.rstrip("\n") for line in fh if line.rstrip("\n"))


def load_elmo(
    options_path: str | Path, weights_path: str | Path, vocab_path: str | Path | None = None, name: str = ""
) -> ElmoModel:
    """Load an ELMo in the published format; with a vocab file and softmax datasets, also its LM head."""
    opts: ElmoOptions = load_options(options_path)
    with h5py.File(weights_path, "r") as f:
        vocab = read_vocab(vocab_path) if vocab_path is not None and "softmax" in f else None
        module = ElmoBiLm(opts, vocab_size=len(vocab) if vocab else None)
        load_weights_into(module, f)
    if vocab is not None and module.softmax.weight.shape[0] != len(vocab):
        raise ValueError(f"Softmax has {module.softmax.weight.shape[0]} rows but the vocab file has {len(vocab)} words.")
    module.eval()
    return ElmoModel(name=name or Path(weights_path).stem, module=module, options=opts, vocab=vocab)
