"""The papers' own figures as test cases for the parameter counts (issue 19, "what a student would read wrong").

Counting rule (stated in playground/inside/params.py and on screen): ALBERT's not-shared cells are the encoder without
the pooler, its shared cells (all-shared, shared-attention, shared-FFN) with it; the paper prints millions rounded to
the nearest whole number. Under that rule every cell of ALBERT's Tables 3 and 4 is reproduced.
"""

import pytest

from playground.errors import InputError
from playground.runtime import Runtime
from playground.inside import params
from playground.inside.configs import BY_KEY, build_meta


RUNTIME = Runtime()  # counts and heads are pure in their configs: one runtime's caches serve the whole module


def what_if(base, E, sharing):
    return params.run_params(params.ParamsRequest(base, E, sharing), RUNTIME).models[-1]


def test_bert_base_at_e_equal_h_without_sharing_is_bert_base_exactly():
    run = params.run_params(params.ParamsRequest("bert-base", 768, False), RUNTIME)
    bert, model = run.models[0], run.models[-1]
    assert bert.key == "bert-base" and model.total == bert.total  # 100 %, not 101 %
    assert model.parts == bert.parts and model.parts["projection"] == 0
    assert model.hf_only == 768 * 768 + 768 == 590_592  # what HF builds anyway: E·H = 589,824 plus the bias
    built = build_meta("albert", params.what_if_values(BY_KEY["bert-base"], 768, False))
    assert built.num_parameters() == model.total + model.hf_only


# ALBERT Table 3 (ALBERT-base, by E) and Table 4 (ALBERT-base, by sharing strategy), in millions.
TABLE_3_4 = [
    (64, "none", 87), (128, "none", 89), (256, "none", 93), (768, "none", 108),
    (64, "all", 10), (128, "all", 12), (256, "all", 16), (768, "all", 31),
    (768, "attention", 83), (768, "ffn", 57), (128, "attention", 64), (128, "ffn", 38),
]  # fmt: skip


@pytest.mark.parametrize("E,sharing,paper", TABLE_3_4)
def test_albert_tables_3_and_4_within_the_papers_rounding(E, sharing, paper):
    model = what_if("albert-base", E, sharing)
    counted = model.without_pooler if sharing == "none" else model.total
    assert abs(counted / 1e6 - paper) <= 0.5, (counted, paper)


def test_the_paper_is_not_consistent_about_the_pooler():
    """Neither one rule for all cells fits: pooler always counted misses some cells, never counted misses others."""
    models = [(what_if("albert-base", E, sharing), paper) for E, sharing, paper in TABLE_3_4]
    assert any(abs(m.total / 1e6 - paper) > 0.5 for m, paper in models)
    assert any(abs(m.without_pooler / 1e6 - paper) > 0.5 for m, paper in models)


def test_shared_sublayers_count_once_and_agree_with_the_formula():
    none, attention, ffn, shared = (what_if("bert-base", 128, s) for s in ("none", "attention", "ffn", "all"))
    assert attention.parts["attention"] * 12 == none.parts["attention"]
    assert attention.parts["feed_forward"] == none.parts["feed_forward"]
    assert ffn.parts["feed_forward"] * 12 == none.parts["feed_forward"] and ffn.parts["attention"] == none.parts["attention"]
    for m in (none, attention, ffn, shared):
        assert m.parts == m.formula
    assert shared.total < ffn.total < attention.total < none.total  # the FFN is the larger sub-layer


@pytest.mark.parametrize(
    "key,paper",
    [("bert-large", 334), ("albert-base", 12), ("albert-large", 18), ("distilbert", 66), ("electra-small", 14)],
)
def test_paper_figures_are_shown_and_near_the_count(key, paper):
    run = params.run_params(params.ParamsRequest(), RUNTIME)
    model = next(m for m in run.models if m.key == key)
    assert paper in [m for m, _ in model.paper]
    assert model.parts == model.formula  # counted on the built model, formula agrees
    assert min(abs(model.total - paper * 1e6), abs(model.without_pooler - paper * 1e6)) <= 0.6e6


def test_what_the_counts_cannot_explain_is_measured_not_hidden():
    run = {m.key: m for m in params.run_params(params.ParamsRequest(), RUNTIME).models}
    assert 58e6 < run["albert-xlarge"].total < 59e6  # the paper prints 60M
    assert 222e6 < run["albert-xxlarge"].total < 223e6  # the paper prints 235M
    assert 109e6 < run["bert-base"].total < 110e6  # BERT paper 110M, ALBERT Table 1 108M (its 30k vocabulary, no pooler)


@pytest.mark.parametrize("bad", ["some", 2, None])
def test_sharing_is_checked(bad):
    with pytest.raises(InputError):
        params.run_params(params.ParamsRequest("bert-base", 128, bad), RUNTIME)


def test_a_base_that_is_not_bert_shaped_is_refused():
    with pytest.raises(InputError) as err:
        params.run_params(params.ParamsRequest("distilbert", 128, True), RUNTIME)
    assert err.value.code == "bad_what_if_base"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_view_shows_100_percent_the_papers_and_why_they_differ(lang):
    from playground.ui.inside import render

    run = params.run_params(params.ParamsRequest("bert-base", 768, "none"), RUNTIME)
    fig, md, headers, rows = render.params_view(run, lang)
    assert "100.0%" in md and "590,592" in md and "589,824" not in md  # E·H + H, named as such
    assert "E·H + H" in md
    assert "108 M" in md and "110 M" in md and "109.5" in md  # the papers' figures beside the count, and why
    paper = headers.index(render.t("inside.params.col_paper", lang))
    by_label = {row[0]: row for row in rows}
    assert "108 M" in by_label["BERT-base"][paper] and "110 M" in by_label["BERT-base"][paper]
    assert {"BERT-large", "ALBERT-xxlarge", "DistilBERT", "ELECTRA-small"} <= set(by_label)
    shared = render.params_view(params.run_params(params.ParamsRequest("albert-base", 768, "attention"), RUNTIME), lang)[1]
    assert ("shared attention" if lang == "en" else "共享注意力") in shared
