"""`python app.py` offline on a free local port, for the scripts that drive it (api_docs.py, screenshots.py)."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Callable, Iterator

ROOT = Path(__file__).resolve().parents[1]
OFFLINE_ENV = {"GRADIO_ANALYTICS_ENABLED": "False", "HF_HUB_OFFLINE": "1", "HF_HUB_DISABLE_TELEMETRY": "1"}
# Debian's Chromium, never a browser download; the flags DESIGN.md names (no outside requests of its own).
# The e2e tests, the screenshot script and bench/links.py all start it with these.
CHROMIUM = os.environ.get("PLAYGROUND_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class NotStarted(RuntimeError):
    """The app exited, or did not answer in time; the message ends with its log."""


def start(args: list[str] | None = None, cwd: Path = ROOT, env: dict | None = None, log=subprocess.DEVNULL):
    """Start the app (or `args`, a server that reads $PORT, run in `cwd`) offline on a free port, with `env` added and
    its output to `log` (an open file); the process and its URL, without waiting for it to answer."""
    port = free_port()
    full = os.environ | OFFLINE_ENV | (env or {}) | {"PORT": str(port), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(args or [sys.executable, "app.py"], cwd=cwd, env=full, stdout=log, stderr=subprocess.STDOUT)
    return proc, f"http://127.0.0.1:{port}/"


def wait_answering(url: str, timeout: float, alive: Callable[[], bool], log_text: Callable[[], str]) -> None:
    """Return once `url` answers; NotStarted (with the log's end) when `alive()` says the app died or time is up."""
    deadline = time.time() + timeout
    while True:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            if not alive() or time.time() > deadline:
                raise NotStarted(f"the app did not start:\n{log_text()[-3000:]}") from None
            time.sleep(0.5)


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


@contextlib.contextmanager
def serve(timeout: float = 240, args: list[str] | None = None, cwd: Path = ROOT) -> Iterator[str]:
    """Start the app (or `args`, see `start`), yield its URL once it answers, stop it afterwards (its log is shown if
    it never starts)."""
    with tempfile.TemporaryFile("w+") as log:
        proc, url = start(args, cwd, log=log)
        try:
            try:
                wait_answering(url, timeout, lambda: proc.poll() is None, lambda: (log.seek(0), log.read())[1])
            except NotStarted as err:
                raise SystemExit(str(err)) from None
            yield url
        finally:
            stop(proc)
