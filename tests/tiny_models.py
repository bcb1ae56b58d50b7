"""Tiny random models and real tokenizers trained in-test, as HF's model testers do.

Each builder returns a `LoadedModel`, so backend code cannot tell it is tiny.
Tokenizers are trained on tests/fixtures/corpus.txt in milliseconds with the
`tokenizers` library, so they behave like the real families: WordPiece with
`##` pieces and Chinese characters (BERT), byte-level BPE with `Ġ` (GPT-2,
RoBERTa), and SentencePiece-style `▁` (Llama/ALBERT via Metaspace).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers
from transformers import (
    BertConfig,
    BertForMaskedLM,
    BertModel,
    GPT2Config,
    GPT2LMHeadModel,
    LlamaConfig,
    LlamaForCausalLM,
    PreTrainedTokenizerFast,
    RobertaConfig,
    RobertaForMaskedLM,
    T5Config,
    T5ForConditionalGeneration,
)

from playground.models import LoadedModel
from playground.registry import ModelSpec
from playground.static_vectors import StaticVectors

CORPUS = (Path(__file__).parent / "fixtures" / "corpus.txt").read_text(encoding="utf-8").splitlines()
TEXTS = [line.replace(" 。", "。").replace(" ", "") if any("\u4e00" <= c <= "\u9fff" for c in line) else line for line in CORPUS]
SMALL = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64)


def wordpiece_tokenizer() -> PreTrainedTokenizerFast:
    """BERT-style: lower-case, CJK characters split, [CLS] x [SEP], ## continuation pieces."""
    special = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]", max_input_chars_per_word=100))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True, handle_chinese_chars=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece()
    tok.train_from_iterator(TEXTS, trainers.WordPieceTrainer(vocab_size=220, special_tokens=special, min_frequency=1))
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=[("[CLS]", cls), ("[SEP]", sep)]
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]"
    )


def bytelevel_tokenizer(mask: bool) -> PreTrainedTokenizerFast:
    """GPT-2 / RoBERTa style byte-level BPE (`Ġ` marks a leading space); RoBERTa adds <s> </s> <mask>."""
    special = ["<s>", "<pad>", "</s>", "<unk>"] + (["<mask>"] if mask else [])
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=400, special_tokens=special, initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(TEXTS, trainer)
    if mask:
        tok.post_processor = processors.RobertaProcessing(("</s>", tok.token_to_id("</s>")), ("<s>", tok.token_to_id("<s>")))
        return PreTrainedTokenizerFast(
            tokenizer_object=tok,
            bos_token="<s>",
            eos_token="</s>",
            sep_token="</s>",
            cls_token="<s>",
            unk_token="<unk>",
            pad_token="<pad>",
            mask_token="<mask>",
        )
    return PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<s>", eos_token="</s>", unk_token="<unk>", pad_token="<pad>")


def metaspace_tokenizer() -> PreTrainedTokenizerFast:
    """SentencePiece / Llama style: `▁` marks a word start, <s> prepended."""
    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.decoder = decoders.Metaspace()
    tok.train_from_iterator(TEXTS, trainers.BpeTrainer(vocab_size=400, special_tokens=["<unk>", "<s>", "</s>"]))
    tok.post_processor = processors.TemplateProcessing(single="<s> $A", special_tokens=[("<s>", tok.token_to_id("<s>"))])
    return PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<s>", eos_token="</s>", unk_token="<unk>", pad_token="</s>")


T5_SENTINELS = 10  # <extra_id_0> .. <extra_id_9>; T5 has 100, a tiny vocabulary needs fewer


def t5_tokenizer() -> PreTrainedTokenizerFast:
    """T5 style: SentencePiece Unigram with `▁`, <pad> 0 (the decoder's start) </s> 1 <unk> 2, `$A </s>`, and
    sentinels <extra_id_0>.. as the last ids (T5's order: <extra_id_0> is the highest id)."""
    tok = Tokenizer(models.Unigram())
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.decoder = decoders.Metaspace()
    special = ["<pad>", "</s>", "<unk>"]
    tok.train_from_iterator(TEXTS * 3, trainers.UnigramTrainer(vocab_size=240, special_tokens=special, unk_token="<unk>"))
    sentinels = [f"<extra_id_{i}>" for i in range(T5_SENTINELS)]
    tok.add_special_tokens(sentinels[::-1])
    tok.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", 1)])
    return PreTrainedTokenizerFast(
        tokenizer_object=tok, pad_token="<pad>", eos_token="</s>", unk_token="<unk>", extra_special_tokens=sentinels
    )


