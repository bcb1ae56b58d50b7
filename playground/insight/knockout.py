"""Knock heads out and watch the prediction: one head, a set, a whole layer, and every head ranked by its effect.

A head is silenced by zeroing its columns of the heads' concatenation (W^O's input) with a forward hook
(`playground.capture.knock_out_heads`), never with `head_mask`: transformers 5.23 accepts head_mask for BERT,
GPT-2 and others and silently ignores it. The ranking runs every single-head knock-out in batched passes, one
batch row per head (`capture.knock_out_each`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from playground import checks, device
from playground.capture import capture, knock_out_each, knock_out_heads
from playground.errors import InputError
from playground.insight import common
from playground.runtime import Runtime

MAX_TOP_K = 10
MAX_HEADS_CHARS = 400
RANK_BATCH = 16  # single-head knock-outs per batched pass
RANKED = 10  # heads listed in the ranking (the grid has them all)
RESULT_CACHE = 32
_ITEM = re.compile(r"^(?:(\d+)\.(\d+|\*)|(\d+)|\*|all)$")


@dataclass(frozen=True)
class KnockoutRequest:
    model: str
    text: str
    heads: str = ""  # "3.7" one head, "3.7, 4.1" a set, "3" or "3.*" a whole layer, "*" or "all" every head
    top_k: int = 5


@dataclass(frozen=True)
class Ranked:
    layer: int
    head: int
    delta: float  # p(answer) with this head alone silenced, minus p(answer) with every head
    top: str  # the top-1 with this head alone silenced


@dataclass(frozen=True)
class KnockoutResult:
    model: str
    model_id: str
    device: str
    tokens: list[str]
    display: list[str]
    special: list[bool]
    position: int
    layers: int
    heads: int
    knocked: list[tuple[int, int]]  # the heads silenced, (layer, head), in order
    answer: str  # the model's top-1 with every head
    before_tokens: list[str]  # top-k with every head
    before_probs: list[float]
    after_tokens: list[str]  # top-k with the chosen heads silenced
    after_probs: list[float]
    answer_before: float
    answer_after: float  # p(the original answer) with the heads silenced
    top_changed: bool
    total_variation: float  # ½ Σ |p_before − p_after| over the vocabulary
    effects: np.ndarray  # (layers, heads): each head alone silenced, p(answer) change
    ranking: list[Ranked]  # the RANKED heads with the largest |change|, largest first


def parse_heads(value: str, layers: int | None = None, heads: int | None = None) -> list[tuple[int, int]]:
    """The heads a spec names, in order, once each; syntax checked without sizes, ranges with them."""
    out: list[tuple[int, int]] = []
    for item in filter(None, re.split(r"[\s,;，；]+", value.strip())):
        m = _ITEM.match(item)
        if not m:
            raise InputError(
                "insight_bad_heads", "{item!r} names no head: write layer.head (3.7), a layer (3 or 3.*) or * for all.",
                item=item[:20],
            )  # fmt: skip
        if layers is None:
            continue
        if m.group(0) in ("*", "all"):
            out += [(i, h) for i in range(layers) for h in range(heads)]
            continue
        layer = int(m.group(1) or m.group(3))
        chosen = range(heads) if m.group(3) or m.group(2) == "*" else [int(m.group(2))]
        if layer >= layers or any(h >= heads for h in chosen):
            raise InputError(
                "insight_head_range", "{item} is outside this model: layers 0-{last_layer}, heads 0-{last_head}.",
                item=item, last_layer=layers - 1, last_head=heads - 1,
            )  # fmt: skip
        out += [(layer, h) for h in chosen]
    return list(dict.fromkeys(out))


def check(request: KnockoutRequest, runtime: Runtime) -> KnockoutRequest:
    model = common.model_key(request.model, runtime)
    text = common.text(request.text)
    heads = checks.text(request.heads, "heads", MAX_HEADS_CHARS)
    parse_heads(heads)  # the syntax, before the model loads
    return KnockoutRequest(model, text, heads, checks.whole(request.top_k, "top_k", 1, MAX_TOP_K))


@device.entry(lambda lm, s, knocked: 4 + lm.model.config.num_hidden_layers * lm.model.config.num_attention_heads / 16)
def knock_out(lm: Any, s: common.Sentence, knocked: list[tuple[int, int]]) -> dict[str, np.ndarray]:
    """Log-probabilities at the prediction: with every head, with `knocked` silenced, and with each head alone."""
    import torch  # deferred: importing the package loads no torch

    model, config = lm.model, lm.model.config
    every = [(i, h) for i in range(config.num_hidden_layers) for h in range(config.num_attention_heads)]
    single = []
    with torch.inference_mode():
        with capture(model, [], knock_out_heads(model, knocked)):
            after = model(**common.inputs(lm, s)).logits[0, s.position].float().cpu().numpy()
        plain = model(**common.inputs(lm, s)).logits[0, s.position].float().cpu().numpy()
        for i in range(0, len(every), RANK_BATCH):
            chunk = every[i : i + RANK_BATCH]
            with capture(model, [], knock_out_each(model, chunk)):
                single.append(model(**common.inputs(lm, s, len(chunk))).logits[:, s.position].float().cpu().numpy())
    return {"plain": common.log_softmax(plain), "after": common.log_softmax(after),
            "single": common.log_softmax(np.concatenate(single))}  # fmt: skip


def run_knockout(request: KnockoutRequest, runtime: Runtime) -> KnockoutResult:
    request = check(request, runtime)
    lm, _ = common.load(runtime, request.model)
    layers, heads = lm.model.config.num_hidden_layers, lm.model.config.num_attention_heads
    knocked = parse_heads(request.heads, layers, heads)
    s = common.sentence(lm, request.text)
    key = (lm.spec.key, request.text, tuple(knocked))
    raw = runtime.cached("insight knock-outs", RESULT_CACHE, key, lambda: knock_out(lm, s, knocked), request.model)
    before, after, single = (np.exp(raw[k]) for k in ("plain", "after", "single"))
    answer = int(np.argmax(before))
    b_tokens, _, b_probs = common.top(lm.tokenizer, before, request.top_k)
    a_tokens, _, a_probs = common.top(lm.tokenizer, after, request.top_k)
    effects = (single[:, answer] - before[answer]).reshape(layers, heads)
    tops = lm.tokenizer.convert_ids_to_tokens(single.argmax(-1).tolist())
    order = np.argsort(-np.abs(effects).reshape(-1), kind="stable")[:RANKED]
    return KnockoutResult(
        model=lm.spec.key,
        model_id=lm.spec.hf_id,
        device=lm.device,
        tokens=s.tokens,
        display=s.display,
        special=s.special,
        position=s.position,
        layers=layers,
        heads=heads,
        knocked=knocked,
        answer=b_tokens[0],
        before_tokens=b_tokens,
        before_probs=b_probs,
        after_tokens=a_tokens,
        after_probs=a_probs,
        answer_before=round(float(before[answer]), 6),
        answer_after=round(float(after[answer]), 6),
        top_changed=bool(int(np.argmax(after)) != answer),
        total_variation=round(float(0.5 * np.abs(before - after).sum()), 6),
        effects=np.round(effects, 6),
        ranking=[Ranked(int(i) // heads, int(i) % heads, round(float(effects.reshape(-1)[i]), 6), tops[i]) for i in order],
    )
