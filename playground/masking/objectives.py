"""The OBJECTIVES table: one row per pre-training objective, and `run_masking`, the one entry that dispatches on it.

A new objective is one module (its draw function, and a statistics function if it has one), one row
here, one renderer entry in `ui/masking/render.py` and its texts in `ui/masking/text.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Callable

from playground import checks as field_checks
from playground.runtime import Runtime
from playground.errors import InputError
from playground.masking import bert, checks, electra, permutation, spans, stats
from playground.masking.results import IGNORE, MaskingRequest, MaskingRun, Note
from playground.registry import get_spec

# Models whose tokenizer the objectives can use (static vectors look words up whole: no tokenizer).
TOKENIZER_KINDS = ("masked", "encoder", "causal", "seq2seq", "discriminator", "permutation")

_MLM = ("mlm_probability", "mask_replace_prob", "random_replace_prob")


@dataclass(frozen=True)
class Objective:
    draw: Callable[..., Any]  # draw(text=, seed=, **the inputs named in `reads`) -> MaskingResult
    reads: tuple[str, ...]  # request fields, plus "tokenizer" / "load" / "load_tokenizer" / "cache" when it needs them
    stats: Callable[..., Any] | None = None  # its statistics mode (tokenizer, enc, draws, seed, **reads), if any


OBJECTIVES: dict[str, Objective] = {
    "bert": Objective(bert.bert_masking, ("tokenizer", *_MLM), stats.mlm_stats),
    "wwm": Objective(bert.whole_word_masking, ("tokenizer", "mlm_probability"), stats.wwm_stats),
    "dynamic": Objective(bert.dynamic_masking, ("tokenizer", "epochs", *_MLM), stats.dynamic_stats),
    "span": Objective(spans.span_masking, ("tokenizer", "mask_replace_prob", "random_replace_prob"), stats.span_stats),
    "permutation": Objective(permutation.permutation_lm, ("tokenizer",), stats.permutation_stats),
    # ELECTRA needs a model pass per draw (generator, discriminator): no statistics mode.
    "electra": Objective(electra.electra_masking, ("model", "mlm_probability", "generator", "load", "load_tokenizer", "cache")),
    # T5: a T5 model chosen (its own sentinels) also answers the corrupted sentence (masking/fill.py)
    "t5": Objective(spans.t5_span_corruption, ("tokenizer", "model", "load"), stats.t5_stats),
    "attention": Objective(permutation.attention_families, ("tokenizer", "prefix_len")),  # deterministic: no statistics
}


def _check(request: MaskingRequest) -> MaskingRequest:
    """Refuse what no objective can run, in words a student understands; numbers come back normalised."""
    request = checks.validate(request)
    field_checks.choice(request.strategy, "strategy", OBJECTIVES)
    field_checks.model_key(request.model, "model", TOKENIZER_KINDS)
    electra.resolve_generator(request.generator, request.model)  # a malformed generator is refused for every objective
    return request


def _inputs(row: Objective, request: MaskingRequest, runtime: Runtime) -> dict[str, Any]:
    """What the row reads: request fields by name; the tokenizer and loaders are provided, the tokenizer only when read."""
    provided = {
        "tokenizer": lambda: runtime.tokenizer(request.model),
        "load": lambda: runtime.model,
        "load_tokenizer": lambda: runtime.tokenizer,
        "cache": lambda: runtime.cache,  # (name, capacity) -> the runtime's cache: model passes kept across requests
    }
    return {name: provided[name]() if name in provided else getattr(request, name) for name in row.reads}


SELECTING = ("bert", "wwm", "dynamic")  # each token is selected with probability p: a seed can select none


def _nothing_selected(result, request: MaskingRequest):
    """A draw with no token selected says so (with how often that happens), instead of showing a blank grid."""
    n = sum(a != "special" for a in result.actions)
    p = float(request.mlm_probability)
    note = Note("nothing_selected", {"seed": request.seed, "p": p, "n": n, "chance": (1 - p) ** n})
    return replace(result, notes=[note, *result.notes])


def run_masking(request: MaskingRequest, runtime: Runtime) -> MaskingRun:
    """One draw of the objective, plus its statistics over `request.draws` draws when it has a statistics mode.

    `runtime` gives the tokenizer (and, for ELECTRA, the models); tests build one with tiny models."""
    request = _check(request)
    row = OBJECTIVES[request.strategy]
    seed = request.seed
    inputs = _inputs(row, request, runtime)
    result = row.draw(text=request.text, seed=seed, **inputs)
    if request.strategy in SELECTING and all(label == IGNORE for label in result.labels):
        result = _nothing_selected(result, request)
    statistics = None
    if request.draws and int(request.draws) > 0 and row.stats is not None:
        params = {k: v for k, v in inputs.items() if k != "tokenizer"}
        statistics = stats.measure(row.stats, request.strategy, inputs["tokenizer"], request.text, request.draws, seed, **params)
    return MaskingRun(
        model=get_spec(request.model).hf_id,
        statistics=statistics,
        request=request,
        **{f.name: getattr(result, f.name) for f in fields(result)},
    )


def masking_statistics(tokenizer, text: str, strategy: str, draws: int, seed: int, **params: Any):
    """The statistics mode of `strategy` on a tokenizer, without a model key (tests, notebooks)."""
    row = OBJECTIVES.get(strategy)
    if row is None or row.stats is None:
        raise InputError(
            "masking_no_stats",
            "No statistics for {strategy}: it is deterministic or needs a model pass per draw.",
            strategy=str(strategy)[:80],
        )
    return stats.measure(row.stats, strategy, tokenizer, text, draws, seed, **params)
