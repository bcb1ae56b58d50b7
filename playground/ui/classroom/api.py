"""The live class's API endpoints (/class_start, /class_join, /class_answer, /class_tally, /class_control): a teacher can
script a session with gradio_client. They call the same backend and store as the pages (playground.classroom)."""

from __future__ import annotations

import gradio as gr
from gradio.context import LocalContext

from playground import classroom
from playground.classroom import store as stores
from playground.ui.server import guard
from playground.ui.classroom.routes import state_json
from playground.ui.common.widgets import for_request, friendly_errors


def class_start(activity: str, text: str, model: str, lang: str = "en", seed: int = 0) -> dict:
    """Start a class session with one question; returns its join code and the secret teacher token.

    Args:
        activity: "fill_blank", "temperature", "attention", "next_token" or "sentences".
        text: the sentence or prompt, at most 300 characters (fill_blank: with [MASK]; attention: the word to follow
            between asterisks, "because *it* was"; sentences: the word, then 2 to 4 senses after bars,
            "bank | river | money").
        model: a registry key of a kind the activity takes (fill_blank: masked; temperature, next_token: causal;
            attention: encoder, masked, discriminator or causal; sentences: encoder, masked or causal).
        lang: "en" or "zh": the board's language and the language of messages.
        seed: the seed of the temperature activity's samples and shown order, a whole number from 0 to 4294967295.
    """
    with friendly_errors(lang):
        question = classroom.build_question(activity, text, model, for_request(lang), seed)
        started = classroom.start(stores.default(), question, lang)
        return {
            "code": started.code, "teacher": started.teacher, "expires_at": started.expires_at,
            "join_path": f"/class/join?c={started.code}", "board_path": f"/class/board?c={started.code}",
        }  # fmt: skip


def class_join(code: str, nickname: str = "", lang: str = "en") -> dict:
    """Join a session as a student; returns the student's secret id (send it with each answer) and the question.

    Args:
        code: the 6-character join code on the board.
        nickname: optional, at most 24 characters kept (the board shows it; other students never see it).
        lang: "en" or "zh", the language of messages.
    """
    with friendly_errors(lang):
        # The caller's address from Gradio's request context: a gr.Request parameter would be one more parameter on
        # the API page and for MCP tools, which no client can set.
        request = LocalContext.request.get(None)
        joined = classroom.join_guarded(stores.default(), code, nickname, guard.client_key(request), guard.JOINS)
        view = classroom.student_view(stores.default(), joined.code, joined.student)
        return {
            "code": joined.code,
            "student": joined.student,
            "nickname": joined.nickname,
            "state": state_json(view.board, "", lang),
        }


def class_answer(code: str, student: str, answer: str, lang: str = "en") -> dict:
    """Answer the question on the board (again: replaces this student's answer until the teacher closes it).

    Args:
        code: the join code.
        student: the id /class_join returned.
        answer: a word (fill_blank, next_token); an option's index as text, "0", "1" ... (attention); the three
            texts' temperatures in order, "1.5|0.1|0.8" (temperature); the sense's index, a bar, then a sentence
            that uses the word, "0|we sat on the river bank" (sentences).
        lang: "en" or "zh", the language of messages.
    """
    with friendly_errors(lang):
        store = stores.default()
        classroom.answer(store, code, student, answer)
        view = classroom.student_view(store, code, student)
        return state_json(view.board, view.mine, lang)


def class_tally(code: str, lang: str = "en") -> dict:
    """The session's state as the board shows it, without nicknames: how many answered; after the reveal, the class's
    answers per round beside the model's; for "sentences", the picture's points (contextual and static).

    Args:
        code: the join code.
        lang: "en" or "zh", the language of messages.
    """
    with friendly_errors(lang):
        return state_json(classroom.tally(stores.default(), code, for_request(lang)), "", lang)


def class_control(code: str, teacher: str, action: str, lang: str = "en") -> dict:
    """A teacher's move: "next", "prev", "revote", "reveal", "collect" (reopen answers) or "close" (ends the session
    and deletes its answers).

    Args:
        code: the join code.
        teacher: the teacher token /class_start returned.
        action: one of next, prev, revote, reveal, collect, close.
        lang: "en" or "zh", the language of messages.
    """
    with friendly_errors(lang):
        board = classroom.control(stores.default(), code, teacher, action, for_request(lang))
        return {"ended": True} if board is None else state_json(board, "", lang)


def register() -> None:
    for fn in (class_start, class_join, class_answer, class_tally, class_control):
        gr.api(fn, api_name=fn.__name__, concurrency_limit=None if fn is not class_start else "default")
