"""Code you can take home: each view of "Look inside a prediction" as a plain transformers script with hooks.

The scripts read the model the way the view does (the module paths come from the architectures table: the blocks,
W^O, the output head), and print the numbers the view shows; tests/unit/insight/test_insight_code.py runs each one
and compares its output with the view's result.
"""

from __future__ import annotations

from playground import checks
from playground.architectures import KINDS as BLOCK_KINDS
from playground.architectures import BlockKind
from playground.errors import InputError
from playground.forward.code import kind_of
from playground.insight import common
from playground.insight.attribution import MAX_STEPS, AttributionRequest
from playground.insight.knockout import MAX_HEADS_CHARS, MAX_TOP_K, KnockoutRequest, parse_heads
from playground.insight.lens import LensRequest
from playground.insight.patching import PatchRequest
from playground.registry import get_spec
from playground.snippets import Snippet, comment, header, join, load_model, offline, py

AUTO = {"masked": "AutoModelForMaskedLM", "causal": "AutoModelForCausalLM"}

_PRELUDE = """
mask = tokenizer.mask_token
enc = tokenizer(text.replace("[MASK]", mask) if mask else text, return_tensors="pt", return_special_tokens_mask=True)
special = enc.pop("special_tokens_mask")[0].tolist()
if (getattr(model.config, "type_vocab_size", 0) or 0) <= 1:
    enc.pop("token_type_ids", None)  # segment ids only where the model has segment embeddings (BERT)
ids = enc["input_ids"][0].tolist()
tokens = tokenizer.convert_ids_to_tokens(ids)
{where_comment}
ordinary = [i for i, s in enumerate(special) if not s]
position = ids.index(tokenizer.mask_token_id) if mask and tokenizer.mask_token_id in ids else ordinary[-1]
blocks = model.base_model.get_submodule({blocks!r})  # the stack of Transformer blocks
"""


def _head(kind: BlockKind) -> str:
    """The output head as module expressions, in order (BERT: MLM transform + decoder; GPT-2/Llama: final norm + LM
    head), from the architectures table's final stages."""
    parts = []
    for stage in kind.final:
        path = stage.path
        parts.append(
            f"model.get_submodule({path[4:]!r})" if path.startswith("top:") else f"model.base_model.get_submodule({path!r})"
        )
    return "[" + ", ".join(parts) + "]"


def _start(key: str, title_en: str, title_zh: str, text: str, imports: tuple[str, ...] = ()) -> tuple[list[str], BlockKind]:
    kind = kind_of(key)
    spec = get_spec(key)
    if spec.kind not in AUTO:
        raise InputError("input_model_kind", "{model} cannot be used here: the model must be of kind {kinds}.",
                         model=spec.label, name="model", kinds=" or ".join(AUTO))  # fmt: skip
    auto = AUTO[spec.kind]
    lines = header(title_en, title_zh, "import torch", *imports, f"from transformers import AutoTokenizer, {auto}")
    lines += [f"text = {py(text)}", *load_model(key, auto, eager=True)]
    prelude = _PRELUDE.format(
        blocks=kind.blocks,
        where_comment=comment(
            "the prediction: the first [MASK], else the last ordinary token (a causal LM predicts the next one)",
            "要看的预测：第一个 [MASK]，否则最后一个普通词元（因果模型预测它之后的词元）",
        ),
    )
    return lines + prelude.splitlines(), kind


_LENS = """
{hook_comment}
seen = {{}}


def block_input(module, args, kwargs):
    seen[0] = (args[0] if args else kwargs["hidden_states"])[0, position]


blocks[0].register_forward_pre_hook(block_input, with_kwargs=True)
for i, block in enumerate(blocks):
    def block_output(module, args, out, i=i):
        seen[i + 1] = (out[0] if isinstance(out, tuple) else out)[0, position]

    block.register_forward_hook(block_output)
head = {head}  # {head_comment}
with torch.no_grad():
    answer = int(model(**enc).logits[0, position].argmax())
    print("answer", repr(tokenizer.convert_ids_to_tokens(answer)), "at position", position)
    for layer in range(len(blocks) + 1):
        x = seen[layer]
        for module in head:
            x = module(x)
        p = x.float().softmax(-1)
        top = p.topk(top_k)
        rank = int((p > p[answer]).sum())
        words = tokenizer.convert_ids_to_tokens(top.indices.tolist())
        print(f"layer {{layer}}: top {{words}} | answer rank {{rank}} p={{p[answer].item():.6f}}")
"""


