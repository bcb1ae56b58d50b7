"""The lab's whole-word masking on Chinese text masks the words jieba finds, as Chinese BERT-wwm masks a segmenter's
words; before, a Chinese sentence (no spaces, every token touching the next) was one "word", masked whole or not."""

from playground.masking.segment import words
from playground.mlm_lab.training import LabSettings, collator_for, encode, mask_batch
from tests.tiny_models import wordpiece_tokenizer

TEXT = "我喜欢自然语言处理，也喜欢看电影。"


def _groups(tok, text):
    """Token positions of each jieba word (the tiny WordPiece tokenizer makes one token per Chinese character)."""
    enc = tok(text, return_offsets_mapping=True, return_special_tokens_mask=True)
    return [
        [k for k, (a, b) in enumerate(enc["offset_mapping"]) if not enc["special_tokens_mask"][k] and start <= a < end]
        for start, end in words(text)
    ]


def test_chinese_whole_word_masking_masks_jieba_words_whole_and_only_them():
    tok = wordpiece_tokenizer()
    groups = [g for g in _groups(tok, TEXT) if g]
    assert any(len(g) > 1 for g in groups)  # there are multi-character words to keep together
    content = [k for g in groups for k in g]
    settings = LabSettings(base="tiny", whole_word=True, mlm_probability=0.3)
    partial = 0
    for seed in range(40):
        batch = mask_batch(tok, collator_for(tok, settings, seed), encode(tok, [TEXT]))
        masked = {k for k, label in enumerate(batch["labels"][0].tolist()) if label != -100}
        for group in groups:
            assert set(group) <= masked or not set(group) & masked, (seed, group, sorted(masked))
        partial += 0 < len(masked & set(content)) < len(content)
    assert partial >= 30  # words are masked one by one, not the sentence at once


def test_text_without_chinese_keeps_the_tokenizers_offsets():
    from playground.mlm_lab.training import word_gaps

    offsets = [(0, 0), (0, 3), (4, 7), (7, 9), (0, 0)]
    assert word_gaps("the cat sat", offsets) == offsets
