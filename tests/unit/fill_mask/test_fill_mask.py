"""Fill-mask invariants of the model-bound readings on tiny random models: probabilities, argmax, mask substitution, limits."""

import pytest
import torch

from playground.fill_mask.causal import fill_blanks_causal
from playground.errors import InputError
from playground.fill_mask.data import count_masks
from playground.fill_mask.masked import encode_masked, fill_blanks_masked
from playground.text_units import token_text


@pytest.mark.parametrize(
    "text, code", [("", "empty_text"), ("   ", "empty_text"), ("no blank here", "no_mask"), ("[MASK] " * 9, "too_many_masks")]
)
def test_bad_input_is_refused_with_a_code(text, code):
    with pytest.raises(InputError) as err:
        count_masks(text)
    assert err.value.code == code


def test_mask_marker_is_case_insensitive():
    assert count_masks("a [mask] and a [MASK]") == 2


@pytest.mark.parametrize("fixture", ["tiny_mlm", "tiny_roberta"])
def test_each_family_gets_its_own_mask_token(fixture, request):
    lm = request.getfixturevalue(fixture)
    ids, _ = encode_masked(lm, "the capital of france is [MASK] .")
    assert ids.count(lm.tokenizer.mask_token_id) == 1
    assert lm.tokenizer.convert_ids_to_tokens(ids).count(lm.tokenizer.mask_token) == 1


@pytest.mark.parametrize("fixture", ["tiny_mlm", "tiny_roberta"])
def test_top1_is_the_argmax_and_probabilities_are_a_distribution(fixture, request):
    lm = request.getfixturevalue(fixture)
    text = "the river [MASK] was [MASK] ."
    (result,) = fill_blanks_masked(lm, [text], top_k=1)
    ids, _ = encode_masked(lm, text)
    with torch.no_grad():
        logits = lm.model(input_ids=torch.tensor([ids])).logits[0]
    where = [i for i, t in enumerate(ids) if t == lm.tokenizer.mask_token_id]
    assert [preds[0].token_id for preds in result.predictions] == [int(logits[i].argmax()) for i in where]
    full = torch.softmax(logits[where[0]], -1)
    assert abs(float(full.sum()) - 1) < 1e-5
    assert result.predictions[0][0].probability == pytest.approx(float(full.max()), rel=1e-4)


def test_topk_is_sorted_and_batch_equals_single(tiny_mlm):
    texts = ["the [MASK] fell from the tree .", "she deposited the money in the [MASK] ."]
    batch = fill_blanks_masked(tiny_mlm, texts, top_k=7)
    for text, res in zip(texts, batch):
        (alone,) = fill_blanks_masked(tiny_mlm, [text], top_k=7)
        probs = [p.probability for p in res.predictions[0]]
        assert probs == sorted(probs, reverse=True) and len(probs) == 7
        assert [p.token_id for p in res.predictions[0]] == [p.token_id for p in alone.predictions[0]]


def test_long_text_keeps_a_window_around_the_mask(tiny_mlm):
    text = "the river bank . " * 40 + "the capital of france is [MASK] ." + " the apple fell ." * 40
    (result,) = fill_blanks_masked(tiny_mlm, [text], top_k=3)
    assert result.truncated and len(result.predictions) == 1
    with pytest.raises(InputError) as err:
        fill_blanks_masked(tiny_mlm, ["[MASK] " + "the river bank . " * 40 + "[MASK]"], top_k=3)
    assert err.value.code == "masks_too_far"


def test_model_without_mask_token_is_refused(tiny_clm):
    with pytest.raises(InputError) as err:
        fill_blanks_masked(tiny_clm, ["the [MASK] ."], top_k=3)
    assert err.value.code == "no_mask_token"


@pytest.mark.parametrize(
    "fixture, raw, word, starts",
    [
        ("tiny_mlm", "##ie", "ie", False),
        ("tiny_mlm", "river", "river", True),
        ("tiny_clm", "Ġriver", "river", True),
        ("tiny_clm", "un", "un", False),
        ("tiny_llama", "▁river", "river", True),
    ],
)
def test_tokens_read_as_words(fixture, raw, word, starts, request):
    tt = token_text(request.getfixturevalue(fixture).tokenizer, raw)
    assert (tt.word, tt.starts_word) == (word, starts)


@pytest.mark.parametrize("fixture", ["tiny_clm", "tiny_llama"])
def test_causal_fill_gives_both_readings(fixture, request):
    lm = request.getfixturevalue(fixture)
    (both,) = fill_blanks_causal(lm, ["the river [MASK] was muddy . the [MASK] fell ."], top_k=4, pool=10)
    assert both.left.method == "left-context" and both.whole.method == "whole-sentence"
    for result in (both.left, both.whole):
        assert len(result.predictions) == 2
        for preds in result.predictions:
            probs = [p.probability for p in preds]
            assert probs == sorted(probs, reverse=True) and all(0 <= p <= 1 for p in probs)
            assert all(token_text(lm.tokenizer, p.raw).starts_word for p in preds)  # whole words only
    shares = [p.probability for p in fill_blanks_causal(lm, ["the [MASK] ."], top_k=20, pool=5)[0].whole.predictions[0]]
    assert sum(shares) == pytest.approx(1.0, abs=1e-6)  # the pool is at most 10 here, so top-20 shows all of it


def test_left_context_reading_ignores_the_right_context(tiny_clm):
    a = fill_blanks_causal(tiny_clm, ["the river [MASK] was muddy ."], top_k=5, pool=10)[0]
    b = fill_blanks_causal(tiny_clm, ["the river [MASK] fell from the tree ."], top_k=5, pool=10)[0]
    assert [p.token_id for p in a.left.predictions[0]] == [p.token_id for p in b.left.predictions[0]]


@pytest.mark.parametrize("fixture", ["tiny_clm", "tiny_llama"])
def test_shared_prefix_scoring_equals_full_scoring_up_to_a_constant(fixture, request):
    from playground.fill_mask.causal import _full_logprobs, _rows, _sentence_logprobs

    lm = request.getfixturevalue(fixture)
    sentences = ["the river bank was muddy .", "the river water was muddy after the rain .", "the river was cold ."]
    with torch.no_grad():
        fast = _sentence_logprobs(lm, sentences)
        full = _full_logprobs(lm, _rows(lm, sentences)).numpy()
    gaps = fast - full
    assert abs(gaps.max() - gaps.min()) < 1e-4  # the left-out shared prefix is the same constant for every row


def test_causal_fill_refuses_text_longer_than_its_window(tiny_clm):
    with pytest.raises(InputError) as err:
        fill_blanks_causal(tiny_clm, ["the river bank . " * 30 + "[MASK] ."], top_k=3, pool=5)
    assert err.value.code == "blank_text_too_long"
