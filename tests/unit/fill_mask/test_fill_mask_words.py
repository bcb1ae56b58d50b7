"""Property: wherever the blank is, a causal model fills it with a whole word — never a special token, never a piece.

Before this test, a blank at the start of a sentence accepted any token with a letter in it, so SmolLM2 offered
`'s` and `<s>`. The model here is a tiny random one whose output is pushed towards exactly those tokens (every
special token and every piece without a word-start marker), so the filter, not luck, keeps them out.
"""

from __future__ import annotations

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playground.fill_mask.causal import fill_blanks_causal
from playground.models import LoadedModel
from tests import tiny_models

WORDS = ["the", "river", "bank", "was", "muddy", "she", "sat", "on", "apple", "fell", "phone", "after", "rain"]


class _Pushed(torch.nn.Module):
    """A causal LM whose logits get `bias` added: the tokens we want kept out become the most probable."""

    def __init__(self, model, bias):
        super().__init__()
        self.inner, self.bias = model, bias

    def forward(self, **kwargs):
        out = self.inner(**kwargs)
        out.logits = out.logits + self.bias
        return out


def _pushed(lm: LoadedModel) -> LoadedModel:
    tok = lm.tokenizer
    bias = torch.zeros(len(tok))
    for raw, i in tok.get_vocab().items():
        if i in tok.all_special_ids or not raw.startswith(("Ġ", "▁")):
            bias[i] = 8.0  # specials and pieces that attach to what comes before
    return LoadedModel(lm.spec, _Pushed(lm.model, bias).eval(), tok, lm.device)


@pytest.fixture(scope="module", params=["gpt2", "llama"])
def pushed(request):
    return _pushed(tiny_models.tiny_gpt2() if request.param == "gpt2" else tiny_models.tiny_llama())


def written_as(tok, left: str, word: str) -> list[int]:
    """The tokens the tokenizer itself writes for `word` in the blank (an oracle independent of the filter)."""
    if not left:
        return tok(word, add_special_tokens=False).input_ids
    before = tok(left, add_special_tokens=False).input_ids
    whole = tok(f"{left} {word}", add_special_tokens=False).input_ids
    return whole[len(before) :] if whole[: len(before)] == before else whole


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=5),
    data=st.data(),
    top_k=st.integers(1, 6),
)
def test_every_candidate_is_the_word_the_tokenizer_writes_there(pushed, words, data, top_k):
    at = data.draw(st.integers(0, len(words)), label="blank position")
    left = " ".join(words[:at])
    text = " ".join(words[:at] + ["[MASK]"] + words[at:]) + " ."
    (both,) = fill_blanks_causal(pushed, [text], top_k=top_k, pool=8)
    tok = pushed.tokenizer
    for reading in (both.left, both.whole):
        (preds,) = reading.predictions
        assert preds, (reading.method, text)
        for p in preds:
            assert p.token_id not in tok.all_special_ids, (reading.method, text, p.raw)
            assert p.word[:1].isalnum(), (reading.method, text, p.raw)  # not `'s`, `<s>`, `.`
            assert written_as(tok, left, p.word) == [p.token_id], (reading.method, text, p.raw)  # not a piece


def test_a_blank_at_the_start_never_offers_the_special_tokens_the_model_prefers(pushed):
    (both,) = fill_blanks_causal(pushed, ["[MASK] river was muddy ."], top_k=20, pool=20)
    shown = {p.raw for reading in (both.left, both.whole) for p in reading.predictions[0]}
    assert not shown & set(pushed.tokenizer.all_special_tokens)
