"""Each activity on a tiny model: built once through its demo's backend entry, deterministic, the answer forms checked."""

from __future__ import annotations

import dataclasses

import pytest

from playground.classroom.activities import (
    ACTIVITIES,
    TEMPERATURES,
    build_question,
    from_json,
    normalize,
    normalize_word,
    to_json,
)
from playground.errors import InputError
from playground.registry import get_spec
from playground.runtime import Runtime


@pytest.fixture(scope="module")
def runtime(tiny_mlm, tiny_clm):
    by_kind = {"masked": tiny_mlm, "causal": tiny_clm}

    def load(key, **kwargs):
        spec = get_spec(key)
        return dataclasses.replace(by_kind[spec.kind], spec=spec)

    return Runtime(load=load, load_tokenizer=lambda key: load(key).tokenizer)


TEXTS = {
    "fill_blank": ("the river [MASK] was muddy .", "minilm-mlm"),
    "temperature": ("the cat", "smollm2-instruct"),
    "attention": ("the cat sat , because *it* was tired .", "minilm-mlm"),
    "next_token": ("the cat sat on the", "smollm2-instruct"),
    "sentences": ("bank | river | money", "minilm-mlm"),
}


@pytest.mark.parametrize("kind", list(ACTIVITIES))
def test_each_activity_is_built_once_deterministically_and_survives_the_store(kind, runtime):
    text, model = TEXTS[kind]
    first = build_question(kind, text, model, runtime, seed=3)
    again = build_question(kind, text, model, Runtime(load=runtime.load, load_tokenizer=runtime.load_tokenizer), seed=3)
    assert first == again  # the model's answer is rank 0 or seeded, never a draw at reveal time
    assert from_json(to_json(first)) == first
    public = first.public()
    assert "model_top" not in public and "truth" not in public and public["prompt"] == first.prompt.replace("*", "")
    # there is something to compare the class with: the model's answer, or (our sentences) the picture of the class's
    # own sentences, drawn as they arrive (tests/unit/classroom/test_sentences.py)
    assert first.reference() or first.form == "sense"


def test_fill_blank_and_next_token_keep_the_models_top_k_most_probable_first(runtime):
    for kind in ("fill_blank", "next_token"):
        q = build_question(kind, *TEXTS[kind], runtime)
        probs = [p for _, p in q.model_top]
        assert q.form == "word" and len(probs) == 5 and probs == sorted(probs, reverse=True) and 0 < sum(probs) <= 1 + 1e-6


def test_temperature_shows_three_continuations_shuffled_by_the_seed_and_keeps_the_truth(runtime):
    labels = sorted(f"{t:g}" for t in TEMPERATURES)
    orders = {build_question("temperature", "the cat", "smollm2-instruct", runtime, seed=s).truth for s in range(8)}
    assert len(orders) > 1  # the shown order depends on the seed
    q = build_question("temperature", "the cat", "smollm2-instruct", runtime, seed=1)
    assert q.form == "match" and len(q.items) == 3 and sorted(q.truth.split("|")) == labels
    assert normalize(q, q.truth) == q.truth
    for bad in ["0.1|0.1|0.8", "0.1|0.8", "", "a|b|c"]:
        with pytest.raises(InputError):
            normalize(q, bad)


def test_attention_asks_about_the_starred_token_and_its_truth_is_the_heads_largest_weight(runtime):
    q = build_question("attention", *TEXTS["attention"], runtime)
    assert q.focus == "it" and q.form == "choice" and len(q.choices) >= 5  # the tiny tokenizer: i ##t
    weights = [w for _, w in q.model_top]
    assert abs(sum(weights) - 1) < 1e-5 and weights == sorted(weights, reverse=True)  # over the options, all shown
    assert q.choices[int(q.truth)] == q.model_top[0][0]
    assert all(normalize_word(c) for c in q.choices)  # no option is punctuation alone
    with pytest.raises(InputError):
        normalize(q, str(len(q.choices)))


def test_words_are_counted_in_one_form():
    q = build_question.__globals__["Question"]("fill_blank", "x [MASK]", "m", "M", "i", "word")
    assert {normalize(q, w) for w in ["Paris", " paris. ", "PARIS!", "“Paris”"]} == {"paris"}
    assert normalize(q, "巴黎。") == "巴黎"
    with pytest.raises(InputError):
        normalize(q, " ... ")


def test_the_model_must_be_of_the_activitys_kind(runtime):
    with pytest.raises(InputError, match="cannot be used here"):
        build_question("fill_blank", "a [MASK]", "smollm2-instruct", runtime)
    with pytest.raises(InputError, match="activity must be one of"):
        build_question("poll", "a [MASK]", "minilm-mlm", runtime)


def test_every_activity_has_an_example_and_a_bundled_model_per_language():
    from playground.registry import get_spec

    for activity in ACTIVITIES.values():
        assert set(activity.examples) == set(activity.models) == {"en", "zh"}
        for lang, key in activity.models.items():
            spec = get_spec(key)
            assert spec.source == "bundled" and spec.kind in activity.model_kinds and lang in spec.languages
