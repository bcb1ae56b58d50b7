"""Character ids must be exactly AllenNLP's: the published weights were trained on them."""

import numpy as np

from playground.elmo.chars import MAX_CHARS, batch_char_ids, word_char_ids

BOW, EOW, PAD = 258 + 1, 259 + 1, 260 + 1


def test_plain_word_layout():
    ids = word_char_ids("cat")
    assert len(ids) == MAX_CHARS
    assert ids[:5] == [BOW, ord("c") + 1, ord("a") + 1, ord("t") + 1, EOW]
    assert ids[5:] == [PAD] * (MAX_CHARS - 5)
    assert 0 not in ids  # 0 is reserved for padded tokens


def test_sentence_markers():
    assert word_char_ids("<S>")[:4] == [BOW, 256 + 1, EOW, PAD]
    assert word_char_ids("</S>")[:4] == [BOW, 257 + 1, EOW, PAD]


def test_unicode_is_utf8_bytes():
    ids = word_char_ids("né")  # é is two bytes in UTF-8
    assert ids[:5] == [BOW, ord("n") + 1, 0xC3 + 1, 0xA9 + 1, EOW]
    ids = word_char_ids("银行")  # 3 bytes each
    assert ids[1:7] == [b + 1 for b in "银行".encode("utf-8")] and ids[7] == EOW


def test_long_words_truncate_to_48_bytes():
    ids = word_char_ids("x" * 100)
    assert len(ids) == MAX_CHARS
    assert ids[1:49] == [ord("x") + 1] * 48 and ids[49] == EOW
    assert word_char_ids("x" * 48) == ids  # 48 bytes is the most that fits
    # a cut inside a multibyte character is kept as raw bytes, as the original does
    ids = word_char_ids("a" + "é" * 30)
    assert ids[48] == 0xC3 + 1 and ids[49] == EOW


def test_batch_adds_markers_and_zero_pads():
    batch = batch_char_ids([["a", "b", "c"], ["d"]])
    assert batch.shape == (2, 5, MAX_CHARS)
    assert batch[1, 0, 1] == 256 + 1 and batch[1, 2, 1] == 257 + 1
    assert np.all(batch[1, 3:] == 0) and np.all(batch[0] > 0)
