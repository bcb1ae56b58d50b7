"""From "a word in a sentence" to "these subword pieces": parsing sense-labelled lines and aligning by offsets.

Alignment uses the character offsets every fast tokenizer reports, so it works the
same for WordPiece (`##`), byte-level BPE (`Ġ`), SentencePiece (`▁`) and Chinese
characters, with no per-tokenizer rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from playground.errors import InputError
from playground.text_units import split_label, stands_alone

MARKER = re.compile(r"\[\[(.+?)\]\]")
MIN_SENTENCES, MAX_SENTENCES = 2, 64


@dataclass(frozen=True)
class Target:
    label: str  # sense label ("" when the line had none)
    text: str  # the sentence, [[markers]] removed
    span: tuple[int, int] | None  # characters of the target word in `text`; None when not found


def _wordish(char: str) -> bool:
    # Latin letters join into words; CJK characters (and kana) stand alone, so "银行" is found inside "我在银行存钱".
    return char.isalnum() and not stands_alone(char)


def find_word(text: str, word: str) -> tuple[int, int] | None:
    """The first whole-word, case-insensitive occurrence of `word` in `text` (substring for CJK)."""
    for match in re.finditer(re.escape(word), text, flags=re.IGNORECASE):
        start, end = match.span()
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if not (_wordish(word[0]) and _wordish(before)) and not (_wordish(word[-1]) and _wordish(after)):
            return start, end
    return None


def parse_line(line: str, word: str) -> Target:
    """'label | sentence with [[word]]' -> Target; the marker chooses the occurrence, else the first."""
    label, sentence = split_label(line)
    marked = MARKER.search(sentence)
    if marked:
        text = sentence[: marked.start()] + marked.group(1) + MARKER.sub(r"\1", sentence[marked.end() :])
        return Target(label, text, (marked.start(), marked.start() + len(marked.group(1))))
    return Target(label, sentence, find_word(sentence, word))


def parse_sentences(word: str, lines: str | list[str]) -> list[Target]:
    """Parse one sentence per line, sorted by sense label (first-seen order), so matrices read by sense."""
    word = (word or "").strip()
    if not word:
        raise InputError("polysemy_no_word", "Enter the word to follow through the sentences.")
    if isinstance(lines, str):
        lines = lines.splitlines()
    targets = [parse_line(line, word) for line in lines if line.strip()]
    if not MIN_SENTENCES <= len(targets) <= MAX_SENTENCES:
        raise InputError(
            "polysemy_count",
            "Give between {low} and {high} sentences (one per line); got {n}.",
            low=MIN_SENTENCES,
            high=MAX_SENTENCES,
            n=len(targets),
        )
    order = list(dict.fromkeys(t.label for t in targets))
    return sorted(targets, key=lambda t: order.index(t.label))


def align(offsets: list[tuple[int, int]], special: list[int], span: tuple[int, int]) -> list[int]:
    """Token positions whose character range overlaps `span`, special tokens excluded.

    Overlap (not containment) because byte-level BPE counts the leading space in
    `Ġbank`'s offsets, and one CJK character may be split over several byte pieces.
    """
    start, end = span
    return [i for i, ((a, b), sp) in enumerate(zip(offsets, special)) if not sp and b > a and a < end and b > start]
