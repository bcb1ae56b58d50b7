"""The fill-mask view as a script: `pipeline("fill-mask")` per masked model, the exercise the course starts with."""

from __future__ import annotations

from playground.fill_mask import FillMaskRequest, default_models
from playground.fill_mask.causal import POOL_PER_SOURCE
from playground.fill_mask.data import MASK, substitute_masks
from playground.snippets import Snippet, comment, header, join, load_model, offline, py, spec_of


def request_of(params: dict) -> FillMaskRequest:
    """/fill_mask's parameters (text, models, top_k), defaults filled in as the endpoint fills them."""
    unknown = set(params) - {"text", "models", "top_k"}
    if unknown:
        raise TypeError(f"unexpected parameter {sorted(unknown)[0]!r}")
    models = params.get("models")
    request = FillMaskRequest(params.get("text", ""), models or None, params.get("top_k", 5)).validate()
    keys = request.models if request.models else tuple(default_models())
    return FillMaskRequest(request.text, keys, request.top_k)


def _masked_block(key: str, top_k: int) -> list[str]:
    return [
        *load_model(key, "AutoModelForMaskedLM"),
        f'fill = pipeline("fill-mask", model=model, tokenizer=tokenizer, top_k={top_k})',
        comment("the playground's [MASK] becomes the model's own mask token", "把 [MASK] 换成该模型自己的掩码符号"),
        'answers = fill(text.replace("[MASK]", tokenizer.mask_token))',
        "if isinstance(answers[0], dict):  " + comment("one blank: one list", "只有一个空：一个列表"),
        "    answers = [answers]",
        f"print({py(key)})",
        "for blank, predictions in enumerate(answers, 1):",
        '    print(f"  [MASK] {blank}")',
        "    for p in predictions:",
        "        print(f\"    {p['token_str']:>14}  {p['score']:.6f}  (id {p['token']})\")",
        "",
    ]


def _causal_helpers() -> list[str]:
    """The functions both readings use, written once per script (they read the current `model`, `tokenizer`,
    `start` and `special`, so every causal model of the script shares them)."""
    return [
        "",
        "def next_token_probs(prompt):",
        "    ids = torch.tensor([start + tokenizer(prompt, add_special_tokens=False).input_ids])",
        "    return model(ids).logits[0, -1].float().softmax(-1)",
        "",
        "",
        "def reads_as(i):",
        comment(
            "token i written after a word: its text, and whether it starts a new word",
            "词表第 i 个记号接在一个词后面：它的文字，以及它是否另起一个词",
            "    ",
        ),
        "    piece = tokenizer.convert_ids_to_tokens(i)",
        '    joined = tokenizer.convert_tokens_to_string(["a", piece])',
        '    tail = joined[1:] if joined.startswith("a") else tokenizer.convert_tokens_to_string([piece])',
        "    return tail.strip(), tail[:1].isspace()",
        "",
        "",
        "def whole_word(i, at_start):",
        comment(
            "a word of the vocabulary, one token where the blank is (never 's, ing or <s>)",
            "词表里的整词，在空格处正好一个记号（不是 's、ing 或 <s>）",
            "    ",
        ),
        "    word, begins = reads_as(i)",
        '    if i in special or not word or not word[0].isalnum() or "\\ufffd" in word or " " in word:',
        "        return False",
        "    if not at_start and not begins:",
        "        return False",
        '    anchor = tokenizer("a", add_special_tokens=False).input_ids',
        '    after = tokenizer("a " + word, add_special_tokens=False).input_ids',
        "    if after[: len(anchor)] != anchor or len(after) != len(anchor) + 1:",
        "        return False",
        "    return tokenizer(word, add_special_tokens=False).input_ids == [i] if at_start else after[-1] == i",
        "",
        "",
        f"def candidates(probs, at_start, n={POOL_PER_SOURCE}):",
        comment("the n most probable whole words", "概率最高的 n 个整词", "    "),
        "    found = []",
        "    for i in probs.argsort(descending=True).tolist():",
        "        if whole_word(i, at_start):",
        "            found.append(i)",
        "            if len(found) == n:",
        "                return found",
        "    return found",
        "",
        "",
        "def sentence_logprobs(sentences):",
        comment("log p(sentence) for each, in one right-padded batch", "每句的 log p(句子)，右侧补齐后一次算完", "    "),
        "    rows = [start + tokenizer(s, add_special_tokens=False).input_ids for s in sentences]",
        "    width = max(map(len, rows))",
        "    ids = torch.tensor([r + [0] * (width - len(r)) for r in rows])",
        "    mask = torch.tensor([[1] * len(r) + [0] * (width - len(r)) for r in rows])",
        "    logp = model(input_ids=ids, attention_mask=mask).logits[:, :-1].float().log_softmax(-1)",
        "    return (logp.gather(-1, ids[:, 1:, None])[..., 0] * mask[:, 1:]).sum(-1)",
        "",
        "",
    ]


