"""The class session, one suite run against both stores: in memory and a real Redis (Debian's redis-server).

Questions are built here from their fields (no model): the activities' own tests run the models.
"""

from __future__ import annotations

import concurrent.futures as cf
import csv
import io

import pytest

from playground import classroom
from playground.classroom import ALPHABET, CODE_LENGTH, TTL_S, store as stores
from playground.classroom.activities import Question
from playground.errors import InputError
from tests.redis_server import SERVER, redis_server

WORD = Question("fill_blank", "The capital of France is [MASK].", "m", "M", "org/m", "word",
                model_top=(("paris", 0.6), ("lyon", 0.1)))  # fmt: skip
MATCH = Question("temperature", "Once", "g", "G", "org/g", "match", choices=("0.1", "0.8", "1.5"),
                 items=("a", "b", "c"), truth="1.5|0.1|0.8")  # fmt: skip
SENSE = Question("sentences", "bank", "m", "M", "org/m", "sense", choices=("river", "money"), layer=2)
CHOICE = Question("attention", "the cat sat", "b", "B", "org/b", "choice", choices=("the", "cat", "sat"), focus="it",
                  model_top=(("cat", 0.7), ("the", 0.2), ("sat", 0.1)), truth="1")  # fmt: skip


class Clock:
    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def redis_url():
    if SERVER is None:
        pytest.skip("redis-server is not installed (scripts/install.sh --test installs it)")
    with redis_server() as url:
        yield url


@pytest.fixture(params=["memory", "redis"])
def store(request):
    clock = Clock()
    if request.param == "memory":
        yield stores.MemoryStore(max_sessions=5, max_students=70, clock=clock)
        return
    import redis

    url = request.getfixturevalue("redis_url")
    client = redis.Redis.from_url(url, decode_responses=True)
    client.flushdb()
    yield stores.RedisStore(client, max_sessions=5, max_students=70, clock=clock)
    client.close()


def _clock(store) -> Clock:
    return store.clock


def _start(store, question=WORD):
    return classroom.start(store, question, "en", clock=_clock(store))


def test_a_session_has_a_code_students_join_and_the_board_counts_without_showing_answers(store):
    s = _start(store)
    assert len(s.code) == CODE_LENGTH and set(s.code) <= set(ALPHABET) and len(s.teacher) >= 32
    students = [classroom.join(store, s.code.lower(), f"kid {i}") for i in range(3)]  # the code in any case
    for kid, word in zip(students, ["Paris", " paris. ", "Lyon"]):
        classroom.answer(store, s.code, kid.student, word)
    board = classroom.board(store, s.code)
    assert (board.students, board.answered, board.phase, board.reveal) == (3, 3, "collect", None)
    assert set(board.nicknames) == {"kid 0", "kid 1", "kid 2"}
    assert "model_top" not in board.question and "truth" not in board.question  # the model's answer stays hidden


def test_an_answer_changed_before_the_reveal_counts_once_and_the_reveal_compares_with_the_model(store):
    s = _start(store)
    a, b = classroom.join(store, s.code), classroom.join(store, s.code)
    classroom.answer(store, s.code, a.student, "lyon")
    classroom.answer(store, s.code, a.student, "Paris")  # changed their mind
    classroom.answer(store, s.code, b.student, "berlin")
    assert classroom.board(store, s.code).answered == 2
    board = classroom.control(store, s.code, s.teacher, "reveal")
    r = board.reveal
    assert r.rounds == ((("berlin", 1), ("paris", 1)),) and r.agree == (1,) and r.totals == (2,)
    assert r.model_top == WORD.model_top and r.reference == "paris"
    with pytest.raises(InputError, match="closed"):
        classroom.answer(store, s.code, a.student, "rome")  # revealed: answers are closed


def test_a_revote_keeps_the_first_round_hidden_and_the_reveal_shows_both(store):
    s = _start(store, CHOICE)
    kids = [classroom.join(store, s.code) for _ in range(4)]
    for kid, pick in zip(kids, "0012"):
        classroom.answer(store, s.code, kid.student, pick)
    board = classroom.control(store, s.code, s.teacher, "revote")
    assert (board.round, board.answered, board.reveal) == (1, 0, None)
    for kid in kids[:3]:
        classroom.answer(store, s.code, kid.student, "1")
    r = classroom.control(store, s.code, s.teacher, "reveal").reveal
    assert r.rounds[0] == (("the", 2), ("cat", 1), ("sat", 1)) and r.rounds[1] == (("cat", 3),)
    assert r.agree == (1, 3) and r.totals == (4, 3) and r.reference == "cat"


