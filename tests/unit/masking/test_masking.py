"""Masking strategies on tiny tokenizers: invariants, seeds, and convergence of the rates to theory."""

import numpy as np
import pytest

from playground.masking import permutation as am
from playground.masking import bert as m
from playground.masking import encoding
from playground.masking import electra as me
from playground.masking import spans as sp
from playground.masking import stats
from playground.masking import OBJECTIVES, Rate, masking_statistics
from playground.errors import InputError

TEXT = "The unbelievable tokenizer splits words, really. The cat sat on the mat today."
STRATEGIES = {
    "bert": m.bert_masking,
    "wwm": m.whole_word_masking,
    "dynamic": m.dynamic_masking,
    "span": sp.span_masking,
    "t5": sp.t5_span_corruption,
    "permutation": am.permutation_lm,
    "attention": am.attention_families,
}


@pytest.fixture(scope="module")
def tok(tiny_mlm):
    return tiny_mlm.tokenizer


@pytest.mark.parametrize("name", STRATEGIES)
def test_same_seed_same_result_and_lengths_agree(tok, name):
    a, b = STRATEGIES[name](tok, TEXT, seed=7), STRATEGIES[name](tok, TEXT, seed=7)
    assert a == b
    assert len(a.tokens) == len(a.actions) == len(a.labels) == len(a.word_ids)


@pytest.mark.parametrize("name", ["bert", "span", "t5", "permutation"])
def test_different_seeds_differ(tok, name):
    results = {tuple(STRATEGIES[name](tok, TEXT, seed=s).actions) for s in range(8)}
    assert len(results) > 1


def test_bert_labels_only_on_selected_and_specials_never_masked(tok):
    r = m.bert_masking(tok, TEXT, seed=3, mlm_probability=0.5)
    for action, label, original, special in zip(r.actions, r.labels, r.tokens, r.word_ids):
        assert (label == -100) == (action in ("none", "special"))
    assert r.actions[0] == "special" and r.actions[-1] == "special"
    assert all(c == r.mask_token for c, a in zip(r.corrupted, r.actions) if a == "mask")
    assert all(c == t for c, t, a in zip(r.corrupted, r.tokens, r.actions) if a in ("none", "kept", "special"))


@pytest.mark.parametrize("strategy", [k for k, row in OBJECTIVES.items() if row.stats])
def test_rates_converge_to_theory(tok, strategy):
    stats = masking_statistics(tok, TEXT, strategy, 4000, seed=0)
    assert stats.rates and all(r.within for r in stats.rates), stats.rates


def test_rates_detect_a_wrong_theory(tok):
    stats = masking_statistics(tok, TEXT, "bert", 4000, seed=0, mlm_probability=0.3)
    wrong = Rate("selected", stats.rates[0].empirical, 0.15, stats.rates[0].stderr)
    assert stats.rates[0].within and not wrong.within


def test_whole_word_masking_never_splits_a_word(tok):
    enc = encoding.encode(tok, TEXT)
    _, labels = m.mlm_draws(
        tok, enc, 500, seed=1, mlm_probability=0.3, mask_replace_prob=1.0, random_replace_prob=0.0, whole_word=True
    )
    words = np.array(enc.word_ids)
    for w in set(enc.word_ids) - {-1}:
        sel = labels[:, words == w] != -100
        assert (sel.all(1) == sel.any(1)).all()
    assert any(enc.word_ids.count(w) > 1 for w in set(enc.word_ids) - {-1})  # the test sentence has split words


def test_chinese_words_come_from_the_segmenter_spaced_or_not(tok):
    """BERT's tokenizer splits every character; jieba groups them into words, as Chinese BERT-wwm's LTP did."""
    for text in ("我 喜欢 北京", "我喜欢北京"):
        enc = encoding.encode(tok, text)
        chars = [(enc.offsets[k], w) for k, w in enumerate(enc.word_ids) if w >= 0]
        groups = {}
        for (a, b), w in chars:
            groups.setdefault(w, "")
            groups[w] += text[a:b]
        assert list(groups.values()) == ["我", "喜欢", "北京"], (text, groups)


def test_wwm_on_chinese_shows_the_segmentation_and_never_splits_a_word(tok):
    text = "使用语言模型来预测下一个词的概率"
    run = m.whole_word_masking(tok, text, seed=3, mlm_probability=0.5)
    (note,) = [n for n in run.notes if n.code == "segmentation"]
    assert note.params["words"] == "使用 / 语言 / 模型 / 来 / 预测 / 下 / 一个 / 词 / 的 / 概率"
    rates = {r.name: r for r in stats.wwm_stats(tok, encoding.encode(tok, text), 500, 0, text=text)}
    assert rates["words_split"].empirical == 0.0 and rates["words_selected"].within


