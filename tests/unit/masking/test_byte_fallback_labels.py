"""Masking grids read SentencePiece byte-fallback pieces as the character they complete, never `<0xE5><0x90>`."""

from tokenizers import Tokenizer, decoders, models, pre_tokenizers
from transformers import PreTrainedTokenizerFast

from playground.masking.pieces import readable


def _byte_fallback_tokenizer() -> PreTrainedTokenizerFast:
    vocab = {"<unk>": 0, **{f"<0x{b:02X}>": b + 1 for b in range(256)}, "a": 257, "b": 258}
    tok = Tokenizer(models.BPE(vocab=vocab, merges=[], unk_token="<unk>", byte_fallback=True))
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.decoder = decoders.Sequence([decoders.ByteFallback(), decoders.Fuse()])
    return PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>")


def test_byte_fallback_pieces_show_the_character_they_complete():
    tok = _byte_fallback_tokenizer()
    ids = [tok.convert_tokens_to_ids(f"<0x{b:02X}>") for b in "名".encode()] + [tok.convert_tokens_to_ids("a")]
    labels = readable(tok, ids)
    assert labels[:3] == ["名(1/3)", "名(2/3)", "名(3/3)"] and labels[3] == "a"
    assert not any("<0x" in label for label in labels)


def test_a_lone_byte_that_nothing_completes_still_shows_its_bytes():
    tok = _byte_fallback_tokenizer()
    lone = tok.convert_tokens_to_ids("<0xE5>")
    assert readable(tok, [lone, tok.convert_tokens_to_ids("b")]) == ["<0xE5>", "b"]
