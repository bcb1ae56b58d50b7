"""The Transformer, whole: one forward pass through a real model, every stage captured by name and checked.

`run_forward(ForwardRequest, runtime) -> ForwardResult`: for a sentence and a model, the tokens; for the chosen
token the vector of every stage (embeddings, each block's q/k/v, attention, heads concatenated, × W^O, residual,
norm, FFN, the final norm and head), each checked against its formula; per layer the residual stream's norm and
the norms of the attention and FFN updates; every layer's attention for every head; what each layer would predict
(the logit lens) and the final top-k. One pass per (model, sentence), shared through the runtime's cache.
"""

from __future__ import annotations

from dataclasses import dataclass

from playground import checks
from playground.errors import InputError
from playground.forward import passes
from playground.forward.lens import Logits, Readout
from playground.forward.result import VECTOR_VALUES, ForwardResult, StageVector, build_result
from playground.runtime import Runtime
from playground.architectures import KINDS as BLOCKS
from playground.architectures import block_kind
from playground.registry import registry

__all__ = [
    "ForwardRequest", "ForwardResult", "StageVector", "Readout", "Logits", "run_forward", "model_keys", "KINDS",
    "VECTOR_VALUES",
]  # fmt: skip

KINDS = ("masked", "causal", "encoder")  # model kinds with a stack of self-attention blocks to show
MAX_TOP_K = 20
PASS_CACHE = 2  # whole passes kept (each up to ~150 MB at MAX_TOKENS on SmolLM2)
RESULT_CACHE = 64  # results kept (~0.5-1 MB each)


@dataclass(frozen=True)
class ForwardRequest:
    model: str
    text: str
    token: int = -1  # the chosen token's index; -1: the first [MASK], else the last token that is not special
    top_k: int = 5


def model_keys() -> list[str]:
    """The registered models this view can show: a kind with a stack of blocks and a block layout the table knows
    (the page's menu; any other is refused with "forward_unknown_architecture" or "input_model_kind")."""
    return [s.key for s in registry().values() if s.kind in KINDS and s.model_type in BLOCKS]


def check_request(request: ForwardRequest, runtime: Runtime) -> ForwardRequest:
    """The request with every field checked (the checks' wordings), before any model loads."""
    key = request.model
    if not (isinstance(key, str) and key in runtime.session):
        key = runtime.spec(key, "model", KINDS).key
    return ForwardRequest(
        key,
        checks.text(request.text, "text", passes.MAX_TEXT_CHARS),
        checks.whole(request.token, "token", -1, passes.MAX_TOKENS - 1),
        checks.whole(request.top_k, "top_k", 1, MAX_TOP_K),
    )


def chosen_token(pass_: passes.Pass, token: int) -> int:
    if token >= len(pass_.ids):
        raise InputError("forward_bad_token", "token must be -1 or 0-{last}.", last=len(pass_.ids) - 1)
    if token >= 0:
        return token
    if any(pass_.mask):
        return pass_.mask.index(True)
    plain = [i for i, s in enumerate(pass_.special) if not s]
    return plain[-1] if plain else len(pass_.ids) - 1


def run_forward(request: ForwardRequest, runtime: Runtime) -> ForwardResult:
    """One forward pass per (model, sentence), every stage at the chosen token; refuses unknown block layouts."""
    request = check_request(request, runtime)
    lm = runtime.model(request.model)
    block_kind(lm.model, lm.spec.label)  # refused before the pass runs
    # One pass per (model, sentence), one result per chosen token; a session's own model is computed for this call
    # alone (Runtime.cached), never kept in a shared cache.
    key = (lm.spec.key, request.text)
    pass_ = runtime.cached("forward passes", PASS_CACHE, key, lambda: passes.capture_pass(lm, request.text), request.model)
    token = chosen_token(pass_, request.token)

    def result() -> ForwardResult:
        lens_logits = passes.read_lens(lm, passes.residual_stream(pass_, token)) if passes.has_head(pass_) else None
        return build_result(lm, pass_, token, request.top_k, lens_logits)

    return runtime.cached("forward results", RESULT_CACHE, (*key, token, request.top_k), result, request.model)
