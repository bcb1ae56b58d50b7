"""Masking on the bundled real tokenizers, offline: MiniLM's WordPiece (has [MASK]) and SmolLM2 (has none)."""

from playground.masking import bert as m
from playground.masking import encoding
from playground.masking import spans as sp
from playground.masking import masking_statistics

TEXT = "Unbelievably, the tokenizer splits uncommon words into several pieces."


def test_wordpiece_words_split_into_pieces_are_masked_whole(minilm):
    r = m.whole_word_masking(minilm.tokenizer, TEXT, seed=0, mlm_probability=0.5)
    assert any(t.startswith("##") for t in r.tokens)
    for w in set(r.word_ids) - {-1}:
        fates = {a for a, ww in zip(r.actions, r.word_ids) if ww == w}
        assert len(fates) == 1
    assert r.mask_token == "[MASK]" and not r.mask_is_placeholder


def test_bert_rates_converge_on_the_real_vocabulary(minilm):
    stats = masking_statistics(minilm.tokenizer, TEXT, "bert", 5000, seed=1)
    assert all(r.within for r in stats.rates), stats.rates


def test_causal_tokenizer_masks_with_a_placeholder_and_byte_level_words(smollm):
    r = m.bert_masking(smollm.tokenizer, TEXT, seed=2, mlm_probability=0.6)
    assert r.mask_is_placeholder and encoding.PLACEHOLDER_MASK in r.corrupted
    enc = encoding.encode(smollm.tokenizer, TEXT)
    assert len(set(enc.word_ids)) >= len(TEXT.split())  # words found from the text, not one word per sentence
    t5 = sp.t5_span_corruption(smollm.tokenizer, TEXT, seed=2)
    assert not t5.details["sentinels_real"] and t5.details["target"][-1] == smollm.tokenizer.eos_token


CHINESE = "我在银行存钱"


def test_whole_word_masking_never_splits_a_chinese_character_on_smollm2(smollm):
    """SmolLM2 spells 我 / 银 / 钱 in two or three byte pieces; before, 41-63% of draws masked part of one."""
    from playground.masking import stats

    for text in (CHINESE, "我 在 银行 存钱"):
        enc = encoding.encode(smollm.tokenizer, text)
        groups = stats.shared_characters(enc.offsets, enc.special)
        assert groups  # the premise: byte pieces share characters
        _, labels = m.mlm_draws(smollm.tokenizer, enc, 500, 0, 0.15, 1.0, 0.0, whole_word=True)
        sel = labels != -100
        for group in groups:
            assert (sel[:, group].all(1) == sel[:, group].any(1)).all()
        rates = {r.name: r for r in masking_statistics(smollm.tokenizer, text, "wwm", 2000, seed=0).rates}
        assert rates["characters_split"].empirical == 0 and rates["words_split"].empirical == 0
        assert rates["words_selected"].within
        shown = enc.shown
        assert all("\ufffd" not in s for s in shown) and "银⟨1/3⟩" in "".join(shown)


def test_electra_default_offline_lines_up(minilm, smollm):
    """The offline default: MiniLM's tokenizer, SmolLM2 filling whole words (before: 14 word ids for 13 tokens)."""
    from playground.masking import electra

    text = "The unbelievable tokenizer splits playground sentences into subword pieces."
    r = electra.electra_causal(minilm.tokenizer, smollm, text, seed=0, mask_prob=0.3)
    assert len(r.tokens) == len(r.actions) == len(r.labels) == len(r.word_ids) == len(r.corrupted)
    assert len(r.details["original_tokens"]) == len(r.details["original_word_ids"])
