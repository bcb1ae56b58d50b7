"""The lab's corpus: the bundled samples, caps, sentences, the deterministic held-out split, domain words and probes.

Pure functions on text and a tokenizer; no model runs here. Words are English words (letters) and Chinese words
as jieba segments them (playground.masking.segment, the segmenter of Chinese whole-word masking).
"""

from __future__ import annotations

import random
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from playground import checks
from playground.errors import InputError
from playground.masking import segment
from playground.text_units import is_cjk, stands_alone

MAX_CORPUS_CHARS = 200_000  # a pasted or uploaded corpus larger than this is refused
MAX_UPLOAD_BYTES = MAX_CORPUS_CHARS * 3  # UTF-8: 3 bytes per Chinese character, so a full Chinese corpus still fits
MIN_SENTENCES = 10  # fewer and there is nothing to hold out
MAX_SENTENCE_CHARS = 400  # longer lines are cut (the model reads 64 tokens per sentence in the lab)
HELD_OUT_FRACTION = 0.1
ASSETS = Path(__file__).resolve().parents[2] / "assets" / "mlm_lab"


@dataclass(frozen=True)
class Sample:
    """A bundled sample corpus: one row per sample."""

    key: str
    file: str  # under assets/mlm_lab (the lab's code script reads it from there too)
    source: str  # where its text comes from, under which licence
    base: str  # a bundled masked LM that reads its language


SAMPLES = {
    s.key: s
    for s in (
        Sample(
            "medicine",
            "medicine.txt",
            "Princeton WordNet 3.0 glosses and examples (WordNet 3.0 licence, assets/mlm_lab/LICENSE-WordNet)",
            "minilm-mlm",
        ),
        Sample(
            "gimp-zh",
            "gimp-zh.txt",
            "the GIMP 2 user manual in Simplified Chinese, Debian gimp-help-zh-cn (GFDL 1.2+, no invariant sections; "
            "assets/mlm_lab/LICENSE-GIMP-help)",
            "e5-mlm",
        ),
    )
}
SAMPLE = ASSETS / SAMPLES["medicine"].file
SAMPLE_SOURCE = SAMPLES["medicine"].source
_WORD = re.compile(r"[A-Za-z]+(?:'[a-z]+)?")
MIN_ENGLISH_LETTERS = 4  # shorter English words are mostly function words
MIN_CHINESE_CHARS = 2  # one character is a morpheme more than a word
# A sentence ends at . ! ? followed by a space, or at a full-width 。！？ (Chinese puts no space after them).
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])\s*")


def word_count(sentence: str) -> int:
    """Words in a sentence: space-separated words (punctuation alone is none), each CJK character (or kana) counted
    as one, as the Chinese BERT tokenizers read it (one token per character; Chinese writes no spaces)."""
    alone = sum(1 for c in sentence if stands_alone(c))
    rest = "".join(" " if stands_alone(c) else c for c in sentence).split()
    return alone + sum(1 for w in rest if any(c.isalnum() for c in w))


def human_size(n_bytes: int) -> str:
    """A size for people: "800 KB", "1.2 MB" (1 KB = 1,000 bytes, as file managers show it)."""
    if n_bytes >= 1_000_000:
        return f"{n_bytes / 1_000_000:.1f} MB"
    return f"{max(1, round(n_bytes / 1000))} KB"


def sample_corpus(key: str = "medicine") -> str:
    """A bundled sample corpus: "medicine" (WordNet glosses about diseases, organs, drugs) or "gimp-zh" (the GIMP
    manual in Chinese)."""
    key = checks.choice(key, "sample", SAMPLES)
    return (ASSETS / SAMPLES[key].file).read_text(encoding="utf-8")


def sentences(text: str) -> list[str]:
    """One sentence per non-empty line; a long line is split at sentence ends, then cut."""
    if text is not None:
        checks.text(text, "corpus", sys.maxsize)  # a string of valid Unicode; its size is told below, in characters
    if text is None or not text.strip():
        raise InputError("lab_empty_corpus", "The corpus is empty: paste text, upload a .txt file or pick the sample.")
    if len(text) > MAX_CORPUS_CHARS:
        raise InputError(
            "lab_corpus_too_big",
            "The corpus has {n} characters ({size}); the lab takes at most {max} characters.",
            n=f"{len(text):,}",
            size=human_size(len(text.encode("utf-8"))),
            max=f"{MAX_CORPUS_CHARS:,}",
        )
    out = []
    for line in text.splitlines():
        for piece in _SENTENCE_END.split(line.strip()):
            piece = piece.strip()[:MAX_SENTENCE_CHARS]
            if word_count(piece) >= 3:
                out.append(piece)
    if len(out) < MIN_SENTENCES:
        raise InputError(
            "lab_too_few_sentences",
            "The corpus has {n} usable sentences (3 words or more; a Chinese character counts as a word); "
            "the lab needs at least {min}.",
            n=len(out),
            min=MIN_SENTENCES,
        )
    return out


