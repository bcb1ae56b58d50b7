"""Type and range checks for a MaskingRequest: whatever arrives through the API (None, lists, inf, NaN,
fractions, lone surrogates, huge integers) is refused with a clear InputError, never passed on to
numpy or torch to fail with a library message ("Overflow when unpacking long long").
"""

from __future__ import annotations

import math
from dataclasses import replace
from numbers import Real
from typing import Any

from playground.errors import InputError

MAX_TEXT = 2000  # characters: a sentence (only the first 64 tokens are used anyway)
MAX_SEED = 2**32 - 1  # numpy and torch both accept every seed in 0..2**32-1


def _number(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, Real):
        raise InputError("masking_not_number", "{name} must be a number.", name=name)
    value = float(value)
    if not math.isfinite(value):
        raise InputError("masking_not_finite", "{name} must be a finite number.", name=name)
    return value


def whole(name: str, value: Any, low: int, high: int, out_of_range: InputError | None = None) -> int:
    """A whole number in low..high (7.0 is 7; 1.5 is refused, never truncated)."""
    number = _number(name, value)
    if not number.is_integer():
        raise InputError("masking_not_whole", "{name} must be a whole number.", name=name)
    if not low <= number <= high:
        raise out_of_range or InputError(
            "masking_out_of_range", "{name} must be between {low} and {high}.", name=name, low=low, high=high
        )
    return int(number)


def probability(name: str, value: Any) -> float:
    number = _number(name, value)
    if not 0.0 <= number <= 1.0:
        raise InputError("masking_probability", "{name} must be between 0 and 1.", name=name)
    return number


def text(value: Any) -> str:
    if not isinstance(value, str):
        raise InputError("masking_no_text", "Type a sentence.")
    if len(value) > MAX_TEXT:
        raise InputError("masking_text_long", "The sentence is too long (at most {max} characters).", max=MAX_TEXT)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError("masking_bad_text", "The sentence contains characters that are not valid text.") from None
    return value


def name(field: str, value: Any) -> str:
    """A key (model, objective, generator): a short string."""
    if not isinstance(value, str) or not value or len(value) > 200:
        raise InputError("masking_not_name", "{name} must be one of the listed names.", name=field)
    return value


def validate(request):
    """The request with its numbers normalised (ints as int, probabilities as float), or InputError."""
    from playground.masking.stats import MAX_DRAWS  # stats imports numpy/torch; this module stays light
    from playground.masking.encoding import MAX_TOKENS

    return replace(
        request,
        text=text(request.text),
        model=name("model", request.model),
        strategy=name("strategy", request.strategy),
        seed=whole("seed", request.seed, 0, MAX_SEED),
        mlm_probability=probability("mlm_probability", request.mlm_probability),
        mask_replace_prob=probability("mask_replace_prob", request.mask_replace_prob),
        random_replace_prob=probability("random_replace_prob", request.random_replace_prob),
        epochs=whole("epochs", request.epochs, 1, 20, InputError("masking_epochs", "Choose between 1 and 20 epochs.")),
        prefix_len=None if request.prefix_len is None else whole("prefix_len", request.prefix_len, 1, MAX_TOKENS),
        generator=name("generator", request.generator),
        draws=whole(
            "draws",
            request.draws,
            0,
            MAX_DRAWS,
            InputError("masking_draws", "Choose between 1 and {max} draws.", max=MAX_DRAWS),
        ),
    )
