"""Next-sentence prediction and what replaced it, all drawn from the user's own text.

- BERT's NSP: training pairs are half true continuations (IsNext), half a random sentence (NotNext);
  a pair is fed as [CLS] A [SEP] B [SEP] with segment ids 0 for A and 1 for B. Online,
  `BertForNextSentencePrediction` scores a true next sentence, a random one and the swapped order.
- RoBERTa's FULL-SENTENCES: no pairs and no NSP loss; whole sentences are packed up to a token budget,
  crossing document boundaries with an extra separator.
- ALBERT's sentence-order prediction: two consecutive segments, in order (positive) or swapped (negative).

transformers no longer ships pair builders for these objectives (TextDatasetForNextSentencePrediction and
DataCollatorForSOP were removed), so the builders below are written by hand, after BERT's
create_pretraining_data.py, RoBERTa's paper (section 4.2) and ALBERT's paper (section 3.1).
Randomness comes from a local numpy Generator seeded by the request: the same seed gives the same pairs.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from playground import availability, device
from playground.runtime import Runtime
from playground import checks
from playground.errors import InputError
from playground.models import LoadedModel
from playground.registry import ModelSpec, get_spec, specs_of_kind
from playground.text_units import has_cjk, is_cjk

# Bundled tokenizers the pair layout and the packing use, in order of preference: the first that reads the text's
# language. MiniLM's is BERT's own WordPiece layout ([CLS] A [SEP] B [SEP], segments 0 and 1) but it reads most
# Chinese characters as [UNK]; e5-small's (XLM-R's SentencePiece) reads Chinese and lays a pair out as
# <s> A </s></s> B </s>, every token in segment 0.
LAYOUT_TOKENIZERS = ("minilm", "e5-small")
LAYOUT_TOKENIZER = LAYOUT_TOKENIZERS[0]  # for English text
NSP_KIND = "nsp"
LABELS = ("IsNext", "NotNext")  # BertForNextSentencePrediction's logit order: 0 = B follows A
MAX_CHARS = 5000
MAX_SENTENCES = 200
BUDGET_RANGE = (8, 512)
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？])")  # after . ! ? (then a space) or a Chinese stop
SCORES_KEPT = 256  # (model, probes) scores kept (the runtime's "inside_nsp" cache)


@dataclass(frozen=True)
class Sentence:
    text: str
    doc: int  # which document (paragraph) it came from
    index: int  # position in the whole text


@dataclass(frozen=True)
class NspPair:
    a: Sentence
    b: Sentence
    is_next: bool  # True: B is the sentence after A; False: B was drawn at random


@dataclass(frozen=True)
class SopPair:
    first: Sentence  # the segment shown first
    second: Sentence
    in_order: bool  # True: positive (as written); False: negative (the same two, swapped)


@dataclass(frozen=True)
class Packed:
    pieces: list[str]  # sentences, with the separator token between documents
    docs: list[int]  # the document of each piece (-1 for a separator)
    n_tokens: int  # tokens of the packed input, its special tokens included
    over_budget: bool  # one sentence alone was longer than the budget


@dataclass(frozen=True)
class Layout:
    tokens: list[str]
    segment_ids: list[int]
    unknown: list[str] = field(default_factory=list)  # per token: the text the tokenizer replaced by its unknown token, or ""
    template: str = ""  # the pair's special tokens around A and B ("[CLS] A [SEP] B [SEP]", "<s> A </s></s> B </s>")
    segments_given: bool = True  # False: the tokenizer has no segment ids (XLM-R's): every token is segment 0

    @property
    def unknown_texts(self) -> list[str]:
        return [u for u in self.unknown if u]


@dataclass(frozen=True)
class TrainedHead:
    """What was measured of an NSP head trained here (its summary.json beside the overlay): not BERT's own head."""

    accuracy: float  # on the held-out documents' pairs (half IsNext, half NotNext)
    pairs: int
    other_accuracy: float  # on pairs of a manual never trained on (GIMP's)
    other_pairs: int


@dataclass(frozen=True)
class Probe:
    case: str  # "true_next" | "random" | "swapped"
    a: str
    b: str
    p_is_next: float
    p_not_next: float


