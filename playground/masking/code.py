"""The masking objectives as scripts: BERT's, whole-word and RoBERTa's dynamic masking with transformers'
`DataCollatorForLanguageModeling` (same seed, same draw as the page); the objectives no library implements
(SpanBERT, XLNet, ELECTRA, T5, UniLM) through the playground's own functions, each printing what happened to
every token."""

from __future__ import annotations

from dataclasses import fields, replace

from playground.masking.objectives import OBJECTIVES, _check
from playground.masking.results import MaskingRequest
from playground.snippets import Snippet, comment, header, join, offline, py, spec_of

# What the masking tab's API defaults differ in from the dataclass (the endpoint's own defaults).
API_DEFAULTS = {"model": "minilm", "prefix_len": 6}

COLLATOR = ("bert", "wwm", "dynamic")  # drawn by DataCollatorForLanguageModeling itself
OWN = {  # objective -> (module, function) in the playground (no maintained library draws these)
    "span": ("playground.masking.spans", "span_masking"),
    "permutation": ("playground.masking.permutation", "permutation_lm"),
    "electra": ("playground.masking.electra", "electra_masking"),
    "t5": ("playground.masking.spans", "t5_span_corruption"),
    "attention": ("playground.masking.permutation", "attention_families"),
}


def request_of(params: dict, strategy: str | None = None) -> MaskingRequest:
    """/masking's parameters (text, model, strategy, seed, probabilities, epochs, prefix_len, generator), checked."""
    names = {f.name for f in fields(MaskingRequest)}
    unknown = set(params) - names
    if unknown:
        raise TypeError(f"unexpected parameter {sorted(unknown)[0]!r}")
    values = {"text": "", **API_DEFAULTS, **params}
    if strategy:
        values["strategy"] = strategy
    return replace(_check(MaskingRequest(**values)), draws=0)  # the statistics mode is many draws: not in the snippet


def load_tokenizer(key: str) -> list[str]:
    """Lines that leave the tokenizer of `key` in `tokenizer` (a few MB: no weights)."""
    spec = spec_of(key)
    if spec is not None and spec.source == "bundled":
        return [
            comment(f"bundled with the playground (run this from its folder); hub id: {spec.hf_id.split(' + ')[0]}",
                    f"游乐场自带的分词器（在游乐场目录下运行）；Hub id：{spec.hf_id.split(' + ')[0]}"),
            "from playground.models import load_tokenizer",
            f"tokenizer = load_tokenizer({py(key)})",
        ]  # fmt: skip
    return [
        comment("needs the Hugging Face Hub (or its local cache)", "需要访问 Hugging Face Hub（或本地缓存）"),
        f"tokenizer = AutoTokenizer.from_pretrained({py(spec.hf_id)})",
    ]


_ACTIONS = '''
def actions(ids, labels):
    """What happened to each token: special, none (no loss), mask, random (another token) or kept."""
    out = []
    for original, seen, label, special in zip(enc["input_ids"], ids, labels, enc["special_tokens_mask"]):
        if special:
            out.append("special")
        elif label == -100:
            out.append("none")
        else:
            out.append("mask" if seen == tokenizer.mask_token_id else "kept" if seen == original else "random")
    return out


def show(title, ids, labels):
    print(title)
    for token, seen, action in zip(tokens, tokenizer.convert_ids_to_tokens(ids), actions(ids, labels)):
        print(f"  {token!r:>14} -> {seen!r:<14} {action}")
'''

_WORDS = [
    comment("the tokenizer's own words; offsets contiguous inside a word, a gap between words: how the collator finds "
            "words", "分词器自己的词；词内偏移连续、词间留空：整词掩码据此找词"),
    "words = [-1 if w is None else w for w in enc.word_ids()]",
    "offsets = [[k + w, k + w + 1] for k, w in enumerate(words)]",
]  # fmt: skip


def _collator(r: MaskingRequest, replace_prob: float, random_prob: float, whole_word: bool = False) -> str:
    ww = ", whole_word_mask=True" if whole_word else ""
    return (
        f"DataCollatorForLanguageModeling(tokenizer, mlm_probability={r.mlm_probability}, "
        f"mask_replace_prob={replace_prob}, random_replace_prob={random_prob}{ww}, seed={r.seed})"
    )


