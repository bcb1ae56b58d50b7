"""Fill-mask, the demo's backend entry: every chosen model fills the blanks of one sentence.

`run_fill_mask(FillMaskRequest(text, models, top_k))` validates the request, asks
each model for its readings through the `READINGS` table (a masked LM gives one,
a causal LM two: see playground.fill_mask.causal) and returns one `FillMaskRun`: per
model its readings, plus language-neutral notes (a code and its parameters; the
UI words them). A model's readings are pure in (model, text, top-k), so they are
kept in a single-flight cache: a class pressing the same preset computes it once.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable

from playground import device
from playground.text_units import has_cjk, not_reading_chinese
from playground.availability import available_specs
from playground.fill_mask.causal import fill_blanks_causal
from playground.errors import InputError
from playground.fill_mask.data import Reading, check_model_keys, check_top_k, count_masks, split_at_masks
from playground.fill_mask.masked import fill_blanks_masked
from playground.fill_mask.measured import weak_on_everyday_chinese
from playground.models import LoadedModel
from playground.runtime import Runtime
from playground.registry import ModelSpec

RESULTS_KEPT = 512  # (model, text, top-k) results kept; each is a few kilobytes


@dataclass(frozen=True)
class FillMaskRequest:
    text: str  # 1–8 [MASK]s (case-insensitive)
    models: tuple[str, ...] | None = None  # registry keys; None = the default selection (see default_models)
    top_k: int = 5  # 1–20

    def validate(self) -> FillMaskRequest:
        """The request with its types and ranges checked (InputError otherwise), model keys as a tuple."""
        count_masks(self.text)
        return dataclasses.replace(self, models=check_model_keys(self.models), top_k=check_top_k(self.top_k))


@dataclass(frozen=True)
class ModelFill:
    model_key: str
    model_id: str  # the hub id of the weights that ran (provenance)
    label: str
    device: str
    readings: list[Reading]  # one per way this kind of model fills a blank
    pool_size: int | None = None  # candidate words rescored per blank (causal models only)
    unknown: tuple[str, ...] = ()  # pieces of the text this model reads as its unknown token ([UNK]), in order
    tokens: int = 0  # tokens of the text outside the blanks (to tell "some" from "every" piece unknown)


@dataclass(frozen=True)
class Note:
    code: str  # "unknown" | "all_unknown" | "no_chinese" | "no_chinese_model" | "weak_zh" | "byte_pieces" | "pool" |
    # "truncated":
    # text key fill_mask.<code>
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class FillMaskRun:
    request: FillMaskRequest  # as run: defaults filled in, top-k a whole number
    fills: list[ModelFill]  # one per model, in the order asked
    notes: list[Note]


# GPU seconds asked per call (playground.device): a second or two of work at most, the rest is ZeroGPU's start.
@device.entry(lambda lm, text, top_k: 4 + len(text) / 400)
def _read_masked(lm: LoadedModel, text: str, top_k: int) -> tuple[list[Reading], int | None]:
    return fill_blanks_masked(lm, [text], top_k), None


@device.entry(lambda lm, text, top_k: 5 + len(text) / 200)  # a pool of candidate words rescored per blank
def _read_causal(lm: LoadedModel, text: str, top_k: int) -> tuple[list[Reading], int | None]:
    (both,) = fill_blanks_causal(lm, [text], top_k)
    return [both.left, both.whole], both.pool_size


# How each kind of model fills a blank: one reading for a masked LM, two for a causal one.
READINGS: dict[str, Callable[[LoadedModel, str, int], tuple[list[Reading], int | None]]] = {
    "masked": _read_masked,
    "causal": _read_causal,
}
KINDS = tuple(READINGS)


def default_models() -> list[str]:
    """Every available masked LM; the causal fallback only when there is none (offline)."""
    masked = [s.key for s in available_specs("masked")]
    return masked or [s.key for s in available_specs("causal")]


def _specs(keys: tuple[str, ...] | None, runtime: Runtime) -> list[ModelSpec]:
    """The specs of models that can fill a blank, in the order asked: this session's own, else allow-listed ones."""
    keys = default_models() if keys is None else [k for k in keys if k]
    if not keys:
        raise InputError("no_models", "Choose at least one model.")
    return [runtime.spec(key, "models", tuple(READINGS)) for key in keys]


