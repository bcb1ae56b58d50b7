"""Layer by layer: what the model's own output head reads from each layer's hidden state at the prediction.

For a masked LM the head is its MLM head (BERT: transform + decoder), for a causal LM the final norm and the LM head;
the architectures table names them, and the Transformer-whole view (playground.forward) already computes this lens
from its one captured pass: this view reads that pass (the same cache), so a sentence run in either tab is not run
again in the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from playground import checks
from playground.forward import ForwardRequest, Readout, run_forward
from playground.insight import common
from playground.runtime import Runtime

MAX_TOP_K = 10


@dataclass(frozen=True)
class LensRequest:
    model: str
    text: str
    top_k: int = 5


@dataclass(frozen=True)
class LensResult:
    model: str
    model_id: str
    device: str
    causal: bool
    tokens: list[str]
    display: list[str]
    special: list[bool]
    position: int  # where the prediction is read (the [MASK], or the last token: the next one is predicted)
    answer: str  # the model's final top-1 there (vocabulary spelling)
    layers: int
    readouts: list[Readout]  # layer 0 (the embeddings' output) .. layers (the last block's output = the model's output)
    first_layer: int  # the first layer from which the answer stays the top-1 to the end (= layers: only at the end)
    first_seen: int | None  # the first layer whose top-k holds the answer


def check(request: LensRequest, runtime: Runtime) -> LensRequest:
    return LensRequest(
        common.model_key(request.model, runtime),
        common.text(request.text),
        checks.whole(request.top_k, "top_k", 1, MAX_TOP_K),
    )


def run_lens(request: LensRequest, runtime: Runtime) -> LensResult:
    """The logit lens at the prediction, from the forward view's cached pass."""
    request = check(request, runtime)
    r = run_forward(ForwardRequest(request.model, request.text, -1, request.top_k), runtime)
    rows = r.lens
    first = r.layers
    for row in reversed(rows):  # walk down from the output while the answer is still the top-1
        if row.answer_rank != 0:
            break
        first = row.layer
    seen = next((row.layer for row in rows if row.answer_rank < request.top_k), None)
    return LensResult(
        model=r.model,
        model_id=r.model_id,
        device=r.device,
        causal=r.causal,
        tokens=r.tokens,
        display=r.display,
        special=r.special,
        position=r.token,
        answer=r.top.tokens[0],
        layers=r.layers,
        readouts=rows,
        first_layer=first,
        first_seen=seen,
    )
