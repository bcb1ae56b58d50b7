"""Where class sessions live: one small store interface, in this process by default, in Redis when REDIS_URL is set.

A session is a handful of flat string maps, so both stores hold the same shapes and the same tests run on both
(tests/unit/classroom/test_session.py):

- `meta`: the session's state (teacher token's hash, phase, question index, questions as JSON, expiry ...);
- `students`: student id -> nickname;
- `answers:<question>:<round>`: student id -> answer. A map keyed by the student: answering again replaces the
  answer, so a tally counts each student once, whichever replica took the request.
- `hidden`: answers the teacher hid.

Every key of a session expires at the session's end (Redis deletes it; the memory store forgets it on the next
access or sweep), so nothing outlives the class. Both stores are bounded: live sessions (`max_sessions`), students
per session (`max_students`); the session logic bounds the rest (questions, text lengths). The memory store also
caps the students it holds in all (`max_joined`: this process's memory, whatever the sessions; a join past it is
refused until a session ends), tighter than sessions x students; Redis keeps its keys outside the app.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Callable, Protocol

import redis

PREFIX = "tp:class:"


class SessionStore(Protocol):
    max_sessions: int
    max_students: int

    def create(self, code: str, meta: dict[str, str], expires_at: float) -> bool:
        """A new session under `code`; False when the code is taken or the store is full (the caller retries/refuses)."""

    def meta(self, code: str) -> dict[str, str] | None:
        """The session's state, or None: no such session, or it has expired."""

    def update(self, code: str, fields: dict[str, str]) -> bool:
        """Set fields of a live session's state; False when it is gone."""

    def add_student(self, code: str, sid: str, nickname: str) -> str:
        """'ok', 'full' (max_students reached), 'busy' (the memory store's max_joined reached) or 'gone'."""

    def students(self, code: str) -> dict[str, str]: ...

    def student(self, code: str, sid: str) -> str | None:
        """This student's nickname ("" when none), or None: not a student of this session."""

    def put_answer(self, code: str, slot: str, sid: str, answer: str) -> bool:
        """This student's answer in `slot` (question:round), replacing theirs; False when the session is gone."""

    def answers(self, code: str, slot: str) -> dict[str, str]: ...

    def count(self, code: str, slot: str) -> int:
        """How many students answered in `slot` (the board's refresh reads only this until the reveal)."""

    def hide(self, code: str, item: str) -> None: ...

    def hidden(self, code: str) -> set[str]: ...

    def delete(self, code: str) -> None: ...

    def live(self) -> int:
        """Sessions alive now."""


class MemoryStore:
    """The default store: a dict in this process under one lock (one app process serves the class)."""

    def __init__(
        self, max_sessions: int = 200, max_students: int = 300, clock: Callable[[], float] = time.time, max_joined: int = 6000
    ):
        self.max_sessions, self.max_students, self.clock = max_sessions, max_students, clock
        self.max_joined = max_joined  # students in all sessions of this process (a school's day of classes)
        self._sessions: dict[str, dict] = {}
        self._lock = threading.Lock()

    def _get(self, code: str) -> dict | None:
        session = self._sessions.get(code)
        if session is not None and session["expires_at"] <= self.clock():
            del self._sessions[code]  # expired: its data is deleted, not kept
            return None
        return session

    def _sweep(self) -> None:
        now = self.clock()
        for code in [c for c, s in self._sessions.items() if s["expires_at"] <= now]:
            del self._sessions[code]

    def _joined(self) -> int:
        return sum(len(s["students"]) for s in self._sessions.values())

    def create(self, code, meta, expires_at):
        with self._lock:
            self._sweep()
            if code in self._sessions or len(self._sessions) >= self.max_sessions:
                return False
            self._sessions[code] = {
                "expires_at": expires_at, "meta": dict(meta), "students": {}, "answers": {}, "hidden": set()
            }  # fmt: skip
            return True

    def meta(self, code):
        with self._lock:
            session = self._get(code)
            return dict(session["meta"]) if session is not None else None

    def update(self, code, fields):
        with self._lock:
            session = self._get(code)
            if session is None:
                return False
            session["meta"].update(fields)
            return True

    def add_student(self, code, sid, nickname):
        with self._lock:
            session = self._get(code)
            if session is None:
                return "gone"
            students = session["students"]
            if sid not in students and len(students) >= self.max_students:
                return "full"
            if sid not in students and self._joined() >= self.max_joined:
                self._sweep()  # expired sessions' students first
                if self._joined() >= self.max_joined:
                    return "busy"
            students[sid] = nickname
            return "ok"

    def students(self, code):
        with self._lock:
            session = self._get(code)
            return dict(session["students"]) if session is not None else {}

    def student(self, code, sid):
        with self._lock:
            session = self._get(code)
            return session["students"].get(sid) if session is not None else None

    def put_answer(self, code, slot, sid, answer):
        with self._lock:
            session = self._get(code)
            if session is None:
                return False
            session["answers"].setdefault(slot, {})[sid] = answer
            return True

    def answers(self, code, slot):
        with self._lock:
            session = self._get(code)
            return dict(session["answers"].get(slot, {})) if session is not None else {}

    def count(self, code, slot):
        with self._lock:
            session = self._get(code)
            return len(session["answers"].get(slot, {})) if session is not None else 0

    def hide(self, code, item):
        with self._lock:
            session = self._get(code)
            if session is not None:
                session["hidden"].add(item)

    def hidden(self, code):
        with self._lock:
            session = self._get(code)
            return set(session["hidden"]) if session is not None else set()

    def delete(self, code):
        with self._lock:
            self._sessions.pop(code, None)

    def live(self):
        with self._lock:
            self._sweep()
            return len(self._sessions)


