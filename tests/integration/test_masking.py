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
