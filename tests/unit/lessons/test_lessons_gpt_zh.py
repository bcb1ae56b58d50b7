"""Offline, the course's Chinese GPT steps run on gpt-zh (the small classroom GPT trained here), not on SmolLM2."""

from urllib.parse import parse_qs

from playground.lessons import LESSONS, PROMPT_STEP_ZH, PROMPT_ZH, resolve
from playground.ui.lessons import tab as lessons_tab

OFFLINE = {"gpt-zh", "smollm2-instruct", "minilm", "minilm-mlm", "e5-small", "e5-mlm"}
REGISTERED = OFFLINE | {"gpt2", "gpt2-chinese", "bert", "bert-chinese"}


def lesson(key):
    return next(lesson for lesson in LESSONS if lesson.key == key)


def test_exercise_2_offline_runs_on_the_chinese_gpt_with_the_course_prompt():
    tries = [tryit for tryit in lesson("ex2").tries if tryit.tab == "sampling"]  # not its "Ask the class" (Class tab)
    links = [resolve(tryit, OFFLINE, {"sampling"}, REGISTERED) for tryit in tries]
    for link in links:
        query = parse_qs(link.query)
        assert query["model"] == ["gpt-zh"] and query["prompt"] == [PROMPT_ZH] and link.note == "lessons.note.gpt_zh"
    en, zh = lessons_tab.notes_markdown(links, "en"), lessons_tab.notes_markdown(links, "zh")
    assert "trained here" in en and "SmolLM2" not in en and "在此训练" in zh


def test_online_gpt2_chinese_still_comes_first_and_without_either_smollm2_remains():
    tryit = lesson("ex2").tries[0]
    assert parse_qs(resolve(tryit, OFFLINE | {"gpt2-chinese"}, {"sampling"}, REGISTERED).query)["model"] == ["gpt2-chinese"]
    without = resolve(tryit, OFFLINE - {"gpt-zh"}, {"sampling"}, REGISTERED)
    assert parse_qs(without.query)["model"] == ["smollm2-instruct"]


def test_the_causal_lesson_shows_gpts_next_character_after_woai():
    tryit = next(t for t in lesson("causal").tries if t.label == "lessons.try.next_zh")
    query = parse_qs(resolve(tryit, OFFLINE, {"sampling"}, REGISTERED).query)
    assert query["model"] == ["gpt-zh"] and query["prompt"] == [PROMPT_STEP_ZH] and query["show"] == ["next"]
    # no Chinese causal model: the link says so instead of running SmolLM2 on Chinese it cannot read
    assert resolve(tryit, OFFLINE - {"gpt-zh"}, {"sampling"}, REGISTERED).query == ""
