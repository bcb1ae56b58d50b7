"""Sampling the next token: how temperature, top-k and top-p reshape a causal model's distribution.

The transforms are transformers' own TemperatureLogitsWarper, TopKLogitsWarper and
TopPLogitsWarper, applied in the order `model.generate` applies them, so what the
student sees is exactly what `generate(do_sample=True, ...)` draws from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch
from transformers import LogitsProcessorList, TemperatureLogitsWarper, TopKLogitsWarper, TopPLogitsWarper

from playground import availability, checks, device, text_units
from playground.errors import InputError
from playground.models import LoadedModel
from playground.runtime import Runtime

MAX_TEMPERATURE = 2.0
# The smallest temperature above 0: scores divided by 1e-40 overflow float32 to inf, and their softmax is NaN (a
# traceback from torch.multinomial, bare NaNs in /next_token's JSON). 0 is the limit, the greedy choice.
MIN_TEMPERATURE = 1e-4
MAX_NEW_TOKENS = 200
MAX_SAMPLES = 5
MAX_TOP_K = 1000  # top-k beyond this keeps practically the whole distribution anyway
MAX_TEMPERATURES = 8  # views one /next_token call may ask for (`temperatures`)
MAX_PROMPT_CHARS = 5000  # characters of a prompt (the token limit of the model applies too)
N_SHOWN = 20  # tokens drawn as bars
STAGES = ("raw", "temperature", "top_k", "top_p")
KINDS = ("causal",)  # the model kinds that sample text left to right


@dataclass(frozen=True)
class SamplingSettings:
    temperature: float = 0.8  # 0 = greedy (argmax); top_k / top_p are then irrelevant
    top_k: int = 0  # 0 = off
    top_p: float = 1.0  # 1 = off

    @property
    def greedy(self) -> bool:
        return self.temperature == 0


def settings(temperature: float, top_k: int, top_p: float) -> SamplingSettings:
    """Checked settings (temperature 0 = greedy, top_k 0 and top_p 1 = off), or the checks' InputError."""
    temperature = check_temperature(temperature, "temperature")
    top_k = checks.whole(top_k, "top_k", 0, MAX_TOP_K)
    top_p = checks.number(top_p, "top_p", 0, 1, low_open=True)
    return SamplingSettings(temperature, top_k, top_p)


def check_temperature(value: Any, name: str) -> float:
    """0 (greedy) or a number from MIN_TEMPERATURE to MAX_TEMPERATURE, or the checks' InputError."""
    temperature = checks.number(value, name, 0, MAX_TEMPERATURE)
    if 0 < temperature < MIN_TEMPERATURE:
        raise InputError(
            "input_temperature_tiny",
            "{name} must be 0 (greedy) or from {low} to {high}: a smaller temperature overflows the scores "
            "(0 is its limit, the greedy choice).",
            name=name,
            low=f"{MIN_TEMPERATURE:g}",
            high=f"{MAX_TEMPERATURE:g}",
        )
    return temperature


def check_prompt(prompt: Any) -> str:
    return checks.text(prompt, "prompt", MAX_PROMPT_CHARS)


def check_model(model: Any) -> str:
    """A causal model's key; None or "" = the default causal model."""
    if model is None or model == "":
        return ""
    return checks.model_key(model, "model", KINDS)


def stage_warpers(s: SamplingSettings) -> list[LogitsProcessorList]:
    """The cumulative warper chain after each stage (temperature, +top-k, +top-p), skipping what generate skips."""
    temperature = [TemperatureLogitsWarper(s.temperature)] if s.temperature not in (0, 1) else []
    top_k = [TopKLogitsWarper(s.top_k)] if s.top_k else []
    top_p = [TopPLogitsWarper(s.top_p)] if s.top_p < 1 else []
    return [
        LogitsProcessorList(temperature),
        LogitsProcessorList(temperature + top_k),
        LogitsProcessorList(temperature + top_k + top_p),
    ]


def warp(logits: torch.Tensor, s: SamplingSettings) -> torch.Tensor:
    """Scores the next token is drawn from: (batch, vocab) float32 logits -> warped scores (-inf = filtered)."""
    if s.greedy:  # the limit T -> 0: all mass on the argmax
        scores = torch.full_like(logits, -float("inf"))
        return scores.scatter(-1, logits.argmax(-1, keepdim=True), 0.0)
    return stage_warpers(s)[-1](None, logits)  # these warpers never read input_ids


