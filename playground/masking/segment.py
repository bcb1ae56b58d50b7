"""Chinese word segmentation for whole-word masking, as Chinese BERT-wwm does it.

Chinese BERT-wwm (Cui et al., 2019) masked whole *words* found by a segmenter (LTP, the Language Technology
Platform) rather than single characters. LTP is not on PyPI in a form that installs offline, so jieba (MIT)
segments here: a different segmenter draws some word boundaries differently, but the idea is the same --
all characters of a word are masked together, never some of them.
"""

from __future__ import annotations

import logging

from playground.text_units import is_cjk

# CJK punctuation and full-width forms (。，！ ...) count as Chinese too: jieba segments them with the words.
_CHINESE_PUNCTUATION = (("\u3000", "\u303f"), ("\uff00", "\uffef"))


def has_chinese(text: str) -> bool:
    """Text a word segmenter should split: CJK ideographs (text_units.is_cjk, the one definition) or CJK punctuation."""
    return any(is_cjk(ch) or any(lo <= ch <= hi for lo, hi in _CHINESE_PUNCTUATION) for ch in text)


def words(text: str) -> tuple[tuple[int, int], ...]:
    """jieba's words of `text` as (start, end) character spans, in order (spaces are words of their own)."""
    import jieba  # deferred: jieba is slow to import; only Chinese text needs it

    jieba.setLogLevel(logging.WARNING)  # it announces building its dictionary on stderr
    return tuple((start, end) for _, start, end in jieba.tokenize(text))


def word_starts(text: str) -> frozenset[int] | None:
    """Character offsets where a jieba word begins; None for text without Chinese (nothing to segment)."""
    return frozenset(start for start, _ in words(text)) if has_chinese(text) else None


def token_groups(text: str, offsets: list[tuple[int, int]], special: list[bool]) -> list[list[int]]:
    """Token positions of each segmented word (words that share a token are one group: a token is never split)."""
    groups: list[list[int]] = []
    for start, end in words(text):
        if not text[start:end].strip():
            continue
        members = [k for k, (a, b) in enumerate(offsets) if not special[k] and b > a and a < end and b > start]
        if not members:
            continue
        if groups and set(members) & set(groups[-1]):
            groups[-1] = sorted(set(groups[-1]) | set(members))
        else:
            groups.append(members)
    return groups