def unknown_pieces(tokenizer: Any, text: str) -> tuple[tuple[str, ...], int]:
    """The pieces of `text` (outside its [MASK]s) that `tokenizer` reads as its unknown token, and its token count.

    Asked of the tokenizer itself, with character offsets, so "银" is named rather than "[UNK]".
    """
    unk = tokenizer.unk_token_id
    found, total = [], 0
    for piece in split_at_masks(text):
        if not piece.strip():
            continue
        enc = tokenizer(piece, add_special_tokens=False, return_offsets_mapping=tokenizer.is_fast)
        total += len(enc.input_ids)
        if unk is None:
            continue
        spans = enc["offset_mapping"] if tokenizer.is_fast else [None] * len(enc.input_ids)
        found += [piece[s[0] : s[1]] if s else tokenizer.unk_token for i, s in zip(enc.input_ids, spans) if i == unk]
    return tuple(found), total


def chinese_readers() -> list[ModelSpec]:
    """The models that can fill a blank here and read Chinese (offline: e5-mlm, gpt-zh)."""
    return [s for s in available_specs(*KINDS) if s.speaks("zh")]


def _notes(text: str, specs: list[ModelSpec], fills: list[ModelFill], own: frozenset[str] = frozenset()) -> list[Note]:
    """What the reader should know, computed from the inputs and the results (worded by the UI); `own`: this
    session's model keys (a lab model is not the bundled one whose measure is on file).

    A model that does not read Chinese text is told once, with the readers available here to choose instead; "no
    Chinese model here" only when there is none (issue 37 item 4: both at once contradicted each other)."""
    deaf = {spec.key for spec in not_reading_chinese(text, specs)}
    readers = [s.key for s in chinese_readers()] if deaf else []
    notes = []
    for fill in fills:  # first: what makes a model's answer meaningless (the UI shows these as warnings)
        if fill.unknown:
            pieces = list(dict.fromkeys(fill.unknown))
            code = "all_unknown" if len(fill.unknown) >= fill.tokens else "unknown"
            notes.append(Note(code, {"model": fill.model_id, "n": len(fill.unknown), "total": fill.tokens, "pieces": pieces}))
    for spec, fill in zip(specs, fills):
        if spec.key in deaf:
            notes.append(Note("no_chinese", {"model": fill.model_id, "readers": readers}))
    if specs and len(deaf) == len(specs) and not readers:
        notes.append(Note("no_chinese_model"))
    for spec, fill in zip(specs, fills):  # a reader of Chinese whose Chinese answers measured weak: the figure
        weak = weak_on_everyday_chinese(spec.key) if has_cjk(text) and spec.key not in deaf | own else None
        if weak is not None:
            percent = round(100 * weak.hit_at_5)
            notes.append(Note("weak_zh", {"model": fill.model_id, "percent": percent, "blanks": weak.blanks}))
    for fill in fills:  # a lone byte among the answers: what `<0xE5>` is, or the bar reads as a strange word
        pieces = list(dict.fromkeys(p.piece for r in fill.readings for preds in r.predictions for p in preds if p.byte))
        if pieces:
            notes.append(Note("byte_pieces", {"model": fill.model_id, "pieces": pieces[:6]}))
    notes += [Note("pool", {"model": fill.model_id, "n": fill.pool_size}) for fill in fills if fill.pool_size]
    notes += [Note("truncated", {"model": fill.model_id}) for fill in fills for r in fill.readings if r.truncated]
    return notes


def run_fill_mask(request: FillMaskRequest, runtime: Runtime) -> FillMaskRun:
    """Fill every [MASK] of `request.text` with each chosen model.

    `runtime.model(key)` gives a model (tests build a Runtime with tiny ones); the readings functions are
    `playground.device` entries, so on a ZeroGPU Space they run inside `spaces.GPU` while the cache stays in this
    process. `runtime.session` holds the caller's own models (its MLM lab model) by keys that are never registry
    keys: they run as given and their readings are never cached, so no other session can be served them.
    """
    request = request.validate()
    top_k = request.top_k
    specs = _specs(request.models, runtime)
    text = request.text

    def fill(spec: ModelSpec) -> ModelFill:
        lm = runtime.model(spec.key)
        readings, pool = READINGS[spec.kind](lm, text, top_k)
        unknown, tokens = unknown_pieces(lm.tokenizer, text)
        return ModelFill(spec.key, lm.spec.hf_id, spec.label, str(lm.device), readings, pool, unknown, tokens)

    fills = [
        runtime.cached("fill_mask", RESULTS_KEPT, (spec.key, text, top_k), lambda spec=spec: fill(spec), spec.key)
        for spec in specs
    ]
    ran = dataclasses.replace(request, models=tuple(s.key for s in specs), top_k=top_k)
    return FillMaskRun(ran, fills, _notes(text, specs, fills, frozenset(runtime.session)))
