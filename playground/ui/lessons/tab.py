"""Lessons tab (the landing page): the course in order, each lesson with a formula and a "try it" link into a demo tab.

Which variant a link offers (hub model or bundled one) is decided here, when the page is built, from what can load
now; the link is a share link (`?tab=...&<inputs>`): a click opens it in place (ui.common.links: the tab is
filled and run without reloading the page), and the address bar then shows it, to share.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import gradio as gr

from playground import availability
from playground.lessons import LESSONS, Lesson, Link, resolve
from playground.registry import registry
from playground.ui.common.i18n import UIContext, t
from playground.ui.common.links import LinkRun, Step
from playground.ui.common.share import Shared, share_link_row
from playground.ui.common.strings import STRINGS
from playground.ui.common.widgets import export_file
from playground.ui.lessons.notebook import notebook_api, notebook_text

LATEX = [{"left": "$$", "right": "$$", "display": True}, {"left": "$", "right": "$", "display": False}]


def lesson_links(tabs: Iterable[str]) -> dict[str, list[Link]]:
    """Every lesson's try-it links, resolved against the models that can load now and the tabs this app has."""
    available = [spec.key for spec in availability.available_specs()]
    tabs = list(tabs)
    return {lesson.key: [resolve(tryit, available, tabs, registry()) for tryit in lesson.tries] for lesson in LESSONS}


def lesson_label(lesson: Lesson, lang: str) -> str:
    title = t(f"lessons.{lesson.key}.title", lang)
    exercises = [x.key for x in LESSONS if x.exercise]
    if lesson.exercise:
        return t("lessons.exercise_label", lang, n=exercises.index(lesson.key) + 1, title=title)
    concepts = [x.key for x in LESSONS if not x.exercise]
    return t("lessons.concept_label", lang, n=concepts.index(lesson.key) + 1, title=title)


def picker_choices(lang: str) -> list[tuple[str, str]]:
    return [(lesson_label(lesson, lang), lesson.key) for lesson in LESSONS]


def notes_markdown(links: list[Link], lang: str) -> str:
    """Under the buttons: which tab each link opens and what runs there (or why nothing can), in `lang`."""
    lines = []
    for link in links:
        title_key = f"{link.tab}.tab"
        head = t("lessons.opens", lang, tab=t(title_key, lang)) if link.query and title_key in STRINGS else ""
        note = t(link.note, lang) if link.note else ""
        text = " ".join(part for part in (head, note) if part)
        if text and text not in lines:
            lines.append(text)
    return "\n\n".join(f"- {line}" for line in lines)


def lesson_markdown(lesson: Lesson, lang: str) -> str:
    key = f"lessons.{lesson.key}"
    return f"## {lesson_label(lesson, lang)}\n\n{t(f'{key}.body', lang)}\n\n**{t('lessons.formula', lang)}**"


def discuss_markdown(lesson: Lesson, lang: str) -> str:
    key = f"lessons.{lesson.key}"
    return (
        f"**{t('lessons.notice', lang)}:** {t(f'{key}.notice', lang)}\n\n"
        f"**{t('lessons.question', lang)}:** {t(f'{key}.question', lang)}"
    )


def step(key: str, by: int) -> str:
    """The lesson `by` places after `key` in the course, staying at the first and the last."""
    keys = [lesson.key for lesson in LESSONS]
    at = keys.index(key) if key in keys else 0
    return keys[min(max(at + by, 0), len(keys) - 1)]


def build_tab(ui: UIContext, tabs: Iterable[str]) -> Shared:
    loc = ui.loc
    links = lesson_links(tabs)
    loc.add(gr.Markdown(t("lessons.intro"), elem_id="lessons-intro"), value="lessons.intro")
    with gr.Row(elem_classes="tp-lessons"):
        with gr.Column(scale=1, min_width=240):
            picker = loc.add(
                gr.Radio(picker_choices("en"), value=LESSONS[0].key, label=t("lessons.pick"), elem_id="lessons-picker"),
                label="lessons.pick",
                choices=picker_choices,
            )
            with gr.Row(elem_classes="tp-lesson-steps"):
                back = loc.add(gr.Button(t("lessons.previous"), size="sm", elem_id="lessons-previous"), value="lessons.previous")
                ahead = loc.add(
                    gr.Button(t("lessons.next"), variant="primary", size="sm", elem_id="lessons-next"), value="lessons.next"
                )
            notebook = loc.add(gr.Button(t("lessons.notebook"), size="sm", elem_id="lessons-notebook"), value="lessons.notebook")
            notebook_file = loc.add(
                gr.File(label=t("lessons.notebook_file"), visible=False, elem_id="lessons-notebook-file"),
                label="lessons.notebook_file",
            )
        groups = []
        with gr.Column(scale=3, min_width=300):
            for i, lesson in enumerate(LESSONS):
                with gr.Column(visible=i == 0, elem_id=f"lesson-{lesson.key}", elem_classes="tp-lesson") as group:
                    _lesson_card(ui, lesson, links[lesson.key])
                groups.append(group)

    def show(key: str) -> list[Any]:
        return [gr.update(visible=lesson.key == key) for lesson in LESSONS]

    back.click(lambda key: step(key, -1), picker, picker, api_visibility="private", queue=False)
    ahead.click(lambda key: step(key, 1), picker, picker, api_visibility="private", queue=False)
    # On a phone the list is one sideways-scrolling row of chips: bring the chosen one into view.
    reveal = (
        "(key) => { if (window.innerWidth <= 640) document.querySelector(`#lessons-picker input[value='${key}']`)"
        "?.closest('label')?.scrollIntoView({block: 'nearest', inline: 'center'}); return key; }"
    )
    picker.change(show, picker, groups, js=reveal, api_visibility="private", queue=False)
    tabs = list(tabs)

    def download(key: str, lang: str):
        """The lesson on screen as an .ipynb, built on click into the bounded export folder."""
        return gr.update(value=export_file(f"{key}.ipynb", notebook_text(key, lang, tabs)), visible=True)

    notebook.click(download, [picker, ui.lang], notebook_file, api_visibility="private")
    picker.change(lambda: gr.update(value=None, visible=False), None, notebook_file, api_visibility="private", queue=False)
    gr.api(notebook_api(tabs), api_name="lesson_notebook")
    return share_link_row("lessons", {"lesson": picker}, ui).running(LinkRun((Step(show, [picker], groups),)))


def _lesson_card(ui: UIContext, lesson: Lesson, links: list[Link]) -> None:
    loc = ui.loc
    loc.add(gr.Markdown(lesson_markdown(lesson, "en"), latex_delimiters=LATEX), value=lambda lang: lesson_markdown(lesson, lang))
    gr.Markdown(lesson.formula, latex_delimiters=LATEX, elem_classes="tp-formula")
    with gr.Row(elem_classes="tp-try"):
        for i, link in enumerate(links):
            if not link.query:
                continue
            button = loc.add(
                gr.Button(t(link.label), variant="primary", size="md", elem_id=f"lesson-{lesson.key}-try-{i}", scale=0),
                value=link.label,
            )
            ui.link(button, link.query)  # opens the tab in place: no reload, the session (and its lab model) stays
    loc.add(
        gr.Markdown(notes_markdown(links, "en"), elem_classes="tp-lesson-notes"),
        value=lambda lang: notes_markdown(links, lang),
    )
    loc.add(
        gr.Markdown(discuss_markdown(lesson, "en"), latex_delimiters=LATEX), value=lambda lang: discuss_markdown(lesson, lang)
    )
