"""Text as the demos cut it, one copy of each rule: how a token reads, what a CJK character is, "label | sentence" lines.

Token display: subword tokens as words (`##ing`, `Ġbank` and `▁paris` shown the way a student reads them).
Each tokenizer family marks word boundaries differently (WordPiece marks the
continuation, byte-level BPE and SentencePiece mark the start). Instead of a
branch per family we ask the tokenizer's own decoder: appended after an anchor
letter, a word-initial token decodes with a space in between, a continuation
piece without one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable

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


def as_listed(text: TokenText) -> str:
    """A token in a list of candidates: its word, and a WordPiece continuation with its `##` (so "##ing" is never
    read as the word "ing")."""
    return text.raw if not text.starts_word and text.raw.startswith("##") else text.word


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


# --- CJK characters ------------------------------------------------------------------------------------------------
# One definition: a CJK ideograph, exactly the ranges BERT's tokenizer splits one character at a time
# (transformers' BasicTokenizer._is_chinese_char; tests/unit/core/test_text_units.py checks every code point
# against it). Kana and Hangul are not Chinese characters (a model that "reads Chinese" need not read them), and
# U+4DC0-U+4DFF (Yijing hexagram symbols) are symbols, not ideographs; the rare extensions B-F are ideographs.
_CJK_RANGES = (
    (0x4E00, 0x9FFF),  # CJK Unified Ideographs
    (0x3400, 0x4DBF),  # Extension A
    (0x20000, 0x2A6DF),  # Extension B
    (0x2A700, 0x2B73F),  # Extension C
    (0x2B740, 0x2B81F),  # Extension D
    (0x2B820, 0x2CEAF),  # Extension E
    (0xF900, 0xFAFF),  # Compatibility Ideographs
    (0x2F800, 0x2FA1F),  # Compatibility Ideographs Supplement
)


def is_cjk(char: str) -> bool:
    """Whether `char` (one character) is a CJK ideograph, the unit Chinese BERT-style tokenizers split text into."""
    code = ord(char)
    return any(low <= code <= high for low, high in _CJK_RANGES)


def stands_alone(char: str) -> bool:
    """A character that is a word by itself where text has no spaces: a CJK ideograph, or Japanese kana."""
    return is_cjk(char) or "\u3040" <= char <= "\u30ff"


def has_cjk(text: Any) -> bool:
    return isinstance(text, str) and any(is_cjk(ch) for ch in text)


def not_reading_chinese(text: Any, specs: Iterable[Any]) -> list[Any]:
    """The models (specs) among `specs` that do not read Chinese, when `text` has Chinese characters; else none.

    The one rule behind every "this model does not read Chinese" note (fill-mask, sampling, polysemy)."""
    return [spec for spec in specs if not spec.speaks("zh")] if has_cjk(text) else []


# --- "label | sentence" lines --------------------------------------------------------------------------------------

LABEL_SEP = "|"


def split_label(line: str) -> tuple[str, str]:
    """'label | sentence' -> (label, sentence), both stripped; a line without "|" has the label ""."""
    label, sep, sentence = line.partition(LABEL_SEP)
    if not sep:
        label, sentence = "", line
    return label.strip(), sentence.strip()


def labelled_lines(text: str) -> list[tuple[str, str]]:
    """(label, sentence) for every non-blank line of `text`."""
    return [split_label(line) for line in text.splitlines() if line.strip()]
