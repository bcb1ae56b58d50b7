"""The Class tab: the teacher starts a live session here, and the tab becomes the board (code, QR, count, reveal).

Students never load this page: they join on /class/join (routes.py). The board refreshes on a timer that runs
only while a session is on; every control is one request answering with the new board.
"""

from __future__ import annotations

import gradio as gr

from playground import classroom
from playground.classroom import ACTIVITIES
from playground.classroom import store as stores
from playground.errors import InputError
from playground.ui.classroom import render
from playground.ui.classroom.api import register
from playground.ui.classroom.routes import base_of, join_url
from playground.ui.common.form import Form, Values
from playground.ui.common.i18n import UIContext, t
from playground.ui.common.widgets import export_file, for_request, friendly_errors, model_choices, result_hint, shown_files

KINDS = sorted({k for a in ACTIVITIES.values() for k in a.model_kinds})
REFRESH_S = 2.0  # the board's count while students answer


def _activities(lang: str) -> list[tuple[str, str]]:
    return [(t(f"class.activity.{kind}", lang), kind) for kind in ACTIVITIES]


def _models(kind: str, lang: str) -> list[tuple[str, str]]:
    activity = ACTIVITIES.get(kind) or next(iter(ACTIVITIES.values()))
    return model_choices(activity.model_kinds, lang)


def _board(f: Values, board: classroom.Board | None, request: gr.Request | None) -> dict:
    if board is None:
        return {"board": t("class.ended", f.lang), "code": "", "teacher": "", "timer": gr.update(active=False), "links": ""}
    base = base_of(request)
    return {"board": render.board_html(board, f.lang, join_url(base, board.code)), "timer": gr.update(active=True)}


def _session(f: Values) -> tuple[str, str]:
    code, teacher = f.extra.get("code") or "", f.extra.get("teacher") or ""
    if not code:
        raise InputError("class_no_session", "Start a class session first.")
    return code, teacher


def refresh(f: Values, progress=None, request: gr.Request | None = None) -> dict:
    """The board as it stands (a timer tick, a language switch, a link); nothing before a session starts."""
    if not f.extra.get("code"):
        return {"timer": gr.update(active=False)}
    with friendly_errors(f.lang):
        try:
            return _board(f, classroom.board(stores.default(), f.extra["code"]), request)
        except InputError:  # ended elsewhere, or expired
            return _board(f, None, request)


def start(f: Values, progress=None, request: gr.Request | None = None) -> dict:
    with friendly_errors(f.lang):
        question = classroom.build_question(f["activity"], f["text"], f["model"], for_request(f.lang, progress))
        started = classroom.start(stores.default(), question, f.lang)
        board = classroom.board(stores.default(), started.code)
    link = f"{base_of(request).rstrip('/')}/class/board?c={started.code}&lang={f.lang}"
    links = (
        f"[{t('class.board_link', f.lang)}]({link}#t={started.teacher})\n\n"
        f"{t('class.teacher_link', f.lang)}: `{link}#t={started.teacher}`"
    )  # the code and token are [A-Z2-9] and URL-safe base64: nothing to escape
    return _board(f, board, request) | {"code": started.code, "teacher": started.teacher, "links": links}


def add(f: Values, progress=None, request: gr.Request | None = None) -> dict:
    with friendly_errors(f.lang):
        code, teacher = _session(f)
        question = classroom.build_question(f["activity"], f["text"], f["model"], for_request(f.lang, progress))
        classroom.add_question(stores.default(), code, teacher, question)
        return _board(f, classroom.board(stores.default(), code), request)


def controlled(action: str):
    def handler(f: Values, progress=None, request: gr.Request | None = None) -> dict:
        with friendly_errors(f.lang):
            code, teacher = _session(f)
            return _board(f, classroom.control(stores.default(), code, teacher, action), request)

    return handler


def hide(f: Values, progress=None, request: gr.Request | None = None) -> dict:
    with friendly_errors(f.lang):
        code, teacher = _session(f)
        return _board(f, classroom.hide(stores.default(), code, teacher, f["entry"]), request) | {"entry": ""}


def answers_csv(f: Values, progress=None) -> list[str]:
    with friendly_errors(f.lang):
        code, teacher = _session(f)
        return [export_file(f"class-{code}.csv", "\ufeff" + classroom.csv_export(stores.default(), code, teacher))]


def with_request(form: Form, handler):
    """A Form handler that also reads the page's address (the QR code's link is built from it)."""

    def event(v: dict, request: gr.Request, progress=gr.Progress()) -> dict:
        values = form.read(v)
        named = handler(values, progress, request)
        if "board" not in named:  # no session yet: leave the hint, the hidden board and the shown flag as they are
            return {form.outputs[name]: update for name, update in named.items()}
        return form.answer(named, values)

    return event


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
        form.handlers.append(handler)
        for trigger in triggers:
            watch = dict(api_visibility="private", show_progress_on=[hint])
            trigger(with_request(form, handler), form.inputs, form.all_outputs(), **(watch | kwargs))
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
