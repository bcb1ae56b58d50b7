"""Filling a blank with a left-to-right (causal) model — and why BERT's objective matters.

A GPT-style model only predicts the next token, so it can fill [MASK] in two ways:
  * left context only: the next-token distribution after the text before the blank
    (what GPT "knows" at that point; it has not read the rest of the sentence);
  * whole sentence: score every candidate by the log-probability of the complete
    sentence with that candidate in the blank, which does use the right context.
The candidates are whole words: the one token the tokenizer itself writes for a
word in the blank, never a special token (`<s>`, `<|endoftext|>`) or a piece that
attaches to the previous word (`'s`, `ing`) — also at the start of a sentence,
where a word carries no leading-space marker (see `_is_candidate`). A blank in Chinese text,
which writes no spaces, takes Chinese characters (or words) that attach to the text before it instead
(`_is_chinese_candidate`): a space-led Latin word there is never what the blank asks. A pool taken from the left
context alone misses answers that only the right context suggests ("The river
[MASK] was muddy"), so it is widened with the next-token distribution of a prompt
that shows the whole sentence first ("... ___ was muddy. ... The river"); see
bench/fill_mask_pool.py for how much that helps. No library does this rescoring,
so it is written here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from playground.errors import InputError
from playground.fill_mask.data import Prediction, Reading, check_top_k, count_masks, split_at_masks
from playground.models import LoadedModel, max_tokens
from playground.text_units import display_pieces, stands_alone, token_text, visible

POOL_PER_SOURCE = 50  # word-initial candidates per next-token distribution: 50 kept every probe answer, at half the time of 100
ROWS_PER_PASS = 128  # sentences scored per forward pass (bounds memory on a small Space)
BLANK = "___"
_ANCHOR = "a"  # a word to write candidates after, so the tokenizer shows how it spells a word after a space


@dataclass(frozen=True)
class CausalFill:
    left: Reading  # next-token distribution after the left context
    whole: Reading  # candidates rescored by the whole sentence's log-probability
    pool_size: int  # candidates rescored per blank


def _start_ids(lm: LoadedModel) -> list[int]:
    """A document-start token, so the first word is scored too and the text reads as prose."""
    tok = lm.tokenizer
    if lm.spec.doc_start:
        return [tok.convert_tokens_to_ids(lm.spec.doc_start)]
    first = tok.bos_token_id if tok.bos_token_id is not None else tok.eos_token_id
    return [] if first is None else [first]


def _next_token_probs(lm: LoadedModel, prompts: list[str]) -> torch.Tensor:
    """(len(prompts), vocab) next-token probabilities, in one left-padded pass."""
    rows = [_start_ids(lm) + lm.tokenizer(p, add_special_tokens=False).input_ids for p in prompts]
    ids, mask = _pad(rows, lm.tokenizer.pad_token_id or 0, left=True)
    return _forward(lm, ids, mask)[:, -1].softmax(-1).cpu()


def _forward(lm: LoadedModel, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Logits (float32) for a padded batch; positions count real tokens only, so left padding is harmless."""
    positions = (mask.cumsum(-1) - 1).clamp(min=0)
    out = lm.model(input_ids=ids.to(lm.device), attention_mask=mask.to(lm.device), position_ids=positions.to(lm.device))
    return out.logits.float()


def _pad(rows: list[list[int]], pad_id: int, left: bool) -> tuple[torch.Tensor, torch.Tensor]:
    width = max(len(r) for r in rows)
    ids = torch.full((len(rows), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(rows), width), dtype=torch.long)
    for i, r in enumerate(rows):
        span = slice(width - len(r), width) if left else slice(0, len(r))
        ids[i, span], mask[i, span] = torch.tensor(r), 1
    return ids, mask


def _rows(lm: LoadedModel, sentences: list[str]) -> list[list[int]]:
    start = _start_ids(lm)
    return [start + lm.tokenizer(s, add_special_tokens=False).input_ids for s in sentences]


def _full_logprobs(lm: LoadedModel, rows: list[list[int]]) -> torch.Tensor:
    """log p(row) summed over every token after the first, each row run in full."""
    ids, mask = _pad(rows, lm.tokenizer.pad_token_id or 0, left=False)
    logp = _forward(lm, ids, mask).log_softmax(-1).cpu()
    return (logp[:, :-1].gather(-1, ids[:, 1:, None])[..., 0] * mask[:, 1:]).sum(-1)