def lens_code(request: LensRequest) -> Snippet:
    lines, kind = _start(request.model, "layer by layer (logit lens)", "逐层读出（logit lens）", request.text)
    body = _LENS.format(
        head=_head(kind),
        head_comment="the model's own output head · 模型自己的输出头",
        hook_comment=comment(
            "every layer's hidden state at the prediction, by forward hooks", "用前向钩子取出每层在预测位置的隐藏状态"
        ),
    )
    return Snippet(join([*lines, f"top_k = {request.top_k}", *body.splitlines()]), offline([request.model]))


_ATTRIBUTION = """
{ig_comment}
extra = {{k: v for k, v in enc.items() if k != "input_ids"}}
x = model.get_input_embeddings()(enc["input_ids"])[0].detach()
# special tokens, the [MASK] and the first token (where a causal model's attention sinks) keep their embedding
keep = torch.tensor([n == 0 or bool(s) or i == tokenizer.mask_token_id for n, (s, i) in enumerate(zip(special, ids))])[:, None]
neutral = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.unk_token_id
fill = torch.zeros_like(x) if neutral is None else model.get_input_embeddings()(torch.tensor([neutral])).detach().expand_as(x)
baseline = torch.where(keep, x, fill)
with torch.no_grad():
    out = model(**enc, output_attentions=True)
answer = int(out.logits[0, position].argmax())


def grad(embeds):
    embeds = embeds.detach().requires_grad_(True)
    more = {{k: v.expand(len(embeds), -1) for k, v in extra.items()}}
    f = model(inputs_embeds=embeds, **more).logits[:, position].float().log_softmax(-1)[:, answer]  # log p(answer)
    return f.detach(), torch.autograd.grad(f.sum(), embeds)[0]


nodes, weights = np.polynomial.legendre.leggauss(steps)  # Gauss-Legendre on [-1, 1] -> [0, 1]
alphas, weights = (nodes + 1) / 2, weights / 2
total = torch.zeros_like(x)
for start in range(0, steps, 16):
    a = torch.tensor(alphas[start : start + 16], dtype=x.dtype)[:, None, None]
    w = torch.tensor(weights[start : start + 16], dtype=torch.float32)[:, None, None]
    total += (w * grad(baseline + a * (x - baseline))[1]).sum(0)
ig = ((x - baseline) * total).sum(-1)
ends, g = grad(torch.stack([x, baseline]))
grad_input = (x * g[0]).sum(-1)

{rollout_comment}
maps = torch.stack([a[0] for a in out.attentions]).double()  # (layers, heads, T, T)
roll = torch.eye(len(ids), dtype=torch.float64)
for a in maps:
    a = 0.5 * a.mean(0) + 0.5 * torch.eye(len(ids))
    roll = (a / a.sum(-1, keepdim=True)) @ roll
head_row = maps[layer, head, position]
print("answer", repr(tokenizer.convert_ids_to_tokens(answer)), "at position", position)
for i, tok in enumerate(tokens):
    scores = f"ig={{ig[i]:+.6f}} gxi={{grad_input[i]:+.6f}} head={{head_row[i]:.5f}} rollout={{roll[position, i]:.5f}}"
    print(i, repr(tok), scores)
delta = (ends[0] - ends[1]).item()
error = abs(ig.sum().item() - delta) / abs(delta)
print(f"sum ig = {{ig.sum().item():.6f}}; f(x) - f(baseline) = {{delta:.6f}}; error {{error:.2%}}")
"""


