"""Results as JSON: the API returns each demo's frozen Result dataclass as it is, made JSON-ready here."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np


def jsonable(value: Any) -> Any:
    """Dataclasses, numpy arrays and scalars, tuples and dicts -> plain JSON types (NaN and ±inf -> None)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value) if f.repr}
    if isinstance(value, np.ndarray):
        return jsonable(value.tolist())
    if isinstance(value, np.generic):
        return jsonable(value.item())
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if value is None or isinstance(value, (str, int, bool)):
        return value
    return str(value)