def test_dynamic_static_rows_repeat_dynamic_rows_vary(tok):
    r = m.dynamic_masking(tok, TEXT, seed=2, epochs=6, mlm_probability=0.3)
    static = [a for label, a in r.rows if label.startswith("static")]
    dynamic = [a for label, a in r.rows if label.startswith("dynamic")]
    assert len(static) == len(dynamic) == 6
    assert all(row == static[0] for row in static) and len({tuple(row) for row in dynamic}) > 1


def test_spans_are_whole_words_and_at_most_ten(tok):
    enc = encoding.encode(tok, TEXT * 3)
    rng = np.random.default_rng(0)
    for _ in range(300):
        spans, drawn = sp.sample_spans(enc, rng)
        assert all(1 <= len(s) <= min(d, 10) for s, d in zip(spans, drawn))
        assert all(s == list(range(s[0], s[0] + len(s))) for s in spans)


def test_span_boundary_objective_points_outside_the_span(tok):
    r = sp.span_masking(tok, TEXT, seed=4)
    for item in r.details["sbo"]:
        span = next(s for s in r.details["spans"] if s["start"] <= item["target"] <= s["end"])
        assert item["left"] == span["start"] - 1 and item["right"] == span["end"] + 1
        assert item["position"] == item["target"] - span["start"] + 1


def test_t5_sentinels_consecutive_and_target_rebuilds_the_sentence(tok):
    for seed in range(20):
        r = sp.t5_span_corruption(tok, TEXT, seed=seed)
        used = [t for t in r.corrupted if t.startswith("<extra_id_")]
        assert used == [f"<extra_id_{i}>" for i in range(len(used))]
        target = r.details["target"]
        assert [t for t in target if t.startswith("<extra_id_")] == [f"<extra_id_{i}>" for i in range(len(used) + 1)]
        rebuilt, spans, k = [], {}, None  # fill each sentinel of the input with its span from the target
        for t in target:
            k = t if t.startswith("<extra_id_") else k
            spans.setdefault(k, []).append(t) if not t.startswith("<extra_id_") else spans.setdefault(t, [])
        for t in r.corrupted:
            rebuilt += spans[t] if t in spans else [t]
        assert rebuilt == r.tokens


def test_permutation_masks_follow_the_order(tok):
    r = am.permutation_lm(tok, TEXT, seed=5)
    order, content, query = r.details["order"], np.array(r.details["content_mask"]), np.array(r.details["query_mask"])
    assert sorted(order) == list(range(len(r.tokens)))
    for i in range(len(order)):
        before = set(order[: order.index(i)])
        assert set(np.flatnonzero(query[i])) == before
        assert set(np.flatnonzero(content[i])) == before | {i}
    predicted = [p for p in order if r.actions[p] == "predicted"]
    assert predicted == [p for p in order if r.actions[p] != "special"][-len(predicted) :]


def test_unilm_prefix_blocks(tok):
    masks = am.family_masks(7, 3)
    P = masks["prefix"]
    assert (P[:3, :3] == 1).all() and (P[:3, 3:] == 0).all() and (P[3:, :3] == 1).all()
    assert (P[3:, 3:] == np.tril(np.ones((4, 4)))).all()
    assert (masks["causal"] == np.tril(np.ones((7, 7)))).all() and (masks["bidirectional"] == 1).all()


def test_tokenizer_without_mask_token_uses_a_placeholder(tiny_clm):
    r = m.bert_masking(tiny_clm.tokenizer, TEXT, seed=1, mlm_probability=0.6)
    assert r.mask_is_placeholder and r.mask_token == encoding.PLACEHOLDER_MASK
    assert encoding.PLACEHOLDER_MASK in r.corrupted


def test_empty_after_tokenization_is_a_clear_error(tok):
    with pytest.raises(InputError) as err:
        m.bert_masking(tok, "", seed=0)
    assert err.value.code == "masking_empty"


def test_electra_labels_say_replaced_exactly_where_tokens_changed(tiny_mlm):
    r = me.electra_mlm(tiny_mlm, TEXT, seed=3, mask_prob=0.5)
    for new, old, action in zip(r.tokens, r.details["original_tokens"], r.actions):
        assert (action == "replaced") == (new != old) or action == "special"
    u = me.electra_uniform(tiny_mlm.tokenizer, TEXT, seed=3, mask_prob=0.5)
    assert "replaced" in u.actions and u.labels == [int(a == "replaced") for a in u.actions]
