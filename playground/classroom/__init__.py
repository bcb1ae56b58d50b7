"""A live class: students answer on their phones, the board shows how many answered, then the class beside the model.

The session logic, pure over a `SessionStore` (store.py: in memory, or Redis when REDIS_URL is set) and a clock:
every function takes the store, checks what arrives (playground.checks wordings) and returns a frozen dataclass.
Nothing here renders: the pages (playground/ui/classroom) escape every student's text where they show it.

Flow per question: "collect" (students may change their answer) -> optionally a revote (round 2: talk to your
neighbour, answer again; round 1's histogram stays hidden) -> "reveal" (the histogram, the model's answer). The
board reads only counts until the reveal. Teacher actions need the teacher token (only its hash is stored).

Guessing a join code: 6 characters of a 31-letter alphabet are 31**6 ≈ 8.9e8 codes. With 200 live sessions (the
store's bound) and the join guard's 10 failed attempts a minute per address, one address finds some session with
probability ≈ 1800 × 200 / 8.9e8 ≈ 0.04 % in a 3-hour class.
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import json
import re
import secrets
import time
from collections import Counter
from dataclasses import dataclass, replace
from typing import Callable

from playground import checks
from playground.classroom.activities import (
    ACTIVITIES,
    Question,
    build_question,
    entry_of,
    from_json,
    normalize,
    shown,
    tallied,
    to_json,
)
from playground.classroom.sentences import picture
from playground.classroom.store import SessionStore
from playground.errors import InputError

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O, 1/I/L: read off a projector, typed on a phone
CODE_LENGTH = 6
TTL_S = 3 * 3600  # a session's life; then every key of it is deleted
MAX_QUESTIONS = 30
MAX_NICKNAME = 24
ACTIONS = ("next", "prev", "revote", "reveal", "collect", "close")
PHASES = ("collect", "reveal")

__all__ = ["ACTIVITIES", "Question", "build_question", "start", "add_question", "join", "answer", "control", "hide"]


@dataclass(frozen=True)
class Started:
    code: str
    teacher: str  # the secret teacher token (shown once, to the teacher)
    expires_at: float


@dataclass(frozen=True)
class Joined:
    code: str
    student: str  # this student's secret id: their answers are kept under it
    nickname: str


@dataclass(frozen=True)
class Reveal:
    rounds: tuple[tuple[tuple[str, int], ...], ...]  # per round: (answer as shown, students), most common first
    model_top: tuple[tuple[str, float], ...]  # the model's answer (word or option, probability or weight)
    reference: str  # the answer compared with, as shown ("" when none)
    agree: tuple[int, ...]  # per round: students who gave the reference answer
    totals: tuple[int, ...]  # per round: answers counted (hidden ones left out)
    hidden: int  # answers the teacher hid from the histogram (latest round)


@dataclass(frozen=True)
class Board:
    """What the projector shows; students see the same minus the nicknames."""

    code: str
    lang: str
    index: int  # the question on screen (0-based)
    total: int  # questions in the session
    question: dict  # Question.public(): no model answer
    phase: str  # "collect" | "reveal"
    round: int  # 0, or 1 during / after a revote
    students: int
    answered: int  # students who answered this question in this round
    nicknames: tuple[str, ...]  # the board only (raw text: the page escapes it); hidden ones left out
    reveal: Reveal | None  # None until the teacher reveals
    expires_at: float
    # "our sentences": the visible sentences as points (sentences.Picture), when the board was read with a runtime
    picture: object | None = None


@dataclass(frozen=True)
class StudentView:
    board: Board  # nicknames removed
    mine: str  # this student's answer in this round, as shown ("" none)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def check_code(value: object) -> str:
    code = checks.text(value, "code", 40).strip().upper().replace(" ", "").replace("-", "")
    if not re.fullmatch(f"[{ALPHABET}]{{{CODE_LENGTH}}}", code):
        raise InputError("class_unknown_code", "No class with this code: check it with your teacher (it may have ended).")
    return code


def _meta(store: SessionStore, code: object) -> tuple[str, dict[str, str]]:
    code = check_code(code)
    meta = store.meta(code)
    if meta is None:
        raise InputError("class_unknown_code", "No class with this code: check it with your teacher (it may have ended).")
    return code, meta


def _teacher(store: SessionStore, code: object, teacher: object) -> tuple[str, dict[str, str]]:
    token = checks.text(teacher, "teacher", 200)
    code, meta = _meta(store, code)
    if not hmac.compare_digest(_hash(token), meta.get("teacher", "")):
        raise InputError("class_not_teacher", "Only the teacher's link can do this.")
    return code, meta


def _questions(meta: dict[str, str]) -> list[Question]:
    return [from_json(q) for q in json.loads(meta.get("questions", "[]"))]


def start(
    store: SessionStore, question: Question, lang: str = "en", ttl_s: float = TTL_S, clock: Callable[[], float] = time.time
) -> Started:
    """A new session showing `question` (built by activities.build_question); its code and the teacher's token."""
    teacher, now = secrets.token_urlsafe(24), clock()
    meta = {
        "teacher": _hash(teacher), "lang": "zh" if str(lang).startswith("zh") else "en", "created": repr(now),
        "questions": json.dumps([to_json(question)], ensure_ascii=False), "index": "0", "expires_at": repr(now + ttl_s),
    }  # fmt: skip
    for _ in range(8):  # a taken code (or a full store) is retried with a fresh one; full stays full
        code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
        if store.create(code, meta, now + ttl_s):
            return Started(code, teacher, now + ttl_s)
    raise InputError("class_full", "The server holds as many class sessions as it may: try again later.")


