"""The one copy of each text rule: what a CJK character is, "label | sentence" lines, who does not read Chinese."""

from tokenizers import normalizers

from playground import text_units
from playground.registry import get_spec

LAST = 0x30000  # past every CJK block (the extensions end at U+2FA1F)


def test_is_cjk_is_exactly_what_bert_splits_one_by_one():
    """Oracle: transformers' own definition (`_is_chinese_char`, Google's BERT ranges = Unicode's CJK ideograph
    blocks), over every code point up to U+2FFFF."""
    from transformers import TextStreamer

    reference = TextStreamer._is_chinese_char
    disagree = [hex(c) for c in range(0x20, LAST) if reference(None, c) != text_units.is_cjk(chr(c))]
    assert not disagree, disagree[:20]


def test_the_fast_tokenizers_agree_except_for_their_extension_e_typo():
    """The Rust `tokenizers` BertNormalizer (what the fast tokenizers run) puts spaces around the same characters,
    except U+2B820-U+2B91F: it starts Extension E at U+2B920 (a typo upstream; Unicode starts it at U+2B820)."""
    bert = normalizers.BertNormalizer(clean_text=False, handle_chinese_chars=True, strip_accents=False, lowercase=False)
    disagree = []
    for code in range(0x20, LAST):
        if 0xD800 <= code <= 0xDFFF:  # surrogates are not characters
            continue
        char = chr(code)
        if (bert.normalize_str(char) == f" {char} ") != text_units.is_cjk(char):
            disagree.append(code)
    assert disagree == list(range(0x2B820, 0x2B920))


def test_kana_hangul_and_hexagrams_are_not_chinese_characters_but_rare_ideographs_are():
    assert not any(text_units.is_cjk(c) for c in "ひらがなカタカナ한국어䷀")  # kana, Hangul, a Yijing hexagram (U+4DC0)
    assert all(text_units.is_cjk(c) for c in "银行龘𠀀\U0002a700")  # common, rare, Extension B and C
    assert text_units.is_cjk(chr(0x2FA1F)) and not text_units.is_cjk(chr(0x2FA20))


def test_not_reading_chinese_names_the_models_that_do_not_speak_it_only_for_chinese_text():
    specs = [get_spec("minilm"), get_spec("bert-chinese")]
    assert [s.key for s in text_units.not_reading_chinese("我在银行存钱", specs)] == ["minilm"]
    assert text_units.not_reading_chinese("the bank", specs) == []
    assert text_units.not_reading_chinese("ひらがな", specs) == []  # Japanese kana is not Chinese


def test_label_lines_split_at_the_first_bar():
    assert text_units.split_label("river | the bank of the river") == ("river", "the bank of the river")
    assert text_units.split_label("no label here") == ("", "no label here")
    assert text_units.split_label("a | b | c") == ("a", "b | c")  # a sentence may contain a bar; a label may not
    assert text_units.labelled_lines("x | one\n\n  \ny | two\nthree") == [("x", "one"), ("y", "two"), ("", "three")]


def test_one_copy_of_each_rule():
    """No second CJK predicate or label parser hides elsewhere in the backend."""
    import pathlib

    root = pathlib.Path(text_units.__file__).parent
    sources = {p: p.read_text(encoding="utf-8") for p in root.rglob("*.py") if p.name != "text_units.py"}
    for pattern in ("0x4E00", "\\u4e00", "def is_cjk", "def _cjk", '.rpartition("|")', ".partition(LABEL_SEP)"):
        assert not [str(p) for p, s in sources.items() if pattern in s], pattern
    assert not (root / "tokens.py").exists()  # token display lives in text_units now


def test_what_stands_alone_where_text_has_no_spaces():
    assert all(text_units.stands_alone(c) for c in "银行ひカ")  # ideographs and kana are words by themselves
    assert not any(text_units.stands_alone(c) for c in "a1한")  # Latin, digits and Hangul join into space-split words
