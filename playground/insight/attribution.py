"""Attribution beside attention: which input tokens drove the prediction, next to where attention looked.

Integrated Gradients (Sundararajan et al. 2017) over the input token embeddings, and gradient × input, for
f = log p(answer) at the prediction; beside them one head's attention row and the attention rollout (Abnar &
Zuidema 2020) at the same position, and a sentence computed from the four of them.

IG is written here (about 20 lines) rather than taken from Captum: Captum 0.9 installs from PyPI, but brings
matplotlib and four more packages into the app for one integral, its HF recipe needs the same forward wrapper and
baseline choices written anyway, and the page must report IG's own completeness error, which we compute. The
integral uses Gauss-Legendre nodes (Captum's default method too), so 32 steps meet completeness to well under 1 %
on the bundled models. Baseline: every ordinary token's embedding replaced by the padding token's (else the
unknown token's; the zero vector when the tokenizer has neither); special tokens, the [MASK] and the first token keep
theirs (the frame of the question, not its words), so their attribution is exactly 0 and the attributions sum to
f(x) − f(baseline). The first token, because in a causal model without a BOS token it is where attention sinks:
moving its embedding swings every later position's attention along the path, and 32 steps on SmolLM2 missed
completeness by 429 % with it and met it to 0.12 % without it (measured on "The capital of France is"; in BERT the
first token is [CLS] anyway). Not the zero vector for all: a pre-norm model (GPT-2, Llama) normalises each position's vector,
so near zero its output jumps (RMSNorm(αx) is the same for every α down to α ≈ √eps/|x|), and 32 steps missed that
jump on SmolLM2 (42 % completeness error measured); a token's embedding keeps the path's norm in range.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from playground import checks, device
from playground.capture import capture
from playground.insight import common
from playground.runtime import Runtime

MAX_STEPS = 256
CHUNK = 16  # interpolation steps per batched pass (bounded memory on a 128-token SmolLM2 pass)
RESULT_CACHE = 32


@dataclass(frozen=True)
class AttributionRequest:
    model: str
    text: str
    layer: int = -1  # the head's layer; -1: the last
    head: int = 0
    steps: int = 32  # IG's interpolation steps


@dataclass(frozen=True)
class AttributionResult:
    model: str
    model_id: str
    device: str
    causal: bool
    tokens: list[str]
    display: list[str]
    special: list[bool]
    attributable: list[bool]  # the tokens the baseline changes (not special, the [MASK] or the first); others score 0
    position: int
    answer: str
    answer_prob: float
    baseline: str  # the token whose embedding replaces each word in the baseline ("" for the zero vector)
    layer: int  # the head shown (the request's -1 resolved)
    head: int
    layers: int
    heads: int
    ig: list[float]  # per token: Integrated Gradients, summed over the embedding
    grad_input: list[float]  # per token: gradient × input at the sentence itself
    attention: list[float]  # the chosen head's attention row at the prediction
    rollout: list[float]  # attention rollout's row at the prediction
    f_input: float  # log p(answer) on the sentence
    f_baseline: float  # log p(answer) on the baseline
    ig_sum: float  # Σ ig: completeness says it equals f_input − f_baseline
    completeness: float  # |Σ ig − (f_input − f_baseline)| / |f_input − f_baseline|
    steps: int
    forward_seconds: float  # one forward pass
    ig_seconds: float  # the whole IG (steps passes with their gradients, batched)
    top_ig: int  # the attributable token with the largest |IG| (-1: none)
    top_rollout: int  # ... with the most rollout weight
    top_attention: int  # ... with the most of the chosen head's attention
    rank_agreement: float  # Spearman ρ of |IG| and rollout over the attributable tokens (nan: under 3 of them)
    special_attention: float  # the chosen head's attention on tokens that score 0 (special tokens, the [MASK])


def check(request: AttributionRequest, runtime: Runtime) -> AttributionRequest:
    return AttributionRequest(
        common.model_key(request.model, runtime),
        common.text(request.text),
        checks.whole(request.layer, "layer", -1, 255),
        checks.whole(request.head, "head", 0, 255),
        checks.whole(request.steps, "steps", 2, MAX_STEPS),
    )


def rollout(patterns: np.ndarray) -> np.ndarray:
    """Attention rollout (Abnar & Zuidema 2020): per layer the heads' mean with the residual as ½·I, rows
    renormalised, multiplied through the layers: (layers, heads, T, T) -> (T, T)."""
    T = patterns.shape[-1]
    out = np.eye(T)
    for layer in patterns.astype(np.float64):
        a = 0.5 * layer.mean(0) + 0.5 * np.eye(T)
        out = (a / a.sum(-1, keepdims=True)) @ out
    return out


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    if len(a) < 3:
        return float("nan")
    ra, rb = np.argsort(np.argsort(a)), np.argsort(np.argsort(b))
    if ra.std() == 0 or rb.std() == 0:
        return float("nan")
    return float(np.corrcoef(ra, rb)[0, 1])


def legendre(steps: int) -> tuple[np.ndarray, np.ndarray]:
    """Gauss-Legendre nodes and weights on [0, 1]: ∫₀¹ g ≈ Σ w·g(α)."""
    nodes, weights = np.polynomial.legendre.leggauss(steps)
    return (nodes + 1) / 2, weights / 2


def words_of(s: common.Sentence) -> list[bool]:
    """The tokens IG's baseline changes: not special, not the [MASK], not the first (see the module's docstring)."""
    return [i > 0 and not (sp or m) for i, (sp, m) in enumerate(zip(s.special, s.mask))]


def baseline_id(tokenizer: Any) -> int | None:
    """The token whose embedding is IG's baseline for each word: padding, else unknown, else None (zero vector)."""
    for token_id in (tokenizer.pad_token_id, tokenizer.unk_token_id):
        if token_id is not None:
            return int(token_id)
    return None


