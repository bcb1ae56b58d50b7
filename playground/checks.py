"""The one set of field validators: every entry checks what arrives (UI event, API call, share link) through here.

Gradio passes JSON values through as they come: a client may send None, a list, a string, NaN, ±inf, a
fraction, 2**70 or a lone surrogate where the page would send a plain number or text. Each validator
returns the value normalised (ints as int, reals as float) or raises `InputError` with ONE wording per kind
of field, naming the parameter as the API spells it (`WORDINGS` lists them; the UI has each in English
and Chinese under `error.<code>`). Nothing is coerced: `top_k=2.9` and `seed=-0.5` are refused, never
truncated, and a value is never echoed back beyond its parameter's name.

Seeds: one cap for every endpoint, `MAX_SEED = 2**32 - 1`. It is the range every generator used here
accepts: numpy's legacy `np.random.seed` (what `transformers.set_seed` calls) takes 0..2**32-1, torch's
`Generator.manual_seed` takes up to 2**64-1, `np.random.default_rng` any non-negative integer.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Iterable

from playground.errors import InputError
from playground.registry import get_spec

MAX_SEED = 2**32 - 1

# code -> the one English wording of that kind of refusal (the UI's string tables translate each code).
WORDINGS = {
    "input_not_text": "{name} must be text.",
    "input_text_too_long": "{name} is longer than {limit} characters.",
    "input_bad_unicode": "{name} contains characters that are not valid Unicode.",
    "input_not_whole": "{name} must be a whole number from {low} to {high}.",
    "input_not_number": "{name} must be a number from {low} to {high}.",
    "input_not_number_above": "{name} must be a number above {low} and at most {high}.",
    "input_not_layer": "{name} must be 'last' or a whole number from 0 to {high}.",
    "input_not_flag": "{name} must be true or false.",
    "input_not_choice": "{name} must be one of: {choices}.",
    "input_not_list": "{name} must be a list of at most {limit} {items}.",
    "unknown_model": "Unknown model {name!r}: only models listed by the operator can be used.",
    "input_model_kind": "{model} cannot be used here: {name} must be a model of kind {kinds}.",
}


def fail(code: str, **params: Any) -> InputError:
    """The refusal of kind `code`, in its one wording."""
    return InputError(code, WORDINGS[code], **params)


def _shown(x: float) -> str:
    """A bound as a student reads it: 2 not 2.0, 4294967295 not 4.29e+09, 0.000001 not 1e-06."""
    return str(int(x)) if float(x).is_integer() else f"{float(x):.12f}".rstrip("0")


def _real(value: Any) -> float | None:
    """A finite real number as float, or None for anything else (bools, strings, None, lists, NaN, ±inf, 2**2000)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:  # an int beyond float range
        return None
    return number if math.isfinite(number) else None


def text(value: Any, name: str, limit: int, allow_none: bool = False) -> str:
    """A string of valid Unicode (no lone surrogate), at most `limit` characters; None -> "" when allowed."""
    if value is None and allow_none:
        return ""
    if not isinstance(value, str):
        raise fail("input_not_text", name=name)
    if len(value) > limit:
        raise fail("input_text_too_long", name=name, limit=limit)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise fail("input_bad_unicode", name=name) from None
    return value


def whole(value: Any, name: str, low: int, high: int) -> int:
    """A whole number in low..high: 3 and 3.0 pass, 1.5 / "3" / True / NaN are refused (never truncated)."""
    number = _real(value)
    if number is None and isinstance(value, int) and not isinstance(value, bool):
        number = math.inf  # an int too big for a float is out of any range
    if number is None or not number.is_integer() or not low <= number <= high:
        raise fail("input_not_whole", name=name, low=_shown(low), high=_shown(high))
    return int(value)


def seed(value: Any, name: str = "seed") -> int:
    """A seed: a whole number 0..MAX_SEED, the same for every endpoint."""
    return whole(value, name, 0, MAX_SEED)


def number(value: Any, name: str, low: float, high: float, low_open: bool = False) -> float:
    """A finite real number in [low, high] (or (low, high] with `low_open`)."""
    result = _real(value)
    if result is None or result > high or result < low or (low_open and result == low):
        code = "input_not_number_above" if low_open else "input_not_number"
        raise fail(code, name=name, low=_shown(low), high=_shown(high))
    return result


def probability(value: Any, name: str) -> float:
    """A probability: a real number from 0 to 1."""
    return number(value, name, 0.0, 1.0)


def layer(value: Any, name: str, high: int) -> int | None:
    """'last' (None, "" or "last") -> None; a whole number 0..high, also as digits ("3", from a menu) -> that number."""
    if value is None or (isinstance(value, str) and value.strip() in ("", "last")):
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    try:
        return whole(value, name, 0, high)
    except InputError:
        raise fail("input_not_layer", name=name, high=high) from None


def flag(value: Any, name: str) -> bool:
    """true or false; 0/1, "true" and None are refused (JSON has booleans)."""
    if not isinstance(value, bool):
        raise fail("input_not_flag", name=name)
    return value


def choice(value: Any, name: str, options: Iterable[str]) -> str:
    """One of `options` (strings); anything else is refused, listing the options."""
    options = tuple(options)
    if not isinstance(value, str) or value not in options:
        raise fail("input_not_choice", name=name, choices=", ".join(options))
    return value


def strings(
    value: Any, name: str, limit: int, each_limit: int = 200, items: str = "texts", unique: bool = False
) -> tuple[str, ...]:
    """A list (or tuple) of at most `limit` strings, each valid text of at most `each_limit` characters
    (`unique`: duplicates and empty entries dropped before counting, the first of each kept in order)."""
    wrong = fail("input_not_list", name=name, limit=limit, items=items)
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        raise wrong
    for item in value:
        if not isinstance(item, str):
            raise wrong
        text(item, name, each_limit)
    value = tuple(dict.fromkeys(k for k in value if k)) if unique else tuple(value)
    if len(value) > limit:
        raise wrong
    return value


def keys(value: Any, name: str, limit: int) -> tuple[str, ...]:
    """A list of model keys (strings): empty entries dropped, duplicates kept once, in order; at most `limit`."""
    return strings(value, name, limit, items="model keys", unique=True)


def numbers(value: Any, name: str, limit: int, each: Callable[[Any], float]) -> tuple[float, ...]:
    """A list of at most `limit` numbers, each checked by `each` (None -> empty)."""
    if value is None:
        return ()
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)) or len(value) > limit:
        raise fail("input_not_list", name=name, limit=limit, items="numbers")
    return tuple(each(v) for v in value)


def model_key(value: Any, name: str = "model", kinds: Iterable[str] | None = None) -> str:
    """An allow-listed model key whose kind is one of `kinds` (None: any kind); refused before anything loads."""
    if not isinstance(value, str) or not value:
        raise fail("input_not_text", name=name)
    try:
        spec = get_spec(value)
    except ValueError:
        raise fail("unknown_model", name=text(value, name, 10_000)[:80]) from None
    kinds = tuple(kinds) if kinds is not None else None
    if kinds is not None and spec.kind not in kinds:
        raise fail("input_model_kind", model=spec.label, name=name, kinds=" or ".join(kinds))
    return spec.key
