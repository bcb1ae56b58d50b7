"""The /lesson_notebook endpoint: the notebook builder (playground.lessons.notebook) with its refusals worded in the
caller's language."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Callable

from playground.lessons.notebook import lesson_notebook
from playground.ui.common.widgets import friendly_errors


def notebook_api(tabs: Iterable[str]) -> Callable[..., dict]:
    tabs = list(tabs)

    def lesson_notebook_api(lesson: str = "", lang: str = "en") -> dict:
        """A lesson (or exercise) as a runnable Jupyter notebook, nbformat-4 JSON.

        Args:
            lesson: the lesson's key (static, elmo, embeddings, mlm, ...); empty means the first lesson.
            lang: "en" or "zh", the language of the notebook's text (the code comments are in both).
        """
        with friendly_errors(lang if isinstance(lang, str) else "en"):
            return lesson_notebook(lesson, lang, tabs)

    return lesson_notebook_api
