"""The classroom Chinese GPT's text, splits, tokenizer and n-gram baselines (scripts/train_gpt_zh.py trains on them).

Text (all openly licensed, all installed offline):
- everyday Chinese: the HSK sentences (scripts/hsk_corpus.py; data CC BY-SA 4.0), each sentence its own document;
  its held-out split is the one every model here holds out, and `DEV_PER_MILLE` of its training split is set
  apart again for choosing checkpoints, so the held-out sentences choose nothing;
- documentation prose: the Debian packages of scripts/e5_corpus.py (LibreOffice help MPL-2.0, Debian Reference and
  the New Maintainers' Guide GPL-2+, the Debian FAQ under SPI's copying notice, the fortunes "chinese" file GPL-3+;
  the GIMP help stays reserved for the MLM lab's unseen sample, as there). Here a document is one HTML page (one
  fortune), so whole documents are held out (`doc_split`), not sentences of a page whose neighbours were trained on.

The tokenizer (`build_tokenizer`, the `tokenizers` library) makes every Chinese character (and CJK punctuation) a
token of its own -- the course shows 我 爱 自 然 ..., and a character is the unit a learner reads -- and learns BPE
pieces for the Latin words of the documentation (`Linux`, `▁the`), with spaces kept as "▁" (Metaspace) so the
decoded text is the text. It is saved as a `PreTrainedTokenizerFast` that `AutoTokenizer` loads, with
`<|endoftext|>` opening each document (BOS) and closing it (EOS), as GPT-2's does.

    python scripts/gpt_zh_data.py     # documents and characters per source and split
"""

from __future__ import annotations

import math
import re
import zlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

EOT = "<|endoftext|>"  # opens and closes every document, as in GPT-2
UNK = "<unk>"
HELD_OUT_PER_MILLE = 50  # documentation pages held out (by a stable hash of the page)
DEV_PER_MILLE = 50  # of the remaining pages and of HSK's training split: the dev set that chooses checkpoints
CJK = r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef\u2014\u2018\u2019\u201c\u201d\u2026]"
_CJK_CHAR = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
# HSK sentences are read as paragraphs of this many (package order, same split), not one document each: read one
# sentence a document, every 。 was followed by the end of text, and exercise 2 stopped at its first full stop
# ("一个人。"); in paragraphs another sentence follows three times in four (at T = 0.1 the end of text, the single
# most probable token after 。, still wins).
HSK_PER_PARAGRAPH = 4
DOC_SOURCES = ("libreoffice-help", "debian-reference", "debian-faq", "maint-guide", "fortunes")


@dataclass(frozen=True)
class Doc:
    source: str  # "hsk" or an e5_corpus source name
    id: str  # stable: HSK sentence id, or source + path (+ fortune number)
    text: str
    split: str  # "train", "dev" or "test"


def is_chinese_char(text: str) -> bool:
    """A single CJK ideograph (not punctuation)."""
    return len(text) == 1 and bool(_CJK_CHAR.match(text))


def _per_mille(key: str) -> int:
    return zlib.crc32(key.encode()) % 1000


def doc_split(doc_id: str) -> str:
    """test / dev / train for a documentation page, by a stable hash of its id."""
    bucket = _per_mille(doc_id)
    return "test" if bucket < HELD_OUT_PER_MILLE else "dev" if bucket < HELD_OUT_PER_MILLE + DEV_PER_MILLE else "train"


def hsk_split(sentence_id: str) -> str:
    """test: hsk_corpus's held-out split; dev: a second hash of the rest; train: the others."""
    import hsk_corpus

    if hsk_corpus.held_out(sentence_id):
        return "test"
    return "dev" if _per_mille(sentence_id + "#dev") < DEV_PER_MILLE else "train"


def hsk_docs() -> list[Doc]:
    import hsk_corpus

    return [Doc("hsk", s.id, s.zh, hsk_split(s.id)) for s in hsk_corpus.load()]


def page_texts(source: str) -> list[tuple[str, str]]:
    """(page id, raw text) of one Debian source: one per HTML page, one per fortune."""
    import e5_corpus

    _package, _licence, folder, pattern = e5_corpus.SOURCES[source]
    root = Path(folder)
    if not root.is_dir():
        return []
    pages = []
    for path in sorted(root.rglob(pattern)):
        rel = path.relative_to(root).as_posix()
        if source == "fortunes":
            raw = e5_corpus._ANSI.sub("", path.read_text(encoding="utf-8", errors="replace"))
            pages += [(f"{source}:{rel}#{i}", text) for i, text in enumerate(raw.split("%"))]
        else:
            pages.append((f"{source}:{rel}", e5_corpus._html_text(path)))
    return pages


def debian_docs(sources: Sequence[str] = DOC_SOURCES) -> list[Doc]:
    """One document per page: its sentences (e5_corpus.sentences_of) joined, a sentence seen before dropped."""
    import e5_corpus

    seen: set[str] = set()
    docs = []
    for source in sources:
        for page_id, raw in page_texts(source):
            kept = []
            for sent in e5_corpus.sentences_of(raw):
                if sent in seen or (source == "fortunes" and not e5_corpus._MODERN.search(sent)):
                    continue
                seen.add(sent)
                kept.append(sent)
            if kept:
                docs.append(Doc(source, page_id, "".join(kept), doc_split(page_id)))
    return docs


