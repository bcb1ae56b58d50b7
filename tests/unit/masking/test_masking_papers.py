"""The papers' parameters shown and the statistics honest about what they measure (issue 19): SpanBERT's drawn and
masked span means, T5's fixed counts against what its draws vary, XLNet's K."""

import numpy as np
import pytest

from playground.runtime import Runtime
from playground.masking import masking_statistics
from playground.masking.spans import SPAN_MAX, SPAN_P, span_length_theory
from playground.masking.stats import budget_clipped_mean, composition_theory
from playground.ui.masking import render
from tests import tiny_models

TEXT = " ".join(["the cat sat on the mat and it was tired"] * 6)


@pytest.fixture(scope="module")
def tok():
    return tiny_models.wordpiece_tokenizer()


def rates(stats):
    return {r.name: r for r in stats.rates}


def test_budget_clipped_mean_equals_a_direct_simulation_of_that_process():
    rng = np.random.default_rng(1)
    probs, lengths = span_length_theory(SPAN_P, SPAN_MAX), np.arange(1, SPAN_MAX + 1)
    for target in (2, 5, 10):
        cut = []
        for _ in range(20_000):
            left = target
            while left:
                length = min(int(rng.choice(lengths, p=probs)), left)
                cut.append(length)
                left -= length
        assert np.mean(cut) == pytest.approx(budget_clipped_mean(target), abs=0.03)
    assert budget_clipped_mean(1000) == pytest.approx(float((lengths * probs).sum()), abs=0.02)  # no budget: the drawn mean


def test_spanbert_shows_both_means_and_the_masked_one_is_within_its_theory(tok):
    stats = masking_statistics(tok, TEXT, "span", 3000, seed=0)
    r = rates(stats)
    drawn, masked = r["drawn_span_mean"], r["masked_span_mean"]
    assert drawn.within and drawn.theory == pytest.approx(3.8, abs=0.01)  # the paper's 3.8
    assert masked.at_most and masked.within and masked.empirical < drawn.empirical - 0.5  # the budget and the cap clip
    assert masked.theory == pytest.approx(budget_clipped_mean(stats.facts["budget"]))
    for lang in ("en", "zh"):
        table, _ = render.statistics_view_of(stats, lang)
        assert f"{drawn.theory:.2f}" in table and f"{masked.theory:.2f}" in table and "≤" in table


def test_t5_says_its_counts_are_fixed_and_measures_what_varies(tok):
    stats = masking_statistics(tok, TEXT, "t5", 2000, seed=0)
    r, f = rates(stats), stats.facts
    assert (f["paper_density"], f["paper_mean_span"]) == (0.15, 3.0)
    assert r["noise_fraction"].empirical == f["noise"] / f["tokens"] and r["mean_span"].empirical == f["noise"] / f["spans"]
    assert r["first_span_mean"].stderr > 0 and r["first_span_mean"].within  # a random quantity, with its error
    hist = stats.histograms["t5_span_length"]
    assert sum(hist["theory"]) == pytest.approx(1.0) and sum(hist["empirical"]) == pytest.approx(1.0)
    assert np.max(np.abs(np.array(hist["empirical"]) - hist["theory"])) < 0.05
    assert 1 < f["distinct"] <= 2000
    for lang in ("en", "zh"):
        table, _ = render.statistics_view_of(stats, lang)
        assert "15 %" in table or "15%" in table
        assert str(f["noise"]) in table and str(f["distinct"]) in table


def test_composition_theory_is_a_distribution_with_the_right_mean():
    for n, m in [(9, 3), (8, 1), (5, 5), (12, 4)]:
        p = composition_theory(n, m)
        assert p.sum() == pytest.approx(1.0) and (np.arange(1, len(p) + 1) * p).sum() == pytest.approx(n / m)


def test_xlnet_shows_k_and_one_over_k_where_masks_are_drawn(tok):
    from playground.masking import permutation

    result = permutation.permutation_lm(tok, TEXT, seed=0)
    stats = masking_statistics(tok, TEXT, "permutation", 200, seed=0)
    assert stats.facts["k"] == result.details["k"] == 6
    for lang in ("en", "zh"):
        table, _ = render.statistics_view_of(stats, lang)
        assert "K = 6" in table and "0.167" in table


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_draw_views_name_k_and_t5s_parameters(tiny_mlm, lang):
    from playground.masking import MaskingRequest, run_masking

    for strategy, words in (("permutation", ("K = 6", "1/K = 0.167")), ("t5", ("15", "3"))):
        run = run_masking(
            MaskingRequest(TEXT, "bert", strategy),
            Runtime(load=lambda key: tiny_mlm, load_tokenizer=lambda key: tiny_mlm.tokenizer),
        )
        text = render.summary(run, lang)
        assert all(w in text for w in words), (strategy, text[:400])
        if strategy == "t5":
            assert str(run.details["noise_tokens"]) in text and str(run.details["spans"]) in text


@pytest.mark.parametrize("strategy", ["bert", "wwm", "dynamic"])
def test_a_seed_that_selects_nothing_says_so(tiny_mlm, strategy):
    from playground.masking import MaskingRequest, run_masking

    def draw(seed):
        return run_masking(
            MaskingRequest("the cat sat", "bert", strategy, seed=seed, epochs=2),
            Runtime(load=lambda key: tiny_mlm, load_tokenizer=lambda key: tiny_mlm.tokenizer),
        )

    runs = [draw(seed) for seed in range(40)]  # 3 or 4 tokens at 15 %: about half the seeds select none
    empty = [r for r in runs if all(label == -100 for label in r.labels)]
    full = [r for r in runs if any(label != -100 for label in r.labels)]
    assert empty and full
    for run in empty:
        (note,) = [n for n in run.notes if n.code == "nothing_selected"]
        n = sum(a != "special" for a in run.actions)
        assert note.params["n"] == n and note.params["chance"] == pytest.approx(0.85**n)
        for lang in ("en", "zh"):
            assert render.summary(run, lang).startswith("⚠️") and str(run.request.seed) in render.summary(run, lang)
    assert not any(n.code == "nothing_selected" for r in full for n in r.notes)


def test_t5_grid_puts_each_sentinel_under_its_span_and_nothing_under_dropped_tokens(tiny_mlm):
    from playground.masking import MaskingRequest, run_masking

    run = run_masking(
        MaskingRequest(TEXT + " .", "bert", "t5", seed=3),
        Runtime(load=lambda key: tiny_mlm, load_tokenizer=lambda key: tiny_mlm.tokenizer),  # its own caches
    )
    (top, below), (_, (_, actions)) = render._t5_rows(run, "en")
    assert len(top) == len(below) == len(actions) == len(run.tokens)
    assert [x for x in below if x] == run.corrupted  # the encoder input, in order, nothing shifted
    for pos, action in enumerate(run.actions):
        if action != "sentinel":
            assert below[pos] == top[pos] and actions[pos] == action  # [SEP] under [SEP], in its own colour
        else:
            assert actions[pos] in ("sentinel", "pad") and (below[pos].startswith("<extra_id_") or below[pos] == "")
