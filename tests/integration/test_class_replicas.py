"""Two app processes on one Redis (REDIS_URL): students answer through one, the board is read through the other, and
the tally is exact. This is what a load balancer in front of two replicas does to a class."""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import json
import tempfile
import urllib.error
import urllib.request

import pytest

from playground import classroom
from playground.classroom import store as stores
from playground.classroom.activities import Question
from scripts.serve_app import start, stop, wait_answering
from tests.redis_server import SERVER, redis_server

STUDENTS = 30
QUESTION = Question("fill_blank", "The capital of France is [MASK].", "minilm-mlm", "MiniLM", "m", "word",
                    model_top=(("paris", 0.5), ("lyon", 0.1)))  # fmt: skip


@contextlib.contextmanager
def replicas(url: str, n: int = 2):
    """`n` app processes on one Redis, none preloading a model; their URLs once all answer."""
    started = []
    with contextlib.ExitStack() as stack:
        for _ in range(n):
            log = stack.enter_context(tempfile.TemporaryFile("w+"))
            proc, address = start(env={"REDIS_URL": url, "PLAYGROUND_PRELOAD": ""}, log=log)
            stack.callback(stop, proc)
            started.append((proc, address, log))
        for proc, address, log in started:
            wait_answering(
                f"{address}class/join", 240, lambda p=proc: p.poll() is None, lambda lg=log: (lg.seek(0), lg.read())[1]
            )
        yield [address for _, address, _ in started]


def post(base: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(base + path, json.dumps(body).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as res:
            return json.loads(res.read())
    except urllib.error.HTTPError as err:
        return {"status": err.code, **json.loads(err.read())}


@pytest.fixture(scope="module")
def redis_url():
    if SERVER is None:
        pytest.skip("redis-server is not installed (scripts/install.sh --test installs it)")
    with redis_server() as url:
        yield url


def test_students_on_one_replica_and_the_board_on_the_other_see_one_exact_tally(redis_url):
    store = stores.RedisStore.from_url(redis_url)
    session = classroom.start(store, QUESTION)
    with replicas(redis_url) as (a, b):
        kids = [post(a, "class/api/join", {"code": session.code, "nickname": f"s{i}"}) for i in range(STUDENTS)]
        assert all("student" in k for k in kids), kids[:3]
        assert post(b, "class/api/board", {"code": session.code})["students"] == STUDENTS

        def answer(i: int) -> dict:
            first = post(a, "class/api/answer", {"code": session.code, "student": kids[i]["student"], "answer": "lyon"})
            final = "paris" if i % 3 else "rome"
            return first, post(
                a if i % 2 else b, "class/api/answer", {"code": session.code, "student": kids[i]["student"], "answer": final}
            )

        with cf.ThreadPoolExecutor(10) as pool:
            results = list(pool.map(answer, range(STUDENTS)))
        assert all("status" not in r for pair in results for r in pair), results[:2]
        board = post(b, "class/api/board", {"code": session.code})
        assert board["answered"] == STUDENTS and "paris" not in board["html"]  # counted once each; still hidden
        post(b, "class/api/control", {"code": session.code, "teacher": session.teacher, "action": "reveal"})
        state = post(a, "class/api/state", {"code": session.code, "student": kids[0]["student"]})
        assert state["phase"] == "reveal"
        rounds = {word: n for word, n in state["reveal"]["rounds"][0]}
        assert rounds == {"paris": STUDENTS - STUDENTS // 3, "rome": STUDENTS // 3}
        assert state["reveal"]["agree"] == [STUDENTS - STUDENTS // 3]
