"""BERT's masked-LM objective on one sentence: token-level, whole-word and dynamic masking.

The masking itself is transformers' `DataCollatorForLanguageModeling` (80/10/10,
whole-word, seeded generator); this module prepares what it reads (token ids,
special tokens, word boundaries) and names what happened to every token.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import torch
from transformers import DataCollatorForLanguageModeling

from playground import checks
from playground.errors import InputError
from playground.masking.encoding import Encoded, encode, result_of
from playground.masking import segment
from playground.masking.results import IGNORE, MaskingResult, Note


class _MaskTokenView:
    """The tokenizer as the collator sees it, with a placeholder mask token when it has none."""

    is_fast = True

    def __init__(self, tokenizer, enc: Encoded):
        self._tokenizer, self.mask_token, self.mask_token_id = tokenizer, enc.mask_token, enc.mask_id

    def __len__(self) -> int:
        return len(self._tokenizer)

    def convert_tokens_to_ids(self, token):
        return self.mask_token_id if token == self.mask_token else self._tokenizer.convert_tokens_to_ids(token)


def _offsets_from_words(word_ids: list[int]) -> torch.Tensor:
    """Offsets that are contiguous inside a word and gapped between words: how the collator finds words."""
    return torch.tensor([[k + w, k + w + 1] for k, w in enumerate(word_ids)])


def mlm_draws(
    tokenizer,
    enc: Encoded,
    n: int,
    seed: int,
    mlm_probability: float = 0.15,
    mask_replace_prob: float = 0.8,
    random_replace_prob: float = 0.1,
    whole_word: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """`n` independent maskings of the sentence at once: (inputs, labels), each (n, T)."""
    for name, p in [
        ("mlm_probability", mlm_probability),
        ("mask_replace_prob", mask_replace_prob),
        ("random_replace_prob", random_replace_prob),
    ]:
        checks.probability(p, name)
    if mask_replace_prob + random_replace_prob > 1.0 + 1e-9:
        raise InputError("masking_split", "The [MASK] and random shares add up to more than 100%.")
    view = _MaskTokenView(tokenizer, enc) if enc.mask_is_placeholder else tokenizer

    with warnings.catch_warnings():  # whole-word masking announces it forces mask_replace_prob=1: we say so in the UI
        warnings.simplefilter("ignore")
        collator = DataCollatorForLanguageModeling(
            view,
            mlm_probability=mlm_probability,
            mask_replace_prob=mask_replace_prob,
            random_replace_prob=random_replace_prob,
            whole_word_mask=whole_word,
            seed=seed,
        )
    collator.generator = collator.get_generator(seed)  # local torch.Generator, never the global RNG
    inputs = torch.tensor([enc.ids] * n, dtype=torch.long)
    special = torch.tensor([enc.special] * n, dtype=torch.long)
    offsets = _offsets_from_words(enc.word_ids).expand(n, -1, -1) if whole_word else None
    inputs, labels = collator.torch_mask_tokens(inputs, special_tokens_mask=special, offset_mapping=offsets)
    return np.asarray(inputs), np.asarray(labels)


def actions_of(enc: Encoded, inputs: np.ndarray, labels: np.ndarray) -> list[str]:
    """What happened to each token: special / none / mask / random / kept."""
    out = []
    for original, seen, label, is_special in zip(enc.ids, inputs.tolist(), labels.tolist(), enc.special):
        if is_special:
            out.append("special")
        elif label == IGNORE:
            out.append("none")
        else:
            out.append("mask" if seen == enc.mask_id else "kept" if seen == original else "random")
    return out


def _result(strategy: str, enc: Encoded, inputs: np.ndarray, labels: np.ndarray, **extra) -> MaskingResult:
    return result_of(
        strategy, enc, actions_of(enc, inputs, labels), [int(v) for v in labels], enc.show([int(v) for v in inputs]), **extra
    )


def bert_masking(
    tokenizer,
    text: str,
    seed: int,
    mlm_probability: float = 0.15,
    mask_replace_prob: float = 0.8,
    random_replace_prob: float = 0.1,
    **_: Any,
) -> MaskingResult:
    """BERT's static masking: select tokens, then [MASK] / random token / unchanged."""
    enc = encode(tokenizer, text)
    inputs, labels = mlm_draws(tokenizer, enc, 1, seed, mlm_probability, mask_replace_prob, random_replace_prob)
    return _result("bert", enc, inputs[0], labels[0])


def whole_word_masking(tokenizer, text: str, seed: int, mlm_probability: float = 0.15, **_: Any) -> MaskingResult:
    """All pieces of a selected word are masked together; the token-level draw (same seed) for contrast."""
    enc = encode(tokenizer, text)
    inputs, labels = mlm_draws(tokenizer, enc, 1, seed, mlm_probability, 1.0, 0.0, whole_word=True)
    t_in, t_lab = mlm_draws(tokenizer, enc, 1, seed, mlm_probability, 1.0, 0.0)
    rows = [("token", actions_of(enc, t_in[0], t_lab[0])), ("whole_word", actions_of(enc, inputs[0], labels[0]))]
    notes = []
    if segment.has_chinese(text):  # show the words the segmenter found: they are what is masked together
        found = [text[a:b] for a, b in segment.words(text) if text[a:b].strip()]
        notes.append(Note("segmentation", {"words": " / ".join(found)}))
    return _result("wwm", enc, inputs[0], labels[0], rows=rows, notes=notes)


def dynamic_masking(
    tokenizer,
    text: str,
    seed: int,
    epochs: int = 6,
    mlm_probability: float = 0.15,
    mask_replace_prob: float = 0.8,
    random_replace_prob: float = 0.1,
    **_: Any,
) -> MaskingResult:
    """RoBERTa: a fresh pattern every epoch, against BERT's one pattern reused (epochs x tokens grid)."""
    epochs = checks.whole(epochs, "epochs", 1, 20)
    enc = encode(tokenizer, text)
    args = (mlm_probability, mask_replace_prob, random_replace_prob)
    d_in, d_lab = mlm_draws(tokenizer, enc, epochs, seed, *args)
    static = actions_of(enc, d_in[0], d_lab[0])  # masked once in preprocessing, then reused every epoch
    rows = [(f"static {e + 1}", static) for e in range(epochs)]
    rows += [(f"dynamic {e + 1}", actions_of(enc, d_in[e], d_lab[e])) for e in range(epochs)]
    return _result("dynamic", enc, d_in[0], d_lab[0], rows=rows)
