"""The lab's bundled sample corpora (English medicine, Chinese GIMP manual): files, licences, domain words, wiring."""

import json

import pytest

from playground.errors import InputError
from playground.mlm_lab import corpus
from playground.mlm_lab.lab import general_ranks
from playground.registry import get_spec
from playground.code import code_for
from playground.ui.mlm_lab import api as tab


@pytest.mark.parametrize("key", sorted(corpus.SAMPLES))
def test_every_sample_loads_splits_and_names_a_licence_file_that_is_there(key):
    sample = corpus.SAMPLES[key]
    texts = corpus.sentences(corpus.sample_corpus(key))
    assert len(texts) >= 10 * corpus.MIN_SENTENCES
    licence = sample.source.rsplit("assets/mlm_lab/", 1)[1].rstrip(")")
    assert (corpus.ASSETS / licence).is_file(), sample.source
    assert get_spec(sample.base).kind == "masked"  # a bundled masked LM that reads the sample's language


def test_an_unknown_sample_is_refused_in_words():
    with pytest.raises(InputError) as caught:
        corpus.sample_corpus("novels")
    assert caught.value.code == "input_not_choice"


def test_the_chinese_sample_is_chinese_split_at_full_width_stops_and_its_licence_is_the_gfdl():
    text = corpus.sample_corpus("gimp-zh")
    texts = corpus.sentences(text)
    assert all(any(corpus.is_chinese(c) for c in s) for s in texts)
    assert not any(s[:-1].count("。") for s in texts)  # one sentence per line: no 。 inside a line
    licence = (corpus.ASSETS / "LICENSE-GIMP-help").read_text(encoding="utf-8")
    assert "GNU Free Documentation License" in licence and "no Invariant Sections" in licence
    assert "Version 1.2, November 2002" in licence  # the licence text itself travels with the corpus


def test_chinese_domain_words_are_jieba_words_rare_in_general_text_and_probed_at_their_last_character():
    train, held = corpus.split(corpus.sentences(corpus.sample_corpus("gimp-zh")), 0)
    ranks, reference = general_ranks()
    assert "jieba" in reference and ranks["我们"] < 1000 < ranks["滤镜"]
    words = corpus.domain_words(train, ranks, lambda w: True, k=20)
    chosen = {w.word for w in words}
    assert {"滤镜", "图层"} <= chosen and not chosen & {"我们", "可以", "一个"}, chosen
    assert all(w.count >= 3 for w in words)
    probes = corpus.probes(held, words)
    assert probes
    for p in probes:
        if corpus.is_chinese(p.word):
            assert p.sentence[p.start : p.end] == p.word[-1] and p.sentence[p.end - len(p.word) : p.end] == p.word
            assert p.masked == p.sentence[: p.start] + "[MASK]" + p.sentence[p.end :]


def test_english_words_are_still_whole_words_and_hidden_whole():
    assert corpus.hidden_part("artery") == "artery" and corpus.hidden_part("图层") == "层"
    found = corpus.words_in("The artery and the 图层 meet, art.")
    assert ("artery", 4, 10) in found and ("图层", 19, 21) in found and not any(w == "art" for w, _, _ in found)


def test_the_chinese_sample_is_a_choice_of_the_tab_the_api_and_the_code_view():
    from playground.ui.mlm_lab import tab as page

    assert set(tab.SAMPLE_SOURCES) <= {value for _, value in page.SOURCES} and set(tab.SAMPLE_SOURCES) == set(page.SAMPLE_INFO)
    assert set(tab.SAMPLE_SOURCES.values()) == set(corpus.SAMPLES)
    assert tab.corpus_text("sample_zh", "pasted", None, "en") == corpus.sample_corpus("gimp-zh")
    assert tab.corpus_text("sample", "pasted", None, "en") == corpus.sample_corpus("medicine")
    view, params = tab.lab_code_request("sample_zh", None, "e5-mlm", False, 0.15, 1e-4, 8, 60, 0)
    assert params["use_sample"] and params["sample"] == "gimp-zh"
    code = code_for(view, json.dumps(params)).code
    assert "corpus_file = str(PLAYGROUND / 'assets/mlm_lab/gimp-zh.txt')" in code and 'load("e5-mlm")' in code
    _, params = tab.lab_code_request("paste", None, "minilm-mlm", False, 0.15, 1e-4, 8, 60, 0)
    assert not params["use_sample"] and "sample" not in params


def test_the_api_refuses_an_unknown_sample():
    with pytest.raises(Exception) as caught:
        next(tab.mlm_lab_api(use_sample=True, sample="novels"))
    assert "sample" in str(caught.value)


def test_choosing_a_sample_picks_a_base_model_that_reads_its_language(monkeypatch):
    """The Chinese sample on MiniLM would train on [UNK]s: choosing it switches the base to e5-mlm where it loads."""
    from playground.ui.mlm_lab import api as tab

    both = [("MiniLM", "minilm-mlm"), ("e5", "e5-mlm")]
    monkeypatch.setattr(tab, "model_choices", lambda kinds, lang: both)
    assert tab.base_for("sample_zh", "minilm-mlm") == "e5-mlm"
    assert tab.base_for("sample", "e5-mlm") == "minilm-mlm"
    assert tab.base_for("paste", "e5-mlm") == "e5-mlm"  # the student's own text: the base stays theirs
    monkeypatch.setattr(tab, "model_choices", lambda kinds, lang: both[:1])
    assert tab.base_for("sample_zh", "minilm-mlm") == "minilm-mlm"  # e5-mlm cannot load here: nothing to switch to