def attribution_code(request: AttributionRequest) -> Snippet:
    lines, _ = _start(request.model, "attribution beside attention", "归因与注意力并排", request.text, ("import numpy as np",))
    body = _ATTRIBUTION.format(
        ig_comment=comment(
            "Integrated Gradients over the token embeddings, f = log p(answer); baseline: each word made the padding token",
            "对词元嵌入做积分梯度，f = log p(答案)；基线：把每个词换成填充词元",
        ),
        rollout_comment=comment("one head's attention and the rollout (Abnar & Zuidema 2020)", "一个头的注意力与注意力展开"),
    )
    layer = f"layer = {request.layer} if {request.layer} >= 0 else model.config.num_hidden_layers - 1"
    return Snippet(join([*lines, f"steps, head = {request.steps}, {request.head}", layer, *body.splitlines()]),
                   offline([request.model]))  # fmt: skip


_HEADS_OF = """

def heads_of(spec):
    layers, n = model.config.num_hidden_layers, model.config.num_attention_heads
    out = []
    for item in spec.replace(",", " ").split():
        if item in ("*", "all"):
            out += [(layer, h) for layer in range(layers) for h in range(n)]
        elif "." in item and not item.endswith("*"):
            out.append(tuple(int(x) for x in item.split(".")))
        else:
            out += [(int(item.split(".")[0]), h) for h in range(n)]
    return list(dict.fromkeys(out))

"""

_KNOCKOUT = """
{hook_comment}
width = getattr(model.config, "head_dim", None) or model.config.hidden_size // model.config.num_attention_heads


def silence(heads):
    def hook(module, args):
        x = args[0].clone()  # the heads concatenated: W^O's input, (batch, T, heads · d_v)
        for h in heads:
            x[..., h * width : (h + 1) * width] = 0
        return (x, *args[1:])

    return hook


def probs_without(knocked):
    handles = []
    for layer in sorted({{l for l, _ in knocked}}):
        heads = [h for l, h in knocked if l == layer]
        handles.append(blocks[layer].get_submodule({w_o!r}).register_forward_pre_hook(silence(heads)))
    with torch.no_grad():
        p = model(**enc).logits[0, position].float().softmax(-1)
    for handle in handles:
        handle.remove()
    return p


before, after = probs_without([]), probs_without(knocked)
answer = int(before.argmax())
word = tokenizer.convert_ids_to_tokens(answer)
print(f"p({{word!r}}) with every head {{before[answer]:.6f}}, with {{len(knocked)}} heads silenced {{after[answer]:.6f}}")
print("top-5 after:", tokenizer.convert_ids_to_tokens(after.topk(5).indices.tolist()))
{rank_comment}
for layer in range(model.config.num_hidden_layers):
    for h in range(model.config.num_attention_heads):
        print(f"head {{layer}}.{{h}} delta={{probs_without([(layer, h)])[answer] - before[answer]:+.6f}}")
"""


def knockout_code(request: KnockoutRequest) -> Snippet:
    lines, kind = _start(request.model, "knock out attention heads", "关掉注意力头", request.text)
    w_o = next(s.path for s in kind.block if s.name == "attn.concat")
    body = _KNOCKOUT.format(
        w_o=w_o,
        hook_comment=comment(
            "silence heads with a forward pre-hook on W^O (head_mask is ignored by transformers 5.23)",
            "用 W^O 上的前向预钩子让头静音（transformers 5.23 会忽略 head_mask）",
        ),
        rank_comment=comment("each head alone: how much it changes p(answer)", "每次只关一个头：p(答案) 变化多少"),
    )
    spec = f"\nknocked = heads_of({py(request.heads)})  # layer.head, a whole layer, or * for every head"
    return Snippet(join([*lines, *_HEADS_OF.splitlines(), spec, *body.splitlines()]), offline([request.model]))