@device.entry(lambda lm, s, steps: 4 + steps / 4)
def attribute(lm: Any, s: common.Sentence, steps: int) -> dict[str, Any]:
    """One plain pass (attention, logits), then IG's batched passes with their gradients, and gradient × input."""
    import torch  # deferred: importing the package (the UI, the docs' checks) loads no torch

    model, position = lm.model, s.position
    extra = {k: v for k, v in common.inputs(lm, s).items() if k != "input_ids"}
    ids = torch.tensor([s.ids], device=lm.device)
    start = time.perf_counter()
    with torch.inference_mode(), capture(model, ["blocks.*.attn.pattern"]) as cache:
        logits = model(input_ids=ids, **extra).logits[0, position].float().cpu().numpy()
    forward_seconds = time.perf_counter() - start
    answer = int(np.argmax(logits))
    patterns = np.stack([t[0].numpy() for t in cache.values()])

    x = model.get_input_embeddings()(ids)[0].detach()  # (T, d): the token embeddings the model adds positions to
    keep = torch.tensor([not a for a in words_of(s)], device=x.device)[:, None]
    neutral = baseline_id(lm.tokenizer)
    fill = torch.zeros_like(x)
    if neutral is not None:
        fill = model.get_input_embeddings()(torch.tensor([neutral], device=x.device)).detach().expand_as(x)
    baseline = torch.where(keep, x, fill)

    def f(embeds: Any) -> Any:  # log p(answer) at the prediction, one per batch row
        n = embeds.shape[0]
        more = {k: v.expand(n, -1) for k, v in extra.items()}
        out = model(inputs_embeds=embeds, **more).logits[:, position].float()
        return out.log_softmax(-1)[:, answer]

    def grad(embeds: Any) -> tuple[Any, Any]:
        embeds = embeds.detach().requires_grad_(True)
        value = f(embeds)
        (g,) = torch.autograd.grad(value.sum(), embeds)  # w.r.t. the input only: no parameter's .grad is touched
        return value.detach(), g

    start = time.perf_counter()
    alphas, weights = legendre(steps)
    total = torch.zeros_like(x, dtype=torch.float32)
    with torch.enable_grad():
        for i in range(0, steps, CHUNK):
            a = torch.tensor(alphas[i : i + CHUNK], device=x.device, dtype=x.dtype)[:, None, None]
            w = torch.tensor(weights[i : i + CHUNK], device=x.device, dtype=torch.float32)[:, None, None]
            _, g = grad(baseline + a * (x - baseline))
            total += (w * g.float()).sum(0)
        ig_seconds = time.perf_counter() - start
        ends, g_x = grad(torch.stack([x, baseline]))
    ig = ((x - baseline).float() * total).sum(-1)
    grad_input = (x.float() * g_x[0].float()).sum(-1)
    return {
        "logits": logits,
        "answer": answer,
        "patterns": patterns,
        "ig": ig.cpu().numpy().astype(np.float64),
        "grad_input": grad_input.cpu().numpy().astype(np.float64),
        "f_input": float(ends[0]),
        "f_baseline": float(ends[1]),
        "forward_seconds": forward_seconds,
        "ig_seconds": ig_seconds,
    }


