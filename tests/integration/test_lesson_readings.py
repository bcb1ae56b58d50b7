"""What the lessons' texts and links claim, measured on the bundled models (issue 37 items 8 and 11; issue 36's note).

A lesson's words are only as good as the numbers its link shows: each claim is checked here on the weights the
offline link runs, so a retrained head or a changed example fails a test instead of teaching the wrong thing.
"""

import numpy as np

from playground import attention as att
from playground.fill_mask import FillMaskRequest, run_fill_mask
from playground.lessons import ANIMAL, ANIMAL_POINT, LESSONS, MASK_ZH, RIGHT_DECIDES
from playground.lessons.text import STRINGS
from playground.ui.common.widgets import for_request


def _top(text: str, models: tuple[str, ...], k: int = 5) -> dict[tuple[str, str], list[str]]:
    run = run_fill_mask(FillMaskRequest(text, models, k), for_request("en"))
    return {(f.model_key, r.method): [p.word.lower() for p in r.predictions[0]] for f in run.fills for r in f.readings}


def test_lesson_6_blank_is_decided_by_its_right_context_and_reading_both_sides_wins():
    """Lesson 6's fill-mask link had its blank at the end ("The capital of France is [MASK].") so the causal model won
    (Paris 80.6 %): now the word after the blank decides. Offline: the masked LM names a place, left context only
    ("The") names none, and the causal model scoring whole sentences (it sees "Paris" then) says capital."""
    links = [p for lesson in LESSONS if lesson.key == "causal" for tryit in lesson.tries for v in tryit.variants
             for p in [v.params] if "models" in p]  # fmt: skip
    assert links and all(p["text"] == RIGHT_DECIDES for p in links)
    assert not RIGHT_DECIDES.rstrip(".").endswith("[MASK]")  # words follow the blank
    top = _top(RIGHT_DECIDES, ("minilm-mlm", "smollm2-instruct"))
    places = {"capital", "city", "town"}
    assert top[("minilm-mlm", "masked")][0] in places
    assert not places & set(top[("smollm2-instruct", "left-context")])
    assert top[("smollm2-instruct", "whole-sentence")][0] == "capital"
    assert "Paris" in STRINGS["lessons.causal.notice"][0] and "Paris" in STRINGS["lessons.causal.notice"][1]


def test_lesson_13_links_open_where_it_attends_to_animal():
    """The step-by-step and head links opened at layer 0 / head 0 / [SEP], where nothing stands out; at the link's
    layer, head and query the query is "it" and most of its attention goes to "animal"."""
    _, maps = att.attention_maps("minilm", ANIMAL, "", for_request("en"))
    weights = np.asarray(maps.attentions)[ANIMAL_POINT["layer"], ANIMAL_POINT["head"], ANIMAL_POINT["query"]]
    tokens = list(maps.tokens)
    assert tokens[ANIMAL_POINT["query"]] == "it"
    assert tokens[int(weights.argmax())] == "animal" and weights.max() > 0.5
    (lesson,) = [lesson for lesson in LESSONS if lesson.key == "attention"]
    params = [v.params for tryit in lesson.tries if tryit.label.endswith(("_step", "_head")) for v in tryit.variants]
    assert len(params) == 2 and all({k: p[k] for k in ANIMAL_POINT} == ANIMAL_POINT for p in params)


def test_exercise_3_chinese_note_says_what_e5_mlm_answers():
    """The note beside exercise 3's offline link (issue 36) names what e5-mlm gives for 我[MASK]自然语言处理。: its first
    two answers, and that 爱 is far down."""
    (words,) = _top(MASK_ZH, ("e5-mlm",), 20).values()
    assert words[:2] == ["们", "想"] and "爱" not in words
    en, zh = STRINGS["lessons.note.ex3_zh_e5"]
    assert all(w in en and w in zh for w in words[:2]) and "220" in en and "220" in zh
