"""Fair use of the shared queue: one address cannot fill it, and work whose result nobody reads is cancelled.

Gradio 6.31 bounds the queue as a whole (`queue(max_size=...)`) but not per client, and an event posted
to `/gradio_api/call/<name>` (or `/queue/join`) runs even when nobody ever opens its result stream
(`queueing.Queue.push` checks only the total size; `clean_events` runs only when a stream that was
opened disconnects). `QueueGuard` is a plain ASGI middleware in front of Gradio's routes that adds both:

- a POST that would queue an event is refused (HTTP 429, one log line) while its address already has
  `per_client` events admitted, waiting or running. The slot is taken under a lock the moment the POST is
  admitted, before Gradio reads its body, and given back when its event is gone from Gradio's queue (finished,
  cancelled, failed) or when Gradio did not queue it: counting the queue instead let a burst of POSTs that
  arrived together all pass, since none of them was queued yet when the next was counted;
- a stream opened for a session or event marks it read; a queued or running event that nobody has
  read `unread_s` seconds after it was queued is cancelled the way Gradio cancels the events of a stream
  that disconnects (`Queue.clean_events`).

It also refuses, in words and one log line: a `file=` that names a URL (Gradio would fetch it); a body past
MAX_BODY_BYTES (from its Content-Length, before it is read); a JSON body nested past Python's reader (RecursionError,
which every /call and the MCP server turned into an HTTP 500 with a traceback); and a REST call that leaves trailing
values out (Gradio answers it with {"error": null} and a traceback in the log). It reads Gradio's queue (events, their
session and request) and never changes how Gradio runs one.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections import OrderedDict
from typing import Any, Callable, Iterable

from gradio.server_messages import ProcessCompletedMessage
from starlette.middleware import Middleware

from playground import settings

log = logging.getLogger("playground")
API = "/gradio_api"
JOIN_PATHS = (f"{API}/queue/join", f"{API}/call/")
JSON = "application/json"
# The largest body a request may send to /gradio_api (uploads aside: /upload is multipart, bounded by Gradio's
# max_file_size). The largest legitimate one is the lab's corpus, 200,000 characters: 1.2 MB as JSON \u escapes.
# A 150 MB body was read whole and refused only inside the function, and the memory stayed (issue 37, item 13).
MAX_BODY_BYTES = 4 * 2**20
READ_REMEMBERED = 20_000  # session / event ids seen reading (oldest forgotten first)


def address(host: str | None, headers: Any) -> str:
    """The client's address: the socket's peer, or behind a trusted proxy the address it saw.

    With PLAYGROUND_TRUSTED_PROXY=1 (a Space, a reverse proxy) the last X-Forwarded-For entry, the one the
    nearest proxy added; a client can put anything before it.
    """
    if settings.current().trusted_proxy:
        forwarded = headers.get("x-forwarded-for") if headers is not None else None
        if forwarded:
            return forwarded.split(",")[-1].strip()
    return host or ""


def client_key(request: Any) -> str:
    """The address of a gr.Request (or a Starlette request); "" when there is none (a direct call in a test)."""
    client = getattr(request, "client", None)
    return address(getattr(client, "host", None), getattr(request, "headers", None)) if request is not None else ""


UNREAD_BACKLOG = 3  # messages of one session waiting for a stream: more, and nobody is reading it


def stream_read(request: Any) -> Callable[[], bool]:
    """Whether the stream of the event behind a gr.Request is being read: a check to call as a generator yields.

    Gradio iterates a generator whether or not anyone opened its result stream: each yield becomes a message in the
    session's pending queue, which an open stream (`/call/<name>/<id>`, `/queue/data`) empties at once. A backlog
    past UNREAD_BACKLOG means nobody is reading (a POST whose stream was never opened). No request or no session (a
    direct call in a test): always read.
    """
    session = getattr(request, "session_hash", None) if request is not None else None
    app = getattr(getattr(request, "request", None), "app", None) if session else None
    blocks = app.get_blocks() if hasattr(app, "get_blocks") else None
    queue = getattr(blocks, "_queue", None)
    if queue is None:
        return lambda: True

    def read() -> bool:
        messages = queue.pending_messages_per_session.get(session)
        return messages is None or messages.qsize() <= UNREAD_BACKLOG

    return read


class QueueGuard:
    """ASGI middleware: a per-address cap on waiting events and cancellation of unread ones."""

    def __init__(self, app: Any, per_client: int | None = None, unread_s: float | None = None, poll_s: float = 1.0):
        self.app = app
        # Half the queue by default: a class behind one school address still fits, one script cannot take it all.
        self.per_client = per_client if per_client is not None else settings.current().per_client_queue
        self.unread_s = unread_s if unread_s is not None else settings.current().unread_s
        self.poll_s = poll_s
        self.read: OrderedDict[str, None] = OrderedDict()
        self.cancelled = 0  # unread events cancelled so far (the tests and the bench read it)
        self._watcher: asyncio.Task | None = None
        self._server: Any = None
        self._names: dict[str, list[str]] | None = None  # endpoint -> its parameter names (read once from Gradio)
        # address -> its admitted POSTs: a slot is [event id], None until Gradio has answered with the id
        self._slots: dict[str, list[list[str | None]]] = {}
        self._slots_lock = threading.Lock()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        self._server = self._server or scope.get("app")
        if self._watcher is None and self.unread_s > 0:
            self._watcher = asyncio.get_running_loop().create_task(self._watch())
        path, method = scope.get("path", ""), scope.get("method", "")
        if _names_a_url(path):
            log.info("refused: a request for the server to fetch %s", path[:200])
            return await _json(send, 403, {"detail": "This server serves its own files only; it fetches no URL."})
        if method == "GET":
            self._mark_read(path, scope.get("query_string", b"").decode("latin-1"))
            return await self.app(scope, receive, send)
        if path.startswith(API) and not path.startswith(f"{API}/upload") and _declared_size(scope) > MAX_BODY_BYTES:
            return await self._too_large(send, path, _declared_size(scope))  # from the headers: nothing is read
        slot = None
        if method == "POST" and path.startswith(JOIN_PATHS) and self.per_client > 0:
            who = address((scope.get("client") or ("",))[0], _Headers(scope))
            slot, held = self._admit(who)
            if slot is None:
                log.info("refused: %s already has %d requests queued (PLAYGROUND_CLIENT_QUEUE)", who, held)
                return await _json(send, 429, {"detail": f"Too many requests waiting from your address ({held}): "
                                                          "wait for them to finish, then try again."})  # fmt: skip
        try:
            call = path.startswith(f"{API}/call/")  # read whatever its content type says: Gradio reads it as JSON
            if method == "POST" and (call or path.startswith(API) and _Headers(scope).get("content-type", "").startswith(JSON)):
                receive, data, refusal = await self._read_json(receive)
                if refusal is TOO_LARGE:
                    return await self._too_large(send, path, MAX_BODY_BYTES + 1)
                status = 400
                if not refusal and call:
                    refusal, status = self._check_values(path[len(f"{API}/call/") :].strip("/"), data), 422
                if refusal:
                    log.info("refused: %s", refusal)
                    return await _json(send, status, {"detail": refusal})
            if slot is None:
                return await self.app(scope, receive, send)
            return await self.app(scope, receive, self._reading_event_id(send, slot))
        finally:
            if slot is not None and slot[0] is None:  # Gradio queued nothing (refused, failed, client gone)
                self._release(who, slot)

    # -- the per-address cap ------------------------------------------------------------------------------------
    def _admit(self, who: str) -> tuple[list[str | None] | None, int]:
        """A slot for one more event of `who`, or None and how many it holds. Counting and taking happen under one
        lock with no await between them, so POSTs that arrive together are counted one after another."""
        with self._slots_lock:
            held = self._slots.setdefault(who, [])
            held[:] = [slot for slot in held if slot[0] is None or self._alive(slot[0])]
            if len(held) >= self.per_client:
                return None, len(held)
            slot: list[str | None] = [None]
            held.append(slot)
            return slot, len(held)

    def _release(self, who: str, slot: list[str | None]) -> None:
        with self._slots_lock:
            held = self._slots.get(who, [])
            if slot in held:
                held.remove(slot)
            if not held:
                self._slots.pop(who, None)

    def _alive(self, event_id: str) -> bool:
        """Whether Gradio still holds this event, waiting or running (it forgets an event once it has finished,
        failed or been cancelled; a cancelled running one is no longer alive)."""
        queue = self._queue()
        event = queue.event_ids_to_events.get(event_id) if queue is not None else None
        return event is not None and event.alive

    @staticmethod
    def _reading_event_id(send, slot: list[str | None]):
        """`send`, noting in `slot` the event id of Gradio's answer ({"event_id": ...}, status 200)."""
        state = {"status": 0, "body": b""}

        async def noting(message):
            if message["type"] == "http.response.start":
                state["status"] = message.get("status", 0)
            elif message["type"] == "http.response.body" and state["status"] == 200:
                state["body"] += message.get("body", b"")
                if not message.get("more_body", False):
                    try:
                        slot[0] = json.loads(state["body"]).get("event_id") or None
                    except (ValueError, AttributeError):
                        pass
            await send(message)

        return noting

    # -- a JSON body ---------------------------------------------------------------------------------------------
    async def _read_json(self, receive) -> tuple[Any, Any, str]:
        """Read a JSON body: a `receive` that replays it to the app, its data (None when it is not JSON: the app
        answers that), and a refusal or "". JSON nested past Python's recursion limit (a 10 KB body of brackets)
        raises RecursionError, not a ValueError: Gradio's /call route through this guard and the MCP server then
        answered HTTP 500 with a traceback in the log; it is refused here in words."""
        chunks, more, size = [], True, 0
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return receive, None, ""
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > MAX_BODY_BYTES:  # a body sent without its length: refused once it passes the limit
                return receive, None, TOO_LARGE
            more = message.get("more_body", False)
        body, replayed = b"".join(chunks), False

        async def replay():
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        try:
            return replay, (json.loads(body) if body else None), ""
        except RecursionError:
            return replay, None, "The request's JSON is nested too deeply to read (Python reads about 1,000 levels)."
        except ValueError:
            return replay, None, ""

    @staticmethod
    async def _too_large(send, path: str, size: int) -> None:
        limit = f"{MAX_BODY_BYTES / 2**20:g} MB"
        refusal = f"The request body is too large ({size / 2**20:.1f} MB; at most {limit}, the largest corpus the lab takes)."
        log.info("refused: %s %s", path, refusal)
        await _json(send, 413, {"detail": refusal})

    # -- a REST call's values -------------------------------------------------------------------------------------
    def _check_values(self, name: str, body: Any) -> str:
        """A refusal in words for a /call/<name> body that leaves values out (Gradio answers {"error": null} and logs
        a traceback), or ""."""
        names = self._parameters(name)
        data = body.get("data") if isinstance(body, dict) else None
        if names is None or not isinstance(data, list) or len(data) >= len(names):
            return ""
        missing = ", ".join(names[len(data) :])
        return (
            f"/{name} takes {len(names)} values in this order: {', '.join(names)}; {len(data)} were sent "
            f"(missing: {missing}). Send every value, defaults included (the API page lists them)."
        )

    def _parameters(self, name: str) -> list[str] | None:
        """The parameter names of a callable endpoint, in order (None: not one of ours, Gradio answers it)."""
        blocks = self._server.get_blocks() if self._server is not None else None
        if blocks is None or "/" in name:
            return None
        if self._names is None:
            info = blocks.get_api_info().get("named_endpoints", {})
            self._names = {key.lstrip("/"): [p["parameter_name"] for p in ep["parameters"]] for key, ep in info.items()}
        return self._names.get(name)

    # -- reading ------------------------------------------------------------------------------------------------
    def _mark_read(self, path: str, query: str) -> None:
        ids: list[str] = []
        if path.startswith(f"{API}/queue/data"):
            ids = [part[len("session_hash=") :] for part in query.split("&") if part.startswith("session_hash=")]
        elif path.startswith(f"{API}/call/") and path.count("/") >= 4:  # /gradio_api/call/<name>/<event_id>
            event_id = path.rstrip("/").rsplit("/", 1)[-1]
            ids = [event_id]
            queue = self._queue()
            event = queue.event_ids_to_events.get(event_id) if queue is not None else None
            if event is not None:
                ids.append(event.session_hash)
        for key in ids:
            self.read[key] = None
            self.read.move_to_end(key)
        while len(self.read) > READ_REMEMBERED:
            self.read.popitem(last=False)

    def _is_read(self, event: Any) -> bool:
        return event._id in self.read or event.session_hash in self.read

    # -- Gradio's queue, read only ------------------------------------------------------------------------------
    def _queue(self) -> Any:
        blocks = self._server.get_blocks() if self._server is not None else None
        return getattr(blocks, "_queue", None)

    def _waiting(self) -> Iterable[Any]:
        queue = self._queue()
        if queue is None:
            return []
        return [event for q in list(queue.event_queue_per_concurrency_id.values()) for event in list(q.queue)]

    def _running(self) -> Iterable[Any]:
        queue = self._queue()
        return [] if queue is None else [event for job in list(queue.active_jobs) if job for event in job]

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.poll_s)
            try:
                await self.cancel_unread()
            except Exception:  # the guard must never take the server down; say so and keep watching
                log.exception("the unread-request watcher failed once")

    async def cancel_unread(self) -> int:
        """Cancel every queued or running event nobody has read `unread_s` seconds after it was queued."""
        queue, now, n = self._queue(), time.monotonic(), 0
        if queue is None:
            return 0
        for event in [*self._waiting(), *self._running()]:
            if not event.alive or self._is_read(event) or now - event.enqueue_time < self.unread_s:
                continue
            # Out of the queue; a running generator stops at its next yield, and Gradio then closes it (its
            # `finally` frees what it holds). A plain function already running finishes, and its result is dropped.
            await queue.clean_events(event_id=event._id)
            self._tell_late_reader(queue, event)
            n += 1
            log.info("cancelled %s: nobody read its result within %.0f s", getattr(event.fn, "api_name", "?"), self.unread_s)
        self.cancelled += n
        return n

    @staticmethod
    def _tell_late_reader(queue: Any, event: Any) -> None:
        """A reader who comes after the cancel gets an error at once, not a stream that only sends heartbeats
        (Gradio assumes a cancelled event's reader has gone, and never completes it)."""
        messages = queue.pending_messages_per_session.get(event.session_hash)
        if messages is not None:
            error = "cancelled: nobody read this request's result in time; send it again and read its stream"
            messages.put_nowait(ProcessCompletedMessage(output={"error": error}, success=False, event_id=event._id))