def _spec(key: str, kind: str, family: str, languages=("en",)) -> ModelSpec:
    return ModelSpec(key, f"tiny/{key}", kind, family, f"tiny {family}", tuple(languages), max_length=64)


def _wrap(spec: ModelSpec, model, tokenizer) -> LoadedModel:
    model.eval()
    return LoadedModel(spec, model, tokenizer, "cpu")


def _seeded(build):
    torch.manual_seed(0)  # test-only: the same random weights in every run
    return build()


def tiny_bert_mlm() -> LoadedModel:
    tok = wordpiece_tokenizer()
    cfg = BertConfig(vocab_size=len(tok), max_position_embeddings=64, attn_implementation="eager", **SMALL)
    return _wrap(_spec("tiny-bert", "masked", "BERT", ("en", "zh")), _seeded(lambda: BertForMaskedLM(cfg)), tok)


def tiny_roberta_mlm() -> LoadedModel:
    tok = bytelevel_tokenizer(mask=True)
    cfg = RobertaConfig(
        vocab_size=len(tok),
        max_position_embeddings=66,
        pad_token_id=tok.pad_token_id,
        bos_token_id=tok.bos_token_id,
        eos_token_id=tok.eos_token_id,
        attn_implementation="eager",
        **SMALL,
    )
    return _wrap(_spec("tiny-roberta", "masked", "RoBERTa"), _seeded(lambda: RobertaForMaskedLM(cfg)), tok)


def tiny_bert_encoder() -> LoadedModel:
    tok = wordpiece_tokenizer()
    cfg = BertConfig(vocab_size=len(tok), max_position_embeddings=64, attn_implementation="eager", **SMALL)
    return _wrap(_spec("tiny-encoder", "encoder", "BERT", ("en", "zh")), _seeded(lambda: BertModel(cfg)), tok)


def tiny_gpt2() -> LoadedModel:
    tok = bytelevel_tokenizer(mask=False)
    cfg = GPT2Config(
        vocab_size=len(tok),
        n_positions=64,
        n_embd=32,
        n_layer=2,
        n_head=4,
        bos_token_id=tok.bos_token_id,
        eos_token_id=tok.eos_token_id,
        attn_implementation="eager",
    )
    return _wrap(_spec("tiny-gpt2", "causal", "GPT"), _seeded(lambda: GPT2LMHeadModel(cfg)), tok)


def tiny_llama() -> LoadedModel:
    """Llama with grouped-query attention (4 query heads share 2 key/value heads) and RoPE, like SmolLM2."""
    tok = metaspace_tokenizer()
    cfg = LlamaConfig(
        vocab_size=len(tok),
        max_position_embeddings=64,
        num_key_value_heads=2,
        tie_word_embeddings=True,
        bos_token_id=tok.bos_token_id,
        eos_token_id=tok.eos_token_id,
        pad_token_id=tok.pad_token_id,
        attn_implementation="eager",
        **SMALL,
    )
    return _wrap(_spec("tiny-llama", "causal", "Llama"), _seeded(lambda: LlamaForCausalLM(cfg)), tok)


def tiny_t5_config(tok, **changes) -> T5Config:
    return T5Config(
        **dict(
            vocab_size=len(tok),
            d_model=32,
            d_kv=8,
            d_ff=64,
            num_layers=2,
            num_decoder_layers=2,  # as num_layers: generate()'s cache in transformers 5.23 is sized by num_layers
            num_heads=4,
            dropout_rate=0.0,
            feed_forward_proj="relu",
            pad_token_id=tok.pad_token_id,
            eos_token_id=tok.eos_token_id,
            decoder_start_token_id=tok.pad_token_id,
            attn_implementation="eager",
            initializer_factor=5.0,  # random weights this wide write varied tokens (at 1.0 the same one every step)
        )
        | changes
    )


def tiny_t5() -> LoadedModel:
    """An encoder-decoder T5 (relative position bias, T5 LayerNorm, cross-attention) reading English and Chinese."""
    tok = t5_tokenizer()
    model = _seeded(lambda: T5ForConditionalGeneration(tiny_t5_config(tok)))
    return _wrap(_spec("tiny-t5", "seq2seq", "T5", ("en", "zh")), model, tok)