_PATCH = """
{hook_comment}
enc_a = tokenizer(source.replace("[MASK]", mask) if mask else source, return_tensors="pt")
if "token_type_ids" not in enc:
    enc_a.pop("token_type_ids", None)
ids_a = enc_a["input_ids"][0].tolist()
if position < 0:  # the first position where the two sentences differ
    position = next((i for i, (a, b) in enumerate(zip(ids_a, ids)) if a != b), min(len(ids_a), len(ids)) - 1)
seen = {{}}


def grab(module, args, kwargs):
    seen["x"] = (args[0] if args else kwargs["hidden_states"])[0, position].clone()


grabbing = blocks[layer].register_forward_pre_hook(grab, with_kwargs=True)
with torch.no_grad():
    model(**enc_a)
grabbing.remove()


def put(module, args, kwargs):
    x = (args[0] if args else kwargs["hidden_states"]).clone()
    x[:, position] = seen["x"]
    return ((x, *args[1:]), kwargs) if args else (args, {{**kwargs, "hidden_states": x}})


with torch.no_grad():
    plain = model(**enc).logits[0].float().softmax(-1)
    patch = blocks[layer].register_forward_pre_hook(put, with_kwargs=True)
    patched = model(**enc).logits[0].float().softmax(-1)
    patch.remove()
change = 0.5 * (plain - patched).abs().sum(-1)  # total variation, per position
for i, tok in enumerate(tokens):
    side = "patched" if i == position else "left" if i < position else "right"
    print(f"{{i}} {{tok!r}} {{side}} change={{change[i]:.6f}}")
"""


def patching_code(request: PatchRequest) -> Snippet:
    lines, _ = _start(request.model, "activation patching", "激活修补", request.text)
    body = _PATCH.format(
        hook_comment=comment(
            "sentence A's hidden state entering block `layer` at `position`, copied into sentence B's pass",
            "把句子 A 进入第 layer 块、位置 position 的隐藏状态复制到句子 B 的计算中",
        )
    )
    head = [f"source = {py(request.source)}", f"layer, position = {request.layer}, {request.position}"]
    return Snippet(join([*lines, *head, *body.splitlines()]), offline([request.model]))


def _params(params: dict, allowed: set[str]) -> dict:
    unknown = set(params) - allowed
    if unknown:
        raise TypeError(f"unexpected parameter {sorted(unknown)[0]!r}")
    return params


def _model(value) -> str:
    key = checks.model_key(value, "model", common.KINDS)
    kind_of(key)  # refused in words when the block table lacks its layout
    return key


def _lens(params: dict) -> LensRequest:
    p = {"model": "", "text": "", "top_k": 5, **_params(params, {"model", "text", "top_k"})}
    return LensRequest(_model(p["model"]), common.text(p["text"]), checks.whole(p["top_k"], "top_k", 1, 10))


def _attribution(params: dict) -> AttributionRequest:
    p = {"model": "", "text": "", "layer": -1, "head": 0, "steps": 32}
    p |= _params(params, {"model", "text", "layer", "head", "steps"})
    layer, head = checks.whole(p["layer"], "layer", -1, 255), checks.whole(p["head"], "head", 0, 255)
    steps = checks.whole(p["steps"], "steps", 2, MAX_STEPS)
    return AttributionRequest(_model(p["model"]), common.text(p["text"]), layer, head, steps)


def _knockout(params: dict) -> KnockoutRequest:
    p = {"model": "", "text": "", "heads": "", "top_k": 5, **_params(params, {"model", "text", "heads", "top_k"})}
    heads = checks.text(p["heads"], "heads", MAX_HEADS_CHARS)
    parse_heads(heads)
    return KnockoutRequest(_model(p["model"]), common.text(p["text"]), heads, checks.whole(p["top_k"], "top_k", 1, MAX_TOP_K))


def _patching(params: dict) -> PatchRequest:
    p = {"model": "", "text": "", "source": PatchRequest.source, "layer": 0, "position": -1}
    p |= _params(params, {"model", "text", "source", "layer", "position"})
    return PatchRequest(_model(p["model"]), common.text(p["text"]), common.text(p["source"], "source"),
                        checks.whole(p["layer"], "layer", 0, 255), checks.whole(p["position"], "position", -1, 255))  # fmt: skip


VIEWS = {
    "insight_lens": (_lens, lens_code),
    "insight_attribution": (_attribution, attribution_code),
    "insight_knockout": (_knockout, knockout_code),
    "insight_patching": (_patching, patching_code),
}
__all__ = ["VIEWS", "BLOCK_KINDS"]
