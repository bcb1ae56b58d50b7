"""Issue 10 for the masking demo: what the page shows is what the data says.

Tokens that look like tags show; byte pieces never split a character and read as characters; ELECTRA's
word ids follow its tokens; every bad input gets a clear InputError; readings follow the run.
"""

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from playground.errors import InputError
from playground.runtime import Runtime
from playground.masking import MaskingRequest, bert, electra, encoding, masking_statistics, permutation, run_masking, spans
from playground.masking import stats as mstats
from playground.masking.pieces import readable
from playground.ui.masking import render
from playground.ui.common.i18n import t
from playground.ui.common.strings import STRINGS as ALL_STRINGS
from playground.ui.masking.text import STRINGS
from tests import tiny_models

MD = MarkdownIt()  # CommonMark, as the browser's Markdown renderer reads it
TAGS = ["<extra_id_0>", "<s>", "</s>", "<|endoftext|>", "<mask>", "__init__", "'s"]
RARE = "猫狗龍鳳"  # characters the tiny byte-level vocabulary never saw: each one is two or three byte pieces


@pytest.fixture(scope="module")
def bytelevel():
    return tiny_models.bytelevel_tokenizer(mask=False)


def _run(tiny_mlm, strategy, text="The unbelievable tokenizer splits words really.", **fields):
    request = MaskingRequest(text, "bert", strategy, generator="uniform", prefix_len=3, epochs=3, **fields)
    return run_masking(request, Runtime(load=lambda key: tiny_mlm, load_tokenizer=lambda key: tiny_mlm.tokenizer))


def _shown(markdown: str) -> str:
    """The text a reader sees once the Markdown is rendered (tags removed, entities decoded)."""
    import html
    import re

    return html.unescape(re.sub(r"<[^>]+>", "", MD.render(markdown)))


# (1) tag-like tokens show, in Markdown and in plotly


def test_t5_sentinels_show_in_the_summary(tiny_mlm):
    run = _run(tiny_mlm, "t5", seed=1)
    summary = render.summary(run, "en")
    seen = _shown(summary)
    for name in run.details["sentinels"]:
        assert name in seen  # before: the Markdown swallowed <extra_id_0> as an HTML tag
    outside_code = __import__("re").sub(r"`[^`]*`", "", summary)  # a code span shows its text as typed
    assert "<extra_id_" not in outside_code  # the browser's Markdown would read it as an HTML tag and drop it


@pytest.mark.parametrize("token", TAGS)
def test_any_tag_like_token_shows_as_typed(tiny_mlm, token):
    run = _run(tiny_mlm, "bert", seed=0, mlm_probability=1.0)
    tokens = [token] * len(run.tokens)
    run = replace(run, tokens=tokens, corrupted=tokens)
    summary = render.summary(run, "en")
    assert token in _shown(summary)
    assert "<" not in token or token not in summary  # a tag in the Markdown source vanishes in the browser
    grid = render.grid_figure(run, "en").to_dict()["data"][0]
    assert all("<" not in cell for row in grid["text"] for cell in row)  # plotly reads tags in text: escaped
    assert all(token in __import__("html").unescape(cell) for row in grid["text"] for cell in row)


# (2) byte pieces: a character is never split, and reads as a character


def test_byte_pieces_read_as_characters_never_as_replacement_marks(bytelevel):
    ids = bytelevel(RARE)["input_ids"]
    assert len(ids) > len(RARE)  # the premise: the characters are split into byte pieces
    labels = readable(bytelevel, ids)
    assert all("\ufffd" not in label for label in labels)
    for ch in RARE:
        assert any(label.startswith(ch) for label in labels)
    assert readable(bytelevel, ids[:1])[0].startswith("<0x")  # a lone piece: its byte, explicitly