@dataclass(frozen=True)
class NspRequest:
    text: str
    seed: int = 0
    budget: int = 32  # FULL-SENTENCES token budget (RoBERTa used 512)
    model: str | None = None  # an NSP model key; None = the first available one


@dataclass(frozen=True)
class NspRun:
    request: NspRequest
    documents: int
    sentences: list[Sentence]
    pairs: list[NspPair]
    layout: Layout  # the first pair through the tokenizer
    tokenizer_id: str
    packed: list[Packed]
    sep_token: str
    sop: list[SopPair]
    probes: list[Probe]  # empty when no NSP model is available
    model_id: str = ""  # the NSP model that scored the probes ("" offline)
    device: str = ""
    unavailable: str = ""  # why no NSP model ran (English; the UI words its own)
    notes: list[str] = field(default_factory=list)
    language: str = "en"  # "zh" when the text has Chinese characters: it picks the tokenizer and the NSP model
    trained_here: TrainedHead | None = None  # the scoring head was trained here (measured figures), not pre-trained
    # When the layout's tokenizer is not BERT's (Chinese text): (Chinese characters of the first pair that BERT's
    # WordPiece tokenizer, LAYOUT_TOKENIZER, reads as [UNK], Chinese characters of the pair); (0, 0) otherwise
    bert_unknown: tuple[int, int] = (0, 0)


def split_text(text: str) -> list[Sentence]:
    """Paragraphs (separated by a blank line) are documents; sentences end at . ! ? 。！？"""
    sentences = []
    for doc, paragraph in enumerate(p for p in re.split(r"\n\s*\n", text) if p.strip()):
        for line in paragraph.splitlines():
            for part in _SENTENCE_END.split(line):
                if part.strip():
                    sentences.append(Sentence(part.strip(), doc, len(sentences)))
    docs = {s.doc for s in sentences}
    return [Sentence(s.text, sorted(docs).index(s.doc), s.index) for s in sentences]


def _followers(sentences: list[Sentence]) -> list[int]:
    """Indices i whose next sentence i+1 is in the same document."""
    return [i for i in range(len(sentences) - 1) if sentences[i].doc == sentences[i + 1].doc]


def build_nsp_pairs(sentences: list[Sentence], seed: int) -> list[NspPair]:
    """One pair per sentence that has a next one: 50 % the real next sentence, 50 % a random other one.

    BERT draws the random sentence from another document; with one document it is any sentence
    that is neither A nor its true successor.
    """
    rng = np.random.default_rng(seed)
    pairs = []
    for i in _followers(sentences):
        if rng.random() < 0.5:
            pairs.append(NspPair(sentences[i], sentences[i + 1], True))
            continue
        others = [s for s in sentences if s.doc != sentences[i].doc] or [s for s in sentences if s.index not in (i, i + 1)]
        if not others:
            pairs.append(NspPair(sentences[i], sentences[i + 1], True))
            continue
        pairs.append(NspPair(sentences[i], others[int(rng.integers(len(others)))], False))
    return pairs


def build_sop_pairs(sentences: list[Sentence], seed: int) -> list[SopPair]:
    """ALBERT: two consecutive segments; 50 % as written (positive), 50 % the same two swapped (negative)."""
    rng = np.random.default_rng(seed)
    pairs = []
    for i in _followers(sentences):
        if rng.random() < 0.5:
            pairs.append(SopPair(sentences[i], sentences[i + 1], True))
        else:
            pairs.append(SopPair(sentences[i + 1], sentences[i], False))
    return pairs


def pack_full_sentences(sentences: list[Sentence], count: Callable[[str], int], budget: int, sep: str) -> list[Packed]:
    """RoBERTa's FULL-SENTENCES: whole sentences in order, up to `budget` tokens (2 reserved for <s> … </s>),
    continuing into the next document after an extra separator."""
    chunks: list[Packed] = []
    pieces: list[str] = []
    docs: list[int] = []
    used = 2

    def close(over: bool = False) -> None:
        nonlocal pieces, docs, used
        if pieces:
            chunks.append(Packed(pieces, docs, used, over))
        pieces, docs, used = [], [], 2

    for s in sentences:
        n = count(s.text)
        boundary = bool(docs) and docs[-1] != s.doc
        extra = n + (1 if boundary else 0)
        if pieces and used + extra > budget:
            close()
            boundary = False
        if boundary:
            pieces.append(sep)
            docs.append(-1)
            used += 1
        pieces.append(s.text)
        docs.append(s.doc)
        used += n
        if used > budget:
            close(over=True)
    close()
    return chunks


