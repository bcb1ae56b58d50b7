"""Byte pieces (byte-level BPE, byte fallback) read as the character they complete, or as `<0xE4>`, never as "�"."""

import pytest

from playground import text_units as tokens
from tests.tiny_models import bytelevel_tokenizer, metaspace_tokenizer, wordpiece_tokenizer


@pytest.fixture(scope="module")
def bytelevel():
    return bytelevel_tokenizer(False)


def ids(tok, text):
    return tok(text, add_special_tokens=False)["input_ids"]


def test_consecutive_byte_pieces_show_the_character_they_complete(bytelevel):
    pieces = ids(bytelevel, "龘 bank")  # a rare character: three byte pieces, then a word
    assert len(pieces) == 4
    assert tokens.display_pieces(bytelevel, pieces) == ["龘(1/3)", "龘(2/3)", "龘(3/3)", " bank"]


def test_a_lone_piece_shows_its_bytes(bytelevel):
    first = ids(bytelevel, "龘")[0]
    assert tokens.display_pieces(bytelevel, [first]) == ["<0xE9>"]
    two = ids(bytelevel, "龘")[:2]  # two of three bytes: nothing completes them
    assert tokens.display_pieces(bytelevel, two) == ["<0xE9>", "<0xBE>"]


@pytest.mark.parametrize("text", ["我在银行存钱", "naïve 😀 emoji", "龘龘 a", "the cat sat"])
@pytest.mark.parametrize("make", [lambda: bytelevel_tokenizer(False), metaspace_tokenizer, wordpiece_tokenizer])
def test_no_replacement_character_ever(make, text):
    tok = make()
    shown = tokens.display_pieces(tok, ids(tok, text))
    assert len(shown) == len(ids(tok, text)) and not any("\ufffd" in piece for piece in shown)


def test_every_prefix_of_a_sequence_is_readable(bytelevel):
    """Cut anywhere (a next-token view, a stream): pieces still never show "�"."""
    sequence = ids(bytelevel, "我在银行存钱 😀")
    for stop in range(1, len(sequence) + 1):
        assert not any("\ufffd" in piece for piece in tokens.display_pieces(bytelevel, sequence[:stop]))


def test_byte_fallback_pieces_are_read_as_bytes():
    assert tokens.piece_bytes("<0xE4>") == b"\xe4" and tokens.piece_bytes("é") == b"\xe9"
    assert tokens.byte_display(b"a\xe4\xbd") == "a<0xE4><0xBD>" and tokens.byte_display("你".encode()) == "你"


def test_a_listed_wordpiece_continuation_keeps_its_marker():
    """The lab's probe columns listed "##ing" as "ing", a word it is not."""
    tok = wordpiece_tokenizer()
    texts = [tokens.token_text(tok, raw) for raw in tok.convert_ids_to_tokens(ids(tok, "playing"))]
    listed = [tokens.as_listed(tt) for tt in texts]
    assert any(x.startswith("##") for x in listed), (listed, texts)
    assert all(x == tt.word for x, tt in zip(listed, texts) if tt.starts_word)  # a word-initial piece reads as its word
