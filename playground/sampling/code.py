"""The sampling views as scripts: transformers' logits warpers on one next-token distribution, and the sampling loop.

The warpers are applied in the order `model.generate(do_sample=True)` applies them (temperature, top-k, top-p),
and the loop draws with a local `torch.Generator(seed)`, so the same seed gives the same text as the page.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from playground import checks, sampling
from playground.sampling import N_SHOWN, NextTokenRequest, SamplingSettings
from playground.sampling.generation import N_ALTERNATIVES, CompareRequest, GenerateRequest, StepRequest, check_run
from playground.snippets import Snippet, comment, header, join, load_model, offline, py

IMPORTS = (
    "import torch",
    "from transformers import (\n    AutoModelForCausalLM,\n    AutoTokenizer,\n    LogitsProcessorList,\n"
    "    TemperatureLogitsWarper,\n    TopKLogitsWarper,\n    TopPLogitsWarper,\n)",
)


def _model_key(model: Any) -> str:
    """The request's model with "" resolved to the default causal model, as the endpoint resolves it."""
    key = sampling.check_model(model) or sampling.default_model() or ""
    return checks.model_key(key, "model", sampling.KINDS)  # checks the key is a causal model; loads nothing


def _build(cls, params: dict):
    names = {f.name for f in fields(cls)}
    unknown = set(params) - names
    if unknown:
        raise TypeError(f"unexpected parameter {sorted(unknown)[0]!r}")
    return cls(**{"prompt": "", **params})


def next_token_request(params: dict) -> NextTokenRequest:
    """/next_token's parameters (prompt, model, temperature, top_k, top_p, temperatures), checked, defaults filled."""
    r = _build(NextTokenRequest, params)
    temps = sampling.check_temperatures(r.temperatures)
    for t in temps or [r.temperature]:
        sampling.settings(t, r.top_k, r.top_p)
    return NextTokenRequest(sampling.check_prompt(r.prompt), _model_key(r.model), r.temperature, r.top_k, r.top_p, temps)


def generate_request(params: dict) -> GenerateRequest:
    """/generate's parameters (prompt, model, temperature, top_k, top_p, max_new_tokens, n_samples, seed)."""
    r = _build(GenerateRequest, params)
    sampling.settings(r.temperature, r.top_k, r.top_p)
    max_new, n, seed = check_run(r.max_new_tokens, r.n_samples, r.seed)
    prompt, model = sampling.check_prompt(r.prompt), _model_key(r.model)
    return GenerateRequest(prompt, model, r.temperature, r.top_k, r.top_p, max_new, n, seed)


def compare_request(params: dict) -> CompareRequest:
    """The temperature comparison (sub-view `compare`): prompt, model, temperatures, top_k, top_p, max_new_tokens, seed."""
    r = _build(CompareRequest, params)
    temps = sampling.check_temperatures(r.temperatures)
    if not temps:
        raise sampling.TEMPERATURES_ERROR()
    for t in temps:
        sampling.settings(t, r.top_k, r.top_p)
    max_new, _, seed = check_run(r.max_new_tokens, 1, r.seed, draws=len(temps))
    return CompareRequest(sampling.check_prompt(r.prompt), _model_key(r.model), temps, r.top_k, r.top_p, max_new, seed)


def step_request(params: dict) -> StepRequest:
    """The step-through (sub-view `step`): prompt, model, temperature, top_k, top_p, max_new_tokens, seed."""
    r = _build(StepRequest, params)
    sampling.settings(r.temperature, r.top_k, r.top_p)
    max_new, _, seed = check_run(r.max_new_tokens, 1, r.seed)
    return StepRequest(sampling.check_prompt(r.prompt), _model_key(r.model), r.temperature, r.top_k, r.top_p, max_new, seed)


def warpers(s: SamplingSettings) -> str:
    """The warper chain `generate` builds for these settings (it skips a temperature of 1, top-k 0 and top-p 1)."""
    chain = [f"TemperatureLogitsWarper({s.temperature})"] if s.temperature not in (0, 1) else []
    chain += [f"TopKLogitsWarper({s.top_k})"] if s.top_k else []
    chain += [f"TopPLogitsWarper({s.top_p})"] if s.top_p < 1 else []
    return f"LogitsProcessorList([{', '.join(chain)}])"


