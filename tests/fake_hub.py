"""A stand-in for a Hugging Face Hub mirror (HF_ENDPOINT) on 127.0.0.1: repositories served in the hub's layout.

It answers what huggingface_hub asks when transformers loads a model: `HEAD|GET /<repo>/resolve/<rev>/<file>`
with the commit and ETag headers, `404` + `X-Error-Code: EntryNotFound` for a file the repo lacks, the model info
and tree API, and the reachability probe. Every request is logged (`requests`) so a test can see what crossed.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

COMMIT = "0123456789abcdef0123456789abcdef01234567"


class FakeHub:
    def __init__(self, repos: dict[str, Path]):
        self.repos = repos  # repo id -> folder of files
        self.requests: list[str] = []
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_HEAD(self):
                self._answer(body=False)

            def do_GET(self):
                self._answer(body=True)

            def _send(self, code: int, data: bytes = b"", headers: dict | None = None, body: bool = True):
                self.send_response(code)
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if body and data:
                    self.wfile.write(data)

            def _answer(self, body: bool):
                hub.requests.append(f"{self.command} {self.path}")
                path = self.path.split("?", 1)[0]
                if path.startswith("/api/models/"):
                    return self._api(path[len("/api/models/") :], body)
                for repo, folder in hub.repos.items():
                    prefix = f"/{repo}/resolve/"
                    if path.startswith(prefix):
                        revision, _, name = path[len(prefix) :].partition("/")
                        commit = revision if re.fullmatch(r"[0-9a-f]{40}", revision) else COMMIT  # a pinned commit is itself
                        file = folder / name
                        if not file.is_file():
                            return self._send(404, b"", {"X-Error-Code": "EntryNotFound", "X-Repo-Commit": commit}, body)
                        data = file.read_bytes()
                        etag = hashlib.sha256(data).hexdigest()
                        headers = {"X-Repo-Commit": commit, "ETag": f'"{etag}"', "Content-Type": "application/octet-stream"}
                        return self._send(200, data, headers, body)
                self._send(404, b"", {"X-Error-Code": "RepoNotFound"}, body)

            @staticmethod
            def _entry(file: Path) -> dict:
                data = file.read_bytes()
                return {"type": "file", "path": file.name, "size": len(data), "oid": hashlib.sha1(data).hexdigest()}

            def _api(self, rest: str, body: bool):
                for repo, folder in hub.repos.items():
                    if rest == repo or rest.startswith(repo + "/"):
                        files = sorted(p.name for p in folder.iterdir() if p.is_file())
                        if "/tree/" in rest:  # flat repos: the root lists every file, a sub-folder is empty
                            sub = rest.split("/tree/", 1)[1].partition("/")[2]
                            info = [] if sub else [self._entry(folder / f) for f in files]
                        else:
                            info = {"id": repo, "sha": COMMIT, "siblings": [{"rfilename": f} for f in files]}
                        return self._send(200, json.dumps(info).encode(), {"Content-Type": "application/json"}, body)
                if rest.startswith("gpt2"):  # the app's reachability probe
                    return self._send(200, b"{}", {"Content-Type": "application/json"}, body)
                self._send(404, b"", {"X-Error-Code": "RepoNotFound"}, body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> FakeHub:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