TOO_LARGE = "too large"  # _read_json's refusal for a body past MAX_BODY_BYTES (answered 413 by the caller)


def _names_a_url(path: str) -> bool:
    """`/gradio_api/file=<http(s) URL>`: Gradio 6.31 fetches that URL (safehttpx) and streams it back, so a client
    could make the server resolve host names of its choosing and fetch from them (on a networked Space, an open fetch
    proxy; and it asked an outside DNS-over-HTTPS resolver about private addresses). The playground serves only its
    own files: a `file=` that names a URL is refused before anything resolves. Any case, any slashes after it."""
    for prefix in (f"{API}/file=", "/file="):
        if path.startswith(prefix):
            return path[len(prefix) :].lstrip().lower().startswith(("http:", "https:"))
    return False


def _declared_size(scope) -> int:
    """The body size the request's Content-Length announces (0: none, or not a number)."""
    raw = _Headers(scope).get("content-length", "")
    return int(raw) if raw.strip().isdigit() else 0


class _Headers:
    """The header lookup `address` needs, over an ASGI scope's raw headers."""

    def __init__(self, scope):
        self._headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}

    def get(self, name: str, default: Any = None) -> Any:
        return self._headers.get(name.lower(), default)


async def _json(send, status: int, payload: dict) -> None:
    body = json.dumps(payload).encode("utf-8")
    await send({"type": "http.response.start", "status": status, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body})


