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
from playground.snippets import Snippet, comment, header, join, load_model, offline, py

AUTO = {"masked": "AutoModelForMaskedLM", "causal": "AutoModelForCausalLM", "encoder": "AutoModel"}
MAX_LAYER = 63


@dataclass(frozen=True)
class BlockCodeRequest:
    model: str
    text: str
    layer: int = 0  # fitted to the model's layers in the script, as the page's layer stepper is


def _c(en: str, zh: str) -> str:
    return comment(en, zh, "        ")


POST_LN = [
    "class Block(nn.Module):",
    '    """BERT\'s encoder block, post-LN: h = LayerNorm(x + MultiHead(x)); out = LayerNorm(h + FFN(h))."""',
    "",
    "    def __init__(self, d_model, n_heads, d_ff, eps):",
    "        super().__init__()",
    "        self.n_heads = n_heads",
    "        self.W_q, self.W_k, self.W_v = (nn.Linear(d_model, d_model) for _ in range(3))",
    "        self.W_o = nn.Linear(d_model, d_model)  # W^O: (h·d_v) × d_model",
    "        self.ln1, self.ln2 = nn.LayerNorm(d_model, eps=eps), nn.LayerNorm(d_model, eps=eps)",
    "        self.W_1, self.W_2 = nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_model)",
    "",
    "    def forward(self, x):  # x: (T, d_model), one sentence",
    "        T = x.shape[0]",
    _c("Q, K, V for every head: (heads, T, d_head)", "每个头的 Q、K、V：(头数, T, d_head)"),
    "        q, k, v = (W(x).view(T, self.n_heads, -1).transpose(0, 1) for W in (self.W_q, self.W_k, self.W_v))",
    _c("scores q·kᵀ/√d, softmax: every token sees every token (no mask)", "打分 q·kᵀ/√d 再 softmax：双向，无掩码"),
    "        A = (q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5).softmax(-1)",
    _c("weighted sum of the values; heads concatenated to (T, h·d_v)", "对 V 加权求和；各头拼接为 (T, h·d_v)"),
    "        heads = (A @ v).transpose(0, 1).reshape(T, -1)",
    _c("× W^O, add the residual, then LayerNorm (post-LN)", "乘 W^O，加残差，再做 LayerNorm（后置归一化）"),
    "        h = self.ln1(x + self.W_o(heads))",
    _c("position-wise FFN: d_model -> d_ff -> d_model, GELU between", "逐位置前馈网络：d_model -> d_ff -> d_model，中间 GELU"),
    "        ffn = self.W_2(F.gelu(self.W_1(h)))",
    _c("add the residual, then LayerNorm again", "加残差，再做一次 LayerNorm"),
    "        return self.ln2(h + ffn)",
    "",
    "cfg = model.config",
    "block = Block(cfg.hidden_size, cfg.num_attention_heads, cfg.intermediate_size, cfg.layer_norm_eps)",
]

PRE_LN = [
    "class Block(nn.Module):",
    '    """GPT-2\'s block, pre-LN: x = x + MultiHead(LayerNorm(x)); out = x + FFN(LayerNorm(x)), causal."""',
    "",
    "    def __init__(self, d_model, n_heads, d_ff, eps):",
    "        super().__init__()",
    "        self.n_heads = n_heads",
    "        self.ln1, self.ln2 = nn.LayerNorm(d_model, eps=eps), nn.LayerNorm(d_model, eps=eps)",
    "        self.W_qkv = nn.Linear(d_model, 3 * d_model)  # q | k | v in one matmul (GPT-2's c_attn)",
    "        self.W_o = nn.Linear(d_model, d_model)  # W^O: (h·d_v) × d_model",
    "        self.W_1, self.W_2 = nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_model)",
    "",
    "    def forward(self, x):  # x: (T, d_model), one sentence",
    "        T = x.shape[0]",
    _c("LayerNorm first (pre-LN), then Q, K, V for every head", "先 LayerNorm（前置归一化），再算每个头的 Q、K、V"),
    "        q, k, v = (t.view(T, self.n_heads, -1).transpose(0, 1) for t in self.W_qkv(self.ln1(x)).chunk(3, -1))",
    _c("scores q·kᵀ/√d; the causal mask hides later tokens; softmax", "打分 q·kᵀ/√d；因果掩码遮住后面的词元；softmax"),
    "        scores = q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5",
    "        A = scores.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float('-inf')).softmax(-1)",
    _c("weighted sum of the values; heads concatenated to (T, h·d_v)", "对 V 加权求和；各头拼接为 (T, h·d_v)"),
    "        heads = (A @ v).transpose(0, 1).reshape(T, -1)",
    _c("× W^O, added to the residual stream (the sum is not normalised)", "乘 W^O，加回残差流（和不再归一化）"),
    "        x = x + self.W_o(heads)",
    _c("FFN on LayerNorm(x): d_model -> d_ff -> d_model, GELU (tanh form), added", "对 LayerNorm(x) 做前馈，GELU，再加回"),
    "        return x + self.W_2(F.gelu(self.W_1(self.ln2(x)), approximate='tanh'))",
    "",
    "cfg = model.config",
    "block = Block(cfg.n_embd, cfg.n_head, cfg.n_inner or 4 * cfg.n_embd, cfg.layer_norm_epsilon)",
]

