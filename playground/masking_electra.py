"""ELECTRA's replaced-token detection: a small generator fills masked positions with plausible tokens,
and the discriminator learns, for every token, whether it is the original or a replacement.

Three generators, from best to plainest: a masked LM (ELECTRA's own generator online), the bundled
causal LM filling whole words by sentence rescoring (playground.causal_fill), or uniform random
tokens (no model at all). A sampled token equal to the original counts as "original", as in the paper.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from playground.errors import InputError
from playground.masking import Encoded, MaskingResult, encode, mlm_draws

MASK_PROB = 0.15
CAUSAL_TOP_K = 10  # the filler's candidates a replacement is sampled from
MAX_BLANKS = 8
CAUSAL_POOL = 30  # candidates per source the filler rescores: a sample, not a leaderboard, so fewer suffice


def _result(
    enc: Encoded,
    tokens: list[str],
    ids: list[int | None],
    replaced: list[bool],
    special: list[bool],
    generator: str,
    **details: Any,
) -> MaskingResult:
    actions = ["special" if s else "replaced" if r else "original" for s, r in zip(special, replaced)]
    labels = [int(r) for r in replaced]  # the discriminator's targets: 1 = replaced
    return MaskingResult(
        "electra",
        tokens,
        actions,
        labels,
        tokens,
        enc.word_ids,
        enc.mask_token,
        enc.mask_is_placeholder,
        enc.truncated,
        details={"original_tokens": enc.tokens, "generator": generator, "corrupted_ids": ids, **details},
    )


def _selected(tokenizer, enc: Encoded, seed: int, mask_prob: float, whole_word: bool = False) -> list[int]:
    _, labels = mlm_draws(tokenizer, enc, 1, seed, mask_prob, 1.0, 0.0, whole_word=whole_word)
    return [pos for pos, lab in enumerate(labels[0].tolist()) if lab != -100]


@torch.inference_mode()
def electra_mlm(generator_lm, text: str, seed: int, mask_prob: float = MASK_PROB, **_: Any) -> MaskingResult:
    """Generator = a masked LM: one pass over the masked sentence, one sample per masked position."""
    tok = generator_lm.tokenizer
    if tok.mask_token is None:
        raise InputError("masking_generator_no_mask", "This generator has no mask token; choose a masked LM.")
    enc = encode(tok, text)
    chosen = _selected(tok, enc, seed, mask_prob)
    masked = torch.tensor([[enc.mask_id if p in chosen else i for p, i in enumerate(enc.ids)]])
    logits = generator_lm.model(input_ids=masked.to(generator_lm.device)).logits[0].float().cpu()
    logits[:, [i for i in tok.all_special_ids if i < logits.shape[-1]]] = float("-inf")  # never sample [PAD], [CLS]...
    g = torch.Generator().manual_seed(int(seed))
    ids = list(enc.ids)
    for pos in chosen:
        ids[pos] = int(torch.multinomial(logits[pos].softmax(-1), 1, generator=g))
    return _result(
        enc,
        tok.convert_ids_to_tokens(ids),
        ids,
        [a != b for a, b in zip(ids, enc.ids)],
        enc.special,
        generator_lm.spec.hf_id,
        masked_positions=chosen,
    )


def electra_uniform(tokenizer, text: str, seed: int, mask_prob: float = MASK_PROB, **_: Any) -> MaskingResult:
    """Generator = none: each masked token becomes a uniformly random non-special vocabulary token."""
    enc = encode(tokenizer, text)
    chosen = _selected(tokenizer, enc, seed, mask_prob)
    specials = set(tokenizer.all_special_ids)
    rng = np.random.default_rng(seed)
    ids = list(enc.ids)
    for pos in chosen:
        while (new := int(rng.integers(enc.vocab_size))) in specials:
            pass
        ids[pos] = new
    return _result(
        enc,
        tokenizer.convert_ids_to_tokens(ids),
        ids,
        [a != b for a, b in zip(ids, enc.ids)],
        enc.special,
        "uniform",
        masked_positions=chosen,
    )


def electra_causal(tokenizer, filler_lm, text: str, seed: int, mask_prob: float = MASK_PROB, **_: Any) -> MaskingResult:
    """Generator = the causal LM filling whole words (sentence rescoring), re-tokenized with `tokenizer`."""
    from playground.causal_fill import fill_blanks_causal  # the causal demo's module, needed only on this path

    enc = encode(tokenizer, text)
    chosen = set(_selected(tokenizer, enc, seed, mask_prob, whole_word=True))
    words = sorted({enc.word_ids[p] for p in chosen})[:MAX_BLANKS]  # the filler takes at most 8 blanks
    chosen = {p for p in chosen if enc.word_ids[p] in words}
    spans = {
        w: (
            min(enc.offsets[p][0] for p in chosen if enc.word_ids[p] == w),
            max(enc.offsets[p][1] for p in chosen if enc.word_ids[p] == w),
        )
        for w in words
    }
    masked_text, cut = "", 0
    for w in words:
        masked_text += text[cut : spans[w][0]] + "[MASK]"
        cut = spans[w][1]
    masked_text += text[cut:]
    fill = (
        fill_blanks_causal(filler_lm, [masked_text], top_k=CAUSAL_TOP_K, pool=CAUSAL_POOL)[0].whole.predictions if words else []
    )
    rng = np.random.default_rng(seed)
    sampled = {}
    for w, preds in zip(words, fill):
        p = np.array([c.probability for c in preds], dtype=float)
        sampled[w] = preds[int(rng.choice(len(preds), p=p / p.sum()))].word
    tokens, ids, replaced, special, done = [], [], [], [], set()
    for pos, (tid, w) in enumerate(zip(enc.ids, enc.word_ids)):
        if w not in sampled:
            tokens.append(enc.tokens[pos]), ids.append(tid), replaced.append(False), special.append(enc.special[pos])
        elif w not in done:
            done.add(w)
            new = tokenizer(sampled[w], add_special_tokens=False)["input_ids"]
            old = [i for i, ww in zip(enc.ids, enc.word_ids) if ww == w]
            tokens += tokenizer.convert_ids_to_tokens(new)
            ids += new
            replaced += [new != old] * len(new)
            special += [False] * len(new)
    return _result(
        enc,
        tokens,
        ids,
        replaced,
        special,
        filler_lm.spec.hf_id,
        masked_text=masked_text,
        sampled_words={str(w): sampled[w] for w in words},
    )


@torch.inference_mode()
def discriminator_probs(disc_lm, ids: list[int]) -> list[float]:
    """The discriminator's P(replaced) per token (ELECTRA: sigmoid of one logit per position)."""
    logits = disc_lm.model(input_ids=torch.tensor([ids]).to(disc_lm.device)).logits
    return torch.sigmoid(logits[0].float()).cpu().tolist()


def same_vocabulary(tokenizer_a, tokenizer_b) -> bool:
    return len(tokenizer_a) == len(tokenizer_b) and tokenizer_a.get_vocab() == tokenizer_b.get_vocab()