def test_matching_temperatures_is_checked_and_scored_exactly(store):
    s = _start(store, MATCH)
    kids = [classroom.join(store, s.code) for _ in range(3)]
    classroom.answer(store, s.code, kids[0].student, "1.5|0.1|0.8")
    classroom.answer(store, s.code, kids[1].student, "0.1|1.5|0.8")
    with pytest.raises(InputError, match="different label"):
        classroom.answer(store, s.code, kids[2].student, "0.1|0.1|0.8")
    r = classroom.control(store, s.code, s.teacher, "reveal").reveal
    assert r.agree == (1,) and r.totals == (2,) and r.reference == "1.5 / 0.1 / 0.8"


def test_teacher_actions_need_the_teacher_token(store):
    s = _start(store)
    other = _start(store)
    for token in ["", "x" * 32, other.teacher]:
        with pytest.raises(InputError, match="teacher"):
            classroom.control(store, s.code, token, "reveal")
        with pytest.raises(InputError, match="teacher"):
            classroom.csv_export(store, s.code, token)
    assert classroom.board(store, s.code).phase == "collect"


def test_questions_are_navigated_and_each_keeps_its_own_answers(store):
    s = _start(store)
    kid = classroom.join(store, s.code)
    classroom.answer(store, s.code, kid.student, "paris")
    assert classroom.add_question(store, s.code, s.teacher, CHOICE) == 1
    board = classroom.board(store, s.code)
    assert (board.index, board.total, board.answered, board.question["form"]) == (1, 2, 0, "choice")
    classroom.answer(store, s.code, kid.student, "2")
    board = classroom.control(store, s.code, s.teacher, "prev")
    assert (board.index, board.answered) == (0, 1)
    assert classroom.student_view(store, s.code, kid.student).mine == "paris"
    assert classroom.control(store, s.code, s.teacher, "next").index == 1
    assert classroom.control(store, s.code, s.teacher, "next").index == 1  # the last stays the last


def test_a_bad_or_ended_code_and_a_stranger_get_clear_refusals(store):
    for code in ["", "ABC", "0OIL11", "ZZZZZZ", None, 5]:
        with pytest.raises(InputError) as err:
            classroom.join(store, code)
        assert err.value.code in ("class_unknown_code", "input_not_text")
    s = _start(store)
    with pytest.raises(InputError, match="Join the class first"):
        classroom.answer(store, s.code, "not-a-student", "paris")
    assert classroom.control(store, s.code, s.teacher, "close") is None
    with pytest.raises(InputError, match="No class with this code"):
        classroom.join(store, s.code)  # closed: deleted


def test_sessions_expire_and_their_data_is_deleted(store):
    s = _start(store)
    kid = classroom.join(store, s.code, "ann")
    classroom.answer(store, s.code, kid.student, "paris")
    if isinstance(store, stores.RedisStore):  # Redis deletes every key of the session itself, at its end
        keys = store.r.keys(f"{stores.PREFIX}{s.code}:*")
        assert len(keys) >= 4
        for key in keys:
            assert 0 < store.r.ttl(key) <= TTL_S + 1, key
    _clock(store).now += TTL_S + 1
    with pytest.raises(InputError, match="No class with this code"):
        classroom.board(store, s.code)
    assert store.live() == 0
    if isinstance(store, stores.MemoryStore):
        assert s.code not in store._sessions  # forgotten, not kept


def test_the_store_is_bounded(store):
    codes = [_start(store).code for _ in range(store.max_sessions)]
    with pytest.raises(InputError, match="as many class sessions"):
        _start(store)
    for _ in range(store.max_students):
        classroom.join(store, codes[0])
    with pytest.raises(InputError, match="full"):
        classroom.join(store, codes[0])
    store.delete(codes[1])
    _start(store)  # a deleted session frees its place


def test_the_memory_store_caps_the_students_of_all_its_sessions():
    """This process's memory: at most max_joined students in all, a rejoin never counts twice, an ended session frees."""
    store = stores.MemoryStore(max_sessions=5, max_students=70, max_joined=10, clock=Clock())
    a, b = _start(store), _start(store)
    kids = [classroom.join(store, a.code) for _ in range(6)] + [classroom.join(store, b.code) for _ in range(4)]
    with pytest.raises(InputError) as caught:
        classroom.join(store, b.code)
    assert caught.value.code == "class_server_busy"
    assert classroom.join(store, a.code, "", kids[0].student).student == kids[0].student  # the same student: no place
    classroom.control(store, a.code, a.teacher, "close")
    assert classroom.join(store, b.code).student


def test_nicknames_are_capped_and_cleaned_and_the_board_and_tally_differ(store):
    s = _start(store)
    evil = "<img src=x onerror=alert(1)>\u202e" + "x" * 100
    kid = classroom.join(store, s.code, evil)
    assert kid.nickname == ("<img src=x onerror=alert(1)>" + "x" * 100)[: classroom.MAX_NICKNAME]
    assert classroom.board(store, s.code).nicknames == (kid.nickname,)
    assert classroom.tally(store, s.code).nicknames == ()  # what students and the API read: no nickname
    assert classroom.student_view(store, s.code, kid.student).board.nicknames == ()