PRE_RMS = [
    "class Block(nn.Module):",
    '    """Llama\'s block, pre-RMSNorm: RoPE, grouped-query attention, SwiGLU feed-forward, causal."""',
    "",
    "    def __init__(self, d_model, n_heads, n_kv, d_head, d_ff, eps, inv_freq):",
    "        super().__init__()",
    "        self.n_heads, self.n_kv, self.inv_freq = n_heads, n_kv, inv_freq",
    "        self.norm1, self.norm2 = nn.RMSNorm(d_model, eps=eps), nn.RMSNorm(d_model, eps=eps)",
    "        self.W_q = nn.Linear(d_model, n_heads * d_head, bias=False)",
    "        self.W_k, self.W_v = (nn.Linear(d_model, n_kv * d_head, bias=False) for _ in range(2))",
    "        self.W_o = nn.Linear(n_heads * d_head, d_model, bias=False)  # W^O: (h·d_v) × d_model",
    "        self.W_gate, self.W_up = (nn.Linear(d_model, d_ff, bias=False) for _ in range(2))",
    "        self.W_down = nn.Linear(d_ff, d_model, bias=False)",
    "",
    "    def rope(self, t):  # rotate dims (i, i + d/2) by the angle position × frequency_i",
    "        angles = torch.arange(t.shape[1])[:, None] * self.inv_freq[None, :]",
    "        angles = torch.cat([angles, angles], -1)",
    "        half = t.shape[-1] // 2",
    "        return t * angles.cos() + torch.cat([-t[..., half:], t[..., :half]], -1) * angles.sin()",
    "",
    "    def forward(self, x):  # x: (T, d_model), one sentence",
    "        T, h = x.shape[0], self.norm1(x)",
    _c("RMSNorm first (x / rms(x) · g), then Q for every head, K and V for fewer", "先 RMSNorm，再算 Q；K、V 的头更少"),
    "        q = self.W_q(h).view(T, self.n_heads, -1).transpose(0, 1)",
    "        k, v = (W(h).view(T, self.n_kv, -1).transpose(0, 1) for W in (self.W_k, self.W_v))",
    _c("RoPE: the position enters q and k by rotation, not the embeddings", "RoPE：位置以旋转的方式进入 q 和 k"),
    "        q, k = self.rope(q), self.rope(k)",
    _c("grouped-query attention: query heads share each K, V head in groups", "分组查询注意力：几个查询头共用一组 K、V"),
    "        k, v = (t.repeat_interleave(self.n_heads // self.n_kv, 0) for t in (k, v))",
    _c("scores q·kᵀ/√d; the causal mask hides later tokens; softmax", "打分 q·kᵀ/√d；因果掩码遮住后面的词元；softmax"),
    "        scores = q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5",
    "        A = scores.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float('-inf')).softmax(-1)",
    _c("heads concatenated to (T, h·d_v), × W^O, added to the stream", "各头拼接为 (T, h·d_v)，乘 W^O，加回残差流"),
    "        x = x + self.W_o((A @ v).transpose(0, 1).reshape(T, -1))",
    _c("SwiGLU FFN on RMSNorm(x): SiLU(x·W_gate) ⊙ (x·W_up), then W_down, added", "对 RMSNorm(x) 做 SwiGLU 前馈，再加回"),
    "        h = self.norm2(x)",
    "        return x + self.W_down(F.silu(self.W_gate(h)) * self.W_up(h))",
    "",
    "cfg = model.config",
    "d_head = getattr(cfg, 'head_dim', None) or cfg.hidden_size // cfg.num_attention_heads",
    "inv_freq = model.base_model.rotary_emb.inv_freq  # RoPE's frequencies 1/θ^(2i/d), as the model keeps them",
    "block = Block(cfg.hidden_size, cfg.num_attention_heads, cfg.num_key_value_heads, d_head,",
    "              cfg.intermediate_size, cfg.rms_norm_eps, inv_freq)",
]

# block kind -> (its class and construction, {our parameter: the stage whose module holds the real one})
TEMPLATES = {
    "post_ln": (POST_LN, {"W_q": "attn.q", "W_k": "attn.k", "W_v": "attn.v", "W_o": "attn.out", "ln1": "ln1",
                          "W_1": "mlp.pre_act", "W_2": "mlp.out", "ln2": "resid_post"}),
    "pre_ln": (PRE_LN, {"ln1": "ln1", "W_qkv": "attn.q", "W_o": "attn.out", "ln2": "ln2", "W_1": "mlp.pre_act",
                        "W_2": "mlp.out"}),
    "pre_rms": (PRE_RMS, {"norm1": "ln1", "W_q": "attn.q", "W_k": "attn.k", "W_v": "attn.v", "W_o": "attn.out",
                          "norm2": "ln2", "W_gate": "mlp.pre_act", "W_up": "mlp.up", "W_down": "mlp.out"}),
}  # fmt: skip

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
    from playground.forward import KINDS

    text = checks.text(r.text, "text", 2000)
    if not text.strip():
        raise InputError("forward_empty_text", "Type a sentence first.")
    return BlockCodeRequest(checks.model_key(r.model, "model", KINDS), text, checks.whole(r.layer, "layer", 0, MAX_LAYER))


VIEWS = {"forward_block": (_request, block_code)}
