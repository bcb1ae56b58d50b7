"""The queue guard on a tiny Gradio app (no models): one address cannot fill the queue, unread work is cancelled."""

from __future__ import annotations

import json
import logging
from typing import Iterator
import threading
from concurrent.futures import ThreadPoolExecutor
import time
import urllib.error
import urllib.request

import gradio as gr
import pytest
from starlette.middleware import Middleware

from playground.ui.server.guard import QueueGuard, launch_limits
from scripts.serve_app import free_port

CLOSED = []  # generators whose `finally` ran (closed by the guard or finished)


def endless(tag: str) -> Iterator[str]:
    """Streams forever unless something stops it (what an unread training would do)."""
    try:
        for i in range(3000):
            time.sleep(0.05)
            yield f"{tag} {i}"
    finally:
        CLOSED.append(tag)


def quick(text: str, times: int = 1) -> str:
    return text.upper() * times


@pytest.fixture
def server(monkeypatch, use_settings):
    use_settings(trusted_proxy=True)  # lets a test speak for two addresses
    with gr.Blocks() as demo:
        box = gr.Textbox()
        gr.api(endless, api_name="endless", concurrency_id="one", concurrency_limit=1)
        gr.api(quick, api_name="quick", concurrency_id="one", concurrency_limit=1)
        box.submit(quick, box, box)
    demo.queue(max_size=20)
    port = free_port()
    middleware = [Middleware(QueueGuard, per_client=3, unread_s=1.0, poll_s=0.2)]
    demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, app_kwargs={"middleware": middleware})
    guard = _find_guard(demo.server_app.middleware_stack) if demo.server_app.middleware_stack else None
    yield f"http://127.0.0.1:{port}", demo, guard
    demo.close()


def _find_guard(app):
    while app is not None and not isinstance(app, QueueGuard):
        app = getattr(app, "app", None)
    return app


