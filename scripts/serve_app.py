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
from typing import Iterator

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


@contextlib.contextmanager
def serve(timeout: float = 240, args: list[str] | None = None, cwd: Path = ROOT) -> Iterator[str]:
    """Start the app (or `args`, a server that reads $PORT, run in `cwd`), yield its URL once it answers, stop it
    afterwards (its log is shown if it never starts)."""
    port = free_port()
    env = os.environ | OFFLINE_ENV | {"PORT": str(port), "PYTHONUNBUFFERED": "1"}
    with tempfile.TemporaryFile("w+") as log:
        proc = subprocess.Popen(args or [sys.executable, "app.py"], cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}/"
        try:
            deadline = time.time() + timeout
            while True:
                try:
                    urllib.request.urlopen(url, timeout=2)
                    break
                except OSError:
                    if proc.poll() is not None or time.time() > deadline:
                        log.seek(0)
                        raise SystemExit(f"the app did not start:\n{log.read()[-3000:]}") from None
                    time.sleep(0.5)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