def _top(scores: np.ndarray, attributable: list[bool]) -> int:
    idx = [i for i, a in enumerate(attributable) if a]
    return max(idx, key=lambda i: scores[i]) if idx else -1


def run_attribution(request: AttributionRequest, runtime: Runtime) -> AttributionResult:
    request = check(request, runtime)
    lm, kind = common.load(runtime, request.model)
    layers, heads = lm.model.config.num_hidden_layers, lm.model.config.num_attention_heads
    layer = layers - 1 if request.layer < 0 else checks.whole(request.layer, "layer", 0, layers - 1)
    head = checks.whole(request.head, "head", 0, heads - 1)
    s = common.sentence(lm, request.text)

    def compute() -> dict[str, Any]:
        return attribute(lm, s, request.steps)

    raw = runtime.cached("insight attributions", RESULT_CACHE, (lm.spec.key, request.text, request.steps), compute,
                         request.model)  # fmt: skip
    attributable = words_of(s)
    ig, gi = raw["ig"], raw["grad_input"]
    attention = raw["patterns"][layer, head, s.position].astype(np.float64)
    roll = rollout(raw["patterns"])[s.position]
    delta = raw["f_input"] - raw["f_baseline"]
    idx = [i for i, a in enumerate(attributable) if a]
    probs = np.exp(common.log_softmax(raw["logits"]))
    return AttributionResult(
        model=lm.spec.key,
        model_id=lm.spec.hf_id,
        device=lm.device,
        causal=kind.causal,
        tokens=s.tokens,
        display=s.display,
        special=s.special,
        attributable=attributable,
        position=s.position,
        answer=lm.tokenizer.convert_ids_to_tokens([raw["answer"]])[0],
        answer_prob=round(float(probs[raw["answer"]]), 6),
        baseline="" if baseline_id(lm.tokenizer) is None else lm.tokenizer.convert_ids_to_tokens([baseline_id(lm.tokenizer)])[0],
        layer=layer,
        head=head,
        layers=layers,
        heads=heads,
        ig=np.round(ig, 6).tolist(),
        grad_input=np.round(gi, 6).tolist(),
        attention=np.round(attention, 5).tolist(),
        rollout=np.round(roll, 5).tolist(),
        f_input=round(raw["f_input"], 6),
        f_baseline=round(raw["f_baseline"], 6),
        ig_sum=round(float(ig.sum()), 6),
        completeness=float(abs(ig.sum() - delta) / max(abs(delta), 1e-12)),
        steps=request.steps,
        forward_seconds=raw["forward_seconds"],
        ig_seconds=raw["ig_seconds"],
        top_ig=_top(np.abs(ig), attributable),
        top_rollout=_top(roll, attributable),
        top_attention=_top(attention, attributable),
        rank_agreement=spearman(np.abs(ig[idx]), roll[idx]),
        special_attention=round(float(sum(a for a, ok in zip(attention, attributable) if not ok)), 5),
    )
