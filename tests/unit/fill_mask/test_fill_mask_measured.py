"""The measured-weakness note: e5-mlm's hit@5 on held-out everyday Chinese, read from its summary, beside the answer."""

import json

import pytest

from playground.fill_mask import ModelFill, Note, _notes
from playground.fill_mask import measured
from playground.registry import get_spec
from playground.ui.fill_mask import render

MODEL_ID = get_spec("e5-mlm").hf_id


@pytest.fixture
def summary(tmp_path, monkeypatch):
    """A summary file for e5-mlm with a chosen held-out HSK measure (the measure cache cleared around the test)."""

    def write(hit_at_5: float, blanks: int = 432):
        path = tmp_path / "e5_mlm" / "summary.json"
        path.parent.mkdir(exist_ok=True)
        held = {"sentences": blanks, "blanks": blanks, "loss": 5.0, "hit_at_5": hit_at_5}
        path.write_text(json.dumps({"evaluation": {"this_overlay": {"hsk_held_out": held}}}), encoding="utf-8")
        measured.everyday_chinese.cache_clear()

    monkeypatch.setattr(measured, "ASSETS", tmp_path)
    yield write
    measured.everyday_chinese.cache_clear()


def notes(text: str, own: frozenset = frozenset()) -> list[Note]:
    fill = ModelFill("e5-mlm", MODEL_ID, "e5-mlm", "cpu", [])
    return _notes(text, [get_spec("e5-mlm")], [fill], own)


def test_the_note_is_the_summarys_figure_on_chinese_text_only(summary):
    summary(0.2338, blanks=431)
    assert notes("我[MASK]自然语言处理。") == [Note("weak_zh", {"model": MODEL_ID, "percent": 23, "blanks": 431})]
    assert notes("The [MASK] barked at the mailman.") == []  # measured on Chinese: says nothing of English
    assert notes("我[MASK]自然语言处理。", own=frozenset({"e5-mlm"})) == []  # a session's own model is not the one measured


def test_no_note_where_the_measure_is_not_weak_or_absent(summary, monkeypatch):
    summary(measured.WEAK_BELOW)
    assert notes("我[MASK]自然语言处理。") == []
    monkeypatch.setattr(measured, "SUMMARIES", {})
    measured.everyday_chinese.cache_clear()
    assert notes("我[MASK]自然语言处理。") == []


def test_the_bundled_summary_gives_the_figure_the_note_shows():
    measured.everyday_chinese.cache_clear()
    found = measured.everyday_chinese("e5-mlm")
    assert found is not None and 0 <= found.hit_at_5 <= 1 and found.blanks > 100


@pytest.mark.parametrize(
    "lang, wanted",
    [("en", ["hit@5 on held-out everyday Chinese: 23 %", "431 HSK sentences"]), ("zh", ["留出的日常中文 hit@5：23%", "431 个"])],
)
def test_the_note_in_both_languages_names_the_model_and_the_figure(lang, wanted):
    note = Note("weak_zh", {"model": MODEL_ID, "percent": 23, "blanks": 431})
    text = render.note_text(note, lang, markdown=True)
    assert all(w in text for w in wanted), text
    assert "e5" in text.lower()  # the model named in the reader's language
    assert note.code in render.WARNINGS  # shown first, with the bars it qualifies
