"""What the MLM-head scripts share: the English text (WordNet), the held-out split, how a probe answer is matched.

scripts/train_mlm_head.py (minilm-mlm) and the e5-mlm scripts (scripts/e5_mlm_data.py) both import it.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

WORDNET = Path("/usr/share/wordnet")


def wordnet_texts() -> list[str]:
    """Every WordNet gloss (as 'lemma: definition') and every quoted usage example, deduplicated, in file order."""
    texts, seen = [], set()
    for part in ("noun", "verb", "adj", "adv"):
        for line in (WORDNET / f"data.{part}").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("  ") or "|" not in line:
                continue  # the licence header
            head, gloss = line.split("|", 1)
            fields = head.split()
            lemma = fields[4].replace("_", " ")
            lemma = re.sub(r"\(.*?\)$", "", lemma)  # adjective markers like (a), (p)
            pieces = [p.strip() for p in gloss.split(";") if p.strip()]
            definitions = [p for p in pieces if not p.startswith('"')]
            examples = [p.strip('"').strip() for p in pieces if p.startswith('"')]
            candidates = []
            if definitions:
                candidates.append(f"{lemma}: {'; '.join(definitions)}")
            candidates += [e for e in examples if len(e.split()) >= 3]
            for text in candidates:
                if text not in seen:
                    seen.add(text)
                    texts.append(text)
    return texts


def split(texts: list[str], seed: int, held_out: int) -> tuple[list[str], list[str]]:
    order = list(range(len(texts)))
    random.Random(seed).shuffle(order)
    return [texts[i] for i in order[held_out:]], [texts[i] for i in order[:held_out]]


def answer_hit(top: list[str], answers) -> bool:
    """Does one of the top pieces spell an answer (SentencePiece's "▁" and case ignored)?"""
    spelled = {t.replace("▁", "").lower() for t in top}
    return bool(spelled & {a.lower() for a in answers})
