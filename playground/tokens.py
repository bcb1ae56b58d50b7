"""Subword tokens as words: `##ing`, `Ġbank` and `▁paris` shown the way a student reads them.

Each tokenizer family marks word boundaries differently (WordPiece marks the
continuation, byte-level BPE and SentencePiece mark the start). Instead of a
branch per family we ask the tokenizer's own decoder: appended after an anchor
letter, a word-initial token decodes with a space in between, a continuation
piece without one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ANCHOR = "a"


@dataclass(frozen=True)
class TokenText:
    raw: str  # the token as the vocabulary spells it ("Ġbank", "##ing", "▁paris")
    word: str  # what a reader sees ("bank", "ing", "paris")
    starts_word: bool  # False for a continuation piece


def token_text(tokenizer, raw: str) -> TokenText:
    """How `raw` reads, and whether it begins a new word, according to the tokenizer's decoder."""
    joined = tokenizer.convert_tokens_to_string([_ANCHOR, raw])
    tail = joined[len(_ANCHOR) :] if joined.startswith(_ANCHOR) else tokenizer.convert_tokens_to_string([raw])
    return TokenText(raw, tail.strip(), tail[:1].isspace())


def token_texts(tokenizer, ids: list[int]) -> list[TokenText]:
    return [token_text(tokenizer, raw) for raw in tokenizer.convert_ids_to_tokens(ids)]


def is_word(text: TokenText) -> bool:
    """A word-initial token that reads as a word: letters or digits, no byte fragments."""
    return text.starts_word and any(ch.isalnum() for ch in text.word) and "\ufffd" not in text.word


# --- byte pieces -------------------------------------------------------------------------------------------------
# Byte-level BPE (GPT-2, SmolLM2) and SentencePiece byte fallback can split one character over several tokens:
# 银 is three SmolLM2 tokens, each a lone UTF-8 byte that decodes to "\ufffd" on its own. A reader should see
# the character where consecutive pieces complete it, and the bytes themselves (`<0xE9>`) where they do not.

_REPLACEMENT = "\ufffd"
_MAX_CHAR_PIECES = 4  # a UTF-8 character has at most 4 bytes, so at most 4 pieces complete it
_BYTE_TOKEN = re.compile(r"<0x([0-9A-Fa-f]{2})>")


def _byte_unicode() -> dict[str, int]:
    """GPT-2's printable stand-ins for bytes ("Ġ" = space, "é" = 0xE9), reversed: stand-in -> byte."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    chars, extra = list(printable), 0
    for byte in range(256):
        if byte not in printable:
            printable.append(byte)
            chars.append(256 + extra)
            extra += 1
    return {chr(c): b for b, c in zip(printable, chars)}


_BYTES = _byte_unicode()


def piece_bytes(raw: str) -> bytes | None:
    """The bytes a vocabulary piece stands for ("é" -> b"\\xe9", "<0xE4>" -> b"\\xe4"), or None if it is not bytes."""
    match = _BYTE_TOKEN.fullmatch(raw)
    if match:
        return bytes([int(match.group(1), 16)])
    if raw and all(ch in _BYTES for ch in raw):
        return bytes(_BYTES[ch] for ch in raw)
    return None


def byte_display(data: bytes) -> str:
    """Decodable text as text, every byte of an incomplete character as `<0xE4>`."""
    out, i = [], 0
    while i < len(data):
        for end in range(min(len(data), i + 4), i, -1):
            try:
                out.append(data[i:end].decode("utf-8"))
                i = end
                break
            except UnicodeDecodeError:
                continue
        else:
            out.append(f"<0x{data[i]:02X}>")
            i += 1
    return "".join(out)


def _lone_piece(tokenizer, token_id: int, raw: str) -> str:
    data = piece_bytes(raw)
    return byte_display(data) if data is not None else tokenizer.decode([token_id]).replace(_REPLACEMENT, "<?>")


def display_pieces(tokenizer, ids: list[int]) -> list[str]:
    """How each token of `ids` reads, one string per token, never "\\ufffd".

    A token that decodes on its own shows its text. Consecutive pieces that together complete a character
    each show the completed text with their place in it ("银(1/3)", "银(2/3)", "银(3/3)"); a piece that
    nothing completes shows its bytes (`<0xE4>`). Spaces and line breaks are kept as they are (callers mark them).
    """
    ids = [int(i) for i in ids]
    raws = tokenizer.convert_ids_to_tokens(ids)
    out: list[str] = []
    i = 0
    while i < len(ids):
        alone = tokenizer.decode([ids[i]])
        if _REPLACEMENT not in alone:
            out.append(alone)
            i += 1
            continue
        for end in range(i + 2, min(len(ids), i + _MAX_CHAR_PIECES) + 1):
            text = tokenizer.decode(ids[i:end])
            if _REPLACEMENT not in text:
                n = end - i
                out += [f"{text}({k}/{n})" for k in range(1, n + 1)]
                i = end
                break
        else:
            out.append(_lone_piece(tokenizer, ids[i], raws[i]))
            i += 1
    return out


def visible(text: str) -> str:
    """Spaces and line breaks made visible (a token's leading space matters)."""
    return text.replace(" ", "␣").replace("\n", "↵")
