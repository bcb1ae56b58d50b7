"""A throwaway Redis for tests and benches: Debian's `redis-server` on a free local port, no disk, stopped after.

`scripts/install.sh --test` installs it (package redis-server). Tests that need it skip with a reason when it is
missing, so the unit tier still runs on a machine without it.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import tempfile
from typing import Iterator

from tests.waiting import wait_until

SERVER = shutil.which("redis-server")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """A fresh Redis (no persistence, loopback only); yields its URL."""
    import redis

    port = _free_port()
    with tempfile.TemporaryDirectory() as folder:
        args = [SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", folder]
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        url = f"redis://127.0.0.1:{port}/0"
        client = redis.Redis.from_url(url)

        def answers() -> bool:
            try:
                return bool(client.ping())
            except redis.ConnectionError:
                return proc.poll() is not None  # exited: stop waiting, the assert below says so

        try:
            assert wait_until(answers, 20) and proc.poll() is None, "redis-server did not start"
            yield url
        finally:
            client.close()
            proc.terminate()
            proc.wait(10)
