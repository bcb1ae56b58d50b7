"""Token labels a student can read: byte-level BPE pieces (SmolLM2, GPT-2) decoded to characters.

A byte-level vocabulary spells bytes as printable stand-ins (`Ġ` for a space, `æĪ` for the bytes E6 88),
and one Chinese character often takes two or three tokens. Shown raw they read as gibberish, decoded
one at a time they read as "�". Here a token that holds whole characters shows them; a token that
holds only part of a character that the next tokens complete shows that character with which piece
it is (`我⟨1/2⟩`, `我⟨2/2⟩`); bytes that no neighbour completes show as `<0xE6>`. WordPiece and
SentencePiece tokens are returned as the vocabulary spells them.

(Local to the masking demo; a candidate for playground/tokens.py once a shared helper lands there.)
"""

from __future__ import annotations

import re
from functools import lru_cache

from playground import text_units as tokens

_BYTE_FALLBACK = re.compile(r"<0x[0-9A-Fa-f]{2}>")


@lru_cache(maxsize=1)
def _byte_maps() -> tuple[dict[str, int], dict[int, str]]:
    """GPT-2's byte <-> printable character table (the same one every ByteLevel tokenizer uses)."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    chars, extra = {}, 0
    for b in range(256):
        if b in printable:
            chars[b] = chr(b)
        else:
            chars[b] = chr(256 + extra)
            extra += 1
    return {c: b for b, c in chars.items()}, chars


def is_byte_level(tokenizer) -> bool:
    backend = getattr(tokenizer, "backend_tokenizer", None)
    decoder = getattr(backend, "decoder", None)
    return decoder is not None and "ByteLevel" in type(decoder).__name__


def token_bytes(raw: str) -> bytes | None:
    """The bytes a byte-level token stands for; None when it is not spelled in the byte alphabet (e.g. a special token)."""
    to_byte, _ = _byte_maps()
    if not raw or any(ch not in to_byte for ch in raw):
        return None
    return bytes(to_byte[ch] for ch in raw)


def _char_len(first: int) -> int:
    if first < 0x80:
        return 1
    if first >> 5 == 0b110:
        return 2
    if first >> 4 == 0b1110:
        return 3
    if first >> 3 == 0b11110:
        return 4
    return 0  # a continuation byte where a character should start: cannot begin one


def _spell(text: str) -> str:
    """Decoded text: a space and a line break made visible as the attention and sampling tabs show them (`␣cat`,
    not byte-level BPE's `Ġcat`, which a student reads as a letter); other control bytes keep their stand-in."""
    _, to_char = _byte_maps()
    shown = tokens.visible(text)
    return "".join(to_char[ord(ch)] if len(ch.encode()) == 1 and not ch.isprintable() else ch for ch in shown)


def byte_labels(raws: list[str | None]) -> list[str]:
    """Labels for a sequence of byte-level tokens (None = not a byte token: kept as is by the caller)."""
    data = [token_bytes(r) if r is not None else None for r in raws]
    # Every byte of the sequence, tagged with its token; characters are decoded across token boundaries.
    flat = [(k, b) for k, bs in enumerate(data) if bs is not None for b in bs]
    parts: list[list[str]] = [[] for _ in raws]
    i = 0
    while i < len(flat):
        k, first = flat[i]
        n = _char_len(first)
        chunk = flat[i : i + n] if n else []
        owners = [kk for kk, _ in chunk]
        contiguous = all(b - a in (0, 1) for a, b in zip(owners, owners[1:]))
        try:
            char = bytes(b for _, b in chunk).decode("utf-8") if len(chunk) == n and n and contiguous else None
        except UnicodeDecodeError:
            char = None
        if char is None:  # a lone or broken byte: shown as itself
            parts[k].append(f"<0x{first:02X}>")
            i += 1
            continue
        tokens = list(dict.fromkeys(owners))
        for j, owner in enumerate(tokens):
            parts[owner].append(_spell(char) if len(tokens) == 1 else f"{char}⟨{j + 1}/{len(tokens)}⟩")
        i += n
    return ["".join(p) if data[k] is not None else "" for k, p in enumerate(parts)]


def readable(tokenizer, ids: list[int], placeholder: dict[int, str] | None = None) -> list[str]:
    """One label per id: byte pieces decoded as above, everything else as the vocabulary spells it.

    `placeholder` names ids past the vocabulary (a mask token stood in for a tokenizer without one).
    """
    placeholder = placeholder or {}
    raws = [placeholder.get(int(i)) or tokenizer.convert_ids_to_tokens(int(i)) for i in ids]
    if not is_byte_level(tokenizer):
        if not any(_BYTE_FALLBACK.fullmatch(r or "") for r in raws):
            return raws
        # SentencePiece byte fallback (`<0xE5><0x90><0x8D>`): the character the pieces complete, as tokens.py reads it.
        shown = tokens.display_pieces(tokenizer, [int(i) if int(i) < len(tokenizer) else 0 for i in ids])
        return [label if _BYTE_FALLBACK.fullmatch(raw or "") else raw for raw, label in zip(raws, shown)]
    special = set(getattr(tokenizer, "all_special_tokens", []))
    pieces = [None if (int(i) in placeholder or r in special) else r for i, r in zip(ids, raws)]
    labels = byte_labels(pieces)
    return [raw if piece is None or token_bytes(piece) is None else label for raw, piece, label in zip(raws, pieces, labels)]
