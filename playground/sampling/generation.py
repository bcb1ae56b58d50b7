"""Generating text one token at a time: the sampling loop `generate` runs, written out so each step is visible.

A `Sampler` holds what carries from one step to the next: the tokens so far, the
model's key/value cache (so a step costs one token, not the whole prefix) and its
own torch.Generator (so a seed replays the same text). `generate` streams a batch
of samples; the step-through view keeps one `Sampler` per user and calls `step`.
"""

from __future__ import annotations

import threading
import time
from dataclasses import asdict, dataclass
from typing import Any, Iterator

import torch

from playground import checks, device, settings
from playground.sampling import warpers as sampling
from playground.runtime import Runtime
from playground.errors import InputError
from playground.models import LoadedModel
from playground.sampling.warpers import Distribution, SamplingSettings

N_ALTERNATIVES = 5


@dataclass(frozen=True)
class TokenChoice:
    token_id: int
    text: str  # characters this token completes ("" while a multi-byte character is still pending, or for end-of-text)
    prob: float  # its probability in the distribution it was drawn from (after temperature, top-k, top-p)
    raw_prob: float  # its probability before any of them
    rank: int  # 1 = the raw favourite
    alternatives: tuple[tuple[str, float], ...]  # the most probable tokens of that distribution


@dataclass(frozen=True)
class Sample:
    text: str  # the continuation (prompt not included)
    tokens: tuple[TokenChoice, ...]
    finished: bool  # stopped on an end-of-text token


@dataclass(frozen=True)
class GenerationResult:
    model_key: str
    model_id: str
    device: str
    prompt: str
    settings: SamplingSettings
    seed: int
    samples: tuple[Sample, ...]
    done: bool  # False while streaming
    model_label: str = ""
    no_chinese: bool = False  # the prompt has Chinese characters the model was not trained on (a note, not in the JSON)

    def to_dict(self) -> dict:
        out = asdict(self)
        del out["model_label"], out["no_chinese"]  # for the page's notes; the documented JSON stays as it was
        for sample in out["samples"]:
            for tok in sample["tokens"]:
                tok["alternatives"] = [[text, round(p, 6)] for text, p in tok["alternatives"]]
                tok["prob"], tok["raw_prob"] = round(tok["prob"], 6), round(tok["raw_prob"], 6)
        return out


MAX_TOTAL_TOKENS = 400  # tokens one request may draw in all: max_new_tokens × samples (× temperatures when comparing)


def time_limit_s() -> float:
    """PLAYGROUND_GENERATION_TIME_LIMIT: a generation still drawing after this long stops with a message (a busy
    server, not a hang); each continuation of a comparison has its own. Operators of slow machines raise it. Read
    when a generation starts, never at import: importing this module reads no setting."""
    return settings.current().generation_time_limit


def check_seed(seed: Any) -> int:
    return checks.seed(seed)


def check_run(max_new_tokens: Any, n_samples: Any, seed: Any, draws: int = 1) -> tuple[int, int, int]:
    """Checked max_new_tokens, n_samples and seed; `draws` continuations of n_samples each must fit the token budget."""
    max_new_tokens = checks.whole(max_new_tokens, "max_new_tokens", 1, sampling.MAX_NEW_TOKENS)
    n_samples = checks.whole(n_samples, "n_samples", 1, sampling.MAX_SAMPLES)
    seed = check_seed(seed)
    total = max_new_tokens * n_samples * draws
    if total > MAX_TOTAL_TOKENS:
        raise InputError(
            "sampling_budget",
            "This asks for {total} tokens in all (max new tokens × samples{times}); one request may draw at most {max}.",
            total=total,
            times=f" × {draws}" if draws > 1 else "",
            max=MAX_TOTAL_TOKENS,
        )
    return max_new_tokens, n_samples, seed


def time_limit_error() -> InputError:
    return InputError(
        "sampling_time_limit",
        "Stopped after {s} s: the server is busy. Ask for fewer tokens or samples, or try again in a moment.",
        s=round(time_limit_s()),
    )


