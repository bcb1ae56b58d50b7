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

from playground.errors import InputError
from playground.fill_mask.causal import chinese_blank, fill_blanks_causal
from playground.models import LoadedModel
from playground.text_units import stands_alone
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


# --- a blank in Chinese (issue 36: gpt-zh offered `Debian` and `LibreOffice` for 我[MASK]自然语言处理。) --------------


@pytest.fixture(scope="module")
def pushed_llama():
    """The tiny Llama (its vocabulary has Chinese characters and words) pushed towards every space-led Latin word."""
    return _pushed(tiny_models.tiny_llama())


@pytest.mark.parametrize("text", ["我[MASK]自然语言处理。", "[MASK]的未来是光明的。", "我在 [MASK] 存钱。"])
def test_a_chinese_blank_gets_chinese_candidates_written_as_that_token(pushed_llama, text):
    tok = pushed_llama.tokenizer
    (both,) = fill_blanks_causal(pushed_llama, [text], top_k=6, pool=8)
    left = text.split("[MASK]")[0].rstrip()
    before = tok(left, add_special_tokens=False).input_ids if left else []
    for reading in (both.left, both.whole):
        (preds,) = reading.predictions
        assert preds, (reading.method, text)
        for p in preds:
            assert all(stands_alone(ch) for ch in p.word), (reading.method, text, p.raw)  # no `Debian`, no `▁the`
            assert tok(left + p.word, add_special_tokens=False).input_ids == before + [p.token_id], (text, p.raw)


def test_an_english_blank_beside_chinese_text_still_gets_words():
    assert not chinese_blank("I said 你好 and", " left.") and chinese_blank("我", "自然") and chinese_blank("", "天我去")
    assert chinese_blank("我爱 ", " 自然") and not chinese_blank("", "")


def test_a_chinese_blank_on_a_model_without_chinese_tokens_is_refused_with_the_reason():
    """A byte-level vocabulary trained on English only has no token that is a Chinese character: say so, never
    offer Latin words for a Chinese blank."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    raw = Tokenizer(models.BPE())
    raw.pre_tokenizer, raw.decoder = pre_tokenizers.ByteLevel(add_prefix_space=False), decoders.ByteLevel()
    english = [t for t in tiny_models.TEXTS if not any(stands_alone(ch) for ch in t)]
    trainer = trainers.BpeTrainer(
        vocab_size=320, special_tokens=["<s>", "<pad>", "</s>", "<unk>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    raw.train_from_iterator(english, trainer)
    tok = PreTrainedTokenizerFast(tokenizer_object=raw, bos_token="<s>", eos_token="</s>", unk_token="<unk>", pad_token="<pad>")
    torch.manual_seed(0)  # test-only: fixed random weights
    config = GPT2Config(vocab_size=len(tok), n_positions=64, n_embd=16, n_layer=1, n_head=2,
                        bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id)  # fmt: skip
    lm = LoadedModel(tiny_models._spec("tiny-english", "causal", "GPT"), GPT2LMHeadModel(config).eval(), tok, "cpu")
    with pytest.raises(InputError) as err:
        fill_blanks_causal(lm, ["我[MASK]自然语言处理。"], top_k=3, pool=4)
    assert err.value.code == "no_chinese_candidates" and "byte pieces" in str(err.value)