def text_language(text: str) -> str:
    """ "zh" when the text has a Chinese character, else "en": what a tokenizer or an NSP model must read."""
    return "zh" if has_cjk(text) else "en"


def layout_tokenizer_key(text: str) -> str:
    """The first of LAYOUT_TOKENIZERS whose model reads the text's language (MiniLM for English, e5-small for Chinese)."""
    lang = text_language(text)
    return next((key for key in LAYOUT_TOKENIZERS if get_spec(key).speaks(lang)), LAYOUT_TOKENIZERS[0])


def pair_layout(tokenizer: Any, a: str, b: str) -> Layout:
    """The pair as the tokenizer builds it: tokens, segment ids, what became the unknown token, the template."""
    fast = bool(getattr(tokenizer, "is_fast", False))
    enc = tokenizer(a, b, return_token_type_ids=True, return_offsets_mapping=fast)
    ids = list(enc["input_ids"])
    sequence = enc.sequence_ids() if fast else [None] * len(ids)
    spans = enc["offset_mapping"] if fast else [(0, 0)] * len(ids)
    unknown = []
    for token_id, seq, (start, end) in zip(ids, sequence, spans):
        replaced = token_id == tokenizer.unk_token_id and tokenizer.unk_token_id is not None
        text = (a, b)[seq][start:end] if replaced and seq is not None else ""
        unknown.append((text or tokenizer.unk_token) if replaced else "")
    tokens = tokenizer.convert_ids_to_tokens(ids)
    template: list[str] = []
    for token, seq in zip(tokens, sequence):
        part = token if seq is None else "AB"[seq]
        if seq is None or not template or template[-1] != part:
            template.append(part)
    joined = " ".join(template).replace(f"{tokenizer.sep_token} {tokenizer.sep_token}", tokenizer.sep_token * 2)
    segments = list(enc["token_type_ids"])
    return Layout(tokens, segments, unknown, joined if fast else "", any(segments))


@device.entry(lambda lm, pairs: 4 + len(pairs) / 8)
def nsp_probabilities(lm: LoadedModel, pairs: list[tuple[str, str]]) -> list[tuple[float, float]]:
    """(P(IsNext), P(NotNext)) for each (A, B), in one batched forward pass."""
    import torch  # deferred: torch takes seconds to import; importing this module needs none

    enc = lm.tokenizer([a for a, _ in pairs], [b for _, b in pairs], padding=True, truncation=True, return_tensors="pt")
    with torch.inference_mode():
        logits = lm.model(**{k: v.to(lm.device) for k, v in enc.items()}).logits
    probs = torch.softmax(logits.float(), dim=-1).cpu().numpy()
    return [(float(p[0]), float(p[1])) for p in probs]


def probe_pairs(sentences: list[Sentence], seed: int) -> list[tuple[str, str, str]]:
    """The three probes for the first sentence that has a next one: its true next, a random one, the swapped order."""
    followers = _followers(sentences)
    if not followers:
        return []
    i = followers[0]
    a, b = sentences[i].text, sentences[i + 1].text
    probes = [("true_next", a, b)]
    others = [s.text for s in sentences if s.index not in (i, i + 1)]
    if others:
        probes.append(("random", a, others[int(np.random.default_rng(seed).integers(len(others)))]))
    probes.append(("swapped", b, a))
    return probes