def _collator_lines(r: MaskingRequest) -> list[str]:
    draw = "batch = collator([example])  " + comment("one sentence, one draw", "一句话，抽一次")
    if r.strategy == "bert":
        return [
            f"collator = {_collator(r, r.mask_replace_prob, r.random_replace_prob)}",
            draw,
            "show('bert', batch['input_ids'][0].tolist(), batch['labels'][0].tolist())",
        ]
    if r.strategy == "dynamic":
        return [
            comment("RoBERTa: a fresh pattern every epoch (BERT masks once and reuses epoch 1's)",
                    "RoBERTa：每轮重新掩码（BERT 只掩一次，之后重复第 1 轮）"),
            f"collator = {_collator(r, r.mask_replace_prob, r.random_replace_prob)}",
            f"batch = collator([example] * {r.epochs})",
            f"for epoch in range({r.epochs}):",
            "    show(f'dynamic {epoch + 1}', batch['input_ids'][epoch].tolist(), batch['labels'][epoch].tolist())",
        ]  # fmt: skip
    return [
        *_WORDS,
        comment("whole-word masking replaces every chosen piece by the mask token", "整词掩码：被选中的词的每个子词都换成掩码"),
        f"collator = {_collator(r, 1.0, 0.0, whole_word=True)}",
        "batch = collator([{**example, 'offset_mapping': offsets}])",
        "show('whole_word', batch['input_ids'][0].tolist(), batch['labels'][0].tolist())",
        comment("the token-level draw with the same seed, for contrast", "同一种子的逐词元掩码，作对照"),
        f"collator = {_collator(r, 1.0, 0.0)}",
        draw,
        "show('token', batch['input_ids'][0].tolist(), batch['labels'][0].tolist())",
    ]  # fmt: skip


RUNTIME_PARTS = {"load": "runtime.model", "load_tokenizer": "runtime.tokenizer", "cache": "runtime.cache"}


def _own_lines(r: MaskingRequest) -> list[str]:
    module, function = OWN[r.strategy]
    row = OBJECTIVES[r.strategy]
    args = {"text": "text", "seed": str(r.seed)}
    for name in row.reads:
        if name == "tokenizer":
            args[name] = "tokenizer"
        elif name in RUNTIME_PARTS:
            args[name] = RUNTIME_PARTS[name]
        else:
            args[name] = py(getattr(r, name))
    lines = [
        comment(f"no maintained library draws this objective: the playground's own {function} ({module})",
                f"没有现成的库实现这个目标：用游乐场自己的 {function}（{module}）"),
        f"from {module} import {function}",
    ]  # fmt: skip
    if set(row.reads) & set(RUNTIME_PARTS):
        lines += [
            "from playground.runtime import Runtime",
            "runtime = Runtime()  " + comment("the playground's one load path and its caches", "游乐场的模型加载与缓存"),
        ]
    call = ", ".join(f"{k}={v}" for k, v in args.items())
    return [
        *lines,
        f"result = {function}({call})",
        "for token, action in zip(result.tokens, result.actions):",
        "    print(f'  {token!r:>14}  {action}')",
        "print('the model reads:', ' '.join(result.corrupted))",
        "for label, row in result.rows:",
        "    print(label, ' '.join(row))",
    ]


def masking_code(request: MaskingRequest) -> Snippet:
    """One draw of the request's objective with its seed: per token, what the model reads and what happened to it."""
    r = request
    imports = ["from transformers import AutoTokenizer, DataCollatorForLanguageModeling"]
    lines = header(f"masking objective {r.strategy}", f"掩码目标 {r.strategy}", *imports)
    lines += [f"text = {py(r.text)}"]
    keys = [r.model]
    if r.strategy in COLLATOR:
        lines += load_tokenizer(r.model)
        lines += [
            "enc = tokenizer(text, return_special_tokens_mask=True)",
            "tokens = tokenizer.convert_ids_to_tokens(enc['input_ids'])",
            "example = {'input_ids': enc['input_ids'], 'special_tokens_mask': enc['special_tokens_mask']}",
            *_ACTIONS.splitlines(),
            *_collator_lines(r),
        ]
    else:
        if "tokenizer" in OBJECTIVES[r.strategy].reads:
            lines += load_tokenizer(r.model)
        lines += _own_lines(r)
    return Snippet(join(lines), offline(keys))


VIEWS = {
    "masking": (request_of, masking_code),
    **{f"masking_{name}": (lambda params, name=name: request_of(params, name), masking_code) for name in OBJECTIVES},
}
