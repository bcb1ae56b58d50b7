"""The live class's own routes, served beside Gradio: the student's phone page, the projector board and their JSON.

A phone should not load the whole playground (Gradio's page, its queue, every tab) to type one word: /class/join is
one small page whose script talks JSON to /class/api/*, and /class/board is the board alone for a projector. They
call the same backend as the Class tab and the documented /class_* API endpoints (playground.classroom), on the
same store, so every replica behind a load balancer serves them when REDIS_URL is set (no Gradio session needed:
these routes hold no state of their own). Failed joins are limited per address (ui.server.guard.JOINS).

Every response's text is either JSON (the page sets it as text) or the board's HTML (escaped in render.py).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from playground import classroom
from playground.classroom import store as stores
from playground.errors import InputError
from playground.langs import normalize_lang
from playground.serve import runtime as app_runtime
from playground.ui.server import guard
from playground.ui.classroom import render
from playground.ui.common.i18n import t
from playground.ui.common.strings import STRINGS
from playground.ui.common.widgets import label_in

log = logging.getLogger("playground")
ASSETS = Path(__file__).resolve().parents[3] / "assets"
MAX_BODY = 16 * 1024  # the largest request a class page sends is a short answer
STATUS = {"class_unknown_code": 404, "class_not_teacher": 403, "class_slow_down": 429}


def join_url(base: str, code: str) -> str:
    """What the QR code and the board's link open: the student page with the code filled in."""
    return f"{base.rstrip('/')}/class/join?c={code}"


def base_of(request: Any) -> str:
    """The address students reach this server at, from the request (a Starlette or Gradio request)."""
    inner = getattr(request, "request", None) or request
    base = getattr(inner, "base_url", None)
    return str(base) if base is not None else "http://127.0.0.1:7860/"


def message(exc: InputError, lang: str) -> str:
    key = f"error.{exc.code}"
    return t(key, lang, **exc.params) if key in STRINGS else str(exc)


def texts(lang: str) -> dict[str, str]:
    """The page scripts' strings in one language (set as text by the scripts, never as markup)."""
    side = 1 if lang == "zh" else 0  # templates as they are: the scripts fill {answer}, {n} ... themselves
    return {key.removeprefix("class."): pair[side] for key, pair in STRINGS.items() if key.startswith("class.")}


def _lang(request: Any, data: dict | None = None) -> str:
    raw = (data or {}).get("lang") or request.query_params.get("lang") or request.headers.get("accept-language", "en")
    return normalize_lang(str(raw)[:20])


def _page(name: str, lang: str):
    page = (ASSETS / name).read_text(encoding="utf-8")
    strings = json.dumps({"en": texts("en"), "zh": texts("zh")}, ensure_ascii=False).replace("</", "<\\/")
    page = page.replace("__STRINGS__", strings).replace("__LANG__", json.dumps(lang)).replace("__CSS__", render.CSS)
    return HTMLResponse(page, headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})


def student_page(request):
    return _page("class_student.html", _lang(request))


def board_page(request):
    return _page("class_board.html", _lang(request))


def _error(exc: InputError, lang: str):
    return JSONResponse({"error": message(exc, lang), "code": exc.code}, status_code=STATUS.get(exc.code, 400))


async def _body(request) -> dict:
    size = request.headers.get("content-length", "")
    if size.strip().isdigit() and int(size) > MAX_BODY:
        raise InputError("input_text_too_long", "{name} is longer than {limit} characters.", name="body", limit=MAX_BODY)
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise InputError("input_text_too_long", "{name} is longer than {limit} characters.", name="body", limit=MAX_BODY)
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, dict):
        raise InputError("input_not_text", "{name} must be text.", name="body")
    return data


def reveal_json(reveal: classroom.Reveal | None) -> dict | None:
    if reveal is None:
        return None
    return {
        "rounds": [[[a, n] for a, n in rows] for rows in reveal.rounds], "model_top": [[w, p] for w, p in reveal.model_top],
        "reference": reveal.reference, "agree": list(reveal.agree), "totals": list(reveal.totals),
    }  # fmt: skip


def picture_json(board: classroom.Board) -> dict | None:
    """ "Our sentences"' picture as numbers: each side's points (and, after the reveal, its nearest-sentence score,
    and the sentences with their senses, in the points' order). Before the reveal, places only: the senses are the
    class's answers."""
    picture = board.picture
    if picture is None:
        return None
    revealed = board.reveal is not None

    def number(x: float) -> float | None:
        return None if x != x else round(float(x), 4)  # NaN (too few sentences of a sense): null in JSON

    sides = [
        {"source": side.source, "layer": side.layer, "points": [[round(float(v), 4) for v in p[:2]] for p in side.coords]}
        | ({"nn_accuracy": number(side.nn_accuracy), "separation": number(side.separation)} if revealed else {})
        for side in picture.sides
    ]
    out = {"word": picture.word, "senses": list(picture.senses), "sides": sides, "unplaced": picture.unplaced}
    return out | ({"sentences": list(picture.sentences), "labels": list(picture.labels)} if revealed else {})


