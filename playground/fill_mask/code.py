"""The fill-mask view as a script: `pipeline("fill-mask")` per masked model, the exercise the course starts with."""

from __future__ import annotations

from playground.fill_mask import FillMaskRequest, default_models
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


def _causal_block(key: str) -> list[str]:
    spec = spec_of(key)
    label = spec.label if spec else key
    return [
        comment(
            f"{label} is a causal LM: its two readings rescore whole sentences (playground.fill_mask.causal); "
            "its left-context distribution is the next_token view's snippet",
            f"{label} 是因果语言模型：它的两种读法要给整句打分（见 playground.fill_mask.causal）；"
            "只看左侧上下文的分布见 next_token 视图的代码",
        ),
        "",
    ]


def fill_mask_code(request: FillMaskRequest) -> Snippet:
    """Top-k words per [MASK] for every masked model of the request, printed with their probabilities."""
    text = substitute_masks(request.text, MASK)
    lines = header("fill-mask", "填空", "from transformers import AutoModelForMaskedLM, AutoTokenizer, pipeline")
    lines += [f"text = {py(text)}", ""]
    for key in request.models:
        spec = spec_of(key)
        lines += _causal_block(key) if spec is not None and spec.kind == "causal" else _masked_block(key, request.top_k)
    return Snippet(join(lines), offline(request.models))


VIEWS = {"fill_mask": (request_of, fill_mask_code)}
