"""Transformer block kinds as data: where each stage of a forward pass lives in a model, and its formula.

One row per block kind (post-LN BERT, pre-LN GPT-2, pre-RMSNorm Llama, T5's decoder block with cross-attention).
A row names every stage's module, which side of it holds the stage (its output, its
second output, its input), how `playground.forward.formulas` recomputes it from other stages and the weights,
and the formula a student reads. `playground.capture` reads this table and nothing else, so a view asks for
stage names ("blocks.3.attn.out"), never for modules or model names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from playground.errors import InputError


@dataclass(frozen=True)
class Stage:
    name: str  # block stages are named "blocks.{i}.<name>"; the others as they are ("embed.token", "logits")
    path: str  # module path in the base model (block stages: inside the block); "top:" = in the whole model
    at: str = "out"  # "out": the module's output (first of a tuple), "out1": its second output, "in": its first input
    part: int = -1  # >= 0: this third of a fused output (GPT-2's c_attn computes q | k | v in one matmul)
    op: str = ""  # how formulas.py recomputes it (a key of formulas.OPS)
    inputs: tuple[str, ...] = ()  # the stages (or "ids", "positions", "segments") it is computed from
    formula: str = ""  # what the student reads
    optional: bool = False  # absent when the model lacks the module (a BertModel has no MLM head)


@dataclass(frozen=True)
class BlockKind:
    key: str
    label: str
    blocks: str  # path of the list of blocks inside the base model
    norm: str  # "post": add then normalise (BERT); "pre": normalise the sub-layer's input (GPT-2, Llama)
    causal: bool  # each token attends only to itself and earlier tokens
    rope: bool  # rotary position embeddings applied to q and k inside attention
    act: str  # the config attribute naming the FFN activation
    embed: tuple[Stage, ...]  # before the first block; the last one is what block 0 reads
    block: tuple[Stage, ...]  # one block, in order; "resid_pre" (its input) comes first, "resid_post" last
    final: tuple[Stage, ...]  # after the last block: final norm, output head, logits (inputs "last.*": last block)
    rotary: str = ""  # path of the rotary embedding module (its inv_freq buffer gives the angles)
    relative_bias: str = ""  # path of the attention module whose table gives the relative position bias (T5)


def _attention(
    qkv: tuple[str, str, str],
    pattern: str,
    w_o: str,
    source: str,
    part: bool = False,
    bias: bool = True,
    weights_at: str = "out1",
) -> tuple[Stage, ...]:
    """q, k, v -> pattern -> heads concatenated -> × W^O: the same stages in every kind, only the paths differ."""
    b = " + b" if bias else ""  # Llama's projections have no bias
    proj = [
        Stage(f"attn.{n}", path, part=i if part else -1, op="linear", inputs=(source,), formula=f"{n} = x·W_{n.upper()}{b}")
        for i, (n, path) in enumerate(zip("qkv", qkv))
    ]
    return (
        *proj,
        Stage("attn.pattern", pattern, weights_at, op="attention", inputs=("attn.q", "attn.k"),
              formula="A = softmax(q·kᵀ/√d_head + mask)"),
        Stage("attn.concat", w_o, "in", op="mix", inputs=("attn.pattern", "attn.v"), formula="concat_h(A_h·v_h): (T, h·d_v)"),
        Stage("attn.out", w_o, op="linear", inputs=("attn.concat",), formula=f"concat·W^O{b}, W^O: (h·d_v) × d_model"),
    )  # fmt: skip


_RESID_PRE = Stage("resid_pre", "", "in", op="same", inputs=("prev",), formula="x: the previous block's output")

POST_LN = BlockKind(
    key="post_ln",
    label="post-LN encoder block (BERT, MiniLM, e5)",
    blocks="encoder.layer",
    norm="post",
    causal=False,
    rope=False,
    act="hidden_act",
    embed=(
        Stage("embed.token", "embeddings.word_embeddings", op="embedding", inputs=("ids",), formula="E_token[id]"),
        Stage("embed.segment", "embeddings.token_type_embeddings", op="embedding", inputs=("segments",), formula="E_segment[s]"),
        Stage("embed.position", "embeddings.position_embeddings", op="embedding", inputs=("positions",), formula="E_pos[p]"),
        Stage("embed.sum", "embeddings.LayerNorm", "in", op="add", inputs=("embed.token", "embed.segment", "embed.position"),
              formula="token + segment + position"),
        Stage("embed.ln", "embeddings.LayerNorm", op="layernorm", inputs=("embed.sum",), formula="LayerNorm(sum)"),
    ),
    block=(
        _RESID_PRE,
        *_attention(("attention.self.query", "attention.self.key", "attention.self.value"), "attention.self",
                    "attention.output.dense", "resid_pre"),
        Stage("resid_mid", "attention.output.LayerNorm", "in", op="add", inputs=("resid_pre", "attn.out"),
              formula="x + Attn(x)"),
        Stage("ln1", "attention.output.LayerNorm", op="layernorm", inputs=("resid_mid",), formula="LayerNorm(x + Attn(x))"),
        Stage("mlp.pre_act", "intermediate.dense", op="linear", inputs=("ln1",), formula="h·W₁ + b₁"),
        Stage("mlp.post_act", "output.dense", "in", op="act", inputs=("mlp.pre_act",), formula="GELU(h·W₁ + b₁)"),
        Stage("mlp.out", "output.dense", op="linear", inputs=("mlp.post_act",), formula="GELU(h·W₁ + b₁)·W₂ + b₂"),
        Stage("resid_mlp", "output.LayerNorm", "in", op="add", inputs=("ln1", "mlp.out"), formula="h + FFN(h)"),
        Stage("resid_post", "output.LayerNorm", op="layernorm", inputs=("resid_mlp",), formula="LayerNorm(h + FFN(h))"),
    ),
    final=(
        # BERT's MLM head: dense + GELU + LayerNorm, then the decoder tied to the token embeddings (+ its bias)
        Stage("head.transform", "top:cls.predictions.transform", op="mlm_transform", inputs=("last.resid_post",),
              formula="LayerNorm(GELU(h·W + b))", optional=True),
        Stage("logits", "top:cls.predictions.decoder", op="linear", inputs=("head.transform",),
              formula="t·E_tokenᵀ + b", optional=True),
    ),
)  # fmt: skip

PRE_LN = BlockKind(
    key="pre_ln",
    label="pre-LN decoder block (GPT-2)",
    blocks="h",
    norm="pre",
    causal=True,
    rope=False,
    act="activation_function",
    embed=(
        Stage("embed.token", "wte", op="embedding", inputs=("ids",), formula="E_token[id]"),
        Stage("embed.position", "wpe", op="embedding", inputs=("positions",), formula="E_pos[p]"),
        Stage("embed.sum", "drop", op="add", inputs=("embed.token", "embed.position"), formula="token + position"),
    ),
    block=(
        _RESID_PRE,
        Stage("ln1", "ln_1", op="layernorm", inputs=("resid_pre",), formula="LayerNorm(x)"),
        *_attention(("attn.c_attn",) * 3, "attn", "attn.c_proj", "ln1", part=True),
        Stage("resid_mid", "ln_2", "in", op="add", inputs=("resid_pre", "attn.out"), formula="x + Attn(LayerNorm(x))"),
        Stage("ln2", "ln_2", op="layernorm", inputs=("resid_mid",), formula="LayerNorm(h)"),
        Stage("mlp.pre_act", "mlp.c_fc", op="linear", inputs=("ln2",), formula="LayerNorm(h)·W₁ + b₁"),
        Stage("mlp.post_act", "mlp.c_proj", "in", op="act", inputs=("mlp.pre_act",), formula="GELU(·)"),
        Stage("mlp.out", "mlp.c_proj", op="linear", inputs=("mlp.post_act",), formula="GELU(·)·W₂ + b₂"),
        Stage("resid_post", "", op="add", inputs=("resid_mid", "mlp.out"), formula="h + FFN(LayerNorm(h))"),
    ),
    final=(
        Stage("final_norm", "ln_f", op="layernorm", inputs=("last.resid_post",), formula="LayerNorm(x_L)"),
        Stage("logits", "top:lm_head", op="linear", inputs=("final_norm",), formula="LayerNorm(x_L)·E_tokenᵀ",
              optional=True),
    ),
)  # fmt: skip

PRE_RMS = BlockKind(
    key="pre_rms",
    label="pre-RMSNorm decoder block (Llama, SmolLM2): RoPE, grouped-query attention, SwiGLU",
    blocks="layers",
    norm="pre",
    causal=True,
    rope=True,
    act="hidden_act",
    rotary="rotary_emb",
    embed=(Stage("embed.token", "embed_tokens", op="embedding", inputs=("ids",), formula="E_token[id] (no position: RoPE)"),),
    block=(
        _RESID_PRE,
        Stage("ln1", "input_layernorm", op="rmsnorm", inputs=("resid_pre",), formula="x / rms(x) · g"),
        *_attention(("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj"), "self_attn", "self_attn.o_proj", "ln1",
                    bias=False),
        Stage("resid_mid", "post_attention_layernorm", "in", op="add", inputs=("resid_pre", "attn.out"),
              formula="x + Attn(RMSNorm(x))"),
        Stage("ln2", "post_attention_layernorm", op="rmsnorm", inputs=("resid_mid",), formula="h / rms(h) · g"),
        Stage("mlp.pre_act", "mlp.gate_proj", op="linear", inputs=("ln2",), formula="gate = RMSNorm(h)·W_gate"),
        Stage("mlp.up", "mlp.up_proj", op="linear", inputs=("ln2",), formula="up = RMSNorm(h)·W_up"),
        Stage("mlp.post_act", "mlp.down_proj", "in", op="swiglu", inputs=("mlp.pre_act", "mlp.up"),
              formula="SiLU(gate) ⊙ up"),
        Stage("mlp.out", "mlp.down_proj", op="linear", inputs=("mlp.post_act",), formula="(SiLU(gate) ⊙ up)·W_down"),
        Stage("resid_post", "", op="add", inputs=("resid_mid", "mlp.out"), formula="h + FFN(RMSNorm(h))"),
    ),
    final=(
        Stage("final_norm", "norm", op="rmsnorm", inputs=("last.resid_post",), formula="x_L / rms(x_L) · g"),
        Stage("logits", "top:lm_head", op="linear", inputs=("final_norm",), formula="RMSNorm(x_L)·W_LMᵀ", optional=True),
    ),
)  # fmt: skip

# T5's decoder block: self-attention -> cross-attention -> FFN, each pre-normed by T5's RMS LayerNorm (no mean, no
# bias) and added back. No position embedding: a learned relative position bias (a table of buckets in block 0,
# shared by the others) is added to the scores, which T5 does not scale by 1/√d. Cross-attention reads the encoder's
# output: its keys and values come from the source, its queries from the decoder. The ReLU FFN is T5 v1.0's
# (t5-small, the classroom T5); T5 v1.1 / Flan-T5's gated FFN (wi_0, wi_1) is another row, not written.
T5_DECODER = BlockKind(
    key="t5_decoder",
    label="T5 decoder block: self-attention, cross-attention, FFN (pre-RMSNorm, relative position bias)",
    blocks="decoder.block",
    norm="pre",
    causal=True,
    rope=False,
    act="dense_act_fn",
    relative_bias="decoder.block.0.layer.0.SelfAttention",
    embed=(
        Stage("encoder.out", "top:encoder.final_layer_norm", op="same", inputs=("encoder.out",),
              formula="Enc(source): the encoder stack's output, what every cross-attention reads"),
        Stage("embed.token", "decoder.embed_tokens", op="embedding", inputs=("ids",),
              formula="E_token[id] (no position: a relative bias in the scores)"),
    ),
    block=(
        _RESID_PRE,
        Stage("ln1", "layer.0.layer_norm", op="rmsnorm", inputs=("resid_pre",), formula="x / rms(x) · g"),
        *_attention(("layer.0.SelfAttention.q", "layer.0.SelfAttention.k", "layer.0.SelfAttention.v"),
                    "layer.0.SelfAttention", "layer.0.SelfAttention.o", "ln1", bias=False, weights_at="out2"),
        Stage("resid_mid", "layer.1.layer_norm", "in", op="add", inputs=("resid_pre", "attn.out"),
              formula="x + SelfAttn(RMSNorm(x))"),
        Stage("ln_cross", "layer.1.layer_norm", op="rmsnorm", inputs=("resid_mid",), formula="h / rms(h) · g"),
        Stage("cross.q", "layer.1.EncDecAttention.q", op="linear", inputs=("ln_cross",), formula="q = RMSNorm(h)·W_Q"),
        Stage("cross.k", "layer.1.EncDecAttention.k", op="linear", inputs=("encoder.out",), formula="k = Enc(source)·W_K"),
        Stage("cross.v", "layer.1.EncDecAttention.v", op="linear", inputs=("encoder.out",), formula="v = Enc(source)·W_V"),
        Stage("cross.pattern", "layer.1.EncDecAttention", "out2", op="cross_attention", inputs=("cross.q", "cross.k"),
              formula="A = softmax(q·kᵀ): decoder steps × source tokens"),
        Stage("cross.concat", "layer.1.EncDecAttention.o", "in", op="mix", inputs=("cross.pattern", "cross.v"),
              formula="concat_h(A_h·v_h): (T, h·d_v)"),
        Stage("cross.out", "layer.1.EncDecAttention.o", op="linear", inputs=("cross.concat",),
              formula="concat·W^O, W^O: (h·d_v) × d_model"),
        Stage("resid_cross", "layer.2.layer_norm", "in", op="add", inputs=("resid_mid", "cross.out"),
              formula="h + CrossAttn(RMSNorm(h), Enc(source))"),
        Stage("ln2", "layer.2.layer_norm", op="rmsnorm", inputs=("resid_cross",), formula="h / rms(h) · g"),
        Stage("mlp.pre_act", "layer.2.DenseReluDense.wi", op="linear", inputs=("ln2",), formula="RMSNorm(h)·W₁"),
        Stage("mlp.post_act", "layer.2.DenseReluDense.wo", "in", op="act", inputs=("mlp.pre_act",), formula="ReLU(·)"),
        Stage("mlp.out", "layer.2.DenseReluDense.wo", op="linear", inputs=("mlp.post_act",), formula="ReLU(·)·W₂"),
        Stage("resid_post", "", op="add", inputs=("resid_cross", "mlp.out"), formula="h + FFN(RMSNorm(h))"),
    ),
    final=(
        Stage("final_norm", "decoder.final_layer_norm", op="rmsnorm", inputs=("last.resid_post",),
              formula="x_L / rms(x_L) · g"),
        Stage("logits", "top:lm_head", op="t5_logits", inputs=("final_norm",),
              formula="(RMSNorm(x_L) · d_model^-½)·E_tokenᵀ (the scale when the head is tied)", optional=True),
    ),
)  # fmt: skip

# config.model_type -> block kind: the one place a model's architecture is recognised.
KINDS: dict[str, BlockKind] = {"bert": POST_LN, "gpt2": PRE_LN, "llama": PRE_RMS, "t5": T5_DECODER}


def block_kind(model: Any, label: str = "") -> BlockKind:
    """The block kind of a transformers model, or InputError("forward_unknown_architecture") naming the known ones."""
    model_type = getattr(getattr(model, "config", None), "model_type", "") or type(model).__name__
    if model_type not in KINDS:
        raise InputError(
            "forward_unknown_architecture",
            "{model} has a block layout this view does not know ({model_type}); it knows: {known}.",
            model=label or type(model).__name__,
            model_type=model_type,
            known=", ".join(sorted(KINDS)),
        )
    return KINDS[model_type]


def stage_names(kind: BlockKind, layers: int) -> list[str]:
    """Every stage name of a model of this kind with `layers` blocks, in forward order (optional ones included)."""
    names = [s.name for s in kind.embed]
    for i in range(layers):
        names += [f"blocks.{i}.{s.name}" for s in kind.block]
    return names + [s.name for s in kind.final]