def add_question(store: SessionStore, code: object, teacher: object, question: Question) -> int:
    """Append a question and show it; its index."""
    code, meta = _teacher(store, code, teacher)
    questions = json.loads(meta.get("questions", "[]"))
    if len(questions) >= MAX_QUESTIONS:
        raise InputError("class_too_many", "A session holds at most {limit} questions.", limit=MAX_QUESTIONS)
    questions.append(to_json(question))
    store.update(code, {"questions": json.dumps(questions, ensure_ascii=False), "index": str(len(questions) - 1)})
    return len(questions) - 1


def clean_nickname(value: object) -> str:
    """A nickname as kept: text, control characters removed, spaces collapsed, at most MAX_NICKNAME characters."""
    name = checks.text(value, "nickname", 200, allow_none=True)
    name = re.sub(r"[\x00-\x1f\x7f\u200b-\u200f\u2028-\u202e\u2066-\u2069]", "", name)
    return re.sub(r"\s+", " ", name).strip()[:MAX_NICKNAME]


def join(store: SessionStore, code: object, nickname: object = "", student: object = None) -> Joined:
    """A student in the session. `student`: the id this browser was given before (the phone page keeps it): a
    student of this session who joins again (a closed tab, a rescanned code) stays the same student, answers and
    all, instead of counting twice; an id the session does not know gets a fresh one."""
    name = clean_nickname(nickname)
    previous = checks.text(student, "student", 100, allow_none=True)
    code, _ = _meta(store, code)
    if previous and store.student(code, previous) is not None:
        student = previous  # the nickname typed now replaces the old one (an empty one keeps it)
        name = name or store.student(code, previous) or ""
    else:
        student = secrets.token_urlsafe(16)
    status = store.add_student(code, student, name)
    if status == "full":
        raise InputError("class_class_full", "This class is full ({limit} students).", limit=store.max_students)
    if status == "busy":
        raise InputError("class_server_busy", "The server holds as many students as it may: try again later.")
    if status != "ok":
        raise InputError("class_unknown_code", "No class with this code: check it with your teacher (it may have ended).")
    return Joined(code, student, name)


def join_guarded(store: SessionStore, code: object, nickname: object, who: str, limiter, student: object = None) -> Joined:
    """`join`, where `who` (an address) may fail only so often: `limiter` (ui.server.guard.AttemptLimiter) counts the
    codes that name no session. Malformed values are refused first, in the checks' words, and count too."""
    nickname = clean_nickname(nickname)
    code = checks.text(code, "code", 40)
    if who and not limiter.allowed(who):
        raise InputError("class_slow_down", "Too many wrong codes from your address: wait a minute, then try again.")
    try:
        return join(store, code, nickname, student)
    except InputError as exc:
        if who and exc.code == "class_unknown_code":
            limiter.failed(who)
        raise


def _slot(index: int, round_: int) -> str:
    return f"{index}:{round_}"


def _state(meta: dict[str, str]) -> tuple[int, str, int]:
    index = int(meta.get("index", "0"))
    return index, meta.get(f"phase:{index}", "collect"), int(meta.get(f"round:{index}", "0"))


def answer(store: SessionStore, code: object, student: object, value: object) -> str:
    """Keep this student's answer to the question on screen (replacing theirs); the answer as counted."""
    sid = checks.text(student, "student", 100)
    raw = checks.text(value, "answer", 200)
    code, meta = _meta(store, code)
    if store.student(code, sid) is None:
        raise InputError("class_not_joined", "Join the class first (your phone lost its place: scan the code again).")
    index, phase, round_ = _state(meta)
    if phase != "collect":
        raise InputError("class_closed_question", "The teacher has closed this question.")
    counted = normalize(_questions(meta)[index], raw)
    if not store.put_answer(code, _slot(index, round_), sid, counted):
        raise InputError("class_unknown_code", "No class with this code: check it with your teacher (it may have ended).")
    return counted


def control(store: SessionStore, code: object, teacher: object, action: object, runtime=None) -> Board | None:
    """A teacher's move: next / prev question, revote, reveal, collect (reopen), close (deletes the session)."""
    action = checks.choice(action, "action", ACTIONS)
    code, meta = _teacher(store, code, teacher)
    index, phase, round_ = _state(meta)
    total = len(_questions(meta))
    if action == "close":
        store.delete(code)
        return None
    changes = {
        "next": {"index": str(min(index + 1, total - 1))},
        "prev": {"index": str(max(index - 1, 0))},
        "revote": {f"round:{index}": "1", f"phase:{index}": "collect"},
        "reveal": {f"phase:{index}": "reveal"},
        "collect": {f"phase:{index}": "collect"},
    }[action]
    store.update(code, changes)
    return board(store, code, runtime)


