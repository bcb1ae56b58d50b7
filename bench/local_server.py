"""The app on a free 127.0.0.1 port for a bench, and its REST API called the raw way (POST, then read the stream)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def start_app(**env: str) -> tuple[subprocess.Popen, str]:
    """`python app.py` offline on a free local port, with extra environment; waits until it answers."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    full = os.environ | {"PORT": str(port), "GRADIO_ANALYTICS_ENABLED": "False", "HF_HUB_OFFLINE": "1", **env}
    log = open(os.environ["BENCH_APP_LOG"], "a") if os.environ.get("BENCH_APP_LOG") else subprocess.DEVNULL  # noqa: SIM115
    proc = subprocess.Popen([sys.executable, "app.py"], cwd=ROOT, env=full, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    for _ in range(480):
        try:
            urllib.request.urlopen(url + "/", timeout=2)
            return proc, url
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.5)
    proc.kill()
    raise RuntimeError("the app did not start")


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()


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