def entropy_bits(probs: torch.Tensor) -> float:
    p = probs[probs > 0]
    return float(-(p * p.log2()).sum())


@dataclass(frozen=True)
class Distribution:
    """The top tokens of one next-token distribution at each stage of the sampler."""

    token_ids: list[int]  # the N_SHOWN most probable under the raw softmax, most probable first
    tokens: list[str]  # how each reads (a lone piece of a multi-byte character shows its bytes: <0xE4>)
    probs: dict[str, np.ndarray]  # stage -> (N_SHOWN,) probabilities after that stage, renormalised
    entropy: dict[str, float]  # stage -> entropy in bits of the whole-vocabulary distribution
    kept: dict[str, int]  # stage -> how many vocabulary tokens the stage has not filtered out
    shown_kept: dict[str, np.ndarray]  # stage -> (N_SHOWN,) bool, False = filtered out (a kept token may still round to 0)
    chosen: int | None = None  # token id drawn from this distribution (step-through)
    chosen_rank: int | None = None  # 1 = the raw favourite
    chosen_prob: float | None = None  # its probability in the final stage

    @property
    def nucleus_size(self) -> int:
        return self.kept["top_p"]

    def to_dict(self) -> dict:
        return {
            "tokens": self.tokens,
            "token_ids": self.token_ids,
            "probs": {k: [round(float(p), 6) for p in v] for k, v in self.probs.items()},
            "entropy_bits": {k: round(v, 4) for k, v in self.entropy.items()},
            "kept": self.kept,
            "filtered": {k: [not bool(x) for x in v] for k, v in self.shown_kept.items()},
            "nucleus_size": self.nucleus_size,
            "chosen": self.chosen,
            "chosen_rank": self.chosen_rank,
            "chosen_prob": None if self.chosen_prob is None else round(self.chosen_prob, 6),
        }


def token_text(tokenizer, token_id: int) -> str:
    """One token as readable text, spaces and line breaks made visible; a lone byte piece as `<0xE4>`, never "�"."""
    return text_units.visible(text_units.display_pieces(tokenizer, [token_id])[0])


def distribution(lm: LoadedModel, logits: torch.Tensor, s: SamplingSettings, chosen: int | None = None) -> Distribution:
    """Stage-by-stage view of one (vocab,) logits row."""
    logits = logits.float().reshape(1, -1)
    staged = {"raw": logits}
    if s.greedy:
        staged.update(dict.fromkeys(STAGES[1:], warp(logits, s)))
    else:
        staged.update(zip(STAGES[1:], (chain(None, logits.clone()) for chain in stage_warpers(s))))
    full = {k: v.softmax(-1)[0] for k, v in staged.items()}
    top = full["raw"].topk(min(N_SHOWN, logits.shape[-1]))
    ids = top.indices.tolist()
    rank = prob = None
    if chosen is not None:
        rank = int((full["raw"] > full["raw"][chosen]).sum()) + 1
        prob = float(full["top_p"][chosen])
    return Distribution(
        token_ids=ids,
        tokens=[token_text(lm.tokenizer, i) for i in ids],
        probs={k: v[top.indices].cpu().numpy() for k, v in full.items()},
        entropy={k: entropy_bits(v) for k, v in full.items()},
        kept={k: int(torch.isfinite(v).sum()) for k, v in staged.items()},
        shown_kept={k: torch.isfinite(v[0, top.indices]).cpu().numpy() for k, v in staged.items()},
        chosen=chosen,
        chosen_rank=rank,
        chosen_prob=prob,
    )


@dataclass(frozen=True)
class NextTokenResult:
    model_key: str
    model_id: str
    device: str
    prompt: str
    settings: tuple[SamplingSettings, ...]  # one per view
    views: tuple[Distribution, ...]
    model_label: str = ""
    no_chinese: bool = False  # the prompt has Chinese characters the model was not trained on (a note, not in the JSON)
    # The raw next-token logits, (vocab,) float32: the page redraws the stages for another temperature, top-k or top-p
    # from them in the browser (not in the JSON: the API's views already carry what they asked for).
    logits: np.ndarray | None = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict:
        return {
            "model": self.model_key,
            "model_id": self.model_id,
            "device": self.device,
            "prompt": self.prompt,
            "views": [
                {"temperature": s.temperature, "top_k": s.top_k, "top_p": s.top_p, **v.to_dict()}
                for s, v in zip(self.settings, self.views)
            ],
        }


