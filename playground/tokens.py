"""Subword tokens as words: `##ing`, `Ġbank` and `▁paris` shown the way a student reads them.

Each tokenizer family marks word boundaries differently (WordPiece marks the
continuation, byte-level BPE and SentencePiece mark the start). Instead of a
branch per family we ask the tokenizer's own decoder: appended after an anchor
letter, a word-initial token decodes with a space in between, a continuation
piece without one.
"""

from __future__ import annotations

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