def hide(store: SessionStore, code: object, teacher: object, entry: object, runtime=None) -> Board:
    """Hide an answer of the question on screen (as shown; a sentence by its text) or a nickname from the board
    (moderation). A hidden sentence leaves the histogram and the picture."""
    entry = checks.text(entry, "entry", 200)
    code, meta = _teacher(store, code, teacher)
    index, _, _ = _state(meta)
    question = _questions(meta)[index]
    try:
        if question.form == "word":
            counted = normalize(question, entry)
        elif question.form == "sense":  # a sentence, as the board lists it (its sense aside)
            counted = entry_of(question, normalize(question, "0|" + entry))
        else:
            counted = next(str(i) for i, c in enumerate(question.choices) if c == entry)
    except (InputError, StopIteration):
        counted = entry
    store.hide(code, f"a:{index}:{counted}")
    store.hide(code, f"n:{entry}")
    return board(store, code, runtime)


def _reveal(store: SessionStore, code: str, question: Question, index: int, last_round: int, hidden: set[str]) -> Reveal:
    rounds, agree, totals, reference = [], [], [], question.reference()
    hidden_now = 0
    for r in range(last_round + 1):
        values = store.answers(code, _slot(index, r)).values()
        seen = [a for a in values if f"a:{index}:{entry_of(question, a)}" not in hidden]
        hidden_now = len(values) - len(seen)
        kept = list(Counter(tallied(question, a) for a in seen).items())
        kept.sort(key=lambda an: (-an[1], an[0]))
        rounds.append(tuple((shown(question, a), n) for a, n in kept))
        agree.append(sum(n for a, n in kept if a == reference))
        totals.append(sum(n for _, n in kept))
    return Reveal(tuple(rounds), question.model_top, shown(question, reference), tuple(agree), tuple(totals), hidden_now)


def _picture(store: SessionStore, code: str, question: Question, index: int, round_: int, hidden: set[str], runtime):
    answers = store.answers(code, _slot(index, round_)).values()
    return picture(question, [a for a in answers if f"a:{index}:{entry_of(question, a)}" not in hidden], runtime)


def board(store: SessionStore, code: object, runtime=None) -> Board:
    """The board's state: counts while collecting; the histogram and the model's answer once revealed. With a
    runtime, an "our sentences" question also gets its picture (the visible sentences, embedded once each)."""
    code, meta = _meta(store, code)
    index, phase, round_ = _state(meta)
    questions = _questions(meta)
    question = questions[index]
    hidden = store.hidden(code)
    students = store.students(code)
    nicknames = tuple(n for n in students.values() if n and f"n:{n}" not in hidden)
    reveal = _reveal(store, code, question, index, round_, hidden) if phase == "reveal" else None
    drawn = question.form == "sense" and runtime is not None
    return Board(
        code, meta.get("lang", "en"), index, len(questions), question.public(), phase, round_, len(students),
        store.count(code, _slot(index, round_)), nicknames, reveal, float(meta.get("expires_at", "0") or 0),
        _picture(store, code, question, index, round_, hidden, runtime) if drawn else None,
    )  # fmt: skip


def teacher_board(store: SessionStore, code: object, teacher: object, runtime=None) -> Board:
    """The board with the nicknames, for the teacher's token only (the projector shows the room what the teacher
    chooses; a student who opens the board's address on a phone reads the tally, no nickname)."""
    code, _ = _teacher(store, code, teacher)
    return board(store, code, runtime)


def tally(store: SessionStore, code: object, runtime=None) -> Board:
    """The board without the nicknames: what the API's /class_tally and a student's phone may read."""
    return replace(board(store, code, runtime), nicknames=())


def student_view(store: SessionStore, code: object, student: object) -> StudentView:
    sid = checks.text(student, "student", 100)
    state = tally(store, code)
    if store.student(state.code, sid) is None:
        raise InputError("class_not_joined", "Join the class first (your phone lost its place: scan the code again).")
    mine = store.answers(state.code, _slot(state.index, state.round)).get(sid, "")
    question = from_json({**state.question, "model": "", "model_id": "", "model_top": ()})
    return StudentView(state, shown(question, mine) if mine else "")


FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: str) -> str:
    """A CSV cell a spreadsheet reads as text: one starting like a formula gets a leading apostrophe (OWASP)."""
    return "'" + value if value.startswith(FORMULA) else value


def csv_export(store: SessionStore, code: object, teacher: object) -> str:
    """Nicknames and answers only: question, round, nickname, answer (no ids, no addresses)."""
    code, meta = _teacher(store, code, teacher)
    students = store.students(code)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["question", "activity", "round", "nickname", "answer"])
    for index, question in enumerate(_questions(meta)):
        for r in range(int(meta.get(f"round:{index}", "0")) + 1):
            for sid, value in sorted(store.answers(code, _slot(index, r)).items()):
                row = [str(index + 1), question.kind, str(r + 1), students.get(sid, ""), shown(question, value)]
                writer.writerow([_cell(c) for c in row])
    return out.getvalue()
