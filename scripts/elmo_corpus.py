"""The training text of the bundled ELMo: WordNet 3.0 glosses and example sentences.

Read from Debian's `wordnet-base` package (apt-get install wordnet-base), WordNet
licence (permissive, notice in /usr/share/doc/wordnet-base/copyright). Every gloss
"definition; "example one"; "example two"" becomes one sentence per part. The
held-out split is a fixed function of the sentence text (crc32), so it is the
same on every machine and does not depend on file order.
"""

from __future__ import annotations

import re
import zlib
from pathlib import Path

WORDNET_DIR = Path("/usr/share/wordnet")
POS_FILES = ("data.noun", "data.verb", "data.adj", "data.adv")
_TOKEN = re.compile(r"[A-Za-z0-9]+(?:['\-.][A-Za-z0-9]+)*|[^\sA-Za-z0-9]")
MAX_TOKENS = 40  # longer sentences are cut; a few legal glosses run to 100+ words
HELDOUT_EVERY = 50  # ~2% of sentences


def tokenize(text: str) -> list[str]:
    return _TOKEN.findall(text)


def wordnet_sentences(wordnet_dir: Path = WORDNET_DIR) -> list[list[str]]:
    if not (wordnet_dir / "data.noun").exists():
        raise FileNotFoundError(f"{wordnet_dir}/data.noun not found: apt-get install wordnet-base")
    out: list[list[str]] = []
    for name in POS_FILES:
        with open(wordnet_dir / name, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if line.startswith("  "):  # the licence header of each data file
                    continue
                parts = line.rstrip().split(" | ", 1)
                if len(parts) < 2:
                    continue
                for piece in parts[1].split(";"):
                    piece = piece.strip().strip('"').strip()
                    toks = tokenize(piece)[:MAX_TOKENS]
                    if len(toks) >= 2:
                        out.append(toks)
    return out


def is_heldout(tokens: list[str]) -> bool:
    return zlib.crc32(" ".join(tokens).encode("utf-8")) % HELDOUT_EVERY == 0


def split_corpus(sentences: list[list[str]]) -> tuple[list[list[str]], list[list[str]]]:
    train = [s for s in sentences if not is_heldout(s)]
    test = [s for s in sentences if is_heldout(s)]
    return train, test


def write_heldout_fixture(path: Path, n_sentences: int = 200, vocab_size: int = 8000) -> None:
    """A small held-out slice + its unigram perplexity, for the bundled model's integration test.

    Perplexity here is over the words only (no sentence markers), OOV -> <UNK>,
    with the add-one unigram of scripts/train_elmo.py (same vocab, training counts).
    """
    import json
    import math

    import numpy as np
    from train_elmo import UNK, build_vocab

    train, test = split_corpus(wordnet_sentences())
    vocab = build_vocab(train, vocab_size)
    w2i = {w: i for i, w in enumerate(vocab)}
    counts = np.ones(len(vocab))
    for s in train:
        for w in s:
            counts[w2i.get(w, w2i[UNK])] += 1
    counts[w2i["</S>"]] += len(train)
    logp = np.log(counts / counts.sum())
    sl = test[:n_sentences]
    nll = -sum(logp[w2i.get(w, w2i[UNK])] for s in sl for w in s)
    n = sum(len(s) for s in sl)
    data = {
        "source": "WordNet 3.0 (Princeton University) glosses/examples, held-out split of scripts/elmo_corpus.py; "
        "WordNet licence, see WORDNET_LICENSE",
        "unigram_perplexity_words": math.exp(nll / n),
        "n_words": n,
        "sentences": [" ".join(s) for s in sl],
    }
    Path(path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    write_heldout_fixture(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("tests/fixtures/elmo/bundled_heldout.json"))
