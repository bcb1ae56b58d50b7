"""The class's pages and JSON routes (/class/*), on the in-memory store: escaping, what each reader may see, refusals
in both languages, the join guard, the teacher token, the CSV."""

from __future__ import annotations

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from playground import classroom
from playground.classroom import store as stores
from playground.classroom.activities import Question
from playground.ui.server import guard
from playground.ui.classroom import render, routes

XSS = '<img src=x onerror="alert(1)">'
WORD = Question("fill_blank", "a <b>bold</b> [MASK]", "m", "Model <i>", "org/m", "word", model_top=(("paris", 0.6),))


@pytest.fixture
def store(monkeypatch):
    store = stores.MemoryStore()
    monkeypatch.setattr(stores, "_default", store)
    monkeypatch.setattr(guard, "JOINS", guard.AttemptLimiter(limit=3))
    return store


@pytest.fixture
def client(store):
    return TestClient(Starlette(routes=routes.routes()))


def test_the_board_escapes_every_text_and_shows_no_histogram_before_the_reveal(store):
    s = classroom.start(store, WORD)
    kid = classroom.join(store, s.code, XSS)
    classroom.answer(store, s.code, kid.student, "<script>x</script>")
    html = render.board_html(classroom.board(store, s.code), "en", routes.join_url("http://h/", s.code))
    assert "<script>x" not in html and "<img src=x" not in html and "<b>bold" not in html
    assert "&lt;img src=x onerror=" in html and "1 of 1 answered" in html
    assert "tpc-reveal" not in html and "script&gt;x" not in html  # the class's answers stay hidden
    board = classroom.control(store, s.code, s.teacher, "reveal")
    html = render.board_html(board, "zh", routes.join_url("http://h/", s.code))
    assert 'id="tpc-reveal"' in html and "script&gt;x&lt;/script" in html and "</script" not in html and "<svg" in html
    assert "Model &lt;i&gt;" in html and "全班" in html


def test_a_student_joins_answers_and_reads_no_nickname_and_no_model_answer_before_the_reveal(client, store):
    s = classroom.start(store, WORD)
    joined = client.post("/class/api/join", json={"code": s.code.lower(), "nickname": "ann"}).json()
    assert joined["nickname"] == "ann" and joined["state"]["question"]["prompt"] == WORD.prompt
    state = client.post("/class/api/answer", json={"code": s.code, "student": joined["student"], "answer": " Paris "}).json()
    assert state["mine"] == "paris" and state["answered"] == 1 and state["reveal"] is None
    assert "ann" not in str(state) and "model_top" not in str(state)
    classroom.control(store, s.code, s.teacher, "reveal")
    state = client.post("/class/api/state", json={"code": s.code, "student": joined["student"]}).json()
    assert state["reveal"]["rounds"] == [[["paris", 1]]] and state["reveal"]["agree"] == [1] and "ann" not in str(state)


def test_a_bad_code_is_told_in_the_pages_language_and_an_address_is_slowed_after_wrong_codes(client, store):
    s = classroom.start(store, WORD)
    zh = client.post("/class/api/join", json={"code": "ZZZZZZ", "lang": "zh"})
    assert zh.status_code == 404 and "没有这个加入码" in zh.json()["error"]
    en = client.post("/class/api/join", json={"code": "ZZZZZ2"})
    assert en.status_code == 404 and "No class with this code" in en.json()["error"]
    client.post("/class/api/join", json={"code": "ZZZZZ3"})
    slowed = client.post("/class/api/join", json={"code": s.code})  # 3 wrong codes: this address waits, even a right one
    assert slowed.status_code == 429 and "wait a minute" in slowed.json()["error"]
    other = TestClient(Starlette(routes=routes.routes()), client=("10.0.0.9", 5000))
    assert other.post("/class/api/join", json={"code": s.code}).status_code == 200  # another address is not


def test_right_codes_never_count_against_a_school_behind_one_address(client, store):
    s = classroom.start(store, WORD)
    assert all(client.post("/class/api/join", json={"code": s.code}).status_code == 200 for _ in range(40))


def test_teacher_routes_need_the_token_and_the_csv_quotes_formulas(client, store):
    s = classroom.start(store, WORD)
    kid = classroom.join(store, s.code, "=1+1")
    classroom.answer(store, s.code, kid.student, "@sum")
    assert client.post("/class/api/control", json={"code": s.code, "teacher": "nope", "action": "reveal"}).status_code == 403
    assert client.post("/class/api/csv", json={"code": s.code, "teacher": "nope"}).status_code == 403
    res = client.post("/class/api/csv", json={"code": s.code, "teacher": s.teacher})
    assert res.status_code == 200 and res.headers["content-type"].startswith("text/csv")
    assert "'=1+1" in res.text and "'@sum" in res.text
    ended = client.post("/class/api/control", json={"code": s.code, "teacher": s.teacher, "action": "close"}).json()
    assert ended["ended"] is True and store.meta(s.code) is None


def test_the_board_route_shows_nicknames_to_the_teachers_token_only(client, store):
    s = classroom.start(store, WORD)
    classroom.join(store, s.code, "ann")
    assert "ann" not in client.post("/class/api/board", json={"code": s.code}).json()["html"]
    assert "ann" in client.post("/class/api/board", json={"code": s.code, "teacher": s.teacher}).json()["html"]
    assert client.post("/class/api/board", json={"code": s.code, "teacher": "guess"}).status_code == 403


def test_malformed_bodies_are_refused_in_words(client, store):
    for body in [b"[1]", b"not json", b"{" * 5000]:
        res = client.post("/class/api/join", content=body, headers={"content-type": "application/json"})
        assert res.status_code == 400 and "error" in res.json()
    res = client.post("/class/api/answer", content=b"x" * (routes.MAX_BODY + 1))
    assert res.status_code == 400
    res = client.post("/class/api/join", json={"code": ["ABCDEF"]})
    assert res.status_code == 400 and res.json()["error"] == "code must be text."


def test_the_pages_carry_both_languages_and_no_outside_address(client):
    for path in ["/class/join?c=ABCDEF", "/class/board?c=ABCDEF"]:
        page = client.get(path, headers={"accept-language": "zh-CN"}).text
        assert "加入课堂" in page and "Join the class" in page and '"zh"' in page
        assert "http://" not in page.replace("http://www.w3.org", "") and "https://" not in page


def test_the_temperature_reveal_names_each_texts_true_temperature(store):
    q = Question("temperature", "Once", "g", "G", "org/g", "match", choices=("0.1", "0.8", "1.5"), items=("a", "b", "c"),
                 truth="1.5|0.1|0.8")  # fmt: skip
    s = classroom.start(store, q)
    kid = classroom.join(store, s.code)
    classroom.answer(store, s.code, kid.student, "1.5|0.1|0.8")
    html = render.board_html(classroom.control(store, s.code, s.teacher, "reveal"), "en", "http://h/class/join?c=X")
    assert all(f"Text {n} → {t}" in html for n, t in [(1, "1.5"), (2, "0.1"), (3, "0.8")])
    assert "1 of 1 matched all three (1.5 / 0.1 / 0.8)" in html
