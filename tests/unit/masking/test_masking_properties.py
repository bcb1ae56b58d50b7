"""Property-based: every strategy on arbitrary text (empty, very short, CJK, punctuation) either works
with its invariants intact or refuses with a clear InputError."""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playground.masking import permutation as am
from playground.masking import bert as m
from playground.masking import encoding
from playground.masking import spans as sp
from playground.errors import InputError

STRATEGIES = [
    m.bert_masking,
    m.whole_word_masking,
    m.dynamic_masking,
    sp.span_masking,
    sp.t5_span_corruption,
    am.permutation_lm,
    am.attention_families,
]
texts = st.one_of(
    st.text(max_size=60),
    st.sampled_from(["", " ", ".", "a", "我", "?!", "the", "我 喜欢"]),
    st.text(alphabet="ab 我喜.,", max_size=20),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=texts, seed=st.integers(0, 2**31 - 1), which=st.integers(0, len(STRATEGIES) - 1))
def test_any_text_works_or_is_refused_clearly(tiny_mlm, text, seed, which):
    try:
        r = STRATEGIES[which](tiny_mlm.tokenizer, text, seed=seed)
    except InputError as err:
        assert err.code in {"masking_empty", "masking_t5_short"}
        return
    n = len(r.tokens)
    assert 0 < n <= encoding.MAX_TOKENS and len(r.actions) == len(r.labels) == len(r.word_ids) == n
    assert all(a == "special" for a, w in zip(r.actions, r.word_ids) if w < 0 and r.strategy != "attention")
    assert all(lab == -100 for lab, a in zip(r.labels, r.actions) if a in ("none", "special", "context"))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=texts, seed=st.integers(0, 2**31 - 1))
def test_whole_words_and_spans_on_any_text(tiny_mlm, text, seed):
    try:
        enc = encoding.encode(tiny_mlm.tokenizer, text)
    except InputError:
        return
    _, labels = m.mlm_draws(tiny_mlm.tokenizer, enc, 20, seed, 0.5, 1.0, 0.0, whole_word=True)
    words = np.array(enc.word_ids)
    for w in set(enc.word_ids) - {-1}:
        sel = labels[:, words == w] != -100
        assert (sel.all(1) == sel.any(1)).all()
    spans, drawn = sp.sample_spans(enc, np.random.default_rng(seed))
    assert spans and all(1 <= len(s) <= min(d, 10) for s, d in zip(spans, drawn))
    covered = {w for s in spans for w in s}
    assert len(covered) == sum(len(s) for s in spans)  # spans never overlap
