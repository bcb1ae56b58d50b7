"""The attention views as scripts: `output_attentions=True` on an eager model, then one head, the mean, the rollout,
the special-token shares, Q·K step by step and the positional encodings, each printed as the view shows it."""

from __future__ import annotations


from playground import checks
from playground.attention.maps import AttentionRequest, check_model
from playground.attention.positional import POSITION_TABLE_NAMES
from playground.attention.qkv import QKV_NAMES
from playground.attention.view import VIEW_PARTS
from playground.errors import InputError
from playground.snippets import Snippet, comment, header, join, load_model, offline, py, spec_of

AUTO = {"encoder": "AutoModel", "masked": "AutoModelForMaskedLM", "discriminator": "AutoModelForPreTraining"}
AUTO_DEFAULT = "AutoModelForCausalLM"


def _auto(key: str) -> str:
    spec = spec_of(key)
    return AUTO.get(spec.kind, AUTO_DEFAULT) if spec else "AutoModelForMaskedLM"


def _request(params: dict, view: str, allowed: tuple[str, ...]) -> AttentionRequest:
    unknown = set(params) - set(allowed)
    if unknown:
        raise TypeError(f"unexpected parameter {sorted(unknown)[0]!r}")
    r = AttentionRequest(**{"model": "", "text": "", **params, "view": view})
    text = checks.text(r.text, "text", 5000)
    if not text.strip():
        raise InputError("attention_empty_text", "Type a sentence first.")
    whole = lambda name, value: checks.whole(value, name, -1, 511)  # noqa: E731
    other = check_model(r.other) if r.other else ""
    return AttentionRequest(
        check_model(r.model), text, checks.text(r.text_b, "text_b", 5000), whole("layer", r.layer), whole("head", r.head),
        0, view, whole("query", r.query), other, fit=True,  # the script fits the indices to the model, as the page does
    )  # fmt: skip


_API = ("model", "text", "text_b", "layer", "head", "row_start")
_VIEW = ("model", "text", "text_b", "layer", "head", "query", "other")


def _maps(key: str, text_b: str, layer: int, head: int) -> list[str]:
    pair = f"tokenizer(text, {py(text_b)}, return_tensors='pt')" if text_b.strip() else "tokenizer(text, return_tensors='pt')"
    return [
        *load_model(key, _auto(key), eager=True),
        f"enc = {pair}  " + comment("[CLS] A [SEP] B [SEP]: token_type_ids 0 / 1", "两句时 token_type_ids 为 0 / 1"),
        "if (getattr(model.config, 'type_vocab_size', 0) or 0) <= 1:",
        "    enc.pop('token_type_ids', None)  " + comment("no segment embeddings", "没有分段嵌入"),
        "with torch.no_grad():",
        "    out = model(**enc.to(model.device), output_attentions=True)",
        "attentions = torch.stack(out.attentions)[:, 0].float()  # (layers, heads, T, T); row i = where token i looks",
        "tokens = tokenizer.convert_ids_to_tokens(enc['input_ids'][0])",
        f"layer, head = min({layer}, len(attentions) - 1), min({head}, attentions.shape[1] - 1)",
    ]


_SHOW = """
def show(title, matrix):
    print(title)
    for token, row in zip(tokens, matrix.tolist()):
        print(f"  {token!r:>14} " + " ".join(f"{p:.6f}" for p in row))
"""

_ROLLOUT = [
    comment("attention rollout (Abnar & Zuidema 2020): heads averaged, ½·I for the residual path",
            "注意力展开（Abnar & Zuidema 2020）：多头平均，加 ½·I 代表残差"),
    "flow = torch.eye(len(tokens), dtype=torch.float64)",
    "for a in attentions.double():",
    "    a = 0.5 * a.mean(0) + 0.5 * torch.eye(len(tokens), dtype=torch.float64)",
    "    flow = (a / a.sum(-1, keepdim=True)) @ flow",
]  # fmt: skip

_SUMMARY = [
    "received = attentions.mean(dim=(1, 2))  # (layers, T): attention each key token receives",
    "special = torch.tensor(tokenizer.get_special_tokens_mask(enc['input_ids'][0].tolist(), already_has_special_tokens=True))",
    "special[0] = 0  " + comment("the first token is counted on its own", "第一个词元单独统计"),
    "p = attentions.double()",
    "entropy = -(p * torch.log2(torch.where(p > 0, p, 1.0))).sum(-1).mean(-1)  # (layers, heads), bits",
    "for n, (first, rest, bits) in enumerate(zip(received[:, 0], received[:, special.bool()].sum(-1), entropy)):",
    "    print(f'layer {n}: first token {first.item():.6f}, other special tokens {rest.item():.6f}, '",
    "          'entropy ' + ' '.join(f'{b:.4f}' for b in bits.tolist()))",
]