def all_docs() -> list[Doc]:
    """HSK + documentation; a documentation sentence equal to a held-out HSK sentence is dropped from training."""
    hsk = hsk_docs()
    test_sentences = {d.text for d in hsk if d.split == "test"}
    docs = [d for d in debian_docs() if not (d.split == "train" and d.text in test_sentences)]
    return hsk + docs


def paragraphs(texts: Sequence[str], per: int = HSK_PER_PARAGRAPH) -> list[str]:
    """Consecutive sentences joined `per` at a time (the last group may be shorter): one document each."""
    return ["".join(texts[i : i + per]) for i in range(0, len(texts), per)]


def build_tokenizer(texts: Iterable[str], vocab_size: int = 6000, max_chars: int = 4500, min_frequency: int = 3):
    """A `tokenizers.Tokenizer`: each CJK character (and CJK punctuation) a token, BPE pieces for everything else.

    `max_chars`: the alphabet keeps the most frequent characters (rarer ones read as <unk>)."""
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE(unk_token=UNK))
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(CJK), behavior="isolated"),  # a character never merges with a neighbour
            pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="never"),  # spaces kept, as ▁, for decoding
            pre_tokenizers.Digits(individual_digits=True),
        ]
    )
    tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="never")
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        min_frequency=min_frequency,
        limit_alphabet=max_chars,
        special_tokens=[EOT, UNK],
        show_progress=False,
    )
    tok.train_from_iterator(texts, trainer)
    return tok


def wrap_tokenizer(tok, max_length: int):
    """The transformers tokenizer around it: what `save_pretrained` writes and `AutoTokenizer` loads."""
    from transformers import PreTrainedTokenizerFast

    return PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token=EOT,
        eos_token=EOT,
        unk_token=UNK,
        model_max_length=max_length,
        clean_up_tokenization_spaces=False,
    )


def stream(tokenizer, texts: Iterable[str]) -> list[int]:
    """The texts as one token stream, each document opened by <|endoftext|> (the last one closed by it too)."""
    eot = tokenizer.convert_tokens_to_ids(EOT)
    out: list[int] = []
    for text in texts:
        out.append(eot)
        out += tokenizer(text, add_special_tokens=False, verbose=False).input_ids  # long pages: no length warning
    out.append(eot)
    return out


class NGram:
    """Add-k smoothed unigram and bigram models over a vocabulary of `vocab` ids, from weighted token streams.

    P1(w) = (c(w) + k) / (N + kV);  P2(w | v) = (c(v w) + k) / (c(v .) + kV): the baselines the GPT must beat,
    on the same tokens it is scored on. Written by hand: a few lines, and no maintained library scores a
    given token stream under add-k smoothing over a fixed vocabulary."""

    def __init__(self, vocab: int, streams: Sequence[tuple[Sequence[int], float]]):
        self.vocab = vocab
        self.uni: Counter = Counter()
        self.bi: Counter = Counter()
        self.ctx: Counter = Counter()
        for ids, weight in streams:
            for w in ids:
                self.uni[w] += weight
            for v, w in zip(ids, ids[1:]):
                self.bi[v, w] += weight
                self.ctx[v] += weight
        self.total = sum(self.uni.values())

    def nll(self, ids: Sequence[int], order: int, k: float) -> tuple[float, int]:
        """(summed negative log-likelihood in nats, tokens scored) of ids[1:], each given the token before it."""
        total = 0.0
        for v, w in zip(ids, ids[1:]):
            if order == 1:
                p = (self.uni[w] + k) / (self.total + k * self.vocab)
            else:
                p = (self.bi[v, w] + k) / (self.ctx[v] + k * self.vocab)
            total -= math.log(p)
        return total, max(len(ids) - 1, 0)

    def perplexity(self, ids: Sequence[int], order: int, k: float) -> float:
        nll, n = self.nll(ids, order, k)
        return math.exp(nll / n)


def blocks(ids: Sequence[int], length: int) -> list[list[int]]:
    """The stream cut into windows of length + 1 that overlap by one token, so every token but the first is
    predicted exactly once (the GPT sees at most `length` tokens of context; the n-grams see one)."""
    return [list(ids[i : i + length + 1]) for i in range(0, max(len(ids) - 1, 0), length) if len(ids[i : i + length + 1]) > 1]


if __name__ == "__main__":
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    counts: Counter = Counter()
    for d in all_docs():
        counts[d.source, d.split, "docs"] += 1
        counts[d.source, d.split, "chars"] += len(d.text)
    for source in ("hsk", *DOC_SOURCES):
        row = ", ".join(
            f"{split} {counts[source, split, 'docs']} docs {counts[source, split, 'chars']} chars"
            for split in ("train", "dev", "test")
        )
        print(f"{source:18} {row}")
