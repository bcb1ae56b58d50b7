"""The one set of field validators (playground/checks.py): what each accepts, normalises and refuses, in one wording."""

import math

import numpy as np
import pytest
import torch

from playground import checks
from playground.errors import InputError
from playground.ui.common.i18n import t
from playground.ui.common.strings import STRINGS


def refused(call) -> InputError:
    with pytest.raises(InputError) as err:
        call()
    return err.value


def test_every_wording_is_the_page_text_in_english_and_has_chinese():
    for code, wording in checks.WORDINGS.items():
        key = f"error.{code}" if f"error.{code}" in STRINGS else f"common.{code}"
        en, zh = STRINGS[key]
        assert en == wording, code
        assert zh and zh != en, code


@pytest.mark.parametrize("value", [3, 3.0, 0, 10])
def test_whole_accepts_whole_numbers_and_returns_int(value):
    out = checks.whole(value, "n", 0, 10)
    assert out == value and type(out) is int


@pytest.mark.parametrize("value", [2.9, -0.5, -1, 11, math.nan, math.inf, -math.inf, "3", None, [3], True, 2**70, 10**400])
def test_whole_refuses_and_never_truncates(value):
    err = refused(lambda: checks.whole(value, "top_k", 0, 10))
    assert err.code == "input_not_whole" and str(err) == "top_k must be a whole number from 0 to 10."


def test_number_bounds_open_and_closed():
    assert checks.number(0, "t", 0, 2) == 0.0 and type(checks.number(1, "t", 0, 2)) is float
    assert refused(lambda: checks.number(0, "top_p", 0, 1, low_open=True)).code == "input_not_number_above"
    assert str(refused(lambda: checks.number(3, "t", 0, 2.5))) == "t must be a number from 0 to 2.5."
    assert str(refused(lambda: checks.number(1, "lr", 1e-6, 1e-3))) == "lr must be a number from 0.000001 to 0.001."
    for bad in (math.nan, math.inf, "0.5", None, [0.5], True, 10**400):
        assert refused(lambda: checks.number(bad, "t", 0, 2)).code == "input_not_number"


def test_probability_is_a_number_from_0_to_1():
    assert checks.probability(1, "p") == 1.0
    assert str(refused(lambda: checks.probability(1.5, "p"))) == "p must be a number from 0 to 1."


def test_one_seed_cap_that_every_generator_here_accepts():
    assert checks.MAX_SEED == 2**32 - 1
    assert checks.seed(checks.MAX_SEED) == checks.MAX_SEED
    np.random.seed(checks.MAX_SEED)  # transformers.set_seed's numpy call: the narrowest range of the three
    torch.Generator().manual_seed(checks.MAX_SEED)
    np.random.default_rng(checks.MAX_SEED)
    with pytest.raises(ValueError):
        np.random.seed(checks.MAX_SEED + 1)  # why the cap is not higher
    for bad in (checks.MAX_SEED + 1, -1, 1.5, -0.5, None, "1"):
        err = refused(lambda: checks.seed(bad))
        assert str(err) == f"seed must be a whole number from 0 to {checks.MAX_SEED}."


def test_text_type_length_and_unicode():
    assert checks.text("ok", "text", 5) == "ok" and checks.text(None, "text", 5, allow_none=True) == ""
    assert refused(lambda: checks.text(None, "text", 5)).code == "input_not_text"
    assert refused(lambda: checks.text(7, "text", 5)).code == "input_not_text"
    assert refused(lambda: checks.text("toolong", "text", 5)).code == "input_text_too_long"
    err = refused(lambda: checks.text("a\ud800", "text", 5))
    assert err.code == "input_bad_unicode" and "\ud800" not in str(err)


def test_flag_choice_and_layer():
    assert checks.flag(False, "share") is False
    for bad in (0, 1, "true", None):
        assert refused(lambda: checks.flag(bad, "share")).code == "input_not_flag"
    assert checks.choice("pca", "projection", ("pca", "tsne")) == "pca"
    err = refused(lambda: checks.choice(["pca"], "projection", ("pca", "tsne")))
    assert str(err) == "projection must be one of: pca, tsne."
    assert [checks.layer(v, "layer", 12) for v in (None, "", "last", "3", 3, 3.0)] == [None, None, None, 3, 3, 3]
    for bad in ("abc", -1, 1.5, "1.5", 13, True, [1], math.nan):
        assert refused(lambda: checks.layer(bad, "layer", 12)).code == "input_not_layer"


def test_lists_of_keys_and_numbers():
    assert checks.keys(["a", "", "b", "a"], "models", 2) == ("a", "b")  # empties dropped, duplicates once
    for bad in ("a", [1], [None], {"a": 1}, ["a", "b", "c"], ["\ud800"]):
        assert refused(lambda: checks.keys(bad, "models", 2)).code in ("input_not_list", "input_bad_unicode")
    each = lambda v: checks.number(v, "temperatures", 0, 2)  # noqa: E731
    assert checks.numbers([0, 1.5], "temperatures", 3, each) == (0.0, 1.5) and checks.numbers(None, "t", 3, each) == ()
    assert refused(lambda: checks.numbers("0.5", "temperatures", 3, each)).code == "input_not_list"
    assert refused(lambda: checks.numbers([3], "temperatures", 3, each)).code == "input_not_number"


def test_model_key_allow_list_and_kinds():
    assert checks.model_key("minilm", "model", ("encoder",)) == "minilm"
    err = refused(lambda: checks.model_key("minilm", "model", ("elmo",)))
    assert err.code == "input_model_kind" and str(err).endswith(" cannot be used here: model must be a model of kind elmo.")
    assert err.params["name"] == "model" and err.params["kinds"] == "elmo"
    assert refused(lambda: checks.model_key("nope", "model")).code == "unknown_model"
    assert refused(lambda: checks.model_key(["minilm"], "model")).code == "input_not_text"
    assert refused(lambda: checks.model_key("a\ud800", "model")).code == "input_bad_unicode"


def test_the_page_shows_each_refusal_in_chinese_with_the_same_numbers():
    err = refused(lambda: checks.whole(2.5, "top_k", 1, 20))
    zh = t(f"error.{err.code}", "zh", **err.params)
    assert "top_k" in zh and "1" in zh and "20" in zh and "整数" in zh
