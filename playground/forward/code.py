"""Code you can take home: one Transformer block from scratch in plain PyTorch, the real layer's weights copied in.

The script builds the block of the model's kind (post-LN BERT, pre-LN GPT-2, pre-RMSNorm Llama) as a student
writes it, one comment per stage, copies one layer's weights out of the real model, runs the real model with
hooks on that layer, and prints how far its own output is from the layer's (about 1e-6 of the values' scale).
The module paths it copies from are the architectures table's.
"""

from __future__ import annotations

from dataclasses import dataclass

from playground import checks
from playground.architectures import KINDS as BLOCK_KINDS
from playground.architectures import BlockKind
from playground.errors import InputError
from playground.registry import get_spec
from playground.forward.blocks import TEMPLATES
from playground.snippets import Snippet, comment, header, join, load_model, offline, py
from playground.forward import KINDS

AUTO = {"masked": "AutoModelForMaskedLM", "causal": "AutoModelForCausalLM", "encoder": "AutoModel"}
MAX_LAYER = 63


@dataclass(frozen=True)
class BlockCodeRequest:
    model: str
    text: str
    layer: int = 0  # fitted to the model's layers in the script, as the page's layer stepper is


_COPY = """
{copy_comment}
real = model.base_model.get_submodule({blocks!r})[layer]
names = {{  # our parameter -> the real layer's module that holds it
{names}
}}
with torch.no_grad():
    for mine, theirs in names.items():
        source, target = real.get_submodule(theirs), getattr(block, mine)
        weight = source.weight.T if hasattr(source, "nf") else source.weight  # GPT-2's Conv1D stores (in, out)
        target.weight.copy_(weight)
        if getattr(target, "bias", None) is not None:
            target.bias.copy_(source.bias)
block.eval()

{hook_comment}
seen = {{}}
real.register_forward_pre_hook(lambda m, args: seen.update(x=args[0][0]))
real.register_forward_hook(lambda m, args, out: seen.update(y=(out[0] if isinstance(out, tuple) else out)[0]))
enc = tokenizer(text, return_tensors="pt")
if (getattr(cfg, "type_vocab_size", 0) or 0) <= 1:
    enc.pop("token_type_ids", None)
with torch.no_grad():
    model(**enc)
    mine = block(seen["x"])
print("layer", layer, "tokens", len(seen["x"]))
print("max |block(x) - layer(x)| =", (mine - seen["y"]).abs().max().item())
print("max |layer(x)| =", seen["y"].abs().max().item())
"""


def kind_of(key: str) -> BlockKind:
    """The block kind of a registered model, from its spec (no weights loaded)."""
    spec = get_spec(key)
    if spec.model_type not in BLOCK_KINDS:
        raise InputError(
            "forward_unknown_architecture",
            "{model} has a block layout this view does not know ({model_type}); it knows: {known}.",
            model=spec.label,
            model_type=spec.model_type or spec.kind,
            known=", ".join(sorted(BLOCK_KINDS)),
        )
    return BLOCK_KINDS[spec.model_type]


def block_code(request: BlockCodeRequest) -> Snippet:
    """A from-scratch block of the model's kind, one layer's weights copied in, checked against that layer."""
    kind = kind_of(request.model)
    template, params = TEMPLATES[kind.key]
    stages = {s.name: s.path for s in kind.block}
    auto = AUTO[get_spec(request.model).kind]
    lines = header(
        f"one {kind.label.split(' (')[0]} from scratch", "从零写一个 Transformer 块", "import torch",
        "import torch.nn.functional as F", "from torch import nn", f"from transformers import AutoTokenizer, {auto}",
    )  # fmt: skip
    lines += [f"text = {py(request.text)}", *load_model(request.model, auto), ""]
    lines += [f"layer = min({request.layer}, model.config.num_hidden_layers - 1)", "", *template]
    copy = _COPY.format(
        blocks=kind.blocks,
        names="\n".join(f"    {mine!r}: {stages[stage]!r}," for mine, stage in params.items()),
        copy_comment=comment("copy this layer's weights out of the real model", "把真实模型这一层的权重复制过来"),
        hook_comment=comment("what the real layer read and wrote, by forward hooks", "用前向钩子取出这一层的输入和输出"),
    )
    return Snippet(join(lines + copy.splitlines()), offline([request.model]))


def _request(params: dict) -> BlockCodeRequest:
    unknown = set(params) - {"model", "text", "layer"}
    if unknown:
        raise TypeError(f"unexpected parameter {sorted(unknown)[0]!r}")
    r = BlockCodeRequest(**{"model": "", "text": "", **params})
    text = checks.text(r.text, "text", 2000)
    if not text.strip():
        raise InputError("forward_empty_text", "Type a sentence first.")
    return BlockCodeRequest(checks.model_key(r.model, "model", KINDS), text, checks.whole(r.layer, "layer", 0, MAX_LAYER))


VIEWS = {"forward_block": (_request, block_code)}
