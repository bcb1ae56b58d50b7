"""One sentence as a tokenizer sees it, plus what every masking objective needs: special tokens, words, the mask id."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from playground import checks
from playground.errors import InputError
from playground.masking import segment
from playground.masking.pieces import readable
from playground.masking.results import MaskingResult, Note

MAX_TOKENS = 64  # a sentence, not a document: keeps 10,000 draws at once in memory
PLACEHOLDER_MASK = "[MASK]"  # shown for tokenizers that have no mask token (causal LMs never saw one)


@dataclass(frozen=True)
class Encoded:
    """One sentence as the tokenizer sees it, plus what masking needs to know."""

    ids: list[int]
    tokens: list[str]
    special: list[bool]
    word_ids: list[int]  # -1 for special tokens; the pieces of one word share an id
    mask_id: int
    mask_token: str
    mask_is_placeholder: bool  # the tokenizer has no mask token: an id past the vocabulary stands in
    vocab_size: int
    truncated: bool
    offsets: list[tuple[int, int]] = field(default_factory=list)  # character span of each token in the text
    tokenizer: Any = field(default=None, repr=False, compare=False)
    shown: list[str] = field(default_factory=list)  # what a reader sees per token (byte pieces decoded, see pieces.py)
    unknown: list[str] = field(default_factory=list)  # pieces of the text that became the unknown token

    def show(self, ids: list[int]) -> list[str]:
        """Readable token labels for `ids` (byte pieces decoded), the placeholder mask included."""
        return readable(self.tokenizer, [int(i) for i in ids], {self.mask_id: self.mask_token})


def word_ids_of(tokenizer_words: list[int | None] | None, offsets, special: list[bool], text: str) -> list[int]:
    """Word index per token (-1 for special tokens), numbered 0, 1, ... in order.

    Words are the tokenizer's own (`word_ids()`, its pre-tokenizer's split), with two rules on top:
    a character is never split (tokens whose character spans overlap, such as the byte pieces of one
    Chinese character, share a word), and where Chinese meets Chinese (or its punctuation) the word
    segmenter decides, as Chinese BERT-wwm did (playground.masking.segment: jieba here, LTP there):
    BERT's tokenizer puts every CJK character apart and XLM-R's reads a whole unspaced sentence as one
    "word", neither of which is a Chinese word. Slow tokenizers have no `word_ids()`: a spacing rule stands in.
    """
    base = tokenizer_words if tokenizer_words is not None else _spacing_words(text, offsets, special)
    starts = segment.word_starts(text)  # None when the text has no Chinese
    out, word, prev = [], -1, None  # prev: (base word, end offset) of the previous real token
    for (start, end), is_special, b in zip(offsets, special, base):
        if is_special:
            out.append(-1)
            prev = None
            continue
        chinese_junction = (
            prev is not None
            and starts is not None
            and start == prev[1]
            and 0 < start < len(text)
            and not (text[start - 1].isspace() or text[start].isspace())  # a space token keeps the tokenizer's grouping
            and (segment.has_chinese(text[start - 1]) or segment.has_chinese(text[start]))
        )
        if prev is None:
            same = False
        elif start < prev[1]:
            same = True  # a character is never split
        elif chinese_junction:
            same = start not in starts
        else:
            same = b is not None and b == prev[0] and b >= 0
        word += 0 if same else 1
        out.append(word)
        prev = (b, end)
    return out


def _spacing_words(text: str, offsets: list[tuple[int, int]], special: list[bool]) -> list[int]:
    """Word index per token for tokenizers without `word_ids()`. A word starts after a gap or a space
    in the text, and punctuation stands alone, as BERT's basic tokenizer splits it."""
    ids, word, prev_end, prev_punct = [], -1, None, True
    for (start, end), is_special in zip(offsets, special):
        if is_special or end <= start:
            ids.append(-1)
            prev_end, prev_punct = None, True
            continue
        piece = text[start:end]
        punct = bool(piece.strip()) and not any(ch.isalnum() for ch in piece)
        if prev_end is None or start != prev_end or piece[0].isspace() or punct or prev_punct:
            word += 1
        ids.append(word)
        prev_end, prev_punct = end, punct
    return ids