# The largest upload (PLAYGROUND_MAX_UPLOAD, 1 MB: the lab's corpus, at most 600 KB, is the only file the app reads) and
# the sessions kept (PLAYGROUND_SESSIONS, 300: ~1 MB each, Gradio copies the page config per session): playground/settings.py.


def launch_limits() -> dict[str, Any]:
    """The `demo.launch` arguments that bound what one person can make the server hold.

    `max_file_size`: Gradio stores every upload (30 min, see delete_cache) before any handler runs.
    `state_session_capacity`: every page load and every /gradio_api/call is a session; past this many the
    least recently used one is forgotten (Gradio's default, 10,000, is ~10 GB).
    `middleware`: `QueueGuard` (per-address cap, unread work cancelled).
    """
    return {
        "max_file_size": settings.current().max_upload,
        "state_session_capacity": settings.current().sessions,
        "app_kwargs": {"middleware": [Middleware(QueueGuard)]},
    }


class AttemptLimiter:
    """At most `limit` failed attempts per address in any `window_s` seconds (join codes: guessing stays slow).

    Only failures count, so a whole class joining from one school address is never held back; a wrong code is. Per
    process: with N replicas an address gets N times the attempts (docs/hosting.md counts with it).
    """

    def __init__(self, limit: int = 10, window_s: float = 60.0, clock=time.monotonic, remembered: int = 10_000):
        self.limit, self.window_s, self.clock, self.remembered = limit, window_s, clock, remembered
        self._failures: OrderedDict[str, list[float]] = OrderedDict()
        self._lock = threading.Lock()

    def _recent(self, who: str) -> list[float]:
        since = self.clock() - self.window_s
        times = [x for x in self._failures.get(who, []) if x > since]
        if times:
            self._failures[who] = times
            self._failures.move_to_end(who)
        else:
            self._failures.pop(who, None)
        return times

    def allowed(self, who: str) -> bool:
        with self._lock:
            return len(self._recent(who)) < self.limit

    def failed(self, who: str) -> None:
        with self._lock:
            self._failures[who] = [*self._recent(who), self.clock()]
            self._failures.move_to_end(who)
            while len(self._failures) > self.remembered:  # bounded: the oldest addresses are forgotten first
                self._failures.popitem(last=False)


JOINS = AttemptLimiter()  # the app's join guard: /class/api/join and the /class_join endpoint share it
