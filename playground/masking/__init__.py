"""Pre-training masking objectives on one sentence: BERT, whole-word, dynamic, SpanBERT, XLNet, ELECTRA, T5, UniLM.

The entry is `run_masking(MaskingRequest, Runtime) -> MaskingRun`; the OBJECTIVES table in `objectives.py` says which
module draws each objective, which request fields it reads, and whether it has a statistics mode.
"""

from playground.masking.objectives import OBJECTIVES, TOKENIZER_KINDS, masking_statistics, run_masking
from playground.masking.results import MaskingRequest, MaskingResult, MaskingRun, MaskingStats, Note, Rate

__all__ = [
    "OBJECTIVES",
    "TOKENIZER_KINDS",
    "MaskingRequest",
    "MaskingResult",
    "MaskingRun",
    "MaskingStats",
    "Note",
    "Rate",
    "masking_statistics",
    "run_masking",
]