_PROMPT = [
    comment("prompt tokens as the text-generation pipeline makes them", "提示词的词元，与 text-generation 流水线相同"),
    "prompt_ids = tokenizer(prompt, add_special_tokens=False).input_ids or [tokenizer.bos_token_id]",
]

# Greedy is the limit T -> 0: all the probability on the argmax (warpers cannot divide by 0).
_GREEDY = "def warp(logits):\n    return torch.full_like(logits, -float('inf')).scatter(-1, logits.argmax(-1, keepdim=True), 0.0)"


def _warp_def(s: SamplingSettings, name: str = "warp") -> list[str]:
    if s.greedy:
        return [
            comment("temperature 0 = greedy: all probability on the most probable token", "温度 0 即贪心：概率全给最可能的词元"),
            _GREEDY.replace("def warp", f"def {name}"),
        ]
    return [f"{name} = lambda logits: {warpers(s)}(None, logits)  " + comment("generate's order", "与 generate 顺序相同")]


def _distribution_lines(settings: list[SamplingSettings]) -> list[str]:
    lines = [
        "with torch.no_grad():",
        "    logits = model(torch.tensor([prompt_ids], device=model.device)).logits[0, -1].float()  # (vocab,)",
        "raw = logits.softmax(-1)",
        f"top = raw.topk({N_SHOWN})  " + comment("the bars: most probable first", "柱状图：按概率从高到低"),
    ]
    for s in settings:
        lines += _warp_def(s)
        lines += [
            "scores = warp(logits[None].clone())[0]  " + comment("-inf = filtered out", "-inf 表示被过滤"),
            "probs = scores.softmax(-1)",
            "kept = int(torch.isfinite(scores).sum())",
            f"print('temperature {s.temperature}, top-k {s.top_k}, top-p {s.top_p}:', kept, 'tokens kept')",
            "for i in top.indices.tolist():",
            "    print(f'  {i:>7} {tokenizer.decode([i])!r:>16}  raw {raw[i].item():.6f}  ->  {probs[i].item():.6f}')",
        ]
    return lines


def _settings(temperature: float, top_k: int, top_p: float) -> SamplingSettings:
    return sampling.settings(temperature, top_k, top_p)


_SAMPLE = '''
def sample(warp, n_samples, max_new_tokens, seed):
    """{doc}"""
    # one generator per sample, seeded seed + k: sample k + 1 is the text one sample with seed + k gives  {local}
    generators = [torch.Generator(device=model.device).manual_seed(seed + k) for k in range(n_samples)]
    eos = model.generation_config.eos_token_id
    eos = tokenizer.eos_token_id if eos is None else eos
    eos = set(eos if isinstance(eos, list) else [] if eos is None else [eos])
    pad = model.generation_config.pad_token_id
    pad = next(iter(eos), 0) if pad is None else pad
    with torch.no_grad():
        out = model(torch.tensor([prompt_ids] * n_samples, device=model.device), use_cache=True)
        cache, logits = out.past_key_values, out.logits[:, -1].float()
        finished = torch.zeros(n_samples, dtype=torch.bool)
        drawn = [[] for _ in range(n_samples)]
        for step in range(max_new_tokens):
            probs = warp(logits).softmax(-1)
            if greedy:
                tokens = logits.argmax(-1)
            else:
                tokens = torch.cat([torch.multinomial(p, 1, generator=g) for p, g in zip(probs, generators)])
            for row, token in enumerate(tokens.tolist()):
                if not finished[row]:
                    drawn[row].append((token, probs[row, token].item(), probs[row].topk({alternatives})))
            pending = torch.where(finished.to(tokens.device), torch.full_like(tokens, pad), tokens)
            finished = finished | torch.tensor([t in eos for t in tokens.tolist()])
            if finished.all() or step + 1 == max_new_tokens:
                break
            {feed}
            out = model(pending[:, None], past_key_values=cache, use_cache=True)
            cache, logits = out.past_key_values, out.logits[:, -1].float()
    return drawn
'''