_STEP = """
# {what}
captured = {{}}
blocks = [m for m in model.modules() if all(hasattr(m, n) for n in {names})]
hooks = [getattr(blocks[layer], n).register_forward_hook(lambda m, i, o, n=n: captured.setdefault(n, o[0]))
         for n in {names}]
with torch.no_grad():
    model(**enc, output_attentions=True)
for h in hooks:
    h.remove()
heads = model.config.num_attention_heads
q, k, v = (captured[n].reshape(len(tokens), heads, -1)[:, head].double() for n in {names})
query = {query} if {query} >= 0 else len(tokens) - 1
scores = k @ q[query] / q.shape[-1] ** 0.5  # q·k / √d
weights = scores.softmax(-1)  # {softmax}
print('query', repr(tokens[query]), 'layer', layer, 'head', head)
for token, s, w in zip(tokens, scores.tolist(), weights.tolist()):
    print(f"  {{token!r:>14}}  score {{s:.6f}}  weight {{w:.6f}}")
print('output', ' '.join(f'{{x:.6f}}' for x in (weights @ v).tolist()))
"""

_POSITIONAL = """
# {formula}
n, d = max(64, len(tokens)), model.config.hidden_size
pos = torch.arange(n, dtype=torch.float64)[:, None]
rates = 1.0 / 10000.0 ** (torch.arange(0, d, 2, dtype=torch.float64) / d)
pe = torch.zeros(n, d, dtype=torch.float64)
pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * rates), torch.cos(pos * rates[: d // 2])
print('sinusoid, first 4 positions:', [[round(x, 6) for x in row[:8]] for row in pe[:4].tolist()])
# {learned}
table = next((m.weight for name, m in model.named_modules()
              if isinstance(m, torch.nn.Embedding) and name.split('.')[-1] in {names}), None)
if table is None:
    print('no learned position table (rotary position embeddings)')
else:
    unit = torch.nn.functional.normalize(table[:n].detach().float(), dim=-1)
    similarity = unit @ unit.T
    for i in range(min(8, n)):
        print(f'  position {{i:>3}} ' + ' '.join(f'{{c:.6f}}' for c in similarity[i, :8].tolist()))
"""


def _view_lines(request: AttentionRequest) -> list[str]:
    view = request.view
    if view in ("head", "layer", "overview", "tokens"):
        return ["show(f'layer {layer} head {head}', attentions[layer, head])"]
    if view == "mean":
        return ["show(f'layer {layer}, mean over heads', attentions[layer].mean(0))"]
    if view == "rollout":
        return [*_ROLLOUT, "show('rollout', flow)"]
    if view in ("special", "entropy"):
        return list(_SUMMARY)
    if view == "step":
        names = next(iter(QKV_NAMES))
        return _STEP.format(
            what=comment("softmax(q·kᵀ/√d)·v by hand with the layer's own q, k, v (BERT-style query/key/value)",
                         "用该层自己的 q、k、v 手算 softmax(q·kᵀ/√d)·v"),
            names=py(names), query=request.query,
            softmax=comment("equals the model's own row: attentions[layer, head, query]", "与模型自己的注意力行相同"),
        ).strip("\n").splitlines()  # fmt: skip
    return _POSITIONAL.format(
        formula=comment("PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(...)", "正弦位置编码公式"),
        learned=comment("the model's learned position table: cosine between positions", "模型学到的位置表：位置之间的余弦"),
        names=py(tuple(POSITION_TABLE_NAMES)),
    ).strip("\n").splitlines()  # fmt: skip


def attention_code(request: AttentionRequest) -> Snippet:
    """The view's numbers from one eager forward pass with output_attentions (compare: one pass per model)."""
    lines = header(f"attention ({request.view})", f"注意力（{request.view}）", "import torch")
    compare = request.view == "compare"
    models = list(dict.fromkeys([request.model, request.other or request.model])) if compare else [request.model]
    lines += [f"from transformers import AutoTokenizer, {', '.join(sorted({_auto(k) for k in models}))}", ""]
    lines += [f"text = {py(request.text)}", *_SHOW.splitlines()]
    for key in models:
        lines += _maps(key, "" if compare else request.text_b, request.layer, request.head)
        shown = [f"show(f'{key} layer {{layer}} head {{head}}', attentions[layer, head])"]
        lines += shown if compare else _view_lines(request)
        lines.append("")
    return Snippet(join(lines), offline(models))


def api_code(request: AttentionRequest) -> Snippet:
    """/attention: one head, the mean over heads of its layer and the rollout."""
    snippet = attention_code(request)
    extra = ["show(f'layer {layer}, mean over heads', attentions[layer].mean(0))", *_ROLLOUT, "show('rollout', flow)"]
    return Snippet(join([snippet.code.rstrip("\n"), *extra]), snippet.runs_offline)


VIEWS = {
    "attention": (lambda params: _request(params, "head", _API), api_code),
    **{f"attention_{view}": (lambda params, view=view: _request(params, view, _VIEW), attention_code) for view in VIEW_PARTS},
}
