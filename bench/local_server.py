"""The app on a free 127.0.0.1 port for a bench, and its REST API called the raw way (POST, then read the stream)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts import serve_app  # noqa: E402
from scripts.serve_app import stop  # noqa: E402  (bench scripts import it from here)


def start_app(**env: str) -> tuple[subprocess.Popen, str]:
    """`python app.py` offline on a free local port (scripts/serve_app), with extra environment; waits until it
    answers. Its log goes to $BENCH_APP_LOG when set."""
    log = open(os.environ["BENCH_APP_LOG"], "a") if os.environ.get("BENCH_APP_LOG") else subprocess.DEVNULL  # noqa: SIM115
    proc, url = serve_app.start(env=env, log=log)
    try:
        serve_app.wait_answering(url, 240, lambda: proc.poll() is None, lambda: "")
    except serve_app.NotStarted:
        stop(proc)
        raise
    return proc, url.rstrip("/")


def call(url: str, name: str, data: list, timeout: float = 300) -> tuple[bool, str]:
    """One REST call (a new session each time, as every outside client makes): (completed, last event's data)."""
    req = urllib.request.Request(
        f"{url}/gradio_api/call/{name}", json.dumps({"data": data}).encode(), {"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            event_id = json.loads(r.read())["event_id"]
        with urllib.request.urlopen(f"{url}/gradio_api/call/{name}/{event_id}", timeout=timeout) as r:
            event = ""
            for raw in r:
                line = raw.decode("utf-8", "replace").strip()
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:") and event in ("complete", "error"):
                    return event == "complete", line[5:].strip()
        return False, "stream ended without a result"
    except OSError as exc:
        return False, f"{type(exc).__name__}: {exc}"


def rss_mb(pid: int) -> float:
    """Resident memory of a process, in MB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")
