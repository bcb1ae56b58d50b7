"""Look inside a prediction: what each layer would predict, which tokens drove it, which heads matter, and how far
a change travels.

One backend entry per view, each `run_<view>(request, runtime) -> <View>Result` (frozen dataclasses):
`run_lens` (layer-by-layer readout, the logit lens), `run_attribution` (Integrated Gradients and gradient × input
beside one head's attention and the attention rollout), `run_knockout` (heads silenced with forward hooks, and
every head ranked by its effect) and `run_patching` (one position's hidden state copied from another sentence).
They all look at the same prediction: the [MASK] of a masked LM, the next token of a causal LM (insight.common).
"""

from playground.insight.attribution import AttributionRequest, AttributionResult, run_attribution
from playground.insight.common import KINDS
from playground.insight.knockout import KnockoutRequest, KnockoutResult, Ranked, parse_heads, run_knockout
from playground.insight.lens import LensRequest, LensResult, run_lens
from playground.insight.patching import PatchRequest, PatchResult, run_patching

__all__ = [
    "KINDS", "LensRequest", "LensResult", "run_lens", "AttributionRequest", "AttributionResult", "run_attribution",
    "KnockoutRequest", "KnockoutResult", "Ranked", "parse_heads", "run_knockout", "PatchRequest", "PatchResult",
    "run_patching",
]  # fmt: skip
