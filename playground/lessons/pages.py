"""A lesson as its page shows it, in either language: its label, its text and formula heading, what to notice and
discuss, and its try-it links resolved against what can load now. The lessons tab and a lesson's notebook both
write with these, so the notebook reads as the page does.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from playground import availability
from playground.langs import normalize_lang
from playground.lessons import LESSONS, Lesson, Link, resolve
from playground.lessons.text import STRINGS
from playground.registry import registry


def say(key: str, lang: str | None, **fmt: Any) -> str:
    """The course's text `key` in `lang` (the lessons' own words: playground/lessons/text.py)."""
    en, zh = STRINGS[key]
    text = zh if normalize_lang(lang) == "zh" else en
    return text.format(**fmt) if fmt else text


def lesson_links(tabs: Iterable[str]) -> dict[str, list[Link]]:
    """Every lesson's try-it links, resolved against the models that can load now and the tabs this app has."""
    available = [spec.key for spec in availability.available_specs()]
    tabs = list(tabs)
    return {lesson.key: [resolve(tryit, available, tabs, registry()) for tryit in lesson.tries] for lesson in LESSONS}


def lesson_label(lesson: Lesson, lang: str) -> str:
    title = say(f"lessons.{lesson.key}.title", lang)
    exercises = [x.key for x in LESSONS if x.exercise]
    if lesson.exercise:
        return say("lessons.exercise_label", lang, n=exercises.index(lesson.key) + 1, title=title)
    concepts = [x.key for x in LESSONS if not x.exercise]
    return say("lessons.concept_label", lang, n=concepts.index(lesson.key) + 1, title=title)


def lesson_markdown(lesson: Lesson, lang: str) -> str:
    key = f"lessons.{lesson.key}"
    return f"## {lesson_label(lesson, lang)}\n\n{say(f'{key}.body', lang)}\n\n**{say('lessons.formula', lang)}**"


def discuss_markdown(lesson: Lesson, lang: str) -> str:
    key = f"lessons.{lesson.key}"
    return (
        f"**{say('lessons.notice', lang)}:** {say(f'{key}.notice', lang)}\n\n"
        f"**{say('lessons.question', lang)}:** {say(f'{key}.question', lang)}"
    )
