"""The Class tab: the teacher starts a live session here, and the tab becomes the board (code, QR, count, reveal).

Students never load this page: they join on /class/join (routes.py). The board refreshes on a timer that runs
only while a session is on; every control is one request answering with the new board.
"""

from __future__ import annotations

import gradio as gr

from playground.classroom import ACTIVITIES
from playground.ui.classroom.run import add, answers_csv, controlled, hide, refresh, start
from playground.ui.classroom.api import register
from playground.ui.common.form import Form
from playground.ui.common.i18n import UIContext, t
from playground.ui.common.widgets import model_choices, result_hint, shown_files

KINDS = sorted({k for a in ACTIVITIES.values() for k in a.model_kinds})
REFRESH_S = 2.0  # the board's count while students answer


def _activities(lang: str) -> list[tuple[str, str]]:
    return [(t(f"class.activity.{kind}", lang), kind) for kind in ACTIVITIES]


def _models(kind: str, lang: str) -> list[tuple[str, str]]:
    activity = ACTIVITIES.get(kind) or next(iter(ACTIVITIES.values()))
    return model_choices(activity.model_kinds, lang)


def build_tab(ui: UIContext):
    loc, form = ui.loc, Form(ui, "classroom")
    loc.add(gr.Markdown(t("class.intro")), value="class.intro")
    first = next(iter(ACTIVITIES))
    with gr.Row():
        with gr.Column(scale=3):
            activity = gr.Dropdown(_activities("en"), value=first, label=t("class.activity"), elem_id="class-activity")
            form.field("activity", loc.add(activity, choices=_activities), label="class.activity")
            box = gr.Textbox(
                ACTIVITIES[first].examples["en"], lines=2, label=t("class.text"), info=t("class.text_info"), elem_id="class-text"
            )
            form.field("text", box, label="class.text", info="class.text_info")
        with gr.Column(scale=2):
            # Every kind's models at first: a lesson's link may bring any activity's model (the choice of an activity
            # by hand narrows the menu to its kinds).
            menu = gr.Dropdown(model_choices(KINDS, "en"), value=ACTIVITIES[first].models["en"], label=t("class.model"))
            form.field("model", menu, label="class.model")
            go = loc.add(gr.Button(t("class.start"), variant="primary", elem_id="class-start"), value="class.start")
            more = loc.add(gr.Button(t("class.add"), elem_id="class-add"), value="class.add")
    hint = result_hint(loc, "class.hint")
    with gr.Column(visible=False) as area:
        form.output("board", gr.HTML(elem_id="class-board"))
        with loc.add(gr.Accordion(t("class.controls"), open=True), label="class.controls"):
            with gr.Row():
                buttons = {
                    action: loc.add(gr.Button(t(key), size="sm", elem_id=f"class-{action}"), value=key)
                    for action, key in [("prev", "class.prev"), ("next", "class.next"), ("revote", "class.revote"),
                                        ("reveal", "class.reveal"), ("collect", "class.reopen"), ("close", "class.close")]
                }  # fmt: skip
            with gr.Row():
                entry = form.field(
                    "entry", gr.Textbox(label=t("class.hide"), scale=3), link=False, code=False, label="class.hide"
                )
                form.output("entry", entry)
                hider = loc.add(gr.Button(t("class.hide_button"), size="sm", scale=0), value="class.hide_button")
            form.output("links", gr.Markdown(elem_id="class-links"))
            csv_button = loc.add(gr.Button(t("class.csv"), size="sm"), value="class.csv")
            csv_file = gr.File(visible=False, interactive=False, show_label=False)  # shown with its file
    form.state("code", "")
    form.state("teacher", "")
    timer = form.output("timer", gr.Timer(REFRESH_S, active=False))
    form.result(hint, area)
    # The first handler is the one a language switch and a link run: a refresh never starts a session.
    wiring = [(refresh, [timer.tick], dict(show_progress="hidden", concurrency_limit=None)), (start, [go.click], {}),
              (add, [more.click], {}), (hide, [hider.click], {})]  # fmt: skip
    wiring += [(controlled(action), [button.click], {}) for action, button in buttons.items()]
    for handler, triggers, kwargs in wiring:
        form.action(handler, triggers, **kwargs)
    csv_button.click(shown_files(form.files(answers_csv)), form.inputs, csv_file, api_visibility="private")
    activity.input(  # by hand only: a link sets the activity, its text and its model together
        lambda kind, lang: (
            gr.update(choices=_models(kind, lang), value=ACTIVITIES[kind].models.get(lang, ACTIVITIES[kind].models["en"])),
            ACTIVITIES[kind].examples.get(lang, ACTIVITIES[kind].examples["en"]),
        ),
        [activity, ui.lang],
        [menu, box],
        api_visibility="private",
        queue=False,
    )
    register()
    return form.share()
