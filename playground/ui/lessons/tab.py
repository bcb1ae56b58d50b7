"""Lessons tab (the landing page): the course in order, each lesson with a formula and a "try it" link into a demo tab.

Which variant a link offers (hub model or bundled one) is decided here, when the page is built, from what can load
now; the link is a share link (`?tab=...&<inputs>`): a click opens it in place (ui.common.links: the tab is
filled and run without reloading the page), and the address bar then shows it, to share.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import gradio as gr

from playground.lessons import LESSONS, Lesson, Link
from playground.ui.common.i18n import UIContext, t
from playground.ui.common.links import LinkRun, Step
from playground.ui.common.share import Shared, share_link_row
from playground.ui.common.strings import STRINGS
from playground.ui.common.widgets import export_file
from playground.lessons.notebook import notebook_text
from playground.lessons.pages import discuss_markdown, lesson_label, lesson_links, lesson_markdown
from playground.ui.lessons.api import notebook_api

LATEX = [{"left": "$$", "right": "$$", "display": True}, {"left": "$", "right": "$", "display": False}]


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
        with gr.Column(scale=3, min_width=300, elem_id="lesson-card", elem_classes="tp-lesson"):
            card, buttons = _lesson_card(ui, LESSONS[0], links)
    by_key = {lesson.key: lesson for lesson in LESSONS}

    def text(key: str, lang: str) -> tuple[str, ...]:
        """The card's four texts for lesson `key` (the first lesson for an unknown key) in `lang`."""
        lesson = by_key.get(key, LESSONS[0])
        return (
            lesson_markdown(lesson, lang),
            lesson.formula,
            notes_markdown(links[lesson.key], lang),
            discuss_markdown(lesson, lang),
        )

    def show(key: str, lang: str) -> list[Any]:
        key = key if key in by_key else LESSONS[0].key
        return [*text(key, lang), *(gr.update(visible=owner == key) for owner, _ in buttons)]

    shows = [*card, *(button for _, button in buttons)]
    ui.on_lang(text, [picker, ui.lang], card)  # a language switch redraws the lesson on screen
    back.click(lambda key: step(key, -1), picker, picker, api_visibility="private", queue=False)
    ahead.click(lambda key: step(key, 1), picker, picker, api_visibility="private", queue=False)
    # On a phone the list is one sideways-scrolling row of chips: bring the chosen one into view. (A `js` step hands
    # the event's inputs on to Python: it returns them all.)
    reveal = (
        "(key, lang) => { if (window.innerWidth <= 640) document.querySelector(`#lessons-picker input[value='${key}']`)"
        "?.closest('label')?.scrollIntoView({block: 'nearest', inline: 'center'}); return [key, lang]; }"
    )
    picker.change(show, [picker, ui.lang], shows, js=reveal, api_visibility="private", queue=False)
    tabs = list(tabs)

    def download(key: str, lang: str):
        """The lesson on screen as an .ipynb, built on click into the bounded export folder."""
        return gr.update(value=export_file(f"{key}.ipynb", notebook_text(key, lang, tabs)), visible=True)

    notebook.click(download, [picker, ui.lang], notebook_file, api_visibility="private")
    picker.change(lambda: gr.update(value=None, visible=False), None, notebook_file, api_visibility="private", queue=False)
    gr.api(notebook_api(tabs), api_name="lesson_notebook")
    return share_link_row("lessons", {"lesson": picker}, ui).running(LinkRun((Step(show, [picker, ui.lang], shows),)))


def _lesson_card(ui: UIContext, lesson: Lesson, links: dict[str, list[Link]]) -> tuple[list[Any], list[tuple[str, Any]]]:
    """One card for every lesson, filled by the picker (a card per lesson made the landing page ~100 components
    heavier, and Gradio's front end pays for every component on every page load: docs/measurements.md). Its four
    texts, and every lesson's try-it buttons as (lesson key, button), shown with `lesson`."""
    text = gr.Markdown(lesson_markdown(lesson, "en"), latex_delimiters=LATEX, elem_id="lesson-text")
    formula = gr.Markdown(lesson.formula, latex_delimiters=LATEX, elem_classes="tp-formula")
    buttons = _try_buttons(ui, links, lesson)
    notes = gr.Markdown(notes_markdown(links[lesson.key], "en"), elem_classes="tp-lesson-notes")
    discuss = gr.Markdown(discuss_markdown(lesson, "en"), latex_delimiters=LATEX)
    return [text, formula, notes, discuss], buttons


def _try_buttons(ui: UIContext, links: dict[str, list[Link]], shown: Lesson) -> list[tuple[str, Any]]:
    """Every lesson's try-it buttons as (lesson key, button), `shown`'s visible. A button per link, not a few
    relabelled by the picker: each is its own in-app link event, scoped to its tab's widgets (ui.common.links)."""
    buttons = []
    with gr.Row(elem_classes="tp-try"):
        for lesson in LESSONS:
            for i, link in enumerate(links[lesson.key]):
                if not link.query:
                    continue
                button = ui.loc.add(
                    gr.Button(
                        t(link.label),
                        variant="primary",
                        size="md",
                        visible=lesson is shown,
                        elem_id=f"lesson-{lesson.key}-try-{i}",
                        scale=0,
                    ),
                    value=link.label,
                )
                ui.link(button, link.query)  # opens the tab in place: no reload, the session (and its lab model) stays
                buttons.append((lesson.key, button))
    return buttons
