"""Activation patching, BERT vs GPT: one position's hidden state copied from sentence A into sentence B.

The hidden state entering block `layer` at `position` is replaced, in B's forward pass, by A's at the same place
(`playground.capture`'s `replace`); every position's output distribution is then compared with B's own. A causal
model cannot let the patch reach a position to its left (each token sees only the past), so those outputs stay
exactly B's; a bidirectional one lets it reach every position. That is the difference between the two families
made visible as an effect on the prediction rather than as a mask picture.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from playground import checks, device
from playground.capture import capture
from playground.errors import InputError
from playground.insight import common
from playground.runtime import Runtime

CHANGED = 1e-4  # a position counts as changed when its output distribution moved by more (total variation)
RESULT_CACHE = 32


@dataclass(frozen=True)
class PatchRequest:
    model: str
    text: str  # B: the sentence that runs, and receives the patch
    source: str = "The capital of Italy is [MASK]."  # A: where the patched hidden state comes from
    layer: int = 0  # the hidden state entering this block
    position: int = -1  # -1: the first position where A's and B's tokens differ


@dataclass(frozen=True)
class PatchResult:
    model: str
    model_id: str
    device: str
    causal: bool
    tokens: list[str]  # B
    display: list[str]
    source_tokens: list[str]  # A
    source_display: list[str]
    layer: int
    layers: int
    position: int
    change: list[float]  # per position of B: total variation between B's output distribution and the patched one
    logit_change: list[float]  # per position: max |Δ logit|
    top_before: list[str]  # per position: B's own top-1
    top_after: list[str]  # per position: the top-1 after the patch
    changed: list[int]  # positions whose output moved (change > CHANGED)
    left_change: float  # the largest change left of the patch (a causal model: 0)
    right_change: float  # the largest change right of the patch


def check(request: PatchRequest, runtime: Runtime) -> PatchRequest:
    return PatchRequest(
        common.model_key(request.model, runtime),
        common.text(request.text),
        common.text(request.source, "source"),
        checks.whole(request.layer, "layer", 0, 255),
        checks.whole(request.position, "position", -1, 255),
    )


@device.entry(lambda lm, a, b, layer, position: 4)
def patch(lm: Any, a: common.Sentence, b: common.Sentence, layer: int, position: int) -> dict[str, np.ndarray]:
    """B's logits at every position, without and with A's hidden state entering block `layer` at `position`."""
    import torch  # deferred: importing the package loads no torch

    stage = f"blocks.{layer}.resid_pre"
    with torch.inference_mode():
        with capture(lm.model, [stage]) as theirs:
            lm.model(**common.inputs(lm, a))
        vector = theirs[stage][0, position]

        def put(x: Any) -> Any:
            x = x.clone()
            x[:, position] = vector.to(x.dtype).to(x.device)
            return x

        plain = lm.model(**common.inputs(lm, b)).logits[0].float().cpu().numpy()
        with capture(lm.model, [], {stage: put}):
            patched = lm.model(**common.inputs(lm, b)).logits[0].float().cpu().numpy()
    return {"plain": plain, "patched": patched}


def first_difference(a: list[int], b: list[int]) -> int:
    n = min(len(a), len(b))
    return next((i for i in range(n) if a[i] != b[i]), n - 1)


def run_patching(request: PatchRequest, runtime: Runtime) -> PatchResult:
    request = check(request, runtime)
    lm, kind = common.load(runtime, request.model)
    layers = lm.model.config.num_hidden_layers
    layer = checks.whole(request.layer, "layer", 0, layers - 1)
    b, a = common.sentence(lm, request.text), common.sentence(lm, request.source)
    n = min(len(a.ids), len(b.ids))
    position = first_difference(a.ids, b.ids) if request.position < 0 else request.position
    if position >= n:
        raise InputError("insight_bad_position", "position must be -1 or 0-{last} (both sentences have it).", last=n - 1)
    key = (lm.spec.key, request.text, request.source, layer, position)
    raw = runtime.cached("insight patches", RESULT_CACHE, key, lambda: patch(lm, a, b, layer, position), request.model)
    p, q = (np.exp(common.log_softmax(raw[k])) for k in ("plain", "patched"))
    change = 0.5 * np.abs(p - q).sum(-1)
    logit_change = np.abs(raw["plain"] - raw["patched"]).max(-1)
    return PatchResult(
        model=lm.spec.key,
        model_id=lm.spec.hf_id,
        device=lm.device,
        causal=kind.causal,
        tokens=b.tokens,
        display=b.display,
        source_tokens=a.tokens,
        source_display=a.display,
        layer=layer,
        layers=layers,
        position=position,
        change=np.round(change, 6).tolist(),
        logit_change=[float(x) for x in logit_change],
        top_before=lm.tokenizer.convert_ids_to_tokens(p.argmax(-1).tolist()),
        top_after=lm.tokenizer.convert_ids_to_tokens(q.argmax(-1).tolist()),
        changed=[i for i, c in enumerate(change) if c > CHANGED],
        left_change=float(change[:position].max()) if position else 0.0,
        right_change=float(change[position + 1 :].max()) if position + 1 < len(change) else 0.0,
    )
