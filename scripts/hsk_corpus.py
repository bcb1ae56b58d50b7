"""Everyday Chinese that installs offline: the HSK sentences of PyPI `hsk-sentences-audio` 1.0.0, one split for all.

4,354 HSK 3.0 level 1-6 sentences, each with an English translation and its jieba-style word segmentation with
CC-CEDICT glosses (`tokens`). Data CC BY-SA 4.0, code MIT (the wheel's METADATA; attribution in the package's
repository, ATTRIBUTION.md). Anything trained on it is a derivative of CC BY-SA data: say so where it is shipped.

Every model trained here on these sentences (the classroom T5, the Chinese GPT, e5-mlm's everyday-Chinese run) holds
out the same sentences, chosen by a stable hash of the sentence id (`held_out`), so a number reported as "held out"
means the same 10 % everywhere and no model has seen another's test set.

    python scripts/hsk_corpus.py    # counts per level and split
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

HELD_OUT_PER_MILLE = 100  # 10 % of the sentences, by id
LICENCE = "CC BY-SA 4.0 (hsk-sentences-audio 1.0.0 data; code MIT)"


@dataclass(frozen=True)
class HskSentence:
    id: str  # "hsk3-0123"
    level: int  # HSK 3.0 level, 1-6
    zh: str  # Simplified Chinese
    en: str  # the package's English translation
    words: tuple[str, ...]  # the package's word segmentation of `zh` (punctuation dropped)
    glosses: tuple[str, ...]  # CC-CEDICT's English gloss of each word, in order


def held_out(sentence_id: str) -> bool:
    """Whether a sentence belongs to the held-out split (stable across Python versions and runs)."""
    return zlib.crc32(sentence_id.encode()) % 1000 < HELD_OUT_PER_MILLE


def load() -> list[HskSentence]:
    """Every sentence of the package, in the package's order."""
    from hsk_sentences_audio import load_sentences  # the one place the package is read

    return [
        HskSentence(
            id=record["id"],
            level=int(record["hsk_level"]),
            zh=record["chinese"].strip(),
            en=record["translation"]["en"].strip(),
            words=tuple(token["word"] for token in record["tokens"]),
            glosses=tuple(token.get("gloss_en", "") for token in record["tokens"]),
        )
        for record in load_sentences()
        if record["chinese"].strip() and record["translation"].get("en", "").strip()
    ]


def split() -> tuple[list[HskSentence], list[HskSentence]]:
    """(train, held_out) over `load()`."""
    sentences = load()
    return [s for s in sentences if not held_out(s.id)], [s for s in sentences if held_out(s.id)]


if __name__ == "__main__":
    train, test = split()
    print(f"train {len(train)}, held out {len(test)} ({LICENCE})")
    for level in range(1, 7):
        print(f"HSK {level}: train {sum(s.level == level for s in train)}, held out {sum(s.level == level for s in test)}")
