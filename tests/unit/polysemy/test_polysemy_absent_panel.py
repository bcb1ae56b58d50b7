"""Issue 37 item 6: a word GloVe lacks. Its panel has no vector, so it has no reading (before: "its vectors differ
... because the word became different tokens ()", contradicting the note below it) and no axes (before: an empty
GloVe axis in every figure); the note says why it is missing."""

from playground.polysemy import PolysemyRequest, run_polysemy
from playground.runtime import Runtime
from playground.ui.polysemy import render

SENTENCES = "\n".join(
    ["fish | the blorfish swam by .", "fish | a blorfish ate the bread .", "app | the blorfish app crashed .",
     "app | my blorfish server died ."]
)  # fmt: skip


def _run(tiny_mlm, tiny_glove):
    by_key = {lm.spec.key: lm for lm in (tiny_mlm, tiny_glove)}
    request = PolysemyRequest("blorfish", SENTENCES, tuple(by_key), input_embeddings=False)
    return run_polysemy(request, Runtime(load=by_key.__getitem__))


def test_a_word_glove_lacks_gets_no_reading_only_the_note(tiny_mlm, tiny_glove):
    result = _run(tiny_mlm, tiny_glove)
    glove = next(v for v in result.models if v.key == "tiny-glove")
    assert glove.rows == [] and [n.code for n in glove.notes] == ["not_in_vocabulary"]
    assert not [r for r in result.readings if r.key == "tiny-glove"]  # in the API's JSON too
    for lang in ("en", "zh"):
        words = render.reading(result, lang)
        assert "different tokens" not in words and "不同的词元" not in words and "()" not in words and "（）" not in words
    assert "not in its vocabulary" in render.notes(result, "en") and "不在它的词表中" in render.notes(result, "zh")


def test_a_word_glove_lacks_draws_no_glove_axis(tiny_mlm, tiny_glove):
    result = _run(tiny_mlm, tiny_glove)
    for figure in (f for f in render.figures(result, "en") if f is not None):
        titles = " ".join(a.text or "" for a in figure.layout.annotations) + " ".join(t.name or "" for t in figure.data)
        assert "GloVe" not in titles, titles
        assert "tiny BERT" in titles or "tiny" in titles  # the contextual panel is still drawn


def test_a_word_missing_from_one_sense_does_not_ask_for_labels_that_are_there(tiny_mlm):
    """Low item of issue 37: every line was labelled, the word missing from the river lines, and the headline said
    "Add sense labels"."""
    by_key = {tiny_mlm.spec.key: tiny_mlm}
    text = "money | the bank paid .\nmoney | she went to the bank .\nriver | the bnk was muddy .\nriver | on the shore ."
    result = run_polysemy(PolysemyRequest("bank", text, tuple(by_key)), Runtime(load=by_key.__getitem__))
    (first, *_) = result.readings
    assert first.code == "senses_missing" and first.params == {"found": ["money"], "missing": [3, 4]}
    for lang, label_words in (("en", "Add sense labels"), ("zh", "请添加词义标签")):
        words = render.reading(result, lang)
        assert label_words not in words and "#3, #4" in words and "money" in words, words
