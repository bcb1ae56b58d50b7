"""One sentence as a tokenizer sees it, plus what every masking objective needs: special tokens, words, the mask id."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from playground.errors import InputError

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

    def show(self, ids: list[int]) -> list[str]:
        """Token strings for `ids`, the placeholder mask included."""
        return [self.mask_token if i == self.mask_id else self.tokenizer.convert_ids_to_tokens(int(i)) for i in ids]


def _word_ids(text: str, offsets: list[tuple[int, int]], special: list[bool]) -> list[int]:
    """Word index per token. A word starts after a gap or a space in the text, and punctuation
    stands alone, as BERT's basic tokenizer splits it; written here because the collator's own rule
    (offset gaps only) merges "word," and treats byte-level tokens that carry their space as one word."""
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
    if not isinstance(text, str):
        raise InputError("masking_no_text", "Type a sentence.")
    enc = tokenizer(text, return_offsets_mapping=True, return_special_tokens_mask=True)
    ids, offsets = list(enc["input_ids"]), [tuple(o) for o in enc["offset_mapping"]]
    special = [bool(s) for s in enc["special_tokens_mask"]]
    truncated = len(ids) > max_tokens
    if truncated:  # keep the trailing special token(s), e.g. [SEP]
        tail = 1 if special[-1] else 0
        keep = list(range(max_tokens - tail)) + list(range(len(ids) - tail, len(ids)))
        ids, offsets, special = [ids[i] for i in keep], [offsets[i] for i in keep], [special[i] for i in keep]
    words = _word_ids(text, offsets, special)
    if all(w < 0 for w in words):
        raise InputError("masking_empty", "Nothing to mask: the sentence has no tokens besides special ones.")
    has_mask = tokenizer.mask_token is not None and tokenizer.mask_token_id is not None
    mask_id = tokenizer.mask_token_id if has_mask else len(tokenizer)
    mask_token = tokenizer.mask_token if has_mask else PLACEHOLDER_MASK
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
    )


def words_of(enc: Encoded) -> list[list[int]]:
    """Token positions of each word, in order."""
    words: dict[int, list[int]] = {}
    for pos, w in enumerate(enc.word_ids):
        if w >= 0:
            words.setdefault(w, []).append(pos)
    return [words[w] for w in sorted(words)]