def test_a_leading_space_reads_as_the_other_tabs_show_it_never_as_byte_level_g(bytelevel):
    # The walk-through found `Ġcat` in the masking grid while attention and sampling said `␣cat`.
    ids = bytelevel("the cat\nsat")["input_ids"]
    raws = bytelevel.convert_ids_to_tokens(ids)
    assert any(r.startswith("Ġ") for r in raws) and any("Ċ" in r for r in raws)  # the premise: byte-level spelling
    labels = readable(bytelevel, ids)
    assert not any("Ġ" in label or "Ċ" in label for label in labels)
    assert "".join(labels).replace("␣", " ").replace("↵", "\n") == "the cat\nsat"


def test_whole_word_masking_never_splits_a_character(bytelevel):
    text = f"{RARE} ab {RARE[::-1]}"
    enc = encoding.encode(bytelevel, text)
    groups = mstats.shared_characters(enc.offsets, enc.special)
    assert groups  # the premise: some tokens share a character
    for group in groups:
        assert len({enc.word_ids[p] for p in group}) == 1  # before: the pieces of one character had different words
    _, labels = bert.mlm_draws(bytelevel, enc, 300, 0, 0.3, 1.0, 0.0, whole_word=True)
    sel = labels != -100
    for group in groups:
        assert (sel[:, group].all(1) == sel[:, group].any(1)).all()
    rates = {r.name: r for r in masking_statistics(bytelevel, text, "wwm", 300, 0).rates}
    assert rates["characters_split"].empirical == 0 and rates["words_split"].empirical == 0


def test_the_split_statistic_does_not_trust_the_grouping_it_checks(bytelevel, monkeypatch):
    """A grouping that splits characters (the old one did) must be caught by the statistic."""
    real = encoding.word_ids_of

    def one_word_per_token(words, offsets, special, text):
        return [-1 if s else k for k, s in enumerate(special)]

    monkeypatch.setattr(encoding, "word_ids_of", one_word_per_token)
    rates = {r.name: r for r in masking_statistics(bytelevel, RARE, "wwm", 300, 0).rates}
    assert rates["characters_split"].empirical > 0 and not rates["characters_split"].within
    assert rates["words_split"].empirical > 0
    assert real is not one_word_per_token


def test_chinese_words_are_the_spaced_groups_on_every_tokenizer(tiny_mlm, bytelevel):
    for tok in (tiny_mlm.tokenizer, bytelevel):
        enc = encoding.encode(tok, "我 喜欢 北京")
        assert len({w for w in enc.word_ids if w >= 0}) == 3


# (3) lengths line up for every objective, ELECTRA's re-tokenized replacements included


def _fake_filler(monkeypatch, words):
    """The causal filler without a model: every blank gets one of `words` (of different piece counts)."""
    import playground.masking.electra as electra  # the name electra_causal calls

    def fill(lm, texts, top_k=5, pool=0):
        n = texts[0].count("[MASK]")
        preds = [SimpleNamespace(word=w, probability=1.0) for w in words]
        return [SimpleNamespace(whole=SimpleNamespace(predictions=[preds] * n))]

    monkeypatch.setattr(electra, "fill_blanks_causal", fill)
    return SimpleNamespace(spec=SimpleNamespace(hf_id="fake/filler"), device="cpu")


