"""A teacher's warm-up before class: load and run each lesson's default view once, timing each.

The first student after a restart should not be the one who waits for a model to load (or a GGUF to convert).
`run_warmup` runs the default view of every demo through the same backend entries the tabs call (so their results
land in the shared caches, and the class's first identical request is served from there), on the first model of
each view's preference list that can load here: the lessons' online defaults, else their bundled stand-ins.
A view that fails is reported with its reason; the others still run.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

from playground import availability
from playground.lessons import BANK, MASKING_TEXT
from playground.runtime import Runtime
from playground import attention, sampling
from playground.elmo.views import ElmoBilmRequest, run_elmo_bilm
from playground.fill_mask import FillMaskRequest, run_fill_mask
from playground.inside.embeddings_input import EmbeddingsRequest, run_embeddings
from playground.masking import MaskingRequest, run_masking
from playground.polysemy import PolysemyRequest, run_polysemy


@dataclass(frozen=True)
class WarmupStep:
    view: str  # the demo and view, e.g. "fill_mask"
    model: str  # registry key used ("" when none could load)
    seconds: float  # load + run, wall time
    ok: bool
    error: str = ""


def _fill_mask(key: str, runtime: Runtime) -> Any:
    return run_fill_mask(FillMaskRequest("The capital of France is [MASK].", (key,), 5), runtime)


def _polysemy(key: str, runtime: Runtime) -> Any:
    return run_polysemy(PolysemyRequest("bank", BANK, (key,)), runtime)


def _masking(key: str, runtime: Runtime) -> Any:
    return run_masking(MaskingRequest(MASKING_TEXT, key, "bert"), runtime)


def _next_token(key: str, runtime: Runtime) -> Any:
    return sampling.run_next_token(sampling.NextTokenRequest("The future of AI is", key, 0.8, 40, 0.9), runtime)


def _attention(key: str, runtime: Runtime) -> Any:
    text = "The animal didn't cross the street because it was too tired."
    return attention.run_attention(attention.AttentionRequest(key, text), runtime)


def _inside(key: str, runtime: Runtime) -> Any:
    return run_embeddings(EmbeddingsRequest("the cat sat on the mat", "", key), runtime)


def _elmo(key: str, runtime: Runtime) -> Any:
    return run_elmo_bilm(ElmoBilmRequest(key, "the cat sat on the mat", 5), runtime)


# (view, model keys in order of preference, run): the lessons' defaults first, their bundled stand-ins after.
VIEWS: list[tuple[str, tuple[str, ...], Callable[[str, Runtime], Any]]] = [
    ("fill_mask", ("bert", "minilm-mlm", "smollm2-instruct"), _fill_mask),
    ("polysemy", ("bert", "minilm"), _polysemy),
    ("masking", ("bert", "minilm"), _masking),
    ("sampling", ("gpt2", "smollm2-instruct"), _next_token),
    ("attention", ("minilm", "bert"), _attention),
    ("inside", ("minilm", "bert"), _inside),
    ("elmo", ("elmo-small",), _elmo),
]


def run_warmup(views: list = VIEWS, runtime: Runtime | None = None) -> list[WarmupStep]:
    """Each view once, on its first model that can load here; seconds per view (load included). Pass the app's
    Runtime, so the results land in the caches the tabs read."""
    runtime = Runtime() if runtime is None else runtime
    available = {s.key for s in availability.available_specs()}
    steps = []
    for view, keys, run in views:
        key = next((k for k in keys if k in available), "")
        if not key:
            steps.append(WarmupStep(view, "", 0.0, False, "none of its models can load here: " + ", ".join(keys)))
            continue
        start = time.perf_counter()
        try:
            run(key, runtime)
        except Exception as exc:  # reported, not raised: the teacher sees which view is broken and why
            steps.append(WarmupStep(view, key, round(time.perf_counter() - start, 2), False, f"{type(exc).__name__}: {exc}"))
            continue
        steps.append(WarmupStep(view, key, round(time.perf_counter() - start, 2), True))
    return steps