def state_json(board: classroom.Board, mine: str = "", lang: str = "en") -> dict:
    """What a phone and the API read: no nickname, no model answer before the reveal; the model named in `lang`."""
    question = {**board.question, "model_label": label_in(board.question.get("model_label", ""), lang)}
    out = {
        "code": board.code, "index": board.index, "total": board.total, "question": question, "phase": board.phase,
        "round": board.round, "students": board.students, "answered": board.answered, "mine": mine,
        "reveal": reveal_json(board.reveal), "expires_at": board.expires_at,
    }  # fmt: skip
    return out | ({"picture": picture_json(board)} if board.picture is not None else {})


def _json(handler):
    """A JSON route: body in, JSON out; a refusal in the page's language with its status."""

    async def route(request):
        lang = _lang(request)
        try:
            data = await _body(request)
            lang = _lang(request, data)
            answer = await run_in_threadpool(handler, request, data, lang)  # the store may be a Redis round trip
            return JSONResponse(answer, headers={"Cache-Control": "no-store"})
        except InputError as exc:
            return _error(exc, lang)

    return route


def _join(request, data, lang):
    joined = classroom.join_guarded(
        stores.default(), data.get("code"), data.get("nickname", ""), guard.client_key(request), guard.JOINS,
        data.get("student"),  # this browser's id from an earlier join: the same student again
    )  # fmt: skip
    view = classroom.student_view(stores.default(), joined.code, joined.student)
    return {
        "code": joined.code,
        "student": joined.student,
        "nickname": joined.nickname,
        "state": state_json(view.board, "", lang),
    }


def _state(request, data, lang):
    view = classroom.student_view(stores.default(), data.get("code"), data.get("student"))
    return state_json(view.board, view.mine, lang)


def _answer(request, data, lang):
    store = stores.default()
    classroom.answer(store, data.get("code"), data.get("student"), data.get("answer"))
    view = classroom.student_view(store, data.get("code"), data.get("student"))
    return state_json(view.board, view.mine, lang)


def _board(request, data, lang):
    store, teacher, runtime = stores.default(), data.get("teacher"), app_runtime.APP  # the board draws pictures
    code = data.get("code")
    board = classroom.teacher_board(store, code, teacher, runtime) if teacher else classroom.tally(store, code, runtime)
    html = render.board_html(board, lang, join_url(base_of(request), board.code))
    return {"html": html, "phase": board.phase, "answered": board.answered, "students": board.students}


def _control(request, data, lang):
    store, runtime = stores.default(), app_runtime.APP
    board = classroom.control(store, data.get("code"), data.get("teacher"), data.get("action"), runtime)
    if board is None:
        return {"html": f"<p>{render.esc(t('class.ended', lang))}</p>", "ended": True}
    return {"html": render.board_html(board, lang, join_url(base_of(request), board.code))}


def _hide(request, data, lang):
    board = classroom.hide(stores.default(), data.get("code"), data.get("teacher"), data.get("entry"), app_runtime.APP)
    return {"html": render.board_html(board, lang, join_url(base_of(request), board.code))}


async def csv_route(request):
    lang = _lang(request)
    try:
        data = await _body(request)
        text = await run_in_threadpool(classroom.csv_export, stores.default(), data.get("code"), data.get("teacher"))
    except InputError as exc:
        return _error(exc, lang)
    headers = {"Content-Disposition": 'attachment; filename="class-answers.csv"', "Cache-Control": "no-store"}
    return Response("\ufeff" + text, media_type="text/csv; charset=utf-8", headers=headers)  # BOM: Excel reads UTF-8


def routes() -> list:
    """The Starlette routes, handed to Gradio's FastAPI app at launch (before Gradio's own, so they match first)."""
    return [
        Route("/class/join", student_page, methods=["GET"]),
        Route("/class/board", board_page, methods=["GET"]),
        Route("/class/api/join", _json(_join), methods=["POST"]),
        Route("/class/api/state", _json(_state), methods=["POST"]),
        Route("/class/api/answer", _json(_answer), methods=["POST"]),
        Route("/class/api/board", _json(_board), methods=["POST"]),
        Route("/class/api/control", _json(_control), methods=["POST"]),
        Route("/class/api/hide", _json(_hide), methods=["POST"]),
        Route("/class/api/csv", csv_route, methods=["POST"]),
    ]