texts = st.one_of(
    st.text(max_size=50),
    st.sampled_from(["The unbelievable tokenizer splits playground sentences into subword pieces.", "我 喜欢 北京", RARE]),
    st.text(alphabet="ab 我喜.,<>_'", max_size=20),
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=texts, seed=st.integers(0, 2**32 - 1), which=st.integers(0, 8))
def test_every_objective_keeps_its_lists_the_same_length(tiny_mlm, monkeypatch, text, seed, which):
    tok = tiny_mlm.tokenizer
    filler = _fake_filler(monkeypatch, ["a", "unbelievably", "x y z"])
    draw = [
        lambda: bert.bert_masking(tok, text, seed),
        lambda: bert.whole_word_masking(tok, text, seed),
        lambda: bert.dynamic_masking(tok, text, seed, epochs=2),
        lambda: spans.span_masking(tok, text, seed),
        lambda: spans.t5_span_corruption(tok, text, seed),
        lambda: permutation.permutation_lm(tok, text, seed),
        lambda: permutation.attention_families(tok, text, seed),
        lambda: electra.electra_uniform(tok, text, seed, mask_prob=0.5),
        lambda: electra.electra_causal(tok, filler, text, seed, mask_prob=0.5),
    ][which]
    try:
        r = draw()
    except InputError as err:
        assert err.code in {"masking_empty", "masking_t5_short"}
        return
    n = len(r.tokens)
    assert len(r.actions) == len(r.labels) == len(r.word_ids) == n
    if r.strategy != "t5":  # T5's input is shorter by design: one sentinel per span
        assert len(r.corrupted) == n
    assert all(rows_len == n for _, rows in [(0, r.rows)] for _, row in rows for rows_len in [len(row)])
    if r.strategy == "electra":
        assert len(r.details["original_tokens"]) == len(r.details["original_word_ids"])
        assert len(r.details["corrupted_ids"]) == n
        top, bottom = render._electra_rows(r, "en")[0]
        assert len(top) == len(bottom)
        assert [x for x in top if x] == r.details["original_tokens"]
        assert [x for x in bottom if x] == [x for x in r.tokens if x]


def test_electra_causal_word_ids_follow_a_longer_replacement(tiny_mlm, monkeypatch):
    filler = _fake_filler(monkeypatch, ["unbelievably"])
    r = electra.electra_causal(tiny_mlm.tokenizer, filler, "a b c d e f g h", seed=0, mask_prob=0.5)
    assert "replaced" in r.actions and len(r.tokens) > len(r.details["original_tokens"])  # the premise
    assert len(r.word_ids) == len(r.tokens)  # before: the original sentence's word ids (one per old token)


# (4) what the course asks to see


def test_electra_shows_the_original_row_above_the_corrupted_one(tiny_mlm):
    run = _run(tiny_mlm, "electra", mlm_probability=0.5, seed=2)
    tokens, rows = render._electra_rows(run, "en")
    assert [label for label, _ in rows] == [t("masking.row.original", "en"), t("masking.row.input", "en")]
    assert tokens[0] == run.details["original_tokens"] and tokens[1] == run.tokens
    fig = render.grid_figure(run, "en").to_dict()
    bands = [d["type"] for d in fig["data"]].count("heatmap")  # a sentence wider than a band wraps, its rows named again
    rows = [t("masking.row.original", "en"), t("masking.row.input", "en")]
    assert list(fig["layout"]["yaxis"]["ticktext"]) == rows * bands


def test_xlnet_masks_follow_the_factorisation_order(tiny_mlm):
    run = _run(tiny_mlm, "permutation", seed=5)
    order = run.details["order"]
    assert order != sorted(order)  # the premise: the order is not the reading order
    fig = render.matrices_figure(run, "en").to_dict()
    content, query = (np.array(trace["z"]) for trace in fig["data"])
    assert (content == np.tril(np.ones_like(content))).all()  # the triangle shows
    assert (query == np.tril(np.ones_like(query), -1)).all()
    assert fig["data"][0]["y"][0].startswith(f"1. {run.tokens[order[0]]}")
    titles = [a["text"] for a in fig["layout"]["annotations"]]
    assert titles == [t("masking.m.content", "en"), t("masking.m.query", "en")]
    assert run.tokens[order[-1]] in _shown(render.summary(run, "en"))


def test_labels_are_shown_as_tokens(tiny_mlm):
    run = _run(tiny_mlm, "bert", mlm_probability=1.0, seed=0)
    line = _shown(next(line for line in render.summary(run, "en").split("\n\n") if line.startswith("**Labels**")))
    for pos, lab in enumerate(run.labels):
        if lab != -100:
            assert f"{run.tokens[pos]} ({pos}, id {lab})" in line


