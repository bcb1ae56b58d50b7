"""scripts/gpt_zh_data: the classroom Chinese GPT's tokenizer, token streams, splits and n-gram baselines, on tiny text."""

import math
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
TEXTS = [
    "我爱自然语言处理。",
    "人工智能的未来是什么？",
    "我们在银行存钱，然后去公园散步。",
    "Linux 系统的 apt 命令可以安装软件包。",
    "the package is installed with apt install.",
] * 5


@pytest.fixture(scope="module")
def data():
    sys.path.insert(0, str(ROOT / "scripts"))
    import gpt_zh_data

    return gpt_zh_data


@pytest.fixture(scope="module")
def tokenizer(data, tmp_path_factory):
    """Built, saved and read back the way the app reads it (AutoTokenizer from the folder)."""
    from transformers import AutoTokenizer

    folder = tmp_path_factory.mktemp("tok")
    data.wrap_tokenizer(data.build_tokenizer(TEXTS, vocab_size=300, min_frequency=2), 64).save_pretrained(str(folder))
    return AutoTokenizer.from_pretrained(str(folder))


def test_every_chinese_character_is_one_token_and_latin_words_merge(data, tokenizer):
    pieces = tokenizer.tokenize("我爱自然语言处理。")
    assert pieces == list("我爱自然语言处理。")
    latin = tokenizer.tokenize("the package")
    assert len(latin) < len("the package")  # BPE merged letters into pieces
    assert all(data.is_chinese_char(p) for p in tokenizer.tokenize("人工智能"))


def test_decoding_gives_the_text_back_spaces_included(tokenizer):
    for text in ["Linux 系统的 apt 命令", "我们在银行存钱。", "the package is installed"]:
        ids = tokenizer(text, add_special_tokens=False).input_ids
        assert tokenizer.decode(ids) == text


def test_endoftext_opens_and_closes_documents_as_bos_and_eos(data, tokenizer):
    eot = tokenizer.convert_tokens_to_ids(data.EOT)
    assert tokenizer.bos_token_id == tokenizer.eos_token_id == eot
    assert tokenizer("我爱").input_ids == tokenizer("我爱", add_special_tokens=False).input_ids  # GPT-2: nothing added
    ids = data.stream(tokenizer, ["我爱", "银行"])
    assert ids[0] == eot and ids[-1] == eot and ids.count(eot) == 3
    assert tokenizer.decode(ids, skip_special_tokens=True) == "我爱银行"


def test_a_character_outside_the_alphabet_reads_as_unknown(data, tokenizer):
    assert tokenizer.tokenize("龘") == [data.UNK]


def test_blocks_predict_every_token_but_the_first_exactly_once(data):
    ids = list(range(23))
    windows = data.blocks(ids, 5)
    assert all(2 <= len(w) <= 6 for w in windows)
    predicted = [t for w in windows for t in w[1:]]
    assert predicted == ids[1:]
    assert data.blocks([7], 5) == []


def test_add_k_models_are_distributions_over_the_vocabulary(data):
    vocab = 6
    ngram = data.NGram(vocab, [([0, 1, 2, 1, 2, 3, 0], 1.0), ([0, 4, 0], 2.0)])
    for k in (0.01, 1.0):
        uni = sum(math.exp(-ngram.nll([0, w], 1, k)[0]) for w in range(vocab))
        assert uni == pytest.approx(1.0)
        for v in range(vocab):  # every context, the unseen one (5) too
            assert sum(math.exp(-ngram.nll([v, w], 2, k)[0]) for w in range(vocab)) == pytest.approx(1.0)


def test_bigram_counts_follow_the_stream_and_its_weight(data):
    ngram = data.NGram(4, [([0, 1, 2], 1.0), ([0, 1, 3], 3.0)])
    # P(3 | 1) = (3 + k) / (4 + 4k); P(2 | 1) = (1 + k) / (4 + 4k)
    assert math.exp(-ngram.nll([1, 3], 2, 0.5)[0]) == pytest.approx(3.5 / 6)
    assert math.exp(-ngram.nll([1, 2], 2, 0.5)[0]) == pytest.approx(1.5 / 6)
    seen = [0, 1, 2, 0, 1, 3]
    assert ngram.perplexity(seen, 2, 0.01) < ngram.perplexity(seen, 1, 0.01)  # context helps on text like the training


def test_the_hsk_test_split_is_hsk_corpus_held_out_split_and_dev_comes_from_the_rest(data):
    import hsk_corpus

    ids = [f"hsk{level}-{n:04d}" for level in range(1, 7) for n in range(1, 400)]
    splits = {i: data.hsk_split(i) for i in ids}
    assert all((splits[i] == "test") == hsk_corpus.held_out(i) for i in ids)
    dev = sum(s == "dev" for s in splits.values()) / len(ids)
    assert 0.02 < dev < 0.09 and "train" in splits.values()


def test_documentation_pages_split_by_a_stable_hash(data):
    pages = [f"libreoffice-help:text/page{n}.html" for n in range(2000)]
    splits = [data.doc_split(p) for p in pages]
    assert splits == [data.doc_split(p) for p in pages]
    assert 0.03 < splits.count("test") / len(pages) < 0.07 and 0.03 < splits.count("dev") / len(pages) < 0.07


def test_hsk_sentences_are_read_as_paragraphs_so_a_full_stop_is_not_always_the_end(data):
    sentences = ["一。", "二。", "三。", "四。", "五。"]
    assert data.paragraphs(sentences, 2) == ["一。二。", "三。四。", "五。"]
    assert "".join(data.paragraphs(sentences)) == "".join(sentences)
