"""The from-scratch blocks of the take-home script, one per block kind, as the lines a student reads.

Each is the course's block, corrected (W^O is (h·d_v) × d_model; post-LN for BERT, pre-LN for GPT-2, pre-RMSNorm
for Llama), one comment per stage in both languages, followed by the line that builds it from the model's config.
`TEMPLATES` pairs each with where its parameters live in the real layer (as stage names of the block table).
"""

from __future__ import annotations

from playground.snippets import comment


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
