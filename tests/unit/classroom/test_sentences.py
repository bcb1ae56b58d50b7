"""'Our sentences, one picture' on a tiny encoder: the points are the polysemy backend's vectors of the students'
sentences (contextual beside the input-embedding rows), each sentence embedded once; the board draws them escaped,
in one colour until the reveal."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from playground import classroom, polysemy
from playground.alignment import Target, find_word
from playground.classroom import sentences
from playground.classroom import store as stores
from playground.classroom.activities import build_question, normalize, parse_senses
from playground.errors import InputError
from playground.figures.common import PALETTE
from playground.registry import get_spec
from playground.runtime import Runtime
from playground.ui.server import guard
from playground.serve import runtime as app_runtime
from playground.ui.classroom import render, routes

ANSWERS = [
    "0|we sat on the river bank .",
    "0|the bank of the river was muddy .",
    "1|i put money in the bank .",
    "1|the bank lent me money .",
]


@pytest.fixture
def runtime(tiny_encoder):
    def load(key, **kwargs):
        return dataclasses.replace(tiny_encoder, spec=get_spec(key))

    return Runtime(load=load, load_tokenizer=lambda key: load(key).tokenizer)  # fresh caches per test


@pytest.fixture
def question(runtime):
    return build_question("sentences", "bank | river | money", "minilm", runtime)


def test_the_teachers_word_and_senses_are_parsed_and_bad_setups_refused_in_words(question, runtime):
    assert (question.prompt, question.choices, question.form) == ("bank", ("river", "money"), "sense")
    assert question.layer == runtime.model("minilm").model.config.num_hidden_layers  # the picture's layer: the last
    assert parse_senses(" 苹果 |水果| 公司 | 水果 ") == ("苹果", ("水果", "公司"))  # a repeated sense once
    too_long = ["x" * 31 + " | a | b", "bank|a|" + "b" * 25]
    for bad in ["bank", "bank | river", "| river | money", "bank | a | b | c | d | e", *too_long]:
        with pytest.raises(InputError, match="2 to 4 senses"):
            parse_senses(bad)
    with pytest.raises(InputError):
        build_question("sentences", "bank | river | money", "glove", runtime)  # a static table has no context side


def test_a_students_sentence_must_use_the_word_and_pick_a_shown_sense(question):
    assert normalize(question, "1| The  Bank\u200b lent money. ") == "1|The Bank lent money."
    refusals = {
        "0|we went banking": "class_no_target",  # whole words only, as the polysemy demo finds them
        "0|": "class_empty_answer",
        "2|the bank": "class_pick_sense",
        "|the bank": "class_pick_sense",
        "the bank": "class_pick_sense",
        "0|the bank " + "x" * 200: "class_long_sentence",
    }
    for raw, code in refusals.items():
        with pytest.raises(InputError) as caught:
            normalize(question, raw)
        assert caught.value.code == code
    chinese = dataclasses.replace(question, prompt="苹果", choices=("水果", "公司"))
    assert normalize(chinese, "0|我爱吃苹果。") == "0|我爱吃苹果。"  # CJK: found inside the sentence


def test_one_point_per_sentence_static_points_coincide_contextual_ones_differ_labels_carried(question, runtime):
    pic = sentences.picture(question, ANSWERS, runtime)
    contextual, static = pic.sides
    assert (contextual.source, static.source) == ("contextual", "input")
    assert len(pic.sentences) == len(contextual.coords) == len(static.coords) == len(ANSWERS) and pic.unplaced == 0
    assert np.ptp(static.coords, axis=0).max() < 1e-9  # one word, one static vector: one place
    distances = np.linalg.norm(contextual.coords[:, None] - contextual.coords[None], axis=-1)
    assert distances[~np.eye(len(ANSWERS), dtype=bool)].min() > 1e-6  # four contexts, four places
    assert sorted(zip(pic.labels, pic.sentences)) == sorted((int(a[0]), a[2:]) for a in ANSWERS)


def test_the_models_answer_is_what_the_polysemy_backend_computes(question, runtime):
    """Scores and places from the polysemy demo's own functions on the same sentences (nothing hard-coded)."""
    pic = sentences.picture(question, ANSWERS, runtime)
    targets = [Target("", s, find_word(s, "bank")) for s in pic.sentences]
    contextual, rows = polysemy.sense_vectors(runtime.model("minilm"), "bank", targets, "mean", True)
    labels = [str(i) for i in pic.labels]
    for side, matrix in zip(pic.sides, [contextual.layers[question.layer], rows.layers[0]]):
        want = polysemy.sense_scores(polysemy.cosine_matrix(matrix), labels)
        np.testing.assert_allclose([side.separation, side.nn_accuracy], want, atol=1e-6)
        np.testing.assert_allclose(side.coords, polysemy.project(matrix, "pca", 2, 0), atol=1e-6)
    # ties of identical static vectors earn the share of right neighbours (chance), as in the polysemy demo
    assert pic.sides[1].nn_accuracy == pytest.approx(1 / 3)