class Sampler:
    """A batch of `n` continuations of one prompt, advanced one token per `step` (mutable, per user).

    It pickles (ZeroGPU runs each step in a forked worker, and the sampler is the user's gr.State): its tensors,
    key/value cache included, cross on the CPU and go back to the model's device at the next step; the lock and
    the generators are rebuilt. With CROSS_WITH_CACHE off the cache is dropped instead and the prefix recomputed
    at the next step (bench/zerogpu_sampler.py measures both: keeping the cache was faster, see bench/RESULTS.md).
    """

    CROSS_WITH_CACHE = True

    def __init__(self, lm: LoadedModel, prompt: str, s: SamplingSettings, seed: int, n: int = 1, max_new_tokens: int = 200):
        self.model_key, self.prompt, self.settings, self.seed = lm.spec.key, prompt, s, seed
        self.device = lm.device
        self.prompt_ids = sampling.encode_prompt(lm, prompt, max_new_tokens)
        self.max_new_tokens = max_new_tokens
        # One local generator per sample (no global RNG), seeded seed + k: sample k + 1 of a batch is the text a single
        # sample with seed + k gives, so the comparison's T = 0.1 (one sample, this seed) is the T = 0.1 link's sample 1.
        self.generators = [torch.Generator(device=lm.device).manual_seed(seed + k) for k in range(n)]
        eos = lm.model.generation_config.eos_token_id
        eos = lm.tokenizer.eos_token_id if eos is None else eos
        self.eos = set(eos if isinstance(eos, list) else [] if eos is None else [eos])
        pad = lm.model.generation_config.pad_token_id
        self.pad = next(iter(self.eos), 0) if pad is None else pad
        self.choices: list[list[TokenChoice]] = [[] for _ in range(n)]
        self._texts = [lm.tokenizer.decode(self.prompt_ids, skip_special_tokens=True)] * n
        self._start = [len(t) for t in self._texts]
        self._finished = torch.zeros(n, dtype=torch.bool)
        self.steps = 0
        self._fed: list[list[int]] = []  # the tokens fed after the prompt, one list per step (to recompute the prefix)
        self._lock = threading.Lock()
        with torch.inference_mode():  # prefill: the whole prompt once, keeping its keys and values
            out = lm.model(torch.tensor([self.prompt_ids] * n, device=lm.device), use_cache=True, logits_to_keep=1)
        self._cache, self._logits, self._pending = out.past_key_values, out.logits[:, -1].float(), None

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        del state["_lock"]
        if self.generators is not None:  # CPU byte tensors, whatever the device
            state["_generator_states"] = [g.get_state() for g in self.generators]
        state["generators"] = None
        if self.CROSS_WITH_CACHE and self._cache is not None:
            state["_cache"] = _cache_to(self._cache, "cpu")
        else:
            state["_cache"] = state["_logits"] = None  # recomputed from prompt + fed tokens at the next step
        for name in ("_logits", "_pending", "_finished"):
            if state[name] is not None:
                state[name] = state[name].cpu()
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()  # the generators are rebuilt at the next step, on the model's device: on ZeroGPU
        # the main process (where a result is unpickled) must not touch CUDA

    def _on(self, lm: LoadedModel) -> None:
        """The carried tensors back on the model's device, or the prefix recomputed when no cache came along."""
        if self.generators is None:
            self.generators = [torch.Generator(device=lm.device) for _ in self._generator_states]
            for g, state in zip(self.generators, self._generator_states):
                g.set_state(state)
        self._to_device(lm)

    def _to_device(self, lm: LoadedModel) -> None:
        if self._cache is None:
            rows = [self.prompt_ids + [fed[row] for fed in self._fed] for row in range(len(self.choices))]
            if self._pending is not None:
                rows = [ids + [int(t)] for ids, t in zip(rows, self._pending.tolist())]
            out = lm.model(torch.tensor(rows, device=lm.device), use_cache=True, logits_to_keep=1)
            self._cache, self._logits = out.past_key_values, out.logits[:, -1].float()
            if self._pending is not None:
                self._fed.append([int(t) for t in self._pending.tolist()])
            self._pending = None
            return
        self._cache = _cache_to(self._cache, lm.device)
        self._logits = self._logits.to(lm.device)
        if self._pending is not None:
            self._pending = self._pending.to(lm.device)

    @property
    def done(self) -> bool:
        return bool(self._finished.all()) or self.steps >= self.max_new_tokens

    @torch.inference_mode()
    def step(self, lm: LoadedModel, view: bool = False) -> Distribution | None:
        """Draw one more token for every unfinished sample; with `view`, return sample 0's distribution."""
        if lm.spec.key != self.model_key:
            raise ValueError("this step-through was started with another model; start again")
        with self._lock:  # one step at a time, even if a user double-clicks
            if self.done:
                return None
            self._on(lm)
            if self._pending is not None:  # feed last step's tokens: one position per sample, the cache holds the rest
                out = lm.model(self._pending[:, None], past_key_values=self._cache, use_cache=True)
                self._cache, self._logits = out.past_key_values, out.logits[:, -1].float()
                self._fed.append([int(t) for t in self._pending.tolist()])
            logits, s = self._logits, self.settings
            probs = sampling.warp(logits, s).softmax(-1)
            if s.greedy:
                tokens = logits.argmax(-1)
            else:  # what generate does, with our generator instead of the global one
                tokens = torch.cat([torch.multinomial(p, 1, generator=g) for p, g in zip(probs, self.generators)])
            raw = logits.softmax(-1)
            top = probs.topk(min(N_ALTERNATIVES, probs.shape[-1]))
            for row, token in enumerate(tokens.tolist()):
                if not self._finished[row]:
                    self.choices[row].append(
                        TokenChoice(
                            token,
                            self._piece(lm, row, token),
                            float(probs[row, token]),
                            float(raw[row, token]),
                            int((raw[row] > raw[row, token]).sum()) + 1,
                            tuple(
                                (sampling.token_text(lm.tokenizer, i), float(p))
                                for i, p in zip(top.indices[row].tolist(), top.values[row].tolist())
                            ),
                        )
                    )
            finished = self._finished | torch.tensor([t in self.eos for t in tokens.tolist()])
            self._pending = torch.where(self._finished.to(tokens.device), torch.full_like(tokens, self.pad), tokens)
            self._finished = finished
            self.steps += 1
            return sampling.distribution(lm, logits[0], s, chosen=int(tokens[0])) if view else None

    def _piece(self, lm: LoadedModel, row: int, token: int) -> str:
        """The new characters this token adds (decoding the whole text: a CJK character may span tokens)."""
        ids = self.prompt_ids + [c.token_id for c in self.choices[row]] + [token]
        text = lm.tokenizer.decode(ids, skip_special_tokens=True)
        if text.endswith("\ufffd"):  # an incomplete UTF-8 character: the next token finishes it
            return ""
        old, self._texts[row] = self._texts[row], text
        return text[len(old) :] if text.startswith(old) else sampling.token_text(lm.tokenizer, token)

    def result(self, lm: LoadedModel) -> GenerationResult:
        samples = tuple(
            Sample(self._texts[row][self._start[row] :], tuple(c), bool(self._finished[row]))
            for row, c in enumerate(self.choices)
        )
        return GenerationResult(
            lm.spec.key,
            lm.spec.hf_id,
            lm.device,
            self.prompt,
            self.settings,
            self.seed,
            samples,
            self.done,
            lm.spec.label,
            sampling.unsupported_chinese(lm, self.prompt),
        )