# (5) unknown tokens are said first


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_unknown_tokens_are_warned_first(tiny_mlm, lang):
    run = _run(tiny_mlm, "bert", text="words, really")  # the tiny vocabulary has no ","
    assert [n.code for n in run.notes][:1] == ["unknown_tokens"]
    assert run.notes[0].params["pieces"] == [","]
    summary = render.summary(run, lang)
    assert summary.startswith("⚠️") and "[UNK]" in _shown(summary.split("\n\n")[0])
    clean = _run(tiny_mlm, "bert", text="words really")
    assert "unknown_tokens" not in [n.code for n in clean.notes] and not render.summary(clean, lang).startswith("⚠️")


# (6) every parameter is checked on the server


# What every field refuses by its kind (a list or a number for a text, a lone surrogate, a text too long, an unknown
# model or one of another kind, None / a string / NaN / ±inf / a fraction / 2**70 / -1 / True for a number) the one
# battery proves through /masking: tests/unit/core/test_api_bad_values.py. Here: the ranges, the choices and the
# masking's own codes.
BAD = [
    ("text", None, "text"),
    ("strategy", "nope", "strategy"),
    ("strategy", None, "strategy"),
    ("mlm_probability", 1.5, "mlm_probability"),
    ("mlm_probability", -0.1, "mlm_probability"),
    ("mask_replace_prob", 2, "mask_replace_prob"),
    ("epochs", 0, "epochs"),
    ("epochs", 21, "epochs"),
    ("prefix_len", 0, "prefix_len"),
    ("generator", "masked:../x", "masking_generator"),
    ("generator", "uniform:x", "masking_generator"),
    ("generator", "bogus", "masking_generator"),
    ("generator", None, "generator"),
    ("draws", 10001, "draws"),
]


@pytest.mark.parametrize("field, value, code", BAD, ids=[f"{f}={v!r}"[:40] for f, v, _ in BAD])
def test_bad_input_gets_a_clear_message(tiny_mlm, field, value, code):
    fields = {"text": "a b c", "model": "bert", "strategy": "bert"} | {field: value}
    request = MaskingRequest(**fields)
    with pytest.raises(InputError) as err:
        run_masking(request, Runtime(load=lambda key: tiny_mlm, load_tokenizer=lambda key: tiny_mlm.tokenizer))
    assert code in (err.value.code, err.value.params.get("name"))  # a field validator's refusal names its field
    assert f"error.{err.value.code}" in ALL_STRINGS or f"common.{err.value.code}" in ALL_STRINGS  # both languages on the page
    assert "Overflow" not in str(err.value) and "\ud800" not in str(err.value)


def test_whole_floats_from_sliders_are_accepted(tiny_mlm):
    run = _run(tiny_mlm, "dynamic", seed=7.0, draws=10.0)
    assert run.request.seed == 7 and isinstance(run.request.seed, int) and run.statistics.draws == 10


# (8) Chinese text shows no raw Markdown markers


@pytest.mark.parametrize("key", [k for k, (en, zh) in STRINGS.items() if "**" in zh or "`" in zh])
def test_no_literal_markdown_markers_in_chinese(key):
    class Filled(dict):
        def __missing__(self, name):  # any other field: a number, which every format spec here accepts
            return 1

    zh = STRINGS[key][1]
    filled = zh.format_map(
        Filled(
            {name: "x" for name in ("text", "order", "name", "example", "spans", "labels", "model", "probs", "words")}
            | {
                "mask": "x",
                "token": "x",
                "pieces": "x",
                "count": 1,
                "n": 1,
                "max": 1,
                "strategy": "x",
                "generator": "x",
                "low": 0,
                "high": 1,
                "emp": 0.5,
                "theory": "x",
                "se": 0.1,
                "ok": "x",
            }
        )
    )
    assert "**" not in _shown(filled)


@pytest.mark.parametrize("strategy", ["span", "t5", "permutation", "electra", "bert"])
def test_rendered_chinese_summaries_have_no_raw_markers(tiny_mlm, strategy):
    assert "**" not in _shown(render.summary(_run(tiny_mlm, strategy, seed=3), "zh"))