def test_each_sentence_is_embedded_once_and_the_picture_does_not_depend_on_arrival_order(question, runtime, monkeypatch):
    calls = []
    real = sentences.sense_vectors
    monkeypatch.setattr(sentences, "sense_vectors", lambda lm, w, t, *a: calls.append(len(t)) or real(lm, w, t, *a))
    first = sentences.picture(question, ANSWERS[:3], runtime)
    again = sentences.picture(question, ANSWERS[::-1], runtime)  # one new sentence, the rest in another order
    sentences.picture(question, ANSWERS, runtime)
    assert calls == [3, 1]  # a poll with no new sentence runs no model
    assert first.sentences != again.sentences and len(again.sentences) == 4
    shuffled = sentences.picture(question, [ANSWERS[i] for i in (2, 0, 3, 1)], runtime)
    np.testing.assert_array_equal(shuffled.sides[0].coords, again.sides[0].coords)


def test_a_sentence_no_token_covers_is_left_out_and_counted(question, runtime):
    pic = sentences.picture(dataclasses.replace(question, prompt="bänk"), ["0|the bänk ."], runtime)
    assert len(pic.sentences) + pic.unplaced == 1  # placed (an unknown piece covers it) or counted as left out


@pytest.fixture
def store(monkeypatch, runtime):
    store = stores.MemoryStore()
    monkeypatch.setattr(stores, "_default", store)
    monkeypatch.setattr(guard, "JOINS", guard.AttemptLimiter(limit=3))
    monkeypatch.setattr(app_runtime, "APP", runtime)  # the routes' runtime: the tiny encoder
    return store


def test_the_board_draws_a_dot_per_visible_sentence_in_one_colour_until_the_reveal_and_escapes_them(store, question):
    s = classroom.start(store, question)
    client = TestClient(Starlette(routes=routes.routes()))
    xss = '0|the bank <img src=x onerror="alert(1)"> .'
    kids = [client.post("/class/api/join", json={"code": s.code}).json()["student"] for _ in range(5)]
    for kid, answer in zip(kids, [*ANSWERS, xss]):
        assert client.post("/class/api/answer", json={"code": s.code, "student": kid, "answer": answer}).status_code == 200
    refused = client.post("/class/api/answer", json={"code": s.code, "student": kids[0], "answer": "0|no word", "lang": "zh"})
    assert refused.status_code == 400 and "“bank”" in refused.json()["error"] and "必须" in refused.json()["error"]
    html = client.post("/class/api/board", json={"code": s.code, "teacher": s.teacher}).json()["html"]
    assert html.count("<circle") == 10 and 'data-points="5"' in html  # both sides, one dot per sentence
    assert "5 sentences, one point" in html  # the static side
    assert set(re.findall(r'fill="(#[0-9a-fA-F]{6})"', html)) == {render.WAITING}  # the senses are still hidden
    assert "<img" not in html and "&lt;img src=x" in html and "tpc-reveal" not in html
    client.post("/class/api/hide", json={"code": s.code, "teacher": s.teacher, "entry": xss[2:]})
    shown = client.post("/class/api/control", json={"code": s.code, "teacher": s.teacher, "action": "reveal", "lang": "zh"})
    html = shown.json()["html"]
    assert html.count("<circle") == 8 and "&lt;img" not in html  # the hidden sentence left the picture
    assert {PALETTE[0], PALETTE[1]} <= set(re.findall(r'fill="(#[0-9a-fA-F]{6})"', html)) and "全班" in html
    assert "最近的句子意思相同" in html and "隐藏了 1 个" in html
    tally = client.post("/class/api/state", json={"code": s.code, "student": kids[0]}).json()
    assert tally["reveal"]["rounds"] == [[["river", 2], ["money", 2]]] and "picture" not in tally  # phones: no model run


def test_the_api_tally_carries_the_pictures_numbers_and_the_senses_only_after_the_reveal(store, question, runtime):
    s = classroom.start(store, question)
    for answer in ANSWERS:
        classroom.answer(store, s.code, classroom.join(store, s.code).student, answer)
    before = routes.state_json(classroom.tally(store, s.code, runtime))
    assert [len(side["points"]) for side in before["picture"]["sides"]] == [4, 4]
    assert "labels" not in before["picture"] and "sentences" not in before["picture"]
    classroom.control(store, s.code, s.teacher, "reveal")
    after = routes.state_json(classroom.tally(store, s.code, runtime))["picture"]
    assert after["labels"] == [0, 0, 1, 1] and after["sides"][1]["nn_accuracy"] == pytest.approx(1 / 3, abs=1e-4)


def test_the_word_cloud_sizes_words_by_count_and_escapes_them():
    html = render.cloud_html([("paris", 9), ("lyon", 4), ("<b>x</b>", 1)], "en")  # most common first
    sizes = [float(x) for x in re.findall(r"font-size:([\d.]+)em", html)]
    assert sizes == sorted(sizes, reverse=True) and sizes[0] == render.CLOUD_EM[1] and sizes[-1] > render.CLOUD_EM[0]
    assert "<b>x" not in html and "&lt;b&gt;x&lt;/b&gt;" in html
