"""What every "look inside a prediction" view shares: the checked sentence, the prediction it looks at, one pass.

The prediction is the output at one position: the first [MASK] for a masked LM (the blank), else the last token
that is not special (for a causal LM: the next token after the sentence). Its answer is the model's own top-1 there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from playground import checks
from playground.architectures import BlockKind, block_kind
from playground.attention.maps import display_labels
from playground.errors import InputError
from playground.forward import passes
from playground.runtime import Runtime

KINDS = ("masked", "causal")  # a model with an output head: a prediction to look inside
MAX_TEXT_CHARS = passes.MAX_TEXT_CHARS


@dataclass(frozen=True)
class Sentence:
    """One tokenized sentence and the prediction the views look at."""

    ids: list[int]
    segments: list[int]
    tokens: list[str]  # vocabulary spelling (the page escapes)
    display: list[str]  # how a token reads where the spelling does not ("␣bank"), else ""
    special: list[bool]
    mask: list[bool]  # the model's mask token
    position: int  # where the prediction is read


def model_key(key: Any, runtime: Runtime) -> str:
    """A registered masked or causal LM (or this session's own), refused before it loads otherwise."""
    return runtime.spec(key, "model", KINDS).key


def text(value: Any, name: str = "text") -> str:
    value = checks.text(value, name, MAX_TEXT_CHARS)
    if not value.strip():
        raise InputError("forward_empty_text", "Type a sentence first.")
    return value


def load(runtime: Runtime, key: str) -> tuple[Any, BlockKind]:
    lm = runtime.model(key)
    return lm, block_kind(lm.model, lm.spec.label)  # refused before any pass for a layout the table lacks


def sentence(lm: Any, value: str) -> Sentence:
    enc = passes.encode(lm, value)
    ids, special = enc["ids"], enc["special"]
    mask_id = getattr(lm.tokenizer, "mask_token_id", None)
    mask = [mask_id is not None and i == mask_id for i in ids]
    plain = [i for i, s in enumerate(special) if not s]
    position = mask.index(True) if any(mask) else (plain[-1] if plain else len(ids) - 1)
    return Sentence(
        ids=ids,
        segments=enc["segments"],
        tokens=lm.tokenizer.convert_ids_to_tokens(ids),
        display=display_labels(lm.tokenizer, ids),
        special=special,
        mask=mask,
        position=position,
    )


def inputs(lm: Any, s: Sentence, batch: int = 1) -> dict[str, Any]:
    """The model's keyword arguments for `batch` copies of the sentence."""
    found = passes.model_inputs(lm, s.ids, s.segments)
    return {k: v.expand(batch, -1) for k, v in found.items()}


def log_softmax(logits: np.ndarray) -> np.ndarray:
    z = logits.astype(np.float64)
    z = z - z.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def top(tokenizer: Any, probs: np.ndarray, k: int) -> tuple[list[str], list[int], list[float]]:
    """The k most probable tokens (spelling, id, probability), most probable first."""
    ids = np.argsort(-probs, kind="stable")[:k]
    return tokenizer.convert_ids_to_tokens(ids.tolist()), ids.tolist(), [round(float(probs[i]), 6) for i in ids]


def label(s: Sentence, i: int) -> str:
    return s.display[i] or s.tokens[i]
