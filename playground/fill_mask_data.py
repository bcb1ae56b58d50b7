"""What a fill-mask query and its answers look like, without torch: the figures and the UI import this.

A query is a sentence with 1–8 `[MASK]`s; an answer is a *reading*: one way a
model fills the blanks (a masked LM reads the whole sentence once; a causal LM
reads it twice, left context only and whole sentence), with the top-k words per
blank.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

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


@dataclass(frozen=True)
class Reading:
    method: str  # "masked" | "left-context" | "whole-sentence"
    input_text: str  # the text as the model saw it (a masked LM's own mask token substituted)
    predictions: list[list[Prediction]]  # per mask (left to right), top-k most probable first
    truncated: bool  # the text was cut to a window around the masks


def check_text(text: Any) -> str:
    """A query's text: a string of valid Unicode (no lone surrogate), at most MAX_TEXT_CHARS characters."""
    if not isinstance(text, str):
        raise InputError("fill_mask.text_type", "The text must be a string (got {kind}).", kind=type(text).__name__)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError("fill_mask.text_unicode", "The text contains a character that is not valid Unicode.") from None
    if len(text) > MAX_TEXT_CHARS:
        raise InputError(
            "fill_mask.text_chars", "The text is {n} characters long; at most {max}.", n=len(text), max=MAX_TEXT_CHARS
        )
    return text


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
    """A whole number 1..MAX_TOP_K; refuses None, bools, strings, lists, inf, NaN and fractions (never truncates)."""
    ok = isinstance(top_k, (int, float)) and not isinstance(top_k, bool)
    if not ok or not math.isfinite(top_k) or int(top_k) != top_k or not 1 <= int(top_k) <= MAX_TOP_K:
        raise InputError("bad_top_k", "top-k must be a whole number from 1 to {max}.", max=MAX_TOP_K)
    return int(top_k)


def check_model_keys(keys: Any) -> tuple[str, ...] | None:
    """None (the default selection) or a list of model keys: strings, at most MAX_MODELS, duplicates dropped."""
    if keys is None:
        return None
    if isinstance(keys, (str, bytes)) or not isinstance(keys, (list, tuple)):
        raise InputError("fill_mask.models_type", "models must be a list of model keys (got {kind}).", kind=type(keys).__name__)
    bad = next((k for k in keys if not isinstance(k, str)), "")
    if not isinstance(bad, str):
        raise InputError(
            "fill_mask.models_type", "models must be a list of model keys (got a {kind} in it).", kind=type(bad).__name__
        )
    keys = tuple(dict.fromkeys(keys))
    if len(keys) > MAX_MODELS:
        raise InputError("fill_mask.too_many_models", "At most {max} models at once (got {n}).", max=MAX_MODELS, n=len(keys))
    return keys


def split_at_masks(text: str) -> list[str]:
    """The text between masks: n masks give n + 1 pieces."""
    return _MASK_RE.split(text)


def substitute_masks(text: str, mask_token: str) -> str:
    """The text with a model's own mask token (`[MASK]`, `<mask>`, ...) in place of each [MASK]."""
    return _MASK_RE.sub(mask_token, text)
