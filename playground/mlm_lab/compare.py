"""Before and after, for a sentence of the student's own: the base model and the session's fine-tune side by side.

Both run through the fill-mask entry (`run_fill_mask`), the fine-tune as this session's model of the Runtime
(`with_session`): the base's reading comes from the shared cache, the fine-tune's is never cached.
"""

from __future__ import annotations

from dataclasses import dataclass

from playground.fill_mask import FillMaskRequest, run_fill_mask
from playground.mlm_lab.sessions import LabModel
from playground.registry import LAB_MODEL_KEY
from playground.runtime import Runtime

TOP_K = 5


@dataclass(frozen=True)
class CompareRow:
    mask: int  # which [MASK] of the sentence, from 1
    rank: int  # from 1
    before: str  # the base model's word at this rank
    before_p: float
    after: str  # the fine-tune's
    after_p: float


@dataclass(frozen=True)
class LabCompare:
    text: str
    base_model: str  # provenance: the base's hub id, and the fine-tune's description
    tuned_model: str
    rows: list[CompareRow]


def compare_models(found: LabModel, text: str, runtime: Runtime, top_k: int = TOP_K) -> LabCompare:
    """Top-k words per [MASK] from the base model and from this session's fine-tune of it."""
    request = FillMaskRequest(text, (found.base_key, LAB_MODEL_KEY), top_k)
    run = run_fill_mask(request, runtime.with_session({LAB_MODEL_KEY: found.model}))
    base, tuned = run.fills
    rows = [
        CompareRow(m, rank, b.word, b.probability, a.word, a.probability)
        for m, (pb, pa) in enumerate(zip(base.readings[0].predictions, tuned.readings[0].predictions), start=1)
        for rank, (b, a) in enumerate(zip(pb, pa), start=1)
    ]
    return LabCompare(run.request.text, base.model_id, tuned.model_id, rows)