def _causal_block(key: str, top_k: int) -> list[str]:
    """Both readings of a causal LM (playground.fill_mask.causal), in plain transformers: the next-token
    distribution after the left context, and the candidates rescored by the whole sentence's log-probability."""
    spec = spec_of(key)
    label = spec.label if spec else key
    first = (
        f"[tokenizer.convert_tokens_to_ids({py(spec.doc_start)})]"
        if spec is not None and spec.doc_start
        else "[tokenizer.bos_token_id if tokenizer.bos_token_id is not None else tokenizer.eos_token_id]"
    )
    return [
        comment(
            f"{label} reads left to right, so it fills a blank two ways: from the left context only, "
            "and by scoring the whole sentence with each candidate word in the blank",
            f"{label} 从左往右读，所以有两种填法：只看左侧上下文；把每个候选词填进去、给整句打分",
        ),
        *load_model(key, "AutoModelForCausalLM"),
        f"start = {first}  " + comment("how a document began in pre-training", "预训练时文档的开头"),
        "special = set(tokenizer.all_special_ids) | set(tokenizer.added_tokens_decoder)",
        f"print({py(key)})",
        'pieces = text.split("[MASK]")',
        "prefix = pieces[0]",
        "with torch.no_grad():",
        "    for blank, right in enumerate(pieces[1:], 1):",
        "        left = prefix.rstrip()",
        comment("1. left context only: what the model expects next", "1. 只看左侧：模型预期的下一个词", " " * 8),
        "        probs = next_token_probs(left)",
        "        plain = candidates(probs, not left)",
        '        print(f"  [MASK] {blank}  left context only")',
        f"        for i in sorted(plain, key=lambda i: -probs[i])[:{top_k}]:",
        '            print(f"    {reads_as(i)[0]:>14}  {probs[i]:.6f}  (id {i})")',
        comment(
            "2. whole sentence: the candidates (also those a prompt showing the sentence first suggests), each "
            "sentence scored, the scores made shares",
            "2. 整句：候选词（包括先把整句给模型看之后它提出的词）逐一填入、给整句打分、再归一成占比",
            " " * 8,
        ),
        '        primed = next_token_probs(f"{left} ___{right}\\n{left}")',
        "        pool = list(dict.fromkeys(plain + candidates(primed, not left)))",
        "        words = [tokenizer.decode([i]) for i in pool]",
        "        share = sentence_logprobs([(left + w + right).lstrip() for w in words]).softmax(-1)",
        '        print(f"  [MASK] {blank}  whole sentence, {len(pool)} candidates")',
        f"        best = share.argsort(descending=True)[:{top_k}].tolist()",
        "        for j in best:",
        '            print(f"    {reads_as(pool[j])[0]:>14}  {share[j]:.6f}  (id {pool[j]})")',
        comment("a later blank sees the winner in this one", "后面的空看到这个空填的是得分最高的词", " " * 8),
        "        prefix = (left + words[best[0]] + right).lstrip()",
        "",
    ]


def fill_mask_code(request: FillMaskRequest) -> Snippet:
    """Top-k words per [MASK] for every masked model of the request, printed with their probabilities."""
    text = substitute_masks(request.text, MASK)
    causal = [key for key in request.models if (spec := spec_of(key)) is not None and spec.kind == "causal"]
    imports = ["import torch"] if causal else []
    imports.append(
        "from transformers import AutoModelForCausalLM, AutoModelForMaskedLM, AutoTokenizer, pipeline"
        if causal
        else "from transformers import AutoModelForMaskedLM, AutoTokenizer, pipeline"
    )
    lines = header("fill-mask", "填空", *imports)
    lines += [f"text = {py(text)}", ""]
    if causal:
        lines += _causal_helpers()
    for key in request.models:
        block = _causal_block if key in causal else _masked_block
        lines += block(key, request.top_k)
    return Snippet(join(lines), offline(request.models))


VIEWS = {"fill_mask": (request_of, fill_mask_code)}