def encode(tokenizer, text: str, max_tokens: int = MAX_TOKENS) -> Encoded:
    """Tokenize `text` (with the model's special tokens); InputError when no real token is left."""
    checks.text(text, "text", 100_000)  # the request check allows far less; this guards direct callers
    enc = tokenizer(text, return_offsets_mapping=True, return_special_tokens_mask=True)
    ids, offsets = list(enc["input_ids"]), [tuple(o) for o in enc["offset_mapping"]]
    special = [bool(s) for s in enc["special_tokens_mask"]]
    try:
        tokenizer_words = list(enc.word_ids())
    except (AttributeError, ValueError):  # a slow tokenizer
        tokenizer_words = None
    keep = kept_positions(special, max_tokens)
    truncated = len(keep) < len(ids)
    ids, offsets, special = [ids[i] for i in keep], [offsets[i] for i in keep], [special[i] for i in keep]
    tokenizer_words = None if tokenizer_words is None else [tokenizer_words[i] for i in keep]
    words = word_ids_of(tokenizer_words, offsets, special, text)
    if all(w < 0 for w in words):
        raise InputError("masking_empty", "Nothing to mask: the sentence has no tokens besides special ones.")
    has_mask = tokenizer.mask_token is not None and tokenizer.mask_token_id is not None
    mask_id = tokenizer.mask_token_id if has_mask else len(tokenizer)
    mask_token = tokenizer.mask_token if has_mask else PLACEHOLDER_MASK
    unk = tokenizer.unk_token_id
    unknown = [text[a:b] or tokenizer.unk_token for i, (a, b) in zip(ids, offsets) if unk is not None and i == unk]
    return Encoded(
        ids,
        tokenizer.convert_ids_to_tokens(ids),
        special,
        words,
        mask_id,
        mask_token,
        not has_mask,
        len(tokenizer),
        truncated,
        offsets,
        tokenizer,
        readable(tokenizer, ids),
        unknown,
    )


def kept_positions(special: list[bool], max_tokens: int = MAX_TOKENS) -> list[int]:
    """The positions kept of a long sentence: the first tokens, and the trailing special token (e.g. [SEP])."""
    n = len(special)
    if n <= max_tokens:
        return list(range(n))
    tail = 1 if special[-1] else 0
    return list(range(max_tokens - tail)) + list(range(n - tail, n))


def words_of(enc: Encoded) -> list[list[int]]:
    """Token positions of each word, in order."""
    words: dict[int, list[int]] = {}
    for pos, w in enumerate(enc.word_ids):
        if w >= 0:
            words.setdefault(w, []).append(pos)
    return [words[w] for w in sorted(words)]


def unknown_notes(enc: Encoded) -> list[Note]:
    """A note when part of the text became the unknown token: the model cannot tell those words apart."""
    if not enc.unknown:
        return []
    token = enc.tokenizer.unk_token if enc.tokenizer is not None else "[UNK]"
    return [Note("unknown_tokens", {"token": token, "pieces": list(dict.fromkeys(enc.unknown)), "count": len(enc.unknown)})]


def result_of(strategy: str, enc: Encoded, actions: list[str], labels: list[int], corrupted: list[str], **extra) -> MaskingResult:
    """One draw on `enc`, with its readable tokens, words, mask facts and the unknown-token note."""
    extra.setdefault("word_ids", enc.word_ids)
    extra.setdefault("tokens", enc.shown)
    notes = unknown_notes(enc) + list(extra.pop("notes", []))
    return MaskingResult(
        strategy=strategy,
        actions=actions,
        labels=labels,
        corrupted=corrupted,
        mask_token=enc.mask_token,
        mask_is_placeholder=enc.mask_is_placeholder,
        truncated=enc.truncated,
        notes=notes,
        **extra,
    )
