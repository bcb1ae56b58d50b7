"""A lesson as its page shows it, in either language: its label, its text and formula heading, what to notice and
discuss, and its try-it links resolved against what can load now. The lessons tab and a lesson's notebook both
write with these, so the notebook reads as the page does.
"""

from __future__ import annotations

import re
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


# The English words inside the formulas' \text{...}, in Chinese (a Chinese page showed "static", "random", "your
# corpus" inside its formulas). Names (BERT, MLM, IsNext, top-k) and the word under study ("bank") stay as they are.
FORMULA_ZH = {
    "static: ": "静态：",
    "contextual: ": "上下文相关：",
    "tok": "词元",
    "seg": "句段",
    "pos": "位置",
    "random": "随机",
    "unchanged": "不变",
    "BERT: ": "BERT：",
    "GPT: ": "GPT：",
    "top ": "前 ",
    " s.t.": "，使",
    "a fresh 15\\% draw in every epoch ": "每轮重新抽取的 15\\%",
    "vs. BERT: ": "对比 BERT：",
    " (static)": "（静态）",
    "layer": "层",
    "QA: ": "问答：",
    "start": "起点",
    "vs.": "对比",
    "your corpus": "你的语料",
    "pre-trained": "预训练",
    "every task: ": "每个任务：",
    "prefix": "任务前缀",
    "dec": "解码器",
    "enc": "编码器",
    "decoder block: self (causal)": "解码器块：自注意力（因果）",
    "cross": "交叉注意力",
}


def formula(lesson: Lesson, lang: str) -> str:
    """The lesson's formula in `lang`: the words inside its \\text{...} translated (FORMULA_ZH), the maths as is."""
    if normalize_lang(lang) != "zh":
        return lesson.formula
    return re.sub(r"\\text\{([^{}]*)\}", lambda m: "\\text{" + FORMULA_ZH.get(m.group(1), m.group(1)) + "}", lesson.formula)