def encode_prompt(lm: LoadedModel, prompt: str, new_tokens: int = 0) -> list[int]:
    """Prompt token ids as the text-generation pipeline makes them (no special tokens added)."""
    ids = lm.tokenizer(prompt, add_special_tokens=False)["input_ids"]
    if not ids:
        if lm.tokenizer.bos_token_id is None:
            raise InputError("sampling_empty_prompt", "Type a prompt for the model to continue.")
        ids = [lm.tokenizer.bos_token_id]  # an empty prompt means "start of text"
    limit = min(lm.spec.max_length, getattr(lm.model.config, "max_position_embeddings", None) or lm.spec.max_length)
    if len(ids) + new_tokens > limit:
        raise InputError(
            "sampling_too_long",
            "Prompt ({n} tokens) plus new tokens ({new}) exceeds the model's {limit} positions.",
            n=len(ids),
            new=new_tokens,
            limit=limit,
        )
    return ids


@torch.inference_mode()
def next_token_logits(lm: LoadedModel, ids: list[int]) -> torch.Tensor:
    """(vocab,) float32 logits for the token after `ids`."""
    out = lm.model(torch.tensor([ids], device=lm.device), logits_to_keep=1, use_cache=False)
    return out.logits[0, -1].float()


@device.entry(4)
def next_token(lm: LoadedModel, prompt: str, variants: list[SamplingSettings]) -> NextTokenResult:
    """The next-token distribution for `prompt` under each settings variant (one forward pass)."""
    if not variants:
        raise ValueError("give at least one set of sampling settings")
    logits = next_token_logits(lm, encode_prompt(lm, prompt))
    views = tuple(distribution(lm, logits, s) for s in variants)
    return NextTokenResult(
        lm.spec.key, lm.spec.hf_id, lm.device, prompt, tuple(variants), views, lm.spec.label, unsupported_chinese(lm, prompt),
        logits.cpu().numpy().astype(np.float32),
    )  # fmt: skip


def unsupported_chinese(lm: LoadedModel, prompt: str) -> bool:
    """Whether the prompt has Chinese characters and the model does not speak Chinese (the tab then says so)."""
    return bool(text_units.not_reading_chinese(prompt, [lm.spec]))


@dataclass(frozen=True)
class NextTokenRequest:
    prompt: str
    model: str = ""  # "" = the first available causal model
    temperature: float = 0.8
    top_k: int = 0
    top_p: float = 1.0
    temperatures: tuple[float, ...] = ()  # one view per temperature (same top-k, top-p); empty = one view at `temperature`


NextTokenRun = NextTokenResult  # the result of run_next_token; its JSON is `to_dict()` (the documented /next_token schema)


def default_model(lang: str | None = None) -> str | None:
    """The first available causal model, or with `lang` the first that reads that language (offline, Chinese is the
    small classroom GPT trained here rather than SmolLM2's byte pieces); None when there is none."""
    specs = availability.available_specs(*KINDS)
    speaking = [s for s in specs if s.speaks(lang)] if lang else specs
    return speaking[0].key if speaking else None


def causal_model(key: str | None, runtime: Runtime) -> LoadedModel:
    """The allow-listed causal model for `key` ("" = the default), refused before any weights load if it is not causal."""
    return runtime.model(checks.model_key(key or default_model() or "", "model", KINDS))


def check_temperatures(value: Any) -> tuple[float, ...]:
    """At most MAX_TEMPERATURES temperatures, each a number in range (None -> none)."""
    each = lambda v: check_temperature(v, "temperatures")  # noqa: E731
    return checks.numbers(value, "temperatures", MAX_TEMPERATURES, each)


def run_next_token(request: NextTokenRequest, runtime: Runtime) -> NextTokenRun:
    """The next-token distribution of the prompt under each settings variant (one forward pass)."""
    prompt, model = check_prompt(request.prompt), check_model(request.model)
    temperatures = check_temperatures(request.temperatures)
    variants = [settings(temp, request.top_k, request.top_p) for temp in (temperatures or [request.temperature])]
    return next_token(causal_model(model, runtime), prompt, variants)
