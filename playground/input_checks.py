"""Type checks for API parameters: a wrong type or value becomes the parameter's own clear InputError.

Gradio passes JSON values through as they come: a client may send None, a list, a string,
NaN, ±inf, a fraction, 2**70 or a lone surrogate where the tab would send a plain number or text.
Each checker takes the InputError to raise (the message that names the parameter and its range), so
"temperature = 'x'" and "temperature = 9" get the same sentence a student already knows.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from playground.errors import InputError

Fail = Callable[[], InputError]


def number(value: Any, fail: Fail, low: float, high: float, low_open: bool = False) -> float:
    """A finite real number in [low, high] (or (low, high] with `low_open`); bools, strings, None, lists refused."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise fail()
    try:
        value = float(value)
    except OverflowError:  # an int beyond float range
        raise fail() from None
    if not math.isfinite(value) or value > high or value < low or (low_open and value == low):
        raise fail()
    return value


def whole(value: Any, fail: Fail, low: int, high: int) -> int:
    """A whole number in [low, high]: 3 and 3.0 pass, 1.5 is refused (never truncated)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise fail()
    if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
        raise fail()
    value = int(value)
    if not low <= value <= high:
        raise fail()
    return value


def text(value: Any, name: str, limit: int, allow_none: bool = False) -> str:
    """A string of valid Unicode, at most `limit` characters (None -> "" when allowed)."""
    if value is None and allow_none:
        return ""
    if not isinstance(value, str):
        raise InputError("input_not_text", "{name} must be text.", name=name)
    if len(value) > limit:
        raise InputError("input_text_too_long", "{name} is longer than {limit} characters.", name=name, limit=limit)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError("input_bad_unicode", "{name} contains characters that are not valid Unicode.", name=name) from None
    return value


def key(value: Any, fail: Fail) -> str:
    """A model key: a string (None -> "", the default); anything else is refused with the caller's message."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise fail()
    return value


def numbers(value: Any, fail: Fail, limit: int, each: Callable[[Any], float]) -> tuple[float, ...]:
    """A list of at most `limit` numbers, each checked by `each` (None -> empty)."""
    if value is None:
        return ()
    if not isinstance(value, (list, tuple)) or len(value) > limit:
        raise fail()
    return tuple(each(v) for v in value)