def _tail_logprobs(lm: LoadedModel, prefix: list[int], tails: list[list[int]]) -> torch.Tensor:
    """log p(tail | prefix) per tail: the shared prefix runs once, its KV cache repeated for every tail."""
    out = lm.model(input_ids=torch.tensor([prefix], device=lm.device), use_cache=True)
    cache = out.past_key_values
    cache.batch_repeat_interleave(len(tails))
    ids, mask = _pad(tails, lm.tokenizer.pad_token_id or 0, left=False)
    full_mask = torch.cat([torch.ones((len(tails), len(prefix)), dtype=torch.long), mask], dim=1)
    positions = (len(prefix) + torch.arange(ids.shape[1])).expand(len(tails), -1)
    logits = lm.model(
        input_ids=ids.to(lm.device),
        attention_mask=full_mask.to(lm.device),
        position_ids=positions.to(lm.device),
        past_key_values=cache,
    ).logits.float()
    first = (
        out.logits[0, -1].float().log_softmax(-1).cpu()[ids[:, 0]]
    )  # the prefix's last position predicts each tail's first token
    rest = logits.log_softmax(-1).cpu()[:, :-1].gather(-1, ids[:, 1:, None])[..., 0] * mask[:, 1:]
    return first + rest.sum(-1)


def _sentence_logprobs(lm: LoadedModel, sentences: list[str]) -> np.ndarray:
    """log p(sentence), up to a constant shared by all the sentences, in batched passes.

    Candidate sentences differ only after the blank, so the tokens they share at the
    start are run once (its KV cache reused) and their probability, the same for every
    sentence, is left out: it cancels when the scores are compared.
    """
    rows = _rows(lm, sentences)
    shared = 0
    while shared < min(map(len, rows)) - 1 and len({r[shared] for r in rows}) == 1:
        shared += 1
    scores = []
    for lo in range(0, len(rows), ROWS_PER_PASS):
        chunk = rows[lo : lo + ROWS_PER_PASS]
        if shared == 0:  # nothing in common (no start token): run every row in full
            scores.append(_full_logprobs(lm, chunk))
        else:
            scores.append(_tail_logprobs(lm, chunk[0][:shared], [r[shared:] for r in chunk]))
    return torch.cat(scores).numpy().astype(np.float64)


def _special_ids(tokenizer) -> set[int]:
    """Control tokens (`<s>`, `</s>`, `<|endoftext|>`, chat markers...): never a word in a blank."""
    return set(tokenizer.all_special_ids) | set(getattr(tokenizer, "added_tokens_decoder", {}))


def _is_candidate(lm: LoadedModel, token_id: int, sentence_start: bool, special: set[int]) -> bool:
    """Whether a token can fill a blank as a whole word, asked of the tokenizer itself.

    A word qualifies when it starts with a letter or digit, is one token when written after a
    space (a real word of the vocabulary, not `orning`), and is exactly this token where the blank
    is: after a space mid-sentence, alone at the start of a sentence (so `'s`, `ing` or SentencePiece's
    unmarked continuation pieces never pass, and a byte-level model offers `The`, not ` The`).
    """
    if token_id in special:
        return False
    tok = lm.tokenizer
    tt = token_text(tok, tok.convert_ids_to_tokens(token_id))
    word = tt.word
    if not word or not word[0].isalnum() or "\ufffd" in word or any(ch.isspace() for ch in word):
        return False
    if not sentence_start and not tt.starts_word:
        return False
    anchor = tok(_ANCHOR, add_special_tokens=False).input_ids
    after_space = tok(f"{_ANCHOR} {word}", add_special_tokens=False).input_ids
    if after_space[: len(anchor)] != anchor or len(after_space) != len(anchor) + 1:
        return False
    if sentence_start:
        return tok(word, add_special_tokens=False).input_ids == [token_id]
    return after_space[-1] == token_id


def chinese_blank(left: str, right: str) -> bool:
    """Whether a blank sits in Chinese: the nearest character before or after it is a CJK ideograph (or kana)."""
    return any(stands_alone(ch) for ch in (left.rstrip()[-1:], right.lstrip()[:1]) if ch)