def _sample_def() -> list[str]:
    return _SAMPLE.format(
        doc="n continuations, one token per step, as model.generate(do_sample=True) draws them",
        local=comment("local generators: the global RNG is untouched", "局部随机数生成器，不动全局随机状态"),
        alternatives=N_ALTERNATIVES,
        feed=comment("feed the new tokens: the cache holds the rest", "只输入新词元，其余在键值缓存里"),
    ).splitlines()


def _print_samples(label: str, alternatives: bool = False) -> list[str]:
    lines = [
        "for k, tokens in enumerate(drawn):",
        "    ids = [token for token, _, _ in tokens]",
        f"    print({py(label)}, k, repr(tokenizer.decode(prompt_ids + ids, skip_special_tokens=True)))",
        "    for token, p, top in tokens:",
        "        print(f'  {token:>7} {tokenizer.decode([token])!r:>16}  {p:.6f}')",
    ]
    if alternatives:
        lines += [
            "        pairs = zip(top.indices.tolist(), top.values.tolist())",
            "        alts = ', '.join(f'{tokenizer.decode([i])!r} {q:.3f}' for i, q in pairs)",
            "        print('          instead:', alts)",
        ]
    return lines


def _start(request: Any, en: str, zh: str) -> list[str]:
    return [
        *header(en, zh, *IMPORTS),
        f"prompt = {py(request.prompt)}",
        *load_model(request.model, "AutoModelForCausalLM"),
        *_PROMPT,
        "",
    ]


def next_token_code(request: NextTokenRequest) -> Snippet:
    """The next-token distribution under each settings view: the top tokens' raw and warped probabilities."""
    views = [_settings(t, request.top_k, request.top_p) for t in (request.temperatures or [request.temperature])]
    lines = _start(request, "the next-token distribution and the sampler's stages", "下一个词元的分布与采样的各个阶段")
    return Snippet(join(lines + _distribution_lines(views)), offline([request.model]))


def _generate_lines(s: SamplingSettings, max_new: int, n: int, seed: int, label: str, alternatives: bool) -> list[str]:
    return [
        *_warp_def(s),
        f"greedy = {s.greedy}",
        f"drawn = sample(warp, n_samples={n}, max_new_tokens={max_new}, seed={seed})",
        *_print_samples(label, alternatives),
    ]


def generate_code(request: GenerateRequest) -> Snippet:
    """`n_samples` continuations with, per token, its id and the probability it was drawn with."""
    s = _settings(request.temperature, request.top_k, request.top_p)
    lines = _start(request, "sampled continuations", "采样生成的续写")
    lines += _sample_def() + [""]
    lines += _generate_lines(s, request.max_new_tokens, request.n_samples, request.seed, "sample", False)
    return Snippet(join(lines), offline([request.model]))


def compare_code(request: CompareRequest) -> Snippet:
    """Each temperature's distribution, then one continuation per temperature with the same seed."""
    views = [_settings(t, request.top_k, request.top_p) for t in request.temperatures]
    lines = _start(request, "temperatures side by side", "不同温度并排比较")
    lines += _distribution_lines(views) + _sample_def() + [""]
    for s in views:
        lines += _generate_lines(s, request.max_new_tokens, 1, request.seed, f"temperature {s.temperature}", False)
    return Snippet(join(lines), offline([request.model]))


def step_code(request: StepRequest) -> Snippet:
    """The step-through: one continuation, each step's token, its probability and the alternatives it beat."""
    s = _settings(request.temperature, request.top_k, request.top_p)
    lines = _start(request, "one token at a time", "一次一个词元")
    lines += _sample_def() + [""]
    lines += _generate_lines(s, request.max_new_tokens, 1, request.seed, "sample", True)
    return Snippet(join(lines), offline([request.model]))


VIEWS = {
    "next_token": (next_token_request, next_token_code),
    "generate": (generate_request, generate_code),
    "compare": (compare_request, compare_code),
    "step": (step_request, step_code),
}
