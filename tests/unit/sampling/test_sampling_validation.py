"""/next_token and /generate refuse values out of their ranges before any model loads (every other kind of bad
value: the bad-values battery), and bound the work one request may cause (token budget, time limit)."""

import math
import time

import pytest

from playground import sampling
from playground.sampling import generation
from playground.errors import InputError
from playground.runtime import Runtime
from playground.ui.common.widgets import friendly_errors

# What every field refuses by its kind (None for a number, a list, a string, NaN, ±inf, a fraction for a whole
# number, 2**70, a seed over the cap, a list too long or with an item of the wrong type, a model of another kind) the
# one battery proves through /next_token and /generate: tests/unit/core/test_api_bad_values.py. Here: the ranges.
BAD_TEMPERATURE = [-1, 2.5, 1e-40, 5e-324, 1e-5]  # below MIN_TEMPERATURE the scores overflow
BAD_TOP_K = [10**6]
BAD_TOP_P = [0, 1.5, -0.1]
BAD_MAX_NEW = [0, 10**9]
BAD_SAMPLES = [0, 6]
BAD_TEMPERATURES = [[math.nan], [3.0], [0.5, 1e-40]]


def _never(key):
    raise AssertionError("no model may load for a malformed request")


never = Runtime(load=_never)


def refused(call, code):
    with pytest.raises(InputError) as err:
        call()
    # `code` is the refusal's kind, or for the checks' field validators the parameter the message names
    assert code in (err.value.code, err.value.params.get("name")), str(err.value)
    assert "long long" not in str(err.value) and "Traceback" not in str(err.value)
    return err.value


def next_token(**fields):
    return lambda: sampling.run_next_token(sampling.NextTokenRequest(**{"prompt": "the cat", **fields}), never)


def generate(**fields):
    return lambda: generation.run_generate(generation.GenerateRequest(**{"prompt": "the cat", **fields}), never)


@pytest.mark.parametrize("entry", [next_token, generate])
def test_no_prompt(entry):
    refused(entry(prompt=None), "input_not_text")


@pytest.mark.parametrize("entry", [next_token, generate])
@pytest.mark.parametrize("value", BAD_TEMPERATURE)
def test_temperature(entry, value):
    refused(entry(temperature=value), "temperature")


def test_a_temperature_too_small_to_divide_by_says_zero_is_greedy_in_both_languages():
    """1e-40 passed the 0-2 check: the scores overflowed to NaN (/generate: torch.multinomial's traceback; /next_token:
    bare NaNs in its JSON). Between 0 (greedy, the limit) and the smallest safe temperature, refused in words."""
    from playground.ui.common.i18n import t

    error = refused(next_token(temperature=1e-40), "temperature")
    assert error.code == "input_temperature_tiny" and "0 (greedy)" in str(error), str(error)
    assert "贪心" in t(f"error.{error.code}", "zh", **error.params)


def test_the_smallest_temperature_allowed_gives_finite_probabilities(tiny_clm):
    """At MIN_TEMPERATURE the scaled scores of a real vocabulary stay finite: no NaN reaches a bar or a sample."""
    import torch

    logits = torch.linspace(-80.0, 80.0, 50_000).unsqueeze(0)  # wider than any bundled model's logits
    probs = sampling.warp(logits, sampling.settings(sampling.MIN_TEMPERATURE, 0, 1.0)).softmax(-1)
    assert torch.isfinite(probs).all() and float(probs.sum()) == pytest.approx(1.0)


@pytest.mark.parametrize("entry", [next_token, generate])
@pytest.mark.parametrize("value", BAD_TOP_K)
def test_top_k(entry, value):
    refused(entry(top_k=value), "top_k")


@pytest.mark.parametrize("entry", [next_token, generate])
@pytest.mark.parametrize("value", BAD_TOP_P)
def test_top_p(entry, value):
    refused(entry(top_p=value), "top_p")