def _cache_to(cache: Any, where: str) -> Any:
    """A transformers key/value cache with every tensor moved (DynamicCache keeps them per layer)."""
    for layer in getattr(cache, "layers", ()):
        for name in ("keys", "values"):
            value = getattr(layer, name, None)
            if isinstance(value, torch.Tensor):
                setattr(layer, name, value.to(where))
        if hasattr(layer, "device") and isinstance(getattr(layer, "keys", None), torch.Tensor):
            layer.device = layer.keys.device
    return cache


def _generation_seconds(lm, prompt, s, max_new_tokens=40, n_samples=1, *args, **kwargs) -> float:
    """ZeroGPU seconds for a generation: ZeroGPU's start, then ~40 ms a token for a 135M model (samples batched)."""
    return 4 + 0.04 * int(max_new_tokens) * (1 + (int(n_samples) - 1) / 4)


@device.entry(_generation_seconds)
def generate_stream(
    lm: LoadedModel,
    prompt: str,
    s: SamplingSettings,
    max_new_tokens: int = 40,
    n_samples: int = 1,
    seed: int = 0,
    every: int = 1,
    deadline: float | None = None,
) -> Iterator[GenerationResult]:
    """`n_samples` continuations of `prompt`, yielded as they grow (every `every` tokens) and once when done."""
    max_new_tokens, n_samples, seed = check_run(max_new_tokens, n_samples, seed)
    deadline = time.monotonic() + time_limit_s() if deadline is None else deadline
    sampler = Sampler(lm, prompt, s, seed, n_samples, max_new_tokens)
    while not sampler.done:
        if time.monotonic() > deadline:  # checked every token: a request never outlives its time limit by more than one
            raise time_limit_error()
        sampler.step(lm)
        if not sampler.done and sampler.steps % every == 0:
            yield sampler.result(lm)
    yield sampler.result(lm)


def generate(
    lm: LoadedModel,
    prompt: str,
    s: SamplingSettings,
    max_new_tokens: int = 40,
    n_samples: int = 1,
    seed: int = 0,
    deadline: float | None = None,
) -> GenerationResult:
    """`n_samples` continuations of `prompt` with their per-token probabilities."""
    *_, last = generate_stream(lm, prompt, s, max_new_tokens, n_samples, seed, every=max_new_tokens + 1, deadline=deadline)
    return last


@dataclass(frozen=True)
class GenerateRequest:
    prompt: str
    model: str = ""  # "" = the first available causal model
    temperature: float = 0.8
    top_k: int = 0
    top_p: float = 1.0
    max_new_tokens: int = 40
    n_samples: int = 1
    seed: int = 0