def _check(request: NspRequest) -> tuple[list[Sentence], int, int]:
    if not checks.text(request.text, "text", MAX_CHARS).strip():
        raise InputError("empty_text", "Please type a sentence.")
    seed = checks.seed(request.seed)
    budget = checks.whole(request.budget, "budget", *BUDGET_RANGE)
    if request.model is not None and request.model != "":
        checks.model_key(request.model, "model", (NSP_KIND,))
    sentences = split_text(request.text)[:MAX_SENTENCES]
    if not _followers(sentences):
        raise InputError("nsp_one_sentence", "Write at least two sentences in a row (end each with . ! ? or 。).")
    return sentences, seed, budget


def nsp_model_key(requested: str | None, text: str = "") -> tuple[str | None, str]:
    """The NSP model to use and, when there is none, why (English). Unless one is requested, only a model that reads
    the text's language is chosen: BERT's English head would score Chinese pairs it cannot read, and the head trained
    here on Chinese was never shown an English pair."""
    if requested:
        spec = get_spec(checks.model_key(requested, "model", (NSP_KIND,)))
        state = availability.check(spec)
        return (spec.key, "") if state.ok else (None, state.reason)
    lang = text_language(text)
    ready = [spec for spec in availability.available_specs(NSP_KIND) if spec.speaks(lang)]
    if ready:
        return ready[0].key, ""
    known = [spec for spec in specs_of_kind(NSP_KIND) if spec.speaks(lang)]
    return None, (availability.check(known[0]).reason if known else "no model with a next-sentence head is registered")


def trained_head(spec: ModelSpec) -> TrainedHead | None:
    """The measured figures of a head trained here (the summary.json its training script wrote beside the overlay)."""
    overlay = availability.overlay_path(spec)
    summary = overlay.parent / "summary.json" if overlay is not None else None
    if summary is None or not summary.is_file():
        return None
    held = json.loads(summary.read_text(encoding="utf-8")).get("held_out", {})
    if "test" not in held:
        return None
    other = held.get("other_manual", {"accuracy": float("nan"), "pairs": 0})
    return TrainedHead(held["test"]["accuracy"], held["test"]["pairs"], other["accuracy"], other["pairs"])


def run_nsp(request: NspRequest, runtime: Runtime) -> NspRun:
    """Pairs, layout, packing and sentence order from the user's text; NSP probabilities when a model is available."""
    sentences, seed, budget = _check(request)
    layout_key = layout_tokenizer_key(request.text)
    tokenizer = runtime.tokenizer(layout_key)
    pairs = build_nsp_pairs(sentences, seed)
    layout = pair_layout(tokenizer, pairs[0].a.text, pairs[0].b.text)
    bert_unknown = (0, 0)
    if layout_key != LAYOUT_TOKENIZER:  # what BERT's own layout would have made of the same pair
        bert = pair_layout(runtime.tokenizer(LAYOUT_TOKENIZER), pairs[0].a.text, pairs[0].b.text)
        cjk = lambda texts: sum(is_cjk(ch) for text in texts for ch in text)  # noqa: E731
        bert_unknown = (cjk(bert.unknown_texts), cjk([pairs[0].a.text, pairs[0].b.text]))
    sep = tokenizer.sep_token or "[SEP]"
    packed = pack_full_sentences(sentences, lambda s: len(tokenizer.tokenize(s)), budget, sep)
    key, why = nsp_model_key(request.model, request.text)
    probes: list[Probe] = []
    model_id = device = ""
    trained = None
    if key is not None:
        lm = runtime.model(key)
        wanted = probe_pairs(sentences, seed)
        score = lambda: nsp_probabilities(lm, [(a, b) for _, a, b in wanted])  # noqa: E731
        scores = runtime.cached("inside_nsp", SCORES_KEPT, (key, tuple(wanted)), score, key)
        probes = [Probe(case, a, b, p, q) for (case, a, b), (p, q) in zip(wanted, scores)]
        model_id, device = lm.spec.hf_id, str(lm.device)
        trained = trained_head(lm.spec)
    return NspRun(
        NspRequest(request.text, seed, budget, key),
        len({s.doc for s in sentences}),
        sentences,
        pairs,
        layout,
        get_spec(layout_key).hf_id,
        packed,
        sep,
        build_sop_pairs(sentences, seed),
        probes,
        model_id,
        device,
        why,
        language=text_language(request.text),
        trained_here=trained,
        bert_unknown=bert_unknown,
    )
