"""The Class tab's actions: each reads the form's values by name and answers with the new board (tab.py wires them).

A control answers in one request; `refresh` (the timer and a link) answers nothing before a session starts.
"""

from __future__ import annotations

import gradio as gr

from playground import classroom
from playground.classroom import store as stores
from playground.errors import InputError
from playground.ui.classroom import render
from playground.ui.classroom.routes import base_of, join_url
from playground.ui.common.form import Partial, Values
from playground.ui.common.i18n import t
from playground.ui.common.widgets import export_file, for_request, friendly_errors


def _board(f: Values, board: classroom.Board | None) -> dict:
    if board is None:
        return {"board": t("class.ended", f.lang), "code": "", "teacher": "", "timer": gr.update(active=False), "links": ""}
    base = base_of(f.extra.get("request"))
    return {"board": render.board_html(board, f.lang, join_url(base, board.code)), "timer": gr.update(active=True)}


def _session(f: Values) -> tuple[str, str]:
    code, teacher = f.extra.get("code") or "", f.extra.get("teacher") or ""
    if not code:
        raise InputError("class_no_session", "Start a class session first.")
    return code, teacher


def refresh(f: Values, progress=None) -> dict:
    """The board as it stands (a timer tick, a language switch, a link); nothing before a session starts."""
    if not f.extra.get("code"):
        return Partial(timer=gr.update(active=False))
    with friendly_errors(f.lang):
        try:
            return _board(f, classroom.board(stores.default(), f.extra["code"], for_request(f.lang)))
        except InputError:  # ended elsewhere, or expired
            return _board(f, None)


def start(f: Values, progress=None) -> dict:
    with friendly_errors(f.lang):
        question = classroom.build_question(f["activity"], f["text"], f["model"], for_request(f.lang, progress))
        started = classroom.start(stores.default(), question, f.lang)
        board = classroom.board(stores.default(), started.code, for_request(f.lang))
    base = base_of(f.extra.get("request")).rstrip("/")
    link = f"{base}/class/board?c={started.code}&lang={f.lang}"
    links = (
        f"[{t('class.board_link', f.lang)}]({link}#t={started.teacher})\n\n"
        f"{t('class.teacher_link', f.lang)}: `{link}#t={started.teacher}`"
    )  # the code and token are [A-Z2-9] and URL-safe base64: nothing to escape
    return _board(f, board) | {"code": started.code, "teacher": started.teacher, "links": links}


def add(f: Values, progress=None) -> dict:
    with friendly_errors(f.lang):
        code, teacher = _session(f)
        question = classroom.build_question(f["activity"], f["text"], f["model"], for_request(f.lang, progress))
        classroom.add_question(stores.default(), code, teacher, question)
        return _board(f, classroom.board(stores.default(), code, for_request(f.lang)))


def controlled(action: str):
    def handler(f: Values, progress=None) -> dict:
        with friendly_errors(f.lang):
            code, teacher = _session(f)
            return _board(f, classroom.control(stores.default(), code, teacher, action, for_request(f.lang)))

    return handler


def hide(f: Values, progress=None) -> dict:
    with friendly_errors(f.lang):
        code, teacher = _session(f)
        board = classroom.hide(stores.default(), code, teacher, f["entry"], for_request(f.lang))
        return _board(f, board) | {"entry": ""}


def answers_csv(f: Values, progress=None) -> list[str]:
    with friendly_errors(f.lang):
        code, teacher = _session(f)
        return [export_file(f"class-{code}.csv", "\ufeff" + classroom.csv_export(stores.default(), code, teacher))]