def check_upload_size(n_bytes: int) -> None:
    """Refuse an uploaded file too large for the lab before reading it, giving its size in KB/MB."""
    if n_bytes > MAX_UPLOAD_BYTES:
        raise InputError(
            "lab_upload_too_big",
            "The file is {size}; the lab reads at most {max} ({chars} characters).",
            size=human_size(n_bytes),
            max=human_size(MAX_UPLOAD_BYTES),
            chars=f"{MAX_CORPUS_CHARS:,}",
        )


def split(items: list[str], seed: int, fraction: float = HELD_OUT_FRACTION) -> tuple[list[str], list[str]]:
    """(train, held out): a seeded shuffle, the first `fraction` held out; the same seed gives the same split."""
    order = list(range(len(items)))
    random.Random(int(seed)).shuffle(order)
    n_held = max(1, round(len(items) * fraction))
    held = sorted(order[:n_held])
    train = sorted(order[n_held:])
    return [items[i] for i in train], [items[i] for i in held]


@dataclass(frozen=True)
class DomainWord:
    word: str
    count: int  # occurrences in the training part of the corpus
    general_rank: int | None  # frequency rank in general text (GloVe 6B: Wikipedia + Gigaword); None = not in its 400k


@dataclass(frozen=True)
class Probe:
    sentence: str  # the held-out sentence, with its word in place
    word: str  # the domain word that is masked
    start: int  # character span of the hidden part in `sentence` (the word, or a Chinese word's last character)
    end: int

    @property
    def masked(self) -> str:
        return self.sentence[: self.start] + "[MASK]" + self.sentence[self.end :]


def is_chinese(word: str) -> bool:
    return all(is_cjk(c) for c in word)


def hidden_part(word: str) -> str:
    """What a probe hides of a domain word: an English word whole; a Chinese word's last character (图层 -> 图[MASK]),
    as Chinese BERTs read one character per token and a student masks one character."""
    return word[-1] if is_chinese(word) else word


def words_in(sentence: str) -> list[tuple[str, int, int]]:
    """(word, start, end) of each English word (letters, 4 or more) and each Chinese word (jieba's, 2 characters or
    more, all CJK) in `sentence`. English words are lower-cased."""
    out = [(m.group().lower(), m.start(), m.end()) for m in _WORD.finditer(sentence) if len(m.group()) >= MIN_ENGLISH_LETTERS]
    if segment.has_chinese(sentence):
        for start, end in segment.words(sentence):
            word = sentence[start:end]
            if len(word) >= MIN_CHINESE_CHARS and is_chinese(word):
                out.append((word, start, end))
    return sorted(out, key=lambda w: w[1])


def domain_words(
    train: list[str], general_rank: dict[str, int] | None, single_token, k: int = 12, min_count: int = 3
) -> list[DomainWord]:
    """Words frequent in the corpus and rare in general text: count x general rank, largest first.

    `general_rank` maps a lower-case word to its frequency rank in general text (1 = "the"; Chinese words by
    their own ranks, playground.mlm_lab.lab.general_ranks); a word missing from it counts as rank len+1.
    `single_token(word)` says whether the model reads the word's hidden part (`hidden_part`) as one token (only
    those get a rank and probability at a mask). Words in the 1,000 most frequent general words are never
    domain words.
    """
    counts = Counter(w for s in train for w, _, _ in words_in(s))
    ranks = general_rank or {}
    unseen = len(ranks) + 1

    def score(item):
        word, n = item
        return n * ranks.get(word, unseen)

    chosen = []
    for word, n in sorted(counts.items(), key=lambda it: (-score(it), it[0])):
        if n < min_count or ranks.get(word, unseen) <= 1000 or not single_token(word):
            continue
        chosen.append(DomainWord(word, n, ranks.get(word)))
        if len(chosen) == k:
            break
    return chosen


def probes(held: list[str], words: list[DomainWord], per_word: int = 1) -> list[Probe]:
    """For each domain word, its first held-out sentence containing it as a word (any case; Chinese: a jieba word),
    the span of its hidden part marked."""
    out = []
    for dw in words:
        found = 0
        for sentence in held:
            at = next(((a, b) for w, a, b in words_in(sentence) if w == dw.word), None)
            if at:
                out.append(Probe(sentence, dw.word, at[1] - len(hidden_part(dw.word)), at[1]))
                found += 1
                if found == per_word:
                    break
    return out
