"""What a fill-mask query and its answers look like, without torch: the figures and the UI import this.

A query is a sentence with 1–8 `[MASK]`s; an answer is a *reading*: one way a
model fills the blanks (a masked LM reads the whole sentence once; a causal LM
reads it twice, left context only and whole sentence), with the top-k words per
blank.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from playground import checks
from playground.errors import InputError

MASK = "[MASK]"
MAX_MASKS = 8
MAX_TOP_K = 20
MAX_TEXT_CHARS = 50_000  # characters a query may have; longer ones are refused before any tokenizer runs
MAX_MODELS = 8  # models one query may ask for
_MASK_RE = re.compile(re.escape(MASK), re.IGNORECASE)


@dataclass(frozen=True)
class Prediction:
    word: str  # as a reader sees it ("paris")
    raw: str  # the vocabulary token ("▁paris", "Ġparis", "paris")
    token_id: int
    probability: float
    piece: str = ""  # the vocabulary piece as a reader can read it: "␣Paris" for `ĠParis`, "<0xE5>" for a lone byte

    @property
    def byte(self) -> bool:
        """A lone byte of a UTF-8 character (`<0xE5>`): not a character, let alone a word."""
        return self.piece.startswith("<0x") or "\ufffd" in self.word


@dataclass(frozen=True)
class Reading:
    method: str  # "masked" | "left-context" | "whole-sentence"
    input_text: str  # the text as the model saw it (a masked LM's own mask token substituted)
    predictions: list[list[Prediction]]  # per mask (left to right), top-k most probable first
    truncated: bool  # the text was cut to a window around the masks


def check_text(text: Any) -> str:
    """A query's text: valid Unicode (no lone surrogate), at most MAX_TEXT_CHARS characters."""
    return checks.text(text, "text", MAX_TEXT_CHARS)


def count_masks(text: Any) -> int:
    """Validate a fill-mask query; returns how many [MASK]s it has (1..8)."""
    if not check_text(text).strip():
        raise InputError("empty_text", "Please type a sentence.")
    n = len(_MASK_RE.findall(text))
    if n == 0:
        raise InputError("no_mask", "Put [MASK] where a word is missing, e.g. 'The capital of France is [MASK].'")
    if n > MAX_MASKS:
        raise InputError("too_many_masks", "At most {max} [MASK]s at once (found {n}).", max=MAX_MASKS, n=n)
    return n


def check_top_k(top_k: Any) -> int:
    """A whole number 1..MAX_TOP_K (never truncated)."""
    return checks.whole(top_k, "top_k", 1, MAX_TOP_K)


def check_model_keys(keys: Any) -> tuple[str, ...] | None:
    """None (the default selection) or a list of at most MAX_MODELS model keys, duplicates dropped."""
    return None if keys is None else checks.keys(keys, "models", MAX_MODELS)


def split_at_masks(text: str) -> list[str]:
    """The text between masks: n masks give n + 1 pieces."""
    return _MASK_RE.split(text)


def substitute_masks(text: str, mask_token: str) -> str:
    """The text with a model's own mask token (`[MASK]`, `<mask>`, ...) in place of each [MASK]."""
    return _MASK_RE.sub(mask_token, text)