def _is_chinese_candidate(lm: LoadedModel, token_id: int, left: str, special: set[int]) -> bool:
    """Whether a token can fill a Chinese blank: it reads as Chinese characters only, and is exactly the token the
    tokenizer writes for them right after the left context (no space: Chinese has none), so a byte piece, a
    space-led word or a piece that would merge differently there never passes."""
    if token_id in special:
        return False
    tok = lm.tokenizer
    word = token_text(tok, tok.convert_ids_to_tokens(token_id)).word
    if not word or not all(stands_alone(ch) for ch in word):
        return False
    before = tok(left, add_special_tokens=False).input_ids if left else []
    return tok(left + word, add_special_tokens=False).input_ids == before + [token_id]


def _word_candidates(lm: LoadedModel, probs: torch.Tensor, n: int, left: str, chinese: bool) -> list[tuple[int, float]]:
    """The n most probable tokens of a next-token distribution that can fill the blank as a whole word (as Chinese
    characters where the blank is in Chinese)."""
    special = _special_ids(lm.tokenizer)
    found = []
    for i in probs.argsort(descending=True).tolist():  # most probable first, as far down as it takes to find n
        if _is_chinese_candidate(lm, i, left, special) if chinese else _is_candidate(lm, i, not left, special):
            found.append((i, float(probs[i])))
            if len(found) == n:
                break
    if not found and chinese:
        raise InputError(
            "no_chinese_candidates",
            "{model} has no Chinese character among its tokens to put in this Chinese blank (it reads Chinese as byte "
            "pieces). Choose a model that reads Chinese.",
            model=lm.spec.label,
        )
    if not found:
        raise InputError("no_word_candidates", "{model} has no whole word to offer for this blank.", model=lm.spec.label)
    return found


def _predictions(lm: LoadedModel, scored: list[tuple[int, float]], top_k: int) -> list[Prediction]:
    out = []
    for i, p in sorted(scored, key=lambda s: -s[1])[:top_k]:
        tt = token_text(lm.tokenizer, lm.tokenizer.convert_ids_to_tokens(i))
        out.append(Prediction(tt.word, tt.raw, i, p, visible(display_pieces(lm.tokenizer, [i])[0])))
    return out


@torch.inference_mode()
def fill_blanks_causal(lm: LoadedModel, texts: list[str], top_k: int = 5, pool: int = POOL_PER_SOURCE) -> list[CausalFill]:
    """Both readings for every [MASK] in each text, blanks filled left to right.

    Later blanks see earlier ones filled with their whole-sentence winner; the right
    context of a blank runs to the next blank.
    """
    top_k = check_top_k(top_k)
    return [_fill_one(lm, text, top_k, pool) for text in texts]


def _fill_one(lm: LoadedModel, text: str, top_k: int, pool: int) -> CausalFill:
    count_masks(text)
    pieces = split_at_masks(text)
    # The primed prompt holds the sentence and its left context again: half the window each.
    limit = max_tokens(lm) // 2 - 2
    length = len(lm.tokenizer(" ".join(pieces), add_special_tokens=False).input_ids)
    if length > limit:
        raise InputError(
            "blank_text_too_long",
            "The text is {n} tokens long; {model} fills blanks in at most {limit}.",
            n=length,
            model=lm.spec.label,
            limit=limit,
        )
    left_preds, whole_preds, pool_sizes = [], [], []
    prefix = pieces[0]
    for k in range(1, len(pieces)):
        left, right = prefix.rstrip(), pieces[k]
        primed = f"{left} {BLANK}{right}\n{left}"  # the sentence seen first, then the left context again
        probs = _next_token_probs(lm, [left, primed])
        chinese = chinese_blank(left, right)
        plain = _word_candidates(lm, probs[0], pool, left, chinese)
        primed_cands = _word_candidates(lm, probs[1], pool, left, chinese)
        cands = list(dict.fromkeys([i for i, _ in plain] + [i for i, _ in primed_cands]))
        words = [lm.tokenizer.decode([i]) for i in cands]
        logp = _sentence_logprobs(lm, [(left + w + right).lstrip() for w in words])
        share = np.exp(logp - logp.max())
        share /= share.sum()
        left_preds.append(_predictions(lm, [(i, float(probs[0][i])) for i, _ in plain], top_k))
        whole_preds.append(_predictions(lm, list(zip(cands, share.tolist())), top_k))
        pool_sizes.append(len(cands))
        prefix = (left + lm.tokenizer.decode([whole_preds[-1][0].token_id]) + right).lstrip()
    left_reading = Reading("left-context", text, left_preds, truncated=False)  # too long a text is refused, never cut
    return CausalFill(left_reading, Reading("whole-sentence", text, whole_preds, truncated=False), max(pool_sizes))