@pytest.mark.parametrize("value", BAD_TEMPERATURES)
def test_temperatures_list(value):
    refused(next_token(temperatures=value), "temperatures")


@pytest.mark.parametrize("value", BAD_MAX_NEW)
def test_max_new_tokens_is_refused_never_truncated(value):
    refused(generate(max_new_tokens=value), "max_new_tokens")


@pytest.mark.parametrize("value", BAD_SAMPLES)
def test_n_samples(value):
    refused(generate(n_samples=value), "n_samples")


def test_compare_and_step_check_the_same_way():
    compare = generation.CompareRequest("the cat", "", (0.1, "x"), 0, 1.0, 4)
    refused(lambda: generation.run_compare(compare, never), "temperatures")
    refused(lambda: generation.run_compare(generation.CompareRequest("the cat", "", (), 0, 1.0, 4), never), "temperatures")
    refused(lambda: generation.run_step(None, generation.StepRequest("the cat", seed=2**70), never), "seed")
    refused(lambda: generation.run_step(None, generation.StepRequest("the cat", max_new_tokens=1.5), never), "max_new_tokens")


def test_token_budget_spans_samples_and_temperatures():
    assert 200 * 5 > generation.MAX_TOTAL_TOKENS  # the request: 200 tokens x 5 samples
    error = refused(generate(max_new_tokens=200, n_samples=5), "sampling_budget")
    assert "1000" in str(error) and str(generation.MAX_TOTAL_TOKENS) in str(error)
    too_many = generation.MAX_TOTAL_TOKENS // 3 + 1
    compare = generation.CompareRequest("the cat", "", (0.1, 0.8, 1.5), 0, 1.0, too_many)
    refused(lambda: generation.run_compare(compare, never), "sampling_budget")


def test_whole_numbers_as_floats_are_accepted():
    assert generation.check_run(40.0, 2.0, 3.0) == (40, 2, 3)
    assert sampling.settings(1, 5.0, 1) == sampling.SamplingSettings(1.0, 5, 1.0)


def test_generation_stops_at_its_deadline(tiny_clm, monkeypatch):
    """A request still drawing at its deadline stops with a message: no disconnected client burns CPU for minutes."""
    s = sampling.settings(1.0, 0, 1.0)
    steps = []
    real_step = generation.Sampler.step
    monkeypatch.setattr(generation.Sampler, "step", lambda self, lm, view=False: steps.append(1) or real_step(self, lm, view))
    start = time.monotonic()
    clock = iter(start + i for i in range(1000))  # each check of the clock is one "second" later
    monkeypatch.setattr(generation.time, "monotonic", lambda: next(clock))
    with pytest.raises(InputError) as err:
        generation.generate(tiny_clm, "the cat", s, 40, 1, 0, deadline=start + 5.5)
    assert err.value.code == "sampling_time_limit" and 1 <= len(steps) <= 6  # stopped long before 40 tokens


def test_time_limit_message_is_translated():
    with pytest.raises(Exception) as err, friendly_errors("zh"):
        raise generation.time_limit_error()
    assert "秒" in str(err.value)


def test_lone_byte_piece_reads_as_bytes_in_next_token_views(tiny_clm):
    """A candidate that is one byte of a character shows `<0xE9>` in bars and alternatives, never "�"."""
    first_byte = tiny_clm.tokenizer("龘", add_special_tokens=False)["input_ids"][0]
    assert sampling.token_text(tiny_clm.tokenizer, first_byte) == "<0xE9>"
    view = sampling.distribution(tiny_clm, sampling.next_token_logits(tiny_clm, [first_byte]), sampling.settings(1.0, 0, 1.0))
    assert not any("\ufffd" in token for token in view.tokens)
    run = generation.generate(tiny_clm, "龘", sampling.settings(1.5, 0, 1.0), 12, 3, 0)
    shown = [text for sample in run.samples for tok in sample.tokens for text, _ in tok.alternatives]
    assert shown and not any("\ufffd" in text for text in shown)
