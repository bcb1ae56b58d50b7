"""Lessons tab (the landing page): the course in order, each lesson with a formula and a "try it" link into a demo tab.

Which variant a link offers (hub model or bundled one) is decided here, when the page is built, from what can load
now; the link is a share link (`?tab=...&<inputs>`): a click opens it in place (ui.common.links: the tab is
filled and run without reloading the page), and the address bar then shows it, to share.
"""

from __future__ import annotations

from collections.abc import Iterable

import gradio as gr

from playground.lessons import LESSONS, Link
from playground.lessons.notebook import notebook_text
from playground.lessons.pages import discuss_markdown, formula, lesson_label, lesson_links, lesson_markdown
from playground.ui.common.form import Form, Values
from playground.ui.common.i18n import UIContext, t
from playground.ui.common.share import Shared
from playground.ui.common.strings import STRINGS
from playground.ui.common.widgets import export_file
from playground.ui.lessons.api import notebook_api

LATEX = [{"left": "$$", "right": "$$", "display": True}, {"left": "$", "right": "$", "display": False}]
BY_KEY = {lesson.key: lesson for lesson in LESSONS}


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


def show(f: Values, progress=None) -> dict:
    """The card of the chosen lesson (the first for an unknown key) in the page's language, its try-it buttons shown
    and every other lesson's hidden; a notebook built for another lesson is taken away."""
    key = f["lesson"] if f["lesson"] in BY_KEY else LESSONS[0].key
    lesson, links = BY_KEY[key], f.extra["links"]
    buttons = {name: gr.update(visible=name.startswith(f"try:{key}:")) for name in f.extra["buttons"]}
    return buttons | {
        "lesson": key, "text": lesson_markdown(lesson, f.lang), "formula": formula(lesson, f.lang),
        "notes": notes_markdown(links[key], f.lang), "discuss": discuss_markdown(lesson, f.lang),
        "notebook_file": gr.update(value=None, visible=False),
    }  # fmt: skip


def previous(f: Values, progress=None) -> dict:
    return show(f.__class__({"lesson": step(f["lesson"], -1)}, f.lang, f.token, f.extra))


def following(f: Values, progress=None) -> dict:
    return show(f.__class__({"lesson": step(f["lesson"], 1)}, f.lang, f.token, f.extra))


def build_tab(ui: UIContext, tabs: Iterable[str]) -> Shared:
    loc, form, tabs = ui.loc, Form(ui, "lessons"), list(tabs)
    links = lesson_links(tabs)
    loc.add(gr.Markdown(t("lessons.intro"), elem_id="lessons-intro"), value="lessons.intro")
    with gr.Row(elem_classes="tp-lessons"):
        with gr.Column(scale=1, min_width=240):
            radio = gr.Radio(picker_choices("en"), value=LESSONS[0].key, label=t("lessons.pick"), elem_id="lessons-picker")
            picker = form.output("lesson", form.field("lesson", radio, label="lessons.pick", choices=picker_choices))
            with gr.Row(elem_classes="tp-lesson-steps"):
                back = loc.add(gr.Button(t("lessons.previous"), size="sm", elem_id="lessons-previous"), value="lessons.previous")
                ahead = gr.Button(t("lessons.next"), variant="primary", size="sm", elem_id="lessons-next")
                ahead = loc.add(ahead, value="lessons.next")
            notebook = loc.add(gr.Button(t("lessons.notebook"), size="sm", elem_id="lessons-notebook"), value="lessons.notebook")
            box = gr.File(label=t("lessons.notebook_file"), visible=False, elem_id="lessons-notebook-file")
            notebook_file = form.output("notebook_file", box, label="lessons.notebook_file")
        with gr.Column(scale=3, min_width=300, elem_id="lesson-card", elem_classes="tp-lesson"):
            # One card for every lesson, filled by the picker (a card per lesson made the landing page ~100 components
            # heavier, and Gradio's front end pays for every component on every page load: docs/measurements.md).
            first = LESSONS[0]
            form.output("text", gr.Markdown(lesson_markdown(first, "en"), latex_delimiters=LATEX, elem_id="lesson-text"))
            form.output("formula", gr.Markdown(formula(first, "en"), latex_delimiters=LATEX, elem_classes="tp-formula"))
            buttons = _try_buttons(ui, form, links)
            form.output("notes", gr.Markdown(notes_markdown(links[first.key], "en"), elem_classes="tp-lesson-notes"))
            form.output("discuss", gr.Markdown(discuss_markdown(first, "en"), latex_delimiters=LATEX))
    form.state("links", links)  # what can run here, resolved once when the page is built
    form.state("buttons", buttons)  # the try-it buttons' output names ("try:<lesson>:<i>")
    # first: what a link runs. (On a phone the chosen chip is kept in view by the page's script, assets/lesson_chips.js.)
    form.action(show, [picker.input], queue=False)
    form.action(previous, [back.click], queue=False)
    form.action(following, [ahead.click], queue=False)
    ui.on_lang(form.respond(show), form.inputs, form.all_outputs())  # the landing page's lesson, even before a click

    def download(lesson: str, lang: str):
        """The lesson on screen as an .ipynb, built on click into the bounded export folder."""
        return gr.update(value=export_file(f"{lesson}.ipynb", notebook_text(lesson, lang, tabs)), visible=True)

    notebook.click(download, [picker, ui.lang], notebook_file, api_visibility="private")
    gr.api(notebook_api(tabs), api_name="lesson_notebook")
    return form.share()


def _try_buttons(ui: UIContext, form: Form, links: dict[str, list[Link]]) -> list[str]:
    """Every lesson's try-it buttons, the first lesson's visible, as output names "try:<lesson>:<i>". A button per
    link, not a few relabelled by the picker: each is its own in-app link event, scoped to its tab's widgets."""
    names = []
    with gr.Row(elem_classes="tp-try"):
        for lesson in LESSONS:
            for i, link in enumerate(links[lesson.key]):
                if not link.query:
                    continue
                button = gr.Button(t(link.label), variant="primary", size="md", visible=lesson is LESSONS[0],
                                   elem_id=f"lesson-{lesson.key}-try-{i}", scale=0)  # fmt: skip
                form.output(f"try:{lesson.key}:{i}", ui.loc.add(button, value=link.label))
                ui.link(button, link.query)  # opens the tab in place: no reload, the session (and its lab model) stays
                names.append(f"try:{lesson.key}:{i}")
    return names
