"""What a bundled model's blanks measured, where its answer is known to be weak: read from its training summary.

A model trained here records how it measured on text it never read (scripts/e5_mlm_eval.py writes e5-mlm's into
assets/e5_mlm/summary.json["evaluation"]["this_overlay"]). The fill-mask tab shows that figure beside the answer when
the text is of the kind measured, so a student sees "hit@5 on held-out everyday Chinese: 20 %" next to a wrong
guess instead of taking the guess for what the model knows. The figure is read from the file, never repeated here.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass

from playground.availability import ASSETS

# Model key -> its summary (relative to assets/): one row per model measured this way.
SUMMARIES = {"e5-mlm": "e5_mlm/summary.json"}
# Below one hit in two the top answers are more often wrong than right: the reader is told.
WEAK_BELOW = 0.5


@dataclass(frozen=True)
class Measured:
    hit_at_5: float  # share of held-out blanks whose answer was among the top 5
    blanks: int  # how many held-out blanks that share is of


@functools.cache
def everyday_chinese(model_key: str) -> Measured | None:
    """The model's hit@5 on held-out everyday Chinese (the HSK split), or None where none was measured."""
    name = SUMMARIES.get(model_key)
    path = ASSETS / name if name else None
    if path is None or not path.is_file():
        return None
    held = json.loads(path.read_text(encoding="utf-8")).get("evaluation", {}).get("this_overlay", {}).get("hsk_held_out")
    return Measured(float(held["hit_at_5"]), int(held["blanks"])) if held else None


def weak_on_everyday_chinese(model_key: str) -> Measured | None:
    """The measure, when it says the model's Chinese answers are weak (WEAK_BELOW); else None."""
    found = everyday_chinese(model_key)
    return found if found is not None and found.hit_at_5 < WEAK_BELOW else None