def test_hiding_an_entry_takes_it_off_the_histogram_and_the_board(store):
    s = _start(store)
    rude, kind = classroom.join(store, s.code, "rude name"), classroom.join(store, s.code, "ok")
    classroom.answer(store, s.code, rude.student, "Rude")
    classroom.answer(store, s.code, kind.student, "paris")
    classroom.hide(store, s.code, s.teacher, "rude")
    classroom.hide(store, s.code, s.teacher, "rude name")
    board = classroom.control(store, s.code, s.teacher, "reveal")
    assert board.reveal.rounds == ((("paris", 1),),) and board.reveal.hidden == 1
    assert board.nicknames == ("ok",)


def test_csv_export_has_nicknames_and_answers_only_and_quotes_formulas(store):
    s = _start(store)
    for name, word in [('=HYPERLINK("x")', "+cmd"), ("@bob", "-1"), ("ann", "paris")]:
        kid = classroom.join(store, s.code, name)
        classroom.answer(store, s.code, kid.student, word)
    rows = list(csv.reader(io.StringIO(classroom.csv_export(store, s.code, s.teacher))))
    assert rows[0] == ["question", "activity", "round", "nickname", "answer"]
    cells = [c for row in rows[1:] for c in row]
    assert not any(c.startswith(("=", "+", "-", "@")) for c in cells)
    assert {'\'=HYPERLINK("x")', "'+cmd", "'@bob", "'-1", "ann", "paris"} <= set(cells)
    assert all(len(row) == 5 for row in rows) and len(rows) == 4


def test_many_students_answering_at_once_are_each_counted_exactly_once(store):
    s = _start(store)
    kids = [classroom.join(store, s.code, f"s{i}") for i in range(60)]

    def answer_twice(i):
        classroom.answer(store, s.code, kids[i].student, "lyon")
        classroom.answer(store, s.code, kids[i].student, "paris" if i % 3 else "rome")

    with cf.ThreadPoolExecutor(12) as pool:
        list(pool.map(answer_twice, range(60)))
    r = classroom.control(store, s.code, s.teacher, "reveal").reveal
    assert dict(r.rounds[0]) == {"paris": 40, "rome": 20} and r.agree == (40,)


def test_our_sentences_count_senses_keep_the_sentence_and_hide_by_it(store):
    """A sentence question on either store: the histogram counts the senses students gave, a student's sentence is
    theirs (changed, it counts once), a hidden sentence leaves the histogram, the CSV keeps sense and sentence."""
    s = _start(store, SENSE)
    kids = [classroom.join(store, s.code, f"k{i}") for i in range(4)]
    sent = ["0|We sat on the river bank.", "0|The bank  of the river flooded.", "1|I paid at the bank.", "1|Bank rude."]
    for kid, answer in zip(kids, sent):
        classroom.answer(store, s.code, kid.student, answer)
    assert classroom.answer(store, s.code, kids[0].student, "0|The boat reached the bank.") == "0|The boat reached the bank."
    with pytest.raises(InputError, match="“bank”"):
        classroom.answer(store, s.code, kids[1].student, "1|I like banking.")  # a whole word, as the polysemy demo finds it
    with pytest.raises(InputError, match="sense"):
        classroom.answer(store, s.code, kids[1].student, "2|The bank lent money.")
    assert classroom.student_view(store, s.code, kids[1].student).mine == "river | The bank of the river flooded."
    board = classroom.board(store, s.code)
    assert (board.answered, board.reveal, board.picture) == (4, None, None)  # no runtime: no picture, counts only
    classroom.hide(store, s.code, s.teacher, " Bank  rude. ")  # as the board lists it, spaces aside
    r = classroom.control(store, s.code, s.teacher, "reveal").reveal
    assert r.rounds == ((("river", 2), ("money", 1)),) and r.hidden == 1 and r.totals == (3,)
    rows = list(csv.reader(io.StringIO(classroom.csv_export(store, s.code, s.teacher))))
    assert ["1", "sentences", "1", "k2", "money | I paid at the bank."] in rows


def test_a_browser_joining_again_is_the_same_student(store):
    s = _start(store)
    first = classroom.join(store, s.code, "ann")
    classroom.answer(store, s.code, first.student, "paris")
    again = classroom.join(store, s.code, "", first.student)  # the page sends the id it kept
    assert again.student == first.student and again.nickname == "ann"
    board = classroom.board(store, s.code)
    assert (board.students, board.answered) == (1, 1)
    other = _start(store)
    stranger = classroom.join(store, other.code, "bob", first.student)  # another session's id: a new student
    assert stranger.student != first.student and classroom.board(store, other.code).students == 1