# Redis: the checks that must not race between replicas run in the server, as one script each (EVAL is atomic).
# Times come from the app's clock (ARGV), and keys get relative TTLs (EXPIRE), so a test's clock works too.
_CREATE = """
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[2])
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[1]) - tonumber(ARGV[2])))
redis.call('ZADD', KEYS[2], ARGV[1], KEYS[1])
return 1
"""
_JOIN = """
local expires = redis.call('HGET', KEYS[1], 'expires_at')
if not expires then return 'gone' end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 and redis.call('HLEN', KEYS[2]) >= tonumber(ARGV[3]) then
  return 'full'
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[2], math.ceil(tonumber(expires) - tonumber(ARGV[4])))
return 'ok'
"""
_PUT = """
local expires = redis.call('HGET', KEYS[1], 'expires_at')
if not expires then return 0 end
local ttl = math.ceil(tonumber(expires) - tonumber(ARGV[3]))
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[2], ttl)
redis.call('SADD', KEYS[3], KEYS[2])
redis.call('EXPIRE', KEYS[3], ttl)
return 1
"""
_UPDATE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1
"""
_HIDE = """
local expires = redis.call('HGET', KEYS[1], 'expires_at')
if not expires then return 0 end
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('EXPIRE', KEYS[2], math.ceil(tonumber(expires) - tonumber(ARGV[2])))
return 1
"""


class RedisStore:
    """Sessions in Redis (redis-py), so several app replicas serve one class. Keys expire with their session."""

    def __init__(self, client, max_sessions: int = 200, max_students: int = 300, clock: Callable[[], float] = time.time):
        self.r, self.max_sessions, self.max_students, self.clock = client, max_sessions, max_students, clock
        self._create, self._join = client.register_script(_CREATE), client.register_script(_JOIN)
        self._put, self._update, self._hide = (
            client.register_script(_PUT),
            client.register_script(_UPDATE),
            client.register_script(_HIDE),
        )

    @classmethod
    def from_url(cls, url: str, **kwargs) -> RedisStore:
        return cls(redis.Redis.from_url(url, decode_responses=True, socket_timeout=5), **kwargs)

    @staticmethod
    def _k(code: str, part: str) -> str:
        return f"{PREFIX}{code}:{part}"

    def create(self, code, meta, expires_at):
        flat = [x for kv in {**meta, "expires_at": repr(expires_at)}.items() for x in kv]
        keys = [self._k(code, "meta"), f"{PREFIX}live"]
        return bool(self._create(keys, [repr(expires_at), repr(self.clock()), self.max_sessions, *flat]))

    def meta(self, code):
        meta = self.r.hgetall(self._k(code, "meta"))
        if not meta or float(meta.get("expires_at", 0)) <= self.clock():
            return None
        return meta

    def update(self, code, fields):
        return bool(self._update([self._k(code, "meta")], [x for kv in fields.items() for x in kv]))

    def add_student(self, code, sid, nickname):
        return self._join(
            [self._k(code, "meta"), self._k(code, "students")], [sid, nickname, self.max_students, repr(self.clock())]
        )

    def students(self, code):
        return self.r.hgetall(self._k(code, "students"))

    def student(self, code, sid):
        return self.r.hget(self._k(code, "students"), sid)

    def put_answer(self, code, slot, sid, answer):
        keys = [self._k(code, "meta"), self._k(code, f"answers:{slot}"), self._k(code, "slots")]
        return bool(self._put(keys, [sid, answer, repr(self.clock())]))

    def answers(self, code, slot):
        return self.r.hgetall(self._k(code, f"answers:{slot}"))

    def count(self, code, slot):
        return int(self.r.hlen(self._k(code, f"answers:{slot}")))

    def hide(self, code, item):
        self._hide([self._k(code, "meta"), self._k(code, "hidden")], [item, repr(self.clock())])

    def hidden(self, code):
        return set(self.r.smembers(self._k(code, "hidden")))

    def delete(self, code):
        slots = list(self.r.smembers(self._k(code, "slots")))
        parts = [self._k(code, p) for p in ("meta", "students", "hidden", "slots")]
        self.r.delete(*parts, *slots)
        self.r.zrem(f"{PREFIX}live", self._k(code, "meta"))

    def live(self):
        self.r.zremrangebyscore(f"{PREFIX}live", "-inf", self.clock())
        return int(self.r.zcard(f"{PREFIX}live"))


_default: SessionStore | None = None
_default_lock = threading.Lock()


def from_env(env: dict[str, str] | None = None) -> SessionStore:
    """The store an app process uses: Redis when REDIS_URL is set (every replica then sees every session), else
    this process's memory."""
    url = ((env if env is not None else os.environ).get("REDIS_URL") or "").strip()
    return RedisStore.from_url(url) if url else MemoryStore()


def default() -> SessionStore:
    """The app's one store, made on first use."""
    global _default
    with _default_lock:
        if _default is None:
            _default = from_env()
        return _default