def stream_generate(request: GenerateRequest, runtime: Runtime, every: int = 1) -> Iterator[GenerationResult]:
    """Frozen snapshots of the samples as they grow (every `every` tokens), the last one with done=True."""
    prompt, model = sampling.check_prompt(request.prompt), sampling.check_model(request.model)
    s = sampling.settings(request.temperature, request.top_k, request.top_p)
    max_new, n_samples, seed = check_run(request.max_new_tokens, request.n_samples, request.seed)
    lm = sampling.causal_model(model, runtime)
    yield from generate_stream(lm, prompt, s, max_new, n_samples, seed, every)


def run_generate(request: GenerateRequest, runtime: Runtime) -> GenerationResult:
    """Sampled continuations with, per token, its probability, rank and the most probable alternatives."""
    *_, last = stream_generate(request, runtime, every=sampling.MAX_NEW_TOKENS + 1)
    return last


@dataclass(frozen=True)
class CompareRequest:
    prompt: str
    model: str = ""
    temperatures: tuple[float, ...] = (0.1, 0.8, 1.5)
    top_k: int = 0
    top_p: float = 1.0
    max_new_tokens: int = 40
    seed: int = 0


@dataclass(frozen=True)
class TemperatureComparison:
    next_token: sampling.NextTokenRun  # one distribution view per temperature
    continuations: tuple[GenerationResult, ...]  # one sample per temperature, same seed

    def to_dict(self) -> dict:
        return {**self.next_token.to_dict(), "continuations": [run.to_dict() for run in self.continuations]}


def run_compare(request: CompareRequest, runtime: Runtime) -> TemperatureComparison:
    """Several temperatures side by side: the distributions they sample from and one continuation each."""
    prompt, model = sampling.check_prompt(request.prompt), sampling.check_model(request.model)
    temperatures = sampling.check_temperatures(request.temperatures)
    variants = [sampling.settings(temp, request.top_k, request.top_p) for temp in temperatures]
    if not variants:
        raise checks.fail("input_not_list", name="temperatures", limit=sampling.MAX_TEMPERATURES, items="numbers")
    max_new, _, seed = check_run(request.max_new_tokens, 1, request.seed, draws=len(variants))
    lm = sampling.causal_model(model, runtime)
    return _compare(lm, prompt, variants, max_new, seed)


@device.entry(lambda lm, prompt, variants, max_new, seed: 4 + 0.04 * int(max_new) * len(variants))
def _compare(lm: LoadedModel, prompt: str, variants: list, max_new: int, seed: int) -> TemperatureComparison:
    """One GPU call for the whole comparison: the distributions and one continuation per temperature."""
    return TemperatureComparison(
        sampling.next_token(lm, prompt, variants),
        tuple(generate(lm, prompt, s, max_new, 1, seed) for s in variants),
    )


@dataclass(frozen=True)
class StepRequest:
    prompt: str
    model: str = ""
    temperature: float = 0.8
    top_k: int = 0
    top_p: float = 1.0
    max_new_tokens: int = 40
    seed: int = 0


@device.entry(4)
def _step(
    sampler: Sampler | None, lm: LoadedModel, prompt: str, s: SamplingSettings, seed: int, max_new: int
) -> tuple[Sampler, Distribution | None]:
    """One token for the user's sampler (a new one for a new prompt, model or seed): one GPU call per click; on
    ZeroGPU the sampler crosses in and back out pickled (its tensors on the CPU)."""
    if sampler is None or (sampler.model_key, sampler.prompt, sampler.seed) != (lm.spec.key, prompt, seed):
        sampler = Sampler(lm, prompt, s, seed, 1, max_new)
    sampler.settings = s  # the sliders may change between steps
    return sampler, sampler.step(lm, view=True)


@dataclass(frozen=True)
class StepRun:
    model_id: str
    device: str
    model_label: str
    step: int  # how many tokens have been drawn
    distribution: Distribution | None  # sample 0's distribution at this step; None when the sampler had finished
    chosen_text: str  # the token drawn, readable
    generation: GenerationResult
    done: bool


def run_step(sampler: Sampler | None, request: StepRequest, runtime: Runtime) -> tuple[Sampler, StepRun]:
    """One more token of a user's step-through; a new prompt, model or seed starts a fresh sampler.

    The sampler (key/value cache and generator) is the user's own state: the caller keeps it (gr.State).
    """
    prompt, model = sampling.check_prompt(request.prompt), sampling.check_model(request.model)
    s = sampling.settings(request.temperature, request.top_k, request.top_p)
    max_new, _, seed = check_run(request.max_new_tokens, 1, request.seed)
    lm = sampling.causal_model(model, runtime)
    sampler, view = _step(sampler, lm, prompt, s, seed, max_new)
    chosen = "" if view is None else sampling.token_text(lm.tokenizer, view.chosen)
    run = StepRun(lm.spec.hf_id, lm.device, lm.spec.label, sampler.steps, view, chosen, sampler.result(lm), sampler.done)
    return sampler, run