def post(base: str, name: str, data: list, forwarded: str = "10.0.0.1") -> tuple[int, dict]:
    req = urllib.request.Request(
        f"{base}/gradio_api/call/{name}",
        json.dumps({"data": data}).encode(),
        {"Content-Type": "application/json", "X-Forwarded-For": forwarded},
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def read(base: str, name: str, event_id: str) -> str:
    with urllib.request.urlopen(f"{base}/gradio_api/call/{name}/{event_id}", timeout=30) as r:
        return r.read().decode()


def test_one_address_cannot_fill_the_queue_and_others_still_get_in(server):
    base, demo, _ = server
    codes = [post(base, "endless", ["a"])[0] for _ in range(5)]
    assert codes == [200, 200, 200, 429, 429]  # 3 waiting or running from one address, then refused at once
    status, body = post(base, "endless", ["a"])
    assert status == 429 and "waiting from your address" in body["detail"]
    assert post(base, "quick", ["b", 1], forwarded="10.0.0.2")[0] == 200  # another student is not refused


def test_a_simultaneous_burst_from_one_address_gets_its_cap_and_no_more(server):
    """Posts that arrive together are counted as they are admitted, not once Gradio has queued them: a burst of 30
    from one address (more than the whole queue, 20) gets 3 in, and another student still gets in and is answered."""
    base, demo, _ = server
    burst = 30
    start = threading.Barrier(burst)

    def fire(_):
        start.wait()  # every thread posts at the same moment
        return post(base, "endless", ["burst"], forwarded="10.0.0.7")[0]

    with ThreadPoolExecutor(burst) as pool:
        codes = list(pool.map(fire, range(burst)))
    assert codes.count(200) == 3 and codes.count(429) == burst - 3, codes
    status, body = post(base, "quick", ["next student", 1], forwarded="10.0.0.8")
    assert status == 200, body
    assert "NEXT STUDENT" in read(base, "quick", body["event_id"])


def test_work_nobody_reads_is_cancelled_and_the_next_user_does_not_wait(server):
    base, demo, guard = server
    CLOSED.clear()
    posted = {}
    for tag in ("x", "y", "z"):  # three posts whose results are never read; each would stream for 150 s
        status, body = post(base, "endless", [tag], forwarded="10.0.0.3")
        assert status == 200
        posted[tag] = body["event_id"]
    status, body = post(base, "quick", ["hello", 1], forwarded="10.0.0.4")
    assert status == 200
    answer = read(base, "quick", body["event_id"])  # same single slot: it runs only once the unread ones are gone
    assert "HELLO" in answer
    assert guard is not None and guard.cancelled >= 3
    deadline = time.monotonic() + 10
    while "x" not in CLOSED and time.monotonic() < deadline:  # the running one is closed by the guard, not left to run
        threading.Event().wait(0.1)
    assert "x" in CLOSED
    late = read(base, "endless", posted["y"])  # a reader who comes after the cancel is answered, not left hanging
    assert "event: error" in late and "nobody read" in late


def test_work_someone_reads_is_never_cancelled(server):
    base, demo, guard = server
    status, body = post(base, "quick", ["read me", 1], forwarded="10.0.0.5")
    assert "READ ME" in read(base, "quick", body["event_id"])
    assert guard.cancelled == 0


def test_a_rest_call_that_leaves_values_out_is_refused_in_words_with_one_log_line(server, caplog, capfd):
    base, demo, guard = server
    with caplog.at_level(logging.INFO, logger="playground"):
        status, body = post(base, "quick", ["only the text"], forwarded="10.0.0.6")
    assert status == 422 and "takes 2 values in this order: text, times" in body["detail"] and "missing: times" in body["detail"]
    assert [r.message for r in caplog.records].count(f"refused: {body['detail']}") == 1
    status, body = post(base, "quick", ["ok", 2], forwarded="10.0.0.6")  # all values: answered as before
    assert status == 200 and "OKOK" in read(base, "quick", body["event_id"])
    assert "Traceback" not in capfd.readouterr().err


DEEP = "[" * 5000 + "]" * 5000  # 10 KB of JSON nested past Python's recursion limit


@pytest.mark.parametrize("mcp", [False, True], ids=["rest", "mcp"])
def test_json_nested_too_deep_is_refused_in_words_not_a_500_with_a_traceback(use_settings, caplog, capfd, mcp):
    """json.loads raises RecursionError (not a ValueError) past ~1,000 levels: the guard's own reading of a /call body
    and the MCP server's answered HTTP 500 with a traceback in the log, for every endpoint."""
    use_settings(trusted_proxy=True)
    with gr.Blocks() as demo:
        gr.api(quick, api_name="quick")
    demo.queue(max_size=20)
    port = free_port()
    middleware = [Middleware(QueueGuard, per_client=3, unread_s=0)]
    demo.launch(
        server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, mcp_server=mcp, app_kwargs={"middleware": middleware}
    )
    try:
        base = f"http://127.0.0.1:{port}"
        if mcp:
            body = '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "quick", "arguments": {"text": '
            url, body = f"{base}/gradio_api/mcp/", body + DEEP + "}}}"
        else:
            url, body = f"{base}/gradio_api/call/quick", '{"data": [' + DEEP + ", 1]}"
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        with caplog.at_level(logging.INFO, logger="playground"):
            try:
                with urllib.request.urlopen(urllib.request.Request(url, body.encode(), headers), timeout=10) as r:
                    status, answer = r.status, r.read()
            except urllib.error.HTTPError as e:
                status, answer = e.code, e.read()
        assert status == 400 and b"nested" in answer, (status, answer[:300])
        assert any("nested" in r.message for r in caplog.records if r.message.startswith("refused"))
        assert "Traceback" not in capfd.readouterr().err
    finally:
        demo.close()


def test_an_oversized_body_is_refused_before_it_is_read_and_memory_stays(server):
    """A 150 MB JSON body to /call was read whole and refused only inside the function (15 of them: +2.8 GB RSS, still
    held 65 s later). Past MAX_BODY_BYTES the answer comes from the headers alone: this client announces 150 MB,
    sends 1 KB and waits; the refusal comes at once, and the bodies of ten whole 8 MB posts are never kept."""
    import resource
    import socket

    base, demo, _ = server
    port = int(base.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        head = (
            "POST /gradio_api/call/quick HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {150 * 2**20}\r\nX-Forwarded-For: 10.0.0.9\r\n\r\n"
        )
        sock.sendall(head.encode() + b'{"data": ["' + b"a" * 1000)
        answer = ""
        while "}" not in answer:  # no more is sent: a server that reads the body first never answers
            answer += sock.recv(4096).decode("latin-1")
    assert answer.startswith("HTTP/1.1 413") and "too large" in answer, answer[:300]

    big = ('{"data": ["' + "a" * (8 * 2**20) + '", 1]}').encode()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KB; the server runs in this process
    for _ in range(10):
        req = urllib.request.Request(f"{base}/gradio_api/call/quick", big, {"Content-Type": "application/json"})
        try:
            urllib.request.urlopen(req, timeout=30)
            raise AssertionError("an 8 MB body was accepted")
        except urllib.error.HTTPError as e:
            assert e.code == 413
        except urllib.error.URLError as e:  # answered and closed while the client was still sending: never read
            assert isinstance(e.reason, (BrokenPipeError, ConnectionResetError)), e
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 40 * 1024  # the peak grew by < 40 MB


@pytest.mark.parametrize(
    "url", ["http://files.example.invalid/a.png", "https://10.1.2.3/x.txt", "HTTPS://files.example.invalid/b"]
)
def test_the_server_never_fetches_a_url_a_client_names_in_file(server, monkeypatch, url):
    """Gradio 6.31 proxies `/gradio_api/file=<http(s) URL>` through safehttpx: the server resolved host names a client
    chose (and, for private addresses, asked an outside DNS-over-HTTPS resolver). Refused before any resolution."""
    import socket

    base, demo, _ = server
    looked_up = []
    real = socket.getaddrinfo

    def watching(host, *args, **kwargs):
        if host not in ("127.0.0.1", "localhost"):
            looked_up.append(host)
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", watching)
    for method in ("GET", "HEAD"):
        req = urllib.request.Request(f"{base}/gradio_api/file={url}", method=method)
        try:
            with urllib.request.urlopen(req, timeout=20) as r:
                status = r.status
        except urllib.error.HTTPError as e:
            status = e.code
        assert status == 403, (method, status)
    assert looked_up == []


def test_launch_bounds_uploads_and_sessions():
    limits = launch_limits()
    assert limits["max_file_size"] == "1mb" and limits["state_session_capacity"] == 300
    assert limits["app_kwargs"]["middleware"][0].cls is QueueGuard


def test_every_callable_endpoint_is_documented(built_app):
    """Gradio makes some events callable but undocumented (an example list's /load_example): none may be."""
    demo = built_app
    undocumented = sorted({fn.api_name for fn in demo.fns.values() if fn.api_visibility == "undocumented"})
    assert undocumented == []
    documented = {name.lstrip("/") for name in demo.get_api_info()["named_endpoints"]}
    public = {fn.api_name for fn in demo.fns.values() if fn.api_visibility == "public"}
    assert public == documented and "mlm_lab_train" in public


def test_a_class_behind_one_school_address_gets_one_request_each_with_the_default_limits(use_settings):
    """Issue 37, item 16: a class of 60 behind one NAT, every student pressing Run at the same moment, on the app's
    default queue and per-address cap (a real server, a real simultaneous burst): every student gets in, a student at
    another address still does, and the address is still refused once it holds the whole cap."""
    from playground import settings

    use_settings(trusted_proxy=True)  # lets the test speak for the school's address and another one
    defaults = settings.Settings()
    cap = defaults.per_client_queue
    assert cap >= settings.CLASS_BEHIND_ONE_ADDRESS and defaults.queue_size - cap >= 1  # others keep room
    with gr.Blocks() as demo:
        gr.api(endless, api_name="endless", concurrency_id="one", concurrency_limit=1)
        gr.api(quick, api_name="quick", concurrency_id="one", concurrency_limit=1)
    demo.queue(max_size=defaults.queue_size)
    port = free_port()
    middleware = [Middleware(QueueGuard, per_client=None, unread_s=600.0)]  # None: the settings' default cap
    demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, app_kwargs={"middleware": middleware})
    base = f"http://127.0.0.1:{port}"
    try:
        students = settings.CLASS_BEHIND_ONE_ADDRESS
        start = threading.Barrier(students)

        def press_run(i):
            start.wait()  # the whole class at once
            return post(base, "endless", [f"student {i}"], forwarded="203.0.113.9")[0]

        with ThreadPoolExecutor(students) as pool:
            codes = list(pool.map(press_run, range(students)))
        assert codes.count(200) == students, codes
        assert post(base, "quick", ["another school", 1], forwarded="198.51.100.2")[0] == 200
        extra = [post(base, "endless", ["one more"], forwarded="203.0.113.9")[0] for _ in range(cap - students + 1)]
        assert extra.count(200) == cap - students and extra[-1] == 429, extra  # the cap still holds past the class
    finally:
        demo.close()