def tiny_glove() -> LoadedModel:
    rng = np.random.default_rng(0)
    words = sorted({w for line in CORPUS for w in line.split()})
    vectors = StaticVectors.from_dict({w: rng.standard_normal(8).astype(np.float32) for w in words})
    return LoadedModel(_spec("tiny-glove", "static", "GloVe"), vectors, None, "cpu")


def tiny_elmo_options(filters=((1, 4), (2, 8), (3, 8)), activation="relu", lstm_dim=16, projection_dim=8):
    """ELMo sizes small enough for unit tests (AllenNLP's layout: char CNN, highway, 2-layer projected biLSTM)."""
    from playground.elmo import ElmoOptions

    return ElmoOptions(
        char_embed_dim=4,
        filters=filters,
        n_highway=1,
        activation=activation,
        max_chars=50,
        n_characters=262,
        lstm_dim=lstm_dim,
        projection_dim=projection_dim,
        n_layers=2,
        cell_clip=3.0,
        proj_clip=3.0,
        use_skip_connections=True,
    )


_LAB_BASE: list[LoadedModel] = []


def lab_base(key: str, **kwargs) -> LoadedModel:
    """A load function for the MLM lab's worker process: the tiny BERT for any key, built once per process.

    Module-level, so it pickles by name into the worker's fresh ("spawn") interpreter.
    """
    if not _LAB_BASE:
        _LAB_BASE.append(tiny_bert_mlm())
    return _LAB_BASE[0]


def write_tiny_llama_gguf(path: Path) -> Path:
    """A 2-layer Llama in a GGUF file, as a bundled GGUF model ships (float32 tensors, the byte-level tokenizer's
    pieces and merges in the file's metadata): what `playground.models` converts, in milliseconds instead of the
    ~30 s of SmolLM2's 135M parameters."""
    import json

    import gguf

    tok = bytelevel_tokenizer(mask=False)
    vocab = tok.get_vocab()
    merges = [m if isinstance(m, str) else " ".join(m) for m in json.loads(tok.backend_tokenizer.to_str())["model"]["merges"]]
    hidden, layers, ffn, heads, kv_heads = SMALL["hidden_size"], SMALL["num_hidden_layers"], SMALL["intermediate_size"], 4, 2
    kv = hidden // heads * kv_heads
    w = gguf.GGUFWriter(str(path), "llama")
    w.add_block_count(layers)
    w.add_context_length(64)
    w.add_embedding_length(hidden)
    w.add_feed_forward_length(ffn)
    w.add_head_count(heads)
    w.add_head_count_kv(kv_heads)
    w.add_rope_freq_base(10000.0)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_vocab_size(len(vocab))
    w.add_rope_dimension_count(hidden // heads)
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("default")
    w.add_token_list([piece for piece, _ in sorted(vocab.items(), key=lambda kv: kv[1])])
    w.add_token_types([1] * len(vocab))
    w.add_token_merges(merges)
    w.add_bos_token_id(vocab["<s>"])
    w.add_eos_token_id(vocab["</s>"])
    w.add_unk_token_id(vocab["<unk>"])
    w.add_pad_token_id(vocab["<pad>"])
    rng = np.random.default_rng(0)
    shapes = {"token_embd.weight": (len(vocab), hidden)}
    for i in range(layers):
        shapes |= {f"blk.{i}.attn_q.weight": (hidden, hidden), f"blk.{i}.attn_k.weight": (kv, hidden)}
        shapes |= {f"blk.{i}.attn_v.weight": (kv, hidden), f"blk.{i}.attn_output.weight": (hidden, hidden)}
        shapes |= {f"blk.{i}.ffn_gate.weight": (ffn, hidden), f"blk.{i}.ffn_up.weight": (ffn, hidden)}
        shapes |= {f"blk.{i}.ffn_down.weight": (hidden, ffn)}
    for name, shape in shapes.items():
        w.add_tensor(name, (rng.standard_normal(shape) * 0.05).astype(np.float32))
    norms = ["output_norm.weight"] + [f"blk.{i}.{n}_norm.weight" for i in range(layers) for n in ("attn", "ffn")]
    for name in norms:
        w.add_tensor(name, np.ones(hidden, np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path
