import json
from dataclasses import dataclass, field

import numpy as np

from playground.serialize import jsonable


@dataclass(frozen=True)
class Inner:
    scores: np.ndarray
    best: np.float32


@dataclass(frozen=True)
class Outer:
    name: str
    inner: list[Inner]
    pairs: tuple[tuple[int, float], ...]
    hidden: object = field(default=None, repr=False)  # e.g. a tokenizer kept for rendering, never sent


def test_results_become_plain_json():
    out = jsonable(Outer("x", [Inner(np.array([[1.5, np.nan]]), np.float32(0.25))], ((1, float("inf")),), hidden=object()))
    assert out == {"name": "x", "inner": [{"scores": [[1.5, None]], "best": 0.25}], "pairs": [[1, None]]}
    json.dumps(out, allow_nan=False)  # strict JSON: no NaN, no Infinity
